#!/bin/sh
# unorules serve as a cluster on one machine: PostgreSQL, three server processes, nginx in front.
#
#   sh serve-cluster.sh start     # then open http://127.0.0.1:8080/
#   sh serve-cluster.sh stop
#
# Settings (environment): DIR where everything is kept (default ./unorules-cluster), PORT the
# proxy's port (8080), FIRST the first server process's port (8001; the others FIRST+1, FIRST+2),
# PG_PORT PostgreSQL's (5433), UNORULES the command (unorules), SERVE_ARGS more options for every
# server process (such as --bot-delay 0.3 --allow-origin https://uno.example.org). Every server listens on 127.0.0.1
# only and PostgreSQL trusts connections from this machine: on several machines, give the
# database a password (postgresql://unorules:PASSWORD@HOST/...) and let only the servers reach it.
set -eu
DIR=$(mkdir -p "${DIR:-unorules-cluster}" && cd "${DIR:-unorules-cluster}" && pwd)
PORT=${PORT:-8080}
FIRST=${FIRST:-8001}
PG_PORT=${PG_PORT:-5433}
UNORULES=${UNORULES:-unorules}
PG_BIN=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
AS=""  # initdb and PostgreSQL refuse to run as root: then they run as the postgres user
if [ "$(id -u)" = 0 ]; then AS="runuser -u postgres --"; fi
DB="postgresql://unorules@127.0.0.1:$PG_PORT/postgres"

case "${1:-}" in
start)
    if [ ! -d "$DIR/pg" ]; then
        mkdir -p "$DIR/pg"
        if [ -n "$AS" ]; then chown postgres "$DIR" "$DIR/pg"; fi
        $AS "$PG_BIN/initdb" -D "$DIR/pg" -U unorules --auth=trust -E UTF8 >/dev/null
    fi
    $AS "$PG_BIN/pg_ctl" -D "$DIR/pg" -l "$DIR/pg/log" -w start \
        -o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT -c unix_socket_directories=$DIR/pg"
    servers=""
    for n in 0 1 2; do
        port=$((FIRST + n))
        # each process is started on its own; the first one creates the tables (schema and migrations)
        nohup $UNORULES serve --db "$DB" --port "$port" ${SERVE_ARGS:-} >"$DIR/serve-$port.log" 2>&1 &
        echo $! >"$DIR/serve-$port.pid"
        servers="$servers        server 127.0.0.1:$port max_fails=1 fail_timeout=5s;
"
    done
    mkdir -p "$DIR/nginx"
    cat >"$DIR/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $DIR/nginx/nginx.pid;
error_log $DIR/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $DIR/nginx/body;
    proxy_temp_path $DIR/nginx/proxy;
    fastcgi_temp_path $DIR/nginx/fastcgi;
    uwsgi_temp_path $DIR/nginx/uwsgi;
    scgi_temp_path $DIR/nginx/scgi;
    upstream unorules {  # any process serves any table: no stickiness needed
$servers    }
    map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
    server {
        listen 127.0.0.1:$PORT;
        location / {
            proxy_pass http://unorules;
            proxy_http_version 1.1;  # websockets: pass the upgrade on
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Host \$host;
            proxy_read_timeout 1h;
            proxy_next_upstream error timeout;  # a process that is down: the next one
        }
    }
}
CONF
    # wait until every server process answers, then start the proxy
    for n in 0 1 2; do
        tries=0
        until python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $((FIRST + n))), 1)" 2>/dev/null; do
            tries=$((tries + 1))
            if [ "$tries" -gt 300 ]; then echo "server on port $((FIRST + n)) did not start" >&2; exit 1; fi
            sleep 0.1
        done
    done
    nginx -c "$DIR/nginx/nginx.conf"
    echo "unorules cluster: open http://127.0.0.1:$PORT/"
    ;;
stop)
    if [ -f "$DIR/nginx/nginx.pid" ]; then nginx -c "$DIR/nginx/nginx.conf" -s stop || true; fi
    for pidfile in "$DIR"/serve-*.pid; do
        [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
        rm -f "$pidfile"
    done
    $AS "$PG_BIN/pg_ctl" -D "$DIR/pg" -m fast -w stop || true
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac

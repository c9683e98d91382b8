"""Load benchmark of ``unorules serve`` (a script, not a test): many tables of websocket clients.

    .venv/bin/python benchmarks/serve.py                 # 200 tables x 4 clients, about a minute
    .venv/bin/python benchmarks/serve.py --tables 20 --seconds 10
    .venv/bin/python benchmarks/serve.py --db postgres --processes 3   # a cluster on PostgreSQL

Starts the server in a separate process on 127.0.0.1 (an SQLite file in a
temporary folder, so every action is committed as in real use; no bot delay,
no rate limit, no per-address limit: every client is on 127.0.0.1), creates
``--tables`` tables of four people, and connects four
websocket clients to each, all in this process. Each client plays its seat:
when it is to move it sends its first legal play (else its first legal
action). The *latency* of an action is the time from the client sending it to
the same client receiving the view of the state it produced, and does not
include the client's thinking time (``--think``, 0.5 s on average by
default, like the server's own bots; ``--think 0`` saturates the server and
measures its throughput instead). Measured during
``--seconds`` after every client is connected; reported: actions taken per
second (all tables), latency p50/p90/p99/max, refused actions, the mean size
of the messages the clients received. Loopback only,
every loop bounded (by time and by ``--max-actions`` per table).

``--db postgres`` keeps the tables in PostgreSQL instead: a temporary cluster
started for the run (Debian's binaries, ``fsync`` on, as a real server), or
``--db postgresql://…`` for a database of your own (it gets the tables).
``--processes N`` starts N server processes on it; table *i*'s seat *s*
connects to process (*i* + *s*) mod N, so with N > 1 most pushes cross
processes. Also reported then: the *cross-process* latency (from a client
sending an action to a client of the same table on another process receiving
the state it produced), each process's CPU per action, and the database's
commits per second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

HOST = "127.0.0.1"
OPENING = 32
"""How many clients connect (open the websocket and wait for the welcome) at the same time."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far (Linux /proc), 0.0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(port: int, db: str, folder: Path, profile: str | None = None) -> subprocess.Popen[bytes]:
    code = (
        "from unorules.serve import run; "
        f"run(host={HOST!r}, port={port}, db={db!r}, "
        # every client is on this machine's one address: no per-address limit applies here
        "bot_delay=0, rate=1e9, burst=1e9, max_tables=100000, creates_per_address=10**9, "
        "creates_total=10**9, max_connections_per_address=10**6)"
    )
    if profile is None:
        process = subprocess.Popen([sys.executable, "-c", code])
    else:  # the server under cProfile, its figures written to PROFILE when it stops
        script = folder / "server.py"
        script.write_text(code + "\n")
        process = subprocess.Popen([sys.executable, "-m", "cProfile", "-o", str(profile), str(script)])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex((HOST, port)) == 0:
                return process
        time.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.refused = 0
        self.measuring = False
        self.games_over = 0
        self.messages = 0
        self.message_bytes = 0
        self.cross: list[float] = []
        self.sent: dict[tuple[str, int], tuple[float, int]] = {}
        """When each action was sent, by (table, version acted on), and from which process."""


async def seat_client(
    ws_url: str,
    table: str,
    token: str,
    stats: Stats,
    stop: asyncio.Event,
    ready: asyncio.Barrier,
    limit: int,
    think: float,
    process: int = 0,
    opening: asyncio.Semaphore | None = None,
) -> None:
    if opening is not None:  # connecting and greeted: at most so many clients at a time
        await opening.acquire()
    async with connect(ws_url + "/ws/" + table, max_size=2**22, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: tuple[int, float] | None = None  # (version acted on, when)
        sent_for = -1
        first = True
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            if first:
                first = False
                if opening is not None:
                    opening.release()
                await ready.wait()
            if stats.measuring:
                stats.messages += 1
                stats.message_bytes += len(raw.encode() if isinstance(raw, str) else raw)
            message = json.loads(raw)
            if message["type"] == "error":
                stats.refused += stats.measuring
                pending = None
                sent_for = -1  # look again at the next state
                continue
            if message["type"] != "state":
                continue
            table_meta, view = message["table"], message["view"]
            version = table_meta["version"]
            sent = stats.sent.get((table, version - 1))
            if sent is not None and sent[1] != process and stats.measuring:
                stats.cross.append(time.perf_counter() - sent[0])
            if pending is not None and version > pending[0]:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - pending[1])
                pending = None
            if view["is_over"] or version >= limit:
                if view["is_over"] and message["you"] == 0:
                    stats.games_over += 1
                return
            mine = view["legal_actions"]
            if mine and view["current_player"] == message["you"] and sent_for != version:
                if think > 0:  # a bot thinking (as the server's own bots wait before acting)
                    await asyncio.sleep(think * (0.5 + random.random()))
                plays = [a for a in mine if a["verb"] == "play"]
                action = (plays or mine)[0]["text"]
                pending = (version, time.perf_counter())
                stats.sent[(table, version)] = (pending[1], process)
                sent_for = version
                await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
                stats.actions += stats.measuring


def _commits(db: str) -> int:
    """The transactions committed so far in the PostgreSQL database ``db`` (0 for SQLite)."""
    if not db.startswith("postgresql://"):
        return 0
    import psycopg

    with psycopg.connect(db, autocommit=True) as connection:
        connection.execute("SELECT pg_stat_force_next_flush()")
        row = connection.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
        return int(row[0]) if row else 0


async def run(args: argparse.Namespace) -> dict[str, Any]:
    postgres: Any = None
    db = args.db
    with tempfile.TemporaryDirectory() as folder:
        if db == "postgres":  # a temporary cluster, durable as a real one
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "serve"))
            from postgres_server import TempPostgres  # type: ignore[import-not-found]

            postgres = TempPostgres(durable=True).start()
            db = postgres.new_database()
        elif db == "sqlite":
            db = str(Path(folder) / "tables.sqlite")
        try:
            return await measure(args, db, Path(folder))
        finally:
            if postgres is not None:
                postgres.stop()


async def measure(args: argparse.Namespace, db: str, folder: Path) -> dict[str, Any]:
    ports = [free_port() for _ in range(args.processes)]
    bases = [f"http://{HOST}:{port}" for port in ports]
    ws_urls = [f"ws://{HOST}:{port}" for port in ports]
    ws_url = ws_urls[0]
    servers = [start_server(ports[0], db, folder, args.profile)]
    servers += [start_server(port, db, folder) for port in ports[1:]]
    count = len(servers)
    try:
        tokens: list[tuple[str, str, int]] = []
        for i in range(args.tables):
            created = post(
                bases[i % count],
                "/api/tables",
                {"rules": args.rules.split(","), "seats": ["open"] * 3, "name": "P0", "seed": i},
            )
            tokens.append((created["table"], created["token"], i % count))
            for seat in (1, 2, 3):
                joined = post(
                    bases[(i + seat) % count],
                    f"/api/tables/{created['table']}/join",
                    {"name": f"P{seat}", "invite": created["invite"]},
                )
                tokens.append((created["table"], joined["token"], (i + seat) % count))
        stats, stop = Stats(), asyncio.Event()
        ready = asyncio.Barrier(len(tokens) + 1)
        # the clients connect a few dozen at a time, as people arrive: all 800 at once would
        # overflow the server's accept backlog (128) and leave most of them retrying their
        # connection with ever longer pauses, which measures the kernel's SYN back-off
        opening = asyncio.Semaphore(OPENING)
        clients = [
            asyncio.create_task(
                seat_client(ws_urls[p], t, k, stats, stop, ready, args.max_actions, args.think, p, opening)
            )
            for t, k, p in tokens
        ]
        await asyncio.wait_for(ready.wait(), 600)  # every client connected and greeted
        hosts = {}
        for table, token, _ in tokens[::4]:
            hosts[table] = token
        # start every table (its host's own connection would do; a separate one keeps the clients simple)
        for table, token in hosts.items():
            async with connect(ws_url + "/ws/" + table) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                await ws.send(json.dumps({"type": "start"}))
                await ws.recv()
        stats.measuring = True
        began = time.perf_counter()
        commits = _commits(db)
        cpus, client_cpu = [cpu_seconds(s.pid) for s in servers], time.process_time()
        done, _ = await asyncio.wait(clients, timeout=args.seconds)
        elapsed = time.perf_counter() - began
        cpus = [cpu_seconds(s.pid) - c for s, c in zip(servers, cpus, strict=True)]
        client_cpu = time.process_time() - client_cpu
        commits = _commits(db) - commits
        server_cpu = sum(cpus)
        stats.measuring = False
        stop.set()
        await asyncio.wait(clients, timeout=10)
        for task in clients:
            task.cancel()
    finally:
        for server in servers:
            server.send_signal(signal.SIGINT)
        for server in servers:
            server.wait(15)
    lat = sorted(stats.latencies)
    cross = sorted(stats.cross)

    def pct(p: float, values: list[float] = lat) -> float:
        return 1000 * values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")

    return {
        "tables": args.tables,
        "clients": len(tokens),
        "seconds": round(elapsed, 2),
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / elapsed, 1),
        "latency_ms": {
            "p50": round(pct(0.50), 2),
            "p90": round(pct(0.90), 2),
            "p99": round(pct(0.99), 2),
            "max": round(1000 * lat[-1], 2) if lat else None,
            "mean": round(1000 * statistics.fmean(lat), 2) if lat else None,
        },
        "think_seconds": args.think,
        "processes": count,
        "store": "postgresql" if db.startswith("postgresql://") else "sqlite",
        "cross_process_ms": {
            "count": len(cross),
            "p50": round(pct(0.50, cross), 2),
            "p99": round(pct(0.99, cross), 2),
            "max": round(1000 * cross[-1], 2) if cross else None,
        },
        "cpu_ms_per_action_per_process": [round(1000 * c / max(stats.actions, 1), 3) for c in cpus],
        "commits_per_second": round(commits / elapsed, 1) if commits else None,
        "server_cpu_ms_per_action": round(1000 * server_cpu / max(stats.actions, 1), 3),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "clients_cpu_share": round(client_cpu / elapsed, 2),
        "refused": stats.refused,
        "messages": stats.messages,
        "bytes_per_message": round(stats.message_bytes / max(stats.messages, 1)),
        "clients_done_early": len(done),
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=200, help="tables of 4 clients (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure (default 30)")
    parser.add_argument(
        "--max-actions", type=int, default=100000, help="a table's clients stop after this many actions"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="a client's mean thinking time before acting, in seconds (default 0.5; 0: as fast as possible)",
    )
    parser.add_argument("--rules", default="classic", help="plugins, comma-separated (default classic)")
    parser.add_argument(
        "--profile", metavar="FILE", help="run the server under cProfile, its stats into FILE"
    )
    parser.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (a temporary file, the default), postgres (a temporary PostgreSQL cluster) or a "
        "postgresql:// URL",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes on the same database (PostgreSQL)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 600:
        parser.error("--tables from 1 to 2000, --seconds from 0 to 600")
    if not 1 <= args.processes <= 8 or (args.processes > 1 and args.db == "sqlite"):
        parser.error("--processes from 1 to 8, more than 1 only with a PostgreSQL --db")
    figures = asyncio.run(run(args))
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    lat = figures["latency_ms"]
    print(
        f"{figures['tables']} tables, {figures['clients']} websocket clients on loopback, "
        f"{figures['seconds']} s measured, think time {args.think} s "
        f"({figures['cpus']} CPUs shared by server and clients)\n"
        f"  {figures['actions_per_second']} actions/s "
        f"({figures['actions']} actions, {figures['refused']} refused; "
        f"{figures['messages']} messages received, {figures['bytes_per_message']} bytes each on average)\n"
        f"  latency action -> own view: p50 {lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms, "
        f"max {lat['max']} ms\n"
        f"  server CPU {figures['server_cpu_ms_per_action']} ms per action; CPU used during the run: "
        f"server {figures['server_cpu_share']}, clients {figures['clients_cpu_share']} (1.0 = one core)"
    )
    if figures["processes"] > 1 or figures["store"] != "sqlite":
        cross = figures["cross_process_ms"]
        print(
            f"  {figures['processes']} process(es) on {figures['store']}: CPU per action per process "
            f"{figures['cpu_ms_per_action_per_process']} ms; {figures['commits_per_second']} commits/s\n"
            f"  cross-process push (action -> a page on another process): {cross['count']} pushes, "
            f"p50 {cross['p50']} ms, p99 {cross['p99']} ms, max {cross['max']} ms"
        )


if __name__ == "__main__":
    main()

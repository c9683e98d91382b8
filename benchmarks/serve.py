"""Load benchmark of ``unorules serve`` (a script, not a test): many tables of websocket clients.

    .venv/bin/python benchmarks/serve.py                 # 200 tables x 4 clients, about a minute
    .venv/bin/python benchmarks/serve.py --tables 20 --seconds 10

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


def start_server(port: int, db: Path, profile: str | None = None) -> subprocess.Popen[bytes]:
    code = (
        "from unorules.serve import run; "
        f"run(host={HOST!r}, port={port}, db={str(db)!r}, "
        # every client is on this machine's one address: no per-address limit applies here
        "bot_delay=0, rate=1e9, burst=1e9, max_tables=100000, creates_per_address=10**9, "
        "creates_total=10**9, max_connections_per_address=10**6)"
    )
    if profile is None:
        process = subprocess.Popen([sys.executable, "-c", code])
    else:  # the server under cProfile, its figures written to PROFILE when it stops
        script = db.parent / "server.py"
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


async def seat_client(
    ws_url: str,
    table: str,
    token: str,
    stats: Stats,
    stop: asyncio.Event,
    ready: asyncio.Barrier,
    limit: int,
    think: float,
) -> None:
    async with connect(ws_url + "/ws/" + table, max_size=2**22) as ws:
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
                sent_for = version
                await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
                stats.actions += stats.measuring


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base, ws_url = f"http://{HOST}:{port}", f"ws://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, Path(folder) / "tables.sqlite", args.profile)
        try:
            tokens: list[tuple[str, str]] = []
            for i in range(args.tables):
                created = post(
                    base,
                    "/api/tables",
                    {"rules": args.rules.split(","), "seats": ["open"] * 3, "name": "P0", "seed": i},
                )
                tokens.append((created["table"], created["token"]))
                for seat in (1, 2, 3):
                    joined = post(
                        base,
                        f"/api/tables/{created['table']}/join",
                        {"name": f"P{seat}", "invite": created["invite"]},
                    )
                    tokens.append((created["table"], joined["token"]))
            stats, stop = Stats(), asyncio.Event()
            ready = asyncio.Barrier(len(tokens) + 1)
            clients = [
                asyncio.create_task(
                    seat_client(ws_url, t, k, stats, stop, ready, args.max_actions, args.think)
                )
                for t, k in tokens
            ]
            await asyncio.wait_for(ready.wait(), 120)  # every client connected and greeted
            hosts = {}
            for table, token in tokens[::4]:
                hosts[table] = token
            # start every table (its host's own connection would do; a separate one keeps the clients simple)
            for table, token in hosts.items():
                async with connect(ws_url + "/ws/" + table) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    await ws.send(json.dumps({"type": "start"}))
                    await ws.recv()
            stats.measuring = True
            began = time.perf_counter()
            server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
            done, _ = await asyncio.wait(clients, timeout=args.seconds)
            elapsed = time.perf_counter() - began
            server_cpu, client_cpu = cpu_seconds(server.pid) - server_cpu, time.process_time() - client_cpu
            stats.measuring = False
            stop.set()
            await asyncio.wait(clients, timeout=10)
            for task in clients:
                task.cancel()
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(15)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

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
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 600:
        parser.error("--tables from 1 to 2000, --seconds from 0 to 600")
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


if __name__ == "__main__":
    main()

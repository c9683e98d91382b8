"""What an announcement costs a server process of a cluster (a script, not a test).

    nice -n 10 .venv/bin/python benchmarks/serve_notify.py --count 20000

Every process of a cluster hears every announcement (:mod:`unorules.serve.cluster`), also of
tables it does not show. This starts a temporary PostgreSQL cluster, listens on the channel as
a server process does (a thread with its own connection handing each announcement to the event
loop, where it is parsed and, for a table not shown here, dropped), has another process
announce ``--count`` actions, and reports the listening process's CPU time per announcement:
the floor of what a cluster's actions cost each of its processes.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "serve"))
from postgres_server import TempPostgres  # type: ignore[import-not-found]

SENDER = """
import sys, psycopg
connection = psycopg.connect(sys.argv[1], autocommit=True)
for i in range(int(sys.argv[2])):
    connection.execute("SELECT pg_notify('unorules', %s)", (f"action table{i % 1000:04d} {i} 1: play R7",))
"""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(url: str, count: int) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    shown: dict[str, object] = {}
    heard = [0]

    def hear(pid: int, payload: str) -> None:
        _kind, _, rest = payload.partition(" ")
        table_id, _, _detail = rest.partition(" ")
        if shown.get(table_id) is None:  # not a table of this process: dropped
            heard[0] += 1
        if heard[0] == count:
            done.set()

    ready = threading.Event()

    def listen() -> None:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute("LISTEN unorules")
            ready.set()
            received = 0
            while received < count:
                for note in connection.notifies(timeout=0.5):
                    loop.call_soon_threadsafe(hear, note.pid, note.payload)
                    received += 1

    listener = threading.Thread(target=listen)
    listener.start()
    await asyncio.to_thread(ready.wait, 30)
    sender = subprocess.Popen([sys.executable, "-c", SENDER, url, str(count)])
    cpu, began = _cpu(), time.perf_counter()
    await asyncio.wait_for(done.wait(), 600)
    cpu, elapsed = _cpu() - cpu, time.perf_counter() - began
    sender.wait(60)
    listener.join(10)
    return {"announcements": count, "seconds": round(elapsed, 2), "cpu_us_each": round(1e6 * cpu / count, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=20000, help="announcements (default 20000)")
    args = parser.parse_args()
    if not 1 <= args.count <= 1_000_000:
        parser.error("--count from 1 to 1000000")
    postgres = TempPostgres().start()
    try:
        figures = asyncio.run(measure(postgres.new_database(), args.count))
    finally:
        postgres.stop()
    print(
        f"{figures['announcements']} announcements heard in {figures['seconds']} s; the listening "
        f"process spent {figures['cpu_us_each']} µs of CPU on each"
    )


if __name__ == "__main__":
    main()

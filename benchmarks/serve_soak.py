"""Fault soak of a ``unorules serve`` cluster (a script, not a test): N server processes on one
PostgreSQL database, tables of two people and two bots, random kill -9s.

    nice -n 10 .venv/bin/python benchmarks/serve_soak.py --processes 3 --tables 100 --kills 3

Starts a temporary PostgreSQL cluster (Debian's binaries, ``fsync`` on) and ``--processes``
server processes on it, creates ``--tables`` seeded tables of classic to 30 points (two people
whose pages are on different processes and fail over to the others, two heuristic bots), plays
them through websockets for at most ``--seconds``, and meanwhile kills ``--kills`` processes
with SIGKILL, ``--every`` seconds apart (the first kill the process holding the most leases,
the others at random), each started again on its port once its tables were taken over. Then
every table's record is replayed from the database and compared with every state any page
was shown (:func:`cluster_helpers.check_records`): an acknowledged action lost, changed or
taken twice is a difference. Reported: tables, actions, states compared, differences, games
finished, reconnections, and how long each takeover of the killed process's leases took.
Loopback only, every wait bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "serve"))
from cluster_helpers import (  # type: ignore[import-not-found]
    Process,
    check_records,
    kill_and_restart,
    seat_tables,
    start_tables,
)
from postgres_server import TempPostgres  # type: ignore[import-not-found]


async def soak(args: argparse.Namespace, db: str) -> dict[str, Any]:
    processes = [Process(db).start() for _ in range(args.processes)]
    try:
        began = time.monotonic()
        seats = seat_tables(processes, args.tables, think=args.think)
        await start_tables(seats)
        deadline = time.monotonic() + args.seconds
        players = [asyncio.ensure_future(s.play(deadline)) for s in seats]
        takeovers = await kill_and_restart(db, processes, args.kills, random.Random(args.seed), args.every)
        await asyncio.gather(*players)
        elapsed = time.monotonic() - began
    finally:
        for process in processes:
            process.stop()
    differences = 0
    try:
        counts = check_records(db, seats)
    except AssertionError as exc:  # the first difference, named
        print(f"DIFFERENCE: {exc}", file=sys.stderr)
        differences = 1
        counts = {"tables": args.tables, "actions": -1, "states_checked": -1}
    return {
        "processes": args.processes,
        "tables": counts["tables"],
        "actions": counts["actions"],
        "states_compared": counts["states_checked"],
        "differences": differences,
        "games_finished": len({s.table for s in seats if s.over}),
        "reconnections": sum(s.reconnects for s in seats),
        "kills": args.kills,
        "takeover_seconds": [round(t, 2) for t in takeovers],
        "seconds": round(elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--every", type=float, default=5.0, help="seconds between kills (default 5)")
    parser.add_argument("--seconds", type=float, default=120.0, help="the most the games play (default 120)")
    parser.add_argument("--think", type=float, default=0.1, help="a person's time to act (default 0.1 s)")
    parser.add_argument("--seed", type=int, default=45, help="chooses the processes killed")
    args = parser.parse_args()
    if not 2 <= args.processes <= 8 or not 1 <= args.tables <= 500 or not 0 < args.seconds <= 900:
        parser.error("--processes from 2 to 8, --tables from 1 to 500, --seconds up to 900")
    postgres = TempPostgres(durable=True).start()
    try:
        figures = asyncio.run(soak(args, postgres.new_database()))
    finally:
        postgres.stop()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

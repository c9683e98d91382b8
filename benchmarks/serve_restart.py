"""Restart benchmark of ``unorules serve`` (a script, not a test): how long a server takes to
start, and how much memory it holds, with a tables file of many finished games.

    .venv/bin/python benchmarks/serve_restart.py --tables 290
    .venv/bin/python benchmarks/serve_restart.py --tables 290 5000 --before /tmp/base/src

Writes a tables file (schema 2, which every version since reads) of ``--tables`` finished
heads-up games of classic, each a person against a bot program (``bot:prog``, a small
Python program written to the temporary folder and offered with ``--bot``; ``--bot
heuristic`` for a built-in bot instead, with no processes), then starts
``unorules serve`` on it in a process of its own and measures the time until it answers
``GET /``, its resident memory (VmRSS) and its bot-program processes once
started. Each server is started twice: the first start of a newer version migrates the file
(and replays every table once, to note which games are over); the second is what every
later restart costs. ``--before SRC`` also measures the code in ``SRC`` (a ``src`` folder,
e.g. of ``git archive``) for the before/after figures. Games are played once and their
actions shared by the tables, so making the file is quick. Loopback only, bounded waits.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

PROGRAM = """
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "prog"}), flush=True)
    elif m["type"] == "act":
        print(json.dumps({"type": "action", "action": m["view"]["legal_actions"][0]}), flush=True)
    elif m["type"] == "quit":
        break
"""

GAMES = 20
"""Distinct games played; the tables share their actions."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def make_file(path: Path, tables: int, bot: str = "prog") -> int:
    """A schema-2 tables file of ``tables`` finished games; returns the actions per table (mean)."""
    from unorules.bots import make_bot, next_action
    from unorules.ruleset import Ruleset

    ruleset = Ruleset.from_names(["classic"], options={"target_score": 100})
    games = []
    for seed in range(GAMES):
        state = ruleset.new_game(players=2, seed=seed)
        bots = [make_bot("heuristic", seed=f"{seed}:{s}") for s in range(2)]
        actions = []
        while not state.is_over:
            action = next_action(state, bots)
            state = state.apply(action)
            actions.append(str(action))
        games.append((seed, actions))
    seats = json.dumps(
        [
            {"kind": "human", "name": "Ann", "bot": "", "token_hash": "0" * 64},
            {"kind": "bot", "name": f"Bot 1 ({bot})", "bot": bot, "token_hash": ""},
        ]
    )
    stamp = time.time()
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL, players INTEGER NOT NULL,
            seed INTEGER NOT NULL, seats TEXT NOT NULL, started INTEGER NOT NULL DEFAULT 0,
            created REAL NOT NULL, turn_seconds INTEGER NOT NULL DEFAULT 0,
            invite TEXT NOT NULL DEFAULT '', touched REAL, rematch TEXT);
        CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), number INTEGER NOT NULL,
            action TEXT NOT NULL, at REAL, PRIMARY KEY (table_id, number));
        PRAGMA user_version = 2;
        """
    )
    total = 0
    with db:
        for n in range(tables):
            seed, actions = games[n % GAMES]
            table = f"bench{n:08d}"
            db.execute(
                "INSERT INTO tables VALUES (?, ?, 2, ?, ?, 1, ?, 0, '', ?, NULL)",
                (table, ruleset.spec_text, seed, seats, stamp, stamp),
            )
            db.executemany(
                "INSERT INTO actions VALUES (?, ?, ?, ?)",
                [(table, i, a, stamp) for i, a in enumerate(actions)],
            )
            total += len(actions)
    db.close()
    return total // max(tables, 1)


def children(pid: int) -> int:
    """How many processes are the server's children (its bot programs)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return len(path.read_text().split()) if path.exists() else 0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start(db: Path, src: str | None, folder: Path, limit: float) -> dict[str, float]:
    """Start a server on ``db`` (with the code of ``src``, if given); its start-up figures."""
    port = free_port()
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    command = [sys.executable, "-m", "unorules", "serve", "--db", str(db), "--port", str(port)]
    command += ["--bot", f"prog={sys.executable} {folder / 'prog.py'}", "--keep-finished", "36000"]
    began = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while time.monotonic() - began < limit:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                    break
            except urllib.error.HTTPError:
                break  # it answers
            except OSError:
                if process.poll() is not None:
                    return {"seconds": float("nan"), "rss_mb": 0.0, "programs": 0, "exit": process.returncode}
                time.sleep(0.05)
        else:
            return {"seconds": float("inf"), "rss_mb": rss_mb(process.pid), "programs": children(process.pid)}
        seconds = time.monotonic() - began
        time.sleep(1.0)  # bot programs that start lazily would have started by now
        return {"seconds": seconds, "rss_mb": rss_mb(process.pid), "programs": children(process.pid)}
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, nargs="+", default=[290], help="finished tables (default 290)")
    parser.add_argument("--before", help="a src folder of the code to compare with (e.g. git archive)")
    parser.add_argument(
        "--bot",
        default="prog",
        help="the bot seat's kind: prog (a bot program, default) or a built-in bot such as heuristic "
        "(no processes: for many tables, where the code before would start one program a table)",
    )
    parser.add_argument("--limit", type=float, default=300.0, help="seconds a start may take (default 300)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        (folder / "prog.py").write_text(PROGRAM, encoding="utf-8")
        for tables in args.tables:
            versions = [("before", args.before), ("after", None)] if args.before else [("after", None)]
            for name, src in versions:
                db = folder / f"{name}-{tables}.sqlite"
                actions = make_file(db, tables, args.bot)
                first = start(db, src, folder, args.limit)
                again = start(db, src, folder, args.limit)
                print(
                    f"{tables} tables ({actions} actions each), {name}: first start "
                    f"{first['seconds']:.2f} s, {first['rss_mb']:.0f} MB, {first['programs']:.0f} programs; "
                    f"restart {again['seconds']:.2f} s, {again['rss_mb']:.0f} MB, "
                    f"{again['programs']:.0f} programs",
                    flush=True,
                )


if __name__ == "__main__":
    main()

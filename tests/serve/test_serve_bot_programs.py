"""Bot programs at a server's tables (issue 48, points 2, 3 and 8): a table whose program is no
longer offered is served with the autopilot in that seat; a program starts and stops off the
event loop, when its table next needs it, and stops when its game is over."""

from __future__ import annotations

import logging
import os
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_helpers import Player, play_until, serving

from unorules.bots import BOTS, register_bot
from unorules.protocol import CommandBot

RULES = ["classic"]
OPTIONS = {"target_score": "30"}

PROGRAM = """
import json, os, sys, time
HELLO_DELAY = float(sys.argv[1])
with open(sys.argv[2], "a") as out:
    out.write(f"{os.getpid()}\\n")
def say(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        time.sleep(HELLO_DELAY)
        say({"type": "hello", "name": "test-program"})
    elif m["type"] == "act":
        mine = [a for a in m["view"]["legal_actions"] if a.split(":")[0] == str(m["view"]["seat"])]
        say({"type": "action", "action": (mine or m["view"]["legal_actions"])[0]})
    elif m["type"] == "quit":
        break
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "\nState:\tZ" in status.read_text())


def _pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


@pytest.fixture
def offer(tmp_path: Path) -> Iterator[object]:
    """``offer(name, hello_delay)`` offers the test program as ``bot:NAME`` (as ``--bot`` does);
    returns the file where each of its processes writes its pid. Offers are withdrawn after."""
    script = tmp_path / "program.py"
    script.write_text(textwrap.dedent(PROGRAM), encoding="utf-8")
    offered: list[str] = []

    def make(name: str, hello_delay: float = 0.0) -> Path:
        pids = tmp_path / f"{name}.pids"
        command = [sys.executable, str(script), str(hello_delay), str(pids)]
        register_bot(name, lambda seed: CommandBot(command, None if seed is None else str(seed)))
        offered.append(name)
        return pids

    yield make
    for name in offered:
        BOTS.pop(name, None)  # type: ignore[attr-defined]


def _started_table(server: object, seats: list[str]) -> tuple[str, Player]:
    created = server.create(RULES, seats, options=OPTIONS, seed=7)  # type: ignore[attr-defined]
    ann = Player(server, created["table"], created["token"])  # type: ignore[arg-type]
    ann.until("state")
    ann.send({"type": "start"})
    return created["table"], ann


def test_a_table_whose_bot_program_is_not_offered_again_is_served_by_the_autopilot(
    tmp_path: Path, offer: object, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "t.sqlite"
    offer("good")  # type: ignore[operator]
    with serving(db, bot_delay=0, rate=1000, burst=1000) as server:
        table, ann = _started_table(server, ["bot:good"])
        ann.until("state", timeout=30)
        ann.close()
    BOTS.pop("good")  # type: ignore[attr-defined]  # the next server is started without --bot good=...
    with (
        caplog.at_level(logging.ERROR, "unorules.serve"),
        serving(db, bot_delay=0, rate=1000, burst=1000) as server,
    ):
        status, meta = server.request("GET", f"/api/tables/{table}")
        assert status == 200
        assert meta["autopilot"] == [False, True]
        token = None
        # the seat is played: Ann (whose token is gone with her page) watches the autopilot move
        watcher = Player(server, table, token)
        assert watcher.until("state")["table"]["autopilot"] == [False, True]
        watcher.close()
    assert any("bot 'good' is not offered by this server" in r.getMessage() for r in caplog.records)
    assert any("--bot good=COMMAND" in r.getMessage() for r in caplog.records)


def test_a_starting_bot_program_does_not_hold_up_other_tables(tmp_path: Path, offer: object) -> None:
    pids = offer("slow", 4.0)  # type: ignore[operator]
    with serving(tmp_path / "t.sqlite", bot_delay=0, rate=1000, burst=1000) as server:
        other = server.create(RULES, ["bot:heuristic"], options=OPTIONS, seed=3)["table"]
        _, ann = _started_table(server, ["bot:slow"])
        for _ in range(100):  # the program is started (it then takes 4 s to say hello)
            if _pids(pids):
                break
            time.sleep(0.05)
        assert _pids(pids)
        began = time.monotonic()
        status, _ = server.request("GET", f"/api/tables/{other}")
        assert status == 200
        assert time.monotonic() - began < 1.5
        ann.close()


def test_a_finished_games_bot_programs_stop_and_a_restart_starts_none(tmp_path: Path, offer: object) -> None:
    db = tmp_path / "t.sqlite"
    pids = offer("good")  # type: ignore[operator]
    with serving(db, bot_delay=0, rate=1000, burst=1000) as server:
        _, ann = _started_table(server, ["bot:good", "bot:good"])
        final = play_until(ann)
        assert final["view"]["is_over"]
        started = _pids(pids)
        assert len(started) == 2
        for _ in range(100):
            if not any(map(_alive, started)):
                break
            time.sleep(0.05)
        assert not any(map(_alive, started))  # stopped when the game ended, not when it expires
        ann.close()
    began = time.monotonic()
    with serving(db, bot_delay=0) as server:
        assert time.monotonic() - began < 5
        assert len(server.app.state.tables) == 1
        time.sleep(0.3)
    assert _pids(pids) == started  # no program started for a finished game

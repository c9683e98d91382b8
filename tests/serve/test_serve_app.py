"""The server as a program: tables are created, joined, started, played to the end, and resumed
after a restart from the SQLite file; the command line starts it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import Player, Server, serving

from unorules.cli import main as cli_main
from unorules.serve import compat

RULES = ["classic", "stacking", "jump-in"]
OPTIONS = {"target_score": "30"}


def play_until(player: Player, stop_version: int | None = None) -> dict[str, Any]:
    """Act for ``player``'s seat whenever it is to move (its first legal action), until the
    game is over or the table reaches ``stop_version``; returns the last state message."""
    latest = player.until("state")
    sent = -1
    for _ in range(20000):
        view, table = latest["view"], latest["table"]
        if view["is_over"] or (stop_version is not None and table["version"] >= stop_version):
            return latest
        mine = [a for a in view["legal_actions"] if a["seat"] == latest["you"]]
        if mine and view["current_player"] == latest["you"] and sent != table["version"]:
            plays = [a for a in mine if a["verb"] == "play"]
            player.send({"type": "act", "action": (plays or mine)[0]["text"], "version": table["version"]})
            sent = table["version"]
        try:
            message = player.read()
        except TimeoutError:
            errors = [m for m in player.received if m["type"] == "error"]
            raise AssertionError(f"stuck at {latest['table']} {errors}") from None
        if message["type"] == "state":
            latest = message
    raise AssertionError("the game did not end")


def saved_actions(db: Path, table: str) -> list[str]:
    with sqlite3.connect(db) as connection:
        return [
            a
            for (a,) in connection.execute(
                "SELECT action FROM actions WHERE table_id=? ORDER BY number", (table,)
            )
        ]


def test_a_person_and_three_bots_play_a_whole_game(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    with serving(db, bot_delay=0, rate=1000, burst=1000) as server:
        created = server.create(
            RULES, ["bot:heuristic", "bot:random", "bot:heuristic"], options=OPTIONS, seed=5
        )
        status, meta = server.request("GET", f"/api/tables/{created['table']}")
        assert status == 200
        assert meta["rules"] == "classic,jump-in,stacking target_score=30"
        assert meta["kinds"] == ["human", "bot", "bot", "bot"]
        assert not meta["started"]
        ann = Player(server, created["table"], created["token"])
        assert ann.until("state")["you"] == 0
        ann.send({"type": "start"})
        final = play_until(ann)
        assert final["view"]["is_over"]
        assert final["table"]["winners"]
        actions = saved_actions(db, created["table"])
        assert final["table"]["version"] == len(actions)
        # the file holds the whole game: replaying it from the seeded deal ends it the same way
        replayed = compat.replay(meta["rules"], 4, 5, actions)
        assert replayed.is_over
        assert list(replayed.scores) == final["view"]["scores"]
        ann.close()


def test_a_restarted_server_resumes_every_table_and_clients_reconnect(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    server = Server(db, bot_delay=0, rate=1000, burst=1000).start()
    try:
        created = server.create(RULES, ["open", "bot:heuristic", "bot:heuristic"], options=OPTIONS, seed=11)
        bob = server.join(created["table"], "Bob")
        ann = Player(server, created["table"], created["token"])
        ann.send({"type": "start"})
        before = ann.until("state", timeout=10)
        for _ in range(50):
            if before["table"]["started"]:
                break
            before = ann.until("state")
        bob_client = Player(server, created["table"], bob["token"])
        bob_before = bob_client.until("state")
        ann.close()
        bob_client.close()
    finally:
        server.stop()
    with serving(db, bot_delay=0, rate=1000, burst=1000, port=server.port) as again:
        ann = Player(again, created["table"], created["token"])
        after = ann.until("state")
        bob_client = Player(again, created["table"], bob["token"])
        bob_after = bob_client.until("state")
        assert after["you"] == 0
        assert bob_after["you"] == 1
        assert after["table"]["started"]
        assert bob_after["table"]["version"] >= bob_before["table"]["version"]
        # the same seat sees the same hand it had, unless the game moved on meanwhile (it cannot:
        # the bots wait for the people, who were gone)
        if after["table"]["version"] == before["table"]["version"]:
            assert after["view"]["hand"] == before["view"]["hand"]
        # both people play on to the end
        bob_client.close()
        bob_again = Player(again, created["table"], bob["token"])
        result: dict[str, Any] = {}
        thread = threading.Thread(target=lambda: result.setdefault("bob", play_until(bob_again)))
        thread.start()
        final = play_until(ann)
        thread.join(60)
        assert final["view"]["is_over"]
        assert result["bob"]["view"]["is_over"]
        ann.close()
        bob_again.close()


def test_the_command_line_checks_its_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["serve", "--port", "70000"]) == 2
    assert "a port is a number from 0 to 65535" in capsys.readouterr().err
    assert cli_main(["serve", "--host", "example.org"]) == 2
    assert "is not an IP address" in capsys.readouterr().err
    done = subprocess.run(
        [sys.executable, "-m", "unorules.serve", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "a port is a number from 0 to 65535" in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "unorules.serve", "--host", "example.org"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "is not an IP address" in done.stderr

"""The server as a program: tables are created, joined, started, played to the end, and resumed
after a restart from the SQLite file; the command line starts it."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import Player, Server, play_until, serving

from unorules.cli import main as cli_main
from unorules.record import GameRecord
from unorules.ruleset import Ruleset
from unorules.serve.render import feed_sentences
from unorules.serve.store import SCHEMA_VERSION, Store, StoreError, open_store
from unorules.serve.tables import ServeError, Tables, hash_token
from unorules.state import GameState

RULES = ["classic", "stacking", "jump-in"]
OPTIONS = {"target_score": "30"}
EVENT_FIELDS = ("kind", "seat", "cards", "rule", "detail", "private", "target", "count", "color", "data")


def saved_actions(db: str | Path, table: str) -> list[str]:
    """The actions of ``table`` as the store holds them (an SQLite file or a PostgreSQL URL)."""
    store = open_store(db)
    try:
        return store.actions_from(table, 0)
    finally:
        store.close()


def test_a_person_and_three_bots_play_a_whole_game(store_db: str, tmp_path: Path) -> None:
    db = store_db
    with serving(db, bot_delay=0, rate=1000, burst=1000) as server:
        created = server.create(
            RULES, ["bot:heuristic", "bot:random", "bot:heuristic"], options={"target_score": "200"}, seed=5
        )
        status, meta = server.request("GET", f"/api/tables/{created['table']}")
        assert status == 200
        assert meta["rules"] == "classic,jump-in,stacking target_score=200"
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
        # the finished game's record: the file's actions, headers naming the table and its
        # players, and it replays (as 'unorules replay' does) to the same end
        status, text, headers = server.get_text(f"/api/tables/{created['table']}/record")
        assert status == 200
        assert headers["content-type"].startswith("text/plain")
        assert f'filename="table-{created["table"]}.unorules"' in headers["content-disposition"]
        record = GameRecord.parse(text)
        assert [str(a) for a in record.actions] == actions
        assert (record.ruleset, record.players, record.seed) == (meta["rules"], 4, 5)
        assert record.result == ",".join(map(str, final["table"]["winners"]))
        assert record.termination == final["table"]["outcome_reason"]
        extra = dict(record.headers)
        assert extra["Table"] == created["table"]
        assert [extra[f"Seat{s}"] for s in range(4)] == final["table"]["names"]
        assert "token" not in text.lower()
        assert "hash" not in text.lower()
        replayed = record.replay()  # checks the Result header too
        assert replayed.is_over
        assert list(replayed.scores) == final["view"]["scores"]
        record_file = tmp_path / "game.unorules"
        record_file.write_text(text)
        assert cli_main(["replay", str(record_file)]) == 0
        # the messages: structured events and the feed's sentences, rounds without hands, the last
        # round's hands with the game's end
        states = [m for m in ann.received if m["type"] == "state" and m["table"]["started"]]
        events = [e for m in states for e in m["view"]["events"]]
        assert {"deal", "draw", "round-end"} <= {e["kind"] for e in events}
        for event in events:
            assert set(event) == set(EVENT_FIELDS)
        lines = [line for m in states for line in m["view"]["feed"]]
        assert lines
        for line in lines:
            assert "seat " not in line
            assert "R-" not in line
            assert line[:1].isupper()
        assert all("hands" not in r for m in states for r in m["view"]["rounds"])
        assert final["view"]["last_round_hands"] is not None
        assert len(final["view"]["last_round_hands"]) == 4
        shown = {c for hand in final["view"]["last_round_hands"] for c in hand}
        assert shown <= set(final["view"]["cards"])
        assert len(final["view"]["rounds"]) >= 2
        mid = [m for m in states if m["view"]["rounds"] and not m["view"]["is_over"]]
        assert any(m["view"]["last_round_hands"] is not None for m in mid)  # the action ending a round
        assert any(m["view"]["last_round_hands"] is None for m in mid)  # the next ones
        ann.close()


def test_a_running_games_record_is_refused_unless_the_server_allows_it(tmp_path: Path) -> None:
    with serving(tmp_path / "a.sqlite", bot_delay=60) as server:
        created = server.create(RULES, ["bot:heuristic"], seed=3)
        status, text, _ = server.get_text(f"/api/tables/{created['table']}/record")
        assert status == 409
        assert json.loads(text) == {
            "error": "the game is not over yet: its record names the seed of the deal, which would show "
            "every hand; download it when the game has ended",
            "code": "not-over",
        }
        status, text, _ = server.get_text("/api/tables/nosuchtable/record")
        assert status == 404
        assert json.loads(text)["error"] == "there is no table 'nosuchtable' on this server"
    with serving(tmp_path / "b.sqlite", bot_delay=60, running_records=True) as server:
        created = server.create(RULES, ["bot:heuristic"], seed=3)
        status, text, _ = server.get_text(f"/api/tables/{created['table']}/record")
        assert status == 200
        record = GameRecord.parse(text)
        assert record.result == "*"
        assert record.actions == ()
        assert dict(record.headers)["Seat1"] == "Bot 1 (heuristic)"
        assert record.replay() == Ruleset.from_spec_text(record.ruleset).new_game(players=2, seed=3)


# The tables file as the first server wrote it (before the schema had a version): kept here
# verbatim, so that files written by that server are known to load.
FIRST_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    started INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
"""


def write_first_schema_file(db: Path, games: list[tuple[str, str, int, list[str]]]) -> None:
    """A tables file of the first schema holding ``(id, spec, seed, actions)`` two-seat games."""
    seats = json.dumps(
        [
            {"kind": "human", "name": "Ann", "bot": "", "token_hash": hash_token("ann-token")},
            {"kind": "bot", "name": "Bot 1 (heuristic)", "bot": "heuristic", "token_hash": ""},
        ]
    )
    with sqlite3.connect(db) as connection:
        connection.executescript(FIRST_SCHEMA)
        for table_id, spec, seed, actions in games:
            connection.execute(
                "INSERT INTO tables VALUES (?, ?, 2, ?, ?, 1, 1700000000.0)", (table_id, spec, seed, seats)
            )
            connection.executemany(
                "INSERT INTO actions VALUES (?, ?, ?)", [(table_id, n, a) for n, a in enumerate(actions)]
            )
    connection.close()


def test_a_tables_file_of_the_first_schema_loads_and_a_broken_table_does_not_stop_the_others(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rules = Ruleset.from_names(RULES, options={"target_score": 30})
    state = rules.new_game(players=2, seed=8)
    actions = []
    for _ in range(12):
        action = state.legal_actions(state.current_player)[0]
        state = state.apply(action)
        actions.append(str(action))
    db = tmp_path / "old.sqlite"
    write_first_schema_file(
        db,
        [
            ("oldtable1", rules.spec_text, 8, actions),
            ("broken001", rules.spec_text, 8, [*actions[:3], "0: play W+4 R", *actions[3:]]),
            ("gone00001", "classic,nonesuch", 8, []),
        ],
    )
    with (
        caplog.at_level("ERROR", logger="unorules.serve"),
        serving(db, bot_delay=60, running_records=True) as server,
    ):
        status, meta = server.request("GET", "/api/tables/oldtable1")
        assert status == 200
        assert meta["version"] == 12
        assert meta["names"][0] == "Ann"
        ann = Player(server, "oldtable1", "ann-token")
        message = ann.until("state")
        assert message["you"] == 0
        assert message["view"]["hand"] == [str(c) for c in state.hands[0]]
        status, text, _ = server.get_text("/api/tables/oldtable1/record")
        assert status == 200
        assert GameRecord.parse(text).replay() == state
        assert server.request("GET", "/api/tables/broken001")[0] == 404
        assert server.request("GET", "/api/tables/gone00001")[0] == 404
        ann.close()
    logged = caplog.text
    assert "table broken001 is not served: its record does not replay: action 4 (0: play W+4 R)" in logged
    assert "table gone00001 is not served" in logged
    assert "nonesuch" in logged
    store = Store(db)
    assert store.schema_version == SCHEMA_VERSION  # marked when the server opened it
    assert [t.id for t in store.tables()] == ["broken001", "gone00001", "oldtable1"]  # nothing dropped
    store.close()


def test_a_tables_file_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(
        StoreError, match=rf"was written by a newer unorules \(tables schema {SCHEMA_VERSION + 1}"
    ):
        Store(db)


def test_a_restarted_server_resumes_every_table_and_clients_reconnect(store_db: str) -> None:
    db = store_db
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


def test_a_table_whose_replay_raises_is_logged_and_the_others_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    rules = Ruleset.from_names(["classic"])
    db = tmp_path / "buggy.sqlite"
    spec = rules.spec_text
    write_first_schema_file(db, [("goodtable", spec, 1, []), ("buggy0001", spec, 1, [])])
    replay = GameRecord.replay

    def buggy(record: GameRecord) -> GameState:  # a plugin's bug met while replaying one table
        if dict(record.headers)["Table"] == "buggy0001":
            raise RuntimeError("a plugin's bug")
        return replay(record)

    monkeypatch.setattr(GameRecord, "replay", buggy)

    async def load() -> list[str]:
        tables = Tables(Store(db), bot_delay=60)
        tables.load()
        loaded = [table_id for table_id in ("goodtable", "buggy0001") if _has(tables, table_id)]
        await tables.close()
        tables.store.close()
        return loaded

    with caplog.at_level("ERROR", logger="unorules.serve"):
        assert asyncio.run(load()) == ["goodtable"]
    assert "table buggy0001 is not served: replaying its record failed" in caplog.text
    assert "RuntimeError: a plugin's bug" in caplog.text


def _has(tables: Tables, table_id: str) -> bool:
    try:
        tables.get(table_id)
    except ServeError:
        return False
    return True


def test_the_feed_says_each_thing_once_in_plain_words() -> None:
    """An action and its events make one sentence per thing that happened: a draw is one
    sentence (no "Bob: draw" then "drew 1 card"), keeping a drawn card is not "pass"; the cards
    drawn are named in the drawer's view only; names, never seat numbers or rule codes."""
    names = ["Ann", "Bob", "Cy"]
    rules = Ruleset.from_names(["classic"])
    # as in the README: Bob (seat 1) holds R1..R7 against Y9 and must draw; he draws Y5, playable
    deck = "R1 G1 B1 R2 G2 B2 R3 G3 B3 R4 G4 B4 R5 G5 B5 R6 G6 B6 R7 G7 B7 Y9 Y5"
    state = rules.new_game(players=3, seed=1, deck=deck)
    assert state.current_player == 1
    drew = state.apply("1: draw")
    assert feed_sentences(drew.view(1), names, 1) == ["You drew yellow 5"]
    assert feed_sentences(drew.view(0), names, 0) == ["Bob drew a card"]
    assert feed_sentences(drew.public_view(), names, None) == ["Bob drew a card"]
    kept = drew.apply("1: pass")
    assert feed_sentences(kept.view(2), names, 2) == ["Bob kept the drawn card"]
    played = drew.apply("1: play Y5")
    assert feed_sentences(played.view(1), names, 1) == ["You played yellow 5"]
    assert feed_sentences(played.view(0), names, 0) == ["Bob played yellow 5"]


def test_a_broadcast_message_is_the_state_message_encoded() -> None:
    """``Table.message_text`` (a broadcast encodes the table's data once) writes the very bytes of
    ``json.dumps(Table.message(...))``, for every seat and a spectator."""
    from unorules.serve.store import SeatRecord
    from unorules.serve.tables import Table

    rules = Ruleset.from_names(RULES, options={"target_score": 30})
    state = rules.new_game(players=3, seed=6)
    for _ in range(20):
        state = state.apply(state.legal_actions(state.current_player)[0])
    seats = [SeatRecord("human", name) for name in ("Ann", "Bob", "Cy")]
    table = Table("abcdefgh", rules.spec_text, 3, 6, seats, True, 0.0, state)
    meta = table.meta()
    for seat in (0, 1, 2, None):
        expected = json.dumps(table.message(seat, meta), separators=(",", ":"))
        assert table.message_text(seat, json.dumps(meta, separators=(",", ":"))) == expected

"""Several server processes on one PostgreSQL database (issue 45): any process serves any table,
the database orders the actions, bots and timers run once, and kill -9 of any process loses
nothing. Real PostgreSQL (a temporary cluster, :mod:`postgres_server`), real processes."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
from cluster_helpers import Process, Seat, check_records, kill_and_restart, seat_tables, start_tables
from postgres_server import TempPostgres
from serve_helpers import Player

from unorules.serve.cluster import LEASE_SECONDS, TICK
from unorules.serve.store import (
    SCHEMA_VERSION,
    Conflict,
    PostgresStore,
    SeatRecord,
    StoreError,
    TableRecord,
    open_store,
)

OPTIONS = {"target_score": "30"}


def test_two_stores_never_both_take_action_k(postgres: TempPostgres) -> None:
    url = postgres.new_database()
    one, two = PostgresStore(url), PostgresStore(url)
    try:
        one.add_table(
            TableRecord("table01", "classic", 2, 1, (SeatRecord("open"), SeatRecord("open")), True, 1.0)
        )
        one.append_action("table01", 0, "0: draw")
        with pytest.raises(Conflict, match="has an action 0 already"):
            two.append_action("table01", 0, "0: pass")
        assert two.actions_from("table01", 0) == ["0: draw"]
        # seats change only if nobody changed them since: the second join of the same seat is refused
        before = ((SeatRecord("open"), SeatRecord("open")), True)
        one.update_seats("table01", (SeatRecord("human", "Ann"), SeatRecord("open")), True, before=before)
        with pytest.raises(Conflict):
            two.update_seats("table01", (SeatRecord("human", "Bob"), SeatRecord("open")), True, before=before)
        # a lease is one process's until it runs out
        assert one.take_leases("one", ["table01"], 0.5) == {"table01"}
        assert two.take_leases("two", ["table01"], 0.5) == set()
        time.sleep(0.6)
        assert two.take_leases("two", ["table01"], 5) == {"table01"}
        assert one.take_leases("one", ["table01"], 5) == set()
    finally:
        one.close()
        two.close()


def test_a_database_of_an_older_schema_is_migrated_and_of_a_newer_one_refused(postgres: TempPostgres) -> None:
    import psycopg

    url = postgres.new_database()
    with psycopg.connect(url, autocommit=True) as connection:  # the first schema, without a version
        connection.execute(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL, players INTEGER NOT NULL, "
            "seed BIGINT NOT NULL, seats TEXT NOT NULL, started INTEGER NOT NULL DEFAULT 0, "
            "created DOUBLE PRECISION NOT NULL)"
        )
        connection.execute(
            "INSERT INTO tables VALUES ('oldtable', 'classic', 2, 3, %s, 0, 1.0)",
            ('[{"kind": "open"}, {"kind": "open"}]',),
        )
    store = PostgresStore(url)
    assert store.schema_version == SCHEMA_VERSION
    (record,) = store.tables()
    assert (record.id, record.invite, record.turn_seconds) == ("oldtable", "", 0)
    assert record.touched > 1.0  # counts as touched at the migration
    store.close()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"UPDATE unorules_schema SET version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=rf"newer unorules \(tables schema {SCHEMA_VERSION + 1}"):
        PostgresStore(url)


def test_an_unreachable_database_is_a_clear_error() -> None:
    with pytest.raises(
        StoreError, match=r"cannot reach the tables database postgresql://nobody@127.0.0.1:1/x"
    ):
        PostgresStore("postgresql://nobody:secret@127.0.0.1:1/x")


def test_pages_on_two_processes_play_one_table_and_share_the_limits(postgres: TempPostgres) -> None:
    url = postgres.new_database()
    a = Process(url, creates_per_address=2).start()
    b = Process(url, creates_per_address=2).start()
    try:
        created = a.post(
            "/api/tables",
            {"rules": ["classic"], "seats": ["open"], "name": "Ann", "seed": 3, "options": OPTIONS},
        )
        joined = b.post(f"/api/tables/{created['table']}/join", {"name": "Bob", "invite": created["invite"]})
        for _ in range(100):  # announced on commit: a sees it within milliseconds
            status, meta = a.get(f"/api/tables/{created['table']}")
            if meta["names"] == ["Ann", "Bob"]:
                break
            time.sleep(0.01)
        assert status == 200
        assert meta["names"] == ["Ann", "Bob"]
        # the creation budget is the cluster's: 2 an hour in bursts of 1 per address
        b_status, answer = _post_status(b, {"rules": ["classic"], "seats": ["open"], "name": "Cy"})
        assert b_status == 429
        assert answer["code"] == "too-many"
        ann = Seat([a.ws_url], 0, created["table"], created["token"])
        bob = Seat([b.ws_url], 0, created["table"], joined["token"])

        async def play() -> None:
            deadline = time.monotonic() + 60
            import json

            from websockets.asyncio.client import connect

            async with connect(f"{a.ws_url}/ws/{created['table']}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
                await ws.send(json.dumps({"type": "start"}))
                await ws.recv()
            await asyncio.gather(ann.play(deadline), bob.play(deadline))

        asyncio.run(play())
        assert ann.over
        assert bob.over
        counts = check_records(url, [ann, bob])
        assert counts["actions"] > 10
        assert max(ann.shown) == max(bob.shown) == counts["actions"]  # both saw the end
    finally:
        a.stop()
        b.stop()


def _post_status(process: Process, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    import json
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        process.url + "/api/tables", data=json.dumps(body).encode(), method="POST"
    )
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.slow
def test_three_processes_lose_nothing_when_any_is_killed(postgres: TempPostgres, tmp_path: Path) -> None:
    """Seeded games of two people and two bots, each person's page on another process; three
    kill -9s (the first of the process holding the most leases), each killed process started
    again; every game ends, every table's record replays and gives every state any page was
    shown, and the killed processes' tables were taken over within a lease and two ticks."""
    url = postgres.new_database()
    processes = [Process(url) for _ in range(3)]
    for n, process in enumerate(processes):
        process.log = open(tmp_path / f"process-{n}.log", "ab")  # noqa: SIM115 - closed by the test
        process.start()
    try:
        seats = seat_tables(processes, 6)

        async def run() -> list[float]:
            await start_tables(seats)
            deadline = time.monotonic() + 150
            players = [asyncio.ensure_future(s.play(deadline)) for s in seats]
            takeovers = await kill_and_restart(url, processes, 3, random.Random(45))
            await asyncio.gather(*players)
            return takeovers

        takeovers = asyncio.run(run())
        unfinished = [(s.table, s.seat, max(s.shown, default=None)) for s in seats if not s.over]
        assert not unfinished
        counts = check_records(url, seats)
        assert counts["tables"] == 6
        assert counts["states_checked"] > 100
        assert sum(s.reconnects for s in seats) > 0  # some pages lost their process and came back
        assert takeovers
        assert max(takeovers) <= LEASE_SECONDS + 2 * TICK + 1
    finally:
        for process in processes:
            process.kill()
            process.log.close()
    logged = "".join((tmp_path / f"process-{n}.log").read_text() for n in range(3))
    assert "Traceback" not in logged, logged[-3000:]


def _until_table(player: Player, check: Any, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = player.read(timeout)
        if message["type"] == "state" and check(message["table"]):
            return message
    raise AssertionError("the table never got there")


def test_presence_timers_and_the_autopilot_are_the_clusters(postgres: TempPostgres) -> None:
    """Ann's page on one process, Bob's on another, a 5-second turn timer run by the process that
    started the table: each sees the other online, the mover's time runs out and the autopilot
    takes the seat (both pages see it), and ``back`` sent to either process gives it back."""
    url = postgres.new_database()
    a, b = Process(url).start(), Process(url).start()
    try:
        created = a.post(
            "/api/tables",
            {
                "rules": ["classic"],
                "seats": ["open"],
                "name": "Ann",
                "seed": 4,
                "turn_seconds": 5,
                "options": {"target_score": "30"},
            },
        )
        joined = b.post(f"/api/tables/{created['table']}/join", {"name": "Bob", "invite": created["invite"]})
        players = [
            Player(a, created["table"], created["token"]),
            Player(b, created["table"], joined["token"]),
        ]  # type: ignore[arg-type]
        players[0].send({"type": "start"})
        first = _until_table(players[0], lambda t: t["started"])
        mover = first["view"]["current_player"]
        for player in players:  # presence is the cluster's; the timer shows on both processes
            seen = _until_table(player, lambda t: t["online"] == [True, True] and t["time_left"] is not None)
            assert seen["table"]["turn_seat"] == mover
        began = time.monotonic()
        for player in players:
            _until_table(player, lambda t: t["autopilot"][mover])
        assert 4.0 <= time.monotonic() - began <= 12
        players[mover].send({"type": "back"})
        for player in players:
            _until_table(player, lambda t: not t["autopilot"][mover])
        for player in players:
            player.close()
    finally:
        a.stop()
        b.stop()


def test_the_command_line_says_why_a_database_cannot_be_used(capsys: pytest.CaptureFixture[str]) -> None:
    from unorules.serve.command import main

    assert main(["--db", "postgresql://nobody:secret@127.0.0.1:1/x", "--port", "0"]) == 2
    captured = capsys.readouterr()
    assert "tables kept in postgresql://nobody@127.0.0.1:1/x" in captured.out
    assert (
        "unorules: error: cannot reach the tables database postgresql://nobody@127.0.0.1:1/x" in captured.err
    )
    assert "secret" not in captured.out + captured.err
    assert "Traceback" not in captured.err


def test_a_take_back_on_another_process_is_made_by_the_one_running_the_bots(postgres: TempPostgres) -> None:
    """Ann starts her table against a bot on process a (which then runs the bot); her page is on
    process b: her take-back goes to a, after the bot's move, and both processes go back."""
    url = postgres.new_database()
    a, b = Process(url).start(), Process(url).start()
    try:
        created = a.post(
            "/api/tables", {"rules": ["classic"], "seats": ["bot:heuristic"], "name": "Ann", "seed": 4}
        )
        starter = Player(a, created["table"], created["token"])  # type: ignore[arg-type]
        starter.send({"type": "start"})
        _until_table(starter, lambda t: t["started"])
        starter.close()
        ann = Player(b, created["table"], created["token"])  # type: ignore[arg-type]
        latest = ann.until("state")
        for _ in range(200):  # Ann's turn
            if latest["view"]["current_player"] == 0 and latest["table"]["started"]:
                break
            latest = ann.until("state")
        plays = [x for x in latest["view"]["legal_actions"] if x["seat"] == 0 and x["verb"] == "play"]
        assert plays, "seed 4 gives Ann a play at her first turn"
        version = latest["table"]["version"]
        ann.send({"type": "act", "action": plays[0]["text"], "version": version})
        latest = _until_table(ann, lambda t: t["version"] >= version + 2)  # the bot (on a) answered
        ann.send({"type": "undo", "version": latest["table"]["version"]})
        _until_table(ann, lambda t: t["version"] == version)
        for process in (a, b):  # both processes went back
            for _ in range(100):
                if process.get(f"/api/tables/{created['table']}")[1]["version"] == version:
                    break
                time.sleep(0.02)
            assert process.get(f"/api/tables/{created['table']}")[1]["version"] == version
        store = open_store(url)
        assert len(store.actions_from(created["table"], 0)) == version
        store.close()
        ann.close()
    finally:
        a.stop()
        b.stop()

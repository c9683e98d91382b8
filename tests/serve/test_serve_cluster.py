"""Several server processes on one PostgreSQL database (issue 45): any process serves any table,
the database orders the actions, bots and timers run once, and kill -9 of any process loses
nothing. Real PostgreSQL (a temporary cluster, :mod:`postgres_server`), real processes."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest
from cluster_helpers import Process, Seat, check_records, lease_holders
from postgres_server import TempPostgres

from unorules.serve.cluster import LEASE_SECONDS, TICK
from unorules.serve.store import SCHEMA_VERSION, Conflict, PostgresStore, SeatRecord, StoreError, TableRecord

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


def test_three_processes_lose_nothing_when_any_is_killed(postgres: TempPostgres, tmp_path: Path) -> None:
    """Seeded games of two people and two bots, each person's page on another process; three
    kill -9s (the first of the process holding the most leases), each killed process started
    again; every table's record replays and gives every state any page was shown."""
    url = postgres.new_database()
    processes = [Process(url) for _ in range(3)]
    for n, process in enumerate(processes):
        process.log = open(tmp_path / f"process-{n}.log", "ab")  # noqa: SIM115 - closed by the test
        process.start()
    urls = [p.ws_url for p in processes]
    seats: list[Seat] = []
    rng = random.Random(45)
    try:
        for n in range(6):
            host = processes[n % 3]
            created = host.post(
                "/api/tables",
                {
                    "rules": ["classic"],
                    "seats": ["open", "bot:heuristic", "bot:heuristic"],
                    "name": "Ann",
                    "seed": 100 + n,
                    "options": OPTIONS,
                },
            )
            joined = processes[(n + 1) % 3].post(
                f"/api/tables/{created['table']}/join", {"name": "Bob", "invite": created["invite"]}
            )
            seats.append(Seat(urls, n % 3, created["table"], created["token"], think=0.02))
            seats.append(Seat(urls, (n + 1) % 3, created["table"], joined["token"], think=0.02))
        takeovers: list[float] = []

        async def run() -> None:
            import json

            from websockets.asyncio.client import connect

            for seat in seats[::2]:
                async with connect(f"{urls[seat.index]}/ws/{seat.table}") as ws:
                    await ws.send(json.dumps({"type": "hello", "token": seat.token}))
                    await ws.send(json.dumps({"type": "start"}))
                    await ws.recv()
            deadline = time.monotonic() + 150
            players = [asyncio.ensure_future(s.play(deadline)) for s in seats]
            for kill in range(3):
                await asyncio.sleep(2.0)
                holders = lease_holders(url)
                counts = {
                    p.pid: sum(h.split(":")[1] == str(p.pid) for h in holders.values()) for p in processes
                }
                victim = max(processes, key=lambda p: counts[p.pid]) if kill == 0 else rng.choice(processes)
                other = next(p for p in processes if p is not victim)
                held = [
                    t
                    for t, h in holders.items()
                    if h.split(":")[1] == str(victim.pid) and not other.get(f"/api/tables/{t}")[1]["winners"]
                ]
                victim.kill()
                killed_at = time.monotonic()
                if held:  # its tables are taken over by another process within the lease and a tick
                    for _ in range(100):
                        now_holders = lease_holders(url)
                        if all(now_holders.get(t, "").split(":")[1:2] != [str(victim.pid)] for t in held):
                            takeovers.append(time.monotonic() - killed_at)
                            break
                        await asyncio.sleep(0.1)
                    else:
                        raise AssertionError(
                            f"the leases of {held} were not taken over: {lease_holders(url)}"
                        )
                await asyncio.sleep(0.5)
                await asyncio.to_thread(victim.start)  # started again, on the same port
            await asyncio.gather(*players)

        asyncio.run(run())
        assert all(s.over for s in seats), [
            (s.table, s.seat, max(s.shown, default=None)) for s in seats if not s.over
        ]
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

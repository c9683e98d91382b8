"""An action's commit to PostgreSQL is made off the event loop (issue 45): the server serves the
other pages while PostgreSQL writes, tells nobody before the commit, keeps a table's actions in
order, and commits the actions waiting together. Real PostgreSQL (:mod:`postgres_server`); a
second connection holds a row lock so that a commit has to wait, as it does for a slow disk."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from postgres_server import TempPostgres

from unorules.serve.errors import ServeError
from unorules.serve.store import Conflict, PostgresStore, SeatRecord, TableRecord
from unorules.serve.tables import Tables


@contextmanager
def row_locked(url: str, table_id: str, seconds: float) -> Iterator[threading.Event]:
    """Another connection holds ``table_id``'s row (``FOR UPDATE``: an action inserted there waits
    for it) for ``seconds``, then lets go; the event is set when it did."""
    import psycopg

    connection = psycopg.connect(url)
    connection.execute("SELECT 1 FROM tables WHERE id = %s FOR UPDATE", (table_id,))
    released = threading.Event()

    def release() -> None:
        connection.commit()
        released.set()

    timer = threading.Timer(seconds, release)
    timer.start()
    try:
        yield released
    finally:
        timer.join()
        connection.close()


def test_the_event_loop_serves_others_while_an_action_is_committed(postgres: TempPostgres) -> None:
    url = postgres.new_database()
    store = PostgresStore(url)

    async def scenario() -> None:
        tables = Tables(store, bot_delay=60)
        table, _ = tables.create(["classic"], {}, ["open"], "Ann", seed=3)
        await tables.join(table, "Bob", table.invite)
        await tables.start(table, 0)
        seen: list[dict[str, Any]] = []

        async def send(text: str) -> None:
            seen.append(json.loads(text))

        tables.connect(table, None, send)  # a spectator's page
        await asyncio.sleep(0.05)
        seen.clear()
        mover = table.state.current_player
        text = str(table.state.legal_actions(mover)[0])
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticking = asyncio.ensure_future(ticker())
        with row_locked(url, table.id, 0.6) as released:
            acting = asyncio.ensure_future(tables.act(table, mover, 0, text))
            again = asyncio.ensure_future(tables.act(table, mover, 0, text))  # the same message twice
            await asyncio.sleep(0.4)
            assert not released.is_set()
            # the commit waits for PostgreSQL; the event loop does not wait with it
            assert ticks >= 15
            assert not acting.done()
            assert table.version == 0
            assert not [m for m in seen if m["type"] == "state"]  # nobody told before the commit
            await acting
            assert released.is_set()
        assert table.version == 1
        with pytest.raises(ServeError, match="moved on"):  # the table's actions one after the other
            await again
        await asyncio.sleep(0.05)
        assert [m["table"]["version"] for m in seen if m["type"] == "state"] == [1]
        assert store.actions_from(table.id, 0) == [text]
        ticking.cancel()
        await tables.close()

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def test_a_cancelled_action_is_kept_and_shown_once_committed(postgres: TempPostgres) -> None:
    url = postgres.new_database()
    store = PostgresStore(url)

    async def scenario() -> None:
        tables = Tables(store, bot_delay=60)
        table, _ = tables.create(["classic"], {}, ["open"], "Ann", seed=5)
        await tables.join(table, "Bob", table.invite)
        await tables.start(table, 0)
        seen: list[dict[str, Any]] = []

        async def send(text: str) -> None:
            seen.append(json.loads(text))

        tables.connect(table, None, send)
        mover = table.state.current_player
        text = str(table.state.legal_actions(mover)[0])
        with row_locked(url, table.id, 0.3) as released:
            acting = asyncio.ensure_future(tables.act(table, mover, 0, text))
            await asyncio.sleep(0.1)
            acting.cancel()  # the page's connection went away while its action was written
            await asyncio.to_thread(released.wait, 5)
            await asyncio.sleep(0.1)
        assert acting.cancelled()
        assert table.version == 1
        assert [str(a) for a in table.actions] == [text]
        assert any(m["type"] == "state" and m["table"]["version"] == 1 for m in seen)
        # the next action is taken on the kept state
        mover = table.state.current_player
        await tables.act(table, mover, 1, str(table.state.legal_actions(mover)[0]))
        assert len(store.actions_from(table.id, 0)) == 2
        await tables.close()

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def test_the_actions_waiting_are_committed_together_each_with_its_own_outcome(postgres: TempPostgres) -> None:
    import psycopg

    url = postgres.new_database()
    store = PostgresStore(url)
    seats = (SeatRecord("open"), SeatRecord("open"))
    for name in ("tableA", "tableB", "tableC", "tableD"):
        store.add_table(TableRecord(name, "classic", 2, 1, seats, True, 1.0))
    store.append_action("tableD", 0, "0: draw")
    listener = psycopg.connect(url, autocommit=True)
    listener.execute("LISTEN unorules")

    async def scenario() -> list[BaseException | None]:
        with row_locked(url, "tableA", 0.3):
            first = store.commit_action("tableA", 0, "0: draw", 2.0)
            await asyncio.sleep(0.1)  # the database thread waits for tableA's row
            waiting = [
                store.commit_action("tableB", 0, "0: draw", 2.0),
                store.commit_action("tableC", 0, "1: draw", 2.0, over=True),
                store.commit_action("tableD", 0, "0: pass", 2.0),  # taken: a conflict
                asyncio.wrap_future(store.publish("beat")),
            ]
            outcomes = await asyncio.gather(first, *waiting, return_exceptions=True)
        # an action the database refuses (its table is gone) fails alone
        outcomes += await asyncio.gather(
            store.commit_action("nosuchtable", 0, "0: draw", 2.0),
            store.commit_action("tableB", 1, "1: draw", 3.0),
            return_exceptions=True,
        )
        return [o if isinstance(o, BaseException) else None for o in outcomes]

    try:
        outcomes = asyncio.run(scenario())
        assert outcomes[:3] == [None, None, None]
        assert isinstance(outcomes[3], Conflict)
        assert outcomes[4] is None
        assert isinstance(outcomes[5], psycopg.errors.ForeignKeyViolation)
        assert outcomes[6] is None
        assert store.actions_from("tableB", 0) == ["0: draw", "1: draw"]
        assert store.actions_from("tableD", 0) == ["0: draw"]
        assert store.finished()[0][0] == "tableC"
        with psycopg.connect(url, autocommit=True) as connection:
            (together,) = connection.execute(
                "SELECT COUNT(DISTINCT xmin::text) FROM actions "
                "WHERE number = 0 AND table_id IN ('tableB', 'tableC')"
            ).fetchone() or (0,)
        assert together == 1  # one transaction for the actions that waited
        heard = [n.payload for n in listener.notifies(timeout=1, stop_after=5)]
        assert heard == [
            "action tableA 0 0: draw",
            "action tableB 0 0: draw",
            "action tableC 0 1: draw",
            "beat",
            "action tableB 1 1: draw",
        ]
    finally:
        listener.close()
        store.close()


def test_a_query_given_up_before_it_is_begun_is_skipped_and_the_thread_goes_on(
    postgres: TempPostgres,
) -> None:
    url = postgres.new_database()
    store = PostgresStore(url)
    store.add_table(
        TableRecord("tableA", "classic", 2, 1, (SeatRecord("open"), SeatRecord("open")), True, 1.0)
    )

    async def scenario() -> None:
        with row_locked(url, "tableA", 0.3):
            first = store.commit_action("tableA", 0, "0: draw", 2.0)
            await asyncio.sleep(0.05)  # the database thread waits for the row
            renewing = asyncio.ensure_future(store.call(store.take_leases, "me", ["tableA"], 5.0))
            await asyncio.sleep(0.05)
            renewing.cancel()  # a tick cancelled when the server stops
            await first
        # the thread skipped the cancelled query and serves the next ones
        held = await asyncio.wait_for(store.call(store.take_leases, "me", ["tableA"], 5.0), 10)
        assert held == {"tableA"}
        await asyncio.wait_for(asyncio.wrap_future(store.publish("beat")), 10)

    try:
        asyncio.run(scenario())
        assert store.lease_holders()["tableA"][0] == "me"
    finally:
        store.close()

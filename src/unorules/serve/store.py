"""Persistence of every table: what it is, who sits where, every action; in SQLite or PostgreSQL.

A table is one row (its rule set's canonical text, player count, seed, seats
with the *hashes* of their tokens, whether it started, its turn timer, its
invitation code, when it was last touched, its rematch) and one row per
action taken with the time it was taken, appended and committed before
anyone is told of it. Together they are the table's game record
(:func:`unorules.serve.tables.game_record`), whose replay gives the table's
state back exactly (determinism), so a restarted server resumes every table
where it was. Tables that expire are deleted with their actions
(:meth:`TableStore.delete_table`).

:class:`TableStore` is what the tables layer uses; it holds every query and
the schema's migrations, and two classes give it a database:
:class:`SQLiteStore` (:class:`Store`, the default: one file, one server
process) and :class:`PostgresStore` (``postgresql://…``: any number of
server processes, on any number of machines, share it; see
:mod:`unorules.serve.cluster`). :func:`open_store` picks by the ``--db`` text.

The schema has a version (:data:`SCHEMA_VERSION`: SQLite's ``user_version``,
PostgreSQL's one-row table ``unorules_schema``); a database of an older
version is migrated when opened, one of a newer version refused. An action's
row is keyed by its table and number, so two processes can never both write
action *k* of a table: the second is refused (:class:`Conflict`) and learns
that the table moved on.
"""

from __future__ import annotations

import abc
import asyncio
import concurrent.futures
import contextlib
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs

from unorules.errors import UnorulesError

__all__ = [
    "CHANNEL",
    "SCHEMA_VERSION",
    "Conflict",
    "PostgresStore",
    "SQLiteStore",
    "SeatRecord",
    "Store",
    "StoreError",
    "TableRecord",
    "TableStore",
    "is_postgres_url",
    "open_store",
]

SCHEMA_VERSION = 4
"""The version of the tables database's schema. Version 1 is the first schema; files
written before it carried a version are version 0 with the same tables. Version 2 adds to a
table its turn timer (``turn_seconds``), invitation code (``invite``), the time it was last
touched (``touched``) and its rematch's id (``rematch``), and to an action the time it was
taken (``at``). Older files are migrated when opened: their tables need no invitation code,
have no timer and count as touched at the migration; their earlier actions have no time.
Version 3 adds to a table whether its game is over (``over``), so that a restarted server
replays a finished game only when somebody looks at it; a table of an older file counts as
not over until the server has replayed it once. Version 4 adds the tables the processes
sharing a database use: ``leases`` (which process runs a table's bots and timers, until
when) and ``buckets`` (the creation limits' token buckets); a store of one process keeps
them empty."""

CHANNEL = "unorules"
"""The PostgreSQL ``NOTIFY`` channel on which a :class:`PostgresStore` announces every change."""

_COLUMNS = {
    "tables": (
        ("turn_seconds", "INTEGER NOT NULL DEFAULT 0"),
        ("invite", "TEXT NOT NULL DEFAULT ''"),
        ("touched", "{real}"),
        ("rematch", "TEXT"),
        ("over", "INTEGER NOT NULL DEFAULT 0"),
    ),
    "actions": (("at", "{real}"),),
}

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    seats TEXT NOT NULL,
    started INTEGER NOT NULL DEFAULT 0,
    created {real} NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
)""",
    """CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires {real} NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS buckets (
    key TEXT PRIMARY KEY,
    tokens {real} NOT NULL,
    stamp {real} NOT NULL
)""",
)
# the columns of later versions are added by _migrate, to new and old databases alike

_TABLE_COLUMNS = "id, spec, players, seed, seats, started, created, turn_seconds, invite, touched, rematch"


class StoreError(UnorulesError):
    """A tables database this server cannot use (written by a newer version of unorules, or
    out of reach)."""


class Conflict(StoreError):
    """Another server process changed the table first (took action *k*, a seat, the rematch):
    nothing was written; read the table again."""


@attrs.frozen
class SeatRecord:
    """One seat: ``kind`` is ``"open"`` (waiting for a player), ``"human"`` or
    ``"bot"``; ``bot`` names the bot kind; ``token_hash`` the SHA-256 of the
    seat's secret token (empty for bots and open seats)."""

    kind: str
    name: str = ""
    bot: str = ""
    token_hash: str = ""


@attrs.frozen
class TableRecord:
    """Everything needed to rebuild a table: replay ``actions`` from the deal
    of ``spec`` for ``players`` seats with ``seed``. ``turn_seconds``: the turn
    timer (0: none); ``invite``: the code that takes an open seat (empty: none
    needed); ``touched``: when a person last did something there (seconds since
    the epoch: the last action, join or start); ``rematch``: the id of the table
    of its rematch, if one was made."""

    id: str
    spec: str
    players: int
    seed: int
    seats: tuple[SeatRecord, ...]
    started: bool
    created: float
    actions: tuple[str, ...] = ()
    turn_seconds: int = 0
    invite: str = ""
    touched: float = 0.0
    rematch: str | None = None


Row = tuple[Any, ...]
_T = TypeVar("_T")
_log = logging.getLogger("unorules.serve")


class TableStore(abc.ABC):
    """The tables of a server in a database: every query, the migrations, the leases and
    limits of a cluster. A subclass gives the database (:meth:`_run`, :meth:`_rows`,
    :meth:`_begin`, the schema version and the columns present); ``shared`` tells
    whether other server processes may use the same database."""

    shared = False
    """Whether other processes may write the same tables (then they announce every change)."""

    _real = "REAL"
    _greatest = "MAX"
    location = ""
    """Where the tables are kept, for messages (a file name, or the database URL without
    its password)."""

    # -- what a database gives ---------------------------------------------------------

    @abc.abstractmethod
    def _run(self, sql: str, arguments: Sequence[Any] = ()) -> int:
        """Run one statement (committed at once outside :meth:`_transaction`); the rows changed."""

    @abc.abstractmethod
    def _rows(self, sql: str, arguments: Sequence[Any] = ()) -> list[Row]:
        """The rows of a query."""

    _depth = 0
    """How many :meth:`_transaction` blocks are open (an inner one joins the outer)."""

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction around the statements run inside it (the migration lock held);
        a transaction opened inside another joins it."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._depth = 1
        try:
            with self._begin():
                yield
        finally:
            self._depth = 0

    @abc.abstractmethod
    def _begin(self) -> contextlib.AbstractContextManager[None]:
        """The database's own transaction: committed when the block ends, rolled back
        when it raises."""

    @abc.abstractmethod
    def _read_version(self) -> int:
        """The schema version written in the database."""

    @abc.abstractmethod
    def _write_version(self, version: int) -> None:
        """Write the schema version (in the migration's transaction)."""

    @abc.abstractmethod
    def _present(self, table: str) -> set[str]:
        """The columns ``table`` has now."""

    def _announce(self, table_id: str, kind: str, detail: str = "") -> None:  # noqa: B027
        """Tell the other processes that ``table_id`` changed (in the current transaction);
        a store of one process has nobody to tell."""

    def _duplicate(self, exc: Exception) -> bool:
        """Whether ``exc`` is the database refusing a second row with the same key."""
        return False

    @abc.abstractmethod
    def close(self) -> None:
        """Close the database."""

    # -- the schema ----------------------------------------------------------------------

    def _open(self) -> None:
        with self._transaction():
            version = self._read_version()
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.location} was written by a newer unorules (tables schema {version}; "
                    f"this one reads up to {SCHEMA_VERSION}): upgrade unorules or give another --db"
                )
            for statement in _SCHEMA:
                self._run(statement.format(real=self._real))
            if version < SCHEMA_VERSION:
                self._migrate()

    def _migrate(self) -> None:
        # 0 -> 1: the same tables (files of the first server, before the version was kept).
        # 1 -> 2, 2 -> 3: the columns of _COLUMNS (a new database gets them here too); tables of
        # older files count as touched now, so they get the whole idle time before they expire.
        # 3 -> 4: the leases and buckets tables of _SCHEMA.
        for table, columns in _COLUMNS.items():
            present = self._present(table)
            for name, declaration in columns:
                if name not in present:
                    self._run(f"ALTER TABLE {table} ADD COLUMN {name} {declaration.format(real=self._real)}")
        self._run("UPDATE tables SET touched = ? WHERE touched IS NULL", (now(),))
        self._write_version(SCHEMA_VERSION)

    @property
    def schema_version(self) -> int:
        """The schema version of the open database."""
        return self._read_version()

    # -- tables and actions --------------------------------------------------------------

    def add_table(self, table: TableRecord) -> None:
        """Save a new table (with no actions)."""
        with self._transaction():
            self._run(
                f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    table.spec,
                    table.players,
                    table.seed,
                    _seats_json(table.seats),
                    int(table.started),
                    table.created,
                    table.turn_seconds,
                    table.invite,
                    table.touched or table.created,
                    table.rematch,
                ),
            )
            self._announce(table.id, "new")

    def update_seats(
        self,
        table_id: str,
        seats: tuple[SeatRecord, ...],
        started: bool,
        touched: float | None = None,
        *,
        before: tuple[tuple[SeatRecord, ...], bool] | None = None,
    ) -> None:
        """Save who sits where and whether the game started (and when that was: now by default).
        ``before``: the seats and start this change was made on; :class:`Conflict` (nothing
        saved) if another process changed them meanwhile."""
        condition: str = ""
        arguments: tuple[Any, ...] = ()
        if before is not None:
            condition, arguments = " AND seats = ? AND started = ?", (_seats_json(before[0]), int(before[1]))
        with self._transaction():
            changed = self._run(
                f"UPDATE tables SET seats = ?, started = ?, touched = ? WHERE id = ?{condition}",
                (
                    _seats_json(seats),
                    int(started),
                    now() if touched is None else touched,
                    table_id,
                    *arguments,
                ),
            )
            if changed == 0:
                raise Conflict(f"table {table_id}'s seats were changed by another server process")
            self._announce(table_id, "seats")

    def set_rematch(self, table_id: str, rematch: str) -> None:
        """Save the id of the table's rematch; :class:`Conflict` if it has one already."""
        with self._transaction():
            changed = self._run(
                "UPDATE tables SET rematch = ? WHERE id = ? AND rematch IS NULL", (rematch, table_id)
            )
            if changed == 0:
                raise Conflict(f"table {table_id} has a rematch already")
            self._announce(table_id, "seats")

    def append_action(self, table_id: str, number: int, action: str, at: float | None = None) -> None:
        """Append the table's action ``number`` (from 0) taken at ``at`` (now by default),
        committed on return; :class:`Conflict` (nothing written) if the table has an action
        ``number`` already (another process took it first)."""
        row = (table_id, number, action, now() if at is None else at)
        try:
            self._add_action(row, f"action {table_id} {number} {action}")
        except Exception as exc:
            if self._duplicate(exc):
                raise Conflict(f"table {table_id} has an action {number} already") from None
            raise

    @abc.abstractmethod
    def _add_action(self, row: tuple[str, int, str, float], announcement: str) -> None:
        """Insert the action ``row`` (table, number, text, time) and announce it, committed
        on return: the hot path, one statement."""

    def commit_action(
        self, table_id: str, number: int, action: str, at: float, *, over: bool = False
    ) -> asyncio.Future[None]:
        """What the server does with an action (from the running event loop): append the
        table's action ``number`` taken at ``at`` and, with ``over``, save that the game is over,
        in one transaction. Returns a future done once that is committed, whose exception is
        :class:`Conflict` (nothing written) if the table has an action ``number`` already.

        Here the commit is made at once (an SQLite file's commit, WAL, does not wait for the
        disk: tens of microseconds), and the future is done on return; a :class:`PostgresStore`
        hands it to its database thread, which commits the actions that arrived meanwhile
        together, so the event loop serves the other tables while PostgreSQL writes."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        try:
            if over:
                with self._transaction():
                    self.append_action(table_id, number, action, at)
                    self.set_over(table_id)
            else:  # one statement commits by itself
                self.append_action(table_id, number, action, at)
        except Exception as exc:
            done.set_exception(exc)
        else:
            done.set_result(None)
        return done

    async def call(self, function: Callable[..., _T], *args: Any) -> _T:
        """``function(*args)``, one of this store's queries (from the running event loop), in
        the order of the store's writes; a :class:`PostgresStore` runs it in its database
        thread, so the event loop goes on meanwhile; here it runs at once."""
        return function(*args)

    def actions_from(self, table_id: str, number: int) -> list[str]:
        """The table's actions from ``number`` on, in order."""
        return [
            action
            for (action,) in self._rows(
                "SELECT action FROM actions WHERE table_id = ? AND number >= ? ORDER BY number",
                (table_id, number),
            )
        ]

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        """How many actions each of ``table_ids`` has (a table without any: left out)."""
        found: dict[str, int] = {}
        for start in range(0, len(table_ids), 500):
            chunk = list(table_ids[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            for table_id, count in self._rows(
                f"SELECT table_id, MAX(number) + 1 FROM actions WHERE table_id IN ({marks}) "
                "GROUP BY table_id",
                chunk,
            ):
                found[table_id] = int(count)
        return found

    def truncate_actions(self, table_id: str, count: int) -> None:
        """Keep only the table's first ``count`` actions (a take-back), committed on return."""
        with self._transaction():
            self._run("DELETE FROM actions WHERE table_id = ? AND number >= ?", (table_id, count))
            self._announce(table_id, "undo", str(count))

    def set_over(self, table_id: str) -> None:
        """Save that the table's game is over."""
        self._run("UPDATE tables SET over = 1 WHERE id = ?", (table_id,))

    def finished(self) -> list[tuple[str, float]]:
        """The tables whose game is over, each with when it was last touched (the later of its
        own time and its last action's), oldest first; their actions are not read."""
        rows = self._rows(
            f"SELECT id, {self._greatest}(COALESCE(touched, created), COALESCE((SELECT MAX(at) "
            "FROM actions WHERE table_id = tables.id), 0)) FROM tables WHERE over = 1 ORDER BY created, id"
        )
        return [(table_id, float(touched)) for table_id, touched in rows]

    def table(self, table_id: str) -> TableRecord | None:
        """The saved table ``table_id`` with its actions, or ``None``."""
        return next(self._records("WHERE id = ?", (table_id,)), None)

    def delete_table(self, table_id: str) -> None:
        """Delete a table, its actions and its lease (one transaction)."""
        with self._transaction():
            self._run("DELETE FROM actions WHERE table_id = ?", (table_id,))
            self._run("DELETE FROM leases WHERE table_id = ?", (table_id,))
            if self._run("DELETE FROM tables WHERE id = ?", (table_id,)):
                self._announce(table_id, "gone")

    def count(self) -> int:
        """How many tables the database holds (those that no longer replay included)."""
        ((count,),) = self._rows("SELECT COUNT(*) FROM tables")
        return int(count)

    def tables(self, *, finished: bool = True) -> Iterator[TableRecord]:
        """Every saved table with its actions (``finished``: those whose game is over too),
        oldest first; a table's ``touched`` is the later of its own and the time of its last
        action."""
        return self._records("" if finished else "WHERE over = 0", ())

    def _records(self, where: str, arguments: tuple[str, ...]) -> Iterator[TableRecord]:
        rows = self._rows(f"SELECT {_TABLE_COLUMNS} FROM tables {where} ORDER BY created, id", arguments)
        for table_id, spec, players, seed, seats, started, created, turn, invite, touched, rematch in rows:
            actions: list[str] = []
            last = touched if touched is not None else created
            for action, at in self._rows(
                "SELECT action, at FROM actions WHERE table_id = ? ORDER BY number", (table_id,)
            ):
                actions.append(action)
                if at is not None and at > last:
                    last = at
            yield TableRecord(
                id=table_id,
                spec=spec,
                players=players,
                seed=int(seed),
                seats=tuple(SeatRecord(**s) for s in json.loads(seats)),
                started=bool(started),
                created=float(created),
                actions=tuple(actions),
                turn_seconds=turn,
                invite=invite,
                touched=float(last),
                rematch=rematch,
            )

    # -- leases: which process runs a table's bots and timers ----------------------------

    def take_leases(self, holder: str, table_ids: Sequence[str], seconds: float) -> set[str]:
        """Give ``holder`` the lease of each of ``table_ids`` that nobody holds or whose
        lease ran out, and renew the ones it holds, for ``seconds``; returns the tables whose
        lease it holds now."""
        held: set[str] = set()
        moment = now()
        for start in range(0, len(table_ids), 500):
            chunk = list(table_ids[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            with self._transaction():  # two statements for the whole chunk: one round trip each
                self._run(
                    "INSERT INTO leases (table_id, holder, expires) VALUES "
                    + ", ".join("(?, ?, ?)" for _ in chunk)
                    + " ON CONFLICT (table_id) DO UPDATE SET holder = excluded.holder, "
                    "expires = excluded.expires WHERE leases.holder = excluded.holder "
                    "OR leases.expires < ?",
                    (*(v for table_id in chunk for v in (table_id, holder, moment + seconds)), moment),
                )
                held |= {
                    table_id
                    for (table_id,) in self._rows(
                        f"SELECT table_id FROM leases WHERE holder = ? AND table_id IN ({marks})",
                        (holder, *chunk),
                    )
                }
        return held

    def release_leases(self, holder: str, table_ids: Sequence[str] | None = None) -> None:
        """Give up ``holder``'s leases (of ``table_ids``, or all of them)."""
        if table_ids is None:
            self._run("DELETE FROM leases WHERE holder = ?", (holder,))
            return
        for table_id in table_ids:
            self._run("DELETE FROM leases WHERE holder = ? AND table_id = ?", (holder, table_id))

    def lease_holders(self) -> dict[str, tuple[str, float]]:
        """Every lease: the table's holder and when its lease runs out (seconds since the epoch)."""
        return {t: (h, float(e)) for t, h, e in self._rows("SELECT table_id, holder, expires FROM leases")}

    # -- token buckets of limits shared by the processes ---------------------------------

    def bucket(self, key: str, rate: float, burst: float) -> float:
        """The tokens the bucket ``key`` holds now (``burst`` if it is not kept)."""
        rows = self._rows("SELECT tokens, stamp FROM buckets WHERE key = ?", (key,))
        if not rows:
            return burst
        tokens, stamp = rows[0]
        return float(min(burst, tokens + max(0.0, now() - stamp) * rate))

    def spend_bucket(self, key: str, rate: float, burst: float) -> None:
        """Take one token from the bucket ``key`` (atomically: processes spend the same bucket)."""
        moment = now()
        self._run(
            "INSERT INTO buckets (key, tokens, stamp) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
            f"tokens = {self._greatest}(0.0, (CASE WHEN buckets.tokens + (? - buckets.stamp) * ? > ? "
            "THEN ? ELSE buckets.tokens + (? - buckets.stamp) * ? END) - 1.0), stamp = ?",
            (key, burst - 1.0, moment, moment, rate, burst, burst, moment, rate, moment),
        )

    def forget_old_buckets(self) -> int:
        """Delete the buckets not spent for three hours (full again: as good as new); how many."""
        return self._run("DELETE FROM buckets WHERE stamp < ?", (now() - 3 * 3600,))


class SQLiteStore(TableStore):
    """The tables of one server process in one SQLite file (``":memory:"`` for none)."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = self.location = str(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._depth = 0
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
            # WAL with NORMAL survives a crash of the process (the case that matters
            # here); an OS crash may lose the last actions, never corrupt the file.
            self._db.execute("PRAGMA synchronous=NORMAL")
        try:
            self._open()
        except StoreError:
            self._db.close()
            raise

    def _run(self, sql: str, arguments: Sequence[Any] = ()) -> int:
        return self._db.execute(sql, tuple(arguments)).rowcount

    def _rows(self, sql: str, arguments: Sequence[Any] = ()) -> list[Row]:
        return self._db.execute(sql, tuple(arguments)).fetchall()

    @contextlib.contextmanager
    def _begin(self) -> Iterator[None]:
        # one statement outside a transaction commits by itself
        self._db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        else:
            self._db.execute("COMMIT")

    def _read_version(self) -> int:
        version: int = self._db.execute("PRAGMA user_version").fetchone()[0]
        return version

    def _write_version(self, version: int) -> None:
        self._db.execute(f"PRAGMA user_version = {int(version)}")

    def _present(self, table: str) -> set[str]:
        return {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}

    def _duplicate(self, exc: Exception) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)

    def _add_action(self, row: tuple[str, int, str, float], announcement: str) -> None:
        # one statement, committed by itself: no transaction around it; nobody to tell
        self._db.execute("INSERT INTO actions (table_id, number, action, at) VALUES (?, ?, ?, ?)", row)

    def close(self) -> None:
        self._db.close()


Store = SQLiteStore
"""The default store: an SQLite file (the name every version of the server used)."""


def is_postgres_url(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (``postgresql://…`` or ``postgres://…``)."""
    return db.startswith(("postgresql://", "postgres://"))


def open_store(db: str | Path) -> TableStore:
    """The store ``db`` names: a PostgreSQL URL (:class:`PostgresStore`), else an SQLite file."""
    if isinstance(db, str) and is_postgres_url(db):
        return PostgresStore(db)
    return SQLiteStore(db)


class PostgresStore(TableStore):
    """The tables of any number of server processes in one PostgreSQL database (``url``, as
    libpq reads it: ``postgresql://user:password@host:port/database``). Needs the ``postgres``
    extra (psycopg 3). Every change is announced on :data:`CHANNEL` in its own transaction,
    with the table's id, what changed, and the process's connection, so the other processes
    learn of it when it is committed (:mod:`unorules.serve.cluster`).

    The store's one connection is used by one thread at a time. A thread of its own, the
    *database thread*, takes the work the event loop must not wait for, in the order it was
    given: the actions (:meth:`commit_action`), the announcements (:meth:`publish`) and the
    queries of :meth:`call`. The actions and announcements waiting when it is free are
    written together, in one statement and so one transaction: one commit, one wait for the
    disk, for all of them (group commit), each action's future done when it is committed.
    The other methods run in the calling thread, after the database thread's current
    transaction."""

    shared = True
    _real = "DOUBLE PRECISION"
    _greatest = "GREATEST"

    BATCH = 256
    """The most actions and announcements the database thread commits in one transaction."""

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                "a PostgreSQL --db needs psycopg: pip install 'unorules[serve,postgres]'"
            ) from None
        self._psycopg = psycopg
        self.url = url
        self.location = self.shown(url)
        try:
            self._db = psycopg.connect(url, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise StoreError(
                f"cannot reach the tables database {self.location}: {_first_line(exc)}"
            ) from None
        self.backend = self._db.info.backend_pid
        """This connection's server process id: announcements carry it, so a process knows its own."""
        self._depth = 0
        self._lock = threading.RLock()
        """Held by the thread using the connection (for a whole transaction)."""
        self._queue: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        try:
            self._open()
        except StoreError:
            self._db.close()
            raise

    @staticmethod
    def shown(url: str) -> str:
        """``url`` without its password, for messages and logs."""
        return _without_password(url)

    def _run(self, sql: str, arguments: Sequence[Any] = ()) -> int:
        with self._lock:
            cursor = self._db.execute(sql.replace("?", "%s"), tuple(arguments))
            return int(cursor.rowcount)

    def _rows(self, sql: str, arguments: Sequence[Any] = ()) -> list[Row]:
        with self._lock:
            cursor = self._db.execute(sql.replace("?", "%s"), tuple(arguments))
            return list(cursor.fetchall())

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock, super()._transaction():
            yield

    def _begin(self) -> contextlib.AbstractContextManager[None]:
        return self._db.transaction()  # type: ignore[return-value]  # psycopg's Transaction

    def _open(self) -> None:
        # processes starting together migrate one after the other (the lock ends with the transaction)
        with self._transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(4515151)")
            self._db.execute("CREATE TABLE IF NOT EXISTS unorules_schema (version INTEGER NOT NULL)")
            super()._open()

    def _read_version(self) -> int:
        rows = self._rows("SELECT version FROM unorules_schema")
        return int(rows[0][0]) if rows else 0

    def _write_version(self, version: int) -> None:
        self._run("DELETE FROM unorules_schema")
        self._run("INSERT INTO unorules_schema (version) VALUES (?)", (version,))

    def _present(self, table: str) -> set[str]:
        rows = self._rows(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ?",
            (table,),
        )
        return {name for (name,) in rows}

    def _announce(self, table_id: str, kind: str, detail: str = "") -> None:
        # in the caller's transaction: announced when it commits
        self._run("SELECT pg_notify(?, ?)", (CHANNEL, f"{kind} {table_id} {detail}".rstrip()))

    def publish(self, *payloads: str) -> concurrent.futures.Future[None]:
        """Announce each of ``payloads`` on :data:`CHANNEL`, in order, after the actions and
        announcements given before (by the database thread: the caller does not wait); the
        future is done once they are committed (its exception: why not)."""
        return self._give(_Work(notes=payloads))

    def commit_action(
        self, table_id: str, number: int, action: str, at: float, *, over: bool = False
    ) -> asyncio.Future[None]:
        row = (table_id, number, action, at)
        work = _Work(action=row, note=f"action {table_id} {number} {action}", over=over)
        return asyncio.wrap_future(self._give(work))

    async def call(self, function: Callable[..., _T], *args: Any) -> _T:
        result: concurrent.futures.Future[_T] = self._give(_Work(call=(function, args)))
        return await asyncio.wrap_future(result)

    def _give(self, work: _Work) -> concurrent.futures.Future[Any]:
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._work, name="unorules-db", daemon=True)
            self._worker.start()
        self._queue.put(work)
        return work.done

    def _work(self) -> None:
        """The database thread: takes what waits, writes the actions and announcements among it
        together, runs the queries in their turn; stops at ``None`` (after what came before)."""
        while True:
            first = self._queue.get()
            waiting = [first]
            while first is not None and len(waiting) < self.BATCH:
                try:
                    waiting.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            batch: list[_Work] = []
            for work in waiting:
                if work is not None and not work.done.set_running_or_notify_cancel():
                    continue  # its caller gave up before it was begun: not written
                if work is not None and work.call is None:
                    batch.append(work)
                    continue
                self._settle(batch)
                batch = []
                if work is None:
                    return
                self._settle([work])
            self._settle(batch)

    def _settle(self, batch: list[_Work]) -> None:
        """Carry out ``batch`` (one query, or actions and announcements); whatever goes wrong is
        the outcome of its futures, and the thread goes on."""
        try:
            if len(batch) == 1 and batch[0].call is not None:
                self._query(batch[0])
            else:
                self._write(batch)
        except Exception as exc:  # not the database's refusal (that is each work's outcome): a bug
            _log.exception("the database thread failed")
            for work in batch:
                if not work.done.done():
                    work.done.set_exception(exc)

    def _query(self, work: _Work) -> None:
        assert work.call is not None
        function, args = work.call
        try:
            result = function(*args)
        except BaseException as exc:
            work.done.set_exception(exc)
        else:
            work.done.set_result(result)

    def _write(self, batch: list[_Work]) -> None:
        """Commit the actions and announcements of ``batch`` in one statement; if it fails, each
        on its own (so that one action's failure, a table deleted meanwhile, is its own)."""
        if not batch:
            return
        actions = [w for w in batch if w.action is not None]
        try:
            added = self._write_together(batch, actions)
        except self._psycopg.Error as exc:
            if len(batch) == 1 or isinstance(exc, self._psycopg.OperationalError):
                for work in batch:
                    work.done.set_exception(exc)
                return
            for work in batch:
                self._write([work])
            return
        for work in batch:
            if work.action is not None and (work.action[0], work.action[1]) not in added:
                table_id, number = work.action[0], work.action[1]
                work.done.set_exception(Conflict(f"table {table_id} has an action {number} already"))
            else:
                work.done.set_result(None)

    def _write_together(self, batch: list[_Work], actions: list[_Work]) -> set[tuple[str, int]]:
        """One statement, its own transaction: every action of ``batch`` whose number is free
        is inserted (its game saved as over if it ended) and announced, then every
        announcement; returns the (table, number) of the actions inserted."""
        rows = [w.action for w in actions if w.action is not None]
        notes = [note for w in batch if w.action is None for note in w.notes]
        with self._lock:
            found = self._db.execute(
                "WITH batch AS (SELECT * FROM unnest(%s::text[], %s::integer[], %s::text[], "
                "%s::double precision[], %s::text[], %s::boolean[], %s::integer[]) "
                "AS b(table_id, number, action, at, note, over, place)), "
                "added AS (INSERT INTO actions (table_id, number, action, at) "
                "SELECT table_id, number, action, at FROM batch ORDER BY place "
                "ON CONFLICT DO NOTHING RETURNING table_id, number), "
                "ended AS (UPDATE tables SET over = 1 WHERE id IN (SELECT b.table_id FROM batch b "
                "JOIN added a USING (table_id, number) WHERE b.over)) "
                "SELECT * FROM (SELECT a.table_id, a.number, pg_notify(%s, b.note), b.place "
                "FROM added a JOIN batch b USING (table_id, number) "
                "UNION ALL SELECT NULL, NULL, pg_notify(%s, n.note), n.place + %s "
                "FROM unnest(%s::text[]) WITH ORDINALITY AS n(note, place)) told ORDER BY place",
                (
                    [r[0] for r in rows],
                    [r[1] for r in rows],
                    [r[2] for r in rows],
                    [r[3] for r in rows],
                    [w.note for w in actions],
                    [w.over for w in actions],
                    list(range(len(rows))),
                    CHANNEL,
                    CHANNEL,
                    len(rows),
                    notes,
                ),
            ).fetchall()
        return {(table_id, number) for table_id, number, _, _ in found if table_id is not None}

    def _duplicate(self, exc: Exception) -> bool:
        return isinstance(exc, self._psycopg.errors.UniqueViolation)

    def _add_action(self, row: tuple[str, int, str, float], announcement: str) -> None:
        # the row and its announcement in one statement: one round trip, one commit
        with self._lock:
            self._db.execute(
                "WITH added AS (INSERT INTO actions (table_id, number, action, at) VALUES (%s, %s, %s, %s) "
                "RETURNING number) SELECT pg_notify(%s, %s) FROM added",
                (*row, CHANNEL, announcement),
            )

    def commits(self) -> int:
        """The transactions committed in this database so far (PostgreSQL's statistics)."""
        rows = self._rows("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
        return int(rows[0][0])

    def close(self) -> None:
        """Write what the database thread was given, then close the connection."""
        if self._worker is not None:
            self._queue.put(None)
            self._worker.join(30)
            self._worker = None
        with self._lock:
            self._db.close()


@attrs.define
class _Work:
    """One thing for a :class:`PostgresStore`'s database thread: an action (its row, its
    announcement, whether its game ended), announcements, or a query to call."""

    action: tuple[str, int, str, float] | None = None
    note: str = ""
    over: bool = False
    notes: tuple[str, ...] = ()
    call: tuple[Callable[..., Any], tuple[Any, ...]] | None = None
    done: concurrent.futures.Future[Any] = attrs.Factory(concurrent.futures.Future)


def _without_password(url: str) -> str:
    head, at, tail = url.rpartition("@")
    if not at:
        return url
    scheme, _, credentials = head.partition("://")
    return f"{scheme}://{credentials.split(':', 1)[0]}@{tail}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _seats_json(seats: tuple[SeatRecord, ...]) -> str:
    return json.dumps([attrs.asdict(s) for s in seats])


def now() -> float:
    """Seconds since the epoch (a table's creation time)."""
    return time.time()

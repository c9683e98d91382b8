"""SQLite persistence of every table: what it is, who sits where, every action.

A table is one row (its rule set's canonical text, player count, seed, seats
with the *hashes* of their tokens, whether it started, its turn timer, its
invitation code, when it was last touched, its rematch) and one row per
action taken with the time it was taken, appended and committed before
anyone is told of it. Together they are the table's game record
(:func:`unorules.serve.tables.game_record`), whose replay gives the table's
state back exactly (determinism), so a restarted server resumes every table
where it was. Tables that expire are deleted with their actions
(:meth:`Store.delete_table`).

The file's schema version is SQLite's ``user_version``
(:data:`SCHEMA_VERSION`); a file of an older version is migrated when opened,
one of a newer version refused.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import attrs

from unorules.errors import UnorulesError

__all__ = ["SCHEMA_VERSION", "SeatRecord", "Store", "StoreError", "TableRecord"]

SCHEMA_VERSION = 3
"""The version of the tables file's schema (SQLite ``user_version``). Version 1 is the
first schema; files written before it carried a version are version 0 with the same
tables. Version 2 adds to a table its turn timer (``turn_seconds``), invitation code
(``invite``), the time it was last touched (``touched``) and its rematch's id
(``rematch``), and to an action the time it was taken (``at``). Older files are
migrated when opened: their tables need no invitation code, have no timer and count
as touched at the migration; their earlier actions have no time. Version 3 adds to a
table whether its game is over (``over``), so that a restarted server replays a
finished game only when somebody looks at it; a table of an older file counts as not
over until the server has replayed it once."""

_COLUMNS = {
    "tables": (
        ("turn_seconds", "INTEGER NOT NULL DEFAULT 0"),
        ("invite", "TEXT NOT NULL DEFAULT ''"),
        ("touched", "REAL"),
        ("rematch", "TEXT"),
        ("over", "INTEGER NOT NULL DEFAULT 0"),
    ),
    "actions": (("at", "REAL"),),
}

_SCHEMA = """
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
# the columns of later versions are added by _migrate, to new and old files alike


class StoreError(UnorulesError):
    """A tables file this server cannot use (written by a newer version of unorules)."""


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


class Store:
    """The tables of one server in one SQLite file (``":memory:"`` for none)."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
            # WAL with NORMAL survives a crash of the process (the case that matters
            # here); an OS crash may lose the last actions, never corrupt the file.
            self._db.execute("PRAGMA synchronous=NORMAL")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            self._db.close()
            raise StoreError(
                f"{self.path} was written by a newer unorules (tables schema {version}; this one "
                f"reads up to {SCHEMA_VERSION}): upgrade unorules or give another --db file"
            )
        self._db.executescript(_SCHEMA)
        if version < SCHEMA_VERSION:
            self._migrate(version)

    def _migrate(self, version: int) -> None:
        # 0 -> 1: the same tables (files of the first server, before the version was kept).
        # 1 -> 2: the columns of _COLUMNS (a new file gets them here too); tables of older files
        # count as touched now, so they get the whole idle time before they expire.
        with self._db:
            self._db.execute("BEGIN")
            for table, columns in _COLUMNS.items():
                present = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                for name, declaration in columns:
                    if name not in present:
                        self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {declaration}")
            self._db.execute("UPDATE tables SET touched = ? WHERE touched IS NULL", (now(),))
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def schema_version(self) -> int:
        """The schema version of the open file."""
        version: int = self._db.execute("PRAGMA user_version").fetchone()[0]
        return version

    def close(self) -> None:
        """Close the database file."""
        self._db.close()

    def add_table(self, table: TableRecord) -> None:
        """Save a new table (with no actions)."""
        self._db.execute(
            "INSERT INTO tables (id, spec, players, seed, seats, started, created, turn_seconds, invite, "
            "touched, rematch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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

    def update_seats(
        self, table_id: str, seats: tuple[SeatRecord, ...], started: bool, touched: float | None = None
    ) -> None:
        """Save who sits where and whether the game started (and when that was: now by default)."""
        self._db.execute(
            "UPDATE tables SET seats = ?, started = ?, touched = ? WHERE id = ?",
            (_seats_json(seats), int(started), now() if touched is None else touched, table_id),
        )

    def set_rematch(self, table_id: str, rematch: str) -> None:
        """Save the id of the table's rematch."""
        self._db.execute("UPDATE tables SET rematch = ? WHERE id = ?", (rematch, table_id))

    def append_action(self, table_id: str, number: int, action: str, at: float | None = None) -> None:
        """Append the table's action ``number`` (from 0) taken at ``at`` (now by default),
        committed on return."""
        self._db.execute(
            "INSERT INTO actions (table_id, number, action, at) VALUES (?, ?, ?, ?)",
            (table_id, number, action, now() if at is None else at),
        )

    def truncate_actions(self, table_id: str, count: int) -> None:
        """Keep only the table's first ``count`` actions (a take-back), committed on return."""
        self._db.execute("DELETE FROM actions WHERE table_id = ? AND number >= ?", (table_id, count))

    def set_over(self, table_id: str) -> None:
        """Save that the table's game is over."""
        self._db.execute("UPDATE tables SET over = 1 WHERE id = ?", (table_id,))

    def finished(self) -> list[tuple[str, float]]:
        """The tables whose game is over, each with when it was last touched (the later of its
        own time and its last action's), oldest first; their actions are not read."""
        rows = self._db.execute(
            "SELECT id, MAX(COALESCE(touched, created), COALESCE((SELECT MAX(at) FROM actions "
            "WHERE table_id = tables.id), 0)) FROM tables WHERE over = 1 ORDER BY created, id"
        ).fetchall()
        return [(table_id, float(touched)) for table_id, touched in rows]

    def table(self, table_id: str) -> TableRecord | None:
        """The saved table ``table_id`` with its actions, or ``None``."""
        return next(self._records("WHERE id = ?", (table_id,)), None)

    def delete_table(self, table_id: str) -> None:
        """Delete a table and its actions (one transaction)."""
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
            self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def count(self) -> int:
        """How many tables the file holds (those that no longer replay included)."""
        (count,) = self._db.execute("SELECT COUNT(*) FROM tables").fetchone()
        return int(count)

    def tables(self, *, finished: bool = True) -> Iterator[TableRecord]:
        """Every saved table with its actions (``finished``: those whose game is over too),
        oldest first; a table's ``touched`` is the later of its own and the time of its last
        action."""
        return self._records("" if finished else "WHERE over = 0", ())

    def _records(self, where: str, arguments: tuple[str, ...]) -> Iterator[TableRecord]:
        rows = self._db.execute(
            "SELECT id, spec, players, seed, seats, started, created, turn_seconds, invite, touched, "
            f"rematch FROM tables {where} ORDER BY created, id",
            arguments,
        ).fetchall()
        for table_id, spec, players, seed, seats, started, created, turn, invite, touched, rematch in rows:
            actions: list[str] = []
            last = touched if touched is not None else created
            for action, at in self._db.execute(
                "SELECT action, at FROM actions WHERE table_id = ? ORDER BY number", (table_id,)
            ):
                actions.append(action)
                if at is not None and at > last:
                    last = at
            yield TableRecord(
                id=table_id,
                spec=spec,
                players=players,
                seed=seed,
                seats=tuple(SeatRecord(**s) for s in json.loads(seats)),
                started=bool(started),
                created=created,
                actions=tuple(actions),
                turn_seconds=turn,
                invite=invite,
                touched=last,
                rematch=rematch,
            )


def _seats_json(seats: tuple[SeatRecord, ...]) -> str:
    return json.dumps([attrs.asdict(s) for s in seats])


def now() -> float:
    """Seconds since the epoch (a table's creation time)."""
    return time.time()

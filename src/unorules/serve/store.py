"""SQLite persistence of every table: what it is, who sits where, every action.

A table is one row (its rule set's canonical text, player count, seed, seats
with the *hashes* of their tokens, whether it started) and one row per action
taken, appended and committed before anyone is told of it. Together they are
the table's game record (:func:`unorules.serve.tables.game_record`), whose
replay gives the table's state back exactly (determinism), so a restarted
server resumes every table where it was.

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

SCHEMA_VERSION = 1
"""The version of the tables file's schema (SQLite ``user_version``). Version 1 is the
first schema; files written before it carried a version are version 0 with the same
tables, and are marked 1 when opened."""

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
    of ``spec`` for ``players`` seats with ``seed``."""

    id: str
    spec: str
    players: int
    seed: int
    seats: tuple[SeatRecord, ...]
    started: bool
    created: float
    actions: tuple[str, ...] = ()


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
        # 0 -> 1: the same tables (files of the first server, before the version was kept)
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
            "INSERT INTO tables (id, spec, players, seed, seats, started, created) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                table.id,
                table.spec,
                table.players,
                table.seed,
                _seats_json(table.seats),
                int(table.started),
                table.created,
            ),
        )

    def update_seats(self, table_id: str, seats: tuple[SeatRecord, ...], started: bool) -> None:
        """Save who sits where and whether the game started."""
        self._db.execute(
            "UPDATE tables SET seats = ?, started = ? WHERE id = ?",
            (_seats_json(seats), int(started), table_id),
        )

    def append_action(self, table_id: str, number: int, action: str) -> None:
        """Append the table's action ``number`` (from 0), committed on return."""
        self._db.execute(
            "INSERT INTO actions (table_id, number, action) VALUES (?, ?, ?)", (table_id, number, action)
        )

    def tables(self) -> Iterator[TableRecord]:
        """Every saved table with its actions, oldest first."""
        rows = self._db.execute(
            "SELECT id, spec, players, seed, seats, started, created FROM tables ORDER BY created, id"
        ).fetchall()
        for table_id, spec, players, seed, seats, started, created in rows:
            actions = tuple(
                a
                for (a,) in self._db.execute(
                    "SELECT action FROM actions WHERE table_id = ? ORDER BY number", (table_id,)
                )
            )
            yield TableRecord(
                id=table_id,
                spec=spec,
                players=players,
                seed=seed,
                seats=tuple(SeatRecord(**s) for s in json.loads(seats)),
                started=bool(started),
                created=created,
                actions=actions,
            )


def _seats_json(seats: tuple[SeatRecord, ...]) -> str:
    return json.dumps([attrs.asdict(s) for s in seats])


def now() -> float:
    """Seconds since the epoch (a table's creation time)."""
    return time.time()

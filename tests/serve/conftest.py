"""The server's tests need the ``serve`` extra; without it they are skipped with the way to get it.

The fixture ``postgres`` is a temporary PostgreSQL server (:mod:`postgres_server`) for the whole
session; ``store_db`` names a fresh store for one test, once an SQLite file and once a
PostgreSQL database. Without PostgreSQL (or psycopg) those tests are skipped saying how to get
it, unless ``UNORULES_REQUIRE_POSTGRES=1`` (set by ``.ci/run``): then they fail.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres_server import MISSING, TempPostgres, find_binaries

collect_ignore_glob: list[str] = []
if any(importlib.util.find_spec(m) is None for m in ("starlette", "uvicorn", "websockets")):
    # Skipped, not failed: the server is an optional extra. dev.py setup installs it.
    collect_ignore_glob = ["test_*.py"]


def _unavailable(reason: str) -> None:
    if os.environ.get("UNORULES_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"UNORULES_REQUIRE_POSTGRES=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    """A running temporary PostgreSQL server (:class:`postgres_server.TempPostgres`)."""
    if importlib.util.find_spec("psycopg") is None:
        _unavailable("psycopg is not installed: pip install 'unorules[postgres]'")
    if find_binaries() is None:
        _unavailable(MISSING)
    server = TempPostgres().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def store_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The ``--db`` of a new, empty store: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite")
    server: TempPostgres = request.getfixturevalue("postgres")
    url: str = server.new_database()
    return url

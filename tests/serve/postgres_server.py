"""A temporary PostgreSQL server for the tests and benchmarks: Debian's binaries, a cluster in a
temporary folder, listening on 127.0.0.1 only, stopped (and its folder removed) at the end.

``initdb`` refuses to run as root: as root the cluster belongs to the ``postgres`` system user
(Debian's package makes it; ``runuser -u postgres`` runs the binaries), otherwise to the user
running the tests. :func:`find_binaries` finds ``initdb`` and ``pg_ctl`` on the ``PATH`` or in
``/usr/lib/postgresql/VERSION/bin``; without them :data:`MISSING` says how to get them.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

MISSING = (
    "PostgreSQL's server binaries (initdb, pg_ctl) are not installed: apt-get install postgresql "
    "(Debian), and pip install 'unorules[postgres]' for psycopg"
)
USER = "unorules"


def find_binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``, or ``None``."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    return versions[-1].parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class TempPostgres:
    """A PostgreSQL cluster in a temporary folder on ``127.0.0.1:port`` (user :data:`USER`, no
    password: trust on loopback). ``durable=False`` turns ``fsync`` off (tests: every commit still
    reaches PostgreSQL before it answers, so a kill -9 of any process loses nothing; only a crash
    of the machine would)."""

    def __init__(self, *, durable: bool = False) -> None:
        binaries = find_binaries()
        if binaries is None:
            raise RuntimeError(MISSING)
        self.bin = binaries
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="unorules-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self._owner: str | None = None
        if os.geteuid() == 0:
            self._owner = "postgres"
            entry = pwd.getpwnam("postgres")
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._databases = 0

    def _run(self, *args: str | Path) -> None:
        command = [str(a) for a in args]
        if self._owner is not None:
            command = ["runuser", "-u", self._owner, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stdout}{done.stderr}")

    def start(self) -> TempPostgres:
        self._run(
            self.bin / "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C",
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.folder} "
            f"-c max_connections=200 -c fsync={'on' if self.durable else 'off'} "
            f"-c full_page_writes={'on' if self.durable else 'off'}"
        )
        self._run(
            self.bin / "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        import psycopg

        self._databases += 1
        name = f"t{self._databases}_{int(time.time() * 1000) % 10**8}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(self.bin / "pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

"""Several server processes on one PostgreSQL database: any of them serves any table.

Every process keeps the tables in memory as a single server does, and the
database decides: a table's actions are numbered, and the key (table,
number) lets only one process write action *k* (the other is told the table
moved on, :class:`~unorules.serve.store.Conflict`); seats change only if
nobody changed them meanwhile. Each write is committed with an announcement
on the channel :data:`~unorules.serve.store.CHANNEL` (``NOTIFY``, delivered
when the transaction commits and only then), which every other process
listens to on a connection of its own: it takes the change (an action comes
with its text, the next one is applied without reading the database; anything
else is read again) and tells its pages. ``LISTEN/NOTIFY`` is PostgreSQL's own: no other service to run or
keep up, the announcement cannot arrive before the commit, and on loopback it
arrives within a millisecond or two. Announcements are not kept for a process
that is not listening, so a process that (re)connects, and every few seconds
each process for the tables its pages watch, compares its tables with the
database and reads what it missed.

The bots, the autopilot and the turn timers of a table run on one process:
the one holding the table's lease (a row of ``leases``, renewed every
:data:`TICK` seconds, good for :data:`LEASE_SECONDS`). When the holder dies its
leases run out, and the next tick of another process takes them (within
``LEASE_SECONDS + TICK`` seconds), with the turn timer's time left and the
seats the autopilot plays, which the holder announces. Which pages are open
where is announced too (``presence``), with a heartbeat per process, so the
grace before the autopilot takes a seat counts the pages of every process, and
a process that stops beating (killed) no longer counts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import secrets
import socket
import threading
import time
from typing import TYPE_CHECKING, Any

from unorules.bots import make_bot
from unorules.serve.store import CHANNEL, PostgresStore

if TYPE_CHECKING:
    from unorules.serve.tables import Table, Tables

__all__ = ["LEASE_SECONDS", "PRESENCE_DELAY", "RESYNC_TICKS", "TICK", "Cluster"]

_log = logging.getLogger("unorules.serve")

TICK = 1.0
"""Seconds between a process's rounds: renewing and taking leases, its heartbeat."""

LEASE_SECONDS = 3.0
"""How long a lease is good for without being renewed: a dead holder's tables are taken over
within this plus :data:`TICK` seconds."""

RESYNC_TICKS = 5
"""Every this many ticks a process compares the tables its pages watch with the database (an
announcement missed while its listening connection was down is caught up then)."""

PRESENCE_DELAY = 0.05
"""Seconds within which a change of the pages open here is announced (changes at many tables
in that time are announced in one transaction)."""

_SILENT = 3.5 * TICK
"""A process not heard for this long (no heartbeat) is gone: its pages no longer count."""


class Cluster:
    """This process among the others that share ``store``: follows their announcements, holds
    leases, announces its own pages and timers. :meth:`start` from the running event loop,
    :meth:`stop` at the end."""

    def __init__(self, tables: Tables, store: PostgresStore) -> None:
        self.tables = tables
        self.store = store
        self.name = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process's name in the leases."""
        self.me = store.backend
        self._held: set[str] = set()
        self._heard: dict[int, float] = {}
        self._presence: dict[str, tuple[frozenset[int], int]] = {}
        self._timers: dict[str, str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = threading.Event()
        self._listener: threading.Thread | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._ticks = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed: dict[str, Table] = {}
        self._flush: asyncio.TimerHandle | None = None
        tables.cluster = self

    # -- life -------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen, announce this process, take the leases of the tables nobody runs."""
        self._loop = asyncio.get_running_loop()
        listening = threading.Event()
        self._listener = threading.Thread(
            target=self._listen, args=(listening,), name="unorules-listen", daemon=True
        )
        self._listener.start()
        await asyncio.to_thread(listening.wait, 15)
        self._publish("hello")
        for table in self.tables.tables():  # the pages of a process that was restarted come back
            if table.clients:
                self.present(table)
        await self._tick()
        self._ticker = asyncio.ensure_future(self._tick_forever())

    async def stop(self) -> None:
        """Give up this process's leases (another takes them at its next tick) and stop."""
        if self._ticker is not None:
            self._ticker.cancel()
        if self._flush is not None:
            self._flush.cancel()
        self._stopping.set()
        with contextlib.suppress(Exception):
            self._publish("bye")
            await self.store.call(self.store.release_leases, self.name)
        if self._listener is not None:
            await asyncio.to_thread(self._listener.join, 5)

    def holds(self, table_id: str) -> bool:
        """Whether this process runs the bots and timers of ``table_id``."""
        return table_id in self._held

    def claim(self, table_id: str) -> None:
        """Take the lease of a table just started here (unless another process holds it)."""
        if table_id in self.store.take_leases(self.name, [table_id], LEASE_SECONDS):
            self._held.add(table_id)

    # -- what this process announces --------------------------------------------------

    def _publish(self, payload: str) -> None:
        self.store.publish(payload).add_done_callback(_logged)

    def present(self, table: Table) -> None:
        """Announce the pages open here at ``table``, if they changed: within
        :data:`PRESENCE_DELAY`, together with the other tables' changes (one commit for many
        pages connecting at once)."""
        self._changed[table.id] = table
        if self._flush is None and self._loop is not None:
            self._flush = self._loop.call_later(PRESENCE_DELAY, self._present_now)

    def _present_now(self) -> None:
        self._flush = None
        payloads = []
        for table in self._changed.values():
            seats, spectators = table.local_presence()
            if self._presence.get(table.id, (frozenset(), 0)) == (seats, spectators):
                continue
            self._presence[table.id] = (seats, spectators)
            if not seats and not spectators:
                self._presence.pop(table.id)
            payloads.append(f"presence {table.id} {','.join(map(str, sorted(seats)))} {spectators}")
        self._changed.clear()
        if payloads:
            self.store.publish(*payloads).add_done_callback(self._presented)

    def _presented(self, done: concurrent.futures.Future[None]) -> None:
        """(In the database thread.) If announcing the pages failed (the database is away),
        they are announced again when it is back."""
        if done.exception() is not None:
            _log.error("announcing this process's pages failed: %s", done.exception())
            if self._loop is not None:
                self._call(self._presence.clear)

    def tell_timers(self, table: Table) -> None:
        """Announce the seats the autopilot plays at ``table`` and its turn timer, if they changed
        (the processes that show the table, and the one that takes it over, know them)."""
        left = None
        if table.turn_deadline is not None:
            left = round(time.time() + max(0.0, table.turn_deadline - time.monotonic()), 2)
        text = json.dumps([sorted(table.autopilot), table.turn_seat, left], separators=(",", ":"))
        if self._timers.get(table.id) != text:
            self._timers[table.id] = text
            self._publish(f"timers {table.id} {text}")

    def ask_take_back(self, table_id: str, seat: int, version: int) -> None:
        """Ask the process running the table's bots to take back ``seat``'s last action (at
        ``version``), serialised with its bots' moves."""
        self._publish(f"takeback {table_id} {seat} {version}")

    def ask_back(self, table_id: str, seat: int) -> None:
        """Ask the process running the table's autopilot to give ``seat`` back to its player."""
        self._publish(f"back {table_id} {seat}")

    # -- listening --------------------------------------------------------------------

    def _listen(self, listening: threading.Event) -> None:
        """The listening connection's thread: hands every announcement to the event loop;
        reconnects (and has everything read again) when the connection breaks."""
        import psycopg

        pause = 0.2
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.store.url, autocommit=True, connect_timeout=10) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    if listening.is_set():  # a reconnection: what was announced meanwhile is lost
                        self._call(self._resync, True)
                    listening.set()
                    pause = 0.2
                    while not self._stopping.is_set():
                        for note in connection.notifies(timeout=0.5):
                            self._call(self._hear, note.pid, note.payload)
            except Exception as exc:  # the database went away: try again, ever more slowly
                if self._stopping.is_set():
                    return
                _log.warning("listening to the other processes failed (%s); trying again", exc)
                listening.set()
                time.sleep(pause)
                pause = min(5.0, pause * 2)

    def _call(self, function: Any, *args: Any) -> None:
        assert self._loop is not None
        with contextlib.suppress(RuntimeError):  # the loop closed: the process is stopping
            self._loop.call_soon_threadsafe(function, *args)

    def _hear(self, pid: int, payload: str) -> None:
        try:
            self._handle(pid, payload)
        except Exception:  # one announcement's failure must not stop the others
            _log.exception("an announcement of another process failed: %r", payload[:200])

    def _handle(self, pid: int, payload: str) -> None:
        if pid == self.me:
            return
        kind, _, rest = payload.partition(" ")
        self._heard[pid] = time.monotonic()
        if kind == "hello":  # a new process: tell it which pages are open here
            self._presence.clear()
            for table in self.tables.tables():
                if table.clients:
                    self.present(table)
            return
        if kind == "bye":
            self._gone(pid)
            return
        if kind in ("beat", ""):
            return
        table_id, _, detail = rest.partition(" ")
        if kind == "new":
            self.tables.adopt(table_id)
            return
        if kind == "gone":
            self.tables.forget(table_id)
            return
        found = self.tables.loaded(table_id)
        if found is None:
            return
        table = found
        if kind == "action":
            if table.clients or self.holds(table_id):  # the others read it when a page arrives
                number, _, text = detail.partition(" ")
                self.tables.follow(table, int(number), text)
        elif kind == "seats":
            self.tables.reload(table)
        elif kind == "presence":
            seats_text, _, spectators = detail.partition(" ")
            before = table.online()
            seats = frozenset(int(s) for s in seats_text.split(",") if s)
            if seats or int(spectators or 0):
                table.remote[pid] = (seats, int(spectators or 0))
            else:
                table.remote.pop(pid, None)
            self.tables.presence_changed(table, before)
        elif kind == "timers":
            self._mirror(table, detail)
        elif kind == "undo":
            self.tables.rewind(table, int(detail))
        elif kind == "back" and self.holds(table_id):
            self._later(self.tables.back(table, int(detail)))
        elif kind == "takeback" and self.holds(table_id):
            seat, _, version = detail.partition(" ")
            self._later(self.tables.take_back(table, int(seat), int(version)))

    def _later(self, request: Any) -> None:
        """Carry out a request another process forwarded (refused quietly if the table moved on:
        that process's page is sent the table as it is)."""

        async def run() -> None:
            with contextlib.suppress(Exception):
                await request

        task = asyncio.ensure_future(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _mirror(self, table: Table, detail: str) -> None:
        """Keep the timers another process announced (shown by this one's pages, and carried on
        should this process take the table over)."""
        if self.holds(table.id):
            return
        autopilot, seat, deadline = json.loads(detail)
        for other in list(table.autopilot):
            if other not in autopilot:
                table.autopilot.pop(other)
        for other in autopilot:
            if other not in table.autopilot:
                table.autopilot[other] = make_bot("heuristic", seed=f"{table.seed}:{other}:autopilot")
        table.turn_seat = seat
        table.turn_deadline = None if deadline is None else time.monotonic() + (deadline - time.time())
        self.tables.broadcast(table)

    def _gone(self, pid: int) -> None:
        """Process ``pid`` stopped (said bye, or fell silent): its pages no longer count."""
        self._heard.pop(pid, None)
        for table in list(self.tables.tables()):
            if pid in table.remote:
                before = table.online()
                table.remote.pop(pid)
                self.tables.presence_changed(table, before)

    # -- every tick -------------------------------------------------------------------

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK * (0.9 + 0.2 * secrets.randbelow(1000) / 1000))
            try:
                await self._tick()
            except Exception:  # the database is away: the next tick tries again
                _log.exception("renewing this process's leases failed")

    async def _tick(self) -> None:
        """Beat, renew and take leases, and every :data:`RESYNC_TICKS` compare the tables with
        the database: the queries in the store's database thread, the event loop serving the
        pages meanwhile."""
        self._ticks += 1
        self._publish("beat")
        moment = time.monotonic()
        for pid, heard in list(self._heard.items()):
            if moment - heard > _SILENT:
                self._gone(pid)
        running = [t.id for t in self.tables.tables() if t.started and not t.state.is_over]
        before = set(self._held)
        held = (
            await self.store.call(self.store.take_leases, self.name, running, LEASE_SECONDS)
            if running
            else set()
        )
        held |= self._held - before  # claimed meanwhile (games started while the query ran)
        gained, lost = held - self._held, self._held - held
        self._held = held
        for table_id in lost:
            table = self.tables.loaded(table_id)
            if table is not None:
                self.tables.unlead(table)
        for table_id in gained:
            table = self.tables.loaded(table_id)
            if table is not None:
                _log.info("table %s: this process runs its bots and timers now", table_id)
                self.tables.lead(table)
        if self._ticks % RESYNC_TICKS == 0:
            tables = self._watched(False)
            self._caught_up(tables, await self.store.call(self.store.versions, [t.id for t in tables]))

    def _watched(self, everything: bool) -> list[Table]:
        return [t for t in self.tables.tables() if everything or t.clients or self.holds(t.id)]

    def _resync(self, everything: bool) -> None:
        """Read what the other processes committed at the tables whose pages are here (every
        table, and tables made or removed meanwhile, with ``everything``)."""
        tables = self._watched(everything)
        self._caught_up(tables, self.store.versions([t.id for t in tables]))
        if everything:
            self.tables.load()

    def _caught_up(self, tables: list[Table], versions: dict[str, int]) -> None:
        """Take the actions other processes committed at ``tables`` (``versions``: how many
        each has in the database) that this process has not."""
        for table in tables:
            if versions.get(table.id, 0) > table.version:
                self.tables.follow(table)


def _logged(done: concurrent.futures.Future[None]) -> None:
    """(In the database thread.) Log an announcement that could not be made."""
    if not done.cancelled() and done.exception() is not None:
        _log.warning("an announcement failed: %s", done.exception())

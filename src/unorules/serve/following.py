"""How a process's tables meet their store: an action's commit, and what the other processes
of a cluster committed (:class:`Following`, a part of :class:`~unorules.serve.tables.Tables`).

An action is applied by the library, then committed (:meth:`TableStore.commit_action
<unorules.serve.store.TableStore.commit_action>`), and kept, and its pages told, only once
the commit is done. The table's lock is held meanwhile, so a table's actions are committed
and kept one after the other; the event loop is not held: with PostgreSQL the commit is made
by the store's database thread while the loop serves the other tables. What another process
announces at a table while an action of this one is being committed there is taken after
it (:meth:`Following._settled`), so the actions are kept in the database's order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from unorules.actions import Action
from unorules.errors import IllegalActionError, NotationError
from unorules.serve.errors import ServeError
from unorules.serve.store import Conflict, TableRecord, TableStore, now
from unorules.serve.table import game_record
from unorules.state import GameState

if TYPE_CHECKING:
    import concurrent.futures

    from unorules.serve.cluster import Cluster
    from unorules.serve.table import Table

__all__ = ["Following"]

_log = logging.getLogger("unorules.serve")


class Following:
    """The part of :class:`~unorules.serve.tables.Tables` that commits actions and follows the
    other processes of a cluster (their announcements arrive through
    :class:`~unorules.serve.cluster.Cluster`)."""

    store: TableStore
    cluster: Cluster | None
    _tables: dict[str, Table]
    _dormant: dict[str, float]

    if TYPE_CHECKING:  # given by Tables

        def _after_change(self, table: Table, actor: int | None) -> None: ...
        def _arm_away(self, table: Table) -> None: ...
        def _close_bots(self, table: Table) -> list[concurrent.futures.Future[Any]]: ...
        def _give_back(self, table: Table, seat: int) -> None: ...
        def _leads(self, table: Table) -> bool: ...
        def _make_bots(self, table: Table, *, show: bool = True) -> None: ...
        def _remove(self, table: Table, reason: str, *, delete: bool = True) -> None: ...
        def _running(self, table: Table) -> bool: ...
        def _show_bots(self, table: Table) -> None: ...
        def _turn_over(self, table: Table, seat: int) -> None: ...
        def _wake(self, record: TableRecord) -> Table | None: ...
        def broadcast(self, table: Table) -> None: ...

    # -- an action's commit ------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _holding(self, table: Table) -> AsyncIterator[None]:
        """The table's lock, taken once no action of this process is being committed there (one
        whose caller was cancelled may still be): what is done with it sees the table as it is."""
        async with table.lock:
            while table.committing is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(table.committing)
            yield

    async def _commit(self, table: Table, action: Action) -> None:
        """Apply ``action`` (validated by the library), save it, then keep the new state.

        Called with the table's lock held, which stays held while the store commits: the
        table's actions are saved and kept one after the other. The new state is kept as soon
        as the commit is done, also if the caller was cancelled meanwhile (a bot's move whose
        task a page's arrival restarted); another process's actions announced meanwhile are
        taken after it (:meth:`_settled`)."""
        new = table.state.apply(action)  # IllegalActionError: nothing changed
        moment, version = now(), table.version
        saved = self.store.commit_action(table.id, version, str(action), moment, over=new.is_over)
        table.committing = saved
        if saved.done():  # committed at once (SQLite)
            self._keep(table, action, new, moment, saved)
        else:
            saved.add_done_callback(lambda done: self._keep(table, action, new, moment, done))
        try:
            await asyncio.shield(saved)
        except asyncio.CancelledError:  # the caller is gone: the table's pages are told all the same
            saved.add_done_callback(lambda done: self._told(table, action.seat, done))
            raise
        except Conflict:  # another process took this action's number first
            raise ServeError(
                f"the table has moved on (you acted on state {version}, it is at {table.version}): "
                "look again and act on what you see",
                "stale",
            ) from None

    def _told(self, table: Table, actor: int, saved: asyncio.Future[None]) -> None:
        if not saved.cancelled() and saved.exception() is None:
            self._after_change(table, actor)

    def _keep(
        self, table: Table, action: Action, new: GameState, moment: float, saved: asyncio.Future[None]
    ) -> None:
        """The commit of ``action`` is done: keep ``new``, its state (or, if another process
        took the action's number first, take what it did)."""
        table.committing = None
        if saved.cancelled():
            return
        exc = saved.exception()
        if isinstance(exc, Conflict):
            self._catch_up(table)
            asyncio.get_running_loop().call_soon(self._after_change, table, None)
        if exc is not None:
            return
        table.state = new
        table.actions.append(action)
        table.touched = moment
        self._show_bots(table)
        if new.is_over:
            self._close_bots(table)  # the bot programs of a finished game stop at once

    # -- the other processes of a cluster (unorules.serve.cluster) ------------------------

    def follow(self, table: Table, number: int | None = None, text: str = "") -> None:
        """Take the actions other processes committed at ``table`` since this one last looked
        (``number`` and ``text``: the one just announced, if it is the next), and tell its pages."""
        if not self._settled(table, self.follow, table, number, text):
            return
        if self._catch_up(table, [text] if number == table.version and text else None):
            self._after_change(table, None)

    def _catch_up(self, table: Table, texts: list[str] | None = None) -> int:
        """Apply the table's actions committed by other processes (``texts``: the next ones,
        else read from the store), each checked by the rules again; how many. An action of a
        seat the autopilot played gives the seat back."""
        if texts is None:
            texts = self.store.actions_from(table.id, table.version)
        for text in texts:
            try:
                action = Action.parse(text)
                table.state = table.state.apply(action)
            except (NotationError, IllegalActionError):  # pragma: no cover - another version's rules
                _log.exception(
                    "table %s: action %d of another process does not apply", table.id, table.version
                )
                self._remove(table, "its record no longer replays here", delete=False)
                return 0
            table.actions.append(action)
            table.touched = now()
            if table.seats[action.seat].kind == "human":
                table.autopilot.pop(action.seat, None)
        if texts:
            self._show_bots(table)
            if table.state.is_over:
                self._close_bots(table)
        return len(texts)

    def _settled(self, table: Table, function: Callable[..., None], *args: Any) -> bool:
        """Whether nothing of this process is being committed at ``table``; else
        ``function(*args)`` is called once it is (after the action is kept), and ``False``."""
        if table.committing is None:
            return True
        table.committing.add_done_callback(lambda _: function(*args))
        return False

    def rewind(self, table: Table, count: int) -> None:
        """Another process took actions back: keep the table's first ``count`` actions."""
        if not self._settled(table, self.rewind, table, count):
            return
        if count >= table.version:
            return
        del table.actions[count:]
        table.state = game_record(
            table.id, table.spec, table.players, table.seed, table.seats, table.created, table.actions
        ).replay()
        table.touched = now()
        self._show_bots(table)
        self._after_change(table, None)

    def reload(self, table: Table) -> None:
        """Read the table's row again (seats, start, rematch, when it was touched) and its
        new actions: another process changed it."""
        if not self._settled(table, self.reload, table):
            return
        record = self.store.table(table.id)
        if record is None:
            self.forget(table.id)
            return
        started = not table.started and record.started
        table.seats, table.started, table.rematch = list(record.seats), record.started, record.rematch
        table.touched = max(table.touched, record.touched)
        if started:
            self._make_bots(table)
            self._arm_away(table)
        if not self._catch_up(table) and not started:
            self.broadcast(table)
            return
        self._after_change(table, None)

    def adopt(self, table_id: str) -> None:
        """Serve a table another process created."""
        if table_id not in self._tables:
            record = self.store.table(table_id)
            if record is not None:
                self._wake(record)

    def forget(self, table_id: str) -> None:
        """Another process deleted the table (it expired): stop serving it, tell its pages."""
        self._dormant.pop(table_id, None)
        table = self._tables.get(table_id)
        if table is not None:
            self._remove(table, "it expired", delete=False)

    def lead(self, table: Table) -> None:
        """This process now holds the table's lease: catch up, then run its bots and timers (a
        turn timer that another process ran goes on with the time it had left)."""
        if not self._settled(table, self.lead, table):
            return
        self._catch_up(table)
        if self._running(table) and table.turn_deadline is not None and table.turn_seat is not None:
            seat, left = table.turn_seat, max(0.0, table.turn_deadline - time.monotonic())
            if seat == table.state.current_player and seat not in table.autopilot:
                loop = asyncio.get_running_loop()
                table.turn_timer = loop.call_later(left, self._turn_over, table, seat)
        self._arm_away(table)
        self._after_change(table, None)

    def unlead(self, table: Table) -> None:
        """Another process took the table's lease: stop running its bots and timers here."""
        if table.turn_timer is not None:
            table.turn_timer.cancel()
            table.turn_timer = None
        for timer in table.away.values():
            timer.cancel()
        table.away.clear()
        if table.bot_task is not None:
            table.bot_task.cancel()

    def presence_changed(self, table: Table, before: set[int]) -> None:
        """The pages open on other processes changed (``before``: the seats online until now):
        a seat whose page came back is its player's again, one whose pages all closed gets its
        grace; the pages here are told."""
        online = table.online()
        if self._leads(table):
            for seat in online - before:
                timer = table.away.pop(seat, None)
                if timer is not None:
                    timer.cancel()
                if seat in table.autopilot:
                    self._give_back(table, seat)
            if before - online:
                self._arm_away(table)
            self._after_change(table, None)
        else:
            self.broadcast(table)

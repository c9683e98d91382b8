"""The bot of one seat as a server drives it: never on the event loop when it may block.

A bot that holds a process (a bot program, :class:`unorules.protocol.CommandBot`,
or any bot with a ``close`` method) may take seconds to start, to answer or to
stop. Such a bot gets a worker thread of its own, and everything it is asked
(views shown, choices, its close) runs there in order, so that no table waits
on another's bot: the server's event loop only hands work on. The worker is
made when the bot is first used (a program starts when its table next needs
it) and ends after the bot is closed. A built-in bot (in-process, no
``close``) is shown views at once and chooses in a worker thread, as before.

A failure while a program was shown a view (it exited, wrote nonsense, stopped
reading) is kept and raised by the next :meth:`SeatBot.choose`, so the table
replaces the bot then.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

from unorules.actions import Action
from unorules.bots import Bot, BotError
from unorules.state import SeatView

__all__ = ["SeatBot"]


class SeatBot:
    """``bot``, the bot of seat ``seat`` at table ``table`` (for the names of its worker and logs)."""

    def __init__(self, bot: Bot, table: str = "", seat: int = 0) -> None:
        self.bot = bot
        self.holds_process = callable(getattr(bot, "close", None))
        """Whether the bot holds something to stop (a process): then it runs in its own worker."""
        self._label = f"bot {table}:{seat}"
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._failure: BotError | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"SeatBot({self.bot!r})"

    def _submit(self, call: Any, *args: Any) -> concurrent.futures.Future[Any]:
        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=self._label)
        return self._worker.submit(call, *args)

    def observe(self, view: SeatView) -> None:
        """Show the bot ``view`` (a program: queued for its worker, returns at once)."""
        observe = getattr(self.bot, "observe", None)
        if observe is None or self._closed:
            return
        if self.holds_process:
            if self._failure is None:
                self._submit(self._observe, view)
        else:
            observe(view)

    def _observe(self, view: SeatView) -> None:
        if self._failure is not None:
            return
        try:
            self.bot.observe(view)  # type: ignore[attr-defined]
        except BotError as exc:
            self._failure = exc

    def _choose(self, view: SeatView) -> Action | None:
        if self._failure is not None:
            raise self._failure
        return self.bot.choose(view)

    async def choose(self, view: SeatView) -> Action | None:
        """The bot's choice in ``view``, thought in a worker thread; :class:`BotError` if the bot
        failed now or while it was shown an earlier view."""
        if self._closed:
            raise BotError(f"{self._label} was stopped")
        if self.holds_process:
            return await asyncio.wrap_future(self._submit(self._choose, view))
        return await asyncio.to_thread(self._choose, view)

    def close(self) -> concurrent.futures.Future[Any] | None:
        """Stop the bot in its worker (returns at once; the future is done once it stopped)."""
        if self._closed:
            return None
        self._closed = True
        if not self.holds_process:
            return None
        if self._worker is None and not getattr(self.bot, "running", True):
            return None  # never used: its program never started
        done = self._submit(self.bot.close)  # type: ignore[attr-defined]
        assert self._worker is not None
        self._worker.shutdown(wait=False)  # its thread ends once the close has run
        return done

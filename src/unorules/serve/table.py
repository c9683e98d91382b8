"""A table in memory and its pages: :class:`Table` (its record, state, pages, bots and timers),
:class:`Client` (one connected page, written to in order), :func:`game_record` (a table's game
as a :class:`~unorules.record.GameRecord`) and :func:`hash_token`. What happens at a table is
:class:`~unorules.serve.tables.Tables`'."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import hmac
import json
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import attrs

from unorules.actions import Action
from unorules.bots import Bot
from unorules.record import GameRecord
from unorules.serve import compat
from unorules.serve.describe import ruleset_data, ruleset_title
from unorules.serve.render import feed_sentences, looks_data, view_data
from unorules.serve.seatbots import SeatBot
from unorules.serve.store import SeatRecord
from unorules.state import GameState, Outcome

__all__ = ["FEED_KEPT", "Client", "Close", "Send", "Table", "game_record", "hash_token"]

FEED_KEPT = 200
"""The most sentences of what happened so far a late page is sent (the page keeps as many)."""


def hash_token(token: str) -> str:
    """The SHA-256 (hex) of a seat token: only hashes are stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


Send = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]


async def _no_close(code: int, reason: str) -> None:
    return None


class Client:
    """One connected page: its table, its seat (``None`` for a spectator), its address, and a
    queue of messages written to it in order by one writer task (``send`` writes one, ``close``
    ends the connection with a code and a reason)."""

    QUEUE_LIMIT = 256

    def __init__(
        self, table: Table, seat: int | None, send: Send, address: str = "", close: Close = _no_close
    ) -> None:
        self.table = table
        self.seat = seat
        self.address = address
        self._send = send
        self._close = close
        self._queue: asyncio.Queue[str | tuple[int, str] | None] = asyncio.Queue(self.QUEUE_LIMIT)
        self._writer = asyncio.ensure_future(self._write())

    def push(self, message: Mapping[str, Any]) -> None:
        """Queue ``message`` for this client (dropped if the client is hopelessly behind)."""
        self.push_text(json.dumps(message, separators=(",", ":")))

    def push_text(self, text: str) -> None:
        """Queue the JSON text of a message for this client."""
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(text)

    def end(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` and ``reason`` once what is queued has been sent."""
        try:
            self._queue.put_nowait((code, reason[:120]))
        except asyncio.QueueFull:  # hopelessly behind: close now
            self._writer.cancel()
            self._writer = asyncio.ensure_future(self._close(code, reason[:120]))

    async def _write(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            try:
                if isinstance(item, tuple):
                    await self._close(*item)
                    return
                await self._send(item)
            except Exception:  # the socket went away; the reader side closes us
                return

    async def close(self) -> None:
        """Stop writing (after what is queued has been sent)."""
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer, 1.0)
        self._writer.cancel()


@attrs.define(eq=False)
class Table:
    """A table in memory: its record, the current state, connected clients, bots, timers.

    ``touched`` is when something last happened there (seconds since the
    epoch: an action, a join, the start, the last person's page closing);
    ``autopilot`` the seats the autopilot plays now, with its bot; ``away``
    the seats whose pages all closed, with the timer that hands them to the
    autopilot; ``turn_seat``/``turn_deadline`` the seat the turn timer runs
    for and when it runs out (``time.monotonic``)."""

    id: str
    spec: str
    players: int
    seed: int
    seats: list[SeatRecord]
    started: bool
    created: float
    state: GameState
    actions: list[Action] = attrs.Factory(list)
    clients: set[Client] = attrs.Factory(set)
    bots: dict[int, SeatBot] = attrs.Factory(dict)
    lock: asyncio.Lock = attrs.Factory(asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    turn_seconds: int = 0
    invite: str = ""
    touched: float = 0.0
    rematch: str | None = None
    autopilot: dict[int, Bot] = attrs.Factory(dict)
    away: dict[int, asyncio.TimerHandle] = attrs.Factory(dict)
    turn_seat: int | None = None
    turn_deadline: float | None = None
    turn_timer: asyncio.TimerHandle | None = None
    remote: dict[int, tuple[frozenset[int], int]] = attrs.Factory(dict)
    """The pages open on the other processes of a cluster, by process: their seats and how
    many spectators (:mod:`unorules.serve.cluster`)."""
    committing: asyncio.Future[None] | None = None
    """The commit of this process's action at the table while it is being written (what other
    processes did there is taken after it)."""

    @property
    def version(self) -> int:
        """The number of actions taken: a client acts on the version it saw."""
        return len(self.actions)

    def names(self) -> list[str]:
        """Every seat's name (``"open seat"`` for a seat nobody took yet)."""
        return [s.name or "open seat" for s in self.seats]

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` belongs to, or ``None``."""
        digest = hash_token(token)
        found = None
        for seat, record in enumerate(self.seats):
            # compare_digest on every seat: the time taken does not tell which one matched
            if record.token_hash and hmac.compare_digest(record.token_hash, digest):
                found = seat
        return found

    def online(self) -> set[int]:
        """The seats with a page open (on any process of a cluster)."""
        seats = {c.seat for c in self.clients if c.seat is not None}
        for remote, _ in self.remote.values():
            seats |= remote
        return seats

    def local_presence(self) -> tuple[frozenset[int], int]:
        """The seats with a page open on this process, and its spectators."""
        seats = frozenset(c.seat for c in self.clients if c.seat is not None)
        return seats, sum(1 for c in self.clients if c.seat is None)

    def meta(self) -> dict[str, Any]:
        """What everyone may know of the table itself."""
        online = self.online()
        outcome = self.state.outcome
        left = None
        if self.turn_deadline is not None:
            left = round(max(0.0, self.turn_deadline - time.monotonic()), 1)
        return {
            "id": self.id,
            "rules": self.spec,
            "title": ruleset_title(self.spec),
            "players": self.players,
            "names": self.names(),
            "kinds": [s.kind for s in self.seats],
            "bots": [s.bot for s in self.seats],
            "online": [s.kind == "bot" or seat in online for seat, s in enumerate(self.seats)],
            "autopilot": [seat in self.autopilot for seat in range(len(self.seats))],
            "spectators": sum(1 for c in self.clients if c.seat is None)
            + sum(count for _, count in self.remote.values()),
            "started": self.started,
            "version": self.version,
            "winners": [] if outcome is None else list(outcome.winners),
            "outcome_reason": None if outcome is None else outcome.reason,
            "turn_seconds": self.turn_seconds,
            "turn_seat": None if left is None else self.turn_seat,
            "time_left": left,
            "rematch": self.rematch,
            "take_backs": self.take_backs(),
        }

    def take_backs(self) -> bool:
        """Whether its one person may take actions back (:meth:`Tables.take_back`): a table of
        one person and the library's own bots (no bot program, which keeps its own memory)."""
        people = sum(1 for s in self.seats if s.kind != "bot")
        return people == 1 and not any(bot.holds_process for bot in self.bots.values())

    def record(self) -> GameRecord:
        """The game so far as a :class:`~unorules.record.GameRecord` (its ``Result`` is
        ``"*"`` until the game is over); ``record().dumps()`` is what ``unorules replay`` reads."""
        return game_record(
            self.id,
            self.spec,
            self.players,
            self.seed,
            self.seats,
            self.created,
            self.actions,
            self.state.outcome,
        )

    def message(self, seat: int | None, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state message for a client of ``seat`` (``None``: a spectator); ``meta`` is
        :meth:`meta` if already computed."""
        view = compat.public_view(self.state) if seat is None else compat.seat_view(self.state, seat)
        return {
            "type": "state",
            "you": seat,
            "table": self.meta() if meta is None else meta,
            "view": view_data(view, self.names(), seat),
        }

    def message_text(self, seat: int | None, meta_text: str) -> str:
        """The JSON text of :meth:`message` (the same bytes ``json.dumps`` with compact separators
        writes), with ``meta_text`` the table's data already encoded: a broadcast encodes it once
        for every seat."""
        view = compat.public_view(self.state) if seat is None else compat.seat_view(self.state, seat)
        data = json.dumps(view_data(view, self.names(), seat), separators=(",", ":"))
        return (
            f'{{"type":"state","you":{"null" if seat is None else seat},"table":{meta_text},"view":{data}}}'
        )

    def welcome(self, seat: int | None) -> dict[str, Any]:
        """The message a page is sent once when it connects: its seat, the rule set in words
        and, for a seated player, the invitation code that takes an open seat (spectators are
        not given it: their link is the table's own), how each kind of card looks
        (:func:`~unorules.serve.render.looks_data`) and what happened so far (:meth:`feed_so_far`)."""
        return {
            "type": "welcome",
            "you": seat,
            "ruleset": ruleset_data(self.spec),
            "invite": self.invite if seat is not None else None,
            "looks": looks_data(self.state.ruleset),
            "feed": self.feed_so_far(seat),
        }

    def feed_so_far(self, seat: int | None) -> dict[str, Any] | None:
        """What happened before the current state, for a page that comes late (a spectator, a
        reload): ``{"version": N, "lines": [...]}``, the feed's sentences of every state before
        version ``N`` (the current one, whose own sentences the state message brings), oldest
        first, the last :data:`FEED_KEPT` of them, as ``seat`` saw them; ``None`` before the start."""
        if not self.started or not self.actions:
            return None
        states = list(self.record().states())[:-1]
        names = self.names()
        lines: list[str] = []
        for state in reversed(states):
            view = compat.public_view(state) if seat is None else compat.seat_view(state, seat)
            lines[:0] = feed_sentences(view, names, seat)
            if len(lines) >= FEED_KEPT:
                break
        return {"version": self.version, "lines": lines[-FEED_KEPT:]}


def game_record(
    table_id: str,
    spec: str,
    players: int,
    seed: int,
    seats: Sequence[SeatRecord],
    created: float,
    actions: Sequence[Action | str],
    outcome: Outcome | None = None,
) -> GameRecord:
    """A table's game as a :class:`~unorules.record.GameRecord`: its rule set's spec
    text, players, seed and actions, the result and termination of ``outcome``
    (``"*"`` without one), and the headers ``Table``, ``Date`` (of its creation, UTC)
    and one ``SeatN`` per seat with the player's name (never a token or its hash).

    No ``Dealer`` header: the first dealer was drawn with the seed (``choose_dealer``),
    and naming it would deal a different game."""
    date = datetime.datetime.fromtimestamp(created, datetime.UTC).strftime("%Y-%m-%d")
    headers: list[tuple[str, str | int]] = [("Table", table_id), ("Date", date)]
    headers += [(f"Seat{seat}", record.name or "open seat") for seat, record in enumerate(seats)]
    return GameRecord(
        ruleset=spec,
        players=players,
        actions=tuple(a if isinstance(a, Action) else Action.parse(a) for a in actions),
        seed=seed,
        result="*" if outcome is None else ",".join(map(str, outcome.winners)),
        termination=None if outcome is None else outcome.reason,
        headers=tuple(headers),
    )

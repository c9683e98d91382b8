"""Tables: their life (create, join, start, play), seats and tokens, bots, clients.

The server decides everything. A client's message is at most a request to
take an action; :meth:`Tables.act` checks that the client's token holds the
seat the action is for, that the client saw the latest state (``version``,
which also refuses replayed messages), and lets the library validate the
action. All of it happens under the table's lock, so when several seats race
to act out of turn the first legal action to arrive wins and the others are
told the table moved on. Every accepted action is committed to the
:class:`~unorules.serve.store.Store` before anyone hears of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import hmac
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import attrs

from unorules.actions import Action
from unorules.bots import BOTS, Bot, make_bot
from unorules.errors import IllegalActionError, NotationError, RulesetError, UnorulesError
from unorules.record import GameRecord, RecordError
from unorules.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset, installed_plugins
from unorules.serve import compat
from unorules.serve.render import view_data
from unorules.serve.store import SeatRecord, Store, TableRecord, now
from unorules.state import GameState, Outcome

__all__ = ["Client", "ServeError", "Table", "Tables", "game_record"]

_log = logging.getLogger("unorules.serve")

NAME_LIMIT = 24
"""The longest player name, in characters."""

_NAME = re.compile(r"^[^\x00-\x1f\x7f<>&]{1,24}$")
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{6,32}$")


class ServeError(UnorulesError):
    """A request the server refuses; ``code`` names the kind for clients
    (``bad-request``, ``unknown-table``, ``bad-token``, ``not-your-seat``,
    ``stale``, ``illegal``, ``not-started``, ``not-over``, ``too-many``, ``full``)."""

    def __init__(self, message: str, code: str = "bad-request") -> None:
        super().__init__(message)
        self.code = code


def hash_token(token: str) -> str:
    """The SHA-256 (hex) of a seat token: only hashes are stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


Send = Callable[[str], Awaitable[None]]


class Client:
    """One connected page: its table, its seat (``None`` for a spectator) and
    a queue of messages written to it in order by one writer task."""

    QUEUE_LIMIT = 256

    def __init__(self, table: Table, seat: int | None, send: Send) -> None:
        self.table = table
        self.seat = seat
        self._send = send
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(self.QUEUE_LIMIT)
        self._writer = asyncio.ensure_future(self._write())

    def push(self, message: Mapping[str, Any]) -> None:
        """Queue ``message`` for this client (dropped if the client is hopelessly behind)."""
        self.push_text(json.dumps(message, separators=(",", ":")))

    def push_text(self, text: str) -> None:
        """Queue the JSON text of a message for this client."""
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(text)

    async def _write(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            try:
                await self._send(text)
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
    """A table in memory: its record, the current state, connected clients, bots."""

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
    bots: dict[int, Bot] = attrs.Factory(dict)
    lock: asyncio.Lock = attrs.Factory(asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None

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

    def meta(self) -> dict[str, Any]:
        """What everyone may know of the table itself."""
        online = {c.seat for c in self.clients}
        outcome = self.state.outcome
        return {
            "id": self.id,
            "rules": self.spec,
            "players": self.players,
            "names": self.names(),
            "kinds": [s.kind for s in self.seats],
            "bots": [s.bot for s in self.seats],
            "online": [s.kind == "bot" or seat in online for seat, s in enumerate(self.seats)],
            "started": self.started,
            "version": self.version,
            "winners": [] if outcome is None else list(outcome.winners),
            "outcome_reason": None if outcome is None else outcome.reason,
        }

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


class Tables:
    """Every table of a server, backed by ``store``.

    ``bot_delay`` seconds pass before a bot acts, so that people see each
    move and get their chance at out-of-turn actions; ``max_tables`` bounds
    memory.
    """

    def __init__(self, store: Store, *, bot_delay: float = 0.6, max_tables: int = 5000) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self._tables: dict[str, Table] = {}

    # -- life of a table -----------------------------------------------------

    def load(self) -> int:
        """Rebuild every saved table by replaying its game record; returns how many.

        Call from the running event loop; bots of started games resume. A table whose
        record no longer replays (a plugin uninstalled or changed since) is logged and
        left out, in the file as it was: it does not keep the other tables from being served."""
        count = 0
        for record in self.store.tables():
            try:
                Ruleset.from_spec_text(record.spec)  # imports its plugins: their verbs parse
                game = game_record(
                    record.id,
                    record.spec,
                    record.players,
                    record.seed,
                    record.seats,
                    record.created,
                    record.actions,
                )
                state = game.replay()  # every action checked again by the rules
            except (RecordError, RulesetError, NotationError) as exc:
                _log.error("table %s is not served: its record does not replay: %s", record.id, exc)
                continue
            except Exception:  # a plugin's bug met while replaying: the other tables still load
                _log.exception("table %s is not served: replaying its record failed", record.id)
                continue
            table = Table(
                id=record.id,
                spec=record.spec,
                players=record.players,
                seed=record.seed,
                seats=list(record.seats),
                started=record.started,
                created=record.created,
                state=state,
                actions=list(game.actions),
            )
            self._make_bots(table)
            self._tables[table.id] = table
            self.schedule_bots(table)
            count += 1
        return count

    def create(
        self,
        rules: Sequence[str],
        options: Mapping[str, str],
        seats: Sequence[str],
        host_name: str,
        seed: int | None = None,
    ) -> tuple[Table, str]:
        """A new table; returns it and the host's (seat 0's) token.

        ``rules`` are plugin names, ``options`` option texts by name (as on
        the command line), ``seats`` one entry per seat after the host's:
        ``"open"`` (a player joins by the invitation link) or ``"bot:KIND"``
        (a built-in bot, :data:`unorules.bots.BOTS`).
        """
        if len(self._tables) >= self.max_tables:
            raise ServeError(f"this server already has {self.max_tables} tables", "full")
        ruleset = build_ruleset(rules, options)
        players = len(seats) + 1
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ServeError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        name = check_name(host_name)
        token = secrets.token_urlsafe(24)
        records = [SeatRecord("human", name, "", hash_token(token))]
        for seat, kind in enumerate(seats, start=1):
            records.append(_seat_record(seat, kind))
        if seed is None:
            seed = secrets.randbits(62)
        try:
            state = ruleset.new_game(players=players, seed=seed)
        except RulesetError as exc:
            raise ServeError(str(exc)) from None
        table_id = secrets.token_urlsafe(6)
        while table_id in self._tables:  # pragma: no cover - 48 random bits
            table_id = secrets.token_urlsafe(6)
        table = Table(
            id=table_id,
            spec=ruleset.spec_text,
            players=players,
            seed=seed,
            seats=records,
            started=False,
            created=now(),
            state=state,
        )
        self.store.add_table(
            TableRecord(table.id, table.spec, players, seed, tuple(records), False, table.created)
        )
        self._make_bots(table)
        self._tables[table.id] = table
        return table, token

    def get(self, table_id: str) -> Table:
        """The table ``table_id``; :class:`ServeError` ``unknown-table`` if there is none."""
        table = self._tables.get(table_id) if _TABLE_ID.match(table_id) else None
        if table is None:
            raise ServeError(f"there is no table {table_id[:40]!r} on this server", "unknown-table")
        return table

    def __len__(self) -> int:
        return len(self._tables)

    async def join(self, table: Table, name: str) -> tuple[int, str]:
        """Seat a new player at the first open seat; returns the seat and its token."""
        name = check_name(name)
        async with table.lock:
            if table.started:
                raise ServeError("the game has started: you can watch it but not join", "not-started")
            for seat, record in enumerate(table.seats):
                if record.kind == "open":
                    token = secrets.token_urlsafe(24)
                    table.seats[seat] = SeatRecord("human", name, "", hash_token(token))
                    self.store.update_seats(table.id, tuple(table.seats), table.started)
                    break
            else:
                raise ServeError("every seat at this table is taken: you can watch", "full")
        self.broadcast(table)
        return seat, token

    async def start(self, table: Table, seat: int | None) -> None:
        """Start the game (the host only); open seats get heuristic bots."""
        if seat != 0:
            raise ServeError("only the player who created the table (seat 0) can start it", "not-your-seat")
        async with table.lock:
            if table.started:
                raise ServeError("the game has already started", "stale")
            for other, record in enumerate(table.seats):
                if record.kind == "open":
                    table.seats[other] = _seat_record(other, "bot:heuristic")
            table.started = True
            self.store.update_seats(table.id, tuple(table.seats), True)
            self._make_bots(table)
        self.broadcast(table)
        self.schedule_bots(table)

    async def act(self, table: Table, seat: int | None, version: Any, text: Any) -> None:
        """Take the action ``text`` for ``seat`` on the state numbered ``version``.

        Raises :class:`ServeError` (and changes nothing) for a spectator, a
        game not started or over, an action for another seat, a state the
        client had not seen (stale or replayed message) and, with the rules'
        own message, an illegal action.
        """
        if seat is None:
            raise ServeError("spectators cannot act: join the table to play", "not-your-seat")
        if not isinstance(text, str) or not text.strip() or len(text) > 80:
            raise ServeError("'action' must be an action's text such as '1: play R7' (at most 80 characters)")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServeError("'version' must be the version number of the state you act on")
        try:
            action = Action.parse(text, default_seat=seat)
        except NotationError as exc:
            raise ServeError(str(exc)) from None
        if action.seat != seat:
            raise ServeError(
                f"your token is for seat {seat}: you cannot act for seat {action.seat}", "not-your-seat"
            )
        async with table.lock:
            if not table.started:
                raise ServeError("the game has not started yet", "not-started")
            if version != table.version:
                raise ServeError(
                    f"the table has moved on (you acted on state {version}, it is at {table.version}): "
                    "look again and act on what you see",
                    "stale",
                )
            try:
                self._commit(table, action)
            except IllegalActionError as exc:
                raise ServeError(str(exc), "illegal") from None
        self.broadcast(table)
        self.schedule_bots(table)

    def _commit(self, table: Table, action: Action) -> None:
        """Apply ``action`` (validated by the library), save it, then keep the new state."""
        new = table.state.apply(action)  # IllegalActionError: nothing changed
        self.store.append_action(table.id, table.version, str(action))
        table.state = new
        table.actions.append(action)

    # -- clients -------------------------------------------------------------

    def connect(self, table: Table, seat: int | None, send: Send) -> Client:
        """Register a page connected to ``table`` as ``seat``; it is sent the state."""
        client = Client(table, seat, send)
        table.clients.add(client)
        self.broadcast(table)
        return client

    async def disconnect(self, client: Client) -> None:
        """Forget a page that went away."""
        client.table.clients.discard(client)
        await client.close()
        self.broadcast(client.table)

    def broadcast(self, table: Table) -> None:
        """Send every client of ``table`` the state as its seat sees it."""
        messages: dict[int | None, str] = {}
        meta = table.meta()
        for client in list(table.clients):
            text = messages.get(client.seat)
            if text is None:
                text = messages[client.seat] = json.dumps(
                    table.message(client.seat, meta), separators=(",", ":")
                )
            client.push_text(text)

    # -- bots ----------------------------------------------------------------

    def _make_bots(self, table: Table) -> None:
        for seat, record in enumerate(table.seats):
            if record.kind == "bot" and seat not in table.bots:
                table.bots[seat] = make_bot(record.bot, seed=f"{table.seed}:{seat}")

    def schedule_bots(self, table: Table) -> None:
        """After a change, let the bots look at the new state (after ``bot_delay``)."""
        if not table.started or table.state.is_over or not table.bots:
            return
        task = table.bot_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        table.bot_task = asyncio.ensure_future(self._bots_move(table))

    async def _bots_move(self, table: Table) -> None:
        await asyncio.sleep(self.bot_delay)
        try:
            moved = await self._bot_step(table)
        except Exception:  # a bot's bug must not take the server down; the table waits
            _log.exception("table %s: a bot failed at version %d", table.id, table.version)
            return
        if moved:
            self.broadcast(table)
            self.schedule_bots(table)

    async def _bot_step(self, table: Table) -> bool:
        async with table.lock:
            state = table.state
            if state.is_over:
                return False
            chosen: Action | None = None
            for seat in compat.seats_to_act(state):
                bot = table.bots.get(seat)
                if bot is None:
                    continue
                chosen = compat.bot_choose(bot, state, seat)
                if chosen is None and seat == state.current_player:
                    chosen = state.legal_actions(seat)[0]
                if chosen is not None:
                    break
            if chosen is None:
                return False  # the people at the table decide
            self._commit(table, chosen)
        return True

    async def close(self) -> None:
        """Stop every bot and client (the store stays open)."""
        for table in self._tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            for client in list(table.clients):
                await client.close()


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


def check_name(name: Any) -> str:
    """A player's name, stripped; :class:`ServeError` unless 1 to 24 printable characters."""
    if not isinstance(name, str) or not _NAME.match(name.strip()):
        raise ServeError(f"a name is 1 to {NAME_LIMIT} characters, without control characters or <>&")
    return name.strip()


def _seat_record(seat: int, kind: Any) -> SeatRecord:
    if kind == "open":
        return SeatRecord("open")
    if isinstance(kind, str) and kind.startswith("bot:") and kind[4:] in BOTS:
        return SeatRecord("bot", f"Bot {seat} ({kind[4:]})", kind[4:])
    kinds = ", ".join(["open", *(f"bot:{b}" for b in BOTS)])
    raise ServeError(f"seat {seat}: {str(kind)[:40]!r} is not a seat kind; kinds: {kinds}")


def build_ruleset(rules: Sequence[str], options: Mapping[str, str]) -> Ruleset:
    """The rule set of a new table from plugin names and option texts."""
    if not rules or not all(isinstance(r, str) for r in rules) or len(rules) > 32:
        raise ServeError("'rules' must list plugin names, such as ['classic', 'stacking']")
    installed = installed_plugins()
    values: dict[str, Any] = {}
    declared = {o.name: o for name in rules if name in installed for o in installed[name].options}
    for key, text in options.items():
        option = declared.get(key)
        if option is None:
            raise ServeError(f"option {str(key)[:40]!r} belongs to none of the plugins {', '.join(rules)}")
        if not isinstance(text, str):
            raise ServeError(f"option {key}: give its value as text, as on the command line")
        try:
            values[key] = option.from_text(text)
        except (ValueError, TypeError) as exc:
            raise ServeError(f"option {key}: {exc}; allowed: {option.allowed}") from None
    try:
        return Ruleset.from_names(list(rules), options=values)
    except (RulesetError, ValueError) as exc:
        raise ServeError(str(exc)) from None

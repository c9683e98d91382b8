"""Tables: their life (create, join, start, play, expire), seats and tokens, bots, timers, clients.

The server decides everything. A client's message is at most a request to
take an action; :meth:`Tables.act` checks that the client's token holds the
seat the action is for, that the client saw the latest state (``version``,
which also refuses replayed messages), and lets the library validate the
action. All of it happens under the table's lock, so when several seats race
to act out of turn the first legal action to arrive wins and the others are
told the table moved on. Every accepted action is committed to the
:class:`~unorules.serve.store.Store` before anyone hears of it.

A table with a turn timer (``turn_seconds``) hands a seat to the *autopilot*
(the heuristic bot, :mod:`unorules.bots`) when its player lets the time run
out on a turn, or has had no page open for :data:`AWAY_GRACE` seconds (or the
turn time, if shorter); the seat is given back when its player's page
connects again, acts, or says it is back. Tables are kept within
``max_tables`` and expire: a finished game ``keep_finished`` seconds after
its last action, any other table once nobody's page has been open there and
nothing has happened for ``keep_idle`` seconds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from unorules.actions import Action
from unorules.bots import BotError, make_bot
from unorules.errors import IllegalActionError, NotationError, RulesetError
from unorules.protocol import QUIT_GRACE
from unorules.record import RecordError, SessionError, take_back_point
from unorules.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from unorules.serve import compat
from unorules.serve.errors import ServeError
from unorules.serve.following import Following
from unorules.serve.inputs import (
    NAME_LIMIT,
    TURN_SECONDS,
    build_ruleset,
    check_name,
    check_turn_seconds,
    name_key,
    seat_record,
)
from unorules.serve.limits import CreationLimit
from unorules.serve.seatbots import SeatBot
from unorules.serve.store import Conflict, SeatRecord, TableRecord, TableStore, now
from unorules.serve.table import Client, Close, Send, Table, _no_close, game_record, hash_token
from unorules.state import GameState

if TYPE_CHECKING:
    from unorules.serve.cluster import Cluster

__all__ = [
    "AWAY_GRACE",
    "NAME_LIMIT",
    "TURN_SECONDS",
    "Client",
    "ServeError",
    "Table",
    "Tables",
    "check_name",
    "game_record",
    "take_back_from",
]

_log = logging.getLogger("unorules.serve")

_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{6,32}$")

AWAY_GRACE = 15.0
"""Seconds a seat's player may have no page open (a reload, a phone's lock screen) before the
autopilot takes the seat, at a table with a turn timer (the turn time, if shorter)."""


def take_back_from(
    states: Sequence[GameState], actions: Sequence[Action], seat: int, bots: Iterable[int]
) -> int | str:
    """Where a take-back by ``seat`` goes back to, or why it may not, at a table of one person
    against ``bots`` (the seats the program plays): the library's one rule of a take-back,
    :func:`unorules.record.take_back_point`, which the terminal's ``undo`` follows too.

    ``states`` are the game's states (the deal, then one after each of ``actions``). Returns
    the number of actions that stay (the index of the state gone back to), else the reason,
    in words, why not.
    """
    if len(states) != len(actions) + 1:
        raise ValueError(f"{len(states)} states for {len(actions)} actions: one more state is the deal")
    try:
        return take_back_point(states, seat, frozenset(bots))
    except SessionError as exc:
        return str(exc)


class Tables(Following):
    """Every table of a server, backed by ``store``.

    ``bot_delay`` seconds pass before a bot (or the autopilot) acts, so that
    people see each move and get their chance at out-of-turn actions;
    ``max_tables`` bounds the tables kept, ``keep_finished`` and
    ``keep_idle`` (seconds) when they expire (see the module's docstring);
    ``creation`` limits how many tables each address and the server create.
    """

    def __init__(
        self,
        store: TableStore,
        *,
        bot_delay: float = 0.6,
        max_tables: int = 5000,
        keep_finished: float = 3600.0,
        keep_idle: float = 6 * 3600.0,
        creation: CreationLimit | None = None,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self.keep_finished = keep_finished
        self.keep_idle = keep_idle
        self.creation = CreationLimit() if creation is None else creation
        self._tables: dict[str, Table] = {}
        self._dormant: dict[str, float] = {}
        self.cluster: Cluster | None = None
        """The other processes sharing the store, once :class:`~unorules.serve.cluster.Cluster`
        joined them: then this process runs a table's bots and timers only while it holds the
        table's lease, and follows what the others commit."""
        """Finished tables not replayed since the server started, with when they were touched:
        replayed when first asked for (:meth:`get`)."""

    # -- life of a table -----------------------------------------------------

    def load(self) -> int:
        """Rebuild every saved table by replaying its game record; returns how many.

        A table whose game is over is only noted: it is replayed when first asked for
        (:meth:`get`), so a restart costs what the games still being played cost.

        Call from the running event loop; bots of started games resume, and at tables with
        a turn timer every person's seat goes to the autopilot unless its page connects
        within the grace (:data:`AWAY_GRACE`). A table whose record no longer replays (a
        plugin uninstalled or changed since) is logged and left out, in the file as it was:
        it does not keep the other tables from being served."""
        count = 0
        for table_id, touched in self.store.finished():
            if table_id not in self._tables:
                self._dormant[table_id] = touched
            count += 1
        for record in self.store.tables(finished=False):
            if record.id in self._tables or self._wake(record) is not None:
                count += 1
        return count

    def _wake(self, record: TableRecord) -> Table | None:
        """The table of ``record``, replayed and served (``None``, logged, if it does not replay)."""
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
            return None
        except Exception:  # a plugin's bug met while replaying: the other tables still load
            _log.exception("table %s is not served: replaying its record failed", record.id)
            return None
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
            turn_seconds=record.turn_seconds,
            invite=record.invite,
            touched=record.touched or record.created,
            rematch=record.rematch,
        )
        if state.is_over:
            self.store.set_over(table.id)  # a file of an older version: noted for next time
        else:  # a finished game's bots have nothing left to do
            self._make_bots(table, show=False)  # a bot program starts when next needed
        self._tables[table.id] = table
        self._arm_away(table)
        self._after_change(table, None)
        return table

    def create(
        self,
        rules: Sequence[str],
        options: Mapping[str, str],
        seats: Sequence[str],
        host_name: str,
        seed: int | None = None,
        *,
        turn_seconds: int = 0,
        address: str = "",
    ) -> tuple[Table, str]:
        """A new table; returns it and the host's (seat 0's) token.

        ``rules`` are plugin names, ``options`` option texts by name (as on
        the command line), ``seats`` one entry per seat after the host's:
        ``"open"`` (a player joins by the invitation link) or ``"bot:KIND"``
        (a built-in bot, :data:`unorules.bots.BOTS`); ``turn_seconds`` the turn
        timer (0: none); ``address`` the client's, for the creation limits.
        Refused (:class:`ServeError`, nothing created nor counted) beyond the
        creation limits (``too-many``), when the server holds ``max_tables``
        (``busy``) and for anything wrong in the request (``bad-request``).
        """
        self._check_room(address)
        ruleset = build_ruleset(rules, options)
        players = len(seats) + 1
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ServeError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        turn_seconds = check_turn_seconds(turn_seconds)
        name = check_name(host_name)
        token = secrets.token_urlsafe(24)
        records = [SeatRecord("human", name, "", hash_token(token))]
        for seat, kind in enumerate(seats, start=1):
            records.append(seat_record(seat, kind))
        table = self._new_table(ruleset, records, seed, turn_seconds=turn_seconds, started=False)
        self.creation.spend(address)
        return table, token

    def _check_room(self, address: str) -> None:
        self.creation.check(address)
        if len(self) >= self.max_tables:
            self.sweep()
        if len(self) >= self.max_tables:
            raise ServeError(
                f"this server keeps at most {self.max_tables} tables and has that many: try again "
                "later (finished and abandoned tables are removed as they expire)",
                "busy",
                retry_after=60.0,
            )

    def _new_table(
        self,
        ruleset: Ruleset,
        records: list[SeatRecord],
        seed: int | None,
        *,
        turn_seconds: int,
        started: bool,
    ) -> Table:
        if seed is None:
            seed = secrets.randbits(62)
        try:
            state = ruleset.new_game(players=len(records), seed=seed)
        except RulesetError as exc:
            raise ServeError(str(exc)) from None
        table_id = secrets.token_urlsafe(6)
        while table_id in self._tables:  # pragma: no cover - 48 random bits
            table_id = secrets.token_urlsafe(6)
        created = now()
        table = Table(
            id=table_id,
            spec=ruleset.spec_text,
            players=len(records),
            seed=seed,
            seats=records,
            started=started,
            created=created,
            state=state,
            turn_seconds=turn_seconds,
            invite=secrets.token_urlsafe(9),
            touched=created,
        )
        self.store.add_table(
            TableRecord(
                table.id,
                table.spec,
                table.players,
                seed,
                tuple(records),
                started,
                created,
                turn_seconds=turn_seconds,
                invite=table.invite,
                touched=created,
            )
        )
        self._tables[table.id] = table
        if started and self.cluster is not None:
            self.cluster.claim(table.id)
        self._make_bots(table)
        return table

    def get(self, table_id: str) -> Table:
        """The table ``table_id``; :class:`ServeError` ``unknown-table`` if there is none."""
        table = self._tables.get(table_id) if _TABLE_ID.match(table_id) else None
        if table is None and (table_id in self._dormant or (self.cluster and _TABLE_ID.match(table_id))):
            self._dormant.pop(table_id, None)  # or made by another process, not heard of yet
            record = self.store.table(table_id)
            table = None if record is None else self._wake(record)
        elif table is not None and self.cluster is not None:
            self.follow(table)  # a page arrives: it sees what every process committed
        if table is None:
            raise ServeError(f"there is no table {table_id[:40]!r} on this server", "unknown-table")
        return table

    def __len__(self) -> int:
        return len(self._tables) + len(self._dormant)

    def tables(self) -> list[Table]:
        """The tables in memory (not the finished games not looked at since the start)."""
        return list(self._tables.values())

    def loaded(self, table_id: str) -> Table | None:
        """The table ``table_id`` if it is in memory, else ``None`` (nothing is read)."""
        return self._tables.get(table_id)

    async def join(self, table: Table, name: str, invite: Any = None) -> tuple[int, str]:
        """Seat a new player at the first open seat; returns the seat and its token.

        ``invite`` must be the table's invitation code (tables from before the
        codes need none): the link spectators are given cannot take a seat."""
        name = check_name(name)
        if table.invite and not (
            isinstance(invite, str) and hmac.compare_digest(invite.encode(), table.invite.encode())
        ):
            raise ServeError(
                "taking a seat needs the table's invitation link (this link only lets you watch): "
                "ask a player at the table for it",
                "bad-invite",
            )
        async with self._holding(table):
            for _ in range(2 * MAX_PLAYERS):  # another process seated somebody meanwhile: look again
                if table.started:
                    raise ServeError("the game has started: you can watch it but not join", "not-started")
                taken = {name_key(s.name) for s in table.seats if s.kind != "open"}
                if name_key(name) in taken:
                    raise ServeError(
                        f"somebody at this table is already called {name!r}: choose another name"
                    )
                seat = next((n for n, record in enumerate(table.seats) if record.kind == "open"), None)
                if seat is None:
                    raise ServeError("every seat at this table is taken: you can watch", "full")
                token = secrets.token_urlsafe(24)
                seats = list(table.seats)
                seats[seat] = SeatRecord("human", name, "", hash_token(token))
                touched = now()
                try:
                    self._save_seats(table, seats, table.started, touched)
                except Conflict:
                    continue
                break
            else:
                raise ServeError("too many people are joining this table at once: try again", "busy")
        self.broadcast(table)
        return seat, token

    def _save_seats(self, table: Table, seats: list[SeatRecord], started: bool, touched: float) -> None:
        """Save and keep the table's new seats; :class:`Conflict` (the table read again, nothing
        changed) if another process changed them first."""
        # only processes sharing the store can race (and a file of an older version may keep
        # the seats in other words)
        before = (tuple(table.seats), table.started) if self.store.shared else None
        try:
            self.store.update_seats(table.id, tuple(seats), started, touched, before=before)
        except Conflict:
            self.reload(table)
            raise
        table.seats, table.started, table.touched = seats, started, touched

    async def start(self, table: Table, seat: int | None) -> None:
        """Start the game (the host only); open seats get heuristic bots."""
        if seat != 0:
            raise ServeError("only the player who created the table (seat 0) can start it", "not-your-seat")
        async with self._holding(table):
            for _ in range(2 * MAX_PLAYERS):  # another process seated somebody meanwhile: look again
                if table.started:
                    raise ServeError("the game has already started", "stale")
                seats = list(table.seats)
                for other, record in enumerate(seats):
                    if record.kind == "open":
                        seats[other] = seat_record(other, "bot:heuristic")
                try:
                    self._save_seats(table, seats, True, now())
                except Conflict:
                    continue
                break
            else:
                raise ServeError("too many people are joining this table at once: try again", "busy")
            if self.cluster is not None:
                self.cluster.claim(table.id)
            self._make_bots(table)
        self._arm_away(table)
        self._after_change(table, None)

    async def act(self, table: Table, seat: int | None, version: Any, text: Any) -> None:
        """Take the action ``text`` for ``seat`` on the state numbered ``version``.

        Raises :class:`ServeError` (and changes nothing) for a spectator, a
        game not started or over, an action for another seat, a state the
        client had not seen (stale or replayed message) and, with the rules'
        own message, an illegal action. An action taken by a seat the
        autopilot was playing gives the seat back to its player.
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
        async with self._holding(table):
            if table.id not in self._tables:  # expired while this message waited for the lock
                raise ServeError("this table was closed", "closed")
            if not table.started:
                raise ServeError("the game has not started yet", "not-started")
            if version != table.version:
                raise ServeError(
                    f"the table has moved on (you acted on state {version}, it is at {table.version}): "
                    "look again and act on what you see",
                    "stale",
                )
            try:
                await self._commit(table, action)
            except IllegalActionError as exc:
                raise ServeError(str(exc), "illegal") from None
            table.autopilot.pop(seat, None)
        self._after_change(table, seat)

    def _show_bots(self, table: Table) -> None:
        """Show every bot at ``table`` that follows the game its seat's view of the
        new state (a bot that fails at it is replaced, see :meth:`_replace_bot`); in a cluster,
        only the process that runs the table's bots does."""
        if not self._leads(table):
            return
        for seat, bot in list(table.bots.items()):
            try:
                bot.observe(compat.seat_view(table.state, seat))  # a program's: in its worker
            except BotError as exc:
                self._replace_bot(table, seat, exc)

    async def rematch(self, table: Table, seat: int | None, address: str = "") -> Table:
        """A new table for the same players after a finished game: the same rule set, seats
        (each person's token holds the same seat there), bots and turn timer, a new deal, the
        game started. Asked for again, the same rematch. Refused for spectators, before the
        game is over, and by the creation limits (a rematch is a new table)."""
        if seat is None or table.seats[seat].kind != "human":
            raise ServeError("only a player at the table can ask for a rematch", "not-your-seat")
        async with self._holding(table):
            if not table.state.is_over:
                raise ServeError("the game is not over yet: a rematch comes after it", "not-over")
            if table.rematch is not None and (
                table.rematch in self._tables or table.rematch in self._dormant
            ):
                return self.get(table.rematch)
            self._check_room(address)
            ruleset = Ruleset.from_spec_text(table.spec)
            records = [SeatRecord(s.kind, s.name, s.bot, s.token_hash) for s in table.seats]
            new = self._new_table(ruleset, records, None, turn_seconds=table.turn_seconds, started=True)
            self.creation.spend(address)
            try:
                self.store.set_rematch(table.id, new.id)
            except Conflict:  # another process made the rematch at the same moment: that one it is
                self._remove(new, "the rematch was made twice")
                self.reload(table)
                if table.rematch is None:
                    raise ServeError("the rematch could not be made: try again", "busy") from None
                return self.get(table.rematch)
            table.rematch = new.id
        self.broadcast(table)
        self._arm_away(new)
        self._after_change(new, None)
        return new

    async def back(self, table: Table, seat: int | None) -> None:
        """The player of ``seat`` takes the seat back from the autopilot."""
        if seat is None:
            raise ServeError("spectators have no seat to take back", "not-your-seat")
        if seat not in table.autopilot:
            raise ServeError("the autopilot is not playing your seat: it is yours", "stale")
        if not self._leads(table) and self.cluster is not None:
            self.cluster.ask_back(table.id, seat)  # the process running the autopilot gives it back
            return
        self._give_back(table, seat)
        self._after_change(table, seat)

    async def take_back(self, table: Table, seat: int | None, version: Any) -> None:
        """The person of ``seat`` takes their last action back, with the bots' replies since
        (:func:`take_back_from`), at a table of one person and the library's own bots, on the
        state numbered ``version`` they saw. Refused (and nothing changes) with the reason:
        ``not-your-seat`` for a spectator or a table of several people or of bot programs (a
        program keeps its own memory of the game), ``not-started``, ``stale``, and ``illegal``
        when the rule says no."""
        if seat is None:
            raise ServeError("spectators have no action to take back", "not-your-seat")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServeError("'version' must be the version number of the state you take back from")
        async with self._holding(table):
            if not table.started:
                raise ServeError("the game has not started yet", "not-started")
            if version != table.version:
                raise ServeError(
                    f"the table has moved on (you saw state {version}, it is at {table.version}): look again",
                    "stale",
                )
            bots = [s for s, record in enumerate(table.seats) if record.kind == "bot"]
            if not table.take_backs():
                raise ServeError(
                    "actions are taken back only at a table of one person and the library's own bots",
                    "not-your-seat",
                )
            states = list(table.record().states())
            found = take_back_from(states, table.actions, seat, bots)
            if isinstance(found, str):
                raise ServeError(f"cannot take your last action back: {found}", "illegal")
            if not self._leads(table) and self.cluster is not None:
                # the process running the table's bots takes it back, after what they are doing
                self.cluster.ask_take_back(table.id, seat, version)
                return
            self.store.truncate_actions(table.id, found)
            table.state = states[found]
            del table.actions[found:]
            table.touched = now()
            self._show_bots(table)
        self._after_change(table, seat)

    # -- expiry ----------------------------------------------------------------

    def expired(self, table: Table, moment: float | None = None) -> str | None:
        """Why ``table`` has expired at ``moment`` (now by default), or ``None``."""
        moment = now() if moment is None else moment
        idle = moment - table.touched
        if table.state.is_over:
            if idle >= self.keep_finished:
                return f"its game ended more than {_duration(self.keep_finished)} ago"
            return None
        if idle >= self.keep_idle and not table.online():
            return f"nobody played there for {_duration(self.keep_idle)}"
        return None

    def sweep(self, moment: float | None = None) -> list[str]:
        """Remove every expired table (from memory and from the file), telling the pages still
        open there; returns their ids."""
        removed = []
        for table in list(self._tables.values()):
            reason = self.expired(table, moment)
            if reason is not None and self.cluster is not None:
                self.reload(table)  # what the other processes did there counts too
                reason = self.expired(table, moment) if table.id in self._tables else None
            if reason is not None:
                self._remove(table, reason)
                removed.append(table.id)
        moment = now() if moment is None else moment
        for table_id, touched in list(self._dormant.items()):
            if moment - touched >= self.keep_finished:
                self._dormant.pop(table_id)
                self.store.delete_table(table_id)
                removed.append(table_id)
        if removed:
            _log.info("%d table(s) expired", len(removed))
        return removed

    def _remove(self, table: Table, reason: str, *, delete: bool = True) -> None:
        self._tables.pop(table.id, None)
        self._stop_timers(table)
        if table.bot_task is not None:
            table.bot_task.cancel()
        self._close_bots(table)
        if delete:
            self.store.delete_table(table.id)
        notice = {"type": "error", "code": "closed", "message": f"this table was closed: {reason}"}
        for client in list(table.clients):
            client.push(notice)
            client.end(4410, "table closed")

    # -- clients -------------------------------------------------------------

    def connect(
        self, table: Table, seat: int | None, send: Send, address: str = "", close: Close = _no_close
    ) -> Client:
        """Register a page connected to ``table`` as ``seat``; it is sent the welcome and the
        state. A seat the autopilot plays (or was about to) is given back to its player."""
        client = Client(table, seat, send, address, close)
        table.clients.add(client)
        client.push(table.welcome(seat))
        if seat is not None:
            timer = table.away.pop(seat, None)
            if timer is not None:
                timer.cancel()
            if seat in table.autopilot and self._leads(table):
                self._give_back(table, seat)
                self._after_change(table, seat)
                self._present(table)
                return client
        self.broadcast(table)
        self._present(table)
        return client

    def _present(self, table: Table) -> None:
        if self.cluster is not None:
            self.cluster.present(table)

    async def disconnect(self, client: Client) -> None:
        """Forget a page that went away (at a table with a turn timer, its seat goes to the
        autopilot if no other page of that seat connects within the grace)."""
        table = client.table
        table.clients.discard(client)
        await client.close()
        if client.seat is not None and client.seat not in table.online():
            if not table.online():
                table.touched = now()
            self._arm_away(table)
        self.broadcast(table)
        self._present(table)

    def broadcast(self, table: Table) -> None:
        """Send every client of ``table`` the state as its seat sees it."""
        if not table.clients:
            return
        messages: dict[int | None, str] = {}
        meta = json.dumps(table.meta(), separators=(",", ":"))
        for client in list(table.clients):
            text = messages.get(client.seat)
            if text is None:
                text = messages[client.seat] = table.message_text(client.seat, meta)
            client.push_text(text)

    # -- bots, the autopilot and the turn timer ---------------------------------

    def _make_bots(self, table: Table, *, show: bool = True) -> None:
        """Make the bot of every bot seat that has none (``show``: and show the started game to
        them). A bot this server no longer offers (a bot program not given again with ``--bot``)
        is logged, and the autopilot plays its seat: the table is still served."""
        for seat, record in enumerate(table.seats):
            if record.kind != "bot" or seat in table.bots or seat in table.autopilot:
                continue
            try:
                bot = make_bot(record.bot, seed=f"{table.seed}:{seat}")
            except Exception as exc:  # an unknown name (ValueError) or a factory's own failure
                _log.error(
                    "table %s: seat %d's bot %r is not offered by this server (%s); the autopilot "
                    "plays the seat (a bot program is offered with --bot %s=COMMAND)",
                    table.id,
                    seat,
                    record.bot,
                    " ".join(str(exc).split())[:200],
                    record.bot,
                )
                table.autopilot[seat] = make_bot("heuristic", seed=f"{table.seed}:{seat}:autopilot")
                continue
            table.bots[seat] = SeatBot(bot, table.id, seat)
        if table.started and show:
            self._show_bots(table)

    def _replace_bot(self, table: Table, seat: int, exc: Exception) -> None:
        """The bot of ``seat`` failed (a bot program that answered late or wrongly, or
        exited): it is stopped and the heuristic autopilot plays the seat from now on."""
        _log.warning(
            "table %s: the bot of seat %d failed and the autopilot plays it: %s", table.id, seat, exc
        )
        bot = table.bots.pop(seat, None)
        if bot is not None:
            bot.close()  # in its worker: the event loop does not wait for it
        table.autopilot[seat] = make_bot("heuristic", seed=f"{table.seed}:{seat}:autopilot")

    def _close_bots(self, table: Table) -> list[concurrent.futures.Future[Any]]:
        """Stop the bots of ``table`` that hold something (a bot program's process), each in its
        own worker; returns what is still stopping."""
        stopping = [done for bot in table.bots.values() if (done := bot.close()) is not None]
        table.bots.clear()
        return stopping

    def _running(self, table: Table) -> bool:
        """Whether the bots and timers of ``table`` run here (in a cluster: on one process)."""
        return table.started and not table.state.is_over and table.id in self._tables and self._leads(table)

    def _leads(self, table: Table) -> bool:
        """Whether this process runs the bots and timers of ``table`` (it holds its lease)."""
        return self.cluster is None or self.cluster.holds(table.id)

    def _after_change(self, table: Table, actor: int | None) -> None:
        """After anything changed at ``table`` (``actor``: the seat that acted, if one did): run
        the turn timer, tell every page (the deadline included), let the bots look."""
        self._arm_turn(table, actor)
        self.broadcast(table)
        self.schedule_bots(table)
        if self.cluster is not None and self._leads(table):
            self.cluster.tell_timers(table)

    def _arm_turn(self, table: Table, actor: int | None) -> None:
        """Run the turn timer for the seat to move, if a person plays it: a new deadline when
        the seat to move changed or itself acted, the running one otherwise."""
        seat = table.state.current_player
        person = (
            self._running(table)
            and table.turn_seconds > 0
            and table.seats[seat].kind == "human"
            and seat not in table.autopilot
        )
        if not person:
            self._stop_turn(table)
            return
        if seat == table.turn_seat and actor != seat and table.turn_timer is not None:
            return
        self._stop_turn(table)
        loop = asyncio.get_running_loop()
        table.turn_seat = seat
        table.turn_deadline = time.monotonic() + table.turn_seconds
        table.turn_timer = loop.call_later(table.turn_seconds, self._turn_over, table, seat)

    def _stop_turn(self, table: Table) -> None:
        if table.turn_timer is not None:
            table.turn_timer.cancel()
        table.turn_timer = None
        table.turn_seat = None
        table.turn_deadline = None

    def _turn_over(self, table: Table, seat: int) -> None:
        table.turn_timer = None
        if not self._running(table) or table.turn_seat != seat or table.state.current_player != seat:
            return
        _log.info("table %s: seat %d ran out of time; the autopilot plays it", table.id, seat)
        self._engage(table, seat)

    def _arm_away(self, table: Table) -> None:
        """At a table with a turn timer, start the grace of every person's seat with no page open."""
        if not self._running(table) or table.turn_seconds <= 0:
            return
        loop = asyncio.get_running_loop()
        grace = min(AWAY_GRACE, float(table.turn_seconds))
        online = table.online()
        for seat, record in enumerate(table.seats):
            idle = seat not in online and seat not in table.autopilot and seat not in table.away
            if record.kind == "human" and idle:
                table.away[seat] = loop.call_later(grace, self._away_over, table, seat)

    def _away_over(self, table: Table, seat: int) -> None:
        table.away.pop(seat, None)
        if self._running(table) and seat not in table.online():
            _log.info("table %s: seat %d has been away; the autopilot plays it", table.id, seat)
            self._engage(table, seat)

    def _engage(self, table: Table, seat: int) -> None:
        if seat not in table.autopilot:
            table.autopilot[seat] = make_bot("heuristic", seed=f"{table.seed}:{seat}:autopilot")
        self._after_change(table, None)

    def _give_back(self, table: Table, seat: int) -> None:
        table.autopilot.pop(seat, None)
        if table.turn_seat == seat:
            self._stop_turn(table)  # a fresh deadline for the player who is back

    def _stop_timers(self, table: Table) -> None:
        self._stop_turn(table)
        for timer in table.away.values():
            timer.cancel()
        table.away.clear()

    def schedule_bots(self, table: Table) -> None:
        """After a change, let the bots and the autopilot look at the new state (after ``bot_delay``)."""
        if not self._running(table) or not (table.bots or table.autopilot):
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
        if moved is not False:
            self._after_change(table, moved)

    async def _bot_step(self, table: Table) -> int | bool:
        """One move of a bot or the autopilot: the seat that moved, or ``False``.

        A bot thinks in a worker thread (a search bot takes its time, a bot
        program has seconds to answer), so the server goes on meanwhile; a bot
        whose answer is refused (:class:`~unorules.bots.BotError`) is replaced
        by the autopilot, which then moves."""
        async with self._holding(table):
            state = table.state
            if not self._running(table):
                return False
            chosen: Action | None = None
            for seat in compat.seats_to_act(state):
                bot = table.bots.get(seat)
                try:
                    if bot is not None:
                        chosen = await bot.choose(compat.seat_view(state, seat))
                    elif seat in table.autopilot:
                        chosen = await asyncio.to_thread(
                            compat.bot_choose, table.autopilot[seat], state, seat
                        )
                    else:
                        continue
                except BotError as exc:
                    self._replace_bot(table, seat, exc)
                    chosen = compat.bot_choose(table.autopilot[seat], state, seat)
                if table.state is not state or not self._running(table):
                    return False  # the table changed meanwhile (it was closed): ask again later
                if chosen is None and seat == state.current_player:
                    chosen = state.legal_actions(seat)[0]
                if chosen is not None:
                    break
            if chosen is None:
                return False  # the people at the table decide
            try:
                await self._commit(table, chosen)
            except ServeError:  # another process moved first (its lease ran out meanwhile)
                return False
        return chosen.seat

    async def close(self) -> None:
        """Stop every bot, timer and client (the store stays open); bot programs are given
        their time to quit, all at once."""
        stopping: list[concurrent.futures.Future[Any]] = []
        for table in self._tables.values():
            self._stop_timers(table)
            if table.bot_task is not None:
                table.bot_task.cancel()
            stopping += self._close_bots(table)
            for client in list(table.clients):
                await client.close()
        if stopping:
            await asyncio.wait([asyncio.wrap_future(f) for f in stopping], timeout=QUIT_GRACE + 5)


def _duration(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = int(seconds // 3600)
        return f"{hours} hour{'' if hours == 1 else 's'}"
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'' if minutes == 1 else 's'}"
    return f"{seconds:g} seconds"

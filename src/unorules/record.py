"""Game records: a whole game as readable, diffable text, and a session that keeps one.

A record is to an unorules game what PGN is to a chess game: headers, then
the actions, one per line, in action notation::

    # unorules game record
    [Format "unorules.record/1"]
    [Ruleset "classic,stacking stack_mix=on"]
    [Players 3]
    [Seed 42]
    [Result "1"]
    [Termination "target score"]

    2: play R7
    0: play R+2    # seat 1 drew 2 cards as a penalty
    ...

Each header is ``[Name VALUE]`` with a JSON value: text in double quotes
(JSON escapes) or an integer. ``Seed 42`` (an integer) and ``Seed "42"``
(text) are different seeds. The known headers:

===============  ============================================================
``Format``       ``"unorules.record/1"`` (required)
``Ruleset``      the rule set's canonical spec text (required; ``Ruleset.spec_text``)
``Players``      the number of seats (required)
``Seed``         the seed of the deal (an integer or text)
``Deck``         an arranged deck, top card first, in card notation (the
                 cards it leaves out follow in the seed's order)
``Dealer``       the first dealer's seat (optional)
``Result``       the winning seats, e.g. ``"0"`` or ``"0,2"``; ``"*"`` while the game goes on
``Termination``  why the game ended (the outcome's reason)
===============  ============================================================

Other headers (``Event``, ``Date``, ``Bots``, ...) are kept as they are.
``#`` at the start of a line or after white space starts a comment (whole
lines or after an action); a ``#`` inside a word is the action's own (a face
picked by count, ``play W+C#2 P``, see :mod:`unorules.actions`). Blank lines
are ignored. :meth:`Session.record` writes after each action what else it did,
as a spectator reads it (:mod:`unorules.narrate`): the draws it made, a
stack, a trade of hands, the end of a round and the next deal.
:meth:`GameRecord.parse` raises :class:`RecordFormatError` with the
line number of a bad line; :meth:`GameRecord.replay` checks every action and
raises :class:`RecordReplayError` naming the line and the rule of the first
one the rules refuse.

:class:`Session` keeps a game's history in the spirit of python-chess's
``Board.move_stack``: the current state, the actions so far, ``undo()``
and ``record()``; the states underneath stay immutable.

>>> import unorules
>>> from unorules.record import GameRecord, Session
>>> session = Session("classic", players=3, seed=7)
>>> _ = session.apply(session.state.legal_actions()[0])
>>> text = session.record().dumps()
>>> GameRecord.parse(text).replay() == session.state
True
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

import attrs

from unorules.actions import Action
from unorules.cards import Card, parse_cards
from unorules.errors import IllegalActionError, NotationError, RulesetError, UnorulesError, excerpt
from unorules.moves import DRAW, TAKEN
from unorules.narrate import Narrator
from unorules.rng import Seed
from unorules.ruleset import Ruleset
from unorules.state import GameState, SeatView

__all__ = [
    "RECORD_FORMAT",
    "GameRecord",
    "RecordError",
    "RecordFormatError",
    "RecordReplayError",
    "Session",
    "SessionError",
    "comment",
    "play_bots",
    "split_comment",
    "take_back_point",
]

RECORD_FORMAT = "unorules.record/1"
"""The value of a record's ``Format`` header (and of its data's ``format``)."""

_KNOWN = ("Format", "Ruleset", "Players", "Seed", "Deck", "Dealer", "Result", "Termination")
_HEADER = re.compile(r"^\[([A-Za-z][A-Za-z0-9_]*)\s+(.*)\]$")


class RecordError(UnorulesError, ValueError):
    """A game record that cannot be read or replayed: ``message`` says why; ``line``
    is the line number (from 1) of the bad line, or ``None`` when no line is to
    blame (the message then starts with it)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line


class RecordFormatError(RecordError):
    """Record text that is not a record: a malformed header or action, a
    missing or unknown required header, a bad value."""


class RecordReplayError(RecordError):
    """A record whose game the rules refuse (``message`` says how): the first
    illegal action (its ``line``, the ``action`` and the ``rule`` that forbids
    it), a rule set or deal that cannot be built, or a ``Result`` header the
    game contradicts."""

    def __init__(
        self, message: str, line: int | None = None, action: Action | None = None, rule: str | None = None
    ) -> None:
        super().__init__(message, line)
        self.action = action
        self.rule = rule


class SessionError(UnorulesError, ValueError):
    """A session asked for something it cannot do (``undo`` with no action to undo)."""


def _result_text(state: GameState) -> tuple[str, str | None]:
    outcome = state.outcome
    if outcome is None:
        return "*", None
    return ",".join(map(str, outcome.winners)), outcome.reason


@attrs.frozen
class GameRecord:
    """A whole game: how it was dealt (``ruleset`` spec text, ``players``,
    ``seed`` or arranged ``deck``, ``dealer``), its ``actions`` and its
    ``result`` (winning seats joined by commas, ``"*"`` while it goes on) with
    the ``termination`` reason, plus any other ``headers``.

    ``lines`` holds the line number of each action when the record was parsed
    (for error messages) and ``comments`` the comment written after each
    action ("" for none; :meth:`dumps` writes them back); neither takes part
    in equality.
    """

    ruleset: str
    """The rule set's canonical spec text (``Ruleset.spec_text``), the ``Ruleset`` header."""
    players: int
    """The number of seats, the ``Players`` header."""
    actions: tuple[Action, ...] = ()
    """The game's actions, in order."""
    seed: int | str | None = None
    """The seed of the deal (``Seed``), or ``None`` with an arranged deck alone."""
    deck: tuple[Card, ...] | None = None
    """An arranged deck, top card first (``Deck``), or ``None``."""
    dealer: int | None = None
    """The first dealer's seat (``Dealer``), or ``None`` for the rule set's choice."""
    result: str = "*"
    """The winning seats joined by commas (``Result``), ``"*"`` while the game goes on."""
    termination: str | None = None
    """Why the game ended (``Termination``), or ``None``."""
    headers: tuple[tuple[str, str | int], ...] = ()
    """Every other header, as ``(name, value)`` pairs in their order (``Event``, ``Human``, ...)."""
    lines: tuple[int, ...] | None = attrs.field(default=None, eq=False, repr=False)
    """The line number of each action in the parsed text, or ``None`` for a record not parsed."""
    header_lines: tuple[tuple[str, int], ...] = attrs.field(default=(), eq=False, repr=False)
    """The line number of each header in the parsed text, as ``(name, line)`` pairs."""
    comments: tuple[str, ...] = attrs.field(default=(), eq=False, repr=False)
    """The comment after each action ("" for none), as parsed or as :meth:`Session.record` wrote it."""

    # -- writing ------------------------------------------------------------------------------

    def header_items(self) -> list[tuple[str, str | int]]:
        """Every header in the order :meth:`dumps` writes them."""
        items: list[tuple[str, str | int]] = [
            ("Format", RECORD_FORMAT),
            ("Ruleset", self.ruleset),
            ("Players", self.players),
        ]
        if self.seed is not None:
            items.append(("Seed", self.seed))
        if self.deck is not None:
            items.append(("Deck", " ".join(map(str, self.deck))))
        if self.dealer is not None:
            items.append(("Dealer", self.dealer))
        items.append(("Result", self.result))
        if self.termination is not None:
            items.append(("Termination", self.termination))
        items += list(self.headers)
        return items

    def dumps(self) -> str:
        """The record as text; :meth:`parse` reads it back as an equal record."""
        out = ["# unorules game record"]
        out += [f"[{name} {json.dumps(value)}]" for name, value in self.header_items()]
        out.append("")
        comments = self.comments
        for index, action in enumerate(self.actions):
            comment = " ".join(comments[index].split()) if index < len(comments) else ""
            out.append(f"{action}  # {comment}" if comment else str(action))
        return "\n".join(out) + "\n"

    def to_data(self) -> dict[str, Any]:
        """The record as plain JSON-able data (described by the ``record`` JSON Schema)."""
        return {
            "format": RECORD_FORMAT,
            "ruleset": self.ruleset,
            "players": self.players,
            "seed": self.seed,
            "deck": None if self.deck is None else [str(c) for c in self.deck],
            "dealer": self.dealer,
            "result": self.result,
            "termination": self.termination,
            "headers": dict(self.headers),
            "actions": [str(a) for a in self.actions],
        }

    @classmethod
    def from_data(cls, data: Any) -> GameRecord:
        """Read back :meth:`to_data` output, ``data`` (:class:`RecordFormatError` names a
        bad field)."""
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordFormatError(f"record data must be an object with format {RECORD_FORMAT!r}")
        headers: list[str] = [f"[Format {json.dumps(RECORD_FORMAT)}]"]
        for key, name in (
            ("ruleset", "Ruleset"),
            ("players", "Players"),
            ("seed", "Seed"),
            ("dealer", "Dealer"),
            ("result", "Result"),
            ("termination", "Termination"),
        ):
            if data.get(key) is not None:
                headers.append(f"[{name} {json.dumps(data[key])}]")
        deck = data.get("deck")
        if deck is not None:
            if not isinstance(deck, list):
                raise RecordFormatError("deck: expected a list of cards")
            headers.append(f"[Deck {json.dumps(' '.join(map(str, deck)))}]")
        extra = data.get("headers", {})
        actions = data.get("actions", [])
        if not isinstance(extra, dict) or not isinstance(actions, list):
            raise RecordFormatError("headers must be an object and actions a list")
        headers += [f"[{k} {json.dumps(v)}]" for k, v in extra.items()]
        for index, action in enumerate(actions):
            if not isinstance(action, str) or "\n" in action or split_comment(action)[1] is not None:
                raise RecordFormatError(
                    f"actions[{index}]: expected an action's text without a comment, got {excerpt(action)}"
                )
        return cls.parse("\n".join([*headers, "", *actions]))

    # -- reading ------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        """Read a record's text. Raises :class:`RecordFormatError` with the
        line number of the first bad line."""
        if not isinstance(text, str):
            raise RecordFormatError(f"a record is text, not {type(text).__name__}")
        headers: dict[str, tuple[int, str | int]] = {}
        actions: list[Action] = []
        lines: list[int] = []
        comments: list[str] = []
        for number, raw in enumerate(text.splitlines(), 1):
            line, comment = split_comment(raw) if not raw.lstrip().startswith("[") else (raw.strip(), None)
            if not line:
                continue
            if line.startswith("["):
                if actions:
                    raise RecordFormatError("a header after the first action: headers come first", number)
                name, value = _parse_header(line, number)
                if name in headers:
                    raise RecordFormatError(f"header {name!r} given twice", number)
                headers[name] = (number, value)
                continue
            try:
                actions.append(_parse_action(line))
            except NotationError as exc:
                raise RecordFormatError(f"not an action: {exc}", number) from None
            lines.append(number)
            comments.append(comment or "")
        record = cls._from_headers(headers, tuple(actions), tuple(lines))
        return attrs.evolve(record, comments=tuple(comments)) if any(comments) else record

    @classmethod
    def _from_headers(
        cls, headers: Mapping[str, tuple[int, str | int]], actions: tuple[Action, ...], lines: tuple[int, ...]
    ) -> GameRecord:
        def get(name: str, kind: type, required: bool = False) -> Any:
            found = headers.get(name)
            if found is None:
                if required:
                    raise RecordFormatError(f"missing header [{name} ...]", 1 if not headers else None)
                return None
            number, value = found
            if not isinstance(value, kind):
                what = "text in double quotes" if kind is str else "an integer"
                raise RecordFormatError(f"header {name}: expected {what}, got {value!r}", number)
            return value

        fmt = get("Format", str, required=True)
        if fmt != RECORD_FORMAT:
            raise RecordFormatError(
                f"header Format: expected {RECORD_FORMAT!r}, got {fmt!r}", headers["Format"][0]
            )
        players = get("Players", int, required=True)
        if not 2 <= players <= 10:
            raise RecordFormatError(f"header Players: 2 to 10 seats, not {players}", headers["Players"][0])
        deck_text = get("Deck", str)
        deck: tuple[Card, ...] | None = None
        if deck_text is not None:
            try:
                deck = parse_cards(deck_text)
            except NotationError as exc:
                raise RecordFormatError(f"header Deck: {exc}", headers["Deck"][0]) from None
        seed = headers.get("Seed", (0, None))[1]
        dealer = get("Dealer", int)
        if dealer is not None and not 0 <= dealer < players:
            raise RecordFormatError(f"header Dealer: no seat {dealer} of {players}", headers["Dealer"][0])
        result = get("Result", str)
        if result is not None and not re.fullmatch(r"\*|\d(,\d)*|", result):
            raise RecordFormatError(
                f'header Result: expected winning seats such as "0" or "0,2", or "*", got {result!r}',
                headers["Result"][0],
            )
        extra = tuple((k, v) for k, (_, v) in headers.items() if k not in _KNOWN)
        return cls(
            ruleset=get("Ruleset", str, required=True),
            players=players,
            actions=actions,
            seed=seed,
            deck=deck,
            dealer=dealer,
            result="*" if result is None else result,
            termination=get("Termination", str),
            headers=extra,
            lines=lines,
            header_lines=tuple((k, n) for k, (n, _) in headers.items()),
        )

    # -- replaying ----------------------------------------------------------------------------

    def line_of(self, index: int) -> int | None:
        """The line number of action ``index`` in the parsed text (``None`` if not parsed)."""
        if self.lines is None or not 0 <= index < len(self.lines):
            return None
        return self.lines[index]

    def _header_line(self, name: str) -> int | None:
        return dict(self.header_lines).get(name)

    def start(self) -> GameState:
        """The state the game starts from (the deal). :class:`RecordReplayError`
        if the rule set or the deal cannot be built."""
        try:
            rules = Ruleset.from_spec_text(self.ruleset)
            return rules.new_game(players=self.players, seed=self.seed, deck=self.deck, dealer=self.dealer)
        except RulesetError as exc:
            raise RecordReplayError(f"cannot deal this game: {exc}") from None

    def states(self) -> Iterator[GameState]:
        """Every state of the game: the deal, then the state after each action
        (each action checked as in :meth:`replay`)."""
        state = self.start()
        yield state
        for index, action in enumerate(self.actions):
            try:
                state = state.apply(action)
            except IllegalActionError as exc:
                line = self.line_of(index)
                where = f"action {index + 1} ({action})"
                rule = f" [{exc.rule}]" if exc.rule else ""
                raise RecordReplayError(f"{where} is illegal{rule}: {exc}", line, action, exc.rule) from None
            yield state

    def replay(self) -> GameState:
        """The final state of the game, every action checked: the first illegal
        one raises :class:`RecordReplayError` with its line and rule; so does a
        ``Result`` header the game's outcome contradicts."""
        *_, state = self.states()
        result, _ = _result_text(state)
        if self.result != "*" and self.result != result:
            raise RecordReplayError(
                f"the Result header says {self.result!r} but the game gives {result!r}",
                self._header_line("Result"),
            )
        return state


_COMMENT = re.compile(r"(?:^|\s)#")
"""Where a record line's comment starts: a ``#`` at the line's start or after white space.
Action notation never puts white space before its own ``#`` (``R1#2``)."""


def split_comment(line: str) -> tuple[str, str | None]:
    """``line`` of a record split into its content and its comment, both stripped (``None``
    for no comment): ``"0: play W+C#2 P  # a note"`` gives ``("0: play W+C#2 P", "a note")``.

    This is the one rule for comments that :meth:`GameRecord.parse` reads and
    :meth:`GameRecord.dumps` writes (``action  # comment``), so every action's text
    survives a record's text."""
    match = _COMMENT.search(line)
    if match is None:
        return line.strip(), None
    return line[: match.start()].strip(), line[match.end() :].strip()


def _parse_action(text: str) -> Action:
    """``Action.parse(text)``; a verb a plugin registers is unknown until the plugin is
    imported, so on an unknown verb the installed plugins are loaded and it is tried again
    (a record of a game with a plugin's verbs parses in a fresh process)."""
    try:
        return Action.parse(text)
    except NotationError:
        from unorules.ruleset import installed_plugins

        installed_plugins()  # importing the plugins registers their verbs
        return Action.parse(text)


def _parse_header(line: str, number: int) -> tuple[str, str | int]:
    match = _HEADER.match(line)
    if match is None:
        raise RecordFormatError(f'bad header {line!r}: expected [Name "text"] or [Name 123]', number)
    name, raw = match.group(1), match.group(2).strip()
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        raise RecordFormatError(
            f"header {name}: the value {raw!r} is neither text in double quotes nor an integer", number
        ) from None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise RecordFormatError(
            f"header {name}: expected text in double quotes or an integer, got {raw}", number
        )
    return name, value


class Session:
    """A game being played, with its history: the current :attr:`state`, the
    actions so far (:attr:`history`), :meth:`apply`, :meth:`undo` and
    :meth:`record`. States stay immutable underneath: the session keeps every
    state, so undoing is a step back, not a recomputation.

    ``ruleset`` is a :class:`~unorules.Ruleset` (of installed plugins, so the
    record can name it) or its spec text, and ``players`` the number of seats.
    Without ``seed`` and ``deck`` a random seed is drawn and kept, so the record
    always replays; ``deck`` arranges the deck and ``dealer`` names the first
    dealer (as :meth:`Ruleset.new_game <unorules.Ruleset.new_game>` takes them).
    ``headers`` are extra record headers (``{"Event": "club night"}``).
    """

    def __init__(
        self,
        ruleset: Ruleset | str,
        players: int,
        seed: Seed = None,
        deck: Sequence[str | Card] | str | None = None,
        dealer: int | None = None,
        headers: Mapping[str, str | int] | None = None,
    ) -> None:
        rules = Ruleset.from_spec_text(ruleset) if isinstance(ruleset, str) else ruleset
        if seed is None:  # a seed of our own, kept, so that the record replays
            seed = int.from_bytes(os.urandom(6), "little")
        try:
            cards = None if deck is None else parse_cards(deck)
        except NotationError as exc:
            raise RulesetError(f"bad arranged deck: {exc}") from None
        self._start = rules.new_game(players=players, seed=seed, deck=cards, dealer=dealer)
        self.ruleset = rules
        self.players = players
        self.seed: int | str = seed if isinstance(seed, str) else int(seed)
        self.deck = cards
        self.dealer = dealer
        self.headers: dict[str, str | int] = dict(headers or {})
        self._states: list[GameState] = [self._start]
        self._history: list[Action] = []

    @classmethod
    def from_record(cls, record: GameRecord) -> Session:
        """A session that has played ``record``'s actions (each checked), to
        resume a saved game; :class:`RecordReplayError` on the first illegal one."""
        session = cls(
            record.ruleset,
            record.players,
            seed=record.seed,
            deck=record.deck,
            dealer=record.dealer,
            headers=dict(record.headers),
        )
        states = list(record.states())
        session._states = states
        session._history = list(record.actions)
        return session

    @property
    def state(self) -> GameState:
        """The current state."""
        return self._states[-1]

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied so far, oldest first."""
        return tuple(self._history)

    @property
    def states(self) -> tuple[GameState, ...]:
        """Every state so far: the deal, then one after each action."""
        return tuple(self._states)

    def apply(self, action: Action | str) -> GameState:
        """Apply ``action`` (an action or its text) to the current state and
        return the new state; an illegal action raises
        :class:`~unorules.IllegalActionError` and changes nothing."""
        new = self.state.apply(action)
        self._states.append(new)
        assert new.last_action is not None
        self._history.append(new.last_action)
        return new

    def undo(self) -> Action:
        """Take back the last action and return it (:class:`SessionError` if there is none)."""
        if not self._history:
            raise SessionError("nothing to undo: no action has been applied")
        self._states.pop()
        return self._history.pop()

    def why_not_take_back(self, seat: int, bots: Collection[int] = ()) -> str | None:
        """Why ``seat`` may not take its last action back now, in words, or ``None``
        when it may (see :meth:`take_back` and :func:`take_back_point`)."""
        try:
            take_back_point(self._states, seat, bots)
        except SessionError as exc:
            return str(exc)
        return None

    def take_back(self, seat: int, bots: Collection[int] = ()) -> tuple[Action, ...]:
        """Take back ``seat``'s last action and the replies of the seats in ``bots`` since, as a
        friendly game allows (the rule is :func:`take_back_point`): the actions taken back, the
        seat's own first; :class:`SessionError` says why not, and changes nothing."""
        try:
            keep = take_back_point(self._states, seat, bots)
        except SessionError as exc:
            raise SessionError(f"cannot take back seat {seat}'s last action: {exc}") from None
        taken = tuple(self._history[keep:])
        del self._states[keep + 1 :]
        del self._history[keep:]
        return taken

    def record(self, *, comments: bool = True) -> GameRecord:
        """The game so far as a :class:`GameRecord` (the result is ``"*"`` until it is over),
        with ``comments`` saying after each action what else it did, in words, as a
        spectator reads it (:func:`comment`)."""
        try:
            spec = self.ruleset.spec_text
        except RulesetError as exc:
            raise SessionError(f"this rule set cannot be named in a record: {exc}") from None
        result, termination = _result_text(self.state)
        return GameRecord(
            ruleset=spec,
            players=self.players,
            actions=tuple(self._history),
            seed=self.seed,
            deck=self.deck,
            dealer=self.dealer,
            result=result,
            termination=termination,
            headers=tuple(self.headers.items()),
            comments=tuple(comment(state) for state in self._states[1:]) if comments else (),
        )


def take_back_point(states: Sequence[GameState], seat: int, bots: Collection[int] = ()) -> int:
    """The rule of a take-back, for every user interface (the terminal's ``undo``, the game
    server's through :func:`unorules.serve.tables.take_back_from`): how many actions of the
    game stay when ``seat`` takes its last action back, with every action taken since by a
    seat in ``bots`` (the bots' replies), or :class:`SessionError` saying why it may not, in
    words.

    ``states`` is the game so far: the deal, then the state after each action (as
    :attr:`Session.states`). A take-back is refused when

    * ``seat`` has taken no action;
    * a seat not in ``bots`` acted after it (another person's action is theirs to keep);
    * it, or a reply since, ended the round (or the game);
    * it, or a reply since, showed ``seat`` a card it had not seen: a card put into its hand (a
      draw, a trade), a hand shown to it (a challenge), cards turned face up from the draw pile
      (an event kind that :attr:`~unorules.EventSpec.reveals` them, a ``draw`` or ``move``
      event naming cards), a new back on the draw pile, or the deck turned over. What was seen
      cannot be unseen.

    What the bots played is not hidden from a person who undoes: their replies are what the
    take-back is for. Cards the bots drew unseen, and a reshuffle nobody saw the order of,
    do not refuse it: the game replays them the same from the same state."""
    last = max((i for i in range(1, len(states)) if _seat_of(states[i]) == seat), default=0)
    if not last:
        raise SessionError("you have taken no action to take back")
    later = (_seat_of(states[i]) for i in range(last + 1, len(states)))
    people = list(dict.fromkeys(s for s in later if s not in bots))
    if people:
        names = [f"seat {s}" for s in people]
        who = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        if bots:
            raise SessionError(f"{who} acted after it: only the bots' replies are taken back with it")
        raise SessionError(f"{who} acted after it: an action can be taken back only before anyone else acts")
    start = states[last - 1]
    if len(states[-1].rounds) != len(start.rounds) or states[-1].is_over:
        raise SessionError("it ended the round" if len(states) == last + 1 else "the round has ended since")
    before = start.view(seat)
    for i in range(last, len(states)):
        after = states[i].view(seat)
        seen = _newly_seen(before, after)
        if seen is not None:
            whose = "it" if i == last else f"seat {_seat_of(states[i])}'s reply"
            raise SessionError(f"{whose} showed you {seen}: what was seen cannot be unseen")
        before = after
    return last - 1


def _seat_of(state: GameState) -> int | None:
    return None if state.last_action is None else state.last_action.seat


def _newly_seen(before: SeatView, after: SeatView) -> str | None:
    """What ``after`` shows its seat that ``before`` did not, in words (see
    :func:`take_back_point`), or ``None``."""
    if Counter(after.hand) - Counter(before.hand):
        return "cards you had not seen (new cards in your hand)"
    for s, shown in after.visible_hands.items():
        if s != after.seat and Counter(shown) - Counter(before.visible_hands.get(s, ())):
            return f"cards of seat {s}'s hand"
    if after.side != before.side:
        return "the other faces of the cards (the deck was turned over)"
    if after.draw_pile_back != before.draw_pile_back:
        return "a new back on the draw pile"
    events = after.rules.events
    for event in after.events:
        if not event.cards:
            continue
        spec = events.get(event.kind)
        if event.kind == "show":
            return "a hand" if event.target is None else f"seat {event.target}'s hand"
        if event.kind == "draw" or (spec is not None and spec.reveals):
            return "cards you had not seen (cards drawn or turned up)"
        if event.kind == "move" and event.value("from") in (DRAW, TAKEN):
            return "cards you had not seen (turned up from the draw pile)"
    return None


def comment(state: GameState) -> str:
    """What the action that led to ``state`` did besides itself, in words, as a spectator
    reads it (cards in notation, sentences joined by "; "): the comment a record writes
    after the action; "" when the action did nothing more than its own words say."""
    view = state.public_view()
    said = Narrator(state.ruleset).step(view.last_action, view.events, own=False)
    return "; ".join(s.render(card=str) for s in said)


def play_bots(
    ruleset: Ruleset,
    bots: Sequence[str],
    *,
    seed: int | str,
    index: int = 0,
    max_actions: int = 1_000_000,
    headers: Mapping[str, str | int] | None = None,
) -> GameRecord:
    """The record of game ``index`` of a bots' run seeded ``seed``, seeded as
    :func:`unorules.sim.play_game` seeds it (the deal from ``f"{seed}/{index}"``,
    the bot of seat ``s`` from ``f"{seed}/{index}/{s}"``), so it is the game the
    simulation played. A game that raises or does not end within
    ``max_actions`` is recorded up to that point, with a ``Failure`` header.
    ``ruleset`` is the rule set, ``bots`` the bot of each seat by name
    (:data:`unorules.bots.BOTS`), ``headers`` more record headers."""
    from unorules.bots import make_bot, next_action

    extra: dict[str, str | int] = {"Bots": ",".join(bots), "Run": f"{seed}", "Game": index}
    extra.update(headers or {})
    session = Session(ruleset, len(bots), seed=f"{seed}/{index}", headers=extra)
    seat_bots = [make_bot(name, seed=f"{seed}/{index}/{s}") for s, name in enumerate(bots)]
    try:
        for _ in range(max_actions):
            if session.state.is_over:
                break
            session.apply(next_action(session.state, seat_bots))
        else:
            if not session.state.is_over:
                session.headers["Failure"] = f"did not end within {max_actions} actions"
    except Exception as exc:  # the simulation reports it too; the record keeps the game up to it
        session.headers["Failure"] = f"{type(exc).__name__}: {exc}"[:500]
    return session.record()

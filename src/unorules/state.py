"""The immutable game state, what each seat may see, and its JSON form.

A :class:`GameState` is a frozen value. ``apply`` returns a new state and
shares every unchanged part (hands, piles, results) with the old one. The
state also offers the *mechanics* plugins build their rules from: moving a
card to the discard pile, drawing with reshuffles, passing the turn, ending a
round. Mechanics know piles and seats, never a rule set.
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from unorules.actions import Action
from unorules.cards import Card, Color
from unorules.errors import (
    NotationError,
    RulesetError,
    SeatError,
    StateFormatError,
    excerpt,
)
from unorules.rng import Rng

if TYPE_CHECKING:
    from unorules.ruleset import Ruleset

__all__ = ["Event", "GameState", "Outcome", "Phase", "RoundResult", "SeatView", "draw_event"]

Value = Any
"""A JSON-able value kept in ``Phase.data`` or ``GameState.extras``: ``None``,
``bool``, ``int``, ``str``, :class:`Card`, :class:`Color`, :class:`Action` or a
tuple of these."""


@attrs.frozen
class Phase:
    """What the seat to move is being asked to do.

    ``name`` is owned by the plugin that set it (``"play"`` is the ordinary
    turn). The other fields carry the decision's data: ``count`` cards to
    draw, a ``card`` (the one just drawn, the Wild Draw Four played), the
    ``seat`` that caused it, a ``color`` (the colour before a Wild Draw Four)
    and free ``data`` for plugins. A ``secret`` phase's card is known only to
    the seat to move (a card just drawn): :meth:`GameState.view` hides it
    from the others.
    """

    name: str
    count: int = 0
    card: Card | None = None
    seat: int | None = None
    color: Color | None = None
    data: tuple[Value, ...] = ()
    secret: bool = False

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_unpickle_phase, attrs.astuple(self, recurse=False))


PLAY = Phase("play")


def _unpickle_phase(*fields: Any) -> Phase:
    """A pickled phase; the ordinary turn comes back as the shared :data:`PLAY`."""
    phase = Phase(*fields)
    return PLAY if phase == PLAY else phase


@attrs.frozen
class Event:
    """Something that happened during the last action, for logs and UIs.

    Typed fields say what happened, so a client can animate it without reading
    text: ``kind`` (see the event catalogue), the acting ``seat``, the
    ``cards`` involved, the ``rule`` id, the ``target`` seat (who was caught,
    who traded hands with whom), a ``count`` (cards drawn, a stack's size), a
    ``color`` (the colour named) and ``data``, plugin-specific values as
    ``(name, value)`` pairs (values as in :data:`Value`; JSON keeps their order).
    ``detail`` and ``str(event)`` are the human rendering.

    ``cards`` are private to ``seat`` when ``private`` is true (cards drawn);
    :meth:`GameState.view` hides them from other seats (the ``count`` stays).
    """

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    rule: str | None = None
    detail: str = ""
    private: bool = False
    target: int | None = None
    count: int | None = None
    color: Color | None = None
    data: tuple[tuple[str, Value], ...] = ()

    def value(self, name: str, default: Value = None) -> Value:
        """The plugin-specific value ``name`` of :attr:`data`, or ``default``."""
        for k, v in self.data:
            if k == name:
                return v
        return default

    def __str__(self) -> str:
        who = "" if self.seat is None else f"seat {self.seat} "
        cards = f" {' '.join(map(str, self.cards))}" if self.cards else ""
        rule = f" ({self.rule})" if self.rule else ""
        detail = f": {self.detail}" if self.detail else ""
        return f"{who}{self.kind}{cards}{detail}{rule}"


@attrs.frozen
class RoundResult:
    """How a round ended: its winner (``None`` if nobody), why, the points
    each seat was given, and the hands left when it ended."""

    number: int
    winner: int | None
    reason: str
    points: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]


@attrs.frozen
class Outcome:
    """How the game ended: the winning seats (one, or a team) and why."""

    winners: tuple[int, ...]
    reason: str

    @property
    def winner(self) -> int | None:
        """The winning seat (the lowest seat of a winning team), or ``None``."""
        return min(self.winners) if self.winners else None


@attrs.frozen(slots=False)  # no slots, like GameState: GameState._view builds a view as one dict
class SeatView:
    """What one seat may know of a game, and nothing more: safe to send to
    that seat's client (``to_json``) or to hand to a bot.

    ``seat`` is ``None`` in a spectator's view (:meth:`GameState.public_view`),
    which holds no hand and no legal actions. Everything else is what every
    player knows: the rule set (``ruleset``, its canonical spec text, and
    ``options``, every option's value), the number of ``players``, hand sizes,
    the discard pile, the draw pile's size, the turn, the pending decision
    (without a card drawn by another seat), scores, UNO calls, results and
    the public part of the plugins' data (``extras``, the keys plugins
    declare in ``Plugin.public_extras``). ``visible_hands`` holds the seat's
    own hand and any hand a plugin shows to it; ``events`` are the last
    action's events with other seats' private cards removed.
    """

    seat: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    visible_hands: Mapping[int, tuple[Card, ...]]
    discard_pile: tuple[Card, ...]
    draw_pile_size: int
    top_card: Card
    color: Color | None
    direction: int
    current_player: int
    dealer: int
    phase: Phase
    scores: tuple[int, ...]
    uno_exposed: tuple[int, ...]
    left: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    legal_actions: tuple[Action, ...]
    last_action: Action | None
    events: tuple[Event, ...]
    is_over: bool
    players: int
    ruleset: str
    """The rule set's canonical spec text (``Ruleset.spec_text``)."""
    options: Mapping[str, Any]
    """Every option of the rule set with its value (defaults included)."""
    uno_declared: tuple[int, ...]
    outcome: Outcome | None
    extras: tuple[tuple[str, Value], ...]
    """The public plugin data: the ``state.extras`` pairs whose keys a plugin declares public."""
    _rules: Ruleset | None = attrs.field(default=None, eq=False, repr=False, alias="rules")

    @property
    def rules(self) -> Ruleset:
        """The rule set of the game (public knowledge: its deck, card points and
        options): the state's own, or for a view read from JSON, the one
        :meth:`Ruleset.from_spec_text` builds from :attr:`ruleset`."""
        rules = self._rules
        if rules is None:
            from unorules.ruleset import Ruleset

            rules = Ruleset.from_spec_text(self.ruleset)
            object.__setattr__(self, "_rules", rules)
        return rules

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over, else ``None``."""
        return None if self.outcome is None else self.outcome.winner

    def extra(self, key: str, default: Value = None) -> Value:
        """The public plugin value stored under ``key``, or ``default``."""
        for k, v in self.extras:
            if k == key:
                return v
        return default

    def to_data(self) -> dict[str, Any]:
        """This view as plain JSON-able data (the ``unorules.view/1`` format,
        described by the view's JSON Schema)."""
        return _view_to_data(self)

    def to_json(self, *, indent: int | None = None) -> str:
        """This view as JSON text, safe to send to the seat's client:
        :meth:`from_json` reads it back as an equal view."""
        return json.dumps(_view_to_data(self), indent=indent)

    @classmethod
    def from_data(cls, data: Any) -> SeatView:
        """Read back :meth:`to_data` output; :class:`StateFormatError` names a bad part."""
        from unorules.ruleset import installed_plugins

        installed_plugins()  # plugins register the card kinds and verbs a view may hold
        return _view_from_data(data)

    @classmethod
    def from_json(cls, text: str) -> SeatView:
        """Read back :meth:`to_json` text; :class:`StateFormatError` names a bad part."""
        try:
            data = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise StateFormatError(f"view JSON is not valid JSON: {exc}") from None
        return cls.from_data(data)


@attrs.frozen(repr=False, slots=False)
class GameState:
    """A moment of a game: hands, piles, turn, scores and the generator's state.

    Build the first state with :meth:`Ruleset.new_game`; get the next with
    :meth:`apply`. Equal states (``==``) play on identically.
    """

    ruleset: Ruleset
    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...]
    """The face-down pile, the next card to draw first."""
    discard_pile: tuple[Card, ...]
    """The face-up pile, its top card last."""
    color: Color | None
    """The colour to match (chosen for wilds); ``None`` until a wild starter's colour is named."""
    direction: int
    current_player: int
    phase: Phase
    dealer: int
    scores: tuple[int, ...]
    uno_declared: tuple[int, ...]
    """Seats that called "UNO" before playing down to one card."""
    uno_exposed: tuple[int, ...]
    """Seats holding one card without having called "UNO", who may still be caught."""
    stalled: int
    """Consecutive turns in which nobody could play or draw (a blocked round ends)."""
    left: tuple[int, ...]
    """Seats that have left the game (an elimination mode)."""
    rounds: tuple[RoundResult, ...]
    outcome: Outcome | None
    rng: int
    extras: tuple[tuple[str, Value], ...]
    """Plugin data, as sorted ``(key, value)`` pairs; use :meth:`extra` and :meth:`with_extra`."""
    last_action: Action | None
    events: tuple[Event, ...]
    _legal: tuple[Action, ...] | None = attrs.field(default=None, eq=False, init=False)

    # -- derived, read-only ---------------------------------------------------

    @property
    def players(self) -> int:
        """The number of seats (including seats that have left)."""
        return len(self.hands)

    @property
    def top_card(self) -> Card:
        """The card on top of the discard pile."""
        return self.discard_pile[-1]

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over, else ``None``."""
        return None if self.outcome is None else self.outcome.winner

    @property
    def active_seats(self) -> tuple[int, ...]:
        """The seats still in the game, in seat order."""
        left = self.left
        n = len(self.hands)
        if not left:  # the usual case: one shared tuple per player count
            return _ALL_SEATS.get(n) or tuple(range(n))
        return tuple(s for s in range(n) if s not in left)

    @property
    def round_number(self) -> int:
        """The number of the round being played, from 1."""
        return len(self.rounds) + 1

    def extra(self, key: str, default: Value = None) -> Value:
        """The plugin value stored under ``key``, or ``default``."""
        for k, v in self.extras:
            if k == key:
                return v
        return default

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The fields in order, without the cache of legal actions; the rule set
        # pickles as its spec (see Ruleset), cards and actions as interned values.
        fields = self.__dict__
        return (_unpickle_state, tuple(fields[name] for name in _PICKLED_FIELDS))

    def __repr__(self) -> str:
        return (
            f"<GameState round {self.round_number}, seat {self.current_player} to "
            f"{self.phase.name}, top {self.top_card} {self.color}, "
            f"hands {[len(h) for h in self.hands]}>"
        )

    # -- the public game API ---------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Every legal action of every seat (or only ``seat``'s), in a fixed order.

        Out-of-turn actions (UNO calls, catches, jump-ins) are listed too;
        each action names its actor. Empty only once the game is over. A seat
        that does not exist raises :class:`SeatError` (a ``ValueError``).
        """
        if seat is not None and (seat.__class__ is not int or not 0 <= seat < len(self.hands)):
            seat = self._seat(seat)
        # Fields read from the dict: an attribute of a state is a generic look-up
        # (CPython 3.11 does not specialise attributes kept in key-sharing dicts).
        fields = self.__dict__
        legal: tuple[Action, ...] | None = fields["_legal"]
        if legal is None:
            if fields["outcome"] is not None:
                legal = ()
            else:
                rules: Ruleset = fields["ruleset"]
                single = rules._legal_single
                try:
                    if single is not None:  # the usual case, one implementation
                        found = single(self)
                        legal = () if found is None else tuple(found)
                    elif rules._legal_callers is None:
                        legal = rules._legal_all(self)
                    else:  # by phase (Plugin.legal_phases)
                        name = fields["phase"].name
                        caller = rules._legal_callers.get(name)
                        if caller is None:
                            caller = rules._legal_caller(name)
                        legal = caller(self)
                except Exception as exc:
                    rules._annotate(exc, "listing the legal actions")
                    raise
            # The cache (excluded from ==): a dict store, cheaper than object.__setattr__.
            fields["_legal"] = legal
        if seat is None:
            return legal
        return tuple(a for a in legal if a.seat == seat)

    def apply(self, action: Action | str) -> GameState:
        """Return the state after ``action`` (an :class:`Action` or its text).

        Raises :class:`IllegalActionError` (a ``ValueError``) naming the rule
        when the action is not legal, :class:`NotationError` for text that is
        not an action and ``TypeError`` for anything but an action or text;
        this state is never changed.
        """
        if action.__class__ is not Action:
            if isinstance(action, str):
                action = Action.parse(action, default_seat=self.current_player)
            elif not isinstance(action, Action):
                raise TypeError(
                    f"apply takes an Action or action text such as '1: play R7', not {type(action).__name__}"
                )
        old = self.__dict__  # fields read from the dict (see legal_actions)
        legal: tuple[Action, ...] | None = old["_legal"]
        if legal is None:
            legal = self.legal_actions()
        rules: Ruleset = old["ruleset"]
        if action not in legal:
            raise rules._refuse(self, action)
        appliers = rules._direct_apply  # Plugin.direct_appliers by verb: empty, or a shortcut
        if appliers:
            direct = appliers.get(action.verb)
            if direct is not None:
                try:
                    done = direct(self, action)
                except Exception as exc:
                    rules._annotate(exc, f"applying {action}")
                    raise
                if done is not None:
                    return done
        # The state handed to apply_action: this one with last_action set and no
        # events yet (built inline: this runs on every action).
        fields = old.copy()
        fields["last_action"] = action
        fields["events"] = ()
        fields["_legal"] = None
        handed: GameState = _new(GameState)  # _from_fields inlined: this runs on every action
        _set_dict(handed, fields)
        by_verb = rules._apply_callers
        if by_verb is None:
            apply = rules._apply
        else:  # by verb (Plugin.apply_verbs)
            apply = by_verb.get(action.verb) or rules._apply_caller(action.verb)
        try:
            new = apply(handed, action)
        except Exception as exc:
            rules._annotate(exc, f"applying {action}")
            raise
        if new is None:
            raise RuntimeError(f"no plugin carried out the legal action {action}")
        return new

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` would be accepted by :meth:`apply`."""
        if not isinstance(action, Action | str):
            raise TypeError(f"is_legal takes an Action or action text, not {type(action).__name__}")
        if isinstance(action, str):
            try:
                action = Action.parse(action, default_seat=self.current_player)
            except NotationError:
                return False
        return action in self.legal_actions()

    def seats_to_act(self) -> tuple[int, ...]:
        """The seats that have a legal action now, in the order a server should
        offer them: the seat to move first (when it has an action), then the
        seats that may act out of turn (UNO calls, catches, jump-ins), in turn
        order from the seat to move (following the direction of play).

        Empty once the game is over. A seat's own actions are
        ``legal_actions(seat)`` (or ``view(seat).legal_actions``).
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if not legal:
            return ()
        first = legal[0].seat
        for action in legal:  # the usual case, one seat: a loop without a set or a frame
            if action.seat != first:
                break
        else:
            return (first,)
        current = self.current_player
        seats = {a.seat for a in legal}
        n = len(self.hands)
        d = self.direction
        return tuple(sorted(seats, key=lambda s: ((s - current) * d) % n))

    def _seat(self, seat: object) -> int:
        """``seat`` checked: an existing seat number, else ``SeatError``/``TypeError``."""
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral):
            raise TypeError(f"a seat is an integer, not {type(seat).__name__}")
        index = int(seat)
        n = len(self.hands)
        if not 0 <= index < n:
            raise SeatError(f"no seat {index} in a {n}-seat game: seats are 0 to {n - 1}")
        return index

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know of this state (:class:`SeatError` for a seat
        that does not exist)."""
        if seat.__class__ is not int or not 0 <= seat < len(self.hands):
            seat = self._seat(seat)
        return self._view(seat)

    def public_view(self) -> SeatView:
        """What a spectator may know: a :class:`SeatView` with ``seat=None``,
        no hand, no legal actions, no hand shown and no private card."""
        return self._view(None)

    def _view(self, seat: int | None) -> SeatView:
        # Built field by field into the view's ``__dict__`` (see _new_view): a
        # view is built on every step of an RL environment, and attrs' frozen
        # ``__init__`` with its 27 keyword arguments cost about as much as
        # everything else here; a dict display of 27 entries is built entry by
        # entry, growing three times, where a copy of _VIEW_FIELDS is one copy.
        rules = self.ruleset
        hands = self.hands
        if seat is None:
            hand: tuple[Card, ...] = ()
            shown: dict[int, tuple[Card, ...]] = {}
            mine: tuple[Action, ...] = ()
        else:
            hand = hands[seat]
            shown = {seat: hand}
            if rules._shows_hands:
                try:
                    visible = rules._visible_hands(self, seat)
                except Exception as exc:
                    rules._annotate(exc, f"showing seat {seat} its view")
                    raise
                for other in visible:
                    shown[other] = hands[other]
            legal = self._legal
            if legal is None:
                legal = self.legal_actions()
            mine = legal  # the usual case: every legal action is this seat's (or there is none)
            for action in legal:
                if action.seat != seat:
                    mine = tuple(a for a in legal if a.seat == seat)
                    break
        events = self.events
        for event in events:
            if event.private and event.seat != seat:
                events = tuple(e if not e.private or e.seat == seat else _hidden(e) for e in events)
                break
        phase = self.phase
        if phase.secret and (seat is None or self.current_player != seat):
            phase = attrs.evolve(phase, card=None)
        extras = self.extras
        if extras:
            public = rules.public_extras
            extras = tuple(item for item in extras if item[0] in public)
        outcome = self.outcome
        fields = _VIEW_FIELDS.copy()  # every key in place: the stores below neither insert nor resize
        fields["seat"] = seat
        fields["hand"] = hand
        fields["hand_sizes"] = tuple(map(len, hands))
        fields["visible_hands"] = shown
        fields["discard_pile"] = self.discard_pile
        fields["draw_pile_size"] = len(self.draw_pile)
        fields["top_card"] = self.discard_pile[-1]
        fields["color"] = self.color
        fields["direction"] = self.direction
        fields["current_player"] = self.current_player
        fields["dealer"] = self.dealer
        fields["phase"] = phase
        fields["scores"] = self.scores
        fields["uno_exposed"] = self.uno_exposed
        fields["left"] = self.left
        fields["rounds"] = self.rounds
        fields["legal_actions"] = mine
        fields["last_action"] = self.last_action
        fields["events"] = events
        fields["is_over"] = outcome is not None
        fields["players"] = len(hands)
        fields["ruleset"] = _spec_text(rules)
        fields["options"] = rules.options
        fields["uno_declared"] = self.uno_declared
        fields["outcome"] = outcome
        fields["extras"] = extras
        fields["_rules"] = rules
        return _new_view(fields)

    # -- mechanics for plugins -------------------------------------------------

    def replace(self, **changes: Any) -> GameState:
        """A copy with some fields changed (fast ``attrs.evolve`` without validation)."""
        # States are frozen attrs classes *without* slots so that copying one is a
        # dict copy (about 4x faster than setting 20 slots); CPython keeps the
        # copied dicts key-sharing, so they stay small. A misspelt field adds a
        # key, which the length check catches without a set operation per copy.
        fields = self.__dict__.copy()
        fields.update(changes)
        if len(fields) != _FIELD_COUNT:
            raise _unknown_fields(changes)
        fields["_legal"] = None  # _from_fields inlined (hot)
        state: GameState = _new(GameState)
        _set_dict(state, fields)
        return state

    def with_extra(self, key: str, value: Value) -> GameState:
        """A copy with plugin value ``key`` set (``None`` removes it)."""
        items = dict(self.extras)
        if value is None:
            items.pop(key, None)
        else:
            items[key] = value
        return self.replace(extras=tuple(sorted(items.items())))

    def next_seat(self, seat: int | None = None, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` (default: the current player)
        in the direction of play, skipping seats that have left."""
        if seat is None:
            seat = self.current_player
        n = len(self.hands)
        d = self.direction
        left = self.left
        for _ in range(steps):
            seat = (seat + d) % n
            while left and seat in left:
                seat = (seat + d) % n
        return seat

    def pass_turn(self, steps: int = 1, seat: int | None = None, **changes: Any) -> GameState:
        """Give the turn to the seat ``steps`` after ``seat`` (default: the
        current player), in the ordinary ``"play"`` phase."""
        if seat is None:
            seat = self.current_player
        # Without seats that left, the next seat is plain arithmetic.
        seat = self.next_seat(seat, steps) if self.left else (seat + self.direction * steps) % len(self.hands)
        fields = self.__dict__.copy()
        if changes:
            if "current_player" in changes or "phase" in changes:
                raise TypeError("pass_turn sets current_player and phase itself")
            fields.update(changes)
            if len(fields) != _FIELD_COUNT:
                raise _unknown_fields(changes)
        fields["current_player"] = seat
        fields["phase"] = PLAY
        fields["_legal"] = None  # _from_fields inlined (hot)
        state: GameState = _new(GameState)
        _set_dict(state, fields)
        return state

    def move_to_discard(self, seat: int, card: Card, color: Color | None = None) -> GameState:
        """Move one ``card`` from ``seat``'s hand onto the discard pile and set the
        colour to match (``color`` for wilds, else the card's own)."""
        hands = self.hands
        hand = hands[seat]
        i = hand.index(card)
        new_hand = hand[:i] + hand[i + 1 :]
        return self.replace(
            hands=hands[:seat] + (new_hand,) + hands[seat + 1 :],
            discard_pile=self.discard_pile + (card,),
            color=card.color if color is None else color,
        )

    def with_hand(self, seat: int, hand: Iterable[Card]) -> GameState:
        """A copy in which ``seat`` holds ``hand``: :meth:`set_hands` for one seat
        (so a seat whose hand changed loses its UNO call and its exposure)."""
        return self.set_hands({seat: hand})

    def set_hands(self, hands: Mapping[int, Iterable[Card]], **changes: Any) -> GameState:
        """A copy in which each seat of ``hands`` holds the cards given (the other
        seats keep theirs).

        This is the mechanic for every effect that changes hands other than by
        playing a card or drawing one: hands traded, passed on or dealt again,
        cards discarded or taken by an effect. UNO calls follow the cards
        (R-UNO-CALL, R-UNO-CATCH): every seat whose hand changed

        * loses its call (``uno_declared``): the call was about the hand it held;
        * is no longer open to a catch (``uno_exposed``): only a seat that played
          down to one card without calling, and still holds that card, may be
          caught; a seat that is handed a one-card hand did not play down to it.

        A seat given the very cards it held (an equal tuple) has not changed;
        when no seat changed, the state itself is returned.

        ``changes`` are fields to set afterwards, in the same copy:
        ``state.set_hands(hands, events=...)`` gives what
        ``state.set_hands(hands).replace(events=...)`` would.
        """
        fields = self.__dict__
        old: tuple[tuple[Card, ...], ...] = fields["hands"]
        new = list(old)
        changed: list[int] = []
        for seat, cards in hands.items():
            if not 0 <= seat < len(old):
                raise ValueError(f"set_hands: no seat {seat} in a {len(old)}-seat game")
            hand = tuple(cards)
            if hand != old[seat]:
                new[seat] = hand
                changed.append(seat)
        if not changed:
            return self.replace(**changes) if changes else self
        copy = fields.copy()
        copy["hands"] = tuple(new)
        declared: tuple[int, ...] = fields["uno_declared"]
        if declared and any(s in changed for s in declared):
            copy["uno_declared"] = tuple(s for s in declared if s not in changed)
        exposed: tuple[int, ...] = fields["uno_exposed"]
        if exposed and any(s in changed for s in exposed):
            copy["uno_exposed"] = tuple(s for s in exposed if s not in changed)
        if changes:
            copy.update(changes)
            if len(copy) != _FIELD_COUNT:
                raise _unknown_fields(changes)
        copy["_legal"] = None  # _from_fields inlined
        state: GameState = _new(GameState)
        _set_dict(state, copy)
        return state

    def move_hands(self, dest: Mapping[int, int], **changes: Any) -> GameState:
        """A copy in which the hand of each seat ``s`` of ``dest`` has moved to seat
        ``dest[s]`` (a trade is ``{a: b, b: a}``; passing every hand on is a cycle).

        The seats given must be the seats receiving (``dest`` permutes them), so
        no hand is lost. UNO calls follow the cards as in :meth:`set_hands`;
        ``changes`` are fields set afterwards in the same copy, as there.
        """
        if sorted(dest) != sorted(dest.values()):
            raise ValueError(
                f"move_hands: {dict(dest)} does not permute its seats: every seat giving a hand "
                "must receive one, and no seat may receive two"
            )
        old = self.hands
        return self.set_hands({now: old[seat] for seat, now in dest.items()}, **changes)

    def add_events(self, *events: Event) -> GameState:
        """A copy with ``events`` added to the last action's events."""
        return self.replace(events=self.events + events)

    def draw(
        self, seat: int, count: int = 1, reason: str = "turn", **changes: Any
    ) -> tuple[GameState, tuple[Card, ...]]:
        """``seat`` draws ``count`` cards; returns the new state and the cards drawn.

        When the draw pile runs out, the discard pile except its top card is
        shuffled into a new draw pile with the state's generator
        (R-TURN-RESHUFFLE); when both are exhausted, fewer cards (possibly none)
        are drawn. A seat that draws a card is no longer open to an UNO catch
        (``uno_exposed``: it holds more than the one card it played down to;
        R-UNO-CATCH). Then the ``on_draw`` hook may replace the result.

        ``changes`` are fields to set afterwards: ``state.draw(seat, 1,
        current_player=2)`` gives what ``drawn.replace(current_player=2)`` of
        the drawn state would (the ``on_draw`` hook sees the state before
        them), in one copy when no plugin implements ``on_draw``.
        """
        pile = self.draw_pile
        rng = self.rng
        discard = self.discard_pile
        events = self.events
        if count <= len(pile):
            drawn, pile = pile[:count], pile[count:]
        else:
            drawn = pile
            need = count - len(drawn)
            pile = ()
            if len(discard) > 1:
                rest = list(discard[:-1])
                gen = Rng(rng)
                gen.shuffle(rest)
                rng = gen.state
                discard = discard[-1:]
                events += (
                    Event("reshuffle", None, (), "R-TURN-RESHUFFLE", f"{len(rest)} cards", count=len(rest)),
                )
                drawn += tuple(rest[:need])
                pile = tuple(rest[need:])
        hands = self.hands
        event = draw_event(seat, drawn, reason)
        fields = self.__dict__.copy()
        fields["hands"] = hands[:seat] + (hands[seat] + drawn,) + hands[seat + 1 :]
        fields["draw_pile"] = pile
        fields["discard_pile"] = discard
        fields["rng"] = rng
        fields["events"] = events + (event,)
        exposed = self.uno_exposed
        if drawn and exposed and seat in exposed:
            fields["uno_exposed"] = tuple(s for s in exposed if s != seat)
        rules = self.ruleset
        if not rules._watch_draws:  # no plugin implements on_draw
            if changes:
                fields.update(changes)
                if len(fields) != _FIELD_COUNT:
                    raise _unknown_fields(changes)
            fields["_legal"] = None  # _from_fields inlined (hot)
            state: GameState = _new(GameState)
            _set_dict(state, fields)
            return state, drawn
        state = _from_fields(fields)
        hooked = rules._on_draw(state, seat, drawn, reason)
        if hooked is not None:
            state = hooked
        return (state.replace(**changes) if changes else state), drawn

    def shuffle_into_draw_pile(self, cards: Iterable[Card]) -> GameState:
        """A copy with ``cards`` added to the draw pile and the pile shuffled."""
        pile = list(self.draw_pile) + list(cards)
        gen = Rng(self.rng)
        gen.shuffle(pile)
        return self.replace(draw_pile=tuple(pile), rng=gen.state)

    def play_actions(self, seat: int, card: Card) -> tuple[Action, ...]:
        """Every ``play`` action of ``seat`` for ``card``: one per colour for
        wilds, one per other seat still in the game for cards that need a target."""
        rules = self.ruleset
        players = len(self.hands)
        # Hot path: a hit in the rule set's cache of interned play actions.
        actions = rules._play_cache.get((seat, card, players))
        if actions is None:
            actions = rules._play_actions(seat, card, players)
        left = self.left
        if left and card in rules._targeted:
            actions = tuple(a for a in actions if a.target not in left)
        return actions

    def play_actions_for(self, seat: int, cards: Iterable[Card]) -> list[Action]:
        """The ``play`` actions of ``seat`` for each distinct card of ``cards``, in
        order: :meth:`play_actions` of each card once, concatenated.

        One call for all the cards a seat may play (one table look-up per card),
        for ``legal_actions`` hooks.
        """
        acts: list[Action] = []
        fields = self.__dict__  # fields read from the dict (see legal_actions)
        if fields["left"]:
            for card in dict.fromkeys(cards):
                acts += self.play_actions(seat, card)
            return acts
        rules: Ruleset = fields["ruleset"]
        players = len(fields["hands"])
        table = rules._play_tables.get((seat, players)) or rules._play_table(seat, players)
        for card in dict.fromkeys(cards):
            found = table.get(card)
            # A card outside the deck (a plugin's own) is looked up the slow way.
            acts += rules._play_actions(seat, card, players) if found is None else found
        return acts

    def end_round(self, winner: int | None, reason: str = "out") -> GameState:
        """End the round: score it, let plugins react, then end the game or deal
        the next round (the next dealer is the seat after this one's)."""
        return self.ruleset._end_round(self, winner, reason)

    # -- serialisation -----------------------------------------------------------

    def to_json(self, *, indent: int | None = None) -> str:
        """This state as JSON text; :meth:`from_json` gives back an equal state."""
        return json.dumps(_state_to_data(self), indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes, ruleset: Ruleset | None = None) -> GameState:
        """Rebuild a state from :meth:`to_json` text.

        The rule set is rebuilt from the plugin names and options recorded in
        the text (plugins found through entry points) unless ``ruleset`` is
        given. The text may come from anywhere: malformed text, and a state
        that makes no sense under its rule set (see
        :func:`~unorules.validate_state`), raise :class:`StateFormatError`
        naming the bad part.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateFormatError(f"state JSON is not valid JSON: {exc}") from None
        except RecursionError:
            raise StateFormatError("state JSON is nested too deeply") from None
        except (ValueError, TypeError) as exc:  # e.g. an integer over Python's digit limit
            raise StateFormatError(f"state JSON cannot be read: {exc}") from None
        state = _state_from_data(data, ruleset)
        state.validate()
        return state

    def validate(self) -> None:
        """Check that this state makes sense under its rule set; raise
        :class:`StateFormatError` naming the first field that does not (see
        :func:`~unorules.validate_state`). :meth:`from_json` calls it; a server
        that builds states itself may too."""
        from unorules.validate import validate_state

        validate_state(self)


_new = object.__new__
_set_dict: Any = vars(GameState)["__dict__"].__set__
"""Sets a new state's ``__dict__``: the descriptor's own setter, without the
look-up that ``object.__setattr__(state, "__dict__", fields)`` does first."""
_set_view_dict: Any = vars(SeatView)["__dict__"].__set__
_FIELD_NAMES = frozenset(f.name for f in attrs.fields(GameState) if f.init)
_ALL_SEATS = {n: tuple(range(n)) for n in range(1, 17)}
_ONE_CARD_DRAWS: dict[tuple[int, Card, str], Event] = {}
_HIDDEN_DRAWS: dict[int, tuple[Event, Event]] = {}  # id of a shared draw event: it and its hidden form
_FIELD_COUNT = len(attrs.fields(GameState))  # the keys of a state's __dict__, _legal included


_PICKLED_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.init)


def _spec_text(rules: Ruleset) -> str:
    """The rule set's spec text; only the plugin names if an option of a
    third-party plugin has no text form (its values are still in ``options``)."""
    try:
        return rules.spec_text
    except RulesetError:
        return ",".join(rules.names)


def _unpickle_state(*values: Any) -> GameState:
    """A state from its pickled field values (see ``GameState.__reduce__``)."""
    return _from_fields(dict(zip(_PICKLED_FIELDS, values, strict=True)))


def _hidden(e: Event) -> Event:
    """``e`` without its private cards, as other seats see it (built directly:
    ``attrs.evolve`` costs several times more, and views are built on every RL step).

    The hidden form of a shared one-card draw event (see :meth:`GameState.draw`)
    is kept beside it: every other seat's view of most draws needs one."""
    found = _HIDDEN_DRAWS.get(id(e))
    if found is not None and found[0] is e:
        return found[1]
    hidden = Event(e.kind, e.seat, (), e.rule, e.detail, e.private, e.target, e.count, e.color, e.data)
    seat = e.seat
    if seat is not None and len(e.cards) == 1 and _ONE_CARD_DRAWS.get((seat, e.cards[0], e.detail)) is e:
        _HIDDEN_DRAWS[id(e)] = (e, hidden)  # the pair keeps e alive, so its id stays its own
    return hidden


_VIEW_FIELDS: dict[str, Any] = dict.fromkeys(f.name for f in attrs.fields(SeatView))
"""Every attribute of a view (``_rules`` by its attribute name), in order, set to ``None``."""


def _new_view(fields: dict[str, Any]) -> SeatView:
    """A view whose ``__dict__`` is ``fields``, a copy of :data:`_VIEW_FIELDS`
    with every value set (a view is a frozen attrs class without slots, like a
    state, so that it is built as one dict)."""
    view: SeatView = _new(SeatView)
    _set_view_dict(view, fields)
    return view


def draw_event(seat: int, cards: tuple[Card, ...], reason: str) -> Event:
    """The ``draw`` event :meth:`GameState.draw` records when ``seat`` draws
    ``cards`` for ``reason`` (``"turn"``, ``"penalty"``, ...), for plugins that
    move cards from the draw pile themselves. One-card draws share their events."""
    if len(cards) == 1:
        key = (seat, cards[0], reason)
        event = _ONE_CARD_DRAWS.get(key)
        if event is None:
            event = Event("draw", seat, cards, None, reason, True, count=1, data=(("reason", reason),))
            if len(_ONE_CARD_DRAWS) < 10_000:
                _ONE_CARD_DRAWS[key] = event
        return event
    return Event("draw", seat, cards, None, reason, True, count=len(cards), data=(("reason", reason),))


def _from_fields(fields: dict[str, Any]) -> GameState:
    """A new state whose ``__dict__`` is ``fields`` (a copy of another state's,
    changed), with no legal actions cached. Every copy on the hot path ends here."""
    fields["_legal"] = None
    state: GameState = _new(GameState)
    _set_dict(state, fields)
    return state


def _unknown_fields(changes: Mapping[str, Any]) -> TypeError:
    return TypeError(f"GameState has no field {sorted(set(changes) - _FIELD_NAMES)[0]!r}")


# -- JSON ---------------------------------------------------------------------

FORMAT = "unorules.state/1"


def encode_value(value: Value) -> Any:
    """Encode a plugin value (see :data:`Value`) for JSON."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Card):
        return {"card": str(value)}
    if isinstance(value, Color):
        return {"color": value.value}
    if isinstance(value, Action):
        return {"action": str(value)}
    if isinstance(value, tuple):
        return {"tuple": [encode_value(v) for v in value]}
    raise TypeError(
        f"cannot store {value!r} in a game state: use None, bool, int, str, Card, Color, Action or tuples"
    )


def decode_value(data: Any, where: str, depth: int = 0) -> Value:
    """Decode a value written by :func:`encode_value`."""
    if data is None or isinstance(data, bool | int | str):
        return data
    if isinstance(data, dict) and len(data) == 1:
        ((tag, inner),) = data.items()
        if tag == "card":
            return _card(inner, where)
        if tag == "color":
            return _color(inner, where)
        if tag == "action":
            return _action(inner, where)
        if tag == "tuple" and isinstance(inner, list):
            if depth >= _MAX_VALUE_DEPTH:
                raise StateFormatError(f"{where}: tuples nested more than {_MAX_VALUE_DEPTH} deep", where)
            return tuple(decode_value(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(inner))
    raise StateFormatError(f"{where}: cannot decode {excerpt(data)}", where)


_MAX_VALUE_DEPTH = 16


def _card(text: Any, where: str) -> Card:
    if not isinstance(text, str):
        raise StateFormatError(f"{where}: expected card text, got {excerpt(text)}", where)
    try:
        return Card.parse(text)
    except NotationError as exc:
        raise StateFormatError(f"{where}: {exc}", where) from None


def _cards(items: Any, where: str, limit: int = 1000) -> tuple[Card, ...]:
    _list(items, where, limit, "cards")
    return tuple(_card(c, f"{where}[{i}]") for i, c in enumerate(items))


def _color(text: Any, where: str) -> Color:
    try:
        return Color.parse(text) if isinstance(text, str) else Color(text)
    except (NotationError, ValueError):
        raise StateFormatError(f"{where}: bad colour {excerpt(text)}", where) from None


def _action(text: Any, where: str) -> Action:
    if not isinstance(text, str):
        raise StateFormatError(f"{where}: expected action text, got {excerpt(text)}", where)
    try:
        return Action.parse(text)
    except NotationError as exc:
        raise StateFormatError(f"{where}: {exc}", where) from None


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateFormatError(f"{where}: expected an integer, got {excerpt(value)}", where)
    return value


def _ints(items: Any, where: str, limit: int = 16) -> tuple[int, ...]:
    _list(items, where, limit, "integers")
    return tuple(_int(v, f"{where}[{i}]") for i, v in enumerate(items))


def _list(items: Any, where: str, limit: int, what: str) -> list[Any]:
    """``items`` if it is a list of at most ``limit`` items (sizes are checked
    before anything is built from them)."""
    if not isinstance(items, list):
        raise StateFormatError(f"{where}: expected a list of {what}, got {excerpt(items)}", where)
    if len(items) > limit:
        raise StateFormatError(f"{where}: {len(items)} {what}, more than {limit}", where)
    return items


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise StateFormatError(f"{where}: expected text, got {excerpt(value)}", where)
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise StateFormatError(f"{where}: expected true or false, got {excerpt(value)}", where)
    return value


def _opt(value: Any, convert: Any, where: str) -> Any:
    return None if value is None else convert(value, where)


def _phase_data(p: Phase) -> dict[str, Any]:
    return {
        "name": p.name,
        "count": p.count,
        "card": None if p.card is None else str(p.card),
        "seat": p.seat,
        "color": None if p.color is None else p.color.value,
        "data": [encode_value(v) for v in p.data],
        "secret": p.secret,
    }


def _phase_from(data: Any, where: str, limit: int = 1000) -> Phase:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise StateFormatError(f"{where}: expected an object with a 'name'", where)
    items = _list(data.get("data", []), f"{where}.data", limit, "values")
    return Phase(
        data["name"],
        _int(data.get("count", 0), f"{where}.count"),
        _opt(data.get("card"), _card, f"{where}.card"),
        _opt(data.get("seat"), _int, f"{where}.seat"),
        _opt(data.get("color"), _color, f"{where}.color"),
        tuple(decode_value(v, f"{where}.data[{i}]") for i, v in enumerate(items)),
        _bool(data.get("secret", False), f"{where}.secret"),
    )


def _event_data(e: Event) -> dict[str, Any]:
    return {
        "kind": e.kind,
        "seat": e.seat,
        "cards": [str(c) for c in e.cards],
        "rule": e.rule,
        "detail": e.detail,
        "private": e.private,
        "target": e.target,
        "count": e.count,
        "color": None if e.color is None else e.color.value,
        "data": {k: encode_value(v) for k, v in e.data},
    }


def _event_from(data: Any, where: str, limit: int = 1000) -> Event:
    # The typed fields (target, count, color, data) may be missing: JSON written
    # before they existed reads as events without them.
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise StateFormatError(f"{where}: expected an object with a 'kind'", where)
    values = data.get("data", {})
    if not isinstance(values, dict):
        raise StateFormatError(f"{where}.data: expected an object, got {excerpt(values)}", f"{where}.data")
    if len(values) > limit:
        raise StateFormatError(f"{where}.data: {len(values)} values, more than {limit}", f"{where}.data")
    return Event(
        data["kind"],
        _opt(data.get("seat"), _int, f"{where}.seat"),
        _cards(data.get("cards", []), f"{where}.cards", limit),
        _opt(data.get("rule"), _text, f"{where}.rule"),
        _text(data.get("detail", ""), f"{where}.detail"),
        _bool(data.get("private", False), f"{where}.private"),
        _opt(data.get("target"), _int, f"{where}.target"),
        _opt(data.get("count"), _int, f"{where}.count"),
        _opt(data.get("color"), _color, f"{where}.color"),
        tuple((str(k), decode_value(v, f"{where}.data.{excerpt(k, 40)[1:-1]}")) for k, v in values.items()),
    )


def _round_data(r: RoundResult) -> dict[str, Any]:
    return {
        "number": r.number,
        "winner": r.winner,
        "reason": r.reason,
        "points": list(r.points),
        "hands": [[str(c) for c in h] for h in r.hands],
    }


def _rounds_from(rounds: Any, where: str = "rounds") -> tuple[RoundResult, ...]:
    if not isinstance(rounds, list):
        raise StateFormatError(f"{where}: expected a list")
    try:
        return tuple(
            RoundResult(
                _int(r["number"], f"{where}[{i}].number"),
                _opt(r["winner"], _int, f"{where}[{i}].winner"),
                str(r["reason"]),
                _ints(r["points"], f"{where}[{i}].points"),
                tuple(_cards(h, f"{where}[{i}].hands[{j}]") for j, h in enumerate(r["hands"])),
            )
            for i, r in enumerate(rounds)
        )
    except (KeyError, TypeError) as exc:
        raise StateFormatError(f"{where}: missing or bad field {exc}") from None


def _outcome_data(o: Outcome | None) -> dict[str, Any] | None:
    return None if o is None else {"winners": list(o.winners), "reason": o.reason}


def _outcome_from(data: Any, where: str = "outcome") -> Outcome | None:
    if data is None:
        return None
    try:
        return Outcome(_ints(data["winners"], f"{where}.winners"), str(data["reason"]))
    except (KeyError, TypeError) as exc:
        raise StateFormatError(f"{where}: missing or bad field {exc}") from None


VIEW_FORMAT = "unorules.view/1"


def _view_to_data(v: SeatView) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for name, value in v.options.items():
        try:
            options[name] = encode_value(value)
        except TypeError:  # a third-party option value that is no plugin value: its text
            options[name] = str(value)
    return {
        "format": VIEW_FORMAT,
        "seat": v.seat,
        "players": v.players,
        "ruleset": v.ruleset,
        "options": options,
        "hand": [str(c) for c in v.hand],
        "hand_sizes": list(v.hand_sizes),
        "visible_hands": {str(s): [str(c) for c in hand] for s, hand in sorted(v.visible_hands.items())},
        "discard_pile": [str(c) for c in v.discard_pile],
        "draw_pile_size": v.draw_pile_size,
        "top_card": str(v.top_card),
        "color": None if v.color is None else v.color.value,
        "direction": v.direction,
        "current_player": v.current_player,
        "dealer": v.dealer,
        "phase": _phase_data(v.phase),
        "scores": list(v.scores),
        "uno_declared": list(v.uno_declared),
        "uno_exposed": list(v.uno_exposed),
        "left": list(v.left),
        "rounds": [_round_data(r) for r in v.rounds],
        "outcome": _outcome_data(v.outcome),
        "is_over": v.is_over,
        "legal_actions": [str(a) for a in v.legal_actions],
        "last_action": None if v.last_action is None else str(v.last_action),
        "events": [_event_data(e) for e in v.events],
        "extras": {k: encode_value(x) for k, x in v.extras},
    }


def _view_from_data(data: Any) -> SeatView:
    if not isinstance(data, dict):
        raise StateFormatError("view JSON must be an object")
    if data.get("format") != VIEW_FORMAT:
        raise StateFormatError(f"format: expected {VIEW_FORMAT!r}, got {data.get('format')!r}")

    def need(key: str) -> Any:
        if key not in data:
            raise StateFormatError(f"{key}: missing")
        return data[key]

    shown = need("visible_hands")
    if not isinstance(shown, dict):
        raise StateFormatError("visible_hands: expected an object")
    visible: dict[int, tuple[Card, ...]] = {}
    for key, hand in shown.items():
        try:
            seat = int(key)
        except ValueError:
            raise StateFormatError(f"visible_hands: {key!r} is not a seat number") from None
        visible[seat] = _cards(hand, f"visible_hands.{key}")
    options = need("options")
    extras = need("extras")
    events = need("events")
    legal = need("legal_actions")
    ruleset = need("ruleset")
    for key, value, kind in (
        ("options", options, dict),
        ("extras", extras, dict),
        ("events", events, list),
        ("legal_actions", legal, list),
        ("ruleset", ruleset, str),
    ):
        if not isinstance(value, kind):
            raise StateFormatError(f"{key}: expected {'text' if kind is str else kind.__name__}")
    is_over = need("is_over")
    if not isinstance(is_over, bool):
        raise StateFormatError(f"is_over: expected true or false, got {is_over!r}")
    return SeatView(
        seat=_opt(need("seat"), _int, "seat"),
        hand=_cards(need("hand"), "hand"),
        hand_sizes=_ints(need("hand_sizes"), "hand_sizes"),
        visible_hands=visible,
        discard_pile=_cards(need("discard_pile"), "discard_pile"),
        draw_pile_size=_int(need("draw_pile_size"), "draw_pile_size"),
        top_card=_card(need("top_card"), "top_card"),
        color=_opt(need("color"), _color, "color"),
        direction=_int(need("direction"), "direction"),
        current_player=_int(need("current_player"), "current_player"),
        dealer=_int(need("dealer"), "dealer"),
        phase=_phase_from(need("phase"), "phase"),
        scores=_ints(need("scores"), "scores"),
        uno_exposed=_ints(need("uno_exposed"), "uno_exposed"),
        left=_ints(need("left"), "left"),
        rounds=_rounds_from(need("rounds")),
        legal_actions=tuple(_action(a, f"legal_actions[{i}]") for i, a in enumerate(legal)),
        last_action=_opt(need("last_action"), _action, "last_action"),
        events=tuple(_event_from(e, f"events[{i}]") for i, e in enumerate(events)),
        is_over=is_over,
        players=_int(need("players"), "players"),
        ruleset=ruleset,
        options={str(k): decode_value(v, f"options.{k}") for k, v in options.items()},
        uno_declared=_ints(need("uno_declared"), "uno_declared"),
        outcome=_outcome_from(need("outcome")),
        extras=tuple(sorted((str(k), decode_value(v, f"extras.{k}")) for k, v in extras.items())),
    )


def _state_to_data(s: GameState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "ruleset": s.ruleset.spec(),
        "hands": [[str(c) for c in h] for h in s.hands],
        "draw_pile": [str(c) for c in s.draw_pile],
        "discard_pile": [str(c) for c in s.discard_pile],
        "color": None if s.color is None else s.color.value,
        "direction": s.direction,
        "current_player": s.current_player,
        "phase": _phase_data(s.phase),
        "dealer": s.dealer,
        "scores": list(s.scores),
        "uno_declared": list(s.uno_declared),
        "uno_exposed": list(s.uno_exposed),
        "stalled": s.stalled,
        "left": list(s.left),
        "rounds": [_round_data(r) for r in s.rounds],
        "outcome": _outcome_data(s.outcome),
        "rng": f"{s.rng:016x}",
        "extras": {k: encode_value(v) for k, v in s.extras},
        "last_action": None if s.last_action is None else str(s.last_action),
        "events": [_event_data(e) for e in s.events],
    }


def _state_from_data(data: Any, ruleset: Ruleset | None) -> GameState:
    from unorules.ruleset import Ruleset
    from unorules.validate import MAX_ROUNDS, max_events

    if not isinstance(data, dict):
        raise StateFormatError("state JSON must be an object")
    if data.get("format") != FORMAT:
        raise StateFormatError(f"format: expected {FORMAT!r}, got {excerpt(data.get('format'))}", "format")

    def need(key: str) -> Any:
        if key not in data:
            raise StateFormatError(f"{key}: missing", key)
        return data[key]

    if ruleset is None:
        ruleset = Ruleset.from_spec(need("ruleset"))
    # Lists are measured before anything is built from them: no list of a state
    # is longer than the deck (cards), the seats (seat numbers) or the size limits.
    deck = len(ruleset.deck)
    hands = need("hands")
    if not isinstance(hands, list) or not 2 <= len(hands) <= 10:
        raise StateFormatError("hands: expected a list of 2 to 10 hands", "hands")
    players = len(hands)
    rng_text = need("rng")
    if not isinstance(rng_text, str) or not 1 <= len(rng_text) <= 16:
        raise StateFormatError(f"rng: expected 1 to 16 hexadecimal digits, got {excerpt(rng_text)}", "rng")
    try:
        rng = int(rng_text, 16)
    except ValueError:
        raise StateFormatError(f"rng: expected hexadecimal text, got {excerpt(rng_text)}", "rng") from None
    rounds = _list(need("rounds"), "rounds", MAX_ROUNDS, "rounds")
    outcome = need("outcome")
    extras = need("extras")
    if not isinstance(extras, dict):
        raise StateFormatError("extras: expected an object", "extras")
    if len(extras) > 1000:
        raise StateFormatError(f"extras: {len(extras)} keys, more than 1000", "extras")
    direction = _int(need("direction"), "direction")
    if direction not in (1, -1):
        raise StateFormatError(f"direction: expected 1 or -1, got {direction}", "direction")
    current = _int(need("current_player"), "current_player")
    if not 0 <= current < players:
        raise StateFormatError(f"current_player: {current} is not a seat of {players}", "current_player")
    discard = _cards(need("discard_pile"), "discard_pile", deck)
    if not discard:
        raise StateFormatError("discard_pile: must hold at least the top card", "discard_pile")
    round_results = []
    for i, r in enumerate(rounds):
        where = f"rounds[{i}]"
        if not isinstance(r, dict) or not {"number", "winner", "reason", "points", "hands"} <= r.keys():
            raise StateFormatError(
                f"{where}: expected an object with number, winner, reason, points, hands", where
            )
        round_hands = _list(r["hands"], f"{where}.hands", players, "hands")
        round_results.append(
            RoundResult(
                _int(r["number"], f"{where}.number"),
                _opt(r["winner"], _int, f"{where}.winner"),
                _text(r["reason"], f"{where}.reason"),
                _ints(r["points"], f"{where}.points", players),
                tuple(_cards(h, f"{where}.hands[{j}]", deck) for j, h in enumerate(round_hands)),
            )
        )
    if outcome is None:
        out = None
    elif isinstance(outcome, dict) and {"winners", "reason"} <= outcome.keys():
        out = Outcome(
            _ints(outcome["winners"], "outcome.winners", players), _text(outcome["reason"], "outcome.reason")
        )
    else:
        raise StateFormatError("outcome: expected null or an object with winners and reason", "outcome")
    scores = _ints(need("scores"), "scores", players)
    if len(scores) != players:
        raise StateFormatError(f"scores: expected {players} scores, got {len(scores)}", "scores")
    last = need("last_action")
    limit = max_events(ruleset)
    events = _list(need("events"), "events", limit, "events")
    return GameState(
        ruleset=ruleset,
        hands=tuple(_cards(h, f"hands[{i}]", deck) for i, h in enumerate(hands)),
        draw_pile=_cards(need("draw_pile"), "draw_pile", deck),
        discard_pile=discard,
        color=_opt(need("color"), _color, "color"),
        direction=direction,
        current_player=current,
        phase=_phase_from(need("phase"), "phase", deck),
        dealer=_int(need("dealer"), "dealer"),
        scores=scores,
        uno_declared=_ints(need("uno_declared"), "uno_declared", players),
        uno_exposed=_ints(need("uno_exposed"), "uno_exposed", players),
        stalled=_int(need("stalled"), "stalled"),
        left=_ints(need("left"), "left", players),
        rounds=tuple(round_results),
        outcome=out,
        rng=rng,
        extras=tuple(
            sorted((str(k), decode_value(v, f"extras.{excerpt(k, 40)[1:-1]}")) for k, v in extras.items())
        ),
        last_action=_opt(last, _action, "last_action"),
        events=tuple(_event_from(e, f"events[{i}]", deck) for i, e in enumerate(events)),
    )

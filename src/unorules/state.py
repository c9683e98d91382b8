"""The immutable game state and what each seat may see of it.

A :class:`GameState` is a frozen value: ``state.apply(action)`` returns the
next state and never changes the one it was given; unchanged parts (hands,
piles, results) are shared between them. Rules never write states: the rule
set makes one :class:`~unorules.Draft` of the next state per action, every
hook writes through the draft's mechanics, and the draft is frozen into the
next state once (see :mod:`unorules.draft`).

This module knows cards, piles, seats and turns, never a rule set's rules:
listing and applying actions is asked of the state's rule set through its
public methods, and the JSON form and validation live in the outer layers
(:mod:`unorules.codec`, :mod:`unorules.validate`), which lend the state their
functions when the package is imported.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

import attrs

from unorules._declared import Position as _Fields
from unorules._mypyc import mypyc_attr
from unorules.actions import Action
from unorules.cards import Card, Color
from unorules.errors import IllegalActionError, NotationError, RulesetError, SeatError
from unorules.values import (
    PLAY,
    Event,
    GoingOut,
    Outcome,
    Phase,
    RoundResult,
    Value,
    draw_event,
    hidden,
)

if TYPE_CHECKING:
    from unorules.ruleset import Ruleset

__all__ = [
    "PLAY",
    "Event",
    "GameState",
    "GoingOut",
    "Outcome",
    "Phase",
    "Position",
    "RoundResult",
    "SeatView",
    "Value",
    "draw_event",
]

_ALL_SEATS = {n: tuple(range(n)) for n in range(1, 17)}
_CALLS = tuple(Action.of(s, "uno") for s in range(16))
_CATCHES = tuple(tuple(Action.of(s, "catch", None, None, t) for t in range(16)) for s in range(16))


@mypyc_attr(native_class=False)  # the base of GameState, an attrs class, and of Draft
class Position(_Fields):
    """What a :class:`GameState` and a :class:`~unorules.Draft` both answer:
    facts derived from the fields of a moment of a game. Each subclass holds
    the fields themselves (their types: :class:`unorules._declared.Position`)."""

    __slots__ = ()

    @property
    def players(self) -> int:
        """The number of seats (seats that have left included)."""
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
        outcome = self.outcome
        return None if outcome is None else outcome.winner

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
        """The plugin value stored under ``key`` in :attr:`extras`, or ``default``."""
        for k, v in self.extras:
            if k == key:
                return v
        return default

    def face(self, card: Card) -> Card:
        """The face ``card`` shows here: the card itself, or for a card printed
        on both sides (:meth:`Card.two_faced <unorules.Card.two_faced>`) its
        face of the :attr:`~GameState.side` in play."""
        faces = card.faces
        return faces[self.side] if faces else card

    def back(self, card: Card) -> Card | None:
        """The face ``card`` turns away here (its face of the side not in
        play), or ``None`` for a card printed on one side."""
        faces = card.faces
        return faces[1 - self.side] if faces else None

    def hand_index(self, seat: int, card: Card, nth: int | None = None) -> int:
        """Where in ``seat``'s hand the card an action names is: ``card``
        itself (its first copy), or, when ``card`` is a face the hand's
        two-faced cards show, the ``nth`` of the cards showing it (counted
        from 1 in hand order; ``None``: the first). ``ValueError`` if the
        hand holds no such card."""
        hand = self.hands[seat]
        if nth is None and card in hand:
            return hand.index(card)
        wanted = 1 if nth is None else nth
        side = self.side
        for i, held in enumerate(hand):
            faces = held.faces
            if faces and faces[side] is card:
                wanted -= 1
                if wanted == 0:
                    return i
        which = "" if nth is None else f" {nth}"
        raise ValueError(f"seat {seat} holds no{which} card showing {card}")

    # -- the questions every rule shares (see "The questions every rule shares" in
    # unorules.hookspecs): asked through the rule set's hooks, with the core's defaults.

    def matches(self, seat: int, card: Card) -> bool:
        """Whether ``card`` (a face a two-faced card shows) may be laid on the discard pile
        now by ``seat`` on an ordinary turn, by the rule of its own kind: the
        ``card_matches`` hook, else the core's rule (R-TURN-MATCH, R-TURN-WILD): a wild
        always, a coloured card of the colour to match or of the top card's kind. Bans
        are not included: see :meth:`forbidden` and :meth:`may_play`."""
        ask = self.ruleset.hooks.card_matches
        if ask is not None:
            answer = ask(self, seat, card)
            if answer is not None:
                return bool(answer)
        color = card.color
        if color is None or color is self.color:
            return True
        top = self.discard_pile[-1]
        faces = top.faces
        return card.kind == (faces[self.side] if faces else top).kind

    def forbidden(self, seat: int, card: Card) -> str | None:
        """The rule that keeps ``seat`` from playing ``card`` now, or ``None``: the
        ``play_forbidden`` hook (a last card that may not be a last card, ...). Every
        plugin that offers a play asks it, whatever made the play possible (a match,
        a stack, a jump-in, a deflection)."""
        ask = self.ruleset.hooks.play_forbidden
        return None if ask is None else ask(self, seat, card)

    def may_play(self, seat: int, card: Card) -> bool:
        """Whether ``seat`` may play ``card`` on an ordinary turn: it :meth:`matches`
        and nothing :meth:`forbids <forbidden>` it."""
        return self.matches(seat, card) and self.forbidden(seat, card) is None

    def turn_draw_refused(self, seat: int, playable: bool) -> str | None:
        """The rule that keeps ``seat`` from drawing for its turn now, or ``None``: the
        ``refuse_turn_draw`` hook (forced play, a hand cap). ``playable`` says whether
        the seat has a card it may play. A seat refused the draw that cannot play
        passes instead."""
        ask = self.ruleset.hooks.refuse_turn_draw
        return None if ask is None else ask(self, seat, playable)

    def may_call_uno(self, seat: int, playable: bool = True) -> bool:
        """Whether ``seat`` may call UNO now, before laying its next-to-last card: it holds
        two cards, has not called, and the rule set's :attr:`~unorules.Ruleset.uno_call`
        allows a call then (``"two-cards"``, R-UNO-CALL; ``"playable"`` only when
        ``playable``, the seat having a card to lay now). A late call, once the seat holds
        one card, is one of :meth:`uno_window_actions`."""
        if len(self.hands[seat]) != 2 or seat in self.uno_declared:
            return False
        call = self.ruleset.uno_call
        return call == "two-cards" or (call == "playable" and playable)

    def uno_window_actions(self) -> list[Action]:
        """The late calls (R-UNO-SELF) and catches (R-UNO-CATCH) open now: for each seat
        left holding one card without having called (:attr:`uno_exposed`), its own
        ``uno`` and every other seat's ``catch``; none when the rule set's
        :attr:`~unorules.Ruleset.uno_call` is ``"silent"``."""
        exposed = self.uno_exposed
        if not exposed or self.ruleset.uno_call == "silent":
            return []
        acts: list[Action] = []
        seats = self.active_seats
        for target in exposed:
            acts.append(_CALLS[target])
            acts += [_CATCHES[other][target] for other in seats if other != target]
        return acts

    def hand_value(self, seat: int) -> int:
        """The points of ``seat``'s hand by the faces it shows (the ``card_points`` hook):
        what it scores at the end of a round (R-SCORE)."""
        hand = self.hands[seat]
        if not self.ruleset.two_faced:
            return self.ruleset.hand_points(hand)
        points = self.ruleset.card_points
        side = self.side
        return sum(points(card.faces[side]) for card in hand)

    def next_seat(self, seat: int | None = None, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` (default: the seat to move)
        in the direction of play, skipping seats that have left."""
        if seat is None:
            seat = self.current_player
        n = len(self.hands)
        d = self.direction
        left = self.left
        if not left:
            return (seat + d * steps) % n
        for _ in range(steps):
            seat = (seat + d) % n
            while seat in left:
                seat = (seat + d) % n
        return seat


def _no_backs() -> Any:
    """A view's default :attr:`SeatView.backs`, an empty dict. (``factory=dict`` would
    type the field's default as a dict, which the compiled build checks at run time
    and attrs' marker object is not: see :mod:`unorules._mypyc`.)"""
    return {}


@attrs.frozen(slots=False)  # no slots, like GameState: a view is built as one dict
class SeatView:
    """What one seat may know of a game, and nothing more: safe to send to
    that seat's client (``to_json``) or to hand to a bot.

    ``seat`` is ``None`` in a spectator's view (:meth:`GameState.public_view`),
    which holds no hand and no legal actions. Everything else is what every
    player knows.
    """

    seat: int | None
    """The seat whose view this is, or ``None`` for a spectator."""
    hand: tuple[Card, ...]
    """The seat's own hand (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    visible_hands: Mapping[int, tuple[Card, ...]]
    """The seat's own hand and every other hand a plugin shows it (``visible_hands`` hook)."""
    discard_pile: tuple[Card, ...]
    """The face-up pile, its top card last."""
    draw_pile_size: int
    """How many cards the face-down pile holds."""
    top_card: Card
    """The card on top of the discard pile."""
    color: Color | None
    """The colour to match (``None`` until a wild starter's colour is named)."""
    direction: int
    """1 when play goes to higher seat numbers, -1 after an odd number of Reverses."""
    current_player: int
    """The seat to move."""
    dealer: int
    """The seat that dealt this round."""
    phase: Phase
    """The pending decision, without the card another seat just drew."""
    scores: tuple[int, ...]
    """Each seat's score."""
    uno_exposed: tuple[int, ...]
    """Seats holding one card without having called "UNO", who may still be caught."""
    left: tuple[int, ...]
    """Seats that have left the game."""
    rounds: tuple[RoundResult, ...]
    """The results of the rounds played."""
    legal_actions: tuple[Action, ...]
    """This seat's legal actions (none for a spectator)."""
    last_action: Action | None
    """The action that led to this moment."""
    events: tuple[Event, ...]
    """The last action's events, other seats' private cards removed."""
    is_over: bool
    """Whether the game has ended."""
    players: int
    """The number of seats."""
    ruleset: str
    """The rule set's canonical spec text (``Ruleset.spec_text``)."""
    options: Mapping[str, Any]
    """Every option of the rule set with its value (defaults included)."""
    uno_declared: tuple[int, ...]
    """Seats that called "UNO" for the card they play next."""
    outcome: Outcome | None
    """How the game ended, once it has."""
    extras: tuple[tuple[str, Value], ...]
    """The public plugin data: the ``state.extras`` pairs whose keys a plugin declares public."""
    side: int = 0
    """Which face of every two-faced card is up (:attr:`GameState.side`); 0
    for a deck printed on one side. Every card of the view is the face it
    shows: :attr:`hand`, the piles, the events, the phase."""
    backs: Mapping[int, tuple[Card, ...]] = attrs.field(factory=_no_backs)
    """For a deck of two-faced cards: the faces turned away (the backs) of the
    hands this seat sees the backs of (the ``visible_backs`` hook: holding a
    two-faced card shows its back to the table), by seat, in hand order."""
    draw_pile_back: Card | None = None
    """For a deck of two-faced cards: the face turned up on top of the draw
    pile (the other face of the card to be drawn next), which every seat sees;
    ``None`` otherwise or with the pile empty."""
    _rules: Ruleset | None = attrs.field(default=None, eq=False, repr=False, alias="rules")

    @property
    def rules(self) -> Ruleset:
        """The rule set of the game (public knowledge: its deck, card points and
        options): the state's own, or for a view read from JSON, the one
        ``Ruleset.from_spec_text`` builds from :attr:`ruleset`."""
        rules = self._rules
        if rules is None:
            rules = _outer("ruleset_from_spec_text")(self.ruleset)
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
        data: dict[str, Any] = _outer("view_to_data")(self)
        return data

    def to_json(self, *, indent: int | None = None) -> str:
        """This view as JSON text, safe to send to the seat's client (indented by
        ``indent`` spaces, or on one line): :meth:`from_json` reads it back as an
        equal view."""
        text: str = _outer("view_to_json")(self, indent)
        return text

    @classmethod
    def from_data(cls, data: Any) -> SeatView:
        """Read back :meth:`to_data` output (``data``); :class:`StateFormatError`
        names a bad part."""
        view: SeatView = _outer("view_from_data")(data)
        return view

    @overload
    @classmethod
    def from_json(cls, text: str) -> SeatView: ...

    @overload
    @classmethod
    def from_json(cls, text: bytes) -> SeatView: ...

    @classmethod
    def from_json(cls, text: Any) -> SeatView:  # Any: see legal_actions
        """Read back :meth:`to_json` text; :class:`StateFormatError` names a bad part."""
        view: SeatView = _outer("view_from_json")(text)
        return view


@attrs.frozen(repr=False, slots=False)
class GameState(Position):
    """A moment of a game: hands, piles, turn, scores and the generator's state.

    Build the first state with :meth:`Ruleset.new_game`; get the next with
    :meth:`apply`. Equal states (``==``) play on identically. States are
    frozen attrs classes without slots: copying one is a dict copy, and a
    draft is frozen into a state by handing it its dict.
    """

    # Quoted: the compiled build would otherwise read Ruleset's class before its module runs.
    ruleset: "Ruleset"  # noqa: UP037
    """The rule set the game is played under."""
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's hand, by seat (a seat that has left holds none)."""
    draw_pile: tuple[Card, ...]
    """The face-down pile, the next card to draw first."""
    discard_pile: tuple[Card, ...]
    """The face-up pile, its top card last."""
    color: Color | None
    """The colour to match (chosen for wilds); ``None`` until a wild starter's colour is named."""
    direction: int
    """1 when play goes to higher seat numbers, -1 after an odd number of Reverses."""
    current_player: int
    """The seat to move: the seat whose decision :attr:`phase` is."""
    phase: Phase
    """What the seat to move is asked to do (see :class:`Phase`)."""
    dealer: int
    """The seat that dealt this round."""
    scores: tuple[int, ...]
    """Each seat's score so far."""
    uno_declared: tuple[int, ...]
    """Seats that called "UNO" for the card they play next."""
    uno_exposed: tuple[int, ...]
    """Seats holding one card without having called "UNO", who may still be caught."""
    stalled: int
    """Consecutive turns in which nobody could play or draw (a blocked round ends)."""
    left: tuple[int, ...]
    """Seats that have left the game (an elimination mode)."""
    rounds: tuple[RoundResult, ...]
    """The results of the rounds played so far."""
    outcome: Outcome | None
    """How the game ended, or ``None`` while it goes on."""
    rng: int
    """The random generator's state (see :class:`~unorules.Rng`): the game replays from it."""
    extras: tuple[tuple[str, Value], ...]
    """Plugin data, as sorted ``(key, value)`` pairs; read it with :meth:`extra`."""
    last_action: Action | None
    """The action that led to this state (``None`` for a fresh deal)."""
    events: tuple[Event, ...]
    """What happened during that action, in order."""
    side: int = 0
    """Which face of every two-faced card is up (see :meth:`face`): 0, the
    first face, when a round is dealt; 1 once the cards were turned over
    (:meth:`Draft.turn_over <unorules.Draft.turn_over>`). Always 0 for a
    deck printed on one side."""
    _legal: tuple[Action, ...] | None = attrs.field(default=None, eq=False, init=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The fields in order, without the cache of legal actions; the rule set
        # pickles as its spec (see Ruleset), cards and actions as interned values.
        fields = self.__dict__
        return (_unpickle_state, tuple(fields[name] for name in _PICKLED_FIELDS))

    def __copy__(self) -> GameState:
        return self  # a frozen value: a copy is the value itself

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self

    def __repr__(self) -> str:
        return (
            f"<GameState round {self.round_number}, seat {self.current_player} to "
            f"{self.phase.name}, top {self.top_card} {self.color}, "
            f"hands {[len(h) for h in self.hands]}>"
        )

    # -- the game API ---------------------------------------------------------

    # A seat is SupportsIndex (a numpy integer is a seat) and an action Action | str
    # (overloads): the checks below say what is wrong with anything else, which a
    # compiled build would refuse before them with its own words.
    def legal_actions(self, seat: SupportsIndex | None = None) -> tuple[Action, ...]:
        """Every legal action of every seat (or only ``seat``'s), in a fixed order.

        Out-of-turn actions (UNO calls, catches, jump-ins) are listed too;
        each action names its actor. Empty only once the game is over. A seat
        that does not exist raises :class:`SeatError` (a ``ValueError``).
        Listed once per state (the state keeps the list).
        """
        if seat is not None and (seat.__class__ is not int or not 0 <= int(seat) < len(self.hands)):
            seat = self._seat(seat)
        fields = self.__dict__
        legal: tuple[Action, ...] | None = fields["_legal"]
        if legal is None:
            if fields["outcome"] is not None:
                legal = ()
            else:
                rules: Ruleset = fields["ruleset"]
                try:
                    found = rules.hooks.legal_actions(self)
                except Exception as exc:
                    rules.annotate(exc, "listing the legal actions")
                    raise
                legal = found if found.__class__ is tuple else () if found is None else tuple(found)
            fields["_legal"] = legal  # the cache, excluded from ==
        if seat is None:
            return legal
        return tuple(a for a in legal if a.seat == seat)

    @overload
    def apply(self, action: Action) -> GameState: ...

    @overload
    def apply(self, action: str) -> GameState: ...

    def apply(self, action: Any) -> GameState:
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
        fields = self.__dict__
        legal: tuple[Action, ...] | None = fields["_legal"]
        if legal is None:
            legal = self.legal_actions()
        rules: Ruleset = fields["ruleset"]
        if action not in legal:
            raise rules.refusal(self, action)
        try:
            return rules.carry_out(self, action)
        except Exception as exc:
            rules.annotate(exc, f"applying {action}")
            raise

    @overload
    def is_legal(self, action: Action) -> bool: ...

    @overload
    def is_legal(self, action: str) -> bool: ...

    def is_legal(self, action: Any) -> bool:
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
        """The seats that have a legal action now, in the order a host asks them.

        **The seats that may act out of turn come first** (UNO calls, catches,
        jump-ins, in turn order from the seat after the seat to move), **then
        the seat to move**: its action closes their windows (a jump-in, a
        catch is possible only until the next seat acts), so a host that asks
        each seat in this order and applies the first action it is given lets
        every seat use what the rules allow. The seat to move comes last;
        when it has no action (a phase in which another seat must answer),
        it is left out.

        Empty once the game is over. A seat's own actions are
        ``legal_actions(seat)`` (or ``view(seat).legal_actions``).
        """
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
        # Turn order from the seat after the seat to move; the seat to move (0) last.
        # (No lambda: the compiled build's classes of states take no closures.)
        return tuple(s for _, s in sorted((((s - current) * d) % n or n, s) for s in seats))

    def out_of_turn_seats(self) -> tuple[int, ...]:
        """The seats other than the seat to move that have a legal action now
        (an UNO call, a catch, a jump-in), in the order of :meth:`seats_to_act`."""
        current = self.current_player
        return tuple(s for s in self.seats_to_act() if s != current)

    @overload
    def apply_for(self, seat: SupportsIndex, action: Action) -> GameState: ...

    @overload
    def apply_for(self, seat: SupportsIndex, action: str) -> GameState: ...

    def apply_for(self, seat: SupportsIndex, action: Any) -> GameState:
        """:meth:`apply` for a host that acts on behalf of ``seat``: text
        without a seat prefix is ``seat``'s action, and an action of another
        seat is refused with an :class:`IllegalActionError` (a client must
        never act for another seat); this state is never changed."""
        seat = self._seat(seat)
        if isinstance(action, str):
            action = Action.parse(action, default_seat=seat)
        if isinstance(action, Action) and action.seat != seat:
            raise IllegalActionError(f"{action}: seat {seat} cannot act for seat {action.seat}")
        return self.apply(action)

    def play_actions(self, seat: int, card: Card) -> tuple[Action, ...]:
        """Every ``play`` action of ``seat`` for ``card``: one per colour for
        wilds, one per other seat still in the game for cards that need a target."""
        rules = self.ruleset
        actions = rules.play_actions(seat, card, len(self.hands))
        left = self.left
        if left and rules.needs_target(card):
            actions = tuple(a for a in actions if a.target not in left)
        return actions

    def play_actions_for(self, seat: int, cards: Any) -> list[Action]:
        """The ``play`` actions of ``seat`` for each distinct card of ``cards``
        (an iterable), in order: :meth:`play_actions` of each card once,
        concatenated; one call for all the cards a seat may play."""
        acts: list[Action] = []
        if self.left:
            for card in dict.fromkeys(cards):
                acts += self.play_actions(seat, card)
            return acts
        rules = self.ruleset
        players = len(self.hands)
        table = rules.play_table(seat, players)
        for card in dict.fromkeys(cards):
            found = table.get(card)
            acts += rules.play_actions(seat, card, players) if found is None else found
        return acts

    def _seat(self, seat: object) -> int:
        """``seat`` checked: an existing seat number, else ``SeatError``/``TypeError``."""
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral):
            raise TypeError(f"a seat is an integer, not {type(seat).__name__}")
        index = int(seat)
        n = len(self.hands)
        if not 0 <= index < n:
            raise SeatError(f"no seat {index} in a {n}-seat game: seats are 0 to {n - 1}")
        return index

    def view(self, seat: SupportsIndex) -> SeatView:
        """What ``seat`` may know of this state (:class:`SeatError` for a seat
        that does not exist)."""
        index = int(seat) if seat.__class__ is int else -1
        if not 0 <= index < len(self.hands):
            index = self._seat(seat)
        return self._view(index)

    def public_view(self) -> SeatView:
        """What a spectator may know: a :class:`SeatView` with ``seat=None``,
        no hand, no legal actions, no hand shown and no private card."""
        return self._view(None)

    def _view(self, seat: int | None) -> SeatView:
        # Built field by field into the view's ``__dict__`` (see _new_view): a
        # view is built on every step of an RL environment.
        rules = self.ruleset
        hands = self.hands
        if seat is None:
            hand: tuple[Card, ...] = ()
            shown: dict[int, tuple[Card, ...]] = {}
            mine: tuple[Action, ...] = ()
        else:
            hand = hands[seat]
            shown = {seat: hand}
            for other in rules.visible_hands(self, seat):
                shown[other] = hands[other]
            legal = self.legal_actions()
            mine = legal  # the usual case: every legal action is this seat's (or there is none)
            for action in legal:
                if action.seat != seat:
                    mine = tuple(a for a in legal if a.seat == seat)
                    break
        events = self.events
        for event in events:
            if event.private and (event.seat != seat or seat is None):
                # private cards are seen by the event's seat alone (by nobody when it has none)
                events = tuple(
                    e if not e.private or (e.seat == seat and seat is not None) else hidden(e) for e in events
                )
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
        fields["side"] = self.side
        fields["backs"] = {}
        fields["draw_pile_back"] = None
        fields["_rules"] = rules
        if rules.two_faced:
            _show_faces(self, seat, fields)
        view: SeatView = _new(SeatView)
        _set_view_dict(view, fields)
        return view

    def replace(self, **changes: Any) -> GameState:
        """A copy with some fields changed, for arranging a position (tests,
        scenarios, a server restoring a table). Rules never call it: they
        write through the :class:`~unorules.Draft` their hooks are given."""
        fields = self.__dict__.copy()
        fields.update(changes)
        if len(fields) != _FIELD_COUNT:
            raise TypeError(f"GameState has no field {sorted(set(changes) - _FIELD_NAMES)[0]!r}")
        return from_fields(fields)

    # -- serialisation (lent by the outer layers) ---------------------------------

    def to_json(self, *, indent: int | None = None) -> str:
        """This state as JSON text (indented by ``indent`` spaces, or on one line);
        :meth:`from_json` gives back an equal state."""
        text: str = _outer("state_to_json")(self, indent)
        return text

    @overload
    @classmethod
    def from_json(cls, text: str, ruleset: Ruleset | None = None) -> GameState: ...

    @overload
    @classmethod
    def from_json(cls, text: bytes, ruleset: Ruleset | None = None) -> GameState: ...

    @classmethod
    def from_json(cls, text: Any, ruleset: Ruleset | None = None) -> GameState:  # Any: see legal_actions
        """Rebuild a state from :meth:`to_json` text.

        The rule set is rebuilt from the plugin names and options recorded in
        the text (plugins found through entry points) unless ``ruleset`` is
        given. The text may come from anywhere: malformed text, and a state
        that makes no sense under its rule set (see
        :func:`~unorules.validate_state`), raise :class:`StateFormatError`
        naming the bad part.
        """
        state: GameState = _outer("state_from_json")(text, ruleset)
        return state

    def validate(self) -> None:
        """Check that this state makes sense under its rule set; raise
        :class:`StateFormatError` naming the first field that does not (see
        :func:`~unorules.validate_state`). :meth:`from_json` calls it; a server
        that builds states itself may too."""
        _outer("validate_state")(self)


_new = object.__new__
_set_dict: Callable[[GameState, dict[str, Any]], None] = vars(GameState)["__dict__"].__set__
"""Sets a new state's ``__dict__``: the descriptor's own setter."""
_set_view_dict: Callable[[SeatView, dict[str, Any]], None] = vars(SeatView)["__dict__"].__set__
_FIELD_NAMES = frozenset(f.name for f in attrs.fields(GameState) if f.init)
_FIELD_COUNT = len(attrs.fields(GameState))  # the keys of a state's __dict__, _legal included
_PICKLED_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.init)
_VIEW_FIELDS: dict[str, Any] = dict.fromkeys(f.name for f in attrs.fields(SeatView))
"""Every attribute of a view (``_rules`` by its attribute name), in order, set to ``None``."""


def from_fields(fields: dict[str, Any]) -> GameState:
    """A new state whose ``__dict__`` is ``fields`` (every field of a state,
    ``_legal`` included), with no legal actions cached; the dict becomes the
    state's own. The one place states are made from fields (drafts, copies,
    unpickling)."""
    fields["_legal"] = None
    state: GameState = _new(GameState)
    _set_dict(state, fields)
    return state


def _show_faces(state: GameState, seat: int | None, fields: dict[str, Any]) -> None:
    """Turn the view ``fields`` of ``seat`` in ``state`` (a deck of two-faced
    cards, ``Ruleset.two_faced``) into what the seat sees: every card as the
    face it shows, the backs of the hands the ``visible_backs`` hook names,
    and the back on top of the draw pile."""
    side = state.side

    def face(card: Card) -> Card:
        faces = card.faces
        return faces[side] if faces else card

    def faced(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(map(face, cards))

    def value(item: Value) -> Value:
        if isinstance(item, Card):
            return face(item)
        if isinstance(item, tuple):
            return tuple(value(v) for v in item)
        return item

    fields["hand"] = faced(fields["hand"])
    fields["visible_hands"] = {s: faced(cards) for s, cards in fields["visible_hands"].items()}
    fields["discard_pile"] = faced(fields["discard_pile"])
    fields["top_card"] = face(fields["top_card"])
    phase: Phase = fields["phase"]
    if phase.card is not None:
        fields["phase"] = attrs.evolve(phase, card=face(phase.card))
    fields["events"] = tuple(
        attrs.evolve(e, cards=faced(e.cards), data=tuple((k, value(v)) for k, v in e.data))
        for e in fields["events"]
    )
    fields["rounds"] = tuple(attrs.evolve(r, hands=tuple(map(faced, r.hands))) for r in fields["rounds"])
    fields["extras"] = tuple((k, value(v)) for k, v in fields["extras"])
    hands = state.hands
    other = 1 - side
    fields["backs"] = {
        s: tuple(c.faces[other] for c in hands[s]) for s in sorted(state.ruleset.visible_backs(state, seat))
    }
    pile = state.draw_pile
    if pile:
        fields["draw_pile_back"] = pile[0].faces[other]


def _unpickle_state(*values: Any) -> GameState:
    """A state from its pickled field values (see ``GameState.__reduce__``)."""
    return from_fields(dict(zip(_PICKLED_FIELDS, values, strict=True)))


def _spec_text(rules: Ruleset) -> str:
    """The rule set's spec text; only the plugin names if an option of a
    third-party plugin has no text form (its values are still in ``options``)."""
    try:
        return rules.spec_text
    except RulesetError:
        return ",".join(rules.names)


# -- what the outer layers lend the state layer ---------------------------------------------------

_OUTER: dict[str, Callable[..., Any]] = {}


def lend(name: str, function: Callable[..., Any]) -> None:
    """Called by an outer layer when it is imported, to give the state layer
    a function it offers its users without depending on that layer
    (``GameState.to_json`` is :mod:`unorules.codec`'s, ``GameState.validate``
    :mod:`unorules.validate`'s)."""
    _OUTER[name] = function


def _outer(name: str) -> Callable[..., Any]:
    try:
        return _OUTER[name]
    except KeyError:  # only when a module was imported around the package, never through it
        raise RuntimeError(f"{name} is not available: import unorules first") from None

"""Semantic validation of game states: does a state make sense under its rule set?

:meth:`GameState.from_json <unorules.GameState.from_json>` checks the shape of
the JSON (types, required fields); :func:`validate_state` checks its *sense*,
so that a state read from outside (a saved game, a client's message) can
neither crash nor stall the library later. A server that builds states itself
may call it too. The core checks what it owns:

* seats: between 2 and 10, the current player, the dealer, the seats that
  left, called UNO or are exposed, the phase's seat, the winners: each a seat
  of the game (distinct where it is a set); the current player and the UNO
  seats still in the game; two seats in play unless the game is over;
* numbers: the direction (1 or -1), the side in play (0, or 1 for a deck of
  two-faced cards), ``stalled`` (0 to the number of seats),
  scores and points (at most :data:`MAX_SCORE` either way), the generator's
  state (64 bits), ``phase.count`` (0 to :data:`MAX_COUNT`: a stack of draw
  cards has no bound of its own, it may recycle cards through reshuffles and
  penalty draws, and a draw stops when both piles are empty);
* cards: every card a card of the rule set's deck, and the hands, the piles
  and the cards plugins set aside (:meth:`Plugin.set_aside_cards
  <unorules.hookspecs.set_aside_cards>`) together exactly the deck;
* declarations: the phase's name declared by a plugin of the rule set
  (:attr:`Plugin.phases <unorules.Plugin.phases>`), every ``extras`` key
  declared (``Plugin.extras``), the last action's verb
  declared;
* sizes, proportionate to the rule set: at most :data:`MAX_ROUNDS` rounds,
  :func:`max_events` events, plugin values of at most :func:`max_value_items`
  items, texts of at most :data:`MAX_TEXT` characters;
* progress: the scores are the rounds' points added up (only a round's end
  scores); a game marked over has ended a round, its hands hold as many cards
  as its last round ended with, it has no UNO call or catch window left, and its
  ``outcome`` is what the rule set's ``game_outcome`` hook answers for it
  (winners and reason: ``target-score`` needs a score at the target); a game
  that goes on is one that hook does not end (no score past a target, no
  single seat left under elimination);
* hands, while a round runs: every seat in the game holds cards (except in a
  phase declared ``PhaseSpec(empty_hand=True)``, which settles a last card),
  and every seat that left holds none;
* UNO books: a seat open to a catch holds exactly one card and did not call;
  a seat that called holds cards (any number: a call stands through the
  cards drawn after it, for the card played next);
* and, once everything else holds, a seat has a legal action while the game
  is not over.

Then each plugin checks its own phases, phase data, extras and limits through the
:func:`~unorules.hookspecs.check_state` hook, with the helpers below (No Mercy:
no seat in the hand at the mercy limit, every seat knocked out has left;
elimination: no seat in the game at the points limit).
Every refusal is a :class:`~unorules.StateFormatError` whose message starts
with the field (``"uno_exposed[0]: ..."``) and says the rule it breaks; its
``field`` attribute holds the field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from unorules.actions import Action
from unorules.cards import Card, Color
from unorules.draft import draft_of
from unorules.errors import StateFormatError, excerpt
from unorules.state import Event, GameState, Outcome, Phase, RoundResult, lend

if TYPE_CHECKING:
    from unorules.ruleset import Ruleset

__all__ = [
    "MAX_COUNT",
    "MAX_ROUNDS",
    "MAX_SCORE",
    "MAX_TEXT",
    "check_card",
    "check_cards",
    "check_phase",
    "check_seat",
    "check_seats",
    "check_value",
    "max_events",
    "max_value_items",
    "require",
    "validate_state",
]

MAX_ROUNDS = 1000
"""The most rounds a state may record (a game of 1,000 rounds has gone wrong)."""

MAX_SCORE = 10**9
"""The largest score or round points a state may hold, either way."""

MAX_COUNT = 10**6
"""The largest ``phase.count`` a state may hold (a stack of draw cards in a
long chain grows past the deck's size: a draw takes what the piles hold)."""

MAX_TEXT = 1000
"""The longest text (an event's kind, rule or detail, a round's reason, a string
value of a plugin) a state may hold, in characters."""

_MAX_DEPTH = 16  # nesting of tuples in a plugin value


def max_events(ruleset: Ruleset) -> int:
    """The most events one action may leave in a state under ``ruleset``: 64
    plus four per card of the deck (a round's end, a deal and many draws)."""
    return 64 + 4 * len(ruleset.deck)


def max_value_items(ruleset: Ruleset) -> int:
    """The most items (leaves and tuples) one plugin value (``Phase.data`` or an
    ``extras`` value) may hold under ``ruleset``: 256 plus eight per card of the
    deck, room for a snapshot of every hand and pile."""
    return 256 + 8 * len(ruleset.deck)


def require(condition: bool, field: str, message: str) -> None:
    """Raise :class:`StateFormatError` ``"<field>: <message>"`` unless ``condition``.

    The message should say what is wrong and which rule or fact it breaks.
    """
    if not condition:
        raise StateFormatError(f"{field}: {message}", field)


def _refuse(field: str, message: str) -> StateFormatError:
    return StateFormatError(f"{field}: {message}", field)


def check_seat(state: GameState, seat: Any, field: str, *, in_play: bool = False) -> int:
    """``seat`` if it is a seat of ``state`` (and, with ``in_play``, one that has
    not left the game); else :class:`StateFormatError` naming ``field``."""
    players = len(state.hands)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise _refuse(
            field, f"{excerpt(seat)} is not a seat of this {players}-seat game (0 to {players - 1})"
        )
    if in_play and seat in state.left:
        raise _refuse(field, f"seat {seat} has left the game")
    return seat


def check_seats(state: GameState, seats: Any, field: str, *, in_play: bool = False) -> tuple[int, ...]:
    """``seats`` if it is a tuple of distinct seats of ``state`` (see :func:`check_seat`:
    ``field`` names it in the error, ``in_play`` refuses seats that have left)."""
    if not isinstance(seats, tuple):
        raise _refuse(field, f"expected a tuple of seats, got {excerpt(seats)}")
    if len(seats) > len(state.hands):
        raise _refuse(field, f"{len(seats)} seats in a {len(state.hands)}-seat game")
    for i, seat in enumerate(seats):
        check_seat(state, seat, f"{field}[{i}]", in_play=in_play)
    if len(set(seats)) != len(seats):
        raise _refuse(field, f"seat {_first_repeat(seats)} is listed twice")
    return seats


def _first_repeat(items: Sequence[Any]) -> Any:
    seen: set[Any] = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    return None


class _Facts:
    """What validation needs of a rule set, worked out once (kept in ``ruleset.cache``)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.deck_ids = sorted(map(id, ruleset.deck))
        self.deck_cards = frozenset(ruleset.deck)
        self.faces = frozenset(face for card in self.deck_cards for face in card.faces)
        self.deck_size = len(ruleset.deck)
        self.max_events = max_events(ruleset)
        self.max_items = max_value_items(ruleset)
        self.verbs = frozenset(ruleset.verbs)
        self.aside = tuple(
            (impl.plugin_name, impl.function)
            for impl in reversed(ruleset.hook.set_aside_cards.get_hookimpls())
        )
        self.empty_hand_phases = frozenset(name for name, spec in ruleset.phases.items() if spec.empty_hand)
        hook = ruleset.hook.check_state
        # In pluggy's order (the last registered first); each called alone so a
        # failure is reported with the plugin's name.
        self.checks = tuple((impl.plugin_name, impl.function) for impl in reversed(hook.get_hookimpls()))


def _facts(ruleset: Ruleset) -> _Facts:
    facts: _Facts | None = ruleset.cache.get(_FACTS_KEY)
    if facts is None:
        facts = ruleset.cache[_FACTS_KEY] = _Facts(ruleset)
    return facts


_FACTS_KEY = ("unorules.validate", "facts")


def check_card(state: GameState, card: Any, field: str) -> Card:
    """``card`` if it is a card of ``state``'s deck; else :class:`StateFormatError`
    naming ``field``."""
    if not isinstance(card, Card) or card not in _facts(state.ruleset).deck_cards:
        names = ", ".join(state.ruleset.names)
        raise _refuse(field, f"{excerpt(card)} is not a card of this rule set's deck ({names})")
    return card


def check_cards(state: GameState, cards: Any, field: str) -> tuple[Card, ...]:
    """``cards`` if it is a tuple of at most a deck's worth of cards of ``state``'s
    deck; else :class:`StateFormatError` naming ``field``."""
    facts = _facts(state.ruleset)
    if not isinstance(cards, tuple):
        raise _refuse(field, f"expected a tuple of cards, got {excerpt(cards)}")
    if len(cards) > facts.deck_size:
        raise _refuse(field, f"{len(cards)} cards, more than the deck's {facts.deck_size}")
    deck = facts.deck_cards
    for i, card in enumerate(cards):
        if card not in deck:
            check_card(state, card, f"{field}[{i}]")
    return cards


def check_value(state: GameState, value: Any, field: str) -> None:
    """Check a plugin value of ``state`` (``Phase.data`` item, ``extras`` value),
    named ``field`` in the error: only the allowed types (``None``, ``bool``,
    ``int``, ``str``, :class:`Card` of the deck or a face of one of its two-faced
    cards, :class:`Color`,
    :class:`Action`, tuples), texts of at most :data:`MAX_TEXT` characters, at
    most :func:`max_value_items` items."""
    facts = _facts(state.ruleset)
    budget = [facts.max_items]
    _check_value(value, field, facts, budget, 0)


def _check_value(value: Any, field: str, facts: _Facts, budget: list[int], depth: int) -> None:
    budget[0] -= 1
    if budget[0] < 0:
        raise _refuse(field, f"too large: a value may hold at most {facts.max_items} items in this rule set")
    if value is None or isinstance(value, bool | int | Color | Action):
        return
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise _refuse(field, f"a text of {len(value)} characters (at most {MAX_TEXT})")
        return
    if isinstance(value, Card):  # a card of the deck, or a face one of its two-faced cards shows
        if value not in facts.deck_cards and value not in facts.faces:
            raise _refuse(field, f"{value} is not a card of this rule set's deck, nor a face of one")
        return
    if isinstance(value, tuple):
        if depth >= _MAX_DEPTH:
            raise _refuse(field, f"tuples nested more than {_MAX_DEPTH} deep")
        for i, item in enumerate(value):
            _check_value(item, f"{field}[{i}]", facts, budget, depth + 1)
        return
    raise _refuse(
        field, f"cannot hold {excerpt(value)}: use None, bool, int, str, Card, Color, Action or tuples"
    )


def _check_text(value: Any, field: str, *, optional: bool = False) -> None:
    if optional and value is None:
        return
    if not isinstance(value, str):
        raise _refuse(field, f"expected text, got {excerpt(value)}")
    if len(value) > MAX_TEXT:
        raise _refuse(field, f"a text of {len(value)} characters (at most {MAX_TEXT})")


def _check_int(value: Any, field: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _refuse(field, f"expected an integer from {low} to {high}, got {excerpt(value)}")


def check_phase(state: GameState, phase: Phase, field: str = "phase") -> None:
    """The core's checks of a phase (``state.phase``, or one a plugin stores to
    restore later): a name some plugin of the rule set declares, ``count`` from
    0 to :data:`MAX_COUNT`, ``card`` a card of the deck or ``None``, ``seat`` a
    seat or ``None``, ``color`` a :class:`Color` or ``None``, ``data`` a tuple of
    plugin values, ``secret`` a bool. ``field`` names it in the error."""
    if not isinstance(phase, Phase):
        raise _refuse(field, f"expected a Phase, got {excerpt(phase)}")
    rules = state.ruleset
    name = phase.name
    if not isinstance(name, str) or name not in rules.phases:
        declared = ", ".join(rules.phases) or "none"
        raise _refuse(
            f"{field}.name",
            f"{excerpt(name)} is a phase no plugin of this rule set declares (declared: {declared})",
        )
    _check_int(phase.count, f"{field}.count", 0, MAX_COUNT)
    if phase.card is not None and phase.card not in _facts(rules).faces:  # a card, or a face shown
        check_card(state, phase.card, f"{field}.card")
    if phase.seat is not None:
        check_seat(state, phase.seat, f"{field}.seat")
    if phase.color is not None and not isinstance(phase.color, Color):
        raise _refuse(f"{field}.color", f"expected a colour, got {excerpt(phase.color)}")
    if not isinstance(phase.data, tuple):
        raise _refuse(f"{field}.data", f"expected a tuple, got {excerpt(phase.data)}")
    check_value(state, phase.data, f"{field}.data")
    if not isinstance(phase.secret, bool):
        raise _refuse(f"{field}.secret", f"expected true or false, got {excerpt(phase.secret)}")


def validate_state(state: GameState) -> None:
    """Check that ``state`` makes sense under its rule set (see the module's
    documentation); raise :class:`StateFormatError` naming the first field that
    does not, and the rule it breaks. ``state`` is not changed (its legal
    actions may be worked out and cached, as ``legal_actions()`` does)."""
    _check_core(state)
    facts = _facts(state.ruleset)
    for name, function in facts.checks:
        try:
            function(state)
        except StateFormatError:
            raise
        except Exception as exc:
            raise StateFormatError(
                f"plugin {name!r} could not check the state: {type(exc).__name__}: {exc}", None
            ) from exc
    _check_conservation(state, facts)
    _check_progress(state, facts)
    if state.outcome is None:
        try:
            legal = state.legal_actions()
        except Exception as exc:
            raise StateFormatError(
                f"phase: the rule set's plugins fail on this state ({type(exc).__name__}: {exc})", "phase"
            ) from exc
        require(
            bool(legal),
            "phase",
            f"no seat has a legal action in phase {state.phase.name!r} while the game is not over",
        )


def _check_core(state: GameState) -> None:
    rules = state.ruleset
    facts = _facts(rules)
    hands = state.hands
    players = len(hands)
    require(isinstance(hands, tuple) and 2 <= players <= 10, "hands", "a game has 2 to 10 seats")
    left = check_seats(state, state.left, "left")
    over = state.outcome is not None
    in_play = players - len(left)
    require(
        in_play >= (1 if over else 2),
        "left",
        f"{in_play} seat(s) still in the game: a game goes on only with two or more",
    )
    _check_int(state.direction, "direction", -1, 1)
    require(state.direction != 0, "direction", "expected 1 or -1, got 0")
    check_seat(state, state.current_player, "current_player", in_play=not over)
    check_seat(state, state.dealer, "dealer")
    _check_int(state.stalled, "stalled", 0, players)
    _check_int(state.rng, "rng", 0, 2**64 - 1)
    if state.color is not None and not isinstance(state.color, Color):
        raise _refuse("color", f"expected a colour, got {excerpt(state.color)}")
    if state.color is not None and state.color not in state.ruleset.colors:
        names = ", ".join(c.name.lower() for c in state.ruleset.colors)
        raise _refuse("color", f"{state.color.name.lower()} is not a colour of this deck ({names})")
    scores = state.scores
    require(
        isinstance(scores, tuple) and len(scores) == players,
        "scores",
        f"expected one score per seat ({players})",
    )
    for i, score in enumerate(scores):
        _check_int(score, f"scores[{i}]", -MAX_SCORE, MAX_SCORE)
    check_seats(state, state.uno_declared, "uno_declared", in_play=True)
    check_seats(state, state.uno_exposed, "uno_exposed", in_play=True)
    for i, hand in enumerate(hands):
        check_cards(state, hand, f"hands[{i}]")
    check_cards(state, state.draw_pile, "draw_pile")
    check_cards(state, state.discard_pile, "discard_pile")
    require(bool(state.discard_pile), "discard_pile", "must hold at least the top card")
    check_phase(state, state.phase)
    _check_rounds(state)
    _check_extras(state)
    last = state.last_action
    if last is not None:
        if not isinstance(last, Action):
            raise _refuse("last_action", f"expected an action, got {excerpt(last)}")
        check_seat(state, last.seat, "last_action.seat")
        require(
            last.verb in facts.verbs,
            "last_action",
            f"no plugin of this rule set declares the verb {last.verb!r}",
        )
        if last.target is not None:
            check_seat(state, last.target, "last_action.target")
        if last.card is not None and last.card not in facts.faces:  # an action may name a face shown
            check_card(state, last.card, "last_action.card")
    _check_int(state.side, "side", 0, 1)
    require(
        state.side == 0 or rules.two_faced,
        "side",
        "the cards of this rule set are printed on one side: side 1 (turned over) does not exist",
    )
    _check_events(state, facts)


def _check_rounds(state: GameState) -> None:

    rounds = state.rounds
    players = len(state.hands)
    require(isinstance(rounds, tuple), "rounds", "expected a tuple")
    require(len(rounds) <= MAX_ROUNDS, "rounds", f"{len(rounds)} rounds, more than {MAX_ROUNDS}")
    for i, result in enumerate(rounds):
        where = f"rounds[{i}]"
        if not isinstance(result, RoundResult):
            raise _refuse(where, f"expected a round result, got {excerpt(result)}")
        require(result.number == i + 1, f"{where}.number", f"rounds are numbered from 1: expected {i + 1}")
        if result.winner is not None:
            check_seat(state, result.winner, f"{where}.winner")
        _check_text(result.reason, f"{where}.reason")
        require(
            isinstance(result.points, tuple) and len(result.points) == players,
            f"{where}.points",
            f"expected one number per seat ({players})",
        )
        for j, points in enumerate(result.points):
            _check_int(points, f"{where}.points[{j}]", -MAX_SCORE, MAX_SCORE)
        require(
            isinstance(result.hands, tuple) and len(result.hands) == players,
            f"{where}.hands",
            f"expected one hand per seat ({players})",
        )
        for j, hand in enumerate(result.hands):
            check_cards(state, hand, f"{where}.hands[{j}]")
        held = sum(len(h) for h in result.hands)
        deck = _facts(state.ruleset).deck_size
        require(held <= deck, f"{where}.hands", f"{held} cards in hands, more than the deck's {deck}")
    outcome = state.outcome
    if outcome is not None:
        if not isinstance(outcome, Outcome):
            raise _refuse("outcome", f"expected an outcome, got {excerpt(outcome)}")
        check_seats(state, outcome.winners, "outcome.winners")
        require(bool(outcome.winners), "outcome.winners", "a game that is over has at least one winner")
        _check_text(outcome.reason, "outcome.reason")


def _check_extras(state: GameState) -> None:
    extras = state.extras
    owners = state.ruleset.extras_owners
    require(isinstance(extras, tuple), "extras", "expected a tuple of (key, value) pairs")
    previous: str | None = None
    for item in extras:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
            raise _refuse("extras", f"expected (key, value) pairs, got {excerpt(item)}")
        key, value = item
        if key not in owners:
            declared = ", ".join(sorted(owners)) or "none"
            raise _refuse(
                f"extras.{excerpt(key, 40)[1:-1]}",
                f"no plugin of this rule set declares this key (declared: {declared})",
            )
        require(previous is None or previous < key, "extras", "keys must be distinct and sorted")
        previous = key
        require(value is not None, f"extras.{key}", "None is stored by removing the key")
        check_value(state, value, f"extras.{key}")


def _check_events(state: GameState, facts: _Facts) -> None:

    events = state.events
    require(isinstance(events, tuple), "events", "expected a tuple")
    require(
        len(events) <= facts.max_events,
        "events",
        f"{len(events)} events, more than {facts.max_events} (the most one action leaves in this rule set)",
    )
    for i, event in enumerate(events):
        where = f"events[{i}]"
        if not isinstance(event, Event):
            raise _refuse(where, f"expected an event, got {excerpt(event)}")
        _check_text(event.kind, f"{where}.kind")
        if event.seat is not None:
            check_seat(state, event.seat, f"{where}.seat")
        check_cards(state, event.cards, f"{where}.cards")
        _check_text(event.rule, f"{where}.rule", optional=True)
        _check_text(event.detail, f"{where}.detail")
        if not isinstance(event.private, bool):
            raise _refuse(f"{where}.private", f"expected true or false, got {excerpt(event.private)}")
        if event.target is not None:
            check_seat(state, event.target, f"{where}.target")
        if event.count is not None:
            _check_int(event.count, f"{where}.count", 0, MAX_SCORE)
        if event.color is not None and not isinstance(event.color, Color):
            raise _refuse(f"{where}.color", f"expected a colour, got {excerpt(event.color)}")
        _check_pairs(state, event.data, f"{where}.data")


def _check_pairs(state: GameState, pairs: Any, field: str) -> None:
    """``(name, value)`` pairs with distinct names and plugin values."""
    if not isinstance(pairs, tuple):
        raise _refuse(field, f"expected (name, value) pairs, got {excerpt(pairs)}")
    seen: set[str] = set()
    for item in pairs:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
            raise _refuse(field, f"expected (name, value) pairs, got {excerpt(item)}")
        name, value = item
        _check_text(name, field)
        require(name not in seen, field, f"the name {excerpt(name, 40)} is given twice")
        seen.add(name)
        check_value(state, value, f"{field}.{name}")


def _check_progress(state: GameState, facts: _Facts) -> None:
    """What the engine keeps between the rounds and the hands: the scores are the
    rounds' points added up; a game is over only as a round left it, as its rule set
    ends it, and a game that goes on is one its rule set does not end; while a round
    runs, every seat in it holds cards and every seat that left holds none; the UNO
    books agree with the hands."""
    hands = state.hands
    players = len(hands)
    totals = [0] * players
    for result in state.rounds:
        totals = [a + b for a, b in zip(totals, result.points, strict=True)]
    for seat, (score, total) in enumerate(zip(state.scores, totals, strict=True)):
        require(
            score == total,
            f"scores[{seat}]",
            f"{score} points, but the rounds played give seat {seat} {total} "
            "(R-SCORE: only a round's end scores)",
        )
    outcome = state.outcome
    rounds = state.rounds
    if outcome is not None:
        require(
            bool(rounds),
            "outcome",
            "the game is marked over, but no round has ended: a game ends only at a round's end",
        )
        # By size: a world sampled for a seat (unorules.worlds) deals the hidden cards anew.
        require(
            [len(hand) for hand in hands] == [len(hand) for hand in rounds[-1].hands],
            "outcome",
            f"the game is marked over mid-round: the hands are not as round {len(rounds)} left them",
        )
        require(
            not state.uno_declared and not state.uno_exposed,
            "uno_declared" if state.uno_declared else "uno_exposed",
            "the game is over: every UNO call and catch window ended with its last round",
        )
    answer = _game_outcome(state) if rounds else None
    scores = list(state.scores)
    if outcome is not None and answer != outcome:
        said = "that the game goes on"
        if answer is not None:
            said = f"winners {list(answer.winners)}, {answer.reason!r}"
        raise _refuse(
            "outcome",
            f"winners {list(outcome.winners)}, {outcome.reason!r} is not how this rule set ends the game: "
            f"by the scores {scores} and the rounds played, its plugins say {said}",
        )
    if outcome is None and answer is not None:
        raise _refuse(
            "outcome",
            f"the game goes on, but by the scores {scores} and the rounds played its rule set ends it "
            f"(winners {list(answer.winners)}, {answer.reason!r}): a score past the target ends the game",
        )
    if outcome is None:
        phase = state.phase.name
        empty_allowed = phase in facts.empty_hand_phases
        left = state.left
        for seat, hand in enumerate(hands):
            if seat in left:
                require(
                    not hand,
                    f"hands[{seat}]",
                    f"seat {seat} has left the game, yet holds {len(hand)} card(s) while the round goes on",
                )
            else:
                require(
                    bool(hand) or empty_allowed,
                    f"hands[{seat}]",
                    f"seat {seat} is in the round with no cards while it goes on (R-OUT: an emptied hand "
                    f"ends the round, or the seat leaves it; phase {phase!r} keeps no emptied hand)",
                )
    for i, seat in enumerate(state.uno_exposed):
        require(
            len(hands[seat]) == 1 and seat not in state.uno_declared,
            f"uno_exposed[{i}]",
            f"seat {seat} is open to an UNO catch holding {len(hands[seat])} card(s): only a seat left "
            "holding one card without a call may be caught (R-UNO-CATCH)",
        )
    for i, seat in enumerate(state.uno_declared):
        # A call stands through the cards drawn after it (it is for the card played next):
        # a seat that called may hold any number of cards, but some.
        require(
            bool(hands[seat]),
            f"uno_declared[{i}]",
            f"seat {seat} called UNO for its next card but holds none (R-UNO-CALL)",
        )


def _game_outcome(state: GameState) -> Outcome | None:
    """How the rule set's ``game_outcome`` hook ends the game at ``state`` (asked of
    a draft of it, as at a round's end), or ``None`` if it goes on."""
    try:
        answer = state.ruleset.hooks.game_outcome(draft_of(state))
    except Exception as exc:
        raise StateFormatError(
            f"outcome: the rule set's plugins fail on this state ({type(exc).__name__}: {exc})", "outcome"
        ) from exc
    return answer if isinstance(answer, Outcome) else None


def _set_aside(state: GameState, facts: _Facts) -> list[Card]:
    cards: list[Card] = []
    for name, function in facts.aside:
        try:
            found = list(function(state) or ())  # type: ignore[call-overload]
        except Exception as exc:
            raise StateFormatError(
                f"plugin {name!r} could not list its set-aside cards: {type(exc).__name__}: {exc}", None
            ) from exc
        for card in found:
            check_card(state, card, f"set-aside cards of plugin {name!r}")
        cards += found
    return cards


def _check_conservation(state: GameState, facts: _Facts) -> None:
    cards = list(state.draw_pile)
    cards += state.discard_pile
    for hand in state.hands:
        cards += hand
    if facts.aside:
        cards += _set_aside(state, facts)
    # Cards are interned: the multiset of their ids is the multiset of cards.
    if sorted(map(id, cards)) == facts.deck_ids:
        return
    expected = Counter(state.ruleset.deck)
    found = Counter(cards)
    parts = []
    if found - expected:
        parts.append(f"{_count_text(found - expected)} more than the deck holds")
    if expected - found:
        parts.append(f"{_count_text(expected - found)} missing")
    raise _refuse(
        "cards",
        f"the hands, the piles and the cards set aside must be the rule set's deck, each card once: "
        f"{'; '.join(parts)}",
    )


def _count_text(counts: Counter[Card]) -> str:
    items = sorted(counts.items(), key=lambda item: str(item[0]))
    text = ", ".join(f"{n} x {card}" for card, n in items[:8])
    return text + (f" and {len(items) - 8} more kinds" if len(items) > 8 else "")


lend("validate_state", validate_state)

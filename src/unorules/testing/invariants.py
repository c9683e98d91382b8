"""The invariants every rule set must keep, as functions that check any state.

Each ``check_*`` function raises :class:`InvariantViolation` (an
``AssertionError``) with a message saying what is wrong, so it works in a plain
``pytest`` test, in a hypothesis property and in the conformance runner
alike. The invariants (DEVELOPING.md, "Invariants every rule set must keep"):

=================  ==============================================================
name               what it checks
=================  ==============================================================
``cards``          hands + draw pile + discard pile (+ cards set aside) = the deck
``turn``           one seat to move: the current player is in the game and has an
                   action; other seats only have out-of-turn actions
``hands``          no seat still in the game holds an empty hand while the round
                   goes on, unless the phase's :class:`~unorules.PhaseSpec`
                   declares ``empty_hand=True`` (a seat that played its last card
                   has gone out: the round ends, R-OUT)
``legal``          legal actions are non-empty until the game is over (and empty
                   after), name seats in the game, are listed once, and their
                   notation parses back to the same action
``events``         every event is of a declared kind and fills only declared fields
``uno``            UNO calls and catch windows agree with the hands: a seat open
                   to a catch holds one card; a seat whose own action left it one
                   card without a call is open to a catch; a hand that changed
                   otherwise keeps no stale call or exposure (R-UNO-CALL,
                   R-UNO-CATCH)
``scores``         the scores are the sum of the rounds' points, rounds are
                   numbered from 1, and one action ends at most one round
``left``           a seat that has left holds no cards and draws none
``hidden``         no view and no public event shows a card the seats seeing it
                   may not know (another seat's hidden hand, the draw pile),
                   except an event whose kind declares ``reveals``
``accepted``       every legal action is accepted by ``apply`` (and keeps
                   ``cards`` and ``uno``); ``is_legal`` agrees with the list
``refused``        a sample of other actions is refused with ``IllegalActionError``
                   and leaves the state unchanged
``pure``           ``apply`` never changes the state it is given
``json``           ``GameState.from_json(s.to_json()) == s``, and both play on alike
``pickle``         a pickled copy of the state (its extras included) is equal and
                   lists the same legal actions
``view``           each seat's view shows its own hand, every hand's size, its own
                   legal actions, and no other seat's private cards
``replay``         the same seed and actions give an equal state, and applying one
                   action twice to one state gives equal states (no randomness
                   outside the game's generator, no state kept in plugin objects)
``rounds``         every round ends: past its bound eager play can still end it, and
                   it does not go round a loop
=================  ==============================================================

The single-state invariants are functions of a state (:func:`check_state`
runs them); ``uno``, ``scores``, ``left``, ``hidden``, ``pure`` and
``replay`` also look at each step, the state before an action and the state
after it (:func:`check_step`). A message names the action and says what
differs (the cards missing or added, the field that changed), never whole
piles: see :func:`describe_difference`.

The toolkit reads what the plugins declare, as the rule set gathers it:

* ``Plugin.testing`` (:class:`~unorules.TestHints`): ``max_round_actions``,
  the most actions a round of random play may take before the toolkit
  suspects it never ends (the largest bound declared applies if it is larger
  than the default, see :func:`round_bound`), and ``round_length_factor``,
  how many times longer than under classic alone its rounds may last (the
  factors multiply into :func:`round_bound`), and ``uno_exempt_when``, the
  options with which its rules exempt a seat left one card by its own card's
  effect from calling UNO, and ``uno_handed_when``, those with which a seat
  handed one card must call (both read by ``uno``);
* the ``set_aside_cards`` hook: cards a plugin keeps out of the hands and
  piles (counted by ``cards``);
* ``Plugin.verbs``: a verb some plugin declares for ``"any"`` seat may be
  used out of turn (``ruleset.out_of_turn_verbs``, a jump-in ``play``); the
  others only by the seat to move (``ruleset.turn_verbs``, added to
  :data:`TURN_VERBS`).
"""

from __future__ import annotations

import contextlib
import pickle
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import attrs

from unorules import TestHints
from unorules.actions import _VERBS, Action
from unorules.cards import COLORS, Card
from unorules.errors import IllegalActionError, NotationError
from unorules.ruleset import Ruleset, installed_plugins
from unorules.state import Event, GameState
from unorules.testing.play import choose_action

__all__ = [
    "CORE_VERBS",
    "DEFAULT_MAX_ROUND_ACTIONS",
    "DEFAULT_REPEAT_LIMIT",
    "PROBE_ACTIONS",
    "ROUND_ACTIONS_PER_SEAT",
    "STATE_INVARIANTS",
    "TURN_VERBS",
    "InvariantViolation",
    "RoundMonitor",
    "check_apply_pure",
    "check_cards",
    "check_events",
    "check_hands",
    "check_hidden_cards",
    "check_illegal_actions_refused",
    "check_json_round_trip",
    "check_left",
    "check_legal_actions",
    "check_legal_actions_accepted",
    "check_pickled_copy",
    "check_replay",
    "check_replay_game",
    "check_round_ends",
    "check_scores",
    "check_state",
    "check_step",
    "check_turn",
    "check_uno",
    "check_views",
    "describe_difference",
    "round_bound",
    "set_aside_cards",
    "turn_only_verbs",
]

ROUND_ACTIONS_PER_SEAT = 12_500
"""The default bound on the actions of one round, per seat: random classic
play, whose players call UNO, catch each other and draw instead of playing at
random, takes about a thousand actions per round at four seats and very rarely
more than 12,000; rounds grow with the number of seats (more hands to empty,
more out-of-turn actions to choose from at random)."""

DEFAULT_MAX_ROUND_ACTIONS = 4 * ROUND_ACTIONS_PER_SEAT
"""The bound on the actions of one round of classic alone at four seats."""

PROBE_ACTIONS = 20_000
"""How many actions :class:`RoundMonitor` lets eager play (a card played
whenever one may be) try to end a round that has passed its bound before it
calls the round endless."""

TURN_VERBS = frozenset({"play", "draw", "pass", "accept", "color"})
"""Verbs that only the seat to move may use, unless a plugin declares one for
``"any"`` seat in its ``verbs`` (a jump-in ``play``). ``uno``, ``catch`` and
``challenge`` may come from other seats, and so may any verb a plugin
registers, unless a plugin declares it for ``"turn"`` and none for ``"any"``
(``ruleset.turn_verbs``)."""


CORE_VERBS = frozenset({"play", "draw", "pass", "uno", "catch", "challenge", "accept", "color"})
"""The verbs of the core's action notation."""


class InvariantViolation(AssertionError):
    """An invariant does not hold: ``invariant`` names it, ``detail`` says how.

    ``tried`` is the action whose outcome broke it when a check applied an
    action the game did not take (the deep checks apply every legal action):
    appended to the game's replay, it shows the failure as the game's own
    step."""

    def __init__(self, invariant: str, detail: str, tried: Action | None = None) -> None:
        super().__init__(f"[{invariant}] {detail}")
        self.invariant = invariant
        self.detail = detail
        self.tried = tried

    def __reduce__(self) -> tuple[Any, tuple[str, str, Action | None]]:
        return (type(self), (self.invariant, self.detail, self.tried))

    def within(self, context: str) -> InvariantViolation:
        """The same violation with ``context`` (where it happened) in front of the detail."""
        return InvariantViolation(self.invariant, f"{context}: {self.detail}", self.tried)


def _fail(invariant: str, detail: str) -> InvariantViolation:
    return InvariantViolation(invariant, detail)


# -- what plugins declare, worked out once per rule set ---------------------------------

_T = TypeVar("_T")


def _cached(ruleset: Ruleset, key: str, compute: Callable[[Ruleset], _T]) -> _T:
    return ruleset.cached(("unorules.testing.invariants", key), compute)


def turn_only_verbs(ruleset: Ruleset) -> frozenset[str]:
    """The verbs only the seat to move may use in ``ruleset``."""

    def compute(rules: Ruleset) -> frozenset[str]:
        return (TURN_VERBS | rules.turn_verbs) - rules.out_of_turn_verbs

    return _cached(ruleset, "turn_verbs", compute)


def round_bound(ruleset: Ruleset, players: int = 4) -> int:
    """The number of actions after which :class:`RoundMonitor` suspects that a
    round of ``ruleset`` with ``players`` seats never ends.

    :data:`ROUND_ACTIONS_PER_SEAT` for each seat, times the
    ``round_length_factor`` of each plugin (rule sets whose effects make
    players draw have longer rounds), or the largest ``max_round_actions`` a
    plugin declares if that is larger. Passing the bound is not yet a
    failure: see :class:`RoundMonitor`."""

    def compute(rules: Ruleset) -> tuple[float, int]:
        factor = 1.0
        hints = [getattr(p, "testing", TestHints()) for p in rules.plugins]
        for hint in hints:
            if hint.round_length_factor > 0:
                factor *= hint.round_length_factor
        bounds = [hint.max_round_actions for hint in hints]
        return factor, max((b for b in bounds if isinstance(b, int) and b > 0), default=0)

    factor, declared = _cached(ruleset, "round_bound", compute)
    return max(declared, int(ROUND_ACTIONS_PER_SEAT * max(players, 1) * factor))


def _deck_count(ruleset: Ruleset) -> Counter[Card]:
    return _cached(ruleset, "deck", lambda rules: Counter(rules.deck))


def _deck_ids(ruleset: Ruleset) -> list[int]:
    return _cached(ruleset, "deck_ids", lambda rules: sorted(map(id, rules.deck)))


def _deck_weights(ruleset: Ruleset) -> tuple[dict[Card, int], int]:
    def compute(rules: Ruleset) -> tuple[dict[Card, int], int]:
        weights = {
            card: random.Random(f"unorules card weight {card}").getrandbits(60) for card in set(rules.deck)
        }
        return weights, sum(weights[card] for card in rules.deck)

    return _cached(ruleset, "deck_weights", compute)


def set_aside_cards(state: GameState) -> list[Card]:
    """The cards ``state``'s plugins say they keep out of the hands and piles."""
    return list(state.ruleset.set_aside_cards(state))


# -- single-state invariants ---------------------------------------------------------------


def _after(state: GameState) -> str:
    return "at the deal" if state.last_action is None else f'after "{state.last_action}"'


def _cards_text(counts: Counter[Card]) -> str:
    return " ".join(f"{card}x{n}" if n > 1 else str(card) for card, n in sorted(counts.items(), key=str))


def check_cards(state: GameState) -> None:
    """Every card accounted for: hands, draw pile, discard pile and the cards
    plugins set aside hold exactly the rule set's deck."""
    cards = list(state.draw_pile)
    cards += state.discard_pile
    for hand in state.hands:
        cards += hand
    cards += state.ruleset.set_aside_cards(state)
    # A fast path: every card of the deck weighs a fixed random 60-bit number,
    # so the same count and the same total weight mean the same multiset of
    # cards (but with a chance of about 2**-60).
    weights, total = _deck_weights(state.ruleset)
    try:
        same = len(cards) == len(state.ruleset.deck) and sum(map(weights.__getitem__, cards)) == total
    except (KeyError, TypeError):  # a card the deck does not hold, or not a card at all
        same = False
    # Cards are interned, so the multiset of their ids is the multiset of cards.
    if not same and sorted(map(id, cards)) != _deck_ids(state.ruleset):
        expected = _deck_count(state.ruleset)
        found = Counter(cards)
        missing = expected - found
        extra = found - expected
        parts = []
        if missing:
            parts.append(f"missing {_cards_text(missing)}")
        if extra:
            parts.append(f"extra {_cards_text(extra)}")
        raise _fail(
            "cards",
            f"{_after(state)}, the cards are not the deck ({'; '.join(parts) or 'wrong kind of objects'}): "
            "hands, draw pile, discard pile and set-aside cards must hold every card of ruleset.deck "
            "exactly once",
        )
    if not state.discard_pile:
        raise _fail("cards", f"{_after(state)}, the discard pile is empty: it must hold the top card")


def check_turn(state: GameState) -> None:
    """Exactly one seat to move: the current player is a seat still in the game
    with a legal action, and other seats have only out-of-turn actions."""
    seat = state.current_player
    if not 0 <= seat < state.players:
        raise _fail("turn", f"{_after(state)}, current_player is {seat}, not a seat of {state.players}")
    if state.is_over:
        return  # nobody is to move once the game is over
    if seat in state.left:
        raise _fail("turn", f"{_after(state)}, seat {seat} is to move but has left the game")
    legal = state.legal_actions()
    if not any(a.seat == seat for a in legal):
        listed = ", ".join(map(str, legal)) or "nothing"
        raise _fail(
            "turn",
            f"{_after(state)}, seat {seat} is to move ({state.phase.name} phase) but has no legal "
            f"action; legal: {listed}",
        )
    restricted = turn_only_verbs(state.ruleset)
    for action in legal:
        if action.seat != seat and action.verb in restricted:
            raise _fail(
                "turn",
                f"{_after(state)}, seat {seat} is to move, yet seat {action.seat} may {action} "
                f"('{action.verb}' is a turn action; a plugin declares a verb other seats may use "
                "as 'any' in its verbs)",
            )


def _empty_hand_phases(ruleset: Ruleset) -> frozenset[str]:
    return _cached(
        ruleset, "empty_hand", lambda rules: frozenset(n for n, p in rules.phases.items() if p.empty_hand)
    )


def check_hands(state: GameState) -> None:
    """No seat still in the game holds an empty hand while the round goes on
    (R-OUT: a seat that played its last card has gone out and the round ends),
    unless the plugin owning the phase declares ``PhaseSpec(empty_hand=True)``
    for it (a phase that settles a round before it ends)."""
    if state.is_over:
        return
    left = state.left
    for seat, hand in enumerate(state.hands):
        if hand or (left and seat in left):
            continue
        phase = state.phase.name
        if phase in _empty_hand_phases(state.ruleset):
            return
        sizes = [len(h) for h in state.hands]
        raise _fail(
            "hands",
            f"{_after(state)}, seat {seat} holds no cards but round {state.round_number} goes on "
            f"(hands {sizes}, seat {state.current_player} to move in the {phase!r} phase): a seat "
            "that plays its last card goes out and the round ends (R-OUT); a plugin whose phase may "
            "leave a hand empty declares PhaseSpec(empty_hand=True)",
        )


_notation_ok: set[Action] = set()


def check_legal_actions(state: GameState) -> None:
    """Legal actions are non-empty until the game is over and empty after it;
    each names a seat still in the game, is listed once, and its notation
    parses back to the same action."""
    legal = state.legal_actions()
    if state.is_over:
        if legal:
            raise _fail("legal", f"the game is over, yet {len(legal)} actions are legal: {legal[0]}, ...")
        return
    if not legal:
        raise _fail(
            "legal",
            f"{_after(state)}, no action is legal but the game is not over "
            f"(seat {state.current_player} in the {state.phase.name!r} phase)",
        )
    active = state.active_seats
    if len(set(legal)) != len(legal):
        twice = Counter(legal).most_common(1)[0][0]
        raise _fail("legal", f"{_after(state)}, {twice} is listed more than once in legal_actions()")
    for action in legal:
        if action not in _notation_ok:
            if not isinstance(action, Action):
                raise _fail("legal", f"{_after(state)}, legal_actions() holds {action!r}, not an Action")
            text = str(action)
            try:
                parsed = Action.parse(text)
            except NotationError as exc:
                raise _fail(
                    "legal", f"{_after(state)}, the notation {text!r} does not parse: {exc}"
                ) from None
            if parsed is not action:
                raise _fail(
                    "legal", f"{_after(state)}, {text!r} parses to {parsed!r}, not to the legal action"
                )
            _notation_ok.add(action)
        if action.seat not in active:
            raise _fail(
                "legal", f"{_after(state)}, {action} names seat {action.seat}, not a seat in the game"
            )


_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.eq)


def _snapshot(state: GameState) -> tuple[Any, ...]:
    return tuple(getattr(state, name) for name in _FIELDS)


def _unchanged(state: GameState, snapshot: tuple[Any, ...]) -> bool:
    # States hold only immutable values, so a change means a field was replaced.
    return all(a is b for a, b in zip(_snapshot(state), snapshot, strict=True))


def check_legal_actions_accepted(state: GameState, *, compare_json: bool = True) -> None:
    """Every legal action is accepted by ``apply``, which returns a new state of
    the same rule set and leaves ``state`` as it was (``pure``: no field
    replaced, and with ``compare_json`` the same JSON before and after)."""
    before = _json_of(state) if compare_json else None
    snapshot = _snapshot(state)
    legal = state.legal_actions()
    for action in legal:
        if not state.is_legal(action):
            raise _fail("accepted", f"{_after(state)}, {action} is listed as legal but is_legal says no")
        try:
            after = state.apply(action)
        except IllegalActionError as exc:
            raise _fail(
                "accepted", f"{_after(state)}, {action} is listed as legal but apply refused it: {exc}"
            ) from exc
        except Exception as exc:
            raise _fail(
                "accepted",
                f"{_after(state)}, {action} is listed as legal but apply raised {type(exc).__name__}: {exc}",
            ) from exc
        if not isinstance(after, GameState):
            raise _fail("accepted", f"{_after(state)}, apply({action}) returned {after!r}, not a GameState")
        if after.ruleset is not state.ruleset:
            raise _fail("accepted", f"{_after(state)}, apply({action}) returned a state of another rule set")
        # Every effect, not only the one random play chooses: the cards and the
        # books after each legal action.
        try:
            check_cards(after)
            check_hands(after)
            check_uno(after)
            check_left(after)
            check_step(state, action, after, snapshot=snapshot)
        except InvariantViolation as violation:
            violation.tried = action
            raise
    if state.legal_actions() != legal or (before is not None and state.to_json() != before):
        raise _fail(
            "pure", f"{_after(state)}, applying the legal actions changed the state they were applied to"
        )


def _json_of(state: GameState) -> str:
    try:
        return state.to_json()
    except Exception as exc:
        raise _fail("json", f"{_after(state)}, to_json() raised {type(exc).__name__}: {exc}") from exc


def check_apply_pure(state: GameState, actions: Sequence[Action] | None = None) -> None:
    """``apply`` never changes its input: the state's fields, JSON and legal
    actions are the same after applying each of ``actions`` (default: every
    legal action; illegal ones are refused, which must not change it either)."""
    before = _json_of(state)
    snapshot = _snapshot(state)
    legal = state.legal_actions()
    for action in legal if actions is None else actions:
        with contextlib.suppress(IllegalActionError):
            state.apply(action)
        if not _unchanged(state, snapshot) or state.to_json() != before:
            raise _fail("pure", f"{_after(state)}, apply({action}) changed the state it was applied to")
        if state.legal_actions() != legal:
            raise _fail("pure", f"{_after(state)}, apply({action}) changed the legal actions of its input")


def _verbs() -> list[str]:
    return sorted(_VERBS)


def _rng_for(state: GameState) -> random.Random:
    return random.Random(
        f"{state.rng}:{len(state.discard_pile)}:{len(state.draw_pile)}:{state.current_player}"
    )


def _near_misses(state: GameState, rng: random.Random, count: int) -> list[Action]:
    """Actions like the legal ones with one field changed, then random ones:
    the places where legality has edges."""
    legal = state.legal_actions()
    players = state.players
    seats = range(players)
    deck = state.ruleset.deck
    out: list[Action] = []
    for _ in range(count):
        base = rng.choice(legal) if legal and rng.random() < 0.6 else None
        if base is not None:
            seat, verb, card, color, target = base.seat, base.verb, base.card, base.color, base.target
            field = rng.randrange(4)
            if field == 0:
                seat = rng.choice(seats)
            elif field == 1:
                color = None if color is not None and rng.random() < 0.5 else rng.choice(COLORS)
            elif field == 2:
                target = None if target is not None and rng.random() < 0.5 else rng.choice(seats)
            else:
                hand = state.hands[seat]
                card = rng.choice(hand) if hand and rng.random() < 0.7 else rng.choice(deck)
        else:
            seat = rng.choice(seats)
            verb = rng.choice(_verbs())
            spec = _VERBS[verb]
            hand = state.hands[seat]
            card = None
            if spec.card == "required" or (spec.card == "optional" and rng.random() < 0.5):
                card = rng.choice(hand) if hand and rng.random() < 0.7 else rng.choice(deck)
            color = None
            if spec.color == "required" or (spec.color == "optional" and rng.random() < 0.5):
                color = rng.choice(COLORS)
            target = None
            if spec.target == "required" or (spec.target == "optional" and rng.random() < 0.3):
                target = rng.choice(seats)
        out.append(Action.of(seat, verb, card, color, target))
    return out


def check_illegal_actions_refused(state: GameState, sample: int = 8, *, require_rule: bool = False) -> None:
    """Actions that are not legal are refused with ``IllegalActionError`` and
    leave the state unchanged.

    Tries ``sample`` actions near the legal ones (one field changed) and at
    random, plus an action of a seat that does not exist. With
    ``require_rule``, refusing an action of a seat in the game must cite a
    rule id (``IllegalActionError.rule``), as the plugins' ``explain_illegal``
    should, when its verb is one of the core's or one the state lists as
    legal for some seat (other verbs may belong to plugins not in the game).
    """
    if state.is_over:
        return
    snapshot = _snapshot(state)
    legal = state.legal_actions()
    allowed = set(legal)
    rng = _rng_for(state)
    candidates = [a for a in _near_misses(state, rng, sample * 2) if a not in allowed][:sample]
    candidates.append(Action.of(state.players, "draw"))
    explained = CORE_VERBS.union(a.verb for a in legal) if require_rule else CORE_VERBS
    for action in candidates:
        try:
            state.apply(action)
        except IllegalActionError as exc:
            if not str(exc):
                raise _fail("refused", f"{_after(state)}, refusing {action} gave an empty message") from None
            if (
                require_rule
                and exc.rule is None
                and action.seat in state.active_seats
                and action.verb in explained
            ):
                raise _fail("refused", f"{_after(state)}, refusing {action} cites no rule: {exc}") from None
        except Exception as exc:
            raise _fail(
                "refused",
                f"{_after(state)}, {action} is not legal but apply raised {type(exc).__name__} "
                f"instead of IllegalActionError: {exc}",
            ) from exc
        else:
            raise _fail(
                "refused", f"{_after(state)}, {action} is not in legal_actions() but apply accepted it"
            )
        if state.is_legal(action):
            raise _fail(
                "refused", f"{_after(state)}, is_legal({action}) is true but it is not in legal_actions()"
            )
    if not _unchanged(state, snapshot) or state.legal_actions() != legal:
        raise _fail("pure", f"{_after(state)}, refusing illegal actions changed the state")


def _rebuildable(ruleset: Ruleset) -> bool:
    installed = installed_plugins()
    return all(installed.get(p.name) is p for p in ruleset.plugins)


def check_json_round_trip(
    state: GameState, steps: int = 2, *, rebuild_ruleset: bool = False, text: str | None = None
) -> None:
    """``GameState.from_json(state.to_json()) == state``, the copy writes the same
    JSON and lists the same legal actions, and both play on alike for ``steps``
    actions.

    With ``rebuild_ruleset`` (and every plugin installed) the copy's rule set is
    rebuilt from the names and options in the JSON, as a program reading a
    saved game would; otherwise the state's own rule set is reused (faster).
    ``text`` is ``state.to_json()`` if the caller has it already.
    """
    if text is None:
        text = _json_of(state)
    ruleset = None if rebuild_ruleset and _rebuildable(state.ruleset) else state.ruleset
    try:
        copy = GameState.from_json(text, ruleset)
    except Exception as exc:
        raise _fail(
            "json", f"{_after(state)}, from_json(to_json()) raised {type(exc).__name__}: {exc}"
        ) from exc
    if copy != state:
        raise _fail(
            "json", f"{_after(state)}, from_json(to_json()) is not equal to the state: {_diff(state, copy)}"
        )
    if copy.to_json() != text:
        raise _fail("json", f"{_after(state)}, the copy read back from JSON writes different JSON")
    a, b = state, copy
    for step in range(steps + 1):
        if a.legal_actions() != b.legal_actions():
            raise _fail("json", f"{_after(state)}, the copy read back from JSON has other legal actions")
        if a.is_over or step == steps:
            break
        legal = a.legal_actions()
        if not legal:
            raise _fail(
                "legal",
                f"{_after(a)}, no action is legal but the game is not over "
                f"(seat {a.current_player} in the {a.phase.name!r} phase)",
            )
        action = legal[0] if step % 2 == 0 else legal[-1]
        a, b = a.apply(action), b.apply(action)
        if a != b:
            raise _fail(
                "json",
                f"{_after(state)}, the state and its copy read back from JSON differ after {action}: "
                + _diff(a, b),
            )


def _diff(a: GameState, b: GameState) -> str:
    return describe_difference(a, b)


def check_pickled_copy(state: GameState) -> None:
    """A pickled copy of ``state`` is equal to it and lists the same legal
    actions: every plugin extra, phase and event value pickles (for process
    pools and caches). A rule set whose plugin objects cannot be pickled is
    not the state's fault: it is skipped. (A state with no plugin value, no
    phase data and no event data is what the core pickles itself, and is
    skipped too: ``tests/test_embedding.py`` covers it.)"""
    phase = state.phase
    if not state.extras and not phase.data and not any(e.data for e in state.events):
        return
    try:
        text = pickle.dumps(state)
    except Exception as exc:
        try:
            pickle.dumps(state.ruleset)
        except Exception:
            return
        raise _fail(
            "pickle", f"{_after(state)}, pickling the state raised {type(exc).__name__}: {exc}"
        ) from exc
    try:
        copy = pickle.loads(text)
    except Exception as exc:
        raise _fail(
            "pickle", f"{_after(state)}, unpickling the state raised {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(copy, GameState) or copy != state:
        found = describe_difference(state, copy) if isinstance(copy, GameState) else repr(copy)
        raise _fail("pickle", f"{_after(state)}, the unpickled copy is not equal to the state: {found}")
    if copy.legal_actions() != state.legal_actions():
        raise _fail("pickle", f"{_after(state)}, the unpickled copy lists other legal actions")


def check_views(state: GameState) -> None:
    """What each seat may know: ``state.view(seat)`` shows its own hand, the size
    of every hand, its own legal actions, hands shown to it as they are, and no
    cards of events private to another seat."""
    sizes = tuple(len(h) for h in state.hands)
    # A two-faced card is seen as the face it shows (state.face); any other card as itself.
    shown = [tuple(map(state.face, h)) for h in state.hands] if state.ruleset.two_faced else state.hands
    for seat in range(state.players):
        try:
            view = state.view(seat)
        except Exception as exc:
            raise _fail("view", f"{_after(state)}, view({seat}) raised {type(exc).__name__}: {exc}") from exc
        if view.hand != shown[seat] or view.hand_sizes != sizes:
            raise _fail(
                "view", f"{_after(state)}, view({seat}) does not show its own hand and the hand sizes"
            )
        if view.legal_actions != state.legal_actions(seat):
            raise _fail(
                "view", f"{_after(state)}, view({seat}) lists other legal actions than legal_actions({seat})"
            )
        for other, hand in view.visible_hands.items():
            if not 0 <= other < state.players or hand != shown[other]:
                raise _fail("view", f"{_after(state)}, view({seat}) shows a wrong hand for seat {other}")
        for event in view.events:
            if event.private and event.seat != seat and event.cards:
                raise _fail("view", f"{_after(state)}, view({seat}) shows the private cards of event {event}")


def check_events(state: GameState) -> None:
    """Every event of the last action is of a kind the rule set declares (the
    core's kinds and each plugin's ``Plugin.events``), and its spec describes
    every typed field (``target``, ``count``, ``color``) and ``data`` value it
    fills, so the event catalogue lists everything a client may receive."""
    declared = state.ruleset.events
    for event in state.events:
        spec = declared.get(event.kind)
        if spec is None:
            raise _fail(
                "events",
                f"{_after(state)}, an event of kind {event.kind!r} was emitted that no plugin declares "
                f"(declare it in the emitting plugin's events: unorules.EventSpec); event: {event}",
            )
        listed = {name for name, _ in spec.fields}
        filled = [f for f in ("target", "count", "color") if getattr(event, f) is not None]
        filled += [f"data.{k}" for k, _ in event.data]
        missing = [f for f in filled if f not in listed]
        if missing:
            raise _fail(
                "events",
                f"{_after(state)}, a {event.kind!r} event fills {', '.join(missing)}, which its EventSpec "
                f"does not describe; event: {event}",
            )


# -- UNO calls, scores, seats that left, hidden cards -----------------------------------------


def _seats_text(seats: Iterable[int]) -> str:
    return ", ".join(map(str, seats)) or "none"


def check_uno(state: GameState) -> None:
    """UNO calls and catch windows agree with the hands (R-UNO-CALL, R-UNO-CATCH):
    every seat open to a catch (``uno_exposed``) is in the game and holds
    exactly one card; every seat that called (``uno_declared``) is in the
    game and holds cards; no seat is listed twice, nor both called and open to
    a catch. (The draft's mechanics keep these books; a hook that writes them
    by hand, or moves hands some other way, breaks them.)"""
    if state.is_over:
        return
    exposed = state.uno_exposed
    declared = state.uno_declared
    if not exposed and not declared:
        return
    hands = state.hands
    left = state.left
    for name, seats in (("uno_exposed", exposed), ("uno_declared", declared)):
        if len(set(seats)) != len(seats):
            raise _fail("uno", f"{_after(state)}, {name} lists a seat twice: {seats}")
        for seat in seats:
            if not 0 <= seat < len(hands) or seat in left:
                raise _fail("uno", f"{_after(state)}, {name} names seat {seat}, which is not in the game")
    for seat in exposed:
        held = len(hands[seat])
        if held != 1:
            raise _fail(
                "uno",
                f"{_after(state)}, seat {seat} is open to an UNO catch (uno_exposed) but holds {held} "
                "cards: only a seat holding one card without having called may be caught (R-UNO-CATCH); "
                "a hand changed by a mechanic (draw, set_hands, move_hands, discard_under) ends it",
            )
        if seat in declared:
            raise _fail(
                "uno",
                f"{_after(state)}, seat {seat} is both open to an UNO catch and listed as having called "
                "(R-UNO-CALL, R-UNO-SELF: a late call ends the exposure)",
            )
    for seat in declared:
        if not hands[seat]:
            raise _fail(
                "uno", f"{_after(state)}, seat {seat} holds no cards yet its UNO call stands (R-UNO-CALL)"
            )


def check_scores(state: GameState) -> None:
    """The scores are the sum of the points of the rounds played (only
    ``draft.end_round`` scores), the rounds are numbered 1, 2, ... and each
    round gives every seat a number of points."""
    players = state.players
    totals = [0] * players
    for i, result in enumerate(state.rounds):
        if result.number != i + 1:
            raise _fail(
                "scores", f"{_after(state)}, round {i + 1} of state.rounds is numbered {result.number}"
            )
        if len(result.points) != players:
            raise _fail(
                "scores",
                f"{_after(state)}, round {result.number} gives {len(result.points)} seats points, "
                f"not {players}",
            )
        for seat, points in enumerate(result.points):
            totals[seat] += points
    if tuple(totals) != state.scores:
        wrong = [
            f"seat {s} has {state.scores[s]}, its rounds gave {t}"
            for s, t in enumerate(totals)
            if state.scores[s] != t
        ]
        raise _fail(
            "scores",
            f"{_after(state)}, the scores are not the sum of the rounds' points ({'; '.join(wrong)}): "
            "points are scored once, by end_round, from score_round",
        )


def check_left(state: GameState) -> None:
    """A seat that has left the game holds no cards while the game goes on
    (it is dealt none, draws none and is given none)."""
    if state.is_over or not state.left:
        return
    for seat in state.left:
        hand = state.hands[seat]
        if hand:
            raise _fail(
                "left",
                f"{_after(state)}, seat {seat} has left the game but holds {len(hand)} card(s) "
                f"({_cards_text(Counter(hand))}): seats that left are dealt, given and drawn nothing",
            )


def _cards_in(value: Any) -> Iterator[Card]:
    """The cards inside a plugin value (nested tuples, phases, actions)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _cards_in(item)
    elif isinstance(value, Action) and value.card is not None:
        yield value.card


_VALUE_CARDS: dict[Any, tuple[Card, ...]] = {}


def _value_cards(value: Any) -> tuple[Card, ...]:
    """The cards inside ``value`` (see :func:`_cards_in`), remembered for values
    that come back state after state (an extra kept unchanged)."""
    if value is None or value == ():
        return ()
    try:
        found = _VALUE_CARDS.get(value)
    except TypeError:  # not hashable: not a valid plugin value, but not this check's business
        return tuple(_cards_in(value))
    if found is None:
        if len(_VALUE_CARDS) > 4096:
            _VALUE_CARDS.clear()
        found = _VALUE_CARDS[value] = tuple(_cards_in(value))
    return found


def _hidden_from(
    state: GameState, seat: int | None, visible: Callable[[int], frozenset[int]]
) -> Counter[Card]:
    """The cards in hands ``seat`` cannot see (``None``: hands some seat cannot see)."""
    hidden: Counter[Card] = Counter()
    seats = range(state.players)
    for other, hand in enumerate(state.hands):
        if not hand or other == seat:
            continue
        if seat is None:
            watchers = [v for v in seats if v != other and v not in state.left]
            if all(other in visible(v) for v in watchers):
                continue
        elif other in visible(seat):
            continue
        hidden.update(hand)
    return hidden


def _unexplained(
    shown: Counter[Card], deck: Counter[Card], hidden: Counter[Card], public_before: Counter[Card]
) -> list[Card]:
    """Cards of ``shown`` more copies of which are shown than are outside the
    ``hidden`` hands (or were face up before the action)."""
    return [
        card
        for card, n in shown.items()
        if n > deck[card] - hidden[card] + min(hidden[card], public_before[card])
    ]


def _shown_fields(state: GameState) -> list[tuple[str, list[Card]]]:
    """What every seat's view shows besides hands and piles, field by field (the
    phase's data, its card unless the phase is secret, the public extras): one
    card may be named by several fields (the phase and an extra keeping a copy
    of it), so each field is accounted for on its own."""
    phase = state.phase
    fields: list[tuple[str, list[Card]]] = []
    data = list(_value_cards(phase.data))
    if data:
        fields.append(("the phase's data", data))
    if phase.card is not None and not phase.secret:
        fields.append(("the phase", [phase.card]))
    if state.extras:
        public = state.ruleset.public_extras
        for key, value in state.extras:
            if key in public:
                cards = list(_value_cards(value))
                if cards:
                    fields.append((f"the public extra {key!r}", cards))
    return fields


def check_hidden_cards(state: GameState, before: GameState | None = None, *, events: bool = True) -> None:
    """No seat is shown a card it may not know: the cards a view holds outside
    the hands it may see (the phase's card unless the phase is ``secret``, the
    phase's data, the public extras) and the cards of public events must be
    accounted for by copies outside the hands hidden from that seat (on the
    discard pile, in the draw pile, set aside), or by what every seat saw
    before the action (face up, or named by the phase or a public extra: a
    plugin's extra keeping the phase a card was played in tells nothing new
    when a reshuffle has since put that card in a hand).

    With ``before`` (the state the last action was applied to) and
    ``events``, the public events of the last action are checked too (the
    step check's part: :func:`check_state` leaves them to it), unless the action ended a
    round (every hand is shown at the end of a round, in its result, and the
    next deal's starter is public). An event whose declared kind
    :attr:`~unorules.EventSpec.reveals` its cards (the rule shows them to
    every seat) is not checked. Copies of a card cannot be told apart, so a card is reported only
    when more copies are shown than can be outside hidden hands."""
    rules = state.ruleset
    phase = state.phase
    always = _shown_fields(state)
    secret: list[Card] = []
    if phase.card is not None and phase.secret:
        secret.append(phase.card)
    shown_events: list[Event] = []
    if (
        events
        and before is not None
        and state.last_action is not None
        and len(state.rounds) == len(before.rounds)
    ):
        specs = rules.events
        for event in state.events:
            if event.private or not (event.cards or event.data):
                continue
            spec = specs.get(event.kind)
            if spec is not None and spec.reveals:
                continue  # the rule shows these cards to every seat (EventSpec.reveals)
            shown_events.append(event)
    if not always and not secret and not shown_events:
        return
    deck = _deck_count(rules)
    held: list[Counter[Card]] = []

    def in_hands() -> Counter[Card]:
        if not held:
            cards: Counter[Card] = Counter()
            for hand in state.hands:
                cards.update(hand)
            held.append(cards)
        return held[0]

    cache: dict[int, frozenset[int]] = {}

    def visible(seat: int) -> frozenset[int]:
        found = cache.get(seat)
        if found is None:
            found = cache[seat] = rules.visible_hands(state, seat)
        return found

    def suspicious(cards: Iterable[Card]) -> Counter[Card]:
        # Only a card with more copies shown than lie outside every hand needs a
        # closer look; copies on the piles are counted first (the usual case:
        # the card just played).
        shown: dict[Card, int] = {}
        for card in cards:
            shown[card] = shown.get(card, 0) + 1
        discard, draw = state.discard_pile, state.draw_pile
        return Counter(
            {
                c: n
                for c, n in shown.items()
                if n > discard.count(c) + draw.count(c) and n > deck[c] - in_hands()[c]
            }
        )

    def public_before() -> Counter[Card]:
        if before is None:
            return Counter()
        # Face up, or named by what every seat saw: showing it again tells nothing new.
        shown = Counter(before.discard_pile)
        for _, cards in _shown_fields(before):
            shown |= Counter(cards)
        return shown

    fields = [(where, suspicious(cards)) for where, cards in always]
    fields = [(where, shown) for where, shown in fields if shown]
    if secret:
        fields.append(("the secret phase", suspicious(secret)))
    for where, shown in fields:
        if not shown:
            continue
        for seat in range(state.players):
            if where == "the secret phase" and seat != state.current_player:
                continue
            leaked = _unexplained(shown, deck, _hidden_from(state, seat, visible), public_before())
            if leaked:
                raise _fail(
                    "hidden",
                    f"{_after(state)}, seat {seat}'s view shows {_cards_text(Counter(leaked))} in {where}, "
                    "card(s) held in hands it may not see: keep hidden cards in private extras "
                    "(ExtraSpec(public=False)) or a secret phase (Phase(..., secret=True))",
                )
    for event in shown_events:
        shown = suspicious([*event.cards, *(c for _, v in event.data for c in _value_cards(v))])
        if not shown:
            continue
        leaked = _unexplained(shown, deck, _hidden_from(state, None, visible), public_before())
        if leaked:
            raise _fail(
                "hidden",
                f"{_after(state)}, the public {event.kind!r} event shows {_cards_text(Counter(leaked))}, "
                "held in a hand other seats may not see: an event showing hidden cards is private to "
                f"the seat allowed to see them (Event(..., private=True)); event: {event}",
            )


# -- one step: the state before an action and the state after it ------------------------------


def _card_change(expected: Iterable[Card], found: Iterable[Card]) -> str:
    """What ``found`` lacks and has more than ``expected``, as text."""
    want, got = Counter(expected), Counter(found)
    parts = []
    if want - got:
        parts.append(f"lacks {_cards_text(want - got)}")
    if got - want:
        parts.append(f"has {_cards_text(got - want)} more")
    return ", ".join(parts) or "the same cards in another order"


def _short(value: Any, limit: int = 80) -> str:
    text = str(value) if isinstance(value, str | int | Card) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_difference(
    expected: GameState | tuple[Any, ...], found: GameState | tuple[Any, ...], *, limit: int = 6
) -> str:
    """What differs between two states (or snapshots of their fields), field by
    field and briefly: cards a hand or pile lacks or has more, a field's two
    values, an extra's two values; at most ``limit`` fields. For messages
    that show the difference, never whole piles."""
    a = expected if isinstance(expected, tuple) else _snapshot(expected)
    b = found if isinstance(found, tuple) else _snapshot(found)
    parts: list[str] = []
    for name, x, y in zip(_FIELDS, a, b, strict=True):
        if x is y or x == y:
            continue
        if name == "hands":
            for seat, (h, g) in enumerate(zip(x, y, strict=False)):
                if h != g:
                    parts.append(f"hands[{seat}] {_card_change(h, g)}")
            if len(x) != len(y):
                parts.append(f"hands: {len(x)} seats, then {len(y)}")
        elif name in ("draw_pile", "discard_pile"):
            change = _card_change(x, y)
            parts.append(f"{name} ({len(x)} cards, then {len(y)}) {change}")
        elif name == "extras":
            mine, theirs = dict(x), dict(y)
            for key in sorted(set(mine) | set(theirs)):
                if mine.get(key) != theirs.get(key):
                    parts.append(f"extras[{key!r}]: {_short(mine.get(key))} -> {_short(theirs.get(key))}")
        elif name == "events":
            parts.append(
                f"events: [{', '.join(e.kind for e in x)}] -> [{', '.join(e.kind for e in y)}]"
                if [e.kind for e in x] != [e.kind for e in y]
                else "events: the same kinds, other fields"
            )
        elif name == "rounds":
            parts.append(f"rounds: {len(x)}, then {len(y)}" if len(x) != len(y) else "rounds: other results")
        else:
            parts.append(f"{name}: {_short(x)} -> {_short(y)}")
    if not parts:
        return "no field differs (equality itself is broken)"
    more = len(parts) - limit
    return "; ".join(parts[:limit]) + (f"; and {more} more" if more > 0 else "")


def _grew_only(before: Counter[Card], after: Counter[Card]) -> bool:
    return not (before - after)


def check_step(
    before: GameState,
    action: Action,
    after: GameState,
    *,
    snapshot: tuple[Any, ...] | None = None,
    again: bool = False,
) -> None:
    """The invariants of one step, ``after = before.apply(action)``:

    * ``pure``: ``before`` is as it was (give ``snapshot``, taken with
      ``_snapshot(before)`` before applying, to check it);
    * ``scores``: the action ended at most one round;
    * ``left``: no seat that had left was made to draw;
    * ``uno``: a seat whose own action brought it down to one card, without
      having called, is open to a catch; a call made for that card is used;
      a hand that changed otherwise (traded, given, taken from) keeps no call
      and no exposure (R-UNO-CALL, R-UNO-CATCH). The books are the same under
      every rule set: whether anyone may catch an open seat is the rule set's
      ``legal_actions`` (one without catches offers none);
    * ``hidden``: see :func:`check_hidden_cards`;
    * ``replay`` (with ``again``): applying the action to ``before`` once more
      gives an equal state.
    """
    if snapshot is not None and not _unchanged(before, snapshot):
        raise _fail(
            "pure",
            f"applying {action} changed the state it was applied to: {describe_difference(snapshot, before)}",
        )
    grew = len(after.rounds) - len(before.rounds)
    if not 0 <= grew <= 1:
        raise _fail(
            "scores",
            f"after {action}, {grew} rounds ended at once (rounds {len(before.rounds)} -> "
            f"{len(after.rounds)}): one action ends at most one round; end_round is called once, by the "
            "plugin whose rule ends the round",
        )
    if before.left:
        for event in after.events:
            if event.kind == "round-end":
                break
            if event.kind == "draw" and event.seat in before.left:
                raise _fail(
                    "left",
                    f"after {action}, seat {event.seat}, which has left the game, was made to draw "
                    f"{event.count} card(s): a rule that names a seat names one still in the game "
                    "(draft.next_seat and active_seats skip the seats that left)",
                )
    if not grew and not after.is_over:
        _check_uno_step(before, action, after)
    check_hidden_cards(after, before)
    if again:
        try:
            second = before.apply(action)
        except Exception as exc:
            raise _fail(
                "replay",
                f"{action} applied to the same state a second time raised {type(exc).__name__}: {exc}",
            ) from exc
        if second != after:
            raise _fail(
                "replay",
                f"{action} applied twice to the same state gave different states: "
                f"{describe_difference(after, second)} (randomness outside the game's generator, "
                "such as Python's random module, or state kept in a plugin object)",
            )


def _uno_hint(state: GameState, hint: str) -> bool:
    """Whether a plugin of the rule set declares the UNO hint ``hint`` of
    :class:`~unorules.TestHints` (``uno_exempt_when``, ``uno_handed_when``)
    for the options set."""

    def compute(rules: Ruleset) -> bool:
        options = rules.options
        return any(
            option in options and options[option] == value
            for plugin in rules.plugins
            for option, value in getattr(getattr(plugin, "testing", TestHints()), hint)
        )

    return _cached(state.ruleset, hint, compute)


def _uno_exempt(state: GameState) -> bool:
    return _uno_hint(state, "uno_exempt_when")


def _check_uno_step(before: GameState, action: Action, after: GameState) -> None:
    actor = action.seat
    declared_before = before.uno_declared
    exposed_before = before.uno_exposed
    exposed = after.uno_exposed
    declared = after.uno_declared
    left = after.left
    # Cards that came into some hand during the action: a hand that lost cards
    # to another hand was traded or given from, not emptied by its owner.
    found: list[Counter[Card]] = []

    def gained() -> Counter[Card]:
        if not found:
            cards: Counter[Card] = Counter()
            for old, new in zip(before.hands, after.hands, strict=True):
                if old is not new and old != new:
                    cards.update(Counter(new) - Counter(old))
            found.append(cards)
        return found[0]

    for seat, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
        if old is new or old == new:
            if seat in exposed and seat not in exposed_before and seat != actor:
                raise _fail(
                    "uno",
                    f"after {action}, seat {seat} became open to an UNO catch, though its hand did not "
                    "change and the action was not its own (R-UNO-CATCH)",
                )
            continue
        mine = seat == actor
        exposed_now = seat in exposed
        stale_call = seat in declared and seat in declared_before and not mine
        down_to_one = mine and len(new) == 1 and len(old) > 1 and seat not in left
        if not (exposed_now or stale_call or down_to_one):
            continue  # nothing these books could get wrong for this hand (the usual case)
        was, now = Counter(old), Counter(new)
        reduced = _grew_only(now, was)  # nothing came into the hand
        own_reduction = mine and reduced and not ((was - now) & gained())
        handed = len(new) == 1 and _uno_hint(after, "uno_handed_when")  # the rule wants a call
        if seat in exposed and not own_reduction and not handed:
            raise _fail(
                "uno",
                f"after {action}, seat {seat}'s hand changed ({_card_change(old, new)}), yet it is "
                "still open to an UNO catch: a stale exposure; a catch is for the seat that brought "
                "itself down to one card (R-UNO-CATCH)",
            )
        if stale_call and not _grew_only(was, now):
            raise _fail(
                "uno",
                f"after {action}, seat {seat}'s hand changed ({_card_change(old, new)}), yet its UNO "
                "call stands: the call was about the hand it held (R-UNO-CALL)",
            )
        if own_reduction and down_to_one:
            if seat in declared_before:
                if seat in exposed or seat in declared:
                    raise _fail(
                        "uno",
                        f"after {action}, seat {seat} called UNO and brought itself down to one card, "
                        "yet its call is not used up (it is still "
                        + ("open to a catch" if seat in exposed else "listed as having called")
                        + ") (R-UNO-CALL)",
                    )
            elif seat not in exposed and not (sum((was - now).values()) > 1 and _uno_exempt(after)):
                raise _fail(
                    "uno",
                    f"after {action}, seat {seat}'s own action left it one card ({_card_change(old, new)}) "
                    "without an UNO call, yet it is not open to a catch (R-UNO-CALL, R-UNO-CATCH): move "
                    "cards out of a hand with the draft's mechanics (play, discard_under, set_hands), "
                    "which keep these books; a rule set without catches keeps them too and offers no "
                    "catch in legal_actions, rather than closing the window with end_exposure",
                )


def check_state(
    state: GameState,
    *,
    deep: bool = True,
    refusal_sample: int = 8,
    require_rule: bool = False,
    rebuild_ruleset: bool = False,
    before: GameState | None = None,
) -> None:
    """Every single-state invariant: ``cards``, ``turn``, ``hands``, ``legal``,
    ``events``, ``uno``, ``scores``, ``left`` and ``hidden``; and with ``deep``
    also ``accepted``, ``pure``, ``refused``, ``json``, ``pickle`` and ``view``
    (these apply actions, so they cost about as much as a hundred moves).

    ``before``, the state the last action was applied to, lets ``hidden``
    accept a card the state still names after it left the discard pile (a
    plugin's public extra keeping the phase a card was played in, when a
    reshuffle then put that card in a hand): see :func:`check_hidden_cards`."""
    check_cards(state)
    check_turn(state)
    check_hands(state)
    check_legal_actions(state)
    check_events(state)
    check_uno(state)
    check_scores(state)
    check_left(state)
    check_hidden_cards(state, before, events=False)  # the events: check_step's part
    if deep:
        # One JSON text before and after all the deep checks is the ``pure``
        # check for all of them; each also checks that no field was replaced.
        text = _json_of(state)
        check_legal_actions_accepted(state, compare_json=False)
        check_illegal_actions_refused(state, refusal_sample, require_rule=require_rule)
        check_json_round_trip(state, rebuild_ruleset=rebuild_ruleset, text=text)
        check_pickled_copy(state)
        check_views(state)
        if state.to_json() != text:
            raise _fail("pure", f"{_after(state)}, applying or refusing actions changed the state's JSON")


STATE_INVARIANTS: dict[str, Callable[[GameState], None]] = {
    "cards": check_cards,
    "turn": check_turn,
    "hands": check_hands,
    "legal": check_legal_actions,
    "events": check_events,
    "uno": check_uno,
    "scores": check_scores,
    "left": check_left,
    "hidden": check_hidden_cards,
    "accepted": check_legal_actions_accepted,
    "pure": check_apply_pure,
    "refused": check_illegal_actions_refused,
    "json": check_json_round_trip,
    "pickle": check_pickled_copy,
    "view": check_views,
}
"""The single-state invariants by name, for running one kind alone."""


# -- invariants over a game ----------------------------------------------------------------


def _key(state: GameState) -> tuple[Any, ...]:
    """Everything that decides how a state plays on (not its last action or events)."""
    return (
        state.hands,
        state.draw_pile,
        state.discard_pile,
        state.color,
        state.direction,
        state.current_player,
        state.phase,
        state.dealer,
        state.scores,
        state.uno_declared,
        state.uno_exposed,
        state.stalled,
        state.left,
        state.rng,
        state.extras,
    )


DEFAULT_REPEAT_LIMIT = 50
"""How often one state may come up within a round before :class:`RoundMonitor`
calls the round stuck in a loop."""


class RoundMonitor:
    """Watches a game state by state and fails when a round does not end.

    A round fails when one state comes up ``repeat_limit`` times within it:
    play keeps going round a loop. (A state coming back once is not a
    failure: the rules allow some loops that players leave by choice, such as
    two seats drawing back and playing the last loose card in turn; random
    play leaves those long before ``repeat_limit``, while a round that cannot
    end comes back again and again.)

    A round that lasts more than ``bound`` actions (default
    :func:`round_bound` for the rule set and the game's seats) is *probed*:
    from its current state, eager play (a card played whenever one may be,
    with a generator seeded from the state) tries to end it within
    :data:`PROBE_ACTIONS` actions (or ``probe_actions``), on copies: the
    game watched is not touched. If the probe ends the round, the round is
    merely long (random play can take a very long way round) and the bound
    doubles; only a round that even eager play cannot end fails. So a legal long round is never
    reported, whatever its length, while a round that can never end is
    reported soon after the bound. Call :meth:`observe` with every state of a
    game, in order.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        bound: int | None = None,
        repeat_limit: int | None = None,
        probe_actions: int | None = None,
    ) -> None:
        self._ruleset = ruleset
        self.probe_actions = PROBE_ACTIONS if probe_actions is None else probe_actions
        self._fixed = bound
        self.bound = round_bound(ruleset) if bound is None else bound
        self.repeat_limit = DEFAULT_REPEAT_LIMIT if repeat_limit is None else repeat_limit
        self.probes = 0
        """How many times a round passed its bound and eager play showed it could still end."""
        self._round: tuple[int, bool] | None = None
        self._count = 0
        self._seen: dict[tuple[Any, ...], tuple[int, int, int]] = {}

    @property
    def actions_this_round(self) -> int:
        """Actions taken since the current round was dealt."""
        return self._count

    def observe(self, state: GameState) -> None:
        """Take the next state of the game; raise :class:`InvariantViolation` if
        its round keeps coming back to one state, or has passed its bound and
        cannot be ended even by eager play."""
        which = (len(state.rounds), state.is_over)
        if which != self._round:
            self._round = which
            self._count = 0
            self._seen = {} if state.is_over else {_key(state): (1, 0, 0)}
            self.bound = round_bound(self._ruleset, state.players) if self._fixed is None else self._fixed
            return
        if state.is_over:
            return
        self._count += 1
        count = self._count
        if count > self.bound:
            self._probe(state, count)
        key = _key(state)
        visits, first, last = self._seen.get(key, (0, count, count))
        visits += 1
        if visits >= self.repeat_limit:
            raise _fail(
                "rounds",
                f"{_after(state)} (action {count} of round {state.round_number}) the state has come up "
                f"{visits} times in the round, first after action {first}: play keeps going round a "
                f"loop of {count - last} actions, so the round may never end",
            )
        self._seen[key] = (visits, first, count)

    def _probe(self, state: GameState, count: int) -> None:
        """Fail unless eager play from ``state`` ends its round; else double the bound."""
        rng = random.Random(f"probe:{count}:{state.rng}")
        rounds = len(state.rounds)
        probe = state
        for _ in range(self.probe_actions):
            if probe.is_over or len(probe.rounds) != rounds:
                self.probes += 1
                self.bound = 2 * count
                return
            probe = probe.apply(choose_action(probe, rng, 1.0))
        if probe.is_over or len(probe.rounds) != rounds:
            self.probes += 1
            self.bound = 2 * count
            return
        raise _fail(
            "rounds",
            f"round {state.round_number} has lasted {count} actions, more than the bound of "
            f"{self.bound}, and playing a card whenever one may be did not end it in "
            f"{self.probe_actions} more actions either, so the round may never end (a plugin whose rounds "
            "are meant to last longer declares TestHints(round_length_factor=...) or max_round_actions)",
        )


def check_round_ends(
    state: GameState,
    seed: int | str = 0,
    *,
    eager: float = 0.0,
    bound: int | None = None,
    each: Callable[[GameState], None] | None = None,
) -> GameState:
    """Play on from ``state`` with seeded random legal actions until its round
    ends (or the game does); fail if it takes more than the bound or keeps
    coming back to one state (see :class:`RoundMonitor`). Returns the state
    where the round ended. ``each`` is called with every state on the way (to
    check other invariants)."""
    monitor = RoundMonitor(state.ruleset, bound)
    monitor.observe(state)
    rng = random.Random(seed)
    rounds = len(state.rounds)
    while not state.is_over and len(state.rounds) == rounds:
        state = state.apply(choose_action(state, rng, eager))
        monitor.observe(state)
        if each is not None:
            each(state)
    return state


def check_replay(replay: Any, state: GameState) -> None:
    """The same seed and actions give an equal state: ``replay`` (a
    :class:`~unorules.testing.Replay`) played again equals ``state``.

    Python's global ``random`` generator is seeded afresh for the replay (and
    put back afterwards), so a plugin that draws from it instead of the game's
    generator gives another game."""
    saved = random.getstate()
    random.seed(f"unorules replay check {len(replay.actions)}")
    try:
        again = replay.play()
    except IllegalActionError as exc:
        raise _fail("replay", f"replaying the game refused an action: {exc}") from None
    finally:
        random.setstate(saved)
    if again != state:
        raise _fail(
            "replay", f"replaying the same seed and actions gave another state: {_diff(state, again)}"
        )
    if again.to_json() != state.to_json():
        raise _fail("replay", "replaying the same seed and actions gave a state with other JSON")


def check_replay_game(replay: Any, *, deep: bool = True, repeat_limit: int | None = None) -> GameState:
    """Replay a game checking every invariant on every state; return the last.

    Runs :func:`check_state` on each state, a :class:`RoundMonitor` over the
    game, treats a legal action that ``apply`` refuses or crashes on as an
    ``accepted`` violation, and finally checks the ``replay`` invariant.
    Violations say after which action of the replay they happened.
    """
    state: GameState = replay.start()
    monitor = RoundMonitor(state.ruleset, repeat_limit=repeat_limit)
    monitor.observe(state)
    step = 0
    try:
        check_state(state, deep=deep, rebuild_ruleset=deep)
        for action in replay.actions:
            step += 1
            if not state.is_legal(action):
                listed = ", ".join(map(str, state.legal_actions()[:12]))
                raise _fail("replay", f"the replay's action {action} is not legal; legal: {listed}, ...")
            before, snapshot = state, _snapshot(state)
            try:
                state = state.apply(action)
            except Exception as exc:
                raise _fail("accepted", f"apply({action}) raised {type(exc).__name__}: {exc}") from exc
            monitor.observe(state)
            check_step(before, action, state, snapshot=snapshot, again=deep)
            check_state(state, deep=deep, before=before)
    except InvariantViolation as violation:
        raise violation.within(f"replay step {step}") from violation
    check_replay(replay, state)
    return state

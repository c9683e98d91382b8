"""The single-state invariants: ``cards``, ``turn``, ``hands``, ``legal``,
``accepted``, ``pure``, ``refused``, ``json``, ``pickle``, ``view`` and ``events``
(see the table of :mod:`unorules.testing.invariants`).

Part of :mod:`unorules.testing.invariants`, which re-exports every public name
of this module; import them from there.
"""

from __future__ import annotations

import contextlib
import pickle
import random
from collections import Counter
from collections.abc import Sequence

from unorules.actions import _VERBS, Action
from unorules.cards import COLORS
from unorules.errors import IllegalActionError, NotationError
from unorules.ruleset import Ruleset, installed_plugins
from unorules.state import GameState
from unorules.testing.step_invariants import (
    check_left,
    check_step,
    check_uno,
)
from unorules.testing.violations import (
    CORE_VERBS,
    InvariantViolation,
    _after,
    _cached,
    _cards_text,
    _deck_count,
    _deck_ids,
    _deck_weights,
    _diff,
    _fail,
    _json_of,
    _snapshot,
    _unchanged,
    describe_difference,
    turn_only_verbs,
)

__all__ = [
    "check_apply_pure",
    "check_cards",
    "check_events",
    "check_hands",
    "check_illegal_actions_refused",
    "check_json_round_trip",
    "check_legal_actions",
    "check_legal_actions_accepted",
    "check_pickled_copy",
    "check_turn",
    "check_views",
]


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

"""Checks for programs that carry states around: pickling, copying and views.

A server, an RL trainer or a search library copies states between processes
(``pickle``, ``cloudpickle``) and inside one (``copy.deepcopy``), and sends
each client only its seat's view. The checks here raise
:class:`~unorules.testing.InvariantViolation` naming what went wrong:

* :func:`check_pickle_round_trip`: ``pickle``, ``cloudpickle`` (when
  installed) and ``copy.deepcopy`` give an equal state that shares the rule
  set and the interned cards and actions, and plays on exactly like the
  original;
* :func:`check_view_secrets`: no seat's view (nor a spectator's) changes
  when what that seat may not know changes: the other hands (unless shown
  to it; for two-faced cards, keeping the backs it sees), the draw pile
  (keeping the back on top) and the generator, a card drawn by another seat in a
  secret phase, the cards of other seats' private events and the cards in
  plugin data that no plugin declares public. A view that changed would leak
  it to the client it is sent to;
* :func:`random_states`: the states of a seeded random game, to feed the checks.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from unorules.actions import Action
from unorules.cards import Card
from unorules.ruleset import Ruleset
from unorules.state import PLAY, GameState, SeatView, Value
from unorules.testing.invariants import InvariantViolation

__all__ = ["check_pickle_round_trip", "check_view_secrets", "copiers", "random_states", "scrambled"]


def copiers() -> dict[str, Callable[[Any], Any]]:
    """The ways a state is copied: ``pickle`` (highest protocol), ``cloudpickle``
    (if installed) and ``copy.deepcopy``, by name."""
    found: dict[str, Callable[[Any], Any]] = {
        "pickle": lambda value: pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)),
        "deepcopy": copy.deepcopy,
    }
    try:
        import cloudpickle  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - installed with the test requirements
        return found
    found["cloudpickle"] = lambda value: cloudpickle.loads(cloudpickle.dumps(value))
    return found


def _fail(how: str, detail: str, state: GameState) -> InvariantViolation:
    return InvariantViolation("pickle", f"{how}: {detail} (state {state!r})")


def check_pickle_round_trip(state: GameState, *, play_on: int = 3) -> None:
    """Copy ``state`` every way :func:`copiers` knows; each copy must equal it,
    hold the same rule set object (rebuilt through the per-process cache), the
    same interned cards, actions and colours, the shared ``PLAY`` phase, the
    same legal actions, and give equal states for up to ``play_on`` of its
    legal actions. Its views must round-trip too."""
    legal = state.legal_actions()
    step = max(1, len(legal) // max(1, play_on))
    probes = legal[::step][:play_on]
    for how, copier in copiers().items():
        other = copier(state)
        if not isinstance(other, GameState) or other != state:
            raise _fail(how, "the copy differs from the original", state)
        if other.ruleset is not state.ruleset:
            raise _fail(how, "the copy has a rule set of its own (not rebuilt through the cache)", state)
        for mine, theirs in zip(state.hands, other.hands, strict=True):
            if any(a is not b for a, b in zip(mine, theirs, strict=True)):
                raise _fail(how, "a card in a hand is not the interned card", state)
        if state.last_action is not None and other.last_action is not state.last_action:
            raise _fail(how, "the last action is not the interned action", state)
        if other.color is not state.color:
            raise _fail(how, "the colour is not the same enum member", state)
        if (state.phase is PLAY) != (other.phase is PLAY):
            raise _fail(how, "the ordinary phase is not the shared PLAY object", state)
        if other.legal_actions() != legal or any(
            a is not b for a, b in zip(other.legal_actions(), legal, strict=True)
        ):
            raise _fail(how, "the copy's legal actions differ", state)
        for action in probes:
            if other.apply(action) != state.apply(action):
                raise _fail(how, f"after {action} the copy and the original differ", state)
        for seat in (*range(state.players), None):
            view = state.public_view() if seat is None else state.view(seat)
            if copier(view) != view:
                raise _fail(how, f"the view of seat {seat} does not round-trip", state)


def random_states(
    ruleset: Ruleset, players: int, seed: int | str, *, steps: int = 200, eager: float = 0.7
) -> Iterator[GameState]:
    """The states of one seeded random game of ``ruleset`` (at most ``steps``
    actions after the deal): each step takes a random play with probability
    ``eager`` when one is legal (so rounds end), else any random legal action."""
    rng = random.Random(f"{seed}")
    state = ruleset.new_game(players=players, seed=seed)
    yield state
    for _ in range(steps):
        legal = state.legal_actions()
        if not legal:
            return
        plays = [a for a in legal if a.verb == "play"]
        action = rng.choice(plays if plays and rng.random() < eager else legal)
        state = state.apply(action)
        yield state


def _swap_cards(value: Value, deck: tuple[Card, ...], rng: random.Random) -> Value:
    """``value`` with every card in it (also inside tuples and actions) replaced by a random one."""
    if isinstance(value, Card):
        return rng.choice(deck)
    if isinstance(value, Action) and value.card is not None:
        return Action.of(value.seat, value.verb, rng.choice(deck), value.color, value.target)
    if isinstance(value, tuple):
        return tuple(_swap_cards(v, deck, rng) for v in value)
    return value


def scrambled(state: GameState, seat: int | None, rng: random.Random) -> GameState:
    """A state that differs from ``state`` only in what ``seat`` may not know
    (``None``: a spectator): the hands not shown to it and the draw pile dealt
    again from their cards (sizes kept; for two-faced cards, every back the
    seat sees kept in its place, and the seat's own cards exchanged for cards
    showing the same faces when it does not see its own backs), another seat's secret card, the cards
    of other seats' private events and of non-public plugin data, and the
    generator's state."""
    deck = tuple(dict.fromkeys(state.ruleset.deck))
    shown = set() if seat is None else set(state.view(seat).visible_hands)
    hidden = [s for s in range(state.players) if s not in shown]
    pool = [c for s in hidden for c in state.hands[s]] + list(state.draw_pile)
    rng.shuffle(pool)
    if state.ruleset.two_faced:
        pool = _keeping_backs(state, seat, hidden, pool, rng)
    hands = list(state.hands)
    phase = state.phase
    mover = state.current_player
    for s in hidden:
        old = hands[s]
        hands[s], pool = tuple(pool[: len(old)]), pool[len(old) :]
        if s == mover and phase.secret and phase.card is not None and old and old[-1] is phase.card:
            phase = attrs.evolve(phase, card=hands[s][-1])  # the card drawn stays the last of the hand
    if phase.secret and phase.card is not None and mover in hidden and phase is state.phase:
        phase = attrs.evolve(phase, card=rng.choice(deck))
    if seat is not None and state.ruleset.two_faced and seat not in state.view(seat).backs:
        old = hands[seat]
        hands[seat], pool = _own_backs_changed(state, old, pool, rng)
        if seat == mover and phase.card is not None and old and old[-1] is phase.card:
            phase = attrs.evolve(phase, card=hands[seat][-1])
    events = tuple(
        attrs.evolve(e, cards=tuple(rng.choice(deck) for _ in e.cards)) if e.private and e.seat != seat else e
        for e in state.events
    )
    public = state.ruleset.public_extras
    extras = tuple((k, v if k in public else _swap_cards(v, deck, rng)) for k, v in state.extras)
    return state.replace(
        hands=tuple(hands),
        draw_pile=tuple(pool),
        phase=phase,
        events=events,
        extras=extras,
        rng=rng.getrandbits(64),
    )


def _keeping_backs(
    state: GameState, seat: int | None, hidden: list[int], pool: list[Card], rng: random.Random
) -> list[Card]:
    """``pool`` (the cards of the ``hidden`` hands, then the draw pile, shuffled)
    reordered for a deck of two-faced cards so that dealing it out again keeps
    what ``seat`` sees of them: the backs of every hand whose backs it sees
    (``SeatView.backs``), and the back on top of the draw pile."""
    side = state.side
    view = state.public_view() if seat is None else state.view(seat)
    wanted: list[Card | None] = []  # the back each position of the deal must show, None: any
    for s in hidden:
        hand = state.hands[s]
        wanted += [c.faces[1 - side] for c in hand] if s in view.backs else [None] * len(hand)
    wanted += [None] * len(state.draw_pile)
    if state.draw_pile:
        wanted[len(wanted) - len(state.draw_pile)] = state.draw_pile[0].faces[1 - side]
    by_back: dict[Card, list[Card]] = {}
    for card in pool:  # already shuffled: each back's cards in random order
        by_back.setdefault(card.faces[1 - side], []).append(card)
    dealt: list[Card | None] = [by_back[back].pop() if back is not None else None for back in wanted]
    rest = [card for cards in by_back.values() for card in cards]
    rng.shuffle(rest)
    return [card if card is not None else rest.pop() for card in dealt]


def _own_backs_changed(
    state: GameState, hand: tuple[Card, ...], draw: list[Card], rng: random.Random
) -> tuple[tuple[Card, ...], list[Card]]:
    """For a seat that does not see its own backs (two-faced cards): its
    ``hand`` with cards exchanged for cards of the ``draw`` pile (below its
    top, whose back every seat sees) that show the same face: what the seat
    sees of its hand is kept, the backs it does not see change."""
    side = state.side
    hand_list = list(hand)
    for i, card in enumerate(hand_list):
        same = [j for j in range(1, len(draw)) if draw[j].faces[side] is card.faces[side]]
        if same:
            j = rng.choice(same)
            hand_list[i], draw[j] = draw[j], card
    return tuple(hand_list), draw


def _differences(a: SeatView, b: SeatView) -> list[str]:
    da, db = a.to_data(), b.to_data()
    return [key for key in da if da[key] != db.get(key)]


def check_view_secrets(state: GameState, rng: random.Random | None = None, tries: int = 2) -> int:
    """Check that no view of ``state`` depends on what its seat may not know
    (see :func:`scrambled`): each seat's view and the spectator's view must
    be the same in ``tries`` scrambled copies of the state. Also checks that
    a view's plugin data holds only public keys and that its JSON reads back
    as an equal view. Returns the number of comparisons made (a scrambled copy
    that a plugin cannot even compute legal actions for is left out)."""
    rng = random.Random(repr(state)) if rng is None else rng
    public = state.ruleset.public_extras
    compared = 0
    for seat in (*range(state.players), None):
        view = state.public_view() if seat is None else state.view(seat)
        if any(k not in public for k, _ in view.extras):
            raise InvariantViolation("view", f"view({seat}) holds non-public plugin data (state {state!r})")
        if SeatView.from_json(view.to_json()) != view:
            raise InvariantViolation("view", f"view({seat}) does not read back from JSON (state {state!r})")
        for _ in range(tries):
            other = scrambled(state, seat, rng)
            try:
                changed = other.public_view() if seat is None else other.view(seat)
            except Exception:  # an inconsistent scramble a plugin cannot handle: not evidence
                continue
            compared += 1
            if changed != view:
                raise InvariantViolation(
                    "view",
                    f"view({seat}) changes with what seat {seat} may not know: "
                    f"{', '.join(_differences(view, changed))} differ (state {state!r})",
                )
    return compared

"""Tools for testing unorules plugins.

Here: :func:`arrange_deck` and :func:`rearranged` for scenario tests,
:func:`draft_of` for tests of a draft's mechanics, and,
loaded on first use, :class:`Replay`, the invariant checks
(:func:`check_state`, :func:`check_replay_game`, :class:`InvariantViolation`,
...) and the conformance runner (:func:`run_conformance`,
:func:`check_conformance`).

This module imports nothing beyond the core, so it is cheap to import (the
pytest plugin imports it in every pytest run). The submodules:

* :mod:`unorules.testing.replay`: :class:`Replay`, seeded random play;
* :mod:`unorules.testing.invariants`: the invariants as functions;
* :mod:`unorules.testing.strategies`: hypothesis strategies (needs hypothesis);
* :mod:`unorules.testing.machine`: the hypothesis state machine;
* :mod:`unorules.testing.conformance`: the conformance runner;
* :mod:`unorules_pytest` (a top-level module, so loading it costs nothing):
  fixtures and ``--unorules-conformance``.

Their parts, imported from the modules above (which re-export their public
names): ``violations``, ``state_invariants`` and ``step_invariants`` (of the
invariants), ``play`` (the seeded random play of the replay), ``combinations``
(the rule-set helpers of the strategies, without hypothesis) and ``checking``
(the conformance runner's game checks and shrinker). The modules import one
another in the layers of the ``.importlinter`` contract.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from unorules.cards import Card, parse_cards
from unorules.draft import draft_of
from unorules.state import GameState

if TYPE_CHECKING:
    from unorules.testing.conformance import check_conformance, run_conformance
    from unorules.testing.invariants import (
        InvariantViolation,
        RoundMonitor,
        check_apply_pure,
        check_cards,
        check_events,
        check_hands,
        check_illegal_actions_refused,
        check_json_round_trip,
        check_legal_actions,
        check_legal_actions_accepted,
        check_replay,
        check_replay_game,
        check_round_ends,
        check_state,
        check_turn,
        check_views,
    )
    from unorules.testing.replay import Replay

__all__ = [
    "InvariantViolation",
    "Replay",
    "RoundMonitor",
    "arrange_deck",
    "check_apply_pure",
    "check_cards",
    "check_conformance",
    "check_events",
    "check_hands",
    "check_illegal_actions_refused",
    "check_json_round_trip",
    "check_legal_actions",
    "check_legal_actions_accepted",
    "check_replay",
    "check_replay_game",
    "check_round_ends",
    "check_state",
    "check_turn",
    "check_views",
    "draft_of",
    "rearranged",
    "run_conformance",
]

# Where each lazily loaded name of ``__all__`` lives: the invariants module
# unless listed here; the functions of _HERE are defined in this module.
_HERE = ("arrange_deck", "draft_of", "rearranged")
_ELSEWHERE = {"Replay": "replay", "check_conformance": "conformance", "run_conformance": "conformance"}
_LAZY = {name: _ELSEWHERE.get(name, "invariants") for name in __all__ if name not in _HERE}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'unorules.testing' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"unorules.testing.{module}"), name)
    globals()[name] = value
    return value


Cards = str | Iterable[str | Card]


def arrange_deck(
    hands: Iterable[Cards],
    starter: str | Card,
    draw: Cards = (),
    dealer: int = 0,
    hand_size: int = 7,
) -> list[str]:
    """The arranged deck (top card first) that deals ``hands`` to seats 0, 1, ...

    Cards are dealt one at a time starting with the seat after ``dealer``, so
    the deck interleaves the hands; then comes the ``starter``, then the
    cards to be drawn first. Every hand must hold ``hand_size`` cards.

    >>> arrange_deck(["R1 R2", "G1 G2"], "B5", draw="Y9", hand_size=2)
    ['G1', 'R1', 'G2', 'R2', 'B5', 'Y9']
    """
    parsed = [parse_cards(h) for h in hands]
    players = len(parsed)
    for seat, hand in enumerate(parsed):
        if len(hand) != hand_size:
            raise ValueError(f"hand {seat} has {len(hand)} cards; every hand must have {hand_size}")
    order: list[str] = []
    for i in range(hand_size):
        for k in range(players):
            seat = (dealer + 1 + k) % players
            order.append(str(parsed[seat][i]))
    order.append(str(starter if isinstance(starter, Card) else Card.parse(starter)))
    order += [str(c) for c in parse_cards(draw)]
    return order


def rearranged(
    state: GameState,
    hands: Mapping[int, Cards] | None = None,
    top: str | Card | None = None,
    draw: Cards = (),
) -> GameState:
    """A copy of ``state`` with some hands, the top card and the next cards to
    draw set, every card still accounted for.

    Named cards are taken from wherever they are (the draw pile, other hands,
    the discard pile); a hand's old cards go to the bottom of the draw pile.
    Meant for scenario tests that need, say, a two-card hand.
    """
    new_hands = [list(h) for h in state.hands]
    pile = list(state.draw_pile)
    discard = list(state.discard_pile)
    wanted: dict[int, tuple[Card, ...]] = {s: parse_cards(c) for s, c in (hands or {}).items()}
    for seat in wanted:
        pile += new_hands[seat]
        new_hands[seat] = []

    def take(card: Card, forbidden: set[int]) -> None:
        if card in pile:
            pile.remove(card)
            return
        for seat, hand in enumerate(new_hands):
            if seat not in forbidden and card in hand:
                hand.remove(card)
                return
        if card in discard[:-1]:
            discard.remove(card)
            return
        raise ValueError(f"no spare {card} to move")

    for seat, cards in wanted.items():
        for card in cards:
            take(card, set(wanted))
        new_hands[seat] = list(cards)
    top_card = state.top_card
    if top is not None:
        top_card = top if isinstance(top, Card) else Card.parse(top)
        if top_card is not discard[-1]:
            take(top_card, set(wanted))
            pile.append(discard.pop())
            discard.append(top_card)
    front = list(parse_cards(draw))
    for card in front:
        take(card, set(wanted))
    # Hands that lost a card to another hand are refilled from the pile's end,
    # so hand sizes outside ``hands`` stay as they were.
    for seat, hand in enumerate(new_hands):
        if seat not in wanted:
            while len(hand) < len(state.hands[seat]) and pile:
                hand.append(pile.pop())
    color = state.color if top is None else top_card.color
    return state.replace(
        hands=tuple(tuple(h) for h in new_hands),
        draw_pile=tuple(front + pile),
        discard_pile=tuple(discard),
        color=color if color is not None else state.color,
    )

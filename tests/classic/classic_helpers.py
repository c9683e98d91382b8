"""Helpers shared by the classic scenario tests: arranged games and short checks.

Every scenario builds its game from an arranged deck (:func:`game`) or a
rearranged state, then plays the rule out through ``state.apply`` with the
action notation, exactly as a program using the library would.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

from unorules import Card, GameState, IllegalActionError, Ruleset, parse_cards
from unorules.testing import arrange_deck, rearranged

__all__ = [
    "BLUES",
    "GREENS",
    "REDS",
    "YELLOWS",
    "all_cards",
    "cards",
    "classic",
    "game",
    "hand",
    "play",
    "rearranged",
    "refused",
]

GREENS, BLUES, YELLOWS, REDS = (" ".join(f"{c}{n}" for n in range(1, 8)) for c in "GBYR")
"""Seven numbers of one colour: hands that matter only by their size and colour."""


@functools.cache
def _ruleset(options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.from_names(["classic"], options=dict(options))


def classic(**options: Any) -> Ruleset:
    """The classic rule set with ``options`` (built once per distinct set of options)."""
    return _ruleset(tuple(sorted(options.items())))


def game(
    hands: Iterable[str],
    starter: str,
    draw: str = "",
    dealer: int = 0,
    seed: int = 0,
    **options: Any,
) -> GameState:
    """A new classic game whose seats hold ``hands`` (seat 0 first, 7 cards each),
    with ``starter`` turned and ``draw`` the next cards of the draw pile."""
    hands = list(hands)
    deck = arrange_deck(hands, starter, draw=draw, dealer=dealer)
    return classic(**options).new_game(players=len(hands), seed=seed, deck=deck, dealer=dealer)


def cards(text: str) -> tuple[Card, ...]:
    """Cards from notation (``"R7 W+4"``)."""
    return parse_cards(text)


def hand(state: GameState, seat: int) -> str:
    """``seat``'s hand in notation, in hand order."""
    return " ".join(str(c) for c in state.hands[seat])


def play(state: GameState, *actions: str) -> GameState:
    """Apply ``actions`` in turn, checking that none of them changes its input."""
    for action in actions:
        before = state.to_json()
        after = state.apply(action)
        assert state.to_json() == before, f"{action} changed the state it was applied to"
        state = after
    return state


def all_cards(state: GameState) -> Counter[Card]:
    """Every card of the state: hands, draw pile and discard pile."""
    found: Counter[Card] = Counter(state.draw_pile)
    found.update(state.discard_pile)
    for h in state.hands:
        found.update(h)
    return found


def refused(state: GameState, action: str) -> IllegalActionError:
    """Apply ``action``, expecting an :class:`~unorules.IllegalActionError`; check
    that the state is unchanged and return the error."""
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert state.to_json() == before
    assert not state.is_legal(action)
    return info.value

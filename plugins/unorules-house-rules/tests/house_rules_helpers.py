"""Helpers of the house-rule scenario tests: arranged games and short checks.

The scenarios (moved from ``tests/classic/`` with the options, issue 42) name
``classic`` and the options as before the move: the rule set then adds the
house-rule plugin that declares each option (``unorules.spec.option_owners``),
so every scenario also checks that the old spelling plays as it did.
``test_house_rules_plugins.py`` names the plugins.

Every scenario deals an arranged deck (dealer 0, so seat 1 plays first) or
rearranges a dealt game, then plays the rule out through ``state.apply`` with
the action notation, as a program using the library would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from unorules import Event, GameState, IllegalActionError, Ruleset
from unorules.testing import arrange_deck, rearranged

__all__ = ["OTHERS", "deal", "events", "hand", "legal", "play", "rearranged", "refused", "rules"]

OTHERS = "Y1 Y2 Y3 Y4 Y5 Y6 Y7"
"""A hand that matters only by its size."""


def rules(*plugins: str, **options: Any) -> Ruleset:
    """``classic`` and ``plugins`` with ``options``."""
    return Ruleset.from_names(["classic", *plugins], options=options)


def deal(
    hands: Iterable[str],
    starter: str = "R5",
    draw: str = "",
    plugins: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
) -> GameState:
    """A game whose seats hold ``hands`` (seat 0 first), dealer 0, ``starter``
    turned and ``draw`` the next cards of the draw pile."""
    hands = list(hands)
    ruleset = Ruleset.from_names(["classic", *plugins], options=dict(options or {}))
    return ruleset.new_game(players=len(hands), deck=arrange_deck(hands, starter, draw=draw), dealer=0)


def legal(state: GameState, seat: int | None = None) -> set[str]:
    """The legal actions (of ``seat``, or of every seat) in notation."""
    return {str(a) for a in state.legal_actions(seat)}


def play(state: GameState, *actions: str) -> GameState:
    """Apply ``actions`` in turn, checking that none of them changes its input."""
    for action in actions:
        before = state.to_json()
        after = state.apply(action)
        assert state.to_json() == before, f"{action} changed the state it was applied to"
        state = after
    return state


def refused(state: GameState, action: str) -> IllegalActionError:
    """Apply ``action``, expecting an :class:`~unorules.IllegalActionError`; check
    that the state is unchanged and return the error."""
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert state.to_json() == before
    assert not state.is_legal(action)
    return info.value


def hand(state: GameState, seat: int) -> str:
    """``seat``'s hand in notation, in hand order."""
    return " ".join(str(c) for c in state.hands[seat])


def events(state: GameState, kind: str) -> list[Event]:
    """The events of ``kind`` the last action emitted."""
    return [e for e in state.events if e.kind == kind]

"""Random-play smoke test of the stacking plugin: seeded games to the end."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from unorules import GameState, Ruleset


def play_to_the_end(rules: Ruleset, players: int, seed: int, check_every: int = 250) -> GameState:
    """Play seeded random legal actions until the game is over, checking that
    every card is accounted for, that legal actions are listed (once each)
    until the end, and that the state survives JSON and plays on alike."""
    state = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    deck = Counter(rules.deck)
    size = len(rules.deck)
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"no legal action at step {steps}"
        assert len(set(legal)) == len(legal), f"an action is listed twice at step {steps}"
        action = rng.choice(legal)
        after = state.apply(action)
        steps += 1
        assert len(after.draw_pile) + len(after.discard_pile) + sum(map(len, after.hands)) == size
        if steps % check_every == 0 or len(after.rounds) != len(state.rounds):
            assert Counter(after.draw_pile + after.discard_pile + sum(after.hands, ())) == deck
            copy = GameState.from_json(after.to_json())
            assert copy == after
            if not after.is_over:
                probe = rng.choice(after.legal_actions())
                assert copy.apply(probe) == after.apply(probe)
        assert steps < 200_000, "the game does not end"
        state = after
    assert state.legal_actions() == ()
    assert state.winner is not None
    return state


@pytest.mark.parametrize("options", [{}, {"stack_mix": "on"}, {"challenge": "off", "stack_mix": "on"}])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_r_stack_random_games_play_to_the_end(players: int, options: dict[str, Any]) -> None:
    rules = Ruleset.from_names(["classic", "stacking"], options=options)
    state = play_to_the_end(rules, players, seed=players * 7 + len(options))
    assert max(state.scores) >= 500

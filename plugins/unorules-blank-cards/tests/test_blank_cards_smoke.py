"""Random play with blank cards added to classic: the state machine's invariants hold."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from unorules import GameState, IllegalActionError, Ruleset


def play_to_the_end(rules: Ruleset, players: int, seed: int) -> tuple[GameState, Counter[str]]:
    """Play one seeded random game to its end, checking the invariants on the way;
    return the final state and how often each event kind happened."""
    state = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    deck = Counter(rules.deck)
    seen: Counter[str] = Counter()
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "legal actions are empty before the game is over"
        assert 0 <= state.current_player < players
        assert state.current_player not in state.left
        assert Counter(state.draw_pile + state.discard_pile + sum(state.hands, ())) == deck
        action = rng.choice(legal)
        if steps % 41 == 0:
            text = state.to_json()
            again = GameState.from_json(text)
            assert again == state
            assert again.apply(action) == state.apply(action)
            assert state.to_json() == text  # apply never changes its input
        state = state.apply(action)
        seen.update(e.kind for e in state.events)
        steps += 1
        assert steps < 200_000, "the game does not end"
    assert state.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        state.apply(legal[0])
    return state, seen


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3)])
def test_random_games_with_blank_cards_keep_the_invariants(players: int, seed: int) -> None:
    rules = Ruleset.from_names(
        ["classic", "blank-cards"],
        options={"target_score": 300, "blank_cards": "house-rule house-rule W aside", "lost_cards": "R7"},
    )
    final, seen = play_to_the_end(rules, players, seed)
    assert final.winner is not None
    assert seen["house-rule"] > 0

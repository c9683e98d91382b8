"""Random play with the customizable wilds bound to every ready effect, alone with
classic and with all four plugins of the 2015 edition together: the invariants hold."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from unorules import GameState, IllegalActionError, Ruleset


def play_to_the_end(rules: Ruleset, players: int, seed: int) -> tuple[GameState, Counter[str]]:
    """Play one seeded random game to its end, checking the invariants on the way;
    return the final state and how often each event kind and phase happened."""
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
        assert any(a.seat == state.current_player for a in legal), "the seat to move has nothing to do"
        action = rng.choice(legal)
        if steps % 37 == 0:
            text = state.to_json()
            again = GameState.from_json(text)
            assert again == state
            assert again.apply(action) == state.apply(action)
            assert state.to_json() == text  # apply never changes its input
            for seat in range(players):
                assert state.view(seat).hand == state.hands[seat]
        state = state.apply(action)
        seen.update(e.kind for e in state.events)
        seen[f"phase:{state.phase.name}"] += 1
        steps += 1
        assert steps < 200_000, "the game does not end"
    assert state.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        state.apply(legal[0])
    return state, seen


BINDINGS = [
    ("draw-until-color", "discard-wilds", "discard-specials", "phase:draw-color"),
    ("cannot-play-draw-3", "extra-turn", "next-to-7", "phase:discard"),
    ("all-to-3", "open-hands", "joke", "phase:keep"),
    ("stiff-elbows", "crow-or-draw-4", "crow-and-draw-4", "phase:rooster"),
]


@pytest.mark.parametrize(("players", "bindings"), list(zip((2, 3, 4, 6), BINDINGS, strict=True)))
def test_random_games_with_every_ready_effect_keep_the_invariants(
    players: int, bindings: tuple[str, str, str, str]
) -> None:
    options: dict[str, Any] = {f"custom_wild_{i}": name for i, name in enumerate(bindings[:3], 1)}
    rules = Ruleset.from_names(["classic", "custom-wilds"], options={"target_score": 250, **options})
    final, seen = play_to_the_end(rules, players, seed=players)
    assert final.winner is not None
    assert seen["custom-wild"] > 0
    assert seen[bindings[3]] > 0


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 12)])
def test_random_games_with_all_four_plugins_together_keep_the_invariants(players: int, seed: int) -> None:
    rules = Ruleset.from_names(
        ["classic", "swap-hands", "shuffle-hands", "custom-wilds", "blank-cards"],
        options={
            "target_score": 250,
            "with_swap_hands": True,
            "custom_wild_1": "open-hands",
            "custom_wild_2": "all-to-3",
            "custom_wild_3": "joke",
            "blank_cards": "house-rule W aside",
        },
    )
    assert len(rules.deck) == 108 + 1 + 1 + 3 + 2
    final, seen = play_to_the_end(rules, players, seed)
    assert final.winner is not None
    for kind in ("swap-hands", "shuffle-hands", "custom-wild"):
        assert seen[kind] > 0, kind

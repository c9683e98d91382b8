"""Random-play smoke tests of the house rules together, and with every other plugin.

Seeded games are played to the end with random legal actions, checking that
every card is accounted for, that legal actions are listed (once each) until
the game is over, and that states survive JSON and play on alike. (The
all-subsets state machine lives with the testing toolkit.)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from unorules import GameState, Ruleset, RulesetError, installed_plugins

HOUSE = ["classic", "stacking", "seven-o", "jump-in"]

# Options that make each other plugin take part (and games end sooner).
OTHER_OPTIONS: dict[str, dict[str, Any]] = {
    "penalties": {"enforcement": "table"},
    "elimination": {"elimination_limit": 150},
    "custom-wilds": {"custom_wild_1": "C1", "custom_wild_2": "C5", "custom_wild_3": "C4"},
    "blank-cards": {"blank_cards": "R0 G7 house-rule"},
}


def play_to_the_end(rules: Ruleset, players: int, seed: int, check_every: int = 250) -> GameState:
    """Play seeded random legal actions until the game is over, checking the
    cards, the legal actions and the JSON round trip on the way."""
    state = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    deck = Counter(rules.deck)
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"no legal action at step {steps}"
        assert len(set(legal)) == len(legal), f"an action is listed twice at step {steps}"
        assert any(a.seat == state.current_player for a in legal)
        action = rng.choice(legal)
        after = state.apply(action)
        steps += 1
        if steps % check_every == 0 or len(after.rounds) != len(state.rounds):
            assert Counter(after.draw_pile + after.discard_pile + sum(after.hands, ())) == deck
            copy = GameState.from_json(after.to_json())
            assert copy == after
            if not after.is_over:
                probe = rng.choice(after.legal_actions())
                assert copy.apply(probe) == after.apply(probe)
        assert steps < 300_000, "the game does not end"
        state = after
    assert state.legal_actions() == ()
    return state


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"stack_mix": "on", "jump_in_match": "color-or-number"},
        {"challenge": "off", "challenger": "anyone", "stack_mix": True},
    ],
)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_r_stack_r_seven_o_r_jump_all_three_play_to_the_end(players: int, options: dict[str, Any]) -> None:
    rules = Ruleset.from_names(HOUSE, options=options)
    state = play_to_the_end(rules, players, seed=100 + players + 10 * len(options))
    assert state.winner is not None
    assert max(state.scores) >= 500


def _others() -> list[str]:
    return sorted(set(installed_plugins()) - set(HOUSE))


@pytest.mark.parametrize("other", _others())
def test_the_house_rules_combine_with_every_other_installed_plugin(other: str) -> None:
    # Elimination ends the game by its own limit and refuses a target score.
    options = {**({} if other == "elimination" else {"target_score": 150}), **OTHER_OPTIONS.get(other, {})}
    try:
        rules = Ruleset.from_names([*HOUSE, other], options=options)
    except RulesetError as exc:
        refusal = str(exc)
    else:
        refusal = ""
    if refusal:  # a refusal must say which plugins conflict and why
        assert "conflict" in refusal
        assert other in refusal
        return
    state = play_to_the_end(rules, 4, seed=len(other))
    assert state.is_over


@pytest.mark.parametrize("players", [3, 6])
def test_the_house_rules_with_every_special_card_and_the_table_modes(players: int) -> None:
    wanted = ["swap-hands", "shuffle-hands", "custom-wilds", "blank-cards", "penalties", "elimination"]
    if not set(wanted) <= set(installed_plugins()):
        pytest.skip("the special-wild and mode plugins are not all installed")
    options: dict[str, Any] = {"with_swap_hands": True}
    for name in wanted:
        options.update(OTHER_OPTIONS.get(name, {}))
    rules = Ruleset.from_names([*HOUSE, *wanted], options=options)
    state = play_to_the_end(rules, players, seed=players)
    assert state.is_over

"""Random-play smoke tests of the house rules together, and with every other plugin.

Seeded games are played to the end with the testing toolkit's random play,
checking every invariant on the way (the cheap ones after every action, all
of them every ``DEEP_EVERY`` actions, the rounds and the replay); a failure
prints the game, shrunk, as a replay to paste into a test. (The all-subsets
state machine lives with the testing toolkit.)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from unorules import GameState, Ruleset, RulesetError, installed_plugins
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly

HOUSE = ["classic", "stacking", "seven-o", "jump-in"]
MAX_ACTIONS = 300_000
DEEP_EVERY = 200

# Options that make each other plugin take part (and games end sooner).
OTHER_OPTIONS: dict[str, dict[str, Any]] = {
    "penalties": {"enforcement": "table"},
    "elimination": {"elimination_limit": 150},
    "custom-wilds": {"custom_wild_1": "C1", "custom_wild_2": "C5", "custom_wild_3": "C4"},
    "blank-cards": {"blank_cards": "R0 G7 house-rule"},
}


def assert_plays_to_the_end(rules: Ruleset, players: int, seed: int) -> int:
    """Check every invariant over one seeded random game; fail unless it ends.
    Returns the number of actions it took."""
    violation, length = play_checked_game(
        rules, players, seed, max_actions=MAX_ACTIONS, deep_every=DEEP_EVERY
    )
    assert violation is None, violation.format()
    # The run stops early only when the game is over.
    assert length < MAX_ACTIONS, f"the game does not end in {MAX_ACTIONS} actions"
    return length


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
    seed = 100 + players + 10 * len(options)
    length = assert_plays_to_the_end(rules, players, seed)
    # The toolkit's random play of the same seed plays the same game again: it ends with a
    # winner past the target score, and each of the three house rules came into play.
    kinds: Counter[str] = Counter()

    def count(state: GameState) -> None:
        kinds.update(e.kind for e in state.events)

    end, _ = play_randomly(
        rules.new_game(players, seed=seed), random.Random(seed), max_actions=length, each=count
    )
    assert end.is_over
    assert end.winner is not None
    assert max(end.scores) >= 500
    assert kinds["stack"] > 0
    assert kinds["hands-moved"] > 0
    assert kinds["jump-in"] > 0


def _others() -> list[str]:
    return sorted(set(installed_plugins()) - set(HOUSE))


@pytest.mark.parametrize("other", _others())
def test_the_house_rules_combine_with_every_other_installed_plugin(other: str) -> None:
    # Elimination ends the game by its own limit, last-loses after one round: both refuse a target score.
    no_target = other in ("elimination", "last-loses")
    options = {**({} if no_target else {"target_score": 150}), **OTHER_OPTIONS.get(other, {})}
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
    assert_plays_to_the_end(rules, 4, seed=len(other))


@pytest.mark.parametrize("players", [3, 6])
def test_the_house_rules_with_every_special_card_and_the_table_modes(players: int) -> None:
    wanted = ["swap-hands", "shuffle-hands", "custom-wilds", "blank-cards", "penalties", "elimination"]
    if not set(wanted) <= set(installed_plugins()):
        pytest.skip("the special-wild and mode plugins are not all installed")
    options: dict[str, Any] = {"with_swap_hands": True}
    for name in wanted:
        options.update(OTHER_OPTIONS.get(name, {}))
    rules = Ruleset.from_names([*HOUSE, *wanted], options=options)
    assert_plays_to_the_end(rules, players, seed=players)

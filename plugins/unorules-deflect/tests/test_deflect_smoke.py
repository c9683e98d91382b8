"""Random play under deflect, every invariant of the testing toolkit checked: the
deflections do happen, and each hands the same draw (doubled with revenge) to another seat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from unorules import GameState, Ruleset
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly


@pytest.mark.parametrize(
    ("plugins", "options"),
    [
        (("deflect",), {}),
        (("deflect",), {"deflect_revenge": True, "challenge": False}),
        (("deflect", "stacking"), {"stack_mix": True}),
        (("deflect", "stacking", "jump-in", "seven-o"), {"deflect_reverse": "draw-two"}),
    ],
)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_deflect_random_games_keep_every_invariant(
    plugins: tuple[str, ...], options: dict[str, Any], players: int
) -> None:
    rules = Ruleset.from_names(["classic", *plugins], options=options)
    violation, _ = play_checked_game(rules, players, seed=players, max_actions=500, eager=0.8, deep_every=50)
    assert violation is None, violation.format() if violation else ""


def test_r_house_deflect_deflections_happen_in_random_play_and_pass_the_draw_on() -> None:
    rules = Ruleset.from_names(["classic", "deflect"], options={"deflect_revenge": True})
    seen = 0

    def check(state: GameState) -> None:
        nonlocal seen
        for event in state.events:
            if event.kind == "deflect":
                seen += 1
                assert (state.phase.name, state.current_player) == ("penalty", event.target)
                assert state.phase.count == event.count

    for seed in range(6):
        play_randomly(
            rules.new_game(4, seed=seed), random.Random(seed), max_actions=400, eager=0.8, each=check
        )
    assert seen > 0

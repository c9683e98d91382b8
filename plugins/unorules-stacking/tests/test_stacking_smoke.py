"""Random-play smoke test of the stacking plugin: seeded games to the end, with the testing
toolkit checking every invariant (the cheap ones after every action, all of them every
``DEEP_EVERY`` actions, the rounds and the replay; a failure prints the game, shrunk, as a
replay to paste into a test) and the JSON round trip at each round end, and each stack played
in them growing the draw (R-STACK)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from unorules import GameState, Ruleset
from unorules.testing import check_json_round_trip
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly

DEEP_EVERY = 250


def check_stacks_and_round_ends(state: GameState, stacks: list[int]) -> None:
    """Check R-STACK on a state that comes right after a stacking play, adding the stack the seat
    to move must answer to ``stacks``, and the JSON round trip on a state that ends a round."""
    kinds = [e.kind for e in state.events]
    if "round-end" in kinds:
        check_json_round_trip(state)
        return
    play = state.last_action
    if play is None or "stack" not in kinds:
        return
    # R-STACK 1-3: the seat after the stacker must answer the grown stack: draw it, stack on it,
    # or (on a Wild Draw Four) challenge it.
    assert state.current_player == state.next_seat(play.seat), play
    assert state.phase.name in ("penalty", "challenge"), (play, state.phase)
    assert state.phase.count >= 4, (play, state.phase)
    stacks.append(state.phase.count)


@pytest.mark.parametrize("options", [{}, {"stack_mix": "on"}, {"challenge": "off", "stack_mix": "on"}])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_r_stack_random_games_play_to_the_end(players: int, options: dict[str, Any]) -> None:
    seed = players * 7 + len(options)
    rules = Ruleset.from_names(["classic", "stacking"], options=options)
    violation, length = play_checked_game(rules, players, seed, max_actions=200_000, deep_every=DEEP_EVERY)
    assert violation is None, violation.format()
    # The toolkit's random play of the same seed plays the same game again, to look at its stacks.
    stacks: list[int] = []
    end, _ = play_randomly(
        rules.new_game(players, seed=seed),
        random.Random(seed),
        max_actions=length,
        each=lambda state: check_stacks_and_round_ends(state, stacks),
    )
    assert end.is_over
    assert end.winner is not None
    assert max(end.scores) >= 500
    assert stacks, "nobody stacked"

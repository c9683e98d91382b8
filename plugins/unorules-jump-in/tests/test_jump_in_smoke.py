"""Random-play smoke test of the jump-in plugin: seeded games to the end, with the testing toolkit
checking every invariant (the cheap ones after every action, all of them every ``DEEP_EVERY``
actions, the rounds and the replay; a failure prints the game, shrunk, as a replay to paste
into a test) and the JSON round trip at each round end, and the jump-ins made in them played on
as R-JUMP says."""

from __future__ import annotations

import random
from typing import Any

import pytest

from unorules import Action, GameState, Ruleset
from unorules.testing import check_json_round_trip
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly

DEEP_EVERY = 250


@pytest.mark.parametrize(
    "options", [{}, {"jump_in_match": "color-or-number"}, {"challenge": "off", "challenger": "anyone"}]
)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_r_jump_random_games_play_to_the_end(players: int, options: dict[str, Any]) -> None:
    rules = Ruleset.from_names(["classic", "jump-in"], options=options)
    seed = players * 13 + len(options)
    violation, length = play_checked_game(rules, players, seed, max_actions=200_000, deep_every=DEEP_EVERY)
    assert violation is None, violation.format()
    jumps: list[Action] = []

    def check_jump(state: GameState) -> None:
        play = state.last_action
        kinds = {e.kind for e in state.events}
        if "round-end" in kinds:
            check_json_round_trip(state)
            return
        if play is None or "jump-in" not in kinds:
            return
        # R-JUMP: the jumping card lies on the pile, and play continues from the jumper
        # (after a number card: with the seat after the jumper).
        assert state.top_card is play.card, play
        if play.card is not None and play.card.number is not None:
            assert state.current_player == state.next_seat(play.seat), play
        jumps.append(play)

    # The toolkit's random play of the same seed plays the same game again, to look at its jump-ins
    # and round ends.
    end, _ = play_randomly(
        rules.new_game(players, seed=seed), random.Random(seed), max_actions=length, each=check_jump
    )
    assert end.is_over
    assert end.winner is not None
    assert max(end.scores) >= 500
    assert jumps, "nobody jumped in"

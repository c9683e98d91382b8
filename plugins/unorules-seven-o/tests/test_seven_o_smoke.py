"""Random-play smoke test of the seven-o plugin: seeded games to the end, with the testing toolkit
checking every invariant (the cheap ones after every action, all of them every ``DEEP_EVERY``
actions, the rounds and the replay; a failure prints the game, shrunk, as a replay to paste
into a test) and the JSON round trip at each round end, and each 7 and 0 played in them moving
hands (R-SEVEN-O)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from unorules import GameState, Ruleset
from unorules.testing import check_json_round_trip
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly

DEEP_EVERY = 250


@pytest.mark.parametrize("options", [{}, {"challenge": "off", "scoring": "low-score"}])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_r_seven_o_random_games_play_to_the_end(players: int, options: dict[str, Any]) -> None:
    rules = Ruleset.from_names(["classic", "seven-o"], options=options)
    seed = players * 11 + len(options)
    start = rules.new_game(players, seed=seed)
    violation, length = play_checked_game(rules, players, seed, max_actions=200_000, deep_every=DEEP_EVERY)
    assert violation is None, violation.format()

    # The toolkit's random play of the same seed plays the same game again, to look at its 7s and 0s
    # and round ends.
    moved: Counter[str] = Counter()

    def check_moves(state: GameState) -> None:
        kinds = {e.kind for e in state.events}
        if "round-end" in kinds:
            check_json_round_trip(state)
        play = state.last_action
        if play is None or play.card is None or "hands-moved" not in kinds:
            return
        # R-SEVEN-O: a 7 names the seat to trade with, a 0 none; then the turn passes as after
        # any number card.
        assert play.card.kind == ("7" if play.target is not None else "0"), play
        assert play.target != play.seat, play
        assert state.current_player == state.next_seat(play.seat), play
        moved[play.card.kind] += 1

    end, _ = play_randomly(start, random.Random(seed), max_actions=length, each=check_moves)
    assert end.is_over
    assert end.winner is not None
    assert max(end.scores) >= 500
    assert set(moved) == {"7", "0"}, moved

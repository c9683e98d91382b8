"""Random play with Shuffle Hands added to classic: every invariant of the testing toolkit holds,
and every Shuffle Hands played in these games deals the hands out evenly (R-SHUFFLE)."""

from __future__ import annotations

import random

import pytest

from unorules import Action, GameState, IllegalActionError, Ruleset
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly

RULES = Ruleset.from_names(["classic", "shuffle-hands"], options={"target_score": 300})


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3)])
def test_random_games_with_shuffle_hands_keep_the_invariants(players: int, seed: int) -> None:
    # The cheap invariants after every action, all of them every 41 actions, the rounds and the
    # replay; a failure prints the game, shrunk, as a replay to paste into a test.
    violation, length = play_checked_game(RULES, players, seed, max_actions=200_000, deep_every=41)
    assert violation is None, violation.format()

    shuffles: list[Action | None] = []

    def check_shuffle(state: GameState) -> None:
        if any(e.kind == "shuffle-hands" for e in state.events):
            # R-SHUFFLE: every card is dealt out one at a time, so hand sizes differ by one at most.
            sizes = [len(state.hands[seat]) for seat in state.active_seats]
            assert max(sizes) - min(sizes) <= 1, (state.last_action, sizes)
            shuffles.append(state.last_action)

    # The toolkit's random play of the same seed plays the same game again, to look at its shuffles.
    start = RULES.new_game(players, seed=seed)
    end, actions = play_randomly(start, random.Random(seed), max_actions=length, each=check_shuffle)
    assert shuffles, "no Shuffle Hands was played"
    assert end.is_over
    assert len(actions) == length
    assert end.winner is not None
    with pytest.raises(IllegalActionError):
        end.apply(actions[-1])

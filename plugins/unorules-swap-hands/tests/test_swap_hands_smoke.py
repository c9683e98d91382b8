"""Random play with Swap Hands added to classic: every invariant of the testing toolkit holds,
and every Swap Hands played in these games trades the hands as R-SWAP says."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from unorules import Action, Card, GameState, IllegalActionError, Ruleset
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly

RULES = Ruleset.from_names(["classic", "swap-hands"], options={"target_score": 300})
SWAP_HANDS = Card.parse("SW")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3)])
def test_random_games_with_swap_hands_keep_the_invariants(players: int, seed: int) -> None:
    # The cheap invariants after every action, all of them every 41 actions, the rounds and the
    # replay; a failure prints the game, shrunk, as a replay to paste into a test.
    violation, length = play_checked_game(RULES, players, seed, max_actions=200_000, deep_every=41)
    assert violation is None, violation.format()

    # The toolkit's random play of the same seed plays the same game again, to look at its swaps.
    swaps: list[Action] = []
    previous = [RULES.new_game(players, seed=seed)]

    def check_swap(state: GameState) -> None:
        before, play = previous[0], state.last_action
        previous[0] = state
        if play is None or not any(e.kind == "swap-hands" for e in state.events):
            return
        # R-SWAP: the player takes the named seat's hand and gives it the rest of their own.
        assert play.card is SWAP_HANDS, play
        assert play.target is not None, play
        assert state.hands[play.seat] == before.hands[play.target], play
        assert Counter(state.hands[play.target]) == Counter(before.hands[play.seat]) - Counter([SWAP_HANDS])
        swaps.append(play)

    end, actions = play_randomly(previous[0], random.Random(seed), max_actions=length, each=check_swap)
    assert end.is_over
    assert len(actions) == length
    assert end.winner is not None
    assert swaps, "no Swap Hands was played"
    with pytest.raises(IllegalActionError):
        end.apply(actions[-1])

"""Random play with blank cards added to classic: every invariant of the testing toolkit holds,
and the house-rule blanks played in these games act as R-BLANK says."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from unorules_blank_cards import BLANK

from unorules import GameState, IllegalActionError, Ruleset
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly

OPTIONS = {"target_score": 300, "blank_cards": "house-rule house-rule W aside", "lost_cards": "R7"}


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3)])
def test_random_games_with_blank_cards_keep_the_invariants(players: int, seed: int) -> None:
    rules = Ruleset.from_names(["classic", "blank-cards"], options=OPTIONS)
    # The cheap invariants after every action, all of them every 41 actions, the rounds and the
    # replay; a failure prints the game, shrunk, as a replay to paste into a test.
    violation, length = play_checked_game(rules, players, seed, max_actions=200_000, deep_every=41)
    assert violation is None, violation.format()

    # The toolkit's random play of the same seed plays the same game again, to look at its blanks.
    kinds: Counter[str] = Counter()

    def check_blank(state: GameState) -> None:
        kinds.update(e.kind for e in state.events)
        play = state.last_action
        if play is not None and any(e.kind == "house-rule" for e in state.events):
            # R-BLANK: a house-rule blank is played like a Wild; the turn passes to the next seat.
            assert play.card is BLANK, play
            assert state.color is play.color, play
            assert state.current_player == state.next_seat(play.seat), play

    end, actions = play_randomly(
        rules.new_game(players, seed=seed), random.Random(seed), max_actions=length, each=check_blank
    )
    assert end.is_over
    assert len(actions) == length
    assert end.winner is not None
    assert kinds["house-rule"] > 0
    with pytest.raises(IllegalActionError):
        end.apply(actions[-1])

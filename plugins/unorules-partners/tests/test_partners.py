"""Scenario tests for partners (R-TEAM): pairs sitting opposite, pair scoring, a game to its target."""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

import pytest
from unorules_partners import PAIRS, pair_of, partner_of

from unorules import GameState, Ruleset, RulesetError
from unorules.testing import arrange_deck, rearranged

G_HAND = "G1 G2 G3 G4 G5 G6 G7"  # 28 points
B_HAND = "B1 B2 B3 B4 B5 B6 B7"  # 28 points
Y_HAND = "Y1 Y2 Y3 Y4 Y5 Y6 W"  # 21 + 50 = 71 points
R_HAND = "R1 R2 R3 R4 R6 R7 R8"


@functools.cache
def _rules(options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.from_names(["classic", "partners"], dict(options))


def rules(**options: Any) -> Ruleset:
    return _rules(tuple(sorted(options.items())))


def game(hands: list[str], starter: str, dealer: int, draw: str = "", **options: Any) -> GameState:
    ruleset = rules(**options)
    return ruleset.new_game(4, deck=arrange_deck(hands, starter, draw=draw, dealer=dealer), dealer=dealer)


def test_r_team_partners_sit_opposite() -> None:
    assert PAIRS == ((0, 2), (1, 3))
    assert [partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert pair_of(3) == (1, 3)


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_r_team_refuses_a_game_of_other_than_four_players(players: int) -> None:
    with pytest.raises(RulesetError, match=r"partners \(R-TEAM\) is played by exactly 4 players"):
        rules().new_game(players, seed=1)


def test_r_team_pair_scores_both_opponents_hands_when_one_partner_goes_out() -> None:
    state = game([R_HAND, G_HAND, B_HAND, Y_HAND], "R9", dealer=3)
    state = rearranged(state, hands={0: "R5"})
    after = state.apply("0: play R5")
    result = after.rounds[0]
    assert result.winner == 0
    # Seat 0's pair (0, 2) scores seat 1's and seat 3's hands; its own partner's hand is not counted.
    assert result.points == (28 + 71, 0, 28 + 71, 0)
    assert after.scores == (99, 0, 99, 0)
    assert not after.is_over
    assert after.round_number == 2


def test_r_team_the_other_partner_going_out_ends_the_round_for_the_pair() -> None:
    # Dealer 1: seat 2 plays first and goes out; seat 0 (its partner) still holds 7 cards.
    state = game([R_HAND, G_HAND, B_HAND, Y_HAND], "B9", dealer=1)
    state = rearranged(state, hands={2: "B5"})
    after = state.apply("2: play B5")
    assert after.rounds[0].winner == 2
    assert after.rounds[0].points == (28 + 71, 0, 28 + 71, 0)
    assert len(after.rounds[0].hands[0]) == 7


def test_r_team_last_draw_two_counts_for_the_pair() -> None:
    # R-OUT-LAST-DRAW with partners: the next seat (an opponent) draws 2 and they count.
    state = game([R_HAND, G_HAND, B_HAND, Y_HAND], "R9", dealer=3, draw="W+4 W+4")
    state = rearranged(state, hands={0: "R+2"}, draw="W+4 W+4")
    after = state.apply("0: play R+2")
    assert [str(c) for c in after.rounds[0].hands[1][-2:]] == ["W+4", "W+4"]
    assert after.rounds[0].points == (28 + 100 + 71, 0, 28 + 100 + 71, 0)


def test_r_team_pair_reaching_the_target_wins_as_a_pair() -> None:
    state = game([R_HAND, G_HAND, B_HAND, Y_HAND], "R9", dealer=3, target_score=90)
    after = rearranged(state, hands={0: "R5"}).apply("0: play R5")
    assert after.is_over
    assert after.outcome is not None
    assert after.outcome.winners == (0, 2)
    assert after.outcome.reason == "team-target"
    assert after.winner == 0
    assert after.legal_actions() == ()


def test_r_team_low_score_charges_each_pair_both_hands() -> None:
    state = game([R_HAND, G_HAND, B_HAND, Y_HAND], "R9", dealer=3, scoring="low-score", target_score=90)
    after = rearranged(state, hands={0: "R5"}).apply("0: play R5")
    # Pair (0, 2) is charged seat 2's 28; pair (1, 3) is charged 28 + 71 and reaches the target.
    assert after.rounds[0].points == (28, 99, 28, 99)
    assert after.outcome is not None
    assert after.outcome.winners == (0, 2)
    assert after.outcome.reason == "team-low-score"


def test_r_team_partners_share_no_hands() -> None:
    state = rules().new_game(4, seed=3)
    for seat in range(4):
        assert set(state.view(seat).visible_hands) == {seat}


def test_r_team_conflicts_with_elimination() -> None:
    with pytest.raises(RulesetError, match="conflict"):
        Ruleset.from_names(["classic", "partners", "elimination"])


def _check(state: GameState, deck: Counter[Any]) -> None:
    assert Counter(state.draw_pile + state.discard_pile + sum(state.hands, ())) == deck
    assert state.is_over or state.legal_actions()
    a, b = PAIRS
    assert state.scores[a[0]] == state.scores[a[1]]
    assert state.scores[b[0]] == state.scores[b[1]]


@pytest.mark.parametrize("seed", [1, 2])
def test_r_team_random_game_to_the_target(seed: int) -> None:
    ruleset = rules()
    deck = Counter(ruleset.deck)
    state = ruleset.new_game(4, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        _check(state, deck)
        if steps % 200 == 0:
            assert GameState.from_json(state.to_json()) == state
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1
    _check(state, deck)
    assert GameState.from_json(state.to_json()) == state
    assert state.outcome is not None
    winners = state.outcome.winners
    assert winners in PAIRS
    losers = PAIRS[1 - PAIRS.index(winners)]
    assert state.scores[winners[0]] >= 500 > state.scores[losers[0]]
    # Each round exactly the pair of the seat that went out scored, the same for both partners.
    for result in state.rounds:
        assert result.winner is not None
        pair = pair_of(result.winner)
        assert result.points[pair[0]] == result.points[pair[1]] > 0 or result.reason == "blocked"
        assert sum(result.points) == 2 * result.points[pair[0]]
    assert tuple(map(sum, zip(*(r.points for r in state.rounds), strict=True))) == state.scores

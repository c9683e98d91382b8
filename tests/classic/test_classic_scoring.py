"""Classic rules, the rules reference's "Going out" and classic's decisions: going out (also on a Draw
Two or Wild Draw Four), scoring (both modes, ``wd4_points``), the target
score (``target_score``), the next round, and the blocked round."""

from __future__ import annotations

import pytest
from classic_helpers import (
    BLUES,
    REDS,
    YELLOWS,
    cards,
    classic,
    game,
    hand,
    play,
    rearranged,
    refused,
)

from unorules import PLAY, GameState, IllegalActionError


def _going_out(last: str, others: tuple[str, str] = ("G1 G2 G3", "B1 B2 BS"), **options: object) -> GameState:
    """Three seats; seat 1 holds only ``last`` on a red 5; seats 0 and 2 hold ``others``."""
    state = game([YELLOWS, REDS, BLUES], "R5", draw="Y8 Y9 G8 G9", **options)
    return rearranged(state, hands={0: others[0], 1: last, 2: others[1]}, draw="Y8 Y9 G8 G9")


# -- R-OUT ---------------------------------------------------------------------------


def test_r_out_playing_the_last_card_ends_the_round_and_deals_the_next() -> None:
    state = play(_going_out("R9"), "1: play R9")
    (result,) = state.rounds
    assert (result.number, result.winner, result.reason) == (1, 1, "out")
    assert [" ".join(map(str, h)) for h in result.hands] == ["G1 G2 G3", "", "B1 B2 BS"]
    # The next round: a fresh deal, dealt by the seat left of the last dealer.
    assert state.round_number == 2
    assert state.dealer == 1
    assert [len(h) for h in state.hands] == [7, 7, 7]
    assert not state.is_over
    assert state.legal_actions()


def test_r_out_the_last_card_may_be_any_playable_card() -> None:
    for last, action in (("W", "1: play W G"), ("RS", "1: play RS"), ("RR", "1: play RR")):
        state = play(_going_out(last), action)
        assert state.rounds[0].winner == 1


# -- R-OUT-LAST-DRAW -----------------------------------------------------------------


def test_r_out_last_draw_a_last_draw_two_still_makes_the_next_player_draw_and_it_counts() -> None:
    state = play(_going_out("R+2"), "1: play R+2")
    (result,) = state.rounds
    assert " ".join(map(str, result.hands[2])) == "B1 B2 BS Y8 Y9"
    # Seat 0: 1+2+3; seat 2: 1+2+20 and the drawn 8+9.
    assert result.points == (0, 6 + 23 + 17, 0)
    assert state.scores == (0, 46, 0)


def test_r_out_last_draw_a_last_wild_draw_four_makes_the_next_player_draw_four_unchallenged() -> None:
    state = play(_going_out("W+4"), "1: play W+4 G")
    (result,) = state.rounds
    assert " ".join(map(str, result.hands[2])) == "B1 B2 BS Y8 Y9 G8 G9"
    assert result.points == (0, 6 + 23 + 34, 0)


def test_r_out_last_draw_follows_the_direction_of_play() -> None:
    state = _going_out("R+2").replace(direction=-1)
    state = play(state, "1: play R+2")
    assert " ".join(map(str, state.rounds[0].hands[0])) == "G1 G2 G3 Y8 Y9"


# -- R-SCORE -----------------------------------------------------------------------------


@pytest.mark.parametrize(("wd4_points", "value"), [(50, 50), (70, 70)])
def test_r_score_the_winner_scores_the_cards_left_in_the_other_hands(wd4_points: int, value: int) -> None:
    state = _going_out("R9", others=("G7 W+4 Y0", "B+2 BR GS W"), wd4_points=wd4_points)
    state = play(state, "1: play R9")
    assert state.rounds[0].points == (0, 7 + value + 0 + 20 + 20 + 20 + 50, 0)
    assert state.ruleset.card_points(cards("W+4")[0]) == value


def test_r_score_wd4_points_defaults_to_fifty() -> None:
    assert classic().options["wd4_points"] == 50
    assert classic().hand_points(cards("W+4 W R+2 RS RR R0 R9")) == 50 + 50 + 60 + 9


# -- R-WIN ---------------------------------------------------------------------------------


def test_r_win_reaching_the_target_score_ends_the_game() -> None:
    state = play(_going_out("R9", target_score=29), "1: play R9")
    assert state.scores == (0, 29, 0)
    assert state.is_over
    assert state.winner == 1
    assert state.outcome is not None
    assert state.outcome.reason == "target-score"
    assert state.legal_actions() == ()
    assert len(state.rounds) == 1
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("2: draw")


def test_r_win_below_the_target_score_another_round_is_dealt_and_scores_add_up() -> None:
    state = play(_going_out("R9", target_score=30), "1: play R9")
    assert not state.is_over
    assert state.winner is None
    assert state.scores == (0, 29, 0)
    # Round 2: seat 2 goes out on a 1-point hand left by seat 0.
    state = rearranged(state, hands={0: "G1", 1: "B1 B2", 2: "Y9"}, top="Y5")
    state = state.replace(current_player=2, phase=PLAY, color=state.top_card.color)
    state = play(state, "2: play Y9")
    assert state.rounds[-1].points == (0, 0, 4)
    assert state.scores == (0, 29, 4)
    assert not state.is_over


@pytest.mark.parametrize(("seat2_last", "over"), [("G0", False), ("W+4", True)])
def test_r_win_target_score_defaults_to_500(seat2_last: str, over: bool) -> None:
    assert classic().options["target_score"] == 500
    others = ("W W W W W+4 W+4 W+4", "RS RS RR RR R+2 R+2 " + seat2_last)
    state = play(_going_out("R9", others=others), "1: play R9")
    assert state.scores[1] == 350 + 120 + (50 if over else 0)
    assert state.is_over is over
    assert state.winner == (1 if over else None)


# -- R-WIN-LOW -------------------------------------------------------------------------------


def test_r_win_low_each_player_is_charged_their_own_hand() -> None:
    state = play(_going_out("R9", scoring="low-score"), "1: play R9")
    assert state.rounds[0].points == (6, 0, 23)
    assert state.scores == (6, 0, 23)
    assert not state.is_over


def test_r_win_low_when_someone_reaches_the_target_the_fewest_points_win() -> None:
    state = play(_going_out("R9", scoring="low-score", target_score=20), "1: play R9")
    assert state.is_over
    assert state.scores == (6, 0, 23)
    assert state.winner == 1
    assert state.outcome is not None
    assert state.outcome.reason == "low-score"


def test_r_win_low_the_last_draw_is_charged_to_the_player_who_drew_it() -> None:
    state = play(_going_out("R+2", scoring="low-score"), "1: play R+2")
    assert state.rounds[0].points == (6, 0, 23 + 17)


def test_r_win_low_a_tie_for_fewest_points_goes_to_the_lowest_seat() -> None:
    # Seat 1 goes out (0 points this round) but already had 5; seat 0 has 5 too.
    start = _going_out("R9", others=("G2 G3", "B9 BS"), scoring="low-score", target_score=20)
    start = start.replace(scores=(0, 5, 0))
    state = play(start, "1: play R9")
    assert state.scores == (5, 5, 29)
    assert state.is_over
    assert state.winner == 0


def test_r_win_low_scoring_defaults_to_winner_takes_all() -> None:
    assert classic().options["scoring"] == "winner-takes-all"


# -- Section 13: the blocked round ------------------------------------------------------------


def _blocked(hands: dict[int, str], **options: object) -> GameState:
    """Seat 1 to play on a red 5 with both piles empty: the cards not named are set aside."""
    state = game([YELLOWS, REDS, BLUES], "R5", **options)
    named = tuple(tuple(cards(hands[s])) for s in range(3))
    return state.replace(hands=named, draw_pile=(), discard_pile=state.discard_pile[-1:])


def test_r_turn_draw_blocked_round_nobody_can_play_or_draw_the_fewest_hand_points_win() -> None:
    state = _blocked({0: "G1 G2", 1: "B9 BS", 2: "Y7"})
    assert [str(a) for a in state.legal_actions() if a.verb != "uno"] == ["1: draw"]
    state = play(state, "1: draw")
    assert (state.current_player, state.stalled, hand(state, 1)) == (2, 1, "B9 BS")
    state = play(state, "2: draw", "0: draw")
    (result,) = state.rounds
    assert (result.winner, result.reason) == (0, "blocked")
    # The winner scores the other hands as usual: 29 + 7.
    assert result.points == (36, 0, 0)
    assert state.round_number == 2
    assert [len(h) for h in state.hands] == [7, 7, 7]


def test_r_turn_draw_blocked_round_a_tie_goes_to_the_lowest_seat() -> None:
    state = play(_blocked({0: "G1 G2", 1: "B2 B1", 2: "Y3"}), "1: draw", "2: draw", "0: draw")
    assert state.rounds[0].winner == 0
    state = play(_blocked({0: "G9 G2", 1: "B2 B1", 2: "Y3"}), "1: draw", "2: draw", "0: draw")
    assert state.rounds[0].winner == 1


def test_r_turn_draw_blocked_round_a_play_resets_the_count() -> None:
    state = _blocked({0: "G1 G2", 1: "B9 BS", 2: "R7 Y7"})
    state = play(state, "1: draw")
    # Seat 2 can play, so it may not draw from the empty piles.
    assert [str(a) for a in state.legal_actions(2) if a.verb != "uno"] == ["2: play R7"]
    assert refused(state, "2: draw").rule == "R-TURN-DRAW"
    state = play(state, "2: play R7")
    assert state.stalled == 0
    # The red 5 under the 7 is shuffled back: seat 0 now draws it.
    state = play(state, "0: draw")
    assert hand(state, 0) == "G1 G2 R5"
    assert not state.rounds

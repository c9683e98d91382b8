"""Classic rules, R-2P: with two players a Reverse acts as a Skip, and after a
Skip, Draw Two or Wild Draw Four its player plays again."""

from __future__ import annotations

from classic_helpers import BLUES, REDS, game, hand, play, refused

from unorules import Color

SEAT1 = "RR RS R+2 W+4 G1 G2 G3"


def test_r_2p_reverse_acts_as_a_skip_and_its_player_plays_again() -> None:
    state = game([BLUES, SEAT1], "R5")
    state = play(state, "1: play RR")
    assert state.current_player == 1
    assert state.direction == -1
    assert refused(state, "0: draw").rule == "R-SETUP-FIRST"
    state = play(state, "1: play RS")
    assert state.current_player == 1


def test_r_2p_after_a_skip_its_player_plays_again() -> None:
    state = play(game([BLUES, SEAT1], "R5"), "1: play RS")
    assert (state.current_player, state.phase.name, hand(state, 0)) == (1, "play", BLUES)


def test_r_2p_after_a_draw_two_the_opponent_draws_and_the_player_plays_again() -> None:
    state = play(game([BLUES, SEAT1], "R5", draw="Y8 Y9"), "1: play R+2")
    assert (state.current_player, state.phase.name) == (0, "penalty")
    state = play(state, "0: draw")
    assert hand(state, 0) == BLUES + " Y8 Y9"
    assert (state.current_player, state.phase.name) == (1, "play")


def test_r_2p_after_a_wild_draw_four_the_opponent_draws_and_the_player_plays_again() -> None:
    # Seat 1 holds no red card on the red 5: the Wild Draw Four is legal.
    state = play(game([BLUES, "W+4 G1 G2 G3 G4 G5 G6"], "R5", draw="Y6 Y7 Y8 Y9"), "1: play W+4 G")
    state = play(state, "0: accept")
    assert hand(state, 0) == BLUES + " Y6 Y7 Y8 Y9"
    assert (state.current_player, state.phase.name, state.color) == (1, "play", Color.GREEN)
    off = game([BLUES, "W+4 G1 G2 G3 G4 G5 G6"], "R5", draw="Y6 Y7 Y8 Y9", challenge="off")
    off = play(off, "1: play W+4 G", "0: draw")
    assert (off.current_player, len(off.hands[0])) == (1, 11)


def test_r_2p_playing_again_is_a_full_turn_that_may_draw() -> None:
    # Classic's decision: "plays again" includes drawing when nothing fits.
    state = play(game([BLUES, "RS G1 G2 G3 G4 G5 G6"], "R5", draw="Y9"), "1: play RS")
    assert [str(a) for a in state.legal_actions(1)] == ["1: draw"]
    state = play(state, "1: draw")
    assert (state.current_player, hand(state, 1)) == (0, "G1 G2 G3 G4 G5 G6 Y9")


def test_r_2p_a_reverse_starter_lets_the_dealer_start() -> None:
    state = game([REDS, BLUES], "BR", dealer=1)
    assert (state.current_player, state.direction) == (1, -1)
    state = play(state, "1: play B1")
    assert state.current_player == 0

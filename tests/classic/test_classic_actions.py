"""Classic rules, the rules reference's "Action cards": Draw Two, Reverse, Skip and the Wild Draw
Four challenge (with the ``challenge`` and ``challenger`` options)."""

from __future__ import annotations

from classic_helpers import BLUES, GREENS, REDS, YELLOWS, classic, game, hand, play, refused

from unorules import Color

# -- R-ACT-D2 ---------------------------------------------------------------------


def test_r_act_d2_the_next_player_draws_two_and_loses_the_turn() -> None:
    state = game([REDS, "G+2 B2 B3 B4 B5 B6 B7", BLUES, YELLOWS], "G9", draw="R8 Y9")
    state = play(state, "1: play G+2")
    assert (state.current_player, state.phase.name, state.phase.count) == (2, "penalty", 2)
    assert [str(a) for a in state.legal_actions(2)] == ["2: draw"]
    assert refused(state, "2: play B1").rule == "R-ACT-D2"
    state = play(state, "2: draw")
    assert hand(state, 2) == BLUES + " R8 Y9"
    assert (state.current_player, state.phase.name) == (3, "play")


def test_r_act_d2_playable_only_on_its_colour_or_another_draw_two() -> None:
    state = game([REDS, "B+2 G+2 Y2 Y3 Y4 Y5 Y6", BLUES, YELLOWS], "R9")
    assert refused(state, "1: play B+2").rule == "R-TURN-MATCH"
    assert refused(state, "1: play G+2").rule == "R-TURN-MATCH"
    state = game([REDS, "B+2 G+2 Y2 Y3 Y4 Y5 Y6", BLUES, YELLOWS], "R+2", dealer=3)
    # The Draw Two starter hit seat 0; seat 1 may then play either Draw Two on it.
    state = play(state, "0: draw")
    assert {str(a) for a in state.legal_actions(1) if a.verb == "play"} == {"1: play B+2", "1: play G+2"}
    state = play(state, "1: play B+2")
    assert (state.current_player, state.phase.name, state.color) == (2, "penalty", Color.BLUE)


def test_r_act_d2_penalty_cards_cannot_be_played_at_once() -> None:
    # Section 13: a penalty draw is not a draw for the turn.
    state = game([REDS, "G+2 B2 B3 B4 B5 B6 B7", BLUES, YELLOWS], "G9", draw="G1 W")
    state = play(state, "1: play G+2", "2: draw")
    assert hand(state, 2) == BLUES + " G1 W"
    assert (state.current_player, state.phase.name) == (3, "play")


# -- R-ACT-REV ----------------------------------------------------------------------


def test_r_act_rev_flips_the_direction_of_play() -> None:
    hands = ["G8 R2 R3 R4 R5 R6 R7", "GR B2 B3 B4 B5 B6 B7", BLUES, "G1 Y2 Y3 Y4 Y5 Y6 Y7"]
    state = play(game(hands, "G9"), "1: play GR")
    assert (state.direction, state.current_player) == (-1, 0)
    state = play(state, "0: play G8")
    assert state.current_player == 3
    state = play(state, "3: play G1")
    assert state.current_player == 2


def test_r_act_rev_playable_on_its_colour_or_another_reverse() -> None:
    state = game([REDS, "BR GR Y2 Y3 Y4 Y5 Y6", BLUES, YELLOWS], "R9")
    assert refused(state, "1: play BR").rule == "R-TURN-MATCH"
    state = game([REDS, "BR GR Y2 Y3 Y4 Y5 Y6", BLUES, YELLOWS], "G9")
    assert {str(a) for a in state.legal_actions(1) if a.verb == "play"} == {"1: play GR"}
    state = game([REDS, "BR G2 Y2 Y3 Y4 Y5 Y6", BLUES, YELLOWS], "RR", dealer=2)
    # The Reverse starter: dealer 2 plays first and play goes right; seat 1 follows.
    state = play(state, "2: draw")
    assert state.current_player == 1
    state = play(state, "1: play BR")
    assert (state.direction, state.current_player, state.color) == (1, 2, Color.BLUE)


# -- R-ACT-SKIP ----------------------------------------------------------------------


def test_r_act_skip_the_next_player_loses_the_turn() -> None:
    hands = [REDS, "GS BS B3 B4 B5 B6 B7", "G1 B2 B3 B4 B5 B6 B7", "G1 Y2 Y3 Y4 Y5 Y6 Y7"]
    state = play(game(hands, "G9"), "1: play GS")
    assert state.current_player == 3
    assert refused(state, "2: play G1").rule == "R-SETUP-FIRST"
    # A Skip on a Skip of another colour (symbol match).
    state = game(hands, "RS", dealer=3)
    assert state.current_player == 1  # the Skip starter skipped seat 0
    state = play(state, "1: play BS")
    assert (state.current_player, state.color) == (3, Color.BLUE)


# -- R-CHALLENGE ----------------------------------------------------------------------


BLUFFER = "W+4 R9 B1 B2 B3 B4 B5"  # holds a red card: guilty on red
HONEST = "W+4 G5 BR B1 B2 B3 B4"  # no red card: innocent on red


def test_r_challenge_guilty_the_bluffer_draws_four_and_the_challenger_plays() -> None:
    state = game([YELLOWS, BLUFFER, GREENS], "R5", draw="Y8 Y9 G8 G9")
    state = play(state, "1: play W+4 B")
    assert (state.current_player, state.phase.name, state.phase.color) == (2, "challenge", Color.RED)
    assert {str(a) for a in state.legal_actions()} == {"2: challenge", "2: accept"}
    state = play(state, "2: challenge")
    shown = [e for e in state.events if e.kind == "challenge"]
    assert shown[0].rule == "R-CHALLENGE"
    assert "guilty" in shown[0].detail
    # The hand is shown to the challenger only (see test_view.py).
    assert (shown[0].seat, shown[0].private) == (2, True)
    assert " ".join(map(str, shown[0].cards)) == "R9 B1 B2 B3 B4 B5"
    assert hand(state, 1) == "R9 B1 B2 B3 B4 B5 Y8 Y9 G8 G9"
    assert hand(state, 2) == GREENS
    # The challenger takes the turn normally; the colour named stands.
    assert (state.current_player, state.phase.name, state.color) == (2, "play", Color.BLUE)


def test_r_challenge_innocent_the_challenger_draws_six_and_loses_the_turn() -> None:
    state = game([YELLOWS, HONEST, GREENS], "R5", draw="Y8 Y9 G8 G9 B8 B9")
    state = play(state, "1: play W+4 B", "2: challenge")
    assert "innocent" in next(e.detail for e in state.events if e.kind == "challenge")
    assert hand(state, 2) == GREENS + " Y8 Y9 G8 G9 B8 B9"
    assert hand(state, 1) == "G5 BR B1 B2 B3 B4"
    assert (state.current_player, state.phase.name, state.color) == (0, "play", Color.BLUE)


def test_r_challenge_accepting_draws_four_and_loses_the_turn() -> None:
    state = game([YELLOWS, BLUFFER, GREENS], "R5", draw="Y8 Y9 G8 G9")
    state = play(state, "1: play W+4 B", "2: accept")
    assert hand(state, 2) == GREENS + " Y8 Y9 G8 G9"
    assert hand(state, 1) == "R9 B1 B2 B3 B4 B5"
    assert (state.current_player, state.color) == (0, Color.BLUE)


def test_r_challenge_only_the_player_told_to_draw_four_may_challenge() -> None:
    assert classic().options["challenger"] == "victim"
    state = play(game([YELLOWS, BLUFFER, GREENS], "R5"), "1: play W+4 B")
    for action in ("0: challenge", "1: challenge", "0: accept"):
        error = refused(state, action)
        assert error.rule == "R-CHALLENGE"
        assert "R-CHALLENGE" in str(error)


def test_r_challenge_nothing_to_challenge_without_a_wild_draw_four() -> None:
    state = game([YELLOWS, BLUFFER, GREENS], "R5")
    assert refused(state, "1: challenge").rule == "R-CHALLENGE"
    assert refused(state, "1: accept").rule == "R-CHALLENGE"


def test_r_challenge_challenger_anyone_a_third_seat_catches_a_bluff() -> None:
    state = game([YELLOWS, BLUFFER, GREENS], "R5", draw="Y8 Y9 G8 G9", challenger="anyone")
    state = play(state, "1: play W+4 B")
    assert {str(a) for a in state.legal_actions()} == {"2: challenge", "2: accept", "0: challenge"}
    state = play(state, "0: challenge")
    assert hand(state, 1) == "R9 B1 B2 B3 B4 B5 Y8 Y9 G8 G9"
    assert (hand(state, 0), hand(state, 2)) == (YELLOWS, GREENS)
    # The player hit by it draws nothing and plays.
    assert (state.current_player, state.phase.name, state.color) == (2, "play", Color.BLUE)


def test_r_challenge_challenger_anyone_a_third_seats_failed_challenge_costs_it_six() -> None:
    state = game([YELLOWS, HONEST, GREENS], "R5", draw="Y8 Y9 G8 G9 B8 B9 R1 R2 R3 R4", challenger="anyone")
    state = play(state, "1: play W+4 B", "0: challenge")
    assert hand(state, 0) == YELLOWS + " Y8 Y9 G8 G9 B8 B9"
    # The Wild Draw Four stands: its victim still draws 4 and loses the turn.
    assert hand(state, 2) == GREENS + " R1 R2 R3 R4"
    assert (state.current_player, state.color) == (0, Color.BLUE)


def test_r_challenge_off_no_challenge_is_offered() -> None:
    state = play(game([YELLOWS, HONEST, GREENS], "R5", challenge="off"), "1: play W+4 B")
    assert [str(a) for a in state.legal_actions()] == ["2: draw"]
    assert refused(state, "2: challenge").rule == "R-TURN-WD4"

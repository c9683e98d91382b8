"""Scenario tests of R-HOUSE-FORCED-PLAY (``forced_play``) and R-HOUSE-HAND-CAP
(``hand_limit``), alone, together, and with stacking, deflect and keep-drawing.
Dealer 0: seat 1 plays first, on a red 5."""

from __future__ import annotations

from house_rules_helpers import OTHERS, deal, hand, legal, play, rearranged, refused

PLAYS = [OTHERS, "R1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
"""Seat 1 can play its red 1."""
NO_PLAY = [OTHERS, "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
"""Seat 1 cannot play."""


def test_r_house_forced_play_a_seat_that_can_play_may_not_draw() -> None:
    state = deal(PLAYS, options={"forced_play": True})
    assert legal(state, 1) == {"1: play R1"}
    error = refused(state, "1: draw")
    assert error.rule == "R-HOUSE-FORCED-PLAY"


def test_r_house_forced_play_off_by_default_a_seat_may_draw_instead_r_turn_choose_draw() -> None:
    state = deal(PLAYS)
    assert legal(state, 1) == {"1: play R1", "1: draw"}


def test_r_house_forced_play_a_seat_that_cannot_play_draws() -> None:
    state = deal(NO_PLAY, draw="G5", options={"forced_play": True})
    assert legal(state, 1) == {"1: draw"}
    state = play(state, "1: draw")
    # With drawn_card=may-keep the drawn card may still be kept.
    assert legal(state, 1) == {"1: play G5", "1: pass"}


def test_r_house_forced_play_with_must_play_a_drawn_card_must_be_played() -> None:
    state = deal(NO_PLAY, draw="G5", options={"forced_play": True, "drawn_card": "must-play"})
    state = play(state, "1: draw")
    assert legal(state, 1) == {"1: play G5"}


def test_r_house_forced_play_does_not_force_a_stack_or_a_deflection() -> None:
    hands = [OTHERS, "R+2 G2 G3 G4 G6 G7 G8", "B+2 BR B3 B4 B6 B7 B8"]
    state = deal(hands, plugins=("stacking", "deflect"), options={"forced_play": True})
    state = play(state, "1: play R+2")
    assert legal(state, 2) == {"2: play B+2", "2: play BR", "2: draw"}


def test_r_house_hand_cap_a_seat_at_the_cap_may_not_draw_and_passes_if_it_cannot_play() -> None:
    state = rearranged(deal(NO_PLAY, options={"hand_limit": 8}), hands={1: "G1 G2 G3 G4 G6 G7 G8 G9"})
    assert legal(state, 1) == {"1: pass"}
    error = refused(state, "1: draw")
    assert error.rule == "R-HOUSE-HAND-CAP"
    state = play(state, "1: pass")
    assert state.current_player == 2
    assert len(state.hands[1]) == 8
    assert state.stalled == 1  # a pass at the cap counts as a draw of nothing


def test_r_house_hand_cap_below_the_cap_a_seat_draws_as_usual() -> None:
    state = deal(NO_PLAY, draw="G5", options={"hand_limit": 8})
    assert legal(state, 1) == {"1: draw"}
    state = play(state, "1: draw")
    assert len(state.hands[1]) == 8  # it may reach the cap by drawing


def test_r_house_hand_cap_a_seat_at_the_cap_that_can_play_must_play() -> None:
    state = rearranged(deal(PLAYS, options={"hand_limit": 8}), hands={1: "R1 G2 G3 G4 G6 G7 G8 G9"})
    assert legal(state, 1) == {"1: play R1"}
    assert refused(state, "1: pass").rule == "R-HOUSE-HAND-CAP"


def test_r_house_hand_cap_penalty_draws_still_apply() -> None:
    hands = [OTHERS, "R+2 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = play(deal(hands, options={"hand_limit": 7}), "1: play R+2")
    assert legal(state, 2) == {"2: draw"}
    state = play(state, "2: draw")
    assert len(state.hands[2]) == 9


def test_r_house_hand_cap_seats_that_all_pass_at_the_cap_block_the_round() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G8"]
    state = deal(hands, starter="B5", options={"hand_limit": 7})
    state = play(state, "1: pass", "0: pass")
    assert state.rounds[-1].reason == "blocked"


def test_r_house_forced_play_and_hand_cap_together() -> None:
    state = rearranged(
        deal(PLAYS, options={"hand_limit": 8, "forced_play": True}), hands={1: "G1 G2 G3 G4 G6 G7 G8 G9"}
    )
    assert legal(state, 1) == {"1: pass"}
    state = rearranged(state, hands={1: "R1 G2 G3 G4 G6 G7 G8 G9"})
    assert legal(state, 1) == {"1: play R1"}


def test_r_house_hand_cap_keep_drawing_stops_at_the_cap() -> None:
    state = deal(NO_PLAY, draw="G9 Y9 B9 R2", plugins=("keep-drawing",), options={"hand_limit": 9})
    state = play(state, "1: draw")
    assert hand(state, 1) == "G1 G2 G3 G4 G6 G7 G8 G9 Y9"  # stopped at 9, no playable card
    assert state.current_player == 2

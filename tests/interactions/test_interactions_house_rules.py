"""Where the house rules meet (the rules reference's house rules and the plugins' interactions).

Scenario tests built from arranged decks (dealer 0, seat 1 plays first) for
each interaction the plugins' docs decide: a jump-in on a stacked Draw Two, a
stacker's identical second card, a jump-in on a stacked Wild Draw Four, a
stacked Wild Draw Four challenged, a 7 (and a 0) jumped in under 7-0, Swap
Hands under 7-0, stacking with two players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unorules import GameState, Ruleset, parse_cards
from unorules.testing import arrange_deck, rearranged

ALL = ["classic", "stacking", "seven-o", "jump-in"]


def game(
    hands: Sequence[str],
    starter: str = "R5",
    names: Sequence[str] = ALL,
    options: Mapping[str, Any] | None = None,
) -> GameState:
    rules = Ruleset.from_names(list(names), options=options)
    return rules.new_game(players=len(hands), deck=arrange_deck(hands, starter), dealer=0)


def plays(state: GameState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat) if a.verb == "play"}


def hand(text: str) -> tuple[Any, ...]:
    return parse_cards(text)


# -- stacking x jump-in ------------------------------------------------------------------

STACK5 = [
    "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
    "R+2 R1 R2 R3 R4 G1 G2",
    "G+2 B1 B2 B3 B4 B5 B6",
    "B7 B8 B9 G3 G4 G5 G6",
    "G+2 Y8 Y9 G7 G8 G9 R6",
]


def test_r_jump_r_stack_a_jump_in_on_a_stacked_draw_two_passes_the_stack_on_from_the_jumper() -> None:
    state = game(STACK5).apply("1: play R+2").apply("2: play G+2")
    assert (state.current_player, state.phase.count) == (3, 4)
    assert plays(state, 4) == {"4: play G+2"}
    state = state.apply("4: play G+2")
    # Seat 4's Draw Two replaces seat 2's share: the stack stays 4 and hits seat 0.
    assert (state.current_player, state.phase.name, state.phase.count) == (0, "penalty", 4)
    state = state.apply("0: draw")
    assert len(state.hands[0]) == 11
    assert len(state.hands[3]) == 7  # seat 3 is let off
    assert state.current_player == 1


def test_r_jump_r_stack_4_a_stackers_identical_second_card_does_not_grow_the_stack() -> None:
    hands = list(STACK5)
    hands[2] = "G+2 G+2 B2 B3 B4 B5 B6"
    hands[4] = "Y8 Y9 G7 G8 G9 R6 R7"
    state = game(hands).apply("1: play R+2").apply("2: play G+2")
    assert "2: play G+2" in plays(state, 2)  # R-JUMP 1: a second identical card
    state = state.apply("2: play G+2")
    assert (state.current_player, state.phase.count) == (3, 4)  # one card per turn counts (R-STACK 4)


def test_r_jump_r_stack_5_a_jump_in_on_a_stacked_wild_draw_four_is_challenged_as_the_last_one() -> None:
    hands = [
        "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
        "W+4 G1 G2 G3 G4 Y8 Y9",
        "W+4 B1 B2 B3 B4 B5 B6",
        "R1 R2 R3 R4 R6 R7 R8",
        "W+4 Y7 G5 G6 G7 G8 G9",
    ]
    state = game(hands).apply("1: play W+4 G").apply("2: play W+4 Y")
    assert (state.current_player, state.phase.count) == (3, 8)
    state = state.apply("4: play W+4 B")
    assert (state.current_player, state.phase.name, state.phase.count) == (0, "challenge", 8)
    # Judged against yellow, the colour current when seat 4 jumped in: it holds Y7.
    assert (state.phase.seat, str(state.phase.color), str(state.color)) == (4, "Y", "B")
    state = state.apply("0: challenge")
    assert len(state.hands[4]) == 6 + 8  # guilty: the whole stack
    assert len(state.hands[3]) == 7
    assert len(state.hands[0]) == 7
    assert (state.current_player, state.phase.name) == (0, "play")


def test_r_stack_5_a_stacked_wild_draw_four_challenged_by_a_third_seat() -> None:
    # classic's challenger=anyone [LT]: a third seat's failed challenge costs it the
    # stack plus 2, and the seat hit by the stack still draws it.
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "W+4 G1 G2 G3 G4 Y8 Y9", "W+4 B1 B2 B3 B4 B5 B6", "R1 R2 R3 R4 R6 R7 R8"]
    state = game(hands, options={"challenger": "anyone"}).apply("1: play W+4 G").apply("2: play W+4 Y")
    assert "0: challenge" in {str(a) for a in state.legal_actions(0)}
    state = state.apply("0: challenge")
    assert len(state.hands[0]) == 7 + 10
    assert len(state.hands[3]) == 7 + 8
    assert len(state.hands[2]) == 6
    assert state.current_player == 0


def test_r_stack_r_jump_two_players_the_stack_bounces_and_a_double_replaces() -> None:
    state = game(["B+2 B1 B2 B3 B4 B5 B6", "R+2 R+2 R1 R2 R3 R4 R6"]).apply("1: play R+2")
    assert (state.current_player, state.phase.count) == (0, 2)
    state = state.apply("1: play R+2")  # seat 1's second Draw Two replaces its first
    assert (state.current_player, state.phase.count) == (0, 2)
    state = state.apply("0: play B+2")
    assert (state.current_player, state.phase.count) == (1, 4)
    state = state.apply("1: draw")
    assert len(state.hands[1]) == 5 + 4
    assert (state.current_player, state.phase.name) == (0, "play")  # R-2P: the last stacker plays again


# -- seven-o x jump-in ------------------------------------------------------------------


def test_r_jump_r_seven_o_a_seven_jumped_in_trades_again_from_the_jumper() -> None:
    hands = ["R7 Y1 Y2 Y3 Y4 Y5 Y6", "R7 R1 R2 R3 G1 G2 G3", "B1 B2 B3 B4 B5 B6 B7", "G4 G5 G6 G7 G8 G9 B8"]
    state = game(hands).apply("1: play R7 3")
    assert state.hands[3] == hand("R1 R2 R3 G1 G2 G3")
    assert plays(state, 0) == {"0: play R7 1", "0: play R7 2", "0: play R7 3"}
    state = state.apply("0: play R7 2")
    # The first trade stays; the jumper trades too, and play continues from seat 0.
    assert state.hands[0] == hand("B1 B2 B3 B4 B5 B6 B7")
    assert state.hands[2] == hand("Y1 Y2 Y3 Y4 Y5 Y6")
    assert state.hands[1] == hand("G4 G5 G6 G7 G8 G9 B8")
    assert state.hands[3] == hand("R1 R2 R3 G1 G2 G3")
    assert state.current_player == 1


def test_r_jump_r_seven_o_who_may_jump_in_is_judged_on_the_hands_after_the_trade() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "R7 R1 R2 R3 G1 G2 G3", "B1 B2 B3 B4 B5 B6 B7", "R7 G4 G5 G6 G7 G8 G9"]
    state = game(hands).apply("1: play R7 3")
    assert plays(state, 3) == set()  # seat 3 traded its red 7 away
    assert plays(state, 1) == {"1: play R7 0", "1: play R7 2", "1: play R7 3"}  # seat 1 holds it now
    state = state.apply("1: play R7 3")  # and trades back: R-JUMP 1, two 7s in one turn
    assert state.hands[1] == hand("R1 R2 R3 G1 G2 G3")
    assert state.current_player == 2


def test_r_jump_r_seven_o_an_identical_zero_passes_every_hand_on_again() -> None:
    pytest.importorskip("unorules_blank_cards")
    # A blank written as a red 0 makes a second, identical red 0 (R-BLANK).
    names = [*ALL, "blank-cards"]
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "R0 R1 R2 R3 G1 G2 G3", "B1 B2 B3 B4 B5 B6 B7", "R0 G4 G5 G6 G7 G8 G9"]
    before = game(hands, names=names, options={"blank_cards": "R0"})
    state = before.apply("1: play R0")
    assert state.hands[0] == hand("R0 G4 G5 G6 G7 G8 G9")  # seat 3's hand reached seat 0
    assert plays(state, 0) == {"0: play R0"}
    state = state.apply("0: play R0")
    assert state.hands[1] == hand("G4 G5 G6 G7 G8 G9")
    assert state.hands[2] == before.hands[0]
    assert state.hands[3] == hand("R1 R2 R3 G1 G2 G3")
    assert state.hands[0] == before.hands[2]
    assert state.current_player == 1


def test_r_jump_r_seven_o_with_color_or_number_a_zero_jumps_on_a_zero() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "R0 R1 R2 R3 G1 G2 G3", "B1 B2 B3 B4 B5 B6 B7", "G0 G4 G5 G6 G7 G8 G9"]
    state = game(hands, options={"jump_in_match": "color-or-number"}).apply("1: play R0")
    assert "0: play G0" in plays(state, 0)
    state = state.apply("0: play G0")
    assert state.hands[1] == hand("G4 G5 G6 G7 G8 G9")
    assert (state.current_player, str(state.color)) == (1, "G")


# -- seven-o x swap-hands -----------------------------------------------------------------


def test_r_seven_o_r_swap_a_seven_and_a_swap_hands_in_one_game() -> None:
    pytest.importorskip("unorules_swap_hands")
    names = ["classic", "seven-o", "swap-hands"]
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "R7 R1 R2 R3 G1 G2 G3", "SW B1 B2 B3 B4 B5 B6", "G4 G5 G6 G7 G8 G9 B7"]
    state = game(hands, names=names).apply("1: play R7 3")
    assert state.hands[3] == hand("R1 R2 R3 G1 G2 G3")
    state = state.apply("2: play SW B 0")
    assert state.hands[0] == hand("B1 B2 B3 B4 B5 B6")
    assert state.hands[2] == hand("Y1 Y2 Y3 Y4 Y5 Y6 Y7")
    assert state.hands[1] == hand("G4 G5 G6 G7 G8 G9 B7")
    assert (state.current_player, str(state.color)) == (3, "B")


def test_r_seven_o_r_swap_uno_calls_follow_the_cards_alike_for_a_seven_and_a_swap_hands() -> None:
    pytest.importorskip("unorules_swap_hands")
    names = ["classic", "seven-o", "swap-hands"]
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "R7 R1 R2 R3 G1 G2 G3", "SW B1 B2 B3 B4 B5 B6", "G4 G5 G6 G7 G8 G9 B7"]
    state = rearranged(game(hands, names=names), hands={1: "R7 G1", 2: "SW B1"})
    state = state.apply("1: play R7 3")  # no UNO call
    assert state.hands[3] == hand("G1")
    assert state.uno_exposed == ()
    state = state.apply("2: play SW B 0")  # no UNO call either
    assert state.hands[0] == hand("B1")
    assert state.uno_exposed == ()
    assert not any(a.verb == "catch" for a in state.legal_actions())


# -- jump-in x penalties ----------------------------------------------------------------


def test_r_jump_r_pen_coach_a_coaching_report_keeps_the_jump_in_window_open() -> None:
    pytest.importorskip("unorules_penalties")
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "B6 R1 R2 R3 R4 G1 G2", "B1 B2 B3 B4 B5 B7 B8", "B6 G3 G4 G5 G6 G7 G8"]
    state = game(hands, "B9", names=["classic", "jump-in", "penalties"]).apply("1: play B6")
    state = state.apply("0: catch_coach 2")  # not a turn: seat 2 draws 2, still to move
    assert (state.current_player, len(state.hands[2])) == (2, 9)
    assert plays(state, 3) == {"3: play B6"}

"""Scenario tests of R-JUMP, each built from an arranged deck (dealer 0, seat 1 plays first)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unorules import GameState, IllegalActionError, Ruleset, RulesetError, parse_cards
from unorules.testing import arrange_deck, rearranged

# Seat 1 and seat 3 each hold a blue 6; the starter is blue.
SIXES = [
    "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
    "B6 R1 R2 R3 R4 G1 G2",
    "B1 B2 B3 B4 B5 B7 B8",
    "B6 G3 G4 G5 G6 G7 G8",
]
# Action cards: seat 1 plays them, seat 2 or seat 3 holds the identical ones.
ACTIONS = [
    "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
    "R+2 RS RR W+4 R1 R2 G1",
    "RS RR B1 B2 B3 B4 B5",
    "R+2 W+4 G3 G4 G5 G6 G7",
]


def game(
    hands: Sequence[str],
    starter: str,
    draw: str = "",
    options: Mapping[str, Any] | None = None,
) -> GameState:
    rules = Ruleset.from_names(["classic", "jump-in"], options=options)
    return rules.new_game(players=len(hands), deck=arrange_deck(hands, starter, draw), dealer=0)


def legal(state: GameState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def plays(state: GameState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat) if a.verb == "play"}


def test_r_jump_an_identical_card_may_be_played_out_of_turn_and_play_continues_from_the_jumper() -> None:
    state = game(SIXES, "B9").apply("1: play B6")
    assert state.current_player == 2
    assert plays(state, 3) == {"3: play B6"}  # listed by legal_actions(seat)
    assert plays(state, 0) == set()  # a yellow 6 is not identical
    state = state.apply("3: play B6")
    assert state.current_player == 0  # seat 2's turn is gone: play continues from seat 3
    assert len(state.hands[3]) == 6
    assert any(e.kind == "jump-in" and e.rule == "R-JUMP" for e in state.events)


def test_r_jump_option_identical_a_card_that_is_not_identical_is_refused() -> None:
    state = game(SIXES, "B9").apply("1: play B6")
    with pytest.raises(IllegalActionError, match="identical to the top card B6") as caught:
        state.apply("0: play Y6")
    assert caught.value.rule == "R-JUMP"
    with pytest.raises(IllegalActionError, match="holds no B6") as caught:
        state.apply("0: play B6")
    assert caught.value.rule == "R-JUMP"


def test_r_jump_the_window_closes_when_the_next_seat_acts() -> None:
    state = game(SIXES, "B9", draw="B8").apply("1: play B6").apply("2: draw")
    assert (state.current_player, state.phase.name) == (2, "drawn")
    assert plays(state, 3) == set()
    with pytest.raises(IllegalActionError, match="before seat 2 acts") as caught:
        state.apply("3: play B6")
    assert caught.value.rule == "R-JUMP"


def test_r_jump_the_window_stays_open_through_uno_calls_and_catches() -> None:
    state = rearranged(game(SIXES, "B9"), hands={1: "B6 G1"}).apply("1: play B6")
    assert state.uno_exposed == (1,)
    caught = state.apply("0: catch 1")
    assert "3: play B6" in plays(caught, 3)
    late = state.apply("1: uno")
    assert "3: play B6" in plays(late, 3)


def test_r_jump_nobody_jumps_in_on_the_starter() -> None:
    state = game(SIXES, "G6")  # seat 3 holds the other green 6
    assert plays(state, 3) == set()
    with pytest.raises(IllegalActionError) as caught:
        state.apply("3: play G6")
    assert caught.value.rule == "R-JUMP"


def test_r_jump_the_seat_to_move_plays_its_turn_and_does_not_jump_in() -> None:
    # Seat 2, told to draw by a red Draw Two, holds the other red Draw Two:
    # it is seat 2's turn, so the card is not a jump-in, and it must draw.
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "R+2 R1 R2 R3 R4 G1 G2", "R+2 B1 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"]
    state = game(hands, "R5").apply("1: play R+2")
    assert legal(state, 2) == {"2: draw"}


def test_r_jump_1_two_identical_cards_in_one_turn_the_second_replaces_the_first() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "RS RS R1 R2 R3 G1 G2", "B1 B2 B3 B4 B5 B6 B7", "G3 G4 G5 G6 G7 G8 G9"]
    state = game(hands, "R5").apply("1: play RS")
    assert state.current_player == 3
    assert "1: play RS" in plays(state, 1)
    state = state.apply("1: play RS")
    assert state.current_player == 3  # one seat skipped in all, not two
    assert len(state.hands[1]) == 5


def test_r_jump_1_two_draw_twos_in_one_turn_make_the_next_seat_draw_two() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "R+2 R+2 R1 R2 R3 G1 G2", "B1 B2 B3 B4 B5 B6 B7", "G3 G4 G5 G6 G7 G8 G9"]
    state = game(hands, "R5").apply("1: play R+2").apply("1: play R+2")
    assert (state.current_player, state.phase.name, state.phase.count) == (2, "penalty", 2)
    state = state.apply("2: draw")
    assert len(state.hands[2]) == 9


def test_r_jump_1_another_seat_may_jump_in_between_and_stop_the_second() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "W W R1 R2 R3 G1 G2", "B1 B2 B3 B4 B5 B6 B7", "W G3 G4 G5 G6 G7 G8"]
    state = game(hands, "R5").apply("1: play W G")
    assert "1: play W Y" in plays(state, 1)
    assert "3: play W B" in plays(state, 3)
    state = state.apply("3: play W B")
    assert (state.current_player, str(state.color)) == (0, "B")  # play continues from seat 3
    assert parse_cards("W")[0] in state.hands[1]  # the second Wild was stopped
    # Identical to the new top card, it may still jump in, replacing seat 3's.
    state = state.apply("1: play W R")
    assert (state.current_player, str(state.color)) == (2, "R")


def test_r_jump_2_a_jumped_skip_skips_the_seat_after_the_jumper() -> None:
    state = game(ACTIONS, "R5").apply("1: play RS")
    assert state.current_player == 3
    state = state.apply("2: play RS")
    assert state.current_player == 0  # seat 3 skipped, from seat 2


def test_r_jump_2_two_reverses_flip_the_direction_once() -> None:
    state = game(ACTIONS, "R5").apply("1: play RR")
    assert (state.direction, state.current_player) == (-1, 0)
    state = state.apply("2: play RR")
    # Seat 2's Reverse replaces seat 1's: one flip in all, then play goes on from seat 2.
    assert (state.direction, state.current_player) == (-1, 1)


def test_r_jump_2_a_jumped_draw_two_lets_its_victim_off_and_hits_the_seat_after_the_jumper() -> None:
    state = game(ACTIONS, "R5").apply("1: play R+2")
    assert (state.current_player, state.phase.name) == (2, "penalty")
    state = state.apply("3: play R+2")
    assert (state.current_player, state.phase.name, state.phase.count) == (0, "penalty", 2)
    state = state.apply("0: draw")
    assert len(state.hands[0]) == 9
    assert len(state.hands[2]) == 7  # seat 2 drew nothing
    assert state.current_player == 1


def test_r_jump_2_a_jumped_wild_draw_four_hits_the_seat_after_the_jumper_who_may_challenge_it() -> None:
    state = game(ACTIONS, "R5").apply("1: play W+4 G")
    assert (state.current_player, state.phase.name) == (2, "challenge")
    state = state.apply("3: play W+4 Y")
    assert (state.current_player, state.phase.name, state.phase.count) == (0, "challenge", 4)
    assert (state.phase.seat, str(state.phase.color), str(state.color)) == (3, "G", "Y")
    # Seat 3 held green, the colour current when it jumped in: guilty.
    state = state.apply("0: challenge")
    assert len(state.hands[3]) == 6 + 4
    assert len(state.hands[2]) == 7
    assert len(state.hands[0]) == 7
    assert (state.current_player, state.phase.name) == (0, "play")


def test_r_jump_2_with_challenge_off_a_jumping_wild_draw_four_needs_no_card_of_the_colour() -> None:
    hands = [
        "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
        "W+4 B1 B2 G1 G2 G3 G4",
        "W+4 B3 B4 B5 B6 B7 B8",
        "W+4 Y8 Y9 G5 G6 G7 G8",
    ]
    state = game(hands, "R5", options={"challenge": "off"}).apply("1: play W+4 Y")
    assert "2: play W+4 G" not in plays(state, 2)  # seat 2 is the seat to move
    assert plays(state, 3) == set()  # seat 3 holds yellow, the colour named
    with pytest.raises(IllegalActionError) as caught:
        state.apply("3: play W+4 G")
    assert caught.value.rule == "R-TURN-WD4"
    state = game(hands, "R5", options={"challenge": "off"}).apply("1: play W+4 R")
    assert {"3: play W+4 R", "3: play W+4 Y", "3: play W+4 G", "3: play W+4 B"} == plays(state, 3)
    state = state.apply("3: play W+4 B")
    assert (state.current_player, state.phase.name, state.phase.count) == (0, "penalty", 4)


def test_r_jump_a_wild_is_identical_to_a_wild_of_its_kind_whatever_colour_was_named() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "W R1 R2 R3 R4 G1 G2", "B1 B2 B3 B4 B5 B6 B7", "W W+4 G3 G4 G5 G6 G7"]
    state = game(hands, "R5").apply("1: play W Y")
    assert plays(state, 3) == {"3: play W R", "3: play W Y", "3: play W G", "3: play W B"}
    state = state.apply("3: play W G")
    assert (state.current_player, str(state.color)) == (0, "G")


def test_r_jump_uno_may_be_called_out_of_turn_before_jumping_in_with_the_next_to_last_card() -> None:
    state = rearranged(game(SIXES, "B9"), hands={3: "B6 G3"}).apply("1: play B6")
    assert "3: uno" in legal(state, 3)
    called = state.apply("3: uno").apply("3: play B6")
    assert called.uno_exposed == ()
    silent = state.apply("3: play B6")
    assert silent.uno_exposed == (3,)


def test_r_jump_going_out_on_a_jump_in_ends_the_round() -> None:
    state = rearranged(game(ACTIONS, "R5").apply("1: play R+2"), hands={3: "R+2"})
    state = state.apply("3: play R+2")
    result = state.rounds[-1]
    assert (result.winner, result.reason) == (3, "out")
    assert len(result.hands[0]) == 9  # R-OUT-LAST-DRAW: the seat after the jumper draws 2
    assert len(result.hands[2]) == 7  # the replaced victim draws nothing
    assert state.extra("jump-in") is None  # no window into the next round


def test_r_jump_the_window_survives_json() -> None:
    state = game(SIXES, "B9").apply("1: play B6")
    again = GameState.from_json(state.to_json())
    assert again == state
    assert plays(again, 3) == {"3: play B6"}
    assert again.apply("3: play B6") == state.apply("3: play B6")


def test_r_jump_option_color_or_number_lets_a_card_of_the_colour_or_number_jump_in() -> None:
    options = {"jump_in_match": "color-or-number"}
    state = game(SIXES, "B9", options=options).apply("1: play B6")
    assert plays(state, 0) == {"0: play Y6"}  # the number
    assert plays(state, 3) == {"3: play B6", "3: play G6"}  # identical, and the number
    state = state.apply("0: play Y6")
    assert (state.current_player, str(state.color)) == (1, "Y")


def test_r_jump_option_color_or_number_a_card_that_is_not_identical_replaces_nothing() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "BR R1 R2 R3 R4 G1 G2", "B1 B2 B3 B4 B5 B7 B8", "G3 G4 G5 G6 G7 G8 G9"]
    state = game(hands, "B9", options={"jump_in_match": "color-or-number"}).apply("1: play BR")
    assert (state.direction, state.current_player) == (-1, 0)
    state = state.apply("2: play B1")
    assert (state.direction, state.current_player) == (-1, 1)  # the Reverse stands


def test_r_jump_option_color_or_number_only_an_identical_card_cuts_short_a_pending_draw() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "B+2 R1 R2 R3 R4 G1 G2", "B1 B2 B3 B4 B5 B7 B8", "B6 G3 G4 G5 G6 G7 G8"]
    state = game(hands, "B9", options={"jump_in_match": "color-or-number"}).apply("1: play B+2")
    assert plays(state, 3) == set()
    with pytest.raises(IllegalActionError, match="only an identical card") as caught:
        state.apply("3: play B6")
    assert caught.value.rule == "R-JUMP"


def test_r_jump_option_jump_in_match_values() -> None:
    assert Ruleset.from_names(["classic", "jump-in"]).options["jump_in_match"] == "identical"
    with pytest.raises(RulesetError, match="jump_in_match"):
        Ruleset.from_names(["classic", "jump-in"], options={"jump_in_match": "colour"})
    # It names no base rule set, but needs one (classic, or an edition): alone it deals nothing.
    with pytest.raises(RulesetError, match="no cards in the deck"):
        Ruleset.from_names(["jump-in"])


def test_r_jump_two_players_jump_in_after_a_skip() -> None:
    # R-2P: after a Skip its player plays again; the opponent may still jump in.
    hands = ["RS Y1 Y2 Y3 Y4 Y5 Y6", "RS R1 R2 R3 R4 G1 G2"]
    state = game(hands, "R5").apply("1: play RS")
    assert state.current_player == 1
    assert "0: play RS" in plays(state, 0)
    state = state.apply("0: play RS")
    assert state.current_player == 0  # seat 0's Skip, from seat 0: seat 1 skipped


def test_r_jump_the_seat_to_moves_uno_call_keeps_the_window_open() -> None:
    state = rearranged(game(SIXES, "B9"), hands={2: "B1 B2"}).apply("1: play B6").apply("2: uno")
    assert "3: play B6" in plays(state, 3)


def test_r_jump_the_window_closes_when_another_seats_challenge_moves_the_turn_on() -> None:
    # challenger=anyone [LT]: seat 0 challenges the Wild Draw Four that hit seat 2.
    state = game(ACTIONS, "R5", options={"challenger": "anyone"}).apply("1: play W+4 G")
    assert "3: play W+4 Y" in plays(state, 3)
    state = state.apply("0: challenge")
    assert plays(state, 3) == set()

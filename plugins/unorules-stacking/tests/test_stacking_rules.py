"""Scenario tests of R-STACK, each built from an arranged deck (dealer 0, seat 1 plays first)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unorules import Card, GameState, IllegalActionError, Ruleset, RulesetError
from unorules.testing import arrange_deck, rearranged

OTHERS = "Y1 Y2 Y3 Y4 Y5 Y6 Y7"


def game(
    hands: Sequence[str],
    starter: str = "R5",
    draw: str = "",
    options: Mapping[str, Any] | None = None,
) -> GameState:
    rules = Ruleset.from_names(["classic", "stacking"], options=options)
    return rules.new_game(players=len(hands), deck=arrange_deck(hands, starter, draw), dealer=0)


def legal(state: GameState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def play(state: GameState, *actions: str) -> GameState:
    for action in actions:
        state = state.apply(action)
    return state


def test_r_stack_1_draw_two_on_draw_two_makes_the_next_seat_draw_four() -> None:
    state = game([OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "B+2 B1 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"])
    state = state.apply("1: play R+2")
    assert (state.current_player, state.phase.name, state.phase.count) == (2, "penalty", 2)
    assert legal(state, 2) == {"2: play B+2", "2: draw"}
    state = state.apply("2: play B+2")
    assert (state.current_player, state.phase.name, state.phase.count) == (3, "penalty", 4)
    assert str(state.color) == "B"
    assert legal(state, 3) == {"3: draw"}  # no Draw Two: draw the stack
    state = state.apply("3: draw")
    assert len(state.hands[3]) == 11
    assert (state.current_player, state.phase.name) == (0, "play")  # and the turn is lost


def test_r_stack_2_wild_draw_four_on_wild_draw_four_draws_eight_last_stacker_names_colour() -> None:
    state = game([OTHERS, "W+4 G1 G2 G3 G4 Y8 Y9", "W+4 B1 B2 B3 B4 B5 B6", "R1 R2 R3 R4 R6 R7 R8"])
    state = state.apply("1: play W+4 G")
    assert state.phase.name == "challenge"
    assert {"2: play W+4 Y", "2: challenge", "2: accept"} <= legal(state, 2)
    state = state.apply("2: play W+4 Y")
    assert (state.current_player, state.phase.name, state.phase.count) == (3, "challenge", 8)
    assert str(state.color) == "Y"  # named by the last stacker
    state = state.apply("3: accept")
    assert len(state.hands[3]) == 15
    assert (state.current_player, str(state.color)) == (0, "Y")


def test_r_stack_3_four_draw_twos_in_a_row_make_the_next_seat_draw_eight() -> None:
    hands = [
        "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
        "R+2 R1 R2 R3 R4 R6 R7",
        "B+2 B1 B2 B3 B4 B5 B6",
        "G+2 G1 G2 G3 G4 G5 G6",
        "Y+2 Y8 Y9 G7 G8 G9 B7",
    ]
    state = play(game(hands), "1: play R+2", "2: play B+2", "3: play G+2", "4: play Y+2")
    assert (state.current_player, state.phase.name, state.phase.count) == (0, "penalty", 8)
    state = state.apply("0: draw")
    assert len(state.hands[0]) == 15
    assert state.current_player == 1


def test_r_stack_4_each_player_adds_at_most_one_card_per_turn() -> None:
    state = game([OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "B+2 Y+2 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"])
    state = play(state, "1: play R+2", "2: play B+2")
    assert not state.legal_actions(2)  # its stack card is laid; it is seat 3's turn
    with pytest.raises(IllegalActionError, match="at most one card") as caught:
        state.apply("2: play Y+2")
    assert caught.value.rule == "R-STACK"


def test_r_stack_4_two_players_take_turns_so_each_may_stack_again() -> None:
    # Two players: the stack bounces; each answer is a new turn (R-STACK 4 and R-2P).
    state = game(["B+2 G+2 B1 B2 B3 B4 B5", "R+2 Y+2 R1 R2 R3 R4 R6"])
    state = play(state, "1: play R+2", "0: play B+2", "1: play Y+2")
    assert (state.current_player, state.phase.count) == (0, 6)
    assert "0: play G+2" in legal(state, 0)


def test_r_stack_5_caught_bluff_costs_the_bluffer_the_whole_stack() -> None:
    # Seat 2 stacks a Wild Draw Four while holding green, the colour seat 1 named.
    state = game([OTHERS, "W+4 R1 G2 G3 G4 Y8 Y9", "W+4 G1 B2 B3 B4 B5 B6", "R2 R3 R4 R6 R7 R8 R9"])
    state = play(state, "1: play W+4 G", "2: play W+4 Y")
    assert (state.phase.seat, str(state.phase.color)) == (2, "G")  # only the last one is challenged
    state = state.apply("3: challenge")
    assert len(state.hands[2]) == 6 + 8  # the whole stack
    assert len(state.hands[1]) == 6  # seat 1's own bluff is not judged
    assert len(state.hands[3]) == 7
    assert (state.current_player, state.phase.name, str(state.color)) == (3, "play", "Y")


def test_r_stack_5_innocent_stackers_challenger_draws_the_stack_plus_two() -> None:
    state = game([OTHERS, "W+4 G1 G2 G3 G4 Y8 Y9", "W+4 B1 B2 B3 B4 B5 B6", "R2 R3 R4 R6 R7 R8 R9"])
    state = play(state, "1: play W+4 G", "2: play W+4 Y", "3: challenge")
    assert len(state.hands[3]) == 7 + 10
    assert len(state.hands[2]) == 6
    assert (state.current_player, state.phase.name) == (0, "play")


def test_r_stack_option_stack_mix_off_refuses_a_wild_draw_four_on_a_draw_two() -> None:
    state = game([OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "W+4 B1 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"])
    state = state.apply("1: play R+2")
    assert legal(state, 2) == {"2: draw"}
    with pytest.raises(IllegalActionError, match="stack_mix=off") as caught:
        state.apply("2: play W+4 B")
    assert caught.value.rule == "R-STACK"


def test_r_stack_option_stack_mix_off_refuses_a_draw_two_on_a_wild_draw_four() -> None:
    state = game([OTHERS, "W+4 G1 G2 G3 G4 Y8 Y9", "B+2 B1 B2 B3 B4 B5 B6", "R1 R2 R3 R4 R6 R7 R8"])
    state = state.apply("1: play W+4 B")
    assert "2: play B+2" not in legal(state, 2)
    with pytest.raises(IllegalActionError, match="stack_mix=off"):
        state.apply("2: play B+2")


def test_r_stack_option_stack_mix_on_allows_a_wild_draw_four_on_a_draw_two() -> None:
    hands = [OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "W+4 B1 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"]
    state = game(hands, options={"stack_mix": "on"})
    state = play(state, "1: play R+2", "2: play W+4 G")
    # The Wild Draw Four may be challenged, judged on the colour before it (red).
    assert (state.current_player, state.phase.name, state.phase.count) == (3, "challenge", 6)
    assert str(state.phase.color) == "R"
    state = state.apply("3: accept")
    assert len(state.hands[3]) == 13


def test_r_stack_option_stack_mix_on_allows_a_draw_two_of_the_named_colour_on_a_wild_draw_four() -> None:
    hands = [OTHERS, "W+4 G1 G2 G3 G4 Y8 Y9", "B+2 R+2 B2 B3 B4 B5 B6", "R1 R2 R3 R4 R6 R7 R8"]
    state = game(hands, options={"stack_mix": True}).apply("1: play W+4 B")
    assert "2: play B+2" in legal(state, 2)
    assert "2: play R+2" not in legal(state, 2)  # not the colour named
    with pytest.raises(IllegalActionError, match="colour named") as caught:
        state.apply("2: play R+2")
    assert caught.value.rule == "R-STACK"
    state = state.apply("2: play B+2")
    # A Draw Two on a Wild Draw Four makes a plain penalty: nothing to challenge.
    assert (state.current_player, state.phase.name, state.phase.count) == (3, "penalty", 6)
    assert legal(state, 3) == {"3: draw"}


def test_r_stack_option_stack_mix_rejects_bad_values() -> None:
    with pytest.raises(RulesetError, match="stack_mix"):
        Ruleset.from_names(["classic", "stacking"], options={"stack_mix": "sometimes"})
    assert Ruleset.from_names(["classic", "stacking"]).options["stack_mix"] is False


def test_r_stack_needs_a_base_rule_set_and_names_none() -> None:
    # Issue 42: stacking asks the core's shared questions; refused alone (no cards), and by the
    # editions, which define their own draw cards (flip) or their own stacking (no-mercy).
    with pytest.raises(RulesetError, match="no cards in the deck"):
        Ruleset.from_names(["stacking"])
    for edition in ("flip", "no-mercy"):
        with pytest.raises(RulesetError, match="conflict"):
            Ruleset.from_names([edition, "stacking"])


def test_r_stack_2_with_challenge_off_a_stacked_wild_draw_four_keeps_r_turn_wd4() -> None:
    # challenge=off: seat 2 holds green (the colour named), so it may not stack a Wild Draw Four.
    hands = [OTHERS, "W+4 G1 G2 G3 G4 Y8 Y9", "W+4 G5 B2 B3 B4 B5 B6", "W+4 R2 R3 R4 R6 R7 R8"]
    state = game(hands, options={"challenge": "off"}).apply("1: play W+4 G")
    assert state.phase.name == "penalty"
    assert legal(state, 2) == {"2: draw"}
    with pytest.raises(IllegalActionError) as caught:
        state.apply("2: play W+4 R")
    assert caught.value.rule == "R-TURN-WD4"
    # Drawing ends the stack: seat 2 draws all of it and loses the turn.
    state = state.apply("2: draw")
    assert len(state.hands[2]) == 11
    assert state.current_player == 3
    assert state.phase.name == "play"


def test_r_stack_2_with_challenge_off_a_seat_without_the_colour_stacks_into_a_penalty() -> None:
    hands = [OTHERS, "W+4 G1 G2 G3 G4 Y8 Y9", "W+4 B1 B2 B3 B4 B5 B6", "R2 R3 R4 R6 R7 R8 R9"]
    state = game(hands, options={"challenge": False})
    state = play(state, "1: play W+4 G", "2: play W+4 R")
    assert (state.current_player, state.phase.name, state.phase.count) == (3, "penalty", 8)
    assert legal(state, 3) == {"3: draw"}


def test_r_stack_going_out_on_a_stacked_card_makes_the_next_seat_draw_the_whole_stack() -> None:
    # R-OUT-LAST-DRAW with a stack: the round ends, seat 3 draws 4, and they count.
    state = game([OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "B+2 B1 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"])
    state = state.apply("1: play R+2")
    state = rearranged(state, hands={2: "B+2"})
    state = state.apply("2: play B+2")
    result = state.rounds[-1]
    assert (result.winner, result.reason) == (2, "out")
    assert len(result.hands[3]) == 11
    value = state.ruleset.hand_points
    assert result.points[2] == value(result.hands[0]) + value(result.hands[1]) + value(result.hands[3])


def test_r_stack_1_a_draw_two_starter_may_be_stacked() -> None:
    hands = [OTHERS, "G+2 R1 R2 R3 R4 G1 G2", "B1 B2 B3 B4 B5 B6 B7", "G3 G4 G5 G6 G7 G8 G9"]
    state = game(hands, starter="R+2")
    assert (state.current_player, state.phase.name, state.phase.count) == (1, "penalty", 2)
    assert "1: play G+2" in legal(state, 1)
    state = state.apply("1: play G+2")
    assert (state.current_player, state.phase.count) == (2, 4)


def test_r_stack_two_players_the_last_stacker_plays_again() -> None:
    # R-2P: after the opponent draws the stack, the player who stacked last plays again.
    state = game(["B+2 B1 B2 B3 B4 B5 B6", "R+2 R1 R2 R3 R4 R6 R7"])
    state = play(state, "1: play R+2", "0: play B+2")
    assert (state.current_player, state.phase.name, state.phase.count) == (1, "penalty", 4)
    assert legal(state, 1) == {"1: draw"}
    state = state.apply("1: draw")
    assert len(state.hands[1]) == 10
    assert (state.current_player, state.phase.name) == (0, "play")


def test_r_stack_uno_may_be_called_before_stacking_the_next_to_last_card() -> None:
    state = game([OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "B+2 B1 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"])
    state = rearranged(state.apply("1: play R+2"), hands={2: "B+2 B5"})
    assert "2: uno" in legal(state, 2)
    called = play(state, "2: uno", "2: play B+2")
    assert called.uno_exposed == ()
    silent = state.apply("2: play B+2")
    assert silent.uno_exposed == (2,)
    assert "0: catch 2" in legal(silent, 0)


def test_r_stack_a_seat_told_to_draw_may_not_play_another_card() -> None:
    state = game([OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "B+2 R5 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"])
    state = state.apply("1: play R+2")
    with pytest.raises(IllegalActionError, match="answer the stack of 2") as caught:
        state.apply("2: play R5")
    assert caught.value.rule == "R-STACK"
    with pytest.raises(IllegalActionError, match="name the colour"):
        game([OTHERS, "W+4 G1 G2 G3 G4 Y8 Y9", "W+4 B1 B2 B3 B4 B5 B6", OTHERS.replace("Y", "R")]).apply(
            "1: play W+4 G"
        ).apply("2: play W+4")


def test_r_stack_a_card_not_held_is_refused_naming_the_stack_the_seat_could_answer() -> None:
    """Issue 33 (7): during a stack, a card the seat does not hold is refused citing R-STACK
    and naming the cards it may stack, not "must draw 2 and lose the turn" (R-ACT-D2)."""
    state = game([OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "B+2 R5 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"])
    state = state.apply("1: play R+2")
    for typed in ("2: play G+2", "2: play G9"):
        with pytest.raises(IllegalActionError) as caught:
            state.apply(typed)
        assert caught.value.rule == "R-STACK", caught.value
        assert "holds no" in str(caught.value)
        assert "stacking B+2" in str(caught.value)
        assert "draw 2" in str(caught.value)
    # a Wild Draw Four stack: the Wild Draw Four the seat holds is named, with the colour to name
    wild = game([OTHERS, "W+4 G1 G2 G3 G4 Y8 Y9", "W+4 B1 B2 B3 B4 B5 B6", "R1 R2 R3 R4 R6 R7 R8"])
    wild = wild.apply("1: play W+4 G")
    with pytest.raises(IllegalActionError, match="stacking W\\+4") as caught:
        wild.apply("2: play R+2")
    assert caught.value.rule == "R-STACK"


def test_r_stack_a_card_not_held_by_a_seat_with_nothing_to_stack_is_classics_draw() -> None:
    """The negative case: a seat holding nothing it may stack must draw (R-ACT-D2), as
    classic says."""
    state = game([OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "B1 R5 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"])
    state = state.apply("1: play R+2")
    with pytest.raises(IllegalActionError, match="must draw 2") as caught:
        state.apply("2: play G+2")
    assert caught.value.rule == "R-ACT-D2"


def test_r_stack_events_record_the_stack() -> None:
    state = game([OTHERS, "R+2 R1 R2 R3 R4 G1 G2", "B+2 B1 B2 B3 B4 B5 B6", "G3 G4 G5 G6 G7 G8 G9"])
    state = play(state, "1: play R+2", "2: play B+2")
    (event,) = [e for e in state.events if e.kind == "stack"]
    assert (event.seat, event.cards, event.rule) == (2, (Card.parse("B+2"),), "R-STACK")
    assert "stack of 4" in event.detail

"""Scenario tests of R-HOUSE-DEFLECT and R-HOUSE-REVENGE, alone and with stacking,
jump-in, last-loses and classic's options. Dealer 0: seat 1 plays first, on a red 5."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unorules import GameState, IllegalActionError, Ruleset, RulesetError
from unorules.testing import arrange_deck, rearranged

YELLOWS = "Y1 Y2 Y3 Y4 Y6 Y7 Y8"
FOUR = [YELLOWS, "R+2 W+4 R3 G4 G6 G7 G8", "BR GS B3 B4 B6 B7 B8", "G1 G2 G3 B9 Y9 R9 R8"]


def game(
    hands: Sequence[str] = FOUR,
    plugins: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    draw: str = "",
) -> GameState:
    rules = Ruleset.from_names(["classic", "deflect", *plugins], options=options)
    return rules.new_game(players=len(hands), deck=arrange_deck(hands, "R5", draw=draw), dealer=0)


def legal(state: GameState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def play(state: GameState, *actions: str) -> GameState:
    for action in actions:
        state = state.apply(action)
    return state


def test_r_house_deflect_a_reverse_sends_a_draw_two_back_to_its_player() -> None:
    state = play(game(), "1: play R+2")
    assert {"2: play BR", "2: play GS", "2: draw"} == legal(state, 2)
    state = play(state, "2: play BR")  # a Reverse of any colour
    assert (state.current_player, state.phase.name, state.phase.count, state.direction) == (
        1,
        "penalty",
        2,
        -1,
    )
    assert str(state.color) == "B"
    (deflect,) = [e for e in state.events if e.kind == "deflect"]
    assert (deflect.seat, deflect.target, deflect.count, deflect.rule) == (2, 1, 2, "R-HOUSE-DEFLECT")
    state = play(state, "1: draw")
    assert len(state.hands[1]) == 8
    assert state.current_player == 0  # the turn passes on in the new direction


def test_r_house_deflect_a_skip_passes_the_draw_on_to_the_next_seat() -> None:
    state = play(game(), "1: play R+2", "2: play GS")
    assert (state.current_player, state.phase.name, state.phase.count, state.direction) == (
        3,
        "penalty",
        2,
        1,
    )
    state = play(state, "3: draw")
    assert len(state.hands[3]) == 9
    assert state.current_player == 0


def test_r_house_deflect_without_a_pending_draw_a_reverse_is_an_ordinary_card() -> None:
    state = game()
    assert "1: play W+4 B" in legal(state, 1)
    state = play(state, "1: play R3")
    assert "2: play BR" not in legal(state, 2)  # a blue Reverse does not match a red 3


def test_r_house_deflect_a_deflected_wild_draw_four_can_no_longer_be_challenged() -> None:
    state = play(game(), "1: play W+4 G")
    assert state.phase.name == "challenge"
    assert {"2: challenge", "2: accept", "2: play BR", "2: play GS"} <= legal(state, 2)
    state = play(state, "2: play BR")
    assert (state.current_player, state.phase.name, state.phase.count) == (1, "penalty", 4)
    assert "1: challenge" not in legal(state, 1)
    with pytest.raises(IllegalActionError):
        state.apply("1: challenge")


def test_r_house_deflect_options_say_which_cards_deflect_which_draws() -> None:
    state = play(game(options={"deflect_reverse": "draw-two", "deflect_skip": False}), "1: play W+4 G")
    assert not any(a.verb == "play" for a in state.legal_actions(2))
    with pytest.raises(IllegalActionError) as error:
        state.apply("2: play BR")
    assert error.value.rule == "R-HOUSE-DEFLECT"
    assert "deflect_reverse=draw-two" in str(error.value)
    state = play(game(options={"deflect_reverse": "draw-two", "deflect_skip": False}), "1: play R+2")
    assert legal(state, 2) == {"2: play BR", "2: draw"}
    with pytest.raises(IllegalActionError, match="deflect_skip=off") as skip:
        state.apply("2: play GS")
    assert skip.value.rule == "R-HOUSE-DEFLECT"


def test_r_house_deflect_a_reverse_only_for_a_wild_draw_four() -> None:
    options = {"deflect_reverse": "wild-draw-four"}
    assert "2: play BR" not in legal(play(game(options=options), "1: play R+2"), 2)
    assert "2: play BR" in legal(play(game(options=options), "1: play W+4 G"), 2)


def test_r_house_deflect_nothing_to_deflect_with_is_refused_when_built() -> None:
    with pytest.raises(RulesetError, match="deflects nothing"):
        Ruleset.from_names(["classic", "deflect"], options={"deflect_reverse": "off", "deflect_skip": "off"})


def test_r_house_revenge_a_draw_sent_back_doubles() -> None:
    state = play(game(options={"deflect_revenge": True}), "1: play R+2", "2: play BR")
    assert (state.current_player, state.phase.count) == (1, 4)
    (deflect,) = [e for e in state.events if e.kind == "deflect"]
    assert deflect.rule == "R-HOUSE-REVENGE"


def test_r_house_revenge_a_skip_passes_the_draw_on_unchanged() -> None:
    state = play(game(options={"deflect_revenge": True}), "1: play R+2", "2: play GS")
    assert (state.current_player, state.phase.count) == (3, 2)


def test_r_house_revenge_off_by_default_the_draw_sent_back_is_the_same() -> None:
    assert play(game(), "1: play R+2", "2: play BR").phase.count == 2


def test_r_house_deflect_with_stacking_the_whole_stack_moves_and_may_be_stacked_on() -> None:
    hands = [YELLOWS, "R+2 W+4 R3 G4 G6 G7 G8", "B+2 BR B3 B4 B6 B7 B8", "G1 GS G3 B9 Y9 R9 R8"]
    state = play(game(hands, plugins=("stacking",)), "1: play R+2", "2: play B+2")
    assert (state.current_player, state.phase.count) == (3, 4)
    state = play(state, "3: play GS")  # on to seat 0
    assert (state.current_player, state.phase.count) == (0, 4)
    state = rearranged(state, hands={0: "G+2 Y1"})
    assert "0: play G+2" in legal(state, 0)  # the top card is still a Draw Two: stack on it
    state = play(state, "0: play G+2")
    assert (state.current_player, state.phase.count) == (1, 6)


def test_r_house_revenge_with_stacking_a_stack_sent_back_doubles() -> None:
    hands = [YELLOWS, "R+2 W+4 R3 G4 G6 G7 G8", "B+2 BR B3 B4 B6 B7 B8", "G1 GR G3 B9 Y9 R9 R8"]
    state = play(
        game(hands, plugins=("stacking",), options={"deflect_revenge": True}), "1: play R+2", "2: play B+2"
    )
    state = play(state, "3: play GR")
    assert (state.current_player, state.phase.count) == (2, 8)


def test_r_house_deflect_with_jump_in_an_identical_reverse_replaces_the_deflection() -> None:
    hands = [YELLOWS, "R+2 W+4 R3 G4 G6 G7 G8", "BR GS B3 B4 B6 B7 B8", "BR G2 G3 B9 Y9 R9 R8"]
    state = play(game(hands, plugins=("jump-in",)), "1: play R+2", "2: play BR")
    assert (state.current_player, state.direction) == (1, -1)
    assert "3: play BR" in legal(state, 3)
    state = play(state, "3: play BR")  # replaces seat 2's deflection, from seat 3
    assert state.direction == -1  # turned round once in all
    assert (state.current_player, state.phase.name, state.phase.count) == (2, "penalty", 2)


def test_r_house_deflect_going_out_with_a_deflection_still_sends_the_draw() -> None:
    state = rearranged(play(game(), "1: play R+2"), hands={2: "GS"})
    state = play(state, "2: play GS")
    result = state.rounds[-1]
    assert (result.winner, result.reason) == (2, "out")
    assert len(result.hands[3]) == 9  # the seat it was sent to drew, and those cards score


def test_r_house_deflect_with_last_loses_a_last_deflecting_card_goes_out_and_deflects() -> None:
    state = rearranged(play(game(plugins=("last-loses",)), "1: play R+2"), hands={2: "GS"})
    state = play(state, "2: play GS")
    assert state.left == (2,)
    assert (state.current_player, state.phase.name, state.phase.count) == (3, "penalty", 2)


def test_r_house_deflect_between_two_players_the_draw_bounces() -> None:
    hands = ["BR Y2 Y3 Y4 Y6 Y7 Y8", "R+2 GR R3 G4 G6 G7 G8"]
    state = play(game(hands), "1: play R+2", "0: play BR")
    assert (state.current_player, state.phase.count) == (1, 2)
    state = play(state, "1: play GR")
    assert (state.current_player, state.phase.count) == (0, 2)


def test_r_house_deflect_a_seat_with_two_cards_may_call_uno_once() -> None:
    hands = [YELLOWS, "R+2 W+4 R3 G4 G6 G7 G8", "B+2 BR B3 B4 B6 B7 B8", "G1 G2 G3 B9 Y9 R9 R8"]
    state = rearranged(play(game(hands, plugins=("stacking",)), "1: play R+2"), hands={2: "B+2 BR"})
    actions = [str(a) for a in state.legal_actions(2)]
    assert actions.count("2: uno") == 1
    assert {"2: play B+2", "2: play BR", "2: draw"} <= set(actions)

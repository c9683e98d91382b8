"""Scenario tests of R-HOUSE-MULTI and R-HOUSE-BOMB (plugin multi-play), alone and with
seven-o, jump-in and last-loses. Dealer 0: seat 1 plays first, on a red 5."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unorules import GameState, IllegalActionError, Ruleset
from unorules.testing import arrange_deck, rearranged
from unorules.testing.conformance import play_checked_game

HANDS = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G5 B5 Y5 G1 G2 G3 G4", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]


def game(
    hands: Sequence[str] = HANDS,
    plugins: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    starter: str = "R5",
) -> GameState:
    rules = Ruleset.from_names(["classic", "multi-play", *plugins], options=options)
    return rules.new_game(players=len(hands), deck=arrange_deck(hands, starter, draw="G9 G8 G7 G6"), dealer=0)


def legal(state: GameState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def play(state: GameState, *actions: str) -> GameState:
    for action in actions:
        state = state.apply(action)
    return state


def test_r_house_multi_a_seat_lays_every_card_of_the_number_it_wishes() -> None:
    state = play(game(), "1: play G5")
    assert (state.current_player, state.phase.name, state.phase.count) == (1, "group", 1)
    assert legal(state, 1) == {"1: play B5", "1: play Y5", "1: pass"}
    state = play(state, "1: play B5", "1: play Y5")
    # No 5 left: the group ends with the yellow 5 on top, and the turn passes.
    assert (state.current_player, state.phase.name, str(state.color), str(state.top_card)) == (
        2,
        "play",
        "Y",
        "Y5",
    )
    assert len(state.hands[1]) == 4


def test_r_house_multi_pass_ends_a_group_early() -> None:
    state = play(game(), "1: play G5", "1: pass")
    assert (state.current_player, state.phase.name) == (2, "play")
    assert {str(c) for c in state.hands[1]} >= {"B5", "Y5"}


def test_r_house_multi_only_cards_of_the_number_in_a_group() -> None:
    state = play(game(), "1: play G5")
    with pytest.raises(IllegalActionError) as error:
        state.apply("1: play G1")
    assert error.value.rule == "R-HOUSE-MULTI"
    with pytest.raises(IllegalActionError, match="R-HOUSE-MULTI"):
        state.apply("1: draw")


def test_r_house_multi_a_lone_number_card_is_an_ordinary_play() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G5 B1 Y2 G1 G2 G3 G4", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]
    state = play(game(hands), "1: play G5")
    assert (state.current_player, state.phase.name) == (2, "play")


def test_r_house_multi_no_group_after_drawing() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G6 B6 Y6 G1 G2 G3 G4", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]
    rules = Ruleset.from_names(["classic", "multi-play"])
    state = rules.new_game(4, deck=arrange_deck(hands, "R5", draw="R6"), dealer=0)
    state = play(state, "1: draw", "1: play R6")
    assert (state.current_player, state.phase.name) == (2, "play")


@pytest.mark.parametrize("mode", ["group", "sequential"])
def test_r_house_bomb_three_cards_of_one_number_make_every_other_seat_draw(mode: str) -> None:
    state = play(
        game(options={"multi_bomb": True, "multi_play": mode}), "1: play G5", "1: play B5", "1: play Y5"
    )
    (bomb,) = [e for e in state.events if e.kind == "bomb"]
    assert (bomb.seat, bomb.count, bomb.rule) == (1, 3, "R-HOUSE-BOMB")
    assert [len(h) for h in state.hands] == [8, 4, 8, 8]


def test_r_house_bomb_two_cards_are_no_bomb_and_the_option_is_off_by_default() -> None:
    two = play(game(options={"multi_bomb": True}), "1: play G5", "1: play B5", "1: pass")
    assert not [e for e in two.events if e.kind == "bomb"]
    off = play(game(), "1: play G5", "1: play B5", "1: play Y5")
    assert not [e for e in off.events if e.kind == "bomb"]
    assert [len(h) for h in off.hands] == [7, 4, 7, 7]


def test_r_house_multi_group_with_seven_o_a_seven_trades_once_with_the_last_seat_named() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y8 Y9", "G7 B7 G1 G2 G3 G4 G6", "B1 B2 B3 B4 B6 B8 B9", "R1 R2 R3 R4 R6 R8 R9"]
    state = play(game(hands, plugins=("seven-o",), starter="R7"), "1: play G7 2")
    assert state.phase.name == "group"
    assert len(state.hands[1]) == 6  # no trade yet
    state = play(state, "1: play B7 3")
    moved = [e for e in state.events if e.kind == "hands-moved"]
    assert len(moved) == 1
    assert moved[0].target == 3  # the last 7's seat
    assert [len(state.hands[1]), len(state.hands[3])] == [7, 5]


def test_r_house_multi_sequential_with_seven_o_a_seven_acts_at_once_and_ends_the_turn() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y8 Y9", "G7 B7 G1 G2 G3 G4 G6", "B1 B2 B3 B4 B6 B8 B9", "R1 R2 R3 R4 R6 R8 R9"]
    options = {"multi_play": "sequential"}
    state = play(game(hands, plugins=("seven-o",), options=options, starter="R7"), "1: play G7 2")
    assert [e.target for e in state.events if e.kind == "hands-moved"] == [2]
    assert (state.current_player, state.phase.name) == (2, "play")


def test_r_house_multi_sequential_without_seven_o_keeps_the_turn_like_a_group() -> None:
    state = play(game(options={"multi_play": "sequential"}), "1: play G5")
    assert (state.current_player, state.phase.name) == (1, "group")


def test_r_house_multi_a_jump_in_stops_the_group() -> None:
    hands = ["G5 Y2 Y3 Y4 Y6 Y7 Y8", "G5 B5 Y5 G1 G2 G3 G4", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]
    state = play(game(hands, plugins=("jump-in",)), "1: play G5")
    assert "0: play G5" in legal(state, 0)
    state = play(state, "0: play G5")
    assert (state.current_player, state.phase.name) == (1, "play")  # play goes on from seat 0's left
    assert {str(c) for c in state.hands[1]} >= {"B5", "Y5"}


def test_r_house_multi_uno_in_a_group_before_the_next_to_last_card() -> None:
    state = rearranged(game(), hands={1: "G5 B5 Y5"})
    state = play(state, "1: play G5")
    assert "1: uno" in legal(state, 1)
    called = play(state, "1: uno", "1: play B5")
    assert called.uno_exposed == ()
    uncalled = play(state, "1: play B5")
    assert uncalled.uno_exposed == (1,)  # open to a catch at once, in the middle of the group
    assert "0: catch 1" in legal(uncalled, 0)


def test_r_house_multi_a_group_that_empties_the_hand_goes_out_after_the_bomb() -> None:
    state = rearranged(game(options={"multi_bomb": True}), hands={1: "G5 B5 Y5"})
    state = play(state, "1: play G5", "1: play B5", "1: play Y5")
    result = state.rounds[-1]
    assert (result.winner, result.reason) == (1, "out")
    assert [len(h) for h in result.hands] == [8, 0, 8, 8]  # the bomb's cards count in the score


def test_r_house_multi_with_last_loses_a_group_that_empties_the_hand_goes_out() -> None:
    state = rearranged(game(plugins=("last-loses",)), hands={1: "G5 B5"})
    state = play(state, "1: play G5", "1: uno", "1: play B5")
    assert state.left == (1,)
    assert (state.current_player, state.phase.name) == (2, "play")


@pytest.mark.parametrize(
    ("plugins", "options"),
    [
        ((), {"multi_bomb": True}),
        (("seven-o", "jump-in"), {"multi_play": "sequential", "multi_bomb": True}),
        (("seven-o", "jump-in", "stacking"), {}),
    ],
)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_multi_play_random_games_keep_every_invariant(
    plugins: tuple[str, ...], options: dict[str, Any], players: int
) -> None:
    rules = Ruleset.from_names(["classic", "multi-play", *plugins], options=options)
    violation, _ = play_checked_game(rules, players, seed=players, max_actions=500, eager=0.8, deep_every=50)
    assert violation is None, violation.format() if violation else ""

"""Scenario tests of R-HOUSE-DRAW-UNTIL (plugin keep-drawing), with classic's options and
the plugins it meets. Dealer 0: seat 1 plays first, on a red 5; seat 1 cannot play."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unorules import GameState, Ruleset, RulesetError
from unorules.testing import arrange_deck
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly

HANDS = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]


def game(draw: str, plugins: Sequence[str] = (), options: Mapping[str, Any] | None = None) -> GameState:
    rules = Ruleset.from_names(["classic", "keep-drawing", *plugins], options=options)
    return rules.new_game(players=3, deck=arrange_deck(HANDS, "R5", draw=draw), dealer=0)


def hand(state: GameState, seat: int) -> str:
    return " ".join(map(str, state.hands[seat]))


def test_r_house_draw_until_a_seat_draws_until_it_can_play() -> None:
    state = game("G9 Y9 B9 R2 G5").apply("1: draw")
    assert hand(state, 1) == "G1 G2 G3 G4 G6 G7 G8 G9 Y9 B9 R2"
    assert state.phase.name == "drawn"  # R-TURN-DRAW: the red 2 may be played, or kept
    assert {str(a) for a in state.legal_actions(1)} == {"1: play R2", "1: pass"}
    (event,) = [e for e in state.events if e.kind == "kept-drawing"]
    assert (event.seat, event.count, event.rule) == (1, 4, "R-HOUSE-DRAW-UNTIL")


def test_r_house_draw_until_a_playable_first_card_is_one_draw() -> None:
    state = game("R2 G9").apply("1: draw")
    assert hand(state, 1).endswith("G8 R2")
    assert not [e for e in state.events if e.kind == "kept-drawing"]


def test_r_house_draw_until_with_must_play_the_card_found_is_played() -> None:
    state = game("G9 R2", options={"drawn_card": "must-play"}).apply("1: draw")
    assert {str(a) for a in state.legal_actions(1)} == {"1: play R2"}


def test_r_house_draw_until_the_limit_stops_the_drawing() -> None:
    state = game("G9 Y9 B9 R2", options={"draw_until_limit": 2}).apply("1: draw")
    assert hand(state, 1).endswith("G8 G9 Y9")
    assert state.current_player == 2  # nothing playable: the turn passes


def test_r_house_draw_until_penalty_draws_are_not_prolonged() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "R+2 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    rules = Ruleset.from_names(["classic", "keep-drawing"])
    state = rules.new_game(3, deck=arrange_deck(hands, "R5", draw="G9 Y9 B9"), dealer=0)
    state = state.apply("1: play R+2").apply("2: draw")
    assert len(state.hands[2]) == 9


def test_r_house_draw_until_nothing_left_to_draw_stops_it() -> None:
    state = game("G9")
    state = state.replace(draw_pile=state.draw_pile[:1], discard_pile=state.discard_pile[-1:])
    rest = game("G9").draw_pile[1:]
    state = state.replace(hands=(state.hands[0] + rest, *state.hands[1:]))
    state = state.apply("1: draw")
    assert hand(state, 1).endswith("G8 G9")
    assert state.current_player == 2


def test_r_house_draw_until_the_sample_plugin_of_the_same_rule_is_refused() -> None:
    with pytest.raises(RulesetError, match="same rule"):
        Ruleset.from_names(["classic", "keep-drawing", "draw-until-playable"])


@pytest.mark.parametrize(
    ("plugins", "options"),
    [
        ((), {}),
        ((), {"draw_until_limit": 3, "hand_limit": 12}),
        (("stacking", "seven-o"), {"forced_play": True, "drawn_card": "must-play", "stack_mix": True}),
        (("jump-in", "deflect"), {"challenge": False}),
    ],
)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_keep_drawing_random_games_keep_every_invariant(
    plugins: tuple[str, ...], options: dict[str, Any], players: int
) -> None:
    rules = Ruleset.from_names(["classic", "keep-drawing", *plugins], options=options)
    violation, _ = play_checked_game(rules, players, seed=players, max_actions=500, eager=0.5, deep_every=50)
    assert violation is None, violation.format() if violation else ""


def test_r_house_draw_until_every_draw_for_the_turn_ends_on_a_playable_card_in_random_play() -> None:
    rules = Ruleset.from_names(["classic", "keep-drawing"])
    checked = 0

    def check(state: GameState) -> None:
        nonlocal checked
        action = state.last_action
        if action is None or action.verb != "draw" or not state.draw_pile or len(state.rounds) > 0:
            return
        if state.phase.name == "drawn":
            checked += 1
        else:  # the turn passed: only because the piles ran dry, or a penalty was drawn
            assert any(e.kind == "draw" and dict(e.data).get("reason") != "turn" for e in state.events) or (
                not state.draw_pile
            ), state.events

    for seed in range(4):
        play_randomly(rules.new_game(3, seed=seed), random.Random(seed), max_actions=300, each=check)
    assert checked > 0

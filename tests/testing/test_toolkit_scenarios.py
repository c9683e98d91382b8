"""Scenarios in a few lines and declared card effects (issue 44): a position
arranged by what a person would say, what must follow, the plugin's
scenarios run by conformance beside every other plugin, and a
:class:`~unorules.CardEffect` checked on every play of its card."""

from __future__ import annotations

import attrs
import pytest
from toolkit_broken_plugins import (
    DiscardAll,
    PassesHandsOnAllSeats,
    StatedDiscardAll,
    StatedDiscardAllBesideStacking,
    StatedDiscardAllKeepingADuplicate,
)

from unorules import Action, CardEffect, Ruleset
from unorules.testing.conformance import CI_BUDGET, QUICK_BUDGET, run_conformance, scenarios_elsewhere
from unorules.testing.invariants import InvariantViolation, check_effect, check_step
from unorules.testing.scenario import Scenario, ScenarioError, ScenarioFailure, ScenarioSkipped, run_scenarios


def test_a_discard_all_takes_every_card_of_its_colour() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[DiscardAll()])
    game = Scenario(rules, hands={0: "RDA R1 R1 B2"}, top="R5", draw="Y9")
    game.then("0: play RDA").expect(hands={0: "B2"}, top="RDA", under="R1 R1", to_move=1, draw="Y9")


def test_a_scenario_arranges_what_it_is_told_and_nothing_else() -> None:
    game = Scenario("classic", players=4, hands={1: "R1 G2"}, top="W", color="green", to_move=1, draw="Y7 Y8")
    state = game.state
    assert [str(c) for c in state.hands[1]] == ["R1", "G2"]
    assert [len(h) for h in state.hands] == [7, 2, 7, 7]  # the other seats keep their deal
    assert str(state.top_card) == "W"
    assert str(state.color) == "G"
    assert [str(c) for c in state.draw_pile[:2]] == ["Y7", "Y8"]
    assert state.current_player == 1
    game.then("1: play G2").expect(hands={1: "R1"}, top="G2", to_move=2, legal=["2: draw"])


def test_a_scenario_names_two_faced_cards_by_face_or_by_both() -> None:
    light = Scenario("flip", hands={0: "R1 R2/OR"}, top="R5")
    assert [str(c) for c in light.state.hands[0]][1] == "R2/OR"
    assert light.state.face(light.state.hands[0][0]) == light.state.face(next(iter(light.state.hands[0])))
    dark = Scenario("flip", hands={0: "P3 V2"}, top="P5", side="dark")
    assert dark.state.side == 1
    assert [str(dark.state.face(c)) for c in dark.state.hands[0]] == ["P3", "V2"]
    dark.expect(hands={0: "V2 P3"}, top="P5")


def test_expect_names_each_difference() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[StatedDiscardAllKeepingADuplicate()])
    game = Scenario(rules, hands={0: "RDA R1 R1 B2"}, top="R5")
    with pytest.raises(ScenarioFailure) as info:
        game.then("0: play RDA").expect(hands={0: "B2"}, under="R1 R1", to_move=2)
    text = str(info.value)
    assert text.startswith("after 0: play RDA: seat 0 holds B2 R1 (has R1 more)")
    assert "seat 1 is to move, not seat 2" in text


def test_a_scenario_refuses_an_illegal_action_with_what_is_legal() -> None:
    game = Scenario("classic", hands={0: "B1 B2"}, top="R5")
    with pytest.raises(ScenarioFailure, match=r"0: play B1 is not legal here; legal: 0: draw"):
        game.then("0: play B1")


def test_a_scenario_that_cannot_be_arranged_says_why() -> None:
    with pytest.raises(ScenarioSkipped, match="holds no RDA"):
        Scenario("classic", hands={0: "RDA"})
    with pytest.raises(ScenarioError, match="more R1 cards than the deck's 2"):
        Scenario("classic", hands={0: "R1 R1 R1"})
    with pytest.raises(ScenarioError, match="seat 5"):
        Scenario("classic", hands={5: "R1"})
    with pytest.raises(ScenarioSkipped, match="4 players"):
        Scenario("classic,partners", players=3)


def test_a_declared_effect_catches_the_discard_all_keeping_a_duplicate() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[StatedDiscardAllKeepingADuplicate()])
    game = Scenario(rules, hands={0: "RDA R1 R1 B2"}, top="R5")
    action = Action.parse("0: play RDA")
    after = game.then(action).state
    with pytest.raises(InvariantViolation, match=r"\[effect\].*it still holds R1, which the effect discards"):
        check_effect(game.state, action, after)
    with pytest.raises(InvariantViolation, match=r"\[effect\]"):
        check_step(game.state, action, after)
    good = Ruleset.from_names(["classic"], plugins=[StatedDiscardAll()])
    game = Scenario(good, hands={0: "RDA R1 R1 B2"}, top="R5")
    check_step(game.state, action, game.then(action).state)


def test_the_kept_duplicate_is_caught_at_ci_and_at_quick() -> None:
    for budget in (CI_BUDGET, QUICK_BUDGET):
        report = run_conformance(StatedDiscardAllKeepingADuplicate(), budget, others=[], fail_fast=True)
        # Its scenario runs first (milliseconds); the declared effect catches it in the games too.
        assert [v.invariant for v in report.violations] == ["scenario"]
    assert run_conformance(StatedDiscardAll(), CI_BUDGET, others=["stacking"]).ok
    # Without its scenario, the declared effect alone catches it.
    unstated = StatedDiscardAllKeepingADuplicate()
    unstated.testing = attrs.evolve(unstated.testing, scenarios=())
    report = run_conformance(unstated, CI_BUDGET, others=[], fail_fast=True)
    assert [v.invariant for v in report.violations] == ["effect"]


def test_the_plugins_scenarios_run_in_conformance() -> None:
    (outcome,) = run_scenarios(
        StatedDiscardAll(), Ruleset.from_names(["classic"], plugins=[StatedDiscardAll()])
    )
    assert outcome == ("discards_every_card_of_its_colour", "passed", "")
    rules = Ruleset.from_names(["classic"], plugins=[StatedDiscardAllKeepingADuplicate()])
    ((_name, result, detail),) = run_scenarios(StatedDiscardAllKeepingADuplicate(), rules)
    assert result == "failed"
    assert "has R1 more" in detail


def test_a_scenario_that_breaks_only_beside_stacking_is_found_at_quick() -> None:
    plugin = StatedDiscardAllBesideStacking()
    report = run_conformance(plugin, QUICK_BUDGET)
    found = [v for v in report.violations if v.invariant == "scenario"]
    assert len(found) == 1, report.format()
    assert "passes with the plugin alone but failed beside another plugin" in found[0].detail
    assert "stacking" in found[0].detail
    labels, _ = scenarios_elsewhere(plugin, [], None)
    assert any("stacking" in label for label in labels)


def test_card_effect_refuses_a_bad_declaration() -> None:
    with pytest.raises(ValueError, match="discards is 'color', 'kind', 'all' or None"):
        CardEffect("DA", discards="colour")
    with pytest.raises(ValueError, match="passes is a count"):
        CardEffect("DA", passes=-1)


def test_the_left_report_names_the_seat_handed_a_hand_not_the_seat_that_left() -> None:
    rules = Ruleset.from_names(["classic", "elimination"], plugins=[PassesHandsOnAllSeats()])
    game = Scenario(rules, players=4, hands={0: "RRZ R1"}, top="R5")
    hands = list(game.state.hands)
    gone, hands[2] = hands[2], ()
    state = game.state.replace(left=(2,), hands=tuple(hands), draw_pile=game.state.draw_pile + gone)
    action = Action.parse("0: play RRZ")
    after = state.apply(action)
    with pytest.raises(InvariantViolation) as info:
        check_step(state, action, after)
    text = str(info.value)
    assert "[left]" in text
    assert "seat 2, which has left the game, was handed seat 1's hand" in text
    assert "seat 3, still in the game, was handed its empty hand" in text


def test_a_misplayed_card_taken_back_is_no_play_of_its_effect() -> None:
    # turn-rules' misplay_penalty (R-HOUSE-MISPLAY): a card that does not match is
    # shown, taken back, and the seat draws; the Discard All's effect did not happen.
    rules = Ruleset.from_names(
        ["classic", "turn-rules"], options={"misplay_penalty": 1}, plugins=[StatedDiscardAll()]
    )
    game = Scenario(rules, hands={0: "BDA B1 R2"}, top="R5")
    action = Action.parse("0: play BDA")
    after = game.then(action).state
    assert after.hands[0].count(action.card) == 1  # taken back
    check_effect(game.state, action, after)
    check_step(game.state, action, after)


def test_a_scenario_sets_the_seats_that_left_and_plays_on_without_them() -> None:
    scenario = Scenario("classic", players=4, hands={0: "R1 R2", 1: "B2 G3"}, top="R5", draw="Y9", left=[2])
    state = scenario.state
    assert state.left == (2,)
    assert state.hands[2] == ()
    held = sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard_pile)
    assert held == len(state.ruleset.deck)
    # Seat 1 draws a card it cannot play: the turn passes to seat 3, past the seat that left.
    scenario.then("0: play R1").expect(to_move=1).then("1: draw").expect(hands={1: "B2 G3 Y9"}, to_move=3)


def test_a_scenario_refuses_cards_or_the_turn_for_a_seat_that_left() -> None:
    with pytest.raises(ScenarioError, match="seat 2 has left the game, so it holds no cards"):
        Scenario("classic", players=4, hands={2: "R1"}, left=[2])
    with pytest.raises(ScenarioError, match="seat 2 is to move, but it has left the game"):
        Scenario("classic", players=4, to_move=2, left=[2])
    with pytest.raises(ScenarioError, match="a seat that left for seat 7"):
        Scenario("classic", players=4, left=[7])

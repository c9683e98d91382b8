"""Scenario tests of the UNO house rules: R-HOUSE-UNO-6, R-HOUSE-SILENT-UNO,
R-HOUSE-UNO-CALL (``uno_call``) and R-HOUSE-FALSE-UNO (``false_uno_penalty``),
with stacking and jump-in where they meet. Dealer 0: seat 1 plays first, on a red 5."""

from __future__ import annotations

import pytest
from house_rules_helpers import OTHERS, deal, events, hand, legal, play, rearranged, refused

from unorules import Action, GameState, Ruleset, RulesetError
from unorules.testing.invariants import InvariantViolation, check_step

HANDS = [OTHERS, "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]


def two_cards(plugins: tuple[str, ...] = (), cards: str = "R1 G2", **options: object) -> GameState:
    """Seat 1, to move on a red 5, holds two cards (by default one it can play)."""
    return rearranged(deal(HANDS, plugins=plugins, options=options), hands={1: cards}, draw="G9 G8 G7 G6 G5")


def test_r_house_silent_uno_nobody_calls_and_nobody_is_caught() -> None:
    state = two_cards(uno_call="silent")
    assert "1: uno" not in legal(state, 1)
    assert refused(state, "1: uno").rule == "R-HOUSE-SILENT-UNO"
    before = state
    state = play(state, "1: play R1")
    # The books are the core's (hooks page): seat 1 played down to one card
    # without a call, so its window is open; the rule set offers nobody a
    # catch or a late call, and the toolkit's uno invariant holds.
    assert state.uno_exposed == (1,)
    check_step(before, Action.parse("1: play R1"), state)
    assert not any(a.verb in ("catch", "uno") for a in state.legal_actions())
    assert refused(state, "0: catch 1").rule == "R-HOUSE-SILENT-UNO"
    assert refused(state, "1: uno").rule == "R-HOUSE-SILENT-UNO"
    # the next turn action closes the window unused
    state = play(state, "2: play B1" if "2: play B1" in legal(state, 2) else "2: draw")
    assert state.uno_exposed == ()
    assert len(state.hands[1]) == 1


def test_r_house_silent_uno_closing_the_window_early_is_reported_by_the_uno_invariant() -> None:
    # The negative case: a rule that ended the exposure itself, as if the
    # seat had not played down to one card, leaves books the invariant refuses.
    state = two_cards(uno_call="silent")
    after = play(state, "1: play R1")
    wrong = after.replace(uno_exposed=())
    with pytest.raises(InvariantViolation, match=r"\[uno\].*not open to a catch"):
        check_step(state, Action.parse("1: play R1"), wrong)


def test_r_house_silent_uno_off_by_default_an_uncalled_last_but_one_card_is_caught() -> None:
    state = play(two_cards(), "1: play R1")
    assert state.uno_exposed == (1,)
    assert "0: catch 1" in legal(state)


def test_r_house_silent_uno_with_stacking_and_jump_in_no_calls_either() -> None:
    hands = [OTHERS, "R+2 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = play(deal(hands, plugins=("stacking", "jump-in"), options={"uno_call": "silent"}), "1: play R+2")
    state = rearranged(state, hands={2: "B+2 B1", 0: "R+2 Y1"})
    assert not any(a.verb == "uno" for a in state.legal_actions())
    assert "2: play B+2" in legal(state, 2)
    assert "0: play R+2" in legal(state, 0)  # a jump-in, without its call


def test_r_house_uno_call_one_card_no_call_before_the_next_to_last_card() -> None:
    state = two_cards(uno_call="one-card")
    assert "1: uno" not in legal(state, 1)
    assert refused(state, "1: uno").rule == "R-HOUSE-UNO-CALL"
    state = play(state, "1: play R1")
    assert state.uno_exposed == (1,)  # every seat down to one card must call now
    assert {"1: uno", "0: catch 1", "2: catch 1"} <= legal(state)
    safe = play(state, "1: uno")
    assert safe.uno_exposed == ()
    caught = play(state, "2: catch 1")
    assert len(caught.hands[1]) == 3


def test_r_house_uno_call_one_card_with_stacking_and_jump_in() -> None:
    hands = [OTHERS, "R+2 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = play(
        deal(hands, plugins=("stacking", "jump-in"), options={"uno_call": "one-card"}), "1: play R+2"
    )
    state = rearranged(state, hands={2: "B+2 B1", 0: "R+2 Y1"})
    assert not any(a.verb == "uno" for a in state.legal_actions())
    two_cards_call = rearranged(
        play(deal(hands, plugins=("stacking", "jump-in")), "1: play R+2"), hands={2: "B+2 B1"}
    )
    assert "2: uno" in legal(two_cards_call, 2)


def test_r_house_uno_call_playable_only_with_a_card_to_play_next() -> None:
    state = two_cards(uno_call="playable")
    assert "1: uno" in legal(state, 1)
    stuck = two_cards(uno_call="playable", cards="G1 G2")
    assert "1: uno" not in legal(stuck, 1)
    assert refused(stuck, "1: uno").rule == "R-HOUSE-UNO-CALL"
    # Under the default (two-cards), a seat with two cards may call whether or not it can play.
    assert "1: uno" in legal(two_cards(cards="G1 G2"), 1)
    assert "1: uno" in legal(two_cards(cards="G1 G2", uno_call="two-cards"), 1)


def test_r_house_uno_call_playable_after_drawing_a_playable_card() -> None:
    state = rearranged(two_cards(uno_call="playable", cards="G1"), draw="R9")
    state = play(state, "1: draw")
    assert state.phase.name == "drawn"
    assert "1: uno" in legal(state, 1)


def test_r_house_false_uno_catching_a_seat_that_called_costs_the_catcher() -> None:
    state = play(two_cards(false_uno_penalty=2), "1: uno", "1: play R1")
    assert state.uno_exposed == ()
    assert {"0: catch 1", "2: catch 1"} <= legal(state)
    state = play(state, "0: catch 1")
    assert len(state.hands[0]) == 9
    assert len(state.hands[1]) == 1
    (false,) = events(state, "false-uno")
    assert (false.seat, false.target, false.count, false.rule) == (0, 1, 2, "R-HOUSE-FALSE-UNO")
    assert "2: catch 1" not in legal(state)  # the very next action only


def test_r_house_false_uno_off_a_catch_of_a_seat_that_called_is_refused() -> None:
    state = play(two_cards(), "1: uno", "1: play R1")
    assert refused(state, "0: catch 1").rule == "R-UNO-CATCH"


def test_r_house_false_uno_no_false_catch_of_a_seat_holding_several_cards() -> None:
    state = play(two_cards(false_uno_penalty=2, cards="R1 G2 G3"), "1: play R1")
    assert not any(a.verb == "catch" for a in state.legal_actions())
    assert refused(state, "0: catch 1").rule == "R-UNO-CATCH"


def test_r_house_false_uno_a_call_not_kept_costs_its_maker() -> None:
    state = two_cards(false_uno_penalty=2, cards="G1 G2")
    state = play(state, "1: uno", "1: draw")
    (false,) = events(state, "false-uno")
    assert (false.seat, false.count) == (1, 2)
    assert hand(state, 1) == "G1 G2 G9 G8 G7"  # the penalty first, then the draw for the turn
    assert 1 not in state.uno_declared


def test_r_house_false_uno_off_a_call_not_kept_costs_nothing() -> None:
    state = play(two_cards(cards="G1 G2"), "1: uno", "1: draw")
    assert not events(state, "false-uno")
    assert hand(state, 1) == "G1 G2 G9"


def test_r_house_false_uno_a_call_before_taking_a_stack_is_false() -> None:
    hands = [OTHERS, "R+2 G2 G3 G4 G6 G7 G8", "B+2 B1 B3 B4 B6 B7 B8"]
    state = play(deal(hands, plugins=("stacking",), options={"false_uno_penalty": 1}), "1: play R+2")
    state = rearranged(state, hands={2: "B+2 B1"})
    state = play(state, "2: uno", "2: draw")
    assert events(state, "false-uno")
    assert len(state.hands[2]) == 5  # two cards, one penalty card, the stack of two


def test_r_house_false_uno_with_jump_in_a_lapsed_call_costs_nothing() -> None:
    hands = [OTHERS, "R3 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = play(deal(hands, plugins=("jump-in",), options={"false_uno_penalty": 2}), "1: play R3")
    state = rearranged(state, hands={0: "R3 Y1"})
    state = play(state, "0: uno", "2: draw")  # seat 2 acts: the window closes, the call lapses
    assert 0 not in state.uno_declared
    assert not events(state, "false-uno")
    assert len(state.hands[0]) == 2


def test_r_house_false_uno_and_silent_uno_are_refused_together() -> None:
    with pytest.raises(RulesetError, match="R-HOUSE-FALSE-UNO"):
        Ruleset.from_names(["classic"], options={"false_uno_penalty": 2, "uno_call": "silent"})

"""Scenario tests for the blank cards (R-BLANK, R-DECK-BLANK), built from arranged decks."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from unorules_blank_cards import BLANK, blanks_aside

import unorules
from unorules import Card, Color, GameState, Ruleset, RulesetError
from unorules.testing import arrange_deck, rearranged

CLASSIC = Ruleset.from_names(["classic"])
SEAT0 = "R1 R2 R3 R4 R5 R6 R7"
SEAT2 = "B1 B2 B3 B4 B5 B6 B7"


def rules(**options: Any) -> Ruleset:
    return Ruleset.from_names(["classic", "blank-cards"], options=options)


def game(ruleset: Ruleset, hands: list[str], starter: str = "Y5", dealer: int = 0) -> GameState:
    deck = arrange_deck(hands, starter, dealer=dealer)
    return ruleset.new_game(players=len(hands), seed=1, deck=deck, dealer=dealer)


def test_r_blank_notation_round_trips() -> None:
    assert Card.parse("BLANK") is BLANK
    assert Card.parse("blank") is BLANK
    assert str(BLANK) == "BLANK"
    assert BLANK.is_wild
    assert str(unorules.Action.parse("0: play blank y")) == "0: play BLANK Y"


def test_r_deck_blank_by_default_all_four_blanks_are_laid_aside() -> None:
    default = rules()
    assert Counter(default.deck) == Counter(CLASSIC.deck)
    assert blanks_aside(default) == 4
    assert blanks_aside(rules(blank_cards="Y7 house-rule aside")) == 2


def test_r_blank_replacement_for_a_lost_card_gives_back_the_whole_deck() -> None:
    mended = rules(lost_cards="Y7", blank_cards="Y7")
    assert Counter(mended.deck) == Counter(CLASSIC.deck)
    lost = rules(lost_cards="Y7")
    assert Counter(CLASSIC.deck) - Counter(lost.deck) == Counter([Card.parse("Y7")])
    extra = rules(blank_cards=["W", "W"])  # no card lost: two extra Wilds
    assert Counter(extra.deck) - Counter(CLASSIC.deck) == Counter([Card.parse("W")] * 2)


def test_r_blank_replacement_plays_and_scores_as_the_card_written_on_it() -> None:
    ruleset = rules(blank_cards="W")  # a fifth Wild
    state = game(ruleset, [SEAT0, "W W W W W G1 G2", SEAT2])  # five Wilds: one is the blank
    after = state.apply("1: play W B")
    assert (after.color, after.current_player) == (Color.BLUE, 2)
    ended = rearranged(state, hands={0: "Y9"}).replace(current_player=0).apply("0: play Y9")
    assert ended.rounds[-1].winner == 0
    assert ended.rounds[-1].points[0] == 5 * 50 + 1 + 2 + sum(range(1, 8))  # R-SCORE: Wild 50 each


def test_r_blank_house_rule_blank_is_played_as_a_wild_and_recorded() -> None:
    ruleset = rules(blank_cards="house-rule")
    assert ruleset.deck.count(BLANK) == 1
    state = game(ruleset, [SEAT0, "BLANK G1 G2 G3 G4 G5 Y1", SEAT2])
    assert state.is_legal("1: play Y1")  # a wild even when another card could be played
    assert {str(a) for a in state.legal_actions(1) if a.card is BLANK} == {
        f"1: play BLANK {c}" for c in "RYGB"
    }
    after = state.apply("1: play BLANK G")
    assert (after.top_card, after.color, after.current_player) == (BLANK, Color.GREEN, 2)
    assert [e.kind for e in after.events if e.rule == "R-BLANK"] == ["house-rule"]


def test_r_score_house_rule_blank_scores_blank_points() -> None:
    assert rules(blank_cards="house-rule").card_points(BLANK) == 40
    ruleset = rules(blank_cards="house-rule", blank_points=25)
    state = rearranged(game(ruleset, [SEAT0, "BLANK G1 G2 G3 G4 G5 G6", SEAT2]), hands={0: "Y9"})
    ended = state.replace(current_player=0).apply("0: play Y9")
    assert ended.rounds[-1].points[0] == 25 + sum(range(1, 7)) + sum(range(1, 8))


def test_r_setup_starter_blank_first_player_names_the_colour() -> None:
    state = game(rules(blank_cards="house-rule"), [SEAT0, "G1 G2 G3 G4 G5 G6 G7", SEAT2], starter="BLANK")
    assert (state.top_card, state.phase.name, state.current_player) == (BLANK, "color", 1)
    named = state.apply("1: color Y")
    assert (named.color, named.current_player, named.hands) == (Color.YELLOW, 1, state.hands)


def test_r_blank_as_the_last_card_ends_the_round() -> None:
    state = rearranged(
        game(rules(blank_cards="house-rule"), [SEAT0, "BLANK G1 G2 G3 G4 G5 G6", SEAT2]),
        hands={1: "BLANK"},
    )
    after = state.apply("1: play BLANK R")
    assert (after.rounds[-1].winner, after.rounds[-1].reason) == (1, "out")


def test_r_blank_with_two_players_and_after_a_reshuffle() -> None:
    ruleset = rules(blank_cards="house-rule house-rule")
    state = game(ruleset, ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7"], dealer=1)
    rest = [c for c in state.draw_pile if c is not BLANK]
    state = state.replace(
        draw_pile=(),
        discard_pile=(BLANK, BLANK, state.top_card),
        hands=(state.hands[0], state.hands[1] + tuple(rest)),
    )
    drawn = state.apply("0: draw")
    assert any(e.kind == "reshuffle" for e in drawn.events)
    assert drawn.phase.card is BLANK
    after = drawn.apply("0: play BLANK R")
    assert (after.color, after.current_player) == (Color.RED, 1)
    assert after.draw_pile == (BLANK,)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"blank_cards": "Y7 Y7 W W aside"}, "only 4 blank cards"),
        ({"blank_cards": "Y7 joker"}, "bad card 'joker'"),
        ({"blank_cards": "BLANK"}, "cannot replace a blank"),
        ({"blank_cards": "SW"}, "holds no SW"),
        ({"lost_cards": "R0 R0"}, "holds no more R0"),
        ({"lost_cards": "aside"}, "is not a card"),
        ({"blank_points": -5}, "whole number from 0"),
        ({"blank_cards": 7}, "expected text"),
    ],
)
def test_r_blank_bad_options_fail_when_the_rule_set_is_built(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        rules(**options)


def test_r_blank_replacement_may_name_another_plugins_card() -> None:
    ruleset = Ruleset.from_names(["classic", "swap-hands", "blank-cards"], options={"blank_cards": "SW"})
    assert ruleset.deck.count(Card.parse("SW")) == 2
    assert ruleset.needs_target(Card.parse("SW"))


def test_r_blank_options_round_trip_through_json() -> None:
    ruleset = rules(blank_cards=["y7", "House-Rule"], lost_cards="Y7", blank_points="10")
    assert ruleset.options["blank_cards"] == ("Y7", "house-rule")
    state = ruleset.new_game(players=3, seed=4)
    again = GameState.from_json(state.to_json())
    assert again == state
    assert again.ruleset.options["blank_points"] == 10

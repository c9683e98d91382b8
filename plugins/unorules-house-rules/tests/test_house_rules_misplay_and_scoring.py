"""Scenario tests of R-HOUSE-MISPLAY (``misplay_penalty``), R-HOUSE-BLOCKED-DRAW
(``blocked_round``), R-HOUSE-DOUBLE-SCORE (``double_score``) and
R-HOUSE-NO-LAST-DRAW (``last_draw_card``), with stacking, deflect, partners
and elimination where they meet. Dealer 0: seat 1 plays first, on a red 5."""

from __future__ import annotations

import pytest
from house_rules_helpers import OTHERS, deal, events, hand, legal, play, rearranged, refused

from unorules import Ruleset, RulesetError

HANDS = [OTHERS, "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]


def test_r_house_misplay_a_card_that_does_not_match_costs_a_card_and_the_turn() -> None:
    state = deal(HANDS, draw="Y9", options={"misplay_penalty": 1})
    assert "1: play G1" in legal(state, 1)
    state = play(state, "1: play G1")
    assert hand(state, 1) == "G1 G2 G3 G4 G6 G7 G8 Y9"
    assert state.top_card.kind == "5"
    assert state.current_player == 2
    (misplay,) = events(state, "misplay")
    assert (misplay.seat, [str(c) for c in misplay.cards], misplay.count) == (1, ["G1"], 1)


def test_r_house_misplay_off_a_card_that_does_not_match_is_refused() -> None:
    state = deal(HANDS)
    assert refused(state, "1: play G1").rule == "R-TURN-MATCH"


def test_r_house_misplay_a_bigger_penalty() -> None:
    state = play(deal(HANDS, draw="Y9 Y8 Y7", options={"misplay_penalty": 3}), "1: play G2")
    assert len(state.hands[1]) == 10


def test_r_house_misplay_not_offered_with_nothing_to_draw() -> None:
    # Found by the toolkit under flip,turn-rules: with the draw pile empty and no card
    # under the top card, a misplay cost nothing, and a round of free misplays never ended.
    state = deal(HANDS, options={"misplay_penalty": 1})
    assert "1: play G1" in legal(state, 1)
    empty = state.replace(draw_pile=(), hands=(*state.hands[:2], state.hands[2] + state.draw_pile))
    assert len(empty.discard_pile) == 1
    assert "1: play G1" not in legal(empty, 1)
    assert refused(empty, "1: play G1").rule == "R-TURN-MATCH"


def test_r_house_misplay_only_on_an_ordinary_turn() -> None:
    # Not after drawing (R-TURN-CHOOSE-DRAW), nor against a pending draw.
    state = play(deal(HANDS, draw="R9", options={"misplay_penalty": 1}), "1: draw")
    assert state.phase.name == "drawn"
    assert legal(state, 1) == {"1: play R9", "1: pass"}
    hands = [OTHERS, "R+2 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = play(deal(hands, plugins=("stacking", "deflect"), options={"misplay_penalty": 1}), "1: play R+2")
    assert legal(state, 2) == {"2: draw"}


def test_r_house_misplay_a_bluffed_wild_draw_four_without_challenges_is_a_misplay() -> None:
    hands = [OTHERS, "W+4 R1 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = deal(hands, draw="Y9", options={"misplay_penalty": 1, "challenge": False})
    state = play(state, "1: play W+4 G")
    assert events(state, "misplay")
    assert "W+4" in hand(state, 1)


def test_r_house_misplay_and_table_enforcement_are_refused_together() -> None:
    with pytest.raises(RulesetError, match="R-HOUSE-MISPLAY"):
        Ruleset.from_names(["classic", "penalties"], options={"misplay_penalty": 1, "enforcement": "table"})
    Ruleset.from_names(["classic", "penalties"], options={"misplay_penalty": 1})  # strict: fine


def test_r_house_blocked_draw_a_blocked_round_has_no_winner_and_nobody_scores() -> None:
    options = {"blocked_round": "draw", "hand_limit": 7}
    state = deal(["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G9"], starter="B5", options=options)
    state = play(state, "1: pass", "0: pass")
    result = state.rounds[-1]
    assert (result.reason, result.winner, result.points) == ("blocked", None, (0, 0))


def test_r_house_blocked_draw_off_the_fewest_points_win_the_blocked_round() -> None:
    options = {"hand_limit": 7, "blocked_round": "fewest-points"}
    state = deal(["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G9"], starter="B5", options=options)
    state = play(state, "1: pass", "0: pass")
    result = state.rounds[-1]
    assert result.winner == 0  # 31 points in hand against 32
    assert result.points[0] == 32


def test_r_house_blocked_draw_with_partners_and_low_score_nobody_is_charged() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G8", "Y1 Y2 Y3 Y4 Y6 Y7 Y9", "G1 G2 G3 G4 G6 G7 G9"]
    options = {"blocked_round": "draw", "hand_limit": 7, "scoring": "low-score"}
    state = deal(hands, starter="B5", plugins=("partners",), options=options)
    state = play(state, "1: pass", "2: pass", "3: pass", "0: pass")
    assert state.rounds[-1].points == (0, 0, 0, 0)


def test_r_house_double_score_the_round_counts_double() -> None:
    state = rearranged(deal(HANDS, options={"double_score": True}), hands={1: "R1"})
    state = play(state, "1: play R1")
    plain = play(rearranged(deal(HANDS), hands={1: "R1"}), "1: play R1")
    assert state.rounds[-1].points[1] == 2 * plain.rounds[-1].points[1] > 0


@pytest.mark.parametrize("plugin", ["partners", "elimination"])
def test_r_house_double_score_doubles_what_any_plugin_scores(plugin: str) -> None:
    hands = [OTHERS, "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]
    single = play(rearranged(deal(hands, plugins=(plugin,)), hands={1: "R1"}), "1: play R1")
    doubled = deal(hands, plugins=(plugin,), options={"double_score": True})
    double = play(rearranged(doubled, hands={1: "R1"}), "1: play R1")
    assert double.rounds[-1].points == tuple(2 * p for p in single.rounds[-1].points)
    assert any(single.rounds[-1].points)


def test_r_house_no_last_draw_the_round_ends_without_the_draw() -> None:
    state = rearranged(deal(HANDS, options={"last_draw_card": "no-draw"}), hands={1: "R+2"})
    state = play(state, "1: play R+2")
    assert state.rounds[-1].winner == 1
    assert len(state.rounds[-1].hands[2]) == 7
    rules_say = {"last_draw_card": "draws"}  # R-OUT-LAST-DRAW, the default
    ruled = play(rearranged(deal(HANDS, options=rules_say), hands={1: "R+2"}), "1: play R+2")
    assert len(ruled.rounds[-1].hands[2]) == 9


def test_r_house_no_last_draw_with_stacking_and_deflect() -> None:
    hands = [OTHERS, "R+2 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = play(
        deal(hands, plugins=("stacking", "deflect"), options={"last_draw_card": "no-draw"}), "1: play R+2"
    )
    stacked = play(rearranged(state, hands={2: "B+2"}), "2: play B+2")
    assert stacked.rounds[-1].winner == 2
    assert len(stacked.rounds[-1].hands[0]) == 7  # the stack of 4 is not drawn
    deflected = play(rearranged(state, hands={2: "BS"}), "2: play BS")
    assert deflected.rounds[-1].winner == 2
    assert len(deflected.rounds[-1].hands[0]) == 7
    # With the rules' draw, both make seat 0 draw.
    drawn = play(deal(hands, plugins=("stacking", "deflect")), "1: play R+2")
    assert len(play(rearranged(drawn, hands={2: "B+2"}), "2: play B+2").rounds[-1].hands[0]) == 11
    assert len(play(rearranged(drawn, hands={2: "BS"}), "2: play BS").rounds[-1].hands[0]) == 9

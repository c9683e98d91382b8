"""Scenario tests for the table penalties: caught illegal plays (R-PEN-ILLEGAL) and coaching (R-PEN-COACH)."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from unorules_penalties import COACHED_KEY, ILLEGAL_KEY, coached_this_round, pending_illegal_play

from unorules import (
    Action,
    Card,
    Color,
    GameState,
    IllegalActionError,
    Ruleset,
    RulesetError,
    StateFormatError,
)
from unorules.testing import arrange_deck, rearranged
from unorules.testing.scenario import Scenario

# Seat 0 plays first (dealer 3) on a G7; only G1 and the Wild match.
HANDS = ["R5 RS RR R+2 B3 W G1", "Y1 Y2 Y3 Y4 Y5 Y6 Y7", "B1 B2 B4 B5 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]
STARTER = "G7"


@functools.cache
def _rules(options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.from_names(["classic", "penalties"], dict(options))


def rules(**options: Any) -> Ruleset:
    return _rules(tuple(sorted(options.items())))


def game(hands: list[str] = HANDS, starter: str = STARTER, draw: str = "G8 G9", **options: Any) -> GameState:
    deck = arrange_deck(hands, starter, draw=draw, dealer=3)
    return rules(**options).new_game(len(hands), deck=deck, dealer=3)


def table(**options: Any) -> GameState:
    return game(enforcement="table", **options)


def names(cards: tuple[Any, ...]) -> list[str]:
    return [str(c) for c in cards]


# -- R-PEN-ILLEGAL -----------------------------------------------------------------------------


def test_r_pen_illegal_strict_mode_refuses_a_non_matching_play() -> None:
    state = game()
    assert not state.is_legal("0: play R5")
    with pytest.raises(IllegalActionError, match="R-TURN-MATCH"):
        state.apply("0: play R5")
    with pytest.raises(IllegalActionError, match=r"enforcement='table'.*\(R-PEN-ILLEGAL\)"):
        state.apply("1: catch_play 0")


def test_r_pen_illegal_table_mode_lists_every_card_of_the_seat_to_play() -> None:
    state = table()
    plays = {str(a) for a in state.legal_actions(0) if a.verb == "play"}
    assert {"0: play R5", "0: play RS", "0: play RR", "0: play R+2", "0: play B3", "0: play G1"} <= plays
    assert {"0: play W R", "0: play W G"} <= plays
    assert not any(a.verb == "play" for a in state.legal_actions(1))  # only the seat to play


def test_r_pen_illegal_the_state_records_the_illegal_play() -> None:
    after = table().apply("0: play R5")
    assert after.top_card.kind == "5"
    assert str(after.color) == "R"
    assert after.current_player == 1  # uncaught, it works like any play
    pending = pending_illegal_play(after)
    assert pending is not None
    assert after.extra(ILLEGAL_KEY) == pending
    assert pending[:2] == (0, after.top_card)
    assert [(e.kind, e.seat, e.rule) for e in after.events if e.kind != "move"] == [
        ("illegal-play", 0, "R-PEN-ILLEGAL")
    ]
    catches = [str(a) for a in after.legal_actions() if a.verb == "catch_play"]
    assert catches == ["1: catch_play 0", "2: catch_play 0", "3: catch_play 0"]


def test_r_pen_illegal_caught_play_takes_the_card_back_draws_two_and_loses_the_turn() -> None:
    start = table()
    after = start.apply("0: play R5").apply("2: catch_play 0")
    assert names(after.hands[0]) == HANDS[0].split() + ["G8", "G9"]
    assert names(after.discard_pile) == ["G7"]
    assert str(after.color) == "G"
    assert after.current_player == 1
    assert after.phase.name == "play"
    assert after.extra(ILLEGAL_KEY) is None
    assert ("caught-play", 0, "R-PEN-ILLEGAL") in [(e.kind, e.seat, e.rule) for e in after.events]
    # The drawn penalty cards may not be played at once: the turn has passed.
    assert not after.legal_actions(0) or all(a.verb != "play" for a in after.legal_actions(0))


@pytest.mark.parametrize(
    ("card", "effect"),
    [("RS", "skip"), ("RR", "reverse"), ("R+2", "draw two")],
)
def test_r_pen_illegal_caught_action_card_has_its_effect_undone(card: str, effect: str) -> None:
    played = table().apply(f"0: play {card}")
    if effect == "skip":
        assert played.current_player == 2
    elif effect == "reverse":
        assert played.direction == -1
        assert played.current_player == 3
    else:
        assert played.phase.name == "penalty"
        assert played.current_player == 1
    caught = played.apply("1: catch_play 0")
    assert caught.direction == 1
    assert caught.current_player == 1
    assert caught.phase.name == "play"
    assert len(caught.hands[1]) == 7
    assert card in names(caught.hands[0])
    assert names(caught.discard_pile) == ["G7"]


def test_r_pen_illegal_uncaught_play_stands_once_the_next_seat_acts() -> None:
    played = table().apply("0: play R5")
    moved = played.apply("1: draw")
    assert pending_illegal_play(moved) is None
    # The record itself is dropped when the next card is played.
    assert moved.current_player == 2
    assert moved.apply("2: draw").extra(ILLEGAL_KEY) is not None
    assert moved.apply("2: play B5").extra(ILLEGAL_KEY) is None
    assert not any(a.verb == "catch_play" for a in moved.legal_actions())
    assert names(moved.discard_pile) == ["G7", "R5"]
    with pytest.raises(IllegalActionError, match="R-PEN-ILLEGAL"):
        moved.apply("3: catch_play 0")


def test_r_pen_illegal_window_is_one_action_long() -> None:
    played = table().apply("0: play R5")
    reported = played.apply("3: catch_coach 2")  # any other action closes the window
    assert pending_illegal_play(reported) is None
    assert not reported.is_legal("1: catch_play 0")


def test_r_pen_illegal_offender_cannot_catch_itself() -> None:
    played = table().apply("0: play R5")
    with pytest.raises(IllegalActionError, match="cannot catch its own"):
        played.apply("0: catch_play 0")


def test_r_pen_illegal_an_illegal_last_card_opens_the_catch_window_before_the_round_ends() -> None:
    # [LT] makes no exception for the last card: seat 0's non-matching R5 may be
    # played, and the round waits for a catch or for seat 1 to let it stand.
    state = rearranged(table(), hands={0: "R5"})
    assert state.is_legal("0: play R5")
    played = state.apply("0: play R5")
    assert played.hands[0] == ()
    assert (played.phase.name, played.phase.seat, played.current_player) == ("illegal-out", 0, 1)
    assert played.rounds == ()
    assert {str(a) for a in played.legal_actions()} == {
        "1: accept",
        "1: catch_play 0",
        "2: catch_play 0",
        "3: catch_play 0",
    }
    with pytest.raises(IllegalActionError, match=r"illegal last card.*\(R-PEN-ILLEGAL\)"):
        played.apply("1: draw")
    with pytest.raises(IllegalActionError, match=r"illegal last card.*\(R-PEN-ILLEGAL\)"):
        played.apply("2: catch_coach 1")


def test_r_pen_illegal_a_caught_illegal_last_card_goes_back_and_the_round_goes_on() -> None:
    played = rearranged(table(), hands={0: "R5"}).apply("0: play R5")
    caught = played.apply("2: catch_play 0")
    assert names(caught.hands[0]) == ["R5", "G8", "G9"]  # the card back, and 2 drawn
    assert (caught.current_player, caught.phase.name, str(caught.top_card)) == (1, "play", "G7")
    assert caught.rounds == ()


def test_r_pen_illegal_an_uncaught_illegal_last_card_ends_the_round_when_the_window_closes() -> None:
    played = rearranged(table(), hands={0: "R5"}).apply("0: play R5")
    ended = played.apply("1: accept")
    (result,) = ended.rounds
    assert (result.winner, result.reason) == (0, "out")
    assert result.points[0] == sum(ended.ruleset.hand_points(h) for h in result.hands[1:])
    assert result.points[0] > 0


def test_r_pen_illegal_r_out_last_draw_an_uncaught_last_draw_two_still_makes_the_next_seat_draw() -> None:
    played = rearranged(table(), hands={0: "R+2"}).apply("0: play R+2")  # on a G7: illegal
    assert played.phase.name == "illegal-out"
    ended = played.apply("1: accept")
    (result,) = ended.rounds
    assert result.winner == 0
    assert len(result.hands[1]) == 9  # R-OUT-LAST-DRAW: seat 1 drew 2, and they count


def test_r_pen_illegal_r_jump_an_illegal_last_card_opens_no_jump_in_window() -> None:
    rules_ = Ruleset.from_names(["classic", "penalties", "jump-in"], {"enforcement": "table"})
    state = rules_.new_game(4, deck=arrange_deck(HANDS, STARTER, draw="G8 G9", dealer=3), dealer=3)
    state = rearranged(state, hands={0: "R5", 2: "R5 B1 B2"})
    played = state.apply("0: play R5")
    assert not played.is_legal("2: play R5")
    assert played.apply("1: accept").rounds[0].winner == 0


def test_r_pen_illegal_not_offered_after_drawing() -> None:
    drawn = table().apply("0: draw")  # draws G8, which is playable
    assert drawn.phase.name == "drawn"
    plays = {str(a) for a in drawn.legal_actions(0) if a.verb == "play"}
    assert plays == {"0: play G8"}


def test_r_pen_illegal_wild_draw_four_with_the_colour_in_hand_when_challenges_are_off() -> None:
    hands = ["W+4 RS RR R+2 B3 W G1", *HANDS[1:]]
    assert not game(hands, challenge=False).is_legal("0: play W+4 B")
    played = game(hands, challenge=False, enforcement="table").apply("0: play W+4 B")
    assert played.phase.name == "penalty"
    assert played.phase.count == 4
    caught = played.apply("1: catch_play 0")
    assert caught.phase.name == "play"
    assert caught.current_player == 1
    assert "W+4" in names(caught.hands[0])
    assert len(caught.hands[1]) == 7


def test_r_pen_illegal_pending_play_survives_json() -> None:
    played = table().apply("0: play RS")
    copy = GameState.from_json(played.to_json())
    assert copy == played
    assert copy.legal_actions() == played.legal_actions()
    assert copy.apply("3: catch_play 0") == played.apply("3: catch_play 0")


def test_r_pen_illegal_bad_enforcement_option_fails_when_built() -> None:
    with pytest.raises(RulesetError, match="enforcement"):
        Ruleset.from_names(["classic", "penalties"], {"enforcement": "lenient"})


# -- R-PEN-COACH ------------------------------------------------------------------------------


def test_r_pen_coach_reported_coach_draws_two_and_nothing_else_changes() -> None:
    state = game()
    after = state.apply("2: catch_coach 3")
    assert names(after.hands[3]) == HANDS[3].split() + ["G8", "G9"]
    assert after.current_player == state.current_player
    assert after.phase == state.phase
    assert next((e.kind, e.seat, e.rule) for e in after.events) == ("coaching", 3, "R-PEN-COACH")
    assert coached_this_round(after) == (3,)


def test_r_pen_coach_any_seat_may_report_any_other() -> None:
    legal = {str(a) for a in game().legal_actions() if a.verb == "catch_coach"}
    assert legal == {f"{r}: catch_coach {c}" for r in range(4) for c in range(4) if r != c}


def test_r_pen_coach_at_most_once_per_seat_per_round() -> None:
    after = game().apply("2: catch_coach 3")
    assert not after.is_legal("1: catch_coach 3")
    with pytest.raises(IllegalActionError, match=r"already penalised for coaching this round.*R-PEN-COACH"):
        after.apply("1: catch_coach 3")
    assert after.is_legal("3: catch_coach 1")
    # Next round the record no longer applies.
    ended = rearranged(after, hands={0: "G1"}).apply("0: play G1")
    assert ended.round_number == 2
    assert ended.extra(COACHED_KEY) is not None
    assert coached_this_round(ended) == ()
    assert ended.is_legal("1: catch_coach 3")


def test_r_pen_coach_cannot_report_itself() -> None:
    with pytest.raises(IllegalActionError, match="cannot report itself"):
        game().apply("1: catch_coach 1")


def test_r_pen_coach_ends_the_coachs_uno_exposure() -> None:
    state = rearranged(game(), hands={0: "G1 G2"})
    exposed = state.apply("0: play G1")  # no UNO call
    assert exposed.uno_exposed == (0,)
    reported = exposed.apply("1: catch_coach 0")
    assert reported.uno_exposed == ()
    assert len(reported.hands[0]) == 3


def test_r_pen_coach_works_in_table_mode_too() -> None:
    assert table().is_legal(Action.of(1, "catch_coach", target=0))


@pytest.mark.parametrize("enforcement", ["strict", "table"])
def test_r_pen_refusals_of_the_penalty_verbs_always_cite_a_rule(enforcement: str) -> None:
    start = game(enforcement=enforcement)
    states = [start, start.apply("1: catch_coach 0")]
    if enforcement == "table":
        states.append(start.apply("0: play RS"))
    for state in states:
        legal = set(state.legal_actions())
        for verb in ("catch_play", "catch_coach"):
            for seat in range(4):
                for target in (0, 1, 2, 3, 7):
                    for card, color in ((None, None), (Card.parse("R5"), None), (None, Color.RED)):
                        action = Action.of(seat, verb, card, color, target)
                        if action in legal:
                            continue
                        with pytest.raises(IllegalActionError) as refused:
                            state.apply(action)
                        assert refused.value.rule in ("R-PEN-ILLEGAL", "R-PEN-COACH")


def test_r_pen_illegal_caught_play_voids_the_uno_call_made_for_it() -> None:
    state = rearranged(table(), hands={0: "R5 G1"})
    called = state.apply("0: uno").apply("0: play R5")
    assert called.uno_exposed == ()
    caught = called.apply("1: catch_play 0")
    assert names(caught.hands[0]) == ["R5", "G1", "G8", "G9"]
    assert 0 not in caught.uno_declared


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("phase", "data"), []),
        (("phase", "data"), [{"action": "0: draw"}]),
        (("phase", "data"), [{"action": "2: play R5"}]),
        (("phase", "data"), [{"action": "0: play R5"}, {"action": "0: play R5"}]),
        (("phase", "seat"), 2),
        (("phase", "card"), "G7"),
    ],
)
def test_r_pen_illegal_a_forged_illegal_out_phase_is_refused(path: tuple[str, str], value: object) -> None:
    # The phase must hold the offender's play it waits on, or a later accept could not let it stand.
    played = rearranged(table(), hands={0: "R5"}).apply("0: play R5")
    data = json.loads(played.to_json())
    assert GameState.from_json(json.dumps(data)) == played
    data[path[0]][path[1]] = value
    with pytest.raises(StateFormatError, match=r"R-PEN-ILLEGAL|phase"):
        GameState.from_json(json.dumps(data))


def _discard_all_table() -> GameState:
    # No Mercy's Discard All laid illegally (red on Y7) by a seat holding only two
    # of them: its effect, not the card laid, empties the hand.
    rules_ = Ruleset.from_names(["no-mercy", "penalties"], {"enforcement": "table"})
    hands = {0: "WCR Y+2 R3 BSE R1 R5 GDA", 1: "RDA RDA", 2: "G5 Y+4 R+4 G4"}
    return Scenario(rules_, players=3, hands=hands, top="Y7", color="Y", draw="G7 R0 R8", to_move=1).state


def test_r_pen_illegal_a_hand_emptied_by_the_illegal_cards_effect_opens_the_catch_window() -> None:
    # Found by the toolkit's last-card probe: the round went on with seat 1's hand empty.
    played = _discard_all_table().apply("1: play RDA")
    assert played.hands[1] == ()
    assert (played.phase.name, played.phase.seat, played.current_player) == ("illegal-out", 1, 2)
    assert played.phase.data[1:] == ("effect-done",)
    assert played.rounds == ()
    assert {str(a) for a in played.legal_actions()} == {"2: accept", "0: catch_play 1", "2: catch_play 1"}


def test_r_pen_illegal_a_hand_emptied_by_the_effect_let_stand_ends_the_round_with_no_second_effect() -> None:
    played = _discard_all_table().apply("1: play RDA")
    ended = played.apply("2: accept")
    (result,) = ended.rounds
    assert (result.winner, result.reason) == (1, "out")
    assert [len(h) for h in result.hands] == [7, 0, 4]  # nobody discarded or drew again


def test_r_pen_illegal_a_hand_emptied_by_the_effect_caught_gives_both_cards_back() -> None:
    caught = _discard_all_table().apply("1: play RDA").apply("0: catch_play 1")
    assert names(caught.hands[1]) == ["RDA", "RDA", "G7", "R0"]
    assert (caught.phase.name, caught.current_player, str(caught.top_card)) == ("play", 2, "Y7")

"""Scenario tests of UNO Show 'Em No Mercy, one or more per rule id (``R-NM-…``), each with what the
rule allows and what it refuses. Games are dealt from arranged decks: dealer 0, seat 1 plays first."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unorules import Color, GameState, IllegalActionError, Ruleset, RulesetError
from unorules.testing import arrange_deck, rearranged

FILLER = "Y1 Y2 Y3 Y4 Y5 Y6 Y7"


def game(
    hands: Sequence[str],
    starter: str = "R5",
    draw: str = "",
    options: Mapping[str, Any] | None = None,
    seed: int = 1,
) -> GameState:
    rules = Ruleset.from_names(["no-mercy"], options=options)
    return rules.new_game(players=len(hands), seed=seed, deck=arrange_deck(hands, starter, draw), dealer=0)


def legal(state: GameState, seat: int | None = None) -> set[str]:
    seat = state.current_player if seat is None else seat
    return {str(a).partition(": ")[2] for a in state.legal_actions(seat)}


def play(state: GameState, *actions: str) -> GameState:
    for action in actions:
        state = state.apply(action)
    return state


def refused(state: GameState, action: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    return caught.value


# -- R-NM-DECK -------------------------------------------------------------------------------------


def test_r_nm_deck_fw_is_168_cards_with_the_kinds_the_sheet_scores() -> None:
    deck = Ruleset.from_names(["no-mercy"]).deck
    assert len(deck) == 168
    count = Counter(str(c) for c in deck)
    assert count["R0"] == count["B9"] == 2
    assert count["G+2"] == count["GS"] == count["GR"] == count["GDA"] == 3
    assert count["Y+4"] == count["YSE"] == 2
    assert (count["WR+4"], count["W+6"], count["W+10"], count["WCR"]) == (8, 4, 4, 8)
    # no plain Wild, no colourless Wild Draw Four, no Reverse Draw Two
    assert count["W"] == count["W+4"] == 0


def test_r_nm_deck_om_breakdown_has_plain_wilds_and_one_zero_a_colour() -> None:
    deck = Ruleset.from_names(["no-mercy"], options={"nm_deck": "om"}).deck
    count = Counter(str(c) for c in deck)
    assert len(deck) == 168
    assert (count["R0"], count["R+4"], count["RSE"], count["W"], count["WR+4"], count["WCR"]) == (
        1,
        3,
        3,
        4,
        4,
        4,
    )


def test_r_nm_deck_other_breakdowns_are_refused() -> None:
    with pytest.raises(RulesetError, match="nm_deck"):
        Ruleset.from_names(["no-mercy"], options={"nm_deck": "gr"})
    with pytest.raises(RulesetError, match=r"W\+4 \(1 listed, 0 in the deck"):
        Ruleset.from_names(["no-mercy"]).new_game(players=2, deck=["W+4"], dealer=0)


# -- R-NM-SETUP, R-NM-STARTER ----------------------------------------------------------------------


def test_r_nm_setup_seven_cards_each_two_to_six_players() -> None:
    rules = Ruleset.from_names(["no-mercy"])
    state = rules.new_game(players=6, seed=3)
    assert [len(h) for h in state.hands] == [7] * 6
    assert len(state.draw_pile) == 168 - 42 - len(state.discard_pile)
    with pytest.raises(RulesetError, match="2 to 6 players"):
        rules.new_game(players=7, seed=3)


def test_r_nm_starter_action_cards_are_buried_until_a_number_comes() -> None:
    state = game([FILLER, FILLER], starter="WCR", draw="R+2 B7 G3")
    assert [str(c) for c in state.discard_pile] == ["WCR", "R+2", "B7"]
    assert (str(state.color), state.current_player, state.phase.name) == ("B", 1, "play")
    event = state.events[-1]
    assert event.kind == "starter-buried"
    assert [str(c) for c in event.cards] == ["WCR", "R+2", "B7"]


def test_r_nm_starter_a_number_starts_and_an_opening_seven_moves_no_hands() -> None:
    hands = [FILLER, "G1 G2 G3 G4 G5 G6 G8"]
    state = game(hands, starter="B7")
    assert [str(c) for c in state.discard_pile] == ["B7"]
    assert [str(c) for c in state.hands[1]] == hands[1].split()  # nothing moved
    assert not any(e.kind == "starter-buried" for e in state.events)


# -- R-NM-TURN, R-NM-DRAW --------------------------------------------------------------------------


def test_r_nm_turn_a_seat_with_a_playable_card_must_play_it() -> None:
    state = game([FILLER, "R1 B2 B3 B4 B6 B8 B9"])
    assert legal(state) == {"play R1"}
    error = refused(state, "1: draw")
    assert error.rule == "R-NM-TURN"


def test_r_nm_turn_with_voluntary_draw_a_seat_may_draw_instead() -> None:
    state = game([FILLER, "R1 B2 B3 B4 B6 B8 B9"], draw="G7 B5", options={"nm_voluntary_draw": "on"})
    assert legal(state) == {"play R1", "draw"}
    state = state.apply("1: draw")  # and is then bound by draw-until-playable: B5 matches the 5
    assert [str(c) for c in state.hands[1][-2:]] == ["G7", "B5"]
    assert legal(state) == {"play B5"}


def test_r_nm_draw_draws_until_a_playable_card_which_must_then_be_played() -> None:
    state = game([FILLER, "B1 B2 B3 B4 B6 B8 B9"], draw="G7 Y9 R8 G1")
    assert legal(state) == {"draw"}
    state = state.apply("1: draw")
    assert [str(c) for c in state.hands[1][-3:]] == ["G7", "Y9", "R8"]  # stopped at the red 8
    assert (state.phase.name, str(state.phase.card)) == ("drawn", "R8")
    assert legal(state) == {"play R8"}
    assert refused(state, "1: draw").rule == "R-NM-DRAW"
    assert refused(state, "1: play B1").rule is not None
    state = state.apply("1: play R8")
    assert state.current_player == 0


# -- R-NM-WILD -------------------------------------------------------------------------------------


def test_r_nm_wild_a_wild_may_be_played_at_any_time_and_cannot_be_challenged() -> None:
    state = game([FILLER, "W+6 R1 R2 R3 R4 R6 R7"])
    assert {"play W+6 B", "play R1"} <= legal(state)  # held with red cards: no restriction
    state = state.apply("1: play W+6 B")
    assert state.phase.name == "stack"
    assert "challenge" not in legal(state)
    assert refused(state, "0: challenge").rule is not None
    assert refused(game([FILLER, "W+6 R1 R2 R3 R4 R6 R7"]), "1: play W+6").rule == "R-NM-WILD"


# -- R-NM-ACT --------------------------------------------------------------------------------------


def test_r_nm_act_a_draw_two_makes_the_next_seat_draw_two_and_lose_the_turn() -> None:
    state = game([FILLER, "R+2 G1 G2 G3 G4 G6 G7", "B1 B2 B3 B4 B6 B7 B8"])
    state = state.apply("1: play R+2")
    assert (state.current_player, state.phase.name, state.phase.count) == (2, "stack", 2)
    assert legal(state) == {"draw"}
    state = state.apply("2: draw")
    assert len(state.hands[2]) == 9
    assert (state.current_player, state.phase.name) == (0, "play")


def test_r_nm_act_a_coloured_draw_four_matches_its_colour_or_another_draw_four_not_a_wild_one() -> None:
    state = game([FILLER, "G+4 R1 R2 B3 B4 B6 B7"], starter="G5")
    assert "play G+4" in legal(state)
    on_four = rearranged(game([FILLER, "G+4 R1 R2 B3 B4 B6 B7"]), top="Y+4")
    assert "play G+4" in legal(on_four)  # symbol on symbol
    on_wild = rearranged(game([FILLER, "G+4 R1 R2 B3 B4 B6 B7"]), top="WR+4").replace(color=Color.YELLOW)
    assert "play G+4" not in legal(on_wild)  # a Wild Reverse Draw Four is another symbol
    assert refused(on_wild, "1: play G+4").rule == "R-TURN-MATCH"


# -- R-NM-SE, R-NM-DA ------------------------------------------------------------------------------


def test_r_nm_se_skip_everyone_gives_its_player_another_full_turn() -> None:
    state = game([FILLER, "RSE B1 B2 B3 B4 B6 B7", FILLER])
    state = state.apply("1: play RSE")
    assert (state.current_player, state.phase.name) == (1, "play")
    assert refused(state, "2: draw").rule == "R-NM-TURN"  # the others are skipped


def test_r_nm_da_discard_all_takes_every_other_card_of_its_colour_under_it() -> None:
    state = game([FILLER, "RDA R1 R9 B2 W+6 G3 R+2"])
    state = state.apply("1: play RDA")
    assert str(state.top_card) == "RDA"
    assert str(state.color) == "R"
    assert sorted(str(c) for c in state.hands[1]) == ["B2", "G3", "W+6"]  # the wild stays
    assert sorted(str(c) for c in state.discard_pile[-4:-1]) == ["R+2", "R1", "R9"]  # under it, no effect
    assert state.current_player == 0
    assert state.phase.name == "play"  # the buried Draw Two did nothing


def test_r_nm_da_emptying_the_hand_with_discard_all_wins() -> None:
    state = game([FILLER, "RDA R1 R2 R3 R4 R6 R7"])
    state = state.apply("1: play RDA")
    assert state.is_over
    assert state.winner == 1


# -- R-NM-WD, R-NM-WRD4 ----------------------------------------------------------------------------


def test_r_nm_wd_wild_draw_six_and_ten_name_a_colour_and_hit_the_next_seat() -> None:
    state = game([FILLER, "W+10 G1 G2 G3 G4 G6 G7", "B1 B2 B3 B4 B6 B7 B8"])
    state = state.apply("1: play W+10 B")
    assert (str(state.color), state.current_player, state.phase.count) == ("B", 2, 10)
    state = state.apply("2: draw")
    assert len(state.hands[2]) == 17
    assert state.current_player == 0


def test_r_nm_wrd4_reverses_then_the_next_seat_in_the_new_direction_draws_four() -> None:
    state = game([FILLER, "WR+4 G1 G2 G3 G4 G6 G7", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"])
    state = state.apply("1: play WR+4 G")
    assert state.direction == -1
    assert (state.current_player, state.phase.count) == (0, 4)  # not seat 2


@pytest.mark.parametrize(("option", "direction", "victim"), [("reverse", -1, 1), ("no-reverse", 1, 3)])
def test_r_nm_wrd4_on_a_stack_reverses_unless_no_reverse(option: str, direction: int, victim: int) -> None:
    hands = ["B9 B1 B2 B3 B4 B6 B8", "R+2 G1 G2 G3 G4 G6 G7", "WR+4 Y8 Y9 Y2 Y3 Y4 Y6", FILLER]
    state = game(hands, options={"nm_wrd4_in_stack": option})
    state = play(state, "1: play R+2", "2: play WR+4 G")
    # seat 2's Wild Reverse Draw Four (worth 4, at least the 2 of the Draw Two) joins the stack
    assert state.phase.count == 6
    assert (state.direction, state.current_player) == (direction, victim)


# -- R-NM-ROULETTE ---------------------------------------------------------------------------------


def test_r_nm_roulette_the_victim_names_a_colour_and_takes_cards_up_to_it() -> None:
    hands = [FILLER, "WCR G1 G2 G3 G4 G6 G7", "B1 B2 B3 B4 B6 B7 B8"]
    state = game(hands, draw="R1 W+6 Y9 G8 B5")
    state = state.apply("1: play WCR")
    assert (state.phase.name, state.current_player, state.color) == ("roulette", 2, None)
    assert legal(state) == {"color R", "color Y", "color G", "color B"}
    state = state.apply("2: color G")
    # a wild turned up does not count: R1, W+6, Y9, G8 are taken
    assert [str(c) for c in state.hands[2][-4:]] == ["R1", "W+6", "Y9", "G8"]
    assert (str(state.color), state.current_player) == ("G", 0)  # the colour named stands; turn lost
    event = next(e for e in state.events if e.kind == "roulette")
    assert (event.count, str(event.color), event.private) == (4, "G", False)


def test_r_nm_roulette_is_not_a_draw_card_and_cannot_answer_a_stack() -> None:
    hands = [FILLER, "R+2 G1 G2 G3 G4 G6 G7", "WCR B1 B2 B3 B4 B6 B7"]
    state = game(hands).apply("1: play R+2")
    assert "play WCR" not in legal(state)
    assert refused(state, "2: play WCR").rule == "R-NM-STACK"


def test_r_nm_roulette_the_player_names_the_colour_with_namer_player() -> None:
    hands = [FILLER, "WCR G1 G2 G3 G4 G6 G7", "B1 B2 B3 B4 B6 B7 B8"]
    state = game(hands, draw="B5 Y2", options={"nm_roulette_namer": "player"})
    assert "play WCR Y" in legal(state)
    assert "play WCR" not in legal(state)
    state = state.apply("1: play WCR Y")
    assert [str(c) for c in state.hands[2][-2:]] == ["B5", "Y2"]
    assert state.current_player == 0


# -- R-NM-STACK ------------------------------------------------------------------------------------


def test_r_nm_stack_equal_or_higher_value_any_colour_the_total_passes_on() -> None:
    hands = [FILLER, "G+4 G1 G2 G3 G4 G6 G7", "W+6 B+2 B3 B4 B6 B7 B8", "W+10 R+2 Y6 Y4 Y5 Y8 Y9"]
    state = game(hands, starter="G5")
    state = state.apply("1: play G+4")
    assert legal(state) == {"play W+6 R", "play W+6 Y", "play W+6 G", "play W+6 B", "draw"}  # not the +2
    assert refused(state, "2: play B+2").rule == "R-NM-STACK"
    state = state.apply("2: play W+6 B")
    assert (state.current_player, state.phase.count) == (3, 10)
    assert {"play W+10 R", "draw"} <= legal(state)
    assert "play R+2" not in legal(state)
    state = state.apply("3: draw")
    assert len(state.hands[3]) == 17
    assert (str(state.top_card), str(state.color), state.current_player) == ("W+6", "B", 0)


def test_r_nm_stack_nothing_but_a_draw_card_joins_it() -> None:
    hands = [FILLER, "R+2 G1 G2 G3 G4 G6 G7", "RS RR RSE RDA R7 R0 B8"]
    state = game(hands).apply("1: play R+2")
    assert legal(state) == {"draw"}
    for card in ("RS", "RR", "RSE", "RDA", "R7 0", "R0"):
        assert refused(state, f"2: play {card}").rule == "R-NM-STACK"


def test_r_nm_stack_same_kind_only_the_same_card() -> None:
    hands = [FILLER, "G+4 G1 G2 G3 G4 G6 G7", "B+4 W+6 B3 B4 B6 B7 B8"]
    state = game(hands, starter="G5", options={"nm_stack_rule": "same-kind"}).apply("1: play G+4")
    assert legal(state) == {"play B+4", "draw"}  # not the higher Wild Draw Six


# -- R-NM-SEVEN-O ----------------------------------------------------------------------------------


def test_r_nm_seven_o_a_seven_trades_hands_with_a_chosen_seat() -> None:
    hands = [FILLER, "R7 G1 G2 G3 G4 G6 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = game(hands)
    assert {"play R7 0", "play R7 2"} <= legal(state)
    assert refused(state, "1: play R7").rule == "R-NM-SEVEN-O"
    state = state.apply("1: play R7 2")
    assert [str(c) for c in state.hands[1]] == hands[2].split()
    assert [str(c) for c in state.hands[2]] == hands[1].split()[1:]
    assert state.current_player == 2


def test_r_nm_seven_o_a_zero_passes_every_hand_on() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "R0 G1 G2 G3 G4 G6 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = game(hands).apply("1: play R0")
    assert [str(c) for c in state.hands[2]] == hands[1].split()[1:]
    assert [str(c) for c in state.hands[0]] == hands[2].split()
    assert [str(c) for c in state.hands[1]] == hands[0].split()
    assert next(e for e in state.events if e.kind == "hands-moved").rule == "R-SEVEN-O"


# -- R-NM-MERCY ------------------------------------------------------------------------------------


def knocked_state(options: Mapping[str, Any] | None = None) -> GameState:
    """Seat 2 holds 20 cards and is hit by a Wild Draw Ten."""
    hands = [FILLER, "W+10 G1 G2 G3 G4 G6 G8", "B1 B2 B3 B4 B6 B7 B8", "Y8 Y9 Y0 G9 G7 R2 R3"]
    state = game(hands, options=options)
    big = "B1 B2 B3 B4 B6 B7 B8 B9 B0 B+2 BS BR G0 G0 R0 R0 R1 R1 R2 R3"
    state = rearranged(state, hands={2: big})
    return state.apply("1: play W+10 G")


def test_r_nm_mercy_a_seat_reaching_the_limit_is_out_and_its_cards_go_under_the_pile() -> None:
    state = knocked_state()
    before = len(state.discard_pile)
    state = state.apply("2: draw")
    assert 2 in state.left
    assert state.hands[2] == ()
    assert len(state.discard_pile) == before + 25  # drawn up to 25, then the whole hand went under
    assert str(state.top_card) == "W+10"  # the top card and its colour stay
    assert str(state.color) == "G"
    assert state.current_player == 3  # play passes to the next seat still in
    event = next(e for e in state.events if e.kind == "mercy")
    assert (event.seat, event.count) == (2, 25)
    assert state.extra("no-mercy.knocked") == (2,)
    # five cards of the stack were never drawn: the rest is cancelled
    assert sum(len(h) for h in state.hands) == 7 + 6 + 0 + 7


def test_r_nm_mercy_off_no_seat_is_knocked_out() -> None:
    state = knocked_state({"mercy_limit": "off"}).apply("2: draw")
    assert state.left == ()
    assert len(state.hands[2]) == 30


def test_r_nm_mercy_the_last_seat_standing_wins() -> None:
    hands = [FILLER, "W+10 G1 G2 G3 G4 G6 G8"]
    state = game(hands)
    state = rearranged(state, hands={0: "B1 B2 B3 B4 B6 B7 B8 B9 B0 B+2 BS BR G0 G0 R0 R0 R1 R1 R2 R3"})
    state = play(state, "1: play W+10 G", "0: draw")
    assert state.is_over
    assert state.winner == 1
    assert state.outcome is not None
    assert state.outcome.reason == "last-standing"


# -- R-NM-UNO --------------------------------------------------------------------------------------


def test_r_nm_uno_a_seat_handed_one_card_by_a_zero_must_call_or_be_caught() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "R0 G1 G2 G3 G4 G6 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = game(hands)
    state = rearranged(state, hands={1: "R0 G1", 0: "Y1 Y2 Y3"})
    state = play(state, "1: uno", "1: play R0")
    # seat 1 played down to one card after calling; its one card went on to seat 2, which did not call
    assert len(state.hands[2]) == 1
    assert state.uno_exposed == (2,)
    assert "catch 2" in legal(state, 0)
    caught = state.apply("0: catch 2")
    assert len(caught.hands[2]) == 3  # the penalty is 2


def test_r_nm_uno_exempt_a_seat_handed_one_card_need_not_call() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "R0 G1 G2 G3 G4 G6 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = game(hands, options={"nm_uno_when_handed": "exempt"})
    state = rearranged(state, hands={1: "R0 G1", 0: "Y1 Y2 Y3"})
    state = play(state, "1: uno", "1: play R0")
    assert state.uno_exposed == ()
    assert refused(state, "0: catch 2").rule == "R-NM-UNO"


def test_r_nm_uno_a_discard_all_down_to_one_card_needs_a_call() -> None:
    hands = [FILLER, "RDA R1 R9 B2 G1 G2 G3"]
    state = game(hands)
    state = rearranged(state, hands={1: "RDA R1 B2"})
    assert "uno" in legal(state)  # the Discard All would leave one card
    exposed = state.apply("1: play RDA")
    assert exposed.uno_exposed == (1,)
    called = play(state, "1: uno", "1: play RDA")
    assert called.uno_exposed == ()


# -- R-NM-WIN --------------------------------------------------------------------------------------


def test_r_nm_win_a_last_card_wins_at_once_and_its_draw_does_not_happen() -> None:
    state = game([FILLER, "R+2 G1 G2 G3 G4 G6 G8", "B1 B2 B3 B4 B6 B7 B8"])
    state = rearranged(state, hands={1: "R+2"})
    state = state.apply("1: play R+2")
    assert state.is_over
    assert state.winner == 1
    assert len(state.hands[2]) == 7  # no draw


def test_r_nm_win_last_standing_play_goes_on_until_one_seat_holds_cards() -> None:
    hands = [FILLER, "R1 G1 G2 G3 G4 G6 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = game(hands, options={"nm_end": "last-standing"})
    state = rearranged(state, hands={1: "R1"})
    state = state.apply("1: play R1")
    assert not state.is_over
    assert state.left == (1,)
    assert state.extra("no-mercy.out") == (1,)
    assert state.current_player == 2
    state = rearranged(state, hands={2: "R2"})
    state = state.apply("2: play R2")
    assert state.is_over
    assert state.winner == 1  # the first seat out; seat 0, left holding cards, loses


def test_r_nm_win_last_standing_cannot_be_scored_for_points() -> None:
    with pytest.raises(RulesetError, match="last-standing"):
        Ruleset.from_names(["no-mercy"], options={"nm_end": "last-standing", "nm_scoring": "points"})


# -- R-NM-SCORE ------------------------------------------------------------------------------------


def test_r_nm_score_points_numbers_twenty_fifty_and_250_a_knockout() -> None:
    hands = [FILLER, "R1 G1 G2 G3 G4 G6 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = game(hands, options={"nm_scoring": "points"})
    state = rearranged(state, hands={1: "R1", 0: "B9 G+2 WCR", 2: "Y9"})
    state = state.apply("1: play R1")
    assert not state.is_over  # first to 1000
    assert state.rounds[0].points == (0, 9 + 20 + 50 + 9, 0)
    assert state.round_number == 2


def test_r_nm_score_off_one_hand_is_the_game_and_nobody_scores() -> None:
    state = game([FILLER, "R1 G1 G2 G3 G4 G6 G8"])
    state = rearranged(state, hands={1: "R1"}).apply("1: play R1")
    assert state.is_over
    assert state.scores == (0, 0)


def test_r_nm_score_a_knocked_out_seat_is_worth_250_and_rejoins_the_next_hand() -> None:
    state = knocked_state({"nm_scoring": "points"}).apply("2: draw")
    assert state.left == (2,)
    state = rearranged(state, hands={3: "G9"}).apply("3: play G9")
    # seat 0's Y1-Y7 (28) and seat 1's G1 G2 G3 G4 G6 G8 (24), seat 2 knocked out (250)
    assert state.rounds[0].points[3] == 28 + 24 + 250
    assert state.left == ()  # dealt in again
    assert all(len(h) == 7 for h in state.hands)


# -- R-NM-2P, R-NM-RESHUFFLE -----------------------------------------------------------------------


def test_r_nm_2p_a_reverse_skips_the_other_player() -> None:
    state = game(["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "RR G1 G2 G3 G4 G6 G8"]).apply("1: play RR")
    assert state.current_player == 1


def test_r_nm_2p_a_wild_reverse_draw_four_makes_its_own_player_face_it() -> None:
    state = game(["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "WR+4 W+6 G2 G3 G4 G6 G8"]).apply("1: play WR+4 G")
    assert (state.current_player, state.phase.name, state.phase.count) == (1, "stack", 4)
    assert "play W+6 R" in legal(state)  # it may stack back on the other player
    state = state.apply("1: play W+6 R")
    assert (state.current_player, state.phase.count) == (0, 10)


def test_r_nm_2p_with_the_other_reading_the_other_player_faces_it() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "WR+4 W+6 G2 G3 G4 G6 G8"]
    state = game(hands, options={"nm_2p_wrd4": "other"}).apply("1: play WR+4 G")
    assert (state.current_player, state.phase.count) == (0, 4)


def test_r_nm_reshuffle_an_empty_draw_pile_takes_the_discard_pile_but_its_top() -> None:
    state = game([FILLER, "B1 B2 B3 B4 B6 B8 B9"])
    pile = state.draw_pile
    state = state.replace(draw_pile=(), discard_pile=pile + state.discard_pile)
    state = state.apply("1: draw")
    assert any(e.kind == "reshuffle" for e in state.events)
    assert str(state.discard_pile[0]) == "R5"  # the top card stayed


def test_r_nm_reshuffle_with_both_piles_empty_a_blocked_hand_goes_to_the_fewest_points() -> None:
    state = game([FILLER, "B1 B2 B3 B4 B6 B8 B9"])
    # every other card in seat 0's hand: nothing left to draw, and seat 1 cannot play
    state = state.replace(draw_pile=(), hands=(state.hands[0] + state.draw_pile, state.hands[1]))
    assert legal(state) == {"draw"}
    after = state.apply("1: draw")  # draws nothing: the turn passes
    assert (after.stalled, after.current_player, len(after.hands[1])) == (1, 0, 7)
    # when every seat still in has, in turn, drawn nothing, the hand is blocked
    blocked = state.replace(stalled=1).apply("1: draw")
    assert blocked.is_over
    assert blocked.outcome is not None
    assert blocked.outcome.reason == "blocked"
    assert blocked.winner == 1  # 33 points against the rest of the deck

"""Scenario tests for each ready effect of the customizable wilds (R-CUSTOM, C1-C10).

Three seats, dealer 0: seat 1 plays first and holds the customizable wild CW1,
bound to the effect under test; seat 2 is "the next player".
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from unorules_custom_wilds import CUSTOM_WILDS

from unorules import Card, Color, GameState, IllegalActionError, Ruleset, parse_cards
from unorules.testing import arrange_deck, rearranged

CW1 = CUSTOM_WILDS[0]
SEAT0 = "R1 R2 R3 R4 R5 R6 R7"
SEAT1 = "CW1 G1 G2 G3 G4 G5 G6"
SEAT2 = "B1 B2 B3 B4 B5 B6 B7"


def game(effect: str, hands: list[str] | None = None, draw: str = "", **options: Any) -> GameState:
    ruleset = Ruleset.from_names(["classic", "custom-wilds"], options={"custom_wild_1": effect, **options})
    deck = arrange_deck(hands or [SEAT0, SEAT1, SEAT2], "Y5", draw=draw)
    return ruleset.new_game(players=3, seed=1, deck=deck, dealer=0)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def accounted(state: GameState) -> bool:
    return Counter(state.draw_pile + state.discard_pile + sum(state.hands, ())) == Counter(state.ruleset.deck)


# -- C1 -----------------------------------------------------------------------------------------------


def test_r_custom_c1_next_player_draws_until_the_named_colour_and_loses_the_turn() -> None:
    state = game("draw-until-color", draw="R8 Y1 W G7 B8").apply("1: play CW1 G")
    assert (state.current_player, state.phase.name, state.phase.color) == (2, "draw-color", Color.GREEN)
    assert [str(a) for a in state.legal_actions()] == ["2: draw"]
    with pytest.raises(IllegalActionError, match="draw until a G card") as refused:
        state.apply("2: play B1")
    assert refused.value.rule == "R-CUSTOM"
    after = state.apply("2: draw")
    assert after.hands[2] == cards(SEAT2 + " R8 Y1 W G7")  # a wild is not green
    assert after.draw_pile[0] is Card.parse("B8")
    assert (after.current_player, after.phase.name, after.color) == (0, "play", Color.GREEN)


def test_r_custom_c1_with_no_card_of_the_colour_left_draws_everything_and_stops() -> None:
    state = game("draw-until-color").apply("1: play CW1 B")
    # Every blue card is out of the piles: seat 0 holds the ones seat 2 does not.
    blues = tuple(c for c in state.draw_pile if c.color is Color.BLUE)
    state = state.replace(
        hands=(state.hands[0] + blues, state.hands[1], state.hands[2]),
        draw_pile=tuple(c for c in state.draw_pile if c.color is not Color.BLUE),
    )
    assert state.discard_pile == (Card.parse("Y5"), CW1)
    assert accounted(state)
    before = len(state.hands[2])
    pile = len(state.draw_pile) + len(state.discard_pile) - 1
    after = state.apply("2: draw")
    assert len(after.hands[2]) == before + pile
    assert (after.draw_pile, after.discard_pile) == ((), (CW1,))
    assert any(e.kind == "reshuffle" for e in after.events)
    assert after.current_player == 0
    assert accounted(after)


def test_r_custom_c1_after_a_reshuffle_draws_on_from_the_new_pile() -> None:
    state = game("draw-until-color").apply("1: play CW1 G")
    rest = [c for c in state.draw_pile if c is not Card.parse("G7")]
    state = state.replace(
        draw_pile=(Card.parse("R8"),),
        discard_pile=(Card.parse("G7"), Card.parse("Y5"), CW1),
        hands=(state.hands[0] + tuple(rest), state.hands[1], state.hands[2]),
    )
    after = state.apply("2: draw")
    assert any(e.kind == "reshuffle" for e in after.events)
    assert after.hands[2][-1] is Card.parse("G7")
    assert Card.parse("R8") in after.hands[2]
    assert after.discard_pile == (CW1,)


def test_r_out_last_draw_c1_as_the_last_card_still_makes_the_next_player_draw() -> None:
    state = rearranged(game("draw-until-color", draw="R8 G9"), hands={1: "CW1"}, draw="R8 G9")
    after = state.apply("1: play CW1 G")
    result = after.rounds[-1]
    assert result.winner == 1
    assert result.hands[2][-2:] == cards("R8 G9")
    assert result.points[1] == state.ruleset.hand_points(result.hands[0] + result.hands[2])


# -- C2 -----------------------------------------------------------------------------------------------


def test_r_custom_c2_every_other_player_discards_their_wild_cards_under_the_top_card() -> None:
    hands = ["W R1 W+4 R2 R3 R4 R5", "CW1 W G2 G3 G4 G5 G6", "B1 W+4 B2 B3 B4 B5 B6"]
    after = game("discard-wilds", hands).apply("1: play CW1 Y")
    assert after.hands[0] == cards("R1 R2 R3 R4 R5")
    assert after.hands[1] == cards("W G2 G3 G4 G5 G6")  # its player keeps their own
    assert after.hands[2] == cards("B1 B2 B3 B4 B5 B6")
    assert after.discard_pile[-1] is CW1
    assert after.discard_pile[-4:-1] == cards("W+4 W W+4")  # seat 2 first, then seat 0
    assert after.color is Color.YELLOW
    assert after.current_player == 2


def test_r_custom_c2_polish_variant_discards_every_symbol_card() -> None:
    hands = ["W RS R2 R+2 RR R4 R5", "CW1 W G2 G3 G4 G5 G6", "B1 B2 B3 B4 B5 B6 B7"]
    after = game("discard-specials", hands).apply("1: play CW1 Y")
    assert after.hands[0] == cards("R2 R4 R5")
    assert after.hands[2] == cards(SEAT2)


def test_r_custom_c2_a_player_left_without_cards_goes_out() -> None:
    state = rearranged(game("discard-wilds"), hands={0: "W W+4", 2: "B1 W"})
    after = state.apply("1: play CW1 R")
    result = after.rounds[-1]
    assert (result.winner, result.reason) == (0, "out")
    assert result.hands[0] == ()
    assert result.points[0] == state.ruleset.hand_points(result.hands[1] + result.hands[2])


# -- C3 -----------------------------------------------------------------------------------------------


def test_r_custom_c3_next_player_who_cannot_play_draws_three_and_loses_the_turn() -> None:
    state = game("cannot-play-draw-3", draw="Y1 Y2 Y3 Y4").apply("1: play CW1 G")
    assert (state.current_player, state.phase.name, state.phase.count) == (2, "penalty", 3)
    with pytest.raises(IllegalActionError, match="must draw 3") as refused:
        state.apply("2: play B1")
    assert refused.value.rule == "R-CUSTOM"
    after = state.apply("2: draw")
    assert after.hands[2] == cards(SEAT2 + " Y1 Y2 Y3")
    assert (after.current_player, after.phase.name) == (0, "play")


def test_r_custom_c3_next_player_who_can_play_plays_as_usual() -> None:
    state = game("cannot-play-draw-3").apply("1: play CW1 B")
    assert (state.current_player, state.phase.name) == (2, "play")
    wild = rearranged(game("cannot-play-draw-3"), hands={2: "R1 W"}).apply("1: play CW1 G")
    assert wild.phase.name == "play"  # a wild can always be played


# -- C4 -----------------------------------------------------------------------------------------------


def test_r_custom_c4_its_player_takes_another_turn() -> None:
    state = game("extra-turn").apply("1: play CW1 G")
    assert (state.current_player, state.phase.name, state.color) == (1, "play", Color.GREEN)
    after = state.apply("1: play G3")
    assert after.current_player == 2


# -- C5 -----------------------------------------------------------------------------------------------


def test_r_custom_c5_next_player_with_fewer_than_7_draws_up_to_7_and_plays() -> None:
    state = rearranged(game("next-to-7", draw="Y1 Y2 Y3 Y4"), hands={2: "B1 B2 B3"}, draw="Y1 Y2 Y3 Y4")
    after = state.apply("1: play CW1 B")
    assert after.hands[2] == cards("B1 B2 B3 Y1 Y2 Y3 Y4")
    assert (after.current_player, after.phase.name) == (2, "play")


def test_r_custom_c5_next_player_with_more_than_7_chooses_the_discards() -> None:
    state = rearranged(game("next-to-7"), hands={2: "B1 B2 B3 B4 B5 B6 B7 B8 B9 B9"})
    after = state.apply("1: play CW1 R")
    assert (after.current_player, after.phase.name, after.phase.count) == (2, "discard", 3)
    assert [str(a) for a in after.legal_actions()] == [f"2: discard B{n}" for n in range(1, 10)]
    with pytest.raises(IllegalActionError, match="holds no R7") as refused:
        after.apply("2: discard R7")
    assert refused.value.rule == "R-CUSTOM"
    with pytest.raises(IllegalActionError, match="discard 3 more"):
        after.apply("2: play B1")
    done = after.apply("2: discard B9").apply("2: discard B9").apply("2: discard B1")
    assert done.hands[2] == cards("B2 B3 B4 B5 B6 B7 B8")
    assert done.discard_pile[-4:] == (*cards("B9 B9 B1"), CW1)  # under the top card
    assert (done.top_card, done.color) == (CW1, Color.RED)
    assert (done.current_player, done.phase.name) == (2, "play")


def test_r_custom_c5_next_player_with_exactly_7_is_unchanged() -> None:
    after = game("next-to-7").apply("1: play CW1 R")
    assert after.hands[2] == cards(SEAT2)
    assert (after.current_player, after.phase.name) == (2, "play")


# -- C6 -----------------------------------------------------------------------------------------------


def test_r_custom_c6_every_player_draws_or_discards_to_exactly_3() -> None:
    state = rearranged(
        game("all-to-3", draw="Y1 Y2"),
        hands={0: "R1", 1: "CW1 G1 G2 G3 G4 G5", 2: "B1 B2 B3 B4"},
        draw="Y1 Y2",
    )
    after = state.apply("1: play CW1 Y")
    # Seat 2 (next) discards 1; then seat 0 draws 2; then seat 1 discards 2.
    assert (after.current_player, after.phase.name, after.phase.count) == (2, "discard", 1)
    after = after.apply("2: discard B4")
    assert after.hands[0] == cards("R1 Y1 Y2")
    assert (after.current_player, after.phase.count) == (1, 2)
    after = after.apply("1: discard G1").apply("1: discard G5")
    assert [len(h) for h in after.hands] == [3, 3, 3]
    assert after.discard_pile[-4:] == (*cards("B4 G1 G5"), CW1)
    assert (after.current_player, after.phase.name, after.color) == (2, "play", Color.YELLOW)
    assert accounted(after)


def test_r_custom_c6_hands_of_exactly_3_are_unchanged() -> None:
    state = rearranged(game("all-to-3"), hands={0: "R1 R2 R3", 1: "CW1 G1 G2 G3", 2: "B1 B2 B3"})
    after = state.apply("1: play CW1 Y")
    assert after.hands == (cards("R1 R2 R3"), cards("G1 G2 G3"), cards("B1 B2 B3"))
    assert (after.current_player, after.phase.name) == (2, "play")


def test_r_uno_catch_c6_drawing_to_3_ends_the_exposure_of_a_one_card_hand() -> None:
    state = rearranged(game("all-to-3"), hands={0: "R1 R2 R3", 1: "CW1 G1", 2: "B1 B2 B3"})
    after = state.apply("1: play CW1 Y")  # next-to-last card, no UNO called
    assert after.uno_exposed == ()
    assert not any(a.verb == "catch" for a in after.legal_actions())


# -- C7 -----------------------------------------------------------------------------------------------


def test_r_custom_c7_hands_are_open_until_the_card_players_next_turn() -> None:
    state = game("open-hands")
    assert set(state.view(0).visible_hands) == {0}
    opened = state.apply("1: play CW1 B")
    for seat in range(3):
        assert opened.view(seat).visible_hands == {s: opened.hands[s] for s in range(3)}
    assert GameState.from_json(opened.to_json()) == opened
    still = opened.apply("2: play B3")
    assert set(still.view(2).visible_hands) == {0, 1, 2}
    closed = still.apply("0: draw")  # seat 0 draws instead of playing: seat 1's turn comes
    assert closed.current_player in (0, 1)
    if closed.current_player == 0:
        closed = closed.apply("0: pass")
    assert closed.current_player == 1
    assert set(closed.view(0).visible_hands) == {0}
    assert set(closed.apply("1: play G3").view(0).visible_hands) == {0}


def test_r_custom_c7_with_two_players_closes_when_the_turn_comes_back() -> None:
    ruleset = Ruleset.from_names(["classic", "custom-wilds"], options={"custom_wild_1": "open-hands"})
    deck = arrange_deck(["CW1 R1 R2 R3 R4 R5 R6", SEAT2], "Y5", dealer=1)
    state = ruleset.new_game(players=2, seed=1, deck=deck, dealer=1).apply("0: play CW1 B")
    assert set(state.view(1).visible_hands) == {0, 1}
    skipped = state.apply("1: play B2")
    assert skipped.current_player == 0
    assert set(skipped.view(1).visible_hands) == {1}


def test_r_custom_c7_hands_close_at_the_end_of_the_round() -> None:
    state = rearranged(game("open-hands"), hands={2: "B1"}).apply("1: play CW1 B")
    assert state.extras
    ended = state.apply("2: play B1")
    assert len(ended.rounds) == 1
    assert ended.extras == ()
    assert set(ended.view(0).visible_hands) == {0}


# -- C8 -----------------------------------------------------------------------------------------------


def test_r_custom_c8_nobody_laughed_so_its_player_draws_4() -> None:
    state = game("joke", draw="Y1 Y2 Y3 Y4").apply("1: play CW1 R")
    assert (state.current_player, state.phase.name, state.phase.seat) == (2, "joke", 1)
    assert [str(a) for a in state.legal_actions()] == ["2: laughed", "2: nolaugh"]
    with pytest.raises(IllegalActionError, match="answer for the table") as refused:
        state.apply("2: play B1")
    assert refused.value.rule == "R-CUSTOM"
    after = state.apply("2: nolaugh")
    assert after.hands[1] == cards("G1 G2 G3 G4 G5 G6 Y1 Y2 Y3 Y4")
    assert (after.current_player, after.phase.name) == (2, "play")


def test_r_custom_c8_somebody_laughed_so_its_player_keeps_one_card_and_must_call_uno() -> None:
    state = game("joke").apply("1: play CW1 R").apply("2: laughed")
    assert (state.current_player, state.phase.name) == (1, "keep")
    assert [str(a) for a in state.legal_actions()] == [f"1: keep G{n}" for n in range(1, 7)]
    after = state.apply("1: keep G4")
    assert after.hands[1] == cards("G4")
    assert after.discard_pile[-6:] == (*cards("G1 G2 G3 G5 G6"), CW1)
    assert (after.current_player, after.phase.name, after.color) == (2, "play", Color.RED)
    assert after.uno_exposed == (1,)
    assert after.is_legal("0: catch 1")
    assert after.is_legal("1: uno")  # R-UNO-SELF: a late call is still safe
    caught = after.apply("0: catch 1")
    assert len(caught.hands[1]) == 3


def test_r_custom_c8_a_teller_left_with_one_card_keeps_it() -> None:
    state = rearranged(game("joke"), hands={1: "CW1 G1"}).apply("1: uno").apply("1: play CW1 R")
    after = state.apply("2: laughed")
    assert after.hands[1] == cards("G1")
    assert (after.current_player, after.phase.name) == (2, "play")
    assert after.uno_exposed == ()  # UNO was called before playing the next-to-last card


def test_r_custom_c8_refuses_its_verbs_outside_a_joke() -> None:
    state = game("joke")
    with pytest.raises(IllegalActionError, match="none is asking now") as refused:
        state.apply("1: laughed")
    assert refused.value.rule == "R-CUSTOM"
    joke = state.apply("1: play CW1 R")
    with pytest.raises(IllegalActionError, match="seat 2 must answer") as other:
        joke.apply("0: laughed")
    assert other.value.rule == "R-CUSTOM"


# -- C9 -----------------------------------------------------------------------------------------------


def test_r_custom_c9_only_records_the_table_rule() -> None:
    state = game("stiff-elbows")
    after = state.apply("1: play CW1 G")
    plain = Ruleset.from_names(["classic", "custom-wilds"]).new_game(
        players=3, seed=1, deck=arrange_deck([SEAT0, SEAT1, SEAT2], "Y5"), dealer=0
    )
    unbound = plain.apply("1: play CW1 G")
    assert (after.hands, after.draw_pile, after.discard_pile) == (
        unbound.hands,
        unbound.draw_pile,
        unbound.discard_pile,
    )
    assert (after.current_player, after.color) == (unbound.current_player, unbound.color)
    (rule,) = [e for e in after.events if e.kind == "table-rule"]
    assert (rule.seat, rule.rule, rule.cards) == (2, "R-CUSTOM", ())
    assert "elbows" in rule.detail


# -- C10 ----------------------------------------------------------------------------------------------


def test_r_custom_c10_next_player_crows_and_plays_on() -> None:
    state = game("crow-or-draw-4").apply("1: play CW1 B")
    assert (state.current_player, state.phase.name) == (2, "rooster")
    assert [str(a) for a in state.legal_actions()] == ["2: crow", "2: draw"]
    after = state.apply("2: crow")
    assert after.hands[2] == cards(SEAT2)
    assert (after.current_player, after.phase.name) == (2, "play")
    assert [e.kind for e in after.events] == ["crow"]


def test_r_custom_c10_next_player_draws_4_and_loses_the_turn() -> None:
    after = game("crow-or-draw-4", draw="Y1 Y2 Y3 Y4").apply("1: play CW1 B").apply("2: draw")
    assert after.hands[2] == cards(SEAT2 + " Y1 Y2 Y3 Y4")
    assert (after.current_player, after.phase.name) == (0, "play")


def test_r_custom_c10_as_in_hu_cz_sk_the_next_player_crows_and_draws_4() -> None:
    state = game("crow-and-draw-4", draw="Y1 Y2 Y3 Y4").apply("1: play CW1 B")
    assert (state.current_player, state.phase.name, state.phase.count) == (2, "penalty", 4)
    assert any(e.kind == "crow" for e in state.events)
    after = state.apply("2: draw")
    assert after.hands[2] == cards(SEAT2 + " Y1 Y2 Y3 Y4")
    assert after.current_player == 0

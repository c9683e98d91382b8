"""Scenario tests of UNO FLIP!, one or more per rule id (``R-FLIP-…``), each with what the rule
allows and what it refuses. Games are dealt from arranged decks of two-faced cards (written light
face first, ``R1/P3``; the fixed pairing of R-FLIP-PAIR): dealer 0, seat 1 plays first. A position
on the dark side is arranged with ``dark()`` (the side turned, the colour of the top face)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from unorules_flip import DARK, FIXED_PAIRING, LIGHT, deck

from unorules import Card, GameState, IllegalActionError, Ruleset, RulesetError
from unorules.narrate import Narrator
from unorules.testing import arrange_deck, rearranged

# Fillers that match neither a red card nor a 5 on the light side.
F0 = "Y1/PSE Y2/T1 Y3/P+5 Y4/P+5 Y7/O2 Y8/O2 Y+1/P1"
F2 = "B1/VSE B2/O8 B3/V8 B4/V1 B7/O3 B8/T4 B+1/P6"
F3 = "G1/O5 G2/T+5 G3/PF G4/P8 G7/O6 G8/PR G+1/O6"
STARTER = "R5/P2"


def game(
    hands: Sequence[str],
    starter: str = STARTER,
    draw: str = "",
    options: Mapping[str, Any] | None = None,
) -> GameState:
    rules = Ruleset.from_names(["flip"], options=options)
    return rules.new_game(players=len(hands), seed=1, deck=arrange_deck(hands, starter, draw), dealer=0)


def dark(state: GameState) -> GameState:
    """``state`` with every card turned to its dark face (the colour: the top face's)."""
    turned = state.replace(side=1)
    return turned.replace(color=turned.face(turned.top_card).color)


def legal(state: GameState, seat: int | None = None) -> set[str]:
    seat = state.current_player if seat is None else seat
    return {str(a).partition(": ")[2] for a in state.legal_actions(seat)}


def faces(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def play(state: GameState, *actions: str) -> GameState:
    for action in actions:
        state = state.apply(action)
    return state


def refused(state: GameState, action: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    return caught.value


# -- R-FLIP-DECK, R-FLIP-PAIR ----------------------------------------------------------------------


def test_r_flip_deck_112_two_faced_cards_no_zeros_the_kinds_of_each_side() -> None:
    cards = Ruleset.from_names(["flip"]).deck
    assert len(cards) == 112
    assert all(len(c.faces) == 2 for c in cards)
    light = Counter(str(c.faces[0]) for c in cards)
    dark_faces = Counter(str(c.faces[1]) for c in cards)
    for color in "RYGB":
        assert [light[f"{color}{k}"] for k in ("1", "9", "+1", "S", "R", "F", "0")] == [2, 2, 2, 2, 2, 2, 0]
    for color in "PTOV":
        assert [dark_faces[f"{color}{k}"] for k in ("1", "9", "+5", "SE", "R", "F", "0")] == [
            2,
            2,
            2,
            2,
            2,
            2,
            0,
        ]
    assert (light["W"], light["W+2"], dark_faces["W"], dark_faces["W+C"]) == (4, 4, 4, 4)
    assert sum(light.values()) == sum(dark_faces.values()) == 112


def test_r_flip_deck_a_card_not_in_it_is_refused() -> None:
    with pytest.raises(RulesetError, match="does not hold"):
        Ruleset.from_names(["flip"]).new_game(players=2, deck=["R0/P1"], dealer=0)


def test_r_flip_pair_fixed_is_the_published_table_each_dark_face_twice() -> None:
    cards = deck("fixed")
    assert Card.parse("R3/W+C") in cards
    assert cards.count(Card.parse("B1/VSE")) == 2
    dark_faces = Counter(c.faces[1] for c in cards)
    assert {n for f, n in dark_faces.items() if f.color is not None} == {2}
    assert {n for f, n in dark_faces.items() if f.color is None} == {4}
    entries = [e for line in FIXED_PAIRING.split("\n") for e in line.split(" · ") if e.strip()]
    assert len(entries) == 54  # 52 coloured light faces and the two wilds


def test_r_flip_pair_seeded_keeps_each_side_and_draws_the_pairing_from_its_seed() -> None:
    fixed = deck("fixed")
    seeded = deck("seeded", 3)
    assert seeded != fixed
    assert Counter(c.faces[0] for c in seeded) == Counter(c.faces[0] for c in fixed)
    assert Counter(c.faces[1] for c in seeded) == Counter(c.faces[1] for c in fixed)
    assert deck("seeded", 3) == seeded  # the same seed, the same pairing
    assert deck("seeded", 4) != seeded
    rules = Ruleset.from_names(["flip"], options={"flip_pairing": "seeded", "flip_pairing_seed": 3})
    assert list(rules.deck) == seeded
    with pytest.raises(RulesetError, match="flip_pairing"):
        Ruleset.from_names(["flip"], options={"flip_pairing": "shuffled"})


# -- R-FLIP-SETUP, R-FLIP-VIEW ---------------------------------------------------------------------


def test_r_flip_setup_light_faces_up_to_start() -> None:
    state = game([F0, "R1/P3 G5/O7 B5/OR Y5/V9 RR/V3 RF/P8 W/P5", F2], draw="G9/O+5")
    assert state.side == 0
    view = state.view(1)
    assert faces(view.hand) == ["R1", "G5", "B5", "Y5", "RR", "RF", "W"]
    assert str(view.top_card) == "R5"
    assert str(view.draw_pile_back) == "O+5"  # the draw pile lies light face down: its dark face shows
    assert all(c.color in LIGHT or c.color is None for c in view.hand)


def test_r_flip_setup_the_dealer_is_drawn_on_light_faces() -> None:
    rules = Ruleset.from_names(["flip"])
    dealers = {rules.new_game(players=4, seed=s).dealer for s in range(12)}
    assert dealers <= {0, 1, 2, 3}
    assert len(dealers) > 1


def test_r_flip_view_other_hands_show_their_backs_own_hand_only_its_faces() -> None:
    state = game([F0, "R1/P3 G5/O7 B5/OR Y5/V9 RR/V3 RF/P8 W/P5", F2])
    view = state.view(0)
    assert faces(view.hand) == ["Y1", "Y2", "Y3", "Y4", "Y7", "Y8", "Y+1"]
    assert faces(view.backs[1]) == ["P3", "O7", "OR", "V9", "V3", "P8", "P5"]  # in hand order
    assert faces(view.backs[2]) == ["VSE", "O8", "V8", "V1", "O3", "T4", "P6"]
    assert 0 not in view.backs  # its own backs: hidden
    assert "P3" not in view.to_json().replace('"backs"', "")[: view.to_json().index('"backs"')]
    spectator = state.public_view()
    assert spectator.backs == {}
    assert spectator.hand == ()


def test_r_flip_view_own_backs_shown_with_the_option() -> None:
    state = game([F0, "R1/P3 G5/O7 B5/OR Y5/V9 RR/V3 RF/P8 W/P5", F2], options={"flip_own_backs": "shown"})
    view = state.view(1)
    assert faces(view.backs[1]) == ["P3", "O7", "OR", "V9", "V3", "P8", "P5"]
    assert set(state.public_view().backs) == {0, 1, 2}


def test_r_flip_view_an_action_names_the_face_never_the_back() -> None:
    state = game([F0, "R1/P3 R1/V2 B5/OR Y5/V9 RR/V3 RF/P8 W/P5", F2])
    assert {"play R1", "play R1#2"} <= legal(state)
    assert refused(state, "1: play R1/P3").rule == "R-FLIP-VIEW"
    after = state.apply("1: play R1#2")
    assert faces(after.hands[1][:1]) == ["R1/P3"]  # the second R1 (R1/V2) was laid
    assert str(after.top_card) == "R1/V2"
    assert refused(state, "1: play R1#3").rule == "R-FLIP-MATCH"


# -- R-FLIP-MATCH ----------------------------------------------------------------------------------


def test_r_flip_match_colour_number_or_symbol_of_the_faces_in_play() -> None:
    state = game([F0, "R1/P3 G5/O7 B2/P6 Y3/V1 GF/T3 BS/P9 W/P5", F2])
    assert legal(state) == {"play R1", "play G5", "draw"} | {f"play W {c}" for c in "RYGB"}
    # B2/P6 and Y3/V1 match nothing on the light side, whatever their dark faces
    assert refused(state, "1: play B2").rule == "R-FLIP-MATCH"
    on_flip = rearranged(state, top="RF/P8")
    assert "play GF" in legal(on_flip)  # a Flip on a Flip


def test_r_flip_match_on_the_dark_side_the_dark_faces_play() -> None:
    state = dark(game([F0, "R1/P3 G5/O7 B2/P6 Y3/V1 GF/T3 BS/P9 W/P5", F2]))
    # the top shows P2 (pink): pink faces and 2s play
    assert str(state.face(state.top_card)) == "P2"
    assert legal(state) == {"play P3", "play P6", "play P9", "play P5", "draw"}
    assert refused(state, "1: play R1").rule == "R-FLIP-MATCH"  # a light face is not in play


# -- R-FLIP-D1, R-FLIP-D5 --------------------------------------------------------------------------


def test_r_flip_d1_draw_one_makes_the_next_seat_draw_one_and_lose_the_turn() -> None:
    state = game([F0, "R+1/P3 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2]).apply("1: play R+1")
    assert (state.current_player, state.phase.name, state.phase.count) == (2, "penalty", 1)
    assert legal(state) == {"draw"}
    assert refused(state, "2: play B1").rule == "R-FLIP-D1"
    state = state.apply("2: draw")
    assert (len(state.hands[2]), state.current_player) == (8, 0)


def test_r_flip_d5_draw_five_on_the_dark_side() -> None:
    state = dark(game([F0, "R2/V+5 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2], starter="R7/V5"))
    state = state.apply("1: play V+5")
    assert (state.current_player, state.phase.count) == (2, 5)
    state = state.apply("2: draw")
    assert (len(state.hands[2]), state.current_player) == (12, 0)


# -- R-FLIP-SE, R-FLIP-REV-SKIP --------------------------------------------------------------------


def test_r_flip_se_skip_everyone_its_player_plays_again() -> None:
    state = dark(game([F0, "Y6/OSE G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2], starter="R2/OR"))
    state = state.apply("1: play OSE")
    assert (state.current_player, state.phase.name) == (1, "play")
    assert refused(state, "2: draw").rule == "R-FLIP-MATCH"


def test_r_flip_rev_skip_reverse_and_skip_as_classic() -> None:
    hands = [F0, "RR/V3 RS/O+5 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2, F3]
    reversed_ = game(hands).apply("1: play RR")
    assert (reversed_.direction, reversed_.current_player) == (-1, 0)
    skipped = game(hands).apply("1: play RS")
    assert (skipped.direction, skipped.current_player) == (1, 3)


# -- R-FLIP-WILD, R-FLIP-WD2, R-FLIP-WDC -----------------------------------------------------------


def test_r_flip_wild_names_a_colour_of_the_side_in_play() -> None:
    state = game([F0, "W/P5 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2])
    assert {f"play W {c}" for c in "RYGB"} <= legal(state)
    assert refused(state, "1: play W P").rule == "R-FLIP-WILD"
    assert str(state.apply("1: play W Y").color) == "Y"
    on_dark = dark(game([F0, "BR/W G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2]))
    assert {f"play W {c}" for c in "PTOV"} <= legal(on_dark)
    assert refused(on_dark, "1: play W R").rule == "R-FLIP-WILD"


def test_r_flip_wd2_the_next_seat_draws_two_unless_it_challenges() -> None:
    state = game([F0, "W+2/O4 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2]).apply("1: play W+2 G")
    assert (state.current_player, state.phase.name) == (2, "challenge")
    assert legal(state) == {"challenge", "accept"}
    state = state.apply("2: accept")
    assert (len(state.hands[2]), state.current_player, str(state.color)) == (9, 0, "G")


def test_r_flip_wd2_without_challenges_it_is_legal_only_without_the_current_colour() -> None:
    options = {"challenge": "off"}
    holding_red = game([F0, "W+2/O4 R1/P3 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2], options=options)
    assert not any(a.startswith("play W+2") for a in legal(holding_red))
    assert refused(holding_red, "1: play W+2 G").rule == "R-FLIP-WD2"
    no_red = game([F0, "W+2/O4 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2], options=options)
    state = no_red.apply("1: play W+2 G")
    assert (state.phase.name, state.phase.count) == ("penalty", 2)


def wdc_game(options: Mapping[str, Any] | None = None) -> GameState:
    """The dark side; seat 1 holds a Wild Draw Colour; the draw pile shows P3, W, T6, O8 next."""
    hands = [F0, "R3/W+C G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2]
    return dark(game(hands, draw="R1/P3 RS/W G+1/T6 YF/O8", options=options))


def test_r_flip_wdc_the_next_seat_draws_until_the_colour_named_a_wild_does_not_stop_it() -> None:
    state = wdc_game().apply("1: play W+C T")
    assert (state.phase.name, str(state.color)) == ("challenge", "T")
    state = state.apply("2: accept")
    assert faces(state.hands[2][-3:]) == ["R1/P3", "RS/W", "G+1/T6"]  # P3, the wild W, then teal: stop
    assert (state.current_player, str(state.color)) == (0, "T")
    event = next(e for e in state.events if e.kind == "draw-color")
    assert (event.count, str(event.color)) == (3, "T")


def test_r_flip_wdc_the_cap_stops_the_draw() -> None:
    state = wdc_game({"flip_draw_color_cap": 2}).apply("1: play W+C T").apply("2: accept")
    assert len(state.hands[2]) == 9
    assert state.current_player == 0


def test_r_flip_wdc_without_challenges_a_bluff_is_refused() -> None:
    hands = [F0, "R3/W+C G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2]
    state = dark(game(hands, options={"challenge": "off"}))  # pink on top; seat 1 holds P6, P9
    assert not any(a.startswith("play W+C") for a in legal(state))
    assert refused(state, "1: play W+C T").rule == "R-FLIP-WDC"


# -- R-FLIP-CHALLENGE ------------------------------------------------------------------------------


def test_r_flip_challenge_a_guilty_wild_draw_two_costs_its_player_two() -> None:
    state = game([F0, "W+2/O4 R1/P3 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2]).apply("1: play W+2 G")
    state = state.apply("2: challenge")  # seat 1 held a red card: guilty
    assert len(state.hands[1]) == 8
    assert (state.current_player, state.phase.name, str(state.color)) == (2, "play", "G")
    event = next(e for e in state.events if e.kind == "challenge")
    assert event.value("guilty") is True
    assert faces(state.view(2).events[0].cards)[:2] == ["R1", "B2"]  # the challenger sees the faces
    assert state.view(0).events[0].cards == ()  # the others see nothing


def test_r_flip_challenge_an_innocent_wild_draw_two_costs_the_challenger_four() -> None:
    state = game([F0, "W+2/O4 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2]).apply("1: play W+2 G")
    state = state.apply("2: challenge")
    assert len(state.hands[2]) == 11
    assert state.current_player == 0


def test_r_flip_challenge_wild_draw_colour_guilty_and_innocent() -> None:
    guilty = wdc_game().apply("1: play W+C T").apply("2: challenge")  # seat 1 held P6 and P9
    assert faces(guilty.hands[1][-3:]) == ["R1/P3", "RS/W", "G+1/T6"]
    assert guilty.current_player == 2
    hands = [F0, "R3/W+C G7/T2 B5/OR Y3/V1 GF/T3 B8/TR G9/O+5", F2]
    innocent = dark(game(hands, draw="R1/P3 RS/W G+1/T6 YF/O8 Y9/T5 R7/O1"))
    assert str(innocent.face(innocent.top_card)) == "P2"  # seat 1 holds no pink face
    innocent = innocent.apply("1: play W+C T").apply("2: challenge")
    assert len(innocent.hands[2]) == 7 + 3 + 2  # to the colour, then 2 more
    assert innocent.current_player == 0


def test_r_flip_challenge_an_accepted_wild_is_told_by_its_face_and_player() -> None:
    accepted = wdc_game().apply("1: play W+C T").apply("2: accept")
    (event,) = [e for e in accepted.events if e.kind == "accept"]
    assert (event.seat, event.target, event.rule) == (2, 1, "R-FLIP-CHALLENGE")
    assert [str(accepted.face(c)) for c in event.cards] == ["W+C"]
    words = [str(s) for s in Narrator(accepted.ruleset, 0, ["Ann", "Bob", "Cy"]).view(accepted.view(0))]
    assert words[0] == "Cy accepted Bob's Wild Draw Colour"
    assert "Cy drew them one card at a time, looking for teal" in words
    challenged = wdc_game().apply("1: play W+C T").apply("2: challenge")
    assert not [e for e in challenged.events if e.kind == "accept"]
    told = [str(s) for s in Narrator(challenged.ruleset, 2, ["Ann", "Bob", "Cy"]).view(challenged.view(2))]
    assert told[0].startswith("you challenged Bob's wild draw card, seeing ")
    assert told[0].endswith(": it was a bluff")


# -- R-FLIP-FLIP -----------------------------------------------------------------------------------


def flip_game(
    options: Mapping[str, Any] | None = None, starter: str = STARTER, flip: str = "RF/P8"
) -> GameState:
    hands = [F0, f"{flip} R1/P3 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2]
    return game(hands, starter=starter, draw="Y9/V4 B9/O5 G7/T2", options=options)


def test_r_flip_flip_turns_the_discard_pile_the_draw_pile_and_every_hand_over() -> None:
    before = flip_game()
    pile = before.draw_pile
    state = before.apply("1: play RF")
    assert state.side == 1
    assert faces(state.discard_pile) == ["RF/P8", "R5/P2"]  # turned over: the bottom card on top
    assert str(state.face(state.top_card)) == "P2"
    assert (str(state.color), state.current_player) == ("P", 2)
    assert state.draw_pile == pile[::-1]
    assert faces(state.view(1).hand) == ["P3", "P6", "V1", "T3", "P9", "O+5"]
    assert faces(state.view(0).backs[1]) == ["R1", "B2", "Y3", "GF", "BS", "G9"]
    event = next(e for e in state.events if e.kind == "flip")
    assert event.value("side") == "dark"


def test_r_flip_flip_the_card_exposed_was_not_played_its_action_never_happens() -> None:
    state = flip_game(starter="R4/V+5").apply("1: play RF")
    assert str(state.face(state.top_card)) == "V+5"
    assert (state.current_player, state.phase.name) == (2, "play")  # nobody draws five


def test_r_flip_flip_an_exposed_wild_is_named_by_the_flips_player() -> None:
    state = flip_game(starter="Y1/W", flip="YF/O8").apply("1: play YF")
    assert (state.phase.name, state.current_player, state.color) == ("flip-color", 1, None)
    assert legal(state) == {f"color {c}" for c in "PTOV"}
    state = state.apply("1: color T")
    assert (str(state.color), state.current_player) == ("T", 2)


def test_r_flip_flip_keep_mapped_maps_the_colour_across() -> None:
    state = flip_game({"flip_exposed_wild": "keep-mapped"}, starter="Y1/W", flip="YF/O8")
    state = state.apply("1: play YF")
    assert (str(state.color), state.current_player) == ("O", 2)  # yellow maps to orange


def test_r_flip_flip_top_only_keeps_the_pile_in_order() -> None:
    state = flip_game({"flip_discard": "top-only"}).apply("1: play RF")
    assert faces(state.discard_pile) == ["R5/P2", "RF/P8"]
    assert (str(state.face(state.top_card)), str(state.color)) == ("P8", "P")


def test_r_flip_flip_back_to_light() -> None:
    state = flip_game().apply("1: play RF")
    state = rearranged(state, hands={2: "G3/PF B2/O8"})
    back = state.apply("2: play PF")
    assert back.side == 0
    assert str(back.face(back.top_card)) == "RF"  # the first card laid since the deal
    assert str(back.color) == "R"


# -- R-FLIP-RESHUFFLE ------------------------------------------------------------------------------


def test_r_flip_reshuffle_keeps_the_top_card_and_turns_the_rest_into_the_draw_pile() -> None:
    state = game([F0, "B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5 B3/T2 G4/T9", F2])
    state = state.replace(draw_pile=(), discard_pile=state.draw_pile + state.discard_pile)
    state = state.apply("1: draw")
    assert any(e.kind == "reshuffle" for e in state.events)
    assert faces(state.discard_pile) == [STARTER]


# -- R-FLIP-STARTER --------------------------------------------------------------------------------


def test_r_flip_starter_draw_one_hits_the_first_player() -> None:
    state = game([F0, "B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5 B3/T2 G4/T9", F2], starter="R+1/P3")
    assert (state.current_player, state.phase.name, state.phase.count) == (1, "penalty", 1)


def test_r_flip_starter_a_wild_draw_two_is_returned() -> None:
    state = game([F0, "B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5 B3/T2 G4/T9", F2], starter="W+2/O4", draw="G6/P5")
    returned = next(e for e in state.events if e.kind == "starter-returned")
    assert faces(returned.cards)[0] == "W+2/O4"
    assert state.face(state.top_card).kind != "W+2"
    assert len(state.discard_pile) == 1


def test_r_flip_starter_reverse_lets_the_dealer_start_going_right() -> None:
    state = game([F0, "B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5 B3/T2 G4/T9", F2], starter="RR/V3")
    assert (state.current_player, state.direction) == (0, -1)


@pytest.mark.parametrize(
    ("opening", "side", "top"), [("redraw", 0, None), ("flip", 1, "P8"), ("plain", 0, "RF")]
)
def test_r_flip_starter_a_flip_to_start(opening: str, side: int, top: str | None) -> None:
    hands = [F0, "B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5 B3/T2 G4/T9", F2]
    state = game(hands, starter="RF/P8", draw="G6/P5", options={"flip_opening": opening})
    assert state.side == side
    shown = state.face(state.top_card)
    if top is None:  # returned like a Wild Draw Two, another card turned up
        assert shown.kind != "F"
        assert any(e.kind == "starter-returned" for e in state.events)
    else:  # it stays (flipped or not) with no other effect
        assert str(shown) == top
        assert (state.current_player, state.phase.name) == (1, "play")


# -- R-FLIP-OUT, R-FLIP-SCORE ----------------------------------------------------------------------


def test_r_flip_out_after_a_last_draw_one_the_next_seat_still_draws_and_it_scores() -> None:
    state = game([F0, "R+1/P3 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2], draw="G5/T4")
    state = rearranged(state, hands={1: "R+1/P3"}, draw="G5/T4").apply("1: play R+1")
    assert state.rounds[0].winner == 1
    assert faces(state.rounds[0].hands[2])[-1] == "G5/T4"
    # F0 (1+2+3+4+7+8+10) and F2 with the G5 (1+2+3+4+7+8+10+5)
    assert state.rounds[0].points[1] == 35 + 40


@pytest.mark.parametrize(("option", "points"), [("no-flip", 35 + 35), ("flips", 0)])
def test_r_flip_out_a_last_flip(option: str, points: int) -> None:
    state = game([F0, "RF/P8 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2], options={"flip_last_card": option})
    state = rearranged(state, hands={1: "RF/P8"}).apply("1: play RF")
    assert state.rounds[0].winner == 1
    if option == "flips":  # scored on the dark side
        dark_points = {"PSE": 30, "T1": 1, "P+5": 20, "O2": 2, "P1": 1, "VSE": 30, "O8": 8, "V8": 8}
        dark_points |= {"V1": 1, "O3": 3, "T4": 4, "P6": 6}
        points = sum(dark_points[str(c.faces[1])] for s in (0, 2) for c in state.rounds[0].hands[s])
    assert state.rounds[0].points[1] == points


def test_r_flip_score_by_the_faces_in_play() -> None:
    state = dark(game([F0, "R1/P3 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2]))
    state = rearranged(state, hands={1: "R1/P3", 0: "R3/W+C G6/W+C", 2: "Y6/OSE B1/VSE"})
    state = state.replace(color=DARK[0]).apply("1: play P3")
    assert state.rounds[0].points[1] == 60 + 60 + 30 + 30  # W+C 60, Skip Everyone 30 (dark faces)


def test_r_flip_score_a_light_round_scores_light_faces() -> None:
    state = game([F0, "R1/P3 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5", F2])
    state = rearranged(state, hands={1: "R1/P3", 0: "W/P5 W+2/O4", 2: "RS/O+5 GF/W+C"}).apply("1: play R1")
    assert state.rounds[0].points[1] == 40 + 50 + 20 + 20


# -- R-FLIP-2P -------------------------------------------------------------------------------------


def test_r_flip_2p_reverse_and_skip_everyone_act_as_skips_and_a_draw_card_lets_its_player_play_again() -> (
    None
):
    reverse = game([F0, "RR/V3 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5"]).apply("1: play RR")
    assert reverse.current_player == 1
    skip_all = dark(game([F0, "Y6/OSE G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5"], starter="R2/OR"))
    assert skip_all.apply("1: play OSE").current_player == 1
    draw_one = game([F0, "R+1/P3 G7/T2 B2/P6 Y3/V1 GF/T3 BS/P9 G9/O+5"]).apply("1: play R+1")
    assert draw_one.apply("0: draw").current_player == 1


def test_stacking_is_refused_with_flip() -> None:
    with pytest.raises(RulesetError, match="stacking is not defined"):
        Ruleset.from_names(["flip", "stacking"])

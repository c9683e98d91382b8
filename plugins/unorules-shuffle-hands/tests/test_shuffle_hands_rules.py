"""Scenario tests for the Shuffle Hands wild (R-SHUFFLE), each built from an arranged deck."""

from __future__ import annotations

from collections import Counter

import pytest
from unorules_shuffle_hands import SHUFFLE_HANDS

import unorules
from unorules import Card, Color, GameState, Ruleset, RulesetError
from unorules.testing import arrange_deck, rearranged

RULES = Ruleset.from_names(["classic", "shuffle-hands"])

SEAT0 = "R1 R2 R3 R4 R5 R6 R7"
SEAT1 = "SH G1 G2 G3 G4 G5 G6"
SEAT2 = "B1 B2 B3 B4 B5 B6 B7"


def game(hands: list[str], starter: str = "Y5", draw: str = "", dealer: int = 0) -> GameState:
    deck = arrange_deck(hands, starter, draw=draw, dealer=dealer)
    return RULES.new_game(players=len(hands), seed=1, deck=deck, dealer=dealer)


def all_hand_cards(state: GameState) -> Counter[Card]:
    return Counter(c for hand in state.hands for c in hand)


def test_r_shuffle_notation_round_trips() -> None:
    assert Card.parse("SH") is SHUFFLE_HANDS
    assert Card.parse("sh") is SHUFFLE_HANDS
    assert str(SHUFFLE_HANDS) == "SH"
    assert SHUFFLE_HANDS.is_wild
    assert SHUFFLE_HANDS.name == "Shuffle Hands"
    assert str(unorules.Action.parse("1: play sh y")) == "1: play SH Y"


def test_r_deck_112_shuffle_hands_adds_one_card_worth_40() -> None:
    assert len(RULES.deck) == 109
    assert RULES.deck.count(SHUFFLE_HANDS) == 1
    assert RULES.card_points(SHUFFLE_HANDS) == 40  # R-SCORE
    assert not RULES.needs_target(SHUFFLE_HANDS)


def test_r_shuffle_gathers_shuffles_and_redeals_every_hand() -> None:
    state = game([SEAT0, SEAT1, SEAT2])
    before = all_hand_cards(state) - Counter([SHUFFLE_HANDS])
    after = state.apply("1: play SH Y")
    assert all_hand_cards(after) == before  # every card of every hand, no other
    # 20 cards dealt one at a time from seat 2 (left of seat 1): 7, 7 and 6.
    assert [len(h) for h in after.hands] == [7, 6, 7]
    assert after.hands != state.hands
    assert after.rng != state.rng  # the game's generator shuffled
    assert after.color is Color.YELLOW
    assert after.current_player == 2
    assert [e.kind for e in after.events if e.rule == "R-SHUFFLE"] == ["shuffle-hands"]
    # The same game and action shuffle the same way.
    assert game([SEAT0, SEAT1, SEAT2]).apply("1: play SH Y") == after


def test_r_shuffle_deals_from_the_players_left_so_hand_sizes_change() -> None:
    state = rearranged(game([SEAT0, SEAT1, SEAT2]), hands={0: "R1 R2 R3", 1: "SH G1", 2: "B1"})
    after = state.apply("1: play SH G")
    # Five cards dealt to seats 2, 0, 1, 2, 0.
    assert [len(h) for h in after.hands] == [2, 1, 2]
    assert all_hand_cards(after) == Counter(unorules.parse_cards("R1 R2 R3 G1 B1"))
    # Against the direction of play, the deal still starts on the left (seat 2);
    # play continues in the same direction, to seat 0.
    reversed_play = state.replace(direction=-1).apply("1: play SH G")
    assert [len(h) for h in reversed_play.hands] == [2, 1, 2]
    assert reversed_play.current_player == 0
    assert reversed_play.direction == -1


def test_r_shuffle_skips_seats_that_left_the_game() -> None:
    hands = [SEAT0, SEAT1, SEAT2, "Y1 Y2 Y3 Y4 Y6 Y7 Y8"]
    state = game(hands).replace(left=(2,))
    after = state.apply("1: play SH R")
    assert after.hands[2] == state.hands[2]
    assert [len(after.hands[s]) for s in (0, 1, 3)] == [7, 6, 7]  # dealt to 3, 0, 1, 3, ...
    assert after.current_player == 3


def test_r_setup_starter_shuffle_hands_first_player_names_the_colour_and_nothing_is_shuffled() -> None:
    state = game([SEAT0, "G1 G2 G3 G4 G5 G6 G7", SEAT2], starter="SH")
    assert state.top_card is SHUFFLE_HANDS
    assert state.phase.name == "color"
    assert state.current_player == 1
    named = state.apply("1: color R")
    assert named.hands == state.hands
    assert named.rng == state.rng
    assert named.color is Color.RED
    assert (named.current_player, named.phase.name) == (1, "play")


def test_r_shuffle_as_the_last_card_ends_the_round_and_nothing_is_shuffled() -> None:
    state = rearranged(game([SEAT0, SEAT1, SEAT2]), hands={1: "SH"})
    after = state.apply("1: play SH B")
    result = after.rounds[-1]
    assert (result.winner, result.reason) == (1, "out")
    assert (result.hands[0], result.hands[2]) == (state.hands[0], state.hands[2])
    assert not any(e.rule == "R-SHUFFLE" for e in after.events)


def test_r_shuffle_with_two_players() -> None:
    state = game(["SH R1 R2 R3 R4 R5 R6", "B1 B2 B3 B4 B5 B6 B7"], dealer=1)
    after = state.apply("0: play SH G")
    # 13 cards dealt to seats 1, 0, 1, ...: seat 1 gets 7, seat 0 gets 6.
    assert [len(h) for h in after.hands] == [6, 7]
    assert all_hand_cards(after) == all_hand_cards(state) - Counter([SHUFFLE_HANDS])
    assert after.current_player == 1


def test_r_shuffle_drawn_after_a_reshuffle_is_played_at_once() -> None:
    state = game([SEAT0, "G1 G2 G3 G4 G5 G6 G7", SEAT2])
    rest = [c for c in state.draw_pile if c is not SHUFFLE_HANDS]
    state = state.replace(
        draw_pile=(),
        discard_pile=(SHUFFLE_HANDS, state.top_card),
        hands=(state.hands[0], state.hands[1], state.hands[2] + tuple(rest)),
    )
    drawn = state.apply("1: draw")
    assert any(e.kind == "reshuffle" for e in drawn.events)
    assert drawn.phase.card is SHUFFLE_HANDS
    total = sum(len(h) for h in drawn.hands) - 1
    after = drawn.apply("1: play SH R")
    assert sum(len(h) for h in after.hands) == total
    assert [len(h) for h in after.hands] == [total // 3 + (total % 3 > 1), total // 3, total // 3 + 1]


def test_r_uno_catch_only_a_player_dealt_one_card_stays_exposed_after_a_shuffle() -> None:
    state = rearranged(game([SEAT0, SEAT1, SEAT2]), hands={1: "SH G1"})
    after = state.apply("1: play SH G")  # next-to-last card played without UNO
    assert len(after.hands[1]) > 1
    assert after.uno_exposed == ()
    # Three cards left in all: one each, so seat 1 still holds one card uncalled.
    small = rearranged(game([SEAT0, SEAT1, SEAT2]), hands={0: "R1", 1: "SH G1", 2: "B1"})
    after = small.apply("1: play SH G")
    assert [len(h) for h in after.hands] == [1, 1, 1]
    assert after.uno_exposed == (1,)


def test_r_shuffle_refuses_swap_hands_unless_both_cards_are_wanted() -> None:
    with pytest.raises(RulesetError, match="with_swap_hands"):
        Ruleset.from_names(["classic", "swap-hands", "shuffle-hands"])
    both = Ruleset.from_names(["classic", "swap-hands", "shuffle-hands"], options={"with_swap_hands": "on"})
    assert len(both.deck) == 110
    assert {str(c) for c in both.deck if c.kind in ("SW", "SH")} == {"SW", "SH"}
    deck = arrange_deck([SEAT0, "SW SH G1 G2 G3 G4 G5", "G9 B2 B3 B4 B5 B6 B7"], "Y5")
    state = both.new_game(players=3, seed=1, deck=deck, dealer=0)
    swapped = state.apply("1: play SW G 0")
    assert swapped.hands[0] == unorules.parse_cards("SH G1 G2 G3 G4 G5")
    shuffled = swapped.apply("2: play G9").apply("0: play SH R")
    assert sum(len(h) for h in shuffled.hands) == 7 + 5 + 6
    assert any(e.rule == "R-SHUFFLE" for e in shuffled.events)


def test_r_shuffle_state_round_trips_through_json() -> None:
    after = game([SEAT0, SEAT1, SEAT2]).apply("1: play SH Y")
    again = GameState.from_json(after.to_json())
    assert again == after
    assert again.apply("2: draw") == after.apply("2: draw")

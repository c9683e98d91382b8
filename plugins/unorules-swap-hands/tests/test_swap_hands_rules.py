"""Scenario tests for the Swap Hands wild (R-SWAP), each built from an arranged deck."""

from __future__ import annotations

import pytest
from unorules_swap_hands import SWAP_HANDS, swap_hands

import unorules
from unorules import Card, GameState, IllegalActionError, Ruleset
from unorules.testing import arrange_deck, draft_of, rearranged

RULES = Ruleset.from_names(["classic", "swap-hands"])

SEAT0 = "R1 R2 R3 R4 R5 R6 R7"
SEAT1 = "SW G1 G2 G3 G4 G5 G6"
SEAT2 = "B1 B2 B3 B4 B5 B6 B7"


def cards(text: str) -> tuple[Card, ...]:
    return unorules.parse_cards(text)


def game(hands: list[str], starter: str = "Y5", draw: str = "", dealer: int = 0) -> GameState:
    deck = arrange_deck(hands, starter, draw=draw, dealer=dealer)
    return RULES.new_game(players=len(hands), seed=1, deck=deck, dealer=dealer)


def test_r_swap_notation_round_trips() -> None:
    assert Card.parse("SW") is SWAP_HANDS
    assert Card.parse("sw") is SWAP_HANDS
    assert str(SWAP_HANDS) == "SW"
    assert SWAP_HANDS.is_wild
    assert SWAP_HANDS.name == "Swap Hands"
    action = unorules.Action.parse("1: play SW G 0")
    assert str(action) == "1: play SW G 0"
    assert action.target == 0


def test_r_deck_112_swap_hands_adds_one_card() -> None:
    assert len(RULES.deck) == 109
    assert RULES.deck.count(SWAP_HANDS) == 1


def test_r_score_swap_hands_is_worth_40() -> None:
    assert RULES.card_points(SWAP_HANDS) == 40


def test_r_swap_trades_whole_hands_with_the_chosen_seat_and_names_the_colour() -> None:
    state = game([SEAT0, SEAT1, SEAT2])
    assert state.current_player == 1
    after = state.apply("1: play SW G 0")
    assert after.hands[1] == cards(SEAT0)
    assert after.hands[0] == cards(SEAT1)[1:]
    assert after.hands[2] == cards(SEAT2)
    assert after.color is unorules.Color.GREEN
    assert after.top_card is SWAP_HANDS
    assert after.current_player == 2  # the turn passes on as after any wild
    assert [e.kind for e in after.events if e.rule == "R-SWAP"] == ["swap-hands"]
    (event,) = (e for e in after.events if e.kind != "move")  # the card movements are recorded apart
    assert (event.seat, event.target, event.detail) == (
        1,
        0,
        "seat 1 (7 cards) and seat 0 (6 cards) traded hands",
    )
    assert event.data == (("given", 6), ("received", 7))
    # The event is shared by every swap alike; the helper trades on a draft.
    assert tuple(e for e in state.apply("1: play SW R 0").events if e.kind != "move") == (event,)
    draft = draft_of(state)
    swap_hands(draft, 1, 2)
    moved = draft.freeze()
    assert moved.hands == (state.hands[0], state.hands[2], state.hands[1])
    assert [e.detail for e in moved.events if e.kind != "move"] == [
        "seat 1 (7 cards) and seat 2 (7 cards) traded hands"
    ]


def test_r_swap_play_actions_name_every_colour_and_every_other_seat() -> None:
    state = game([SEAT0, SEAT1, SEAT2])
    swaps = {str(a) for a in state.legal_actions(1) if a.card is SWAP_HANDS}
    assert swaps == {f"1: play SW {c} {t}" for c in "RYGB" for t in (0, 2)}
    assert state.play_actions(1, SWAP_HANDS) == tuple(
        unorules.Action.parse(f"1: play SW {c} {t}") for c in "RYGB" for t in (0, 2)
    )


def test_r_swap_refuses_a_play_without_a_seat_or_with_its_own_seat() -> None:
    state = game([SEAT0, SEAT1, SEAT2])
    with pytest.raises(IllegalActionError, match="name the seat") as missing:
        state.apply("1: play SW G")
    assert missing.value.rule == "R-SWAP"
    with pytest.raises(IllegalActionError, match="cannot be swapped with") as own:
        state.apply("1: play SW G 1")
    assert own.value.rule == "R-SWAP"
    with pytest.raises(IllegalActionError) as other:
        state.apply("2: play SW G 0")  # not seat 2's turn, and seat 2 holds no SW
    assert other.value.rule != "R-SWAP"


def test_r_swap_skips_seats_that_left_the_game() -> None:
    state = game([SEAT0, SEAT1, SEAT2]).replace(left=(2,))
    targets = {a.target for a in state.legal_actions(1) if a.card is SWAP_HANDS}
    assert targets == {0}
    with pytest.raises(IllegalActionError) as refused:
        state.apply("1: play SW G 2")
    assert refused.value.rule == "R-SWAP"


def test_r_turn_wild_swap_hands_may_be_played_while_holding_a_matching_card() -> None:
    state = game([SEAT0, "SW Y1 G2 G3 G4 G5 G6", SEAT2])  # Y1 matches the yellow starter
    assert state.is_legal("1: play Y1")
    after = state.apply("1: play SW B 2")
    assert after.hands[1] == cards(SEAT2)
    assert after.color is unorules.Color.BLUE


def test_r_setup_starter_swap_hands_first_player_names_the_colour_and_nobody_swaps() -> None:
    state = game([SEAT0, "G1 G2 G3 G4 G5 G6 G7", SEAT2], starter="SW")
    assert state.top_card is SWAP_HANDS
    assert state.phase.name == "color"
    assert state.current_player == 1
    assert state.legal_actions() == tuple(unorules.Action.parse(f"1: color {c}") for c in "RYGB")
    named = state.apply("1: color B")
    assert named.color is unorules.Color.BLUE
    assert named.current_player == 1
    assert named.phase.name == "play"
    assert named.hands == state.hands  # the special action does not happen


def test_r_swap_as_the_last_card_ends_the_round_and_no_hands_move() -> None:
    state = rearranged(game([SEAT0, SEAT1, SEAT2]), hands={1: "SW"})
    others = (state.hands[0], state.hands[2])
    after = state.apply("1: play SW R 0")
    result = after.rounds[-1]
    assert result.winner == 1
    assert result.reason == "out"
    assert (result.hands[0], result.hands[2]) == others
    assert result.hands[1] == ()
    assert result.points[1] == RULES.hand_points(others[0] + others[1])
    assert not any(e.rule == "R-SWAP" for e in after.events)


def test_r_swap_with_two_players_trades_with_the_opponent() -> None:
    state = game(["SW R1 R2 R3 R4 R5 R6", "B1 B2 B3 B4 B5 B6 B7"], dealer=1)
    assert state.current_player == 0
    assert {a.target for a in state.legal_actions(0) if a.card is SWAP_HANDS} == {1}
    after = state.apply("0: play SW Y 1")
    assert after.hands == (cards("B1 B2 B3 B4 B5 B6 B7"), cards("R1 R2 R3 R4 R5 R6"))
    assert after.current_player == 1


def test_r_swap_drawn_after_a_reshuffle_is_played_at_once() -> None:
    state = game([SEAT0, "G1 G2 G3 G4 G5 G6 G7", SEAT2])
    # Empty the draw pile into seat 2's hand and bury Swap Hands in the discard
    # pile: seat 1's draw reshuffles it into a one-card draw pile.
    rest = [c for c in state.draw_pile if c is not SWAP_HANDS]
    state = state.replace(
        draw_pile=(),
        discard_pile=(SWAP_HANDS, state.top_card),
        hands=(state.hands[0], state.hands[1], state.hands[2] + tuple(rest)),
    )
    drawn = state.apply("1: draw")
    assert any(e.kind == "reshuffle" for e in drawn.events)
    assert drawn.phase.name == "drawn"
    assert drawn.phase.card is SWAP_HANDS
    after = drawn.apply("1: play SW R 0")
    assert after.hands[1] == cards(SEAT0)
    assert after.hands[0] == cards("G1 G2 G3 G4 G5 G6 G7")


def test_r_uno_catch_exposure_follows_the_cards_after_a_swap() -> None:
    base = game([SEAT0, SEAT1, SEAT2])
    # Seat 1 plays its next-to-last card without calling UNO, but swaps it away.
    state = rearranged(base, hands={1: "SW G1"})
    after = state.apply("1: play SW G 0")
    assert after.hands[0] == cards("G1")
    assert after.uno_exposed == ()  # seat 0 did not play down to one card
    assert not any(a.verb == "catch" for a in after.legal_actions())
    # Swapping with a seat that holds one card: the player holds one card again,
    # but not the one it played down to, so nobody can catch it (issue 12).
    state = rearranged(base, hands={1: "SW G1", 0: "R9"})
    after = state.apply("1: play SW G 0")
    assert after.hands[1] == cards("R9")
    assert after.uno_exposed == ()
    assert not any(a.verb == "catch" for a in after.legal_actions())
    # A seat outside the trade that is open to a catch stays open.
    exposed = after.replace(uno_exposed=(2,), hands=(after.hands[0], after.hands[1], cards("B1")))
    draft = draft_of(exposed)
    swap_hands(draft, 0, 1)
    assert (draft.hands[0], draft.hands[1]) == (exposed.hands[1], exposed.hands[0])
    assert draft.uno_exposed == (2,)


def test_r_swap_state_round_trips_through_json() -> None:
    after = game([SEAT0, SEAT1, SEAT2]).apply("1: play SW G 0")
    again = GameState.from_json(after.to_json())
    assert again == after
    assert again.legal_actions() == after.legal_actions()

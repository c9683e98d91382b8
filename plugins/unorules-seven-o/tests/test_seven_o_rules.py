"""Scenario tests of R-SEVEN-O, each built from an arranged deck (dealer 0, seat 1 plays first)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from unorules import Card, Event, GameState, IllegalActionError, Ruleset, RulesetError, parse_cards
from unorules.testing import arrange_deck, draft_of, rearranged

HANDS = [
    "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
    "R0 R7 R1 R2 R3 G1 G2",
    "B1 B2 B3 B4 B5 B6 B7",
    "G3 G4 G5 G6 G7 G8 G9",
]


def game(hands: Sequence[str] = HANDS, starter: str = "R5", draw: str = "") -> GameState:
    rules = Ruleset.from_names(["classic", "seven-o"])
    return rules.new_game(players=len(hands), deck=arrange_deck(hands, starter, draw), dealer=0)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def legal(state: GameState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def accounted(state: GameState) -> bool:
    every = Counter(state.draw_pile + state.discard_pile + sum(state.hands, ()))
    return every == Counter(state.ruleset.deck)


def test_r_seven_o_a_zero_passes_every_hand_to_the_next_seat() -> None:
    before = game()
    state = before.apply("1: play R0")
    assert state.hands[2] == cards("R7 R1 R2 R3 G1 G2")  # seat 1's hand, without the 0
    assert state.hands[3] == before.hands[2]
    assert state.hands[0] == before.hands[3]
    assert state.hands[1] == before.hands[0]
    assert state.current_player == 2  # then the turn passes as after any number card
    assert accounted(state)
    assert any(e.kind == "hands-moved" and e.rule == "R-SEVEN-O" for e in state.events)


def test_r_seven_o_a_zero_passes_hands_in_the_direction_of_play() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 R0", "RR R1 R2 R3 G1 G2 G3", HANDS[2], "G4 G5 G6 G7 G8 G9 B8"]
    state = game(hands).apply("1: play RR")
    assert (state.direction, state.current_player) == (-1, 0)
    before = state
    state = state.apply("0: play R0")  # to the right: 0 -> 3 -> 2 -> 1 -> 0
    assert state.hands[3] == cards("Y1 Y2 Y3 Y4 Y5 Y6")
    assert state.hands[2] == before.hands[3]
    assert state.hands[1] == before.hands[2]
    assert state.hands[0] == before.hands[1]
    assert state.current_player == 3


def test_r_seven_o_a_zero_skips_seats_that_have_left() -> None:
    state = game()
    # Seat 2 has left the game (as in an elimination tournament): its cards are out of play.
    state = state.replace(
        hands=state.hands[:2] + ((),) + state.hands[3:],
        draw_pile=state.draw_pile + state.hands[2],
        left=(2,),
    )
    before = state
    state = state.apply("1: play R0")
    assert state.hands[2] == ()
    assert state.hands[3] == cards("R7 R1 R2 R3 G1 G2")
    assert state.hands[0] == before.hands[3]
    assert state.hands[1] == before.hands[0]
    assert state.current_player == 3
    assert "1: play R7 3" in legal(before, 1)
    assert "1: play R7 2" not in legal(before, 1)  # nor may a 7 name a seat that has left


def test_r_seven_o_a_seven_trades_hands_with_the_seat_its_player_chooses() -> None:
    before = game()
    assert {"1: play R7 0", "1: play R7 2", "1: play R7 3"} <= legal(before, 1)
    state = before.apply("1: play R7 3")
    assert state.hands[3] == cards("R0 R1 R2 R3 G1 G2")
    assert state.hands[1] == before.hands[3]
    assert state.hands[0] == before.hands[0]
    assert state.hands[2] == before.hands[2]
    assert state.current_player == 2
    assert accounted(state)


def test_r_seven_o_a_seven_between_two_players_trades_the_two_hands() -> None:
    state = game(["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "R7 R1 R2 R3 G1 G2 G3"])
    assert legal(state, 1) >= {"1: play R7 0"}
    state = state.apply("1: play R7 0")
    assert state.hands[0] == cards("R1 R2 R3 G1 G2 G3")
    assert state.hands[1] == cards("Y1 Y2 Y3 Y4 Y5 Y6 Y7")
    assert state.current_player == 0


def test_r_seven_o_a_seven_must_name_another_seat_in_the_game() -> None:
    state = game()
    with pytest.raises(IllegalActionError, match="name one of seats 0, 2, 3") as caught:
        state.apply("1: play R7")
    assert caught.value.rule == "R-SEVEN-O"
    with pytest.raises(IllegalActionError) as caught:
        state.apply("1: play R7 1")
    assert caught.value.rule == "R-SEVEN-O"
    with pytest.raises(IllegalActionError) as caught:
        state.apply("1: play R7 7")
    assert caught.value.rule == "R-SEVEN-O"


def test_r_seven_o_a_seven_or_zero_that_is_the_last_card_moves_no_hands() -> None:
    for card, action in (("R7", "1: play R7 2"), ("R0", "1: play R0")):
        state = rearranged(game(), hands={1: card})
        others = state.hands
        state = state.apply(action)
        result = state.rounds[-1]
        assert (result.winner, result.reason) == (1, "out")
        assert result.hands[1] == ()
        assert result.hands[0] == others[0]
        assert result.hands[2] == others[2]
        assert result.hands[3] == others[3]


def test_r_seven_o_a_seven_or_zero_starter_moves_no_hands() -> None:
    for starter in ("R7", "G0"):
        state = game(starter=starter)
        assert [" ".join(map(str, h)) for h in state.hands] == HANDS
        assert (state.current_player, state.phase.name) == (1, "play")


def test_r_seven_o_uno_an_exposed_seat_that_trades_its_last_card_away_cannot_be_caught() -> None:
    state = rearranged(game(), hands={1: "R7 G2"})
    state = state.apply("1: play R7 2")  # no UNO call
    assert state.hands[2] == cards("G2")
    assert len(state.hands[1]) == 7
    assert state.uno_exposed == ()  # seat 1 holds 7 cards; seat 2 played no next-to-last card
    assert not any(a.verb == "catch" for a in state.legal_actions())
    assert "2: uno" not in legal(state, 2)


def test_r_seven_o_uno_a_seat_receiving_a_called_one_card_hand_need_not_call() -> None:
    state = rearranged(game(), hands={1: "G2 R0"})
    state = state.apply("1: uno").apply("1: play R0")
    assert state.hands[2] == cards("G2")
    assert state.uno_exposed == ()
    assert state.uno_declared == ()
    # seat 2 plays on with its single card and no call; nobody may catch it
    assert not any(a.verb == "catch" for a in state.legal_actions())
    assert "2: uno" not in legal(state, 2)


def test_r_seven_o_uno_a_seat_handed_another_single_card_is_not_open_to_a_catch() -> None:
    # Seat 0 holds one card; seat 1 plays its 0 from two cards without calling:
    # it passes G2 on and receives seat 0's single card. It holds one card, but
    # not the one it played down to, so nobody can catch it (issue 12).
    state = rearranged(game(), hands={0: "Y9", 1: "R0 G2"})
    state = state.apply("1: play R0")
    assert state.hands[1] == cards("Y9")
    assert state.hands[2] == cards("G2")
    assert state.uno_exposed == ()
    assert not any(a.verb == "catch" for a in state.legal_actions())


def test_r_seven_o_uno_an_exposed_seat_outside_a_trade_stays_open_to_a_catch() -> None:
    # Seat 1 is open to a catch with one card; seats 2 and 3 trade hands: the
    # helper a 7 uses keeps seats outside the trade as they were.
    state = rearranged(game(), hands={1: "G2", 2: "R7 B1 B2"}).replace(uno_exposed=(1,))
    draft = draft_of(state)
    draft.trade_hands(2, 3)
    traded = draft.freeze()
    assert traded.hands[3] == cards("R7 B1 B2")
    assert traded.hands[2] == state.hands[3]
    assert traded.uno_exposed == (1,)


def test_r_seven_o_uno_a_call_made_for_a_hand_that_moved_is_void() -> None:
    # Seat 3 calls UNO holding two cards, then draws instead of playing; a 7
    # trading its hand away voids the call: the new holder called nothing.
    state = rearranged(game(), hands={1: "R1 Y7 R2 R3 G1 G2 G4", 3: "G3 B9"}, draw="Y8")
    state = state.apply("1: play R1").apply("2: play B1").apply("3: uno").apply("3: draw")
    assert state.uno_declared == (3,)
    assert state.hands[3] == cards("G3 B9 Y8")
    assert state.current_player == 0
    state = state.apply("0: play Y1").apply("1: play Y7 3")
    assert state.hands[1] == cards("G3 B9 Y8")
    assert state.uno_declared == ()


def test_r_seven_o_seven_by_the_rules_object() -> None:
    rules = Ruleset.from_names(["classic", "seven-o"])
    assert rules.needs_target(Card.parse("G7"))
    assert not rules.needs_target(Card.parse("G0"))
    assert not rules.needs_target(Card.parse("G8"))


def test_r_seven_o_the_events_say_who_moved_which_hand() -> None:
    state = game().apply("1: play R0")
    (event,) = [e for e in state.events if e.kind == "hands-moved"]
    assert event == Event(
        "hands-moved",
        1,
        (),
        "R-SEVEN-O",
        "every hand passed to the next seat, to the left (+1)",
        data=(("moves", ((0, 1), (1, 2), (2, 3), (3, 0))),),
    )
    traded = game().apply("1: play R7 3")
    (event,) = [e for e in traded.events if e.kind == "hands-moved"]
    assert event == Event(
        "hands-moved",
        1,
        (),
        "R-SEVEN-O",
        "seat 1 and seat 3 traded hands",
        target=3,
        data=(("moves", ((1, 3), (3, 1))),),
    )
    # The core's mechanic gives the same event for the same moves.
    draft = draft_of(game())
    draft.trade_hands(1, 3)
    again = draft.freeze()
    assert again.events[-1] == event
    assert (again.hands[1], again.hands[3]) == (game().hands[3], game().hands[1])


def test_r_seven_o_names_no_base_rule_set() -> None:
    # Issue 42: seven-o needs a base rule set (the cards, the turn) and names none.
    (seven,) = [p for p in Ruleset.from_names(["classic", "seven-o"]).plugins if p.name == "seven-o"]
    assert not getattr(seven, "requires", ())
    with pytest.raises(RulesetError, match="no cards in the deck"):
        Ruleset.from_names(["seven-o"])


def test_r_seven_o_under_flip_a_7_of_either_side_trades_and_no_0_occurs() -> None:
    """EDITIONS 1.5: under FLIP! a 7 trades hands with the seat its play names (on the
    light side and the dark side alike); FLIP! has no 0, so the 0 never occurs."""
    import random

    rules = Ruleset.from_names(["flip", "seven-o"])
    assert not [face for card in rules.deck for face in card.faces if face.kind == "0"]
    traded_sides = set()
    for seed in range(40):
        state = rules.new_game(players=3, seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            if state.is_over:
                break
            sevens = [
                a
                for a in state.legal_actions()
                if a.verb == "play" and a.card is not None and a.card.kind == "7"
            ]
            if sevens:
                action = sevens[0]
                assert action.target is not None  # a 7 names the seat it trades with
                after = state.apply(action)
                if after.round_number == state.round_number and after.side == state.side:
                    laid = state.hands[action.seat][state.hand_index(action.seat, action.card, action.nth)]
                    rest = list(state.hands[action.seat])
                    rest.remove(laid)
                    assert after.hands[action.target] == tuple(rest)
                    assert after.hands[action.seat] == state.hands[action.target]
                    assert any(e.kind == "hands-moved" for e in after.events)
                    traded_sides.add(state.side)
                state = after
            else:
                state = state.apply(rng.choice(state.legal_actions()))
        if traded_sides == {0, 1}:
            break
    assert traded_sides == {0, 1}

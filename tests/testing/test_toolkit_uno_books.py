"""The UNO bookkeeping of the draft's mechanics (R-UNO-CALL, R-UNO-CATCH), case
by case, and the ``uno`` invariant that checks it after every step.

A seat that brings itself down to one card by its own action (a play, or its
own card's effect discarding the rest) has played down to one card: its call
is used up, and without one it is open to a catch. A seat whose hand changed
any other way (traded, given, taken from, added to) keeps no call and is not
open to a catch. The cases are those of the hooks page (docs/hooks.rst).
"""

from __future__ import annotations

import pytest
from toolkit_broken_plugins import DiscardAll

from unorules import Action, GameState, Ruleset, parse_cards
from unorules.testing import arrange_deck, draft_of
from unorules.testing.invariants import InvariantViolation, check_step, check_uno

HANDS = ["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]


def game(players: int = 3, *plugins: object) -> GameState:
    rules = Ruleset.from_names(["classic"], plugins=plugins)
    deck = arrange_deck(HANDS[:players], "R5", draw="Y9 B9", dealer=players - 1)
    return rules.new_game(players=players, deck=deck, dealer=players - 1)


def holding(state: GameState, **hands: str) -> GameState:
    """``state`` with seat N holding the cards of ``sN`` (taken from the draw
    pile, its own cards put back there): every card still accounted for."""
    new = list(state.hands)
    pile = list(state.draw_pile)
    for key, text in hands.items():
        seat = int(key[1:])
        pile += new[seat]
        wanted = list(parse_cards(text))
        for card in wanted:
            pile.remove(card)
        new[seat] = tuple(wanted)
    return state.replace(hands=tuple(new), draw_pile=tuple(pile))


def test_r_uno_catch_a_play_down_to_one_card_without_a_call_opens_a_catch() -> None:
    state = holding(game(), s0="R1 R2")
    after = state.apply("0: play R1")
    assert after.uno_exposed == (0,)
    check_step(state, Action.parse("0: play R1"), after)


def test_r_uno_call_a_call_is_used_up_by_the_next_to_last_card() -> None:
    state = holding(game(), s0="R1 R2").apply("0: uno")
    assert state.uno_declared == (0,)
    after = state.apply("0: play R1")
    assert (after.uno_declared, after.uno_exposed) == ((), ())


def test_r_uno_catch_discards_by_a_seat_own_action_down_to_one_card_open_a_catch() -> None:
    state = holding(game(), s0="R1 R2 G3 G4")
    draft = draft_of(state, Action.parse("0: play R1"))
    draft.discard_under(0, parse_cards("R2 G3 G4"))
    assert draft.freeze().uno_exposed == (0,)


def test_r_uno_call_a_call_is_used_up_by_discards_down_to_one_card() -> None:
    state = holding(game(), s0="R2 G3").apply("0: uno")
    draft = draft_of(state, Action.parse("0: play R2"))
    draft.discard_under(0, parse_cards("R2"))
    after = draft.freeze()
    assert (after.uno_declared, after.uno_exposed) == ((), ())


def test_r_uno_catch_set_hands_down_to_one_card_by_a_seat_own_action_opens_a_catch() -> None:
    # The cards leave the hand for no other hand (a Discard All's effect): playing down to one card.
    state = holding(game(), s0="R1 R2 R3 G4")
    draft = draft_of(state, Action.parse("0: play R1"))
    draft.set_hands({0: parse_cards("G4")})
    draft.shuffle_into_draw_pile(parse_cards("R1 R2 R3"))
    assert draft.freeze().uno_exposed == (0,)


def test_r_uno_catch_a_hand_another_seat_empties_to_one_card_is_not_open_to_a_catch() -> None:
    state = holding(game(), s1="G1 G2 G3")
    draft = draft_of(state, Action.parse("0: play R1"))
    draft.discard_under(1, parse_cards("G1 G2"))
    assert draft.freeze().uno_exposed == ()


def test_r_uno_catch_a_traded_hand_keeps_no_call_and_no_exposure() -> None:
    state = holding(game(), s0="R1 R2", s1="G1 G2 G3").apply("0: uno")
    state = state.replace(uno_exposed=(2,), hands=(state.hands[0], state.hands[1], state.hands[2][:1]))
    state = state.replace(draw_pile=state.draw_pile + game().hands[2][1:])
    # Seat 0 (who called) trades with seat 2 (open to a catch with one card).
    draft = draft_of(state, Action.parse("0: play R1"))
    draft.move_hands({0: 2, 2: 0})
    after = draft.freeze()
    assert len(after.hands[0]) == 1  # seat 0 now holds one card, but traded for it
    assert (after.uno_declared, after.uno_exposed) == ((), ())


def test_r_uno_catch_cards_given_away_down_to_one_card_are_no_play_down_to_one() -> None:
    state = holding(game(), s0="R1 R2 R3")
    draft = draft_of(state, Action.parse("0: play R1"))
    draft.set_hands({0: parse_cards("R1"), 1: (*state.hands[1], *parse_cards("R2 R3"))})
    after = draft.freeze()
    assert after.uno_exposed == ()


def test_r_uno_catch_a_draw_closes_the_drawer_catch_window() -> None:
    state = holding(game(), s0="R1 R2")
    exposed = state.apply("0: play R1")
    draft = draft_of(exposed, Action.parse("1: draw"))
    draft.draw(0, 2, "penalty")
    assert draft.freeze().uno_exposed == ()


def test_r_uno_catch_a_discard_all_down_to_one_card_leaves_its_player_catchable() -> None:
    # Issue 32: an effect bringing its own player to one card; the plugin writes no UNO field.
    rules = Ruleset.from_names(["classic"], plugins=[DiscardAll()])
    hands = ["RDA R2 R3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = rules.new_game(players=2, deck=arrange_deck(hands, "R5", dealer=1), dealer=1)
    state = holding(state, s0="RDA R2 R3 G4")
    after = state.apply("0: play RDA")
    assert after.hands[0] == parse_cards("G4")
    assert after.uno_exposed == (0,)
    assert Action.parse("1: catch 0") in after.legal_actions()
    check_step(state, Action.parse("0: play RDA"), after)


def test_r_uno_call_a_call_standing_before_a_discard_all_is_used_up_by_its_discards() -> None:
    # A call made at two cards stands through a draw (it is for the card played
    # next); a Discard All then leaves one card: the call was in time, no catch.
    rules = Ruleset.from_names(["classic"], plugins=[DiscardAll()])
    hands = ["RDA R2 R3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = rules.new_game(players=2, deck=arrange_deck(hands, "R5", dealer=1), dealer=1)
    state = holding(state, s0="RDA R2 R3 G4").replace(uno_declared=(0,))
    after = state.apply("0: play RDA")
    assert after.hands[0] == parse_cards("G4")
    assert (after.uno_declared, after.uno_exposed) == ((), ())
    assert Action.parse("1: catch 0") not in after.legal_actions()
    check_step(state, Action.parse("0: play RDA"), after)


# -- the invariant -----------------------------------------------------------------------------


def test_uno_an_exposed_seat_must_hold_one_card() -> None:
    state = holding(game(), s0="R1 R2")
    check_uno(state)
    with pytest.raises(InvariantViolation, match=r"\[uno\].*seat 0 is open to an UNO catch.*holds 2 cards"):
        check_uno(state.replace(uno_exposed=(0,)))
    with pytest.raises(InvariantViolation, match=r"\[uno\].*lists a seat twice"):
        check_uno(state.replace(uno_declared=(0, 0)))
    with pytest.raises(InvariantViolation, match=r"\[uno\].*names seat 1, which is not in the game"):
        check_uno(state.replace(uno_declared=(1,), left=(1,)))


def test_uno_step_a_stale_exposure_after_hands_move_is_caught() -> None:
    state = holding(game(), s0="R1 R2 R3", s1="G1").replace(uno_exposed=(1,))
    action = Action.parse("0: play R1")
    after = state.apply(action)
    assert after.uno_exposed == ()  # laying a card closes the other seats' windows
    check_step(state, action, after)
    # Seat 1's one card exchanged for another, its exposure kept by hand: stale.
    stale = holding(after, s1="G3").replace(uno_exposed=(1,))
    with pytest.raises(
        InvariantViolation, match=r"\[uno\].*seat 1's hand changed.*still open to an UNO catch"
    ):
        check_step(state, action, stale)


def test_uno_step_a_seat_left_with_one_card_by_its_own_action_must_be_catchable() -> None:
    state = holding(game(), s0="R1 R2")
    action = Action.parse("0: play R1")
    after = state.apply(action)
    with pytest.raises(
        InvariantViolation, match=r"\[uno\].*own action left it one card.*not open to a catch"
    ):
        check_step(state, action, after.replace(uno_exposed=()))

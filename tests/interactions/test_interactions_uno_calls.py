"""UNO calls follow the cards (issue 12, point 1): every change of hands other than a
play or a draw goes through the draft's ``set_hands``/``move_hands`` mechanics,
which voids the UNO call (``uno_declared``) of every seat whose hand changed and
keeps a seat open to a catch (``uno_exposed``) only while it still holds the card
it played down to (R-UNO-CALL, R-UNO-CATCH).

Each scenario starts from an arranged deck (dealer 0, seat 1 plays first) and
shows the stale call the issue reported: a seat calls UNO holding two cards,
draws instead of playing, is then given a new two-card hand without playing,
and plays down to one card without calling again: it must be open to a catch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unorules import Card, GameState, Ruleset, parse_cards
from unorules.testing import arrange_deck, draft_of, rearranged

FILLER = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "B1 B2 B3 B4 B5 B6 B7", "G1 G2 G3 G4 G6 G7 G8"]


def game(
    names: Sequence[str],
    hands: Mapping[int, str],
    players: int = 2,
    starter: str = "G5",
    draw: str = "",
    options: Mapping[str, Any] | None = None,
) -> GameState:
    for name in names:
        pytest.importorskip("unorules_" + name.replace("-", "_"))
    rules = Ruleset.from_names(list(names), options=options)
    start = rules.new_game(players, deck=arrange_deck(FILLER[:players], starter), dealer=0)
    return rearranged(start, hands=hands, draw=draw)


def catches(state: GameState) -> set[str]:
    return {str(a) for a in state.legal_actions() if a.verb == "catch"}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def called_then_drew(state: GameState) -> GameState:
    """Seat 1 calls UNO holding two cards, then draws instead of playing (three cards)."""
    state = state.apply("1: uno").apply("1: draw")
    assert len(state.hands[1]) == 3
    assert state.uno_declared == (1,)
    return state


# -- the core mechanics -------------------------------------------------------------------------


def test_r_uno_call_set_hands_voids_the_calls_and_exposure_of_changed_seats_only() -> None:
    state = game(["classic"], {0: "R1 R2", 1: "B8"}, players=3).replace(uno_declared=(0, 2), uno_exposed=(1,))
    draft = draft_of(state)
    draft.set_hands({0: cards("R1 R9"), 1: cards("B8"), 2: state.hands[2]})
    moved = draft.freeze()
    assert moved.hands[0] == cards("R1 R9")
    assert moved.uno_declared == (2,)  # seat 0's hand changed; seat 2's did not
    assert moved.uno_exposed == (1,)  # seat 1 still holds the card it played down to
    draft = draft_of(state)
    draft.set_hands({1: cards("B8")})  # nothing changed
    assert draft.hands is state.hands
    assert (draft.uno_declared, draft.uno_exposed) == ((0, 2), (1,))
    # One seat given other cards: its exposure ends with the hand it played down to.
    draft = draft_of(state)
    draft.set_hands({1: cards("B8 B9")})
    assert draft.uno_exposed == ()
    with pytest.raises(ValueError, match="no seat 5"):
        draft_of(state).set_hands({5: ()})


def test_r_uno_catch_move_hands_moves_whole_hands_and_refuses_to_lose_one() -> None:
    state = game(["classic"], {0: "R1 R2", 1: "B8", 2: "Y3 Y4 Y5"}, players=3)
    state = state.replace(uno_declared=(0,), uno_exposed=(1,))
    draft = draft_of(state)
    draft.move_hands({0: 1, 1: 2, 2: 0})
    cycled = draft.freeze()
    assert [cycled.hands[s] for s in (1, 2, 0)] == [state.hands[s] for s in (0, 1, 2)]
    assert (cycled.uno_declared, cycled.uno_exposed) == ((), ())
    draft = draft_of(state)
    draft.move_hands({0: 2, 2: 0})
    assert draft.uno_exposed == (1,)  # not in the trade
    draft = draft_of(state)
    with pytest.raises(ValueError, match="does not permute"):
        draft.move_hands({0: 1})
    assert draft.hands is state.hands  # refused before any hand moved


def test_r_uno_catch_a_draw_ends_the_exposure_of_the_seat_that_draws() -> None:
    state = game(["classic"], {1: "B8"}).replace(uno_exposed=(1,))
    draft = draft_of(state)
    assert len(draft.draw(1, 2, "penalty")) == 2
    assert draft.uno_exposed == ()
    draft = draft_of(state)
    draft.draw(0, 1, "penalty")
    assert draft.uno_exposed == (1,)


# -- the plugins ------------------------------------------------------------------------------


def test_r_swap_r_uno_call_a_call_does_not_survive_a_swap_hands() -> None:
    state = game(["classic", "swap-hands"], {0: "SW R1 R2", 1: "R3 R4"}, draw="R6")
    state = called_then_drew(state)
    state = state.apply("0: play SW R 1")
    assert state.hands[1] == cards("R1 R2")
    assert state.uno_declared == ()  # the call was about the hand seat 1 gave away
    state = state.apply("1: play R1")  # down to one card, no new call
    assert state.uno_exposed == (1,)
    assert catches(state) == {"0: catch 1"}


def test_r_shuffle_r_uno_call_a_call_does_not_survive_a_shuffle_hands() -> None:
    state = game(["classic", "shuffle-hands"], {0: "SH R1", 1: "R3 R4"}, draw="R6")
    state = called_then_drew(state)
    state = state.apply("0: play SH R")  # four red cards dealt out again, two each
    assert len(state.hands[1]) == 2
    assert state.uno_declared == ()
    state = state.apply(f"1: play {state.hands[1][0]}")
    assert state.uno_exposed == (1,)
    assert catches(state) == {"0: catch 1"}


def test_r_custom_r_uno_call_a_call_does_not_survive_discarding_wilds() -> None:
    names = ["classic", "custom-wilds"]
    state = game(names, {0: "CW1 R1 R2", 1: "R3 R4"}, draw="W", options={"custom_wild_1": "discard-wilds"})
    state = state.apply("1: uno").apply("1: draw").apply("1: pass")  # keeps the drawn Wild
    assert state.hands[1] == cards("R3 R4 W")
    assert state.uno_declared == (1,)
    state = state.apply("0: play CW1 R")  # C2: seat 1 discards its Wild, back to two cards
    assert state.hands[1] == cards("R3 R4")
    assert state.uno_declared == ()
    state = state.apply("1: play R3")
    assert state.uno_exposed == (1,)
    assert catches(state) == {"0: catch 1"}


def test_r_jump_r_uno_call_an_out_of_turn_call_lapses_when_the_window_closes_without_a_jump_in() -> None:
    state = game(["classic", "jump-in"], {0: "B6 R3", 1: "B6 B9 Y9", 2: "B7 B8 Y8"}, players=3, starter="B5")
    state = state.apply("1: play B6")
    assert "0: play B6" in {str(a) for a in state.legal_actions(0)}
    state = state.apply("0: uno")  # announces a jump-in with its next-to-last card ...
    assert state.uno_declared == (0,)
    state = state.apply("2: play B7")  # ... but seat 2 acts first: the window closes
    assert state.uno_declared == ()
    state = state.apply("0: play B6")  # on its own turn, down to one card without a call
    assert state.uno_exposed == (0,)
    assert catches(state) == {"1: catch 0", "2: catch 0"}


def test_r_jump_r_uno_call_an_out_of_turn_call_counts_for_the_jump_in_it_announces() -> None:
    state = game(["classic", "jump-in"], {0: "B6 R3", 1: "B6 B9 Y9", 2: "B7 B8 Y8"}, players=3, starter="B5")
    state = state.apply("1: play B6").apply("0: uno").apply("0: play B6")
    assert state.hands[0] == cards("R3")
    assert (state.uno_declared, state.uno_exposed) == ((), ())


def test_r_seven_o_r_uno_catch_a_zero_that_hands_an_exposed_seat_another_card_ends_its_exposure() -> None:
    state = game(["classic", "seven-o"], {0: "Y9", 1: "G0 R3", 2: "B7 B8 Y8"}, players=3)
    state = state.apply("1: play G0")  # down to R3 without a call, then every hand moves on
    assert state.hands[1] == cards("Y9")  # seat 0's one card, not the one seat 1 played down to
    assert state.uno_exposed == ()
    assert catches(state) == set()


def test_r_seven_o_r_uno_call_a_call_does_not_survive_a_seven() -> None:
    names = ["classic", "seven-o"]
    state = game(names, {0: "G8 G9", 1: "R3 R4", 2: "G7 G1 G2"}, players=3, draw="Y9")
    state = called_then_drew(state)
    state = state.apply("2: play G7 1")
    assert state.hands[1] == cards("G1 G2")
    assert state.uno_declared == ()
    state = state.apply("0: play G8").apply("1: play G1")
    assert state.uno_exposed == (1,)

"""``state.view(seat)``: a seat sees its own hand, only the sizes of the other
hands, and neither the card another seat just drew nor the cards in other
seats' private draw events."""

from __future__ import annotations

import random

import attrs
import pytest

from unorules import Card, GameState, Ruleset, SeatError, SeatView
from unorules.testing import arrange_deck, rearranged

CLASSIC = Ruleset.from_names(["classic"])
HANDS = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "G1 G2 G3 G4 G5 G6 G7", "B1 B2 B3 B4 B5 B6 B7"]


def _game(starter: str = "R5", draw: str = "", hands: list[str] = HANDS) -> GameState:
    return CLASSIC.new_game(players=3, deck=arrange_deck(hands, starter, draw=draw), dealer=0)


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    state = _game(draw="R8").apply("1: draw")
    for seat in range(3):
        view = state.view(seat)
        assert view.seat == seat
        assert view.hand == state.hands[seat]
        assert view.hand_sizes == (7, 8, 7)
        assert dict(view.visible_hands) == {seat: state.hands[seat]}
        assert view.discard_pile == state.discard_pile
        assert view.top_card is state.top_card
        assert view.draw_pile_size == len(state.draw_pile)
        assert (view.color, view.direction, view.current_player, view.dealer) == (
            state.color,
            state.direction,
            state.current_player,
            state.dealer,
        )
        assert view.scores == state.scores
        assert view.legal_actions == state.legal_actions(seat)
        assert all(a.seat == seat for a in view.legal_actions)
        assert not hasattr(view, "hands")
        assert not hasattr(view, "draw_pile")


def test_the_card_just_drawn_is_hidden_from_the_other_seats() -> None:
    state = _game(draw="R8").apply("1: draw")
    assert (state.phase.name, str(state.phase.card)) == ("drawn", "R8")
    assert state.view(1).phase.card == Card.parse("R8")
    for other in (0, 2):
        view = state.view(other)
        assert view.phase.name == "drawn"
        assert view.phase.card is None
    # The state itself is unchanged by viewing it.
    assert state.phase.card == Card.parse("R8")


def test_private_draw_events_show_their_cards_only_to_the_drawer() -> None:
    state = _game(draw="B8").apply("1: draw")  # unplayable: the turn passes
    (draw,) = [e for e in state.events if e.kind == "draw"]
    assert (draw.seat, draw.private, [str(c) for c in draw.cards]) == (1, True, ["B8"])
    assert [e.cards for e in state.view(1).events if e.kind == "draw"] == [(Card.parse("B8"),)]
    for other in (0, 2):
        (seen,) = [e for e in state.view(other).events if e.kind == "draw"]
        assert (seen.seat, seen.cards, seen.detail) == (1, (), "turn")


def test_penalty_draws_are_private_too() -> None:
    state = _game(starter="R+2", draw="R8 W").apply("1: draw")
    assert [str(c) for e in state.view(1).events if e.kind == "draw" for c in e.cards] == ["R8", "W"]
    for other in (0, 2):
        assert all(e.cards == () for e in state.view(other).events if e.kind == "draw")


def test_a_challenged_hand_is_shown_to_the_challenger_only() -> None:
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "W+4 R9 G2 G3 G4 G5 G6", HANDS[2]]
    state = _game(hands=hands).apply("1: play W+4 B").apply("2: challenge")
    shown = [e for e in state.view(2).events if e.kind == "challenge"]
    assert [str(c) for c in shown[0].cards] == ["R9", "G2", "G3", "G4", "G5", "G6"]
    hidden = [e for e in state.view(0).events if e.kind == "challenge"]
    assert hidden[0].cards == ()
    assert "guilty" in hidden[0].detail


def test_out_of_turn_actions_are_in_the_view_of_the_seat_that_may_take_them() -> None:
    state = rearranged(_game(), hands={1: "R9 G5"}).apply("1: play R9")
    assert "0: catch 1" in {str(a) for a in state.view(0).legal_actions}
    assert "1: uno" in {str(a) for a in state.view(1).legal_actions}
    assert state.view(0).uno_exposed == (1,)


def test_no_view_reveals_another_hand_in_random_play() -> None:
    state = CLASSIC.new_game(players=4, seed=3)
    rng = random.Random(3)
    for _ in range(400):
        for seat in range(4):
            view = state.view(seat)
            assert set(view.visible_hands) == {seat}
            for event in view.events:
                if event.private and event.seat != seat:
                    assert event.cards == ()
            if view.phase.name == "drawn" and state.current_player != seat:
                assert view.phase.card is None
        state = state.apply(rng.choice(state.legal_actions()))


def test_viewing_a_seat_that_does_not_exist() -> None:
    state = _game()
    for seat in (-1, 3):
        with pytest.raises(SeatError, match="no seat"):
            state.view(seat)


def test_a_view_is_built_with_every_field_as_the_class_declares_it() -> None:
    # _view fills the view's __dict__ directly (no attrs __init__): every field
    # must be there, and the view must equal one built through the constructor.
    state = CLASSIC.new_game(players=3, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        for view in (*(state.view(s) for s in range(3)), state.public_view()):
            assert list(vars(view)) == [f.name for f in attrs.fields(SeatView)]
            unset = {name for name, value in vars(view).items() if value is None}
            assert unset <= {"seat", "color", "last_action", "outcome", "draw_pile_back"}, unset
            rebuilt = SeatView(**{f.alias: getattr(view, f.name) for f in attrs.fields(SeatView)})
            assert rebuilt == view
            assert rebuilt.rules is view.rules
            mine = () if view.seat is None else state.legal_actions(view.seat)
            assert view.legal_actions == mine
        state = state.apply(rng.choice(state.legal_actions()))

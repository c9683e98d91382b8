"""Classic rules, the rules reference's "Calling UNO": calling UNO, catching a player who did
not, the ``uno_penalty`` option, late self-calls and the catch window."""

from __future__ import annotations

import pytest
from classic_helpers import BLUES, GREENS, REDS, YELLOWS, game, hand, play, rearranged, refused

from unorules import GameState, Ruleset, RulesetError

# Seat 1 holds two cards: R9 and G9, on a red 5; three players.


def _two_cards(uno_penalty: int = 2, seat1: str = "R9 G9", players: int = 3) -> GameState:
    hands = [YELLOWS, REDS, BLUES, GREENS][:players]
    state = game(hands, "R5", draw="B8 B9 Y8 Y9", uno_penalty=uno_penalty)
    return rearranged(state, hands={1: seat1, 2: "R1 B2 B3 B4 B5 B6 B7"}, draw="B8 B9 Y8 Y9")


def _actions(state: GameState, seat: int | None = None) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


# -- R-UNO-CALL ---------------------------------------------------------------------


def test_r_uno_call_before_playing_the_next_to_last_card_makes_the_player_safe() -> None:
    state = _two_cards()
    assert "1: uno" in _actions(state, 1)
    state = play(state, "1: uno")
    assert state.uno_declared == (1,)
    assert "1: uno" not in _actions(state, 1)
    assert [e.rule for e in state.events] == ["R-UNO-CALL"]
    state = play(state, "1: play R9")
    assert hand(state, 1) == "G9"
    assert state.uno_exposed == ()
    assert not any(a.verb == "catch" for a in state.legal_actions())


def test_r_uno_call_only_with_two_cards_on_your_turn() -> None:
    state = _two_cards()
    for action in ("0: uno", "2: uno"):
        error = refused(state, action)
        assert error.rule == "R-UNO-CALL"
    seven = game([YELLOWS, REDS, BLUES], "R5")
    assert refused(seven, "1: uno").rule == "R-UNO-CALL"


def test_r_uno_call_also_when_playing_the_card_just_drawn() -> None:
    state = rearranged(game([YELLOWS, REDS, BLUES], "R5"), hands={1: "G1"}, draw="R8")
    state = play(state, "1: draw")
    assert state.phase.name == "drawn"
    assert "1: uno" in _actions(state, 1)
    state = play(state, "1: uno", "1: play R8")
    assert (hand(state, 1), state.uno_exposed) == ("G1", ())


# -- R-UNO-CATCH -----------------------------------------------------------------------


@pytest.mark.parametrize("penalty", [2, 4])
def test_r_uno_catch_a_player_left_with_one_card_and_no_call_draws_the_penalty(penalty: int) -> None:
    state = play(_two_cards(penalty), "1: play R9")
    assert state.uno_exposed == (1,)
    assert {"0: catch 1", "2: catch 1", "1: uno"} <= _actions(state)
    state = play(state, "0: catch 1")
    assert hand(state, 1) == "G9 " + " ".join(["B8", "B9", "Y8", "Y9"][:penalty])
    assert state.uno_exposed == ()
    assert any(e.kind == "caught" and e.rule == "R-UNO-CATCH" for e in state.events)
    # The catch is no turn: seat 2 is still to play.
    assert (state.current_player, state.phase.name) == (2, "play")
    assert refused(state, "2: catch 1").rule == "R-UNO-CATCH"


def test_r_uno_catch_penalty_defaults_to_two() -> None:
    state = play(game([YELLOWS, REDS, BLUES], "R5"), "1: play R1")
    assert state.ruleset.options["uno_penalty"] == 2


def test_r_uno_catch_the_next_player_may_catch_before_beginning_their_turn() -> None:
    state = play(_two_cards(), "1: play R9", "2: catch 1")
    assert len(state.hands[1]) == 3
    assert state.current_player == 2


def test_r_uno_catch_not_before_the_card_reached_the_pile() -> None:
    state = _two_cards()
    error = refused(state, "0: catch 1")
    assert error.rule == "R-UNO-CATCH"
    assert "R-UNO-CATCH" in str(error)


@pytest.mark.parametrize("begin", ["2: draw", "2: play R1"])
def test_r_uno_catch_not_after_the_next_player_began_their_turn(begin: str) -> None:
    state = play(_two_cards(), "1: play R9", begin)
    assert state.uno_exposed == ()
    for catcher in (0, 2):
        assert refused(state, f"{catcher}: catch 1").rule == "R-UNO-CATCH"
    assert hand(state, 1) == "G9"


def test_r_uno_catch_after_a_draw_two_the_window_closes_when_the_victim_draws() -> None:
    state = play(_two_cards(seat1="R+2 G9"), "1: play R+2")
    assert state.uno_exposed == (1,)
    assert "2: catch 1" in _actions(state)
    state = play(state, "2: draw")
    assert state.uno_exposed == ()
    assert refused(state, "0: catch 1").rule == "R-UNO-CATCH"


# -- R-UNO-SELF --------------------------------------------------------------------------


def test_r_uno_self_a_late_call_before_anyone_catches_is_safe() -> None:
    state = play(_two_cards(), "1: play R9", "1: uno")
    assert state.uno_exposed == ()
    assert [e.rule for e in state.events] == ["R-UNO-SELF"]
    assert not any(a.verb == "catch" for a in state.legal_actions())
    assert refused(state, "0: catch 1").rule == "R-UNO-CATCH"
    assert hand(state, 1) == "G9"


def test_r_uno_self_too_late_after_the_window_closed() -> None:
    state = play(_two_cards(), "1: play R9", "2: draw")
    error = refused(state, "1: uno")
    assert error.rule == "R-UNO-CALL"
    # Nobody can catch either: the player keeps one card.
    assert hand(state, 1) == "G9"


def test_r_uno_self_too_late_after_being_caught() -> None:
    state = play(_two_cards(), "1: play R9", "0: catch 1")
    assert refused(state, "1: uno").rule == "R-UNO-CALL"


# -- R-2P with R-UNO-CATCH: the next player is the player themself -------------------------


def test_r_uno_catch_two_players_the_window_closes_when_the_skipper_plays_again() -> None:
    # Two players: a Skip makes its player play again, so they are the "next
    # player": once they begin that turn (draw), nobody can catch them.
    state = rearranged(game([YELLOWS, REDS], "R5", draw="B1 B2"), hands={1: "RS G9"}, draw="B1 B2")
    state = play(state, "1: play RS")
    assert (state.current_player, state.uno_exposed) == (1, (1,))
    state = play(state, "1: draw")
    assert hand(state, 1) == "G9 B1"
    assert state.uno_exposed == ()
    assert refused(state, "0: catch 1").rule == "R-UNO-CATCH"


def test_r_house_uno_6_a_seat_caught_draws_six() -> None:
    # uno_penalty=6 stays a value of classic's option (a value, not a mechanism: issue 42).
    state = play(_two_cards(uno_penalty=6), "1: play R9", "0: catch 1")
    assert len(state.hands[1]) == 7
    assert [e.count for e in state.events if e.kind == "caught"] == [6]


def test_r_house_uno_6_other_penalties_are_still_refused() -> None:
    with pytest.raises(RulesetError, match="uno_penalty"):
        Ruleset.from_names(["classic"], options={"uno_penalty": 5})

"""Classic rules, the rules reference's "A turn": matching, wilds, the Wild Draw Four
restriction, drawing (and the ``drawn_card`` option), choosing to draw, and
reshuffling the discard pile."""

from __future__ import annotations

from collections import Counter

from classic_helpers import BLUES, GREENS, REDS, all_cards, classic, game, hand, play, refused

from unorules import Card, Color, GameState


def _plays(state: GameState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat) if a.verb == "play"}


# -- R-TURN-MATCH ------------------------------------------------------------------


def test_r_turn_match_by_colour_by_number_or_by_symbol() -> None:
    state = game([REDS, "R9 G5 GS B1 B2 B3 B4", BLUES], "R5")
    assert _plays(state, 1) == {"1: play R9", "1: play G5"}
    after = play(state, "1: play G5")
    assert (after.color, after.current_player) == (Color.GREEN, 2)
    # A Skip on a Skip of another colour: matched by symbol.
    state = game([REDS, "BS G5 G8 B1 B2 B3 B4", BLUES], "RS", dealer=2)
    assert state.current_player == 1  # seat 0 was skipped by the starter
    assert _plays(state, 1) == {"1: play BS"}
    after = play(state, "1: play BS")
    assert (after.color, after.current_player) == (Color.BLUE, 0)


def test_r_turn_match_a_card_that_matches_nothing_is_refused() -> None:
    state = game([REDS, "R9 G5 GS B1 B2 B3 B4", BLUES], "R5")
    error = refused(state, "1: play B1")
    assert error.rule == "R-TURN-MATCH"
    assert "R-TURN-MATCH" in str(error)
    assert "B1" in str(error)
    error = refused(state, "1: play GS")
    assert error.rule == "R-TURN-MATCH"


def test_r_turn_match_after_a_wild_the_named_colour_is_matched() -> None:
    state = game([REDS, "W G5 G6 B1 B2 B3 B4", "Y9 R8 R9 B5 G1 G2 G3"], "R5")
    state = play(state, "1: play W Y")
    assert (state.color, str(state.top_card)) == (Color.YELLOW, "W")
    assert _plays(state, 2) == {"2: play Y9"}
    assert refused(state, "2: play R8").rule == "R-TURN-MATCH"
    state = play(state, "2: play Y9")
    assert state.color is Color.YELLOW


# -- R-TURN-WILD ---------------------------------------------------------------------


def test_r_turn_wild_playable_on_anything_even_holding_a_playable_card() -> None:
    state = game([REDS, "W R9 G6 B1 B2 B3 B4", BLUES], "R5")
    plays = _plays(state, 1)
    assert {"1: play W R", "1: play W Y", "1: play W G", "1: play W B", "1: play R9"} == plays
    # Any colour may be named, the current one included.
    state = play(state, "1: play W R")
    assert (state.color, state.current_player) == (Color.RED, 2)
    assert refused(state, "2: play B1").rule == "R-TURN-MATCH"


def test_r_turn_wild_needs_a_colour() -> None:
    state = game([REDS, "W R9 G6 B1 B2 B3 B4", BLUES], "R5")
    assert refused(state, "1: play W").rule == "R-TURN-WILD"
    assert refused(state, "1: play W+4 R").rule == "R-TURN-MATCH"  # not in the hand


# -- R-TURN-WD4 -----------------------------------------------------------------------


def test_r_turn_wd4_legal_without_the_current_colour_even_with_a_matching_number_or_symbol() -> None:
    # On a red 5: holding a green 5 and a blue Reverse does not forbid it.
    for challenge in ("on", "off"):
        state = game([REDS, "W+4 G5 BR B1 B2 B3 B4", BLUES], "R5", draw="Y1 Y2 Y3 Y4", challenge=challenge)
        assert "1: play W+4 G" in _plays(state, 1)
        state = play(state, "1: play W+4 G")
        assert (state.current_player, state.color) == (2, Color.GREEN)
        state = play(state, "2: accept" if challenge == "on" else "2: draw")
        # The next player draws 4 and loses the turn.
        assert hand(state, 2) == BLUES + " Y1 Y2 Y3 Y4"
        assert (state.current_player, state.phase.name, state.color) == (0, "play", Color.GREEN)


def test_r_turn_wd4_challenge_off_draws_four_at_once_without_a_challenge() -> None:
    state = game([REDS, "W+4 G5 BR B1 B2 B3 B4", BLUES], "R5", challenge="off")
    state = play(state, "1: play W+4 B")
    assert state.phase.name == "penalty"
    assert [str(a) for a in state.legal_actions(2)] == ["2: draw"]
    assert refused(state, "2: challenge").rule == "R-TURN-WD4"


def test_r_turn_wd4_bluff_is_legal_with_challenges_on() -> None:
    # Holding a red card on a red 5, the Wild Draw Four is a bluff, legal
    # because it can be challenged (R-CHALLENGE).
    state = game([REDS, "W+4 R9 BR B1 B2 B3 B4", BLUES], "R5")
    assert "1: play W+4 B" in _plays(state, 1)
    state = play(state, "1: play W+4 B")
    assert state.phase.name == "challenge"


def test_r_turn_wd4_bluff_is_refused_with_challenges_off() -> None:
    state = game([REDS, "W+4 R9 BR B1 B2 B3 B4", BLUES], "R5", challenge="off")
    assert _plays(state, 1) == {"1: play R9"}
    error = refused(state, "1: play W+4 B")
    assert error.rule == "R-TURN-WD4"
    assert "R-TURN-WD4" in str(error)


# -- R-TURN-DRAW ------------------------------------------------------------------------


def test_r_turn_draw_a_player_who_cannot_play_draws_and_an_unplayable_card_ends_the_turn() -> None:
    state = game([REDS, GREENS, BLUES], "Y9", draw="B8")
    assert [str(a) for a in state.legal_actions(1)] == ["1: draw"]
    state = play(state, "1: draw")
    assert hand(state, 1) == GREENS + " B8"
    assert (state.current_player, state.phase.name) == (2, "play")


def test_r_turn_draw_a_playable_drawn_card_may_be_played_at_once() -> None:
    state = game([REDS, GREENS, BLUES], "Y9", draw="Y5")
    state = play(state, "1: draw")
    assert (state.current_player, state.phase.name, str(state.phase.card)) == (1, "drawn", "Y5")
    assert {str(a) for a in state.legal_actions(1)} == {"1: play Y5", "1: pass"}
    state = play(state, "1: play Y5")
    assert (str(state.top_card), state.current_player, hand(state, 1)) == ("Y5", 2, GREENS)


def test_r_turn_draw_a_playable_drawn_card_may_be_kept() -> None:
    state = game([REDS, GREENS, BLUES], "Y9", draw="W")
    state = play(state, "1: draw")
    assert {str(a) for a in state.legal_actions(1)} == {f"1: play W {c}" for c in "RYGB"} | {"1: pass"}
    state = play(state, "1: pass")
    assert hand(state, 1) == GREENS + " W"
    assert (state.current_player, state.phase.name, str(state.top_card)) == (2, "play", "Y9")


def test_r_turn_draw_drawn_card_must_play_option() -> None:
    # drawn_card=must-play [CZ]: a playable drawn card must be played.
    state = play(game([REDS, GREENS, BLUES], "Y9", draw="Y5", drawn_card="must-play"), "1: draw")
    assert [str(a) for a in state.legal_actions(1)] == ["1: play Y5"]
    error = refused(state, "1: pass")
    assert error.rule == "R-TURN-DRAW"
    # An unplayable drawn card still ends the turn.
    state = play(game([REDS, GREENS, BLUES], "Y9", draw="B5", drawn_card="must-play"), "1: draw")
    assert (state.current_player, hand(state, 1)) == (2, GREENS + " B5")


def test_r_turn_draw_drawn_card_may_keep_is_the_default() -> None:
    assert classic().options["drawn_card"] == "may-keep"
    state = play(game([REDS, GREENS, BLUES], "Y9", draw="Y5", drawn_card="may-keep"), "1: draw")
    assert "1: pass" in {str(a) for a in state.legal_actions(1)}


def test_r_turn_draw_a_drawn_wild_draw_four_bluff_follows_the_challenge_option() -> None:
    # Seat 1 holds green cards on a green 9 and draws a Wild Draw Four: a bluff.
    on = play(game([REDS, GREENS, BLUES], "G9", draw="W+4"), "1: draw")
    assert on.phase.name == "drawn"
    assert {str(a) for a in on.legal_actions(1)} == {f"1: play W+4 {c}" for c in "RYGB"} | {"1: pass"}
    off = play(game([REDS, GREENS, BLUES], "G9", draw="W+4", challenge="off"), "1: draw")
    assert (off.current_player, off.phase.name) == (2, "play")
    assert hand(off, 1) == GREENS + " W+4"


# -- R-TURN-CHOOSE-DRAW ------------------------------------------------------------------


def test_r_turn_choose_draw_drawing_with_a_playable_card_then_only_the_drawn_card() -> None:
    state = game([REDS, "Y1 G2 G3 G4 G5 G6 G7", BLUES], "Y9", draw="Y5")
    assert {"1: play Y1", "1: draw"} <= {str(a) for a in state.legal_actions(1)}
    state = play(state, "1: draw")
    assert state.phase.name == "drawn"
    error = refused(state, "1: play Y1")
    assert error.rule == "R-TURN-CHOOSE-DRAW"
    assert "Y5" in str(error)
    state = play(state, "1: play Y5")
    assert hand(state, 1) == "Y1 G2 G3 G4 G5 G6 G7"


def test_r_turn_choose_draw_an_unplayable_drawn_card_ends_the_turn_despite_the_playable_hand() -> None:
    state = game([REDS, "Y1 G2 G3 G4 G5 G6 G7", BLUES], "Y9", draw="B5")
    state = play(state, "1: draw")
    assert (state.current_player, state.phase.name) == (2, "play")
    assert refused(state, "1: play Y1").rule == "R-SETUP-FIRST"


# -- R-TURN-RESHUFFLE --------------------------------------------------------------------


def _exhausted(state: GameState, keep: int = 0) -> GameState:
    """``state`` with all but ``keep`` cards of the draw pile moved under the top card."""
    pile = state.draw_pile
    return state.replace(draw_pile=pile[:keep], discard_pile=pile[keep:] + state.discard_pile)


def test_r_turn_reshuffle_the_discard_pile_except_its_top_card_becomes_the_draw_pile() -> None:
    start = _exhausted(game([REDS, GREENS, BLUES], "Y9"))
    assert start.draw_pile == ()
    assert len(start.discard_pile) == 108 - 21
    state = play(start, "1: draw")
    assert str(state.top_card) == "Y9"
    assert state.discard_pile == (Card.parse("Y9"),)
    assert len(state.draw_pile) == 108 - 21 - 2
    assert len(state.hands[1]) == 8
    assert [e.rule for e in state.events if e.kind == "reshuffle"] == ["R-TURN-RESHUFFLE"]
    assert all_cards(state) == Counter(classic().deck)
    # The new pile is shuffled, not the old discard order.
    assert state.draw_pile != start.discard_pile[:-1][1:]


def test_r_turn_reshuffle_in_the_middle_of_a_penalty_draw() -> None:
    start = _exhausted(game([REDS, "G+2 G2 G3 G4 G5 G6 G7", BLUES], "G9", draw="B9"), keep=1)
    state = play(start, "1: play G+2", "2: draw")
    # The last card of the pile, then one from the reshuffled discard pile.
    assert hand(state, 2).startswith(BLUES + " B9 ")
    assert len(state.hands[2]) == 9
    assert state.discard_pile == (Card.parse("G+2"),)
    assert all_cards(state) == Counter(classic().deck)

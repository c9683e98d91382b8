"""draft_of: a draft of an arranged state, for tests of a draft's mechanics."""

from __future__ import annotations

import pytest

from unorules import Action, Draft, GameState, Ruleset, parse_cards
from unorules.testing import arrange_deck, draft_of

HANDS = ["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8"]


def game() -> GameState:
    rules = Ruleset.from_names(["classic"])
    return rules.new_game(players=2, deck=arrange_deck(HANDS, "R5", draw="Y9 B9", dealer=1), dealer=1)


def test_a_draft_of_a_state_is_the_draft_apply_begins_and_freezes_into_the_next_state() -> None:
    state = game()
    before = state.to_json()
    draft = draft_of(state)
    assert isinstance(draft, Draft)
    assert (draft.before, draft.action, draft.events) == (state, None, ())
    assert (draft.hands, draft.draw_pile, draft.current_player) == (state.hands, state.draw_pile, 0)
    assert draft.draw(0, 1, "penalty") == parse_cards("Y9")
    draft.pass_turn()
    after = draft.freeze()
    assert after is draft  # the draft object itself is now the state
    assert isinstance(after, GameState)
    assert (after.hands[0][-1], after.current_player) == (parse_cards("Y9")[0], 1)
    assert after.draw_pile == state.draw_pile[1:]
    assert [e.kind for e in after.events] == ["draw"]
    assert after.last_action is None
    assert Action.parse("1: play G1") not in after.legal_actions()  # listed afresh: G1 does not match R5
    assert Action.parse("1: draw") in after.legal_actions()
    assert state.to_json() == before  # the state drafted from is untouched


def test_a_draft_for_an_action_carries_it_and_its_seat_own_rules() -> None:
    state = game()
    play = Action.parse("0: play R1")
    draft = draft_of(state, play)
    assert draft.action is play
    # The seat whose action it is, discarding down to one card, is open to a catch.
    draft.discard_under(0, parse_cards("R2 R3 R4 R6 R7"))
    assert draft.hands[0] == parse_cards("R1 R8")
    draft.discard_under(0, parse_cards("R8"))
    assert draft.uno_exposed == (0,)
    assert draft.freeze().last_action is play
    other = draft_of(state)  # no action: nobody's own
    other.discard_under(0, parse_cards("R2 R3 R4 R6 R7 R8"))
    assert other.uno_exposed == ()


def test_draft_of_takes_a_state() -> None:
    with pytest.raises(TypeError, match="draft_of takes a GameState, not str"):
        draft_of("0: draw")  # type: ignore[arg-type]

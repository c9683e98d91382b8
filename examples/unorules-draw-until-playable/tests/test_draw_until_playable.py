"""Tests of the draw-until-playable house rule, written only with unorules.testing.

* scenarios dealt from arranged decks by the ``arranged_game`` fixture (the
  rule set comes from the ``unorules_rules`` marker), one per rule id;
* a hypothesis state machine: the toolkit's invariants plus one of this
  plugin's own, and a rule that draws whenever it may;
* the conformance suite: the plugin with classic and with every other
  installed plugin, under the bounded CI budget.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import settings
from hypothesis.stateful import invariant, precondition, rule

from unorules import Action, GameState, Ruleset, RulesetError
from unorules.testing import Replay, rearranged
from unorules.testing.conformance import CI_BUDGET, check_conformance
from unorules.testing.machine import RulesetStateMachine

Deal = Callable[..., GameState]
RULES = ["classic", "draw-until-playable"]

# Seat 0 plays first (dealer 1) and holds nothing that matches the starter G5.
NO_MATCH = "R1 R2 R3 R4 R6 R7 R8"
OTHER = "B1 B2 B4 B6 B7 B8 B9"


def hand(state: GameState, seat: int) -> str:
    return " ".join(map(str, state.hands[seat]))


@pytest.mark.unorules_rules(RULES)
def test_dup_draw_keeps_drawing_until_a_playable_card(arranged_game: Deal) -> None:
    state = arranged_game([NO_MATCH, OTHER], "G5", draw="R9 Y2 B3 G7 Y4", dealer=1)
    assert state.current_player == 0
    after = state.apply("0: draw")
    assert hand(after, 0) == f"{NO_MATCH} R9 Y2 B3 G7"
    assert after.phase.name == "drawn"
    assert str(after.phase.card) == "G7"
    assert str(after.draw_pile[0]) == "Y4"
    assert any(e.kind == "draw-until-playable" and e.rule == "DUP-DRAW" for e in after.events)
    # R-TURN-DRAW still applies to the card that stopped the drawing: play it or keep it.
    assert after.legal_actions(0) == (Action.parse("0: play G7"), Action.parse("0: pass"))


@pytest.mark.unorules_rules(RULES)
def test_dup_draw_a_playable_first_card_is_an_ordinary_draw(arranged_game: Deal) -> None:
    state = arranged_game([NO_MATCH, OTHER], "G5", draw="G7 R9", dealer=1)
    after = state.apply("0: draw")
    assert hand(after, 0) == f"{NO_MATCH} G7"
    assert str(after.phase.card) == "G7"
    assert not any(e.kind == "draw-until-playable" for e in after.events)


@pytest.mark.unorules_rules(RULES, options={"drawn_card": "must-play"})
def test_dup_draw_with_classic_must_play_the_found_card_is_played(arranged_game: Deal) -> None:
    state = arranged_game([NO_MATCH, OTHER], "G5", draw="R9 W Y4", dealer=1)
    after = state.apply("0: draw")
    assert str(after.phase.card) == "W"
    assert {a.verb for a in after.legal_actions(0)} == {"play"}


@pytest.mark.unorules_rules(RULES)
def test_dup_draw_penalty_draws_are_unchanged(arranged_game: Deal) -> None:
    state = arranged_game(["G+2 R1 R2 R3 R4 R6 R7", OTHER], "G5", draw="R9 Y2 B3 G7", dealer=1)
    state = state.apply("0: play G+2")
    after = state.apply("1: draw")  # the Draw Two's penalty: exactly 2 cards, playable or not
    assert hand(after, 1) == f"{OTHER} R9 Y2"
    assert after.current_player == 0


@pytest.mark.unorules_rules(RULES, options={"draw_limit": 2})
def test_dup_limit_stops_the_draw_and_the_turn_passes(arranged_game: Deal) -> None:
    state = arranged_game([NO_MATCH, OTHER], "G5", draw="R9 Y2 B3 G7", dealer=1)
    after = state.apply("0: draw")
    assert hand(after, 0) == f"{NO_MATCH} R9 Y2"
    assert after.current_player == 1
    assert after.phase.name == "play"


@pytest.mark.unorules_rules(RULES, options={"draw_limit": 2})
def test_dup_limit_a_playable_card_within_the_limit_stops_the_draw(arranged_game: Deal) -> None:
    state = arranged_game([NO_MATCH, OTHER], "G5", draw="R9 G7 Y2", dealer=1)
    after = state.apply("0: draw")
    assert hand(after, 0) == f"{NO_MATCH} R9 G7"
    assert after.phase.name == "drawn"


def test_dup_limit_bad_values_are_refused_when_the_rule_set_is_built() -> None:
    for bad in (-1, "many", True):
        with pytest.raises(RulesetError, match="draw_limit"):
            Ruleset.from_names(RULES, options={"draw_limit": bad})


@pytest.mark.unorules_rules(RULES)
def test_dup_empty_drawing_stops_when_nothing_is_left(arranged_game: Deal) -> None:
    state = arranged_game([NO_MATCH, OTHER], "G5", draw="R9 Y2", dealer=1)
    # Seat 1 takes every card of the draw pile but the first two, so only
    # R9 and Y2 (neither playable) are left to draw and the discard pile
    # holds only the starter: nothing can be reshuffled.
    state = rearranged(state, hands={1: state.hands[1] + state.draw_pile[2:]})
    assert len(state.draw_pile) == 2
    after = state.apply("0: draw")
    assert sorted(map(str, after.hands[0][7:])) == ["R9", "Y2"]
    assert after.draw_pile == ()
    assert after.current_player == 1


@pytest.mark.unorules_rules(RULES)
def test_dup_draw_a_game_replays_and_keeps_every_invariant(unorules_ruleset: Ruleset) -> None:
    # A whole game as a replay: every invariant checked after every action.
    state = unorules_ruleset.new_game(players=3, seed=11)
    actions: list[Action] = []
    while len(actions) < 150 and not state.is_over:
        # Always draw when allowed: the rule this plugin changes.
        draws = [a for a in state.legal_actions() if a.verb == "draw"]
        action = draws[0] if draws else state.legal_actions()[0]
        actions.append(action)
        state = state.apply(action)
    final = Replay(unorules_ruleset, 3, 11, actions=actions).check()
    assert final == state


class DrawUntilPlayableGame(RulesetStateMachine):
    """The toolkit's state machine over this plugin, with one invariant and one rule of its own."""

    ruleset = RULES
    players = (2, 3, 5)

    def __init__(self) -> None:
        super().__init__()
        self.turn_draw: tuple[GameState, Action, GameState] | None = None

    def do(self, action: Action | str) -> GameState:
        before = self.game
        after = super().do(action)
        assert before is not None
        self.turn_draw = None
        if after.last_action is not None and after.last_action.verb == "draw" and before.phase.name == "play":
            self.turn_draw = (before, after.last_action, after)
        return after

    @precondition(lambda self: self.game is not None and not self.game.is_over)
    @rule()
    def draw_for_the_turn(self) -> None:
        """The seat to move draws whenever it may (more turn draws than random play makes)."""
        assert self.game is not None
        action = Action.of(self.game.current_player, "draw")
        if self.game.is_legal(action):
            self.do(action)

    @invariant()
    def a_turn_draw_ends_on_a_playable_card_or_an_empty_pile(self) -> None:
        if self.turn_draw is None:
            return
        before, action, after = self.turn_draw
        if len(after.rounds) != len(before.rounds) or after.is_over:
            return  # a blocked round ended on this draw
        if after.phase.name == "drawn":
            assert after.phase.card is not None
            assert after.matches(action.seat, after.phase.card), "DUP-DRAW stopped on an unplayable card"
        else:
            # DUP-DRAW: without a limit, the turn passes only when nothing is left to draw (DUP-EMPTY).
            assert not after.draw_pile, "DUP-DRAW passed the turn while cards were left to draw"


TestDrawUntilPlayableGame = DrawUntilPlayableGame.TestCase
TestDrawUntilPlayableGame.settings = settings(settings.default, stateful_step_count=30)


def test_dup_draw_conformance_with_every_installed_plugin() -> None:
    report = check_conformance("draw-until-playable", CI_BUDGET)
    assert report.checked  # classic alone, then each other installed plugin, then all together

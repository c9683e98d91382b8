"""Who may see what (issue 44): the ``hidden`` invariant no longer takes
``visible_hands`` at its word. A seat may see another seat's hand only while
a declared open-hands rule is in force, when it could before, or after an
event that showed it that hand (``show``)."""

from __future__ import annotations

import pytest
from toolkit_broken_plugins import Peek, PeekShownToEveryone

from unorules import Action, Ruleset
from unorules.testing.conformance import CI_BUDGET, run_conformance
from unorules.testing.invariants import InvariantViolation, check_shown_hands, check_step
from unorules.testing.scenario import Scenario


def _peeked(plugin: Peek) -> tuple[Scenario, Scenario]:
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    game = Scenario(rules, hands={0: "RPK R1 R2", 1: "G1 G2 G3"}, top="R5")
    return game, game.then("0: play RPK")


def test_a_peek_shown_to_the_peeker_only_holds() -> None:
    game, after = _peeked(Peek())
    assert after.state.view(0).visible_hands.keys() == {0, 1}
    action = Action.parse("0: play RPK")
    check_shown_hands(game.state, action, after.state)
    check_step(game.state, action, after.state)


def test_a_peek_shown_to_every_seat_is_a_leak_naming_the_event_that_should_have_said_it() -> None:
    game, after = _peeked(PeekShownToEveryone())
    assert 1 in after.state.view(2).visible_hands  # the plugin says seat 2 may see it...
    action = Action.parse("0: play RPK")
    with pytest.raises(InvariantViolation, match=r"\[hidden\].*seat 2 is shown seat 1's hand") as info:
        check_shown_hands(game.state, action, after.state)
    assert "draft.show_hand(1, to=2)" in str(info.value)  # ...but no event showed it to seat 2
    with pytest.raises(InvariantViolation, match=r"\[hidden\]"):
        check_step(game.state, action, after.state)


def test_the_peek_leak_is_caught_at_ci_and_the_correct_peek_passes() -> None:
    broken = run_conformance(PeekShownToEveryone(), CI_BUDGET, others=[], fail_fast=True)
    assert [v.invariant for v in broken.violations] == ["hidden"]
    good = run_conformance(Peek(), CI_BUDGET, others=["penalties"])  # its catches take plays back
    assert good.ok, good.format()


def test_open_hands_declared_by_an_extra_are_no_leak() -> None:
    # custom-wilds' open-hands card (C7) opens every hand while its extra is set
    # (TestHints.open_hands_while): no show event needed.
    rules = Ruleset.from_names(["classic", "custom-wilds"], options={"custom_wild_2": "open-hands"})
    game = Scenario(rules, hands={0: "CW2 R1 R2"}, top="R5")
    play = next(a for a in game.state.legal_actions() if a.card is not None and a.card.kind == "CW2")
    after = game.then(play)
    assert rules.visible_hands(after.state, 1) == {0, 2}  # every hand is open...
    assert not [e for e in after.state.events if e.kind == "show"]  # ...without a show event
    check_shown_hands(game.state, play, after.state)
    check_step(game.state, play, after.state)

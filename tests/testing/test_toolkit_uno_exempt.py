"""``TestHints.uno_exempt_when``: a rule may exempt a seat that its own card's
effect leaves one card from calling UNO (R-NM-UNO's ``exempt``); the ``uno``
invariant accepts that only when a plugin of the rule set declares it for the
options set."""

from __future__ import annotations

import pytest
from toolkit_broken_plugins import DiscardAll

from unorules import Action, Draft, GameState, Option, Ruleset, TestHints, hookimpl, one_of
from unorules.testing import arrange_deck
from unorules.testing.invariants import InvariantViolation, check_step


class ExemptDiscardAll(DiscardAll):
    """Discard All whose option ``da_uno=exempt`` spares the discarding seat the UNO call."""

    name = "exempt-discard-all"
    options = (Option("da_uno", "must-call", "must-call or exempt", one_of("must-call", "exempt")),)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        done = super().on_play(draft, action, previous)
        if done and draft.ruleset.options["da_uno"] == "exempt":
            draft.end_exposure((action.seat,))  # the rule's exemption
        return done


class DeclaredExemptDiscardAll(ExemptDiscardAll):
    name = "declared-exempt-discard-all"
    testing = TestHints(uno_exempt_when=(("da_uno", "exempt"),))


def _step(plugin: DiscardAll, option: str) -> tuple[GameState, Action, GameState]:
    # Seat 0 moves first; its Red Discard All takes R1-R5 with it and leaves G5 alone.
    hands = ["RDA R1 R2 R3 R4 R5 G5", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B5 B6 B7"]
    rules = Ruleset.from_names(["classic"], {"da_uno": option}, plugins=[plugin])
    before = rules.new_game(players=3, deck=arrange_deck(hands, "R9", dealer=2), dealer=2)
    action = Action.parse("0: play RDA")
    after = before.apply(action)
    assert [str(card) for card in after.hands[0]] == ["G5"]
    return before, action, after


def test_uno_catches_an_undeclared_exemption() -> None:
    before, action, after = _step(ExemptDiscardAll(), "exempt")
    assert 0 not in after.uno_exposed
    with pytest.raises(InvariantViolation, match=r"\[uno\].*not open to a catch"):
        check_step(before, action, after)


def test_uno_accepts_an_exemption_the_plugin_declares_for_the_options_set() -> None:
    before, action, after = _step(DeclaredExemptDiscardAll(), "exempt")
    assert 0 not in after.uno_exposed
    check_step(before, action, after)


def test_uno_still_wants_the_exposure_when_the_declared_option_is_not_set() -> None:
    before, action, after = _step(DeclaredExemptDiscardAll(), "must-call")
    assert 0 in after.uno_exposed
    check_step(before, action, after)

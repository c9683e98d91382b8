"""``TestHints.uno_exempt_when``: a rule may exempt a seat that its own card's
effect leaves one card from calling UNO (R-NM-UNO's ``exempt``); the ``uno``
invariant accepts that only when a plugin of the rule set declares it for the
options set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import pytest
from toolkit_broken_plugins import DiscardAll

import unorules
from unorules import (
    Action,
    Draft,
    Event,
    EventSpec,
    GameState,
    Option,
    Plugin,
    Ruleset,
    TestHints,
    hookimpl,
    one_of,
)
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


unorules.register_verb("toolkit_hand_one", doc="a test plugin's verb: take all but one card of the next hand")


class HandsOne(Plugin):
    """The seat to move may take every card but one from the next seat's hand;
    that seat, handed one card, is open to a catch (it must call)."""

    name = "hands-one"
    api_version = 2
    requires = ("classic",)
    verbs: ClassVar[Mapping[str, str]] = {"toolkit_hand_one": "turn"}
    events = (EventSpec("hand-one", "a seat took cards", (("seat", "who"), ("target", "from whom"))),)

    @hookimpl
    def legal_actions(self, state: GameState) -> list[Action]:
        return [Action.of(state.current_player, "toolkit_hand_one")] if state.phase.name == "play" else []

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        if action.verb != "toolkit_hand_one":
            return None
        seat, other = action.seat, draft.next_seat(action.seat)
        hand = draft.hands[other]
        draft.set_hands({seat: [*draft.hands[seat], *hand[1:]], other: hand[:1]})
        draft.expose_uno((other,))
        draft.add_event(Event("hand-one", seat, target=other))
        draft.pass_turn(1, seat)
        return True


class DeclaredHandsOne(HandsOne):
    name = "declared-hands-one"
    testing = TestHints(uno_handed_when=(("target_score", 500),))  # classic's default: always set


@pytest.mark.parametrize(("plugin", "declared"), [(HandsOne(), False), (DeclaredHandsOne(), True)])
def test_uno_lets_a_seat_handed_one_card_be_open_to_a_catch_only_when_declared(
    plugin: HandsOne, declared: bool
) -> None:
    before = Ruleset.from_names(["classic"], plugins=[plugin]).new_game(players=3, seed=3)
    action = Action.of(before.current_player, "toolkit_hand_one")
    after = before.apply(action)
    other = before.next_seat(action.seat)
    assert len(after.hands[other]) == 1
    assert other in after.uno_exposed
    if declared:
        check_step(before, action, after)
    else:
        with pytest.raises(InvariantViolation, match=r"\[uno\].*stale exposure"):
            check_step(before, action, after)

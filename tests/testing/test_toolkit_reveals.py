"""The ``hidden`` invariant and :attr:`unorules.EventSpec.reveals`: a public
event naming cards held in a hand other seats may not see is a leak, unless
its kind declares that the rule shows those cards to the whole table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import pytest

import unorules
from unorules import Action, Card, Draft, Event, EventSpec, GameState, Plugin, Ruleset, hookimpl
from unorules.testing import arrange_deck
from unorules.testing.invariants import InvariantViolation, check_hidden_cards, check_step

unorules.register_verb("toolkit_show", doc="a test plugin's verb: show a card of one's hand to the table")


class _ShowsACard(Plugin):
    """The seat to move may show the first card of its hand to the table (it
    keeps the card) instead of playing: a public ``shown`` event names it."""

    api_version = 2
    requires = ("classic",)
    verbs: ClassVar[Mapping[str, str]] = {"toolkit_show": "turn"}

    @hookimpl
    def legal_actions(self, state: GameState) -> list[Action]:
        if state.phase.name != "play" or not state.hands[state.current_player]:
            return []
        return [Action.of(state.current_player, "toolkit_show")]

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        if action.verb != "toolkit_show":
            return None
        card = draft.hands[action.seat][0]
        draft.add_event(Event("shown", action.seat, (card,), None, "showed a card"))
        draft.pass_turn(1, action.seat)
        return True


class ShowsUndeclared(_ShowsACard):
    name = "shows-undeclared"
    events = (
        EventSpec("shown", "a seat showed a card of its hand", (("seat", "who"), ("cards", "the card"))),
    )


class ShowsDeclared(_ShowsACard):
    name = "shows-declared"
    events = (
        EventSpec(
            "shown",
            "a seat showed a card of its hand to the table",
            (("seat", "who"), ("cards", "the card")),
            reveals=True,
        ),
    )


def _shown(plugin: Plugin) -> tuple[GameState, Action, GameState]:
    # Seat 0 moves first and shows its R0, the deck's only one: no copy lies outside the hands.
    hands = ["R0 R1 R2 R3 R4 R5 R6", "G1 G2 G3 G4 G5 G6 G7", "B1 B2 B3 B4 B5 B6 B7"]
    deck = arrange_deck(hands, "Y9", dealer=2)
    state = Ruleset.from_names(["classic"], plugins=[plugin]).new_game(players=3, deck=deck, dealer=2)
    action = Action.of(0, "toolkit_show")
    return state, action, state.apply(action)


def test_hidden_catches_a_public_event_showing_a_card_of_a_hidden_hand() -> None:
    before, action, after = _shown(ShowsUndeclared())
    assert after.events[-1].cards == (Card.parse("R0"),)
    assert after.events[-1].cards[0] in after.hands[action.seat]
    with pytest.raises(InvariantViolation, match=r"\[hidden\].*public 'shown' event"):
        check_hidden_cards(after, before)
    with pytest.raises(InvariantViolation, match=r"\[hidden\]"):
        check_step(before, action, after)


def test_hidden_accepts_an_event_whose_kind_declares_it_reveals_its_cards() -> None:
    before, action, after = _shown(ShowsDeclared())
    assert after.ruleset.events["shown"].reveals
    assert after.events[-1].cards[0] in after.hands[action.seat]
    check_hidden_cards(after, before)
    check_step(before, action, after)


def test_reveals_is_off_unless_declared() -> None:
    assert not EventSpec("x", "an event").reveals
    assert not Ruleset.from_names(["classic"]).events["draw"].reveals

"""A new card gets every house rule for free (issue 42, point 5).

A card plugin written as ``docs/writing-plugins.rst`` teaches, importing only ``unorules``:
a coloured action card, Purge (``PX``: its player also discards every other card of its
colour, which may empty the hand), and a wild, Wild Skip (``WS``: names a colour and skips
the next seat). It knows no house rule; it asks the core's shared questions (its plays are
listed by the base rule set, which asks ``may_play``; its going out is ``draft.going_out``
and ``draft.went_out``). Under every house rule (the last-card ban, forced play, the
UNO-call variants, the hand cap, last-loses) it obeys the rule, and games keep every
invariant of the testing toolkit.

The house rules are spelled here as classic's options (``last_card_ban``, ``forced_play``,
``uno_call``, ``hand_limit``) and the ``last-loses`` plugin; when they move into their own
plugins (``last-card``, ``turn-rules``, ``uno-calls``), only :data:`HOUSE_RULES` changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from unorules import (
    COLORS,
    Action,
    Card,
    Draft,
    Event,
    EventSpec,
    GameState,
    Plugin,
    Ruleset,
    hookimpl,
    register_kind,
)
from unorules.testing import arrange_deck, rearranged
from unorules.testing.conformance import play_checked_game

register_kind("PX", "Purge", wild=False)
register_kind("WS", "Wild Skip", wild=True)


class NewCards(Plugin):
    """New cards: Purge discards its colour, Wild Skip skips the next seat (H-PURGE, H-WILD-SKIP)."""

    name = "new-cards"
    api_version = 2
    requires = ("classic",)
    rules = ("H-PURGE", "H-WILD-SKIP")
    events = (
        EventSpec(
            "purge",
            "a Purge was played: its player discarded every other card of its colour",
            (("seat", "the player"), ("cards", "the cards discarded")),
            "{seat} discarded {cards} under the Purge",
        ),
    )

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return [*(Card.of(color, "PX") for color in COLORS), Card.parse("WS"), Card.parse("WS")]

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return {"PX": 20, "WS": 40}.get(card.kind)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind not in ("PX", "WS") or draft.going_out(seat) is not None:
            return None  # not ours, or its player's last card: the core and classic decide
        if card.kind == "WS":
            draft.pass_turn(2, seat)  # H-WILD-SKIP
            return True
        gone = [c for c in draft.hands[seat] if c.color is card.color]
        draft.discard_under(seat, gone)  # H-PURGE
        draft.add_event(Event("purge", seat, tuple(gone), "H-PURGE"))
        if draft.hands[seat] or not draft.went_out(seat).ends:
            draft.pass_turn(1, seat)
        return True


PLUGIN = NewCards()

HOUSE_RULES: list[tuple[tuple[str, ...], Mapping[str, Any]]] = [
    ((), {}),
    ((), {"last_card_ban": "wild"}),
    ((), {"last_card_ban": "action"}),
    ((), {"forced_play": True}),
    ((), {"uno_call": "one-card"}),
    ((), {"uno_call": "playable"}),
    ((), {"uno_call": "silent"}),
    ((), {"hand_limit": 9}),
    (("last-loses",), {}),
    (("last-loses",), {"last_card_ban": "action", "uno_call": "one-card"}),
]
"""Each house rule (plugins, options), spelled as today: classic's options and ``last-loses``."""

HANDS = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]


def _rules(plugins: tuple[str, ...] = (), options: Mapping[str, Any] | None = None) -> Ruleset:
    return Ruleset.from_names(["classic", *plugins], options=dict(options or {}), plugins=[PLUGIN])


def _game(hand: str, plugins: tuple[str, ...] = (), options: Mapping[str, Any] | None = None) -> GameState:
    """Four seats, dealer 0: seat 1, to move on a red 5, holds ``hand``."""
    state = _rules(plugins, options).new_game(players=4, deck=arrange_deck(HANDS, "R5"), dealer=0)
    return rearranged(state, hands={1: hand})


def _plays(state: GameState, seat: int = 1) -> list[str]:
    return [str(a) for a in state.legal_actions(seat) if a.verb == "play"]


@pytest.mark.parametrize(("plugins", "options"), HOUSE_RULES, ids=lambda v: ",".join(v) or str(v))
def test_new_cards_keep_every_invariant_under_every_house_rule(
    plugins: tuple[str, ...], options: Mapping[str, Any]
) -> None:
    rules = _rules(plugins, options)
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        violation, _ = play_checked_game(rules, players, seed, max_actions=250, eager=0.8)
        assert violation is None, violation


def test_r_house_last_card_the_new_cards_may_not_be_a_banned_last_card() -> None:
    assert _plays(_game("WS", options={"last_card_ban": "wild"})) == []
    assert _plays(_game("RPX", options={"last_card_ban": "action"})) == []
    assert _plays(_game("WS", options={"last_card_ban": "action"})) == []
    assert _plays(_game("RPX", options={"last_card_ban": "wild"})) == ["1: play RPX"]
    assert len(_plays(_game("WS"))) == 4  # without the ban: a colour each


def test_r_house_forced_play_a_seat_holding_a_new_card_to_play_may_not_draw() -> None:
    forced = _game("RPX G9", options={"forced_play": True})
    assert "1: draw" not in map(str, forced.legal_actions(1))
    assert "1: draw" in map(str, _game("RPX G9").legal_actions(1))
    wild = _game("WS G9", options={"forced_play": True})
    assert "1: draw" not in map(str, wild.legal_actions(1))


@pytest.mark.parametrize(
    ("call", "before", "exposed"),
    [
        ("two-cards", True, True),
        ("one-card", False, True),
        ("playable", True, True),
        ("silent", False, False),
    ],
)
def test_r_house_uno_call_the_new_cards_follow_each_variant(call: str, before: bool, exposed: bool) -> None:
    state = _game("RPX G9", options={"uno_call": call})
    assert ("1: uno" in map(str, state.legal_actions(1))) is before  # the call before the card
    after = state.apply("1: play RPX")  # down to one card, without a call
    catches = [a for a in after.legal_actions() if a.verb == "catch" and a.target == 1]
    assert bool(catches) is exposed


def test_r_house_uno_call_playable_no_call_without_a_new_card_to_play() -> None:
    state = rearranged(_game("GPX G9", options={"uno_call": "playable"}), top="B5")
    assert "1: uno" not in map(str, state.legal_actions(1))


def test_r_house_hand_cap_a_seat_at_the_cap_plays_its_new_card_and_may_not_draw() -> None:
    capped = _game("RPX G9 G8 B9 B8 Y9 Y8 G7 B7", options={"hand_limit": 9})
    assert "1: draw" not in map(str, capped.legal_actions(1))
    assert _plays(capped) == ["1: play RPX"]


def test_r_house_last_loses_going_out_on_a_new_card_leaves_the_round() -> None:
    # On Wild Skip as the last card, and by Purge's discards emptying the hand: the seat
    # leaves the round, play goes on; without last-loses it wins the round.
    wild = _game("WS", ("last-loses",)).apply("1: play WS G")
    assert (wild.rounds, wild.left, wild.current_player) == ((), (1,), 2)
    purged = _game("RPX R9", ("last-loses",)).apply("1: play RPX")
    assert (purged.rounds, purged.left, purged.current_player) == ((), (1,), 2)
    assert _game("RPX R9").apply("1: play RPX").rounds[-1].winner == 1
    assert _game("WS").apply("1: play WS G").rounds[-1].winner == 1


def test_the_new_cards_import_only_unorules() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    assert not re.search(r"^\s*(from|import) unorules_", source, re.M)

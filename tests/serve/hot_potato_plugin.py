"""A third-party card plugin for the browser tests: "Wild Hot Potato" (``HP``), a wild on which
every seat still in the round passes its hand on to the next seat in the direction of play.

Written as an outside author would, from the docs: one kind of card (:func:`unorules.register_kind`),
its effect (``on_play``), its event in words, and how it looks at a table (the ``display`` hook:
its name, a short symbol, its own paint and ink, an icon). The tests install it with an entry point
of their own (see ``test_serve_display_browser.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from unorules import (
    Action,
    Card,
    CardLook,
    Display,
    Draft,
    Event,
    EventSpec,
    GameState,
    Plugin,
    Ruleset,
    hookimpl,
    register_kind,
)

register_kind("HP", "Wild Hot Potato", wild=True)

HOT_POTATO = Card.parse("HP")

LOOK = CardLook(
    "HP", name="Hot Potato", symbol="HP", label="Hot Potato", icon="♨", paint="#c8501e", ink="#fff4d6"
)
"""How the card looks at a table."""


class HotPotatoPlugin(Plugin):
    """Wild Hot Potato: every seat passes its hand on to the next seat in the direction of play."""

    name = "hot-potato"
    api_version = 2
    requires = ("classic",)
    verbs: ClassVar[Mapping[str, str]] = {"play": "turn"}
    events = (
        EventSpec(
            "hot-potato",
            "every seat passed its hand on",
            (("seat", "the seat that played the Hot Potato"),),
            "every hand moved on one seat",
        ),
    )

    @hookimpl
    def display(self, ruleset: Ruleset) -> Display:
        return Display(cards=(LOOK,))

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return (HOT_POTATO,) * 4

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return 50 if card is HOT_POTATO else None

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        if action.card is not HOT_POTATO or draft.going_out(action.seat) is not None:
            return None
        seats = [s for s in range(draft.players) if s not in draft.left]
        step = 1 if draft.direction > 0 else -1
        draft.move_hands({s: seats[(i + step) % len(seats)] for i, s in enumerate(seats)})
        draft.add_event(Event("hot-potato", action.seat, (), "HP-PASS", "every hand moved on one seat"))
        draft.pass_turn(1, action.seat)
        return True


plugin = HotPotatoPlugin()

"""Draw until you can play: a sample third-party house rule for unorules.

Enable it next to ``classic``::

    Ruleset.from_names(["classic", "draw-until-playable"], options={"draw_limit": 5})

A house rule many tables play: a player who draws for the turn keeps drawing
until a card they can play turns up. It is written the way any third-party
plugin is: its own distribution, found through the ``unorules`` entry-point
group, changing the game only through hooks, and tested only with
``unorules.testing`` (see ``docs/testing-plugins.rst``). The library ships
the same house rule as the plugin ``keep-drawing`` (R-HOUSE-DRAW-UNTIL, with
the hand cap and the other house rules taken into account); this sample stays
the worked example, and the two refuse each other.

Rules (ids of this plugin; unorules' rules reference does not have this house rule)
-----------------------------------------------------------------------------------

**DUP-DRAW** When a seat draws for its turn (R-TURN-DRAW: it cannot or will
not play) and the card drawn cannot be played, it draws again, one card at a
time, until it draws a playable card. That card then follows R-TURN-DRAW as
usual: it may be played at once or kept (classic's ``drawn_card`` option
decides). Draws that are penalties (Draw Two, Wild Draw Four, UNO, challenge)
are not draws for the turn and are unchanged.

**DUP-LIMIT** Option ``draw_limit`` (default ``0``, no limit): the most cards
one turn's draw takes. When the limit is reached without a playable card, the
turn passes (R-TURN-DRAW), as after an ordinary unplayable draw.

**DUP-EMPTY** When the draw pile runs out it is refilled from the discard pile
(R-TURN-RESHUFFLE); when nothing is left to draw at all, drawing stops and the
turn passes.

Playability is the core's question every rule shares (``state.matches``, the
``card_matches`` hook: colour, number or symbol, wilds; under classic a Wild
Draw Four with ``challenge=off`` only without a card of the colour), so the
plugin imports no other plugin's module. The plugin implements one hook, ``on_draw``: classic's draw for
the turn calls it with ``reason="turn"`` and then looks at the last card of the
hand, which this plugin makes the last card it drew.
"""

from __future__ import annotations

from typing import Any

from unorules import Card, Draft, Event, EventSpec, Option, Plugin, hookimpl

__all__ = ["DrawUntilPlayablePlugin", "plugin"]

REASON = "until-playable"
"""The ``reason`` of the extra draws (so this plugin's own hook ignores them)."""


def _limit(value: Any) -> int:
    """0 (no limit) or a positive number of cards."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{value!r} is not 0 (no limit) or a positive number of cards")
    return value


class DrawUntilPlayablePlugin(Plugin):
    """Draw until you can play: drawing for the turn goes on until a playable card comes.

    DUP-DRAW: a turn's draw goes on until a playable card is drawn.
    """

    name = "draw-until-playable"
    api_version = 2
    requires = ("classic",)
    rules = ("DUP-DRAW", "DUP-LIMIT", "DUP-EMPTY")
    events = (
        EventSpec(
            "draw-until-playable",
            "a seat drew until it could play (DUP-DRAW)",
            (("seat", "the seat that drew"), ("count", "how many cards it drew in all")),
            "{seat} kept drawing until a card could be played, {count:card} in all",
        ),
    )
    options = (
        Option(
            "draw_limit",
            0,
            "DUP-LIMIT: the most cards one turn's draw takes (0: no limit)",
            _limit,
            "0 (no limit) or a positive integer, e.g. 3",
        ),
    )

    @hookimpl
    def on_draw(self, draft: Draft, seat: int, cards: tuple[Card, ...], reason: str) -> None:
        if reason != "turn" or not cards:
            return  # penalties, other plugins' draws, and an empty draw (DUP-EMPTY)
        limit: int = draft.ruleset.options["draw_limit"]
        drawn = len(cards)
        last = cards[-1]
        # DUP-DRAW, bounded by DUP-LIMIT.
        while not draft.matches(seat, last) and (limit == 0 or drawn < limit):
            if drawn == len(cards) and not draft.draw_pile and len(draft.discard_pile) < 2:
                return  # DUP-EMPTY: nothing to draw at all, nothing to record
            more = draft.draw(seat, 1, REASON)
            if not more:
                break  # DUP-EMPTY: nothing left to draw
            drawn += 1
            last = more[-1]
        if drawn > len(cards):
            draft.add_event(
                Event("draw-until-playable", seat, (), "DUP-DRAW", f"{drawn} cards drawn in all", count=drawn)
            )


plugin = DrawUntilPlayablePlugin()
"""The plugin object the ``unorules`` entry point ``draw-until-playable`` names."""

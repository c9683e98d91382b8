"""Keep drawing: a seat that draws for its turn draws until it can play (R-HOUSE-DRAW-UNTIL).

Enable it with ``Ruleset.from_names(["classic", "keep-drawing"])`` (or
``["flip", "keep-drawing"]``); it needs a base rule set that deals the cards
and plays them, and names none. It implements one hook, ``on_draw``: the base
rule set's draw for the turn calls it, and this plugin draws on, a card at a time, until the card drawn
can be played. Classic then treats that card as the card drawn (R-TURN-DRAW).

Rules
-----

**R-HOUSE-DRAW-UNTIL** (house rule; [LU] ``drawUntilPlayable``; No Mercy's draw)
    A seat that draws for its turn (it cannot or will not play) and draws a
    card it cannot play draws again, one card at a time, until it draws one
    it can play. That card follows R-TURN-DRAW: it may be played at once or
    kept, as classic's ``drawn_card`` option says; with ``drawn_card=must-play``
    it must be played at once, which is the No Mercy draw.

Options
-------

``draw_until_limit`` (default ``0``: no limit)
    The most cards one turn's draw may take. When they are drawn without a
    playable card, the turn passes, as after an ordinary draw (R-TURN-DRAW).

Decisions where the rules are silent
------------------------------------

* **Only the draw for the turn.** Penalty draws (a Draw Two, a Wild Draw
  Four, a stack, an UNO catch, a challenge, a false call, a misplay) and the
  draws of other plugins' effects (a customizable wild's "draw until a
  colour") are never prolonged.
* **The hand cap** (``hand_limit``, R-HOUSE-HAND-CAP), and any rule that
  refuses a seat the turn's draw (the core's ``refuse_turn_draw`` question,
  ``Position.turn_draw_refused``): the drawing stops when the rule says so
  (the hand reaches the cap), playable card or not; the turn passes if the
  last card cannot be played.
* **Nothing left to draw.** When the draw pile runs out the discard pile
  but its top card is shuffled into a new one (R-TURN-RESHUFFLE); when nothing
  at all is left, the drawing stops there and the turn passes.
* **Playable** is the core's question ``Position.matches`` (the
  ``card_matches`` hook): colour, number or symbol, any wild; a Wild Draw
  Four with ``challenge=off`` only without a card of the colour. A drawn
  card is never its holder's last card, so the last-card ban
  (R-HOUSE-LAST-CARD) does not stop the drawing.
* Each prolonged draw is told by a ``kept-drawing`` event with the number of
  cards drawn in all; the cards themselves are in the usual private ``draw``
  events.

Interactions
------------

``draw-until-playable``
    Conflicts: the sample plugin under ``examples/`` plays the same rule (it
    is the library's example of a third-party plugin); keep one.
``flip``
    A card is playable by the face it shows (R-FLIP-MATCH); the last card
    drawn is flip's card drawn (``drawn_card``).
``no-mercy``
    Conflicts: no-mercy's turn draw already goes on until a playable card
    comes, which must be played (R-NM-DRAW).
``stacking``, ``deflect``
    None: answering a pending draw is not a draw for the turn; a seat that
    takes a stack draws exactly the stack.
``jump-in``
    Drawing is the seat's turn action, so it closes the jump-in window as
    any draw does; the seat plays its playable card as a turn play.
``seven-o``, ``swap-hands``, ``shuffle-hands``, ``multi-play``
    None: only the draw changes.
``custom-wilds``
    Its effects draw with their own reasons (C1 draws to a colour, C3 draws
    three): those draws are not prolonged.
``penalties``
    With ``enforcement=table`` a seat may still make an illegal play instead
    of drawing; its draws are prolonged as any.
``partners``, ``elimination``, ``last-loses``
    None: only seats still in the round draw.

``forced_play``
    (R-HOUSE-FORCED-PLAY) A seat draws only when it cannot play, then draws
    until it can: together they are the No Mercy turn.
``hand_limit``
    (R-HOUSE-HAND-CAP) The drawing stops at the cap (above).
``drawn_card``
    With ``drawn_card=must-play`` the card found must be played at once.

Conflicts
---------

``draw-until-playable`` (the sample plugin of the same rule); ``no-mercy`` (it
draws until playable itself); see Interactions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from unorules import Card, Draft, Event, EventSpec, Option, Plugin, TestHints, hookimpl

__all__ = ["REASON", "KeepDrawingPlugin", "plugin"]

REASON = "keep-drawing"
"""The ``reason`` of the extra draws (so this plugin's own hook leaves them alone)."""


def _limit(value: Any) -> int:
    """0 (no limit) or a positive number of cards."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{value!r} is not 0 (no limit) or a number of cards")
    return value


class KeepDrawingPlugin(Plugin):
    """Keep drawing: a seat that draws for its turn draws until it can play.

    R-HOUSE-DRAW-UNTIL: the draw for the turn goes on until a playable card comes.
    """

    name = "keep-drawing"
    api_version = 2
    conflicts: ClassVar[Mapping[str, str]] = {
        "draw-until-playable": "the sample plugin plays the same rule (draw until playable): keep one",
        "no-mercy": "no-mercy's turn draw already goes on until a playable card comes, which must be "
        "played (R-NM-DRAW), checking the Mercy rule at every card",
    }
    rules = ("R-HOUSE-DRAW-UNTIL",)
    events = (
        EventSpec(
            "kept-drawing",
            "A seat that drew for its turn kept drawing until it could play, or until it had to "
            "stop (R-HOUSE-DRAW-UNTIL).",
            (("seat", "the seat that drew"), ("count", "how many cards it drew in all this turn")),
            "{seat} kept drawing, looking for a card to play",
        ),
    )
    options = (
        Option(
            "draw_until_limit",
            0,
            "R-HOUSE-DRAW-UNTIL: the most cards one turn's draw takes (0: no limit)",
            _limit,
            "0 (no limit) or a number of cards, e.g. 5",
        ),
    )
    testing = TestHints(round_length_factor=1.5, option_values={"draw_until_limit": (3,)})

    @hookimpl
    def on_draw(self, draft: Draft, seat: int, cards: tuple[Card, ...], reason: str) -> None:
        if reason != "turn" or not cards:
            return  # penalties, other plugins' draws, and a draw that found nothing
        limit: int = draft.ruleset.options["draw_until_limit"]
        drawn = len(cards)
        last = cards[-1]
        # R-HOUSE-DRAW-UNTIL, bounded by draw_until_limit and by every rule that refuses a
        # seat the turn's draw (a hand cap, R-HOUSE-HAND-CAP: the refuse_turn_draw hook).
        while not draft.matches(seat, draft.face(last)):  # the face in play (two-faced decks)
            if (limit and drawn >= limit) or draft.turn_draw_refused(seat, False) is not None:
                break
            more = draft.draw(seat, 1, REASON)
            if not more:
                break  # nothing left to draw at all
            drawn += 1
            last = more[-1]
        if drawn > len(cards):
            draft.add_event(
                Event(
                    "kept-drawing",
                    seat,
                    (),
                    "R-HOUSE-DRAW-UNTIL",
                    f"{drawn} cards drawn in all",
                    count=drawn,
                )
            )


plugin = KeepDrawingPlugin()
"""The plugin object the ``unorules`` entry point ``keep-drawing`` names."""

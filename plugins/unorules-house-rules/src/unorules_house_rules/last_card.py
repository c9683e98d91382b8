"""last-card: what a seat's last card may be (R-HOUSE-LAST-CARD, R-HOUSE-NO-LAST-DRAW).

Formerly two options of classic; moved out in issue 42 (see the package's
docstring for the grouping). The plugin requires nothing: it answers the core's
``play_forbidden`` hook, which every plugin offering a play asks (a match, a
stack, a jump-in, a deflection, a group), and runs first in ``on_play`` for a
last draw card, so it works with any base (classic, flip, no-mercy).

.. rubric:: Options

* ``last_card_ban`` (``none``): R-HOUSE-LAST-CARD. ``wild``: no wild may be
  a seat's last card; ``draw``: no draw card (a Draw Two or Wild Draw Four;
  under another base any card whose kind says ``+``); ``action``: only a
  number card. A banned last card is not playable: a seat holding only it
  draws.
* ``last_draw_card`` (``draws``): after a last draw card the next seat still
  draws (R-OUT-LAST-DRAW); ``no-draw``: nothing more happens
  (R-HOUSE-NO-LAST-DRAW, a common reading the rules contradict, never the
  default).

Both defaults are the rules reference (the value meaning "off"), as they were
in classic: a rule set that names the plugin without options plays as without it.

.. rubric:: Decisions

* **A banned last card** (R-HOUSE-LAST-CARD) is judged when the seat holds
  that card alone: playing its next-to-last card down to a banned one is
  allowed, after which it must draw until it holds something else to go out
  on. A drawn card is never a last card. The refusal names the rule and the
  option (``explain_illegal``).
* **A last draw card** (R-HOUSE-NO-LAST-DRAW): with ``no-draw`` a seat that
  goes out (the round ends: ``draft.going_out(seat).ends``) on a card whose
  kind says ``+``, or on a card that answers a pending draw (a stack, a
  deflection: the phase it was laid in had a count), makes nobody draw: no
  other plugin's effect of that card runs.

.. rubric:: Interactions

``last_card_ban``, ``misplay_penalty``
    Trying to go out on a banned last card is a misplay: the seat keeps the
    card, draws the penalty and loses its turn ([LU]: "trying costs 1 drawn
    card").
``last_card_ban``, ``stacking``, ``jump-in``, ``deflect``
    A banned last card answers no stack, jumps in nowhere and deflects no
    draw: a seat holding only it takes the draw or waits for its turn.
``last_card_ban``, ``multi-play``
    A ban never falls on a number card, so a group can always go out.
``last_draw_card``, ``stacking``, ``deflect``
    ``no-draw`` also drops the stack a seat goes out on, and the draw it
    deflects with its last card.
"""

from __future__ import annotations

from collections.abc import Callable

from unorules import Action, Card, Draft, GameState, Option, Plugin, Position, Ruleset, hookimpl, one_of

__all__ = ["LastCardPlugin", "plugin"]

_BANS: dict[str, Callable[[Card], bool] | None] = {
    "none": None,
    "wild": lambda card: card.color is None,
    "draw": lambda card: "+" in card.kind,
    "action": lambda card: card.number is None,
}
"""Which cards ``last_card_ban`` keeps from being a seat's last card (R-HOUSE-LAST-CARD)."""

_KEY = ("last-card", "ban")


def _ban(ruleset: Ruleset) -> Callable[[Card], bool] | None:
    return _BANS[ruleset.options["last_card_ban"]]


class LastCardPlugin(Plugin):
    """Last-card house rules: cards that may not be a seat's last, and a last draw card that draws nothing."""

    name = "last-card"
    api_version = 2
    rules = ("R-HOUSE-LAST-CARD", "R-HOUSE-NO-LAST-DRAW")
    options = (
        Option(
            "last_card_ban",
            "none",
            "R-HOUSE-LAST-CARD: which cards may not be a seat's last card: none, any wild (wild), "
            "a Draw Two or Wild Draw Four (draw), any but a number card (action)",
            one_of("none", "wild", "draw", "action"),
            "none, wild, draw, action",
        ),
        Option(
            "last_draw_card",
            "draws",
            "after a last Draw Two or Wild Draw Four: the next seat still draws (R-OUT-LAST-DRAW), "
            "or nothing more happens, a common reading the rules contradict (R-HOUSE-NO-LAST-DRAW)",
            one_of("draws", "no-draw"),
            "draws, no-draw",
        ),
    )

    @hookimpl
    def play_forbidden(self, state: Position, seat: int, card: Card) -> str | None:
        ban = state.ruleset.cached(_KEY, _ban)
        if ban is not None and len(state.hands[seat]) == 1 and ban(card):
            return "R-HOUSE-LAST-CARD"
        return None

    @hookimpl(tryfirst=True)
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        if draft.ruleset.options["last_draw_card"] != "no-draw":
            return None
        out = draft.going_out(action.seat)
        card = action.card
        if out is None or not out.ends or card is None:
            return None
        if "+" in draft.face(card).kind or previous.phase.count:
            return True  # R-HOUSE-NO-LAST-DRAW: the round ends (the core ends it) and nobody draws
        return None

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        card = action.card
        seat = action.seat
        if action.verb != "play" or card is None or not 0 <= seat < state.players:
            return None
        hand = state.hands[seat]
        if len(hand) != 1 or state.face(hand[0]) != card or self.play_forbidden(state, seat, card) is None:
            return None
        return (
            "R-HOUSE-LAST-CARD",
            f"{card} may not be your last card "
            f"(last_card_ban={state.ruleset.options['last_card_ban']}): draw instead",
        )


plugin = LastCardPlugin()
"""The plugin object the ``unorules`` entry point ``last-card`` names."""

"""Deflect: a seat told to draw sends the draw back with a Reverse, or on with a Skip (R-HOUSE-DEFLECT).

Enable it with ``Ruleset.from_names(["classic", "deflect"])``; it needs a base rule set
that deals the cards and plays them, and names none. It changes the game only through
hooks: it adds the deflecting plays to the legal actions of a seat that a Draw Two or a
Wild Draw Four told to draw, and its ``on_play`` hook hands the pending draw on.

Rules
-----

**R-HOUSE-DEFLECT** (house rule; [LU] ``reverseDeflectDrawTwo``, ``reverseDeflectDrawFour``, ``skipDeflect``)
    A seat told to draw by a Draw Two or a Wild Draw Four may, instead of
    drawing, lay a Reverse of any colour: the direction of play flips and
    the pending draw goes back to the seat that laid the draw card, which
    must now draw it. Or it may lay a Skip of any colour: the pending draw
    passes to the next seat. The colour in play is the deflecting card's.
    A deflected Wild Draw Four can no longer be challenged.

**R-HOUSE-REVENGE** (option ``deflect_revenge``)
    The draw a Reverse sends back doubles: a Draw Two deflected with a
    Reverse makes its player draw 4.

Options
-------

``deflect_reverse`` (``any`` by default)
    Which pending draws a Reverse sends back: ``any`` (a Draw Two or a Wild
    Draw Four), ``draw-two``, ``wild-draw-four``, or ``off`` (none).
``deflect_skip`` (``on`` by default)
    Whether a Skip passes a pending draw on.
``deflect_revenge`` (``off`` by default)
    R-HOUSE-REVENGE: a draw sent back by a Reverse doubles.

``deflect_reverse=off`` with ``deflect_skip=off`` deflects nothing and is
refused when the rule set is built.

Decisions where the rules are silent
------------------------------------

* **Who may deflect.** The seat the draw is pending for, on its turn (phase
  ``penalty``, or ``challenge`` for a Wild Draw Four with challenges on):
  deflecting is its answer instead of drawing, accepting or challenging. Only
  a Draw Two's or a Wild Draw Four's draw can be deflected, not another
  plugin's penalty (a customizable wild's "draw three").
* **Where the draw goes.** A Reverse flips the direction and the draw goes
  to the next seat in the new direction: the seat that laid the draw card
  (or, when that seat has gone out under ``last-loses``, the next one still
  in). A Skip hands it to the next seat in the direction of play. Between two
  players both send it to the other player.
* **The draw stays the same draw**, only its target changes: the new target
  may deflect it again, stack on it (with ``stacking``) or draw it. A
  deflected Wild Draw Four gives nobody a challenge any more
  (R-CHALLENGE needs the seat the card hit); with classic's
  ``challenger=anyone``, no other seat may challenge it either.
* **Revenge** doubles only a Reverse's deflection; a Skip passes the draw on
  unchanged ([LU]'s ``revengeMode`` doubles a stacked card's share instead;
  the library reads the house rule as the issue that asked for it does: the
  draw sent back doubles).
* **Going out with a deflection.** A Reverse or Skip that is its player's
  last card ends the round (R-OUT); as after a last Draw Two
  (R-OUT-LAST-DRAW) the seat the draw was sent to still draws it, and those
  cards score. ``last_draw_card=no-draw`` (R-HOUSE-NO-LAST-DRAW) drops that
  draw and ``last_card_ban=action`` forbids going out on a Reverse or a Skip
  at all: those rules answer the core's questions (``play_forbidden``, and
  first in ``on_play``), so deflect needs no line about them.
* **UNO.** A seat deflecting with two cards in hand may call ``uno``
  before laying its next-to-last card, as on an ordinary turn (R-UNO-CALL).
* Refusals cite ``R-HOUSE-DEFLECT``: a Reverse or Skip the options do not let
  deflect this draw.

Interactions
------------

``flip``
    Refused (``check_ruleset``, any deck of two-faced cards): FLIP!'s Wild
    Draw Colour draws to a colour, not a number of cards to hand on.
``no-mercy``
    Conflicts: no-mercy's draw cards stack (R-NM-STACK); a pending stack is
    answered by stacking on it or drawing it.
``stacking``
    A deflected stack goes on whole: the seat it is sent to may stack on it
    (its top card is still the last draw card), deflect it again or draw it
    all.
``deflect_revenge``, ``stacking``
    A whole stack sent back by a Reverse doubles.
``jump-in``
    A card identical to a deflecting Reverse or Skip may jump in on it and
    replaces its deflection, taken from the jumper's seat (R-JUMP 2): the
    pending draw is deflected from there, and two Reverses flip the
    direction once in all. The seat answering the draw deflects as a turn
    play, never as a jump-in.
``last-loses``
    A deflecting last card goes out and still deflects: the draw goes on
    to a seat still in.
``seven-o``, ``multi-play``, ``swap-hands``, ``shuffle-hands``, ``blank-cards``
    None: only Reverses and Skips deflect.
``custom-wilds``
    The draws its effects impose (C3's three cards, C10's four) are not a
    Draw Two's or a Wild Draw Four's and cannot be deflected.
``penalties``
    Illegal plays are offered only on an ordinary turn, never against a
    pending draw.
``partners``, ``elimination``, ``keep-drawing``
    None: the draw goes to the next seat still in the game, a partner's
    included.

``challenge``, ``challenger``
    Deflecting a Wild Draw Four gives up its challenge, and once deflected
    nobody may challenge it, whoever ``challenger`` allows.

Conflicts
---------

``flip`` (any deck of two-faced cards), ``no-mercy``; see Interactions.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import ClassVar

from unorules import (
    Action,
    Draft,
    Event,
    EventSpec,
    GameState,
    Option,
    Phase,
    Plugin,
    Position,
    Ruleset,
    RulesetError,
    hookimpl,
    one_of,
    switch,
)

__all__ = ["DRAW_CARDS", "DeflectPlugin", "deflecting_kinds", "pending_draw", "plugin"]

DRAW_CARDS = frozenset({"+2", "W+4"})
"""The kinds whose pending draw may be deflected: Draw Two and Wild Draw Four."""

PENDING_PHASES = frozenset({"penalty", "challenge"})
"""Classic's phases of a seat told to draw."""

_NAMES = {"+2": "Draw Two", "W+4": "Wild Draw Four", "R": "Reverse", "S": "Skip"}
_REVERSE_ON = {
    "any": DRAW_CARDS,
    "draw-two": frozenset({"+2"}),
    "wild-draw-four": frozenset({"W+4"}),
    "off": (),
}


def pending_draw(state: Position) -> Phase | None:
    """The phase of a seat told to draw by a Draw Two or a Wild Draw Four (the
    draw that may be deflected), or ``None``."""
    phase = state.phase
    if phase.name in PENDING_PHASES:
        card = phase.card
        if card is not None and card.kind in DRAW_CARDS:
            return phase
    return None


def deflecting_kinds(ruleset: Ruleset, pending: str) -> frozenset[str]:
    """The kinds that may deflect the pending draw of a card of kind
    ``pending`` in ``ruleset``: ``"R"`` and ``"S"`` as the options allow."""
    options = ruleset.options
    kinds = {"R"} if pending in _REVERSE_ON[options["deflect_reverse"]] else set()
    if options["deflect_skip"]:
        kinds.add("S")
    return frozenset(kinds)


def _deflect_text(event: Event) -> str:
    """How a deflection reads: sent on (R-HOUSE-DEFLECT) or sent back doubled (R-HOUSE-REVENGE)."""
    if event.rule == "R-HOUSE-REVENGE":
        return "{seat} sent the draw back with {cards}, doubled: {target} must answer a draw of {count}"
    return "{seat} deflected the draw with {cards}: {target} must answer a draw of {count}"


TWO_FACED = (
    "deflect hands on a pending draw of a number of cards (a Draw Two, a Wild Draw Four); a deck of "
    "two-faced cards (flip) has draws to a colour (Wild Draw Colour) and is not defined with it"
)
"""Why deflect refuses a deck of two-faced cards."""


class DeflectPlugin(Plugin):
    """Deflect: a seat told to draw sends the draw back with a Reverse, or on with a Skip.

    R-HOUSE-DEFLECT: a Reverse sends a pending draw back, a Skip passes it on.
    """

    name = "deflect"
    api_version = 2
    conflicts: ClassVar[Mapping[str, str]] = {
        "no-mercy": "no-mercy's draw cards stack (R-NM-STACK): a pending stack is answered by "
        "stacking on it or drawing it, not deflected",
    }
    rules = ("R-HOUSE-DEFLECT", "R-HOUSE-REVENGE")
    verbs: ClassVar[Mapping[str, str]] = {"play": "turn", "uno": "turn"}
    events = (
        EventSpec(
            "deflect",
            "A seat told to draw laid a Reverse or a Skip and sent the draw to another seat "
            "(R-HOUSE-DEFLECT).",
            (
                ("seat", "the seat that deflected"),
                ("cards", "the Reverse or Skip it laid"),
                ("target", "the seat that must now answer the draw"),
                ("count", "the cards to draw"),
            ),
            _deflect_text,
        ),
    )
    options = (
        Option(
            "deflect_reverse",
            "any",
            "R-HOUSE-DEFLECT: which pending draws a Reverse sends back: a Draw Two or a Wild Draw "
            "Four (any), only one of them, or none (off)",
            one_of("any", "draw-two", "wild-draw-four", "off"),
            "any, draw-two, wild-draw-four, off",
        ),
        Option(
            "deflect_skip",
            True,
            "R-HOUSE-DEFLECT: a Skip passes a pending draw on to the next seat",
            switch,
            "on, off",
        ),
        Option(
            "deflect_revenge",
            False,
            "R-HOUSE-REVENGE: a draw sent back by a Reverse doubles",
            switch,
            "on, off",
        ),
    )

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        if ruleset.two_faced:
            raise RulesetError(TWO_FACED)
        options = ruleset.options
        if options["deflect_reverse"] == "off" and not options["deflect_skip"]:
            raise RulesetError(
                "deflect with deflect_reverse=off and deflect_skip=off deflects nothing "
                "(R-HOUSE-DEFLECT): leave the plugin out, or let a Reverse or a Skip deflect"
            )

    @hookimpl(wrapper=True)
    def legal_actions(
        self, state: GameState
    ) -> Generator[None, list[Sequence[Action]], list[Sequence[Action]]]:
        # A wrapper, so that the UNO call of a seat that may both stack and
        # deflect is listed once (stacking lists it too).
        found = yield
        phase = pending_draw(state)
        if phase is None:
            return found
        seat = state.current_player
        hand = state.hands[seat]
        assert phase.card is not None
        kinds = deflecting_kinds(state.ruleset, phase.card.kind)
        plays: list[Action] = []
        for card in dict.fromkeys(hand):
            if card.kind in kinds and state.forbidden(seat, card) is None:
                plays += state.play_actions(seat, card)  # R-HOUSE-DEFLECT, unless a rule bans the play
        if not plays:
            return found
        uno = Action.of(seat, "uno")
        if state.may_call_uno(seat) and not any(uno in listed for listed in found):
            plays.append(uno)  # R-UNO-CALL before laying the next-to-last card
        found.append(plays)
        return found

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        assert card is not None
        if card.kind not in ("R", "S"):
            return None
        phase = pending_draw(draft)  # still the phase the card was laid in
        if phase is None:
            return None
        seat = action.seat
        count = phase.count
        out = draft.going_out(seat)  # its last card: the round ends, or it left (R-HOUSE-LAST-LOSES)
        if out is not None and out.ends:
            # R-OUT (the core ends the round), and by R-OUT-LAST-DRAW the seat it was sent to
            # still draws. (R-HOUSE-NO-LAST-DRAW is the last-card rule's: it answers first.)
            target, count = _deflect(draft, seat, card.kind, count)
            draft.draw(target, count, "penalty")
            return True
        gone = out is not None  # R-HOUSE-LAST-LOSES: its player went out; it still deflects
        target, count = _deflect(draft, seat, card.kind, count)
        draft.add_event(
            Event(
                "deflect",
                seat,
                (card,),
                "R-HOUSE-REVENGE" if card.kind == "R" and count > phase.count else "R-HOUSE-DEFLECT",
                f"seat {target} must answer a draw of {count}" + (" (its player went out)" if gone else ""),
                target=target,
                count=count,
            )
        )
        # The same draw, for another seat: its top card is still the draw card; a
        # deflected Wild Draw Four is never challenged.
        draft.current_player = target
        draft.phase = Phase("penalty", count, phase.card, seat)
        return True

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        card = action.card
        if action.verb != "play" or card is None or card.kind not in ("R", "S"):
            return None
        phase = pending_draw(state)
        if phase is None or action.seat != state.current_player or card not in state.hands[action.seat]:
            return None
        assert phase.card is not None
        pending = _NAMES[phase.card.kind]
        if card.kind not in deflecting_kinds(state.ruleset, phase.card.kind):
            option = "deflect_reverse" if card.kind == "R" else "deflect_skip"
            value = state.ruleset.options[option]
            shown = ("on" if value else "off") if isinstance(value, bool) else value
            return (
                "R-HOUSE-DEFLECT",
                f"with {option}={shown} a {_NAMES[card.kind]} does not deflect a {pending}: "
                f"draw {phase.count}",
            )
        return None


def _deflect(draft: Draft, seat: int, kind: str, count: int) -> tuple[int, int]:
    """Turn play for a deflection by ``seat`` with a card of ``kind``: the seat
    the draw goes to, and how many cards it is (R-HOUSE-DEFLECT, R-HOUSE-REVENGE)."""
    if kind == "R":
        draft.direction = -draft.direction
        if draft.ruleset.options["deflect_revenge"]:
            count *= 2
    return draft.next_seat(seat), count


plugin = DeflectPlugin()
"""The plugin object the ``unorules`` entry point ``deflect`` names."""

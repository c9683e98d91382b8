"""Last one loses: seats that go out leave the round; the last seat holding cards loses (R-HOUSE-LAST-LOSES).

Enable it with ``Ruleset.from_names(["classic", "last-loses"])`` (or
``["flip", "last-loses"]``); it needs a base rule set that deals the cards and
plays them, and names none. It answers the core's ``going_out`` question: when a card empties
its player's hand while two other seats or more still hold cards, the seat
leaves the round (``state.left``) and the card still acts on the seats left.

Rules
-----

**R-HOUSE-LAST-LOSES** ([NM-UR], as its reading of No Mercy)
    A seat that plays its last card goes out: it leaves the round and play
    goes on among the seats still holding cards, until one seat alone holds
    cards; that seat loses. The order in which the seats went out ranks the
    others: the first out wins the game. The card a seat goes out with still
    acts on the seats left (a Skip skips, a Draw Two makes the next seat
    draw, ...).

The game is that one round. ``state.outcome.winners`` is the first seat
out (reason ``"last-loses"``). While the round goes on, the seats that went
out are in ``state.left`` and, in the order they went out, in the public
extra ``state.extra("last-loses.out")``. The seat whose last card ends the
round (one of the last two) never leaves it, so the extra leaves it out, and
the loser too: the whole ranking, from the first seat out to the loser, is in
the round's ``last-loses`` event, ``event.value("order")`` (its ``seat`` is
the loser).

Options
-------

None of its own. Classic's ``scoring`` is honoured: with
``winner-takes-all`` (R-SCORE) the first seat out scores the cards left in
the loser's hand, with ``low-score`` (R-WIN-LOW) the loser is charged them.
``target_score`` does not apply (one round is the game) and is refused.

Decisions where the rules are silent
------------------------------------

* **Going out with an action card.** The card acts from the seat that went
  out: a Skip skips the next seat still in, a Reverse turns play round (with
  two seats left it does not let its gone player play again), a Draw Two or
  a Wild Draw Four makes the next seat draw, and it may stack or deflect it.
  A Wild Draw Four laid as a last card cannot be challenged: its player holds
  no hand to show (classic decides the same for a last Wild Draw Four that
  ends a round).
* **Going out with a hand-moving card.** A last 0 (``seven-o``) passes the
  hands of the seats still in; a last 7, Swap Hands or Shuffle Hands moves no
  hand: the seat that went out takes no cards back.
* **The last two.** When a card empties a hand and only one other seat holds
  cards, the round ends as usual (R-OUT, R-OUT-LAST-DRAW): that seat loses.
* **A blocked round** (nobody can play or draw, classic's section 13) ends
  the game: the first seat out wins; the seats still holding cards are ranked
  by their hand points, fewest first. A blocked round that nobody won
  (``blocked_round=draw``) before anybody went out is dealt again.
* **A round ended by another plugin.** A customizable wild whose effect empties
  another seat's hand (C2) ends the round as ``custom-wilds`` decides (that
  seat has gone out), and a customizable wild that still acts as a last card
  (C1) ends it too; the first seat out wins the game, the others still
  holding cards are ranked by hand points.
* **UNO** applies as usual among the seats still holding cards; a seat that
  went out can neither call, catch nor be caught, and plays no more.

Interactions
------------

``flip``
    Seats leave on going out as with classic; the loser ranking counts each
    hand by the faces in play (``Position.hand_value``).
``no-mercy``
    Conflicts: no-mercy answers going out itself (``nm_end``) and knocks
    seats out by the Mercy rule (R-NM-MERCY).
``partners``
    Conflicts: a partners round ends when either partner goes out (R-TEAM).
``elimination``
    Conflicts: both take seats out of the game; elimination counts points
    over many rounds, this plugin plays one.
``stacking``, ``deflect``
    A last Draw Two or Wild Draw Four laid on a stack adds to it and passes
    it on; a last Reverse or Skip deflects; the seat that went out never
    answers a draw.
``seven-o``
    A last 0 passes the hands still in play on; a last 7 trades none (its
    player, gone, takes no hand back).
``jump-in``
    A seat may jump in with its last card and go out; seats that went out
    never jump in.
``multi-play``
    A group that empties its player's hand sends it out; its number still acts.
``swap-hands``, ``shuffle-hands``, ``blank-cards``, ``keep-drawing``
    None beyond the above.
``custom-wilds``
    A customizable wild that still acts as a last card (C1), or whose effect
    empties another seat's hand (C2), ends the round as ``custom-wilds``
    decides; the first seat out wins the game, the others still holding cards
    ranked by hand points.
``penalties``
    An illegal last card waits to be caught (``illegal-out``) as usual; let
    stand, its player goes out.

Conflicts
---------

``partners``, ``elimination``, ``no-mercy``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from unorules import (
    Draft,
    Event,
    EventSpec,
    ExtraSpec,
    GameState,
    GoingOut,
    Outcome,
    Plugin,
    RoundResult,
    Ruleset,
    RulesetError,
    hookimpl,
)
from unorules.validate import require

__all__ = ["OUT", "LastLosesPlugin", "plugin"]

OUT = "last-loses.out"
"""The ``state.extras`` key of the seats that went out this round, in order (R-HOUSE-LAST-LOSES)."""


def _last_loses_text(event: Event) -> str:
    """How the end of a last-loses round reads (R-HOUSE-LAST-LOSES)."""
    if event.seat is None:
        return "the round ended with more than one player still holding cards"
    return "{seat} {seat:was} the last one holding cards and lost the round"


class LastLosesPlugin(Plugin):
    """Last one loses: seats that go out leave the round, and the last seat holding cards loses.

    R-HOUSE-LAST-LOSES: play on until one seat holds cards; the order of going out ranks the others.
    """

    name = "last-loses"
    api_version = 2
    conflicts: ClassVar[Mapping[str, str]] = {
        "partners": "a partners round ends when either partner goes out (R-TEAM), but last-loses "
        "plays on until one seat holds cards",
        "elimination": "both take seats out of the game: elimination by points over many rounds, "
        "last-loses by going out in one round",
        "no-mercy": "no-mercy answers going out itself (nm_end) and knocks seats out by the Mercy rule "
        "(R-NM-MERCY); seats leaving by going out are not defined with them",
    }
    rules = ("R-HOUSE-LAST-LOSES",)
    extras = (ExtraSpec(OUT, "the seats that went out this round, in the order they went out", public=True),)
    events = (
        EventSpec(
            "went-out",
            "A seat played its last card and left the round; play goes on among the seats still "
            "holding cards (R-HOUSE-LAST-LOSES).",
            (("seat", "the seat that went out"), ("data.place", "its place: 1 for the first out")),
            "{seat} went out in place {data[place]} and left the round; the others play on",
        ),
        EventSpec(
            "last-loses",
            "The round ended: the seat left holding cards lost, and the order of going out ranked "
            "the others (R-HOUSE-LAST-LOSES).",
            (
                ("seat", "the seat that lost (none when several still held cards)"),
                ("data.order", "every seat, from the first out to the last one holding cards"),
            ),
            _last_loses_text,
        ),
    )

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        if "target_score" in ruleset.spec()["options"]:
            raise RulesetError(
                "last-loses plays one round, which ends when one seat is left holding cards "
                "(R-HOUSE-LAST-LOSES), so target_score does not apply: leave it out"
            )

    @hookimpl
    def going_out(self, draft: Draft, seat: int) -> GoingOut:
        # R-HOUSE-LAST-LOSES: out of the round while two other seats or more hold cards.
        if seat in draft.left:
            return GoingOut(ends=False)  # asked again about the card that sent it out
        hands = draft.hands
        holding = sum(1 for s in draft.active_seats if s != seat and hands[s])
        order: tuple[int, ...] = draft.extra(OUT, ())
        if holding < 2:
            # The last two: the round ends, and the first seat out wins it.
            return GoingOut(ends=True, winner=order[0] if order else seat)
        draft.leave((seat,))
        draft.set_extra(OUT, (*order, seat))
        place = len(order) + 1
        draft.add_event(
            Event(
                "went-out", seat, (), "R-HOUSE-LAST-LOSES", f"out in place {place}", data=(("place", place),)
            )
        )
        return GoingOut(ends=False)

    @hookimpl
    def on_round_end(self, draft: Draft, result: RoundResult) -> None:
        # The ranking: the seats out in order, then the one that ended the round,
        # then those still holding cards, fewest points first.
        order: tuple[int, ...] = draft.extra(OUT, ())
        hands = draft.hands
        active = draft.active_seats
        value = draft.hand_value  # by the faces in play (two-faced decks)
        last_out = [s for s in active if not hands[s]]
        holding = sorted((s for s in active if hands[s]), key=lambda s: (value(s), s))
        ranking = (*order, *last_out, *holding)
        loser = holding[0] if len(holding) == 1 else None
        draft.add_event(
            Event(
                "last-loses",
                loser,
                (),
                "R-HOUSE-LAST-LOSES",
                f"order {list(ranking)}",
                data=(("order", ranking),),
            )
        )

    @hookimpl
    def game_outcome(self, draft: Draft) -> Outcome | None:
        # One round is the game: the first seat out wins it.
        order: tuple[int, ...] = draft.extra(OUT, ())
        if order:
            return Outcome((order[0],), "last-loses")
        winner = draft.rounds[-1].winner
        if winner is None:
            return None  # a blocked round nobody won before anyone went out: deal again
        return Outcome((winner,), "last-loses")

    @hookimpl
    def check_state(self, state: GameState) -> None:
        # R-HOUSE-LAST-LOSES: the seats that left are those that went out, in order.
        order = state.extra(OUT, ())
        require(
            isinstance(order, tuple)
            and all(isinstance(s, int) and not isinstance(s, bool) for s in order)
            and len(set(order)) == len(order),
            f"extras.{OUT}",
            "R-HOUSE-LAST-LOSES: the seats that went out, each once",
        )
        require(
            tuple(sorted(order)) == state.left,
            "left",
            f"R-HOUSE-LAST-LOSES: the seats that left the game are the seats that went out ({list(order)})",
        )
        if state.outcome is None:
            require(
                len(state.active_seats) >= 2,
                "left",
                "R-HOUSE-LAST-LOSES: the round goes on only while two seats or more hold cards",
            )


plugin = LastLosesPlugin()
"""The plugin object the ``unorules`` entry point ``last-loses`` names."""

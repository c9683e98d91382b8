"""7-0: a 0 passes every hand on, a 7 trades hands with a chosen seat (R-SEVEN-O).

Enable it with ``Ruleset.from_names(["classic", "seven-o"])``; it needs a base
rule set that deals the cards and plays them, and names none. It changes the
game only through hooks: ``card_needs_target``
makes every 7 name a seat, and ``on_play`` moves the hands when a 7 or a 0 is
played.

Rules
-----

**R-SEVEN-O** [LT] (rules reference, house rules):

* Whenever a **0** is played, every player passes their hand to the next player
  in the direction of play.
* Whenever a **7** is played, its player trades hands with a player of their
  choice.

Notation
--------

A 7 names the seat to trade with, in the foundation's action notation::

    1: play R7 3        seat 1 plays the red 7 and trades hands with seat 3

``state.play_actions(seat, card)`` lists one action per other seat still in the
game, so ``legal_actions()`` shows every choice. A 0 takes no seat.

Options
-------

None. [LT]'s sentence for the 7 reads "every time a 7 comes up, *all
players* pass their cards to a chosen player". Read
literally it is not a playable rule: every hand would go to one seat, or each
player would choose a receiver and two hands could land on one seat. It reads as
a garbled form of the usual rule, which the rules reference states and this plugin plays;
no option offers the literal text.

Decisions where the rules are silent
------------------------------------

* **The last card**: a 7 or 0 that is its player's last
  card ends the round (R-OUT) and moves no hands; the seat a 7 names is ignored.
* **Who takes part.** Seats that have left the game (``state.left``, an
  elimination tournament) hold no hand: the 0 passes each hand to the next seat
  *still in the game*, and a 7 may name only such a seat.
* **The turn** then passes as after any number card: to the seat after the
  card's player, in the direction of play.
* **UNO calls follow the cards, not the seats they were made at.** A catch is
  for a player who played down to one card without calling, after their card
  reached the discard pile (R-UNO-CALL, R-UNO-CATCH). After hands move:

  - a seat open to a catch (``uno_exposed``) stays open only while it still
    holds the one card it played down to: a 7 played from two cards without a
    call and traded away leaves nothing to catch, and neither does a 0 that
    hands the seat another one-card hand;
  - a seat that *receives* a one-card hand did not play its next-to-last card:
    it need not call UNO and cannot be caught for it; it plays on (everyone saw
    the hands move, and hand sizes are public);
  - a call made before the hands moved (``uno_declared``, said before laying a
    next-to-last card) was about the hand its seat held then: it is void for
    every seat whose hand changed.

  This is the core's rule for every change of hands
  (``GameState.move_hands``, ``set_hands``, ``with_hand``), so a 7, a 0, a
  Swap Hands, a Shuffle Hands and a customizable wild's discards leave the UNO
  calls alike. Example: seat 1 calls UNO holding two cards, then draws instead
  of playing (three cards); a 7 hands it a two-card hand; it must call again
  before playing down to one card, or be caught.
* **The starter.** A 7 or 0 turned as the starter was not played by anyone:
  no hands move (R-SETUP-STARTER lists only the action cards' opening effects).
* Refusals cite ``R-SEVEN-O``: a 7 played without a seat, or naming itself, a
  seat not in the game or one that has left.

Interactions
------------

``jump-in``
    A 7 or 0 jumped on by an identical card: the hands the first card moved
    stay moved (cards passed and seen cannot be passed back), and the jumping
    card moves hands again from the jumper's seat: a jumped 7 lets the jumper
    trade with a seat of their choice, a jumped 0 passes every hand on once
    more. Who may jump in is judged on the hands *after* the first card moved
    them. Play continues from the jumper (R-JUMP). The classic deck has one 0
    of each colour, so an identical 0 exists only as a ``blank-cards``
    replacement; with ``jump_in_match=color-or-number`` any 0 may jump on a 0
    (not identical, so the first 0's hand move is not replaced either).
``swap-hands``, ``shuffle-hands``
    Their cards keep their own effects; a 7, a 0, a Swap Hands and a Shuffle
    Hands may follow one another in any order, and each moves hands once. All
    three plugins treat UNO calls as above.
``penalties``
    A caught illegal 7 or 0 is undone with everything it did: the hands go
    back (``penalties`` restores the state before the play).
``stacking``
    None: a 7 or 0 cannot answer a stack.
``partners``
    A 7 may name one's partner or an opponent; partners' hands stay separate
    hands that move like any other.
``elimination``
    Seats that have left are skipped by the 0 and cannot be named by a 7.

Under FLIP! (EDITIONS 1.5): a 7 of either side trades hands with the seat its
play names (flip lists a face's plays by seat, ``Ruleset.needs_target``); the 0
never occurs (FLIP! has no 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from unorules import Action, Card, Draft, GameState, Plugin, Ruleset, hookimpl

__all__ = ["SevenOPlugin", "plugin"]


class SevenOPlugin(Plugin):
    """7-0: a 0 passes every hand to the next seat, a 7 trades hands with a chosen seat.

    R-SEVEN-O: a 0 passes every hand on; a 7 trades hands with a chosen seat.
    """

    name = "seven-o"
    api_version = 2
    verbs: ClassVar[Mapping[str, str]] = {"play": "turn"}
    rules = ("R-SEVEN-O",)

    @hookimpl
    def card_needs_target(self, ruleset: Ruleset, card: Card) -> bool | None:
        # R-SEVEN-O: a 7's player chooses the seat to trade with ("play R7 2").
        return True if card.kind == "7" else None

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        assert card is not None
        kind = card.kind
        if kind != "7" and kind != "0":
            return None
        seat = action.seat
        out = draft.going_out(seat)
        if out is not None:
            # Section 13: a last 7 or 0 moves no hands; the core ends the round (R-OUT).
            # R-HOUSE-LAST-LOSES: if the round goes on without its player, a last 0
            # still passes the hands of the seats left; a last 7 trades nothing
            # (its player, gone, takes no hand back).
            if kind == "7" or out.ends:
                return None
            draft.pass_hands_on(seat)
            draft.pass_turn(1, seat)
            return True
        if kind == "7":
            target = action.target
            assert target is not None, "a 7 names a seat under seven-o"
            draft.trade_hands(seat, target)  # R-SEVEN-O: the 7
        else:
            draft.pass_hands_on(seat)  # R-SEVEN-O: the 0
        draft.pass_turn(1, seat)
        return True

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        card = action.card
        if action.verb != "play" or card is None or card.kind != "7":
            return None
        seat = action.seat
        # Explain the seat only when the same 7 is otherwise playable now.
        if not any(a.card is card and a.color is action.color for a in state.legal_actions(seat)):
            return None
        others = ", ".join(str(s) for s in state.active_seats if s != seat)
        target = action.target
        if target is None:
            return (
                "R-SEVEN-O",
                f"a 7 trades hands with a seat its player chooses: name one of seats {others}, "
                f"e.g. 'play {card} {state.next_seat(seat)}'",
            )
        return "R-SEVEN-O", f"seat {seat} cannot trade hands with seat {target}; choose one of seats {others}"


plugin = SevenOPlugin()
"""The plugin object the ``unorules`` entry point ``seven-o`` names."""

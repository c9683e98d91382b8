"""Stacking: answer a Draw Two or a Wild Draw Four with another (R-STACK).

Enable it with ``Ruleset.from_names(["classic", "stacking"])``; it requires
``classic`` and changes the game only through hooks: it adds the stacking plays
to the legal actions of a seat that is told to draw, and grows the pending draw
when one is played.

Rules
-----

**R-STACK** [LT] (rules reference, house rules):

1. On a Draw Two, the seat told to draw may play a Draw Two (of any colour)
   instead; the seat after them must then draw 4, and so on.
2. The same for the Wild Draw Four: on a Wild Draw Four the seat it hits may
   play a Wild Draw Four; the following seat draws 8. The colour is named by
   the last seat that played one.
3. Stacks go on while players have the cards: after four Draw Twos in a row
   the next seat without one draws 8.
4. Each player adds at most one card to a stack per turn.
5. A caught Wild Draw Four bluff costs the bluffer the whole stack instead of
   4, and an innocent player's challenger draws the stack plus 2.

How it works: classic puts a seat hit by a Draw Two in phase ``penalty`` and a
seat hit by a Wild Draw Four in phase ``challenge`` (``penalty`` with
``challenge=off``), with the cards to draw in ``phase.count``. This plugin lists
the stacking plays for that seat next to classic's ``draw`` (or ``challenge`` /
``accept``), and its ``on_play`` hook answers such a play by adding 2 or 4 to
the count and handing the same phase to the next seat. Classic's ``draw`` takes
``phase.count`` cards, and its challenge charges ``phase.count`` to a guilty
bluffer and ``phase.count + 2`` to a losing challenger, so points 3 and 5 follow
without more code.

Options
-------

``stack_mix`` (``off`` by default; ``on``)
    ``off``: a Draw Two only on a Draw Two, a Wild Draw Four only on a Wild
    Draw Four (the default reading). ``on``: also a Wild Draw Four on a Draw
    Two, and a Draw Two on a Wild Draw Four when the Draw Two is of the colour
    the Wild Draw Four's player named. [LT] point 3 reads "players may in turn
    lay Draw Two *and* Wild Draw Four cards as long as they have them", which
    on its plain reading allows mixing; the library
    chose the stricter default.

Decisions where the rules are silent
------------------------------------

* **Any Draw Two on a Draw Two.** Draw Two matches Draw Two by symbol
  (R-ACT-D2), so its colour does not matter; a stacked Draw Two sets the
  colour to its own.
* **A stacked Wild Draw Four is still a Wild Draw Four** (R-TURN-WD4): with
  ``challenge=on`` it may be a bluff and be challenged; with ``challenge=off``
  it may be stacked only by a seat holding no card of the current colour.
* **Only the last Wild Draw Four can be challenged**, by the seat it hits (or
  by anyone, with classic's ``challenger=anyone``). Stacking on a Wild Draw
  Four gives up the chance to challenge it. The bluff is judged against the
  colour current when that card was played: the colour the previous stacker
  named, or the Draw Two's colour under ``stack_mix``. Guilty: the bluffer
  draws the whole stack and the challenger takes the turn normally; innocent:
  the challenger draws the stack plus 2 and loses the turn (classic's
  R-CHALLENGE with ``phase.count``; the "plus 2" is the library's reading:
  [LT] only grows the bluffer's penalty).
* **A Draw Two laid on a Wild Draw Four** (``stack_mix=on``) turns the stack
  into a plain penalty: the seat after it may stack or draw, never challenge.
* **The starter.** A Draw Two turned as the starter puts the first player in
  the same ``penalty`` phase as a played one, so it may be stacked on.
* **Going out on a stacked card** (R-OUT-LAST-DRAW): the round ends; the next
  seat draws the *whole* stack (it cannot answer it), and those cards count in
  the score.
* **Two players** (R-2P): the stack bounces between the two seats; when one of
  them draws it, the other (the last stacker) plays again, as after any Draw
  Two or Wild Draw Four between two players.
* **UNO.** A seat answering a stack with two cards in hand may call ``uno``
  before laying its next-to-last card, as on an ordinary turn (R-UNO-CALL).
* **One card per turn** (R-STACK 4): the turn passes as soon as a card is
  stacked, so its player cannot add a second one; under ``jump-in`` a second
  identical card *replaces* the first one's share instead of adding to it.
* Refusals cite ``R-STACK`` (a card that cannot answer the stack, a second
  card in one turn, mixing with ``stack_mix=off``, a card the seat does not
  hold while it holds one it may stack, named in the message) or
  ``R-TURN-WD4``; a seat with nothing to stack is told by classic to draw
  (R-ACT-D2, R-TURN-WD4).

Interactions
------------

``jump-in``
    A seat jumping in on a stacked card with an identical one replaces that
    card's share of the stack with its own (R-JUMP 2): the stack keeps its
    size and passes on from the jumper's seat; the seat that was to answer it
    is let off. The seat answering a stack never jumps in: its plays are turn
    plays, i.e. stacks. See the ``jump-in`` plugin.
``seven-o``, ``swap-hands``, ``shuffle-hands``, ``custom-wilds``, ``blank-cards``
    None of their cards answers a stack: a seat told to draw must stack a
    Draw Two or Wild Draw Four, or draw.
``partners``, ``elimination``
    No interaction: the stack passes to the next seat still in the game, a
    partner's included.
``penalties``
    Illegal plays are only offered on an ordinary turn, never in answer to a
    stack; a caught illegal Draw Two takes back the stack it started.

Conflicts
---------

None: ``stacking`` builds with every other shipped plugin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from unorules import (
    Action,
    Card,
    Draft,
    GameState,
    Option,
    Phase,
    Plugin,
    Position,
    hookimpl,
    switch,
)
from unorules.validate import require

__all__ = ["StackingPlugin", "may_stack", "plugin", "stack_phase"]

DRAWS = {"+2": 2, "W+4": 4}
"""The stackable kinds and how many cards each adds to the stack."""

STACK_PHASES = frozenset({"penalty", "challenge"})
"""Classic's phases of a seat told to draw by a Draw Two or a Wild Draw Four."""

_NAMES = {"+2": "Draw Two", "W+4": "Wild Draw Four"}
_NONE: tuple[Action, ...] = ()


def stack_phase(state: Position) -> Phase | None:
    """The pending stack of ``state`` (its phase), or ``None`` if no seat is told
    to draw by a Draw Two or a Wild Draw Four."""
    phase = state.phase
    if phase.name in STACK_PHASES:
        card = phase.card
        if card is not None and card.kind in DRAWS:
            return phase
    return None


def may_stack(state: Position, seat: int, card: Card, on: Card) -> bool:
    """Whether ``seat`` may answer a stack topped by ``on`` with ``card``."""
    kind = card.kind
    if kind == "+2":
        if on.kind == "+2":
            return True  # R-STACK 1 (and 3)
        # stack_mix: a Draw Two on a Wild Draw Four when the colour fits.
        return bool(state.ruleset.options["stack_mix"]) and card.color is state.color
    if kind == "W+4":
        # R-STACK 2; stack_mix: a Wild Draw Four on a Draw Two. R-TURN-WD4 holds.
        if on.kind != "W+4" and not state.ruleset.options["stack_mix"]:
            return False
        return state.matches(seat, card)
    return False


class StackingPlugin(Plugin):
    """Stacking: answer a Draw Two or Wild Draw Four with another; the stack grows.

    R-STACK: Draw Two on Draw Two, Wild Draw Four on Wild Draw Four, the stack growing.
    """

    name = "stacking"
    api_version = 2
    verbs: ClassVar[Mapping[str, str]] = {"play": "turn", "uno": "turn"}
    rules = ("R-STACK",)
    options = (
        Option(
            "stack_mix",
            False,
            "R-STACK: also a Wild Draw Four on a Draw Two and a Draw Two of the named colour "
            "on a Wild Draw Four [LT point 3]",
            switch,
            "on, off",
        ),
    )

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        phase = stack_phase(state)
        if phase is None:
            return _NONE
        on = phase.card
        assert on is not None
        seat = state.current_player
        hand = state.hands[seat]
        acts: list[Action] = []
        for card in dict.fromkeys(hand):
            if card.kind in DRAWS and may_stack(state, seat, card, on) and not state.forbidden(seat, card):
                acts += state.play_actions(seat, card)  # unless a rule bans the play (R-HOUSE-LAST-CARD, ...)
        if acts and state.may_call_uno(seat):
            acts.append(Action.of(seat, "uno"))  # R-UNO-CALL before laying the next-to-last card
        return acts

    @hookimpl
    def check_state(self, state: GameState) -> None:
        # R-STACK: a stack holds at least its top card's draw. (No upper bound but
        # the core's: the cards of a stack can come back through a reshuffle.)
        phase = stack_phase(state)
        if phase is None:
            return
        assert phase.card is not None
        least = DRAWS[phase.card.kind]
        require(
            phase.count >= least,
            "phase.count",
            f"R-STACK: a stack topped by a {_NAMES[phase.card.kind]} holds at least {least} cards to draw",
        )

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        assert card is not None
        add = DRAWS.get(card.kind)
        if add is None:
            return None
        phase = stack_phase(draft)  # still the phase the card was played in
        if phase is None:
            return None  # an ordinary Draw Two or Wild Draw Four: classic's effect
        seat = action.seat
        count = phase.count + add  # R-STACK 1-3: the stack grows
        victim = draft.next_seat(seat)
        draft.grow_stack(seat, card, count, victim)  # the stack event; the phase is set below
        out = draft.going_out(seat)  # its last card: the round ends, or it left (R-HOUSE-LAST-LOSES)
        if out is not None and out.ends:
            # R-OUT-LAST-DRAW with a stack: the next seat draws all of it, and it counts; the
            # core ends the round. (R-HOUSE-NO-LAST-DRAW is the last-card rule's: it answers
            # first for a last draw card, and this effect does not run.)
            draft.draw(victim, count, "penalty")
            return True
        gone = out is not None
        draft.current_player = victim
        if card.kind == "W+4" and draft.ruleset.options.get("challenge", False) and not gone:
            # R-STACK 5: only this last Wild Draw Four may be challenged, judged
            # against the colour current when it was played.
            draft.phase = Phase("challenge", count, card, seat, previous.color)
        else:
            draft.phase = Phase("penalty", count, card, seat)
        return True

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        card = action.card
        if action.verb != "play" or card is None:
            return None
        phase = stack_phase(state)
        if phase is None:
            return None
        on = phase.card
        assert on is not None
        seat = action.seat
        current = state.current_player
        if seat != current:
            if seat == phase.seat and card.kind in DRAWS:
                return (
                    "R-STACK",
                    f"R-STACK 4: each player adds at most one card to a stack per turn; "
                    f"seat {current} must answer the stack of {phase.count} now",
                )
            return None
        hand = state.hands[seat]
        if card not in hand:
            # Not held: the refusal says how this seat may answer the stack. A seat with
            # nothing to stack must draw, which classic explains (R-ACT-D2, R-TURN-WD4).
            stackable = sorted({str(c) for c in hand if c.kind in DRAWS and may_stack(state, seat, c, on)})
            if not stackable:
                return None
            return (
                "R-STACK",
                f"seat {seat} holds no {card}: answer the stack of {phase.count} by stacking "
                f"{' or '.join(stackable)}, or draw {phase.count}",
            )
        if card.kind not in DRAWS:
            return (
                "R-STACK",
                f"seat {seat} must answer the stack of {phase.count}: stack a Draw Two or Wild Draw Four "
                f"that may go on {on}, or draw {phase.count}",
            )
        if card.color is None and action.color is None:
            return "R-TURN-WILD", f"name the colour for {card}, e.g. 'play {card} R'"
        if card.color is not None and action.color is not None:
            return "R-TURN-MATCH", f"{card} is not a wild: it takes no colour"
        mix = state.ruleset.options["stack_mix"]
        if card.kind != on.kind and not mix:
            return (
                "R-STACK",
                f"with stack_mix=off a {_NAMES[card.kind]} cannot go on a stack topped by a "
                f"{_NAMES[on.kind]}: only a {_NAMES[on.kind]} may be stacked on it",
            )
        if card.kind == "+2" and on.kind == "W+4" and card.color is not state.color:
            return (
                "R-STACK",
                f"a Draw Two goes on a Wild Draw Four only in the colour named ({state.color}), not {card}",
            )
        if card.kind == "W+4" and not state.matches(seat, card):
            return (
                "R-TURN-WD4",
                f"a Wild Draw Four may be stacked only without a card of the current colour ({state.color})",
            )
        return None


plugin = StackingPlugin()
"""The plugin object the ``unorules`` entry point ``stacking`` names."""

"""uno-calls: when UNO is called, false calls (R-HOUSE-UNO-CALL, R-HOUSE-SILENT-UNO, R-HOUSE-FALSE-UNO).

Formerly two options of classic; moved out in issue 42 (see the package's
docstring for the grouping). ``uno_call`` is the answer to the core's
``uno_call_rule`` hook (:attr:`unorules.Ruleset.uno_call`), which every
plugin's UNO offers follow (``Position.may_call_uno``,
``Position.uno_window_actions``); false calls and catches work on the core's
UNO books (``uno_declared``, ``uno_exposed``) and its ``catch`` verb, so the
plugin requires nothing by name.

.. rubric:: Options

* ``uno_call`` (``two-cards``): when UNO is called. ``two-cards``: holding
  two cards, before the next-to-last card (R-UNO-CALL); ``one-card``: only
  once holding one card, so every seat that plays down to one card is open
  to a catch until it calls ([LU] ``strictUnoCall``); ``playable``: holding
  two cards only when one of them can be played now (R-HOUSE-UNO-CALL);
  ``silent``: nobody calls and nobody is caught (R-HOUSE-SILENT-UNO).
* ``false_uno_penalty`` (0, off): R-HOUSE-FALSE-UNO. A catch of a seat that
  called, or an UNO call its maker does not follow by laying its
  next-to-last card, costs its maker that many cards (with 0 such a catch is
  refused and such a call simply lapses).

The defaults are the rules reference (``two-cards`` and off), as they were in
classic: a rule set that names the plugin without options plays as without it.
(``uno_penalty``, the cards a catch costs, stays the base's option: 6 is one
of classic's values, R-HOUSE-UNO-6.)

.. rubric:: Decisions

* **False UNO** (R-HOUSE-FALSE-UNO): the false catch is offered right after
  the card a seat played left it holding one card without being open to a
  catch (it had called), for one action, to every other seat; a
  catch of a seat holding more than one card stays refused, since hand
  sizes are public. A call is offered only holding two cards (as
  ``uno_call`` allows); it is false when its seat then draws (for its turn
  or a pending draw), passes or accepts a Wild Draw Four instead of laying
  its next-to-last card, and the penalty comes before that draw. A call
  that lapses for another reason (a 7 or a Swap Hands took the hand away,
  a jump-in window closed) is nobody's fault and costs nothing. The penalty
  cards are a penalty draw: they cannot be played at once.
* **Order**: the false catches are listed before the base's actions (this
  plugin's ``legal_actions`` is called before a base's ``trylast`` one).

.. rubric:: Interactions

``uno_call``, ``stacking``, ``jump-in``, ``deflect``, ``multi-play``
    Their calls before a next-to-last card (answering a stack, jumping in,
    deflecting, in a group) follow ``uno_call``: offered with ``two-cards``
    and ``playable`` (they come with a card to play), never with ``one-card``
    or ``silent``; with ``silent`` nobody is caught after them either.
``false_uno_penalty``, ``uno_call``
    With ``one-card`` every call is a late one and never false (only
    catches can be); with ``silent`` there are no calls nor catches to get
    wrong, and the two are refused together.
``false_uno_penalty``, ``stacking``, ``deflect``
    A seat that called before answering a pending draw and then draws it
    made a false call.
``false_uno_penalty``, ``jump-in``
    A call made out of turn for a jump-in that does not happen lapses with
    the window and costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from unorules import (
    MAX_PLAYERS,
    Action,
    Draft,
    Event,
    EventSpec,
    GameState,
    Option,
    Plugin,
    Ruleset,
    RulesetError,
    TestHints,
    hookimpl,
    one_of,
)
from unorules_house_rules import whole

__all__ = ["UnoCallsPlugin", "plugin"]

_CATCH = tuple(
    tuple(Action.of(s, "catch", None, None, t) for t in range(MAX_PLAYERS)) for s in range(MAX_PLAYERS)
)
"""The interned ``catch`` action of each seat and target."""

_FALSE_AFTER = frozenset({"draw", "pass", "accept"})
"""The actions that make a call false when its seat takes one instead of laying a card."""


def _false_uno_text(event: Event) -> str:
    """How a false catch or a false call reads (R-HOUSE-FALSE-UNO)."""
    if event.target is not None:
        return "{seat} caught {target}, who had called UNO: a false catch"
    return "{seat} called UNO, then did not play a card: a false call"


class UnoCallsPlugin(Plugin):
    """UNO-call house rules: when UNO is called, and false calls and catches that cost cards."""

    name = "uno-calls"
    api_version = 2
    rules = ("R-HOUSE-UNO-CALL", "R-HOUSE-SILENT-UNO", "R-HOUSE-FALSE-UNO")
    events = (
        EventSpec(
            "false-uno",
            "A seat caught a seat that had called UNO, or called UNO and then did not lay its "
            "next-to-last card, and drew the penalty for it (R-HOUSE-FALSE-UNO).",
            (
                ("seat", "the seat that made the false catch or call"),
                ("target", "the seat it caught (none for a call)"),
                ("count", "the penalty cards it draws"),
            ),
            _false_uno_text,
        ),
    )
    options = (
        Option(
            "uno_call",
            "two-cards",
            "when UNO is called: holding two cards, before the next-to-last card (R-UNO-CALL); "
            "only once holding one card, or only with a card to play next (R-HOUSE-UNO-CALL); "
            "never, nobody being caught (R-HOUSE-SILENT-UNO)",
            one_of("two-cards", "one-card", "playable", "silent"),
            "two-cards, one-card, playable, silent",
        ),
        Option(
            "false_uno_penalty",
            0,
            "R-HOUSE-FALSE-UNO: cards drawn by a seat that catches a seat that called, or calls UNO "
            "and then does not lay its next-to-last card (0: such a catch is refused, such a call lapses)",
            whole(1, "a number of cards"),
            "0 (off) or a number of cards, e.g. 2",
        ),
    )
    testing = TestHints(option_values={"false_uno_penalty": (2,)})

    @hookimpl
    def uno_call_rule(self, ruleset: Ruleset) -> str:
        return str(ruleset.options["uno_call"])  # R-UNO-CALL, R-HOUSE-UNO-CALL, R-HOUSE-SILENT-UNO

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        if ruleset.options["false_uno_penalty"] and ruleset.uno_call == "silent":
            raise RulesetError(
                "false_uno_penalty makes false UNO calls and catches cost cards (R-HOUSE-FALSE-UNO), "
                "but with uno_call=silent nobody calls or catches (R-HOUSE-SILENT-UNO): keep one"
            )

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        # R-HOUSE-FALSE-UNO: right after a seat played down to one card having called
        # UNO, any other seat may (wrongly) catch it, once: the first action after the card.
        if not state.ruleset.options["false_uno_penalty"]:
            return ()
        last = state.last_action
        if last is None or last.verb != "play":
            return ()
        target = last.seat
        if len(state.hands[target]) != 1 or target in state.uno_exposed or target in state.left:
            return ()
        row = _CATCH
        return [row[other][target] for other in state.active_seats if other != target]

    @hookimpl(tryfirst=True)
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        penalty: int = draft.ruleset.options["false_uno_penalty"]
        if not penalty:
            return None
        verb = action.verb
        seat = action.seat
        if verb == "catch":
            target = action.target
            if target is None or target in draft.uno_exposed:
                return None  # a true catch: the base's (R-UNO-CATCH)
            # R-HOUSE-FALSE-UNO: the seat caught had called; its catcher pays.
            draft.add_event(
                Event(
                    "false-uno",
                    seat,
                    (),
                    "R-HOUSE-FALSE-UNO",
                    f"seat {target} had called UNO",
                    target=target,
                    count=penalty,
                )
            )
            draft.draw(seat, penalty, "penalty")
            return True
        if verb in _FALSE_AFTER and seat in draft.uno_declared:
            # R-HOUSE-FALSE-UNO: it called UNO and now draws, passes or accepts a draw instead of
            # laying its next-to-last card: the call lapses and costs the penalty, before the
            # action's own draw (which the base carries out next).
            if draft.uno_exposed:
                draft.end_exposure()  # R-UNO-CATCH: the turn action closes the window
            draft.withdraw_uno((seat,))
            draft.add_event(
                Event(
                    "false-uno",
                    seat,
                    (),
                    "R-HOUSE-FALSE-UNO",
                    "called UNO, then did not lay its next-to-last card",
                    count=penalty,
                )
            )
            draft.draw(seat, penalty, "penalty")
        return None

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        verb = action.verb
        if verb not in ("uno", "catch"):
            return None
        call = state.ruleset.uno_call
        if call == "silent":
            return "R-HOUSE-SILENT-UNO", "nobody calls UNO or is caught in this rule set (uno_call=silent)"
        if verb == "uno" and call == "one-card":
            return (
                "R-HOUSE-UNO-CALL",
                "call UNO once you hold one card, before anyone catches you (uno_call=one-card)",
            )
        if verb == "uno" and call == "playable":
            return (
                "R-HOUSE-UNO-CALL",
                "call UNO holding two cards, one of which you can play now (uno_call=playable), "
                "or late, before being caught",
            )
        return None


plugin = UnoCallsPlugin()
"""The plugin object the ``unorules`` entry point ``uno-calls`` names."""

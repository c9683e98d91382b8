"""turn-rules: forced play, a hand cap, misplays (R-HOUSE-FORCED-PLAY, R-HOUSE-HAND-CAP, R-HOUSE-MISPLAY).

Formerly three options of classic; moved out in issue 42 (see the package's
docstring for the grouping). Forced play and the hand cap answer the core's
``refuse_turn_draw`` hook, which any base asks before offering the turn's
draw (a seat refused the draw that cannot play passes). Misplays are offered
on an ordinary turn, the phase named ``"play"`` (classic's, and the editions'):
a ``legal_actions`` wrapper inserts them right after the seat's plays, and an
``apply_action`` that runs first carries one out. The plugin requires nothing
by name.

.. rubric:: Options

* ``forced_play`` (off): R-HOUSE-FORCED-PLAY. A seat holding a playable
  card may not draw instead (R-TURN-CHOOSE-DRAW no longer holds).
* ``hand_limit`` (0, none): R-HOUSE-HAND-CAP. A seat holding that many cards
  or more may not draw for its turn; if it cannot play, it passes.
  Penalty draws still apply.
* ``misplay_penalty`` (0, off): R-HOUSE-MISPLAY. On an ordinary turn a seat
  may try a card it may not play (one that does not match, or one a rule
  forbids, such as a banned last card); it keeps the card, draws that many
  cards and loses the turn ([LU] ``misplayPenalty``: one card). With 0 such a
  play is refused.

The defaults are the rules reference (the values meaning "off"), as they were
in classic: a rule set that names the plugin without options plays as without it.

.. rubric:: Decisions

* **The hand cap** (R-HOUSE-HAND-CAP): a seat at the cap that cannot play
  passes (``pass``); such a pass counts as a draw of nothing towards a
  blocked round (the base's ``draft.stall``), so a table of capped seats that
  cannot play still ends.
* **Misplays** (R-HOUSE-MISPLAY) are offered only on an ordinary turn (not
  after drawing, not out of turn, not against a pending draw); the turn
  passes as after a caught illegal play (R-PEN-ILLEGAL). A misplay is a
  turn action: it closes UNO catch windows, and a call made for the card
  lapses. The card tried is shown to the table (the ``misplay`` event).
  With nothing left to draw (an empty draw pile and no card under the top
  card to shuffle into one) no misplay is offered: its penalty could not be
  paid, and a misplay that costs nothing would be a free pass, on which a
  round could go round for ever.

.. rubric:: Interactions

``forced_play``, ``hand_limit``
    A seat at the cap that can play must play; one that cannot passes.
``forced_play``, ``stacking``, ``deflect``
    Forcing is about the ordinary turn: a seat told to draw may still draw
    rather than stack on or deflect the draw.
``forced_play``, ``drawn_card``
    Together with ``drawn_card=must-play`` a seat plays whenever it can, the
    card it drew included.
``hand_limit``, ``keep-drawing``
    Drawing until a card can be played stops at the cap.
``misplay_penalty``, ``enforcement``
    Two readings of the same mistake: ``misplay_penalty`` charges a misplay
    at once, ``penalties``' ``enforcement=table`` lets it stand unless it is
    caught (R-PEN-ILLEGAL); refused together.
``misplay_penalty``, ``jump-in``, ``multi-play``, ``stacking``, ``deflect``
    Misplays are offered only on an ordinary turn: never as a jump-in, inside
    a group, or against a pending draw.
"""

from __future__ import annotations

import itertools
from collections.abc import Generator, Sequence
from typing import Any, NamedTuple

from unorules import (
    Action,
    Draft,
    Event,
    EventSpec,
    GameState,
    Option,
    Plugin,
    Position,
    Ruleset,
    RulesetError,
    TestHints,
    hookimpl,
    switch,
)
from unorules_house_rules import whole

__all__ = ["TurnRulesPlugin", "plugin"]


class _Rules(NamedTuple):
    forced: bool
    limit: int
    misplay: int


_KEY = ("turn-rules", "options")


def _read(ruleset: Ruleset) -> _Rules:
    options = ruleset.options
    return _Rules(bool(options["forced_play"]), int(options["hand_limit"]), int(options["misplay_penalty"]))


class TurnRulesPlugin(Plugin):
    """Turn house rules: forced play, a hand cap, and misplays that cost cards."""

    name = "turn-rules"
    api_version = 2
    rules = ("R-HOUSE-FORCED-PLAY", "R-HOUSE-HAND-CAP", "R-HOUSE-MISPLAY")
    events = (
        EventSpec(
            "misplay",
            "A seat tried to play a card it may not play: it kept the card, drew the penalty and lost "
            "its turn (R-HOUSE-MISPLAY).",
            (
                ("seat", "the seat that misplayed"),
                ("cards", "the card it tried to play"),
                ("count", "the penalty cards it draws"),
            ),
            "{seat} tried to play {cards}, which may not be played here, took it back and lost the turn",
            reveals=True,  # R-HOUSE-MISPLAY: the card tried is shown to the table
        ),
    )
    options = (
        Option(
            "forced_play",
            False,
            "R-HOUSE-FORCED-PLAY: a seat holding a playable card must play one instead of drawing",
            switch,
            "on, off",
        ),
        Option(
            "hand_limit",
            0,
            "R-HOUSE-HAND-CAP: a seat holding this many cards may not draw for its turn and passes "
            "if it cannot play (0: no limit)",
            whole(1, "a number of cards"),
            "0 (no limit) or a number of cards, e.g. 20",
        ),
        Option(
            "misplay_penalty",
            0,
            "R-HOUSE-MISPLAY: cards drawn by a seat that tries to play a card it may not play, "
            "keeping the card and losing the turn (0: such a play is refused)",
            whole(1, "a number of cards"),
            "0 (off) or a number of cards, e.g. 1",
        ),
    )
    testing = TestHints(option_values={"hand_limit": (14, 25), "misplay_penalty": (1,)})

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        if ruleset.options["misplay_penalty"] and ruleset.options.get("enforcement") == "table":
            raise RulesetError(
                "misplay_penalty charges a misplay at once (R-HOUSE-MISPLAY), but penalties' "
                "enforcement=table lets it stand unless another seat catches it (R-PEN-ILLEGAL): keep one"
            )

    @hookimpl
    def refuse_turn_draw(self, state: Position, seat: int, playable: bool) -> str | None:
        rules = state.ruleset.cached(_KEY, _read)
        if rules.forced and playable:
            return "R-HOUSE-FORCED-PLAY"
        if rules.limit and len(state.hands[seat]) >= rules.limit:
            return "R-HOUSE-HAND-CAP"
        return None

    @hookimpl(wrapper=True)
    def legal_actions(self, state: GameState) -> Generator[None, Any, Sequence[Sequence[Action]]]:
        found: Sequence[Sequence[Action]] = yield
        penalty = state.ruleset.cached(_KEY, _read).misplay
        if not penalty or state.phase.name != "play":
            return found
        if not state.draw_pile and len(state.discard_pile) <= 1:
            return found  # R-HOUSE-MISPLAY: no card to pay the penalty with, no misplay
        # R-HOUSE-MISPLAY: every card of an ordinary turn that may not be played may be
        # tried, at a price: listed right after the seat's plays (before its draw or pass).
        seat = state.current_player
        acts = list(itertools.chain.from_iterable(found))
        plays = {a.card for a in acts if a.seat == seat and a.verb == "play"}
        tried: list[Action] = []
        for card in dict.fromkeys(state.face(c) for c in state.hands[seat]):
            if card not in plays:
                tried += state.play_actions(seat, card)
        if not tried:
            return found
        at = next((i + 1 for i in range(len(acts) - 1, -1, -1) if _is_play(acts[i], seat)), None)
        if at is None:
            at = next(
                (i for i, a in enumerate(acts) if a.seat == seat and a.verb in ("draw", "pass")), len(acts)
            )
        acts[at:at] = tried
        return [acts]

    @hookimpl(tryfirst=True)
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        card = action.card
        if action.verb != "play" or card is None:
            return None
        penalty = draft.ruleset.cached(_KEY, _read).misplay
        if not penalty:
            return None
        seat = action.seat
        before = draft.before
        if before is None or before.phase.name != "play" or seat != before.current_player:
            return None
        if before.may_play(seat, card):
            return None
        # R-HOUSE-MISPLAY: the seat keeps the card, draws the penalty and loses the turn.
        if draft.uno_exposed:
            draft.end_exposure()  # R-UNO-CATCH: the turn action closes the window
        draft.withdraw_uno((seat,))  # a call was for a card that was not laid
        held = next((c for c in before.hands[seat] if before.face(c) == card), card)  # a two-faced card
        draft.add_event(
            Event("misplay", seat, (held,), "R-HOUSE-MISPLAY", f"{card} may not be played", count=penalty)
        )
        draft.draw(seat, penalty, "penalty")
        draft.pass_turn(1, seat)
        return True

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        verb = action.verb
        seat = action.seat
        if verb not in ("draw", "pass") or seat != state.current_player or state.phase.name != "play":
            return None
        rules = state.ruleset.cached(_KEY, _read)
        hand = state.hands[seat]
        at_cap = bool(rules.limit) and len(hand) >= rules.limit
        if verb == "pass" and at_cap:
            return "R-HOUSE-HAND-CAP", "at the hand limit a seat passes only when it cannot play: play a card"
        if verb != "draw":
            return None
        playable = any(state.may_play(seat, state.face(c)) for c in hand)
        if rules.forced and playable:
            return "R-HOUSE-FORCED-PLAY", "a seat holding a playable card must play one (forced_play=on)"
        if at_cap:
            return (
                "R-HOUSE-HAND-CAP",
                f"a seat holding {rules.limit} cards or more may not draw for its turn "
                f"(hand_limit={rules.limit}): play a card, or pass if you cannot",
            )
        return None


def _is_play(action: Action, seat: int) -> bool:
    return action.seat == seat and action.verb == "play"


plugin = TurnRulesPlugin()
"""The plugin object the ``unorules`` entry point ``turn-rules`` names."""

"""Why an action is refused under UNO Show 'Em No Mercy (the ``explain_illegal`` hook)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from unorules import COLORS

if TYPE_CHECKING:
    from unorules import Action, GameState

__all__ = ["explain"]

_TURN_VERBS = frozenset({"play", "draw", "color"})


def explain(state: GameState, action: Action) -> tuple[str, str] | None:
    seat = action.seat
    verb = action.verb
    phase = state.phase
    current = state.current_player
    if verb == "catch":
        return (
            "R-NM-UNO",
            f"seat {action.target} cannot be caught now: only a seat holding one card without having called "
            "UNO, before the next player's turn action",
        )
    if verb == "uno":
        return (
            "R-UNO-CALL",
            "call UNO on your turn holding two cards (or a Discard All that leaves you one), or late, "
            "before being caught",
        )
    if verb in ("challenge", "accept"):
        return "R-NM-WILD", "no wild may be challenged in No Mercy: every wild may be played at any time"
    if verb == "pass":
        return "R-NM-DRAW", "there is no passing: a playable card drawn must be played at once"
    if verb in _TURN_VERBS and seat != current:
        return "R-NM-TURN", f"it is seat {current}'s turn, not seat {seat}'s"
    if phase.name == "roulette":
        return (
            "R-NM-ROULETTE",
            f"hit by a Wild Colour Roulette: name a colour to turn cards up to, e.g. 'color {COLORS[0]}'",
        )
    if verb == "color":
        return "R-NM-ROULETTE", "a colour is named on its own only by the victim of a Wild Colour Roulette"
    if phase.name == "stack":
        on = phase.card
        if verb != "play" or action.card is None:
            return None
        if action.card not in state.hands[seat]:
            return "R-NM-STACK", f"seat {seat} holds no {action.card}"
        rule = state.ruleset.options["nm_stack_rule"]
        want = "the same card" if rule == "same-kind" else "a draw card of equal or higher value"
        return (
            "R-NM-STACK",
            f"seat {seat} must answer the stack of {phase.count}: stack {want} than {on} (any colour), or "
            f"draw {phase.count}",
        )
    if verb == "draw":
        if phase.name == "drawn":
            return "R-NM-DRAW", f"the card drawn ({phase.card}) is playable and must be played now"
        return (
            "R-NM-TURN",
            "a seat holding a playable card must play one; drawing is for a seat that cannot "
            "(nm_voluntary_draw=off)",
        )
    if verb != "play" or action.card is None:
        return None
    card = action.card
    if card not in state.hands[seat]:
        return "R-TURN-MATCH", f"seat {seat} holds no {card}"
    if phase.name == "drawn" and card is not phase.card:
        return "R-NM-DRAW", f"after drawing until playable, play the card drawn ({phase.card})"
    if card.color is None:
        if card.kind == "WCR" and state.ruleset.options["nm_roulette_namer"] == "victim":
            if action.color is not None:
                return (
                    "R-NM-ROULETTE",
                    "a Wild Colour Roulette's colour is named by the seat it hits: 'play WCR'",
                )
        elif action.color is None:
            return "R-NM-WILD", f"name the colour for {card}, e.g. 'play {card} {COLORS[0]}'"
    elif action.color is not None:
        return "R-TURN-MATCH", f"{card} is not a wild: it takes no colour"
    if card.kind == "7" and action.target is None:
        return (
            "R-NM-SEVEN-O",
            f"a 7 trades hands with a seat its player chooses, e.g. 'play {card} {state.next_seat(seat)}'",
        )
    if action.target is not None and card.kind != "7":
        return "R-TURN-MATCH", f"{card} takes no target seat"
    if action.target is not None and (
        action.target == seat or not 0 <= action.target < state.players or action.target in state.left
    ):
        return "R-NM-SEVEN-O", f"seat {seat} cannot trade hands with seat {action.target}"
    if not state.matches(seat, card):
        return (
            "R-TURN-MATCH",
            f"{card} matches neither the colour {state.color} nor the {state.top_card} by number or symbol",
        )
    return None

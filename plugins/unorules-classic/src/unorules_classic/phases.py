"""Classic's phases checked in states read from outside (its ``check_state`` hook)."""

from __future__ import annotations

from unorules import PLAY, GameState, StateFormatError
from unorules.validate import require

__all__ = ["check_phase"]


def check_phase(state: GameState) -> None:
    """Classic's phases carry what their handlers need (``validate_state``).
    Once the game is over no handler runs: the last phase stays as it was."""
    if state.outcome is not None:
        return
    phase = state.phase
    name = phase.name
    seat = state.current_player
    if name == "play":
        require(
            phase == PLAY, "phase", "the ordinary turn ('play') carries no count, card, seat, colour or data"
        )
    elif name == "drawn":
        require(
            phase.card is not None and phase.card in state.hands[seat],
            "phase.card",
            "R-TURN-DRAW: phase 'drawn' names the card just drawn, which the seat to move holds",
        )
    elif name in ("penalty", "challenge"):
        rule = "R-CHALLENGE" if name == "challenge" else "R-ACT-D2, R-TURN-WD4"
        require(phase.count >= 1, "phase.count", f"{rule}: a seat told to draw draws at least one card")
        require(phase.card is not None, "phase.card", f"{rule}: phase {name!r} names the card that caused it")
        if name == "challenge":
            require(
                phase.seat is not None and phase.seat != seat and phase.seat not in state.left,
                "phase.seat",
                "R-CHALLENGE: the seat that played the Wild Draw Four, another seat still in the game",
            )
            require(
                phase.color is not None,
                "phase.color",
                "R-CHALLENGE: the colour before the Wild Draw Four, against which a bluff is judged",
            )
    if name == "color":
        require(
            state.color is None,
            "color",
            "R-SETUP-STARTER: in phase 'color' the wild starter's colour is still to be named",
        )
    elif state.color is None and state.outcome is None:
        raise StateFormatError(
            "color: R-TURN-MATCH: the colour to match is unnamed only while a wild starter's colour "
            "is to be named (phase 'color', R-SETUP-STARTER)",
            "color",
        )

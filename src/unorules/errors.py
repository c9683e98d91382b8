"""The exceptions unorules raises."""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "NotationError",
    "RulesetError",
    "SeatError",
    "StateFormatError",
    "UnorulesError",
]


class UnorulesError(Exception):
    """Base class of every error unorules raises on purpose."""


class IllegalActionError(UnorulesError, ValueError):
    """An action that the rules do not allow in this state.

    ``rule`` is the id of the rule that forbids it (``"R-TURN-WD4"``) when one
    applies; the message always says why. The ids ``R-…`` are defined in the
    rules reference (``docs/rules.rst``); a plugin's own ids on its page. The state it was applied to is
    unchanged: states are immutable.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


class NotationError(UnorulesError, ValueError):
    """Card or action text that cannot be parsed; the message names the bad part."""


class RulesetError(UnorulesError, ValueError):
    """A rule set that cannot be built: unknown plugin, bad option, conflict."""


class StateFormatError(UnorulesError, ValueError):
    """Serialised state (JSON) that is malformed; the message names the bad part."""


class SeatError(UnorulesError, ValueError):
    """A seat number that does not exist in the game (``state.view(99)``,
    ``state.legal_actions(-1)``); the message says which seats there are."""

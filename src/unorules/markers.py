"""The pluggy markers of unorules' hooks: the lowest layer of the package.

``hookimpl`` marks a plugin's hook implementations; ``hookspec`` marks the
specifications in :mod:`unorules.hookspecs` and the extension hooks a plugin
offers to others (``Plugin.hookspecs``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pluggy

__all__ = ["ACTIVE_WHEN", "PROJECT", "active_when", "hookimpl", "hookspec"]

_F = TypeVar("_F", bound=Callable[..., Any])

PROJECT = "unorules"
"""The pluggy project name of every unorules hook."""

hookspec = pluggy.HookspecMarker(PROJECT)
"""Marks a hook specification (used by :mod:`unorules.hookspecs`)."""

hookimpl = pluggy.HookimplMarker(PROJECT)
"""Marks a plugin method as a hook implementation: ``@unorules.hookimpl``."""

ACTIVE_WHEN = "unorules_active_when"
"""The attribute :func:`active_when` sets on a hook implementation."""


def active_when(predicate: Callable[[Any], bool]) -> Callable[[_F], _F]:
    """Say of a hook implementation of a hook of play that it answers ``None`` (or does
    nothing) in every rule set for which ``predicate(ruleset)`` is false: a rule its
    plugin plays only under an option (classic's Wild Draw Four rule when challenges
    are off). The rule set then leaves it out of the hook's caller (see
    :class:`unorules.ruleset.Hooks`), so a rule set without the rule pays nothing for
    it. The implementation must still behave so when called through pluggy::

        @hookimpl(trylast=True)
        @active_when(lambda ruleset: not ruleset.options["challenge"])
        def card_matches(self, state, seat, card): ...
    """

    def mark(function: _F) -> _F:
        setattr(function, ACTIVE_WHEN, predicate)
        return function

    return mark

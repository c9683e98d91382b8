"""What a plugin declares: its name, options, requirements and conflicts.

A plugin is any object with a ``name`` and hook implementations marked with
:data:`hookimpl`; subclassing :class:`Plugin` gives the declarations their
defaults. Installed plugins are found through the entry-point group
``unorules``; the entry point names the plugin object::

    [project.entry-points.unorules]
    classic = "unorules_classic:plugin"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import attrs
import pluggy

__all__ = ["Option", "Plugin", "hookimpl", "hookspec", "one_of", "positive_int", "switch"]

hookspec = pluggy.HookspecMarker("unorules")
"""Marks a hook specification (used by :mod:`unorules.hookspecs`)."""

hookimpl = pluggy.HookimplMarker("unorules")
"""Marks a plugin method as a hook implementation: ``@unorules.hookimpl``."""


def _no_check(value: Any) -> Any:
    return value


@attrs.frozen
class Option:
    """An option a plugin accepts.

    ``check`` turns a user's value into the canonical one or raises
    ``ValueError`` with a message saying what is allowed; the rule set calls
    it when it is built, so a bad option never reaches a game.
    """

    name: str
    default: Any
    doc: str = ""
    check: Callable[[Any], Any] = _no_check
    allowed: str = "any value"

    def validate(self, value: Any) -> Any:
        """The canonical value for ``value``; ``ValueError`` if not allowed."""
        return self.check(value)


def one_of(*values: Any) -> Callable[[Any], Any]:
    """A check accepting exactly ``values`` (strings case-insensitively)."""

    def check(value: Any) -> Any:
        for allowed in values:
            if value == allowed and type(value) is type(allowed):
                return allowed
            if isinstance(value, str) and isinstance(allowed, str) and value.lower() == allowed:
                return allowed
            if isinstance(value, str) and not isinstance(allowed, str) and value == str(allowed):
                return allowed
        raise ValueError(f"{value!r} is not one of {', '.join(map(repr, values))}")

    return check


def positive_int(value: Any) -> int:
    """A check accepting positive integers (and their decimal strings)."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{value!r} is not a positive integer")
    return value


def switch(value: Any) -> bool:
    """A check accepting ``True``/``False`` and ``"on"``/``"off"`` (also yes/no, 1/0)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("on", "true", "yes", "1"):
        return True
    if text in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"{value!r} is not on or off")


class Plugin:
    """Convenience base class for plugins; every attribute may be overridden.

    * ``name``: the name the plugin is enabled by (its entry-point name).
    * ``options``: the :class:`Option` objects it accepts.
    * ``requires``: names of plugins that must be in the same rule set; this
      plugin is registered after them, so its hooks run before theirs.
    * ``conflicts``: names of plugins it cannot be combined with, each with the
      reason shown to the user.
    * ``rules``: the rule ids it implements, for docs and ``unorules rules``.
    * ``hookspecs``: optionally, a class or module of :data:`hookspec`
      functions: hooks this plugin offers to other plugins (an extension point).
    """

    name: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    requires: ClassVar[tuple[str, ...]] = ()
    conflicts: ClassVar[Mapping[str, str]] = {}
    rules: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    hookspecs: ClassVar[object | None] = None

    def __repr__(self) -> str:
        return f"<unorules plugin {self.name!r}>"

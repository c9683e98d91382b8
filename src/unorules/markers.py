"""The pluggy markers of unorules' hooks: the lowest layer of the package.

``hookimpl`` marks a plugin's hook implementations; ``hookspec`` marks the
specifications in :mod:`unorules.hookspecs` and the extension hooks a plugin
offers to others (``Plugin.hookspecs``).
"""

from __future__ import annotations

import pluggy

__all__ = ["PROJECT", "hookimpl", "hookspec"]

PROJECT = "unorules"
"""The pluggy project name of every unorules hook."""

hookspec = pluggy.HookspecMarker(PROJECT)
"""Marks a hook specification (used by :mod:`unorules.hookspecs`)."""

hookimpl = pluggy.HookimplMarker(PROJECT)
"""Marks a plugin method as a hook implementation: ``@unorules.hookimpl``."""

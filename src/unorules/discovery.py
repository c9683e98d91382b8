"""Installed plugins: found through the entry-point group ``unorules``, loaded once.

``load_plugin("stacking")`` imports the object the entry point names and
checks it (its name, its plugin API version); :func:`installed_plugins`
lists every installed plugin that loads. Nothing here knows rule sets.
"""

from __future__ import annotations

import functools
import threading
import warnings
from collections.abc import Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from unorules.errors import RulesetError, excerpt, nearest
from unorules.plugin import check_api_version

__all__ = ["ENTRY_POINT_GROUP", "PluginLoadWarning", "installed_plugins", "load_plugin"]

ENTRY_POINT_GROUP = "unorules"
"""The entry-point group plugins register in."""


class PluginLoadWarning(UserWarning):
    """An installed plugin that cannot be loaded, skipped while listing the
    installed plugins (asking for it by name raises :class:`RulesetError`)."""


@functools.cache
def _entry_points() -> Mapping[str, EntryPoint]:
    """The entry points of the ``unorules`` group, by name (not loaded)."""
    found: dict[str, EntryPoint] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        found.setdefault(ep.name, ep)
    return found


_loaded: dict[str, Any] = {}
_load_lock = threading.RLock()


def _where(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    package = getattr(dist, "name", None) or "an unknown distribution"
    return f"entry point {ep.name} = {ep.value!r} of {package}"


def load_plugin(name: str) -> Any:
    """The installed plugin ``name`` (its entry-point name), loaded once and checked.

    :raises RulesetError: if no plugin of that name is installed; if importing
        it fails (naming the entry point, its distribution and the error); if
        the object's ``name`` is not the entry-point name; or if it is not
        written against this core's plugin API version.
    """
    key = name.strip().lower()
    found = _loaded.get(key)
    if found is not None:
        return found
    eps = _entry_points()
    ep = eps.get(key)
    if ep is None:
        known = nearest(key, sorted(eps), "installed plugins")
        raise RulesetError(f"no plugin named {excerpt(name)} is installed; {known}")
    with _load_lock:
        try:
            plugin = ep.load()
        except Exception as exc:
            raise RulesetError(
                f"plugin {key!r} cannot be loaded ({_where(ep)}): {type(exc).__name__}: {exc}"
            ) from exc
        own = getattr(plugin, "name", None)
        if own != key:
            raise RulesetError(
                f"plugin {key!r} is named {own!r} ({_where(ep)}): a plugin's name must be its "
                "entry-point name, or its saved games could not be restored"
            )
        check_api_version(plugin, f"plugin {key!r} ({_where(ep)})")
        _loaded[key] = plugin
    return plugin


@functools.cache
def installed_plugins() -> Mapping[str, Any]:
    """The plugins installed in this environment that load, by entry-point name
    (each loaded once). A plugin that cannot be loaded (see :func:`load_plugin`)
    is left out with a :class:`PluginLoadWarning`, so one broken plugin never
    hides the others."""
    found: dict[str, Any] = {}
    for name in _entry_points():
        try:
            found[name] = load_plugin(name)
        except RulesetError as exc:
            warnings.warn(PluginLoadWarning(f"skipped: {exc}"), stacklevel=2)
    return found


def installed_names() -> tuple[str, ...]:
    """The names of the installed plugins' entry points (none loaded)."""
    return tuple(_entry_points())


def reset() -> None:
    """Forget the entry points and the loaded plugins (for tests that install plugins)."""
    _entry_points.cache_clear()
    installed_plugins.cache_clear()
    _loaded.clear()

"""Rule-set spec texts (``"classic,stacking stack_mix=on"``) and the per-process cache of rule sets.

A spec text names a rule set: plugin names separated by commas, then
options as ``name=value`` (command-line values), all separated by spaces.
``Ruleset.from_spec_text`` reads one and ``Ruleset.spec_text`` writes the
canonical one. The same names and options give one rule set object per
process while something uses it (:class:`RulesetCache`), so unpickling many
states or reading many records builds each rule set once.

An option that none of the named plugins declares brings in the one installed
plugin that declares it (:func:`option_owners`): ``classic last_card_ban=wild``
is the rule set ``classic,last-card last_card_ban=wild``, so spec texts, rulebooks,
``--option`` and saved states written before an option moved to a plugin of its
own keep working. Rule sets built from plugin objects alone add nothing.
"""

from __future__ import annotations

import collections
import threading
import weakref
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from unorules.discovery import installed_plugins
from unorules.errors import RulesetError, excerpt

if TYPE_CHECKING:
    from unorules.ruleset import Ruleset

__all__ = ["CACHE", "RulesetCache", "freeze", "option_owners", "parse_spec_text"]


def parse_spec_text(text: str) -> tuple[list[str], dict[str, str]]:
    """The plugin names and the option texts of a spec text such as
    ``"classic,stacking stack_mix=on"``: whitespace-separated parts, each a
    comma-separated list of plugin names or one ``name=value`` option."""
    names: list[str] = []
    options: dict[str, str] = {}
    for part in text.split():
        name, sep, value = part.partition("=")
        if not sep:
            names += [n for n in part.split(",") if n]
            continue
        if not name.isidentifier():
            raise RulesetError(
                f"rule-set spec {excerpt(text)}: bad option part {excerpt(part)}; write name=value"
            )
        if name in options:
            raise RulesetError(f"rule-set spec {excerpt(text)}: option {name!r} is given twice")
        options[name] = value
    if not names:
        raise RulesetError(
            f"rule-set spec {excerpt(text)} names no plugin; write e.g. 'classic,stacking stack_mix=on'"
        )
    return names, options


def option_owners(plugins: Sequence[Any], options: Iterable[str]) -> list[Any]:
    """The installed plugins to add to ``plugins`` so that every option named in
    ``options`` is declared: for each option no plugin of ``plugins`` declares, the
    one installed plugin that declares it (once, in the order the options come).

    An option that no installed plugin declares is left to the caller, which
    refuses it naming the options it knows; nothing is loaded when every option is
    declared already.

    :raises RulesetError: if several installed plugins declare such an option,
        naming them (the rule set must name the one it means).
    """
    declared = {option.name for plugin in plugins for option in getattr(plugin, "options", ())}
    missing = [name for name in options if name not in declared]
    if not missing:
        return []
    named = {getattr(plugin, "name", None) for plugin in plugins}
    added: dict[str, Any] = {}
    for option_name in missing:
        owners = [
            name
            for name, plugin in installed_plugins().items()
            if name not in named and any(o.name == option_name for o in getattr(plugin, "options", ()))
        ]
        if len(owners) > 1:
            raise RulesetError(
                f"option {option_name!r} is declared by none of the plugins named and by several "
                f"installed plugins ({', '.join(owners)}): name the one you mean, "
                f"e.g. '{','.join([*(n for n in named if n), owners[0]])} {option_name}=...'"
            )
        if owners:
            added.setdefault(owners[0], installed_plugins()[owners[0]])
    return list(added.values())


def freeze(value: Any) -> Hashable:
    """A hashable key for an option value that also tells ``True`` from ``1``
    (``TypeError`` for a value that cannot be one)."""
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((str(k), freeze(v)) for k, v in value.items())))
    hash(value)
    frozen: Hashable = (type(value).__name__, value)
    return frozen


class RulesetCache:
    """The rule sets this process built from names or spec texts, so that one
    spec gives one rule set object: kept while something uses them (weakly),
    and the most recent ones kept alive anyway."""

    KEEP = 64

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: weakref.WeakValueDictionary[Hashable, Ruleset] = weakref.WeakValueDictionary()
        self._recent: collections.OrderedDict[Hashable, Ruleset] = collections.OrderedDict()

    def get(self, key: Hashable) -> Ruleset | None:
        with self._lock:
            found = self._live.get(key)
            if found is not None:
                self._keep(key, found)
            return found

    def put(self, keys: Iterable[Hashable], built: Ruleset) -> Ruleset:
        """Store ``built`` under ``keys`` and its canonical key; return the
        rule set already cached under the canonical key if there is one."""
        given = built.spec()["options"]
        canonical = ("canonical", built.names, tuple((k, freeze(v)) for k, v in sorted(given.items())))
        with self._lock:
            found = self._live.get(canonical)
            if found is None:
                found = built
                self._live[canonical] = built
            self._keep(canonical, found)
            for key in keys:
                self._live[key] = found
                self._keep(key, found)
            return found

    def _keep(self, key: Hashable, ruleset: Ruleset) -> None:
        self._recent[key] = ruleset
        self._recent.move_to_end(key)
        while len(self._recent) > self.KEEP:
            self._recent.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._live.clear()
            self._recent.clear()


CACHE = RulesetCache()
"""The process's cache (``Ruleset.from_names``, ``from_spec_text``, ``from_spec``)."""

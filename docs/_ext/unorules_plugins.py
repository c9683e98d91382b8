"""A small Sphinx extension: one page per plugin shipped with unorules.

At every build (``builder-inited``) it writes ``plugins/index.rst`` and
``plugins/<name>.rst`` for each plugin distribution under the repository's
``plugins/`` folder, from the plugin's module docstring and its declarations
(summary, rule ids, requirements, conflicts, options, the cards it adds, the
hooks it implements, the hooks it offers). A new plugin distribution there is
covered without editing the docs.

Only the shipped plugins are documented, so the docs build the same in every
environment: other plugins installed in the same environment (third-party
ones, the sample under ``examples/``) are never loaded, get no page, and
cannot break the build. A shipped plugin that is not installed is an error
that says how to install it. Files are rewritten only when their text
changes, so incremental builds stay incremental; other pages are removed.
"""

from __future__ import annotations

import inspect
import re
import sys
import textwrap
import tomllib
from collections import Counter
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

import unorules
from unorules import hookspecs
from unorules.plugin import summary as plugin_summary
from unorules.ruleset import CORE_EVENTS, ENTRY_POINT_GROUP

HOOKS = sorted(name for name, f in vars(hookspecs).items() if callable(f) and hasattr(f, "unorules_spec"))
PLUGINS_DIR = Path(__file__).resolve().parents[2] / "plugins"
"""The repository's plugin distributions: the plugins these docs document."""


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def shipped_plugins(folder: Path = PLUGINS_DIR) -> dict[str, Any]:
    """The plugin objects of the distributions under ``folder``, by entry-point
    name. Each is loaded from its own distribution's entry point in the
    ``unorules`` group; no other entry point of the group is loaded."""
    wanted: dict[str, str] = {}
    for pyproject in sorted(folder.glob("*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        for name in project.get("entry-points", {}).get("unorules", {}):
            wanted[name] = _normalized(project["name"])
    found: dict[str, Any] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = ep.dist.name if ep.dist is not None else ""
        if ep.name in wanted and _normalized(dist) == wanted[ep.name] and ep.name not in found:
            found[ep.name] = ep.load()
    missing = sorted(set(wanted) - set(found))
    if missing:
        raise ExtensionError(
            f"shipped plugins not installed: {', '.join(missing)}; "
            "install them with `python3 dev.py setup` (or `pip install -e plugins/NAME`)"
        )
    return dict(sorted(found.items()))


def _heading(text: str, char: str, over: bool = False) -> str:
    line = char * max(len(text), 3)
    return f"{line}\n{text}\n{line}\n" if over else f"{text}\n{line}\n"


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "``on``" if value else "``off``"
    return f"``{value}``"


def _cell(text: str) -> str:
    return " ".join(str(text).split()) or "\\-"


def plugin_doc(plugin: Any) -> str:
    """The plugin module's docstring (or the plugin's own when it is a module)."""
    module = plugin if inspect.ismodule(plugin) else sys.modules.get(type(plugin).__module__)
    doc = inspect.getdoc(module) if module is not None else None
    return doc or inspect.getdoc(plugin) or ""


def _deck_added(name: str, plugin: Any, shipped: dict[str, Any]) -> list[tuple[str, int]]:
    """The cards this plugin adds to the deck of the plugins it requires (if it builds)."""
    base = [shipped[r] for r in getattr(plugin, "requires", ()) if r in shipped]
    try:
        with_it = unorules.Ruleset([*base, plugin], {})
        base_deck = Counter(unorules.Ruleset(base, {}).deck) if base else Counter()
    except unorules.UnorulesError:
        return []
    added = Counter(with_it.deck)
    added.subtract(base_deck)
    return [(f"{card} ({card.name})", n) for card, n in added.items() if n > 0]


def _implemented(plugin: Any) -> list[str]:
    return [h for h in HOOKS if hasattr(getattr(plugin, h, None), "unorules_impl")]


def _offered(plugin: Any) -> list[tuple[str, str, str]]:
    specs = getattr(plugin, "hookspecs", None)
    if specs is None:
        return []
    found = []
    for attr in dir(specs):
        f = getattr(specs, attr, None)
        if callable(f) and hasattr(f, "unorules_spec"):
            try:
                sig = str(inspect.signature(f)).replace("(self, ", "(").replace("(self)", "()")
            except (TypeError, ValueError):
                sig = "(...)"
            found.append((attr, sig, inspect.getdoc(f) or ""))
    return found


def plugin_page(name: str, plugin: Any, shipped: dict[str, Any] | None = None) -> str:
    """The reStructuredText page of one plugin (``shipped``: the plugins by
    name, for the ones it requires; by default :func:`shipped_plugins`)."""
    if shipped is None:
        shipped = shipped_plugins()
    summary = plugin_summary(plugin)
    out = [f".. _plugin-{name}:\n", _heading(f"{name}", "=", over=True)]
    if summary:
        out.append(f"*{summary}*\n")
    module = type(plugin).__module__ if not inspect.ismodule(plugin) else plugin.__name__
    requires = tuple(getattr(plugin, "requires", ()))
    enable = ", ".join(repr(n) for n in [*requires, name])
    fields = [
        f":Enable: ``Ruleset.from_names([{enable}])``",
        f":Module: ``{module}``",
        f":Rule ids: {', '.join(f'``{r}``' for r in getattr(plugin, 'rules', ())) or 'none'}",
        f":Requires: {', '.join(f':ref:`{r} <plugin-{r}>`' for r in requires) or 'nothing'}",
    ]
    conflicts = dict(getattr(plugin, "conflicts", {}))
    if conflicts:
        fields.append(":Conflicts with: " + ", ".join(f"``{c}``" for c in conflicts))
    else:
        fields.append(":Conflicts with: nothing")
    out.append("\n".join(fields) + "\n")
    doc = plugin_doc(plugin)
    if doc:
        out.append(doc + "\n")
    out.append(_heading("Options at a glance", "-"))
    options = list(getattr(plugin, "options", ()))
    if options:
        rows = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 20 15 25 40",
            "",
            "   * - option",
            "     - default",
            "     - allowed values",
            "     - meaning",
        ]
        for o in options:
            rows += [
                f"   * - ``{o.name}``",
                f"     - {_literal(o.default)}",
                f"     - {_cell(o.allowed)}",
                f"     - {_cell(o.doc)}",
            ]
        out.append("\n".join(rows) + "\n")
    else:
        out.append("This plugin has no options of its own.\n")
    if conflicts:
        out.append(_heading("Conflicts at a glance", "-"))
        out.append("\n".join(f"``{other}``\n    {_cell(why)}" for other, why in conflicts.items()) + "\n")
    cards = _deck_added(name, plugin, shipped)
    if cards:
        out.append(_heading("Cards it adds", "-"))
        out.append("\n".join(f"* {n} x {text}" for text, n in cards) + "\n")
    events = tuple(getattr(plugin, "events", ()))
    if events:
        out.append(_heading("Events it emits", "-"))
        out.append("See also the :ref:`event catalogue <event-catalogue>`.\n")
        out.append(_events_table(events))
    out.append(_heading("Hooks it implements", "-"))
    hooks = _implemented(plugin)
    out.append((", ".join(f":func:`~unorules.hookspecs.{h}`" for h in hooks) or "none") + "\n")
    offered = _offered(plugin)
    if offered:
        out.append(_heading("Hooks it offers to other plugins", "-"))
        for attr, sig, doc in offered:
            body = textwrap.indent(doc or "(undocumented)", "    ")
            out.append(f"``{attr}{sig}``\n\n{body}\n")
    out.append(
        "This page is generated from the plugin's module docstring and declarations "
        "by ``docs/_ext/unorules_plugins.py``; ``unorules rules "
        f"{name}`` shows the same declarations in a terminal.\n"
    )
    return "\n".join(out)


def _reads(spec: Any) -> str:
    """How an event reads (its text), for a table cell."""
    text = getattr(spec, "text", "")
    if callable(text):
        doc = inspect.getdoc(text) or ""
        first = doc.splitlines()[0] if doc else "the words depend on the event"
        return f"(a function) {_cell(first)}"
    return f"``{text}``" if text else "(no text)"


def _events_table(specs: Any) -> str:
    """A list-table of event specs: kind, what happened, the fields it fills, how it reads."""
    rows = [
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 15 27 33 25",
        "",
        "   * - kind",
        "     - what happened",
        "     - fields",
        "     - how it reads",
    ]
    for spec in specs:
        fields = "; ".join(f"``{name}``: {_cell(meaning)}" for name, meaning in spec.fields) or "(none)"
        rows += [
            f"   * - ``{spec.kind}``",
            f"     - {_cell(spec.doc)}",
            f"     - {fields}",
            f"     - {_reads(spec)}",
        ]
    return "\n".join(rows) + "\n"


def events_page(plugins: dict[str, Any]) -> str:
    """The event catalogue: the core's event kinds, then each plugin's."""
    out = [
        ".. _event-catalogue:\n",
        _heading("Event catalogue", "=", over=True),
        "Every :class:`~unorules.Event` has a ``kind``; the core and each plugin "
        "declare the kinds they emit (:class:`~unorules.EventSpec` in ``Plugin.events``) "
        "with the typed fields each fills: ``seat``, ``cards``, ``target``, ``count``, "
        "``color`` and plugin-specific values in ``data`` (``data.NAME``; read one "
        "with ``event.value(NAME)``). ``detail`` and ``str(event)`` are the human "
        "rendering. ``rules.events`` maps each kind of a rule set to its spec; the "
        "testing toolkit's ``events`` invariant fails when a plugin emits a kind or "
        "fills a field its spec does not list.\n",
        _heading("The core", "-"),
        "Every rule set has these (the core's mechanics emit them):\n",
        _events_table(CORE_EVENTS),
    ]
    for name, plugin in plugins.items():
        specs = tuple(getattr(plugin, "events", ()))
        if specs:
            out.append(_heading(name, "-"))
            out.append(f"Emitted by :ref:`{name} <plugin-{name}>`:\n")
            out.append(_events_table(specs))
    return "\n".join(out)


def index_page(plugins: dict[str, Any]) -> str:
    rows = "\n".join(
        f"   * - :ref:`{n} <plugin-{n}>`\n     - {_cell(plugin_summary(p))}" for n, p in plugins.items()
    )
    toctree = "\n".join(f"   {n}" for n in [*plugins, "events"])
    return f"""\
.. _plugins:

{_heading("Plugins", "=", over=True)}
The plugins shipped with unorules, one page each, generated from each
plugin's docstring and declarations. Rule ids link to the
:doc:`rules reference <../rules>`. Every rule set starts from
``classic``; the others are added by name, e.g.
``Ruleset.from_names(["classic", "stacking"])``. ``unorules rules`` lists the
same in a terminal. The :ref:`event catalogue <event-catalogue>` lists the
events each plugin emits.

.. list-table::
   :header-rows: 1
   :widths: 25 75

   * - plugin
     - summary
{rows}

.. toctree::
   :maxdepth: 1
   :hidden:

{toctree}
"""


def _write(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(srcdir: Path) -> list[str]:
    """Write the plugin pages under ``srcdir/plugins``; return the plugin names."""
    folder = srcdir / "plugins"
    folder.mkdir(exist_ok=True)
    plugins = shipped_plugins()
    _write(folder / "index.rst", index_page(plugins))
    _write(folder / "events.rst", events_page(plugins))
    for name, plugin in plugins.items():
        _write(folder / f"{name}.rst", plugin_page(name, plugin, plugins))
    keep = {f"{n}.rst" for n in plugins} | {"index.rst", "events.rst"}
    for old in folder.glob("*.rst"):
        if old.name not in keep:
            old.unlink()
    return list(plugins)


def _on_builder_inited(app: Sphinx) -> None:
    generate(Path(app.srcdir))


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", _on_builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

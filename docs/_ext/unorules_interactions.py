"""A small Sphinx extension for the house-rules page: the presets, and how plugins and options combine.

The directive ``.. unorules-presets::`` lists the shipped presets
(:func:`unorules.rulebook.presets`): each one's name, title, description,
plugins, options and player counts, read from the package's own files.

The directive ``.. unorules-interactions::`` writes, at every build, the
verdict on every pair of *items*, where an item is a shipped plugin (but
``classic``, which every rule set holds) or a house-rule option set to one
of its values (an option whose ``doc`` cites an ``R-HOUSE-…`` rule id, each
value other than its default: ``last_card_ban=wild``, ``deflect_revenge=on``):

* **conflict** when the rule set of ``classic`` and the two items is refused
  when built: a plugin's declared ``conflicts`` or a ``check_ruleset`` hook,
  the reason being the :class:`~unorules.RulesetError`'s message (an
  *edition*, a plugin declaring a conflict with ``classic`` such as ``flip``,
  stands in for ``classic``; the page says so, with its reason);
* **decision** when it builds and a plugin's docstring says how the two meet,
  in an entry of its *Interactions* part headed by the other item's name
  (entries reading "None: ..." say there is nothing to decide);
* **combine** otherwise.

Nothing here is written by hand: the verdicts come from building the rule
sets, the decisions from the plugins' own documentation.
``tests/test_house_rules_table.py`` checks the table against what the rule
sets do.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from unorules import Ruleset, RulesetError
from unorules.plugin import Option

HOUSE = "R-HOUSE-"
"""A house-rule option's ``doc`` cites a rule id starting so."""

_HEADER = re.compile(r"^``[^`]+``(?:\s*,\s*``[^`]+``)*\s*$")
_NAME = re.compile(r"``([^`]+)``")


def _plugins_extension() -> Any:
    """The sibling extension that finds the shipped plugins."""
    module = sys.modules.get("unorules_plugins")
    if module is None:
        path = Path(__file__).with_name("unorules_plugins.py")
        spec = importlib.util.spec_from_file_location("unorules_plugins", path)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["unorules_plugins"] = module
        spec.loader.exec_module(module)
    return module


@attrs.frozen
class Item:
    """A shipped plugin, or a house-rule option with one of its values."""

    plugin: str
    option: str | None = None
    value: Any = None
    text: str = ""

    @property
    def label(self) -> str:
        return self.plugin if self.option is None else f"{self.option}={self.text}"

    @property
    def names(self) -> frozenset[str]:
        """The names an Interactions entry may head this item by."""
        if self.option is None:
            return frozenset({self.plugin})
        return frozenset({self.option, self.label})


@attrs.frozen
class Entry:
    """One entry of a plugin's Interactions part: what it is about (the plugin,
    or the plugin's option its heading names first), the other names heading
    it, and its text."""

    owner: str
    subject: str
    others: frozenset[str]
    text: str

    @property
    def names(self) -> frozenset[str]:
        return self.others | {self.subject}

    @property
    def says_nothing(self) -> bool:
        return self.text.startswith(("None", "No interaction", "Conflicts"))


@attrs.frozen
class Verdict:
    """How two items combine: ``kind`` is ``combine``, ``decision`` or ``conflict``."""

    a: Item
    b: Item
    kind: str
    why: tuple[str, ...] = ()


def _values(plugin: Any, option: Option) -> list[tuple[Any, str]]:
    """The values of a house-rule option to tabulate, with their text: every
    choice but the default, or the values its plugin's testing hints give."""
    choices = getattr(option.check, "choices", None)
    if isinstance(option.default, bool):
        candidates: list[Any] = [not option.default]
    elif choices:
        candidates = [c for c in choices if c != option.default]
    else:
        hints = getattr(getattr(plugin, "testing", None), "option_values", {})
        candidates = [v for v in hints.get(option.name, ())[:1] if v != option.default]
    return [(option.validate(v), option.to_text(option.validate(v))) for v in candidates]


def is_edition(plugin: Any) -> bool:
    """Whether ``plugin`` is a whole edition played in place of classic (it
    declares a conflict with ``classic``): ``flip``, ``no-mercy``."""
    return "classic" in getattr(plugin, "conflicts", {})


def editions(shipped: dict[str, Any]) -> list[str]:
    """The names of the shipped editions (see :func:`is_edition`)."""
    return [name for name, plugin in shipped.items() if is_edition(plugin)]


def items(shipped: dict[str, Any]) -> list[Item]:
    """Every item: the shipped plugins but classic, then each value of the
    house-rule options and of the options their Interactions entries name
    (an edition's own options are not house rules: it may reuse classic's
    names, ``scoring`` or ``challenge``, for its own rules)."""
    named = {
        n.split("=")[0] for name, plugin in shipped.items() for e in entries(name, plugin) for n in e.names
    }
    found = [Item(name) for name in shipped if name != "classic"]
    for name, plugin in shipped.items():
        if is_edition(plugin):
            continue
        for option in getattr(plugin, "options", ()):
            if HOUSE not in option.doc and option.name not in named:
                continue
            for value, text in _values(plugin, option):
                found.append(Item(name, option.name, value, text))
    return found


def _interactions_text(doc: str) -> list[str]:
    """The lines of the *Interactions* part of a docstring (an underlined
    heading or a ``.. rubric::``), up to the next heading."""
    lines = doc.splitlines()
    out: list[str] = []
    inside = False
    for i, line in enumerate(lines):
        underline = i + 1 < len(lines) and re.fullmatch(r"[-=~^]{3,}", lines[i + 1].strip() or "x")
        heading = bool(underline) or line.startswith(".. rubric::")
        if heading:
            inside = line.strip() == "Interactions" or line.strip() == ".. rubric:: Interactions"
            continue
        if inside and not re.fullmatch(r"[-=~^]{3,}", line.strip() or "x"):
            out.append(line)
    return out


def entries(name: str, plugin: Any) -> list[Entry]:
    """The entries of a plugin's Interactions part: a line of names in double
    backquotes, then the indented text about them. An entry whose first name
    is one of the plugin's options is about that option and the other names;
    any other entry is about the plugin and every name heading it."""
    doc = _plugins_extension().plugin_doc(plugin)
    own = {option.name for option in getattr(plugin, "options", ())}
    found: list[Entry] = []
    names: list[str] | None = None
    text: list[str] = []

    def close() -> None:
        if names:
            first = names[0]
            if first.split("=")[0] in own:
                found.append(Entry(name, first, frozenset(names[1:]), " ".join(text)))
            else:
                found.append(Entry(name, name, frozenset(names), " ".join(text)))

    for line in [*_interactions_text(doc), ""]:
        if _HEADER.match(line):
            close()
            names = _NAME.findall(line)
            text = []
        elif line.startswith((" ", "\t")) and names is not None:
            text.append(line.strip())
        elif line.strip() and names is not None:
            close()
            names = None
    close()
    return found


def build(a: Item, b: Item, shipped: dict[str, Any] | None = None) -> Ruleset | str:
    """The rule set of classic and the two items (with their options), or why
    it is refused; an edition (see :func:`is_edition`) stands in for classic."""
    if shipped is None:
        shipped = _plugins_extension().shipped_plugins()
    base = set() if any(is_edition(shipped.get(i.plugin)) for i in (a, b)) else {"classic"}
    names = sorted({*base, a.plugin, b.plugin})
    options = {i.option: i.value for i in (a, b) if i.option is not None}
    try:
        return Ruleset.from_names(names, options)
    except RulesetError as exc:
        return str(exc)


def _on_classic(a: Item, b: Item, refusal: str, shipped: dict[str, Any] | None) -> tuple[str, ...]:
    """What a refusal of an edition's pair means when the other item builds on classic
    (it ``requires`` it by name): the reason is classic's, which the edition replaces."""
    if shipped is None:
        shipped = _plugins_extension().shipped_plugins()
    for edition, other in ((a, b), (b, a)):
        if is_edition(shipped.get(edition.plugin)) and "requires 'classic'" in refusal:
            return (
                f"``{other.plugin}`` builds on ``classic`` (it names it in ``requires``), "
                f"and ``{edition.plugin}`` is played in place of ``classic``",
            )
    return ()


def _about(entry: Entry, a: Item, b: Item) -> bool:
    """Whether ``entry`` is about ``a`` meeting ``b``: its subject is ``a`` (the
    plugin, or the option) and ``b`` heads it too."""
    return entry.subject in a.names and bool(entry.others & b.names)


def verdict(a: Item, b: Item, notes: list[Entry], shipped: dict[str, Any] | None = None) -> Verdict:
    """The verdict on the pair ``a``, ``b`` (see the module's docstring)."""
    built = build(a, b, shipped)
    if isinstance(built, str):
        return Verdict(a, b, "conflict", (built, *_on_classic(a, b, built, shipped)))
    said = tuple(
        dict.fromkeys(
            f"{e.text} ({e.owner})"
            for e in notes
            if not e.says_nothing and (_about(e, a, b) or _about(e, b, a))
        )
    )
    return Verdict(a, b, "decision" if said else "combine", said)


def table(shipped: dict[str, Any] | None = None) -> list[Verdict]:
    """Every pair of items, with its verdict."""
    if shipped is None:
        shipped = _plugins_extension().shipped_plugins()
    found = items(shipped)
    notes = [e for name, plugin in shipped.items() for e in entries(name, plugin)]
    verdicts = []
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            if a.option is not None and a.option == b.option:
                continue  # one option takes one value
            verdicts.append(verdict(a, b, notes, shipped))
    return verdicts


# -- the page -----------------------------------------------------------------------------------

_MARK = {"combine": "·", "decision": "D", "conflict": "✗"}


def _matrix(rows: list[Item], columns: list[Item], kinds: dict[frozenset[str], str]) -> Iterator[str]:
    yield ".. list-table::"
    yield "   :header-rows: 1"
    yield "   :stub-columns: 1"
    yield ""
    yield "   * - "
    for column in columns:
        yield f"     - ``{column.label}``"
    for row in rows:
        yield f"   * - ``{row.label}``"
        for column in columns:
            kind = kinds.get(frozenset({row.label, column.label}), "same" if row == column else "")
            yield f"     - {_MARK.get(kind, '—')}"
    yield ""


def _editions_text(shipped: dict[str, Any]) -> list[str]:
    """What the page says of the editions, which replace classic."""
    found = editions(shipped)
    if not found:
        return []
    names = " and ".join(f"``{name}``" for name in found)
    lines = [
        f"The editions {names} are played in place of ``classic`` (each refuses it): a pair with an "
        "edition is the edition and the other item, without ``classic``.",
        "",
    ]
    for name in found:
        why = " ".join(shipped[name].conflicts["classic"].split())
        lines += [f"``{name}`` and ``classic``", f"   {why}", ""]
    return lines


def page(verdicts: list[Verdict], shipped: dict[str, Any]) -> str:
    """The reStructuredText of the table."""
    found = items(shipped)
    plugins = [i for i in found if i.option is None]
    options = [i for i in found if i.option is not None]
    kinds = {frozenset({v.a.label, v.b.label}): v.kind for v in verdicts}
    out = [
        f"{len(plugins)} shipped plugins (besides ``classic``) and {len(options)} house-rule option "
        f"values make {len(verdicts)} pairs: "
        f"{sum(v.kind == 'combine' for v in verdicts)} combine, "
        f"{sum(v.kind == 'decision' for v in verdicts)} combine with a decision written down, "
        f"{sum(v.kind == 'conflict' for v in verdicts)} are refused when the rule set is built. "
        "In the tables, ``·`` combine, ``D`` combine with a decision (below), ``✗`` conflict "
        "(below), ``—`` the same plugin or option.",
        "",
        *_editions_text(shipped),
        ".. rubric:: Plugins with plugins",
        "",
        *_matrix(plugins, plugins, kinds),
        ".. rubric:: House-rule options with plugins",
        "",
        *_matrix(options, plugins, kinds),
        ".. rubric:: Conflicts",
        "",
    ]
    for v in verdicts:
        if v.kind == "conflict":
            why = " ".join(v.why[0].split())
            if len(v.why) > 1:
                why += f" ({v.why[1]})"
            out += [f"``{v.a.label}`` and ``{v.b.label}``", f"   {why}", ""]
    out += [".. rubric:: Decisions", ""]
    for v in verdicts:
        if v.kind == "decision":
            out += [f"``{v.a.label}`` and ``{v.b.label}``"]
            out += [f"   * {' '.join(text.split())}" for text in v.why]
            out.append("")
    pairs = [v for v in verdicts if v.a.option and v.b.option]
    quiet = sum(v.kind == "combine" for v in pairs)
    out += [
        "Every other pair combines: in particular "
        f"{quiet} of the {len(pairs)} pairs of house-rule option values need no decision.",
        "",
    ]
    return "\n".join(out)


class InteractionsDirective(SphinxDirective):
    """``.. unorules-interactions::``: the table, generated (see the module's docstring)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        shipped = _plugins_extension().shipped_plugins()
        text = page(table(shipped), shipped)
        node = nodes.section()
        node.document = self.state.document
        self.state.nested_parse(StringList(text.splitlines(), source="unorules-interactions"), 0, node)
        return list(node.children)


def presets_page() -> str:
    """The reStructuredText list of the shipped presets."""
    from unorules.rulebook import presets

    out: list[str] = []
    for name, book in presets().items():
        if isinstance(book, RulesetError):
            raise RulesetError(f"preset {name!r} does not load where the docs are built: {book}")
        options = ", ".join(f"``{key}={_text(book, key, value)}``" for key, value in book.options)
        fields = [
            f"   :Plugins: {', '.join(f'``{p}``' for p in book.plugins)}",
            f"   :Options: {options or 'the defaults'}",
        ]
        if book.players:
            fields.append(f"   :Players: {', '.join(map(str, book.players))}")
        if book.extends:
            fields.append(f"   :Extends: ``{book.extends}``")
        fields.append(f"   :Spec text: ``{Ruleset.from_rulebook(book).spec_text}``")
        out += [f"``{name}`` — {book.name}", f"   {book.description}", "", *fields, ""]
    return "\n".join(out)


def _text(book: Any, key: str, value: Any) -> str:
    """An option value of a rulebook as the command line writes it."""
    rules = Ruleset.from_rulebook(book)
    for plugin in rules.plugins:
        for option in getattr(plugin, "options", ()):
            if option.name == key:
                return str(option.to_text(value))
    return str(value)


class PresetsDirective(SphinxDirective):
    """``.. unorules-presets::``: the shipped presets, read from the package."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        node = nodes.section()
        node.document = self.state.document
        self.state.nested_parse(StringList(presets_page().splitlines(), source="unorules-presets"), 0, node)
        return list(node.children)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("unorules-presets", PresetsDirective)
    app.add_directive("unorules-interactions", InteractionsDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


__all__ = [
    "Entry",
    "Item",
    "Verdict",
    "build",
    "entries",
    "items",
    "page",
    "presets_page",
    "table",
    "verdict",
]

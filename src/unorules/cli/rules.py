"""``unorules rules``: the installed plugins and the presets, a plugin's page, a preset,
a rule's text; ``--check`` a rule set.

``unorules rules`` lists every installed plugin, then the presets (rule sets
the library names, for ``--rules``). ``unorules rules NAME`` explains: for a
plugin, its documentation (its module's docstring), rules,
options, requirements, conflicts and the player counts it deals; for a rule
id (``R-STACK``), the rule's text from the rules reference (``docs/rules.rst``,
shipped in the wheel as ``unorules/rules.rst``), the sources that state it,
where the sources disagree on it, and the plugins that implement it; for a
preset, what it turns on. ``--check RULES`` builds a rule set (plugin names, a
preset or a rulebook file) and says what it allows (the player counts among
them: ``partners`` deals only four); with ``--toml`` it writes the rule set as a
rulebook.
"""

from __future__ import annotations

import argparse
import importlib.resources
import inspect
import json
import re
import sys
import textwrap
from functools import cache
from pathlib import Path
from typing import Any

import attrs

from unorules.cli.common import EXIT_OK, UsageError, build_ruleset, parse_options, rulebook
from unorules.errors import RulesetError, did_you_mean
from unorules.plugin import summary as plugin_summary
from unorules.rulebook import Rulebook, preset_names, presets
from unorules.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset, installed_plugins


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``rules`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "rules",
        help="list the installed plugins and the presets; explain a plugin, a preset or a rule (R-STACK); "
        "check a rule set",
        description="List the installed plugins with their rule ids, options (with defaults), "
        "requirements and conflicts, then the presets (rule sets the library names, for --rules). "
        "Name a plugin for its page (its documentation, rules, options and player counts), a preset "
        "for what it turns on, or a rule id (R-STACK) for the rule's text and the plugins that "
        "implement it; or check a rule set with --check.",
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="plugins, presets or rule ids to explain")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--presets", action="store_true", help="list only the presets")
    parser.add_argument(
        "--check",
        metavar="RULES",
        help="build this rule set (plugin names, a preset or a rulebook file; with --option) and report",
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="an option for --check"
    )
    parser.add_argument(
        "--toml",
        action="store_true",
        help="with --check: print the rule set as a rulebook file (TOML) to start a family's own",
    )
    return parser


def show(value: Any) -> str:
    """An option value as the command line writes it (``on``/``off`` for switches)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ",".join(map(show, value))
    return str(value)


# -- the rules reference -------------------------------------------------------------------------


def reference_text() -> str:
    """The rules reference: ``unorules/rules.rst`` of an installed wheel, else (in a
    source tree, an editable install) ``docs/rules.rst`` beside the package; "" if neither."""
    try:
        return importlib.resources.files("unorules").joinpath("rules.rst").read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, OSError):
        pass
    source = Path(__file__).resolve().parents[3] / "docs" / "rules.rst"
    try:
        return source.read_text(encoding="utf-8")
    except OSError:
        return ""


@attrs.frozen
class Rule:
    """One rule of the rules reference."""

    id: str
    """Its id, ``R-STACK``."""
    title: str
    """Its title, ``stacking``."""
    sources: tuple[str, ...]
    """The tags of the sources that state it (``LT``, ``E15``, ...)."""
    text: str
    """Its text, as plain text."""


_RULE_HEAD = re.compile(r"^\*\*(R-[A-Z0-9-]+)\*\* — (.*?)((?:\s*\[[^\]]+\])*)\s*$")


def plain(rst: str) -> str:
    """reStructuredText as plain text for a terminal: roles, literals and emphasis
    marks removed, directives dropped."""
    text = re.sub(r":[a-z:]+:`([^`<]*?)\s*<[^>]*>`", r"\1", rst)
    text = re.sub(r":[a-z:]+:`~?(?:[\w.]+\.)?([^`]*)`", r"\1", text)
    text = re.sub(r"(?<=\b)rule-(R-[A-Z0-9-]+)", r"\1", text)
    text = text.replace("``", "")
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"\1", text)
    text = re.sub(r"`([^`]+?) <[^>]+>`__?", r"\1", text)
    lines = [line for line in text.splitlines() if not line.lstrip().startswith(".. ")]
    return "\n".join(lines).strip("\n")


@cache
def reference() -> dict[str, Rule]:
    """Every rule of the rules reference, by id, in the reference's order."""
    lines = reference_text().splitlines()
    rules: dict[str, Rule] = {}
    for i, line in enumerate(lines):
        match = _RULE_HEAD.match(line)
        if match is None:
            continue
        body: list[str] = []
        for following in lines[i + 1 :]:
            if following.strip() and not following.startswith(" "):
                break
            body.append(following)
        tags = tuple(re.findall(r"\[([^\]]+)\]", match.group(3)))
        text = plain(textwrap.dedent("\n".join(body)))
        rules[match.group(1)] = Rule(match.group(1), match.group(2).strip(), tags, text)
    return rules


@cache
def sources() -> dict[str, str]:
    """The sources' tags and their first sentence (``LT``: "A Lithuanian rule sheet ...")."""
    text = reference_text()
    found: dict[str, str] = {}
    for tag, what in re.findall(r"\* - ``\[([^\]]+)\]``\n\s+- (.+?)(?:\n\s+- |\n\n)", text, re.S):
        sentence = plain(" ".join(what.split())).split(". ")[0].rstrip(".")
        found[tag] = sentence
    return found


@cache
def disagreements() -> list[tuple[str, str, str, str]]:
    """The rows of "Where the sources disagree": point (rule), first reading, other, selected by."""
    text = reference_text()
    start = text.find(".. _rules-disagreements:")
    end = text.find(".. _rules-decisions:")
    if start < 0:
        return []
    rows = []
    for block in re.split(r"\n   \* - ", text[start : end if end > 0 else None])[2:]:
        cells = [plain(" ".join(c.split())) for c in re.split(r"\n     - ", block)]
        if len(cells) >= 4:
            rows.append((cells[0], cells[1], cells[2], cells[3].split("\n")[0]))
    return rows


def _implementers(rule_id: str) -> list[str]:
    return sorted(
        name for name, plugin in installed_plugins().items() if rule_id in getattr(plugin, "rules", ())
    )


def plugin_rules(plugin: Any) -> dict[str, Rule]:
    """The rules a plugin states in its documentation (its module's docstring and its
    class's), by id: a paragraph that starts with the id in bold, ``**HP-PASS** Every seat
    passes its hand ...`` (or ``**HP-PASS** — title`` and the text on the lines below, as the
    rules reference writes them). The title is the text after a dash, else the paragraph's
    first sentence. Only the ids the plugin declares in ``rules`` are read."""
    declared = set(getattr(plugin, "rules", ()))
    module = sys.modules.get(type(plugin).__module__)
    docs = [inspect.getdoc(module) if module is not None else None, inspect.getdoc(plugin)]
    found: dict[str, Rule] = {}
    for doc in docs:
        for paragraph in re.split(r"\n\s*\n", doc or ""):
            match = _PLUGIN_RULE.match(paragraph.strip())
            if match is None or match.group(1) not in declared or match.group(1) in found:
                continue
            rest = plain(match.group(2))
            if rest.startswith(("—", "-")):
                head, _, body = rest.lstrip("—- ").partition("\n")
                title, text = head.strip(), textwrap.dedent(body).strip() or head.strip()
            else:
                text = " ".join(rest.split())
                title = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
            found[match.group(1)] = Rule(match.group(1), title, (), text)
    return found


_PLUGIN_RULE = re.compile(r"^\*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*[ :]*(.*)$", re.S)


def _plugin_rule(rule_id: str) -> Rule | None:
    for plugin in installed_plugins().values():
        found = plugin_rules(plugin).get(rule_id)
        if found is not None:
            return found
    return None


def rule_ids() -> list[str]:
    """Every rule id ``unorules rules`` knows: the rules reference's, then the installed plugins' own."""
    ids = dict.fromkeys(reference())
    for plugin in installed_plugins().values():
        ids.update(dict.fromkeys(getattr(plugin, "rules", ())))
    return list(ids)


def rule_info(rule_id: str) -> dict[str, Any] | None:
    """What ``unorules rules RULE-ID`` says, as JSON-able data, or ``None`` for an id that
    neither the rules reference nor an installed plugin knows. A plugin's own rule (not in the
    reference) has the title and text its plugin's documentation gives it (:func:`plugin_rules`)."""
    rule = reference().get(rule_id)
    plugins = _implementers(rule_id)
    if rule is None and not plugins:
        return None
    own = None if rule is not None else _plugin_rule(rule_id)
    if own is not None:
        rule = own
    return {
        "id": rule_id,
        "title": rule.title if rule is not None else "",
        "own": own is not None,
        "sources": {tag: sources().get(tag.split()[0], "") for tag in rule.sources} if rule else {},
        "text": rule.text if rule is not None else "",
        "plugins": plugins,
        "disagreements": [
            {"point": point, "default": first, "other": other, "selected_by": by}
            for point, first, other, by in disagreements()
            if f"({rule_id})" in point or f"({rule_id}," in point
        ],
    }


def _print_rule(info: dict[str, Any]) -> None:
    if info["text"]:
        print(f"{info['id']} — {info['title']}")
        print(textwrap.indent(info["text"], "    "))
        if info.get("own"):
            print("  (a rule of its plugin, from the plugin's documentation: not in the rules reference)")
    else:
        print(f"{info['id']}: not in the rules reference; it is a rule of the plugin(s) that implement it")
    if info["sources"]:
        print("  stated by:")
        for tag, what in info["sources"].items():
            print(f"    [{tag}] {what}")
    for row in info["disagreements"]:
        print(f"  where the sources disagree: {row['point']}")
        print(f"    default: {row['default']}")
        print(f"    other: {row['other']}")
        print(f"    selected by: {row['selected_by']}")
    plugins = info["plugins"]
    print(f"  implemented by: {', '.join(plugins) if plugins else 'no installed plugin'}")
    if plugins:
        print(f"  (unorules rules {plugins[0]} for the plugin's page)")


# -- plugins -------------------------------------------------------------------------------------


def plugin_doc(plugin: Any) -> str:
    """A plugin's documentation: its module's docstring (else its class's), as plain text."""
    module = sys.modules.get(type(plugin).__module__)
    doc = inspect.getdoc(module) if module is not None else None
    return plain(doc or inspect.getdoc(plugin) or "")


def _with_requirements(name: str) -> list[str]:
    plugin = installed_plugins()[name]
    names: list[str] = []
    for required in getattr(plugin, "requires", ()):
        if required in installed_plugins():
            names += [n for n in _with_requirements(required) if n not in names]
    return [*names, name]


def player_counts(rules: Ruleset) -> dict[int, str | None]:
    """For every number of players from :data:`~unorules.MIN_PLAYERS` to
    :data:`~unorules.MAX_PLAYERS`: ``None`` when ``rules`` deals a game of that many, else
    why not (the rule set's own words)."""
    counts: dict[int, str | None] = {}
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        try:
            rules.new_game(players=players, seed=0)
        except RulesetError as exc:
            counts[players] = str(exc)
        else:
            counts[players] = None
    return counts


def _spans(numbers: list[int]) -> str:
    """``[2, 3, 5, 6, 7]`` as "2, 3, 5 to 7"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    words = []
    for run in runs:
        words += [f"{run[0]} to {run[-1]}"] if len(run) > 2 else [str(n) for n in run]
    return ", ".join(words) or "none"


def players_words(counts: dict[int, str | None]) -> list[str]:
    """The player counts in words: ``["2 to 10"]``, or ``["4 only", "not 2, 3, 5 to 10 (for 2
    players: ...)"]`` with the rule set's reason for the first count it refuses."""
    dealt = [n for n, why in counts.items() if why is None]
    refused = [n for n, why in counts.items() if why is not None]
    if not refused:
        return [_spans(dealt)]
    head = f"{_spans(dealt)} only" if dealt else "none"
    return [head, f"not {_spans(refused)} (for {refused[0]} players: {counts[refused[0]]})"]


def plugin_info(name: str, plugin: Any, *, full: bool = False) -> dict[str, Any]:
    """What ``unorules rules`` says about one plugin, as JSON-able data; ``full`` adds
    its documentation, the titles of its rules and the player counts it deals."""
    info: dict[str, Any] = {
        "name": name,
        "summary": plugin_summary(plugin),
        "rules": list(getattr(plugin, "rules", ())),
        "requires": list(getattr(plugin, "requires", ())),
        "conflicts": dict(getattr(plugin, "conflicts", {})),
        "options": [
            {"name": o.name, "default": o.default, "allowed": o.allowed, "doc": o.doc}
            for o in getattr(plugin, "options", ())
        ],
    }
    if full:
        info["doc"] = plugin_doc(plugin)
        own = plugin_rules(plugin)
        info["rule_titles"] = {
            r: reference()[r].title if r in reference() else own[r].title
            for r in info["rules"]
            if r in reference() or r in own
        }
        names = _with_requirements(name)
        base = ""
        try:
            try:
                rules = Ruleset.from_names(names)
            except RulesetError:  # a rule that needs a base rule set: shown on the classic rules
                rules = Ruleset.from_names(["classic", *names])
                base = " (on classic)"
            counts = player_counts(rules)
        except RulesetError as exc:
            info["players"] = None
            info["players_note"] = f"does not build on its own: {exc}"
        else:
            info["players"] = [n for n, why in counts.items() if why is None]
            info["players_note"] = "; ".join(players_words(counts)) + base
    return info


def _print_summary(info: dict[str, Any]) -> None:
    print(f"{info['name']}: {info['summary']}")
    if info["rules"]:
        print(f"  rules: {', '.join(info['rules'])}")
    print(f"  requires: {', '.join(info['requires']) or 'nothing'}")
    if info["conflicts"]:
        print("  conflicts with:")
        for other, why in info["conflicts"].items():
            print(f"    {other}: {why}")
    else:
        print("  conflicts with: nothing")
    if info["options"]:
        print("  options (name = default  [allowed]  meaning):")
        for o in info["options"]:
            print(f"    {o['name']} = {show(o['default'])}  [{o['allowed']}]  {o['doc']}")
    else:
        print("  options: none")


def _print_page(info: dict[str, Any]) -> None:
    print(f"{info['name']}: {info['summary']}")
    print()
    if info["doc"]:
        print(textwrap.indent(info["doc"], "  "))
        print()
    titles = info["rule_titles"]
    if info["rules"]:
        print("  rules (unorules rules RULE-ID for a rule's text):")
        for rule in info["rules"]:
            print(f"    {rule}" + (f" — {titles[rule]}" if rule in titles else ""))
    print(f"  players: {info['players_note']}")
    print(f"  requires: {', '.join(info['requires']) or 'nothing'}")
    if info["conflicts"]:
        print("  conflicts with:")
        for other, why in info["conflicts"].items():
            print(f"    {other}: {why}")
    else:
        print("  conflicts with: nothing")
    if info["options"]:
        print("  options (name = default  [allowed]  meaning):")
        for o in info["options"]:
            print(f"    {o['name']} = {show(o['default'])}  [{o['allowed']}]  {o['doc']}")
    else:
        print("  options: none")


def _unknown(name: str) -> UsageError:
    installed = sorted(installed_plugins())
    names = [*installed, *preset_names(), *rule_ids()]
    mean = did_you_mean(name, names)
    return UsageError(
        f"no plugin named {name[:40]!r} is installed, no preset has that name and no rule that id; "
        f"{mean}installed plugins: {', '.join(installed)}; presets: {', '.join(preset_names())}; "
        "rule ids are such as R-STACK ('unorules rules PLUGIN' lists a plugin's)"
    )


# -- presets -------------------------------------------------------------------------------------


def preset_info(name: str, book: Rulebook | RulesetError) -> dict[str, Any]:
    """What ``unorules rules`` says about one preset, as JSON-able data (``error``
    instead of the rules when a plugin it needs is not installed)."""
    if isinstance(book, RulesetError):
        return {"name": name, "error": str(book)}
    return {
        "name": name,
        "title": book.name,
        "description": book.description,
        "plugins": list(book.plugins),
        "options": {key: show(value) for key, value in book.options},
        "players": list(book.players),
    }


def _print_preset(info: dict[str, Any]) -> None:
    if "error" in info:
        print(f"  {info['name']}: not available here: {info['error']}")
        return
    print(f"  {info['name']}: {info['title']}. {info['description']}")
    turned = ", ".join(info["plugins"])
    options = " ".join(f"{k}={v}" for k, v in info["options"].items())
    print(f"    plugins: {turned}" + (f"; options: {options}" if options else ""))
    if info["players"]:
        print(f"    players: {', '.join(map(str, info['players']))}")


def _print_presets(infos: list[dict[str, Any]]) -> None:
    print("presets (use one with --rules NAME; 'unorules rules --check NAME' shows every option):")
    for info in infos:
        _print_preset(info)


# -- the command ---------------------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    rules = build_ruleset(args.check, parse_options(args.option))
    if args.toml:
        base = rulebook(args.check)
        book = Rulebook(
            name=args.check if base is None else base.name,
            description="" if base is None else base.description,
            plugins=rules.names,
            options=tuple(rules.spec()["options"].items()),
            players=() if base is None else base.players,
        )
        print(book.to_toml(), end="")
        return EXIT_OK
    counts = player_counts(rules)
    if args.json:
        data = {
            "plugins": list(rules.names),
            "options": dict(rules.options),
            "players": [n for n, why in counts.items() if why is None],
            "players_refused": {str(n): why for n, why in counts.items() if why is not None},
        }
        print(json.dumps(data, indent=2, default=show))
        return EXIT_OK
    base = rulebook(args.check)
    if base is not None:
        print(f"rulebook: {base.name}" + (f": {base.description}" if base.description else ""))
    print(f"rule set OK: plugins in registration order {', '.join(rules.names)}")
    print(f"deck: {len(rules.deck)} cards; hand size {rules.hand_size}")
    said = players_words(counts)
    if base is not None and base.players:  # the rulebook's own counts, which the rule set deals
        dealt = [n for n in base.players if counts.get(n) is None]
        print(f"players: {_spans(dealt)} (the rulebook's players; the rule set alone deals {said[0]})")
    else:
        print(f"players: {said[0]}")
        for line in said[1:]:
            print(f"  {line}")
    for key, value in sorted(rules.options.items()):
        print(f"  {key} = {show(value)}")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Run ``unorules rules``."""
    installed = installed_plugins()
    if args.toml and not args.check:
        raise UsageError("--toml needs --check RULES (the rule set to write as a rulebook)")
    if args.check:
        for name in args.names:
            if name.lower() not in installed:
                raise _unknown(name)
        return _check(args)
    if args.option:
        raise UsageError("--option needs --check RULES (the rule set to check the options with)")
    books = presets()
    if args.presets or not args.names:
        preset_infos = [preset_info(n, books[n]) for n in preset_names()]
        infos = [] if args.presets else [plugin_info(n, installed[n]) for n in sorted(installed)]
        if args.json:
            print(json.dumps(preset_infos if args.presets else infos, indent=2, default=str))
            return EXIT_OK
        for k, info in enumerate(infos):
            if k:
                print()
            _print_summary(info)
        if infos:
            print()
        _print_presets(preset_infos)
        return EXIT_OK
    pages: list[dict[str, Any]] = []
    for name in args.names:
        if name.lower() in installed:
            pages.append(plugin_info(name.lower(), installed[name.lower()], full=True))
            continue
        if name.lower() in books:
            pages.append({"preset": True, **preset_info(name.lower(), books[name.lower()])})
            continue
        rule = rule_info(name.upper()) or rule_info(name)
        if rule is None:
            raise _unknown(name)
        pages.append(rule)
    if args.json:
        print(json.dumps(pages, indent=2, default=str))
        return EXIT_OK
    for k, page in enumerate(pages):
        if k:
            print()
        if "id" in page:
            _print_rule(page)
        elif "preset" in page:
            print("preset (use it with --rules NAME; 'unorules rules --check NAME' shows every option):")
            _print_preset(page)
        else:
            _print_page(page)
    return EXIT_OK

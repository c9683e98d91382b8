"""``unorules rules``: the installed plugins and their options and conflicts, the presets; ``--check``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from unorules.cli.common import (
    EXIT_OK,
    UsageError,
    build_ruleset,
    no_such_plugin,
    parse_options,
    rulebook,
)
from unorules.errors import RulesetError
from unorules.plugin import summary as plugin_summary
from unorules.rulebook import Rulebook, preset_names, presets
from unorules.ruleset import installed_plugins


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``rules`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "rules",
        help="list the installed plugins, their options and conflicts, and the presets",
        description="List the installed plugins with their rule ids, options (with defaults), "
        "requirements and conflicts, then the presets (rule sets the library names, for --rules); "
        "or check a rule set with --check.",
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="only these plugins or presets")
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
    return str(value)


def plugin_info(name: str, plugin: Any) -> dict[str, Any]:
    """What ``unorules rules`` says about one plugin, as JSON-able data."""
    return {
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


def _print_presets(infos: list[dict[str, Any]]) -> None:
    print("presets (use one with --rules NAME; 'unorules rules --check NAME' shows every option):")
    for info in infos:
        if "error" in info:
            print(f"  {info['name']}: not available here: {info['error']}")
            continue
        print(f"  {info['name']}: {info['title']}. {info['description']}")
        turned = ", ".join(info["plugins"])
        options = " ".join(f"{k}={v}" for k, v in info["options"].items())
        print(f"    plugins: {turned}" + (f"; options: {options}" if options else ""))
        if info["players"]:
            print(f"    players: {', '.join(map(str, info['players']))}")


def run(args: argparse.Namespace) -> int:
    """Run ``unorules rules``."""
    installed = installed_plugins()
    wanted = [n.lower() for n in args.names]
    known_presets = preset_names()
    for name in wanted:
        if name not in installed and name not in known_presets:
            raise no_such_plugin(name)
    if args.toml and not args.check:
        raise UsageError("--toml needs --check RULES (the rule set to write as a rulebook)")
    if args.check:
        rules = build_ruleset(args.check, parse_options(args.option))
        if args.toml:
            given = rules.spec()["options"]
            base = rulebook(args.check)
            book = Rulebook(
                name=args.check if base is None else base.name,
                description="" if base is None else base.description,
                plugins=rules.names,
                options=tuple(given.items()),
                players=() if base is None else base.players,
            )
            print(book.to_toml(), end="")
        elif args.json:
            print(json.dumps({"plugins": list(rules.names), "options": dict(rules.options)}, indent=2))
        else:
            print(f"rule set OK: plugins in registration order {', '.join(rules.names)}")
            print(f"deck: {len(rules.deck)} cards; hand size {rules.hand_size}")
            for key, value in sorted(rules.options.items()):
                print(f"  {key} = {show(value)}")
        return EXIT_OK
    if args.option:
        raise UsageError("--option needs --check RULES (the rule set to check the options with)")
    names = [n for n in wanted if n in installed] if wanted else sorted(installed)
    shown = [n for n in wanted if n in known_presets] if wanted else list(known_presets)
    if args.presets:
        names = []
        shown = shown or list(known_presets)
    elif wanted and not names:
        pass
    elif wanted:
        shown = [n for n in shown if n not in names]
    books = presets()
    preset_infos = [preset_info(n, books[n]) for n in shown]
    infos = [plugin_info(n, installed[n]) for n in names]
    if args.json:
        print(json.dumps(preset_infos if args.presets else infos, indent=2, default=str))
        return EXIT_OK
    if not infos:
        _print_presets(preset_infos)
        return EXIT_OK
    for k, info in enumerate(infos):
        if k:
            print()
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
    if preset_infos:
        print()
        _print_presets(preset_infos)
    return EXIT_OK

"""``unorules rules``: the installed plugins, their options and conflicts; ``--check`` a rule set."""

from __future__ import annotations

import argparse
import json
from typing import Any

from unorules.cli.common import EXIT_OK, UsageError, build_ruleset, no_such_plugin, parse_options
from unorules.plugin import summary as plugin_summary
from unorules.ruleset import installed_plugins


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``rules`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "rules",
        help="list the installed plugins, their options and conflicts",
        description="List the installed plugins with their rule ids, options (with defaults), "
        "requirements and conflicts; or check a rule set with --check.",
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="only these plugins")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--check", metavar="NAMES", help="build this rule set (with --option) and report")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="an option for --check"
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


def run(args: argparse.Namespace) -> int:
    """Run ``unorules rules``."""
    installed = installed_plugins()
    names = [n.lower() for n in args.names] or sorted(installed)
    for name in names:
        if name not in installed:
            raise no_such_plugin(name)
    if args.check:
        rules = build_ruleset(args.check, parse_options(args.option))
        if args.json:
            print(json.dumps({"plugins": list(rules.names), "options": dict(rules.options)}, indent=2))
        else:
            print(f"rule set OK: plugins in registration order {', '.join(rules.names)}")
            print(f"deck: {len(rules.deck)} cards; hand size {rules.hand_size}")
            for key, value in sorted(rules.options.items()):
                print(f"  {key} = {show(value)}")
        return EXIT_OK
    if args.option:
        raise UsageError("--option needs --check NAMES (the rule set to check the options with)")
    infos = [plugin_info(n, installed[n]) for n in names]
    if args.json:
        print(json.dumps(infos, indent=2, default=str))
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
    return EXIT_OK

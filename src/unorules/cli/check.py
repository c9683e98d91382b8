"""``unorules check``: run the conformance suite of the testing toolkit over a plugin.

The plugin is an installed plugin's name, or ``module:object`` for a plugin
object that is not installed yet (a plugin being written; the module is found in
the current folder too). The report is
printed as it goes: a line per combination, each violation with its shrunk
replay, then the coverage of the plugin's declarations and a closing line.
Exit status 0 when every invariant held (and, with ``--strict``, every
declaration was covered), 1 otherwise, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

from unorules.cli.common import EXIT_FAILURE, EXIT_OK, UsageError
from unorules.errors import RulesetError

BUDGET_NAMES = ("default", "ci", "quick")


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``check`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "check",
        help="check a plugin against every invariant, alone and combined with the others",
        description="Run the conformance suite of unorules.testing over PLUGIN: games steered toward "
        "its cards, verbs, phases, events, extras and option values, with classic and with every "
        "other installed plugin (or those of --with), every invariant checked. Prints each "
        "violation with a shrunk replay to paste into a test, then the coverage of the plugin's "
        "declarations. Needs hypothesis (pip install 'unorules[testing]').",
    )
    parser.add_argument(
        "plugin",
        metavar="PLUGIN",
        help="an installed plugin's name, or module:object for a plugin object that is not installed",
    )
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--budget",
        choices=BUDGET_NAMES,
        default="default",
        metavar="NAME",
        help="how much to play: default, ci (bounded: what CI runs) or quick (with classic, then "
        "each game mode)",
    )
    how.add_argument(
        "--seconds", type=_seconds, metavar="N", help="spend about N seconds in all, instead of a budget"
    )
    parser.add_argument(
        "--with",
        dest="others",
        action="extend",
        nargs="+",
        metavar="OTHER",
        help="combine the plugin with these installed plugins only (default: every installed plugin)",
    )
    parser.add_argument(
        "--strict", action="store_true", help="fail when a declaration is left under its coverage target"
    )
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="the seed of the games (default 0)")
    parser.add_argument(
        "--fail-fast", action="store_true", help="stop at the first combination with a violation"
    )
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="print only violations, the coverage and the verdict"
    )
    return parser


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a positive number of seconds, not {text}")
    return value


def load_plugin_object(spec: str) -> Any:
    """The plugin object named by ``module:object`` (``UsageError`` if it cannot be loaded).
    The module is looked for in the current folder first, as ``python -m`` does (a plugin
    being written next to its tests needs no install and no ``PYTHONPATH``)."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise UsageError(f"{spec!r}: name an installed plugin, or a plugin object as module:object")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise UsageError(f"{spec}: cannot import {module_name!r}: {type(exc).__name__}: {exc}") from None
    value: Any = module
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise UsageError(f"{spec}: module {module_name!r} has no {attribute!r}")
        value = getattr(value, part)
    if isinstance(value, type):
        try:
            value = value()
        except Exception as exc:
            raise UsageError(f"{spec}: cannot make a plugin of class {attribute}: {exc}") from None
    return value


def run(args: argparse.Namespace) -> int:
    """Run ``unorules check``."""
    import attrs

    from unorules.testing.conformance import BUDGETS, require_hypothesis, resolve_plugin, run_conformance

    try:
        require_hypothesis()
    except ModuleNotFoundError as exc:
        raise UsageError(str(exc)) from None
    spec: str = args.plugin
    plugin: Any = load_plugin_object(spec) if ":" in spec else spec
    try:
        resolve_plugin(plugin)
    except RulesetError as exc:
        raise UsageError(str(exc)) from None
    budget = attrs.evolve(BUDGETS[args.budget], strict=args.strict, seed=args.seed)
    quiet: bool = args.quiet

    def out(line: str) -> None:
        if quiet and not line.startswith("VIOLATION"):
            return
        print(line, flush=True)

    try:
        report = run_conformance(
            plugin, budget, out=out, others=args.others, fail_fast=args.fail_fast, seconds=args.seconds
        )
    except RulesetError as exc:
        raise UsageError(str(exc)) from None
    print()
    print(report.coverage_report())
    for label, missing in report.uncovered:
        word = "FAILURE" if report.strict else "WARNING"
        print(f"{word}: with {label}, not covered to target: {', '.join(missing)}")
    print(report.closing_line())
    sys.stdout.flush()
    return EXIT_OK if report.ok else EXIT_FAILURE

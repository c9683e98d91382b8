"""What the commands share: errors and exit codes, the argument parser, rule sets, options, seeds."""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

from unorules.bots import check_bot_name
from unorules.errors import MAX_MESSAGE, RulesetError, did_you_mean, nearest
from unorules.plugin import Option
from unorules.rulebook import Rulebook, preset_names, resolve
from unorules.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset, installed_plugins
from unorules.spec import option_owners

PROG = "unorules"

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Bad command-line usage: reported on one line, exit status 2."""


class Failure(Exception):
    """A failure while running a command: reported on one line, exit status 1."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def error(message: str) -> None:
    """Print ``unorules: error: MESSAGE`` on one line of standard error."""
    first = " ".join(message.split())  # a list of allowed names is never cut: only a huge message
    if len(first) > MAX_MESSAGE:
        first = first[:MAX_MESSAGE] + f" [... {len(first) - MAX_MESSAGE} characters cut]"
    print(f"{PROG}: error: {first}", file=sys.stderr)


# -- rule sets and options ----------------------------------------------------------------


def _declared_options() -> dict[str, tuple[str, Option]]:
    found: dict[str, tuple[str, Option]] = {}
    for name, plugin in installed_plugins().items():
        for option in getattr(plugin, "options", ()):
            found.setdefault(option.name, (name, option))
    return found


def _coerce(text: str, default: Any) -> Any:
    """The command-line text of an option, as the type of the option's default."""
    if isinstance(default, bool):
        lowered = text.strip().lower()
        if lowered in ("on", "true", "yes", "1"):
            return True
        if lowered in ("off", "false", "no", "0"):
            return False
        return text
    if isinstance(default, int):
        if re.fullmatch(r"-?[0-9]{1,18}", text):
            return int(text)
        return text
    return text


def parse_options(items: Iterable[str]) -> dict[str, Any]:
    """Turn ``items``, such as ``["uno_penalty=4", ...]``, into an options mapping.

    Values are converted to the type of the option's default (numbers,
    on/off switches) when an installed plugin declares the option; the rule
    set then validates them.
    """
    declared = _declared_options()
    options: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"bad --option {item[:60]!r}: write name=value, e.g. --option uno_penalty=4")
        known = declared.get(name)
        options[name] = _coerce(value.strip(), known[1].default) if known else value.strip()
    return options


def split_names(spec: str) -> list[str]:
    """The plugin names of ``"classic,stacking"`` (a usage error if there are none)."""
    names = [n.strip() for n in spec.replace(" ", ",").split(",") if n.strip()]
    if not names:
        raise UsageError(f"empty rule set {spec!r}: name plugins, e.g. --rules classic,stacking")
    return names


def rulebook(spec: str) -> Rulebook | None:
    """The rulebook a ``--rules`` value names (a ``.toml`` path or a preset's
    name), or ``None`` for plugin names; a usage error for a bad file."""
    try:
        return resolve(spec)
    except RulesetError as exc:
        raise UsageError(str(exc)) from None


def build_ruleset(spec: str, options: Mapping[str, Any]) -> Ruleset:
    """The rule set a ``--rules`` value names, with ``options`` given on the
    command line on top: a rulebook file (``./our-family.toml``), a preset
    (``party``) or plugin names (``classic,stacking``)."""
    book = rulebook(spec)
    if book is None:
        installed = installed_plugins()
        for name in split_names(spec):
            if name.lower() not in installed:
                raise no_such_plugin(name)
    try:
        if book is None:
            return Ruleset.from_names(split_names(spec), options)
        if not options:
            return Ruleset.from_rulebook(book)
        return Ruleset.from_names(book.plugins, {**book.option_values, **options})
    except RulesetError as exc:
        raise UsageError(str(exc)) from None


def wilson(rate: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``rate`` observed in ``n`` trials (a win rate
    over ``n`` games), at ``confidence``: ``(low, high)``, both between 0 and 1; ``(0, 1)``
    for no trials. Unlike the normal approximation it stays inside 0 to 1 and is honest at
    rates near 0 or 1 and for few games."""
    if n <= 0:
        return 0.0, 1.0
    z = statistics.NormalDist().inv_cdf((1 + confidence) / 2)
    z2 = z * z
    centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_words(rate: float, n: int, confidence: float = 0.95) -> str:
    """A win rate with its Wilson interval (:func:`wilson`): ``"45.0% (25.8-65.8)"``."""
    low, high = wilson(rate, n, confidence)
    return f"{100 * rate:.1f}% ({100 * low:.1f}-{100 * high:.1f})"


INTERVALS = "win rates: in brackets, the {:.0%} Wilson score interval of each (from the games played)"
"""The note under a table of win rates with intervals (:func:`rate_words`)."""


def rules_label(spec: str | None, names: Sequence[str], title: str | None = None) -> str:
    """How a command names the rule set it plays: the plugins' names, after the rulebook's (or
    preset's) name when ``--rules`` named one: ``"Family night (classic,stacking)"``."""
    plugins = ",".join(names)
    if title is None and spec is not None:
        book = rulebook(spec)
        preset = spec.strip().lower() in preset_names()  # named as typed: "party", "classic"
        title = None if book is None else spec.strip().lower() if preset else book.name
    return f"{title} ({plugins})" if title and title != plugins else plugins


def players_for(spec: str, given: int | None, default: int = 4) -> int:
    """The number of players for ``--rules spec``: ``given`` (``--players``),
    else the first count its rulebook is meant for, else ``default``. A count
    the rulebook is not meant for is a usage error."""
    book = rulebook(spec)
    if book is None or not book.players:
        return default if given is None else given
    if given is None:
        return book.players[0]
    if given not in book.players:
        *most, last = map(str, book.players)
        counts = f"{', '.join(most)} or {last}" if most else last
        raise UsageError(f"{book.name!r} ({spec}) is for {counts} players, not {given}: see its 'players'")
    return given


def no_such_plugin(name: str) -> UsageError:
    """The error for a plugin name nobody installed (in ``--rules``, where a preset's name
    may stand too: the nearest plugins and presets are suggested)."""
    if "=" in name:
        return UsageError(
            f"--rules names plugins, a preset or a rulebook, not options: give {name[:60]!r} "
            f"as --option {name[:60]}"
        )
    installed = sorted(installed_plugins())
    mean = did_you_mean(name, [*installed, *preset_names()])
    return UsageError(
        f"no plugin named {name[:40]!r} is installed and no preset has that name; {mean}"
        f"installed plugins: {', '.join(installed)}; presets: {', '.join(preset_names())}"
    )


def unknown_option(name: str, rules: str) -> UsageError:
    """The error for an ``--option`` that no installed plugin declares (so none of ``rules``),
    with the nearest of the options installed plugins declare."""
    known = nearest(name, sorted(_declared_options()), "the installed plugins' options")
    return UsageError(
        f"option {name[:60]!r} belongs to no plugin of {rules} nor to any installed plugin; {known}"
    )


def options_for(spec: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of ``options`` that some plugin of ``spec`` declares, or that the
    one installed plugin declaring them brings into the rule set (an option names its
    plugin: ``--rules classic --option forced_play=on`` plays ``classic,turn-rules``)."""
    installed = installed_plugins()
    mine: set[str] = set()
    book = rulebook(spec)
    plugins = []
    for name in split_names(spec) if book is None else book.plugins:
        plugin = installed.get(name.lower())
        if plugin is None:
            raise no_such_plugin(name)
        plugins.append(plugin)
        mine.update(o.name for o in getattr(plugin, "options", ()))
    try:
        brought = option_owners(plugins, [k for k in options if k not in mine])
    except RulesetError as exc:
        raise UsageError(str(exc)) from None
    for plugin in brought:
        mine.update(o.name for o in getattr(plugin, "options", ()))
    return {k: v for k, v in options.items() if k in mine}


# -- argument types ---------------------------------------------------------------------


_SEED_WORD = re.compile(r"[A-Za-z0-9_.\-]{1,64}")


def seed_arg(text: str) -> int | str:
    """A ``--seed``: a whole number (ASCII digits) or a word of letters, digits, ``-``, ``_`` and ``.``."""
    text = text.strip()
    if not _SEED_WORD.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"bad seed {text[:40]!r}: use a whole number or a word of letters, digits, '-', '_' and '.' "
            "(at most 64), e.g. --seed 7"
        )
    return int(text) if re.fullmatch(r"-?[0-9]+", text) else text


def random_seed() -> int:
    """A seed for a run whose ``--seed`` was not given (printed, so it can be replayed)."""
    return int.from_bytes(os.urandom(4), "little")


def whole(text: str) -> int:
    """A whole number typed on the command line (ASCII digits, at most 18)."""
    text = text.strip()
    if not re.fullmatch(r"-?[0-9]{1,18}", text):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
    return int(text)


def players_arg(text: str) -> int:
    """A number of players, ``MIN_PLAYERS`` to ``MAX_PLAYERS``."""
    try:
        n = whole(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of players") from None
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {n}")
    return n


def positive(text: str) -> int:
    """A positive whole number."""
    n = whole(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {n}")
    return n


def bot_names(text: str) -> list[str]:
    """Comma-separated bot names (see :func:`unorules.bots.make_bot`)."""
    names = [bot_name(n) for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("name at least one bot, e.g. --bots heuristic")
    return names


def bot_name(text: str) -> str:
    """One bot name: a bot (``heuristic``), or ``KIND:ARGUMENT`` (``search:20ms``,
    ``cmd:node mybot.js``), the kind in any case, the argument as written."""
    kind, colon, argument = text.strip().partition(":")
    name = kind.strip().lower() + colon + argument.strip()
    try:
        return check_bot_name(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rules NAMES`` and ``--option NAME=VALUE``."""
    parser.add_argument(
        "--rules",
        default="classic",
        metavar="RULES",
        help="comma-separated plugin names, a preset's name or a rulebook file (.toml) "
        "(default: classic); see 'unorules rules'",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of a plugin, e.g. uno_penalty=4 (repeatable)",
    )

"""The ``unorules`` command line: ``play``, ``simulate`` and ``rules``.

Every command takes ``--help``. Errors are one line on stderr, and the exit
status says what happened:

====  ===========================================================================
code  meaning
====  ===========================================================================
0     success (for ``play``: the game ended, or you typed ``quit``)
1     a failure while running: a game raised an error, a file could not be
      written, ``play``'s input ended before the game did
2     bad usage: an unknown command or argument, an unknown plugin, a bad
      option value, plugins that conflict, ``--plot`` to PNG without matplotlib
130   interrupted (Ctrl-C)
====  ===========================================================================

Rule sets are written as comma-separated plugin names (``classic,stacking``)
and options as ``--option name=value`` (repeatable); every installed plugin
(``unorules.installed_plugins()``) can be used.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any, NoReturn

import attrs

from unorules import __version__
from unorules.actions import Action, verb_spec
from unorules.bots import BOTS, Bot, make_bot, next_action
from unorules.cards import COLORS, Card, Color
from unorules.errors import IllegalActionError, NotationError, RulesetError, UnorulesError
from unorules.plugin import Option
from unorules.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset, installed_plugins
from unorules.state import GameState, SeatView

__all__ = [
    "EXIT_FAILURE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "RuleSetResult",
    "main",
    "parse_options",
    "run_simulation",
]

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

PROG = "unorules"


class UsageError(Exception):
    """Bad command-line usage: reported on one line, exit status 2."""


class Failure(Exception):
    """A failure while running a command: reported on one line, exit status 1."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


# -- rule sets and options -------------------------------------------------------------


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
        try:
            return int(text)
        except ValueError:
            return text
    return text


def parse_options(items: Iterable[str]) -> dict[str, Any]:
    """Turn ``["uno_penalty=4", ...]`` into an options mapping.

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
            raise UsageError(f"bad --option {item!r}: write name=value, e.g. --option uno_penalty=4")
        known = declared.get(name)
        options[name] = _coerce(value.strip(), known[1].default) if known else value.strip()
    return options


def _split_names(spec: str) -> list[str]:
    names = [n.strip() for n in spec.replace(" ", ",").split(",") if n.strip()]
    if not names:
        raise UsageError(f"empty rule set {spec!r}: name plugins, e.g. 'classic,stacking'")
    return names


def build_ruleset(spec: str, options: Mapping[str, Any]) -> Ruleset:
    """The rule set named by ``spec`` (``"classic,stacking"``) with ``options``."""
    try:
        return Ruleset.from_names(_split_names(spec), options)
    except RulesetError as exc:
        raise UsageError(str(exc)) from None


def _options_for(spec: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of ``options`` that some plugin of ``spec`` declares."""
    installed = installed_plugins()
    mine: set[str] = set()
    for name in _split_names(spec):
        plugin = installed.get(name.lower())
        if plugin is None:
            raise UsageError(
                f"no plugin named {name!r} is installed; installed plugins: {', '.join(sorted(installed))}"
            )
        mine.update(o.name for o in getattr(plugin, "options", ()))
    return {k: v for k, v in options.items() if k in mine}


def _seed(text: str | None) -> int | str:
    if text is None:
        return int.from_bytes(os.urandom(4), "little")
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() else text


def _players(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {n}")
    return n


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {n}")
    return n


def _bot_names(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("name at least one bot")
    for name in names:
        if name not in BOTS:
            raise argparse.ArgumentTypeError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
    return names


def _add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default="classic",
        metavar="NAMES",
        help="comma-separated plugin names (default: classic); see 'unorules rules'",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of a plugin, e.g. uno_penalty=4 (repeatable)",
    )


# -- simulate ----------------------------------------------------------------------------


@attrs.frozen
class _Job:
    """What a worker needs to play games of one rule set (picklable)."""

    set_index: int
    names: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    players: int
    bots: tuple[str, ...]
    seed: int | str
    max_actions: int


@attrs.frozen
class _GameRecord:
    index: int
    winners: tuple[int, ...]
    round_actions: tuple[int, ...]
    round_points: tuple[int, ...]
    round_winners: tuple[int | None, ...]


_RULESETS: dict[tuple[tuple[str, ...], tuple[tuple[str, Any], ...]], Ruleset] = {}


def _job_ruleset(job: _Job) -> Ruleset:
    key = (job.names, job.options)
    rules = _RULESETS.get(key)
    if rules is None:
        rules = _RULESETS[key] = Ruleset.from_names(list(job.names), dict(job.options))
    return rules


def _play_one(job: _Job, index: int) -> _GameRecord:
    """Play game ``index`` of ``job``, seeded from ``(seed, index)`` only."""
    rules = _job_ruleset(job)
    state = rules.new_game(players=job.players, seed=f"{job.seed}/{index}")
    bots: list[Bot] = [
        make_bot(job.bots[seat % len(job.bots)], seed=f"{job.seed}/{index}/{seat}")
        for seat in range(job.players)
    ]
    round_actions: list[int] = []
    count = 0
    finished = 0
    for _ in range(job.max_actions):
        if state.is_over:
            break
        state = state.apply(next_action(state, bots))
        count += 1
        if len(state.rounds) != finished:
            finished = len(state.rounds)
            round_actions.append(count)
            count = 0
    if not state.is_over:
        raise RuntimeError(f"did not end within {job.max_actions} actions (--max-actions)")
    assert state.outcome is not None
    return _GameRecord(
        index,
        state.outcome.winners,
        tuple(round_actions),
        tuple(sum(r.points) for r in state.rounds),
        tuple(r.winner for r in state.rounds),
    )


def _run_chunk(task: tuple[_Job, int, int]) -> tuple[int, list[_GameRecord]]:
    job, start, stop = task
    records = []
    for index in range(start, stop):
        try:
            records.append(_play_one(job, index))
        except Exception as exc:
            rules = ",".join(job.names)
            raise RuntimeError(
                f"game {index} of rule set {rules} (seed {job.seed!r}) failed: {type(exc).__name__}: {exc}"
            ) from None
    return job.set_index, records


@attrs.frozen
class RuleSetResult:
    """The summary of the games played with one rule set."""

    rules: str
    plugins: tuple[str, ...]
    options: Mapping[str, Any]
    games: int
    players: int
    seat_bots: tuple[str, ...]
    records: tuple[_GameRecord, ...] = attrs.field(repr=False)

    @property
    def rounds(self) -> int:
        """The number of rounds played in all games."""
        return sum(len(r.round_actions) for r in self.records)

    @property
    def round_lengths(self) -> list[int]:
        """The number of actions of every round, game by game."""
        return [n for r in self.records for n in r.round_actions]

    @property
    def rounds_per_game(self) -> list[int]:
        """The number of rounds of every game."""
        return [len(r.round_actions) for r in self.records]

    def summary(self) -> dict[str, Any]:
        """The summary as JSON-able data (the same for any number of workers)."""
        lengths = self.round_lengths
        rounds = len(lengths)
        games = self.games
        seat_wins = [sum(1 for r in self.records if s in r.winners) for s in range(self.players)]
        round_wins = [
            sum(1 for r in self.records for w in r.round_winners if w == s) for s in range(self.players)
        ]
        bot_names = sorted(set(self.seat_bots))
        bot_games = {
            b: sum(1 for r in self.records if any(self.seat_bots[s] == b for s in r.winners))
            for b in bot_names
        }
        points = [p for r in self.records for p in r.round_points]
        ordered = sorted(lengths)
        return {
            "rules": self.rules,
            "plugins": list(self.plugins),
            "options": dict(self.options),
            "games": games,
            "rounds": rounds,
            "rounds_per_game": rounds / games if games else 0.0,
            "actions": sum(lengths),
            "actions_per_round": sum(lengths) / rounds if rounds else 0.0,
            "round_length": {
                "median": statistics.median(ordered) if ordered else 0,
                "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))] if ordered else 0,
                "max": ordered[-1] if ordered else 0,
            },
            "points_per_round": sum(points) / rounds if rounds else 0.0,
            "seat_bots": list(self.seat_bots),
            "seat_wins": seat_wins,
            "seat_win_rate": [w / games if games else 0.0 for w in seat_wins],
            "seat_round_wins": round_wins,
            "bot_seats": {b: self.seat_bots.count(b) for b in bot_names},
            "bot_wins": bot_games,
            "bot_win_rate": {b: n / games if games else 0.0 for b, n in bot_games.items()},
            "bot_round_win_rate": {
                b: sum(round_wins[s] for s in range(self.players) if self.seat_bots[s] == b) / rounds
                if rounds
                else 0.0
                for b in bot_names
            },
        }


class _Progress:
    """A progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, total: int, enabled: bool, stream: IO[str]) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled and total > 0
        self.stream = stream
        self.start = time.monotonic()
        self.last = 0.0

    def advance(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if self.done < self.total and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = int(width * self.done / self.total)
        bar = "#" * filled + "-" * (width - filled)
        pct = 100 * self.done / self.total
        elapsed = now - self.start
        self.stream.write(f"\r[{bar}] {pct:5.1f}% {self.done}/{self.total} games {elapsed:6.1f}s")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 72 + "\r")
            self.stream.flush()


def run_simulation(
    specs: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    games: int,
    players: int,
    bots: Sequence[str],
    seed: int | str,
    workers: int = 1,
    max_actions: int = 1_000_000,
    progress: Callable[[int], None] | None = None,
) -> list[RuleSetResult]:
    """Play ``games`` seeded games with each rule set of ``specs`` and summarise them.

    ``specs`` pairs a label (``"classic,stacking"``, optionally followed by
    ``":name=value"`` parts, which are only shown) with the options to use.
    Game ``i`` of every rule set is dealt from the seed ``"{seed}/{i}"`` and
    seat ``s``'s bot is seeded with ``"{seed}/{i}/{s}"``, so the results do
    not depend on ``workers``, and rule sets are compared on the same deals
    where their decks agree. ``bots`` are cycled over the seats.
    """
    jobs: list[_Job] = []
    for i, (spec, options) in enumerate(specs):
        rules = build_ruleset(spec.split(":")[0], options)
        try:
            rules.new_game(players=players, seed=f"{seed}/check")
        except RulesetError as exc:
            raise UsageError(f"rule set {spec}: {exc}") from None
        jobs.append(
            _Job(i, rules.names, tuple(sorted(options.items())), players, tuple(bots), seed, max_actions)
        )
    size = max(1, min(25, games // max(1, workers * 4)))
    tasks = [(job, start, min(games, start + size)) for job in jobs for start in range(0, games, size)]
    collected: list[list[_GameRecord]] = [[] for _ in jobs]

    def take(result: tuple[int, list[_GameRecord]]) -> None:
        set_index, records = result
        collected[set_index].extend(records)
        if progress is not None:
            progress(len(records))

    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            take(_run_chunk(task))
    else:
        with multiprocessing.get_context().Pool(min(workers, len(tasks))) as pool:
            for result in pool.imap(_run_chunk, tasks):  # in order: the first failure is always the same
                take(result)
    results = []
    for job, (label, options), records in zip(jobs, specs, collected, strict=True):
        records.sort(key=lambda r: r.index)
        results.append(
            RuleSetResult(
                rules=label,
                plugins=job.names,
                options=dict(options),
                games=games,
                players=players,
                seat_bots=tuple(bots[s % len(bots)] for s in range(players)),
                records=tuple(records),
            )
        )
    return results


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def _table(rows: Sequence[Sequence[str]], header: Sequence[str]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for k, row in enumerate([header, *rows]):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _summary_table(summaries: Sequence[dict[str, Any]]) -> str:
    header = ["", *(s["rules"] for s in summaries)]
    first = summaries[0]
    rows: list[list[str]] = [
        ["games", *(str(s["games"]) for s in summaries)],
        ["rounds per game", *(f"{s['rounds_per_game']:.2f}" for s in summaries)],
        ["actions per round", *(f"{s['actions_per_round']:.1f}" for s in summaries)],
        [
            "round length median/p90/max",
            *(
                f"{s['round_length']['median']:g}/{s['round_length']['p90']}/{s['round_length']['max']}"
                for s in summaries
            ),
        ],
        ["points per round", *(f"{s['points_per_round']:.1f}" for s in summaries)],
    ]
    for seat, bot in enumerate(first["seat_bots"]):
        rows.append([f"wins, seat {seat} ({bot})", *(_percent(s["seat_win_rate"][seat]) for s in summaries)])
    for bot, seats in first["bot_seats"].items():
        plural = "seat" if seats == 1 else "seats"
        rows.append(
            [f"wins, {bot} ({seats} {plural})", *(_percent(s["bot_win_rate"][bot]) for s in summaries)]
        )
    for bot in first["bot_seats"]:
        rows.append([f"rounds won, {bot}", *(_percent(s["bot_round_win_rate"][bot]) for s in summaries)])
    return _table(rows, header)


# -- plotting -------------------------------------------------------------------------


_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")


def _histogram(values: Sequence[int], edges: Sequence[float]) -> list[float]:
    """The share of ``values`` in each bin ``[edges[i], edges[i+1])`` (the last bin closed)."""
    counts = [0] * (len(edges) - 1)
    for v in values:
        i = min(len(counts) - 1, max(0, int((v - edges[0]) / (edges[1] - edges[0]))))
        counts[i] += 1
    total = len(values) or 1
    return [c / total for c in counts]


def _edges(series: Mapping[str, Sequence[int]], bins: int) -> list[float]:
    """At most ``bins`` bins of whole-number width covering every value."""
    everything = [v for vs in series.values() for v in vs]
    low = min(everything, default=0)
    high = max(everything, default=1)
    span = high - low + 1
    step = max(1, math.ceil(span / bins))
    count = max(1, math.ceil(span / step))
    return [float(low + i * step) for i in range(count + 1)]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _svg_panel(
    series: Mapping[str, Sequence[int]], title: str, xlabel: str, top: float, width: float, height: float
) -> list[str]:
    """One histogram panel (a line per series) as SVG elements, ``top`` pixels down."""
    left, right, pad_top, pad_bottom = 60.0, 20.0, 30.0, 45.0
    plot_w = width - left - right
    plot_h = height - pad_top - pad_bottom
    edges = _edges(series, 30)
    shares = {label: _histogram(values, edges) for label, values in series.items()}
    ymax = max((max(s) for s in shares.values() if s), default=1.0) or 1.0
    x0, y0 = left, top + pad_top + plot_h

    def x(v: float) -> float:
        return x0 + plot_w * (v - edges[0]) / (edges[-1] - edges[0])

    def y(share: float) -> float:
        return y0 - plot_h * share / ymax

    out = [
        f'<text x="{width / 2:.1f}" y="{top + 18:.1f}" text-anchor="middle" font-size="14" '
        f'font-weight="bold">{_escape(title)}</text>',
        f'<line x1="{x0}" y1="{y0:.1f}" x2="{x0 + plot_w:.1f}" y2="{y0:.1f}" stroke="#333"/>',
        f'<line x1="{x0}" y1="{y0:.1f}" x2="{x0}" y2="{y0 - plot_h:.1f}" stroke="#333"/>',
        f'<text x="{x0 + plot_w / 2:.1f}" y="{y0 + 35:.1f}" text-anchor="middle" font-size="12">'
        f"{_escape(xlabel)}</text>",
        f'<text x="14" y="{y0 - plot_h / 2:.1f}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 14 {y0 - plot_h / 2:.1f})">share</text>',
    ]
    for i in range(6):
        v = edges[0] + (edges[-1] - edges[0]) * i / 5
        out.append(
            f'<text x="{x(v):.1f}" y="{y0 + 16:.1f}" text-anchor="middle" font-size="10">{v:.0f}</text>'
        )
        share = ymax * i / 5
        out.append(
            f'<text x="{x0 - 6:.1f}" y="{y(share) + 3:.1f}" text-anchor="end" font-size="10">'
            f"{100 * share:.0f}%</text>"
        )
        out.append(
            f'<line x1="{x0:.1f}" y1="{y(share):.1f}" x2="{x0 + plot_w:.1f}" y2="{y(share):.1f}" '
            'stroke="#ddd" stroke-width="0.5"/>'
        )
    for k, (label, share_list) in enumerate(shares.items()):
        color = _PALETTE[k % len(_PALETTE)]
        points = []
        for i, share in enumerate(share_list):
            points.append(f"{x(edges[i]):.1f},{y(share):.1f}")
            points.append(f"{x(edges[i + 1]):.1f},{y(share):.1f}")
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{" ".join(points)}"/>')
        ly = top + pad_top + 14 * k + 4
        out.append(
            f'<line x1="{x0 + plot_w - 20:.1f}" y1="{ly:.1f}" x2="{x0 + plot_w:.1f}" y2="{ly:.1f}" '
            f'stroke="{color}" stroke-width="2"/>'
        )
        out.append(
            f'<text x="{x0 + plot_w - 25:.1f}" y="{ly + 4:.1f}" text-anchor="end" font-size="11">'
            f"{_escape(label)}</text>"
        )
    return out


def svg_chart(results: Sequence[RuleSetResult]) -> str:
    """An SVG document: the distribution of round lengths and of rounds per game, per rule set."""
    width, height = 720.0, 300.0
    panels = [
        ({r.rules: r.round_lengths for r in results}, "Round length", "actions per round"),
        ({r.rules: r.rounds_per_game for r in results}, "Game length", "rounds per game"),
    ]
    body: list[str] = []
    for i, (series, title, xlabel) in enumerate(panels):
        body += _svg_panel(series, title, xlabel, i * height, width, height)
    total = height * len(panels)
    return "\n".join(
        [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{total:.0f}" '
            f'viewBox="0 0 {width:.0f} {total:.0f}" font-family="sans-serif">',
            f'<rect width="{width:.0f}" height="{total:.0f}" fill="white"/>',
            *body,
            "</svg>",
            "",
        ]
    )


def _matplotlib() -> Any:
    try:
        return importlib.import_module("matplotlib")
    except ImportError:
        return None


def _check_plot_path(path: str) -> None:
    lowered = path.lower()
    if lowered.endswith(".svg"):
        return
    if lowered.endswith(".png"):
        if _matplotlib() is None:
            raise UsageError(f"--plot {path}: PNG needs matplotlib, which is not installed; use a .svg file")
        return
    raise UsageError(f"--plot {path}: the file name must end in .svg (or .png with matplotlib)")


def _write_plot(path: str, results: Sequence[RuleSetResult]) -> None:
    try:
        if path.lower().endswith(".png"):
            mpl = _matplotlib()
            mpl.use("Agg")
            pyplot = importlib.import_module("matplotlib.pyplot")
            fig, axes = pyplot.subplots(2, 1, figsize=(7.2, 6.0))
            for ax, attr, title in (
                (axes[0], "round_lengths", "actions per round"),
                (axes[1], "rounds_per_game", "rounds per game"),
            ):
                for r in results:
                    ax.hist(getattr(r, attr), bins=30, histtype="step", density=True, label=r.rules)
                ax.set_xlabel(title)
                ax.legend()
            fig.tight_layout()
            fig.savefig(path)
            pyplot.close(fig)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg_chart(results))
    except OSError as exc:
        raise Failure(f"cannot write {path}: {exc.strerror or exc}") from None


def _cmd_simulate(args: argparse.Namespace) -> int:
    options = parse_options(args.option)
    specs_text: list[str] = args.compare if args.compare else [args.rules]
    if args.compare and len(args.compare) < 2:
        raise UsageError("--compare needs two or more rule sets, e.g. --compare classic classic,stacking")
    specs: list[tuple[str, dict[str, Any]]] = []
    for text in specs_text:
        names, *inline = text.split(":")
        own = _options_for(names, options) | parse_options(inline)
        label = ":".join([",".join(_split_names(names)), *inline])
        if any(label == known for known, _ in specs):
            raise UsageError(f"rule set {label!r} is listed twice in --compare")
        specs.append((label, own))
    unused = [k for k in options if not any(k in o for _, o in specs)]
    if unused:
        rules = " ".join(specs_text)
        raise UsageError(f"option {unused[0]!r} belongs to no plugin of {rules}; see 'unorules rules'")
    if args.plot:
        _check_plot_path(args.plot)
    seed = _seed(args.seed)
    workers = args.workers or os.cpu_count() or 1
    bar = _Progress(args.games * len(specs), not args.quiet and sys.stderr.isatty(), sys.stderr)
    started = time.monotonic()
    try:
        results = run_simulation(
            specs,
            games=args.games,
            players=args.players,
            bots=args.bots,
            seed=seed,
            workers=workers,
            max_actions=args.max_actions,
            progress=bar.advance,
        )
    except RuntimeError as exc:
        raise Failure(str(exc)) from None
    finally:
        bar.close()
    elapsed = time.monotonic() - started
    summaries = [r.summary() for r in results]
    if args.plot:
        _write_plot(args.plot, results)
    if args.json:
        data = {
            "command": "simulate",
            "version": __version__,
            "seed": seed,
            "games": args.games,
            "players": args.players,
            "bots": list(args.bots),
            "results": summaries,
            "elapsed_seconds": round(elapsed, 3),
        }
        print(json.dumps(data, indent=2))
    else:
        seats = ",".join(summaries[0]["seat_bots"])
        print(
            f"{args.games} games of {args.players} players, seed {seed!r}, bots by seat {seats}, "
            f"{elapsed:.1f}s on {min(workers, max(1, args.games * len(specs)))} worker(s)"
        )
        print()
        print(_summary_table(summaries))
        if args.plot:
            print()
            print(f"chart written to {args.plot}")
    return EXIT_OK


# -- rules ------------------------------------------------------------------------------


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def plugin_info(name: str, plugin: Any) -> dict[str, Any]:
    """What ``unorules rules`` says about one plugin, as JSON-able data."""
    doc = (getattr(plugin, "__doc__", None) or "").strip()
    summary = getattr(plugin, "summary", "") or (doc.splitlines()[0] if doc else "")
    return {
        "name": name,
        "summary": summary,
        "rules": list(getattr(plugin, "rules", ())),
        "requires": list(getattr(plugin, "requires", ())),
        "conflicts": dict(getattr(plugin, "conflicts", {})),
        "options": [
            {"name": o.name, "default": o.default, "allowed": o.allowed, "doc": o.doc}
            for o in getattr(plugin, "options", ())
        ],
    }


def _cmd_rules(args: argparse.Namespace) -> int:
    installed = installed_plugins()
    names = [n.lower() for n in args.names] or sorted(installed)
    for name in names:
        if name not in installed:
            raise UsageError(
                f"no plugin named {name!r} is installed; installed plugins: {', '.join(sorted(installed))}"
            )
    if args.check:
        rules = build_ruleset(args.check, parse_options(args.option))
        if args.json:
            print(json.dumps({"plugins": list(rules.names), "options": dict(rules.options)}, indent=2))
        else:
            print(f"rule set OK: plugins in registration order {', '.join(rules.names)}")
            print(f"deck: {len(rules.deck)} cards; hand size {rules.hand_size}")
            for key, value in sorted(rules.options.items()):
                print(f"  {key} = {_show(value)}")
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
                print(f"    {o['name']} = {_show(o['default'])}  [{o['allowed']}]  {o['doc']}")
        else:
            print("  options: none")
    return EXIT_OK


# -- play -------------------------------------------------------------------------------


class Quit(Exception):
    """The player typed ``quit`` (exit 0) or the input ended (exit 1)."""

    def __init__(self, eof: bool) -> None:
        super().__init__("input ended" if eof else "quit")
        self.eof = eof


_SHORT = {
    "d": "draw",
    "p": "pass",
    "u": "uno",
    "a": "accept",
    "acc": "accept",
    "ch": "challenge",
    "chal": "challenge",
    "col": "color",
    "colour": "color",
    "c": "catch",
}

_HELP = """\
Type an action: a card to play it (R7; wilds with a colour: W+4 B; a seat for cards that
need one: R7 2), draw (d), pass (p), uno (u), catch SEAT, challenge, accept, color R,
or full notation ('0: play R7'). A number picks that entry of the list below.
Other commands: ? or help (this list), look (the table again), quit."""

_PHASE_HINTS = {
    "play": "your turn: play a card or draw",
    "drawn": "you drew a playable card: play it or pass",
    "penalty": "you must draw {count}",
    "challenge": "a Wild Draw Four hit you: challenge it or accept and draw {count}",
    "color": "the starter is a wild: name its colour (color R)",
}


def _hand_text(hand: Sequence[Card]) -> str:
    order = {c: i for i, c in enumerate(COLORS)}
    ranked = sorted(hand, key=lambda c: (order.get(c.color, 9) if c.color else 9, c.kind))
    return " ".join(str(c) for c in ranked) if ranked else "(empty)"


def _color_name(color: Color | None) -> str:
    return "not named yet" if color is None else color.name.lower()


class _Human:
    """The terminal player: a bot whose choices are read from the input."""

    name = "you"

    def __init__(self, seat: int, inp: IO[str], out: IO[str]) -> None:
        self.seat = seat
        self.inp = inp
        self.out = out
        self.state: GameState | None = None
        """The game's state, set by the command before each action: only to
        explain why a move typed at the terminal is refused (the rule)."""

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise Quit(eof=True)
        if not getattr(self.inp, "isatty", lambda: False)():
            self.say(line.rstrip("\n"))  # echo scripted input so the transcript reads well
        return line.strip()

    def status(self, view: SeatView) -> None:
        n = len(view.hand_sizes)
        arrow = "left (+1)" if view.direction == 1 else "right (-1)"
        self.say(f"--- round {len(view.rounds) + 1} - seat {view.current_player} to move ---")
        self.say(
            f"top: {view.top_card}   colour: {_color_name(view.color)}   direction: {arrow}   "
            f"draw pile: {view.draw_pile_size}"
        )
        others = []
        for s in range(n):
            if s == self.seat:
                continue
            if s in view.left:
                others.append(f"seat {s}: out of the game")
                continue
            size = view.hand_sizes[s]
            flag = " UNO!" if size == 1 else ""
            shown = view.visible_hands.get(s)
            seen = f" [{_hand_text(shown)}]" if shown is not None else ""
            others.append(f"seat {s}: {size} card{'s' if size != 1 else ''}{flag}{seen}")
        self.say("others: " + ", ".join(others))
        self.say("scores: " + " ".join(f"{s}:{p}" for s, p in enumerate(view.scores)))
        self.say(f"your hand (seat {self.seat}): {_hand_text(view.hand)}")
        if view.current_player == self.seat:
            hint = _PHASE_HINTS.get(view.phase.name, f"phase {view.phase.name}")
            self.say(hint.format(count=view.phase.count))

    def list_actions(self, view: SeatView) -> None:
        for i, action in enumerate(view.legal_actions, 1):
            self.say(f"  {i:2}. {action}")

    def parse(self, text: str, view: SeatView) -> Action:
        """Turn what the player typed into an action of their seat (``NotationError`` if it is not one)."""
        if text.isdigit():
            k = int(text)
            if not 1 <= k <= len(view.legal_actions):
                raise NotationError(f"there is no entry {k}; type ? to list your {len(view.legal_actions)}")
            return view.legal_actions[k - 1]
        if ":" in text:
            return Action.parse(text, default_seat=self.seat)
        words = text.split()
        first = _SHORT.get(words[0].lower(), words[0].lower())
        if first == "color":
            if len(words) != 2:
                raise NotationError("name one colour: color R (or Y, G, B)")
            return Action.parse(f"color {words[1]}", default_seat=self.seat)
        if len(words) == 1 and _is_color(first):
            return Action.parse(f"color {first}", default_seat=self.seat)
        try:
            verb_spec(first)
        except KeyError:
            pass
        else:
            return Action.parse(" ".join([first, *words[1:]]), default_seat=self.seat)
        try:
            Card.parse(words[0])
        except NotationError:
            raise NotationError(f"{text!r} is neither a card nor an action; type ? for help") from None
        return Action.parse("play " + text, default_seat=self.seat)

    def choose(self, view: SeatView) -> Action | None:
        seat = self.seat
        my_turn = view.current_player == seat
        if my_turn:
            self.status(view)
            prompt = "> "
        else:
            offer = ", ".join(str(a) for a in view.legal_actions)
            self.say(f"you may act now, out of turn: {offer}")
            prompt = "(Enter to let play go on) > "
        while True:
            text = self.read(prompt)
            lowered = text.lower()
            if lowered in ("quit", "q", "exit"):
                raise Quit(eof=False)
            if lowered in ("?", "help", "h"):
                self.say(_HELP)
                self.say("your legal actions now:")
                self.list_actions(view)
                continue
            if lowered in ("look", "l", "status"):
                self.status(view)
                continue
            if not text:
                if not my_turn:
                    return None
                continue
            try:
                action = self.parse(text, view)
            except NotationError as exc:
                self.say(f"not understood: {exc}")
                continue
            if action.seat != seat:
                self.say(f"refused: you are seat {seat}; '{action}' is seat {action.seat}'s action")
                continue
            if action in view.legal_actions:
                return action
            if self.state is None:  # pragma: no cover - the command always sets it
                self.say(f"refused: {action} is not legal now")
                continue
            try:
                self.state.apply(action)
            except IllegalActionError as exc:
                self.say(f"refused: {exc}")
            else:  # pragma: no cover - legal_actions and apply agree (a core invariant)
                return action


def _is_color(word: str) -> bool:
    try:
        Color.parse(word)
    except NotationError:
        return False
    return True


def _describe(state: GameState, seat: int, out: IO[str]) -> None:
    """Print the last action and its events as ``seat`` may see them."""
    view = state.view(seat)
    action = view.last_action
    if action is not None:
        who = "you" if action.seat == seat else f"seat {action.seat}"
        print(f"{who}: {str(action).partition(': ')[2]}", file=out)
    for event in view.events:
        if event.kind == "draw" and event.seat == seat and event.cards:
            print(f"    you drew {' '.join(map(str, event.cards))}", file=out)
        else:
            print(f"    {event}", file=out)


def _cmd_play(args: argparse.Namespace) -> int:
    options = parse_options(args.option)
    rules = build_ruleset(args.rules, options)
    players: int = args.players
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat {args.seat}: seats are 0 to {players - 1}")
    seed = _seed(args.seed)
    try:
        state = rules.new_game(players=players, seed=seed)
    except RulesetError as exc:
        raise UsageError(str(exc)) from None
    out = sys.stdout
    human = _Human(args.seat, sys.stdin, out)
    bot_names: list[str] = args.bots
    bots: list[Bot] = []
    for s in range(players):
        if s == args.seat:
            bots.append(human)
        else:
            bots.append(make_bot(bot_names[s % len(bot_names)], seed=f"{seed}/{s}"))
    print(
        f"unorules play: {','.join(rules.names)}, {players} players, seed {seed!r}; "
        f"you are seat {args.seat}; type ? for help",
        file=out,
    )
    print("bots: " + ", ".join(f"seat {s}: {b.name}" for s, b in enumerate(bots) if s != args.seat), file=out)
    _describe(state, args.seat, out)
    finished = 0
    try:
        while not state.is_over:
            human.state = state
            action = next_action(state, bots)
            state = state.apply(action)
            _describe(state, args.seat, out)
            if len(state.rounds) != finished:
                for result in state.rounds[finished:]:
                    who = "nobody" if result.winner is None else f"seat {result.winner}"
                    print(
                        f"*** round {result.number} over ({result.reason}): {who} won it; "
                        f"points {list(result.points)}",
                        file=out,
                    )
                finished = len(state.rounds)
                print("*** scores: " + " ".join(f"{s}:{p}" for s, p in enumerate(state.scores)), file=out)
    except Quit as stop:
        if stop.eof:
            raise Failure("the input ended before the game did") from None
        print("game stopped", file=out)
        return EXIT_OK
    assert state.outcome is not None
    winners = state.outcome.winners
    verdict = "you won!" if args.seat in winners else f"seat(s) {', '.join(map(str, winners))} won"
    print(f"*** game over ({state.outcome.reason}): {verdict}", file=out)
    return EXIT_OK


# -- the parser and main ----------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``unorules`` argument parser with its three commands."""
    parser = _Parser(
        prog=PROG,
        description="Play, simulate and inspect UNO rule sets built from unorules plugins.",
        epilog="exit status: 0 ok, 1 failure while running, 2 bad usage, 130 interrupted",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = commands.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play a game in the terminal against bots. Type ? during the game for help.",
        epilog="input: a card (R7, 'W+4 B', 'R7 2'), draw/d, pass/p, uno/u, catch SEAT, challenge, "
        "accept, color R, full notation ('0: play R7'), a number from the ? list, look, quit",
    )
    _add_rules_arguments(play)
    play.add_argument("--players", type=_players, default=4, help="seats at the table, 2 to 10 (default 4)")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument(
        "--bots",
        type=_bot_names,
        default=["heuristic"],
        metavar="NAMES",
        help=f"bots for the other seats, cycled ({', '.join(BOTS)}; default heuristic)",
    )
    play.add_argument("--seed", help="seed of the deal and the bots (default: random)")
    play.set_defaults(run=_cmd_play)

    sim = commands.add_parser(
        "simulate",
        help="play many seeded games between bots and summarise them",
        description="Play many seeded games between bots and print a summary. Game i is seeded from "
        "(seed, i), so the same seed gives the same results with any number of workers.",
    )
    _add_rules_arguments(sim)
    sim.add_argument("--games", type=_positive, default=100, help="games per rule set (default 100)")
    sim.add_argument("--players", type=_players, default=4, help="seats per game, 2 to 10 (default 4)")
    sim.add_argument(
        "--bots",
        type=_bot_names,
        default=["heuristic", "random"],
        metavar="NAMES",
        help=f"bots cycled over the seats ({', '.join(BOTS)}; default heuristic,random)",
    )
    sim.add_argument("--seed", help="seed of the whole run (default: random, printed)")
    sim.add_argument(
        "--compare",
        nargs="+",
        metavar="NAMES",
        help="two or more rule sets side by side, e.g. --compare classic classic,stacking "
        "(each --option goes to the rule sets whose plugins declare it)",
    )
    sim.add_argument("--workers", type=_positive, default=None, help="processes to use (default: every core)")
    sim.add_argument("--json", action="store_true", help="print the results as JSON")
    sim.add_argument(
        "--plot", metavar="FILE", help="write a chart of the distributions (.svg; .png needs matplotlib)"
    )
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument(
        "--max-actions",
        type=_positive,
        default=1_000_000,
        help="fail a game that has not ended after this many actions (default 1000000)",
    )
    sim.set_defaults(run=_cmd_simulate)

    rules = commands.add_parser(
        "rules",
        help="list the installed plugins, their options and conflicts",
        description="List the installed plugins with their rule ids, options (with defaults), "
        "requirements and conflicts; or check a rule set with --check.",
    )
    rules.add_argument("names", nargs="*", metavar="NAME", help="only these plugins")
    rules.add_argument("--json", action="store_true", help="print JSON")
    rules.add_argument("--check", metavar="NAMES", help="build this rule set (with --option) and report")
    rules.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="an option for --check"
    )
    rules.set_defaults(run=_cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``unorules`` console script; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise UsageError("name a command: play, simulate or rules (see 'unorules --help')")
        code: int = args.run(args)
        return code
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except UsageError as exc:
        _error(str(exc))
        return EXIT_USAGE
    except (Failure, UnorulesError) as exc:
        _error(str(exc))
        return EXIT_FAILURE
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_FAILURE
    except Exception as exc:  # a bug, most likely in a plugin: still one line, and exit 1
        _error(f"unexpected {type(exc).__name__}: {exc}")
        return EXIT_FAILURE


def _error(message: str) -> None:
    first = " ".join(message.split())
    print(f"{PROG}: error: {first}", file=sys.stderr)

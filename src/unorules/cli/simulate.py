"""``unorules simulate``: many seeded games between bots, summarised (a layer over :mod:`unorules.sim`)."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import attrs
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from unorules import __version__, sim
from unorules.bots import BOT_KINDS, BOTS
from unorules.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    INTERVALS,
    Failure,
    UsageError,
    add_rules_arguments,
    bot_name,
    bot_names,
    build_ruleset,
    error,
    options_for,
    parse_options,
    players_arg,
    players_for,
    positive,
    random_seed,
    rate_words,
    rulebook,
    seed_arg,
    split_names,
    unknown_option,
)
from unorules.errors import RulesetError
from unorules.record import play_bots
from unorules.rulebook import preset_names
from unorules.sim import Tally


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``simulate`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "simulate",
        help="play many seeded games between bots and summarise them",
        description="Play many seeded games between bots and print a summary. Game i is seeded from "
        "(seed, i), so the same seed gives the same results with any number of workers.",
    )
    add_rules_arguments(parser)
    parser.add_argument("--games", type=positive, default=100, help="games per rule set (default 100)")
    parser.add_argument(
        "--players",
        type=players_arg,
        default=None,
        help="seats per game, 2 to 10 (default: the first rulebook's first player count, else 4)",
    )
    parser.add_argument(
        "--bots",
        type=bot_names,
        default=None,
        metavar="NAMES",
        help=f"bots cycled over the seats ({', '.join(BOTS)}, or {', '.join(k + ':...' for k in BOT_KINDS)}; "
        "default heuristic,random)",
    )
    parser.add_argument(
        "--bot",
        type=bot_name,
        action="append",
        default=[],
        metavar="NAME",
        help="one more bot, after those of --bots (repeatable); a name with commas or spaces, such as "
        "a bot program: --bot 'cmd:node mybot.js' (see the bot protocol in the docs)",
    )
    parser.add_argument("--seed", type=seed_arg, help="seed of the whole run (default: random, printed)")
    parser.add_argument(
        "--compare",
        nargs="+",
        metavar="RULES",
        help="two or more rule sets side by side (plugin names, presets, rulebook files), e.g. "
        "--compare classic classic,stacking party (each --option goes to the rule sets whose plugins "
        "declare it)",
    )
    parser.add_argument(
        "--workers", type=positive, default=None, help="processes to use (default: every core)"
    )
    parser.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="where to play: local (this machine's cores, the default) or ray (needs unorules[ray])",
    )
    parser.add_argument(
        "--address",
        metavar="ADDR",
        help="with --engine ray: the cluster to join (HOST:PORT of 'ray start --head', or auto); "
        "default: start a local Ray instance",
    )
    parser.add_argument(
        "--jsonl", metavar="FILE", help="write one JSON line per game to FILE as games finish"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--plot", metavar="FILE", help="write a chart of the distributions (.svg; .png needs matplotlib)"
    )
    parser.add_argument(
        "--head-to-head",
        type=bot_names,
        metavar="NAMES",
        help="also play the first rule set with these bots cycled over the seats (e.g. heuristic,random) "
        "and print one line: each bot's share of games won",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--records",
        metavar="DIR",
        help="write each game's record to DIR (replayed in this process: the run takes longer)",
    )
    parser.add_argument(
        "--max-actions",
        type=positive,
        default=sim.DEFAULT_MAX_ACTIONS,
        help="fail a game that has not ended after this many actions (default 1000000)",
    )
    return parser


class TimeLeft:
    """The time a run has left, from each simulation's own measured speed: the wall time
    between results is put down to the simulation of the result that ends it, so that a
    simulation's seconds per game are what it cost the run. A simulation not measured yet
    is estimated from its bots' costs in the simulations measured (half a heads-up game's
    seconds to each of its two bots), else from the typical bot's. The overall rate of the
    games so far (rich's estimate) is far too low while the fast pairs of a round robin
    play first; run the pairs with :func:`unorules.sim.run`'s ``probe`` to measure each early."""

    def __init__(
        self,
        bots: Mapping[str, Sequence[str]],
        games: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bots = dict(bots)
        """Each simulation's label and the bots of its seats."""
        self.games = games
        self.clock = clock
        self.done: Counter[str] = Counter()
        self.spent: dict[str, float] = dict.fromkeys(self.bots, 0.0)
        self.last = clock()

    def add(self, label: str) -> None:
        """One game of the simulation ``label`` came back now."""
        now = self.clock()
        self.spent[label] = self.spent.get(label, 0.0) + now - self.last
        self.last = now
        self.done[label] += 1

    def seconds(self) -> float | None:
        """The seconds the run has left, or ``None`` before any game came back."""
        rates = {label: self.spent[label] / n for label, n in self.done.items() if n}
        if not rates:
            return None
        costs: dict[str, list[float]] = {}
        for label, measured in rates.items():
            seats = self.bots.get(label) or ("",)
            for bot in seats:
                costs.setdefault(bot, []).append(measured / len(seats))
        per_bot = {bot: sum(c) / len(c) for bot, c in costs.items()}
        typical = sum(per_bot.values()) / len(per_bot)
        left = 0.0
        for label, seats in self.bots.items():
            rest = self.games - self.done[label]
            if rest > 0:
                own = rates.get(label)
                left += rest * (own if own is not None else sum(per_bot.get(b, typical) for b in seats))
        return left


def _clock_words(seconds: float | None) -> str:
    if seconds is None:
        return "-:--:--"
    whole = int(seconds + 0.5)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class _Progress:
    """rich's progress bar on standard error (games done, rate, time left), only on a terminal.
    With a :class:`TimeLeft`, the time left is its estimate, else rich's (the overall rate)."""

    def __init__(self, total: int, enabled: bool, stream: IO[str], time_left: TimeLeft | None = None) -> None:
        self.total = total
        self.done = 0
        self.bar: Progress | None = None
        self.time_left = time_left
        if enabled and total > 0:
            left = TextColumn("{task.fields[left]}") if time_left is not None else TimeRemainingColumn()
            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("games"),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("left"),
                left,
                console=Console(file=stream),
                transient=True,
            )
            self.task = self.bar.add_task("playing", total=total, rate="", left=_clock_words(None))
            self.bar.start()

    def advance(self, n: int, label: str | None = None) -> None:
        self.done += n
        if self.time_left is not None and label is not None:
            self.time_left.add(label)
        if self.bar is not None:
            speed = self.bar.tasks[0].speed
            rate = f"{speed:.1f}/s" if speed else ""
            left = _clock_words(self.time_left.seconds()) if self.time_left is not None else ""
            self.bar.update(self.task, advance=n, rate=rate, left=left)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def _summary_rows(summaries: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    first = summaries[0]
    rows: list[list[str]] = [
        ["games", *(str(s["games"]) for s in summaries)],
        ["rounds per game", *(f"{s['rounds_per_game']:.2f}" for s in summaries)],
        ["actions per game", *(f"{s['actions_per_game']:.1f}" for s in summaries)],
        ["actions per round", *(f"{s['actions_per_round']:.1f}" for s in summaries)],
        [
            "round length median/p90/max",
            *(
                f"{s['round_length']['median']:g}/{s['round_length']['p90']}/{s['round_length']['max']}"
                for s in summaries
            ),
        ],
        ["points per round", *(f"{s['points_per_round']:.1f}" for s in summaries)],
        ["first player wins the round", *(_percent(s["first_player_round_win_rate"]) for s in summaries)],
        ["first player wins the game", *(_percent(s["first_player_game_win_rate"]) for s in summaries)],
    ]
    if any(s["failed"] or s["lost"] for s in summaries):
        rows.append(["games failed/lost", *(f"{s['failed']}/{s['lost']}" for s in summaries)])
    for seat, bot in enumerate(first["seat_bots"]):
        rates = (rate_words(s["seat_win_rate"][seat], s["games"]) for s in summaries)
        rows.append([f"wins, seat {seat} ({bot})", *rates])
    if len(first["bot_seats"]) > 1:
        for bot, seats in first["bot_seats"].items():
            plural = "seat" if seats == 1 else "seats"
            rates = (rate_words(s["bot_win_rate"][bot], s["games"]) for s in summaries)
            rows.append([f"wins, {bot} ({seats} {plural})", *rates])
        for bot in first["bot_seats"]:
            rates = (
                rate_words(s["bot_round_win_rate"][bot], round(s["rounds_per_game"] * s["games"]))
                for s in summaries
            )
            rows.append([f"rounds won, {bot}", *rates])
    return rows


def _heading(label: str) -> str:
    """A rule set's column heading: its label, after its rulebook's name when it is a rulebook file."""
    spec = label.partition(":")[0]
    if spec.strip().lower() in preset_names():
        return label
    try:
        book = rulebook(spec)
    except UsageError:  # pragma: no cover - the label was read as a rule set already
        return label
    return label if book is None else f"{book.name} ({label})"


def summary_table(summaries: Sequence[Mapping[str, Any]]) -> Table:
    """The summaries side by side as a rich table, one column per rule set."""
    table = Table(show_edge=False, header_style="bold")
    table.add_column("")
    for s in summaries:
        table.add_column(_heading(s["rules"]), justify="right")
    for row in _summary_rows(summaries):
        table.add_row(*row)
    return table


# -- plotting -------------------------------------------------------------------------


def _matplotlib() -> Any:
    try:
        return importlib.import_module("matplotlib")
    except ImportError:
        return None


def _check_plot_path(path: str) -> None:
    """Before the run: a .svg or .png name, in a folder that exists, and matplotlib installed."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in (".svg", ".png"):
        raise UsageError(f"--plot {path}: the file name must end in .svg or .png")
    if _matplotlib() is None:
        raise UsageError("--plot needs matplotlib, which is not installed: pip install 'unorules[plot]'")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise Failure(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise Failure(f"cannot write {path}: permission denied")


def _shares(counts: Mapping[int, int]) -> tuple[list[int], list[float]]:
    total = sum(counts.values()) or 1
    values = sorted(counts)
    return values, [counts[v] / total for v in values]


def write_plot(path: str, tallies: Sequence[Tally], title: str) -> None:
    """The chart of ``simulate --plot`` (SVG or PNG by the name): shares of rounds by length and
    of games by rounds, one line per rule set."""
    mpl = _matplotlib()
    mpl.use("Agg")
    pyplot = importlib.import_module("matplotlib.pyplot")
    ticker = importlib.import_module("matplotlib.ticker")
    fig, axes = pyplot.subplots(2, 1, figsize=(8, 7))
    panels = (
        (axes[0], "round_lengths", "Round length", "actions in the round", 30),
        (axes[1], "game_rounds", "Game length", "rounds in the game", 0),
    )
    for ax, attr, heading, xlabel, bins in panels:
        for tally in tallies:
            counts: Mapping[int, int] = getattr(tally, attr)
            if not counts:
                continue
            values, weights = _shares(counts)
            if bins:
                edges = max(1, len(range(min(values), max(values) + 1)) // bins)
                ax.hist(
                    values,
                    bins=range(min(values), max(values) + edges + 1, edges),
                    weights=weights,
                    histtype="step",
                    linewidth=1.5,
                    label=tally.rules,
                )
            else:
                ax.plot(values, weights, marker="o", label=tally.rules)
        ax.set_title(heading)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("share")
        ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0))
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(title)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise Failure(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        pyplot.close(fig)


def _simulations(args: argparse.Namespace, seed: int | str) -> list[sim.Simulation]:
    """One simulation per rule set of ``--rules`` or ``--compare``, checked (usage errors)."""
    options = parse_options(args.option)
    specs_text: list[str] = args.compare if args.compare else [args.rules]
    if args.compare and len(args.compare) < 2:
        raise UsageError("--compare needs two or more rule sets, e.g. --compare classic classic,stacking")
    specs: list[tuple[str, str, dict[str, Any]]] = []
    for text in specs_text:
        names, *inline = text.split(":")
        own = options_for(names, options) | parse_options(inline)
        label = ":".join([",".join(split_names(names)), *inline])
        if any(label == known for known, _, _ in specs):
            raise UsageError(f"rule set {label!r} is listed twice in --compare")
        specs.append((label, names, own))
    # One player count for the run: --players, else the first rule set's rulebook's.
    args.players = players_for(specs[0][1], args.players)
    for _, names, _ in specs[1:]:
        players_for(names, args.players)
    unused = [k for k in options if not any(k in o for _, _, o in specs)]
    if unused:
        rules = " ".join(specs_text)
        raise unknown_option(unused[0], rules)
    simulations = []
    for label, names, own in specs:
        ruleset = build_ruleset(names, own)
        try:
            simulations.append(
                sim.Simulation.of(
                    ruleset,
                    players=args.players,
                    bots=args.bots,
                    seed=seed,
                    label=label,
                    options=ruleset.spec()["options"],  # a rulebook's own options as well
                    max_actions=args.max_actions,
                )
            )
        except RulesetError as exc:
            raise UsageError(f"rule set {label}: {exc}") from None
    if args.head_to_head:
        first = simulations[0]
        simulations.append(
            attrs.evolve(
                first,
                label=f"{first.label} [head to head: {','.join(args.head_to_head)}]",
                bots=tuple(args.head_to_head),
            )
        )
    return simulations


def head_to_head_line(summary: Mapping[str, Any], rules: str) -> str:
    """One line: each bot's share of the games won when they meet."""
    parts = [
        f"{bot} won {_percent(summary['bot_win_rate'][bot])} ({seats} seat{'s' if seats != 1 else ''})"
        for bot, seats in summary["bot_seats"].items()
    ]
    return f"head to head on {rules}, {summary['games']} games: " + ", ".join(parts)


def _failures(tallies: Sequence[Tally], seed: int | str) -> str | None:
    """One line about the games that failed, or ``None``."""
    failed = sum(t.failed for t in tallies)
    if not failed:
        return None
    tally = next(t for t in tallies if t.failures)
    index, reason = tally.failures[0]
    more = f" ({failed} games failed in all)" if failed > 1 else ""
    return f"game {index} of rule set {tally.rules} (seed {seed!r}) failed: {reason}{more}"


def _ranges(indexes: Sequence[int]) -> str:
    """``[1, 2, 3, 7]`` as ``"1-3, 7"``."""
    parts: list[str] = []
    for i in sorted(indexes):
        if parts and parts[-1].split("-")[-1] == str(i - 1):
            parts[-1] = f"{parts[-1].split('-')[0]}-{i}"
        else:
            parts.append(str(i))
    return ", ".join(parts)


def _engine(args: argparse.Namespace, total: int) -> sim.Engine:
    """The engine ``--engine`` names (usage errors for a missing library, failures for a bad cluster)."""
    if args.engine == "ray":
        try:
            return sim.RayEngine(args.address, num_cpus=args.workers)
        except sim.EngineUnavailable as exc:
            raise UsageError(str(exc)) from None
        except sim.EngineError as exc:
            raise Failure(str(exc)) from None
    workers = min(args.workers or os.cpu_count() or 1, max(1, total))
    return sim.InProcess() if workers <= 1 else sim.LocalPool(workers)


def _open_jsonl(path: str) -> IO[str]:
    try:
        return open(path, "w", encoding="utf-8", buffering=1)  # line-buffered: watch it grow
    except OSError as exc:
        raise Failure(f"cannot write {path}: {exc.strerror or exc}") from None


def print_summaries(summaries: Sequence[Mapping[str, Any]], heading: str, partial: str | None = None) -> None:
    """The summary table of ``summaries`` (``Tally.to_data()``) under a heading line."""
    console = Console(highlight=False, soft_wrap=True)
    if not console.is_terminal:
        console.width = 200  # a file or a pipe: never squeeze the columns
    console.print(heading)
    if partial:
        console.print(partial)
    console.print()
    console.print(summary_table(summaries))
    console.print(INTERVALS.format(0.95))


def _write_record(folder: Path, simulation: sim.Simulation, index: int) -> None:
    """Write the record of game ``index`` of ``simulation`` (played again here, seeded alike)."""
    record = play_bots(
        simulation.ruleset(),
        simulation.seat_bots,
        seed=simulation.seed,
        index=index,
        max_actions=simulation.max_actions,
        headers={"Label": simulation.label},
    )
    name = re.sub(r"[^A-Za-z0-9_.=-]+", "_", simulation.label)
    path = folder / f"{name}-{index:06d}.unorules"
    try:
        path.write_text(record.dumps(), encoding="utf-8")
    except OSError as exc:
        raise Failure(f"cannot write the record {path}: {exc}") from None


def run(args: argparse.Namespace) -> int:
    """Run ``unorules simulate``."""
    args.bots = [*(args.bots or []), *args.bot] or ["heuristic", "random"]
    seed = args.seed if args.seed is not None else random_seed()
    if args.address is not None and args.engine != "ray":
        raise UsageError("--address is for --engine ray (the Ray cluster to join)")
    simulations = _simulations(args, seed)
    if args.plot:
        _check_plot_path(args.plot)
    games: int = args.games
    total = games * len(simulations)
    jsonl = _open_jsonl(args.jsonl) if args.jsonl else None
    tallies = {s.label: s.tally() for s in simulations}
    by_label = {s.label: s for s in simulations}
    if args.records:
        try:
            Path(args.records).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise Failure(f"cannot create the records folder {args.records}: {exc}") from None
    interrupted = False
    broken: str | None = None
    try:
        engine = _engine(args, total)
        bar = _Progress(total, not args.quiet and sys.stderr.isatty(), sys.stderr)
        started = time.monotonic()
        try:
            with contextlib.closing(sim.run(simulations, games, engine=engine)) as results:
                for result in results:
                    tallies[result.rules].add(result)
                    if jsonl is not None:
                        jsonl.write(result.to_json() + "\n")
                    if args.records:
                        _write_record(Path(args.records), by_label[result.rules], result.index)
                    bar.advance(1)
        except KeyboardInterrupt:
            interrupted = True
        except sim.EngineError as exc:
            broken = str(exc)
        finally:
            bar.close()
            engine.close()
    except OSError as exc:
        raise Failure(f"cannot write {args.jsonl}: {exc.strerror or exc}") from None
    finally:
        if jsonl is not None:
            jsonl.close()
    elapsed = time.monotonic() - started
    done = [tallies[s.label] for s in simulations]
    versus = done.pop() if args.head_to_head else None
    summaries = [t.to_data() for t in done]
    versus_summary = versus.to_data() if versus is not None else None
    played_all = done + ([versus] if versus is not None else [])
    played = sum(t.games + t.failed for t in played_all)
    if args.plot and not interrupted:
        write_plot(args.plot, done, f"{games} games of {args.players} players, bots {','.join(args.bots)}")
    if args.json:
        data = {
            "command": "simulate",
            "version": __version__,
            "seed": seed,
            "games": games,
            "players": args.players,
            "bots": list(args.bots),
            "engine": args.engine,
            "complete": played == total,
            "results": summaries,
            "head_to_head": versus_summary,
            "elapsed_seconds": round(elapsed, 3),
        }
        print(json.dumps(data, indent=2))
    else:
        seats = ",".join(summaries[0]["seat_bots"])
        where = f"{engine.workers} worker(s)" if args.engine == "local" else f"Ray ({engine.workers} CPUs)"
        print_summaries(
            summaries,
            f"{games} games of {args.players} players, seed {seed!r}, bots by seat {seats}, "
            f"{elapsed:.1f}s on {where}",
            None if played == total else f"partial results: {played} of {total} games played",
        )
        if versus_summary is not None and versus_summary["games"]:
            print()
            print(head_to_head_line(versus_summary, summaries[0]["rules"]))
        if args.plot and not interrupted:
            print()
            print(f"chart written to {args.plot}")
        if args.jsonl:
            print(f"one line per game written to {args.jsonl}")
    if broken is not None:
        lost = "; ".join(
            f"{t.rules} games {_ranges(t.lost_games)}{' and more' if t.lost > len(t.lost_games) else ''}"
            for t in played_all
            if t.lost
        )
        count = sum(t.lost for t in played_all)
        raise Failure(
            f"{broken}; {count} game(s) lost ({lost}); the summary above covers the {played} games played"
        )
    if interrupted:
        error(f"interrupted after {played} of {total} games; the summary above covers those")
        return EXIT_INTERRUPTED
    failure = _failures(played_all, seed)
    if failure is not None:
        raise Failure(failure)
    return EXIT_OK

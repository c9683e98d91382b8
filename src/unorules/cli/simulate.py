"""``unorules simulate``: many seeded games between bots, summarised (a layer over :mod:`unorules.sim`)."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import os
import re
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from unorules import __version__, sim
from unorules.bots import BOTS
from unorules.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    Failure,
    UsageError,
    add_rules_arguments,
    bot_names,
    build_ruleset,
    error,
    options_for,
    parse_options,
    players_arg,
    positive,
    random_seed,
    seed_arg,
    split_names,
)
from unorules.errors import RulesetError
from unorules.record import play_bots
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
    parser.add_argument("--players", type=players_arg, default=4, help="seats per game, 2 to 10 (default 4)")
    parser.add_argument(
        "--bots",
        type=bot_names,
        default=["heuristic", "random"],
        metavar="NAMES",
        help=f"bots cycled over the seats ({', '.join(BOTS)}; default heuristic,random)",
    )
    parser.add_argument("--seed", type=seed_arg, help="seed of the whole run (default: random, printed)")
    parser.add_argument(
        "--compare",
        nargs="+",
        metavar="NAMES",
        help="two or more rule sets side by side, e.g. --compare classic classic,stacking "
        "(each --option goes to the rule sets whose plugins declare it)",
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


def _summary_table(summaries: Sequence[Mapping[str, Any]]) -> str:
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


def svg_chart(results: Sequence[Tally]) -> str:
    """An SVG document: the distribution of round lengths and of rounds per game, per rule set."""
    width, height = 720.0, 300.0
    panels = [
        ({r.rules: list(r.round_lengths.elements()) for r in results}, "Round length", "actions per round"),
        ({r.rules: list(r.game_rounds.elements()) for r in results}, "Game length", "rounds per game"),
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


def _write_plot(path: str, results: Sequence[Tally]) -> None:
    try:
        if path.lower().endswith(".png"):
            mpl = _matplotlib()
            mpl.use("Agg")
            pyplot = importlib.import_module("matplotlib.pyplot")
            fig, axes = pyplot.subplots(2, 1, figsize=(7.2, 6.0))
            for ax, attr, title in (
                (axes[0], "round_lengths", "actions per round"),
                (axes[1], "game_rounds", "rounds per game"),
            ):
                for r in results:
                    ax.hist(
                        list(getattr(r, attr).elements()),
                        bins=30,
                        histtype="step",
                        density=True,
                        label=r.rules,
                    )
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
    unused = [k for k in options if not any(k in o for _, _, o in specs)]
    if unused:
        rules = " ".join(specs_text)
        raise UsageError(f"option {unused[0]!r} belongs to no plugin of {rules}; see 'unorules rules'")
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
                    options=own,
                    max_actions=args.max_actions,
                )
            )
        except RulesetError as exc:
            raise UsageError(f"rule set {label}: {exc}") from None
    return simulations


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
    print(heading)
    if partial:
        print(partial)
    print()
    print(_summary_table(summaries))


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
    summaries = [t.to_data() for t in done]
    played = sum(t.games + t.failed for t in done)
    if args.plot and not interrupted:
        _write_plot(args.plot, done)
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
        if args.plot and not interrupted:
            print()
            print(f"chart written to {args.plot}")
        if args.jsonl:
            print(f"one line per game written to {args.jsonl}")
    if broken is not None:
        lost = "; ".join(
            f"{t.rules} games {_ranges(t.lost_games)}{' and more' if t.lost > len(t.lost_games) else ''}"
            for t in done
            if t.lost
        )
        count = sum(t.lost for t in done)
        raise Failure(
            f"{broken}; {count} game(s) lost ({lost}); the summary above covers the {played} games played"
        )
    if interrupted:
        error(f"interrupted after {played} of {total} games; the summary above covers those")
        return EXIT_INTERRUPTED
    failure = _failures(done, seed)
    if failure is not None:
        raise Failure(failure)
    return EXIT_OK

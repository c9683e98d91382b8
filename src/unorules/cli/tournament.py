"""``unorules tournament``: a round robin of bots, heads-up, and their ratings with confidence intervals."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
import time
from collections import Counter
from typing import Any

from rich.console import Console
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
    positive,
    random_seed,
    rate_words,
    rules_label,
    seed_arg,
    unknown_option,
)
from unorules.cli.simulate import TimeLeft, _engine, _Progress
from unorules.errors import RulesetError

__all__ = ["DEFAULT_BOTS", "add_parser", "run"]

DEFAULT_BOTS = ["random", "greedy", "heuristic", "search"]
"""The bots ``unorules tournament`` rates when none are named."""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``tournament`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "tournament",
        help="rate bots: a heads-up round robin and Bradley-Terry ratings with confidence intervals",
        description="Play every pair of bots heads-up (half the games with each bot first) and rate them: "
        "a Bradley-Terry fit on the Elo scale (400 points more is ten to one odds), ratings averaging "
        "1000, with confidence intervals. Game i of a pair is seeded from (seed, i), so the same seed "
        "gives the same results with any number of workers (bots with a time budget aside).",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--bots",
        type=bot_names,
        default=None,
        metavar="NAMES",
        help=f"the bots to rate ({', '.join(BOTS)}, or {', '.join(k + ':...' for k in BOT_KINDS)}; "
        f"default {','.join(DEFAULT_BOTS)})",
    )
    parser.add_argument(
        "--bot",
        type=bot_name,
        action="append",
        default=[],
        metavar="NAME",
        help="one more bot to rate (repeatable), e.g. --bot 'cmd:node mybot.js'",
    )
    parser.add_argument(
        "--games", type=positive, default=30, help="games per pair and first seat (default 30)"
    )
    parser.add_argument("--seed", type=seed_arg, help="seed of the whole run (default: random, printed)")
    parser.add_argument(
        "--confidence",
        type=float,
        default=0.95,
        help="the confidence of the intervals, between 0 and 1 (default 0.95)",
    )
    parser.add_argument(
        "--workers", type=positive, default=None, help="processes to use (default: every core)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(engine="local", address=None)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``unorules tournament``."""
    bots = list(dict.fromkeys([*(args.bots or []), *args.bot] or DEFAULT_BOTS))
    if len(bots) < 2:
        raise UsageError("a tournament needs two different bots at least, e.g. --bots heuristic,random")
    if not 0 < args.confidence < 1:
        raise UsageError(f"--confidence must be between 0 and 1, not {args.confidence}")
    seed = args.seed if args.seed is not None else random_seed()
    options = parse_options(args.option)
    own = options_for(args.rules, options)
    unused = [k for k in options if k not in own]
    if unused:
        raise unknown_option(unused[0], args.rules)
    ruleset = build_ruleset(args.rules, own)
    label = ",".join(ruleset.names)
    try:
        given = ruleset.spec()["options"]  # a rulebook's own options as well
        simulations = sim.round_robin(ruleset, bots, seed=seed, label=label, options=given)
    except RulesetError as exc:
        raise UsageError(f"rule set {label}: {exc}") from None
    games: int = args.games
    total = games * len(simulations)
    results: list[sim.GameResult] = []
    interrupted = False
    engine = _engine(args, total)
    time_left = TimeLeft({s.label: s.seat_bots for s in simulations}, games)
    bar = _Progress(total, not args.quiet and sys.stderr.isatty(), sys.stderr, time_left)
    started = time.monotonic()
    try:
        with contextlib.closing(sim.run(simulations, games, engine=engine, probe=True)) as stream:
            for result in stream:
                results.append(result)
                bar.advance(1, result.rules)
    except KeyboardInterrupt:
        interrupted = True
    except sim.EngineError as exc:
        raise Failure(str(exc)) from None
    finally:
        bar.close()
        engine.close()
    elapsed = time.monotonic() - started
    failed = [r for r in results if r.status != "over"]
    wins = sim.pair_wins(results)
    if not any(wins.values()):
        error("no game was played to its end: nothing to rate")
        return EXIT_INTERRUPTED if interrupted else 1
    ratings = sim.bradley_terry(wins, bots, confidence=args.confidence)
    if args.json:
        print(json.dumps(_data(args, bots, seed, ratings, wins, elapsed, len(results), total), indent=2))
    else:
        shown = rules_label(args.rules, ruleset.names)
        _print(args, shown, bots, seed, ratings, wins, elapsed, engine.workers, len(results), total)
    if interrupted:
        error(f"interrupted after {len(results)} of {total} games; the ratings above cover those")
        return EXIT_INTERRUPTED
    if failed:
        first = min(failed, key=lambda r: (r.rules, r.index))
        raise Failure(
            f"{len(failed)} game(s) did not end by the rules, e.g. game {first.index} of {first.rules} "
            f"(seed {seed!r}): {first.reason}"
        )
    return EXIT_OK


def _data(
    args: argparse.Namespace,
    bots: list[str],
    seed: int | str,
    ratings: list[sim.Rating],
    wins: Counter[tuple[str, str]],
    elapsed: float,
    played: int,
    total: int,
) -> dict[str, Any]:
    return {
        "command": "tournament",
        "version": __version__,
        "rules": args.rules,
        "seed": seed,
        "games_per_pair": 2 * args.games,
        "bots": bots,
        "confidence": args.confidence,
        "complete": played == total,
        "ratings": [r.to_data() for r in ratings],
        "wins": [{"winner": a, "loser": b, "games": n} for (a, b), n in sorted(wins.items())],
        "elapsed_seconds": round(elapsed, 3),
    }


def _print(
    args: argparse.Namespace,
    shown: str,
    bots: list[str],
    seed: int | str,
    ratings: list[sim.Rating],
    wins: Counter[tuple[str, str]],
    elapsed: float,
    workers: int,
    played: int,
    total: int,
) -> None:
    console = Console(highlight=False, soft_wrap=True)
    if not console.is_terminal:
        console.width = 200
    console.print(
        f"{len(bots)} bots heads-up on {shown}, {2 * args.games} games per "
        "pair (half with each bot "
        f"first), seed {seed!r}, {elapsed:.1f}s on {workers} worker(s)"
    )
    if played != total:
        console.print(f"partial results: {played} of {total} games played")
    console.print()
    table = Table(show_edge=False, header_style="bold")
    for heading in ("bot", "rating", f"{round(100 * args.confidence)}% interval", "games", "won"):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for r in ratings:
        table.add_row(r.bot, f"{r.rating:.0f}", f"{r.low:.0f} to {r.high:.0f}", str(r.games), str(r.wins))
    console.print(table)
    console.print()
    order = [r.bot for r in ratings]
    grid = Table(show_edge=False, header_style="bold", title="share of the games the row's bot won")
    grid.add_column("")
    for bot in order:
        grid.add_column(bot, justify="right")
    for a in order:
        cells = []
        for b in order:
            n = wins[a, b] + wins[b, a]
            cells.append("" if a == b or not n else rate_words(wins[a, b] / n, n, args.confidence))
        grid.add_row(a, *cells)
    console.print(grid)
    console.print(INTERVALS.format(args.confidence))
    overlap = [f"{hi.bot} and {lo.bot}" for hi, lo in itertools.pairwise(ratings) if hi.low <= lo.high]
    console.print()
    if overlap:
        console.print(f"the intervals of {', '.join(overlap)} overlap: play more games to tell them apart")
    else:
        console.print("no two intervals overlap: the ladder's order is clear")

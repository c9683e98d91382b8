"""``unorules summarize``: the summary of games written by ``simulate --jsonl``, rebuilt from the file."""

from __future__ import annotations

import argparse
import json
from typing import Any

from unorules import __version__, sim
from unorules.cli.common import EXIT_OK, Failure
from unorules.cli.simulate import print_summaries


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``summarize`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "summarize",
        help="rebuild simulate's summary from the files of 'simulate --jsonl'",
        description="Read the JSON lines 'unorules simulate --jsonl FILE' wrote (one per game, in any "
        "order, an interrupted run included) and print the same summary simulate printed.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="files written by simulate --jsonl")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser


def read_results(path: str) -> list[sim.GameResult]:
    """Every game result of a ``--jsonl`` file (a failure naming the line if one is not a result)."""
    results = []
    try:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    results.append(sim.GameResult.from_json(line))
                except ValueError as exc:
                    raise Failure(f"{path}, line {number}: {exc}") from None
    except OSError as exc:
        raise Failure(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise Failure(f"cannot read {path}: it is not UTF-8 text") from None
    return results


def run(args: argparse.Namespace) -> int:
    """Run ``unorules summarize``."""
    tallies: dict[str, sim.Tally] = {}
    seeds: list[int | str] = []
    count = 0
    for path in args.files:
        for result in read_results(path):
            tally = tallies.get(result.rules)
            if tally is None:
                tally = tallies[result.rules] = sim.Tally.for_result(result)
            try:
                tally.add(result)
            except ValueError as exc:
                raise Failure(f"{path}: {exc}") from None
            if result.seed not in seeds:
                seeds.append(result.seed)
            count += 1
    if not tallies:
        raise Failure(f"no game results in {', '.join(args.files)}")
    summaries = [t.to_data() for t in tallies.values()]
    if args.json:
        data = {
            "command": "summarize",
            "version": __version__,
            "files": list(args.files),
            "seeds": seeds,
            "results": summaries,
        }
        print(json.dumps(data, indent=2))
        return EXIT_OK
    players = sorted({t.players for t in tallies.values()})
    seats = ",".join(summaries[0]["seat_bots"])
    print_summaries(
        summaries,
        f"{count} games from {', '.join(args.files)}: {'/'.join(map(str, players))} players, "
        f"seed(s) {', '.join(map(repr, seeds[:5]))}{' ...' if len(seeds) > 5 else ''}, bots by seat {seats}",
    )
    return EXIT_OK

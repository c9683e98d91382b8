"""How good ``unorules tournament``'s time left is: a round robin of a fast and a slow bot,
played in this process, with the estimates a quarter of the way through set against the time
the rest then took, for the run in pair order and with game 0 of every pair first (``probe``).

    .venv/bin/python benchmarks/time_left.py --games 8

"per pair" is :class:`unorules.cli.simulate.TimeLeft` (what the progress bar shows); "overall
rate" is the time so far per game times the games left (rich's estimate, the one it replaced).
"""

from __future__ import annotations

import argparse
import time

from unorules import Ruleset, sim
from unorules.cli.simulate import TimeLeft


def measure(bots: list[str], games: int, probe: bool) -> tuple[float, float, float]:
    """The per-pair estimate, the overall-rate estimate and the actual seconds left, at a quarter."""
    pairs = sim.round_robin(Ruleset.from_names(["classic"]), bots, seed=1)
    total = games * len(pairs)
    left = TimeLeft({p.label: p.seat_bots for p in pairs}, games)
    started = time.monotonic()
    at, ours, naive = started, 0.0, 0.0
    for done, result in enumerate(sim.run(pairs, games, engine=sim.InProcess(), probe=probe), 1):
        left.add(result.rules)
        if done == max(1, total // 4):
            at = time.monotonic()
            ours = left.seconds() or 0.0
            naive = (at - started) / done * (total - done)
    return ours, naive, time.monotonic() - at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games per pair and first seat (default 8)")
    parser.add_argument("--bots", default="random,heuristic,search:5ms", help="the bots (%(default)s)")
    args = parser.parse_args()
    bots = args.bots.split(",")
    for probe in (False, True):
        ours, naive, actual = measure(bots, args.games, probe)
        print(
            f"{'game 0 of every pair first' if probe else 'pairs in order':28} at a quarter: per pair "
            f"{ours:6.1f} s ({ours / actual:.2f} of actual), overall rate {naive:6.1f} s "
            f"({naive / actual:.2f}), actual {actual:6.1f} s"
        )


if __name__ == "__main__":
    main()

"""A long soak of the embedding checks, outside the test suite.

Runs many random states of every combination of the installed plugins (with
``classic``) through :func:`~unorules.testing.embedding.check_pickle_round_trip`
(``pickle``, ``cloudpickle``, ``copy.deepcopy``: equal, interned, plays on
alike), :func:`~unorules.testing.embedding.check_view_secrets` (no view
depends on what its seat may not know) and the ``events`` invariant::

    python -m unorules.testing.soak --states 100000 --workers 8   # the full soak
    python -m unorules.testing.soak --states 200 --max-extra 1    # a short one

It prints one line per combination and a summary, and exits 1 at the first
violation, naming the rule set, the player count, the seed and the step.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import sys
import time
from collections.abc import Sequence

import attrs

from unorules.ruleset import Ruleset
from unorules.testing.embedding import check_pickle_round_trip, check_view_secrets, random_states
from unorules.testing.invariants import InvariantViolation, check_events
from unorules.testing.strategies import build_ruleset, buildable_combinations, supported_players

__all__ = ["SoakResult", "main", "soak_combination"]


@attrs.frozen
class SoakResult:
    """What the soak of one combination did: states checked, view comparisons
    made, and the first violation (``None`` if there was none)."""

    combo: tuple[str, ...]
    states: int
    comparisons: int
    seconds: float
    violation: str | None = None


def soak_combination(combo: tuple[str, ...], states: int, seed: str = "soak") -> SoakResult:
    """Check ``states`` random states of the rule set ``combo`` (seeded games
    of 200 actions, the player counts it supports in turn)."""
    started = time.monotonic()
    rules = build_ruleset(combo)
    if not isinstance(rules, Ruleset):
        return SoakResult(combo, 0, 0, 0.0, f"does not build: {rules}")
    counts = supported_players(rules, (2, 3, 4, 5, 6)) or supported_players(rules)
    done = comparisons = game = 0
    while done < states:
        players = counts[game % len(counts)]
        game_seed = f"{seed}/{'+'.join(combo)}/{game}"
        for step, state in enumerate(random_states(rules, players, game_seed, steps=200)):
            try:
                check_events(state)
                check_pickle_round_trip(state, play_on=1)
                comparisons += check_view_secrets(state, tries=1)
            except InvariantViolation as exc:
                where = f"{','.join(combo)}, {players} players, seed {game_seed!r}, step {step}"
                return SoakResult(combo, done, comparisons, time.monotonic() - started, f"{where}: {exc}")
            done += 1
            if done >= states:
                break
        game += 1
    return SoakResult(combo, done, comparisons, time.monotonic() - started)


def _soak(args: tuple[tuple[str, ...], int, str]) -> SoakResult:
    return soak_combination(*args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the soak; returns the exit status (0, or 1 at a violation)."""
    parser = argparse.ArgumentParser(
        prog="python -m unorules.testing.soak", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--states", type=int, default=100_000, help="states per combination (default 100000)")
    parser.add_argument(
        "--max-extra", type=int, default=None, help="at most this many plugins besides classic"
    )
    parser.add_argument(
        "--plugins", default=None, help="only combinations of these plugins (comma-separated)"
    )
    parser.add_argument("--seed", default="soak", help="seed of the games (default 'soak')")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    names = None if args.plugins is None else [n for n in args.plugins.split(",") if n]
    combos = buildable_combinations(names, max_size=args.max_extra)
    started = time.monotonic()
    total = comparisons = 0
    jobs = [(combo, args.states, args.seed) for combo in combos]
    pool = concurrent.futures.ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for result in map(_soak, jobs) if pool is None else pool.map(_soak, jobs):
            total += result.states
            comparisons += result.comparisons
            print(
                f"{'+'.join(result.combo)}: {result.states} states, "
                f"{result.comparisons} view comparisons, {result.seconds:.1f}s",
                flush=True,
            )
            if result.violation is not None:
                print(f"VIOLATION {result.violation}", file=sys.stderr)
                return 1
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    elapsed = time.monotonic() - started
    print(
        f"soak passed: {len(combos)} combinations, {total} states ({args.states} each), "
        f"{comparisons} view comparisons, no violation, {elapsed:.0f}s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

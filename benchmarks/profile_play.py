"""Profile random play, to find where an action's time goes.

    .venv/bin/python benchmarks/profile_play.py                       # classic, 4 players, cProfile
    .venv/bin/python benchmarks/profile_play.py --plugins classic,stacking --players 2
    .venv/bin/python benchmarks/profile_play.py --pyinstrument   # after .venv/bin/pip install pyinstrument

Plays ``--games`` seeded games the way ``run.py`` does and prints the
functions that take the most time (cProfile, sorted by own time) or
pyinstrument's call tree.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

from run import all_plugins_ruleset, play_unorules, shipped_plugins

import unorules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugins", default="classic", help="comma-separated plugin names")
    parser.add_argument("--all-plugins", action="store_true", help="run.py's 'all plugins' rule set")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--top", type=int, default=25, help="functions to list")
    parser.add_argument("--pyinstrument", action="store_true", help="use pyinstrument instead of cProfile")
    args = parser.parse_args(argv)
    if args.all_plugins:
        rules = all_plugins_ruleset(shipped_plugins())[0]
    else:
        rules = unorules.Ruleset.from_names([n for n in args.plugins.split(",") if n])
    print(rules)

    def work() -> int:
        return sum(play_unorules(rules, args.players, seed)[0] for seed in range(args.games))

    start = time.perf_counter()
    actions = work()
    plain = time.perf_counter() - start
    print(f"{actions} actions in {plain:.2f} s without a profiler: {actions / plain:,.0f} actions/s")
    if args.pyinstrument:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0005)
        profiler.start()
        work()
        profiler.stop()
        print(profiler.output_text(unicode=False, color=False, show_all=False))
        return 0
    profile = cProfile.Profile()
    profile.enable()
    work()
    profile.disable()
    pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fingerprint of seeded random games, to show an optimisation changed no behaviour.

    .venv/bin/python benchmarks/digest.py                 # classic, 2-4 players
    .venv/bin/python benchmarks/digest.py --plugins classic,stacking --games 20

Plays ``--games`` games per player count with seeded uniform random choices
and hashes every state's JSON and legal actions. Run it before and after a
change to the hot path: the same digest means the same games, state for state.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys

from run import all_plugins_ruleset, shipped_plugins

import unorules


def digest(rules: unorules.Ruleset, games: int, players: tuple[int, ...]) -> tuple[str, int]:
    """The SHA-256 of every state of the games played, and the number of states."""
    h = hashlib.sha256()
    count = 0
    for n in players:
        for seed in range(games):
            state = rules.new_game(players=n, seed=seed)
            choose = random.Random(seed).choice
            while True:
                legal = state.legal_actions()
                h.update(state.to_json().encode())
                h.update(" ".join(map(str, legal)).encode())
                count += 1
                if not legal:
                    break
                state = state.apply(choose(legal))
    return h.hexdigest(), count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugins", default="classic", help="comma-separated plugin names")
    parser.add_argument("--all-plugins", action="store_true", help="run.py's 'all plugins' rule set")
    parser.add_argument("--games", type=int, default=3, help="games per player count")
    parser.add_argument("--players", default="2,3,4", help="comma-separated player counts")
    args = parser.parse_args(argv)
    if args.all_plugins:
        rules = all_plugins_ruleset(shipped_plugins())[0]
    else:
        rules = unorules.Ruleset.from_names([n for n in args.plugins.split(",") if n])
    players = tuple(int(p) for p in args.players.split(","))
    value, count = digest(rules, args.games, players)
    print(f"{value}  {count} states  {rules!r} players={args.players} games={args.games}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

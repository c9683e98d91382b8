"""A bot tournament: every pair of bots plays seeded heads-up games.

Three bots take part: the library's :class:`~unorules.bots.RandomBot` and
:class:`~unorules.bots.HeuristicBot`, and a ``GreedyBot`` written here to show
how small a bot can be. Each pairing plays the same seeded deals twice, once
from each seat, so neither bot profits from the seat it sits in. The table
printed at the end is each row bot's share of wins against each column bot::

    .venv/bin/python examples/bot_tournament.py [games per pairing]
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable

import unorules
from unorules import Action, SeatView
from unorules.bots import Bot, HeuristicBot, RandomBot, play_game


class GreedyBot:
    """Calls UNO, catches, then plays the first card it may, else draws."""

    name = "greedy"

    def __init__(self, seed: object = None) -> None:
        del seed  # deterministic: needs no randomness

    def choose(self, view: SeatView) -> Action | None:
        actions = view.legal_actions
        for verb in ("uno", "catch"):
            for action in actions:
                if action.verb == verb:
                    return action
        if view.current_player != view.seat:
            return None
        for verb in ("play", "draw", "accept", "pass"):
            for action in actions:
                if action.verb == verb:
                    return action
        return actions[0]


BOTS: dict[str, Callable[[str], Bot]] = {
    "heuristic": lambda seed: HeuristicBot(seed),
    "greedy": lambda seed: GreedyBot(seed),
    "random": lambda seed: RandomBot(seed),
}


def duel(first: str, second: str, games: int, rules: unorules.Ruleset) -> float:
    """The share of ``games`` (played from both seats) that ``first`` wins against ``second``."""
    wins = 0
    for game in range(games):
        seat_of_first = game % 2
        names = [first, second] if seat_of_first == 0 else [second, first]
        state = rules.new_game(players=2, seed=f"tournament/{game // 2}")
        bots = [BOTS[name](f"{game}/{s}") for s, name in enumerate(names)]
        final = play_game(state, bots)
        wins += final.winner == seat_of_first
    return wins / games


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rules = unorules.Ruleset.from_names(["classic"], options={"target_score": 200})
    names = list(BOTS)
    share: dict[tuple[str, str], float] = {}
    for a, b in itertools.combinations(names, 2):
        share[a, b] = duel(a, b, games, rules)
        share[b, a] = 1.0 - share[a, b]
    print(f"heads-up win rates over {games} games per pairing (row against column)")
    print(" " * 10 + "".join(f"{n:>10}" for n in names))
    for a in names:
        cells = "".join(f"{'-':>10}" if a == b else f"{share[a, b]:>10.0%}" for b in names)
        print(f"{a:<10}{cells}")
    ranking = sorted(names, key=lambda n: -sum(share[n, o] for o in names if o != n))
    print("ranking:", " > ".join(ranking))
    return 0


if __name__ == "__main__":
    sys.exit(main())

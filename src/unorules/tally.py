"""The summary of a simulation's results (:mod:`unorules.sim`, re-exported there).

:class:`Tally` adds results up into the summary ``unorules simulate`` prints,
in constant memory and in any order; :func:`summarize` tallies a stream of
results by rule set.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unorules.sim import GameResult, OptionValue

__all__ = ["MAX_EXAMPLES", "Tally", "summarize"]


MAX_EXAMPLES = 20
"""How many failed or lost games a :class:`Tally` remembers (the lowest indexes)."""


class Tally:
    """The running summary of one rule set's results: constant memory, order independent.

    Lengths are kept as counts per value, so medians and percentiles are
    exact whatever the number of games. ``add`` results in any order; the
    summary is the same. ``rules`` is the rule set's label, ``plugins`` its
    plugin names, ``options`` its options and ``seat_bots`` the bot of each seat.
    """

    def __init__(
        self,
        rules: str,
        plugins: Sequence[str],
        options: Iterable[tuple[str, OptionValue]],
        seat_bots: Sequence[str],
    ) -> None:
        self.rules = rules
        self.plugins = tuple(plugins)
        self.options = dict(options)
        self.seat_bots = tuple(seat_bots)
        self.players = len(self.seat_bots)
        self.games = 0
        self.failed = 0
        self.lost = 0
        self.failures: list[tuple[int, str]] = []
        """The lowest-indexed failed games (``index, reason``), at most :data:`MAX_EXAMPLES`."""
        self.lost_games: list[int] = []
        """The lowest indexes of lost games, at most :data:`MAX_EXAMPLES`."""
        self.round_lengths: Counter[int] = Counter()
        """How many rounds took each number of actions."""
        self.game_rounds: Counter[int] = Counter()
        """How many games took each number of rounds."""
        self.game_actions: Counter[int] = Counter()
        """How many games took each number of actions."""
        self.points = 0
        self.seat_wins = [0] * self.players
        self.seat_round_wins = [0] * self.players
        self.bot_wins: Counter[str] = Counter()
        self.first_player_round_wins = 0
        self.first_player_game_wins = 0

    @classmethod
    def for_result(cls, result: GameResult) -> Tally:
        """An empty tally for results like ``result``."""
        return cls(result.rules, result.plugins, result.options, result.bots)

    def add(self, result: GameResult) -> None:
        """Count one result (``ValueError`` if it belongs to another rule set or table)."""
        if result.rules != self.rules or result.bots != self.seat_bots:
            raise ValueError(
                f"result of game {result.index} ({result.rules}, bots {','.join(result.bots)}) "
                f"does not belong to {self.rules} with bots {','.join(self.seat_bots)}"
            )
        if result.status == "failed":
            self.failed += 1
            _keep_lowest(self.failures, (result.index, result.reason))
            return
        if result.status == "lost":
            self.lost += 1
            _keep_lowest(self.lost_games, result.index)
            return
        self.games += 1
        self.round_lengths.update(result.round_actions)
        self.game_rounds[result.rounds] += 1
        self.game_actions[result.actions] += 1
        self.points += sum(result.round_points)
        for seat in result.winners:
            self.seat_wins[seat] += 1
        for bot in {self.seat_bots[s] for s in result.winners}:
            self.bot_wins[bot] += 1
        for winner, starter in zip(result.round_winners, result.round_starters, strict=True):
            if winner is not None:
                self.seat_round_wins[winner] += 1
                if winner == starter:
                    self.first_player_round_wins += 1
        if result.round_starters and result.round_starters[0] in result.winners:
            self.first_player_game_wins += 1

    @property
    def rounds(self) -> int:
        """The rounds of the games that ended."""
        return sum(self.round_lengths.values())

    @property
    def actions(self) -> int:
        """The actions of those rounds."""
        return sum(n * k for n, k in self.round_lengths.items())

    def to_data(self) -> dict[str, Any]:
        """The summary as JSON-able data (the same for any engine, worker count or order)."""
        games = self.games
        rounds = self.rounds
        actions = self.actions
        bot_names = sorted(set(self.seat_bots))
        bot_wins = {b: self.bot_wins[b] for b in bot_names}
        return {
            "rules": self.rules,
            "plugins": list(self.plugins),
            "options": dict(self.options),
            "games": games,
            "failed": self.failed,
            "lost": self.lost,
            "rounds": rounds,
            "rounds_per_game": rounds / games if games else 0.0,
            "actions": actions,
            "actions_per_round": actions / rounds if rounds else 0.0,
            "actions_per_game": actions / games if games else 0.0,
            "round_length": {
                "median": _median(self.round_lengths),
                "p90": _rank(self.round_lengths, int(0.9 * rounds)) if rounds else 0,
                "max": max(self.round_lengths, default=0),
            },
            "points_per_round": self.points / rounds if rounds else 0.0,
            "seat_bots": list(self.seat_bots),
            "seat_wins": list(self.seat_wins),
            "seat_win_rate": [w / games if games else 0.0 for w in self.seat_wins],
            "seat_round_wins": list(self.seat_round_wins),
            "first_player_game_win_rate": self.first_player_game_wins / games if games else 0.0,
            "first_player_round_win_rate": self.first_player_round_wins / rounds if rounds else 0.0,
            "bot_seats": {b: self.seat_bots.count(b) for b in bot_names},
            "bot_wins": bot_wins,
            "bot_win_rate": {b: n / games if games else 0.0 for b, n in bot_wins.items()},
            "bot_round_win_rate": {
                b: sum(self.seat_round_wins[s] for s in range(self.players) if self.seat_bots[s] == b)
                / rounds
                if rounds
                else 0.0
                for b in bot_names
            },
        }

    def _bot_round_wins(self, bot: str) -> int:
        return sum(self.seat_round_wins[s] for s in range(self.players) if self.seat_bots[s] == bot)


def _keep_lowest(items: list[Any], item: Any) -> None:
    items.append(item)
    items.sort()
    del items[MAX_EXAMPLES:]


def _rank(counts: Counter[int], k: int) -> int:
    """The ``k``-th smallest value (from 0) of the multiset ``counts``."""
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if k < seen:
            return value
    raise IndexError(k)


def _median(counts: Counter[int]) -> float | int:
    n = sum(counts.values())
    if not n:
        return 0
    if n % 2:
        return _rank(counts, n // 2)
    return statistics.fmean([_rank(counts, n // 2 - 1), _rank(counts, n // 2)])


def summarize(
    results: Iterable[GameResult], on_result: Callable[[GameResult], None] | None = None
) -> dict[str, Tally]:
    """Add ``results`` up into one :class:`Tally` per rule set label, in order of first appearance.

    ``on_result`` is called with each result as it is counted (progress,
    writing it out). Results of one label with different bots raise ``ValueError``.
    """
    tallies: dict[str, Tally] = {}
    for result in results:
        tally = tallies.get(result.rules)
        if tally is None:
            tally = tallies[result.rules] = Tally.for_result(result)
        tally.add(result)
        if on_result is not None:
            on_result(result)
    return tallies

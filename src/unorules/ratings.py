"""Bots rated from their heads-up games (:mod:`unorules.sim`, re-exported there).

:func:`pair_wins` counts who beat whom in the results of a round robin
(:func:`unorules.sim.round_robin`); :func:`bradley_terry` fits the
Bradley-Terry model to those counts and gives each bot a :class:`Rating` on
the Elo scale (:data:`ELO`).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from unorules.sim import GameResult

__all__ = ["ELO", "Rating", "bradley_terry", "pair_wins"]


ELO = 400.0 / math.log(10.0)
"""Rating points per unit of the Bradley-Terry strength (the Elo scale: 400
points more means ten to one odds)."""


def pair_wins(results: Iterable[GameResult]) -> Counter[tuple[str, str]]:
    """Games won by each bot against each other bot in heads-up ``results``:
    ``wins[a, b]`` counts the games ``a`` won against ``b`` (games that did not
    end by the rules are left out)."""
    wins: Counter[tuple[str, str]] = Counter()
    for result in results:
        if result.status != "over" or len(result.bots) != 2 or len(result.winners) != 1:
            continue
        winner = result.winners[0]
        wins[result.bots[winner], result.bots[1 - winner]] += 1
    return wins


@attrs.frozen
class Rating:
    """A bot's strength on the Elo scale, from :func:`bradley_terry`."""

    bot: str
    """The bot's name."""
    rating: float
    """The rating: the ratings of a ladder average ``center``; 400 points more is ten to one odds."""
    low: float
    """The lower end of its confidence interval."""
    high: float
    """The upper end of its confidence interval."""
    games: int
    """The games it played."""
    wins: int
    """The games it won."""

    def to_data(self) -> dict[str, Any]:
        """The rating as JSON-able data."""
        return attrs.asdict(self)


def bradley_terry(
    wins: Mapping[tuple[str, str], float],
    bots: Sequence[str] | None = None,
    *,
    prior: float = 0.5,
    confidence: float = 0.95,
    center: float = 1000.0,
) -> list[Rating]:
    """Ratings of ``bots`` (default: every bot of ``wins``) by the Bradley-Terry
    model fitted to ``wins[a, b]``, the games ``a`` won against ``b``: the
    chance that ``a`` beats ``b`` is ``1 / (1 + 10 ** ((Rb - Ra) / 400))``.

    The fit maximises the likelihood (Newton's method), with ``prior`` games
    won by each side of every pair that met added to the counts (a weak prior
    that keeps a bot that won every game finite), ratings averaging
    ``center``. The ``confidence`` intervals come from the observed Fisher
    information (the ratings' covariance is the inverse of the likelihood's
    curvature), best first."""
    names = list(bots) if bots is not None else sorted({b for pair in wins for b in pair})
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    if n < 2:
        raise ValueError("ratings need two bots at least")
    won = [[0.0] * n for _ in range(n)]
    for (a, b), count in wins.items():
        if a in index and b in index and a != b:
            won[index[a]][index[b]] += count
    played = [[won[i][j] + won[j][i] for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(n):
            if played[i][j] > 0:
                won[i][j] += prior
                played[i][j] += 2 * prior
    strength = [0.0] * n
    info = [[0.0] * n for _ in range(n)]
    for _ in range(200):
        grad = [0.0] * n
        info = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(n):
                if i == j or not played[i][j]:
                    continue
                p = 1.0 / (1.0 + math.exp(strength[j] - strength[i]))
                grad[i] += won[i][j] - played[i][j] * p
                curve = played[i][j] * p * (1.0 - p)
                info[i][i] += curve
                info[i][j] -= curve
        cov = _pseudo_inverse(info)
        step = [sum(cov[i][k] * grad[k] for k in range(n)) for i in range(n)]
        strength = [s + d for s, d in zip(strength, step, strict=True)]
        mean = sum(strength) / n
        strength = [s - mean for s in strength]
        if max(abs(d) for d in step) < 1e-10:
            break
    cov = _pseudo_inverse(info)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    ratings = []
    for i, name in enumerate(names):
        spread = z * math.sqrt(max(cov[i][i], 0.0)) * ELO
        rating = center + strength[i] * ELO
        games = int(sum(round(played[i][j] - 2 * prior) for j in range(n) if played[i][j]))
        count = int(sum(round(won[i][j] - prior) for j in range(n) if played[i][j]))
        ratings.append(Rating(name, rating, rating - spread, rating + spread, games, count))
    return sorted(ratings, key=lambda r: -r.rating)


def _pseudo_inverse(info: list[list[float]]) -> list[list[float]]:
    """The Moore-Penrose inverse of a Bradley-Terry information matrix, whose
    rows sum to zero (``(H + J/n)^-1 - J/n``, ``J`` all ones), for a connected
    ladder; a ladder in pieces gets a small ridge instead."""
    n = len(info)
    a = [
        [info[i][j] + 1.0 / n + (1e-9 if i == j else 0.0) for j in range(n)]
        + [1.0 if i == k else 0.0 for k in range(n)]
        for i in range(n)
    ]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        if abs(lead) < 1e-300:
            raise ValueError("the ratings cannot be fitted: some bots never met the others")
        a[col] = [x / lead for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [[a[i][n + j] - 1.0 / n for j in range(n)] for i in range(n)]

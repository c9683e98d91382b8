"""unorules.vector.jit: the jitted masks and observations are the reference env's, game for game.

The same differential runs as tests/rl/test_vector.py (``vector_check.run``),
comparing at every step the JAX kernels' mask and observation beside the
NumPy batch's and the reference env's. Skipped without jax
(``pip install "unorules[jax]"``); UNORULES_REQUIRE_JAX=1 makes a missing
jax a failure instead.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("UNORULES_REQUIRE_JAX") != "1":
    pytest.importorskip("jax", reason='unorules.vector.jit needs jax: pip install "unorules[jax]"')

from vector_check import run

from unorules.vector import UnoBatch, VectorError
from unorules.vector.jit import JaxKernels

CASES = [
    # players, chooser, games, slots, limit, options
    (2, "heuristic", 60, 32, None, {}),
    (4, "heuristic", 40, 32, None, {}),
    (7, "heuristic", 24, 24, None, {}),
    (2, "random", 64, 32, 40, {}),
    (4, "random", 64, 32, 40, {}),
    (7, "random", 48, 24, 40, {}),
    (3, "random", 40, 20, 30, {"challenge": False}),
    (5, "random", 40, 20, 30, {"drawn_card": "must-play"}),
    (3, "heuristic", 20, 20, None, {"challenge": False, "uno_penalty": 4}),
]


@pytest.mark.parametrize(("players", "chooser", "games", "slots", "limit", "options"), CASES)
def test_the_jitted_masks_and_observations_are_the_references(
    players: int, chooser: str, games: int, slots: int, limit: int | None, options: dict[str, Any]
) -> None:
    report = run(players, games, slots, seed=players * 7 + games, chooser=chooser, options=options,
                 limit=limit, jit=True)  # fmt: skip
    assert report.mismatches == 0, report.first
    assert report.games >= games


def test_a_wrong_kernel_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    from unorules.vector import jit

    def wrong(s: Any, seats: Any, n: int) -> Any:  # the hand's count of the first card one off
        return real(s, seats, n).at[:, 0].add(1.0)

    real = jit._observe
    monkeypatch.setattr(jit, "_observe", wrong)
    report = run(2, 10, 8, seed=1, chooser="random", limit=10, jit=True)
    assert report.mismatches == 1
    assert "the jitted observation" in report.first


def test_seats_are_given_per_game() -> None:
    batch = UnoBatch(8, 3, seed=2)
    kernels = JaxKernels(batch)
    state = kernels.state()
    seats = np.arange(8) % 3
    np.testing.assert_array_equal(np.asarray(kernels.observe(state, seats)), batch.observe(seats))
    with pytest.raises(VectorError):
        kernels.observe(state, seats[:4])
    with pytest.raises(VectorError):
        JaxKernels("classic")  # type: ignore[arg-type]


def test_the_modules_example_runs() -> None:
    import doctest

    from unorules.vector import jit

    failures, tried = doctest.testmod(jit)
    assert tried > 0
    assert failures == 0

"""The REINFORCE example learns: its trained policy beats the untrained one significantly.

CI runs the reduced version (300 training episodes, each policy evaluated on
the same 300 seeded games of one round: 147 wins untrained, 243 trained, p about
1e-16, in two minutes on a loaded 2-core machine); the example's full run
(4,000 episodes, 1,000 games each) is marked ``slow`` and runs with
UNORULES_SLOW=1. Both require a one-sided two-proportion z-test p < 0.01.
Everything is seeded, so the outcome is the same on every run.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_reinforce.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_reinforce", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def _check(episodes: int, games: int = 1000) -> tuple[float, float, float]:
    example = _example()
    trained, curve = example.train(episodes, seed=0, block=50)
    untrained = example.LinearPolicy.untrained(example.make_env())
    wins_trained = example.evaluate(trained, games)
    wins_untrained = example.evaluate(untrained, games)
    p_value = example.two_proportion_p_value(wins_trained, wins_untrained, games)
    assert curve.points, "no learning-curve point was recorded"
    assert wins_trained > wins_untrained
    assert p_value < 0.01, (wins_trained, wins_untrained, p_value)
    return wins_trained / games, wins_untrained / games, p_value


def test_two_proportion_test() -> None:
    example = _example()
    assert example.two_proportion_p_value(500, 500, 1000) == pytest.approx(0.5)
    # 560 vs 500 of 1000: z = 2.69, one-sided p = 0.0036
    assert example.two_proportion_p_value(560, 500, 1000) == pytest.approx(0.0036, abs=2e-4)
    assert example.two_proportion_p_value(500, 560, 1000) > 0.99


def test_a_short_training_already_beats_the_untrained_policy() -> None:
    _check(episodes=300, games=300)


@pytest.mark.slow
def test_the_full_training_beats_the_untrained_policy() -> None:
    _check(episodes=4000)

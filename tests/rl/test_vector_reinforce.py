"""The batched REINFORCE example (examples/rl_vector_reinforce.py) learns.

A reduced run (25 updates of 64 steps in 128 games, a few seconds of
training) must beat the untrained policy on the first 60 of the seeded
evaluation rounds of examples/rl_reinforce.py, with a one-sided two-proportion z-test
p < 0.01. Everything is seeded. Needs torch (the CPU build); skipped without
it, saying how to get it (``UNORULES_REQUIRE_TORCH=1``, set by ``.ci/run``, makes that a failure).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

if os.environ.get("UNORULES_REQUIRE_TORCH") != "1":  # .ci/run installs torch and sets it
    pytest.importorskip("torch", reason="the example needs torch: pip install torch==2.13.0 (the CPU build)")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_vector_reinforce.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_vector_reinforce", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_short_training_beats_the_untrained_policy() -> None:
    example = _example()
    import torch

    torch.set_num_threads(1)
    trained, curve = example.train(25, envs=128, horizon=64, seed=0)
    games = 60  # the untrained policy's rounds are long: hundreds of actions each
    wins_trained = example.evaluate(trained, games)
    wins_untrained = example.evaluate(example.make_policy(0), games)
    p_value = example.two_proportion_p_value(wins_trained, wins_untrained, games)
    assert curve, "no learning-curve point was recorded"
    assert wins_trained > wins_untrained
    assert p_value < 0.01, (wins_trained, wins_untrained, p_value)


def test_two_proportion_test() -> None:
    example = _example()
    assert example.two_proportion_p_value(500, 500, 1000) == pytest.approx(0.5)
    assert example.two_proportion_p_value(560, 500, 1000) == pytest.approx(0.0036, abs=2e-4)
    assert example.two_proportion_p_value(500, 560, 1000) > 0.99

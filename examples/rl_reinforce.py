"""REINFORCE with a linear softmax policy, numpy only, against RandomBot.

The learner plays seat 0 of a two-player classic game (one round per episode,
reward +1 for winning it and -1 for losing) through the Gymnasium environment
``unorules/Uno-v0``; the opponent is :class:`~unorules.bots.RandomBot`. The
policy is a softmax over the legal action indices (``info["action_mask"]``) of
a linear function of the observation vector: everything it learns comes from
the observations. Training uses REINFORCE with a running-mean baseline.

    .venv/bin/python examples/rl_reinforce.py        # seconds: 50 episodes, 50 games
    .venv/bin/python examples/rl_reinforce.py --episodes 4000 --games 1000 --curve curve.csv  # minutes

At the end the trained and the untrained (uniform) policy each play the same
seeded evaluation games (``--games``), and a one-sided two-proportion z-test
says whether the trained policy wins significantly more often. Early rounds
are long (random play draws a lot); they get shorter as the policy learns to
shed its cards.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

import unorules.rl  # noqa: F401 - registers "unorules/Uno-v0"

Array = npt.NDArray[np.float64]


def make_env(seed_offset: int = 0) -> gymnasium.Env[Any, Any]:
    """The training and evaluation environment: seat 0 against RandomBot, one round."""
    del seed_offset
    return gymnasium.make(
        "unorules/Uno-v0",
        rules=["classic"],
        players=2,
        opponents="random",
        episode="round",
        reward="win",
        disable_env_checker=True,
    ).unwrapped


@dataclass
class LinearPolicy:
    """``softmax(W @ (x * scale) + b)`` restricted to the legal indices."""

    weights: Array
    bias: Array
    scale: Array

    @classmethod
    def untrained(cls, env: gymnasium.Env[Any, Any]) -> LinearPolicy:
        n = int(env.action_space.n)  # type: ignore[attr-defined]
        size = env.observation_space.shape[0]  # type: ignore[index]
        high = np.asarray(env.observation_space.high, dtype=np.float64)  # type: ignore[attr-defined]
        # Features in comparable units: counts and sizes divided by their bound
        # (at most a deck), everything else left as it is.
        scale = 1.0 / np.clip(high, 1.0, 108.0)
        return cls(np.zeros((n, size)), np.zeros(n), scale)

    def probabilities(self, x: Array, mask: npt.NDArray[np.int8]) -> tuple[Array, Array]:
        """The action probabilities and the scaled features they came from."""
        features = x * self.scale
        legal = mask.nonzero()[0]
        logits = self.weights[legal] @ features + self.bias[legal]
        logits -= logits.max()
        p = np.exp(logits)
        full = np.zeros(len(mask))
        full[legal] = p / p.sum()
        return full, features


def sample(p: Array, rng: np.random.Generator) -> int:
    """An index drawn with probabilities ``p``."""
    return int(min(np.searchsorted(np.cumsum(p), rng.random() * p.sum(), side="right"), len(p) - 1))


@dataclass
class Curve:
    """The learning curve: the win rate of each block of training episodes."""

    block: int
    points: list[tuple[int, float]] = field(default_factory=list)
    _wins: int = 0
    _count: int = 0

    def add(self, episode: int, won: bool) -> None:
        self._wins += won
        self._count += 1
        if self._count == self.block:
            self.points.append((episode, self._wins / self._count))
            self._wins = self._count = 0


def train(episodes: int, seed: int = 0, lr: float = 0.05, block: int = 500) -> tuple[LinearPolicy, Curve]:
    """Train a policy for ``episodes`` episodes; returns it and its learning curve."""
    env = make_env()
    policy = LinearPolicy.untrained(env)
    rng = np.random.default_rng(seed)
    curve = Curve(block)
    baseline = 0.0
    for episode in range(1, episodes + 1):
        x, info = env.reset(seed=int(rng.integers(2**62)))
        steps: list[Array] = []  # d log pi(a) / d logits = onehot(a) - p, one row per decision
        seen: list[Array] = []
        total = 0.0
        done = False
        while not done:
            p, features = policy.probabilities(x, info["action_mask"])
            action = sample(p, rng)
            p[action] -= 1.0
            steps.append(-p)
            seen.append(features)
            x, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            done = terminated or truncated
        advantage = total - baseline
        baseline += 0.01 * (total - baseline)
        # REINFORCE: every decision's log-likelihood gradient, times the episode's advantage.
        # Averaged over the episode's decisions so that long rounds do not take huge steps.
        d = np.array(steps)
        policy.weights += lr * advantage * (d.T @ np.array(seen)) / len(steps)
        policy.bias += lr * advantage * d.sum(axis=0) / len(steps)
        curve.add(episode, total > 0)
    return policy, curve


def evaluate(policy: LinearPolicy, games: int, seed: int = 12345) -> int:
    """Wins of ``policy`` (sampling its actions) in ``games`` seeded evaluation games."""
    env = make_env()
    rng = np.random.default_rng(seed)
    wins = 0
    for game in range(games):
        x, info = env.reset(seed=seed + game)
        done = False
        total = 0.0
        while not done:
            p, _ = policy.probabilities(x, info["action_mask"])
            x, reward, terminated, truncated, info = env.step(sample(p, rng))
            total += float(reward)
            done = terminated or truncated
        wins += total > 0
    return wins


def two_proportion_p_value(wins_a: int, wins_b: int, n: int) -> float:
    """One-sided p-value of "a wins more often than b" (pooled two-proportion z-test)."""
    pa, pb = wins_a / n, wins_b / n
    pooled = (wins_a + wins_b) / (2 * n)
    se = math.sqrt(pooled * (1 - pooled) * 2 / n)
    if se == 0:
        return 0.5
    z = (pa - pb) / se
    return 0.5 * math.erfc(z / math.sqrt(2))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="REINFORCE against RandomBot (numpy only)")
    parser.add_argument("--episodes", type=int, default=50, help="training episodes (default 50)")
    parser.add_argument("--games", type=int, default=50, help="evaluation games per policy")
    parser.add_argument("--block", type=int, default=25, help="episodes per learning-curve point")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--curve", help="write the learning curve to this CSV file")
    args = parser.parse_args(argv)

    start = time.process_time()
    policy, curve = train(args.episodes, seed=args.seed, block=args.block)
    trained_time = time.process_time() - start
    for episode, rate in curve.points:
        print(f"episodes {episode:>6}: win rate {rate:.3f}")
    untrained = LinearPolicy.untrained(make_env())
    wins_trained = evaluate(policy, args.games)
    wins_untrained = evaluate(untrained, args.games)
    p_value = two_proportion_p_value(wins_trained, wins_untrained, args.games)
    print(f"training: {args.episodes} episodes in {trained_time:.0f} CPU s")
    print(
        f"evaluation over {args.games} games: trained {wins_trained / args.games:.3f}, "
        f"untrained {wins_untrained / args.games:.3f}, one-sided p = {p_value:.2g}"
    )
    if args.curve:
        with open(args.curve, "w", encoding="utf-8") as out:
            out.write("episodes,win_rate\n")
            out.writelines(f"{e},{r:.4f}\n" for e, r in curve.points)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

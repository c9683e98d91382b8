"""REINFORCE on the batched engine with torch (CPU): the learner of rl_reinforce.py, faster.

The task is that of ``examples/rl_reinforce.py``: the learner plays seat 0 of
a two-player classic round (reward +1 for winning it, -1 for losing) against
uniformly random opponents, choosing among the legal action indices from the
observation vector alone. Here it plays ``--envs`` rounds at once in
:class:`unorules.vector.env.UnoVectorEnv` (the batched engine, same
observations and action indices as ``unorules/Uno-v0``), and the policy is a
small torch network (one hidden layer, a masked softmax over the actions,
and a value head as the baseline: REINFORCE with a learned baseline, each
decision's return the round's outcome, or the value estimate where a
rollout of ``--horizon`` steps cuts a round; Adam, its step size falling
linearly to zero over the training).

    .venv/bin/python examples/rl_vector_reinforce.py      # seconds: 20 updates, 50 games
    .venv/bin/python examples/rl_vector_reinforce.py --updates 60 --games 1000   # minutes

At the end the trained and the untrained policy each play the same 1,000
seeded evaluation rounds as ``rl_reinforce.py`` (``unorules/Uno-v0`` against
:class:`~unorules.bots.RandomBot`, seeds 12345 on), so the two examples' win
rates compare directly, and a one-sided two-proportion z-test says whether
the trained policy wins significantly more often. Needs torch (the CPU
build: ``pip install torch --index-url https://download.pytorch.org/whl/cpu``).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from torch import nn

import unorules.rl  # noqa: F401 - registers "unorules/Uno-v0"
from unorules.vector.env import UnoVectorEnv

PLAYERS = 2


class Policy:
    """A masked softmax policy and a value estimate from one hidden layer."""

    def __init__(self, size: int, actions: int, high: npt.NDArray[np.float32], hidden: int = 128) -> None:
        # Features in comparable units: counts and sizes divided by their bound (at most a deck).
        self.scale = torch.as_tensor(1.0 / np.clip(high, 1.0, 108.0), dtype=torch.float32)
        self.body = nn.Sequential(nn.Linear(size, hidden), nn.Tanh())
        self.logits = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)
        nn.init.zeros_(self.logits.weight)  # untrained: uniform over the legal indices
        nn.init.zeros_(self.logits.bias)

    def parameters(self) -> list[torch.Tensor]:
        """Every trained tensor."""
        return [*self.body.parameters(), *self.logits.parameters(), *self.value.parameters()]

    def __call__(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Log-probabilities over the actions and the value, one row per game. Illegal
        indices get a logit of -1e9 (not -inf, whose gradients are NaN): probability 0."""
        h = self.body(x * self.scale)
        logits = self.logits(h).masked_fill(~mask, -1e9)
        return torch.log_softmax(logits, dim=-1), self.value(h).squeeze(-1)


def make_policy(seed: int = 0) -> Policy:
    """An untrained policy for the two-player classic spaces."""
    torch.manual_seed(seed)
    env = gymnasium.make("unorules/Uno-v0", rules=["classic"], players=PLAYERS, disable_env_checker=True)
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Box)
    return Policy(space.shape[0], int(env.action_space.n), space.high)  # type: ignore[attr-defined]


def train(
    updates: int,
    envs: int = 256,
    horizon: int = 64,
    seed: int = 0,
    lr: float = 3e-3,
    entropy: float = 0.001,
    log: bool = False,
) -> tuple[Policy, list[tuple[int, float]]]:
    """Train for ``updates`` rollouts of ``horizon`` steps in ``envs`` games; returns the
    policy and its learning curve (rounds played, win rate of the rounds of that rollout)."""
    policy = make_policy(seed)
    optimiser = torch.optim.Adam(policy.parameters(), lr=lr)
    # The step size falls linearly to zero over the training: late updates refine, not wander.
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda done: 1.0 - done / updates)
    vec = UnoVectorEnv(envs, players=PLAYERS, episode="round", reward="win", seed=seed)
    obs, info = vec.reset(seed=seed)
    x = torch.as_tensor(obs)
    mask = torch.as_tensor(info["action_mask"]).bool()
    curve: list[tuple[int, float]] = []
    rounds = 0
    for update in range(1, updates + 1):
        log_probs: list[torch.Tensor] = []
        values: list[torch.Tensor] = []
        rewards: list[torch.Tensor] = []
        dones: list[torch.Tensor] = []
        entropies: list[torch.Tensor] = []
        for _ in range(horizon):
            log_p, value = policy(x, mask)
            p = log_p.exp()
            action = torch.multinomial(p, 1)
            log_probs.append(log_p.gather(1, action).squeeze(1))
            entropies.append(-(p * log_p).sum(dim=1))
            values.append(value)
            obs, reward, terminated, _truncated, info = vec.step(action.squeeze(1).numpy())
            rewards.append(torch.as_tensor(reward))
            dones.append(torch.as_tensor(terminated, dtype=torch.float32))
            x = torch.as_tensor(obs)
            mask = torch.as_tensor(info["action_mask"]).bool()
        with torch.no_grad():
            _, ahead = policy(x, mask)  # the value of the positions the rollout stops in
        returns: list[torch.Tensor] = []
        for gained, done in zip(reversed(rewards), reversed(dones), strict=True):
            ahead = gained + (1.0 - done) * ahead  # undiscounted: a round's outcome is its return
            returns.append(ahead)
        returns.reverse()
        target = torch.stack(returns)
        value_all = torch.stack(values)
        advantage = (target - value_all).detach()
        loss = (
            -(torch.stack(log_probs) * advantage).mean()
            + 0.5 * (target - value_all).pow(2).mean()
            - entropy * torch.stack(entropies).mean()
        )
        optimiser.zero_grad()
        torch.autograd.backward(loss)
        nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        ended = torch.stack(dones)
        played = int(ended.sum())
        if played:
            won = int((torch.stack(rewards) > 0).sum())
            rounds += played
            curve.append((rounds, won / played))
            if log and update % 10 == 0:
                print(f"update {update:>4}: {rounds:>7} rounds, win rate {won / played:.3f}")
    return policy, curve


def evaluate(policy: Policy, games: int, seed: int = 12345) -> int:
    """Wins of ``policy`` (sampling its actions) in the seeded evaluation rounds of
    ``rl_reinforce.evaluate``: ``unorules/Uno-v0`` against RandomBot, seeds ``seed`` on."""
    env: Any = gymnasium.make(
        "unorules/Uno-v0",
        rules=["classic"],
        players=PLAYERS,
        opponents="random",
        episode="round",
        reward="win",
        disable_env_checker=True,
    ).unwrapped
    generator = torch.Generator().manual_seed(seed)
    wins = 0
    with torch.no_grad():
        for game in range(games):
            obs, info = env.reset(seed=seed + game)
            done, total = False, 0.0
            while not done:
                x = torch.as_tensor(obs).unsqueeze(0)
                mask = torch.as_tensor(info["action_mask"]).bool().unsqueeze(0)
                log_p, _ = policy(x, mask)
                action = int(torch.multinomial(log_p.exp(), 1, generator=generator))
                obs, reward, terminated, truncated, info = env.step(action)
                total += float(reward)
                done = terminated or truncated
            wins += total > 0
    return wins


def two_proportion_p_value(wins_a: int, wins_b: int, n: int) -> float:
    """One-sided p-value of "a wins more often than b" (pooled two-proportion z-test)."""
    pooled = (wins_a + wins_b) / (2 * n)
    se = math.sqrt(pooled * (1 - pooled) * 2 / n)
    if se == 0:
        return 0.5
    return 0.5 * math.erfc((wins_a - wins_b) / n / se / math.sqrt(2))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="REINFORCE on the batched engine (torch CPU)")
    parser.add_argument("--updates", type=int, default=20, help="rollouts (default 20)")
    parser.add_argument("--envs", type=int, default=256, help="games stepped at once (default 256)")
    parser.add_argument("--horizon", type=int, default=64, help="steps per rollout (default 64)")
    parser.add_argument("--games", type=int, default=50, help="evaluation rounds per policy (default 50)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)

    start, cpu = time.perf_counter(), time.process_time()
    policy, curve = train(args.updates, args.envs, args.horizon, seed=args.seed, log=True)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    wins_trained = evaluate(policy, args.games)
    wins_untrained = evaluate(make_policy(args.seed), args.games)
    p_value = two_proportion_p_value(wins_trained, wins_untrained, args.games)
    rounds = curve[-1][0] if curve else 0
    print(f"training: {args.updates} updates, {rounds} rounds in {wall:.1f} s ({cpu:.1f} CPU s)")
    print(
        f"evaluation over {args.games} games: trained {wins_trained / args.games:.3f}, "
        f"untrained {wins_untrained / args.games:.3f}, one-sided p = {p_value:.2g}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

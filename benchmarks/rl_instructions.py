"""Seeded RL environment steps for instruction counts under callgrind (deterministic, unlike timings).

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
        .venv/bin/python benchmarks/rl_instructions.py unorules 3000
    callgrind_annotate /tmp/cg.out | head -20

``unorules`` steps :func:`unorules.rl.raw_env` (classic, ``--players``
seats, default 2, ``episode="round"``) in PettingZoo's loop (``agent_iter``,
``last()``, ``step``), exactly as ``benchmarks/rl.py`` does; ``rlcard`` steps
``rlcard.make("uno")`` (``reset()``, then ``step`` on a legal action id of the
returned state until ``is_over()``), as ``rl.py`` does too. Episodes use seeds
0, 1, ... (a ``random.Random(seed)`` choice among the legal actions) until
``STEPS`` counted steps were taken; an episode cut short by the step count is
stopped there. Both contenders build their environment and its first
observation before counting starts, so a run with ``0`` steps holds the
imports and the set-up: the difference of the two totals, divided by the
steps, is the instructions per step.
"""

from __future__ import annotations

import argparse
import random
from typing import Any


def unorules_steps(wanted: int, players: int) -> tuple[int, int]:
    """Counted steps and episodes of ``raw_env`` (classic, one round per episode)."""
    from unorules.rl import raw_env

    env = raw_env(["classic"], players=players, episode="round")
    env.reset(seed=0)
    env.last()  # the first observation: set-up, not a counted step
    done = 0
    seed = 0
    while done < wanted:
        rng = random.Random(seed)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if done >= wanted:
                break
            env.step(rng.choice(observation["action_mask"].nonzero()[0]))
            done += 1
        seed += 1
    return done, seed


def rlcard_steps(wanted: int, players: int) -> tuple[int, int]:
    """Counted steps and episodes of RLCard's own UNO environment."""
    import rlcard

    env: Any = rlcard.make("uno", {"game_num_players": players, "seed": 0})
    env.reset()
    done = 0
    seed = 0
    while done < wanted:
        rng = random.Random(seed)
        env = rlcard.make("uno", {"game_num_players": players, "seed": seed})
        state, _player = env.reset()
        while not env.is_over() and done < wanted:
            state, _player = env.step(rng.choice(list(state["legal_actions"])))
            done += 1
        seed += 1
    return done, seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", choices=("unorules", "rlcard"))
    parser.add_argument("steps", type=int)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    run = unorules_steps if args.which == "unorules" else rlcard_steps
    done, episodes = run(args.steps, args.players)
    print(args.which, args.players, "players", done, "steps", episodes, "episodes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Random masked steps per second through unorules' RL environment and RLCard's UNO.

    .venv/bin/pip install -e ".[rl,bench]"     # numpy, gymnasium, pettingzoo; rlcard
    .venv/bin/python benchmarks/rl.py          # about a minute and a half on 2 cores
    .venv/bin/python benchmarks/rl.py --reps 3 --min-time 0.5 --players 2

Contenders, each driven the way a training loop drives it, with a uniform
random choice among the legal actions (``random.Random``, seeded per episode):

* ``unorules raw_env``: :func:`unorules.rl.raw_env` with the classic rules, one
  episode = one round (``episode="round"``, like an RLCard game), in PettingZoo's
  loop: ``agent_iter``, ``last()`` (which builds the observation and the
  mask), ``step``. Out-of-turn windows count as steps like any other
  decision; the dead steps after the end (``step(None)``) are not counted.
* ``rlcard env``: ``rlcard.make("uno", {"game_num_players": n})``:
  ``reset()``, then ``step(action)`` on a legal action id of the returned
  state (each step encodes the next player's observation) until ``is_over()``.
* ``rlcard pettingzoo``: RLCard's UNO through PettingZoo's ``RLCardBase``
  wrapper (PettingZoo removed its own UNO environment; the generic base class
  still wraps any RLCard game), in the same loop as unorules.

Every figure is the median of ``--reps`` repetitions of at least
``--min-time`` CPU seconds (``time.process_time``), the contenders
alternating within each repetition. The ratios (unorules / RLCard) are printed last.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from unorules.rl import raw_env

Runner = Callable[[int], int]
"""Plays one seeded episode, returns the number of steps taken."""


def unorules_runner(players: int) -> Runner:
    return aec_runner(raw_env(["classic"], players=players, episode="round"))


def aec_runner(env: Any) -> Runner:
    """Random masked actions through PettingZoo's AEC loop (``agent_iter``, ``last``, ``step``)."""

    def run(seed: int) -> int:
        rng = random.Random(seed)
        env.reset(seed=seed)
        steps = 0
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(observation["action_mask"].nonzero()[0])))
            steps += 1
        return steps

    return run


def rlcard_runner(players: int) -> Runner | None:
    try:
        import rlcard
    except ImportError:
        return None

    def run(seed: int) -> int:
        rng = random.Random(seed)
        env = rlcard.make("uno", {"game_num_players": players, "seed": seed})
        state, _player = env.reset()
        steps = 0
        while not env.is_over():
            state, _player = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    return run


def rlcard_pettingzoo_runner(players: int) -> tuple[Runner | None, str]:
    try:
        from pettingzoo.classic.rlcard_envs.rlcard_base import RLCardBase
    except ImportError as exc:
        return None, f"PettingZoo's RLCardBase is not importable: {exc}"
    try:
        env: Any = RLCardBase("uno", players, (4, 4, 15))
        env.render_mode = None  # set by PettingZoo's concrete subclasses, which UNO no longer has
    except Exception as exc:  # RLCard's or PettingZoo's own failure, reported as such
        return None, f"RLCardBase('uno') failed: {exc!r}"

    return aec_runner(env), ""


def measure(runner: Runner, min_time: float, seed0: int) -> float:
    """Steps per CPU second over whole episodes lasting at least ``min_time``."""
    steps = 0
    seed = seed0
    start = time.process_time()
    while True:
        steps += runner(seed)
        seed += 1
        elapsed = time.process_time() - start
        if elapsed >= min_time:
            return steps / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions (median reported)")
    parser.add_argument("--min-time", type=float, default=1.0, help="CPU seconds per measurement")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 10])
    args = parser.parse_args(argv)

    ratios: list[str] = []
    notes: list[str] = []
    for players in args.players:
        contenders: dict[str, Runner] = {"unorules raw_env": unorules_runner(players)}
        theirs = rlcard_runner(players)
        if theirs is None:
            notes.append("rlcard is not installed (pip install rlcard): no comparison")
        else:
            contenders["rlcard env"] = theirs
            wrapped, why = rlcard_pettingzoo_runner(players)
            if wrapped is None:
                notes.append(why)
            else:
                contenders["rlcard pettingzoo"] = wrapped
        for name, runner in list(contenders.items()):
            try:
                runner(0)  # warm-up: caches, interned actions, imports
            except Exception as exc:
                if name == "unorules raw_env":
                    raise
                notes.append(f"{name} fails with {players} players ({exc!r}): not measured")
                del contenders[name]
        results: dict[str, list[float]] = {name: [] for name in contenders}
        for rep in range(args.reps):
            for name, runner in contenders.items():  # alternating within each repetition
                results[name].append(measure(runner, args.min_time, 1000 * rep + 1))
        print(f"\n{players} players: random masked steps per CPU second (median of {args.reps})")
        medians = {name: statistics.median(values) for name, values in results.items()}
        for name, value in medians.items():
            spread = f"{min(results[name]):,.0f}-{max(results[name]):,.0f}"
            print(f"  {name:<20} {value:>10,.0f}   (range {spread})")
        ours = medians["unorules raw_env"]
        for name in ("rlcard env", "rlcard pettingzoo"):
            if name in medians:
                ratios.append(f"{players} players: unorules raw_env / {name} = {ours / medians[name]:.2f}x")
    for note in dict.fromkeys(notes):
        print(f"note: {note}")
    print("\nratios")
    for line in ratios:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

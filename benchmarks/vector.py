"""Random masked actions per second through the batched engine, against unorules.rl and RLCard.

    .venv/bin/pip install -e ".[rl,bench]"     # numpy, gymnasium, pettingzoo; rlcard (optional)
    .venv/bin/python benchmarks/vector.py      # a few minutes on 2 cores
    .venv/bin/python benchmarks/vector.py --reps 3 --min-time 0.5 --players 2 --batches 1 1024
    .venv/bin/python benchmarks/vector.py --players 2 4 --batches 64 1024 16384 --backend jax

Contenders, each with a uniform random choice among the legal actions, one
episode = one round (as in ``rl.py``):

* ``vector B``: :class:`unorules.vector.UnoBatch` of ``B`` games; every step
  reads the mask and the observations of the seats asked (as a training
  loop would), picks one legal index per game with NumPy and steps all games
  (auto-reset). Actions = games x steps, no-ops of the windows included.
* ``unorules raw_env``: ``rl.py``'s loop over :func:`unorules.rl.raw_env`,
  the reference env (an observation and a mask per step too).
* ``rlcard env``: ``rl.py``'s loop over RLCard's UNO env, if ``rlcard`` is installed.

Every figure is the median of ``--reps`` repetitions of at least
``--min-time`` CPU seconds (``time.process_time``), the contenders measured
in turn in the same process. Ratios are against the reference env measured
in the same run (and RLCard's env when present). Memory per game: the batch's
state arrays (``UnoBatch.nbytes``) over its games, at the largest batch; the
observation buffer a step returns is shown beside it.

With ``--jax`` (jax installed), a second table: games' masks and observations
computed per CPU second by NumPy (``UnoBatch.mask`` and ``observe``) and by
:class:`unorules.vector.jit.JaxKernels` (the state copied to the device, both
kernels, the results waited for), on batches of random positions.

With ``--backend jax`` (jax installed), a table of the jitted step:
:class:`unorules.vector.jax_batch.JaxBatch` against :class:`UnoBatch`, the
same loop (mask, observations of the seats asked, a random legal index per
game, step; JAX's arrays read back to NumPy each step, as a NumPy learner
reads them), in random masked actions per CPU second of the process (all of
XLA's threads counted), each batch compiled before it is timed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rl import Runner, rlcard_runner, unorules_runner  # the benchmark beside this one

from unorules.vector import UnoBatch

if TYPE_CHECKING:
    from unorules.vector.jax_batch import JaxBatch

BATCHES = [1, 4, 16, 64, 256, 1024, 4096, 16384]


def measure_batch(batch: UnoBatch, min_time: float, seed: int) -> float:
    """Actions per CPU second of random masked play over ``batch`` for ``min_time``."""
    rng = np.random.default_rng(seed)
    observations = np.zeros((batch.num_games, batch.observation_size), dtype=np.float32)
    mask = np.zeros((batch.num_games, batch.num_actions), dtype=np.int8)
    steps = 0
    start = time.process_time()
    while True:
        batch.mask(out=mask)
        batch.observe(out=observations)
        noise = rng.random(mask.shape, dtype=np.float32)
        noise[mask == 0] = -1.0
        batch.step(noise.argmax(axis=1))
        steps += 1
        elapsed = time.process_time() - start
        if elapsed >= min_time:
            return steps * batch.num_games / elapsed


def measure_env(runner: Runner, min_time: float, seed0: int) -> float:
    steps = 0
    seed = seed0
    start = time.process_time()
    while True:
        steps += runner(seed)
        seed += 1
        elapsed = time.process_time() - start
        if elapsed >= min_time:
            return steps / elapsed


def measure_kernels(batch: UnoBatch, min_time: float, jitted: bool) -> float:
    """Games' masks and observations per CPU second, by NumPy or by the JAX kernels."""
    kernels = None
    if jitted:
        from unorules.vector.jit import JaxKernels

        kernels = JaxKernels(batch)
        state = kernels.state()
        kernels.mask(state).block_until_ready()  # compiled outside the measurement
        kernels.observe(state).block_until_ready()
    calls = 0
    start = time.process_time()
    while True:
        if kernels is None:
            batch._mask_valid = False  # as after a step: the mask is computed, not the cached one
            batch.mask()
            batch.observe()
        else:
            state = kernels.state()
            kernels.mask(state).block_until_ready()
            kernels.observe(state).block_until_ready()
        calls += 1
        elapsed = time.process_time() - start
        if elapsed >= min_time:
            return calls * batch.num_games / elapsed


def measure_jax_step(batch: JaxBatch, min_time: float, seed: int) -> float:
    """:func:`measure_batch` for a :class:`JaxBatch`."""
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    while True:
        mask = np.asarray(batch.mask())
        np.asarray(batch.observe())
        noise = rng.random(mask.shape, dtype=np.float32)
        noise[mask == 0] = -1.0
        np.asarray(batch.step(noise.argmax(axis=1)).done)
        steps += 1
        elapsed = time.process_time() - start
        if elapsed >= min_time:
            return steps * batch.num_games / elapsed


def step_table(players: int, sizes: list[int], reps: int, min_time: float) -> None:
    """The ``--backend jax`` table for ``players``."""
    from unorules.vector.jax_batch import JaxBatch

    rows = []
    for size in sizes:
        numpy_batch = UnoBatch(size, players, episode="round", seed=size)
        jax_batch = JaxBatch(size, players, episode="round", seed=size)
        compiled = time.perf_counter()
        measure_jax_step(jax_batch, 0.0, 0)  # compiled outside the measurement
        compiled = time.perf_counter() - compiled
        numpy_rates, jax_rates = [], []
        for rep in range(reps):
            numpy_rates.append(measure_batch(numpy_batch, min_time, rep))
            jax_rates.append(measure_jax_step(jax_batch, min_time, rep))
        rows.append((size, statistics.median(numpy_rates), statistics.median(jax_rates), compiled))
    print(f"  the jitted step: random masked actions per CPU second (median of {reps}):")
    print(f"  {'batch':>8} {'numpy':>12} {'jax':>12}   {'jax / numpy':>11}   {'first step (compile)':>20}")
    for size, numpy_rate, jax_rate, compiled in rows:
        ratio = jax_rate / numpy_rate
        print(f"  {size:>8} {numpy_rate:>12,.0f} {jax_rate:>12,.0f}   {ratio:>10.2f}x   {compiled:>19.1f}s")


def kernel_table(players: int, sizes: list[int], reps: int, min_time: float) -> None:
    """The ``--jax`` table for ``players``."""
    rows = []
    for size in sizes:
        batch = UnoBatch(size, players, episode="round", seed=size)
        measure_batch(batch, 0.05, 0)  # random positions, not only deals
        numpy_rates = [measure_kernels(batch, min_time, jitted=False) for _ in range(reps)]
        jax_rates = [measure_kernels(batch, min_time, jitted=True) for _ in range(reps)]
        rows.append((size, statistics.median(numpy_rates), statistics.median(jax_rates)))
    print(f"  masks + observations per CPU second (median of {reps}):")
    print(f"  {'batch':>8} {'numpy':>12} {'jax':>12}   {'jax / numpy':>11}")
    for size, by_numpy, by_jax in rows:
        print(f"  {size:>8} {by_numpy:>12,.0f} {by_jax:>12,.0f}   {by_jax / by_numpy:>10.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="repetitions (median reported)")
    parser.add_argument("--min-time", type=float, default=1.0, help="CPU seconds per measurement")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--batches", type=int, nargs="+", default=BATCHES)
    parser.add_argument("--jax", action="store_true", help="also the JAX kernels' table (needs jax)")
    parser.add_argument(
        "--backend",
        choices=["numpy", "jax"],
        default="numpy",
        help="jax: also the jitted step's table, JaxBatch against UnoBatch (needs jax)",
    )
    args = parser.parse_args(argv)

    for players in args.players:
        envs: dict[str, Runner] = {"unorules raw_env": unorules_runner(players)}
        theirs = rlcard_runner(players)
        if theirs is not None:
            envs["rlcard env"] = theirs
        for runner in envs.values():
            runner(0)  # warm-up
        batches = {size: UnoBatch(size, players, episode="round", seed=size) for size in args.batches}
        results: dict[str, list[float]] = {name: [] for name in envs}
        results.update({f"vector {size}": [] for size in batches})
        for rep in range(args.reps):
            for name, runner in envs.items():
                results[name].append(measure_env(runner, args.min_time, 1000 * rep + 1))
            for size, batch in batches.items():
                results[f"vector {size}"].append(measure_batch(batch, args.min_time, rep))
        medians = {name: statistics.median(values) for name, values in results.items()}
        reference = medians["unorules raw_env"]
        rlcard = medians.get("rlcard env")
        print(f"\n{players} players: random masked actions per CPU second (median of {args.reps})")
        header = f"  {'contender':<20} {'actions/s':>12}   {'x raw_env':>9}"
        print(header + (f"   {'x rlcard':>8}" if rlcard else ""))
        for name, value in medians.items():
            line = f"  {name:<20} {value:>12,.0f}   {value / reference:>8.2f}x"
            if rlcard:
                line += f"   {value / rlcard:>7.2f}x"
            print(line)
        if rlcard is None:
            print("  (rlcard is not installed: pip install rlcard for the comparison with its env)")
        largest = batches[max(batches)]
        per_game = largest.nbytes / largest.num_games
        obs = 4 * largest.observation_size
        print(
            f"  memory per game: {per_game:,.0f} bytes of state (batch of {largest.num_games}), "
            f"plus {obs:,} bytes of observation and {largest.num_actions} of mask per step's output"
        )
        if args.jax:
            kernel_table(players, args.batches, args.reps, args.min_time)
        if args.backend == "jax":
            step_table(players, args.batches, args.reps, args.min_time)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

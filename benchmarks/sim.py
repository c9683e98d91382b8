"""Games per second of unorules.sim's engines: local with 1 and 2 workers, and Ray on this machine.

    .venv/bin/python benchmarks/sim.py                 # 10,000 classic 4-player heuristic games per engine
    .venv/bin/python benchmarks/sim.py --games 2000 --engines local1 local2
    .venv/bin/python benchmarks/sim.py --json figures.json

Every engine plays the same games (seed ``bench``, game ``i`` dealt from
``"bench/i"``): the script checks that the summaries agree, then prints the
wall-clock time and games per second of each engine, the scaling of 2 local
workers over 1 (the target on a 2-core machine is 1.8x or more), and Ray's cost:
its start-up (``ray.init`` of a local instance), the round trip of an empty task
(the fixed cost of each chunk), and its time for the whole run against local
play with as many workers as Ray has CPUs.

Times are wall-clock (``time.perf_counter``): parallel speed-up is what is
measured, so other work on a shared machine slows every engine; the load
average is printed before and after so that a disturbed run can be told, and
the CPU time per game of the in-process engine shows what the work itself
costs whatever the load.
Ray is measured only when it is installed (``pip install 'unorules[ray]'``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import sys
import time
from typing import Any

import unorules
from unorules import sim

ENGINES = ("local1", "local2", "ray")


def simulation() -> sim.Simulation:
    rules = unorules.Ruleset.from_names(["classic"])
    return sim.Simulation.of(rules, players=4, bots=["heuristic"], seed="bench", options={})


def cpu_seconds() -> float:
    """CPU time of this process."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def timed_run(engine: sim.Engine, games: int) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    tallies = sim.summarize(sim.run([simulation()], games, engine=engine))
    return time.perf_counter() - started, tallies["classic"].to_data()


def ray_overheads(tasks: int) -> dict[str, float]:
    """Start-up of a local Ray instance with 2 CPUs and the round trip of an empty task."""
    import ray

    started = time.perf_counter()
    engine = sim.RayEngine(num_cpus=2)
    startup = time.perf_counter() - started
    empty = sim.Chunk(simulation(), 0, 0)
    remote = ray.remote(sim.play_chunk)
    ray.get([remote.remote(empty) for _ in range(20)])  # warm the workers up
    started = time.perf_counter()
    ray.get([remote.remote(empty) for _ in range(tasks)])
    per_task = (time.perf_counter() - started) / tasks
    started = time.perf_counter()
    for _ in range(50):
        ray.get(remote.remote(empty))
    round_trip = (time.perf_counter() - started) / 50
    engine.close()
    return {"startup_s": startup, "empty_task_s": per_task, "round_trip_s": round_trip}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per engine (default 10000)")
    parser.add_argument("--engines", nargs="+", choices=ENGINES, default=list(ENGINES))
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    has_ray = importlib.util.find_spec("ray") is not None
    engines = [e for e in args.engines if e != "ray" or has_ray]
    if "ray" in args.engines and not has_ray:
        print("ray is not installed (pip install 'unorules[ray]'): skipping it", file=sys.stderr)
    print(f"{args.games} classic 4-player games, heuristic bots; {os.cpu_count()} cores")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    figures: dict[str, Any] = {"games": args.games, "cores": os.cpu_count(), "engines": {}}
    summaries = {}
    for name in engines:
        engine: sim.Engine
        setup = 0.0
        if name == "local1":
            engine = sim.InProcess()
        elif name == "local2":
            engine = sim.LocalPool(2)
        else:
            started = time.perf_counter()
            engine = sim.RayEngine(num_cpus=2)
            setup = time.perf_counter() - started
        cpu = cpu_seconds()
        try:
            elapsed, summary = timed_run(engine, args.games)
        finally:
            engine.close()
        cpu = cpu_seconds() - cpu
        summaries[name] = summary
        figures["engines"][name] = {
            "seconds": elapsed,
            "games_per_s": args.games / elapsed,
            "setup_s": setup,
            "cpu_ms_per_game": 1000 * cpu / args.games if name == "local1" else None,
        }
        extra = f" (+ {setup:.1f} s to start Ray)" if setup else ""
        per_game = f"  {1000 * cpu / args.games:6.1f} CPU ms/game" if name == "local1" else ""
        print(f"{name:7} {elapsed:8.1f} s  {args.games / elapsed:8.1f} games/s{per_game}{extra}", flush=True)
    first = next(iter(summaries.values()))
    assert all(s == first for s in summaries.values()), "the engines disagree: a seeding bug"
    print("every engine gave the same summary")
    found = figures["engines"]
    if "local1" in found and "local2" in found:
        scaling = found["local1"]["seconds"] / found["local2"]["seconds"]
        figures["scaling_2_over_1"] = scaling
        print(f"scaling, 2 workers over 1: {scaling:.2f}x (target >= 1.8x on 2 cores)")
    if "ray" in found:
        over = ray_overheads(500)
        figures["ray_overheads"] = over
        print(
            f"Ray start-up (local instance, 2 CPUs): {over['startup_s']:.1f} s; an empty task costs "
            f"{1000 * over['empty_task_s']:.1f} ms in a batch, {1000 * over['round_trip_s']:.1f} ms alone"
        )
        if "local2" in found:
            ratio = found["ray"]["seconds"] / found["local2"]["seconds"]
            figures["ray_over_local2"] = ratio
            print(f"Ray over local with 2 workers (run only, start-up apart): {ratio:.2f}x the time")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())

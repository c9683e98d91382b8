"""The Ray engine of unorules.sim: the same results as local play, game by game; cancelling; lost games.

Needs Ray (``pip install 'unorules[ray]'``; ``python3 dev.py setup`` installs it). One local Ray
instance with two CPUs serves the module.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import unorules
from unorules import sim
from unorules.cli import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main

CLASSIC = unorules.Ruleset.from_names(["classic"], {"target_score": 200})
HOUSE = unorules.Ruleset.from_names(["classic", "stacking", "seven-o", "jump-in"], {"target_score": 200})


def test_without_ray_the_engine_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.import_module

    def no_ray(name: str, *args: Any) -> Any:
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_ray)
    with pytest.raises(sim.EngineUnavailable, match=r"pip install 'unorules\[ray\]'"):
        sim.RayEngine()
    assert main(["simulate", "--engine", "ray", "--games", "2"]) == EXIT_USAGE
    _, err = capsys.readouterr()
    assert err.startswith("unorules: error: the Ray engine needs Ray")
    assert err.count("\n") == 1


ray = pytest.importorskip("ray", reason="the Ray engine needs Ray: pip install 'unorules[ray]'")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


def test_an_unreachable_cluster_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(sim.EngineError, match=r"cannot reach a Ray cluster at 127\.0\.0\.1:1"):
        sim.RayEngine("127.0.0.1:1")
    with pytest.raises(sim.EngineError, match="bad Ray address"):
        sim.RayEngine("nowhere")
    assert main(["simulate", "--engine", "ray", "--address", "127.0.0.1:1", "--games", "2"]) == EXIT_FAILURE
    _, err = capsys.readouterr()
    assert err == "unorules: error: cannot reach a Ray cluster at 127.0.0.1:1: Connection refused\n"


@pytest.mark.usefixtures("local_ray")
def test_ray_plays_every_game_as_local_play_does() -> None:
    sims = [sim.Simulation.of(rules, players=3, bots=["heuristic"], seed="ci") for rules in (CLASSIC, HOUSE)]
    local = sorted(sim.run(sims, 150), key=lambda r: (r.rules, r.index))
    engine = sim.RayEngine()
    assert engine.workers == 2
    try:
        remote = sorted(sim.run(sims, 150, engine=engine, chunk_size=10), key=lambda r: (r.rules, r.index))
    finally:
        engine.close()
    assert len(local) == 300
    assert remote == local  # game by game
    assert ray.is_initialized()  # an instance the engine did not start is left running


@pytest.mark.usefixtures("local_ray")
def test_simulate_engine_ray_writes_the_same_lines_and_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["simulate", "--games", "30", "--players", "3", "--seed", "5", "--json", "--quiet"]
    files = {}
    summaries = {}
    for engine in ("local", "ray"):
        files[engine] = tmp_path / f"{engine}.jsonl"
        args = [*common, "--compare", "classic", "classic,stacking", "--jsonl", str(files[engine])]
        assert main([*args, "--engine", engine]) == EXIT_OK
        summaries[engine] = json.loads(capsys.readouterr().out)["results"]
    assert summaries["ray"] == summaries["local"]
    lines = {e: sorted(f.read_text().splitlines()) for e, f in files.items()}
    assert lines["ray"] == lines["local"]
    assert len(lines["ray"]) == 60


@pytest.mark.usefixtures("local_ray")
def test_closing_a_ray_run_cancels_its_tasks() -> None:
    engine = sim.RayEngine(window=4)
    simulation = sim.Simulation.of(CLASSIC, players=2, bots=["heuristic"], seed=1)
    stream = sim.run([simulation], 10**10, engine=engine, chunk_size=1)
    first = [next(stream) for _ in range(3)]
    stream.close()
    engine.close()
    assert [r.status for r in first] == ["over"] * 3


def _kill_ray_workers_playing() -> int:
    import psutil  # a dependency of Ray

    killed = 0
    for process in psutil.process_iter(["cmdline"]):
        if any("play_chunk" in part for part in process.info["cmdline"] or ()):
            os.kill(process.pid, signal.SIGKILL)
            killed += 1
    return killed


@pytest.mark.usefixtures("local_ray")
def test_a_ray_worker_that_dies_loses_its_games() -> None:
    engine = sim.RayEngine(max_retries=0, window=2)
    slow = sim.Simulation.of(CLASSIC, players=4, bots=["heuristic"], seed=2)
    stream = sim.run([slow], 10**10, engine=engine, chunk_size=25)
    got: list[sim.GameResult] = []
    failures: list[BaseException] = []

    def consume() -> None:
        # Consumed all along, so that the window stays full and a worker is
        # always playing a chunk while this test looks for one to kill.
        try:
            got.extend(stream)
        except BaseException as exc:  # every outcome is checked below
            failures.append(exc)

    consumer = threading.Thread(target=consume, daemon=True)
    consumer.start()
    # A worker found playing may end its chunk before the signal lands (then
    # the run goes on): kill the workers playing until the run stops.
    deadline = time.monotonic() + 120
    killed = 0
    while consumer.is_alive():
        assert time.monotonic() < deadline, f"the run did not stop ({killed} workers killed)"
        killed += _kill_ray_workers_playing()
        consumer.join(0.05)
    assert killed
    assert len(failures) == 1
    assert isinstance(failures[0], sim.EngineError)
    assert "a Ray worker died" in str(failures[0])
    engine.close()
    lost = [r for r in got if r.status == "lost"]
    assert lost
    assert len(lost) % 25 == 0  # whole chunks
    assert sim.summarize(got)[slow.label].lost == len(lost)

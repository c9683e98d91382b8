"""Issue 46: ``tournament``'s time left from each pair's measured speed, and the Wilson
intervals ``simulate`` and ``tournament`` print beside win rates."""

from __future__ import annotations

import pytest

from unorules import Ruleset, sim
from unorules.cli import main
from unorules.cli.common import rate_words, wilson
from unorules.cli.simulate import TimeLeft


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_time_left_comes_from_each_pairs_own_speed() -> None:
    """A fast pair and a slow one: once both have played a game, the time left is what each
    still has to play at its own speed, not the overall rate of the games so far."""
    clock = Clock()
    left = TimeLeft({"a v b": ("a", "b"), "a v c": ("a", "c")}, games=10, clock=clock)
    assert left.seconds() is None
    clock.now += 1.0
    left.add("a v b")  # 1 s a game
    clock.now += 10.0
    left.add("a v c")  # 10 s a game
    assert left.seconds() == pytest.approx(9 * 1.0 + 9 * 10.0)
    # rich's overall rate would say 11 s for 2 games, times 18 games: 99 s; here the same, but
    # after nine more fast games the overall rate says far less while the slow pair is to come
    for _ in range(9):
        clock.now += 1.0
        left.add("a v b")
    overall = clock.now / 11 * 9
    assert left.seconds() == pytest.approx(9 * 10.0)
    assert overall < left.seconds() / 4


def test_a_pair_not_measured_yet_is_estimated_from_its_bots() -> None:
    clock = Clock()
    left = TimeLeft({"a v b": ("a", "b"), "b v c": ("b", "c"), "a v c": ("a", "c")}, games=2, clock=clock)
    clock.now += 2.0
    left.add("a v b")  # a and b: 1 s each
    clock.now += 12.0
    left.add("b v c")  # 6 s to each of b and c
    seconds = left.seconds()
    assert seconds is not None
    # a v c: a costs 1, c costs 6 (half of b v c's 12): 7 s a game, 2 games; the others 1 game each
    assert seconds == pytest.approx(2.0 + 12.0 + 2 * (1.0 + 6.0))


def test_probe_plays_game_0_of_every_simulation_first() -> None:
    rules = Ruleset.from_names(["classic"])
    pairs = sim.round_robin(rules, ["heuristic", "random"], seed=1)
    order = [(c.simulation.label, c.start, c.stop) for c in sim.chunks(pairs, 5, 2, probe=True)]
    labels = [p.label for p in pairs]
    assert order[: len(pairs)] == [(label, 0, 1) for label in labels]
    assert order[len(pairs)] == (labels[0], 1, 3)
    played = sorted(
        (c.simulation.label, i) for c in sim.chunks(pairs, 5, 2, probe=True) for i in range(c.start, c.stop)
    )
    assert played == sorted((label, i) for label in labels for i in range(5))


def test_wilson_intervals() -> None:
    assert wilson(0.0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    low, high = wilson(0.55, 20)
    assert (low, high) == pytest.approx((0.3421, 0.7418), abs=1e-4)
    assert wilson(0.5, 0) == (0.0, 1.0)
    assert rate_words(1.0, 20) == "100.0% (83.9-100.0)"


def test_simulate_and_tournament_print_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "--games", "6", "--seed", "1", "--players", "2", "--bots", "heuristic,random"]) == 0
    )
    out = capsys.readouterr().out
    assert "win rates: in brackets, the 95% Wilson score interval" in out
    row = out.split(" wins, seat 0 (heuristic)")[1].split("\n")[0]
    assert "% (" in row
    assert main(["tournament", "--games", "3", "--seed", "1", "--bots", "heuristic,random", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "win rates: in brackets, the 95% Wilson score interval" in out
    assert "100.0% (61.0-100.0)" in out  # heuristic beat random in all 6 games of the pair

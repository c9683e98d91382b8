"""unorules.vector.jax_batch: the jitted step plays the reference engine's games, game for game.

``vector_check.run(..., backend="jax")`` plays a :class:`JaxBatch` (every step one
jitted function: plays, draws, reshuffles, scoring, the next games' seeds and
deals) beside the reference env for every slot, with random and heuristic
actions, and compares at every step the seat asked, its mask and observation
and the whole state read back from the device. The normal tier compiles one
step per rule set (about 5 s each on this machine), so it plays few, small
configurations: 2, 4 and 7 players, and every supported option at a value other
than its default in one rule set. The slow tier (``UNORULES_SLOW=1``) plays
tens of thousands of games. Skipped without jax (``pip install "unorules[jax]"``);
UNORULES_REQUIRE_JAX=1 makes a missing jax a failure instead.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("UNORULES_REQUIRE_JAX") != "1":
    pytest.importorskip("jax", reason='unorules.vector.jax_batch needs jax: pip install "unorules[jax]"')

import jax
import jax.numpy as jnp
from vector_check import run

from unorules import IllegalActionError, Rng, seed_state
from unorules.vector import UnoBatch, VectorError, jax_batch
from unorules.vector.jax_batch import JaxBatch, x64

EVERY_OPTION = {
    "target_score": 120,
    "uno_penalty": 4,
    "challenge": False,
    "wd4_points": 70,
    "drawn_card": "must-play",
    "opening_reverse": "right-of-dealer-starts",
    "dealer_draw": "points",
    "opening_wild": "redraw",
}
"""Every option of SUPPORTED_OPTIONS at a value other than its default (one compile)."""

FAST = [
    # players, slots, episode, reward, options, [(chooser, games, limit), ...]
    (2, 32, "round", "win", {}, [("heuristic", 48, None), ("random", 48, 40)]),
    (4, 32, "round", "win", {}, [("heuristic", 32, None), ("random", 48, 40)]),
    (7, 24, "round", "win", {}, [("heuristic", 16, None), ("random", 32, 40)]),
    (3, 12, "game", "points", EVERY_OPTION, [("heuristic", 6, None), ("random", 12, 60)]),
]


def _check(report: Any, games: int) -> None:
    assert report.mismatches == 0, report.first
    assert report.games >= games
    assert report.actions > games


@pytest.mark.parametrize(("players", "slots", "episode", "reward", "options", "runs"), FAST,
                         ids=["2p", "4p", "7p", "3p-every-option"])  # fmt: skip
def test_the_jitted_step_passes_through_the_reference_states(
    players: int, slots: int, episode: str, reward: str, options: dict[str, Any], runs: list[Any]
) -> None:
    for chooser, games, limit in runs:
        report = run(players, games, slots, seed=players * 31 + games, chooser=chooser, episode=episode,
                     options=options, limit=limit, backend="jax", reward=reward)  # fmt: skip
        _check(report, games)


SLOW = [
    # players, chooser, episode, games, slots, limit, options
    (2, "heuristic", "round", 6_000, 256, None, {}),
    (4, "heuristic", "round", 4_000, 256, None, {}),
    (7, "heuristic", "round", 2_000, 128, None, {}),
    (2, "random", "round", 6_000, 256, 60, {}),
    (4, "random", "round", 5_000, 256, 60, {}),
    (7, "random", "round", 4_000, 256, 60, {}),
    (3, "heuristic", "game", 400, 64, None, EVERY_OPTION),
    (5, "random", "round", 2_000, 128, 60, EVERY_OPTION),
]
"""About 29,000 games."""


@pytest.mark.slow
@pytest.mark.parametrize(("players", "chooser", "episode", "games", "slots", "limit", "options"), SLOW)
def test_many_games_of_the_jitted_step_pass_through_the_reference_states(
    players: int,
    chooser: str,
    episode: str,
    games: int,
    slots: int,
    limit: int | None,
    options: dict[str, Any],
) -> None:
    report = run(players, games, slots, seed=20_000 + players, chooser=chooser, episode=episode,
                 options=options, limit=limit, backend="jax")  # fmt: skip
    _check(report, games)


def test_a_mismatch_names_the_action_and_shows_both_states(monkeypatch: pytest.MonkeyPatch) -> None:
    real = jax_batch._hand_points

    def wrong(r: Any, s: Any) -> Any:  # every hand one point more: the round's scores are off
        return real(r, s) + 1

    monkeypatch.setattr(jax_batch, "_hand_points", wrong)
    monkeypatch.setattr(jax_batch, "_COMPILED", {})
    report = run(2, 40, 8, seed=5, chooser="heuristic", episode="game", options={"target_score": 2000},
                 backend="jax")  # fmt: skip
    assert report.mismatches == 1
    assert "first differing action: seat" in report.first
    assert "differing fields: scores" in report.first
    assert "batch:" in report.first
    assert "reference:" in report.first


def test_seed_state_is_the_references() -> None:
    rng = np.random.default_rng(7)
    seeds = [0, 1, 9, 10, 99, 100, 10**18 - 1, 10**18, 2**63 - 1, *rng.integers(0, 2**63 - 1, 500).tolist()]
    with x64():
        got = np.asarray(jax_batch._seed_states(jnp.asarray(np.array(seeds, dtype=np.uint64))))
    assert got.tolist() == [seed_state(int(s)) for s in seeds]


def test_shuffles_are_rngs_and_a_rejected_draw_draws_again(monkeypatch: pytest.MonkeyPatch) -> None:
    host = UnoBatch(2, 2, seed=1)
    rules = jax_batch._Rules(host)
    lengths = np.array([108, 2, 1, 0, 57, 3, 108, 30])
    states = np.array([seed_state(i) for i in range(lengths.size)], dtype=np.uint64)
    items = np.tile(np.arange(108, dtype=np.int32), (lengths.size, 1))
    on = np.array([True] * 6 + [False, True])

    def expected(accept: Any) -> tuple[list[list[int]], list[int]]:
        rows, after = [], []
        for row, length, state, active in zip(items.tolist(), lengths, states.tolist(), on, strict=True):
            rng = Rng(state)
            if active:
                for i in range(int(length) - 1, 0, -1):  # Rng.shuffle, randbelow's rejection by ``accept``
                    while (value := rng.next64()) > int(accept[i + 1]):
                        pass
                    j = value % (i + 1)
                    row[i], row[j] = row[j], row[i]
            rows.append(row)
            after.append(rng.state)
        return rows, after

    def shuffled(r: Any) -> tuple[list[list[int]], list[int]]:
        with x64():
            out, rng = jax_batch._shuffle(
                r, jnp.asarray(items), jnp.asarray(lengths), jnp.asarray(states), jnp.asarray(on)
            )
            return np.asarray(out).tolist(), np.asarray(rng).tolist()

    assert shuffled(rules) == expected(rules.accept)
    reference = Rng(int(states[0]))
    deck = list(range(108))
    reference.shuffle(deck)
    assert shuffled(rules)[0][0] == deck
    assert shuffled(rules)[1][0] == reference.state
    # Bounds that reject about half the values: the draw-by-draw path draws again as randbelow does.
    monkeypatch.setattr(rules, "accept", np.full(109, 2**63, dtype=np.uint64))
    assert shuffled(rules) == expected(rules.accept)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    batch = JaxBatch(32, 2, episode="round", seed=4)  # the rules of FAST's first case: compiled once
    before = {k: np.asarray(v).copy() for k, v in batch.state.items()}
    actions = np.asarray(batch.mask()).argmax(axis=1)
    illegal = np.flatnonzero(np.asarray(batch.mask())[2] == 0)[0]
    games = 32
    actions[2] = illegal
    with pytest.raises(IllegalActionError, match="game 2: action"):
        batch.step(actions)
    with pytest.raises(IllegalActionError, match="outside the action space"):
        batch.step(np.full(games, 500))
    assert all(np.array_equal(np.asarray(batch.state[k]), before[k]) for k in before)
    with pytest.raises(VectorError):
        batch.step(np.zeros(games - 1, dtype=np.int64))
    with pytest.raises(VectorError):
        batch.step(np.zeros(games, dtype=np.int64), active=np.ones(games))
    with pytest.raises(VectorError):
        batch.observe(np.zeros(4, dtype=np.int64))
    actions[2] = np.asarray(batch.mask())[2].argmax()
    active = np.arange(games) % 2 == 0
    batch.step(actions, active=active)
    after = {k: np.asarray(v) for k, v in batch.state.items()}
    assert all(np.array_equal(after[k][1::2], before[k][1::2]) for k in ("hands", "pile", "current", "rng"))


def test_the_same_arguments_play_the_numpy_batchs_games() -> None:
    arguments: dict[str, Any] = {"episode": "game", "reward": "points", "options": EVERY_OPTION, "seed": 9}
    numpy_batch = UnoBatch(12, 3, **arguments)  # the rules of FAST's last case
    batch = JaxBatch(12, 3, **arguments)
    pick = np.random.default_rng(9)
    ended = 0
    for _ in range(400):
        mask = numpy_batch.mask()
        assert np.array_equal(np.asarray(batch.mask()), mask)
        assert np.array_equal(np.asarray(batch.observe()), numpy_batch.observe())
        noise = pick.random(mask.shape)
        noise[mask == 0] = -1.0
        actions = noise.argmax(axis=1)
        expected, got = numpy_batch.step(actions), batch.step(actions)
        for field in ("rewards", "done", "final_scores", "final_winner"):
            assert np.array_equal(np.asarray(getattr(got, field)), getattr(expected, field)), field
        ended += int(expected.done.sum())
    assert ended > 0
    assert np.array_equal(batch.seeds, numpy_batch.seeds)
    assert batch.game_state(3) == numpy_batch.game_state(3)


def test_64_bit_types_are_scoped() -> None:
    assert not jax.config.read("jax_enable_x64")
    batch = JaxBatch(32, 2, episode="round", seed=1)
    batch.step(np.asarray(batch.mask()).argmax(axis=1))
    assert not jax.config.read("jax_enable_x64")  # the user's setting is left as it was
    assert batch.state["rng"].dtype == np.uint64
    step = batch.step_function()
    actions, active = jnp.zeros(32, jnp.int32), jnp.ones(32, bool)
    with pytest.raises(VectorError, match="with x64"):
        step(batch.state, actions, active)
    with x64():
        actions = jnp.asarray(np.asarray(batch.mask()).argmax(axis=1), jnp.int32)
        state, result = step(batch.state, actions, active)
    assert not bool(np.asarray(result.illegal).any())
    assert any(not np.array_equal(np.asarray(state[k]), np.asarray(batch.state[k])) for k in state)


def test_the_modules_example_runs() -> None:
    import doctest

    failures, tried = doctest.testmod(jax_batch)
    assert tried > 0
    assert failures == 0

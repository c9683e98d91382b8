"""unorules.vector.aec: the PettingZoo-style view of the batch is UnoAECEnv, game for game.

``vector_check.run_aec`` drives every slot's reference ``UnoAECEnv`` through
PettingZoo's agent loop beside the view and compares, at every step, the
agent selected, its ``last()`` (observation, mask, reward, termination) and
one more agent's ``observe``, through the out-of-turn windows, the
episode's end, the dead steps and the next episode.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from vector_check import run_aec

from unorules import IllegalActionError, RulesetError
from unorules.rl import UnoAECEnv
from unorules.vector import VectorError
from unorules.vector.aec import UnoVectorAECEnv

CASES = [
    # players, chooser, episode, games, slots, options
    (2, "heuristic", "round", 120, 32, {}),
    (4, "heuristic", "round", 80, 32, {}),
    (7, "heuristic", "round", 40, 24, {}),
    (3, "random", "round", 12, 12, {}),
    (2, "random", "game", 4, 4, {"target_score": 60}),
    (2, "heuristic", "game", 8, 8, {"target_score": 150}),
    (3, "heuristic", "game", 6, 6, {"target_score": 100, "challenge": False}),
    (4, "heuristic", "round", 40, 20, {"target_score": 50, "drawn_card": "must-play"}),
]


@pytest.mark.parametrize(("players", "chooser", "episode", "games", "slots", "options"), CASES)
def test_the_view_is_the_aec_env_step_for_step(
    players: int, chooser: str, episode: str, games: int, slots: int, options: dict[str, Any]
) -> None:
    report = run_aec(players, games, slots, seed=players * 10 + games, chooser=chooser, episode=episode,
                     options=options)  # fmt: skip
    assert report.mismatches == 0, report.first
    assert report.games >= games


@pytest.mark.parametrize("episode", ["round", "game"])
def test_points_rewards_are_the_aec_envs(episode: str) -> None:
    report = run_aec(3, 12, 12, seed=5, chooser="heuristic", episode=episode, options={"target_score": 120},
                     reward="points")  # fmt: skip
    assert report.mismatches == 0, report.first
    assert report.games >= 12


def test_the_spaces_are_the_aec_envs() -> None:
    view = UnoVectorAECEnv(4, players=3, seed=1)
    single = UnoAECEnv(["classic"], players=3)
    assert view.possible_agents == single.possible_agents
    for agent in view.possible_agents:
        assert view.observation_space(agent) == single.observation_space(agent)
        assert view.action_space(agent) == single.action_space(agent)
    with pytest.raises(RulesetError, match="player_3"):
        view.observe("player_3")


def test_dead_steps_come_in_seat_order_then_the_next_episode() -> None:
    view = UnoVectorAECEnv(16, players=3, episode="round", seed=9)
    rng = np.random.default_rng(9)
    seen: dict[int, list[str]] = {}
    for _ in range(4000):
        observation, rewards, terminated, _truncated, _info = view.last()
        selection = view.agent_selection
        for g in np.flatnonzero(terminated):
            seen.setdefault(int(g), []).append(str(selection[g]))
            assert not observation["action_mask"][g].any()
            assert view.terminations[str(selection[g])][g]
        assert set(rewards[terminated].tolist()) <= {-1.0, 1.0}
        assert not rewards[~terminated].any()
        mask = observation["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else -1 for m in mask])
        view.step(actions)
        if len(seen) >= 4 and all(len(s) >= 3 for s in seen.values()):
            break
    done = [s for s in seen.values() if len(s) >= 3]
    assert len(done) >= 4
    assert all(s[:3] == ["player_0", "player_1", "player_2"] for s in done)


def test_an_illegal_index_names_its_game_and_changes_nothing() -> None:
    view = UnoVectorAECEnv(6, players=2, seed=3)
    observation, *_ = view.last()
    mask = observation["action_mask"]
    actions = mask.argmax(axis=1)
    actions[4] = int(np.flatnonzero(mask[4] == 0)[0])
    before = view.batch.game_state(4)
    with pytest.raises(IllegalActionError, match="game 4"):
        view.step(actions)
    assert view.batch.game_state(4) == before
    with pytest.raises(VectorError):
        view.step(actions[:3])
    with pytest.raises(VectorError):
        view.reset(options={"state": None})


def test_a_wrong_final_observation_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    from unorules.vector import engine

    def stale(self: engine.UnoBatch, g: Any, over: Any) -> None:  # the next round never dealt
        assert self.final_observations is not None
        for seat in range(self.players):
            self.final_observations[g, seat] = self.observe(np.full(self.num_games, seat))[g]

    monkeypatch.setattr(engine.UnoBatch, "_final_views", stale)
    report = run_aec(2, 10, 8, seed=1, chooser="heuristic", episode="round")
    assert report.mismatches == 1
    assert "observation" in report.first
    assert "view:" in report.first


def test_the_modules_example_runs() -> None:
    import doctest

    from unorules.vector import aec

    failures, tried = doctest.testmod(aec)
    assert tried > 0
    assert failures == 0

"""The Gymnasium single-agent environment: Gymnasium's checker, masks in info, bots."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import unorules.rl
from unorules import IllegalActionError, RulesetError
from unorules.bots import HeuristicBot, RandomBot
from unorules.rl import NOOP, UnoEnv


@pytest.mark.parametrize(
    ("names", "options", "players", "opponents"),
    [
        (["classic"], {}, 2, "random"),
        (["classic"], {}, 4, "heuristic"),
        (["classic", "stacking", "seven-o", "jump-in"], {}, 3, "heuristic"),
        (["classic", "partners"], {}, 4, "random"),
    ],
)
def test_gymnasium_env_checker(
    names: list[str], options: dict[str, object], players: int, opponents: str
) -> None:
    uno = gymnasium.make(ENV_ID, rules=names, players=players, options=options, opponents=opponents)
    check_env(uno.unwrapped)


ENV_ID = unorules.rl.gym_env.ENV_ID


def _episode(uno: UnoEnv, seed: int) -> tuple[float, int, dict[str, object]]:
    rng = np.random.default_rng(seed)
    observation, info = uno.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert uno.observation_space.contains(observation)
        mask = info["action_mask"]
        assert mask.dtype == np.int8
        assert mask.any()
        observation, reward, terminated, truncated, info = uno.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, info


def test_masked_random_play_ends_with_a_reward() -> None:
    uno = UnoEnv(["classic"], players=3, opponents="heuristic", episode="round")
    for seed in range(3):
        total, steps, info = _episode(uno, seed)
        assert total in (1.0, -1.0)
        assert steps > 0
        assert not info["action_mask"].any()
        winner = uno.game.state_.rounds[0].winner
        assert (total == 1.0) == (winner == 0)


def test_same_seed_same_episode() -> None:
    first = _episode(UnoEnv(["classic"], players=2, episode="round"), 5)
    again = _episode(UnoEnv(["classic"], players=2, episode="round"), 5)
    assert first[:2] == again[:2]


def test_the_learner_gets_out_of_turn_windows_with_a_no_op() -> None:
    uno = UnoEnv(["classic", "jump-in"], players=4, opponents="random", episode="round", seat=2)
    rng = np.random.default_rng(0)
    _, info = uno.reset(seed=0)
    windows = 0
    for _ in range(400):
        state = uno.game.state_
        if state.current_player != 2:
            windows += 1
            assert info["action_mask"][NOOP] == 1
        else:
            assert info["action_mask"][NOOP] == 0
        _, _, terminated, truncated, info = uno.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            _, info = uno.reset()
    assert windows > 0


def test_illegal_indices_lose_or_raise() -> None:
    uno = UnoEnv(["classic"], players=2)
    _, info = uno.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[1])
    _, reward, terminated, truncated, info = uno.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(IllegalActionError, match="episode is over"):
        uno.step(0)
    strict = UnoEnv(["classic"], players=2, illegal="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="not legal now"):
        strict.step(illegal)


def test_opponents_may_be_bot_objects() -> None:
    uno = UnoEnv(["classic"], players=3, opponents=[HeuristicBot(seed=1), RandomBot(seed=2)], episode="round")
    total, _, _ = _episode(uno, 2)
    assert total in (1.0, -1.0)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(RulesetError, match="give 2 bots"):
        UnoEnv(players=3, opponents=[RandomBot()])
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        UnoEnv(opponents="genius")
    with pytest.raises(RulesetError, match="seat must be 0 to 1"):
        UnoEnv(seat=2)
    with pytest.raises(RulesetError, match="illegal must be"):
        UnoEnv(illegal="ignore")


def test_render_modes() -> None:
    uno = UnoEnv(["classic"], players=2, render_mode="ansi")
    uno.reset(seed=0)
    text = uno.render()
    assert isinstance(text, str)
    assert "player_0" in text


def test_action_masks_for_masked_policy_libraries() -> None:
    uno = UnoEnv(["classic"], players=2)
    _, info = uno.reset(seed=3)
    masks = uno.action_masks()
    assert masks.dtype == np.bool_
    assert np.array_equal(masks, info["action_mask"].astype(bool))

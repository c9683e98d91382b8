"""The PettingZoo AEC environment: PettingZoo's own tests, the window protocol, rewards."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from unorules import IllegalActionError, Ruleset, RulesetError
from unorules.rl import NOOP, UnoAECEnv, env, raw_env
from unorules.testing import rearranged

sys.path.insert(0, str(Path(__file__).parent))
from rl_cases import HOUSE, HOUSE_OPTIONS

SPECIAL_WILDS = (
    ["classic", "swap-hands", "shuffle-hands", "custom-wilds", "blank-cards"],
    {"with_swap_hands": "on", "customizable_wilds": 3, "blank_cards": "R0 house-rule"},
)
CONFIGURATIONS = [
    pytest.param(["classic"], {}, 2, id="classic-2"),
    pytest.param(["classic"], {}, 4, id="classic-4"),
    pytest.param(["classic", "stacking", "seven-o", "jump-in"], {}, 4, id="stacking-seven-o-jump-in"),
    pytest.param(*SPECIAL_WILDS, 3, id="special-wilds"),
    pytest.param(["classic", "partners"], {}, 4, id="partners"),
    pytest.param(["classic", "elimination"], {"elimination_limit": 60}, 3, id="elimination"),
    pytest.param(HOUSE, HOUSE_OPTIONS, 3, id="house"),
]


@pytest.mark.parametrize(("names", "options", "players"), CONFIGURATIONS)
@pytest.mark.parametrize("episode", ["round", "game"])
def test_pettingzoo_api_seed_and_render_tests(
    names: list[str], options: dict[str, Any], players: int, episode: str
) -> None:
    def make(render_mode: str | None = None) -> Any:
        return env(names, players, options, episode=episode, render_mode=render_mode)

    with warnings.catch_warnings():
        # PettingZoo warns about dict observations for environments not on its own list of
        # classic games; its classic games (chess, connect four...) use the same layout.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(make(), num_cycles=200)
    seed_test(make, num_cycles=100)
    render_test(make)


def _play(game: Any, seed: int, pick: Any = None) -> None:
    """Play one episode with uniformly random masked actions."""
    rng = np.random.default_rng(seed)
    game.reset(seed=seed)
    for _agent in game.agent_iter():
        observation, _reward, terminated, truncated, _info = game.last()
        if terminated or truncated:
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def _record(game: UnoAECEnv, seed: int) -> dict[str, float]:
    """Play an episode; the reward each agent collected."""
    rng = np.random.default_rng(seed)
    game.reset(seed=seed)
    total: dict[str, float] = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _info = game.last()
        total[agent] += reward
        if terminated or truncated:
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return total


def test_round_rewards_go_to_the_winner() -> None:
    game = raw_env(["classic"], players=3, episode="round")
    total = _record(game, seed=4)
    winner = game.state_.rounds[0].winner
    assert winner is not None
    assert total == {a: (1.0 if a == f"player_{winner}" else -1.0) for a in game.possible_agents}
    assert game.agents == []


def test_partners_reward_the_whole_team() -> None:
    game = raw_env(["classic", "partners"], players=4, episode="round")
    total = _record(game, seed=2)
    winner = game.state_.rounds[0].winner
    assert winner is not None
    team = {winner, (winner + 2) % 4}
    assert total == {f"player_{s}": (1.0 if s in team else -1.0) for s in range(4)}


def test_points_rewards_follow_the_scoring() -> None:
    game = raw_env(["classic"], players=2, episode="round", reward="points")
    total = _record(game, seed=1)
    points = game.state_.rounds[0].points
    assert total == {f"player_{s}": points[s] / 100 for s in range(2)}
    assert max(total.values()) > 0


def test_a_game_episode_ends_with_the_outcome() -> None:
    game = raw_env(["classic"], players=2, options={"target_score": 100})
    total = _record(game, seed=3)
    assert game.state_.is_over
    assert len(game.state_.rounds) >= 1
    (winner,) = game.state_.outcome.winners
    assert total[f"player_{winner}"] == 1.0
    assert sum(total.values()) == 0.0


def test_eliminated_seats_leave_before_the_end() -> None:
    game = raw_env(["classic", "elimination"], players=3, options={"elimination_limit": 40})
    rng = np.random.default_rng(0)
    game.reset(seed=0)
    removed_while_running = []
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _info = game.last()
        if terminated or truncated:
            if not game.state_.is_over:
                removed_while_running.append((agent, reward))
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert game.state_.is_over
    assert removed_while_running
    assert all(r == -1.0 for _, r in removed_while_running)
    # Seats that left in an earlier round; the last to leave ends the game with the others.
    assert {a for a, _ in removed_while_running} < {f"player_{s}" for s in game.state_.left}


def _exposed_table() -> tuple[UnoAECEnv, Any]:
    rules = Ruleset.from_names(["classic"])
    game = raw_env(rules, players=2, episode="round")
    state = rearranged(rules.new_game(players=2, seed=9), hands={0: "R1 G2", 1: "B1 B2 B3"}, top="R5")
    state = state.replace(current_player=0, color=state.top_card.color)
    game.reset(options={"state": state})
    return game, state


def test_the_out_of_turn_window_comes_before_the_turn() -> None:
    game, _ = _exposed_table()
    space = game.space
    assert game.agent_selection == "player_0"
    game.step(space.index(game.state_.legal_actions(0)[0].__class__.parse("0: play R1"), 0))
    # Seat 0 is left with one card without calling UNO: seat 1 is to move, but
    # first seat 0 is offered its window (a late call), and may let it pass.
    assert game.state_.uno_exposed == (0,)
    assert game.state_.current_player == 1
    assert game.agent_selection == "player_0"
    mask = game.observe("player_0")["action_mask"]
    assert {space.describe(i) for i in np.flatnonzero(mask)} == {"noop", "uno"}
    assert not game.observe("player_1")["action_mask"].any()  # not selected: nothing to do now
    game.step(NOOP)
    assert game.agent_selection == "player_1"
    mask = game.observe("player_1")["action_mask"]
    described = {space.describe(i) for i in np.flatnonzero(mask)}
    assert "catch +1" in described
    assert "draw" in described
    assert "noop" not in described
    game.step(space.index(game.state_.legal_actions(1)[0].__class__.parse("1: catch 0"), 1))
    assert len(game.state_.hands[0]) == 3
    assert game.agent_selection == "player_1"


def test_illegal_choices_are_refused_and_change_nothing() -> None:
    game, state = _exposed_table()
    with pytest.raises(IllegalActionError, match="may not pass"):
        game.step(NOOP)  # seat 0 is the seat to move
    draw_b = game.space.index(state.legal_actions(0)[0].__class__.parse("0: play B2"), 0)
    with pytest.raises(IllegalActionError, match=r"not legal now.*legal indices: play R1"):
        game.step(draw_b)
    with pytest.raises(IllegalActionError, match=r"outside 0\.\.70"):
        game.step(500)
    with pytest.raises(IllegalActionError, match="not None"):
        game.step(None)
    assert game.state_ is state
    assert game.agent_selection == "player_0"


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(RulesetError, match="episode must be one of"):
        raw_env(episode="hand")
    with pytest.raises(RulesetError, match="reward must be one of"):
        raw_env(reward="money")
    with pytest.raises(RulesetError, match="players must be 2 to 10"):
        raw_env(players=11)
    with pytest.raises(RulesetError, match="exactly 4 players"):
        raw_env(["classic", "partners"], players=3)
    with pytest.raises(RulesetError, match="options\\['state'\\] must be"):
        raw_env().reset(options={"state": "no"})


def test_max_actions_truncates() -> None:
    game = raw_env(max_actions=5)
    game.reset(seed=1)
    rng = np.random.default_rng(1)
    for _agent in game.agent_iter():
        observation, _reward, terminated, truncated, _info = game.last()
        if terminated or truncated:
            assert truncated
            assert not terminated
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert game._actions == 5
    assert not game.state_.is_over

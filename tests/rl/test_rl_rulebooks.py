"""The reinforcement-learning environments take a preset's name or a rulebook's path as
their rules, and a seat that goes out of a last-loses round is rewarded at the game's end."""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pytest

from unorules import Ruleset, RulesetError
from unorules.rl import raw_env  # importing unorules.rl registers the Gymnasium id
from unorules.rl.pettingzoo_env import make_ruleset

FAMILY = 'name = "Ours"\nplugins = ["classic", "stacking", "seven-o"]\n[options]\nstack_mix = true\n'


def test_make_ruleset_reads_a_preset_a_path_and_options_on_top(tmp_path: Path) -> None:
    path = tmp_path / "ours.toml"
    path.write_text(FAMILY, encoding="utf-8")
    assert make_ruleset("party") is Ruleset.from_preset("party")
    assert make_ruleset(str(path)) is Ruleset.from_file(path)
    assert make_ruleset(path) is Ruleset.from_file(path)
    assert make_ruleset("party", {"stack_mix": True}).options["stack_mix"] is True
    assert make_ruleset("classic,stacking").names == ("classic", "stacking")
    with pytest.raises(RulesetError, match="no rules file"):
        make_ruleset(tmp_path / "missing.toml")


def test_the_pettingzoo_and_gymnasium_environments_take_a_preset(tmp_path: Path) -> None:
    env = raw_env(rules="team-play", players=4)
    assert env.ruleset.spec_text == "classic,partners team_layout=two-teams team_seats=even"
    path = tmp_path / "ours.toml"
    path.write_text(FAMILY, encoding="utf-8")
    gym = gymnasium.make("unorules/Uno-v0", rules=str(path), players=3, opponents="heuristic")
    gym.reset(seed=1)
    assert gym.unwrapped.game.ruleset is Ruleset.from_file(path)
    gym.close()


def test_r_house_last_loses_a_seat_that_goes_out_is_rewarded_at_the_end() -> None:
    env = raw_env(rules="classic,last-loses", players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    rewards: dict[str, float] = {}
    went_out: list[int] = []
    while env.agents:
        agent = env.agent_selection
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        before = env.state_.left
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        went_out += [s for s in env.state_.left if s not in before]
        if went_out and not env.state_.is_over:
            # gone out, but still an agent: rewarded when the game ends
            assert env.possible_agents[went_out[0]] in env.agents
    outcome = env.state_.outcome
    assert outcome is not None
    assert outcome.reason == "last-loses"
    first = env.possible_agents[went_out[0]]
    assert outcome.winners == (went_out[0],)
    assert rewards[first] == 1.0
    assert sorted(rewards.values()).count(-1.0) == 3

"""The RL environments with the two editions: their action space and observation (faces, backs,
the side in play for FLIP!; the new cards of No Mercy), Gymnasium's checker, whole episodes, and a
short real training run on each that beats the untrained policy.

The training reuses ``examples/rl_reinforce.py`` (REINFORCE, a linear softmax policy, numpy only)
with the edition's environment: seat 0 against RandomBot, two players, one round an episode. The
No Mercy run is in the quick tier; FLIP!'s is marked ``slow`` (an untrained policy's rounds are long).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import unorules.rl  # noqa: F401 - registers "unorules/Uno-v0"
from unorules import Ruleset
from unorules.bots import RandomBot, play_game
from unorules.rl import ActionSpace, ObservationEncoder

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_reinforce.py"


def _example(rules: list[str]) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"rl_reinforce_{rules[0]}", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)

    def make_env(seed_offset: int = 0) -> gymnasium.Env[Any, Any]:
        del seed_offset
        return gymnasium.make(
            "unorules/Uno-v0",
            rules=rules,
            players=2,
            opponents="random",
            episode="round",
            reward="win",
            disable_env_checker=True,
        ).unwrapped

    module.make_env = make_env  # the example's training and evaluation, on this edition
    return module


def test_r_flip_view_the_action_space_names_faces_and_each_copy_of_one() -> None:
    space = ActionSpace(Ruleset.from_names(["flip"]), players=3)
    described = [space.describe(i) for i in range(space.n)]
    assert described[1:3] == ["play R1", "play R1#2"]  # light faces first, two copies of each
    assert "play OSE" in described
    assert "play W#4 V" in described  # a wild face: four copies a side, any of the deck's eight colours
    assert "color P" in described
    assert not any("/" in text for text in described)  # never a two-faced card's notation
    rules = Ruleset.from_names(["flip"])
    state = rules.new_game(players=3, seed=2)
    for seat in range(3):
        indices = space.legal_indices(state, seat)
        assert [space.action(i, seat) for i in indices] == list(state.legal_actions(seat))


def test_r_flip_view_the_observation_holds_faces_backs_and_the_side_never_a_hidden_back() -> None:
    rules = Ruleset.from_names(["flip"])
    encoder = ObservationEncoder(rules, players=3)
    names = [f.name for f in encoder.layout]
    assert names[-3:] == ["side", "backs", "draw_pile_back"]
    assert len(encoder.cards) == len({f for c in rules.deck for f in c.faces})
    state = rules.new_game(players=3, seed=4)
    view = state.view(0)
    vector = encoder.encode(view)
    assert encoder.slice(vector, "hand").sum() == len(view.hand)
    backs = encoder.slice(vector, "backs").reshape(3, -1)
    assert backs[0].sum() == 0  # its own backs: hidden (flip_own_backs=hidden)
    assert backs[1].sum() == len(state.hands[1])
    assert encoder.slice(vector, "draw_pile_back").sum() == 1
    # a state differing only in seat 0's own backs (cards showing the same faces) encodes alike
    side = state.side
    for i, card in enumerate(state.hands[0]):
        twin = next(
            (c for c in state.draw_pile[1:] if c.faces[side] is card.faces[side] and c is not card), None
        )
        if twin is not None:
            hand = list(state.hands[0])
            pile = list(state.draw_pile)
            j = pile.index(twin)
            hand[i], pile[j] = twin, card
            other = state.replace(hands=(tuple(hand), *state.hands[1:]), draw_pile=tuple(pile))
            assert np.array_equal(encoder.encode(other.view(0)), vector)
            break
    else:
        pytest.fail("no twin face in the draw pile")


def test_r_nm_deck_the_observation_and_space_of_no_mercy() -> None:
    rules = Ruleset.from_names(["no-mercy"])
    space = ActionSpace(rules, players=4)
    described = {space.describe(i) for i in range(space.n)}
    assert {
        "play G+4",
        "play RSE",
        "play BDA",
        "play WR+4 B",
        "play W+10 R",
        "play WCR",
        "color Y",
    } <= described
    encoder = ObservationEncoder(rules, players=4)
    assert "backs" not in [f.name for f in encoder.layout]
    assert encoder.feature("color").size == 4


@pytest.mark.parametrize("rules", [["flip"], ["no-mercy"]])
def test_the_gymnasium_environment_passes_its_checker_and_plays_whole_games(rules: list[str]) -> None:
    env = gymnasium.make("unorules/Uno-v0", rules=rules, players=3, opponents="random")
    check_env(env.unwrapped)
    rng = np.random.default_rng(1)
    for episode in range(3):
        _, info = env.reset(seed=episode)
        done = False
        steps = 0
        while not done and steps < 20000:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
            done = terminated or truncated
            steps += 1
        assert done


@pytest.mark.parametrize(
    ("rules", "episodes", "games"),
    [
        (["no-mercy"], 1500, 1000),  # about a minute: short rounds
        # a few minutes: an untrained policy's FLIP! rounds are long
        pytest.param(["flip"], 150, 200, marks=pytest.mark.slow),
    ],
)
def test_a_short_training_run_beats_the_untrained_policy(rules: list[str], episodes: int, games: int) -> None:
    example = _example(rules)
    trained, curve = example.train(episodes, seed=0, block=50)
    untrained = example.LinearPolicy.untrained(example.make_env())
    wins_trained = example.evaluate(trained, games)
    wins_untrained = example.evaluate(untrained, games)
    assert curve.points
    assert wins_trained > wins_untrained, (wins_trained, wins_untrained)
    assert example.two_proportion_p_value(wins_trained, wins_untrained, games) < 0.01


def test_random_bots_play_both_editions_through_the_seat_views() -> None:
    # the bots the environment plays against see faces only (views), never a physical card
    for names in (["flip"], ["no-mercy"]):
        rules = Ruleset.from_names(names)
        final = play_game(rules.new_game(players=2, seed=9), [RandomBot(seed=1), RandomBot(seed=2)])
        assert final.is_over

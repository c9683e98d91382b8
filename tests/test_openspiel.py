"""Rule sets as OpenSpiel games (the openspiel extra): OpenSpiel's own checks
and bots, against ours."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from unorules.bots import HeuristicBot  # noqa: E402
from unorules.openspiel import UnoGame, load, play  # noqa: E402


@pytest.mark.parametrize(
    "text",
    [
        "python_unorules(rules=classic,players=2,episode=round)",
        "python_unorules(rules=classic,players=4,episode=round)",
        "python_unorules(rules=classic;stacking;jump-in;seven-o,players=2,episode=round)",
    ],
)
def test_openspiel_random_sim_test_passes(text: str) -> None:
    game = pyspiel.load_game(text)
    assert isinstance(game, UnoGame)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_chance_deals_and_draws_each_card_with_its_odds() -> None:
    game = load("classic", players=2, episode="round")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 256
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    state.apply_action(7)
    first = dict(state.chance_outcomes())
    deck = game.ruleset.deck
    wild = game.cards().index(next(c for c in deck if str(c) == "W"))
    assert first[wild] == pytest.approx(4 / len(deck))
    rng = random.Random(1)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    assert state.engine is not None
    assert len(state.engine.hands[0]) == 7


def test_resampled_states_keep_the_information_state() -> None:
    game = load("classic;seven-o", players=3, episode="round")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(200):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        player = state.current_player()
        sampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sampled.information_state_string(player) == state.information_state_string(player)
        assert sampled.observation_string(player) == state.observation_string(player)
        assert sampled.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_openspiel_ismcts_and_mcts_play_against_our_bots() -> None:
    game = load("classic", players=2, episode="round")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    searcher = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=2, random_state=np.random.RandomState(1)
    )
    returns = play(game, [searcher, HeuristicBot(seed=2)], seed=4)
    assert sorted(returns) == [-1.0, 1.0]
    # MCTS plays each simulation out with random moves to the round's end (about 0.6 s a
    # rollout of classic): few simulations, against a bot that ends rounds quickly.
    planner = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=2, evaluator=evaluator, random_state=np.random.RandomState(2)
    )
    returns = play(game, [HeuristicBot(seed=1), planner], seed=5)
    assert sorted(returns) == [-1.0, 1.0]


def test_game_strings_hold_no_commas() -> None:
    game = load(load("classic").ruleset, players=2)
    assert "," not in str(game.get_parameters()["rules"])
    with pytest.raises(Exception, match="episode"):
        pyspiel.load_game("python_unorules(rules=classic,episode=forever)")

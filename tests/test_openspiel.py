"""Rule sets as OpenSpiel games (the openspiel extra): OpenSpiel's own checks
and bots, against ours."""

from __future__ import annotations

import copy
import random
import time
import tracemalloc

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from unorules.bots import HeuristicBot  # noqa: E402
from unorules.openspiel import History, UnoGame, UnoState, load, play  # noqa: E402


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


# -- constant cost per step (issue 48, point 9) --------------------------------------------------


def _played(steps: int, seed: int = 1) -> UnoState:
    """A heads-up game of classic played at random to its first decision ``steps`` actions in."""
    rng = random.Random(seed)
    state = load("classic", players=2, episode="game").new_initial_state()
    while len(state.history()) < steps or state.is_chance_node():
        assert not state.is_terminal()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _clone_cost(state: UnoState) -> tuple[int, float]:
    """The memory (bytes, tracemalloc's) and time (seconds, the best of several) of a clone."""
    state.information_state_string(0)  # what a search asks: a clone must not copy it
    state.information_state_tensor(1)
    memory = []
    for _ in range(3):
        tracemalloc.start()
        clone = state.clone()
        memory.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        del clone
    best = float("inf")
    for _ in range(15):
        began = time.perf_counter()
        for _ in range(10):
            state.clone()
        best = min(best, time.perf_counter() - began)
    return min(memory), best


def test_a_clone_after_2000_steps_costs_no_more_than_after_20() -> None:
    short, long = _played(20), _played(2000)
    assert len(long.history_states) > 20 * len(short.history_states) // 2
    short_memory, short_time = _clone_cost(short)
    long_memory, long_time = _clone_cost(long)
    assert long_memory <= 1.5 * short_memory + 1024, (short_memory, long_memory)
    assert long_time <= 3 * short_time, (short_time, long_time)
    clone = long.clone()
    assert clone.information_state_string(0) == long.information_state_string(0)
    assert str(clone) == str(long)


def test_a_clone_goes_its_own_way() -> None:
    state = _played(200)
    clone = state.clone()
    before = state.information_state_string(0)
    rng = random.Random(3)
    for _ in range(30):
        if clone.is_terminal():
            break
        if clone.is_chance_node():
            actions, probs = zip(*clone.chance_outcomes(), strict=True)
            clone.apply_action(rng.choices(actions, probs)[0])
        else:
            clone.apply_action(rng.choice(clone.legal_actions()))
    assert state.information_state_string(0) == before
    assert len(clone.history_states) > len(state.history_states)
    assert list(clone.history_states)[: len(state.history_states)] == list(state.history_states)
    seen = before.rsplit("\n", 1)[0]  # its last line: whether the seat is asked now
    assert clone.information_state_string(0).startswith(seen + "\n")


def test_a_history_is_a_persistent_sequence() -> None:
    empty: History[int] = History()
    three = empty.plus(1).plus(2).plus(3)
    other = three.before().plus(9)
    assert list(three) == [1, 2, 3]
    assert list(other) == [1, 2, 9]
    assert (len(empty), three[0], three[-1], three[1:], other[-2:]) == (0, 1, 3, [2, 3], [2, 9])
    assert list(reversed(three)) == [3, 2, 1]
    assert copy.deepcopy(three) is three
    with pytest.raises(IndexError):
        three[3]
    with pytest.raises(IndexError):
        empty.first()


@pytest.mark.slow
@pytest.mark.parametrize(("players", "target"), [(2, 100), (4, 10)])
def test_random_sim_test_plays_whole_games_within_a_memory_bound(
    players: int, target: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = [0]
    apply = UnoState._apply_action

    def counted(self: UnoState, action: int) -> None:
        steps[0] += 1
        apply(self, action)

    monkeypatch.setattr(UnoState, "_apply_action", counted)
    game = load(f"classic target_score={target}", players=players, episode="game")
    tracemalloc.start()
    try:
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # random_sim_test keeps a clone of every state it passed: each must cost a constant
    assert peak < 40_000 * steps[0] + (8 << 20), (peak, steps[0])

"""unorules.vector: the batched engine is the reference engine, game for game.

The differential runs (``vector_check.run``) shadow every game of a batch with
the reference env (``unorules.rl.UnoAECEnv``) started from the same seed, feed
both the same actions (random among the legal indices, or HeuristicBot's
choice on the reference state) and compare, at every step, the seat asked,
its mask, its observation and the whole state. The fast tier plays a few
thousand games; the slow tier (``UNORULES_SLOW=1``) over 100,000.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from vector_check import Keys, run

import unorules
from unorules import IllegalActionError, Rng, RulesetError, UnorulesError, seed_state
from unorules.rl import (
    ACTION_SPACE_VERSION,
    NOOP,
    OBSERVATION_VERSION,
    ActionSpace,
    ObservationEncoder,
    UnoEnv,
)
from unorules.vector import SUPPORTED_OPTIONS, UnoBatch, VectorError
from unorules.vector.env import UnoVectorEnv

CLASSIC = unorules.Ruleset.from_names(["classic"])


def _check(report: Any, games: int) -> None:
    assert report.mismatches == 0, report.first
    assert report.games >= games
    assert report.actions > games


# -- identical to the reference, game for game ------------------------------------------------

FAST = [
    # players, chooser, episode, games, slots, limit, options
    (2, "heuristic", "round", 400, 64, None, {}),
    (4, "heuristic", "round", 250, 64, None, {}),
    (7, "heuristic", "round", 120, 48, None, {}),
    (2, "random", "round", 400, 64, 40, {}),
    (4, "random", "round", 300, 64, 40, {}),
    (7, "random", "round", 250, 64, 40, {}),
    (2, "random", "round", 6, 6, None, {}),
    (4, "heuristic", "game", 16, 16, None, {"target_score": 200}),
    (2, "heuristic", "game", 6, 6, None, {}),
]
"""About 1,750 games, all of them compared at every step: heuristic rounds played out, random
games over their deal and first 40 actions (random rounds run to hundreds of actions; the
complete random rounds and the whole games to a target score are the fewer, longer runs)."""

OPTIONS = [
    {"challenge": False},
    {"uno_penalty": 4},
    {"uno_penalty": 6, "wd4_points": 70},
    {"drawn_card": "must-play"},
    {"opening_reverse": "right-of-dealer-starts"},
    {"dealer_draw": "points"},
    {"opening_wild": "redraw"},
]


@pytest.mark.parametrize(("players", "chooser", "episode", "games", "slots", "limit", "options"), FAST)
def test_every_game_passes_through_the_reference_states(
    players: int,
    chooser: str,
    episode: str,
    games: int,
    slots: int,
    limit: int | None,
    options: dict[str, Any],
) -> None:
    report = run(players, games, slots, seed=players * 100 + len(chooser), chooser=chooser, episode=episode,
                 options=options, limit=limit)  # fmt: skip
    _check(report, games)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_every_supported_option_plays_as_the_reference(options: dict[str, Any]) -> None:
    report = run(3, 30, 30, seed=len(str(options)), chooser="heuristic", options=options)
    _check(report, 30)
    report = run(5, 40, 40, seed=7, chooser="random", options=options, limit=30)
    _check(report, 40)


SLOW = [
    (2, "heuristic", "round", 20_000, 512, None),
    (4, "heuristic", "round", 15_000, 512, None),
    (7, "heuristic", "round", 5_000, 256, None),
    (2, "random", "round", 25_000, 512, 60),
    (4, "random", "round", 20_000, 512, 60),
    (7, "random", "round", 15_000, 512, 60),
]
"""100,000 games in all."""


@pytest.mark.slow
@pytest.mark.parametrize(("players", "chooser", "episode", "games", "slots", "limit"), SLOW)
def test_a_hundred_thousand_games_pass_through_the_reference_states(
    players: int, chooser: str, episode: str, games: int, slots: int, limit: int | None
) -> None:
    report = run(players, games, slots, seed=10_000 + players, chooser=chooser, episode=episode, limit=limit)
    _check(report, games)


def test_a_mismatch_names_the_action_and_shows_both_states(monkeypatch: pytest.MonkeyPatch) -> None:
    from unorules.vector import engine

    reshuffle = engine.UnoBatch._reshuffle

    def wrong(self: UnoBatch, game: int) -> None:  # one generator step off after a reshuffle
        reshuffle(self, game)
        self.rng[game] ^= np.uint64(1)

    monkeypatch.setattr(engine.UnoBatch, "_reshuffle", wrong)
    report = run(2, 50, 32, seed=3, chooser="random")
    assert report.mismatches == 1
    assert "first differing action: seat" in report.first
    assert "differing fields: rng" in report.first
    assert "batch:" in report.first
    assert "reference:" in report.first


def test_masks_are_the_action_spaces_masks() -> None:
    """Beside the env's masks (the differential runs): ActionSpace.mask of each reference state."""
    players = 3
    batch = UnoBatch(32, players, episode="round", seed=11)
    space = ActionSpace(batch.ruleset, players)
    states = [CLASSIC.new_game(players, seed=int(s)) for s in batch.seeds]
    rng = np.random.default_rng(11)
    for _ in range(150):
        mask = batch.mask()
        seats = batch.to_act
        actions = np.zeros(32, dtype=np.intp)
        for g, state in enumerate(states):
            seat = int(seats[g])
            reference = space.mask(state, seat)
            if seat != state.current_player:  # offered a window: the no-op and its own actions
                assert space.noop_allowed(state, seat)
            np.testing.assert_array_equal(mask[g], reference, err_msg=f"game {g}")
            actions[g] = rng.choice(np.flatnonzero(reference))
            if actions[g] != NOOP:
                chosen = space.action(int(actions[g]), seat)
                assert chosen is not None
                states[g] = state.apply(chosen)
        result = batch.step(actions)
        for g in np.flatnonzero(result.done):
            states[g] = CLASSIC.new_game(players, seed=int(batch.seeds[g]))


# -- the same layouts as unorules.rl ----------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 11))
def test_action_indices_and_observations_are_those_of_unorules_rl(players: int) -> None:
    batch = UnoBatch(2, players, seed=1)
    space = ActionSpace(CLASSIC, players)
    encoder = ObservationEncoder(CLASSIC, players)
    assert batch.num_actions == space.n
    assert [batch.describe(i) for i in range(space.n)] == [space.describe(i) for i in range(space.n)]
    assert batch.observation_size == encoder.size
    assert batch.cards == encoder.cards
    for g in range(2):
        state = CLASSIC.new_game(players, seed=int(batch.seeds[g]))
        np.testing.assert_array_equal(batch.observe()[g], encoder.encode(state.view(state.current_player)))
        other = (state.current_player + 1) % players
        seats = np.full(2, other)
        np.testing.assert_array_equal(batch.observe(seats)[g], encoder.encode(state.view(other)))


def test_the_layout_versions_are_the_ones_this_engine_follows() -> None:
    # unorules.vector writes these layouts itself: a new version must be followed here too.
    assert ACTION_SPACE_VERSION == 1
    assert OBSERVATION_VERSION == 1


def test_the_vectorised_shuffle_is_the_reference_generators() -> None:
    batch = UnoBatch(1, 2, seed=0)
    states = np.array([seed_state(s) for s in range(200)], dtype=np.uint64)
    decks, after = batch._shuffled_decks(states)  # 200 games: the NumPy path
    for i, state in enumerate(states.tolist()):
        deck = list(batch._deck)
        rng = Rng(state)
        rng.shuffle(deck)
        assert decks[i].tolist() == deck
        assert int(after[i]) == rng.state


# -- seeds, resets ----------------------------------------------------------------------------


def test_each_game_is_new_game_of_its_seed() -> None:
    batch = UnoBatch(40, 4, seed=5)
    keys = Keys(batch)
    rows = keys.batch_rows()
    for g in range(40):
        assert rows[g] == keys.reference(CLASSIC.new_game(4, seed=int(batch.seeds[g])))
    again = UnoBatch(40, 4, seed=5)
    assert again.seeds.tolist() == batch.seeds.tolist()
    assert len(set(batch.seeds.tolist())) == 40
    batch.reset(seeds=list(range(40)))
    rows = keys.batch_rows()
    assert rows[7] == keys.reference(CLASSIC.new_game(4, seed=7))


def test_a_finished_game_is_replaced_by_the_next_one_in_the_same_step() -> None:
    batch = UnoBatch(16, 2, episode="round", seed=2)
    keys = Keys(batch)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(3000):
        before = batch.seeds.copy()
        mask = batch.mask()
        result = batch.step(np.array([rng.choice(np.flatnonzero(row)) for row in mask]))
        done = np.flatnonzero(result.done)
        rows = keys.batch_rows()
        for g in done:
            ended += 1
            assert batch.seeds[g] != before[g]
            assert rows[g] == keys.reference(CLASSIC.new_game(2, seed=int(batch.seeds[g])))
            assert sorted(result.rewards[g].tolist()) == [-1.0, 1.0]
            assert result.final_winner[g] == int(np.argmax(result.rewards[g]))
            assert result.final_scores[g].sum() > 0
        assert not result.rewards[~result.done].any()
        if ended >= 5:
            break
    assert ended >= 5


def test_reset_games_deals_only_the_slots_given() -> None:
    batch = UnoBatch(4, 2, seed=1)
    keys = Keys(batch)
    before = keys.batch_rows()
    batch.reset_games([2], seeds=[99])
    after = keys.batch_rows()
    assert [after[g] == before[g] for g in (0, 1, 3)] == [True, True, True]
    assert after[2] == keys.reference(CLASSIC.new_game(2, seed=99))
    with pytest.raises(VectorError):
        batch.reset_games([2, 2])
    with pytest.raises(VectorError):
        batch.reset_games([4])


# -- refusals and bad input -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "options", "words"),
    [
        (["classic", "stacking"], {}, "stacking"),
        (["classic", "seven-o"], {}, "seven-o"),
        ("classic,jump-in", {}, "jump-in"),
        (["classic"], {"scoring": "low-score"}, "scoring='low-score'"),
        (["classic"], {"challenger": "anyone"}, "challenger='anyone'"),
        (["classic"], {"forced_play": True}, "turn-rules"),
        (["classic"], {"uno_call": "silent"}, "uno-calls"),
        (["classic"], {"hand_limit": 25}, "turn-rules"),
    ],
)
def test_rules_it_does_not_implement_are_refused_naming_the_reference_env(
    rules: Any, options: dict[str, Any], words: str
) -> None:
    with pytest.raises(RulesetError, match=r"unorules\.rl") as caught:
        UnoBatch(4, 3, rules=rules, options=options)
    assert words in str(caught.value)
    with pytest.raises(RulesetError):
        UnoVectorEnv(4, 3, options=options) if rules == ["classic"] else UnoBatch(4, rules=rules)


def test_supported_options_are_taken_from_options_or_a_ruleset() -> None:
    assert "target_score" in SUPPORTED_OPTIONS
    rules = unorules.Ruleset.from_names(["classic"], {"target_score": 50, "challenge": False})
    assert UnoBatch(2, 2, rules=rules).ruleset.options["target_score"] == 50
    with pytest.raises(RulesetError):
        UnoBatch(2, 2, rules=rules, options={"uno_penalty": 4})


@pytest.mark.parametrize(
    "arguments",
    [
        {"num_games": 0},
        {"num_games": True},
        {"players": 1},
        {"players": 11},
        {"episode": "match"},
        {"reward": "score"},
        {"seed": 1.5},
    ],
)
def test_bad_arguments_are_unorules_errors(arguments: dict[str, Any]) -> None:
    values: dict[str, Any] = {"num_games": 2, **arguments}
    with pytest.raises(VectorError) as caught:
        UnoBatch(**values)
    assert isinstance(caught.value, UnorulesError)


def test_an_illegal_index_names_its_game_and_changes_nothing() -> None:
    batch = UnoBatch(8, 3, seed=4)
    keys = Keys(batch)
    before = keys.batch_rows()
    mask = batch.mask()
    actions = mask.argmax(axis=1)
    illegal = int(np.flatnonzero(mask[5] == 0)[0])
    actions[5] = illegal
    with pytest.raises(IllegalActionError, match=r"game 5: action \d+ .* not legal for seat \d") as caught:
        batch.step(actions)
    assert "legal indices" in str(caught.value)
    assert keys.batch_rows() == before
    np.testing.assert_array_equal(batch.mask(), mask)
    for bad in (-1, batch.num_actions):
        actions[5] = bad
        with pytest.raises(IllegalActionError, match="game 5"):
            batch.step(actions)
    with pytest.raises(VectorError):
        batch.step(actions[:4])
    with pytest.raises(VectorError):
        batch.step(actions.astype(np.float32))
    with pytest.raises(VectorError):
        batch.step(mask.argmax(axis=1), active=np.ones(8))
    assert keys.batch_rows() == before
    batch.step(mask.argmax(axis=1))  # legal: it steps
    assert keys.batch_rows() != before


def test_inactive_games_are_left_as_they_are() -> None:
    batch = UnoBatch(6, 2, seed=8)
    keys = Keys(batch)
    before = keys.batch_rows()
    active = np.array([True, False, True, False, False, False])
    actions = np.where(active, batch.mask().argmax(axis=1), 999)  # inactive entries are not read
    batch.step(actions, active=active)
    after = keys.batch_rows()
    assert [after[g] == before[g] for g in range(6)] == [False, True, False, True, True, True]


# -- memory -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 7, 10])
def test_a_game_takes_at_most_a_kilobyte(players: int) -> None:
    games = 4096
    batch = UnoBatch(games, players, seed=1)
    per_game = batch.nbytes / games
    assert per_game <= 1024, per_game
    assert per_game > 108 + players * 54  # the piles and the hands at least: nbytes counts them


# -- the Gymnasium VectorEnv ------------------------------------------------------------------


def test_the_vector_env_has_the_spaces_of_the_single_env() -> None:
    envs = UnoVectorEnv(16, players=3, seed=1)
    single = UnoEnv(["classic"], players=3)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    observations, info = envs.reset(seed=1)
    assert observations.shape == (16, single.observation_space.shape[0])
    assert all(envs.single_observation_space.contains(o) for o in observations)
    assert (envs.batch.to_act == 0).all()
    assert info["action_mask"].dtype == np.int8
    np.testing.assert_array_equal(envs.action_masks(), info["action_mask"].astype(bool))


def test_the_vector_env_plays_episodes_to_their_rewards() -> None:
    envs = UnoVectorEnv(64, players=2, episode="round", seed=3)
    _observations, info = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    ended, total, windows = 0, 0.0, 0
    for _ in range(3000):
        mask = info["action_mask"]
        assert mask.any(axis=1).all()
        windows += int(mask[:, NOOP].sum())
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        _observations, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        assert set(rewards[terminated].tolist()) <= {-1.0, 1.0}
        assert not rewards[~terminated].any()
        ended += int(terminated.sum())
        total += float(rewards.sum())
        if ended >= 24:
            break
    assert ended >= 24
    assert windows > 0  # the learner is offered catch windows too
    assert abs(total) < ended  # both outcomes happen
    bad = info["action_mask"].argmin(axis=1)
    with pytest.raises(IllegalActionError):
        envs.step(bad)


def test_nothing_imports_the_batched_engine() -> None:
    code = (
        "import sys, unorules, unorules.rl, unorules.cli, unorules.sim, unorules.bots, unorules.record; "
        "assert not [m for m in sys.modules if m.startswith('unorules.vector')]"
    )
    subprocess.run([sys.executable, "-c", code], check=True)

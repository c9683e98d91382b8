"""unorules.sim: one seeded game, runs on any engine, streaming, tallies, JSON lines."""

from __future__ import annotations

import concurrent.futures
import itertools
import os
import random
from typing import Any

import pytest

import unorules
from unorules import sim
from unorules.bots import BOTS, make_bot, next_action

CLASSIC = unorules.Ruleset.from_names(["classic"], {"target_score": 200})
HOUSE = unorules.Ruleset.from_names(["classic", "stacking", "seven-o"], {"target_score": 200})


def simulation(rules: unorules.Ruleset, seed: int | str = 5, players: int = 3, **kw: Any) -> sim.Simulation:
    return sim.Simulation.of(rules, players=players, bots=["heuristic", "random"], seed=seed, **kw)


def key(result: sim.GameResult) -> tuple[str, int]:
    return (result.rules, result.index)


# -- the seeding contract ------------------------------------------------------------------


@pytest.mark.parametrize("rules", [CLASSIC, HOUSE], ids=["classic", "house"])
def test_game_i_is_dealt_from_seed_slash_i_and_its_bots_from_seed_slash_i_slash_seat(
    rules: unorules.Ruleset,
) -> None:
    # The contract written out independently of unorules.sim: what the CLI has always done.
    for index in range(8):
        state = rules.new_game(players=3, seed=f"9/{index}")
        bots = [make_bot(["heuristic", "random"][s % 2], seed=f"9/{index}/{s}") for s in range(3)]
        lengths, count, finished = [], 0, 0
        while not state.is_over:
            state = state.apply(next_action(state, bots))
            count += 1
            if len(state.rounds) != finished:
                finished = len(state.rounds)
                lengths.append(count)
                count = 0
        result = simulation(rules, seed=9).play(index)
        assert result.status == "over"
        assert state.outcome is not None
        assert result.winners == state.outcome.winners
        assert result.reason == state.outcome.reason
        assert result.scores == state.scores
        assert result.round_actions == tuple(lengths)
        assert result.round_winners == tuple(r.winner for r in state.rounds)
        assert result.round_points == tuple(sum(r.points) for r in state.rounds)
        assert result.index == index
        assert result.seed == 9


def test_the_summary_of_a_seeded_run_is_the_one_the_command_line_has_always_printed() -> None:
    # Figures printed by `unorules simulate --games 20 --players 4 --seed 1 --compare classic
    # classic,stacking,seven-o` before unorules.sim existed (bots choosing from views). If a change
    # to the rules or the bots
    # changes games on purpose, these figures change with it: update them from that command.
    expected = {
        "classic": (87, 5810, {"median": 57, "p90": 110, "max": 193}, [6, 0, 14, 0], [34, 0, 53, 0]),
        "classic,stacking,seven-o": (
            102,
            9296,
            {"median": 73.5, "p90": 172, "max": 399},
            [11, 0, 9, 0],
            [48, 5, 49, 0],
        ),
    }
    sims = [
        sim.Simulation.of(
            unorules.Ruleset.from_names(label.split(",")),
            players=4,
            bots=["heuristic", "random"],
            seed=1,
            options={},
            label=label,
        )
        for label in expected
    ]
    tallies = sim.summarize(sim.run(sims, 20))
    for label, (rounds, actions, lengths, seat_wins, round_wins) in expected.items():
        data = tallies[label].to_data()
        assert (data["rounds"], data["actions"], data["round_length"]) == (rounds, actions, lengths)
        assert (data["seat_wins"], data["seat_round_wins"]) == (seat_wins, round_wins)


def test_bots_given_as_objects_are_used_as_they_are() -> None:
    by_name = sim.play_game(CLASSIC, ["random", "random"], seed=3, index=2)
    objects = [make_bot("random", seed="3/2/0"), make_bot("random", seed="3/2/1")]
    assert sim.play_game(CLASSIC, objects, seed=3, index=2) == by_name
    assert by_name.bots == ("random", "random")
    assert by_name.players == 2


def test_round_starters_are_the_seats_to_move_after_each_deal() -> None:
    result = simulation(HOUSE, players=4).play(1)
    assert len(result.round_starters) == result.rounds
    state = HOUSE.new_game(players=4, seed="5/1")
    assert result.round_starters[0] == state.current_player


# -- engines ------------------------------------------------------------------------------


def test_every_engine_gives_the_same_results_game_by_game() -> None:
    sims = [simulation(CLASSIC), simulation(HOUSE, label="house")]
    serial = sorted(sim.run(sims, 12), key=key)
    assert [key(r) for r in serial] == sorted((s.label, i) for s in sims for i in range(12))
    pool = sim.LocalPool(2)
    try:
        local = sorted(sim.run(sims, 12, engine=pool, chunk_size=5), key=key)
    finally:
        pool.close()
    with concurrent.futures.ThreadPoolExecutor(3) as threads:
        threaded = sorted(sim.run(sims, 12, engine=sim.ExecutorEngine(threads, 3), chunk_size=1), key=key)
    assert local == serial
    assert threaded == serial


def test_a_run_streams_any_number_of_games() -> None:
    # 10**10 games: the chunks are made as the run goes, a few ahead of those finished.
    made: list[sim.Chunk] = []
    real = sim.chunks

    def counting(*args: Any, **kwargs: Any) -> Any:
        for chunk in real(*args, **kwargs):
            made.append(chunk)
            yield chunk

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sim, "chunks", counting)
        with concurrent.futures.ThreadPoolExecutor(2) as threads:
            engine = sim.ExecutorEngine(threads, 2, window=3)
            first = list(itertools.islice(sim.run([simulation(CLASSIC)], 10**10, engine=engine), 7))
    assert len(first) == 7
    assert all(r.status == "over" for r in first)
    assert len(made) <= 3 + 7  # the window, plus the chunks whose results were taken


def test_closing_a_run_on_a_local_pool_stops_its_workers() -> None:
    pool = sim.LocalPool(2)
    stream = sim.run([simulation(CLASSIC)], 10**10, engine=pool)
    assert next(stream).status == "over"
    stream.close()
    pool.close()
    assert not any(p.is_alive() for p in (getattr(pool._pool, "_processes", None) or {}).values())


class _DyingBot:
    """A bot whose process dies (as if killed) when it plays game 5."""

    name = "dying"

    def __init__(self, seed: object) -> None:
        self.doomed = str(seed).split("/")[1:2] == ["5"]
        self.inner = make_bot("random", seed=str(seed))

    def choose(self, *args: Any) -> Any:
        if self.doomed:
            os._exit(3)
        return self.inner.choose(*args)


def test_a_worker_that_dies_loses_its_games_and_ends_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "dying", _DyingBot)
    doomed = sim.Simulation.of(CLASSIC, players=2, bots=["dying"], seed=1)
    pool = sim.LocalPool(2)
    got: list[sim.GameResult] = []
    try:
        with pytest.raises(sim.EngineError, match="a worker died"):
            got.extend(sim.run([doomed], 40, engine=pool, chunk_size=2))
    finally:
        pool.close()
    lost = {r.index for r in got if r.status == "lost"}
    assert 5 in lost
    assert all(r.status in ("over", "lost") for r in got)
    assert len({r.index for r in got}) == len(got)
    tally = sim.summarize(got)[doomed.label]
    assert tally.lost == len(lost)
    assert tally.games == len(got) - len(lost)


# -- failures, tallies, JSON lines ------------------------------------------------------------


def test_a_game_that_does_not_end_fails_with_a_reason() -> None:
    result = simulation(CLASSIC, max_actions=3).play(0)
    assert result.status == "failed"
    assert result.reason == "did not end within 3 actions"
    assert result.rounds == 0


def test_tallies_do_not_depend_on_the_order_of_results() -> None:
    house = simulation(HOUSE)
    results = list(sim.run([house], 15))
    expected = sim.summarize(results)[house.label].to_data()
    random.Random(1).shuffle(results)
    assert sim.summarize(results)[house.label].to_data() == expected
    assert expected["games"] == 15
    assert expected["rounds"] == sum(r.rounds for r in results)


def test_a_tally_refuses_results_of_another_table() -> None:
    tally = simulation(CLASSIC).tally()
    other = simulation(CLASSIC, players=2).play(0)
    with pytest.raises(ValueError, match="does not belong"):
        tally.add(other)


def test_a_tally_keeps_the_lowest_failures_only() -> None:
    sims = [simulation(CLASSIC, max_actions=2)]
    tally = sim.summarize(sim.run(sims, sim.MAX_EXAMPLES + 10))["classic"]
    assert tally.failed == sim.MAX_EXAMPLES + 10
    assert [i for i, _ in tally.failures] == list(range(sim.MAX_EXAMPLES))
    assert tally.to_data()["games"] == 0


def test_game_results_are_json_lines() -> None:
    result = simulation(HOUSE).play(3)
    line = result.to_json()
    assert "\n" not in line
    assert sim.GameResult.from_json(line) == result


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("[1]", "a JSON object"),
        ("{", "not JSON"),
        ("[" * 100_000, "not JSON"),
        ('{"rules": "x"}', "needs the field"),
    ],
)
def test_a_bad_json_line_is_a_value_error(line: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        sim.GameResult.from_json(line)


def test_a_json_line_with_a_wrong_type_names_the_field() -> None:
    data = simulation(CLASSIC).play(0).to_data()
    data["winners"] = ["0"]
    with pytest.raises(ValueError, match="'winners' must hold int"):
        sim.GameResult.from_data(data)
    data = simulation(CLASSIC).play(0).to_data()
    data["round_points"] = data["round_points"][:-1]
    with pytest.raises(ValueError, match="differ in length"):
        sim.GameResult.from_data(data)


def test_a_simulation_checks_its_table() -> None:
    partners = unorules.Ruleset.from_names(["classic", "partners"])
    with pytest.raises(unorules.RulesetError):
        sim.Simulation.of(partners, players=3, bots=["random"], seed=1)
    with pytest.raises(ValueError, match="unknown bot"):
        sim.Simulation.of(CLASSIC, players=3, bots=["genius"], seed=1)


def test_cancelling_a_ray_task_is_best_effort(caplog: pytest.LogCaptureFixture) -> None:
    class GoneRay:
        def cancel(self, ref: object, force: bool) -> None:
            raise TypeError("No owner found for object.")

    with caplog.at_level("DEBUG", logger="unorules.sim"):
        sim._cancel(GoneRay(), object())  # nothing raised: nothing is left to stop
    assert "could not cancel a Ray task" in caplog.text


def test_options_that_rebuild_another_rule_set_are_refused() -> None:
    # A run keeps its rule sets by plugins and options, and other processes rebuild them from
    # those: options that name another rule set (a rulebook's own left out) would change the games.
    mixed = unorules.Ruleset.from_names(["classic", "stacking"], {"stack_mix": True})
    with pytest.raises(unorules.RulesetError, match="do not rebuild the rule set classic,stacking"):
        sim.Simulation.of(mixed, players=2, bots=["random"], seed=1, options={})
    plain = sim.Simulation.of(
        unorules.Ruleset.from_names(["classic", "stacking"]), players=2, bots=["random"], seed=1, options={}
    )
    assert plain.ruleset().options["stack_mix"] is False
    assert sim.Simulation.of(mixed, players=2, bots=["random"], seed=1).ruleset() is mixed

"""Rotating partners (R-TEAM-ROTATE): the schedules, the scoring, and whole tournaments of real games."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from unorules_partners import (
    Seating,
    play_rotation,
    rotation_schedule,
    rotation_totals,
    rotation_winners,
    schedule_partnerships,
)

from unorules import Ruleset


def test_r_team_rotate_four_players_three_rounds_partner_everyone_once() -> None:
    schedule = rotation_schedule(4, rounds=3)
    partnerships = schedule_partnerships(schedule)
    assert Counter(partnerships) == Counter(frozenset(p) for p in itertools.combinations(range(4), 2))


def test_r_team_rotate_four_players_default_is_the_seeds_four_rounds() -> None:
    schedule = rotation_schedule(4)
    assert len(schedule) == 4
    # Rounds 1-3 cover every partnership once; round 4 repeats the first pairing.
    assert set(schedule_partnerships(schedule[:3])) == {
        frozenset(p) for p in itertools.combinations(range(4), 2)
    }
    assert schedule[3] == schedule[0]
    for (seating,) in schedule:
        assert sorted(seating) == [0, 1, 2, 3]


def test_r_team_rotate_eight_players_two_tables_28_partnerships() -> None:
    schedule = rotation_schedule(8)
    assert len(schedule) == 7
    for tables in schedule:
        assert len(tables) == 2
        assert sorted(tables[0] + tables[1]) == list(range(8))  # everyone plays, once, every round
    partnerships = schedule_partnerships(schedule)
    assert len(partnerships) == 28
    assert set(partnerships) == {frozenset(p) for p in itertools.combinations(range(8), 2)}


def test_r_team_rotate_more_rounds_cycle_and_bad_requests_fail() -> None:
    assert rotation_schedule(8, rounds=9)[7:] == rotation_schedule(8)[:2]
    with pytest.raises(ValueError, match="4 players at one table or 8 at two"):
        rotation_schedule(6)
    with pytest.raises(ValueError, match="positive integer"):
        rotation_schedule(4, rounds=0)


def test_r_team_rotate_totals_add_each_players_pair_points() -> None:
    schedule = rotation_schedule(4, rounds=3)  # seatings (0,2,1,3), (0,1,2,3), (0,1,3,2)
    points = [
        [(50, 0, 50, 0)],  # players 0 and 1 (seats 0, 2) win 50
        [(0, 30, 0, 30)],  # players 1 and 3 (seats 1, 3) win 30
        [(0, 70, 0, 70)],  # players 1 and 2 (seats 1, 3) win 70
    ]
    totals = rotation_totals(4, schedule, points)
    assert totals == (50, 150, 70, 30)
    assert rotation_winners(totals) == (1,)
    assert rotation_winners((10, 40, 40, 0)) == (1, 2)
    with pytest.raises(ValueError, match="points for 2 rounds"):
        rotation_totals(4, schedule, points[:2])


@functools.cache
def _partners() -> Ruleset:
    return Ruleset.from_names(["classic", "partners"])


def _play_one_round(round_index: int, table: int, seating: Seating) -> Sequence[int]:
    """One real partners round played by random legal actions; its points by seat."""
    state = _partners().new_game(4, seed=f"rotation {round_index} {table} {seating}")
    rng = random.Random(f"{round_index}/{table}")
    while not state.rounds:
        state = state.apply(rng.choice(state.legal_actions()))
    return state.rounds[0].points


@pytest.mark.parametrize(("players", "rounds"), [(4, None), (8, None)])
def test_r_team_rotate_end_to_end_with_real_partners_games(players: int, rounds: int | None) -> None:
    result = play_rotation(players, _play_one_round, rounds)
    assert result.schedule == rotation_schedule(players, rounds)
    # Recompute every player's total from the partnerships: a player earns what their pair won.
    expected = [0] * players
    for tables, table_points in zip(result.schedule, result.points, strict=True):
        for seating, points in zip(tables, table_points, strict=True):
            for a, b in ((0, 2), (1, 3)):
                assert points[a] == points[b]  # both partners get the pair's points (R-TEAM)
                expected[seating[a]] += points[a]
                expected[seating[b]] += points[b]
            assert (points[0] == 0) != (points[1] == 0)  # exactly one pair scored
    assert result.totals == tuple(expected)
    best = max(result.totals)
    assert result.winners == tuple(p for p in range(players) if result.totals[p] == best)
    assert best > 0

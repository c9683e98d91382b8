"""Scenario tests of R-HOUSE-TEAMS: partners at 6, 8 or 10 seats (``team_seats=even``),
in pairs or in two teams (``team_layout``)."""

from __future__ import annotations

from typing import Any

import pytest
from unorules_partners import team_layout

from unorules import Ruleset, RulesetError
from unorules.testing import rearranged
from unorules.testing.conformance import play_checked_game


def rules(**options: Any) -> Ruleset:
    return Ruleset.from_names(["classic", "partners"], options=options)


@pytest.mark.parametrize("players", [6, 8, 10])
def test_r_house_teams_even_seats_play_in_pairs_sitting_opposite(players: int) -> None:
    built = rules(team_seats="even")
    half = players // 2
    assert built.teams(players) == tuple((s, s + half) for s in range(half))
    built.new_game(players, seed=1)


@pytest.mark.parametrize("players", [4, 6, 8, 10])
def test_r_house_teams_two_teams_of_every_other_seat(players: int) -> None:
    built = rules(team_seats="even", team_layout="two-teams")
    assert built.teams(players) == (tuple(range(0, players, 2)), tuple(range(1, players, 2)))


def test_r_house_teams_with_four_seats_both_layouts_are_r_team() -> None:
    assert rules().teams(4) == rules(team_layout="two-teams").teams(4) == ((0, 2), (1, 3))
    assert team_layout(4) == team_layout(4, "two-teams")


@pytest.mark.parametrize(
    ("players", "options"), [(6, {}), (5, {"team_seats": "even"}), (2, {"team_seats": "even"})]
)
def test_r_house_teams_other_counts_are_refused(players: int, options: dict[str, Any]) -> None:
    with pytest.raises(RulesetError, match="partners"):
        rules(**options).new_game(players, seed=1)


def test_r_house_teams_the_team_of_the_seat_out_scores_every_opponents_hand() -> None:
    built = rules(team_seats="even", team_layout="two-teams")
    state = built.new_game(6, seed=3)
    seat = state.current_player
    top = state.top_card
    card = f"{top.color.value}{top.kind}" if top.color is not None else "W"
    state = rearranged(state, hands={seat: card})
    action = next(a for a in state.legal_actions(seat) if a.verb == "play")
    state = state.apply(action)
    result = state.rounds[-1]
    team = tuple(s for s in range(6) if s % 2 == seat % 2)
    others = [s for s in range(6) if s not in team]
    won = sum(built.hand_points(result.hands[s]) for s in others)
    assert all(result.points[s] == won for s in team)
    assert all(result.points[s] == 0 for s in others)
    assert len({state.scores[s] for s in team}) == 1


@pytest.mark.parametrize(
    "options", [{"team_seats": "even"}, {"team_seats": "even", "team_layout": "two-teams"}]
)
@pytest.mark.parametrize("players", [6, 8])
def test_r_house_teams_random_games_keep_every_invariant(options: dict[str, Any], players: int) -> None:
    built = Ruleset.from_names(
        ["classic", "partners", "stacking", "seven-o"], options={**options, "target_score": 150}
    )
    violation, _ = play_checked_game(built, players, seed=players, max_actions=600, eager=0.8, deep_every=50)
    assert violation is None, violation.format() if violation else ""

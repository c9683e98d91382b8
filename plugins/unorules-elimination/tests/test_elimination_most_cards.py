"""Scenario tests of R-HOUSE-ELIM-CARDS: after each round the seat holding the most cards
leaves (``elimination_by=most-cards``)."""

from __future__ import annotations

import random

import pytest

from unorules import Ruleset, RulesetError
from unorules.testing import arrange_deck, rearranged
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly

HANDS = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]


def rules(**options: object) -> Ruleset:
    return Ruleset.from_names(["classic", "elimination"], options={"elimination_by": "most-cards", **options})


def test_r_house_elim_cards_the_seat_holding_the_most_cards_leaves() -> None:
    state = rules().new_game(4, deck=arrange_deck(HANDS, "R5"), dealer=0)
    state = rearranged(state, hands={1: "R1", 2: "B1 B2 B3 B4 B6 B7 B8 B9", 3: "R2 R3"})
    state = state.apply("1: play R1")
    assert state.left == (2,)
    (out,) = [e for e in state.events if e.kind == "eliminated"]
    assert (out.seat, out.rule, dict(out.data)["cards"]) == (2, "R-HOUSE-ELIM-CARDS", 8)


def test_r_house_elim_cards_ties_go_to_the_most_points_then_the_lowest_seat() -> None:
    state = rules().new_game(4, deck=arrange_deck(HANDS, "R5"), dealer=0)
    state = rearranged(state, hands={1: "R1", 0: "Y1 Y2", 2: "B8 B9", 3: "R8 R9"})
    state = state.apply("1: play R1")
    assert state.left == (2,)  # 17 points, as seat 3; seat 2 is the lower seat


def test_r_house_elim_cards_the_winner_never_leaves_and_the_last_seat_left_wins() -> None:
    state = rules().new_game(2, deck=arrange_deck(HANDS[:2], "R5"), dealer=0)
    state = rearranged(state, hands={1: "R1"})
    state = state.apply("1: play R1")
    assert state.outcome is not None
    assert state.outcome.winners == (1,)


def test_r_house_elim_cards_the_points_limit_does_not_apply() -> None:
    with pytest.raises(RulesetError, match="elimination_limit"):
        rules(elimination_limit=100)


def test_r_elim_by_points_stays_the_default() -> None:
    built = Ruleset.from_names(["classic", "elimination"])
    assert built.options["elimination_by"] == "points"


@pytest.mark.parametrize("players", [3, 5])
def test_r_house_elim_cards_random_games_end_with_one_seat_left(players: int) -> None:
    built = Ruleset.from_names(
        ["classic", "elimination", "seven-o"], options={"elimination_by": "most-cards"}
    )
    violation, _ = play_checked_game(
        built, players, seed=players, max_actions=6000, eager=0.9, deep_every=100
    )
    assert violation is None, violation.format() if violation else ""
    state, _ = play_randomly(
        built.new_game(players, seed=players), random.Random(players), max_actions=20_000, eager=0.9
    )
    assert state.is_over
    assert len(state.active_seats) == 1
    assert len(state.rounds) == players - 1  # one seat leaves after each round

"""Scenario tests of R-HOUSE-LAST-LOSES (plugin last-loses), alone and with stacking,
deflect, seven-o and classic's options. Dealer 0: seat 1 plays first, on a red 5."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unorules import GameState, Ruleset, RulesetError
from unorules.testing import arrange_deck, rearranged
from unorules.testing.conformance import play_checked_game

HANDS = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]


def game(
    cards: str,
    plugins: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    players: int = 4,
) -> GameState:
    """Seat 1, to move on a red 5, holds ``cards``."""
    rules = Ruleset.from_names(["classic", "last-loses", *plugins], options=options)
    state = rules.new_game(players=players, deck=arrange_deck(HANDS[:players], "R5"), dealer=0)
    return rearranged(state, hands={1: cards})


def play(state: GameState, *actions: str) -> GameState:
    for action in actions:
        state = state.apply(action)
    return state


def test_r_house_last_loses_a_seat_that_goes_out_leaves_and_play_goes_on() -> None:
    state = play(game("R1"), "1: play R1")
    assert state.left == (1,)
    assert state.extra("last-loses.out") == (1,)
    assert not state.rounds
    assert (state.current_player, state.phase.name) == (2, "play")
    (out,) = [e for e in state.events if e.kind == "went-out"]
    assert (out.seat, dict(out.data)["place"], out.rule) == (1, 1, "R-HOUSE-LAST-LOSES")
    assert not any(a.seat == 1 for a in state.legal_actions())


def test_r_house_last_loses_off_going_out_ends_the_round_r_out() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rearranged(rules.new_game(4, deck=arrange_deck(HANDS, "R5"), dealer=0), hands={1: "R1"})
    state = state.apply("1: play R1")
    assert state.rounds[-1].winner == 1


def test_r_house_last_loses_the_last_seat_holding_cards_loses_and_the_first_out_wins() -> None:
    state = play(game("R1"), "1: play R1")
    state = rearranged(state, hands={2: "R2", 3: "Y9 G9"})
    state = play(state, "2: play R2")
    assert state.left == (1, 2)
    state = rearranged(state, hands={3: "R3 G9", 0: "R4"})
    state = play(state, "3: play R3", "0: play R4")  # seat 3 forgot UNO; seat 0 goes out: the last two
    assert state.is_over
    assert state.outcome is not None
    assert (state.outcome.winners, state.outcome.reason) == ((1,), "last-loses")
    assert state.rounds[-1].winner == 1
    (last,) = [e for e in state.events if e.kind == "last-loses"]
    assert last.seat == 3
    assert dict(last.data)["order"] == (1, 2, 0, 3)


def test_r_house_last_loses_the_first_out_scores_the_losers_hand() -> None:
    state = play(game("R1", players=3), "1: play R1")
    state = rearranged(state, hands={2: "R2", 0: "G9 B9"})
    state = play(state, "2: play R2")
    assert state.rounds[-1].points == (0, 18, 0)
    low = play(game("R1", players=3, options={"scoring": "low-score"}), "1: play R1")
    low = play(rearranged(low, hands={2: "R2", 0: "G9 B9"}), "2: play R2")
    assert low.rounds[-1].points == (18, 0, 0)


@pytest.mark.parametrize(
    ("card", "after"),
    [
        ("RS", {"current_player": 3, "phase": "play"}),  # the Skip still skips seat 2
        ("R+2", {"current_player": 2, "phase": "penalty"}),  # the next seat still draws two
        ("W+4", {"current_player": 2, "phase": "penalty"}),  # no challenge: nothing to show
        ("RR", {"current_player": 0, "phase": "play"}),  # play turns round, from the seat gone
    ],
)
def test_r_house_last_loses_the_card_a_seat_goes_out_with_still_acts(
    card: str, after: Mapping[str, Any]
) -> None:
    action = f"1: play {card} R" if card.startswith("W") else f"1: play {card}"
    state = play(game(card), action)
    assert state.left == (1,)
    assert (state.current_player, state.phase.name) == (after["current_player"], after["phase"])


def test_r_house_last_loses_a_last_draw_card_on_a_stack_adds_to_it() -> None:
    hands = [HANDS[0], "R+2 G2 G3 G4 G6 G7 G8", "B+2 B2 B3 B4 B6 B7 B8", HANDS[3]]
    rules = Ruleset.from_names(["classic", "last-loses", "stacking"])
    state = play(rules.new_game(4, deck=arrange_deck(hands, "R5"), dealer=0), "1: play R+2")
    state = play(rearranged(state, hands={2: "B+2"}), "2: play B+2")
    assert state.left == (2,)
    assert (state.current_player, state.phase.name, state.phase.count) == (3, "penalty", 4)


def test_r_house_last_loses_a_last_zero_passes_the_hands_left_a_last_seven_trades_none() -> None:
    zero = play(game("R0", plugins=("seven-o",)), "1: play R0")
    assert zero.left == (1,)
    assert [e.kind for e in zero.events].count("hands-moved") == 1
    assert not zero.hands[1]
    seven = play(game("R7", plugins=("seven-o",)), "1: play R7 3")
    assert seven.left == (1,)
    assert not [e for e in seven.events if e.kind == "hands-moved"]
    assert not seven.hands[1]


def test_r_house_last_loses_a_seat_jumps_in_with_its_last_card_and_goes_out() -> None:
    state = play(game("R3 G1", plugins=("jump-in",)), "1: uno", "1: play R3")
    state = rearranged(state, hands={3: "R3"})
    assert "3: play R3" in {str(a) for a in state.legal_actions(3)}
    state = play(state, "3: play R3")
    assert state.left == (3,)
    assert (state.current_player, state.phase.name) == (0, "play")  # play goes on from the jumper
    assert not any(a.seat == 3 for a in state.legal_actions())


def test_r_house_last_loses_target_score_does_not_apply() -> None:
    with pytest.raises(RulesetError, match="target_score"):
        Ruleset.from_names(["classic", "last-loses"], options={"target_score": 200})


@pytest.mark.parametrize("other", ["partners", "elimination"])
def test_r_house_last_loses_conflicts_with_partners_and_elimination(other: str) -> None:
    with pytest.raises(RulesetError, match="conflict"):
        Ruleset.from_names(["classic", "last-loses", other])


@pytest.mark.parametrize(
    ("plugins", "options"),
    [
        ((), {}),
        (("stacking", "deflect", "seven-o"), {"stack_mix": True}),
        (("jump-in", "multi-play", "keep-drawing"), {"multi_bomb": True, "scoring": "low-score"}),
        (("penalties", "custom-wilds"), {"enforcement": "table", "custom_wild_1": "discard-wilds"}),
    ],
)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_last_loses_random_games_keep_every_invariant(
    plugins: tuple[str, ...], options: dict[str, Any], players: int
) -> None:
    rules = Ruleset.from_names(["classic", "last-loses", *plugins], options=options)
    violation, _ = play_checked_game(rules, players, seed=players, max_actions=800, eager=0.9, deep_every=50)
    assert violation is None, violation.format() if violation else ""

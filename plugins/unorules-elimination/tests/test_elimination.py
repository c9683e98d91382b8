"""Scenario tests for the elimination tournament (R-ELIM), and a whole tournament by random play."""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

import pytest

from unorules import PLAY, GameState, IllegalActionError, Ruleset, RulesetError
from unorules.testing import arrange_deck, draft_of, rearranged

R_HAND = "R1 R2 R3 R4 R6 R7 R8"
G_HAND = "G1 G2 G3 G4 G5 G6 G7"  # 28 points
B_HAND = "B1 B2 B3 B4 B5 B6 W"  # 21 + 50 = 71 points
Y_HAND = "Y1 Y2 Y3 Y4 Y5 Y6 W"  # 71 points


@functools.cache
def _rules(options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.from_names(["classic", "elimination"], dict(options))


def rules(**options: Any) -> Ruleset:
    return _rules(tuple(sorted(options.items())))


def game(hands: list[str], starter: str, dealer: int, **options: Any) -> GameState:
    return rules(**options).new_game(
        len(hands), deck=arrange_deck(hands, starter, dealer=dealer), dealer=dealer
    )


def round_ended(state: GameState, winner: int, reason: str) -> GameState:
    """``state`` after its round ends with ``winner`` for ``reason`` (the draft's ``end_round``)."""
    draft = draft_of(state)
    draft.end_round(winner, reason)
    return draft.freeze()


def test_r_elim_each_seat_is_charged_its_own_hand() -> None:
    state = game([R_HAND, G_HAND, B_HAND, Y_HAND], "R9", dealer=3)
    after = rearranged(state, hands={0: "R5"}).apply("0: play R5")
    assert after.rounds[0].points == (0, 28, 71, 71)
    assert after.scores == (0, 28, 71, 71)
    assert after.left == ()
    assert not after.is_over


def test_r_elim_a_seat_reaching_the_limit_leaves_and_is_skipped() -> None:
    # Dealer 2: seat 3 plays first (Y1), then seat 0 goes out. Seat 3 is left with 70 points.
    state = game([R_HAND, G_HAND, B_HAND, Y_HAND], "Y9", dealer=2, elimination_limit=70)
    state = rearranged(state, hands={0: "Y5"})
    after = state.apply("3: play Y1").apply("0: play Y5")
    assert after.rounds[0].points == (0, 28, 71, 70)
    # Seat 2 (71) and seat 3 (70) reached the limit of 70.
    assert after.left == (2, 3)
    assert [(e.kind, e.seat, e.rule) for e in after.events if e.kind == "eliminated"] == [
        ("eliminated", 2, "R-ELIM"),
        ("eliminated", 3, "R-ELIM"),
    ]
    # The next dealer would be seat 3, which left: seat 0 deals and seat 1 plays first.
    assert after.dealer == 0
    assert after.hands[2] == after.hands[3] == ()
    assert len(after.hands[0]) == len(after.hands[1]) == 7
    assert len(after.draw_pile) + len(after.discard_pile) == 108 - 14
    with pytest.raises(IllegalActionError, match="seat 3 has left the game"):
        after.apply("3: draw")
    # Nobody who left acts or is named by an action; turns alternate between 0 and 1.
    rng = random.Random(5)
    state = after
    while state.round_number == 2 and not state.is_over:
        assert state.current_player in (0, 1)
        for action in state.legal_actions():
            assert action.seat in (0, 1)
            assert action.target in (None, 0, 1)
        state = state.apply(rng.choice(state.legal_actions()))


def _two_left() -> GameState:
    """A four-seat game in which seats 2 and 3 left after round 1; round 2 is 0 against 1."""
    state = game([R_HAND, G_HAND, B_HAND, Y_HAND], "R9", dealer=3, elimination_limit=50)
    after = rearranged(state, hands={0: "R5"}).apply("0: play R5")
    assert after.left == (2, 3)
    assert after.scores == (0, 28, 71, 71)
    return after


def test_r_elim_last_two_play_head_to_head_under_r_2p() -> None:
    state = _two_left()
    seat = state.current_player
    other = 1 - seat
    state = rearranged(
        state, hands={seat: "RR RS R+2 R5 G3", other: "G7 G8 B1 B2 B3 B4 B5"}, top="R9"
    ).replace(phase=PLAY)
    state = state.apply(f"{seat}: play RR")  # R-2P: a Reverse acts as a Skip
    assert state.current_player == seat
    state = state.apply(f"{seat}: play RS")  # R-2P: after a Skip its player plays again
    assert state.current_player == seat
    state = state.apply(f"{seat}: play R+2")  # R-2P: the opponent draws, the player plays again
    assert state.current_player == other
    state = state.apply(f"{other}: draw")
    assert state.current_player == seat
    assert len(state.hands[other]) == 9


def test_r_elim_the_survivor_wins() -> None:
    state = _two_left()
    seat = state.current_player
    other = 1 - seat
    # Seat `seat` goes out; the other is charged 50 or more and is out too: one survivor.
    state = rearranged(state, hands={seat: "R5", other: "W G1"}, top="R9").replace(phase=PLAY)
    after = state.apply(f"{seat}: play R5")
    assert after.is_over
    assert after.outcome is not None
    assert after.outcome.winners == (seat,)
    assert after.outcome.reason == "last-standing"
    assert sorted(after.left) == sorted({2, 3, other})
    assert after.legal_actions() == ()


def test_r_elim_classic_target_score_does_not_end_the_game() -> None:
    state = game([R_HAND, G_HAND, B_HAND, Y_HAND], "R9", dealer=3, elimination_limit=1000)
    heavy = "W W W W W+4 W+4 W+4 W+4 RS RS RR RR R+2"  # 400 + 100 = 500 points
    after = rearranged(state, hands={0: "R5", 2: heavy}).apply("0: play R5")
    assert after.scores[2] == 500
    assert not after.is_over  # classic alone would have ended the game at 500 (R-WIN)
    assert after.left == ()


def test_r_elim_when_everyone_reaches_the_limit_the_lowest_total_survives() -> None:
    state = rules(elimination_limit=10).new_game(3, seed=4)
    state = rearranged(state, hands={0: "R5 R6", 1: "G7 G8", 2: "B9 B9"})
    # A blocked round (classic's decision): every seat, its winner too, is charged its hand.
    after = round_ended(state, 0, "blocked")
    assert after.scores == (11, 15, 18)
    assert after.outcome is not None
    assert after.outcome.winners == (0,)
    assert after.left == (1, 2)


def test_r_elim_equal_lowest_totals_keep_the_rounds_winner() -> None:
    state = rules(elimination_limit=10).new_game(3, seed=4)
    state = rearranged(state, hands={0: "R5 R6", 1: "G5 G6", 2: "B9 B9"})
    after = round_ended(state, 1, "blocked")
    assert after.scores == (11, 11, 18)
    assert after.outcome is not None
    assert after.outcome.winners == (1,)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target_score": 300}, "target_score does not apply"),
        ({"scoring": "winner-takes-all"}, "contradicts scoring='winner-takes-all'"),
        ({"elimination_limit": 0}, "elimination_limit"),
        ({"elimination_limit": "lots"}, "elimination_limit"),
    ],
)
def test_r_elim_bad_options_fail_when_the_rule_set_is_built(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        Ruleset.from_names(["classic", "elimination"], options)


def test_r_elim_accepts_low_score_which_is_what_it_does() -> None:
    assert Ruleset.from_names(["classic", "elimination"], {"scoring": "low-score"}).options["scoring"] == (
        "low-score"
    )


def _check(state: GameState, deck: Counter[Any]) -> None:
    assert Counter(state.draw_pile + state.discard_pile + sum(state.hands, ())) == deck
    if state.is_over:
        assert state.legal_actions() == ()
        return
    left = state.left
    assert state.current_player not in left
    legal = state.legal_actions()
    assert legal
    assert all(a.seat not in left and a.target not in left for a in legal)


@pytest.mark.parametrize("seed", [11, 12])
def test_r_elim_full_tournament_of_four_by_random_play(seed: int) -> None:
    ruleset = rules()
    deck = Counter(ruleset.deck)
    state = ruleset.new_game(4, seed=seed)
    rng = random.Random(seed)
    left_seen: list[tuple[int, ...]] = [()]
    head_to_head = False
    steps = 0
    while not state.is_over:
        _check(state, deck)
        if state.left != left_seen[-1]:
            assert set(left_seen[-1]) < set(state.left)  # seats only ever leave
            left_seen.append(state.left)
        head_to_head |= len(state.active_seats) == 2
        if steps % 250 == 0:
            assert GameState.from_json(state.to_json()) == state
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1
    _check(state, deck)
    assert GameState.from_json(state.to_json()) == state
    assert head_to_head
    assert state.outcome is not None
    (survivor,) = state.outcome.winners
    assert state.active_seats == (survivor,)
    assert sorted(state.left) == sorted({0, 1, 2, 3} - {survivor})
    assert all(state.scores[s] >= 500 for s in state.left)
    assert state.scores[survivor] < 500
    # Every round charged each seat still in the game its own hand, and nobody else.
    still_in = {0, 1, 2, 3}
    for result in state.rounds:
        for seat in range(4):
            hand_points = ruleset.hand_points(result.hands[seat]) if seat in still_in else 0
            assert result.points[seat] == hand_points
        still_in -= {s for s in still_in if sum(r.points[s] for r in state.rounds[: result.number]) >= 500}
    assert still_in == {survivor}

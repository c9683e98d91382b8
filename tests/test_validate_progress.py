"""The invariants between rounds, hands and the outcome (issue 48, point 6): each
reproduction of the issue is a state ``from_json`` used to accept."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from unorules import GameState, Ruleset, StateFormatError, validate_state


def _state(names: str, players: int, steps: int, seed: int = 3, **options: Any) -> GameState:
    state = Ruleset.from_names(names.split(","), options).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _refused(state: GameState, change: Callable[[dict[str, Any]], None], field: str, *words: str) -> None:
    validate_state(state)
    data = json.loads(state.to_json())
    change(data)
    with pytest.raises(StateFormatError) as info:
        GameState.from_json(json.dumps(data))
    assert info.value.field == field, str(info.value)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


@pytest.mark.parametrize("names", ["classic", "flip", "no-mercy"])
def test_a_game_marked_over_mid_round_is_refused(names: str) -> None:
    state = _state(names, 3, 12)
    assert not state.is_over

    def over(data: dict[str, Any]) -> None:
        data["outcome"] = {"winners": [0], "reason": "target-score"}

    _refused(state, over, "outcome", "no round has ended")


def test_a_finished_game_played_on_or_with_other_winners_is_refused() -> None:
    over = _state("classic", 2, 5000, target_score=50)
    assert over.is_over

    def played_on(data: dict[str, Any]) -> None:
        data["hands"][0].append(data["draw_pile"].pop())

    def other_winner(data: dict[str, Any]) -> None:
        data["outcome"]["winners"] = [1 - data["outcome"]["winners"][0]]

    def not_over(data: dict[str, Any]) -> None:
        data["outcome"] = None

    _refused(over, played_on, "outcome", "mid-round")
    _refused(over, other_winner, "outcome", "is not how this rule set ends the game")
    _refused(over, not_over, "outcome", "the game goes on, but")


def test_a_score_past_the_target_with_play_going_on_is_refused() -> None:
    state = _state("classic", 2, 1500, target_score=300)
    assert state.rounds
    assert not state.is_over

    def score(data: dict[str, Any]) -> None:
        data["scores"][0] = 600

    def score_and_round(data: dict[str, Any]) -> None:
        data["rounds"][-1]["points"][0] += 600 - data["scores"][0]
        data["scores"][0] = 600

    _refused(state, score, "scores[0]", "the rounds played give seat 0")
    _refused(state, score_and_round, "outcome", "a score past the target ends the game")


@pytest.mark.parametrize("names", ["classic", "flip", "no-mercy"])
def test_a_seat_in_play_with_an_empty_hand_is_refused(names: str) -> None:
    state = _state(names, 3, 12)
    assert not state.is_over

    def emptied(data: dict[str, Any]) -> None:
        data["draw_pile"] = data["hands"][1] + data["draw_pile"]
        data["hands"][1] = []
        data["uno_declared"] = [s for s in data["uno_declared"] if s != 1]
        data["uno_exposed"] = [s for s in data["uno_exposed"] if s != 1]

    _refused(state, emptied, "hands[1]", "no cards while it goes on")


def test_uno_books_that_disagree_with_the_hands_are_refused_and_a_call_through_draws_is_not() -> None:
    state = _state("classic", 3, 20)
    seat = next(s for s, hand in enumerate(state.hands) if len(hand) > 2)

    def exposed(data: dict[str, Any]) -> None:
        data["uno_exposed"] = [seat]

    _refused(state, exposed, "uno_exposed[0]", "open to an UNO catch holding")
    # A call stands through the cards drawn after it (it is for the card played next),
    # so a seat that called may hold ten cards: reachable, and accepted.
    data = json.loads(state.to_json())
    data["uno_declared"] = [seat]
    validate_state(GameState.from_json(json.dumps(data)))


def test_no_mercy_a_seat_over_the_mercy_limit_or_knocked_out_with_cards_is_refused() -> None:
    state = _state("no-mercy", 4, 6, mercy_limit=12)
    assert not state.is_over
    seat = next(s for s in state.active_seats if s != state.current_player)
    need = 12 - len(state.hands[seat])

    def over_limit(data: dict[str, Any]) -> None:
        data["hands"][seat] += data["draw_pile"][:need]
        data["draw_pile"] = data["draw_pile"][need:]

    def knocked_with_cards(data: dict[str, Any]) -> None:
        data["left"] = sorted([*data["left"], seat])
        knocked = data["extras"].get("no-mercy.knocked", {"tuple": []})["tuple"]
        data["extras"]["no-mercy.knocked"] = {"tuple": [*knocked, seat]}
        data["uno_declared"] = [s for s in data["uno_declared"] if s != seat]
        data["uno_exposed"] = [s for s in data["uno_exposed"] if s != seat]

    _refused(state, over_limit, f"hands[{seat}]", "R-NM-MERCY")
    _refused(state, knocked_with_cards, f"hands[{seat}]", "has left the game, yet holds")


def test_no_mercy_knocks_out_a_seat_another_plugins_penalty_takes_to_the_limit() -> None:
    # Before: penalties' coaching penalty (draft.draw) left a seat holding the mercy limit in the
    # hand, a state the rules do not allow (and validation now refuses).
    rules = Ruleset.from_names(["no-mercy", "penalties"], {"mercy_limit": 12})
    for seed in range(40):
        state = rules.new_game(players=3, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_over:
                break
            validate_state(state)
            limit_reached = [s for s in state.active_seats if len(state.hands[s]) >= 12]
            assert not limit_reached
            state = state.apply(rng.choice(state.legal_actions()))


def test_flip_after_a_coaching_penalty_the_card_just_drawn_is_still_the_one_to_play() -> None:
    # Before: the seat drew two penalty cards after its drawn card; the check refused the
    # state (the card drawn no longer last) and the rules offered the last card instead.
    rules = Ruleset.from_names(["flip", "penalties"], {"flip_pairing": "seeded"})
    found = 0
    for seed in range(30):
        state = rules.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.is_over:
                break
            hand = state.hands[state.current_player]
            if state.phase.name == "drawn" and hand[-1] is not state.phase.card:
                found += 1
                validate_state(state)
                drawn = max(i for i, card in enumerate(hand) if card is state.phase.card)
                for action in state.legal_actions():
                    if action.verb == "play" and action.seat == state.current_player:
                        assert action.card is not None
                        assert state.hand_index(action.seat, action.card, action.nth) == drawn
            state = state.apply(rng.choice(state.legal_actions()))
    assert found > 0

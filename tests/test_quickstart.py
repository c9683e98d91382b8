"""The README's quick start and the basic game loop."""

import random

import unorules
from unorules.testing import arrange_deck, rearranged


def test_quickstart_plays_a_full_game_to_500() -> None:
    rules = unorules.Ruleset.from_names(["classic"], options={"uno_penalty": 2})
    state = rules.new_game(players=4, seed=7)
    rng = random.Random(7)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.winner is not None
    assert max(state.scores) >= 500
    assert state.scores[state.winner] == max(state.scores)
    assert len(state.rounds) >= 1


def test_same_seed_and_actions_give_equal_states() -> None:
    rules = unorules.Ruleset.from_names(["classic"])
    a = rules.new_game(players=3, seed="x")
    b = rules.new_game(players=3, seed="x")
    rng = random.Random(3)
    for _ in range(300):
        assert a == b
        action = rng.choice(a.legal_actions())
        a, b = a.apply(action), b.apply(str(action))


def test_arranged_deck_deals_the_listed_hands() -> None:
    rules = unorules.Ruleset.from_names(["classic"])
    hands = ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7", "B1 B2 B3 B4 B5 B6 B7"]
    state = rules.new_game(players=3, deck=arrange_deck(hands, "Y5", draw="Y6", dealer=2), dealer=2)
    assert [" ".join(map(str, h)) for h in state.hands] == hands
    assert str(state.top_card) == "Y5"
    assert str(state.draw_pile[0]) == "Y6"
    assert state.current_player == 0


def test_rearranged_keeps_every_card() -> None:
    rules = unorules.Ruleset.from_names(["classic"])
    state = rules.new_game(players=3, seed=1)
    changed = rearranged(state, hands={1: "R7 W"}, top="G5", draw="B+2")
    assert [str(c) for c in changed.hands[1]] == ["R7", "W"]
    assert str(changed.top_card) == "G5"
    assert str(changed.draw_pile[0]) == "B+2"
    every = sorted(map(str, changed.draw_pile + changed.discard_pile + sum(changed.hands, ())))
    assert every == sorted(map(str, rules.deck))

"""Random legal play under the penalties plugin (both enforcement modes) and with the game modes,
checking the state-machine invariants of DEVELOPING.md on every state."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from unorules_penalties import pending_illegal_play

from unorules import Action, GameState, IllegalActionError, Ruleset


def check_state(state: GameState, deck: Counter[Any]) -> None:
    """The invariants every state must keep, plus the penalties plugin's own."""
    assert Counter(state.draw_pile + state.discard_pile + sum(state.hands, ())) == deck
    if state.is_over:
        assert state.legal_actions() == ()
        return
    legal = state.legal_actions()
    assert legal, "legal actions must be non-empty until the game is over"
    assert state.current_player not in state.left
    assert all(a.seat not in state.left and a.target not in state.left for a in legal)
    pending = pending_illegal_play(state)
    if pending is not None:
        # R-PEN-ILLEGAL: the catch window is open only right after the illegal play.
        last = state.last_action
        assert last is not None
        assert last.verb == "play"
        assert last.seat == pending[0]
        assert any(a.verb == "catch_play" for a in legal)
    else:
        assert not any(a.verb == "catch_play" for a in legal)


def play_checked(ruleset: Ruleset, players: int, seed: int, max_steps: int = 40_000) -> tuple[GameState, int]:
    """Play one game by random legal actions, checking every state; returns the end and the step count."""
    deck = Counter(ruleset.deck)
    state = ruleset.new_game(players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        assert steps < max_steps, f"game did not end in {max_steps} actions"
        check_state(state, deck)
        action = rng.choice(state.legal_actions())
        if steps % 97 == 0:
            text = state.to_json()
            copy = GameState.from_json(text)
            assert copy == state
            assert copy.legal_actions() == state.legal_actions()
            assert copy.apply(action) == state.apply(action)
            assert state.to_json() == text  # apply never changes its input
            # Something not legal is refused.
            bogus = Action.of(state.current_player, "catch_play", target=state.current_player)
            with pytest.raises(IllegalActionError):
                state.apply(bogus)
        state = state.apply(action)
        steps += 1
    check_state(state, deck)
    return state, steps


CASES = [
    (["classic", "penalties"], {}, 4),
    (["classic", "penalties"], {"enforcement": "table"}, 3),
    (["classic", "penalties"], {"enforcement": "table", "challenge": False}, 5),
    (["classic", "penalties"], {"enforcement": "table"}, 2),
    (["classic", "penalties", "partners"], {"enforcement": "table"}, 4),
    (["classic", "penalties", "elimination"], {"enforcement": "table"}, 4),
    (["classic", "penalties", "elimination"], {"elimination_limit": 200}, 3),
]


@pytest.mark.parametrize(("names", "options", "players"), CASES)
def test_r_pen_illegal_and_r_pen_coach_random_play_keeps_the_invariants(
    names: list[str], options: dict[str, Any], players: int
) -> None:
    ruleset = Ruleset.from_names(names, options)
    end, _ = play_checked(ruleset, players, seed=len(names) * 10 + players)
    assert end.outcome is not None
    assert end.outcome.winners


def test_r_pen_illegal_random_table_play_makes_and_catches_illegal_plays() -> None:
    ruleset = Ruleset.from_names(["classic", "penalties"], {"enforcement": "table"})
    state = ruleset.new_game(4, seed=3)
    rng = random.Random(3)
    made = caught = coached = 0
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        kinds = [e.kind for e in state.events]
        made += kinds.count("illegal-play")
        caught += kinds.count("caught-play")
        coached += kinds.count("coaching")
    assert made > caught > 0
    assert coached > 0


def test_same_seed_and_actions_give_equal_states_in_table_mode() -> None:
    ruleset = Ruleset.from_names(["classic", "penalties"], {"enforcement": "table"})
    a = ruleset.new_game(4, seed="same")
    b = ruleset.new_game(4, seed="same")
    rng = random.Random(9)
    for _ in range(600):
        if a.is_over:
            break
        action = rng.choice(a.legal_actions())
        a, b = a.apply(action), b.apply(str(action))
        assert a == b

"""Random legal play under the penalties plugin (both enforcement modes) and with the game modes:
every invariant of the testing toolkit, and the penalties plugin's own catch window on every state."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from unorules_penalties import pending_illegal_play

from unorules import Action, GameState, IllegalActionError, Ruleset
from unorules.testing import Replay
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly


def check_catch_window(state: GameState) -> None:
    """The penalties plugin's own invariants, beyond the toolkit's."""
    if state.is_over:
        return
    legal = state.legal_actions()
    assert all(a.target not in state.left for a in legal), "an action names a seat that has left"
    catches = [a for a in legal if a.verb == "catch_play"]
    pending = pending_illegal_play(state)
    if pending is None:
        assert not catches, catches
    else:
        # R-PEN-ILLEGAL: the catch window is open only right after the illegal play.
        last = state.last_action
        assert last is not None
        assert last.verb == "play"
        assert last.seat == pending[0]
        assert catches
    # Nobody catches themselves: refused.
    with pytest.raises(IllegalActionError):
        state.apply(Action.of(state.current_player, "catch_play", target=state.current_player))


CASES = [
    (["classic", "penalties"], {}, 4),
    (["classic", "penalties"], {"enforcement": "table"}, 3),
    (["classic", "penalties"], {"enforcement": "table", "challenge": False}, 5),
    (["classic", "penalties"], {"enforcement": "table"}, 2),
    (["classic", "penalties", "partners"], {"enforcement": "table"}, 4),
    (["classic", "penalties", "elimination"], {"enforcement": "table"}, 4),
    (["classic", "penalties", "elimination"], {"elimination_limit": 200}, 3),
]


def play_checked(ruleset: Ruleset, players: int, seed: int, max_steps: int = 40_000) -> tuple[GameState, int]:
    """Play one seeded random game to its end, checking every invariant of the testing toolkit
    (the cheap ones after every action, all of them every 97 actions, the rounds and the replay)
    and the catch window on every state; return the end and the number of actions.

    A failing invariant prints the game, shrunk, as a replay to paste into a test. (Also used by
    ``test_modes_with_house_rules.py``.)
    """
    violation, length = play_checked_game(ruleset, players, seed, max_actions=max_steps, deep_every=97)
    assert violation is None, violation.format()
    # The toolkit's random play of the same seed plays the same game again, for the catch window.
    start = ruleset.new_game(players, seed=seed)
    check_catch_window(start)
    end, _ = play_randomly(start, random.Random(seed), max_actions=length, each=check_catch_window)
    assert end.is_over, f"the game did not end in {max_steps} actions"
    return end, length


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
    kinds: Counter[str] = Counter()

    def count(state: GameState) -> None:
        kinds.update(e.kind for e in state.events)

    end, _ = play_randomly(ruleset.new_game(4, seed=3), random.Random(3), max_actions=40_000, each=count)
    assert end.is_over
    assert kinds["illegal-play"] > kinds["caught-play"] > 0
    assert kinds["coaching"] > 0


def test_same_seed_and_actions_give_equal_states_in_table_mode() -> None:
    ruleset = Ruleset.from_names(["classic", "penalties"], {"enforcement": "table"})
    states = [ruleset.new_game(4, seed="same")]
    _, actions = play_randomly(states[0], random.Random(9), max_actions=600, each=states.append)
    # The same seed and the actions in notation give the same state after every action.
    replay = Replay(ruleset, 4, "same", actions=[str(a) for a in actions])
    assert list(replay.states()) == states

"""JSON round trips: ``GameState.from_json(state.to_json())`` equals the state
across many states of random games, and the restored state plays on
identically (same legal actions, same next states)."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from unorules import Action, Card, Color, ExtraSpec, GameState, Phase, PhaseSpec, Plugin, Ruleset, hookimpl

SETTINGS: list[tuple[dict[str, Any], int]] = [
    ({}, 4),
    ({"uno_penalty": 4, "wd4_points": 70, "challenger": "anyone"}, 3),
    ({"scoring": "low-score", "target_score": 60, "challenge": "off"}, 2),
    ({"drawn_card": "must-play", "opening_reverse": "right-of-dealer-starts", "opening_wild": "redraw"}, 7),
    ({"target_score": 200}, 10),
]


@functools.cache
def _games() -> tuple[tuple[GameState, ...], ...]:
    """The states of one random game per setting (the last one is over)."""
    games = []
    for i, (options, players) in enumerate(SETTINGS):
        rules = Ruleset.from_names(["classic"], options=options)
        state = rules.new_game(players=players, seed=100 + i)
        rng = random.Random(i)
        states = [state]
        while not state.is_over and len(states) < 1500:
            state = state.apply(rng.choice(state.legal_actions()))
            states.append(state)
        games.append(tuple(states))
    return tuple(games)


def test_random_games_reach_every_phase_and_the_end() -> None:
    phases = {s.phase.name for game in _games() for s in game}
    assert phases >= {"play", "drawn", "penalty", "challenge"}
    assert any(s.uno_exposed for game in _games() for s in game)
    assert any(len(s.rounds) >= 1 for game in _games() for s in game)
    assert _games()[2][-1].is_over


def test_every_state_round_trips_to_an_equal_state() -> None:
    for game in _games():
        rules = game[0].ruleset
        for state in game:
            text = state.to_json()
            restored = GameState.from_json(text, ruleset=rules)
            assert restored == state
            assert hash(restored) == hash(state)
            assert restored.to_json() == text


def test_the_rule_set_is_rebuilt_from_the_json() -> None:
    for game in _games():
        for state in game[:: max(1, len(game) // 15)] + (game[-1],):
            restored = GameState.from_json(state.to_json())
            assert restored.ruleset is state.ruleset  # one rule set object per spec (the cache)
            assert restored.ruleset == state.ruleset
            assert restored.ruleset.options == state.ruleset.options
            assert restored == state


def test_the_restored_state_plays_on_identically() -> None:
    for game in _games():
        rules = game[0].ruleset
        for state in game[::7]:
            restored = GameState.from_json(state.to_json(), ruleset=rules)
            legal = state.legal_actions()
            assert restored.legal_actions() == legal
            for seat in range(state.players):
                assert restored.legal_actions(seat) == state.legal_actions(seat)
            for action in legal:
                assert restored.apply(action) == state.apply(action)


def test_a_game_continued_from_json_ends_exactly_as_the_original() -> None:
    options, players = SETTINGS[0]
    rules = Ruleset.from_names(["classic"], options=options)
    original = rules.new_game(players=players, seed=42)
    rng = random.Random(42)
    choices: list[Action] = []
    states = [original]
    while not original.is_over:
        action = rng.choice(original.legal_actions())
        choices.append(action)
        original = original.apply(action)
        states.append(original)
    middle = len(choices) // 2
    resumed = GameState.from_json(states[middle].to_json())
    for action in choices[middle:]:
        resumed = resumed.apply(str(action))
    assert resumed == original
    assert resumed.scores == original.scores
    assert resumed.winner == original.winner


def test_json_is_plain_data_with_a_format_tag() -> None:
    state = _games()[1][40]
    data = json.loads(state.to_json(indent=2))
    assert data["format"] == "unorules.state/1"
    assert data["ruleset"] == {"plugins": ["classic"], "options": dict(SETTINGS[1][0])}
    assert [len(h) for h in data["hands"]] == [len(h) for h in state.hands]
    assert GameState.from_json(state.to_json(indent=2)) == state


class _Keeper(Plugin):
    """Declares the phase and the extras keys the round trip below stores values in."""

    name = "keeper"
    api_version = 2
    requires = ("classic",)
    verbs: ClassVar[Mapping[str, str]] = {"draw": "turn"}
    phases = (PhaseSpec("test-phase"),)
    extras = tuple(ExtraSpec(f"test-{i}") for i in range(9))

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        return (Action.of(state.current_player, "draw"),) if state.phase.name == "test-phase" else ()


def test_plugin_values_round_trip() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[_Keeper()])
    state = rules.new_game(players=4, seed=100)
    values: list[Any] = [
        None,
        True,
        0,
        -3,
        "text",
        Card.parse("W+4"),
        Color.GREEN,
        Action.parse("2: play W B"),
        (Card.parse("R7"), (Color.RED, None, 5), ()),
    ]
    extras = tuple((f"test-{i}", value) for i, value in enumerate(values) if value is not None)
    state = state.replace(
        extras=extras, phase=Phase("test-phase", 3, Card.parse("G+2"), 1, Color.BLUE, tuple(values), True)
    )
    restored = GameState.from_json(state.to_json(), ruleset=state.ruleset)
    assert restored == state
    assert restored.extra("test-8") == values[8]
    assert restored.extra("test-5") is Card.parse("W+4")
    assert restored.phase == state.phase

"""Fuzzing untrusted input: only ``UnorulesError`` comes out, and nothing changes.

Hypothesis draws JSON text, action text and card text, and mutations of real
states' JSON (every field replaced by values of wrong types or out of range);
``python -m unorules.testing.hostile`` runs the same checks for longer.
"""

from __future__ import annotations

import contextlib
import functools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unorules import Action, Card, GameState, NotationError, Ruleset, StateFormatError, UnorulesError
from unorules.testing.hostile import (
    DEFAULT_RULESETS,
    WRONG_VALUES,
    Tally,
    check_restore,
    json_paths,
    mutate,
    soak,
    soak_state,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)

ACTION_WORDS = ["0", "1", "2", "3", "9", "11", "12", "-1", "²", "play", "draw", "pass", "uno", "catch"]
ACTION_WORDS += ["challenge", "accept", "color", "R7", "r7", "W+4", "B+2", "SW", "Q7", "R", "red", ":", "x"]
action_texts = st.one_of(
    st.text(max_size=30),
    st.lists(st.sampled_from(ACTION_WORDS), max_size=6).map(" ".join),
    st.builds(
        "{}:{}".format,
        st.sampled_from(ACTION_WORDS),
        st.lists(st.sampled_from(ACTION_WORDS), max_size=5).map(" ".join),
    ),
)


@functools.cache
def _states() -> tuple[GameState, ...]:
    """A few states of each default soak rule set, from a short seeded game."""
    found = []
    for i, (names, options, players) in enumerate(DEFAULT_RULESETS):
        state = Ruleset.from_names(names, options).new_game(players=players, seed=i)
        rng = random.Random(i)
        for step in range(120):
            if state.is_over:
                break
            if step % 40 == 0:
                found.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    return tuple(found)


@settings(max_examples=200)
@given(st.one_of(st.text(max_size=60), json_values.map(json.dumps)))
def test_any_json_text_is_refused_with_state_format_error(text: str) -> None:
    with pytest.raises(StateFormatError):
        GameState.from_json(text)


@settings(max_examples=300)
@given(action_texts)
def test_any_action_text_parses_or_raises_notation_error_and_changes_nothing(text: str) -> None:
    state = _states()[1]
    before = state.to_json()
    try:
        action = Action.parse(text, default_seat=0)
    except NotationError:
        pass
    else:
        assert Action.parse(str(action)) is action  # canonical text round-trips to the same object
    with contextlib.suppress(UnorulesError):
        state.apply(text)
    assert state.to_json() == before


@settings(max_examples=300)
@given(
    st.one_of(st.text(max_size=8), st.sampled_from(["r7", " R7 ", "w+4", "W+4", "b+2", "Sw", "cw1", "R 7"]))
)
def test_any_card_text_parses_to_the_interned_card_or_raises_notation_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except NotationError:
        return
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card


@settings(max_examples=150)
@given(
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=4),
    st.sampled_from(WRONG_VALUES) | json_values,
)
def test_a_mutated_real_state_is_refused_or_plays_on(which: int, where: int, how: int, value: Any) -> None:
    state = _states()[which % len(_states())]
    data = json.loads(state.to_json())
    paths = list(json_paths(data))
    path = paths[where % len(paths)]
    tally = Tally()
    rules = None if path[0] == "ruleset" else state.ruleset
    text = json.dumps(mutate(data, path, how, value))
    check_restore(text, random.Random(where), tally, f"path {path}", ruleset=rules)
    assert tally.states_mutated == 1


def test_every_field_of_real_states_replaced_by_every_wrong_value() -> None:
    # Exhaustive over the top-level fields and the first item of each list.
    tally = Tally()
    for state in _states()[::3]:
        data = json.loads(state.to_json())
        paths = [p for p in json_paths(data) if all(k == 0 or isinstance(k, str) for k in p)]
        for path in paths:
            rules = None if path[0] == "ruleset" else state.ruleset
            for value in WRONG_VALUES:
                text = json.dumps(mutate(data, path, 0, value))
                check_restore(text, random.Random(0), tally, str(path), ruleset=rules)
    assert tally.states_refused > 0
    assert tally.states_restored > 0


def test_garbage_texts_against_real_states() -> None:
    tally = Tally()
    for i, state in enumerate(_states()):
        soak_state(state, random.Random(i), tally, mutations=2, texts=40, context=f"state {i}")
    assert tally.action_texts == 40 * len(_states())


def test_a_short_soak() -> None:
    tally = soak(seconds=60, max_games=len(DEFAULT_RULESETS), max_steps=30, every=10)
    assert tally.games == len(DEFAULT_RULESETS)
    assert tally.actions > 0
    assert tally.states_mutated > 0

"""Hostile states and rulebooks (issue 48, points 6 and 7, and its fuzz test).

Every mutation of :mod:`hostile_corpus` is impossible, so each must be refused
with a ``StateFormatError`` (0 accepted nonsense); every rulebook of the hostile
corpus is read or refused with a ``RulesetError``, within a deadline (0 hangs,
0 other exceptions). The quick tier runs a sample; the slow tier all of it,
with the toolkit's random mutations of the same states.
"""

from __future__ import annotations

import contextlib
import json
import random
import signal
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest
from hostile_corpus import MUTATIONS, hostile_rulebooks, impossible_states, real_states

from unorules import GameState, RulesetError, StateFormatError, UnorulesError, validate_state
from unorules.rulebook import Rulebook
from unorules.testing.hostile import WRONG_VALUES, Tally, check_restore, json_paths, mutate


class Hang(Exception):
    """A case ran past its deadline."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the block after ``seconds`` (a hang is a failure, not a wait)."""

    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _refuse_all(states: tuple[GameState, ...]) -> Counter[str]:
    refused: Counter[str] = Counter()
    accepted: list[str] = []
    for state in states:
        validate_state(state)  # the state mutated is itself valid
    for name, state, text in impossible_states(states):
        try:
            with deadline(20):
                GameState.from_json(text)
        except StateFormatError:
            refused[name] += 1
        else:
            accepted.append(f"{name}: {state.ruleset.spec_text} after {state.last_action}")
    assert not accepted, f"{len(accepted)} impossible states accepted, e.g. {accepted[:5]}"
    return refused


def test_a_sample_of_impossible_states_is_refused() -> None:
    # Before (issue 48, point 6): a game marked over mid-round, a score past the target
    # with play going on, a seat in play with an emptied hand, a seat over the mercy
    # limit, a knocked-out seat holding cards all loaded.
    refused = _refuse_all(real_states()[::4])
    assert set(refused) >= set(MUTATIONS) - {"at the elimination limit", "over the mercy limit"}, refused


@pytest.mark.slow
def test_every_impossible_state_of_the_corpus_is_refused() -> None:
    refused = _refuse_all(real_states())
    assert set(refused) == set(MUTATIONS), refused
    assert sum(refused.values()) > 2000, refused


@pytest.mark.slow
def test_random_mutations_of_the_corpus_states_are_refused_or_play_on() -> None:
    # The toolkit's mutations (wrong types, out of range, any JSON value) of the same
    # states: each is refused with StateFormatError, or restores to a state that plays on.
    tally = Tally()
    rng = random.Random(48)
    for state in real_states():
        data = json.loads(state.to_json())
        paths = list(json_paths(data))
        for _ in range(60):
            path = rng.choice(paths)
            rules = None if path[0] == "ruleset" else state.ruleset
            text = json.dumps(mutate(data, path, rng.randrange(5), rng.choice(WRONG_VALUES)))
            with deadline(20):
                check_restore(text, rng, tally, f"path {path}", ruleset=rules)
    assert tally.states_mutated == 60 * len(real_states())
    assert tally.states_refused > 0


def _read_all(paths: list[Path]) -> Counter[str]:
    results: Counter[str] = Counter()
    unnamed: list[str] = []
    for path in paths:
        try:
            with deadline(20):
                Rulebook.from_file(path)
        except RulesetError as exc:
            if not str(exc).startswith((str(path), "cannot read", "no rules file")):
                unnamed.append(str(exc))  # every refusal names the file first
            results["refused"] += 1
        except UnorulesError as exc:  # pragma: no cover - a failure report
            pytest.fail(f"{path.name}: {type(exc).__name__} is not a RulesetError: {exc}")
        except Hang:  # pragma: no cover - a failure report
            pytest.fail(f"{path.name}: reading it hung")
        except Exception as exc:  # pragma: no cover - a failure report
            pytest.fail(f"{path.name}: {type(exc).__name__}: {exc}")
        else:
            results["read"] += 1
    assert not unnamed, unnamed[:5]
    return results


def test_a_sample_of_hostile_rulebooks_is_read_or_refused_clearly(tmp_path: Path) -> None:
    results = _read_all(hostile_rulebooks(tmp_path, random.Random(1), mutations=40))
    assert results["refused"] > 400, results
    assert results["read"] > 0, results


@pytest.mark.slow
def test_many_mutated_rulebooks_are_read_or_refused_clearly(tmp_path: Path) -> None:
    results = _read_all(hostile_rulebooks(tmp_path, random.Random(48), mutations=2000))
    assert results["refused"] > 1000, results

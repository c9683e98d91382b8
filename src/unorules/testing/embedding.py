"""Checks for programs that carry states around: pickling, copying and views.

A server, an RL trainer or a search library copies states between processes
(``pickle``, ``cloudpickle``) and inside one (``copy.deepcopy``), and sends
each client only its seat's view. The checks here raise
:class:`~unorules.testing.InvariantViolation` naming what went wrong:

* :func:`check_pickle_round_trip`: ``pickle``, ``cloudpickle`` (when
  installed) and ``copy.deepcopy`` give an equal state that shares the rule
  set and the interned cards and actions, and plays on exactly like the
  original;
* :func:`random_states`: the states of a seeded random game, to feed the checks.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

from unorules.ruleset import Ruleset
from unorules.state import PLAY, GameState
from unorules.testing.invariants import InvariantViolation

__all__ = ["check_pickle_round_trip", "copiers", "random_states"]


def copiers() -> dict[str, Callable[[Any], Any]]:
    """The ways a state is copied: ``pickle`` (highest protocol), ``cloudpickle``
    (if installed) and ``copy.deepcopy``, by name."""
    found: dict[str, Callable[[Any], Any]] = {
        "pickle": lambda value: pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)),
        "deepcopy": copy.deepcopy,
    }
    try:
        import cloudpickle  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - installed with the test requirements
        return found
    found["cloudpickle"] = lambda value: cloudpickle.loads(cloudpickle.dumps(value))
    return found


def _fail(how: str, detail: str, state: GameState) -> InvariantViolation:
    return InvariantViolation("pickle", f"{how}: {detail} (state {state!r})")


def check_pickle_round_trip(state: GameState, *, play_on: int = 3) -> None:
    """Copy ``state`` every way :func:`copiers` knows; each copy must equal it,
    hold the same rule set object (rebuilt through the per-process cache), the
    same interned cards, actions and colours, the shared ``PLAY`` phase, the
    same legal actions, and give equal states for up to ``play_on`` of its
    legal actions. Its views must round-trip too."""
    legal = state.legal_actions()
    step = max(1, len(legal) // max(1, play_on))
    probes = legal[::step][:play_on]
    for how, copier in copiers().items():
        other = copier(state)
        if not isinstance(other, GameState) or other != state:
            raise _fail(how, "the copy differs from the original", state)
        if other.ruleset is not state.ruleset:
            raise _fail(how, "the copy has a rule set of its own (not rebuilt through the cache)", state)
        for mine, theirs in zip(state.hands, other.hands, strict=True):
            if any(a is not b for a, b in zip(mine, theirs, strict=True)):
                raise _fail(how, "a card in a hand is not the interned card", state)
        if state.last_action is not None and other.last_action is not state.last_action:
            raise _fail(how, "the last action is not the interned action", state)
        if other.color is not state.color:
            raise _fail(how, "the colour is not the same enum member", state)
        if (state.phase is PLAY) != (other.phase is PLAY):
            raise _fail(how, "the ordinary phase is not the shared PLAY object", state)
        if other.legal_actions() != legal or any(
            a is not b for a, b in zip(other.legal_actions(), legal, strict=True)
        ):
            raise _fail(how, "the copy's legal actions differ", state)
        for action in probes:
            if other.apply(action) != state.apply(action):
                raise _fail(how, f"after {action} the copy and the original differ", state)
        for seat in (*range(state.players), None):
            view = state.public_view() if seat is None else state.view(seat)
            if copier(view) != view:
                raise _fail(how, f"the view of seat {seat} does not round-trip", state)


def random_states(
    ruleset: Ruleset, players: int, seed: int | str, *, steps: int = 200, eager: float = 0.7
) -> Iterator[GameState]:
    """The states of one seeded random game of ``ruleset`` (at most ``steps``
    actions after the deal): each step takes a random play with probability
    ``eager`` when one is legal (so rounds end), else any random legal action."""
    rng = random.Random(f"{seed}")
    state = ruleset.new_game(players=players, seed=seed)
    yield state
    for _ in range(steps):
        legal = state.legal_actions()
        if not legal:
            return
        plays = [a for a in legal if a.verb == "play"]
        action = rng.choice(plays if plays and rng.random() < eager else legal)
        state = state.apply(action)
        yield state

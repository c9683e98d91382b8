"""Seeded random play: the legal action chosen at random, and a game played on so.

The conformance runner, the state machine, the explorer and the round
monitor of :mod:`unorules.testing.invariants` play this way
(:func:`choose_action`, :func:`play_randomly`); :mod:`unorules.testing.replay`
re-exports both. It imports nothing beyond the core.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from unorules.actions import Action
from unorules.state import GameState

__all__ = ["choose_action", "play_randomly"]


def choose_action(state: GameState, rng: random.Random, eager: float = 0.0) -> Action:
    """A random legal action of ``state``.

    With probability ``eager`` a ``play`` action is preferred when there is
    one: eager play ends rounds in tens of actions instead of hundreds, which
    lets a bounded run reach round ends, scoring and later rounds. A random
    play after which the seat still holds its card (classic's
    ``misplay_penalty``, R-HOUSE-MISPLAY: the seat keeps the card and draws)
    gives way to up to eleven more tried at random: random misplays keep the
    hands at about a dozen cards, and the round never ends. A play whose card
    goes anywhere else is kept, a card lost by a bug included.
    """
    legal = state.legal_actions()
    if eager and rng.random() < eager:
        plays = [a for a in legal if a.verb == "play"]
        if plays:
            play = rng.choice(plays)
            if len(plays) > 1 and _kept(state, play, state.apply(play)):
                # Drawn only now: where no play is a misplay, the games are the ones they always were.
                for other in rng.sample(plays, min(11, len(plays))):
                    if not _kept(state, other, state.apply(other)):
                        return other
            return play
    return rng.choice(legal)


def _kept(before: GameState, play: Action, after: GameState) -> bool:
    """Whether the seat of ``play`` still holds every copy of its card it held."""
    seat, card = play.seat, play.card
    if seat is None or card is None:
        return False
    return after.hands[seat].count(card) >= before.hands[seat].count(card)


def play_randomly(
    state: GameState,
    rng: random.Random,
    *,
    max_actions: int,
    eager: float = 0.0,
    until: Callable[[GameState], bool] | None = None,
    each: Callable[[GameState], None] | None = None,
) -> tuple[GameState, list[Action]]:
    """Play random legal actions from ``state``; return the last state and the actions.

    Stops when the game is over, after ``max_actions`` actions, or when
    ``until(state)`` is true. ``each`` is called with every new state (to
    check invariants as the game goes).
    """
    actions: list[Action] = []
    for _ in range(max_actions):
        if state.is_over or (until is not None and until(state)):
            break
        action = choose_action(state, rng, eager)
        state = state.apply(action)
        actions.append(action)
        if each is not None:
            each(state)
    return state, actions

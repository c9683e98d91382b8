"""A batched engine for learning: many games of classic UNO stepped at once in NumPy arrays.

:class:`UnoBatch` holds ``num_games`` games of the classic rules as a handful
of arrays and advances every game by one action per :meth:`UnoBatch.step`,
dealing a new game in a slot whose game ended (auto-reset). Its action
indices and observations are those of :mod:`unorules.rl` for the same rule
set and player count (:class:`~unorules.rl.ActionSpace`,
:class:`~unorules.rl.ObservationEncoder`), and every game passes through
exactly the states the reference engine produces for the same seed and the
same actions: the test suite checks it game for game.

The engine needs only NumPy (``pip install "unorules[vector]"``);
:mod:`unorules.vector.env` adds a Gymnasium ``VectorEnv`` over it and
:mod:`unorules.vector.aec` a PettingZoo-style multi-agent view for self-play
(both the ``rl`` extra); :mod:`unorules.vector.jit` computes its masks and
observations as jitted JAX functions (the ``jax`` extra). The core never
imports this package.

Scope: the ``classic`` plugin alone with its options ``target_score``,
``uno_penalty``, ``challenge``, ``wd4_points``, ``drawn_card``,
``opening_reverse``, ``dealer_draw`` and ``opening_wild``, 2 to 10 players.
Any other plugin or option value (the house rules, ``scoring=low-score``,
``challenger=anyone``) is refused with a :class:`~unorules.RulesetError`
naming :mod:`unorules.rl`, the reference environments, which play them.
"""

from __future__ import annotations

from unorules.vector.engine import (
    SUPPORTED_OPTIONS,
    StepResult,
    UnoBatch,
    VectorError,
)

__all__ = ["SUPPORTED_OPTIONS", "StepResult", "UnoBatch", "VectorError"]

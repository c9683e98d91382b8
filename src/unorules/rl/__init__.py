"""Reinforcement learning with unorules: an action space, an observation encoder, environments.

Install the extra: ``pip install "unorules[rl]"`` (numpy, gymnasium, pettingzoo).

* :class:`ActionSpace`: a stable discrete action space built from a rule
  set's declarations (:mod:`unorules.rl.spaces`);
* :class:`ObservationEncoder`: a fixed-size vector from a
  :class:`~unorules.SeatView` (:mod:`unorules.rl.encoder`);
* :func:`env` / :func:`raw_env`: a PettingZoo AEC environment with an
  out-of-turn window protocol (:mod:`unorules.rl.pettingzoo_env`);
* :class:`UnoEnv`: a Gymnasium single-agent environment against the built-in
  bots, registered as ``"unorules/Uno-v0"`` when this package is imported
  (:mod:`unorules.rl.gym_env`).
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium  # noqa: F401
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"unorules.rl needs numpy, gymnasium and pettingzoo ({exc}); install them with: "
        'pip install "unorules[rl]"'
    ) from exc

from unorules.rl.encoder import OBSERVATION_VERSION, Feature, ObservationEncoder, ObservationError
from unorules.rl.gym_env import UnoEnv, register
from unorules.rl.pettingzoo_env import UnoAECEnv, env, raw_env
from unorules.rl.spaces import ACTION_SPACE_VERSION, NOOP, ActionSpace, ActionSpaceError, card_order

__all__ = [
    "ACTION_SPACE_VERSION",
    "NOOP",
    "OBSERVATION_VERSION",
    "ActionSpace",
    "ActionSpaceError",
    "Feature",
    "ObservationEncoder",
    "ObservationError",
    "UnoAECEnv",
    "UnoEnv",
    "card_order",
    "env",
    "raw_env",
    "register",
]

register()

"""A Gymnasium ``VectorEnv`` over :class:`~unorules.vector.UnoBatch`: one learner per game
against uniformly random opponents, every game stepped at once.

>>> import numpy as np
>>> from unorules.vector.env import UnoVectorEnv
>>> envs = UnoVectorEnv(num_envs=8, players=2, seed=3)
>>> observations, info = envs.reset(seed=3)
>>> observations.shape, info["action_mask"].shape
((8, 192), (8, 71))
>>> actions = info["action_mask"].argmax(axis=1)  # a masked policy goes here
>>> observations, rewards, terminated, truncated, info = envs.step(actions)
>>> rewards.shape, terminated.dtype.name
((8,), 'bool')

The learner plays ``seat`` (default 0) in every game and is asked exactly
where :class:`unorules.rl.UnoEnv` asks its learner: on its turn and in every
out-of-turn window offered to it (index 0 lets the window pass). The other
seats choose uniformly among their legal indices (a NumPy generator seeded
from ``seed``), all games at once, until the learner is asked again. The
spaces are those of :class:`unorules.rl.UnoEnv` for the classic rules and
the same player count: ``single_observation_space`` the encoder's ``Box``,
``single_action_space`` a ``Discrete`` over the action space;
``info["action_mask"]`` is the learner's ``int8`` mask per game.

Auto-reset is ``SAME_STEP``: a game that ends in a step reports its reward
and ``terminated=True`` in that step and its slot already holds the next
game, whose first observation is the one returned (no ``final_obs`` is
kept: a finished game has no value left to estimate). Nothing truncates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from unorules.errors import RulesetError
from unorules.rl.encoder import ObservationEncoder
from unorules.rl.spaces import ActionSpace
from unorules.vector.engine import UnoBatch, VectorError

__all__ = ["UnoVectorEnv"]

Obs = npt.NDArray[np.float32]
Actions = npt.NDArray[np.int64]


class UnoVectorEnv(VectorEnv[Obs, Actions, npt.NDArray[Any]]):
    """``num_envs`` games of classic UNO, one learner each (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        seat: int = 0,
        episode: str = "game",
        reward: str = "win",
        seed: int | None = None,
    ) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise RulesetError(f"seat must be 0 to {players - 1}, not {seat!r}")
        self.batch = UnoBatch(num_envs, players, options=options, episode=episode, reward=reward, seed=seed)
        """The :class:`~unorules.vector.UnoBatch` stepped."""
        self.seat = seat
        self.num_envs = num_envs
        encoder = ObservationEncoder(self.batch.ruleset, players)
        space = ActionSpace(self.batch.ruleset, players)
        if encoder.size != self.batch.observation_size or space.n != self.batch.num_actions:
            raise VectorError(  # pragma: no cover - the tests pin both layouts
                "unorules.rl's layout changed: unorules.vector no longer matches it"
            )
        self.single_observation_space = spaces.Box(encoder.low, encoder.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(space.n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._opponents = np.random.default_rng(seed)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new game in every slot (``seed``: the batch's seed stream and the
        opponents' generator); returns the learners' observations and masks."""
        if isinstance(seed, list):
            raise VectorError("give one integer seed: it seeds the stream every game's seed comes from")
        if seed is not None:
            self._opponents = np.random.default_rng(seed)
            self.action_space.seed(seed)
        self.batch.reset(seed=seed)
        self._advance(np.zeros(self.num_envs, dtype=np.float32), np.zeros(self.num_envs, dtype=np.bool_))
        return self.batch.observe(), {"action_mask": self.batch.mask()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Every learner takes its index of ``actions``; the opponents play until each
        learner is asked again. An illegal index raises
        :class:`~unorules.IllegalActionError` naming the game (nothing changes)."""
        result = self.batch.step(actions)
        rewards = result.rewards[:, self.seat].copy()
        done = result.done.copy()
        self._advance(rewards, done)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self.batch.observe(), rewards, done, truncated, {"action_mask": self.batch.mask()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learners' legal indices now, as booleans (for masked-policy libraries)."""
        mask: npt.NDArray[np.bool_] = self.batch.mask().astype(np.bool_)
        return mask

    def _advance(self, rewards: npt.NDArray[np.float32], done: npt.NDArray[np.bool_]) -> None:
        """Random opponents act in every game until the learner is asked in all."""
        batch = self.batch
        while True:
            waiting = batch.to_act != self.seat
            if not waiting.any():
                return
            mask = batch.mask()
            noise = self._opponents.random(mask.shape)
            noise[mask == 0] = -1.0
            result = batch.step(noise.argmax(axis=1), active=waiting)
            rewards += result.rewards[:, self.seat]
            done |= result.done

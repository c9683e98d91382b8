"""A PettingZoo-style multi-agent view of :class:`~unorules.vector.UnoBatch`, for self-play.

:class:`UnoVectorAECEnv` is ``num_envs`` copies of :class:`unorules.rl.UnoAECEnv`
(the raw AEC environment, classic rules) stepped at once: every seat of
every game is an agent (``"player_0"`` ... ``"player_{N-1}"``), each game
selects one agent at a time, and the attributes and methods PettingZoo's
AEC API has for one game hold one entry per game here. An agent loop
written for the single env::

    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(observation)
        env.step(action)

becomes, over the batch (every game's selected agent at once)::

    >>> import numpy as np
    >>> from unorules.vector.aec import UnoVectorAECEnv
    >>> envs = UnoVectorAECEnv(num_envs=8, players=3, episode="round", seed=5)
    >>> envs.reset(seed=5)
    >>> for _ in range(200):
    ...     observation, reward, terminated, truncated, info = envs.last()
    ...     actions = observation["action_mask"].argmax(axis=1)  # one policy for every seat
    ...     envs.step(actions)  # entries of terminated agents are not read
    >>> envs.agent_selection.shape, observation["observation"].shape
    ((8,), (8, 199))

Each game follows the single env step for step: for the same seed and the
same actions it selects the same agents in the same order, shows them the
same observations and masks (window no-ops included) and gives the same
rewards (the test suite checks it against ``UnoAECEnv`` game for game).
When a game's episode ends, its agents are terminated and each takes its
dead step in seat order, as in PettingZoo: :meth:`last` gives it its reward,
``terminated=True``, its observation of the episode's last state and a mask
of zeros, and its action is not read. After the last dead step the slot
holds the game's next episode (auto-reset, seeded from the batch's stream:
``batch.seeds``) and the seat it asks is selected.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from unorules.errors import RulesetError
from unorules.rl.encoder import ObservationEncoder
from unorules.rl.spaces import ActionSpace
from unorules.vector.engine import UnoBatch, VectorError

__all__ = ["UnoVectorAECEnv"]

F32 = npt.NDArray[np.float32]
I8 = npt.NDArray[np.int8]
Bools = npt.NDArray[np.bool_]


class UnoVectorAECEnv:
    """``num_envs`` raw AEC environments of classic UNO, stepped together (see the module
    docstring). ``options``, ``episode`` and ``reward`` are those of
    :class:`unorules.rl.UnoAECEnv` (classic's options that :class:`UnoBatch` plays)."""

    metadata: dict[str, Any] = {"name": "unorules_uno_vector_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        episode: str = "game",
        reward: str = "win",
        seed: int | None = None,
    ) -> None:
        self.batch = UnoBatch(
            num_envs,
            players,
            options=options,
            episode=episode,
            reward=reward,
            seed=seed,
            final_observations=True,
        )
        """The :class:`~unorules.vector.UnoBatch` stepped (``final_observations`` on)."""
        self.num_envs = num_envs
        """The number of games."""
        self.players = players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        """The agents of every game, in seat order."""
        self.agents = list(self.possible_agents)
        """Every agent of every game (a classic game never loses a seat)."""
        encoder = ObservationEncoder(self.batch.ruleset, players)
        space = ActionSpace(self.batch.ruleset, players)
        if encoder.size != self.batch.observation_size or space.n != self.batch.num_actions:
            raise VectorError(  # pragma: no cover - the tests pin both layouts
                "unorules.rl's layout changed: unorules.vector no longer matches it"
            )
        single = spaces.Dict(
            {
                "observation": spaces.Box(encoder.low, encoder.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(space.n,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, single)
        """Each agent's space in one game: that of :class:`unorules.rl.UnoAECEnv`."""
        self.action_spaces = {a: spaces.Discrete(space.n) for a in self.possible_agents}
        """Each agent's action space in one game: that of :class:`unorules.rl.UnoAECEnv`."""
        self._names = np.array(self.possible_agents)
        b = num_envs
        self._dead = np.zeros((b, players), dtype=np.bool_)  # agents yet to take their dead step
        self._final_rewards = np.zeros((b, players), dtype=np.float32)
        self._all = np.arange(b)
        self.reset(seed=seed)

    def __repr__(self) -> str:
        return f"<UnoVectorAECEnv {self.num_envs} games of classic, {self.players} players>"

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observation space in one game."""
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s action space in one game."""
        return self.action_spaces[self._agent(agent)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game in every slot (``seed``: the stream every game's seed comes
        from, see :class:`~unorules.vector.UnoBatch`); no agent is terminated."""
        if options:
            raise VectorError(f"options: none are taken here (got {sorted(options)})")
        self.batch.reset(seed=seed)
        self._dead[:] = False

    @property
    def selected(self) -> I8:
        """``(num_envs,)``: the seat of each game's selected agent."""
        dying = self._dying()
        seats: I8 = np.where(dying, self._dead.argmax(axis=1), self.batch.to_act).astype(np.int8)
        return seats

    @property
    def agent_selection(self) -> npt.NDArray[np.str_]:
        """``(num_envs,)``: each game's selected agent (``"player_{seat}"``)."""
        names: npt.NDArray[np.str_] = self._names[self.selected]
        return names

    @property
    def terminations(self) -> dict[str, Bools]:
        """Each agent's termination in every game (``True`` until its dead step)."""
        return {a: self._dead[:, i].copy() for i, a in enumerate(self.possible_agents)}

    @property
    def truncations(self) -> dict[str, Bools]:
        """Each agent's truncation in every game: nothing truncates."""
        return {a: np.zeros(self.num_envs, dtype=np.bool_) for a in self.possible_agents}

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation in every game and its mask (zeros in the games where it
        is not selected or whose episode ended), as ``UnoAECEnv.observe`` gives them: in a
        game whose agents are taking their dead steps, the episode's last state."""
        seat = self._agent_seat(agent)
        b = self.batch
        observation = b.observe(np.full(self.num_envs, seat))
        dying = self._dying()  # until its last dead step, a game shows its last state
        observation[dying] = self._final()[dying, seat]
        mask = b.mask()
        mask[(self.selected != seat) | dying] = 0
        return {"observation": observation, "action_mask": mask}

    def last(self) -> tuple[dict[str, npt.NDArray[Any]], F32, Bools, Bools, dict[str, Any]]:
        """For each game's selected agent: its observation and mask, its reward since its
        last action (``float32``), whether it is terminated and truncated, and an empty
        info dict."""
        dying = self._dying()
        seat = self.selected.astype(np.intp)
        observation = self.batch.observe(seat)
        mask = self.batch.mask()
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        if dying.any():
            rows = self._all[dying]
            observation[rows] = self._final()[rows, seat[rows]]
            mask[rows] = 0
            rewards[rows] = self._final_rewards[rows, seat[rows]]
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return {"observation": observation, "action_mask": mask}, rewards, dying, truncated, {}

    def step(self, actions: npt.ArrayLike) -> None:
        """Each game's selected agent takes its index of ``actions`` (one per game; the
        entries of terminated agents are not read: they take their dead step). An illegal
        index raises :class:`~unorules.IllegalActionError` naming the game, and no game
        changes."""
        dying = self._dying()
        result = self.batch.step(actions, active=~dying)
        if dying.any():
            rows = self._all[dying]
            self._dead[rows, self._dead[rows].argmax(axis=1)] = False
        ended = result.done
        if ended.any():  # the batch keeps their final observations until they end again
            self._dead[ended] = True
            self._final_rewards[ended] = result.rewards[ended]

    def close(self) -> None:
        """Nothing to release."""

    def _dying(self) -> Bools:
        """The games whose agents are taking their dead steps."""
        return cast(Bools, self._dead.any(axis=1))

    def _final(self) -> F32:
        final = self.batch.final_observations
        assert final is not None
        return final

    def _agent_seat(self, agent: str) -> int:
        return self.possible_agents.index(self._agent(agent))

    def _agent(self, agent: str) -> str:
        if agent not in self.possible_agents:
            raise RulesetError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        return agent

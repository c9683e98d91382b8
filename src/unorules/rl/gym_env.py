"""A Gymnasium single-agent environment: one learning seat against built-in bots.

>>> import gymnasium
>>> import unorules.rl  # registers "unorules/Uno-v0"
>>> uno = gymnasium.make("unorules/Uno-v0", rules=["classic"], players=3, opponents="heuristic")
>>> observation, info = uno.reset(seed=7)
>>> observation.shape == uno.observation_space.shape, info["action_mask"].dtype.name
(True, 'int8')

The learner plays ``seat`` (default 0); every other seat is played by a bot
(``opponents``: a bot name such as ``"random"``, ``"heuristic"`` or ``"search"``,
or a list of bot objects, one
per other seat). The learner is asked exactly when the PettingZoo
environment's window protocol (:mod:`unorules.rl.pettingzoo_env`) would select
it: on its turn, and in every out-of-turn window in which it has a legal
action, where the no-op (index 0) lets the window pass. Bots take their
windows by choosing an action or ``None``. ``info["action_mask"]`` is the
``int8`` mask of the learner's legal indices.

An index that is not legal ends the episode with reward -1 and
``info["illegal_action"] = True`` (``illegal="lose"``, the default, so that
unmasked random agents and Gymnasium's checker can run), or raises
:class:`~unorules.IllegalActionError` (``illegal="raise"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from unorules.bots import Bot, make_bot, show_views
from unorules.errors import IllegalActionError, RulesetError
from unorules.rl.pettingzoo_env import Rules, UnoAECEnv
from unorules.rl.spaces import NOOP

__all__ = ["ENV_ID", "UnoEnv", "register"]

ENV_ID = "unorules/Uno-v0"
"""The Gymnasium id of :class:`UnoEnv`."""

Obs = npt.NDArray[np.float32]


class UnoEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a unorules game as a Gymnasium environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules = ("classic",),
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        opponents: str | Sequence[Bot] = "random",
        seat: int = 0,
        episode: str = "game",
        reward: str = "win",
        illegal: str = "lose",
        render_mode: str | None = None,
        max_actions: int | None = None,
    ) -> None:
        if illegal not in ("lose", "raise"):
            raise RulesetError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.game = UnoAECEnv(rules, players, options, episode, reward, render_mode, max_actions)
        """The underlying :class:`~unorules.rl.UnoAECEnv` (its ``state_`` is the full state)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise RulesetError(f"seat must be 0 to {players - 1}, not {seat!r}")
        if isinstance(opponents, str):
            make_bot(opponents)  # an unknown name fails here
        elif len(opponents) != players - 1:
            raise RulesetError(
                f"opponents: give {players - 1} bots (one per other seat), not {len(opponents)}"
            )
        self.opponents = opponents
        self.seat = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self._agent = self.game.possible_agents[seat]
        self._bots: dict[int, Bot] = {}
        self.observation_space = spaces.Box(self.game.encoder.low, self.game.encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.space.n)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start an episode (seeded: the same deal and bots every time); returns the
        learner's first observation and ``info`` with its ``"action_mask"``."""
        super().reset(seed=seed)
        seeds = self.np_random.integers(0, 2**62, size=self.game.players)
        others = [s for s in range(self.game.players) if s != self.seat]
        if isinstance(self.opponents, str):
            self._bots = {s: make_bot(self.opponents, int(seeds[s])) for s in others}
        else:
            self._bots = dict(zip(others, self.opponents, strict=True))
        self.game.reset(seed=int(seeds[self.seat]))
        show_views(self.game.state_, self._bots)
        self._advance()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The learner takes ``action`` (an index); the bots play until the learner
        is asked again or the episode ends. Returns the observation, the learner's
        reward meanwhile, ``terminated``, ``truncated`` and ``info`` (with
        ``"action_mask"``)."""
        game = self.game
        agent = self._agent
        if agent not in game.agents or game.terminations[agent] or game.truncations[agent]:
            raise IllegalActionError("the episode is over: call reset()")
        index = int(action)
        state = game.state_
        legal = index == NOOP and game.space.noop_allowed(state, self.seat)
        if not legal and index != NOOP:
            chosen = game.space.action(index, self.seat) if 0 <= index < game.space.n else None
            legal = chosen is not None and state.is_legal(chosen)
        if not legal:
            if self.illegal == "raise":
                game.step(index)  # raises IllegalActionError naming the legal indices
            info = self._info()
            info["illegal_action"] = True
            game.terminations = dict.fromkeys(game.agents, True)
            return self._observe(), -1.0, True, False, info
        game.step(index)
        show_views(game.state_, self._bots)
        reward = game.rewards.get(agent, 0.0)
        reward += self._advance()
        terminated = agent not in game.agents or game.terminations[agent]
        truncated = not terminated and game.truncations[agent]
        return self._observe(), float(reward), bool(terminated), bool(truncated), self._info()

    def render(self) -> str | None:
        """``"ansi"``: the game as text; ``"human"``: the same printed."""
        if self.render_mode is None:
            return None
        text = self.game._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal indices now, as booleans (the method masked-policy
        libraries such as sb3-contrib's ``MaskablePPO`` look for)."""
        mask: npt.NDArray[np.bool_] = self._info()["action_mask"].astype(bool)
        return mask

    def _advance(self) -> float:
        """Let the bots act until the learner is selected or its episode is over;
        returns the learner's rewards meanwhile."""
        game = self.game
        agent = self._agent
        reward = 0.0
        while agent in game.agents and not (game.terminations[agent] or game.truncations[agent]):
            selected = game.agent_selection
            if selected == agent:
                break
            if game.terminations[selected] or game.truncations[selected]:
                game.step(None)  # an eliminated seat's last step
                continue
            seat = game._seat_of[selected]
            chosen = self._bots[seat].choose(game.state_.view(seat))
            before = game.state_
            game.step(NOOP if chosen is None else game.space.index(chosen, seat))
            if game.state_ is not before:
                show_views(game.state_, self._bots)  # every new state, to the bots that follow the game
            reward += game.rewards.get(agent, 0.0)
        return reward

    def _observe(self) -> Obs:
        return self.game.encoder.encode(self.game.state_.view(self.seat))

    def _info(self) -> dict[str, Any]:
        game = self.game
        agent = self._agent
        if agent in game.agents and game.agent_selection == agent and not game.terminations[agent]:
            mask = game.space.mask(game.state_, self.seat)
        else:
            mask = np.zeros(game.space.n, dtype=np.int8)
        return {"action_mask": mask}


def register() -> None:
    """Register :class:`UnoEnv` with Gymnasium as ``"unorules/Uno-v0"`` (done on import
    of :mod:`unorules.rl`; harmless to repeat)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="unorules.rl.gym_env:UnoEnv")

"""A PettingZoo AEC environment for any unorules rule set, 2 to 10 players.

>>> from unorules.rl import env
>>> game = env(rules=["classic"], players=2, episode="round")
>>> game.reset(seed=1)
>>> for agent in game.agent_iter():
...     observation, reward, terminated, truncated, info = game.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = int(observation["action_mask"].nonzero()[0][0])  # a policy goes here
...     game.step(action)
>>> sorted(game.rewards) == [] and game.state_.rounds[0].winner in (0, 1)
True

Agents are ``"player_0"`` ... ``"player_{N-1}"`` (seat numbers). Observations
follow PettingZoo's classic environments: a dict with ``"observation"`` (the
:class:`~unorules.rl.ObservationEncoder` vector of the agent's
:class:`~unorules.SeatView`) and ``"action_mask"`` (``int8``, the
:class:`~unorules.rl.ActionSpace` mask; all zeros for an agent that is not
selected). Actions are indices of the action space.

.. rubric:: The out-of-turn window protocol

UNO lets seats act out of turn (UNO calls, catches, jump-ins, challenges by
anyone, depending on the rule set). After every action (and after the deal),
the environment offers a *window*: every seat other than the seat to move that
has a legal action is selected in turn, in turn order from the seat to move
(``state.seats_to_act()``), and may act or take the no-op
(:data:`~unorules.rl.NOOP`, index 0) to let the window pass. When a seat
acts, the state changes and a fresh window starts from the new state; when
every offered seat has passed, the seat to move is selected, and its mask
never allows the no-op. (In the rare phase in which the seat to move has no
legal action but others do, nobody may pass: the first seat offered acts.)

.. rubric:: Episodes and rewards

``episode="game"`` (default) runs to the game's outcome; ``"round"`` ends at
the end of the first round. Rewards come only at the end. ``reward="win"``
(default): +1 for each winning seat (the round's winner, or the game's winning
seats, a partners team included) and -1 for every other seat.
``reward="points"``: each seat's points as the rule set scores them (the
round's ``RoundResult.points``, or the final game scores), divided by 100. In
elimination games a seat that leaves is terminated when it leaves (reward -1
with ``"win"``, its points so far with ``"points"``). ``max_actions`` truncates
an episode after that many applied actions (no-ops not counted).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from unorules.errors import IllegalActionError, RulesetError
from unorules.rl.encoder import ObservationEncoder
from unorules.rl.spaces import NOOP, ActionSpace
from unorules.ruleset import Ruleset
from unorules.state import GameState

__all__ = ["UnoAECEnv", "env", "make_ruleset", "raw_env"]

Rules = Ruleset | str | Sequence[str]

_EPISODES = ("game", "round")
_INT8 = np.dtype(np.int8)  # a dtype object, given positionally: numpy parses keywords slowly
_REWARDS = ("win", "points")


def make_ruleset(rules: Rules, options: Mapping[str, Any] | None = None) -> Ruleset:
    """A :class:`~unorules.Ruleset` from a rule set, ``"classic,stacking"`` or a list of names."""
    if isinstance(rules, Ruleset):
        if options:
            raise RulesetError("give options either in the Ruleset or as options=, not both")
        return rules
    if isinstance(rules, str | Sequence) and not isinstance(rules, bytes):
        return Ruleset.from_names(rules, options)
    raise RulesetError(f"rules must be a Ruleset, a list of plugin names or 'a,b' text, not {rules!r}")


class UnoAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """The raw environment (see the module docstring); :func:`env` wraps it."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "unorules_uno_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules = ("classic",),
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        episode: str = "game",
        reward: str = "win",
        render_mode: str | None = None,
        max_actions: int | None = None,
    ) -> None:
        super().__init__()
        if episode not in _EPISODES:
            raise RulesetError(f"episode must be one of {_EPISODES}, not {episode!r}")
        if reward not in _REWARDS:
            raise RulesetError(f"reward must be one of {_REWARDS}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesetError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if max_actions is not None and (not isinstance(max_actions, int) or max_actions <= 0):
            raise RulesetError(f"max_actions must be a positive integer or None, not {max_actions!r}")
        self.ruleset = make_ruleset(rules, options)
        self.ruleset.new_game(players=players, seed=0)  # refuses a bad player count now
        self.players = players
        self.episode = episode
        self.reward_mode = reward
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.space = ActionSpace(self.ruleset, players)
        """The :class:`~unorules.rl.ActionSpace` of every agent."""
        self.encoder = ObservationEncoder(self.ruleset, players)
        """The :class:`~unorules.rl.ObservationEncoder` of every agent."""
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.space.n,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.space.n) for a in self.possible_agents}
        self._seeds = random.Random()
        self.state_: GameState = self.ruleset.new_game(players=players, seed=0)
        """The full game state (for logging and tests; agents see only their observations)."""
        self._queue: list[int] = []
        self._mask_size = self.space.n
        self.agent_selection: str = self.possible_agents[0]
        self._actions = 0

    # -- PettingZoo API -----------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: with ``seed``, the same game every time; without, the
        next seed of the generator the last seeded reset started.

        ``options={"state": state}`` starts the episode from a
        :class:`~unorules.GameState` of this rule set and player count instead
        (for scenarios, curricula and tests)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = self._seeds.getrandbits(63)
        start = (options or {}).get("state")
        if start is None:
            self.state_ = self.ruleset.new_game(players=self.players, seed=game_seed)
        elif not (
            isinstance(start, GameState) and start.ruleset == self.ruleset and start.players == self.players
        ):
            raise RulesetError(
                f"options['state'] must be a running GameState of {list(self.ruleset.names)} with "
                f"{self.players} seats, not {start!r}"
            )
        elif start.is_over:
            raise RulesetError("options['state'] is a finished game: there is nothing to play")
        else:
            self.state_ = start
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._actions = 0
        self._rewarded = False  # whether self.rewards holds anything but zeros
        self._ended = False  # whether some agent is terminated or truncated
        self._left: tuple[int, ...] = self.state_.left
        self._open_window()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation vector and its action mask (all zeros unless
        the agent is selected)."""
        seat = self._seat_of[agent]
        state = self.state_
        view = state.view(seat)
        observation = self.encoder.encode(view)
        # A zeroed bytearray: storing an item into one is a plain C store, several
        # times cheaper than into an array.array (whose stores parse their argument).
        bits = bytearray(self._mask_size)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            table = self.space._index[seat]
            try:
                for action in view.legal_actions:
                    bits[table[action]] = 1
            except KeyError:
                self.space.legal_indices(state, seat)  # raises, naming the action outside the space
                raise
            current = state.current_player
            if seat != current and self._queue[-1] == current:
                bits[NOOP] = 1
        return {"observation": observation, "action_mask": np.frombuffer(bits, _INT8)}

    def step(self, action: int | None) -> None:
        """The selected agent takes ``action`` (an index of :attr:`space`; ``None``
        for a terminated agent's last step). An illegal index raises
        :class:`~unorules.IllegalActionError` and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must choose an action index, not None")
        seat = self._seat_of[agent]
        state = self.state_
        index = int(action)
        space = self.space
        if index == NOOP:
            current = state.current_player
            if seat == current or self._queue[-1] != current:
                raise IllegalActionError(
                    f"{agent} may not pass (index {NOOP}): it is the seat to move, or someone must act"
                )
            self._cumulative_rewards[agent] = 0.0
            if self._rewarded:
                self._clear_rewards()
                self._rewarded = False
            self._queue.pop(0)  # the seat to move is last and may not pass: the queue never empties
            self.agent_selection = self.possible_agents[self._queue[0]]
        else:
            if not 0 < index < space.n:
                raise IllegalActionError(f"{agent}: action index {index} is outside 0..{space.n - 1}")
            chosen = space._actions[seat][index]
            assert chosen is not None
            try:
                new = state.apply(chosen)
            except IllegalActionError as exc:
                legal = ", ".join(space.describe(i) for i in space.legal_indices(state, seat))
                raise IllegalActionError(
                    f"{agent}: action {index} ({chosen}) is not legal now: {exc}; "
                    f"legal indices: {legal or 'only the no-op'}",
                    rule=exc.rule,
                ) from None
            self._cumulative_rewards[agent] = 0.0
            if self._rewarded:
                self._clear_rewards()
                self._rewarded = False
            self.state_ = new
            self._actions += 1
            if new.is_over or (self.episode == "round" and len(new.rounds) > len(state.rounds)):
                self._finish(new)
            elif new.left != self._left:
                self._eliminate(new)
                self._open_window()
            elif self.max_actions is not None and self._actions >= self.max_actions:
                for a in self.agents:
                    self.truncations[a] = True
                self._ended = True
            else:
                self._open_window()
            if self._rewarded:
                self._accumulate_rewards()
            if self._ended:
                self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``"ansi"``: the game as text; ``"human"``: the same printed."""
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # -- internals ----------------------------------------------------------------

    def _open_window(self) -> None:
        """Queue the seats offered a decision now (see the window protocol)."""
        state = self.state_
        current = state.current_player
        seats = state.seats_to_act()
        if seats == (current,):  # the usual case: nobody may act out of turn
            self._queue = [current]
            self.agent_selection = self.possible_agents[current]
            return
        queue = [s for s in seats if s != current]
        if current in seats:
            queue.append(current)
        if not queue:
            raise RuntimeError(f"no seat may act in a running game: {state!r}")
        self._queue = queue
        self.agent_selection = self.possible_agents[queue[0]]

    def _winners(self, state: GameState) -> tuple[int, ...]:
        if state.outcome is not None and (self.episode == "game" or len(state.rounds) == 0):
            return state.outcome.winners
        result = state.rounds[-1]
        if result.winner is None:
            return ()
        return _team_of(self.ruleset, self.players, result.winner)

    def _finish(self, state: GameState) -> None:
        if self.reward_mode == "win":
            winners = set(self._winners(state))
            for agent in self.agents:
                self.rewards[agent] = 1.0 if self._seat_of[agent] in winners else -1.0
        else:
            points = state.scores if self.episode == "game" else state.rounds[-1].points
            for agent in self.agents:
                self.rewards[agent] = points[self._seat_of[agent]] / 100.0
        for agent in self.agents:
            self.terminations[agent] = True
        self._rewarded = self._ended = True

    def _eliminate(self, state: GameState) -> None:
        for seat in state.left:
            agent = self.possible_agents[seat]
            if seat not in self._left and agent in self.terminations:
                self.terminations[agent] = True
                self.rewards[agent] = -1.0 if self.reward_mode == "win" else state.scores[seat] / 100.0
                self._rewarded = self._ended = True
        self._left = state.left

    def _text(self) -> str:
        state = self.state_
        lines = [
            f"round {state.round_number}, top {state.top_card}, colour {state.color}, "
            f"seat {state.current_player} to {state.phase.name}, draw pile {len(state.draw_pile)}",
        ]
        for seat, hand in enumerate(state.hands):
            marks = "".join(
                m for m, on in (("*", seat == state.current_player), ("x", seat in state.left)) if on
            )
            lines.append(f"  player_{seat}{marks}: {len(hand)} cards, score {state.scores[seat]}")
        if state.last_action is not None:
            lines.append(f"  last: {state.last_action}")
        return "\n".join(lines)


def _team_of(ruleset: Ruleset, players: int, seat: int) -> tuple[int, ...]:
    """The seats that share ``seat``'s result: its team (``Ruleset.teams``)."""
    for team in ruleset.teams(players):
        if seat in team:
            return team
    return (seat,)


def raw_env(
    rules: Rules = ("classic",),
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    episode: str = "game",
    reward: str = "win",
    render_mode: str | None = None,
    max_actions: int | None = None,
) -> UnoAECEnv:
    """The environment without PettingZoo's checking wrappers (fastest)."""
    return UnoAECEnv(rules, players, options, episode, reward, render_mode, max_actions)


def env(
    rules: Rules = ("classic",),
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    episode: str = "game",
    reward: str = "win",
    render_mode: str | None = None,
    max_actions: int | None = None,
) -> Any:
    """The environment with PettingZoo's usual wrappers (order enforcing,
    out-of-bounds check), as its classic environments are made."""
    wrapped: Any = UnoAECEnv(rules, players, options, episode, reward, render_mode, max_actions)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped

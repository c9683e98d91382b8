"""The differential check of :mod:`unorules.vector` against the reference engine.

Every slot of a :class:`~unorules.vector.UnoBatch` is shadowed by a
:class:`~unorules.rl.UnoAECEnv` started from ``ruleset.new_game(players,
seed=batch.seeds[slot])``: at every step the seat asked, its mask and its
observation must be the reference env's, the action chosen (at random among
the legal indices, or by :class:`~unorules.bots.HeuristicBot` on the
reference state) goes to both, and the whole state after it (hands, both
piles in order, colour, direction, seat to move, phase, dealer, scores, UNO
calls and exposures, blocked-turn count, rounds, generator state) must be
the same. At an episode's end the rewards and final scores must match, and
the slot's next game is shadowed from its new seed.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import numpy as np

from unorules import GameState
from unorules.bots import HeuristicBot
from unorules.rl import NOOP, UnoAECEnv
from unorules.vector import StepResult, UnoBatch
from unorules.vector.engine import PHASE_NAMES


@attrs.define
class Report:
    """What a differential run found."""

    games: int = 0
    """Episodes played to their end in every slot, compared all the way."""
    actions: int = 0
    """Steps compared (no-ops included)."""
    mismatches: int = 0
    """Steps at which the batch and the reference differed (the run stops at the first)."""
    first: str = ""
    """The first mismatch: slot, seed, step, the action, both states."""


def reference_state(state: GameState, order: dict[str, int]) -> dict[str, Any]:
    """``state`` in the form of :meth:`UnoBatch.game_state` (hands in canonical card order)."""
    phase = state.phase

    def colour(c: Any) -> str | None:
        return None if c is None else str(c.value)

    return {
        "hands": tuple(tuple(sorted((str(c) for c in hand), key=order.__getitem__)) for hand in state.hands),
        "discard_pile": tuple(str(c) for c in state.discard_pile),
        "draw_pile": tuple(str(c) for c in state.draw_pile),
        "color": colour(state.color),
        "direction": state.direction,
        "current_player": state.current_player,
        "phase": (
            phase.name,
            phase.count,
            None if phase.card is None else str(phase.card),
            phase.seat,
            colour(phase.color),
        ),
        "dealer": state.dealer,
        "scores": tuple(state.scores),
        "uno_declared": tuple(sorted(state.uno_declared)),
        "uno_exposed": tuple(state.uno_exposed),
        "stalled": state.stalled,
        "rounds": len(state.rounds),
        "rng": state.rng,
    }


class Keys:
    """Whole states as tuples of integers, cheap to build and compare, on both sides."""

    def __init__(self, batch: UnoBatch) -> None:
        self.index = {c: i for i, c in enumerate(batch.cards)}
        self.colours = {c: i for i, c in enumerate(batch.ruleset.colors)}
        self.phases = {name: i for i, name in enumerate(PHASE_NAMES)}
        self.batch = batch

    def reference(self, state: GameState) -> tuple[Any, ...]:
        index = self.index
        hands: list[int] = []
        for hand in state.hands:
            counts = [0] * len(index)
            for card in hand:
                counts[index[card]] += 1
            hands += counts
        phase = state.phase
        colours = self.colours
        return (
            hands,
            [index[c] for c in state.discard_pile],
            [index[c] for c in state.draw_pile],
            -1 if state.color is None else colours[state.color],
            state.direction,
            state.current_player,
            self.phases[phase.name],
            phase.count,
            -1 if phase.card is None else index[phase.card],
            -1 if phase.seat is None else phase.seat,
            -1 if phase.color is None else colours[phase.color],
            state.dealer,
            list(state.scores),
            sorted(state.uno_declared),
            state.uno_exposed[0] if state.uno_exposed else -1,
            state.stalled,
            len(state.rounds),
            state.rng,
        )

    def batch_rows(self) -> list[tuple[Any, ...]]:
        """Every game of the batch, in the form of :meth:`reference`."""
        b = self.batch
        hands = b.hands.reshape(b.num_games, -1).tolist()
        piles = b.pile.tolist()
        declared = b.declared.tolist()
        columns = zip(
            b.discard_size.tolist(),
            b.draw_at.tolist(),
            *(a.tolist() for a in (b.color, b.direction, b.current, b.phase, b.phase_count, b.phase_card)),
            *(a.tolist() for a in (b.phase_seat, b.phase_color, b.dealer, b.scores)),
            b.exposed.tolist(),
            b.stalled.tolist(),
            b.rounds.tolist(),
            b.rng.tolist(),
            strict=True,
        )
        rows = []
        for g, (d, p, *middle, exposed, stalled, rounds, rng) in enumerate(columns):
            pile = piles[g]
            seats = [s for s, on in enumerate(declared[g]) if on]
            rows.append((hands[g], pile[:d], pile[p:], *middle, seats, exposed, stalled, rounds, rng))
        return rows


def _difference(mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    keys = [k for k in theirs if mine.get(k) != theirs[k]]
    lines = [f"  differing fields: {', '.join(keys)}"]
    for key in theirs:
        mark = "!" if key in keys else " "
        lines.append(f" {mark} {key}:\n      batch:     {mine.get(key)!r}\n      reference: {theirs[key]!r}")
    return "\n".join(lines)


def run(
    players: int,
    games: int,
    slots: int,
    seed: int,
    chooser: str = "random",
    episode: str = "round",
    options: dict[str, Any] | None = None,
    limit: int | None = None,
    jit: bool = False,
    backend: str = "numpy",
    reward: str = "win",
) -> Report:
    """Play until ``games`` episodes have ended over ``slots`` slots, comparing every
    step. With ``limit``, a game still running after ``limit`` actions counts as
    played (compared that far) and its slot starts the next game. With ``jit``, the
    masks and observations compared are those of :class:`unorules.vector.jit.JaxKernels`
    (beside the NumPy batch's, which must then be the same). With ``backend="jax"``
    the batch played is a :class:`unorules.vector.jax_batch.JaxBatch` (every step
    jitted), its state read back from the device at every step."""
    batch: Any
    if backend == "jax":
        from unorules.vector.jax_batch import JaxBatch

        batch = JaxBatch(slots, players, options=options, episode=episode, reward=reward, seed=seed)
        host = batch.host
    else:
        batch = host = UnoBatch(slots, players, options=options, episode=episode, reward=reward, seed=seed)
    kernels = None
    if jit:
        from unorules.vector.jit import JaxKernels

        kernels = JaxKernels(host)
    rules = batch.ruleset
    order = {str(c): i for i, c in enumerate(batch.cards)}
    keys = Keys(host)
    pick = random.Random(seed)
    envs: list[UnoAECEnv] = []
    bots: list[list[HeuristicBot]] = []
    history: list[list[tuple[int, int]]] = []
    report = Report()

    def shadow(slot: int) -> None:
        state = rules.new_game(players=players, seed=int(batch.seeds[slot]))
        env = envs[slot]
        env.reset(options={"state": state})
        bots[slot] = [HeuristicBot(seed * 1000 + slot * 10 + s) for s in range(players)]
        history[slot] = []

    for slot in range(slots):
        envs.append(UnoAECEnv(rules, players, episode=episode, reward=reward))
        bots.append([])
        history.append([])
        shadow(slot)

    def fail(slot: int, what: str, mine: Any, theirs: Any) -> Report:
        report.mismatches += 1
        said = [f"seat {s}: {i} ({batch.describe(i)})" for s, i in history[slot]]
        last = said[-1] if said else "(none: the deal)"
        text = (
            f"slot {slot}, game seed {int(batch.seeds[slot])}, players {players}, "
            f"after {len(said)} actions of this game; first differing action: {last}\n"
            f"  the game's last actions: {' | '.join(said[-12:])}\n"
        )
        if isinstance(mine, dict):
            text += f"  {what} differs\n{_difference(mine, theirs)}"
        else:
            text += f"  {what} differs:\n    batch:     {mine!r}\n    reference: {theirs!r}"
        report.first = text
        return report

    while report.games < games:
        to_act = batch.to_act
        mask = np.asarray(batch.mask())
        obs = np.asarray(batch.observe())
        if kernels is not None:
            state = kernels.state()
            jit_mask, jit_obs = np.asarray(kernels.mask(state)), np.asarray(kernels.observe(state))
            for slot in range(slots):
                if jit_mask[slot].tobytes() != mask[slot].tobytes():
                    return fail(slot, "the jitted mask", np.flatnonzero(jit_mask[slot]).tolist(),
                                np.flatnonzero(mask[slot]).tolist())  # fmt: skip
                if not np.array_equal(jit_obs[slot], obs[slot]):
                    where = np.flatnonzero(jit_obs[slot] != obs[slot]).tolist()
                    return fail(slot, f"the jitted observation at {where}", jit_obs[slot][where].tolist(),
                                obs[slot][where].tolist())  # fmt: skip
        actions = np.zeros(slots, dtype=np.intp)
        for slot, env in enumerate(envs):
            agent = env.agent_selection
            seat = int(agent.rpartition("_")[2])
            if seat != int(to_act[slot]):
                return fail(slot, "the seat asked", int(to_act[slot]), seat)
            ref = env.observe(agent)
            if ref["action_mask"].tobytes() != mask[slot].tobytes():
                return fail(
                    slot,
                    f"seat {seat}'s mask",
                    np.flatnonzero(mask[slot]).tolist(),
                    np.flatnonzero(ref["action_mask"]).tolist(),
                )
            if ref["observation"].tobytes() != obs[slot].tobytes() and not np.array_equal(
                ref["observation"], obs[slot]
            ):
                where = np.flatnonzero(ref["observation"] != obs[slot]).tolist()
                return fail(
                    slot,
                    f"seat {seat}'s observation at {where}",
                    obs[slot][where].tolist(),
                    ref["observation"][where].tolist(),
                )
            if chooser == "heuristic":
                chosen = bots[slot][seat].choose(env.state_.view(seat))
                index = NOOP if chosen is None else env.space.index(chosen, seat)
            else:
                index = pick.choice(np.flatnonzero(ref["action_mask"]).tolist())
            actions[slot] = index
            history[slot].append((seat, index))
            env.step(index)
        stepped = batch.step(actions)
        result = StepResult(*(np.asarray(getattr(stepped, f)) for f in ("rewards", "done", "final_scores",
                                                                     "final_winner")))  # fmt: skip
        report.actions += slots
        restart = []
        for slot, env in enumerate(envs):
            state = env.state_
            ended = all(env.terminations.values())
            if bool(result.done[slot]) != ended:
                return fail(slot, "the episode's end", bool(result.done[slot]), ended)
            if ended:
                rewards = [env.rewards[a] for a in env.possible_agents]
                if result.rewards[slot].tolist() != np.asarray(rewards, dtype=np.float32).tolist():
                    return fail(slot, "the rewards", result.rewards[slot].tolist(), rewards)
                if result.final_scores[slot].tolist() != list(state.scores):
                    return fail(slot, "the final scores", result.final_scores[slot].tolist(), state.scores)
                report.games += 1
                shadow(slot)
            elif limit is not None and len(history[slot]) >= limit:
                restart.append(slot)
        if backend == "jax":
            batch.sync_host()
        rows = keys.batch_rows()
        for slot, env in enumerate(envs):
            if rows[slot] != keys.reference(env.state_):
                return fail(slot, "the state", batch.game_state(slot), reference_state(env.state_, order))
        if restart:  # games cut short: counted, and their slots dealt a new game
            report.games += len(restart)
            batch.reset_games(restart)
            for slot in restart:
                shadow(slot)
    return report


def run_aec(
    players: int,
    games: int,
    slots: int,
    seed: int,
    chooser: str = "random",
    episode: str = "round",
    options: dict[str, Any] | None = None,
    reward: str = "win",
) -> Report:
    """Play :class:`~unorules.vector.aec.UnoVectorAECEnv` until ``games`` episodes have
    ended, each slot shadowed by a :class:`~unorules.rl.UnoAECEnv` driven as PettingZoo's
    agent loop drives it: at every step both must select the same agent and give it the
    same ``last()`` (observation, mask, reward, termination), dead steps included, and
    one more agent's ``observe`` (in turn) must match; then both take the same action
    (``None`` for a dead step)."""
    from unorules.vector.aec import UnoVectorAECEnv

    view = UnoVectorAECEnv(slots, players, options=options, episode=episode, reward=reward, seed=seed)
    batch = view.batch
    rules = batch.ruleset
    pick = random.Random(seed)
    envs = [UnoAECEnv(rules, players, episode=episode, reward=reward) for _ in range(slots)]
    bots = [[HeuristicBot(seed * 1000 + slot * 10 + s) for s in range(players)] for slot in range(slots)]
    history: list[list[tuple[str, int | None]]] = [[] for _ in range(slots)]
    report = Report()

    def shadow(slot: int) -> None:
        envs[slot].reset(options={"state": rules.new_game(players=players, seed=int(batch.seeds[slot]))})
        history[slot] = []

    def fail(slot: int, what: str, mine: Any, theirs: Any) -> Report:
        report.mismatches += 1
        said = [f"{a}: {i}" for a, i in history[slot]]
        report.first = (
            f"slot {slot}, game seed {int(batch.seeds[slot])}, players {players}, after {len(said)} steps; "
            f"the last: {' | '.join(said[-12:])}\n  {what} differs:\n    view:      {mine!r}\n"
            f"    reference: {theirs!r}"
        )
        return report

    for slot in range(slots):
        shadow(slot)
    turn = 0
    while report.games < games:
        observation, rewards, terminated, truncated, _info = view.last()
        selection = view.agent_selection
        probe = view.possible_agents[turn % players]
        probed = view.observe(probe)
        turn += 1
        actions = np.zeros(slots, dtype=np.intp)
        for slot, env in enumerate(envs):
            agent = env.agent_selection
            if str(selection[slot]) != agent:
                return fail(slot, "the agent selected", str(selection[slot]), agent)
            obs, reward, term, trunc, _ = env.last()
            mine = (rewards[slot], bool(terminated[slot]), bool(truncated[slot]))
            if mine != (np.float32(reward), term, trunc):  # the view's rewards are float32
                return fail(slot, f"{agent}'s reward, termination, truncation", mine, (reward, term, trunc))
            for name, got, ref in (
                (f"{agent}'s mask", observation["action_mask"][slot], obs["action_mask"]),
                (f"{agent}'s observation", observation["observation"][slot], obs["observation"]),
                (f"{probe}'s observe() mask", probed["action_mask"][slot], env.observe(probe)["action_mask"]),
                (f"{probe}'s observe()", probed["observation"][slot], env.observe(probe)["observation"]),
            ):
                if not np.array_equal(got, ref):
                    where = np.flatnonzero(got != ref).tolist()
                    return fail(slot, f"{name} at {where}", got[where].tolist(), ref[where].tolist())
            index: int | None
            if term:
                index = None
            elif chooser == "heuristic":
                seat = int(agent.rpartition("_")[2])
                chosen = bots[slot][seat].choose(env.state_.view(seat))
                index = NOOP if chosen is None else env.space.index(chosen, seat)
            else:
                index = pick.choice(np.flatnonzero(obs["action_mask"]).tolist())
            actions[slot] = -1 if index is None else index
            history[slot].append((agent, index))
            env.step(index)
        view.step(actions)
        report.actions += slots
        for slot, env in enumerate(envs):
            if not env.agents:
                report.games += 1
                shadow(slot)
    return report

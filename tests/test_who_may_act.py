"""Who may act, as a protocol: out-of-turn seats are asked before the seat to move.

The documented game loop (docs/embedding.rst) asks the seats in the order of
``state.seats_to_act()`` and applies the first action it is given. With the
out-of-turn seats first, that loop makes as many out-of-turn actions
(jump-ins, catches, late UNO calls) as ``bots.next_action`` does, which asks
them first by construction.
"""

from __future__ import annotations

import random

import pytest

import unorules
from unorules.bots import Bot, HeuristicBot, RandomBot, next_action

RULES = unorules.Ruleset.from_names(["classic", "jump-in"], options={"target_score": 200})


def _bots(seed: int) -> list[Bot]:
    return [
        HeuristicBot(seed=seed),
        RandomBot(seed=seed + 1),
        HeuristicBot(seed=seed + 2),
        RandomBot(seed=seed + 3),
    ]


def _documented_loop(state: unorules.GameState, seats: list[Bot]) -> unorules.Action:
    for seat in state.seats_to_act():
        action = seats[seat].choose(state.view(seat))
        if action is not None:
            return action
    raise AssertionError("the seat to move chose nothing")


def _out_of_turn(seed: int, loop: str) -> tuple[int, int]:
    state = RULES.new_game(players=4, seed=seed)
    seats = _bots(seed)
    taken = total = 0
    while not state.is_over and total < 3000:
        action = _documented_loop(state, seats) if loop == "documented" else next_action(state, seats)
        taken += action.seat != state.current_player
        state = state.apply(action)
        total += 1
    return taken, total


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_documented_loop_acts_out_of_turn_as_next_action_does(seed: int) -> None:
    documented = _out_of_turn(seed, "documented")
    reference = _out_of_turn(seed, "next_action")
    assert documented == reference
    assert documented[0] > 0, "no out-of-turn action at all: the protocol gives nobody a chance"


def test_out_of_turn_seats_come_first_and_the_seat_to_move_last() -> None:
    rng = random.Random(1)
    state = RULES.new_game(players=4, seed=3)
    found = 0
    for _ in range(3000):
        if state.is_over:
            break
        seats = state.seats_to_act()
        current = state.current_player
        assert set(seats) == {a.seat for a in state.legal_actions()}
        assert state.out_of_turn_seats() == tuple(s for s in seats if s != current)
        if len(seats) > 1:
            found += 1
            assert seats[-1] == current or current not in seats
            n = state.players
            order = [((s - current) * state.direction) % n for s in seats if s != current]
            assert order == sorted(order)  # turn order from the seat after the seat to move
        state = state.apply(rng.choice(state.legal_actions()))
    assert found > 0


def test_apply_for_refuses_another_seats_action_and_changes_nothing() -> None:
    state = RULES.new_game(players=3, seed=1)
    text = state.to_json()
    mover = state.current_player
    other = (mover + 1) % 3
    with pytest.raises(unorules.IllegalActionError, match=f"seat {other} cannot act for seat {mover}"):
        state.apply_for(other, f"{mover}: draw")
    assert state.to_json() == text
    assert state.apply_for(mover, "draw") == state.apply(f"{mover}: draw")
    with pytest.raises(unorules.SeatError):
        state.apply_for(7, "draw")


def test_the_pettingzoo_env_offers_the_seats_in_the_protocols_order() -> None:
    """The RL environment follows the same protocol: after each action the agents selected are
    ``seats_to_act()`` in its order (out-of-turn seats first, each may pass with the no-op, the
    seat to move last), and agents that act out of turn do (a jump-in, a catch, a late call)."""
    pytest.importorskip("pettingzoo")
    from unorules.rl import NOOP, raw_env

    game = raw_env(rules=RULES, players=4, episode="round")
    game.reset(seed=2)
    rng = random.Random(2)
    out_of_turn = windows = 0
    offered: list[int] = []
    for agent in game.agent_iter(max_iter=5000):
        _, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        state = game.state_
        seat = int(agent.removeprefix("player_"))
        if not offered:  # a fresh window: the seats in the protocol's order
            offered = list(state.seats_to_act())
            windows += len(offered) > 1
        assert seat == offered.pop(0), (seat, state.seats_to_act())
        mask = game.observe(agent)["action_mask"]
        choices = [int(i) for i in mask.nonzero()[0] if i != NOOP]
        if seat != state.current_player and (not choices or rng.random() < 0.5):
            game.step(NOOP)
            continue
        out_of_turn += seat != state.current_player
        game.step(rng.choice(choices))
        offered = []
    assert windows > 0
    assert out_of_turn > 0

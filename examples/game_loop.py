"""Embedding the engine in a game loop with one human seat.

Run it in a terminal to play seat 0 against three heuristic bots::

    .venv/bin/python examples/game_loop.py

When standard input is not a terminal (a pipe, a test, CI), seat 0's moves
come from a scripted player instead, so the script runs unattended. The loop
is the whole integration: ask :func:`unorules.bots.next_action` who acts (it
hands every seat that may act, including out of turn, its own view), apply the action, show
what the human's seat may see (``state.view(seat)``), repeat until
``state.is_over``.
"""

from __future__ import annotations

import sys

import unorules
from unorules import Action, NotationError, SeatView
from unorules.bots import HeuristicBot, next_action

HUMAN = 0


class TerminalPlayer:
    """A seat played by a person at the terminal."""

    name = "you"

    def choose(self, view: SeatView) -> Action | None:
        seat = view.seat
        if view.current_player != seat:
            return None  # keep the example short: no out-of-turn moves for the human
        print(f"top {view.top_card} ({view.color}), hand sizes {view.hand_sizes}")
        print("your hand:", " ".join(map(str, view.hand)))
        print("legal:", ", ".join(str(a) for a in view.legal_actions))
        while True:
            text = input("your action (e.g. 'play R7', 'draw'): ")
            try:
                action = Action.parse(text, default_seat=seat)
            except NotationError as exc:
                print("refused:", exc)
                continue
            if action in view.legal_actions:
                return action
            print("refused: not one of your legal actions")


class ScriptedPlayer:
    """Stands in for the person when nobody is at a terminal: calls UNO, then
    plays the first legal card, else draws (or whatever else is asked)."""

    name = "script"

    def choose(self, view: SeatView) -> Action | None:
        actions = view.legal_actions
        if view.current_player != view.seat:
            return None
        for verb in ("uno", "play", "draw"):
            for action in actions:
                if action.verb == verb:
                    return action
        return actions[0]


def main() -> int:
    interactive = sys.stdin.isatty()
    rules = unorules.Ruleset.from_names(["classic"], options={"target_score": 200})
    state = rules.new_game(players=4, seed=2024)
    human = TerminalPlayer() if interactive else ScriptedPlayer()
    seats = [human if s == HUMAN else HeuristicBot(seed=s) for s in range(4)]
    rounds_seen = 0
    while not state.is_over:
        action = next_action(state, seats)
        state = state.apply(action)
        if interactive and action.seat != HUMAN:
            # What the human's seat may see of the last action.
            events = "; ".join(str(e) for e in state.view(HUMAN).events)
            print(f"{action}  [{events}]")
        if len(state.rounds) > rounds_seen:
            rounds_seen = len(state.rounds)
            result = state.rounds[-1]
            print(f"round {result.number}: seat {result.winner} went out; scores {state.scores}")
    assert state.outcome is not None
    print(f"game over after {len(state.rounds)} rounds: seat {state.winner} wins ({state.outcome.reason})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

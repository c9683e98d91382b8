"""Bytes per message of ``unorules serve`` (a script, not a test): what each client is sent.

    .venv/bin/python benchmarks/serve_messages.py                  # classic, 4 players, 20 games
    .venv/bin/python benchmarks/serve_messages.py --rules classic,stacking,jump-in --games 5

Plays seeded games (every seat takes its first legal play, else its first
legal action, as the clients of ``benchmarks/serve.py`` do) to their end and,
after every action, encodes the state message each seat and a spectator
would be sent (``Table.message``, as the server sends it: compact JSON).
Reports the mean, the 90th percentile and the largest message in bytes,
over all messages and over the last round (when ``rounds`` has grown), and
the number of messages. No server, no sockets: the figures depend only on
the rules, the seeds and what the server puts in a message.
"""

from __future__ import annotations

import argparse
import json
import statistics

from unorules.ruleset import Ruleset
from unorules.serve.store import SeatRecord
from unorules.serve.tables import Table


def first_choice(table: Table) -> None:
    """Apply the action a benchmark client would take (the seat to move, first play or first action)."""
    state = table.state
    legal = state.legal_actions(state.current_player)
    plays = [a for a in legal if a.verb == "play"]
    action = (plays or list(legal) or list(state.legal_actions()))[0]
    table.state = state.apply(action)
    table.actions.append(action)


def measure(rules: Ruleset, players: int, games: int) -> dict[str, object]:
    """Message sizes over ``games`` seeded games."""
    sizes: list[int] = []
    late: list[int] = []  # messages sent once three rounds or more are over
    for seed in range(games):
        seats = [SeatRecord("human", f"Player {s}") for s in range(players)]
        table = Table(
            id=f"bench{seed:04d}",
            spec=rules.spec_text,
            players=players,
            seed=seed,
            seats=seats,
            started=True,
            created=0.0,
            state=rules.new_game(players=players, seed=seed),
        )
        for _ in range(100_000):
            if table.state.is_over:
                break
            first_choice(table)
            meta = table.meta()
            for seat in [*range(players), None]:
                size = len(json.dumps(table.message(seat, meta), separators=(",", ":")).encode())
                sizes.append(size)
                if len(table.state.rounds) >= 3:
                    late.append(size)
    sizes.sort()
    return {
        "messages": len(sizes),
        "mean": round(statistics.fmean(sizes)),
        "p90": sizes[int(0.9 * len(sizes))],
        "max": sizes[-1],
        "late_messages": len(late),
        "late_mean": round(statistics.fmean(late)) if late else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", default="classic", help="plugins, comma-separated (default classic)")
    parser.add_argument("--players", type=int, default=4, help="seats (default 4)")
    parser.add_argument("--games", type=int, default=20, help="seeded games (default 20)")
    args = parser.parse_args()
    rules = Ruleset.from_names(args.rules.split(","))
    figures = measure(rules, args.players, args.games)
    print(
        f"{rules.spec_text}, {args.players} players, {args.games} games: {figures['messages']} messages, "
        f"bytes mean {figures['mean']}, p90 {figures['p90']}, max {figures['max']}; "
        f"once 3+ rounds are over ({figures['late_messages']} messages): mean {figures['late_mean']}"
    )


if __name__ == "__main__":
    main()

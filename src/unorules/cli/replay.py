"""``unorules replay``: check a game record and summarise its game."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from unorules.cli.common import EXIT_OK, Failure
from unorules.record import GameRecord, RecordError
from unorules.state import GameState


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``replay`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "replay",
        help="replay a game record, checking every action, and summarise the game",
        description="Replay a game record (written by 'play --record', 'simulate --records' or "
        "unorules.record) checking every action against the rules. Exit 0 with a summary, or 1 "
        "naming the line and the rule of the first action the rules refuse.",
    )
    parser.add_argument("file", metavar="FILE", help="the record to replay")
    parser.add_argument("--state", action="store_true", help="print the final state as JSON instead")
    return parser


def summary(record: GameRecord, state: GameState) -> str:
    """What ``replay`` prints about a replayed game."""
    rounds = len(state.rounds)
    head = f"{len(record.actions)} actions, {rounds} round{'s' if rounds != 1 else ''} finished; "
    scores = "scores " + " ".join(f"{s}:{p}" for s, p in enumerate(state.scores))
    if state.outcome is not None:
        winners = ", ".join(map(str, state.outcome.winners)) or "nobody"
        return f"{head}game over ({state.outcome.reason}): seat(s) {winners} won; {scores}"
    return f"{head}game not over: seat {state.current_player} to {state.phase.name}; {scores}"


def run(args: argparse.Namespace) -> int:
    """Run ``unorules replay``."""
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Failure(f"cannot read {path}: {exc}") from None
    try:
        record = GameRecord.parse(text)
        state = record.replay()
    except RecordError as exc:
        raise Failure(f"{path}: {exc}") from None
    if args.state:
        print(state.to_json())
    else:
        print(f"{path}: {record.ruleset}, {record.players} players: {summary(record, state)}")
    return EXIT_OK

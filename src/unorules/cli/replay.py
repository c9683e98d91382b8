"""``unorules replay``: check a game record and summarise its game, or step through it.

``--step`` shows every position of the game in turn, from one seat's view
(``--seat N``: that seat's hand, what it was shown) or as a spectator, each
action and its events in words (:mod:`unorules.narrate`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from unorules.cli import words
from unorules.cli.common import EXIT_OK, Failure, UsageError
from unorules.narrate import Narrator
from unorules.record import GameRecord, RecordError
from unorules.state import GameState, SeatView


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``replay`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "replay",
        help="replay a game record, checking every action, and summarise the game or step through it",
        description="Replay a game record (written by 'play --record', 'simulate --records' or "
        "unorules.record) checking every action against the rules. Exit 0 with a summary, or 1 "
        "naming the line and the rule of the first action the rules refuse. With --step, show "
        "every position and what each action did, in words, from a seat or as a spectator.",
    )
    parser.add_argument("file", metavar="FILE", help="the record to replay")
    parser.add_argument("--state", action="store_true", help="print the final state as JSON instead")
    parser.add_argument(
        "--step",
        action="store_true",
        help="show each position and what each action did, in words (as a spectator unless --seat)",
    )
    parser.add_argument(
        "--seat", type=int, default=None, metavar="N", help="with --step: see the game from seat N's view"
    )
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


def _view(state: GameState, seat: int | None) -> SeatView:
    return state.public_view() if seat is None else state.view(seat)


def position(view: SeatView, me: int | None) -> list[Text]:
    """A position as one seat (or a spectator, ``me`` ``None``) sees it: the top card,
    the colour, the seat to move, each hand's size, and the seat's own hand."""
    narrator = Narrator(view.rules, me)
    mover = narrator.name(view.current_player)
    to_move = "your turn" if view.current_player == me else f"{mover} to move"
    if view.phase.name != "play":
        to_move += f" ({view.phase.name.replace('-', ' ')})"
    way = "left (+1)" if view.direction == 1 else "right (-1)"
    head = Text("top ").append_text(words.card(view.top_card))
    head.append("  colour ").append_text(words.color(view.color))
    head.append(f"  direction {way}  draw pile {view.draw_pile_size}  {to_move}")
    sizes = []
    for seat, size in enumerate(view.hand_sizes):
        if seat in view.left:
            sizes.append(f"{narrator.name(seat)}: out")
        elif seat != me:
            sizes.append(f"{narrator.name(seat)}: {words.plural(size, 'card')}{' UNO!' if size == 1 else ''}")
    lines = [head, Text("   ".join(sizes))]
    if me is not None:
        lines.append(Text("your hand: ").append_text(words.cards(view.hand)))
    return lines


def step_through(record: GameRecord, me: int | None, console: Console) -> GameState:
    """Print every position of ``record``'s game and what each action did, in words for
    ``me`` (a seat, or ``None`` for a spectator); the final state."""

    def say(text: Text | str) -> None:
        console.print(text, highlight=False, soft_wrap=True)

    states = record.states()
    state = next(states)
    narrator = Narrator(state.ruleset, me)
    who = "a spectator" if me is None else f"seat {me}"
    say(Text(f"{record.ruleset}, {record.players} players, seen by {who}", style="bold"))
    view = _view(state, me)
    for sentence in narrator.step(None, view.events):
        say(words.sentence(sentence))
    for line in position(view, me):
        say(line)
    finished = 0
    reader = -1 if me is None else me
    for number, state in enumerate(states, 1):
        before, view = view, _view(state, me)
        console.rule(f"action {number} · round {finished + 1}", style="dim")
        for line in words.describe(before, view, reader, rounds=True):
            say(line)
        if len(view.rounds) != finished:
            finished = len(view.rounds)
            say(Text("scores: " + "  ".join(f"{narrator.name(s)} {p}" for s, p in enumerate(view.scores))))
        if not view.is_over:
            for line in position(view, me):
                say(line)
    if state.outcome is not None:
        say(Text(words.outcome_words(_view(state, me), -1 if me is None else me), style="bold"))
    return state


def run(args: argparse.Namespace) -> int:
    """Run ``unorules replay``."""
    path = Path(args.file)
    if args.seat is not None and not args.step:
        raise UsageError("--seat needs --step (the view to step through the game from)")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Failure(f"cannot read {path}: {exc}") from None
    try:
        record = GameRecord.parse(text)
        if args.seat is not None and not 0 <= args.seat < record.players:
            raise UsageError(f"--seat {args.seat}: seats are 0 to {record.players - 1}")
        if args.step:
            step_through(record, args.seat, Console(file=sys.stdout, highlight=False, emoji=False))
            state = record.replay()
        else:
            state = record.replay()
    except RecordError as exc:
        raise Failure(f"{path}: {exc}") from None
    if args.state:
        print(state.to_json())
    elif not args.step:
        print(f"{path}: {record.ruleset}, {record.players} players: {summary(record, state)}")
    return EXIT_OK

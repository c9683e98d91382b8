"""``unorules replay``: check a game record and summarise its game, or step through it.

``--step`` shows the game's positions from one seat's view (``--seat N``: that seat's hand,
what it was shown) or as a spectator, each action and its events in words
(:mod:`unorules.narrate`); ``--all-hands`` shows every hand too (a game of your own, reviewed),
``--from N`` starts after action N. On a terminal it shows one position at a time and waits
for a key: Enter, space or ``n`` for the next, ``b`` or ``p`` for the one before, ``q`` to stop
(:func:`browse`). Into a file or a pipe it prints them all, one after the other.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
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
    parser.add_argument(
        "--all-hands", action="store_true", help="with --step: show every seat's hand at each position"
    )
    parser.add_argument(
        "--from",
        dest="start",
        type=int,
        default=0,
        metavar="N",
        help="with --step: begin at the position after action N (0, the deal, by default)",
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


def hands_lines(state: GameState, me: int | None) -> list[Text]:
    """Every other seat's hand (``--all-hands``; the reader's own is in :func:`position`)."""
    narrator = Narrator(state.ruleset, me)
    lines = []
    for seat, hand in enumerate(state.hands):
        if seat in state.left or seat == me:
            continue
        lines.append(
            Text(f"  {narrator.name(seat)}'s hand: ").append_text(words.cards(words.sorted_hand(hand)))
        )
    return lines


def pages(record: GameRecord, me: int | None, *, all_hands: bool = False) -> list[list[Text]]:
    """The game of ``record`` as one page of lines a position: page 0 the deal, page ``k`` what
    action ``k`` did and the position after it, in words for ``me`` (a seat, or ``None`` for a
    spectator), with every hand when ``all_hands``. The last page ends with the outcome."""
    states = list(record.states())
    narrator = Narrator(states[0].ruleset, me)
    reader = -1 if me is None else me
    total = len(states) - 1
    found: list[list[Text]] = []
    before: SeatView | None = None
    finished = 0
    for number, state in enumerate(states):
        view = _view(state, me)
        lines: list[Text] = []
        if before is None:
            lines += [Text(f"position 0 of {total}: the deal", style="bold")]
            lines += [words.sentence(s) for s in narrator.step(None, view.events)]
        else:
            lines.append(
                Text(f"position {number} of {total}: action {number}, round {finished + 1}", style="bold")
            )
            lines += words.describe(before, view, reader, rounds=True)
            if len(view.rounds) != finished:
                finished = len(view.rounds)
                scores = "  ".join(f"{narrator.name(s)} {p}" for s, p in enumerate(view.scores))
                lines.append(Text(f"scores: {scores}"))
        if not view.is_over:
            lines += position(view, me)
            if all_hands:
                lines += hands_lines(state, me)
        elif state.outcome is not None:
            lines.append(Text(words.outcome_words(view, reader), style="bold"))
        found.append(lines)
        before = view
    return found


def step_through(
    record: GameRecord, me: int | None, console: Console, *, all_hands: bool = False, start: int = 0
) -> GameState:
    """Print the positions of ``record``'s game from position ``start`` on, one after the other
    (:func:`pages`); the final state."""
    console.print(Text(_title(record, me), style="bold"), highlight=False, soft_wrap=True)
    for k, page in enumerate(pages(record, me, all_hands=all_hands)[start:]):
        if k:
            console.rule(style="dim")
        for line in page:
            console.print(line, highlight=False, soft_wrap=True)
    return record.replay()


def _title(record: GameRecord, me: int | None) -> str:
    who = "a spectator" if me is None else f"seat {me}"
    return f"{record.ruleset}, {record.players} players, seen by {who}"


NEXT = frozenset({"\r", "\n", " ", "n", "j"})
BACK = frozenset({"b", "p", "k"})
QUIT = frozenset({"q", "\x1b", "\x04", ""})
"""The keys :func:`browse` reads: next, back, stop ("" is the end of the input)."""


def browse(shown: Sequence[Sequence[Text]], console: Console, key: Callable[[], str], start: int = 0) -> int:
    """Show ``shown`` one page at a time on ``console``, from page ``start``: after each, read a
    ``key`` (:data:`NEXT`, :data:`BACK`, :data:`QUIT`; any other key is answered with the keys)
    and show the next page or the one before. Returns the number of the page last shown."""
    last = len(shown) - 1
    at = max(0, min(start, last))
    show = True
    while True:
        if show:
            console.rule(style="dim")
            for line in shown[at]:
                console.print(line, highlight=False, soft_wrap=True)
        where = "the end of the game" if at == last else f"{at} of {last}"
        console.print(f"[{where}] Enter/n: next  b: back  q: quit ", end="", highlight=False, markup=False)
        console.file.flush()
        pressed = key()
        console.print(highlight=False)
        if pressed in QUIT:
            return at
        if pressed in NEXT:
            show = at < last
            if not show:
                console.print("this is the last position: b for the one before, q to stop", highlight=False)
            at = min(at + 1, last)
        elif pressed in BACK:
            show = at > 0
            if not show:
                console.print(
                    "this is the deal, the first position: Enter for the next, q to stop", highlight=False
                )
            at = max(at - 1, 0)
        else:
            show = False
            console.print("keys: Enter, space or n: next; b or p: back; q: quit", highlight=False)


@contextlib.contextmanager
def _keys() -> Iterator[Callable[[], str]]:
    """Single keys from the terminal on standard input (no Enter needed), the terminal's
    mode restored afterwards; Ctrl-C still interrupts."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)

    def key() -> str:
        data = os.read(fd, 1)
        return data.decode("latin-1").lower() if data else ""

    try:
        tty.setcbreak(fd)
        yield key
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _interactive() -> bool:
    """Whether ``--step`` may wait for keys: standard input and output are a terminal (POSIX)."""
    try:
        return os.name == "posix" and sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def run(args: argparse.Namespace) -> int:
    """Run ``unorules replay``."""
    path = Path(args.file)
    if args.seat is not None and not args.step:
        raise UsageError("--seat needs --step (the view to step through the game from)")
    if (args.all_hands or args.start) and not args.step:
        raise UsageError("--all-hands and --from need --step (they say how to step through the game)")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Failure(f"cannot read {path}: {exc}") from None
    try:
        record = GameRecord.parse(text)
        if args.seat is not None and not 0 <= args.seat < record.players:
            raise UsageError(f"--seat {args.seat}: seats are 0 to {record.players - 1}")
        if args.step and not 0 <= args.start <= len(record.actions):
            raise UsageError(f"--from {args.start}: the record has positions 0 to {len(record.actions)}")
        console = Console(file=sys.stdout, highlight=False, emoji=False)
        if args.step and _interactive():
            shown = pages(record, args.seat, all_hands=args.all_hands)
            console.print(Text(_title(record, args.seat), style="bold"), highlight=False, soft_wrap=True)
            with _keys() as key:
                browse(shown, console, key, args.start)
            state = record.replay()
        elif args.step:
            state = step_through(record, args.seat, console, all_hands=args.all_hands, start=args.start)
        else:
            state = record.replay()
    except RecordError as exc:
        raise Failure(f"{path}: {exc}") from None
    if args.state:
        print(state.to_json())
    elif not args.step:
        print(f"{path}: {record.ruleset}, {record.players} players: {summary(record, state)}")
    return EXIT_OK

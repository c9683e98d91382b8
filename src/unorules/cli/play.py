"""``unorules play``: a game in the terminal against bots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import IO, Any

from unorules.actions import Action, verb_spec
from unorules.bots import BOTS, Bot, make_bot, next_action
from unorules.cards import COLORS, Card, Color
from unorules.cli.common import (
    EXIT_OK,
    Failure,
    UsageError,
    add_rules_arguments,
    bot_names,
    build_ruleset,
    parse_options,
    players_arg,
    random_seed,
    seed_arg,
)
from unorules.errors import IllegalActionError, NotationError, RulesetError
from unorules.record import Session
from unorules.state import GameState, SeatView


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``play`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play a game in the terminal against bots. Type ? during the game for help.",
        epilog="input: a card (R7, 'W+4 B', 'R7 2'), draw/d, pass/p, uno/u, catch SEAT, challenge, "
        "accept, color R, full notation ('0: play R7'), a number from the ? list, look, quit",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--players", type=players_arg, default=4, help="seats at the table, 2 to 10 (default 4)"
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument(
        "--bots",
        type=bot_names,
        default=["heuristic"],
        metavar="NAMES",
        help=f"bots for the other seats, cycled ({', '.join(BOTS)}; default heuristic)",
    )
    parser.add_argument("--seed", type=seed_arg, help="seed of the deal and the bots (default: random)")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="write the game record to FILE when the game ends or stops ('unorules replay FILE' checks it)",
    )
    return parser


class Quit(Exception):
    """The player typed ``quit`` (exit 0) or the input ended (exit 1)."""

    def __init__(self, eof: bool) -> None:
        super().__init__("input ended" if eof else "quit")
        self.eof = eof


_SHORT = {
    "d": "draw",
    "p": "pass",
    "u": "uno",
    "a": "accept",
    "acc": "accept",
    "ch": "challenge",
    "chal": "challenge",
    "col": "color",
    "colour": "color",
    "c": "catch",
}

_HELP = """\
Type an action: a card to play it (R7; wilds with a colour: W+4 B; a seat for cards that
need one: R7 2), draw (d), pass (p), uno (u), catch SEAT, challenge, accept, color R,
or full notation ('0: play R7'). A number picks that entry of the list below.
Other commands: ? or help (this list), look (the table again), quit."""

_PHASE_HINTS = {
    "play": "your turn: play a card or draw",
    "drawn": "you drew a playable card: play it or pass",
    "penalty": "you must draw {count}",
    "challenge": "a Wild Draw Four hit you: challenge it or accept and draw {count}",
    "color": "the starter is a wild: name its colour (color R)",
}


def _hand_text(hand: Sequence[Card]) -> str:
    order = {c: i for i, c in enumerate(COLORS)}
    ranked = sorted(hand, key=lambda c: (order.get(c.color, 9) if c.color else 9, c.kind))
    return " ".join(str(c) for c in ranked) if ranked else "(empty)"


def _color_name(color: Color | None) -> str:
    return "not named yet" if color is None else color.name.lower()


class _Human:
    """The terminal player: a bot whose choices are read from the input."""

    name = "you"

    def __init__(self, seat: int, inp: IO[str], out: IO[str]) -> None:
        self.seat = seat
        self.inp = inp
        self.out = out
        self.state: GameState | None = None
        """The game's state, set by the command before each action: only to
        explain why a move typed at the terminal is refused (the rule)."""

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        while True:
            try:
                line = self.inp.readline()
            except UnicodeDecodeError:
                self.say("not understood: the input is not text in your terminal's encoding")
                self.out.write(prompt)
                self.out.flush()
                continue
            except (OSError, ValueError):  # standard input closed under us
                line = ""
            break
        if not line:
            self.say()
            raise Quit(eof=True)
        if not getattr(self.inp, "isatty", lambda: False)():
            self.say(_short(line.rstrip("\n")))  # echo scripted input so the transcript reads well
        return line.strip()

    def status(self, view: SeatView) -> None:
        n = len(view.hand_sizes)
        arrow = "left (+1)" if view.direction == 1 else "right (-1)"
        self.say(f"--- round {len(view.rounds) + 1} - seat {view.current_player} to move ---")
        self.say(
            f"top: {view.top_card}   colour: {_color_name(view.color)}   direction: {arrow}   "
            f"draw pile: {view.draw_pile_size}"
        )
        others = []
        for s in range(n):
            if s == self.seat:
                continue
            if s in view.left:
                others.append(f"seat {s}: out of the game")
                continue
            size = view.hand_sizes[s]
            flag = " UNO!" if size == 1 else ""
            shown = view.visible_hands.get(s)
            seen = f" [{_hand_text(shown)}]" if shown is not None else ""
            others.append(f"seat {s}: {size} card{'s' if size != 1 else ''}{flag}{seen}")
        self.say("others: " + ", ".join(others))
        self.say("scores: " + " ".join(f"{s}:{p}" for s, p in enumerate(view.scores)))
        self.say(f"your hand (seat {self.seat}): {_hand_text(view.hand)}")
        if view.current_player == self.seat:
            hint = _PHASE_HINTS.get(view.phase.name, f"phase {view.phase.name}")
            self.say(hint.format(count=view.phase.count))

    def list_actions(self, view: SeatView) -> None:
        for i, action in enumerate(view.legal_actions, 1):
            self.say(f"  {i:2}. {action}")

    def parse(self, text: str, view: SeatView) -> Action:
        """Turn what the player typed into an action of their seat (``NotationError`` if it is not one)."""
        if text.isascii() and text.isdigit():
            k = int(text) if len(text) <= 6 else 0
            if not 1 <= k <= len(view.legal_actions):
                raise NotationError(
                    f"there is no entry {_short(text, 12)}; type ? to list your {len(view.legal_actions)}"
                )
            return view.legal_actions[k - 1]
        if ":" in text:
            return Action.parse(text, default_seat=self.seat)
        words = text.split()
        first = _SHORT.get(words[0].lower(), words[0].lower())
        if first == "color":
            if len(words) != 2:
                raise NotationError("name one colour: color R (or Y, G, B)")
            return Action.parse(f"color {words[1]}", default_seat=self.seat)
        if len(words) == 1 and _is_color(first):
            return Action.parse(f"color {first}", default_seat=self.seat)
        try:
            verb_spec(first)
        except KeyError:
            pass
        else:
            return Action.parse(" ".join([first, *words[1:]]), default_seat=self.seat)
        try:
            Card.parse(words[0])
        except NotationError:
            raise NotationError(
                f"{_short(text, 40)!r} is neither a card nor an action; type ? for help"
            ) from None
        return Action.parse("play " + text, default_seat=self.seat)

    def choose(self, view: SeatView) -> Action | None:
        seat = self.seat
        my_turn = view.current_player == seat
        if my_turn:
            self.status(view)
            prompt = "> "
        else:
            offer = ", ".join(str(a) for a in view.legal_actions)
            self.say(f"you may act now, out of turn: {offer}")
            prompt = "(Enter to let play go on) > "
        while True:
            text = self.read(prompt)
            lowered = text.lower()
            if lowered in ("quit", "q", "exit"):
                raise Quit(eof=False)
            if lowered in ("?", "help", "h"):
                self.say(_HELP)
                self.say("your legal actions now:")
                self.list_actions(view)
                continue
            if lowered in ("look", "l", "status"):
                self.status(view)
                continue
            if not text:
                if not my_turn:
                    return None
                continue
            try:
                action = self.parse(text, view)
            except ValueError as exc:  # NotationError, or a number too long for Python's int
                self.say(f"not understood: {_short(str(exc))}")
                continue
            if action.seat != seat:
                self.say(f"refused: you are seat {seat}; '{action}' is seat {action.seat}'s action")
                continue
            if action in view.legal_actions:
                return action
            if self.state is None:  # pragma: no cover - the command always sets it
                self.say(f"refused: {action} is not legal now")
                continue
            try:
                self.state.apply(action)
            except IllegalActionError as exc:
                self.say(f"refused: {exc}")
            else:  # pragma: no cover - legal_actions and apply agree (a core invariant)
                return action


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


def _is_color(word: str) -> bool:
    try:
        Color.parse(word)
    except NotationError:
        return False
    return True


def _describe(state: GameState, seat: int, out: IO[str]) -> None:
    """Print the last action and its events as ``seat`` may see them."""
    view = state.view(seat)
    action = view.last_action
    if action is not None:
        who = "you" if action.seat == seat else f"seat {action.seat}"
        print(f"{who}: {str(action).partition(': ')[2]}", file=out)
    for event in view.events:
        if event.kind == "draw" and event.seat == seat and event.cards:
            print(f"    you drew {' '.join(map(str, event.cards))}", file=out)
        else:
            print(f"    {event}", file=out)


def run(args: argparse.Namespace) -> int:
    """Run ``unorules play``."""
    options = parse_options(args.option)
    rules = build_ruleset(args.rules, options)
    players: int = args.players
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat {args.seat}: seats are 0 to {players - 1}")
    seed = args.seed if args.seed is not None else random_seed()
    try:
        session = Session(rules, players, seed=seed, headers={"Human": args.seat})
    except RulesetError as exc:
        raise UsageError(str(exc)) from None
    try:
        return _play(args, session, rules.names, seed)
    finally:
        if args.record:
            _write_record(args.record, session)


def _write_record(path: str, session: Session) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(session.record().dumps())
    except OSError as exc:
        raise Failure(f"cannot write the record to {path}: {exc}") from None


def _play(args: argparse.Namespace, session: Session, names: Sequence[str], seed: int | str) -> int:
    players: int = args.players
    state = session.state
    out = sys.stdout
    if sys.stdin is None or sys.stdin.closed:
        raise Failure("no input: play reads your moves from standard input, which is closed")
    human = _Human(args.seat, sys.stdin, out)
    bot_names: list[str] = args.bots
    bots: list[Bot] = []
    for s in range(players):
        if s == args.seat:
            bots.append(human)
        else:
            bots.append(make_bot(bot_names[s % len(bot_names)], seed=f"{seed}/{s}"))
    print(
        f"unorules play: {','.join(names)}, {players} players, seed {seed!r}; "
        f"you are seat {args.seat}; type ? for help",
        file=out,
    )
    print("bots: " + ", ".join(f"seat {s}: {b.name}" for s, b in enumerate(bots) if s != args.seat), file=out)
    _describe(state, args.seat, out)
    finished = 0
    try:
        while not state.is_over:
            human.state = state
            action = next_action(state, bots)
            state = session.apply(action)
            _describe(state, args.seat, out)
            if len(state.rounds) != finished:
                for result in state.rounds[finished:]:
                    who = "nobody" if result.winner is None else f"seat {result.winner}"
                    print(
                        f"*** round {result.number} over ({result.reason}): {who} won it; "
                        f"points {list(result.points)}",
                        file=out,
                    )
                finished = len(state.rounds)
                print("*** scores: " + " ".join(f"{s}:{p}" for s, p in enumerate(state.scores)), file=out)
    except Quit as stop:
        if stop.eof:
            raise Failure("the input ended before the game did") from None
        print("game stopped", file=out)
        return EXIT_OK
    assert state.outcome is not None
    winners = state.outcome.winners
    verdict = "you won!" if args.seat in winners else f"seat(s) {', '.join(map(str, winners))} won"
    print(f"*** game over ({state.outcome.reason}): {verdict}", file=out)
    return EXIT_OK

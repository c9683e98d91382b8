"""``unorules play``: a game in the terminal against bots, drawn with rich.

Cards are shown in their colours (plain text when standard output is not a
terminal or ``NO_COLOR`` is set), the hand sorted by colour and number, the
playable cards numbered so that one digit plays them, every action said in
plain words from your seat (:mod:`unorules.cli.words`), a recap of what the
bots did since your last turn, and the scores as a table when a round ends.
``undo`` takes your last action back with the bots' replies since, while nothing
new was shown to you (a friendly game's take-back, the rule of
:func:`unorules.record.take_back_point`); ``--resume
RECORD`` goes on with a game saved with ``--record``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import attrs
from rich.console import Console
from rich.table import Table
from rich.text import Text

from unorules.actions import Action, verb_spec
from unorules.bots import BOTS, Bot, make_bot, next_action
from unorules.cards import Card, Color
from unorules.cli import words
from unorules.cli.common import (
    EXIT_OK,
    Failure,
    UsageError,
    add_rules_arguments,
    bot_names,
    build_ruleset,
    parse_options,
    players_arg,
    players_for,
    random_seed,
    rulebook,
    rules_label,
    seed_arg,
)
from unorules.display import display_of
from unorules.errors import IllegalActionError, NotationError, RulesetError
from unorules.record import GameRecord, RecordError, Session
from unorules.state import GameState, SeatView


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``play`` on the subparsers ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play a game in the terminal against bots. Type ? during the game for help.",
        epilog="input: the number of a playable card or action, a card (R7, 'W+4 B', 'R7 2'), draw/d, "
        "pass/p, uno/u, catch SEAT, challenge, accept, color R, full notation ('0: play R7'), look, undo, "
        "quit",
    )
    add_rules_arguments(parser)
    parser.set_defaults(rules=None)  # classic, unless --resume reads the rule set from a record
    parser.add_argument(
        "--players",
        type=players_arg,
        default=None,
        help="seats at the table, 2 to 10 (default: the rulebook's first player count, else 4)",
    )
    parser.add_argument("--seat", type=int, default=None, help="your seat (default 0)")
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
    parser.add_argument(
        "--resume",
        metavar="RECORD",
        help="go on with the game saved in RECORD (by --record): its rule set, players, seed and your "
        "seat come from it (--seat overrides the seat)",
    )
    return parser


class Quit(Exception):
    """The player typed ``quit`` (exit 0) or the input ended (exit 1)."""

    def __init__(self, eof: bool) -> None:
        super().__init__("input ended" if eof else "quit")
        self.eof = eof


class Undo(Exception):
    """The player typed ``undo`` and may take the last action back."""


class Cancel(Exception):
    """The player typed ``undo`` (or ``back``) when asked which play of a card they mean:
    the card is not played, and they are asked for their move again."""


_CANCEL = ("undo", "back", "cancel", "b")
"""What takes back a choice not made yet, at the "which one?" question."""


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
Type the number of a playable card (marked in your hand) or of an action, e.g. 2; a wild
takes its colour after it (2 B) and a card that names a seat takes the seat (2 3), or you
are asked. Or type a card (R7, W+4 B, R7 2), draw (d), pass (p), uno (u), catch SEAT (c 2),
challenge, accept, color R, or full notation (0: play R7).
Other commands: ? or help (this text and your choices), look (the table again), undo (take
your last action back with the bots' replies, unless they showed you a card you had not seen
or ended the round), quit."""

_SITUATIONS = {
    "play": "your turn",
    "drawn": "you drew a playable card",
    "penalty": "you have {count} to draw",
    "challenge": "a Wild Draw Four hit you",
    "color": "the starter is a wild",
}
"""Classic's phases in words: what the seat to move faces (what it may do is said from its
legal actions, :func:`_choices`)."""

_VERB_CHOICES = {
    "play": "play a card",
    "draw": "draw",
    "pass": "pass",
    "color": "name a colour",
    "challenge": "challenge it",
    "accept": "accept and draw",
    "uno": "call UNO",
    "catch": "catch a player",
}
"""How each core and classic verb reads as a choice; a plugin's verb reads as its name."""


def _hint(view: SeatView) -> str:
    """What the seat to move faces and may do: the situation from the phase (the base game's
    phases in words, any other phase in the rule set's words, :meth:`Display.phase_words
    <unorules.display.Display.phase_words>`, else by its declared description), the choices from the seat's
    legal actions (:func:`_choices`), so that a rule set that forbids drawing is not told to draw."""
    name = view.phase.name
    rules = view.rules
    count = view.phase.count
    choices = _choices(view)
    if name in _SITUATIONS:  # the base game's phases, whichever plugin runs them (flip, no-mercy)
        many = words.plural(count, "card") if count else "cards"
        situation = _SITUATIONS[name].format(count=many)
    else:
        spec = rules.phases.get(name)
        doc = display_of(rules).phase_words(name) or (  # the rule set's words, else the phase's doc
            "" if spec is None or not spec.doc else _RULE_CODES.sub("", spec.doc).strip().rstrip(".")
        )
        situation = f"your turn ({words.plural(count, 'card')} to draw)" if count else "your turn"
        if doc:
            situation += f": {doc}"
        elif not choices:
            situation += f" (phase {name})"
    if not choices:
        return situation
    return f"{situation}; you may {choices}" if ":" in situation else f"{situation}: {choices}"


def _choices(view: SeatView) -> str:
    """The seat's legal actions as choices in words, one a verb: ``"play a card or draw"``,
    ``"play it or pass"``, ``"challenge it or accept and draw 4"``."""
    seat = view.seat
    verbs = list(dict.fromkeys(a.verb for a in view.legal_actions if a.seat == seat))
    count = view.phase.count
    said = []
    for verb in verbs:
        text = _VERB_CHOICES.get(verb, verb.replace("_", " "))
        if verb == "play" and view.phase.name == "drawn":
            text = "play it"
        elif verb in ("draw", "accept") and count and view.phase.name in ("penalty", "challenge"):
            text = f"{text} {count}"
        said.append(text)
    if len(said) > 1:
        return ", ".join(said[:-1]) + " or " + said[-1]
    return said[0] if said else ""


_RULE_CODES = re.compile(r"\s*\((?:R-[A-Z0-9-]+(?:,\s*)?)+\)")


@attrs.frozen
class Entry:
    """One numbered choice: a card of the hand (its plays) or another action."""

    label: Text
    actions: tuple[Action, ...]
    card: Card | None = None


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


def _is_color(word: str) -> bool:
    try:
        Color.parse(word)
    except NotationError:
        return False
    return True


def _which(options: Sequence[Action]) -> str:
    """The question for the plays of one card: "which colour" when they differ only by
    the colour named, "which seat" by the seat chosen, else "which one"."""
    colors = {a.color for a in options}
    targets = {a.target for a in options}
    if len(colors) == len(options) and len(targets) == 1:
        return "which colour"
    if len(targets) == len(options) and len(colors) == 1:
        return "which seat"
    return "which one"


def _option_label(action: Action, me: int) -> Text:
    """How one of several plays of a card differs from the others: its colour, its seat."""
    out = Text()
    if action.color is not None:
        out.append_text(words.color(action.color))
    if action.target is not None:
        out.append((" " if action.color is not None else "") + words.who(action.target, me))
    if action.nth is not None:
        out.append((" " if out.plain else "") + f"#{action.nth}")
    if not out.plain and action.card is not None:
        return Text("#1")  # the first card showing that face (the others are #2, #3, ...)
    return out if out.plain else Text(str(action))


class TerminalPlayer:
    """The player at the terminal: a bot whose choices are read from the input."""

    name = "you"

    def __init__(self, seat: int, inp: IO[str], console: Console, echo: bool) -> None:
        self.seat = seat
        self.inp = inp
        self.console = console
        self.echo = echo
        self.recap: list[str] = []
        """What the bots did since the player's last decision."""
        self.state: GameState | None = None
        """The game's state, set by the command before each action: only to
        explain why a move typed at the terminal is refused (the rule)."""
        self.session: Session | None = None
        """The game's session, set by the command: to say whether ``undo`` may
        take the player's last action back."""
        self.bots: frozenset[int] = frozenset()
        """The seats the bots play, whose replies ``undo`` takes back with the player's action."""

    def say(self, *parts: str | Text) -> None:
        self.console.print(*parts, sep="", highlight=False, soft_wrap=True)

    def read(self, prompt: str) -> str:
        self.console.print(prompt, end="", highlight=False, markup=False)
        self.console.file.flush()
        while True:
            try:
                line = self.inp.readline()
            except UnicodeDecodeError:
                self.say("not understood: the input is not text in your terminal's encoding")
                self.console.print(prompt, end="", highlight=False, markup=False)
                continue
            except (OSError, ValueError):  # standard input closed under us
                line = ""
            break
        if not line:
            self.say()
            raise Quit(eof=True)
        if self.echo:
            self.say(_short(line.rstrip("\n")))  # scripted input: the transcript reads well
        return line.strip()

    # -- the table --------------------------------------------------------------------

    def entries(self, view: SeatView) -> list[Entry]:
        """The numbered choices: the playable cards of the hand, then the other actions."""
        mine = [a for a in view.legal_actions if a.seat == self.seat]
        found: list[Entry] = []
        plays: dict[Card, list[Action]] = {}
        for action in mine:
            if action.verb == "play" and action.card is not None:
                plays.setdefault(action.card, []).append(action)
        for card in dict.fromkeys(words.sorted_hand(view.hand)):  # two R9s are one choice
            if card in plays:
                found.append(Entry(words.card(card, display_of(view.rules)), tuple(plays[card]), card))
        held = set(view.hand)
        for action in mine:
            if action.verb == "play" and action.card in held:
                continue
            found.append(Entry(words.choice_words(action, self.seat), (action,)))
        return found

    def hand_line(self, view: SeatView, entries: Sequence[Entry]) -> Text:
        numbers = {e.card: i for i, e in enumerate(entries, 1) if e.card is not None}
        line = Text(f"your hand ({words.plural(len(view.hand), 'card')}): ")
        for k, card in enumerate(words.sorted_hand(view.hand)):
            if k:
                line.append(" ")
            number = numbers.get(card)
            if number is None:
                line.append_text(words.card(card, display_of(view.rules)).copy())
                line.stylize("dim", len(line) - len(str(card)))
            else:
                line.append(f"{number}:", style="bold")
                line.append_text(words.card(card, display_of(view.rules)))
        return line

    def status(self, view: SeatView) -> None:
        """The table as this seat sees it, and what it may do."""
        n = len(view.hand_sizes)
        mover = "your turn" if view.current_player == self.seat else f"seat {view.current_player} to move"
        self.console.rule(f"round {len(view.rounds) + 1} · {mover}", style="dim")
        arrow = "left (+1)" if view.direction == 1 else "right (-1)"
        pile = Text(f"  direction {arrow}  draw pile {view.draw_pile_size}")
        if view.draw_pile_back is not None:  # two-faced cards: the face up on the draw pile
            pile.append(" (showing ").append_text(words.card(view.draw_pile_back)).append(")")
        if view.rules.two_faced:
            pile.append(f"  {words.side_words(view)}")
        self.say(
            Text("top ").append_text(words.card(view.top_card, display_of(view.rules))),
            Text("  colour ").append_text(words.color(view.color)),
            pile,
        )
        others = []
        for s in range(n):
            if s == self.seat:
                continue
            if s in view.left:
                others.append(f"seat {s}: out")
                continue
            size = view.hand_sizes[s]
            flag = " UNO!" if size == 1 else ""
            shown = view.visible_hands.get(s)
            seen = f" [{' '.join(str(c) for c in words.sorted_hand(shown))}]" if shown is not None else ""
            others.append(f"seat {s}: {words.plural(size, 'card')}{flag}{seen}")
        self.say("   ".join(others))
        for s, backs in sorted(view.backs.items()):  # two-faced cards: the backs this seat sees
            self.say(
                Text(f"{words.who(s, self.seat)} show{'s' * (s != self.seat)} the backs ").append_text(
                    words.back_cards(backs)
                )
            )
        if any(view.scores):
            self.say(
                "scores: " + "  ".join(f"{words.who(s, self.seat)} {p}" for s, p in enumerate(view.scores))
            )
        entries = self.entries(view)
        self.say(self.hand_line(view, entries))
        rest = [(i, e) for i, e in enumerate(entries, 1) if e.card is None]
        if rest:
            line = Text("or: ")
            for k, (i, e) in enumerate(rest):
                if k:
                    line.append("   ")
                line.append(f"{i}:", style="bold")
                line.append_text(e.label)
            self.say(line)
        if view.current_player == self.seat:
            self.say(Text(_hint(view), style="italic"))

    def list_choices(self, view: SeatView) -> None:
        for i, entry in enumerate(self.entries(view), 1):
            extra = ""
            if len(entry.actions) > 1:
                extra = " (" + ", ".join(_option_label(a, self.seat).plain for a in entry.actions) + ")"
            self.say(Text(f"  {i:2}. ").append_text(entry.label), extra)

    # -- reading a choice -------------------------------------------------------------

    def parse(self, text: str, view: SeatView) -> Action:
        """Turn what the player typed into an action of their seat (``NotationError`` if it is not one)."""
        words_typed = text.split()
        first = words_typed[0]
        if first.isascii() and first.isdigit():
            entries = self.entries(view)
            k = int(first) if len(first) <= 6 else 0
            if not 1 <= k <= len(entries):
                raise NotationError(
                    f"there is no choice {_short(first, 12)}; the choices are 1 to {len(entries)}"
                )
            return self.pick(entries[k - 1], words_typed[1:], view)
        if ":" in text:
            return Action.parse(text, default_seat=self.seat)
        verb = _SHORT.get(first.lower(), first.lower())
        if verb == "color":
            if len(words_typed) != 2:
                raise NotationError("name one colour: color R (or Y, G, B)")
            return Action.parse(f"color {words_typed[1]}", default_seat=self.seat)
        if len(words_typed) == 1 and _is_color(verb):
            return Action.parse(f"color {verb}", default_seat=self.seat)
        try:
            verb_spec(verb)
        except KeyError:
            pass
        else:
            return Action.parse(" ".join([verb, *words_typed[1:]]), default_seat=self.seat)
        try:
            Card.parse(first)
        except NotationError:
            shown = _short(text, 40)
            raise NotationError(f"{shown!r} is neither a card nor an action; type ? for help") from None
        return Action.parse("play " + text, default_seat=self.seat)

    def pick(self, entry: Entry, rest: Sequence[str], view: SeatView) -> Action:
        """The action of a numbered choice, asking for the colour or seat when it has several."""
        if len(entry.actions) == 1 and not rest:
            return entry.actions[0]
        if rest:
            if entry.card is None:
                raise NotationError("that choice takes nothing after its number")
            return Action.parse(f"play {entry.card} {' '.join(rest)}", default_seat=self.seat)
        options = entry.actions
        asked = _which(options)
        line = Text(f"{asked}? ")
        for i, action in enumerate(options, 1):
            if i > 1:
                line.append("  ")
            line.append(f"{i}:", style="bold")
            line.append_text(_option_label(action, self.seat))
        self.say(line)
        while True:
            answer = self.read(f"{asked}? (undo: none of them) > ")
            if answer.lower() in ("quit", "q", "exit"):
                raise Quit(eof=False)
            if answer.lower() in _CANCEL:
                raise Cancel
            if answer.isascii() and answer.isdigit() and 1 <= int(answer[:6]) <= len(options):
                return options[int(answer) - 1]
            if answer and entry.card is not None:
                try:
                    return Action.parse(f"play {entry.card} {answer}", default_seat=self.seat)
                except ValueError as exc:
                    self.say(f"not understood: {_short(str(exc))}")
                    continue
            self.say(f"type a number from 1 to {len(options)}")

    def choose(self, view: SeatView) -> Action | None:
        seat = self.seat
        my_turn = view.current_player == seat
        if my_turn:
            if self.recap:
                self.say(Text("since your last turn: ", style="dim") + Text(", ".join(self.recap)))
                self.recap.clear()
            self.status(view)
            prompt = "> "
        else:
            entries = self.entries(view)
            offer = Text("you may act now: ")
            for i, entry in enumerate(entries, 1):
                if i > 1:
                    offer.append("   ")
                offer.append(f"{i}:", style="bold")
                offer.append_text(entry.label)
            self.say(offer)
            prompt = "(Enter to let play go on) > "
        while True:
            text = self.read(prompt)
            lowered = text.lower()
            if lowered in ("quit", "q", "exit"):
                raise Quit(eof=False)
            if lowered in ("?", "help", "h"):
                self.say(_HELP)
                self.say("your choices now:")
                self.list_choices(view)
                continue
            if lowered in ("look", "l", "status"):
                self.status(view)
                continue
            if lowered in ("undo", "takeback", "take back"):
                why = "the game has only begun" if self.session is None else None
                if self.session is not None:
                    why = self.session.why_not_take_back(seat, self.bots)
                if why is not None:
                    self.say(f"cannot take it back: {why}")
                    continue
                raise Undo
            if not text:
                if not my_turn:
                    return None
                continue
            try:
                action = self.parse(text, view)
            except Cancel:
                self.say("nothing played: your move again")
                continue
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
                self.say(f"refused: {_short(str(exc), 300)}")
            else:  # pragma: no cover - legal_actions and apply agree (a core invariant)
                return action


def scores_table(state: GameState, seat: int, first: int) -> Table:
    """The points of the rounds from ``first`` on and the totals, one row per seat."""
    table = Table(title="scores", title_justify="left", show_edge=False)
    table.add_column("seat")
    for result in state.rounds[first:]:
        table.add_column(f"round {result.number}", justify="right")
    table.add_column("total", justify="right")
    for s in range(state.players):
        row = [words.who(s, seat)]
        row += [str(r.points[s]) for r in state.rounds[first:]]
        row.append(str(state.scores[s]))
        table.add_row(*row, style="bold" if s == seat else None)
    return table


def make_console(out: IO[str]) -> Console:
    """A console on ``out``: colour only on a terminal and without ``NO_COLOR`` (rich decides)."""
    return Console(file=out, highlight=False, emoji=False)


def run(args: argparse.Namespace) -> int:
    """Run ``unorules play``."""
    if args.resume:
        session, me = _resume(args)
        title = session.headers.get("Rulebook")
        names = [rules_label(None, session.ruleset.names, str(title) if title else None)]
        seed: int | str = session.seed
    else:
        options = parse_options(args.option)
        spec = "classic" if args.rules is None else args.rules
        rules = build_ruleset(spec, options)
        players = players_for(spec, args.players)
        me = args.seat if args.seat is not None else 0
        if not 0 <= me < players:
            raise UsageError(f"--seat {me}: seats are 0 to {players - 1}")
        seed = args.seed if args.seed is not None else random_seed()
        book = rulebook(spec)
        headers: dict[str, str | int] = {"Human": me}
        if book is not None:
            headers["Rulebook"] = book.name  # --resume names it again
        try:
            session = Session(rules, players, seed=seed, headers=headers)
        except RulesetError as exc:
            raise UsageError(str(exc)) from None
        names = [rules_label(spec, rules.names)]
    try:
        return _play(args, session, me, names, seed)
    finally:
        if args.record:
            _write_record(args.record, session)


def _resume(args: argparse.Namespace) -> tuple[Session, int]:
    """The session of ``--resume RECORD`` (its actions replayed, each checked) and the
    player's seat: ``--seat`` if given, else the record's ``Human`` header."""
    given = [f"--{n}" for n in ("rules", "players", "seed") if getattr(args, n) is not None]
    given += ["--option"] if args.option else []
    if given:
        raise UsageError(
            f"--resume takes the rule set, players and seed from the record: leave out {given[0]}"
        )
    path = Path(args.resume)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Failure(f"cannot read {path}: {exc}") from None
    try:
        session = Session.from_record(GameRecord.parse(text))
    except RecordError as exc:
        raise Failure(f"{path}: {exc}") from None
    if session.state.is_over:
        raise Failure(f"{path}: the game is over; 'unorules replay --step {path}' shows it")
    human = session.headers.get("Human")
    me = args.seat if args.seat is not None else human if isinstance(human, int) else 0
    if not 0 <= me < session.players:
        raise UsageError(f"--seat {me}: seats are 0 to {session.players - 1}")
    session.headers["Human"] = me
    return session, me


def _write_record(path: str, session: Session) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(session.record().dumps())
    except OSError as exc:
        raise Failure(f"cannot write the record to {path}: {exc}") from None


def _play(args: argparse.Namespace, session: Session, me: int, names: Sequence[str], seed: int | str) -> int:
    players = session.players
    state = session.state
    if sys.stdin is None or sys.stdin.closed:
        raise Failure("no input: play reads your moves from standard input, which is closed")
    console = make_console(sys.stdout)
    echo = not getattr(sys.stdin, "isatty", lambda: False)()
    human = TerminalPlayer(me, sys.stdin, console, echo)
    human.session = session
    human.bots = frozenset(s for s in range(players) if s != me)
    bots: list[Bot] = []
    for s in range(players):
        if s == me:
            bots.append(human)
        else:
            bots.append(make_bot(args.bots[s % len(args.bots)], seed=f"{seed}/{s}"))
    human.say(
        Text(f"unorules play: {','.join(names)}, {players} players, seed {seed}", style="bold"),
        f"; you are seat {me}; type ? for help",
    )
    human.say("bots: " + ", ".join(f"seat {s}: {b.name}" for s, b in enumerate(bots) if s != me))
    view = state.view(me)
    if session.history:
        played = words.plural(len(session.history), "action")
        human.say(f"resumed after {played}, in round {len(view.rounds) + 1}; the last: ")
        for line in words.describe(session.states[-2].view(me), view, me):
            human.say(line)
        human.say(Text("you hold ").append_text(words.cards(view.hand)))
    else:
        for line in words.deal_words(view, me):
            human.say(line)
        human.say(Text("you are dealt ").append_text(words.cards(view.hand)))
    try:
        return _rounds(session, state, bots, human, me, args.record)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()  # a bot program is stopped


def stopped_words(actions: int, record: str | None) -> str:
    """What ``quit`` says: where the game is kept and how to go on with it, or that it is not."""
    played = words.plural(actions, "action")
    if record:
        return f"game stopped after {played}; saved in {record}: 'unorules play --resume {record}' goes on"
    return f"game stopped after {played}; not saved (play with --record FILE to go on later with --resume)"


def _rounds(
    session: Session,
    state: GameState,
    bots: list[Bot],
    human: TerminalPlayer,
    me: int,
    record: str | None = None,
) -> int:
    """Play the game to its end: the bots and the player at the terminal, every bot shown every view."""
    finished = len(state.rounds)
    try:
        while not state.is_over:
            human.state = state
            before = state.view(me)
            try:
                action = next_action(state, bots)
            except Undo:
                taken = session.take_back(me, human.bots)
                state = session.state
                human.say(words.taken_back_words(state.ruleset, taken, me))
                human.recap.clear()
                continue
            state = session.apply(action)
            after = state.view(me)
            for line in words.describe(before, after, me):
                human.say(line)
            if action.seat != me:
                human.recap.append(words.recap_words(after, me))
            if len(state.rounds) != finished:
                for result in state.rounds[finished:]:
                    human.say(Text(style="bold").append_text(words.round_words(result, after, me)))
                human.console.print(scores_table(state, me, finished))
                finished = len(state.rounds)
                human.recap.clear()
                if not state.is_over:
                    for line in words.deal_words(after, me):
                        human.say(line)
                    human.say(Text("a new round is dealt: you hold ").append_text(words.cards(after.hand)))
    except Quit as stop:
        if stop.eof:
            raise Failure("the input ended before the game did") from None
        human.say(stopped_words(len(session.history), record))
        return EXIT_OK
    human.say(Text(words.outcome_words(state.view(me), me), style="bold"))
    return EXIT_OK

"""What happened, in plain words from one seat's point of view, as rich text.

The words are the library's (:mod:`unorules.narrate`: each event kind's and
verb's own text); this module shows them in a terminal, cards in their
colours, and adds what a player at the table wants to know that no event
says: the seats the turn jumped over, a new direction of play, a draw or a
challenge the seat to move now faces, and your hand when something other
than your own play or draw changed it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text

from unorules.actions import Action
from unorules.cards import Card, Color, kind_info, registered_colors
from unorules.display import Display, display_of
from unorules.narrate import Narrator, Sentence
from unorules.ruleset import Ruleset
from unorules.state import Event, RoundResult, SeatView

CARD_STYLES: dict[Color | None, str] = {
    Color.RED: "bold white on red",
    Color.YELLOW: "bold black on yellow",
    Color.GREEN: "bold white on green",
    Color.BLUE: "bold white on blue",
    None: "bold white on black",
}
COLOR_STYLES: dict[Color, str] = {
    Color.RED: "bold red",
    Color.YELLOW: "bold yellow",
    Color.GREEN: "bold green",
    Color.BLUE: "bold blue",
}

_TERMINAL_COLORS = {
    "PINK": ("magenta", "white"),
    "TEAL": ("dark_cyan", "white"),
    "ORANGE": ("dark_orange", "black"),
    "PURPLE": ("purple", "white"),
    "CYAN": ("cyan", "black"),
    "MAGENTA": ("magenta", "white"),
    "WHITE": ("white", "black"),
    "BLACK": ("grey23", "white"),
}
"""Terminal colours for colours plugins register (register_color), by name: (colour, text on it)."""

_KIND_ORDER = {str(n): n for n in range(10)} | {"S": 10, "R": 11, "+2": 12, "W": 20, "W+4": 21}


def _styles(color: Color | None) -> tuple[str, str]:
    """The card style and the colour-name style of ``color``: the four's, else
    one made from a registered colour's name (neutral if the terminal has no such colour)."""
    card_style = CARD_STYLES.get(color)
    if card_style is not None and color is not None:
        return card_style, COLOR_STYLES[color]
    if color is None:
        return CARD_STYLES[None], "bold"
    shade, text = _TERMINAL_COLORS.get(color.name, ("grey50", "white"))
    return f"bold {text} on {shade}", f"bold {shade}"


def card_key(card: Card) -> tuple[int, int, str]:
    """Sort key: by colour (red, yellow, green, blue, then colours plugins register,
    then wilds), then number, then symbol."""
    colors = registered_colors()
    color = colors.index(card.color) if card.color is not None else len(colors)
    return (color, _KIND_ORDER.get(card.kind, 15), card.kind)


def sorted_hand(hand: Sequence[Card]) -> list[Card]:
    """``hand`` sorted by colour and number."""
    return sorted(hand, key=card_key)


def card(c: Card, display: Display | None = None) -> Text:
    """One card in its colours (plain notation without colour); with the rule set's
    ``display``, a card of no colour that its rule set paints in its paint and ink
    (:class:`~unorules.display.CardLook`)."""
    if display is not None and c.color is None:
        look = display.look(c)
        if look.paint:
            return Text(str(c), style=f"bold {look.ink or '#ffffff'} on {look.paint}")
    return Text(str(c), style=_styles(c.color)[0])


def back_cards(cs: Sequence[Card]) -> Text:
    """The backs of a hand (two-faced cards), in hand order, separated by spaces."""
    out = Text()
    for i, c in enumerate(cs):
        if i:
            out.append(" ")
        out.append_text(card(c))
    return out


def cards(cs: Sequence[Card]) -> Text:
    """Cards separated by spaces, sorted."""
    out = Text()
    for i, c in enumerate(sorted_hand(cs)):
        if i:
            out.append(" ")
        out.append_text(card(c))
    return out if cs else Text("no cards")


def color(c: Color | None) -> Text:
    """A colour's name in that colour."""
    if c is None:
        return Text("not named yet")
    return Text(c.name.lower(), style=_styles(c)[1])


def side_words(view: SeatView) -> str:
    """Which side of a deck of two-faced cards is up, for the status line: the one place the
    terminal names a side, as the rule set calls it (:meth:`unorules.display.Display.side_name`:
    FLIP!'s "light side" and "dark side"), else ``"side N"``."""
    return display_of(view.rules).side_name(view.side)


def who(seat: int | None, me: int, *, subject: bool = True) -> str:
    """``"you"`` for ``me``, else ``"seat N"``."""
    if seat is None:
        return "nobody"
    return "you" if seat == me else f"seat {seat}"


def verb(seat: int, me: int, base: str, third: str | None = None) -> str:
    """``base`` for you, the third person for others: ``verb(2, 0, "draw")`` is ``"seat 2 draws"``."""
    if seat == me:
        return f"you {base}"
    return f"seat {seat} {third if third is not None else base + 's'}"


def plural(n: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def sentence(said: Sentence, display: Display | None = None) -> Text:
    """A narrated sentence as rich text: each card in its colours (its notation,
    with the kind's name after a card without a number: the rule set's name for it
    with its ``display``), each colour in its colour."""
    out = Text()
    for part in said.parts:
        if isinstance(part, Card):
            out.append_text(card(part, display))
            if part.number is None:
                name = kind_info(part.kind).name if display is None else display.look(part).name
                out.append(f" ({name})")
        elif isinstance(part, Color):
            out.append_text(color(part))
        else:
            out.append(part)
    return out


ROUND_EVENTS = frozenset({"round-end", "deal"})
"""The event kinds :func:`describe` leaves to the round's own lines (:func:`round_words`, the deal)."""


def skipped(before: SeatView, after: SeatView, action: Action) -> list[int]:
    """The seats the turn jumped over: between the mover and the next seat to move, in play order."""
    if action.seat != before.current_player or len(after.rounds) != len(before.rounds) or after.is_over:
        return []
    if after.current_player == action.seat and (action.verb != "play" or after.phase.name != "play"):
        return []  # the same seat acts again (a drawn card to play or keep, a colour to name)
    n = len(after.hand_sizes)
    step = after.direction
    seats: list[int] = []
    seat = action.seat
    for _ in range(n):
        seat = (seat + step) % n
        if seat == after.current_player:
            return seats
        if seat not in after.left:
            seats.append(seat)
    return []


def describe(before: SeatView, after: SeatView, me: int, *, rounds: bool = False) -> list[Text]:
    """What the last action did, in plain words for ``me`` (``after`` is ``me``'s view after it;
    ``me`` -1 for a spectator): the narrated sentences, the first as the headline and the rest
    indented, without the end of a round and the next deal unless ``rounds`` (``play`` says them
    with the scores)."""
    action = after.last_action
    if action is None:
        return []
    events = [e for e in after.events if rounds or e.kind not in ROUND_EVENTS]
    said = Narrator(after.rules, me).step(action, events)
    lines = [sentence(s) if i == 0 else Text("  ").append_text(sentence(s)) for i, s in enumerate(said)]
    if len(after.rounds) != len(before.rounds) or after.is_over:
        return lines
    if _hand_moved(before, after, me):
        lines.append(Text("  your hand is now ").append_text(cards(after.hand)))
    for seat in skipped(before, after, action):
        lines.append(Text("  " + verb(seat, me, "are", "is") + " skipped"))
    if after.direction != before.direction:
        way = "left (+1)" if after.direction == 1 else "right (-1)"
        lines.append(Text(f"  play now goes to the {way}"))
    phase = after.phase
    changed = phase.name != before.phase.name or phase.count != before.phase.count
    stacked = any(e.kind == "stack" for e in after.events)
    if changed and phase.name == "penalty" and not stacked:
        many = f" {plural(phase.count, 'card')}" if phase.count else ""  # 0: a draw to a colour
        lines.append(Text(f"  {verb(after.current_player, me, 'must', 'must')} draw{many}"))
    if changed and phase.name == "challenge":
        many = f" {plural(phase.count, 'card')}" if phase.count else ""  # 0: a draw to a colour
        lines.append(Text(f"  {who(after.current_player, me)} may challenge it or accept and draw{many}"))
    return lines


def _hand_moved(before: SeatView, after: SeatView, me: int) -> bool:
    """Whether ``me``'s hand changed otherwise than by its own play and draws (a trade, a
    redeal, a discard an effect made)."""
    expected = Counter(before.hand)
    action = after.last_action
    if action is not None and action.seat == me and action.verb == "play" and action.card is not None:
        expected[action.card] -= 1
    for event in after.events:
        if event.kind == "draw" and event.seat == me:
            expected.update(event.cards)
    return +expected != Counter(after.hand)


def deal_words(view: SeatView, me: int) -> list[Text]:
    """How the round of ``view`` was dealt (its deal event, a starter sent back), in words."""
    said = Narrator(view.rules, me).step(None, [e for e in view.events if e.kind != "round-end"])
    return [sentence(s) for s in said]


def choice_words(action: Action, me: int) -> Text:
    """An action offered to ``me``, without the subject: ``"draw"``, ``"catch seat 2"``, ``"name red"``."""
    v = action.verb
    if v == "color" and action.color is not None:
        return Text("name ").append_text(color(action.color))
    if v == "catch" and action.target is not None:
        return Text(f"catch {who(action.target, me)}")
    if v == "uno":
        return Text("call UNO")
    if v == "play" and action.card is not None:
        out = Text("play ").append_text(card(action.card))
        if action.nth is not None:
            out.append(f"#{action.nth}")
        if action.color is not None:
            out.append(" ").append_text(color(action.color))
        if action.target is not None:
            out.append(f" {who(action.target, me)}")
        return out
    if v in ("draw", "pass", "accept", "challenge"):
        return Text(v)
    out = Text(v.replace("_", " "))  # a plugin's verb, with its card, colour and seat
    if action.card is not None:
        out.append(" ").append_text(card(action.card))
    if action.color is not None:
        out.append(" ").append_text(color(action.color))
    if action.target is not None:
        out.append(f" {who(action.target, me)}")
    return out


def taken_back_words(rules: Ruleset, taken: Sequence[Action], me: int) -> Text:
    """What ``undo`` took back: ``"taken back: you played R7, and seat 1 played R3"``."""
    narrator = Narrator(rules, me)
    display = display_of(rules)
    out = Text("taken back: ")
    for i, action in enumerate(taken):
        if i:
            out.append(", and " if i == len(taken) - 1 else ", ")
        out.append_text(sentence(narrator.action(action), display))
    return out


def recap_words(view: SeatView, me: int) -> str:
    """A few words for the recap line, what the last action of ``view`` did first:
    ``"seat 1 played R7"``, ``"seat 2 drew a card"`` (cards in notation)."""
    events = [e for e in view.events if e.kind not in ROUND_EVENTS]
    said = Narrator(view.rules, me).step(view.last_action, events)
    return said[0].render(card=str, color=lambda c: c.name.lower()) if said else ""


def round_words(result: RoundResult, view: SeatView, me: int) -> Text:
    """How a round ended: ``"round 2 is over: you went out and won the round, scoring 57 points"``."""
    event = Event("round-end", result.winner, data=(("reason", result.reason), ("points", result.points)))
    return Text(f"round {result.number} is over: ").append_text(
        sentence(Narrator(view.rules, me).event(event))
    )


OUTCOME_WORDS = {
    "target-score": ("reached the target score", "reached the target score"),
    "low-score": ("had the fewest points", "had the fewest points"),
    "last-standing": ("was the last player left", "were the last player left"),
}
"""How the core's and classic's reasons for the end of a game read, for another seat and for you."""


def outcome_words(view: SeatView, me: int) -> str:
    """How the game ended: ``"game over: you reached the target score and won!"``."""
    outcome = view.outcome
    if outcome is None:
        return "the game goes on"
    narrator = Narrator(view.rules, me)
    names = " and ".join(narrator.name(s) for s in outcome.winners) or "nobody"
    if len(outcome.winners) == 1 and outcome.reason in OUTCOME_WORDS:
        third, second = OUTCOME_WORDS[outcome.reason]
        if outcome.winners == (me,):
            return f"game over: you {second} and won!"
        return f"game over: {names} {third} and won"
    reason = outcome.reason.replace("-", " ").replace("_", " ")
    return f"game over ({reason}): {names} won" + ("!" if me in outcome.winners else "")

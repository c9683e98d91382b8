"""What happened, in plain words from one seat's point of view, as rich text.

:func:`describe` turns one step of a game (the view before an action and the
view after it) into sentences such as "seat 2 plays R+2", "you must draw 2",
"you are skipped", "seat 3 swapped hands with you: your hand is now ...".
It reads the action, the typed events and what changed in the view (the
seat to move, the direction, the phase, the hand), so plugins that add no
special events still read sensibly; unknown events fall back to their own
text with "seat N" made "you" where it is you.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

from unorules.actions import Action
from unorules.cards import Card, Color, kind_info, registered_colors
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


def card(c: Card) -> Text:
    """One card in its colours (plain notation without colour)."""
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


def _you(text: str, me: int) -> str:
    """``text`` with ``seat ME`` written as ``you`` (the fallback for unknown events)."""
    return re.sub(rf"\bseat {me}\b(?!\d)", "you", text)


def _line(*parts: str | Text) -> Text:
    out = Text()
    for part in parts:
        if isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(part)
    return out


def action_words(action: Action, me: int, events: Sequence[Event] = (), about: Card | None = None) -> Text:
    """The action in plain words (``"seat 2 plays R7 and names blue"``); ``about``
    is the card a challenge or an acceptance answers (default: a Wild Draw Four)."""
    seat = action.seat
    v = action.verb
    if v == "play" and action.card is not None:
        out = _line(verb(seat, me, "play"), " ", card(action.card))
        if action.nth is not None:
            out.append(f" (the {_ordinal(action.nth)} showing it)")
        if action.card.number is None:
            out.append(f" ({kind_info(action.card.kind).name})")
        if action.color is not None:
            out.append_text(_line(" and name" + ("" if seat == me else "s") + " ", color(action.color)))
        if action.target is not None:
            out.append(f" choosing {who(action.target, me)}")
        return out
    if v == "draw":
        # A draw may be several draw events (one card at a time): said as one.
        drawn = [e for e in events if e.kind == "draw" and e.seat == seat]
        shown = [c for e in drawn for c in e.cards]
        n = sum(e.count if e.count is not None else len(e.cards) for e in drawn)
        if drawn and seat == me and shown and len(shown) == n:
            return _line(verb(seat, me, "draw"), " ", cards(shown))
        return Text(verb(seat, me, "draw") + (f" {plural(n, 'card')}" if n else ""))
    wild = "the Wild Draw Four" if about is None else f"the {kind_info(about.kind).name}"
    simple = {
        "pass": verb(seat, me, "keep", "keeps") + " the card and " + ("pass" if seat == me else "passes"),
        "uno": verb(seat, me, "call", "calls") + " UNO!",
        "accept": verb(seat, me, "accept", "accepts") + " " + wild,
        "challenge": verb(seat, me, "challenge", "challenges") + " " + wild,
    }
    if v in simple:
        return Text(simple[v])
    if v == "catch" and action.target is not None:
        return Text(f"{verb(seat, me, 'catch', 'catches')} {who(action.target, me)} not calling UNO")
    if v == "color" and action.color is not None:
        return _line(verb(seat, me, "name"), " ", color(action.color))
    rest = str(action).partition(": ")[2]
    words = rest.split(" ", 1)
    tail = _you(f" {words[1]}", me) if len(words) > 1 else ""
    return Text(f"{who(seat, me)}: {words[0]}{tail}")


def event_words(
    event: Event, action: Action | None, me: int, hand: Sequence[Card], before: Sequence[Card] | None = None
) -> Text | None:
    """One event in plain words (``None`` when the action's line already says it)."""
    kind = event.kind
    seat = event.seat
    if kind == "draw" and seat is not None:
        if action is not None and action.verb == "draw" and action.seat == seat:
            return None  # the action's line shows it
        n = event.count if event.count is not None else len(event.cards)
        why = " as a penalty" if event.detail == "penalty" else ""
        if seat == me and event.cards:
            return _line(f"you draw {plural(n, 'card')}{why}: ", cards(event.cards))
        return Text(f"{verb(seat, me, 'draw')} {plural(n, 'card')}{why}")
    if kind == "uno" and action is not None and action.verb == "uno" and action.seat == seat:
        return Text("(a late call)") if event.detail == "late call" else None
    if kind == "caught" and seat is not None:
        by = event.detail.removeprefix("by ").strip()
        catcher = _you(by, me) if by else "another seat"
        return Text(f"{verb(seat, me, 'are', 'is')} caught without calling UNO by {catcher}")
    if kind == "reshuffle":
        return Text("the discard pile is shuffled into a new draw pile")
    if kind in ("hands-moved", "swap-hands", "shuffle-hands"):
        changed = before is None or sorted(map(str, before)) != sorted(map(str, hand))
        return _hands_moved(event, action, me, hand if changed else None)
    if kind == "stack" and seat is not None:
        return Text(_you(f"{verb(seat, me, 'stack')}: {event.detail}", me))
    if kind == "jump-in" and seat is not None:
        return Text(f"{verb(seat, me, 'jump')} in ({_you(event.detail, me)})")
    if kind == "eliminated" and seat is not None:
        return Text(f"{verb(seat, me, 'are', 'is')} out of the game ({event.detail})")
    if kind == "challenge" and seat is not None:
        return Text(_you(f"{who(seat, me)} shows the hand: {event.detail}", me))
    return Text(_you(str(event), me))


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")


def _hands_moved(event: Event, action: Action | None, me: int, hand: Sequence[Card] | None) -> Text:
    if event.kind == "shuffle-hands":
        head = "every hand is shuffled together and dealt out again"
    elif action is not None and action.target is not None and me in (action.seat, action.target):
        other = action.target if action.seat == me else action.seat
        head = (
            f"you swapped hands with seat {other}"
            if action.seat == me
            else f"seat {other} swapped hands with you"
        )
    elif action is not None and action.target is not None:
        head = f"seat {action.seat} and seat {action.target} swapped hands"
    else:
        head = _you(event.detail or "hands moved", me)
    if hand is None:
        return Text(head)
    return _line(head, ": your hand is now ", cards(hand))


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


def describe(before: SeatView, after: SeatView, me: int) -> list[Text]:
    """What the last action did, in plain words for ``me`` (``after`` is ``me``'s view after it)."""
    action = after.last_action
    lines: list[Text] = []
    if action is None:
        return lines
    about = before.phase.card if action.verb in ("accept", "challenge") else None
    lines.append(action_words(action, me, after.events, about))
    for event in after.events:
        said = event_words(event, action, me, after.hand, before.hand)
        if said is not None:
            lines.append(Text("  ").append_text(said))
    if len(after.rounds) != len(before.rounds) or after.is_over:
        return lines
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
    return Text(_you(str(action).partition(": ")[2], me))


def recap_words(action: Action) -> str:
    """A few words for the recap line: ``"seat 1 played R7"``."""
    v = action.verb
    seat = f"seat {action.seat}"
    if v == "play" and action.card is not None:
        extra = f" ({action.color.name.lower()})" if action.color is not None else ""
        target = f" on seat {action.target}" if action.target is not None else ""
        return f"{seat} played {action.card}{extra}{target}"
    past = {"draw": "drew", "pass": "passed", "uno": "called UNO", "accept": "accepted", "catch": "caught"}
    if v == "catch" and action.target is not None:
        return f"{seat} caught seat {action.target}"
    if v in past:
        return f"{seat} {past[v]}"
    if v == "challenge":
        return f"{seat} challenged"
    return f"{seat}: {str(action).partition(': ')[2]}"


def round_words(result: RoundResult, me: int) -> str:
    """How a round ended: ``"round 2 is over (out): you won it, 57 points"``."""
    if result.winner is None:
        won = "nobody won it"
    else:
        won = f"{'you' if result.winner == me else f'seat {result.winner}'} won it"
    points = sum(result.points)
    return f"round {result.number} is over ({result.reason}): {won}, {plural(points, 'point')} scored"

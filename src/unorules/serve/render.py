"""What a client is sent: a seat's view (or the public view) as plain JSON data.

Everything here is computed from a :class:`~unorules.SeatView` only, never
from the state, so a client can never be sent more than the library says its
seat may know. Cards and actions travel as their canonical notation.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from unorules.actions import Action
from unorules.cards import Card, Color
from unorules.codec import encode_value
from unorules.state import Event, RoundResult, SeatView

__all__ = ["action_data", "event_data", "feed_sentences", "view_data"]

DISCARD_SHOWN = 6
"""How many discard-pile cards (the top ones) a client is shown."""

_SEAT = re.compile(r"\bseat (\d{1,2})\b")
_CODES = re.compile(r"\(?\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b(?:,\s*)?\)?")

_COLOR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}

_PAINT = {"PINK": "#d6338a", "TEAL": "#12877f", "ORANGE": "#ef7d1a", "PURPLE": "#7440a8"}
"""How the page paints a colour a plugin registers, by its name (else the CSS colour of that name)."""
_MARKS = ("✚", "★", "⬟", "✖", "♥", "♣", "☗", "✿")
"""Colour-blind marks of registered colours, in the rule set's order (the four have their own)."""


def _color(color: Color | None) -> str | None:
    return None if color is None else str(color)


def _color_word(color: Color) -> str:
    return _COLOR_NAMES.get(color.value) or color.name.lower()


def _palette(colors: Sequence[Color]) -> dict[str, dict[str, str]]:
    """The rule set's colours beyond the four, for the page: word, paint and colour-blind mark."""
    extra = [c for c in colors if c.value not in _COLOR_NAMES]
    return {
        c.value: {
            "word": c.name.lower(),
            "css": _PAINT.get(c.name, c.name.lower()),
            "mark": _MARKS[i % len(_MARKS)],
        }
        for i, c in enumerate(extra)
    }


@functools.cache
def _card_data(card: Card) -> tuple[str, dict[str, Any]]:
    # cards are interned and immutable: each one's text and data are computed once per process
    return str(card), {"color": _color(card.color), "kind": card.kind, "name": card.name}


@functools.cache
def _text(card: Card) -> str:
    return str(card)


def action_data(action: Action) -> dict[str, Any]:
    """An action as the page uses it: its text (what it sends back) and its parts."""
    return {
        "text": str(action),
        "seat": action.seat,
        "verb": action.verb,
        "card": None if action.card is None else str(action.card),
        "color": _color(action.color),
        "target": action.target,
        "nth": action.nth,
    }


# the legal actions of every view are the library's interned actions: each one's data is made once
# (bounded: actions of seats beyond the interned ones are rare)
_action_entry = functools.lru_cache(maxsize=1 << 16)(action_data)


def _card_list(cards: Sequence[Card]) -> str:
    words = [card.name for card in cards]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _plural(count: int, word: str) -> str:
    return f"{'a' if count == 1 and word == 'card' else count} {word}{'' if count == 1 else 's'}"


# Events the core's mechanics add to any action: never what the action itself was.
_CONSEQUENCES = frozenset({"draw", "reshuffle", "round-end", "deal", "starter-returned", "eliminated"})


def feed_sentences(view: SeatView, names: Sequence[str], me: int | None) -> list[str]:
    """What the last action did, for the feed: one sentence in plain words per thing that happened,
    from the action and the structured events of ``view`` (``me``'s view; ``None``: a spectator's),
    with the players' names ("you" for ``me``), no rule codes and nothing said twice.

    The action's own sentence is left out when an event says it (a draw's draw event, a catch's
    "caught", a jump-in, a stack); a seat's draws of one action make one sentence; the cards a seat
    drew are named only in that seat's own view (the others' views do not hold them). This is the
    one place the server turns events into words: it is where the library's shared event text will
    be used once the core offers it."""
    action, events = view.last_action, view.events
    lines: list[str] = []

    def who(seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if seat == me:
            return "you"
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    def say(text: str) -> None:
        lines.append(text[:1].upper() + text[1:])

    def penalty(event: Event) -> bool:
        return (event.value("reason", event.detail) or "turn") == "penalty"

    def drawn(seat: int, as_penalty: bool | None) -> tuple[int, list[Card]]:
        """How many cards ``seat`` drew in this action (as a penalty, or not; ``None``: all) and
        the cards the view shows of them."""
        count, shown = 0, list[Card]()
        for event in events:
            if event.kind == "draw" and event.seat == seat and as_penalty in (None, penalty(event)):
                count += event.count if event.count is not None else len(event.cards)
                shown += event.cards
        return count, shown

    def drew(seat: int, count: int, cards: list[Card], tail: str = "") -> str:
        what = _card_list(cards) if cards and len(cards) == count else _plural(count, "card")
        return f"{who(seat)} drew {what}{tail}"

    said_draws: set[tuple[int, bool]] = set()  # (seat, penalty) whose draws have their sentence
    described = any(e.kind not in _CONSEQUENCES for e in events)
    if action is not None:
        seat, verb = action.seat, action.verb
        if verb == "play" and action.card is not None:
            card = action.card
            own = any(e.seat == seat and card in e.cards and e.kind not in _CONSEQUENCES for e in events)
            if not own:
                color = f" and chose {_color_word(action.color)}" if action.color else ""
                say(f"{who(seat)} played {card.name}{color}")
        elif verb == "draw" and not described:
            count, cards = drawn(seat, None)
            punished = any(e.kind == "draw" and e.seat == seat and penalty(e) for e in events)
            say(
                drew(seat, count, cards, " as a penalty" if punished else "")
                if count
                else f"{who(seat)} drew"
            )
            said_draws |= {(seat, False), (seat, True)}
        elif verb == "pass":
            say(f"{who(seat)} kept the drawn card")
        elif verb == "color" and action.color is not None:
            say(f"{who(seat)} chose {_color_word(action.color)}")
        elif verb == "accept" and not described:
            count, cards = drawn(seat, None)
            tail = f" and drew {_card_list(cards) if cards else _plural(count, 'card')}" if count else ""
            say(f"{who(seat)} accepted the {view.top_card.name}{tail}")
            said_draws |= {(seat, False), (seat, True)}
        elif not described:
            words = str(action).partition(": ")[2].split()
            rest = [
                (who(int(w)) if w.isdigit() else _COLOR_NAMES.get(w, w.replace("_", " "))) for w in words[1:]
            ]
            say(" ".join([who(seat), words[0].replace("_", " ").replace("-", " "), *rest]))

    for event in events:
        kind, subject = event.kind, event.seat
        if kind == "draw" and subject is not None:
            group = (subject, penalty(event))
            if group in said_draws:
                continue
            said_draws.add(group)
            if not group[1] and any(e.kind == "draw-until-playable" and e.seat == subject for e in events):
                continue  # said by the draw-until-playable event
            count, cards = drawn(subject, group[1])
            say(drew(subject, count, cards, " as a penalty" if group[1] else ""))
        elif kind == "draw-until-playable" and subject is not None:
            count, cards = drawn(subject, False)
            total = event.count if event.count is not None else count
            say(drew(subject, total, cards if len(cards) == total else [], " until one could be played"))
        elif kind == "reshuffle":
            say("the discard pile was shuffled into a new draw pile")
        elif kind == "deal":
            number = event.value("round")
            starter = f"; the first card is {event.cards[0].name}" if event.cards else ""
            say(f"{who(subject)} dealt round {number}{starter}")
        elif kind == "starter-returned" and len(event.cards) >= 2:
            say(f"{event.cards[0].name} may not start: it went back and {event.cards[1].name} turned up")
        elif kind == "round-end":
            points = event.value("points")
            reason = event.value("reason", "")
            number = len(view.rounds)
            if subject is None:
                say(f"round {number} ended ({str(reason).replace('-', ' ')}): nobody won it")
            else:
                scored = points[subject] if isinstance(points, tuple) and subject < len(points) else None
                tail = f" and scored {scored} points" if isinstance(scored, int) and scored > 0 else ""
                verb = "went out and won" if reason == "out" else "won"
                say(f"{who(subject)} {verb} round {number}{tail}")
        elif kind == "uno":
            late = " late, before being caught" if event.value("late") else ""
            say(f"{who(subject)} called UNO{late}")
        elif kind == "caught":
            say(f"{who(event.target)} caught {who(subject)} without UNO")
        elif kind == "challenge":
            played = who(event.target)
            verdict = "it was a bluff" if event.value("guilty") else "it was played fairly"
            owner = "your" if event.target == me else f"{played}'s"
            say(f"{who(subject)} challenged {owner} {view.top_card.name}: {verdict}")
        elif kind == "stack" and subject is not None:
            thing = f" {event.cards[0].name}" if event.cards else ""
            size = f" {event.count} cards" if event.count is not None else ""
            say(f"{who(subject)} stacked{thing}: {who(event.target)} must draw{size} or stack")
        elif kind == "jump-in" and subject is not None:
            thing = f" with {event.cards[0].name}" if event.cards else ""
            say(f"{who(subject)} jumped in{thing}")
        elif kind == "hands-moved":
            if event.target is not None:
                say(f"{who(subject)} and {who(event.target)} traded hands")
            else:
                say("every hand passed on to the next player")
        elif kind == "swap-hands":
            say(f"{who(subject)} swapped hands with {who(event.target)}")
        elif kind == "shuffle-hands":
            say(f"{who(subject)} played Shuffle Hands: every hand was gathered, shuffled and dealt out again")
        elif kind == "eliminated":
            say(f"{who(subject)} reached {event.value('points')} points and left the game")
        elif kind == "custom-wild":
            thing = event.cards[0].name if event.cards else "a customizable wild"
            effect = str(event.value("effect", "") or "").replace("-", " ")
            say(f"{who(subject)} played {thing}" + (f": {effect}" if effect and effect != "none" else ""))
        elif kind == "discard":
            say(f"{who(subject)} put {_plural(event.count or len(event.cards), 'card')} under the top card")
        elif kind == "table-rule":
            say(f"a table rule now binds {who(subject)}")
        elif kind == "crow":
            say(f"{who(subject)} crowed like a rooster")
        elif kind == "joke":
            laughed = "somebody laughed" if event.value("laughed") else "nobody laughed"
            say(f"{who(subject)} told a joke and {laughed}")
        elif kind == "house-rule":
            say(f"{who(subject)} played a blank card: the table applies the house rule written on it")
        elif kind == "illegal-play":
            thing = event.cards[0].name if event.cards else "a card"
            say(f"{who(subject)} played {thing}, which does not match: anyone else may catch it")
        elif kind == "caught-play":
            thing = event.cards[0].name if event.cards else "the card"
            say(f"{who(event.target)} caught {who(subject)}'s illegal {thing}: it goes back")
        elif kind == "uncaught":
            thing = event.cards[0].name if event.cards else "the last card"
            say(f"nobody caught {who(subject)}'s illegal {thing}: it stands")
        elif kind == "coaching":
            say(f"{who(event.target)} reported {who(subject)} for coaching")
        else:  # a plugin's own event: its kind and detail in words, seats named, codes taken out
            detail = _SEAT.sub(lambda m: who(int(m.group(1))), event.detail)
            detail = _CODES.sub("", detail).strip(" :;,")
            head = f"{who(subject)} " if subject is not None else ""
            say(f"{head}{kind.replace('-', ' ')}" + (f": {detail}" if detail else ""))
    return lines


def event_data(event: Event) -> dict[str, Any]:
    """An event as structured data: the fields of the view's JSON (``kind``, ``seat``,
    ``cards``, ``rule``, ``detail``, ``private``, ``target``, ``count``, ``color``,
    ``data``); the words are the view's ``feed`` (:func:`feed_sentences`).

    ``event`` must come from a view (``view.events``): the view has already
    removed the cards other seats drew privately; this adds nothing to it."""
    return {
        "kind": event.kind,
        "seat": event.seat,
        "cards": list(map(_text, event.cards)),
        "rule": event.rule,
        "detail": event.detail,
        "private": event.private,
        "target": event.target,
        "count": event.count,
        "color": _color(event.color),
        "data": {name: encode_value(value) for name, value in event.data},
    }


def _round_data(result: RoundResult) -> dict[str, Any]:
    # what the results panel shows of every round (the hands only of the last: see view_data)
    return {
        "number": result.number,
        "winner": result.winner,
        "reason": result.reason,
        "points": list(result.points),
    }


def _phase_doc(view: SeatView, name: str) -> str:
    """What the phase asks, as its plugin declares it, without rule codes (for phases the page
    has no words of its own for)."""
    spec = view.rules.phases.get(name)
    return "" if spec is None else _CODES.sub("", spec.doc).strip(" :;,")


def view_data(view: SeatView, names: Sequence[str], seat: int | None) -> dict[str, Any]:
    """The JSON data of ``view`` for the page: ``seat``'s view, or with ``seat``
    ``None`` the public view (a spectator's)."""
    phase = view.phase
    shown: list[Card] = [*view.hand, *view.discard_pile[-DISCARD_SHOWN:]]
    for hand in view.visible_hands.values():
        shown += hand
    shown += (a.card for a in view.legal_actions if a.card is not None)
    if phase.card is not None:
        shown.append(phase.card)
    for backs in view.backs.values():  # two-faced cards: the backs this seat sees
        shown += backs
    if view.draw_pile_back is not None:
        shown.append(view.draw_pile_back)
    # The hands a round ended with go only with the action that ended it (and with a finished
    # game): the page keeps them for its round-end panel, later messages do not repeat them.
    last = view.rounds[-1] if view.rounds else None
    if last is not None and not (view.is_over or any(e.kind == "round-end" for e in view.events)):
        last = None
    if last is not None:
        for hand in last.hands:
            shown += hand
    return {
        "seat": seat,
        "cards": dict(map(_card_data, shown)),
        "hand": list(map(_text, view.hand)),
        "hand_sizes": list(view.hand_sizes),
        "visible_hands": {
            str(shown): list(map(_text, hand)) for shown, hand in view.visible_hands.items() if shown != seat
        },
        "discard_top": list(map(_text, view.discard_pile[-DISCARD_SHOWN:])),
        "discard_size": len(view.discard_pile),
        "draw_pile_size": view.draw_pile_size,
        "top_card": _text(view.top_card),
        "color": _color(view.color),
        "color_name": _color_word(view.color) if view.color is not None else None,
        "palette": _palette(view.rules.colors),
        "two_faced": view.rules.two_faced,
        "side": view.side,
        "backs": {str(s): list(map(_text, backs)) for s, backs in sorted(view.backs.items())},
        "draw_pile_back": None if view.draw_pile_back is None else _text(view.draw_pile_back),
        "direction": view.direction,
        "current_player": view.current_player,
        "dealer": view.dealer,
        "phase": {
            "name": phase.name,
            "count": phase.count,
            "card": None if phase.card is None else str(phase.card),
            "seat": phase.seat,
            "color": _color(phase.color),
            "doc": _phase_doc(view, phase.name),
        },
        "scores": list(view.scores),
        "uno_exposed": list(view.uno_exposed),
        "left": list(view.left),
        # every round's points for the scores table, without the hands (each round's made a
        # message grow by a round's worth of cards for the rest of the game)
        "rounds": [_round_data(r) for r in view.rounds],
        "last_round_hands": None if last is None else [list(map(_text, hand)) for hand in last.hands],
        "legal_actions": list(map(_action_entry, view.legal_actions)),
        "last_action": None if view.last_action is None else str(view.last_action),
        "events": [event_data(e) for e in view.events],
        "feed": feed_sentences(view, names, seat),
        "is_over": view.is_over,
    }

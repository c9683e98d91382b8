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

__all__ = ["action_data", "event_data", "event_text", "view_data"]

DISCARD_SHOWN = 6
"""How many discard-pile cards (the top ones) a client is shown."""

_SEAT = re.compile(r"\bseat (\d{1,2})\b")

_COLOR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


def _color(color: Color | None) -> str | None:
    return None if color is None else str(color)


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
    }


def event_text(event: Event, names: Sequence[str]) -> str:
    """An event in plain words, with "seat N" replaced by the players' names:
    ``str(event)``, except for draws, which read as a sentence ("Ann drew R5",
    "Bob drew 2 cards (penalty)": the cards only where the view shows them)."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    text = str(event)
    if event.kind == "draw" and event.seat is not None:
        count = len(event.cards) if event.count is None else event.count
        what = " ".join(map(str, event.cards)) if event.cards else f"{count} card{'' if count == 1 else 's'}"
        why = "" if event.detail in ("", "turn") else f" ({event.detail})"
        text = f"seat {event.seat} drew {what}{why}" + (f" ({event.rule})" if event.rule else "")
    return _SEAT.sub(name, text)


def event_data(event: Event, names: Sequence[str]) -> dict[str, Any]:
    """An event as structured data: the fields of the view's JSON (``kind``, ``seat``,
    ``cards``, ``rule``, ``detail``, ``private``, ``target``, ``count``, ``color``,
    ``data``) and its ``text`` in plain words (:func:`event_text`).

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
        "text": event_text(event, names),
    }


def _round_data(result: RoundResult) -> dict[str, Any]:
    # what the results panel shows of every round (the hands only of the last: see view_data)
    return {
        "number": result.number,
        "winner": result.winner,
        "reason": result.reason,
        "points": list(result.points),
    }


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
        "color_name": _COLOR_NAMES.get(str(view.color)) if view.color is not None else None,
        "direction": view.direction,
        "current_player": view.current_player,
        "dealer": view.dealer,
        "phase": {
            "name": phase.name,
            "count": phase.count,
            "card": None if phase.card is None else str(phase.card),
            "seat": phase.seat,
            "color": _color(phase.color),
        },
        "scores": list(view.scores),
        "uno_exposed": list(view.uno_exposed),
        "left": list(view.left),
        # every round's points for the scores table, without the hands (each round's made a
        # message grow by a round's worth of cards for the rest of the game)
        "rounds": [_round_data(r) for r in view.rounds],
        "last_round_hands": None if last is None else [list(map(_text, hand)) for hand in last.hands],
        "legal_actions": [action_data(a) for a in view.legal_actions],
        "last_action": None if view.last_action is None else str(view.last_action),
        "events": [event_data(e, names) for e in view.events],
        "is_over": view.is_over,
    }

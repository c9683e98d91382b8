"""What a client is sent: a seat's view (or the public view) as plain JSON data.

Everything here is computed from a :class:`~unorules.SeatView` only, never
from the state, so a client can never be sent more than the library says its
seat may know. Cards and actions travel as their canonical notation.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from unorules.actions import Action
from unorules.cards import Card, Color
from unorules.codec import encode_value
from unorules.narrate import Narrator
from unorules.state import Event, RoundResult, SeatView

__all__ = ["action_data", "event_data", "feed_sentences", "view_data"]

DISCARD_SHOWN = 6
"""How many discard-pile cards (the top ones) a client is shown."""


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


# the legal actions of every view are the library's interned actions: each one's data is made once
# (bounded: actions of seats beyond the interned ones are rare)
_action_entry = functools.lru_cache(maxsize=1 << 16)(action_data)


def feed_sentences(view: SeatView, names: Sequence[str], me: int | None) -> list[str]:
    """What the last action did, for the feed: one sentence in plain words per thing that happened,
    from the action and the structured events of ``view`` (``me``'s view; ``None``: a spectator's),
    with the players' names ("you" for ``me``), no rule codes and nothing said twice.

    The words are the library's (:mod:`unorules.narrate`: each event kind's own text, so a
    plugin's events read as its author wrote them), each sentence capitalised: the action's own
    sentence is left out when an event says it (a draw's draw event, a catch's "caught", a
    jump-in, a stack); a seat's draws of one action make one sentence; the cards a seat drew
    are named only in that seat's own view (the others' views do not hold them)."""
    narrator = Narrator(view.rules, me, names)
    return [sentence.render(capital=True) for sentence in narrator.view(view)]


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
        "legal_actions": list(map(_action_entry, view.legal_actions)),
        "last_action": None if view.last_action is None else str(view.last_action),
        "events": [event_data(e) for e in view.events],
        "feed": feed_sentences(view, names, seat),
        "is_over": view.is_over,
    }

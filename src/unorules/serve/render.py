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
from unorules.display import display_of
from unorules.narrate import Narrator
from unorules.ruleset import Ruleset
from unorules.state import Event, RoundResult, SeatView

__all__ = ["action_data", "event_data", "feed_sentences", "looks_data", "view_data"]

DISCARD_SHOWN = 6
"""How many discard-pile cards (the top ones) a client is shown."""


_COLOR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}

_CODES = re.compile(r"\(?\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b(?:,\s*)?\)?")
"""Rule ids (with their parentheses) taken out of a phase's declared description."""

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


def _cards_data(view: SeatView, shown: Sequence[Card]) -> dict[str, dict[str, Any]]:
    """The colour, kind and name (the rule set's: :meth:`~unorules.display.Display.card_name`)
    of each card of ``shown``, by its notation; the kinds' looks are sent once, with the welcome
    (:func:`looks_data`)."""
    # cards are interned and immutable, a rule set's names fixed: each card's data is made once
    # per rule set
    made: dict[Card, dict[str, Any]] = view.rules.cached(("unorules.serve.render", "cards"), lambda _: {})
    out = {}
    for card in shown:
        data = made.get(card)
        if data is None:
            name = display_of(view.rules).card_name(card)
            data = made[card] = {"color": _color(card.color), "kind": card.kind, "name": name}
        out[_text(card)] = data
    return out


def _looks(rules: Ruleset) -> dict[str, dict[str, Any]]:
    display = display_of(rules)
    kinds = {face.kind: face for card in rules.deck for face in (card.faces or (card,))}
    out = {}
    for kind, face in sorted(kinds.items()):
        look = display.look(face)
        out[kind] = {
            "symbol": look.symbol,
            "label": look.label,
            "icon": look.icon,
            "paint": look.paint or None,
            "ink": look.ink or None,
        }
    return out


def looks_data(rules: Ruleset) -> dict[str, dict[str, Any]]:
    """How each kind of card of ``rules``' deck (every face of a two-faced card) looks, by kind:
    ``symbol``, ``label`` (the word on its face), ``icon``, ``paint`` and ``ink`` (``null`` but
    for a kind of no colour its rule set paints): :class:`~unorules.display.CardLook`. A page is
    sent them once, with the welcome; made once per rule set."""
    return rules.cached(("unorules.serve.render", "looks"), _looks)


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


def feed_sentences(view: SeatView, names: Sequence[str], me: int | None) -> list[str]:
    """What the last action did, for the feed: one sentence in plain words per thing that happened,
    from the action and the structured events of ``view`` (``me``'s view; ``None``: a spectator's),
    with the players' names ("you" for ``me``), no rule codes and nothing said twice.

    The words are the library's (:mod:`unorules.narrate`: each event kind's own text, so a
    plugin's events read as its author wrote them, its cards by the names the rule set shows
    them with, :meth:`~unorules.narrate.Narrator.words`), each sentence capitalised: the action's own
    sentence is left out when an event says it (a draw's draw event, a catch's "caught", a
    jump-in, a stack); a seat's draws of one action make one sentence; the cards a seat drew
    are named only in that seat's own view (the others' views do not hold them)."""
    narrator = Narrator(view.rules, me, names)
    return [narrator.words(sentence, capital=True) for sentence in narrator.view(view)]


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
    """What a seat in the phase is doing, in the rule set's words for people
    (:meth:`~unorules.display.Display.phase_words`), else as its plugin declares it, without
    rule codes (for phases the page has no words of its own for)."""
    words = display_of(view.rules).phase_words(name)
    if words is not None:
        return words
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
        "cards": _cards_data(view, shown),
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
        "side_name": display_of(view.rules).side_name(view.side) if view.rules.two_faced else None,
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

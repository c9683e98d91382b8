"""The frozen values a game is made of, below the state: phases, events, the results of
rounds and games, and what an emptied hand means. :mod:`unorules.state` re-exports
them; ``unorules`` exports the public ones."""

from __future__ import annotations

from typing import Any

import attrs

from unorules._mypyc import equal
from unorules.cards import Card, Color

__all__ = ["PLAY", "Event", "GoingOut", "Outcome", "Phase", "RoundResult", "Value", "draw_event", "hidden"]

Value = Any
"""A JSON-able value kept in ``Phase.data``, ``Event.data`` or ``GameState.extras``:
``None``, ``bool``, ``int``, ``str``, :class:`Card`, :class:`Color`,
:class:`Action` or a tuple of these."""


@attrs.frozen
class Phase:
    """What the seat to move is being asked to do.

    ``name`` is owned by the plugin that declares it (``"play"``, the
    ordinary turn, is classic's). The other fields carry the decision's data:
    ``count`` cards to draw, a ``card`` (the one just drawn, the Wild Draw
    Four played), the ``seat`` that caused it, a ``color`` (the colour before
    a Wild Draw Four) and free ``data`` for plugins. A ``secret`` phase's card
    is known only to the seat to move (a card just drawn): views hide it from
    the others.
    """

    name: str
    """The phase's name, declared by a plugin (``Plugin.phases``)."""
    count: int = 0
    """How many cards the seat to move must draw (or discard, or a plugin's count)."""
    card: Card | None = None
    """The card the decision is about (the card just drawn, the Wild Draw Four played)."""
    seat: int | None = None
    """The seat that caused the decision (the Wild Draw Four's player)."""
    color: Color | None = None
    """A colour the decision needs (the colour before a Wild Draw Four)."""
    data: tuple[Value, ...] = ()
    """Plugin-specific values (see :data:`Value`)."""
    secret: bool = False
    """Whether ``card`` is known only to the seat to move."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_unpickle_phase, attrs.astuple(self, recurse=False))


PLAY = Phase("play")
"""The ordinary turn: play a matching card or draw (one shared object)."""


def _unpickle_phase(*fields: Any) -> Phase:
    """A pickled phase; the ordinary turn comes back as the shared :data:`PLAY`."""
    phase = Phase(*fields)
    return PLAY if equal(phase, PLAY) else phase  # equal: see unorules._mypyc


@attrs.frozen
class Event:
    """Something that happened during the last action, for logs and user interfaces.

    Typed fields say what happened, so a client can animate it without
    reading text; each event kind's meaning of them is declared in its
    :class:`~unorules.EventSpec` (``ruleset.events``).
    """

    kind: str
    """The event's kind, declared by a plugin (``Plugin.events``) or the core."""
    seat: int | None = None
    """The seat the event is about (who drew, who was caught, who stacked)."""
    cards: tuple[Card, ...] = ()
    """The cards involved; private to ``seat`` when :attr:`private` is true."""
    rule: str | None = None
    """The id of the rule that made it happen (``"R-UNO-CATCH"``)."""
    detail: str = ""
    """A short free text for logs (user interfaces render events from their fields)."""
    private: bool = False
    """Whether :attr:`cards` are known only to :attr:`seat` (cards drawn), or to
    nobody when :attr:`seat` is ``None`` (cards taken from the draw pile unseen);
    views show the other seats the event without them (the ``count`` stays)."""
    target: int | None = None
    """A second seat (who caught, who traded hands with whom)."""
    count: int | None = None
    """A number of cards (cards drawn, a stack's size)."""
    color: Color | None = None
    """A colour (the colour named)."""
    data: tuple[tuple[str, Value], ...] = ()
    """Plugin-specific values as ``(name, value)`` pairs; JSON keeps their order."""

    def value(self, name: str, default: Value = None) -> Value:
        """The plugin-specific value ``name`` of :attr:`data`, or ``default``."""
        for k, v in self.data:
            if k == name:
                return v
        return default

    def __str__(self) -> str:
        who = "" if self.seat is None else f"seat {self.seat} "
        cards = f" {' '.join(map(str, self.cards))}" if self.cards else ""
        rule = f" ({self.rule})" if self.rule else ""
        detail = f": {self.detail}" if self.detail else ""
        return f"{who}{self.kind}{cards}{detail}{rule}"


@attrs.frozen
class RoundResult:
    """How a round ended."""

    number: int
    """The round's number, from 1."""
    winner: int | None
    """The seat that won it, or ``None`` when nobody did."""
    reason: str
    """Why it ended: ``"out"``, ``"blocked"`` or a plugin's reason."""
    points: tuple[int, ...]
    """The points each seat was given for it."""
    hands: tuple[tuple[Card, ...], ...]
    """The hands left when it ended."""


@attrs.frozen
class Outcome:
    """How the game ended."""

    winners: tuple[int, ...]
    """The winning seats (one, or a team)."""
    reason: str
    """Why it ended: ``"target-score"``, ``"low-score"``, ``"last-standing"`` or a plugin's reason."""

    @property
    def winner(self) -> int | None:
        """The winning seat (the lowest seat of a winning team), or ``None``."""
        return min(self.winners) if self.winners else None


@attrs.frozen
class GoingOut:
    """What an emptied hand means, as the ``going_out`` hook answers (and what a
    blocked round means, as ``blocked_round`` answers)."""

    ends: bool = True
    """Whether the round ends now (R-OUT)."""
    winner: int | None = None
    """The seat that wins the round when it ends (``None``: nobody wins it)."""


_ONE_CARD_DRAWS: dict[tuple[int, Card, str], Event] = {}
_HIDDEN_DRAWS: dict[int, tuple[Event, Event]] = {}  # id of a shared draw event: it and its hidden form


def draw_event(seat: int, cards: tuple[Card, ...], reason: str) -> Event:
    """The ``draw`` event of ``seat`` drawing ``cards`` for ``reason`` (``"turn"``,
    ``"penalty"``, ...), as the draft's :meth:`~unorules.Draft.draw` records it.
    One-card draws share their events (events are frozen values)."""
    if len(cards) == 1:
        key = (seat, cards[0], reason)
        event = _ONE_CARD_DRAWS.get(key)
        if event is None:
            event = Event("draw", seat, cards, None, reason, True, count=1, data=(("reason", reason),))
            if len(_ONE_CARD_DRAWS) < 10_000:
                _ONE_CARD_DRAWS[key] = event
        return event
    return Event("draw", seat, cards, None, reason, True, count=len(cards), data=(("reason", reason),))


def hidden(e: Event) -> Event:
    """``e`` without its private cards, as other seats see it. The hidden form
    of a shared one-card draw event (see :func:`draw_event`) is kept beside
    it: every other seat's view of most draws needs one."""
    found = _HIDDEN_DRAWS.get(id(e))
    if found is not None and found[0] is e:
        return found[1]
    shown = Event(e.kind, e.seat, (), e.rule, e.detail, e.private, e.target, e.count, e.color, e.data)
    seat = e.seat
    if seat is not None and len(e.cards) == 1 and _ONE_CARD_DRAWS.get((seat, e.cards[0], e.detail)) is e:
        _HIDDEN_DRAWS[id(e)] = (e, shown)  # the pair keeps e alive, so its id stays its own
    return shown

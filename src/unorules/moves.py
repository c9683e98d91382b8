"""The events the draft's mechanics record as cards move, and the bookkeeping around them.

Every mechanic of :class:`~unorules.Draft` that moves cards says so in an event,
so that a seat can follow what it may know of the cards without knowing the rule
that moved them (:mod:`unorules.knowledge` reads them): a ``move`` event for a
movement between two :data:`PLACES` (:func:`move_event`), whole hands changing
seats, and the UNO calls, trades of hands and passes of every hand with their
events. The events are frozen values: the commonest are built once and shared.
:mod:`unorules.draft` re-exports the public names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from unorules.actions import Action
from unorules.cards import Card
from unorules.state import Event

if TYPE_CHECKING:
    from unorules.state import GameState

__all__ = ["DISCARD", "DRAW", "HAND", "PLACES", "TAKEN", "UNDER", "move_event"]

HAND = "hand"
"""A ``move`` event's place: the hand of the event's ``seat``."""
DRAW = "draw"
"""A ``move`` event's place: the draw pile (cards put into it are shuffled in)."""
DISCARD = "discard"
"""A ``move`` event's place: the top of the discard pile."""
UNDER = "under"
"""A ``move`` event's place: under the top card of the discard pile (a destination only)."""
TAKEN = "taken"
"""A ``move`` event's place: cards a rule took out of a pile or a hand, to put
them somewhere else during the same action (see :meth:`Draft.take_from_draw_pile`)."""
PLACES = (HAND, DRAW, DISCARD, UNDER, TAKEN)
"""Every place a ``move`` event names (its ``data`` values ``"from"`` and ``"to"``)."""

_PLAYED: dict[tuple[int, Card], Event] = {}


def _uno_event(seat: int, late: bool) -> Event:
    """The ``uno`` event of ``seat``'s call (R-UNO-CALL), or late call (R-UNO-SELF)."""
    if late:
        event = _LATE_CALLS[seat] = Event("uno", seat, (), "R-UNO-SELF", "late call", data=(("late", True),))
    else:
        event = _CALLS[seat] = Event("uno", seat, (), "R-UNO-CALL", data=(("late", False),))
    return event


_CALLS: dict[int, Event] = {}
_LATE_CALLS: dict[int, Event] = {}
_TRADES: dict[tuple[int, int, str], Event] = {}
"""The ``hands-moved`` event of each trade, by seats and rule (events are frozen values)."""
_PASSES: dict[tuple[Any, ...], tuple[tuple[tuple[int, int], ...], Event]] = {}
"""The moves and the event of each pass of every hand, by seat, direction, seats, seats
that left and rule."""


def _moved(
    seat: int, moves: tuple[tuple[int, int], ...], detail: str, rule: str, target: int | None = None
) -> Event:
    """The ``hands-moved`` event of ``moves`` (from seat, to seat), sorted."""
    return Event("hands-moved", seat, (), rule, detail, target=target, data=(("moves", moves),))


def _trade_event(seat: int, target: int, rule: str) -> Event:
    moves = tuple(sorted({seat: target, target: seat}.items()))
    event = _moved(seat, moves, f"seat {seat} and seat {target} traded hands", rule, target)
    if len(_TRADES) < 10_000:
        _TRADES[seat, target, rule] = event
    return event


def move_event(
    seat: int | None, cards: tuple[Card, ...], source: str, dest: str, private: bool = False
) -> Event:
    """The ``move`` event of ``cards`` going from the place ``source`` to the place
    ``dest`` (see :data:`PLACES`; :data:`HAND` is the hand of ``seat``).

    ``private`` cards are seen by ``seat`` alone, or by nobody when ``seat`` is
    ``None``: views show the other seats the event without them (its ``count``
    stays). The draft's mechanics make these events; a plugin needs one only
    if it moves cards some other way. A card played from a hand onto the
    discard pile, the commonest move, shares its event (events are frozen
    values)."""
    if source == HAND and dest == DISCARD and len(cards) == 1 and not private and seat is not None:
        key = (seat, cards[0])
        event = _PLAYED.get(key)
        if event is None:
            event = _move(seat, cards, source, dest, private)
            if len(_PLAYED) < 10_000:
                _PLAYED[key] = event
        return event
    return _move(seat, cards, source, dest, private)


def _move(seat: int | None, cards: tuple[Card, ...], source: str, dest: str, private: bool) -> Event:
    return Event(
        "move",
        seat,
        cards,
        None,
        f"{source} to {dest}",
        private,
        count=len(cards),
        data=(("from", source), ("to", dest)),
    )


def _hands_event(pairs: tuple[tuple[int, int], ...]) -> Event:
    """The ``move`` event of whole hands changing seats at once."""
    return Event(
        "move",
        None,
        (),
        None,
        "hands: " + ", ".join(f"{a} to {b}" for a, b in pairs),
        count=len(pairs),
        data=(("hands", pairs),),
    )


def _minus(cards: tuple[Card, ...], other: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``cards`` that ``other`` does not hold (as multisets), in order."""
    rest = Counter(other)
    left: list[Card] = []
    for card in cards:
        if rest[card] > 0:
            rest[card] -= 1
        else:
            left.append(card)
    return tuple(left)


def _hand_events(
    old: tuple[tuple[Card, ...], ...],
    new: Sequence[tuple[Card, ...]],
    changed: Sequence[int],
    pairs: Sequence[tuple[int, int]] | None,
) -> tuple[Event, ...]:
    """The ``move`` events of the hands of the ``changed`` seats going from
    ``old`` to ``new``: whole hands that changed seats (``pairs`` of (from,
    to), found by comparing the hands when ``None``), then the cards each other
    seat gave (into :data:`TAKEN`, seen by that seat) and received (from it)."""
    if pairs is None:
        found: list[tuple[int, int]] = []
        used: set[int] = set()
        for seat in changed:
            for giver in changed:
                if giver != seat and giver not in used and new[seat] == old[giver]:
                    found.append((giver, seat))
                    used.add(giver)
                    break
        pairs = found
    sources = {a for a, _ in pairs}
    dests = {b for _, b in pairs}
    events: list[Event] = []
    for seat in changed:
        if seat not in sources:
            leaving = old[seat] if seat in dests else _minus(old[seat], new[seat])
            if leaving:
                events.append(move_event(seat, leaving, HAND, TAKEN, private=True))
    if pairs:
        events.append(_hands_event(tuple(sorted(pairs))))
    for seat in changed:
        if seat not in dests:
            coming = new[seat] if seat in sources else _minus(new[seat], old[seat])
            if coming:
                events.append(move_event(seat, coming, TAKEN, HAND, private=True))
    return tuple(events)


def _played_down_to_one(
    old: tuple[tuple[Card, ...], ...], new: list[tuple[Card, ...]], changed: list[int], seat: int
) -> bool:
    """Whether ``seat``'s hand went from several cards to one by losing cards
    that no other changed hand received (a discard, not a trade)."""
    before, after = old[seat], new[seat]
    if len(after) != 1 or len(before) < 2:
        return False
    lost = Counter(before)
    lost.subtract(after)
    if any(n < 0 for n in lost.values()):
        return False  # a card came into the hand: given or traded, not played down
    for other in changed:
        if other != seat:
            gained = Counter(new[other])
            gained.subtract(old[other])
            if any(n > 0 and lost[card] > 0 for card, n in gained.items()):
                return False  # its cards went to another hand: a trade or a gift
    return True


_TABLE_FIELDS = (
    "hands",
    "draw_pile",
    "discard_pile",
    "color",
    "direction",
    "current_player",
    "phase",
    "uno_declared",
    "uno_exposed",
    "stalled",
    "rng",
    "extras",
    "side",
)


def _restore_events(f: dict[str, Any], fields: Mapping[str, Any]) -> tuple[Event, ...]:
    """The ``move`` events of :meth:`Draft.restore` putting back ``fields``."""
    gone: list[Event] = []
    back: list[Event] = []
    if "hands" in fields:
        old_hands: tuple[tuple[Card, ...], ...] = f["hands"]
        for seat, (before, after) in enumerate(zip(old_hands, fields["hands"], strict=True)):
            if before != after:
                leaving = _minus(before, tuple(after))
                if leaving:
                    gone.append(move_event(seat, leaving, HAND, TAKEN, private=True))
                coming = _minus(tuple(after), before)
                if coming:
                    back.append(move_event(seat, coming, TAKEN, HAND, private=True))
    for name, place, private in (("draw_pile", DRAW, True), ("discard_pile", DISCARD, False)):
        if name in fields and fields[name] != f[name]:
            leaving = _minus(f[name], tuple(fields[name]))
            if leaving:
                gone.append(move_event(None, leaving, place, TAKEN, private))
            coming = _minus(tuple(fields[name]), f[name])
            if coming:
                back.append(move_event(None, coming, TAKEN, place, private))
    return (*gone, *back)


def _set_hands(
    f: dict[str, Any],
    hands: Mapping[int, Iterable[Card]],
    pairs: Sequence[tuple[int, int]] | None,
    record: bool = True,
) -> None:
    """The mechanic behind :meth:`Draft.set_hands <unorules.Draft.set_hands>` and
    :meth:`~unorules.Draft.move_hands`, on a draft's fields ``f``: the hands change, their
    ``move`` events are recorded (unless ``record`` is false) and the UNO books follow
    the cards."""
    old: tuple[tuple[Card, ...], ...] = f["hands"]
    new = list(old)
    changed: list[int] = []
    for seat, cards in hands.items():
        if not 0 <= seat < len(old):
            raise ValueError(f"set_hands: no seat {seat} in a {len(old)}-seat game")
        hand = tuple(cards)
        if hand != old[seat]:
            new[seat] = hand
            changed.append(seat)
    if not changed:
        return
    f["hands"] = tuple(new)
    if record:  # else the caller records the movement itself
        f["events"] += _hand_events(old, new, changed, pairs)
    declared: tuple[int, ...] = f["uno_declared"]
    exposed: tuple[int, ...] = f["uno_exposed"]
    action: Action | None = f["last_action"]
    actor = -1 if action is None else action.seat
    down_to_one = actor in changed and _played_down_to_one(old, new, changed, actor)
    if declared and any(s in changed for s in declared):
        f["uno_declared"] = tuple(s for s in declared if s not in changed)
    if exposed and any(s in changed for s in exposed):
        f["uno_exposed"] = tuple(s for s in exposed if s not in changed)
    if down_to_one and actor not in f["left"]:
        # A call the seat made before this action counts, though the play
        # that began the action took it off the books (it went to the pile
        # with that card): it was made in time for the card that left one.
        previous: GameState | None = f["_legal"]
        called = actor in declared or (previous is not None and actor in previous.uno_declared)
        if not called and actor not in f["uno_exposed"]:
            f["uno_exposed"] = f["uno_exposed"] + (actor,)

"""The event kinds the core's mechanics emit, with the words they read as: every rule
set has them (:data:`CORE_EVENTS`; :mod:`unorules.ruleset` re-exports it)."""

from __future__ import annotations

from unorules.plugin import EventSpec
from unorules.values import Event

__all__ = ["CORE_EVENTS"]


def _draw_text(event: Event) -> str:
    """How a draw reads: the cards (or their count, for the other seats), and why."""
    reason = event.value("reason", "turn")
    if reason == "penalty":
        return "{seat} drew {cards} as a penalty"
    return "{seat} drew {cards}"


_PLACE_WORDS = {
    "hand": "{seat:'s} hand",
    "draw": "the draw pile",
    "discard": "the discard pile",
    "under": "the discard pile, under its top card",
    "taken": "the table",
}
"""How the places of a ``move`` event read (its ``data["from"]`` and ``data["to"]``)."""


def _move_text(event: Event) -> str:
    """How a card movement reads: the cards (or their count, for a seat that may not see
    them) and the places; whole hands changing seats, as their number. The narrator
    leaves these events out of what an action did (:data:`unorules.narrate.BOOKKEEPING`):
    the action and the other events say it."""
    if event.value("hands") is not None:
        return "{count:hand} changed seats"
    source = _PLACE_WORDS.get(str(event.value("from")), "somewhere")
    dest = _PLACE_WORDS.get(str(event.value("to")), "somewhere")
    if source == dest:
        return "{cards} moved within " + source
    return "{cards} went from " + source + " to " + dest


def _show_text(event: Event) -> str:
    """How a hand shown to a seat reads (its cards for that seat, their count for the others)."""
    if event.seat is None:
        return "{target:'s} hand was shown to everyone: {cards}"
    return "{seat} {seat:was} shown {target:'s} hand: {cards}"


def _round_end_text(event: Event) -> str:
    """How the end of a round reads: who won it, how, and the points they scored."""
    points = event.value("points")
    seat = event.seat
    scored = ""
    if seat is not None and isinstance(points, tuple) and 0 <= seat < len(points):
        won = points[seat]
        if isinstance(won, int) and not isinstance(won, bool) and won > 0:
            scored = f", scoring {won} point{'' if won == 1 else 's'}"
    reason = event.value("reason")
    if seat is None:
        return "the round ended without a winner"
    if reason == "out":
        return "{seat} went out and won the round" + scored
    if reason == "blocked":
        return "nobody could play or draw: {seat} won the blocked round with the fewest points" + scored
    return "{seat} won the round ({data[reason]})" + scored


def _hands_moved_text(event: Event) -> str:
    """How moved hands read (R-SEVEN-O): a 7's trade, or a 0's pass."""
    if event.target is not None:
        return "{seat} traded hands with {target}"
    return "every hand passed on to the next player in the direction of play"


def _uno_text(event: Event) -> str:
    """How an UNO call reads (R-UNO-CALL), or a late one (R-UNO-SELF)."""
    if event.value("late"):
        return "{seat} called UNO late, just before being caught"
    return "{seat} called UNO"


CORE_EVENTS: tuple[EventSpec, ...] = (
    EventSpec(
        "deal",
        "a round was dealt and its starter turned up (R-SETUP-DEAL)",
        (("seat", "the dealer"), ("cards", "the starter"), ("data.round", "the round's number")),
        "{seat} dealt round {data[round]}; the first card is {cards}",
    ),
    EventSpec(
        "draw",
        "a seat drew cards (for its turn, as a penalty, ...); private: only the seat sees the cards",
        (
            ("seat", "the seat that drew"),
            ("cards", "the cards drawn (hidden from the other seats)"),
            ("count", "how many cards were drawn (public)"),
            ("data.reason", "why: 'turn', 'penalty' or a plugin's reason"),
        ),
        _draw_text,
    ),
    EventSpec(
        "reshuffle",
        "the discard pile but its top card was shuffled into a new draw pile (R-TURN-RESHUFFLE); it "
        "happens inside a draw: the cards left in the old pile were drawn first, and the draw event "
        "that follows counts them with those drawn from the new pile",
        (("count", "how many cards the new draw pile holds"),),
        "the discard pile was shuffled into a new draw pile of {count:card}",
    ),
    EventSpec(
        "move",
        "cards went from one place to another (a card played, cards taken from a pile, hands traded, "
        "...); the core's mechanics record every movement but deals and draws with one",
        (
            ("seat", "the seat whose hand the cards left or entered (none for the piles alone)"),
            ("cards", "the cards moved (hidden from the other seats when private)"),
            ("count", "how many cards moved (public)"),
            ("private", "the cards are seen by the seat alone, or by nobody when there is no seat"),
            (
                "data.from",
                "where they came from: 'hand' (the seat's), 'draw', 'discard' or 'taken' "
                "(cards a rule took out during this action)",
            ),
            ("data.to", "where they went: 'hand', 'draw' (shuffled in), 'discard', 'under' or 'taken'"),
            (
                "data.hands",
                "instead of from and to: (from seat, to seat) pairs of whole hands that changed seats "
                "at once",
            ),
        ),
        _move_text,
    ),
    EventSpec(
        "show",
        "a hand was shown to a seat (a challenged Wild Draw Four's player shows it to the challenger)",
        (
            ("seat", "the seat shown the hand (none: every seat)"),
            ("target", "the seat whose hand it is"),
            ("cards", "the hand (private to the seat shown it)"),
            ("count", "how many cards it holds"),
        ),
        _show_text,
    ),
    EventSpec(
        "round-end",
        "a round ended and was scored",
        (
            ("seat", "the round's winner (none if nobody won it)"),
            ("data.reason", "why it ended: 'out', 'blocked', ..."),
            ("data.points", "the points each seat was given"),
        ),
        _round_end_text,
    ),
    EventSpec(
        "hands-moved",
        "hands changed seats: a 7 traded two hands, a 0 passed every hand on (R-SEVEN-O)",
        (
            ("seat", "the seat that played the card"),
            ("target", "the seat it traded with (a 7; none for a 0)"),
            ("data.moves", "(from seat, to seat) pairs of every hand that moved"),
        ),
        _hands_moved_text,
    ),
    EventSpec(
        "stack",
        "a draw card was added to a stack; the next seat must answer it (R-STACK)",
        (
            ("seat", "the seat that stacked"),
            ("cards", "the card added"),
            ("target", "the seat that must answer"),
            ("count", "the stack's size in cards"),
        ),
        "{seat} stacked {cards}: {target} must draw {count} or stack",
    ),
    EventSpec(
        "uno",
        'a seat called "UNO" (R-UNO-CALL), or called late before being caught (R-UNO-SELF)',
        (("seat", "the seat that called"), ("data.late", "true for a late call")),
        _uno_text,
    ),
    EventSpec(
        "caught",
        'a seat that did not call "UNO" was caught and draws the penalty (R-UNO-CATCH)',
        (
            ("seat", "the seat caught"),
            ("target", "the seat that caught it"),
            ("count", "the penalty cards it draws"),
        ),
        "{target} caught {seat} without UNO",
    ),
)
"""The event kinds the core's mechanics emit (every rule set has them)."""

"""The cards of UNO Show 'Em No Mercy: the kinds it adds to the notation, the two
breakdowns of its 168-card deck and the draw cards' values in a stack (R-NM-DECK,
R-NM-STACK). Importing it registers the kinds."""

from __future__ import annotations

from collections.abc import Mapping

from unorules import COLORS, Card, Position, register_kind

__all__ = ["DRAW_VALUES", "deck", "may_stack"]

register_kind("+4", "Draw Four", wild=False)
register_kind("SE", "Skip Everyone", wild=False)
register_kind("DA", "Discard All", wild=False)
register_kind("WR+4", "Wild Reverse Draw Four", wild=True)
register_kind("W+6", "Wild Draw Six", wild=True)
register_kind("W+10", "Wild Draw Ten", wild=True)
register_kind("WCR", "Wild Colour Roulette", wild=True)

DRAW_VALUES: Mapping[str, int] = {"+2": 2, "+4": 4, "WR+4": 4, "W+6": 6, "W+10": 10}
"""The draw cards of the edition and how many cards each adds to a stack (R-NM-STACK)."""

_NUMBERS = tuple(str(n) for n in range(10))
_COLOURED_ACTIONS = ("+2", "S", "R", "DA", "+4", "SE")
_DECKS: Mapping[str, Mapping[str, int]] = {
    # R-NM-DECK: copies per colour of each coloured kind, then copies of each wild.
    "fw": {"0": 2, **dict.fromkeys(_NUMBERS[1:], 2), "+2": 3, "S": 3, "R": 3, "DA": 3, "+4": 2, "SE": 2},
    "om": {"0": 1, **dict.fromkeys(_NUMBERS[1:], 2), "+2": 3, "S": 3, "R": 3, "DA": 3, "+4": 3, "SE": 3},
}
_WILDS: Mapping[str, Mapping[str, int]] = {
    "fw": {"WR+4": 8, "W+6": 4, "W+10": 4, "WCR": 8},
    "om": {"WR+4": 4, "W+6": 4, "W+10": 4, "WCR": 4, "W": 4},
}


def deck(breakdown: str = "fw") -> list[Card]:
    """The 168 cards of the deck ``breakdown`` (``"fw"`` or ``"om"``, R-NM-DECK),
    colour by colour, then the wilds."""
    cards: list[Card] = []
    for color in COLORS:
        for kind, copies in _DECKS[breakdown].items():
            cards += [Card.of(color, kind)] * copies
    for kind, copies in _WILDS[breakdown].items():
        cards += [Card.of(None, kind)] * copies
    return cards


def may_stack(state: Position, card: Card, on: Card) -> bool:
    """Whether ``card`` may join a stack topped by ``on`` (R-NM-STACK): a draw
    card of equal or higher value, whatever its colour (``nm_stack_rule=ge-last``),
    or of the same kind (``same-kind``)."""
    value = DRAW_VALUES.get(card.kind)
    if value is None:
        return False
    if state.ruleset.options["nm_stack_rule"] == "same-kind":
        return card.kind == on.kind
    return value >= DRAW_VALUES[on.kind]

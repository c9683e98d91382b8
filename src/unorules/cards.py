"""Colours, card kinds and cards, with their text notation.

Notation (parsed case-insensitively, printed canonically):

* a coloured card is a colour letter (``R`` ``Y`` ``G`` ``B``) followed by its
  kind: ``0``-``9``, ``S`` (Skip), ``R`` (Reverse) or ``+2`` (Draw Two), as in
  ``R7``, ``GS``, ``YR``, ``B+2``;
* a wild card is its kind alone: ``W`` (Wild), ``W+4`` (Wild Draw Four), and
  whatever kinds plugins register with :func:`register_kind`.

Cards are interned: :meth:`Card.parse` and :meth:`Card.of` return the same
object for the same card, so comparing and hashing them is cheap.
"""

from __future__ import annotations

import enum
import importlib
import re
import sys
from collections.abc import Iterable

import attrs

from unorules.errors import NotationError, excerpt

__all__ = [
    "COLORS",
    "Card",
    "Color",
    "KindInfo",
    "kind_info",
    "parse_cards",
    "register_kind",
]


class Color(enum.Enum):
    """One of the four colours; its value is its notation letter."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    # Members are singletons compared by identity, so the identity hash agrees
    # with ==; Enum's own __hash__ is a Python call (hash of the name), and
    # colours are hashed on the hot path (interned actions, match tables).
    __hash__ = object.__hash__

    @classmethod
    def parse(cls, text: str) -> Color:
        """Parse ``text``, a colour letter or name (``"r"``, ``"Red"``)."""
        if not isinstance(text, str):
            raise NotationError(f"a colour must be text such as 'R' or 'red', not {excerpt(text, 30)}")
        key = text.strip().upper()
        found = _COLOR_BY_TEXT.get(key)
        if found is None:
            raise NotationError(
                f"bad colour {excerpt(text, 30)}: expected one of R, Y, G, B (or red, yellow, green, blue)"
            )
        return found


COLORS: tuple[Color, ...] = tuple(Color)
_COLOR_BY_TEXT: dict[str, Color] = {c.value: c for c in Color} | {c.name: c for c in Color}


@attrs.frozen
class KindInfo:
    """What the notation and the core know about a kind of card.

    ``wild`` kinds have no colour and are written alone (``W+4``); coloured kinds
    are written after a colour letter (``R+2``). ``number`` is the face value of
    number cards and ``None`` for symbols. What a kind *does* is up to plugins.
    """

    kind: str
    """The kind's notation (``"7"``, ``"+2"``, ``"W+4"``)."""
    name: str
    """Its name in words (``"Draw Two"``)."""
    wild: bool
    """Whether cards of this kind have no colour of their own."""
    number: int | None = None
    """The face value of a number card, else ``None``."""
    module: str | None = attrs.field(default=None, eq=False)
    """The module that registered the kind (``None`` for the core's own): a
    pickled card of the kind imports it, and nothing else, to restore."""


_KINDS: dict[str, KindInfo] = {}
_KIND_TEXT = re.compile(r"^[A-Z0-9+\-]{1,12}$")


def register_kind(
    kind: str, name: str, *, wild: bool, number: int | None = None, module: str | None = None
) -> KindInfo:
    """Make a new kind of card known to the notation.

    Plugins that add cards call this when they are imported:

    :param kind: its notation: 1 to 12 of ``A``-``Z``, ``0``-``9``, ``+``
        and ``-`` (``"CW1"``); a coloured kind is written after a colour
        letter, a wild kind alone.
    :param name: its name in words (``"Customizable Wild"``), for cards'
        :attr:`Card.name` and user interfaces.
    :param wild: whether its cards have no colour of their own (named when
        played).
    :param number: the face value of a number card (``None`` for a symbol),
        which rules comparing numbers read as :attr:`Card.number`.
    :param module: the module that registers it, imported to unpickle its
        cards in a fresh process; by default the caller's module.

    Registering the same kind again with the same description is harmless; a
    different description is an error, so two plugins cannot silently disagree.
    """
    kind = kind.upper()
    if not _KIND_TEXT.match(kind):
        raise ValueError(f"bad card kind {kind!r}: use 1-12 of A-Z, 0-9, '+' and '-'")
    if module is None:
        caller = sys._getframe(1).f_globals.get("__name__")
        module = caller if isinstance(caller, str) and caller != __name__ else None
    info = KindInfo(kind, name, wild, number, module)
    known = _KINDS.get(kind)
    if known is not None and known != info:
        raise ValueError(f"card kind {kind!r} is already registered as {known}")
    _KINDS[kind] = info
    return info


def kind_info(kind: str) -> KindInfo:
    """The registered description of ``kind`` (``KeyError`` if unknown)."""
    return _KINDS[kind]


for _n in range(10):
    register_kind(str(_n), str(_n), wild=False, number=_n)
register_kind("S", "Skip", wild=False)
register_kind("R", "Reverse", wild=False)
register_kind("+2", "Draw Two", wild=False)
register_kind("W", "Wild", wild=True)
register_kind("W+4", "Wild Draw Four", wild=True)


@attrs.frozen(eq=False, repr=False)
class Card:
    """A card: a colour (``None`` for wild cards) and a kind such as ``"7"`` or ``"+2"``.

    Cards are interned: ``Card(Color.RED, "7") is Card.parse("R7")``, so they
    compare and hash by identity, which is what makes hands and legal-action
    lists cheap to search. The kind must be registered (:func:`register_kind`)
    and wild kinds take no colour.
    """

    color: Color | None
    """The card's colour, ``None`` for a wild card."""
    kind: str
    """Its kind: ``"0"`` to ``"9"``, ``"S"`` (Skip), ``"R"`` (Reverse), ``"+2"``,
    ``"W"``, ``"W+4"`` or a kind a plugin registers (:func:`register_kind`)."""

    def __new__(cls, color: Color | None, kind: str) -> Card:
        key = (color, kind)
        card = _INTERNED.get(key)
        if card is None:
            info = _KINDS.get(kind)
            if info is None:
                raise NotationError(f"unknown card kind {kind!r}; known kinds: {_known_kinds()}")
            if color is not None and not isinstance(color, Color):
                raise NotationError(f"bad colour {color!r} for a card: use a Color")
            if info.wild != (color is None):
                what = "has no colour" if info.wild else "needs a colour"
                raise NotationError(f"card kind {kind!r} ({info.name}) {what}")
            card = object.__new__(cls)
            object.__setattr__(card, "color", color)
            object.__setattr__(card, "kind", kind)
            _INTERNED[key] = card
        return card

    @property
    def is_wild(self) -> bool:
        """True for cards without a colour of their own."""
        return self.color is None

    @property
    def number(self) -> int | None:
        """The face value of a number card, else ``None``."""
        return _KINDS[self.kind].number

    @property
    def name(self) -> str:
        """A readable name such as ``"red 7"`` or ``"Wild Draw Four"``."""
        info = _KINDS[self.kind]
        if self.color is None:
            return info.name
        return f"{self.color.name.lower()} {info.name}"

    def __str__(self) -> str:
        if self.color is None:
            return self.kind
        return self.color.value + self.kind

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @classmethod
    def of(cls, color: Color | None, kind: str) -> Card:
        """The card of this colour and kind (the same as ``Card(color, kind)``)."""
        return cls(color, kind)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``text``, card notation such as ``"R7"``, ``"b+2"`` or ``"W+4"``."""
        if not isinstance(text, str):
            raise NotationError(f"card notation must be text such as 'R7', not {excerpt(text)}")
        card = _PARSED.get(text)
        if card is not None:
            return card
        key = text.strip().upper()
        if not key:
            raise NotationError("empty card: expected e.g. R7, GS, YR, B+2, W or W+4")
        card = _PARSED.get(key)
        if card is not None:
            return card
        info = _KINDS.get(key)
        if info is not None and info.wild:
            card = cls(None, key)
        else:
            color = _COLOR_BY_TEXT.get(key[0])
            info = _KINDS.get(key[1:])
            if color is None or info is None or info.wild:
                raise NotationError(
                    f"bad card {excerpt(text, 40)}: expected a colour letter (R, Y, G, B) and one of "
                    f"{_coloured_kinds()}, or a wild: {_wild_kinds()}"
                )
            card = cls(color, key[1:])
        # Only the canonical spelling and its lower case are remembered (a
        # bounded table), never the raw text: strangers' spellings are many.
        canonical = str(card)
        _PARSED[canonical] = _PARSED[canonical.lower()] = card
        return card

    def __reduce__(self) -> tuple[object, tuple[Color | None, str, str | None]]:
        # A module-level function (not the bound classmethod), so that cloudpickle
        # pickles it by reference; unpickling returns the interned card. A plugin's
        # kind carries the module that registers it.
        return (_unpickle_card, (self.color, self.kind, _KINDS[self.kind].module))


_INTERNED: dict[tuple[Color | None, str], Card] = {}
_PARSED: dict[str, Card] = {}
"""Card text already parsed: each card's canonical spelling and its lower case."""


def _unpickle_card(color: Color | None, kind: str, module: str | None = None) -> Card:
    """The interned card of a pickle. A kind that a plugin registers may be
    unknown in a fresh process until its module is imported."""
    card = _INTERNED.get((color, kind))
    if card is not None:
        return card
    if kind not in _KINDS and module is not None:
        importlib.import_module(module)  # registers the kind
    return Card(color, kind)


def _coloured_kinds() -> str:
    return ", ".join(k for k, i in _KINDS.items() if not i.wild)


def _wild_kinds() -> str:
    return ", ".join(k for k, i in _KINDS.items() if i.wild)


def _known_kinds() -> str:
    return ", ".join(_KINDS)


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse several cards: ``text`` is a space- or comma-separated string, or an
    iterable of card texts and cards."""
    items: Iterable[str | Card] = text.replace(",", " ").split() if isinstance(text, str) else text
    return tuple(c if isinstance(c, Card) else Card.parse(c) for c in items)

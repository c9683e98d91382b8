"""Colours, card kinds and cards, with their text notation.

Notation (parsed case-insensitively, printed canonically):

* a coloured card is a colour letter (``R`` ``Y`` ``G`` ``B``) followed by its
  kind: ``0``-``9``, ``S`` (Skip), ``R`` (Reverse) or ``+2`` (Draw Two), as in
  ``R7``, ``GS``, ``YR``, ``B+2``;
* a wild card is its kind alone: ``W`` (Wild), ``W+4`` (Wild Draw Four), and
  whatever kinds plugins register with :func:`register_kind`;
* colours beyond the four are registered by plugins with
  :func:`register_color` (a letter and a name: ``P`` for pink), and are
  written like the four (``P3``);
* a card printed on both sides is written as its two faces joined by a
  slash, its first face first: ``R1/P3``, ``BR/W``, ``W+2/O4``
  (:meth:`Card.two_faced`). Which face is up is the game's
  :attr:`~unorules.GameState.side`, not the card's.

Cards are interned: :meth:`Card.parse` and :meth:`Card.of` return the same
object for the same card, so comparing and hashing them is cheap.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterable, Iterator
from typing import ClassVar

import attrs

from unorules._mypyc import equal, mypyc_attr
from unorules.errors import NotationError, excerpt

_new_object = object.__new__
"""``object.__new__``: called through a name, as the compiled build needs for the
classes that intern their objects."""

__all__ = [
    "COLORS",
    "Card",
    "Color",
    "KindInfo",
    "color_by_text",
    "kind_info",
    "parse_cards",
    "register_color",
    "register_kind",
    "registered_colors",
]


@mypyc_attr(native_class=False)  # a metaclass: an ordinary class in the compiled build
class _ColorClass(type):
    """The class of :class:`Color`: iterating over ``Color`` (or taking its
    ``len``) goes over every registered colour, as over an enum's members."""

    def __iter__(cls) -> Iterator[Color]:
        return iter(tuple(_COLOR_BY_LETTER.values()))

    def __len__(cls) -> int:
        return len(_COLOR_BY_LETTER)


class Color(metaclass=_ColorClass):
    """A colour: its notation letter (:attr:`value`) and its name.

    The four colours of the classic deck are ``Color.RED``, ``Color.YELLOW``,
    ``Color.GREEN`` and ``Color.BLUE`` (:data:`COLORS`); a plugin whose cards
    have other colours registers them with :func:`register_color`. Colours
    are singletons compared by identity; ``Color("R")`` is ``Color.RED``
    (a ``ValueError`` for a letter nobody registered), and ``list(Color)`` is
    every registered colour (:func:`registered_colors`).
    """

    __slots__ = ("module", "name", "value")

    value: str
    """The colour's notation letter (``"R"``)."""
    name: str
    """Its name in capitals (``"RED"``); ``name.lower()`` is the word for it."""
    module: str | None
    """The module that registered it (``None`` for the core's four): a pickled
    colour imports it, and nothing else, to restore."""

    # Quoted: the compiled build would otherwise read the class it is still building.
    RED: "ClassVar[Color]"  # noqa: UP037
    YELLOW: "ClassVar[Color]"  # noqa: UP037
    GREEN: "ClassVar[Color]"  # noqa: UP037
    BLUE: "ClassVar[Color]"  # noqa: UP037

    def __new__(cls, value: str) -> Color:
        found = _COLOR_BY_LETTER.get(value) if isinstance(value, str) else None
        if found is None:
            raise ValueError(f"{value!r} is not a registered colour letter")
        return found

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"colours are immutable: cannot set {name!r}")

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Color.{self.name}" if self.module is None else f"Color({self.value!r})"

    def __reduce__(self) -> tuple[object, tuple[str, str | None]]:
        return (_unpickle_color, (self.value, self.module))

    def __copy__(self) -> Color:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Color:
        return self

    @classmethod
    def parse(cls, text: str) -> Color:
        """Parse ``text``, a colour letter or name (``"r"``, ``"Red"``, a registered ``"pink"``)."""
        if not isinstance(text, str):
            raise NotationError(f"a colour must be text such as 'R' or 'red', not {excerpt(text, 30)}")
        key = text.strip().upper()
        found = _COLOR_BY_TEXT.get(key)
        if found is None:
            letters = ", ".join(_COLOR_BY_LETTER)
            names = ", ".join(c.name.lower() for c in _COLOR_BY_LETTER.values())
            raise NotationError(f"bad colour {excerpt(text, 30)}: expected one of {letters} (or {names})")
        return found


_COLOR_BY_LETTER: dict[str, Color] = {}
_COLOR_BY_NAME: dict[str, Color] = {}
_COLOR_BY_TEXT: dict[str, Color] = {}
_COLOR_NAME = re.compile(r"^[A-Za-z]{2,20}$")
_CALLER_DEPTH = 2 if sys._getframe(0).f_globals.get("__name__") == __name__ else 0
"""How many Python frames up from :func:`_caller` the caller of a ``register_*``
function is: 2 when this module runs as Python; 0 when it is compiled (compiled
functions have no frames of their own: the innermost frame is the caller's, as
the frame running this module's top level is then the importer's)."""


def _caller(module: str | None) -> str | None:
    """``module``, or by default the module of the code that called the public
    ``register_*`` function calling this (``None`` for this module itself)."""
    if module is not None:
        return module
    caller = sys._getframe(_CALLER_DEPTH).f_globals.get("__name__")
    return caller if isinstance(caller, str) and caller != __name__ else None


def _make_color(letter: str, name: str, module: str | None) -> Color:
    color: Color = _new_object(Color)
    object.__setattr__(color, "value", letter)
    object.__setattr__(color, "name", name.upper())
    object.__setattr__(color, "module", module)
    return color


def register_color(letter: str, name: str, *, module: str | None = None) -> Color:
    """Make a colour beyond the classic four known to the notation, and return it.

    Plugins whose cards have other colours call this when they are imported:

    :param letter: its notation letter, one of ``A``-``Z`` but ``W`` (which
        starts the wild kinds); cards of the colour are written with it
        (``P3``).
    :param name: its name in words, 2 to 20 letters (``"pink"``), also
        accepted by :meth:`Color.parse`.
    :param module: the module that registers it, imported to unpickle the
        colour in a fresh process; by default the caller's module.

    Registering the same colour again (same letter and name) returns it;
    another name for a letter, or a letter for a name already taken, is a
    ``ValueError``, so two plugins cannot silently disagree.
    """
    return _register_color(letter, name, _caller(module))


def _register_color(letter: str, name: str, module: str | None) -> Color:
    """:func:`register_color` for ``module`` (``None``: the core's own)."""
    if not isinstance(letter, str) or len(letter) != 1 or not "A" <= letter.upper() <= "Z":
        raise ValueError(f"bad colour letter {letter!r}: use one letter A-Z")
    letter = letter.upper()
    if letter == "W":
        raise ValueError("the colour letter 'W' is taken: wild kinds are written with it ('W+4')")
    if not isinstance(name, str) or not _COLOR_NAME.match(name):
        raise ValueError(f"bad colour name {name!r}: use 2 to 20 letters")
    known = _COLOR_BY_LETTER.get(letter)
    if known is not None:
        if known.name != name.upper():
            raise ValueError(f"colour letter {letter!r} is already registered as {known.name.lower()}")
        return known
    if name.upper() in _COLOR_BY_NAME:
        raise ValueError(f"colour name {name!r} is already registered with another letter")
    color = _make_color(letter, name, module)
    _COLOR_BY_LETTER[letter] = color
    _COLOR_BY_NAME[color.name] = color
    _COLOR_BY_TEXT[letter] = _COLOR_BY_TEXT[color.name] = color
    return color


def color_by_text(text: str) -> Color | None:
    """The colour whose letter or name ``text`` is (any case), else ``None``."""
    return _COLOR_BY_TEXT.get(text.upper())


def registered_colors() -> tuple[Color, ...]:
    """Every colour known to the notation: the classic four, then the
    registered ones in the order they were registered."""
    return tuple(_COLOR_BY_LETTER.values())


def _unpickle_color(letter: str, module: str | None = None) -> Color:
    """The colour of a pickle: a registered colour may be unknown in a fresh
    process until its module is imported."""
    found = _COLOR_BY_LETTER.get(letter)
    if found is None and module is not None:
        importlib.import_module(module)  # registers the colour
        found = _COLOR_BY_LETTER.get(letter)
    if found is None:
        raise ValueError(f"{letter!r} is not a registered colour letter")
    return found


for _letter, _name in (("R", "red"), ("Y", "yellow"), ("G", "green"), ("B", "blue")):
    _core_color = _register_color(_letter, _name, None)
    setattr(Color, _core_color.name, _core_color)

COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
"""The four colours of the classic deck, in notation order."""


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
    return _register_kind(kind, name, wild, number, _caller(module))


def _register_kind(kind: str, name: str, wild: bool, number: int | None, module: str | None) -> KindInfo:
    """:func:`register_kind` for ``module`` (``None``: the core's own)."""
    kind = kind.upper()
    if not _KIND_TEXT.match(kind):
        raise ValueError(f"bad card kind {kind!r}: use 1-12 of A-Z, 0-9, '+' and '-'")
    info = KindInfo(kind, name, wild, number, module)
    known = _KINDS.get(kind)
    if known is not None and not equal(known, info):  # equal: see unorules._mypyc
        raise ValueError(f"card kind {kind!r} is already registered as {known}")
    _KINDS[kind] = info
    return info


def kind_info(kind: str) -> KindInfo:
    """The registered description of ``kind`` (``KeyError`` if unknown)."""
    return _KINDS[kind]


for _n in range(10):
    _register_kind(str(_n), str(_n), False, _n, None)
_register_kind("S", "Skip", False, None, None)
_register_kind("R", "Reverse", False, None, None)
_register_kind("+2", "Draw Two", False, None, None)
_register_kind("W", "Wild", True, None, None)
_register_kind("W+4", "Wild Draw Four", True, None, None)


@attrs.frozen(eq=False, repr=False, init=False)  # made by __new__ (interned)
class Card:
    """A card: a colour (``None`` for wild cards) and a kind such as ``"7"`` or ``"+2"``.

    Cards are interned: ``Card(Color.RED, "7") is Card.parse("R7")``, so they
    compare and hash by identity, which is what makes hands and legal-action
    lists cheap to search. The kind must be registered (:func:`register_kind`)
    and wild kinds take no colour.

    A card printed on both sides (:meth:`two_faced`, written ``R1/P3``) holds
    its two :attr:`faces`, each an ordinary one-faced card; which face it
    shows is the game's :attr:`~unorules.GameState.side`
    (:meth:`~unorules.GameState.face`). Its own :attr:`color` and :attr:`kind`
    are those of its first face, the face up when a round is dealt.
    """

    color: Color | None
    """The card's colour, ``None`` for a wild card; a two-faced card's first face's."""
    kind: str
    """Its kind: ``"0"`` to ``"9"``, ``"S"`` (Skip), ``"R"`` (Reverse), ``"+2"``,
    ``"W"``, ``"W+4"`` or a kind a plugin registers (:func:`register_kind`); a
    two-faced card's first face's."""
    faces: tuple[Card, ...] = ()
    """The two faces of a two-faced card, first face first; ``()`` for a card
    printed on one side."""

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
            card = _new_object(cls)
            object.__setattr__(card, "color", color)
            object.__setattr__(card, "kind", kind)
            object.__setattr__(card, "faces", ())
            _INTERNED[key] = card
        return card

    @classmethod
    def two_faced(cls, first: Card, second: Card) -> Card:
        """The card printed with ``first`` on one side and ``second`` on the
        other (both one-faced cards), written ``first/second``: ``R1/P3``.

        ``first`` is the face up when a round is dealt (side 0 of
        :attr:`~unorules.GameState.side`). Interned like every card.
        """
        for face in (first, second):
            if not isinstance(face, Card) or face.faces:
                raise NotationError(f"a face of a two-faced card must be a one-faced card, not {face!r}")
        key = (first, second)
        card = _TWO_FACED.get(key)
        if card is None:
            card = _new_object(cls)
            object.__setattr__(card, "color", first.color)
            object.__setattr__(card, "kind", first.kind)
            object.__setattr__(card, "faces", key)
            _TWO_FACED[key] = card
        return card

    def face(self, side: int) -> Card:
        """The face shown on ``side`` (0: the first face, 1: the second); the
        card itself for a card printed on one side."""
        faces = self.faces
        return faces[side] if faces else self

    @property
    def is_wild(self) -> bool:
        """True for cards without a colour of their own (a two-faced card: its first face)."""
        return self.color is None

    @property
    def number(self) -> int | None:
        """The face value of a number card, else ``None`` (a two-faced card: its first face's)."""
        return _KINDS[self.kind].number

    @property
    def name(self) -> str:
        """A readable name such as ``"red 7"``, ``"Wild Draw Four"`` or, for a
        two-faced card, ``"red 1 / pink 3"``."""
        faces = self.faces
        if faces:
            return f"{faces[0].name} / {faces[1].name}"
        info = _KINDS[self.kind]
        if self.color is None:
            return info.name
        return f"{self.color.name.lower()} {info.name}"

    def __str__(self) -> str:
        faces = self.faces
        if faces:
            return f"{faces[0]}/{faces[1]}"
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
        """Parse ``text``, card notation such as ``"R7"``, ``"b+2"``, ``"W+4"`` or,
        for a two-faced card, ``"R1/P3"``."""
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
        if "/" in key:
            first, _, second = key.partition("/")
            if not first or not second or "/" in second:
                raise NotationError(
                    f"bad card {excerpt(text, 40)}: a two-faced card is two faces joined by one '/', "
                    "e.g. R1/P3"
                )
            card = cls.two_faced(cls._parse_face(first, text), cls._parse_face(second, text))
        else:
            card = cls._parse_face(key, text)
        # Only the canonical spelling and its lower case are remembered (a
        # bounded table), never the raw text: strangers' spellings are many.
        canonical = str(card)
        _PARSED[canonical] = _PARSED[canonical.lower()] = card
        return card

    @classmethod
    def _parse_face(cls, key: str, text: str) -> Card:
        """The one-faced card of the upper-case notation ``key`` (from ``text``)."""
        info = _KINDS.get(key)
        if info is not None and info.wild:
            return cls(None, key)
        color = _COLOR_BY_LETTER.get(key[0])
        info = _KINDS.get(key[1:])
        if color is None or info is None or info.wild:
            raise NotationError(
                f"bad card {excerpt(text, 40)}: expected a colour letter ({', '.join(_COLOR_BY_LETTER)}) "
                f"and one of {_coloured_kinds()}, or a wild: {_wild_kinds()}"
            )
        return cls(color, key[1:])

    # Interned and immutable: a copy is the card itself (OpenSpiel clones its
    # states by copy.deepcopy, which would otherwise rebuild every card).
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # A module-level function (not the bound classmethod), so that cloudpickle
        # pickles it by reference; unpickling returns the interned card. A plugin's
        # kind carries the module that registers it.
        faces = self.faces
        if faces:
            return (_unpickle_two_faced, faces)
        return (_unpickle_card, (self.color, self.kind, _KINDS[self.kind].module))


_INTERNED: dict[tuple[Color | None, str], Card] = {}
_TWO_FACED: dict[tuple[Card, Card], Card] = {}
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


def _unpickle_two_faced(first: Card, second: Card) -> Card:
    """The interned two-faced card of a pickle (its faces unpickle first)."""
    return Card.two_faced(first, second)


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

"""How a rule set is shown to people: its cards' looks, its sides' and phases' names.

A plugin says how its things look at a table by implementing the ``display``
hook (:func:`unorules.hookspecs.display`), returning a :class:`Display`:

* a :class:`CardLook` for each kind of card it registers (its name, a short
  symbol, the paint and ink of a card of no colour, the word and the icon
  on its face);
* the names of its :attr:`~Display.sides` (a deck of two-faced cards: ``("light",
  "dark")`` instead of "side 0" and "side 1");
* words for its :attr:`~Display.phases` (what the seat to move is doing, for
  the people at the table).

:func:`display_of` merges every plugin's answer into the rule set's own
:class:`Display` (a plugin registered later, such as a house rule over its
base rule set, wins over an earlier one), made once per rule set. The
terminal (``unorules play``), the browser table (``unorules serve``) and the
narrator's words (:meth:`Display.card_name`) read it; what nobody declares
falls back to the card kind's registered name and notation
(:func:`~unorules.cards.register_kind`), "side N" and the phase's declared doc.

>>> import unorules
>>> from unorules.display import display_of
>>> shown = display_of(unorules.Ruleset.from_names(["classic"]))
>>> look = shown.look(unorules.Card.parse("R+2"))
>>> look.name, look.symbol, look.label
('Draw Two', '+2', 'Draw 2')
>>> shown.side_name(0)
'side 0'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from unorules.cards import Card, kind_info
from unorules.errors import RulesetError

if TYPE_CHECKING:
    from unorules.ruleset import Ruleset

__all__ = ["CORE_LOOKS", "CardLook", "Display", "display_of"]

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def _text(limit: int) -> Any:
    """An attrs validator: text of at most ``limit`` printable characters (``""``: not declared)."""

    def check(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
        if not isinstance(value, str) or len(value) > limit or not value.isprintable():
            raise ValueError(
                f"{type(instance).__name__}.{attribute.name} must be text of at most {limit} printable "
                f"characters, not {value!r}"
            )

    return check


def _paint(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    if not isinstance(value, str) or (value and not _HEX.match(value)):
        raise ValueError(
            f"{type(instance).__name__}.{attribute.name} must be a colour written '#rrggbb' "
            f"(or '' for the default), not {value!r}"
        )


def _kind(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    try:
        kind_info(value)  # type: ignore[arg-type]
    except (KeyError, TypeError):
        raise ValueError(
            f"CardLook.kind must be a registered card kind (register_kind), not {value!r}"
        ) from None


@attrs.frozen
class CardLook:
    """How the cards of one kind are shown. Every field but :attr:`kind` may be
    left ``""``: the table then shows the kind's registered name and notation.

    >>> from unorules.display import CardLook
    >>> CardLook("W+4", symbol="+4", label="Wild")
    CardLook(kind='W+4', name='', symbol='+4', label='Wild', icon='', paint='', ink='')
    """

    kind: str = attrs.field(validator=_kind)
    """The registered kind (:func:`~unorules.cards.register_kind`) this look is for."""
    name: str = attrs.field(default="", validator=_text(40))
    """The card's name in words ("Hot Potato"); ``""``: the kind's registered name. A
    coloured card is named with its colour before it ("red Hot Potato")."""
    symbol: str = attrs.field(default="", validator=_text(12))
    """A short mark for a card's corner and small cards ("⇄"), best 1 to 3 characters (at
    most 12, as the notation); ``""``: the kind's notation."""
    label: str = attrs.field(default="", validator=_text(14))
    """The word printed on a big card ("Draw 2"); ``""``: the name, if it fits, else none."""
    icon: str = attrs.field(default="", validator=_text(4))
    """What the middle of a big card shows, 1 to 4 characters (an emoji, a sign); ``""``:
    the symbol."""
    paint: str = attrs.field(default="", validator=_paint)
    """The face colour of a card of this kind that has no colour (a wild), ``"#rrggbb"``;
    ``""``: the table's own (black). A coloured card is painted its colour."""
    ink: str = attrs.field(default="", validator=_paint)
    """The colour of the symbol and words on :attr:`paint`, ``"#rrggbb"``; ``""``: white."""

    def resolved(self) -> CardLook:
        """This look with every field that was left ``""`` filled from the registered kind
        (``paint`` and ``ink`` stay ``""``: the table's own)."""
        info = kind_info(self.kind)
        name = self.name or info.name
        symbol = self.symbol or self.kind
        label = self.label or (name if len(name) <= 14 and info.number is None else "")
        return attrs.evolve(self, name=name, symbol=symbol, label=label, icon=self.icon or symbol)


CORE_LOOKS: tuple[CardLook, ...] = (
    CardLook("S", symbol="⊘", label="Skip"),
    CardLook("R", symbol="⇄", label="Reverse"),
    CardLook("+2", symbol="+2", label="Draw 2"),
    CardLook("W", symbol="W", label="Wild"),
    CardLook("W+4", symbol="+4", label="Wild"),
)
"""The looks of the core's symbol kinds (number cards show their number)."""


def _seq(value: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(value)


def _pairs(value: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    return tuple((name, words) for name, words in items)


@attrs.frozen(slots=False)  # not slotted: the looks by kind are cached once made
class Display:
    """How a rule set (or, returned by the ``display`` hook, one plugin) shows itself.

    >>> from unorules.display import Display
    >>> Display(sides=("light", "dark")).side_name(1)
    'dark side'
    """

    cards: tuple[CardLook, ...] = attrs.field(default=(), converter=_seq)
    """The looks of card kinds, one per kind."""
    sides: tuple[str, ...] = attrs.field(default=(), converter=_seq)
    """The names of the sides of two-faced cards, side 0 first (``("light", "dark")``);
    ``()``: "side 0", "side 1"."""
    phases: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_pairs)
    """``(phase name, words)`` pairs: what a seat in that phase is doing, in words for
    people ("naming the colour the Flip turned up"); a mapping is accepted too."""

    def __attrs_post_init__(self) -> None:
        for look in self.cards:
            if not isinstance(look, CardLook):
                raise ValueError(f"Display.cards holds CardLook values, not {look!r}")
        for side in self.sides:
            if not isinstance(side, str) or not 0 < len(side) <= 20 or not side.isprintable():
                raise ValueError(f"a side's name must be text of 1 to 20 characters, not {side!r}")
        for pair in self.phases:
            if (
                len(pair) != 2
                or not all(isinstance(p, str) and p and p.isprintable() for p in pair)
                or len(pair[1]) > 80
            ):
                raise ValueError(
                    f"Display.phases holds (phase name, words of at most 80 characters), not {pair!r}"
                )

    def look(self, card: Card) -> CardLook:
        """How ``card`` is shown (a two-faced card: its first face; see
        :meth:`~unorules.GameState.face` for the face in play), every field filled in."""
        found = self._looks.get(card.kind)
        if found is None:
            found = self._looks[card.kind] = CardLook(card.kind).resolved()
        return found

    @functools.cached_property
    def _looks(self) -> dict[str, CardLook]:
        """The declared looks by kind, resolved (and, as they are asked for, the default ones)."""
        return {look.kind: look.resolved() for look in self.cards}

    def card_name(self, card: Card) -> str:
        """``card`` in words, with the rule set's names: "red Hot Potato", "Wild"
        (a two-faced card: both faces, "red 1 / pink 3")."""
        if card.faces:
            return " / ".join(self.card_name(face) for face in card.faces)
        name = self.look(card).name
        return name if card.color is None else f"{card.color.name.lower()} {name}"

    def side_name(self, side: int) -> str:
        """How people call ``side`` (:attr:`~unorules.GameState.side`): "dark side" when the rule
        set names its sides, else "side N"."""
        return f"{self.sides[side]} side" if 0 <= side < len(self.sides) else f"side {side}"

    def phase_words(self, phase: str) -> str | None:
        """What a seat in ``phase`` is doing, in the rule set's words, or ``None`` if it names none."""
        for name, words in self.phases:
            if name == phase:
                return words
        return None


def _merge(ruleset: Ruleset) -> Display:
    answers = ruleset.hook.display(ruleset=ruleset)  # pluggy: the last registered plugin first
    looks: dict[str, CardLook] = {look.kind: look for look in CORE_LOOKS}
    sides: tuple[str, ...] = ()
    phases: dict[str, str] = {}
    for answer in reversed(answers):  # registration order: a later plugin overrides an earlier one
        if not isinstance(answer, Display):
            raise RulesetError(
                f"the display hook must return a unorules.display.Display or None, not {answer!r}"
            )
        looks.update((look.kind, look) for look in answer.cards)
        sides = answer.sides or sides
        phases.update(answer.phases)
    return Display(tuple(looks.values()), sides, tuple(phases.items()))


def display_of(ruleset: Ruleset) -> Display:
    """How ``ruleset`` is shown: the core's looks (:data:`CORE_LOOKS`) and every plugin's
    ``display`` answer merged, a later plugin's over an earlier one's; made once per rule
    set (:meth:`~unorules.Ruleset.cached`)."""
    return ruleset.cached(("unorules.display", "display"), _merge)

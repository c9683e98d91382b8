"""Actions and their text notation.

An action is written ``"<seat>: <verb> [arguments]"``, for example
``"1: play W+4 B"`` or ``"3: catch 2"``. Arguments are a card, a colour and a
seat, in that order, each present or absent as the verb requires:

=============  ==========================  ==========================================
verb           arguments                   meaning
=============  ==========================  ==========================================
``play``       card [colour] [seat]        play a card; colour for wilds, seat for
                                           cards that need a target
``draw``       (none)                      draw for the turn, or take a penalty draw
``pass``       (none)                      keep the card just drawn; the turn passes
``uno``        (none)                      call "UNO"
``catch``      seat                        catch a seat that did not call "UNO"
``challenge``  (none)                      challenge the Wild Draw Four just played
``accept``     (none)                      accept the Wild Draw Four and draw
``color``      colour                      name the colour of a wild starter
=============  ==========================  ==========================================

A card with two faces (``R1/P3``, see :mod:`unorules.cards`) is named in an
action by the face it shows, which tells no seat its other face: ``play R1``.
When a hand holds several cards showing that face, ``#k`` picks the k-th of
them in hand order: ``play R1#2`` (``#1``, the first, is the default and is
not written).

Plugins add verbs with :func:`register_verb`. The seat prefix may be left out
when parsing against a state: the action is then the current player's.
Actions are interned like cards, so comparing them is cheap. Only actions
whose seats (actor and target) are below :data:`INTERNED_SEATS` are interned
for good: those are the only ones a game can make legal, so text from strangers
naming other seats cannot make the table grow without end (such actions are
kept in a small cache that is emptied when it fills up).
"""

from __future__ import annotations

import attrs

from unorules.cards import Card, Color, color_by_text
from unorules.errors import NotationError, excerpt
from unorules.texts import check_template

_new_object = object.__new__
"""``object.__new__``: called through a name, as the compiled build needs for the
classes that intern their objects."""

__all__ = ["INTERNED_SEATS", "Action", "VerbSpec", "register_verb", "verb_spec"]

INTERNED_SEATS = 16
"""Actions whose seat and target are below this are interned for good (a game
has at most 10 seats)."""

_MAX_SEAT_DIGITS = 6  # a seat written with more digits is refused by parse

_REQUIRED, _OPTIONAL, _ABSENT = "required", "optional", "absent"
_PRESENCE = (_REQUIRED, _OPTIONAL, _ABSENT)


@attrs.frozen
class VerbSpec:
    """Which arguments a verb takes: each ``"required"``, ``"optional"`` or ``"absent"``."""

    verb: str
    """The verb, as the notation writes it (``"play"``)."""
    card: str = _ABSENT
    """Whether an action of the verb names a card."""
    color: str = _ABSENT
    """Whether it names a colour."""
    target: str = _ABSENT
    """Whether it names a seat (its target)."""
    doc: str = ""
    """What the verb does, for help texts."""
    text: str = ""
    """How an action of the verb reads (:mod:`unorules.narrate`), a template
    naming ``{seat}``, ``{card}``, ``{color}`` and ``{target}`` as an event's
    text does (:attr:`unorules.EventSpec.text`): ``"{seat} crowed like a
    rooster"``. "" reads as the seat, the verb and its arguments."""


_VERBS: dict[str, VerbSpec] = {}
_VERB_FIELDS = frozenset({"seat", "card", "color", "target"})


def register_verb(
    verb: str,
    *,
    card: str = _ABSENT,
    color: str = _ABSENT,
    target: str = _ABSENT,
    doc: str = "",
    text: str = "",
) -> VerbSpec:
    """Make a verb known to the action notation (plugins call this on import).

    ``verb`` is the word the notation writes (letters, digits, underscores);
    ``card``, ``color`` and ``target`` say whether its actions name a card, a
    colour and a seat: each ``"required"``, ``"optional"`` or ``"absent"``
    (the default). ``doc`` says what it does (help texts), ``text`` how an
    action of it reads from a seat's point of view (:attr:`VerbSpec.text`).

    Registering the same verb again with the same arguments is harmless; a
    different shape is an error.
    """
    verb = verb.lower()
    if not verb.isidentifier():
        raise ValueError(f"bad verb {verb!r}: use letters, digits and underscores")
    for label, value in (("card", card), ("color", color), ("target", target)):
        if value not in _PRESENCE:
            raise ValueError(f"{label} must be one of {_PRESENCE}, not {value!r}")
    if text:
        check_template(text, _VERB_FIELDS, f"verb {verb!r}")
    spec = VerbSpec(verb, card, color, target, doc, text)
    known = _VERBS.get(verb)
    if known is not None and (known.card, known.color, known.target) != (card, color, target):
        raise ValueError(f"verb {verb!r} is already registered as {known}")
    if known is None:
        _VERBS[verb] = spec
    return _VERBS[verb]


def verb_spec(verb: str) -> VerbSpec:
    """The registered shape of ``verb`` (``KeyError`` if unknown)."""
    return _VERBS[verb]


register_verb(
    "play", card=_REQUIRED, color=_OPTIONAL, target=_OPTIONAL, doc="play a card", text="{seat} played {card}"
)
register_verb("draw", doc="draw for the turn or take a penalty draw", text="{seat} drew")
register_verb("pass", doc="keep the card just drawn and end the turn", text="{seat} kept the drawn card")
register_verb("uno", doc='call "UNO"', text="{seat} called UNO")
register_verb(
    "catch",
    target=_REQUIRED,
    doc='catch a seat that did not call "UNO"',
    text="{seat} caught {target} without UNO",
)
register_verb("challenge", doc="challenge a Wild Draw Four", text="{seat} challenged the Wild Draw Four")
register_verb("accept", doc="accept a Wild Draw Four and draw", text="{seat} accepted the Wild Draw Four")
register_verb("color", color=_REQUIRED, doc="name the colour of a wild starter", text="{seat} named {color}")


@attrs.frozen(eq=False, repr=False, init=False)  # made by __new__ (interned)
class Action:
    """One seat doing one thing: ``Action(1, "play", Card.parse("W+4"), Color.BLUE)``.

    Actions are interned like cards (equal actions are the same object), so
    checking one against a list of legal actions is an identity search.
    """

    seat: int
    """The seat acting."""
    verb: str
    """What it does: ``"play"``, ``"draw"``, ... or a plugin's verb (:func:`register_verb`)."""
    card: Card | None = None
    """The card played (or named), if the verb takes one (a face shown, for a two-faced card)."""
    color: Color | None = None
    """The colour named (a wild's, a wild starter's), if any."""
    target: int | None = None
    """The other seat the action names (a seat caught, a seat to trade hands with), if any."""
    nth: int | None = None
    """Which of several cards showing the face :attr:`card` it means, counted
    from 1 in hand order (``play R1#2``); ``None`` for the first (and for
    every card printed on one side, whose copies are all alike)."""

    def __new__(
        cls,
        seat: int,
        verb: str,
        card: Card | None = None,
        color: Color | None = None,
        target: int | None = None,
        nth: int | None = None,
    ) -> Action:
        if nth is not None:
            if nth.__class__ is not int or nth < 1:
                raise NotationError(f"nth must be a whole number from 1, not {nth!r}")
            if card is None:
                raise NotationError("nth picks among cards: an action without a card takes none")
            if nth == 1:
                nth = None
        key: tuple[object, ...] = (
            (seat, verb, card, color, target) if nth is None else (seat, verb, card, color, target, nth)
        )
        action = _INTERNED.get(key)
        if action is None:
            action = _OTHERS.get(key)
            if action is not None:
                return action
            action = _new_object(cls)
            for name, value in zip(_FIELDS, (seat, verb, card, color, target, nth), strict=True):
                object.__setattr__(action, name, value)
            if (
                0 <= seat < INTERNED_SEATS
                and (target is None or 0 <= target < INTERNED_SEATS)
                and (nth is None or nth <= _MAX_NTH)
            ):
                _INTERNED[key] = action
            else:  # never legal in any game: kept only for a while
                if len(_OTHERS) >= _OTHERS_LIMIT:
                    _OTHERS.clear()
                _OTHERS[key] = action
        return action

    def __str__(self) -> str:
        parts = [f"{self.seat}: {self.verb}"]
        if self.card is not None:
            parts.append(str(self.card) if self.nth is None else f"{self.card}#{self.nth}")
        if self.color is not None:
            parts.append(self.color.value)
        if self.target is not None:
            parts.append(str(self.target))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    # Interned and immutable: a copy is the action itself.
    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # A module-level function (cloudpickle pickles it by reference); the
        # fields, not the text, so an action of a plugin's verb unpickles before
        # the plugin is imported. Unpickling returns the interned action.
        if self.nth is None:
            return (_unpickle_action, (self.seat, self.verb, self.card, self.color, self.target))
        return (_unpickle_action, (self.seat, self.verb, self.card, self.color, self.target, self.nth))

    @classmethod
    def of(
        cls,
        seat: int,
        verb: str,
        card: Card | None = None,
        color: Color | None = None,
        target: int | None = None,
        nth: int | None = None,
    ) -> Action:
        """The interned action of ``seat`` doing ``verb`` with ``card``, ``color``,
        ``target`` and ``nth`` (no check of the verb's shape)."""
        if nth is None:
            action = _INTERNED.get((seat, verb, card, color, target))
            if action is not None:
                return action
        return cls(seat, verb, card, color, target, nth)

    @classmethod
    def parse(cls, text: str, default_seat: int | None = None) -> Action:
        """Parse ``text``, action notation such as ``"1: play W+4 B"`` or
        ``"0: play R1#2"`` (case-insensitive).

        Without a ``"<seat>:"`` prefix the action belongs to ``default_seat``;
        with neither, parsing fails.
        """
        if not isinstance(text, str):
            raise NotationError(f"action notation must be text such as '1: play R7', not {excerpt(text)}")
        quoted = excerpt(text)
        body = text.strip()
        seat: int | None = default_seat
        if ":" in body:
            head, _, body = body.partition(":")
            seat = _seat_number(head.strip(), quoted)
        words = body.split()
        if not words:
            raise NotationError(f"empty action {quoted}: expected e.g. '1: play R7' or '2: draw'")
        if seat is None:
            raise NotationError(f"action {quoted} names no seat: write '<seat>: {excerpt(body)[1:-1]}'")
        verb = words[0].lower()
        spec = _VERBS.get(verb)
        if spec is None:
            raise NotationError(
                f"unknown verb {excerpt(words[0], 30)} in action {quoted}; verbs: {', '.join(_VERBS)}"
            )
        card: Card | None = None
        color: Color | None = None
        target: int | None = None
        nth: int | None = None
        for word in words[1:]:
            if word.isdecimal():  # not isdigit: int() refuses digits such as "²"
                if target is not None:
                    raise NotationError(f"two seats in action {quoted}")
                target = _seat_number(word, quoted)
            elif color_by_text(word) is not None:
                if color is not None:
                    raise NotationError(f"two colours in action {quoted}")
                color = Color.parse(word)
            else:
                if card is not None:
                    raise NotationError(f"unexpected {excerpt(word, 30)} in action {quoted}")
                name, sharp, count = word.partition("#")
                if sharp:
                    if not (count.isdecimal() and count.isascii()) or len(count) > 3 or int(count) < 1:
                        raise NotationError(
                            f"bad {excerpt(word, 30)} in action {quoted}: '#k' counts the cards showing "
                            "that face from 1, e.g. R1#2"
                        )
                    nth = int(count)
                try:
                    card = Card.parse(name)
                except NotationError as exc:
                    raise NotationError(f"in action {quoted}: {exc}") from None
        for label, value, presence in (
            ("a card", card, spec.card),
            ("a colour", color, spec.color),
            ("a seat", target, spec.target),
        ):
            if presence == _REQUIRED and value is None:
                raise NotationError(f"'{verb}' needs {label}: {quoted}")
            if presence == _ABSENT and value is not None:
                raise NotationError(f"'{verb}' takes no {label[2:]}: {quoted}")
        return cls.of(seat, verb, card, color, target, nth)


def _seat_number(word: str, quoted: str) -> int:
    """The seat number ``word`` (decimal digits, at most six of them)."""
    if not word.isdecimal():
        if word.startswith("-") and word[1:].isdecimal():
            raise NotationError(f"bad seat {excerpt(word, 30)} in action {quoted}: seats count from 0")
        raise NotationError(f"bad seat {excerpt(word, 30)} in action {quoted}: expected a number")
    if len(word) > _MAX_SEAT_DIGITS:
        raise NotationError(f"bad seat {excerpt(word, 30)} in action {quoted}: no game has that many seats")
    return int(word)


_FIELDS = ("seat", "verb", "card", "color", "target", "nth")
_MAX_NTH = 16
"""Actions picking a card beyond this many of one face are not interned for good
(a hand of a real deck never holds more than a few cards showing one face)."""
_INTERNED: dict[tuple[object, ...], Action] = {}
_OTHERS: dict[tuple[object, ...], Action] = {}
"""Actions naming seats no game has, kept for a while (see the module's docstring)."""
_OTHERS_LIMIT = 4096


def _unpickle_action(
    seat: int,
    verb: str,
    card: Card | None,
    color: Color | None,
    target: int | None,
    nth: int | None = None,
) -> Action:
    """The interned action of a pickle."""
    return Action.of(seat, verb, card, color, target, nth)

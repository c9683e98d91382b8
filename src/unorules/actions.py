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

Plugins add verbs with :func:`register_verb`. The seat prefix may be left out
when parsing against a state: the action is then the current player's.
Actions are interned like cards, so comparing them is cheap.
"""

from __future__ import annotations

import attrs

from unorules.cards import Card, Color
from unorules.errors import NotationError

__all__ = ["Action", "VerbSpec", "register_verb", "verb_spec"]

_REQUIRED, _OPTIONAL, _ABSENT = "required", "optional", "absent"
_PRESENCE = (_REQUIRED, _OPTIONAL, _ABSENT)


@attrs.frozen
class VerbSpec:
    """Which arguments a verb takes: each ``"required"``, ``"optional"`` or ``"absent"``."""

    verb: str
    card: str = _ABSENT
    color: str = _ABSENT
    target: str = _ABSENT
    doc: str = ""


_VERBS: dict[str, VerbSpec] = {}


def register_verb(
    verb: str,
    *,
    card: str = _ABSENT,
    color: str = _ABSENT,
    target: str = _ABSENT,
    doc: str = "",
) -> VerbSpec:
    """Make a verb known to the action notation (plugins call this on import).

    Registering the same verb again with the same arguments is harmless; a
    different shape is an error.
    """
    verb = verb.lower()
    if not verb.isidentifier():
        raise ValueError(f"bad verb {verb!r}: use letters, digits and underscores")
    for label, value in (("card", card), ("color", color), ("target", target)):
        if value not in _PRESENCE:
            raise ValueError(f"{label} must be one of {_PRESENCE}, not {value!r}")
    spec = VerbSpec(verb, card, color, target, doc)
    known = _VERBS.get(verb)
    if known is not None and (known.card, known.color, known.target) != (card, color, target):
        raise ValueError(f"verb {verb!r} is already registered as {known}")
    if known is None:
        _VERBS[verb] = spec
    return _VERBS[verb]


def verb_spec(verb: str) -> VerbSpec:
    """The registered shape of ``verb`` (``KeyError`` if unknown)."""
    return _VERBS[verb]


register_verb("play", card=_REQUIRED, color=_OPTIONAL, target=_OPTIONAL, doc="play a card")
register_verb("draw", doc="draw for the turn or take a penalty draw")
register_verb("pass", doc="keep the card just drawn and end the turn")
register_verb("uno", doc='call "UNO"')
register_verb("catch", target=_REQUIRED, doc='catch a seat that did not call "UNO"')
register_verb("challenge", doc="challenge a Wild Draw Four")
register_verb("accept", doc="accept a Wild Draw Four and draw")
register_verb("color", color=_REQUIRED, doc="name the colour of a wild starter")


@attrs.frozen(eq=False, repr=False)
class Action:
    """One seat doing one thing: ``Action(1, "play", Card.parse("W+4"), Color.BLUE)``.

    Actions are interned like cards (equal actions are the same object), so
    checking one against a list of legal actions is an identity search.
    """

    seat: int
    verb: str
    card: Card | None = None
    color: Color | None = None
    target: int | None = None

    def __new__(
        cls,
        seat: int,
        verb: str,
        card: Card | None = None,
        color: Color | None = None,
        target: int | None = None,
    ) -> Action:
        key = (seat, verb, card, color, target)
        action = _INTERNED.get(key)
        if action is None:
            action = object.__new__(cls)
            for name, value in zip(_FIELDS, key, strict=True):
                object.__setattr__(action, name, value)
            _INTERNED[key] = action
        return action

    def __str__(self) -> str:
        parts = [f"{self.seat}: {self.verb}"]
        if self.card is not None:
            parts.append(str(self.card))
        if self.color is not None:
            parts.append(self.color.value)
        if self.target is not None:
            parts.append(str(self.target))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[int, str, Card | None, Color | None, int | None]]:
        # A module-level function (cloudpickle pickles it by reference); the
        # fields, not the text, so an action of a plugin's verb unpickles before
        # the plugin is imported. Unpickling returns the interned action.
        return (_unpickle_action, (self.seat, self.verb, self.card, self.color, self.target))

    @classmethod
    def of(
        cls,
        seat: int,
        verb: str,
        card: Card | None = None,
        color: Color | None = None,
        target: int | None = None,
    ) -> Action:
        """The interned action with these fields (no check of the verb's shape)."""
        action = _INTERNED.get((seat, verb, card, color, target))
        return cls(seat, verb, card, color, target) if action is None else action

    @classmethod
    def parse(cls, text: str, default_seat: int | None = None) -> Action:
        """Parse action notation such as ``"1: play W+4 B"`` (case-insensitive).

        Without a ``"<seat>:"`` prefix the action belongs to ``default_seat``;
        with neither, parsing fails.
        """
        if not isinstance(text, str):
            raise NotationError(f"action notation must be text such as '1: play R7', not {text!r}")
        body = text.strip()
        seat: int | None = default_seat
        if ":" in body:
            head, _, body = body.partition(":")
            try:
                seat = int(head.strip())
            except ValueError:
                raise NotationError(
                    f"bad seat {head.strip()!r} in action {text!r}: expected a number"
                ) from None
            if seat < 0:
                raise NotationError(f"bad seat {seat} in action {text!r}: seats count from 0")
        words = body.split()
        if not words:
            raise NotationError(f"empty action {text!r}: expected e.g. '1: play R7' or '2: draw'")
        if seat is None:
            raise NotationError(f"action {text!r} names no seat: write '<seat>: {body}'")
        verb = words[0].lower()
        spec = _VERBS.get(verb)
        if spec is None:
            raise NotationError(f"unknown verb {words[0]!r} in action {text!r}; verbs: {', '.join(_VERBS)}")
        card: Card | None = None
        color: Color | None = None
        target: int | None = None
        for word in words[1:]:
            if word.isdecimal():  # not isdigit: int() refuses digits such as "²"
                if target is not None:
                    raise NotationError(f"two seats in action {text!r}")
                target = int(word)
            elif (len(word) == 1 and word.upper() in "RYGB") or word.upper() in _COLOR_NAMES:
                if color is not None:
                    raise NotationError(f"two colours in action {text!r}")
                color = Color.parse(word)
            else:
                if card is not None:
                    raise NotationError(f"unexpected {word!r} in action {text!r}")
                try:
                    card = Card.parse(word)
                except NotationError as exc:
                    raise NotationError(f"in action {text!r}: {exc}") from None
        for label, value, presence in (
            ("a card", card, spec.card),
            ("a colour", color, spec.color),
            ("a seat", target, spec.target),
        ):
            if presence == _REQUIRED and value is None:
                raise NotationError(f"'{verb}' needs {label}: {text!r}")
            if presence == _ABSENT and value is not None:
                raise NotationError(f"'{verb}' takes no {label[2:]}: {text!r}")
        return cls.of(seat, verb, card, color, target)


_FIELDS = ("seat", "verb", "card", "color", "target")
_COLOR_NAMES = {"RED", "YELLOW", "GREEN", "BLUE"}
_INTERNED: dict[tuple[int, str, Card | None, Color | None, int | None], Action] = {}


def _unpickle_action(
    seat: int, verb: str, card: Card | None, color: Color | None, target: int | None
) -> Action:
    """The interned action of a pickle."""
    return Action.of(seat, verb, card, color, target)

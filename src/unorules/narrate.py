"""What happened, in words, from one seat's point of view.

Every event kind says how it reads (:attr:`~unorules.EventSpec.text`), and so
does every verb (:attr:`~unorules.actions.VerbSpec.text`); this module fills
those templates in for one reader, the seat whose view it is, or a spectator.
``unorules play``, ``unorules replay --step``, the server's feed and the
comments of game records all read their words from here.

>>> import unorules
>>> from unorules.narrate import narrate
>>> rules = unorules.Ruleset.from_names(["classic"])
>>> deck = "R1 G1 B1 R2 G2 B2 R3 G3 B3 R4 G4 B4 R5 G5 B5 R6 G6 B6 R7 G7 B7 Y9 Y5"
>>> state = rules.new_game(players=3, seed=1, deck=deck)
>>> [str(s) for s in narrate(state.public_view(), names=["Ann", "Bob", "Cy"])]
['Ann dealt round 1; the first card is yellow 9']
>>> drew = state.apply("1: draw")
>>> [str(s) for s in narrate(drew.view(1))]
['you drew yellow 5']
>>> [str(s) for s in narrate(drew.view(0), names=["Ann", "Bob", "Cy"])]
['Bob drew a card']

A :class:`Sentence` keeps its cards and colours as objects, so that a
terminal can show a card in its colours and a record in its notation:
``sentence.render(card=str)`` writes ``Y5`` where ``str(sentence)`` writes
"yellow 5".

How a template reads (the fields are the event's, or for a verb the
action's ``seat``, ``card``, ``color`` and ``target``):

=======================  ================================================================
``{seat}``               "you" for the reader's seat, else the player's name ("Ann"; "seat
                         2" when no names are given); ``{target}`` the same for the other
                         seat; "nobody" when the event names none
``{seat:'s}``            the possessive: "your", "Ann's"; ``{seat:their}`` "your", "their"
``{seat:was}``           a verb agreeing with the seat, written in the third person:
                         "were" for you, "was" for Ann (``{seat:has}``, ``{seat:draws}``
                         ...); ``{seat:is|are}`` names both forms
``{cards}``              the cards ("red 7 and blue 2"), or for a reader who may not see
                         them (a private draw) their count ("2 cards"); ``{cards[0]}`` one
``{count}``              the number; ``{count:card}`` "a card", "4 cards" (any noun)
``{color}``              the colour's name
``{data[NAME]}``         a value of ``event.data``: a number, a word (hyphens read as
                         spaces), a card, a colour, or a list of them; ``{data[NAME]:seat}``
                         reads a seat number as a seat, ``{data[NAME]:card}`` a number as
                         a count of cards
=======================  ================================================================
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from unorules.actions import Action, verb_spec
from unorules.cards import Card, Color
from unorules.display import display_of
from unorules.plugin import EventSpec
from unorules.ruleset import Ruleset
from unorules.state import Event, SeatView

__all__ = [
    "BOOKKEEPING",
    "CORE_MECHANICS",
    "Narrator",
    "Sentence",
    "TextError",
    "card_words",
    "color_words",
    "narrate",
    "relative_names",
]

Part = str | Card | Color
"""A piece of a :class:`Sentence`: words, a card or a colour."""

CORE_MECHANICS = frozenset({"deal", "draw", "reshuffle", "round-end"})
"""The event kinds the core's mechanics add to any action (dealing, drawing,
reshuffling, ending a round): never the description of the action itself."""

BOOKKEEPING = frozenset({"move", "show"})
"""The event kinds a step leaves out (:meth:`Narrator.step`): the core's
records of cards moving and hands shown, kept for programs that follow the
cards (:mod:`unorules.knowledge`). What they record the action and the other
events say already (a card played, a trade, a challenge's verdict); each still
reads in words on its own (:meth:`Narrator.event`)."""


def card_words(card: Card) -> str:
    """``card`` in words: "yellow 5", "red Draw Two", "Wild Draw Four"."""
    return card.name


def color_words(color: Color) -> str:
    """``color`` as a word: "red"."""
    return color.name.lower()


@attrs.frozen(slots=False)  # not slotted: the words are cached once made
class Sentence:
    """One thing that happened, in words: text with its cards and colours kept
    as objects (:attr:`parts`), so that each user interface shows them its way."""

    parts: tuple[Part, ...]
    """The words, cards and colours, in order."""

    def render(
        self,
        card: Callable[[Card], str] = card_words,
        color: Callable[[Color], str] = color_words,
        *,
        capital: bool = False,
    ) -> str:
        """The sentence as text: each card through ``card``, each colour through
        ``color`` (their names by default); ``capital`` upper-cases its first letter."""
        if card is card_words and color is color_words:
            out = self._words
        else:
            out = "".join(
                p if isinstance(p, str) else card(p) if isinstance(p, Card) else color(p) for p in self.parts
            )
        return out[:1].upper() + out[1:] if capital else out

    @functools.cached_property
    def _words(self) -> str:
        """The sentence with its cards' and colours' names, made once."""
        return "".join(
            p if isinstance(p, str) else card_words(p) if isinstance(p, Card) else color_words(p)
            for p in self.parts
        )

    def __str__(self) -> str:
        return self.render()


class TextError(ValueError):
    """A plugin's event or verb text that cannot be filled in (a field it does
    not have, a value it cannot say); raised only by a strict :class:`Narrator`."""


# -- the values a template is filled with ------------------------------------------------------

_MARK = "\x00"
_IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}


def _second_person(verb: str) -> str:
    """The form of a third-person verb that agrees with "you": draws -> draw."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if not verb.endswith("s") or verb.endswith("ss"):
        return verb  # past tense, a modal: one form
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return verb[:-2]
    return verb[:-1]


def _count(n: int, noun: str) -> str:
    if n == 1:
        return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"
    return f"{n} {noun}s"


def _listed(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class _Fill:
    """One filling-in of a template: the cards and colours met, in order."""

    def __init__(self, narrator: Narrator) -> None:
        self.narrator = narrator
        self.objects: list[Card | Color] = []

    def mark(self, obj: Card | Color) -> str:
        self.objects.append(obj)
        return f"{_MARK}{len(self.objects) - 1}{_MARK}"

    def parts(self, text: str) -> tuple[Part, ...]:
        out: list[Part] = []
        for k, piece in enumerate(text.split(_MARK)):
            if k % 2:
                out.append(self.objects[int(piece)])
            elif piece:
                out.append(piece)
        return tuple(out)


class _Seat:
    def __init__(self, fill: _Fill, seat: int | None) -> None:
        self.fill, self.seat = fill, seat

    def __format__(self, spec: str) -> str:
        narrator = self.fill.narrator
        you = self.seat is not None and self.seat == narrator.me
        if not spec:
            return narrator.name(self.seat)
        if spec == "'s":
            return "your" if you else f"{narrator.name(self.seat)}'s"
        if spec == "their":
            return "your" if you else "their"
        if "|" in spec:
            third, _, second = spec.partition("|")
            return second if you else third
        if not spec.replace(" ", "").isalpha():
            raise TextError(f"a seat reads as {{seat}}, {{seat:'s}} or {{seat:VERB}}, not {{seat:{spec}}}")
        return _second_person(spec) if you else spec


class _Cards:
    def __init__(self, fill: _Fill, cards: Sequence[Card], count: int | None) -> None:
        self.fill, self.cards, self.count = fill, tuple(cards), count

    def __getitem__(self, index: int) -> _Value:
        if not 0 <= index < len(self.cards):
            raise TextError(f"{{cards[{index}]}}: the event holds {len(self.cards)} cards here")
        return _Value(self.fill, self.cards[index])

    def __format__(self, spec: str) -> str:
        if spec:
            raise TextError(f"cards read as {{cards}} or {{cards[0]}}, not {{cards:{spec}}}")
        if self.cards:
            return _listed([self.fill.mark(c) for c in self.cards])
        if self.count is not None:
            return _count(self.count, "card")  # hidden from this reader: only how many
        return "no cards"


class _Value:
    def __init__(self, fill: _Fill, value: Any) -> None:
        self.fill, self.value = fill, value

    def __getitem__(self, index: int) -> _Value:
        if not isinstance(self.value, tuple) or not 0 <= index < len(self.value):
            raise TextError(f"[{index}]: the value {self.value!r} has no item {index}")
        return _Value(self.fill, self.value[index])

    def __format__(self, spec: str) -> str:
        value = self.value
        if spec == "seat":
            if isinstance(value, bool) or not isinstance(value, int | None):
                raise TextError(f"{{...:seat}} needs a seat number, not {value!r}")
            return self.fill.narrator.name(value)
        if isinstance(value, bool):
            raise TextError(
                f"a yes/no value ({value}) has no words of its own: give the event a text function "
                "that chooses the template by it"
            )
        if isinstance(value, int):
            return _count(value, spec) if spec else str(value)
        if spec:
            raise TextError(f"{{...:{spec}}} applies to numbers and seats, not {value!r}")
        if isinstance(value, Card | Color):
            return self.fill.mark(value)
        if isinstance(value, str):
            return value.replace("-", " ").replace("_", " ")
        if isinstance(value, tuple):
            return _listed([format(_Value(self.fill, v)) for v in value])
        if value is None:
            return "nothing"
        raise TextError(f"no words for the value {value!r}")


class _Data(Mapping[str, _Value]):
    def __init__(self, fill: _Fill, data: Sequence[tuple[str, Any]]) -> None:
        self.fill, self.data = fill, dict(data)

    def __getitem__(self, key: str) -> _Value:
        if key not in self.data:
            raise TextError(f"{{data[{key}]}}: this event has no value {key!r}")
        return _Value(self.fill, self.data[key])

    def __iter__(self) -> Any:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


# -- naming the seats --------------------------------------------------------------------------

_ORDINALS = ("", "", "second ", "third ", "fourth ", "fifth ")


def relative_names(players: int, me: int) -> list[str]:
    """Names of the ``players`` seats as ``me`` sees them around the table: "you", "the
    player to your left" (the next seat in the starting direction), "the
    player to your right", "the player opposite you" (four seats), "the
    second player to your left" ... Give them to :class:`Narrator` as ``names``."""
    names = []
    for seat in range(players):
        left = (seat - me) % players
        right = players - left
        if left == 0:
            names.append("you")
        elif players == 4 and left == 2:
            names.append("the player opposite you")
        elif left <= right:
            names.append(f"the {_ORDINALS[left]}player to your left")
        else:
            names.append(f"the {_ORDINALS[right]}player to your right")
    return names


# -- the narrator ------------------------------------------------------------------------------

_TOLD_LIMIT = 4096
"""The most sentences a rule set keeps made (a few kilobytes each: about 10 MB at most); when
it is full the older half is forgotten, so the sentences of the games being told stay."""


def _new_told(ruleset: Ruleset) -> dict[Any, Sentence]:
    return {}


def _keep(told: dict[Any, Sentence], key: Any, sentence: Sentence) -> Sentence:
    """Keep ``sentence`` in ``told`` under ``key``, within :data:`_TOLD_LIMIT` sentences."""
    if len(told) >= _TOLD_LIMIT:
        for old in list(itertools.islice(told, _TOLD_LIMIT // 2)):  # the oldest first
            told.pop(old, None)
    told[key] = sentence
    return sentence


class Narrator:
    """Says what happened in a game of ``ruleset``, for the reader ``me`` (a
    seat, or ``None`` for a spectator), naming seats by ``names`` (by seat
    number; "seat N" without them; "you" for ``me`` always).

    ``strict`` raises :class:`TextError` when a plugin's text cannot be filled
    in (tests want that); otherwise such an event reads as its kind and seat,
    so a user interface never fails on a plugin's words.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        me: int | None = None,
        names: Sequence[str] | None = None,
        *,
        strict: bool = False,
    ) -> None:
        self.ruleset = ruleset
        """The rule set whose events are told (its :attr:`~unorules.Ruleset.events`)."""
        self.me = me
        """The reader's seat, ``None`` for a spectator."""
        self.names = tuple(names) if names is not None else None
        """The players' names by seat, or ``None`` for "seat N"."""
        self.strict = strict
        """Whether a text that cannot be filled in raises :class:`TextError`."""

    def name(self, seat: int | None) -> str:
        """How ``seat`` is called: "you" for the reader, else its name."""
        if seat is None:
            return "nobody"
        if seat == self.me:
            return "you"
        if self.names is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"seat {seat}"

    def words(self, sentence: Sentence, *, capital: bool = False) -> str:
        """``sentence`` as text, each card named as the rule set shows it
        (:meth:`unorules.display.Display.card_name`: a plugin's own name for its card),
        ``capital``: its first letter upper-cased."""
        return sentence.render(display_of(self.ruleset).card_name, capital=capital)

    # -- one event, one action --------------------------------------------------------------

    def event(self, event: Event) -> Sentence:
        """``event`` in words (as the reader's view holds it: cards another seat
        drew privately are not in it, and read as their count)."""
        if self.strict:
            return self._event(event)
        told = self._told
        key = (event, self.me, self.names)
        found = told.get(key)
        if found is None:
            found = _keep(told, key, self._event(event))
        return found

    @property
    def _told(self) -> dict[Any, Sentence]:
        """The sentences of this rule set's events and actions told so far, by event (or
        action) and reader: games repeat them (a one-card draw, a play), and each is made once."""
        return self.ruleset.cached(("unorules.narrate", "told"), _new_told)

    def _event(self, event: Event) -> Sentence:
        spec = self.ruleset.events.get(event.kind)
        fill = _Fill(self)
        try:
            template = self._template(spec, event)
            if template:
                text = template.format(
                    seat=_Seat(fill, event.seat),
                    target=_Seat(fill, event.target),
                    cards=_Cards(fill, event.cards, event.count),
                    count=_Value(fill, event.count),
                    color=_Value(fill, event.color),
                    data=_Data(fill, event.data),
                )
                return Sentence(fill.parts(text))
        except (TextError, KeyError, IndexError, ValueError, AttributeError, TypeError) as exc:
            if self.strict:
                owner = self.ruleset.event_owners.get(event.kind, "?")
                raise TextError(f"event {event.kind!r} of plugin {owner!r}: {exc}") from None
        return self._fallback(event.kind, event.seat)

    def _template(self, spec: EventSpec | None, event: Event) -> str:
        if spec is None:
            if self.strict:
                raise TextError("no plugin of this rule set declares it")
            return ""
        text = spec.text
        if callable(text):
            text = text(event)
            if not isinstance(text, str):
                raise TextError(f"its text function returned {text!r}, not a template")
        if not text and self.strict:
            raise TextError("its EventSpec has no text: see 'Events in words' in docs/writing-plugins.rst")
        return text

    def _fallback(self, kind: str, seat: int | None) -> Sentence:
        words = kind.replace("-", " ").replace("_", " ")
        return Sentence((f"{words} ({self.name(seat)})" if seat is not None else words,))

    def action(self, action: Action, *, target: bool = True) -> Sentence:
        """``action`` in words: its verb's text, then the colour it names and
        the seat it chooses when the text does not say them (the seat not with
        ``target`` false: an event of the action names it)."""
        if self.strict:
            return self._action(action, target)
        told = self._told
        key = (action, target, self.me, self.names)
        found = told.get(key)
        if found is None:
            found = _keep(told, key, self._action(action, target))
        return found

    def _action(self, action: Action, target: bool) -> Sentence:
        fill = _Fill(self)
        try:
            spec = verb_spec(action.verb)
        except KeyError:
            spec = None
        template = spec.text if spec is not None else ""
        text = ""
        if template:
            try:
                text = template.format(
                    seat=_Seat(fill, action.seat),
                    target=_Seat(fill, action.target),
                    card=_Value(fill, action.card),
                    color=_Value(fill, action.color),
                )
            except (TextError, KeyError, IndexError, ValueError, AttributeError, TypeError) as exc:
                if self.strict:
                    raise TextError(f"verb {action.verb!r}: {exc}") from None
                template = ""
        if not template:
            words = [self.name(action.seat), action.verb.replace("_", " ")]
            if action.card is not None:
                words.append(fill.mark(action.card))
            text = " ".join(words)
            template = "{card}"
        if action.color is not None and "{color" not in template:
            text += f" and named {fill.mark(action.color)}"
        if target and action.target is not None and "{target" not in template:
            text += f", choosing {self.name(action.target)}"
        return Sentence(fill.parts(text))

    # -- a whole step ---------------------------------------------------------------------------

    def step(self, action: Action | None, events: Sequence[Event], *, own: bool = True) -> list[Sentence]:
        """What ``action`` did, given its ``events`` (as the reader's view holds
        them), one sentence per thing that happened, nothing said twice: the
        action's own sentence is left out when one of its events says it (a
        plugin's event by the same seat about the same card: a stack, a
        jump-in; a catch's "caught"), a seat's draws of one kind (for the turn,
        as a penalty) make one sentence each, and the draw for the turn says the
        ``draw`` action. ``action`` ``None`` (a fresh deal) tells the events;
        ``own`` false leaves out the action's own sentence (where the action
        is written already, as in a record). The events of
        :data:`BOOKKEEPING` (card movements, hands shown) are not told."""
        events = _merge_draws([e for e in events if e.kind not in BOOKKEEPING])
        out: list[Sentence] = []
        saying = None if action is None else next((e for e in events if _says(e, action)), None)
        if own and action is not None and saying is None:
            named = any(action.target in (e.seat, e.target) for e in events if e.kind not in CORE_MECHANICS)
            out.append(self.action(action, target=not named))
        for event in events:
            out.append(self.event(event))
            if event is saying and action is not None and action.color is not None and event.color is None:
                fill = _Fill(self)  # the event said the play, not the colour it named
                out.append(Sentence(fill.parts(f"{self.name(action.seat)} named {fill.mark(action.color)}")))
        return out

    def view(self, view: SeatView) -> list[Sentence]:
        """What the last action of ``view`` did (:meth:`step` of its last action
        and events), or for a fresh deal what the deal did."""
        return self.step(view.last_action, view.events)


def _reason(event: Event) -> Any:
    return event.value("reason", event.detail or "turn")


def _merge_draws(events: Sequence[Event]) -> list[Event]:
    """The events with each seat's draws in one action made one draw event, its
    penalty draws another (a reshuffle in the middle of a draw splits it in
    two; a plugin may draw more for the turn)."""
    merged: list[Event] = []
    at: dict[tuple[int | None, bool], int] = {}
    for event in events:
        if event.kind != "draw":
            merged.append(event)
            continue
        key = (event.seat, _reason(event) == "penalty")
        if key not in at:
            at[key] = len(merged)
            merged.append(event)
            continue
        first = merged[at[key]]
        count = (first.count if first.count is not None else len(first.cards)) + (
            event.count if event.count is not None else len(event.cards)
        )
        merged[at[key]] = attrs.evolve(first, cards=first.cards + event.cards, count=count)
    return merged


def _says(event: Event, action: Action) -> bool:
    """Whether ``event`` says what ``action`` was, so the action needs no sentence of its own."""
    if event.kind == "draw":
        return action.verb == "draw" and event.seat == action.seat
    if event.kind in CORE_MECHANICS:
        return False
    if action.verb == "play":
        return event.seat == action.seat and action.card in event.cards
    return action.seat in (event.seat, event.target)


def narrate(view: SeatView, names: Sequence[str] | None = None) -> list[Sentence]:
    """What the last action of ``view`` did, in words for the view's seat (or a
    spectator), seats named by ``names``: :meth:`Narrator.view` with the view's
    rule set."""
    return Narrator(view.rules, view.seat, names).view(view)

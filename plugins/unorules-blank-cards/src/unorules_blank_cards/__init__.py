"""Blank cards: the four blank cards of the older edition (R-BLANK, R-DECK-BLANK).

Enable it next to ``classic``::

    unorules.Ruleset.from_names(["classic", "blank-cards"], options={"blank_cards": "Y7"})

Rules
-----

R-DECK-BLANK
    The older edition [CZ] is the classic 108 cards plus 4 blank cards.
R-BLANK
    A blank card can replace a lost card: written e.g. "yellow 7", it **is**
    that card. Or it carries a house rule and is laid beside the deck [CZ].
R-SCORE
    [CZ] prints "?" for the points of a blank card: option ``blank_points``.
    A replacement scores as the card written on it (it *is* that card), so
    ``blank_points`` only counts for house-rule blanks in play.

Options
-------

``blank_cards`` (default: none, i.e. all four blanks aside)
    What is written on the blanks: up to four entries, as text separated by
    spaces or commas (``"Y7 W aside"``) or as a list. Each entry is

    * a card in notation (``Y7``, ``B+2``, ``W``, ``SW`` ...): the blank
      **replaces** that card. It plays, matches, acts and scores as that card,
      and it is written as that card; the library does not tell the copies
      apart, since no rule does. The card must be one the rule set's deck holds
      (a blank replaces a card, it does not invent one);
    * ``aside``: the blank is laid beside the deck and takes no part in the
      game ([CZ]'s blank carrying a house rule; also a blank left unused);
    * ``house-rule``: the blank carrying a house rule is shuffled **into** the
      deck instead (see the decisions below) as the card ``BLANK``.

    Blanks not listed are ``aside``.
``lost_cards`` (default: none)
    Cards missing from the deck, lost or damaged (same notation, same forms).
    Each is taken out of the deck when the rule set is built. A lost ``Y7``
    with ``blank_cards="Y7"`` gives back the complete deck, one ``Y7`` of which
    is the blank; a replacement without a lost card is an extra copy.
``blank_points`` (default ``40``)
    Points of a ``BLANK`` (house-rule) card left in a hand (R-SCORE); any whole
    number from 0.

Notation
--------

A replacement is written as the card on it. A house-rule blank is the wild kind
``BLANK``, played with a colour like a Wild::

    0: play BLANK Y       seat 0 plays a house-rule blank and names yellow

The plugin adds no phases and no verbs.

Decisions where the rules are silent
------------------------------------

* **Round length.** House-rule blanks are cards more to get rid of: the plugin
  declares ``testing = TestHints(round_length_factor=1.5)`` (random play at ten seats took 1.4
  times as many actions per round as classic alone), so the testing toolkit's
  bound on a round grows accordingly.

* **Blanks set aside** are not part of ``ruleset.deck``: they are never dealt
  or drawn, and the game's card count is the deck's (``blanks_aside(ruleset)``
  says how many there are).
* **A house-rule blank in play.** [CZ] lays a house-rule blank beside the deck,
  and [CZ] gives a blank points ("?"), which only matters for a blank that
  can end in a hand. With ``house-rule`` the blank is a wild card: it is
  playable on any card, its player names the colour, and the table applies the
  rule written on it by hand; the library records a ``house-rule`` event and
  passes the turn. Its behaviour is that of the 2015 edition's blank
  "joker" wild ([E15] HU: "Üres joker kártya"), which is also why
  ``blank_points`` defaults to that card's 40. A program that wants the rule
  carried out can use the ``custom-wilds`` plugin's customizable wilds instead.
* **Starter, last card.** A ``BLANK`` starter is a colourless starter: the
  first player names the colour (R-SETUP-STARTER). Played as the last card it
  ends the round like any card (R-OUT).
* **Validation.** Unknown entries, more than four blanks, a replacement for a
  card the deck does not hold, a lost card the deck does not hold and a
  negative ``blank_points`` are refused when the rule set is built.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterable, Mapping
from typing import Any, ClassVar

from unorules import (
    Action,
    Card,
    CardLook,
    Display,
    Draft,
    Event,
    EventSpec,
    GameState,
    NotationError,
    Option,
    Plugin,
    Ruleset,
    RulesetError,
    TestHints,
    hookimpl,
    register_kind,
)

__all__ = ["BLANK", "BLANKS", "BlankCardsPlugin", "blanks_aside", "plugin"]

register_kind("BLANK", "Blank", wild=True)

BLANK = Card.parse("BLANK")
"""A blank card carrying a house rule, in play (notation ``BLANK``)."""

BLANKS = 4  # R-DECK-BLANK: four blank cards [CZ]
ASIDE = "aside"
HOUSE_RULE = "house-rule"


def _entries(value: Any, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        items: list[Any] = value.replace(",", " ").split()
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise ValueError(f"{what}: expected text such as 'Y7 W' or a list, not {value!r}")
    words: list[str] = []
    for item in items:
        if isinstance(item, Card):
            words.append(str(item))
            continue
        if not isinstance(item, str):
            raise ValueError(f"{what}: {item!r} is not a card or a word")
        word = item.strip().lower()
        if word in (ASIDE, HOUSE_RULE):
            words.append(word)
            continue
        try:
            words.append(str(Card.parse(word)))
        except NotationError as exc:
            raise ValueError(f"{what}: {exc}") from None
    return tuple(words)


def check_blank_cards(value: Any) -> tuple[str, ...]:
    """Validate option ``blank_cards``: up to four cards, ``aside`` or ``house-rule``."""
    entries = _entries(value, "blank_cards")
    if len(entries) > BLANKS:
        raise ValueError(f"{len(entries)} entries, but there are only {BLANKS} blank cards")
    if "BLANK" in entries:
        raise ValueError("a blank cannot replace a blank: write 'house-rule' for a blank in play")
    return entries


def check_lost_cards(value: Any) -> tuple[str, ...]:
    """Validate option ``lost_cards``: cards in notation."""
    entries = _entries(value, "lost_cards")
    words = [e for e in entries if e in (ASIDE, HOUSE_RULE)]
    if words:
        raise ValueError(f"{words[0]!r} is not a card")
    return entries


def check_points(value: Any) -> int:
    """Validate option ``blank_points``: a whole number from 0."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{value!r} is not a whole number from 0")
    return value


def blanks_aside(ruleset: Ruleset) -> int:
    """How many of the four blank cards are laid beside the deck, out of play."""
    entries = ruleset.options["blank_cards"]
    return BLANKS - sum(1 for e in entries if e != ASIDE)


class BlankCardsPlugin(Plugin):
    """The older edition's 4 blank cards: replace lost cards or carry house rules (R-BLANK).

    The four blank cards: replacements for lost cards, house rules aside or in play.
    """

    name = "blank-cards"
    api_version = 2
    verbs: ClassVar[Mapping[str, str]] = {"play": "turn"}
    events = (
        EventSpec(
            "house-rule",
            "a Blank card was played: the table applies the rule written on it (R-BLANK)",
            (("seat", "the seat that played it"), ("cards", "the Blank card")),
            "{seat} played {cards}: the table applies the house rule written on it",
        ),
    )
    requires = ("classic",)
    rules = ("R-BLANK", "R-DECK-BLANK", "R-SCORE", "R-SETUP-STARTER")
    # For unorules.testing: random play at ten seats took 1.4 times as many
    # actions per round as under classic alone (four cards more to get rid of).
    testing = TestHints(round_length_factor=1.5)
    options = (
        Option(
            "blank_cards",
            (),
            "what is written on the 4 blanks: a card each replaces, 'aside' or 'house-rule' (R-BLANK)",
            check_blank_cards,
            "up to 4 of: a card in notation (e.g. Y7), aside, house-rule",
        ),
        Option(
            "lost_cards",
            (),
            "cards missing from the deck, which blanks may replace (R-BLANK)",
            check_lost_cards,
            "cards in notation, e.g. 'Y7 B+2'",
        ),
        Option(
            "blank_points",
            40,
            "points of a house-rule blank in a hand ([CZ] prints '?') (R-SCORE)",
            check_points,
            "a whole number from 0",
        ),
    )

    @hookimpl
    def display(self, ruleset: Ruleset) -> Display:
        # how the card looks at a table
        return Display(cards=(CardLook("BLANK", symbol="?", label="Blank"),))

    @hookimpl(wrapper=True)
    def deck_cards(self, ruleset: Ruleset) -> Generator[None, list[Iterable[Card]], list[Iterable[Card]]]:
        # R-DECK-BLANK / R-BLANK: this wraps every plugin's deck so that blanks
        # can replace cards the deck holds and lost cards can be taken out.
        decks = [list(cards) for cards in (yield)]
        held = Counter(c for cards in decks for c in cards)
        entries = ruleset.options["blank_cards"]
        mine: list[Card] = []
        for entry in entries:
            if entry == ASIDE:
                continue
            if entry == HOUSE_RULE:
                mine.append(BLANK)
                continue
            card = Card.parse(entry)
            if not held[card]:
                known = " ".join(sorted({str(c) for c in held}))
                raise RulesetError(
                    f"option blank_cards: a blank replaces a card of the deck, and this rule set's deck "
                    f"holds no {card} (R-BLANK); its cards: {known}"
                )
            mine.append(card)
        for entry in ruleset.options["lost_cards"]:
            card = Card.parse(entry)
            for cards in decks:
                if card in cards:
                    cards.remove(card)
                    break
            else:
                raise RulesetError(
                    f"option lost_cards: this rule set's deck holds no{' more' if held[card] else ''} "
                    f"{card} to lose ({held[card]} in the deck)"
                )
        # Call order is last-registered first, and this plugin comes after the
        # plugins it wraps: its cards go first in the list.
        return [mine, *decks]

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        # R-SCORE: [CZ] "?"; a replacement scores as its card (its own plugin says how much).
        return int(ruleset.options["blank_points"]) if card is BLANK else None

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        if action.card is not BLANK:
            return None
        seat = action.seat
        if draft.going_out(seat) is not None:
            return None  # its last card (R-OUT): the core ends the round, or its player left it
        # R-BLANK: the table applies the house rule written on it (docstring).
        draft.add_event(
            Event("house-rule", seat, (BLANK,), "R-BLANK", "the table applies the rule written on the blank")
        )
        draft.pass_turn(1, seat)
        return True


plugin = BlankCardsPlugin()
"""The plugin object the ``unorules`` entry point ``blank-cards`` names."""

"""Shuffle Hands: the special wild of the Polish 2015 edition (R-SHUFFLE).

Enable it next to ``classic``::

    unorules.Ruleset.from_names(["classic", "shuffle-hands"])

The Polish 112-card deck ([PL]: Shuffle Hands in the place of Swap Hands, and
the three customizable wilds) is one line away::

    unorules.Ruleset.from_names(["classic", "shuffle-hands", "custom-wilds"])

Rules
-----

R-SHUFFLE
    Its player collects every player's hand, shuffles them together with the
    game's generator and deals them all out, one at a time, starting with the
    player to their left. All cards are dealt, so hand sizes may change. Play
    continues in the same direction with the next player; its player names the
    colour. It is a wild (R-TURN-WILD).
R-SETUP-STARTER
    Turned as the starter, the first player names the colour and the hands are
    not shuffled (the classic plugin does this for every colourless starter
    other than a Wild Draw Four).
R-SCORE
    Worth 40 points. No source gives a value for this card: 40 is this
    library's choice, the value of the Swap Hands card it replaces [E15].
R-DECK-112
    Adds one card to the deck ([PL]: in the place of Swap Hands).

Notation
--------

The card is ``SH`` (a wild kind: no colour letter). It is played with a colour
and no seat::

    1: play SH Y          seat 1 plays Shuffle Hands and names yellow

The plugin adds no phases and no verbs.

Options
-------

``with_swap_hands`` (default ``off``)
    Whether this card may be combined with the ``swap-hands`` plugin.

Decisions where the rules are silent
------------------------------------

* **Shuffle Hands and Swap Hands.** [E15] and [PL] print the same card slot of
  the 112-card deck differently: Swap Hands in the one, Shuffle Hands in the
  other (the rules reference, "Where the sources disagree"; the choice is made by the
  plugin chosen, ``swap-hands`` or ``shuffle-hands``). A rule set naming both
  plugins is refused when it is built, since that is most likely a mistake,
  unless ``with_swap_hands`` is ``on``: then the table wants both cards and the
  deck holds both (113 cards with ``custom-wilds``).
* **Who is dealt first, and how.** The hands are dealt one card at a time to
  the left (seat +1) starting with the player left of the card's player, who is
  dealt to last, whatever the direction of play, as the dealer deals a round
  (R-SETUP-DEAL). With ``N`` cards and ``k`` seats still in the game, the first
  ``N mod k`` seats dealt to get one card more. Every seat gets at least one:
  each seat held a card, or the round would have ended.
* **The last card.** A Shuffle Hands played as its player's last card ends the
  round at once (R-OUT): its player has gone out and the hands are not
  shuffled, as for a Swap Hands (and a 7 or 0 of ``seven-o`` played last).
* **UNO after a shuffle.** UNO calls follow the cards (the core's rule for
  every change of hands, ``GameState.set_hands``): every seat whose hand
  changed loses any UNO call made for the hand it held, and is no longer open
  to a catch: it no longer holds the card it played down to, and a seat that
  is merely dealt one card did not play its next-to-last card (R-UNO-CALL,
  R-UNO-CATCH). So a seat that called UNO holding two cards, then drew instead
  of playing, and is dealt a new two-card hand must call again before playing
  down to one card, or be caught. (A seat dealt exactly the cards it held, in
  the same order, keeps its call and exposure: nothing changed for it.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import chain
from typing import ClassVar

from unorules import (
    Action,
    Card,
    CardLook,
    Display,
    Draft,
    Event,
    EventSpec,
    GameState,
    Option,
    Plugin,
    Ruleset,
    RulesetError,
    hookimpl,
    register_kind,
    switch,
)

__all__ = ["SHUFFLE_HANDS", "ShuffleHandsPlugin", "plugin", "shuffle_hands"]

register_kind("SH", "Shuffle Hands", wild=True)

SHUFFLE_HANDS = Card.parse("SH")
"""The Shuffle Hands card (notation ``SH``)."""

POINTS = 40  # R-SCORE: the library's choice (Swap Hands' value); no source values this card


class ShuffleHandsPlugin(Plugin):
    """The Polish edition's Shuffle Hands wild: gather, shuffle and redeal all hands (R-SHUFFLE).

    Adds the Shuffle Hands wild: every hand gathered, shuffled and dealt out again.
    """

    name = "shuffle-hands"
    api_version = 2
    verbs: ClassVar[Mapping[str, str]] = {"play": "turn"}
    events = (
        EventSpec(
            "shuffle-hands",
            "every hand was gathered, shuffled and dealt out again (R-SHUFFLE)",
            (
                ("seat", "the seat that played Shuffle Hands"),
                ("count", "how many cards were dealt"),
                ("data.sizes", "each seat's new hand size"),
            ),
            "{seat} gathered every hand, shuffled the {count} cards together and dealt them out again",
        ),
    )
    requires = ("classic",)
    rules = ("R-SHUFFLE", "R-DECK-112", "R-SETUP-STARTER", "R-SCORE")
    options = (
        Option(
            "with_swap_hands",
            False,
            "allow the swap-hands plugin too: both cards in the deck (one slot in [E15]/[PL])",
            switch,
            "on, off",
        ),
    )

    @hookimpl
    def display(self, ruleset: Ruleset) -> Display:
        # how the card looks at a table
        return Display(cards=(CardLook("SH", symbol="✣", label="Shuffle"),))

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return (SHUFFLE_HANDS,)  # R-DECK-112 [PL]: one Shuffle Hands card

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return POINTS if card is SHUFFLE_HANDS else None  # R-SCORE

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        # R-DECK-112: one card slot holds Swap Hands [E15] or Shuffle Hands [PL].
        if "swap-hands" in ruleset.names and not ruleset.options["with_swap_hands"]:
            raise RulesetError(
                "plugins 'shuffle-hands' and 'swap-hands' both fill the 2015 deck's one special slot "
                "(Swap Hands [E15], Shuffle Hands [PL]): keep one of them, "
                "or set option with_swap_hands=on to play with both cards"
            )

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        if action.card is not SHUFFLE_HANDS:
            return None
        seat = action.seat
        if draft.going_out(seat) is not None:
            # Decision (docstring): the last card ends the round and nothing is
            # shuffled; the core ends it (R-OUT), the base rule set passes the turn
            # when its player only left the round.
            return None
        shuffle_hands(draft, seat)
        draft.pass_turn(1, seat)
        return True


def shuffle_hands(draft: Draft, seat: int) -> None:
    """Every hand is gathered, shuffled and dealt out again one card at a time
    to the left, starting left of ``seat`` (R-SHUFFLE).

    Seats that left the game are skipped; the game's generator shuffles. The
    draft's :meth:`~unorules.Draft.set_hands` deals the hands, so every seat
    whose hand changed loses its UNO call and its exposure (R-UNO-CALL,
    R-UNO-CATCH).
    """
    hands = draft.hands
    players = len(hands)
    left = draft.left
    order = [(seat + i) % players for i in range(1, players + 1)]
    if left:
        order = [s for s in order if s not in left]
    gathered = list(chain.from_iterable(map(hands.__getitem__, order)))
    draft.shuffle(gathered)
    # Dealt one at a time in ``order``: the j-th seat of the order gets every
    # k-th card from the j-th on.
    k = len(order)
    dealt = {s: gathered[j::k] for j, s in enumerate(order)}
    sizes = ", ".join(f"seat {s}: {len(dealt[s])}" for s in sorted(order))
    draft.set_hands(dealt)  # UNO calls follow the cards (R-UNO-CALL, R-UNO-CATCH)
    draft.add_event(
        Event(
            "shuffle-hands",
            seat,
            (),
            "R-SHUFFLE",
            f"hands dealt: {sizes}",
            count=len(gathered),
            data=(("sizes", tuple(len(dealt[s]) if s in dealt else len(hands[s]) for s in range(players))),),
        )
    )


plugin = ShuffleHandsPlugin()
"""The plugin object the ``unorules`` entry point ``shuffle-hands`` names."""

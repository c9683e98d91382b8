"""Swap Hands: the special wild of the 2015 edition (R-SWAP).

Enable it next to ``classic``::

    unorules.Ruleset.from_names(["classic", "swap-hands"])

The whole 112-card deck of the 2015 edition (R-DECK-112: the classic 108, this
card and the three customizable wilds) is one line away::

    unorules.Ruleset.from_names(["classic", "swap-hands", "custom-wilds"])

(``custom-wilds`` deals all three customizable wilds unless its option
``customizable_wilds`` says fewer.)

Rules
-----

R-SWAP
    Its player swaps their whole hand with any other player of their choice and
    names the colour. It is a wild: it may be played on any card, even when
    another card could be played (R-TURN-WILD). Then the turn passes to the next
    player in the direction of play.
R-SETUP-STARTER
    Turned as the starter, the first player names the colour and nobody swaps;
    the classic plugin does this for every colourless starter other than a Wild
    Draw Four.
R-SCORE
    Worth 40 points in a hand at the end of a round [E15].
R-DECK-112
    Adds one card to the deck.

Notation
--------

The card is ``SW`` (a wild kind: no colour letter). Playing it names a colour
and the seat to swap with, in the foundation's action notation::

    2: play SW G 0        seat 2 plays Swap Hands, names green, swaps with seat 0

``state.play_actions(seat, card)`` lists one action per colour and other seat
still in the game. The plugin adds no phases and no verbs.

Decisions where the rules are silent
------------------------------------

* **The last card.** A Swap Hands played as its player's last card ends the
  round at once (R-OUT): its player has gone out and **no hands move**; the
  seat named is ignored. This is the same decision as ``seven-o``'s for a 7
  or 0 played as the last card, and it is what the card's text implies: the
  player has no hand left to swap.
* **UNO after a swap.** UNO calls follow the cards (the core's rule for
  every change of hands, ``GameState.move_hands``): the two seats that traded
  lose any UNO call made for the hands they held, and neither is open to a
  catch afterwards. A seat that played down to one card without calling and
  traded it away no longer holds that card; the seat that receives a
  one-card hand did not play its next-to-last card (R-UNO-CALL,
  R-UNO-CATCH). So a seat that called UNO holding two cards, then drew
  instead of playing, and is swapped a new two-card hand must call again
  before playing down to one card, or be caught. Seats not in the trade keep
  their calls and exposure.
* **Combining with Shuffle Hands.** The 2015 deck has one card in this slot:
  Swap Hands [E15] or Shuffle Hands [PL] (a difference between the sources, which
  this library expresses by the plugin chosen). The ``shuffle-hands`` plugin
  refuses to be combined with this one unless its option ``with_swap_hands``
  is on, in which case both cards are in the deck.

Options
-------

None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
    Plugin,
    Ruleset,
    hookimpl,
    register_kind,
)

__all__ = ["SWAP_HANDS", "SwapHandsPlugin", "plugin", "swap_hands"]

register_kind("SW", "Swap Hands", wild=True)

SWAP_HANDS = Card.parse("SW")
"""The Swap Hands card (notation ``SW``)."""

POINTS = 40  # R-SCORE [E15]


class SwapHandsPlugin(Plugin):
    """The 2015 edition's Swap Hands wild: trade hands with any other player (R-SWAP).

    Adds the Swap Hands wild: trade hands with a seat of your choice.
    """

    name = "swap-hands"
    api_version = 2
    verbs: ClassVar[Mapping[str, str]] = {"play": "turn"}
    events = (
        EventSpec(
            "swap-hands",
            "two seats traded hands (R-SWAP)",
            (
                ("seat", "the seat that played Swap Hands"),
                ("target", "the seat it traded with"),
                ("data.received", "how many cards the player received"),
                ("data.given", "how many cards it gave"),
            ),
            "{seat} swapped hands with {target}",
        ),
    )
    requires = ("classic",)
    rules = ("R-SWAP", "R-DECK-112", "R-SETUP-STARTER", "R-SCORE")

    @hookimpl
    def display(self, ruleset: Ruleset) -> Display:
        # how the card looks at a table
        return Display(cards=(CardLook("SW", symbol="⇆", label="Swap"),))

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return (SWAP_HANDS,)  # R-DECK-112: one Swap Hands card

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return POINTS if card is SWAP_HANDS else None  # R-SCORE: 40 [E15]

    @hookimpl
    def card_needs_target(self, ruleset: Ruleset, card: Card) -> bool | None:
        # R-SWAP: its player names the seat to swap with ("play SW G 0").
        return True if card is SWAP_HANDS else None

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        if action.card is not SWAP_HANDS:
            return None
        seat = action.seat
        if draft.going_out(seat) is not None:
            # Decision (docstring): the last card ends the round and no hands
            # move; the core ends it (R-OUT), the base rule set passes the turn
            # when its player only left the round.
            return None
        target = action.target
        assert target is not None
        swap_hands(draft, seat, target)
        draft.pass_turn(1, seat)
        return True

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        # Only a Swap Hands play by the seat to move, holding the card, with a
        # missing or impossible seat is explained here; classic explains the rest.
        if action.card is not SWAP_HANDS or action.verb != "play":
            return None
        seat = action.seat
        if seat != state.current_player or SWAP_HANDS not in state.hands[seat]:
            return None
        target = action.target
        if target is None:
            example = f"play SW {action.color or 'R'} {state.next_seat(seat)}"
            return "R-SWAP", f"name the seat to swap hands with, e.g. '{example}'"
        if target == seat or not 0 <= target < state.players or target in state.left:
            others = ", ".join(str(s) for s in state.active_seats if s != seat)
            return "R-SWAP", f"seat {target} cannot be swapped with; choose one of seats {others}"
        return None


def swap_hands(draft: Draft, seat: int, target: int) -> None:
    """The hands of ``seat`` and ``target`` are traded (R-SWAP), with a
    ``swap-hands`` event.

    The draft's :meth:`~unorules.Draft.set_hands` moves them, so UNO calls
    follow the cards: both seats lose a call made for the hand they held, and
    neither stays open to a catch (R-UNO-CALL, R-UNO-CATCH).
    """
    hands = draft.hands
    key = (seat, target, len(hands[seat]), len(hands[target]))
    draft.set_hands({seat: hands[target], target: hands[seat]})
    draft.add_event(_SWAPS.get(key) or _swap_event(key))


_SWAPS: dict[tuple[int, int, int, int], Event] = {}
"""The ``swap-hands`` event of each swap, by seat, target and the sizes of
their hands (events are frozen values: shared, as the core shares one-card
draw events)."""


def _swap_event(key: tuple[int, int, int, int]) -> Event:
    seat, target, given, received = key
    event = Event(
        "swap-hands",
        seat,
        (),
        "R-SWAP",
        f"seat {seat} ({received} cards) and seat {target} ({given} cards) traded hands",
        target=target,
        data=(("given", given), ("received", received)),
    )
    if len(_SWAPS) < 10_000:
        _SWAPS[key] = event
    return event


plugin = SwapHandsPlugin()
"""The plugin object the ``unorules`` entry point ``swap-hands`` names."""

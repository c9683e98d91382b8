"""Deliberately broken plugins, each breaking one invariant, for the toolkit's tests.

Each is a small house rule on top of ``classic`` (plugin API version 2: its
hooks write the next state through the :class:`~unorules.Draft` they are
given) with one realistic bug. The tests show that the invariant functions,
the state machine and the conformance runner catch each one, and that the
replay they print reproduces the failure.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable, Sequence
from typing import Any, ClassVar

from unorules import (
    COLORS,
    Action,
    Card,
    CardEffect,
    Draft,
    Event,
    EventSpec,
    ExtraSpec,
    GameState,
    GoingOut,
    Plugin,
    Ruleset,
    TestHints,
    hookimpl,
    register_kind,
    register_verb,
)
from unorules.testing.scenario import Scenario

register_verb(
    "dance",
    doc="a verb the DancesWithoutSteps test plugin lists but cannot carry out",
    text="{seat} danced",
)


class LosesFives(Plugin):
    """Bug: a played 5 vanishes instead of staying on the discard pile (breaks ``cards``)."""

    name = "loses-fives"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        if card is None or card.kind != "5" or not draft.hands[action.seat]:
            return None
        draft.take_from_discard_pile(1)  # the bug: the card taken off the pile is put nowhere
        draft.pass_turn(1, action.seat)
        return True


class StallsDraws(Plugin):
    """Bug: drawing for the turn passes the turn without drawing, so players
    who all draw go round in a circle and the round never ends (breaks ``rounds``)."""

    name = "stalls-draws"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        if action.verb == "draw" and draft.phase.name == "play":
            draft.pass_turn(1, action.seat)
            return True
        return None


class CountsRefusals(Plugin):
    """Bug: explaining a refusal writes to the state it was asked about (breaks ``pure``)."""

    name = "counts-refusals"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        object.__setattr__(state, "stalled", state.stalled + 1)
        return None


class RandomSkips(Plugin):
    """Bug: a Skip skips a seat chosen with Python's ``random``, not the game's
    generator, so a game does not replay (breaks ``replay``)."""

    name = "random-skips"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        if card is None or card.kind != "S" or not draft.hands[action.seat]:
            return None
        draft.pass_turn(random.choice((1, 2)), action.seat)
        return True


class RemembersDraws(Plugin):
    """Bug: the plugin object counts draws itself; every third draw draws two.
    Two equal states (a state and its JSON copy) then play on differently
    (breaks ``json`` and ``replay``)."""

    name = "remembers-draws"
    api_version = 2
    requires = ("classic",)

    def __init__(self) -> None:
        self.draws = 0

    @hookimpl
    def on_draw(self, draft: Draft, seat: int, cards: tuple[Card, ...], reason: str) -> None:
        if reason != "turn":
            return
        self.draws += 1
        if self.draws % 3 == 0:
            draft.draw(seat, 1, "remembered")


class StoresAFloat(Plugin):
    """Bug: keeps a float in ``state.extras``, which JSON cannot hold (breaks ``json``)."""

    name = "stores-a-float"
    api_version = 2
    requires = ("classic",)
    extras = (ExtraSpec("stores-a-float", "a number kept as a float"),)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> None:
        if draft.extra("stores-a-float") is None:
            draft.set_extra("stores-a-float", 0.5)  # the next plugin (classic) applies the card's effect


class DrawsForTheNextSeat(Plugin):
    """Bug: lists a draw for the seat after the one to move (breaks ``turn``)."""

    name = "draws-for-next"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        if state.phase.name != "play":
            return ()
        return (Action.of(state.next_seat(), "draw"),)


class NothingAfterDrawing(Plugin):
    """Bug: a wrapper meant to drop ``pass`` after a draw drops every action (breaks ``legal``)."""

    name = "nothing-after-drawing"
    api_version = 2
    requires = ("classic",)

    @hookimpl(wrapper=True)
    def legal_actions(
        self, state: GameState
    ) -> Generator[None, list[Sequence[Action]], list[Sequence[Action]]]:
        lists = yield
        return [] if state.phase.name == "drawn" else lists


class DancesWithoutSteps(Plugin):
    """Bug: lists a ``dance`` action that no plugin carries out (breaks ``accepted``)."""

    name = "dances-without-steps"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        if state.phase.name == "play" and len(state.hands[state.current_player]) == 7:
            return (Action.of(state.current_player, "dance"),)
        return ()


class ExplainsBadly(Plugin):
    """Bug: explaining a refused ``draw`` raises ``KeyError`` instead of saying why (breaks ``refused``)."""

    name = "explains-badly"
    api_version = 2
    requires = ("classic",)

    @hookimpl(tryfirst=True)
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        if action.verb == "draw":
            raise KeyError(action.verb)
        return None


class ShowsAGhost(Plugin):
    """Bug: shows every seat the hand of a seat that does not exist (breaks ``view``)."""

    name = "shows-a-ghost"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def visible_hands(self, state: GameState, seat: int) -> Iterable[int]:
        return (state.players,)


class _SetsAsideAtTheDeal(Plugin):
    """At every deal, keeps the top card of the draw pile out of play (in
    ``state.extras``), without saying so."""

    api_version = 2
    requires = ("classic",)
    extras = (ExtraSpec("aside", "the card set aside at the deal"),)

    @hookimpl(wrapper=True)
    def on_starter(self, draft: Draft) -> Generator[None, bool | None, bool | None]:
        started = yield  # classic turns the starter up (and returns a Wild Draw Four)
        # Each deal shuffles the whole deck again, the card set aside last round included.
        (card,) = draft.take_from_draw_pile(1)
        draft.set_extra("aside", card)
        return started


class SetsAsideACard(_SetsAsideAtTheDeal):
    """Not a bug: at every deal, keeps the top card of the draw pile out of
    play (in ``state.extras``) and says so with the ``set_aside_cards`` hook,
    so ``cards`` still holds."""

    name = "sets-aside"

    @hookimpl
    def set_aside_cards(self, state: GameState) -> Iterable[Card]:
        card: Any = state.extra("aside")
        return () if card is None else (card,)


class ForgetsTheSetAside(_SetsAsideAtTheDeal):
    """Bug: sets a card aside without declaring it in ``set_aside_cards`` (breaks ``cards``)."""

    name = "forgets-aside"


class CrashesAtTheDeal(Plugin):
    """Bug: looks up a card it never put in the deck when a round is dealt (a crash, not a violation)."""

    name = "crashes-at-the-deal"
    api_version = 2
    requires = ("classic",)

    @hookimpl(tryfirst=True)
    def on_starter(self, draft: Draft) -> bool | None:
        draft.put_on_discard_pile([Card.parse("X1")])
        return True


class SkipsWithoutGoingOut(Plugin):
    """Bug: a house rule "a last Skip does not end the round" answers ``going_out``
    with ``GoingOut(ends=False)`` but forgets to take the seat out of the round
    (``draft.leave``), so a seat whose last card is a Skip stays in a round that goes
    on with no cards (breaks ``hands``). Since the core decides going out in one
    place, a card effect can no longer make this mistake: only an answer about
    going out can."""

    name = "skips-without-going-out"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def going_out(self, draft: Draft, seat: int) -> GoingOut | None:
        if draft.top_card.kind != "S":
            return None
        return GoingOut(ends=False)


class NeverGoesOut(Plugin):
    """Bug: a seat that plays its last card draws a new one instead of going out (its
    ``going_out`` answer keeps the round going and deals the seat a card), so no
    round can ever end; the draws reshuffle the pile with the game's generator, so
    states do not repeat either (breaks ``rounds``: only the bound on a round's
    length, and eager play failing to end it, show it)."""

    name = "never-goes-out"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def going_out(self, draft: Draft, seat: int) -> GoingOut | None:
        draft.draw(seat, 1, "penalty")
        return GoingOut(ends=False)


# -- Discard All: a card plugin as a new author writes it from the docs (issue 32) -----------

register_kind("DA", "Discard All", wild=False)


class DiscardAll(Plugin):
    """Discard All: a coloured card whose player also discards every other card
    of its colour, under it (a plugin written from the docs, correct)."""

    name = "discard-all"
    api_version = 2
    requires = ("classic",)
    events = (
        EventSpec(
            "discard-all",
            "a Discard All was played: its player discarded every other card of its colour",
            (("seat", "the player"), ("cards", "the cards discarded"), ("count", "how many")),
            "{seat} discarded {cards} under the Discard All",
        ),
    )

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return [Card.of(color, "DA") for color in COLORS]

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return 30 if card.kind == "DA" else None

    def discarded(self, hand: Sequence[Card], card: Card) -> list[Card]:
        """The cards of ``hand`` a Discard All ``card`` discards."""
        return [c for c in hand if c.color is card.color]

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "DA" or draft.going_out(seat) is not None:
            return None  # not ours, or its last card: the core decides what going out means
        hand = draft.hands[seat]
        gone = self.discarded(hand, card)
        # Every other card of the colour goes under the Discard All, which stays on top.
        draft.set_hands({seat: [c for c in hand if c.color is not card.color]})
        (top,) = draft.take_from_discard_pile(1)
        draft.put_on_discard_pile([*gone, top])
        draft.add_event(Event("discard-all", seat, tuple(gone), None, count=len(gone)))
        # The discards emptied the hand: it went out, as the core's going-out question says
        # (the core ends a round that ends; under last-loses the seat leaves and play goes on).
        if draft.hands[seat] or not draft.went_out(seat).ends:
            draft.pass_turn(1, seat)
        return True


class DiscardAllLosingDuplicates(DiscardAll):
    """Bug (issue 32): the cards to discard are listed once each, so when the
    hand held two copies of a card of the colour, one copy vanishes from the
    game (breaks ``cards``, only when the hand holds such a pair)."""

    def discarded(self, hand: Sequence[Card], card: Card) -> list[Card]:
        return list(dict.fromkeys(c for c in hand if c.color is card.color))


# -- issue 44: a wild whose effect runs on the last card, a card never playable, a peek -------

register_kind("PW", "Pass Wild", wild=True)


class PassWild(Plugin):
    """Pass Wild: a wild card; its player names the colour and every seat
    passes its hand to the next seat in the direction of play. As a last
    card it only goes out (correct)."""

    name = "pass-wild"
    api_version = 2
    requires = ("classic",)
    runs_on_last_card: ClassVar[bool] = False

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return [Card.parse("PW")] * 4

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return 50 if card.kind == "PW" else None

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "PW":
            return None
        if draft.going_out(seat) is not None and not self.runs_on_last_card:
            return None  # its last card: it went out, nothing is passed
        seats = draft.active_seats
        draft.move_hands({s: draft.next_seat(s) for s in seats})
        if draft.going_out(seat) is None:
            draft.pass_turn(1, seat)
        return True


class PassWildOnTheLastCard(PassWild):
    """Bug (issue 44): the effect also runs on the last card, so the player's
    empty hand goes to the next seat and the winner holds the previous seat's
    hand (breaks ``hands``; only when a Pass Wild is someone's last card, which
    random play almost never makes it: a wild is spent at once)."""

    name = "pass-wild-last"
    runs_on_last_card = True


class PassWildPastTheSeatsThatLeft(PassWild):
    """Bug (issue 44): hands pass to the seat numbered next, seats that left
    included, so a seat eliminated is handed a hand (breaks ``left``; only
    beside a mode that makes seats leave, once one has, which a pair of a few
    seconds with ``elimination`` used to stop before)."""

    name = "pass-wild-left"

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        if card is None or card.kind != "PW" or draft.going_out(action.seat) is not None:
            return None
        players = draft.players
        draft.move_hands({s: (s + 1) % players for s in range(players)})  # the bug: not active_seats
        draft.pass_turn(1, action.seat)
        return True


register_kind("NP", "Never Played", wild=False)


class NeverPlayableCard(Plugin):
    """Bug (issue 44): a coloured card dealt into the deck whose plays a filter
    meant to keep it off a Wild drops everywhere: it can never be played."""

    name = "never-playable"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return [Card.of(color, "NP") for color in COLORS]

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return 20 if card.kind == "NP" else None

    @hookimpl(wrapper=True)
    def legal_actions(
        self, state: GameState
    ) -> Generator[None, list[Sequence[Action]], list[Sequence[Action]]]:
        lists = yield
        kept: list[Sequence[Action]] = [
            [a for a in found if a.card is None or a.card.kind != "NP"] for found in lists
        ]
        if not any(kept) and any(lists):
            return [[Action.of(state.current_player, "pass")]]  # a drawn one: the turn passes
        return kept


register_kind("PK", "Peek", wild=False)


class Peek(Plugin):
    """Peek: a coloured card; its player sees the next seat's hand until its
    own next turn (a ``show`` event private to the player, then
    ``visible_hands``). Correct."""

    name = "peek"
    api_version = 2
    requires = ("classic",)
    extras = (ExtraSpec("peek", "(peeker, seat peeked at) while the peek lasts"),)
    to_everyone: ClassVar[bool] = False

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return [Card.of(color, "PK") for color in COLORS]

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return 20 if card.kind == "PK" else None

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "PK" or draft.going_out(seat) is not None:
            return None
        target = draft.next_seat(seat)
        draft.show_hand(target, seat)
        draft.set_extra("peek", (seat, target))
        draft.pass_turn(1, seat)
        return True

    @hookimpl
    def after_action(self, draft: Draft, action: Action, before: GameState) -> None:
        peek: Any = before.extra("peek")
        if peek is not None and (draft.current_player == peek[0] or len(draft.rounds) != len(before.rounds)):
            draft.set_extra("peek", None)

    @hookimpl
    def visible_hands(self, state: GameState, seat: int) -> Iterable[int]:
        peek: Any = state.extra("peek") if state.extras else None
        if peek is None or (seat != peek[0] and not self.to_everyone):
            return ()
        return (peek[1],)


class PeekShownToEveryone(Peek):
    """Bug (issue 44): the peeked hand is shown to every seat instead of to the
    peeker (``visible_hands`` answers for every seat): breaks ``hidden``, which
    no longer takes ``visible_hands`` at its word."""

    name = "peek-everyone"
    to_everyone = True


# -- issue 44: a Discard All that states what it does ---------------------------------------


def discards_every_card_of_its_colour(rules: Ruleset) -> None:
    """A scenario (TestHints.scenarios): the red Discard All takes both red 1s with it."""
    Scenario(rules, hands={0: "RDA R1 R1 B2"}, top="R5").then("0: play RDA").expect(
        hands={0: "B2"}, top="RDA", under="R1 R1", to_move=1, events=["discard-all"]
    )


class StatedDiscardAll(DiscardAll):
    """The Discard All with its effect declared and a scenario (correct)."""

    name = "stated-discard-all"
    testing = TestHints(
        effects=(CardEffect("DA", discards="color", passes=1),),
        scenarios=(discards_every_card_of_its_colour,),
    )


class StatedDiscardAllKeepingADuplicate(StatedDiscardAll):
    """Bug (issue 44): of two copies of a card of its colour, the Discard All
    discards one and leaves the other in the hand. Every card is still
    accounted for and every invariant holds: only what the card should do
    (its declared effect, its scenario) shows it."""

    name = "stated-discard-all-dup"

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "DA" or draft.going_out(seat) is not None:
            return None
        hand = list(draft.hands[seat])
        gone = list(dict.fromkeys(c for c in hand if c.color is card.color))  # the bug: one of each
        for c in gone:
            hand.remove(c)
        draft.set_hands({seat: hand})
        (top,) = draft.take_from_discard_pile(1)
        draft.put_on_discard_pile([*gone, top])
        draft.add_event(Event("discard-all", seat, tuple(gone), None, count=len(gone)))
        if draft.hands[seat] or not draft.went_out(seat).ends:
            draft.pass_turn(1, seat)
        return True


class StatedDiscardAllBesideStacking(StatedDiscardAll):
    """Bug: the discards are skipped when ``stacking`` is in the rule set (a
    check meant for stacked Draw Twos): only beside stacking does the
    scenario fail, which the runner finds by running it next to every plugin."""

    name = "stated-discard-all-stacking"

    def discarded(self, hand: Sequence[Card], card: Card) -> list[Card]:
        return [] if self._stacking else super().discarded(hand, card)

    _stacking: ClassVar[bool] = False

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        type(self)._stacking = any(p.name == "stacking" for p in draft.ruleset.plugins)
        return super().on_play(draft, action, previous)


register_kind("RZ", "Rotate Zero", wild=False)


class PassesHandsOnAllSeats(Plugin):
    """Bug: a Rotate card passes every hand to the seat after it by seat
    number, seats that left included (breaks ``left``, beside elimination: the
    report names the seat handed a hand and the seat handed the empty one)."""

    name = "passes-all-seats"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return [Card.of(color, "RZ") for color in COLORS]

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return 20 if card.kind == "RZ" else None

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "RZ" or draft.going_out(seat) is not None:
            return None
        players = draft.players
        draft.move_hands({s: (s + 1) % players for s in range(players)})  # the bug: not active_seats
        draft.pass_turn(1, seat)
        return True

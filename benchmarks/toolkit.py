"""How many planted bugs the conformance runner catches, per budget, and how fast.

Each planted bug is a copy of a plugin with one realistic bug: cards lost,
Python's global ``random``, a hidden card in a public event, a view or a
public extra, a hand shown to every seat (by an event, or by
``visible_hands`` after a peek), a round won by the wrong seat, a round that never
ends, ``check_state`` refusing a valid state, an extra JSON cannot hold, an
action listed but refused, a turn action listed out of turn, no legal
action in a phase, a refusal that crashes, ``apply`` changing its input, an
undeclared event kind, UNO books closed by hand, a table of 7 or more seats,
a seat that left made to draw or handed a hand, a card that can never be
played, going out on the plugin's card (a wild whose effect still runs on
the last card), and a card's rule not carried out (a kept duplicate, an
effect skipped in another phase, the turn passed against the direction, a
rule broken only beside stacking: caught by the plugin's declared
:class:`~unorules.CardEffect` and its scenario). They are forks of Discard
Colour (a card plugin as a new author writes it from the docs), of a Pass
Wild, of a Peek, of a never-playable card and of the shipped elimination
plugin; the correct versions are among the clean plugins with two shipped
plugins.

For each budget, each planted bug is checked with
:func:`~unorules.testing.conformance.run_conformance` (``fail_fast``: the run
stops at the first violation) and each clean plugin in full; the script
prints, per plugin, whether a violation was found (the invariant), whether a
declaration was left uncovered (a warning, a failure under ``--strict``
budgets), and the seconds, then per budget the share caught and the share
caught within 60 s, the median and slowest time to a catch, and the clean
plugin runs flagged (a violation on a clean plugin is a false alarm).

    .venv/bin/python benchmarks/toolkit.py                  # quick and ci, seed 0
    .venv/bin/python benchmarks/toolkit.py --budgets quick --seeds 0,1,2
    .venv/bin/python benchmarks/toolkit.py --budgets default --no-clean
    .venv/bin/python benchmarks/toolkit.py --budgets ci --clean peek,pass-wild
    .venv/bin/python benchmarks/toolkit.py --only dc-duplicates,dc-public-extra --no-clean
    .venv/bin/python benchmarks/toolkit.py --prove

``--prove`` runs the hand-built scenarios of :data:`PROOFS`: each shows its
planted bug is real (it fails with the bug and passes with the correct
plugin), for the bugs whose effect a scenario can state.

Figures are the machine's: the time caps of the budgets are wall-clock
seconds, so a loaded machine catches fewer bugs within them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any

import attrs
from unorules_elimination import EliminationPlugin

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
    IllegalActionError,
    Plugin,
    RoundResult,
    Ruleset,
    TestHints,
    hookimpl,
    register_kind,
)
from unorules.testing.conformance import BUDGETS, run_conformance
from unorules.testing.scenario import Scenario
from unorules.validate import require

register_kind("DC", "Discard Colour", wild=False)


class DiscardColour(Plugin):
    """Discard Colour: a coloured card whose player also discards every other
    card of its colour, under it (this script's copy of the toolkit tests'
    Discard Colour, correct; each planted bug below is a copy with one bug)."""

    name = "discard-colour"
    api_version = 2
    requires = ("classic",)
    events = (
        EventSpec(
            "discard-colour",
            "a Discard Colour was played: its player discarded every other card of its colour",
            (("seat", "the player"), ("cards", "the cards discarded"), ("count", "how many")),
            "{seat} discarded {cards} under the Discard Colour",
        ),
    )

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return [Card.of(color, "DC") for color in COLORS]

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return 30 if card.kind == "DC" else None

    def discarded(self, hand: Sequence[Card], card: Card) -> list[Card]:
        """The cards of ``hand`` a Discard Colour ``card`` discards."""
        return [c for c in hand if c.color is card.color]

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "DC" or not draft.hands[seat]:
            return None
        hand = draft.hands[seat]
        gone = self.discarded(hand, card)
        draft.set_hands({seat: [c for c in hand if c.color is not card.color]})
        (top,) = draft.take_from_discard_pile(1)
        draft.put_on_discard_pile([*gone, top])
        draft.add_event(Event("discard-colour", seat, tuple(gone), None, count=len(gone)))
        if draft.hands[seat]:
            draft.pass_turn(1, seat)
        else:
            draft.end_round(seat, "out")
        return True


# -- planted bugs ----------------------------------------------------------------------------


class LosesDuplicates(DiscardColour):
    """The cards to discard are listed once each: of two copies of a card, one vanishes."""

    def discarded(self, hand: Sequence[Card], card: Card) -> list[Card]:
        return list(dict.fromkeys(c for c in hand if c.color is card.color))


class ShufflesWithGlobalRandom(DiscardColour):
    """The cards go under the Discard Colour in an order from Python's global
    ``random``: the same seed and actions give another discard pile."""

    def discarded(self, hand: Sequence[Card], card: Card) -> list[Card]:
        gone = super().discarded(hand, card)
        random.shuffle(gone)  # the bug: not draft.shuffle
        return gone


class EventShowsTheHand(DiscardColour):
    """The public event lists the whole hand, the cards kept included."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        hand = draft.hands[action.seat]
        done = super().on_play(draft, action, previous)
        if done:
            draft.add_event(Event("discard-colour", action.seat, tuple(hand), None, count=len(hand)))
        return done


class ForgetsGoingOut(DiscardColour):
    """When the discards empty the hand, the turn passes and the round goes on."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "DC" or not draft.hands[seat]:
            return None
        hand = draft.hands[seat]
        gone = self.discarded(hand, card)
        draft.set_hands({seat: [c for c in hand if c.color is not card.color]})
        (top,) = draft.take_from_discard_pile(1)
        draft.put_on_discard_pile([*gone, top])
        draft.pass_turn(1, seat)  # the bug: no end_round when the hand is empty
        return True


class NamesTheNextSeatTheWinner(DiscardColour):
    """When the discards empty the hand, the turn is passed first and the round
    is then ended for ``draft.current_player``: the next seat wins it."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "DC" or not draft.hands[seat]:
            return None
        hand = draft.hands[seat]
        gone = self.discarded(hand, card)
        draft.set_hands({seat: [c for c in hand if c.color is not card.color]})
        (top,) = draft.take_from_discard_pile(1)
        draft.put_on_discard_pile([*gone, top])
        draft.add_event(Event("discard-colour", seat, tuple(gone), None, count=len(gone)))
        draft.pass_turn(1, seat)
        if not draft.hands[seat]:
            draft.end_round(draft.current_player, "out")  # the bug: the turn has passed already
        return True


def goes_out_on_the_discards(rules: Ruleset) -> None:
    """Seat 0's red Discard Colour takes its last red card along: seat 0 went
    out and wins the round (the proof of ``dc-wrong-winner``)."""
    Scenario(rules, hands={0: "RDC R1", 1: "B2 G3", 2: "Y4 Y5"}, top="R5").then("0: play RDC").expect(
        round_over=True, winner=0
    )


class KeepsAFloat(DiscardColour):
    """Keeps the average number of cards discarded as a float extra (JSON holds no float)."""

    extras = (ExtraSpec("discard-colour", "the cards discarded by Discard Colours, per card played"),)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        before = len(draft.hands[action.seat])
        done = super().on_play(draft, action, previous)
        if done and draft.phase.name != "over":
            draft.set_extra("discard-colour", (before - len(draft.hands[action.seat])) / 2)
        return done


SEAT_BONUS = (0, 5, 10, 15, 20, 25)


class BonusTableOfSixSeats(DiscardColour):
    """A bonus per seat read from a table of six: the seventh seat crashes."""

    extras = (ExtraSpec("discard-colour", "the bonus of the last Discard Colour"),)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        if action.card is not None and action.card.kind == "DC":
            draft.set_extra("discard-colour", SEAT_BONUS[action.seat])  # the bug: seats 6 to 9
        return super().on_play(draft, action, previous)


class RefusesGoingOutOnIt(DiscardColour):
    """Enforces "a Discard Colour cannot be the last card" by refusing the play
    in ``on_play``, while ``legal_actions`` still lists it."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        if card is not None and card.kind == "DC" and not draft.hands[action.seat]:
            raise IllegalActionError(f"{action}: a Discard Colour cannot be the last card")
        return super().on_play(draft, action, previous)


class PublicExtraShowsTheHand(DiscardColour):
    """Keeps the last Discard Colour in a public extra (for a table display), the
    cards its player kept included: every seat's view shows them."""

    extras = (ExtraSpec("discard-colour", "the last Discard Colour and its player's hand", public=True),)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        done = super().on_play(draft, action, previous)
        if done and draft.phase.name != "over":
            draft.set_extra("discard-colour", (action.seat, *draft.hands[action.seat]))  # the bug: the hand
        return done


class ChecksTheLastEvent(DiscardColour):
    """``check_state`` expects a Discard Colour on top to be the last thing that
    happened: a state read back after the next draw (or a Discard Colour starter) is refused."""

    @hookimpl
    def check_state(self, state: GameState) -> None:
        top = state.top_card
        if top is not None and top.kind == "DC" and not state.is_over:
            require(
                bool(state.events) and state.events[-1].kind == "discard-colour",
                "events",
                "a Discard Colour on top must be the last event",
            )


class DrawsForEverySeat(DiscardColour):
    """A Discard Colour makes every other seat draw one, seats that left included."""

    requires = ("classic",)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        done = super().on_play(draft, action, previous)
        if done and draft.phase.name != "over":
            for seat in range(draft.players):  # the bug: not draft.active_seats
                if seat != action.seat:
                    draft.draw(seat, 1, "penalty")
        return done


class NeverPlayable(DiscardColour):
    """A filter meant to keep a Discard Colour off a Wild drops every play of one."""

    @hookimpl(wrapper=True)
    def legal_actions(
        self, state: GameState
    ) -> Generator[None, list[Sequence[Action]], list[Sequence[Action]]]:
        lists = yield
        return [[a for a in found if a.card is None or a.card.kind != "DC"] for found in lists]


register_kind("NP", "Never Played", wild=False)


class NeverPlayableCard(Plugin):
    """A coloured card the deck deals whose every play a filter drops (where
    that leaves nothing, the turn passes): it is never legal, and nothing else
    breaks."""

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
            return [[Action.of(state.current_player, "pass")]]
        return kept


class EliminatesEarly(EliminationPlugin):
    """A fork of elimination that adds the round's points to scores that
    already include them: seats under the limit leave."""

    @hookimpl
    def on_round_end(self, draft: Draft, result: RoundResult) -> None:
        limit = draft.ruleset.options["elimination_limit"]
        active = draft.active_seats
        totals = {s: draft.scores[s] + result.points[s] for s in active}  # the bug: counted twice
        out = [s for s in active if totals[s] >= limit]
        if not out:
            return
        if len(out) == len(active):
            best = min(totals[s] for s in out)
            tied = [s for s in out if totals[s] == best]
            out.remove(result.winner if result.winner in tied else tied[0])
        draft.leave(out)
        draft.add_event(
            *(
                Event(
                    "eliminated",
                    s,
                    (),
                    "R-ELIM",
                    f"{totals[s]} points, limit {limit}",
                    data=(("limit", limit), ("points", totals[s])),
                )
                for s in out
            )
        )


class UndeclaredEvent(DiscardColour):
    """The discards are announced with an event kind nobody declared."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        done = super().on_play(draft, action, previous)
        if done and draft.phase.name != "over":
            draft.add_event(Event("discard-colour-done", action.seat, (), None))  # the bug: not declared
        return done


class ClosesTheCatchWindow(DiscardColour):
    """Discards that leave one card close the UNO catch window (meant as
    "discards do not count as playing down to one"): the seat is not open
    to a catch though its own action left it one card."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        done = super().on_play(draft, action, previous)
        if done and len(draft.hands[action.seat]) == 1:
            draft.end_exposure([action.seat])  # the bug
        return done


class CountsOnThePreviousState(DiscardColour):
    """Keeps a count of Discard Colours on the state it was given (in place)."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        if action.card is not None and action.card.kind == "DC":
            object.__setattr__(previous, "stalled", previous.stalled + 1)  # the bug: mutates its input
        return super().on_play(draft, action, previous)


class ExplainsWithAKeyError(DiscardColour):
    """Explaining why a Discard Colour is refused looks it up in a table that lacks it."""

    @hookimpl(tryfirst=True)
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        if action.card is not None and action.card.kind == "DC":
            return {"W": ("R-TURN-MATCH", "a Discard Colour is not a wild")}[action.card.kind]  # KeyError
        return None


class ShowsASeatTooMany(DiscardColour):
    """While a Discard Colour is on top, every seat is shown "the next seat's"
    hand, counted past the last seat."""

    @hookimpl
    def visible_hands(self, state: GameState, seat: int) -> Iterable[int]:
        top = state.top_card
        return (seat + 1,) if top is not None and top.kind == "DC" else ()  # the bug: no modulo


class DrawForTheWrongSeat(DiscardColour):
    """After a Discard Colour, lists a draw for the seat that played it, out of turn."""

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        top = state.top_card
        if state.phase.name == "play" and top is not None and top.kind == "DC" and state.last_action:
            seat = state.last_action.seat
            if seat is not None and seat != state.current_player:
                return (Action.of(seat, "draw"),)
        return ()


class NothingAfterADrawnDiscardColour(DiscardColour):
    """Drops every action while a drawn Discard Colour waits to be played or kept."""

    @hookimpl(wrapper=True)
    def legal_actions(
        self, state: GameState
    ) -> Generator[None, list[Sequence[Action]], list[Sequence[Action]]]:
        lists = yield
        card = state.phase.card
        if state.phase.name == "drawn" and card is not None and card.kind == "DC":
            return []  # the bug
        return lists


class StallsAfterADiscardColour(DiscardColour):
    """Once a Discard Colour has been played, a draw for the turn passes the
    turn without drawing (nor counting a stall): when nobody can play, the
    round goes round in a circle."""

    extras = (ExtraSpec("discard-colour", "a Discard Colour was played this round"),)

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        done = super().on_play(draft, action, previous)
        if done and draft.phase.name != "over" and len(draft.rounds) == len(previous.rounds):
            draft.set_extra("discard-colour", True)
        return done

    @hookimpl(tryfirst=True)
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        if action.verb == "draw" and draft.phase.name == "play" and draft.extra("discard-colour"):
            draft.pass_turn(1, action.seat)  # the bug: nothing drawn, and no stall counted
            return True
        return None


class ShowsTheNextHandToAll(DiscardColour):
    """The Discard Colour's player peeks at the next hand, shown to every seat."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        done = super().on_play(draft, action, previous)
        if done and draft.phase.name != "over" and len(draft.rounds) == len(previous.rounds):
            draft.show_hand(draft.next_seat(action.seat))  # the bug: to=None, every seat
        return done


class StatedDiscardColour(DiscardColour):
    """The correct Discard Colour with its effect declared and a scenario."""

    name = "stated-discard-colour"
    testing = TestHints(
        effects=(CardEffect("DC", discards="color", passes=1),),
        scenarios=(lambda rules: discards_its_colour(rules),),
    )


def discards_its_colour(rules: Ruleset) -> None:
    """The red Discard Colour takes both red 1s along; the next seat is to move."""
    Scenario(rules, hands={0: "RDC R1 R1 B2"}, top="R5").then("0: play RDC").expect(
        hands={0: "B2"}, top="RDC", under="R1 R1", to_move=1
    )


class KeepsADuplicate(StatedDiscardColour):
    """Of two copies of a card of its colour, one stays in the hand (every card still accounted for)."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "DC" or not draft.hands[seat]:
            return None
        hand = list(draft.hands[seat])
        gone = list(dict.fromkeys(c for c in hand if c.color is card.color))  # the bug: one of each
        for c in gone:
            hand.remove(c)
        draft.set_hands({seat: hand})
        (top,) = draft.take_from_discard_pile(1)
        draft.put_on_discard_pile([*gone, top])
        draft.add_event(Event("discard-colour", seat, tuple(gone), None, count=len(gone)))
        if draft.hands[seat]:
            draft.pass_turn(1, seat)
        else:
            draft.end_round(seat, "out")
        return True


class SkipsTheDiscardsAfterADraw(StatedDiscardColour):
    """A Discard Colour drawn and played at once (the ``drawn`` phase) discards nothing."""

    def discarded(self, hand: Sequence[Card], card: Card) -> list[Card]:
        return super().discarded(hand, card) if not self._drawn else []

    _drawn = False

    @hookimpl(tryfirst=True)
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        type(self)._drawn = previous.phase.name == "drawn"
        card = action.card
        if self._drawn and card is not None and card.kind == "DC" and draft.hands[action.seat]:
            draft.pass_turn(1, action.seat)  # the bug: the effect is skipped in the drawn phase
            return True
        return super().on_play(draft, action, previous)


class PassesByNumber(StatedDiscardColour):
    """The turn passes to the seat numbered after the player, whatever the direction."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        done = super().on_play(draft, action, previous)
        if done and draft.phase.name != "over" and len(draft.rounds) == len(previous.rounds):
            draft.current_player = (action.seat + 1) % draft.players  # the bug: not next_seat
        return done


class KeepsTheColourBesideStacking(StatedDiscardColour):
    """Beside stacking (a check meant for stacked Draw Twos), the discards are skipped."""

    def discarded(self, hand: Sequence[Card], card: Card) -> list[Card]:
        return [] if self._stacking else super().discarded(hand, card)

    _stacking = False

    @hookimpl(tryfirst=True)
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        type(self)._stacking = any(p.name == "stacking" for p in draft.ruleset.plugins)
        return super().on_play(draft, action, previous)


register_kind("PW", "Pass Wild", wild=True)


class PassWild(Plugin):
    """Pass Wild: a wild; every seat passes its hand to the next seat (correct:
    as a last card it only goes out)."""

    name = "pass-wild"
    api_version = 2
    requires = ("classic",)
    on_last_card = False

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
        if draft.going_out(seat) is not None and not self.on_last_card:
            return None
        draft.move_hands({s: draft.next_seat(s) for s in draft.active_seats})
        if draft.going_out(seat) is None:
            draft.pass_turn(1, seat)
        return True


class PassWildOnTheLastCard(PassWild):
    """The effect also runs on the last card: the next seat is handed the empty hand."""

    on_last_card = True


class PassWildPastTheSeatsThatLeft(PassWild):
    """Hands pass to the seat numbered next, seats that left included."""

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        seat = action.seat
        if card is None or card.kind != "PW" or draft.going_out(seat) is not None:
            return None
        players = draft.players
        draft.move_hands({s: (s + 1) % players for s in range(players)})  # the bug
        draft.pass_turn(1, seat)
        return True


register_kind("PK", "Peek", wild=False)


class Peek(Plugin):
    """Peek: its player sees the next seat's hand until its next turn (correct)."""

    name = "peek"
    api_version = 2
    requires = ("classic",)
    extras = (ExtraSpec("peek", "(peeker, seat peeked at) while the peek lasts"),)
    to_everyone = False

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
    """The peeked hand is shown to every seat (``visible_hands``), not to the peeker."""

    to_everyone = True


PLANTED: dict[str, tuple[Callable[[], Any], str, tuple[str, ...] | None]] = {
    # name: (plugin factory, the bug's class, the other plugins it is checked with; None: all)
    "dc-duplicates": (LosesDuplicates, "cards lost (a duplicate)", None),
    "dc-global-random": (ShufflesWithGlobalRandom, "nondeterminism (global random)", None),
    "dc-event-hand": (EventShowsTheHand, "hidden cards in a public event", None),
    "dc-forgets-out": (ForgetsGoingOut, "going out on the plugin's card", None),
    "dc-wrong-winner": (NamesTheNextSeatTheWinner, "going out on the discards won by the next seat", None),
    "dc-float-extra": (KeepsAFloat, "an extra JSON cannot hold", None),
    "dc-seven-seats": (BonusTableOfSixSeats, "tables of 7 to 10 seats", None),
    "dc-refuses-last": (RefusesGoingOutOnIt, "listed but refused", None),
    "dc-public-extra": (PublicExtraShowsTheHand, "hidden cards in a view (a public extra)", None),
    "dc-check-state": (ChecksTheLastEvent, "check_state refusing a valid state", None),
    "dc-left-seats-draw": (DrawsForEverySeat, "a seat that left made to draw", ("elimination",)),
    "elimination-early": (EliminatesEarly, "a round's points counted twice (fork of elimination)", None),
    "dc-never-playable": (NeverPlayable, "a card that can never be played", None),
    "dc-undeclared-event": (UndeclaredEvent, "an event kind nobody declared", None),
    "dc-closes-catch": (ClosesTheCatchWindow, "UNO books: a catch window closed by hand", None),
    "dc-mutates-input": (CountsOnThePreviousState, "apply changing its input", None),
    "dc-explain-crash": (ExplainsWithAKeyError, "a refusal that crashes", None),
    "dc-ghost-seat": (ShowsASeatTooMany, "a view of a seat that does not exist", None),
    "dc-draw-out-of-turn": (DrawForTheWrongSeat, "a turn action listed out of turn", None),
    "dc-nothing-legal": (NothingAfterADrawnDiscardColour, "no legal action in a phase", None),
    "dc-stalls": (StallsAfterADiscardColour, "a round that never ends", None),
    "dc-shows-next-hand": (ShowsTheNextHandToAll, "a hand shown to every seat by an event", None),
    "dc-keeps-duplicate": (KeepsADuplicate, "a card's rule not carried out (declared effect)", None),
    "dc-skips-when-drawn": (SkipsTheDiscardsAfterADraw, "an effect skipped in another phase", None),
    "dc-passes-by-number": (PassesByNumber, "the turn passed against the direction", None),
    "dc-beside-stacking": (KeepsTheColourBesideStacking, "a rule broken only beside stacking", None),
    "pw-last-card": (PassWildOnTheLastCard, "going out on a wild whose effect still runs", None),
    "pw-left-seats": (PassWildPastTheSeatsThatLeft, "hands passed to seats that left", ("elimination",)),
    "pk-everyone": (PeekShownToEveryone, "a peeked hand shown to every seat", None),
    "np-never-playable": (NeverPlayableCard, "a card never legal (to the end)", None),
}


def keeps_both_copies_together(rules: Ruleset) -> None:
    """Both red 1s go under the red Discard Colour; seat 0 keeps its blue 2 (the
    proof of ``dc-duplicates`` and ``dc-keeps-duplicate``)."""
    Scenario(rules, hands={0: "RDC R1 R1 B2"}, top="R5").then("0: play RDC").expect(
        hands={0: "B2"}, under="R1 R1", to_move=1
    )


def passes_against_the_numbers(rules: Ruleset) -> None:
    """Play goes the other way round: after seat 0's Discard Colour, seat 2 is
    to move, not seat 1 (the proof of ``dc-passes-by-number``)."""
    Scenario(rules, hands={0: "RDC R1 B2"}, top="R5", direction=-1).then("0: play RDC").expect(
        hands={0: "B2"}, to_move=2
    )


def skips_the_seat_that_left(rules: Ruleset) -> None:
    """Seat 2 of 4 has left the game (as elimination makes a seat leave): seat
    0's Pass Wild hands seat 0's cards to seat 1, seat 1's to seat 3, seat 3's
    to seat 0, and nothing to seat 2 (the proof of ``pw-left-seats``)."""
    Scenario(rules, players=4, hands={0: "PW R1", 1: "B2", 3: "Y4 Y5"}, top="R5", left=[2]).then(
        "0: play PW G"
    ).expect(hands={0: "Y4 Y5", 1: "R1", 2: "", 3: "B2"})


PROOFS: dict[str, tuple[Callable[[Ruleset], None], Callable[[], Any]]] = {
    # name: (a scenario the planted bug fails, the correct plugin, which passes it)
    "dc-wrong-winner": (goes_out_on_the_discards, DiscardColour),
    "dc-forgets-out": (goes_out_on_the_discards, DiscardColour),
    "dc-duplicates": (keeps_both_copies_together, DiscardColour),
    "dc-keeps-duplicate": (keeps_both_copies_together, StatedDiscardColour),
    "dc-passes-by-number": (passes_against_the_numbers, StatedDiscardColour),
    "pw-left-seats": (skips_the_seat_that_left, PassWild),
}
"""Hand-built scenarios that show planted bugs are real: each fails with the
planted bug and passes with the correct plugin (``--prove`` runs them)."""


def prove(name: str) -> tuple[str | None, str | None]:
    """Run the proof of the planted bug ``name``: what the scenario said with the
    correct plugin (``None``: it passed) and with the planted bug (``None``: it
    passed, so the proof proves nothing)."""
    scenario, correct = PROOFS[name]
    said: list[str | None] = []
    for plugin in (correct(), PLANTED[name][0]()):
        rules = Ruleset.from_names(["classic"], plugins=[plugin])
        try:
            scenario(rules)
        except Exception as exc:
            said.append(f"{type(exc).__name__}: {exc}")
        else:
            said.append(None)
    return said[0], said[1]


CLEAN: dict[str, Callable[[], Any] | str] = {
    "discard-colour": DiscardColour,
    "stated-discard-colour": StatedDiscardColour,
    "pass-wild": PassWild,
    "peek": Peek,
    "draw-until-playable": "draw-until-playable",
    "seven-o": "seven-o",
}


@attrs.frozen
class Outcome:
    """One run: what it found and how long it took."""

    name: str
    budget: str
    seed: int
    seconds: float
    invariant: str | None
    uncovered: int

    @property
    def flagged(self) -> bool:
        """A violation, or a declaration left uncovered (a warning)."""
        return self.invariant is not None or self.uncovered > 0


def run_one(
    name: str, plugin: Any, budget: str, seed: int, others: Sequence[str] | None, fail_fast: bool
) -> Outcome:
    """Check ``plugin`` at ``budget`` with ``seed``."""
    chosen = attrs.evolve(BUDGETS[budget], seed=seed)
    started = time.perf_counter()
    report = run_conformance(plugin, chosen, others=others, fail_fast=fail_fast)
    seconds = time.perf_counter() - started
    invariant = report.violations[0].invariant if report.violations else None
    uncovered = sum(len(items) for _, items in report.uncovered)
    return Outcome(name, budget, seed, seconds, invariant, uncovered)


def row(outcome: Outcome, what: str) -> str:
    """One line of the table."""
    found = outcome.invariant or "-"
    return (
        f"{outcome.name:22} {outcome.budget:7} {outcome.seed:>4} {found:12} "
        f"{outcome.uncovered:>9} {outcome.seconds:>8.1f}  {what}"
    )


def prove_all() -> int:
    """Print each proof's verdict; 1 when one does not fail with its planted bug or
    fails with the correct plugin."""
    wrong = 0
    for name in PROOFS:
        correct, planted = prove(name)
        ok = correct is None and planted is not None
        wrong += not ok
        verdict = "real" if ok else "NOT SHOWN"
        print(f"{name:22} {verdict}: correct plugin {correct or 'passes'}; planted: {planted}")
    print(f"{len(PROOFS) - wrong} of {len(PROOFS)} proofs show their planted bug")
    return 1 if wrong else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--budgets", default="quick,ci", help="budget names, comma-separated (default quick,ci)"
    )
    parser.add_argument("--seeds", default="0", help="budget seeds, comma-separated (default 0)")
    parser.add_argument("--only", default="", help="planted bugs to run, comma-separated (default all)")
    parser.add_argument("--no-clean", action="store_true", help="leave out the clean plugins")
    parser.add_argument(
        "--clean", default="", help="the clean plugins to run, comma-separated (default all of them)"
    )
    parser.add_argument("--within", type=float, default=60.0, help="the time a catch must take at most (s)")
    parser.add_argument(
        "--prove", action="store_true", help="run the scenarios that prove planted bugs real, and stop"
    )
    args = parser.parse_args(argv)
    if args.prove:
        return prove_all()
    budgets = [b.strip() for b in args.budgets.split(",") if b.strip()]
    unknown = [b for b in budgets if b not in BUDGETS]
    if unknown:
        parser.error(f"unknown budget(s) {', '.join(unknown)}: use {', '.join(BUDGETS)}")
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    only = {o.strip() for o in args.only.split(",") if o.strip()}
    planted = {k: v for k, v in PLANTED.items() if not only or k in only}
    missing = only - set(PLANTED)
    if missing:
        parser.error(f"no planted bug named {', '.join(sorted(missing))}: use {', '.join(PLANTED)}")

    results: list[Outcome] = []
    clean_results: list[Outcome] = []
    print(f"{'plugin':22} {'budget':7} {'seed':>4} {'found':12} {'uncovered':>9} {'seconds':>8}  bug class")
    for budget in budgets:
        for seed in seeds:
            for name, (factory, what, others) in planted.items():
                outcome = run_one(name, factory(), budget, seed, others, fail_fast=True)
                results.append(outcome)
                print(row(outcome, what), flush=True)
            if args.no_clean:
                continue
            chosen = {c.strip() for c in args.clean.split(",") if c.strip()}
            for name, clean in CLEAN.items():
                if chosen and name not in chosen:
                    continue
                plugin = clean() if callable(clean) else clean
                outcome = run_one(name, plugin, budget, seed, None, fail_fast=False)
                clean_results.append(outcome)
                print(row(outcome, "(clean)"), flush=True)
    print()
    for budget in budgets:
        mine = [r for r in results if r.budget == budget]
        checked = [r for r in clean_results if r.budget == budget]
        if not mine and not checked:
            continue
        caught = [r for r in mine if r.invariant is not None]
        quick = [r for r in caught if r.seconds <= args.within]
        warned = [r for r in mine if r.invariant is None and r.uncovered]
        times = sorted(r.seconds for r in caught)
        median = times[len(times) // 2] if times else 0.0
        slowest = times[-1] if times else 0.0
        false = [r for r in checked if r.invariant is not None]
        share = f"{100 * len(caught) / len(mine):.0f}%" if mine else "-"
        within = f"{100 * len(quick) / len(mine):.0f}%" if mine else "-"
        print(
            f"{budget}: caught {len(caught)} of {len(mine)} planted bug runs ({share}), "
            f"{len(quick)} within {args.within:.0f} s ({within}); "
            f"median {median:.1f} s, slowest {slowest:.1f} s to a catch; {len(warned)} more only warned of; "
            f"false alarms: {len(false)} of {len(checked)} clean plugin runs"
            + (f" ({', '.join(f'{r.name}: {r.invariant}' for r in false)})" if false else "")
        )
        missed = sorted({r.name for r in mine if r.invariant is None})
        if missed:
            print(f"  missed: {', '.join(missed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

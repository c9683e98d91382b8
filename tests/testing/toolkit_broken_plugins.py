"""Deliberately broken plugins, each breaking one invariant, for the toolkit's tests.

Each is a small house rule on top of ``classic`` with one realistic bug. The
tests show that the invariant functions, the state machine and the
conformance runner catch each one, and that the replay they print
reproduces the failure.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable, Sequence
from typing import Any

from unorules import Action, Card, GameState, Plugin, hookimpl, register_verb

register_verb("dance", doc="a verb the DancesWithoutSteps test plugin lists but cannot carry out")


class LosesFives(Plugin):
    """Bug: a played 5 vanishes instead of staying on the discard pile (breaks ``cards``)."""

    name = "loses-fives"
    requires = ("classic",)

    @hookimpl
    def on_play(self, state: GameState, action: Action, previous: GameState) -> GameState | None:
        card = action.card
        if card is None or card.kind != "5" or not state.hands[action.seat]:
            return None
        return state.replace(discard_pile=state.discard_pile[:-1]).pass_turn(1, action.seat)


class StallsDraws(Plugin):
    """Bug: drawing for the turn passes the turn without drawing, so players
    who all draw go round in a circle and the round never ends (breaks ``rounds``)."""

    name = "stalls-draws"
    requires = ("classic",)

    @hookimpl
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        if action.verb == "draw" and state.phase.name == "play":
            return state.pass_turn(1, action.seat)
        return None


class CountsRefusals(Plugin):
    """Bug: explaining a refusal writes to the state it was asked about (breaks ``pure``)."""

    name = "counts-refusals"
    requires = ("classic",)

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        object.__setattr__(state, "stalled", state.stalled + 1)
        return None


class RandomSkips(Plugin):
    """Bug: a Skip skips a seat chosen with Python's ``random``, not the game's
    generator, so a game does not replay (breaks ``replay``)."""

    name = "random-skips"
    requires = ("classic",)

    @hookimpl
    def on_play(self, state: GameState, action: Action, previous: GameState) -> GameState | None:
        card = action.card
        if card is None or card.kind != "S" or not state.hands[action.seat]:
            return None
        return state.pass_turn(random.choice((1, 2)), action.seat)


class RemembersDraws(Plugin):
    """Bug: the plugin object counts draws itself; every third draw draws two.
    Two equal states (a state and its JSON copy) then play on differently
    (breaks ``json`` and ``replay``)."""

    name = "remembers-draws"
    requires = ("classic",)

    def __init__(self) -> None:
        self.draws = 0

    @hookimpl
    def on_draw(self, state: GameState, seat: int, cards: tuple[Card, ...], reason: str) -> GameState | None:
        if reason != "turn":
            return None
        self.draws += 1
        if self.draws % 3:
            return None
        more, _ = state.draw(seat, 1, "remembered")
        return more


class StoresAFloat(Plugin):
    """Bug: keeps a float in ``state.extras``, which JSON cannot hold (breaks ``json``)."""

    name = "stores-a-float"
    requires = ("classic",)

    @hookimpl
    def on_play(self, state: GameState, action: Action, previous: GameState) -> GameState | None:
        return state.with_extra("stores-a-float", 0.5) if state.extra("stores-a-float") is None else None


class DrawsForTheNextSeat(Plugin):
    """Bug: lists a draw for the seat after the one to move (breaks ``turn``)."""

    name = "draws-for-next"
    requires = ("classic",)

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        if state.phase.name != "play":
            return ()
        return (Action.of(state.next_seat(), "draw"),)


class NothingAfterDrawing(Plugin):
    """Bug: a wrapper meant to drop ``pass`` after a draw drops every action (breaks ``legal``)."""

    name = "nothing-after-drawing"
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
    requires = ("classic",)

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        if state.phase.name == "play" and len(state.hands[state.current_player]) == 7:
            return (Action.of(state.current_player, "dance"),)
        return ()


class ExplainsBadly(Plugin):
    """Bug: explaining a refused ``draw`` raises ``KeyError`` instead of saying why (breaks ``refused``)."""

    name = "explains-badly"
    requires = ("classic",)

    @hookimpl(tryfirst=True)
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        if action.verb == "draw":
            raise KeyError(action.verb)
        return None


class ShowsAGhost(Plugin):
    """Bug: shows every seat the hand of a seat that does not exist (breaks ``view``)."""

    name = "shows-a-ghost"
    requires = ("classic",)

    @hookimpl
    def visible_hands(self, state: GameState, seat: int) -> Iterable[int]:
        return (state.players,)


class SetsAsideACard(Plugin):
    """Not a bug: at every deal, keeps the top card of the draw pile out of
    play (in ``state.extras``) and says so with ``set_aside_cards``, so
    ``cards`` still holds."""

    name = "sets-aside"
    requires = ("classic",)
    private_extras = ("aside",)

    @hookimpl(wrapper=True)
    def on_starter(self, state: GameState) -> Generator[None, GameState | None, GameState | None]:
        started = yield
        dealt = state if started is None else started
        # Each deal shuffles the whole deck again, the card set aside last round included.
        return dealt.replace(draw_pile=dealt.draw_pile[1:]).with_extra("aside", dealt.draw_pile[0])

    def set_aside_cards(self, state: GameState) -> Iterable[Card]:
        card: Any = state.extra("aside")
        return () if card is None else (card,)


class ForgetsTheSetAside(SetsAsideACard):
    """Bug: sets a card aside without declaring it (breaks ``cards``)."""

    name = "forgets-aside"
    set_aside_cards = None  # type: ignore[assignment]


class CrashesAtTheDeal(Plugin):
    """Bug: looks up a card it never put in the deck when a round is dealt (a crash, not a violation)."""

    name = "crashes-at-the-deal"
    requires = ("classic",)

    @hookimpl(tryfirst=True)
    def on_starter(self, state: GameState) -> GameState | None:
        return state.replace(discard_pile=(Card.parse("X1"),))


class SkipsWithoutGoingOut(Plugin):
    """Bug: a Skip is handled as ``pass_turn`` without checking for an empty hand,
    so a seat whose last card is a Skip stays in a round that goes on with no
    cards (breaks ``hands``). The most common mistake in an ``on_play`` hook."""

    name = "skips-without-going-out"
    requires = ("classic",)
    play_kinds = frozenset({"S"})

    @hookimpl
    def on_play(self, state: GameState, action: Action, previous: GameState) -> GameState | None:
        card = action.card
        if card is None or card.kind != "S":
            return None
        return state.pass_turn(2, action.seat)


class NeverGoesOut(Plugin):
    """Bug: a seat that plays its last card draws a new one instead of going out,
    so no round can ever end; the draws reshuffle the pile with the game's
    generator, so states do not repeat either (breaks ``rounds``: only the
    bound on a round's length, and eager play failing to end it, show it)."""

    name = "never-goes-out"
    requires = ("classic",)

    @hookimpl(tryfirst=True)
    def on_play(self, state: GameState, action: Action, previous: GameState) -> GameState | None:
        if state.hands[action.seat]:
            return None
        drawn, _ = state.draw(action.seat, 1, "penalty")
        return drawn.pass_turn(1, action.seat)

"""ADAPTER to the embedding API (issue 13) while it lands on main in stages.

The server is the reference embedding of unorules and uses only the public
API. A few names it needs are being added to the core: ``state.public_view()``,
``state.seats_to_act()``, bots that receive a :class:`~unorules.SeatView`,
``unorules.record``. Every use of them goes through this module: each
function calls the core's name when the installed core has it, and otherwise
does the same thing with what the core already offers. Nothing else in
:mod:`unorules.serve` touches these names, so switching to the real API is a
change to this file only (and deleting the fallbacks once they are dead).
"""

from __future__ import annotations

import inspect

import attrs

from unorules.actions import Action
from unorules.bots import Bot
from unorules.ruleset import Ruleset
from unorules.state import GameState, SeatView

__all__ = ["bot_choose", "new_game", "public_view", "replay", "seat_view", "seats_to_act"]


def seat_view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` may know of ``state`` (the core's ``state.view(seat)``)."""
    return state.view(seat)


def public_view(state: GameState) -> SeatView:
    """What a spectator may know: no hand, no secret card, no private event's cards.

    The core's ``state.public_view()`` when it has one; otherwise seat 0's
    view with everything only seat 0 may see taken out (its hand, hands shown
    to it, a secret phase card, its private events' cards, its legal actions).
    """
    method = getattr(state, "public_view", None)
    if method is not None:
        return method()  # type: ignore[no-any-return]
    view = state.view(0)
    phase = view.phase
    if phase.secret:
        phase = attrs.evolve(phase, card=None)
    events = tuple(attrs.evolve(e, cards=()) if e.private else e for e in view.events)
    return attrs.evolve(view, hand=(), visible_hands={}, phase=phase, events=events, legal_actions=())


def seats_to_act(state: GameState) -> tuple[int, ...]:
    """The seats with a legal action now: the seat to move first (if it has
    any), then the others in turn order from it (the core's
    ``state.seats_to_act()`` when it has one)."""
    method = getattr(state, "seats_to_act", None)
    if method is not None:
        return method()  # type: ignore[no-any-return]
    seats = {a.seat for a in state.legal_actions()}
    current, n = state.current_player, state.players
    return tuple(sorted(seats, key=lambda s: (s - current) % n))


def bot_choose(bot: Bot, state: GameState, seat: int) -> Action | None:
    """``bot``'s choice for ``seat``: bots that take a view get ``state.view(seat)``
    (the contract), older bots the state and the seat."""
    params = inspect.signature(bot.choose).parameters
    if len(params) == 1:
        return bot.choose(seat_view(state, seat))  # type: ignore[call-arg,arg-type]
    return bot.choose(state, seat)


def new_game(spec_text: str, players: int, seed: int) -> GameState:
    """The first state of a table's game, from its canonical rule-set text and seed."""
    return Ruleset.from_spec_text(spec_text).new_game(players=players, seed=seed)


def replay(spec_text: str, players: int, seed: int, actions: list[str]) -> GameState:
    """The state after ``actions`` (their canonical texts), replayed from the deal.

    Every action is checked again by the rules, so a record that does not
    replay raises the rules' own error.
    """
    state = new_game(spec_text, players, seed)
    for text in actions:
        state = state.apply(Action.parse(text))
    return state

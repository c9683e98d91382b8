"""ADAPTER to the embedding API (issue 13), which lands on main in stages.

The server is the reference embedding of unorules and uses only the public
API. Every use of the embedding names goes through this module, so that
following the API as it lands is a change to this file only. Landed and used
directly: ``state.view(seat)``, ``state.public_view()``,
``state.seats_to_act()``, bots that are handed a view, and
:mod:`unorules.record`, which ``tables.game_record`` builds each table's
history with (a restarted server replays it with ``GameRecord.replay``).
"""

from __future__ import annotations

from unorules.actions import Action
from unorules.bots import Bot
from unorules.state import GameState, SeatView

__all__ = ["bot_choose", "public_view", "seat_view", "seats_to_act"]


def seat_view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` may know of ``state`` (the core's ``state.view(seat)``)."""
    return state.view(seat)


def public_view(state: GameState) -> SeatView:
    """What a spectator may know (the core's ``state.public_view()``)."""
    return state.public_view()


def seats_to_act(state: GameState) -> tuple[int, ...]:
    """The seats with a legal action now: those that may act out of turn first, the seat to move
    last (the core's ``state.seats_to_act()``; ``_bot_step`` asks the bots in this order)."""
    return state.seats_to_act()


def bot_choose(bot: Bot, state: GameState, seat: int) -> Action | None:
    """``bot``'s choice for ``seat``: bots are handed the seat's view, never the state."""
    return bot.choose(state.view(seat))

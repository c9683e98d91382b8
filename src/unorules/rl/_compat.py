"""ADAPTER (temporary): names of the embedding helper's API contract that are not on main yet.

The contract (see the project's developer notes) extends :class:`~unorules.SeatView`
with ``players``, ``uno_declared``, ``extras`` (the public extras only) and
``outcome``, and adds ``GameState.seats_to_act()``. Until those land, this
module supplies them from the public parts of the state; once they are on
main, :func:`seat_view` returns ``state.view(seat)`` itself and
:func:`seats_to_act` calls the state's method. Nothing else in
:mod:`unorules.rl` reads a state's private fields or another seat's hand.
"""

from __future__ import annotations

import inspect
import operator
from typing import Any

from unorules.state import GameState, Outcome, SeatView

__all__ = ["ViewLike", "bot_choose", "seat_view", "seats_to_act"]

_NATIVE_VIEW = all(
    hasattr(SeatView, "__attrs_attrs__") and name in {a.name for a in SeatView.__attrs_attrs__}
    for name in ("players", "uno_declared", "extras", "outcome")
)
_NATIVE_SEATS = hasattr(GameState, "seats_to_act")


class ViewLike:
    """A :class:`~unorules.SeatView` with the contract's extra fields (adapter).

    Attribute access falls through to the wrapped view, so code written
    against the extended ``SeatView`` works on both.
    """

    __slots__ = ("_view", "extras", "outcome", "players", "uno_declared")

    def __init__(
        self,
        view: SeatView,
        players: int,
        uno_declared: tuple[int, ...],
        extras: tuple[tuple[str, Any], ...],
        outcome: Outcome | None,
    ) -> None:
        self._view = view
        self.players = players
        self.uno_declared = uno_declared
        self.extras = extras
        self.outcome = outcome

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)


# The view's own fields as properties (a failed attribute look-up before
# __getattr__ would cost more than the encoding itself).
for _name in (a.name for a in SeatView.__attrs_attrs__):
    setattr(ViewLike, _name, property(operator.attrgetter(f"_view.{_name}")))


def seat_view(state: GameState, seat: int) -> Any:
    """``state.view(seat)`` with the contract's fields (``players``, ``uno_declared``,
    the public ``extras``, ``outcome``)."""
    view = state.view(seat)
    if _NATIVE_VIEW:
        return view
    public = state.ruleset.public_extras
    extras = tuple((k, v) for k, v in state.extras if k in public)
    return ViewLike(view, state.players, state.uno_declared, extras, state.outcome)


def seats_to_act(state: GameState) -> tuple[int, ...]:
    """The seats with a legal action: the seat to move first (if it has any), then
    the others in turn order from the seat to move (``state.seats_to_act()``)."""
    if _NATIVE_SEATS:
        found: tuple[int, ...] = state.seats_to_act()  # type: ignore[attr-defined]
        return found
    legal = state.legal_actions()
    if not legal:
        return ()
    seats = {a.seat for a in legal}
    if len(seats) == 1:
        return tuple(seats)
    current = state.current_player
    n = state.players
    order = (
        sorted(seats, key=lambda s: (s - current) % n)
        if state.direction == 1
        else sorted(seats, key=lambda s: (current - s) % n)
    )
    return tuple(order)


def bot_choose(bot: Any, state: GameState, seat: int) -> Any:
    """Ask ``bot`` for ``seat``'s action: ``bot.choose(view)`` under the contract's
    view-based bot protocol, ``bot.choose(state, seat)`` under today's."""
    kind = type(bot)
    takes_view = _TAKES_VIEW.get(kind)
    if takes_view is None:
        try:
            takes_view = len(inspect.signature(bot.choose).parameters) == 1
        except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
            takes_view = False
        _TAKES_VIEW[kind] = takes_view
    if takes_view:
        return bot.choose(state.view(seat))
    return bot.choose(state, seat)


_TAKES_VIEW: dict[type, bool] = {}

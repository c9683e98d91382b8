"""The fields of a position and of a draft as the type checker sees them, kept out of
the compiled modules.

:class:`unorules.Position` (and so :class:`~unorules.GameState` and
:class:`~unorules.Draft`) reads the fields of a moment of a game, which each
subclass holds itself. For mypy they are read-only properties here, and a draft
declares writable only the five fields a hook assigns (:data:`WRITABLE`), so that
mypy refuses a plugin's write to any other field (or to a name that is no field),
as the draft does at run time with :meth:`Draft.__setattr__`.

These declarations live in this module, which the compiled build (mypyc, ``python3
dev.py build-compiled``) leaves as Python, because mypyc compiles no
``if TYPE_CHECKING:`` block inside a class: at run time the two classes are an
empty base and the draft's guard of its fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unorules.actions import Action
    from unorules.cards import Card, Color
    from unorules.ruleset import Ruleset
    from unorules.values import Event, Outcome, Phase, RoundResult, Value

__all__ = ["WRITABLE", "Draft", "Position"]

WRITABLE = frozenset({"color", "direction", "current_player", "phase", "stalled"})
"""The fields a hook may assign on a draft; the others change through mechanics."""

if TYPE_CHECKING:

    class Position:
        """The fields, read-only (a state is frozen; a draft writes through its mechanics)."""

        __slots__ = ()

        @property
        def ruleset(self) -> Ruleset: ...

        @property
        def hands(self) -> tuple[tuple[Card, ...], ...]: ...

        @property
        def draw_pile(self) -> tuple[Card, ...]: ...

        @property
        def discard_pile(self) -> tuple[Card, ...]: ...

        @property
        def color(self) -> Color | None: ...

        @property
        def direction(self) -> int: ...

        @property
        def current_player(self) -> int: ...

        @property
        def phase(self) -> Phase: ...

        @property
        def dealer(self) -> int: ...

        @property
        def scores(self) -> tuple[int, ...]: ...

        @property
        def uno_declared(self) -> tuple[int, ...]: ...

        @property
        def uno_exposed(self) -> tuple[int, ...]: ...

        @property
        def stalled(self) -> int: ...

        @property
        def left(self) -> tuple[int, ...]: ...

        @property
        def rounds(self) -> tuple[RoundResult, ...]: ...

        @property
        def outcome(self) -> Outcome | None: ...

        @property
        def rng(self) -> int: ...

        @property
        def extras(self) -> tuple[tuple[str, Value], ...]: ...

        @property
        def last_action(self) -> Action | None: ...

        @property
        def events(self) -> tuple[Event, ...]: ...

        @property
        def side(self) -> int: ...

    class Draft(Position):
        """The five fields a hook assigns (:data:`WRITABLE`); the others are read-only."""

        color: Color | None
        direction: int
        current_player: int
        phase: Phase
        stalled: int

else:

    class Position:
        """The base of :class:`unorules.Position`: the fields are each subclass's own."""

        __slots__ = ()

    class Draft(Position):
        """The guard of a draft's fields: the five of :data:`WRITABLE` are assigned,
        every other field changes through a mechanic, and a name that is no field is
        a mistake, refused here so that it never becomes a field of the next state."""

        __slots__ = ()

        def __setattr__(self, name: str, value: Any) -> None:
            if name in WRITABLE:
                self.__dict__[name] = value
                return
            raise AttributeError(
                f"a draft's {name!r} cannot be assigned: "
                + (
                    "it changes only through the draft's mechanics (see unorules.draft)"
                    if name in self.__dict__
                    else "it is not a field of the game"
                )
                + f"; the fields a hook assigns are {', '.join(sorted(WRITABLE))}"
            )

        def __delattr__(self, name: str) -> None:
            raise AttributeError(f"a draft's fields cannot be deleted ({name!r})")

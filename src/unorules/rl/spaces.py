"""A stable discrete action space for a rule set and a player count.

The space is built from what the rule set's plugins *declare* (their verbs,
the argument shape of each verb, the deck, which cards need a target), never
from what else happens to be installed, and it is ordered canonically, so the
same rule set and player count always give the same indices:

* index 0 is :data:`NOOP`, "let the out-of-turn window pass" (see
  :mod:`unorules.rl.pettingzoo_env`);
* then one block per verb: the core verbs in the order ``play``, ``draw``,
  ``pass``, ``uno``, ``catch``, ``challenge``, ``accept``, ``color``
  (those the rule set declares), then the plugins' own verbs alphabetically;
* within a verb, every distinct card of the deck in canonical card order
  (red, yellow, green, blue, then wilds; numbers 0-9, then Skip, Reverse,
  Draw Two, then other kinds alphabetically; wilds ``W``, ``W+4``, then other
  wild kinds alphabetically), then each colour (red, yellow, green, blue),
  then each target seat.

Targets are **seat-relative**: ``+k`` is the seat ``k`` places after the
acting seat in seat order (``(seat + k) % players``), whatever the direction
of play, so a policy generalises across seats. A verb's optional colour is
enumerated for wild cards only (a coloured card carries its own colour; a
wild whose colour is named later, ``ruleset.names_color``, takes none), over
the deck's colours (``ruleset.colors``: red, yellow, green, blue for the
classic deck); its optional target for cards that need one
(``ruleset.needs_target``).

For a deck of two-faced cards (``ruleset.two_faced``) actions name the face a
card shows (see :mod:`unorules.actions`), so a verb's cards are the distinct
faces of the deck, each once for every copy a hand may hold of it (``#k``,
:attr:`ActionSpace.picks`: up to the most cards of the deck that show that
face on one side).

:data:`ACTION_SPACE_VERSION` changes whenever this layout changes; golden
files in the test suite pin it for classic (2 and 4 players) and a house-rule set.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from unorules.actions import Action, verb_spec
from unorules.cards import Card, Color, kind_info, registered_colors
from unorules.errors import UnorulesError
from unorules.ruleset import Ruleset
from unorules.state import GameState

__all__ = ["ACTION_SPACE_VERSION", "NOOP", "ActionSpace", "ActionSpaceError", "card_order"]

ACTION_SPACE_VERSION = 1
"""The version of the index layout described in this module."""

NOOP = 0
"""The index of the no-op: a seat offered an out-of-turn window lets it pass."""

_CORE_VERBS = ("play", "draw", "pass", "uno", "catch", "challenge", "accept", "color")
_KIND_RANK = {k: i for i, k in enumerate([str(n) for n in range(10)] + ["S", "R", "+2", "W", "W+4"])}

Entry = tuple[str, Card | None, Color | None, int | None]
"""One index: verb, card, colour and seat-relative target (``None`` when absent)."""


class ActionSpaceError(UnorulesError, ValueError):
    """An action or index outside an :class:`ActionSpace`, or a seat that is not in the game."""


def card_order(cards: Iterable[Card]) -> list[Card]:
    """The distinct ``cards`` in canonical order (see the module docstring): the
    classic colours' cards first, then those of colours plugins register, in
    the order they were registered, then the wilds."""

    ranks = {c: i for i, c in enumerate(registered_colors())}

    def key(card: Card) -> tuple[int, int, int, str]:
        wild = kind_info(card.kind).wild
        colour = len(ranks) if card.color is None else ranks[card.color]
        rank = _KIND_RANK.get(card.kind)
        return (int(wild), colour, len(_KIND_RANK) if rank is None else rank, card.kind)

    return sorted(dict.fromkeys(cards), key=key)


def _verb_order(verbs: Iterable[str]) -> list[str]:
    declared = list(dict.fromkeys(verbs))
    core = [v for v in _CORE_VERBS if v in declared]
    return core + sorted(v for v in declared if v not in _CORE_VERBS)


class ActionSpace:
    """The actions of ``players`` seats playing ``ruleset``, numbered from 0.

    >>> import unorules
    >>> from unorules.rl import ActionSpace
    >>> space = ActionSpace(unorules.Ruleset.from_names(["classic"]), players=2)
    >>> space.n, space.describe(1), space.describe(space.n - 1)
    (71, 'play R0', 'color B')
    >>> action = unorules.Action.parse("1: play W+4 G")
    >>> space.action(space.index(action, 1), 1) is action
    True
    """

    version = ACTION_SPACE_VERSION

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
            raise ActionSpaceError(f"players must be 2 to 10, not {players!r}")
        self.ruleset = ruleset
        self.players = players
        colors: Sequence[Color] = ruleset.colors
        picks: list[int | None] = [None]
        copies: dict[Card, int] = {}
        if ruleset.two_faced:  # actions name faces: each face once per copy a hand may hold
            for side in (0, 1):
                counted: dict[Card, int] = {}
                for physical in ruleset.deck:
                    face = physical.faces[side]
                    counted[face] = counted.get(face, 0) + 1
                for face, n in counted.items():
                    copies[face] = max(copies.get(face, 0), n)
            cards = card_order(copies)
        else:
            cards = card_order(ruleset.deck)
        targets = list(range(1, players))
        entries: list[Entry] = [("noop", None, None, None)]
        for verb in _verb_order(ruleset.verbs):
            try:
                spec = verb_spec(verb)
            except KeyError:
                raise ActionSpaceError(
                    f"the rule set declares verb {verb!r}, which no plugin registered (register_verb)"
                ) from None
            card_choices: Sequence[Card | None]
            if spec.card == "required":
                card_choices = cards
            elif spec.card == "optional":
                card_choices = [None, *cards]
            else:
                card_choices = [None]
            for card in card_choices:
                colours: Sequence[Color | None]
                if spec.color == "required":
                    colours = colors
                elif spec.color == "optional" and card is not None:
                    colours = colors if ruleset.names_color(card) else [None]
                elif spec.color == "optional":
                    colours = [None, *colors]
                else:
                    colours = [None]
                rels: Sequence[int | None]
                if spec.target == "required":
                    rels = targets
                elif spec.target == "optional" and card is not None:
                    rels = targets if ruleset.needs_target(card) else [None]
                elif spec.target == "optional":
                    rels = [None, *targets]
                else:
                    rels = [None]
                nths: Sequence[int | None] = [None]
                if card is not None and copies:
                    nths = [None, *range(2, copies.get(card, 1) + 1)]
                for nth in nths:
                    for colour in colours:
                        for rel in rels:
                            entries.append((verb, card, colour, rel))
                            picks.append(nth)
        self.entries: tuple[Entry, ...] = tuple(entries)
        """What each index means (verb, card, colour, relative target); index 0 is the no-op."""
        self.picks: tuple[int | None, ...] = tuple(picks)
        """For a two-faced deck, which of the cards showing an index's face it plays
        (``Action.nth``: 2, 3, ...; ``None`` for the first and for every other index)."""
        self.n = len(entries)
        """The number of indices."""
        self._keys = {entry: i for i, entry in enumerate(entries)}
        self._actions: list[tuple[Action | None, ...]] = []
        self._index: list[dict[Action, int]] = []
        for seat in range(players):
            acts: list[Action | None] = [None]
            for (verb, card, colour, rel), nth in zip(entries[1:], picks[1:], strict=True):
                target = None if rel is None else (seat + rel) % players
                acts.append(Action.of(seat, verb, card, colour, target, nth))
            self._actions.append(tuple(acts))
            self._index.append({a: i for i, a in enumerate(acts) if a is not None})

    def __repr__(self) -> str:
        return f"<ActionSpace v{self.version} {list(self.ruleset.names)} players={self.players} n={self.n}>"

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ActionSpaceError(f"no seat {seat!r} in a {self.players}-seat action space")

    def index(self, action: Action, seat: int) -> int:
        """The index of ``seat``'s ``action``; :class:`ActionSpaceError` if the
        action belongs to another seat or is outside the space."""
        self._check_seat(seat)
        if action.seat != seat:
            raise ActionSpaceError(f"{action} is seat {action.seat}'s action, not seat {seat}'s")
        found = self._index[seat].get(action)
        if found is None:
            raise ActionSpaceError(
                f"{action} is not in the action space of {list(self.ruleset.names)} with {self.players} seats"
            )
        return found

    def action(self, index: int, seat: int) -> Action | None:
        """The action of ``seat`` at ``index`` (``None`` for :data:`NOOP`)."""
        self._check_seat(seat)
        i = int(index)
        if not 0 <= i < self.n:
            raise ActionSpaceError(f"action index {index!r} is outside 0..{self.n - 1}")
        return self._actions[seat][i]

    def describe(self, index: int) -> str:
        """The seat-independent text of ``index``: ``"noop"``, ``"play W+4 B"``, ``"catch +1"``."""
        if not 0 <= index < self.n:
            raise ActionSpaceError(f"action index {index!r} is outside 0..{self.n - 1}")
        verb, card, colour, rel = self.entries[index]
        nth = self.picks[index]
        parts = [verb]
        if card is not None:
            parts.append(str(card) if nth is None else f"{card}#{nth}")
        if colour is not None:
            parts.append(colour.value)
        if rel is not None:
            parts.append(f"+{rel}")
        return " ".join(parts)

    def legal_indices(self, state: GameState, seat: int) -> list[int]:
        """The indices of ``seat``'s legal actions in ``state`` (without the no-op)."""
        self._check_seat(seat)
        table = self._index[seat]
        try:
            return [table[a] for a in state.legal_actions() if a.seat == seat]
        except KeyError:
            missing = [a for a in state.legal_actions(seat) if a not in table]
            raise ActionSpaceError(
                f"legal action {missing[0]} is outside the action space: a plugin of "
                f"{list(self.ruleset.names)} uses a verb or argument it does not declare"
            ) from None

    def noop_allowed(self, state: GameState, seat: int) -> bool:
        """Whether ``seat`` may let the moment pass: it is not the seat to move,
        and the seat to move has a legal action (else someone must act)."""
        if seat == state.current_player or state.is_over:
            return False
        current = state.current_player
        return any(a.seat == current for a in state.legal_actions())

    def mask(
        self, state: GameState, seat: int, out: npt.NDArray[np.int8] | None = None
    ) -> npt.NDArray[np.int8]:
        """An ``int8`` array of :attr:`n` entries, 1 where ``seat`` may act in ``state``
        (the no-op included when :meth:`noop_allowed`); fills ``out`` if given."""
        indices = self.legal_indices(state, seat)
        if out is None:
            out = np.zeros(self.n, dtype=np.int8)
        else:
            out.fill(0)
        out[indices] = 1
        if self.noop_allowed(state, seat):
            out[NOOP] = 1
        return out

"""A fixed-size numeric observation of what one seat may see.

:class:`ObservationEncoder` turns a :class:`~unorules.SeatView` (never the
full state) into a ``float32`` vector whose layout depends only on the rule
set and the player count. Everything constant for the rule set (the index of
each card, phase and public extra, the bounds) is worked out once when the
encoder is built; :meth:`ObservationEncoder.encode` then writes the features
of one view, into a reused array if one is passed.

Seat-dependent features are **seat-relative**: entry ``k`` of a per-seat
feature is the seat ``k`` places after the observing seat in seat order, so
entry 0 is the observer itself.

Features, in order (see :attr:`ObservationEncoder.layout` for offsets):

==================  =================  ====================================================
name                size               value
==================  =================  ====================================================
``hand``            D                  copies of each distinct card of the deck in the hand
``top_card``        D                  one-hot: the top card of the discard pile
``color``           C                  one-hot: the colour to match (none: 0)
``phase``           P                  one-hot over the phases the rule set declares
``phase_count``     1                  ``phase.count`` (cards to draw, a stack's size)
``phase_card``      D                  one-hot: ``phase.card`` when this seat may see it
``phase_seat``      N                  one-hot, relative: ``phase.seat``
``phase_color``     C                  one-hot: ``phase.color``
``to_move``         N                  one-hot, relative: the seat to move
``hand_sizes``      N                  relative: cards in each hand
``uno_declared``    N                  relative: 1 for seats that called "UNO"
``uno_exposed``     N                  relative: 1 for seats that may be caught
``left``            N                  relative: 1 for seats that have left the game
``direction``       1                  1 in seat order, -1 against it
``draw_pile``       1                  cards in the draw pile
``scores``          N                  relative: game scores divided by 100
``extra:KEY``       2 per public key   1 if the public extra is set; its value if a number
                                       (a bool counts as 0/1), its length if a tuple
``visible_hands``   (N-1)·D            relative: copies of each card in the hands shown to
                                       this seat (only for rule sets whose plugins can
                                       show hands)
``side``            1                  two-faced decks only: the side in play (0 or 1)
``backs``           N·D                two-faced decks only, relative: copies of each face
                                       among the backs of each hand this seat sees (entry 0:
                                       its own, when a rule shows them)
``draw_pile_back``  D                  two-faced decks only: one-hot, the face on top of the
                                       draw pile
==================  =================  ====================================================

D is the number of distinct cards of the deck (canonical order, as in
:func:`unorules.rl.spaces.card_order`; for a deck of two-faced cards, the
distinct faces, since a view holds faces), C the number of the deck's colours
(``ruleset.colors``: 4 for the classic deck), P the number of declared phases
(sorted by name), N the number of seats. :data:`OBSERVATION_VERSION` changes
whenever this layout changes.
"""

from __future__ import annotations

from array import array
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from unorules.cards import Card
from unorules.errors import UnorulesError
from unorules.rl.spaces import card_order
from unorules.ruleset import Ruleset

__all__ = ["OBSERVATION_VERSION", "Feature", "ObservationEncoder", "ObservationError"]

OBSERVATION_VERSION = 1
"""The version of the observation layout described in this module."""

_SCORE_SCALE = 100.0
_BIG = 1.0e6
_FLOAT32 = np.dtype(np.float32)  # a dtype object, given positionally: numpy parses keywords slowly


class ObservationError(UnorulesError, ValueError):
    """A view that does not fit the encoder (another player count), or a bad player count."""


@attrs.frozen
class Feature:
    """One named slice of the observation vector: ``vector[offset:offset + size]``."""

    name: str
    offset: int
    size: int
    doc: str


class ObservationEncoder:
    """Encodes :class:`~unorules.SeatView` objects of ``players`` seats playing ``ruleset``.

    >>> import unorules
    >>> from unorules.rl import ObservationEncoder
    >>> rules = unorules.Ruleset.from_names(["classic"])
    >>> encoder = ObservationEncoder(rules, players=2)
    >>> state = rules.new_game(players=2, seed=1)
    >>> vector = encoder.encode(state.view(0))
    >>> vector.shape == (encoder.size,), int(encoder.slice(vector, "hand").sum())
    (True, 7)
    """

    version = OBSERVATION_VERSION

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
            raise ObservationError(f"players must be 2 to 10, not {players!r}")
        self.ruleset = ruleset
        self.players = players
        n = players
        faced = ruleset.two_faced
        cards = card_order(f for c in ruleset.deck for f in c.faces) if faced else card_order(ruleset.deck)
        self.cards: tuple[Card, ...] = tuple(cards)
        """The distinct cards of the deck (for two-faced cards, the distinct faces),
        in the order of the per-card features."""
        self._card_index = {c: i for i, c in enumerate(cards)}
        d = len(cards)
        copies = np.zeros(d, dtype=np.float32)
        for card in ruleset.deck:
            for face in card.faces or (card,):  # a face of either side may be up
                copies[self._card_index[face]] += 1
        self._colors = {c: i for i, c in enumerate(ruleset.colors)}
        ncolors = len(ruleset.colors)
        deck_size = float(len(ruleset.deck))
        self.phases: tuple[str, ...] = tuple(sorted(ruleset.phases))
        """The declared phases, in the order of the ``phase`` one-hot."""
        self._phase_index = {p: i for i, p in enumerate(self.phases)}
        self.extras: tuple[str, ...] = tuple(sorted(ruleset.public_extras))
        """The public extras, in the order of the ``extra:KEY`` features."""
        self.shows_hands: bool = bool(ruleset.hook.visible_hands.get_hookimpls())
        """Whether the rule set has a plugin that can show hands (the ``visible_hands`` feature)."""

        parts: list[tuple[str, int, str, Any, Any]] = [
            ("hand", d, "copies of each distinct card of the deck in the hand", 0.0, copies),
            ("top_card", d, "one-hot: the top card of the discard pile", 0.0, 1.0),
            ("color", ncolors, "one-hot: the colour to match", 0.0, 1.0),
            ("phase", len(self.phases), "one-hot over the declared phases", 0.0, 1.0),
            ("phase_count", 1, "phase.count", 0.0, _BIG),
            ("phase_card", d, "one-hot: phase.card when visible", 0.0, 1.0),
            ("phase_seat", n, "one-hot, relative: phase.seat", 0.0, 1.0),
            ("phase_color", ncolors, "one-hot: phase.color", 0.0, 1.0),
            ("to_move", n, "one-hot, relative: the seat to move", 0.0, 1.0),
            ("hand_sizes", n, "relative: cards in each hand", 0.0, deck_size),
            ("uno_declared", n, 'relative: seats that called "UNO"', 0.0, 1.0),
            ("uno_exposed", n, "relative: seats that may be caught", 0.0, 1.0),
            ("left", n, "relative: seats that have left", 0.0, 1.0),
            ("direction", 1, "1 in seat order, -1 against it", -1.0, 1.0),
            ("draw_pile", 1, "cards in the draw pile", 0.0, deck_size),
            ("scores", n, "relative: game scores / 100", -_BIG, _BIG),
        ]
        for key in self.extras:
            parts.append((f"extra:{key}", 2, f"public extra {key!r}: set, value", -_BIG, _BIG))
        if self.shows_hands:
            parts.append(
                (
                    "visible_hands",
                    (n - 1) * d,
                    "relative: cards of the hands shown",
                    0.0,
                    np.tile(copies, n - 1),
                )
            )
        if faced:
            parts.append(("side", 1, "the side in play", 0.0, 1.0))
            parts.append(
                ("backs", n * d, "relative: faces among the backs of each hand seen", 0.0, np.tile(copies, n))
            )
            parts.append(("draw_pile_back", d, "one-hot: the face on top of the draw pile", 0.0, 1.0))
        layout: list[Feature] = []
        low: list[npt.NDArray[np.float32]] = []
        high: list[npt.NDArray[np.float32]] = []
        offset = 0
        for name, size, doc, lo, hi in parts:
            layout.append(Feature(name, offset, size, doc))
            low.append(np.broadcast_to(np.asarray(lo, dtype=np.float32), (size,)))
            high.append(np.broadcast_to(np.asarray(hi, dtype=np.float32), (size,)))
            offset += size
        self.layout: tuple[Feature, ...] = tuple(layout)
        """Every feature's name, offset and size, in order."""
        self.size = offset
        """The length of an observation vector."""
        self.low: npt.NDArray[np.float32] = np.concatenate(low).astype(np.float32)
        """The smallest value of each entry (for an observation space)."""
        self.high: npt.NDArray[np.float32] = np.concatenate(high).astype(np.float32)
        """The largest value of each entry (for an observation space)."""
        at = {f.name: f.offset for f in layout}
        self._hand = at["hand"]
        self._top = at["top_card"]
        self._color = at["color"]
        self._phase = at["phase"]
        self._phase_count = at["phase_count"]
        self._phase_card = at["phase_card"]
        self._phase_seat = at["phase_seat"]
        self._phase_color = at["phase_color"]
        self._to_move = at["to_move"]
        self._sizes = at["hand_sizes"]
        self._declared = at["uno_declared"]
        self._exposed = at["uno_exposed"]
        self._left = at["left"]
        self._direction = at["direction"]
        self._draw = at["draw_pile"]
        self._scores = at["scores"]
        self._extra_at = {key: at[f"extra:{key}"] for key in self.extras}
        self._visible = at.get("visible_hands", -1)
        self._side = at.get("side", -1)
        self._backs = at.get("backs", -1)
        self._draw_back = at.get("draw_pile_back", -1)
        # Relative position of every seat, for every observing seat, and the
        # positions of each per-seat feature's entries in seat order (so that a
        # tuple indexed by seat goes into the vector with one list extension).
        self._rel = [[(s - seat) % n for s in range(n)] for seat in range(n)]
        self._at_sizes = [[self._sizes + r for r in rel] for rel in self._rel]
        self._at_scores = [[self._scores + r for r in rel] for rel in self._rel]
        self._template = array("f", bytes(4 * self.size))

    def __repr__(self) -> str:
        names = list(self.ruleset.names)
        return f"<ObservationEncoder v{self.version} {names} players={self.players} size={self.size}>"

    def feature(self, name: str) -> Feature:
        """The :class:`Feature` called ``name`` (``KeyError`` naming the known ones if absent)."""
        for feature in self.layout:
            if feature.name == name:
                return feature
        raise KeyError(f"no feature {name!r}; features: {', '.join(f.name for f in self.layout)}")

    def slice(self, vector: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        """The part of ``vector`` holding feature ``name``."""
        f = self.feature(name)
        return vector[f.offset : f.offset + f.size]

    def encode(self, view: Any, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The observation of ``view`` (a :class:`~unorules.SeatView` of this rule set
        and player count); written into ``out`` if given, else into a new array."""
        # The entries are written into a copy of a zeroed ``array.array`` (a C
        # float per item: writing one is a plain Python store, where a write
        # into a numpy array costs several times more), which numpy then wraps
        # without copying.
        seat: int = view.seat
        sizes = view.hand_sizes
        n = self.players
        if len(sizes) != n:
            raise ObservationError(f"a view of a {len(sizes)}-seat game given to a {n}-seat encoder")
        rel = self._rel[seat]
        index = self._card_index
        a = self._template[:]
        for card in view.hand:  # the hand is the first feature: its offset is 0
            a[index[card]] += 1.0
        for at, size in zip(self._at_sizes[seat], sizes):  # noqa: B905 - lengths checked above
            a[at] = size
        scores = view.scores
        if any(scores):
            for at, score in zip(self._at_scores[seat], scores):  # noqa: B905
                a[at] = score / _SCORE_SCALE
        phase = view.phase
        a[self._direction] = view.direction
        a[self._draw] = view.draw_pile_size
        a[self._phase_count] = phase.count
        a[self._top + index[view.top_card]] = 1.0
        a[self._to_move + rel[view.current_player]] = 1.0
        color = view.color
        if color is not None:
            a[self._color + self._colors[color]] = 1.0
        found = self._phase_index.get(phase.name)
        if found is not None:
            a[self._phase + found] = 1.0
        if phase.card is not None:
            i = index.get(phase.card, -1)
            if i >= 0:
                a[self._phase_card + i] = 1.0
        if phase.seat is not None and 0 <= phase.seat < n:
            a[self._phase_seat + rel[phase.seat]] = 1.0
        if phase.color is not None:
            a[self._phase_color + self._colors[phase.color]] = 1.0
        if view.uno_declared:
            for s in view.uno_declared:
                a[self._declared + rel[s]] = 1.0
        if view.uno_exposed:
            for s in view.uno_exposed:
                a[self._exposed + rel[s]] = 1.0
        if view.left:
            for s in view.left:
                a[self._left + rel[s]] = 1.0
        if self._extra_at:
            for key, value in view.extras:
                offset = self._extra_at.get(key)
                if offset is None or value is None:
                    continue
                a[offset] = 1.0
                if isinstance(value, bool | int):
                    a[offset + 1] = float(value)
                elif isinstance(value, tuple):
                    a[offset + 1] = float(len(value))
        if self._visible >= 0:
            d = len(self.cards)
            for s, hand in view.visible_hands.items():
                if s != seat:
                    start = self._visible + (rel[s] - 1) * d
                    for card in hand:
                        a[start + index[card]] += 1.0
        if self._side >= 0:  # a deck of two-faced cards
            d = len(self.cards)
            a[self._side] = view.side
            for s, backs in view.backs.items():
                start = self._backs + rel[s] * d
                for card in backs:
                    a[start + index[card]] += 1.0
            if view.draw_pile_back is not None:
                a[self._draw_back + index[view.draw_pile_back]] = 1.0
        vector: npt.NDArray[np.float32] = np.frombuffer(a, _FLOAT32)  # positional dtype: cheaper
        if out is None:
            return vector
        out[:] = vector
        return out

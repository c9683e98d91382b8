"""The game's random generator, whose whole state is one integer.

A game state carries its generator state (``GameState.rng``), so a game
replays exactly from its seed and its actions, in any process and on any
Python version. The generator is SplitMix64 (Steele, Lea and Flood, 2014):
small, fast enough for the few shuffles a round needs, and statistically
sound for card games. Plugins that need randomness wrap the state's integer
in an :class:`Rng`, use it, and store ``rng.state`` back in the new game state.
"""

from __future__ import annotations

import hashlib
import numbers
import os
import struct
from collections.abc import Callable, MutableSequence
from typing import SupportsIndex, TypeVar

from unorules._mypyc import mypyc_attr

__all__ = ["Rng", "Seed", "seed_state"]

Seed = int | str | SupportsIndex | None
"""What a game may be seeded with: an integer (``int``, a numpy integer, any
:class:`numbers.Integral`), a string, or ``None`` for a fresh random seed."""

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T")


def seed_state(seed: Seed) -> int:
    """Turn a user's seed into a generator state.

    Integers and strings give the same state every time; any
    :class:`numbers.Integral` (a numpy integer, for instance) is the same seed
    as the ``int`` of equal value. ``None`` draws a fresh seed from the
    operating system. Anything else (``bool`` included) raises ``TypeError``.
    """
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral | str):
        raise TypeError(f"seed must be an integer, a str or None, not {type(seed).__name__}")
    if not isinstance(seed, str):
        seed = int(seed)
    digest = hashlib.sha256(f"{type(seed).__name__}:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


@mypyc_attr(allow_interpreted_subclasses=True)  # a test or a plugin may subclass it
class Rng:
    """A mutable SplitMix64 generator around a ``state`` integer (kept to 64 bits).

    >>> rng = Rng(seed_state(1))
    >>> cards = list(range(5))
    >>> rng.shuffle(cards)
    >>> sorted(cards)
    [0, 1, 2, 3, 4]
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK
        """The generator's state, 64 bits: a game keeps it (``GameState.rng``) and
        replays from it."""

    def next64(self) -> int:
        """The next 64 random bits."""
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = _SPAN - _SPAN % n
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        count = len(items) - 1  # one draw per position from the last down to the second
        if count < 1:
            return
        if count < _SHORT:
            # Every draw of the shuffle at once (see _lanes): the same values in
            # the same order as next64 gives them, one bulk operation per step of
            # SplitMix64 instead of one per step and card.
            ones, steps, low, unpack = _TABLES.get(count) or _lanes(count)
            start = self.state
            z = (start * ones + steps) & low
            z = ((z ^ (z >> 30)) & low) * 0xBF58476D1CE4E5B9 & low
            z = ((z ^ (z >> 27)) & low) * 0x94D049BB133111EB & low
            z = (z ^ (z >> 31)) & low
            values = unpack(z.to_bytes(16 * count, "little"))[::2]
            # Below _SAFE every value meets randbelow's bound: no draw is rejected,
            # so these are the draws. Else (each value has one chance in 2**48) draw
            # one by one.
            if max(values) < _SAFE:
                for i, value in zip(range(count, 0, -1), values, strict=True):
                    j = value % (i + 1)
                    items[i], items[j] = items[j], items[i]
                self.state = (start + count * _GAMMA) & _MASK
                return
        for i in range(count, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


_SHORT = 1 << 16
"""The longest sequence :meth:`Rng.shuffle` shuffles with every draw at once."""
_SAFE = _SPAN - _SHORT
"""Below this, a 64-bit value is under randbelow's bound ``2**64 - 2**64 % n``
for every ``n`` up to :data:`_SHORT` (``2**64 % n < n``): no draw of a
shuffle of up to ``_SHORT`` items is rejected."""

_TABLES: dict[int, tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]] = {}
""":func:`_lanes` by count, for counts up to 128 (every deck and pile size)."""


def _lanes(count: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]:
    """What :meth:`Rng.shuffle` needs to make ``count`` draws at once.

    The draws are computed side by side in one integer, one 128-bit lane per
    draw (lane ``k`` holds draw ``k + 1``, lowest lane first): SplitMix64's
    state ``+ (k + 1) * gamma``, then its mixing, each step one operation on
    the whole integer. A lane's value stays under 2**64 after each masking,
    so a product by a 64-bit constant stays inside its lane, and what a right
    shift moves into the lane below lands in that lane's upper half, which
    the next masking clears. Returns the lanes' ones (to spread the state),
    their steps ``(k + 1) * gamma mod 2**64``, their low-64-bit mask and the
    little-endian unpacker of the lanes' bytes."""
    ones = int.from_bytes((b"\x01" + bytes(15)) * count, "little")
    steps = b"".join(((k * _GAMMA) & _MASK).to_bytes(16, "little") for k in range(1, count + 1))
    found = (ones, int.from_bytes(steps, "little"), ones * _MASK, struct.Struct(f"<{2 * count}Q").unpack)
    if count <= 128:
        _TABLES[count] = found
    return found

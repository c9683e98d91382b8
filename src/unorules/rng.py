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
from collections.abc import MutableSequence
from typing import SupportsIndex, TypeVar

__all__ = ["Rng", "Seed", "seed_state"]

Seed = int | str | SupportsIndex | None
"""What a game may be seeded with: an integer (``int``, a numpy integer, any
:class:`numbers.Integral`), a string, or ``None`` for a fresh random seed."""

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GAMMA = 0x9E3779B97F4A7C15
_SHORT = 1 << 16
"""The longest sequence :meth:`Rng.shuffle` shuffles with randbelow inlined."""
_SAFE = _SPAN - _SHORT
"""Below this, a 64-bit value is under randbelow's bound ``2**64 - 2**64 % n``
for every ``n`` up to :data:`_SHORT` (``2**64 % n < n``)."""
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


class Rng:
    """A mutable SplitMix64 generator around a state integer.

    >>> rng = Rng(seed_state(1))
    >>> cards = list(range(5))
    >>> rng.shuffle(cards)
    >>> sorted(cards)
    [0, 1, 2, 3, 4]
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

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
        size = len(items)
        if size > _SHORT:
            for i in range(size - 1, 0, -1):
                j = self.randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        # randbelow and next64 inlined, the state kept in a local: a reshuffled
        # pile costs two Python calls less per card, the same draws in the same
        # order. randbelow's bound is not computed per card: below _SAFE a
        # value is under the bound of every n up to _SHORT, and it is computed
        # only for the rare value above.
        s = self.state
        for i in range(size - 1, 0, -1):
            while True:
                s = (s + _GAMMA) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < _SAFE or z < _SPAN - _SPAN % (i + 1):
                    break
            j = z % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = s

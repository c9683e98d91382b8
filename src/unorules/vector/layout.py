"""The layout of :class:`~unorules.vector.UnoBatch`'s arrays: card, phase and action
numbering (those of :mod:`unorules.rl` for classic), SplitMix64 on arrays, the
batch's results and errors, and the check that a rule set is one the batch plays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from unorules.cards import Card
from unorules.errors import RulesetError, UnorulesError
from unorules.ruleset import Ruleset

SUPPORTED_OPTIONS: Final = frozenset(
    {
        "target_score",
        "uno_penalty",
        "challenge",
        "wd4_points",
        "drawn_card",
        "opening_reverse",
        "dealer_draw",
        "opening_wild",
    }
)
"""The classic options :class:`UnoBatch` plays at any of their values; every
other classic option must keep its default."""

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
U8 = npt.NDArray[np.uint8]
U64 = npt.NDArray[np.uint64]
F32 = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]
Index = npt.NDArray[np.intp]

DECK_SIZE: Final = 108
CARDS: Final = 54
"""Distinct cards, in the canonical order of :func:`unorules.rl.card_order`:
13 per colour (0-9, Skip, Reverse, Draw Two) for red, yellow, green, blue, then Wild, Wild Draw Four."""
WILD: Final = 52
WILD4: Final = 53
_KIND_NAMES = (*(str(n) for n in range(10)), "S", "R", "+2")
SKIP, REVERSE, DRAW2 = 10, 11, 12

# Phases, numbered as their one-hot in the observation (the declared phases, sorted by name).
CHALLENGE, COLOR, DRAWN, PENALTY, PLAY = 0, 1, 2, 3, 4
PHASE_NAMES: Final = ("challenge", "color", "drawn", "penalty", "play")

# Action indices (unorules.rl.ActionSpace for classic): noop, play (52 coloured cards, Wild and
# Wild Draw Four with each colour), draw, pass, uno, catch +1..+(N-1), challenge, accept, color.
NOOP: Final = 0
PLAY_WILD: Final = 53
PLAY_WILD4: Final = 57
DRAW: Final = 61
PASS: Final = 62
UNO: Final = 63
CATCH: Final = 64

CARD_COLOR: Final[I8] = np.array([c // 13 for c in range(52)] + [-1, -1], dtype=np.int8)
CARD_KIND: Final[I8] = np.array([c % 13 for c in range(52)] + [13, 14], dtype=np.int8)
_COLOURED_COLOR = CARD_COLOR[:52]
_COLOURED_KIND = CARD_KIND[:52]

_GAMMA_INT = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1
_GAMMA = np.uint64(_GAMMA_INT)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_VECTOR_SHUFFLE = 24
"""From this many games at once a deck is shuffled with NumPy (below, game by game with Rng)."""

_OBS_BASE = 176  # offset of ``to_move`` minus the player count (see _Layout)


class VectorError(UnorulesError, ValueError):
    """A bad argument to :class:`UnoBatch`: a batch size, a seed array or an
    action array of the wrong shape or type."""


@attrs.frozen
class StepResult:
    """What :meth:`UnoBatch.step` returns, one row per game."""

    rewards: F32
    """``(num_games, players)``: each seat's reward for this step (non-zero only when a
    game's episode ended: see ``reward`` of :class:`UnoBatch`)."""
    done: Bools
    """``(num_games,)``: the game's episode ended with this step; the slot already holds
    a new game (auto-reset)."""
    final_scores: I32
    """``(num_games, players)``: for a game that ended, its scores at the end (zeros elsewhere)."""
    final_winner: I8
    """``(num_games,)``: for a game that ended, the winning seat (-1 elsewhere)."""


def _mix(z: U64) -> U64:
    """SplitMix64's output function on an array of states (wrapping uint64 arithmetic)."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    out: U64 = z ^ (z >> _S31)
    return out


def _limits(length: int) -> U64:
    """For a shuffle of ``length`` items, ``Rng.randbelow``'s bound for each draw
    (``2**64 - 2**64 % n`` for ``n = length, ..., 2``): a value at or above it is rejected.
    A power of two's bound, ``2**64``, is stored as ``2**64 - 1``: that one value then
    sends the game's shuffle to ``Rng`` itself, which is exact anyway."""
    span = 1 << 64
    return np.array([min(span - span % n, _MASK64) for n in range(length, 1, -1)], dtype=np.uint64)


def _decode_play(index: Index) -> tuple[Index, I8]:
    """The card and the colour named by play indices 1..60."""
    card = np.where(index <= 52, index - 1, np.where(index < PLAY_WILD4, WILD, WILD4)).astype(np.intp)
    colour = np.where(index <= 52, CARD_COLOR[np.minimum(index - 1, 51)], (index - PLAY_WILD) % 4).astype(
        np.int8
    )
    return card, colour


def _seed_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise VectorError(f"seeds must be non-negative integers, not {value!r}")
    return value


def _card_list() -> list[Card]:
    colours = ("R", "Y", "G", "B")
    cards = [Card.parse(f"{c}{k}") for c in colours for k in _KIND_NAMES]
    return [*cards, Card.parse("W"), Card.parse("W+4")]


def _check_ruleset(rules: Ruleset | Sequence[str], options: Mapping[str, Any] | None) -> Ruleset:
    """The classic rule set ``rules`` with ``options``, or a RulesetError naming what is
    not covered and the reference environment to use instead."""
    elsewhere = "use the reference environments instead: unorules.rl.raw_env / unorules.rl.UnoEnv"
    if isinstance(rules, Ruleset):
        if options:
            raise RulesetError("give options either in the Ruleset or as options=, not both")
        ruleset = rules
    else:
        if isinstance(rules, str):
            rules = [part.strip() for part in rules.split(",") if part.strip()]
        ruleset = Ruleset.from_names(list(rules), dict(options or {}))
    if tuple(ruleset.names) != ("classic",):
        others = [name for name in ruleset.names if name != "classic"]
        raise RulesetError(
            f"unorules.vector plays the classic rules alone, not {list(ruleset.names)} "
            f"(plugins it does not implement: {', '.join(others) or 'classic is missing'}); {elsewhere}"
        )
    defaults = Ruleset.from_names(["classic"]).options
    changed = [
        f"{key}={value!r}"
        for key, value in ruleset.options.items()
        if key not in SUPPORTED_OPTIONS and value != defaults.get(key)
    ]
    if changed:
        raise RulesetError(
            f"unorules.vector does not implement the classic option values {', '.join(changed)} "
            f"(it plays {', '.join(sorted(SUPPORTED_OPTIONS))} at any value, the others at their "
            f"defaults); {elsewhere}"
        )
    if sorted(ruleset.deck, key=str) != sorted(Ruleset.from_names(["classic"]).deck, key=str):
        raise RulesetError(f"unorules.vector plays the classic 108-card deck; {elsewhere}")
    if ruleset.hand_size * 10 + 1 > DECK_SIZE:  # pragma: no cover - classic deals 7
        raise RulesetError(f"unorules.vector deals at most 10 cards a hand; {elsewhere}")
    return ruleset

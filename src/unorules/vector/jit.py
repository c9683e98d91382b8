"""JAX (optional): the batch's legal-action masks and observations, jitted.

Where ``jax`` is installed (``pip install "unorules[jax]"``; the CPU build, or
a GPU build where a user has one), :class:`JaxKernels` computes
:meth:`UnoBatch.mask <unorules.vector.UnoBatch.mask>` and
:meth:`UnoBatch.observe <unorules.vector.UnoBatch.observe>` as jitted JAX
functions of the batch's arrays, on JAX's default device:

>>> from unorules.vector import UnoBatch
>>> from unorules.vector.jit import JaxKernels
>>> batch = UnoBatch(64, players=4, seed=1)
>>> kernels = JaxKernels(batch)
>>> state = kernels.state()  # the batch's arrays, on the device
>>> mask, observation = kernels.mask(state), kernels.observe(state)
>>> mask.shape, observation.shape, bool((mask == batch.mask()).all())
((64, 73), (64, 206), True)

Scope, said plainly: these two functions only. :meth:`UnoBatch.step` (the
rules that change a game: plays, draws, reshuffles with the reference
generator, scoring, deals) stays on NumPy, and the state comes from the
NumPy batch each step (:meth:`JaxKernels.state` copies it to the device).
They are checked as the NumPy batch is: the differential test shadows every
game with the reference env and compares the jitted mask and observation
too (``tests/rl/test_vector_jit.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, cast

try:
    import jax
    import jax.numpy as jnp

    _MISSING = ""
except ImportError as exc:  # pragma: no cover - depends on the environment
    _MISSING = str(exc)  # the module still imports (for its documentation); JaxKernels says so

import numpy as np
import numpy.typing as npt

from unorules.vector.engine import UnoBatch
from unorules.vector.layout import (
    _COLOURED_COLOR,
    _COLOURED_KIND,
    CARD_COLOR,
    CARD_KIND,
    CARDS,
    CHALLENGE,
    COLOR,
    DECK_SIZE,
    DRAW,
    DRAWN,
    NOOP,
    PENALTY,
    PLAY,
    PLAY_WILD,
    PLAY_WILD4,
    WILD,
    WILD4,
    VectorError,
)

__all__ = ["STATE_FIELDS", "JaxKernels", "hundredths", "x64"]

STATE_FIELDS = (
    "hands",
    "hand_sizes",
    "pile",
    "discard_size",
    "draw_at",
    "color",
    "direction",
    "current",
    "window",
    "phase",
    "phase_count",
    "phase_card",
    "phase_seat",
    "phase_color",
    "exposed",
    "declared",
    "scores",
)
"""The :class:`~unorules.vector.UnoBatch` arrays the kernels read (:meth:`JaxKernels.state`)."""

State = dict[str, Any]


class JaxKernels:
    """The jitted mask and observation of ``batch``'s rule set and player count (see the
    module docstring). The kernels read a state (:meth:`state`), not the batch: give
    them the state of any batch of the same rule set and player count."""

    def __init__(self, batch: UnoBatch) -> None:
        if _MISSING:  # pragma: no cover - depends on the environment
            raise ImportError(
                f'unorules.vector.jit needs jax ({_MISSING}); install it with: pip install "unorules[jax]"'
            )
        if not isinstance(batch, UnoBatch):
            raise VectorError(f"JaxKernels takes a UnoBatch, not {batch!r}")
        self.players = batch.players
        self.num_actions = batch.num_actions
        self.observation_size = batch.observation_size
        self.batch = batch
        """The batch whose arrays :meth:`state` copies."""
        challenge = bool(batch.ruleset.options["challenge"])
        may_keep = batch.ruleset.options["drawn_card"] == "may-keep"
        self._mask = jax.jit(lambda s: _mask(s, self.players, challenge, may_keep))
        self._observe = jax.jit(lambda s, seats: _observe(s, seats, self.players))
        self._observe_asked = jax.jit(lambda s: _observe(s, _to_act(s, self.players), self.players))

    def state(self) -> State:
        """The batch's arrays now (:data:`STATE_FIELDS`), copied to JAX's default device."""
        b = self.batch
        with x64():
            return cast(State, jax.device_put({name: getattr(b, name) for name in STATE_FIELDS}))

    def mask(self, state: State) -> jax.Array:
        """``(games, actions)`` ``int8``: :meth:`UnoBatch.mask` of ``state``."""
        with x64():
            return cast(jax.Array, self._mask(state))

    def observe(self, state: State, seats: npt.ArrayLike | None = None) -> jax.Array:
        """``(games, observation_size)`` ``float32``: :meth:`UnoBatch.observe` of ``state``
        for ``seats`` (one per game; default the seat asked in each game)."""
        with x64():
            if seats is None:
                return cast(jax.Array, self._observe_asked(state))
            seat = np.asarray(seats)
            games = state["current"].shape[0]
            if seat.shape != (games,) or ((seat < 0) | (seat >= self.players)).any():
                raise VectorError(
                    f"seats: give one seat from 0 to {self.players - 1} per game ({games} games)"
                )
            return cast(jax.Array, self._observe(state, jnp.asarray(seat, dtype=jnp.int32)))


@contextlib.contextmanager
def x64() -> Iterator[None]:
    """JAX's 64-bit types for the ``with`` block only: ``jax.enable_x64(True)`` (or
    ``jax.experimental.enable_x64()`` on older JAX), which restores the user's setting on
    exit. Every call this package makes into JAX runs inside it."""
    experimental = getattr(getattr(jax, "experimental", None), "enable_x64", None)
    scope = experimental() if experimental is not None else jax.enable_x64(True)
    with scope:
        yield


def hundredths(value: jax.Array) -> jax.Array:
    """``value / 100`` as ``float32``, rounded as NumPy and the reference round it (the
    quotient in ``float64``, then to ``float32``; XLA's ``float32`` division may be an ulp
    off). Needs :func:`x64`."""
    return (value.astype(jnp.float64) / 100.0).astype(jnp.float32)


def _to_act(s: State, n: int) -> jax.Array:
    current = s["current"].astype(jnp.int32)
    window = s["window"].astype(jnp.int32)
    moved = (current + s["direction"].astype(jnp.int32) * window) % n
    return jnp.where(window == 0, current, moved)


def _top(s: State) -> jax.Array:
    at = s["discard_size"].astype(jnp.int32) - 1
    return jnp.take_along_axis(s["pile"], at[:, None], axis=1)[:, 0].astype(jnp.int32)


def _seat_rows(array: jax.Array, seat: jax.Array) -> jax.Array:
    """``array[g, seat[g]]`` for each game ``g``."""
    return jnp.take_along_axis(array, seat[:, None, None] if array.ndim == 3 else seat[:, None], axis=1)[:, 0]


def _mask(s: State, n: int, challenge: bool, may_keep: bool) -> jax.Array:
    colour_of = jnp.asarray(CARD_COLOR, dtype=jnp.int32)
    kind_of = jnp.asarray(CARD_KIND, dtype=jnp.int32)
    coloured_colour = jnp.asarray(_COLOURED_COLOR, dtype=jnp.int32)
    coloured_kind = jnp.asarray(_COLOURED_KIND, dtype=jnp.int32)
    games = s["current"].shape[0]
    cur = s["current"].astype(jnp.int32)
    hand = _seat_rows(s["hands"], cur) > 0  # (games, 54): the seat to move holds the card
    size = _seat_rows(s["hand_sizes"], cur)
    declared = _seat_rows(s["declared"], cur)
    may_call = (size == 2) & ~declared
    asked_now = s["window"] == 0
    phase = s["phase"]
    colour = s["color"].astype(jnp.int32)
    top_kind = kind_of[_top(s)]
    same_colour = coloured_colour[None, :] == colour[:, None]
    matching = hand[:, :52] & (same_colour | (coloured_kind[None, :] == top_kind[:, None]))
    wild = hand[:, WILD]
    wild4 = hand[:, WILD4]
    if not challenge:
        wild4 = wild4 & ~(hand[:, :52] & same_colour).any(axis=1)
    can_play = matching.any(axis=1) | wild | wild4
    may_draw = (s["draw_at"] < DECK_SIZE) | (s["discard_size"] > 1) | ~can_play
    # The drawn card: playable as classic's is_playable says (Wild Draw Four as above).
    card = jnp.maximum(s["phase_card"].astype(jnp.int32), 0)
    card_colour = colour_of[card]
    playable = (card_colour < 0) | (card_colour == colour) | (kind_of[card] == top_kind)
    if not challenge:
        playable = jnp.where(card == WILD4, ~(hand[:, :52] & same_colour).any(axis=1), playable)
    index = jnp.arange(1 + 52 + 8)
    drawn_play = (
        ((index[None, :] == card[:, None] + 1) & (card < 52)[:, None])
        | (((index >= PLAY_WILD) & (index < PLAY_WILD4))[None, :] & (card == WILD)[:, None])
        | (((index >= PLAY_WILD4) & (index < DRAW))[None, :] & (card == WILD4)[:, None])
    ) & playable[:, None]
    in_play = asked_now & (phase == PLAY)
    in_drawn = asked_now & (phase == DRAWN)
    plays = jnp.concatenate(
        [
            jnp.zeros((games, 1), dtype=bool),
            matching,
            jnp.repeat(wild[:, None], 4, axis=1),
            jnp.repeat(wild4[:, None], 4, axis=1),
        ],
        axis=1,
    )
    plays = (plays & in_play[:, None]) | (drawn_play & in_drawn[:, None])
    draw = (in_play & may_draw) | (asked_now & (phase == PENALTY))
    pass_ = in_drawn & (True if may_keep else ~playable)
    call = (in_play | in_drawn) & may_call
    # UNO windows: the exposed seat may call late; every other seat asked may catch it.
    exposed = s["exposed"].astype(jnp.int32)
    asked = _to_act(s, n)
    open_ = exposed >= 0
    call = call | (open_ & (asked == exposed))
    offset = (exposed - asked) % n  # the catch +offset
    catches = open_[:, None] & (asked != exposed)[:, None] & (jnp.arange(1, n)[None, :] == offset[:, None])
    in_challenge = asked_now & (phase == CHALLENGE)
    in_colour = asked_now & (phase == COLOR)
    mask = jnp.concatenate(
        [
            plays.at[:, NOOP].set(~asked_now),
            draw[:, None],
            pass_[:, None],
            call[:, None],
            catches,
            in_challenge[:, None],
            in_challenge[:, None],
            jnp.repeat(in_colour[:, None], 4, axis=1),
        ],
        axis=1,
    )
    assert mask.shape[1] == 69 + n  # noop, 60 plays, draw, pass, uno, n - 1 catches, 2 + 4 answers
    return mask.astype(jnp.int8)


def _one_hot(value: jax.Array, size: int) -> jax.Array:
    """One row per game: 1 at ``value`` (nothing for a value outside ``0 .. size - 1``)."""
    return (jnp.arange(size)[None, :] == value[:, None]).astype(jnp.float32)


def _observe(s: State, seat: jax.Array, n: int) -> jax.Array:
    seat = seat.astype(jnp.int32)
    cur = s["current"].astype(jnp.int32)
    phase = s["phase"].astype(jnp.int32)
    card = s["phase_card"].astype(jnp.int32)
    shown = (phase != DRAWN) | (cur == seat)
    rel = (seat[:, None] + jnp.arange(n)[None, :]) % n  # entry k: the seat k places after

    def relative(value: jax.Array) -> jax.Array:  # a seat (or -1) as a one-hot relative to ``seat``
        return jnp.where((value >= 0)[:, None], _one_hot((value - seat) % n, n), 0.0)

    parts = [
        _seat_rows(s["hands"], seat).astype(jnp.float32),
        _one_hot(_top(s), CARDS),
        _one_hot(s["color"].astype(jnp.int32), 4),
        _one_hot(phase, 5),
        s["phase_count"].astype(jnp.float32)[:, None],
        jnp.where(shown[:, None], _one_hot(card, CARDS), 0.0),
        relative(s["phase_seat"].astype(jnp.int32)),
        _one_hot(s["phase_color"].astype(jnp.int32), 4),
        _one_hot((cur - seat) % n, n),
        jnp.take_along_axis(s["hand_sizes"], rel, axis=1).astype(jnp.float32),
        jnp.take_along_axis(s["declared"], rel, axis=1).astype(jnp.float32),
        relative(s["exposed"].astype(jnp.int32)),
        jnp.zeros((seat.shape[0], n), dtype=jnp.float32),  # ``left``: no seat leaves a classic game
        s["direction"].astype(jnp.float32)[:, None],
        (DECK_SIZE - s["draw_at"].astype(jnp.float32))[:, None],
        hundredths(jnp.take_along_axis(s["scores"], rel, axis=1)),
    ]
    return jnp.concatenate(parts, axis=1)

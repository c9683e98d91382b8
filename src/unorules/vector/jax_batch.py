"""JAX (optional): the whole batched engine jitted, :class:`JaxBatch`.

:class:`JaxBatch` plays what :class:`~unorules.vector.UnoBatch` plays (the
classic rules with the options of :data:`~unorules.vector.SUPPORTED_OPTIONS`)
with the same action indices, masks and observations, and every game passes
through the states the reference engine produces for the same seed and the
same actions; but its :meth:`~JaxBatch.step` is one jitted JAX function of
the batch's arrays: plays, draws, the reshuffles of the discard pile with the
reference generator (SplitMix64 with ``Rng.randbelow``'s rejection sampling
and its Fisher-Yates shuffle, in ``uint64``), scoring and, at auto-reset, the
new games' seeds (SplitMix64 over the batch's stream, then
:func:`unorules.seed_state`'s SHA-256, both in JAX), the dealer draw, the deal
and a Wild Draw Four starter sent back:

>>> import numpy as np
>>> from unorules.vector.jax_batch import JaxBatch
>>> batch = JaxBatch(32, players=4, episode="round", seed=1)
>>> mask = np.asarray(batch.mask())  # a JAX array on the device; np.asarray copies it
>>> mask.shape, batch.observe().shape
((32, 73), (32, 206))
>>> result = batch.step(mask.argmax(axis=1))  # any legal index per game
>>> result.rewards.shape, result.done.shape
((32, 4), (32,))

The state is a pytree (a dict of arrays, :attr:`JaxBatch.state`) and
:meth:`JaxBatch.step_function` the pure jitted ``(state, actions, active) ->
(state, result)`` for a learner that jits its own loop around it.

64-bit integers: the generator states are ``uint64``, which JAX only has with
its ``jax_enable_x64`` flag. The flag is not changed for the process: every
call :class:`JaxBatch` makes into JAX runs inside the scoped
:func:`x64` context (``jax.enable_x64(True)``, or
``jax.experimental.enable_x64()`` on older JAX), which restores the user's
setting on exit. A learner calling :meth:`JaxBatch.step_function` itself
wraps those calls in ``with x64():`` too (outside it JAX would truncate the
states to 32 bits; the function refuses to run there).

Scope beside :class:`~unorules.vector.UnoBatch`: no ``final_observations``
(the Gymnasium and PettingZoo views stay on the NumPy batch). Construction,
:meth:`JaxBatch.reset` with explicit seeds and :meth:`JaxBatch.reset_games`
deal on the host with the NumPy batch (its deal is the reference's) and copy
the state to the device; everything a step does happens on the device.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, cast

try:
    import jax
    import jax.numpy as jnp
    from jax import lax

    _MISSING = ""
except ImportError as exc:  # pragma: no cover - depends on the environment
    _MISSING = str(exc)

import numpy as np
import numpy.typing as npt

from unorules.rng import Seed
from unorules.ruleset import Ruleset
from unorules.vector.engine import UnoBatch
from unorules.vector.jit import STATE_FIELDS, _mask, _observe, _to_act, hundredths, x64
from unorules.vector.layout import (
    _GAMMA_INT,
    _MASK64,
    CARD_COLOR,
    CARD_KIND,
    CARDS,
    CATCH,
    CHALLENGE,
    COLOR,
    DECK_SIZE,
    DRAW,
    DRAW2,
    DRAWN,
    NOOP,
    PASS,
    PENALTY,
    PLAY,
    PLAY_WILD,
    PLAY_WILD4,
    REVERSE,
    SKIP,
    UNO,
    WILD,
    WILD4,
    VectorError,
)

__all__ = ["JaxBatch", "JaxStepResult", "x64"]

State = dict[str, Any]

DEVICE_FIELDS = (*STATE_FIELDS, "dealer", "stalled", "rounds", "rng", "seeds")
"""The :class:`~unorules.vector.UnoBatch` arrays a :class:`JaxBatch` state holds (same
names, shapes and dtypes), beside ``stream``: the generator of the next games' seeds."""


class JaxStepResult(NamedTuple):
    """What :meth:`JaxBatch.step` returns: :class:`~unorules.vector.StepResult`'s
    fields as JAX arrays (a pytree)."""

    rewards: Any
    """``(games, players)`` ``float32``: each seat's reward for this step."""
    done: Any
    """``(games,)`` ``bool``: the game's episode ended (its slot holds a new game)."""
    final_scores: Any
    """``(games, players)`` ``int32``: an ended game's scores (zeros elsewhere)."""
    final_winner: Any
    """``(games,)`` ``int8``: an ended game's winning seat (-1 elsewhere)."""
    illegal: Any
    """``(games,)`` ``bool``: the action given was not legal; that game was left unchanged
    (:meth:`JaxBatch.step` raises instead)."""


# -- SHA-256 (for seed_state) ---------------------------------------------------------------


def _primes(count: int) -> list[int]:
    found: list[int] = []
    n = 2
    while len(found) < count:
        if all(n % p for p in found):
            found.append(n)
        n += 1
    return found


def _iroot(value: int, k: int) -> int:
    """The integer ``k``-th root of ``value`` (rounded down)."""
    x = 1 << ((value.bit_length() + k - 1) // k)
    while True:
        y = ((k - 1) * x + value // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


_SHA_K = [_iroot(p << 96, 3) & 0xFFFFFFFF for p in _primes(64)]
_SHA_H = [_iroot(p << 64, 2) & 0xFFFFFFFF for p in _primes(8)]


def _rotr(x: Any, r: int) -> Any:
    return (x >> np.uint32(r)) | (x << np.uint32(32 - r))


def _seed_states(seeds: Any) -> Any:
    """:func:`unorules.seed_state` of each integer seed (``uint64``, below 2**63): the first
    8 bytes, little-endian, of the SHA-256 of ``"int:<seed in decimal>"``."""
    u32 = jnp.uint32
    games = seeds.shape[0]

    def digit(k: Any, c: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
        rest, digits, count = c
        digits = digits.at[:, k].set((rest % jnp.uint64(10)).astype(u32))
        rest = rest // jnp.uint64(10)
        return rest, digits, count + (rest > 0).astype(jnp.int32)

    start_digits = (seeds, jnp.zeros((games, 19), u32), jnp.ones(games, jnp.int32))
    _rest, stacked, count = lax.fori_loop(0, 19, digit, start_digits)  # digit k is 10**k's
    length = 4 + count  # message bytes
    position = jnp.arange(64)[None, :]
    message = jnp.zeros((games, 64), dtype=u32)
    for i, byte in enumerate(b"int:"):
        message = message.at[:, i].set(byte)
    which = jnp.clip(count[:, None] - 1 - (position - 4), 0, 18)  # byte 4 + i: digit count - 1 - i
    digit_bytes = jnp.take_along_axis(stacked, which, axis=1) + u32(ord("0"))
    is_digit = (position >= 4) & (position < length[:, None])
    message = jnp.where(is_digit, digit_bytes, message)
    message = jnp.where(position == length[:, None], u32(0x80), message)
    message = message.at[:, 63].set((8 * length).astype(u32))  # the bit length (< 256), big-endian
    words = message.reshape(-1, 16, 4)
    w = (
        (words[:, :, 0] << u32(24))
        | (words[:, :, 1] << u32(16))
        | (words[:, :, 2] << u32(8))
        | words[:, :, 3]
    )

    def extend(t: Any, ws: Any) -> Any:
        a, b = ws[t - 15], ws[t - 2]
        s0 = _rotr(a, 7) ^ _rotr(a, 18) ^ (a >> u32(3))
        s1 = _rotr(b, 17) ^ _rotr(b, 19) ^ (b >> u32(10))
        return ws.at[t].set(ws[t - 16] + s0 + ws[t - 7] + s1)

    ws = jnp.zeros((64, games), u32).at[:16].set(w.T)
    ws = lax.fori_loop(16, 64, extend, ws)  # (64, games): the message schedule
    ks = jnp.asarray(_SHA_K, dtype=u32)

    def round_(t: Any, h: tuple[Any, ...]) -> tuple[Any, ...]:
        a, b, c, d, e, f, g, hh = h
        s1 = _rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)
        t1 = hh + s1 + ((e & f) ^ (~e & g)) + ks[t] + ws[t]
        s0 = _rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)
        t2 = s0 + ((a & b) ^ (a & c) ^ (b & c))
        return (t1 + t2, a, b, c, d + t1, e, f, g)

    start = tuple(jnp.full(seeds.shape, v, dtype=u32) for v in _SHA_H)
    out = lax.fori_loop(0, 64, round_, start)
    h0, h1 = out[0] + u32(_SHA_H[0]), out[1] + u32(_SHA_H[1])

    def swapped(x: Any) -> Any:  # the word's big-endian bytes read little-endian
        x = x.astype(jnp.uint64)
        return (
            ((x & 0xFF) << 24) | (((x >> 8) & 0xFF) << 16) | (((x >> 16) & 0xFF) << 8) | ((x >> 24) & 0xFF)
        ).astype(jnp.uint64)

    return swapped(h0) | (swapped(h1) << jnp.uint64(32))


# -- the engine, on arrays ------------------------------------------------------------------


class _Rules:
    """A batch's rule constants, closed over by the jitted step."""

    def __init__(self, host: UnoBatch) -> None:
        opts = host.ruleset.options
        self.n = host.players
        self.hand = host.ruleset.hand_size
        self.target = int(opts["target_score"])
        self.uno_penalty = int(opts["uno_penalty"])
        self.challenge = bool(opts["challenge"])
        self.may_keep = opts["drawn_card"] == "may-keep"
        self.dealer_starts = opts["opening_reverse"] == "dealer-starts"
        self.returned = host._returned
        self.episode = host.episode
        self.reward = host.reward
        self.num_actions = host.num_actions
        self.challenge_index = host._challenge_index
        self.accept_index = host._accept_index
        self.color_index = host._color_index
        self.points = np.asarray(host._points, dtype=np.int32)
        self.dealer_value = np.asarray(host._dealer_value, dtype=np.int32)
        self.deck = np.asarray(host._deck_row, dtype=np.int32)
        span = 1 << 64
        # randbelow(n) rejects a value above 2**64 - 1 - 2**64 % n (none for a power of two).
        games = host.num_games
        self.end_chunk = min(games, max(32, games // 128))
        """Games whose rounds end dealt together (see :func:`_chunked`)."""
        self.reshuffle_chunk = min(games, max(8, games // 1024))
        self.accept = np.array(
            [_MASK64 - span % m if m else 0 for m in range(DECK_SIZE + 1)], dtype=np.uint64
        )


_WIDE = ("hands", "hand_sizes", "pile", "discard_size", "draw_at", "color", "direction", "current",
         "window", "phase", "phase_count", "phase_card", "phase_seat", "phase_color", "dealer",
         "exposed", "stalled", "rounds")  # fmt: skip
"""Fields held in small integers, widened to int32 inside the step."""


def _typed(new: State, old: State) -> State:
    """``new`` with each field in the dtype of ``old``'s (64-bit defaults kept out of the state)."""
    return {name: jnp.asarray(value).astype(old[name].dtype) for name, value in new.items()}


def _mix(z: Any) -> Any:
    z = (z ^ (z >> jnp.uint64(30))) * jnp.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> jnp.uint64(27))) * jnp.uint64(0x94D049BB133111EB)
    return z ^ (z >> jnp.uint64(31))


def _shuffle(r: _Rules, items: Any, length: Any, rng: Any, on: Any) -> tuple[Any, Any]:
    """``Rng.shuffle`` of ``items[g, :length[g]]`` by each game's generator state, in the
    games ``on``: Fisher-Yates from the last position down, each swap index
    ``randbelow(i + 1)``. Every draw is made at once (draw ``t`` of a game is SplitMix64's
    output at ``state + t * gamma``) unless one of them is a value ``randbelow`` rejects
    (one chance in about 2**57 per draw): then the games are shuffled draw by draw
    (:func:`_shuffle_exact`)."""
    games = items.shape[0]
    gamma = jnp.uint64(_GAMMA_INT)
    swaps = DECK_SIZE - 1
    count = jnp.where(on, length - 1, 0)  # draws per game: one per position from the last down to 1
    t = jnp.arange(1, swaps + 1, dtype=jnp.uint64)
    values = _mix(rng[:, None] + t[None, :] * gamma)  # (games, draws): draw t in column t - 1
    position = jnp.arange(swaps, 0, -1)  # the position swapped at loop step k: 107 .. 1
    draw = count[:, None] - position[None, :]  # its draw's column (negative: no swap)
    act = draw >= 0
    value = jnp.take_along_axis(values, jnp.clip(draw, 0, swaps - 1), axis=1)
    bound = (position + 1).astype(jnp.uint64)
    rejected = (act & (value > jnp.asarray(r.accept)[position + 1][None, :])).any()
    picks = (value % bound[None, :]).astype(jnp.int32).T  # (steps, games)
    acts = act.T
    cols = jnp.arange(games)

    def swap(k: Any, held: Any) -> Any:
        i = swaps - k
        j, a = picks[k], acts[k]
        row = held[i]
        picked = held[j, cols]
        held = held.at[i].set(jnp.where(a, picked, row))
        return held.at[j, cols].set(jnp.where(a, row, held[j, cols]))

    def fast(_: Any) -> tuple[Any, Any]:
        shuffled = lax.fori_loop(0, swaps, swap, items.T).T
        return shuffled, rng + jnp.maximum(count, 0).astype(jnp.uint64) * gamma

    return cast(
        tuple[Any, Any], lax.cond(rejected, lambda _: _shuffle_exact(r, items, length, rng, on), fast, None)
    )


def _shuffle_exact(r: _Rules, items: Any, length: Any, rng: Any, on: Any) -> tuple[Any, Any]:
    """:func:`_shuffle` draw by draw, each ``randbelow`` drawing again while it rejects."""
    accept = jnp.asarray(r.accept)
    gamma = jnp.uint64(_GAMMA_INT)
    cols = jnp.arange(items.shape[0])

    def swap(k: Any, carry: tuple[Any, Any]) -> tuple[Any, Any]:
        held, rng = carry
        i = DECK_SIZE - 1 - k  # positions 107 .. 1
        act = on & (i <= length - 1)
        limit = accept[i + 1]
        rng = jnp.where(act, rng + gamma, rng)
        value = _mix(rng)

        def again(c: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
            state, v, rej = c
            state = jnp.where(rej, state + gamma, state)
            v = jnp.where(rej, _mix(state), v)
            return state, v, rej & (v > limit)

        rng, value, _ = lax.while_loop(lambda c: c[2].any(), again, (rng, value, act & (value > limit)))
        j = (value % (i + 1).astype(jnp.uint64)).astype(jnp.int32)
        row = held[i]
        picked = held[j, cols]
        held = held.at[i].set(jnp.where(act, picked, row))
        held = held.at[j, cols].set(jnp.where(act, row, held[j, cols]))
        return held, rng

    held, rng = lax.fori_loop(0, DECK_SIZE - 1, swap, (items.T, rng))
    return held.T, rng


def _chunked(
    s: State,
    sel: Any,
    size: int,
    fn: Callable[..., tuple[State, tuple[Any, ...]]],
    extras: tuple[Any, ...],
    outs: tuple[Any, ...],
) -> tuple[State, tuple[Any, ...]]:
    """``fn`` on the games ``sel`` only, ``size`` games at a time in slot order: each round
    gathers the next games of ``sel`` (and their rows of ``extras``) into a sub-state,
    calls ``fn(sub_state, valid, *extras)`` (``valid`` false in the rows padding the last
    chunk) and scatters the sub-state and ``fn``'s per-game outputs back (into ``outs``).
    The scalar ``stream`` is carried through."""
    games = sel.shape[0]

    def body(c: tuple[State, Any, tuple[Any, ...]]) -> tuple[State, Any, tuple[Any, ...]]:
        s, remaining, outs = c
        index = jnp.nonzero(remaining, size=size, fill_value=games)[0]
        valid = index < games
        rows = jnp.minimum(index, games - 1)
        sub = {k: (v if k == "stream" else v[rows]) for k, v in s.items()}
        new, got = fn(sub, valid, *(e[rows] for e in extras))
        s = {k: (new[k] if k == "stream" else v.at[index].set(new[k], mode="drop")) for k, v in s.items()}
        outs = tuple(o.at[index].set(g, mode="drop") for o, g in zip(outs, got, strict=True))
        return s, remaining.at[index].set(False, mode="drop"), outs

    s, _left, outs = lax.while_loop(lambda c: c[1].any(), body, (s, sel, outs))
    return s, outs


def _set_play(s: State, on: Any) -> State:
    s = dict(s)
    s["phase"] = jnp.where(on, PLAY, s["phase"])
    for name in ("phase_count",):
        s[name] = jnp.where(on, 0, s[name])
    for name in ("phase_card", "phase_seat", "phase_color"):
        s[name] = jnp.where(on, -1, s[name])
    return s


def _pass_turn(r: _Rules, s: State, on: Any, seat: Any, steps: Any) -> State:
    s = dict(s, current=jnp.where(on, (seat + s["direction"] * steps) % r.n, s["current"]))
    return _set_play(s, on)


def _top(s: State) -> Any:
    rows = jnp.arange(s["pile"].shape[0])
    return s["pile"][rows, s["discard_size"] - 1]


def _playable(r: _Rules, s: State, seat: Any, card: Any) -> Any:
    """Classic's ``is_playable`` of ``card`` (one per game, >= 0) for ``seat``."""
    colour_of, kind_of = jnp.asarray(CARD_COLOR, jnp.int32), jnp.asarray(CARD_KIND, jnp.int32)
    colour = colour_of[card]
    ok = (colour < 0) | (colour == s["color"]) | (kind_of[card] == kind_of[_top(s)])
    if not r.challenge:
        rows = jnp.arange(card.shape[0])
        held = s["hands"][rows, seat, :52] > 0
        holds = (held & (colour_of[None, :52] == s["color"][:, None])).any(axis=1)
        ok = jnp.where(card == WILD4, ~holds, ok)
    return ok


def _reshuffle(r: _Rules, s: State, on: Any) -> State:
    """R-TURN-RESHUFFLE in the games ``on``: the discard pile but its top card, shuffled,
    becomes the draw pile (nothing with a one-card discard pile)."""
    d = s["discard_size"]
    act = on & (d > 1)
    rest = d - 1
    items, rng = _shuffle(r, s["pile"], rest, s["rng"], act)
    rows = jnp.arange(d.shape[0])
    top = s["pile"][rows, d - 1]
    start = DECK_SIZE - rest
    position = jnp.arange(DECK_SIZE)[None, :]
    moved = jnp.take_along_axis(items, jnp.clip(position - start[:, None], 0, DECK_SIZE - 1), axis=1)
    pile = jnp.where(act[:, None] & (position >= start[:, None]), moved, s["pile"])
    pile = pile.at[:, 0].set(jnp.where(act, top, pile[:, 0]))
    new = dict(
        s, pile=pile, rng=rng, discard_size=jnp.where(act, 1, d), draw_at=jnp.where(act, start, s["draw_at"])
    )
    return _typed(new, s)


def _draw(r: _Rules, s: State, on: Any, seat: Any, count: Any) -> tuple[State, Any]:
    """Each ``seat`` of the games ``on`` draws ``count`` cards (reshuffling when the draw
    pile runs out); returns the state and the last card each drew (-1: none)."""
    games = seat.shape[0]
    rows = jnp.arange(games)

    def more(c: tuple[State, Any, Any, Any]) -> Any:
        _s, k, _got, _last = c
        return (on & (count > k)).any()

    def one(c: tuple[State, Any, Any, Any]) -> tuple[State, Any, Any, Any]:
        s, k, got, last = c
        want = on & (count > k)
        empty = want & (s["draw_at"] >= DECK_SIZE)
        s, _ = _chunked(s, empty, r.reshuffle_chunk, lambda x, valid: (_reshuffle(r, x, valid), ()), (), ())
        want = want & (s["draw_at"] < DECK_SIZE)
        at = s["draw_at"]
        card = s["pile"][rows, jnp.minimum(at, DECK_SIZE - 1)]
        hands = s["hands"].at[rows, seat, card].add(want.astype(s["hands"].dtype))
        s = dict(s, hands=hands, draw_at=at + want)
        return s, k + 1, got + want, jnp.where(want, card, last)

    start = (s, jnp.int32(0), jnp.zeros(games, jnp.int32), jnp.full(games, -1, jnp.int32))
    s, _k, got, last = lax.while_loop(more, one, start)
    sizes = s["hand_sizes"].at[rows, seat].add(jnp.where(on, got, 0))
    closed = on & (got > 0) & (s["exposed"] == seat)
    return dict(s, hand_sizes=sizes, exposed=jnp.where(closed, -1, s["exposed"])), last


def _hand_points(r: _Rules, s: State) -> Any:
    return (s["hands"] * jnp.asarray(r.points)[None, None, :]).sum(axis=2)


def _step(r: _Rules, s: State, actions: Any, active: Any, mask: Any) -> tuple[State, JaxStepResult, Any]:
    """One step of every game (the pure function :meth:`JaxBatch.step` jits)."""
    n = r.n
    narrow = {name: s[name].dtype for name in _WIDE}
    games = actions.shape[0]
    rows = jnp.arange(games)
    act = actions.astype(jnp.int32)
    inside = (act >= 0) & (act < r.num_actions)
    legal = inside & (mask[rows, jnp.clip(act, 0, r.num_actions - 1)] == 1)
    illegal = active & ~legal
    on = active & legal
    old = s
    seat = _to_act(s, n)
    s = {name: (s[name].astype(jnp.int32) if name in _WIDE else s[name]) for name in s}

    noop = on & (act == NOOP)
    w = s["window"] + 1
    s["window"] = jnp.where(noop, jnp.where(w >= n, 0, w), s["window"])
    acted = on & (act != NOOP)
    winner = jnp.full(games, -1, jnp.int32)

    # Before the step's one draw: the play itself, the turn actions closing the UNO window.
    plays = acted & (act <= 60)
    colour_of, kind_of = jnp.asarray(CARD_COLOR, jnp.int32), jnp.asarray(CARD_KIND, jnp.int32)
    card = jnp.where(act <= 52, act - 1, jnp.where(act < PLAY_WILD4, WILD, WILD4))
    card = jnp.clip(card, 0, CARDS - 1)
    named = jnp.where(act <= 52, colour_of[jnp.clip(act - 1, 0, 51)], (act - PLAY_WILD) % 4)
    before = s["color"]
    s["hands"] = s["hands"].at[rows, seat, card].add(-plays.astype(jnp.int32))
    size = s["hand_sizes"][rows, seat] - 1
    s["hand_sizes"] = s["hand_sizes"].at[rows, seat].set(jnp.where(plays, size, s["hand_sizes"][rows, seat]))
    at = jnp.minimum(s["discard_size"], DECK_SIZE - 1)
    s["pile"] = s["pile"].at[rows, at].set(jnp.where(plays, card, s["pile"][rows, at]))
    s["discard_size"] = s["discard_size"] + plays
    s["color"] = jnp.where(plays, named, s["color"])
    declared = s["declared"][rows, seat]
    s["exposed"] = jnp.where(plays, jnp.where((size == 1) & ~declared, seat, -1), s["exposed"])
    s["declared"] = s["declared"].at[rows, seat].set(jnp.where(plays, False, declared))
    s["stalled"] = jnp.where(plays, 0, s["stalled"])
    s["current"] = jnp.where(plays, seat, s["current"])
    kind = kind_of[card]
    out = plays & (size == 0)  # R-OUT; R-OUT-LAST-DRAW: the next seat still draws for a Draw card
    last_draw = out & ((kind == DRAW2) | (kind == 14))
    winner = jnp.where(out, seat, winner)

    drawing = acted & (act == DRAW)
    penalty = drawing & (s["phase"] == PENALTY)
    one_card = drawing & ~penalty
    catch = acted & (act >= CATCH) & (act < r.challenge_index)
    challenge = acted & (act == r.challenge_index)
    accept = acted & (act == r.accept_index)
    turn_actions = drawing | (acted & (act == PASS)) | catch | challenge | accept
    s["exposed"] = jnp.where(turn_actions, -1, s["exposed"])  # R-UNO-CATCH: the window closes
    bluffer = s["phase_seat"]
    held = s["hands"][rows, jnp.clip(bluffer, 0, n - 1), :52] > 0
    guilty = challenge & (held & (colour_of[None, :52] == s["phase_color"][:, None])).any(axis=1)

    # The step's one draw: each game draws at most once.
    drawer = jnp.where(last_draw, (seat + s["direction"]) % n, seat)
    drawer = jnp.where(catch, (seat + act - (CATCH - 1)) % n, drawer)
    drawer = jnp.where(guilty, bluffer, drawer)
    count = jnp.where(last_draw, jnp.where(kind == DRAW2, 2, 4), 0)
    count = jnp.where(penalty | accept, s["phase_count"], count)
    count = jnp.where(one_card, 1, count)
    count = jnp.where(catch, r.uno_penalty, count)
    count = jnp.where(challenge, jnp.where(guilty, s["phase_count"], s["phase_count"] + 2), count)
    drawer = jnp.clip(drawer, 0, n - 1)
    s, last = _draw(r, s, last_draw | drawing | catch | challenge | accept, drawer, count)

    # After it.
    on_play = plays & ~out
    direction = s["direction"]
    s = _pass_turn(r, s, on_play & ((kind < 10) | (kind == 13)), seat, 1)
    s = _pass_turn(r, s, on_play & (kind == SKIP), seat, 2)
    reverse = on_play & (kind == REVERSE)
    s["direction"] = jnp.where(reverse, -direction, s["direction"])
    s = _pass_turn(r, s, reverse, seat, 2 if n == 2 else 1)
    for which in (DRAW2, 14):
        sel = on_play & (kind == which)
        s["current"] = jnp.where(sel, (seat + direction) % n, s["current"])
        if which == DRAW2:
            s["phase"] = jnp.where(sel, PENALTY, s["phase"])
            s["phase_count"] = jnp.where(sel, 2, s["phase_count"])
            s["phase_color"] = jnp.where(sel, -1, s["phase_color"])
        else:
            s["phase"] = jnp.where(sel, CHALLENGE if r.challenge else PENALTY, s["phase"])
            s["phase_count"] = jnp.where(sel, 4, s["phase_count"])
            s["phase_color"] = jnp.where(sel, before, s["phase_color"])
        s["phase_card"] = jnp.where(sel, card, s["phase_card"])
        s["phase_seat"] = jnp.where(sel, seat, s["phase_seat"])

    s = _pass_turn(r, s, penalty | accept, seat, 1)
    got = one_card & (last >= 0)
    s["stalled"] = jnp.where(got, 0, s["stalled"])
    playable = _playable(r, s, seat, jnp.maximum(last, 0))
    keep = got & playable
    s["phase"] = jnp.where(keep, DRAWN, s["phase"])
    s["phase_count"] = jnp.where(keep, 0, s["phase_count"])
    s["phase_card"] = jnp.where(keep, last, s["phase_card"])
    s["phase_seat"] = jnp.where(keep, -1, s["phase_seat"])
    s["phase_color"] = jnp.where(keep, -1, s["phase_color"])
    s = _pass_turn(r, s, got & ~playable, seat, 1)
    none = one_card & (last < 0)  # nothing to draw: a stalled turn; every seat in turn: blocked
    stalled = s["stalled"] + 1
    s["stalled"] = jnp.where(none, stalled, s["stalled"])
    blocked = none & (stalled >= n)
    s = _pass_turn(r, s, none & ~blocked, seat, 1)
    fewest = jnp.argmin(_hand_points(r, s), axis=1).astype(jnp.int32)  # ties: the lowest seat
    winner = jnp.where(blocked, fewest, winner)

    s = _pass_turn(r, s, acted & (act == PASS), seat, 1)
    uno = acted & (act == UNO)
    late = uno & (s["exposed"] == seat)
    s["exposed"] = jnp.where(late, -1, s["exposed"])
    s["declared"] = s["declared"].at[rows, seat].set(s["declared"][rows, seat] | (uno & ~late))
    s = _set_play(s, guilty)  # the challenger plays on; the named colour stands
    s = _pass_turn(r, s, challenge & ~guilty, seat, 1)
    colour = acted & (act >= r.color_index)
    s["color"] = jnp.where(colour, act - r.color_index, s["color"])
    s = _set_play(s, colour)
    s["window"] = jnp.where(acted, jnp.where(s["exposed"] >= 0, 1, 0), s["window"])

    ended = acted & (winner >= 0)
    empty = JaxStepResult(
        rewards=jnp.zeros((games, n), jnp.float32),
        done=jnp.zeros(games, bool),
        final_scores=jnp.zeros((games, n), jnp.int32),
        final_winner=jnp.full(games, -1, jnp.int32),
        illegal=illegal,
    )
    s, outs = _chunked(s, ended, r.end_chunk, lambda x, valid, w: _end_rounds(r, x, valid, w), (winner,),
                       tuple(empty[:4]))  # fmt: skip
    result = JaxStepResult(outs[0], outs[1], outs[2], outs[3], illegal)
    result = result._replace(final_winner=result.final_winner.astype(jnp.int8))
    empty = empty._replace(final_winner=empty.final_winner.astype(jnp.int8))
    s = {name: (s[name].astype(narrow[name]) if name in narrow else s[name]) for name in s}
    # An illegal action anywhere: the step returns the old state (its games unchanged).
    refused = illegal.any()
    s = jax.tree_util.tree_map(lambda new, was: jnp.where(refused, was, new), s, old)
    result = jax.tree_util.tree_map(lambda new, none: jnp.where(refused, none, new), result, empty)
    return s, result._replace(illegal=illegal), _mask(s, n, r.challenge, r.may_keep)


def _end_rounds(r: _Rules, s: State, ended: Any, winner: Any) -> tuple[State, tuple[Any, ...]]:
    """Score the rounds ``ended`` (won by ``winner``); end the episodes that end, dealing
    their slots new games, and deal the next round of the others."""
    n = r.n
    start = s
    games = winner.shape[0]
    rows = jnp.arange(games)
    value = _hand_points(r, s)
    w = jnp.clip(winner, 0, n - 1)
    points = jnp.where(
        jnp.arange(n)[None, :] == w[:, None], value.sum(axis=1)[:, None] - value[rows, w][:, None], 0
    )
    points = jnp.where(ended[:, None], points, 0)
    s = dict(s, scores=s["scores"] + points, rounds=s["rounds"] + ended)
    over = s["scores"].max(axis=1) >= r.target
    if r.episode == "round":
        ends, best = ended, w
    else:
        ends, best = ended & over, jnp.argmax(s["scores"], axis=1).astype(jnp.int32)
    if r.reward == "win":
        rewards = jnp.where(jnp.arange(n)[None, :] == best[:, None], 1.0, -1.0)
    elif r.episode == "round":
        rewards = hundredths(points)
    else:
        rewards = hundredths(s["scores"])
    result = (
        jnp.where(ends[:, None], rewards, 0.0).astype(jnp.float32),
        ends,
        jnp.where(ends[:, None], s["scores"], 0).astype(jnp.int32),
        jnp.where(ends, best, -1).astype(jnp.int32),
    )
    # The next games' seeds: the stream's next values, in slot order.
    gamma = jnp.uint64(_GAMMA_INT)
    rank = jnp.cumsum(ends).astype(jnp.uint64)  # the k-th new game takes the stream's k-th value
    seeds = _mix(s["stream"] + rank * gamma) >> jnp.uint64(1)
    s["stream"] = s["stream"] + ends.sum().astype(jnp.uint64) * gamma
    s["seeds"] = jnp.where(ends, seeds, s["seeds"])
    s["scores"] = jnp.where(ends[:, None], 0, s["scores"])
    s["rounds"] = jnp.where(ends, 0, s["rounds"])
    s["rng"] = jnp.where(ends, _seed_states(seeds), s["rng"])
    s, dealer = lax.cond(
        ends.any(), lambda x: _choose_dealers(r, x, ends), lambda x: (dict(x), x["dealer"]), s
    )
    dealer = jnp.where(ends, dealer, (s["dealer"] + 1) % n)
    deck = jnp.broadcast_to(jnp.asarray(r.deck), (games, DECK_SIZE))
    orders, rng = _shuffle(r, deck, jnp.full(games, DECK_SIZE, jnp.int32), s["rng"], ended)
    s["rng"] = rng
    return _typed(_deal(r, s, ended, dealer, orders), start), result


def _choose_dealers(r: _Rules, s: State, on: Any) -> tuple[State, Any]:
    """R-SETUP-DEALER (classic's choose_dealer) in the games ``on``: a shuffled deck, each
    contender draws from its end in seat order, the tied highest draw again (a fresh deck
    when the pile runs short)."""
    n = r.n
    games = on.shape[0]
    deck = jnp.broadcast_to(jnp.asarray(r.deck), (games, DECK_SIZE))
    full = jnp.full(games, DECK_SIZE, jnp.int32)
    values = jnp.asarray(r.dealer_value)

    def more(c: tuple[Any, Any, Any, Any]) -> Any:
        return (on & (c[2].sum(axis=1) > 1)).any()

    def again(c: tuple[Any, Any, Any, Any]) -> tuple[Any, Any, Any, Any]:
        pile, top, contenders, rng = c
        many = contenders.sum(axis=1, dtype=jnp.int32)
        act = on & (many > 1)
        fresh = act & (top < many)
        shuffled, rng = lax.cond(
            fresh.any(), lambda a: _shuffle(r, deck, full, a, fresh), lambda a: (deck, a), rng
        )
        pile = jnp.where(fresh[:, None], shuffled, pile)
        top = jnp.where(fresh, DECK_SIZE, top)
        order = jnp.cumsum(contenders, axis=1) - 1  # the contender's turn to draw
        at = jnp.clip(top[:, None] - 1 - order, 0, DECK_SIZE - 1)
        drawn = jnp.where(contenders, values[jnp.take_along_axis(pile, at, axis=1)], -1)
        best = drawn.max(axis=1)
        contenders = jnp.where(act[:, None], contenders & (drawn == best[:, None]), contenders)
        top = jnp.where(act, top - many, top)
        return pile, top, contenders, rng

    # An empty pile to start with: the first draw shuffles the deck (as a pile run short does).
    start = (deck, jnp.zeros(games, jnp.int32), jnp.ones((games, n), bool), s["rng"])
    _pile, _top, contenders, rng = lax.while_loop(more, again, start)
    return dict(s, rng=jnp.where(on, rng, s["rng"])), jnp.argmax(contenders, axis=1).astype(jnp.int32)


def _deal(r: _Rules, s: State, on: Any, dealer: Any, orders: Any) -> State:
    """``Draft.deal`` and classic's ``on_starter`` in the games ``on``."""
    n, hand = r.n, r.hand
    start = s
    games = on.shape[0]
    rows = jnp.arange(games)
    seats = (dealer[:, None] + 1 + jnp.arange(n)[None, :]) % n  # the deal's order of seats
    dealt = orders[:, : hand * n].reshape(games, hand, n)
    fresh = jnp.zeros_like(s["hands"]).at[rows[:, None, None], seats[:, None, :], dealt].add(1)
    s = dict(s)
    s["hands"] = jnp.where(on[:, None, None], fresh, s["hands"])
    s["hand_sizes"] = jnp.where(on[:, None], hand, s["hand_sizes"])
    pile = orders.at[:, 0].set(orders[:, hand * n])
    s["pile"] = jnp.where(on[:, None], pile, s["pile"])
    s["discard_size"] = jnp.where(on, 1, s["discard_size"])
    s["draw_at"] = jnp.where(on, hand * n + 1, s["draw_at"])
    s["direction"] = jnp.where(on, 1, s["direction"])
    s["current"] = jnp.where(on, seats[:, 0], s["current"])
    s["window"] = jnp.where(on, 0, s["window"])
    s = _set_play(s, on)
    s["dealer"] = jnp.where(on, dealer, s["dealer"])
    s["declared"] = jnp.where(on[:, None], False, s["declared"])
    s["exposed"] = jnp.where(on, -1, s["exposed"])
    s["stalled"] = jnp.where(on, 0, s["stalled"])
    returned = jnp.asarray(r.returned, jnp.int32)

    def sent_back(x: State) -> Any:
        return on & (x["pile"][:, 0][:, None] == returned[None, :]).any(axis=1)

    def send_back(x: State) -> State:
        # R-SETUP-STARTER: the starter goes back into the draw pile, shuffled, the next turned up.
        act = sent_back(x)
        at = x["draw_at"]
        length = DECK_SIZE - at + 1
        position = jnp.arange(DECK_SIZE)[None, :]
        items = jnp.take_along_axis(x["pile"], jnp.clip(position + at[:, None], 0, DECK_SIZE - 1), axis=1)
        items = jnp.where(position == length[:, None] - 1, x["pile"][:, :1], items)
        items, rng = _shuffle(r, items, length, x["rng"], act)
        moved = jnp.take_along_axis(items, jnp.clip(position - (at[:, None] - 1), 0, DECK_SIZE - 1), axis=1)
        pile = jnp.where(act[:, None] & (position >= at[:, None] - 1), moved, x["pile"])
        pile = pile.at[:, 0].set(jnp.where(act, items[:, 0], pile[:, 0]))
        return _typed(dict(x, pile=pile, rng=rng), x)

    s = _typed(s, start)
    s = lax.while_loop(lambda x: sent_back(x).any(), send_back, s)
    starter = s["pile"][:, 0]
    kind = jnp.asarray(CARD_KIND, jnp.int32)[starter]
    s["color"] = jnp.where(on, jnp.asarray(CARD_COLOR, jnp.int32)[starter], s["color"])
    sel = on & (kind == DRAW2)
    s["phase"] = jnp.where(sel, PENALTY, s["phase"])
    s["phase_count"] = jnp.where(sel, 2, s["phase_count"])
    s["phase_card"] = jnp.where(sel, starter, s["phase_card"])
    s["phase_seat"] = jnp.where(sel, dealer, s["phase_seat"])
    s["current"] = jnp.where(on & (kind == SKIP), (dealer + 2) % n, s["current"])
    sel = on & (kind == REVERSE)
    s["direction"] = jnp.where(sel, -1, s["direction"])
    s["current"] = jnp.where(sel, dealer if r.dealer_starts else (dealer - 1) % n, s["current"])
    sel = on & (kind >= 13)  # a Wild: the first player names its colour
    s["phase"] = jnp.where(sel, COLOR, s["phase"])
    s["phase_card"] = jnp.where(sel, starter, s["phase_card"])
    return _typed(s, start)


# -- the batch ----------------------------------------------------------------------------------


def _functions(r: _Rules) -> tuple[Any, Any, Any, Any, Any]:
    """The jitted step (given the state's mask, returning the next state's), the pure
    step, mask, observation and seat asked of a rule set and player count."""
    n = r.n
    return (
        jax.jit(lambda s, a, on, m: _step(r, s, a, on, m)),
        jax.jit(lambda s, a, on: _step(r, s, a, on, _mask(s, n, r.challenge, r.may_keep))[:2]),
        jax.jit(lambda s: _mask(s, n, r.challenge, r.may_keep)),
        jax.jit(lambda s, seats: _observe(s, seats, n)),
        jax.jit(lambda s: _to_act(s, n).astype(jnp.int8)),
    )


_COMPILED: dict[tuple[Any, ...], tuple[Any, Any, Any, Any, Any]] = {}
""":func:`_functions` by player count, options, episode and reward: batches of the same
rules share them (JAX compiles each once per batch size)."""


class JaxBatch:
    """``num_games`` games of classic UNO stepped by one jitted JAX function.

    The arguments are :class:`~unorules.vector.UnoBatch`'s (``final_observations``
    aside) and mean the same; for the same arguments and the same actions a
    :class:`JaxBatch` and a :class:`~unorules.vector.UnoBatch` play the same games.
    """

    def __init__(
        self,
        num_games: int,
        players: int = 2,
        rules: Ruleset | Sequence[str] = ("classic",),
        options: Mapping[str, Any] | None = None,
        episode: str = "game",
        reward: str = "win",
        seed: Seed = None,
    ) -> None:
        if _MISSING:  # pragma: no cover - depends on the environment
            hint = 'install it with: pip install "unorules[jax]"'
            raise ImportError(f"unorules.vector.jax_batch needs jax ({_MISSING}); {hint}")
        self.host = UnoBatch(num_games, players, rules, options, episode=episode, reward=reward, seed=seed)
        """The NumPy batch that deals at construction and on :meth:`reset` and
        :meth:`reset_games`, and holds the state :meth:`sync_host` copies back."""
        self.ruleset = self.host.ruleset
        """The :class:`~unorules.Ruleset` played."""
        self.num_games = num_games
        """The number of games in the batch."""
        self.players = players
        """Seats per game."""
        self.num_actions = self.host.num_actions
        """The number of action indices (``unorules.rl.ActionSpace(...).n``)."""
        self.observation_size = self.host.observation_size
        """The length of an observation."""
        self.cards = self.host.cards
        """The 54 distinct cards, in the order of card indices."""
        key = (num_games, players, tuple(sorted(self.ruleset.options.items(), key=str)), episode, reward)
        if key not in _COMPILED:
            _COMPILED[key] = _functions(_Rules(self.host))
        self._step, self._pure_step, self._mask, self._observe, self._to_act = _COMPILED[key]
        self._state: State = {}
        self._current_mask: Any = None
        self._upload()

    @property
    def state(self) -> State:
        """The games, as a dict of JAX arrays (:data:`DEVICE_FIELDS` and ``stream``). Setting
        it (a state of a batch of the same rules and size, as :meth:`step_function` returns
        one) makes it the batch's."""
        return self._state

    @state.setter
    def state(self, value: State) -> None:
        if set(value) != {*DEVICE_FIELDS, "stream"}:
            raise VectorError(f"a JaxBatch state holds the arrays {', '.join(DEVICE_FIELDS)} and stream")
        with x64():
            self._state = dict(value)
            self._current_mask = self._mask(self._state)

    def __repr__(self) -> str:
        episode = self.host.episode
        return f"<JaxBatch {self.num_games} games of classic, {self.players} players, episode={episode}>"

    def step_function(self) -> Callable[[State, Any, Any], tuple[State, JaxStepResult]]:
        """The jitted pure step ``(state, actions, active) -> (state, result)``: ``actions``
        ``int32`` and ``active`` ``bool``, one per game. A game whose action is illegal is
        left unchanged and flagged in ``result.illegal``: with any flagged, the state
        returned is the state given. Call it inside ``with x64():``."""

        def checked(s: State, actions: Any, active: Any) -> tuple[State, JaxStepResult]:
            if jnp.asarray(np.uint64(0)).dtype != jnp.uint64:  # JAX truncates to 32 bits outside x64
                raise VectorError("JaxBatch's step needs JAX's 64-bit types: call it inside `with x64():`")
            return cast(tuple[State, JaxStepResult], self._pure_step(s, actions, active))

        return checked

    def _upload(self) -> None:
        h = self.host
        with x64():
            fields = {name: jnp.asarray(getattr(h, name)) for name in DEVICE_FIELDS}
            fields["stream"] = jnp.asarray(np.uint64(h._stream.state))
            self.state = fields

    def sync_host(self) -> UnoBatch:
        """Copy the device state into :attr:`host` and return it (for its
        :meth:`~unorules.vector.UnoBatch.game_state` or arrays)."""
        h = self.host
        for name in DEVICE_FIELDS:
            getattr(h, name)[...] = np.asarray(self.state[name])
        h._stream.state = int(np.asarray(self.state["stream"]))
        h._mask_valid = False
        return h

    @property
    def seeds(self) -> npt.NDArray[np.uint64]:
        """``(games,)``: the seed each slot's current game was dealt from."""
        return np.asarray(self.state["seeds"])

    @property
    def to_act(self) -> npt.NDArray[np.int8]:
        """``(games,)``: the seat asked to act in each game."""
        with x64():
            return np.asarray(self._to_act(self.state))

    def reset(self, seed: Seed = None, seeds: Sequence[int] | npt.NDArray[Any] | None = None) -> None:
        """:meth:`UnoBatch.reset <unorules.vector.UnoBatch.reset>`."""
        self.host.reset(seed=seed, seeds=seeds)
        self._upload()

    def reset_games(self, games: npt.ArrayLike, seeds: Sequence[int] | None = None) -> None:
        """:meth:`UnoBatch.reset_games <unorules.vector.UnoBatch.reset_games>`."""
        self.sync_host().reset_games(games, seeds)
        self._upload()

    def mask(self) -> Any:
        """``(games, actions)`` ``int8`` JAX array: :meth:`UnoBatch.mask <unorules.vector.UnoBatch.mask>`."""
        with x64():
            return self._current_mask

    def observe(self, seats: npt.ArrayLike | None = None) -> Any:
        """``(games, observation_size)`` ``float32`` JAX array:
        :meth:`UnoBatch.observe <unorules.vector.UnoBatch.observe>`."""
        b, n = self.num_games, self.players
        with x64():
            if seats is None:
                seat = self._to_act(self.state).astype(jnp.int32)
            else:
                given = np.asarray(seats)
                if (
                    given.shape != (b,)
                    or not np.issubdtype(given.dtype, np.integer)
                    or ((given < 0) | (given >= n)).any()
                ):
                    raise VectorError(f"seats: give one seat from 0 to {n - 1} per game ({b} games)")
                seat = jnp.asarray(given, dtype=jnp.int32)
            return self._observe(self.state, seat)

    def step(self, actions: npt.ArrayLike, active: npt.ArrayLike | None = None) -> JaxStepResult:
        """:meth:`UnoBatch.step <unorules.vector.UnoBatch.step>` as one jitted function.
        An illegal index raises :class:`~unorules.IllegalActionError` naming the first
        such game, and no game changes (the check reads one flag back from the device)."""
        b = self.num_games
        raw = np.asarray(actions)
        if raw.shape != (b,) or not (np.issubdtype(raw.dtype, np.integer) or raw.dtype == np.bool_):
            raise VectorError(f"actions: give one integer index per game, shape ({b},), not {raw.shape}")
        if active is None:
            on = np.ones(b, dtype=np.bool_)
        else:
            on = np.asarray(active)
            if on.shape != (b,) or on.dtype != np.bool_:
                raise VectorError(f"active: give one bool per game, shape ({b},)")
        clipped = np.clip(raw.astype(np.int64), -1, self.num_actions).astype(np.int32)
        with x64():
            state, result, mask = self._step(
                self.state, jnp.asarray(clipped), jnp.asarray(on), self._current_mask
            )
            bad = np.flatnonzero(np.asarray(result.illegal))
        if bad.size:
            host = self.sync_host()
            host._compute_mask()
            host._refuse(int(bad[0]), int(raw[bad[0]]))
        self._state = state
        self._current_mask = mask  # the step computed the next state's mask
        return cast(JaxStepResult, result)

    def game_state(self, game: int) -> dict[str, Any]:
        """:meth:`UnoBatch.game_state <unorules.vector.UnoBatch.game_state>`."""
        return self.sync_host().game_state(game)

    def describe(self, index: int) -> str:
        """The text of an action index (:meth:`UnoBatch.describe <unorules.vector.UnoBatch.describe>`)."""
        return self.host.describe(index)

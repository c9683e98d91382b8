"""The game's generator: SplitMix64 as published, and shuffles that stay the
same from version to version (a game replays from its seed and actions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unorules import rng as rng_module
from unorules.rng import Rng


def _reference_shuffle(state: int, items: list[int]) -> int:
    """Fisher-Yates with one ``randbelow`` call per position: what
    ``Rng.shuffle`` computes with its arithmetic inlined. Returns the state after."""
    gen = Rng(state)
    for i in range(len(items) - 1, 0, -1):
        j = gen.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return gen.state


def test_next64_gives_splitmix64s_published_values() -> None:
    # The reference sequence of SplitMix64 for the seed 1234567.
    gen = Rng(1234567)
    assert [gen.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_a_shuffle_is_pinned() -> None:
    # Games recorded with earlier versions replay only if this never changes.
    gen = Rng(0)
    items = list(range(10))
    gen.shuffle(items)
    assert items == [6, 3, 2, 9, 8, 1, 4, 7, 0, 5]
    assert gen.state == 10372713005361028285


@given(st.integers(0, 2**64 - 1), st.integers(0, 300))
def test_shuffle_is_fisher_yates_with_randbelow(state: int, size: int) -> None:
    items = list(range(size))
    expected = list(items)
    after = _reference_shuffle(state, expected)
    gen = Rng(state)
    gen.shuffle(items)
    assert items == expected
    assert gen.state == after


def test_shuffle_draws_one_by_one_where_it_must(monkeypatch: pytest.MonkeyPatch) -> None:
    # A value at or above _SAFE might be rejected by randbelow: the shuffle
    # then draws one by one from the start (here for every value), as it does
    # for sequences of _SHORT items and more. Nothing changes but the speed.
    cases = [(random.Random(n).getrandbits(64), n) for n in (0, 1, 2, 3, 52, 108, 300)]
    expected = []
    for state, size in cases:
        items = list(range(size))
        expected.append((_reference_shuffle(state, items), items))
    calls: list[int] = []
    randbelow = Rng.randbelow

    def counting(gen: Rng, n: int) -> int:
        calls.append(n)
        return randbelow(gen, n)

    for name, value in (("_SAFE", 0), ("_SHORT", 1)):
        with monkeypatch.context() as m:
            m.setattr(rng_module, name, value)
            m.setattr(Rng, "randbelow", counting)
            for (state, size), (after, shuffled) in zip(cases, expected, strict=True):
                gen = Rng(state)
                items = list(range(size))
                calls.clear()
                gen.shuffle(items)
                assert (gen.state, items) == (after, shuffled)
                assert calls == list(range(size, 1, -1))


def test_randbelow_stays_in_range_and_refuses_empty_ranges() -> None:
    gen = Rng(7)
    assert {gen.randbelow(3) for _ in range(200)} == {0, 1, 2}
    assert gen.randbelow(1) == 0
    with pytest.raises(ValueError, match="positive"):
        gen.randbelow(0)

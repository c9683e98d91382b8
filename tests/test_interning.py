"""Interning stays bounded whatever text strangers send (issue 11, point 5).

Only canonical, legal-shaped values are interned for good: actions whose seats
a game can have, each card's canonical spelling and its lower case. Parsing a
million distinct refused texts, and many odd spellings of cards, leaves memory
flat, while the identity guarantees hold.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import tracemalloc

import pytest

from unorules import Action, Card, NotationError, Ruleset, UnorulesError
from unorules.actions import INTERNED_SEATS

MILLION = 10**6


def _refused_text(i: int) -> str:
    """The ``i``-th of a million distinct texts that no game accepts."""
    kind = i % 5
    if kind == 0:
        return f"{i + INTERNED_SEATS}: draw"  # a seat no game has (parsed, never legal)
    if kind == 1:
        return f"{i % 10}: catch {i}"  # a target no game has
    if kind == 2:
        return f"{i % 10}: play R{i}"  # not a card
    if kind == 3:
        return f"{i % 10}: fly {i}"  # not a verb
    return f"{'0' * (i % 7)}{i}{' ' * (i % 3)}: {'DRAW' if i % 2 else 'draw'} {i % 10}"  # draw takes no seat


def _parse_all(start: int, stop: int, state: object | None = None) -> None:
    for i in range(start, stop):
        text = _refused_text(i)
        with contextlib.suppress(NotationError):
            Action.parse(text)
        if state is not None and i % 50 == 0:
            with pytest.raises(UnorulesError):
                state.apply(text)  # type: ignore[attr-defined]


def test_a_million_distinct_refused_action_texts_leave_memory_flat() -> None:
    state = Ruleset.from_names(["classic"]).new_game(players=4, seed=1)
    _parse_all(0, 50_000, state)  # warm up: every bounded table reaches its size
    gc.collect()
    tracemalloc.start()
    try:
        _parse_all(50_000, 100_000, state)
        gc.collect()
        early, _ = tracemalloc.get_traced_memory()
        _parse_all(100_000, 200_000, state)
        gc.collect()
        late, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Before the fix every parsed text stayed interned: about 285 bytes each.
    assert late - early < 256 * 1024, f"memory grew by {late - early} bytes over 100,000 texts"
    # The rest of the million without tracemalloc's cost: the count of memory blocks stays flat.
    blocks = sys.getallocatedblocks()
    _parse_all(200_000, MILLION, state)
    gc.collect()
    grown = sys.getallocatedblocks() - blocks
    assert grown < 20_000, f"{grown} more memory blocks after 800,000 more texts"


def test_many_odd_spellings_of_cards_leave_memory_flat() -> None:
    cards = sorted({str(c) for c in Ruleset.from_names(["classic"]).deck})

    def spellings(start: int, stop: int) -> None:
        for i in range(start, stop):
            text = cards[i % len(cards)]
            odd = "".join(ch.lower() if (i >> k) & 1 else ch for k, ch in enumerate(text))
            odd = " " * (i % 13) + odd + "\t" * (i // 13 % 11)
            if Card.parse(odd) is not Card.parse(text):
                raise AssertionError(f"{odd!r} is not {text}")
            try:
                Card.parse(f"{odd}{i}x")
            except NotationError:
                pass
            else:
                raise AssertionError(f"{odd}{i}x parsed")

    spellings(0, 20_000)
    gc.collect()
    tracemalloc.start()
    try:
        spellings(20_000, 40_000)
        gc.collect()
        early, _ = tracemalloc.get_traced_memory()
        spellings(40_000, 120_000)
        gc.collect()
        late, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Before the fix each raw spelling was kept: about 665 bytes each.
    assert late - early < 256 * 1024, (
        f"memory grew by {late - early} bytes over 80,000 spellings and as many refused"
    )


def test_interning_identities_hold() -> None:
    assert Card.parse("r7") is Card.parse("R7") is Card.parse(" R7 ") is Card.parse("\tr7\n")
    assert Card.parse("w+4") is Card.parse("W+4")
    seat = INTERNED_SEATS - 1
    assert Action.parse(f"{seat}: catch 3") is Action.parse(f" {seat} : CATCH 3 ")
    assert Action.parse("1: play w+4 b") is Action.of(1, "play", Card.parse("W+4"), Card.parse("B1").color)
    # Actions naming seats no game has are equal to themselves while cached, and never legal.
    far = Action.parse("99: draw")
    assert far.seat == 99
    assert str(far) == "99: draw"

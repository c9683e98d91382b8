"""R-JUMP with an edition instead of classic (issue 42): jump-in names no base rule set, so
``flip,jump-in`` builds and plays, comparing the faces in play (EDITIONS 1.5: "jump-in
compares active faces"): a card identical to the top card is one showing the same face,
whatever its other side."""

from __future__ import annotations

from collections import defaultdict

import pytest

from unorules import Card, GameState, Ruleset
from unorules.testing import rearranged
from unorules.testing.conformance import play_checked_game

RULES = Ruleset.from_names(["flip", "jump-in"])


def _same_face_different_backs(side: int) -> tuple[Card, Card, Card]:
    """A number face of ``side`` and two cards showing it with different other faces."""
    by: defaultdict[Card, list[Card]] = defaultdict(list)
    for card in dict.fromkeys(RULES.deck):
        by[card.faces[side]].append(card)
    for face, cards in by.items():
        if face.number is not None and len({c.faces[1 - side] for c in cards}) >= 2:
            return face, cards[0], cards[1]
    raise AssertionError("no face printed on two cards with different backs")


def _jump_position(side: int) -> tuple[GameState, Card, Card, Card, int, int]:
    """Three seats on ``side``: the seat to move holds card ``a`` (showing ``face``) and
    a filler, on a top card of the face's colour; a later seat holds ``b`` (the same face,
    another back) and a filler."""
    face, a, b = _same_face_different_backs(side)
    state = RULES.new_game(players=3, seed=1)
    if side:
        state = state.replace(side=1)
    seat = state.current_player
    other = (seat + 2) % 3
    fillers = [
        c
        for c in RULES.deck
        if c.faces[side].color is not face.color and c.faces[side].number not in (None, face.number)
    ]
    top = next(
        c
        for c in RULES.deck
        if c.faces[side].color is face.color and c.faces[side].number not in (None, face.number)
    )
    state = rearranged(state, hands={seat: [a, fillers[0]], other: [b, fillers[1]]}, top=top)
    state = state.replace(color=top.faces[side].color)
    return state, face, a, b, seat, other


@pytest.mark.parametrize("side", [0, 1])
def test_r_jump_flip_a_card_showing_the_same_face_jumps_in_whatever_its_back(side: int) -> None:
    state, face, a, b, seat, other = _jump_position(side)
    state = state.apply(f"{seat}: play {face}")
    assert state.top_card is a
    jumps = [x for x in state.legal_actions(other) if x.verb == "play"]
    assert [(x.card, x.nth) for x in jumps] == [(face, None)]  # the first card showing it, as flip names it
    jumped = state.apply(jumps[0])
    assert jumped.top_card is b  # the physical card with the other back
    assert any(e.kind == "jump-in" and e.seat == other for e in jumped.events)
    assert jumped.current_player == jumped.next_seat(other)  # play goes on from the jumper


def test_r_jump_flip_a_face_that_differs_does_not_jump_in() -> None:
    state, face, _, _, seat, other = _jump_position(0)
    state = state.apply(f"{seat}: play {state.face(state.hands[seat][1])}")  # the filler: not on top
    assert state.extra("jump-in") is not None or state.rounds
    assert not [x for x in state.legal_actions(other) if x.verb == "play" and x.card is face]


def test_r_jump_flip_the_refusal_names_the_face_on_top() -> None:
    state, face, _, _, seat, other = _jump_position(0)
    state = state.apply(f"{seat}: play {face}")
    filler = state.face(state.hands[other][1])
    with pytest.raises(Exception, match=f"identical to the top card {face}"):
        state.apply(f"{other}: play {filler}")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r_jump_flip_games_keep_every_invariant(players: int) -> None:
    for seed in range(2):
        violation, _ = play_checked_game(RULES, players, seed, max_actions=300, eager=0.8)
        assert violation is None, violation


def test_r_jump_flip_a_seven_jumped_in_under_seven_o_names_a_seat() -> None:
    # Found by the toolkit's conformance of flip,jump-in,seven-o: a 7 jumped in was listed
    # without a seat to trade with, and applying it crashed seven-o's effect (R-SEVEN-O).
    rules = Ruleset.from_names(["flip", "jump-in", "seven-o"])
    by: defaultdict[Card, list[Card]] = defaultdict(list)
    for card in dict.fromkeys(rules.deck):
        by[card.faces[0]].append(card)
    face, cards = next((f, c) for f, c in by.items() if f.kind == "7" and len(c) >= 2)
    state = rules.new_game(players=3, seed=1)
    seat = state.current_player
    other = (seat + 2) % 3
    fillers = [
        c for c in rules.deck if c.faces[0].number not in (None, 7) and c.faces[0].color is not face.color
    ]
    top = next(c for c in rules.deck if c.faces[0].color is face.color and c.faces[0].number not in (None, 7))
    state = rearranged(state, hands={seat: [cards[0], fillers[0]], other: [cards[1], fillers[1]]}, top=top)
    state = state.replace(color=top.faces[0].color)
    state = state.apply(f"{seat}: play {face} {(seat + 1) % 3}")  # a trade that leaves ``other`` its 7
    jumps = [x for x in state.legal_actions(other) if x.verb == "play" and x.card is face]
    assert sorted(x.target for x in jumps if x.target is not None) == sorted(
        s for s in state.active_seats if s != other
    )
    assert all(x.target is not None for x in jumps)
    target = next(x.target for x in jumps)
    assert target is not None
    before = state.hands[target]
    jumped = state.apply(next(x for x in jumps if x.target == target))
    assert jumped.hands[other] == before  # R-SEVEN-O: the jumper traded hands with the seat it named

"""The observation encoder: a documented fixed layout, filled from a SeatView only."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from unorules import Card, Ruleset
from unorules.rl import OBSERVATION_VERSION, ObservationEncoder
from unorules.testing import arrange_deck, rearranged

sys.path.insert(0, str(Path(__file__).parent))
from rl_cases import HOUSE, HOUSE_OPTIONS

CLASSIC = Ruleset.from_names(["classic"])


def test_layout_is_contiguous_and_documented() -> None:
    encoder = ObservationEncoder(CLASSIC, 3)
    assert encoder.version == OBSERVATION_VERSION == 1
    offset = 0
    for feature in encoder.layout:
        assert feature.offset == offset
        assert feature.size > 0
        assert feature.doc
        offset += feature.size
    assert offset == encoder.size == encoder.low.shape[0] == encoder.high.shape[0]
    names = [f.name for f in encoder.layout]
    assert names[:4] == ["hand", "top_card", "color", "phase"]
    assert len(encoder.cards) == 54
    assert encoder.feature("hand").size == 54
    assert encoder.phases == ("challenge", "color", "drawn", "penalty", "play")
    assert "visible_hands" not in names  # classic shows no hands
    assert np.all(encoder.low <= encoder.high)
    with pytest.raises(KeyError, match="no feature 'nope'; features: hand, top_card"):
        encoder.feature("nope")


def test_plugins_add_their_public_extras_and_shown_hands() -> None:
    encoder = ObservationEncoder(Ruleset.from_names(HOUSE, HOUSE_OPTIONS), 4)
    names = [f.name for f in encoder.layout]
    assert "extra:jump-in" in names
    assert "extra:custom-wilds.open-hands" in names
    assert encoder.feature("visible_hands").size == 3 * len(encoder.cards)
    assert "stacking" not in " ".join(names)  # the stack size is phase.count, already there


def _game() -> tuple[Ruleset, object]:
    deck = arrange_deck(
        [["R1", "R1", "G2", "W", "B+2", "Y9", "YS"], ["G5", "G6", "G7", "G8", "G9", "B1", "B2"]],
        starter="R5",
        dealer=1,
    )
    return CLASSIC, CLASSIC.new_game(players=2, deck=deck, dealer=1)


def test_features_of_a_known_deal() -> None:
    rules, state = _game()
    encoder = ObservationEncoder(rules, 2)
    vector = encoder.encode(state.view(0))
    hand = encoder.slice(vector, "hand")
    assert hand[encoder.cards.index(Card.parse("R1"))] == 2
    assert hand.sum() == 7
    top = encoder.slice(vector, "top_card")
    assert top.sum() == 1
    assert top[encoder.cards.index(Card.parse("R5"))] == 1
    assert list(encoder.slice(vector, "color")) == [1, 0, 0, 0]
    phase = encoder.slice(vector, "phase")
    assert phase[encoder.phases.index("play")] == 1
    assert phase.sum() == 1
    assert list(encoder.slice(vector, "to_move")) == [1, 0]  # seat 0 to move: itself
    assert list(encoder.slice(vector, "hand_sizes")) == [7, 7]
    assert encoder.slice(vector, "draw_pile")[0] == 108 - 15
    assert encoder.slice(vector, "direction")[0] == 1
    # Seat 1 sees the same table from its own place: entry 0 is itself.
    other = encoder.encode(state.view(1))
    assert list(encoder.slice(other, "to_move")) == [0, 1]
    assert encoder.slice(other, "hand")[encoder.cards.index(Card.parse("G5"))] == 1


def test_scores_uno_calls_and_exposures_are_seat_relative() -> None:
    rules, state = _game()
    state = rearranged(state, hands={0: "R1 R2"})
    state = state.apply("0: uno")
    encoder = ObservationEncoder(rules, 2)
    assert list(encoder.slice(encoder.encode(state.view(1)), "uno_declared")) == [0, 1]
    state = rearranged(rules.new_game(players=2, seed=1), hands={0: "R1 R2"})
    state = state.replace(uno_exposed=(0,), scores=(250, 30))
    observed = encoder.encode(state.view(1))
    assert list(encoder.slice(observed, "uno_exposed")) == [0, 1]
    assert list(encoder.slice(observed, "scores")) == pytest.approx([0.3, 2.5])


def test_other_hands_do_not_leak() -> None:
    rules = CLASSIC
    state = rules.new_game(players=3, seed=5)
    encoder = ObservationEncoder(rules, 3)
    before = encoder.encode(state.view(0))
    swapped = rearranged(state, hands={1: "B7 B7 Y3 Y3 G1 G1 W", 2: "R9 R9 RS RS GR GR W+4"})
    assert [len(h) for h in swapped.hands] == [len(h) for h in state.hands]
    assert swapped.hands[1] != state.hands[1]
    assert np.array_equal(encoder.encode(swapped.view(0)), before)


PLAYED = [
    (["classic"], {}, 2),
    (["classic", "stacking", "seven-o", "jump-in"], {}, 4),
    (HOUSE, HOUSE_OPTIONS, 3),
    (["classic", "partners"], {}, 4),
    (["classic", "elimination"], {}, 3),
]


@pytest.mark.parametrize(("names", "options", "players"), PLAYED)
def test_observations_stay_in_bounds_and_reuse_arrays(
    names: list[str], options: dict[str, object], players: int
) -> None:
    rules = Ruleset.from_names(names, options)
    encoder = ObservationEncoder(rules, players)
    out = np.full(encoder.size, 7.0, dtype=np.float32)
    rng = random.Random(3)
    state = rules.new_game(players=players, seed=11)
    extras_seen = set()
    for _ in range(600):
        if state.is_over:
            break
        for seat in range(players):
            view = state.view(seat)
            vector = encoder.encode(view)
            assert vector.dtype == np.float32
            assert vector.shape == (encoder.size,)
            assert np.all(vector >= encoder.low)
            assert np.all(vector <= encoder.high)
            assert encoder.slice(vector, "hand").sum() == len(view.hand)
            assert encoder.encode(view, out=out) is out
            assert np.array_equal(out, vector)
            for key, value in view.extras:
                if value is not None:
                    extras_seen.add(key)
                    assert encoder.slice(vector, f"extra:{key}")[0] == 1
        state = state.apply(rng.choice(state.legal_actions()))
    if "jump-in" in names:
        assert "jump-in" in extras_seen


def test_a_view_of_another_player_count_is_refused() -> None:
    encoder = ObservationEncoder(CLASSIC, 3)
    with pytest.raises(ValueError, match="2-seat game given to a 3-seat encoder"):
        encoder.encode(CLASSIC.new_game(players=2, seed=1).view(0))

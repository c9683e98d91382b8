"""Going out is decided in one place (issue 42): every card of every plugin asks the core's
going-out question, so under ``last-loses`` no seat wins a round by going out, whatever card
it goes out on (R-HOUSE-LAST-LOSES: the first seat out wins the game; the round goes on until
one seat alone holds cards).

A scenario per card that used to end the round itself (a customizable wild with a last-card
effect, C2's discards), then a property over every pair of shipped plugins with
``classic,last-loses``: at every round that ends for a seat going out, at most one seat holds
cards and the round's winner is the first seat out.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unorules import GameState, Ruleset, RulesetError, installed_plugins
from unorules.testing import arrange_deck, rearranged
from unorules.testing.conformance import option_variant
from unorules.testing.replay import choose_action
from unorules.testing.strategies import buildable_combinations, supported_players

PLUGINS = Path(__file__).resolve().parents[2] / "plugins"


def _shipped(name: str, plugin: object) -> bool:
    """Whether ``plugin`` is one of this repository's (its module lives under ``plugins/``)."""
    path = getattr(sys.modules.get(type(plugin).__module__), "__file__", None)
    return path is not None and PLUGINS in Path(path).resolve().parents


SHIPPED = sorted(name for name, plugin in installed_plugins().items() if _shipped(name, plugin))
OUT = "last-loses.out"
HANDS = ["Y1 Y2 Y3 Y4 Y6 Y7 Y8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8", "R1 R2 R3 R4 R6 R7 R8"]


def _game(plugins: tuple[str, ...], options: Mapping[str, Any], cards: str) -> GameState:
    """Four seats, dealer 0: seat 1, to move on a red 5, holds ``cards``."""
    rules = Ruleset.from_names(["classic", *plugins], options=dict(options))
    state = rules.new_game(players=4, deck=arrange_deck(HANDS, "R5"), dealer=0)
    return rearranged(state, hands={1: cards})


DRAW_UNTIL = {"custom_wild_1": "draw-until-color"}


@pytest.mark.parametrize("card", ["W", "CW1"])
def test_r_house_last_loses_going_out_on_a_customizable_wild_leaves_the_round(card: str) -> None:
    # The case: C1 (draw until the colour) has a last-card effect, which ended the
    # round itself and made its player win it; now it goes out as on a plain W.
    state = _game(("last-loses", "custom-wilds"), DRAW_UNTIL, card).apply(f"1: play {card} G")
    assert not state.rounds  # the round goes on
    assert state.left == (1,)
    assert state.extra(OUT) == (1,)
    assert (state.current_player, state.phase.name) == (2, "play")
    assert state.outcome is None


def test_r_out_last_draw_a_last_customizable_wild_still_ends_the_round_without_last_loses() -> None:
    # Without last-loses the last C1 ends the round (R-OUT), the next seat still drawing
    # until the colour (R-OUT-LAST-DRAW by analogy): the core ends the round, once.
    state = _game(("custom-wilds",), DRAW_UNTIL, "CW1").apply("1: play CW1 G")
    (result,) = state.rounds
    assert (result.winner, result.reason) == (1, "out")
    assert len(result.hands[2]) > 7  # seat 2 drew until a green card
    assert [e.kind for e in state.events].count("round-end") == 1


def test_r_custom_c2_a_hand_emptied_by_discards_goes_out_as_the_core_says() -> None:
    # C2 (every other player discards its wilds) empties seat 2's hand of wilds: without
    # last-loses seat 2 has gone out and wins (R-OUT); with it, seat 2 leaves and play goes on.
    options = {"custom_wild_1": "discard-wilds"}
    plain = rearranged(_game(("custom-wilds",), options, "CW1 G9"), hands={2: "W W+4"})
    (result,) = plain.apply("1: play CW1 G").rounds
    assert (result.winner, result.reason) == (2, "out")
    gone = rearranged(_game(("last-loses", "custom-wilds"), options, "CW1 G9"), hands={2: "W W+4"})
    after = gone.apply("1: play CW1 G")
    assert not after.rounds
    assert after.left == (2,)
    assert after.current_player == 3  # the turn passes over the seat that left


# -- the property: over every pair of shipped plugins with last-loses ---------------------------

OTHERS = sorted(set(SHIPPED) - {"classic", "last-loses"})
PAIRS = [
    combo[2:]
    for combo in buildable_combinations(OTHERS, required=("classic", "last-loses"), max_size=2)
    if len(combo) == 4
]
MAX_ACTIONS = 400
EFFECTS = {"custom_wild_1": "draw-until-color", "custom_wild_2": "discard-wilds"}


def _rules(pair: tuple[str, ...], seed: int | str) -> Ruleset:
    """``classic,last-loses`` and ``pair``, with option values drawn with ``seed`` (the
    defaults when the values drawn refuse each other)."""
    names = ["classic", "last-loses", *pair]
    base = Ruleset.from_names(names)
    # The customizable wilds that used to end the round themselves: C1 (a last-card
    # effect) and C2 (discards that empty other hands).
    effects = EFFECTS if "custom-wilds" in pair else {}
    for options in ({**option_variant(base, seed), **effects}, effects):
        try:
            return Ruleset.from_names(names, options=options)
        except RulesetError:
            continue
    return base


def _check_game(rules: Ruleset, players: int, seed: int) -> int:
    """Play one seeded game eager to lay cards; at every round ended by a seat going out, at
    most one seat holds cards and the first seat out wins it. Returns the rounds that ended."""
    rng = random.Random(seed)
    state = rules.new_game(players=players, seed=seed)
    ended = 0
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        action = choose_action(state, rng, eager=0.9)
        after = state.apply(action)
        for result in after.rounds[len(state.rounds) :]:
            ended += 1
            if result.reason != "out":
                continue
            order: tuple[int, ...] = state.extra(OUT, ())
            holding = [s for s, hand in enumerate(result.hands) if hand]
            where = f"{rules.spec_text}, {players} players, seed {seed}: {action}"
            assert len(holding) <= 1, f"{where} ended the round with seats {holding} holding cards"
            first = order[0] if order else action.seat
            assert result.winner == first, f"{where}: seat {result.winner} won, not the first out {first}"
        state = after
    return ended


def _opening(rules: Ruleset, players: int) -> GameState:
    """A new game whose first seat is to play an ordinary turn."""
    for seed in range(50):
        state = rules.new_game(players=players, seed=seed)
        if state.phase.name == "play" and not state.extras:
            return state
    raise AssertionError(f"no seed of {rules.spec_text} opens on an ordinary turn")


@pytest.mark.parametrize("pair", PAIRS, ids=",".join)
def test_r_house_last_loses_no_seat_wins_by_going_out_whatever_card_it_goes_out_on(
    pair: tuple[str, ...],
) -> None:
    # Four seats, nobody out yet: the seat to move holds one card of each kind of the deck
    # in turn, on a top card it matches, and lays it every way it may. It leaves the round
    # and three seats play on; it never wins the round.
    rules = _rules(pair, ",".join(pair))
    state = _opening(rules, 4)
    seat = state.current_player
    numbers = [c for c in dict.fromkeys(rules.deck) if c.number is not None]
    tried = 0
    for card in {c.kind if c.color is None else (c.kind, c.color): c for c in rules.deck}.values():
        top = next(c for c in numbers if c is not card and (card.color is None or c.color is card.color))
        try:
            arranged = rearranged(state, hands={seat: str(card)}, top=top)
        except ValueError:
            continue  # no spare copy (a one-of card of another plugin)
        for action in arranged.legal_actions(seat):
            if action.verb != "play" or action.card is not card:
                continue
            tried += 1
            after = arranged.apply(action)
            won = [r for r in after.rounds[len(arranged.rounds) :] if r.winner == seat and r.reason == "out"]
            assert not won, f"{rules.spec_text}: {action} as the last card won the round"
    assert tried >= 10


@pytest.mark.parametrize("pair", PAIRS, ids=",".join)
def test_r_house_last_loses_no_seat_wins_a_round_by_going_out_with_any_pair(pair: tuple[str, ...]) -> None:
    assert len(PAIRS) >= 40  # every pair of shipped plugins that builds with classic and last-loses
    ended = 0
    for seed in range(4):
        rules = _rules(pair, f"{','.join(pair)}{seed}")
        for players in supported_players(rules, (3, 4)):
            ended += _check_game(rules, players, seed)
    assert ended  # the games reach the rounds' ends


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_r_house_last_loses_no_seat_wins_a_round_by_going_out_searched(
    pair: tuple[str, ...], seed: int, data: st.DataObject
) -> None:
    rules = _rules(pair, seed)
    players = data.draw(st.sampled_from(supported_players(rules, (2, 3, 4, 6))), label="players")
    _check_game(rules, players, seed)

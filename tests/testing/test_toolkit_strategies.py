"""The hypothesis strategies: what they draw is well-formed and the invariants hold for it."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unorules import (
    COLORS,
    Card,
    IllegalActionError,
    Option,
    Plugin,
    Ruleset,
    TestHints,
    installed_plugins,
    one_of,
)
from unorules.testing import Replay
from unorules.testing.invariants import check_cards, check_state
from unorules.testing.strategies import (
    actions,
    arranged_decks,
    build_ruleset,
    buildable_combinations,
    cards,
    colors,
    drawn_subsets,
    game_states,
    legal_actions,
    option_values,
    replays,
    rulesets,
    supported_players,
)

CLASSIC = Ruleset.from_names(["classic"])


@given(rulesets())
def test_rulesets_build_from_installed_plugins_with_classic(ruleset: Ruleset) -> None:
    assert ruleset.names[0] == "classic"
    assert set(ruleset.names) <= set(installed_plugins())
    assert supported_players(ruleset)


@given(rulesets(names=[], options=True))
def test_rulesets_draw_option_values(ruleset: Ruleset) -> None:
    assert ruleset.names == ("classic",)
    # R-UNO-CATCH's 2 or 4, and R-HOUSE-UNO-6's house value
    assert ruleset.options["uno_penalty"] in (2, 4, 6)


@given(game_states(CLASSIC, players=[2, 3, 5], max_actions=40))
def test_game_states_reached_by_legal_play_keep_every_invariant(state: Any) -> None:
    check_state(state)


@given(replays(rulesets(), max_actions=30, arranged=True))
def test_replays_of_any_rule_set_replay_and_keep_the_cheap_invariants(replay: Replay) -> None:
    state = replay.play()
    check_state(state, deep=False)
    assert replay.play() == state


@given(st.data())
def test_actions_are_accepted_if_legal_and_refused_otherwise(data: st.DataObject) -> None:
    state = data.draw(game_states(CLASSIC, max_actions=20))
    action = data.draw(actions(state))
    if state.is_legal(action):
        assert state.apply(action) is not state
    else:
        with pytest.raises(IllegalActionError):
            state.apply(action)
    check_cards(state)


@given(st.data())
def test_legal_actions_draws_only_legal_ones(data: st.DataObject) -> None:
    state = data.draw(game_states(CLASSIC, max_actions=20))
    action = data.draw(legal_actions(state))
    assert action in state.legal_actions()
    seat_action = data.draw(legal_actions(state, state.current_player))
    assert seat_action.seat == state.current_player


@given(st.integers(2, 10).flatmap(lambda n: st.tuples(st.just(n), arranged_decks(CLASSIC, n))))
def test_arranged_decks_deal_their_hands_and_starter(drawn: tuple[int, tuple[Card, ...]]) -> None:
    players, deck = drawn
    assert players * 7 + 1 <= len(deck) <= players * 7 + 7
    state = CLASSIC.new_game(players=players, deck=deck, dealer=0)
    assert state.hands[1][0] is deck[0]  # the seat after the dealer gets the first card
    check_cards(state)


@given(cards(CLASSIC), cards(), colors())
def test_cards_come_from_the_deck(card: Card, any_card: Card, color: Any) -> None:
    assert card in CLASSIC.deck
    assert any_card in CLASSIC.deck
    assert color in COLORS


def test_option_values_start_with_the_default_and_are_all_valid() -> None:
    classic = installed_plugins()["classic"]
    by_name = {o.name: o for o in classic.options}
    assert option_values(classic, by_name["uno_penalty"]) == [2, 4, 6]  # 6: R-HOUSE-UNO-6
    assert option_values(classic, by_name["challenge"]) == [True, False]
    assert option_values(classic, by_name["scoring"]) == ["winner-takes-all", "low-score"]
    target = option_values(classic, by_name["target_score"])
    assert target[0] == 500
    assert 50 in target
    for plugin in installed_plugins().values():
        for option in getattr(plugin, "options", ()):
            values = option_values(plugin, option)
            assert values[0] == option.default
            for value in values:
                option.validate(value)


class Declares(Plugin):
    name = "declares"
    api_version = 2
    requires = ("classic",)
    options = (Option("mode", "a", "a mode", lambda v: v, "anything"),)
    testing = TestHints(option_values={"mode": ("b", "c")})


def test_option_values_a_plugin_declares_win_over_guesses() -> None:
    plugin = Declares()
    assert option_values(plugin, plugin.options[0]) == ["a", "b", "c"]
    free = Option("free", "x", "free text", lambda v: v, "any text, e.g. y or z")
    assert option_values(plugin, free) == ["x"]  # a check that takes anything: no guessing
    picky = Option("picky", "x", "", one_of("x", "y"), "x, y")
    assert option_values(plugin, picky) == ["x", "y"]


def test_buildable_combinations_are_exactly_the_subsets_that_build() -> None:
    names = sorted(set(installed_plugins()) - {"classic"})[:5]
    found = set(buildable_combinations(names))
    assert ("classic",) in found
    for size in range(len(names) + 1):
        for extra in itertools.combinations(names, size):
            combo = ("classic", *extra)
            assert (combo in found) == isinstance(build_ruleset(combo), Ruleset)


def test_build_ruleset_gives_the_reason_a_combination_does_not_build() -> None:
    assert "no plugin named 'nope'" in str(build_ruleset(["classic", "nope"]))
    assert build_ruleset(["classic"]) is build_ruleset(["classic"])  # cached


@pytest.mark.skipif("partners" not in installed_plugins(), reason="the partners plugin is not installed")
def test_supported_players_of_a_four_player_rule_set() -> None:
    rules = Ruleset.from_names(["classic", "partners"])
    assert supported_players(rules) == (4,)
    assert supported_players(rules, (2, 3)) == ()
    assert supported_players(CLASSIC, (2, 3, 11)) == (2, 3)


def test_drawn_subsets_are_a_fixed_sample_of_distinct_sorted_subsets() -> None:
    names = [f"p{i:02}" for i in range(16)]
    drawn = drawn_subsets(names, 40, 3, 10, seed=7)
    assert len(drawn) == len(set(drawn)) == 40
    assert drawn == sorted(drawn)
    assert all(3 <= len(s) <= 10 and list(s) == sorted(s) and set(s) <= set(names) for s in drawn)
    assert drawn_subsets(names, 40, 3, 10, seed=7) == drawn
    assert drawn_subsets(names, 40, 3, 10, seed=8) != drawn
    # Never more than exist; none when none exist.
    assert len(drawn_subsets(["a", "b", "c", "d"], 100, 3)) == 5
    assert drawn_subsets(["a", "b"], 5, 3) == []

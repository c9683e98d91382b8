"""The testing toolkit's invariants over No Mercy: seeded random games with every invariant
checked (the cheap ones after every action, all of them every few actions, the rounds and the
replay), with the default options and option values drawn for the edition; the conformance
runner's combination check (random games and the hypothesis state machine); the leak test; and
what becomes of No Mercy combined with every other installed plugin (each refused, with a reason)."""

from __future__ import annotations

import random

import pytest

from unorules import Ruleset, RulesetError, installed_plugins
from unorules.testing.conformance import (
    CI_BUDGET,
    Combination,
    option_variant,
    play_checked_game,
    run_combination,
)
from unorules.testing.embedding import check_pickle_round_trip, check_view_secrets, random_states

PLAYERS = (2, 3, 4, 6)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_keep_every_invariant(players: int, seed: int) -> None:
    rules = Ruleset.from_names(["no-mercy"])
    violation, played = play_checked_game(rules, players, seed, max_actions=800, eager=0.5, deep_every=9)
    assert violation is None, violation.format()
    assert played > 0


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_drawn_options_keep_every_invariant(seed: int) -> None:
    options = option_variant(Combination(("no-mercy",)), seed)
    try:
        rules = Ruleset.from_names(["no-mercy"], options=options)
    except RulesetError:  # last-standing with points: refused by design
        options.pop("nm_scoring", None)
        rules = Ruleset.from_names(["no-mercy"], options=options)
    players = PLAYERS[seed % len(PLAYERS)]
    violation, _ = play_checked_game(rules, players, seed, max_actions=600, eager=0.3, deep_every=11)
    assert violation is None, violation.format()


def test_the_conformance_check_of_no_mercy_alone() -> None:
    result = run_combination(Combination(("no-mercy",)), CI_BUDGET)
    assert not result.violations, "\n".join(v.format() for v in result.violations)
    assert "no-mercy" in result.summary


@pytest.mark.parametrize("players", [2, 4])
def test_no_view_depends_on_what_its_seat_may_not_know(players: int) -> None:
    rules = Ruleset.from_names(["no-mercy"])
    compared = 0
    for game in range(4):  # several games: a two-player game may end in a few actions
        for i, state in enumerate(random_states(rules, players, f"secrets{players}/{game}", steps=150)):
            compared += check_view_secrets(state, random.Random(i))
            if i % 40 == 0:
                check_pickle_round_trip(state)
    assert compared > 100


OTHERS = sorted(n for n in installed_plugins() if n != "no-mercy")


@pytest.mark.parametrize("other", OTHERS)
def test_combined_with_another_plugin_it_builds_or_is_refused_with_the_reason(other: str) -> None:
    # Every shipped plugin builds on classic, which this edition replaces: refused with a reason
    # naming the conflict (with classic added) or the missing requirement (without it).
    plugin = installed_plugins()[other]
    names = ["no-mercy", other, *(["classic"] if "classic" in getattr(plugin, "requires", ()) else [])]
    try:
        rules = Ruleset.from_names(names)
    except RulesetError as exc:
        message = str(exc)
    else:
        violation, _ = play_checked_game(rules, 3, 1, max_actions=400, eager=0.5, deep_every=10)
        assert violation is None, violation.format()
        return
    assert "conflict" in message or "requires" in message, message

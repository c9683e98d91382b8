"""Combinations of the shipped plugins, played with every invariant checked.

The shipped plugins are the installed ones whose code lives under
``plugins/``; they are found when the tests are collected, so a new plugin is
covered without editing this file. Sized for the CI budget, in layers:

* **subsets** of the shipped plugins with ``classic`` are built (the quick
  tier: every subset of at most three plugins; the full tier: of at most
  four, and 400 larger ones drawn with a fixed seed): one refused must be
  refused with a ``RulesetError`` that names one of its plugins (never
  mid-game). Every subset would be ``2**len(SHIPPED)``: the matrices here
  grow with the square of the plugins, and the drawn searches below try new
  larger ones on every run;
* **singles and pairs** each play three seeded random games, and 60 triples
  drawn with a fixed seed one game each, with 2, 3
  and 6 players (a rule set that deals only for another count, partners: four,
  plays that count), eager to play cards so rounds end, checking the cheap
  invariants after every action and all of them every few actions; the 2- and
  6-player games use option values drawn for the subset;
* **a search over drawn subsets**: hypothesis draws larger subsets of the
  shipped plugins with their options, a player count and a seed, and plays
  one checked game each. It is not derandomized, so every CI run tries new
  inputs (``HYPOTHESIS_PROFILE=thorough`` for long runs, see DEVELOPING.md);
* **the state machine** over rule sets drawn from the shipped plugins with
  their options, and over the two largest combinations that build;
* **the conformance suite** over each shipped plugin, with the bounded CI budget.

A failure prints the shrunk replay: the rule set line, the seed and the actions.
"""

from __future__ import annotations

import functools
import itertools
import sys
from pathlib import Path

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from unorules import Ruleset, RulesetError, installed_plugins
from unorules.testing.conformance import CI_BUDGET, check_conformance, option_variant, play_checked_game
from unorules.testing.machine import machine_for
from unorules.testing.strategies import build_ruleset, drawn_subsets, rulesets, supported_players

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = (2, 3, 6)
MAX_ACTIONS = 180
DEEP_EVERY = 30


def _lives_under(plugin: object, folder: Path) -> bool:
    module = sys.modules.get(type(plugin).__module__)
    path = getattr(module, "__file__", None)
    return path is not None and folder in Path(path).resolve().parents


def shipped_plugins() -> list[str]:
    """Installed plugins from this repository's ``plugins/`` folder (all
    installed ones but the examples, if the plugins are not installed from it)."""
    installed = installed_plugins()
    found = sorted(n for n, p in installed.items() if _lives_under(p, ROOT / "plugins"))
    if len(found) <= 1:
        found = sorted(n for n, p in installed.items() if not _lives_under(p, ROOT / "examples"))
    return found


SHIPPED = [n for n in shipped_plugins() if n != "classic"]
SMALL_SUBSETS = [extra for size in range(4) for extra in itertools.combinations(SHIPPED, size)]
"""Every subset of at most three shipped plugins besides classic: built in the quick tier."""
PAIRS = [extra for extra in SMALL_SUBSETS if len(extra) <= 2]
SEEDS = (0, 1, 2)  # one game per seed, with PLAYERS[i] players


TRIPLES = drawn_subsets(SHIPPED, 60, 3, 3, seed=3)
"""Triples played, one game each: a fixed draw (all of them are built)."""
BUILT = [extra for size in range(5) for extra in itertools.combinations(SHIPPED, size)]
BUILT += drawn_subsets(SHIPPED, 400, 5, seed=5)
"""The subsets the full tier builds: every one of at most four plugins, and 400 larger."""


def _label(extra: tuple[str, ...]) -> str:
    return "+".join(extra) or "classic-alone"


def _conflicts_declared(names: tuple[str, ...]) -> str | None:
    plugins = installed_plugins()
    for name in names:
        for other, why in getattr(plugins[name], "conflicts", {}).items():
            if other in names:
                return f"plugins {name!r} and {other!r} conflict: {why}"
    return None


@functools.cache
def combination(extra: tuple[str, ...]) -> Ruleset | str:
    """The rule set of classic and ``extra``, or why it is refused.

    Declared conflicts are refused without building. A combination refused
    when built with the default options is tried again with each alternative
    value of the options of the plugins its refusal names (shuffle-hands with
    swap-hands builds with ``with_swap_hands=on``, say)."""
    names = ("classic", *extra)
    declared = _conflicts_declared(names)
    if declared is not None:
        return declared
    try:
        return Ruleset.from_names(names)
    except RulesetError as exc:
        refusal = str(exc)
    from unorules.testing.strategies import option_values

    plugins = installed_plugins()
    for name in sorted(extra, key=lambda n: f"'{n}'" not in refusal):
        for option in getattr(plugins[name], "options", ()):
            for value in option_values(plugins[name], option)[1:]:
                try:
                    return Ruleset.from_names(names, options={option.name: value})
                except RulesetError:
                    continue
    return refusal


def _builds_or_is_refused_naming_one_of_its_plugins(subsets: list[tuple[str, ...]]) -> None:
    for extra in subsets:
        built = combination(extra)
        if isinstance(built, str):
            # Refused when built, never mid-game: the message names a plugin of the combination.
            assert any(name in built for name in extra), built


def test_every_small_combination_builds_or_is_refused_naming_one_of_its_plugins() -> None:
    _builds_or_is_refused_naming_one_of_its_plugins(SMALL_SUBSETS)


# Every subset of at most four plugins and 400 drawn larger ones (about 20 s): the full tier.
@pytest.mark.slow
def test_subsets_of_up_to_four_and_drawn_larger_ones_build_or_are_refused_naming_a_plugin() -> None:
    _builds_or_is_refused_naming_one_of_its_plugins(BUILT)


def _play_checked(built: Ruleset, label: str, players: int, seed: int) -> None:
    """One seeded random game of ``built`` (options drawn from ``label`` unless
    with 3 players), every invariant checked; fails with the shrunk replay."""
    counts = supported_players(built, (players,)) or supported_players(built)[:1]
    rules = built
    if players != 3:
        options = {**built.spec()["options"], **option_variant(built, f"{label}:{players}")}
        try:
            rules = Ruleset.from_names(built.names, options=options)
        except RulesetError:
            rules = built  # the drawn options refuse each other: play the defaults
    violation, _ = play_checked_game(
        rules,
        counts[0],
        seed,
        max_actions=MAX_ACTIONS,
        eager=0.85,
        deep_every=DEEP_EVERY,
        shrink_steps=100_000,
    )
    assert violation is None, violation.format() if violation else ""


@pytest.mark.parametrize("seed", SEEDS, ids=[f"seed{s}-{PLAYERS[s]}p" for s in SEEDS])
@pytest.mark.parametrize("extra", PAIRS, ids=[_label(s) for s in PAIRS])
def test_singles_and_pairs_play_keeping_every_invariant(extra: tuple[str, ...], seed: int) -> None:
    _play_seeded(extra, seed)


EDITIONS = [n for n in SHIPPED if "classic" in getattr(installed_plugins()[n], "conflicts", {})]
EDITION_PAIRS = [
    (edition, other)
    for edition in EDITIONS
    for other in SHIPPED
    if other not in EDITIONS and not isinstance(build_ruleset((edition, other)), str)
]
"""Each edition (played in place of classic) with every shipped plugin that builds with it
(issue 42: a plugin that needs a base rule set names none, so ``flip,jump-in`` builds)."""


def test_the_house_rules_that_name_no_base_build_with_the_editions() -> None:
    assert ("flip", "jump-in") in EDITION_PAIRS
    assert ("no-mercy", "jump-in") in EDITION_PAIRS


@pytest.mark.parametrize("seed", SEEDS, ids=[f"seed{s}-{PLAYERS[s]}p" for s in SEEDS])
@pytest.mark.parametrize("pair", EDITION_PAIRS, ids=["+".join(p) for p in EDITION_PAIRS])
def test_editions_with_a_house_rule_play_keeping_every_invariant(pair: tuple[str, str], seed: int) -> None:
    built = build_ruleset(pair)
    assert isinstance(built, Ruleset), built
    _play_checked(built, "+".join(pair), PLAYERS[seed], seed)


@pytest.mark.parametrize("extra", TRIPLES, ids=[_label(s) for s in TRIPLES])
def test_drawn_triples_play_keeping_every_invariant(extra: tuple[str, ...]) -> None:
    _play_seeded(extra, TRIPLES.index(extra) % len(SEEDS))


def _play_seeded(extra: tuple[str, ...], seed: int) -> None:
    built = combination(extra)
    if isinstance(built, str):
        return  # refused when built (checked above)
    players = PLAYERS[seed]
    _play_checked(built, _label(extra), players, len(extra) * 10 + players + 100 * seed)


# Explores: not derandomized even under the CI profile, so each run draws new
# subsets, options and seeds; as many examples as the profile allows, at least 30.
@settings(derandomize=False, database=None, max_examples=max(30, settings.default.max_examples))
@given(
    built=rulesets(names=SHIPPED, max_size=len(SHIPPED)),
    players=st.sampled_from(PLAYERS),
    seed=st.integers(0, 2**32 - 1),
)
def test_search_drawn_combinations_keep_every_invariant(built: Ruleset, players: int, seed: int) -> None:
    note(f"rule set: {built.spec_text}, {players} players, seed {seed}")
    _play_checked(built, built.spec_text, players, seed)


def _largest(names: list[str]) -> tuple[str, ...]:
    """The combination made by adding ``names`` in order while the rule set still builds."""
    chosen: list[str] = []
    for name in names:
        candidate = tuple(sorted([*chosen, name]))
        if isinstance(combination(candidate), Ruleset):
            chosen.append(name)
    return tuple(sorted(chosen))


RICH = sorted({_largest(SHIPPED), _largest(SHIPPED[::-1])})


# The state machine over rule sets drawn from the shipped plugins, options included.
TestShippedCombinations = machine_for(
    rulesets(names=SHIPPED), name="ShippedCombinations", players=PLAYERS
).TestCase


@pytest.mark.parametrize("extra", RICH, ids=[_label(e) for e in RICH])
def test_state_machine_over_the_largest_combinations(extra: tuple[str, ...]) -> None:
    from hypothesis import settings
    from hypothesis.stateful import run_state_machine_as_test

    built = combination(extra)
    assert isinstance(built, Ruleset), built
    counts = supported_players(built, PLAYERS) or supported_players(built)[:1]
    machine = machine_for(built, players=counts)
    run_state_machine_as_test(machine, settings=settings(settings.default, stateful_step_count=30))


@pytest.mark.parametrize("name", SHIPPED + ["classic"])
def test_conformance_of_each_shipped_plugin(name: str) -> None:
    check_conformance(name, CI_BUDGET)

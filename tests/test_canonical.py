"""Canonical rule sets: the order plugins are listed in never matters.

Plugins that do not require one another are registered by name, so every
permutation of the same plugins and options builds an equal rule set that
deals the same deck and plays the same seeded game; ``Ruleset.spec_text`` is
the canonical name and ``Ruleset.from_spec_text`` reads it back (through a
per-process cache).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from unorules import GameState, Plugin, Ruleset, RulesetError, installed_plugins
from unorules.cli import parse_options
from unorules.testing.strategies import option_values

LISTS = [
    (("classic", "swap-hands", "custom-wilds"), {"custom_wild_1": "extra-turn"}),
    (("classic", "stacking", "jump-in", "penalties"), {"stack_mix": True}),
    (("classic", "seven-o", "blank-cards", "elimination"), {"blank_cards": ("house-rule",)}),
]


def _seeded_game(rules: Ruleset, seed: int, limit: int = 150) -> tuple[list[str], GameState]:
    state = rules.new_game(players=3, seed=seed)
    choose = random.Random(seed).choice
    taken: list[str] = []
    while state.outcome is None and len(taken) < limit:
        action = choose(state.legal_actions())
        taken.append(str(action))
        state = state.apply(action)
    return taken, state


@pytest.mark.parametrize(
    ("names", "options"), LISTS, ids=lambda v: ",".join(v) if isinstance(v, tuple) else ""
)
def test_every_permutation_builds_an_equal_rule_set_and_plays_the_same_game(
    names: tuple[str, ...], options: dict[str, Any]
) -> None:
    installed = installed_plugins()
    reference = Ruleset([installed[n] for n in names], options)
    games = {seed: _seeded_game(reference, seed) for seed in (0, 1)}
    for order in itertools.permutations(names):
        # Built directly, outside the cache, so each permutation really is built again.
        rules = Ruleset([installed[n] for n in order], options)
        assert rules == reference
        assert hash(rules) == hash(reference)
        assert rules.names == reference.names
        assert rules.deck == reference.deck
        assert rules.spec_text == reference.spec_text
        for seed, (taken, final) in games.items():
            assert _seeded_game(rules, seed) == (taken, final)
        assert Ruleset.from_names(order, options) is Ruleset.from_names(names, options)


def test_names_are_in_topological_order_with_ties_by_name() -> None:
    class Base(Plugin):
        name = "zz-base"
        api_version = 2
        requires = ("classic",)

    class Needs(Plugin):
        name = "aa-needs"
        api_version = 2
        requires = ("zz-base",)

    class Free(Plugin):
        name = "mm-free"
        api_version = 2

    class Late(Plugin):
        name = "bb-late"
        api_version = 2
        requires = ("aa-needs", "mm-free")

    classic = installed_plugins()["classic"]
    for order in itertools.permutations([Base(), Needs(), Free(), Late(), classic]):
        assert Ruleset(order).names == ("classic", "mm-free", "zz-base", "aa-needs", "bb-late")


def test_a_requirement_cycle_is_refused_naming_a_plugin() -> None:
    class A(Plugin):
        name = "a"
        api_version = 2
        requires = ("b",)

    class B(Plugin):
        name = "b"
        api_version = 2
        requires = ("a",)

    with pytest.raises(RulesetError, match="cycle through 'a'"):
        Ruleset([A(), B()])


def test_spec_text_lists_names_canonically_then_the_given_options_sorted() -> None:
    rules = Ruleset.from_names(
        ["stacking", "classic"], {"uno_penalty": "4", "stack_mix": True, "challenge": "off"}
    )
    assert rules.spec_text == "classic,stacking challenge=off stack_mix=on uno_penalty=4"
    assert Ruleset.from_names(["classic"]).spec_text == "classic"
    # An option given its default value is kept: the text says what was asked for.
    assert Ruleset.from_names(["classic"], {"uno_penalty": 2}).spec_text == "classic uno_penalty=2"
    blanks = Ruleset.from_names(
        ["classic", "blank-cards"], {"blank_cards": ["y7", "aside"], "lost_cards": ""}
    )
    assert blanks.spec_text == "classic,blank-cards blank_cards=Y7,aside lost_cards="


def test_from_spec_text_reads_any_order_and_gives_one_object_per_spec() -> None:
    rules = Ruleset.from_spec_text("stacking,classic   stack_mix=yes")
    assert rules.spec_text == "classic,stacking stack_mix=on"
    assert Ruleset.from_spec_text(rules.spec_text) is rules
    assert Ruleset.from_spec_text("classic stacking stack_mix=1") is rules
    assert Ruleset.from_names(["classic", "stacking"], {"stack_mix": True}) is rules
    assert Ruleset.from_spec(rules.spec()) is rules
    state = rules.new_game(players=3, seed=5)
    assert GameState.from_json(state.to_json()).ruleset is rules


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "names no plugin"),
        ("   ", "names no plugin"),
        ("uno_penalty=4", "names no plugin"),
        ("classic,no-such-plugin", "no plugin named 'no-such-plugin' is installed"),
        ("classic stack_mixed=on", "no plugin of it has an option 'stack_mixed'"),
        ("classic uno_penalty=3", r"option uno_penalty='3' of plugin 'classic'.*allowed: 2, 4"),
        ("classic =4", "bad option part '=4'"),
        ("classic uno-penalty=4", "bad option part 'uno-penalty=4'"),
        ("classic uno_penalty=2 uno_penalty=4", "option 'uno_penalty' is given twice"),
        ("classic challenge=maybe", "option challenge='maybe'"),
        ("classic," + "x" * 10_000, r"no plugin named 'xxx.*\(10000 characters\)"),
    ],
)
def test_a_bad_spec_text_is_refused_naming_the_bad_part(text: str, message: str) -> None:
    with pytest.raises(RulesetError, match=message) as raised:
        Ruleset.from_spec_text(text)
    assert len(str(raised.value)) < 1000


def test_from_spec_text_refuses_what_is_not_text() -> None:
    with pytest.raises(RulesetError, match="not list"):
        Ruleset.from_spec_text(["classic"])  # type: ignore[arg-type]


def _plugins_with_options() -> list[tuple[str, Any]]:
    return [(n, p) for n, p in installed_plugins().items() if getattr(p, "options", ())]


@pytest.mark.parametrize(
    ("name", "plugin"), _plugins_with_options(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_option_value_round_trips_through_the_spec_text(name: str, plugin: Any) -> None:
    names = ["classic", *getattr(plugin, "requires", ()), name]
    for option in plugin.options:
        for value in option_values(plugin, option):
            try:
                rules = Ruleset.from_names(names, {option.name: value})
            except RulesetError:
                continue  # a value the rule set refuses with its other defaults
            again = Ruleset.from_spec_text(rules.spec_text)
            assert again == rules
            assert again.options == rules.options
            assert again.spec_text == rules.spec_text
            text = option.to_text(rules.options[option.name])
            assert f"{option.name}={text}" in rules.spec_text.split()


@pytest.mark.parametrize(
    ("name", "plugin"), _plugins_with_options(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_the_spec_text_and_the_command_line_read_option_values_alike(name: str, plugin: Any) -> None:
    texts = ["on", "off", "Yes", "0", "1", "2", "4", "70", " 7 ", "none", "extra-turn", "Y7,aside", "", "x"]
    for option in plugin.options:
        for text in texts + [option.to_text(v) for v in option_values(plugin, option)]:
            (from_cli,) = parse_options([f"{option.name}={text}"]).values()
            try:
                expected: Any = option.validate(from_cli)
            except (TypeError, ValueError):
                expected = "refused"
            try:
                got: Any = option.from_text(text)
            except (TypeError, ValueError):
                got = "refused"
            assert got == expected, (option.name, text)


def test_a_value_without_a_spec_text_is_reported() -> None:
    from unorules import Option

    class Odd(Plugin):
        name = "odd"
        api_version = 2
        requires = ("classic",)
        options = (Option("label", "a", "free text"),)

    rules = Ruleset([installed_plugins()["classic"], Odd()], {"label": "two words"})
    with pytest.raises(RulesetError, match=r"option 'label' of plugin 'odd'.*no spec text"):
        _ = rules.spec_text

"""The conflict and interaction table of the docs (``docs/_ext/unorules_interactions.py``,
shown on the house-rules page) against what the rule sets do: every pair of shipped plugins
and house-rule option values has a verdict; a conflict is refused when built, naming what
refuses; every other pair builds and plays keeping every invariant; the testing toolkit draws
every house-rule option's values."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from unorules import Ruleset, RulesetError, installed_plugins
from unorules.testing.conformance import play_checked_game
from unorules.testing.strategies import option_values, supported_players

ROOT = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"\.\. _rule-(R-HOUSE-[A-Z0-9-]+):")


def _extension() -> Any:
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        spec = importlib.util.spec_from_file_location(
            "unorules_interactions", ROOT / "docs" / "_ext" / "unorules_interactions.py"
        )
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "docs" / "_ext"))


EXT = _extension()
SHIPPED = EXT._plugins_extension().shipped_plugins()
ITEMS = EXT.items(SHIPPED)
TABLE = EXT.table(SHIPPED)


def test_every_pair_of_items_has_one_verdict() -> None:
    pairs = {frozenset({v.a.label, v.b.label}) for v in TABLE}
    same_option = sum(
        1
        for i, a in enumerate(ITEMS)
        for b in ITEMS[i + 1 :]
        if a.option is not None and a.option == b.option
    )
    assert len(pairs) == len(TABLE) == len(ITEMS) * (len(ITEMS) - 1) // 2 - same_option
    assert {v.kind for v in TABLE} == {"combine", "decision", "conflict"}


def test_every_house_rule_option_and_shipped_plugin_is_an_item() -> None:
    labels = {i.label for i in ITEMS}
    assert {n for n in SHIPPED if n != "classic"} <= labels
    for plugin in SHIPPED.values():
        for option in getattr(plugin, "options", ()):
            if "R-HOUSE-" in option.doc:
                assert any(i.option == option.name for i in ITEMS), option.name


def test_every_house_rule_id_is_played_by_a_shipped_plugin() -> None:
    defined = set(RULE_ID.findall((ROOT / "docs" / "rules.rst").read_text(encoding="utf-8")))
    assert len(defined) >= 15
    cited = " ".join(
        " ".join(getattr(p, "rules", ())) + " " + " ".join(o.doc for o in getattr(p, "options", ()))
        for p in SHIPPED.values()
    )
    missing = [rule for rule in defined if rule not in cited and rule != "R-HOUSE-PROGRESSIVE"]
    assert not missing, f"house rules no shipped plugin or option plays: {missing}"


@pytest.mark.parametrize(
    "verdict", [v for v in TABLE if v.kind == "conflict"], ids=lambda v: f"{v.a.label}+{v.b.label}"
)
def test_a_conflict_is_refused_when_built_saying_why(verdict: Any) -> None:
    pair = {verdict.a.plugin, verdict.b.plugin}
    edition = any(EXT.is_edition(SHIPPED[name]) for name in pair)  # played in place of classic
    names = sorted(pair if edition else pair | {"classic"})
    options = {i.option: i.value for i in (verdict.a, verdict.b) if i.option is not None}
    with pytest.raises(RulesetError) as error:
        Ruleset.from_names(names, options)
    message = str(error.value)
    assert message == verdict.why[0]
    named = {verdict.a.plugin, verdict.b.plugin} | {i.option for i in (verdict.a, verdict.b) if i.option}
    assert any(name in message for name in named - {"classic"}), message


def test_every_declared_conflict_of_shipped_plugins_is_in_the_table() -> None:
    conflicts = {frozenset({v.a.label, v.b.label}) for v in TABLE if v.kind == "conflict"}
    page = EXT.page(TABLE, SHIPPED)
    for name, plugin in SHIPPED.items():
        for other in getattr(plugin, "conflicts", {}):
            if other == "classic":
                # An edition replaces classic, which is no item: the page names the pair.
                assert name in EXT.editions(SHIPPED), name
                assert f"``{name}`` and ``classic``" in page, name
            elif other in SHIPPED:
                assert frozenset({name, other}) in conflicts, (name, other)


def test_an_edition_stands_in_for_classic_in_its_pairs() -> None:
    assert EXT.editions(SHIPPED) == ["flip", "no-mercy"]
    verdicts = {frozenset({v.a.label, v.b.label}): v for v in TABLE}
    # Refused for its own reason, not because classic was added to it.
    stacking = verdicts[frozenset({"flip", "stacking"})]
    assert stacking.kind == "conflict"
    assert "FLIP!'s draw cards" in stacking.why[0]
    assert verdicts[frozenset({"flip", "no-mercy"})].kind == "conflict"
    # An edition's own options (flip's scoring, challenge) are not house-rule items.
    assert not [i for i in ITEMS if i.option is not None and i.plugin in ("flip", "no-mercy")]


def test_interactions_entries_name_only_plugins_and_options_that_exist() -> None:
    plugins = set(installed_plugins())
    options = {o.name for p in SHIPPED.values() for o in getattr(p, "options", ())}
    for name, plugin in SHIPPED.items():
        for entry in EXT.entries(name, plugin):
            for head in entry.names:
                assert head in plugins or head.split("=")[0] in options, (name, head)
            assert entry.text, (name, entry.names)


def test_a_decision_quotes_the_plugins_own_words() -> None:
    decisions = [v for v in TABLE if v.kind == "decision"]
    assert len(decisions) > 20
    pair = next(v for v in decisions if {v.a.label, v.b.label} == {"stacking", "deflect_revenge=on"})
    assert "doubles" in pair.why[0]
    assert pair.why[0].endswith("(deflect)")


def test_the_page_lists_every_conflict_and_decision() -> None:
    page = EXT.page(TABLE, SHIPPED)
    for verdict in TABLE:
        if verdict.kind != "combine":
            assert f"``{verdict.a.label}`` and ``{verdict.b.label}``" in page
    assert f"make {len(TABLE)} pairs" in page


def _play(verdict: Any) -> None:
    built = EXT.build(verdict.a, verdict.b)
    assert isinstance(built, Ruleset), built
    counts = supported_players(built, (3, 4)) or supported_players(built)[:1]
    violation, _ = play_checked_game(built, counts[0], seed=len(verdict.a.label), max_actions=150, eager=0.85)
    assert violation is None, violation.format() if violation else ""


PLAYED = [v for v in TABLE if v.kind != "conflict"]


@pytest.mark.parametrize("verdict", PLAYED[::23], ids=lambda v: f"{v.a.label}+{v.b.label}")
def test_a_sample_of_the_pairs_that_combine_plays_keeping_every_invariant(verdict: Any) -> None:
    _play(verdict)


@pytest.mark.slow
@pytest.mark.parametrize("verdict", PLAYED, ids=lambda v: f"{v.a.label}+{v.b.label}")
def test_every_pair_that_combines_plays_keeping_every_invariant(verdict: Any) -> None:
    _play(verdict)


HOUSE_OPTIONS = [
    (name, option)
    for name, plugin in SHIPPED.items()
    for option in getattr(plugin, "options", ())
    if "R-HOUSE-" in option.doc
]


@pytest.mark.parametrize(("name", "option"), HOUSE_OPTIONS, ids=[o.name for _, o in HOUSE_OPTIONS])
def test_the_testing_toolkit_draws_every_value_of_a_house_rule_option(name: str, option: Any) -> None:
    drawn = option_values(SHIPPED[name], option)
    assert len(drawn) >= 2, (option.name, drawn)
    choices = getattr(option.check, "choices", None)
    if choices:
        assert set(choices) <= set(drawn), (option.name, drawn)
    for value in drawn:
        Ruleset.from_names(sorted({"classic", name}), {option.name: value})

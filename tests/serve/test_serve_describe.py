"""The rules in plain words: the new-table form's controls and a table's rule set by name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from serve_helpers import Player, serving

from unorules.plugin import Option, one_of, positive_int, summary, switch
from unorules.ruleset import installed_plugins
from unorules.serve.describe import (
    option_data,
    plain_words,
    plugin_title,
    rules_data,
    ruleset_data,
    ruleset_title,
)

CODE = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b|\[[A-Z][A-Z0-9]*")


def test_plain_words_take_out_markup_codes_and_sources() -> None:
    assert plain_words("R-STACK: also a Wild Draw Four on a Draw Two [LT point 3]") == (
        "Also a Wild Draw Four on a Draw Two",
        ["R-STACK", "[LT point 3]"],
    )
    assert plain_words("R-SCORE (winner scores the hands) or R-WIN-LOW (each pays)") == (
        "Winner scores the hands or each pays",
        ["R-SCORE", "R-WIN-LOW"],
    )
    assert plain_words("points of a blank ([CZ] prints '?') (R-SCORE)") == (
        "Points of a blank",
        ["[CZ]", "R-SCORE"],
    )
    assert plain_words('with ``enforcement="table"``, see :func:`unorules.play` and *this*') == (
        'With enforcement="table", see unorules.play and this',
        [],
    )
    assert plain_words("the most cards (0: no limit)") == ("The most cards (0: no limit)", [])


def test_each_option_gets_the_control_that_fits_it() -> None:
    choice = option_data(
        Option(
            "scoring",
            "winner-takes-all",
            "R-SCORE: how to score",
            one_of("winner-takes-all", "low"),
            "winner-takes-all, low",
        )
    )
    assert choice["control"] == "choice"
    assert choice["choices"] == [
        {"value": "winner-takes-all", "label": "winner takes all"},
        {"value": "low", "label": "low"},
    ]
    assert (choice["label"], choice["codes"]) == ("How to score", ["R-SCORE"])
    numbers = option_data(Option("penalty", 2, "cards drawn", one_of(2, 4), "2, 4"))
    assert [c["value"] for c in numbers["choices"]] == ["2", "4"]
    toggle = option_data(Option("mix", False, "mix them", switch, "on, off"))
    assert (toggle["control"], toggle["default"]) == ("switch", "off")
    number = option_data(
        Option("target", 500, "points that end the game (R-WIN)", positive_int, "a positive integer")
    )
    assert (number["control"], number["min"], number["label"]) == ("number", 1, "Points that end the game")
    # a list in `allowed` that the check does not take as it is: free text
    text = option_data(Option("cards", (), "cards", lambda v: v, "up to 4 of: a card, aside, house-rule"))
    assert text["control"] == "text"
    labelled = option_data(
        Option(
            "enforcement",
            "strict",
            "strict: refused; table: caught",
            one_of("strict", "table"),
            "strict, table",
        )
    )
    assert (labelled["label"], labelled["help"]) == ("Enforcement", "Strict: refused; table: caught")


def test_every_installed_plugin_reads_in_plain_words() -> None:
    data = rules_data()
    assert {p["name"] for p in data["plugins"]} == set(installed_plugins())
    for plugin in data["plugins"]:
        for text in (plugin["title"], plugin["doc"]):
            assert "`" not in text
            assert not CODE.search(text), text
        for option in plugin["options"]:
            for text in (option["label"], option["help"]):
                assert "`" not in text, option
                assert not CODE.search(text), option
                assert "_" not in text, option
            if option["control"] == "choice":
                assert option["default"] in [c["value"] for c in option["choices"]]
    classic = next(p for p in data["plugins"] if p["name"] == "classic")
    controls = {o["name"]: o["control"] for o in classic["options"]}
    assert controls["challenge"] == "switch"
    assert controls["scoring"] == "choice"
    assert controls["target_score"] == "number"


SPEC = "classic,jump-in,stacking stack_mix=on target_score=200"


def test_plugin_titles_and_words_come_from_each_plugins_summary_line() -> None:
    assert plugin_title("seven-o") == "7-0"
    assert plugin_title("penalties") == "Table penalties"
    assert plugin_title("elimination") == "Elimination tournament"
    seven_o = next(p for p in rules_data()["plugins"] if p["name"] == "seven-o")
    assert seven_o["doc"].startswith("A 0 passes every hand to the next seat")


def test_the_summary_lines_of_classic_and_stacking_begin_with_their_titles() -> None:
    plugins = installed_plugins()
    assert summary(plugins["classic"]).startswith("Classic UNO: ")
    assert summary(plugins["stacking"]).startswith("Stacking: ")


def test_a_rule_set_title_is_its_plugins_titles() -> None:
    assert ruleset_title(SPEC) == "Classic UNO + Jump-in + Stacking"


def test_a_rule_set_is_shown_by_name_with_its_rules_in_words(tmp_path: Path) -> None:
    spec = SPEC
    title = "Classic UNO + Jump-in + Stacking"
    assert ruleset_title(spec) == title
    described = ruleset_data(spec)
    assert [p["name"] for p in described["plugins"]] == ["classic", "jump-in", "stacking"]
    options = {o["name"]: o for p in described["plugins"] for o in p["options"]}
    assert (options["target_score"]["value"], options["target_score"]["changed"]) == ("200", True)
    assert (options["stack_mix"]["value"], options["stack_mix"]["changed"]) == ("on", True)
    assert options["scoring"]["value"] == "winner takes all"
    assert not options["scoring"]["changed"]
    with serving(tmp_path / "t.sqlite") as server:
        created = server.create(
            ["classic", "stacking", "jump-in"], ["open"], options={"target_score": "200", "stack_mix": "on"}
        )
        _status, meta = server.request("GET", f"/api/tables/{created['table']}")
        assert meta["title"] == title
        assert meta["rules"] == spec
        welcome = Player(server, created["table"], None).until("welcome")
        assert welcome["ruleset"] == described


@pytest.mark.parametrize("name", sorted(installed_plugins()))
def test_the_form_offers_every_option_of(name: str) -> None:
    """Each declared option appears once, with its default among what the control can show."""
    plugin = next(p for p in rules_data()["plugins"] if p["name"] == name)
    assert [o["name"] for o in plugin["options"]] == [o.name for o in installed_plugins()[name].options]

"""The four house-rule plugins as plugins: declarations, the new and the old spelling
(an option brings in its plugin), other bases than classic, no import of another
plugin's module. Dealer 0: seat 1 plays first, on a red 5."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from house_rules_helpers import OTHERS, deal, events, hand, legal, play, rearranged, refused

import unorules.spec
from unorules import GameState, Option, Plugin, Ruleset, RulesetError, installed_plugins
from unorules.rulebook import Rulebook
from unorules.testing.conformance import play_checked_game

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "unorules_house_rules"
OWNERS = {
    "last_card_ban": "last-card",
    "last_draw_card": "last-card",
    "forced_play": "turn-rules",
    "hand_limit": "turn-rules",
    "misplay_penalty": "turn-rules",
    "uno_call": "uno-calls",
    "false_uno_penalty": "uno-calls",
    "blocked_round": "score-rules",
    "double_score": "score-rules",
}
OFF = {
    "last_card_ban": "none",
    "last_draw_card": "draws",
    "forced_play": False,
    "hand_limit": 0,
    "misplay_penalty": 0,
    "uno_call": "two-cards",
    "false_uno_penalty": 0,
    "blocked_round": "fewest-points",
    "double_score": False,
}
HANDS = [OTHERS, "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]


def test_each_plugin_declares_api_2_its_rules_and_options_and_requires_nothing() -> None:
    for name in set(OWNERS.values()):
        plugin = installed_plugins()[name]
        assert plugin.api_version == 2
        assert plugin.rules
        assert tuple(getattr(plugin, "requires", ())) == ()
        declared = {o.name: o for o in plugin.options}
        assert set(declared) == {o for o, owner in OWNERS.items() if owner == name}
        for option, default in OFF.items():
            if option in declared:
                assert declared[option].default == default  # the value meaning "off", as in classic


def test_classic_declares_none_of_them_any_more() -> None:
    classic = {o.name for o in installed_plugins()["classic"].options}
    assert not classic & set(OWNERS)
    assert "uno_penalty" in classic  # 6 stays one of its values (R-HOUSE-UNO-6)


@pytest.mark.parametrize("option", sorted(OWNERS))
def test_the_old_spelling_adds_the_plugin_and_the_canonical_text_names_it(option: str) -> None:
    owner = OWNERS[option]
    old = Ruleset.from_names(["classic"], {option: OFF[option]})
    new = Ruleset.from_names(["classic", owner], {option: OFF[option]})
    assert old is new
    assert owner in old.names
    text = Option(option, OFF[option], "").to_text(OFF[option])
    assert old.spec_text == f"{','.join(new.names)} {option}={text}"
    assert Ruleset.from_spec_text(f"classic {option}={text}") is new


def test_a_named_plugin_without_options_plays_as_classic_alone() -> None:
    names = ["classic", *sorted(set(OWNERS.values()))]
    plain, alone = Ruleset.from_names(names), Ruleset.from_names(["classic"])
    a, b = plain.new_game(players=3, seed=5), alone.new_game(players=3, seed=5)
    for _ in range(120):
        assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]
        if a.is_over:
            break
        action = str(b.legal_actions()[len(b.legal_actions()) // 2])
        a, b = a.apply(action), b.apply(action)


def test_state_json_and_rulebooks_written_the_old_way_still_load() -> None:
    state = Ruleset.from_names(["classic", "turn-rules"], {"hand_limit": 14}).new_game(players=3, seed=1)
    data = json.loads(state.to_json())
    assert data["ruleset"]["plugins"] == ["classic", "turn-rules"]
    data["ruleset"] = {"plugins": ["classic"], "options": {"hand_limit": 14}}  # as written before the move
    assert GameState.from_json(json.dumps(data)) == state
    book = Rulebook.from_toml('plugins = ["classic"]\n[options]\ndouble_score = true\n', "old.toml")
    assert "score-rules" in book.plugins
    assert Ruleset.from_rulebook(book).spec_text == "classic,score-rules double_score=on"


def test_an_option_several_installed_plugins_declare_is_refused_naming_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Twin(Plugin):
        api_version = 2
        options = (Option("twin_rule", False, "a house rule"),)

    first, second = Twin(), Twin()
    first.name, second.name = "twin-a", "twin-b"  # type: ignore[misc]
    installed: dict[str, Any] = {**installed_plugins(), "twin-a": first, "twin-b": second}
    monkeypatch.setattr(unorules.spec, "installed_plugins", lambda: installed)
    with pytest.raises(RulesetError, match=r"several installed plugins \(twin-a, twin-b\)"):
        Ruleset.from_spec_text("classic twin_rule=on")
    with pytest.raises(RulesetError, match="no plugin of it has an option 'nobody_declares'"):
        Ruleset.from_spec_text("classic nobody_declares=on")


def test_the_command_line_option_keeps_its_old_spelling() -> None:
    from unorules.cli.common import build_ruleset, parse_options

    built = build_ruleset("classic", parse_options(["last_card_ban=wild", "forced_play=on"]))
    assert built.spec_text == "classic,last-card,turn-rules forced_play=on last_card_ban=wild"


def test_no_module_imports_another_plugins_module() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] in (
                    "unorules",
                    "unorules_house_rules",
                    "__future__",
                    "collections",
                    "typing",
                    "itertools",
                ), (path.name, node.module)


@pytest.mark.parametrize(
    ("base", "options"),
    [
        ("flip", {"last_card_ban": "action", "last_draw_card": "no-draw"}),
        ("flip", {"forced_play": True, "hand_limit": 14, "misplay_penalty": 1}),
        ("flip", {"uno_call": "playable", "false_uno_penalty": 2}),
        ("flip", {"double_score": True, "blocked_round": "draw"}),
        ("no-mercy", {"last_card_ban": "wild", "misplay_penalty": 1}),
        ("no-mercy", {"uno_call": "one-card", "double_score": True}),
    ],
)
def test_the_plugins_combine_with_the_editions_keeping_every_invariant(
    base: str, options: dict[str, Any]
) -> None:
    names = sorted({base, *(OWNERS[o] for o in options)})
    built = Ruleset.from_names(names, options)
    for seed in (1, 2):
        violation, _ = play_checked_game(built, 3, seed=seed, max_actions=300, eager=0.85)
        assert violation is None, violation.format() if violation else ""


def test_r_house_last_card_names_the_plugin_rule_and_option_under_the_new_spelling() -> None:
    state = rearranged(deal(HANDS, plugins=("last-card",), options={"last_card_ban": "wild"}), hands={1: "W"})
    error = refused(state, "1: play W R")
    assert error.rule == "R-HOUSE-LAST-CARD"
    assert "last_card_ban=wild" in str(error)


def test_r_house_misplay_is_listed_right_after_the_seats_plays() -> None:
    state = deal(HANDS, draw="Y9", plugins=("turn-rules",), options={"misplay_penalty": 1})
    state = rearranged(state, hands={1: "R1 G2 W"})
    acts = [str(a) for a in state.legal_actions(1)]
    plays = [a for a in acts if " play " in f" {a.split(': ')[1]} "]
    assert acts[: len(plays)] == plays
    assert acts.index("1: play G2") > acts.index("1: play W Y")  # the plays first, then the misplay
    assert acts[len(plays) :][0] == "1: draw"
    plain = rearranged(deal(HANDS, draw="Y9"), hands={1: "R1 G2 W"})
    assert [a for a in acts if a != "1: play G2"] == [str(a) for a in plain.legal_actions(1)]


def test_r_house_false_uno_a_false_call_costs_before_the_draw_under_the_new_spelling() -> None:
    state = deal(HANDS, draw="Y9 Y8 Y7", plugins=("uno-calls",), options={"false_uno_penalty": 2})
    state = rearranged(state, hands={1: "G1 G2"})
    state = play(state, "1: uno", "1: draw")
    (false,) = events(state, "false-uno")
    assert (false.seat, false.count) == (1, 2)
    assert hand(state, 1) == "G1 G2 Y9 Y8 Y7"


def test_r_house_double_score_under_the_new_spelling() -> None:
    state = deal(HANDS, plugins=("score-rules",), options={"double_score": True})
    state = rearranged(state, hands={1: "R7"})
    state = play(state, "1: play R7")
    single = play(rearranged(deal(HANDS), hands={1: "R7"}), "1: play R7")
    assert state.scores[1] == 2 * single.scores[1] > 0
    assert "1: draw" in legal(deal(HANDS, plugins=("score-rules",)), 1)

"""Every rule id, numbered point, option value and named interaction of the house
rules has a scenario test whose name says so (DEVELOPING.md, conventions)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from unorules import installed_plugins

ROOT = Path(__file__).resolve().parents[2]
HOUSE = {"stacking": "unorules-stacking", "seven-o": "unorules-seven-o", "jump-in": "unorules-jump-in"}

# Name fragments (snake case) that must appear in some test name.
EXPECTED = {
    "stacking": [
        *(f"r_stack_{point}_" for point in range(1, 6)),
        "r_stack_option_stack_mix_off",
        "r_stack_option_stack_mix_on",
        "r_stack_going_out_on_a_stacked_card",
        "r_stack_two_players",
    ],
    "seven-o": [
        "r_seven_o_a_zero",
        "r_seven_o_a_seven",
        "r_seven_o_uno",
        "r_seven_o_a_seven_or_zero_that_is_the_last",
    ],
    "jump-in": [
        "r_jump_1_",
        "r_jump_2_",
        "r_jump_option_identical",
        "r_jump_option_color_or_number",
        "r_jump_the_window_closes",
    ],
    "interactions": [
        "r_jump_r_stack_a_jump_in_on_a_stacked_draw_two",
        "r_jump_r_seven_o_a_seven_jumped_in",
        "r_stack_5_a_stacked_wild_draw_four_challenged",
        "r_seven_o_r_swap",
        "r_stack_r_jump_two_players",
    ],
}


def _test_names(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {
            n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")
        }
    return names


def _folder(name: str) -> Path:
    return (
        ROOT / "tests" / "interactions"
        if name == "interactions"
        else ROOT / "plugins" / HOUSE[name] / "tests"
    )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_rule_point_option_value_and_interaction_has_a_named_scenario(name: str) -> None:
    names = _test_names(_folder(name))
    missing = [part for part in EXPECTED[name] if not any(part in n for n in names)]
    assert not missing, f"no test of {name} is named after {missing}"


@pytest.mark.parametrize("name", sorted(HOUSE))
def test_every_rule_id_a_house_rule_declares_has_a_test(name: str) -> None:
    plugin = installed_plugins()[name]
    names = _test_names(_folder(name))
    for rule in plugin.rules:
        snake = rule.lower().replace("-", "_")
        assert any(f"test_{snake}" in n for n in names), f"no test of {name} is named after {rule}"

"""Every rule id the classic plugin implements has a scenario test named after it."""

from __future__ import annotations

import ast
from pathlib import Path

import unorules_classic

HERE = Path(__file__).parent


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in HERE.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {
            n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")
        }
    return names


def test_every_classic_rule_id_has_a_scenario_test() -> None:
    names = _test_names()
    rules = unorules_classic.plugin.rules
    # The rules reference's, and R-HOUSE-UNO-6 (a value of uno_penalty); its other house rules are
    # plugins since issue 42 (plugins/unorules-house-rules/tests).
    assert len(rules) == 24 + 1
    missing = [r for r in rules if not any(f"test_{r.lower().replace('-', '_')}_" in n for n in names)]
    assert missing == []


def test_every_classic_option_value_appears_in_a_scenario() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py"))
    for option in unorules_classic.plugin.options:
        assert option.name in text, option.name
        if isinstance(option.default, int) and not isinstance(option.default, bool):
            continue  # a number: its allowed text is no list of values
        for value in option.allowed.split(", "):
            if value not in ("a positive integer", "on", "off"):
                assert value in text, (option.name, value)
    assert 'challenge="off"' in text
    assert 'challenge="on"' in text or "challenge in (" in text

"""Budgets by name in the Python API, what ``pytest --unorules-conformance``
prints before it runs, and the message when hypothesis is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from unorules import UnorulesError
from unorules.testing import conformance
from unorules.testing.conformance import (
    BUDGETS,
    CI_BUDGET,
    DEFAULT_BUDGET,
    QUICK_BUDGET,
    UnknownBudgetError,
    resolve_budget,
    run_conformance,
)


def test_budgets_by_name() -> None:
    assert BUDGETS == {"default": DEFAULT_BUDGET, "ci": CI_BUDGET, "quick": QUICK_BUDGET}
    assert resolve_budget("quick") is QUICK_BUDGET
    assert resolve_budget(" CI ") is CI_BUDGET
    assert resolve_budget(DEFAULT_BUDGET) is DEFAULT_BUDGET


@pytest.mark.parametrize("bad", ["fast", "", 3, None])
def test_an_unknown_budget_name_is_refused_naming_the_known_ones(bad: object) -> None:
    with pytest.raises(UnknownBudgetError, match="'default', 'ci', 'quick'") as info:
        resolve_budget(bad)  # type: ignore[arg-type]
    assert isinstance(info.value, UnorulesError)
    assert isinstance(info.value, ValueError)


def test_check_conformance_takes_a_budget_name() -> None:
    report = conformance.check_conformance("draw-until-playable", budget="quick")
    assert report.ok
    # The quick budget: the plugin with classic, then beside each game mode.
    assert [line.split(":")[0] for line in report.checked] == [
        "classic+draw-until-playable",
        *(f"classic+draw-until-playable+{mode}" for mode in conformance.game_modes()),
    ]


def test_run_conformance_refuses_a_bad_budget_before_playing() -> None:
    with pytest.raises(UnknownBudgetError):
        run_conformance("classic", budget="everything")


def _pytest(where: Path, *args: str, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
def test_conformance_run_reports_its_items_as_collected(tmp_path: Path) -> None:
    result = _pytest(tmp_path, "--unorules-conformance", "classic", "--unorules-budget", "quick", "--co")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "collected 0 items" not in result.stdout
    # The quick budget: classic, then classic beside each game mode.
    assert f"{1 + len(conformance.game_modes())} tests collected" in result.stdout
    assert "conformance[classic][classic]" in result.stdout
    assert "conformance[classic][classic+elimination]" in result.stdout


@pytest.mark.slow
def test_without_hypothesis_the_conformance_option_says_what_to_install(tmp_path: Path) -> None:
    fake = tmp_path / "no-hypothesis"
    (fake / "hypothesis").mkdir(parents=True)
    (fake / "hypothesis" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'hypothesis'\", name='hypothesis')\n"
    )
    run = tmp_path / "run"
    run.mkdir()
    result = _pytest(run, "-p", "no:hypothesispytest", "--unorules-conformance", "classic", path=fake)
    assert result.returncode == 4, result.stdout + result.stderr  # pytest's usage error
    assert "install unorules[testing]" in result.stderr
    assert "Traceback" not in result.stderr

"""A smoke test of ``benchmarks/no_mercy.py`` (the figures against the published study): it runs
with tiny sizes and prints each of its four parts. Its figures are measured by running it, never
by a test."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "no_mercy.py"


def test_the_benchmark_runs_and_prints_its_four_parts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("no_mercy_benchmark", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out = tmp_path / "nm.json"
    argv = [
        "--games",
        "4",
        "--quiet-games",
        "2",
        "--reading-games",
        "2",
        "--duels",
        "4",
        "--no-mercy-games",
        "1",
        "--cap",
        "400",
    ]
    assert module.main([*argv, "--json", str(out)]) == 0
    text = capsys.readouterr().out
    for part in (
        "1. random play",
        "1b. random play",
        "2. other readings",
        "3. heads-up",
        "4. without the Mercy",
    ):
        assert part in text
    figures = json.loads(out.read_text())
    assert [row["players"] for row in figures["random"]] == [2, 3, 4, 5, 6]
    assert set(figures["head_to_head"]) == {"greedy", "heuristic"}
    assert figures["study"]["turns_2"] == 31.9

"""benchmarks/vector.py runs in CI in a tiny form and prints its table (its figures are
never a test: they come from a full run, see docs/rl.rst)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium", reason='the benchmark compares with unorules.rl: pip install "unorules[rl]"')

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def vector(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    monkeypatch.delitem(sys.modules, "vector", raising=False)
    import vector as module

    return module


def test_the_vector_benchmark_prints_each_contender_and_the_memory(
    vector: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--reps", "1", "--min-time", "0.05", "--players", "2", "3", "--batches", "1", "32"]
    assert vector.main(arguments) == 0
    out = capsys.readouterr().out
    for players in (2, 3):
        assert f"{players} players: random masked actions per CPU second (median of 1)" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("  vector ")]
    assert [row[1] for row in rows] == ["1", "32", "1", "32"]
    assert all(float(row[2].replace(",", "")) > 0 for row in rows)
    assert out.count("unorules raw_env") == 2
    assert "memory per game:" in out
    assert ("rlcard env" in out) != ("rlcard is not installed" in out)


def test_the_jax_table_compares_the_kernels_with_numpy(
    vector: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("jax", reason='the --jax table needs jax: pip install "unorules[jax]"')
    arguments = ["--reps", "1", "--min-time", "0.05", "--players", "2", "--batches", "16", "--jax"]
    assert vector.main(arguments) == 0
    out = capsys.readouterr().out
    assert "masks + observations per CPU second (median of 1):" in out
    (row,) = [line.split() for line in out.splitlines() if line.strip().startswith("16 ")]
    assert float(row[1].replace(",", "")) > 0
    assert float(row[2].replace(",", "")) > 0


def test_the_jitted_steps_table_compares_jax_with_numpy(
    vector: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("jax", reason='the --backend jax table needs jax: pip install "unorules[jax]"')
    arguments = ["--reps", "1", "--min-time", "0.05", "--players", "2", "--batches", "32", "--backend", "jax"]
    assert vector.main(arguments) == 0
    out = capsys.readouterr().out
    assert "the jitted step: random masked actions per CPU second (median of 1):" in out
    (row,) = [line.split() for line in out.splitlines() if line.strip().startswith("32 ") and "x" in line]
    assert float(row[1].replace(",", "")) > 0
    assert float(row[2].replace(",", "")) > 0
    assert row[4].endswith("s")

"""The toolkit benchmark's planted bugs are real: each hand-built proof
(``benchmarks/toolkit.py --prove``) fails with its planted bug and passes with
the correct plugin, and the bug that replaced the round ended twice (which
the core no longer lets a plugin do) is caught."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toolkit(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    monkeypatch.delitem(sys.modules, "toolkit", raising=False)
    import toolkit as module

    return module


def test_each_proof_fails_with_its_planted_bug_and_passes_with_the_correct_one(toolkit: ModuleType) -> None:
    assert set(toolkit.PROOFS) <= set(toolkit.PLANTED)
    for name in toolkit.PROOFS:
        correct, planted = toolkit.prove(name)
        assert correct is None, f"{name}: the correct plugin fails its proof: {correct}"
        assert planted is not None, f"{name}: the planted bug passes its proof"
        assert planted.startswith("ScenarioFailure"), f"{name}: {planted}"


def test_prove_prints_each_verdict(toolkit: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert toolkit.main(["--prove"]) == 0
    out = capsys.readouterr().out
    assert "dc-wrong-winner        real" in out
    assert f"{len(toolkit.PROOFS)} of {len(toolkit.PROOFS)} proofs show their planted bug" in out


def test_the_benchmark_still_plants_thirty_bugs_and_the_round_won_by_the_next_seat_is_caught(
    toolkit: ModuleType,
) -> None:
    assert len(toolkit.PLANTED) == 30
    assert "dc-round-twice" not in toolkit.PLANTED
    outcome = toolkit.run_one(
        "dc-wrong-winner", toolkit.NamesTheNextSeatTheWinner(), "quick", 0, None, fail_fast=True
    )
    assert outcome.invariant == "hands"

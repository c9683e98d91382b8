"""Every example script under examples/ runs to completion, unattended."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))


def test_the_examples_are_there() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {"game_loop", "bot_tournament", "custom_variant", "property_testing"} <= names


NEEDS = {
    "rl_vector_reinforce": ("torch", "pip install torch==2.13.0 (the CPU build)", "UNORULES_REQUIRE_TORCH")
}
"""Examples that need a package the test environment may lack: skipped without it, unless the
environment variable named beside it is 1 (``.ci/run`` installs the package and sets it)."""


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script: Path) -> None:
    if script.stem in NEEDS:
        module, how, required = NEEDS[script.stem]
        if os.environ.get(required) != "1":
            pytest.importorskip(module, reason=f"{script.name} needs {module}: {how}")
    # No standard input: the game-loop example must notice it has no terminal.
    done = subprocess.run(
        [sys.executable, str(script)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=script.parent,
        check=False,
    )
    assert done.returncode == 0, f"{script.name} failed:\n{done.stdout}\n{done.stderr}"
    assert done.stdout.strip(), f"{script.name} printed nothing"

"""``dev.py test``: the README's example runs only pytest on the files it names (issue 33, item 8).

``python3 dev.py test --quick tests/test_json.py`` used to run ruff, ruff format and mypy over the
whole project before two seconds of tests; with test files or folders among its arguments it now
runs pytest on them and nothing else. Without them (or with options only) every step runs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from dev_script import load_dev

ROOT = Path(__file__).resolve().parents[1]


_dev = load_dev


def _names(argv: list[str]) -> list[str]:
    return [step.name for step in _dev().selected_steps(argv)]


def test_test_files_run_only_pytest() -> None:
    for argv in (
        ["--quick", "tests/test_json.py"],
        ["tests/test_json.py", "tests/test_rng.py"],
        ["tests/classic"],
        ["--quick", "tests/test_json.py::test_a_state_round_trips", "-x"],
        [str(ROOT / "tests" / "test_json.py")],
    ):
        assert _names(argv) == ["pytest"], argv
    step = _dev().selected_steps(["--quick", "tests/test_json.py"])[0]
    assert isinstance(step.command, list)
    assert [str(a) for a in step.command[-3:]] == ["-m", "not slow", "tests/test_json.py"]


def test_without_test_files_every_step_runs() -> None:
    quick = _names(["--quick"])
    assert quick[:4] == ["ruff", "ruff-format", "mypy", "imports"]
    assert "pytest" in quick
    assert "sphinx" not in quick
    assert _names(["--quick", "-k", "json"]) == quick  # an option's value is not a file
    assert _names(["--quick", "tests/no_such_file.py"]) == quick  # nor is a missing path
    everything = _names([])
    assert {"sphinx", "packaging"} <= set(everything)


def _set_up() -> bool:
    dev = _dev()
    try:
        stamp = json.loads(dev.STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(stamp.get("hash") == dev.setup_hash() and stamp.get("dev"))


@pytest.mark.slow
def test_the_readmes_example_runs_the_file_and_nothing_else() -> None:
    if not _set_up():
        pytest.skip("the development set-up is not current (python3 dev.py setup): dev.py would install")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`python3 dev.py test --quick tests/test_json.py`" in readme
    done = subprocess.run(
        [sys.executable, "dev.py", "test", "--quick", "tests/test_rng.py", "-n", "0", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    steps = [line for line in done.stdout.splitlines() if line.startswith("[dev.py] step ")]
    assert steps == ["[dev.py] step pytest"], done.stdout[-3000:]
    assert "the named tests passed" in done.stdout


def test_test_after_demo_adds_only_the_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 46: the README's ``dev.py demo`` then ``dev.py test FILE`` reinstalled the core and every
    plugin that demo had just installed; now the second adds only the development tools, and demo
    says what it skipped."""
    dev = _dev()
    python = tmp_path / "python"
    python.write_text("", encoding="utf-8")
    monkeypatch.setattr(dev, "PY", python)
    monkeypatch.setattr(dev, "STAMP", tmp_path / "stamp.json")
    monkeypatch.setattr(dev, "VENV", tmp_path)
    installs: list[str] = []
    monkeypatch.setattr(dev, "_pip", lambda args, what: installs.append(what))
    said: list[str] = []
    monkeypatch.setattr(dev, "say", said.append)
    dev.setup(dev=False)  # demo's set-up
    assert [w.split(" (")[0].split(",")[0] for w in installs] == ["the build backend", "the core"]
    assert any("skipped the development tools" in s for s in said)
    installs.clear()
    dev.setup(dev=False)  # demo again: nothing
    assert installs == []
    dev.setup(dev=True)  # test's set-up after demo: only the tools
    assert installs == ["the development tools (requirements-dev.txt)"]
    installs.clear()
    dev.setup(dev=True)
    dev.setup(dev=False)
    assert installs == []
    assert json.loads((tmp_path / "stamp.json").read_text(encoding="utf-8"))["dev"] is True

"""``noxfile.find_python``: the other CPythons of the version matrix and of ``benchmarks/run.py``."""

from __future__ import annotations

import functools
import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@functools.cache  # once: nox refuses a session registered twice
def _noxfile() -> ModuleType:
    spec = importlib.util.spec_from_file_location("unorules_noxfile_under_test", ROOT / "noxfile.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(root: Path, name: str, version: str, runs: bool = True) -> Path:
    python = root / name / "bin" / f"python{version}"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\nexit 0\n" if runs else "#!/bin/sh\nexit 1\n")
    python.chmod(0o755)
    return python


def test_the_newest_pyenv_build_by_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nox = _noxfile()
    versions = tmp_path / "pyenv" / "versions"
    _build(versions, "3.42.9", "3.42")
    newest = _build(versions, "3.42.10", "3.42")
    _build(versions, "3.42-dev", "3.42")  # not a release: never chosen
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert nox.find_python("3.42") == str(newest)
    assert nox.find_python("3.43") is None


def test_a_python_on_path_that_fails_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nox = _noxfile()
    shim = _build(tmp_path, "shims", "3.42", runs=False)
    build = _build(tmp_path / "pyenv" / "versions", "3.42.1", "3.42")
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))
    monkeypatch.setenv("PATH", str(shim.parent))
    assert nox.find_python("3.42") == str(build)
    working = _build(tmp_path, "bin", "3.42")
    monkeypatch.setenv("PATH", f"{working.parent}{os.pathsep}{shim.parent}")
    assert nox.find_python("3.42") == str(working)

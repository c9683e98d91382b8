#!/usr/bin/env python3
"""Set up a virtual environment and run the project's jobs.

    python3 dev.py demo            # set up, then simulate games under three rule sets and compare them
    python3 dev.py test            # set up, then every check CI runs (lint, types, tests, docs, packaging)
    python3 dev.py test --quick    # set up, then the quick tier: lint, types, tests not marked slow
    python3 dev.py setup           # only set up (.venv with everything installed)

Needs only Python 3.11+ with pip and venv. Everything is installed into
``.venv`` next to this file: the core, every plugin under ``plugins/``, the
sample plugin under ``examples/``, and the tools in ``requirements-dev.txt``.
The installs are skipped when nothing they depend on changed since the last
set-up (a stamp in ``.venv`` holds a hash of every ``pyproject.toml`` and of
``requirements-dev.txt``); ``python3 dev.py setup --force`` reinstalls.
``demo`` installs the distributions without the tools and says so; a ``test``
or ``setup`` after it adds only the tools.

Arguments after ``test`` (or ``test --quick``) are passed on to pytest. When they
name test files or folders (``python3 dev.py test --quick tests/test_json.py``,
``tests/x.py::test_y``), only pytest runs, on them: lint, types, docs and
packaging are the whole-suite run's.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / "unorules-setup.json"
REQUIREMENTS = ROOT / "requirements-dev.txt"
DOCS_OUT = ROOT / "docs" / "_build" / "html"


def say(text: str) -> None:
    print(f"[dev.py] {text}", flush=True)


def run(*args: str | Path, check: bool = True) -> int:
    print("+", " ".join(str(a) for a in args), flush=True)
    return subprocess.run([str(a) for a in args], cwd=ROOT, check=check).returncode


def packages() -> list[Path]:
    """The core first, then every plugin distribution, then example plugins."""
    found = [ROOT]
    for parent in (ROOT / "plugins", ROOT / "examples"):
        if parent.is_dir():
            found += sorted(p for p in parent.iterdir() if (p / "pyproject.toml").is_file())
    return found


def typed_packages() -> list[str]:
    """``-p NAME`` for every package under a ``src/`` folder of the core, the
    plugins and the example plugins."""
    args: list[str] = []
    for package in packages():
        src = package / "src"
        if src.is_dir():
            for module in sorted(src.iterdir()):
                if (module / "__init__.py").is_file():
                    args += ["-p", module.name]
    return args


def typed_scripts() -> list[str]:
    """The example and benchmark scripts (mypy checks files apart from packages)."""
    return [
        str(s.relative_to(ROOT))
        for folder in ("examples", "benchmarks")
        for s in sorted((ROOT / folder).glob("*.py"))
    ]


def setup_hash() -> str:
    """A hash of everything the installs depend on: each distribution's
    ``pyproject.toml`` (by path) and ``requirements-dev.txt``. Sources are
    installed editable, so changing them needs no reinstall."""
    digest = hashlib.sha256(sys.version.encode())
    for path in [*(p / "pyproject.toml" for p in packages()), REQUIREMENTS]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _installed() -> str:
    """What the stamp says is installed and still up to date: ``"dev"`` (the distributions
    and the tools), ``"distributions"`` (the distributions only, as ``demo`` installs them) or
    ``""`` (nothing, or something it depends on changed)."""
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    if not PY.exists() or not isinstance(stamp, dict) or stamp.get("hash") != setup_hash():
        return ""
    return "dev" if stamp.get("dev") else "distributions"


def _pip(args: Sequence[str | Path], what: str) -> None:
    """Run ``pip install`` and print one line per package it collects, so a
    long first install shows it is moving."""
    command = [str(PY), "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off"]
    command += [str(a) for a in args]
    say(f"installing {what} ...")
    started = time.monotonic()
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True, bufsize=1) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            words = line.split()
            if line.startswith(("Collecting ", "Obtaining ")):
                print("    found", words[1].replace(f"file://{ROOT}", "."), flush=True)
            elif line.lstrip().startswith("Building editable for") and line.rstrip().endswith("started"):
                print("    building", words[3], flush=True)
            elif line.startswith("Successfully installed"):
                print(f"    installed {len(words) - 2} packages", flush=True)
    if proc.returncode:
        sys.exit(f"[dev.py] pip failed while installing {what} (exit {proc.returncode}): see above")
    say(f"installed {what} in {time.monotonic() - started:.0f} s")


def _requirement(name: str) -> str:
    """The pinned requirement ``name==X`` of ``requirements-dev.txt``."""
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        if line.split("==")[0].strip().lower() == name:
            return line.strip()
    raise SystemExit(f"[dev.py] requirements-dev.txt pins no {name}")


def setup(dev: bool, force: bool = False) -> None:
    """Create ``.venv`` and install the distributions (and, with ``dev``, the
    tools), unless the stamp says the same set-up is already there."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"unorules needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    installed = "" if force else _installed()
    if installed == "dev" or (installed and not dev):
        say(f"{VENV.name} is up to date (no pyproject.toml or requirements-dev.txt changed): no install")
        if not dev and installed != "dev":
            say("the development tools are not installed: 'dev.py test' adds only them")
        return
    started = time.monotonic()
    if installed:  # ``demo``'s set-up: the distributions are there, only the tools are missing
        say("the core and the plugins are installed and up to date: adding only the development tools")
        _pip(["-r", REQUIREMENTS], "the development tools (requirements-dev.txt)")
        STAMP.write_text(json.dumps({"hash": setup_hash(), "dev": True}), encoding="utf-8")
        say(f"set-up done in {time.monotonic() - started:.0f} s")
        return
    if not PY.exists():
        say(f"creating {VENV} (a first set-up takes a few minutes)")
        venv.EnvBuilder(with_pip=True).create(VENV)
    STAMP.unlink(missing_ok=True)
    distributions = packages()
    if dev:
        _pip(["-r", REQUIREMENTS], "the development tools (requirements-dev.txt)")
    else:
        _pip([_requirement("hatchling"), _requirement("editables")], "the build backend")
    # The build backend is installed, pinned: building the editable installs
    # without isolation saves a fresh build environment per distribution.
    editable: list[str | Path] = ["--no-build-isolation"]
    for package in distributions:
        editable += ["-e", package]
    plugins = sum(p.parent.name == "plugins" for p in distributions)
    examples = sum(p.parent.name == "examples" for p in distributions)
    _pip(editable, f"the core, {plugins} plugins and {examples} example plugin(s), editable")
    STAMP.write_text(json.dumps({"hash": setup_hash(), "dev": dev}), encoding="utf-8")
    say(f"set-up done in {time.monotonic() - started:.0f} s")
    if not dev:
        say("skipped the development tools (requirements-dev.txt): 'dev.py test' adds only them")


def demo(argv: list[str]) -> int:
    setup(dev=False)
    args = argv or [
        "simulate",
        "--games",
        "300",
        "--players",
        "4",
        "--seed",
        "1",
        "--bots",
        "heuristic",
        "--compare",
        "classic",
        "classic,stacking",
        "classic,seven-o,jump-in",
        "--head-to-head",
        "heuristic,random",
    ]
    return run(BIN / "unorules", *args, check=False)


def check_packaging() -> int:
    """Build the sdist and wheel of every distribution (without build
    isolation: the pinned hatchling of requirements-dev.txt) and ``twine check``
    them all. Returns 0 when all pass."""
    with tempfile.TemporaryDirectory(prefix="unorules-dist-") as out:
        for package in packages():
            done = subprocess.run(
                [str(PY), "-m", "build", "--no-isolation", "--outdir", out, str(package)],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            if done.returncode:
                print(done.stdout + done.stderr, flush=True)
                print(f"building {package.relative_to(ROOT)} failed (exit {done.returncode})", flush=True)
                return done.returncode
        built = sorted(str(p) for p in Path(out).iterdir())
        print(f"built {len(built)} files for {len(packages())} distributions", flush=True)
        return run(PY, "-m", "twine", "check", "--strict", *built, check=False)


@dataclass
class Step:
    """One check of ``dev.py test``: a command, or a function returning an exit code."""

    name: str
    command: Sequence[str | Path] | Callable[[], int]
    quick: bool = True  # also part of ``test --quick``

    def run(self) -> int:
        say(f"step {self.name}")
        if callable(self.command):
            return self.command()
        return run(*self.command, check=False)


PYTEST: list[str | Path] = [PY, "-m", "pytest", "-n", "auto", "-p", "no:cacheprovider", "--durations=25"]
"""pytest on every core; ``--durations``: the slowest tests, where the suite's time goes."""


def steps(pytest_args: list[str], quick: bool) -> list[Step]:
    """The checks, in order. Add a step here (``quick=False`` if it is slow)."""
    marker = ["-m", "not slow"] if quick else []
    return [
        Step("ruff", [PY, "-m", "ruff", "check", "."]),
        Step("ruff-format", [PY, "-m", "ruff", "format", "--check", "."]),
        Step("mypy", [PY, "-m", "mypy", *typed_packages()]),
        Step("imports", [BIN / "lint-imports", "--config", ROOT / ".importlinter"]),
        Step("mypy-scripts", [PY, "-m", "mypy", *typed_scripts()]),
        Step("pytest", [*PYTEST, *marker, *pytest_args]),
        Step(
            "sphinx",
            [PY, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs", DOCS_OUT],
            quick=False,
        ),
        Step("packaging", check_packaging, quick=False),
        # The version matrix: the tests of VERSION_TESTS against the lowest and newest attrs and pluggy.
        *(
            Step(
                f"deps-{bounds}",
                [PY, "-m", "nox", "-s", f"deps(bounds='{bounds}')", "--", *VERSION_TESTS],
                quick=False,
            )
            for bounds in ("lowest", "newest")
        ),
        # The core's tests and the golden digests on the other supported CPythons (noxfile.PYTHONS).
        *(
            Step(
                f"python-{version}",
                [PY, "-m", "nox", "-s", f"pythons-{version}", "--", *VERSION_TESTS, *PYTHON_TESTS],
                quick=False,
            )
            for version in OTHER_PYTHONS
        ),
    ]


VERSION_TESTS = [
    "-q",
    "-n",
    "2",
    "-p",
    "no:cacheprovider",
    "tests/test_hook_calls.py",
    "tests/test_canonical.py",
    "tests/test_plugin_api.py",
    "tests/test_plugin_loading.py",
    "tests/test_declarations.py",
    "tests/test_embedding.py",
    "tests/test_json.py",
    "tests/test_errors.py",
    "tests/test_record.py",
    "tests/classic",
]
"""The tests the version matrix (noxfile.py) runs against the lowest and the newest attrs and pluggy
the core supports: the hook layer, rule-set building and plugin loading, pickling and JSON (attrs),
errors, records and every classic rule. The whole suite runs against the versions dev.py installs."""


OTHER_PYTHONS = ("3.12", "3.13")
"""The CPythons besides 3.11 the core supports (``noxfile.PYTHONS``, pyproject's classifiers)."""
PYTHON_TESTS = ["-m", "not slow", "tests/test_golden.py"]
"""What the CPython matrix runs besides :data:`VERSION_TESTS`: the golden digests of the quick
tier: the same games on every CPython."""


def named_paths(pytest_args: Sequence[str]) -> list[str]:
    """The test files and folders among pytest's arguments: an argument that is
    not an option and names an existing path (``tests/test_json.py``, a folder,
    ``tests/test_json.py::test_x``), relative to this folder or absolute."""
    return [a for a in pytest_args if not a.startswith("-") and (ROOT / a.split("::")[0]).exists()]


def selected_steps(argv: Sequence[str]) -> list[Step]:
    """The steps ``dev.py test ARGV`` runs: all of them, the quick tier with
    ``--quick``, and only pytest when the arguments name test files or folders."""
    quick = "--quick" in argv
    pytest_args = [a for a in argv if a != "--quick"]
    chosen = [s for s in steps(pytest_args, quick) if s.quick or not quick]
    if named_paths(pytest_args):
        chosen = [s for s in chosen if s.name == "pytest"]
    return chosen


def test(argv: list[str]) -> int:
    quick = "--quick" in argv
    setup(dev=True)
    started = time.monotonic()
    failed = []
    chosen = selected_steps(argv)
    named = len(chosen) == 1 and chosen[0].name == "pytest"
    if named:
        say("test files named: only pytest runs, on them (lint, types and docs are the whole-suite run's)")
    for step in chosen:
        code = step.run()
        if code == 5 and step.name == "pytest":
            print("pytest collected no tests: that is a failure here", flush=True)
        if code != 0:
            failed.append(step.name)
    took = f"{time.monotonic() - started:.0f} s"
    if failed:
        say(f"FAILED steps: {', '.join(failed)} ({took})" + (" (CI)" if os.environ.get("CI") else ""))
        return 1
    tier = "the named tests" if named else "quick tier" if quick else "all checks"
    docs = "" if quick or named else f"; the docs are in {DOCS_OUT.relative_to(ROOT)}/"
    say(f"{tier} passed in {took}{docs}")
    return 0


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in ("demo", "test", "setup"):
        print(__doc__)
        return 2
    command, argv = sys.argv[1], sys.argv[2:]
    if command == "setup":
        setup(dev=True, force="--force" in argv)
        return 0
    return demo(argv) if command == "demo" else test(argv)


if __name__ == "__main__":
    sys.exit(main())

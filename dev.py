#!/usr/bin/env python3
"""Set up a virtual environment and run the project's jobs.

    python3 dev.py demo    # set up, then simulate games under three rule sets and compare them
    python3 dev.py test    # set up, then run lint, types, tests and the docs build
    python3 dev.py setup   # only set up (.venv with everything installed)

Needs only Python 3.11+ with pip and venv. Everything is installed into
``.venv`` next to this file: the core, every plugin under ``plugins/``, the
sample plugin under ``examples/``, and the tools in ``requirements-dev.txt``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


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
    """``-p NAME`` for every package under a ``src/`` folder of the core and the plugins."""
    args: list[str] = []
    for package in packages():
        src = package / "src"
        if package.parent.name != "examples" and src.is_dir():
            for module in sorted(src.iterdir()):
                if (module / "__init__.py").is_file():
                    args += ["-p", module.name]
    return args


def setup(dev: bool) -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"unorules needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PY.exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    pip = [PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    editable: list[str | Path] = []
    for package in packages():
        editable += ["-e", package]
    extras = ["-r", ROOT / "requirements-dev.txt"] if dev else []
    run(*pip, *editable, *extras)


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


def test(argv: list[str]) -> int:
    setup(dev=True)
    env_ci = os.environ.get("CI")
    steps: list[list[str | Path]] = [
        [PY, "-m", "ruff", "check", "."],
        [PY, "-m", "ruff", "format", "--check", "."],
        [PY, "-m", "mypy", *typed_packages()],
        [PY, "-m", "pytest", "-n", "auto", "-p", "no:cacheprovider", *argv],
        [PY, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs", "docs/_build/html"],
    ]
    failed = []
    for step in steps:
        code = run(*step, check=False)
        if code == 5 and step[2] == "pytest":
            print("pytest collected no tests: that is a failure here", flush=True)
        if code != 0:
            failed.append(str(step[2]))
    if failed:
        print(f"FAILED steps: {', '.join(failed)}" + (" (CI)" if env_ci else ""), flush=True)
        return 1
    print("all checks passed", flush=True)
    return 0


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in ("demo", "test", "setup"):
        print(__doc__)
        return 2
    command, argv = sys.argv[1], sys.argv[2:]
    if command == "setup":
        setup(dev=True)
        return 0
    return demo(argv) if command == "demo" else test(argv)


if __name__ == "__main__":
    sys.exit(main())

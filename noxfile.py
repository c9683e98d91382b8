"""The test suite against the lowest and the newest supported attrs and pluggy.

    .venv/bin/python -m nox                       # both sessions (each ~ the suite's time)
    .venv/bin/python -m nox -s "deps(bounds='lowest')"     # one of them
    .venv/bin/python -m nox -s "deps(bounds='newest')" -- tests/test_hook_calls.py   # pytest arguments

Each session is a fresh virtual environment with the core, every plugin and
example (editable), what those tests need (``.ci/requirements-versions.txt``,
at the versions ``.ci/tools-constraints.txt`` locks, as ``python3 dev.py
setup`` installs them), and attrs and pluggy at one end of
the ranges ``pyproject.toml`` declares: ``lowest`` pins the lower bounds,
``newest`` takes the newest release below the upper bounds.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
CONSTRAINTS = ".ci/tools-constraints.txt"
LOWEST = ("attrs==23.1.0", "pluggy==1.6.0")
NEWEST = ("attrs<27", "pluggy<2")

nox.options.default_venv_backend = "venv"
nox.options.error_on_missing_interpreters = True


def _distributions() -> list[str]:
    """The core, then every plugin and example folder with a pyproject.toml."""
    found = [str(p.parent) for p in sorted(ROOT.glob("plugins/*/pyproject.toml"))]
    found += [str(p.parent) for p in sorted(ROOT.glob("examples/*/pyproject.toml"))]
    return [str(ROOT), *found]


@nox.session(python=f"{sys.version_info.major}.{sys.version_info.minor}")
@nox.parametrize("bounds", ["lowest", "newest"])
def deps(session: nox.Session, bounds: str) -> None:
    """pytest with attrs and pluggy at the ``lowest`` or ``newest`` supported versions."""
    session.install("-c", CONSTRAINTS, "-r", ".ci/requirements-versions.txt")
    editable = [arg for path in _distributions() for arg in ("-e", path)]
    session.install("-c", CONSTRAINTS, *editable)
    if bounds == "lowest":
        session.install(*LOWEST)
    else:
        session.install("--upgrade", *NEWEST)
    session.run(
        "python",
        "-c",
        "import attrs, pluggy; print('attrs', attrs.__version__, 'pluggy', pluggy.__version__)",
    )
    args = session.posargs or ["-q", "-n", "2", "-p", "no:cacheprovider"]
    session.run("python", "-m", "pytest", *args, env={"HYPOTHESIS_PROFILE": "ci"})

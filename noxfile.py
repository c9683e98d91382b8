"""The test suite against the lowest and the newest supported attrs and pluggy, and on
every supported CPython.

    .venv/bin/python -m nox                       # every session (each ~ the suite's time)
    .venv/bin/python -m nox -s "deps(bounds='lowest')"     # one of them
    .venv/bin/python -m nox -s "deps(bounds='newest')" -- tests/test_hook_calls.py   # pytest arguments
    .venv/bin/python -m nox -s "pythons-3.13"     # the core's tests on CPython 3.13

Each session is a fresh virtual environment with the core, every plugin and
example (editable), what those tests need (``.ci/requirements-versions.txt``,
at the versions ``.ci/tools-constraints.txt`` locks, as ``python3 dev.py
setup`` installs them), and attrs and pluggy at one end of
the ranges ``pyproject.toml`` declares: ``lowest`` pins the lower bounds,
``newest`` takes the newest release below the upper bounds.

``pythons`` is the same environment with the newest attrs and pluggy on each
CPython the core supports besides the one running nox (:data:`PYTHONS`, as
``pyproject.toml``'s classifiers declare them): an interpreter missing from
``PATH`` is an error, not a skip (``pyenv`` provides them here).
"""

from __future__ import annotations

import os
import shutil
import subprocess
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


PYTHONS = ("3.11", "3.12", "3.13")
"""The CPython versions the core supports (``requires-python`` and the classifiers)."""
HERE = f"{sys.version_info.major}.{sys.version_info.minor}"


def find_python(version: str) -> str | None:
    """An interpreter of CPython ``version`` (``"3.12"``) that runs: ``pythonX.Y`` on
    ``PATH`` unless it fails (a pyenv shim of a version not selected), else the newest
    pyenv build of that version, else ``None``. ``benchmarks/run.py`` uses it too."""
    found = shutil.which(f"python{version}")
    if found is not None and subprocess.run([found, "-c", ""], capture_output=True).returncode == 0:
        return found
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    builds = [
        (tuple(int(part) for part in build.parent.parent.name.split(".")), build)
        for build in root.glob(f"{version}.*/bin/python{version}")
        if build.parent.parent.name.replace(".", "").isdigit()
    ]
    return str(max(builds)[1]) if builds else None


def _find_pythons() -> None:
    """Put each of :data:`PYTHONS` on ``PATH`` for nox (see :func:`find_python`)."""
    for version in PYTHONS:
        found = find_python(version)
        if found is not None and shutil.which(f"python{version}") != found:
            os.environ["PATH"] = f"{Path(found).parent}{os.pathsep}{os.environ['PATH']}"


_find_pythons()


def _install(session: nox.Session, bounds: str) -> None:
    """The test tools, every distribution (editable) and attrs and pluggy at ``bounds``."""
    session.install("-c", CONSTRAINTS, "-r", ".ci/requirements-versions.txt")
    editable = [arg for path in _distributions() for arg in ("-e", path)]
    session.install("-c", CONSTRAINTS, *editable)
    if bounds == "lowest":
        session.install(*LOWEST)
    else:
        session.install("--upgrade", *NEWEST)


@nox.session(python=HERE)
@nox.parametrize("bounds", ["lowest", "newest"])
def deps(session: nox.Session, bounds: str) -> None:
    """pytest with attrs and pluggy at the ``lowest`` or ``newest`` supported versions."""
    _install(session, bounds)
    _pytest(session)


@nox.session(python=[v for v in PYTHONS if v != HERE])
def pythons(session: nox.Session) -> None:
    """pytest on another supported CPython, with the newest attrs and pluggy."""
    _install(session, "newest")
    _pytest(session)


def _pytest(session: nox.Session) -> None:
    session.run(
        "python",
        "-c",
        "import sys, attrs, pluggy; "
        "print(sys.version.split()[0], 'attrs', attrs.__version__, 'pluggy', pluggy.__version__)",
    )
    args = session.posargs or ["-q", "-n", "2", "-p", "no:cacheprovider"]
    session.run("python", "-m", "pytest", *args, env={"HYPOTHESIS_PROFILE": "ci"})

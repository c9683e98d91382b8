"""No plugin and no outer module of the core reaches into the core's internals.

The engine keeps a state's fields in its ``__dict__`` (a state is a frozen
attrs class without slots, copied as one dict) and a draft's in the same
dict, frozen in place; only ``unorules.state`` and ``unorules.draft`` (with
``unorules._declared``, their declarations, and ``unorules._mypyc``) know
that. Plugins write the game through the draft's mechanics, and the outer
layers (records, simulation, bots, the testing toolkit, the command line,
the RL environments, the server) use the public API: a scan of their sources
fails on ``__dict__``, ``vars(...)`` of a core class, and the private names
of the core. The import layers themselves are import-linter's contract
(``.importlinter``), checked here too.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "unorules"

OUTER = ["record.py", "sim.py", "bots.py", "testing", "cli", "rl", "serve", "vector"]
"""The modules above the engine, relative to ``src/unorules`` (new outer modules join by the glob below)."""

CORE = {
    "__init__.py",
    "__main__.py",
    "_declared.py",
    "_hookcall.py",
    "_mypyc.py",
    "actions.py",
    "cards.py",
    "codec.py",
    "discovery.py",
    "draft.py",
    "errors.py",
    "hookspecs.py",
    "markers.py",
    "plugin.py",
    "rng.py",
    "ruleset.py",
    "spec.py",
    "state.py",
    "validate.py",
}

FORBIDDEN = {
    "a state's or draft's __dict__": re.compile(r"__dict__"),
    "vars() of a core class": re.compile(r"vars\((?:GameState|Draft|SeatView|Ruleset)\)"),
    "the cache of legal actions": re.compile(r"\._legal\b"),
    "a private name of a rule set, state or draft": re.compile(
        r"\b(?:ruleset|rules|state|draft|before|previous|view)\._[a-z]\w*"
    ),
    "a private name of a core module": re.compile(
        r"from unorules\.(?:ruleset|state|draft|_hookcall|codec|spec|discovery) import [^\n]*\b_[a-z]"
    ),
    "the core's hook callers module": re.compile(r"unorules\._hookcall"),
}


def _sources() -> list[Path]:
    found = sorted(ROOT.glob("plugins/*/src/**/*.py")) + sorted(ROOT.glob("examples/*/src/**/*.py"))
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC)
        if relative.parts[0] not in CORE:
            found.append(path)
    return found


def test_every_outer_module_is_scanned() -> None:
    scanned = {p.relative_to(SRC).parts[0] for p in _sources() if SRC in p.parents}
    assert set(OUTER) <= scanned
    assert len([p for p in _sources() if "plugins" in p.parts]) >= 11


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_plugin_or_outer_module_reaches_into_the_core(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    problems = []
    for what, pattern in FORBIDDEN.items():
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{path.relative_to(ROOT)}:{line}: {what} ({match.group(0)!r})")
    assert not problems, "\n".join(problems)


def test_the_scan_catches_what_it_is_for() -> None:
    samples = {
        "fields = state.__dict__": "a state's or draft's __dict__",
        "vars(GameState)['__dict__']": "vars() of a core class",
        "state._legal = None": "the cache of legal actions",
        "rules._points[card]": "a private name of a rule set, state or draft",
        "from unorules.state import _new": "a private name of a core module",
    }
    for text, what in samples.items():
        assert FORBIDDEN[what].search(text), text


def test_the_layers_contract_is_kept() -> None:
    linter = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if linter is None:
        pytest.skip("import-linter is not installed: python3 dev.py setup installs it")
    done = subprocess.run(
        [linter, "--config", str(ROOT / ".importlinter")], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # the core's layers, nothing importing unorules.vector, the testing toolkit's layers
    assert "3 kept, 0 broken" in done.stdout


# The function-level imports of the toolkit's modules allowed, by module: those of an
# optional dependency (hypothesis and the state machine that needs it) and the lazy
# names of the package (its __init__ must stay cheap to import).
LOCAL_IMPORTS = {
    "conformance.py": {
        "hypothesis",
        "hypothesis.reporting",
        "hypothesis.stateful",
        "unorules.testing.machine",
    },
    "embedding.py": {"cloudpickle"},
}


def test_the_toolkit_imports_its_own_modules_at_module_level() -> None:
    """No import circle dodged inside a function in unorules.testing (issue 42, item 7)."""
    import ast

    problems = []
    for path in sorted((SRC / "testing").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed = LOCAL_IMPORTS.get(path.name, set())
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom):
                    names = {inner.module or ""}
                elif isinstance(inner, ast.Import):
                    names = {alias.name for alias in inner.names}
                else:
                    continue
                problems += [f"{path.name}:{inner.lineno}: {name}" for name in sorted(names - allowed)]
    assert not problems, "function-level imports:\n" + "\n".join(problems)

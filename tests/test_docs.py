"""The documentation keeps up with the code (in the manner of datasette's
test_docs.py): every hook is documented and exercised by a test, every
shipped plugin gets a page, every command-line option is described."""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import re
import tomllib
from pathlib import Path

import pytest

import unorules
from unorules import hookspecs
from unorules.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HOOKS = sorted(n for n, f in vars(hookspecs).items() if callable(f) and hasattr(f, "unorules_spec"))


def _docs_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.rst"))


def test_there_are_hooks() -> None:
    assert {"legal_actions", "apply_action", "on_play", "deck_cards"} <= set(HOOKS)


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_has_a_docstring(hook: str) -> None:
    doc = inspect.getdoc(getattr(hookspecs, hook))
    assert doc, f"hook {hook} has no docstring in unorules/hookspecs.py"
    assert len(doc.split()) >= 8, f"hook {hook}'s docstring is too short to state its contract"


def test_every_hook_appears_in_the_docs() -> None:
    documented = set(
        re.findall(r"autofunction:: unorules\.hookspecs\.(\w+)", (DOCS / "hooks.rst").read_text())
    )
    missing = [h for h in HOOKS if h not in documented]
    assert not missing, f"hooks missing from docs/hooks.rst: {', '.join(missing)}"
    unknown = sorted(documented - set(HOOKS))
    assert not unknown, f"docs/hooks.rst documents hooks that do not exist: {', '.join(unknown)}"


def test_every_hook_is_exercised_by_a_test() -> None:
    here = Path(__file__).resolve()
    files = [*ROOT.glob("tests/**/*.py"), *ROOT.glob("plugins/*/tests/**/*.py")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in files if p.resolve() != here)
    missing = [h for h in HOOKS if not re.search(rf"\b{h}\b", text)]
    assert not missing, (
        "hooks that no test under tests/ or plugins/*/tests names (write a test that exercises them): "
        + ", ".join(missing)
    )


def _extension():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "unorules_plugins_ext", DOCS / "_ext" / "unorules_plugins.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _shipped_names() -> list[str]:
    """The plugins the distributions under plugins/ ship: their ``unorules`` entry points
    (a distribution may ship several, as unorules-house-rules does)."""
    names: list[str] = []
    for path in ROOT.glob("plugins/*/pyproject.toml"):
        project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
        names += project["entry-points"]["unorules"]
    return sorted(names)


def test_every_shipped_plugin_gets_a_page_and_nothing_else_does(tmp_path: Path) -> None:
    ext = _extension()
    names = ext.generate(tmp_path)
    assert names == _shipped_names()
    assert "draw-until-playable" in unorules.installed_plugins()  # installed, yet not a shipped plugin
    assert sorted(p.stem for p in (tmp_path / "plugins").glob("*.rst")) == sorted([*names, "events", "index"])
    index = (tmp_path / "plugins" / "index.rst").read_text()
    installed = unorules.installed_plugins()
    for name in names:
        plugin = installed[name]
        page = (tmp_path / "plugins" / f"{name}.rst").read_text()
        assert f".. _plugin-{name}:" in page
        assert f":plugin-{name}" not in index or f"<plugin-{name}>" in index
        for option in getattr(plugin, "options", ()):
            assert f"``{option.name}``" in page, f"option {option.name} missing from the {name} page"
        for rule in getattr(plugin, "rules", ()):
            assert f"``{rule}``" in page
        for other in getattr(plugin, "conflicts", {}):
            assert f"``{other}``" in page
        assert ext.plugin_doc(plugin).splitlines()[0] in page, f"the {name} page lacks its module docstring"


def test_the_plugin_pages_follow_what_is_installed(tmp_path: Path) -> None:
    ext = _extension()
    stale = tmp_path / "plugins"
    stale.mkdir()
    (stale / "uninstalled.rst").write_text("old page")
    ext.generate(tmp_path)
    assert not (stale / "uninstalled.rst").exists()


def test_a_classic_page_shows_options_and_hooks() -> None:
    page = _extension().plugin_page("classic", unorules.installed_plugins()["classic"])
    assert "   * - ``uno_penalty``\n     - ``2``\n     - 2, 4" in page
    assert ":func:`~unorules.hookspecs.legal_actions`" in page


def _options(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += [(name, o) for _, o in _options(sub)]
        else:
            found += [("", o) for o in action.option_strings if o.startswith("--") and o != "--help"]
    return found


def test_every_command_line_option_is_documented() -> None:
    text = (DOCS / "cli.rst").read_text()
    parser = build_parser()
    missing = [f"{cmd} {opt}".strip() for cmd, opt in _options(parser) if f"``{opt}" not in text]
    assert not missing, f"options missing from docs/cli.rst: {', '.join(missing)}"
    for command in ("play", "simulate", "rules"):
        assert f"``unorules {command}``" in text


def test_exit_codes_are_documented() -> None:
    text = (DOCS / "cli.rst").read_text()
    for code in ("0", "1", "2", "130"):
        assert re.search(rf"^{code}\s{{2,}}\S", text, re.M), f"exit status {code} is not in docs/cli.rst"


def test_the_toctree_reaches_every_page() -> None:
    index = (DOCS / "index.rst").read_text()
    for page in DOCS.glob("*.rst"):
        if page.stem != "index":
            assert f"\n   {page.stem}\n" in index, f"docs/{page.name} is in no toctree of docs/index.rst"
    assert "\n   plugins/index\n" in index
    assert "testing-plugins" in index


def test_doctests_of_the_docs_are_collected() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    assert "--doctest-glob=*.rst" in text
    assert '"docs"' in text
    assert ">>> " in _docs_text()

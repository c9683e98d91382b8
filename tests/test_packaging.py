"""Packaging: every distribution's metadata, licence and readme, and the
sample plugin built into a real wheel, installed into a fresh virtual
environment and played there by name.

``python3 dev.py test`` also builds the sdist and wheel of all 20
distributions and runs ``twine check`` on them (its ``packaging`` step).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import sysconfig
import textwrap
import tomllib
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest

import unorules

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = sorted(p for p in (ROOT / "plugins").iterdir() if (p / "pyproject.toml").is_file())
EXAMPLE = ROOT / "examples" / "unorules-draw-until-playable"
DISTRIBUTIONS = [ROOT, *PLUGINS, EXAMPLE]
CORE_SERIES = "0.2"
"""The core's version series: a plugin of version 0.N works with a core of 0.N (CHANGELOG.md)."""
CORE_RANGE = "unorules>=0.2,<0.3"
CLASSIC_RANGE = "unorules-classic>=0.2,<0.3"


def _project(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads((path / "pyproject.toml").read_text(encoding="utf-8"))
    return data


def test_twenty_distributions() -> None:
    # the core, eighteen plugin distributions (keep-drawing, deflect, multi-play and last-loses since
    # issue 35; then the editions flip and no-mercy; then house-rules, classic's former options, with
    # four plugins: issue 42), the sample
    assert len(DISTRIBUTIONS) == 20
    names = {path.name for path in DISTRIBUTIONS}
    assert {"unorules-flip", "unorules-no-mercy", "unorules-house-rules"} <= names
    entry_points = _project(ROOT / "plugins" / "unorules-house-rules")["project"]["entry-points"]["unorules"]
    assert set(entry_points) == {"last-card", "turn-rules", "uno-calls", "score-rules"}


@pytest.mark.parametrize("path", DISTRIBUTIONS, ids=lambda p: p.name)
def test_every_distribution_has_licence_readme_and_metadata(path: Path) -> None:
    project = _project(path)["project"]
    assert (path / "LICENSE").read_text(encoding="utf-8") == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert project["readme"] == "README.md"
    assert (path / "README.md").is_file()
    assert project["authors"] == [{"name": "unorules developers"}]
    assert len(project["keywords"]) >= 4
    classifiers = project["classifiers"]
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert any(c.startswith("Development Status ::") for c in classifiers)


def test_licence_is_mit_2026() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 unorules developers" in text


def test_the_core_version_is_written_once() -> None:
    project = _project(ROOT)
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/unorules/__init__.py"
    assert unorules.__version__.startswith(f"{CORE_SERIES}.")


@pytest.mark.parametrize("path", [*PLUGINS, EXAMPLE], ids=lambda p: p.name)
def test_plugins_depend_on_a_compatible_core_range(path: Path) -> None:
    project = _project(path)["project"]
    deps = project["dependencies"]
    assert CORE_RANGE in deps
    names = list(project["entry-points"]["unorules"])  # one plugin, or a few (house-rules: four)
    plugins = [unorules.installed_plugins()[name] for name in names]
    assert any("classic" in plugin.requires for plugin in plugins) == (CLASSIC_RANGE in deps)
    for plugin in plugins:
        for required in plugin.requires:
            assert any(d.startswith(f"unorules-{required}>=") for d in deps), required
    assert all("<" in d for d in deps if d.startswith("unorules"))
    major_minor = ".".join(unorules.__version__.split(".")[:2])
    assert f">={major_minor}," in CORE_RANGE


def test_changelog_names_the_current_version() -> None:
    assert f"## {unorules.__version__}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def _build_wheel(source: Path, out: Path) -> Path:
    before = set(out.glob("*.whl"))
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = set(out.glob("*.whl")) - before
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names) == (source / "LICENSE").is_file()
    return wheel


@pytest.fixture(scope="module")
def core_wheels(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Wheels of the core and of classic, built from this checkout."""
    if importlib.util.find_spec("build") is None or importlib.util.find_spec("hatchling") is None:
        pytest.skip("needs build and hatchling: python3 dev.py setup installs requirements-dev.txt")
    out = tmp_path_factory.mktemp("wheels")
    return [_build_wheel(path, out) for path in (ROOT, ROOT / "plugins" / "unorules-classic")]


def _fresh_venv(where: Path, wheels: list[Path]) -> Path:
    """A new venv without pip holding ``wheels`` (installed offline by this
    venv's pip, without dependencies) and the core's two dependencies (attrs,
    pluggy), taken from this venv through a folder that holds nothing else, so
    no editable install of this checkout is visible there. Returns its python."""
    env = where / "venv"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / ("Scripts" if sys.platform == "win32" else "bin") / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", "--no-deps", "-q"]
        + [str(w) for w in wheels],
        check=True,
        capture_output=True,
    )
    here = Path(sysconfig.get_paths()["purelib"])
    deps = where / "deps"
    deps.mkdir()
    for entry in here.iterdir():
        if entry.name.split("-")[0].lower() in {"attr", "attrs", "pluggy"}:
            (deps / entry.name).symlink_to(entry)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "deps.pth").write_text(f"{deps}\n", encoding="utf-8")
    return python


def _run(python: Path, script: str, cwd: Path) -> str:
    result = subprocess.run(
        [str(python), "-I", "-c", textwrap.dedent(script)], capture_output=True, text=True, cwd=cwd
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.slow
def test_sample_plugin_builds_installs_into_a_fresh_venv_and_plays_by_name(
    tmp_path: Path, core_wheels: list[Path]
) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    python = _fresh_venv(tmp_path, [*core_wheels, _build_wheel(EXAMPLE, wheels)])
    out = _run(
        python,
        """
        import random, unorules
        assert "/site-packages/" in unorules.__file__.replace("\\\\", "/"), unorules.__file__
        assert sorted(unorules.installed_plugins()) == ["classic", "draw-until-playable"]
        rules = unorules.Ruleset.from_names(["classic", "draw-until-playable"], options={"draw_limit": 3})
        state = rules.new_game(players=3, seed=5)
        rng = random.Random(5)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
        print(state.winner, unorules.__version__)
        """,
        tmp_path,
    )
    winner, version = out.split()
    assert winner in {"0", "1", "2"}
    assert version == unorules.__version__


def captioned_blocks(page: Path) -> dict[str, str]:
    """The code blocks of a reStructuredText page that have a ``:caption:``, by caption."""
    blocks: dict[str, str] = {}
    lines = page.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith(".. code-block::") and lines[i + 1].strip().startswith(":caption:"):
            caption = lines[i + 1].split(":caption:", 1)[1].strip()
            body: list[str] = []
            for text in lines[i + 3 :]:
                if text and not text.startswith("   "):
                    break
                body.append(text[3:])
            blocks[caption] = "\n".join(body).strip() + "\n"
    return blocks


@pytest.mark.slow
def test_the_writing_plugins_page_distribution_builds_installs_and_plays(
    tmp_path: Path, core_wheels: list[Path]
) -> None:
    """The pyproject.toml and module shown on docs/writing-plugins.rst, as
    written there, make a distribution that installs and plays by name."""
    blocks = captioned_blocks(ROOT / "docs" / "writing-plugins.rst")
    source = tmp_path / "unorules-zero-skips"
    package = source / "src" / "unorules_zero_skips"
    package.mkdir(parents=True)
    (source / "pyproject.toml").write_text(blocks["pyproject.toml"], encoding="utf-8")
    (package / "__init__.py").write_text(blocks["src/unorules_zero_skips/__init__.py"], encoding="utf-8")
    (package / "py.typed").write_text("", encoding="utf-8")
    project = tomllib.loads(blocks["pyproject.toml"])
    assert "build-system" in project
    assert CORE_RANGE in project["project"]["dependencies"]
    assert CLASSIC_RANGE in project["project"]["dependencies"]
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    python = _fresh_venv(tmp_path, [*core_wheels, _build_wheel(source, wheels)])
    out = _run(
        python,
        """
        import unorules
        from unorules.testing import arrange_deck
        from unorules_zero_skips import ZeroSkips, plugin
        assert isinstance(plugin, ZeroSkips)
        assert sorted(unorules.installed_plugins()) == ["classic", "zero-skips"]
        rules = unorules.Ruleset.from_names(["classic", "zero-skips"])
        hands = ["R0 R1 R2 R3 R4 R5 R6", "G1 G2 G3 G4 G5 G6 G7", "B1 B2 B3 B4 B5 B6 B7"]
        state = rules.new_game(players=3, deck=arrange_deck(hands, "R9", dealer=2), dealer=2)
        print(state.apply("0: play R0").current_player, state.apply("0: play R1").current_player)
        """,
        tmp_path,
    )
    assert out.split() == ["2", "1"]

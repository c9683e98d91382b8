"""The documentation builds the same in every environment: a third-party
plugin installed next to the shipped ones (here a broken one, faked by a
distribution's metadata on ``sys.path``) neither gets a page nor breaks
``sphinx -W``; the shipped plugins each get theirs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

BROKEN_MODULE = '''\
"""A third-party plugin with a docstring that is not valid reStructuredText.

Title
=====

`unclosed literal and a :ref:`missing-label` and {bad_rule}

.. no-such-directive::
"""

from unorules import Option, Plugin


class BrokenDocs(Plugin):
    """Broken on purpose."""

    name = "broken-docs"
    summary = "*unclosed emphasis"
    requires = ("classic",)
    options = (Option("broken_option", 1, "`bad {bad_rule}", int, "`also bad"),)


plugin = BrokenDocs()
'''


def _fake_distribution(where: Path) -> None:
    """A distribution ``broken-docs`` with two ``unorules`` entry points: the
    plugin above and one whose module cannot even be imported."""
    bad_rule = "R-" + "NOT-A-RULE"  # an id the rules reference does not define
    (where / "broken_docs_plugin.py").write_text(
        BROKEN_MODULE.replace("{bad_rule}", bad_rule), encoding="utf-8"
    )
    (where / "crashing_plugin.py").write_text("raise RuntimeError('crashes on import')\n", encoding="utf-8")
    info = where / "broken_docs-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: broken-docs\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[unorules]\nbroken-docs = broken_docs_plugin:plugin\ncrashing = crashing_plugin:plugin\n",
        encoding="utf-8",
    )


@pytest.mark.slow
def test_docs_build_with_w_beside_a_broken_third_party_plugin(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _fake_distribution(site)
    # A copy of the docs (the build writes the generated plugin pages into its
    # source folder), with the folders the pages include from beside it.
    docs = tmp_path / "repo" / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("_build", "*.rst.orig"))
    for folder in ("examples", "plugins", "src", "tests"):
        (tmp_path / "repo" / folder).symlink_to(ROOT / folder)
    for page in (docs / "plugins").glob("*.rst"):
        page.unlink()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import unorules.ruleset as r, importlib.metadata as m; "
            "print(sorted(e.name for e in m.entry_points(group=r.ENTRY_POINT_GROUP)))",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "broken-docs" in check.stdout  # the fake plugin is visible to the build
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(docs),
            str(tmp_path / "html"),
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, textwrap.shorten(result.stderr, 3000)
    pages = sorted(p.stem for p in (docs / "plugins").glob("*.rst"))
    shipped = sorted(  # the plugins each distribution under plugins/ ships (entry points)
        name
        for path in ROOT.glob("plugins/*/pyproject.toml")
        for name in tomllib.loads(path.read_text(encoding="utf-8"))["project"]["entry-points"]["unorules"]
    )
    assert pages == sorted([*shipped, "events", "index"])
    index = (docs / "plugins" / "index.rst").read_text(encoding="utf-8")
    assert "broken-docs" not in index
    assert "draw-until-playable" not in index
    html = (tmp_path / "html" / "plugins" / "classic.html").read_text(encoding="utf-8")
    assert 'href="../rules.html#rule-r-turn-match"' in html

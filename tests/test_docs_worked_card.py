"""Issue 46: the worked card page (docs/worked-card.rst) runs as a doctest with the other pages;
its package's ``pyproject.toml`` is checked here: valid TOML whose entry point names the plugin
object by the plugin's name, as the rule set requires."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "worked-card.rst"


def test_the_pages_pyproject_is_a_package_of_the_plugin() -> None:
    text = PAGE.read_text(encoding="utf-8")
    block = re.search(r"\.\. code-block:: toml\n   :caption: pyproject.toml\n\n((?:   .*\n|\n)+)", text)
    assert block is not None
    data = tomllib.loads("\n".join(line[3:] for line in block.group(1).splitlines()))
    project = data["project"]
    assert project["name"] == "unorules-hot-potato"
    assert project["entry-points"]["unorules"] == {"hot-potato": "unorules_hot_potato:plugin"}
    assert any(d.startswith("unorules-classic") for d in project["dependencies"])  # it requires classic
    assert data["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["src/unorules_hot_potato"]
    assert 'name = "hot-potato"' in text  # the plugin's name is the entry point's

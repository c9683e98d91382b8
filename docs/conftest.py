"""pytest: doctest the hand-written pages (``--doctest-glob``), not the
generated plugin pages or the build output."""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem

collect_ignore_glob = ["plugins/*", "_build/*", "_ext/*", "conf.py"]


@pytest.fixture(autouse=True)
def _in_the_docs_folder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page's examples run in the docs folder, so the files a page shows
    (``our-family.toml``) open by name, as they would for a reader."""
    if isinstance(request.node, DoctestItem):
        monkeypatch.chdir(Path(__file__).resolve().parent)

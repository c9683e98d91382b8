"""Sphinx configuration for the unorules documentation.

Build with ``.venv/bin/python -m sphinx -W --keep-going -b html docs docs/_build/html``.
The plugin pages under ``plugins/`` are generated at every build from the
installed plugins by the local extension ``_ext/unorules_plugins.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

import unorules

project = "unorules"
author = "unorules developers"
copyright = "unorules developers"
release = version = unorules.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "unorules_plugins",
    "unorules_rules",
    "unorules_interactions",
]

exclude_patterns = ["_build", "conftest.py", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
html_theme = "furo"
html_title = f"unorules {release}"
html_static_path: list[str] = []

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
default_role = "code"

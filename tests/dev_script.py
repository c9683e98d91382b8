"""``dev.py`` loaded as a module, for the tests of its steps and of the compiled build."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_dev() -> ModuleType:
    """The checkout's ``dev.py``, run as the module ``unorules_dev_script``."""
    spec = importlib.util.spec_from_file_location("unorules_dev_script", ROOT / "dev.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module

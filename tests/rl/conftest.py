"""Shared helpers of the unorules.rl tests; the RL tests marked ``slow`` (minutes of training)
run only with UNORULES_SLOW=1. Slow tests elsewhere are not this file's business: they run in
the full ``python3 dev.py test`` and are left out by ``--quick``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason='unorules.rl needs numpy: pip install "unorules[rl]"')
pytest.importorskip("gymnasium", reason='unorules.rl needs gymnasium: pip install "unorules[rl]"')
pytest.importorskip("pettingzoo", reason='unorules.rl needs pettingzoo: pip install "unorules[rl]"')


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: minutes of CPU; run with UNORULES_SLOW=1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("UNORULES_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set UNORULES_SLOW=1 to run it")
    here = Path(__file__).parent
    for item in items:
        if "slow" in item.keywords and item.path.is_relative_to(here):
            item.add_marker(skip)

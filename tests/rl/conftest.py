"""Shared helpers of the unorules.rl tests; tests marked ``slow`` run only with UNORULES_SLOW=1."""

from __future__ import annotations

import os

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
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)

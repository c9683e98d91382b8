"""Shared pytest set-up: hypothesis profiles, the ``slow`` marker.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) bounds every property test so
the whole suite fits the CI budget; ``dev`` (the default) is the same size
but prints statistics on failure; ``thorough`` is for long local runs.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    max_examples=25,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# The broad matrices and the tests that start processes are marked ``slow``:
# ``python3 dev.py test --quick`` (``pytest -m "not slow"``) leaves them out,
# the full ``python3 dev.py test`` (what CI runs) keeps them. Mark a test of
# your own with ``@pytest.mark.slow``, or a whole module by adding it here.
SLOW_MODULES = frozenset(
    {
        "test_all_combinations.py",
        "test_modes_with_house_rules.py",
        "test_modes_state_machine.py",
        "test_jump_in_smoke.py",
        "test_toolkit_pytest_plugin.py",
        "test_toolkit_machine.py",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)

"""Plugins fail alone: a plugin that cannot be loaded is named when asked for
and skipped (with a warning) when the installed plugins are listed; a plugin
whose name is not its entry-point name, that needs a newer plugin API or that
is written against an older one, is refused when it is loaded."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any, ClassVar

import pytest

import unorules
import unorules.discovery as discovery
from unorules import GameState, Plugin, PluginLoadWarning, Ruleset, RulesetError
from unorules.cli import main

REAL_ENTRY_POINTS = getattr(discovery, "entry_points")  # noqa: B009 (not re-exported)


@pytest.fixture
def broken_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Four extra entry points: one whose module fails to import, one naming a
    plugin of another name, one needing a newer plugin API, one written
    against version 1."""
    (tmp_path / "contract_test_plugins.py").write_text(
        textwrap.dedent(
            f"""
            import unorules

            class Future(unorules.Plugin):
                name = "future"
                requires = ("classic",)
                api_version = {unorules.PLUGIN_API_VERSION + 1}

            future = Future()

            class Old(unorules.Plugin):
                name = "old"
                requires = ("classic",)
                api_version = 1

            old = Old()
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "contract_test_broken.py").write_text("raise ImportError('missing dependency xyz')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    extra = [
        EntryPoint("broken", "contract_test_broken:plugin", "unorules"),
        EntryPoint("stack", "unorules_stacking:plugin", "unorules"),
        EntryPoint("future", "contract_test_plugins:future", "unorules"),
        EntryPoint("old", "contract_test_plugins:old", "unorules"),
    ]

    def entry_points(group: str) -> list[EntryPoint]:
        return [*REAL_ENTRY_POINTS(group=group), *extra]

    monkeypatch.setattr(discovery, "entry_points", entry_points)
    discovery.reset()
    yield
    monkeypatch.undo()
    discovery.reset()
    for module in ("contract_test_plugins", "contract_test_broken"):
        sys.modules.pop(module, None)


@pytest.mark.usefixtures("broken_install")
def test_a_plugin_that_fails_to_import_is_named_when_asked_for() -> None:
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_names(["classic", "broken"])
    message = str(raised.value)
    assert "plugin 'broken' cannot be loaded" in message
    assert "entry point broken = 'contract_test_broken:plugin'" in message
    assert "ImportError: missing dependency xyz" in message
    assert isinstance(raised.value.__cause__, ImportError)
    with pytest.raises(RulesetError, match="spec 'classic,broken': plugin 'broken' cannot be loaded"):
        Ruleset.from_spec_text("classic,broken")


@pytest.mark.usefixtures("broken_install")
def test_other_rule_sets_and_saved_games_do_not_notice_a_broken_plugin() -> None:
    rules = Ruleset.from_names(["classic", "stacking"])
    state = rules.new_game(players=3, seed=1)
    assert GameState.from_json(state.to_json()) == state


@pytest.mark.usefixtures("broken_install")
def test_listing_the_installed_plugins_skips_the_broken_ones_with_a_warning() -> None:
    with pytest.warns(PluginLoadWarning) as caught:
        installed = unorules.installed_plugins()
    assert {"classic", "stacking"} <= set(installed)
    assert not {"broken", "stack", "future", "old"} & set(installed)
    messages = sorted(str(w.message) for w in caught)
    assert len(messages) == 4
    assert any("'broken' cannot be loaded" in m for m in messages)
    assert any("plugin 'old' (entry point old = " in m and "Moving to version 2" in m for m in messages)


@pytest.mark.usefixtures("broken_install")
def test_unorules_rules_lists_what_loads(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.warns(PluginLoadWarning):
        assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "classic" in out
    assert "stacking" in out


@pytest.mark.usefixtures("broken_install")
def test_an_entry_point_name_that_is_not_the_plugin_name_is_refused_naming_both() -> None:
    with pytest.raises(RulesetError, match=r"plugin 'stack' is named 'stacking' \(entry point stack = "):
        Ruleset.from_names(["classic", "stack"])


@pytest.mark.usefixtures("broken_install")
def test_a_plugin_needing_a_newer_api_is_refused_at_load() -> None:
    newer = unorules.PLUGIN_API_VERSION + 1
    with pytest.raises(RulesetError, match=f"needs plugin API version {newer}.*install a newer unorules"):
        Ruleset.from_names(["classic", "future"])


@pytest.mark.usefixtures("broken_install")
def test_a_plugin_written_against_version_1_is_refused_at_load_pointing_to_the_migration() -> None:
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_names(["classic", "old"])
    message = str(raised.value)
    assert "plugin 'old' (entry point old = 'contract_test_plugins:old'" in message
    assert "written against plugin API version 1" in message
    assert "'Moving to version 2'" in message
    assert message.endswith("then set api_version = 2")
    with pytest.raises(RulesetError, match="Moving to version 2"):
        unorules.load_plugin("old")
    assert Ruleset.from_names(["classic", "stacking"]).names == ("classic", "stacking")


def test_plugin_objects_are_checked_for_their_api_version_too() -> None:
    class Newer(Plugin):
        name = "newer"
        requires = ("classic",)
        api_version = unorules.PLUGIN_API_VERSION + 1

    class Odd(Plugin):
        name = "odd"
        requires = ("classic",)
        api_version: ClassVar[Any] = "2"

    class Nought(Plugin):
        name = "nought"
        requires = ("classic",)
        api_version: ClassVar[Any] = True  # a bool is not a version

    with pytest.raises(RulesetError, match="plugin 'newer' needs plugin API version"):
        Ruleset.from_names(["classic"], plugins=[Newer()])
    with pytest.raises(RulesetError, match="plugin 'odd': api_version must be a positive int, not '2'"):
        Ruleset.from_names(["classic"], plugins=[Odd()])
    with pytest.raises(RulesetError, match="plugin 'nought': api_version must be a positive int, not True"):
        Ruleset.from_names(["classic"], plugins=[Nought()])

"""Issue 46: every "unknown plugin / option / value / preset / key / rule id / bot" error offers
the nearest names (``unorules.errors.nearest``, difflib) and lists the allowed ones in full."""

from __future__ import annotations

from pathlib import Path

import pytest

from unorules import Ruleset, RulesetError
from unorules.cli import EXIT_USAGE, main
from unorules.discovery import installed_plugins
from unorules.errors import did_you_mean, nearest
from unorules.rulebook import Rulebook, preset


def test_the_helper() -> None:
    keys = ["name", "description", "plugins", "options"]
    assert nearest("plugin", keys, "a rulebook has the keys") == (
        "did you mean 'plugins'? a rulebook has the keys: name, description, plugins, options"
    )
    assert nearest("hot-potatoe", ["classic", "hot-potato"], "installed plugins").startswith(
        "did you mean 'hot-potato'? "
    )
    assert (
        nearest("UNO_PENALTI", ["uno_penalty"], "options")
        == "did you mean 'uno_penalty'? options: uno_penalty"
    )
    assert nearest("zzz", [], "presets") == "presets: none"
    assert did_you_mean("zzzzzz", ["classic"]) == ""


def test_the_library_suggests_plugins_options_values_and_presets() -> None:
    with pytest.raises(
        RulesetError, match=r"no plugin named 'stackin' is installed; did you mean 'stacking'\?"
    ):
        Ruleset.from_names(["classic", "stackin"])
    with pytest.raises(RulesetError, match=r"did you mean 'uno_penalty'\?"):
        Ruleset.from_names(["classic"], {"uno_penalti": 2})
    with pytest.raises(RulesetError, match=r"did you mean 'uno_penalty'\?"):
        Ruleset.from_spec_text("classic uno_penalti=2")
    with pytest.raises(RulesetError, match=r"'may-kep' is not one of .*; did you mean 'may-keep'\?"):
        Ruleset.from_spec_text("classic drawn_card=may-kep")
    with pytest.raises(RulesetError, match=r"no preset named 'parti'; did you mean 'party'\?"):
        preset("parti")


def test_rulebooks_suggest_keys_options_and_presets(tmp_path: Path) -> None:
    book = tmp_path / "ours.toml"
    book.write_text('name = "ours"\nplugin = ["classic"]\n', encoding="utf-8")
    with pytest.raises(
        RulesetError, match=r"line 2 \(plugin\): unknown key 'plugin'; did you mean 'plugins'\?"
    ):
        Rulebook.from_file(book)
    book.write_text('name = "ours"\nplugins = ["classic"]\n[options]\nuno_penalti = 2\n', encoding="utf-8")
    with pytest.raises(RulesetError, match=r"did you mean 'uno_penalty'\? their options: challenge, "):
        Rulebook.from_file(book)
    book.write_text('name = "ours"\nextends = "parti"\n', encoding="utf-8")
    with pytest.raises(RulesetError, match=r"did you mean 'party'\?"):
        Rulebook.from_file(book)


def test_the_command_line_suggests_and_never_cuts_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--option", "uno_penalti=3"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "did you mean 'uno_penalty'" in err
    assert "..." not in err
    assert err.rstrip().endswith("with_swap_hands")  # every option of the installed plugins, in full
    assert main(["play", "--rules", "parti"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "did you mean 'party' or 'partners'?" in err
    assert all(name in err for name in installed_plugins())
    assert main(["rules", "hot-potatoe"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "..." not in err
    assert err.rstrip().endswith("('unorules rules PLUGIN' lists a plugin's)")
    assert main(["simulate", "--bots", "heuristc"]) == EXIT_USAGE
    assert "did you mean 'heuristic'?" in capsys.readouterr().err
    assert main(["play", "--rules", "classic uno_penalty=2"]) == EXIT_USAGE
    assert "give 'uno_penalty=2' as --option uno_penalty=2" in capsys.readouterr().err

"""``unorules rules`` explains (issue 33, item 4).

A rule id shows the rule's text from the rules reference (which the wheel ships as
``unorules/rules.rst``), its sources, where the sources disagree on it and the plugins that
implement it; a plugin's page shows its documentation (its module docstring), rules with their
titles, options and the player counts it deals; ``--check`` reports the player counts of a rule
set, with the reason for those it refuses.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from unorules import installed_plugins
from unorules.cli import EXIT_OK, EXIT_USAGE, main
from unorules.cli.rules import reference, reference_text

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_rule_id_shows_its_text_sources_disagreements_and_plugins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(["rules", "R-STACK"], capsys)
    assert code == EXIT_OK, err
    assert out.startswith("R-STACK — stacking\n")
    assert "4. A player adds at most one card to a stack per turn." in out
    assert "[LT] A Lithuanian rule sheet" in out
    assert "where the sources disagree: mixing in a stack (R-STACK)" in out
    assert "selected by: stacking" in out
    assert "implemented by: stacking\n" in out
    assert "``" not in out
    assert ":ref:" not in out
    code, lower, _ = _run(["rules", "r-stack"], capsys)
    assert lower == out
    code, out, _ = _run(["rules", "R-UNO-CATCH"], capsys)
    assert "implemented by: classic" in out


def test_every_rule_of_the_reference_reads_as_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    rules = reference()
    text = reference_text()
    assert len(rules) == len(re.findall(r"^\.\. _rule-R-", text, re.M)) > 30  # every rule the page defines
    cited = {r for p in installed_plugins().values() for r in getattr(p, "rules", ()) if r.startswith("R-")}
    assert cited <= set(rules), sorted(cited - set(rules))
    for rule in rules.values():
        assert rule.text, rule.id
        assert rule.title, rule.id
        assert not re.search(r"``|:ref:|:class:|:doc:|\.\. ", rule.text), (rule.id, rule.text)
    _, out, _ = _run(["rules", "--json", "R-2P", "R-TEAM"], capsys)
    pages = json.loads(out)
    assert [p["id"] for p in pages] == ["R-2P", "R-TEAM"]
    assert pages[1]["plugins"] == ["partners"]
    assert set(pages[1]["sources"]) == {"LT", "CZ"}


def test_a_plugins_rule_id_outside_the_reference_names_its_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    if "draw-until-playable" not in installed_plugins():
        pytest.skip("the sample plugin is not installed")
    code, out, _ = _run(["rules", "DUP-DRAW"], capsys)
    assert code == EXIT_OK
    assert "not in the rules reference" in out
    assert "implemented by: draw-until-playable" in out
    # issue 46: a plugin's own rule has the title and text its documentation gives it
    assert out.startswith("DUP-DRAW — When a seat draws for its turn")
    assert "until it draws a playable card" in out


def test_a_plugins_page_lists_its_own_rule_ids_with_titles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["rules", "draw-until-playable"], capsys)
    assert code == EXIT_OK
    assert (
        "    DUP-LIMIT — Option draw_limit (default 0, no limit): the most cards one turn's draw takes.\n"
        in out
    )
    assert "    DUP-EMPTY — When the draw pile runs out" in out


def test_an_unknown_name_suggests_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 46: a misspelt plugin, preset or rule id gets a "did you mean"."""
    for typed, meant in (("stackng", "'stacking'"), ("parti", "'party'"), ("DUP-DRAWS", "'DUP-DRAW'")):
        code, _, err = _run(["rules", typed], capsys)
        assert code == EXIT_USAGE
        assert f"did you mean {meant}" in err, err


def test_an_unknown_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    unknown = "R-" + "NO-SUCH-RULE"  # written in two parts: the rules reference test reads every cited id
    code, out, err = _run(["rules", unknown], capsys)
    assert code == EXIT_USAGE
    assert out == ""
    assert f"no plugin named {unknown!r} is installed, no preset has that name and no rule that id" in err


def test_a_plugin_page_shows_its_documentation_rules_options_and_players(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(["rules", "partners"], capsys)
    assert code == EXIT_OK, err
    assert out.startswith("partners: Partners: players in teams sitting apart")
    assert "Decisions where the rules are silent" in out  # the module docstring
    assert "    R-TEAM — partners\n" in out
    assert (
        "  players: 4 only; not 2, 3, 5 to 10 (for 2 players: partners (R-TEAM) is played by exactly 4" in out
    )
    code, out, _ = _run(["rules", "stacking"], capsys)
    assert "Decisions where the rules are silent" in out
    assert "stack_mix = off  [on, off]" in out
    assert "  players: 2 to 10 (on classic)\n" in out  # a rule that needs a base, shown on classic
    assert "``" not in out
    code, out, _ = _run(["rules", "--json", "partners"], capsys)
    (page,) = json.loads(out)
    assert page["players"] == [4]
    assert "R-TEAM" in page["doc"]
    assert page["rule_titles"]["R-TEAM-ROTATE"] == "rotating partners"


def test_check_reports_the_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["rules", "--check", "classic,partners"], capsys)
    assert code == EXIT_OK
    assert "\nplayers: 4 only\n  not 2, 3, 5 to 10 (for 2 players: partners (R-TEAM)" in out
    code, out, _ = _run(["rules", "--check", "classic"], capsys)
    assert "\nplayers: 2 to 10\n" in out
    code, out, _ = _run(["rules", "--check", "classic,partners", "--json"], capsys)
    data = json.loads(out)
    assert data["players"] == [4]
    assert set(data["players_refused"]) == {"2", "3", "5", "6", "7", "8", "9", "10"}


@pytest.mark.slow
def test_the_wheel_ships_the_rules_reference(tmp_path: Path) -> None:
    """Installed from a wheel (no source tree beside it), ``unorules rules R-STACK`` still
    finds the rule: the wheel holds ``unorules/rules.rst``, the docs page itself."""
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    if built.returncode != 0 and "No module named build" in built.stderr:
        pytest.skip("needs the 'build' package (python3 dev.py setup)")
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("unorules-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = archive.read("unorules/rules.rst").decode("utf-8")
        archive.extractall(tmp_path / "site")
    assert shipped == (ROOT / "docs" / "rules.rst").read_text(encoding="utf-8")
    script = (
        "import unorules, pathlib; from unorules.cli import main; "
        "assert not (pathlib.Path(unorules.__file__).parents[1] / 'docs').exists(); "
        "raise SystemExit(main(['rules', 'R-STACK']))"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "A player adds at most one card to a stack per turn." in done.stdout
    assert reference_text() == shipped  # in this tree: the same text, from docs/rules.rst

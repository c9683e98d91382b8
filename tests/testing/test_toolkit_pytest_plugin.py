"""The pytest plugin: cheap to load, its fixtures, and ``pytest --unorules-conformance NAME``.

Each test runs pytest in a fresh process in a temporary directory. The broken
plugin is "installed" there as a distribution on ``PYTHONPATH`` (a module and
a ``.dist-info`` folder naming its entry point), which is all
``importlib.metadata`` needs to find it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BROKEN_MODULE = '''
from unorules import Plugin, hookimpl


class LosesFives(Plugin):
    """A played 5 vanishes instead of staying on the discard pile."""

    name = "loses-fives"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def on_play(self, draft, action, previous):
        if action.card.kind != "5" or not draft.hands[action.seat]:
            return None
        draft.take_from_discard_pile(1)  # the 5 is put nowhere
        draft.pass_turn(1, action.seat)
        return True


plugin = LosesFives()
'''


def run_pytest(where: Path, *args: str, site: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def install_broken_plugin(site: Path) -> None:
    site.mkdir()
    (site / "loses_fives.py").write_text(BROKEN_MODULE)
    info = site / "loses_fives-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: loses-fives\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[unorules]\nloses-fives = loses_fives:plugin\n")


def test_loading_the_plugin_imports_neither_unorules_nor_hypothesis() -> None:
    code = (
        "import sys, pytest, unorules_pytest; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('unorules', 'hypothesis')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_fixtures_give_the_marked_rule_set_and_arranged_games(tmp_path: Path) -> None:
    (tmp_path / "test_uses_fixtures.py").write_text(
        textwrap.dedent(
            """
            import pytest
            from unorules import Ruleset


            @pytest.mark.unorules_rules(["classic"], options={"uno_penalty": 4})
            def test_marked(unorules_ruleset, arranged_game):
                assert unorules_ruleset.options["uno_penalty"] == 4
                hands = ["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8"]
                state = arranged_game(hands, "R5", draw="Y9", dealer=1)
                assert state.ruleset is unorules_ruleset
                assert [" ".join(map(str, h)) for h in state.hands] == hands
                assert str(state.top_card) == "R5"
                assert str(state.draw_pile[0]) == "Y9"
                assert state.current_player == 0


            def test_default(unorules_ruleset):
                assert unorules_ruleset.names == ("classic",)


            NINE = Ruleset.from_names(["classic"], options={"target_score": 9})


            @pytest.mark.parametrize("unorules_ruleset", [NINE], indirect=True)
            def test_indirect(unorules_ruleset):
                assert unorules_ruleset.options["target_score"] == 9
            """
        )
    )
    result = run_pytest(tmp_path, "-q", "--strict-markers")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 passed" in result.stdout


def test_conformance_option_passes_a_good_plugin(tmp_path: Path) -> None:
    result = run_pytest(tmp_path, "--unorules-conformance", "classic", "--unorules-budget", "quick", "-v")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "conformance[classic][classic] PASSED" in result.stdout


def test_conformance_option_fails_a_broken_plugin_and_prints_its_replay(tmp_path: Path) -> None:
    site = tmp_path / "site"
    install_broken_plugin(site)
    result = run_pytest(
        tmp_path, "--unorules-conformance", "loses-fives", "--unorules-budget", "quick", site=site
    )
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "conformance[loses-fives][classic+loses-fives]" in out
    assert " failed in " in out
    assert "VIOLATION [cards] Ruleset.from_names(['classic', 'loses-fives'])" in out
    assert "replay = Replay(" in out
    # The replay, pasted into a test where the plugin is installed, fails the same way.
    start = out.index("from unorules import Ruleset")
    end = out.index("replay.check()", start)
    code = textwrap.dedent("\n".join(line.removeprefix("    ") for line in out[start:end].splitlines()))
    check = subprocess.run(
        [sys.executable, "-c", code + "\nreplay.check()\n"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(site)},
        check=False,
    )
    assert check.returncode == 1
    assert "InvariantViolation: [cards]" in check.stderr


def test_conformance_option_refuses_a_plugin_that_is_not_installed(tmp_path: Path) -> None:
    result = run_pytest(tmp_path, "--unorules-conformance", "no-such-plugin")
    assert result.returncode == pytest.ExitCode.USAGE_ERROR
    assert "no plugin named 'no-such-plugin' is installed" in result.stderr


def test_the_package_loads_its_submodules_only_when_their_names_are_used() -> None:
    code = (
        "import sys, unorules.testing as t\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.startswith('unorules.testing.'))\n"
        "assert loaded() == [], loaded()\n"
        "t.Replay, t.check_state\n"
        "parts = ['play', 'state_invariants', 'step_invariants', 'violations']\n"
        "wanted = sorted(f'unorules.testing.{m}' for m in ['invariants', 'replay', *parts])\n"
        "assert loaded() == wanted, loaded()\n"
        "assert 'unorules.testing.strategies' not in sys.modules\n"
        "for name in t.__all__: getattr(t, name)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.stdout.strip() == "ok", out.stderr


SCENARIO_MODULE = '''
from unorules import Plugin, TestHints
from unorules.testing.scenario import Scenario


def a_draw_two_makes_the_next_seat_draw(rules):
    """Fails beside stacking, which lets the next seat answer with its own Draw Two."""
    game = Scenario(rules, hands={0: "R+2 R1", 1: "B+2 G5"}, top="R5").then("0: play R+2")
    game.expect(to_move=1, illegal=["1: play B+2"]).then("1: draw").expect(hand_sizes={1: 4})


class StatesADrawTwo(Plugin):
    """Adds nothing but a scenario of classic's Draw Two."""

    name = "states-a-draw-two"
    api_version = 2
    requires = ("classic",)
    testing = TestHints(scenarios=(a_draw_two_makes_the_next_seat_draw,))


plugin = StatesADrawTwo()
'''


def test_the_quick_budget_runs_the_plugins_scenarios_beside_every_plugin(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "states_a_draw_two.py").write_text(SCENARIO_MODULE)
    info = site / "states_a_draw_two-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: states-a-draw-two\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[unorules]\nstates-a-draw-two = states_a_draw_two:plugin\n")
    result = run_pytest(
        tmp_path, "--unorules-conformance", "states-a-draw-two", "--unorules-budget", "quick", site=site
    )
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert "conformance[states-a-draw-two][scenarios beside the other plugins]" in out
    assert "VIOLATION [scenario]" in out
    assert "passes with the plugin alone but failed beside another plugin" in out
    assert "stacking" in out

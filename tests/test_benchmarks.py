"""Smoke tests of benchmark scripts that are not run elsewhere: they run with
tiny sizes and print what their docs say. (``run.py``, ``rl.py`` and the others
are run for their figures; their timing is never a test.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import unorules_jump_in

import unorules

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def shares(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    monkeypatch.delitem(sys.modules, "shares", raising=False)
    import shares as module

    return module


def test_shares_leave_one_out(shares, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert shares.main(["--actions", "300", "--reps", "1"]) == 0
    out = capsys.readouterr().out
    assert "all plugins but jump-in" in out
    assert "classic + seven-o" in out
    assert out.splitlines()[1].startswith("classic ")


def _jump_in_impl(rules: unorules.Ruleset, hook: str) -> object:
    """The function jump-in implements ``hook`` with in ``rules``."""
    (impl,) = [i for i in getattr(rules.hook, hook).get_hookimpls() if i.plugin_name == "jump-in"]
    return getattr(impl.function, "__func__", impl.function)


def test_shares_jump_in_parts_restore_the_plugin(shares, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    plugin = unorules_jump_in.JumpInPlugin
    before = (plugin.__dict__["legal_actions"], plugin.__dict__["after_action"])
    sets = shares.jump_in_parts()
    assert (plugin.__dict__["legal_actions"], plugin.__dict__["after_action"]) == before
    # Each variant is a rule set of its own, and the stubs took effect in it.
    assert len({id(rules) for rules in sets.values()}) == len(sets)
    stubs = {
        "classic + jump-in": (False, False),
        "... without its legal_actions": (True, False),
        "... its after_action doing nothing": (False, True),
        "... both": (True, True),
    }
    for name, (lists_nothing, watches_nothing) in stubs.items():
        assert (_jump_in_impl(sets[name], "legal_actions") is shares._lists_nothing) is lists_nothing, name
        assert (_jump_in_impl(sets[name], "after_action") is shares._watches_nothing) is watches_nothing, name
    assert "jump-in" not in sets["classic"].names
    # The window is tracked by after_action: open after a play unless it is stubbed out.
    for name, opens in (
        ("classic + jump-in", True),
        ("... without its legal_actions", True),
        ("... its after_action doing nothing", False),
    ):
        state = sets[name].new_game(4, seed=1)
        while not any(a.verb == "play" for a in state.legal_actions()):
            state = state.apply(state.legal_actions()[0])
        state = state.apply(next(a for a in state.legal_actions() if a.verb == "play"))
        assert (unorules_jump_in.window(state) is not None) is opens, name
    assert shares.main(["--jump-in", "--actions", "300", "--reps", "1"]) == 0
    assert "... both" in capsys.readouterr().out


def test_shares_by_kind(shares, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert shares.main(["--by-kind", "--actions", "400", "--reps", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("classic: ")
    assert "\nall plugins: " in out
    assert "play  draw" in out
    rules = unorules.Ruleset.from_names(["classic", "jump-in"])
    state = next(s for s in map(rules.new_game, [4] * 20, range(20)) if s.phase.name == "play")
    draw = next(a for a in state.legal_actions() if a.verb == "draw")
    assert shares.kind_of(state, draw) == ("play", "draw")
    other = (state.current_player + 1) % 4
    seven = unorules.Action.parse(f"{other}: play R7")
    assert shares.kind_of(state, seven) == ("play", "play 7 (jump)")
    five = unorules.Action.parse(f"{state.current_player}: play B5")
    assert shares.kind_of(state, five) == ("play", "play num")


def test_toolkit_benchmark_prints_a_row_per_planted_bug_and_the_rates(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    monkeypatch.delitem(sys.modules, "toolkit", raising=False)
    import toolkit

    only = "dc-global-random,dc-float-extra"
    assert toolkit.main(["--budgets", "quick", "--only", only, "--no-clean"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith("dc-")]
    assert [row[:3] for row in rows] == [["dc-global-random", "quick", "0"], ["dc-float-extra", "quick", "0"]]
    assert "quick: caught 2 of 2 planted bug runs (100%)" in out


def test_the_floor_plays_classic_to_500_and_prints_classic_as_its_share(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    monkeypatch.delitem(sys.modules, "floor", raising=False)
    import floor

    assert len(floor.DECK) == 108
    for players in (2, 4):
        for seed in range(3):
            # check: every action is followed by a count of the 108 cards
            actions, rounds, scores = floor.floor_game(players, seed, check=True)
            assert max(scores) >= floor.TARGET > sorted(scores)[-2]
            assert actions > rounds > 0
            assert floor.play_floor(players, seed) == (actions, rounds)  # seeded: the same game
    assert floor.main(["--reps", "1", "--min-time", "0.01", "--players", "2"]) == 0
    out = capsys.readouterr().out
    rows = [line.split()[:2] for line in out.splitlines()]
    assert ["floor", "2"] in rows
    assert ["classic", "2"] in rows
    assert "classic / floor, 2 players: " in out

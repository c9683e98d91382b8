"""The ``unorules`` command line: every command, its errors and exit codes."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from unorules.cli import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main
from unorules.cli import simulate as simulate_command
from unorules.cli.common import UsageError


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("unorules: error: ")
    return lines[0]


# -- help and usage ----------------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["play"], ["simulate"], ["rules"]])
def test_help_everywhere(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*command, "--help"], capsys)
    assert code == EXIT_OK
    assert out.startswith("usage: unorules")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ([], "name a command"),
        (["dance"], "invalid choice"),
        (["simulate", "--games", "0"], "positive number"),
        (["simulate", "--players", "11"], "players must be 2 to 10"),
        (["simulate", "--bots", "genius"], "unknown bot 'genius'"),
        (["simulate", "--rules", "nosuchplugin"], "no plugin named 'nosuchplugin'"),
        (["simulate", "--option", "uno_penalty"], "write name=value"),
        (["simulate", "--option", "uno_penalty=3"], "3 is not one of 2, 4"),
        (["simulate", "--option", "zzz=1"], "belongs to no plugin"),
        (["simulate", "--compare", "classic"], "two or more rule sets"),
        (["simulate", "--compare", "classic", "classic"], "listed twice"),
        (["simulate", "--plot", "chart.pdf"], "must end in .svg or .png"),
        (["play", "--seat", "7"], "seats are 0 to 3"),
        (["play", "--rules", ""], "empty rule set"),
        (["rules", "nosuchplugin"], "no plugin named 'nosuchplugin'"),
        (["rules", "--option", "uno_penalty=4"], "--option needs --check"),
        (["rules", "--check", "classic", "--option", "wd4_points=60"], "60 is not one of 50, 70"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    args: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys)
    assert code == EXIT_USAGE
    assert fragment in one_error_line(err)
    assert out == ""


def test_plot_without_matplotlib_is_a_usage_error_before_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(simulate_command, "_matplotlib", lambda: None)
    for name in ("c.png", "c.svg"):
        code, out, err = run(["simulate", "--games", "1", "--plot", str(tmp_path / name)], capsys)
        assert code == EXIT_USAGE
        assert (
            "--plot needs matplotlib, which is not installed: pip install 'unorules[plot]'"
            in one_error_line(err)
        )
        assert out == ""
        assert not (tmp_path / name).exists()


def test_version_and_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "unorules", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == EXIT_OK
    assert done.stdout.startswith("unorules ")
    bad = subprocess.run([sys.executable, "-m", "unorules", "rules", "nope"], capture_output=True, text=True)
    assert bad.returncode == EXIT_USAGE
    assert bad.stderr.count("\n") == 1


# -- rules -------------------------------------------------------------------------------


def test_rules_lists_every_installed_plugin_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    import unorules

    code, out, _ = run(["rules"], capsys)
    assert code == EXIT_OK
    for name in unorules.installed_plugins():
        assert f"\n{name}: " in "\n" + out
    assert "uno_penalty = 2  [2, 4, 6]" in out
    assert "challenge = on" in out


def test_rules_json_names_conflicts_and_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "--json", "classic"], capsys)
    assert code == EXIT_OK
    (info,) = json.loads(out)
    assert info["name"] == "classic"
    assert {"name": "target_score", "default": 500}.items() <= info["options"][0].items()
    assert info["conflicts"] == {}
    assert "R-UNO-CATCH" in info["rules"]


def test_rules_check_builds_a_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "--check", "classic", "--option", "uno_penalty=4"], capsys)
    assert code == EXIT_OK
    assert "rule set OK" in out
    assert "uno_penalty = 4" in out
    code, out, _ = run(["rules", "--check", "classic", "--json", "--option", "challenge=off"], capsys)
    assert json.loads(out)["options"]["challenge"] is False


# -- simulate ----------------------------------------------------------------------------


def simulate_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    code, out, err = run(["simulate", "--json", "--quiet", *args], capsys)
    assert code == EXIT_OK, err
    data = json.loads(out)
    assert isinstance(data, dict)
    data.pop("elapsed_seconds")
    return data


def test_simulate_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["simulate", "--games", "4", "--players", "3", "--seed", "1", "--workers", "1"], capsys
    )
    assert code == EXIT_OK
    assert err == ""  # no progress bar when stderr is not a terminal
    for row in (
        "games",
        "rounds per game",
        "actions per round",
        "points per round",
        "wins, seat 2",
        "wins, heuristic",
    ):
        assert row in out


def test_simulate_same_seed_same_results_whatever_the_workers(capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--games", "6", "--players", "2", "--seed", "42", "--option", "target_score=150"]
    one = simulate_json([*common, "--workers", "1"], capsys)
    two = simulate_json([*common, "--workers", "2"], capsys)
    assert one == two
    other = simulate_json(
        ["--games", "6", "--players", "2", "--seed", "43", "--option", "target_score=150"], capsys
    )
    assert other["results"] != one["results"]


def test_simulate_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    data = simulate_json(
        ["--games", "5", "--players", "4", "--seed", "s", "--bots", "heuristic,random,random,random"], capsys
    )
    assert data["seed"] == "s"
    (result,) = data["results"]  # type: ignore[misc]
    assert result["games"] == 5
    assert sum(result["seat_wins"]) == 5
    assert result["bot_seats"] == {"heuristic": 1, "random": 3}
    assert result["bot_wins"]["heuristic"] + result["bot_wins"]["random"] == 5
    assert result["rounds"] >= 5
    assert result["actions_per_round"] > 0


def test_simulate_compare_with_options_and_the_same_chart_as_svg_and_png(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib", reason="needs matplotlib: pip install 'unorules[plot]'")
    charts = {}
    for suffix in ("svg", "png"):
        chart = tmp_path / f"chart.{suffix}"
        data = simulate_json(
            [
                "--games", "4", "--players", "2", "--seed", "7", "--workers", "1",
                "--option", "target_score=100",
                "--compare", "classic", "classic:uno_penalty=4", "--plot", str(chart),
            ],
            capsys,
        )  # fmt: skip
        charts[suffix] = chart
    labels = [r["rules"] for r in data["results"]]  # type: ignore[attr-defined]
    assert labels == ["classic", "classic:uno_penalty=4"]
    assert data["results"][1]["options"] == {"target_score": 100, "uno_penalty": 4}  # type: ignore[index]
    svg = charts["svg"].read_text()
    for text in ("Round length", "Game length", "actions in the round", "rounds in the game", "share"):
        assert text in svg, text
    assert "classic:uno_penalty=4" in svg
    assert "4 games of 2 players" in svg  # the title
    assert charts["png"].read_bytes().startswith(b"\x89PNG")


def test_simulate_plot_to_a_missing_folder_fails_before_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib", reason="needs matplotlib: pip install 'unorules[plot]'")
    code, out, err = run(
        [
            "simulate",
            "--games",
            "1",
            "--players",
            "2",
            "--seed",
            "1",
            "--quiet",
            "--plot",
            str(tmp_path / "no" / "c.svg"),
        ],
        capsys,
    )
    assert code == EXIT_FAILURE
    assert "cannot write" in one_error_line(err)
    assert "does not exist" in err
    assert out == ""  # nothing was played


def test_simulate_game_failure_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        ["simulate", "--games", "2", "--players", "2", "--seed", "1", "--max-actions", "3"], capsys
    )
    assert code == EXIT_FAILURE
    assert "game 0 of rule set classic (seed 1) failed" in one_error_line(err)


def test_simulate_progress_bar_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    fake = Tty()
    monkeypatch.setattr(sys, "stderr", fake)
    assert main(["simulate", "--games", "3", "--players", "2", "--seed", "1", "--workers", "1"]) == EXIT_OK
    assert "playing" in fake.getvalue()
    assert "games" in fake.getvalue()
    fake.truncate(0)
    fake.seek(0)
    assert (
        main(["simulate", "--games", "3", "--players", "2", "--seed", "1", "--workers", "1", "--quiet"]) == 0
    )
    assert fake.getvalue() == ""


def test_simulate_head_to_head_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["simulate", "--games", "4", "--players", "2", "--seed", "1", "--bots", "heuristic",
         "--option", "target_score=100", "--head-to-head", "heuristic,random"],
        capsys,
    )  # fmt: skip
    assert code == EXIT_OK
    assert re.search(
        r"^head to head on classic, 4 games: heuristic won [\d.]+% \(1 seat\), random won", out, re.M
    )
    assert "first player wins the game" in out
    data = simulate_json(
        ["--games", "2", "--players", "2", "--seed", "1", "--head-to-head", "random"], capsys
    )
    assert data["head_to_head"]["bot_seats"] == {"random": 2}  # type: ignore[index]


def test_simulate_with_every_installed_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    # The CLI works with whatever is installed: each plugin with what it requires.
    import unorules

    installed = unorules.installed_plugins()
    for name, plugin in installed.items():
        names = list(dict.fromkeys([*getattr(plugin, "requires", ()), name]))
        try:
            unorules.Ruleset.from_names(names)
        except unorules.RulesetError:  # a house rule that needs a base rule set (it deals no cards)
            names = ["classic", *names]
        players = "4" if name == "partners" else "3"
        args = [
            "--rules",
            ",".join(names),
            "--games",
            "2",
            "--players",
            players,
            "--seed",
            "1",
            "--workers",
            "1",
        ]
        data = simulate_json(args, capsys)
        assert data["results"][0]["games"] == 2  # type: ignore[index]


# -- play --------------------------------------------------------------------------------


def play(
    lines: str, args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    return run(["play", *args], capsys)


def test_play_shows_the_table_numbers_playable_cards_and_explains_refusals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = play(
        "?\nW+4 B\nZZ top\nR1 2 3\n9\nlook\nquit\n", ["--seed", "3", "--players", "3"], monkeypatch, capsys
    )
    assert code == EXIT_OK, err
    assert "\x1b[" not in out  # no colour codes when standard output is not a terminal
    assert "you are dealt R4 R5 R8 R+2 Y1 G3 GR" in out  # sorted by colour, then number
    assert "your hand (7 cards): R4 R5 1:R8 R+2 Y1 2:G3 3:GR" in out  # playable cards numbered
    assert "or: 4:draw" in out
    assert "top G8  colour green  direction left (+1)  draw pile 86" in out
    assert "seat 1: 7 cards   seat 2: 7 cards" in out
    assert "your choices now:" in out
    assert "   2. G3" in out
    assert "refused: 0: play W+4 B: seat 0 holds no W+4 (R-TURN-MATCH)" in out
    assert "not understood: 'ZZ top' is neither a card nor an action" in out
    assert "not understood: there is no choice 9; the choices are 1 to 4" in out
    assert out.count("round 1 · your turn") == 2  # the status, and again after 'look'
    assert out.rstrip().endswith(
        "game stopped after 0 actions; not saved (play with --record FILE to go on later with --resume)"
    )


def test_play_one_digit_plays_a_card_and_the_events_read_as_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play("d\n1\nquit\n", ["--seed", "3", "--players", "3"], monkeypatch, capsys)
    assert code == EXIT_OK
    assert "\nseat 2 dealt round 1; the first card is G8\n" in out  # round 1's starter is announced
    assert "\nyou drew B3\n" in out
    assert "\nseat 1 played G1\n" in out  # the bots' moves are shown
    assert "since your last turn: seat 1 played G1, seat 2 played G9" in out
    assert "\nyou played G3\n" in out  # 1 was the first playable card


def test_play_asks_the_colour_of_a_wild_by_number(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 8, 2 players: the only playable card is a Wild; its number, then 4 (blue), or "1 G" at once.
    code, out, _ = play("quit\n", ["--seed", "8", "--players", "2"], monkeypatch, capsys)
    assert "your hand (7 cards): R2 R6 R6 RS RR B7 1:W" in out
    number, wild = "1", "1:W"
    code, out, _ = play(f"{number}\n4\nquit\n", ["--seed", "8", "--players", "2"], monkeypatch, capsys)
    assert code == EXIT_OK
    assert "which colour? 1:red  2:yellow  3:green  4:blue" in out
    assert f"you played {wild.split(':')[1]} (Wild" in out
    assert "and named blue" in out
    # issue 46: undo at the question takes the choice back, and is not read as a colour
    code, out, _ = play(f"{number}\nundo\nquit\n", ["--seed", "8", "--players", "2"], monkeypatch, capsys)
    assert "which colour? (undo: none of them) > undo\nnothing played: your move again\n" in out
    assert "not understood" not in out
    assert "you played" not in out
    code, out, _ = play(f"{number} G\nquit\n", ["--seed", "8", "--players", "2"], monkeypatch, capsys)
    assert "and named green" in out


def test_play_a_whole_game_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "1" picks the first choice every time (the first playable card, a wild's first colour...).
    code, out, _ = play(
        "1\n" * 3000, ["--seed", "4", "--players", "2", "--option", "target_score=50"], monkeypatch, capsys
    )
    assert code == EXIT_OK
    assert re.search(r"^round 1 is over: .* won the round", out, re.M)
    assert "scores" in out
    assert re.search(r"^game over: .* reached the target score and won", out, re.M)


def test_play_input_ending_early_is_a_failure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = play("draw\n", ["--seed", "3", "--players", "3"], monkeypatch, capsys)
    assert code == EXIT_FAILURE
    assert "the input ended before the game did" in one_error_line(err)


def test_play_refuses_another_seats_action(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = play("1: draw\ncolor\nquit\n", ["--seed", "3", "--players", "3"], monkeypatch, capsys)
    assert code == EXIT_OK
    assert "refused: you are seat 0; '1: draw' is seat 1's action" in out
    assert "not understood: name one colour" in out


# -- input from strangers (issue 11), interruption, lost workers ------------------------------


def test_simulate_seed_must_be_a_number_or_a_plain_word(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("²", "a b", "x" * 65, "é"):
        code, out, err = run(["simulate", "--games", "1", "--seed", seed], capsys)
        assert code == EXIT_USAGE
        assert "bad seed" in one_error_line(err)
        assert out == ""


@pytest.mark.parametrize("typed", ["²", "R7 " + "9" * 5000, "9" * 5000, "catch " + "1" * 5000, "\x00"])
def test_play_answers_strange_input_and_goes_on(
    typed: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = play(f"{typed}\nquit\n", ["--seed", "3", "--players", "3"], monkeypatch, capsys)
    assert code == EXIT_OK, err
    assert err == ""
    assert "not understood" in out or "refused" in out
    assert out.rstrip().endswith(
        "game stopped after 0 actions; not saved (play with --record FILE to go on later with --resume)"
    )
    assert max(len(line) for line in out.splitlines()) < 400


def test_play_with_standard_input_closed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    code, _, err = run(["play", "--seed", "3"], capsys)
    assert code == EXIT_FAILURE
    assert "standard input" in one_error_line(err)
    closed = io.StringIO("")
    closed.close()
    monkeypatch.setattr(sys, "stdin", closed)
    code, _, err = run(["play", "--seed", "3"], capsys)
    assert code == EXIT_FAILURE
    assert "standard input" in one_error_line(err)


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    real = simulate_command._Progress.advance

    def advance(self: simulate_command._Progress, n: int) -> None:
        real(self, n)
        if self.done >= games:
            raise KeyboardInterrupt

    monkeypatch.setattr(simulate_command._Progress, "advance", advance)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_any_game_count_streams_and_ctrl_c_prints_the_partial_summary(
    workers: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    _interrupt_after(monkeypatch, 30)
    code = main(["simulate", "--games", "10000000000", "--players", "2", "--seed", "1", "--workers", workers])
    out, err = capfd.readouterr()
    assert code == 130
    assert "interrupted after 30 of 10000000000 games" in one_error_line(err)  # no worker tracebacks
    assert "partial results: 30 of 10000000000 games played" in out
    assert "rounds per game" in out


def test_simulate_a_dying_worker_lists_the_lost_games(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from test_sim import _DyingBot

    from unorules.bots import BOTS

    monkeypatch.setitem(BOTS, "dying", _DyingBot)
    code = main(["simulate", "--games", "40", "--players", "2", "--seed", "1", "--bots", "dying"])
    out, err = capfd.readouterr()
    assert code == EXIT_FAILURE
    line = one_error_line(err)
    assert "a worker died" in line
    assert "lost (classic games " in line
    assert "partial results" in out


# -- per-game lines and summarize --------------------------------------------------------------


def test_simulate_jsonl_and_summarize_give_the_same_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = tmp_path / "games.jsonl"
    args = ["--games", "6", "--players", "3", "--seed", "2", "--compare", "classic", "classic,stacking"]
    data = simulate_json([*args, "--jsonl", str(lines)], capsys)
    written = lines.read_text().splitlines()
    assert len(written) == 12
    assert {json.loads(line)["index"] for line in written} == set(range(6))
    code, out, _ = run(["summarize", "--json", str(lines)], capsys)
    assert code == EXIT_OK
    rebuilt = json.loads(out)
    assert rebuilt["results"] == data["results"]
    assert rebuilt["seeds"] == [2]
    code, out, _ = run(["summarize", str(lines)], capsys)
    assert code == EXIT_OK
    assert out.startswith(f"12 games from {lines}: 3 players, seed(s) 2")
    assert "rounds per game" in out


def test_an_interrupted_run_keeps_its_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _interrupt_after(monkeypatch, 5)
    lines = tmp_path / "games.jsonl"
    code = main(["simulate", "--games", "1000", "--players", "2", "--seed", "1", "--jsonl", str(lines)])
    assert code == 130
    capsys.readouterr()
    assert len(lines.read_text().splitlines()) == 5
    code, out, _ = run(["summarize", "--json", str(lines)], capsys)
    assert json.loads(out)["results"][0]["games"] == 5


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"rules": "classic"}\n', "line 1: a game result needs the field"),
        ("\n\nnot json\n", "line 3: not JSON"),
        ("", "no game results in"),
        ("[" * 50_000 + "\n", "line 1: not JSON"),
    ],
)
def test_summarize_bad_files(
    content: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    code, out, err = run(["summarize", str(path)], capsys)
    assert code == EXIT_FAILURE
    assert fragment in one_error_line(err)
    assert out == ""


def test_summarize_unreadable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["summarize", str(tmp_path / "none.jsonl")], capsys)
    assert code == EXIT_FAILURE
    assert "cannot read" in one_error_line(err)
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = run(["summarize", str(binary)], capsys)
    assert "not UTF-8 text" in one_error_line(err)


def test_simulate_jsonl_unwritable_fails_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["simulate", "--games", "1", "--jsonl", str(tmp_path / "no" / "g.jsonl")], capsys)
    assert code == EXIT_FAILURE
    assert "cannot write" in one_error_line(err)
    assert out == ""


def test_address_needs_the_ray_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["simulate", "--address", "auto"], capsys)
    assert code == EXIT_USAGE
    assert "--address is for --engine ray" in one_error_line(err)
    code, _, err = run(["simulate", "--engine", "spark"], capsys)
    assert code == EXIT_USAGE
    assert "invalid choice: 'spark'" in one_error_line(err)


def test_an_option_brings_the_plugin_that_declares_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42: a house rule that left classic keeps its ``--option`` spelling: the one
    installed plugin that declares the option joins the rule set."""
    args = ["--rules", "classic", "--option", "forced_play=on", "--games", "2", "--players", "3"]
    data = simulate_json([*args, "--seed", "1", "--workers", "1"], capsys)
    (result,) = data["results"]  # type: ignore[misc]
    assert result["plugins"] == ["classic", "turn-rules"]
    assert result["options"] == {"forced_play": True}
    code, _, err = run(["simulate", "--rules", "classic", "--option", "nosuch=1", "--games", "1"], capsys)
    assert code != EXIT_OK
    assert "option 'nosuch' belongs to no plugin of classic" in err


def test_check_finds_a_plugin_module_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 46: ``unorules check module:object`` failed with ModuleNotFoundError for a module in
    the current folder unless PYTHONPATH=. was set: the console script, unlike ``python -m``,
    does not put the current folder on the path. Here the path is the console script's."""
    from unorules.cli.check import load_plugin_object

    (tmp_path / "nothing_rule.py").write_text(
        textwrap.dedent(
            '''
            """A house rule that changes nothing: the smallest plugin there is."""

            from unorules import Plugin


            class NothingRule(Plugin):
                """A house rule that changes nothing."""

                name = "nothing-rule"
                api_version = 2
                requires = ("classic",)
            '''
        ),
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path), ".")])
    monkeypatch.delitem(sys.modules, "nothing_rule", raising=False)
    plugin = load_plugin_object("nothing_rule:NothingRule")
    assert plugin.name == "nothing-rule"
    with pytest.raises(UsageError, match="cannot import 'no_such_module'"):
        load_plugin_object("no_such_module:Plugin")

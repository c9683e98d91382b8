"""``--rules`` takes a preset or a rulebook file in every command; ``unorules rules`` lists
the presets; ``unorules play --rules party`` and ``--rules ./our-family.toml`` play a whole
game in a pseudo-terminal, as a person would."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from unorules.cli import EXIT_OK, EXIT_USAGE, main
from unorules.rulebook import Rulebook, preset_names

DOCS = Path(__file__).resolve().parents[2] / "docs"

FAMILY = """\
name = "The Smiths"
plugins = ["classic", "stacking", "seven-o"]
players = [3, 4]

[options]
last_card_ban = "wild"
"""


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("unorules: error: ")
    return lines[0]


@pytest.fixture
def family(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "our-family.toml"
    path.write_text(FAMILY, encoding="utf-8")
    return path


def test_rules_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules"], capsys)
    assert code == EXIT_OK
    listed = out[out.index("presets (use one with --rules NAME") :]
    for name in preset_names():
        assert re.search(rf"^  {re.escape(name)}: ", listed, re.M), name
    assert "plugins: classic, stacking, seven-o, jump-in" in listed


def test_rules_presets_alone_and_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "--presets"], capsys)
    assert code == EXIT_OK
    assert out.startswith("presets")
    assert "classic: Classic UNO." in out
    code, out, _ = run(["rules", "--presets", "--json"], capsys)
    data = json.loads(out)
    assert [p["name"] for p in data] == list(preset_names())
    party = next(p for p in data if p["name"] == "party")
    assert party["plugins"] == ["classic", "stacking", "seven-o", "jump-in"]
    team = next(p for p in data if p["name"] == "team-play")
    assert team["options"] == {"team_seats": "even", "team_layout": "two-teams"}
    assert team["players"] == [4, 6, 8, 10]


def test_rules_names_a_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "no-mercy-style"], capsys)
    assert code == EXIT_OK
    assert "no-mercy-style: No Mercy style." in out
    assert "stack_mix=on forced_play=on drawn_card=must-play" in out


def test_rules_explains_plugins_presets_and_rules_together(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "stacking", "party", "R-HOUSE-DEFLECT"], capsys)
    assert code == EXIT_OK
    assert out.startswith("stacking: ")
    assert "\n  party: Party. " in out
    assert "R-HOUSE-DEFLECT — deflecting a draw" in out
    assert "implemented by: deflect" in out
    code, out, _ = run(["rules", "--json", "team-play"], capsys)
    (page,) = json.loads(out)
    assert page["plugins"] == ["classic", "partners"]
    assert page["players"] == [4, 6, 8, 10]
    code, out, _ = run(["rules", "classic"], capsys)  # a plugin and a preset: the plugin's page
    assert out.startswith("classic: ")
    assert "  players: 2 to 10" in out
    code, _, err = run(["rules", "no-such-preset"], capsys)
    assert code == EXIT_USAGE
    assert "presets: anything-goes, classic," in one_error_line(err)


def test_rules_check_a_preset_and_a_file(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "--check", "party"], capsys)
    assert code == EXIT_OK
    assert "rule set OK: plugins in registration order classic, jump-in, seven-o, stacking" in out
    code, out, _ = run(["rules", "--check", "./our-family.toml", "--json"], capsys)
    assert json.loads(out)["options"]["last_card_ban"] == "wild"


def test_rules_check_toml_writes_a_rulebook_that_reads_back(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["rules", "--check", "classic,stacking", "--option", "stack_mix=on", "--toml"], capsys)
    assert code == EXIT_OK
    book = Rulebook.from_toml(out)
    assert book.plugins == ("classic", "stacking")
    assert book.option_values == {"stack_mix": True}
    code, out, _ = run(["rules", "--check", "./our-family.toml", "--toml"], capsys)
    again = Rulebook.from_toml(out)
    assert (again.name, again.players) == ("The Smiths", (3, 4))
    code, _, err = run(["rules", "--toml"], capsys)
    assert code == EXIT_USAGE
    assert "--toml needs --check" in one_error_line(err)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('plugins = ["classic"]\n[options]\nstack_mixed = true\n', "line 3 (options.stack_mixed)"),
        ('plugins = ["classic", "nosuch"]\n', "line 1 (plugins): no plugin named 'nosuch'"),
        ("plugins = [\n", "not valid TOML"),
    ],
)
def test_a_bad_rulebook_is_a_usage_error_on_one_line(
    family: Path, text: str, fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    family.write_text(text, encoding="utf-8")
    for command in (["rules", "--check"], ["simulate", "--games", "1", "--rules"], ["play", "--rules"]):
        code, _, err = run([*command, "./our-family.toml"], capsys)
        assert code == EXIT_USAGE
        line = one_error_line(err)
        assert "our-family.toml" in line
        assert fragment in line
        assert "Traceback" not in err


def test_a_missing_rulebook_is_a_usage_error(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["play", "--rules", "./missing.toml"], capsys)
    assert code == EXIT_USAGE
    assert "no rules file './missing.toml'" in one_error_line(err)


def test_play_takes_the_rulebooks_player_count_and_refuses_others(
    family: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, _ = run(["play", "--rules", "./our-family.toml", "--seed", "1"], capsys)
    assert code == EXIT_OK
    assert "unorules play: The Smiths (classic,last-card,seven-o,stacking), 3 players" in out  # its name
    code, _, err = run(["play", "--rules", "./our-family.toml", "--players", "6"], capsys)
    assert code == EXIT_USAGE
    assert "'The Smiths' (./our-family.toml) is for 3 or 4 players, not 6" in one_error_line(err)


def test_play_a_preset_with_an_option_on_top(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, _ = run(["play", "--rules", "party", "--option", "stack_mix=on", "--seed", "2"], capsys)
    assert code == EXIT_OK
    assert "unorules play: party (classic,jump-in,seven-o,stacking), 4 players" in out


def test_simulate_compares_presets_and_a_rulebook(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        [
            "simulate",
            "--compare",
            "party",
            "./our-family.toml",
            "--games",
            "4",
            "--seed",
            "1",
            "--workers",
            "1",
            "--quiet",
            "--json",
        ],
        capsys,
    )
    assert code == EXIT_OK, err
    data = json.loads(out)
    assert [r["rules"] for r in data["results"]] == ["party", "./our-family.toml"]
    assert data["players"] == 4  # --players not given: the first rule set (a preset) says nothing: 4


def test_simulate_a_rulebook_plays_its_first_player_count(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        [
            "simulate",
            "--rules",
            "./our-family.toml",
            "--games",
            "2",
            "--seed",
            "1",
            "--workers",
            "1",
            "--quiet",
            "--json",
        ],
        capsys,
    )
    assert code == EXIT_OK, err
    assert json.loads(out)["players"] == 3


def test_simulate_hands_workers_a_rulebooks_own_options(
    family: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A worker process (Ray's, or a pool's that does not fork) rebuilds each rule set from the
    # simulation's plugins and options: the file's own options must be among them.
    from unorules import Ruleset, sim
    from unorules.cli import simulate

    made: list[sim.Simulation] = []
    real = simulate._simulations

    def spy(args: Any, seed: int | str) -> list[sim.Simulation]:
        made.extend(real(args, seed))
        return made

    monkeypatch.setattr(simulate, "_simulations", spy)
    args = ["simulate", "--rules", "./our-family.toml", "--games", "2", "--seed", "3", "--quiet"]
    code, _, err = run([*args, "--option", "stack_mix=on", "--workers", "1"], capsys)
    assert code == EXIT_OK, err
    (simulation,) = made
    rebuilt = Ruleset.from_names(list(simulation.plugins), dict(simulation.options))
    assert (rebuilt.options["last_card_ban"], rebuilt.options["stack_mix"]) == ("wild", True)


# -- in a terminal --------------------------------------------------------------------------------


def _spawn(*args: str, cwd: Path) -> object:
    pexpect = pytest.importorskip(
        "pexpect", reason="needs pexpect: pip install pexpect (python3 dev.py setup)"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(COLUMNS="100", LINES="40", TERM="xterm-256color", NO_COLOR="1")
    return pexpect.spawn(
        sys.executable,
        ["-m", "unorules", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 100),
        cwd=str(cwd),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


@pytest.mark.parametrize(
    "rules",
    [["--rules", "party", "--option", "target_score=150"], ["--rules", "./our-family.toml"]],
    ids=["preset", "rulebook-file"],
)
def test_a_whole_game_in_a_terminal_with_a_preset_or_a_family_file(rules: list[str]) -> None:
    import pexpect

    child = _spawn("play", "--seed", "5", *rules, cwd=DOCS)
    transcript = []
    while True:
        found = child.expect([r"> ", pexpect.EOF])  # type: ignore[attr-defined]
        transcript.append(child.before)  # type: ignore[attr-defined]
        if found == 1:
            break
        child.sendline("1")  # type: ignore[attr-defined]
    child.close()  # type: ignore[attr-defined]
    assert child.exitstatus == 0  # type: ignore[attr-defined]
    text = re.sub(r"\x1b\[[0-9;]*m", "", "".join(transcript).replace("\r\n", "\n"))
    assert re.search(r"^unorules play: (party|The Smiths) \(classic,", text, re.M)
    assert re.search(r"^round 1 is over: ", text, re.M)
    assert re.search(r"^game over: ", text, re.M)
    assert "Traceback" not in text

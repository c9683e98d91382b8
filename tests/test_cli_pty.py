"""``unorules play`` driven through a pseudo-terminal, as a person would play it (needs pexpect)."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect", reason="needs pexpect: pip install pexpect (python3 dev.py setup)")

RULES = "classic,stacking,seven-o,swap-hands"
COLOR_CODE = re.compile(r"\x1b\[(?:[0-9]+;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]")


def spawn(*args: str, color: bool = False) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(COLUMNS="100", LINES="40", TERM="xterm-256color")
    if not color:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "unorules", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 100),
        preexec_fn=_as_in_a_terminal,
    )


def _as_in_a_terminal() -> None:
    """Ctrl-C interrupts, as in a terminal's foreground job. Started in the
    background by a shell without job control (``... &``), the tests inherit
    SIGINT ignored, and an ignored signal stays ignored in the child, so the
    interrupt test would wait for nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_whole_game_in_a_terminal_says_what_happens_in_plain_words() -> None:
    child = spawn("play", "--seed", "1", "--players", "3", "--rules", RULES, "--option", "target_score=200")
    transcript = []
    while True:
        found = child.expect([r"> ", pexpect.EOF])
        transcript.append(child.before)
        if found == 1:
            break
        child.sendline("1")  # the first choice: the first playable card, a colour, a seat, a call
    child.close()
    assert child.exitstatus == 0
    raw = "".join(transcript).replace("\r\n", "\n")
    assert not COLOR_CODE.search(raw)  # NO_COLOR: bold and italic, but no colours
    text = re.sub(r"\x1b\[[0-9;]*m", "", raw)
    assert re.search(r"^  (you are|seat \d is) skipped$", text, re.M)
    assert re.search(r"^  (you|seat \d) must draw \d+ cards$", text, re.M)  # a penalty, with its count
    assert re.search(r"^  seat \d (swapped|traded) hands with you$", text, re.M)
    assert re.search(r"^  your hand is now( [RYGBW][0-9A-Z+]*( \([A-Za-z ]+\))?)+$", text, re.M)
    assert re.search(r"^round 1 is over: .* won the round, scoring \d+ points$", text, re.M)
    assert re.search(r"^ *you +│", text, re.M)  # the scores table
    assert re.search(r"^game over: (you|seat \d) reached the target score and won", text, re.M)
    assert "since your last turn: " in text


def test_colour_in_a_terminal_and_ctrl_c_ends_the_line() -> None:
    child = spawn("play", "--seed", "3", "--players", "3", color=True)
    child.expect("> ")
    assert COLOR_CODE.search(child.before)  # cards in colour on a terminal
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert child.before.replace("\r\n", "\n").endswith("\nunorules: error: interrupted\n")


def test_a_round_under_the_issues_house_rules_reads_as_words() -> None:
    """Issue 33: a round of classic + stacking + seven-o + jump-in + swap-hands in a terminal, the
    player taking every out-of-turn chance it is offered: the deal and its first card are
    announced, jump-ins, stacks and trades are said in words, and no line shows a rule id, an
    event's kind or a placeholder."""
    rules = "classic,stacking,seven-o,jump-in,swap-hands"
    child = spawn("play", "--seed", "11", "--players", "4", "--rules", rules)
    transcript = []
    while True:
        found = child.expect([r"round 1 is over[^\n]*\n", r"> ", pexpect.EOF])
        transcript.append(child.before + (child.after if found == 0 else ""))
        if found == 0:
            child.expect(r"> ")
            transcript.append(child.before)
            child.sendline("quit")
            child.expect(pexpect.EOF)
            break
        if found == 2:
            break
        child.sendline("1")  # the first choice, also every jump-in, catch or call offered
    child.close()
    assert child.exitstatus == 0
    text = re.sub(r"\x1b\[[0-9;]*m", "", "".join(transcript).replace("\r\n", "\n"))
    lines = text.splitlines()[1:]  # after the title line, which names the rule set
    assert re.search(r"^you dealt round 1; the first card is R5$", text, re.M)
    assert re.search(r"^(you|seat \d) jumped in out of turn with ", text, re.M)
    assert re.search(r"^seat \d stacked B\+2 \(Draw Two\): seat \d must draw 4 or stack$", text, re.M)
    assert re.search(r"^  you traded hands with seat \d$", text, re.M)
    assert re.search(r"^round 1 is over: seat \d went out and won the round, scoring \d+ points$", text, re.M)
    for line in lines:
        assert not re.search(r"\bR-[A-Z]", line), line
        assert not re.search(r"[{}]|\byou's\b|\b(round-end|hands-moved|swap-hands|jump-in|deal)\b", line), (
            line
        )


# -- issue 46 ----------------------------------------------------------------------------------------


def _saved_wild_start(folder: Path) -> Path:
    """A saved game of classic whose starter is a Wild: seat 0, the human, names its colour first."""
    from unorules.record import Session
    from unorules.testing import arrange_deck

    hands = ["R1 R2 G3 G4 B5 B6 Y7", "R3 R4 G5 G6 B7 B8 Y9", "R5 R6 G7 G8 B9 B1 Y2"]
    session = Session(
        "classic",
        3,
        deck=arrange_deck(hands, "W", draw="Y4 Y5", dealer=2),
        dealer=2,
        seed=1,
        headers={"Human": 0},
    )
    path = folder / "wild.unorules"
    path.write_text(session.record().dumps(), encoding="utf-8")
    return path


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text.replace("\r\n", "\n"))


def test_undo_against_bots_in_a_terminal(tmp_path: Path) -> None:
    """A card played, the bots' replies, then undo: all three taken back, the hand as it was;
    a draw cannot be taken back, and says why; quit says how to go on."""
    record = tmp_path / "kept.unorules"
    child = spawn("play", "--resume", str(_saved_wild_start(tmp_path)), "--record", str(record))
    child.expect("> ")
    child.sendline("color G")
    child.expect("> ")
    child.sendline("1")  # G3
    child.expect("> ")
    assert "seat 1 played G6" in _plain(child.before)
    child.sendline("undo")
    child.expect("> ")
    after = _plain(child.before)
    assert "taken back: you played G3, seat 1 played G6, and seat 2 played G8" in after
    assert "your hand (7 cards): R1 R2 Y7 1:G3 2:G4 B5 B6" in after
    assert "top W  colour green" in after
    child.sendline("d")
    child.expect("> ")
    child.sendline("undo")
    child.expect("> ")
    assert "cannot take it back: it showed you cards you had not seen" in _plain(child.before)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    end = _plain(child.before)
    assert f"saved in {record}: 'unorules play --resume {record}' goes on" in end


def test_prompts_say_only_what_the_rules_allow() -> None:
    """Under forced play the player who can play is not told to draw (seed 1: a card to play)."""
    child = spawn(
        "play", "--seed", "1", "--players", "3", "--rules", "classic,turn-rules", "--option", "forced_play=on"
    )
    child.expect("> ")
    shown = _plain(child.before)
    assert "\nyour turn: play a card\n" in shown
    assert "or draw" not in shown
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    plain = spawn("play", "--seed", "1", "--players", "3")
    plain.expect("> ")
    assert "\nyour turn: play a card or draw\n" in _plain(plain.before)
    plain.sendline("quit")
    plain.expect(pexpect.EOF)
    plain.close()


def test_replay_steps_one_position_per_key(tmp_path: Path) -> None:
    """``replay --step`` on a terminal: n (or Enter) forward, b back, q stops; --from starts later."""
    from unorules.record import play_bots
    from unorules.ruleset import Ruleset

    path = tmp_path / "game.unorules"
    game = play_bots(Ruleset.from_names(["classic"], {"target_score": 60}), ["heuristic"] * 3, seed=4)
    path.write_text(game.dumps(), encoding="utf-8")
    total = len(game.actions)
    child = spawn("replay", "--step", "--seat", "0", "--all-hands", str(path))
    child.expect(r"\] Enter/n: next  b: back  q: quit ")
    first = _plain(child.before)
    assert f"position 0 of {total}: the deal" in first
    assert "position 1 of" not in first  # one position, then it waits
    assert re.search(r"seat 1's hand: [RYGBW]", first)
    child.send("n")
    child.expect(r"\] Enter/n: next  b: back  q: quit ")
    assert f"position 1 of {total}: action 1, round 1" in _plain(child.before)
    child.send("\r")
    child.expect(r"\] Enter/n: next  b: back  q: quit ")
    assert f"position 2 of {total}: action 2" in _plain(child.before)
    child.send("b")
    child.expect(r"\] Enter/n: next  b: back  q: quit ")
    assert f"position 1 of {total}: action 1, round 1" in _plain(child.before)
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    late = spawn("replay", "--step", "--from", str(total), str(path))
    late.expect(r"\] Enter/n: next  b: back  q: quit ")
    assert "[the end of the game]" in _plain(late.before + late.after)
    assert "game over" in _plain(late.before)
    late.send("n")
    late.expect("this is the last position")
    late.send("q")
    late.expect(pexpect.EOF)
    late.close()
    assert late.exitstatus == 0

"""``unorules play`` driven through a pseudo-terminal, as a person would play it (needs pexpect)."""

from __future__ import annotations

import os
import re
import signal
import sys

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

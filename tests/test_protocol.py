"""The bot protocol: bots as programs in any language (unorules.protocol).

A bot written in JavaScript (examples/bots/first_card.js, run by node) plays
whole games through the protocol, in the library and from the command line;
programs that answer late, wrongly or not at all are refused with errors.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from unorules import Ruleset
from unorules.bots import BotError, HeuristicBot, make_bot, play_game
from unorules.protocol import LINE_LIMIT, PROTOCOL, QUIT_GRACE, CommandBot

ROOT = Path(__file__).resolve().parents[1]
NODE_BOT = ROOT / "examples" / "bots" / "first_card.js"
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _rules(**options: object) -> Ruleset:
    return Ruleset.from_names(["classic"], options={"target_score": 150, **options})


@needs_node
def test_a_javascript_bot_plays_a_whole_game() -> None:
    with CommandBot([str(NODE), str(NODE_BOT)], seed=1) as bot:
        final = play_game(_rules().new_game(players=2, seed=3), [bot, HeuristicBot(seed=2)])
        assert bot.name == "first-card.js"  # from its hello
    assert final.is_over


@needs_node
def test_a_javascript_bot_plays_from_the_command_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "unorules",
            "simulate",
            "--players",
            "3",
            "--games",
            "4",
            "--seed",
            "5",
            "--option",
            "target_score=100",
            "--bot",
            f"cmd:{NODE} {NODE_BOT}",
            "--bot",
            "heuristic",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    (result,) = data["results"]
    assert result["games"] == 4
    assert result["failed"] == 0
    assert result["seat_bots"] == [f"cmd:{NODE} {NODE_BOT}", "heuristic", f"cmd:{NODE} {NODE_BOT}"]


@needs_node
def test_a_javascript_bot_is_made_by_name() -> None:
    bot = make_bot(f"cmd:{NODE} {NODE_BOT}", seed=3)
    assert isinstance(bot, CommandBot)
    try:
        final = play_game(_rules().new_game(players=2, seed=4), [HeuristicBot(seed=1), bot])
    finally:
        bot.close()
    assert final.is_over


def _program(tmp_path: Path, body: str) -> list[str]:
    """A bot program in Python: ``body`` handles each message ``m`` (a dict); ``say``
    writes one line."""
    script = tmp_path / "bot.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys, time
            def say(obj):
                sys.stdout.write(json.dumps(obj) + "\\n")
                sys.stdout.flush()
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "hello":
                    say({"type": "hello", "name": "test-bot"})
                    continue
            """
        )
        + textwrap.indent(textwrap.dedent(body), "    "),
        encoding="utf-8",
    )
    return [sys.executable, str(script)]


def _first_turn(tmp_path: Path, body: str, timeout: float = 5.0) -> BotError:
    state = _rules().new_game(players=2, seed=1)
    seat = state.current_player
    bot = CommandBot(
        _program(tmp_path, body), timeout=timeout, start_timeout=60.0
    )  # a loaded CI machine starts Python slowly
    try:
        with pytest.raises(BotError) as caught:
            bot.choose(state.view(seat))
    finally:
        bot.close()
    return caught.value


def test_an_answer_that_is_late_is_refused(tmp_path: Path) -> None:
    error = _first_turn(tmp_path, 'if m["type"] == "act":\n    time.sleep(5)\n', timeout=0.3)
    assert "did not answer 'act' within 0.3 s" in str(error)


def test_an_illegal_action_is_refused(tmp_path: Path) -> None:
    body = 'if m["type"] == "act":\n    say({"type": "action", "action": str(m["view"]["seat"]) + ": uno"})\n'
    error = _first_turn(tmp_path, body)
    assert "which is not legal now" in str(error)


def test_another_seats_action_is_refused(tmp_path: Path) -> None:
    body = 'if m["type"] == "act":\n    say({"type": "action", "action": "9: draw"})\n'
    error = _first_turn(tmp_path, body)
    assert "an action of seat 9" in str(error)


def test_text_that_is_not_an_action_is_refused(tmp_path: Path) -> None:
    body = 'if m["type"] == "act":\n    say({"type": "action", "action": "a little dance"})\n'
    error = _first_turn(tmp_path, body)
    assert "not an action" in str(error)


def test_a_line_that_is_not_json_is_refused(tmp_path: Path) -> None:
    body = 'if m["type"] == "act":\n    print("I play the red seven", flush=True)\n'
    error = _first_turn(tmp_path, body)
    assert "not JSON" in str(error)


def test_nothing_on_its_turn_is_refused(tmp_path: Path) -> None:
    body = 'if m["type"] == "act":\n    say({"type": "action", "action": None})\n'
    error = _first_turn(tmp_path, body)
    assert "chose nothing on its turn" in str(error)


def test_a_program_that_exits_is_refused_with_its_last_words(tmp_path: Path) -> None:
    body = 'if m["type"] == "act":\n    sys.stderr.write("out of ideas\\n"); sys.exit(3)\n'
    error = _first_turn(tmp_path, body)
    assert "exited" in str(error)
    assert "exited with code 3" in str(error)
    assert "out of ideas" in str(error)


def test_a_program_that_cannot_start_is_refused(tmp_path: Path) -> None:
    bot = CommandBot([str(tmp_path / "no-such-program")])
    state = _rules().new_game(players=2, seed=1)
    with pytest.raises(BotError, match="cannot start bot program"):
        bot.choose(state.view(state.current_player))


def test_the_host_sends_hello_game_views_and_quit(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    body = f"""
    with open({str(log)!r}, "a") as out:
        out.write(json.dumps(m) + "\\n")
    if m["type"] == "act":
        say({{"type": "action", "action": m["view"]["legal_actions"][0]}})
    """
    bot = CommandBot(_program(tmp_path, body), seed="s1")
    state = _rules().new_game(players=2, seed=2)
    bots = [bot, HeuristicBot(seed=1)]
    from unorules.bots import next_action

    for _ in range(6):
        state = state.apply(next_action(state, bots))
    bot.close()
    kinds = [json.loads(line)["type"] for line in log.read_text().splitlines()]
    assert kinds[0] == "game"
    assert kinds[-1] == "quit"
    assert "view" in kinds
    first = json.loads(log.read_text().splitlines()[0])
    assert first == {"type": "game", "seat": 0, "players": 2, "rules": state.view(0).ruleset, "seed": "s1"}
    assert PROTOCOL == "unorules.bot/1"


def test_a_command_is_needed() -> None:
    with pytest.raises(ValueError, match="needs a command"):
        CommandBot("")
    with pytest.raises(ValueError, match="cmd: needs an argument"):
        make_bot("cmd:")


# -- programs that misbehave cannot take the host down (issue 48, points 4 and 5) ------------


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "\nState:\tZ" in status.read_text())


def _peak_while(call: Callable[[], object]) -> int:
    """The most memory (bytes, as tracemalloc sees it) allocated while ``call`` runs."""
    tracemalloc.start()
    try:
        call()
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak


def test_an_endless_line_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    body = (
        'if m["type"] == "act":\n'
        '    for _ in range(60):\n        sys.stdout.write("x" * 1_000_000)\n'
        "    sys.stdout.flush(); time.sleep(30)\n"
    )
    errors: list[BotError] = []
    peak = _peak_while(lambda: errors.append(_first_turn(tmp_path, body, timeout=20.0)))
    assert f"wrote a line longer than {LINE_LIMIT} bytes" in str(errors[0])
    assert peak < 8 * LINE_LIMIT  # 60 MB were written: a few chunks beyond the limit are read


def test_a_flood_on_standard_error_keeps_only_its_tail(tmp_path: Path) -> None:
    body = (
        'if m["type"] == "act":\n'
        '    for _ in range(60):\n        sys.stderr.write("e" * 1_000_000)\n'
        '    sys.stderr.write("\\nthe last words\\n"); sys.stderr.flush(); sys.exit(4)\n'
    )
    errors: list[BotError] = []
    peak = _peak_while(lambda: errors.append(_first_turn(tmp_path, body, timeout=20.0)))
    assert "exited with code 4" in str(errors[0])
    assert "the last words" in str(errors[0])
    assert peak < 4 * 1 << 20


def test_bytes_that_are_not_utf8_are_named_while_the_program_runs(tmp_path: Path) -> None:
    body = 'if m["type"] == "act":\n    sys.stdout.buffer.write(b"\\xff\\xfe{}\\n"); sys.stdout.flush()\n'
    error = _first_turn(tmp_path, body)
    assert "sent bytes that are not UTF-8" in str(error)
    assert "exited" not in str(error)


def test_a_program_that_exits_while_its_child_holds_its_output_is_said_to_have_exited(
    tmp_path: Path,
) -> None:
    body = 'if m["type"] == "act":\n    import subprocess; subprocess.Popen(["sleep", "60"]); sys.exit(5)\n'
    started = time.monotonic()
    error = _first_turn(tmp_path, body, timeout=20.0)
    assert "exited with code 5" in str(error)
    assert time.monotonic() - started < 15  # not the act timeout


def test_closing_a_program_ends_the_processes_it_started(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    body = f"""
    if m["type"] == "game":
        import subprocess
        child = subprocess.Popen(["sleep", "60"])
        open({str(pids)!r}, "w").write(str(child.pid))
    if m["type"] == "act":
        say({{"type": "action", "action": m["view"]["legal_actions"][0]}})
    if m["type"] == "quit":
        break
    """
    state = _rules().new_game(players=2, seed=1)
    bot = CommandBot(_program(tmp_path, body), start_timeout=60.0)
    bot.choose(state.view(state.current_player))
    child = int(pids.read_text())
    assert _alive(child)
    bot.close()
    for _ in range(50):
        if not _alive(child):
            break
        time.sleep(0.1)
    assert not _alive(child)


def test_a_program_that_ignores_quit_is_killed_with_its_group(tmp_path: Path) -> None:
    body = 'if m["type"] == "act":\n    say({"type": "action", "action": m["view"]["legal_actions"][0]})\n'
    script = _program(tmp_path, body)
    stubborn = tmp_path / "stubborn.py"
    stubborn.write_text(
        "import signal, subprocess, sys\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        f"subprocess.run([sys.executable, {script[1]!r}])\nimport time\ntime.sleep(60)\n",
        encoding="utf-8",
    )
    state = _rules().new_game(players=2, seed=1)
    bot = CommandBot([sys.executable, str(stubborn)], start_timeout=60.0)
    bot.choose(state.view(state.current_player))
    process = bot._process
    assert process is not None
    started = time.monotonic()
    bot.close()
    assert time.monotonic() - started < QUIT_GRACE + 3
    assert process.poll() is not None

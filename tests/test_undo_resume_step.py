"""Undo, resume and step-through (issue 33, item 3).

``unorules play`` takes ``undo`` (a friendly take-back: the player's own last action while
nobody has acted since, unless it brought cards to light or ended the round,
``Session.take_back``), ``--resume RECORD`` goes on with a game saved by ``--record``, and
``unorules replay --step`` shows every position from a seat or as a spectator, each action and
its events in words.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from unorules.bots import make_bot, next_action
from unorules.cli import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main
from unorules.record import GameRecord, Session, SessionError, take_back_point
from unorules.testing import arrange_deck, rearranged

HANDS = ["R1 R2 G3 G4 B5 B6 Y7", "R3 R4 G5 G6 B7 B8 Y9", "R5 R6 G7 G8 B9 B1 Y2"]
RULE_ID = re.compile(r"\bR-[A-Z]")


def _wild_start(path: Path) -> Path:
    """A saved game whose starter is a Wild: seat 0, the human, names its colour first."""
    deck = arrange_deck(HANDS, "W", draw="Y4 Y5", dealer=2)
    session = Session("classic", 3, deck=deck, dealer=2, seed=1, headers={"Human": 0})
    path.write_text(session.record().dumps(), encoding="utf-8")
    return path


def _run(
    args: list[str], lines: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# -- Session.take_back ---------------------------------------------------------------------------


def test_take_back_only_the_last_action_of_the_game_that_showed_nothing() -> None:
    session = Session("classic", 3, deck=arrange_deck(HANDS, "W", draw="Y4", dealer=2), dealer=2)
    start = session.state
    with pytest.raises(SessionError, match="you have taken no action"):
        session.take_back(0)
    session.apply("0: color Y")
    assert session.why_not_take_back(0) is None
    assert [str(a) for a in session.take_back(0)] == ["0: color Y"]
    assert session.state == start
    session.apply("0: color Y")
    drew = session.apply("0: draw")  # Y4, playable: still seat 0's decision
    assert drew.current_player == 0
    with pytest.raises(SessionError, match="it showed you cards you had not seen"):
        session.take_back(0)
    assert session.state == drew  # refused: nothing changed
    session.apply("0: play Y4")
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    session.apply(next_action(session.state, bots))
    with pytest.raises(SessionError, match="seat 1 acted after it"):
        session.take_back(0)  # without bots: another seat's action is its own


# -- take-backs against bots (issue 46) --------------------------------------------------------------

BOT_HANDS = ["R1 R2 G3 G4 B5 B6 Y7", "Y3 Y4 G5 G6 B7 B8 Y9", "R5 R6 G7 G8 B9 B1 Y2"]


def test_take_back_with_the_bots_replies_restores_the_position() -> None:
    """The player's action and the bots' replies since go back together, the player's first."""
    deck = arrange_deck(BOT_HANDS, "R9", draw="G2 Y8 B3", dealer=2)
    session = Session("classic", 3, deck=deck, dealer=2, seed=1)
    before = session.state
    session.apply("0: play R1")
    session.apply("1: draw")  # seat 1 has no red and no 1: it draws G2 unseen by seat 0, and keeps it
    assert session.state.current_player == 2
    session.apply("2: play R5")
    assert session.why_not_take_back(0, {1, 2}) is None
    taken = session.take_back(0, {1, 2})
    assert [str(a) for a in taken] == ["0: play R1", "1: draw", "2: play R5"]
    assert session.state == before
    assert session.history == ()
    with pytest.raises(SessionError, match="you have taken no action"):
        session.take_back(0, {1, 2})


def test_take_back_refuses_what_showed_the_player_a_card_or_ended_the_round() -> None:
    deck = arrange_deck(BOT_HANDS, "R9", draw="G2 Y8 B3", dealer=2)
    session = Session("classic", 3, deck=deck, dealer=2, seed=1)
    session.apply("0: play R1")
    session.apply("1: draw")
    session.apply("2: play R5")
    session.apply("0: draw")  # G2 went to seat 1 unseen; the player draws Y8 and sees it
    with pytest.raises(SessionError, match="it showed you cards you had not seen") as refused:
        session.take_back(0, {1, 2})
    assert "what was seen cannot be unseen" in str(refused.value)
    # a bot's reply that makes another bot draw shows the player nothing: the take-back stands;
    # one that makes the player draw (a Draw Two aimed at the player) refuses it
    hands = ["R1 R2 G3 G4 B5 B6 Y7", "R+2 Y4 G5 G6 B7 B8 Y9", "R5 R+2 G7 G8 B9 B1 Y2"]
    game = Session("classic", 3, deck=arrange_deck(hands, "R9", draw="G2 Y8 B3 B4", dealer=2), dealer=2)
    game.apply("0: play R1")
    game.apply("1: play R+2")
    game.apply("2: draw")  # seat 2 draws two, unseen by seat 0
    assert game.why_not_take_back(0, {1, 2}) is None
    traded = ["R1 R2 G3 G4 B5 B6 Y7", "R7 Y4 G5 G6 B7 B8 Y9", "R5 R6 G7 G8 B9 B1 Y2"]
    seven = Session("classic,seven-o", 3, deck=arrange_deck(traded, "R9", draw="G2", dealer=2), dealer=2)
    seven.apply("0: play R1")
    seven.apply("1: play R7 0")  # seat 1 trades hands with the player: the player sees new cards
    assert seven.why_not_take_back(0, {1, 2}) == (
        "seat 1's reply showed you cards you had not seen (new cards in your hand): "
        "what was seen cannot be unseen"
    )


def test_take_back_refuses_another_persons_action_and_the_end_of_a_round() -> None:
    deck = arrange_deck(BOT_HANDS, "R9", draw="G2 Y8 B3", dealer=2)
    session = Session("classic", 3, deck=deck, dealer=2, seed=1)
    session.apply("0: play R1")
    session.apply("1: draw")
    assert session.why_not_take_back(0, {2}) == (
        "seat 1 acted after it: only the bots' replies are taken back with it"
    )
    last_card = rearranged(Session("classic", 3, deck=deck, dealer=2, seed=1).state, hands={0: "R1"})
    ended = last_card.apply("0: play R1")  # the player's last card: the round is over
    with pytest.raises(SessionError, match=r"^it ended the round$"):
        take_back_point([last_card, ended], 0, {1, 2})


# -- play: undo ------------------------------------------------------------------------------------


def test_play_undo_takes_back_a_colour_named_and_a_card_with_the_bots_replies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = _wild_start(tmp_path / "wild.unorules")
    code, out, err = _run(
        ["play", "--resume", str(saved)],
        "color R\nundo\ncolor G\n1\nundo\nquit\n",
        monkeypatch,
        capsys,
    )
    assert code == EXIT_OK, err
    assert "\nyou named red\n" in out
    assert "\ntaken back: you named red\n" in out
    assert "\nyou named green\n" in out  # the colour named again after the take-back
    assert "\ntaken back: you played G3, seat 1 played G6, and seat 2 played G8\n" in out
    assert (
        out.split("taken back: you played G3")[1].count("your hand (7 cards): R1 R2 Y7 1:G3 2:G4 B5 B6") == 1
    )
    assert "cannot take it back" not in out
    assert "not understood" not in out


def test_play_undo_refuses_a_draw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = _wild_start(tmp_path / "wild.unorules")
    code, out, _ = _run(["play", "--resume", str(saved)], "color Y\nd\nundo\nquit\n", monkeypatch, capsys)
    assert code == EXIT_OK
    assert "\nyou drew Y4\n" in out
    assert "cannot take it back: it showed you cards you had not seen (new cards in your hand)" in out


def test_play_undo_before_any_action(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(["play", "--seed", "3", "--players", "3"], "undo\nquit\n", monkeypatch, capsys)
    assert code == EXIT_OK
    assert "cannot take it back: you have taken no action to take back" in out


# -- play: --resume --------------------------------------------------------------------------------


def test_play_resume_goes_on_with_a_saved_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "game.unorules"
    args = ["play", "--seed", "3", "--players", "3", "--seat", "1", "--record", str(saved)]
    code, _, err = _run(args, "1\n1\n1\nquit\n", monkeypatch, capsys)
    assert code == EXIT_OK, err
    first = GameRecord.parse(saved.read_text(encoding="utf-8"))
    assert dict(first.headers)["Human"] == 1
    assert first.actions
    code, out, err = _run(
        ["play", "--resume", str(saved), "--record", str(saved)], "1\nquit\n", monkeypatch, capsys
    )
    assert code == EXIT_OK, err
    assert f"resumed after {len(first.actions)} actions, in round 1" in out
    assert "; you are seat 1;" in out
    again = GameRecord.parse(saved.read_text(encoding="utf-8"))
    assert again.actions[: len(first.actions)] == first.actions
    assert len(again.actions) > len(first.actions)
    assert again.replay() is not None


def test_play_resume_refuses_what_the_record_decides_and_a_finished_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = _wild_start(tmp_path / "wild.unorules")
    code, _, err = _run(["play", "--resume", str(saved), "--rules", "classic"], "", monkeypatch, capsys)
    assert code == EXIT_USAGE
    assert "--resume takes the rule set, players and seed from the record: leave out --rules" in err
    code, _, err = _run(["play", "--resume", str(tmp_path / "none")], "", monkeypatch, capsys)
    assert code == EXIT_FAILURE
    assert "cannot read" in err
    session = Session("classic target_score=30", 2, seed=4)
    bots = [make_bot("random", seed=s) for s in range(2)]
    while not session.state.is_over:
        session.apply(next_action(session.state, bots))
    over = tmp_path / "over.unorules"
    over.write_text(session.record().dumps(), encoding="utf-8")
    code, _, err = _run(["play", "--resume", str(over)], "", monkeypatch, capsys)
    assert code == EXIT_FAILURE
    assert "the game is over; 'unorules replay --step" in err
    assert "Traceback" not in err


# -- replay --step ---------------------------------------------------------------------------------


def _finished(tmp_path: Path) -> Path:
    session = Session("classic,stacking,seven-o,jump-in target_score=60", 3, seed=2)
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    while not session.state.is_over:
        session.apply(next_action(session.state, bots))
    path = tmp_path / "game.unorules"
    path.write_text(session.record().dumps(), encoding="utf-8")
    return path


def test_replay_step_shows_every_position_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _finished(tmp_path)
    record = GameRecord.parse(path.read_text(encoding="utf-8"))
    assert main(["replay", "--step", str(path)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "seen by a spectator" in out
    assert re.search(r"^seat \d dealt round 1; the first card is ", out, re.M)
    assert len(re.findall(r"^position \d+ of \d+: action \d+, round \d$", out, re.M)) == len(record.actions)
    assert re.search(r"went out and won the round, scoring \d+ points", out)
    assert re.search(r"^game over: seat \d reached the target score and won$", out, re.M)
    assert "your hand" not in out
    assert not RULE_ID.search(out)
    assert "round-end" not in out
    assert "{" not in out
    assert main(["replay", "--step", "--seat", "2", str(path)]) == EXIT_OK
    mine = capsys.readouterr().out
    assert "seen by seat 2" in mine
    assert mine.count("your hand: ") >= len(record.actions) // 2
    assert re.search(r"^you drew [RYGBW]", mine, re.M)  # seat 2 sees its own draws' cards
    assert re.search(r"^seat [01] drew (a card|\d+ cards)", mine, re.M)  # the others' only counted


def test_replay_step_from_a_position_with_every_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 46: ``--from N`` begins after action N; ``--all-hands`` shows every hand."""
    path = _finished(tmp_path)
    record = GameRecord.parse(path.read_text(encoding="utf-8"))
    assert main(["replay", "--step", "--from", "5", "--seat", "0", "--all-hands", str(path)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "position 4 of" not in out
    assert f"\nposition 5 of {len(record.actions)}: action 5, round 1\n" in out
    assert re.search(r"^  seat 1's hand: [RYGBW]", out, re.M)
    assert re.search(r"^  seat 2's hand: [RYGBW]", out, re.M)
    assert "seat 0's hand" not in out  # the reader's own is "your hand"
    assert main(["replay", "--step", "--from", "9999", str(path)]) == EXIT_USAGE
    assert "--from 9999: the record has positions 0 to" in capsys.readouterr().err
    assert main(["replay", "--all-hands", str(path)]) == EXIT_USAGE


def test_replay_step_seat_must_exist_and_needs_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _finished(tmp_path)
    assert main(["replay", "--step", "--seat", "5", str(path)]) == EXIT_USAGE
    assert "--seat 5: seats are 0 to 2" in capsys.readouterr().err
    assert main(["replay", "--seat", "1", str(path)]) == EXIT_USAGE
    assert "--seat needs --step" in capsys.readouterr().err


def test_a_records_comments_say_what_each_action_did(tmp_path: Path) -> None:
    """Records carry, after each action, what else it did in a spectator's words; they read
    back with the record, and name no card another seat drew."""
    path = _finished(tmp_path)
    text = path.read_text(encoding="utf-8")
    record = GameRecord.parse(text)
    assert record.dumps() == text
    commented = [c for c in record.comments if c]
    assert any(re.fullmatch(r"seat \d drew (a card|\d+ cards)( as a penalty)?", c) for c in commented)
    assert any("went out and won the round" in c for c in commented)
    assert not any(re.search(r"drew [RYGBW]", c) for c in commented)
    assert not any(RULE_ID.search(c) for c in commented)


def test_two_identical_playable_cards_are_one_numbered_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seen in the issue's transcript: a hand holding R9 twice read "2:R9 2:R9" with "1" and "2"
    both playing R9; each card is one choice, numbered once."""
    hands = ["R9 R9 G3 G4 B5 B6 Y7", "R3 R4 G5 G6 B7 B8 Y9", "R5 R6 G7 G8 B9 B1 Y2"]
    session = Session("classic", 3, deck=arrange_deck(hands, "R2", dealer=2), dealer=2, headers={"Human": 0})
    saved = tmp_path / "nines.unorules"
    saved.write_text(session.record().dumps(), encoding="utf-8")
    code, out, _ = _run(["play", "--resume", str(saved)], "quit\n", monkeypatch, capsys)
    assert code == EXIT_OK
    assert "your hand (7 cards): 1:R9 1:R9 Y7 G3 G4 B5 B6" in out
    assert "or: 2:draw" in out

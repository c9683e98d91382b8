"""Game records and sessions: writing, parsing (errors with line numbers),
replaying (the first illegal action with its line and rule), undo; the
command line's ``replay``, ``play --record`` and ``simulate --records``
give records that replay to the same final state."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from test_embedding import COMBINATIONS  # type: ignore[import-not-found]

import unorules
from unorules import Ruleset
from unorules.bots import RandomBot, make_bot, next_action
from unorules.cli import main
from unorules.record import (
    GameRecord,
    RecordError,
    RecordFormatError,
    RecordReplayError,
    Session,
    SessionError,
    play_bots,
)
from unorules.schemas import schema
from unorules.testing.embedding import random_states
from unorules.testing.strategies import build_ruleset, supported_players


def _session(spec: str = "classic,stacking", players: int = 3, actions: int = 80, seed: int = 5) -> Session:
    session = Session(spec, players=players, seed=seed, headers={"Event": "tests"})
    bots = [RandomBot(s) for s in range(players)]
    for _ in range(actions):
        if session.state.is_over:
            break
        session.apply(next_action(session.state, bots))
    return session


def test_a_record_round_trips_through_text_and_replays_to_the_same_state() -> None:
    session = _session()
    record = session.record()
    text = record.dumps()
    assert text.startswith(
        '# unorules game record\n[Format "unorules.record/1"]\n[Ruleset "classic,stacking"]'
    )
    assert '[Players 3]\n[Seed 5]\n[Result "*"]\n[Event "tests"]\n\n' in text
    assert text.count("\n") == len(record.header_items()) + 2 + len(session.history)
    parsed = GameRecord.parse(text)
    assert parsed == record
    assert parsed.replay() == session.state
    assert list(parsed.states()) == list(session.states)


def test_comments_blank_lines_and_text_seeds() -> None:
    session = Session("classic", players=2, seed="club/7")
    session.apply(session.state.legal_actions()[0])
    lines = session.record().dumps().splitlines()
    commented = ["# a saved game", *lines[1:-1], "", f"{lines[-1]}   # the first move", "# the end", ""]
    record = GameRecord.parse("\n".join(commented))
    assert record.seed == "club/7"
    assert record.replay() == session.state
    assert GameRecord.parse(record.dumps().replace('[Seed "club/7"]', "[Seed 7]")).seed == 7


def test_arranged_decks_and_dealers_are_recorded() -> None:
    deck = unorules.testing.arrange_deck(["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7"], "B5", dealer=1)
    session = Session("classic", players=2, deck=deck, dealer=1, seed=3)
    session.apply("0: play B5" if session.state.is_legal("0: play B5") else session.state.legal_actions()[0])
    record = GameRecord.parse(session.record().dumps())
    assert record.deck is not None
    assert record.deck[:7] == session.deck[:7]  # type: ignore[index]
    assert (record.dealer, record.seed) == (1, 3)
    assert record.replay() == session.state


def test_the_first_illegal_action_is_reported_with_its_line_and_rule() -> None:
    session = _session(actions=30)
    lines = session.record().dumps().splitlines()
    first_action = lines.index("") + 1
    target = first_action + 10
    seat = int(lines[target].split(":")[0])
    lines[target] = f"{(seat + 1) % 3}: draw"  # not that seat's turn
    with pytest.raises(RecordReplayError) as caught:
        GameRecord.parse("\n".join(lines)).replay()
    assert caught.value.line == target + 1
    assert caught.value.rule is not None
    assert caught.value.rule.startswith("R-")
    assert str(caught.value).startswith(f"line {target + 1}: action 11 ({(seat + 1) % 3}: draw) is illegal")
    assert isinstance(caught.value, RecordError)
    assert isinstance(caught.value, unorules.UnorulesError)


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (
            lambda t: t.replace("[Players 3]", "[Players three]"),
            4,
            "neither text in double quotes nor an integer",
        ),
        (lambda t: t.replace("[Players 3]", '[Players "3"]'), 4, "header Players: expected an integer"),
        (lambda t: t.replace("[Players 3]", "[Players 12]"), 4, "2 to 10 seats"),
        (
            lambda t: t.replace('[Format "unorules.record/1"]', '[Format "pgn"]'),
            2,
            "expected 'unorules.record/1'",
        ),
        (lambda t: t.replace('[Ruleset "classic,stacking"]\n', ""), None, "missing header [Ruleset"),
        (lambda t: t + "[Late 1]\n", -1, "a header after the first action"),
        (lambda t: t + "0: waltz\n", -1, "not an action: unknown verb 'waltz'"),
        (lambda t: t.replace("[Seed 5]", "Seed 5]"), 5, "not an action"),
        (lambda t: t.replace("[Seed 5]", "[Seed 5]\n[Seed 6]"), 6, "header 'Seed' given twice"),
        (lambda t: t.replace('[Result "*"]', '[Result "north"]'), 6, "header Result"),
        (lambda t: t.replace("[Seed 5]", '[Seed 5]\n[Deck "R7 Q9"]'), 6, "header Deck: bad card 'Q9'"),
    ],
)
def test_bad_record_text_is_refused_with_its_line(change: object, line: int | None, message: str) -> None:
    text = _session(actions=5).record().dumps()
    bad = change(text)  # type: ignore[operator]
    with pytest.raises(RecordFormatError) as caught:
        GameRecord.parse(bad)
    expected = len(bad.splitlines()) if line == -1 else line
    assert caught.value.line == expected, caught.value
    assert message in str(caught.value)


def test_a_wrong_result_header_or_an_unknown_rule_set_fails_the_replay() -> None:
    session = _session(spec="classic", players=2, actions=100_000)
    assert session.state.is_over
    text = session.record().dumps()
    winner = session.state.outcome.winners[0]  # type: ignore[union-attr]
    with pytest.raises(RecordReplayError, match="the Result header says") as caught:
        GameRecord.parse(text.replace(f'[Result "{winner}"]', f'[Result "{1 - winner}"]')).replay()
    assert caught.value.line == 6
    with pytest.raises(RecordReplayError, match=r"cannot deal this game: .*no plugin named 'nonesuch'"):
        GameRecord.parse(text.replace('"classic"', '"classic,nonesuch"')).replay()


def test_session_undo_history_and_resume_from_a_record() -> None:
    session = _session(actions=20)
    before = session.states[-2]
    last = session.history[-1]
    assert session.undo() is last
    assert session.state == before
    assert len(session.history) == 19
    resumed = Session.from_record(GameRecord.parse(session.record().dumps()))
    assert resumed.state == session.state
    assert resumed.history == session.history
    action = session.state.legal_actions()[0]
    assert resumed.apply(action) == session.apply(action)
    with pytest.raises(unorules.IllegalActionError):
        session.apply("0: challenge")
    assert len(session.history) == 20  # unchanged by the refusal
    empty = Session("classic", players=2, seed=1)
    with pytest.raises(SessionError, match="nothing to undo"):
        empty.undo()
    assert isinstance(Session("classic", players=2).seed, int)  # a seed is drawn and kept


def test_record_data_matches_its_json_schema_and_reads_back() -> None:
    record = _session(actions=40).record()
    data = record.to_data()
    jsonschema.validate(data, schema("record"))
    assert GameRecord.from_data(json.loads(json.dumps(data))) == record
    with pytest.raises(RecordFormatError):
        GameRecord.from_data({"format": "nope"})


@pytest.mark.parametrize("combo", COMBINATIONS, ids="+".join)
def test_records_of_random_games_replay_to_the_same_state(combo: tuple[str, ...]) -> None:
    rules = build_ruleset(combo)
    assert isinstance(rules, Ruleset)
    players = supported_players(rules, (3, 4, 2))[0]
    states = list(random_states(rules, players, seed=f"record/{'+'.join(combo)}", steps=120))
    session = Session(rules, players, seed=f"record/{'+'.join(combo)}")
    for state in states[1:]:
        assert state.last_action is not None
        session.apply(state.last_action)
    assert session.state == states[-1]
    assert GameRecord.parse(session.record().dumps()).replay() == states[-1]


# -- the command line ---------------------------------------------------------------------------------


def _bots_game(spec: str, bots: list[str], seed: str, index: int) -> unorules.GameState:
    """The game ``unorules.sim`` plays, played here independently."""
    rules = Ruleset.from_spec_text(spec)
    state = rules.new_game(players=len(bots), seed=f"{seed}/{index}")
    seat_bots = [make_bot(b, seed=f"{seed}/{index}/{s}") for s, b in enumerate(bots)]
    while not state.is_over:
        state = state.apply(next_action(state, seat_bots))
    return state


def test_simulate_records_replay_to_the_games_the_simulation_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "records"
    code = main(
        ["simulate", "--rules", "classic,stacking", "--option", "target_score=60", "--games", "3"]
        + ["--players", "3", "--seed", "9", "--workers", "1", "--quiet", "--records", str(folder)]
    )
    assert code == 0, capsys.readouterr().err
    files = sorted(folder.iterdir())
    assert len(files) == 3
    for index, path in enumerate(files):
        record = GameRecord.parse(path.read_text())
        assert dict(record.headers)["Game"] == index
        expected = _bots_game(record.ruleset, ["heuristic", "random", "heuristic"], "9", index)
        assert record.replay() == expected
        capsys.readouterr()
        assert main(["replay", str(path)]) == 0
        out = capsys.readouterr().out
        assert f"game over ({expected.outcome.reason})" in out  # type: ignore[union-attr]
        assert main(["replay", "--state", str(path)]) == 0
        assert unorules.GameState.from_json(capsys.readouterr().out) == expected


def test_replay_names_the_line_and_the_rule_of_an_illegal_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = play_bots(Ruleset.from_spec_text("classic target_score=60"), ["random", "random"], seed=1)
    lines = record.dumps().splitlines()
    target = lines.index("") + 3
    seat = int(lines[target].split(":")[0])
    lines[target] = f"{1 - seat}: draw"
    path = tmp_path / "bad.unorules"
    path.write_text("\n".join(lines))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}: line {target + 1}: action 3 ({1 - seat}: draw) is illegal [R-" in err
    assert "Traceback" not in err
    assert main(["replay", str(tmp_path / "missing.unorules")]) == 1
    assert "cannot read" in capsys.readouterr().err
    path.write_text("[Players 3]\n")
    assert main(["replay", str(path)]) == 1
    assert "missing header [Format" in capsys.readouterr().err


def test_play_record_writes_a_record_that_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.unorules"
    moves = "\n".join(["1"] * 3000)  # always the first legal action listed (draw when nothing else)
    monkeypatch.setattr(sys, "stdin", io.StringIO(moves + "\n"))
    code = main(
        ["play", "--rules", "classic", "--option", "target_score=30", "--players", "2", "--seed", "4"]
        + ["--record", str(path)]
    )
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    record = GameRecord.parse(path.read_text())
    assert (record.ruleset, record.players, record.seed) == ("classic target_score=30", 2, 4)
    final = record.replay()
    assert main(["replay", str(path)]) == 0
    if final.is_over:
        assert "game over" in out


def test_a_record_with_a_plugins_verbs_parses_in_a_fresh_process(tmp_path: Path) -> None:
    """A plugin registers its verbs when it is imported: parsing a record loads the installed
    plugins on an unknown verb, so ``unorules replay`` reads games that used them."""
    path = tmp_path / "custom.unorules"
    path.write_text(
        '[Format "unorules.record/1"]\n[Ruleset "classic,custom-wilds"]\n'
        "[Players 3]\n[Seed 1]\n\n0: laughed\n"
    )
    code = (
        "import sys; from unorules.record import GameRecord; "
        "print(GameRecord.parse(open(sys.argv[1]).read()).actions[0])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0: laughed"
    with pytest.raises(RecordFormatError, match="unknown verb 'nosuchverb'"):
        GameRecord.parse(path.read_text().replace("laughed", "nosuchverb"))


# -- one notation: every action survives a record's text ----------------------------------------------


def test_a_face_picked_by_count_is_part_of_the_action_not_a_comment() -> None:
    text = "\n".join(
        [
            '[Format "unorules.record/1"]',
            '[Ruleset "flip"]',
            "[Players 2]",
            "[Seed 1]",
            "",
            "# a whole-line comment",
            "0: play W+C#2 P  # after white space: a comment",
            "1: play R1#3#  # the second '#' is glued to the word: the action's",
            "1: draw #no space after the mark is needed",
            "1: draw\t# a tab opens a comment too",
        ]
    )
    with pytest.raises(RecordFormatError, match="line 8"):
        GameRecord.parse(text)  # 'R1#3#' is read whole, and it is not a face picked by count
    record = GameRecord.parse(text.replace("R1#3#", "R1#3"))
    assert [str(a) for a in record.actions] == ["0: play W+C#2 P", "1: play R1#3", "1: draw", "1: draw"]
    assert record.comments == (
        "after white space: a comment",
        "the second '#' is glued to the word: the action's",
        "no space after the mark is needed",
        "a tab opens a comment too",
    )


def test_record_data_takes_faces_picked_by_count_and_refuses_comments() -> None:
    data = {"format": "unorules.record/1", "ruleset": "flip", "players": 2, "actions": ["0: play W+C#2 P"]}
    assert [str(a) for a in GameRecord.from_data(data).actions] == ["0: play W+C#2 P"]
    with pytest.raises(RecordFormatError, match=r"actions\[0\].*without a comment"):
        GameRecord.from_data({**data, "actions": ["0: draw # a note"]})


def _every_rule_set() -> list[tuple[str, ...]]:
    """Each shipped plugin on its own where it builds alone, else beside classic."""
    combos = []
    for name in sorted(unorules.installed_plugins()):
        combo = (name,) if isinstance(build_ruleset((name,)), Ruleset) else ("classic", name)
        if isinstance(build_ruleset(combo), Ruleset):
            combos.append(combo)
    return combos


@pytest.mark.parametrize("combo", _every_rule_set(), ids="+".join)
@pytest.mark.parametrize("seats", [2, 4])
def test_whole_games_survive_their_records_text_and_data(combo: tuple[str, ...], seats: int) -> None:
    """For every rule set, the editions' faces picked by count included: the record's text
    and its data form replay to the game that was played (the flip records cut at '#k'
    failed here, or replayed to another game)."""
    rules = build_ruleset(combo)
    assert isinstance(rules, Ruleset)
    if seats not in supported_players(rules, (seats,)):
        pytest.skip(f"{'+'.join(combo)} is not played by {seats}")
    for index in range(3):
        record = play_bots(rules, ["heuristic", "random"] * (seats // 2), seed="notation", index=index)
        final = record.replay()
        assert GameRecord.parse(record.dumps()).replay() == final
        assert GameRecord.from_data(json.loads(json.dumps(record.to_data()))).replay() == final

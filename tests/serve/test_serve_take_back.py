"""Take-backs at a table of one person and bots: the rule (``take_back_from``), the ``undo``
message and its refusals, the game record after it (the store keeps only what stands)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_helpers import Player, Server, serving

import unorules
from unorules import Action, GameState
from unorules.record import GameRecord
from unorules.serve.tables import take_back_from

RULES = unorules.Ruleset.from_names(["classic"])
SEED = next(
    seed
    for seed in range(500)
    if any(
        a.verb == "play" and a.card.number is not None
        for a in RULES.new_game(players=3, seed=seed).legal_actions()
    )
)
"""A deal whose first seat to move has a number card to play."""


def game(*actions: str) -> tuple[list[GameState], list[Action]]:
    states = [RULES.new_game(players=3, seed=SEED)]
    for text in actions:
        states.append(states[-1].apply(text))
    return states, [s.last_action for s in states[1:] if s.last_action is not None]


def first_play(state: GameState, seat: int) -> str:
    """``seat``'s first play, else its first legal action (a bot's reply: a draw it keeps to itself)."""
    mine = state.legal_actions(seat)
    numbers = [a for a in mine if a.verb == "play" and a.card is not None and a.card.number is not None]
    return str(next(iter(numbers), next((a for a in mine if a.verb == "play"), mine[0])))


def test_a_play_goes_back_with_the_bots_replies() -> None:
    states, _ = game()
    mover = states[0].current_player
    states, actions = game(first_play(states[0], mover))
    for _ in range(2):  # the two others answer
        nxt = states[-1].current_player
        states, actions = game(*map(str, actions), first_play(states[-1], nxt))
    assert take_back_from(states, actions, mover, bots=[s for s in range(3) if s != mover]) == 0


def test_a_person_who_acted_since_keeps_it_standing() -> None:
    states, _ = game()
    mover = states[0].current_player
    states, actions = game(first_play(states[0], mover))
    nxt = states[-1].current_player
    states, actions = game(*map(str, actions), first_play(states[-1], nxt))
    found = take_back_from(states, actions, mover, bots=[])
    assert found == f"seat {nxt} acted after it: an action can be taken back only before anyone else acts"
    others = [s for s in range(3) if s not in (mover, nxt)]
    found = take_back_from(states, actions, mover, bots=others)
    assert found == f"seat {nxt} acted after it: only the bots' replies are taken back with it"


def test_a_draw_a_round_end_and_nothing_done_are_refused_with_the_reason() -> None:
    states, _ = game()
    mover = states[0].current_player
    states, actions = game(f"{mover}: draw")
    found = take_back_from(states, actions, mover, bots=[0, 1, 2])
    assert "showed you cards you had not seen (new cards in your hand)" in str(found)
    assert take_back_from(states[:1], [], mover, bots=[]) == "you have taken no action to take back"
    ended = states[0].replace(
        hands=tuple((h[:1] if s == mover else h) for s, h in enumerate(states[0].hands))
    )
    plays = [a for a in ended.legal_actions(mover) if a.verb == "play"]
    if plays:  # the last card ends the round: every hand is shown
        after = ended.apply(plays[0])
        assert take_back_from([ended, after], [plays[0]], mover, bots=[0, 1, 2]) == "it ended the round"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with serving(
        tmp_path / "t.sqlite", bot_delay=0.05, rate=1000, burst=1000, running_records=True
    ) as running:
        yield running


def test_the_undo_message_takes_back_and_the_record_keeps_what_stands(server: Server) -> None:
    table = server.create(["classic"], ["bot:heuristic"], seed=4)
    ann = Player(server, table["table"], table["token"])
    ann.send({"type": "start"})
    latest = ann.until("state")
    while latest["table"]["version"] == 0 and not latest["table"]["started"]:
        latest = ann.until("state")
    for _ in range(200):  # Ann's turn, nothing drawn yet
        if latest["view"]["current_player"] == 0:
            break
        latest = ann.until("state")
    plays = [a for a in latest["view"]["legal_actions"] if a["seat"] == 0 and a["verb"] == "play"]
    if not plays:
        pytest.skip("seed 4 gives Ann no play at her first turn")
    version = latest["table"]["version"]
    ann.send({"type": "act", "action": plays[0]["text"], "version": version})
    latest = ann.state_at(version + 1)
    ann.send({"type": "undo", "version": "x"})
    assert ann.until("error")["code"] == "bad-request"
    ann.send({"type": "undo", "version": latest["table"]["version"] + 5})
    assert ann.until("error")["code"] == "stale"
    while latest["table"]["version"] < version + 2 and not latest["view"]["is_over"]:
        latest = ann.until("state")  # the bot answers
    ann.send({"type": "undo", "version": latest["table"]["version"]})
    back = ann.until("state")
    while back["table"]["version"] != version:
        back = ann.until("state")
    status, record, _ = server.get_text(f"/api/tables/{table['table']}/record")
    assert status == 200
    assert len(GameRecord.parse(record).actions) == version
    ann.close()


def test_a_spectator_cannot_take_back(server: Server) -> None:
    table = server.create(["classic"], ["bot:heuristic"])
    watcher = Player(server, table["table"], None)
    watcher.until("state")
    watcher.send({"type": "undo", "version": 0})
    assert watcher.until("error")["code"] == "not-your-seat"
    watcher.close()


def test_a_challenge_that_shows_the_bots_hand_stands() -> None:
    for seed in range(3000):  # a deal where the first seat bluffs a Wild Draw Four and is challenged
        start = RULES.new_game(players=3, seed=seed)
        mover = start.current_player
        bluffs = [a for a in start.legal_actions(mover) if a.card is not None and a.card.kind == "W+4"]
        if not bluffs or not any(c.color is start.color for c in start.hands[mover]):
            continue
        played = start.apply(bluffs[0])
        challenger = played.current_player
        if not any(a.verb == "challenge" for a in played.legal_actions(challenger)):
            continue
        challenged = played.apply(f"{challenger}: challenge")
        assert any(e.kind == "show" for e in challenged.events)
        break
    else:
        raise AssertionError("no bluffed Wild Draw Four in 3000 deals")
    states = [start, played, challenged]
    actions = [bluffs[0], Action.parse(f"{challenger}: challenge")]
    found = take_back_from(states, actions, challenger, bots=[mover])
    assert found == f"it showed you seat {mover}'s hand: what was seen cannot be unseen"

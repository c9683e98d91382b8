"""The two editions at a real server on loopback, through websocket clients: whole games of
``flip`` and ``no-mercy`` against bots, every message checked for what the seat may see."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import Player, Server, play_until, serving


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with serving(tmp_path / "t.sqlite", bot_delay=0, rate=1000, burst=1000) as running:
        yield running


def started(server: Server, rules: list[str], options: dict[str, str]) -> Player:
    created = server.create(rules, ["bot:heuristic", "bot:random"], seed=5, options=options)
    ann = Player(server, created["table"], created["token"])
    ann.send({"type": "start"})
    for _ in range(100):
        message = ann.until("state")
        if message["table"]["started"]:
            view = message["view"]
            if view["current_player"] == 0:  # play_until waits for the next state: act on this one
                text = view["legal_actions"][0]["text"]
                ann.send({"type": "act", "action": text, "version": message["table"]["version"]})
            return ann
    raise AssertionError("the table did not start")


@pytest.mark.parametrize("options", [{}, {"flip_own_backs": "shown", "flip_discard": "top-only"}])
def test_r_flip_view_a_flip_game_is_played_to_the_end_and_no_message_shows_a_hidden_back(
    server: Server, options: dict[str, str]
) -> None:
    ann = started(server, ["flip"], {"target_score": "100", **options})
    last = play_until(ann)
    assert last["view"]["is_over"]
    shown = options.get("flip_own_backs") == "shown"
    states = [m for m in ann.received if m["type"] == "state" and m["table"]["started"]]
    sides = set()
    for message in states:
        view: dict[str, Any] = message["view"]
        sides.add(view["side"])
        # a two-faced card travels only as the face it shows: no message names a card's two faces
        assert "/" not in json.dumps(view["cards"])
        assert view["two_faced"] is True
        hands = [s for s in range(3) if s not in view["left"]]
        expected = {str(s) for s in hands if s != 0 or shown}
        assert set(view["backs"]) == expected, (view["backs"].keys(), expected)
        for seat, backs in view["backs"].items():
            assert len(backs) == view["hand_sizes"][int(seat)]
        if view["draw_pile_size"]:
            assert view["draw_pile_back"] in view["cards"]
    assert sides == {0, 1}


def test_r_nm_win_a_no_mercy_game_is_played_to_the_end(server: Server) -> None:
    ann = started(server, ["no-mercy"], {})
    last = play_until(ann)
    view = last["view"]
    assert view["is_over"]
    assert view["two_faced"] is False
    assert view["backs"] == {}
    assert view["draw_pile_back"] is None
    assert last["table"]["winners"]

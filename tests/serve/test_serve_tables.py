"""Turn timers and the autopilot, rematches, the welcome: a real server on loopback, websocket clients."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from serve_helpers import Player, Server, play_until, serving

from unorules.serve import tables as tables_module

RULES = ["classic"]


@pytest.fixture
def quick_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """The grace before the autopilot takes a seat with no page open, shortened for the tests."""
    monkeypatch.setattr(tables_module, "AWAY_GRACE", 0.5)


@pytest.fixture
def server(store_db: str, quick_grace: None) -> Iterator[Server]:
    with serving(store_db, bot_delay=0, rate=1000, burst=1000) as running:
        yield running


def two_people(server: Server, turn_seconds: int) -> tuple[str, list[Player], list[str], dict[str, Any]]:
    """A started table of Ann and Bob, both connected; their players, tokens, and the state Ann
    was sent when the game started (and its timer, if any, began)."""
    created = server.create(
        RULES, ["open"], turn_seconds=turn_seconds, seed=4, options={"target_score": "30"}
    )
    bob = server.join(created["table"], "Bob")
    tokens = [created["token"], bob["token"]]
    players = [Player(server, created["table"], t) for t in tokens]
    players[0].send({"type": "start"})
    started = until_table(
        players[0], lambda t: t["started"] and (t["time_left"] is not None or not turn_seconds)
    )
    until_table(players[1], lambda t: t["started"])
    return created["table"], players, tokens, started


def until_table(player: Player, check: Any, timeout: float = 15.0) -> dict[str, Any]:
    """Read state messages until one whose table data passes ``check``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = player.until("state", timeout=timeout)
        if check(message["table"]):
            return message
    raise AssertionError("no such state")


def test_a_turn_that_runs_out_goes_to_the_autopilot_and_the_player_takes_it_back(server: Server) -> None:
    table, players, _, first = two_people(server, turn_seconds=5)
    mover = first["view"]["current_player"]
    meta = first["table"]
    assert meta["turn_seconds"] == 5
    assert meta["turn_seat"] == mover
    assert 0 < meta["time_left"] <= 5
    began = time.monotonic()
    taken = until_table(players[mover], lambda t: t["autopilot"][mover])
    assert 4.5 <= time.monotonic() - began <= 10
    assert taken["table"]["autopilot"] == [seat == mover for seat in (0, 1)]
    # the autopilot plays the seat: the game moves on without its player
    version = taken["table"]["version"]
    until_table(players[mover], lambda t: t["version"] > version)
    players[mover].send({"type": "back"})
    back = until_table(players[mover], lambda t: not t["autopilot"][mover])
    assert back["table"]["autopilot"] == [False, False]
    players[mover].send({"type": "back"})
    assert players[mover].until("error")["code"] == "stale"
    spectator = Player(server, table, None)
    spectator.send({"type": "back"})
    assert spectator.until("error")["code"] == "not-your-seat"


def test_a_player_who_leaves_is_played_for_and_gets_the_seat_back_on_return(server: Server) -> None:
    table, players, tokens, _ = two_people(server, turn_seconds=60)
    players[1].close()  # Bob's page closes
    watched = until_table(players[0], lambda t: t["autopilot"][1], timeout=10)
    assert watched["table"]["online"] == [True, False]
    # Ann plays; Bob's turns are taken by the autopilot
    final = play_until(players[0], stop_version=watched["table"]["version"] + 12)
    assert final["table"]["version"] >= watched["table"]["version"] + 12
    assert final["table"]["autopilot"][1] or final["view"]["is_over"]
    bob = Player(server, table, tokens[1])
    assert bob.until("welcome")["you"] == 1
    assert bob.until("state")["table"]["autopilot"] == [False, False]


def test_without_a_timer_nobody_is_played_for(server: Server) -> None:
    table, players, _, state = two_people(server, turn_seconds=0)
    mover = state["view"]["current_player"]
    players[mover].close()
    time.sleep(1.5)  # three times the grace
    _status, meta = server.request("GET", f"/api/tables/{table}")
    assert meta["autopilot"] == [False, False]
    assert meta["version"] == state["table"]["version"]
    assert meta["time_left"] is None


def test_a_rematch_keeps_the_seats_and_each_token(server: Server) -> None:
    created = server.create(
        RULES, ["open", "bot:random"], options={"target_score": "30"}, seed=9, turn_seconds=30
    )
    bob = server.join(created["table"], "Bob")
    ann = Player(server, created["table"], created["token"])
    bob_page = Player(server, created["table"], bob["token"])
    spectator = Player(server, created["table"], None)
    ann.send({"type": "rematch"})
    assert ann.until("error")["code"] == "not-over"
    ann.send({"type": "start"})
    done: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: done.setdefault("bob", play_until(bob_page)))
    thread.start()
    final = play_until(ann)
    thread.join(60)
    assert final["view"]["is_over"]
    spectator.send({"type": "rematch"})
    assert spectator.until("error")["code"] == "not-your-seat"
    bob_page.send({"type": "rematch"})
    moved = until_table(ann, lambda t: t["rematch"] is not None)
    again = moved["table"]["rematch"]
    assert until_table(spectator, lambda t: t["rematch"] is not None)["table"]["rematch"] == again
    status, meta = server.request("GET", f"/api/tables/{again}")
    assert status == 200
    assert meta["names"] == final["table"]["names"]
    assert meta["kinds"] == ["human", "human", "bot"]
    assert meta["rules"] == final["table"]["rules"]
    assert meta["turn_seconds"] == 30
    assert meta["started"]
    assert meta["rematch"] is None
    # each person's token holds the same seat there; asking again gives the same rematch
    assert Player(server, again, created["token"]).until("state")["you"] == 0
    assert Player(server, again, bob["token"]).until("state")["you"] == 1
    ann.send({"type": "rematch"})
    ann.send({"type": "ping"})
    ann.until("pong")
    assert len(server.app.state.tables) == 2

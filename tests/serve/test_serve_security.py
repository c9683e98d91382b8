"""Nobody can act for another seat, replay a message, flood a table or see a card they may not:
each bad message gets a clear error naming what was wrong, and nothing changes."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from serve_helpers import Player, Server, serving
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from unorules import Ruleset
from unorules.cards import Card
from unorules.serve import compat
from unorules.serve.app import MESSAGE_LIMIT
from unorules.serve.render import view_data
from unorules.state import GameState

RULES = ["classic", "stacking", "jump-in"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with serving(tmp_path / "tables.sqlite", bot_delay=0) as running:
        yield running


def four_people(server: Server, seed: int = 3) -> tuple[str, list[str]]:
    """A started table of four people (no bots, so nothing moves unless a test acts); their tokens."""
    created = server.create(RULES, ["open", "open", "open"], seed=seed)
    tokens = [created["token"]] + [server.join(created["table"], f"P{i}")["token"] for i in (1, 2, 3)]
    host = Player(server, created["table"], tokens[0])
    host.send({"type": "start"})
    for _ in range(10):
        if host.until("state")["table"]["started"]:
            break
    host.close()
    return created["table"], tokens


def error_of(player: Player) -> dict[str, Any]:
    return player.until("error")


def saved(server: Server, table: str) -> int:
    with sqlite3.connect(server.app.state.tables.store.path) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM actions WHERE table_id=?", (table,)).fetchone()
    return int(count)


def test_forged_tokens_are_refused_and_the_socket_closed(server: Server) -> None:
    table, tokens = four_people(server)
    _other, other_tokens = four_people(server, seed=4)
    for forged in (
        "x" * 32,
        tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B"),
        other_tokens[0],
        5,
        "y" * 5000,
    ):
        player = Player(server, table, forged)  # type: ignore[arg-type]
        error = error_of(player)
        assert error["code"] in ("bad-token", "bad-request"), error
        with pytest.raises(ConnectionClosed):
            player.read(timeout=5)
    assert saved(server, table) == 0


def test_unknown_tables_are_refused(server: Server) -> None:
    status, answer = server.request("GET", "/api/tables/nosuchtable")
    assert status == 404
    assert answer["code"] == "unknown-table"
    status, answer = server.request("POST", "/api/tables/nosuchtable/join", {"name": "Eve"})
    assert status == 404
    assert "there is no table 'nosuchtable'" in answer["error"]
    player = Player(server, "nosuchtable", None)
    assert error_of(player)["code"] == "unknown-table"


def test_nobody_acts_for_another_seat(server: Server) -> None:
    table, tokens = four_people(server)
    players = [Player(server, table, t) for t in tokens]
    state = players[0].until("state")
    version = state["table"]["version"]
    current = state["view"]["current_player"]
    other = (current + 1) % 4
    # the current player's first legal action, sent by somebody else, with and without a seat prefix
    mover = Player(server, table, tokens[current]).until("state")
    action = mover["view"]["legal_actions"][0]["text"]
    players[other].send({"type": "act", "action": action, "version": version})
    error = error_of(players[other])
    assert error["code"] == "not-your-seat"
    assert f"your token is for seat {other}: you cannot act for seat {current}" in error["message"]
    spectator = Player(server, table, None)
    assert spectator.until("state")["you"] is None
    spectator.send({"type": "act", "action": action, "version": version})
    assert error_of(spectator)["code"] == "not-your-seat"
    spectator.send({"type": "start"})
    assert error_of(spectator)["code"] == "not-your-seat"
    assert saved(server, table) == 0


def test_a_replayed_message_is_refused(server: Server) -> None:
    table, tokens = four_people(server)
    state = Player(server, table, tokens[0]).until("state")
    current = state["view"]["current_player"]
    player = Player(server, table, tokens[current])
    view = player.until("state")
    message = json.dumps({"type": "act", "action": f"{current}: draw", "version": view["table"]["version"]})
    player.send(message)
    assert player.until("state", timeout=5)["table"]["version"] == view["table"]["version"] + 1
    player.send(message)  # the very same bytes again
    error = error_of(player)
    assert error["code"] == "stale"
    assert "the table has moved on" in error["message"]
    assert saved(server, table) == 1


def test_illegal_and_wrong_messages_get_clear_errors_and_change_nothing(server: Server) -> None:
    """Messages that decode but ask for something wrong are answered with an error; the connection
    stays open for the next one."""
    table, tokens = four_people(server)
    state = Player(server, table, tokens[0]).until("state")
    current = state["view"]["current_player"]
    player = Player(server, table, tokens[current])
    version = player.until("state")["table"]["version"]
    cases: list[tuple[Any, str, str]] = [
        ({"type": "fly"}, "bad-request", "unknown message type 'fly'"),
        ({"type": "act", "action": "teleport", "version": version}, "bad-request", "unknown verb"),
        ({"type": "act", "action": 7, "version": version}, "bad-request", "'action' must be"),
        ({"type": "act", "action": f"{current}: draw", "version": "x"}, "bad-request", "'version' must be"),
        ({"type": "act", "action": f"{current}: challenge", "version": version}, "illegal", "R-"),
        ({"type": "act", "action": f"{current}: play R0", "version": version}, "illegal", "R-"),
        ({"type": "start"}, "not-your-seat" if current else "stale", "start"),
        ({"type": "back"}, "stale", "the autopilot is not playing your seat"),
        ({"type": "rematch"}, "not-over", "the game is not over yet"),
    ]
    for message, code, words in cases:
        player.send(message)
        error = error_of(player)
        assert error["code"] == code, (message, error)
        assert words in error["message"], (message, error)
    assert saved(server, table) == 0
    player.send({"type": "ping"})
    player.until("pong")


DEEP = "[" * 5000 + "]" * 5000
UNDECODABLE: list[tuple[Any, int, str]] = [
    ("not json", 1007, "must be a JSON object"),
    ("[1, 2]", 1007, "must be a JSON object"),
    (b"\x00\x01", 1007, "text messages"),
    (DEEP[:1000] + DEEP[-1000:], 1007, "nested too deeply"),
    ('{"type": "hello", "token": ' + "[" * 20 + "]" * 20 + "}", 1007, "nested too deeply"),
    ('{"type": "act", "action": "\\ud800", "version": 0}', 1007, "not valid Unicode"),
    ('{"\\udfff": 1}', 1007, "not valid Unicode"),
    ("x" * (MESSAGE_LIMIT + 1), 1008, "message too long"),
]


@pytest.mark.parametrize("phase", ["hello", "play"])
def test_messages_that_cannot_be_decoded_close_the_connection_with_a_reason(
    server: Server, phase: str
) -> None:
    """JSON nested deeper than Python's parser allows, lone surrogates, binary frames, text that is
    not a JSON object and over-long messages: an error naming the fault, then a close frame
    (1007 for what cannot be decoded, 1008 for what breaks the limits) with the reason; in the
    hello phase too. The table is unharmed and the server answers the next client."""
    table, tokens = four_people(server)
    for payload, code, words in UNDECODABLE:
        player = Player(server, table, tokens[0]) if phase == "play" else None
        if player is None:
            player = Hello(server, table)
        else:
            player.until("state")
        player.send(payload)
        error = error_of(player)
        assert error["code"] == "bad-request", (payload[:30], error)
        assert words in error["message"], (payload[:30], error)
        with pytest.raises(ConnectionClosed) as closed:
            player.read(timeout=5)
        assert closed.value.rcvd is not None, "closed without a close frame"
        assert closed.value.rcvd.code == code, (payload[:30], closed.value.rcvd)
        assert words in closed.value.rcvd.reason, closed.value.rcvd
    assert saved(server, table) == 0
    assert Player(server, table, tokens[0]).until("state")["table"]["version"] == 0


class Hello(Player):
    """A websocket client that has not said hello yet."""

    def __init__(self, server: Server, table: str, **options: Any) -> None:
        self.ws = connect(f"{server.ws_url}/ws/{table}", open_timeout=10, **options).__enter__()
        self.received = []


def test_an_oversized_frame_is_cut_off_by_the_transport(server: Server) -> None:
    table, tokens = four_people(server)
    player = Player(server, table, tokens[1])
    version = player.until("state")["table"]["version"]
    player.send("y" * (MESSAGE_LIMIT * 16))
    with pytest.raises(ConnectionClosed):
        player.until("never")
    again = Player(server, table, tokens[1])
    assert again.until("state")["table"]["version"] == version


def tables_saved(server: Server) -> int:
    with sqlite3.connect(server.app.state.tables.store.path) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM tables").fetchone()
    return int(count)


def create_body(**changes: Any) -> dict[str, Any]:
    return {"rules": ["classic"], "seats": ["open"], "name": "A", **changes}


def test_bad_requests_to_create_and_join_tables(server: Server) -> None:
    bad: list[tuple[Any, str]] = [
        (create_body(rules=["nosuch"]), "no plugin named 'nosuch'"),
        (create_body(options={"nosuch": "1"}), "belongs to none"),
        (create_body(options={"target_score": "-5"}), "target_score"),
        (create_body(seats=["robot"]), "is not a seat kind"),
        (create_body(seats=[]), "a table seats"),
        (create_body(name="<b>"), "a name is 1 to 24 characters"),
        (create_body(seed=-1), "'seed' must be"),
        (create_body(rules="classic"), "'rules' must list"),
        (create_body(turn_seconds=2), "'turn_seconds' must be 0"),
        (create_body(turn_seconds="30"), "'turn_seconds' must be 0"),
    ]
    for body, words in bad:
        status, answer = server.request("POST", "/api/tables", body)
        assert (status, answer["code"], words in answer["error"]) == (400, "bad-request", True), (
            body,
            answer,
        )
    status, answer = server.request("POST", "/api/tables", raw=b"{" * 20000)
    assert status == 400
    assert "larger than" in answer["error"]
    status, answer = server.request("POST", "/api/tables", raw=b"{nope")
    assert status == 400
    assert "JSON object" in answer["error"]
    status, answer = server.request("POST", "/api/tables", raw=b"\xff\xfe{")
    assert (status, answer["code"]) == (400, "bad-request")
    assert tables_saved(server) == 0
    table, _ = four_people(server)
    invite = server.app.state.tables.get(table).invite
    status, answer = server.request("POST", f"/api/tables/{table}/join", {"name": "Late", "invite": invite})
    assert status == 409
    assert "the game has started" in answer["error"]


def test_json_nested_beyond_the_parser_is_a_bad_request(server: Server) -> None:
    """Deeper than Python's parser allows (RecursionError) and deeper than a request needs: 400."""
    created = server.create(["classic"], ["open"])
    for depth in (6000, 9):
        deep = ("[" * depth + "]" * depth).encode()
        body = b'{"rules": ["classic"], "seats": ["open"], "name": "A", "x": ' + deep + b"}"
        for path in ("/api/tables", f"/api/tables/{created['table']}/join"):
            status, answer = server.request("POST", path, raw=body)
            assert (status, answer["code"]) == (400, "bad-request"), (depth, answer)
            assert "nested too deeply" in answer["error"]
    assert tables_saved(server) == 1
    assert server.request("GET", f"/api/tables/{created['table']}")[1]["names"] == ["Ann", "open seat"]


def test_lone_surrogates_anywhere_are_refused_and_the_table_stays_readable(server: Server) -> None:
    """A name, a rule name, an option or a key holding a lone surrogate: 400, nothing stored; the
    tables already there keep answering (their GET used to fail with 500 for good)."""
    created = server.create(["classic"], ["open", "open"])
    raw = [
        b'{"rules": ["classic"], "seats": ["open"], "name": "\\ud800"}',
        b'{"rules": ["classic\\udfff"], "seats": ["open"], "name": "A"}',
        b'{"rules": ["classic"], "seats": ["open"], "name": "A", "options": {"target_score": "\\ud83d"}}',
        b'{"rules": ["classic"], "seats": ["open"], "name": "A", "\\udc00": 1}',
    ]
    for body in raw:
        status, answer = server.request("POST", "/api/tables", raw=body)
        assert (status, answer["code"]) == (400, "bad-request"), (body, answer)
        assert "not valid Unicode" in answer["error"]
    join = b'{"name": "\\ud800x", "invite": "%s"}' % created["invite"].encode()
    status, answer = server.request("POST", f"/api/tables/{created['table']}/join", raw=join)
    assert (status, answer["code"]) == (400, "bad-request")
    assert tables_saved(server) == 1
    status, meta = server.request("GET", f"/api/tables/{created['table']}")
    assert status == 200
    assert meta["names"] == ["Ann", "open seat", "open seat"]


SPOOFS = {
    "Ann\u202egnp.exe": "U+202E",  # right-to-left override
    "\u2066Bob\u2069": "U+2066",  # isolate
    "Bo\u200bb": "U+200B",  # zero-width space
    "Bo\u200db": "U+200D",  # zero-width joiner
    "\ufeffAnn": "U+FEFF",  # byte-order mark
    "A\u0301\u0301\u0301\u0301": "combining marks",
    "\u3164": "U+3164",  # a Hangul filler: a blank-looking letter
    "Ann\x07": "U+0007",
    "A\u2028B": "U+2028",
    "\ue000": "U+E000",  # private use
    "x" * 25: "25 characters",
    "\U0001f600" * 17: "bytes",  # 17 characters, 68 bytes
    "   ": "empty",
}


def test_names_are_normalised_and_spoofing_characters_refused(server: Server) -> None:
    for name, words in SPOOFS.items():
        status, answer = server.request("POST", "/api/tables", create_body(name=name))
        assert (status, answer["code"]) == (400, "bad-request"), (name, answer)
        assert words in answer["error"], (name, answer)
    assert tables_saved(server) == 0
    # NFC, runs of spaces made one; names looking like one already at the table refused
    created = server.create(["classic"], ["open", "open"], name="  Zoe   Cafe\u0301 ")
    status, meta = server.request("GET", f"/api/tables/{created['table']}")
    assert meta["names"][0] == "Zoe Caf\u00e9"
    for twin in ("zoe café", "ＺＯＥ CAFÉ"):
        status, answer = server.request(
            "POST", f"/api/tables/{created['table']}/join", {"name": twin, "invite": created["invite"]}
        )
        assert (status, answer["code"]) == (400, "bad-request"), answer
        assert "already called" in answer["error"]
    assert server.join(created["table"], "\U0001f600 Émile")["seat"] == 1


def test_bodies_must_be_json(server: Server) -> None:
    """A form or text body (what any web page may post without asking) is refused: 415."""
    body = json.dumps(create_body()).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""):
        status, answer = server.request("POST", "/api/tables", raw=body, headers={"Content-Type": kind})
        assert (status, answer["code"]) == (415, "bad-content-type"), (kind, answer)
    status, _ = server.request(
        "POST", "/api/tables", raw=body, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert status == 200
    assert tables_saved(server) == 1


FOREIGN = ["http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1", "file://"]


def test_pages_of_other_origins_can_neither_create_join_nor_play(server: Server) -> None:
    """Origin check: a foreign page's POST is 403 ``bad-origin`` and its websocket closed with 1008;
    the server's own page (same origin, by IP address) and clients sending no Origin pass."""
    created = server.create(["classic"], ["open", "open"])
    table, invite = created["table"], created["invite"]
    own = server.url
    for origin in FOREIGN:
        status, answer = server.request("POST", "/api/tables", create_body(), headers={"Origin": origin})
        assert (status, answer["code"]) == (403, "bad-origin"), (origin, answer)
        status, answer = server.request(
            "POST", f"/api/tables/{table}/join", {"name": "Eve", "invite": invite}, headers={"Origin": origin}
        )
        assert (status, answer["code"]) == (403, "bad-origin"), (origin, answer)
        player = Hello(server, table, origin=origin)
        assert error_of(player)["code"] == "bad-origin"
        with pytest.raises(ConnectionClosed) as closed:
            player.read(timeout=5)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1008
    # a foreign name resolved to this server (DNS rebinding): same origin, but not an IP or localhost
    rebound = f"http://evil.example:{server.port}"
    status, answer = server.request(
        "POST",
        "/api/tables",
        create_body(),
        headers={"Origin": rebound, "Host": f"evil.example:{server.port}"},
    )
    assert (status, answer["code"]) == (403, "bad-origin")
    assert tables_saved(server) == 1
    assert server.request("GET", f"/api/tables/{table}")[1]["names"] == ["Ann", "open seat", "open seat"]
    status, answer = server.request("POST", "/api/tables", create_body(), headers={"Origin": own})
    assert status == 200, answer
    status, answer = server.request(
        "POST", f"/api/tables/{table}/join", {"name": "Bob", "invite": invite}, headers={"Origin": own}
    )
    assert status == 200, answer
    assert Player(server, table, answer["token"], origin=own).until("state")["you"] == 1


def test_allowed_origins_are_accepted(tmp_path: Path) -> None:
    with serving(tmp_path / "t.sqlite", allow_origins=["https://uno.example.org/"]) as server:
        status, answer = server.request(
            "POST", "/api/tables", create_body(), headers={"Origin": "https://uno.example.org"}
        )
        assert status == 200, answer
        status, answer = server.request(
            "POST", "/api/tables", create_body(), headers={"Origin": "https://uno.example.org:8443"}
        )
        assert (status, answer["code"]) == (403, "bad-origin")


def test_joining_needs_the_invitation_code_and_the_watching_link_has_none(server: Server) -> None:
    created = server.create(["classic"], ["open", "open"])
    table = created["table"]
    for invite in (None, "", "x" * 12, created["invite"][:-1], 5):
        status, answer = server.request(
            "POST", f"/api/tables/{table}/join", {"name": "Eve", "invite": invite}
        )
        assert (status, answer["code"]) == (403, "bad-invite"), (invite, answer)
    assert server.request("GET", f"/api/tables/{table}")[1]["kinds"] == ["human", "open", "open"]
    spectator = Player(server, table, None)
    welcome = spectator.until("welcome")
    assert welcome["invite"] is None
    assert welcome["you"] is None
    assert created["invite"] not in json.dumps(spectator.until("state"))
    host = Player(server, table, created["token"])
    assert host.until("welcome")["invite"] == created["invite"]
    assert server.join(table, "Bob", created["invite"])["seat"] == 1


def test_a_flooding_client_is_slowed_down_and_the_table_unharmed(tmp_path: Path) -> None:
    with serving(tmp_path / "t.sqlite", bot_delay=0, rate=5, burst=10) as server:
        table, tokens = four_people(server)
        player = Player(server, table, tokens[1])
        player.until("state")
        for _ in range(40):
            player.send({"type": "ping"})
        kinds = [player.read()["type"] for _ in range(40)]
        assert 5 <= kinds.count("pong") <= 20
        assert "error" in kinds
        refused = [m for m in player.received if m["type"] == "error"]
        assert all(m["code"] == "too-many" and "at most 5 a second" in m["message"] for m in refused)
        assert saved(server, table) == 0


def test_out_of_turn_races_are_won_by_the_first_legal_action(server: Server) -> None:
    """Every seat acts at once on the same state: one action is taken, the others are refused."""
    table, tokens = four_people(server)
    players = [Player(server, table, t) for t in tokens]
    states = [p.until("state") for p in players]
    version = states[0]["table"]["version"]
    barrier = threading.Barrier(4)

    def fire(player: Player, state: dict[str, Any]) -> None:
        mine = [a["text"] for a in state["view"]["legal_actions"]]
        barrier.wait()
        # every seat sends its first legal action, or (if it has none) the current player's
        player.send({"type": "act", "action": mine[0] if mine else "draw", "version": version})

    threads = [threading.Thread(target=fire, args=(p, s)) for p, s in zip(players, states, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    for player in players:
        assert player.state_at(version + 1)["table"]["version"] == version + 1
        player.send({"type": "ping"})
        player.until("pong")  # every answer to the racing messages has arrived before it
    refused = [m for p in players for m in p.received if m["type"] == "error"]
    assert len(refused) == 3
    assert {m["code"] for m in refused} <= {"stale", "illegal", "not-your-seat"}
    assert saved(server, table) == 1


# -- no message carries a card its client may not see --------------------------------------------------


def hidden_twin(state: GameState, seat: int | None, shift: int) -> GameState:
    """``state`` with everything ``seat`` (``None``: a spectator) may not see changed: the cards of
    hands not shown to it and of the draw pile dealt differently, other seats' private events and a
    secret phase card replaced."""
    shown = set() if seat is None else set(state.view(seat).visible_hands)
    hidden = [c for s, hand in enumerate(state.hands) if s not in shown for c in hand] + list(state.draw_pile)
    if not hidden:
        return state
    rotated = hidden[shift % len(hidden) :] + hidden[: shift % len(hidden)]
    hands, at = [], 0
    for s, hand in enumerate(state.hands):
        if s in shown:
            hands.append(hand)
        else:
            hands.append(tuple(rotated[at : at + len(hand)]))
            at += len(hand)
    draw = tuple(rotated[at:])
    stand_in = rotated[0]
    events = tuple(
        attrs.evolve(e, cards=(stand_in,) * len(e.cards)) if e.private and e.seat != seat and e.cards else e
        for e in state.events
    )
    phase = state.phase
    if phase.secret and state.current_player != seat and phase.card is not None:
        phase = attrs.evolve(phase, card=stand_in)
    return state.replace(hands=tuple(hands), draw_pile=draw, events=events, phase=phase)


def message_for(state: GameState, seat: int | None) -> str:
    view = compat.public_view(state) if seat is None else compat.seat_view(state, seat)
    return json.dumps(view_data(view, ["A", "B", "C", "D"][: state.players], seat), sort_keys=True)


PROPERTY_RULES = [
    Ruleset.from_names(["classic", "stacking", "jump-in"], options={"target_score": 50}),
    Ruleset.from_names(["classic", "seven-o", "swap-hands"]),
    Ruleset.from_names(["classic"], options={"challenge": True}),
]


@given(
    rules=st.sampled_from(PROPERTY_RULES),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 1000), min_size=1, max_size=80),
    shift=st.integers(1, 200),
)
def test_no_message_carries_a_card_its_client_may_not_see(
    rules: Ruleset, seed: int, choices: list[int], shift: int
) -> None:
    """What a client is sent is the same whatever the cards it may not see are: so it carries none of them."""
    state = rules.new_game(players=4, seed=seed)
    for choice in choices:
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[choice % len(legal)])
        for seat in (0, 1, 2, 3, None):
            assert message_for(state, seat) == message_for(hidden_twin(state, seat, shift), seat), seat


def test_a_private_draw_reaches_other_seats_as_its_count_only() -> None:
    """The structured events are the view's: the seat that drew gets its cards, the others and
    spectators the event with no card, its count and the feed's sentence (which names no card either)."""
    rules = PROPERTY_RULES[0]
    state = rules.new_game(players=4, seed=2)
    for _ in range(500):
        draws = [e for e in state.events if e.kind == "draw" and e.private and e.cards]
        if draws:
            break
        legal = state.legal_actions(state.current_player)
        draw = [a for a in legal if a.verb == "draw"]
        state = state.apply((draw or list(legal) or list(state.legal_actions()))[0])
    else:
        raise AssertionError("nobody drew")
    drawer, drawn = draws[0].seat, [str(c) for c in draws[0].cards]
    assert drawer is not None
    for seat in (0, 1, 2, 3, None):
        events = json.loads(message_for(state, seat))["events"]
        (event,) = [e for e in events if e["kind"] == "draw"]
        assert event["count"] == len(drawn)
        assert event["seat"] == drawer
        assert event["private"] is True
        feed = " ".join(json.loads(message_for(state, seat))["feed"])
        names = [Card.parse(c).name for c in drawn]
        if seat == drawer:
            assert event["cards"] == drawn
            assert all(name in feed for name in names), feed
        else:
            assert event["cards"] == []
            assert "drew" in feed
            assert not any(name in feed for name in names), feed


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "\\ud800"}',  # an escape
        '{"a": "\ud800"}',  # a surrogate in the text itself (no websocket sends one; a caller might)
        '{"\udfff": 1}',
        '{"a": ' + "[" * 9 + "]" * 9 + "}",
        '{"a": ' + "[{" * 5 + "}]" * 5 + "}",
    ],
)
def test_decoding_refuses_surrogates_and_depth_in_text_and_bytes(text: str) -> None:
    from unorules.serve.errors import ServeError
    from unorules.serve.inputs import decode_json

    with pytest.raises(ServeError) as refused:
        decode_json(text)
    assert refused.value.code == "bad-request"
    encoded = text.encode("utf-8", "surrogatepass")
    for data in (encoded, text.encode("utf-16", "surrogatepass")):
        with pytest.raises(ServeError):
            decode_json(data)

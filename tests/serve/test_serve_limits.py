"""A server strangers can reach stays up: creation limits, a bounded store whose tables expire,
message budgets per address, capped connections and a timeout on request heads; each refusal a
clear error that changes nothing. Every test runs a real server on loopback; clients of other
addresses bind to other loopback addresses (127.0.0.0/8 is all this machine's)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import resource
import selectors
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import Player, Server, free_port, play_until, serving

from unorules.serve.guard import default_limits

CREATE = {"rules": ["classic"], "seats": ["open"], "name": "Ann"}


def post_from(server: Server, address: str, path: str, body: Any) -> tuple[int, dict[str, Any], str]:
    """``(status, JSON answer, Retry-After)`` of a POST sent from the loopback ``address``."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(address, 0))
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read()), answer.getheader("Retry-After") or ""
    finally:
        connection.close()


def stored(server: Server) -> int:
    with sqlite3.connect(server.app.state.tables.store.path) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM tables").fetchone()
    return int(count)


def test_creating_tables_is_limited_per_address_and_for_the_server(tmp_path: Path) -> None:
    # 12 an hour per address (bursts of 2), 36 an hour in all (bursts of 6)
    with serving(tmp_path / "t.sqlite", creates_per_address=12, creates_total=36) as server:
        for _ in range(2):
            assert post_from(server, "127.0.0.1", "/api/tables", CREATE)[0] == 200
        status, answer, retry = post_from(server, "127.0.0.1", "/api/tables", CREATE)
        assert (status, answer["code"]) == (429, "too-many"), answer
        assert "too many new tables from your address: at most 12 an hour" in answer["error"]
        assert 200 <= int(retry) <= 300
        # a refused request spends nothing: bad requests from a fresh address leave its two
        for _ in range(5):
            assert post_from(server, "127.0.0.2", "/api/tables", {**CREATE, "name": "<"})[0] == 400
        assert [post_from(server, "127.0.0.2", "/api/tables", CREATE)[0] for _ in range(3)] == [200, 200, 429]
        # the server's own budget: 6 at once, whatever the address
        assert post_from(server, "127.0.0.3", "/api/tables", CREATE)[0] == 200
        assert post_from(server, "127.0.0.4", "/api/tables", CREATE)[0] == 200
        status, answer, retry = post_from(server, "127.0.0.5", "/api/tables", CREATE)
        assert (status, answer["code"]) == (429, "too-many")
        assert "this server creates at most 36 tables an hour" in answer["error"]
        assert int(retry) >= 1
        assert stored(server) == 6
        assert len(server.app.state.tables) == 6


def test_the_store_is_bounded_and_a_full_server_says_so(tmp_path: Path) -> None:
    with serving(tmp_path / "t.sqlite", max_tables=3) as server:
        for address in ("127.0.0.1", "127.0.0.2", "127.0.0.3"):
            assert post_from(server, address, "/api/tables", CREATE)[0] == 200
        status, answer, retry = post_from(server, "127.0.0.4", "/api/tables", CREATE)
        assert (status, answer["code"]) == (503, "busy"), answer
        assert "keeps at most 3 tables" in answer["error"]
        assert retry == "60"
        assert stored(server) == 3


def test_finished_and_abandoned_tables_expire_and_the_store_makes_room(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with serving(
        db, bot_delay=0, max_tables=3, keep_finished=1.0, keep_idle=1.5, rate=1000, burst=1000
    ) as server:
        lonely = server.create(["classic"], ["open"])  # nobody's page open: abandoned
        kept = server.create(["classic"], ["open"])
        ann = Player(server, kept["table"], kept["token"])  # a person is there: kept
        ann.until("state")
        game = server.create(["classic"], ["bot:heuristic"], options={"target_score": "30"}, seed=2)
        status, answer, _ = post_from(server, "127.0.0.2", "/api/tables", CREATE)
        assert (status, answer["code"]) == (503, "busy")
        player = Player(server, game["table"], game["token"])
        player.send({"type": "start"})
        final = play_until(player)
        assert final["view"]["is_over"]
        # the finished game goes keep_finished after its end, its page told so, open or not
        closed = player.until("error", timeout=15)
        assert closed["code"] == "closed"
        assert "its game ended more than 1 seconds ago" in closed["message"]
        deadline = time.monotonic() + 10
        while (
            server.request("GET", f"/api/tables/{lonely['table']}")[0] != 404 and time.monotonic() < deadline
        ):
            time.sleep(0.1)
        assert server.request("GET", f"/api/tables/{lonely['table']}")[0] == 404
        assert server.request("GET", f"/api/tables/{game['table']}")[0] == 404
        assert server.request("GET", f"/api/tables/{kept['table']}")[0] == 200
        with sqlite3.connect(db) as connection:
            ids = {i for (i,) in connection.execute("SELECT id FROM tables")}
            (actions,) = connection.execute("SELECT COUNT(*) FROM actions").fetchone()
        assert ids == {kept["table"]}
        assert actions == 0  # the finished game's actions went with it
        assert post_from(server, "127.0.0.2", "/api/tables", CREATE)[0] == 200
        ann.close()


def test_expiry_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with serving(db) as server:
        old = server.create(["classic"], ["open"])
        fresh = server.create(["classic"], ["open"])
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE tables SET touched = ? WHERE id = ?", (time.time() - 7 * 3600, old["table"])
        )
    with serving(db) as server:  # keep_idle: 6 hours by default
        assert server.request("GET", f"/api/tables/{old['table']}")[0] == 404
        assert server.request("GET", f"/api/tables/{fresh['table']}")[0] == 200
        assert stored(server) == 1


def test_an_address_shares_one_message_budget_over_all_its_connections(tmp_path: Path) -> None:
    # 5 a second per connection (bursts of 10), 20 a second per address (bursts of 40)
    with serving(tmp_path / "t.sqlite", rate=5, burst=10) as server:
        created = server.create(["classic"], ["open"])
        players = [Player(server, created["table"], None) for _ in range(6)]
        for player in players:
            player.until("state")
        began = time.monotonic()
        for player in players:
            for _ in range(10):
                player.send({"type": "ping"})
        answers: list[dict[str, Any]] = []
        for player in players:
            answers += [player.read() for _ in range(10)]
        elapsed = time.monotonic() - began
        pongs = sum(1 for m in answers if m["type"] == "pong")
        refused = [m for m in answers if m["type"] == "error"]
        assert pongs <= 40 + 20 * elapsed + 1, (pongs, elapsed)
        assert len(refused) >= 60 - (40 + 20 * elapsed + 1)
        assert refused
        assert all(m["code"] == "too-many" for m in refused)
        assert any("from your address" in m["message"] for m in refused)


def half_head(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A connection that sends half a request head and then nothing."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return sock


def answer_of(sock: socket.socket, timeout: float = 10.0) -> bytes:
    sock.settimeout(timeout)
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return data


def test_connections_per_address_are_capped(tmp_path: Path) -> None:
    with serving(tmp_path / "t.sqlite", per_address=4, header_timeout=30) as server:
        held = [half_head(server.port) for _ in range(4)]
        time.sleep(0.2)
        refused = half_head(server.port)
        answer = answer_of(refused)
        assert answer.startswith(b"HTTP/1.1 503"), answer
        assert b'"code": "busy"' in answer
        assert b"too many connections from your address (at most 4)" in answer
        assert server.guard.refused == 1
        # other addresses are served meanwhile
        status, _, _ = post_from(server, "127.0.0.2", "/api/tables", CREATE)
        assert status == 200
        for sock in held:
            sock.close()
        deadline = time.monotonic() + 5
        while server.guard.by_address.get("127.0.0.1") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.request("GET", "/api/rules")[0] == 200


def test_a_request_head_must_arrive_in_time(tmp_path: Path) -> None:
    with serving(tmp_path / "t.sqlite", header_timeout=1.0) as server:
        began = time.monotonic()
        answer = answer_of(half_head(server.port))
        assert 0.9 <= time.monotonic() - began <= 5
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert b"send a whole request head within 1 seconds" in answer
        # on a kept-alive connection, the next head is timed too
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(0.3)
        sock.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        answer = answer_of(sock)
        assert answer.startswith(b"HTTP/1.1 200")
        assert b"HTTP/1.1 408" in answer
        assert server.guard.timed_out == 2
        # a websocket that upgraded in time stays
        player = Player(server, server.create(["classic"], ["open"])["table"], None)
        player.until("state")
        time.sleep(1.5)
        player.send({"type": "ping"})
        assert player.until("pong")["type"] == "pong"


def test_at_the_cap_the_connection_waiting_longest_makes_room(tmp_path: Path) -> None:
    with serving(tmp_path / "t.sqlite", max_connections=8, per_address=100, header_timeout=60) as server:
        held = [half_head(server.port, f"127.0.2.{i}") for i in range(1, 9)]
        time.sleep(0.3)
        assert len(server.guard.open) == 8
        began = time.monotonic()
        status, _, _ = post_from(server, "127.0.3.1", "/api/tables", CREATE)
        assert status == 200
        assert time.monotonic() - began < 5
        assert answer_of(held[0]).startswith(b"HTTP/1.1 408")  # the oldest
        assert server.guard.evicted >= 1


def _figures(pid: int) -> tuple[int, int]:
    """(open file descriptors, resident memory in kB) of process ``pid``."""
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    rss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    return fds, rss


def _limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


SLOW_CLIENTS = 300
SLOW_SECONDS = 25.0


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="reads /proc")
def test_slow_connections_do_not_starve_the_server(tmp_path: Path) -> None:
    """The issue's reproduction: the server under ``ulimit -n 256``, 300 connections from 300
    addresses each sending half a request head and then nothing, for 25 seconds (each one opened
    again as soon as the server drops it). Meanwhile the API answers every probe within seconds
    (it used to time out for as long as the connections were held), the process keeps below its
    limit of open files, its memory stays bounded and its log quiet."""
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "unorules.serve", "--port", str(port), "--db", str(tmp_path / "t.sqlite")],
            stdout=sink,
            stderr=subprocess.STDOUT,
            preexec_fn=_limit_files,
        )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        cap, _backlog = default_limits(256)
        fds_before, rss_before = _figures(process.pid)
        selector = selectors.DefaultSelector()
        addresses = [f"127.1.{n // 250}.{n % 250 + 1}" for n in range(SLOW_CLIENTS)]

        def open_slow(address: str) -> None:
            sock = socket.socket()
            sock.bind((address, 0))
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, [address, False])

        for address in addresses:
            open_slow(address)
        answers: dict[str, int] = {}
        probes: list[float] = []
        failures: list[str] = []
        peak_fds, peak_rss = fds_before, rss_before
        began = time.monotonic()
        next_probe = began + 1.0
        while time.monotonic() - began < SLOW_SECONDS:
            for key, events in selector.select(timeout=0.05):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                address, sent = key.data
                if events & selectors.EVENT_WRITE and not sent:
                    with contextlib.suppress(OSError):
                        sock.send(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                    key.data[1] = True
                    selector.modify(sock, selectors.EVENT_READ, key.data)
                    continue
                try:
                    data = sock.recv(4096)
                except OSError:
                    data = b""
                if data.startswith(b"HTTP/1.1 "):
                    code = data[9:12].decode()
                    answers[code] = answers.get(code, 0) + 1
                if not data or data.startswith(b"HTTP/1.1 "):
                    selector.unregister(sock)
                    sock.close()
                    open_slow(address)  # the attacker comes straight back
            if time.monotonic() >= next_probe:
                next_probe += 1.0
                start = time.monotonic()
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    connection.request("GET", "/api/rules")
                    status = connection.getresponse().status
                    connection.close()
                except OSError as exc:
                    status = 0
                    failures.append(repr(exc))
                probes.append(time.monotonic() - start)
                if status != 200:
                    failures.append(f"status {status}")
                fds, rss = _figures(process.pid)
                peak_fds, peak_rss = max(peak_fds, fds), max(peak_rss, rss)
        for key in list(selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        selector.close()
        figures = {
            "slow clients": SLOW_CLIENTS,
            "seconds": SLOW_SECONDS,
            "connection cap": cap,
            "answers to the slow clients by status": answers,
            "API probes": len(probes),
            "API probe failures": failures,
            "API probe seconds, max": round(max(probes), 3),
            "API probe seconds, median": round(sorted(probes)[len(probes) // 2], 3),
            "open files before, peak (limit 256)": (fds_before, peak_fds),
            "resident memory kB before, peak": (rss_before, peak_rss),
            "log bytes": log.stat().st_size,
        }
        print("\nslow-connection figures:", json.dumps(figures, indent=1))
        assert not failures, figures
        assert max(probes) < 5.0, figures
        assert peak_fds < 256 - 16, figures
        assert peak_rss - rss_before < 64 * 1024, figures
        assert sum(answers.values()) >= SLOW_CLIENTS, figures  # dropped with an answer, not left hanging
        assert log.stat().st_size < 64 * 1024, log.read_text()[:2000]
        assert "Too many open files" not in log.read_text()
    finally:
        process.terminate()
        process.wait(15)

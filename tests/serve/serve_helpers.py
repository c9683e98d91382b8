"""Helpers for the server's tests: a real uvicorn server on loopback, HTTP and websocket clients."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from unorules.serve.app import create_app
from unorules.serve.guard import ConnectionGuard, uvicorn_config

STEP_LIMIT = 5000
"""The most messages a helper reads while waiting for something (bounded loops)."""


CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which the browser tests drive through Playwright (never its own download)."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 900}


def browser_api() -> Any:
    """``playwright.sync_api`` for a browser test module, called at its import: the module is
    skipped, saying how to get them, without Chromium at :data:`CHROMIUM` or without playwright,
    unless ``UNORULES_REQUIRE_BROWSER`` is set (``.ci/run`` sets it: then it fails instead)."""
    if not CHROMIUM.exists() and not os.environ.get("UNORULES_REQUIRE_BROWSER"):
        pytest.skip(
            "needs Chromium at /usr/bin/chromium: apt-get install chromium (.ci/run installs it)",
            allow_module_level=True,
        )
    return pytest.importorskip(
        "playwright.sync_api", reason="needs playwright: pip install -r requirements-dev.txt"
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


GUARD_SETTINGS = ("max_connections", "per_address", "header_timeout")


class Server:
    """``create_app(db, **settings)`` served by uvicorn in a thread on 127.0.0.1, behind the
    connection guard as ``unorules serve`` runs it (``max_connections``, ``per_address`` and
    ``header_timeout`` go to the guard)."""

    def __init__(self, db: str | Path, port: int | None = None, **settings: Any) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        guard = {k: settings.pop(k) for k in GUARD_SETTINGS if k in settings}
        self.app = create_app(str(db), **settings)
        config, self.guard = uvicorn_config(self.app, "127.0.0.1", self.port, **guard)
        self.guard: ConnectionGuard
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> Server:
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                return self
            time.sleep(0.01)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        """``(status, JSON answer)`` of an HTTP request (``Content-Type: application/json``
        unless ``headers`` say otherwise)."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.url + path, data=data, method=method)
        for name, value in {"Content-Type": "application/json", **(headers or {})}.items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def get_text(self, path: str) -> tuple[int, str, dict[str, str]]:
        """``(status, body text, headers by lower-case name)`` of a GET request."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as answer:
                status, body, headers = answer.status, answer.read(), answer.headers
        except urllib.error.HTTPError as error:
            status, body, headers = error.code, error.read(), error.headers
        return status, body.decode(), {k.lower(): v for k, v in headers.items()}

    def create(self, rules: list[str], seats: list[str], **extra: Any) -> dict[str, Any]:
        status, answer = self.request(
            "POST", "/api/tables", {"rules": rules, "seats": seats, "name": "Ann", **extra}
        )
        assert status == 200, answer
        return dict(answer)

    def join(self, table: str, name: str, invite: str | None = None) -> dict[str, Any]:
        """Take a seat at ``table`` (with its invitation code: the table's own, found in the server,
        unless ``invite`` is given)."""
        code = self.app.state.tables.get(table).invite if invite is None else invite
        status, answer = self.request("POST", f"/api/tables/{table}/join", {"name": name, "invite": code})
        assert status == 200, answer
        return dict(answer)


@contextmanager
def serving(db: str | Path, **settings: Any) -> Iterator[Server]:
    server = Server(db, **settings).start()
    try:
        yield server
    finally:
        server.stop()


class Player:
    """A websocket client of one table: says hello, then reads welcome, state and error messages."""

    def __init__(self, server: Server, table: str, token: str | None, **options: Any) -> None:
        self.ws: ClientConnection = connect(
            f"{server.ws_url}/ws/{table}", open_timeout=10, **options
        ).__enter__()
        self.received: list[dict[str, Any]] = []
        self.send({"type": "hello", "token": token})

    def send(self, data: Any) -> None:
        self.ws.send(data if isinstance(data, str | bytes) else json.dumps(data))

    def read(self, timeout: float = 10.0) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        return dict(message)

    def until(self, kind: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """Read until a message of type ``kind`` (with these top-level fields) arrives."""
        for _ in range(STEP_LIMIT):
            message = self.read(timeout)
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message
        raise AssertionError(f"no {kind} message in {STEP_LIMIT} messages")

    def state_at(self, version: int, timeout: float = 10.0) -> dict[str, Any]:
        """Read until the state message of table version ``version``."""
        for _ in range(STEP_LIMIT):
            message = self.read(timeout)
            if message["type"] == "state" and message["table"]["version"] >= version:
                return message
        raise AssertionError(f"no state at version {version}")

    def close(self) -> None:
        self.ws.close()


def play_until(player: Player, stop_version: int | None = None) -> dict[str, Any]:
    """Act for ``player``'s seat whenever it is to move (its first legal action), until the
    game is over or the table reaches ``stop_version``; returns the last state message."""
    latest = player.until("state")
    sent = -1
    for _ in range(20000):
        view, table = latest["view"], latest["table"]
        if view["is_over"] or (stop_version is not None and table["version"] >= stop_version):
            return latest
        mine = [a for a in view["legal_actions"] if a["seat"] == latest["you"]]
        if mine and view["current_player"] == latest["you"] and sent != table["version"]:
            plays = [a for a in mine if a["verb"] == "play"]
            player.send({"type": "act", "action": (plays or mine)[0]["text"], "version": table["version"]})
            sent = table["version"]
        try:
            message = player.read()
        except TimeoutError:
            errors = [m for m in player.received if m["type"] == "error"]
            raise AssertionError(f"stuck at {latest['table']} {errors}") from None
        if message["type"] == "state":
            latest = message
    raise AssertionError("the game did not end")

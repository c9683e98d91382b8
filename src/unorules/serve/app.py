"""The ASGI application: pages, a small JSON API for tables, a websocket per client.

HTTP:

* ``GET /`` the page that creates a table; ``GET /t/ID`` a table's page;
  ``GET /static/...`` their scripts and styles.
* ``GET /api/rules``: the installed plugins with their declared options.
* ``POST /api/tables`` ``{"rules": [...], "options": {...}, "seats": [...],
  "name": "...", "seed": N}`` (``seed`` optional): a new table, whose
  creator takes seat 0 and whose ``seats`` are the others (``"open"`` or
  ``"bot:KIND"``); answers ``{"table", "seat": 0, "token"}``.
* ``GET /api/tables/ID``: what everyone may know of a table.
* ``POST /api/tables/ID/join`` ``{"name": "..."}``: take an open seat;
  answers ``{"seat", "token"}``.
* ``GET /api/tables/ID/record``: the game record of a finished game
  (:class:`unorules.record.GameRecord` text, for ``unorules replay``); a game
  still being played only with ``running_records`` (its seed shows every hand).

Websocket ``/ws/ID``: the client's first message is ``{"type": "hello",
"token": TOKEN or null}`` (``null``: watch as a spectator); then
``{"type": "act", "action": "1: play R7", "version": N}`` or
``{"type": "start"}``. The server sends ``{"type": "state", ...}`` after
every change (the seat's view only) and ``{"type": "error", "code",
"message"}`` for a refused message, which changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from unorules.bots import BOTS
from unorules.ruleset import MAX_PLAYERS, MIN_PLAYERS, installed_plugins
from unorules.serve.store import Store
from unorules.serve.tables import Client, ServeError, Table, Tables

__all__ = ["MESSAGE_LIMIT", "RateLimit", "create_app"]

STATIC = Path(__file__).parent / "static"

MESSAGE_LIMIT = 2048
"""The longest websocket message a client may send, in characters."""

BODY_LIMIT = 16384
"""The largest HTTP request body, in bytes."""

HELLO_TIMEOUT = 10.0
"""Seconds a new websocket has to say hello."""

_PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    def __init__(self, rate: float = 10.0, burst: float = 20.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Whether one more message may be handled now (and count it)."""
        moment = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def _error(exc: ServeError, status: int = 400) -> JSONResponse:
    codes = {
        "unknown-table": 404,
        "bad-token": 403,
        "not-your-seat": 403,
        "full": 409,
        "not-started": 409,
        "not-over": 409,
    }
    return JSONResponse({"error": str(exc), "code": exc.code}, status_code=codes.get(exc.code, status))


async def _json_body(request: Request) -> dict[str, Any]:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_LIMIT:
            raise ServeError(f"the request is larger than {BODY_LIMIT} bytes")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ServeError("the request body must be a JSON object") from None
    if not isinstance(data, dict):
        raise ServeError("the request body must be a JSON object")
    return data


def rules_data() -> dict[str, Any]:
    """The installed plugins and their options, for the form that creates a table."""
    plugins = []
    for name, plugin in sorted(installed_plugins().items()):
        doc = (plugin.__doc__ or "").strip().split("\n\n")[0]
        plugins.append(
            {
                "name": name,
                "doc": " ".join(doc.split()),
                "requires": list(plugin.requires),
                "conflicts": dict(plugin.conflicts),
                "options": [
                    {
                        "name": o.name,
                        "default": o.to_text(o.default),
                        "allowed": o.allowed,
                        "doc": o.doc,
                        "switch": isinstance(o.default, bool),
                    }
                    for o in plugin.options
                ],
            }
        )
    return {"plugins": plugins, "bots": list(BOTS), "min_players": MIN_PLAYERS, "max_players": MAX_PLAYERS}


def create_app(
    db: str | Path = ":memory:",
    *,
    bot_delay: float = 0.6,
    rate: float = 10.0,
    burst: float = 20.0,
    max_tables: int = 5000,
    running_records: bool = False,
) -> Starlette:
    """The server's ASGI app, keeping its tables in the SQLite file ``db``.

    ``bot_delay``: seconds before a bot acts; ``rate``/``burst``: each
    websocket's message budget (:class:`RateLimit`); ``max_tables``: the
    most tables kept; ``running_records``: whether anyone may download the
    record of a game still being played (its seed shows every hand: for
    tables where nobody minds, or to debug), not only of a finished one.
    """
    store = Store(db)
    tables = Tables(store, bot_delay=bot_delay, max_tables=max_tables)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tables.load()
        try:
            yield
        finally:
            await tables.close()
            store.close()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=_PAGE_HEADERS)

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html", headers=_PAGE_HEADERS)

    async def api_rules(request: Request) -> Response:
        return JSONResponse(rules_data())

    async def api_create(request: Request) -> Response:
        try:
            data = await _json_body(request)
            rules = data.get("rules")
            options = data.get("options", {})
            seats = data.get("seats")
            if not isinstance(rules, list):
                raise ServeError("'rules' must list plugin names, such as ['classic', 'stacking']")
            if not isinstance(options, dict):
                raise ServeError("'options' must map option names to their values as text")
            if not isinstance(seats, list):
                raise ServeError("'seats' must list the other seats: 'open' or 'bot:KIND'")
            seed = data.get("seed")
            if seed is not None and (
                isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63
            ):
                raise ServeError("'seed' must be a whole number from 0 to 2**63-1, or left out")
            table, token = tables.create(rules, options, seats, data.get("name", ""), seed=seed)
        except ServeError as exc:
            return _error(exc)
        return JSONResponse({"table": table.id, "seat": 0, "token": token})

    async def api_table(request: Request) -> Response:
        try:
            table = tables.get(request.path_params["table_id"])
        except ServeError as exc:
            return _error(exc)
        return JSONResponse(table.meta())

    async def api_record(request: Request) -> Response:
        try:
            table = tables.get(request.path_params["table_id"])
            if not table.state.is_over and not running_records:
                raise ServeError(
                    "the game is not over yet: its record names the seed of the deal, which would "
                    "show every hand; download it when the game has ended",
                    "not-over",
                )
        except ServeError as exc:
            return _error(exc)
        return PlainTextResponse(
            table.record().dumps(),
            headers={
                "Content-Disposition": f'attachment; filename="table-{table.id}.unorules"',
                "Cache-Control": "no-cache",
                "X-Content-Type-Options": "nosniff",
            },
        )

    async def api_join(request: Request) -> Response:
        try:
            table = tables.get(request.path_params["table_id"])
            data = await _json_body(request)
            seat, token = await tables.join(table, data.get("name", ""))
        except ServeError as exc:
            return _error(exc)
        return JSONResponse({"table": table.id, "seat": seat, "token": token})

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table, seat = await _hello(ws, tables)
        except (ServeError, WebSocketDisconnect) as exc:
            if isinstance(exc, ServeError):
                await _refuse(ws, exc)
            return
        client = tables.connect(table, seat, ws.send_text)
        limit = RateLimit(rate, burst)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                try:
                    await _handle(tables, client, message, limit)
                except ServeError as exc:
                    client.push({"type": "error", "code": exc.code, "message": str(exc)})
        except WebSocketDisconnect:
            return
        finally:
            await tables.disconnect(client)

    routes = [
        Route("/", index),
        Route("/t/{table_id}", table_page),
        Route("/api/rules", api_rules),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table_id}/record", api_record),
        WebSocketRoute("/ws/{table_id}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tables = tables
    return app


def _decode(message: Any) -> dict[str, Any]:
    text = message.get("text")
    if text is None:
        raise ServeError("send text messages holding JSON objects, not binary ones")
    if len(text) > MESSAGE_LIMIT:
        raise ServeError(f"message too long ({len(text)} characters; at most {MESSAGE_LIMIT})")
    try:
        data = json.loads(text)
    except ValueError:
        raise ServeError('a message must be a JSON object such as {"type": "act", ...}') from None
    if not isinstance(data, dict):
        raise ServeError('a message must be a JSON object such as {"type": "act", ...}')
    return data


async def _hello(ws: WebSocket, tables: Tables) -> tuple[Table, int | None]:
    try:
        async with asyncio.timeout(HELLO_TIMEOUT):
            message = await ws.receive()
    except TimeoutError:
        raise ServeError(f"say hello within {HELLO_TIMEOUT:g} seconds", "bad-request") from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect()
    data = _decode(message)
    if data.get("type") != "hello":
        raise ServeError('the first message must be {"type": "hello", "token": ...}')
    table = tables.get(ws.path_params["table_id"])
    token = data.get("token")
    if token is None:
        return table, None
    seat = table.seat_of(token) if isinstance(token, str) and len(token) <= 64 else None
    if seat is None:
        raise ServeError("this token holds no seat at this table", "bad-token")
    return table, seat


async def _refuse(ws: WebSocket, exc: ServeError) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "code": exc.code, "message": str(exc)}))
        await ws.close(code=4000 + {"unknown-table": 404, "bad-token": 403}.get(exc.code, 400))


async def _handle(tables: Tables, client: Client, message: Any, limit: RateLimit) -> None:
    if not limit.allow():
        raise ServeError(
            f"too many messages: at most {limit.rate:g} a second (bursts of {limit.burst:g}); "
            "this one was ignored",
            "too-many",
        )
    data = _decode(message)
    kind = data.get("type")
    if kind == "act":
        await tables.act(client.table, client.seat, data.get("version"), data.get("action"))
    elif kind == "start":
        await tables.start(client.table, client.seat)
    elif kind == "ping":
        client.push({"type": "pong"})
    else:
        raise ServeError(f"unknown message type {str(kind)[:20]!r}; types: act, start, ping")

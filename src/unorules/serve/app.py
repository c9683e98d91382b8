"""The ASGI application: pages, a small JSON API for tables, a websocket per client.

HTTP:

* ``GET /`` the page that creates a table; ``GET /t/ID`` a table's page;
  ``GET /static/...`` their scripts and styles.
* ``GET /api/rules``: the installed plugins in plain words, with their
  options and the control that fits each, and the presets that fill the
  form (:func:`unorules.serve.describe.rules_data`).
* ``POST /api/tables`` ``{"rules": [...], "options": {...}, "seats": [...],
  "name": "...", "seed": N, "turn_seconds": N}`` (``seed`` and
  ``turn_seconds`` optional): a new table, whose creator takes seat 0 and
  whose ``seats`` are the others (``"open"`` or ``"bot:KIND"``); answers
  ``{"table", "seat": 0, "token", "invite"}``.
* ``GET /api/tables/ID``: what everyone may know of a table.
* ``POST /api/tables/ID/join`` ``{"name": "...", "invite": CODE}``: take an
  open seat; answers ``{"table", "seat", "token"}``.
* ``GET /api/tables/ID/record``: the game record of a finished game
  (:class:`unorules.record.GameRecord` text, for ``unorules replay``); a game
  still being played only with ``running_records`` (its seed shows every hand).

Websocket ``/ws/ID``: the client's first message is ``{"type": "hello",
"token": TOKEN or null}`` (``null``: watch as a spectator); then
``{"type": "act", "action": "1: play R7", "version": N}``, ``{"type":
"start"}``, ``{"type": "back"}``, ``{"type": "rematch"}`` or ``{"type":
"ping"}``. The server sends ``{"type": "welcome", ...}`` once, ``{"type":
"state", ...}`` after every change (the seat's view only) and ``{"type":
"error", "code", "message"}`` for a refused message, which changes nothing.

Every ``POST`` and websocket passes the Origin check
(:class:`~unorules.serve.origins.OriginPolicy`); request bodies must be JSON
(``Content-Type: application/json``, at most :data:`BODY_LIMIT` bytes, read
within ``body_timeout`` seconds); creating tables is rate-limited per client
address and for the whole server (:class:`~unorules.serve.limits.CreationLimit`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from unorules.rulebook import Rulebook
from unorules.serve.cluster import Cluster
from unorules.serve.describe import name_rulebooks, rules_data
from unorules.serve.errors import ServeError
from unorules.serve.inputs import MESSAGE_LIMIT, decode_json, decode_message
from unorules.serve.limits import AddressBuckets, CreationLimit, RateLimit
from unorules.serve.origins import OriginPolicy
from unorules.serve.store import PostgresStore, open_store
from unorules.serve.tables import Client, Table, Tables

__all__ = ["BODY_LIMIT", "HELLO_TIMEOUT", "MESSAGE_LIMIT", "RateLimit", "create_app", "rules_data"]

_log = logging.getLogger("unorules.serve")

STATIC = Path(__file__).parent / "static"

BODY_LIMIT = 16384
"""The largest HTTP request body, in bytes."""

HELLO_TIMEOUT = 10.0
"""Seconds a new websocket has to say hello."""

ADDRESS_FACTOR = 4.0
"""An address's websocket message budget is this many times one connection's (``rate``, ``burst``),
shared by all its connections."""

_PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def _error(exc: ServeError) -> JSONResponse:
    headers = {}
    if exc.retry_after is not None:
        headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
    return JSONResponse({"error": str(exc), "code": exc.code}, status_code=exc.status, headers=headers)


def _address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client is not None else ""


async def _json_body(request: Request, timeout: float) -> dict[str, Any]:
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise ServeError(
            "send the request body as JSON, with the header Content-Type: application/json",
            "bad-content-type",
        )
    body = b""
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > BODY_LIMIT:
                    raise ServeError(f"the request is larger than {BODY_LIMIT} bytes")
    except TimeoutError:
        raise ServeError(f"send the request body within {timeout:g} seconds", "timeout") from None
    return decode_json(body)


def create_app(
    db: str | Path = ":memory:",
    *,
    bot_delay: float = 0.6,
    rate: float = 10.0,
    burst: float = 20.0,
    max_tables: int = 5000,
    running_records: bool = False,
    keep_finished: float = 3600.0,
    keep_idle: float = 6 * 3600.0,
    creates_per_address: int = 30,
    creates_total: int = 600,
    allow_origins: Iterable[str] = (),
    body_timeout: float = 10.0,
    rulebooks: Iterable[Rulebook] = (),
) -> Starlette:
    """The server's ASGI app, keeping its tables in ``db``: an SQLite file, or a PostgreSQL
    database (``postgresql://…``) that any number of these apps share
    (:mod:`unorules.serve.cluster`).

    ``bot_delay``: seconds before a bot (or the autopilot) acts;
    ``rate``/``burst``: each websocket's message budget (:class:`RateLimit`;
    an address's connections share :data:`ADDRESS_FACTOR` times that);
    ``max_tables``: the most tables kept; ``keep_finished``/``keep_idle``:
    seconds after which a finished game, and a table where nothing happened
    and nobody's page is open, expire; ``creates_per_address``/``creates_total``:
    the tables an address and the whole server may create an hour;
    ``allow_origins``: pages of other origins allowed to use the server
    (:class:`~unorules.serve.origins.OriginPolicy`); ``body_timeout``: seconds
    to send a request body; ``running_records``: whether anyone may download the
    record of a game still being played (its seed shows every hand: for
    tables where nobody minds, or to debug), not only of a finished one;
    ``rulebooks``: a family's rule sets (:class:`~unorules.rulebook.Rulebook`)
    the new-table page offers first, before the shipped presets.
    """
    offered = tuple(rulebooks)
    name_rulebooks(offered)  # a table of a rulebook's rule set is titled by its name
    store = open_store(db)
    shared = store if store.shared else None
    tables = Tables(
        store,
        bot_delay=bot_delay,
        max_tables=max_tables,
        keep_finished=keep_finished,
        keep_idle=keep_idle,
        creation=CreationLimit(creates_per_address, creates_total, shared=shared),
    )
    cluster = Cluster(tables, store) if isinstance(store, PostgresStore) else None
    origins = OriginPolicy(allow_origins)
    addresses = AddressBuckets(rate * ADDRESS_FACTOR, burst * ADDRESS_FACTOR)
    sweep_every = min(60.0, max(0.2, min(keep_finished, keep_idle) / 4))

    async def sweeper() -> None:
        while True:
            await asyncio.sleep(sweep_every)
            try:
                tables.sweep()
                if shared is not None:
                    shared.forget_old_buckets()
            except Exception:  # a failing sweep is logged; the next one tries again
                _log.exception("removing expired tables failed")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tables.load()
        if cluster is not None:
            await cluster.start()
        tables.sweep()
        task = asyncio.ensure_future(sweeper())
        try:
            yield
        finally:
            task.cancel()
            if cluster is not None:
                await cluster.stop()
            await tables.close()
            store.close()

    def check_origin(connection: HTTPConnection) -> None:
        origins.check(
            connection.headers.get("origin"),
            connection.headers.get("host"),
            connection.url.scheme in ("https", "wss"),
        )

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=_PAGE_HEADERS)

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html", headers=_PAGE_HEADERS)

    async def api_rules(request: Request) -> Response:
        return JSONResponse(rules_data(offered))

    async def api_create(request: Request) -> Response:
        try:
            check_origin(request)
            data = await _json_body(request, body_timeout)
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
            table, token = tables.create(
                rules,
                options,
                seats,
                data.get("name", ""),
                seed=seed,
                turn_seconds=data.get("turn_seconds", 0),
                address=_address(request),
            )
        except ServeError as exc:
            return _error(exc)
        return JSONResponse({"table": table.id, "seat": 0, "token": token, "invite": table.invite})

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
            check_origin(request)
            table = tables.get(request.path_params["table_id"])
            data = await _json_body(request, body_timeout)
            seat, token = await tables.join(table, data.get("name", ""), data.get("invite"))
        except ServeError as exc:
            return _error(exc)
        return JSONResponse({"table": table.id, "seat": seat, "token": token})

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        address = _address(ws)
        try:
            check_origin(ws)
            table, seat = await _hello(ws, tables)
        except ServeError as exc:
            await _refuse(ws, exc)
            return
        except WebSocketDisconnect:
            return

        async def close(code: int, reason: str) -> None:
            await ws.close(code, reason)

        client = tables.connect(table, seat, ws.send_text, address, close)
        limit = RateLimit(rate, burst)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                try:
                    await _handle(tables, client, message, limit, addresses.get(address))
                except ServeError as exc:
                    client.push({"type": "error", "code": exc.code, "message": str(exc)})
                    if exc.close is not None:
                        client.end(exc.close, _reason(exc))
                except Exception:  # a bug (a plugin's, say) answers this message, not the connection
                    _log.exception("table %s: a message from seat %s failed", table.id, seat)
                    client.push(
                        {
                            "type": "error",
                            "code": "bad-request",
                            "message": "the server failed on this message",
                        }
                    )
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
    app.state.cluster = cluster
    app.state.origins = origins
    return app


def _reason(exc: ServeError) -> str:
    """A close frame's reason: the error's message, cut to what a close frame holds (123 bytes)."""
    text = str(exc)
    while len(text.encode("utf-8")) > 120:
        text = text[: len(text) - 8]
    return text


async def _hello(ws: WebSocket, tables: Tables) -> tuple[Table, int | None]:
    try:
        async with asyncio.timeout(HELLO_TIMEOUT):
            message = await ws.receive()
    except TimeoutError:
        raise ServeError(f"say hello within {HELLO_TIMEOUT:g} seconds", "timeout", close=1008) from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect()
    data = decode_message(message)
    if data.get("type") != "hello":
        raise ServeError('the first message must be {"type": "hello", "token": ...}', close=1008)
    table = tables.get(ws.path_params["table_id"])
    token = data.get("token")
    if token is None:
        return table, None
    seat = table.seat_of(token) if isinstance(token, str) and len(token) <= 64 else None
    if seat is None:
        raise ServeError("this token holds no seat at this table", "bad-token")
    return table, seat


async def _refuse(ws: WebSocket, exc: ServeError) -> None:
    """Answer a refused hello (or origin) with the error, then close with its code and reason."""
    code = exc.close or {"unknown-table": 4404, "bad-token": 4403}.get(exc.code, 4400)
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "code": exc.code, "message": str(exc)}))
        await ws.close(code, _reason(exc))


async def _handle(tables: Tables, client: Client, message: Any, limit: RateLimit, shared: RateLimit) -> None:
    if not limit.allow():
        raise ServeError(
            f"too many messages: at most {limit.rate:g} a second (bursts of {limit.burst:g}); "
            "this one was ignored",
            "too-many",
        )
    if not shared.allow():
        raise ServeError(
            f"too many messages from your address: at most {shared.rate:g} a second over all its "
            "connections; this one was ignored",
            "too-many",
        )
    data = decode_message(message)
    kind = data.get("type")
    if kind == "act":
        await tables.act(client.table, client.seat, data.get("version"), data.get("action"))
    elif kind == "start":
        await tables.start(client.table, client.seat)
    elif kind == "back":
        await tables.back(client.table, client.seat)
    elif kind == "undo":
        await tables.take_back(client.table, client.seat, data.get("version"))
    elif kind == "rematch":
        await tables.rematch(client.table, client.seat, client.address)
    elif kind == "ping":
        client.push({"type": "pong"})
    else:
        raise ServeError(
            f"unknown message type {str(kind)[:20]!r}; types: act, start, back, undo, rematch, ping"
        )

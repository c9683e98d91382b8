"""The transport's guard: a cap on connections (overall and per client address) and a header timeout.

uvicorn reads a request's headers for as long as the client takes: a few
hundred connections that each send half a header hold the server's file
descriptors, and once the process runs out of them its accept loop logs an
error for every attempt. :class:`ConnectionGuard` closes that door, in the
HTTP and websocket protocol classes given to uvicorn (:func:`uvicorn_config`):

* a connection that has not sent a whole request head within
  ``header_timeout`` seconds of connecting (or of its last answer, on a
  kept-alive connection) is answered ``408`` (``timeout``) and closed;
* one client address holds at most ``per_address`` connections (websockets
  included); one more is answered ``503`` (``busy``) and closed at once;
* the server holds at most ``max_connections``; at the cap, a new connection
  takes the place of the one that has waited longest for its request head
  (answered ``408``), and when none is waiting it is answered ``503``.

The default cap (:func:`default_limits`) stays below the process's limit of
open files with room for the accept loop's bursts and the SQLite files, so
the process never runs out of descriptors.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import resource
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from unorules.serve.inputs import MESSAGE_LIMIT

__all__ = ["ConnectionGuard", "default_limits", "uvicorn_config"]

_log = logging.getLogger("unorules.serve")

RESERVED_FILES = 64
"""Open files kept free of connections: the SQLite database and its journal, the pages served, logs."""


def default_limits(open_files: int | None = None) -> tuple[int, int]:
    """``(max_connections, backlog)`` for a process allowed ``open_files`` descriptors (by default
    its soft ``RLIMIT_NOFILE``): the accept loop takes up to ``backlog`` connections at a time
    before the guard sees them, so the cap leaves room for two such bursts and
    :data:`RESERVED_FILES`."""
    if open_files is None:
        open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if open_files == resource.RLIM_INFINITY:
            open_files = 1 << 20
    backlog = max(8, min(128, open_files // 8))
    return max(8, min(10000, open_files - 2 * backlog - RESERVED_FILES)), backlog


class ConnectionGuard:
    """The connections a server holds, by transport and client address, and the figures of what it
    refused: ``refused`` (answered 503), ``timed_out`` (answered 408 for a late request head),
    ``evicted`` (the same, to make room at the cap)."""

    def __init__(self, max_connections: int, per_address: int = 64, header_timeout: float = 10.0) -> None:
        if max_connections < 1 or per_address < 1 or header_timeout <= 0:
            raise ValueError("the connection caps are at least 1 and the header timeout positive")
        self.max_connections = max_connections
        self.per_address = per_address
        self.header_timeout = header_timeout
        self.open: dict[asyncio.BaseTransport, str] = {}
        self.by_address: Counter[str] = Counter()
        # connections waiting for a request head, oldest first, with the call that drops them
        self.waiting: dict[asyncio.BaseTransport, Callable[[], None]] = {}
        self.refused = 0
        self.timed_out = 0
        self.evicted = 0

    def admit(self, transport: asyncio.BaseTransport, address: str) -> str | None:
        """Count a new connection from ``address``; the reason it is refused, or ``None``."""
        if transport in self.open:
            return None  # a connection upgraded to a websocket: counted once
        if self.by_address[address] >= self.per_address:
            self.refused += 1
            return (
                f"too many connections from your address (at most {self.per_address}): "
                "close some pages and try again"
            )
        if len(self.open) >= self.max_connections:
            if not self.waiting:
                self.refused += 1
                return "the server is busy (too many connections): try again in a moment"
            oldest = next(iter(self.waiting.values()))
            self.evicted += 1
            oldest()
        self.open[transport] = address
        self.by_address[address] += 1
        return None

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Forget a closed connection (once; later calls do nothing)."""
        self.waiting.pop(transport, None)
        address = self.open.pop(transport, None)
        if address is not None:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]

    def figures(self) -> dict[str, int]:
        """What the guard holds and has refused, for logs and tests."""
        return {
            "open": len(self.open),
            "waiting": len(self.waiting),
            "addresses": len(self.by_address),
            "refused": self.refused,
            "timed_out": self.timed_out,
            "evicted": self.evicted,
        }


def _raw_answer(status: int, reason: str, code: str, message: str) -> bytes:
    body = json.dumps({"error": message, "code": code}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class GuardedHttp(H11Protocol):
    """uvicorn's h11 protocol, counted by :attr:`guard` and timed while it reads a request head."""

    guard: ClassVar[ConnectionGuard]
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        refusal = self.guard.admit(transport, self.client[0] if self.client else "")
        if refusal is not None:
            self._answer(503, "Service Unavailable", "busy", refusal)
            return
        self._await_head()

    def _await_head(self) -> None:
        self._stop_timer()
        self._head_timer = self.loop.call_later(self.guard.header_timeout, self._head_late)
        self.guard.waiting[self.transport] = self._evict

    def _head_arrived(self) -> None:
        self._stop_timer()
        self.guard.waiting.pop(self.transport, None)

    def _stop_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def data_received(self, data: bytes) -> None:
        scope = self.scope
        super().data_received(data)
        if self.scope is not scope:  # a request head arrived (a request, or a websocket upgrade)
            self._head_arrived()

    def on_response_complete(self) -> None:
        scope = self.scope
        if not self.transport.is_closing():
            self._await_head()  # a kept-alive connection: the next request head is timed too
        super().on_response_complete()
        if self.scope is not scope:  # a pipelined request was already waiting
            self._head_arrived()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        self.guard.release(self.transport)
        super().connection_lost(exc)

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport in self.guard.waiting:
            self.guard.timed_out += 1
            self._answer(
                408,
                "Request Timeout",
                "timeout",
                f"send a whole request head within {self.guard.header_timeout:g} seconds",
            )

    def _evict(self) -> None:
        self._answer(408, "Request Timeout", "timeout", "the server needed this connection for another")

    def _answer(self, status: int, reason: str, code: str, message: str) -> None:
        self._stop_timer()
        if not self.transport.is_closing():
            self.transport.write(_raw_answer(status, reason, code, message))
            self.transport.close()
        self.guard.release(self.transport)


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, released from :attr:`guard` when its connection closes
    (it was admitted as the HTTP connection it was upgraded from)."""

    guard: ClassVar[ConnectionGuard]

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self.transport)
        super().connection_lost(exc)


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""Every log line of a server: its time, level and logger (``uvicorn.error``, ``unorules.serve``)."""


def log_config(level: str = "warning") -> dict[str, Any]:
    """The ``logging`` configuration of a server (uvicorn's, each line with :data:`LOG_FORMAT`),
    the server's own ``unorules`` logger included at ``info``."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    for formatter in config["formatters"].values():
        formatter["fmt"] = LOG_FORMAT
        formatter["use_colors"] = False
    config["loggers"]["unorules"] = {"handlers": ["default"], "level": "INFO", "propagate": True}
    config["loggers"]["uvicorn"]["level"] = level.upper()
    return config


def uvicorn_config(
    app: Any,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    max_connections: int | None = None,
    per_address: int = 64,
    header_timeout: float = 10.0,
    log_level: str = "warning",
) -> tuple[uvicorn.Config, ConnectionGuard]:
    """The uvicorn configuration that serves ``app`` behind a :class:`ConnectionGuard`, and the
    guard. ``max_connections`` defaults to :func:`default_limits`' cap. The client's address is
    the connection's own (``X-Forwarded-For`` is not read: no proxy is trusted to name it)."""
    cap, backlog = default_limits()
    guard = ConnectionGuard(cap if max_connections is None else max_connections, per_address, header_timeout)
    http = type("GuardedHttpProtocol", (GuardedHttp,), {"guard": guard})
    ws = type("GuardedWebSocketProtocol", (GuardedWebSocket,), {"guard": guard})
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=http,
        ws=ws,
        # The transport refuses frames far beyond any valid message before they are read;
        # the app answers smaller oversized ones with an error.
        ws_max_size=MESSAGE_LIMIT * 8,
        # a view is a few kilobytes: compressing each costs the server more than it saves on a network
        ws_per_message_deflate=False,
        proxy_headers=False,
        backlog=backlog,
        log_level=log_level,
        log_config=log_config(log_level),
        lifespan="on",
    )
    return config, guard

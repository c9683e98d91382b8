"""``unorules serve``: play any installed rule set in the browser, with friends and bots.

The reference game server, built only on the public API: the server decides
everything (each message is an action the library validates), each seat is
bound to a secret token, each client gets only its seat's view (spectators
the public view), and every action is committed to SQLite before anyone
hears of it, so a restarted server resumes every table; or to PostgreSQL,
which any number of server processes share (:mod:`unorules.serve.cluster`).
Needs the ``serve`` extra (``pip install 'unorules[serve]'``: Starlette,
uvicorn, websockets), and for PostgreSQL the ``postgres`` extra (psycopg).

>>> from unorules.serve import create_app      # doctest: +SKIP
>>> app = create_app("tables.sqlite")          # any ASGI server can run it
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from unorules.serve.command import DEFAULT_DB

__all__ = ["create_app", "run"]

if TYPE_CHECKING:
    from starlette.applications import Starlette


def create_app(db: str = ":memory:", **settings: Any) -> Starlette:
    """The server's ASGI app (see :func:`unorules.serve.app.create_app`)."""
    from unorules.serve.app import create_app as create

    return create(db, **settings)


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = DEFAULT_DB,
    *,
    max_connections: int | None = None,
    max_connections_per_address: int = 64,
    header_timeout: float = 10.0,
    **settings: Any,
) -> None:
    """Serve the app with uvicorn until interrupted (what ``unorules serve`` does), behind the
    connection guard (:mod:`unorules.serve.guard`: ``max_connections`` in all, by default what the
    process's open-file limit allows, ``max_connections_per_address`` from one client address,
    ``header_timeout`` seconds to send a request head, and as long to send a request body);
    ``settings`` go to :func:`unorules.serve.app.create_app`."""
    import uvicorn

    from unorules.serve.app import create_app as create
    from unorules.serve.guard import uvicorn_config

    settings.setdefault("body_timeout", header_timeout)
    app = create(db, **settings)
    config, _guard = uvicorn_config(
        app,
        host,
        port,
        max_connections=max_connections,
        per_address=max_connections_per_address,
        header_timeout=header_timeout,
    )
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C stops the server, as uvicorn.run does
        uvicorn.Server(config).run()

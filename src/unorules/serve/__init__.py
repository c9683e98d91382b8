"""``unorules serve``: play any installed rule set in the browser, with friends and bots.

The reference game server, built only on the public API: the server decides
everything (each message is an action the library validates), each seat is
bound to a secret token, each client gets only its seat's view (spectators
the public view), and every action is committed to SQLite before anyone
hears of it, so a restarted server resumes every table. Needs the ``serve``
extra (``pip install 'unorules[serve]'``: Starlette, uvicorn, websockets).

>>> from unorules.serve import create_app      # doctest: +SKIP
>>> app = create_app("tables.sqlite")          # any ASGI server can run it
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app", "run"]

if TYPE_CHECKING:
    from starlette.applications import Starlette


def create_app(db: str = ":memory:", **settings: Any) -> Starlette:
    """The server's ASGI app (see :func:`unorules.serve.app.create_app`)."""
    from unorules.serve.app import create_app as create

    return create(db, **settings)


def run(
    host: str = "127.0.0.1", port: int = 8000, db: str = "unorules-tables.sqlite", **settings: Any
) -> None:
    """Serve the app with uvicorn until interrupted (what ``unorules serve`` does)."""
    import uvicorn

    from unorules.serve.app import MESSAGE_LIMIT
    from unorules.serve.app import create_app as create

    app = create(db, **settings)
    # The transport refuses frames far beyond any valid message before they are read;
    # the app answers smaller oversized ones with an error.
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=MESSAGE_LIMIT * 8,
        # a view is a few kilobytes: compressing each costs the server more than it saves on a network
        ws_per_message_deflate=False,
        log_level="warning",
    )

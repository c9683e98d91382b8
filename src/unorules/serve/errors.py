"""The server's refusals: one exception, a code naming the kind, its HTTP status and close code.

Every request the server refuses raises :class:`ServeError` before anything
changes; the app turns it into a JSON answer ``{"error": MESSAGE, "code":
CODE}`` with :data:`HTTP_STATUS` ``[code]``, or over a websocket into a message
``{"type": "error", "code": CODE, "message": MESSAGE}``. The codes are listed
in ``docs/serve.rst``.
"""

from __future__ import annotations

from unorules.errors import UnorulesError

__all__ = ["CLOSE_CODES", "CODES", "HTTP_STATUS", "ServeError"]

HTTP_STATUS: dict[str, int] = {
    "bad-request": 400,
    "illegal": 400,
    "bad-token": 403,
    "bad-invite": 403,
    "not-your-seat": 403,
    "bad-origin": 403,
    "unknown-table": 404,
    "timeout": 408,
    "stale": 409,
    "full": 409,
    "not-started": 409,
    "not-over": 409,
    "bad-content-type": 415,
    "too-many": 429,
    "busy": 503,
    "closed": 410,
}
"""The HTTP status of each refusal's code."""

CODES = tuple(HTTP_STATUS)
"""Every code a refusal may carry."""

CLOSE_CODES: dict[str, int] = {
    "unknown-table": 4404,
    "bad-token": 4403,
    "closed": 4410,
    "bad-origin": 1008,
    "timeout": 1008,
}
"""The websocket close code sent after a refusal that ends the connection (the hello phase, a
table closed under the page), by code; any other code ends it with 4400. Messages that cannot be
decoded end it with 1007, over-long ones with 1008 (see :func:`unorules.serve.inputs.decode_message`)."""


class ServeError(UnorulesError):
    """A request the server refuses; ``code`` names the kind for clients (one of :data:`CODES`).

    ``close`` is, for a websocket message, the close code that ends the connection after the
    error is sent (``None``: the connection stays open); ``retry_after`` the seconds a client
    should wait before trying again (rate limits, a full server)."""

    def __init__(
        self,
        message: str,
        code: str = "bad-request",
        *,
        close: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        if code not in HTTP_STATUS:
            raise ValueError(f"unknown refusal code {code!r}")
        super().__init__(message)
        self.code = code
        self.close = close
        self.retry_after = retry_after

    @property
    def status(self) -> int:
        """The HTTP status answering this refusal."""
        return HTTP_STATUS[self.code]

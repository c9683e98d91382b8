"""Which web pages may use the server: the Origin check of websockets and of requests that change things.

A browser names the page a request comes from in the ``Origin`` header of
every websocket handshake and of every ``POST``. The server accepts:

* requests with no ``Origin`` (not sent by a browser page: a script, a bot,
  the command line cannot be made to act by a foreign page);
* its own pages (*same origin*): the ``Origin`` is ``http://HOST`` (or
  ``https``) where ``HOST`` is the request's ``Host`` header, *and* that host
  is an IP address or ``localhost``. A same-origin request under another
  name is refused unless listed: a foreign site whose name was made to
  resolve to this server (DNS rebinding) would otherwise pass for it;
* the origins given to :class:`OriginPolicy` (``--allow-origin``), e.g. the
  name the server is reached by behind a proxy, ``https://uno.example.org``.

Everything else (other sites, ``null`` from sandboxed frames and files) is
refused with :class:`~unorules.serve.errors.ServeError` ``bad-origin``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from unorules.serve.errors import ServeError

__all__ = ["OriginPolicy", "normalise_origin"]

_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalise_origin(text: str) -> str:
    """``text`` as an origin ``scheme://host[:port]`` in lower case, without a default port;
    ``ValueError`` if it is not one (a path, a query, a user, another scheme)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        raise ValueError(f"{text[:80]!r} is not an origin such as https://uno.example.org") from None
    scheme = parts.scheme.lower()
    if (
        scheme not in _DEFAULT_PORTS
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise ValueError(f"{text[:80]!r} is not an origin such as https://uno.example.org")
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    shown = "" if port is None or port == _DEFAULT_PORTS[scheme] else f":{port}"
    return f"{scheme}://{host}{shown}"


def _local_name(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


class OriginPolicy:
    """Accepts requests with no ``Origin``, same-origin ones by an IP address or ``localhost``,
    and those from ``allowed`` origins (each normalised; ``ValueError`` for one that is not an origin)."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = frozenset(normalise_origin(o) for o in allowed)

    def accepts(self, origin: str | None, host: str | None, secure: bool) -> bool:
        """Whether a request with these ``Origin`` and ``Host`` headers, over TLS or not, is accepted."""
        if origin is None:
            return True
        try:
            page = normalise_origin(origin)
        except ValueError:
            return False
        if page in self.allowed:
            return True
        if not host:
            return False
        try:
            served = normalise_origin(f"{'https' if secure else 'http'}://{host}")
        except ValueError:
            return False
        return page == served and _local_name(urlsplit(served).hostname or "")

    def check(self, origin: str | None, host: str | None, secure: bool) -> None:
        """:class:`ServeError` ``bad-origin`` unless :meth:`accepts`."""
        if not self.accepts(origin, host, secure):
            shown = (origin or "")[:80]
            raise ServeError(
                f"requests from the page at {shown!r} are refused: this server takes requests from "
                "its own pages (reached by an IP address or localhost) and the origins it was "
                "started with --allow-origin",
                "bad-origin",
                close=1008,
            )

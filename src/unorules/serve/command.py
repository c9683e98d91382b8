"""The ``serve`` command: its arguments and what running it does.

``unorules serve [--host 127.0.0.1] [--port 8000] [--db FILE] [--bot-delay S] [--running-records]``
(also ``python -m unorules.serve``). Registered by the command-line package
through :func:`add_parser` and :func:`run`.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["DEFAULT_DB", "add_parser", "main", "run"]

DEFAULT_DB = "unorules-tables.sqlite"


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return port


def _delay(text: str) -> float:
    try:
        delay = float(text)
    except ValueError:
        delay = -1.0
    if not 0.0 <= delay <= 60.0:
        raise argparse.ArgumentTypeError(f"a delay is a number of seconds from 0 to 60, not {text!r}")
    return delay


def _arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for your network)",
    )
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="FILE",
        help=f"SQLite file keeping every table, resumed on restart (default {DEFAULT_DB})",
    )
    parser.add_argument(
        "--bot-delay",
        type=_delay,
        default=0.6,
        metavar="SECONDS",
        help="how long bots wait before acting, so people can follow and act out of turn (default 0.6)",
    )
    parser.add_argument(
        "--running-records",
        action="store_true",
        help="let anyone download the record of a game still being played, not only of a finished one "
        "(the record's seed shows every hand: for tables where nobody minds, or to debug)",
    )
    return parser


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``serve`` on the command line's subparsers."""
    parser = subparsers.add_parser(
        "serve",
        help="play in the browser with friends and bots (needs the 'serve' extra)",
        description="Serve tables of any installed rule set to browsers: open the printed address, "
        "create a table, send the invitation link to your friends.",
    )
    return _arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; 2 when the extra is missing or the address is bad."""
    missing = [m for m in ("starlette", "uvicorn", "websockets") if importlib.util.find_spec(m) is None]
    if missing:
        print(
            f"unorules: error: serve needs {', '.join(missing)}: pip install 'unorules[serve]'",
            file=sys.stderr,
        )
        return 2
    try:
        ipaddress.ip_address(args.host)
    except ValueError:
        if args.host != "localhost":
            print(f"unorules: error: --host {args.host!r} is not an IP address", file=sys.stderr)
            return 2
    from unorules.serve import run as serve

    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(
        f"unorules serve: open http://{shown}:{args.port}/ (tables kept in {args.db}; Ctrl-C stops)",
        flush=True,
    )
    try:
        serve(
            host=args.host,
            port=args.port,
            db=args.db,
            bot_delay=args.bot_delay,
            running_records=args.running_records,
        )
    except KeyboardInterrupt:
        return 130
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m unorules.serve``: parse ``argv`` and serve."""
    parser = _arguments(argparse.ArgumentParser(prog="unorules serve", description=add_parser.__doc__))
    return run(parser.parse_args(argv))

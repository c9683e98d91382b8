"""The ``serve`` command: its arguments and what running it does.

``unorules serve [--host 127.0.0.1] [--port 8000] [--db FILE|URL] [--bot-delay S] [--running-records]
[--rules RULES] [--max-tables N] [--keep-finished TIME] [--keep-idle TIME] [--create-rate N]
[--create-rate-total N] [--max-connections N] [--max-connections-per-address N]
[--header-timeout S] [--allow-origin ORIGIN]``
(also ``python -m unorules.serve``). Registered by the command-line package
through :func:`add_parser` and :func:`run`.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import re
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


_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def _duration(text: str) -> float:
    """A duration: seconds, or a number followed by s, m, h or d (``90s``, ``30m``, ``6h``, ``2d``)."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text.lower())
    seconds = float(found.group(1)) * _UNITS[found.group(2)] if found else -1.0
    if not 1.0 <= seconds <= 366 * 86400:
        raise argparse.ArgumentTypeError(
            f"a duration is a number of seconds, or of minutes, hours or days as in 30m, 6h, 2d "
            f"(from 1 second to a year), not {text!r}"
        )
    return seconds


def _count(least: int, most: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"a whole number from {least} to {most}, not {text!r}")
        return value

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.5 <= value <= 300.0:
        raise argparse.ArgumentTypeError(f"a number of seconds from 0.5 to 300, not {text!r}")
    return value


def _origin(text: str) -> str:
    from unorules.serve.origins import normalise_origin

    try:
        return normalise_origin(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _bot_program(text: str) -> tuple[str, str]:
    name, sep, command = text.partition("=")
    name, command = name.strip().lower(), command.strip()
    if not sep or not name or not command:
        raise argparse.ArgumentTypeError(
            f"bad --bot {text[:60]!r}: write NAME=COMMAND, e.g. 'mine=node mybot.js'"
        )
    if not name.replace("-", "").replace("_", "").isalnum():
        raise argparse.ArgumentTypeError(f"bad bot name {name[:40]!r}: letters, digits, '-' and '_'")
    return name, command


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
        metavar="FILE|URL",
        help=f"where every table is kept, resumed on restart: an SQLite file (default {DEFAULT_DB}; "
        "one server process), or a PostgreSQL database, postgresql://USER:PASSWORD@HOST:PORT/NAME, "
        "that any number of server processes share (needs the 'postgres' extra)",
    )
    parser.add_argument(
        "--bot-delay",
        type=_delay,
        default=0.6,
        metavar="SECONDS",
        help="how long bots wait before acting, so people can follow and act out of turn (default 0.6)",
    )
    parser.add_argument(
        "--bot",
        type=_bot_program,
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="offer a bot program speaking the bot protocol as the seat kind bot:NAME, e.g. "
        "--bot 'mine=node mybot.js' (repeatable; see the bot protocol in the docs)",
    )
    parser.add_argument(
        "--running-records",
        action="store_true",
        help="let anyone download the record of a game still being played, not only of a finished one "
        "(the record's seed shows every hand: for tables where nobody minds, or to debug)",
    )
    parser.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="RULES",
        help="a rulebook file (.toml) or a preset the new-table page offers first, ahead of the shipped "
        "presets; repeat for several (the first is chosen when the page opens)",
    )
    tables = parser.add_argument_group("tables kept (see docs/serve.rst, 'Limits')")
    tables.add_argument(
        "--max-tables",
        type=_count(1, 1_000_000),
        default=5000,
        metavar="N",
        help="the most tables kept; creating one more is refused until some expire (default 5000)",
    )
    tables.add_argument(
        "--keep-finished",
        type=_duration,
        default=3600.0,
        metavar="TIME",
        help="how long a finished game is kept (its results and record) after its last move: "
        "seconds, or 30m, 6h, 2d (default 1h)",
    )
    tables.add_argument(
        "--keep-idle",
        type=_duration,
        default=6 * 3600.0,
        metavar="TIME",
        help="how long a table where nothing happens and no player's page is open is kept (default 6h)",
    )
    tables.add_argument(
        "--create-rate",
        type=_count(1, 1_000_000),
        default=30,
        metavar="N",
        help="tables one client address may create an hour, in bursts of a sixth of that (default 30)",
    )
    tables.add_argument(
        "--create-rate-total",
        type=_count(1, 10_000_000),
        default=600,
        metavar="N",
        help="tables the whole server may create an hour, in bursts of a sixth of that (default 600)",
    )
    network = parser.add_argument_group("connections and origins")
    network.add_argument(
        "--max-connections",
        type=_count(8, 1_000_000),
        default=None,
        metavar="N",
        help="the most connections held at once (default: what the open-file limit allows, at most 10000)",
    )
    network.add_argument(
        "--max-connections-per-address",
        type=_count(1, 1_000_000),
        default=64,
        metavar="N",
        help="the most connections from one client address, pages and websockets together (default 64)",
    )
    network.add_argument(
        "--header-timeout",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="time a client has to send a request's head, and again its body (default 10)",
    )
    network.add_argument(
        "--allow-origin",
        type=_origin,
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also accept requests from pages of ORIGIN, such as https://uno.example.org (the name "
        "the server is reached by behind a proxy); repeat for several. By default only the server's "
        "own pages, reached by an IP address or localhost, may create tables, join and play",
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
    from unorules.errors import RulesetError
    from unorules.rulebook import Rulebook, resolve
    from unorules.ruleset import Ruleset
    from unorules.serve import run as serve

    rulebooks: list[Rulebook] = []
    for text in args.rules:
        try:
            book = resolve(text)
            if book is None:
                raise RulesetError(f"--rules {text!r}: give a rulebook file (.toml) or a preset's name")
            Ruleset.from_rulebook(book)  # refused now rather than when a table is created
        except RulesetError as exc:
            print(f"unorules: error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 2
        rulebooks.append(book)
    for name, command in args.bot:
        _offer_program(name, command)

    from unorules.errors import UnorulesError
    from unorules.serve.store import PostgresStore, is_postgres_url

    if is_postgres_url(args.db) and importlib.util.find_spec("psycopg") is None:
        print(
            "unorules: error: a PostgreSQL --db needs psycopg: pip install 'unorules[postgres]'",
            file=sys.stderr,
        )
        return 2
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    kept = PostgresStore.shown(args.db) if is_postgres_url(args.db) else args.db
    print(
        f"unorules serve: open http://{shown}:{args.port}/ (tables kept in {kept}; Ctrl-C stops)",
        flush=True,
    )
    try:
        serve(
            host=args.host,
            port=args.port,
            db=args.db,
            bot_delay=args.bot_delay,
            running_records=args.running_records,
            max_tables=args.max_tables,
            keep_finished=args.keep_finished,
            keep_idle=args.keep_idle,
            creates_per_address=args.create_rate,
            creates_total=args.create_rate_total,
            max_connections=args.max_connections,
            max_connections_per_address=args.max_connections_per_address,
            header_timeout=args.header_timeout,
            allow_origins=args.allow_origin,
            rulebooks=rulebooks,
        )
    except KeyboardInterrupt:
        return 130
    except UnorulesError as exc:  # the tables database cannot be used (StoreError)
        print(f"unorules: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m unorules.serve``: parse ``argv`` and serve."""
    parser = _arguments(argparse.ArgumentParser(prog="unorules serve", description=add_parser.__doc__))
    return run(parser.parse_args(argv))


def _offer_program(name: str, command: str) -> None:
    """Make the bot program ``command`` a bot named ``name`` (the seat kind ``bot:NAME``)."""
    from unorules.bots import register_bot
    from unorules.protocol import CommandBot

    def factory(seed: object) -> CommandBot:
        return CommandBot(command, None if seed is None else str(seed))

    register_bot(name, factory)

"""The ``unorules`` command line: ``play``, ``simulate``, ``tournament``, ``summarize``, ``rules``,
``serve``, ``replay``, ``check``.

Every command takes ``--help``. Errors are one line on stderr, and the exit
status says what happened:

====  ===========================================================================
code  meaning
====  ===========================================================================
0     success (for ``play``: the game ended, or you typed ``quit``)
1     a failure while running: a game raised an error, a worker died, a file
      could not be written, ``play``'s input ended before the game did
2     bad usage: an unknown command or argument, an unknown plugin, a bad
      option value, plugins that conflict, ``--plot`` to PNG without matplotlib
130   interrupted (Ctrl-C)
====  ===========================================================================

Each command is a module of this package with two functions:
``add_parser(subparsers) -> ArgumentParser`` registers it and
``run(args) -> int`` runs it and returns the exit status. A new command is a
new module whose name is added to :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence

from unorules import __version__
from unorules.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    Failure,
    Parser,
    UsageError,
    error,
    parse_options,
)
from unorules.errors import UnorulesError

__all__ = [
    "COMMANDS",
    "EXIT_FAILURE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "build_parser",
    "main",
    "parse_options",
]

COMMANDS: tuple[str, ...] = (
    "play",
    "simulate",
    "tournament",
    "summarize",
    "rules",
    "serve",
    "replay",
    "check",
)
"""The commands, in the order ``--help`` lists them: each is the module ``unorules.cli.NAME``."""


def build_parser() -> argparse.ArgumentParser:
    """The ``unorules`` argument parser with every command of :data:`COMMANDS`."""
    parser = Parser(
        prog=PROG,
        description="Play, simulate and inspect UNO rule sets built from unorules plugins.",
        epilog="exit status: 0 ok, 1 failure while running, 2 bad usage, 130 interrupted",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in COMMANDS:
        module = importlib.import_module(f"unorules.cli.{name}")
        module.add_parser(commands).set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``unorules`` console script: runs the command line ``argv``
    (default: ``sys.argv[1:]``) and returns the exit status."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            raise UsageError(f"name a command: {', '.join(COMMANDS)} (see 'unorules --help')")
        code: int = args.run(args)
        return code
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except UsageError as exc:
        error(str(exc))
        return EXIT_USAGE
    except (Failure, UnorulesError) as exc:
        error(str(exc))
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print()  # end the line Ctrl-C interrupted
        error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_FAILURE
    except Exception as exc:  # a bug, most likely in a plugin: still one line, and exit 1
        error(f"unexpected {type(exc).__name__}: {exc}")
        return EXIT_FAILURE

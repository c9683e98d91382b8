"""The ``unorules`` command line (being written)."""

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``unorules`` console script."""
    print("unorules: the command line is not ready yet", file=sys.stderr)
    return 2

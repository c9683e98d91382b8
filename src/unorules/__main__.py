"""``python -m unorules``: the same as the ``unorules`` command."""

import sys

from unorules.cli import main

if __name__ == "__main__":
    sys.exit(main())

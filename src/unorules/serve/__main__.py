"""``python -m unorules.serve [--host H] [--port P] [--db FILE]``: the same as ``unorules serve``."""

from __future__ import annotations

import sys

from unorules.serve.command import main

sys.exit(main())

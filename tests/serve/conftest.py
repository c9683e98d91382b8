"""The server's tests need the ``serve`` extra; without it they are skipped with the way to get it."""

from __future__ import annotations

import importlib.util

collect_ignore_glob: list[str] = []
if any(importlib.util.find_spec(m) is None for m in ("starlette", "uvicorn", "websockets")):
    # Skipped, not failed: the server is an optional extra. dev.py setup installs it.
    collect_ignore_glob = ["test_*.py"]

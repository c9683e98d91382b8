"""``unorules serve``: play in the browser with friends and bots (the ``serve`` extra).

The command's arguments and what it does live with the server, in
:mod:`unorules.serve.command`; this module registers it on the command line.
"""

from __future__ import annotations

from unorules.serve.command import add_parser, run

__all__ = ["add_parser", "run"]

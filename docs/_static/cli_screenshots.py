"""Write the command-line screenshots of docs/cli.rst (SVG, through rich's recording console).

    .venv/bin/python docs/_static/cli_screenshots.py

Plays the first turns of a seeded ``unorules play`` game with scripted input, and a small
``unorules simulate --compare``, each on a recording colour console, and saves them as
``docs/_static/cli-play.svg`` and ``docs/_static/cli-simulate.svg``.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import IO

from rich.console import Console

from unorules.cli import main
from unorules.cli import play as play_command
from unorules.cli import simulate as simulate_command

HERE = Path(__file__).resolve().parent


def recording(width: int) -> Console:
    return Console(
        record=True, force_terminal=True, color_system="truecolor", width=width, file=io.StringIO()
    )


def play_screenshot() -> None:
    console = recording(100)
    play_command.make_console = lambda out: console  # type: ignore[assignment]
    sys.stdin = io.StringIO("2\n1\n1\nquit\n")
    main(["play", "--seed", "5", "--players", "3", "--rules", "classic,stacking,seven-o,swap-hands"])
    console.save_svg(str(HERE / "cli-play.svg"), title="unorules play")


def simulate_screenshot() -> None:
    console = recording(110)
    real = simulate_command.Console

    def recorded(*args: object, file: IO[str] | None = None, **kwargs: object) -> Console:
        return console if file is None else real(file=file)

    simulate_command.Console = recorded  # type: ignore[assignment,misc]
    command = "unorules simulate --games 200 --bots heuristic --seed 1 --compare classic classic,stacking"
    console.print(f"$ {command}")
    main(["simulate", "--games", "200", "--bots", "heuristic", "--seed", "1", "--quiet",
          "--compare", "classic", "classic,stacking"])  # fmt: skip
    console.save_svg(str(HERE / "cli-simulate.svg"), title="unorules simulate")


if __name__ == "__main__":
    play_screenshot()
    simulate_screenshot()

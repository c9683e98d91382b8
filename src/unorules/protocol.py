"""The bot protocol: bots in any language, as programs that read and write lines of JSON.

A bot program plays one seat. The host (``unorules simulate --bot
'cmd:node mybot.js'``, a ``unorules serve`` seat, any program using
:class:`CommandBot`) starts it, writes one JSON object per line to its
standard input and reads one JSON object per line from its standard output,
as chess engines speak UCI. Its standard error is free for logs. The
messages (the protocol is ``unorules.bot/1``; every object has a ``"type"``):

* ``hello`` (``protocol``: ``"unorules.bot/1"``), first: the bot answers
  ``{"type": "hello", "name": ...}``;
* ``game``: a game starts; ``seat``, ``players``, ``rules`` (the rule set's
  spec text, ``Ruleset.from_spec_text``) and ``seed`` (a string, for a bot
  that wants to be reproducible); no answer;
* ``view``: ``view`` is the seat's view of the new state (the
  ``unorules.view/1`` JSON of ``SeatView.to_data``), sent after every
  action, whether or not the seat may act; no answer;
* ``act``: the seat may act in ``view`` and has ``timeout`` seconds to
  answer ``{"type": "action", "action": "0: play R7"}``, or ``null`` for the
  action to let the moment pass (not on its turn);
* ``quit``: the host is done; the bot exits.

The action is written in the library's action notation (``Action.parse``) and
must be one of the view's ``legal_actions``. An answer that is late, not a
JSON object, not an action, or not legal is refused with a
:class:`~unorules.bots.BotError` (a bot program that exits, too), and the
game fails: the host never guesses what the bot meant.

Lines are UTF-8 JSON without newlines inside. A bot reads a line, and answers
``hello`` and ``act`` at once (flushing its output); everything else needs no
answer. The *Bot protocol* page of the documentation has a whole bot in
JavaScript.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import IO, Any

from unorules.actions import Action
from unorules.bots import BotError, Seed, check_choice
from unorules.errors import NotationError
from unorules.state import SeatView

__all__ = ["PROTOCOL", "CommandBot"]

PROTOCOL = "unorules.bot/1"
"""The protocol's name and version, sent in ``hello``."""

DEFAULT_TIMEOUT = 5.0
"""Seconds a bot program has to answer ``act``."""

START_TIMEOUT = 10.0
"""Seconds a bot program has to start and answer ``hello``."""


class CommandBot:
    """A bot that is a program speaking the bot protocol (see the module's docstring).

    ``command`` is the program and its arguments, as a list or as one
    shell-like string (``"node mybot.js"``, split with :func:`shlex.split`;
    no shell runs it). The program is started when the bot is first shown a
    view and stopped by :meth:`close` (or when the bot is collected), run in
    the directory ``cwd`` (the current one by default). It must answer
    ``hello`` within ``start_timeout`` seconds, and each ``act`` within
    ``timeout`` seconds. ``seed`` is sent to it in the ``game`` message.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        seed: Seed = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args:
            raise ValueError("a bot program needs a command, e.g. 'node mybot.js'")
        if not timeout > 0 or not start_timeout > 0:
            raise ValueError("a bot program's timeouts must be positive")
        self.command = args
        self.seed = "" if seed is None else str(seed)
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.cwd = cwd
        self.name = os.path.basename(args[-1]) if len(args) > 1 else os.path.basename(args[0])
        """The program's name for itself (its ``hello`` answer), else its command's last word."""
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._errors: deque[str] = deque(maxlen=20)
        self._game: tuple[int | None, int, str] | None = None
        self._last: SeatView | None = None

    def __repr__(self) -> str:
        return f"CommandBot({shlex.join(self.command)!r})"

    @classmethod
    def from_argument(cls, seed: Seed, argument: str) -> CommandBot:
        """The bot of ``cmd:COMMAND``: ``argument`` is the command line of the
        program, ``seed`` the seed it is sent."""
        return cls(argument, seed)

    # -- the bot -------------------------------------------------------------------------

    def observe(self, view: SeatView) -> None:
        """Send the program the seat's view of a new state (a ``view`` message)."""
        if view == self._last:
            return
        self._start_game(view)
        self._send({"type": "view", "view": view.to_data()})
        self._last = view

    def choose(self, view: SeatView) -> Action | None:
        """Ask the program for its action in ``view`` (an ``act`` message) and
        check its answer."""
        self._start_game(view)
        self._send({"type": "act", "view": view.to_data(), "timeout": self.timeout})
        self._last = view
        answer = self._answer("action", self.timeout, "act")
        text = answer.get("action")
        if text is None:
            if view.current_player == view.seat:
                raise BotError(f"bot program {self.name!r} of seat {view.seat} chose nothing on its turn")
            return None
        if not isinstance(text, str):
            raise BotError(f"bot program {self.name!r} answered an action that is not a string: {text!r:.80}")
        try:
            action = Action.parse(text, default_seat=view.seat)
        except NotationError as exc:
            raise BotError(
                f"bot program {self.name!r} answered {text[:80]!r}, which is not an action: {exc}"
            ) from None
        return check_choice(self, view, action)

    def close(self) -> None:
        """Tell the program to quit and stop it (killed if it has not exited within a second)."""
        process = self._process
        self._process = None
        self._game = None
        self._last = None
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin is not None:
                process.stdin.write(json.dumps({"type": "quit"}) + "\n")
                process.stdin.flush()
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __del__(self) -> None:
        process = getattr(self, "_process", None)  # None when __init__ refused its arguments
        if process is not None and process.poll() is None:
            process.kill()

    def __enter__(self) -> CommandBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the program ---------------------------------------------------------------------

    def _start_game(self, view: SeatView) -> None:
        if self._process is None:
            self._start()
        game = (view.seat, view.players, view.ruleset)
        if self._game != game or (not view.rounds and view.last_action is None and self._last != view):
            self._game = game
            self._send(
                {
                    "type": "game",
                    "seat": view.seat,
                    "players": view.players,
                    "rules": view.ruleset,
                    "seed": self.seed,
                }
            )

    def _start(self) -> None:
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                bufsize=1,
                cwd=self.cwd,
            )
        except OSError as exc:
            raise BotError(
                f"cannot start bot program {shlex.join(self.command)!r}: {exc.strerror or exc}"
            ) from None
        self._process = process
        self._lines = queue.Queue()
        assert process.stdout is not None
        assert process.stderr is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines.put), daemon=True).start()
        threading.Thread(target=_pump, args=(process.stderr, self._log), daemon=True).start()
        self._send({"type": "hello", "protocol": PROTOCOL})
        hello = self._answer("hello", self.start_timeout, "hello")
        name = hello.get("name")
        if isinstance(name, str) and name.strip():
            self.name = name.strip()[:40]

    def _log(self, line: str | None) -> None:
        if line is not None:
            self._errors.append(line)

    def _send(self, message: dict[str, Any]) -> None:
        process = self._process
        assert process is not None
        assert process.stdin is not None
        try:
            process.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            process.stdin.flush()
        except OSError:
            raise BotError(
                f"bot program {self.name!r} stopped reading its input{self._exit_note()}"
            ) from None

    def _answer(self, kind: str, timeout: float, request: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0)) if left > 0 else self._lines.get_nowait()
            except queue.Empty:
                raise BotError(
                    f"bot program {self.name!r} did not answer {request!r} within {timeout:g} s"
                ) from None
            if line is None:
                raise BotError(f"bot program {self.name!r} exited{self._exit_note()}")
            text = line.strip()
            if not text:
                continue
            try:
                message = json.loads(text)
            except ValueError:
                raise BotError(
                    f"bot program {self.name!r} wrote a line that is not JSON: {text[:80]!r}"
                ) from None
            if not isinstance(message, dict) or message.get("type") != kind:
                raise BotError(
                    f"bot program {self.name!r} answered {request!r} with {text[:80]!r}: "
                    f"expected an object of type {kind!r}"
                )
            return message

    def _exit_note(self) -> str:
        process = self._process
        code = None if process is None else process.poll()
        if code is None and process is not None:
            try:
                code = process.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                code = None
        status = "" if code is None else f" (exit status {code})"
        errors = " | ".join(line.strip() for line in self._errors if line.strip())
        return status + (f"; its last messages: {errors[-300:]}" if errors else "")


def _pump(stream: IO[str], put: Any) -> None:
    """Hand every line of ``stream`` to ``put``, then ``None`` at its end."""
    try:
        for line in stream:
            put(line)
    except (OSError, ValueError):
        pass
    put(None)

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

Lines are UTF-8 JSON without newlines inside, each at most
:data:`LINE_LIMIT` bytes (a longer line, or bytes that are not UTF-8, is a
:class:`~unorules.bots.BotError`). A bot reads a line, and answers ``hello``
and ``act`` at once (flushing its output); everything else needs no answer.
The host keeps only the last :data:`ERROR_TAIL` bytes of its standard error.
On POSIX the program runs in a process group of its own (a new session), and
:meth:`CommandBot.close` ends the whole group: the processes it started, too.
The *Bot protocol* page of the documentation has a whole bot in JavaScript.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Any, NoReturn

from unorules.actions import Action
from unorules.bots import BotError, Seed, check_choice
from unorules.errors import NotationError
from unorules.state import SeatView

__all__ = ["ERROR_TAIL", "LINE_LIMIT", "PROTOCOL", "CommandBot"]

PROTOCOL = "unorules.bot/1"
"""The protocol's name and version, sent in ``hello``."""

DEFAULT_TIMEOUT = 5.0
"""Seconds a bot program has to answer ``act``."""

START_TIMEOUT = 10.0
"""Seconds a bot program has to start and answer ``hello``."""

QUIT_GRACE = 1.0
"""Seconds a bot program has to exit after ``quit`` before its process group is killed."""

LINE_LIMIT = 1 << 20
"""The most bytes of one line a bot program may write on its standard output (1 MiB)."""

ERROR_TAIL = 2048
"""How many of the last bytes of a bot program's standard error are kept, for error messages."""

_CHUNK = 1 << 16
_POLL = 0.1
_POSIX = os.name == "posix"

# What the reader of a program's output hands on: a line, a reason to stop reading, the end.
_LINE, _BAD, _END = "line", "bad", "end"
_Item = tuple[str, str]


class CommandBot:
    """A bot that is a program speaking the bot protocol (see the module's docstring).

    ``command`` is the program and its arguments, as a list or as one
    shell-like string (``"node mybot.js"``, split with :func:`shlex.split`;
    no shell runs it). The program is started when the bot is first shown a
    view and stopped by :meth:`close` (or when the bot is collected), run in
    the directory ``cwd`` (the current one by default). It must answer
    ``hello`` within ``start_timeout`` seconds, and each ``act`` within
    ``timeout`` seconds (and read what it is sent within ``timeout``
    seconds). ``seed`` is sent to it in the ``game`` message.

    Every call may block for its timeout: a host with other work to do (a
    server) calls the bot from a thread of its own.
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
        try:
            args = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as exc:
            raise BotError(f"bad bot program command {str(command)[:80]!r}: {exc}") from None
        if not args:
            raise BotError("a bot program needs a command, e.g. 'node mybot.js'")
        if not timeout > 0 or not start_timeout > 0:
            raise BotError("a bot program's timeouts must be positive")
        self.command = args
        self.seed = "" if seed is None else str(seed)
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.cwd = cwd
        self.name = os.path.basename(args[-1]) if len(args) > 1 else os.path.basename(args[0])
        """The program's name for itself (its ``hello`` answer), else its command's last word."""
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[_Item] = queue.Queue()
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        self._broken: str | None = None
        self._game: tuple[int | None, int, str] | None = None
        self._last: SeatView | None = None

    def __repr__(self) -> str:
        return f"CommandBot({shlex.join(self.command)!r})"

    @classmethod
    def from_argument(cls, seed: Seed, argument: str) -> CommandBot:
        """The bot of ``cmd:COMMAND``: ``argument`` is the command line of the
        program, ``seed`` the seed it is sent."""
        return cls(argument, seed)

    @property
    def running(self) -> bool:
        """Whether the program has been started and not stopped (by :meth:`close`)."""
        return self._process is not None

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
        """Tell the program to quit and stop it: if it has not exited within
        :data:`QUIT_GRACE` seconds it is killed, and so is every process left
        in its process group (what it started)."""
        process = self._process
        self._process = None
        self._game = None
        self._last = None
        if process is None:
            return
        if process.poll() is None and self._broken is None:
            with contextlib.suppress(BotError):
                self._write(process, json.dumps({"type": "quit"}) + "\n", 0.2)
        _close_quietly(process.stdin)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=QUIT_GRACE)
        _end_group(process)
        with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL ends it at once
            process.wait(timeout=5.0)

    def __del__(self) -> None:
        process = getattr(self, "_process", None)  # None when __init__ refused its arguments
        if process is not None:
            _end_group(process)

    def __enter__(self) -> CommandBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the program ---------------------------------------------------------------------

    def _start_game(self, view: SeatView) -> None:
        if self._broken is not None:
            raise BotError(self._broken)
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
                bufsize=0,
                cwd=self.cwd,
                start_new_session=_POSIX,  # its own process group: close() ends all of it
            )
        except OSError as exc:
            raise BotError(
                f"cannot start bot program {shlex.join(self.command)!r}: {exc.strerror or exc}"
            ) from None
        self._process = process
        self._lines = queue.Queue()
        self._tail = bytearray()
        self._broken = None
        assert process.stdin is not None
        assert process.stdout is not None
        assert process.stderr is not None
        if _POSIX:
            os.set_blocking(process.stdin.fileno(), False)  # writes wait with select, to a deadline
        reader = threading.Thread(
            target=_read_lines, args=(process.stdout, self._lines.put, LINE_LIMIT), daemon=True
        )
        reader.start()
        threading.Thread(target=self._keep_tail, args=(process.stderr,), daemon=True).start()
        self._send({"type": "hello", "protocol": PROTOCOL}, self.start_timeout)
        hello = self._answer("hello", self.start_timeout, "hello")
        name = hello.get("name")
        if isinstance(name, str) and name.strip():
            self.name = name.strip()[:40]

    def _keep_tail(self, stream: IO[bytes]) -> None:
        """Keep the last :data:`ERROR_TAIL` bytes the program writes on its standard error."""
        try:
            fd = stream.fileno()
            while chunk := os.read(fd, _CHUNK):
                with self._tail_lock:
                    self._tail += chunk
                    if len(self._tail) > ERROR_TAIL:
                        del self._tail[:-ERROR_TAIL]
        except (OSError, ValueError):
            pass
        finally:
            _close_quietly(stream)

    def _send(self, message: dict[str, Any], timeout: float | None = None) -> None:
        process = self._process
        assert process is not None
        self._write(process, json.dumps(message, separators=(",", ":")) + "\n", timeout or self.timeout)

    def _write(self, process: subprocess.Popen[bytes], text: str, timeout: float) -> None:
        """Write ``text`` to the program's input, waiting at most ``timeout`` seconds for it to read."""
        stdin = process.stdin
        assert stdin is not None
        data = memoryview(text.encode("utf-8"))
        deadline = time.monotonic() + timeout
        try:
            fd = stdin.fileno()
            while data:
                try:
                    written = os.write(fd, data)
                except BlockingIOError:
                    written = 0
                data = data[written:]
                if not data:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    self._fail(f"has not read its input for {timeout:g} s")
                select.select([], [fd], [], left)
        except (OSError, ValueError):
            self._fail(self._gone("stopped reading its input"))

    def _fail(self, what: str) -> NoReturn:
        """Refuse the program from now on: ``what`` happened."""
        self._broken = f"bot program {self.name!r} {what}"
        raise BotError(self._broken)

    def _next_line(self, timeout: float, request: str, allowed: float | None = None) -> str:
        """The next line the program writes, within ``timeout`` seconds (what is left of
        the ``allowed`` seconds the request had, named in the error)."""
        if self._broken is not None:
            raise BotError(self._broken)
        deadline = time.monotonic() + timeout
        exited_at: float | None = None
        while True:
            left = deadline - time.monotonic()
            try:
                kind, text = self._lines.get(timeout=min(max(left, 0.0), _POLL))
            except queue.Empty:
                process = self._process
                if exited_at is None and process is not None and process.poll() is not None:
                    exited_at = time.monotonic()  # what it wrote before exiting may still come
                if exited_at is not None and time.monotonic() - exited_at > 2 * _POLL:
                    self._fail(self._gone("exited"))
                if left <= 0:
                    self._fail(
                        f"did not answer {request!r} within {timeout if allowed is None else allowed:g} s"
                    )
                continue
            if kind == _LINE:
                return text
            if kind == _BAD:
                self._fail(text)
            self._fail(self._gone("exited", "closed its output"))

    def _answer(self, kind: str, timeout: float, request: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            text = self._next_line(max(deadline - time.monotonic(), 0.0), request, timeout).strip()
            if not text:
                continue
            try:
                message = json.loads(text)
            except ValueError:
                self._fail(f"wrote a line that is not JSON: {text[:80]!r}")
            if not isinstance(message, dict) or message.get("type") != kind:
                self._fail(f"answered {request!r} with {text[:80]!r}: expected an object of type {kind!r}")
            return dict(message)

    def _gone(self, exited: str, running: str | None = None) -> str:
        """What happened to a program that stopped talking: ``exited`` (with its exit code) if
        it has exited (it is given a moment), else ``running`` (and that it still runs);
        then the last lines of its standard error."""
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        if code is None:
            what = f"{running or exited} (it still runs)"
        elif code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            what = f"{exited} (killed by {name})"
        else:
            what = f"{exited} with code {code}"
        with self._tail_lock:
            tail = self._tail.decode("utf-8", "replace")
        lines = " | ".join(line.strip() for line in tail.splitlines()[-8:] if line.strip())
        return what + (f"; its last messages: {lines[-300:]}" if lines else "")


def _read_lines(stream: IO[bytes], put: Callable[[_Item], None], limit: int) -> None:
    """Hand on every line of ``stream`` (read in chunks), then the end; a line longer than
    ``limit`` bytes or not UTF-8 stops the reading with its reason."""
    pending = bytearray()
    searched = 0
    try:
        fd = stream.fileno()
        while chunk := os.read(fd, _CHUNK):
            pending += chunk
            while (end := pending.find(b"\n", searched)) >= 0:
                line = bytes(pending[:end])
                del pending[: end + 1]
                searched = 0
                if len(line) > limit:
                    put((_BAD, f"wrote a line longer than {limit} bytes"))
                    return
                try:
                    put((_LINE, line.decode("utf-8")))
                except UnicodeDecodeError as exc:
                    bad = line[exc.start : exc.start + 8]
                    put((_BAD, f"sent bytes that are not UTF-8 ({bad!r} at byte {exc.start} of a line)"))
                    return
            searched = len(pending)
            if len(pending) > limit:
                put((_BAD, f"wrote a line longer than {limit} bytes"))
                return
    except (OSError, ValueError):
        pass
    finally:
        _close_quietly(stream)
    put((_END, ""))


def _close_quietly(stream: IO[bytes] | None) -> None:
    if stream is not None:
        with contextlib.suppress(OSError):
            stream.close()


def _end_group(process: subprocess.Popen[bytes]) -> None:
    """Kill ``process`` and, on POSIX, every process left in its process group."""
    if _POSIX:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        with contextlib.suppress(OSError):  # it exited meanwhile
            process.kill()

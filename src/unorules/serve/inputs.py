"""What the server reads from clients, checked before anything else sees it.

* :func:`decode_json`: a request body or websocket message to a JSON object,
  or :class:`~unorules.serve.errors.ServeError` ``bad-request``: not JSON,
  not a JSON object, nested deeper than :data:`MAX_DEPTH` (deeper than
  Python's parser allows too), not valid Unicode (a lone surrogate such as
  ``"\\ud800"`` anywhere, keys included);
* :func:`decode_message`: a websocket message (text, at most
  :data:`MESSAGE_LIMIT` characters) to a JSON object, the error carrying the
  close code that ends the connection (1007 for a payload that cannot be
  decoded, 1008 for one that breaks the protocol's limits);
* :func:`check_name`: a player's name, normalised (NFC, runs of spaces made
  one) and checked: printable, no control, format (bidirectional overrides,
  zero-width characters), private-use or unassigned characters, no
  invisible "letters", at most two combining marks in a row, 1 to
  :data:`NAME_LIMIT` characters and at most :data:`NAME_BYTES` bytes of UTF-8.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from unorules.bots import BOTS
from unorules.errors import RulesetError
from unorules.ruleset import Ruleset, installed_plugins
from unorules.serve.errors import ServeError
from unorules.serve.store import SeatRecord

__all__ = [
    "MAX_DEPTH",
    "MESSAGE_LIMIT",
    "NAME_BYTES",
    "NAME_LIMIT",
    "TURN_SECONDS",
    "build_ruleset",
    "check_name",
    "check_turn_seconds",
    "decode_json",
    "decode_message",
    "name_key",
    "seat_record",
]

MESSAGE_LIMIT = 2048
"""The longest websocket message a client may send, in characters."""

MAX_DEPTH = 8
"""The deepest nesting of arrays and objects a request or message may have (valid ones have 2)."""

NAME_LIMIT = 24
"""The longest player name, in characters (code points, after NFC normalisation)."""

NAME_BYTES = 64
"""The longest player name in bytes of UTF-8."""

_SURROGATE = re.compile("[\ud800-\udfff]")

# Characters of the categories refused in names: control, format (bidirectional marks and
# overrides, zero-width spaces and joiners, the byte-order mark), surrogates, private use,
# unassigned, and the line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

# "Letters" and symbols that print as nothing, used to make a name look blank or like another.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")

_MARKS = frozenset({"Mn", "Me"})


def _check_tree(value: Any, what: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and strings that are not valid Unicode."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise ServeError(f"{what} holds text that is not valid Unicode (a lone surrogate)")
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise ServeError(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)")
            if isinstance(item, dict):
                for key, inner in item.items():
                    stack.append((key, depth + 1))
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)


def decode_json(
    data: str | bytes, what: str = "the request body", close: int | None = None
) -> dict[str, Any]:
    """``data`` read as a JSON object; :class:`ServeError` ``bad-request`` (carrying ``close``)
    if it is not one, is nested too deeply or holds text that is not valid Unicode."""
    example = '{"type": "act", ...}' if what != "the request body" else '{"name": ...}'
    try:
        parsed = json.loads(data)
    except RecursionError:
        raise ServeError(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)", close=close) from None
    except ValueError:  # UnicodeDecodeError included: bytes that are not UTF-8
        raise ServeError(f"{what} must be a JSON object such as {example}", close=close) from None
    if not isinstance(parsed, dict):
        raise ServeError(f"{what} must be a JSON object such as {example}", close=close)
    if (
        isinstance(data, str)
        and "\\u" not in data
        and data.count("[") + data.count("{") <= MAX_DEPTH
        and not _SURROGATE.search(data)
    ):
        # text without escapes or surrogates of its own holds none, and cannot nest deeper than
        # its brackets: the common message needs no walk through what it decoded to
        return parsed
    try:
        _check_tree(parsed, what)
    except ServeError as exc:
        raise ServeError(str(exc), close=close) from None
    return parsed


def decode_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """A websocket message (the ASGI ``websocket.receive`` event) read as a JSON object.

    Refused with ``bad-request``, and the connection then closed: a binary
    message or one that is not a JSON object of valid Unicode (1007), one
    longer than :data:`MESSAGE_LIMIT` characters (1008)."""
    text = message.get("text")
    if not isinstance(text, str):
        raise ServeError("send text messages holding JSON objects, not binary ones", close=1007)
    if len(text) > MESSAGE_LIMIT:
        raise ServeError(f"message too long ({len(text)} characters; at most {MESSAGE_LIMIT})", close=1008)
    return decode_json(text, "a message", close=1007)


def _describe(char: str) -> str:
    return f"U+{ord(char):04X} ({unicodedata.name(char, 'unnamed').lower()})"


_NAME_RULE = (
    f"a name is 1 to {NAME_LIMIT} characters (at most {NAME_BYTES} bytes) of printable text, "
    "without <, > or &"
)


def check_name(name: Any) -> str:
    """A player's name, normalised (NFC, surrounding space removed, runs of spaces made one);
    :class:`ServeError` ``bad-request`` saying what is wrong unless it is 1 to :data:`NAME_LIMIT`
    printable characters of at most :data:`NAME_BYTES` bytes (see the module's docstring)."""
    if not isinstance(name, str):
        raise ServeError(f"{_NAME_RULE}; give it as text")
    if _SURROGATE.search(name):
        raise ServeError(f"{_NAME_RULE}: this one is not valid Unicode (a lone surrogate)")
    text = unicodedata.normalize("NFC", name)
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES or char in _INVISIBLE:
            raise ServeError(f"{_NAME_RULE}: {_describe(char)} is not allowed")
        if char in "<>&":
            raise ServeError(f"{_NAME_RULE}: {char} is not allowed")
        marks = marks + 1 if category in _MARKS else 0
        if marks > 2:
            raise ServeError(f"{_NAME_RULE}: at most 2 combining marks in a row")
    text = " ".join(text.split())
    if not text:
        raise ServeError(f"{_NAME_RULE}: this one is empty")
    if len(text) > NAME_LIMIT:
        raise ServeError(f"{_NAME_RULE}: this one has {len(text)} characters")
    size = len(text.encode("utf-8"))
    if size > NAME_BYTES:
        raise ServeError(f"{_NAME_RULE}: this one has {size} bytes")
    if unicodedata.category(text[0]) in _MARKS:
        raise ServeError(f"{_NAME_RULE}: it may not begin with a combining mark")
    return text


def name_key(name: str) -> str:
    """What two names are compared by: a name looking like another one at the table is refused
    (compatibility forms and case folded: "ＡＮＮ" and "ann" are "Ann")."""
    return unicodedata.normalize("NFKC", name).casefold()


TURN_SECONDS = (5, 3600)
"""The shortest and the longest turn timer a table may have, in seconds (0: none)."""


def check_turn_seconds(value: Any) -> int:
    """A table's turn timer in seconds: 0 (none) or a whole number in :data:`TURN_SECONDS`."""
    low, high = TURN_SECONDS
    if isinstance(value, bool) or not isinstance(value, int) or not (value == 0 or low <= value <= high):
        raise ServeError(f"'turn_seconds' must be 0 (no timer) or a whole number from {low} to {high}")
    return value


def seat_record(seat: int, kind: Any) -> SeatRecord:
    if kind == "open":
        return SeatRecord("open")
    if isinstance(kind, str) and kind.startswith("bot:") and kind[4:] in BOTS:
        return SeatRecord("bot", f"Bot {seat} ({kind[4:]})", kind[4:])
    kinds = ", ".join(["open", *(f"bot:{b}" for b in BOTS)])
    raise ServeError(f"seat {seat}: {str(kind)[:40]!r} is not a seat kind; kinds: {kinds}")


def build_ruleset(rules: Sequence[str], options: Mapping[str, str]) -> Ruleset:
    """The rule set of a new table from plugin names and option texts."""
    if not rules or not all(isinstance(r, str) for r in rules) or len(rules) > 32:
        raise ServeError("'rules' must list plugin names, such as ['classic', 'stacking']")
    installed = installed_plugins()
    values: dict[str, Any] = {}
    declared = {o.name: o for name in rules if name in installed for o in installed[name].options}
    for key, text in options.items():
        option = declared.get(key)
        if option is None:
            raise ServeError(f"option {str(key)[:40]!r} belongs to none of the plugins {', '.join(rules)}")
        if not isinstance(text, str):
            raise ServeError(f"option {key}: give its value as text, as on the command line")
        try:
            values[key] = option.from_text(text)
        except (ValueError, TypeError) as exc:
            raise ServeError(f"option {key}: {exc}; allowed: {option.allowed}") from None
    try:
        return Ruleset.from_names(list(rules), options=values)
    except (RulesetError, ValueError) as exc:
        raise ServeError(str(exc)) from None

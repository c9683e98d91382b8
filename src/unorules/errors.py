"""The exceptions unorules raises."""

from __future__ import annotations

import difflib
import functools
import reprlib
from collections.abc import Iterable

__all__ = [
    "MAX_MESSAGE",
    "IllegalActionError",
    "NotationError",
    "RulesetError",
    "SeatError",
    "StateFormatError",
    "UnorulesError",
    "did_you_mean",
    "excerpt",
    "nearest",
]


MAX_MESSAGE = 2000
"""The longest error message unorules builds: a longer one (an error quoting a
huge untrusted input) keeps its beginning and its end around a note of how
many characters were cut."""


def excerpt(value: object, limit: int = 80) -> str:
    """A ``repr`` of ``value`` of about ``limit`` characters at most, for error
    messages that quote untrusted input (long text is cut in the middle and its
    length given; long lists, deep nesting and big numbers are abridged)."""
    try:
        shown = _repr_for(limit).repr(value)
    except ValueError:  # an int over Python's digit limit, possibly nested
        shown = f"<a {type(value).__name__} too large to show>"
    if isinstance(value, str) and len(value) > limit:
        shown += f" ({len(value)} characters)"
    return shown


def nearest(given: object, allowed: Iterable[str], what: str) -> str:
    """The end of every "unknown name" message (a plugin, an option, an option's value, a
    preset, a rulebook key, a rule id, a bot): the allowed names nearest to ``given``
    (:func:`difflib.get_close_matches`, ignoring case), then every allowed name, in full,
    after ``what``: ``nearest("plugin", KEYS, "a rulebook has the keys")`` is
    ``"did you mean 'plugins'? a rulebook has the keys: name, description, plugins, ..."``
    (without the dots). ``allowed`` is listed in its own order, each name once."""
    names = list(dict.fromkeys(allowed))
    listed = f"{what}: {', '.join(names) if names else 'none'}"
    return did_you_mean(given, names) + listed


def did_you_mean(given: object, allowed: Iterable[str]) -> str:
    """``"did you mean 'plugins'? "`` (the up to three names of ``allowed`` nearest to
    ``given``, ignoring case), or ``""`` when none is near: the first half of :func:`nearest`,
    for a message that lists the allowed names itself."""
    by_case: dict[str, str] = {}
    for name in allowed:
        by_case.setdefault(name.lower(), name)
    text = given if isinstance(given, str) else str(given)
    near = difflib.get_close_matches(text.strip().lower()[:200], list(by_case), n=3, cutoff=0.6)
    return f"did you mean {' or '.join(repr(by_case[n]) for n in near)}? " if near else ""


@functools.cache
def _repr_for(limit: int) -> reprlib.Repr:
    short = reprlib.Repr()
    short.maxstring = short.maxother = short.maxlong = limit
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = 6
    short.maxlevel = 3
    return short


def _shorten(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    head, tail = MAX_MESSAGE * 3 // 4, MAX_MESSAGE // 5
    return f"{message[:head]} [... {len(message) - head - tail} characters cut ...] {message[-tail:]}"


class UnorulesError(Exception):
    """Base class of every error unorules raises on purpose.

    Messages longer than :data:`MAX_MESSAGE` characters are cut in the middle,
    so an error about a huge input never repeats all of it.
    """

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str) and len(args[0]) > MAX_MESSAGE:
            args = (_shorten(args[0]), *args[1:])
        super().__init__(*args)


class IllegalActionError(UnorulesError, ValueError):
    """An action that the rules do not allow in this state.

    ``rule`` is the id of the rule that forbids it (``"R-TURN-WD4"``) when one
    applies; the message always says why. The ids ``R-…`` are defined in the
    rules reference (``docs/rules.rst``); a plugin's own ids on its page. The state it was applied to is
    unchanged: states are immutable.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


class NotationError(UnorulesError, ValueError):
    """Card or action text that cannot be parsed; the message names the bad part."""


class RulesetError(UnorulesError, ValueError):
    """A rule set that cannot be built: unknown plugin, bad option, conflict."""


class StateFormatError(UnorulesError, ValueError):
    """A state that is malformed (bad JSON) or makes no sense under its rule set
    (a seat that does not exist, a card the deck lacks, a phase no plugin
    declares); the message names the bad part and the rule it breaks.

    ``field`` is the path of the bad part (``"uno_exposed[0]"``,
    ``"phase.count"``, ``"extras.jump-in"``) when one is known.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class SeatError(UnorulesError, ValueError):
    """A seat number that does not exist in the game (``state.view(99)``,
    ``state.legal_actions(-1)``); the message says which seats there are."""

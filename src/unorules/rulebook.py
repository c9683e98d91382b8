"""Rulebooks: a rule set with a name, written once in a TOML file, and the presets the library ships.

A table's rules are more than a spec text: they have a name, a few words on
what they turn on, the plugins and their options, the effects written on
customizable wilds and the number of players they are meant for. A
*rulebook* holds all of that in one TOML file (read with :mod:`tomllib`)::

    name = "The Smiths"
    description = "Stacking and 7-0; nobody goes out on a wild."
    plugins = ["classic", "stacking", "seven-o"]
    players = [3, 4, 5]

    [options]
    stack_mix = true
    last_card_ban = "wild"

    [custom_wilds]
    CW1 = "extra-turn"

The keys:

``name`` (text)
    What the rule set is called (default: the file's name without ``.toml``).
``description`` (text)
    What it turns on, in a sentence or two.
``extends`` (text)
    A preset's name, or the path of another rulebook (relative to this
    file's folder): its plugins, options and players come first, this
    file's are added to them or replace them.
``plugins`` (list of plugin names)
    The plugins, ``classic`` included (with ``extends``: the plugins added).
``without`` (list of plugin names)
    Plugins of the rulebook extended that this one leaves out, with their options.
``players`` (a number of seats or a list of them)
    The player counts the rules are meant for; the command line takes the
    first as its default number of players and refuses the others.
``[options]``
    The plugins' options, by name, as TOML values (``true``/``false`` or
    ``"on"``/``"off"`` for a switch, numbers, words, lists). An option none of
    the plugins declares adds the one installed plugin that declares it to
    ``plugins`` (``double_score = true`` adds ``score-rules``; see
    :func:`unorules.spec.option_owners`).
``[custom_wilds]``
    The effects written on the customizable wilds of the 2015 edition:
    ``CW1``, ``CW2``, ``CW3`` name an effect each (``"extra-turn"``,
    ``"C6"``, ...) and ``count`` says how many of the three are in the deck.
    This table turns the ``custom-wilds`` plugin on.

Nothing else is allowed, so a misspelt key is an error rather than a rule
silently left out. Every error is a :class:`~unorules.RulesetError` naming
the file, the line and the key.

A rulebook may come from anyone, so reading one is bounded: ``extends`` opens
only regular files (a FIFO or a device is refused before a byte is read), a
file holds at most :data:`MAX_BYTES` bytes, a chain of ``extends`` goes through
at most :data:`MAX_EXTENDS` rulebooks, values nest at most :data:`MAX_NESTING`
deep and keys have at most :data:`MAX_KEY_PARTS` parts, and the lines are
scanned in linear time (no regular expression). Option numbers are bounded by
:meth:`Option.validate <unorules.Option.validate>` (:data:`unorules.plugin.MAX_OPTION_NUMBER`).

A rulebook names plugins and options and nothing more, so the rule set it
builds (:meth:`Ruleset.from_rulebook <unorules.Ruleset.from_rulebook>`) is the
one its spec text names: records, simulations and saved states name it by
that text and replay without the file. The presets are rulebooks shipped
in this package (``unorules/presets/*.toml``), listed by :func:`presets` and
by ``unorules rules``.
"""

from __future__ import annotations

import bisect
import functools
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from unorules.discovery import load_plugin
from unorules.errors import RulesetError, excerpt, nearest
from unorules.plugin import Option
from unorules.spec import option_owners

__all__ = [
    "MAX_BYTES",
    "MAX_EXTENDS",
    "MAX_KEY_PARTS",
    "MAX_NESTING",
    "PRESET_FOLDER",
    "Rulebook",
    "is_rules_path",
    "preset",
    "preset_names",
    "presets",
    "resolve",
]

PRESET_FOLDER = "presets"
"""The folder of this package holding the preset rulebooks (``<name>.toml``).

The official rules of UNO FLIP! and UNO Show 'Em No Mercy join them as
``flip.toml`` and ``no-mercy.toml`` once the plugins ``flip`` and
``no-mercy`` are shipped (see the house-rules page of the docs)."""

KEYS = ("name", "description", "extends", "plugins", "without", "players", "options", "custom_wilds")
"""The keys a rulebook may have, in the order :meth:`Rulebook.to_toml` writes them."""

SEATS = range(2, 11)
"""The player counts a game may have (``MIN_PLAYERS`` to ``MAX_PLAYERS`` of :mod:`unorules.ruleset`)."""

CUSTOM_WILDS_PLUGIN = "custom-wilds"
"""The plugin the ``[custom_wilds]`` table sets the options of."""

_CUSTOM_KEYS = {
    "CW1": "custom_wild_1",
    "CW2": "custom_wild_2",
    "CW3": "custom_wild_3",
    "count": "customizable_wilds",
}
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")

PATH_SHOWN = 400
"""How much of a rulebook's path its read errors quote: a path is the user's own, so
it is cut only when it is longer than any real one."""

MAX_BYTES = 1_000_000
"""The largest rulebook read, in bytes of a file (characters of a text): a
rulebook is a few lines, and a larger file is a mistake (or ``/dev/zero``)."""

MAX_EXTENDS = 16
"""The most rulebooks a chain of ``extends`` may go through, the first included."""

MAX_NESTING = 32
"""The deepest a rulebook's arrays and inline tables may nest (an option's value
is a word, a number or a flat list)."""

MAX_KEY_PARTS = 8
"""The most dotted parts a key or a table header of a rulebook may have
(``options.stack_mix`` has two)."""


def _freeze(value: Any) -> Any:
    """A TOML value with its lists made tuples (option values are hashable)."""
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@attrs.frozen
class Rulebook:
    """A named rule set as a rulebook file says it (see the module's docstring).

    Build one with :meth:`from_file`, :meth:`from_toml` or :func:`preset`;
    they check every key, plugin and option value, and
    :meth:`Ruleset.from_rulebook <unorules.Ruleset.from_rulebook>` builds it.
    """

    name: str
    """What the rule set is called."""
    description: str
    """What it turns on, in words."""
    plugins: tuple[str, ...]
    """The plugins' names, ``extends``'s first, in the order given."""
    options: tuple[tuple[str, Any], ...]
    """The options given, each with its checked value, in the order given."""
    players: tuple[int, ...] = ()
    """The player counts the rules are meant for, in the order given (empty: any)."""
    extends: str | None = None
    """The preset or rulebook it extends, as written."""
    source: str = "<rulebook>"
    """Where it was read: a path, ``preset 'party'`` or ``<rulebook>``."""
    lines: Mapping[str, int] = attrs.field(factory=dict, eq=False, repr=False)
    """The line of each key (``"plugins"``, ``"options.stack_mix"``), for messages."""

    # -- reading ------------------------------------------------------------------------------

    @classmethod
    def from_toml(
        cls, text: str, source: str = "<rulebook>", folder: str | os.PathLike[str] | None = None
    ) -> Rulebook:
        """The rulebook written in the TOML ``text``; ``source`` names it in
        messages and ``folder`` is where a relative ``extends`` path starts
        (default: the current folder).

        :raises RulesetError: naming ``source``, the line and the key, for
            text that is not TOML, an unknown key, a value of the wrong type,
            a plugin that is not installed, an option no plugin has or a
            value its option refuses.
        """
        return _read(text, source, Path(folder) if folder is not None else None, ())

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Rulebook:
        """The rulebook in the file ``path`` (UTF-8 TOML), named in messages as
        given; see :meth:`from_toml`."""
        return _read_file(Path(path), (), os.fspath(path))

    # -- using --------------------------------------------------------------------------------

    @property
    def option_values(self) -> dict[str, Any]:
        """The options as a mapping, for :meth:`Ruleset.from_names <unorules.Ruleset.from_names>`."""
        return dict(self.options)

    def line(self, key: str) -> int | None:
        """The line the key ``key`` (``"plugins"``, ``"options.stack_mix"``) is on, if known."""
        return self.lines.get(key)

    def error(self, key: str | None, message: str) -> RulesetError:
        """A :class:`~unorules.RulesetError` about ``key`` of this rulebook
        (``None``: the file as a whole), naming its source and the key's line,
        then saying ``message``."""
        return RulesetError(_where(self.source, self.lines, key) + message)

    def refusal(self, exc: Exception) -> RulesetError:
        """The error for a rule set of this rulebook refused when built:
        ``exc``'s message, placed at the option it names (else at ``plugins``)."""
        text = str(exc)
        written = {option: f"custom_wilds.{key}" for key, option in _CUSTOM_KEYS.items()}
        named = [
            place
            for name, _ in self.options
            if re.search(rf"\b{re.escape(name)}\b", text)
            for place in (f"options.{name}", written.get(name, ""))
        ]
        if "players" in text:
            named.append("players")
        named += ["plugins", "extends"]
        key = next((k for k in named if k in self.lines), None)
        return self.error(key, text)

    def to_toml(self) -> str:
        """The rulebook as TOML text that :meth:`from_toml` reads back as an
        equal rulebook (``extends`` resolved: every plugin and option written out)."""
        out = [f"name = {_toml(self.name)}"]
        if self.description:
            out.append(f"description = {_toml(self.description)}")
        out.append(f"plugins = {_toml(list(self.plugins))}")
        if self.players:
            out.append(f"players = {_toml(list(self.players))}")
        if self.options:
            out += ["", "[options]"]
            out += [f"{name} = {_toml(value)}" for name, value in self.options]
        return "\n".join(out) + "\n"


# -- reading ---------------------------------------------------------------------------------


def _where(source: str, lines: Mapping[str, int], key: str | None) -> str:
    line = None
    if key:
        # The key's own line, else its table's (an inline table: options = {...}).
        parts = key.split(".")
        for end in range(len(parts), 0, -1):
            line = lines.get(".".join(parts[:end]))
            if line is not None:
                break
    place = f", line {line}" if line is not None else ""
    named = f" ({key})" if key else ""
    return f"{source}{place}{named}: "


def _toml(value: Any) -> str:
    """``value`` as a TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value)
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def _read_file(path: Path, seen: tuple[str, ...], source: str | None = None) -> Rulebook:
    source = str(path) if source is None else source
    text = _file_text(path, source)
    return _read(text, source, path.parent, (*seen, str(path.resolve())), default_name=path.stem)


def _file_text(path: Path, source: str) -> str:
    """The text of the rulebook file ``path``: a regular file (never a FIFO, a
    device or a folder, which could block or never end) of at most
    :data:`MAX_BYTES` bytes of UTF-8."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        # Opened without blocking (a FIFO opens at once) and checked before a byte is read.
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise RulesetError(
            f"no rules file {excerpt(source, PATH_SHOWN)}: give the path of a .toml rulebook"
        ) from None
    except OSError as exc:
        raise RulesetError(
            f"cannot read rules file {excerpt(source, PATH_SHOWN)}: {exc.strerror or exc}"
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            shown = excerpt(source, PATH_SHOWN)
            raise RulesetError(f"cannot read rules file {shown}: it is {kind}; a rulebook is a .toml file")
        data = os.read(fd, MAX_BYTES + 1)
        while len(data) <= MAX_BYTES:
            more = os.read(fd, MAX_BYTES + 1 - len(data))
            if not more:
                break
            data += more
    except OSError as exc:
        raise RulesetError(
            f"cannot read rules file {excerpt(source, PATH_SHOWN)}: {exc.strerror or exc}"
        ) from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise RulesetError(f"{source}: more than {MAX_BYTES:,} bytes; a rulebook is a short file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError(f"{source}: not UTF-8 text (byte {exc.start})") from None


def _read(
    text: str, source: str, folder: Path | None, seen: tuple[str, ...], default_name: str = ""
) -> Rulebook:
    if not isinstance(text, str):
        raise RulesetError(f"a rulebook is TOML text, not {type(text).__name__}")
    if len(text) > MAX_BYTES:
        raise RulesetError(f"{source}: more than {MAX_BYTES:,} characters; a rulebook is a short text")
    # Scanned first: the scan is linear, and it refuses values nested too deep for tomllib.
    lines = _key_lines(text, source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{source}: not valid TOML: {exc}") from None
    except ValueError as exc:  # a number of more digits than int() reads (sys.get_int_max_str_digits)
        raise RulesetError(f"{source}: not a rulebook: {exc}") from None
    where = functools.partial(_where, source, lines)

    def fail(key: str | None, message: str) -> RulesetError:
        return RulesetError(where(key) + message)

    unknown = [k for k in data if k not in KEYS]
    if unknown:
        keys = nearest(unknown[0], KEYS, "a rulebook has the keys")
        raise fail(unknown[0], f"unknown key {unknown[0]!r}; {keys}")

    def text_of(key: str) -> str | None:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise fail(key, f"{key} must be text, not {_kind(value)}")
        return value

    def names_of(key: str) -> list[str]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(key, f'{key} must be a list of plugin names, e.g. {key} = ["classic", "stacking"]')
        found: list[str] = []
        for item in value:
            name = item.strip().lower()
            if not _NAME.fullmatch(name):
                raise fail(key, f"{excerpt(item)} is not a plugin name")
            if name in found:
                raise fail(key, f"plugin {name!r} is listed twice")
            found.append(name)
        return found

    name = text_of("name")
    description = text_of("description") or ""
    extends = text_of("extends")
    own_plugins = names_of("plugins")
    without = names_of("without")
    players = _players(data.get("players"), fail)
    options_table = data.get("options", {})
    if not isinstance(options_table, dict):
        raise fail("options", "options must be a table: write [options] and then name = value lines")
    wilds_table = data.get("custom_wilds", {})
    if not isinstance(wilds_table, dict):
        raise fail(
            "custom_wilds", 'custom_wilds must be a table: write [custom_wilds] and then CW1 = "effect"'
        )

    # The base: a preset or another rulebook.
    base_plugins: list[str] = []
    base_options: dict[str, Any] = {}
    base_players: tuple[int, ...] = ()
    if extends is not None:
        base = _extended(extends, folder, source, seen, fail)
        base_plugins = list(base.plugins)
        base_options = dict(base.options)
        base_players = base.players
    elif without:
        raise fail("without", "without leaves out plugins of the rulebook extended: give extends too")
    for gone in without:
        if gone not in base_plugins:
            raise fail("without", f"{extends!r} has no plugin {gone!r} to leave out")
    if wilds_table and CUSTOM_WILDS_PLUGIN not in own_plugins and CUSTOM_WILDS_PLUGIN not in base_plugins:
        own_plugins.append(CUSTOM_WILDS_PLUGIN)  # the [custom_wilds] table turns the plugin on
    plugins = [p for p in base_plugins if p not in without]
    plugins += [p for p in own_plugins if p not in plugins]
    if not plugins:
        raise fail("plugins", 'the rulebook names no plugin; write e.g. plugins = ["classic", "stacking"]')

    # Every plugin installed, every option declared by one of them and its value accepted.
    declared: dict[str, tuple[str, Option]] = {}
    for plugin_name in plugins:
        try:
            plugin = load_plugin(plugin_name)
        except RulesetError as exc:
            key = "plugins" if plugin_name in own_plugins else "extends"
            raise fail(key, str(exc)) from None
        for option in getattr(plugin, "options", ()):
            declared.setdefault(option.name, (plugin_name, option))
    # An option no plugin of the rulebook declares brings in the installed plugin that does
    # (an option that moved to a plugin of its own, e.g. last_card_ban to last-card).
    wanted = [*options_table, *(_CUSTOM_KEYS.get(key, key) for key in wilds_table)]
    try:
        owners = option_owners([load_plugin(name) for name in plugins], wanted)
    except RulesetError as exc:
        raise fail("options", str(exc)) from None
    for plugin in owners:
        plugins.append(plugin.name)
        for option in getattr(plugin, "options", ()):
            declared.setdefault(option.name, (plugin.name, option))
    removed = {option.name for gone in without for option in getattr(_loaded_or_none(gone), "options", ())}
    options: dict[str, Any] = {k: v for k, v in base_options.items() if k not in removed}
    given: list[tuple[str, Any, str]] = [(k, v, f"options.{k}") for k, v in options_table.items()]
    for key, value in wilds_table.items():
        if key not in _CUSTOM_KEYS:
            raise fail(
                f"custom_wilds.{key}",
                f"unknown key {key!r}; "
                + nearest(key, _CUSTOM_KEYS, "the custom_wilds table has the keys")
                + " (CW1 to CW3 an effect each)",
            )
        option_name = _CUSTOM_KEYS[key]
        if option_name in options_table:
            raise fail(
                f"custom_wilds.{key}", f"custom_wilds.{key} and options.{option_name} say the same: keep one"
            )
        given.append((option_name, value, f"custom_wilds.{key}"))
    for option_name, value, key in given:
        if option_name not in declared:
            known = nearest(option_name, sorted(declared), "their options")
            raise fail(key, f"no plugin of this rule set has an option {option_name!r}; {known}")
        plugin_name, option = declared[option_name]
        try:
            if isinstance(value, str):
                checked = option.from_text(value)
            elif isinstance(value, dict):
                raise ValueError("a table is not an option value")
            else:
                checked = option.validate(_freeze(value))
        except (TypeError, ValueError) as exc:
            raise fail(
                key, f"option {option_name!r} of plugin {plugin_name!r}: {exc} (allowed: {option.allowed})"
            ) from None
        options.pop(option_name, None)
        options[option_name] = checked
    return Rulebook(
        name=name or default_name or (extends or "rulebook"),
        description=description,
        plugins=tuple(plugins),
        options=tuple(options.items()),
        players=players or base_players,
        extends=extends,
        source=source,
        lines=lines,
    )


def _loaded_or_none(name: str) -> Any:
    try:
        return load_plugin(name)
    except RulesetError:
        return None


def _kind(value: Any) -> str:
    return {bool: "true/false", int: "a number", float: "a number", list: "a list", dict: "a table"}.get(
        type(value), type(value).__name__
    )


def _players(value: Any, fail: Any) -> tuple[int, ...]:
    if value is None:
        return ()
    counts = value if isinstance(value, list) else [value]
    found: list[int] = []
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, int) or count not in SEATS:
            raise fail(
                "players",
                f"players must be a number of seats from {SEATS[0]} to {SEATS[-1]} or a list of them, "
                f"not {excerpt(repr(count))}",
            )
        if count in found:
            raise fail("players", f"{count} players is listed twice")
        found.append(count)
    if not found:
        raise fail("players", "players lists no player count: leave it out for any number")
    return tuple(found)


def _extended(extends: str, folder: Path | None, source: str, seen: tuple[str, ...], fail: Any) -> Rulebook:
    """The rulebook ``extends`` names: a rulebook path or a preset."""
    if len(seen) >= MAX_EXTENDS:
        raise fail(
            "extends",
            f"rulebooks extend each other more than {MAX_EXTENDS} deep: {excerpt(extends)} is one too many",
        )
    if is_rules_path(extends):
        path = Path(extends)
        if not path.is_absolute():
            path = (folder or Path.cwd()) / path
        if str(path.resolve()) in seen:
            raise fail("extends", f"{excerpt(extends)} extends itself (through {len(seen)} rulebooks)")
        try:
            return _read_file(path, seen)
        except RulesetError as exc:
            raise _through(exc, seen, fail) from None
    name = extends.strip().lower()
    if name in seen:
        raise fail("extends", f"preset {name!r} extends itself")
    if name not in preset_names():
        raise fail(
            "extends",
            f"no preset named {excerpt(extends)}; {nearest(extends, preset_names(), 'presets')} "
            "(or give the path of a .toml rulebook)",
        )
    try:
        return _preset(name, (*seen, name))
    except RulesetError as exc:
        raise _through(exc, seen, fail) from None


def _through(exc: RulesetError, seen: tuple[str, ...], fail: Any) -> RulesetError:
    """The error of a rulebook extended, as the rulebook named first reports it:
    its own ``extends`` line, then the error (which names the file where it is);
    the rulebooks between pass it on as it is, so a long chain keeps a short message."""
    return fail("extends", str(exc)) if len(seen) <= 1 else exc


_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_BLANK = " \t"


class _Scan:
    """One pass over a TOML text, in time linear in its length (no regular
    expression, nothing that backtracks): where each key is, and how deeply
    values nest. It reads text that tomllib has not checked yet, so it never
    fails on a mistake: tomllib reports those."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.breaks = [i for i, c in enumerate(text) if c == "\n"]
        self.lines: dict[str, int] = {}

    def line(self, at: int) -> int:
        """The line (from 1, as tomllib counts) of the character at ``at``."""
        return bisect.bisect_left(self.breaks, at) + 1

    def run(self) -> dict[str, int]:
        text, n, i, table = self.text, len(self.text), 0, ""
        while i < n:
            c = text[i]
            if c in _BLANK or c in "\r\n":
                i += 1
            elif c == "#":
                i = self.end_of_line(i)
            elif c == "[":
                if text.startswith("[[", i):  # an array of tables: a rulebook has none (tomllib says so)
                    i = self.end_of_line(i)
                    continue
                found = self.key(i + 1)
                if found is None:
                    i = self.end_of_line(i)
                    continue
                parts, i = found
                table = ".".join(parts)
                self.lines.setdefault(table, self.line(i))
                i = self.end_of_line(i)
            else:
                found = self.key(i)
                if found is None or not text.startswith("=", self.skip_blank(found[1])):
                    i = self.end_of_line(i)
                    continue
                parts, i = found
                name = ".".join(parts)
                self.lines.setdefault(f"{table}.{name}" if table else name, self.line(i))
                i = self.value(self.skip_blank(i) + 1)
        return self.lines

    def skip_blank(self, i: int) -> int:
        text, n = self.text, len(self.text)
        while i < n and text[i] in _BLANK:
            i += 1
        return i

    def end_of_line(self, i: int) -> int:
        end = self.text.find("\n", i)
        return len(self.text) if end < 0 else end

    def key(self, i: int) -> tuple[list[str], int] | None:
        """The parts of the dotted key starting at ``i`` (quotes taken off) and
        where it ends, or ``None`` if none starts there."""
        text, n = self.text, len(self.text)
        parts: list[str] = []
        while True:
            i = self.skip_blank(i)
            if i < n and text[i] in "\"'":
                end = self.string(i)
                if end > n or text[end - 1] != text[i] or end - i < 2:
                    return None
                parts.append(text[i + 1 : end - 1])
                i = end
            else:
                start = i
                while i < n and text[i] in _BARE:
                    i += 1
                if i == start:
                    return None
                parts.append(text[start:i])
            i = self.skip_blank(i)
            if i < n and text[i] == ".":
                if len(parts) >= MAX_KEY_PARTS:  # tomllib's time grows with the square of a key's parts
                    raise RulesetError(
                        f"{self.source}, line {self.line(i)}: a key of more than {MAX_KEY_PARTS} dotted "
                        "parts; a rulebook's keys are a table and a name"
                    )
                i += 1
                continue
            return parts, i

    def string(self, i: int) -> int:
        """Where the string opening at ``i`` ends (just past its closing quotes;
        at the end of the line or text for one left open)."""
        text, n = self.text, len(self.text)
        quote = text[i]
        if text.startswith(quote * 3, i):
            j = i + 3
            while j < n:
                if quote == '"' and text[j] == "\\":
                    j += 2
                elif text.startswith(quote * 3, j):
                    j += 3
                    while j < n and text[j] == quote:  # up to two quotes may end the string's text
                        j += 1
                    return j
                else:
                    j += 1
            return n
        j = i + 1
        while j < n and text[j] != "\n":
            if quote == '"' and text[j] == "\\":
                j += 2
                continue
            if text[j] == quote:
                return j + 1
            j += 1
        return j

    def value(self, i: int) -> int:
        """Where the value starting at ``i`` ends (its last line's end): arrays
        may run over lines; a value nested more than :data:`MAX_NESTING` deep is
        refused here, at its line, before tomllib's recursion meets it."""
        text, n = self.text, len(self.text)
        depth = 0
        while i < n:
            c = text[i]
            if c in "\"'":
                i = self.string(i)
                continue
            if c == "#":
                i = self.end_of_line(i)
                continue
            if c == "\n" and depth == 0:
                return i
            if c in "[{":
                depth += 1
                if depth > MAX_NESTING:
                    raise RulesetError(
                        f"{self.source}, line {self.line(i)}: arrays or tables nested more than "
                        f"{MAX_NESTING} deep; a rulebook's values are flat"
                    )
            elif c in "]}" and depth:
                depth -= 1
            i += 1
        return i


def _key_lines(text: str, source: str = "<rulebook>") -> dict[str, int]:
    """The line (from 1) of each key of a TOML text, dotted with its table
    (``"options.stack_mix"``): enough to point at the line of a mistake
    (inline tables count as their key). Linear in the text's length.

    :raises RulesetError: naming ``source`` and the line, for arrays or inline
        tables nested more than :data:`MAX_NESTING` deep, or a key of more than
        :data:`MAX_KEY_PARTS` dotted parts.
    """
    return _Scan(text, source).run()


# -- presets ---------------------------------------------------------------------------------


def _preset_files() -> dict[str, Any]:
    folder = resources.files("unorules").joinpath(PRESET_FOLDER)
    return {
        entry.name[: -len(".toml")]: entry
        for entry in sorted(folder.iterdir(), key=lambda e: e.name[: -len(".toml")])
        if entry.name.endswith(".toml")
    }


@functools.cache
def preset_names() -> tuple[str, ...]:
    """The names of the shipped presets, sorted (none is loaded)."""
    return tuple(_preset_files())


def _preset(name: str, seen: tuple[str, ...]) -> Rulebook:
    entry = _preset_files().get(name)
    if entry is None:
        raise RulesetError(f"no preset named {excerpt(name)}; {nearest(name, preset_names(), 'presets')}")
    return _read(entry.read_text(encoding="utf-8"), f"preset {name!r}", None, seen, default_name=name)


@functools.cache
def preset(name: str) -> Rulebook:
    """The shipped preset ``name`` (see ``unorules rules``).

    :raises RulesetError: if there is no such preset, or it names a plugin
        that is not installed.
    """
    return _preset(name.strip().lower(), (name.strip().lower(),))


def presets() -> dict[str, Rulebook | RulesetError]:
    """Every shipped preset by name: its rulebook, or the error that keeps it
    from loading here (a plugin it names is not installed)."""
    found: dict[str, Rulebook | RulesetError] = {}
    for name in preset_names():
        try:
            found[name] = preset(name)
        except RulesetError as exc:
            found[name] = exc
    return found


# -- what a --rules argument names -----------------------------------------------------------


def is_rules_path(text: str) -> bool:
    """Whether ``text`` is meant as the path of a rulebook rather than a preset
    or a spec text: it ends in ``.toml`` or holds a path separator."""
    stripped = text.strip()
    return stripped.lower().endswith(".toml") or "/" in stripped or os.sep in stripped


def resolve(text: str) -> Rulebook | None:
    """The rulebook ``text`` names: a file when :func:`is_rules_path`, else a
    preset of that name; ``None`` when it names neither (a spec text, such as
    ``"classic,stacking"``).

    :raises RulesetError: for a path whose file cannot be read or is not a
        valid rulebook, or a preset that cannot be loaded here.
    """
    if is_rules_path(text):
        return Rulebook.from_file(text.strip())
    name = text.strip().lower()
    if name in preset_names():
        return preset(name)
    return None

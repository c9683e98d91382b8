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

A rulebook names plugins and options and nothing more, so the rule set it
builds (:meth:`Ruleset.from_rulebook <unorules.Ruleset.from_rulebook>`) is the
one its spec text names: records, simulations and saved states name it by
that text and replay without the file. The presets are rulebooks shipped
in this package (``unorules/presets/*.toml``), listed by :func:`presets` and
by ``unorules rules``.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from unorules.discovery import load_plugin, short
from unorules.errors import RulesetError, nearest
from unorules.plugin import Option
from unorules.spec import option_owners

__all__ = [
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
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise RulesetError(f"no rules file {short(source)}: give the path of a .toml rulebook") from None
    except OSError as exc:
        raise RulesetError(f"cannot read rules file {short(source)}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    return _read(text, source, path.parent, (*seen, str(path.resolve())), default_name=path.stem)


def _read(
    text: str, source: str, folder: Path | None, seen: tuple[str, ...], default_name: str = ""
) -> Rulebook:
    if not isinstance(text, str):
        raise RulesetError(f"a rulebook is TOML text, not {type(text).__name__}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{source}: not valid TOML: {exc}") from None
    lines = _key_lines(text)
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
                raise fail(key, f"{short(item)} is not a plugin name")
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
                f"not {short(repr(count))}",
            )
        if count in found:
            raise fail("players", f"{count} players is listed twice")
        found.append(count)
    if not found:
        raise fail("players", "players lists no player count: leave it out for any number")
    return tuple(found)


def _extended(extends: str, folder: Path | None, source: str, seen: tuple[str, ...], fail: Any) -> Rulebook:
    """The rulebook ``extends`` names: a rulebook path or a preset."""
    if is_rules_path(extends):
        path = Path(extends)
        if not path.is_absolute():
            path = (folder or Path.cwd()) / path
        if str(path.resolve()) in seen:
            raise fail("extends", f"{short(extends)} extends itself (through {len(seen)} rulebooks)")
        try:
            return _read_file(path, seen)
        except RulesetError as exc:
            raise fail("extends", str(exc)) from None
    name = extends.strip().lower()
    if name in seen:
        raise fail("extends", f"preset {name!r} extends itself")
    if name not in preset_names():
        raise fail(
            "extends",
            f"no preset named {short(extends)}; {nearest(extends, preset_names(), 'presets')} "
            "(or give the path of a .toml rulebook)",
        )
    try:
        return _preset(name, (*seen, name))
    except RulesetError as exc:
        raise fail("extends", str(exc)) from None


_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(
    r"""^\s*((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*="""
)


def _unquote(part: str) -> str:
    part = part.strip()
    if len(part) >= 2 and part[0] == part[-1] and part[0] in "\"'":
        return part[1:-1]
    return part


def _key_lines(text: str) -> dict[str, int]:
    """The line (from 1) of each key of a TOML text, dotted with its table
    (``"options.stack_mix"``): enough to point at the line of a mistake
    (multi-line strings are skipped; inline tables count as their key)."""
    lines: dict[str, int] = {}
    table = ""
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if in_string is not None:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("[["):
            table = ".".join(_unquote(p) for p in header.group(1).split("."))
            lines.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            name = ".".join(_unquote(p) for p in key.group(1).split("."))
            lines.setdefault(f"{table}.{name}" if table else name, number)
            rest = line[key.end() :]
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2 == 1:
                    in_string = quote
    return lines


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
        raise RulesetError(f"no preset named {short(name)}; {nearest(name, preset_names(), 'presets')}")
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

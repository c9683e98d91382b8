"""The installed rules in plain words, for people: the new-table form and a table's rules popover.

Everything comes from the plugins' own declarations (the summary, the first
line of the plugin's docstring: :func:`unorules.plugin.summary`; the
docstring; each :class:`~unorules.Option`'s
``doc``, ``default``, ``allowed`` and ``check``):

* :func:`plain_words` turns a plugin's or an option's documentation into
  words: reStructuredText markup stripped, rule codes (``R-STACK``,
  ``DUP-LIMIT``) and source tags (``[E15]``, ``[LT point 3]``) taken out and
  returned apart, for a hover title;
* :func:`option_data` chooses the control that fits an option: a *switch*
  for an on/off option, a *choice* when ``allowed`` lists values that the
  option's ``check`` accepts and writes back the same (its ``one_of``
  values), a *number* for a whole-number option (its least value found
  from the check), *text* otherwise;
* :func:`rules_data` lists every installed plugin so, and the presets (the
  shipped ones and the rulebooks the server was started with), each as the
  plugins and option texts that fill the form;
  :func:`ruleset_data` describes one table's rule set: its name (the
  plugins' titles joined by "+", after the name of the server's rulebook of
  that rule set: :func:`name_rulebooks`) and, per plugin, its description (its
  numbers as the table plays them) and every option's value in words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from unorules.bots import BOTS
from unorules.errors import RulesetError
from unorules.plugin import Option
from unorules.plugin import summary as plugin_summary
from unorules.rulebook import Rulebook, presets
from unorules.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset, installed_plugins

__all__ = [
    "name_rulebooks",
    "option_data",
    "plain_words",
    "plugin_title",
    "preset_data",
    "rules_data",
    "ruleset_data",
    "ruleset_title",
]

# A rule code such as R-TURN-MATCH or DUP-LIMIT: capitals, then dash-joined parts.
_CODE = r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b"
# A source tag such as [E15], [CZ], [LT point 3].
_SOURCE = r"\[[A-Z][A-Z0-9]{0,5}(?: [^\]\[]{1,30})?\]"
_TAG = re.compile(f"{_CODE}|{_SOURCE}")
_PAREN = re.compile(r"\(([^()]*)\)")
_ROLE = re.compile(r":[a-z:]+:`(?:[^`<]*<)?([^`>]*)>?`")
_LINK = re.compile(r"`([^`<]+?)\s*<[^>]*>`_{1,2}")
_LITERAL = re.compile(r"``(.+?)``")
_INTERPRETED = re.compile(r"`([^`]+)`")
_EMPHASIS = re.compile(r"\*{1,2}([^*]+)\*{1,2}")


def _strip_markup(text: str) -> str:
    text = _ROLE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _LITERAL.sub(r"\1", text)
    text = _INTERPRETED.sub(r"\1", text)
    return _EMPHASIS.sub(r"\1", text)


def plain_words(text: str) -> tuple[str, list[str]]:
    """``text`` in plain words and the rule codes and source tags taken out of it.

    ``"R-STACK: also a Wild Draw Four on a Draw Two [LT point 3]"`` is
    ``("Also a Wild Draw Four on a Draw Two", ["R-STACK", "[LT point 3]"])``;
    ``"R-SCORE (winner scores) or R-WIN-LOW (each pays)"`` is ``("Winner scores
    or each pays", ["R-SCORE", "R-WIN-LOW"])``; ``"points of a blank ([CZ]
    prints '?') (R-SCORE)"`` is ``("Points of a blank", ["[CZ]", "R-SCORE"])``: a parenthesis
    citing a code or a source goes whole."""
    text = " ".join(_strip_markup(text).split())
    codes: list[str] = []
    for found in _TAG.findall(text):
        if found not in codes:
            codes.append(found)
    # "CODE (words)": the words alone
    text = re.sub(rf"{_CODE}\s*\(([^()]*)\)", r"\1", text)
    # a parenthesis that cites (a code or a source in it) goes whole: "(R-WIN)", "([CZ] prints '?')"
    text = _PAREN.sub(lambda m: "" if _TAG.search(m.group(1)) else m.group(0), text)
    text = re.sub(rf"^(?:{_CODE}\s*)+:\s*", "", text)  # a leading "CODE:"
    text = _TAG.sub("", text)
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"\s+([,.;:)])", r"\1", text)
    text = re.sub(r"\(\s+", "(", text)
    text = " ".join(text.split()).strip(" ,;:")
    return (text[:1].upper() + text[1:]), codes


def _split_label(text: str) -> tuple[str, str]:
    """``"who deals: the highest number"`` is ``("Who deals", "The highest number")``: the first
    colon outside parentheses parts a label from its help; text without one is all label."""
    depth = 0
    for at, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif char == ":" and depth == 0 and text[at + 1 : at + 2] == " ":
            label, help_text = text[:at].strip(), text[at + 1 :].strip()
            return label, help_text[:1].upper() + help_text[1:]
    return text, ""


def _value_words(text: str) -> str:
    """An option's value as words: ``"winner-takes-all"`` is ``"winner takes all"``."""
    return text.replace("-", " ").replace("_", " ")


def _choices(option: Option) -> list[str] | None:
    """The values an option's ``allowed`` lists, if its check takes exactly those texts."""
    items = [item.strip() for item in option.allowed.split(",")]
    if len(items) < 2 or len(set(items)) != len(items):
        return None
    try:
        texts = [option.to_text(option.from_text(item)) for item in items]
        default = option.to_text(option.default)
    except (ValueError, TypeError):
        return None
    if texts != items or default not in items:
        return None
    return items


def _least_number(option: Option) -> int | None:
    for candidate in (0, 1):
        try:
            option.from_text(str(candidate))
        except (ValueError, TypeError):
            continue
        return candidate
    return None


def option_data(option: Option) -> dict[str, Any]:
    """What the form shows of an option: ``name`` (what is sent), ``label`` and ``help`` in plain
    words, ``codes`` (rule codes and sources, for a hover), ``control`` (``switch``, ``choice``,
    ``number`` or ``text``), ``choices`` (``[{"value", "label"}]`` of a choice), ``min`` (of a
    number), ``default`` and ``allowed`` as text."""
    words, codes = plain_words(option.doc or option.name.replace("_", " "))
    label, help_text = _split_label(words)
    choices = None if isinstance(option.default, bool) else _choices(option)
    if help_text and choices is not None and label.lower() in choices:
        # "strict: ...; table: ..." describes the values: the option's name is the label
        label, help_text = _value_words(option.name).capitalize(), words
    data: dict[str, Any] = {
        "name": option.name,
        "label": label or option.name.replace("_", " "),
        "help": help_text,
        "codes": codes,
        "default": option.to_text(option.default),
        "allowed": option.allowed,
        "control": "text",
        "choices": [],
        "min": None,
    }
    if isinstance(option.default, bool):
        data["control"] = "switch"
    elif choices is not None:
        data["control"] = "choice"
        data["choices"] = [{"value": c, "label": _value_words(c)} for c in choices]
    elif isinstance(option.default, int):
        data["control"] = "number"
        data["min"] = _least_number(option)
    return data


def plugin_title(name: str) -> str:
    """A plugin's name for people: the part of its summary before a colon, when short
    (``"Jump-in"``, ``"7-0"``, ``"Classic UNO"``), else its name."""
    plugin = installed_plugins().get(name)
    summary = plugin_summary(plugin)
    head = summary.split(": ", 1)[0].strip()
    if head and head != summary and len(head) <= 40:
        return head
    return name[:1].upper() + name[1:]


def _plugin_words(name: str) -> tuple[str, list[str]]:
    plugin = installed_plugins()[name]
    summary = plugin_summary(plugin)
    if ": " in summary:
        text = summary.split(": ", 1)[1]
    else:
        text = summary or (plugin.__doc__ or "").strip().split("\n\n")[0]
    words, codes = plain_words(text)
    extra = [code for code in getattr(plugin, "rules", ()) if code not in codes]
    return words, codes + list(extra)


def preset_data(name: str, book: Rulebook) -> dict[str, Any]:
    """A rulebook as the form's choice of rules: ``name`` (what the list sends), ``title``,
    ``doc`` (its description in plain words), ``rules`` (plugin names), ``options`` (each
    option given, as the text its control shows) and ``players`` (the counts it is meant for)."""
    declared = {o.name: o for p in book.plugins for o in getattr(installed_plugins().get(p), "options", ())}
    return {
        "name": name,
        "title": book.name,
        "doc": plain_words(book.description)[0] if book.description else "",
        "rules": list(book.plugins),
        "options": {key: declared[key].to_text(value) for key, value in book.options if key in declared},
        "players": list(book.players),
    }


def rules_data(rulebooks: Iterable[Rulebook] = ()) -> dict[str, Any]:
    """Every installed plugin for the form that creates a table: ``name``, ``title``, ``doc``
    (plain words), ``codes``, ``requires``, ``conflicts`` and ``options`` (:func:`option_data`);
    the ``presets`` (:func:`preset_data`): ``rulebooks`` first (the server's own, named
    ``file:1``, ``file:2``, ...), then every shipped preset whose plugins are installed; the bot
    kinds and the number of players a table may seat."""
    plugins = []
    for name, plugin in sorted(installed_plugins().items()):
        words, codes = _plugin_words(name)
        plugins.append(
            {
                "name": name,
                "title": plugin_title(name),
                "doc": words,
                "codes": codes,
                "requires": list(plugin.requires),
                "conflicts": {other: plain_words(why)[0] for other, why in dict(plugin.conflicts).items()},
                "options": [option_data(o) for o in plugin.options],
            }
        )
    chosen = [preset_data(f"file:{n}", book) for n, book in enumerate(rulebooks, 1)]
    shipped = [
        preset_data(name, book) for name, book in presets().items() if not isinstance(book, RulesetError)
    ]
    return {
        "plugins": plugins,
        "presets": chosen + shipped,
        "bots": list(BOTS),
        "min_players": MIN_PLAYERS,
        "max_players": MAX_PLAYERS,
    }


_BOOK_NAMES: dict[str, str] = {}
"""The names of the rulebooks servers offer, by the canonical spec text of their rule sets."""


def name_rulebooks(books: Iterable[Rulebook]) -> None:
    """Name the tables whose rule set is one of ``books`` (a server's own rulebooks) by the
    rulebook's name in their title (:func:`ruleset_title`). A rule set chosen by hand that is the
    same as a rulebook's is that rulebook's: the title says so too."""
    for book in books:
        try:
            spec = Ruleset.from_rulebook(book).spec_text
        except RulesetError:
            continue
        _BOOK_NAMES.setdefault(spec, book.name)
    ruleset_title.cache_clear()
    ruleset_data.cache_clear()


@functools.lru_cache(maxsize=256)
def ruleset_title(spec: str) -> str:
    """A rule set's name for people: its plugins' titles joined by "+" (``"Classic UNO + Stacking"``),
    after the rulebook's name when a server offers a rulebook of this rule set
    (``"Family night (Classic UNO + Stacking)"``, :func:`name_rulebooks`)."""
    plugins = " + ".join(plugin_title(name) for name in Ruleset.from_spec_text(spec).names)
    book = _BOOK_NAMES.get(spec)
    return plugins if book is None else f"{book} ({plugins})"


def _as_played(words: str, plugin: Any, options: Mapping[str, Any]) -> str:
    """A plugin's blurb with the numbers it says of its options as the table plays them: a whole
    number in the words equal to an integer option's default is that option's value ("scoring to
    500" at a table playing to 300 reads "scoring to 300")."""
    for option in plugin.options:
        default, value = option.default, options.get(option.name, option.default)
        if type(default) is int and type(value) is int and value != default:
            words = re.sub(rf"(?<![\d.,]){default}(?![\d,]|\.\d)", str(value), words)
    return words


@functools.lru_cache(maxsize=256)
def ruleset_data(spec: str) -> dict[str, Any]:
    """A table's rule set in words: ``title``, ``spec`` (the canonical text) and ``plugins``, each
    with ``name``, ``title``, ``doc``, ``codes`` and ``options`` (``name``, ``label``, ``value`` in
    words, ``changed`` from the default, ``codes``). Cached by spec: do not change what it returns."""
    rules = Ruleset.from_spec_text(spec)
    plugins = []
    for name in rules.names:
        plugin = installed_plugins()[name]
        words, codes = _plugin_words(name)
        words = _as_played(words, plugin, rules.options)
        options = []
        for option in plugin.options:
            described = option_data(option)
            value = option.to_text(rules.options[option.name])
            shown = next((c["label"] for c in described["choices"] if c["value"] == value), value)
            options.append(
                {
                    "name": option.name,
                    "label": described["label"],
                    "value": shown,
                    "changed": value != described["default"],
                    "codes": described["codes"],
                }
            )
        plugins.append(
            {"name": name, "title": plugin_title(name), "doc": words, "codes": codes, "options": options}
        )
    return {"title": ruleset_title(spec), "spec": spec, "plugins": plugins}

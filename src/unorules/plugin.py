"""What a plugin declares: its name, options, requirements, conflicts and vocabulary.

A plugin is an object with the declarations of :class:`Plugin` and hook
implementations marked with :data:`hookimpl`; subclassing :class:`Plugin`
gives the declarations their defaults. Installed plugins are found through
the entry-point group ``unorules``; the entry point names the plugin object::

    [project.entry-points.unorules]
    classic = "unorules_classic:plugin"
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import attrs

from unorules.errors import RulesetError, did_you_mean
from unorules.markers import PROJECT, hookimpl, hookspec
from unorules.texts import check_template

__all__ = [
    "EVENT_FIELDS",
    "MAX_OPTION_NUMBER",
    "PLUGIN_API_VERSION",
    "CardEffect",
    "EventSpec",
    "ExtraSpec",
    "Option",
    "PhaseSpec",
    "Plugin",
    "TestHints",
    "check_api_version",
    "hookimpl",
    "hookspec",
    "one_of",
    "positive_int",
    "switch",
]

PLUGIN_API_VERSION = 2
"""The version of the plugin contract (hooks and declarations) this core offers.

Version 2 (this one) hands every hook that changes a game a
:class:`~unorules.Draft`; version 1 returned new states. A plugin says which
version it is written against in :attr:`Plugin.api_version`; any other is
refused when it is loaded, with a message pointing to the migration notes."""

VERSION_1_DECLARATIONS = frozenset(
    {
        "play_kinds",
        "play_phases",
        "legal_phases",
        "apply_verbs",
        "direct_appliers",
        "direct_wrappers",
        "direct_finishers",
        "public_extras",
        "private_extras",
        "out_of_turn_verbs",
        "turn_verbs",
        "max_round_actions",
        "round_length_factor",
        "testing_option_values",
        "set_aside_cards",
    }
)
"""Declarations of plugin API version 1 that version 2 replaced or removed."""


def check_api_version(plugin: Any, what: str) -> None:
    """Refuse ``plugin`` (described as ``what`` in the message) unless it is
    written against this core's :data:`PLUGIN_API_VERSION`."""
    wanted = getattr(plugin, "api_version", 1)
    if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 1:
        raise RulesetError(f"{what}: api_version must be a positive int, not {wanted!r}")
    if wanted > PLUGIN_API_VERSION:
        raise RulesetError(
            f"{what} needs plugin API version {wanted}, but this unorules core offers version "
            f"{PLUGIN_API_VERSION}: install a newer unorules"
        )
    if wanted < PLUGIN_API_VERSION:
        raise RulesetError(
            f"{what} is written against plugin API version {wanted}; this unorules core offers version "
            f"{PLUGIN_API_VERSION}, whose hooks write the next state through a Draft (apply_action, "
            "on_play, on_draw, on_starter, on_round_end, after_action) instead of returning new "
            "states, and whose dispatch declarations and direct appliers are gone: see 'Moving to "
            "version 2' in the docs' Writing plugins page (docs/writing-plugins.rst), then set "
            "api_version = 2"
        )
    stale = sorted(name for name in VERSION_1_DECLARATIONS if _declares(plugin, name))
    if stale:
        raise RulesetError(
            f"{what} declares {', '.join(stale)}, which plugin API version 2 replaced: see 'Moving to "
            "version 2' in the docs' Writing plugins page (docs/writing-plugins.rst)"
        )


def _declares(plugin: Any, name: str) -> bool:
    """Whether ``plugin`` has the version 1 declaration ``name`` (a method of the
    same name marked as a hook implementation is a version 2 hook instead)."""
    value = getattr(plugin, name, None)
    return value is not None and not hasattr(value, f"{PROJECT}_impl")


def _no_check(value: Any) -> Any:
    return value


@attrs.frozen
class Option:
    """An option a plugin accepts.

    ``check`` turns a user's value into the canonical one or raises
    ``ValueError`` with a message saying what is allowed; the rule set calls
    it when it is built, so a bad option never reaches a game.
    """

    name: str
    """The option's name, unique among the plugins of a rule set."""
    default: Any
    """Its value when none is given."""
    doc: str = ""
    """What it does, citing its rule id, for ``unorules rules`` and the docs."""
    check: Callable[[Any], Any] = _no_check
    """Turns a value into the canonical one, or raises ``ValueError``."""
    allowed: str = "any value"
    """What ``check`` accepts, in words (``"on, off"``), for error messages and help."""

    def validate(self, value: Any) -> Any:
        """The canonical value for ``value``; ``ValueError`` if not allowed,
        and for every whole number (given, or in the canonical value) past
        :data:`MAX_OPTION_NUMBER` either way, whatever the option's own check says."""
        _check_bounded(value)
        checked = self.check(value)
        _check_bounded(checked)
        return checked

    def from_text(self, text: str) -> Any:
        """The canonical value for the command-line text ``text`` (``--option
        name=text``, a part ``name=text`` of a rule-set spec text).

        The text is first read as the type of the default (``on``/``off``,
        ``yes``/``no``, ``true``/``false``, ``1``/``0`` for a switch; a whole
        number for a number), otherwise passed to :meth:`validate` as it is.
        ``ValueError`` if not allowed.
        """
        text = text.strip()
        value: Any = text
        if isinstance(self.default, bool):
            value = _SWITCH_WORDS.get(text.lower(), text)
        elif isinstance(self.default, int):
            try:
                value = int(text)
            except ValueError:
                value = text
        return self.validate(value)

    def to_text(self, value: Any) -> str:
        """The command-line text of ``value`` (an already validated value):
        ``on``/``off`` for a switch, decimal for a number, items joined by
        commas for a tuple; :meth:`from_text` reads it back."""
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, list | tuple):
            return ",".join(self.to_text(item) for item in value)
        return str(value)


MAX_OPTION_NUMBER = 10**9
"""The largest whole number, either way, an option's value may be or hold (the
largest score a state may hold, :data:`unorules.validate.MAX_SCORE`): checked
by :meth:`Option.validate` for every option, so no option needs a bound of its
own against numbers such as ``2**63``."""


def _check_bounded(value: Any) -> None:
    pending = [value]
    while pending:  # a stack, not recursion: a value given through the API may nest deeply
        item = pending.pop()
        if isinstance(item, list | tuple):
            pending += item
        elif (
            isinstance(item, int)
            and not isinstance(item, bool)
            and not -MAX_OPTION_NUMBER <= item <= MAX_OPTION_NUMBER
        ):
            shown = str(item) if abs(item) < 10**30 else f"a number of {item.bit_length()} bits"
            raise ValueError(
                f"{shown} is out of range: an option's number is at most {MAX_OPTION_NUMBER:,} either way"
            )


_SWITCH_WORDS = {
    "on": True,
    "true": True,
    "yes": True,
    "1": True,
    "off": False,
    "false": False,
    "no": False,
    "0": False,
}


def one_of(*values: Any) -> Callable[[Any], Any]:
    """A check accepting exactly ``values`` (strings case-insensitively)."""

    def check(value: Any) -> Any:
        for allowed in values:
            if value == allowed and type(value) is type(allowed):
                return allowed
            if isinstance(value, str) and isinstance(allowed, str) and value.lower() == allowed:
                return allowed
            if isinstance(value, str) and not isinstance(allowed, str) and value == str(allowed):
                return allowed
        near = did_you_mean(str(value), [str(v) for v in values]).rstrip()
        shown = ", ".join(map(repr, values))
        raise ValueError(f"{value!r} is not one of {shown}" + (f"; {near}" if near else ""))

    check.choices = values  # type: ignore[attr-defined]  # what the check accepts, for forms
    return check


def positive_int(value: Any) -> int:
    """A check accepting positive integers (and their decimal strings): ``value``
    as an ``int``, else ``ValueError``."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{value!r} is not a positive integer")
    return value


def switch(value: Any) -> bool:
    """A check accepting ``True``/``False`` and ``"on"``/``"off"`` (also yes/no, 1/0):
    ``value`` as a ``bool``, else ``ValueError``."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("on", "true", "yes", "1"):
        return True
    if text in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"{value!r} is not on or off")


@attrs.frozen
class PhaseSpec:
    """A phase a plugin owns (``state.phase.name``), declared in :attr:`Plugin.phases`."""

    name: str
    """The phase name the plugin puts into states."""
    doc: str = ""
    """What the seat to move is asked to do, for docs and user interfaces."""
    empty_hand: bool = False
    """Whether a seat may hold no cards while the round goes on in this phase
    (a phase that settles a last card before the round ends); otherwise a
    seat with an empty hand in a running round is a bug the testing toolkit
    reports."""


EVENT_FIELDS = frozenset({"seat", "cards", "rule", "target", "count", "color", "private"})
"""The typed fields of :class:`~unorules.Event` an :class:`EventSpec` may
describe; values in ``event.data`` are described as ``"data.NAME"``."""

EventText = str | Callable[[Any], str]
"""An event's text: a template, or a function of the event (as the reader's
view holds it) returning the template for it."""


@attrs.frozen
class EventSpec:
    """An event kind a plugin emits (``event.kind``), declared in :attr:`Plugin.events`."""

    kind: str
    """The kind the plugin puts into events."""
    doc: str = ""
    """What happened, for docs and user interfaces."""
    fields: tuple[tuple[str, str], ...] = ()
    """What the event's fields hold, as ``(field, meaning)`` pairs: a typed
    field of :class:`~unorules.Event` (``"seat"``, ``"cards"``, ``"target"``,
    ``"count"``, ``"color"``, ``"private"``, ``"rule"``) or ``"data.NAME"``
    for a plugin-specific value in ``event.data``."""
    text: EventText = ""
    """How the event reads, from any seat's point of view: a template such as
    ``"{seat} stacked {cards}: {target} must draw {count} or stack"``, or a
    function of the event returning the template for it (when the words
    depend on a value: a late call, a bluff). :mod:`unorules.narrate` fills
    it in for a reader: ``{seat}`` is "you" for the reader's own seat, else
    the player's name; ``{seat:'s}`` is "your" or "Ann's"; ``{seat:was}`` is
    a verb agreeing with the seat; ``{cards}`` the cards, or "2 cards" for a
    reader who may not see them; ``{count:card}`` "a card", "4 cards". The
    fields a template names must be among :attr:`fields`; "" (no text) reads
    as the kind and the seat, and the shipped plugins' tests refuse it.
    See "Events in words" on the Writing plugins page."""
    reveals: bool = False
    """Whether the rule shows the event's cards to every seat: cards turned
    face up for the table before they go into a hand (a roulette of cards
    turned until a colour comes), a misplayed card shown before it is taken
    back. They are public knowledge from then on, wherever they go; the
    testing toolkit's ``hidden`` invariant accepts such an event naming cards
    held in a hand other seats may not see, and refuses it from an event kind
    that does not declare it. :class:`unorules.knowledge.Knowledge` takes the
    cards to be in the hand of the event's ``seat`` after the action (where
    both shipped uses put them). False (the default): an event names no
    hidden card, or is ``private``."""

    def __attrs_post_init__(self) -> None:
        for field, _ in self.fields:
            if field not in EVENT_FIELDS and not (field.startswith("data.") and len(field) > 5):
                raise ValueError(
                    f"event {self.kind!r}: unknown field {field!r}; "
                    f"use one of {sorted(EVENT_FIELDS)} or 'data.NAME'"
                )
        if isinstance(self.text, str):
            check_template(self.text, {f for f, _ in self.fields}, f"event {self.kind!r}")
        elif not callable(self.text):
            raise ValueError(
                f"event {self.kind!r}: text must be a template (str) or a function of the event "
                f"returning one, not {self.text!r}"
            )


@attrs.frozen
class ExtraSpec:
    """A key of ``state.extras`` a plugin owns, declared in :attr:`Plugin.extras`."""

    key: str
    """The key, unique among the plugins of a rule set (prefix it with the plugin's name)."""
    doc: str = ""
    """What the value holds."""
    public: bool = False
    """Whether every seat may see it (it is then in views); otherwise it never
    leaves the full state."""


@attrs.frozen
class TestHints:
    """What the testing toolkit should know of a plugin to test it well,
    declared in :attr:`Plugin.testing`. Rules never read it."""

    __test__: ClassVar[bool] = False  # not a pytest test class

    round_length_factor: float = 1.0
    """How many times longer than under classic alone a round of random play
    may last with this plugin (effects that make players draw, say); the
    toolkit multiplies the factors of a rule set's plugins into its bound on
    the actions of a round."""
    max_round_actions: int | None = None
    """A fixed bound on the actions of one round, or ``None`` for the toolkit's
    default (which grows with the seats and ``round_length_factor``)."""
    option_values: Mapping[str, tuple[Any, ...]] = attrs.field(factory=dict)
    """Option values the toolkit should draw from, by option name, when an
    option's check accepts more than it can list."""
    uno_exempt_when: tuple[tuple[str, Any], ...] = ()
    """``(option, value)`` pairs with which the plugin's rules exempt a seat
    from calling UNO when the effect of its own card (not the card itself)
    leaves it one card, a Discard All's discards for instance
    (``no-mercy``'s ``nm_uno_when_handed=exempt``, R-NM-UNO). With one of
    them set, the toolkit's ``uno`` invariant does not require such a seat,
    which lost more than the card it played, to be open to a catch."""
    uno_handed_when: tuple[tuple[str, Any], ...] = ()
    """``(option, value)`` pairs with which the plugin's rules make a seat
    handed a hand of one card (a 7's swap, a 0's rotation) call UNO like a
    seat that played down to one (``no-mercy``'s
    ``nm_uno_when_handed=must-call``, R-NM-UNO). With one of them set, the
    toolkit's ``uno`` invariant lets such a seat be open to a catch."""
    open_hands_while: tuple[str, ...] = ()
    """Extras keys while which the plugin's rules open every hand to every
    seat (``custom-wilds``' open-hands card, C7). The toolkit's ``hidden``
    invariant accepts a seat seeing another seat's hand (``visible_hands``)
    only while one of these keys is set, or after an event that showed that
    hand to that seat (``show``: ``draft.show_hand``)."""
    effects: tuple[CardEffect, ...] = ()
    """What some of the plugin's cards do, as data (:class:`CardEffect`): the
    toolkit checks every play of such a card against it."""
    scenarios: tuple[Callable[[Any], None], ...] = ()
    """The plugin's scenario tests, each a function of a rule set that
    arranges a position and states what follows
    (:class:`unorules.testing.scenario.Scenario`), raising ``AssertionError``
    when the rule is not carried out. The conformance runner runs them under
    the plugin alone and next to every other plugin it combines with."""
    interacts_with: tuple[str, ...] = ()
    """Installed plugins whose rules meet this plugin's (a card the other
    plugin's stacking or elimination changes): the ``quick`` budget checks
    these combinations too, besides every game mode."""


@attrs.frozen
class CardEffect:
    """What playing a card of ``kind`` does, stated as data so the testing
    toolkit can check every play of it (declared in
    :attr:`TestHints.effects`). Each field left ``None`` is not checked.

    A play is checked when it is made in one of the ``phases`` (default:
    any) and is not the player's last card (going out is the core's)."""

    __test__: ClassVar[bool] = False  # not a pytest test class

    kind: str
    """The card kind (``"DA"``)."""
    discards: str | None = None
    """Which other cards of the player's hand go onto the discard pile with
    it: ``"color"`` (every card of its colour), ``"kind"`` (every card of its
    kind), ``"all"``; the player keeps exactly the rest."""
    passes: int | None = None
    """How many seats the turn passes by, in the direction of play before
    the card (1: the next seat; 2: one seat skipped), checked when the phase
    stays the same."""
    next_draws: int | None = None
    """How many cards the next seat draws, checked when the phase stays the same."""
    phases: tuple[str, ...] = ()
    """The phases whose plays are checked (empty: every phase the card is
    played in, a drawn card played at once included)."""

    def __attrs_post_init__(self) -> None:
        if self.discards not in (None, "color", "kind", "all"):
            raise ValueError(
                f"CardEffect({self.kind!r}): discards is 'color', 'kind', 'all' or None, "
                f"not {self.discards!r}"
            )
        for name in ("passes", "next_draws"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(f"CardEffect({self.kind!r}): {name} is a count, not {value!r}")


class Plugin:
    """Base class of plugins: every declaration with its default.

    ========================  ======================================================
    Every plugin declares
    ========================  ======================================================
    ``name``                  the name it is enabled by (its entry-point name)
    ``api_version``           the :data:`PLUGIN_API_VERSION` it is written against
    ``rules``                 the rule ids it implements (docs, ``unorules rules``)
    ========================  ======================================================

    ========================  ======================================================
    Some plugins declare      when
    ========================  ======================================================
    ``requires``              it builds on other plugins (house rules on
                              ``classic``): it is registered after them, so its
                              hooks are asked before theirs
    ``conflicts``             it cannot be combined with a plugin: its name and
                              the reason shown to the user
    ``options``               it has options (:class:`Option`)
    ``verbs``                 its actions use verbs (registered with
                              :func:`~unorules.register_verb`): each verb and who
                              may use it, ``"turn"`` (the seat to move) or
                              ``"any"`` (also out of turn: an UNO call, a catch, a
                              jump-in ``play``)
    ``phases``                it puts phases into states (:class:`PhaseSpec`)
    ``events``                it emits event kinds (:class:`EventSpec`), each
                              with the words it reads as
    ``extras``                it keeps data in ``state.extras`` (:class:`ExtraSpec`)
    ``hookspecs``             it offers hooks of its own to other plugins: a class
                              or module of :data:`hookspec` functions
    ``testing``               the testing toolkit needs hints (:class:`TestHints`)
    ========================  ======================================================

    The plugin's docstring (its class's, else its module's) is its
    description: its first line is the summary ``unorules rules`` lists.
    Everything a plugin does is done in its hooks (:mod:`unorules.hookspecs`).
    """

    name: ClassVar[str] = ""
    api_version: ClassVar[int] = 1
    rules: ClassVar[tuple[str, ...]] = ()
    requires: ClassVar[tuple[str, ...]] = ()
    conflicts: ClassVar[Mapping[str, str]] = {}
    options: ClassVar[tuple[Option, ...]] = ()
    verbs: ClassVar[Mapping[str, str]] = {}
    phases: ClassVar[tuple[PhaseSpec, ...]] = ()
    events: ClassVar[tuple[EventSpec, ...]] = ()
    extras: ClassVar[tuple[ExtraSpec, ...]] = ()
    hookspecs: ClassVar[object | None] = None
    testing: ClassVar[TestHints] = TestHints()

    def __repr__(self) -> str:
        return f"<unorules plugin {self.name!r}>"


DECLARATIONS: tuple[str, ...] = (
    "name",
    "api_version",
    "rules",
    "requires",
    "conflicts",
    "options",
    "verbs",
    "phases",
    "events",
    "extras",
    "hookspecs",
    "testing",
)
"""Every declaration of :class:`Plugin`, in the order of its table."""

VERB_USES = ("turn", "any")
"""Who may use a verb a plugin declares: the seat to move, or any seat."""


def summary(plugin: Any) -> str:
    """The first line of a plugin's docstring (its class's, else its module's),
    without its full stop: the line ``unorules rules`` lists."""
    doc = type(plugin).__doc__
    if not doc or type(plugin).__doc__ == Plugin.__doc__:
        module = sys.modules.get(type(plugin).__module__)
        doc = getattr(module, "__doc__", None) or ""
    return doc.strip().splitlines()[0].strip().removesuffix(".") if doc.strip() else ""

"""What a plugin declares: its name, options, requirements and conflicts.

A plugin is any object with a ``name`` and hook implementations marked with
:data:`hookimpl`; subclassing :class:`Plugin` gives the declarations their
defaults. Installed plugins are found through the entry-point group
``unorules``; the entry point names the plugin object::

    [project.entry-points.unorules]
    classic = "unorules_classic:plugin"
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
import pluggy

if TYPE_CHECKING:
    from unorules.actions import Action
    from unorules.cards import Card
    from unorules.ruleset import Ruleset
    from unorules.state import GameState

__all__ = [
    "EVENT_FIELDS",
    "PLUGIN_API_VERSION",
    "Applier",
    "ApplierWrapper",
    "ByOption",
    "EventSpec",
    "Option",
    "PhaseSpec",
    "Plugin",
    "hookimpl",
    "hookspec",
    "one_of",
    "positive_int",
    "switch",
]

PLUGIN_API_VERSION = 1
"""The version of the plugin contract (hooks and declarations) this core offers.

A plugin sets :attr:`Plugin.api_version` to the version it was written
against; a plugin that needs a newer contract than the installed core offers
is refused when it is loaded, with a message saying which core to install."""

Applier = Callable[["GameState", "Action"], "GameState | None"]
"""A direct applier: the state *before* an action and the action, to the
state after it, or ``None`` to have the action applied through the
``apply_action`` hook (see :meth:`Plugin.direct_appliers`)."""

ApplierWrapper = Callable[[Applier], Applier]
"""A plugin's share of a direct applier: given the applier of the plugins
after it, its own applier around that one (see :meth:`Plugin.direct_wrappers`)."""

Finisher = Callable[["GameState", "Action", "dict[str, Any]"], bool]
"""A plugin's share of a direct applier, done on the fields of the state the
action makes before that state exists: the state *before* the action, the
action and those fields (a new dict, written in place), to ``True``, or to
``False`` to have the action applied through the ``apply_action`` hook (see
:meth:`Plugin.direct_finishers`)."""

hookspec = pluggy.HookspecMarker("unorules")
"""Marks a hook specification (used by :mod:`unorules.hookspecs`)."""

hookimpl = pluggy.HookimplMarker("unorules")
"""Marks a plugin method as a hook implementation: ``@unorules.hookimpl``."""


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
    default: Any
    doc: str = ""
    check: Callable[[Any], Any] = _no_check
    allowed: str = "any value"

    def validate(self, value: Any) -> Any:
        """The canonical value for ``value``; ``ValueError`` if not allowed."""
        return self.check(value)

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
        raise ValueError(f"{value!r} is not one of {', '.join(map(repr, values))}")

    return check


def positive_int(value: Any) -> int:
    """A check accepting positive integers (and their decimal strings)."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{value!r} is not a positive integer")
    return value


def switch(value: Any) -> bool:
    """A check accepting ``True``/``False`` and ``"on"``/``"off"`` (also yes/no, 1/0)."""
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
    """A phase a plugin owns (``state.phase.name``), declared in :attr:`Plugin.phases`.

    * ``name``: the phase name the plugin puts into states.
    * ``doc``: what the seat to move is asked to do, for docs and user interfaces.
    * ``empty_hand``: whether a seat may hold no cards while the round goes on
      in this phase (for instance a phase that finishes a round after an
      effect); otherwise a seat with an empty hand in a running round is a bug
      the testing toolkit reports.
    """

    name: str
    doc: str = ""
    empty_hand: bool = False


EVENT_FIELDS = frozenset({"seat", "cards", "rule", "target", "count", "color", "private"})
"""The typed fields of :class:`~unorules.Event` an :class:`EventSpec` may
describe; values in ``event.data`` are described as ``"data.NAME"``."""


@attrs.frozen
class EventSpec:
    """An event kind a plugin emits (``event.kind``), declared in :attr:`Plugin.events`.

    * ``kind``: the kind the plugin puts into events.
    * ``doc``: what happened, for docs and user interfaces.
    * ``fields``: what the event's fields hold, as ``(field, meaning)`` pairs:
      a typed field of :class:`~unorules.Event` (``"seat"``, ``"cards"``,
      ``"target"``, ``"count"``, ``"color"``, ``"private"``, ``"rule"``) or
      ``"data.NAME"`` for a plugin-specific value in ``event.data``.
    """

    kind: str
    doc: str = ""
    fields: tuple[tuple[str, str], ...] = ()

    def __attrs_post_init__(self) -> None:
        for field, _ in self.fields:
            if field not in EVENT_FIELDS and not (field.startswith("data.") and len(field) > 5):
                raise ValueError(
                    f"event {self.kind!r}: unknown field {field!r}; "
                    f"use one of {sorted(EVENT_FIELDS)} or 'data.NAME'"
                )


@attrs.frozen(eq=False)
class ByOption:
    """A declaration that depends on the value of an option, for ``play_kinds``,
    ``play_phases``, ``legal_phases`` and ``apply_verbs`` (see :class:`Plugin`):
    the rule set looks the value of ``option`` up in ``values`` once, when it is built; a
    value not listed (or unhashable) gives ``default``. For a plugin whose options decide which
    cards, phases or verbs its hooks handle, e.g.
    ``ByOption("enforcement", {"strict": frozenset()})`` (the hook is never
    asked with ``enforcement=strict``, always otherwise).
    """

    option: str
    values: Mapping[Any, frozenset[str] | None]
    default: frozenset[str] | None = None


class Plugin:
    """Convenience base class for plugins; every attribute may be overridden.

    * ``name``: the name the plugin is enabled by (its entry-point name).
    * ``options``: the :class:`Option` objects it accepts.
    * ``requires``: names of plugins that must be in the same rule set; this
      plugin is registered after them, so its hooks run before theirs.
    * ``conflicts``: names of plugins it cannot be combined with, each with the
      reason shown to the user.
    * ``rules``: the rule ids it implements, for docs and ``unorules rules``.
    * ``hookspecs``: optionally, a class or module of :data:`hookspec`
      functions: hooks this plugin offers to other plugins (an extension point).

    Declarations that the core, the testing toolkit and the outer layers
    (views, the RL action space and observation, the server) read; each is
    decided once per rule set, never per action:

    * ``api_version``: the :data:`PLUGIN_API_VERSION` the plugin is written against.
    * ``verbs``: every verb the plugin's actions use (registered with
      :func:`~unorules.register_verb`), including core verbs such as ``play``.
    * ``out_of_turn_verbs``: those of ``verbs`` a seat may use when it is not
      the seat to move (an UNO call, a catch, a jump-in ``play``).
    * ``turn_verbs``: verbs of its own that only the seat to move may use
      (the testing toolkit adds them to its ``TURN_VERBS``).
    * ``phases``: the :class:`PhaseSpec` of every phase the plugin puts into states.
    * ``events``: the :class:`EventSpec` of every event kind the plugin emits
      (the core's own kinds, such as ``draw``, need no declaration).
    * ``public_extras``: the keys of ``state.extras`` this plugin owns that
      every seat may see; other keys never leave the full state.
    * ``private_extras``: the other keys of ``state.extras`` this plugin owns
      (seen by no seat). A state holding a key that no plugin of its rule set
      declares in ``public_extras`` or ``private_extras`` is refused by
      :func:`~unorules.validate_state` (and so by ``GameState.from_json``).
    * ``play_kinds``: the card kinds whose play this plugin's ``on_play``
      handles (a ``frozenset`` such as ``frozenset({"7", "0"})``), or ``None``
      (every card): the rule set then asks only the plugins that claimed a
      card's kind. It covers every ``on_play`` implementation of the plugin,
      wrappers included: for other kinds they must return ``None`` and change
      nothing (see :doc:`hooks`).
    * ``play_phases``: the phases (``previous.phase.name`` in ``on_play``: the
      phase of the state the card is played in) in which this plugin's
      ``on_play`` may act, or ``None`` (every phase). With ``play_kinds``, a
      play asks only the plugins that declared both its card's kind and the
      phase it is made in (stacking acts on a Draw Two only when it is played
      on a stack). It covers every ``on_play`` implementation of the plugin,
      wrappers included: for plays made in other phases they must return
      ``None`` and change nothing.
    * ``legal_phases``: the phases (``state.phase.name``) in which this
      plugin's ``legal_actions`` may list actions, or ``None`` (every phase):
      the rule set then asks only the plugins that declared a state's phase.
      It covers every ``legal_actions`` implementation of the plugin,
      wrappers included: in other phases they must list nothing and change
      nothing (see :doc:`hooks`).
    * ``apply_verbs``: the verbs of the actions this plugin's ``apply_action``
      handles, or ``None`` (every action): other actions are applied without
      asking it. It covers every ``apply_action`` implementation of the
      plugin, wrappers included: for other verbs they must return ``None``
      and change nothing (see :doc:`hooks`).

      Each of these four may be a :class:`ByOption` instead, when the
      plugin's options decide what its hooks handle. None of them may change
      a result: the testing toolkit's ``dispatch`` invariant
      (:func:`unorules.testing.invariants.check_dispatch`) plays every legal
      action both ways and reports any difference.
    * ``max_round_actions``: a bound on the actions of one round that the
      testing toolkit uses, or ``None`` for its default (which grows with the
      number of seats and the plugins' ``round_length_factor``).
    * ``round_length_factor``: how many times longer than under classic alone
      a round of random play may last with this plugin (effects that make
      players draw, say); the testing toolkit multiplies the factors of a rule
      set's plugins into its bound on the actions of a round. Default 1.
    * ``testing_option_values``: option values the testing toolkit should draw
      from, by option name, when the ``Option.check`` accepts more than it can list.
    * ``teams(players)``: a method naming the seats that play as teams (see
      :meth:`Plugin.teams`).
    * ``direct_appliers(ruleset)``: a method offering shortcuts that apply
      actions of some verbs in one step (see :meth:`Plugin.direct_appliers`).
    * ``direct_wrappers(ruleset)``: a method offering this plugin's share of
      such a shortcut when other plugins' ``apply_action`` come after its own
      (see :meth:`Plugin.direct_wrappers`).
    * ``direct_finishers(ruleset)``: the same share, done on the fields of the
      state the shortcut makes, so that it costs no copy of its own (see
      :meth:`Plugin.direct_finishers`).
    """

    name: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    requires: ClassVar[tuple[str, ...]] = ()
    conflicts: ClassVar[Mapping[str, str]] = {}
    rules: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    hookspecs: ClassVar[object | None] = None
    api_version: ClassVar[int] = PLUGIN_API_VERSION
    verbs: ClassVar[tuple[str, ...]] = ()
    out_of_turn_verbs: ClassVar[tuple[str, ...]] = ()
    turn_verbs: ClassVar[tuple[str, ...]] = ()
    phases: ClassVar[tuple[PhaseSpec, ...]] = ()
    events: ClassVar[tuple[EventSpec, ...]] = ()
    public_extras: ClassVar[tuple[str, ...]] = ()
    private_extras: ClassVar[tuple[str, ...]] = ()
    play_kinds: ClassVar[frozenset[str] | ByOption | None] = None
    play_phases: ClassVar[frozenset[str] | ByOption | None] = None
    legal_phases: ClassVar[frozenset[str] | ByOption | None] = None
    apply_verbs: ClassVar[frozenset[str] | ByOption | None] = None
    max_round_actions: ClassVar[int | None] = None
    round_length_factor: ClassVar[float] = 1.0
    testing_option_values: ClassVar[Mapping[str, tuple[Any, ...]]] = {}

    def set_aside_cards(self, state: GameState) -> Iterable[Card]:
        """The cards of the deck this plugin keeps out of the hands and piles
        in ``state`` (for instance a card held in ``state.extras``), so that
        card conservation can be checked. Default: none."""
        return ()

    def direct_appliers(self, ruleset: Ruleset) -> Mapping[str, Applier]:
        """Functions that apply actions of some verbs in one step, by verb;
        called once per rule set. Default: none.

        A direct applier is a shortcut next to this plugin's ``apply_action``,
        not a hook: :meth:`GameState.apply` calls ``applier(state, action)``
        with the state *before* the action (a legal ``action``), but only for
        the verbs whose ``apply_action`` asks this plugin alone in ``ruleset``
        (no other implementation and no wrapper: see
        :meth:`Ruleset.apply_claimants`). It must return exactly what this
        plugin's ``apply_action`` returns for the state handed to it (``state``
        with ``last_action=action`` and no events), or ``None`` to have the
        action applied the usual way, through the hook. Every hook its
        ``apply_action`` would call in that case (``on_play``, ``on_draw``, the
        end of a round) must be called likewise, or ``None`` returned.

        Where other plugins' ``apply_action`` come before this plugin's for a
        verb, the direct applier is used only if each of them offers a wrapper
        or a finisher for that verb (:meth:`direct_wrappers`,
        :meth:`direct_finishers`). To run the finishers inside its own copy,
        the applier for a verb gets them from :meth:`Ruleset.direct_finishers`
        (``ruleset.direct_finishers(verb)``, asked here, while this method
        runs) and calls each in turn on the fields of the state it makes,
        before making it (``False`` from one: return ``None``). The rule set
        keeps track of which verbs' finishers were taken in, and runs the
        others on copies.
        """
        return {}

    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, ApplierWrapper]:
        """This plugin's share of the direct appliers of other plugins, by
        verb; called once per rule set. Default: none.

        For a plugin whose ``apply_action`` is asked for a verb before another
        plugin's (it does something around the rest of the chain, as jump-in
        opens and closes its window around classic's play), the rule set
        can still apply actions of that verb in one step: when the last
        plugin asked offers a direct applier (:meth:`direct_appliers`) and
        every earlier one a wrapper (or a finisher: :meth:`direct_finishers`,
        which saves the wrapper's copy), it calls each wrapper once, from the
        last plugin backwards, as ``wrapper(inner)`` with ``inner`` the
        applier of the plugins after it, and keeps the outermost result.

        ``wrapper(inner)`` returns an applier ``(state, action) -> GameState |
        None``, called with the state *before* the action (a legal
        ``action``). It must return exactly what this plugin's
        ``apply_action`` returns, given the state handed to it (``state`` with
        ``last_action=action`` and no events), when the rest of the chain
        returns what ``inner(state, action)`` returns; or ``None`` (also
        whenever ``inner`` returns ``None``) to have the action applied the
        usual way, through the hook. A plugin that cannot tell in advance
        which actions it would change before the rest of the chain runs (a
        jump-in, an answer to its own phase) returns ``None`` for those.

        A plugin that offers a finisher for the verb too
        (:meth:`direct_finishers`) does its work on the rest's result there:
        its wrapper then only decides, or changes, what happens *before* the
        rest runs, and returns ``inner``'s result as it is.
        """
        return {}

    def direct_finishers(self, ruleset: Ruleset) -> Mapping[str, Finisher]:
        """This plugin's share of the direct appliers of other plugins, done
        on the fields of the state they make, by verb; called once per rule
        set. Default: none.

        The same share as a wrapper's (:meth:`direct_wrappers`), for a plugin
        that only changes the rest of the chain's *result* (jump-in opens or
        closes its window in it), without the state copy a wrapper makes:
        the direct applier calls ``finisher(state, action, fields)`` with the
        state *before* the action, the action, and the fields of the state it
        is about to make (a dict of its own, not yet a state; ``_legal`` is
        ``None``). The finisher writes its changes into ``fields`` and
        returns ``True``, leaving exactly the state this plugin's
        ``apply_action`` would return, given the state handed to it (``state``
        with ``last_action=action`` and no events), when the rest of the
        chain returns the state ``fields`` describe. It returns ``False`` to
        have the action applied the usual way, through the hook: the direct
        applier then makes no state, though it may already have called
        ``on_play`` (hooks are functions of their arguments, so this costs
        time only). A finisher reads ``fields`` and the state before the
        action; it keeps nothing.

        Finishers run inside the direct applier for the plugins asked for the
        verb right before its plugin, each of which offers one (the last of
        them first, as their ``apply_action`` would see the rest's result);
        a plugin further out whose wrapper comes between has its finisher
        run on a copy of the result around that wrapper, as a wrapper of its
        own would. A direct applier takes the finishers in by calling
        :meth:`Ruleset.direct_finishers` while its ``direct_appliers`` is
        asked; one that does not has them all run on copies.
        """
        return {}

    def teams(self, players: int) -> Sequence[Sequence[int]] | None:
        """The teams of a game of ``players`` seats, each a sequence of seats
        (together every seat once), or ``None`` when this plugin does not group
        seats. A team shares its results; outer layers such as the RL
        environments reward a round winner's whole team. Default: ``None``."""
        return None

    def __repr__(self) -> str:
        return f"<unorules plugin {self.name!r}>"

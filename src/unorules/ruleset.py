"""Rule sets: plugins with their options, their hooks, and the engine that applies actions.

A :class:`Ruleset` owns its own pluggy ``PluginManager``; there is no global
one. Everything that can be known once per rule set (the deck, card points,
which cards need a target, who implements which hook) is worked out when it
is built, so the per-action path asks plugins only what depends on the game.

The engine is :meth:`Ruleset.apply`: one :class:`~unorules.Draft` per
action, handed to ``apply_action`` and ``after_action``, frozen into the next
state once (:func:`unorules.draft.carry_out`). ``GameState.apply`` calls it;
``GameState.legal_actions`` calls :attr:`Ruleset.hooks`' ``legal_actions``.
"""

from __future__ import annotations

import functools
import heapq
import inspect
import itertools
import os
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import pluggy

from unorules import hookspecs
from unorules._hookcall import ClosedPluginManager, Hooks, annotate, impl_frames
from unorules._mypyc import mypyc_attr
from unorules.actions import Action
from unorules.cards import COLORS, Card, Color, parse_cards, registered_colors
from unorules.discovery import (
    ENTRY_POINT_GROUP,
    PluginLoadWarning,
    installed_plugins,
    load_plugin,
)
from unorules.draft import blank_draft, carry_out
from unorules.errors import (
    IllegalActionError,
    NotationError,
    RulesetError,
    StateFormatError,
    excerpt,
    nearest,
)
from unorules.events import CORE_EVENTS
from unorules.markers import PROJECT
from unorules.plugin import VERB_USES, EventSpec, ExtraSpec, Option, PhaseSpec, TestHints, check_api_version
from unorules.rng import Rng, Seed, seed_state
from unorules.rulebook import Rulebook, preset, resolve
from unorules.spec import CACHE, freeze, option_owners, parse_spec_text
from unorules.state import GameState

__all__ = [
    "CORE_EVENTS",
    "ENTRY_POINT_GROUP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Hooks",
    "PluginLoadWarning",
    "Ruleset",
    "installed_plugins",
    "load_plugin",
]


MIN_PLAYERS = 2
"""The fewest seats a game may have."""
MAX_PLAYERS = 10
"""The most seats a game may have (``new_game`` refuses more; a plugin may size tables by it)."""

_T = TypeVar("_T")

UNO_CALLS = ("two-cards", "one-card", "playable", "silent")
"""The answers of the ``uno_call_rule`` hook (see :attr:`Ruleset.uno_call`)."""


def _plugin_name(plugin: Any) -> str:
    name = getattr(plugin, "name", None)
    if not isinstance(name, str) or not name:
        raise RulesetError(f"plugin {plugin!r} has no name: give it a 'name' attribute")
    return name


@mypyc_attr(native_class=False)  # a Python class in the compiled build: the spec cache keeps weak references
class Ruleset:
    """A set of plugins with their options: everything needed to play.

    Build one with :meth:`from_names` or :meth:`from_spec_text`; plugin
    objects can be passed directly (for tests and scripts). Unknown plugins,
    unknown or invalid options, missing requirements, conflicts and plugin
    mistakes (a hook with parameters its spec lacks, a method named like a
    hook but not marked) raise :class:`RulesetError` here, never during a
    game. The same plugins and options, listed in any order, build equal rule
    sets that play the same seeded games; :attr:`spec_text` is their
    canonical name.
    """

    def __init__(self, plugins: Sequence[Any], options: Mapping[str, Any] | None = None) -> None:
        by_name: dict[str, Any] = {}
        for plugin in plugins:
            name = _plugin_name(plugin)
            check_api_version(plugin, f"plugin {name!r}")
            if name in by_name and by_name[name] is not plugin:
                raise RulesetError(f"two different plugins are named {name!r}")
            by_name[name] = plugin
        if not by_name:
            raise RulesetError("a rule set needs at least one plugin, e.g. 'classic'")
        self._plugins = _order(by_name)
        self.names: tuple[str, ...] = tuple(_plugin_name(p) for p in self._plugins)
        """The plugin names in canonical registration order: each plugin after the
        plugins it requires, plugins that do not depend on one another by name;
        the order they were listed in never matters."""
        self.cache: dict[Hashable, Any] = {}
        """The one place for per-rule-set data that plugins and tools derive
        (plugin objects are shared by every rule set): keyed by something of
        their own, e.g. ``(plugin_name, "what")``; prefer :meth:`cached`.
        Available from the first hook called while the rule set is built."""
        self._declared_options = _declared_options(self._plugins)
        self.options: Mapping[str, Any] = _check_options(self._declared_options, dict(options or {}))
        """Every option of the rule set's plugins with its value (defaults included)."""
        self._given = {k: v for k, v in self.options.items() if k in (options or {})}
        self._declare()

        self.pm: pluggy.PluginManager = ClosedPluginManager(PROJECT)
        """The rule set's own pluggy ``PluginManager``, closed to changes once the
        rule set is built."""
        self.pm.add_hookspecs(hookspecs)
        for plugin in self._plugins:
            extension = getattr(plugin, "hookspecs", None)
            if extension is not None:  # hooks a plugin offers other plugins (an extension point)
                self.pm.add_hookspecs(extension)
        for plugin in self._plugins:
            _check_hook_methods(plugin, self.pm)
            try:
                self.pm.register(plugin, name=_plugin_name(plugin))
            except pluggy.PluginValidationError as exc:
                raise RulesetError(f"plugin {_plugin_name(plugin)!r} cannot be registered: {exc}") from None
        try:
            self.pm.check_pending()
        except pluggy.PluginValidationError as exc:
            raise RulesetError(f"a plugin implements an unknown hook: {exc}") from None
        self.pm.close()
        self.hook: pluggy.HookRelay = self.pm.hook
        """pluggy's hook relay, for the hooks of building and those a plugin offers."""
        self._impl_codes = impl_frames(self.pm)
        self.hooks = Hooks(self.hook, self)
        """The callers of the hooks of play (see :class:`Hooks`)."""

        h = self.hook
        self.deck: tuple[Card, ...] = tuple(itertools.chain.from_iterable(h.deck_cards(ruleset=self)[::-1]))
        """Every card of the deck, in the order the plugins contribute them."""
        if not self.deck:
            raise RulesetError(f"the plugins {list(self.names)} put no cards in the deck")
        two_faced = [bool(card.faces) for card in self.deck]
        if any(two_faced) and not all(two_faced):
            raise RulesetError(
                f"the plugins {list(self.names)} put cards printed on one side and two-faced cards "
                "into one deck: a deck is either kind"
            )
        self.two_faced: bool = two_faced[0]
        """Whether the deck's cards are printed on both sides (:meth:`Card.two_faced`):
        then views show each card's face of the side in play, actions name the
        face a card shows, and :attr:`colors`, card points and targets cover the faces."""
        distinct = list(dict.fromkeys(self.deck))
        if self.two_faced:
            distinct += dict.fromkeys(face for card in distinct for face in card.faces)
        self._points: dict[Card, int] = {}
        self._targeted: set[Card] = set()
        self._colorless: set[Card] = set()
        for card in distinct:
            points = h.card_points(ruleset=self, card=card)
            if points is None:
                raise RulesetError(f"no plugin says how many points {card} is worth")
            self._points[card] = points
            if h.card_needs_target(ruleset=self, card=card):
                self._targeted.add(card)
            if card.color is None and h.card_names_color(ruleset=self, card=card) is False:
                self._colorless.add(card)
        shown = {face.color for card in self.deck for face in (card.faces or (card,))}
        self.colors: tuple[Color, ...] = tuple(c for c in registered_colors() if c in shown)
        """The colours of the deck's cards (faces included), in notation order:
        the four of :data:`~unorules.COLORS` for a classic deck."""
        size = h.hand_size(ruleset=self)
        self.hand_size: int = 7 if size is None else size
        """The number of cards dealt to each seat."""
        call = h.uno_call_rule(ruleset=self)
        if call is not None and call not in UNO_CALLS:
            raise RulesetError(
                f"the uno_call_rule hook answered {call!r}; the answers are {', '.join(UNO_CALLS)}"
            )
        self.uno_call: str = "two-cards" if call is None else call
        """When a seat calls UNO (the ``uno_call_rule`` hook): ``"two-cards"``,
        ``"one-card"``, ``"playable"`` or ``"silent"`` (see :data:`UNO_CALLS`)."""
        self._play_cache: dict[tuple[int, Card, int], tuple[Action, ...]] = {}
        self._play_tables: dict[tuple[int, int], dict[Card, tuple[Action, ...]]] = {}
        h.check_ruleset(ruleset=self)

    def _declare(self) -> None:
        """Gather what the plugins declare (see :class:`~unorules.Plugin`)."""
        verbs: dict[str, None] = {}
        anyone: dict[str, None] = {}
        phases: dict[str, PhaseSpec] = {}
        owners: dict[str, str] = {}
        events: dict[str, EventSpec] = {spec.kind: spec for spec in CORE_EVENTS}
        emitters: dict[str, str] = dict.fromkeys(events, "core")
        extras: dict[str, ExtraSpec] = {}
        extras_owners: dict[str, str] = {}
        for plugin in self._plugins:
            name = _plugin_name(plugin)
            for event in getattr(plugin, "events", ()):
                if not isinstance(event, EventSpec):
                    raise RulesetError(f"plugin {name!r} declares event {event!r}: use unorules.EventSpec")
                if event.kind in emitters and events[event.kind] != event:
                    raise RulesetError(
                        f"{emitters[event.kind]!r} and {name!r} both declare event kind {event.kind!r}"
                    )
                emitters.setdefault(event.kind, name)
                events[event.kind] = event
            declared = getattr(plugin, "verbs", {})
            if not isinstance(declared, Mapping):
                raise RulesetError(
                    f"plugin {name!r} declares verbs {declared!r}: use a mapping of each verb to who may "
                    "use it, 'turn' or 'any', e.g. {'play': 'turn', 'uno': 'any'}"
                )
            for verb, use in declared.items():
                if use not in VERB_USES:
                    raise RulesetError(
                        f"plugin {name!r} declares verb {verb!r} for {use!r}: say who may use it, "
                        "'turn' (the seat to move) or 'any' (also out of turn)"
                    )
                verbs[verb] = None
                if use == "any":
                    anyone[verb] = None
            for extra in getattr(plugin, "extras", ()):
                if not isinstance(extra, ExtraSpec):
                    raise RulesetError(f"plugin {name!r} declares extra {extra!r}: use unorules.ExtraSpec")
                if extras_owners.setdefault(extra.key, name) != name:
                    raise RulesetError(
                        f"plugins {extras_owners[extra.key]!r} and {name!r} both declare extras key "
                        f"{extra.key!r}"
                    )
                extras[extra.key] = extra
            for spec in getattr(plugin, "phases", ()):
                if not isinstance(spec, PhaseSpec):
                    raise RulesetError(f"plugin {name!r} declares phase {spec!r}: use unorules.PhaseSpec")
                if spec.name in owners:
                    raise RulesetError(
                        f"plugins {owners[spec.name]!r} and {name!r} both declare phase {spec.name!r}"
                    )
                owners[spec.name] = name
                phases[spec.name] = spec
            hints = getattr(plugin, "testing", TestHints())
            if not isinstance(hints, TestHints):
                raise RulesetError(f"plugin {name!r} declares testing {hints!r}: use unorules.TestHints")
        self.verbs: tuple[str, ...] = tuple(verbs)
        """Every verb the plugins declare, in registration order (see ``Plugin.verbs``)."""
        self.out_of_turn_verbs: frozenset[str] = frozenset(anyone)
        """The verbs some plugin lets any seat use, also when it is not the seat to move."""
        self.turn_verbs: frozenset[str] = frozenset(verbs) - self.out_of_turn_verbs
        """The verbs only the seat to move may use (no plugin lets any seat use them)."""
        self.phases: Mapping[str, PhaseSpec] = phases
        """The phases the plugins declare, by name, in registration order."""
        self.phase_owners: Mapping[str, str] = owners
        """The name of the plugin that declares each phase."""
        self.extras: Mapping[str, ExtraSpec] = extras
        """The ``state.extras`` keys the plugins declare, by key."""
        self.extras_owners: Mapping[str, str] = extras_owners
        """The name of the plugin that declares each ``state.extras`` key."""
        self.public_extras: frozenset[str] = frozenset(k for k, e in extras.items() if e.public)
        """The ``state.extras`` keys every seat may see (in views)."""
        self.events: Mapping[str, EventSpec] = events
        """The event kinds of this rule set, by kind: the core's (:data:`CORE_EVENTS`),
        then each plugin's (see ``Plugin.events``), in registration order."""
        self.event_owners: Mapping[str, str] = emitters
        """Who declares each event kind: ``"core"`` or a plugin's name."""

    # -- for plugins and tools ---------------------------------------------------------

    def cached(self, key: Hashable, compute: Callable[[Ruleset], _T]) -> _T:
        """``compute(self)``, worked out once per rule set and kept in
        :attr:`cache` under ``key`` (use a key of your own, such as
        ``(plugin_name, "what")``): the place for whatever a plugin or tool
        derives from a rule set, since plugin objects are shared by every
        rule set."""
        try:
            found: _T = self.cache[key]
            return found
        except KeyError:
            value = self.cache[key] = compute(self)
            return value

    def set_aside_cards(self, state: GameState) -> tuple[Card, ...]:
        """The cards the plugins say they keep out of the hands and piles in
        ``state`` (the ``set_aside_cards`` hook), so that every card can be
        accounted for."""
        return tuple(self.hooks.set_aside_cards(state) or ())

    # -- building ------------------------------------------------------------------

    @classmethod
    def from_names(
        cls,
        names: Iterable[str] | str,
        options: Mapping[str, Any] | None = None,
        plugins: Iterable[Any] = (),
    ) -> Ruleset:
        """Build a rule set from installed plugin names (a list or ``"a,b"``)
        plus plugin objects; ``options`` is one flat mapping for all plugins.

        The order of the names does not matter (see :attr:`names`). Without
        plugin objects the rule set comes from a per-process cache: the same
        names and options give the same rule set object while it is in use.
        An option none of the plugins declares adds the one installed plugin
        that declares it (:func:`unorules.spec.option_owners`; a
        :class:`RulesetError` when several do).
        """
        if isinstance(names, str):
            names = [n for n in names.replace(" ", ",").split(",") if n]
        names = list(names)
        extra = list(plugins)
        given = dict(options or {})
        key: Hashable | None = None
        if not extra:
            try:
                key = ("names", tuple(n.strip().lower() for n in names), freeze(given))
            except TypeError:  # an unhashable option value: build without the cache
                key = None
            if key is not None and (found := CACHE.get(key)) is not None:
                return found
        extra_names = {_plugin_name(p) for p in extra}
        chosen = [load_plugin(name) for name in names if name.strip().lower() not in extra_names]
        chosen += option_owners(chosen + extra, given)  # an option's plugin, when none named declares it
        built = cls(chosen + extra, given)
        if extra:
            return built
        return CACHE.put(() if key is None else (key,), built)

    @classmethod
    def from_spec_text(cls, text: str) -> Ruleset:
        """The rule set a spec text names, as :attr:`spec_text` writes it:
        plugin names separated by commas, then options as ``name=value``
        (command-line values: ``on``/``off``, numbers, words; items of a list
        separated by commas), all separated by spaces::

            classic,stacking stack_mix=on

        Names may come in any order. The result comes from the per-process
        cache, so the same spec gives the same rule set object while it is in
        use. An option none of the named plugins declares adds the one installed
        plugin that declares it (``classic last_card_ban=wild`` is
        ``classic,last-card last_card_ban=wild``, see
        :func:`unorules.spec.option_owners`). A bad part raises
        :class:`RulesetError` naming it.
        """
        if not isinstance(text, str):
            raise RulesetError(
                f"a rule-set spec is text such as 'classic,stacking', not {type(text).__name__}"
            )
        key = ("text", text)
        found = CACHE.get(key)
        if found is not None:
            return found
        names, texts = parse_spec_text(text)
        chosen: list[Any] = []
        for name in names:
            try:
                chosen.append(load_plugin(name))
            except RulesetError as exc:
                raise RulesetError(f"rule-set spec {excerpt(text)}: {exc}") from exc.__cause__
        try:
            chosen += option_owners(chosen, texts)  # an option's plugin, when none named declares it
        except RulesetError as exc:
            raise RulesetError(f"rule-set spec {excerpt(text)}: {exc}") from None
        declared = _declared_options(chosen)
        options: dict[str, Any] = {}
        for name, value in texts.items():
            if name not in declared:
                raise RulesetError(
                    f"rule-set spec {excerpt(text)}: no plugin of it has an option {name!r}; "
                    + nearest(name, sorted(declared), "options of these plugins")
                )
            plugin_name, option = declared[name]
            try:
                options[name] = option.from_text(value)
            except (TypeError, ValueError) as exc:
                raise RulesetError(
                    f"rule-set spec {excerpt(text)}: option {name}={excerpt(value)} of plugin "
                    f"{plugin_name!r}: {exc} (allowed: {option.allowed})"
                ) from None
        return CACHE.put((key,), cls(chosen, options))

    @classmethod
    def from_rulebook(cls, book: Rulebook) -> Ruleset:
        """The rule set the rulebook ``book`` names: its
        plugins and options, through the same cache as :meth:`from_names`,
        so it is the rule set its :attr:`spec_text` names. Each of the
        rulebook's player counts is checked (a partners rulebook for three
        players is refused here, not when a game is dealt).

        :raises RulesetError: naming the rulebook's source, the line and the
            key, when its plugins conflict, miss a requirement or refuse its
            options or player counts.
        """
        try:
            built = cls.from_names(book.plugins, book.option_values)
            for players in book.players:
                built.hook.check_game(ruleset=built, players=players)
        except RulesetError as exc:
            raise book.refusal(exc) from None
        return built

    @classmethod
    def from_toml(cls, text: str, source: str = "<rulebook>") -> Ruleset:
        """The rule set of the rulebook written in the TOML ``text`` (see
        :mod:`unorules.rulebook` for its keys); ``source`` names it in errors.
        A relative ``extends`` path starts from the current folder.

        :raises RulesetError: naming ``source``, the line and the key of the mistake.
        """
        return cls.from_rulebook(Rulebook.from_toml(text, source))

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Ruleset:
        """The rule set of the rulebook file ``path`` (TOML, see :mod:`unorules.rulebook`).

        :raises RulesetError: naming the file, the line and the key of the
            mistake, or saying why the file cannot be read.
        """
        return cls.from_rulebook(Rulebook.from_file(path))

    @classmethod
    def from_preset(cls, name: str) -> Ruleset:
        """The rule set of the shipped preset ``name`` (``unorules rules`` lists them).

        :raises RulesetError: if there is no such preset or a plugin it
            needs is not installed.
        """
        return cls.from_rulebook(preset(name))

    @classmethod
    def named(cls, text: str) -> Ruleset:
        """The rule set ``text`` names, as the command line's ``--rules`` reads
        it: the path of a rulebook (text ending in ``.toml`` or holding a
        ``/``), else a preset's name, else a spec text
        (:meth:`from_spec_text`, e.g. ``"classic,stacking stack_mix=on"``).

        :raises RulesetError: saying what is wrong with the file, the preset
            or the spec text.
        """
        if not isinstance(text, str):
            raise RulesetError(
                f"a rule set is named by a preset, a rulebook path or a spec text, not {type(text).__name__}"
            )
        book = resolve(text)
        return cls.from_spec_text(text) if book is None else cls.from_rulebook(book)

    @functools.cached_property
    def spec_text(self) -> str:
        """The canonical text of this rule set, e.g. ``"classic,stacking stack_mix=on"``:
        the plugin names in canonical order (:attr:`names`), then the options
        that were given (also those given their default value), sorted by
        name, as ``name=value`` with command-line values.
        :meth:`from_spec_text` reads it back; records and simulations name
        rule sets by it.

        :raises RulesetError: if an option's value has no text that reads
            back as the same value (only possible with a third-party option
            check).
        """
        parts = [",".join(self.names)]
        for name in sorted(self._given):
            plugin_name, option = self._declared_options[name]
            value = self._given[name]
            written = option.to_text(value)
            try:
                readable = not any(c.isspace() for c in written) and option.from_text(written) == value
            except (TypeError, ValueError):
                readable = False
            if not readable:
                raise RulesetError(
                    f"option {name!r} of plugin {plugin_name!r}: the value {value!r} has no spec text "
                    f"({written!r} does not read back as it)"
                )
            parts.append(f"{name}={written}")
        return " ".join(parts)

    @classmethod
    def from_spec(cls, spec: Any) -> Ruleset:
        """Rebuild a rule set from :meth:`spec` output (used by ``GameState.from_json``;
        through the same cache as :meth:`from_names`)."""
        if not isinstance(spec, dict) or not isinstance(spec.get("plugins"), list):
            raise StateFormatError("ruleset: expected an object with a 'plugins' list")
        options = spec.get("options", {})
        if not isinstance(options, dict):
            raise StateFormatError("ruleset.options: expected an object")
        try:
            return cls.from_names([str(n) for n in spec["plugins"]], options)
        except RulesetError as exc:
            raise StateFormatError(f"ruleset: {exc}") from None

    def spec(self) -> dict[str, Any]:
        """The plugin names and the options given: enough to rebuild this rule set."""
        return {"plugins": list(self.names), "options": dict(self._given)}

    @property
    def plugins(self) -> tuple[Any, ...]:
        """The plugin objects, in registration order."""
        return self._plugins

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Ruleset):
            return NotImplemented
        return self.names == other.names and self.options == other.options

    def __hash__(self) -> int:
        return hash(self.names)

    # A rule set is immutable (its caches only remember what it derives), so a
    # copy is the rule set itself; a pickle holds its spec and is rebuilt
    # through the per-process cache, so unpickling many states builds one rule set.

    def __copy__(self) -> Ruleset:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Ruleset:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        installed = installed_plugins()
        if all(installed.get(name) is plugin for name, plugin in zip(self.names, self._plugins, strict=True)):
            try:
                return (_unpickle_ruleset, (self.spec_text,))
            except RulesetError:  # an option value without spec text: the spec's plain data
                return (_unpickle_ruleset, (self.spec(),))
        # Plugin objects that are not installed (passed to from_names): pickled
        # with the rule set (by reference to their class, or by value with cloudpickle).
        return (Ruleset, (self._plugins, self._given))

    def __repr__(self) -> str:
        opts = f", options={self._given!r}" if self._given else ""
        return f"Ruleset.from_names({list(self.names)!r}{opts})"

    # -- facts about cards and seats -------------------------------------------------------

    def card_points(self, card: Card) -> int:
        """The points ``card`` is worth in a hand at the end of a round (for a
        two-faced deck, also each face's points, as the ``card_points`` hook
        says: a rule that scores by the face shown asks for the face)."""
        try:
            return self._points[card]
        except KeyError:
            raise ValueError(f"{card} is not in this rule set's deck") from None

    def needs_target(self, card: Card) -> bool:
        """Whether playing ``card`` names a seat."""
        return card in self._targeted

    def names_color(self, card: Card) -> bool:
        """Whether playing ``card`` names a colour: a wild does, unless a plugin
        says its colour is named later (the ``card_names_color`` hook)."""
        return card.color is None and card not in self._colorless

    def hand_points(self, hand: Iterable[Card]) -> int:
        """The points of the cards in ``hand``."""
        points = self._points
        return sum(points[c] for c in hand)

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The teams of a game of ``players`` seats (the ``teams`` hook), else
        every seat alone."""
        found = self.hook.teams(ruleset=self, players=players)
        if found is None:
            return tuple((seat,) for seat in range(players))
        teams = tuple(tuple(team) for team in found)
        if sorted(s for team in teams for s in team) != list(range(players)):
            raise RulesetError(f"the teams {teams} do not cover each of the {players} seats exactly once")
        return teams

    def play_actions(self, seat: int, card: Card, players: int) -> tuple[Action, ...]:
        """Every ``play`` action of ``seat`` for ``card`` with ``players`` seats
        (interned, kept): one per colour for a wild (that names one, see
        :meth:`names_color`), one per other seat for a
        card that needs a target. ``GameState.play_actions`` leaves out seats
        that have left."""
        key = (seat, card, players)
        actions = self._play_cache.get(key)
        if actions is None:
            colors = COLORS if card.color is None and card not in self._colorless else (None,)
            targets: Sequence[int | None] = (
                [t for t in range(players) if t != seat] if card in self._targeted else [None]
            )
            actions = tuple(Action.of(seat, "play", card, c, t) for c in colors for t in targets)
            self._play_cache[key] = actions
        return actions

    def play_table(self, seat: int, players: int) -> Mapping[Card, tuple[Action, ...]]:
        """:meth:`play_actions` of ``seat`` at a table of ``players`` seats for every
        card of the deck, by card (worked out once per seat and table size)."""
        key = (seat, players)
        table = self._play_tables.get(key)
        if table is None:
            table = {card: self.play_actions(seat, card, players) for card in dict.fromkeys(self.deck)}
            self._play_tables[key] = table
        return table

    # -- games -------------------------------------------------------------------------

    def new_game(
        self,
        players: int,
        seed: Seed = None,
        deck: Iterable[str | Card] | str | None = None,
        dealer: int | None = None,
    ) -> GameState:
        """Deal the first round of a new game of ``players`` seats
        (:data:`MIN_PLAYERS` to :data:`MAX_PLAYERS`; a plugin's ``check_game``
        hook may allow fewer counts).

        ``seed`` is an integer (any :class:`numbers.Integral`, numpy integers
        included: the same seed as the ``int`` of equal value), a string, or
        ``None`` for a fresh random game. ``deck`` arranges the deck, top card
        first; cards it leaves out follow in seeded order. Without ``deck`` the
        dealer is chosen by the ``choose_dealer`` hook unless ``dealer`` is
        given; with it, ``dealer`` (default 0) deals and nobody draws for dealer.
        """
        try:
            return self._new_game(players, seed, deck, dealer)
        except Exception as exc:
            self.annotate(exc, "dealing a new game")
            raise

    def _new_game(
        self,
        players: int,
        seed: Seed,
        deck: Iterable[str | Card] | str | None,
        dealer: int | None,
    ) -> GameState:
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise RulesetError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
        if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < players):
            raise RulesetError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
        self.hook.check_game(ruleset=self, players=players)
        rng = Rng(seed_state(seed))
        if deck is not None:
            try:
                arranged = parse_cards(deck)
            except NotationError as exc:
                raise RulesetError(f"bad arranged deck: {exc}") from None
            rest = Counter(self.deck)
            rest.subtract(arranged)
            extra = [c for c, n in rest.items() if n < 0]
            if extra:
                have = Counter(self.deck)
                detail = ", ".join(f"{c} ({arranged.count(c)} listed, {have[c]} in the deck)" for c in extra)
                raise RulesetError(
                    f"the arranged deck lists cards this rule set's deck does not hold: {detail}"
                )
            remaining = list(rest.elements())
            rng.shuffle(remaining)
            order = list(arranged) + remaining
            first_dealer = 0 if dealer is None else dealer
        else:
            if dealer is None:
                chosen = self.hook.choose_dealer(ruleset=self, players=players, rng=rng)
                first_dealer = 0 if chosen is None else chosen
            else:
                first_dealer = dealer
            order = list(self.deck)
            rng.shuffle(order)
        draft = blank_draft(self, players, rng.state)
        draft.deal(first_dealer, order)
        return draft.freeze()

    # -- the engine ------------------------------------------------------------------------

    def apply(self, state: GameState, action: Action, check: bool = True, deal: bool = True) -> GameState:
        """The state after ``action`` in ``state``: one draft of it, carried out
        by ``apply_action``, updated by ``after_action``, frozen.

        ``GameState.apply`` calls this. With ``check`` (the default) an action
        that is not among ``state.legal_actions()`` is refused with an
        :class:`IllegalActionError` naming the rule; ``check=False`` skips the
        check, for a search that applies only actions the rule set listed (an
        action that is not legal then gives an undefined result). With
        ``deal=False`` a round that ends is not followed by the next deal (see
        :func:`unorules.draft.carry_out`): a playout that stops at the end of
        the round saves the deal. A plugin that raises leaves ``state`` as it
        was: nothing is written until the draft is frozen.
        """
        if check and action not in state.legal_actions():
            raise self.refusal(state, action)
        try:
            return carry_out(state, action, deal)
        except Exception as exc:
            self.annotate(exc, f"applying {action}")
            raise

    carry_out = staticmethod(carry_out)
    """The engine's step for a legal action (:func:`unorules.draft.carry_out`),
    without the check and the note :meth:`apply` adds; ``GameState.apply``
    calls it once it has checked the action."""

    def visible_hands(self, state: GameState, seat: int) -> frozenset[int]:
        """The other seats whose hands ``seat`` may see in ``state`` (the
        ``visible_hands`` hook)."""
        caller = self.hooks.visible_hands
        if caller is None:
            return frozenset()
        try:
            return frozenset(s for s in caller(state, seat) or () if s != seat)
        except Exception as exc:
            self.annotate(exc, f"showing seat {seat} its view")
            raise

    def visible_backs(self, state: GameState, seat: int | None) -> frozenset[int]:
        """The seats whose hands' backs ``seat`` (``None``: a spectator) may see
        in ``state`` (the ``visible_backs`` hook; only for a two-faced deck)."""
        caller = self.hooks.visible_backs
        if caller is None:
            return frozenset()
        try:
            return frozenset(caller(state, seat) or ())
        except Exception as exc:
            self.annotate(exc, f"showing seat {seat} the backs of the hands")
            raise

    def refusal(self, state: GameState, action: Action) -> IllegalActionError:
        """The error for ``action``, which is not legal in ``state``: the rule
        the ``explain_illegal`` hook names, else what the seat may do."""
        if state.outcome is not None:
            return IllegalActionError(f"{action}: the game is over ({state.outcome.reason})")
        if not 0 <= action.seat < state.players:
            return IllegalActionError(
                f"{action}: there is no seat {action.seat} (seats are 0 to {state.players - 1})"
            )
        if action.seat in state.left:
            return IllegalActionError(f"{action}: seat {action.seat} has left the game")
        try:
            explained = self.hooks.explain_illegal(state, action)
        except Exception as exc:
            self.annotate(exc, f"explaining why {action} is refused")
            raise
        if explained is not None:
            rule, message = explained
            return IllegalActionError(f"{action}: {message} ({rule})", rule=rule)
        mine = state.legal_actions(action.seat)
        allowed = ", ".join(str(a) for a in mine) if mine else "nothing now"
        return IllegalActionError(f"{action} is not legal now; seat {action.seat} may: {allowed}")

    def annotate(self, exc: BaseException, doing: str) -> None:
        """Add a note to ``exc`` naming the plugin and the hook that raised it
        (its innermost hook implementation) and what the game was ``doing``;
        once per exception. The core calls it where it calls hooks."""
        annotate(exc, self._impl_codes, doing, ",".join(self.names))


def _unpickle_ruleset(spec: str | dict[str, Any]) -> Ruleset:
    """The rule set of a pickle, from the per-process cache (a module-level
    function, so that cloudpickle pickles it by reference)."""
    if isinstance(spec, str):
        return Ruleset.from_spec_text(spec)
    return Ruleset.from_spec(spec)


def _check_hook_methods(plugin: Any, pm: pluggy.PluginManager) -> None:
    """Refuse a plugin whose hooks would be ignored or misread: a public method
    named like a hook but not marked ``@hookimpl``, or a marked one with a
    parameter the hook does not have."""
    name = _plugin_name(plugin)
    marker = f"{PROJECT}_impl"
    for attribute in dir(plugin):
        if attribute.startswith("_"):
            continue
        caller = getattr(pm.hook, attribute, None)
        if not isinstance(caller, pluggy.HookCaller) or caller.spec is None:
            continue
        method = getattr(plugin, attribute, None)
        if not callable(method):
            continue
        if not hasattr(method, marker):
            raise RulesetError(
                f"plugin {name!r} has a method {attribute!r} named like the hook but not marked "
                f"@unorules.hookimpl, so it would never be called: mark it, or rename it"
            )
        try:
            parameters = list(inspect.signature(method).parameters)
        except (TypeError, ValueError):
            continue
        allowed = set(caller.spec.argnames)
        bad = [p for p in parameters if p not in allowed]
        if bad:
            raise RulesetError(
                f"plugin {name!r} implements hook {attribute!r} with parameter(s) {', '.join(bad)}, which "
                f"the hook does not have; its parameters are: {', '.join(caller.spec.argnames)}"
            )


def _order(by_name: dict[str, Any]) -> tuple[Any, ...]:
    """Plugins in canonical registration order: each after the plugins it
    requires, and plugins that do not depend on one another by name.

    The order never depends on how the user listed the plugins, so the same
    plugins and options always build the same rule set (same deck order, same
    hook order, same seeded games)."""
    for name, plugin in by_name.items():
        for required in getattr(plugin, "requires", ()):
            if required not in by_name:
                refusing = [
                    other for other, named in by_name.items() if required in getattr(named, "conflicts", {})
                ]
                if refusing:  # adding it would not help: say so rather than suggest it
                    raise RulesetError(
                        f"plugin {name!r} requires {required!r}, which {refusing[0]!r} cannot be "
                        f"combined with ({by_name[refusing[0]].conflicts[required]}): "
                        f"{name!r} does not combine with {refusing[0]!r}"
                    )
                raise RulesetError(
                    f"plugin {name!r} requires {required!r}; add it to the rule set, "
                    f"e.g. {[required, *by_name]!r}"
                )
        conflicts: Mapping[str, str] = getattr(plugin, "conflicts", {})
        for other, why in conflicts.items():
            if other in by_name:
                raise RulesetError(f"plugins {name!r} and {other!r} conflict: {why}")
    # Kahn's algorithm, always taking the smallest name among the plugins whose
    # requirements are all registered: a topological order, ties by name.
    waiting = {name: set(getattr(plugin, "requires", ())) for name, plugin in by_name.items()}
    ready = [name for name, needs in waiting.items() if not needs]
    heapq.heapify(ready)
    done: list[str] = []
    while ready:
        name = heapq.heappop(ready)
        done.append(name)
        del waiting[name]
        for other, needs in waiting.items():
            if name in needs:
                needs.discard(name)
                if not needs:
                    heapq.heappush(ready, other)
    if waiting:
        raise RulesetError(f"plugins require each other in a cycle through {min(waiting)!r}")
    return tuple(by_name[n] for n in done)


def _declared_options(plugins: Sequence[Any]) -> dict[str, tuple[str, Option]]:
    """Every option the plugins declare, by name, with its plugin's name."""
    declared: dict[str, tuple[str, Option]] = {}
    for plugin in plugins:
        for option in getattr(plugin, "options", ()):
            owner = declared.get(option.name)
            if owner is not None:
                raise RulesetError(
                    f"plugins {owner[0]!r} and {_plugin_name(plugin)!r} both declare option {option.name!r}"
                )
            declared[option.name] = (_plugin_name(plugin), option)
    return declared


def _check_options(declared: Mapping[str, tuple[str, Option]], given: dict[str, Any]) -> dict[str, Any]:
    unknown = [k for k in given if k not in declared]
    if unknown:
        allowed = nearest(str(unknown[0]), sorted(declared), "options of these plugins")
        raise RulesetError(f"unknown option {excerpt(unknown[0], 40)}; {allowed}")
    values: dict[str, Any] = {}
    for name, (plugin_name, option) in declared.items():
        if name in given:
            try:
                values[name] = option.validate(given[name])
            except (TypeError, ValueError) as exc:
                raise RulesetError(
                    f"option {name!r} of plugin {plugin_name!r}: {exc} (allowed: {option.allowed})"
                ) from None
        else:
            values[name] = option.default
    return values

"""Rule sets: plugins found by name, their options checked, their hooks compiled.

A :class:`Ruleset` owns its own pluggy ``PluginManager``; there is no global
one. Everything that can be known once per rule set (the deck, card points,
which cards need a target, which hooks have implementations) is worked out
when it is built, so the per-action path asks plugins only what depends on
the state.
"""

from __future__ import annotations

import collections
import functools
import heapq
import itertools
import threading
import types
import warnings
import weakref
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any, TypeVar

import pluggy

from unorules import hookspecs
from unorules._hookcall import ClosedPluginManager, annotate, compile_hook, compile_rest, impl_frames, single
from unorules.actions import Action
from unorules.cards import COLORS, Card, parse_cards
from unorules.errors import IllegalActionError, NotationError, RulesetError, excerpt
from unorules.plugin import (
    PLUGIN_API_VERSION,
    Applier,
    ApplierWrapper,
    ByOption,
    EventSpec,
    Finisher,
    Option,
    PhaseSpec,
    Plugin,
)
from unorules.rng import Rng, Seed, seed_state
from unorules.state import PLAY, Event, GameState, Outcome, RoundResult, _from_fields

__all__ = [
    "CORE_EVENTS",
    "ENTRY_POINT_GROUP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PluginLoadWarning",
    "Ruleset",
    "installed_plugins",
    "load_plugin",
]

ENTRY_POINT_GROUP = "unorules"
CORE_EVENTS: tuple[EventSpec, ...] = (
    EventSpec(
        "deal",
        "a round was dealt and its starter turned up (R-SETUP-DEAL)",
        (("seat", "the dealer"), ("cards", "the starter"), ("data.round", "the round's number")),
    ),
    EventSpec(
        "draw",
        "a seat drew cards (for its turn, as a penalty, ...); private: only the seat sees the cards",
        (
            ("seat", "the seat that drew"),
            ("cards", "the cards drawn (hidden from the other seats)"),
            ("count", "how many cards were drawn (public)"),
            ("data.reason", "why: 'turn', 'penalty' or a plugin's reason"),
        ),
    ),
    EventSpec(
        "reshuffle",
        "the discard pile but its top card was shuffled into a new draw pile (R-TURN-RESHUFFLE)",
        (("count", "how many cards the new draw pile holds"),),
    ),
    EventSpec(
        "round-end",
        "a round ended and was scored",
        (
            ("seat", "the round's winner (none if nobody won it)"),
            ("data.reason", "why it ended: 'out', 'blocked', ..."),
            ("data.points", "the points each seat was given"),
        ),
    ),
)
"""The event kinds the core's mechanics emit (every rule set has them)."""
MIN_PLAYERS = 2
"""The fewest seats a game may have."""
MAX_PLAYERS = 10
"""The most seats a game may have (``new_game`` refuses more; a plugin may size tables by it)."""

_T = TypeVar("_T")


class PluginLoadWarning(UserWarning):
    """An installed plugin that cannot be loaded, skipped while listing the
    installed plugins (asking for it by name raises :class:`RulesetError`)."""


@functools.cache
def _entry_points() -> Mapping[str, EntryPoint]:
    """The entry points of the ``unorules`` group, by name (not loaded)."""
    found: dict[str, EntryPoint] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        found.setdefault(ep.name, ep)
    return found


_loaded: dict[str, Any] = {}
_load_lock = threading.RLock()


def _where(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    package = getattr(dist, "name", None) or "an unknown distribution"
    return f"entry point {ep.name} = {ep.value!r} of {package}"


def load_plugin(name: str) -> Any:
    """The installed plugin ``name`` (its entry-point name), loaded once and checked.

    :raises RulesetError: if no plugin of that name is installed; if importing
        it fails (naming the entry point, its distribution and the error); if
        the object's ``name`` is not the entry-point name; or if it needs a
        newer plugin API (``api_version``) than this core offers.
    """
    key = name.strip().lower()
    found = _loaded.get(key)
    if found is not None:
        return found
    eps = _entry_points()
    ep = eps.get(key)
    if ep is None:
        known = ", ".join(sorted(eps)) or "none"
        raise RulesetError(f"no plugin named {_short(name)} is installed; installed plugins: {known}")
    with _load_lock:
        try:
            plugin = ep.load()
        except Exception as exc:
            raise RulesetError(
                f"plugin {key!r} cannot be loaded ({_where(ep)}): {type(exc).__name__}: {exc}"
            ) from exc
        own = getattr(plugin, "name", None)
        if own != key:
            raise RulesetError(
                f"plugin {key!r} is named {own!r} ({_where(ep)}): a plugin's name must be its "
                "entry-point name, or its saved games could not be restored"
            )
        _check_api_version(plugin, f"plugin {key!r} ({_where(ep)})")
        _loaded[key] = plugin
    return plugin


def _check_api_version(plugin: Any, what: str) -> None:
    wanted = getattr(plugin, "api_version", PLUGIN_API_VERSION)
    if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 1:
        raise RulesetError(f"{what}: api_version must be a positive int, not {wanted!r}")
    if wanted > PLUGIN_API_VERSION:
        raise RulesetError(
            f"{what} needs plugin API version {wanted}, but this unorules core offers version "
            f"{PLUGIN_API_VERSION}: install a newer unorules"
        )


@functools.cache
def installed_plugins() -> Mapping[str, Any]:
    """The plugins installed in this environment that load, by entry-point name
    (each loaded once). A plugin that cannot be loaded (see :func:`load_plugin`)
    is left out with a :class:`PluginLoadWarning`, so one broken plugin never
    hides the others."""
    found: dict[str, Any] = {}
    for name in _entry_points():
        try:
            found[name] = load_plugin(name)
        except RulesetError as exc:
            warnings.warn(PluginLoadWarning(f"skipped: {exc}"), stacklevel=2)
    return found


def _reset_plugins() -> None:
    """Forget the entry points, the loaded plugins and the cached rule sets (for tests)."""
    _entry_points.cache_clear()
    installed_plugins.cache_clear()
    _loaded.clear()
    _CACHE.clear()


def _plugin_name(plugin: Any) -> str:
    name = getattr(plugin, "name", None)
    if not isinstance(name, str) or not name:
        raise RulesetError(f"plugin {plugin!r} has no name: give it a 'name' attribute")
    return name


class Ruleset:
    """A set of plugins with their options: everything needed to play.

    Build one with :meth:`from_names` or :meth:`from_spec_text`; plugin
    objects can be passed directly (for tests and scripts). Unknown plugins,
    unknown or invalid options, missing requirements and conflicts raise
    :class:`RulesetError` here, never during a game. The same plugins and
    options, listed in any order, build equal rule sets that play the same
    seeded games; :attr:`spec_text` is their canonical name.
    """

    def __init__(self, plugins: Sequence[Any], options: Mapping[str, Any] | None = None) -> None:
        by_name: dict[str, Any] = {}
        for plugin in plugins:
            name = _plugin_name(plugin)
            _check_api_version(plugin, f"plugin {name!r}")
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
        self._rest_callers: dict[tuple[str, int], Callable[..., Any]] = {}
        self._declared_options = _declared_options(self._plugins)
        self.options: Mapping[str, Any] = _check_options(self._declared_options, dict(options or {}))
        self._given = {k: v for k, v in self.options.items() if k in (options or {})}
        self._declare()

        self.pm: pluggy.PluginManager = ClosedPluginManager("unorules")
        """The rule set's own pluggy ``PluginManager``, closed to changes once the
        rule set is built (see :doc:`hooks`)."""
        self.pm.add_hookspecs(hookspecs)
        for plugin in self._plugins:
            # A plugin may offer hooks of its own to other plugins (an extension
            # point such as custom-wilds' card effects): a class or module of
            # ``@unorules.hookspec`` functions in its ``hookspecs`` attribute.
            extension = getattr(plugin, "hookspecs", None)
            if extension is not None:
                self.pm.add_hookspecs(extension)
        for plugin in self._plugins:
            self.pm.register(plugin, name=_plugin_name(plugin))
        try:
            self.pm.check_pending()
        except pluggy.PluginValidationError as exc:
            raise RulesetError(f"a plugin implements an unknown hook: {exc}") from None
        self.pm.close()
        self.hook = self.pm.hook
        self._impl_codes = impl_frames(self.pm)

        h = self.hook
        # Hooks asked on every action, compiled once (see unorules._hookcall).
        # The usual case, one legal_actions implementation: its list becomes the tuple directly.
        self._legal_single: Callable[[GameState], Sequence[Action] | None] | None = single(h.legal_actions)
        self._legal_all: Callable[[GameState], tuple[Action, ...]] = compile_hook(
            h.legal_actions, concatenate=True
        )
        self._apply: Callable[[GameState, Action], GameState | None] = compile_hook(h.apply_action)
        self._explain: Callable[[GameState, Action], tuple[str, str] | None] = compile_hook(h.explain_illegal)
        self._on_play: Callable[[GameState, Action, GameState], GameState | None] = compile_hook(h.on_play)
        self._on_draw: Callable[[GameState, int, tuple[Card, ...], str], GameState | None] = compile_hook(
            h.on_draw
        )
        self._watch_draws: bool = bool(h.on_draw.get_hookimpls())  # else draw skips the call
        self._visible: Callable[[GameState, int], list[Iterable[int]]] = compile_hook(h.visible_hands)
        self._shows_hands: bool = bool(h.visible_hands.get_hookimpls())  # else views skip the call
        self._score_round: Callable[[GameState, RoundResult], Sequence[int] | None] = compile_hook(
            h.score_round
        )
        self._on_round_end: Callable[[GameState, RoundResult], GameState | None] = compile_hook(
            h.on_round_end
        )
        self._game_outcome: Callable[[GameState], Outcome | None] = compile_hook(h.game_outcome)
        self._on_starter: Callable[[GameState], GameState | None] = compile_hook(h.on_starter)
        self._hook_callers: dict[str, Callable[..., Any]] = {
            "legal_actions": compile_hook(h.legal_actions),
            "apply_action": self._apply,
            "explain_illegal": self._explain,
            "on_play": self._on_play,
            "on_draw": self._on_draw,
            "visible_hands": self._visible,
            "score_round": self._score_round,
            "on_round_end": self._on_round_end,
            "game_outcome": self._game_outcome,
            "on_starter": self._on_starter,
        }

        self.deck: tuple[Card, ...] = tuple(itertools.chain.from_iterable(h.deck_cards(ruleset=self)[::-1]))
        if not self.deck:
            raise RulesetError(f"the plugins {list(self.names)} put no cards in the deck")
        self._points: dict[Card, int] = {}
        self._targeted: set[Card] = set()
        # on_play by card kind (Plugin.play_kinds): a play calls only the plugins
        # that claimed its card's kind or declared every card, in pluggy's order.
        self._play_callers: dict[str, Callable[[GameState, Action, GameState], GameState | None]] = {
            kind: self._compile_play_caller(kind) for kind in dict.fromkeys(c.kind for c in self.deck)
        }
        # ... and by the phase the card is played in (Plugin.play_phases), a
        # table of callers per phase compiled on first use; None while no
        # plugin implementing on_play declares phases (the callers above serve).
        self._play_by_phase: (
            dict[str, dict[str, Callable[[GameState, Action, GameState], GameState | None]]] | None
        ) = {} if _declares(h.on_play, self._play_phases) else None
        # legal_actions by phase (Plugin.legal_phases) and apply_action by verb
        # (Plugin.apply_verbs), each caller compiled on first use; None while no
        # plugin implementing the hook declares anything (the callers above serve).
        self._legal_callers: dict[str, Callable[[GameState], tuple[Action, ...]]] | None = (
            {} if _declares(h.legal_actions, self._legal_phases) else None
        )
        self._apply_callers: dict[str, Callable[[GameState, Action], GameState | None]] | None = (
            {} if _declares(h.apply_action, self._apply_verbs) else None
        )
        # Direct appliers (Plugin.direct_appliers), by verb, for the verbs whose
        # apply_action asks their plugin alone, or also plugins before it that
        # wrap or finish it (Plugin.direct_wrappers, Plugin.direct_finishers):
        # GameState.apply tries them first.
        self._direct_apply: dict[str, Applier] = {}
        self._finishers: dict[str, tuple[Finisher, ...]] = {}
        self._finishers_taken: set[str] | None = None
        self._collect_direct_appliers()
        for card in dict.fromkeys(self.deck):
            points = h.card_points(ruleset=self, card=card)
            if points is None:
                raise RulesetError(f"no plugin says how many points {card} is worth")
            self._points[card] = points
            if h.card_needs_target(ruleset=self, card=card):
                self._targeted.add(card)
        size = h.hand_size(ruleset=self)
        self.hand_size: int = 7 if size is None else size
        self._play_cache: dict[tuple[int, Card, int], tuple[Action, ...]] = {}
        self._play_tables: dict[tuple[int, int], dict[Card, tuple[Action, ...]]] = {}
        h.check_ruleset(ruleset=self)

    def _compile_play_caller(
        self, kind: str, phase: str | None = None
    ) -> Callable[[GameState, Action, GameState], GameState | None]:
        """The ``on_play`` caller for plays of a card of ``kind`` (made in
        ``phase``, if given): the implementations of the plugins whose
        ``play_kinds`` is ``None`` or holds ``kind`` (and whose
        ``play_phases`` is ``None`` or holds ``phase``), in pluggy's order,
        with pluggy's semantics."""
        return compile_hook(self.hook.on_play, keep=self._play_asks(kind, phase))

    def _play_asks(self, kind: str, phase: str | None) -> Callable[[pluggy.HookImpl], bool]:
        """Whether a play of a card of ``kind`` (in ``phase``, if given) asks an
        ``on_play`` implementation (``play_kinds``, ``play_phases``)."""
        by_kind = _asks(self._play_kinds, kind)
        if phase is None:
            return by_kind
        by_phase = _asks(self._play_phases, phase)
        return lambda impl: by_kind(impl) and by_phase(impl)

    def _phase_play_callers(
        self, phase: str
    ) -> dict[str, Callable[[GameState, Action, GameState], GameState | None]]:
        """The table of ``on_play`` callers, by card kind, for plays made in
        ``phase``: empty at first, each caller compiled on first use."""
        callers: dict[str, Callable[[GameState, Action, GameState], GameState | None]] = {}
        by_phase = self._play_by_phase
        if by_phase is not None and len(by_phase) < _MAX_CALLERS:
            by_phase[phase] = callers
        return callers

    def _legal_caller(self, phase: str) -> Callable[[GameState], tuple[Action, ...]]:
        """The ``legal_actions`` caller for states in ``phase``: the
        implementations of the plugins whose ``legal_phases`` is ``None`` or
        holds ``phase``, in pluggy's order, their lists concatenated."""
        caller: Callable[[GameState], tuple[Action, ...]] = compile_hook(
            self.hook.legal_actions, concatenate=True, keep=_asks(self._legal_phases, phase)
        )
        callers = self._legal_callers
        if callers is not None and len(callers) < _MAX_CALLERS:
            callers[phase] = caller
        return caller

    def _apply_caller(self, verb: str) -> Callable[[GameState, Action], GameState | None]:
        """The ``apply_action`` caller for actions with ``verb``: the
        implementations of the plugins whose ``apply_verbs`` is ``None`` or
        holds ``verb``, in pluggy's order, with pluggy's semantics."""
        caller: Callable[[GameState, Action], GameState | None] = compile_hook(
            self.hook.apply_action, keep=_asks(self._apply_verbs, verb)
        )
        callers = self._apply_callers
        if callers is not None and len(callers) < _MAX_CALLERS:
            callers[verb] = caller
        return caller

    def _collect_direct_appliers(self) -> None:
        """Build a direct applier for each verb whose ``apply_action`` plugins all
        offer their part: the last one asked a direct applier
        (:meth:`Plugin.direct_appliers`), every earlier one a wrapper around the
        rest (:meth:`Plugin.direct_wrappers`) or a finisher of its result
        (:meth:`Plugin.direct_finishers`), composed from the last one
        backwards. The finishers of the plugins right before the last one run
        inside its applier when it takes them in (:meth:`direct_finishers`);
        any other finisher runs on a copy of the result, as a wrapper. The
        code of each part is named in exception notes as its plugin's
        ``apply_action``."""
        codes: dict[types.CodeType, tuple[tuple[object, str, str], ...]] = dict(self._impl_codes)
        by_name = {_plugin_name(plugin): plugin for plugin in self._plugins}
        wrappers: dict[str, dict[str, ApplierWrapper]] = {}
        finishers: dict[str, dict[str, Finisher]] = {}
        for name, plugin in by_name.items():
            for attribute, offers, what in (
                ("direct_wrappers", wrappers, "direct wrapper"),
                ("direct_finishers", finishers, "direct finisher"),
            ):
                offered = _offered(plugin, name, attribute, what, self)
                if offered is not None:
                    offers[name] = offered

        def note(function: object, name: str) -> None:
            code = getattr(function, "__code__", None)
            if isinstance(code, types.CodeType):
                codes[code] = (*codes.get(code, ()), (by_name[name], name, "apply_action"))

        # The finishers run inside the last plugin's applier, by verb: those of
        # the plugins right before it, each offering one, the last of them first.
        inside: dict[str, int] = {}
        for verb in sorted({verb for offered in finishers.values() for verb in offered}):
            *outer, _ = self.apply_claimants(verb) or ("",)
            run: list[Finisher] = []
            for name in reversed(outer):
                finisher = finishers.get(name, {}).get(verb)
                if finisher is None:
                    break
                note(finisher, name)
                run.append(finisher)
            if run:
                inside[verb] = len(run)
                self._finishers[verb] = tuple(run)
        appliers: dict[str, dict[str, Applier]] = {}
        untaken: set[tuple[str, str]] = set()  # (plugin, verb): finishers not taken in
        for name, plugin in by_name.items():
            self._finishers_taken = set()
            offered = _offered(plugin, name, "direct_appliers", "direct applier", self)
            if offered is not None:
                appliers[name] = offered
                untaken.update((name, verb) for verb in offered if verb not in self._finishers_taken)
        self._finishers_taken = None

        for verb in sorted({verb for offered in appliers.values() for verb in offered}):
            *outer, last = self.apply_claimants(verb) or ("",)
            applier = appliers.get(last, {}).get(verb)
            if applier is None or any(
                verb not in wrappers.get(name, {}) and verb not in finishers.get(name, {}) for name in outer
            ):
                continue  # a plugin asked for this verb offers no part: the hook path
            note(applier, last)
            within = 0 if (last, verb) in untaken else inside.get(verb, 0)
            for position, name in enumerate(reversed(outer)):
                finisher = finishers.get(name, {}).get(verb)
                if finisher is not None and position >= within:
                    applier = _finishing(applier, finisher)  # a finisher on a copy of the result
                wrapper = wrappers.get(name, {}).get(verb)
                if wrapper is not None:
                    applier = wrapper(applier)
                    if not callable(applier):
                        raise RulesetError(
                            f"plugin {name!r}'s direct wrapper for {verb!r} did not return an applier"
                        )
                    note(applier, name)
            self._direct_apply[verb] = applier
        self._impl_codes = codes

    def direct_finishers(self, verb: str) -> tuple[Finisher, ...]:
        """The finishers (:meth:`Plugin.direct_finishers`) a direct applier
        for ``verb`` calls, in this order, on the fields of the state it
        makes; empty when there are none to run inside it. The applier stops
        at the first that returns ``False`` and returns ``None`` (the hook
        path). A plugin's ``direct_appliers`` asks for them for each verb
        whose applier takes them in; the rule set runs the finishers of the
        verbs it did not ask for on copies of the result."""
        taken = self._finishers_taken
        if taken is not None:
            taken.add(verb)
        return self._finishers.get(verb, ())

    def apply_claimants(self, verb: str) -> tuple[str, ...]:
        """The names of the plugins whose ``apply_action`` implementations an
        action with ``verb`` asks (see :attr:`~unorules.Plugin.apply_verbs`), in
        pluggy's calling order, wrappers included."""
        return _claimants(self.hook.apply_action, _asks(self._apply_verbs, verb))

    def direct_applier(self, verb: str) -> Applier | None:
        """The direct applier :meth:`GameState.apply` tries first for actions
        with ``verb`` (see :meth:`~unorules.Plugin.direct_appliers`; composed
        with the wrappers and finishers of :meth:`~unorules.Plugin.direct_wrappers`
        and :meth:`~unorules.Plugin.direct_finishers` where other plugins are
        asked before its own), or ``None``."""
        return self._direct_apply.get(verb)

    @property
    def watches_draws(self) -> bool:
        """Whether a plugin implements ``on_draw`` (else a draw asks no plugin,
        and the cards drawn are the top cards of the draw pile, in order)."""
        return self._watch_draws

    def play_claimants(self, kind: str, phase: str | None = None) -> tuple[str, ...]:
        """The names of the plugins whose ``on_play`` implementations a play
        of a card of ``kind`` asks (see :attr:`~unorules.Plugin.play_kinds`),
        in pluggy's calling order, wrappers included; with ``phase`` (a
        phase name), a play made in that phase (see
        :attr:`~unorules.Plugin.play_phases`), else one made in any phase. A
        plugin that finds itself alone here may apply the effect of such a
        card itself."""
        return _claimants(self.hook.on_play, self._play_asks(kind, phase))

    def play_effect(self, state: GameState, action: Action, previous: GameState) -> GameState | None:
        """Call the ``on_play`` hook for ``action`` (a ``play`` with a card):
        what ``ruleset.hook.on_play(state=state, action=action,
        previous=previous)`` returns, asking only the plugins whose
        :attr:`~unorules.Plugin.play_kinds` claim the card's kind (or every
        card) and whose :attr:`~unorules.Plugin.play_phases` hold the phase of
        ``previous`` (or every phase). For plugins that call the hook again,
        such as a jump-in replaying a card from another seat."""
        card = action.card
        if card is None:
            raise ValueError(f"play_effect needs a play with a card, not {action}")
        by_phase = self._play_by_phase
        if by_phase is None:
            callers = self._play_callers
            phase = None
        else:  # by the phase the card was played in, too (Plugin.play_phases)
            phase = previous.phase.name
            found = by_phase.get(phase)
            callers = self._phase_play_callers(phase) if found is None else found
        caller = callers.get(card.kind)
        if caller is None:  # compiled on first use (by phase), or a kind outside the deck
            caller = self._compile_play_caller(card.kind, phase)
            if len(callers) < _MAX_CALLERS:
                callers[card.kind] = caller
        return caller(state, action, previous)

    def _declare(self) -> None:
        """Gather what the plugins declare (see :class:`~unorules.Plugin`)."""
        verbs: dict[str, None] = {}
        out_of_turn: dict[str, None] = {}
        phases: dict[str, PhaseSpec] = {}
        owners: dict[str, str] = {}
        public: dict[str, None] = {}
        events: dict[str, EventSpec] = {spec.kind: spec for spec in CORE_EVENTS}
        emitters: dict[str, str] = dict.fromkeys(events, "core")
        extras: dict[str, str] = {}
        turn: dict[str, None] = {}
        bounds: list[int] = []
        aside: list[Callable[[GameState], Iterable[Card]]] = []
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
        play_kinds: dict[str, frozenset[str] | None] = {}
        play_phases: dict[str, frozenset[str] | None] = {}
        legal_phases: dict[str, frozenset[str] | None] = {}
        apply_verbs: dict[str, frozenset[str] | None] = {}
        for plugin in self._plugins:
            name = _plugin_name(plugin)
            for attribute, found, example in (
                ("play_kinds", play_kinds, "card kinds, e.g. frozenset({'7', '0'})"),
                ("play_phases", play_phases, "phases, e.g. frozenset({'penalty'})"),
                ("legal_phases", legal_phases, "phases, e.g. frozenset({'penalty'})"),
                ("apply_verbs", apply_verbs, "verbs, e.g. frozenset({'catch'})"),
            ):
                found[name] = _names_declared(self, plugin, attribute, example)
            turn.update(dict.fromkeys(getattr(plugin, "turn_verbs", ())))
            bound = getattr(plugin, "max_round_actions", None)
            if bound is not None:
                if isinstance(bound, bool) or not isinstance(bound, int) or bound <= 0:
                    raise RulesetError(
                        f"plugin {name!r}: max_round_actions must be a positive int, not {bound!r}"
                    )
                bounds.append(bound)
            set_aside = getattr(plugin, "set_aside_cards", None)
            if (
                callable(set_aside)
                and getattr(type(plugin), "set_aside_cards", None) is not Plugin.set_aside_cards
            ):
                aside.append(set_aside)
            verbs.update(dict.fromkeys(getattr(plugin, "verbs", ())))
            out_of_turn.update(dict.fromkeys(getattr(plugin, "out_of_turn_verbs", ())))
            public.update(dict.fromkeys(getattr(plugin, "public_extras", ())))
            for key in (*getattr(plugin, "public_extras", ()), *getattr(plugin, "private_extras", ())):
                if extras.setdefault(key, name) != name:
                    raise RulesetError(
                        f"plugins {extras[key]!r} and {name!r} both declare extras key {key!r}"
                    )
            for spec in getattr(plugin, "phases", ()):
                if not isinstance(spec, PhaseSpec):
                    raise RulesetError(f"plugin {name!r} declares phase {spec!r}: use unorules.PhaseSpec")
                if spec.name in owners:
                    raise RulesetError(
                        f"plugins {owners[spec.name]!r} and {name!r} both declare phase {spec.name!r}"
                    )
                owners[spec.name] = name
                phases[spec.name] = spec
        self.verbs: tuple[str, ...] = tuple(verbs)
        """Every verb the plugins declare, in registration order (see ``Plugin.verbs``)."""
        self.out_of_turn_verbs: frozenset[str] = frozenset(out_of_turn)
        """The verbs some plugin lets a seat use when it is not the seat to move."""
        self.phases: Mapping[str, PhaseSpec] = phases
        """The phases the plugins declare, by name, in registration order."""
        self.phase_owners: Mapping[str, str] = owners
        """The name of the plugin that declares each phase."""
        self.public_extras: frozenset[str] = frozenset(public)
        """The ``state.extras`` keys every seat may see (see ``Plugin.public_extras``)."""
        self.events: Mapping[str, EventSpec] = events
        """The event kinds of this rule set, by kind: the core's (:data:`CORE_EVENTS`),
        then each plugin's (see ``Plugin.events``), in registration order."""
        self.event_owners: Mapping[str, str] = emitters
        """Who declares each event kind: ``"core"`` or a plugin's name."""
        self.extras_owners: Mapping[str, str] = extras
        """The name of the plugin that declares each ``state.extras`` key (public or private)."""
        self._play_kinds: Mapping[str, frozenset[str] | None] = play_kinds
        self._play_phases: Mapping[str, frozenset[str] | None] = play_phases
        self._legal_phases: Mapping[str, frozenset[str] | None] = legal_phases
        self._apply_verbs: Mapping[str, frozenset[str] | None] = apply_verbs
        self.turn_verbs: frozenset[str] = frozenset(turn)
        """The verbs some plugin declares only the seat to move may use (see ``Plugin.turn_verbs``)."""
        self.max_round_actions: int | None = max(bounds) if bounds else None
        """The largest ``Plugin.max_round_actions`` declared, or ``None``."""
        self._set_aside = tuple(aside)

    def set_aside_cards(self, state: GameState) -> tuple[Card, ...]:
        """The cards the plugins say they keep out of the hands and piles in
        ``state`` (``Plugin.set_aside_cards``), so that every card can be accounted for."""
        if not self._set_aside:
            return ()
        return tuple(itertools.chain.from_iterable(f(state) for f in self._set_aside))

    # -- for plugins -------------------------------------------------------------

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

    def call_hook(self, name: str, *args: Any, after: object = None) -> Any:
        """Call the per-action hook ``name`` with the spec's arguments, in order;
        the one public way for a plugin to call a hook during play.

        * Without ``after``, the whole hook, as the core calls it.
        * With ``after=self`` inside an implementation, *the rest of the
          chain*: the plain implementations pluggy calls after this plugin's
          (wrappers excluded: they wrap the whole call). An implementation
          that wants the others' result to adjust it calls
          ``state.ruleset.call_hook("on_play", state, action, previous, after=self)``.

        Returns what pluggy would: the first result that is not ``None`` for
        a ``firstresult`` hook, else the list of results. Callers are compiled
        once per rule set. :class:`RulesetError` for an unknown hook or an
        ``after`` that does not implement it.
        """
        if after is None:
            caller = self._hook_callers.get(name)
            if caller is None:
                raise RulesetError(
                    f"no per-action hook {name!r}; hooks: {', '.join(sorted(self._hook_callers))}"
                )
            return caller(*args)
        key = (name, id(after))
        rest = self._rest_callers.get(key)
        if rest is None:
            if not isinstance(getattr(self.hook, name, None), pluggy.HookCaller):
                raise RulesetError(f"no hook {name!r} in this rule set")
            rest = self._rest_callers.setdefault(key, compile_rest(self.pm, name, after))
        return rest(*args)

    # -- building -------------------------------------------------------------

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
        """
        if isinstance(names, str):
            names = [n for n in names.replace(" ", ",").split(",") if n]
        names = list(names)
        extra = list(plugins)
        given = dict(options or {})
        key: Hashable | None = None
        if not extra:
            try:
                key = ("names", tuple(n.strip().lower() for n in names), _freeze(given))
            except TypeError:  # an unhashable option value: build without the cache
                key = None
            if key is not None and (found := _CACHE.get(key)) is not None:
                return found
        extra_names = {_plugin_name(p) for p in extra}
        chosen: list[Any] = []
        for name in names:
            if name.strip().lower() in extra_names:
                continue
            chosen.append(load_plugin(name))
        built = cls(chosen + extra, given)
        if extra:
            return built
        return _CACHE.put(() if key is None else (key,), built)

    @classmethod
    def from_spec_text(cls, text: str) -> Ruleset:
        """The rule set a spec text names, as :attr:`spec_text` writes it:
        plugin names separated by commas, then options as ``name=value``
        (command-line values: ``on``/``off``, numbers, words; items of a list
        separated by commas), all separated by spaces::

            classic,stacking stack_mix=on

        Names may come in any order. The result comes from the per-process
        cache, so the same spec gives the same rule set object while it is in
        use. A bad part raises :class:`RulesetError` naming it.
        """
        if not isinstance(text, str):
            raise RulesetError(
                f"a rule-set spec is text such as 'classic,stacking', not {type(text).__name__}"
            )
        key = ("text", text)
        found = _CACHE.get(key)
        if found is not None:
            return found
        names, texts = _parse_spec_text(text)
        chosen: list[Any] = []
        for name in names:
            try:
                chosen.append(load_plugin(name))
            except RulesetError as exc:
                raise RulesetError(f"rule-set spec {_short(text)}: {exc}") from exc.__cause__
        declared = _declared_options(chosen)
        options: dict[str, Any] = {}
        for name, value in texts.items():
            if name not in declared:
                allowed = ", ".join(sorted(declared)) or "none"
                raise RulesetError(
                    f"rule-set spec {_short(text)}: no plugin of it has an option {name!r}; "
                    f"options of these plugins: {allowed}"
                )
            plugin_name, option = declared[name]
            try:
                options[name] = option.from_text(value)
            except (TypeError, ValueError) as exc:
                raise RulesetError(
                    f"rule-set spec {_short(text)}: option {name}={_short(value)} of plugin "
                    f"{plugin_name!r}: {exc} (allowed: {option.allowed})"
                ) from None
        return _CACHE.put((key,), cls(chosen, options))

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
        from unorules.errors import StateFormatError

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
    # through a per-process cache, so unpickling many states builds one rule set.

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

    # -- facts about cards -------------------------------------------------------

    def card_points(self, card: Card) -> int:
        """The points ``card`` is worth in a hand at the end of a round."""
        try:
            return self._points[card]
        except KeyError:
            raise ValueError(f"{card} is not in this rule set's deck") from None

    def needs_target(self, card: Card) -> bool:
        """Whether playing ``card`` names a seat."""
        return card in self._targeted

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The teams of a game of ``players`` seats: what the last registered plugin
        that groups seats declares (:meth:`Plugin.teams <unorules.Plugin.teams>`),
        else every seat alone."""
        for plugin in reversed(self._plugins):
            method = getattr(plugin, "teams", None)
            found = None if method is None else method(players)
            if found is not None:
                teams = tuple(tuple(team) for team in found)
                if sorted(s for team in teams for s in team) != list(range(players)):
                    raise RulesetError(
                        f"plugin {_plugin_name(plugin)!r} declares teams {teams} that do not cover "
                        f"each of the {players} seats exactly once"
                    )
                return teams
        return tuple((seat,) for seat in range(players))

    def hand_points(self, hand: Iterable[Card]) -> int:
        """The points of the cards in ``hand``."""
        points = self._points
        return sum(points[c] for c in hand)

    def _play_actions(self, seat: int, card: Card, players: int) -> tuple[Action, ...]:
        key = (seat, card, players)
        actions = self._play_cache.get(key)
        if actions is None:
            colors = COLORS if card.color is None else (None,)
            targets: Sequence[int | None] = (
                [t for t in range(players) if t != seat] if card in self._targeted else [None]
            )
            actions = tuple(Action.of(seat, "play", card, c, t) for c in colors for t in targets)
            self._play_cache[key] = actions
        return actions

    def _play_table(self, seat: int, players: int) -> dict[Card, tuple[Action, ...]]:
        """The play actions of ``seat`` for every card of the deck, with ``players`` seats."""
        key = (seat, players)
        table = self._play_tables.get(key)
        if table is None:
            table = {card: self._play_actions(seat, card, players) for card in dict.fromkeys(self.deck)}
            self._play_tables[key] = table
        return table

    # -- games -----------------------------------------------------------------

    def new_game(
        self,
        players: int,
        seed: Seed = None,
        deck: Iterable[str | Card] | str | None = None,
        dealer: int | None = None,
    ) -> GameState:
        """Deal the first round of a new game.

        ``seed`` is an integer (any :class:`numbers.Integral`, numpy integers
        included: the same seed as the ``int`` of equal value), a string, or
        ``None`` for a fresh random game. ``deck`` arranges the deck, top card
        first; cards it leaves out follow in seeded order. Without ``deck`` the dealer is chosen by the
        ``choose_dealer`` hook unless ``dealer`` is given; with it, ``dealer``
        (default 0) deals and nobody draws for dealer.
        """
        try:
            return self._new_game(players, seed, deck, dealer)
        except Exception as exc:
            self._annotate(exc, "dealing a new game")
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
        # Plugins that need a particular number of seats refuse others here.
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
        return self._deal(
            players=players,
            dealer=first_dealer,
            order=order,
            rng=rng.state,
            scores=(0,) * players,
            rounds=(),
            left=(),
            extras=(),
        )

    def _deal(
        self,
        *,
        players: int,
        dealer: int,
        order: list[Card],
        rng: int,
        scores: tuple[int, ...],
        rounds: tuple[RoundResult, ...],
        left: tuple[int, ...],
        extras: tuple[tuple[str, Any], ...],
    ) -> GameState:
        seats = [(dealer + 1 + i) % players for i in range(players)]
        seats = [s for s in seats if s not in left]
        hands: list[list[Card]] = [[] for _ in range(players)]
        it = iter(order)
        for _ in range(self.hand_size):
            for s in seats:
                hands[s].append(next(it))
        starter = next(it)
        state = GameState(
            ruleset=self,
            hands=tuple(tuple(h) for h in hands),
            draw_pile=tuple(it),
            discard_pile=(starter,),
            color=starter.color,
            direction=1,
            current_player=seats[0],
            phase=PLAY,
            dealer=dealer,
            scores=scores,
            uno_declared=(),
            uno_exposed=(),
            stalled=0,
            left=left,
            rounds=rounds,
            outcome=None,
            rng=rng,
            extras=extras,
            last_action=None,
            events=(
                Event(
                    "deal",
                    dealer,
                    (starter,),
                    "R-SETUP-DEAL",
                    f"round {len(rounds) + 1}",
                    data=(("round", len(rounds) + 1),),
                ),
            ),
        )
        started = self._on_starter(state)
        return state if started is None else started

    # -- the per-action path -----------------------------------------------------

    def _legal_actions(self, state: GameState) -> tuple[Action, ...]:
        """Every implementation's legal actions, or those of the plugins that
        declared the state's phase (``Plugin.legal_phases``), concatenated."""
        callers = self._legal_callers
        if callers is None:
            return self._legal_all(state)
        name = state.phase.name
        caller = callers.get(name)
        if caller is None:
            caller = self._legal_caller(name)
        return caller(state)

    def _annotate(self, exc: BaseException, doing: str) -> None:
        """Name the plugin and hook that raised ``exc`` in a note (see :func:`annotate`)."""
        annotate(exc, self._impl_codes, doing, ",".join(self.names))

    def _visible_hands(self, state: GameState, seat: int) -> set[int]:
        return {s for found in self._visible(state, seat) for s in found if s != seat}

    def _refuse(self, state: GameState, action: Action) -> IllegalActionError:
        if state.outcome is not None:
            return IllegalActionError(f"{action}: the game is over ({state.outcome.reason})")
        if not 0 <= action.seat < state.players:
            return IllegalActionError(
                f"{action}: there is no seat {action.seat} (seats are 0 to {state.players - 1})"
            )
        if action.seat in state.left:
            return IllegalActionError(f"{action}: seat {action.seat} has left the game")
        explained = self._explain(state, action)
        if explained is not None:
            rule, message = explained
            return IllegalActionError(f"{action}: {message} ({rule})", rule=rule)
        mine = state.legal_actions(action.seat)
        allowed = ", ".join(str(a) for a in mine) if mine else "nothing now"
        return IllegalActionError(f"{action} is not legal now; seat {action.seat} may: {allowed}")

    def _end_round(self, state: GameState, winner: int | None, reason: str) -> GameState:
        number = len(state.rounds) + 1
        provisional = RoundResult(number, winner, reason, (0,) * state.players, state.hands)
        points = self._score_round(state, provisional)
        points = (0,) * state.players if points is None else tuple(points)
        result = RoundResult(number, winner, reason, points, state.hands)
        scores = tuple(a + b for a, b in zip(state.scores, points, strict=True))
        state = state.replace(
            scores=scores,
            rounds=state.rounds + (result,),
            events=state.events
            + (
                Event(
                    "round-end",
                    winner,
                    (),
                    None,
                    f"{reason}; points {list(points)}",
                    data=(("points", points), ("reason", reason)),
                ),
            ),
        )
        changed = self._on_round_end(state, result)
        if changed is not None:
            state = changed
        outcome = self._game_outcome(state)
        if outcome is not None:
            return state.replace(outcome=outcome, uno_exposed=(), uno_declared=())
        order = list(self.deck)
        gen = Rng(state.rng)
        gen.shuffle(order)
        dealer = (state.dealer + 1) % state.players
        while dealer in state.left:
            dealer = (dealer + 1) % state.players
        dealt = self._deal(
            players=state.players,
            dealer=dealer,
            order=order,
            rng=gen.state,
            scores=state.scores,
            rounds=state.rounds,
            left=state.left,
            extras=state.extras,
        )
        return dealt.replace(last_action=state.last_action, events=state.events + dealt.events)


def plain_dispatch(ruleset: Ruleset) -> Ruleset:
    """The reference for ``ruleset``'s dispatch declarations: a rule set of the
    same plugins and options that ignores them.

    It asks every implementation of ``legal_actions``, ``apply_action`` and
    ``on_play`` on every call, through pluggy itself (as if no plugin
    declared ``legal_phases``, ``apply_verbs``, ``play_kinds`` or
    ``play_phases``; :meth:`Ruleset.play_claimants` and
    :meth:`Ruleset.apply_claimants` name every implementation), and it
    collects no direct appliers, wrappers or finishers, so every action
    takes the hook path. Declarations are optimisations, never rules: a
    state played on under this rule set must give equal legal actions and
    equal states, events included, which the ``dispatch`` invariant of
    :mod:`unorules.testing` checks. It equals ``ruleset`` (``==``), so its
    states compare equal to ``ruleset``'s; it is slower, and meant for tests.
    Built once per rule set (kept in ``ruleset.cache``); it pickles as the
    ordinary rule set.
    """
    if isinstance(ruleset, _PlainDispatch):
        return ruleset
    return ruleset.cached(_PLAIN_KEY, _plain_of)


def _plain_of(ruleset: Ruleset) -> Ruleset:
    return _PlainDispatch(ruleset.plugins, ruleset._given)


_PLAIN_KEY = ("unorules", "plain dispatch")
"""``ruleset.cache`` key of :func:`plain_dispatch`'s rule set."""


class _PlainDispatch(Ruleset):
    """A rule set whose declarations narrow no hook call (see :func:`plain_dispatch`)."""

    def __init__(self, plugins: Sequence[Any], options: Mapping[str, Any] | None = None) -> None:
        super().__init__(plugins, options)
        hook = self.hook

        def legal(state: GameState) -> tuple[Action, ...]:
            return tuple(itertools.chain.from_iterable(hook.legal_actions(state=state)))

        def apply(state: GameState, action: Action) -> GameState | None:
            result: GameState | None = hook.apply_action(state=state, action=action)
            return result

        # Undeclared, so _legal_callers, _apply_callers and _play_by_phase are None.
        self._legal_single = None
        self._legal_all = legal
        self._apply = apply
        self._on_play = self._compile_play_caller("")
        self._hook_callers = {
            **self._hook_callers,
            "legal_actions": lambda state: hook.legal_actions(state=state),
            "apply_action": apply,
            "on_play": self._on_play,
        }

    def _declare(self) -> None:
        super()._declare()  # the declarations are still checked
        every: dict[str, frozenset[str] | None] = dict.fromkeys(self.names)
        self._play_kinds = self._play_phases = self._legal_phases = self._apply_verbs = every

    def _collect_direct_appliers(self) -> None:
        pass  # every action takes the hook path

    def _compile_play_caller(
        self, kind: str, phase: str | None = None
    ) -> Callable[[GameState, Action, GameState], GameState | None]:
        hook = self.hook.on_play

        def on_play(state: GameState, action: Action, previous: GameState) -> GameState | None:
            result: GameState | None = hook(state=state, action=action, previous=previous)
            return result

        return on_play

    def __repr__(self) -> str:
        return f"plain_dispatch({super().__repr__()})"


def _unpickle_ruleset(spec: str | dict[str, Any]) -> Ruleset:
    """The rule set of a pickle, from the per-process cache (a module-level
    function, so that cloudpickle pickles it by reference)."""
    if isinstance(spec, str):
        return Ruleset.from_spec_text(spec)
    return Ruleset.from_spec(spec)


_MAX_CALLERS = 1024
"""At most this many compiled callers per rule set and hook are kept (phase
names and verbs come from states and actions, which may come from outside)."""


def _offered(plugin: Any, name: str, attribute: str, what: str, ruleset: Ruleset) -> dict[str, Any] | None:
    """What ``plugin`` offers through ``attribute`` (``direct_appliers``,
    ``direct_wrappers``, ``direct_finishers``) for ``ruleset``, by verb, or
    ``None`` when it has no such method; each offer checked to be callable."""
    offer = getattr(plugin, attribute, None)
    if not callable(offer):
        return None
    offered = offer(ruleset)
    for verb, function in offered.items():
        if not callable(function):
            raise RulesetError(f"plugin {name!r} offers a {what} for {verb!r} that is not callable")
    return dict(offered)


def _finishing(inner: Applier, finisher: Finisher) -> Applier:
    """``inner`` followed by ``finisher`` on a copy of its result's fields: a
    finisher that cannot run inside the direct applier, run as a wrapper."""

    def finish(state: GameState, action: Action) -> GameState | None:
        result = inner(state, action)
        if result is None:
            return None
        fields = result.__dict__.copy()
        fields["_legal"] = None
        if not finisher(state, action, fields):
            return None
        return _from_fields(fields)

    return finish


def _asks(claims: Mapping[str, frozenset[str] | None], key: str) -> Callable[[pluggy.HookImpl], bool]:
    """Whether a call for ``key`` (a card kind, a phase, a verb) asks an
    implementation: its plugin declared nothing (``None``) or declared ``key``."""

    def keep(impl: pluggy.HookImpl) -> bool:
        declared = claims.get(impl.plugin_name)
        return declared is None or key in declared

    return keep


def _claimants(hook: pluggy.HookCaller, keep: Callable[[pluggy.HookImpl], bool]) -> tuple[str, ...]:
    """The names of the plugins a call of ``hook`` asks when it asks the
    implementations ``keep`` keeps, in pluggy's calling order, wrappers
    included (every plugin when the hook is called through pluggy: an
    old-style wrapper or an implementation with keyword arguments)."""
    impls = hook.get_hookimpls()
    everyone = any(impl.hookwrapper or impl.kwargnames for impl in impls)
    return tuple(dict.fromkeys(impl.plugin_name for impl in impls[::-1] if everyone or keep(impl)))


def _declares(hook: pluggy.HookCaller, claims: Mapping[str, frozenset[str] | None]) -> bool:
    """Whether a plugin implementing ``hook`` narrowed it with a declaration."""
    return any(claims.get(impl.plugin_name) is not None for impl in hook.get_hookimpls())


def _names_declared(ruleset: Ruleset, plugin: Any, attribute: str, example: str) -> frozenset[str] | None:
    """A plugin's declaration ``attribute`` (``play_kinds``, ``play_phases``,
    ``legal_phases``, ``apply_verbs``) in ``ruleset``: ``None`` (every one),
    else the frozenset of names it holds; a :class:`ByOption` is looked up
    with the option's value."""
    names = getattr(plugin, attribute, None)
    if isinstance(names, ByOption):
        if names.option not in ruleset.options:
            raise RulesetError(
                f"plugin {_plugin_name(plugin)!r} declares {attribute} by option {names.option!r}, "
                "which no plugin of the rule set has"
            )
        by_option = names
        try:
            names = by_option.values.get(ruleset.options[by_option.option], by_option.default)
        except TypeError:  # an unhashable value (a list) is listed by no declaration
            names = by_option.default
    if names is None:
        return None
    if not isinstance(names, frozenset | set | tuple | list) or not all(isinstance(n, str) for n in names):
        raise RulesetError(
            f"plugin {_plugin_name(plugin)!r} declares {attribute} {names!r}: use a frozenset of "
            f"{example}, or None for every one"
        )
    return frozenset(names)


def _order(by_name: dict[str, Any]) -> tuple[Any, ...]:
    """Plugins in canonical registration order: each after the plugins it
    requires, and plugins that do not depend on one another by name.

    The order never depends on how the user listed the plugins, so the same
    plugins and options always build the same rule set (same deck order, same
    hook order, same seeded games)."""
    for name, plugin in by_name.items():
        for required in getattr(plugin, "requires", ()):
            if required not in by_name:
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
        allowed = ", ".join(f"{n} ({p})" for n, (p, _) in sorted(declared.items())) or "none"
        raise RulesetError(f"unknown option {excerpt(unknown[0], 40)}; options of these plugins: {allowed}")
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


# -- spec texts and the per-process cache of rule sets -------------------------------------


def _short(text: str, limit: int = 80) -> str:
    """``repr(text)``, cut to about ``limit`` characters (error messages quote untrusted text)."""
    shown = repr(text)
    return shown if len(shown) <= limit else f"{shown[: limit - 5]}...{shown[-1]} ({len(text)} characters)"


def _parse_spec_text(text: str) -> tuple[list[str], dict[str, str]]:
    """The plugin names and the option texts of a spec text such as
    ``"classic,stacking stack_mix=on"``: whitespace-separated parts, each a
    comma-separated list of plugin names or one ``name=value`` option."""
    names: list[str] = []
    options: dict[str, str] = {}
    for part in text.split():
        name, sep, value = part.partition("=")
        if not sep:
            names += [n for n in part.split(",") if n]
            continue
        if not name.isidentifier():
            raise RulesetError(
                f"rule-set spec {_short(text)}: bad option part {_short(part)}; write name=value"
            )
        if name in options:
            raise RulesetError(f"rule-set spec {_short(text)}: option {name!r} is given twice")
        options[name] = value
    if not names:
        raise RulesetError(
            f"rule-set spec {_short(text)} names no plugin; write e.g. 'classic,stacking stack_mix=on'"
        )
    return names, options


def _freeze(value: Any) -> Hashable:
    """A hashable key for an option value that also tells ``True`` from ``1``."""
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_freeze(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((str(k), _freeze(v)) for k, v in value.items())))
    hash(value)  # TypeError for anything else unhashable: such a request is not cached
    frozen: Hashable = (type(value).__name__, value)
    return frozen


class _Cache:
    """The rule sets this process built from names or spec texts, so that one
    spec gives one rule set object: kept while something uses them (weakly),
    and the most recent ones kept alive anyway."""

    KEEP = 64

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: weakref.WeakValueDictionary[Hashable, Ruleset] = weakref.WeakValueDictionary()
        self._recent: collections.OrderedDict[Hashable, Ruleset] = collections.OrderedDict()

    def get(self, key: Hashable) -> Ruleset | None:
        with self._lock:
            found = self._live.get(key)
            if found is not None:
                self._keep(key, found)
            return found

    def put(self, keys: Iterable[Hashable], built: Ruleset) -> Ruleset:
        """Store ``built`` under ``keys`` and its canonical key; return the
        rule set already cached under the canonical key if there is one."""
        canonical = (
            "canonical",
            built.names,
            tuple((k, _freeze(v)) for k, v in sorted(built._given.items())),
        )
        with self._lock:
            found = self._live.get(canonical)
            if found is None:
                found = built
                self._live[canonical] = built
            self._keep(canonical, found)
            for key in keys:
                self._live[key] = found
                self._keep(key, found)
            return found

    def _keep(self, key: Hashable, ruleset: Ruleset) -> None:
        self._recent[key] = ruleset
        self._recent.move_to_end(key)
        while len(self._recent) > self.KEEP:
            self._recent.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._live.clear()
            self._recent.clear()


_CACHE = _Cache()

"""Callers of the per-action hooks: pluggy's semantics, without pluggy's per-call cost.

pluggy's own dispatch (keyword arguments, a copy of the implementation list,
a generic loop, the wrapper protocol) costs about a microsecond per call, and
a rule set calls a few hooks per action. A hook whose implementations are
all *plain* (no ``wrapper=True``, no old-style ``hookwrapper=True``, no
keyword defaults) needs none of that: its caller, built once per rule set,
takes the spec's arguments positionally and calls the implementations in
pluggy's order (``get_hookimpls()`` reversed, ``tryfirst``/``trylast``
applied), each with the arguments it names, stopping at the first result that
is not ``None`` for a ``firstresult`` hook. A hook with one plain
implementation taking the spec's arguments is that function.

A hook with a wrapper of either kind is called through pluggy itself (its
wrapper protocol is not reimplemented here), so every rule set keeps exactly
pluggy's behaviour; ``tests/test_hook_calls.py`` checks the plain callers
against pluggy on random mixes of implementations.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

from unorules._mypyc import mypyc_attr
from unorules.errors import RulesetError
from unorules.markers import ACTIVE_WHEN

if TYPE_CHECKING:
    from unorules.actions import Action
    from unorules.cards import Card
    from unorules.draft import Draft
    from unorules.ruleset import Ruleset
    from unorules.state import GameState, Position
    from unorules.values import GoingOut, RoundResult

__all__ = ["ClosedPluginManager", "Hooks", "annotate", "compile_hook", "impl_frames"]


def compile_hook(
    hook: pluggy.HookCaller, mode: str = "first", ruleset: object = None
) -> Callable[..., Any] | None:
    """A caller of ``hook`` taking the spec's arguments positionally.

    ``mode`` says what it returns: ``"first"`` the first result that is not
    ``None`` (a ``firstresult`` hook); ``"all"`` calls every implementation for
    what it does (callers ignore what it returns); ``"concatenate"`` a tuple of
    every implementation's items, in calling order (or, when the hook has a
    single plain implementation, that implementation, whose sequence the
    caller makes a tuple of). ``None`` when no plugin implements the hook.
    Implementations marked :func:`~unorules.markers.active_when` whose predicate is
    false for ``ruleset`` are left out (they answer nothing in it).
    """
    impls = [
        impl
        for impl in hook.get_hookimpls()
        if ruleset is None
        or getattr(impl.function, ACTIVE_WHEN, None) is None
        or impl.hookwrapper
        or impl.wrapper
        or getattr(impl.function, ACTIVE_WHEN)(ruleset)
    ]
    if not impls:
        return None
    spec = hook.spec
    assert spec is not None
    argnames = tuple(spec.argnames)
    if any(impl.wrapper or impl.hookwrapper or impl.kwargnames for impl in impls):
        return _through_pluggy(hook, argnames, mode)  # every implementation, through pluggy
    ordered = impls[::-1]  # pluggy's calling order
    if len(ordered) == 1 and tuple(ordered[0].argnames) == argnames:
        function: Callable[..., Any] = ordered[0].function
        return function
    return _generate(hook.name, argnames, [(impl.function, tuple(impl.argnames)) for impl in ordered], mode)


def _through_pluggy(hook: pluggy.HookCaller, argnames: tuple[str, ...], mode: str) -> Callable[..., Any]:
    """A positional caller that calls ``hook`` through pluggy (it has wrappers)."""

    def call(*args: Any) -> Any:
        result = hook(**dict(zip(argnames, args, strict=True)))
        if mode == "concatenate":
            return tuple(itertools.chain.from_iterable(result))
        return None if mode == "all" else result

    call.__name__ = call.__qualname__ = f"{hook.name}_through_pluggy"
    return call


def _generate(
    name: str, argnames: tuple[str, ...], impls: list[tuple[Callable[..., Any], tuple[str, ...]]], mode: str
) -> Callable[..., Any]:
    """Straight-line code calling each implementation in turn."""
    namespace: dict[str, Any] = {"_chain": itertools.chain.from_iterable, "_tuple": tuple}
    lines = [f"def {name}({', '.join(argnames)}):"]
    for i, (function, names) in enumerate(impls):
        namespace[f"_f{i}"] = function
        call = f"_f{i}({', '.join(names)})"
        if mode == "first":
            lines += [f"    _r = {call}", "    if _r is not None:", "        return _r"]
        elif mode == "all":
            lines.append(f"    {call}")
        else:
            lines.append(f"    _r{i} = {call}")
    if mode != "concatenate":
        lines.append("    return None")
    else:
        # Usually a single implementation lists anything (the others' lists are
        # empty): its list becomes the tuple without a concatenation.
        results = [f"_r{i}" for i in range(len(impls))]
        lines += ["    _one = None", "    _many = False"]
        for r in results:
            lines += [
                f"    if {r}:",
                "        if _one is not None:",
                "            _many = True",
                f"        _one = {r}",
            ]
        lines += [
            "    if _many:",
            f"        return _tuple(_chain(_x for _x in ({', '.join(results)},) if _x))",
            "    return () if _one is None else _tuple(_one)",
        ]
    exec(compile("\n".join(lines), f"<unorules hook caller {name}>", "exec"), namespace)
    caller: Callable[..., Any] = namespace[name]
    return caller


# -- the callers of a rule set's hooks of play ---------------------------------------------

# How each hook's caller answers (see unorules._hookcall.compile_hook).
_MODES = {
    "legal_actions": "concatenate",
    "apply_action": "first",
    "on_play": "first",
    "on_draw": "all",
    "after_action": "all",
    "explain_illegal": "first",
    "visible_hands": "concatenate",
    "visible_backs": "concatenate",
    "score_round": "first",
    "on_round_end": "all",
    "game_outcome": "first",
    "on_starter": "first",
    "set_aside_cards": "concatenate",
    "card_matches": "first",
    "play_forbidden": "first",
    "refuse_turn_draw": "first",
    "going_out": "first",
    "blocked_round": "first",
}
_SKIPPABLE = frozenset(
    {
        "on_draw",
        "after_action",
        "visible_hands",
        "visible_backs",
        "card_matches",
        "play_forbidden",
        "refuse_turn_draw",
        "going_out",
        "blocked_round",
    }
)
"""The hooks whose caller is ``None`` when no plugin implements them, so that the
engine and :class:`~unorules.Position` skip them (a rule set without a house rule
pays nothing for its question)."""


def _nothing(*args: Any) -> None:
    return None


def _none_listed(*args: Any) -> tuple[()]:
    return ()


@mypyc_attr(native_class=False)  # a Python class with __slots__ in the compiled build, as in the pure one
class Hooks:
    """The hooks the engine and the draft's mechanics call during play, one
    caller per hook taking the spec's arguments positionally (see
    :mod:`unorules._hookcall`). The hooks of ``_SKIPPABLE`` (``on_draw``,
    ``after_action``, ``visible_hands``, ``visible_backs`` and the shared
    questions ``card_matches``, ``play_forbidden``, ``refuse_turn_draw``,
    ``going_out``, ``blocked_round``) are ``None`` when no plugin implements
    them, so that the mechanics skip them; the others always answer. The hooks
    whose results are concatenated (``legal_actions``,
    ``visible_hands``, ``visible_backs``, ``set_aside_cards``) answer a
    sequence, or ``None`` for nothing. Built from the rule set's pluggy hook
    ``relay``; implementations marked :func:`~unorules.markers.active_when` that do
    not apply to ``ruleset`` are left out."""

    __slots__ = tuple(_MODES)

    legal_actions: Callable[[GameState], Sequence[Action] | None]
    apply_action: Callable[[Draft, Action], Any]
    on_play: Callable[[Draft, Action, GameState], Any]
    on_draw: Callable[[Draft, int, tuple[Card, ...], str], None] | None
    after_action: Callable[[Draft, Action, GameState], None] | None
    explain_illegal: Callable[[GameState, Action], tuple[str, str] | None]
    visible_hands: Callable[[GameState, int], Iterable[int] | None] | None
    visible_backs: Callable[[GameState, int | None], Iterable[int] | None] | None
    score_round: Callable[[Draft, RoundResult], Sequence[int] | None]
    on_round_end: Callable[[Draft, RoundResult], None]
    game_outcome: Callable[[Draft], Any]
    on_starter: Callable[[Draft], Any]
    set_aside_cards: Callable[[GameState], Iterable[Card] | None]
    card_matches: Callable[[Position, int, Card], bool | None] | None
    play_forbidden: Callable[[Position, int, Card], str | None] | None
    refuse_turn_draw: Callable[[Position, int, bool], str | None] | None
    going_out: Callable[[Draft, int], GoingOut | None] | None
    blocked_round: Callable[[Draft], GoingOut | None] | None

    def __init__(self, relay: pluggy.HookRelay, ruleset: Ruleset | None = None) -> None:
        for name, mode in _MODES.items():
            caller = compile_hook(getattr(relay, name), mode, ruleset)
            if caller is None and name not in _SKIPPABLE:
                caller = _none_listed if mode == "concatenate" else _nothing
            object.__setattr__(self, name, caller)


# -- which plugin raised -------------------------------------------------------------------------


def impl_frames(pm: pluggy.PluginManager) -> Mapping[types.CodeType, tuple[tuple[object, str, str], ...]]:
    """The code object of every hook implementation registered on ``pm``, with
    the ``(plugin object, plugin name, hook name)`` of each use."""
    found: dict[types.CodeType, list[tuple[object, str, str]]] = {}
    for hook_name in dir(pm.hook):
        caller = getattr(pm.hook, hook_name, None)
        if not isinstance(caller, pluggy.HookCaller):
            continue
        for impl in caller.get_hookimpls():
            code = getattr(impl.function, "__code__", None)
            if isinstance(code, types.CodeType):
                found.setdefault(code, []).append((impl.plugin, impl.plugin_name, hook_name))
    return {code: tuple(users) for code, users in found.items()}


_NOTE = "unorules: "


def annotate(
    exc: BaseException,
    codes: Mapping[types.CodeType, tuple[tuple[object, str, str], ...]],
    doing: str,
    ruleset_name: str,
) -> None:
    """Add a note to ``exc`` naming the plugin and the hook it was raised in (the
    innermost hook implementation in its traceback) and what the game was
    doing; once per exception, and only when a hook implementation raised it.
    The exception itself is unchanged."""
    if any(isinstance(n, str) and n.startswith(_NOTE) for n in getattr(exc, "__notes__", ())):
        return
    culprit: tuple[str, str] | None = None
    tb = exc.__traceback__
    while tb is not None:
        users = codes.get(tb.tb_frame.f_code)
        if users:
            me = tb.tb_frame.f_locals.get("self")
            chosen = next((u for u in users if u[0] is me), users[0])
            culprit = (chosen[1], chosen[2])
        tb = tb.tb_next
    if culprit is None:
        return
    plugin, hook = culprit
    exc.add_note(
        f"{_NOTE}raised by plugin {plugin!r} in hook {hook!r} while {doing} (rule set {ruleset_name})"
    )


# -- the plugin manager, closed once the rule set is built ---------------------------------------


class ClosedPluginManager(pluggy.PluginManager):
    """A ``PluginManager`` that refuses changes once :meth:`close` was called:
    a rule set builds its hook callers when it is built, so a plugin
    registered later would be listed by ``ruleset.hook`` but never called."""

    _closed = False

    def close(self) -> None:
        """Refuse every later change of the plugins, hooks or call monitoring."""
        self._closed = True

    def _check_open(self, what: str) -> None:
        if self._closed:
            raise RulesetError(
                f"{what}: a rule set's plugins are fixed once it is built (its hook callers are "
                "built then); build a new Ruleset with the plugins you want"
            )

    def register(self, *args: Any, **kwargs: Any) -> Any:
        self._check_open("register")
        return super().register(*args, **kwargs)

    def unregister(self, *args: Any, **kwargs: Any) -> Any:
        self._check_open("unregister")
        return super().unregister(*args, **kwargs)

    def set_blocked(self, *args: Any, **kwargs: Any) -> Any:
        self._check_open("set_blocked")
        return super().set_blocked(*args, **kwargs)

    def add_hookspecs(self, *args: Any, **kwargs: Any) -> Any:
        self._check_open("add_hookspecs")
        return super().add_hookspecs(*args, **kwargs)

    def load_setuptools_entrypoints(self, *args: Any, **kwargs: Any) -> Any:
        self._check_open("load_setuptools_entrypoints")
        return super().load_setuptools_entrypoints(*args, **kwargs)

    def add_hookcall_monitoring(self, *args: Any, **kwargs: Any) -> Any:
        self._check_open("add_hookcall_monitoring (the plain hook callers are not traced)")
        return super().add_hookcall_monitoring(*args, **kwargs)

    def enable_tracing(self, *args: Any, **kwargs: Any) -> Any:
        self._check_open("enable_tracing (the plain hook callers are not traced)")
        return super().enable_tracing(*args, **kwargs)

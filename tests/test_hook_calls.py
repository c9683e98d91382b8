"""The rule set's hook callers answer exactly what pluggy's own call answers.

``Ruleset`` calls the hooks of play through callers built once per rule set
(``unorules._hookcall.compile_hook``). A hook whose implementations are all
*plain* gets generated straight-line code (or, with one implementation taking
the spec's arguments, that implementation itself); a hook with a wrapper of
either kind is called through pluggy. These tests register small plugins on a
plain pluggy manager with unorules' hook specifications and compare each
caller with pluggy's call: calling order (registration, ``tryfirst`` /
``trylast``), the first result, every implementation called ("all"), the
concatenation of lists, implementations taking some of the arguments in any
order, exceptions (raised once, unchanged), wrappers changing the result;
then, through real rule sets, the note an error gets (plugin, hook, action)
and the plugin manager closed once the rule set is built.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Generator, Mapping
from typing import Any, ClassVar

import pluggy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unorules.ruleset as ruleset_module
from unorules import Action, Draft, GameState, Plugin, Ruleset, RulesetError, _hookcall, hookimpl, hookspecs
from unorules._hookcall import compile_hook
from unorules.actions import register_verb
from unorules.discovery import installed_plugins

register_verb("hook_calls_ponder", doc="a verb a test plugin lists but nobody carries out")


def manager(*plugins: object) -> pluggy.PluginManager:
    """A plain (not closed) pluggy manager with unorules' hooks and ``plugins`` as p0, p1, ..."""
    pm = pluggy.PluginManager("unorules")
    pm.add_hookspecs(hookspecs)
    for i, plugin in enumerate(plugins):
        pm.register(plugin, name=f"p{i}")
    return pm


def compiled(hook: pluggy.HookCaller, mode: str) -> Callable[..., Any]:
    caller = compile_hook(hook, mode)
    assert caller is not None
    return caller


def through_pluggy(hook: pluggy.HookCaller, mode: str, args: tuple[Any, ...]) -> Any:
    """pluggy's answer, in the caller's terms (a tuple of every item for ``"concatenate"``)."""
    assert hook.spec is not None
    result = hook(**dict(zip(hook.spec.argnames, args, strict=True)))
    return tuple(itertools.chain.from_iterable(result)) if mode == "concatenate" else result


def answer(mode: str, result: Any) -> Any:
    """The caller's answer as the engine reads it: a concatenating caller may
    answer its one implementation's sequence, or ``None`` for nothing."""
    return tuple(result or ()) if mode == "concatenate" else result


ON_PLAY_ARGS = ("<draft>", "<action>", "<previous>")


# -- plain implementations ---------------------------------------------------------------------


class Returns:
    """An on_play taking every argument that logs its call and returns ``value``."""

    def __init__(self, value: Any, log: list[Any], tag: str) -> None:
        self.value = value
        self.log = log
        self.tag = tag

    @hookimpl
    def on_play(self, draft: Any, action: Any, previous: Any) -> Any:
        self.log.append((self.tag, draft, action, previous))
        return self.value


class First:
    """A ``tryfirst`` on_play taking one argument, stepping aside."""

    def __init__(self, log: list[Any]) -> None:
        self.log = log

    @hookimpl(tryfirst=True)
    def on_play(self, action: Any) -> Any:
        self.log.append(("first", action))
        return None


class Last:
    """A ``trylast`` on_play taking two arguments in another order than the spec's."""

    def __init__(self, log: list[Any]) -> None:
        self.log = log

    @hookimpl(trylast=True)
    def on_play(self, previous: Any, draft: Any) -> Any:
        self.log.append(("last", previous, draft))
        return ("last", draft, previous)


def test_the_first_result_in_pluggys_order_with_arguments_picked_by_name() -> None:
    log: list[Any] = []
    pm = manager(Last(log), Returns(None, log, "b"), Returns("c-result", log, "c"), First(log))
    expected = through_pluggy(pm.hook.on_play, "first", ON_PLAY_ARGS)
    expected_log = log[:]
    log.clear()
    assert compiled(pm.hook.on_play, "first")(*ON_PLAY_ARGS) == expected == "c-result"
    assert log == expected_log == [("first", "<action>"), ("c", "<draft>", "<action>", "<previous>")]


def test_the_trylast_implementation_answers_when_the_others_step_aside() -> None:
    log: list[Any] = []
    pm = manager(Last(log), Returns(None, log, "b"), First(log))
    expected = through_pluggy(pm.hook.on_play, "first", ON_PLAY_ARGS)
    expected_log = log[:]
    log.clear()
    assert compiled(pm.hook.on_play, "first")(*ON_PLAY_ARGS) == expected == ("last", "<draft>", "<previous>")
    assert log == expected_log
    assert [entry[0] for entry in log] == ["first", "b", "last"]


@pytest.mark.parametrize("falsy", [False, 0, (), ""], ids=repr)
def test_a_falsy_result_is_a_result(falsy: Any) -> None:
    log: list[Any] = []
    pm = manager(Returns("later", log, "a"), Returns(falsy, log, "b"))
    caller = compiled(pm.hook.on_play, "first")
    assert through_pluggy(pm.hook.on_play, "first", ON_PLAY_ARGS) == falsy
    assert caller(*ON_PLAY_ARGS) == falsy
    assert type(caller(*ON_PLAY_ARGS)) is type(falsy)
    assert [entry[0] for entry in log] == ["b", "b", "b"]  # "a" is never asked


def test_all_calls_every_implementation_in_pluggys_order_and_answers_nothing() -> None:
    log: list[Any] = []

    class Early:
        @hookimpl(tryfirst=True)
        def after_action(self, before: Any) -> str:
            log.append(("early", before))
            return "early"

    class Late:
        @hookimpl(trylast=True)
        def after_action(self, action: Any, draft: Any) -> None:
            log.append(("late", action, draft))

    class Middle:
        @hookimpl
        def after_action(self, draft: Any, action: Any, before: Any) -> str:
            log.append(("middle", draft, action, before))
            return "middle"

    pm = manager(Late(), Early(), Middle())
    args = ("<draft>", "<action>", "<before>")
    pluggy_result = pm.hook.after_action(draft="<draft>", action="<action>", before="<before>")
    assert pluggy_result == ["early", "middle"]
    expected_log = log[:]
    log.clear()
    assert compiled(pm.hook.after_action, "all")(*args) is None  # results are not an answer
    assert (
        log
        == expected_log
        == [
            ("early", "<before>"),
            ("middle", "<draft>", "<action>", "<before>"),
            ("late", "<action>", "<draft>"),
        ]
    )


class Lists:
    """A legal_actions that lists ``items`` (``None``: nothing, not even a list)."""

    def __init__(self, items: list[str] | None) -> None:
        self.items = items

    @hookimpl
    def legal_actions(self, state: Any) -> Any:
        return None if self.items is None else [f"{state}:{i}" for i in self.items]


class ListsLast(Lists):
    @hookimpl(trylast=True)
    def legal_actions(self, state: Any) -> Any:
        return super().legal_actions(state)


def test_concatenate_joins_every_list_in_pluggys_order_and_skips_none() -> None:
    pm = manager(Lists(["x"]), Lists(None), Lists([]), Lists(["y", "z"]), ListsLast(["t"]))
    caller = compiled(pm.hook.legal_actions, "concatenate")
    assert pm.hook.legal_actions(state="s") == [["s:y", "s:z"], [], ["s:x"], ["s:t"]]
    assert caller("s") == through_pluggy(pm.hook.legal_actions, "concatenate", ("s",))
    assert caller("s") == ("s:y", "s:z", "s:x", "s:t")
    assert type(caller("s")) is tuple


def test_concatenate_with_one_list_among_several_implementations_is_that_list_as_a_tuple() -> None:
    pm = manager(Lists(None), Lists(["a", "b"]), Lists([]))
    caller = compiled(pm.hook.legal_actions, "concatenate")
    assert caller("s") == ("s:a", "s:b") == through_pluggy(pm.hook.legal_actions, "concatenate", ("s",))
    assert type(caller("s")) is tuple
    nothing = compiled(manager(Lists(None), Lists([])).hook.legal_actions, "concatenate")
    assert nothing("s") == ()


def test_one_plain_implementation_taking_the_specs_arguments_is_called_directly() -> None:
    pm = manager(Returns("r", [], "only"))
    (impl,) = pm.hook.on_play.get_hookimpls()
    assert compile_hook(pm.hook.on_play, "first") is impl.function
    # A concatenating caller may then answer the implementation's own list (or None).
    listing = manager(Lists(["a"]))
    (lister,) = listing.hook.legal_actions.get_hookimpls()
    caller = compile_hook(listing.hook.legal_actions, "concatenate")
    assert caller is lister.function
    assert answer("concatenate", caller("s")) == ("s:a",)
    assert answer("concatenate", compiled(manager(Lists(None)).hook.legal_actions, "concatenate")("s")) == ()


def test_one_plain_implementation_taking_some_arguments_gets_only_those() -> None:
    log: list[Any] = []
    pm = manager(Last(log))
    caller = compiled(pm.hook.on_play, "first")
    assert caller(*ON_PLAY_ARGS) == ("last", "<draft>", "<previous>")
    assert log == [("last", "<previous>", "<draft>")]


@pytest.mark.parametrize("mode", ["first", "all", "concatenate"])
def test_a_hook_nobody_implements_has_no_caller(mode: str) -> None:
    # The rule set puts its own default in its place (nothing, or no list).
    hook = manager().hook.on_play if mode == "first" else manager().hook.legal_actions
    assert compile_hook(hook, mode) is None


class Boom(Exception):
    """An ordinary exception an implementation raises."""


class Fatal(BaseException):
    """Not an ``Exception``: it goes through the callers unchanged all the same."""


@pytest.mark.parametrize("kind", [Boom, ValueError, StopIteration, Fatal, KeyboardInterrupt])
@pytest.mark.parametrize("mode", ["first", "all"])
def test_an_error_is_raised_once_unchanged_and_stops_the_call(kind: type[BaseException], mode: str) -> None:
    calls: list[str] = []
    raised: list[BaseException] = []

    class Raises:
        @hookimpl
        def on_draw(self, seat: Any) -> None:
            calls.append("raises")
            raised.append(kind(f"bad {seat}"))
            raise raised[-1]

    class Before:
        @hookimpl(tryfirst=True)
        def on_draw(self, draft: Any, seat: Any, cards: Any, reason: Any) -> None:
            calls.append("before")

    class After:
        @hookimpl(trylast=True)
        def on_draw(self, reason: Any) -> None:
            calls.append("after")

    pm = manager(After(), Raises(), Before())
    args = ("<draft>", 3, ("R1",), "turn")
    with pytest.raises(kind, match="bad 3") as from_pluggy:
        through_pluggy(pm.hook.on_draw, mode, args)
    assert from_pluggy.value is raised[-1]
    assert calls == ["before", "raises"]
    calls.clear()
    with pytest.raises(kind, match="bad 3") as from_caller:
        compiled(pm.hook.on_draw, mode)(*args)
    assert from_caller.value is raised[-1]  # the very exception, not a copy or a wrapper
    assert len(raised) == 2
    assert calls == ["before", "raises"]  # called once, and the rest not called
    assert not getattr(from_caller.value, "__notes__", None)  # notes are the rule set's business


# -- wrappers: through pluggy itself -----------------------------------------------------------


class Doubling:
    """A new-style wrapper that changes on_play's result."""

    def __init__(self, log: list[Any]) -> None:
        self.log = log

    @hookimpl(wrapper=True)
    def on_play(self, draft: Any, action: Any, previous: Any) -> Generator[None, Any, Any]:
        self.log.append("wrap-in")
        result = yield
        self.log.append("wrap-out")
        return ("wrapped", result)


class Forcing:
    """An old-style hookwrapper that forces on_play's result."""

    @hookimpl(hookwrapper=True)
    def on_play(self, action: Any) -> Generator[None, Any, None]:
        outcome = yield
        outcome.force_result(("forced", action, outcome.get_result()))


class Rescuing:
    """A new-style wrapper that turns an error below it into a result."""

    @hookimpl(wrapper=True)
    def on_play(self, draft: Any) -> Generator[None, Any, Any]:
        try:
            return (yield)
        except ValueError as exc:
            return f"rescued {exc}"


class Raising:
    @hookimpl
    def on_play(self, draft: Any, action: Any, previous: Any) -> Any:
        raise ValueError(f"bad {draft}")


class Defaulted:
    """A plain implementation with a keyword default (pluggy never passes it)."""

    @hookimpl
    def on_play(self, draft: Any, action: Any = "default") -> Any:
        return ("defaulted", draft, action)


def traced(pm: pluggy.PluginManager) -> list[str]:
    """The hook calls pluggy's dispatch makes from now on (the compiled plain callers make none)."""
    calls: list[str] = []
    pm.add_hookcall_monitoring(lambda name, impls, kwargs: calls.append(name), lambda *_: None)
    return calls


def test_a_wrapper_that_changes_the_result_answers_what_pluggy_answers() -> None:
    log: list[Any] = []
    pm = manager(Last(log), Returns(None, log, "b"), Doubling(log))
    expected = through_pluggy(pm.hook.on_play, "first", ON_PLAY_ARGS)
    expected_log = log[:]
    log.clear()
    calls = traced(pm)
    assert compiled(pm.hook.on_play, "first")(*ON_PLAY_ARGS) == expected
    assert expected == ("wrapped", ("last", "<draft>", "<previous>"))
    assert [entry if isinstance(entry, str) else entry[0] for entry in log] == [
        "wrap-in",
        "b",
        "last",
        "wrap-out",
    ]
    assert log == expected_log
    assert calls == ["on_play"]  # through pluggy


def test_an_old_style_hookwrapper_forcing_the_result_answers_what_pluggy_answers() -> None:
    pm = manager(Returns("plain", [], "a"), Forcing())
    expected = through_pluggy(pm.hook.on_play, "first", ON_PLAY_ARGS)
    calls = traced(pm)
    assert compiled(pm.hook.on_play, "first")(*ON_PLAY_ARGS) == expected == ("forced", "<action>", "plain")
    assert calls == ["on_play"]


def test_a_firstresult_hook_with_only_a_wrapper_answers_what_pluggy_answers() -> None:
    pm = manager(Doubling([]))
    expected = through_pluggy(pm.hook.on_play, "first", ON_PLAY_ARGS)
    assert compiled(pm.hook.on_play, "first")(*ON_PLAY_ARGS) == expected == ("wrapped", None)


def test_a_wrapper_handling_an_error_below_it_answers_what_pluggy_answers() -> None:
    pm = manager(Last([]), Raising(), Rescuing(), Doubling([]))
    expected = through_pluggy(pm.hook.on_play, "first", ON_PLAY_ARGS)
    assert compiled(pm.hook.on_play, "first")(*ON_PLAY_ARGS) == expected == ("wrapped", "rescued bad <draft>")


def test_an_error_through_a_wrapper_is_raised_once() -> None:
    calls: list[str] = []

    class FailsOnce:
        @hookimpl
        def on_play(self, draft: Any) -> Any:
            calls.append(draft)
            if len(calls) == 1:
                raise Boom("first call fails")
            return "second call"

    pm = manager(FailsOnce(), Doubling([]))
    with pytest.raises(Boom, match="first call fails"):
        compiled(pm.hook.on_play, "first")(*ON_PLAY_ARGS)
    assert calls == ["<draft>"]


class Removes:
    """A wrapper that removes every other plugin's item ending in ``x`` (how a
    plugin takes away another plugin's legal actions)."""

    @hookimpl(wrapper=True)
    def legal_actions(self, state: Any) -> Generator[None, Any, Any]:
        found = yield
        return [[item for item in items if not item.endswith("x")] for items in found]


def test_a_wrapper_around_a_concatenated_hook_removes_what_pluggy_removes() -> None:
    pm = manager(Lists(["x", "y"]), Removes(), Lists(["z", "xx"]))
    caller = compiled(pm.hook.legal_actions, "concatenate")
    calls = traced(pm)
    assert caller("s") == through_pluggy(pm.hook.legal_actions, "concatenate", ("s",)) == ("s:z", "s:y")
    assert type(caller("s")) is tuple
    assert calls == ["legal_actions"] * 3


def test_all_with_a_wrapper_calls_every_implementation_and_answers_nothing() -> None:
    log: list[Any] = []

    class Wraps:
        @hookimpl(wrapper=True)
        def after_action(self, action: Any) -> Generator[None, Any, Any]:
            log.append(("in", action))
            result = yield
            log.append(("out", result))
            return result

    class Watch:
        @hookimpl
        def after_action(self, before: Any) -> str:
            log.append(("watch", before))
            return "watched"

    pm = manager(Watch(), Wraps())
    args = ("<draft>", "<action>", "<before>")
    through_pluggy(pm.hook.after_action, "all", args)
    expected_log = log[:]
    log.clear()
    assert compiled(pm.hook.after_action, "all")(*args) is None
    assert log == expected_log == [("in", "<action>"), ("watch", "<before>"), ("out", ["watched"])]


def test_an_implementation_with_a_keyword_default_is_called_through_pluggy() -> None:
    # Whether pluggy passes a defaulted argument depends on its version: the
    # caller leaves that to pluggy.
    pm = manager(Defaulted(), Returns(None, [], "a"))
    expected = through_pluggy(pm.hook.on_play, "first", ON_PLAY_ARGS)
    calls = traced(pm)
    assert compiled(pm.hook.on_play, "first")(*ON_PLAY_ARGS) == expected
    assert expected[:2] == ("defaulted", "<draft>")
    assert calls == ["on_play"]


def test_plain_callers_bypass_pluggys_dispatch() -> None:
    # Why a rule set's manager refuses monitoring and tracing (see the last tests).
    log: list[Any] = []
    pm = manager(Last(log), Returns(None, log, "b"), First(log))
    caller = compiled(pm.hook.on_play, "first")
    calls = traced(pm)
    caller(*ON_PLAY_ARGS)
    assert calls == []
    assert len(log) == 3
    pm.hook.on_play(draft=1, action=2, previous=3)
    assert calls == ["on_play"]


# -- differential tests: random mixes of implementations against pluggy ------------------------


EXCEPTIONS: tuple[type[BaseException], ...] = (Boom, ValueError, StopIteration, Fatal)
MODES = ("first", "all", "concatenate")


def _hooks() -> list[tuple[str, tuple[str, ...], bool]]:
    pm = manager()
    found = []
    for name in sorted(dir(pm.hook)):
        caller = getattr(pm.hook, name)
        if isinstance(caller, pluggy.HookCaller) and caller.spec is not None:
            found.append((name, tuple(caller.spec.argnames), bool(caller.spec.opts.get("firstresult"))))
    return found


HOOKS = _hooks()


def test_the_random_mixes_cover_every_hook_and_mode() -> None:
    assert {name for name, _, _ in HOOKS} == {
        n for n in dir(hookspecs) if hasattr(getattr(hookspecs, n), "unorules_spec")
    }
    assert {first for _, _, first in HOOKS} == {True, False}


_plain_behaviours = st.sampled_from(
    [("none",), ("none",), ("value",), ("value",), ("falsy",), ("empty",), ("raise",)]
)
_wrapper_behaviours = st.sampled_from(["pass", "replace", "catch", "raise-after", "raise-before"])
_old_style_behaviours = st.sampled_from(["nothing", "force-result"])


@st.composite
def implementations(draw: st.DrawFn, argnames: tuple[str, ...], wrappers: bool) -> dict[str, Any]:
    kinds = ["plain", "plain", "plain", "wrapper", "hookwrapper", "defaulted"] if wrappers else ["plain"]
    kind = draw(st.sampled_from(kinds))
    names = draw(st.permutations(argnames))
    names = names[: draw(st.integers(0, len(names)))]
    order = draw(st.sampled_from([{}, {}, {"tryfirst": True}, {"trylast": True}]))
    spec: dict[str, Any] = {"kind": kind, "argnames": tuple(names), "order": order}
    if kind in ("plain", "defaulted"):
        spec["behaviour"] = draw(_plain_behaviours)
        if spec["behaviour"] == ("raise",):
            spec["behaviour"] = ("raise", draw(st.sampled_from(EXCEPTIONS)))
    elif kind == "wrapper":
        spec["behaviour"] = draw(_wrapper_behaviours)
    else:
        spec["behaviour"] = draw(_old_style_behaviours)
    return spec


def _function(argnames: tuple[str, ...], body: Any, generator: bool, default: bool = False) -> Any:
    """A method taking exactly ``argnames`` (pluggy reads the signature) that runs ``body``."""
    params = ", ".join(("self", *argnames, *(["extra='default'"] if default else [])))
    packed = f"({', '.join(argnames)}{',' if len(argnames) == 1 else ''})"
    call = f"(yield from _body(self, {packed}))" if generator else f"_body(self, {packed})"
    namespace: dict[str, Any] = {"_body": body}
    exec(f"def impl({params}):\n    return {call}\n", namespace)
    return namespace["impl"]


def _plugin(
    index: int, hook: str, spec: dict[str, Any], log: list[Any], listing: bool, raised: list[BaseException]
) -> object:
    tag = f"i{index}"
    value: Any = [tag] if listing else tag
    falsy: Any = [] if listing else 0
    behaviour = spec["behaviour"]

    def raise_(kind: type[BaseException], where: str) -> Any:
        error = kind(f"{tag} {where}")
        log.append((tag, where, "raise"))
        raised.append(error)
        raise error

    if spec["kind"] in ("plain", "defaulted"):

        def plain(self: object, args: tuple[Any, ...]) -> Any:
            log.append((tag, "call", args))
            if behaviour[0] == "raise":
                return raise_(behaviour[1], "call")
            if behaviour[0] == "value":
                return value
            if behaviour[0] == "falsy":
                return falsy
            return [] if behaviour[0] == "empty" and listing else None

        function = _function(spec["argnames"], plain, generator=False, default=spec["kind"] == "defaulted")
        marker = hookimpl(**spec["order"])
    elif spec["kind"] == "wrapper":

        def wrapper(self: object, args: tuple[Any, ...]) -> Generator[None, Any, Any]:
            log.append((tag, "before", args))
            if behaviour == "raise-before":
                raise_(Boom, "before")
            try:
                result = yield
            except Exception as exc:
                log.append((tag, "thrown", type(exc).__name__, str(exc)))
                if behaviour == "catch":
                    return [[tag, str(exc)]] if listing else ("caught", tag, str(exc))
                raise
            log.append((tag, "sent", repr(result)))
            if behaviour == "replace":
                return [*result, [tag]] if listing else ("replaced", tag, result)
            if behaviour == "raise-after":
                raise_(ValueError, "after")
            return result

        function = _function(spec["argnames"], wrapper, generator=True)
        marker = hookimpl(wrapper=True, **spec["order"])
    else:

        def old_style(self: object, args: tuple[Any, ...]) -> Generator[None, Any, None]:
            log.append((tag, "old-before", args))
            outcome = yield
            log.append((tag, "old-after", repr(outcome.exception)))
            if behaviour == "force-result" and outcome.exception is None:
                outcome.force_result([[tag]] if listing else ("forced", tag))

        function = _function(spec["argnames"], old_style, generator=True)
        marker = hookimpl(hookwrapper=True, **spec["order"])
    return type(f"Drawn{index}", (), {hook: marker(function)})()


def _outcome(call: Callable[[], Any], raised: list[BaseException]) -> tuple[str, Any]:
    """What ``call`` returned, or the type and text of what it raised, which
    must be the very exception an implementation raised last (not a copy)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pluggy.PluggyTeardownRaisedWarning)
        try:
            return ("returned", call())
        except BaseException as exc:  # every exception is compared with pluggy's
            caught = exc
    assert raised
    assert caught is raised[-1]
    return ("raised", (type(caught), str(caught)))


def _compare(data: st.DataObject, wrappers: bool) -> tuple[str, list[dict[str, Any]], list[str]]:
    """Draw a hook, a mode fitting it and implementations; assert that the
    caller answers (or raises) what pluggy does, calling the same
    implementations in the same order with the same arguments; return the
    hook, the implementations drawn and the calls pluggy's monitoring saw the
    caller make."""
    hook, argnames, firstresult = data.draw(st.sampled_from(HOOKS), label="hook")
    mode = "first" if firstresult else data.draw(st.sampled_from(["all", "concatenate"]), label="mode")
    specs = data.draw(st.lists(implementations(argnames, wrappers), min_size=1, max_size=6), label="impls")
    log: list[Any] = []
    raised: list[BaseException] = []
    pm = manager(*(_plugin(i, hook, s, log, not firstresult, raised) for i, s in enumerate(specs)))
    args = tuple(f"<{name}>" for name in argnames)
    caller = getattr(pm.hook, hook)
    built = compiled(caller, mode)

    expected = _outcome(lambda: through_pluggy(caller, mode, args), raised)
    expected_log = log[:]
    log.clear()
    calls = traced(pm)
    got = _outcome(lambda: built(*args), raised)
    if mode == "all" and got[0] == "returned":  # "all" answers nothing: every call is made for what it does
        expected = got = ("returned", None)
    elif got[0] == "returned":
        got = ("returned", answer(mode, got[1]))
    assert got == expected
    assert log == expected_log
    return hook, specs, calls


@given(data=st.data())
@settings(max_examples=300)
def test_plain_callers_return_and_raise_what_pluggy_does(data: st.DataObject) -> None:
    """Random mixes of plain implementations for every hook (arguments any
    subset in any order, ``tryfirst``/``trylast``, results ``None``, values,
    falsy values, exceptions of every kind): the caller calls the same
    implementations in the same order with the same arguments, each once,
    returns what pluggy returns and raises the very exception pluggy raises,
    without going through pluggy's dispatch."""
    _, _, calls = _compare(data, wrappers=False)
    assert calls == []


@pytest.mark.filterwarnings("ignore::pluggy.PluggyTeardownRaisedWarning")
@given(data=st.data())
@settings(max_examples=150)
def test_callers_of_hooks_with_wrappers_answer_what_pluggy_does(data: st.DataObject) -> None:
    """Random mixes with new-style wrappers (passing, replacing or catching
    results, raising) and old-style hookwrappers (forcing a result), and
    implementations with keyword defaults: the hook is called through pluggy
    itself, once per call, and answers what pluggy answers."""
    hook, specs, calls = _compare(data, wrappers=True)
    through = any(s["kind"] != "plain" for s in specs)
    assert calls == ([hook] if through else [])


# -- through a rule set ------------------------------------------------------------------------


def test_each_hook_of_play_is_compiled_in_the_mode_its_specification_says() -> None:
    # A firstresult hook stops at the first result; another one calls every
    # implementation: a caller in the other mode would differ from pluggy.
    modes: dict[str, str] = getattr(_hookcall, "_MODES")  # noqa: B009 (private)
    specs = {name: first for name, _, first in HOOKS}
    assert set(modes) == set(ruleset_module.Hooks.__slots__)
    for name, mode in modes.items():
        assert mode in MODES
        assert specs[name] == (mode == "first"), name
    assert {name for name, mode in modes.items() if mode == "concatenate"} == {
        "legal_actions",
        "visible_hands",
        "visible_backs",
        "set_aside_cards",
    }


MODE_PLUGINS = {"partners", "elimination", "penalties"}
EDITIONS = sorted(  # played in place of classic (each refuses it): flip, no-mercy
    name for name, plugin in installed_plugins().items() if "classic" in getattr(plugin, "conflicts", {})
)


def _together(names: list[str]) -> list[str]:
    """``names`` without each plugin that conflicts with one kept before it
    (keep-drawing and the sample draw-until-playable play one rule)."""
    plugins = installed_plugins()
    kept: list[str] = []
    for name in names:
        if not any(
            name in getattr(plugins[k], "conflicts", {}) or k in getattr(plugins[name], "conflicts", {})
            for k in kept
        ):
            kept.append(name)
    return kept


HOUSE_RULES = _together(sorted(set(installed_plugins()) - MODE_PLUGINS - set(EDITIONS)))
ALL_OPTIONS = {  # each plugin's special cards in the deck and given effects (as benchmarks/run.py)
    "with_swap_hands": True,
    "stack_mix": True,
    "custom_wild_1": "extra-turn",
    "custom_wild_2": "draw-until-color",
    "custom_wild_3": "open-hands",
    "blank_cards": "house-rule house-rule W Y7",
}
REAL_RULE_SETS = [
    (["classic"], {}),
    (HOUSE_RULES, ALL_OPTIONS),
    (["classic", "partners"], {}),
    (["classic", "elimination", "penalties"], {}),
    *(([name], {}) for name in EDITIONS),
]


@pytest.mark.parametrize(
    ("names", "options"), REAL_RULE_SETS, ids=lambda v: ",".join(v) if isinstance(v, list) else ""
)
def test_a_rule_sets_reading_callers_answer_what_pluggy_answers_in_real_games(
    names: list[str], options: dict[str, Any]
) -> None:
    """The hooks that only read a state, asked through the rule set's callers
    and through pluggy at every state of seeded games with real plugins."""
    rules = Ruleset.from_names(names, options)
    hooks = rules.hooks
    for seed in range(3):
        state = rules.new_game(players=4, seed=seed)
        for step in range(80):
            if state.is_over:
                break
            listed = hooks.legal_actions(state)
            assert answer("concatenate", listed) == through_pluggy(
                rules.hook.legal_actions, "concatenate", (state,)
            )
            aside = hooks.set_aside_cards(state)
            assert answer("concatenate", aside) == through_pluggy(
                rules.hook.set_aside_cards, "concatenate", (state,)
            )
            for seat in range(state.players):
                shown = hooks.visible_hands(state, seat) if hooks.visible_hands is not None else None
                assert answer("concatenate", shown) == through_pluggy(
                    rules.hook.visible_hands, "concatenate", (state, seat)
                )
                backs = hooks.visible_backs(state, seat) if hooks.visible_backs is not None else None
                assert answer("concatenate", backs) == through_pluggy(
                    rules.hook.visible_backs, "concatenate", (state, seat)
                )
                refused = Action.of(seat, "challenge")
                if refused not in answer("concatenate", listed):
                    assert hooks.explain_illegal(state, refused) == through_pluggy(
                        rules.hook.explain_illegal, "first", (state, refused)
                    )
            legal = state.legal_actions()
            state = state.apply(legal[(seed * 7 + step * 13) % len(legal)])


class FailsOnce(Plugin):
    """Its on_play raises the first time it is called, then steps aside."""

    name = "fails-once"
    api_version = 2
    requires = ("classic",)

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl(tryfirst=True)
    def on_play(self, draft: Draft) -> None:
        self.calls += 1
        if self.calls == 1:
            raise Boom("on_play failed")


class WrapsApply(Plugin):
    """A new-style wrapper around apply_action that lets everything through."""

    name = "wraps-apply"
    api_version = 2
    requires = ("classic",)

    def __init__(self) -> None:
        self.seen: list[str] = []

    @hookimpl(wrapper=True)
    def apply_action(self, action: Action) -> Generator[None, Any, Any]:
        try:
            return (yield)
        except Boom as exc:
            self.seen.append(str(exc))
            raise


def _play(state: GameState) -> Action:
    return next(a for a in state.legal_actions() if a.verb == "play" and a.seat == state.current_player)


@pytest.mark.parametrize("wrapped", [False, True], ids=["plain", "with-wrapper"])
@pytest.mark.parametrize("names", [["classic"], ["classic", "jump-in"]], ids=",".join)
def test_a_hook_that_fails_raises_once_names_plugin_hook_and_action_and_changes_nothing(
    names: list[str], wrapped: bool
) -> None:
    failing = FailsOnce()
    wrapper = WrapsApply()
    rules = Ruleset.from_names(names, plugins=[failing, *([wrapper] if wrapped else [])])
    state = rules.new_game(players=3, seed=4)
    play = _play(state)
    before = state.to_json()
    with pytest.raises(Boom, match="on_play failed") as raised:
        state.apply(play)
    assert failing.calls == 1  # called once: never again behind the caller's back
    assert wrapper.seen == (["on_play failed"] if wrapped else [])  # the wrapper saw it once
    notes = raised.value.__notes__
    assert len(notes) == 1
    assert f"plugin 'fails-once' in hook 'on_play' while applying {play}" in notes[0]
    assert "rule set classic" in notes[0]
    assert state.to_json() == before
    after = state.apply(play)  # the hook steps aside now: the play goes through
    assert failing.calls == 2
    assert after.last_action is play


def test_ruleset_apply_names_the_failing_plugin_once_too() -> None:
    failing = FailsOnce()
    rules = Ruleset.from_names(["classic"], plugins=[failing])
    state = rules.new_game(players=2, seed=1)
    play = _play(state)
    with pytest.raises(Boom) as raised:
        rules.apply(state, play)
    (note,) = raised.value.__notes__
    assert f"plugin 'fails-once' in hook 'on_play' while applying {play}" in note


class Watcher(Plugin):
    """An after_action that raises when told to; two instances share its code."""

    api_version = 2
    requires = ("classic",)

    def __init__(self, name: str, fails: bool) -> None:
        self.name = name  # type: ignore[misc]
        self.fails = fails

    @hookimpl
    def after_action(self, draft: Draft, action: Action) -> None:
        if self.fails:
            raise LookupError(f"{self.name} cannot watch {action}")


def test_the_note_names_the_instance_that_raised_among_instances_sharing_code() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[Watcher("watch-a", True), Watcher("watch-b", False)])
    state = rules.new_game(players=2, seed=3)
    play = _play(state)
    with pytest.raises(LookupError, match="watch-a cannot watch") as raised:
        state.apply(play)
    (note,) = raised.value.__notes__
    assert f"plugin 'watch-a' in hook 'after_action' while applying {play}" in note
    rules = Ruleset.from_names(["classic"], plugins=[Watcher("watch-a", False), Watcher("watch-b", True)])
    with pytest.raises(LookupError, match="watch-b cannot watch") as raised:
        rules.new_game(players=2, seed=3).apply(play)
    (note,) = raised.value.__notes__
    assert "plugin 'watch-b' in hook 'after_action'" in note


def test_the_note_names_the_innermost_hook_that_raised() -> None:
    class BadDraw(Plugin):
        name = "bad-draw"
        api_version = 2
        requires = ("classic",)

        @hookimpl
        def on_draw(self, seat: int, reason: str) -> None:
            raise ArithmeticError(f"seat {seat} drew for {reason}")

    rules = Ruleset.from_names(["classic"], plugins=[BadDraw()])
    state = rules.new_game(players=2, seed=0)
    draw = next(a for a in state.legal_actions() if a.verb == "draw")
    before = state.to_json()
    with pytest.raises(ArithmeticError, match="drew for turn") as raised:
        state.apply(draw)
    (note,) = raised.value.__notes__  # classic's apply_action called draft.draw, which called on_draw
    assert f"plugin 'bad-draw' in hook 'on_draw' while applying {draw}" in note
    assert state.to_json() == before


class FailsWhenAsked(Plugin):
    """Raises in the hook named by ``where`` (the others step aside)."""

    name = "fails-when-asked"
    api_version = 2
    requires = ("classic",)

    def __init__(self, where: str) -> None:
        self.where = where

    def _fail(self, hook: str) -> None:
        if hook == self.where:
            raise OverflowError(f"{hook} failed")

    @hookimpl
    def on_starter(self) -> None:
        self._fail("on_starter")

    @hookimpl
    def visible_hands(self) -> list[int]:
        self._fail("visible_hands")
        return []

    @hookimpl
    def explain_illegal(self) -> None:
        self._fail("explain_illegal")


@pytest.mark.parametrize(
    ("hook", "doing"),
    [
        ("on_starter", "while dealing a new game"),
        ("visible_hands", "while showing seat 1 its view"),
        ("explain_illegal", "while explaining why 1: draw is refused"),
    ],
)
def test_the_note_says_what_the_game_was_doing(hook: str, doing: str) -> None:
    rules = Ruleset.from_names(["classic"], plugins=[FailsWhenAsked(hook)])
    # Seat 0 is to move (dealer 1): seat 1's draw is refused, and explained.
    state = Ruleset.from_names(["classic"]).new_game(players=2, seed=0, dealer=1).replace(ruleset=rules)
    asks: dict[str, Callable[[], object]] = {
        "on_starter": lambda: rules.new_game(players=2, seed=0),
        "visible_hands": lambda: state.view(1),
        "explain_illegal": lambda: state.apply("1: draw"),
    }
    with pytest.raises(OverflowError, match=f"{hook} failed") as raised:
        asks[hook]()
    (note,) = raised.value.__notes__
    assert f"raised by plugin 'fails-when-asked' in hook {hook!r} {doing} (rule set " in note


def test_an_error_no_hook_implementation_raised_gets_no_note() -> None:
    class ListsOnly(Plugin):
        """Lists a verb nobody carries out."""

        name = "lists-only"
        api_version = 2
        requires = ("classic",)
        verbs: ClassVar[Mapping[str, str]] = {"hook_calls_ponder": "turn"}

        @hookimpl
        def legal_actions(self, state: GameState) -> list[Action]:
            return [Action.of(state.current_player, "hook_calls_ponder")]

    rules = Ruleset.from_names(["classic"], plugins=[ListsOnly()])
    state = rules.new_game(players=2, seed=0)
    pondering = Action.of(state.current_player, "hook_calls_ponder")
    with pytest.raises(RuntimeError, match="no plugin carried out the legal action") as raised:
        state.apply(pondering)
    assert not getattr(raised.value, "__notes__", None)


def test_a_failing_legal_actions_hook_is_named_too() -> None:
    class Broken(Plugin):
        name = "broken-legal"
        api_version = 2
        requires = ("classic",)

        @hookimpl
        def legal_actions(self, state: GameState) -> list[Any]:
            raise KeyError("missing")

    rules = Ruleset.from_names(["classic"], plugins=[Broken()])
    with pytest.raises(KeyError) as raised:
        rules.new_game(players=2, seed=0).legal_actions()
    (note,) = raised.value.__notes__
    assert "plugin 'broken-legal' in hook 'legal_actions' while listing the legal actions" in note


def test_the_plugin_manager_is_closed_once_the_rule_set_is_built() -> None:
    rules = Ruleset.from_names(["classic"])

    class Late(Plugin):
        name = "late"
        api_version = 2

    for change in (
        lambda: rules.pm.register(Late(), name="late"),
        lambda: rules.pm.unregister(name="classic"),
        lambda: rules.pm.add_hookspecs(hookspecs),
        lambda: rules.pm.set_blocked("classic"),
        lambda: rules.pm.load_setuptools_entrypoints("unorules"),
        lambda: rules.pm.add_hookcall_monitoring(print, print),
        lambda: rules.pm.enable_tracing(),
    ):
        with pytest.raises(RulesetError, match="fixed once it is built"):
            change()
    assert [name for name, _ in rules.pm.list_name_plugin()] == ["classic"]
    state = rules.new_game(players=2, seed=0)
    assert state.apply(state.legal_actions()[0]).ruleset is rules  # still plays

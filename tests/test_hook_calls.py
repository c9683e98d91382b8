"""The rule set's compiled hook callers give exactly what pluggy's dispatch gives.

``Ruleset`` calls the per-action hooks through callers built once per rule set
(``unorules._hookcall.compile_hook``) instead of pluggy's generic dispatch. These
tests register small plugins on a plain pluggy manager with unorules' hook
specifications and compare each compiled caller with the pluggy call: order
(registration, ``tryfirst``/``trylast``), first results, lists, implementations
taking only some arguments, new-style wrappers that change the result or handle
an exception, and errors.
"""

from __future__ import annotations

import gc
import itertools
import warnings
from collections.abc import Generator
from typing import Any

import pluggy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unorules import GameState, Plugin, Ruleset, RulesetError, hookimpl, hookspecs
from unorules._hookcall import compile_hook


class Returns:
    """A plugin whose on_play returns a fixed value and logs the call."""

    def __init__(self, value: Any, log: list[str], name: str) -> None:
        self.value = value
        self.log = log
        self.name = name

    @hookimpl
    def on_play(self, state: Any, action: Any, previous: Any) -> Any:
        self.log.append(self.name)
        return self.value


class First:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    @hookimpl(tryfirst=True)
    def on_play(self, action: Any) -> Any:  # a subset of the spec's arguments
        self.log.append("first")
        return None


class Last:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    @hookimpl(trylast=True)
    def on_play(self, previous: Any, state: Any) -> Any:  # another order
        self.log.append("last")
        return ("last", state, previous)


class Lists:
    def __init__(self, items: list[str] | None) -> None:
        self.items = items

    @hookimpl
    def legal_actions(self, state: Any) -> Any:
        return None if self.items is None else [f"{state}:{i}" for i in self.items]


class Doubling:
    """A wrapper that changes the result, and one that logs around it."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    @hookimpl(wrapper=True)
    def on_play(self, state: Any, action: Any, previous: Any) -> Generator[None, Any, Any]:
        self.log.append("wrap-in")
        result = yield
        self.log.append("wrap-out")
        return ("wrapped", result)


class Rescuing:
    """A wrapper that turns an error below it into a result."""

    @hookimpl(wrapper=True)
    def on_play(self, state: Any) -> Generator[None, Any, Any]:
        try:
            return (yield)
        except ValueError as exc:
            return f"rescued {exc}"


class Raising:
    @hookimpl
    def on_play(self, state: Any, action: Any, previous: Any) -> Any:
        raise ValueError(f"bad {state}")


def manager(*plugins: object) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("unorules")
    pm.add_hookspecs(hookspecs)
    for i, plugin in enumerate(plugins):
        pm.register(plugin, name=f"p{i}")
    return pm


def both(pm: pluggy.PluginManager, log: list[str]) -> tuple[Any, list[str], Any, list[str]]:
    """(pluggy's result, its call log, the compiled result, its call log)."""
    expected = pm.hook.on_play(state="s", action="a", previous="p")
    expected_log = log[:]
    log.clear()
    compiled = compile_hook(pm.hook.on_play)("s", "a", "p")
    return expected, expected_log, compiled, log[:]


def test_firstresult_order_and_argument_subsets_match_pluggy() -> None:
    log: list[str] = []
    pm = manager(Last(log), Returns(None, log, "b"), Returns("c-result", log, "c"), First(log))
    expected, expected_log, compiled, compiled_log = both(pm, log)
    assert compiled == expected == "c-result"
    assert compiled_log == expected_log == ["first", "c"]


def test_firstresult_falls_through_to_the_trylast_default_like_pluggy() -> None:
    log: list[str] = []
    pm = manager(Last(log), Returns(None, log, "b"), First(log))
    expected, expected_log, compiled, compiled_log = both(pm, log)
    assert compiled == expected == ("last", "s", "p")
    assert compiled_log == expected_log == ["first", "b", "last"]


def test_list_hooks_collect_non_none_results_in_pluggy_order() -> None:
    pm = manager(Lists(["x"]), Lists(None), Lists(["y", "z"]))
    expected = pm.hook.legal_actions(state="s")
    assert compile_hook(pm.hook.legal_actions)("s") == expected == [["s:y", "s:z"], ["s:x"]]


def test_legal_actions_are_concatenated_in_pluggy_order() -> None:
    pm = manager(Lists(["x"]), Lists(None), Lists(["y", "z"]))
    concat = compile_hook(pm.hook.legal_actions, concatenate=True)
    expected = pm.hook.legal_actions(state="s")
    assert concat("s") == tuple(a for found in expected for a in found) == ("s:y", "s:z", "s:x")


def test_a_wrapper_sees_and_changes_the_result_like_pluggy() -> None:
    log: list[str] = []
    pm = manager(Last(log), Returns(None, log, "b"), Doubling(log))
    expected, expected_log, compiled, compiled_log = both(pm, log)
    assert compiled == expected == ("wrapped", ("last", "s", "p"))
    assert compiled_log == expected_log == ["wrap-in", "b", "last", "wrap-out"]


def test_a_wrapper_handles_an_error_below_it_like_pluggy() -> None:
    log: list[str] = []
    pm = manager(Last(log), Raising(), Rescuing(), Doubling(log))
    expected = pm.hook.on_play(state="s", action="a", previous="p")
    compiled = compile_hook(pm.hook.on_play)("s", "a", "p")
    assert compiled == expected == ("wrapped", "rescued bad s")


def test_errors_propagate_unchanged() -> None:
    pm = manager(Raising(), Returns(None, [], "b"))
    with pytest.raises(ValueError, match="bad s"):
        pm.hook.on_play(state="s", action="a", previous="p")
    with pytest.raises(ValueError, match="bad s"):
        compile_hook(pm.hook.on_play)("s", "a", "p")
    wrapped = manager(Raising(), Doubling([]))
    with pytest.raises(ValueError, match="bad s"):
        compile_hook(wrapped.hook.on_play)("s", "a", "p")


def test_no_implementation_is_a_constant() -> None:
    pm = manager()
    assert compile_hook(pm.hook.on_play)("s", "a", "p") is None
    assert compile_hook(pm.hook.legal_actions)("s") == []


# -- differential test: random mixes of implementations, compiled vs pluggy ----------------------


class Boom(Exception):
    """An ordinary exception a drawn implementation raises."""


class Fatal(BaseException):
    """Not an ``Exception``: pluggy hands it to the wrappers all the same."""


EXCEPTIONS: tuple[type[BaseException], ...] = (Boom, ValueError, StopIteration, Fatal)


def _hooks() -> list[tuple[str, tuple[str, ...], bool]]:
    pm = manager()
    found = []
    for name in sorted(dir(pm.hook)):
        caller = getattr(pm.hook, name)
        if isinstance(caller, pluggy.HookCaller) and caller.spec is not None:
            found.append((name, tuple(caller.spec.argnames), bool(caller.spec.opts.get("firstresult"))))
    return found


HOOKS = _hooks()

_plain_behaviours = st.one_of(
    st.just(("none",)),
    st.just(("value",)),
    st.tuples(st.just("raise"), st.sampled_from(EXCEPTIONS)),
)
_before = st.sampled_from(["ok", "ok", "ok", "raise", "no-yield"])
_new_after = st.one_of(
    st.sampled_from([("pass",), ("replace",), ("catch",), ("catch-boom",), ("yield-twice",)]),
    st.tuples(st.just("raise"), st.sampled_from(EXCEPTIONS)),
)
_old_after = st.sampled_from([("nothing",), ("force-result",), ("force-exception",), ("raise",)])


@st.composite
def implementations(draw: st.DrawFn, argnames: tuple[str, ...]) -> dict[str, Any]:
    kind = draw(st.sampled_from(["plain", "plain", "wrapper", "hookwrapper"]))
    names = draw(st.permutations(argnames))
    names = names[: draw(st.integers(0, len(names)))]
    order = draw(st.sampled_from([{}, {}, {"tryfirst": True}, {"trylast": True}]))
    spec: dict[str, Any] = {"kind": kind, "argnames": tuple(names), "order": order}
    if kind == "plain":
        spec["behaviour"] = draw(_plain_behaviours)
    else:
        spec["before"] = draw(_before)
        spec["after"] = draw(_new_after if kind == "wrapper" else _old_after)
    return spec


def _function(argnames: tuple[str, ...], body: Any, generator: bool) -> Any:
    """A method taking exactly ``argnames`` (pluggy reads the signature) that runs ``body``."""
    params = ", ".join(("self", *argnames))
    packed = f"({', '.join(argnames)}{',' if len(argnames) == 1 else ''})"
    call = f"(yield from _body(self, {packed}))" if generator else f"_body(self, {packed})"
    namespace: dict[str, Any] = {"_body": body}
    exec(f"def impl({params}):\n    return {call}\n", namespace)
    return namespace["impl"]


def _plugin(index: int, hook: str, spec: dict[str, Any], log: list[Any], listing: bool) -> object:
    tag = f"i{index}"
    value: Any = [tag] if listing else tag

    def raise_(kind: type[BaseException], where: str) -> Any:
        log.append((tag, where, "raise"))
        raise kind(f"{tag} {where}")

    if spec["kind"] == "plain":
        behaviour = spec["behaviour"]

        def plain(self: object, args: tuple[Any, ...]) -> Any:
            log.append((tag, "call", args))
            if behaviour[0] == "raise":
                return raise_(behaviour[1], "call")
            return value if behaviour[0] == "value" else None

        function = _function(spec["argnames"], plain, generator=False)
        marker = hookimpl(**spec["order"])
    elif spec["kind"] == "wrapper":
        before, after = spec["before"], spec["after"]

        def wrapper(self: object, args: tuple[Any, ...]) -> Generator[None, Any, Any]:
            log.append((tag, "before", args))
            if before == "raise":
                raise_(Boom, "before")
            if before == "no-yield":
                return "no yield"
            try:
                result = yield
            except GeneratorExit:  # closed by the garbage collector after a failed call
                raise
            except BaseException as exc:
                log.append((tag, "thrown", type(exc).__name__, str(exc)))
                if after[0] == "catch" or (after[0] == "catch-boom" and isinstance(exc, Boom)):
                    return ("caught", tag, str(exc))
                if after[0] == "yield-twice":
                    yield
                raise
            log.append((tag, "sent", repr(result)))
            if after[0] == "replace":
                return ("replaced", tag, result) if not listing else [*result, [tag]]
            if after[0] == "raise":
                raise_(after[1], "after")
            if after[0] == "yield-twice":
                yield
            return result

        function = _function(spec["argnames"], wrapper, generator=True)
        marker = hookimpl(wrapper=True, **spec["order"])
    else:
        before, after = spec["before"], spec["after"]

        def old_style(self: object, args: tuple[Any, ...]) -> Generator[None, Any, None]:
            log.append((tag, "old-before", args))
            if before == "raise":
                raise_(Boom, "old-before")
            if before == "no-yield":
                return
            outcome = yield
            log.append((tag, "old-after", repr(outcome.exception), repr(outcome._result)))
            if after[0] == "force-result":
                outcome.force_result(("forced", tag) if not listing else [[tag]])
            elif after[0] == "force-exception":
                outcome.force_exception(Boom(f"{tag} forced"))
            elif after[0] == "raise":
                raise_(ValueError, "old-after")

        function = _function(spec["argnames"], old_style, generator=True)
        marker = hookimpl(hookwrapper=True, **spec["order"])
    return type(f"Drawn{index}", (), {hook: marker(function)})()


def _outcome(call: Any) -> tuple[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pluggy.PluggyTeardownRaisedWarning)
        try:
            return ("returned", call())
        except BaseException as exc:  # every exception is compared with pluggy's
            return ("raised", (type(exc), str(exc)))


# A wrapper that yields twice ends the call at once, as in pluggy; the outer
# wrappers it skipped are closed later by the garbage collector, and a drawn
# old-style wrapper may raise then ("exception ignored"): not a finding.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::pluggy.PluggyTeardownRaisedWarning")
@given(data=st.data())
@settings(max_examples=300)
def test_compiled_callers_return_and_raise_what_pluggy_does(data: st.DataObject) -> None:
    """Random mixes of plain implementations, new- and old-style wrappers,
    ``tryfirst``/``trylast``, ``None`` results and exceptions, for every hook:
    the compiled caller calls the same implementations in the same order,
    each once, and returns or raises what pluggy's call does."""
    hook, argnames, firstresult = data.draw(st.sampled_from(HOOKS), label="hook")
    specs = data.draw(st.lists(implementations(argnames), max_size=5), label="implementations")
    concatenate = not firstresult and data.draw(st.booleans(), label="concatenate")
    log: list[Any] = []
    pm = manager(*(_plugin(i, hook, s, log, listing=not firstresult) for i, s in enumerate(specs)))
    args = tuple(f"<{name}>" for name in argnames)
    caller = getattr(pm.hook, hook)

    def through_pluggy() -> Any:
        result = caller(**dict(zip(argnames, args, strict=True)))
        return tuple(itertools.chain.from_iterable(result)) if concatenate else result

    # Wrappers a call abandons (one yielded twice, or an exception's traceback
    # holding them in a cycle) are closed by the garbage collector, and log
    # their GeneratorExit then, in no specified order: collected right after
    # each call, and compared sorted, apart from what the call itself logged.
    gc.disable()  # no collection in the middle of a call: its objects stay young
    try:
        expected = _outcome(through_pluggy)
        expected_log, expected_closed = _log_and_collected(log)
        compiled = _outcome(lambda: compile_hook(caller, concatenate=concatenate)(*args))
        compiled_log, compiled_closed = _log_and_collected(log)
    finally:
        gc.enable()
    assert compiled == expected
    assert compiled_log == expected_log
    assert compiled_closed == expected_closed


def _log_and_collected(log: list[Any]) -> tuple[list[Any], list[str]]:
    """The entries logged so far, then those the garbage collector's closing
    of abandoned wrappers adds (sorted); ``log`` is emptied."""
    done = log[:]
    del log[:]
    gc.collect(0)  # what the call left (gc is off, so all of it is in the youngest generation)
    closed = sorted(map(repr, log))
    del log[:]
    return done, closed


def test_a_firstresult_hook_with_only_a_wrapper_returns_none_like_pluggy() -> None:
    log: list[str] = []
    pm = manager(Doubling(log))
    assert pm.hook.on_play(state="s", action="a", previous="p") == ("wrapped", None)
    assert compile_hook(pm.hook.on_play)("s", "a", "p") == ("wrapped", None)


def test_a_failing_implementation_is_called_once_even_with_wrappers() -> None:
    calls: list[str] = []

    class FailsOnce:
        @hookimpl
        def on_play(self, state: Any) -> Any:
            calls.append(state)
            if len(calls) == 1:
                raise Boom("first call fails")
            return "second call"

    for pm in (manager(FailsOnce()), manager(FailsOnce(), Doubling([]))):
        calls.clear()
        with pytest.raises(Boom, match="first call fails"):
            compile_hook(pm.hook.on_play)("s", "a", "p")
        assert calls == ["s"]


# -- through a rule set: failures reported once, naming the plugin; the manager closed -----------


class FailsOnce(Plugin):
    """Its on_play raises the first time it is called, then steps aside."""

    name = "fails-once"
    requires = ("classic",)

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl(tryfirst=True)
    def on_play(self, state: GameState) -> None:
        self.calls += 1
        if self.calls == 1:
            raise Boom("on_play failed")


class WrapsApply(Plugin):
    """A new-style wrapper around apply_action that lets everything through."""

    name = "wraps-apply"
    requires = ("classic",)

    def __init__(self) -> None:
        self.seen: list[str] = []

    @hookimpl(wrapper=True)
    def apply_action(self, action: Any) -> Generator[None, Any, Any]:
        try:
            return (yield)
        except Boom as exc:
            self.seen.append(str(exc))
            raise


@pytest.mark.parametrize("wrapped", [False, True], ids=["plain", "with-wrapper"])
@pytest.mark.parametrize("names", [["classic"], ["classic", "jump-in"]], ids=lambda n: ",".join(n))
def test_a_hook_that_fails_once_raises_once_and_names_plugin_hook_and_action(
    names: list[str], wrapped: bool
) -> None:
    failing = FailsOnce()
    wrapper = WrapsApply()
    rules = Ruleset.from_names(names, plugins=[failing, *([wrapper] if wrapped else [])])
    state = rules.new_game(players=3, seed=4)
    play = next(a for a in state.legal_actions() if a.verb == "play" and a.seat == state.current_player)
    before = state.to_json()
    with pytest.raises(Boom, match="on_play failed") as raised:
        state.apply(play)
    assert failing.calls == 1  # called once: never again behind the caller's back
    assert wrapper.seen == (["on_play failed"] if wrapped else [])  # the wrapper saw it once
    notes = raised.value.__notes__
    assert len(notes) == 1
    assert f"plugin 'fails-once' in hook 'on_play' while applying {play}" in notes[0]
    assert state.to_json() == before
    after = state.apply(play)  # the hook steps aside now: the play goes through
    assert failing.calls == 2
    assert after.last_action is play


def test_a_failing_legal_actions_hook_is_named_too() -> None:
    class Broken(Plugin):
        name = "broken-legal"
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

    for change in (
        lambda: rules.pm.register(Late(), name="late"),
        lambda: rules.pm.unregister(name="classic"),
        lambda: rules.pm.add_hookspecs(hookspecs),
        lambda: rules.pm.set_blocked("classic"),
        lambda: rules.pm.add_hookcall_monitoring(print, print),
        lambda: rules.pm.enable_tracing(),
    ):
        with pytest.raises(RulesetError, match="fixed once it is built"):
            change()
    assert [name for name, _ in rules.pm.list_name_plugin()] == ["classic"]

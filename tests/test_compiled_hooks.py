"""The rule set's compiled hook callers give exactly what pluggy's dispatch gives.

``Ruleset`` calls the per-action hooks through callers built once per rule set
(``unorules.ruleset._compile``) instead of pluggy's generic dispatch. These
tests register small plugins on a plain pluggy manager with unorules' hook
specifications and compare each compiled caller with the pluggy call: order
(registration, ``tryfirst``/``trylast``), first results, lists, implementations
taking only some arguments, new-style wrappers that change the result or handle
an exception, and errors.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pluggy
import pytest

from unorules import hookimpl, hookspecs
from unorules.ruleset import _compile, _unrolled


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
    compiled = _compile(pm.hook.on_play, True)("s", "a", "p")
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
    assert _compile(pm.hook.legal_actions, False)("s") == expected == [["s:y", "s:z"], ["s:x"]]


def test_legal_actions_are_concatenated_in_pluggy_order() -> None:
    pm = manager(Lists(["x"]), Lists(None), Lists(["y", "z"]))
    impls = pm.hook.legal_actions.get_hookimpls()
    concat = _unrolled("legal_actions", ("state",), impls[::-1], False, lambda state: None, concatenate=True)
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
    compiled = _compile(pm.hook.on_play, True)("s", "a", "p")
    assert compiled == expected == ("wrapped", "rescued bad s")


def test_errors_propagate_unchanged() -> None:
    pm = manager(Raising(), Returns(None, [], "b"))
    with pytest.raises(ValueError, match="bad s"):
        pm.hook.on_play(state="s", action="a", previous="p")
    with pytest.raises(ValueError, match="bad s"):
        _compile(pm.hook.on_play, True)("s", "a", "p")
    wrapped = manager(Raising(), Doubling([]))
    with pytest.raises(ValueError, match="bad s"):
        _compile(wrapped.hook.on_play, True)("s", "a", "p")


def test_no_implementation_is_a_constant() -> None:
    pm = manager()
    assert _compile(pm.hook.on_play, True)("s", "a", "p") is None
    assert _compile(pm.hook.legal_actions, False)("s") == []

"""The compiled hook layer: per-action hooks called with pluggy's semantics, faster.

pluggy's own dispatch (keyword arguments, a copy of the implementation list,
a generic loop) costs microseconds per call, and a rule set calls a handful of
hooks per action. So a :class:`~unorules.Ruleset` builds, once, a caller per
per-action hook that takes the spec's arguments positionally and does exactly
what pluggy's call would do:

* implementations are called in pluggy's order (``get_hookimpls()`` reversed:
  wrappers first, then the plain implementations, last registered first, with
  ``tryfirst``/``trylast`` already applied by pluggy), each with the arguments
  it names;
* a ``firstresult`` hook stops at the first result that is not ``None`` and
  returns ``None`` when there is none (also when only wrappers implement it);
  another hook returns the list of results that are not ``None``;
* new-style wrappers (``wrapper=True``) get the result sent in, or the
  exception thrown in, exactly once, innermost wrapper first; what a wrapper
  returns or raises is what the next wrapper sees; a wrapper that does not
  yield or yields twice is a ``RuntimeError`` worded as pluggy words it;
* an exception propagates once: the same exception object pluggy would raise,
  never a second call of the hook.

A hook with an old-style wrapper (``hookwrapper=True``) or an implementation
with keyword defaults is called through pluggy itself (once). The compiled
callers bypass pluggy's call tracing and monitoring. ``tests/test_compiled_hooks.py``
checks all of this against pluggy on random mixes of implementations.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable, Generator, Mapping
from typing import Any, NoReturn

import pluggy

from unorules.errors import RulesetError

__all__ = ["ClosedPluginManager", "annotate", "compile_hook", "compile_rest", "impl_frames", "single"]

Teardown = Generator[None, object, object]


def _wrapfail(gen: Any, message: str) -> NoReturn:
    """A wrapper that did not yield once: pluggy's ``RuntimeError``, same wording."""
    code: types.CodeType = gen.gi_code
    raise RuntimeError(
        f"wrap_controller at {code.co_name!r} {code.co_filename}:{code.co_firstlineno} {message}"
    )


def _teardown(
    gen: Teardown, result: object, exception: BaseException | None
) -> tuple[Any, BaseException | None]:
    """Finish one wrapper: send it ``result`` or throw ``exception`` into it;
    return the result and the exception the next (outer) wrapper sees. A
    wrapper that yields again raises out of the whole call, as in pluggy."""
    try:
        if exception is not None:
            try:
                gen.throw(exception)
            except RuntimeError as error:
                # A StopIteration thrown into a generator comes out as a
                # RuntimeError caused by it: the wrapper did not handle it.
                if isinstance(exception, StopIteration) and error.__cause__ is exception:
                    gen.close()
                    return result, exception
                raise
        else:
            gen.send(result)
    except StopIteration as stop:
        return stop.value, None
    except BaseException as error:
        return result, error
    return _second_yield(gen, result)


def _second_yield(gen: Teardown, result: object) -> tuple[Any, BaseException | None]:
    """The end of :func:`_teardown` (also called by the generated callers,
    which inline the rest) for a wrapper that took the result sent in and
    yielded again."""
    try:
        gen.close()
    except StopIteration as stop:
        return stop.value, None
    except BaseException as error:
        return result, error
    _wrapfail(gen, "has second yield")


def single(hook: pluggy.HookCaller, impls: list[pluggy.HookImpl] | None = None) -> Callable[..., Any] | None:
    """The implementation of ``hook`` (or the one of ``impls``) when there is
    exactly one, plain (not a wrapper) and taking the spec's arguments in the
    spec's order; else ``None``."""
    if impls is None:
        impls = hook.get_hookimpls()
    if len(impls) != 1 or hook.spec is None:
        return None
    impl = impls[0]
    if (
        impl.hookwrapper
        or impl.wrapper
        or impl.kwargnames
        or tuple(impl.argnames) != tuple(hook.spec.argnames)
    ):
        return None
    function: Callable[..., Any] = impl.function
    return function


def compile_hook(
    hook: pluggy.HookCaller,
    concatenate: bool = False,
    keep: Callable[[pluggy.HookImpl], bool] | None = None,
) -> Callable[..., Any]:
    """A caller of ``hook`` taking the spec's arguments positionally, returning
    and raising what ``hook(**arguments)`` would.

    With ``concatenate`` (a hook that is not ``firstresult``, whose results
    are sequences) the caller returns the tuple of every result's items, as
    ``tuple(itertools.chain.from_iterable(hook(...)))`` would.

    With ``keep``, only the implementations it accepts are called, in the
    same order (a per-card-kind ``on_play`` caller leaves out the plugins that
    declared they do nothing for that kind): the caller then returns what
    ``hook(...)`` returns whenever the implementations left out return
    ``None`` and wrap without changing anything. A hook with an old-style
    wrapper goes through pluggy with every implementation.
    """
    spec = hook.spec
    if spec is None:
        raise RulesetError(f"hook {hook.name!r} has no specification")
    firstresult = bool(spec.opts.get("firstresult"))
    if firstresult and concatenate:
        raise ValueError("a firstresult hook cannot be concatenated")
    argnames = tuple(spec.argnames)
    impls = hook.get_hookimpls()
    if any(impl.hookwrapper or impl.kwargnames for impl in impls):
        return _through_pluggy(hook, argnames, concatenate)
    if keep is not None:
        impls = [impl for impl in impls if keep(impl)]
    if not impls:
        if firstresult:
            return lambda *args: None
        return (lambda *args: ()) if concatenate else (lambda *args: [])
    function = single(hook, impls)
    if function is not None and firstresult:
        return function
    return _generate(hook.name, argnames, impls[::-1], firstresult, concatenate)


def compile_rest(pm: pluggy.PluginManager, name: str, after: object) -> Callable[..., Any]:
    """A caller of the plain implementations of ``hook`` that pluggy calls after
    the one of plugin ``after`` (the rest of the chain), taking the spec's
    arguments positionally: the first result that is not ``None`` for a
    ``firstresult`` hook, else the list of results. Wrappers are not part of
    it (they wrap the whole call, which is already under way)."""
    hook: pluggy.HookCaller = getattr(pm.hook, name)
    spec = hook.spec
    if spec is None:
        raise RulesetError(f"hook {hook.name!r} has no specification")
    in_order = hook.get_hookimpls()[::-1]
    mine = [i for i, impl in enumerate(in_order) if impl.plugin is after and not impl.wrapper]
    if not mine:
        raise RulesetError(
            f"{after!r} has no plain implementation of hook {hook.name!r}: only an implementation "
            "can call the rest of its hook chain"
        )
    rest = [impl for impl in in_order[mine[0] + 1 :] if not (impl.wrapper or impl.hookwrapper)]
    firstresult = bool(spec.opts.get("firstresult"))
    argnames = tuple(spec.argnames)
    if any(impl.kwargnames for impl in rest):
        keep = {id(impl.plugin) for impl in rest}
        others = [impl.plugin for impl in hook.get_hookimpls() if id(impl.plugin) not in keep]
        # Keyword defaults: pluggy itself calls the rest (the same implementations).
        return _through_pluggy(
            pm.subset_hook_caller(name, remove_plugins=others), argnames, concatenate=False
        )
    if not rest:
        return (lambda *args: None) if firstresult else (lambda *args: [])
    return _generate(hook.name, argnames, rest, firstresult, concatenate=False)


def _through_pluggy(
    hook: pluggy.HookCaller, argnames: tuple[str, ...], concatenate: bool
) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        return hook(**dict(zip(argnames, args, strict=True)))

    if not concatenate:
        return call
    return lambda *args: tuple(itertools.chain.from_iterable(call(*args)))


def _generate(
    name: str,
    argnames: tuple[str, ...],
    in_order: list[pluggy.HookImpl],
    firstresult: bool,
    concatenate: bool,
) -> Callable[..., Any]:
    """Straight-line code calling ``in_order`` (pluggy's calling order): no
    loop, no per-call argument packing."""
    namespace: dict[str, Any] = {
        "_teardown": _teardown,
        "_second_yield": _second_yield,
        "_wrapfail": _wrapfail,
        "_next": next,
        "_Stop": StopIteration,
        "_tuple": tuple,
    }
    calls: list[tuple[bool, str]] = []
    for i, impl in enumerate(in_order):
        namespace[f"_f{i}"] = impl.function
        # Each implementation is called with the arguments it names, in its order.
        calls.append((impl.wrapper, f"_f{i}({', '.join(impl.argnames)})"))
    wrappers = [i for i, (is_wrapper, _) in enumerate(calls) if is_wrapper]
    if not wrappers:
        body = _plain_body(calls, firstresult, concatenate)
    else:
        body = _wrapped_body(calls, wrappers, firstresult)
        if concatenate:
            namespace["_chain"] = itertools.chain.from_iterable
            body[-1] = "return _tuple(_chain(_res))"
    source = f"def _call({', '.join(argnames)}):\n" + "".join(f"    {line}\n" for line in body)
    exec(compile(source, f"<unorules: compiled hook {name}>", "exec"), namespace)
    caller: Callable[..., Any] = namespace["_call"]
    return caller


def _plain_body(calls: list[tuple[bool, str]], firstresult: bool, concatenate: bool) -> list[str]:
    """No wrappers: an exception simply propagates (pluggy raises the same object)."""
    body: list[str] = []
    if firstresult:
        for _, call in calls:
            body += [f"_r = {call}", "if _r is not None:", "    return _r"]
        return [*body, "return None"]
    if concatenate and len(calls) == 1:
        return [f"_r = {calls[0][1]}", "return () if _r is None else _tuple(_r)"]
    if concatenate and len(calls) == 2:
        # Two lists, one of them often empty (a house rule with nothing to add):
        # the other made a tuple as it is, without a list in between.
        return [
            f"_a = {calls[0][1]}",
            f"_b = {calls[1][1]}",
            "if not _a:",
            "    return () if _b is None else _tuple(_b)",
            "if not _b:",
            "    return _tuple(_a)",
            "return (*_a, *_b)",
        ]
    body.append("_res = []")
    for _, call in calls:
        body += [
            f"_r = {call}",
            "if _r is not None:",
            "    _res += _r" if concatenate else "    _res.append(_r)",
        ]
    return [*body, "return _tuple(_res)" if concatenate else "return _res"]


def _wrapped_body(calls: list[tuple[bool, str]], wrappers: list[int], firstresult: bool) -> list[str]:
    """pluggy's call with new-style wrappers: set-ups and calls in order until
    the first result (``firstresult``) or an exception, then every wrapper set
    up so far torn down, innermost first, seeing the result or the exception."""
    body = [" = ".join(f"_g{i}" for i in wrappers) + " = None", "_exc = None"]
    body.append("_res = None" if firstresult else "_res = []")
    body += ["try:", "    while True:  # one pass; break: no further calls"]
    for i, (is_wrapper, call) in enumerate(calls):
        if is_wrapper:
            # _start inlined: run the wrapper up to its yield.
            body += [
                f"        _t = {call}",
                "        try:",
                "            _next(_t)",
                "        except _Stop:",
                '            _wrapfail(_t, "did not yield")',
                f"        _g{i} = _t",
            ]
        elif firstresult:
            body += [
                f"        _r = {call}",
                "        if _r is not None:",
                "            _res = _r",
                "            break",
            ]
        else:
            body += [f"        _r = {call}", "        if _r is not None:", "            _res.append(_r)"]
    body += ["        break", "except BaseException as _e:", "    _exc = _e"]
    for i in reversed(wrappers):
        # _teardown inlined for the usual case, no exception to throw in.
        body += [
            f"if _g{i} is not None:",
            "    if _exc is None:",
            "        try:",
            f"            _g{i}.send(_res)",
            "        except _Stop as _s:",
            "            _res = _s.value",
            "        except BaseException as _e:",
            "            _exc = _e",
            "        else:",
            f"            _res, _exc = _second_yield(_g{i}, _res)",
            "    else:",
            f"        _res, _exc = _teardown(_g{i}, _res, _exc)",
        ]
    body += ["if _exc is not None:", "    raise _exc", "return _res"]
    return body


# -- which plugin raised -------------------------------------------------------------------------


def impl_frames(pm: pluggy.PluginManager) -> Mapping[types.CodeType, tuple[tuple[object, str, str], ...]]:
    """The code object of every hook implementation registered on ``pm``, with
    the ``(plugin object, plugin name, hook name)`` pairs that use it."""
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
    The exception itself is unchanged: callers and wrappers see what pluggy
    would give them."""
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
    a rule set compiles its hook callers when it is built, so a plugin
    registered later would be listed by ``ruleset.hook`` but never called."""

    _closed = False

    def close(self) -> None:
        """Refuse every later change of the plugins, hooks or call monitoring."""
        self._closed = True

    def _check_open(self, what: str) -> None:
        if self._closed:
            raise RulesetError(
                f"{what}: a rule set's plugins are fixed once it is built (its per-action hooks are "
                "compiled then); build a new Ruleset with the plugins you want"
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
        self._check_open("add_hookcall_monitoring (per-action hooks are compiled and not traced)")
        return super().add_hookcall_monitoring(*args, **kwargs)

    def enable_tracing(self, *args: Any, **kwargs: Any) -> Any:
        self._check_open("enable_tracing (per-action hooks are compiled and not traced)")
        return super().enable_tracing(*args, **kwargs)

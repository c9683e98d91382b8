"""The rest of a hook chain as a plain function, for implementations that run on every action.

``ruleset.call_hook(name, *args, after=plugin)`` calls the plain
implementations pluggy calls after ``plugin``'s (see
:meth:`~unorules.Ruleset.call_hook`). An implementation asked on every action
(jump-in's and custom-wilds' ``apply_action``, which act before and after the
others) may instead fetch that caller once per rule set and call it directly::

    from unorules.chain import rest_of_chain

    @hookimpl(tryfirst=True)
    def apply_action(self, state, action):
        rest = rest_of_chain(state.ruleset, "apply_action", self)
        result = rest(state, action)
        ...

The caller is the very one ``call_hook`` uses, with the same semantics; only
the look-up per call is saved (kept in ``ruleset.cache``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

from unorules._hookcall import compile_rest
from unorules.errors import RulesetError
from unorules.ruleset import Ruleset

__all__ = ["rest_of_chain"]


def rest_of_chain(ruleset: Ruleset, name: str, after: object) -> Callable[..., Any]:
    """The caller of the plain implementations of hook ``name`` that pluggy
    calls after those of plugin ``after``, taking the hook's arguments
    positionally: ``rest_of_chain(rules, name, p)(*args)`` returns what
    ``rules.call_hook(name, *args, after=p)`` returns. Compiled once per rule
    set and kept in :attr:`Ruleset.cache <unorules.Ruleset.cache>`.

    :raises RulesetError: for an unknown hook, or an ``after`` that has no
        plain implementation of it.
    """
    key = ("unorules.chain", name, id(after))
    found: Callable[..., Any] | None = ruleset.cache.get(key)
    if found is None:
        if not isinstance(getattr(ruleset.hook, name, None), pluggy.HookCaller):
            raise RulesetError(f"no hook {name!r} in this rule set")
        # The plugin object is kept with its caller, so that its id is never reused.
        found = compile_rest(ruleset.pm, name, after)
        ruleset.cache[key] = found
        ruleset.cache[(*key, "plugin")] = after
    return found

"""``unorules.chain.rest_of_chain``: the caller ``Ruleset.call_hook(..., after=plugin)`` uses."""

from __future__ import annotations

import random

import pytest

from unorules import Plugin, Ruleset, RulesetError
from unorules.chain import rest_of_chain


def test_rest_of_chain_returns_what_call_hook_returns() -> None:
    rules = Ruleset.from_names(["classic", "jump-in", "custom-wilds"], {"custom_wild_1": "open-hands"})
    jump_in = rules.plugins[rules.names.index("jump-in")]
    rest = rest_of_chain(rules, "apply_action", jump_in)
    assert rest_of_chain(rules, "apply_action", jump_in) is rest  # compiled once per rule set
    state = rules.new_game(3, seed=4)
    rng = random.Random(4)
    for _ in range(300):
        action = rng.choice(state.legal_actions())
        handed = state.replace(last_action=action, events=())
        assert rest(handed, action) == rules.call_hook("apply_action", handed, action, after=jump_in)
        state = state.apply(action)


def test_rest_of_chain_refuses_unknown_hooks_and_plugins_without_an_implementation() -> None:
    rules = Ruleset.from_names(["classic", "jump-in"])
    with pytest.raises(RulesetError, match="no hook 'no_such_hook'"):
        rest_of_chain(rules, "no_such_hook", rules.plugins[0])
    with pytest.raises(RulesetError, match="no plain implementation"):
        rest_of_chain(rules, "apply_action", Plugin())

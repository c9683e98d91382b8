"""The public plugin API: calling a hook or the rest of its chain, per-rule-set
data, the typed declarations the rule set gathers, and a check that no shipped
plugin reaches into the core's privates."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import unorules
from unorules import Card, GameState, Plugin, Ruleset, RulesetError, hookimpl

ROOT = Path(__file__).resolve().parent.parent


class Marks(Plugin):
    """An on_play that adds an event to what the rest of the chain returns."""

    name = "marks"
    requires = ("classic",)

    @hookimpl(tryfirst=True)
    def on_play(self, state: GameState, action: unorules.Action, previous: GameState) -> GameState | None:
        rest: GameState | None = state.ruleset.call_hook("on_play", state, action, previous, after=self)
        if rest is None:
            return None
        return rest.add_events(unorules.Event("marked", action.seat, (), None, "after the rest"))


def _play(state: GameState) -> unorules.Action:
    return next(a for a in state.legal_actions() if a.verb == "play" and a.seat == state.current_player)


def test_call_hook_after_self_calls_the_rest_of_the_chain_once() -> None:
    marks = Marks()
    rules = Ruleset.from_names(["classic"], plugins=[marks])
    plain = Ruleset.from_names(["classic"])
    state = rules.new_game(players=3, seed=2)
    action = _play(state)
    after = state.apply(action)
    assert [e.kind for e in after.events][-1] == "marked"
    # Without the plugin, the same play gives the same state but for that event.
    expected = plain.new_game(players=3, seed=2).apply(action)
    assert after.events[:-1] == expected.events
    assert after.hands == expected.hands
    assert after.current_player == expected.current_player


def test_call_hook_without_after_is_the_whole_hook() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(players=2, seed=1)
    assert rules.call_hook("legal_actions", state) == [list(state.legal_actions())]
    action = _play(state)
    prepared = state.replace(last_action=action, events=())
    assert rules.call_hook("apply_action", prepared, action) == state.apply(action)


def test_call_hook_refuses_unknown_hooks_and_plugins_without_the_hook() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[Marks()])
    state = rules.new_game(players=2, seed=1)
    with pytest.raises(RulesetError, match="no per-action hook 'on_ply'"):
        rules.call_hook("on_ply", state)
    with pytest.raises(RulesetError, match="no hook 'on_ply'"):
        rules.call_hook("on_ply", state, after=rules.plugins[0])
    with pytest.raises(RulesetError, match="has no plain implementation of hook 'visible_hands'"):
        rules.call_hook("visible_hands", state, 0, after=rules.plugins[-1])


def test_cached_works_a_value_out_once_per_rule_set() -> None:
    rules = Ruleset.from_names(["classic", "stacking"])
    calls: list[Ruleset] = []

    def compute(r: Ruleset) -> int:
        calls.append(r)
        return len(r.deck)

    key = ("test_plugin_api", "deck size")
    assert rules.cached(key, compute) == rules.cached(key, compute) == 108
    assert calls == [rules]
    assert rules.cache[key] == 108


def test_the_rule_set_gathers_typed_declarations() -> None:
    class Declares(Plugin):
        name = "declares"
        requires = ("classic",)
        turn_verbs = ("ponder",)
        max_round_actions = 123

        def set_aside_cards(self, state: GameState) -> tuple[Card, ...]:
            return (Card.parse("R1"),)

    rules = Ruleset.from_names(["classic"], plugins=[Declares()])
    assert rules.turn_verbs == frozenset({"ponder"})
    assert rules.max_round_actions == 123
    assert rules.set_aside_cards(rules.new_game(players=2, seed=0)) == (Card.parse("R1"),)
    plain = Ruleset.from_names(["classic"])
    assert plain.max_round_actions is None
    assert plain.set_aside_cards(plain.new_game(players=2, seed=0)) == ()

    class BadBound(Plugin):
        name = "bad-bound"
        requires = ("classic",)
        max_round_actions = 0

    with pytest.raises(RulesetError, match="max_round_actions must be a positive int"):
        Ruleset.from_names(["classic"], plugins=[BadBound()])


def test_player_limits_are_public() -> None:
    assert (unorules.MIN_PLAYERS, unorules.MAX_PLAYERS) == (2, 10)
    with pytest.raises(RulesetError, match="players must be 2 to 10"):
        Ruleset.from_names(["classic"]).new_game(players=unorules.MAX_PLAYERS + 1)


_PER_ACTION_HOOKS = (
    "legal_actions|apply_action|explain_illegal|on_play|on_draw|visible_hands|score_round|"
    "on_round_end|game_outcome|on_starter"
)
_FORBIDDEN = {
    "a private name of the rule set": re.compile(r"\b(?:ruleset|rules)\._[a-z]"),
    "the plugin manager": re.compile(r"\.pm\b|subset_hook_caller"),
    "a per-action hook through pluggy": re.compile(rf"\.hook\.(?:{_PER_ACTION_HOOKS})\b"),
    "a table keyed by id()": re.compile(r"\[id\(|weakref"),
    "a private core module": re.compile(r"from unorules\.(?:ruleset|state|_hookcall) import _"),
}


def _plugin_sources() -> list[Path]:
    found = sorted(ROOT.glob("plugins/*/src/**/*.py")) + sorted(ROOT.glob("examples/*/src/**/*.py"))
    assert len(found) >= 12
    return found


@pytest.mark.parametrize("path", _plugin_sources(), ids=lambda p: p.parent.name)
def test_no_shipped_plugin_reaches_into_the_core(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    problems: list[Any] = []
    for what, pattern in _FORBIDDEN.items():
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{path.relative_to(ROOT)}:{line}: {what} ({match.group(0)!r})")
    assert not problems, "\n".join(problems)

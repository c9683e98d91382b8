"""The ``dispatch`` invariant: a plugin's declarations (``play_kinds``,
``play_phases``, ``legal_phases``, ``apply_verbs``, direct appliers, wrappers
and finishers) are optimisations, so the same state under
:func:`~unorules.testing.plain_dispatch` (every implementation asked through
pluggy, every action on the hook path) must list the same actions and make
the same states. Honest plugins pass; each kind of dishonest declaration is
caught, by the invariant alone and by the conformance runner.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Mapping
from typing import Any

import pytest

from unorules import Action, GameState, Plugin, Ruleset, hookimpl
from unorules.plugin import Applier, ApplierWrapper
from unorules.testing import InvariantViolation, check_dispatch, check_state, plain_dispatch
from unorules.testing.conformance import Budget, run_conformance
from unorules.testing.invariants import STATE_INVARIANTS

FIVES = "fives"


class _CountsFives(Plugin):
    """Counts the 5s played in ``extras["fives"]`` (its ``on_play`` adds to
    the rest of the chain's result), claiming the kinds it is built with."""

    name = "counts-fives"
    requires = ("classic",)
    public_extras = (FIVES,)

    def __init__(self, kinds: frozenset[str] | None, phases: frozenset[str] | None = None) -> None:
        self.play_kinds = kinds  # type: ignore[misc]
        self.play_phases = phases  # type: ignore[misc]

    @hookimpl(tryfirst=True)
    def on_play(self, state: GameState, action: Action, previous: GameState) -> GameState | None:
        rest: GameState | None = state.ruleset.call_hook("on_play", state, action, previous, after=self)
        card = action.card
        if card is None or card.kind != "5":
            return rest
        after = state if rest is None else rest
        count: int = after.extra(FIVES, 0)
        return after.with_extra(FIVES, count + 1)


class _CountsDraws(Plugin):
    """Counts the draws in ``extras["draws"]``, declaring the verbs it is built with."""

    name = "counts-draws"
    requires = ("classic",)
    public_extras = ("draws",)

    def __init__(self, verbs: frozenset[str] | None) -> None:
        self.apply_verbs = verbs  # type: ignore[misc]

    @hookimpl(tryfirst=True)
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        if action.verb != "draw":
            return None
        after: GameState = state.ruleset.call_hook("apply_action", state, action, after=self)
        count: int = after.extra("draws", 0)
        return after.with_extra("draws", count + 1)


class _PassesAnyTime(Plugin):
    """Lists a pass for the seat to move in the play phase (before drawing),
    declaring the phases it is built with."""

    name = "passes-any-time"
    requires = ("classic",)

    def __init__(self, phases: frozenset[str] | None) -> None:
        self.legal_phases = phases  # type: ignore[misc]

    @hookimpl
    def legal_actions(self, state: GameState) -> list[Action]:
        if state.phase.name != "play":
            return []
        return [Action.of(state.current_player, "pass")]


class _MarksPlays(Plugin):
    """A wrapper of classic's one-step play that marks the result, though its
    ``apply_action`` (asked before classic's) leaves the hook path's alone:
    the direct path and the hook path disagree."""

    name = "marks-plays"
    requires = ("classic",)
    public_extras = ("marked",)

    @hookimpl(tryfirst=True)
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        return None

    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, ApplierWrapper]:
        def wrap(inner: Applier) -> Applier:
            def play(state: GameState, action: Action) -> GameState | None:
                after = inner(state, action)
                return None if after is None else after.with_extra("marked", True)

            return play

        return {"play": wrap}


class _ListsDrawAgain(_PassesAnyTime):
    """Lists the seat to move's draw once more in the play phase (the same
    actions as a set, another tuple), declaring the phases it is built with."""

    name = "lists-draw-again"

    @hookimpl
    def legal_actions(self, state: GameState) -> list[Action]:
        if state.phase.name != "play":
            return []
        return [Action.of(state.current_player, "draw")]


class _FailsDirectly(_MarksPlays):
    """A wrapper of classic's one-step play that raises: the hook path does not."""

    name = "fails-directly"

    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, ApplierWrapper]:
        def wrap(inner: Applier) -> Applier:
            def play(state: GameState, action: Action) -> GameState | None:
                raise ValueError("the wrapper went wrong")

            return play

        return {"play": wrap}


def _states(rules: Ruleset, seed: int = 1, count: int = 300) -> list[GameState]:
    """States of a seeded random game of ``rules``, played on the hook path
    (a dishonest direct applier may raise)."""
    state = plain_dispatch(rules).new_game(3, seed=seed)
    rng = random.Random(seed)
    found = [state]
    while len(found) < count and not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        found.append(state)
    return [s.replace(ruleset=rules) for s in found]


def _first_violation(rules: Ruleset) -> InvariantViolation | None:
    for state in _states(rules):
        try:
            check_dispatch(state)
        except InvariantViolation as exc:
            return exc
    return None


@pytest.mark.parametrize(
    "plugin",
    [
        _CountsFives(frozenset({"5"})),
        _CountsFives(None),
        # A drawn card may be played at once: in the "drawn" phase.
        _CountsFives(frozenset({"5"}), frozenset({"play", "drawn"})),
        _CountsDraws(frozenset({"draw"})),
        _CountsDraws(None),
        _PassesAnyTime(frozenset({"play"})),
        _PassesAnyTime(None),
    ],
    ids=lambda p: f"{p.name}-honest",
)
def test_honest_declarations_keep_the_invariant(plugin: Plugin) -> None:
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    assert _first_violation(rules) is None
    # The plugin did act, so the comparison was not empty.
    assert any(s.extras or (s.last_action and s.last_action.verb == "pass") for s in _states(rules))


@pytest.mark.parametrize(
    ("plugin", "declared", "by_check_state"),
    [
        (_CountsFives(frozenset({"7"})), "counts-fives: play_kinds=['7']", "dispatch"),
        (_CountsFives(frozenset({"5"}), frozenset({"play"})), "play_phases=['play']", "dispatch"),
        (_CountsDraws(frozenset({"pass"})), "counts-draws: apply_verbs=['pass']", "dispatch"),
        (_PassesAnyTime(frozenset({"penalty"})), "leaves out 2: pass and adds nothing", "dispatch"),
        (_MarksPlays(), "marks-plays: direct_wrappers(play)", "dispatch"),
        (_ListsDrawAgain(frozenset({"penalty"})), "lists-draw-again: legal_phases=['penalty']", "dispatch"),
        # A legal action that raises: check_state's accepted invariant, checked first, reports it.
        (
            _FailsDirectly(),
            "('ValueError', 'the wrapper went wrong') where pluggy's gives <GameState",
            "accepted",
        ),
    ],
    ids=[
        "play_kinds",
        "play_phases",
        "apply_verbs",
        "legal_phases",
        "direct_wrappers",
        "legal_phases-same-set",
        "direct-raises",
    ],
)
def test_a_dishonest_declaration_is_caught(plugin: Plugin, declared: str, by_check_state: str) -> None:
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    found = _first_violation(rules)
    assert found is not None
    assert found.invariant == "dispatch"
    assert declared in found.detail, found.detail
    # check_state runs it among the deep invariants; STATE_INVARIANTS names it.
    state = next(s for s in _states(rules) if _raises(s))
    with pytest.raises(InvariantViolation, match=rf"^\[{by_check_state}\]"):
        check_state(state)
    check_state(state, deep=False)  # the cheap invariants hold
    assert STATE_INVARIANTS["dispatch"] is check_dispatch


def _raises(state: GameState) -> bool:
    try:
        check_dispatch(state)
    except InvariantViolation:
        return True
    return False


def test_the_conformance_runner_reports_a_dishonest_declaration() -> None:
    pytest.importorskip("hypothesis")
    budget = Budget(players=(3,), games=1, max_actions=150, deep_every=5, machine_examples=0, pairs=False)
    report = run_conformance(_CountsFives(frozenset({"7"})), budget)
    assert report.violations
    assert {v.invariant for v in report.violations} == {"dispatch"}
    assert "play_kinds=['7']" in report.format()
    honest = run_conformance(_CountsFives(frozenset({"5"})), budget)
    assert honest.ok, honest.format()


@pytest.mark.parametrize(
    "names",
    [["classic"], ["classic", "stacking"], ["classic", "jump-in", "custom-wilds"], ["classic", "penalties"]],
)
def test_plain_dispatch_asks_everyone_on_the_hook_path(names: list[str]) -> None:
    rules = Ruleset.from_names(names)
    plain = plain_dispatch(rules)
    assert plain == rules
    assert hash(plain) == hash(rules)
    assert plain is not rules
    assert plain_dispatch(rules) is plain
    assert plain_dispatch(plain) is plain
    assert repr(plain) == f"plain_dispatch({rules!r})"
    copied = pickle.loads(pickle.dumps(plain))  # as the ordinary rule set
    assert copied == rules
    assert type(copied) is Ruleset
    for verb in ("play", "draw", "pass", "accept", "challenge"):
        assert plain.direct_applier(verb) is None
        assert plain.apply_claimants(verb) == tuple(
            dict.fromkeys(i.plugin_name for i in rules.hook.apply_action.get_hookimpls()[::-1])
        )
    every_on_play = tuple(dict.fromkeys(i.plugin_name for i in rules.hook.on_play.get_hookimpls()[::-1]))
    for kind in ("5", "+2", "W+4"):
        for phase in (None, "play", "penalty"):
            assert plain.play_claimants(kind, phase) == every_on_play
    # States under either rule set are equal, and play on equally.
    for state in _states(rules, count=60):
        twin = state.replace(ruleset=plain)
        assert twin == state
        assert twin.legal_actions() == state.legal_actions()


def _pluggy_calls(monkeypatch: pytest.MonkeyPatch, rules: Ruleset) -> list[str]:
    """The names of the hooks called through pluggy on ``rules``, as they are called."""
    calls: list[str] = []
    for name in ("legal_actions", "apply_action", "on_play"):
        caller: Any = getattr(rules.hook, name)
        execute = caller._hookexec  # what a pluggy HookCaller runs when called

        def counting(hook_name: str, *args: Any, _execute: Any = execute) -> Any:
            calls.append(hook_name)
            return _execute(hook_name, *args)

        monkeypatch.setattr(caller, "_hookexec", counting)
    return calls


def test_plain_dispatch_goes_through_pluggy(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Ruleset.from_names(["classic", "stacking"])
    plain = plain_dispatch(rules)
    calls = _pluggy_calls(monkeypatch, plain)
    state = rules.new_game(3, seed=2).replace(ruleset=plain)
    play = next(a for a in state.legal_actions() if a.verb == "play")
    state.apply(play)
    assert calls == ["legal_actions", "apply_action", "on_play"]
    assert plain.call_hook("legal_actions", state)  # call_hook: pluggy's list of lists
    assert calls[-1] == "legal_actions"
    # The declared rule set's compiled callers and direct appliers ask pluggy nothing.
    compiled = _pluggy_calls(monkeypatch, rules)
    rules.new_game(3, seed=2).apply(play)
    assert compiled == []

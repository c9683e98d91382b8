"""The state machine: subclassing it, building one with machine_for, and what it prints on failure."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import invariant, run_state_machine_as_test
from toolkit_broken_plugins import LosesFives, StallsDraws

from unorules import Ruleset, RulesetError
from unorules.testing import Replay
from unorules.testing.invariants import InvariantViolation
from unorules.testing.machine import RulesetStateMachine, machine_for

QUICK = settings(
    max_examples=30,
    stateful_step_count=25,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


class ClassicWithOwnInvariant(RulesetStateMachine):
    """A plugin author's subclass: the rule set by name, and one more invariant."""

    ruleset = "classic"
    options = {"uno_penalty": 4}  # noqa: RUF012 - a class attribute the machine reads
    players = (2, 5)

    @invariant()
    def nobody_holds_more_than_the_deck(self) -> None:
        if self.game is not None:
            assert sum(len(hand) for hand in self.game.hands) <= len(self.game.ruleset.deck)


TestClassicWithOwnInvariant = ClassicWithOwnInvariant.TestCase
TestClassicWithOwnInvariant.settings = settings(settings.default, max_examples=10, stateful_step_count=20)


def test_machine_for_names_the_class_after_the_rule_set_and_sets_its_attributes() -> None:
    machine = machine_for(["classic", "stacking"], players=(2, 3), deep=False)
    assert machine.__name__ == "ClassicStackingMachine"
    assert issubclass(machine, RulesetStateMachine)
    assert machine.players == (2, 3)
    assert machine.deep is False
    fixed = machine.fixed_ruleset()
    assert fixed is not None
    assert fixed.names == ("classic", "stacking")
    assert machine_for(None).fixed_ruleset() is None  # draws a rule set per run
    assert ClassicWithOwnInvariant.fixed_ruleset() == Ruleset.from_names(
        ["classic"], options={"uno_penalty": 4}
    )


def test_a_machine_whose_rule_set_does_not_build_says_so() -> None:
    with pytest.raises(RulesetError, match="ruleset does not build"):
        machine_for(["classic", "no-such-plugin"]).fixed_ruleset()


def test_machine_over_any_installed_rule_set_keeps_the_invariants() -> None:
    run_state_machine_as_test(machine_for(None, players=(2, 3, 4)), settings=settings(QUICK, max_examples=8))


def failing_run(plugin: object) -> InvariantViolation:
    # Two players, no arranged decks, only the cheap invariants after each
    # step and a loop caught when a state comes up twice: the failure is the same, and
    # shrinking it takes seconds, not tens.
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    machine = machine_for(rules, players=(2,), arranged=False, deep=False, repeat_limit=2)
    with pytest.raises(InvariantViolation) as caught:
        run_state_machine_as_test(machine, settings=QUICK)
    return caught.value


def printed_replay(failure: BaseException) -> str:
    notes = "\n".join(getattr(failure, "__notes__", []))
    match = re.search(r"^from unorules import Ruleset$.*?^replay\.check\(\)$", notes, re.S | re.M)
    assert match is not None, notes
    return match.group(0)


def test_machine_catches_a_lost_card_and_prints_a_short_replay_that_reproduces_it() -> None:
    failure = failing_run(LosesFives())
    assert failure.invariant == "cards"
    code = printed_replay(failure)
    namespace: dict[str, object] = {"LosesFives": LosesFives}
    exec(code.replace("replay.check()", ""), namespace)
    replay = namespace["replay"]
    assert isinstance(replay, Replay)
    assert len(replay.actions) <= 12  # shrunk: a few actions up to the 5 that vanishes
    with pytest.raises(InvariantViolation, match=r"\[cards\]"):
        replay.check()


def test_machine_catches_a_stalled_round() -> None:
    failure = failing_run(StallsDraws())
    assert failure.invariant == "rounds"
    namespace: dict[str, object] = {"StallsDraws": StallsDraws}
    exec(printed_replay(failure).replace("replay.check()", ""), namespace)
    assert "replay.check(repeat_limit=2) re-checks it" in "\n".join(getattr(failure, "__notes__", []))
    with pytest.raises(InvariantViolation, match=r"\[rounds\]"):
        namespace["replay"].check(repeat_limit=2)  # type: ignore[attr-defined]

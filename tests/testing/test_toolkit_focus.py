"""Steering toward a plugin's declarations (issue 32): the strategies' and the
state machine's ``focus``, and the state machine's bound on a played-out round."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.stateful import run_state_machine_as_test
from toolkit_broken_plugins import DiscardAll, DiscardAllLosingDuplicates, NeverGoesOut

from unorules import Ruleset, installed_plugins
from unorules.testing import Replay
from unorules.testing.coverage import Coverage
from unorules.testing.explore import arranged_deal
from unorules.testing.invariants import InvariantViolation, RoundMonitor
from unorules.testing.machine import machine_for
from unorules.testing.strategies import _focus_plugins, _focused_order, replays

PLUGIN = DiscardAll()
RULES = Ruleset.from_names(["classic"], plugins=[PLUGIN])

FEW = settings(
    max_examples=40, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def plays_discard_all(replay: Replay) -> bool:
    return any(a.verb == "play" and a.card is not None and a.card.kind == "DA" for a in replay.actions)


def share_playing_the_card(focus: object) -> float:
    seen: list[bool] = []

    @FEW
    @given(replays(RULES, players=[2, 3, 4], max_actions=30, focus=focus))
    def collect(replay: Replay) -> None:
        seen.append(plays_discard_all(replay))

    collect()
    return sum(seen) / len(seen)


def test_focus_finds_the_plugins_of_a_rule_set_by_object_name_or_several() -> None:
    assert _focus_plugins(PLUGIN, RULES) == [PLUGIN]
    assert _focus_plugins("discard-all", RULES) == [PLUGIN]
    assert _focus_plugins(["classic", PLUGIN], RULES) == [RULES.plugins[0], PLUGIN]
    assert _focus_plugins("stacking", RULES) == []  # not in this rule set


def test_focused_order_puts_a_play_of_the_plugins_card_first_and_keeps_every_action() -> None:
    coverage = Coverage([PLUGIN])
    coverage.add_ruleset(RULES)
    for seed in range(50):
        deck, dealer = arranged_deal(RULES, 2, random.Random(seed), "in-hands", coverage.focus_kinds)
        state = Replay(RULES, 2, seed, deck=deck, dealer=dealer).start()
        legal = state.legal_actions()
        if any(a.card is not None and a.card.kind == "DA" for a in legal):
            break
    else:
        pytest.fail("no deal in 50 seeds let a Discard All be played")
    ordered = _focused_order(legal, coverage)
    assert sorted(map(str, ordered)) == sorted(map(str, legal))
    first = ordered[0].card
    assert first is not None
    assert first.kind == "DA"
    # Without a card of the plugin in the actions, the order is kept.
    plain = [a for a in legal if a.card is None or a.card.kind != "DA"]
    assert _focused_order(plain, coverage) == plain


def test_focused_replays_play_the_plugins_card_far_more_often() -> None:
    focused = share_playing_the_card(PLUGIN)
    unfocused = share_playing_the_card(None)
    assert focused >= 0.5, focused
    assert focused > 2 * unfocused, (focused, unfocused)


@pytest.mark.skipif("stacking" not in installed_plugins(), reason="the stacking plugin is not installed")
def test_focus_by_an_installed_name_keeps_the_replays_valid() -> None:
    rules = Ruleset.from_names(["classic", "stacking"])

    @FEW
    @given(replays(rules, players=[2, 6], max_actions=20, focus="stacking"))
    def replays_alike(replay: Replay) -> None:
        assert replay.play() == replay.play()

    replays_alike()


def test_a_focused_machine_catches_the_discard_all_that_loses_duplicates() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[DiscardAllLosingDuplicates()])
    machine = machine_for(rules, players=(2, 3), deep=False, focus="discard-all")
    with pytest.raises(InvariantViolation, match=r"\[cards\]"):
        run_state_machine_as_test(
            machine,
            # Found, not shrunk (shrinking is the machine tests' concern): seconds, not minutes.
            settings=settings(
                FEW,
                max_examples=60,
                stateful_step_count=30,
                phases=[Phase.generate],
                report_multiple_bugs=False,
            ),
        )


def test_a_focused_machine_counts_the_plugins_declarations() -> None:
    machine = machine_for(RULES, players=(2,), deep=False, focus=PLUGIN)
    instance = machine()
    assert instance.coverage is None  # nothing dealt yet
    run_state_machine_as_test(machine, settings=settings(FEW, max_examples=5, stateful_step_count=10))


def test_playing_out_a_round_that_never_ends_stops_at_the_bound() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[NeverGoesOut()])
    machine = machine_for(rules, players=(2,), play_out_limit=40)()
    start = Replay(rules, 2, 7)
    machine._start = start
    machine.game = start.start()
    machine._shadow = start.start()
    machine.monitor = RoundMonitor(rules)
    machine.monitor.observe(machine.game)
    # A round that cannot end: the play-out stops after 40 actions, the round
    # still going on (before the bound it played until the round monitor gave up).
    machine.play_out_round(3)
    assert len(machine._actions) == 40
    assert not machine.game.is_over
    assert len(machine.game.rounds) == 0

"""Every card played to the end (issue 44): the explorer keeps the plugin's
cards for last, the coverage says per card whether its play ever ended a
round, and at the ci budget a card never legal, never played or never the
last card is a violation (``to-the-end``) with the reason."""

from __future__ import annotations

import random
from collections import Counter

import attrs
from toolkit_broken_plugins import NeverPlayableCard, PassWild, PassWildOnTheLastCard

from unorules import Action, Ruleset
from unorules.testing.conformance import (
    CI_BUDGET,
    QUICK_BUDGET,
    _LastCardProbe,
    _position_text,
    run_conformance,
)
from unorules.testing.coverage import Coverage, ends_a_hand
from unorules.testing.explore import Explorer, game_plan, last_card_positions
from unorules.testing.scenario import Scenario


def test_the_wild_whose_effect_runs_on_the_last_card_is_caught_at_ci() -> None:
    report = run_conformance(PassWildOnTheLastCard(), CI_BUDGET, others=[], fail_fast=True)
    assert not report.ok
    violation = report.violations[0]
    assert violation.invariant == "hands"
    assert "going out" in violation.detail
    assert "holds" in violation.detail
    # Found in a game kept for the wild (its replay) or by a last-card probe (its position).
    assert violation.replay is not None or "play PW" in violation.position
    if violation.replay is not None:
        last = violation.replay.actions[-1]
        assert last.card is not None
        assert last.card.kind == "PW"


def test_the_correct_wild_passes_at_ci_and_ends_rounds() -> None:
    report = run_conformance(PassWild(), CI_BUDGET, others=[])
    assert report.ok, report.format()
    (result,) = report.results
    tally = next(t for d, t in result.coverage.tallies.items() if d.name == "PW")
    assert tally.ended >= 1  # covered only once it was somebody's last card too
    assert "last card: play" in result.coverage.format(3)


def test_a_card_never_playable_is_a_failure_at_ci_with_the_reason() -> None:
    report = run_conformance(NeverPlayableCard(), attrs.evolve(CI_BUDGET, seconds=4.0), others=[])
    assert not report.ok
    (violation,) = report.violations
    # A hand of such cards can never go out either: a game kept for the card may show that first.
    assert violation.invariant in ("to-the-end", "rounds")
    if violation.invariant == "to-the-end":
        assert "card NP of never-playable: never legal to play in" in violation.detail
    assert "FAILED" in report.format()


def test_a_card_never_legal_fails_to_the_end_with_the_reason() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[NeverPlayableCard()])
    coverage = Coverage([rules.plugins[-1]], to_the_end=True)
    coverage.add_ruleset(rules)
    coverage.start_game(rules, {}, Scenario(rules, hands={0: "RNP R1"}, top="R5").state)
    ((declaration, reason),) = coverage.card_failures()
    assert declaration.name == "NP"
    assert reason == "never legal to play in 1 games (held 1 times by the seat to move)"


def test_at_quick_a_card_never_legal_is_no_to_the_end_violation() -> None:
    report = run_conformance(NeverPlayableCard(), attrs.evolve(QUICK_BUDGET, seconds=2.0), others=[])
    assert all(v.invariant != "to-the-end" for v in report.violations)
    # A warning (the card uncovered), or what a hand of such cards leads to (a round that cannot end).
    assert report.violations or "card NP" in report.uncovered[0][1]


def test_a_card_played_but_never_last_is_reported_as_such() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[PassWild()])
    coverage = Coverage([rules.plugins[-1]], to_the_end=True)
    coverage.add_ruleset(rules)
    game = Scenario(rules, hands={0: "PW R1 R2"}, top="R5")
    coverage.start_game(rules, {}, game.state)
    after = game.then("0: play PW R")
    coverage.observe(game.state, Action.parse("0: play PW R"), after.state)
    ((declaration, reason),) = coverage.card_failures()
    assert declaration.name == "PW"
    assert reason.startswith("played 1 times (play 1), never as the last card")
    assert coverage.missing(1) == [declaration]  # with to_the_end, played is not covered
    last = Scenario(rules, hands={0: "PW"}, top="R5")
    done = last.then("0: play PW R")
    assert ends_a_hand(last.state, Action.parse("0: play PW R"), done.state)
    coverage.observe(last.state, Action.parse("0: play PW R"), done.state)
    assert coverage.card_failures() == []
    assert not coverage.missing(1)


def test_the_last_policy_keeps_the_plugins_cards_for_last() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[PassWild()])
    coverage = Coverage([rules.plugins[-1]])
    coverage.add_ruleset(rules)
    explorer = Explorer(coverage, random.Random(0), "last")
    mixed = Scenario(rules, hands={0: "PW R1 R2"}, top="R5").state
    for _ in range(20):
        action = explorer.choose(mixed)
        assert action.card is None or action.card.kind != "PW"  # another card, or a draw
    alone = Scenario(rules, hands={0: "PW PW"}, top="R5").state
    action = explorer.choose(alone)
    assert action.card is not None
    assert action.card.kind == "PW"


def test_the_game_plan_still_goes_through_the_four_planned_policies() -> None:
    policies = {game_plan(i, (2, 3))[2] for i in range(40)}
    assert policies == {"steer", "eager", "hoard", "random"}


def test_a_last_card_probe_plays_the_card_as_the_seats_only_card() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[PassWild()])
    state = Scenario(rules, hands={0: "PW R1 R2"}, top="R5").state
    ((position, action),) = last_card_positions(state, {"PW"})
    assert position.hands[0] == (action.card,)
    assert position.hands[1:] == state.hands[1:]
    after = position.apply(action)
    assert ends_a_hand(position, action, after)
    assert last_card_positions(position, {"PW"}) == []  # a real last card: the game plays it


def test_a_probe_failure_is_reported_with_the_position_as_a_scenario() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[PassWildOnTheLastCard()])
    coverage = Coverage([rules.plugins[-1]])
    coverage.add_ruleset(rules)
    probe = _LastCardProbe(coverage, Counter())
    probe(Scenario(rules, hands={0: "PW R1 R2"}, top="R5").state)
    assert probe.found is not None
    position, action, exc = probe.found
    assert str(action) == "0: play PW R"
    text = _position_text(position, action)
    assert text.startswith("from unorules.testing.scenario import Scenario")
    assert 'hands={0: "PW", ' in text
    assert text.endswith('.then("0: play PW R")')
    assert "going out" in str(exc)

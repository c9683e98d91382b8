"""A game mode's situations (issue 44): beside ``elimination``, a card of the
plugin must also be played once a seat has left, and a pair plays on until
the mode has shown what it does (a seat eliminated, the others playing on)
instead of stopping as soon as the plugin's own declarations are covered."""

from __future__ import annotations

import attrs
import pytest
from toolkit_broken_plugins import PassWild, PassWildPastTheSeatsThatLeft

from unorules import Action, Event, Outcome, Ruleset, installed_plugins
from unorules.testing.conformance import CI_BUDGET, QUICK_BUDGET, is_game_mode, run_conformance
from unorules.testing.coverage import Coverage, Declaration, situations

# The pair's time cap raised, so what is checked is where the games go, not the machine's speed.
UNHURRIED = attrs.evolve(CI_BUDGET, pair_seconds=60.0)


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in (1, 2, 3))])
def test_hands_passed_to_seats_that_left_are_caught_beside_elimination(seed: int) -> None:
    budget = attrs.evolve(UNHURRIED, seed=seed)
    report = run_conformance(PassWildPastTheSeatsThatLeft(), budget, others=["elimination"], fail_fast=True)
    assert not report.ok
    violation = report.violations[0]
    assert "elimination" in violation.ruleset.names
    # The seat that left is handed a hand (left), or its empty hand goes to a seat still in (hands).
    assert violation.invariant in ("left", "hands")
    assert "has left the game" in violation.detail or "holds no cards but round" in violation.detail


def test_the_correct_pass_wild_beside_elimination_is_played_after_a_seat_left() -> None:
    report = run_conformance(PassWild(), UNHURRIED, others=["elimination"])
    assert report.ok, report.format()
    alone, pair = report.results
    situated = Declaration("while", "PW while a seat has left", "pass-wild")
    assert situated not in alone.coverage.tallies  # nobody leaves with classic alone
    assert pair.coverage.tallies[situated].used >= 1
    assert pair.coverage.settled()
    assert "while  PW while a seat has left" in pair.coverage.format(1)


def test_at_quick_the_mode_pair_catches_it_too() -> None:
    budget = attrs.evolve(QUICK_BUDGET, pair_seconds=60.0)
    report = run_conformance(PassWildPastTheSeatsThatLeft(), budget, others=["elimination"], fail_fast=True)
    assert [v.invariant for v in report.violations] in (["left"], ["hands"])


def test_a_while_declaration_appears_once_a_seat_has_left_and_counts_plays_there() -> None:
    elimination = installed_plugins()["elimination"]
    plugin = PassWild()
    rules = Ruleset.from_names(["classic", "elimination"], plugins=[plugin])
    coverage = Coverage([plugin], watch=[elimination])
    coverage.add_ruleset(rules)
    state = rules.new_game(3, seed=1)
    coverage.observe_state(state)
    assert situations(state) == ()
    assert [d.category for d in coverage.tallies] == ["card"]
    # Seat 2 has left; seat 0 is to move holding a Pass Wild.
    gone = state.replace(left=(2,), current_player=0)
    assert situations(gone) == ("a seat has left",)
    situated = Declaration("while", "PW while a seat has left", "pass-wild")
    coverage.observe_state(gone)
    assert coverage.tallies[situated].used == 0
    assert coverage.unsituated(gone, 1) == ["PW"]
    assert coverage.missing(1)[-1] == situated
    coverage.observe(gone, Action.parse("0: play PW R"), gone)
    assert coverage.tallies[situated].used == 1
    assert coverage.unsituated(gone, 1) == []


def test_a_game_that_ended_with_a_seat_gone_makes_the_while_declaration_too() -> None:
    plugin = PassWild()
    rules = Ruleset.from_names(["classic", "elimination"], plugins=[plugin])
    coverage = Coverage([plugin])
    coverage.add_ruleset(rules)
    # Two seats: one eliminated, the game is over; the situation cannot be played in here,
    # but the combination makes it, so the card is to be played in it in another game.
    over = rules.new_game(2, seed=0).replace(left=(1,), outcome=Outcome((0,), "last-standing"))
    assert situations(over) == ()
    coverage.observe_state(over)
    situated = Declaration("while", "PW while a seat has left", "pass-wild")
    assert coverage.tallies[situated].reached == 0
    assert situated in coverage.missing(1)


def test_a_watched_mode_is_settled_once_its_events_happened() -> None:
    elimination = installed_plugins()["elimination"]
    assert is_game_mode(elimination)
    assert not is_game_mode(PassWild())
    rules = Ruleset.from_names(["classic", "elimination"])
    coverage = Coverage([PassWild()], watch=[elimination])
    assert not coverage.settled()
    assert coverage.unshown() == ["elimination: eliminated"]
    state = rules.new_game(3, seed=0)
    eliminated = Event("eliminated", 2, (), "R-ELIM", "", data=(("limit", 500), ("points", 510)))
    coverage.observe_state(state.replace(events=(eliminated,)))
    assert coverage.settled()
    assert coverage.unshown() == []
    # Nothing of the mode's is a declaration to cover or to warn about.
    assert all(d.owner == "pass-wild" for d in coverage.tallies)
    # A mode without events (partners) has nothing to show, and a mode that is the plugin
    # under test is counted by its own declarations instead.
    assert Coverage([PassWild()], watch=[installed_plugins()["partners"]]).settled()
    assert Coverage([elimination], watch=[elimination]).settled()

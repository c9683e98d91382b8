"""The hypothesis state machine over classic UNO, 2 to 10 players, with every invariant.

After every step of a run (a legal action of any seat, an arbitrary action
that must be refused unless legal, or a whole round played out) the machine
checks every invariant of ``unorules.testing.invariants``: every card
accounted for, one seat to move, legal actions non-empty until the game is
over, each legal action accepted and others refused, ``apply`` never
mutating, JSON round trips that play on alike, replays from seed and actions,
and rounds that end. Runs are bounded by the hypothesis profile of the root
``conftest.py`` (``HYPOTHESIS_PROFILE=ci`` in CI).
"""

from __future__ import annotations

from unorules.testing.machine import RulesetStateMachine
from unorules.testing.strategies import rulesets


class ClassicGame(RulesetStateMachine):
    """Classic with its default options, any number of players; refusals must cite a rule."""

    ruleset = "classic"
    players = tuple(range(2, 11))
    require_rule = True


class ClassicWithOptions(RulesetStateMachine):
    """Classic with option values drawn for each run (targets, scoring, challenges...)."""

    ruleset = rulesets(names=[])
    players = (2, 3, 4, 7, 10)


TestClassicGame = ClassicGame.TestCase
TestClassicWithOptions = ClassicWithOptions.TestCase

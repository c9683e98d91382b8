"""score-rules: what a round scores (R-HOUSE-BLOCKED-DRAW, R-HOUSE-DOUBLE-SCORE).

Formerly two options of classic; moved out in issue 42 (see the package's
docstring for the grouping). A ``score_round`` wrapper changes the points of
every round as every plugin scores it, and the core's ``blocked_round`` hook
says that a blocked round has no winner, so the plugin requires nothing by
name and combines with any base.

.. rubric:: Options

* ``blocked_round`` (``fewest-points``): R-HOUSE-BLOCKED-DRAW. ``draw``: a
  blocked round has no winner and nobody scores.
* ``double_score`` (off): R-HOUSE-DOUBLE-SCORE. Every round's points count
  double, whoever scores them ([LU] ``doubleScore``).

The defaults are the rules reference (the values meaning "off"), as they were
in classic: a rule set that names the plugin without options plays as without it.

.. rubric:: Decisions

* **A drawn blocked round** (R-HOUSE-BLOCKED-DRAW) gives every seat 0 points,
  whatever plugin scores the round (a pair, an elimination charge); it has no
  winner where the base ends its blocked rounds through ``draft.stall``
  (classic), and scores nothing under any base (the round's reason is
  ``blocked``).
* **Double score** (R-HOUSE-DOUBLE-SCORE) doubles the points of every round
  as every plugin scores it: a pair's points, a low-score charge, an
  elimination charge.

.. rubric:: Interactions

``blocked_round``, ``partners``, ``elimination``
    A drawn blocked round scores nothing for any pair or seat: no elimination
    charge, so nobody leaves after it.
``blocked_round``, ``last-loses``
    A blocked round ends a last-loses game (the first seat out wins it); one
    that nobody won before anybody went out is dealt again.
``double_score``, ``partners``, ``elimination``, ``last-loses``, ``scoring``
    Every round's points double as its plugin scores them: a pair's points,
    an elimination charge (so seats reach the limit sooner), a low-score
    charge, the points of a last-loses round.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from unorules import Draft, GoingOut, Option, Plugin, RoundResult, hookimpl, one_of, switch

__all__ = ["ScoreRulesPlugin", "plugin"]

_NOBODY = GoingOut(ends=True, winner=None)
"""A round that ends without a winner (R-HOUSE-BLOCKED-DRAW)."""


class ScoreRulesPlugin(Plugin):
    """Scoring house rules: a blocked round that is a draw, and double points."""

    name = "score-rules"
    api_version = 2
    rules = ("R-HOUSE-BLOCKED-DRAW", "R-HOUSE-DOUBLE-SCORE")
    options = (
        Option(
            "blocked_round",
            "fewest-points",
            "R-HOUSE-BLOCKED-DRAW: a blocked round is won by the fewest hand points, or is a draw "
            "nobody scores",
            one_of("fewest-points", "draw"),
            "fewest-points, draw",
        ),
        Option(
            "double_score",
            False,
            "R-HOUSE-DOUBLE-SCORE: every round's points count double",
            switch,
            "on, off",
        ),
    )

    @hookimpl
    def blocked_round(self, draft: Draft) -> GoingOut | None:
        if draft.ruleset.options["blocked_round"] == "draw":
            return _NOBODY  # R-HOUSE-BLOCKED-DRAW: nobody wins
        return None

    @hookimpl(wrapper=True)
    def score_round(self, draft: Draft, result: RoundResult) -> Generator[None, Any, Sequence[int] | None]:
        # Around every plugin's scoring: the points of any round, however scored.
        points: Sequence[int] | None = yield
        if points is None:
            return points
        options = draft.ruleset.options
        if result.reason == "blocked" and options["blocked_round"] == "draw":
            return (0,) * len(points)  # R-HOUSE-BLOCKED-DRAW: a draw, nobody scores
        if options["double_score"]:
            return tuple(2 * p for p in points)  # R-HOUSE-DOUBLE-SCORE
        return points


plugin = ScoreRulesPlugin()
"""The plugin object the ``unorules`` entry point ``score-rules`` names."""

"""House rules that name no base rule set, with an edition in place of classic (issue 42
point 4): each pair that makes sense builds and plays seeded games keeping every invariant
of the toolkit; each pair that does not is refused with its reason; each plugin alone is
refused, as it deals no cards."""

from __future__ import annotations

from typing import Any

import pytest

from unorules import Ruleset, RulesetError
from unorules.testing.conformance import play_checked_game

COMBINE: list[tuple[str, str, dict[str, Any], tuple[int, ...]]] = [
    ("flip", "last-loses", {}, (2, 3, 4)),
    ("flip", "elimination", {}, (3, 4)),
    ("flip", "elimination", {"elimination_by": "most-cards"}, (3,)),
    ("flip", "partners", {}, (4,)),
    ("flip", "keep-drawing", {}, (2, 3, 4)),
    ("flip", "keep-drawing", {"draw_until_limit": 3}, (3,)),
    ("flip", "penalties", {}, (2, 3)),
    ("no-mercy", "multi-play", {}, (2, 3, 4)),
    ("no-mercy", "multi-play", {"multi_play": "sequential", "multi_bomb": True}, (3,)),
    ("no-mercy", "penalties", {"enforcement": "table"}, (2, 3, 4)),
]

REFUSED: list[tuple[str, str, dict[str, Any], str]] = [
    ("flip", "multi-play", {}, "groups of faces are not defined"),
    ("flip", "deflect", {}, "Wild Draw Colour"),
    ("flip", "penalties", {"enforcement": "table"}, "enforcement=table"),
    ("no-mercy", "last-loses", {}, "answers going out itself"),
    ("no-mercy", "keep-drawing", {}, "R-NM-DRAW"),
    ("no-mercy", "deflect", {}, "R-NM-STACK"),
    ("no-mercy", "elimination", {}, "R-NM-MERCY"),
    ("no-mercy", "partners", {}, "R-NM-MERCY"),
]

ALONE = ["last-loses", "elimination", "partners", "keep-drawing", "multi-play", "penalties", "deflect"]


@pytest.mark.parametrize(("edition", "name", "options", "players"), COMBINE)
def test_a_house_rule_plays_with_an_edition_keeping_every_invariant(
    edition: str, name: str, options: dict[str, Any], players: tuple[int, ...]
) -> None:
    rules = Ruleset.from_names([edition, name], options)
    assert "classic" not in rules.names
    for n in players:
        for seed in range(2):
            violation, _ = play_checked_game(rules, n, seed, max_actions=300, eager=0.8)
            assert violation is None, violation


@pytest.mark.parametrize(("edition", "name", "options", "reason"), REFUSED)
def test_a_house_rule_that_makes_no_sense_with_an_edition_is_refused_with_its_reason(
    edition: str, name: str, options: dict[str, Any], reason: str
) -> None:
    with pytest.raises(RulesetError, match=reason) as refused:
        Ruleset.from_names([edition, name], options)
    assert "requires" not in str(refused.value)


@pytest.mark.parametrize("name", ALONE)
def test_a_house_rule_alone_is_refused(name: str) -> None:
    with pytest.raises(RulesetError, match="put no cards in the deck"):
        Ruleset.from_names([name])


def test_partners_under_flip_scores_the_faces_in_play() -> None:
    rules = Ruleset.from_names(["flip", "partners"])
    assert rules.options["target_score"] == 500
    violation, _ = play_checked_game(rules, 4, 3, max_actions=400, eager=0.8)
    assert violation is None, violation

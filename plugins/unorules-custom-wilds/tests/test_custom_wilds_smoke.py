"""Random play with the customizable wilds bound to every ready effect, alone with
classic and with all four plugins of the 2015 edition together: every invariant of
the testing toolkit holds, and the effects bound do happen in these games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from unorules import GameState, IllegalActionError, Ruleset
from unorules.testing.conformance import play_checked_game
from unorules.testing.replay import play_randomly


def happenings(rules: Ruleset, players: int, seed: int) -> Counter[str]:
    """Check every invariant over one seeded random game to its end, then say how
    often each event kind and each phase (``phase:NAME``) happened in it."""
    # The cheap invariants after every action, all of them every 37 actions, the rounds and the
    # replay; a failure prints the game, shrunk, as a replay to paste into a test.
    violation, length = play_checked_game(rules, players, seed, max_actions=200_000, deep_every=37)
    assert violation is None, violation.format()
    # The toolkit's random play of the same seed plays the same game again, to count what happened.
    seen: Counter[str] = Counter()

    def count(state: GameState) -> None:
        seen.update(e.kind for e in state.events)
        seen[f"phase:{state.phase.name}"] += 1

    end, actions = play_randomly(
        rules.new_game(players, seed=seed), random.Random(seed), max_actions=length, each=count
    )
    assert end.is_over
    assert len(actions) == length
    assert end.winner is not None
    with pytest.raises(IllegalActionError):
        end.apply(actions[-1])
    return seen


BINDINGS = [
    ("draw-until-color", "discard-wilds", "discard-specials", "phase:draw-color"),
    ("cannot-play-draw-3", "extra-turn", "next-to-7", "phase:discard"),
    ("all-to-3", "open-hands", "joke", "phase:keep"),
    ("stiff-elbows", "crow-or-draw-4", "crow-and-draw-4", "phase:rooster"),
]


@pytest.mark.parametrize(("players", "bindings"), list(zip((2, 3, 4, 6), BINDINGS, strict=True)))
def test_random_games_with_every_ready_effect_keep_the_invariants(
    players: int, bindings: tuple[str, str, str, str]
) -> None:
    options: dict[str, Any] = {f"custom_wild_{i}": name for i, name in enumerate(bindings[:3], 1)}
    rules = Ruleset.from_names(["classic", "custom-wilds"], options={"target_score": 250, **options})
    seen = happenings(rules, players, seed=players)
    assert seen["custom-wild"] > 0
    assert seen[bindings[3]] > 0


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 12)])
def test_random_games_with_all_four_plugins_together_keep_the_invariants(players: int, seed: int) -> None:
    rules = Ruleset.from_names(
        ["classic", "swap-hands", "shuffle-hands", "custom-wilds", "blank-cards"],
        options={
            "target_score": 250,
            "with_swap_hands": True,
            "custom_wild_1": "open-hands",
            "custom_wild_2": "all-to-3",
            "custom_wild_3": "joke",
            "blank_cards": "house-rule W aside",
        },
    )
    assert len(rules.deck) == 108 + 1 + 1 + 3 + 2
    seen = happenings(rules, players, seed)
    for kind in ("swap-hands", "shuffle-hands", "custom-wild"):
        assert seen[kind] > 0, kind

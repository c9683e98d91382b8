"""The action space: built from declarations only, canonical, seat-relative, pinned by golden files.

Regenerate the golden files after a deliberate layout change (and bump
ACTION_SPACE_VERSION): ``.venv/bin/python tests/rl/test_spaces.py``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

import unorules
from unorules import Action, Plugin, Ruleset, register_verb
from unorules.rl import ACTION_SPACE_VERSION, NOOP, ActionSpace, ActionSpaceError

sys.path.insert(0, str(Path(__file__).parent))
from rl_cases import HOUSE, HOUSE_OPTIONS

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "classic-2p": (["classic"], {}, 2),
    "classic-4p": (["classic"], {}, 4),
    "house-4p": (HOUSE, HOUSE_OPTIONS, 4),
}


def golden_text(space: ActionSpace) -> str:
    lines = [
        f"# unorules action space v{space.version}: {','.join(space.ruleset.names)}, "
        f"{space.players} players, {space.n} indices"
    ]
    lines += [f"{i}\t{space.describe(i)}" for i in range(space.n)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_layout(name: str) -> None:
    names, options, players = CASES[name]
    space = ActionSpace(Ruleset.from_names(names, options), players)
    expected = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    assert golden_text(space) == expected, (
        "the action-space layout changed: bump ACTION_SPACE_VERSION and regenerate the golden files "
        "with: .venv/bin/python tests/rl/test_spaces.py"
    )


def test_classic_layout_in_words() -> None:
    space = ActionSpace(Ruleset.from_names(["classic"]), 4)
    assert space.version == ACTION_SPACE_VERSION == 1
    assert space.describe(NOOP) == "noop"
    described = [space.describe(i) for i in range(space.n)]
    # 52 coloured cards, then W and W+4 in four colours each; then the other verbs.
    assert described[1:4] == ["play R0", "play R1", "play R2"]
    assert described[53:61] == [f"play {w} {c}" for w in ("W", "W+4") for c in "RYGB"]
    assert described[61:] == [
        "draw",
        "pass",
        "uno",
        "catch +1",
        "catch +2",
        "catch +3",
        "challenge",
        "accept",
        "color R",
        "color Y",
        "color G",
        "color B",
    ]


def test_targets_are_seat_relative() -> None:
    space = ActionSpace(Ruleset.from_names(["classic"]), 4)
    catch_next = space.describe(space.index(Action.parse("1: catch 2"), 1))
    assert catch_next == "catch +1"
    assert space.index(Action.parse("3: catch 0"), 3) == space.index(Action.parse("1: catch 2"), 1)
    assert space.action(space.index(Action.parse("2: catch 1"), 2), 2) is Action.parse("2: catch 1")
    rules = Ruleset.from_names(["classic", "seven-o"])
    space7 = ActionSpace(rules, 3)
    i = space7.index(Action.parse("2: play R7 0"), 2)
    assert space7.describe(i) == "play R7 +1"
    assert space7.action(i, 0) is Action.parse("0: play R7 1")


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_index_round_trips_for_every_seat(name: str) -> None:
    names, options, players = CASES[name]
    space = ActionSpace(Ruleset.from_names(names, options), players)
    for seat in range(players):
        assert space.action(NOOP, seat) is None
        for i in range(1, space.n):
            action = space.action(i, seat)
            assert action is not None
            assert action.seat == seat
            assert space.index(action, seat) == i


def test_bad_input_is_refused_clearly() -> None:
    space = ActionSpace(Ruleset.from_names(["classic"]), 2)
    with pytest.raises(ActionSpaceError, match="seat 1's action, not seat 0's"):
        space.index(Action.parse("1: draw"), 0)
    with pytest.raises(ActionSpaceError, match="not in the action space"):
        space.index(Action.parse("0: catch 5"), 0)
    with pytest.raises(ActionSpaceError, match=r"outside 0\.\.70"):
        space.action(71, 0)
    with pytest.raises(ActionSpaceError, match="no seat 2"):
        space.action(1, 2)
    with pytest.raises(ActionSpaceError, match="players must be 2 to 10"):
        ActionSpace(Ruleset.from_names(["classic"]), 11)
    assert isinstance(ActionSpaceError("x"), unorules.UnorulesError)


register_verb("rl_test_wave", target="required", doc="a verb only the test plugin declares")


class _Waves(Plugin):
    name = "rl-test-waves"
    api_version = 2
    requires = ("classic",)
    verbs: ClassVar[Mapping[str, str]] = {"rl_test_wave": "turn"}


def test_the_space_comes_from_the_rule_set_not_from_what_is_installed() -> None:
    # A verb registered (installed) but not declared by the rule set changes nothing...
    classic = ActionSpace(Ruleset.from_names(["classic"]), 3)
    assert "rl_test_wave" not in {e[0] for e in classic.entries}
    assert classic.n == 72  # classic for 2 players (71) and one more catch target
    # ...and a plugin that declares it adds its block after every core verb, the rest unchanged.
    waves = ActionSpace(Ruleset.from_names(["classic"], plugins=[_Waves()]), 3)
    assert waves.entries[: classic.n] == classic.entries
    assert [waves.describe(i) for i in range(classic.n, waves.n)] == ["rl_test_wave +1", "rl_test_wave +2"]


PLAYED = [
    (["classic"], {}, 2),
    (["classic"], {"challenger": "anyone"}, 4),
    (["classic", "stacking", "seven-o", "jump-in"], {}, 4),
    (HOUSE, HOUSE_OPTIONS, 3),
    (["classic", "swap-hands", "shuffle-hands", "custom-wilds"], {"with_swap_hands": "on"}, 3),
    (["classic", "partners", "penalties"], {"enforcement": "table"}, 4),
    (["classic", "elimination"], {}, 3),
]


@pytest.mark.parametrize(("names", "options", "players"), PLAYED)
def test_masks_are_the_legal_actions_in_random_games(
    names: list[str], options: dict[str, object], players: int
) -> None:
    rules = Ruleset.from_names(names, options)
    space = ActionSpace(rules, players)
    rng = random.Random(7)
    for seed in range(2):
        state = rules.new_game(players=players, seed=seed)
        for _ in range(400):
            if state.is_over:
                break
            current = state.current_player
            current_acts = bool(state.legal_actions(current))
            for seat in range(players):
                mask = space.mask(state, seat)
                assert mask.dtype == np.int8
                assert mask.shape == (space.n,)
                legal = set(state.legal_actions(seat))
                chosen = {space.action(i, seat) for i in np.flatnonzero(mask) if i != NOOP}
                assert chosen == legal
                assert mask[NOOP] == (seat != current and current_acts)
            state = state.apply(rng.choice(state.legal_actions()))


def test_mask_fills_a_given_array() -> None:
    rules = Ruleset.from_names(["classic"])
    space = ActionSpace(rules, 2)
    state = rules.new_game(players=2, seed=3)
    out = np.ones(space.n, dtype=np.int8)
    assert space.mask(state, state.current_player, out=out) is out
    assert out.sum() == len(state.legal_actions(state.current_player))


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for case, (names, options, players) in CASES.items():
        space = ActionSpace(Ruleset.from_names(names, options), players)
        (GOLDEN / f"{case}.txt").write_text(golden_text(space), encoding="utf-8")
        print(f"wrote {case}.txt ({space.n} indices)")

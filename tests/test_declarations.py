"""What plugins declare (verbs and who may use them, phases, extras, events)
matches what they do.

Random seeded games over every shipped plugin (and large combinations) check
that every phase a state is in, every verb a legal action uses, every
out-of-turn action, every extras key and every event kind is declared by some
plugin of the rule set: the RL action space, the observation's phase one-hot,
state validation and the views are all built from these declarations.
"""

from __future__ import annotations

import random

import pytest

import unorules
from unorules import PhaseSpec, Plugin, Ruleset, RulesetError, TestHints, hookimpl
from unorules.plugin import DECLARATIONS, VERSION_1_DECLARATIONS

HOUSE = ["classic", "stacking", "seven-o", "jump-in", "swap-hands", "custom-wilds", "blank-cards"]
COMBINATIONS = [
    (["classic"], {}),
    (HOUSE, {"customizable_wilds": 3, "blank_cards": "R0 house-rule"}),
    (["classic", "shuffle-hands", "penalties", "partners"], {"enforcement": "table"}),
    (["classic", "penalties", "stacking"], {}),
    (["classic", "jump-in", "elimination"], {}),
    (["classic", "custom-wilds"], {"customizable_wilds": 3, "custom_wild_1": "discard-specials"}),
]


def _play(rules: Ruleset, players: int, seed: int, steps: int = 1500) -> None:
    state = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        assert state.phase.name in rules.phases, f"phase {state.phase.name!r} is declared by no plugin"
        for action in state.legal_actions():
            assert action.verb in rules.verbs, f"verb of {action} is declared by no plugin"
            if action.seat != state.current_player:
                assert action.verb in rules.out_of_turn_verbs, f"{action} is out of turn but not declared so"
        for key, _ in state.extras:
            assert key in rules.extras, f"extras key {key!r} is declared by no plugin"
        for event in state.events:
            assert event.kind in rules.events, f"event kind {event.kind!r} is declared by no plugin"
        action = rng.choice(state.legal_actions())
        state = state.apply(action)


@pytest.mark.parametrize(("names", "options"), COMBINATIONS)
def test_declarations_cover_what_plugins_do(names: list[str], options: dict[str, object]) -> None:
    rules = Ruleset.from_names(names, options)
    players = 4 if "partners" in names else 3
    for seed in range(3):
        _play(rules, players, seed)


def test_ruleset_gathers_declarations() -> None:
    rules = Ruleset.from_names(["classic", "jump-in", "custom-wilds"])
    assert rules.phase_owners["drawn"] == "classic"
    assert rules.phase_owners["rooster"] == "custom-wilds"
    assert rules.phases["penalty"].empty_hand is False
    assert {"play", "draw", "uno", "crow"} <= set(rules.verbs)
    assert "jump-in" in rules.public_extras
    assert rules.verbs.index("play") == 0  # registration order: classic first


class _Twice(Plugin):
    name = "declares-drawn"
    api_version = 2
    requires = ("classic",)
    phases = (PhaseSpec("drawn"),)


class _NotASpec(Plugin):
    name = "declares-a-string"
    api_version = 2
    requires = ("classic",)
    phases = ("mine",)  # type: ignore[assignment]


def test_two_plugins_cannot_own_one_phase() -> None:
    with pytest.raises(RulesetError, match="both declare phase 'drawn'"):
        Ruleset.from_names(["classic"], plugins=[_Twice()])


def test_a_phase_is_declared_with_phasespec() -> None:
    with pytest.raises(RulesetError, match=r"use unorules\.PhaseSpec"):
        Ruleset.from_names(["classic"], plugins=[_NotASpec()])


def test_plugin_defaults() -> None:
    plugin = Plugin()
    assert (plugin.name, plugin.rules, plugin.requires, plugin.conflicts) == ("", (), (), {})
    assert (plugin.options, plugin.verbs, plugin.phases, plugin.events, plugin.extras) == ((), {}, (), (), ())
    assert plugin.hookspecs is None
    assert plugin.testing == TestHints()
    # A plugin says which version it is written against: one that does not is
    # taken for a version 1 plugin (and refused, see test_plugin_api_v2.py).
    assert plugin.api_version == 1 < unorules.PLUGIN_API_VERSION == 2
    # The base class declares exactly the twelve declarations, and none of version 1.
    public = {name for name in vars(Plugin) if not name.startswith("_")}
    assert public == set(DECLARATIONS)
    assert len(DECLARATIONS) == 12
    assert not any(hasattr(plugin, name) for name in VERSION_1_DECLARATIONS)


def test_teams_come_from_the_plugin_that_groups_seats() -> None:
    assert Ruleset.from_names(["classic"]).teams(3) == ((0,), (1,), (2,))
    assert Ruleset.from_names(["classic", "partners"]).teams(4) == ((0, 2), (1, 3))


class _BadTeams(Plugin):
    name = "bad-teams"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        return ((0, 1),)


def test_teams_must_cover_every_seat_once() -> None:
    with pytest.raises(RulesetError, match="do not cover each of the 3 seats"):
        Ruleset.from_names(["classic"], plugins=[_BadTeams()]).teams(3)

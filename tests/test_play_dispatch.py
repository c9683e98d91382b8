"""``on_play`` dispatched by card kind (``Plugin.play_kinds``) against plain pluggy.

A rule set compiles one ``on_play`` caller per card kind of its deck, asking
only the plugins that claimed the kind (or every card). That is an
optimisation, not a change of rules: for every state of random games of
random plugin subsets, applying the chosen action with the compiled per-kind
callers gives the state that ``ruleset.hook.on_play`` through pluggy, with
every implementation, gives.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

from unorules import (
    PLAY,
    Action,
    ByOption,
    GameState,
    Phase,
    Plugin,
    Ruleset,
    RulesetError,
    hookimpl,
    installed_plugins,
)
from unorules.testing import plain_dispatch
from unorules.testing.conformance import option_variant
from unorules.testing.strategies import supported_players

SHIPPED = sorted(n for n in installed_plugins() if n != "classic" and not n.startswith("draw-until"))


def _subset(rng: random.Random) -> Ruleset | None:
    extra = rng.sample(SHIPPED, rng.randint(1, min(6, len(SHIPPED))))
    try:
        built = Ruleset.from_names(["classic", *extra])
    except RulesetError:
        return None
    try:
        return Ruleset.from_names(
            built.names, {**built.spec()["options"], **option_variant(built, str(extra))}
        )
    except RulesetError:
        return built


@pytest.mark.parametrize("seed", range(12))
def test_per_kind_dispatch_matches_pluggy_state_by_state(seed: int) -> None:
    rng = random.Random(seed)
    rules = None
    while rules is None:
        rules = _subset(rng)
    players = rng.choice(supported_players(rules))
    state = rules.new_game(players, seed=seed)
    plays = 0
    for _ in range(400):
        legal = state.legal_actions()
        if not legal:
            break
        cards = [a for a in legal if a.card is not None and a.verb == "play"]
        action = rng.choice(cards if cards and rng.random() < 0.8 else legal)
        compiled = state.apply(action)
        # Every on_play implementation asked through pluggy, on the hook path.
        expected = state.replace(ruleset=plain_dispatch(rules)).apply(action)
        assert compiled == expected, (rules.spec_text, seed, str(action))
        plays += action.verb == "play"
        state = compiled
    assert plays > 20, (rules.spec_text, plays)


class _Logs(Plugin):
    """Logs its on_play calls; claims some kinds."""

    log: ClassVar[list[str]] = []

    def __init__(self, name: str, kinds: frozenset[str] | None, phases: Any = None) -> None:
        self.name = name  # type: ignore[misc]
        self.play_kinds = kinds  # type: ignore[misc]
        self.play_phases = phases  # type: ignore[misc]
        self.requires = ("classic",)  # type: ignore[misc]

    @hookimpl(tryfirst=True)
    def on_play(self, state: GameState, action: Action, previous: GameState) -> GameState | None:
        _Logs.log.append(self.name)
        return None


def test_a_play_asks_only_the_plugins_that_claimed_its_kind_in_pluggy_order() -> None:
    plugins = [_Logs("every-card", None), _Logs("sevens", frozenset({"7"})), _Logs("skips", frozenset({"S"}))]
    rules = Ruleset.from_names(["classic"], plugins=plugins)
    state = rules.new_game(3, seed=1)
    seven = next(c for c in rules.deck if c.kind == "7")
    action = Action.of(0, "play", seven)
    _Logs.log.clear()
    rules.play_effect(state, action, state)
    compiled = list(_Logs.log)
    _Logs.log.clear()
    rules.hook.on_play(state=state, action=action, previous=state)
    assert compiled == [n for n in _Logs.log if n != "skips"]
    assert sorted(compiled) == ["every-card", "sevens"]


@pytest.mark.parametrize("kinds", ["7", ["7", 0], 7])
def test_play_kinds_must_be_a_set_of_kinds(kinds: Any) -> None:
    with pytest.raises(RulesetError, match="play_kinds"):
        Ruleset.from_names(["classic"], plugins=[_Logs("bad", kinds)])


def test_a_play_asks_only_the_plugins_that_claimed_its_phase_too() -> None:
    plugins = [
        _Logs("sevens-on-draws", frozenset({"7"}), frozenset({"penalty"})),
        _Logs("every-card-drawn", None, frozenset({"drawn", "penalty"})),
        _Logs("sevens", frozenset({"7"})),
    ]
    rules = Ruleset.from_names(["classic"], plugins=plugins)
    # (pluggy's order: the rule set registers plugins by name, the last asked first)
    assert rules.play_claimants("7") == ("sevens-on-draws", "sevens", "every-card-drawn", "classic")
    assert rules.play_claimants("7", "play") == ("sevens", "classic")
    assert rules.play_claimants("7", "drawn") == ("sevens", "every-card-drawn", "classic")
    assert rules.play_claimants("5", "penalty") == ("every-card-drawn", "classic")
    state = rules.new_game(3, seed=1)
    seven = next(c for c in rules.deck if c.kind == "7")
    action = Action.of(0, "play", seven)
    asked = {}
    for phase in ("play", "drawn", "penalty"):
        before = state.replace(phase=Phase(phase, 2, seven, 0) if phase != "play" else PLAY)
        _Logs.log.clear()
        rules.play_effect(state, action, before)  # the phase of ``previous`` decides
        asked[phase] = list(_Logs.log)
        _Logs.log.clear()
        rules.hook.on_play(state=state, action=action, previous=before)  # pluggy asks every one
        assert asked[phase] == [n for n in _Logs.log if n in rules.play_claimants("7", phase)]
    assert asked == {
        "play": ["sevens"],
        "drawn": ["sevens", "every-card-drawn"],
        "penalty": ["sevens-on-draws", "sevens", "every-card-drawn"],
    }
    # A rule set in which nobody declares phases keeps one caller per kind.
    assert rules._play_by_phase is not None
    assert Ruleset.from_names(["classic"], plugins=plugins[2:])._play_by_phase is None


@pytest.mark.parametrize("phases", ["penalty", ["penalty", 0], 7])
def test_play_phases_must_be_a_set_of_phases(phases: Any) -> None:
    with pytest.raises(RulesetError, match="play_phases"):
        Ruleset.from_names(["classic"], plugins=[_Logs("bad", frozenset({"7"}), phases)])


def test_play_phases_by_option() -> None:
    # stacking: its on_play acts on draw cards played on a stack only.
    rules = Ruleset.from_names(["classic", "stacking"])
    assert rules.play_claimants("+2", "play") == ("classic",)
    assert rules.play_claimants("+2", "penalty") == ("stacking", "classic")
    narrow = _Logs("narrow", frozenset({"7"}), ByOption("challenge", {False: frozenset({"penalty"})}))
    on = Ruleset.from_names(["classic"], plugins=[narrow])
    off = Ruleset.from_names(["classic"], {"challenge": False}, plugins=[narrow])
    assert on.play_claimants("7", "play") == ("narrow", "classic")
    assert off.play_claimants("7", "play") == ("classic",)
    assert off.play_claimants("7", "penalty") == ("narrow", "classic")


def test_play_effect_needs_a_card() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(2, seed=1)
    with pytest.raises(ValueError, match="needs a play with a card"):
        rules.play_effect(state, Action.of(0, "draw"), state)

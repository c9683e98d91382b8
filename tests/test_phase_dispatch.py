"""``legal_actions`` by phase (``Plugin.legal_phases``), ``apply_action`` by
verb (``Plugin.apply_verbs``), ``on_play`` by card kind and the direct
appliers with their wrappers, against plain pluggy.

A rule set whose plugins narrow these hooks compiles one ``legal_actions``
caller per phase and one ``apply_action`` caller per verb, asking only the
plugins that declared the phase or the verb (or left the declaration at
``None``). That is an optimisation, not a change of rules: for every state of
random games of random plugin subsets, the legal actions and the state after
the chosen action are those that ``ruleset.hook`` through pluggy, with every
implementation, gives.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

from unorules import (
    Action,
    ByOption,
    GameState,
    Option,
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
# The shipped plugins that declare legal_phases or apply_verbs.
NARROWING = ("custom-wilds", "penalties", "stacking")


def _plain(state: GameState) -> GameState:
    """``state`` under :func:`~unorules.testing.plain_dispatch`: every
    legal_actions, apply_action and on_play call through pluggy with every
    implementation, and no action applied by a direct applier
    (``Plugin.direct_appliers`` and their wrappers)."""
    return state.replace(ruleset=plain_dispatch(state.ruleset))


def _subset(rng: random.Random) -> Ruleset | None:
    extra = {rng.choice(NARROWING), *rng.sample(SHIPPED, rng.randint(0, min(5, len(SHIPPED))))}
    try:
        built = Ruleset.from_names(["classic", *sorted(extra)])
    except RulesetError:
        return None
    try:
        return Ruleset.from_names(
            built.names, {**built.spec()["options"], **option_variant(built, str(sorted(extra)))}
        )
    except RulesetError:
        return built


@pytest.mark.parametrize("seed", range(16))
def test_phase_and_verb_dispatch_match_pluggy_state_by_state(seed: int) -> None:
    rng = random.Random(seed)
    rules = None
    while rules is None or (rules._legal_callers is None and rules._apply_callers is None):
        rules = _subset(rng)
    players = rng.choice(supported_players(rules))
    state = rules.new_game(players, seed=seed)
    phases: set[str] = set()
    for _ in range(600):
        fresh = state.replace()  # no legal actions cached
        legal = fresh.legal_actions()
        assert legal == _plain(state).legal_actions(), (rules.spec_text, seed)
        if not legal:
            break
        phases.add(state.phase.name)
        plays = [a for a in legal if a.verb == "play"]
        action = rng.choice(plays if plays and rng.random() < 0.7 else legal)
        compiled = state.apply(action)
        expected = _plain(state).apply(action)
        assert compiled == expected, (rules.spec_text, seed, str(action))
        state = compiled
    assert len(phases) > 1, (rules.spec_text, phases)


def _every_subset() -> list[tuple[str, ...]]:
    """Every set of shipped plugins that builds with classic (modes included)."""
    found = []
    for size in range(len(SHIPPED) + 1):
        for extra in itertools.combinations(SHIPPED, size):
            try:
                Ruleset.from_names(["classic", *extra])
            except RulesetError:
                continue
            found.append(extra)
    return found


@pytest.mark.slow
def test_every_plugin_subset_matches_pluggy_state_by_state() -> None:
    """Every buildable subset of the shipped plugins, each with options drawn
    for it: 120 actions of a seeded game, the legal actions and each next
    state from the compiled callers and direct appliers equal to plain
    pluggy's."""
    subsets = _every_subset()
    assert len(subsets) > 200  # the shipped plugins combine widely
    for index, extra in enumerate(subsets):
        built = Ruleset.from_names(["classic", *extra])
        try:
            rules = Ruleset.from_names(built.names, option_variant(built, index))
        except RulesetError:
            rules = built
        rng = random.Random(index)
        state = rules.new_game(rng.choice(supported_players(rules)), seed=index)
        for _ in range(120):
            legal = state.replace().legal_actions()
            assert legal == _plain(state).legal_actions(), rules.spec_text
            if not legal:
                break
            action = rng.choice(legal)
            fast = state.replace().apply(action)
            assert fast == _plain(state).apply(action), (rules.spec_text, str(action))
            state = fast


class _Logs(Plugin):
    """Logs its legal_actions and apply_action calls; narrows them as told."""

    log: ClassVar[list[str]] = []

    def __init__(self, name: str, phases: Any = None, verbs: Any = None) -> None:
        self.name = name  # type: ignore[misc]
        self.legal_phases = phases  # type: ignore[misc]
        self.apply_verbs = verbs  # type: ignore[misc]
        self.requires = ("classic",)  # type: ignore[misc]

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        _Logs.log.append(f"legal {self.name}")
        return ()

    @hookimpl(tryfirst=True)
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        _Logs.log.append(f"apply {self.name}")
        return None


def _logged(plugins: list[_Logs]) -> tuple[list[str], list[str]]:
    """The calls of a state's legal_actions and of applying its first action:
    compiled, then through pluggy."""
    rules = Ruleset.from_names(["classic"], plugins=plugins)
    state = rules.new_game(3, seed=1)
    _Logs.log.clear()
    state.replace().apply(state.replace().legal_actions()[0])
    compiled = list(_Logs.log)
    _Logs.log.clear()
    _plain(state).apply(_plain(state).legal_actions()[0])
    return compiled, list(_Logs.log)


def test_only_the_plugins_that_declared_the_phase_or_verb_are_asked_in_pluggy_order() -> None:
    plugins = [
        _Logs("every-phase"),
        _Logs("penalty-only", phases=frozenset({"penalty"})),
        _Logs("play-phase", phases=frozenset({"play"}), verbs=frozenset({"catch"})),
        _Logs("plays", verbs=frozenset({"play", "draw"})),
    ]
    compiled, plain = _logged(plugins)
    assert compiled == [entry for entry in plain if entry not in ("legal penalty-only", "apply play-phase")]
    assert {"legal play-phase", "apply plays", "apply every-phase"} <= set(compiled)


def test_without_declarations_every_implementation_is_asked() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[_Logs("a"), _Logs("b")])
    assert (rules._legal_callers, rules._apply_callers) == (None, None)
    compiled, plain = _logged([_Logs("a"), _Logs("b")])
    assert compiled == plain


@pytest.mark.parametrize("attribute", ["legal_phases", "apply_verbs"])
@pytest.mark.parametrize("value", ["play", ["play", 0], 7])
def test_declarations_must_be_sets_of_names(attribute: str, value: Any) -> None:
    plugin = _Logs("bad", **{"phases" if attribute == "legal_phases" else "verbs": value})
    with pytest.raises(RulesetError, match=attribute):
        Ruleset.from_names(["classic"], plugins=[plugin])


def test_shipped_plugins_narrow_their_hooks() -> None:
    plugins = installed_plugins()
    assert plugins["stacking"].legal_phases == frozenset({"penalty", "challenge"})
    assert "play" not in (plugins["custom-wilds"].legal_phases or {"play"})
    assert plugins["penalties"].apply_verbs == frozenset({"catch_play", "catch_coach", "accept"})
    strict = Ruleset.from_names(["classic", "penalties"])
    table = Ruleset.from_names(["classic", "penalties"], {"enforcement": "table"})
    assert strict.play_claimants("5") == ("classic",)  # strict: no illegal play to record
    assert table.play_claimants("5") == ("penalties", "classic")
    assert (Plugin.legal_phases, Plugin.apply_verbs) == (None, None)


def test_a_declaration_by_option_is_looked_up_once_per_rule_set() -> None:
    by_option = ByOption("drawn_card", {"must-play": frozenset({"play"})}, default=frozenset({"penalty"}))
    keep = Ruleset.from_names(["classic"], plugins=[_Logs("narrow", phases=by_option)])
    must = Ruleset.from_names(
        ["classic"], {"drawn_card": "must-play"}, plugins=[_Logs("narrow", phases=by_option)]
    )
    assert keep._legal_phases["narrow"] == frozenset({"penalty"})
    assert must._legal_phases["narrow"] == frozenset({"play"})
    everyone = ByOption("drawn_card", {"must-play": frozenset()})
    assert Ruleset.from_names(["classic"], plugins=[_Logs("n", verbs=everyone)])._apply_verbs["n"] is None


def test_a_declaration_by_an_option_with_an_unhashable_value_gives_its_default() -> None:
    class _Listy(_Logs):
        options = (Option("listy", ["a"]),)

    plugin = _Listy("listy", phases=ByOption("listy", {"a": frozenset()}, default=frozenset({"play"})))
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    assert rules._legal_phases["listy"] == frozenset({"play"})


def test_a_declaration_by_an_unknown_option_is_refused() -> None:
    with pytest.raises(RulesetError, match="declares apply_verbs by option 'nonsense'"):
        Ruleset.from_names(["classic"], plugins=[_Logs("bad", verbs=ByOption("nonsense", {}))])

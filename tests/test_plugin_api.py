"""The public plugin API: a wrapper around the rest of a hook chain, an
``apply_action`` that prepares the draft for the next plugin, per-rule-set
data, the typed declarations the rule set gathers, and a check that no
shipped plugin reaches into the core's privates. (What plugin API version 2
refuses, the draft's mechanics and every hook's contract: see
``test_plugin_api_v2.py`` and ``test_hook_contracts.py``.)"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

import unorules
from unorules import (
    Action,
    Card,
    Draft,
    Event,
    EventSpec,
    ExtraSpec,
    GameState,
    PhaseSpec,
    Plugin,
    Ruleset,
    RulesetError,
    TestHints,
    hookimpl,
)
from unorules.testing.invariants import round_bound

ROOT = Path(__file__).resolve().parent.parent


class Marks(Plugin):
    """A wrapper around on_play that adds an event once the rest of the chain applied the card."""

    name = "marks"
    api_version = 2
    requires = ("classic",)
    events = (EventSpec("marked", "a card was played and marked", (("seat", "who played"),)),)

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl(wrapper=True)
    def on_play(self, draft: Draft, action: Action) -> Generator[None, bool | None, bool | None]:
        self.calls += 1
        done = yield  # classic applies the card's effect
        if done:
            draft.add_event(Event("marked", action.seat, (), None, "after the rest"))
        return done


def _play(state: GameState) -> Action:
    return next(a for a in state.legal_actions() if a.verb == "play" and a.seat == state.current_player)


def test_a_wrapper_sees_the_rest_of_the_chain_once_and_adds_to_the_draft() -> None:
    marks = Marks()
    rules = Ruleset.from_names(["classic"], plugins=[marks])
    plain = Ruleset.from_names(["classic"])
    state = rules.new_game(players=3, seed=2)
    action = _play(state)
    after = state.apply(action)
    assert marks.calls == 1
    assert [e.kind for e in after.events][-1] == "marked"
    # Without the plugin, the same play gives the same state but for that event.
    expected = plain.new_game(players=3, seed=2).apply(action)
    assert after.events[:-1] == expected.events
    assert after.replace(events=expected.events, ruleset=plain) == expected


class Counts(Plugin):
    """An apply_action that counts every play in an extra and leaves the play to classic."""

    name = "counts"
    api_version = 2
    requires = ("classic",)
    extras = (ExtraSpec("counts.plays", "plays so far", public=True),)

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> None:
        if action.verb == "play":
            draft.set_extra("counts.plays", (draft.extra("counts.plays") or 0) + 1)


def test_an_apply_action_returning_none_prepares_the_draft_for_the_next_plugin() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[Counts()])
    plain = Ruleset.from_names(["classic"])
    state = rules.new_game(players=3, seed=2)
    action = _play(state)
    after = state.apply(action)
    assert after.extra("counts.plays") == 1
    expected = plain.new_game(players=3, seed=2).apply(action)  # classic still played the card
    assert after.replace(extras=(), ruleset=plain) == expected
    drawn = after.apply(next(a for a in after.legal_actions() if a.verb == "draw"))
    assert drawn.extra("counts.plays") == 1


def test_cached_works_a_value_out_once_per_rule_set() -> None:
    rules = Ruleset.from_names(["classic", "stacking"])
    calls: list[Ruleset] = []

    def compute(r: Ruleset) -> int:
        calls.append(r)
        return len(r.deck)

    key = ("test_plugin_api", "deck size")
    assert rules.cached(key, compute) == rules.cached(key, compute) == 108
    assert calls == [rules]
    assert rules.cache[key] == 108


register = unorules.register_verb
register("plugin_api_ponder", doc="a verb of a test plugin")
register("plugin_api_shout", doc="a verb of a test plugin anyone may use")


class Declares(Plugin):
    name = "declares"
    api_version = 2
    requires = ("classic",)
    verbs: ClassVar[Mapping[str, str]] = {"plugin_api_ponder": "turn", "plugin_api_shout": "any"}
    phases = (PhaseSpec("pondering", "think before playing"),)
    events = (EventSpec("pondered", "a seat thought", (("seat", "who"), ("data.minutes", "how long"))),)
    extras = (ExtraSpec("declares.secret", "hidden"), ExtraSpec("declares.public", "shown", public=True))
    testing = TestHints(max_round_actions=10**7)

    # The hook under another method name (pluggy's specname).
    @hookimpl(specname="set_aside_cards")
    def aside(self, state: GameState) -> Iterable[Card]:
        return (Card.parse("R1"),)


def test_the_rule_set_gathers_typed_declarations() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[Declares()])
    assert rules.verbs[0] == "play"  # registration order: classic first
    assert rules.verbs[-2:] == ("plugin_api_ponder", "plugin_api_shout")
    assert "plugin_api_ponder" in rules.turn_verbs - rules.out_of_turn_verbs
    assert "plugin_api_shout" in rules.out_of_turn_verbs - rules.turn_verbs
    assert rules.phases["pondering"] == PhaseSpec("pondering", "think before playing")
    assert rules.phase_owners["pondering"] == "declares"
    assert rules.phase_owners["drawn"] == "classic"
    assert rules.events["pondered"].fields == (("seat", "who"), ("data.minutes", "how long"))
    assert rules.event_owners["pondered"] == "declares"
    assert rules.event_owners["draw"] == "core"
    assert set(rules.extras) >= {"declares.secret", "declares.public"}
    assert rules.extras_owners["declares.secret"] == "declares"
    assert "declares.public" in rules.public_extras
    assert "declares.secret" not in rules.public_extras
    assert round_bound(rules, players=4) == 10**7
    assert rules.set_aside_cards(rules.new_game(players=2, seed=0)) == (Card.parse("R1"),)
    plain = Ruleset.from_names(["classic"])
    assert plain.set_aside_cards(plain.new_game(players=2, seed=0)) == ()
    assert round_bound(plain, players=4) < 10**7
    longer = Ruleset.from_names(["classic"], plugins=[_declaring(testing=TestHints(round_length_factor=3.0))])
    assert round_bound(longer, players=4) == 3 * round_bound(plain, players=4)
    assert not {"plugin_api_ponder", "plugin_api_shout"} & (plain.turn_verbs | plain.out_of_turn_verbs)


def _declaring(**declarations: Any) -> Plugin:
    plugin: Plugin = type(
        "Declaring",
        (Plugin,),
        {"name": "declaring", "api_version": 2, "requires": ("classic",), **declarations},
    )()
    return plugin


@pytest.mark.parametrize(
    ("declarations", "message"),
    [
        (
            {"verbs": ("plugin_api_ponder",)},
            "declares verbs .*: use a mapping of each verb to who may use it",
        ),
        (
            {"verbs": {"plugin_api_ponder": "sometimes"}},
            "verb 'plugin_api_ponder' for 'sometimes': say who may",
        ),
        ({"phases": ("pondering",)}, r"declares phase 'pondering': use unorules\.PhaseSpec"),
        ({"phases": (PhaseSpec("drawn"),)}, "plugins 'classic' and 'declaring' both declare phase 'drawn'"),
        ({"events": ("pondered",)}, r"declares event 'pondered': use unorules\.EventSpec"),
        ({"events": (EventSpec("draw", "mine"),)}, "'core' and 'declaring' both declare event kind 'draw'"),
        ({"extras": ("declaring.x",)}, r"declares extra 'declaring.x': use unorules\.ExtraSpec"),
        ({"testing": {"max_round_actions": 9}}, r"declares testing .*: use unorules\.TestHints"),
    ],
    ids=lambda v: "" if isinstance(v, str) else "-".join(v),
)
def test_a_declaration_of_the_wrong_shape_is_refused_naming_it(
    declarations: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesetError, match=message):
        Ruleset.from_names(["classic"], plugins=[_declaring(**declarations)])


def test_two_plugins_cannot_own_one_extras_key() -> None:
    other = type(
        "Other", (Plugin,), {"name": "other", "api_version": 2, "extras": (ExtraSpec("declares.secret"),)}
    )()
    with pytest.raises(
        RulesetError, match=r"plugins 'declares' and 'other' both declare extras key 'declares\.secret'"
    ):
        Ruleset.from_names(["classic"], plugins=[Declares(), other])


def test_player_limits_are_public() -> None:
    assert (unorules.MIN_PLAYERS, unorules.MAX_PLAYERS) == (2, 10)
    with pytest.raises(RulesetError, match="players must be 2 to 10"):
        Ruleset.from_names(["classic"]).new_game(players=unorules.MAX_PLAYERS + 1)


_PER_ACTION_HOOKS = (
    "legal_actions|apply_action|explain_illegal|on_play|on_draw|after_action|visible_hands|score_round|"
    "on_round_end|game_outcome|on_starter"
)
_FORBIDDEN = {
    "a private name of the rule set": re.compile(r"\b(?:ruleset|rules)\._[a-z]"),
    "the plugin manager": re.compile(r"\.pm\b|subset_hook_caller"),
    "a per-action hook through pluggy": re.compile(rf"\.hook\.(?:{_PER_ACTION_HOOKS})\b"),
    "a table keyed by id()": re.compile(r"\[id\(|weakref"),
    "a private core module": re.compile(r"from unorules\.(?:ruleset|state|_hookcall) import _"),
}


def _plugin_sources() -> list[Path]:
    found = sorted(ROOT.glob("plugins/*/src/**/*.py")) + sorted(ROOT.glob("examples/*/src/**/*.py"))
    assert len(found) >= 12
    return found


@pytest.mark.parametrize("path", _plugin_sources(), ids=lambda p: p.parent.name)
def test_no_shipped_plugin_reaches_into_the_core(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    problems: list[Any] = []
    for what, pattern in _FORBIDDEN.items():
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{path.relative_to(ROOT)}:{line}: {what} ({match.group(0)!r})")
    assert not problems, "\n".join(problems)

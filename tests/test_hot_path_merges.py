"""Classic's merged copies on the hot path, and the core mechanics they use.

Classic applies a card's effect in the copy that plays it when its ``on_play``
is the only one a play of that kind asks (``Ruleset.play_claimants``), and
draws and passes the turn in one copy (``GameState.draw(..., **changes)``)
when no plugin watches draws (``Ruleset.watches_draws``). These are
optimisations, not changes of rules: state by state they give what the
general path (a copy per step, ``on_play`` through the rule set) gives.
"""

from __future__ import annotations

import random

import pytest
from unorules_classic import _OWN_KINDS, _OWN_KINDS_BY_PHASE, _own_kinds

from unorules import Action, Card, Event, GameState, Plugin, Ruleset, hookimpl
from unorules.testing.replay import play_randomly


def _games(rules: Ruleset, players: int, seed: int, actions: int = 600) -> list[tuple[GameState, Action]]:
    """Each state of a seeded random game and the action taken in it."""
    states = [rules.new_game(players, seed=seed)]
    _, taken = play_randomly(states[0], random.Random(seed), max_actions=actions, each=states.append)
    return list(zip(states[:-1], taken, strict=True))


@pytest.mark.parametrize(
    ("names", "options"),
    [
        (["classic"], {}),
        (["classic"], {"challenge": False, "drawn_card": "must-play"}),
        (["classic", "elimination"], {}),
        (["classic", "seven-o", "stacking"], {}),
        (["classic", "stacking"], {"stack_mix": True}),
        (["classic", "jump-in", "stacking"], {"jump_in_match": "color-or-number"}),
    ],
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_merged_copies_give_the_general_path_state_by_state(
    names: list[str], options: dict[str, object], players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Ruleset.from_names(names, options)
    rules.cache.pop(_OWN_KINDS, None)
    rules.cache.pop(_OWN_KINDS_BY_PHASE, None)
    steps = _games(rules, players, seed=players)
    fast = [state.replace().apply(action) for state, action in steps]
    with monkeypatch.context() as patch:
        patch.setattr(Ruleset, "watches_draws", property(lambda self: True))
        patch.setitem(rules.cache, _OWN_KINDS, frozenset())
        patch.setitem(rules.cache, _OWN_KINDS_BY_PHASE, dict.fromkeys(rules.phases, frozenset()))
        slow = [state.replace().apply(action) for state, action in steps]
    assert fast == slow
    verbs = {action.verb for _, action in steps}
    assert {"play", "draw"} <= verbs


def test_classic_owns_the_kinds_nobody_else_claims() -> None:
    rules = Ruleset.from_names(["classic", "seven-o"])
    assert rules.play_claimants("5") == ("classic",)
    assert rules.play_claimants("7") == ("seven-o", "classic")
    own = _own_kinds(rules)
    assert own >= {"5", "S", "R", "+2", "W", "W+4"}
    assert "7" not in own
    # jump-in sets a jump-in's turn flow up in apply_action: it claims no card's on_play.
    jump = Ruleset.from_names(["classic", "jump-in"])
    assert jump.play_claimants("5") == ("classic",)
    assert _own_kinds(jump) >= {"5", "S", "R", "+2", "W", "W+4"}
    # stacking's on_play acts on draw cards played on a stack only (play_phases).
    stacking = Ruleset.from_names(["classic", "stacking"])
    assert "+2" not in _own_kinds(stacking)
    assert {"+2", "W+4"} <= _own_kinds(stacking, "play") & _own_kinds(stacking, "drawn")
    assert not {"+2", "W+4"} & _own_kinds(stacking, "penalty")
    # A plugin whose on_play asks about every card (play_kinds None) keeps classic from merging.
    table = Ruleset.from_names(["classic", "penalties"], {"enforcement": "table"})
    assert table.play_claimants("5") == ("penalties", "classic")
    assert _own_kinds(table) == frozenset()


class _Watches(Plugin):
    """Watches draws: adds an event to every draw."""

    name = "watches-draws"
    requires = ("classic",)
    events = ()

    @hookimpl
    def on_draw(self, state: GameState, seat: int, cards: tuple[Card, ...], reason: str) -> GameState:
        return state.replace(stalled=state.stalled + 100)


@pytest.mark.parametrize("watched", [False, True])
def test_draw_with_changes_is_the_draw_then_replace(watched: bool) -> None:
    rules = Ruleset.from_names(["classic"], plugins=[_Watches()] if watched else [])
    assert rules.watches_draws is watched
    state = rules.new_game(3, seed=5)
    drawn, cards = state.draw(1, 2, "penalty")
    merged, same = state.draw(1, 2, "penalty", current_player=2, stalled=7)
    assert same == cards
    assert merged == drawn.replace(current_player=2, stalled=7)
    with pytest.raises(TypeError, match="no field 'nonsense'"):
        state.draw(1, 1, nonsense=1)


def test_a_draw_event_is_kept_with_changes() -> None:
    state = Ruleset.from_names(["classic"]).new_game(2, seed=3)
    merged, cards = state.draw(0, 1, "turn", current_player=1)
    assert merged.events[-1] == Event(
        "draw", 0, cards, None, "turn", True, count=1, data=(("reason", "turn"),)
    )

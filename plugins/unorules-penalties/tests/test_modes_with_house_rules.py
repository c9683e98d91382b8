"""Partners, elimination and penalties combined with the house rules and the special wilds.

Scenario tests show the undo of a caught illegal play working with other
plugins' card effects; a random-play test runs every combination that builds
and checks the state-machine invariants on every state.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from test_penalties_random_play import play_checked
from unorules_penalties import ILLEGAL_KEY, pending_illegal_play

from unorules import GameState, Ruleset, RulesetError, installed_plugins
from unorules.testing import arrange_deck


def need(*names: str) -> None:
    missing = [n for n in names if n not in installed_plugins()]
    if missing:
        pytest.skip(f"plugins not installed: {missing}")


@functools.cache
def _rules(names: tuple[str, ...], options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset.from_names(list(names), dict(options))


def table_game(*house: str, hands: list[str], starter: str = "G7", draw: str = "G8 G9") -> GameState:
    need(*house)
    ruleset = _rules(("classic", *house, "penalties"), (("enforcement", "table"),))
    return ruleset.new_game(len(hands), deck=arrange_deck(hands, starter, draw=draw, dealer=3), dealer=3)


def texts(cards: tuple[Any, ...]) -> list[str]:
    return [str(c) for c in cards]


HANDS = ["R0 R5 R+2 B3 Y4 G1 G2", "Y1 Y2 Y3 Y5 Y6 Y7 Y8", "R5 B1 B2 B4 B5 B6 B7", "R1 R2 R3 R4 R6 R8 R9"]


def test_r_pen_illegal_caught_zero_of_seven_o_gives_the_hands_back() -> None:
    state = table_game("seven-o", hands=HANDS)
    played = state.apply("0: play R0")  # illegal on G7, and a 0 passes every hand on (R-SEVEN-O)
    assert texts(played.hands[1]) == HANDS[0].split()[1:]
    caught = played.apply("3: catch_play 0")
    assert texts(caught.hands[0]) == HANDS[0].split() + ["G8", "G9"]
    for seat in (1, 2, 3):
        assert texts(caught.hands[seat]) == HANDS[seat].split()
    assert caught.current_player == 1


def test_r_pen_illegal_caught_draw_two_undoes_a_stack_in_progress() -> None:
    state = table_game("stacking", hands=["R+2 R5 B3 Y4 G1 G2 G3", "Y+2 Y2 Y3 Y5 Y6 Y7 Y8", *HANDS[2:]])
    played = state.apply("0: play R+2")  # illegal on G7; seat 1 may now stack (R-STACK)
    assert played.is_legal("1: play Y+2")
    caught = played.apply("2: catch_play 0")
    assert caught.phase.name == "play"
    assert caught.current_player == 1
    # A Draw Two no longer answers a stack: on G7 it is just another illegal play.
    assert caught.apply("1: play Y+2").extra(ILLEGAL_KEY) is not None
    assert "R+2" in texts(caught.hands[0])


def test_r_pen_illegal_jump_in_on_an_illegal_card_closes_the_catch_window() -> None:
    state = table_game("jump-in", hands=HANDS)
    played = state.apply("0: play R5")
    assert played.is_legal("2: play R5")  # seat 2 holds the identical card (R-JUMP)
    jumped = played.apply("2: play R5")
    assert pending_illegal_play(jumped) is None
    assert not any(a.verb == "catch_play" for a in jumped.legal_actions())
    assert texts(jumped.discard_pile) == ["G7", "R5", "R5"]  # the illegal play stood
    assert jumped.current_player == 3


def test_r_pen_illegal_catch_closes_the_jump_in_window_on_the_card_taken_back() -> None:
    state = table_game("jump-in", hands=HANDS)
    caught = state.apply("0: play R5").apply("1: catch_play 0")
    assert texts(caught.discard_pile) == ["G7"]
    assert not caught.is_legal("2: play R5")
    assert not any(a.seat != caught.current_player and a.verb == "play" for a in caught.legal_actions())


def test_r_team_and_r_elim_conflict_but_both_combine_with_penalties() -> None:
    with pytest.raises(
        RulesetError, match=r"plugins '(partners|elimination)' and '(partners|elimination)' conflict"
    ):
        Ruleset.from_names(["classic", "elimination", "partners"])
    Ruleset.from_names(["classic", "partners", "penalties"], {"enforcement": "table"})
    Ruleset.from_names(["classic", "elimination", "penalties"], {"enforcement": "table"})


def build(names: list[str], options: dict[str, Any]) -> Ruleset | str:
    """The rule set, or the message it was refused with."""
    try:
        return Ruleset.from_names(names, options)
    except RulesetError as exc:
        return str(exc)


MODES: list[tuple[tuple[str, ...], dict[str, Any], int]] = [
    (("partners",), {"target_score": 250}, 4),
    (("elimination",), {"elimination_limit": 150}, 4),
    (("penalties",), {"enforcement": "table"}, 4),
    (("partners", "penalties"), {"enforcement": "table", "target_score": 250}, 4),
    (("elimination", "penalties"), {"enforcement": "table", "elimination_limit": 150}, 3),
]
HOUSE_SETS: list[tuple[str, ...]] = [
    ("stacking",),
    ("seven-o",),
    ("jump-in",),
    ("swap-hands",),
    ("shuffle-hands",),
    ("blank-cards",),
    ("custom-wilds",),
    ("stacking", "seven-o", "jump-in", "swap-hands"),
]
HOUSE_OPTIONS: dict[str, dict[str, Any]] = {
    # Bind the customizable wilds to effects that move cards: draws until a colour,
    # hands drawn or discarded to a size, another turn.
    "custom-wilds": {"custom_wild_1": "C1", "custom_wild_2": "C5", "custom_wild_3": "C6"},
}


@pytest.mark.parametrize("house", HOUSE_SETS, ids="+".join)
@pytest.mark.parametrize(("mode", "options", "players"), MODES, ids=[" ".join(m[0]) for m in MODES])
def test_r_team_r_elim_r_pen_illegal_with_house_rules_random_play_keeps_the_invariants(
    mode: tuple[str, ...], options: dict[str, Any], players: int, house: tuple[str, ...]
) -> None:
    need(*house)
    for name in house:
        options = {**options, **HOUSE_OPTIONS.get(name, {})}
    ruleset = build(["classic", *house, *mode], options)
    if isinstance(ruleset, str):
        # A refused combination must be refused with a clear conflict message.
        assert "conflict" in ruleset
        return
    end, _ = play_checked(ruleset, players, seed=players + len(house))
    assert end.outcome is not None
    if "partners" in mode:
        assert end.outcome.winners in ((0, 2), (1, 3))
    if "elimination" in mode:
        assert end.active_seats == end.outcome.winners

"""Illegal and malformed input: every refusal raises the right error class with
a message that says what was wrong (citing the rule id for actions), and the
state it was given stays exactly as it was."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from unorules import (
    Action,
    Card,
    GameState,
    IllegalActionError,
    NotationError,
    Option,
    Plugin,
    Ruleset,
    RulesetError,
    StateFormatError,
    UnorulesError,
    hookimpl,
    installed_plugins,
)
from unorules.testing import arrange_deck, rearranged

CLASSIC = Ruleset.from_names(["classic"])


def _game(hands: list[str], starter: str, draw: str = "", **options: Any) -> GameState:
    rules = Ruleset.from_names(["classic"], options=options) if options else CLASSIC
    return rules.new_game(players=len(hands), deck=arrange_deck(hands, starter, draw=draw), dealer=0)


HANDS = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "R9 W G5 B1 B2 B3 B4", "B5 B6 B7 B8 B9 G1 G2"]


@pytest.fixture
def play_phase() -> GameState:
    """Seat 1 to play on a red 5, holding R9, W, G5 and blue cards."""
    return _game(HANDS, "R5", draw="R8 Y9")


def refused(state: GameState, action: str | Action, rule: str | None, *words: str) -> IllegalActionError:
    """Apply ``action``; expect an IllegalActionError citing ``rule`` whose message
    holds ``words``; check that the state did not change."""
    text = state.to_json()
    copy = GameState.from_json(text, ruleset=state.ruleset)
    legal = state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.rule == rule
    if rule is not None:
        assert f"({rule})" in str(error)
    for word in words:
        assert word in str(error), (word, str(error))
    assert state.to_json() == text
    assert state == copy
    assert state.legal_actions() == legal
    return error


# -- every verb with a wrong actor --------------------------------------------------------


def test_play_and_draw_by_a_seat_whose_turn_it_is_not(play_phase: GameState) -> None:
    refused(play_phase, "2: play B5", "R-SETUP-FIRST", "seat 1's turn")
    refused(play_phase, "0: draw", "R-SETUP-FIRST", "seat 1's turn")
    refused(play_phase, "2: pass", "R-SETUP-FIRST")


def test_pass_by_another_seat_while_a_drawn_card_waits(play_phase: GameState) -> None:
    state = play_phase.apply("1: draw")
    assert state.phase.name == "drawn"
    refused(state, "2: pass", "R-SETUP-FIRST")
    refused(state, "0: play Y1", "R-SETUP-FIRST")


def test_uno_by_a_seat_that_may_not_call(play_phase: GameState) -> None:
    state = rearranged(play_phase, hands={1: "R9 G5"})
    assert state.is_legal("1: uno")
    refused(state, "2: uno", "R-UNO-CALL", "next-to-last")
    refused(state, "0: uno", "R-UNO-CALL")


def test_catch_by_the_exposed_seat_itself_or_of_a_seat_that_is_not_exposed(play_phase: GameState) -> None:
    state = rearranged(play_phase, hands={1: "R9 G5"}).apply("1: play R9")
    assert state.uno_exposed == (1,)
    refused(state, "1: catch 1", "R-UNO-CATCH")
    refused(state, "0: catch 2", "R-UNO-CATCH", "seat 2")
    refused(state, "0: catch 9", "R-UNO-CATCH", "seat 9")


def test_challenge_and_accept_by_a_seat_not_hit_by_the_wild_draw_four() -> None:
    state = _game(["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "W+4 R9 B1 B2 B3 B4 B5", HANDS[2]], "R5").apply("1: play W+4 B")
    refused(state, "0: challenge", "R-CHALLENGE", "seat 2")
    refused(state, "0: accept", "R-CHALLENGE")
    refused(state, "1: challenge", "R-CHALLENGE", "own")


def test_color_by_a_seat_other_than_the_first_player() -> None:
    state = _game(HANDS, "W")
    assert state.phase.name == "color"
    refused(state, "2: color B", "R-SETUP-FIRST")
    refused(state, "0: color B", "R-SETUP-FIRST")


def test_a_seat_that_does_not_exist(play_phase: GameState) -> None:
    error = refused(play_phase, "3: draw", None, "no seat 3")
    assert "0 to 2" in str(error)
    refused(play_phase, Action.of(12, "play", Card.parse("R9")), None, "no seat 12")


# -- cards not held, colours, targets, matching --------------------------------------------


def test_a_card_not_in_the_hand(play_phase: GameState) -> None:
    refused(play_phase, "1: play R7", "R-TURN-MATCH", "holds no R7")
    refused(play_phase, "1: play W+4 R", "R-TURN-MATCH", "holds no W+4")


def test_a_colour_on_a_card_that_is_not_wild(play_phase: GameState) -> None:
    refused(play_phase, "1: play R9 B", "R-TURN-MATCH", "not a wild")
    refused(play_phase, "1: play R9 R", "R-TURN-MATCH", "takes no colour")


def test_a_wild_without_a_colour(play_phase: GameState) -> None:
    refused(play_phase, "1: play W", "R-TURN-WILD", "name the colour")


def test_a_card_that_does_not_match(play_phase: GameState) -> None:
    refused(play_phase, "1: play B1", "R-TURN-MATCH", "matches neither", "B1")


def test_a_wild_draw_four_bluff_with_challenges_off() -> None:
    state = _game(["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "W+4 R9 B1 B2 B3 B4 B5", HANDS[2]], "R5", challenge="off")
    refused(state, "1: play W+4 B", "R-TURN-WD4", "current colour")


class Targeted(Plugin):
    """A test house rule: a 7 names a target seat (its effect is classic's: none)."""

    name = "test-targeted-sevens"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def card_needs_target(self, ruleset: Ruleset, card: Card) -> bool | None:
        return True if card.kind == "7" else None


def test_a_missing_or_wrong_target() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[Targeted()])
    hands = ["Y1 Y2 Y3 Y4 Y5 Y6 Y8", "R7 R9 G5 B1 B2 B3 B4", HANDS[2]]
    state = rules.new_game(players=3, deck=arrange_deck(hands, "R5"), dealer=0)
    assert {str(a) for a in state.legal_actions(1) if a.card == Card.parse("R7")} == {
        "1: play R7 0",
        "1: play R7 2",
    }
    refused(state, "1: play R7", "R-TURN-MATCH", "needs a target seat")
    refused(state, "1: play R7 1", "R-TURN-MATCH", "seat 1 cannot be the target")
    refused(state, "1: play R7 5", "R-TURN-MATCH", "seat 5 cannot be the target")
    refused(state, "1: play R9 2", "R-TURN-MATCH", "takes no target")
    assert state.apply("1: play R7 2").current_player == 2
    with pytest.raises(NotationError, match="needs a seat"):
        Action.parse("1: catch")


# -- wrong phase --------------------------------------------------------------------------


def test_playing_during_a_penalty_draw() -> None:
    state = _game(HANDS, "R+2")
    refused(state, "1: play R9", "R-ACT-D2", "draw 2")
    refused(state, "1: pass", "R-ACT-D2")


PHASE_HANDS = ["Y1 Y2 Y3 Y4 Y5 Y6 Y7", "W+4 R9 G5 B1 B2 B3 W", "B5 B6 B7 B8 B9 G1 G2"]
VERBS = ["play R9", "play W R", "draw", "pass", "uno", "catch 0", "challenge", "accept", "color R"]
OTHER_VERBS = {"uno": "R-UNO-CALL", "catch 0": "R-UNO-CATCH"}
# The rule each phase's refusals cite (for the verbs not in OTHER_VERBS).
PHASE_RULES: dict[str, dict[str, str]] = {
    "play": {
        "pass": "R-TURN-DRAW",
        "challenge": "R-CHALLENGE",
        "accept": "R-CHALLENGE",
        "color R": "R-SETUP-STARTER",
    },
    "drawn": {
        "play R9": "R-TURN-CHOOSE-DRAW",
        "play W R": "R-TURN-CHOOSE-DRAW",
        "draw": "R-TURN-DRAW",
        "challenge": "R-CHALLENGE",
        "accept": "R-CHALLENGE",
        "color R": "R-SETUP-STARTER",
    },
    "penalty": dict.fromkeys(VERBS, "R-ACT-D2"),
    "challenge": dict.fromkeys(VERBS, "R-CHALLENGE"),
    "color": dict.fromkeys(VERBS, "R-SETUP-STARTER"),
}


def _in_phase(name: str) -> GameState:
    def new(starter: str, draw: str = "") -> GameState:
        return _game(PHASE_HANDS, starter, draw=draw)

    return {
        "play": lambda: new("R5"),
        "drawn": lambda: new("R5", "R8").apply("1: draw"),
        "penalty": lambda: new("R+2"),
        "challenge": lambda: new("R5").apply("1: play W+4 B"),
        "color": lambda: new("W"),
    }[name]()


@pytest.mark.parametrize("phase", sorted(PHASE_RULES))
def test_every_verb_in_every_phase_is_refused_with_the_phase_rule(phase: str) -> None:
    state = _in_phase(phase)
    assert state.phase.name == phase
    seat = state.current_player
    refusals = 0
    for verb in VERBS:
        action = f"{seat}: {verb}"
        if state.is_legal(action):
            continue
        rule = OTHER_VERBS.get(verb) or PHASE_RULES[phase][verb]
        refused(state, action, rule)
        refusals += 1
    assert refusals >= 6


def test_a_second_draw_in_the_same_turn() -> None:
    state = _in_phase("drawn")
    refused(state, "1: draw", "R-TURN-DRAW", "one draw per turn", "R8", "pass")
    state = _game(PHASE_HANDS, "R5", draw="R8", drawn_card="must-play").apply("1: draw")
    error = refused(state, "1: draw", "R-TURN-DRAW", "R8")
    assert "pass" not in str(error)


def test_pass_without_a_drawn_card(play_phase: GameState) -> None:
    refused(play_phase, "1: pass", "R-TURN-DRAW", "after drawing")


def test_color_outside_a_wild_starter(play_phase: GameState) -> None:
    refused(play_phase, "1: color B", "R-SETUP-STARTER", "wild starter")


# -- after the game is over ----------------------------------------------------------------


def _finished() -> GameState:
    state = Ruleset.from_names(["classic"], options={"target_score": 1}).new_game(players=3, seed=5)
    rng = random.Random(5)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    "action",
    ["0: play R1", "1: draw", "2: pass", "0: uno", "1: catch 0", "2: challenge", "0: accept", "1: color R"],
)
def test_every_verb_after_the_game_is_over(action: str) -> None:
    state = _finished()
    assert state.legal_actions() == ()
    error = refused(state, action, None, "game is over")
    assert isinstance(error, UnorulesError)


# -- bad JSON ---------------------------------------------------------------------------------


def _data() -> dict[str, Any]:
    state = _game(HANDS, "R5", draw="R8").apply("1: draw")
    data: dict[str, Any] = json.loads(state.to_json())
    return data


def _bad(data: Any, *words: str) -> StateFormatError:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(StateFormatError) as info:
        GameState.from_json(text)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    return info.value


def test_json_that_is_not_json() -> None:
    _bad("{not json", "not valid JSON")
    _bad("", "not valid JSON")


def test_json_of_the_wrong_shape_or_format() -> None:
    _bad("[1, 2]", "object")
    _bad("null", "object")
    data = _data()
    data["format"] = "unorules.state/0"
    _bad(data, "format", "unorules.state/1")
    del data["format"]
    _bad(data, "format")


@pytest.mark.parametrize("field", sorted(_data()))
def test_json_with_a_missing_field_names_it(field: str) -> None:
    data = _data()
    del data[field]
    _bad(data, field)


def test_json_with_bad_card_text_names_the_card_and_where_it_is() -> None:
    data = _data()
    data["hands"][0][2] = "Q7"
    _bad(data, "hands[0][2]", "Q7")
    data = _data()
    data["draw_pile"][3] = "R10"
    _bad(data, "draw_pile[3]", "R10")
    data = _data()
    data["discard_pile"] = ["W+5"]
    _bad(data, "discard_pile[0]", "W+5")
    data = _data()
    data["phase"]["card"] = "RW"
    _bad(data, "phase.card", "RW")
    data = _data()
    data["hands"][1] = "R1 R2"
    _bad(data, "hands[1]")


def test_json_with_bad_values_names_the_field() -> None:
    cases: list[tuple[str, Any, str]] = [
        ("color", "purple", "color"),
        ("direction", 2, "direction"),
        ("direction", "left", "direction"),
        ("current_player", 7, "current_player"),
        ("current_player", -1, "current_player"),
        ("rng", "xyz", "rng"),
        ("rng", 12, "rng"),
        ("scores", [0, 0], "scores"),
        ("scores", [0, "a", 0], "scores[1]"),
        ("hands", [["R1"]], "hands"),
        ("discard_pile", [], "discard_pile"),
        ("phase", "play", "phase"),
        ("phase", {"count": 2}, "phase"),
        ("events", {}, "events"),
        ("events", [{"seat": 1}], "events[0]"),
        ("rounds", {}, "rounds"),
        ("rounds", [{"number": 1}], "rounds"),
        ("outcome", {"winners": "x"}, "outcome"),
        ("extras", [], "extras"),
        ("extras", {"k": {"nope": 1}}, "extras.k"),
        ("last_action", "1: fly", "last_action"),
        ("last_action", 5, "last_action"),
        ("uno_exposed", [True], "uno_exposed[0]"),
        ("stalled", None, "stalled"),
        ("dealer", "0", "dealer"),
    ]
    for field, value, words in cases:
        data = _data()
        data[field] = value
        _bad(data, words)


def test_json_with_an_unknown_plugin_lists_the_installed_ones() -> None:
    data = _data()
    data["ruleset"] = {"plugins": ["classic", "no-such-plugin"], "options": {}}
    error = _bad(data, "ruleset", "no-such-plugin", "classic")
    assert all(name in str(error) for name in installed_plugins())
    data["ruleset"] = {"plugins": ["classic"], "options": {"uno_penalty": 3}}
    _bad(data, "uno_penalty")
    data["ruleset"] = "classic"
    _bad(data, "ruleset")


WRONG_VALUES: tuple[Any, ...] = (None, 7, -1, 1.5, True, "text", [], [None], ["R1"], [[1]], {}, {"a": [1]})


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into ``data`` (the first item of each list stands for all)."""
    if prefix:
        yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list) and data:
        yield from _paths(data[0], (*prefix, 0))


def test_json_with_any_value_of_a_wrong_type_raises_state_format_error_only() -> None:
    # Whatever any field (or nested field) holds or lacks, reading the state
    # either succeeds or raises StateFormatError, never a KeyError, TypeError
    # or AttributeError from deep inside.
    finished = json.loads(_finished().to_json())
    for base in (_data(), finished):
        for path in _paths(base):
            for value in (*WRONG_VALUES, _DELETE):
                data = json.loads(json.dumps(base))
                parent = data
                for key in path[:-1]:
                    parent = parent[key]
                if value is _DELETE:
                    if not isinstance(parent, dict):
                        continue
                    del parent[path[-1]]
                else:
                    parent[path[-1]] = value
                with contextlib.suppress(StateFormatError):
                    GameState.from_json(json.dumps(data))


_DELETE = object()


# -- bad notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("Q7", "Q7"),
        ("R10", "R10"),
        ("R", "'R'"),
        ("RW", "RW"),
        ("R+4", "R+4"),
        ("W+2", "W+2"),
        ("7R", "7R"),
        ("+2", "+2"),
        ("RED7", "RED7"),
    ],
)
def test_bad_card_notation(text: str, part: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert part in str(info.value)


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("", "empty action"),
        ("1:", "empty action"),
        ("x: draw", "bad seat 'x'"),
        ("-1: draw", "seats count from 0"),
        ("1: fly", "unknown verb 'fly'"),
        ("1: play", "needs a card"),
        ("1: play R", "needs a card"),
        ("1: play R7 R8", "unexpected 'R8'"),
        ("1: play W R B", "two colours"),
        ("1: play R7 2 3", "two seats"),
        ("1: play Q7", "bad card 'Q7'"),
        ("1: draw R7", "'draw' takes no card"),
        ("1: draw 2", "'draw' takes no seat"),
        ("1: uno R", "'uno' takes no colour"),
        ("1: catch", "needs a seat"),
        ("1: catch R7 2", "'catch' takes no card"),
        ("1: color", "needs a colour"),
        ("1: color W", "'color' takes no card"),
        ("1: challenge 2", "takes no seat"),
        ("draw", "names no seat"),
        ("1: catch ²", "²"),
    ],
)
def test_bad_action_notation(text: str, part: str) -> None:
    with pytest.raises(NotationError) as info:
        Action.parse(text)
    assert isinstance(info.value, ValueError)
    assert part in str(info.value)


def test_bad_action_text_given_to_apply_leaves_the_state_unchanged(play_phase: GameState) -> None:
    text = play_phase.to_json()
    for bad in ("1: play Q7", "1: fly", "1: play"):
        with pytest.raises(NotationError):
            play_phase.apply(bad)
        assert not play_phase.is_legal(bad)
    assert play_phase.to_json() == text


# -- bad rule sets -------------------------------------------------------------------------------


def test_an_unknown_plugin_name_lists_the_installed_plugins() -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.from_names(["classic", "no-such-rules"])
    message = str(info.value)
    assert "no-such-rules" in message
    for name in installed_plugins():
        assert name in message


def test_an_unknown_option_lists_the_allowed_ones() -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.from_names(["classic"], options={"uno_penalties": 2})
    message = str(info.value)
    assert "uno_penalties" in message
    for option in ("target_score", "scoring", "uno_penalty", "wd4_points", "opening_reverse", "challenge"):
        assert option in message


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("target_score", 0, "positive integer"),
        ("target_score", -5, "positive integer"),
        ("target_score", "lots", "positive integer"),
        ("target_score", True, "positive integer"),
        ("target_score", 2.5, "positive integer"),
        ("scoring", "high-score", "winner-takes-all, low-score"),
        ("uno_penalty", 3, "2, 4"),
        ("uno_penalty", "two", "2, 4"),
        ("wd4_points", 60, "50, 70"),
        ("opening_reverse", "left", "dealer-starts, right-of-dealer-starts"),
        ("challenge", "maybe", "on, off"),
        ("challenger", "nobody", "victim, anyone"),
        ("drawn_card", "discard", "may-keep, must-play"),
        ("opening_wild", "ignore", "choose-color, redraw"),
    ],
)
def test_an_invalid_option_value_says_what_is_allowed(option: str, value: Any, allowed: str) -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.from_names(["classic"], options={option: value})
    message = str(info.value)
    assert option in message
    assert allowed in message
    assert "classic" in message


def test_option_values_are_accepted_in_their_text_forms() -> None:
    rules = Ruleset.from_names(
        ["classic"],
        options={"target_score": "300", "uno_penalty": "4", "challenge": "off", "scoring": "LOW-SCORE"},
    )
    assert rules.options["target_score"] == 300
    assert rules.options["uno_penalty"] == 4
    assert rules.options["challenge"] is False
    assert rules.options["scoring"] == "low-score"


class Quiet(Plugin):
    """A test plugin that conflicts with classic."""

    name = "test-quiet"
    api_version = 2
    conflicts = {"classic": "test-quiet replaces every classic rule"}  # noqa: RUF012


class NeedsMissing(Plugin):
    name = "test-needs"
    api_version = 2
    requires = ("classic", "test-absent")


class CycleA(Plugin):
    name = "test-cycle-a"
    api_version = 2
    requires = ("test-cycle-b",)


class CycleB(Plugin):
    name = "test-cycle-b"
    api_version = 2
    requires = ("test-cycle-a",)


class SameOption(Plugin):
    name = "test-same-option"
    api_version = 2
    requires = ("classic",)
    options = (Option("uno_penalty", 2),)


class UnknownHook(Plugin):
    name = "test-unknown-hook"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def on_breakfast(self, state: GameState) -> None:
        return None


def test_conflicting_plugins_are_refused_with_the_reason() -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.from_names(["classic"], plugins=[Quiet()])
    assert "test-quiet" in str(info.value)
    assert "classic" in str(info.value)
    assert "replaces every classic rule" in str(info.value)


def test_a_missing_requirement_names_it() -> None:
    with pytest.raises(RulesetError, match="requires 'test-absent'"):
        Ruleset.from_names(["classic"], plugins=[NeedsMissing()])
    with pytest.raises(RulesetError, match="requires 'classic'"):
        Ruleset([NeedsMissing()])


def test_other_impossible_rule_sets() -> None:
    with pytest.raises(RulesetError, match="cycle"):
        Ruleset([CycleA(), CycleB()])
    with pytest.raises(RulesetError, match="both declare option 'uno_penalty'"):
        Ruleset.from_names(["classic"], plugins=[SameOption()])
    with pytest.raises(RulesetError, match="unknown hook"):
        Ruleset.from_names(["classic"], plugins=[UnknownHook()])
    with pytest.raises(RulesetError, match="at least one plugin"):
        Ruleset([])
    with pytest.raises(RulesetError, match="no name"):
        Ruleset([object()])


def test_bad_new_game_arguments() -> None:
    for players in (1, 11, "4", True):
        with pytest.raises(RulesetError, match="players"):
            CLASSIC.new_game(players=players, seed=1)  # type: ignore[arg-type]
    with pytest.raises(RulesetError, match="dealer"):
        CLASSIC.new_game(players=3, seed=1, dealer=3)
    with pytest.raises(RulesetError, match="Q7"):
        CLASSIC.new_game(players=3, deck="R1 Q7")
    with pytest.raises(RulesetError, match="W\\+4"):
        CLASSIC.new_game(players=3, deck="W+4 W+4 W+4 W+4 W+4")

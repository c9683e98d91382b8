"""States from outside are checked for sense (issue 11, points 1, 2 and 4).

Each reproduction of the issue is a state that ``GameState.from_json`` used to
accept and that then crashed or stalled the game; now ``validate_state`` (and
so ``from_json``) refuses it with a ``StateFormatError`` naming the field and
the rule.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
import unorules_swap_hands  # noqa: F401  (registers the Swap Hands kind, a card classic's deck lacks)
from unorules_penalties import ILLEGAL_KEY, pending_illegal_play

from unorules import (
    Action,
    Card,
    Color,
    Event,
    GameState,
    NotationError,
    Outcome,
    Phase,
    Ruleset,
    StateFormatError,
    UnorulesError,
    validate_state,
)
from unorules.errors import MAX_MESSAGE
from unorules.validate import MAX_ROUNDS, max_events

W4 = Card.parse("W+4")


def _new(names: str = "classic", players: int = 4, seed: int = 7, **options: Any) -> GameState:
    return Ruleset.from_names(names, options).new_game(players=players, seed=seed)


def _played(state: GameState, steps: int, seed: int = 1) -> GameState:
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _refused(state: GameState, field: str, *words: str, json_too: bool = True) -> StateFormatError:
    """``state`` is refused by ``validate_state`` and, through its JSON, by ``from_json``
    (unless it cannot be written as JSON at all)."""
    with pytest.raises(StateFormatError) as info:
        validate_state(state)
    error = info.value
    assert error.field == field, str(error)
    assert str(error).startswith(f"{field}: ")
    for word in words:
        assert word in str(error), (word, str(error))
    if json_too:
        with pytest.raises(StateFormatError) as again:
            GameState.from_json(state.to_json(), state.ruleset)
        assert again.value.field == field
    return error


def _refused_json(
    state: GameState, change: Callable[[dict[str, Any]], None], *words: str
) -> StateFormatError:
    data = json.loads(state.to_json())
    change(data)
    with pytest.raises(StateFormatError) as info:
        GameState.from_json(json.dumps(data))
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    return info.value


def test_real_states_are_valid_and_validation_changes_nothing() -> None:
    for names, players in (
        ("classic", 3),
        ("classic,stacking,jump-in,custom-wilds", 4),
        ("classic,penalties", 5),
    ):
        state = _new(names, players)
        for step in range(300):
            if state.is_over:
                break
            text = state.to_json()
            state.validate()
            validate_state(state)
            assert state.to_json() == text
            state = state.apply(random.Random(step).choice(state.legal_actions()))


# -- point 1 -------------------------------------------------------------------------------------


def test_every_seat_has_left_is_refused() -> None:
    state = _new()
    _refused(state.replace(left=(0, 1, 2, 3)), "left", "0 seat(s) still in the game")
    _refused(state.replace(left=(0, 1, 2)), "left", "1 seat(s)")


def test_a_million_seats_that_left_are_refused_before_anything_is_built() -> None:
    state = _new()
    _refused_json(state, lambda d: d.__setitem__("left", [99] * 10**6), "left", "more than 4")
    _refused(state.replace(left=(99,)), "left[0]", "not a seat")
    _refused(state.replace(left=(1, 1)), "left", "listed twice")


# -- point 2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [99, -1, 4])
def test_uno_exposed_outside_the_table(seat: int) -> None:
    _refused(_new().replace(uno_exposed=(seat,)), "uno_exposed[0]", "not a seat")
    _refused(_new().replace(uno_declared=(seat,)), "uno_declared[0]", "not a seat")


def test_phase_drawn_without_a_card() -> None:
    state = _new()
    # Once the game is over the last phase stays as it was (a seat went out by a jump-in from it).
    over = _played(_new(target_score=1), 3000)  # one round is the game
    assert over.is_over
    validate_state(over.replace(phase=Phase("drawn", secret=True)))
    _refused(state.replace(phase=Phase("drawn", secret=True)), "phase.card", "R-TURN-DRAW")
    # A card the seat to move does not hold.
    other = state.hands[(state.current_player + 1) % 4][0]
    if other not in state.hands[state.current_player]:
        _refused(state.replace(phase=Phase("drawn", card=other, secret=True)), "phase.card")


def test_a_challenge_by_a_seat_that_does_not_exist_or_by_nobody() -> None:
    state = _new()
    _refused(state.replace(phase=Phase("challenge", 4, W4, 99, Color.RED)), "phase.seat", "not a seat")
    _refused(state.replace(phase=Phase("challenge", 4, W4, None, Color.RED)), "phase.seat", "R-CHALLENGE")
    current = state.current_player
    _refused(state.replace(phase=Phase("challenge", 4, W4, current, Color.RED)), "phase.seat", "R-CHALLENGE")
    _refused(
        state.replace(phase=Phase("challenge", 4, W4, (current + 3) % 4, None)), "phase.color", "R-CHALLENGE"
    )


def test_a_phase_no_plugin_declares() -> None:
    _refused(_new().replace(phase=Phase("limbo")), "phase.name", "no plugin", "play, drawn")
    # custom-wilds' phases are declared only when custom-wilds is in the rule set.
    _refused(_new().replace(phase=Phase("rooster", 4, W4, 0)), "phase.name")


def test_a_partners_state_with_three_seats() -> None:
    state = _new("classic,partners")
    three = state.replace(
        hands=state.hands[:3], scores=state.scores[:3], current_player=0, dealer=0, events=()
    )
    _refused(three, "hands", "R-TEAM", "4 seats")
    _refused(state.replace(scores=(10, 0, 0, 0)), "scores[2]", "R-TEAM")
    _refused(state.replace(outcome=Outcome((0, 1), "x")), "outcome.winners", "R-TEAM")


def _with_extra(state: GameState, key: str, value: Any) -> GameState:
    """``state`` with the plugin value ``key`` set (arranged, as a forged input would be)."""
    extras = dict(state.extras)
    extras[key] = value
    return state.replace(extras=tuple(sorted(extras.items())))


def test_plugin_extras_of_the_wrong_shape() -> None:
    state = _new("classic,jump-in")
    _refused(_with_extra(state, "jump-in", 5), "extras.jump-in", "R-JUMP")
    _refused(_with_extra(state, "jump-in", (("play", 0, None, None, None, ()), 0)), "extras.jump-in[1]")
    _refused(_with_extra(state, "jump-in", (("limbo", 0, None, None, None, ()), 1)), "extras.jump-in[0].name")
    _refused(_with_extra(state, "jump-in", (("play", 0, None, 42, None, ()), 1)), "extras.jump-in[0].seat")
    wilds = _new("classic,custom-wilds")
    _refused(_with_extra(wilds, "custom-wilds.open-hands", ("x",)), "extras.custom-wilds.open-hands[0]")
    # A key no plugin of the rule set declares, and a value of a type JSON cannot hold.
    _refused(_with_extra(state, "nobody.owns-this", 1), "extras.nobody.owns-this", "declares")
    _refused(_with_extra(state, "jump-in", 1.5), "extras.jump-in", "cannot hold", json_too=False)


def test_a_card_of_a_plugin_not_in_the_rule_set() -> None:
    state = _new()
    swap = Card.parse("SW")
    hands = (state.hands[0] + (swap,), *state.hands[1:])
    _refused(state.replace(hands=hands), "hands[0][7]", "SW", "not a card of this rule set's deck")


def test_fifty_extra_wild_draw_fours() -> None:
    state = _new()
    hands = tuple(hand + (W4,) * (13 if seat < 2 else 12) for seat, hand in enumerate(state.hands))
    error = _refused(state.replace(hands=hands), "cards", "50 x W+4 more than the deck holds")
    assert "each card once" in str(error)
    _refused(state.replace(draw_pile=state.draw_pile[1:]), "cards", "missing")


def test_a_penalty_of_minus_five() -> None:
    state = _new()
    _refused(state.replace(phase=Phase("penalty", -5, Card.parse("R+2"), 0)), "phase.count", "0 to 1000000")
    _refused(state.replace(phase=Phase("penalty", 0, Card.parse("R+2"), 0)), "phase.count", "R-ACT-D2")
    _refused(state.replace(phase=Phase("penalty", 10**6 + 1, Card.parse("R+2"), 0)), "phase.count")


def test_winners_that_are_not_seats() -> None:
    state = _new()
    _refused(state.replace(outcome=Outcome((99,), "target-score")), "outcome.winners[0]", "not a seat")
    _refused(state.replace(outcome=Outcome((), "target-score")), "outcome.winners", "at least one winner")


def test_the_current_player_among_the_seats_that_left() -> None:
    state = _new("classic,elimination")
    seat = state.current_player
    _refused(state.replace(left=(seat,)), "current_player", "has left the game")
    other = (seat + 1) % 4
    # R-ELIM: a seat leaves only at the limit, and holds no cards afterwards.
    _refused(state.replace(left=(other,)), "left[0]", "R-ELIM")
    scores = tuple(600 if s == other else 0 for s in range(4))
    _refused(state.replace(left=(other,), scores=scores), f"hands[{other}]", "R-ELIM")


def test_a_forged_penalties_snapshot_cannot_create_cards() -> None:
    rules = Ruleset.from_names("classic,penalties", {"enforcement": "table"})
    state = rules.new_game(players=3, seed=3)
    rng = random.Random(3)
    while pending_illegal_play(state) is None:
        state = state.apply(rng.choice(state.legal_actions()))
    validate_state(state)  # the genuine record is fine
    record = state.extra(ILLEGAL_KEY)
    offender = record[0]
    hands = list(record[2])
    hands[offender] = hands[offender] + (W4,) * 40
    forged = _with_extra(state, ILLEGAL_KEY, (*record[:2], tuple(hands), *record[3:]))
    # Before: a legal catch_play restored these hands (40 cards created).
    catch = next(a for a in forged.legal_actions() if a.verb == "catch_play")
    assert sum(map(len, forged.apply(catch).hands)) > sum(map(len, state.hands))
    error = _refused(forged, f"extras.{ILLEGAL_KEY}", "R-PEN-ILLEGAL", "40 x W+4 more than the deck")
    assert "which a catch restores" in str(error)
    _refused(_with_extra(state, ILLEGAL_KEY, (offender,)), f"extras.{ILLEGAL_KEY}", "R-PEN-ILLEGAL")
    bad_phase = (*record[:8], ("limbo", 0, None, None, None, ()), *record[9:])
    _refused(_with_extra(state, ILLEGAL_KEY, bad_phase), f"extras.{ILLEGAL_KEY}", "phase.name")


def test_stacking_counts_hold_at_least_the_top_card() -> None:
    state = _new("classic,stacking")
    two = Card.parse("B+2")
    validate_state(state.replace(phase=Phase("penalty", 8, two, 0)))
    validate_state(state.replace(phase=Phase("penalty", 40, two, 0)))  # stacked cards may come back
    _refused(state.replace(phase=Phase("penalty", 1, two, 0)), "phase.count", "R-STACK", "at least 2")
    _refused(state.replace(phase=Phase("penalty", 3, W4, 0)), "phase.count", "R-STACK", "at least 4")
    # A long chain recycles draw cards through reshuffles and penalty draws: 332 was reached by a
    # conformance run of classic+blank-cards+deflect+...+stacking. No bound but a sane one.
    validate_state(state.replace(phase=Phase("penalty", 332, two, 0)))
    _refused(state.replace(phase=Phase("penalty", 10**6 + 2, two, 0)), "phase.count", "0 to 1000000")


def test_custom_wilds_phases_carry_what_their_effects_need() -> None:
    state = _new("classic,custom-wilds")
    card = Card.parse("CW1")
    seat = state.current_player
    held = len(state.hands[seat])
    validate_state(state.replace(phase=Phase("discard", held - 1, card, 0, data=(seat,))))
    _refused(
        state.replace(phase=Phase("discard", held + 1, card, 0, data=(seat,))), "phase.count", "R-CUSTOM"
    )
    _refused(state.replace(phase=Phase("discard", 1, card, 0, data=())), "phase.data", "R-CUSTOM")
    _refused(state.replace(phase=Phase("discard", 1, card, 0, data=(seat, 9, 3))), "phase.data[1]")
    _refused(state.replace(phase=Phase("draw-color", 0, card, 0)), "phase.color", "R-CUSTOM C1")
    _refused(state.replace(phase=Phase("keep", 0, card, 0, data=())), "phase.data", "R-CUSTOM C8")
    _refused(state.replace(phase=Phase("joke", 0, card, None)), "phase.seat", "R-CUSTOM C8")


def test_core_fields_out_of_range() -> None:
    state = _new()
    _refused(state.replace(dealer=4), "dealer", "not a seat")
    _refused(state.replace(stalled=-1), "stalled", "0 to 4")
    _refused(state.replace(rng=2**64), "rng")
    _refused(state.replace(scores=(10**10, 0, 0, 0)), "scores[0]")
    _refused(state.replace(color="R"), "color", json_too=False)
    _refused(state.replace(phase=Phase("play", count=2)), "phase", "ordinary turn")
    _refused(state.replace(last_action=Action.parse("9: draw")), "last_action.seat")
    _refused(state.replace(events=(Event("x", 9),)), "events[0].seat")
    _refused(state.replace(events=(Event("x", rule=["a"]),)), "events[0].rule")  # type: ignore[arg-type]
    _refused(state.replace(events=(Event("x", detail="d" * 5000),)), "events[0].detail", "at most 1000")
    _refused(state.replace(events=(Event("x", target=7),)), "events[0].target", "not a seat")
    _refused(state.replace(events=(Event("x", count=-2),)), "events[0].count")
    twice = Event("x", data=(("b", 1), ("b", 2)))
    _refused(state.replace(events=(twice,)), "events[0].data", "twice", json_too=False)
    _refused(state.replace(events=(Event("x", data=(("a", Card.parse("SW")),)),)), "events[0].data.a")
    many = (Event("x"),) * (max_events(state.ruleset) + 1)
    _refused(state.replace(events=many), "events", "more than")


def test_rounds_are_numbered_and_bounded() -> None:
    state = _played(_new("classic", 2, seed=1), 2000)
    assert state.rounds
    first = state.rounds[0]
    _refused(state.replace(rounds=(first, first)), "rounds[1].number")
    _refused_json(
        state, lambda d: d.__setitem__("rounds", d["rounds"] * (MAX_ROUNDS + 1)), "rounds", "more than"
    )
    wrong = type(first)(1, 5, "out", first.points, first.hands)
    _refused(state.replace(rounds=(wrong, *state.rounds[1:])), "rounds[0].winner")


def test_a_state_nobody_can_move_in_is_refused() -> None:
    from unorules import PhaseSpec, Plugin

    class Waits(Plugin):
        name = "waits"
        api_version = 2
        requires = ("classic",)
        phases = (PhaseSpec("wait"),)

    state = Ruleset.from_names(["classic"], plugins=[Waits()]).new_game(players=3, seed=1)
    _refused(state.replace(phase=Phase("wait")), "phase", "no seat has a legal action")


# -- point 4: every error on bad input is an UnorulesError, and short ---------------------------------


def test_json_numbers_over_the_digit_limit() -> None:
    text = _new().to_json().replace('"stalled": 0', '"stalled": ' + "9" * 5000)
    with pytest.raises(StateFormatError, match="cannot be read"):
        GameState.from_json(text)


def test_deeply_nested_json() -> None:
    with pytest.raises(StateFormatError, match="nested too deeply"):
        GameState.from_json("[" * 100_000)
    deep: Any = 1
    for _ in range(40):
        deep = {"tuple": [deep]}
    _refused_json(_new("classic,jump-in"), lambda d: d["extras"].__setitem__("jump-in", deep), "nested")


def test_an_event_rule_that_is_a_list() -> None:
    def change(data: dict[str, Any]) -> None:
        data["events"][0]["rule"] = ["R-SETUP-DEAL"]

    error = _refused_json(_new(), change, "events[0].rule", "expected text")
    assert error.field == "events[0].rule"


def test_an_action_target_or_seat_over_the_digit_limit() -> None:
    state = _new()
    for text in ("0: catch " + "1" * 5000, "1" * 5000 + ": draw"):
        with pytest.raises(NotationError, match="bad seat") as info:
            state.apply(text)
        assert len(str(info.value)) < 400
    assert not state.is_legal("0: catch " + "1" * 5000)


def test_state_json_that_is_not_text() -> None:
    for thing in (None, 5, b"\xff", ["{}"]):
        with pytest.raises(StateFormatError):
            GameState.from_json(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "attempt",
    [
        lambda big: Action.parse(big),
        lambda big: Action.parse("0: play " + big),
        lambda big: Action.parse("0: " + big),
        lambda big: Card.parse(big),
        lambda big: Color.parse(big),
        lambda big: GameState.from_json(big),
        lambda big: GameState.from_json(json.dumps({"format": big})),
        lambda big: GameState.from_json(_new().to_json().replace('"hands": [["', f'"hands": [["{big}', 1)),
        lambda big: GameState.from_json(
            _new().to_json().replace('"extras": {', f'"extras": {{"{big}": 1, ', 1)
        ),
        lambda big: GameState.from_json(_new().to_json().replace('"dealer": ', f'"dealer": "{big}', 1)),
        lambda big: Ruleset.from_names([big]),
        lambda big: Ruleset.from_names(["classic"], {big: 1}),
        lambda big: Ruleset.from_names(["classic"], {"scoring": big}),
    ],
)
def test_messages_about_a_huge_input_stay_short(attempt: Callable[[str], object]) -> None:
    big = "x" * 10**6
    with pytest.raises(UnorulesError) as info:
        attempt(big)
    assert len(str(info.value)) <= MAX_MESSAGE


def test_a_bad_state_changes_nothing_and_restoring_is_repeatable() -> None:
    state = _new()
    text = state.to_json()
    for _ in range(2):
        with pytest.raises(StateFormatError):
            validate_state(state.replace(uno_exposed=(9,)))
    assert state.to_json() == text
    assert GameState.from_json(text) == state

"""Embedding: states and values survive pickle, cloudpickle and deepcopy; seeds
of any integer type; clear errors at the API's edges; who may act; bots that
receive views."""

from __future__ import annotations

import copy
import functools
import itertools
import json
import numbers
import pickle
import subprocess
import sys
from collections.abc import Generator
from typing import Any

import attrs
import cloudpickle
import jsonschema
import numpy as np
import pytest

import unorules
import unorules.testing
from unorules import (
    PLAY,
    Action,
    Card,
    Color,
    Event,
    EventSpec,
    GameState,
    Phase,
    Ruleset,
    SeatError,
    SeatView,
    installed_plugins,
)
from unorules.bots import Bot, BotError, HeuristicBot, RandomBot, next_action, play_game
from unorules.schemas import SCHEMAS, schema
from unorules.testing import check_events, rearranged
from unorules.testing.conformance import option_variant
from unorules.testing.embedding import check_pickle_round_trip, check_view_secrets, copiers, random_states
from unorules.testing.strategies import build_ruleset, supported_players

PLUGINS = sorted(set(installed_plugins()) - {"classic"})


def _sample_combinations() -> list[tuple[str, ...]]:
    """classic alone, with each plugin, with each pair, and with every plugin
    that builds alongside the others (the soak, ``python -m
    unorules.testing.soak``, runs every subset)."""
    wanted = [("classic",)]
    wanted += [("classic", p) for p in PLUGINS]
    wanted += [("classic", *pair) for pair in itertools.combinations(PLUGINS, 2)]
    greedy: list[str] = []
    for plugin in PLUGINS:
        if isinstance(build_ruleset(("classic", *greedy, plugin)), Ruleset):
            greedy.append(plugin)
    wanted.append(("classic", *greedy))
    return [c for c in wanted if isinstance(build_ruleset(c), Ruleset)]


COMBINATIONS = _sample_combinations()


@functools.cache
def _states(combo: tuple[str, ...]) -> tuple[GameState, ...]:
    rules = build_ruleset(combo)
    assert isinstance(rules, Ruleset)
    players = supported_players(rules, (3, 4, 2))[0]
    return tuple(random_states(rules, players, seed="-".join(combo), steps=60))


@pytest.mark.parametrize("combo", COMBINATIONS, ids="+".join)
def test_random_states_survive_every_copier_and_play_on(combo: tuple[str, ...]) -> None:
    states = _states(combo)
    for state in states[::20] + states[-1:]:
        check_pickle_round_trip(state, play_on=2)


def test_copiers_include_pickle_cloudpickle_and_deepcopy() -> None:
    assert set(copiers()) == {"pickle", "cloudpickle", "deepcopy"}


def test_values_pickle_to_the_interned_objects() -> None:
    card = Card.parse("W+4")
    action = Action.parse("2: play W+4 B")
    for how, copier in copiers().items():
        assert copier(card) is card, how
        assert copier(Color.GREEN) is Color.GREEN, how
        assert copier(action) is action, how
        assert copier(PLAY) is PLAY, how
        phase = Phase("challenge", 4, card, 1, Color.RED, (card, ("x", 3)), False)
        assert copier(phase) == phase, how
        event = Event("draw", 1, (card,), "R-TURN-DRAW", "turn", True)
        assert copier(event) == event, how
        assert copier(event).cards[0] is card, how


def test_a_rule_set_pickles_by_its_spec_and_comes_back_as_the_cached_object() -> None:
    rules = Ruleset.from_names(["classic", "stacking"], options={"stack_mix": True})
    for how, copier in copiers().items():
        assert copier(rules) is rules, how
    assert copy.copy(rules) is rules
    assert len(pickle.dumps(rules)) < 200  # the spec text, not the plugins


def test_a_rule_set_of_plugin_objects_pickles_with_its_plugins() -> None:
    from unorules_classic import plugin as classic  # installed, but passed as an object

    class Unlisted(unorules.Plugin):
        name = "unlisted-for-pickle"
        api_version = 2

    rules = Ruleset.from_names([], plugins=[classic, Unlisted()])
    state = rules.new_game(players=3, seed=1)
    restored = cloudpickle.loads(cloudpickle.dumps(state))
    assert restored == state
    assert restored.ruleset.names == rules.names
    assert restored.apply(state.legal_actions()[0]) == state.apply(state.legal_actions()[0])


def test_a_pickle_of_plugin_cards_loads_in_a_fresh_process() -> None:
    # Custom-wilds registers its card kinds when imported: the fresh process
    # has not imported it when the pickle's cards are rebuilt.
    rules = Ruleset.from_names(["classic", "custom-wilds", "stacking", "jump-in"])
    states = list(random_states(rules, 3, seed=7, steps=40))
    payload = pickle.dumps(states)
    script = (
        "import pickle, sys\n"
        "states = pickle.loads(sys.stdin.buffer.read())\n"
        "assert len({id(s.ruleset) for s in states}) == 1, 'one rule set for every state'\n"
        "sys.stdout.write(states[-1].to_json())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input=payload, capture_output=True, check=True, timeout=120
    )
    assert GameState.from_json(done.stdout.decode(), ruleset=rules) == states[-1]


def test_unpickling_many_states_builds_one_rule_set() -> None:
    rules = Ruleset.from_names(["classic", "seven-o"])
    states = list(random_states(rules, 4, seed=2, steps=30))
    restored = pickle.loads(pickle.dumps(states))
    assert restored == states
    assert {id(s.ruleset) for s in restored} == {id(rules)}


def test_copy_and_deepcopy_of_a_frozen_state_are_the_state_itself_and_play_on_identically() -> None:
    # A state is an immutable value (as a tuple is): a copy could not be told
    # apart from it, so copy.copy and copy.deepcopy give the state back.
    rules = Ruleset.from_names(["classic"])
    state = list(random_states(rules, 3, seed=5, steps=25))[-1]
    assert copy.copy(state) is state
    other = copy.deepcopy(state)
    assert other is state
    assert copy.deepcopy([state, state]) == [state, state]
    for action in state.legal_actions():
        assert other.apply(action) == state.apply(action)


# -- seeds ----------------------------------------------------------------------------------------


class _Seven:
    """A third-party integer type, registered as a ``numbers.Integral``."""

    def __int__(self) -> int:
        return 7

    def __index__(self) -> int:
        return 7


numbers.Integral.register(_Seven)


def test_any_integral_seed_is_the_int_seed_of_equal_value() -> None:
    rules = Ruleset.from_names(["classic"])
    by_int = rules.new_game(players=3, seed=7)
    for seed in (np.int64(7), np.int32(7), np.uint8(7), _Seven()):
        assert rules.new_game(players=3, seed=seed) == by_int, type(seed)
    assert rules.new_game(players=3, seed="7") != by_int  # text is a different seed
    assert rules.new_game(players=3, seed="7") == rules.new_game(players=3, seed="7")
    for bad in (True, 7.0, b"7", [7]):
        with pytest.raises(TypeError, match="seed must be an integer, a str or None"):
            rules.new_game(players=3, seed=bad)  # type: ignore[arg-type]


def test_bots_take_numpy_seeds() -> None:
    assert RandomBot(np.int64(3)).rng.random() == RandomBot(3).rng.random()


# -- the API's edges ------------------------------------------------------------------------------


def test_apply_refuses_what_is_not_an_action_with_a_type_error() -> None:
    state = Ruleset.from_names(["classic"]).new_game(players=3, seed=1)
    for bad in (3, None, Card.parse("R7"), b"0: draw", ["0: draw"]):
        with pytest.raises(TypeError, match="apply takes an Action or action text"):
            state.apply(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="is_legal takes an Action or action text"):
            state.is_legal(bad)  # type: ignore[arg-type]


def test_a_seat_that_does_not_exist_is_a_seat_error_everywhere() -> None:
    state = Ruleset.from_names(["classic"]).new_game(players=3, seed=1)
    for seat in (-1, 3, 99):
        with pytest.raises(SeatError, match=r"no seat .* seats are 0 to 2"):
            state.legal_actions(seat)
        with pytest.raises(SeatError, match="no seat"):
            state.view(seat)
    assert issubclass(SeatError, ValueError)
    assert issubclass(SeatError, unorules.UnorulesError)
    for bad in ("1", 1.0, True):
        with pytest.raises(TypeError, match="a seat is an integer"):
            state.legal_actions(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="a seat is an integer"):
            state.view(bad)  # type: ignore[arg-type]
    assert state.view(np.int64(1)).seat == 1  # type: ignore[arg-type]
    assert state.legal_actions(np.int64(1)) == state.legal_actions(1)  # type: ignore[arg-type]


def test_from_json_reuses_the_cached_rule_set() -> None:
    rules = Ruleset.from_names(["classic", "stacking"])
    state = rules.new_game(players=3, seed=1)
    assert GameState.from_json(state.to_json()).ruleset is rules


# -- who may act ----------------------------------------------------------------------------------


def _classic_state() -> GameState:
    return Ruleset.from_names(["classic"], options={"target_score": 30}).new_game(players=4, seed=2)


def test_seats_to_act_is_the_out_of_turn_seats_in_turn_order_then_the_seat_to_move() -> None:
    base = rearranged(_classic_state(), hands={1: "R5 G7"}, top="R1")
    state = base.replace(current_player=1, phase=PLAY).apply("1: play R5")
    # Seat 1 did not call UNO: every other seat may catch it (and seat 1 call
    # late); seat 2 moves, last, since its action closes the window.
    assert state.current_player == 2
    assert state.seats_to_act() == (3, 0, 1, 2)
    assert set(state.seats_to_act()) == {a.seat for a in state.legal_actions()}
    backwards = base.replace(current_player=1, phase=PLAY, direction=-1).apply("1: play R5")
    assert backwards.current_player == 0
    assert backwards.seats_to_act() == (3, 2, 1, 0)


def test_seats_to_act_is_the_seat_to_move_alone_usually_and_empty_at_the_end() -> None:
    state = _classic_state()
    assert state.seats_to_act() == (state.current_player,)
    final = play_game(state, [RandomBot(s) for s in range(4)])
    assert final.seats_to_act() == ()


# -- bots see views -------------------------------------------------------------------------------


class _Spy:
    """Records what it is handed; plays like a random bot."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[object] = []
        self.inner = RandomBot(1)

    def choose(self, view: SeatView) -> Action | None:
        self.seen.append(view)
        return self.inner.choose(view)


def test_bots_are_handed_their_seat_s_view_only() -> None:
    spies = [_Spy() for _ in range(3)]
    state = Ruleset.from_names(["classic"], options={"target_score": 50}).new_game(players=3, seed=4)
    bots: list[Bot] = [spies[0], HeuristicBot(1), spies[2]]
    for _ in range(150):
        if state.is_over:
            break
        state = state.apply(next_action(state, bots))
    for seat in (0, 2):
        assert spies[seat].seen
        assert all(isinstance(v, SeatView) and v.seat == seat for v in spies[seat].seen)


class _Cheat:
    name = "cheat"

    def __init__(self, action: str | None) -> None:
        self.action = action

    def choose(self, view: SeatView) -> Action | None:
        return None if self.action is None else Action.parse(self.action)


def test_the_driver_refuses_another_seat_s_action_an_illegal_one_and_nothing_on_its_turn() -> None:
    state = _classic_state()
    me = state.current_player
    other = (me + 1) % 4
    bots: list[Bot] = [RandomBot(s) for s in range(4)]
    bots[me] = _Cheat(f"{other}: draw")
    with pytest.raises(BotError, match=rf"seat {me} chose {other}: draw, an action of seat {other}"):
        next_action(state, bots)
    bots[me] = _Cheat(f"{me}: challenge")
    with pytest.raises(BotError, match="not legal now; it may: "):
        next_action(state, bots)
    bots[me] = _Cheat(None)
    with pytest.raises(BotError, match="chose nothing on its turn"):
        next_action(state, bots)
    assert issubclass(BotError, unorules.UnorulesError)


def test_a_heuristic_bot_plays_from_a_view_read_back_from_json_like_the_original() -> None:
    rules = Ruleset.from_names(["classic", "stacking"])
    for state in list(random_states(rules, 3, seed=3, steps=80))[::8]:
        seat = state.current_player
        view = state.view(seat)
        copied = pickle.loads(pickle.dumps(view))
        assert copied == view
        assert HeuristicBot(1).choose(copied) == HeuristicBot(1).choose(view)


def test_views_carry_what_every_player_knows() -> None:
    rules = Ruleset.from_names(["classic", "stacking"], options={"target_score": 200})
    state = rules.new_game(players=3, seed=1)
    view = state.view(1)
    assert (view.players, view.ruleset) == (3, "classic,stacking target_score=200")
    assert view.options == rules.options
    assert view.rules is rules
    assert (view.uno_declared, view.outcome, view.winner) == ((), None, None)
    spectator = state.public_view()
    assert (spectator.seat, spectator.hand, spectator.legal_actions) == (None, (), ())
    assert dict(spectator.visible_hands) == {}
    json.dumps(view.options)  # plain values


# -- client-safe views ----------------------------------------------------------------------------


@functools.cache
def _validators() -> dict[str, Any]:
    return {name: jsonschema.Draft202012Validator(schema(name)) for name in SCHEMAS}


@pytest.mark.parametrize("combo", COMBINATIONS, ids="+".join)
def test_no_view_depends_on_what_its_seat_may_not_know(combo: tuple[str, ...]) -> None:
    states = _states(combo)
    compared = sum(check_view_secrets(state, tries=1) for state in states[::6] + states[-1:])
    assert compared >= len(states[::6])  # most scrambles are comparable


@pytest.mark.parametrize("combo", COMBINATIONS, ids="+".join)
def test_states_and_views_match_their_json_schemas(combo: tuple[str, ...]) -> None:
    validators = _validators()
    for state in _states(combo)[::20]:
        validators["state"].validate(json.loads(state.to_json()))
        for seat in (state.current_player, None):
            view = state.public_view() if seat is None else state.view(seat)
            data = json.loads(view.to_json())
            validators["view"].validate(data)
            assert data == view.to_data()
            assert SeatView.from_json(view.to_json()) == view


def test_the_schemas_refuse_a_state_sent_as_a_view() -> None:
    state = Ruleset.from_names(["classic"]).new_game(players=3, seed=1)
    with pytest.raises(jsonschema.ValidationError):
        _validators()["view"].validate(json.loads(state.to_json()))
    data = state.view(0).to_data()
    data["hands"] = [[str(c) for c in h] for h in state.hands]
    with pytest.raises(jsonschema.ValidationError, match="Additional properties"):
        _validators()["view"].validate(data)
    with pytest.raises(ValueError, match="no schema 'game'"):
        schema("game")


class _Stash(unorules.Plugin):
    """Keeps the draw pile's next card in plugin data (not declared public)."""

    name = "stash-for-test"
    api_version = 2
    requires = ("classic",)
    extras = (unorules.ExtraSpec("next-card", "the draw pile's next card"),)

    @unorules.hookimpl(wrapper=True)
    def apply_action(self, draft: unorules.Draft) -> Generator[None, Any, Any]:
        done = yield
        if draft.draw_pile:
            draft.set_extra("next-card", draft.draw_pile[0])
        return done


def test_private_plugin_data_stays_out_of_views() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[_Stash()])
    state = rules.new_game(players=3, seed=1)
    state = state.apply(state.legal_actions()[0])
    assert state.extra("next-card") is state.draw_pile[0]
    assert check_view_secrets(state) > 0
    assert all(v.extras == () for v in (state.view(0), state.public_view()))
    assert "next-card" not in state.view(1).to_json()


def test_a_view_that_leaks_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(players=3, seed=3)
    drawn = state.apply(f"{state.current_player}: draw")
    assert check_view_secrets(drawn) > 0
    original = GameState._view

    def unredacted(self: GameState, seat: int | None) -> SeatView:
        return attrs.evolve(original(self, seat), events=self.events)  # private cards shown to all

    monkeypatch.setattr(GameState, "_view", unredacted)
    with pytest.raises(unorules.testing.InvariantViolation, match="events differ"):
        check_view_secrets(drawn)

    def with_all_extras(self: GameState, seat: int | None) -> SeatView:
        return attrs.evolve(original(self, seat), extras=self.extras)

    monkeypatch.setattr(GameState, "_view", with_all_extras)
    stashed = Ruleset.from_names(["classic"], plugins=[_Stash()]).new_game(players=3, seed=1)
    stashed = stashed.apply(stashed.legal_actions()[0])
    with pytest.raises(unorules.testing.InvariantViolation, match="non-public plugin data"):
        check_view_secrets(stashed)


def test_views_hide_the_secret_card_and_private_cards_but_keep_the_draw_count() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(players=3, seed=3)
    mover = state.current_player
    drawn = state.apply(f"{mover}: draw")
    (event,) = [e for e in drawn.events if e.kind == "draw"]
    assert (event.seat, event.count, len(event.cards)) == (mover, 1, 1)
    for seat in (*[s for s in range(3) if s != mover], None):
        view = drawn.public_view() if seat is None else drawn.view(seat)
        (seen,) = [e for e in view.events if e.kind == "draw"]
        assert (seen.cards, seen.count) == ((), 1)
        assert view.phase.card is None
        assert str(event.cards[0]) not in json.dumps(view.to_data()["events"])


def test_state_json_without_the_typed_event_fields_still_reads() -> None:
    state = Ruleset.from_names(["classic"]).new_game(players=3, seed=3)
    data = json.loads(state.to_json())
    for event in data["events"]:
        for key in ("target", "count", "color", "data"):
            del event[key]
    restored = GameState.from_json(json.dumps(data))
    assert [e.kind for e in restored.events] == [e.kind for e in state.events]


def test_view_json_errors_name_the_bad_part() -> None:
    view = Ruleset.from_names(["classic"]).new_game(players=3, seed=3).view(0)
    data = view.to_data()
    with pytest.raises(unorules.StateFormatError, match=r"format: expected 'unorules\.view/1'"):
        SeatView.from_data({**data, "format": "unorules.state/1"})
    with pytest.raises(unorules.StateFormatError, match=r"hand\[0\]"):
        SeatView.from_data({**data, "hand": ["R99"]})
    with pytest.raises(unorules.StateFormatError, match="not valid JSON"):
        SeatView.from_json("{")


# -- structured events and their catalogue ---------------------------------------------------------


@functools.cache
def _event_games(combo: tuple[str, ...]) -> tuple[GameState, ...]:
    """Random games of ``combo`` with option values drawn for it (custom wilds bound, ...)."""
    states: list[GameState] = []
    for i in range(3):
        options = option_variant(build_ruleset(combo), f"events/{i}")  # type: ignore[arg-type]
        rules = build_ruleset(combo, options)
        if not isinstance(rules, Ruleset):
            continue
        players = supported_players(rules, (3, 4, 2))[0]
        states += random_states(rules, players, seed=f"events/{i}", steps=150)
    return tuple(states)


@pytest.mark.parametrize("combo", [c for c in COMBINATIONS if len(c) <= 2 or len(c) > 3], ids="+".join)
def test_every_event_is_declared_with_its_fields(combo: tuple[str, ...]) -> None:
    for state in _event_games(combo):
        check_events(state)


def test_the_shipped_plugins_emit_their_declared_kinds() -> None:
    emitted = {
        e.kind for combo in COMBINATIONS if len(combo) <= 2 for s in _event_games(combo) for e in s.events
    }
    # Random play (legal actions of some plugins come in a per-process order):
    # only kinds that every run reaches, and most of the catalogue.
    assert emitted >= {"deal", "draw", "uno", "hands-moved"}
    assert len(emitted) >= 12, sorted(emitted)


class _Chatty(unorules.Plugin):
    """Emits an event kind it does not declare."""

    name = "chatty-for-test"
    api_version = 2
    requires = ("classic",)

    @unorules.hookimpl(wrapper=True)
    def apply_action(self, draft: unorules.Draft, action: Action) -> Generator[None, Any, Any]:
        done = yield
        draft.add_event(Event("gossip", action.seat))
        return done


def test_an_undeclared_event_kind_or_field_is_caught() -> None:
    state = Ruleset.from_names(["classic"], plugins=[_Chatty()]).new_game(players=3, seed=1)
    state = state.apply(state.legal_actions()[0])
    with pytest.raises(
        unorules.testing.InvariantViolation, match="'gossip' was emitted that no plugin declares"
    ):
        check_events(state)
    _Chatty.events = (EventSpec("gossip", "chatter"),)
    try:
        assert Ruleset.from_names(["classic"], plugins=[_Chatty()]).events["gossip"].doc == "chatter"
        noisy = state.replace(events=(Event("gossip", 0, count=3),))
        with pytest.raises(unorules.testing.InvariantViolation, match="fills count, which its EventSpec"):
            check_events(noisy.replace(ruleset=Ruleset.from_names(["classic"], plugins=[_Chatty()])))
    finally:
        del _Chatty.events


def test_event_specs_name_real_fields_and_two_plugins_cannot_claim_one_kind() -> None:
    with pytest.raises(ValueError, match="unknown field 'who'"):
        EventSpec("x", "", (("who", "a seat"),))

    class Other(unorules.Plugin):
        name = "other-for-test"
        api_version = 2
        events = (EventSpec("stack", "something else"),)

    with pytest.raises(unorules.RulesetError, match="both declare event kind 'stack'"):
        Ruleset.from_names(["classic", "stacking"], plugins=[Other()])
    rules = Ruleset.from_names(["classic", "stacking"])
    assert rules.event_owners["draw"] == "core"
    assert rules.event_owners["stack"] == "core"  # a core mechanic (Draft.grow_stack) stacking uses
    assert rules.event_owners["caught"] == "core"  # the UNO books are the core's (Draft.catch)


def test_events_carry_who_how_many_and_which_colour() -> None:
    base = Ruleset.from_names(["classic", "stacking"]).new_game(players=3, seed=2)
    state = rearranged(base, hands={0: "R+2 G7 G8", 1: "B+2 Y1 Y2"}, top="R1")
    state = state.replace(current_player=0, phase=PLAY, color=Color.RED)
    state = state.apply("0: play R+2").apply("1: play B+2")
    (stack,) = [e for e in state.events if e.kind == "stack"]
    assert (stack.seat, stack.target, stack.count, stack.cards) == (1, 2, 4, (Card.parse("B+2"),))
    assert str(stack) == "seat 1 stack B+2: seat 2 must answer a stack of 4 (R-STACK)"
    caught_base = rearranged(base, hands={1: "R5 G7"}, top="R1").replace(current_player=1, phase=PLAY)
    caught = caught_base.apply("1: play R5").apply("0: catch 1")
    (event,) = [e for e in caught.events if e.kind == "caught"]
    assert (event.seat, event.target, event.count) == (1, 0, 2)
    (draw,) = [e for e in caught.events if e.kind == "draw"]
    assert (draw.seat, draw.count, draw.value("reason")) == (1, 2, "penalty")


def test_the_soak_command_checks_the_states_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    from unorules.testing.soak import main, soak_combination

    assert main(["--states", "12", "--plugins", "swap-hands"]) == 0
    out = capsys.readouterr().out
    assert "classic+swap-hands: 12 states" in out
    assert "soak passed: 2 combinations, 24 states (12 each)" in out
    refused = soak_combination(("classic", "nonesuch"), states=5)
    assert refused.states == 0
    assert refused.violation is not None
    assert "does not build" in refused.violation

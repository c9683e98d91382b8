"""The invariant functions: they hold over classic games and catch each broken plugin."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Iterator, Mapping
from typing import ClassVar

import pytest
from toolkit_broken_plugins import (
    CountsRefusals,
    DancesWithoutSteps,
    DrawsForTheNextSeat,
    ExplainsBadly,
    ForgetsTheSetAside,
    LosesFives,
    NeverGoesOut,
    NothingAfterDrawing,
    RandomSkips,
    RemembersDraws,
    SetsAsideACard,
    ShowsAGhost,
    SkipsWithoutGoingOut,
    StallsDraws,
    StoresAFloat,
)

from unorules import (
    Action,
    Card,
    Draft,
    GameState,
    Outcome,
    Phase,
    PhaseSpec,
    Plugin,
    Ruleset,
    TestHints,
    hookimpl,
)
from unorules.testing import Replay, arrange_deck
from unorules.testing.invariants import (
    DEFAULT_MAX_ROUND_ACTIONS,
    DEFAULT_REPEAT_LIMIT,
    ROUND_ACTIONS_PER_SEAT,
    InvariantViolation,
    RoundMonitor,
    check_apply_pure,
    check_cards,
    check_hands,
    check_illegal_actions_refused,
    check_json_round_trip,
    check_legal_actions,
    check_legal_actions_accepted,
    check_replay,
    check_replay_game,
    check_round_ends,
    check_state,
    check_turn,
    check_views,
    round_bound,
    turn_only_verbs,
)
from unorules.testing.replay import choose_action
from unorules.testing.step_invariants import check_step

Check = Callable[[GameState], None]


def rules_with(*plugins: object, **options: object) -> Ruleset:
    return Ruleset.from_names(["classic"], options=options, plugins=plugins)


def seeded_game(
    rules: Ruleset, players: int = 3, seed: int = 1, steps: int = 300, eager: float = 0.5
) -> Iterator[GameState]:
    """The states of a seeded random game, the deal first."""
    state = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    yield state
    for _ in range(steps):
        if state.is_over:
            return
        state = state.apply(choose_action(state, rng, eager))
        yield state


def first_violation(rules: Ruleset, check: Check, seeds: int = 6, steps: int = 300) -> InvariantViolation:
    """The first violation of ``check`` over a few seeded games (fails the test if none)."""
    for seed in range(seeds):
        for state in seeded_game(rules, seed=seed, steps=steps):
            try:
                check(state)
            except InvariantViolation as violation:
                return violation
    raise AssertionError(f"{check.__name__} found nothing wrong with {rules!r}")


def test_every_invariant_holds_over_seeded_classic_games() -> None:
    rules = rules_with(target_score=60)
    for players in (2, 3, 7):
        monitor = RoundMonitor(rules)
        for i, state in enumerate(seeded_game(rules, players=players, seed=players, steps=400, eager=0.8)):
            monitor.observe(state)
            check_state(state, deep=i % 5 == 0, require_rule=True)


def test_invariant_violations_are_assertion_errors_naming_the_invariant() -> None:
    violation = InvariantViolation("cards", "missing R5")
    assert isinstance(violation, AssertionError)
    assert str(violation) == "[cards] missing R5"
    copy = pickle.loads(pickle.dumps(violation))
    assert (copy.invariant, copy.detail) == ("cards", "missing R5")
    assert str(violation.within("replay step 3")) == "[cards] replay step 3: missing R5"


# -- cards ------------------------------------------------------------------------------------


def test_cards_catches_a_card_that_vanishes() -> None:
    violation = first_violation(rules_with(LosesFives()), check_cards)
    assert violation.invariant == "cards"
    assert "missing" in violation.detail
    assert "5" in violation.detail


def test_cards_counts_the_cards_a_plugin_declares_set_aside() -> None:
    rules = rules_with(SetsAsideACard(), target_score=300)
    states = list(seeded_game(rules, players=2, steps=1500, eager=0.9))
    assert len(states[-1].rounds) >= 2  # several deals, each setting a card aside
    for state in states:
        assert state.extra("aside") is not None
        check_cards(state)


def test_cards_catches_a_card_set_aside_without_saying_so() -> None:
    state = rules_with(ForgetsTheSetAside()).new_game(players=2, seed=1)
    with pytest.raises(InvariantViolation, match=r"\[cards\] at the deal.*missing"):
        check_cards(state)


# -- hands ----------------------------------------------------------------------------------


def test_hands_catches_a_round_going_on_after_a_seat_played_its_last_card() -> None:
    violation = first_violation(rules_with(SkipsWithoutGoingOut()), check_hands, seeds=10, steps=600)
    assert violation.invariant == "hands"
    assert "holds no cards but round" in violation.detail
    assert "R-OUT" in violation.detail


class SettlesTheRound(Plugin):
    """Declares a phase in which a seat may hold no cards while the round goes on."""

    name = "settles-the-round"
    api_version = 2
    requires = ("classic",)
    phases = (PhaseSpec("settle", "the round is settled before it ends", empty_hand=True),)


def test_hands_allows_an_empty_hand_in_a_phase_that_declares_it() -> None:
    state = rules_with(SettlesTheRound()).new_game(players=3, seed=1)
    check_hands(state)
    empty = state.replace(hands=((), *state.hands[1:]))
    with pytest.raises(InvariantViolation, match=r"\[hands\] at the deal, seat 0 holds no cards"):
        check_hands(empty)
    with pytest.raises(InvariantViolation, match=r"\[hands\]"):
        check_hands(empty.replace(phase=Phase("drawn")))  # declared by classic, without empty_hand
    check_hands(empty.replace(phase=Phase("settle")))
    check_hands(empty.replace(left=(0,)))  # a seat that has left holds nothing
    check_hands(empty.replace(outcome=Outcome((1,), "target-score")))


# -- turn and legal actions ----------------------------------------------------------------


def test_turn_catches_a_turn_action_of_another_seat() -> None:
    violation = first_violation(rules_with(DrawsForTheNextSeat()), check_turn)
    assert violation.invariant == "turn"
    assert "'draw' is a turn action" in violation.detail


class DrawsForTheNextSeatOnPurpose(DrawsForTheNextSeat):
    """The same actions, declared: 'draw' may come from other seats."""

    name = "draws-for-next-on-purpose"
    verbs: ClassVar[Mapping[str, str]] = {"draw": "any"}


def test_turn_accepts_verbs_a_plugin_declares_out_of_turn() -> None:
    rules = rules_with(DrawsForTheNextSeatOnPurpose())
    assert "draw" not in turn_only_verbs(rules)
    assert "play" in turn_only_verbs(rules)
    state = rules.new_game(players=3, seed=4)
    rng = random.Random(4)
    for _ in range(60):
        check_turn(state)  # the next seat's 'draw' is listed, and declared
        state = state.apply(rng.choice(state.legal_actions(state.current_player)))


def test_turn_catches_a_seat_to_move_without_an_action() -> None:
    rules = rules_with(NothingAfterDrawing())
    hands = ["R1 R2 R3 R4 R6 R7 R8", "B1 B2 B3 B4 B6 B7 B8"]
    state = rules.new_game(players=2, deck=arrange_deck(hands, "G5", draw="G7", dealer=1), dealer=1)
    drawn = state.apply("0: draw")
    assert drawn.phase.name == "drawn"
    with pytest.raises(InvariantViolation, match=r"\[legal\] after \"0: draw\", no action is legal"):
        check_legal_actions(drawn)
    with pytest.raises(InvariantViolation, match=r"\[turn\].*has no legal action"):
        check_turn(drawn)


def test_legal_actions_name_seats_in_the_game_once_and_round_trip_their_notation() -> None:
    for state in seeded_game(rules_with(), players=4, steps=100):
        check_legal_actions(state)
        for action in state.legal_actions():
            assert Action.parse(str(action)) is action


# -- accepted, refused, pure -------------------------------------------------------------------


def test_accepted_catches_a_legal_action_that_apply_cannot_carry_out() -> None:
    state = rules_with(DancesWithoutSteps()).new_game(players=3, seed=2)
    with pytest.raises(InvariantViolation, match=r"\[accepted\].*dance is listed as legal but apply raised"):
        check_legal_actions_accepted(state)


def test_refused_catches_a_refusal_that_raises_the_wrong_error() -> None:
    violation = first_violation(rules_with(ExplainsBadly()), check_illegal_actions_refused)
    assert violation.invariant == "refused"
    assert "KeyError instead of IllegalActionError" in violation.detail


class DancesUnexplained(DancesWithoutSteps):
    """Lists and carries out 'dance', but never says why a 'dance' is refused."""

    name = "dances-unexplained"

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        if action.verb != "dance":
            return None
        draft.pass_turn(1, action.seat)
        return True


def test_refused_with_require_rule_wants_a_rule_id_for_each_refusal() -> None:
    for state in seeded_game(rules_with(), steps=60):
        check_illegal_actions_refused(state, require_rule=True)  # classic cites a rule for each
    rules = rules_with(DancesUnexplained())

    def strict(state: GameState) -> None:
        check_illegal_actions_refused(state, sample=16, require_rule=True)

    violation = first_violation(rules, strict)
    assert violation.invariant == "refused"
    assert "dance" in violation.detail
    assert "cites no rule" in violation.detail


def test_pure_catches_a_refusal_that_changes_the_state() -> None:
    state = rules_with(CountsRefusals()).new_game(players=3, seed=1)
    illegal = Action.of(state.next_seat(), "draw")
    with pytest.raises(InvariantViolation, match=r"\[pure\]"):
        check_apply_pure(state, [illegal])
    state = rules_with(CountsRefusals()).new_game(players=3, seed=1)
    with pytest.raises(InvariantViolation, match=r"\[pure\] at the deal, refusing illegal actions changed"):
        check_illegal_actions_refused(state)


# -- json, replay, view ------------------------------------------------------------------------


def test_json_catches_a_value_json_cannot_hold() -> None:
    violation = first_violation(rules_with(StoresAFloat()), check_json_round_trip)
    assert violation.invariant == "json"
    assert "to_json() raised TypeError" in violation.detail


def test_json_catches_state_kept_in_the_plugin_object() -> None:
    violation = first_violation(rules_with(RemembersDraws()), check_json_round_trip)
    assert violation.invariant == "json"
    assert "differ after" in violation.detail


def test_json_round_trip_rebuilding_the_rule_set_from_its_names() -> None:
    rules = Ruleset.from_names(["classic"], options={"uno_penalty": 4})
    for state in seeded_game(rules, steps=30):
        check_json_round_trip(state, rebuild_ruleset=True)


def test_replay_catches_randomness_outside_the_game_generator() -> None:
    rules = rules_with(RandomSkips())
    random.seed(5)
    state = rules.new_game(players=4, seed=3)
    rng = random.Random(3)
    actions: list[Action] = []
    skips = 0
    while skips < 30:
        action = choose_action(state, rng, eager=0.9)
        skips += action.verb == "play" and action.card is not None and action.card.kind == "S"
        actions.append(action)
        state = state.apply(action)
        assert not state.is_over
    with pytest.raises(InvariantViolation, match=r"\[replay\]"):
        check_replay(Replay(rules, 4, 3, actions=actions), state)


def test_replay_holds_for_classic_and_names_the_step_that_fails() -> None:
    rules = rules_with()
    states = list(seeded_game(rules, steps=80))
    actions = [s.last_action for s in states[1:] if s.last_action is not None]
    assert check_replay_game(Replay(rules, 3, 1, actions=actions)) == states[-1]

    broken = rules_with(LosesFives())
    state = broken.new_game(players=3, seed=1)
    rng = random.Random(1)
    actions = []
    while not actions or actions[-1].card is None or actions[-1].card.kind != "5":
        action = choose_action(state, rng, 0.9)
        actions.append(action)
        state = state.apply(action)
    with pytest.raises(InvariantViolation, match=rf"\[cards\] replay step {len(actions)}: after"):
        check_replay_game(Replay(broken, 3, 1, actions=actions), deep=False)


def test_view_catches_a_hand_shown_of_a_seat_that_does_not_exist() -> None:
    state = rules_with(ShowsAGhost()).new_game(players=3, seed=1)
    with pytest.raises(InvariantViolation, match=r"\[view\] at the deal, view\(0\) raised IndexError"):
        check_views(state)


# -- rounds ---------------------------------------------------------------------------------------


def test_rounds_catches_a_round_that_keeps_coming_back_to_one_state() -> None:
    rules = rules_with(StallsDraws())
    state = rules.new_game(players=2, seed=1)
    monitor = RoundMonitor(rules, repeat_limit=3)
    monitor.observe(state)
    for _ in range(3):  # both seats draw, the draw does nothing: back where they were
        state = state.apply(Action.of(state.current_player, "draw"))
        monitor.observe(state)
    state = state.apply(Action.of(state.current_player, "draw"))
    with pytest.raises(InvariantViolation, match=r"\[rounds\].*has come up 3 times.*a loop of 2 actions"):
        monitor.observe(state)


def test_rounds_a_state_coming_back_now_and_then_is_not_a_failure() -> None:
    # The rules allow loops that players leave by choice; only a state that
    # keeps coming back (DEFAULT_REPEAT_LIMIT times) fails.
    rules = rules_with(StallsDraws())
    state = rules.new_game(players=2, seed=1)
    monitor = RoundMonitor(rules)
    monitor.observe(state)
    for _ in range(2 * (DEFAULT_REPEAT_LIMIT - 2)):
        state = state.apply(Action.of(state.current_player, "draw"))
        monitor.observe(state)
    assert monitor.actions_this_round == 2 * (DEFAULT_REPEAT_LIMIT - 2)


def test_rounds_a_legal_round_longer_than_the_bound_is_probed_not_failed() -> None:
    rules = rules_with()
    monitor = RoundMonitor(rules, bound=5)
    states = list(seeded_game(rules, steps=40))
    for state in states:
        monitor.observe(state)  # eager play from action 6 ends the round: merely long
    assert monitor.probes >= 2  # past 5, then past 12, ...
    assert monitor.bound > 5


def test_rounds_catches_a_round_that_can_never_end() -> None:
    # No state comes back (draws reshuffle with the game's generator), so only
    # the bound, and eager play failing to end the round, show it.
    rules = rules_with(NeverGoesOut())
    state = rules.new_game(players=2, seed=3)
    monitor = RoundMonitor(rules, bound=300, probe_actions=2_000)
    monitor.observe(state)
    rng = random.Random(3)
    for _ in range(300):
        state = state.apply(choose_action(state, rng, 0.8))
        monitor.observe(state)
    assert not state.rounds
    state = state.apply(choose_action(state, rng, 0.8))
    with pytest.raises(InvariantViolation, match=r"\[rounds\] round 1 has lasted 301 actions.*may never end"):
        monitor.observe(state)


class LongRounds(Plugin):
    """Declares a bound for rounds (rounds of its game are meant to last long)."""

    name = "long-rounds"
    api_version = 2
    requires = ("classic",)
    testing = TestHints(max_round_actions=123_456)


class DrawsMore(Plugin):
    """Declares that its rounds last three times as long as classic's."""

    name = "draws-more"
    api_version = 2
    requires = ("classic",)
    testing = TestHints(round_length_factor=3.0)


def test_rounds_bound_grows_with_the_seats_and_the_factors_plugins_declare() -> None:
    assert round_bound(rules_with()) == DEFAULT_MAX_ROUND_ACTIONS == 4 * ROUND_ACTIONS_PER_SEAT
    assert round_bound(rules_with(), 10) == 10 * ROUND_ACTIONS_PER_SEAT
    assert round_bound(rules_with(LongRounds())) == 123_456
    assert round_bound(rules_with(LongRounds()), 10) == 125_000  # larger than the declared bound
    assert round_bound(rules_with(DrawsMore(), LongRounds()), 2) == 123_456
    assert round_bound(rules_with(DrawsMore()), 2) == 75_000
    assert RoundMonitor(rules_with(LongRounds())).bound == 123_456
    monitor = RoundMonitor(rules_with(DrawsMore()))
    monitor.observe(rules_with(DrawsMore()).new_game(players=6, seed=1))
    assert monitor.bound == 6 * 3 * ROUND_ACTIONS_PER_SEAT


ISSUE_12_OPTIONS = {
    "custom_wild_1": "stiff-elbows",
    "custom_wild_2": "crow-or-draw-4",
    "custom_wild_3": "crow-and-draw-4",
    "blank_cards": "R0 house-rule",
}


def test_rounds_a_ten_player_round_of_custom_wilds_and_blank_cards_is_never_a_false_alarm() -> None:
    # Issue 12, point 3: a 10-player game of this rule set (seed 7000047) took
    # 132,460 actions in one round, which ended, and the monitor's fixed bound of
    # 50,000 called it endless. The bound is now a function of the rule set and
    # the seats, and a round past it fails only if eager play cannot end it.
    pytest.importorskip("unorules_custom_wilds")
    pytest.importorskip("unorules_blank_cards")
    rules = Ruleset.from_names(["classic", "custom-wilds", "blank-cards"], options=ISSUE_12_OPTIONS)
    assert round_bound(rules, 10) > 132_460
    # The same mechanism, cheaply: the seed's first round with a bound of 100.
    state = rules.new_game(players=10, seed=7000047)
    monitor = RoundMonitor(rules, bound=100)
    monitor.observe(state)
    ended = check_round_ends(state, seed=7000047, bound=100, each=monitor.observe)
    assert len(ended.rounds) == 1
    assert monitor.actions_this_round == 0  # the next round has begun
    assert monitor.probes >= 1


def test_check_round_ends_plays_the_round_to_its_end() -> None:
    rules = rules_with()
    state = rules.new_game(players=4, seed=9)
    ended = check_round_ends(state, seed=2, eager=0.5, each=check_cards)
    assert len(ended.rounds) == 1
    assert ended.rounds[0].winner is not None
    with pytest.raises(InvariantViolation, match=r"\[rounds\]"):
        check_round_ends(rules_with(StallsDraws()).new_game(players=2, seed=1), seed=1)


def test_turn_the_seat_to_move_must_be_in_the_game_until_it_is_over() -> None:
    state = rules_with().new_game(players=3, seed=1)
    gone = state.replace(left=(state.current_player,))
    with pytest.raises(
        InvariantViolation, match=r"\[turn\] at the deal, seat \d is to move but has left the game"
    ):
        check_turn(gone)
    # Once the game is over nobody is to move: an elimination can end it with
    # current_player naming a seat that has just left.
    check_turn(gone.replace(outcome=Outcome((0,), "last seat standing")))


class _FourCardHands(Plugin):
    name = "four-card-hands"
    api_version = 2

    @hookimpl
    def hand_size(self, ruleset: Ruleset) -> int:
        return 4


def test_uno_is_no_false_alarm_when_a_bomb_deals_another_seat_a_copy_of_the_card_laid() -> None:
    """Issue 44: seat 0 plays R8, Y8, G8 down to one card; the bomb (R-HOUSE-BOMB) makes
    seat 1 draw the other G8. That copy came from the draw pile, not from seat 0's hand:
    seat 0 played itself down to one card and is rightly open to a catch."""
    rules = Ruleset.from_names(["classic", "multi-play"], {"multi_bomb": True}, plugins=[_FourCardHands()])
    deck = arrange_deck(["R8 Y8 G8 B1", "Y1 Y2 Y3 Y4"], "R5", draw="G8", dealer=1, hand_size=4)
    state = rules.new_game(players=2, deck=deck, dealer=1)
    for text in ("0: play R8", "0: play Y8", "0: play G8"):
        action = next(a for a in state.legal_actions() if str(a) == text)
        after = state.apply(action)
        check_step(state, action, after)  # raised "a stale exposure" for the bomb's G8
        state = after
    assert Card.parse("G8") in state.hands[1]
    assert 0 in state.uno_exposed

"""What a seat knows and the worlds sampled from it (unorules.knowledge).

The property: over each shipped plugin, every pair of them and 40 larger
combinations drawn with a fixed seed (idle plugins given options that wake
them up), at every step of a game, each seat's knowledge
follows its views, and every world sampled from it shows that seat exactly
its view, validates, and keeps the cards the seat knows where it knows them.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import unorules
from unorules import Action, Card, GameState, Ruleset, RulesetError, installed_plugins, validate_state
from unorules.draft import DISCARD, DRAW
from unorules.knowledge import Knowledge, determinize
from unorules.testing.strategies import drawn_subsets

ROOT = Path(__file__).resolve().parents[1]

WAKE: dict[str, dict[str, Any]] = {
    "penalties": {"enforcement": "table"},
    "custom-wilds": {
        "custom_wild_1": "discard-wilds",
        "custom_wild_2": "all-to-3",
        "custom_wild_3": "open-hands",
    },
    "blank-cards": {"blank_cards": ("house-rule", "house-rule", "aside")},
}
"""Options that make a plugin do something (its defaults leave it idle)."""

FIXES: tuple[dict[str, Any], ...] = ({}, {"with_swap_hands": True})
"""Options tried, in order, for a combination refused with the others."""


def _shipped() -> list[str]:
    found = []
    for name, plugin in installed_plugins().items():
        path = getattr(sys.modules.get(type(plugin).__module__), "__file__", None)
        if path is None or name == "classic":
            continue
        # this tree's plugins, wherever they are installed from (a worktree shares the venv)
        dists = {parent.name for parent in Path(path).resolve().parents if parent.parent.name == "plugins"}
        if any((ROOT / "plugins" / dist).is_dir() for dist in dists):
            found.append(name)
    return sorted(found)


SHIPPED = _shipped()
SINGLES = [(), *((name,) for name in SHIPPED)]
PAIRS: list[tuple[str, ...]] = list(itertools.combinations(SHIPPED, 2))


LARGER = drawn_subsets(SHIPPED, 40, 3, 10, seed=2026)
"""Combinations of three or more plugins: every subset would be 2**len(SHIPPED)."""


def _build(extra: tuple[str, ...]) -> Ruleset | None:
    options: dict[str, Any] = {}
    for name in extra:
        options.update(WAKE.get(name, {}))
    # A whole edition (flip, no-mercy) replaces classic.
    for names in (["classic", *extra], list(extra)):
        for fix in FIXES:
            try:
                return Ruleset.from_names(names, options={**options, **fix})
            except RulesetError:
                continue
    return None


def _players(rules: Ruleset, wanted: int) -> int:
    for players in (wanted, 4, 2, 3):
        try:
            rules.new_game(players=players, seed=0)
        except RulesetError:
            continue
        return players
    raise AssertionError(f"{rules!r} deals no game")


def _choose(state: GameState, rng: random.Random) -> Action:
    """Random play that often draws (reshuffles happen) yet plays cards (rounds end)."""
    legal = state.legal_actions()
    draws = [a for a in legal if a.verb == "draw"]
    plays = [a for a in legal if a.verb == "play"]
    if draws and rng.random() < 0.4:
        return rng.choice(draws)
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    return rng.choice(legal)


def _place_cards(world: GameState, seat: int, place: object) -> Counter[Card]:
    if place == DRAW:
        return Counter(world.draw_pile)
    assert isinstance(place, int)
    return Counter(world.hands[place])


def _check_positions(state: GameState, knowledge: Knowledge, where: str) -> None:
    """A deck of two-faced cards: the card of each position of a hand and of the
    discard pile of ``state`` is one the record lets that position hold."""
    positions = knowledge._positions
    assert positions is not None
    places: list[tuple[int | str, tuple[Card, ...]]] = [*enumerate(state.hands)]
    places.append((DISCARD, state.discard_pile))
    for place, cards in places:
        tags = positions.get(place, [])
        assert len(tags) == len(cards)
        for i, (card, (_, excluded)) in enumerate(zip(cards, tags, strict=True)):
            assert card not in excluded, f"{place}'s card {i}, {card}, is ruled out: {where}"


def check_game(rules: Ruleset, players: int, seed: int, steps: int, infer: bool = False) -> int:
    """Play ``steps`` actions, checking every seat's knowledge and a world of it
    after each; returns the number of worlds checked."""
    state = rules.new_game(players=players, seed=seed)
    knowledge = [Knowledge(state.view(s), infer=infer) for s in range(players)]
    rng = random.Random(seed)
    checked = 0
    for step in range(steps):
        if state.is_over:
            break
        state = state.apply(_choose(state, rng))
        for seat in range(players):
            view = state.view(seat)
            knowing = knowledge[seat]
            knowing.update(view)
            world = determinize(view, knowing, random.Random(f"{seed}/{step}/{seat}"))
            where = f"{rules.spec_text}, {players} players, seed {seed}, step {step}, seat {seat}"
            assert world.view(seat) == view, f"the world does not show the view: {where}"
            validate_state(world)
            for place in [DRAW, *range(players)]:
                if place in view.left:
                    continue
                missing = knowing.known(place) - _place_cards(world, seat, place)
                assert not missing, f"known cards {dict(missing)} not in place {place}: {where}"
            assert sorted(map(str, world.draw_pile)) != [] or view.draw_pile_size == 0
            if rules.two_faced:
                _check_positions(state, knowing, where)  # what it remembers is true
                _check_positions(world, knowing, where)  # and the world keeps to it
            checked += 1
        assert all(k.resets == 0 for k in knowledge) or infer, (
            f"knowledge lost track (resets {[k.resets for k in knowledge]}) after {state.last_action}: "
            f"{rules.spec_text}, seed {seed}, step {step}"
        )
    return checked


@pytest.mark.parametrize("extra", SINGLES, ids=lambda c: "+".join(c) or "classic")
def test_worlds_show_the_view_for_each_plugin(extra: tuple[str, ...]) -> None:
    rules = _build(extra)
    assert rules is not None
    for players, seed in ((2, 1), (3, 2)):
        assert check_game(rules, _players(rules, players), seed, steps=150) > 0


@pytest.mark.slow
@pytest.mark.parametrize("extra", PAIRS + LARGER, ids=lambda c: "+".join(c))
def test_worlds_show_the_view_for_pairs_and_drawn_combinations(extra: tuple[str, ...]) -> None:
    rules = _build(extra)
    if rules is None:
        pytest.skip("the combination is refused")
    players = _players(rules, 2 + len(extra) % 3)
    assert check_game(rules, players, seed=len(extra), steps=60) > 0


@pytest.mark.parametrize(
    "names",
    [("classic",), ("classic", "stacking", "jump-in", "seven-o"), ("classic", "shuffle-hands", "penalties")],
)
def test_worlds_show_the_view_with_guesses_about_the_others(names: tuple[str, ...]) -> None:
    rules = Ruleset.from_names(names, options={"enforcement": "table"} if "penalties" in names else {})
    # Random players make the guesses wrong as often as right: the views still hold.
    assert check_game(rules, 3, seed=5, steps=200, infer=True) > 0


# -- what a seat knows --------------------------------------------------------------------


def _state(hands: list[str], starter: str, draw: str, names: tuple[str, ...] = ("classic",)) -> GameState:
    """A game whose deal is arranged: ``hands`` (seat 0 first... in deal order), then the starter and draw."""
    rules = Ruleset.from_names(names)
    players = len(hands)
    order: list[str] = []
    cards = [h.split() for h in hands]
    for i in range(len(cards[0])):
        for seat in range(1, players + 1):
            order.append(cards[seat % players][i])
    order += [starter, *draw.split()]
    return rules.new_game(players=players, seed=1, deck=order, dealer=0)


def test_r_seven_o_a_hand_seen_given_away_is_known_in_its_new_hand() -> None:
    state = _state(
        ["R7 R1 R2 B3 B4 G5 G6", "Y1 Y2 Y3 Y4 Y5 Y6 Y8", "G1 G2 G3 G4 B5 B6 B8"],
        "R9",
        "B7 G8",
        ("classic", "seven-o"),
    )
    assert state.current_player == 1  # the seat after the dealer
    state = state.apply("1: draw")
    state = state.apply("2: draw")
    knowledge = Knowledge(state.view(0))
    before = state.view(0).hand
    state = state.apply("0: play R7 2")  # seat 0 trades its hand with seat 2
    knowledge.update(state.view(0))
    mine = Counter(before)
    mine[Card.parse("R7")] -= 1
    assert knowledge.known(2) == +mine  # what seat 0 gave, seat 2 now holds
    assert knowledge.known(0) == Counter(state.view(0).hand)
    assert knowledge.unknown(2) == 0
    # Another seat saw the hands move but not the cards: it knows nothing of either.
    other = Knowledge(state.view(1))
    assert other.unknown(2) == len(state.hands[2])


def test_r_challenge_the_challenger_knows_the_hand_it_was_shown() -> None:
    state = _state(["W+4 R1 R2 B3 B4 G5 G6", "Y1 Y2 Y3 Y4 Y5 Y6 Y8"], "R9", "G1 G2 G3 G4 G7 G8")
    # Seat 1 is to move first; it draws, then seat 0 bluffs a Wild Draw Four.
    state = state.apply("1: draw")
    challenger = Knowledge(state.view(1))
    bystander = Knowledge(state.view(0))
    state = state.apply("0: play W+4 B")
    challenger.update(state.view(1))
    bystander.update(state.view(0))
    shown = Counter(state.hands[0])
    state = state.apply("1: challenge")  # guilty: seat 0 held red
    challenger.update(state.view(1))
    assert challenger.known(0) == shown  # the hand it was shown; the 4 cards drawn since, unseen
    assert challenger.unknown(0) == 4
    bystander.update(state.view(0))
    assert bystander.resets == 1  # only the first, from a view without the deal


def test_r_turn_reshuffle_the_new_draw_pile_holds_only_the_old_discard_pile() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(players=2, seed=3)
    knowledge = Knowledge(state.view(0))
    rng = random.Random(3)
    reshuffled = False
    while not reshuffled:
        before = state
        state = state.apply(_choose(state, rng))
        knowledge.update(state.view(0))
        reshuffled = any(e.kind == "reshuffle" for e in state.events) and not state.rounds
        if state.rounds:
            state = rules.new_game(players=2, seed=str(rng.random()))
            knowledge = Knowledge(state.view(0))
    pool = Counter(before.discard_pile)
    allowed = knowledge.candidates(DRAW)
    assert not allowed - pool  # nothing outside the old discard pile
    assert knowledge.resets == 0
    for i in range(20):
        world = determinize(state.view(0), knowledge, random.Random(i))
        assert not Counter(world.draw_pile) - pool


def test_without_the_first_view_the_record_knows_what_the_view_shows() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(players=3, seed=2)
    rng = random.Random(2)
    for _ in range(15):
        state = state.apply(_choose(state, rng))
    knowledge = Knowledge(state.view(1))
    assert knowledge.resets == 1  # it started from this view
    assert knowledge.known(1) == Counter(state.view(1).hand)
    (group,) = knowledge.groups
    assert sum(group.cards.values()) == sum(group.slots.values())
    assert set(group.slots) == {0, 2, DRAW}


def test_a_hidden_card_is_uniformly_distributed_over_the_hidden_places() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(players=2, seed=11)
    view = state.view(0)
    knowledge = Knowledge(view)
    unseen = Counter(rules.deck)
    unseen.subtract(view.hand)
    unseen.subtract(view.discard_pile)
    card = next(c for c, n in unseen.items() if n == 1)
    worlds = 3000
    rng = random.Random(0)
    in_hand = sum(card in determinize(view, knowledge, rng).hands[1] for _ in range(worlds))
    expected = worlds * len(state.hands[1]) / (len(state.hands[1]) + len(state.draw_pile))
    assert abs(in_hand - expected) < 4 * (expected * (1 - expected / worlds)) ** 0.5


def test_determinize_is_reproducible_and_gives_a_fresh_generator() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(players=2, seed=4)
    view = state.view(1)
    a = determinize(view, Knowledge(view), random.Random(9))
    b = determinize(view, Knowledge(view), random.Random(9))
    c = determinize(view, Knowledge(view), random.Random(10))
    assert a == b
    assert a != c
    assert a.rng != state.rng


def test_r_pen_illegal_a_world_holds_the_illegal_play_to_catch() -> None:
    rules = Ruleset.from_names(["classic", "penalties"], options={"enforcement": "table"})
    state = rules.new_game(players=2, seed=6)
    rng = random.Random(6)
    for _ in range(200):
        illegal = [
            a
            for a in state.legal_actions()
            if a.verb == "play"
            and a.card is not None
            and a.card.color is not None
            and a.card.color is not state.color
            and a.card.kind != state.top_card.kind
        ]
        if illegal:
            break
        state = state.apply(_choose(state, rng))
    assert illegal
    state = state.apply(illegal[0])
    catcher = 1 - illegal[0].seat
    view = state.view(catcher)
    world = determinize(view, None, random.Random(1))
    assert world.extra("penalties.illegal") is not None
    validate_state(world)
    caught = world.apply(Action.of(catcher, "catch_play", target=illegal[0].seat))
    assert illegal[0].card in caught.hands[illegal[0].seat]


def test_a_spectator_view_has_no_seat_to_know_for() -> None:
    state = Ruleset.from_names(["classic"]).new_game(players=2, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        Knowledge(state.public_view())
    with pytest.raises(ValueError, match="spectator"):
        determinize(state.public_view())


def test_knowledge_copies_are_independent() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(players=2, seed=8)
    knowledge = Knowledge(state.view(0))
    copy = knowledge.copy()
    state = state.apply(state.legal_actions()[0])
    knowledge.update(state.view(0))
    assert copy.view != knowledge.view
    copy.update(state.view(0))
    assert copy.known(0) == knowledge.known(0)
    assert unorules.__version__  # the package is whole


class _Tally(unorules.Plugin):
    """Counts the actions of a round in private data (a test plugin)."""

    name = "tally"
    api_version = 2
    extras = (unorules.ExtraSpec("tally.n", "the actions played, kept from every seat"),)

    def __init__(self, resample: bool) -> None:
        self.resample = resample

    @unorules.hookimpl
    def after_action(self, draft: unorules.Draft, action: Action, before: GameState) -> None:
        draft.set_extra("tally.n", (before.extra("tally.n") or 0) + 1)

    @unorules.hookimpl
    def resample_extras(self, state: GameState, view: unorules.SeatView, rng: unorules.Rng) -> Any:
        if not self.resample:
            return None
        return (("tally.n", 1000 + rng.randbelow(10)),)


@pytest.mark.parametrize("resample", [True, False])
def test_the_resample_extras_hook_fills_in_private_data_a_view_hides(resample: bool) -> None:
    rules = Ruleset.from_names(["classic"], plugins=[_Tally(resample)])
    state = rules.new_game(players=3, seed=3)
    rng = random.Random(3)
    for _ in range(5):
        state = state.apply(_choose(state, rng))
    assert state.extra("tally.n") == 5
    view = state.view(1)
    world = determinize(view, None, random.Random(2))
    assert world.view(1) == view
    if resample:
        assert world.extra("tally.n") in range(1000, 1010)
    else:
        assert world.extra("tally.n") is None  # never copied from the true state


def test_the_hidden_requirements_hook_gives_a_group_its_card_in_every_world(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # R-HOUSE-MULTI: a group goes on only while its seat holds another card of its number.
    # The view says so; a world dealt at random breaks it more often than not, and
    # hidden_requirements trades a card in for it: at the first sample (no retries).
    monkeypatch.setattr(unorules.knowledge, "RETRIES", 0)
    state = _state(
        ["G1 G2 G3 B6 B8 Y9 Y3", "R5 B5 G4 G6 Y1 Y2 R1", "B1 B2 B3 Y4 Y6 Y8 R2"],
        "R9",
        "G7 G8 G9 Y7 R7 B7 B9 R3 R4 R6 R8 Y5 G5",
        ("classic", "multi-play"),
    )
    state = state.apply("1: play R5")
    assert state.phase.name == "group"
    assert state.phase.seat == 1
    view = state.view(0)
    knowledge = Knowledge(view)
    fives = 0
    for i in range(100):
        world = determinize(view, knowledge, random.Random(i))
        validate_state(world)
        assert world.view(0) == view
        assert any(card.number == 5 for card in world.hands[1])
        fives += sum(card.number == 5 for card in world.hands[1])
    assert fives < 150  # the other cards are still dealt at random: most worlds hold one 5 only
    # The seat in the group sees its own hand: nothing is traded.
    own = state.view(1)
    assert determinize(own, rng=random.Random(1)).hands[1] == state.hands[1]


# -- a deck of two-faced cards (UNO FLIP!) --------------------------------------------------


def _flip_game(seed: int, players: int, options: dict[str, Any]) -> tuple[GameState, list[GameState]]:
    """A FLIP! game played at random until a Flip turns the cards over mid-round;
    the states before it, and the state right after it."""
    rules = Ruleset.from_names(["flip"], options=options)
    rng = random.Random(seed)
    state = rules.new_game(players=players, seed=seed)
    states = [state]
    for _ in range(400):
        state = state.apply(_choose(state, rng))
        states.append(state)
        if any(e.kind == "flip" for e in state.events) and not state.rounds and not state.is_over:
            return state, states
    raise AssertionError("no Flip in 400 actions")


@pytest.mark.parametrize("own_backs", ["hidden", "shown"])
def test_r_flip_flip_worlds_follow_a_flip_of_side_mid_round(own_backs: str) -> None:
    state, states = _flip_game(3, 3, {"flip_own_backs": own_backs})
    assert state.side != states[0].side
    knowledge = [Knowledge(states[0].view(s)) for s in range(3)]
    for before in states[1:]:
        for seat in range(3):
            knowledge[seat].update(before.view(seat))
    for seat in range(3):
        view = state.view(seat)
        for i in range(10):
            world = determinize(view, knowledge[seat], random.Random(i))
            assert world.view(seat) == view
            validate_state(world)
            assert world.side == state.side
            # what was seen as backs before the Flip is now seen as faces, and the other way round
            assert [c.face(world.side) for c in world.hands[seat]] == list(view.hand)
            for other, backs in view.backs.items():
                assert [c.face(1 - world.side) for c in world.hands[other]] == list(backs)
            assert [c.face(world.side) for c in world.discard_pile] == list(view.discard_pile)
            assert world.draw_pile[0].face(1 - world.side) == view.draw_pile_back
        # the game goes on from the world: the seat's own actions are the same
        assert world.legal_actions(seat) == state.legal_actions(seat)
        # Both faces of every card held since before the Flip were seen: those hands are known.
        flipper = state.last_action.seat if state.last_action is not None else None
        for other in range(3):
            if other != flipper:
                assert world.hands[other] == state.hands[other]


def test_r_flip_view_a_seats_own_hand_is_sampled_with_its_faces() -> None:
    rules = Ruleset.from_names(["flip"])
    state = rules.new_game(players=2, seed=7)
    view = state.view(0)
    hands: Counter[Card] = Counter()
    for i in range(200):
        world = determinize(view, Knowledge(view), random.Random(i))
        hand = world.hands[0]
        assert tuple(c.face(world.side) for c in hand) == view.hand  # the faces it sees, in its order
        hands.update(hand)
    # Which card behind each face is not known: the worlds vary the backs.
    assert len(hands) > len(set(view.hand))
    # Seeing its own backs too (flip_own_backs=shown), the seat knows its hand exactly.
    shown = Ruleset.from_names(["flip"], options={"flip_own_backs": "shown"}).new_game(players=2, seed=7)
    own = shown.view(0)
    for i in range(20):
        assert determinize(own, Knowledge(own), random.Random(i)).hands[0] == shown.hands[0]
    # Started mid-round, from a view alone, and copied: the same.
    rng = random.Random(7)
    for _ in range(12):
        shown = shown.apply(_choose(shown, rng))
    later = Knowledge(shown.view(0)).copy()
    assert later.unknown(0) == len(shown.hands[0])
    assert not later.known(0)
    world = determinize(shown.view(0), later, random.Random(1))
    assert world.hands[0] == shown.hands[0]
    assert world.view(0) == shown.view(0)


def _first(
    rules: Ruleset, wanted: Callable[[GameState, Action], bool], games: int, seed: int
) -> tuple[GameState, Action, GameState, Knowledge]:
    """Random heads-up rounds, seat 0's knowledge kept, until one of a state's
    legal actions is ``wanted``: the state before it, the action, the state
    after it (still in its round) and the knowledge of it."""
    rng = random.Random(seed)
    for game in range(games):
        state = rules.new_game(players=2, seed=game)
        knowledge = Knowledge(state.view(0))
        for _ in range(300):
            if state.is_over or state.rounds:
                break
            legal = state.legal_actions()
            found = [a for a in legal if wanted(state, a)]
            action = found[0] if found else rng.choice(legal)
            before, state = state, rules.apply(state, action)
            knowledge.update(state.view(0))
            if found and not state.rounds:
                return before, action, state, knowledge
    pytest.fail(f"no such action in {games} games")


def test_r_house_misplay_a_card_shown_to_the_table_is_known_in_its_hand() -> None:
    # EventSpec.reveals: the misplayed card is shown, then kept; every seat knows where it is.
    rules = Ruleset.from_names(["classic"], options={"misplay_penalty": 1})

    def misplay(state: GameState, action: Action) -> bool:
        if action.seat != 1 or action.verb != "play":
            return False
        return rules.apply(state, action).events[0].kind == "misplay"

    _, action, state, knowledge = _first(rules, misplay, 20, seed=3)
    card = action.card
    assert card is not None
    assert knowledge.known(1)[card] >= 1
    for seed in range(5):
        world = determinize(state.view(0), knowledge, random.Random(seed))
        assert card in world.hands[1]
    assert knowledge.resets == 0


def test_r_flip_challenge_the_challenger_knows_the_hand_it_was_shown() -> None:
    # The hand shown in a challenge (draft.show_hand) tells both faces of every card in it.
    rules = Ruleset.from_names(["flip"])

    def challenge(state: GameState, action: Action) -> bool:
        return action.seat == 0 and action.verb == "challenge"

    before, _, state, knowledge = _first(rules, challenge, 40, seed=5)
    bluffer = before.phase.seat
    assert bluffer is not None
    shown = before.hands[bluffer]
    for seed in range(5):
        world = determinize(state.view(0), knowledge, random.Random(seed))
        assert world.hands[bluffer][: len(shown)] == shown
    assert knowledge.resets == 0

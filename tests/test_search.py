"""The search bot (unorules.search) and the drivers that show bots every view."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from unorules import Action, GameState, Ruleset, SeatView
from unorules.bots import (
    BOTS,
    GreedyBot,
    HeuristicBot,
    RandomBot,
    check_bot_name,
    make_bot,
    next_action,
    play_game,
    register_bot,
    show_views,
)
from unorules.cards import Card, parse_cards
from unorules.draft import carry_out
from unorules.search import POLICIES, PriorityPolicy, SearchBot, estimate, playout, strength
from unorules.validate import validate_state
from unorules.values import PLAY, Phase


def _rules(*names: str, **options: object) -> Ruleset:
    return Ruleset.from_names(["classic", *names], options={"target_score": 100, **options})


@pytest.mark.parametrize(
    "names",
    [(), ("stacking", "jump-in", "seven-o"), ("penalties",), ("custom-wilds",), ("partners",)],
)
def test_the_search_bot_plays_whole_games_with_legal_actions(names: tuple[str, ...]) -> None:
    options: dict[str, Any] = {"enforcement": "table"} if "penalties" in names else {}
    if "custom-wilds" in names:
        options.update(custom_wild_1="all-to-3", custom_wild_2="joke", custom_wild_3="open-hands")
    rules = _rules(*names, **options)
    players = 4 if "partners" in names else 3
    bots = [SearchBot(seed=s, playouts=12) if s % 2 == 0 else HeuristicBot(seed=s) for s in range(players)]
    final = play_game(rules.new_game(players=players, seed=7), bots)
    assert final.is_over
    searcher = bots[0]
    assert isinstance(searcher, SearchBot)
    assert searcher.stats.searched > 0
    assert searcher.stats.playouts > 0


def test_the_search_bot_searches_a_deck_of_two_faced_cards() -> None:
    rules = Ruleset.from_names(["flip"], options={"target_score": 100})
    searcher = SearchBot(seed=1, playouts=12)
    final = play_game(rules.new_game(players=2, seed=3), [searcher, HeuristicBot(seed=2)])
    assert final.is_over
    assert searcher.stats.searched > 0
    assert searcher.knowledge is not None
    assert searcher.knowledge.resets == 0


def _game(seed: int, **options: Any) -> list[str]:
    rules = _rules()
    bots = [SearchBot(seed=seed, playouts=20, **options), HeuristicBot(seed=seed + 1)]
    actions: list[str] = []
    play_game(
        rules.new_game(players=2, seed=seed), bots, on_action=lambda s: actions.append(str(s.last_action))
    )
    return actions


def test_with_a_number_of_playouts_the_search_bot_is_deterministic() -> None:
    assert _game(3) == _game(3)


def test_the_search_bot_never_draws_when_it_may_play() -> None:
    rules = _rules()
    bot = SearchBot(seed=1, playouts=30)
    state = rules.new_game(players=2, seed=12)
    bots = [bot, RandomBot(seed=2)]
    for _ in range(300):
        if state.is_over:
            break
        view = state.view(0)
        action = next_action(state, bots)
        if action.seat == 0 and any(a.verb == "play" for a in view.legal_actions):
            assert action.verb != "draw"
        state = state.apply(action)


def test_the_search_bot_keeps_its_knowledge_from_every_view() -> None:
    rules = _rules(target_score=10_000)
    bot = SearchBot(seed=1, playouts=10)
    state = rules.new_game(players=3, seed=2)
    bots = [bot, HeuristicBot(seed=1), HeuristicBot(seed=2)]
    for _ in range(40):
        state = state.apply(next_action(state, bots))
    show_views(state, bots)
    assert bot.knowledge is not None
    assert bot.knowledge.view == state.view(0)
    assert bot.knowledge.resets == 0


def test_a_search_budget_is_a_time_or_a_number_of_playouts() -> None:
    assert make_bot("search:20ms", seed=1).time == pytest.approx(0.02)  # type: ignore[attr-defined]
    assert make_bot("search:0.5s").time == pytest.approx(0.5)  # type: ignore[attr-defined]
    assert make_bot("search:400").playouts == 400  # type: ignore[attr-defined]
    assert BOTS["search"](None).time == pytest.approx(0.05)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="give a time per decision"):
        make_bot("search:fast")
    with pytest.raises(ValueError, match="not both"):
        SearchBot(time=0.1, playouts=10)
    with pytest.raises(ValueError, match="unknown kind of bot"):
        check_bot_name("chess:stockfish")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("genius")


def test_a_playout_stops_where_the_round_ends_without_dealing_the_next() -> None:
    rules = _rules()
    state = rules.new_game(players=2, seed=5)
    policy = HeuristicBot(seed=0)
    value, actions = playout(state, 0, (0,), policy, 0, depth=10_000)
    assert actions > 0
    assert value != 0.0
    # The same round played with the engine's apply ends the same way, then deals again.
    end = state
    while not end.rounds:
        legal = end.legal_actions()
        chosen = next(
            (policy.choose_in(end, s) for s in end.seats_to_act() if policy.choose_in(end, s) is not None),
            legal[0],
        )
        assert chosen is not None
        end = carry_out(end, chosen, deal=False)
    assert end.outcome is None
    assert end.rounds[0].winner is not None
    assert any(not hand for hand in end.hands) or end.rounds[0].reason != "out"  # not dealt again


def test_a_playout_stops_after_its_depth_and_estimates_the_round() -> None:
    rules = _rules()
    state = rules.new_game(players=2, seed=5)
    policy = HeuristicBot(seed=0)
    value, actions = playout(state, 0, (0,), policy, 0, depth=3)
    assert actions == 3
    end = state
    replay = HeuristicBot(seed=0)
    for _ in range(3):
        chosen = replay.choose_in(end, end.current_player)
        assert chosen is not None
        end = carry_out(end, chosen, deal=False)
    assert not end.rounds
    assert value == pytest.approx(estimate(end, (0,)))
    with pytest.raises(ValueError, match="depth must be at least 1"):
        SearchBot(depth=0)


def test_the_estimate_favours_the_smaller_stronger_hand() -> None:
    small = parse_cards("R1 W")
    assert strength(small) > strength(parse_cards("R1 G2 B3 Y4 B5"))
    assert strength(parse_cards("W R1")) > strength(parse_cards("G9 R1"))
    state = _rules().new_game(players=2, seed=5)
    ahead = state.replace(hands=(state.hands[0][:2], state.hands[1]))  # its fields only: not a legal state
    assert estimate(ahead, (0,)) > 0
    assert estimate(ahead, (1,)) == pytest.approx(-estimate(ahead, (0,)))
    assert estimate(ahead, (0, 1)) == 0.0  # nobody to play against
    low = ahead.replace(ruleset=Ruleset.from_names(["classic"], options={"scoring": "low-score"}))
    assert estimate(low, (0,)) > 0  # fewer points in hand, and likelier to go out


@pytest.mark.parametrize(
    ("names", "players"),
    [
        ((), 2),
        ((), 4),
        (("seven-o", "stacking"), 3),
        (("stacking", "jump-in", "seven-o"), 4),
        (("partners",), 4),
        (("custom-wilds",), 3),
        (("swap-hands",), 3),
    ],
)
def test_the_heuristic_policy_reads_a_state_as_it_reads_a_view(names: tuple[str, ...], players: int) -> None:
    # choose_in has a path of its own for the seat to move choosing a card, a
    # draw, a pass or a call: the same decisions as decide() on the view, and
    # the same draws from the bot's generator (one bot each, a game long).
    rules = _rules(*names)
    rng = random.Random(4)
    by_view, in_state = HeuristicBot(seed=1), HeuristicBot(seed=1)
    compared = 0
    for game in itertools.count():
        if compared >= 1500:
            break
        state = rules.new_game(players=players, seed=game)
        for _ in range(300):
            if state.is_over:
                break
            for seat in range(players):
                assert by_view.choose(state.view(seat)) == in_state.choose_in(state, seat)
                compared += 1
            mover = state.seats_to_act()[-1]
            chosen = by_view.choose(state.view(mover)) if rng.random() < 0.8 else None
            in_state.choose_in(state, mover) if chosen is not None else None
            state = state.apply(chosen if chosen is not None else rng.choice(state.legal_actions()))
    assert by_view.rng.random() == in_state.rng.random()


def _table(hand: str, top: str, other: str = "R1 R2 R3 R4 R5", drawn: str | None = None) -> GameState:
    """Seat 0 to play ``hand`` on ``top`` heads-up, the other seat holding
    ``other`` (after drawing ``drawn``, the last card of ``hand``, if given)."""
    state = _rules().new_game(players=2, seed=5)
    mine, theirs, pile = parse_cards(hand), parse_cards(other), parse_cards(top)
    rest = list(state.draw_pile + state.discard_pile + state.hands[0] + state.hands[1])
    for card in (*mine, *theirs, *pile):
        rest.remove(card)
    phase = PLAY if drawn is None else Phase("drawn", card=Card.parse(drawn), secret=True)
    arranged = state.replace(
        hands=(mine, theirs),
        discard_pile=pile,
        draw_pile=tuple(rest),
        color=pile[-1].color,
        current_player=0,
        phase=phase,
    )
    validate_state(arranged)
    return arranged


@pytest.mark.parametrize(
    ("hand", "top", "other", "drawn", "played"),
    [
        ("G5 R2 R9 B7", "R4", "R1 R2 R3 R4 R5", None, "0: play R9"),  # the most points that match
        ("R9 RS B7", "R4", "R1 R2 R3 R4 R5", None, "0: play RS"),  # an action card's 20 points
        ("R9 RS W", "R4", "R1 R2 R3 R4 R5", None, "0: play RS"),  # a wild last
        ("R9 R+2 B1", "R4", "R1 R2", None, "0: play R+2"),  # hit the seat close to going out
        ("G5 W W+4 G7", "R4", "R1 R2 R3 R4 R5", None, "0: play W+4 G"),  # before a Wild, its colour held most
        ("G5 B7 W", "R4", "R1 R2 R3 R4 R5", "W", "0: pass"),  # a drawn wild is kept for later
        ("G5 R7 W+4", "R4", "R1 R2", "W+4", "0: pass"),  # it holds red: never bluff
        ("G5 G2 B7 W+4", "R4", "R1 R2", "W+4", "0: play W+4 G"),  # honest, and the next seat close
    ],
)
def test_the_priority_policy_plays_the_heuristic_bots_rule_of_thumb(
    hand: str, top: str, other: str, drawn: str | None, played: str
) -> None:
    state = _table(hand, top, other, drawn)
    legal = state.legal_actions(0)
    chosen = PriorityPolicy(random.Random(1)).choose_in(state, 0, legal)
    assert chosen == Action.parse(played)
    assert chosen in legal
    assert HeuristicBot(seed=1).choose_in(state, 0) == chosen  # the same, in these positions


def test_the_priority_policy_calls_uno_and_leaves_the_rest_to_the_heuristic_bot() -> None:
    state = _table("R9 G5", "R4")
    policy = PriorityPolicy(random.Random(1))
    assert policy.choose_in(state, 0, state.legal_actions(0)) == Action.parse("0: uno")
    # out of turn, and with no legal actions given, it is the heuristic bot
    rules = _rules("jump-in")
    rng = random.Random(3)
    for game in range(4):
        state = rules.new_game(players=3, seed=game)
        for _ in range(150):
            if state.is_over:
                break
            for seat in range(3):
                if seat != state.current_player:
                    expected = HeuristicBot(seed=2).choose_in(state, seat)
                    assert (
                        PriorityPolicy(random.Random(2)).choose_in(state, seat, state.legal_actions(seat))
                        == expected
                    )
                assert PriorityPolicy(random.Random(2)).choose_in(state, seat) == HeuristicBot(
                    seed=2
                ).choose_in(state, seat)
            state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("names", [(), ("stacking", "jump-in", "seven-o"), ("custom-wilds",), ("penalties",)])
def test_the_priority_policy_plays_only_legal_actions_and_the_same_game_for_a_seed(
    names: tuple[str, ...],
) -> None:
    rules = _rules(*names)

    def game(seed: int) -> list[Action]:
        policy = PriorityPolicy(random.Random(seed))
        state = rules.new_game(players=3, seed=seed)
        played = []
        while not state.is_over and len(played) < 400:
            legal = state.legal_actions()
            seat = state.seats_to_act()[-1]
            mine = tuple(a for a in legal if a.seat == seat)
            chosen = policy.choose_in(state, seat, mine)
            chosen = mine[0] if chosen is None else chosen
            assert chosen in mine
            played.append(chosen)
            state = state.apply(chosen)
        return played

    assert game(4) == game(4)


def test_the_search_bot_plays_its_playouts_with_the_policy_it_is_given() -> None:
    assert POLICIES == ("priority", "heuristic")
    assert SearchBot().policy == "priority"
    with pytest.raises(ValueError, match="policy must be one of priority, heuristic, not 'random'"):
        SearchBot(policy="random")
    games = {p: _game(3, policy=p) for p in POLICIES}
    assert games["heuristic"] != games["priority"]
    assert games["heuristic"] == _game(3, policy="heuristic")


def test_the_greedy_bot_plays_the_first_card_it_may() -> None:
    rules = _rules()
    state = rules.new_game(players=2, seed=1)
    seat = state.current_player
    view = state.view(seat)
    chosen = GreedyBot().choose(view)
    plays = [a for a in view.legal_actions if a.verb == "play"]
    assert chosen == (plays[0] if plays else next(a for a in view.legal_actions if a.verb == "draw"))
    assert GreedyBot().choose(state.view(1 - seat)) is None


# -- drivers show every view ------------------------------------------------------------------


class Watcher:
    """A heuristic bot that records every view it is shown."""

    name = "watcher"

    def __init__(self, seed: object = None) -> None:
        self.bot = HeuristicBot(seed=1)
        self.seen: list[SeatView] = []

    def observe(self, view: SeatView) -> None:
        if not self.seen or self.seen[-1] != view:
            self.seen.append(view)

    def choose(self, view: SeatView) -> Action | None:
        return self.bot.choose(view)


def _shown_every_view(watcher: Watcher, states: list[GameState], seat: int) -> None:
    expected = [s.view(seat) for s in states]
    assert watcher.seen == expected


def test_next_action_and_play_game_show_every_view() -> None:
    rules = _rules()
    watcher = Watcher()
    states: list[GameState] = []
    start = rules.new_game(players=2, seed=9)
    states.append(start)
    final = play_game(start, [HeuristicBot(seed=3), watcher], on_action=states.append)
    assert final.is_over
    _shown_every_view(watcher, states, 1)


def test_the_simulator_shows_every_view() -> None:
    from unorules import sim

    register_bot("watcher", Watcher)
    made: list[Watcher] = []
    original = BOTS["watcher"]
    register_bot("watcher", lambda seed: made.append(Watcher(seed)) or made[-1])
    try:
        result = sim.play_game(_rules(), ["heuristic", "watcher"], seed=1, index=0)
    finally:
        register_bot("watcher", original)
    assert result.status == "over"
    (watcher,) = made
    assert watcher.seen[0].rounds == ()
    assert watcher.seen[-1].is_over
    assert len(watcher.seen) == sum(result.round_actions) + 1


def test_the_gym_environment_shows_its_bots_every_view() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import unorules.rl  # noqa: F401  # registers the environment

    watcher = Watcher()
    env = gymnasium.make("unorules/Uno-v0", rules=["classic"], players=2, opponents=[watcher])
    _, info = env.reset(seed=3)
    game = env.unwrapped.game
    shown = 1
    for _ in range(60):
        mask = info["action_mask"]
        _observation, _reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][-1]))
        if terminated or truncated:
            break
    assert watcher.seen[-1] == game.state_.view(1)
    assert len(watcher.seen) > shown
    views = watcher.seen
    assert all(a != b for a, b in itertools.pairwise(views))


def test_show_views_skips_bots_that_do_not_observe() -> None:
    state = _rules().new_game(players=2, seed=1)
    watcher = Watcher()
    show_views(state, {1: watcher, 0: RandomBot(seed=1)})
    assert watcher.seen == [state.view(1)]


def test_the_race_drops_only_moves_clearly_behind_and_keeps_the_heuristics() -> None:
    from unorules.search import RACE_AFTER, _race

    worlds = RACE_AFTER
    # Candidate 0 is the heuristic's move; 1 leads; 2 is far behind 1 in every world;
    # 3 is behind on average but within the noise.
    values = [
        [0.0, 1.0, -1.0, 0.0],
        [10.0, 11.0, 9.0, 10.0],
        [-50.0, -49.0, -51.0, -50.0],
        [30.0, -20.0, 25.0, -5.0],
    ]
    assert _race(values, [0, 1, 2, 3], 0, worlds) == [0, 1, 3]
    # The heuristic's move stays in even when it is clearly behind.
    assert _race(values, [0, 1, 2, 3], 2, worlds) == [1, 2, 3]
    # With every candidate level, none is dropped.
    level = [[1.0, 2.0, 3.0, 4.0]] * 3
    assert _race(level, [0, 1, 2], 0, worlds) == [0, 1, 2]


def test_the_search_keeps_the_heuristics_move_when_too_few_worlds_were_played() -> None:
    from unorules.search import MIN_WORLDS

    rules = _rules()
    few = SearchBot(seed=2, playouts=2 * (MIN_WORLDS - 1))  # at most MIN_WORLDS - 1 worlds of 2 candidates
    play_game(rules.new_game(players=2, seed=11), [few, HeuristicBot(seed=3)])
    assert few.stats.searched > 0
    assert few.stats.changed == 0
    many = SearchBot(seed=2, playouts=400)
    play_game(rules.new_game(players=2, seed=11), [many, HeuristicBot(seed=3)])
    assert many.stats.changed > 0

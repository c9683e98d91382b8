"""The bots: the heuristic bot beats the random bot, games are reproducible,
and the heuristic's choices follow the rules it claims to follow."""

from __future__ import annotations

import pytest

import unorules
from unorules.bots import HeuristicBot, RandomBot, make_bot, next_action, play_game
from unorules.testing import arrange_deck, rearranged


def _classic(**options: object) -> unorules.Ruleset:
    return unorules.Ruleset.from_names(["classic"], options=options)


def _win_rate(players: int, games: int, target: int) -> float:
    rules = _classic(target_score=target)
    wins = 0
    for g in range(games):
        hero = g % players  # the heuristic bot sits at every seat in turn
        state = rules.new_game(players=players, seed=f"bots/{g}")
        bots = [
            HeuristicBot(seed=f"{g}/{s}") if s == hero else RandomBot(seed=f"{g}/{s}") for s in range(players)
        ]
        final = play_game(state, bots)
        wins += hero in final.outcome.winners  # type: ignore[union-attr]
    return wins / games


def test_heuristic_bot_beats_the_random_bot_heads_up() -> None:
    # Measured over 1000 games in the docs (bots.rst): about 99%; 50% would be a tie.
    assert _win_rate(players=2, games=100, target=200) >= 0.8


def test_heuristic_bot_beats_three_random_bots() -> None:
    # One heuristic seat among four: 25% would be no better than random.
    assert _win_rate(players=4, games=60, target=200) >= 0.6


def _transcript(seed: str) -> list[str]:
    rules = _classic(target_score=150)
    state = rules.new_game(players=3, seed=seed)
    bots = [HeuristicBot(seed=f"{seed}/0"), RandomBot(seed=f"{seed}/1"), HeuristicBot(seed=f"{seed}/2")]
    log: list[str] = []
    play_game(state, bots, on_action=lambda s: log.append(str(s.last_action)))
    return log


def test_same_seeds_play_the_same_game() -> None:
    first = _transcript("again")
    assert first == _transcript("again")
    assert first != _transcript("other")


def test_bots_only_choose_legal_actions_of_their_own_seat() -> None:
    rules = _classic(target_score=100)
    state = rules.new_game(players=4, seed=11)
    bots = [
        make_bot("heuristic", seed=1),
        make_bot("random", seed=2),
        make_bot("heuristic", 3),
        RandomBot(4, 1.0),
    ]
    for _ in range(400):
        if state.is_over:
            break
        action = next_action(state, bots)
        assert action in state.legal_actions()
        state = state.apply(action)


def test_random_bot_lets_out_of_turn_moments_pass_when_not_eager() -> None:
    rules = _classic()
    state = rules.new_game(players=3, seed=5)
    idle = RandomBot(seed=1, eagerness=0.0)
    other = (state.current_player + 1) % 3
    assert idle.choose(state.view(other)) is None
    assert idle.choose(state.view(state.current_player)) in state.legal_actions(state.current_player)


def test_driver_checks_its_arguments() -> None:
    state = _classic().new_game(players=3, seed=1)
    with pytest.raises(ValueError, match="one bot per seat"):
        play_game(state, [RandomBot(1)])
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("genius")
    with pytest.raises(RuntimeError, match="did not end within 3 actions"):
        play_game(state, [RandomBot(s) for s in range(3)], max_actions=3)


def _deal(hands: list[str], starter: str, draw: str = "", **options: object) -> unorules.GameState:
    rules = _classic(**options)
    return rules.new_game(
        players=len(hands),
        deck=arrange_deck(hands, starter, draw=draw, dealer=len(hands) - 1),
        dealer=len(hands) - 1,
    )


def test_r_uno_call_heuristic_calls_uno_before_its_next_to_last_card() -> None:
    state = rearranged(_classic().new_game(players=3, seed=2), hands={0: "R5 G7"}, top="R1")
    state = state.replace(current_player=0, phase=unorules.PLAY)
    bot = HeuristicBot(seed=1)
    call = bot.choose(state.view(0))
    assert str(call) == "0: uno"
    state = state.apply(call)
    assert str(bot.choose(state.view(0))) == "0: play R5"


def test_r_uno_catch_heuristic_catches_a_seat_that_did_not_call() -> None:
    state = rearranged(_classic().new_game(players=3, seed=2), hands={0: "R5 G7"}, top="R1")
    state = state.replace(current_player=0, phase=unorules.PLAY).apply("0: play R5")
    assert state.uno_exposed == (0,)
    catcher = next(s for s in (1, 2) if state.legal_actions(s))
    assert str(HeuristicBot(seed=1).choose(state.view(catcher))) == f"{catcher}: catch 0"


def test_r_turn_wild_heuristic_keeps_wilds_and_names_its_main_colour() -> None:
    hands = ["W R5 B1 B2 B3 B9 G4", "Y1 Y2 Y3 Y4 Y5 Y6 Y7", "G1 G2 G3 G5 G6 G7 G8"]
    state = _deal(hands, "R8")
    bot = HeuristicBot(seed=1)
    assert str(bot.choose(state.view(0))) == "0: play R5"  # a coloured card before the wild
    later = rearranged(state, hands={0: "W B1 B2 G4"}, top="Y9").replace(color=unorules.Color.YELLOW)
    assert str(bot.choose(later.view(0))) == "0: play W B"  # the colour it holds most of


def test_r_turn_wd4_heuristic_never_bluffs_a_wild_draw_four() -> None:
    state = rearranged(_classic().new_game(players=3, seed=4), hands={0: "W+4 R2 G5"}, top="R9")
    state = state.replace(current_player=0, phase=unorules.PLAY, color=unorules.Color.RED)
    assert str(HeuristicBot(seed=1).choose(state.view(0))) == "0: play R2"
    honest = rearranged(state, hands={0: "W+4 G5 G6"}, top="R9").replace(color=unorules.Color.RED)
    assert str(HeuristicBot(seed=1).choose(honest.view(0))) == "0: play W+4 G"


def test_heuristic_plays_high_point_cards_first() -> None:
    state = rearranged(_classic().new_game(players=3, seed=4), hands={0: "R2 RS R9 G5"}, top="R1")
    state = state.replace(current_player=0, phase=unorules.PLAY, color=unorules.Color.RED)
    assert str(HeuristicBot(seed=1).choose(state.view(0))) == "0: play RS"


def _after_wild_draw_four(bluffer_hand: str) -> unorules.GameState:
    state = rearranged(_classic().new_game(players=3, seed=6), hands={0: bluffer_hand}, top="R1")
    state = state.replace(current_player=0, phase=unorules.PLAY, color=unorules.Color.RED)
    if len(state.hands[0]) == 2:
        state = state.apply("0: uno")
    state = state.apply("0: play W+4 B")
    assert state.phase.name == "challenge"
    assert state.current_player == 1
    return state


def test_r_challenge_heuristic_challenges_when_the_odds_favour_it() -> None:
    # Eleven unseen cards left in the player's hand: almost surely one was red.
    big = _after_wild_draw_four("W+4 G2 G3 G4 G5 G6 G7 G8 G9 B2 B3 B4 B5")
    assert str(HeuristicBot(seed=1).choose(big.view(1))) == "1: challenge"
    # One card left: a red card among them is unlikely (about 1 in 4): accept.
    small = _after_wild_draw_four("W+4 G2")
    assert str(HeuristicBot(seed=1).choose(small.view(1))) == "1: accept"


@pytest.mark.parametrize("plugin", ["stacking"])
def test_r_stack_heuristic_adds_to_a_stack_rather_than_drawing(plugin: str) -> None:
    if plugin not in unorules.installed_plugins():
        pytest.skip(f"the {plugin} plugin is not installed")
    rules = unorules.Ruleset.from_names(["classic", plugin])
    state = rearranged(rules.new_game(players=3, seed=8), hands={0: "R+2 G5", 1: "B+2 Y3 Y4"}, top="R1")
    state = state.replace(current_player=0, phase=unorules.PLAY, color=unorules.Color.RED)
    state = state.apply("0: uno").apply("0: play R+2")
    assert state.current_player == 1
    assert str(HeuristicBot(seed=1).choose(state.view(1))) == "1: play B+2"


def test_r_pen_illegal_heuristic_plays_only_matching_cards_and_catches_illegal_plays() -> None:
    if "penalties" not in unorules.installed_plugins():
        pytest.skip("the penalties plugin is not installed")
    rules = unorules.Ruleset.from_names(["classic", "penalties"], options={"enforcement": "table"})
    state = rearranged(rules.new_game(players=3, seed=9), hands={0: "G5 B7 Y3"}, top="R1")
    state = state.replace(current_player=0, phase=unorules.PLAY, color=unorules.Color.RED)
    assert "0: play G5" in map(str, state.legal_actions(0))  # the table lets it try
    assert str(HeuristicBot(seed=1).choose(state.view(0))) == "0: draw"
    cheated = state.apply("0: play G5")
    catcher = next(s for s in (1, 2) if f"{s}: catch_play 0" in map(str, cheated.legal_actions(s)))
    assert str(HeuristicBot(seed=1).choose(cheated.view(catcher))) == f"{catcher}: catch_play 0"


def test_r_stack_heuristic_passes_a_wild_draw_four_on_rather_than_challenging() -> None:
    if "stacking" not in unorules.installed_plugins():
        pytest.skip("the stacking plugin is not installed")
    rules = unorules.Ruleset.from_names(["classic", "stacking"])
    state = rearranged(rules.new_game(players=3, seed=8), hands={0: "W+4 G5 G6", 1: "W+4 Y3 Y4"}, top="R1")
    state = state.replace(current_player=0, phase=unorules.PLAY, color=unorules.Color.RED)
    state = state.apply("0: play W+4 G")
    assert state.current_player == 1
    assert state.phase.name == "challenge"
    assert str(HeuristicBot(seed=1).choose(state.view(1))) == "1: play W+4 Y"

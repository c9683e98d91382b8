"""Replays: rebuilding a game, and the Python they print for pasting into a test."""

from __future__ import annotations

import random

from toolkit_broken_plugins import LosesFives

from unorules import Action, Card, Ruleset
from unorules.testing import Replay, arrange_deck
from unorules.testing.replay import choose_action, play_randomly, ruleset_line


def test_a_replay_rebuilds_its_game_from_the_seed_and_the_actions() -> None:
    rules = Ruleset.from_names(["classic"], options={"uno_penalty": 4})
    state, actions = play_randomly(rules.new_game(players=3, seed=8), random.Random(8), max_actions=120)
    replay = Replay(rules, 3, 8, actions=actions)
    assert replay.play() == state
    assert list(replay.states())[-1] == state
    assert len(list(replay.states())) == len(actions) + 1
    assert replay.prefix(10).play() == Replay(rules, 3, 8, actions=actions[:10]).play()
    assert replay.prefix(10).then(*actions[10:]) == replay


def test_a_replay_takes_actions_and_deck_as_text() -> None:
    rules = Ruleset.from_names(["classic"])
    hands = ["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8"]
    deck = arrange_deck(hands, "R5", draw="B9", dealer=1)
    replay = Replay(rules, 2, 0, actions=["0: play R1", "1: draw"], deck=" ".join(deck), dealer=1)
    assert replay.actions == (Action.parse("0: play R1"), Action.parse("1: draw"))
    assert replay.deck is not None
    assert replay.deck[:2] == (Card.parse("R1"), Card.parse("G1"))
    state = replay.play()
    assert state.hands[1][-1] == Card.parse("B9")


def test_the_printed_replay_is_python_that_rebuilds_the_game() -> None:
    rules = Ruleset.from_names(["classic"], options={"target_score": 200})
    hands = ["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    deck = arrange_deck(hands, "R5", dealer=2)
    state = rules.new_game(players=3, deck=deck, dealer=2, seed="s")
    state, actions = play_randomly(state, random.Random(2), max_actions=40)
    replay = Replay(rules, 3, "s", actions=actions, deck=deck, dealer=2)
    code = replay.format("[cards] an example failure")
    assert code.startswith("# [cards] an example failure\nfrom unorules import Ruleset\n")
    assert "Ruleset.from_names(['classic'], options={'target_score': 200})" in code
    assert "    dealer=2," in code
    assert code.endswith("replay.check()  # fails: [cards]")
    assert max(len(line) for line in code.splitlines()) <= 110
    namespace: dict[str, object] = {}
    exec(code.replace("replay.check()", "pass"), namespace)
    assert namespace["state"] == state


def test_the_ruleset_line_names_plugin_objects_that_are_not_installed() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[LosesFives()])
    assert ruleset_line(rules) == "Ruleset.from_names(['classic'], plugins=[LosesFives()])"
    assert eval(ruleset_line(rules), {"Ruleset": Ruleset, "LosesFives": LosesFives}) == rules


def test_eager_random_play_ends_rounds_sooner() -> None:
    rules = Ruleset.from_names(["classic"])

    def round_length(eager: float, seed: int) -> int:
        state = rules.new_game(players=4, seed=seed)
        rng = random.Random(seed)
        count = 0
        while not state.rounds:
            state = state.apply(choose_action(state, rng, eager))
            count += 1
        return count

    eager = sum(round_length(0.9, seed) for seed in range(8))
    uniform = sum(round_length(0.0, seed) for seed in range(8))
    assert eager < uniform


def test_play_randomly_stops_at_the_condition_and_reports_each_state() -> None:
    rules = Ruleset.from_names(["classic"])
    seen = []
    state, actions = play_randomly(
        rules.new_game(players=2, seed=1),
        random.Random(1),
        max_actions=10_000,
        eager=0.9,
        until=lambda s: bool(s.rounds),
        each=seen.append,
    )
    assert len(state.rounds) == 1
    assert len(seen) == len(actions)
    assert seen[-1] is state


def test_a_loop_of_actions_is_printed_once_with_its_count() -> None:
    rules = Ruleset.from_names(["classic"])
    state = rules.new_game(players=2, seed=3)
    first = state.legal_actions()[0]
    replay = Replay(rules, 2, 3, actions=[first])
    actions = [str(first), *["0: draw", "1: draw"] * 3]
    code = Replay(rules, 2, 3, actions=[Action.parse(a) for a in actions]).format()
    assert '*["0: draw", "1: draw"] * 3,' in code
    namespace: dict[str, object] = {}
    exec(code.split("state = replay.play()")[0], namespace)  # (these actions are not all legal)
    rebuilt = namespace["replay"]
    assert isinstance(rebuilt, Replay)
    assert [str(a) for a in rebuilt.actions] == actions
    assert replay.actions == rebuilt.actions[:1]

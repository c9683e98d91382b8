"""The build-time and end-of-round hooks, each shown by a tiny plugin in a game.

The per-action hooks are exercised by every plugin's scenario tests; these
are the hooks a plugin implements more rarely (deck_cards, hand_size,
check_ruleset, check_game, score_round, on_round_end, game_outcome), so the
contract written in ``unorules/hookspecs.py`` is checked here directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

import unorules
from unorules import Card, GameState, Outcome, Plugin, RoundResult, Ruleset, RulesetError, hookimpl
from unorules.testing import arrange_deck


class OneCardHands(Plugin):
    """Deals one card each (hand_size), so a round ends with a single play."""

    name = "one-card"
    requires = ("classic",)

    @hookimpl
    def hand_size(self, ruleset: Ruleset) -> int:
        return 1


def _one_play_round(*plugins: object, options: dict[str, object] | None = None) -> GameState:
    """A 3-seat game whose first round ends when seat 0 plays R5 on R1."""
    rules = Ruleset.from_names(["classic"], options=options, plugins=[OneCardHands(), *plugins])
    deck = arrange_deck(["R5", "G7", "B9"], "R1", dealer=2, hand_size=1)
    state = rules.new_game(players=3, deck=deck, dealer=2)
    return state.apply("0: play R5")


def test_hand_size_sets_the_cards_dealt() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[OneCardHands()])
    state = rules.new_game(players=4, seed=1)
    assert rules.hand_size == 1
    assert [len(h) for h in state.hands] == [1, 1, 1, 1]


def test_deck_cards_adds_cards_to_the_deck() -> None:
    class ExtraWilds(Plugin):
        name = "extra-wilds"
        requires = ("classic",)

        @hookimpl
        def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
            return [Card.parse("W")] * 2

    plain = Ruleset.from_names(["classic"])
    more = Ruleset.from_names(["classic"], plugins=[ExtraWilds()])
    assert len(more.deck) == len(plain.deck) + 2
    assert more.deck.count(Card.parse("W")) == plain.deck.count(Card.parse("W")) + 2


def test_check_ruleset_refuses_a_combination_when_the_rule_set_is_built() -> None:
    class NeedsChallenge(Plugin):
        name = "needs-challenge"
        requires = ("classic",)

        @hookimpl
        def check_ruleset(self, ruleset: Ruleset) -> None:
            if not ruleset.options["challenge"]:
                raise RulesetError("needs-challenge cannot work with challenge=off")

    Ruleset.from_names(["classic"], plugins=[NeedsChallenge()])
    with pytest.raises(RulesetError, match="challenge=off"):
        Ruleset.from_names(["classic"], options={"challenge": "off"}, plugins=[NeedsChallenge()])


def test_check_game_refuses_a_player_count_when_a_game_is_created() -> None:
    class ThreeOrMore(Plugin):
        name = "three-or-more"
        requires = ("classic",)

        @hookimpl
        def check_game(self, ruleset: Ruleset, players: int) -> None:
            if players < 3:
                raise RulesetError(f"three-or-more needs 3 players or more, not {players}")

    rules = Ruleset.from_names(["classic"], plugins=[ThreeOrMore()])
    assert rules.new_game(players=3, seed=1).players == 3
    with pytest.raises(RulesetError, match="not 2"):
        rules.new_game(players=2, seed=1)


def test_score_round_gives_the_points_of_the_round() -> None:
    class TenForTheWinner(Plugin):
        name = "ten-for-the-winner"
        requires = ("classic",)

        @hookimpl
        def score_round(self, state: GameState, result: RoundResult) -> Sequence[int]:
            return [10 if seat == result.winner else 0 for seat in range(state.players)]

    after = _one_play_round(TenForTheWinner())
    assert after.rounds[0].winner == 0
    assert after.rounds[0].points == (10, 0, 0)
    assert after.scores == (10, 0, 0)
    classic = _one_play_round()
    assert classic.rounds[0].points == (7 + 9, 0, 0)  # R-SCORE: the others' hands


def test_on_round_end_adjusts_the_state_after_scoring() -> None:
    seen: list[tuple[int, tuple[int, ...]]] = []

    class Recorder(Plugin):
        name = "recorder"
        requires = ("classic",)
        private_extras = ("recorder.rounds",)

        @hookimpl
        def on_round_end(self, state: GameState, result: RoundResult) -> GameState:
            seen.append((result.number, state.scores))  # scores already include the round
            return state.with_extra("recorder.rounds", result.number)

    after = _one_play_round(Recorder())
    assert seen == [(1, (16, 0, 0))]
    assert after.extra("recorder.rounds") == 1  # kept into the next round's deal
    assert after.round_number == 2


def test_game_outcome_ends_the_game() -> None:
    class OneRoundGame(Plugin):
        name = "one-round"
        requires = ("classic",)

        @hookimpl
        def game_outcome(self, state: GameState) -> Outcome | None:
            last = state.rounds[-1]
            return None if last.winner is None else Outcome((last.winner,), "one round")

    after = _one_play_round(OneRoundGame())
    assert after.is_over
    assert after.outcome == Outcome((0,), "one round")
    assert after.legal_actions() == ()
    assert not _one_play_round().is_over  # classic plays on to target_score
    assert isinstance(unorules.Outcome((1,), "x").winner, int)

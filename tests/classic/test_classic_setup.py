"""Classic rules, the rules reference's "Decks" and "Setting up": the deck, the dealer draw, the deal,
the opening card (all six kinds) and who plays first."""

from __future__ import annotations

from collections import Counter
from collections.abc import MutableSequence
from typing import Any

import pytest
import unorules_classic
from classic_helpers import BLUES, GREENS, REDS, YELLOWS, all_cards, cards, classic, game, hand, play, refused

from unorules import COLORS, Action, Card, Color, Rng, RulesetError, seed_state

HANDS4 = [REDS, GREENS, BLUES, YELLOWS]


# -- R-DECK-108 ------------------------------------------------------------------


def test_r_deck_108_the_classic_deck_and_a_dealt_game_hold_108_cards() -> None:
    rules = classic()
    deck = Counter(rules.deck)
    assert len(rules.deck) == 108
    for color in COLORS:
        assert deck[Card.of(color, "0")] == 1
        for kind in [str(n) for n in range(1, 10)] + ["S", "R", "+2"]:
            assert deck[Card.of(color, kind)] == 2
        assert sum(n for c, n in deck.items() if c.color is color) == 25
    assert deck[Card.parse("W")] == 4
    assert deck[Card.parse("W+4")] == 4
    state = rules.new_game(players=4, seed=11)
    assert all_cards(state) == deck


def test_r_deck_108_an_arranged_deck_cannot_hold_more_copies_than_the_deck() -> None:
    with pytest.raises(RulesetError, match="R0"):
        classic().new_game(players=2, deck="R0 R0")
    with pytest.raises(RulesetError, match="W"):
        classic().new_game(players=2, deck="W W W W W")


# -- R-SETUP-DEALER ---------------------------------------------------------------


class ArrangedRng(Rng):
    """An Rng whose shuffles lay the pile out in given orders (first card drawn first)."""

    def __init__(self, *orders: str) -> None:
        super().__init__(0)
        self.orders = [list(cards(o)) for o in orders]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        order = self.orders.pop(0)
        rest = Counter(items)
        rest.subtract(order)
        # The dealer draw takes cards from the end of the pile.
        items[:] = list(rest.elements()) + order[::-1]


class RecordingRng(Rng):
    """The real generator, keeping a copy of every pile it shuffles."""

    def __init__(self, state: int) -> None:
        super().__init__(state)
        self.piles: list[list[Any]] = []

    def shuffle(self, items: MutableSequence[Any]) -> None:
        super().shuffle(items)
        self.piles.append(list(items))


def _dealer(players: int, rng: Rng, **options: Any) -> int:
    return unorules_classic.plugin.choose_dealer(classic(**options), players, rng)


def test_r_setup_dealer_the_highest_number_deals() -> None:
    assert _dealer(3, ArrangedRng("R5 G9 B3")) == 1
    assert _dealer(4, ArrangedRng("R1 G2 B3 Y8")) == 3


def test_r_setup_dealer_symbol_and_wild_cards_count_as_zero() -> None:
    # A Wild Draw Four (50 points) and a Draw Two (20) lose to a 1.
    assert _dealer(3, ArrangedRng("W+4 R+2 G1")) == 2
    assert _dealer(3, ArrangedRng("GS B1 W")) == 1


def test_r_setup_dealer_draw_defaults_to_the_highest_number() -> None:
    assert classic().options["dealer_draw"] == "number"


def test_r_setup_dealer_with_dealer_draw_points_symbol_cards_count_their_points() -> None:
    # [CZ]: the highest point value deals. A Wild Draw Four (50) beats a Draw Two (20) and a 1.
    assert _dealer(3, ArrangedRng("W+4 R+2 G1"), dealer_draw="points") == 0
    assert _dealer(3, ArrangedRng("GS B1 W"), dealer_draw="points") == 2
    assert _dealer(3, ArrangedRng("G9 RR B1"), dealer_draw="points") == 1  # a Reverse (20) beats a 9
    # The points are the score's: with wd4_points=70 a Wild Draw Four beats a Wild.
    assert _dealer(2, ArrangedRng("W W+4"), dealer_draw="points", wd4_points=70) == 1
    # Symbols of equal points tie and draw again: a Skip and a Draw Two (20 each).
    assert _dealer(3, ArrangedRng("RS G+2 B9 Y3 Y7"), dealer_draw="points") == 1
    # The same draws under the default rule.
    assert _dealer(3, ArrangedRng("G9 RR B1")) == 0
    assert _dealer(3, ArrangedRng("RS G+2 B9")) == 2


def test_r_setup_dealer_tied_players_draw_again_until_one_is_highest() -> None:
    # Seats 0 and 2 tie on 9 and seat 1 (a 3) drops out. The redraw ties
    # again (a Skip and a 0 both count zero); the third draw decides.
    assert _dealer(3, ArrangedRng("R9 G3 B9 RS G0 Y2 Y7")) == 2
    assert _dealer(3, ArrangedRng("R9 G3 B9 RS G0 Y8 Y7")) == 0


def _expected_dealer(players: int, piles: list[list[Any]]) -> tuple[int, bool]:
    """Replay the dealer draw from the recorded piles: (dealer, whether there was a tie)."""
    pile: list[Any] = []
    piles = list(piles)
    contenders = list(range(players))
    tied = False
    while len(contenders) > 1:
        if len(pile) < len(contenders):
            pile = list(piles.pop(0))
        values = {seat: pile.pop().number or 0 for seat in contenders}
        best = max(values.values())
        contenders = [seat for seat in contenders if values[seat] == best]
        tied = tied or len(contenders) > 1
    return contenders[0], tied


def test_r_setup_dealer_a_seeded_game_reports_the_dealer_the_draw_chose() -> None:
    ties = 0
    for seed in range(40):
        players = 2 + seed % 9
        recorder = RecordingRng(seed_state(seed))
        chosen = _dealer(players, recorder)
        expected, tied = _expected_dealer(players, recorder.piles)
        ties += tied
        assert chosen == expected
        state = classic().new_game(players=players, seed=seed)
        assert state.dealer == expected
    assert ties >= 3  # the seeds above include tied draws, redrawn


def test_r_setup_dealer_nobody_draws_for_dealer_with_an_arranged_deck() -> None:
    state = game(HANDS4, "G9", dealer=2)
    assert state.dealer == 2
    assert state.current_player == 3


# -- R-SETUP-DEAL ------------------------------------------------------------------


def test_r_setup_deal_seven_cards_each_one_at_a_time_from_the_dealers_left() -> None:
    # Dealer 2: the deck's first card goes to seat 3, the second to seat 0, ...
    deck = "R1 G1 B1 Y1 R2 G2 B2 Y2 R3 G3 B3 Y3 R4 G4 B4 Y4 R5 G5 B5 Y5 R6 G6 B6 Y6 R7 G7 B7 Y7 R9 B+2"
    state = classic().new_game(players=4, deck=deck, dealer=2)
    assert [hand(state, s) for s in range(4)] == [
        "G1 G2 G3 G4 G5 G6 G7",
        "B1 B2 B3 B4 B5 B6 B7",
        "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
        "R1 R2 R3 R4 R5 R6 R7",
    ]
    assert str(state.top_card) == "R9"
    assert str(state.draw_pile[0]) == "B+2"
    assert len(state.draw_pile) == 108 - 4 * 7 - 1
    assert all_cards(state) == Counter(classic().deck)


def test_r_setup_deal_a_seeded_game_deals_seven_to_every_seat() -> None:
    for players in (2, 5, 10):
        state = classic().new_game(players=players, seed=players)
        assert [len(h) for h in state.hands] == [7] * players
        assert len(state.discard_pile) == 1
        assert len(state.draw_pile) == 108 - 7 * players - 1


def test_r_setup_deal_two_to_ten_players() -> None:
    for players in (0, 1, 11):
        with pytest.raises(RulesetError, match="2 to 10"):
            classic().new_game(players=players, seed=1)
    assert len(classic().new_game(players=10, seed=1).hands) == 10


# -- R-SETUP-STARTER ----------------------------------------------------------------


def test_r_setup_starter_number_card_sets_the_colour_and_the_first_player_plays() -> None:
    state = game(HANDS4, "G9")
    assert (str(state.top_card), state.color, state.current_player) == ("G9", Color.GREEN, 1)
    assert state.phase.name == "play"
    state = play(state, "1: play G1")
    assert (state.current_player, str(state.top_card)) == (2, "G1")


def test_r_setup_starter_draw_two_first_player_draws_two_and_loses_the_turn() -> None:
    state = game(HANDS4, "G+2", draw="R8 R9")
    assert state.current_player == 1
    assert state.legal_actions(1) == (Action.parse("1: draw"),)
    error = refused(state, "1: play G1")
    assert error.rule == "R-ACT-D2"
    state = play(state, "1: draw")
    assert hand(state, 1) == GREENS + " R8 R9"
    assert (state.current_player, state.phase.name) == (2, "play")


@pytest.mark.parametrize(
    ("option", "first", "then"), [("dealer-starts", 0, 3), ("right-of-dealer-starts", 3, 2)]
)
def test_r_setup_starter_reverse_play_goes_right(option: str, first: int, then: int) -> None:
    hands = ["G8 R2 R3 R4 R5 R6 R7", GREENS, BLUES, "G8 Y2 Y3 Y4 Y5 Y6 Y7"]
    state = game(hands, "GR", opening_reverse=option)
    assert (state.current_player, state.direction) == (first, -1)
    state = play(state, f"{first}: play G8")
    assert state.current_player == then


def test_r_setup_starter_reverse_defaults_to_the_dealer_starting() -> None:
    assert classic().options["opening_reverse"] == "dealer-starts"
    state = game(HANDS4, "YR", dealer=2)
    assert (state.current_player, state.direction) == (2, -1)


def test_r_setup_starter_skip_the_first_player_is_skipped() -> None:
    state = game(HANDS4, "BS")
    assert (state.current_player, state.direction) == (2, 1)
    assert refused(state, "1: play G1").rule == "R-SETUP-FIRST"
    state = play(state, "2: play B1")
    assert state.current_player == 3


def test_r_setup_starter_wild_the_first_player_names_the_colour_and_plays() -> None:
    hands = [REDS, "B9 G2 G3 G4 G5 G6 G7", BLUES, YELLOWS]
    state = game(hands, "W")
    assert (state.current_player, state.phase.name, state.color) == (1, "color", None)
    assert {str(a) for a in state.legal_actions()} == {"1: color R", "1: color Y", "1: color G", "1: color B"}
    assert refused(state, "1: play G2").rule == "R-SETUP-STARTER"
    assert refused(state, "2: color B").rule == "R-SETUP-FIRST"
    state = play(state, "1: color B")
    assert (state.current_player, state.phase.name, state.color) == (1, "play", Color.BLUE)
    assert refused(state, "1: play G2").rule == "R-TURN-MATCH"
    state = play(state, "1: play B9")
    assert state.current_player == 2


def test_r_setup_starter_wild_draw_four_is_returned_and_another_card_turned() -> None:
    state = game(HANDS4, "W+4", draw="R8")
    assert state.top_card.kind != "W+4"
    assert len(state.discard_pile) == 1
    assert Card.parse("W+4") in state.draw_pile
    returned = [e for e in state.events if e.kind == "starter-returned"]
    assert returned
    assert returned[0].rule == "R-SETUP-STARTER"
    assert str(returned[0].cards[0]) == "W+4"
    assert returned[-1].cards[1] is state.top_card
    assert all_cards(state) == Counter(classic().deck)
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]


@pytest.mark.parametrize("seed", range(6))
def test_r_setup_starter_opening_wild_redraw_returns_a_wild_starter(seed: int) -> None:
    state = game(HANDS4, "W", seed=seed, opening_wild="redraw")
    assert state.top_card.color is not None
    assert state.phase.name != "color"
    assert Card.parse("W") in state.draw_pile
    assert any(e.kind == "starter-returned" for e in state.events)
    assert all_cards(state) == Counter(classic().deck)
    kept = game(HANDS4, "W", seed=seed, opening_wild="choose-color")
    assert (str(kept.top_card), kept.phase.name) == ("W", "color")


# -- R-SETUP-FIRST -------------------------------------------------------------------


def test_r_setup_first_the_player_left_of_the_dealer_starts_and_play_goes_left() -> None:
    hands = ["G8 R2 R3 R4 R5 R6 R7", GREENS, BLUES, "G9 Y2 Y3 Y4 Y5 Y6 Y7"]
    state = game(hands, "G5", dealer=2)
    assert (state.current_player, state.direction) == (3, 1)
    assert refused(state, "0: play G8").rule == "R-SETUP-FIRST"
    state = play(state, "3: play G9", "0: play G8", "1: play G1")
    assert state.current_player == 2

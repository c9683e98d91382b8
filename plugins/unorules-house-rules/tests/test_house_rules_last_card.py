"""Scenario tests of R-HOUSE-LAST-CARD (plugin last-card's ``last_card_ban``) and how it meets
stacking, jump-in, deflect and misplays. Dealer 0: seat 1 plays first, on a red 5."""

from __future__ import annotations

import pytest
from house_rules_helpers import OTHERS, deal, events, hand, legal, play, rearranged, refused

from unorules import GameState, Ruleset, RulesetError

HANDS = [OTHERS, "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]


def alone(card: str, plugins: tuple[str, ...] = (), **options: object) -> GameState:
    """Seat 1, to move on a red 5, holds ``card`` alone."""
    return rearranged(deal(HANDS, plugins=plugins, options=options), hands={1: card}, draw="G9")


@pytest.mark.parametrize(
    ("ban", "card"),
    [("wild", "W"), ("wild", "W+4"), ("draw", "W+4"), ("draw", "R+2"), ("action", "RS"), ("action", "W")],
)
def test_r_house_last_card_a_banned_last_card_is_not_playable_and_the_seat_draws(ban: str, card: str) -> None:
    state = alone(card, last_card_ban=ban)
    assert not any(a.verb == "play" for a in state.legal_actions(1))
    assert legal(state, 1) == {"1: draw"}
    colour = " R" if card.startswith("W") else ""
    error = refused(state, f"1: play {card}{colour}")
    assert error.rule == "R-HOUSE-LAST-CARD"
    assert f"last_card_ban={ban}" in str(error)
    state = play(state, "1: draw")
    assert hand(state, 1) == f"{card} G9"


@pytest.mark.parametrize(("ban", "card"), [("none", "W"), ("draw", "W"), ("wild", "R+2"), ("action", "R3")])
def test_r_house_last_card_a_card_the_ban_does_not_name_still_goes_out(ban: str, card: str) -> None:
    state = alone(card, last_card_ban=ban)
    action = f"1: play {card} R" if card.startswith("W") else f"1: play {card}"
    state = play(state, action)
    assert state.rounds[-1].winner == 1
    assert state.rounds[-1].reason == "out"


def test_r_house_last_card_only_the_last_card_is_banned_not_the_next_to_last() -> None:
    state = rearranged(deal(HANDS, options={"last_card_ban": "wild"}), hands={1: "W R3"})
    assert {"1: play W R", "1: play R3"} <= legal(state, 1)
    state = play(state, "1: uno", "1: play R3")
    assert hand(state, 1) == "W"
    # Its next turn: the wild alone may not go out.
    state = rearranged(state, hands={1: "W"})
    state = state.replace(current_player=1)
    assert not any(a.verb == "play" for a in state.legal_actions(1))


def test_r_house_last_card_a_drawn_card_is_never_a_last_card() -> None:
    state = alone("W", last_card_ban="wild")
    state = rearranged(state, draw="R9")
    state = play(state, "1: draw")
    assert state.phase.name == "drawn"
    assert "1: play R9" in legal(state, 1)  # it leaves the wild, which is not yet a last card


def test_r_house_last_card_the_option_refuses_unknown_bans() -> None:
    with pytest.raises(RulesetError, match="last_card_ban"):
        Ruleset.from_names(["classic"], options={"last_card_ban": "numbers"})


def test_r_house_last_card_with_misplays_trying_a_banned_last_card_costs_a_card_and_the_turn() -> None:
    state = alone("W", last_card_ban="wild", misplay_penalty=1)
    assert "1: play W R" in legal(state, 1)  # offered, at a price
    state = play(state, "1: play W R")
    assert hand(state, 1) == "W G9"
    (misplay,) = events(state, "misplay")
    assert (misplay.seat, misplay.rule, misplay.count) == (1, "R-HOUSE-MISPLAY", 1)
    assert state.current_player == 2
    assert state.top_card.kind == "5"


def test_r_house_last_card_with_stacking_a_banned_draw_card_answers_no_stack() -> None:
    hands = [OTHERS, "R+2 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = deal(hands, plugins=("stacking",), options={"last_card_ban": "draw"})
    state = play(state, "1: play R+2")
    state = rearranged(state, hands={2: "B+2"})
    assert legal(state, 2) == {"2: draw"}
    assert refused(state, "2: play B+2").rule == "R-HOUSE-LAST-CARD"
    # Without the ban the same card stacks and goes out.
    free = rearranged(play(deal(hands, plugins=("stacking",)), "1: play R+2"), hands={2: "B+2"})
    assert "2: play B+2" in legal(free, 2)


def test_r_house_last_card_with_jump_in_a_banned_card_never_jumps_in() -> None:
    hands = [OTHERS, "W G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = play(deal(hands, plugins=("jump-in",), options={"last_card_ban": "wild"}), "1: play W G")
    state = rearranged(state, hands={0: "W"})
    assert not any(a.verb == "play" for a in state.legal_actions(0))
    free = rearranged(play(deal(hands, plugins=("jump-in",)), "1: play W G"), hands={0: "W"})
    assert "0: play W R" in legal(free, 0)


def test_r_house_last_card_with_deflect_a_banned_reverse_deflects_nothing() -> None:
    hands = [OTHERS, "R+2 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"]
    state = play(deal(hands, plugins=("deflect",), options={"last_card_ban": "action"}), "1: play R+2")
    state = rearranged(state, hands={2: "BR"})
    assert legal(state, 2) == {"2: draw"}
    free = rearranged(play(deal(hands, plugins=("deflect",)), "1: play R+2"), hands={2: "BR"})
    assert "2: play BR" in legal(free, 2)

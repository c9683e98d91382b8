"""The customizable wilds as cards (R-CUSTOM, R-DECK-112), their options and the
extension point, with every ready effect as starter, last card, with two players
and after a reshuffle."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import unorules_custom_wilds
import unorules_swap_hands
from unorules_custom_wilds import (
    CUSTOM_WILDS,
    READY_EFFECTS,
    Effect,
    bound_effect,
    discard_under,
    known_effects,
    register_effect,
)

import unorules
from unorules import Action, Card, Color, Draft, GameState, Ruleset, RulesetError, hookimpl
from unorules.testing import arrange_deck, draft_of, rearranged

CW1, CW2, CW3 = CUSTOM_WILDS
CLASSIC = Ruleset.from_names(["classic"])
EFFECT_NAMES = [e.name for e in READY_EFFECTS]


def rules(*extra: str, plugins: tuple[Any, ...] = (), **options: Any) -> Ruleset:
    return Ruleset.from_names(["classic", "custom-wilds", *extra], options=options, plugins=plugins)


def game(
    ruleset: Ruleset, hands: list[str], starter: str = "Y5", draw: str = "", dealer: int = 0
) -> GameState:
    deck = arrange_deck(hands, starter, draw=draw, dealer=dealer)
    return ruleset.new_game(players=len(hands), seed=1, deck=deck, dealer=dealer)


# -- cards, deck, points -------------------------------------------------------------------------


def test_r_custom_notation_round_trips_for_cards_and_verbs() -> None:
    for i, card in enumerate(CUSTOM_WILDS, 1):
        assert Card.parse(f"cw{i}") is card
        assert str(card) == f"CW{i}"
        assert card.is_wild
        assert card.name == f"Customizable Wild {i}"
    assert len(set(CUSTOM_WILDS)) == 3
    for text in ("1: play CW2 G", "2: discard R7", "1: keep G4", "1: laughed", "1: nolaugh", "3: crow"):
        assert str(Action.parse(text)) == text
    with pytest.raises(unorules.NotationError):
        Action.parse("1: discard")


def test_r_deck_112_is_one_documented_line_away() -> None:
    line = 'unorules.Ruleset.from_names(["classic", "swap-hands", "custom-wilds"])'
    assert line in (unorules_custom_wilds.__doc__ or "")
    assert line in (unorules_swap_hands.__doc__ or "")
    deck = eval(line, {"unorules": unorules}).deck
    assert len(deck) == 112
    extra = Counter(deck) - Counter(CLASSIC.deck)
    assert extra == Counter(unorules.parse_cards("SW CW1 CW2 CW3"))


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_r_deck_112_the_table_chooses_how_many_customizable_wilds(count: int) -> None:
    ruleset = rules(customizable_wilds=count)
    assert len(ruleset.deck) == 108 + count
    assert [c for c in ruleset.deck if c in CUSTOM_WILDS] == list(CUSTOM_WILDS[:count])


def test_r_deck_112_bad_counts_fail_when_the_rule_set_is_built() -> None:
    with pytest.raises(RulesetError, match="customizable_wilds"):
        rules(customizable_wilds=4)


def test_r_score_customizable_wilds_are_worth_40() -> None:
    ruleset = rules()
    assert [ruleset.card_points(c) for c in CUSTOM_WILDS] == [40, 40, 40]
    state = rearranged(
        game(ruleset, ["Y1 R2 R3 R4 R5 R6 R7", "CW1 CW2 G2 G3 G4 G5 G6", "Y9 B1 B2 B3 B4 B5 B6"]),
        hands={0: "Y1"},
    )
    ended = state.replace(current_player=0).apply("0: play Y1")
    assert ended.rounds[-1].points[0] == 40 + 40 + 2 + 3 + 4 + 5 + 6 + 9 + sum(range(1, 7))


# -- bindings ---------------------------------------------------------------------------------------


def test_r_custom_unbound_card_is_a_plain_wild() -> None:
    ruleset = rules()
    assert ruleset.options["custom_wild_1"] == "none"
    assert bound_effect(ruleset, CW1) is None
    state = game(ruleset, ["R1 R2 R3 R4 R5 R6 R7", "CW1 G1 G2 G3 G4 G5 G6", "B1 B2 B3 B4 B5 B6 B7"])
    after = state.apply("1: play CW1 B")
    assert (after.color, after.current_player, after.phase.name) == (Color.BLUE, 2, "play")
    assert not any(e.kind == "custom-wild" for e in after.events)


def test_r_custom_each_card_is_bound_by_name_or_alias_to_its_own_effect() -> None:
    ruleset = rules(custom_wild_1="C4", custom_wild_2=" Stiff-Elbows ", custom_wild_3="none")
    assert bound_effect(ruleset, CW1) is known_effects(ruleset)["extra-turn"]
    assert bound_effect(ruleset, CW2) is known_effects(ruleset)["stiff-elbows"]
    assert bound_effect(ruleset, CW3) is None
    state = game(ruleset, ["R1 R2 R3 R4 R5 R6 R7", "CW1 CW2 G1 G2 G3 G4 G5", "B1 B2 B3 B4 B5 B6 B7"])
    again = state.apply("1: play CW1 G")
    assert again.current_player == 1  # C4: another turn
    passed = again.apply("1: play CW2 R")
    assert passed.current_player == 2
    assert [e.kind for e in passed.events if e.rule == "R-CUSTOM"] == ["custom-wild", "table-rule"]


def test_r_custom_unknown_effect_fails_when_built_with_the_known_names() -> None:
    with pytest.raises(RulesetError) as failure:
        rules(custom_wild_2="juggle")
    message = str(failure.value)
    assert "custom_wild_2: no effect named 'juggle'" in message
    for name in EFFECT_NAMES:
        assert name in message
    assert "draw-until-color (C1)" in message


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"customizable_wilds": 1, "custom_wild_2": "c4"}, "only 1 customizable wild"),
        ({"custom_wild_1": "extra turn"}, "not an effect name"),
        ({"custom_wild_1": 4}, "not an effect name"),
    ],
)
def test_r_custom_bad_bindings_fail_when_the_rule_set_is_built(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        rules(**options)


# -- the extension point ------------------------------------------------------------------------------


def everyone_draws_one(draft: Draft, action: Action, previous: GameState) -> None:
    """A third-party effect: every other player draws a card."""
    for seat in draft.active_seats:
        if seat != action.seat:
            draft.draw(seat, 1, "effect")
    draft.pass_turn(1, action.seat)


def reverse_and_replay(draft: Draft, action: Action, previous: GameState) -> None:
    """A third-party effect: play reverses, and its player plays again."""
    draft.direction = -draft.direction
    draft.current_player = action.seat


class ThirdPartyEffects:
    """A plugin defined here, offering effects through custom-wilds' hook."""

    name = "third-party-effects"
    api_version = 2
    requires = ("custom-wilds",)

    @hookimpl
    def custom_wild_effects(self, ruleset: Ruleset) -> list[Effect]:
        return [
            Effect("everyone-draws-one", "every other player draws a card", everyone_draws_one),
            Effect("reverse-and-replay", "reverse, and play again", reverse_and_replay, aliases=("rr",)),
        ]


def test_r_custom_third_party_effect_works_through_the_hook() -> None:
    ruleset = rules(plugins=(ThirdPartyEffects(),), custom_wild_1="everyone-draws-one", custom_wild_3="RR")
    state = game(
        ruleset, ["R1 R2 R3 R4 R5 R6 R7", "CW1 CW3 G1 G2 G3 G4 G5", "B1 B2 B3 B4 B5 B6 B7"], draw="Y1 Y2"
    )
    after = state.apply("1: play CW1 Y")
    assert after.hands[0][-1] is Card.parse("Y1")
    assert after.hands[2][-1] is Card.parse("Y2")
    assert len(after.hands[1]) == 6
    assert after.current_player == 2
    assert [e.detail for e in after.events if e.kind == "custom-wild"] == [
        "everyone-draws-one: every other player draws a card"
    ]
    back = (
        rearranged(after, hands={2: "Y9 Y8"}).apply("2: play Y9").apply("0: play Y1").apply("1: play CW3 R")
    )
    assert (back.direction, back.current_player) == (-1, 1)


def test_r_custom_third_party_effect_works_through_register_effect() -> None:
    effect = register_effect(
        Effect("test-everyone-draws-one", "every other player draws", everyone_draws_one)
    )
    assert register_effect(effect) is effect  # registering again is harmless
    ruleset = rules(custom_wild_2="test-everyone-draws-one")
    state = game(ruleset, ["R1 R2 R3 R4 R5 R6 R7", "CW2 G1 G2 G3 G4 G5 G6", "B1 B2 B3 B4 B5 B6 B7"])
    after = state.apply("1: play CW2 R")
    assert [len(h) for h in after.hands] == [8, 6, 8]
    # JSON rebuilds the rule set from names alone: the registered effect is found.
    again = GameState.from_json(after.to_json())
    assert again == after
    with pytest.raises(ValueError, match="already registered"):
        register_effect(Effect("extra-turn", "not the ready one", everyone_draws_one))


def test_r_custom_clashing_or_bad_effects_fail_when_the_rule_set_is_built() -> None:
    class Clash:
        name = "clash"
        api_version = 2
        requires = ("custom-wilds",)

        @hookimpl
        def custom_wild_effects(self, ruleset: Ruleset) -> list[Any]:
            return [Effect("joke", "a different joke", everyone_draws_one)]

    with pytest.raises(RulesetError, match="two different effects are named 'joke'"):
        rules(plugins=(Clash(),))

    class NotAnEffect:
        name = "not-an-effect"
        api_version = 2
        requires = ("custom-wilds",)

        @hookimpl
        def custom_wild_effects(self, ruleset: Ruleset) -> list[Any]:
            return ["joke"]

    with pytest.raises(RulesetError, match=r"not an unorules_custom_wilds\.Effect"):
        rules(plugins=(NotAnEffect(),))
    with pytest.raises(RulesetError, match="requires 'custom-wilds'"):
        Ruleset.from_names(["classic"], plugins=[ThirdPartyEffects()])
    with pytest.raises(ValueError, match="bad effect name"):
        Effect("Two Words", "bad", everyone_draws_one)
    with pytest.raises(ValueError, match="not 'none'"):
        Effect("none", "the name of an unbound card", everyone_draws_one)


def test_r_custom_discard_under_keeps_the_top_card_and_colour() -> None:
    state = game(rules(), ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7", "B1 B2 B3 B4 B5 B6 B7"])
    draft = draft_of(state)
    discard_under(draft, 0, unorules.parse_cards("R2 R5"))
    after = draft.freeze()
    assert after.discard_pile == unorules.parse_cards("R2 R5 Y5")
    assert (after.top_card, after.color) == (state.top_card, state.color)
    assert after.hands[0] == unorules.parse_cards("R1 R3 R4 R6 R7")
    discarded = unorules.parse_cards("R2 R5")
    assert [(e.kind, e.seat, e.cards) for e in after.events if e.kind != "move"] == [
        ("discard", 0, discarded)
    ]


# -- every ready effect as starter, last card, two players, after a reshuffle --------------------------------


@pytest.mark.parametrize("effect", EFFECT_NAMES)
def test_r_setup_starter_customizable_wild_first_player_names_the_colour_and_no_effect(effect: str) -> None:
    ruleset = rules(custom_wild_1=effect)
    hands = ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7", "W B2 B3 B4 B5 B6 B7"]
    state = game(ruleset, hands, starter="CW1")
    assert (state.top_card, state.phase.name, state.current_player) == (CW1, "color", 1)
    named = state.apply("1: color G")
    assert (named.color, named.current_player, named.phase.name) == (Color.GREEN, 1, "play")
    assert named.hands == state.hands
    assert named.extras == ()
    assert not any(e.kind in ("custom-wild", "table-rule") for e in named.events)


@pytest.mark.parametrize("effect", [n for n in EFFECT_NAMES if n != "draw-until-color"])
def test_r_custom_as_the_last_card_ends_the_round_without_its_effect(effect: str) -> None:
    ruleset = rules(custom_wild_1=effect)
    base = game(ruleset, ["R1 R2 R3 R4 R5 R6 R7", "CW1 G1 G2 G3 G4 G5 G6", "W B2 B3 B4 B5 B6 B7"])
    state = rearranged(base, hands={1: "CW1"})
    after = state.apply("1: play CW1 Y")
    result = after.rounds[-1]
    assert (result.winner, result.reason) == (1, "out")
    assert (result.hands[0], result.hands[2]) == (state.hands[0], state.hands[2])
    assert result.points[1] == ruleset.hand_points(state.hands[0] + state.hands[2])
    assert not any(e.kind == "custom-wild" for e in after.events)


# Two players: seat 0 plays CW1 (naming green) bound to each effect; seat 1
# answers as listed; then who is to move and the hand sizes.
TWO_PLAYERS: list[tuple[str, str, str, list[str], int, list[int]]] = [
    ("draw-until-color", "CW1 R1 R2", "B1 B2 B3", ["1: draw"], 0, [2, 6]),  # draws Y1 Y2 G7
    ("discard-wilds", "CW1 R1 R2", "B1 W W+4", [], 1, [2, 1]),
    ("discard-specials", "CW1 R1 R2", "B1 BS W", [], 1, [2, 1]),
    ("cannot-play-draw-3", "CW1 R1 R2", "B1 B2 B3", ["1: draw"], 0, [2, 6]),
    ("extra-turn", "CW1 R1 R2", "B1 B2 B3", [], 0, [2, 3]),
    ("next-to-7", "CW1 R1 R2", "B1 B2 B3 B4 B5 B6 B7 B8 B9", ["1: discard B8", "1: discard B9"], 1, [2, 7]),
    ("all-to-3", "CW1 R1 R2", "B1 B2 B3 B4 B5", ["1: discard B4", "1: discard B5"], 1, [3, 3]),
    ("open-hands", "CW1 R1 R2", "B1 B2 B3", [], 1, [2, 3]),
    ("joke", "CW1 R1 R2", "B1 B2 B3", ["1: nolaugh"], 1, [6, 3]),
    ("stiff-elbows", "CW1 R1 R2", "B1 B2 B3", [], 1, [2, 3]),
    ("crow-or-draw-4", "CW1 R1 R2", "B1 B2 B3", ["1: draw"], 0, [2, 7]),
    ("crow-and-draw-4", "CW1 R1 R2", "B1 B2 B3", ["1: draw"], 0, [2, 7]),
]


@pytest.mark.parametrize(("effect", "seat0", "seat1", "answers", "to_move", "sizes"), TWO_PLAYERS)
def test_r_custom_every_ready_effect_with_two_players(
    effect: str, seat0: str, seat1: str, answers: list[str], to_move: int, sizes: list[int]
) -> None:
    ruleset = rules(custom_wild_1=effect)
    base = game(ruleset, ["R1 R2 R3 R4 R5 R6 R7", "B1 B2 B3 B4 B5 B6 B7"], dealer=1)
    state = rearranged(base, hands={0: seat0, 1: seat1}, draw="Y1 Y2 G7 R7")
    state = state.apply("0: play CW1 G")
    for answer in answers:
        state = state.apply(answer)
    assert (state.current_player, state.phase.name) == (to_move, "play")
    assert [len(h) for h in state.hands] == sizes
    assert (state.top_card, state.color) == (CW1, Color.GREEN)
    if effect == "open-hands":
        assert set(state.view(1).visible_hands) == {0, 1}


@pytest.mark.parametrize("effect", EFFECT_NAMES)
def test_r_custom_every_ready_effect_after_a_reshuffle(effect: str) -> None:
    ruleset = rules(custom_wild_1=effect)
    state = game(ruleset, ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7", "W B2 B3 B4 B5 B6 B7"])
    rest = [c for c in state.draw_pile if c is not CW1]
    # Seat 1 can only draw: the customizable wild comes back in a reshuffle.
    state = state.replace(
        draw_pile=(),
        discard_pile=(CW1, state.top_card),
        hands=(state.hands[0] + tuple(rest), state.hands[1], state.hands[2]),
    )
    drawn = state.apply("1: draw")
    assert any(e.kind == "reshuffle" for e in drawn.events)
    assert drawn.phase.card is CW1
    after = drawn.apply("1: play CW1 B")
    played = [e.detail for e in after.events if e.kind == "custom-wild"]
    assert played == [f"{effect}: {bound_effect(ruleset, CW1).summary}"]  # type: ignore[union-attr]
    assert after.top_card is CW1
    assert Counter(after.draw_pile + after.discard_pile + sum(after.hands, ())) == Counter(ruleset.deck)

"""The core's generic support for cards printed on both sides and for colours beyond the four:
registered colours, two-faced cards and their notation, the side in play, actions naming a face
(``#k``), views showing faces and the backs a seat sees (the ``visible_backs`` hook), JSON and
validation of the side, the build-time hook ``card_names_color``. The editions that use them
(``flip``, ``no-mercy``) have their own tests."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterable
from typing import ClassVar

import pytest

from unorules import (
    COLORS,
    Action,
    Card,
    Color,
    GameState,
    NotationError,
    Plugin,
    Ruleset,
    RulesetError,
    StateFormatError,
    hookimpl,
    register_color,
)
from unorules.cards import color_by_text, registered_colors
from unorules.testing import rearranged

# -- colours ----------------------------------------------------------------------------------


def test_the_four_colours_are_still_the_four_and_parse_as_before() -> None:
    assert COLORS == (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
    assert Color("R") is Color.RED
    assert Color.parse("blue") is Color.BLUE
    assert repr(Color.GREEN) == "Color.GREEN"
    assert str(Color.YELLOW) == "Y"
    assert pickle.loads(pickle.dumps(Color.RED)) is Color.RED
    assert copy.deepcopy(Color.BLUE) is Color.BLUE
    with pytest.raises(ValueError, match="not a registered colour"):
        Color("Q")


def test_a_plugin_registers_a_colour_once_and_it_reads_like_the_four() -> None:
    silver = register_color("K", "silver")
    assert register_color("k", "Silver") is silver  # the same registration again: harmless
    assert Color.parse("silver") is Color.parse("k") is Color("K") is silver
    assert color_by_text("SILVER") is silver
    assert silver in registered_colors()
    assert registered_colors()[:4] == COLORS
    assert (silver.value, silver.name, repr(silver)) == ("K", "SILVER", "Color('K')")
    assert pickle.loads(pickle.dumps(silver)) is silver
    card = Card.parse("k7")
    assert (card.color, card.name) == (silver, "silver 7")
    assert Action.parse("0: play W k").color is silver


@pytest.mark.parametrize(
    ("letter", "name", "message"),
    [
        ("K", "grey", "already registered as silver"),
        ("J", "silver", "already registered with another letter"),
        ("W", "white", "wild kinds"),
        ("RR", "ruby", "one letter"),
        ("J", "x", "2 to 20 letters"),
    ],
)
def test_a_colour_that_clashes_is_refused(letter: str, name: str, message: str) -> None:
    register_color("K", "silver")
    with pytest.raises(ValueError, match=message):
        register_color(letter, name)


def test_colours_cannot_be_changed() -> None:
    with pytest.raises(AttributeError):
        Color.RED.value = "X"  # type: ignore[misc]


# -- two-faced cards ----------------------------------------------------------------------------


def test_a_two_faced_card_is_its_two_faces_interned_and_written_with_a_slash() -> None:
    register_color("K", "silver")
    card = Card.parse("r1/k3")
    assert card is Card.two_faced(Card.parse("R1"), Card.parse("K3")) is Card.parse("R1/K3")
    assert str(card) == "R1/K3"
    assert card.faces == (Card.parse("R1"), Card.parse("K3"))
    assert card.face(0) is card.faces[0]
    assert card.face(1) is card.faces[1]
    assert Card.parse("R1").face(1) is Card.parse("R1")  # one-faced: itself on either side
    assert (card.color, card.kind, card.number) == (Color.RED, "1", 1)  # its first face's
    assert card.name == "red 1 / silver 3"
    assert Card.parse("W/R1").faces[0].is_wild
    for copier in (pickle.loads, copy.deepcopy):
        copied = copier(pickle.dumps(card)) if copier is pickle.loads else copier(card)
        assert copied is card
    assert Card.parse("R1/K3") is not Card.parse("K3/R1")  # the order of the faces matters


@pytest.mark.parametrize("text", ["R1/", "/R1", "R1/K3/G2", "R1//G2", "R1/X9"])
def test_bad_two_faced_notation_is_refused(text: str) -> None:
    register_color("K", "silver")
    with pytest.raises(NotationError):
        Card.parse(text)


def test_a_face_of_a_two_faced_card_must_have_one_face() -> None:
    with pytest.raises(NotationError, match="one-faced"):
        Card.two_faced(Card.parse("R1/G2"), Card.parse("B3"))


# -- actions naming a face ------------------------------------------------------------------------


def test_an_action_picks_the_kth_card_showing_a_face() -> None:
    action = Action.parse("0: play R1#2")
    assert (action.card, action.nth) == (Card.parse("R1"), 2)
    assert str(action) == "0: play R1#2"
    assert Action.parse(str(action)) is action
    assert Action.of(0, "play", Card.parse("R1"), None, None, 2) is action
    assert Action.parse("0: play R1#1") is Action.parse("0: play R1")  # the first is the default
    assert Action.of(0, "play", Card.parse("R1"), nth=1).nth is None
    assert pickle.loads(pickle.dumps(action)) is action
    assert Action.parse("0: play W#3 b").color is Color.BLUE


@pytest.mark.parametrize("text", ["0: play R1#0", "0: play R1#x", "0: play R1#1234", "0: draw #2"])
def test_a_bad_pick_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


def test_a_pick_needs_a_card() -> None:
    with pytest.raises(NotationError, match="without a card"):
        Action.of(0, "draw", None, None, None, 2)


# -- rule sets, views, JSON ------------------------------------------------------------------------


class Mixed(Plugin):
    """A deck mixing one-faced and two-faced cards (refused)."""

    name = "mixed-for-test"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return [Card.parse("R1/G2")]

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return 1 if card.faces or card in (Card.parse("R1"), Card.parse("G2")) else None


def test_a_deck_is_either_one_faced_or_two_faced() -> None:
    with pytest.raises(RulesetError, match="either kind"):
        Ruleset.from_names(["classic"], plugins=[Mixed()])


class LateWild(Plugin):
    """A Wild whose colour the next seat names (the card_names_color hook)."""

    name = "late-wild-for-test"
    api_version = 2
    requires = ("classic",)
    verbs: ClassVar[dict[str, str]] = {"play": "turn"}

    @hookimpl
    def card_names_color(self, ruleset: Ruleset, card: Card) -> bool | None:
        return False if card.kind == "W" else None


def test_card_names_color_makes_a_wild_play_without_a_colour() -> None:
    rules = Ruleset.from_names(["classic"], plugins=[LateWild()])
    wild, four = Card.parse("W"), Card.parse("W+4")
    assert not rules.names_color(wild)
    assert rules.names_color(four)
    assert not rules.names_color(Card.parse("R1"))
    assert rules.play_actions(0, wild, 2) == (Action.parse("0: play W"),)
    assert len(rules.play_actions(0, four, 2)) == 4
    classic = Ruleset.from_names(["classic"])
    assert classic.names_color(wild)
    assert classic.colors == COLORS
    assert not classic.two_faced


def test_a_one_faced_game_has_side_0_no_backs_and_writes_no_side() -> None:
    state = Ruleset.from_names(["classic"]).new_game(players=3, seed=2)
    assert state.side == 0
    view = state.view(1)
    assert (view.side, view.backs, view.draw_pile_back) == (0, {}, None)
    assert '"side"' not in state.to_json()  # a classic state's JSON is as it was
    assert state.ruleset.visible_backs(state, 1) == frozenset()
    with pytest.raises(StateFormatError, match="side"):
        GameState.from_json(state.replace(side=1).to_json().replace('"events"', '"side": 1, "events"'))


def test_the_side_of_a_two_faced_game_is_kept_in_json_and_checked() -> None:
    rules = Ruleset.from_names(["flip"])
    state = rules.new_game(players=3, seed=2).replace(side=1)
    state = state.replace(color=state.face(state.top_card).color or state.color)
    assert '"side": 1' in state.to_json()
    assert GameState.from_json(state.to_json()).side == 1
    with pytest.raises(StateFormatError, match="side"):
        GameState.from_json(state.to_json().replace('"side": 1', '"side": 2'))


def test_a_view_of_two_faced_cards_shows_faces_and_the_backs_the_visible_backs_hook_names() -> None:
    rules = Ruleset.from_names(["flip"])
    state = rules.new_game(players=3, seed=5)
    assert rules.visible_backs(state, 0) == frozenset({1, 2})  # flip's visible_backs: the others' hands
    assert rules.visible_backs(state, None) == frozenset()
    view = state.view(0)
    assert view.hand == tuple(c.faces[0] for c in state.hands[0])
    assert view.backs[1] == tuple(c.faces[1] for c in state.hands[1])
    assert view.draw_pile_back is state.draw_pile[0].faces[1]
    assert view.top_card is state.top_card.faces[0]
    turned = state.replace(side=1)
    assert turned.view(0).hand == tuple(c.faces[1] for c in state.hands[0])
    assert turned.view(0).backs[2] == tuple(c.faces[0] for c in state.hands[2])


def test_a_hand_holds_a_face_by_its_place_among_the_cards_showing_it() -> None:
    state = Ruleset.from_names(["flip"]).new_game(players=2, seed=5)
    state = rearranged(state, hands={0: "Y1/PSE R1/P3 B2/O8 R1/V2"})
    assert state.hand_index(0, Card.parse("R1")) == 1
    assert state.hand_index(0, Card.parse("R1"), 2) == 3
    assert state.hand_index(0, Card.parse("R1/V2")) == 3  # a physical card is found as itself
    with pytest.raises(ValueError, match="no 3 card showing R1"):
        state.hand_index(0, Card.parse("R1"), 3)
    assert str(state.back(state.hands[0][1])) == "P3"
    assert state.back(Card.parse("R1")) is None


def test_turning_over_is_for_two_faced_cards_only() -> None:
    from unorules.draft import carry_out

    class Turn(Plugin):
        """Turns the cards over on a 'pass' (a test of the mechanic)."""

        name = "turn-for-test"
        api_version = 2
        requires = ("classic",)

        @hookimpl(tryfirst=True)
        def apply_action(self, draft, action):  # type: ignore[no-untyped-def]
            draft.turn_over()
            return True

    rules = Ruleset.from_names(["classic"], plugins=[Turn()])
    state = rules.new_game(players=2, seed=1)
    with pytest.raises(ValueError, match="printed on one side"):
        carry_out(state, state.legal_actions()[0])

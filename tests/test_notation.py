"""Card and action notation: every card of the deck and every legal action seen
in random games print canonically and parse back to the same (interned)
object, case-insensitively and whitespace-tolerantly."""

from __future__ import annotations

import functools
import random

from hypothesis import given
from hypothesis import strategies as st

from unorules import Action, Card, Color, Ruleset, parse_cards
from unorules.testing import arrange_deck

CLASSIC = Ruleset.from_names(["classic"])


def _scramble_case(text: str, rng: random.Random) -> str:
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in text)


def test_every_card_of_the_deck_round_trips() -> None:
    rng = random.Random(0)
    for card in dict.fromkeys(CLASSIC.deck):
        text = str(card)
        assert Card.parse(text) is card
        assert Card.parse(text.lower()) is card
        assert Card.parse(f"  {_scramble_case(text, rng)}\t") is card
        assert Card.of(card.color, card.kind) is card
        assert repr(card) == f"Card({text!r})"


def test_card_notation_is_canonical() -> None:
    assert [str(Card.parse(t)) for t in ("r7", "gs", "yr", "b+2", "w", "w+4", " R0 ")] == [
        "R7",
        "GS",
        "YR",
        "B+2",
        "W",
        "W+4",
        "R0",
    ]
    assert Card.parse("r7").name == "red 7"
    assert Card.parse("W+4").name == "Wild Draw Four"
    assert Card.parse("yr").name == "yellow Reverse"
    assert parse_cards("r1, g2  b+2,w") == parse_cards(["R1", "G2", "B+2", "W"])


def test_colours_parse_by_letter_or_name() -> None:
    for color in Color:
        assert Color.parse(color.value.lower()) is color
        assert Color.parse(color.name.title()) is color
        assert str(color) == color.value


@functools.cache
def _seen_actions() -> tuple[Action, ...]:
    """Every legal action met in random games: 2 to 10 players, several option sets."""
    seen: dict[Action, None] = {}
    settings = [
        ({}, 2),
        ({"challenger": "anyone"}, 4),
        ({"challenge": "off", "drawn_card": "must-play"}, 3),
        ({}, 10),
        ({"opening_wild": "redraw"}, 6),
    ]
    for i, (options, players) in enumerate(settings):
        rules = Ruleset.from_names(["classic"], options=options)
        state = rules.new_game(players=players, seed=i)
        if i == 2:  # a Wild starter, for the "color" verb
            hands = [" ".join(f"{c}{n}" for n in range(1, 8)) for c in "RGB"]
            state = rules.new_game(players=players, seed=i, deck=arrange_deck(hands, "W"))
        rng = random.Random(i)
        for _ in range(5000):
            if state.is_over:
                break
            legal = state.legal_actions()
            seen.update(dict.fromkeys(legal))
            state = state.apply(rng.choice(legal))
    return tuple(seen)


def test_random_games_meet_every_verb() -> None:
    assert {a.verb for a in _seen_actions()} == {
        "play",
        "draw",
        "pass",
        "uno",
        "catch",
        "challenge",
        "accept",
        "color",
    }


def test_every_legal_action_seen_round_trips() -> None:
    rng = random.Random(1)
    for action in _seen_actions():
        text = str(action)
        assert Action.parse(text) is action
        assert Action.parse(text.upper()) is action
        assert Action.parse(_scramble_case(text, rng)) is action
        # The seat may be left out when parsing against a state's current player.
        body = text.split(":", 1)[1]
        assert Action.parse(body, default_seat=action.seat) is action
        assert repr(action) == f"Action({text!r})"


def test_action_notation_is_canonical() -> None:
    cases = {
        "1 :  PLAY  w+4  blue": "1: play W+4 B",
        "1:play r7": "1: play R7",
        "3: Catch 02": "3: catch 2",
        "0: COLOR red": "0: color R",
        " 2: draw ": "2: draw",
        "4: play W g": "4: play W G",
    }
    for text, canonical in cases.items():
        assert str(Action.parse(text)) == canonical
    assert Action.parse("play B+2", default_seat=5) is Action.parse("5: play B+2")
    # An explicit seat wins over the default.
    assert Action.parse("1: draw", default_seat=5).seat == 1


def test_arguments_may_come_in_any_order() -> None:
    assert Action.parse("1: play B W") is Action.parse("1: play W B")


CARD_TEXTS = st.sampled_from(sorted({str(c) for c in CLASSIC.deck}))


@given(CARD_TEXTS, st.randoms(use_true_random=False))
def test_card_parsing_ignores_case_and_spaces(text: str, rng: random.Random) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert Card.parse(" " * rng.randrange(3) + _scramble_case(text, rng) + " " * rng.randrange(3)) is card


def test_non_text_notation_is_a_notation_error() -> None:
    import pytest

    from unorules import Action, Card, NotationError

    with pytest.raises(NotationError, match="card notation must be text"):
        Card.parse(5)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="card notation must be text"):
        Card.parse(["R7"])  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="action notation must be text"):
        Action.parse(["1: draw"])  # type: ignore[arg-type]

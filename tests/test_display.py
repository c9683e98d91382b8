"""How a rule set is shown to people (``unorules.display``, the ``display`` hook): looks merged
in registration order, checked when made, read by the narrator and the terminal; FLIP!'s sides
named in a real terminal."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest
from rich.text import Text

import unorules
from unorules import Card, CardLook, Display, hookimpl
from unorules.cli import words
from unorules.display import CORE_LOOKS, display_of
from unorules.errors import RulesetError
from unorules.narrate import Narrator

unorules.register_kind("TDHP", "Wild Hot Potato", wild=True)
POTATO = Card.parse("TDHP")


class Looks(unorules.Plugin):
    """A plugin that only says how things look (for these tests)."""

    name = "test-looks"
    api_version = 2
    requires = ("classic",)

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    @hookimpl
    def display(self, ruleset: unorules.Ruleset) -> Any:
        return self.answer


class HouseLooks(Looks):
    """A house rule over ``test-looks``, renaming its card."""

    name = "test-house-looks"
    requires = ("test-looks",)


def rules(*plugins: unorules.Plugin) -> unorules.Ruleset:
    return unorules.Ruleset.from_names(["classic"], plugins=plugins)


def test_the_core_kinds_have_their_looks_and_an_undeclared_kind_its_registered_name() -> None:
    shown = display_of(rules())
    assert {look.kind for look in CORE_LOOKS} == {"S", "R", "+2", "W", "W+4"}
    assert shown.look(Card.parse("GS")).symbol == "⊘"
    assert shown.look(Card.parse("W")).label == "Wild"
    assert shown.look(Card.parse("R7")).label == ""  # a number card shows its number only
    plain = shown.look(POTATO)
    assert (plain.name, plain.symbol, plain.label, plain.icon, plain.paint) == (
        "Wild Hot Potato",
        "TDHP",
        "",  # a long name prints no word on the card
        "TDHP",
        "",
    )
    assert shown.side_name(0) == "side 0"
    assert shown.phase_words("play") is None
    assert display_of(rules()) is shown  # made once per rule set


def test_a_later_plugin_overrides_an_earlier_ones_looks_and_names() -> None:
    base = Looks(Display(cards=(CardLook("TDHP", name="Hot Potato", paint="#c8501e"),), sides=("up", "down")))
    house = HouseLooks(Display(cards=(CardLook("TDHP", name="Spud"),), phases={"play": "thinking"}))
    shown = display_of(rules(house, base))  # given in any order: registered base first
    assert shown.look(POTATO).name == "Spud"
    assert shown.look(POTATO).paint == ""  # the whole look is the house rule's
    assert shown.side_name(1) == "down side"
    assert shown.phase_words("play") == "thinking"
    assert display_of(rules(base)).card_name(POTATO) == "Hot Potato"
    assert display_of(rules(base)).card_name(Card.parse("R+2")) == "red Draw Two"


def test_a_hook_answer_that_is_no_display_is_refused_naming_the_hook() -> None:
    with pytest.raises(RulesetError, match="display hook must return"):
        display_of(rules(Looks({"sides": ("a", "b")})))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: CardLook("NOPE"), "registered card kind"),
        (lambda: CardLook("TDHP", paint="red"), "#rrggbb"),
        (lambda: CardLook("TDHP", ink="#12345"), "#rrggbb"),
        (lambda: CardLook("TDHP", label="a label far too long"), "at most 14"),
        (lambda: CardLook("TDHP", icon="\n"), "printable"),
        (lambda: Display(sides=("light", "")), "side's name"),
        (lambda: Display(phases={"play": "x" * 81}), "at most 80"),
        (lambda: Display(cards=("TDHP",)), "CardLook values"),
    ],
)
def test_a_look_that_cannot_be_shown_is_refused_when_made(make: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


def test_the_narrator_names_a_card_as_its_rule_set_shows_it() -> None:
    ruleset = rules(Looks(Display(cards=(CardLook("TDHP", name="Hot Potato"),))))
    sentence = unorules.narrate.Sentence(("you played ", POTATO))
    assert Narrator(ruleset, 0).words(sentence, capital=True) == "You played Hot Potato"
    assert str(sentence) == "you played Wild Hot Potato"  # without the rule set: the kind's name


def test_the_terminal_paints_a_card_its_rule_set_paints() -> None:
    shown = display_of(rules(Looks(Display(cards=(CardLook("TDHP", paint="#c8501e", ink="#fff4d6"),)))))
    painted = words.card(POTATO, shown)
    assert str(painted.style) == "bold #fff4d6 on #c8501e"
    assert str(words.card(POTATO).style) == "bold white on black"  # without the rule set's looks
    said = words.sentence(unorules.narrate.Sentence(("you played ", POTATO)), shown)
    assert isinstance(said, Text)
    assert said.plain == "you played TDHP (Wild Hot Potato)"


def test_flip_names_its_sides_in_a_terminal() -> None:
    pexpect = pytest.importorskip(
        "pexpect", reason="needs pexpect: pip install pexpect (python3 dev.py setup)"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(COLUMNS="100", LINES="40", TERM="xterm-256color", NO_COLOR="1")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "unorules", "play", "--rules", "flip", "--seed", "2", "--players", "2"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 100),
    )
    child.expect("> ")
    screen = child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert "light side" in screen, screen
    assert "side 0" not in screen


def test_the_page_is_sent_the_looks_the_side_and_the_phase_words() -> None:
    render = pytest.importorskip("unorules.serve.render")
    ruleset = rules(
        Looks(Display(cards=(CardLook("W", name="Rainbow", paint="#112233"),), phases={"play": "mulling"}))
    )
    wild = Card.parse("W")
    state = next(s for s in (ruleset.new_game(players=2, seed=n) for n in range(200)) if wild in s.hands[0])
    data = render.view_data(state.view(0), ["Ann", "Bob"], 0)
    assert data["phase"]["doc"] == "mulling"
    assert data["side_name"] is None  # one-faced cards: no side
    assert data["cards"]["W"] == {"color": None, "kind": "W", "name": "Rainbow"}
    look = render.looks_data(ruleset)["W"]  # sent once, with the welcome
    assert (look["paint"], look["label"], look["ink"]) == ("#112233", "Rainbow", None)
    assert render.looks_data(ruleset)["7"]["label"] == ""
    flip = unorules.Ruleset.from_names(["flip"]).new_game(players=2, seed=3)
    assert render.view_data(flip.public_view(), ["Ann", "Bob"], None)["side_name"] == "light side"

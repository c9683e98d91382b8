"""Events in words (issue 33, item 2): every event kind says how it reads, from every seat.

Every :class:`~unorules.EventSpec` of every installed plugin (the core's too) has a text;
seeded games under a rule set per plugin make every declared kind happen, and each event
and action of them is read by every seat and by a spectator, with names and without: no
sentence may show raw field text (a tuple, ``True``, a kind with its hyphen), a rule id,
or a placeholder left unfilled. A plugin without texts, or whose kinds no game here
shows, fails naming the plugin and the event.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import unorules
from unorules import Event, EventSpec, Ruleset, installed_plugins
from unorules.narrate import Narrator, Sentence, TextError, narrate, relative_names
from unorules.ruleset import CORE_EVENTS

NAMES = ("Ann", "Bob", "Cy", "Dee")

EFFECTS_A = {"custom_wild_1": "discard-wilds", "custom_wild_2": "all-to-3", "custom_wild_3": "open-hands"}
EFFECTS_B = {"custom_wild_1": "next-to-7", "custom_wild_2": "joke", "custom_wild_3": "crow-or-draw-4"}
EFFECTS_D = {
    "custom_wild_1": "stiff-elbows",
    "custom_wild_2": "discard-specials",
    "custom_wild_3": "crow-and-draw-4",
}

OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "classic": (
        {"opening_wild": "redraw", "target_score": 100},
        {"false_uno_penalty": 2, "forced_play": True},  # forced play: random rounds end sooner
        {"misplay_penalty": 1},
    ),
    "turn-rules": ({"misplay_penalty": 1},),
    "uno-calls": ({"false_uno_penalty": 2, "forced_play": True},),
    "multi-play": ({"multi_bomb": True},),
    "last-loses": ({"forced_play": True, "drawn_card": "must-play"},),
    "penalties": ({"enforcement": "table"},),
    "custom-wilds": (EFFECTS_A, EFFECTS_B, EFFECTS_D),
    "blank-cards": ({"blank_cards": ("house-rule", "house-rule", "aside")},),
    "elimination": ({"elimination_limit": 60}, {"elimination_by": "most-cards"}),
    "deflect": ({}, {"deflect_revenge": True}),
    "no-mercy": ({}, {"nm_end": "last-standing"}, {"mercy_limit": 40}),
}
"""Options under which a plugin's events happen (its defaults leave some of them idle)."""

CORE_MECHANICS_OF = {"stack": "stacking", "hands-moved": "seven-o"}
"""The core's events that only a plugin's use of a core mechanic emits (Draft.grow_stack,
Draft.trade_hands), each read where that plugin plays."""

SEEDS = range(1, 9)
MAX_ACTIONS = 1500

RULE_CODE = re.compile(r"\b[A-Z]{1,6}-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
RAW = re.compile(
    r"[{}\[\]_\x00]|\(\d|\bTrue\b|\bFalse\b|\bNone\b|\byou's\b|\byou (?:is|was|has|draws|plays)\b|"
    r"\b[a-z]+-[a-z]+\b"
)


def _plugins_of(name: str) -> list[str]:
    """``name`` with what it requires, required plugins first; a plugin that requires
    nothing and deals no cards (a house rule of any base, issue 42) with classic."""
    plugin = installed_plugins()[name]
    names: list[str] = [] if getattr(plugin, "requires", ()) or hasattr(plugin, "deck_cards") else ["classic"]
    for required in getattr(plugin, "requires", ()):
        names += [n for n in _plugins_of(required) if n not in names]
    return [*names, name]


def _rule_sets(name: str) -> list[Ruleset]:
    """The rule sets that show ``name``'s events: ``name`` with what it requires, under each
    option set of :data:`OPTIONS` (its defaults when it has none)."""
    found = []
    for options in OPTIONS.get(name, ({},)):
        try:
            found.append(Ruleset.from_names(_plugins_of(name), options))
        except unorules.RulesetError as exc:
            raise AssertionError(f"plugin {name!r} does not build for this test: {exc}") from None
    return found


def _games(rules: Ruleset, wanted: set[str]) -> Iterator[unorules.GameState]:
    """Every state of seeded random games of ``rules`` until each kind of ``wanted`` happened."""
    players = 4
    for seed in SEEDS:
        rng = random.Random(seed)
        state = rules.new_game(players=players, seed=seed)
        yield state
        for _ in range(MAX_ACTIONS):
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
            yield state
        if not wanted:
            return


def _readers(players: int) -> list[tuple[int | None, Sequence[str] | None]]:
    readers: list[tuple[int | None, Sequence[str] | None]] = [(None, None), (None, NAMES[:players])]
    for seat in range(players):
        readers += [(seat, None), (seat, NAMES[:players]), (seat, relative_names(players, seat))]
    return readers


def _check(sentence: Sentence, where: str) -> None:
    text = sentence.render()
    assert text.strip(), f"{where}: an empty sentence"
    assert not RULE_CODE.search(text), f"{where}: a rule id in {text!r}"
    assert not RAW.search(text), f"{where}: raw text in {text!r}"
    for card in (p for p in sentence.parts if isinstance(p, unorules.Card)):
        assert card.name in text


def test_every_declared_event_has_a_text() -> None:
    missing = [f"the core's event {spec.kind!r}" for spec in CORE_EVENTS if not spec.text]
    for name, plugin in sorted(installed_plugins().items()):
        missing += [
            f"plugin {name!r}: event {spec.kind!r}" for spec in getattr(plugin, "events", ()) if not spec.text
        ]
    assert not missing, (
        "events without a text (give each EventSpec a text, see 'Events in words' in "
        "docs/writing-plugins.rst): " + "; ".join(missing)
    )


@pytest.mark.parametrize("name", sorted(installed_plugins()))
def test_every_event_of_every_plugin_reads_as_words_from_every_seat(name: str) -> None:
    plugin = installed_plugins()[name]
    declared = {spec.kind for spec in getattr(plugin, "events", ())}
    if name == "classic":
        declared |= {spec.kind for spec in CORE_EVENTS} - set(CORE_MECHANICS_OF)
    declared |= {kind for kind, user in CORE_MECHANICS_OF.items() if user == name}
    wanted = set(declared)
    said: set[tuple[Any, ...]] = set()
    for rules in _rule_sets(name):
        for state in _games(rules, wanted):
            wanted -= {e.kind for e in state.events}
            for me, names in _readers(state.players):
                view = state.view(me) if me is not None else state.public_view()
                key = (rules.spec_text, me, names is None, view.last_action, view.events)
                if key in said:
                    continue
                said.add(key)
                for sentence in Narrator(rules, me, names, strict=True).view(view):
                    kinds = [e.kind for e in view.events]
                    _check(sentence, f"{name}: {view.last_action} {kinds} read by {me}")
    assert not wanted, (
        f"plugin {name!r}: no game of this test showed its event(s) {', '.join(sorted(wanted))}; add "
        "options under which they happen to OPTIONS in tests/test_event_words.py"
    )


def test_a_plugin_without_texts_is_reported_by_plugin_and_event() -> None:
    """The strict narrator names the plugin and the event a text is missing for."""

    class Quiet(unorules.Plugin):
        """Emits an event it gives no words."""

        name = "quiet"
        api_version = 2
        requires = ("classic",)
        events = (EventSpec("hush", "a seat hushed", (("seat", "who hushed"),)),)

    rules = Ruleset.from_names(["classic"], plugins=[Quiet()])
    event = Event("hush", 1)
    with pytest.raises(TextError, match="event 'hush' of plugin 'quiet': its EventSpec has no text"):
        Narrator(rules, 0, strict=True).event(event)
    assert str(Narrator(rules, 0).event(event)) == "hush (seat 1)"  # a user interface goes on


def test_a_text_naming_an_undeclared_field_is_refused_when_declared() -> None:
    with pytest.raises(ValueError, match=r"event 'hush': its text names \{target\}"):
        EventSpec("hush", "a seat hushed", (("seat", "who hushed"),), "{seat} hushed {target}")
    with pytest.raises(ValueError, match="bad template"):
        EventSpec("hush", "a seat hushed", (("seat", "who hushed"),), "{seat hushed")
    with pytest.raises(ValueError, match=r"verb 'hush': its text names \{cards\}"):
        unorules.register_verb("hush", text="{seat} hushed {cards}")


# -- the sentences the issue found wrong --------------------------------------------------------


def _deck(hands: Sequence[str], starter: str, dealer: int) -> list[str]:
    from unorules.testing import arrange_deck

    return arrange_deck(hands, starter, dealer=dealer)


def test_a_failed_challenge_reads_your_wild_draw_four_not_yous() -> None:
    """Was "seat 2 shows the hand: you's hand: innocent"."""
    rules = Ruleset.from_names(["classic"])
    hands = ["W+4 G1 G2 G3 G4 G5 G6", "B1 B2 B3 B4 B5 B6 B7", "Y1 Y2 Y3 Y4 Y5 Y6 Y7"]
    state = rules.new_game(players=3, deck=_deck(hands, "R9", 2), dealer=2)
    state = state.apply("0: play W+4 B").apply("1: challenge")
    words = [str(s) for s in narrate(state.view(0))]
    assert words[0] == "seat 1 challenged your Wild Draw Four: it was played fairly", words
    assert "you drew" not in words[1]
    assert words[1] == "seat 1 drew 6 cards as a penalty"
    challenger = [str(s) for s in narrate(state.view(1), NAMES)]
    assert challenger[0].startswith("you challenged Ann's Wild Draw Four, seeing green 1, ")
    assert challenger[0].endswith(": it was played fairly")


def test_the_end_of_a_round_reads_as_words() -> None:
    """Was "seat 2 round-end: out; points [0, 0, 69, 0]"."""
    rules = Ruleset.from_names(["classic"])
    event = Event("round-end", 2, data=(("reason", "out"), ("points", (0, 0, 69, 0))))
    assert str(Narrator(rules, 2).event(event)) == "you went out and won the round, scoring 69 points"
    assert str(Narrator(rules, 0, NAMES).event(event)) == "Cy went out and won the round, scoring 69 points"
    nobody = Event("round-end", None, data=(("reason", "blocked"), ("points", (0, 0, 0, 0))))
    assert str(Narrator(rules, 0).event(nobody)) == "the round ended without a winner"


def test_the_deal_says_the_first_card() -> None:
    """Round 1's starter was never announced: the deal reads with it."""
    rules = Ruleset.from_names(["classic"])
    hands = ["R1 R2 R3 R4 R5 R6 R7", "G1 G2 G3 G4 G5 G6 G7", "Y1 Y2 Y3 Y4 Y5 Y6 Y7"]
    state = rules.new_game(players=3, deck=_deck(hands, "B+2", 2), dealer=2)
    assert [str(s) for s in narrate(state.view(0))] == [
        "seat 2 dealt round 1; the first card is blue Draw Two"
    ]
    assert [s.render(card=str) for s in narrate(state.view(2))] == [
        "you dealt round 1; the first card is B+2"
    ]


def test_a_verb_agrees_with_you_and_a_seat_reads_from_where_you_sit() -> None:
    rules = Ruleset.from_names(["classic", "stacking"])
    event = Event("stack", 1, (unorules.Card.parse("R+2"),), target=2, count=4)
    assert str(Narrator(rules, 2, NAMES).event(event)) == "Bob stacked red Draw Two: you must draw 4 or stack"
    sitting = relative_names(4, 1)
    assert sitting == [
        "the player to your right",
        "you",
        "the player to your left",
        "the player opposite you",
    ]
    assert str(Narrator(rules, 1, sitting).event(event)) == (
        "you stacked red Draw Two: the player to your left must draw 4 or stack"
    )
    uno = Event("caught", 3, target=0, count=2)
    assert str(Narrator(rules, 3, NAMES).event(uno)) == "Ann caught you without UNO"


def test_the_narrate_modules_examples_run() -> None:
    import doctest

    import unorules.narrate

    failed, tried = doctest.testmod(unorules.narrate)
    assert tried > 0
    assert failed == 0

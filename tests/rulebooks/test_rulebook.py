"""Rulebooks (``unorules.rulebook``): a family's rules in one TOML file, the presets, and
the rule sets they build: errors name the line and the key; a rule set from a file
round-trips through its spec text, records and JSON; ``Ruleset.named`` reads what
``--rules`` reads."""

from __future__ import annotations

from pathlib import Path

import pytest

import unorules
from unorules import GameState, Ruleset, RulesetError
from unorules.record import GameRecord, play_bots
from unorules.rulebook import SEATS, Rulebook, is_rules_path, preset, preset_names, presets, resolve

FAMILY = """\
# Our rules
name = "The Smiths"
description = "Stacking and 7-0; no wild to go out."
plugins = ["classic", "stacking", "seven-o"]
players = [3, 4]

[options]
stack_mix = true
last_card_ban = "wild"
uno_penalty = "4"
"""


def write(tmp_path: Path, text: str, name: str = "family.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_rulebook_names_its_rules_and_what_it_is() -> None:
    book = Rulebook.from_toml(FAMILY, "family.toml")
    assert book.name == "The Smiths"
    assert book.description.startswith("Stacking")
    # last_card_ban, an option of no plugin named, adds last-card, which declares it (issue 42).
    assert book.plugins == ("classic", "stacking", "seven-o", "last-card")
    assert book.option_values == {"stack_mix": True, "last_card_ban": "wild", "uno_penalty": 4}
    assert book.players == (3, 4)
    assert book.line("options.last_card_ban") == 9


def test_a_rule_set_from_a_file_is_the_rule_set_its_spec_text_names(tmp_path: Path) -> None:
    rules = Ruleset.from_file(write(tmp_path, FAMILY))
    spec = "classic,last-card,seven-o,stacking last_card_ban=wild stack_mix=on uno_penalty=4"
    assert rules.spec_text == spec
    assert Ruleset.from_spec_text(rules.spec_text) is rules
    assert Ruleset.from_toml(FAMILY) is rules
    assert rules.spec() == {
        "plugins": ["classic", "last-card", "seven-o", "stacking"],
        "options": {"stack_mix": True, "last_card_ban": "wild", "uno_penalty": 4},
    }


def test_a_record_made_under_a_file_replays_without_it(tmp_path: Path) -> None:
    path = write(tmp_path, FAMILY)
    rules = Ruleset.from_file(path)
    record = play_bots(rules, ["heuristic", "random", "heuristic"], seed=3, max_actions=300)
    text = record.dumps()
    path.unlink()  # the file is gone
    parsed = GameRecord.parse(text)
    assert parsed.ruleset == rules.spec_text
    replayed = parsed.replay()
    state = GameState.from_json(replayed.to_json())
    assert state.ruleset == rules
    assert state.to_json() == replayed.to_json()


def test_extends_a_preset_adds_and_leaves_out_plugins(tmp_path: Path) -> None:
    text = 'extends = "party"\nwithout = ["jump-in"]\nplugins = ["deflect"]\n[options]\nstack_mix = "on"\n'
    book = Rulebook.from_toml(text)
    assert book.plugins == ("classic", "stacking", "seven-o", "deflect")
    assert book.option_values == {"stack_mix": True}


def test_extends_another_file_relative_to_this_one(tmp_path: Path) -> None:
    write(tmp_path, FAMILY, "base.toml")
    path = write(
        tmp_path, 'name = "ours"\nextends = "base.toml"\n[options]\nstack_mix = false\n', "ours.toml"
    )
    book = Rulebook.from_file(path)
    assert book.name == "ours"
    assert book.players == (3, 4)  # from the base
    assert book.option_values["stack_mix"] is False
    assert book.option_values["last_card_ban"] == "wild"


def test_a_rulebook_that_extends_itself_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "loop.toml"\n', "loop.toml")
    with pytest.raises(RulesetError, match="extends itself"):
        Rulebook.from_file(path)


def test_without_leaves_out_a_plugins_options(tmp_path: Path) -> None:
    write(tmp_path, FAMILY, "base.toml")
    book = Rulebook.from_file(write(tmp_path, 'extends = "base.toml"\nwithout = ["stacking"]\n', "o.toml"))
    assert "stacking" not in book.plugins
    assert "stack_mix" not in book.option_values


def test_custom_wilds_effects_turn_the_plugin_on() -> None:
    book = Rulebook.from_toml(
        'plugins = ["classic"]\n[custom_wilds]\nCW1 = "extra-turn"\nCW3 = "C6"\ncount = 3\n'
    )
    assert book.plugins == ("classic", "custom-wilds")
    rules = Ruleset.from_rulebook(book)
    assert rules.options["custom_wild_1"] == "extra-turn"
    assert rules.options["customizable_wilds"] == 3


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ('plugins = ["classic"]\nname = \n', "not valid TOML", "line 2"),
        ('plugins = ["classic"]\ncolour = "red"\n', "line 2 (colour)", "unknown key 'colour'"),
        ('plugins = "classic"\n', "line 1 (plugins)", "list of plugin names"),
        ('plugins = ["classic", "classic"]\n', "line 1 (plugins)", "listed twice"),
        ('plugins = ["classic", "stackin"]\n', "line 1 (plugins)", "no plugin named 'stackin'"),
        (
            'plugins = ["classic"]\n\n[options]\nstack_mixed = true\n',
            "line 4 (options.stack_mixed)",
            "no plugin of",
        ),
        (
            'plugins = ["classic"]\n[options]\nuno_penalty = 5\n',
            "line 3 (options.uno_penalty)",
            "is not one of",
        ),
        ('plugins = ["classic"]\nplayers = 11\n', "line 2 (players)", "from 2 to 10"),
        ('plugins = ["classic"]\nplayers = [3, 3]\n', "line 2 (players)", "listed twice"),
        ('name = 3\nplugins = ["classic"]\n', "line 1 (name)", "must be text"),
        ('extends = "no-such-preset"\n', "line 1 (extends)", "no preset named"),
        ('plugins = ["classic"]\nwithout = ["stacking"]\n', "line 2 (without)", "give extends too"),
        ('plugins = ["classic"]\n[custom_wilds]\nCW4 = "joke"\n', "line 3 (custom_wilds.CW4)", "unknown key"),
        (
            'plugins = ["classic"]\n[custom_wilds]\nCW1 = "juggle"\n',
            "line 3 (custom_wilds.CW1)",
            "no effect named",
        ),
        ('plugins = ["classic", "partners", "elimination"]\n', "line 1 (plugins)", "conflict"),
        ('plugins = ["stacking"]\n', "line 1 (plugins)", "put no cards in the deck"),
        ('plugins = ["classic", "partners"]\nplayers = [4, 6]\n', "line 2 (players)", "not 6"),
        (
            'plugins = ["classic", "elimination"]\n[options]\ntarget_score = 300\n',
            "line 3 (options.target_score)",
            "target_score",
        ),
        ("plugins = []\n", "line 1 (plugins)", "names no plugin"),
        (
            'plugins = ["classic"]\noptions = {uno_penalty = 5}\n',
            "line 2 (options.uno_penalty)",
            "is not one of",
        ),
    ],
)
def test_a_mistake_names_the_file_the_line_and_the_key(text: str, where: str, what: str) -> None:
    with pytest.raises(RulesetError) as error:
        Ruleset.from_toml(text, "ours.toml")
    message = str(error.value)
    assert message.startswith("ours.toml"), message
    assert where in message, message
    assert what in message, message


def test_a_file_that_is_not_there_or_not_text(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="no rules file"):
        Ruleset.from_file(tmp_path / "missing.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RulesetError, match="not UTF-8"):
        Ruleset.from_file(binary)


def test_to_toml_writes_a_rulebook_that_reads_back_to_the_same_rules() -> None:
    book = Rulebook.from_toml(FAMILY)
    again = Rulebook.from_toml(book.to_toml())
    assert (again.name, again.description, again.plugins, again.options, again.players) == (
        book.name,
        book.description,
        book.plugins,
        book.options,
        book.players,
    )
    blanks = Rulebook.from_toml(
        'plugins = ["classic", "blank-cards"]\n[options]\nblank_cards = ["Y7", "aside"]\n'
    )
    assert Rulebook.from_toml(blanks.to_toml()).options == blanks.options


def test_every_preset_loads_builds_and_deals_its_player_counts() -> None:
    names = preset_names()
    assert {"classic", "edition-2015", "edition-2015-pl", "party", "no-mercy-style"} <= set(names)
    for name, book in presets().items():
        assert not isinstance(book, RulesetError), book
        assert book.name
        assert book.description.endswith(".")
        rules = Ruleset.from_preset(name)
        for players in book.players or (4,):
            rules.new_game(players, seed=1)


def test_the_party_preset_is_stacking_seven_o_and_jump_in() -> None:
    assert preset("party").plugins == ("classic", "stacking", "seven-o", "jump-in")


def test_named_reads_a_path_a_preset_or_a_spec_text(tmp_path: Path) -> None:
    path = write(tmp_path, FAMILY)
    assert Ruleset.named(str(path)) is Ruleset.from_file(path)
    assert Ruleset.named("party") is Ruleset.from_preset("party")
    assert Ruleset.named("classic,stacking stack_mix=on").options["stack_mix"] is True
    assert [is_rules_path(t) for t in ("./x.toml", "a/b", "ours.TOML", "classic,stacking")] == [
        True,
        True,
        True,
        False,
    ]
    assert resolve("classic,stacking") is None
    with pytest.raises(RulesetError, match="no rules file"):
        Ruleset.named("./nowhere.toml")
    with pytest.raises(RulesetError):
        Ruleset.named(3)  # type: ignore[arg-type]


def test_the_player_counts_are_the_cores() -> None:
    assert range(unorules.MIN_PLAYERS, unorules.MAX_PLAYERS + 1) == SEATS

"""What plugin API version 2 brought, exercised: plugins of another version
refused, hook methods checked when a rule set is built, every hook tested,
the draft's mechanics and the UNO books they keep, a draft frozen into the
next state, and a hook that raises changing nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, cast

import attrs
import pytest

from unorules import (
    PLAY,
    Action,
    Card,
    Color,
    Draft,
    Event,
    EventSpec,
    ExtraSpec,
    GameState,
    Phase,
    Plugin,
    Ruleset,
    RulesetError,
    hookimpl,
    hookspec,
    hookspecs,
)
from unorules.draft import WRITABLE
from unorules.plugin import DECLARATIONS, VERSION_1_DECLARATIONS
from unorules.testing import arrange_deck, draft_of, rearranged

HERE = Path(__file__).resolve().parent


def _card(text: str) -> Card:
    return Card.parse(text)


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


# -- plugins of another version ----------------------------------------------------------------


def _plugin(**attributes: Any) -> Any:
    """A plugin object named 'tested' on classic, with ``attributes``."""
    return type("Tested", (Plugin,), {"name": "tested", "requires": ("classic",), **attributes})()


@pytest.mark.parametrize(
    "plugin",
    [
        _plugin(api_version=1),
        _plugin(),  # says no version: Plugin's default, 1
        type("Bare", (), {"name": "tested", "requires": ("classic",)})(),  # not even a Plugin
    ],
    ids=["says-1", "says-nothing", "bare-object"],
)
def test_a_plugin_not_written_against_version_2_is_refused_pointing_to_the_migration(plugin: Any) -> None:
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_names(["classic"], plugins=[plugin])
    message = str(raised.value)
    assert message.startswith("plugin 'tested' is written against plugin API version 1;")
    assert "'Moving to version 2' in the docs' Writing plugins page (docs/writing-plugins.rst)" in message
    assert message.endswith("then set api_version = 2")
    assert Ruleset.from_names(["classic"], plugins=[_plugin(api_version=2)]).names == ("classic", "tested")


@pytest.mark.parametrize("declaration", sorted(VERSION_1_DECLARATIONS))
def test_a_version_2_plugin_declaring_a_version_1_attribute_is_refused_naming_it(declaration: str) -> None:
    plugin = _plugin(api_version=2, **{declaration: ("play",)})
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_names(["classic"], plugins=[plugin])
    message = str(raised.value)
    assert message.startswith(f"plugin 'tested' declares {declaration}, which plugin API version 2 replaced")
    assert "'Moving to version 2'" in message


def test_every_version_1_declaration_is_named_at_once() -> None:
    plugin = _plugin(api_version=2, play_kinds=("S",), direct_appliers={}, max_round_actions=9)
    with pytest.raises(RulesetError, match="declares direct_appliers, max_round_actions, play_kinds, which"):
        Ruleset.from_names(["classic"], plugins=[plugin])
    # None is no declaration (a subclass may clear an attribute it inherits)
    assert (
        Ruleset.from_names(["classic"], plugins=[_plugin(api_version=2, play_kinds=None)]).names[-1]
        == "tested"
    )


def test_the_version_1_declarations_are_not_version_2_ones() -> None:
    assert not VERSION_1_DECLARATIONS & set(DECLARATIONS)
    assert {"play_kinds", "direct_appliers", "legal_phases", "apply_verbs"} <= VERSION_1_DECLARATIONS


class SetsAsideByItsHooksName(Plugin):
    name = "sets-aside-by-name"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def set_aside_cards(self, state: GameState) -> Iterable[Card]:
        return (_card("R1"),)


def test_a_set_aside_cards_hook_method_is_not_taken_for_the_version_1_declaration() -> None:
    # 'Moving to version 2', step 6: the set_aside_cards method becomes the hook
    # of that name (this was refused as the version 1 declaration until c1ffbb7).
    rules = Ruleset.from_names(["classic"], plugins=[SetsAsideByItsHooksName()])
    assert rules.set_aside_cards(rules.new_game(players=2, seed=0)) == (_card("R1"),)

    def set_aside_cards(self: object, state: GameState) -> Iterable[Card]:
        return ()

    unmarked = _plugin(api_version=2, set_aside_cards=set_aside_cards)  # version 1's plain method
    with pytest.raises(RulesetError, match="declares set_aside_cards, which plugin API version 2 replaced"):
        Ruleset.from_names(["classic"], plugins=[unmarked])


# -- hook methods checked when the rule set is built -------------------------------------------


@pytest.mark.parametrize("hook", ["on_play", "apply_action", "legal_actions", "teams", "check_state"])
def test_a_method_named_like_a_hook_but_not_marked_is_refused_naming_it(hook: str) -> None:
    def method(self: object, *args: Any) -> None:
        return None

    plugin = _plugin(api_version=2, **{hook: method})
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_names(["classic"], plugins=[plugin])
    assert str(raised.value) == (
        f"plugin 'tested' has a method {hook!r} named like the hook but not marked @unorules.hookimpl, "
        "so it would never be called: mark it, or rename it"
    )
    # A private helper of that name, or the method marked, is fine.
    assert Ruleset.from_names(["classic"], plugins=[_plugin(api_version=2, **{f"_{hook}": method})])


class OffersAHook(Plugin):
    """Offers other plugins a hook of its own (an extension point)."""

    name = "offers"
    api_version = 2
    requires = ("classic",)

    class Specs:
        @staticmethod
        @hookspec
        def plugin_api_v2_bonus(card: Card) -> int:  # type: ignore[empty-body]
            """Bonus points for a card."""

    hookspecs = Specs


def test_a_method_named_like_another_plugins_extension_hook_but_not_marked_is_refused() -> None:
    def plugin_api_v2_bonus(self: object, card: Card) -> int:
        return 1

    unmarked = _plugin(api_version=2, plugin_api_v2_bonus=plugin_api_v2_bonus)
    with pytest.raises(RulesetError, match="method 'plugin_api_v2_bonus' named like the hook but not marked"):
        Ruleset.from_names(["classic"], plugins=[OffersAHook(), unmarked])
    marked = _plugin(api_version=2, plugin_api_v2_bonus=hookimpl(plugin_api_v2_bonus))
    rules = Ruleset.from_names(["classic"], plugins=[OffersAHook(), marked])
    assert rules.hook.plugin_api_v2_bonus(card=_card("R1")) == [1]


@pytest.mark.parametrize(
    ("hook", "parameters", "bad", "spec"),
    [
        ("on_play", "draft, state", "state", "draft, action, previous"),
        ("apply_action", "state, action, seat", "state, seat", "draft, action"),
        ("legal_actions", "draft", "draft", "state"),
        ("teams", "ruleset, players, seats", "seats", "ruleset, players"),
    ],
)
def test_a_hook_implementation_with_a_parameter_its_spec_lacks_is_refused_naming_plugin_hook_parameter(
    hook: str, parameters: str, bad: str, spec: str
) -> None:
    namespace: dict[str, Any] = {}
    exec(f"def {hook}(self, {parameters}):\n    return None\n", namespace)
    plugin = _plugin(api_version=2, **{hook: hookimpl(namespace[hook])})
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_names(["classic"], plugins=[plugin])
    assert str(raised.value) == (
        f"plugin 'tested' implements hook {hook!r} with parameter(s) {bad}, which the hook does not have; "
        f"its parameters are: {spec}"
    )


def test_an_implementation_under_another_name_is_checked_by_pluggy_naming_plugin_hook_parameter() -> None:
    def effect(self: object, draft: Draft, state: GameState) -> None:
        return None

    plugin = _plugin(api_version=2, effect=hookimpl(specname="on_play")(effect))
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_names(["classic"], plugins=[plugin])
    message = str(raised.value)
    assert message.startswith("plugin 'tested' cannot be registered")
    assert "for hook 'on_play'" in message
    assert "'state'" in message


def test_a_marked_method_of_no_hook_is_refused() -> None:
    def on_plya(self: object, draft: Draft) -> None:
        return None

    with pytest.raises(RulesetError, match=r"a plugin implements an unknown hook: .*on_plya"):
        Ruleset.from_names(["classic"], plugins=[_plugin(api_version=2, on_plya=hookimpl(on_plya))])


# -- every hook has a test ---------------------------------------------------------------------


def _hook_names() -> list[str]:
    return sorted(n for n in dir(hookspecs) if hasattr(getattr(hookspecs, n), "unorules_spec"))


def _contract_tests() -> list[str]:
    tree = ast.parse((HERE / "test_hook_contracts.py").read_text(encoding="utf-8"))
    return [
        node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    ]


@pytest.mark.parametrize("hook", _hook_names())
def test_every_hook_has_a_contract_test(hook: str) -> None:
    """Datasette's check: each hook of ``unorules.hookspecs`` has a test named
    ``test_hook_<hook>_...`` in ``tests/test_hook_contracts.py`` (a new hook
    fails here until it has one)."""
    assert any(name.startswith(f"test_hook_{hook}_") for name in _contract_tests()), (
        f"hook {hook!r} has no test_hook_{hook}_... in tests/test_hook_contracts.py"
    )


def test_the_hook_list_is_the_specs() -> None:
    assert len(_hook_names()) == 32
    assert {"apply_action", "after_action", "teams", "set_aside_cards", "check_state"} <= set(_hook_names())
    # No contract test names a hook that does not exist.
    tested = {name.removeprefix("test_hook_") for name in _contract_tests() if name.startswith("test_hook_")}
    for name in tested:
        assert any(name.startswith(f"{hook}_") for hook in _hook_names()), name


# -- the draft's mechanics ---------------------------------------------------------------------


RULES = Ruleset.from_names(["classic"])


def _table(
    hands: dict[int, str] | None = None,
    top: str = "R9",
    draw: str = "Y1 Y2 Y3",
    **fields: Any,
) -> GameState:
    """A 3-seat classic position: seat 0 holds R1 R2, seat 1 G3 G4, seat 2 B5 B6 B7, R9 on top."""
    state = rearranged(
        RULES.new_game(players=3, seed=7),
        hands=hands or {0: "R1 R2", 1: "G3 G4", 2: "B5 B6 B7"},
        top=top,
        draw=draw,
    )
    fields = {"current_player": 0, "phase": PLAY, "color": Color.RED, **fields}
    return state.replace(**fields)


def extras(draft: Draft) -> tuple[tuple[str, Any], ...]:
    return draft.extras


def books(draft: Draft) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The UNO books: the seats that called, the seats open to a catch."""
    return draft.uno_declared, draft.uno_exposed


def test_draft_play_moves_the_card_and_asks_on_play() -> None:
    state = _table(stalled=2)
    play = Action.of(0, "play", _card("R1"))
    draft = draft_of(state, play)
    draft.play(play)
    after = draft.freeze()
    assert after.hands[0] == _cards("R2")
    assert after.discard_pile == (*state.discard_pile, _card("R1"))
    assert after.color == Color.RED
    assert after.stalled == 0
    assert after.current_player == 1  # classic's on_play passed the turn
    after.validate()


def test_draft_play_of_a_wild_takes_the_colour_named() -> None:
    state = _table(hands={0: "W R2"})
    play = Action.of(0, "play", _card("W"), Color.GREEN)
    draft = draft_of(state, play)
    draft.play(play)
    assert draft.color == Color.GREEN
    assert draft.top_card == _card("W")


def test_draft_play_down_to_one_card_without_a_call_exposes_the_seat_and_closes_the_others() -> None:
    state = _table(uno_exposed=(1,), uno_declared=(2,))
    play = Action.of(0, "play", _card("R1"))
    draft = draft_of(state, play)
    draft.play(play)
    # R-UNO-CATCH: seat 0 may be caught, seat 1's window closed; seat 2's call stands.
    assert books(draft) == ((2,), (0,))


def test_draft_play_down_to_one_card_with_a_call_uses_the_call_and_exposes_nobody() -> None:
    state = _table(uno_declared=(0, 2), uno_exposed=(1,))
    play = Action.of(0, "play", _card("R1"))
    draft = draft_of(state, play)
    draft.play(play)
    assert books(draft) == ((2,), ())  # R-UNO-CALL: seat 0's call was for this card


def test_draft_play_leaving_more_than_one_card_exposes_nobody() -> None:
    state = _table(uno_exposed=(1,))
    play = Action.of(2, "play", _card("B5"))
    draft = draft_of(state.replace(current_player=2, color=Color.BLUE), play)
    draft.play(play)
    assert draft.hands[2] == _cards("B6 B7")
    assert books(draft) == ((), ())


def test_draft_draw_takes_the_top_cards_records_a_private_event_and_asks_on_draw() -> None:
    seen: list[tuple[int, tuple[Card, ...], str]] = []

    class Watches(Plugin):
        name = "watches"
        api_version = 2
        requires = ("classic",)

        @hookimpl
        def on_draw(self, seat: int, cards: tuple[Card, ...], reason: str) -> None:
            seen.append((seat, cards, reason))

    rules = Ruleset.from_names(["classic"], plugins=[Watches()])
    state = _table().replace(ruleset=rules)
    draft = draft_of(state, Action.of(1, "draw"))
    assert draft.draw(1, 2, "penalty") == _cards("Y1 Y2")
    assert draft.hands[1] == _cards("G3 G4 Y1 Y2")
    assert draft.draw_pile[0] == _card("Y3")
    (event,) = draft.events
    assert (event.kind, event.seat, event.cards, event.count, event.private) == (
        "draw",
        1,
        _cards("Y1 Y2"),
        2,
        True,
    )
    assert event.value("reason") == "penalty"
    assert seen == [(1, _cards("Y1 Y2"), "penalty")]


def test_draft_draw_ends_the_drawers_exposure_only() -> None:
    state = _table(hands={0: "R1", 1: "G3", 2: "B5 B6 B7"}, uno_exposed=(0, 1))
    draft = draft_of(state, Action.of(0, "draw"))
    draft.draw(0)
    assert books(draft) == ((), (1,))  # R-UNO-CATCH: seat 0 drew, seat 1 may still be caught


def test_draft_draw_reshuffles_the_discard_pile_but_its_top_card() -> None:
    state = _table()
    state = state.replace(draw_pile=(), discard_pile=state.draw_pile + state.discard_pile)
    pile = state.discard_pile
    draft = draft_of(state, Action.of(0, "draw"))
    drawn = draft.draw(0, 2)
    assert len(drawn) == 2
    assert draft.discard_pile == pile[-1:]
    assert sorted(map(str, drawn + draft.draw_pile)) == sorted(map(str, pile[:-1]))
    assert draft.rng != state.rng  # the shuffle advanced the generator
    assert [e.kind for e in draft.events] == ["reshuffle", "draw"]
    assert draft.events[0].count == len(pile) - 1


def test_draft_draw_with_both_piles_exhausted_draws_what_there_is() -> None:
    state = _table()
    top = state.discard_pile[-1:]
    draft = draft_of(state.replace(draw_pile=_cards("Y1"), discard_pile=top), Action.of(0, "draw"))
    assert draft.draw(0, 3) == _cards("Y1")
    assert draft.draw(0, 1) == ()
    assert draft.events[-1].count == 0


def test_draft_set_hands_makes_changed_seats_lose_their_call_and_exposure() -> None:
    state = _table(hands={0: "R1", 1: "G3", 2: "B5 B6 B7"}, uno_declared=(2,), uno_exposed=(0, 1))
    draft = draft_of(state)
    draft.set_hands({0: _cards("R1"), 1: _cards("G3 B5"), 2: _cards("B6 B7")})
    assert draft.hands == (_cards("R1"), _cards("G3 B5"), _cards("B6 B7"))
    # Seat 0 was given the very cards it held: unchanged, still exposed; seat 1's
    # and seat 2's hands changed: seat 1 no longer exposed, seat 2's call was
    # about the old hand.
    assert books(draft) == ((), (0,))
    draft.set_hands({0: _cards("R1 B5")})
    assert books(draft) == ((), ())
    with pytest.raises(ValueError, match="no seat 3 in a 3-seat game"):
        draft.set_hands({3: ()})


def test_draft_move_hands_moves_whole_hands_and_the_books_follow() -> None:
    state = _table(hands={0: "R1", 1: "G3 G4", 2: "B5 B6 B7"}, uno_declared=(1,), uno_exposed=(0,))
    draft = draft_of(state)
    draft.move_hands({0: 1, 1: 0})  # a trade
    assert draft.hands == (_cards("G3 G4"), _cards("R1"), _cards("B5 B6 B7"))
    assert books(draft) == ((), ())  # R-UNO-CALL, R-UNO-CATCH follow the cards
    draft.move_hands({0: 1, 1: 2, 2: 0})  # passing every hand on
    assert draft.hands == (_cards("B5 B6 B7"), _cards("G3 G4"), _cards("R1"))
    with pytest.raises(ValueError, match="does not permute its seats"):
        draft.move_hands({0: 1})
    draft.freeze().validate()


def test_draft_discard_under_by_the_acting_seat_down_to_one_card_exposes_it() -> None:
    state = _table(hands={0: "R1 R2 R3", 1: "G3 G4", 2: "B5 B6 B7"})
    draft = draft_of(state, Action.of(0, "play", _card("R1")))
    top, color = draft.top_card, draft.color
    draft.discard_under(0, _cards("R2 R3"))
    assert draft.hands[0] == _cards("R1")
    assert draft.discard_pile[-3:] == (*_cards("R2 R3"), top)  # under the top card
    assert (draft.top_card, draft.color) == (top, color)
    # R-UNO-CATCH: its own action left it one card, without a call.
    assert books(draft) == ((), (0,))
    # R-UNO-CALL: a call standing before the action was in time for the card
    # that left one; the discards use it up and open no catch (Draft.set_hands).
    called = draft_of(state.replace(uno_declared=(0,)), Action.of(0, "play", _card("R1")))
    called.discard_under(0, _cards("R2 R3"))
    assert books(called) == ((), ())


def test_draft_discard_under_by_another_seat_does_not_expose_it() -> None:
    state = _table(hands={0: "R1 R2", 1: "G3 G4", 2: "B5 B6 B7"}, uno_exposed=(1,))
    draft = draft_of(state, Action.of(0, "play", _card("R1")))
    draft.discard_under(1, _cards("G4"))
    assert draft.hands[1] == _cards("G3")
    assert books(draft) == ((), ())  # not seat 1's action; its old window closed with the hand
    draft.discard_under(2, ())
    assert draft.hands[2] == _cards("B5 B6 B7")


def test_draft_pass_turn_follows_the_direction_and_skips_seats_that_left() -> None:
    draft = draft_of(_table(phase=Phase("penalty", count=2)))
    draft.pass_turn()
    assert (draft.current_player, draft.phase) == (1, PLAY)
    draft.pass_turn(2)
    assert draft.current_player == 0
    draft.direction = -1
    draft.pass_turn(1, seat=0)
    assert draft.current_player == 2
    draft.leave([1])
    assert draft.left == (1,)
    draft.pass_turn(1, seat=2)
    assert draft.current_player == 0  # seat 1 left: skipped


def test_draft_pile_mechanics_move_cards_and_keep_the_generator() -> None:
    state = _table()
    draft = draft_of(state)
    taken = draft.take_from_draw_pile(2)
    assert taken == _cards("Y1 Y2")
    top = draft.take_from_discard_pile(1)
    assert top == state.discard_pile[-1:]
    draft.put_on_discard_pile(taken)
    assert draft.top_card == _card("Y2")
    assert draft.color == Color.YELLOW
    draft.shuffle_into_draw_pile(top)
    assert sorted(map(str, draft.draw_pile)) == sorted(map(str, state.draw_pile[2:] + top))
    assert draft.rng != state.rng
    with pytest.raises(ValueError, match="the draw pile holds"):
        draft.take_from_draw_pile(len(draft.draw_pile) + 1)
    with pytest.raises(ValueError, match="the discard pile holds"):
        draft.take_from_discard_pile(len(draft.discard_pile) + 1)
    draft.freeze().validate()  # every card still accounted for


def test_draft_uno_calls_and_exposure() -> None:
    draft = draft_of(_table(uno_exposed=(1, 2)))
    draft.call_uno(0)  # a call for the next card (R-UNO-CALL)
    draft.call_uno(2)  # seat 2 is open to a catch: a late call closes its window (R-UNO-SELF)
    assert books(draft) == ((0,), (1,))
    assert [(e.kind, e.seat, e.rule) for e in draft.events] == [
        ("uno", 0, "R-UNO-CALL"),
        ("uno", 2, "R-UNO-SELF"),
    ]
    draft.withdraw_uno([0])
    assert books(draft) == ((), (1,))
    draft.expose_uno([2])  # holds one card? _table's hands decide
    draft.end_exposure()
    assert books(draft)[1] == ()


def test_draft_extras_events_and_restore() -> None:
    state = _table()
    draft = draft_of(state)
    draft.set_extra("b.key", 2)
    draft.set_extra("a.key", (1, "x"))
    draft.set_extra("b.key", 3)
    assert extras(draft) == (("a.key", (1, "x")), ("b.key", 3))  # sorted by key
    draft.set_extra("a.key", None)
    assert extras(draft) == (("b.key", 3),)
    assert draft.extra("b.key") == 3
    event = Event("deal", 0)
    draft.add_event(event, event)
    assert draft.events == (event, event)
    draft.move_hands({0: 1, 1: 0})
    draft.restore(hands=state.hands, extras=())
    assert (draft.hands, extras(draft)) == (state.hands, ())
    assert tuple(e for e in draft.events if e.kind != "move") == (event, event)  # moves record what went back
    with pytest.raises(TypeError, match="'scores' is not a field of the table"):
        draft.restore(scores=(1, 2, 3))


def test_draft_end_round_scores_and_deals_the_next_round() -> None:
    state = _table(hands={0: "", 1: "G3 G4", 2: "B5 B6 B7"}, dealer=1)
    draft = draft_of(state, Action.of(0, "play", _card("R1")))
    draft.end_round(0, "out")
    after = draft.freeze()
    assert after.rounds[-1].winner == 0
    assert after.scores == (3 + 4 + 5 + 6 + 7, 0, 0)
    assert after.dealer == 2  # R-SETUP-DEAL: the next seat deals
    assert [len(h) for h in after.hands] == [7, 7, 7]
    assert [e.kind for e in after.events][:2] == ["round-end", "deal"]
    after.validate()


def test_only_five_fields_are_plain_decisions() -> None:
    assert frozenset({"color", "direction", "current_player", "phase", "stalled"}) == WRITABLE


class Misspells(Plugin):
    """Writes a field through a typo, or a field only mechanics change."""

    name = "misspells"
    api_version = 2
    requires = ("classic",)

    def __init__(self, name: str) -> None:
        self.field = name

    @hookimpl
    def after_action(self, draft: Draft, action: Action, before: GameState) -> None:
        setattr(draft, self.field, 0)


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("curent_player", r"'curent_player' cannot be assigned: it is not a field of the game"),
        ("nonsense", r"'nonsense' cannot be assigned: it is not a field of the game"),
        ("hands", r"'hands' cannot be assigned: it changes only through the draft's mechanics"),
        ("scores", r"'scores' cannot be assigned: it changes only through the draft's mechanics"),
    ],
)
def test_a_draft_refuses_a_field_it_cannot_freeze(field: str, message: str) -> None:
    """A hook's typo is an error at once, naming the field and the writable ones, and
    the state applied to is unchanged (it never becomes a field of the next state)."""
    rules = Ruleset.from_names(["classic"], plugins=[Misspells(field)])
    state = rules.new_game(players=3, seed=4)
    before = state.to_json()
    with pytest.raises(AttributeError, match=message) as caught:
        state.apply(state.legal_actions()[0])
    assert "color, current_player, direction, phase, stalled" in str(caught.value)
    assert state.to_json() == before
    draft = draft_of(state)
    draft.current_player = 1  # a writable field
    with pytest.raises(AttributeError, match="cannot be deleted"):
        del draft.current_player


def test_mypy_refuses_a_plugins_write_to_a_read_only_or_unknown_field(tmp_path: Path) -> None:
    from mypy import api

    source = tmp_path / "writes.py"
    source.write_text(
        "from unorules import Action, Draft\n"
        "def effect(draft: Draft, action: Action) -> None:\n"
        "    draft.current_player = 0\n"
        "    draft.curent_player = 0\n"
        "    draft.hands = ()\n"
    )
    out, _, status = api.run(["--strict", "--no-incremental", "--cache-dir=/dev/null", str(source)])
    assert status == 1
    assert 'writes.py:4: error: "Draft" has no attribute "curent_player"' in out
    assert 'writes.py:5: error: Property "hands" defined in "Position" is read-only' in out
    assert "writes.py:3" not in out


# -- a draft frozen into the next state --------------------------------------------------------


class KeepsDrafts(Plugin):
    """Keeps every draft it is handed, as a careless plugin might."""

    name = "keeps-drafts"
    api_version = 2
    requires = ("classic",)

    def __init__(self) -> None:
        self.kept: list[Any] = []

    @hookimpl
    def apply_action(self, draft: Draft) -> None:
        self.kept.append(draft)

    @hookimpl
    def after_action(self, draft: Draft) -> None:
        self.kept.append(draft)


def test_a_draft_kept_after_apply_is_the_next_state_frozen() -> None:
    plugin = KeepsDrafts()
    state = Ruleset.from_names(["classic"], plugins=[plugin]).new_game(players=3, seed=1)
    action = state.legal_actions()[0]
    after = state.apply(action)
    kept, again = plugin.kept
    assert kept is again is after  # one draft per action, and it is the next state
    assert type(kept) is GameState
    assert not isinstance(kept, Draft)
    first = cast(Any, kept)
    with pytest.raises(AttributeError):
        first.pass_turn()  # the mechanics are gone
    with pytest.raises(AttributeError):
        first.draw(0)
    with pytest.raises(AttributeError):
        first.set_extra("x", 1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        first.color = Color.BLUE
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        first.current_player = 2
    assert after.to_json() == GameState.from_json(after.to_json(), after.ruleset).to_json()
    assert after.legal_actions()  # a state like any other


# -- a hook that raises changes nothing --------------------------------------------------------


class Boom(Exception):
    pass


class Scribbles(Plugin):
    """In the hook named by ``where``, writes all over the draft, then raises."""

    name = "scribbles"
    api_version = 2
    requires = ("classic",)
    extras = (ExtraSpec("scribbles.mark", "written before raising"),)
    events = (EventSpec("scribbled", "written before raising"),)
    where: ClassVar[str | None] = None

    def _scribble(self, draft: Draft, hook: str) -> None:
        if self.where != hook or draft.before is None:
            return
        draft.set_extra("scribbles.mark", hook)
        draft.color = Color.BLUE
        draft.current_player = 2
        draft.phase = Phase("penalty", count=9)
        draft.stalled = 5
        draft.direction = -draft.direction
        draft.move_hands({0: 1, 1: 0})
        draft.shuffle_into_draw_pile(())  # the generator advances
        draft.call_uno(1)
        draft.add_event(Event("scribbled", 0))
        draft.leave([2])
        raise Boom(f"scribbled in {hook}")

    @hookimpl(tryfirst=True)
    def apply_action(self, draft: Draft) -> None:
        self._scribble(draft, "apply_action")

    @hookimpl(tryfirst=True)
    def on_play(self, draft: Draft) -> None:
        self._scribble(draft, "on_play")

    @hookimpl
    def on_draw(self, draft: Draft) -> None:
        self._scribble(draft, "on_draw")

    @hookimpl
    def after_action(self, draft: Draft) -> None:
        self._scribble(draft, "after_action")

    @hookimpl(tryfirst=True)
    def score_round(self, draft: Draft) -> None:
        self._scribble(draft, "score_round")

    @hookimpl
    def on_round_end(self, draft: Draft) -> None:
        self._scribble(draft, "on_round_end")

    @hookimpl(tryfirst=True)
    def game_outcome(self, draft: Draft) -> None:
        self._scribble(draft, "game_outcome")

    @hookimpl(tryfirst=True)
    def on_starter(self, draft: Draft) -> None:
        self._scribble(draft, "on_starter")


class OneCard(Plugin):
    name = "one-card-hands"
    api_version = 2
    requires = ("classic",)

    @hookimpl
    def hand_size(self) -> int:
        return 1


@pytest.mark.parametrize(
    ("hook", "verb"),
    [
        ("apply_action", "draw"),
        ("on_draw", "draw"),
        ("after_action", "draw"),
        ("on_play", "play"),
        ("score_round", "play"),
        ("on_round_end", "play"),
        ("game_outcome", "play"),
        ("on_starter", "play"),  # the next round's deal, inside the action that ended the round
    ],
)
def test_a_hook_that_raises_leaves_the_state_unchanged_and_is_named(
    hook: str, verb: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Ruleset.from_names(["classic"], plugins=[Scribbles(), OneCard()])
    # Seat 0 plays its only card (ending the round), or draws.
    deck = arrange_deck(["R1", "G2", "B3"], "R5", draw="Y7 Y8", dealer=2, hand_size=1)
    state = rules.new_game(players=3, deck=deck, dealer=2)
    action = Action.of(0, "play", _card("R1")) if verb == "play" else Action.of(0, "draw")
    expected = state.apply(action)  # nobody scribbles yet
    before = state.to_json()
    copy = GameState.from_json(before, rules)
    monkeypatch.setattr(Scribbles, "where", hook)
    with pytest.raises(Boom, match=f"scribbled in {hook}") as raised:
        state.apply(action)
    assert state.to_json() == before
    assert state == copy
    assert state.legal_actions() == copy.legal_actions()
    (note,) = raised.value.__notes__
    assert f"raised by plugin 'scribbles' in hook {hook!r} while applying {action}" in note
    monkeypatch.setattr(Scribbles, "where", None)
    assert state.apply(action) == expected  # and the state plays on as before

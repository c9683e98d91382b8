"""Every hook of ``unorules.hookspecs``, each shown by a tiny plugin in a game.

One test per hook, named ``test_hook_<hook>_...`` (``test_plugin_api_v2.py``
fails when a hook has none): the contract written in ``unorules/hookspecs.py``
is checked here directly, with plugin API version 2 (hooks that change a game
write the draft they are given; those that only read get a frozen state).
Every plugin here records that its hook was called, so that no test passes
without the hook at work.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import pytest

import unorules
from unorules import (
    Action,
    Card,
    Draft,
    Event,
    EventSpec,
    ExtraSpec,
    GameState,
    GoingOut,
    IllegalActionError,
    Outcome,
    Plugin,
    Position,
    Rng,
    RoundResult,
    Ruleset,
    RulesetError,
    StateFormatError,
    hookimpl,
)
from unorules.testing import arrange_deck

unorules.register_verb("contract_knock", doc="a test plugin's verb: knock on the table, pass the turn")

R0, R1, R7 = Card.parse("R0"), Card.parse("R1"), Card.parse("R7")


class V2(Plugin):
    """The base of this module's plugins: version 2, on classic, logging its hooks' calls."""

    name = "v2-base"
    api_version = 2
    requires = ("classic",)

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []


class OneCardHands(V2):
    """Deals one card each (hand_size), so a round ends with a single play."""

    name = "one-card"

    @hookimpl
    def hand_size(self, ruleset: Ruleset) -> int:
        self.calls.append(("hand_size", ruleset))
        return 1


class TwoCardHands(V2):
    name = "two-card"

    @hookimpl
    def hand_size(self) -> int:
        return 2


def _two_card_game(*plugins: object, hands: list[str], starter: str, draw: str = "") -> GameState:
    """A 3-seat game of two-card hands dealt by seat 2, so that seat 0 plays first."""
    rules = Ruleset.from_names(["classic"], plugins=[TwoCardHands(), *plugins])
    return rules.new_game(players=3, deck=arrange_deck(hands, starter, draw, dealer=2, hand_size=2), dealer=2)


def _one_play_round(*plugins: object, options: dict[str, object] | None = None) -> GameState:
    """A 3-seat game whose first round ends when seat 0 plays R5 on R1."""
    rules = Ruleset.from_names(["classic"], options=options, plugins=[OneCardHands(), *plugins])
    deck = arrange_deck(["R5", "G7", "B9"], "R1", dealer=2, hand_size=1)
    state = rules.new_game(players=3, deck=deck, dealer=2)
    return state.apply("0: play R5")


# -- building a rule set -----------------------------------------------------------------------


def test_hook_deck_cards_adds_cards_to_the_deck() -> None:
    class ExtraWilds(V2):
        name = "extra-wilds"

        @hookimpl
        def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
            self.calls.append(("deck_cards",))
            return [Card.parse("W")] * 2

    plain = Ruleset.from_names(["classic"])
    plugin = ExtraWilds()
    more = Ruleset.from_names(["classic"], plugins=[plugin])
    assert plugin.calls == [("deck_cards",)]  # once, when the rule set is built
    assert len(more.deck) == len(plain.deck) + 2
    assert more.deck.count(Card.parse("W")) == plain.deck.count(Card.parse("W")) + 2
    assert more.deck[: len(plain.deck)] == plain.deck  # in registration order: classic's first
    more.new_game(players=2, seed=1)
    assert plugin.calls == [("deck_cards",)]


def test_hook_card_points_prices_every_card_of_the_deck_once() -> None:
    class DearZeros(V2):
        name = "dear-zeros"

        @hookimpl
        def card_points(self, card: Card) -> int | None:
            self.calls.append((card,))
            return 100 if card.kind == "0" else None  # the others: classic's

    plugin = DearZeros()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    assert sorted(plugin.calls, key=str) == sorted(((c,) for c in set(rules.deck)), key=str)
    assert rules.card_points(R0) == 100
    assert rules.card_points(R7) == 7
    assert rules.hand_points([R0, R7]) == 107
    swap_hands = next(c for c in Ruleset.from_names(["classic", "swap-hands"]).deck if c not in rules.deck)
    with pytest.raises(ValueError, match="not in this rule set's deck"):
        rules.card_points(swap_hands)

    class Unpriced(Plugin):
        name = "unpriced"
        api_version = 2

        @hookimpl
        def deck_cards(self) -> Iterable[Card]:
            return [R1]

    with pytest.raises(RulesetError, match="no plugin says how many points R1 is worth"):
        Ruleset.from_names([], plugins=[Unpriced()])


def test_hook_card_needs_target_makes_a_card_name_a_seat() -> None:
    class AimedSevens(V2):
        name = "aimed-sevens"

        @hookimpl
        def card_needs_target(self, card: Card) -> bool | None:
            self.calls.append((card,))
            return True if card.kind == "7" else None

    plugin = AimedSevens()
    state = _two_card_game(plugin, hands=["R7 R1", "G2 G3", "B4 B5"], starter="R9")
    rules = state.ruleset
    assert plugin.calls
    assert rules.needs_target(R7)
    assert not rules.needs_target(R1)
    plays = [a for a in state.legal_actions() if a.verb == "play"]
    assert {(a.card, a.target) for a in plays} == {(R7, 1), (R7, 2), (R1, None)}


def test_hook_card_names_color_lets_a_wild_be_played_without_a_colour() -> None:
    class LateWilds(V2):
        """Plain wilds name no colour when played (someone names it later)."""

        name = "late-wilds"

        @hookimpl
        def card_names_color(self, ruleset: Ruleset, card: Card) -> bool | None:
            self.calls.append((ruleset, card))
            return False if card.kind == "W" else None

    wild, wild_four = Card.parse("W"), Card.parse("W+4")
    plugin = LateWilds()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    # Asked once per distinct wild of the deck, when the rule set is built.
    assert sorted(str(card) for _, card in plugin.calls) == ["W", "W+4"]
    assert all(asked is rules for asked, _ in plugin.calls)
    assert not rules.names_color(wild)
    assert rules.names_color(wild_four)  # None: the default, a wild names its colour
    assert not rules.names_color(R1)  # never asked of a coloured card
    assert [a.color for a in rules.play_actions(0, wild, 3)] == [None]
    assert len(rules.play_actions(0, wild_four, 3)) == 4
    plain = Ruleset.from_names(["classic"])
    assert plain.names_color(wild)
    assert len(plain.play_actions(0, wild, 3)) == 4


def test_hook_hand_size_sets_the_cards_dealt() -> None:
    plugin = OneCardHands()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    state = rules.new_game(players=4, seed=1)
    assert plugin.calls == [("hand_size", rules)]
    assert rules.hand_size == 1
    assert [len(h) for h in state.hands] == [1, 1, 1, 1]
    assert Ruleset.from_names(["classic"]).hand_size == 7


def test_hook_check_ruleset_refuses_a_combination_when_the_rule_set_is_built() -> None:
    class NeedsChallenge(V2):
        name = "needs-challenge"

        @hookimpl
        def check_ruleset(self, ruleset: Ruleset) -> None:
            self.calls.append((ruleset.options["challenge"],))
            if not ruleset.options["challenge"]:
                raise RulesetError("needs-challenge cannot work with challenge=off")

    plugin = NeedsChallenge()
    Ruleset.from_names(["classic"], plugins=[plugin])
    with pytest.raises(RulesetError, match="challenge=off"):
        Ruleset.from_names(["classic"], options={"challenge": "off"}, plugins=[plugin])
    assert plugin.calls == [(True,), (False,)]


def test_hook_check_game_refuses_a_player_count_when_a_game_is_created() -> None:
    class ThreeOrMore(V2):
        name = "three-or-more"

        @hookimpl
        def check_game(self, ruleset: Ruleset, players: int) -> None:
            self.calls.append((players,))
            if players < 3:
                raise RulesetError(f"three-or-more needs 3 players or more, not {players}")

    plugin = ThreeOrMore()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    assert rules.new_game(players=3, seed=1).players == 3
    with pytest.raises(RulesetError, match="not 2"):
        rules.new_game(players=2, seed=1)
    assert plugin.calls == [(3,), (2,)]


def test_hook_teams_groups_the_seats() -> None:
    class Neighbours(V2):
        name = "neighbours"

        @hookimpl
        def teams(self, players: int) -> Sequence[Sequence[int]] | None:
            self.calls.append((players,))
            if players % 2:
                return None
            return [[seat, seat + 1] for seat in range(0, players, 2)]

    plugin = Neighbours()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    assert rules.teams(4) == ((0, 1), (2, 3))
    assert rules.teams(3) == ((0,), (1,), (2,))  # None: every seat alone
    assert plugin.calls == [(4,), (3,)]
    assert Ruleset.from_names(["classic", "partners"]).teams(4) == ((0, 2), (1, 3))


class Counter(V2):
    """Keeps a count of the actions in an extra (after_action), checked by check_state."""

    name = "counter"
    extras = (ExtraSpec("counter.actions", "actions so far", public=True),)

    @hookimpl
    def after_action(self, draft: Draft, action: Action, before: GameState) -> None:
        self.calls.append(("after_action", draft.before, action, before))
        draft.set_extra("counter.actions", (before.extra("counter.actions") or 0) + 1)

    @hookimpl
    def check_state(self, state: GameState) -> None:
        self.calls.append(("check_state", state))
        count = state.extra("counter.actions")
        if count is not None and (not isinstance(count, int) or count < 1):
            raise StateFormatError(f"extras.counter.actions: a count of actions, not {count!r}", "extras")


def test_hook_check_state_refuses_a_state_whose_plugin_data_makes_no_sense() -> None:
    plugin = Counter()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    state = rules.new_game(players=2, seed=3)
    state = state.apply(state.legal_actions()[0])
    assert GameState.from_json(state.to_json(), rules) == state
    assert plugin.calls[-1] == ("check_state", GameState.from_json(state.to_json(), rules))
    bad = state.replace(extras=(("counter.actions", -4),))
    with pytest.raises(StateFormatError, match="a count of actions, not -4") as raised:
        GameState.from_json(bad.to_json(), rules)
    assert raised.value.field == "extras"
    with pytest.raises(StateFormatError, match="not -4"):
        bad.validate()


class SetsAside(V2):
    """Keeps the card under the starter out of play for the round (in an extra)."""

    name = "sets-aside"
    extras = (ExtraSpec("sets-aside.card", "the card kept out of play"),)

    @hookimpl
    def on_starter(self, draft: Draft) -> None:
        (card,) = draft.take_from_draw_pile(1)
        draft.set_extra("sets-aside.card", card)
        return None  # classic still turns the starter up

    @hookimpl
    def set_aside_cards(self, state: GameState) -> Iterable[Card]:
        self.calls.append(("set_aside_cards", state))
        card = state.extra("sets-aside.card")
        return () if card is None else (card,)


def test_hook_set_aside_cards_accounts_for_the_cards_kept_out_of_play() -> None:
    plugin = SetsAside()
    state = _two_card_game(plugin, hands=["R1 R4", "R2 R5", "R3 R6"], starter="G5", draw="B7 B8")
    rules = state.ruleset
    assert state.extra("sets-aside.card") == Card.parse("B7")
    assert state.draw_pile[0] == Card.parse("B8")
    assert rules.set_aside_cards(state) == (Card.parse("B7"),)
    assert ("set_aside_cards", state) in plugin.calls
    state.validate()  # every card accounted for, B7 set aside
    assert GameState.from_json(state.to_json(), rules) == state
    # Without the hook the same cards do not add up.
    forgetful = type("Forgetful", (V2,), {"name": "forgetful", "extras": SetsAside.extras})()
    plain = Ruleset.from_names(["classic"], plugins=[forgetful, TwoCardHands()])
    with pytest.raises(StateFormatError, match="B7 missing"):
        state.replace(ruleset=plain).validate()


# -- dealing -----------------------------------------------------------------------------------


def test_hook_choose_dealer_picks_the_first_dealer_with_the_games_generator() -> None:
    class LastSeatDeals(V2):
        name = "last-seat-deals"

        @hookimpl
        def choose_dealer(self, ruleset: Ruleset, players: int, rng: Rng) -> int:
            self.calls.append((players, rng.randbelow(1000)))
            return players - 1

    plugin = LastSeatDeals()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    state = rules.new_game(players=4, seed=11)
    assert state.dealer == 3
    assert plugin.calls[0][0] == 4
    again = rules.new_game(players=4, seed=11)
    assert again == state  # the draw from rng is part of the seeded game
    assert plugin.calls[1] == plugin.calls[0]
    assert rules.new_game(players=4, seed=11, dealer=1).dealer == 1  # a dealer given: no hook
    assert len(plugin.calls) == 2


def test_hook_on_starter_applies_the_starters_effect_in_place_of_classics() -> None:
    class SkipStarterIsPlain(V2):
        name = "skip-starter-is-plain"

        @hookimpl
        def on_starter(self, draft: Draft) -> bool | None:
            self.calls.append((draft.top_card, draft.current_player, draft.color))
            return True if draft.top_card.kind == "S" else None

    hands = ["R1 R2", "G2 G3", "B3 B4"]
    plugin = SkipStarterIsPlain()
    state = _two_card_game(plugin, hands=hands, starter="YS")
    classic = _two_card_game(hands=hands, starter="YS")
    assert plugin.calls == [(Card.parse("YS"), 0, unorules.Color.YELLOW)]
    assert classic.current_player == 1  # R-SETUP-STARTER: the seat after the dealer is skipped
    assert state.current_player == 0  # the plugin said it was done: no skip
    assert state.color == unorules.Color.YELLOW
    assert _two_card_game(SkipStarterIsPlain(), hands=hands, starter="Y4").current_player == 0


# -- taking actions ----------------------------------------------------------------------------


class Knocks(V2):
    """Lets the seat to move knock (pass the turn) in the ordinary phase, explains refusals."""

    name = "knocks"
    verbs: ClassVar[Mapping[str, str]] = {"contract_knock": "turn"}
    events = (EventSpec("knock", "a seat knocked", (("seat", "who knocked"),)),)

    @hookimpl
    def legal_actions(self, state: GameState) -> list[Action]:
        self.calls.append(("legal_actions", state))
        if state.phase.name != "play":
            return []
        return [Action.of(state.current_player, "contract_knock")]

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        self.calls.append(("apply_action", action))
        if action.verb != "contract_knock":
            return None
        draft.add_event(Event("knock", action.seat, (), None, "knocked"))
        draft.pass_turn(1, action.seat)
        return True

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        self.calls.append(("explain_illegal", action))
        if action.verb == "contract_knock":
            return ("H-KNOCK", f"only seat {state.current_player} may knock now")
        return None


def test_hook_legal_actions_adds_actions_in_calling_order() -> None:
    plugin = Knocks()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    state = rules.new_game(players=3, seed=5)
    classic = Ruleset.from_names(["classic"]).new_game(players=3, seed=5)
    knock = Action.of(state.current_player, "contract_knock")
    # Registered after classic, the plugin is asked first: its actions come first.
    assert state.legal_actions() == (knock, *classic.legal_actions())
    assert plugin.calls == [("legal_actions", state)]
    state.legal_actions()
    assert len(plugin.calls) == 1  # listed once per state


def test_hook_apply_action_carries_out_the_plugins_verb() -> None:
    plugin = Knocks()
    state = Ruleset.from_names(["classic"], plugins=[plugin]).new_game(players=3, seed=5)
    seat = state.current_player
    after = state.apply(f"{seat}: contract_knock")
    assert [e.kind for e in after.events] == ["knock"]
    assert after.current_player == state.next_seat(seat)
    assert (after.hands, after.draw_pile, after.discard_pile) == (
        state.hands,
        state.draw_pile,
        state.discard_pile,
    )
    play = next(a for a in after.legal_actions() if a.verb in ("play", "draw"))
    after.apply(play)  # another verb: the plugin steps aside (None), classic carries it out
    assert [c for c in plugin.calls if c[0] == "apply_action"] == [
        ("apply_action", Action.of(seat, "contract_knock")),
        ("apply_action", play),
    ]


def test_hook_explain_illegal_names_the_rule_of_a_refusal() -> None:
    plugin = Knocks()
    state = Ruleset.from_names(["classic"], plugins=[plugin]).new_game(players=3, seed=5)
    other = state.next_seat()
    with pytest.raises(
        IllegalActionError, match=rf"only seat {state.current_player} may knock now \(H-KNOCK\)"
    ) as e:
        state.apply(f"{other}: contract_knock")
    assert e.value.rule == "H-KNOCK"
    assert ("explain_illegal", Action.of(other, "contract_knock")) in plugin.calls
    with pytest.raises(IllegalActionError) as classic_refusal:
        state.apply(f"{other}: draw")
    assert classic_refusal.value.rule != "H-KNOCK"  # the plugin said None: classic explained


# -- the questions every rule shares --------------------------------------------------------


def test_hook_uno_call_rule_says_when_seats_call_for_every_plugin() -> None:
    class OnlyLate(V2):
        name = "only-late"

        @hookimpl
        def uno_call_rule(self, ruleset: Ruleset) -> str:
            self.calls.append(("uno_call_rule", ruleset))
            return "one-card"

    plugin = OnlyLate()
    hands = ["R0 R1", "G2 G3", "B4 B5"]
    state = _two_card_game(plugin, hands=hands, starter="R9")
    assert state.ruleset.uno_call == "one-card"
    assert len(plugin.calls) == 1
    assert "0: uno" not in map(str, state.legal_actions())  # no call before the next-to-last card
    after = state.apply("0: play R0")
    assert {"0: uno", "1: catch 0", "2: catch 0"} <= set(map(str, after.legal_actions()))
    assert "0: uno" in map(str, _two_card_game(hands=hands, starter="R9").legal_actions())

    class Wrong(V2):
        name = "wrong"

        @hookimpl
        def uno_call_rule(self) -> str:
            return "loudly"

    with pytest.raises(RulesetError, match="uno_call_rule hook answered 'loudly'"):
        Ruleset.from_names(["classic"], plugins=[Wrong()])


def test_hook_card_matches_decides_a_card_of_its_own_kind() -> None:
    class SevensOnAnything(V2):
        name = "sevens"

        @hookimpl
        def card_matches(self, state: Position, seat: int, card: Card) -> bool | None:
            self.calls.append((seat, card))
            return True if card.kind == "7" else None

    plugin = SevensOnAnything()
    state = _two_card_game(plugin, hands=["G7 B4", "G2 G3", "B5 B6"], starter="R9")
    assert "0: play G7" in map(str, state.legal_actions())  # matches neither colour nor number
    assert state.matches(0, Card.parse("G7"))
    assert not state.matches(0, Card.parse("B4"))
    assert (0, Card.parse("G7")) in plugin.calls
    plain = _two_card_game(hands=["G7 B4", "G2 G3", "B5 B6"], starter="R9")
    assert not plain.matches(0, Card.parse("G7"))


def test_hook_play_forbidden_keeps_a_card_from_every_play() -> None:
    class NoZeros(V2):
        name = "no-zeros"

        @hookimpl
        def play_forbidden(self, state: Position, seat: int, card: Card) -> str | None:
            self.calls.append((seat, card))
            return "X-NO-ZERO" if card.kind == "0" else None

        @hookimpl
        def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
            if action.card is not None and state.forbidden(action.seat, action.card):
                return "X-NO-ZERO", "zeros may not be played"
            return None

    plugin = NoZeros()
    state = _two_card_game(plugin, hands=["R0 R1", "G2 G3", "B4 B5"], starter="R9")
    legal = set(map(str, state.legal_actions()))
    assert "0: play R1" in legal
    assert "0: play R0" not in legal
    assert state.forbidden(0, R0) == "X-NO-ZERO"
    assert not state.may_play(0, R0)
    assert state.may_play(0, R1)
    with pytest.raises(IllegalActionError, match="X-NO-ZERO"):
        state.apply("0: play R0")
    assert plugin.calls
    assert _two_card_game(hands=["R0 R1", "G2 G3", "B4 B5"], starter="R9").forbidden(0, R0) is None


def test_hook_refuse_turn_draw_takes_the_draw_away_and_a_seat_that_cannot_play_passes() -> None:
    class NoDrawing(V2):
        name = "no-drawing"

        @hookimpl
        def refuse_turn_draw(self, state: Position, seat: int, playable: bool) -> str | None:
            self.calls.append((seat, playable))
            return "X-NO-DRAW"

    plugin = NoDrawing()
    can = _two_card_game(plugin, hands=["R0 R1", "G2 G3", "B4 B5"], starter="R9")
    assert "0: draw" not in map(str, can.legal_actions())
    assert (0, True) in plugin.calls
    assert can.turn_draw_refused(0, True) == "X-NO-DRAW"
    cannot = _two_card_game(plugin, hands=["G0 G1", "G2 G3", "B4 B5"], starter="R9")
    assert cannot.legal_actions(0) == (Action.of(0, "pass"), Action.of(0, "uno"))
    assert cannot.apply("0: pass").current_player == 1


def test_hook_going_out_decides_what_an_emptied_hand_means_once() -> None:
    class PlaysOn(V2):
        """The first seat out leaves; its card still acts (as last-loses does)."""

        name = "plays-on"

        @hookimpl
        def going_out(self, draft: Draft, seat: int) -> GoingOut | None:
            self.calls.append(("going_out", seat, draft.top_card))
            if draft.left:
                return None  # the core's answer: the round ends, the seat wins it
            draft.leave((seat,))
            return GoingOut(ends=False)

        @hookimpl
        def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
            self.calls.append(("on_play", draft.going_out(action.seat)))
            return None

    plugin = PlaysOn()
    state = _two_card_game(plugin, hands=["R1 RS", "G2 R3", "R4 B5"], starter="R9")
    state = state.apply("0: play R1").apply("1: play R3").apply("2: play R4")
    out = state.apply("0: play RS")  # seat 0's last card: it leaves, the Skip still skips seat 1
    assert out.left == (0,)
    assert out.round_number == 1
    assert out.current_player == 2
    assert plugin.calls[-2:] == [("going_out", 0, Card.parse("RS")), ("on_play", GoingOut(ends=False))]
    assert out.rounds == ()

    plain = _two_card_game(hands=["R1 RS", "G2 R3", "R4 B5"], starter="R9")
    won = plain.apply("0: play R1").apply("1: play R3").apply("2: play R4").apply("0: play RS")
    assert won.rounds[-1].winner == 0
    assert won.rounds[-1].reason == "out"


def test_hook_blocked_round_names_the_winner_of_a_blocked_round() -> None:
    class NobodyWins(V2):
        name = "nobody-wins"

        @hookimpl
        def blocked_round(self, draft: Draft) -> GoingOut | None:
            self.calls.append(("blocked_round", draft.stalled))
            return GoingOut(ends=True, winner=None)

    def blocked(*plugins: object) -> GameState:
        rules = Ruleset.from_names(["classic"], plugins=[TwoCardHands(), *plugins])
        deck = arrange_deck(["G0 G1", "G2 G3", "B4 B5"], "R9", "", dealer=2, hand_size=2)
        state = rules.new_game(players=3, deck=deck, dealer=2)
        state = state.replace(draw_pile=())  # both piles exhausted: nobody can draw
        for _ in range(3):
            state = state.apply(f"{state.current_player}: draw")
        return state

    plugin = NobodyWins()
    assert blocked(plugin).rounds[-1].winner is None
    assert plugin.calls == [("blocked_round", 3)]
    assert blocked().rounds[-1].winner == 0  # the core's answer: the fewest points (G0 G1: 1)


def test_hook_on_play_applies_a_cards_effect_in_place_of_classics() -> None:
    class ZeroSkips(V2):
        name = "zero-skips"

        @hookimpl
        def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
            self.calls.append((action, draft.top_card, previous is draft.before, draft.hands[action.seat]))
            if action.card is None or action.card.kind != "0" or not draft.hands[action.seat]:
                return None
            draft.pass_turn(2, action.seat)
            return True

    plugin = ZeroSkips()
    hands = ["R0 R1", "G2 G3", "B4 B5"]
    state = _two_card_game(plugin, hands=hands, starter="R9")
    after = state.apply("0: play R0")
    assert plugin.calls == [(Action.of(0, "play", R0), R0, True, (R1,))]  # the card already on the pile
    assert after.current_player == 2  # seat 1 skipped
    assert _two_card_game(hands=hands, starter="R9").apply("0: play R0").current_player == 1


def test_hook_on_draw_sees_every_draw_with_its_reason() -> None:
    class Watches(V2):
        name = "watches-draws"

        @hookimpl
        def on_draw(self, draft: Draft, seat: int, cards: tuple[Card, ...], reason: str) -> None:
            self.calls.append((seat, cards, reason, draft.hands[seat][-len(cards) :]))

    plugin = Watches()
    state = _two_card_game(plugin, hands=["R2 R3", "G+2 G4", "B5 B6"], starter="G9", draw="Y1 Y2 Y3")
    state = state.apply("0: draw")  # R-TURN-DRAW: Y1, not playable
    assert plugin.calls == [(0, (Card.parse("Y1"),), "turn", (Card.parse("Y1"),))]  # already in the hand
    state = state.apply("1: play G+2")
    state = state.apply("2: draw")  # the penalty: Y2 Y3
    assert plugin.calls[-1] == (
        2,
        (Card.parse("Y2"), Card.parse("Y3")),
        "penalty",
        (Card.parse("Y2"), Card.parse("Y3")),
    )
    assert len(plugin.calls) == 2


def test_hook_after_action_sees_every_action_with_the_state_before() -> None:
    plugin = Counter()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    state = rules.new_game(players=2, seed=8)
    assert state.extra("counter.actions") is None  # not called while dealing
    for n in range(1, 6):
        action = state.legal_actions()[0]
        after = state.apply(action)
        kind, draft_before, seen, before = plugin.calls[-1]
        assert (kind, seen) == ("after_action", action)
        assert before is state
        assert draft_before is state
        assert after.extra("counter.actions") == n
        state = after


def test_hook_visible_hands_shows_other_seats_hands_in_views() -> None:
    class ShowsNext(V2):
        name = "shows-next"

        @hookimpl
        def visible_hands(self, state: GameState, seat: int) -> Iterable[int]:
            self.calls.append((seat,))
            return [state.next_seat(seat), seat]  # its own hand: always shown anyway

    plugin = ShowsNext()
    state = Ruleset.from_names(["classic"], plugins=[plugin]).new_game(players=3, seed=2)
    view = state.view(0)
    assert set(view.visible_hands) == {0, 1}
    assert view.visible_hands[1] == state.hands[1]
    assert plugin.calls == [(0,)]
    assert state.ruleset.visible_hands(state, 2) == frozenset({0})
    assert set(Ruleset.from_names(["classic"]).new_game(players=3, seed=2).view(0).visible_hands) == {0}
    assert state.public_view().visible_hands == {}


def test_hook_display_names_cards_sides_and_phases_for_people() -> None:
    from unorules.display import CardLook, Display, display_of

    class Looks(V2):
        """Renames the Wild, names two sides and the play phase (a look changes no game)."""

        name = "looks"

        @hookimpl
        def display(self, ruleset: Ruleset) -> Display:
            self.calls.append((ruleset,))
            return Display(
                cards=(CardLook("W", name="Rainbow", icon="*"),),
                sides=("up", "down"),
                phases={"play": "thinking"},
            )

    plugin = Looks()
    rules = Ruleset.from_names(["classic"], plugins=[plugin])
    shown = display_of(rules)
    assert display_of(rules) is shown
    assert plugin.calls == [(rules,)]  # once per rule set
    assert shown.card_name(Card.parse("W")) == "Rainbow"
    assert shown.look(Card.parse("W")).icon == "*"
    assert shown.look(Card.parse("W+4")).name == "Wild Draw Four"  # the core's look, kept
    assert (shown.side_name(1), shown.phase_words("play")) == ("down side", "thinking")
    state = rules.new_game(players=2, seed=1)
    assert state == Ruleset.from_names(["classic"]).new_game(players=2, seed=1).replace(ruleset=rules)


def test_hook_visible_backs_shows_the_backs_of_two_faced_hands() -> None:
    class OwnBacks(V2):
        """Lets each seat (and a spectator, seat 0's) see its own backs, on top of flip's."""

        name = "own-backs"
        requires = ("flip",)

        @hookimpl
        def visible_backs(self, state: GameState, seat: int | None) -> Iterable[int]:
            self.calls.append((seat,))
            return [0 if seat is None else seat]

    plugin = OwnBacks()
    state = Ruleset.from_names(["flip"], plugins=[plugin]).new_game(players=3, seed=4)
    view = state.view(0)
    # Flip shows the others' backs; this plugin adds the seat's own (the results are merged).
    assert set(view.backs) == {0, 1, 2}
    assert view.backs[0] == tuple(card.faces[1] for card in state.hands[0])
    assert plugin.calls == [(0,)]
    assert set(state.public_view().backs) == {0}
    assert plugin.calls[-1] == (None,)
    assert state.ruleset.visible_backs(state, 1) == frozenset({0, 1, 2})
    # Flip alone: a seat sees the others' backs, not its own; a spectator none.
    alone = Ruleset.from_names(["flip"]).new_game(players=3, seed=4)
    assert set(alone.view(0).backs) == {1, 2}
    assert alone.public_view().backs == {}
    assert Ruleset.from_names(["classic"]).new_game(players=3, seed=4).view(0).backs == {}


# -- ending rounds and games -------------------------------------------------------------------


def test_hook_score_round_gives_the_points_of_the_round() -> None:
    class TenForTheWinner(V2):
        name = "ten-for-the-winner"

        @hookimpl
        def score_round(self, draft: Draft, result: RoundResult) -> Sequence[int]:
            self.calls.append((result, draft.scores))
            return [10 if seat == result.winner else 0 for seat in range(draft.players)]

    plugin = TenForTheWinner()
    after = _one_play_round(plugin)
    ((result, scores),) = plugin.calls
    assert (result.number, result.winner, result.reason, result.points) == (1, 0, "out", (0, 0, 0))
    assert scores == (0, 0, 0)  # not scored yet
    assert after.rounds[0].winner == 0
    assert after.rounds[0].points == (10, 0, 0)
    assert after.scores == (10, 0, 0)
    classic = _one_play_round()
    assert classic.rounds[0].points == (7 + 9, 0, 0)  # R-SCORE: the others' hands


def test_hook_on_round_end_adjusts_the_game_after_scoring() -> None:
    class Recorder(V2):
        name = "recorder"
        extras = (ExtraSpec("recorder.rounds", "the last round recorded"),)

        @hookimpl
        def on_round_end(self, draft: Draft, result: RoundResult) -> None:
            self.calls.append((result.number, draft.scores, draft.rounds[-1] == result))
            draft.set_extra("recorder.rounds", result.number)

    plugin = Recorder()
    after = _one_play_round(plugin)
    assert plugin.calls == [(1, (16, 0, 0), True)]  # scores already include the round
    assert after.extra("recorder.rounds") == 1  # kept into the next round's deal
    assert after.round_number == 2


def test_hook_game_outcome_ends_the_game() -> None:
    class OneRoundGame(V2):
        name = "one-round"

        @hookimpl
        def game_outcome(self, draft: Draft) -> Outcome | None:
            self.calls.append((len(draft.rounds),))
            last = draft.rounds[-1]
            return None if last.winner is None else Outcome((last.winner,), "one round")

    plugin = OneRoundGame()
    after = _one_play_round(plugin)
    assert plugin.calls == [(1,)]
    assert after.is_over
    assert after.outcome == Outcome((0,), "one round")
    assert after.legal_actions() == ()
    assert not _one_play_round().is_over  # classic plays on to target_score
    assert isinstance(unorules.Outcome((1,), "x").winner, int)


class _Private(Plugin):
    """Keeps one private ``extras`` key (``KEY``), counted up by every action, and
    refills it in sampled states through ``resample_extras`` (a test plugin)."""

    api_version = 2

    def __init__(self, name: str, start: int) -> None:
        self.name = name
        self.key = f"{name}.n"
        self.extras = (unorules.ExtraSpec(self.key, "private: the actions played"),)
        self.start = start

    @hookimpl
    def after_action(
        self, draft: unorules.Draft, action: unorules.Action, before: unorules.GameState
    ) -> None:
        draft.set_extra(self.key, (before.extra(self.key) or 0) + 1)

    @hookimpl
    def resample_extras(
        self, state: unorules.GameState, view: unorules.SeatView, rng: unorules.Rng
    ) -> Iterable[tuple[str, Any]]:
        return ((self.key, self.start + rng.randbelow(10)),)


class _Requires(Plugin):
    """Says that ``seat`` holds a card passing ``test`` (a test plugin of ``hidden_requirements``)."""

    api_version = 2

    def __init__(self, name: str, seat: int, test: Any) -> None:
        self.name = name
        self.seat = seat
        self.test = test

    @hookimpl
    def hidden_requirements(self, view: unorules.SeatView) -> Iterable[tuple[int, Any]]:
        return [(self.seat, self.test)]


def test_hook_hidden_requirements_are_all_met_in_every_sampled_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hidden_requirements``: every plugin's pairs are met by the state
    ``determinize`` samples (a card traded into the hand named, at the first
    sample: no retries), which still shows the seat exactly its view; a pair
    naming the seat itself is already met by its own hand."""
    import random

    import unorules.knowledge
    from unorules.knowledge import determinize

    monkeypatch.setattr(unorules.knowledge, "RETRIES", 0)

    def wild(card: Card) -> bool:
        return card.kind == "W"

    def nine(card: Card) -> bool:
        return card.number == 9

    def blue_zero(card: Card) -> bool:
        return str(card) == "B0"

    plugins = [_Requires("needs-a-wild", 1, wild), _Requires("needs-a-nine", 2, nine)]
    rules = Ruleset.from_names(["classic"], plugins=[*plugins, _Requires("mine", 0, blue_zero)])
    state = rules.new_game(players=3, seed=4)
    view = state.view(0)
    assert not any(map(nine, state.hands[2]))  # the true state: seat 2's 9 is traded in
    for i in range(40):
        world = determinize(view, None, random.Random(i))
        assert world.view(0) == view
        assert any(map(wild, world.hands[1]))
        assert any(map(nine, world.hands[2]))
        assert world.hands[0] == state.hands[0]  # its own hand: nothing traded in


def test_hook_resample_extras_results_are_merged_into_the_sampled_state() -> None:
    """``resample_extras``: every plugin's pairs are merged into the state
    ``determinize`` samples, which shows the seat exactly its view and never
    copies private data from the true state."""
    import random

    from unorules.knowledge import determinize

    rules = Ruleset.from_names(["classic"], plugins=[_Private("p1", 1000), _Private("p2", 2000)])
    state = rules.new_game(players=3, seed=4)
    for _ in range(4):
        state = state.apply(state.legal_actions()[0])
    assert (state.extra("p1.n"), state.extra("p2.n")) == (4, 4)
    view = state.view(0)
    world = determinize(view, None, random.Random(7))
    assert world.view(0) == view
    assert world.extra("p1.n") in range(1000, 1010)
    assert world.extra("p2.n") in range(2000, 2010)

"""Scenarios in a few lines: a position arranged as a person would say it, and what must follow.

A scenario test says where the game is ("seat 0 holds a red Discard All, two
red 1s and a blue 2; a red 5 is on top; seat 0 to move"), what is done
("seat 0 plays the Discard All") and what must follow ("seat 0 holds the
blue 2, the red 1s lie under the Discard All, seat 1 is to move")::

    Scenario(rules, hands={0: "RDA R1 R1 B2"}, top="R5").then("0: play RDA").expect(
        hands={0: "B2"}, top="RDA", under="R1 R1", to_move=1, events=["discard-all"]
    )

:class:`Scenario` deals a game of the rule set and rearranges it: the named
hands hold exactly the cards named (other seats keep the cards they were
dealt: no filler to count), the named cards are taken from wherever the deal
put them, so every card stays accounted for. A two-faced deck's cards
(FLIP!) are named by the face showing on the ``side`` in play (``"R1"``
takes a card whose light face is a red 1) or by both faces (``"R1/P3"``).

:meth:`Scenario.then` applies actions (refusing one that is not legal, with
what is), :meth:`Scenario.expect` checks what follows and raises
:class:`ScenarioFailure` (an ``AssertionError``) naming each difference:
the cards missing or added, the field that differs.

A plugin lists its scenario functions (each taking the rule set) in
:attr:`TestHints.scenarios <unorules.TestHints.scenarios>`; the conformance
runner (``unorules check``, ``pytest --unorules-conformance``) runs them
with the plugin alone and next to every other installed plugin it combines
with (:func:`run_scenarios`). A scenario whose position cannot be arranged
in a rule set (a card another plugin leaves out of the deck) raises
:class:`ScenarioSkipped` and is not run there; a scenario function may raise
it itself, for a combination whose rules change what it states.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from unorules.actions import Action
from unorules.cards import Card, Color, parse_cards
from unorules.errors import RulesetError, UnorulesError
from unorules.ruleset import Ruleset
from unorules.state import GameState, Phase
from unorules.testing import rearranged
from unorules.validate import validate_state

__all__ = [
    "Scenario",
    "ScenarioError",
    "ScenarioFailure",
    "ScenarioSkipped",
    "run_scenarios",
    "scenario_name",
]

Cards = str | Iterable[str | Card]


class ScenarioError(UnorulesError, ValueError):
    """A scenario that cannot be arranged as written (a card the deck does not
    hold, a seat that does not exist, a position the rule set refuses)."""


class ScenarioSkipped(ScenarioError):
    """The scenario's position cannot be arranged in this rule set (a card it
    names is not in the deck): the conformance runner does not run it there."""


class ScenarioFailure(AssertionError):
    """What followed is not what the scenario states (or an action it takes is not legal)."""


def _ruleset(rules: Ruleset | str | Sequence[str], options: Mapping[str, Any] | None) -> Ruleset:
    if isinstance(rules, Ruleset):
        if options:
            return Ruleset(rules.plugins, {**dict(rules.spec()["options"]), **options})
        return rules
    names = [n.strip() for n in rules.split(",")] if isinstance(rules, str) else list(rules)
    return Ruleset.from_names(names, options=dict(options or {}))


def _color(text: str | Color | None) -> Color | None:
    if text is None or isinstance(text, Color):
        return text
    wanted = text.strip().lower()
    known = list(Color)
    for color in known:
        if wanted in (str(color.name).lower(), str(color.value).lower()):
            return color
    raise ScenarioError(f"no colour {text!r}: one of {', '.join(str(c.name).lower() for c in known)}")


def _tokens(cards: Cards) -> list[Card]:
    if isinstance(cards, str):
        return list(parse_cards(cards))
    return [c if isinstance(c, Card) else Card.parse(c) for c in cards]


class _Picker:
    """Names to cards of the deck: each name takes a copy not taken yet (a
    face of a two-faced card takes a card showing that face on ``side``)."""

    def __init__(self, ruleset: Ruleset, side: int) -> None:
        self.deck = Counter(ruleset.deck)
        self.side = side
        self.two_faced = ruleset.two_faced
        self.taken: Counter[Card] = Counter()

    def take(self, card: Card) -> Card:
        if self.deck[card] > self.taken[card]:
            self.taken[card] += 1
            return card
        if self.two_faced and not card.faces:
            for candidate in self.deck:
                shows = candidate.faces and candidate.faces[self.side] is card
                if shows and self.deck[candidate] > self.taken[candidate]:
                    self.taken[candidate] += 1
                    return candidate
        held = self.deck[card] or sum(
            n for c, n in self.deck.items() if c.faces and c.faces[self.side] is card
        )
        if held:
            raise ScenarioError(f"the scenario names more {card} cards than the deck's {held}")
        raise ScenarioSkipped(f"the deck of this rule set holds no {card}")

    def cards(self, cards: Cards) -> list[Card]:
        return [self.take(card) for card in _tokens(cards)]


def _side(side: int | str | None) -> int | None:
    if side is None or isinstance(side, int):
        return side
    names = {"light": 0, "dark": 1}
    if side.strip().lower() not in names:
        raise ScenarioError(f"no side {side!r}: 'light' (0) or 'dark' (1)")
    return names[side.strip().lower()]


class Scenario:
    """A game position arranged by what a person would say (see the module
    docstring), and the states that follow the actions taken from it.

    ``rules``: a rule set, or plugin names (``"classic,stacking"`` or a
    list), built with ``options``. ``players`` seats; ``hands``: seat ->
    the cards it holds, exactly (seats not named keep their dealt hands);
    ``top``: the top card of the discard pile, ``color`` the colour in play
    (default: the top card's); ``draw``: the next cards of the draw pile,
    first drawn first; ``to_move``: the seat to move; ``phase``: a phase
    name or :class:`~unorules.Phase` (default: the deal's, ``play``);
    ``direction``: 1 or -1; ``side``: the side in play of a two-faced deck
    (``"light"``/0, ``"dark"``/1); ``left``: the seats that have left the
    game (their cards go to the draw pile; a mode whose check wants a reason
    for it, such as points over a limit no round has scored, refuses the
    position); ``seed``: the deal the rest comes from.

    Raises :class:`ScenarioSkipped` when a card named is not in the deck,
    :class:`ScenarioError` when the position is not one the rule set
    accepts (``validate_state``)."""

    def __init__(
        self,
        rules: Ruleset | str | Sequence[str],
        *,
        players: int = 3,
        hands: Mapping[int, Cards] | None = None,
        top: str | Card | None = None,
        color: str | Color | None = None,
        draw: Cards = (),
        to_move: int = 0,
        phase: str | Phase | None = None,
        direction: int | None = None,
        side: int | str | None = None,
        left: Iterable[int] = (),
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> None:
        ruleset = _ruleset(rules, options)
        if not 0 <= to_move < players:
            raise ScenarioError(f"seat {to_move} is to move, but the game has seats 0 to {players - 1}")
        gone = tuple(sorted(set(left)))
        for what, seats in (("a hand", hands or {}), ("a seat that left", gone)):
            for seat in seats:
                if not 0 <= seat < players:
                    raise ScenarioError(f"{what} for seat {seat}, but the game has seats 0 to {players - 1}")
        if to_move in gone:
            raise ScenarioError(f"seat {to_move} is to move, but it has left the game")
        try:
            state = ruleset.new_game(players, seed=seed, dealer=(to_move - 1) % players)
        except RulesetError as exc:
            raise ScenarioSkipped(f"this rule set does not deal for {players} players: {exc}") from None
        chosen_side = _side(side)
        picker = _Picker(ruleset, state.side if chosen_side is None else chosen_side)
        named = {seat: picker.cards(cards) for seat, cards in (hands or {}).items()}
        for seat in gone:
            if named.get(seat):
                raise ScenarioError(f"seat {seat} has left the game, so it holds no cards")
            named[seat] = []
        top_card = None if top is None else picker.take(_tokens([top] if isinstance(top, Card) else top)[0])
        front = picker.cards(draw)
        try:
            state = rearranged(state, hands=named, top=top_card, draw=front)
        except ValueError as exc:
            raise ScenarioError(f"the position cannot be arranged: {exc}") from None
        changes: dict[str, Any] = {
            "current_player": to_move,
            "events": (),
            "uno_declared": (),
            "uno_exposed": (),
            "stalled": 0,
        }
        if gone:
            changes["left"] = gone
        if chosen_side is not None:
            changes["side"] = chosen_side
        if phase is not None:
            changes["phase"] = Phase(phase) if isinstance(phase, str) else phase
        if direction is not None:
            changes["direction"] = direction
        shown_top = state.top_card
        if chosen_side is not None and shown_top is not None and shown_top.faces:
            shown_top = shown_top.faces[chosen_side]
        wanted = _color(color) if color is not None else None
        if wanted is None and top is not None and shown_top is not None:
            wanted = shown_top.color
        if wanted is not None:
            changes["color"] = wanted
        state = state.replace(**changes)
        try:
            validate_state(state)
        except UnorulesError as exc:
            raise ScenarioError(f"the arranged position is not a valid state of {ruleset}: {exc}") from None
        self.state = state
        self.before: GameState | None = None
        self.action: Action | None = None

    @classmethod
    def of(cls, state: GameState) -> Scenario:
        """A scenario from a state arranged some other way."""
        scenario = cls.__new__(cls)
        scenario.state = state
        scenario.before = None
        scenario.action = None
        return scenario

    def _next(self, before: GameState, action: Action, after: GameState) -> Scenario:
        scenario = Scenario.of(after)
        scenario.before = before
        scenario.action = action
        return scenario

    def then(self, *actions: str | Action) -> Scenario:
        """The scenario after ``actions`` (``"0: play RDA"``, ``"1: draw"``),
        each of which must be legal: :class:`ScenarioFailure` says which is not
        and what is."""
        scenario = self
        for given in actions:
            action = Action.parse(given) if isinstance(given, str) else given
            state = scenario.state
            if not state.is_legal(action):
                legal = ", ".join(map(str, state.legal_actions())) or "nothing"
                raise ScenarioFailure(f"{action} is not legal here; legal: {legal}")
            scenario = scenario._next(state, action, state.apply(action))
        return scenario

    # -- what follows ---------------------------------------------------------------------------

    def _shown(self, cards: Iterable[Card], names: Sequence[Card]) -> list[str]:
        """``cards`` as text, by face when ``names`` name faces of a two-faced deck."""
        state = self.state
        by_face = state.ruleset.two_faced and not any(c.faces for c in names)
        return [str(state.face(c)) if by_face else str(c) for c in cards]

    def expect(
        self,
        *,
        hands: Mapping[int, Cards] | None = None,
        hand_sizes: Mapping[int, int] | None = None,
        top: str | Card | None = None,
        color: str | Color | None = None,
        under: Cards | None = None,
        draw: Cards | None = None,
        phase: str | None = None,
        to_move: int | None = None,
        events: Sequence[str] | None = None,
        legal: Sequence[str | Action] = (),
        illegal: Sequence[str | Action] = (),
        round_over: bool | None = None,
        winner: int | None = None,
    ) -> Scenario:
        """Check what holds now, raising :class:`ScenarioFailure` with every
        difference: ``hands`` (seat -> the cards it holds, in any order),
        ``hand_sizes``, ``top`` (the top card of the discard pile), ``color``,
        ``under`` (the cards right under the top card, in any order),
        ``draw`` (the next cards of the draw pile, in order), ``phase`` (its
        name), ``to_move``, ``events`` (kinds the last action emitted, in that
        order, among others), ``legal`` and ``illegal`` actions,
        ``round_over`` (the last action ended a round) and ``winner`` (of the
        last round). Returns the scenario, to go on with :meth:`then`."""
        state = self.state
        wrong: list[str] = []
        ended = self.before is not None and len(state.rounds) != len(self.before.rounds)
        for seat, cards in (hands or {}).items():
            names = _tokens(cards)
            held = state.rounds[-1].hands[seat] if ended else state.hands[seat]
            found = Counter(self._shown(held, names))
            expected = Counter(self._shown(names, names))
            if found != expected:
                parts = []
                if expected - found:
                    parts.append("lacks " + " ".join(sorted((expected - found).elements())))
                if found - expected:
                    parts.append("has " + " ".join(sorted((found - expected).elements())) + " more")
                now = " ".join(sorted(found.elements())) or "nothing"
                wrong.append(f"seat {seat} holds {now} ({'; '.join(parts)})")
        for seat, size in (hand_sizes or {}).items():
            if len(state.hands[seat]) != size:
                wrong.append(f"seat {seat} holds {len(state.hands[seat])} cards, not {size}")
        if top is not None:
            names = _tokens([top] if isinstance(top, Card) else top)
            shown = self._shown(state.discard_pile[-1:], names)
            if shown != self._shown(names, names):
                wrong.append(f"the top card is {' '.join(shown)}, not {names[0]}")
        if color is not None and state.color is not _color(color):
            wrong.append(f"the colour is {state.color}, not {_color(color)}")
        if under is not None:
            names = _tokens(under)
            pile = state.discard_pile[:-1]
            found = Counter(self._shown(pile[len(pile) - len(names) :] if names else (), names))
            expected = Counter(self._shown(names, names))
            if found != expected:
                wrong.append(
                    f"under the top card lie {' '.join(sorted(found.elements())) or 'nothing'}, "
                    f"not {' '.join(sorted(expected.elements()))}"
                )
        if draw is not None:
            names = _tokens(draw)
            found_list = self._shown(state.draw_pile[: len(names)], names)
            if found_list != self._shown(names, names):
                now = " ".join(found_list) or "none"
                wrong.append(f"the next cards to draw are {now}, not {' '.join(map(str, names))}")
        if phase is not None and state.phase.name != phase:
            wrong.append(f"the phase is {state.phase.name!r}, not {phase!r}")
        if to_move is not None and state.current_player != to_move:
            wrong.append(f"seat {state.current_player} is to move, not seat {to_move}")
        if events is not None:
            kinds = [e.kind for e in state.events]
            rest = iter(kinds)
            if not all(kind in rest for kind in events):
                wrong.append(
                    f"the events were {', '.join(kinds) or 'none'}, not {', '.join(events)} in this order"
                )
        for given in legal:
            action = Action.parse(given) if isinstance(given, str) else given
            if not state.is_legal(action):
                wrong.append(f"{action} is not legal")
        for given in illegal:
            action = Action.parse(given) if isinstance(given, str) else given
            if state.is_legal(action):
                wrong.append(f"{action} is legal")
        if round_over is not None and ended != round_over:
            wrong.append("the round ended" if ended else "the round did not end")
        if winner is not None:
            found_winner = state.rounds[-1].winner if state.rounds else None
            if found_winner != winner:
                wrong.append(f"the last round was won by {found_winner}, not seat {winner}")
        if wrong:
            after = f"after {self.action}" if self.action is not None else "in the arranged position"
            raise ScenarioFailure(f"{after}: " + "; ".join(wrong))
        return self


def scenario_name(function: Callable[..., Any]) -> str:
    """A scenario function's name, as reports show it."""
    return str(getattr(function, "__qualname__", getattr(function, "__name__", repr(function))))


def run_scenarios(plugin: Any, ruleset: Ruleset) -> list[tuple[str, str, str]]:
    """Run the scenarios ``plugin`` declares (:attr:`TestHints.scenarios
    <unorules.TestHints.scenarios>`) under ``ruleset``: each as
    ``(name, outcome, detail)``, the outcome ``"passed"``, ``"skipped"``
    (:class:`ScenarioSkipped`: the position cannot be arranged there),
    ``"failed"`` (an ``AssertionError``: the detail is its message) or
    ``"crashed"`` (any other exception)."""
    found: list[tuple[str, str, str]] = []
    for function in getattr(getattr(plugin, "testing", None), "scenarios", ()):
        name = scenario_name(function)
        try:
            function(ruleset)
        except ScenarioSkipped as exc:
            found.append((name, "skipped", str(exc)))
        except AssertionError as exc:
            found.append((name, "failed", str(exc) or type(exc).__name__))
        except Exception as exc:
            found.append((name, "crashed", f"{type(exc).__name__}: {exc}"))
        else:
            found.append((name, "passed", ""))
    return found

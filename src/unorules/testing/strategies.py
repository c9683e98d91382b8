"""Hypothesis strategies for unorules: cards, actions, arranged decks, rule
sets, games reached by legal play, and the legal actions of a state.

Everything shrinks toward simple examples: the first card of the deck,
``classic`` alone with default options, fewer players, seed 0, shorter games
and each step's first legal action. The games strategies record a
:class:`~unorules.testing.Replay` and attach it to a failing example with
``hypothesis.note``, so a failure prints Python that rebuilds the game.

Given ``focus`` (a plugin, its name, or several), :func:`replays` and
:func:`game_states` steer toward what those plugins declare: the game is
dealt in one of the styles of :mod:`unorules.testing.explore` (the plugins'
cards in hands, as the starter, with duplicates), the legal actions are
drawn with the plugins' cards and verbs first (so examples shrink toward
playing them), and ``hypothesis.target`` is told how many of the plugins'
declarations the game reached, so hypothesis searches toward games that
reach more of them.

Plugins may list the option values worth testing in their ``testing``
declaration (``TestHints(option_values={"option": (values...)})``); otherwise :func:`option_values` guesses
them from the option's default, its ``allowed`` text and a few small integers,
keeping only the values the option's check accepts.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from hypothesis import assume, note, reject, target
from hypothesis import strategies as st

from unorules.actions import _VERBS, Action
from unorules.cards import COLORS, Card
from unorules.ruleset import Ruleset, installed_plugins
from unorules.state import GameState
from unorules.testing.combinations import (
    _static_conflict,
    build_ruleset,
    buildable_combinations,
    drawn_subsets,
    option_values,
    supported_players,
)
from unorules.testing.coverage import Coverage
from unorules.testing.explore import STYLES, arranged_deal
from unorules.testing.replay import Replay

__all__ = [
    "actions",
    "arranged_decks",
    "build_ruleset",
    "buildable_combinations",
    "cards",
    "colors",
    "drawn_subsets",
    "game_states",
    "legal_actions",
    "option_values",
    "replays",
    "rulesets",
    "supported_players",
]

# -- rule sets ------------------------------------------------------------------------------


@st.composite
def _rulesets(
    draw: st.DrawFn,
    pool: tuple[str, ...],
    required: tuple[str, ...],
    with_options: bool,
    max_size: int | None,
) -> Ruleset:
    extra: list[str] = []
    if pool:
        size = len(pool) if max_size is None else min(max_size, len(pool))
        extra = draw(st.lists(st.sampled_from(pool), unique=True, max_size=size), label="plugins")
    names: list[str] = list(required)
    for name in sorted(extra):
        # Leave out a plugin that declares a conflict with one already chosen
        # (cheaper than building and rejecting the combination).
        if not _static_conflict([*names, name]):
            names.append(name)
    options: dict[str, Any] = {}
    if with_options:
        plugins = installed_plugins()
        for name in names:
            plugin = plugins[name]
            for option in getattr(plugin, "options", ()):
                value = draw(st.sampled_from(option_values(plugin, option)), label=option.name)
                if not (value == option.default and type(value) is type(option.default)):
                    options[option.name] = value
    built = build_ruleset(names, options)
    if not isinstance(built, Ruleset) and options:
        built = build_ruleset(names)  # options that refuse each other: play the defaults
    if not isinstance(built, Ruleset):
        reject()
    assert isinstance(built, Ruleset)
    return built


def rulesets(
    names: Iterable[str] | None = None,
    *,
    required: Sequence[str] = ("classic",),
    options: bool = True,
    max_size: int | None = None,
) -> st.SearchStrategy[Ruleset]:
    """Rule sets of ``required`` plus a subset (at most ``max_size``) of
    ``names`` (default: every installed plugin), with option values from
    :func:`option_values` when ``options`` is true. Combinations refused when
    built are not drawn (options that refuse each other fall back to the
    defaults). Shrinks toward ``required`` alone with default options."""
    pool = tuple(sorted(set(installed_plugins() if names is None else names) - set(required)))
    return _rulesets(pool, tuple(required), options, max_size)


# -- cards and actions ------------------------------------------------------------------------


def colors() -> st.SearchStrategy[Any]:
    """The four colours."""
    return st.sampled_from(COLORS)


def _distinct_cards(ruleset: Ruleset | None) -> tuple[Card, ...]:
    if ruleset is not None:
        return tuple(dict.fromkeys(ruleset.deck))
    kinds = [str(n) for n in range(10)] + ["S", "R", "+2"]
    coloured = [Card.of(c, k) for c in COLORS for k in kinds]
    return (*coloured, Card.of(None, "W"), Card.of(None, "W+4"))


def cards(ruleset: Ruleset | None = None) -> st.SearchStrategy[Card]:
    """Cards of ``ruleset``'s deck (default: the classic cards of every colour,
    Wild and Wild Draw Four)."""
    return st.sampled_from(_distinct_cards(ruleset))


def _presence(spec: str, strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    if spec == "required":
        return strategy
    if spec == "optional":
        return st.none() | strategy
    return st.none()


@st.composite
def _actions(
    draw: st.DrawFn,
    players: int,
    verbs: tuple[str, ...],
    deck: tuple[Card, ...],
    hands: tuple[tuple[Card, ...], ...] | None,
) -> Action:
    seat = draw(st.integers(0, players - 1), label="seat")
    verb = draw(st.sampled_from(verbs), label="verb")
    spec = _VERBS[verb]
    source: st.SearchStrategy[Card] = st.sampled_from(deck)
    if hands is not None and hands[seat]:
        source = st.sampled_from(tuple(dict.fromkeys(hands[seat]))) | source
    card = draw(_presence(spec.card, source), label="card")
    color = draw(_presence(spec.color, colors()), label="color")
    target = draw(_presence(spec.target, st.integers(0, players - 1)), label="target")
    return Action.of(seat, verb, card, color, target)


def actions(
    state: GameState | None = None,
    *,
    ruleset: Ruleset | None = None,
    players: int = 4,
    verbs: Iterable[str] | None = None,
) -> st.SearchStrategy[Action]:
    """Well-formed actions, legal or not: a seat, a registered verb, and a card,
    colour and seat as the verb takes them. With ``state``, seats and cards
    come from that game (cards of the acting seat's hand half the time)."""
    if state is not None:
        ruleset = state.ruleset
        players = state.players
    verb_names = tuple(sorted(_VERBS if verbs is None else verbs))
    deck = _distinct_cards(ruleset)
    return _actions(players, verb_names, deck, None if state is None else state.hands)


def legal_actions(state: GameState, seat: int | None = None) -> st.SearchStrategy[Action]:
    """One of ``state``'s legal actions (of ``seat`` only, if given); shrinks
    toward the first listed."""
    legal = state.legal_actions(seat)
    return st.sampled_from(legal) if legal else st.nothing()


def arranged_decks(
    ruleset: Ruleset,
    players: int,
    *,
    extra: int = 6,
) -> st.SearchStrategy[tuple[Card, ...]]:
    """The top of an arranged deck for ``new_game(deck=...)``: every hand, the
    starter and up to ``extra`` cards to draw, taken from ``ruleset``'s deck.
    The rest of the deck follows in seeded order."""
    dealt = players * ruleset.hand_size + 1
    deck = list(ruleset.deck)
    return st.tuples(st.permutations(deck), st.integers(0, extra)).map(lambda p: tuple(p[0][: dealt + p[1]]))


# -- games --------------------------------------------------------------------------------------


Focus = Any
"""A plugin object, an installed plugin's name, or a sequence of them."""


def _focus_plugins(focus: Focus, rules: Ruleset) -> list[Any]:
    """The plugins of ``rules`` that ``focus`` names (objects or installed names)."""
    wanted = [focus] if isinstance(focus, str) or hasattr(focus, "name") else list(focus)
    found = []
    for item in wanted:
        name = item if isinstance(item, str) else getattr(item, "name", None)
        found += [p for p in rules.plugins if p is item or p.name == name]
    return found


def _focused_order(actions: Sequence[Action], coverage: Coverage) -> list[Action]:
    """``actions`` with those playing the focus plugins' cards or using their
    verbs first, the least used first (stable otherwise)."""

    def score(action: Action) -> float:
        value = coverage.novelty(coverage.verb_declaration(action.verb))
        if action.verb == "play":
            value += coverage.novelty(coverage.card_declaration(action.card))
        return -value

    return sorted(actions, key=score)


@st.composite
def replays(
    draw: st.DrawFn,
    ruleset: Ruleset | st.SearchStrategy[Ruleset] | None = None,
    *,
    players: Iterable[int] | None = None,
    max_actions: int = 60,
    arranged: bool = False,
    seeds: st.SearchStrategy[int] | None = None,
    focus: Focus | None = None,
) -> Replay:
    """A :class:`~unorules.testing.Replay` of a game played by legal actions:
    a rule set (``ruleset``, a strategy of them, or any from :func:`rulesets`),
    a supported player count from ``players``, a seed, with ``arranged`` maybe
    an arranged deck, then up to ``max_actions`` legal actions.

    With ``focus`` (a plugin of the rule set, its name, or several), the deal
    is arranged in one of :data:`~unorules.testing.explore.STYLES`, the
    plugins' plays and verbs are drawn first, and ``hypothesis.target`` is
    given the number of their declarations the game reached (see the module
    docstring)."""
    if ruleset is None:
        ruleset = rulesets()
    rules = draw(ruleset) if isinstance(ruleset, st.SearchStrategy) else ruleset
    counts = supported_players(rules, players)
    assume(bool(counts))
    n = draw(st.sampled_from(counts), label="players")
    seed = draw(seeds if seeds is not None else st.integers(0, 2**16), label="seed")
    deck = None
    dealer = None
    coverage: Coverage | None = None
    if focus is not None:
        coverage = Coverage(_focus_plugins(focus, rules))
        coverage.add_ruleset(rules)
        style = draw(st.sampled_from(STYLES), label="deal style")
        deck, dealer = arranged_deal(rules, n, random.Random(seed), style, coverage.focus_kinds)
    elif arranged and draw(st.booleans(), label="arranged deck"):
        deck = draw(arranged_decks(rules, n), label="deck")
        dealer = draw(st.integers(0, n - 1), label="dealer")
    replay = Replay(rules, n, seed, deck=deck, dealer=dealer)
    state = replay.start()
    if coverage is not None:
        coverage.start_game(rules, {}, state)
    chosen: list[Action] = []
    steps = draw(st.integers(0, max_actions), label="actions")
    for _ in range(steps):
        if state.is_over:
            break
        legal: Sequence[Action] = state.legal_actions()
        if coverage is not None:
            legal = _focused_order(legal, coverage)
        action = draw(st.sampled_from(legal))
        after = state.apply(action)
        if coverage is not None:
            coverage.observe(state, action, after)
        state = after
        chosen.append(action)
    if coverage is not None:
        reached = sum(1 for d, t in coverage.tallies.items() if d.category != "option" and t.reached)
        target(float(reached), label="unorules: declarations of the focus plugins reached")
    return Replay(rules, n, seed, actions=chosen, deck=deck, dealer=dealer)


@st.composite
def game_states(
    draw: st.DrawFn,
    ruleset: Ruleset | st.SearchStrategy[Ruleset] | None = None,
    *,
    players: Iterable[int] | None = None,
    max_actions: int = 60,
    arranged: bool = False,
    focus: Focus | None = None,
) -> GameState:
    """Game states reached by legal play from a seed (see :func:`replays`,
    also for ``focus``); a failing example's notes hold the replay that reaches it."""
    replay = draw(replays(ruleset, players=players, max_actions=max_actions, arranged=arranged, focus=focus))
    note(replay.format())
    return replay.play()

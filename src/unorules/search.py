"""A bot that searches: determinised playouts from what its seat knows.

:class:`SearchBot` keeps its seat's :class:`~unorules.knowledge.Knowledge`
from every view it is shown. When it is its turn to choose between actions
that differ, it samples *worlds* (whole states that show its seat exactly its
view, :func:`~unorules.knowledge.determinize`), and in each world plays every
candidate action and then a number of actions more (``depth``) with a playout
policy for every seat (:class:`PriorityPolicy` by default, a cheaper cut of
the heuristic bot's rule of thumb; or the heuristic bot itself,
:meth:`~unorules.bots.HeuristicBot.choose_in`; both read the world directly).
The same world and the same generator serve
every candidate, so the candidates are compared on equal terms (common
random numbers). A playout that ends its round is worth the points the round
gives the bot's seat (or its team) less the others' (negated when the
fewest points win), with a bonus for winning the game; one still going after
``depth`` actions is worth what :func:`estimate` expects the round to give,
from the hands left (their size, wild cards, action cards and colours, with
weights fitted to games between heuristic bots). Stopping there trades a
little bias for much less noise, and more worlds in the same time.

Two guards keep it from being misled by worlds that are only guesses: it
plays the heuristic bot's move unless another move's gain, paired world by
world, is clearly significant (``margin`` standard errors), and it never
draws when it may play a card. Out of turn (UNO calls, catches, jump-ins) it
acts as the heuristic bot does.

Playouts are cheap where it pays: actions the engine itself listed are
carried out without the legality check (``Ruleset.apply(..., check=False)``),
the policy reads the world without building views, and a playout stops after
``depth`` actions or where the round ends, without dealing the next
(``deal=False``).

The budget is a time per decision (``time``, seconds) or a number of
playouts (``playouts``); with a number of playouts and a seed the bot plays
the same game every time. With a time, how far it searches depends on the
machine.

>>> import unorules
>>> from unorules.bots import HeuristicBot, play_game
>>> from unorules.search import SearchBot
>>> rules = unorules.Ruleset.from_names(["classic"], options={"target_score": 50})
>>> bots = [SearchBot(seed=1, playouts=40), HeuristicBot(seed=2)]
>>> final = play_game(rules.new_game(players=2, seed=4), bots)
>>> final.is_over
True
"""

from __future__ import annotations

import math
import random
import re
import time as _time
from collections.abc import Sequence
from typing import Any, Protocol

from unorules.actions import Action
from unorules.bots import HeuristicBot, Seed, _facts, _rng, _step
from unorules.cards import Card, Color
from unorules.draft import carry_out
from unorules.knowledge import Knowledge, determinize
from unorules.ruleset import Ruleset
from unorules.state import GameState, SeatView

__all__ = [
    "DEFAULT_DEPTH",
    "DEFAULT_TIME",
    "POLICIES",
    "Policy",
    "PriorityPolicy",
    "SearchBot",
    "Stats",
    "estimate",
    "playout",
    "strength",
]

DEFAULT_TIME = 0.05
"""The search bot's default budget: seconds per decision."""

GAME_BONUS = 1000.0
"""What winning the game adds to a playout's value (and losing it takes)."""

DEFAULT_DEPTH = 24
"""How many actions a playout plays after the candidate before the round's end
is estimated from the hands (:func:`estimate`) rather than played out. At
50 ms a decision, heads-up against the heuristic bot, 24 did better than 6,
12 and playing every round out (``benchmarks/README.md``)."""

HAND_WEIGHTS = (-0.173, 0.595, 0.885, 0.266, -0.225)
"""The weights of :func:`strength`: a hand's size, one over its size, its
wild cards, its Skip, Reverse and Draw Two cards, and its colours. Fitted by
logistic regression to who won 3,000 rounds of classic heads-up between
heuristic bots, at each of their 132,370 actions (log loss 0.598, against
0.650 for size alone and 0.692 for a coin)."""

TO_MOVE = 0.073
"""What being the seat to move adds to a seat's :func:`strength` (same fit)."""


class Stats:
    """What a search bot did, for benchmarks: decisions searched, playouts,
    playout actions and time spent, by part."""

    def __init__(self) -> None:
        self.decisions = 0
        """Decisions made (every call of ``choose`` that returned an action)."""
        self.searched = 0
        """Decisions searched (more than one candidate)."""
        self.changed = 0
        """Searched decisions where the search's move differed from the heuristic's."""
        self.playouts = 0
        """Playouts played."""
        self.actions = 0
        """Actions played in playouts."""
        self.seconds = 0.0
        """Time spent searching."""
        self.sampling = 0.0
        """Time spent sampling worlds (determinisation and knowledge)."""

    def to_data(self) -> dict[str, Any]:
        """The figures as a dict."""
        return dict(vars(self))


class SearchBot:
    """Determinised search over playouts (see the module's docstring).

    ``time`` is the budget of a decision in seconds (default
    :data:`DEFAULT_TIME`), or ``playouts`` a number of playouts (then the bot
    is deterministic under its seed); ``margin`` how many standard errors a
    move's paired gain over the heuristic bot's must exceed (over at least
    :data:`MIN_WORLDS` worlds); ``depth`` how many actions a playout plays
    after the candidate before :func:`estimate` values it (default
    :data:`DEFAULT_DEPTH`; a large number plays every round out);
    ``draw_guard`` never to draw when a card may be played; ``infer`` to keep
    guesses about how the other seats play in its knowledge (see
    :class:`~unorules.knowledge.Knowledge`); ``policy`` the playout policy
    (one of :data:`POLICIES`: ``"priority"``, :class:`PriorityPolicy`, the
    default, or ``"heuristic"``, the heuristic bot); ``seed`` seeds its
    generator.
    """

    name = "search"
    """The bot's name (``make_bot("search")``, ``search:20ms``, ``search:400``)."""

    def __init__(
        self,
        seed: Seed = None,
        *,
        time: float | None = None,
        playouts: int | None = None,
        margin: float = 1.5,
        depth: int = DEFAULT_DEPTH,
        draw_guard: bool = True,
        infer: bool = True,
        policy: str = "priority",
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        if time is not None and playouts is not None:
            raise ValueError("give the search bot a time or a number of playouts, not both")
        if playouts is not None and playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {playouts}")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        if time is not None and not time > 0:
            raise ValueError(f"time must be positive, not {time}")
        self.rng = _rng(seed)
        self.time = DEFAULT_TIME if time is None and playouts is None else time
        self.playouts = playouts
        self.margin = margin
        self.depth = depth
        self.draw_guard = draw_guard
        self.infer = infer
        self.policy = policy
        self.heuristic = HeuristicBot(self.rng)
        self.knowledge: Knowledge | None = None
        self.stats = Stats()

    def __repr__(self) -> str:
        budget = f"time={self.time}" if self.time is not None else f"playouts={self.playouts}"
        return f"SearchBot({budget}, margin={self.margin}, policy={self.policy!r})"

    @classmethod
    def from_argument(cls, seed: Seed, argument: str) -> SearchBot:
        """The bot of ``search:ARGUMENT``, seeded with ``seed``: ``argument`` is a
        time (``20ms``, ``0.5s``) or a number of playouts (``400``) per decision
        (``ValueError`` otherwise)."""
        text = argument.strip().lower()
        found = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(ms|s)", text)
        if found:
            value = float(found.group(1)) / (1000.0 if found.group(2) == "ms" else 1.0)
            if value <= 0:
                raise ValueError(f"search:{argument}: the time must be positive")
            return cls(seed, time=value)
        if text.isdigit() and int(text) > 0:
            return cls(seed, playouts=int(text))
        raise ValueError(
            f"search:{argument[:40]}: give a time per decision (search:20ms, search:0.5s) "
            "or a number of playouts (search:400)"
        )

    # -- following the game --------------------------------------------------------------

    def observe(self, view: SeatView) -> None:
        """Follow the game: bring the seat's knowledge up to ``view``."""
        knowledge = self.knowledge
        if knowledge is None or knowledge.seat != view.seat or _new_game(view):
            self.knowledge = Knowledge(view, infer=self.infer)
        else:
            knowledge.update(view)

    # -- choosing ------------------------------------------------------------------------------

    def choose(self, view: SeatView) -> Action | None:
        """The action this bot takes as the view's seat (see the class docstring)."""
        self.observe(view)
        default = self.heuristic.choose(view)
        seat = view.seat
        if default is None or seat is None or view.current_player != seat or default.verb == "uno":
            return default
        candidates = self._candidates(view, default)
        self.stats.decisions += 1
        if len(candidates) < 2:
            return candidates[0] if candidates else default
        self.stats.searched += 1
        chosen = self._search(view, candidates, default)
        if chosen != default:
            self.stats.changed += 1
        return chosen

    def _candidates(self, view: SeatView, default: Action) -> list[Action]:
        mine = [a for a in view.legal_actions if a.seat == view.seat and a.verb != "uno"]
        if self.draw_guard and any(a.verb == "play" for a in mine):
            mine = [a for a in mine if a.verb != "draw"]
        if default not in mine:
            mine.append(default)
        return mine

    def _search(self, view: SeatView, candidates: list[Action], default: Action) -> Action:
        started = _time.perf_counter()
        knowledge = self.knowledge
        assert knowledge is not None
        seat = view.seat
        assert seat is not None
        stats = self.stats
        teams = view.rules.teams(view.players)
        team = next(t for t in teams if seat in t)
        index = candidates.index(default)
        values: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        worlds = 0
        spent = 0
        budget = self.playouts
        deadline = None if self.time is None else started + self.time
        rng = random.Random(self.rng.getrandbits(64))
        policy: Policy = PriorityPolicy(rng) if self.policy == "priority" else HeuristicBot(rng)
        while len(alive) > 1:
            if budget is not None and worlds >= 2 and spent + len(alive) > budget:
                break
            if deadline is not None and _time.perf_counter() >= deadline:
                break
            t0 = _time.perf_counter()
            world = determinize(view, knowledge, self.rng)
            stats.sampling += _time.perf_counter() - t0
            seed = self.rng.getrandbits(64)
            for i in alive:
                policy.rng.seed(seed)
                after = carry_out(world, candidates[i], deal=False)
                value, actions = playout(after, seat, team, policy, len(world.rounds), self.depth)
                values[i].append(value)
                stats.actions += actions + 1
            spent += len(alive)
            worlds += 1
            if worlds >= RACE_AFTER:
                alive = _race(values, alive, index, worlds)
        stats.playouts += spent
        stats.seconds += _time.perf_counter() - started
        best = max(alive, key=lambda i: (sum(values[i][-worlds:]), i == index))
        if best == index or worlds < MIN_WORLDS:
            return default  # too few worlds to tell a gain from noise
        gain = [a - b for a, b in zip(values[best][-worlds:], values[index][-worlds:], strict=True)]
        mean = sum(gain) / len(gain)
        var = sum((g - mean) ** 2 for g in gain) / (len(gain) - 1)
        if mean > 0 and mean > self.margin * math.sqrt(var / len(gain)):
            return candidates[best]
        return default


MIN_WORLDS = 6
"""The fewest worlds a search must have played every remaining candidate in
before it leaves the heuristic's move: with fewer, a paired standard error
is itself too uncertain to tell a gain from noise."""

RACE_AFTER = 4
"""Worlds every candidate is played in before the race drops any (see :func:`_race`)."""

RACE_Z = 2.0
"""How many standard errors behind the leader a candidate must be to be dropped."""


def _race(values: list[list[float]], alive: list[int], default: int, worlds: int) -> list[int]:
    """The candidates still worth playing out: the heuristic's move, and every
    other whose paired gap to the leader (over the ``worlds`` every candidate
    still alive was played in) is within :data:`RACE_Z` standard errors."""
    recent = {i: values[i][-worlds:] for i in alive}
    leader = max(alive, key=lambda i: sum(recent[i]))
    kept = []
    for i in alive:
        if i in (leader, default):
            kept.append(i)
            continue
        gaps = [a - b for a, b in zip(recent[leader], recent[i], strict=True)]
        mean = sum(gaps) / worlds
        var = sum((g - mean) ** 2 for g in gaps) / (worlds - 1)
        if mean <= RACE_Z * math.sqrt(var / worlds):
            kept.append(i)
    return kept


def _new_game(view: SeatView) -> bool:
    """Whether ``view`` is the first of a game (its first deal, nothing played)."""
    return not view.rounds and view.last_action is None


def playout(
    state: GameState,
    seat: int,
    team: Sequence[int],
    policy: Policy,
    rounds: int,
    depth: int = DEFAULT_DEPTH,
) -> tuple[float, int]:
    """Play ``state`` on with ``policy`` for every seat (out-of-turn actions
    first, as :func:`unorules.bots.next_action` does) for at most ``depth``
    actions or to the end of round ``rounds + 1``; return the value for
    ``seat`` and its ``team`` (the seats it plays with, itself included; see
    the module's docstring) and the number of actions played. A round still
    going after ``depth`` actions is valued by :func:`estimate`."""
    actions = 0
    while len(state.rounds) == rounds and state.outcome is None:
        if actions >= depth:
            return estimate(state, team), actions
        legal = state.legal_actions()
        if not legal:
            break
        action = _next(state, legal, policy)
        state = carry_out(state, action, deal=False)
        actions += 1
    return _value(state, seat, team, rounds), actions


def strength(hand: Sequence[Card]) -> float:
    """How likely a hand is to go out first, on a logistic scale: a weighted
    sum (:data:`HAND_WEIGHTS`) of its size, one over its size, its wild
    cards, its Skip, Reverse and Draw Two cards, and how many colours it
    holds."""
    size = len(hand)
    wilds = actions = 0
    colors = set()
    for card in hand:
        color = card.color
        if color is None:
            wilds += 1
        else:
            colors.add(color)
            if card.kind in _TEMPO:
                actions += 1
    a, b, c, d, e = HAND_WEIGHTS
    return a * size + b / max(size, 1) + c * wilds + d * actions + e * len(colors)


POLICIES = ("priority", "heuristic")
"""The playout policies a search bot can play its playouts with (``policy=``):
:class:`PriorityPolicy` (the default) and the heuristic bot itself
(:meth:`~unorules.bots.HeuristicBot.choose_in`)."""


class Policy(Protocol):
    """A playout policy: what :func:`playout` asks for every seat's action
    (:class:`PriorityPolicy` and :class:`~unorules.bots.HeuristicBot` are two)."""

    rng: random.Random
    """The policy's random generator, seeded again for every playout."""

    def choose_in(
        self, state: GameState, seat: int, legal: tuple[Action, ...] | None = None
    ) -> Action | None:
        """The action ``seat`` takes in ``state`` (``legal``: its legal actions, if known),
        or ``None`` when it has none."""


class PriorityPolicy:
    """The search's playout policy: the heuristic bot's rule of thumb for the
    seat to move, cut down to what a card alone says, and the heuristic bot
    for everything else.

    When the seat to move may only play, draw, pass or call UNO (most of a
    playout), it calls UNO when it may, and otherwise plays the matching card
    of the highest priority: a coloured card by its points (an action card,
    then high numbers), a Skip, Reverse or Draw Two first when the next seat
    holds two cards or fewer, a wild last (a Wild Draw Four before a Wild,
    and only when it holds no card of the colour to match: it never bluffs),
    naming the colour it holds most of; it keeps a drawn wild while it holds
    more than two cards, and draws (or passes) only when no card matches. Unlike the heuristic bot it
    does not weigh how many cards of a colour it holds: that is a scan of the
    hand at every step. Every other moment (out of turn, a choice of colour,
    a challenge, a card that swaps hands, a plugin's own verb) is the
    heuristic bot's (:meth:`~unorules.bots.HeuristicBot.choose_in`), drawing
    on the same generator ``rng``, so a playout is deterministic for a seed.
    """

    name = "priority"
    """Its name in :data:`POLICIES`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.heuristic = HeuristicBot(rng)
        self._ranks: tuple[Ruleset, dict[Card, float]] | None = None

    def _rank(self, rules: Ruleset) -> dict[Card, float]:
        """Each card's priority: its points if coloured, -50 for a Wild Draw
        Four, -55 for a plugin's wild, -60 for a Wild (the heuristic bot's)."""
        cached = self._ranks
        if cached is None or cached[0] is not rules:
            points = _facts(rules).points
            ranks = {
                card: float(value)
                if card.color is not None
                else (-50.0 if card.kind == "W+4" else -60.0 if card.kind == "W" else -55.0)
                for card, value in points.items()
            }
            cached = self._ranks = (rules, ranks)
        return cached[1]

    def choose_in(
        self, state: GameState, seat: int, legal: tuple[Action, ...] | None = None
    ) -> Action | None:
        """The action ``seat`` takes in ``state`` (``legal``: its legal actions, if known)."""
        rules = state.ruleset
        if legal is None or seat != state.current_player or rules.two_faced:
            return self.heuristic.choose_in(state, seat, legal)
        color = state.color
        top = state.discard_pile[-1].kind
        ranks = self._rank(rules)
        best: Action | None = None
        best_rank = 0.0
        four: Action | None = None  # the first Wild Draw Four, kept for after the loop
        wild: Action | None = None  # the best wild other than a Wild Draw Four
        wild_rank = 0.0
        draw: Action | None = None
        tempo = False  # whether the next seat is close to going out (worked out once needed)
        hands: tuple[tuple[Card, ...], ...] | None = None
        for action in legal:
            verb = action.verb
            if verb == "play":
                card = action.card
                if card is None or action.target is not None:
                    return self.heuristic.choose_in(state, seat, legal)
                c = card.color
                if c is None:
                    kind = card.kind
                    if kind == "W+4":
                        if four is None:
                            four = action
                    else:
                        rank = ranks.get(card, -55.0)
                        if wild is None or rank > wild_rank:
                            wild, wild_rank = action, rank
                    continue
                if c is not color and card.kind != top:
                    continue  # a play the table's enforcement lists but the rules do not allow
                rank = ranks.get(card, 0.0)
                if card.kind in _TEMPO:
                    if hands is None:
                        hands = state.hands
                        tempo = len(hands[_step(seat, state.direction, len(hands), state.left)]) <= 2
                    if tempo:
                        rank += 40.0
                if best is None or rank > best_rank:
                    best, best_rank = action, rank
            elif verb == "uno":
                return action  # R-UNO-CALL / R-UNO-SELF: always call
            elif verb == "draw" or verb == "pass":
                if draw is None:
                    draw = action
            else:
                return self.heuristic.choose_in(state, seat, legal)
        if best is not None:
            card = best.card
            assert card is not None
            if _facts(rules).swaps.get(card) is None:
                return best
            return self.heuristic.choose_in(state, seat, legal)  # a card that swaps hands
        if four is not None or wild is not None:
            hand = state.hands[seat]
            if hands is None:
                hands = state.hands
                tempo = len(hands[_step(seat, state.direction, len(hands), state.left)]) <= 2
            if state.phase.name == "drawn" and len(hand) > 2 and not tempo and draw is not None:
                return draw  # a drawn wild is worth more kept for later
            chosen = wild
            if four is not None and not any(c.color is color for c in hand):
                chosen = four  # honest (R-TURN-WD4): before a Wild
            if chosen is None:  # only a bluff is left: draw or pass if it may
                if draw is not None:
                    return draw
                chosen = four
            assert chosen is not None
            card = chosen.card
            assert card is not None
            if _facts(rules).swaps.get(card) is not None:
                return self.heuristic.choose_in(state, seat, legal)
            return _named(legal, card, self.heuristic._favourite_color(hand, rules))
        if draw is not None:
            return draw
        return self.heuristic.choose_in(state, seat, legal)


def _named(legal: tuple[Action, ...], card: Card, color: Color) -> Action:
    """The play of ``card`` in ``legal`` naming ``color`` (or the first play of
    it, for a card that names no colour)."""
    first = None
    for action in legal:
        if action.card is card and action.verb == "play":
            if action.color is color or action.color is None:
                return action
            if first is None:
                first = action
    assert first is not None
    return first


_TEMPO = frozenset({"S", "R", "+2"})


def estimate(state: GameState, team: Sequence[int]) -> float:
    """What the round still going in ``state`` is worth to ``team``, in the
    points of :func:`_value`: each seat in play wins it with the chance of a
    softmax over the seats' :func:`strength` (plus :data:`TO_MOVE` for the seat
    to move), and the winner scores the hands left now (or, under
    ``low-score``, every other seat is charged its own)."""
    rules = state.ruleset
    hands = state.hands
    if rules.two_faced:
        hands = tuple(tuple(map(state.face, hand)) for hand in hands)
    left = state.left
    current = state.current_player
    seats = [s for s in range(len(hands)) if s not in left]
    points = {s: rules.hand_points(hands[s]) for s in seats}
    weights = {s: math.exp(strength(hands[s]) + (TO_MOVE if s == current else 0.0)) for s in seats}
    total = sum(weights.values())
    chance = {s: w / total for s, w in weights.items()}
    others = [s for s in seats if s not in team]
    if not others:
        return 0.0
    if rules.options.get("scoring") == "low-score":
        # every seat but the winner is charged its own hand; fewer points are better
        charge = {s: (1.0 - chance[s]) * points[s] for s in seats}
        mine = sum(charge[s] for s in team if s in charge)
        return sum(charge[s] for s in others) / len(others) - mine
    pool = sum(points.values())
    score = {s: chance[s] * (pool - points[s]) for s in seats}
    return sum(score[s] for s in team if s in score) - sum(score[s] for s in others) / len(others)


def _next(state: GameState, legal: tuple[Action, ...], policy: Policy) -> Action:
    first = legal[0].seat
    for action in legal:  # the usual case, one seat: a loop without a frame
        if action.seat != first:
            break
    else:
        chosen = policy.choose_in(state, first, legal)
        return chosen if chosen is not None else legal[0]
    current = state.current_player
    for seat in state.seats_to_act():
        if seat != current:
            mine = tuple(a for a in legal if a.seat == seat)
            chosen = policy.choose_in(state, seat, mine)
            if chosen is not None:
                return chosen
    mine = tuple(a for a in legal if a.seat == current)
    if not mine:
        return legal[0]
    chosen = policy.choose_in(state, current, mine)
    return chosen if chosen is not None else mine[0]


def _value(state: GameState, seat: int, team: Sequence[int], rounds: int) -> float:
    if len(state.rounds) == rounds:  # the game ended otherwise (every other seat left, say)
        outcome = state.outcome
        return 0.0 if outcome is None else (GAME_BONUS if seat in outcome.winners else -GAME_BONUS)
    result = state.rounds[rounds]
    points = result.points
    others = [s for s in range(len(points)) if s not in team and s not in state.left]
    mine = sum(points[s] for s in team)
    theirs = sum(points[s] for s in others) / len(others) if others else 0.0
    value = float(mine - theirs)
    winner = result.winner
    if winner is not None and points[winner] < max(points):
        value = -value  # the fewest points win
    outcome = state.outcome
    if outcome is not None:
        value += GAME_BONUS if any(s in outcome.winners for s in team) else -GAME_BONUS
    return value

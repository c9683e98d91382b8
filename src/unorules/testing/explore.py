"""Exploration steered by what the plugin under test declares.

Seeded random play spends its time where the game usually is: ordinary turns
of classic cards. A plugin's own card may be playable in a few states in a
hundred, its phase may last one state, and the paths every plugin meets
sooner or later (a reshuffle in the middle of an effect, an empty draw pile,
ten seats, going out on the plugin's card, the plugin's card next to every
other plugin's cards) are rare. The conformance runner and the strategies
steer toward them in two ways.

**Arranged deals** (:func:`arranged_deal`). Each game is dealt in one of the
:data:`STYLES`:

``shuffled``
    a seeded shuffle, as a real game;
``in-hands``
    the plugin's cards in the first two players' hands and near the top of
    the draw pile, the starter of the colour of the first player's card (so
    it can be played at once);
``starter``
    a card of the plugin turned up as the starter (its opening effect);
``clumped``
    copies of the same card dealt together, the first player holding the
    plugin's card with pairs of identical cards of its colour (effects that
    move several cards of a hand meet duplicates);
``combined``
    the plugin's cards and the other plugins' cards in the same hands (in a
    combination with other plugins).

**Steered choices** (:class:`Explorer`). Each game follows one of the
:data:`POLICIES`: ``steer`` scores the legal actions by how new their
outcome is to the coverage (the plugin's card played, played in a
situation a game mode made such as a seat having left, a phase entered, an
event emitted, an extra set, a way an effect ends, going out on the
plugin's card), looking one action ahead, and plays the most novel one;
``eager`` prefers playing cards (rounds end, scoring and later rounds come);
``random`` takes any legal action; ``hoard`` draws whenever it may until
the draw pile has been reshuffled (or nothing is left to draw), then plays
as ``steer``: big hands, reshuffles in the middle of effects and empty piles;
``last`` keeps the plugin's cards for last: every seat plays any other card
it may, draws rather than play the plugin's card, and plays the plugin's
card only once its hand holds nothing else, so rounds end on it (a wild
played as soon as it is drawn is never anybody's last card). The runner
plays ``last`` games while a card of the plugin has not yet ended a round
(:meth:`~unorules.testing.coverage.Coverage.card_failures`).

Looking ahead applies actions the game does not take; each such state is
handed to a check (the runner counts the cards and checks the UNO books of
every one), and an action whose look-ahead fails is the action chosen, so
the failure happens in the game and is reported with its replay.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from unorules.actions import Action
from unorules.cards import COLORS, Card
from unorules.ruleset import Ruleset
from unorules.state import GameState
from unorules.testing import rearranged
from unorules.testing.coverage import Coverage, effect_ending
from unorules.testing.play import choose_action

__all__ = [
    "POLICIES",
    "STYLES",
    "Explorer",
    "arranged_deal",
    "drawn_card_positions",
    "game_plan",
    "last_card_positions",
    "situation_positions",
]

STYLES = ("shuffled", "in-hands", "clumped", "starter", "combined")
"""The ways a game is dealt (see the module docstring)."""

POLICIES = ("steer", "eager", "hoard", "random", "last")
"""The ways a game is played (see the module docstring)."""

_PLANNED = POLICIES[:4]
"""The policies :func:`game_plan` goes through (``last`` is chosen by coverage)."""

Check = Callable[[GameState, Action, GameState], None]


def game_plan(index: int, counts: Sequence[int]) -> tuple[int, str, str]:
    """The player count, deal style and policy of the ``index``-th game of a
    combination that plays ``counts`` players: the counts in turn, and for
    each round of counts the next style and policy, so every count meets
    every style and policy."""
    players = counts[index % len(counts)]
    lap = index // len(counts)
    style = STYLES[(lap + index) % len(STYLES)]
    policy = _PLANNED[(lap + 2 * index) % len(_PLANNED)]
    return players, style, policy


def _take(pool: list[Card], wanted: Callable[[Card], bool], rng: random.Random) -> Card | None:
    """Take a random card of ``pool`` that is ``wanted`` out of it (``None``: none)."""
    found = [i for i, card in enumerate(pool) if wanted(card)]
    if not found:
        return None
    return pool.pop(rng.choice(found))


def arranged_deal(
    ruleset: Ruleset,
    players: int,
    rng: random.Random,
    style: str,
    focus: Iterable[str],
    others: Iterable[str] = (),
    starters: Sequence[str] = (),
) -> tuple[tuple[Card, ...] | None, int | None]:
    """The deck (top card first) and dealer of a game dealt in ``style`` (one of
    :data:`STYLES`), for ``Ruleset.new_game(deck=..., dealer=...)``.

    ``focus`` are the card kinds of the plugin under test, ``others`` those of
    the other plugins in the rule set; ``starters`` the kinds to turn up
    first for ``starter``, in order of preference (default: any of
    ``focus``). ``(None, None)`` means a seeded
    shuffle: for ``shuffled``, or when the deck holds none of the kinds the
    style needs or too few cards to deal."""
    focus = frozenset(focus)
    others = frozenset(others)
    size = ruleset.hand_size
    deck = list(ruleset.deck)
    if style == "shuffled" or players * size + 2 > len(deck):
        return None, None
    kinds = {card.kind for card in deck}
    if style in ("in-hands", "starter", "combined") and not focus & kinds:
        return None, None  # nothing of the plugin's to deal (clumped deals need no cards of its own)
    if style == "combined" and not others & kinds:
        return None, None
    rng.shuffle(deck)
    pool = deck
    dealer = rng.randrange(players)
    seats = [(dealer + 1 + k) % players for k in range(players)]
    first, second = seats[0], seats[1]
    hands: dict[int, list[Card]] = {seat: [] for seat in seats}
    starter: Card | None = None
    near_top: list[Card] = []

    def mine(card: Card) -> bool:
        return card.kind in focus

    def theirs(card: Card) -> bool:
        return card.kind in others

    lead = _take(pool, mine, rng)
    if style == "starter":
        for kind in starters:
            if lead is not None and lead.kind == kind:
                break
            card = _take(pool, lambda c, k=kind: c.kind == k, rng)  # type: ignore[misc]
            if card is not None:
                if lead is not None:
                    pool.append(lead)
                lead = card
                break
        starter = lead
        lead = _take(pool, mine, rng)
    if lead is not None:
        hands[first].append(lead)
    if style == "in-hands":
        for seat in (second, *seats[2:3]):
            card = _take(pool, mine, rng)
            if card is not None:
                hands[seat].append(card)
        card = _take(pool, mine, rng)
        if card is not None:
            near_top.append(card)
    elif style == "combined":
        for seat, wanted in ((first, theirs), (second, mine), (second, theirs)):
            card = _take(pool, wanted, rng)
            if card is not None:
                hands[seat].append(card)
    elif style == "clumped":
        color = lead.color if lead is not None and lead.color is not None else rng.choice(COLORS)
        _clump(pool, hands[first], size, rng, lambda c: c.color is color)
        for seat in seats[1:]:
            _clump(pool, hands[seat], size, rng, lambda c: True)
    if starter is None and lead is not None:
        # A starter the first player's card matches, so it can be played at once.
        match = lead.color
        starter = _take(
            pool, lambda c: c.number is not None and (match is None or c.color is match), rng
        ) or _take(pool, lambda c: c.number is not None, rng)
    for seat in seats:
        hand = hands[seat]
        while len(hand) < size:
            hand.append(pool.pop())
        rng.shuffle(hand)
    if starter is None:
        starter = pool.pop()
    draw = pool[:1] + near_top + pool[1:]
    order: list[Card] = []
    for i in range(size):
        for seat in seats:
            order.append(hands[seat][i])
    order.append(starter)
    order += draw
    return tuple(order), dealer


def _clump(
    pool: list[Card], hand: list[Card], size: int, rng: random.Random, kinds: Callable[[Card], bool]
) -> None:
    """Fill ``hand`` with pairs of identical cards from ``pool`` that ``kinds``
    accepts, leaving one place free (the rest of the hand is dealt at random)."""
    while len(hand) + 2 < size:
        seen: dict[Card, int] = {}
        pairs = []
        for card in pool:
            if kinds(card):
                seen[card] = seen.get(card, 0) + 1
                if seen[card] == 2:
                    pairs.append(card)
        if not pairs:
            return
        card = rng.choice(pairs)
        for _ in range(2):
            pool.remove(card)
            hand.append(card)


class Explorer:
    """Chooses the actions of one game for ``policy`` (one of :data:`POLICIES`),
    steered by ``coverage``.

    ``steer`` is the share of steered choices (the rest are eager);
    ``lookahead`` the most legal actions applied to score one choice;
    ``check(before, action, after)`` is called with every state looked at
    (and may raise: the action is then the one chosen); ``keep``, the card
    kinds the ``last`` policy keeps for last (default: the plugin's)."""

    def __init__(
        self,
        coverage: Coverage,
        rng: random.Random,
        policy: str = "steer",
        *,
        eager: float = 0.8,
        steer: float = 0.6,
        lookahead: int = 12,
        check: Check | None = None,
        keep: Iterable[str] | None = None,
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}: one of {', '.join(POLICIES)}")
        self.coverage = coverage
        self.rng = rng
        self.policy = policy
        self.eager = eager
        self.steer = steer
        self.lookahead = lookahead
        self.check = check
        self.looked = 0
        """How many actions were applied to look ahead."""
        self._hoarding = policy == "hoard"
        self.keep = coverage.focus_kinds if keep is None else frozenset(keep)
        """The card kinds the ``last`` policy keeps for last (default: the plugin's)."""

    def choose(self, state: GameState) -> Action:
        """The next action of the game in ``state`` (not over)."""
        rng = self.rng
        policy = self.policy
        if policy == "random":
            return choose_action(state, rng, 0.0)
        if policy == "eager":
            return choose_action(state, rng, self.eager)
        if policy == "last":
            return self._last(state)
        if self._hoarding:
            hoarded = self._hoard(state)
            if hoarded is not None:
                return hoarded
        if rng.random() < self.steer:
            chosen = self._steered(state)
            if chosen is not None:
                return chosen
        return choose_action(state, rng, self.eager)

    def _last(self, state: GameState) -> Action:
        """The ``last`` policy: the plugin's cards kept for the last card."""
        rng = self.rng
        legal = state.legal_actions()
        seat = state.current_player
        focus = self.keep
        hand = state.hands[seat]

        def kept(action: Action) -> bool:
            card = action.card
            return action.verb == "play" and card is not None and card.kind in focus

        plays = [a for a in legal if a.seat == seat and a.verb == "play" and a.card is not None]
        if hand and all(card.kind in focus for card in hand):
            mine = [a for a in plays if kept(a)]
            if mine:
                return rng.choice(mine)  # nothing else in the hand: the round may end on it
        others = [a for a in plays if not kept(a)]
        if others:
            return rng.choice(others)
        rest = [a for a in legal if not (a.seat == seat and kept(a))]
        draws = [a for a in rest if a.seat == seat and a.verb in ("draw", "pass")]
        return rng.choice(draws or rest or legal)

    def _hoard(self, state: GameState) -> Action | None:
        if any(event.kind == "reshuffle" for event in state.events) or (
            not state.draw_pile and len(state.discard_pile) <= 1
        ):
            self._hoarding = False  # reshuffled, or nothing left to draw: now play
            return None
        seat = state.current_player
        for action in state.legal_actions(seat):
            if action.verb in ("draw", "pass") and action.card is None:
                return action
        return None

    def _steered(self, state: GameState) -> Action | None:
        legal = state.legal_actions()
        coverage = self.coverage
        rng = self.rng
        static: dict[Action, float] = {}
        for action in legal:
            score = coverage.novelty(coverage.verb_declaration(action.verb))
            if action.verb == "play":
                score += coverage.novelty(coverage.card_declaration(action.card))
                for situated in coverage.situation_declarations(state, action.card):
                    score += coverage.novelty(situated)  # the card played where a mode changed the table
            static[action] = score
        self._keep_for_last(state, legal, static)
        candidates = list(legal)
        if len(candidates) > self.lookahead:
            # The actions with a static score first, then a random sample of the rest.
            scored = [a for a in candidates if static[a] > 0]
            rest = [a for a in candidates if static[a] <= 0]
            rng.shuffle(scored)
            candidates = scored[: self.lookahead]
            candidates += rng.sample(rest, max(0, min(len(rest), self.lookahead - len(candidates))))
        best: list[Action] = []
        top = 0.0
        for action in candidates:
            score = static[action]
            self.looked += 1
            try:
                after = state.apply(action)
                if self.check is not None:
                    self.check(state, action, after)
            except Exception:
                return action  # it fails: play it, so the game shows the failure
            score += self._outcome(state, action, after)
            if score > top + 1e-9:
                top, best = score, [action]
            elif abs(score - top) <= 1e-9 and score > 0:
                best.append(action)
        if not best:
            return None
        return rng.choice(best)

    def _outcome(self, before: GameState, action: Action, after: GameState) -> float:
        """How new the state ``after`` is to the coverage."""
        coverage = self.coverage
        score = 0.0
        if after.phase.name != before.phase.name:
            score += coverage.novelty(coverage.phase_declaration(after.phase.name))
        for event in after.events:
            score += coverage.novelty(coverage.event_declaration(event.kind))
        if after.extras != before.extras:
            keys = {k for k, _ in after.extras} - {k for k, _ in before.extras}
            for key in keys:
                score += coverage.novelty(coverage.extra_declaration(key))
        card = action.card
        if action.verb == "play" and card is not None and coverage.card_declaration(card) is not None:
            score += coverage.ending_novelty(card, effect_ending(before, action, after))
        return score

    def _keep_for_last(self, state: GameState, legal: Sequence[Action], static: dict[Action, Any]) -> None:
        """With two cards, one of them the plugin's, play the other first: the
        round may then end on the plugin's card."""
        seat = state.current_player
        hand = state.hands[seat]
        if len(hand) != 2:
            return
        coverage = self.coverage
        kept = [c for c in hand if coverage.card_declaration(c) is not None]
        if len(kept) != 1:
            return
        bonus = coverage.ending_novelty(kept[0], "went out")
        for action in legal:
            card = action.card
            if action.seat == seat and action.verb == "play" and card is not None and card is not kept[0]:
                static[action] += bonus / 2


def last_card_positions(state: GameState, kinds: Iterable[str]) -> list[tuple[GameState, Action]]:
    """Last-card probes: for each card of ``kinds`` the seat to move may play
    in ``state`` (one play per kind), the same position with that seat holding
    that card alone (the rest of its hand put under the draw pile, its UNO
    call used), and with that card and one other card of its colour if it
    holds one (an effect taking cards of its colour along then empties the
    hand), and the play. The runner plays each probe, checks the step and
    counts whether the card ended the round there: every card of the plugin is
    so tried as a last card in each phase it is legal in, however rarely a game
    keeps it to the end."""
    if state.is_over:
        return []
    seat = state.current_player
    hand = state.hands[seat]
    if len(hand) < 2:
        return []  # a real last card: the game itself plays it
    # (A two-card hand is rearranged too: into the card alone.)
    wanted = frozenset(kinds)
    found: list[tuple[GameState, Action]] = []
    tried: set[str] = set()
    for action in state.legal_actions(seat):
        card = action.card
        if action.verb != "play" or card is None or card.kind in tried or card.kind not in wanted:
            continue
        if card not in hand:
            continue
        tried.add(card.kind)
        rest = list(hand)
        rest.remove(card)
        mates = [c for c in rest if card.color is not None and c.color is card.color]
        # The card alone; and with one other card of its colour (an effect that
        # takes such cards along empties the hand: going out on its effect).
        for kept in ([card], [card, mates[0]] if mates else None):
            if kept is None:
                continue
            try:
                position = rearranged(state, hands={seat: kept})
            except ValueError:
                continue
            position = position.replace(
                uno_declared=tuple(s for s in position.uno_declared if s != seat),
                uno_exposed=tuple(s for s in position.uno_exposed if s != seat),
            )
            if position.is_legal(action):
                found.append((position, action))
    return found


def drawn_card_positions(state: GameState, kinds: Iterable[str]) -> list[tuple[GameState, Action]]:
    """Drawn-card probes: for each of ``kinds`` with a copy outside the hand
    of the seat to move, when that seat may draw for its turn, the position
    after it drew that card (put on top of the draw pile first), if the rule
    set then lets it play the card at once, and that play: the plugin's card
    played in the phase a drawn card is played in (classic's ``drawn``),
    with the rest of the hand still held."""
    if state.is_over:
        return []
    seat = state.current_player
    draw = Action.of(seat, "draw")
    if not state.is_legal(draw):
        return []
    hand = state.hands[seat]
    found: list[tuple[GameState, Action]] = []
    for kind in sorted(set(kinds)):
        # A copy of the colour in play (else any), so the card drawn may be played.
        spare = sorted(
            (c for c in state.draw_pile if c.kind == kind), key=lambda c: c.color is not state.color
        )
        if not spare or any(c.kind == kind for c in hand):
            continue
        try:
            position = rearranged(state, draw=[spare[0]])
            drawn = position.apply(draw)
        except Exception:
            continue  # the draw itself is checked where the game draws
        if drawn.current_player != seat or not drawn.hands[seat] or drawn.hands[seat][-1] is not spare[0]:
            continue
        plays = [a for a in drawn.legal_actions(seat) if a.verb == "play" and a.card is spare[0]]
        if plays:
            found.append((drawn, plays[0]))
    return found


def situation_positions(state: GameState, kinds: Iterable[str]) -> list[tuple[GameState, Action]]:
    """Situation probes: for each card of ``kinds``, a play of it by the seat to
    move in ``state`` (a position in a situation a game mode made, such as a
    seat having left): the play of a card of the kind it holds, if legal; else
    the same position with a copy from the draw pile added to its hand (a copy
    of the colour in play first; its UNO call used), if the rule set then lets
    it play that card. The runner plays each and checks the step: a card of
    the plugin is so played where a mode changed the table, however rarely a
    game brings the two together."""
    if state.is_over:
        return []
    seat = state.current_player
    hand = state.hands[seat]
    legal = state.legal_actions(seat)
    found: list[tuple[GameState, Action]] = []
    for kind in sorted(set(kinds)):
        held = [a for a in legal if a.verb == "play" and a.card is not None and a.card.kind == kind]
        if held:
            found.append((state, held[0]))
            continue
        spare = sorted(
            (c for c in state.draw_pile if c.kind == kind), key=lambda c: c.color is not state.color
        )
        if not spare:
            continue
        card = spare[0]
        try:
            position = rearranged(state, hands={seat: [*hand, card]})
        except ValueError:
            continue
        position = position.replace(
            uno_declared=tuple(s for s in position.uno_declared if s != seat),
            uno_exposed=tuple(s for s in position.uno_exposed if s != seat),
        )
        plays = [a for a in position.legal_actions(seat) if a.verb == "play" and a.card is card]
        if plays:
            found.append((position, plays[0]))
    return found

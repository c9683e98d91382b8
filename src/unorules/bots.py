"""Bots that play unorules games, and a driver that lets them play.

A *bot* is any object with a ``name`` and a method
``choose(view) -> Action | None`` (the :class:`Bot` protocol). It receives
the :class:`~unorules.SeatView` of its seat (``state.view(seat)``: its own
hand, hand sizes, the discard pile, the pending decision, hands shown to it,
and what every player knows, such as the rule set in ``view.rules``), so it
cannot see what its seat may not. It returns one of ``view.legal_actions``,
or ``None`` to let the moment pass; it must return an action when its seat is
the seat to move. Because UNO calls, catches, jump-ins and (with some
options) challenges may be made out of turn, a driver asks every seat that
has legal actions, not only the current player: :func:`next_action` does
that in the order of ``state.seats_to_act()``, and :func:`play_game` plays a
whole game. Each bot draws its randomness from its own
:class:`random.Random`, so a seeded bot plays the same game every time.

>>> import unorules
>>> from unorules.bots import HeuristicBot, RandomBot, play_game
>>> rules = unorules.Ruleset.from_names(["classic"], options={"target_score": 100})
>>> state = rules.new_game(players=2, seed=3)
>>> final = play_game(state, [HeuristicBot(seed=1), RandomBot(seed=2)])
>>> final.is_over
True
"""

from __future__ import annotations

import operator
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, SupportsIndex

from unorules.actions import Action
from unorules.cards import COLORS, Card, Color, kind_info
from unorules.errors import UnorulesError
from unorules.ruleset import Ruleset
from unorules.state import GameState, SeatView

__all__ = [
    "BOTS",
    "Bot",
    "BotError",
    "HeuristicBot",
    "RandomBot",
    "make_bot",
    "next_action",
    "play_game",
]

Seed = int | str | random.Random | SupportsIndex | None


def _rng(seed: Seed) -> random.Random:
    if isinstance(seed, random.Random):
        return seed
    if seed is not None and not isinstance(seed, int | str):
        seed = operator.index(seed)  # a numpy integer, say
    return random.Random(seed)


class BotError(UnorulesError, ValueError):
    """A bot chose an action it may not take: another seat's action, an action
    that is not legal now, or nothing when its seat must move."""


class Bot(Protocol):
    """What a driver needs from a bot."""

    name: str
    """A short name for tables and logs (``"random"``, ``"heuristic"``)."""

    def choose(self, view: SeatView) -> Action | None:
        """One of ``view.legal_actions``, or ``None`` to let the moment pass
        (allowed only when ``view.seat`` is not the seat to move)."""
        ...


class RandomBot:
    """Plays a uniformly random legal action.

    On its turn it picks any of its legal actions. Out of turn (a UNO call or
    catch, a jump-in) it acts with probability ``eagerness``, picking any of
    its actions. It is the baseline the other bots are measured against.
    ``seed`` seeds its choices.
    """

    name = "random"
    """Its name in :data:`BOTS`."""

    def __init__(self, seed: Seed = None, eagerness: float = 0.5) -> None:
        self.rng = _rng(seed)
        self.eagerness = eagerness

    def __repr__(self) -> str:
        return f"RandomBot(eagerness={self.eagerness})"

    def choose(self, view: SeatView) -> Action | None:
        """A random legal action of the view's seat (see the class docstring)."""
        actions = view.legal_actions
        if not actions:
            return None
        if view.current_player != view.seat and self.rng.random() >= self.eagerness:
            return None
        return self.rng.choice(actions)


class HeuristicBot:
    """Plays sensibly from what its seat may see.

    * calls UNO whenever it may (R-UNO-CALL, late: R-UNO-SELF) and catches
      every seat it may catch (R-UNO-CATCH, and R-PEN-ILLEGAL's illegal plays),
      except its partner; it never reports coaching nobody did (R-PEN-COACH)
      and never plays a card that does not match, even where the table
      enforcement would let it try (R-PEN-ILLEGAL);
    * keeps wild cards for when nothing else can be played, never bluffs a
      Wild Draw Four, and prefers a Wild Draw Four to a Wild when both are
      honest (R-TURN-WILD, R-TURN-WD4);
    * plays high-point cards early (action cards, high numbers), favouring the
      colour it holds most of, and hits the next seat with Skips and Draw
      cards when that seat is close to going out;
    * names the colour it holds most of when playing a wild;
    * challenges a Wild Draw Four when the odds that its player held a card of
      the previous colour (a hypergeometric estimate over the cards it has
      not seen) make challenging cheaper on average than accepting
      (R-CHALLENGE);
    * uses house rules when enabled: adds to a stack rather than drawing,
      jumps in with an identical card, aims hand swaps at the opponent
      holding the fewest cards, and answers the customizable wilds' effects
      (crows rather than drawing, discards its most expensive cards, keeps a
      wild).

    It won all of 1000 seeded heads-up games against :class:`RandomBot` (99% of
    the rounds) and 88% of 500 against a bot that plays the first card it may
    (see the *Bots* page of the documentation). ``seed`` seeds the choices it
    makes at random (which of equal cards, when to act out of turn).
    """

    name = "heuristic"
    """Its name in :data:`BOTS`."""

    def __init__(self, seed: Seed = None) -> None:
        self.rng = _rng(seed)
        self._deck: tuple[Ruleset, Counter[Card]] | None = None

    def __repr__(self) -> str:
        return "HeuristicBot()"

    # -- the decision -------------------------------------------------------------

    def choose(self, view: SeatView) -> Action | None:
        """The action this bot takes as the view's seat, or ``None`` out of turn."""
        actions = view.legal_actions
        seat = view.seat
        if not actions or seat is None:
            return None
        rules = view.rules  # public knowledge: the deck, card points, options
        partner = _partner(view, seat)
        my_turn = view.current_player == seat
        plays: list[Action] = []
        by_verb: dict[str, list[Action]] = {}
        for action in actions:
            if action.verb == "play":
                plays.append(action)
            else:
                by_verb.setdefault(action.verb, []).append(action)
        if "uno" in by_verb:  # R-UNO-CALL / R-UNO-SELF: always call
            return by_verb["uno"][0]
        for verb in ("catch", "catch_play"):
            for catch in by_verb.get(verb, ()):
                if catch.target != partner:  # R-UNO-CATCH; R-PEN-ILLEGAL: a caught illegal play
                    return catch
        if not my_turn:
            return self._out_of_turn(view, rules, plays, by_verb)
        if "challenge" in by_verb and "accept" in by_verb:
            # R-STACK: passing the Wild Draw Four on beats challenging or drawing it.
            stack = self._best_play(view, rules, plays, partner, keep_wild=False) if plays else None
            if stack is not None:
                return stack
            return by_verb["challenge"][0] if self._should_challenge(view, rules) else by_verb["accept"][0]
        if plays:
            # With table enforcement (R-PEN-ILLEGAL) non-matching plays are listed
            # too; a sensible player makes only the plays the rules allow.
            matching = [a for a in plays if _matches(a.card, view)]
            if matching or not ({"draw", "pass"} & by_verb.keys()):
                chosen = matching or plays
                best = self._best_play(view, rules, chosen, partner, keep_wild=view.phase.name == "drawn")
                if best is not None:
                    return best
        special = self._card_effect_choice(view, rules, by_verb, partner)
        if special is not None:
            return special
        for verb in ("draw", "pass", "accept"):
            if verb in by_verb:
                return by_verb[verb][0]
        if "color" in by_verb:
            wanted = self._favourite_color(view.hand, rules)
            for action in by_verb["color"]:
                if action.color is wanted:
                    return action
        if plays:
            return plays[0]
        # A plugin's own verb the bot does not know: any of them.
        return self.rng.choice(actions)

    def _out_of_turn(
        self, view: SeatView, rules: Ruleset, plays: list[Action], by_verb: dict[str, list[Action]]
    ) -> Action | None:
        # R-JUMP: jumping in with an identical coloured card sheds a card and takes the turn.
        for action in plays:
            card = action.card
            if card is not None and card.color is not None:
                return action
        if "challenge" in by_verb and view.phase.name == "challenge":
            # A bystander's failed challenge costs it 6 cards for no gain of its own.
            p = self._guilt_probability(view, rules)
            if p is not None and p > 0.8:
                return by_verb["challenge"][0]
        return None

    def _card_effect_choice(
        self, view: SeatView, rules: Ruleset, by_verb: dict[str, list[Action]], partner: int | None
    ) -> Action | None:
        """Answers to the customizable wilds' effects (R-CUSTOM, plugin custom-wilds)."""
        if "crow" in by_verb:
            return by_verb["crow"][0]  # C10: crowing beats drawing 4
        if "nolaugh" in by_verb and "laughed" in by_verb:
            # C8: the judge's answer; "nobody laughed" makes the teller draw 4.
            return by_verb["laughed" if view.phase.seat == partner else "nolaugh"][0]
        if "keep" in by_verb:
            # C8: keep the card most likely to be playable: a wild, else the most held colour.
            held: Counter[Color | None] = Counter(c.color for c in view.hand if c.color is not None)
            return max(by_verb["keep"], key=lambda a: _keep_value(a.card, held))
        if "discard" in by_verb:
            # C5/C6: shed the most expensive card, wilds last.
            return max(by_verb["discard"], key=lambda a: _discard_value(a.card, rules))
        return None

    # -- choosing a card -------------------------------------------------------------

    def _best_play(
        self, view: SeatView, rules: Ruleset, plays: list[Action], partner: int | None, keep_wild: bool
    ) -> Action | None:
        hand = view.hand
        seat = _own_seat(view)
        n = len(view.hand_sizes)
        sizes = view.hand_sizes
        nxt = _next_seat(view, seat)
        next_close = nxt != partner and sizes[nxt] <= 2
        held = Counter(c.color for c in hand if c.color is not None)
        has_current = view.color is not None and held[view.color] > 0
        best: tuple[float, Card] | None = None
        seen: set[Card] = set()
        for action in plays:
            card = action.card
            if card is None or card in seen:
                continue
            seen.add(card)
            score = self._score(card, view, rules, held, has_current, next_close, partner)
            if score is None:
                continue
            if keep_wild and card.color is None and len(hand) > 2 and not next_close:
                continue  # a drawn wild is worth more kept for later
            if best is None or score > best[0]:
                best = (score, card)
        if best is None:
            return None
        card = best[1]
        options = [a for a in plays if a.card is card]
        color: Color | None = None
        if card.color is None:
            rest = list(hand)
            rest.remove(card)
            color = self._favourite_color(rest, rules)
        target = _best_target(view, partner, n) if any(a.target is not None for a in options) else None
        for action in options:
            if (action.color is None or action.color is color) and action.target in (None, target):
                return action
        return options[0]

    def _score(
        self,
        card: Card,
        view: SeatView,
        rules: Ruleset,
        held: Counter[Color],
        has_current: bool,
        next_close: bool,
        partner: int | None,
    ) -> float | None:
        hand = view.hand
        if len(hand) == 1:
            return 1000.0  # R-OUT: the last card goes out
        kind = card.kind
        if card.color is None:
            if kind == "W+4":
                if has_current:
                    return None  # R-TURN-WD4: never bluff
                score = -50.0 + (60.0 if next_close else 0.0)
            elif kind == "W":
                score = -60.0
            else:
                score = -55.0  # a plugin's special wild
        else:
            score = float(rules.card_points(card)) + 3.0 * (held[card.color] - 1)
            if next_close and kind in ("S", "+2", "R"):
                score += 40.0
        if view.phase.name in ("penalty", "challenge"):
            score += 100.0  # adding to a stack (R-STACK) beats drawing it
        swap = _swap_gain(card, view, rules.names, partner)
        if swap is not None:
            score += 4.0 * swap
        return score

    def _favourite_color(self, hand: Sequence[Card], rules: Ruleset) -> Color:
        counts: Counter[Color] = Counter()
        points: Counter[Color] = Counter()
        for card in hand:
            if card.color is not None:
                counts[card.color] += 1
                points[card.color] += rules.card_points(card)
        if not counts:
            return self.rng.choice(COLORS)
        return max(COLORS, key=lambda c: (counts[c], points[c]))

    # -- the Wild Draw Four challenge ---------------------------------------------------

    def _should_challenge(self, view: SeatView, rules: Ruleset) -> bool:
        # R-CHALLENGE: challenging costs count + 2 cards when the player was innocent
        # and nothing when guilty; accepting costs count. Challenge when
        # (1 - p) * (count + 2) < count, p the chance the player held the colour.
        p = self._guilt_probability(view, rules)
        if p is None:
            return False
        count = view.phase.count or 4
        return (1.0 - p) * (count + 2) < count

    def _guilt_probability(self, view: SeatView, rules: Ruleset) -> float | None:
        phase = view.phase
        bluffer = phase.seat
        color = phase.color
        if bluffer is None or color is None:
            return None
        shown = view.visible_hands.get(bluffer)
        if shown is not None:
            return 1.0 if any(c.color is color for c in shown) else 0.0
        unseen = self._deck_counts(rules).copy()
        unseen.subtract(view.hand)
        unseen.subtract(view.discard_pile)
        for other, cards in view.visible_hands.items():
            if other != view.seat:
                unseen.subtract(cards)
        total = sum(n for n in unseen.values() if n > 0)
        of_color = sum(n for c, n in unseen.items() if n > 0 and c.color is color)
        k = view.hand_sizes[bluffer]
        if total <= 0 or k <= 0:
            return 0.0
        none = 1.0
        for i in range(k):
            if total - i <= 0:
                break
            none *= max(0.0, (total - of_color - i) / (total - i))
        return 1.0 - none

    def _deck_counts(self, rules: Ruleset) -> Counter[Card]:
        # The deck's composition is public: every player knows the rule set.
        cached = self._deck
        if cached is None or cached[0] is not rules:
            cached = self._deck = (rules, Counter(rules.deck))
        return cached[1]


def _keep_value(card: Card | None, held: Counter[Color | None]) -> tuple[bool, int]:
    if card is None:
        return (False, -1)
    return (card.color is None, held[card.color])


def _discard_value(card: Card | None, rules: Ruleset) -> tuple[bool, int]:
    if card is None:
        return (False, -1)
    return (card.color is not None, rules.card_points(card))


def _matches(card: Card | None, view: SeatView) -> bool:
    """Whether ``card`` matches the top card by colour, number or symbol, or is a wild (R-TURN-MATCH)."""
    if card is None or card.color is None:
        return True
    return card.color is view.color or card.kind == view.top_card.kind


def _next_seat(view: SeatView, seat: int) -> int:
    n = len(view.hand_sizes)
    left = view.left
    nxt = (seat + view.direction) % n
    while left and nxt in left:
        nxt = (nxt + view.direction) % n
    return nxt


def _partner(view: SeatView, seat: int) -> int | None:
    """The seat across the table in a partners game (R-TEAM), else ``None``."""
    if view.players != 4 or "partners" not in view.rules.names:
        return None
    return (seat + 2) % 4


def _own_seat(view: SeatView) -> int:
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat to play for")
    return seat


def _best_target(view: SeatView, partner: int | None, n: int) -> int | None:
    seat = _own_seat(view)
    candidates = [s for s in range(n) if s != seat and s not in view.left and s != partner]
    if not candidates:
        candidates = [s for s in range(n) if s != seat and s not in view.left]
    if not candidates:
        return None
    return min(candidates, key=lambda s: (view.hand_sizes[s], (s - seat) % n))


def _swap_gain(card: Card, view: SeatView, names: tuple[str, ...], partner: int | None) -> float | None:
    """Cards the player would shed by a hand exchange that ``card`` causes, if any.

    A card that names a target (Swap Hands, a 7 under 7-0) trades hands with
    that target; a 0 under 7-0 passes every hand on (R-SEVEN-O); Shuffle
    Hands deals all cards out evenly (R-SHUFFLE).
    """
    sizes = view.hand_sizes
    mine = len(view.hand) - 1
    info_name = kind_info(card.kind).name.lower()
    if "shuffle" in info_name:
        active = [s for s in range(len(sizes)) if s not in view.left]
        total = sum(sizes[s] for s in active) - 1
        return mine - total / len(active)
    if "seven-o" in names and card.number == 0:
        n = len(sizes)
        previous = (_own_seat(view) - view.direction) % n
        while view.left and previous in view.left:
            previous = (previous - view.direction) % n
        return float(mine - sizes[previous])
    if "swap" in info_name or ("seven-o" in names and card.number == 7):
        target = _best_target(view, partner, len(sizes))
        return None if target is None else float(mine - sizes[target])
    return None


BOTS: Mapping[str, Callable[[Seed], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
"""The bots known by name to :func:`make_bot` and the command line."""


def make_bot(name: str, seed: Seed = None) -> Bot:
    """A new bot of the kind ``name`` (a key of :data:`BOTS`), seeded with ``seed``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
    return factory(seed)


def next_action(state: GameState, bots: Sequence[Bot]) -> Action:
    """The next action of a game played by ``bots`` (one per seat).

    Each bot is handed its seat's view (``state.view(seat)``), never the
    state. The seats are asked in the order of
    :meth:`~unorules.GameState.seats_to_act`: those that may act out of turn
    first (the first that acts is taken), then the current player's bot,
    which must choose. If the current player has no legal action (a plugin's phase in
    which another seat must act) and nobody volunteers, the first legal action
    is taken, so a game always moves on.

    :raises BotError: when a bot chooses another seat's action, an action that
        is not legal now, or nothing on its turn.
    """
    seats = state.seats_to_act()
    if not seats:
        raise ValueError("the game is over: there is no next action")
    current = state.current_player
    for seat in seats:
        if seat != current:
            chosen = _ask(bots[seat], state, seat)
            if chosen is not None:
                return chosen
    if current not in seats:  # the seat to move has no action and nobody volunteered
        return state.legal_actions()[0]
    chosen = _ask(bots[current], state, current)
    if chosen is None:
        raise BotError(f"bot {bots[current].name!r} of seat {current} chose nothing on its turn")
    return chosen


def _ask(bot: Bot, state: GameState, seat: int) -> Action | None:
    """``bot``'s choice from ``seat``'s view, checked."""
    view = state.view(seat)
    chosen = bot.choose(view)
    if chosen is None:
        return None
    if not isinstance(chosen, Action):
        raise BotError(f"bot {bot.name!r} of seat {seat} chose {chosen!r}, which is not an Action")
    if chosen.seat != seat:
        raise BotError(
            f"bot {bot.name!r} of seat {seat} chose {chosen}, an action of seat {chosen.seat}: "
            "a bot acts only for its own seat"
        )
    if chosen not in view.legal_actions:
        allowed = ", ".join(map(str, view.legal_actions))
        raise BotError(
            f"bot {bot.name!r} of seat {seat} chose {chosen}, which is not legal now; it may: {allowed}"
        )
    return chosen


def play_game(
    state: GameState,
    bots: Sequence[Bot],
    *,
    max_actions: int = 1_000_000,
    on_action: Callable[[GameState], None] | None = None,
) -> GameState:
    """Play ``state`` to the end of the game with ``bots``, one per seat; return the final state.

    ``on_action`` is called with every new state. A game that has not ended
    after ``max_actions`` actions raises ``RuntimeError`` (a plugin that never
    ends a round).
    """
    if len(bots) != state.players:
        raise ValueError(f"{len(bots)} bots for a {state.players}-seat game: give one bot per seat")
    for _ in range(max_actions):
        if state.is_over:
            return state
        state = state.apply(next_action(state, bots))
        if on_action is not None:
            on_action(state)
    if state.is_over:
        return state
    raise RuntimeError(f"the game did not end within {max_actions} actions")

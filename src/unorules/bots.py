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

A bot that follows the game between its turns (what it knows of the cards,
:mod:`unorules.knowledge`) also has a method ``observe(view)``: drivers show
it its seat's view of every new state (:func:`show_views`), whether or not
it may act. :func:`next_action` does, so every driver built on it does.

Bots are made by name (:func:`make_bot`, the command line): ``random``,
``greedy``, ``heuristic`` and ``search`` (:mod:`unorules.search`), a search
bot with another budget (``search:20ms``, ``search:400``), and a program
speaking the bot protocol (``cmd:node mybot.js``, :mod:`unorules.protocol`).

>>> import unorules
>>> from unorules.bots import HeuristicBot, RandomBot, play_game
>>> rules = unorules.Ruleset.from_names(["classic"], options={"target_score": 100})
>>> state = rules.new_game(players=2, seed=3)
>>> final = play_game(state, [HeuristicBot(seed=1), RandomBot(seed=2)])
>>> final.is_over
True
"""

from __future__ import annotations

import importlib
import operator
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from typing import Any, Protocol, SupportsIndex

import attrs

from unorules.actions import Action
from unorules.cards import COLORS, Card, Color, kind_info
from unorules.errors import UnorulesError, nearest
from unorules.ruleset import Ruleset
from unorules.state import GameState, Phase, SeatView

__all__ = [
    "BOTS",
    "BOT_KINDS",
    "Bot",
    "BotError",
    "GreedyBot",
    "HeuristicBot",
    "RandomBot",
    "check_bot_name",
    "check_choice",
    "make_bot",
    "next_action",
    "play_game",
    "register_bot",
    "show_views",
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
    """What a driver needs from a bot.

    A bot may also have ``observe(view) -> None``: drivers then show it its
    seat's view of every new state, before asking it anything
    (:func:`show_views`); the same view may be shown twice.
    """

    name: str
    """A short name for tables and logs (``"random"``, ``"heuristic"``)."""

    def choose(self, view: SeatView) -> Action | None:
        """One of ``view.legal_actions``, or ``None`` to let the moment pass
        (allowed only when ``view.seat`` is not the seat to move)."""
        ...


class Table(Protocol):
    """What :class:`HeuristicBot` reads of a moment of the game: a
    :class:`~unorules.SeatView`, or a seat's look at a state inside a search
    (:meth:`HeuristicBot.choose_in`)."""

    @property
    def seat(self) -> int | None:
        """The seat whose look it is."""

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """The seat's legal actions now."""

    @property
    def rules(self) -> Ruleset:
        """The rule set."""

    @property
    def hand(self) -> tuple[Card, ...]:
        """The seat's hand."""

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""

    @property
    def visible_hands(self) -> Mapping[int, tuple[Card, ...]]:
        """The other hands the seat may see, by seat."""

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, its top card last."""

    @property
    def top_card(self) -> Card:
        """The top card of the discard pile."""

    @property
    def color(self) -> Color | None:
        """The colour to match."""

    @property
    def direction(self) -> int:
        """The direction of play (1 or -1)."""

    @property
    def current_player(self) -> int:
        """The seat to move."""

    @property
    def phase(self) -> Phase:
        """The decision the game waits for."""

    @property
    def left(self) -> tuple[int, ...]:
        """The seats that left the game."""

    @property
    def players(self) -> int:
        """The number of seats."""


class _SeatOf:
    """A seat's look at a state, read as a view (:class:`Table`) without building
    one: what a policy inside a search reads. It holds the state, so it shows
    what a view would (the seat's hand, hand sizes, hands shown to it), never
    other hands, unless asked for ``visible_hands``, which it asks the rule set."""

    __slots__ = ("legal_actions", "seat", "state")

    def __init__(self, state: GameState, seat: int, legal: tuple[Action, ...]) -> None:
        self.state = state
        self.seat = seat
        self.legal_actions = legal

    @property
    def rules(self) -> Ruleset:
        return self.state.ruleset

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.state.hands[self.seat]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(map(len, self.state.hands))

    @property
    def visible_hands(self) -> Mapping[int, tuple[Card, ...]]:
        state = self.state
        shown = {self.seat: state.hands[self.seat]}
        for other in state.ruleset.visible_hands(state, self.seat):
            shown[other] = state.hands[other]
        return shown

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        return self.state.discard_pile

    @property
    def top_card(self) -> Card:
        return self.state.discard_pile[-1]

    @property
    def color(self) -> Color | None:
        return self.state.color

    @property
    def direction(self) -> int:
        return self.state.direction

    @property
    def current_player(self) -> int:
        return self.state.current_player

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def left(self) -> tuple[int, ...]:
        return self.state.left

    @property
    def players(self) -> int:
        return len(self.state.hands)


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


class GreedyBot:
    """Calls UNO and catches whenever it may, then plays the first card it may,
    else draws (or accepts, or keeps a drawn card). Deterministic: the step
    between the random bot and the heuristic one; ``seed`` is accepted, as
    every bot's, and unused."""

    name = "greedy"
    """The bot's name (``make_bot("greedy")``)."""

    def __init__(self, seed: Seed = None) -> None:
        del seed  # needs no randomness

    def __repr__(self) -> str:
        return "GreedyBot()"

    def choose(self, view: SeatView) -> Action | None:
        """The first legal action of the view's seat in the order above, or ``None`` out of turn."""
        actions = view.legal_actions
        for verb in ("uno", "catch"):
            for action in actions:
                if action.verb == verb:
                    return action
        if view.current_player != view.seat or not actions:
            return None
        for verb in ("play", "draw", "accept", "pass"):
            for action in actions:
                if action.verb == verb:
                    return action
        return actions[0]


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
        return self.decide(view)

    def choose_in(
        self, state: GameState, seat: int, legal: tuple[Action, ...] | None = None
    ) -> Action | None:
        """The action this bot would take as ``seat`` in ``state``, reading only
        what ``seat``'s view shows but without building the view (except for a
        deck of two-faced cards, whose view shows the faces the actions name):
        the policy of a search's playouts. ``legal`` is ``seat``'s legal
        actions, if known."""
        if state.ruleset.two_faced:
            # a view shows the faces its actions name; a state holds the cards
            return self.decide(state.view(seat))
        if legal is None:
            legal = state.legal_actions(seat)
        return self.decide(_SeatOf(state, seat, legal))

    def decide(self, view: Table) -> Action | None:
        """The action this bot takes in ``view`` (a :class:`~unorules.SeatView` or
        any :class:`Table`), or ``None`` out of turn."""
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
            color = view.color
            top = view.top_card.kind
            matching = [a for a in plays if _matches(a.card, color, top)]
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
        self, view: Table, rules: Ruleset, plays: list[Action], by_verb: dict[str, list[Action]]
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
        self, view: Table, rules: Ruleset, by_verb: dict[str, list[Action]], partner: int | None
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
        self, view: Table, rules: Ruleset, plays: list[Action], partner: int | None, keep_wild: bool
    ) -> Action | None:
        hand = view.hand
        seat = _own_seat(view)
        sizes = view.hand_sizes
        n = len(sizes)
        facts = _facts(rules)
        points = facts.points
        nxt = _next_seat(view, seat)
        next_close = nxt != partner and sizes[nxt] <= 2
        held: dict[Color, int] = {}
        for c in hand:
            color = c.color
            if color is not None:
                held[color] = held.get(color, 0) + 1
        current = view.color
        has_current = current is not None and held.get(current, 0) > 0
        stacking = view.phase.name in ("penalty", "challenge")
        last = len(hand) == 1
        keeps = keep_wild and len(hand) > 2 and not next_close
        best: tuple[float, Card] | None = None
        seen: set[Card] = set()
        for action in plays:
            card = action.card
            if card is None or card in seen:
                continue
            seen.add(card)
            color = card.color
            if last:
                score = 1000.0  # R-OUT: the last card goes out
            else:
                kind = card.kind
                if color is None:
                    if kind == "W+4":
                        if has_current:
                            continue  # R-TURN-WD4: never bluff
                        score = 10.0 if next_close else -50.0
                    elif kind == "W":
                        score = -60.0
                    else:
                        score = -55.0  # a plugin's special wild
                else:
                    score = float(points[card]) + 3.0 * (held[color] - 1)
                    if next_close and kind in ("S", "+2", "R"):
                        score += 40.0
                if stacking:
                    score += 100.0  # adding to a stack (R-STACK) beats drawing it
                effect = facts.swaps.get(card)
                if effect is not None:
                    swap = _swap_gain(effect, view, sizes, len(hand), partner)
                    if swap is not None:
                        score += 4.0 * swap
            if keeps and color is None:
                continue  # a drawn wild is worth more kept for later
            if best is None or score > best[0]:
                best = (score, card)
        if best is None:
            return None
        card = best[1]
        options = [a for a in plays if a.card is card]
        wanted: Color | None = None
        if card.color is None:
            rest = list(hand)
            rest.remove(card)
            wanted = self._favourite_color(rest, rules)
        target = _best_target(view, partner, n) if any(a.target is not None for a in options) else None
        for action in options:
            if (action.color is None or action.color is wanted) and action.target in (None, target):
                return action
        return options[0]

    def _favourite_color(self, hand: Sequence[Card], rules: Ruleset) -> Color:
        counts: Counter[Color] = Counter()
        points: Counter[Color] = Counter()
        for card in hand:
            if card.color is not None:
                counts[card.color] += 1
                points[card.color] += rules.card_points(card)
        if not counts:
            return self.rng.choice(COLORS)
        # The dark side of a two-faced deck names colours of its own (register_color).
        palette = COLORS if any(c in counts for c in COLORS) else tuple(counts)
        return max(palette, key=lambda c: (counts[c], points[c]))

    # -- the Wild Draw Four challenge ---------------------------------------------------

    def _should_challenge(self, view: Table, rules: Ruleset) -> bool:
        # R-CHALLENGE: challenging costs count + 2 cards when the player was innocent
        # and nothing when guilty; accepting costs count. Challenge when
        # (1 - p) * (count + 2) < count, p the chance the player held the colour.
        p = self._guilt_probability(view, rules)
        if p is None:
            return False
        count = view.phase.count or 4
        return (1.0 - p) * (count + 2) < count

    def _guilt_probability(self, view: Table, rules: Ruleset) -> float | None:
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


def _matches(card: Card | None, color: Color | None, top: str) -> bool:
    """Whether ``card`` matches the colour ``color`` or the top card's kind ``top``,
    or is a wild (R-TURN-MATCH)."""
    if card is None or card.color is None:
        return True
    return card.color is color or card.kind == top


def _next_seat(view: Table, seat: int) -> int:
    n = len(view.hand_sizes)
    left = view.left
    nxt = (seat + view.direction) % n
    while left and nxt in left:
        nxt = (nxt + view.direction) % n
    return nxt


def _partner(view: Table, seat: int) -> int | None:
    """The seat across the table in a partners game (R-TEAM), else ``None``."""
    if view.players != 4 or not _facts(view.rules).partners:
        return None
    return (seat + 2) % 4


def _own_seat(view: Table) -> int:
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat to play for")
    return seat


def _best_target(view: Table, partner: int | None, n: int) -> int | None:
    seat = _own_seat(view)
    candidates = [s for s in range(n) if s != seat and s not in view.left and s != partner]
    if not candidates:
        candidates = [s for s in range(n) if s != seat and s not in view.left]
    if not candidates:
        return None
    return min(candidates, key=lambda s: (view.hand_sizes[s], (s - seat) % n))


@attrs.frozen
class _Facts:
    """What the heuristic bot needs to know of a rule set, worked out once."""

    points: Mapping[Card, int]
    """Every card's points."""
    partners: bool
    """Whether seats across the table play as partners (R-TEAM)."""
    swaps: Mapping[Card, str]
    """The cards whose play exchanges hands: ``"shuffle"`` (Shuffle Hands,
    R-SHUFFLE), ``"pass"`` (a 0 under 7-0) or ``"trade"`` (Swap Hands, a 7
    under 7-0, R-SEVEN-O)."""


def _facts(rules: Ruleset) -> _Facts:
    key = ("unorules.bots", "heuristic")
    found: _Facts | None = rules.cache.get(key)
    if found is None:
        names = rules.names
        seven_o = "seven-o" in names
        swaps: dict[Card, str] = {}
        # A seat sees the faces of two-faced cards (Card.faces), never the cards.
        cards = list(dict.fromkeys(face for card in rules.deck for face in (card.faces or (card,))))
        for card in cards:
            info_name = kind_info(card.kind).name.lower()
            if "shuffle" in info_name:
                swaps[card] = "shuffle"
            elif seven_o and card.number == 0:
                swaps[card] = "pass"
            elif "swap" in info_name or (seven_o and card.number == 7):
                swaps[card] = "trade"
        points = {card: rules.card_points(card) for card in cards}
        found = rules.cache[key] = _Facts(points, "partners" in names, swaps)
    return found


def _swap_gain(
    effect: str, view: Table, sizes: tuple[int, ...], held: int, partner: int | None
) -> float | None:
    """Cards the player would shed by the hand exchange ``effect`` (see
    :attr:`_Facts.swaps`) of the card it plays from ``held`` cards.

    A card that names a target (Swap Hands, a 7 under 7-0) trades hands with
    that target; a 0 under 7-0 passes every hand on (R-SEVEN-O); Shuffle
    Hands deals all cards out evenly (R-SHUFFLE).
    """
    mine = held - 1
    if effect == "shuffle":
        active = [s for s in range(len(sizes)) if s not in view.left]
        total = sum(sizes[s] for s in active) - 1
        return mine - total / len(active)
    if effect == "pass":
        n = len(sizes)
        previous = (_own_seat(view) - view.direction) % n
        while view.left and previous in view.left:
            previous = (previous - view.direction) % n
        return float(mine - sizes[previous])
    target = _best_target(view, partner, len(sizes))
    return None if target is None else float(mine - sizes[target])


class _Registry(MutableMapping[str, Callable[..., Bot]]):
    """Bot factories by name; an entry may be the import path ``"module:name"``
    of a factory, imported when first asked for (a bot of an upper layer, such
    as the search bot, is known by name without this module importing it).
    Entries may be set and deleted like a dict's (``BOTS["mine"] = MyBot``,
    as a test's ``monkeypatch.setitem`` does) or added with :meth:`add`."""

    def __init__(self, entries: Mapping[str, Callable[..., Bot] | str]) -> None:
        self._entries: dict[str, Callable[..., Bot] | str] = dict(entries)

    def __getitem__(self, name: str) -> Callable[..., Bot]:
        entry = self._entries[name]
        if isinstance(entry, str):
            module, _, attribute = entry.partition(":")
            found: Any = importlib.import_module(module)
            for part in attribute.split("."):
                found = getattr(found, part)
            entry = self._entries[name] = found
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<bots {', '.join(self._entries)}>"

    def __setitem__(self, name: str, factory: Callable[..., Bot] | str) -> None:
        self._entries[name] = factory

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def add(self, name: str, factory: Callable[..., Bot] | str) -> None:
        self[name] = factory


BOTS: Mapping[str, Callable[[Seed], Bot]] = _Registry(
    {
        "random": RandomBot,
        "greedy": GreedyBot,
        "heuristic": HeuristicBot,
        "search": "unorules.search:SearchBot",
    }
)
"""The bots known by name to :func:`make_bot` and the command line, each a
factory taking a seed: ``random``, ``greedy``, ``heuristic`` and ``search``
(:class:`unorules.search.SearchBot` with its default budget), and any bot
added with :func:`register_bot`."""

BOT_KINDS: Mapping[str, Callable[[Seed, str], Bot]] = _Registry(
    {
        "search": "unorules.search:SearchBot.from_argument",
        "cmd": "unorules.protocol:CommandBot.from_argument",
    }
)
"""Bots made from a name with an argument, ``"KIND:ARGUMENT"``: ``search:20ms``
(a search bot with 20 ms a decision), ``search:400`` (400 playouts a decision),
``cmd:node mybot.js`` (a program speaking the bot protocol, :mod:`unorules.protocol`).
Each is a factory taking a seed and the argument."""


def register_bot(name: str, factory: Callable[[Seed], Bot] | str) -> None:
    """Make ``factory`` (taking a seed; or its import path ``"module:name"``)
    known to :func:`make_bot` and the command line as ``name``.

    A name with a colon is refused: ``KIND:ARGUMENT`` names a bot of
    :data:`BOT_KINDS`."""
    if not name or ":" in name or "," in name or name != name.strip():
        raise ValueError(f"bad bot name {name!r}: a word without ':' or ','")
    registry = BOTS
    assert isinstance(registry, _Registry)
    registry.add(name, factory)


def check_bot_name(name: str) -> str:
    """``name`` if :func:`make_bot` knows it, else ``ValueError`` saying which bots it knows."""
    kind, colon, argument = name.partition(":")
    if colon:
        if kind not in BOT_KINDS:
            raise ValueError(
                f"unknown kind of bot {kind[:40]!r} in {name[:60]!r}; kinds: {', '.join(BOT_KINDS)}"
            )
        if not argument.strip():
            raise ValueError(f"{kind}: needs an argument, e.g. {_EXAMPLES.get(kind, kind + ':...')}")
        return name
    if name not in BOTS:
        raise ValueError(
            f"unknown bot {name[:40]!r}; {nearest(name, BOTS, 'bots')}, or "
            + ", ".join(_EXAMPLES.get(k, f"{k}:ARGUMENT") for k in BOT_KINDS)
        )
    return name


_EXAMPLES = {"search": "search:20ms", "cmd": "'cmd:node mybot.js'"}


def make_bot(name: str, seed: Seed = None) -> Bot:
    """A new bot of the kind ``name``, seeded with ``seed``: a key of :data:`BOTS`,
    or ``KIND:ARGUMENT`` for a kind of :data:`BOT_KINDS` (``search:20ms``,
    ``cmd:node mybot.js``). ``ValueError`` for a name it does not know or a bad
    argument."""
    check_bot_name(name)
    kind, colon, argument = name.partition(":")
    if colon:
        return BOT_KINDS[kind](seed, argument.strip())
    return BOTS[name](seed)


def show_views(
    state: GameState, bots: Sequence[Bot] | Mapping[int, Bot], views: dict[int, SeatView] | None = None
) -> None:
    """Show every bot that has an ``observe`` method its seat's view of ``state``
    (bots by seat: a sequence, or a mapping for some seats). ``views`` keeps
    the views built, by seat, for the caller to reuse."""
    seats = bots.items() if isinstance(bots, Mapping) else enumerate(bots)
    for seat, bot in seats:
        observe = getattr(bot, "observe", None)
        if observe is not None:
            view = state.view(seat)
            if views is not None:
                views[seat] = view
            observe(view)


def next_action(state: GameState, bots: Sequence[Bot]) -> Action:
    """The next action of a game played by ``bots`` (one per seat).

    Every bot that observes the game is first shown its seat's view
    (:func:`show_views`). Each bot is handed its seat's view
    (``state.view(seat)``), never the state. The seats are asked in the order
    of :meth:`~unorules.GameState.seats_to_act`: those that may act out of
    turn first (the first that acts is taken), then the current player's bot,
    which must choose. If the current player has no legal action (a plugin's phase in
    which another seat must act) and nobody volunteers, the first legal action
    is taken, so a game always moves on.

    :raises BotError: when a bot chooses another seat's action, an action that
        is not legal now, or nothing on its turn.
    """
    seats = state.seats_to_act()
    if not seats:
        raise ValueError("the game is over: there is no next action")
    views: dict[int, SeatView] = {}
    show_views(state, bots, views)
    current = state.current_player
    for seat in seats:
        if seat != current:
            chosen = _ask(bots[seat], state, seat, views)
            if chosen is not None:
                return chosen
    if current not in seats:  # the seat to move has no action and nobody volunteered
        return state.legal_actions()[0]
    chosen = _ask(bots[current], state, current, views)
    if chosen is None:
        raise BotError(f"bot {bots[current].name!r} of seat {current} chose nothing on its turn")
    return chosen


def _ask(bot: Bot, state: GameState, seat: int, views: Mapping[int, SeatView]) -> Action | None:
    """``bot``'s choice from ``seat``'s view, checked."""
    view = views.get(seat) or state.view(seat)
    chosen = bot.choose(view)
    if chosen is None:
        return None
    check_choice(bot, view, chosen)
    return chosen


def check_choice(bot: Bot, view: SeatView, chosen: object) -> Action:
    """``chosen``, ``bot``'s answer to ``view``, if it is one of the view's
    legal actions; else :class:`BotError` saying what is wrong."""
    seat = view.seat
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
            show_views(state, bots)
            return state
        state = state.apply(next_action(state, bots))
        if on_action is not None:
            on_action(state)
    if state.is_over:
        show_views(state, bots)
        return state
    raise RuntimeError(f"the game did not end within {max_actions} actions")

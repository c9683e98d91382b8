"""What a seat knows of the cards it cannot see, and worlds sampled from it.

A bot holds its seat's :class:`~unorules.SeatView`, never the state. To look
ahead it needs whole states: *determinisation* samples one, a
:class:`~unorules.GameState` that shows the seat exactly the view it has,
with the cards it cannot see dealt at random among the places they may be.
How well that works depends on what the seat knows, and a seat knows more
than its view shows: which cards it saw go into another hand (a hand traded
by a 7, shown in a challenge), that a draw pile made from a reshuffled
discard pile holds only those cards, that the cards another seat drew since
came from them.

:class:`Knowledge` keeps that record for one seat, from its views, one after
another (a driver shows a bot every view: :func:`unorules.bots.show_views`).
It reads the events every rule set emits for card movements, whatever the
plugin that moved them (:mod:`unorules.draft`): ``deal``, ``draw``,
``reshuffle``, ``move`` and ``show``, and the events whose kind declares
:attr:`~unorules.EventSpec.reveals` (cards a rule shows the table, which end
in the hand of the event's seat: a misplayed card kept, a No Mercy roulette's
cards). It knows nothing of any rule set.

The record is a *partition of the unseen cards into groups*: each group is a
multiset of cards and a number of places ("slots") in hands and piles that
hold exactly those cards, in an order nobody knows. After a deal, every card
but the seat's own hand and the starter is in one group spread over the other
hands and the draw pile. A reshuffle's cards are known, and a seat that draws
from them without being seen starts a group of its own: the pile and the
cards drawn from it hold exactly the cards of the old discard pile. Cards
seen going into a hand are *known* there. A card seen leaving a place comes
out of its known cards, else out of the group it most likely came from;
unseen cards leaving a place that holds several groups merge those groups
(the record forgets what it can no longer tell apart). If a view cannot be
explained (a driver skipped one, a plugin moved cards without saying so) the
record starts again from the view alone: every unseen card may be anywhere.

:func:`determinize` deals each group's cards at random over its slots, so the
hidden cards are uniformly distributed given the record, and gives the
state a fresh random generator. The state's view for the seat equals the
view it was sampled from. Plugins with data of their own that the view does
not show fill it in through the ``resample_extras`` hook; a plugin whose
phase tells of a hidden card says so through ``hidden_requirements``, and
the hand named is traded a card that meets it.

A deck of two-faced cards (``Ruleset.two_faced``: UNO FLIP!) shows a seat
each card by one face only: its own hand and the discard pile by the face up,
the other hands by the faces they turn away (``SeatView.backs``, in hand
order), the draw pile by its top card's back (``SeatView.draw_pile_back``).
One face is printed on several cards, so a card is known for certain only
once both its faces were seen. For such a deck the record is one group, the
whole deck, over every position of every place, the discard pile included:
one slot a position, tagged with the cards that cannot be there
(:meth:`Knowledge.candidates` tells what a place may hold;
:meth:`Knowledge.known` is empty). A position's tag rules out the cards that
do not show what the view shows there and, for a hand or the discard pile,
what earlier views showed of the card it holds, followed from view to view:
hands keep their order, cards drawn go last (the first card drawn from the
pile in an action turns the back the last view showed on top of it), a hand
shown to the seat (a challenge) shows its faces, a card leaving a hand left
from one of the positions that may have held it (when several may have, the
others keep only what all of them allow) and, played, goes on top of the
discard pile, which a Flip turns over (its order reversed or kept, whichever
fits the view). A Flip turns every card over: what the seat saw as backs it
now sees as faces, so it knows by both faces, exactly, every card held
through it. A deal, hands traded, cards put into a hand from elsewhere or
several cards leaving one hand in an action make the record forget the
hands concerned; a reshuffle, or cards leaving the discard pile, what it
knew of that pile. The draw pile is read from each view alone, and no
inferences are drawn (``infer``). If what is remembered cannot be dealt with
the view, the record starts again from the view alone (counted in
:attr:`Knowledge.resets`).

:func:`determinize` deals such a deck position by position: each card, in
random order, to a free slot that may hold it, chosen uniformly; a card left
without one takes a slot by an augmenting path, the cards in its way moving
to other slots they may hold. Every slot gets a card showing what the view
shows there, but the deal is only close to uniform over the deals the view
allows, not exactly. The cards named by the events and the round results (a
view names faces) become cards of the world that show those faces; the
card of a phase, the card drawn last or the top card showing its face. The
``hidden_requirements`` hook is not consulted for such a deck (its trade
would move a card away from the position whose face the view shows); a
phase's world that does not validate is sampled again.

>>> import random
>>> import unorules
>>> from unorules.knowledge import Knowledge, determinize
>>> rules = unorules.Ruleset.from_names(["classic"])
>>> state = rules.new_game(players=3, seed=5)
>>> knowledge = Knowledge(state.view(0))
>>> state = state.apply(state.legal_actions()[0])
>>> knowledge.update(state.view(0))
>>> world = determinize(state.view(0), knowledge, random.Random(1))
>>> world.view(0) == state.view(0)
True
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from unorules.cards import Card
from unorules.draft import DISCARD, DRAW, HAND, TAKEN, UNDER
from unorules.errors import SeatError, StateFormatError
from unorules.rng import Rng
from unorules.state import PLAY, Event, GameState, SeatView
from unorules.validate import validate_state
from unorules.worlds import _FREE, _assign, _deal_positions, _hand_faces, _match, _only, _showing, _world

__all__ = ["ASIDE", "Group", "Knowledge", "Place", "Tag", "determinize"]

Place = int | str
"""A place cards may be: a seat's hand (the seat's number), ``"draw"`` (the draw
pile), ``"taken"`` (taken out by a rule during an action) or ``"aside"`` (kept
out of the hands and piles by a plugin); for a deck of two-faced cards also
``"discard"``, the discard pile, whose cards are seen by a face only."""

ASIDE = "aside"
"""The place of cards a plugin keeps out of the hands and piles."""

_BUFFER = "drawing"  # the old pile's cards while a reshuffle interrupts a draw


@attrs.frozen
class Group:
    """Cards that fill some slots, in an order nobody knows (see the module's docstring)."""

    cards: Mapping[Card, int]
    """The cards, with how many copies of each."""
    slots: Mapping[Place, int]
    """How many of them each place holds."""


class _Broken(Exception):
    """The events do not fit the record: it starts again from the view."""


Tag = tuple[int, frozenset[Card]]
"""A slot's group and the cards it cannot hold (see :class:`Knowledge`)."""


class Knowledge:
    """What the seat of ``view`` knows of the cards it cannot see, from that view
    on (see the module's docstring). Show it every later view with :meth:`update`.

    Start it with the first view of a game to know everything the game will
    show; started later, it knows only what the view shows.

    With ``infer`` it also assumes that the other seats play like sensible
    players (the heuristic bot does): a seat that draws on its ordinary turn
    had no card it could play (no card of the colour to match or of the top
    card's kind, no wild), a seat that plays a Wild Draw Four held no card of
    the colour it replaced (it does not bluff) and a seat that plays a Wild
    held no card it could play but wilds, and no Wild Draw Four. These are
    guesses, not facts: sampled worlds respect them as far as they can, and a
    card that later shows a guess wrong makes the record drop the guesses it
    made about that hand.

    For a deck of two-faced cards the record follows each position of each
    hand and ``infer`` guesses nothing (see the module's docstring).
    """

    def __init__(self, view: SeatView, *, infer: bool = False) -> None:
        if view.seat is None:
            raise SeatError("a spectator's view has no seat to keep knowledge for")
        self.seat: int = view.seat
        """The seat whose knowledge this is."""
        self.infer = infer
        """Whether it draws inferences from how the other seats play (see the class docstring)."""
        self.view: SeatView = view
        """The last view shown."""
        self.resets = 0
        """How many times a view could not be explained and the record started again."""
        self.stalled = 0
        """Consecutive turn draws that drew nothing (the state's ``stalled``, which views do not show)."""
        self._known: dict[Place, Counter[Card]] = {}
        self._slots: dict[Place, Counter[Tag]] = {}
        self._groups: dict[int, Counter[Card]] = {}
        self._next_group = 0
        self._discard: list[Card] = list(view.discard_pile)
        self._positions: dict[Place, list[Tag]] | None = None
        if view.rules.two_faced:
            self._faces(view)
            return
        if any(e.kind == "deal" for e in view.events):
            try:
                self._read(view)
                self._settle(view)
                return
            except _Broken:
                pass
        self._reset(view)

    def __repr__(self) -> str:
        groups = ", ".join(
            f"{sum(c.values())} cards over {dict(self._where(g))}" for g, c in self._groups.items()
        )
        return f"<Knowledge of seat {self.seat}: {groups or 'no unseen cards'}>"

    def copy(self) -> Knowledge:
        """An independent copy (the same record, updated apart from now on)."""
        other = copy.copy(self)
        other._known = {place: Counter(cards) for place, cards in self._known.items()}
        other._slots = {place: Counter(slots) for place, slots in self._slots.items()}
        other._groups = {group: Counter(cards) for group, cards in self._groups.items()}
        other._discard = list(self._discard)
        if self._positions is not None:
            other._positions = {place: list(tags) for place, tags in self._positions.items()}
        return other

    # -- reading ----------------------------------------------------------------------

    def known(self, place: Place) -> Counter[Card]:
        """The cards known to be in ``place`` (a copy)."""
        return Counter(self._known.get(place, ()))

    def unknown(self, place: Place) -> int:
        """How many cards of ``place`` are not known."""
        return sum(self._slots.get(place, Counter()).values())

    def candidates(self, place: Place) -> Counter[Card]:
        """Every card that may be in ``place`` (its known cards and the cards of
        the groups it holds slots of that its slots may hold), each with the
        most copies it may hold."""
        found = Counter(self._known.get(place, ()))
        most: Counter[Card] = Counter()
        for (group, excluded), count in self._slots.get(place, Counter()).items():
            if count:
                for card, n in self._groups[group].items():
                    if n > 0 and card not in excluded:
                        most[card] += min(n, count)
        for card, n in most.items():
            found[card] += n
        return found

    def excluded(self, place: Place) -> list[tuple[int, frozenset[Card]]]:
        """The unknown cards of ``place`` that are guessed not to be some cards:
        ``(how many, the cards they are not)`` pairs (see ``infer``). For a
        deck of two-faced cards, what the seat saw of them rules out instead:
        the cards that do not show the faces seen."""
        found: Counter[frozenset[Card]] = Counter()
        for (_, excluded), count in self._slots.get(place, Counter()).items():
            if count and excluded:
                found[excluded] += count
        return [(n, cards) for cards, n in found.items()]

    @property
    def groups(self) -> tuple[Group, ...]:
        """The groups of unseen cards (see the module's docstring)."""
        return tuple(
            Group(dict(+cards), dict(self._where(g))) for g, cards in sorted(self._groups.items()) if +cards
        )

    def _where(self, group: int) -> Iterator[tuple[Place, int]]:
        for place, slots in self._slots.items():
            count = sum(n for (g, _), n in slots.items() if g == group)
            if count:
                yield place, count

    # -- updating -----------------------------------------------------------------------

    def update(self, view: SeatView) -> None:
        """Read ``view``, the seat's view after the next action (the same view
        again changes nothing)."""
        if view is self.view or view == self.view:
            return
        if view.seat != self.seat:
            raise SeatError(f"this is seat {self.seat}'s knowledge, not seat {view.seat}'s")
        if self._positions is not None:
            self._stall(view)
            self._faces(view, self._remember(view))
            return
        try:
            if self.infer:
                self._guess(view)
            self._read(view)
            self._settle(view)
        except _Broken:
            self._reset(view)
        self.view = view

    def _reset(self, view: SeatView) -> None:
        """Know only what ``view`` shows: one group of every unseen card over every hidden place."""
        self.resets += 1
        self.view = view
        self._known = {}
        self._slots = {}
        self._groups = {}
        self._discard = list(view.discard_pile)
        self.stalled = 0
        unseen = Counter(view.rules.deck)
        unseen.subtract(view.discard_pile)
        slots: Counter[Place] = Counter()
        for seat, size in enumerate(view.hand_sizes):
            shown = view.visible_hands.get(seat)
            if seat == self.seat:
                shown = view.hand
            if shown is not None:
                unseen.subtract(shown)
                self._known[seat] = Counter(shown)
            elif size:
                slots[seat] = size
        slots[DRAW] = view.draw_pile_size
        hidden = +unseen
        aside = sum(hidden.values()) - sum(slots.values())
        if aside < 0 or any(n < 0 for n in unseen.values()):
            raise StateFormatError("the view shows more cards than the rule set's deck holds")
        if aside:
            slots[ASIDE] = aside
        group = self._new_group(hidden)
        for place, count in slots.items():
            if count:
                self._slots.setdefault(place, Counter())[group, _FREE] = count

    def _new_group(self, cards: Counter[Card]) -> int:
        group = self._next_group
        self._next_group += 1
        self._groups[group] = cards
        return group

    # -- a deck of two-faced cards ---------------------------------------------------------------

    def _faces(self, view: SeatView, memory: Mapping[Place, list[frozenset[Card]]] | None = None) -> None:
        """Know what ``view`` of a deck of two-faced cards shows: every card is
        unseen, each place's cards one slot per position, a slot that shows a
        face (or turns a back) holding only the cards that show it, a slot of
        a hand also only the cards ``memory`` allows there (what earlier views
        showed of its card, see :meth:`_remember`)."""
        rules = view.rules
        self.view = view
        self._known = {}
        self._groups = {}
        self._discard = list(view.discard_pile)
        group = self._new_group(Counter(rules.deck))
        hands = _hand_faces(view, self.seat)
        if memory:
            for seat, seen in hands.items():
                cards = memory.get(seat)
                if cards is not None and len(seen) == len(cards):
                    hands[seat] = [a | b for a, b in zip(seen, cards, strict=True)]
        positions: dict[Place, list[Tag]] = {
            seat: [(group, excluded) for excluded in cards] for seat, cards in hands.items() if cards
        }
        up = _showing(rules, view.side)
        discard = [_only(up, face) for face in view.discard_pile]
        remembered = memory.get(DISCARD) if memory else None
        if remembered is not None and len(remembered) == len(discard):
            discard = [a | b for a, b in zip(discard, remembered, strict=True)]
        positions[DISCARD] = [(group, excluded) for excluded in discard]
        pile = [(group, _FREE)] * view.draw_pile_size
        if pile and view.draw_pile_back is not None:
            pile[0] = (group, _only(_showing(rules, 1 - view.side), view.draw_pile_back))
        positions[DRAW] = pile
        aside = len(rules.deck) - sum(map(len, positions.values()))
        if aside < 0:
            raise StateFormatError("the view shows more cards than the rule set's deck holds")
        if aside:
            positions[ASIDE] = [(group, _FREE)] * aside
        if memory:
            wanted = Counter(excluded for tags in positions.values() for _, excluded in tags)
            if _match(Counter(rules.deck), wanted, Rng(0)) is None:
                # what was remembered does not fit this view: start again from the view alone
                self.resets += 1
                self._faces(view)
                return
        self._positions = positions
        self._slots = {place: Counter(tags) for place, tags in positions.items() if tags}

    def _remember(self, view: SeatView) -> dict[Place, list[frozenset[Card]]]:
        """What the last views showed of the cards of each hand, carried to the
        positions of ``view``, the next view (a deck of two-faced cards): for each
        hand whose cards can be followed, the cards each position cannot hold.
        The hands keep their order; cards drawn go last, the first card drawn
        from the pile in an action being the one whose back the last view showed
        on it (unless the cards were turned over or the pile touched before);
        a hand shown to the seat shows its faces; one card leaving a hand left
        from one of the positions that may have held it, the others then
        keeping what every such position allows. A deal, cards moved into a
        hand otherwise, hands traded or more than one card leaving a hand make
        the record forget that hand (or every hand). Under the key ``"discard"``,
        the same for the discard pile: the cards played onto it, turned over by
        a Flip (reversed or not, whichever fits the view, or what both allow);
        forgotten after a reshuffle or any other card moving to or from it."""
        before = self.view
        old = self._positions
        if old is None:
            return {}
        rules = view.rules
        flipped = view.side != before.side or any(e.kind == "flip" for e in view.events)
        pile_seen = before.draw_pile_back is not None and not flipped
        added: Counter[int] = Counter()
        pins: dict[int, tuple[int, frozenset[Card]]] = {}
        removed: dict[int, list[Event]] = {}
        lost: set[int] = set()
        shown: dict[int, tuple[Card, ...]] = {}
        played: list[int] | None = []  # the seats whose card went onto the discard pile, in order
        turned = False
        for event in view.events:
            kind = event.kind
            seat = event.seat
            if kind == "deal" or (kind == "move" and event.value("hands") is not None):
                return {}
            if kind == "flip":
                turned = True
            elif kind == "show" and event.cards and event.target is not None:
                if added[event.target] + len(old.get(event.target, ())) == len(event.cards):
                    shown[event.target] = event.cards
                else:
                    lost.add(event.target)
            elif kind == "draw" and seat is not None:
                count = event.count if event.count is not None else len(event.cards)
                if pile_seen and count and before.draw_pile_back is not None:
                    pins[seat] = (added[seat], _only(_showing(rules, 1 - before.side), before.draw_pile_back))
                pile_seen = False
                added[seat] += count
            elif kind == "move":
                source, dest = event.value("from"), event.value("to")
                if DRAW in (source, dest):
                    pile_seen = False
                if dest == HAND and seat is not None:
                    lost.add(seat)
                if source == HAND and seat is not None:
                    removed.setdefault(seat, []).append(event)
                if played is not None and (DISCARD in (source, dest) or UNDER in (source, dest)):
                    ok = source == HAND and dest == DISCARD and seat is not None and not turned
                    played = [*played, seat] if ok and seat is not None else None
            elif kind == "reshuffle":
                pile_seen = False
                played = None
        up = _showing(rules, view.side)
        seen = _hand_faces(view, self.seat)
        full = len(rules.deck)
        memory: dict[Place, list[frozenset[Card]]] = {}
        gone: dict[int, frozenset[Card]] = {}  # what the card that left a hand cannot be
        for seat, now in seen.items():
            if seat in lost:
                continue
            cards = [excluded for _, excluded in old.get(seat, ())] + [_FREE] * added[seat]
            pin = pins.get(seat)
            if pin is not None:
                index = len(cards) - added[seat] + pin[0]
                cards[index] = cards[index] | pin[1]
            moves = removed.get(seat, [])
            faces_shown = shown.get(seat)
            if faces_shown is not None:
                if moves or turned:
                    continue  # which of the cards shown are still there is not followed
                for i, face in enumerate(faces_shown):
                    cards[i] = cards[i] | _only(up, face)
            if not moves:
                if len(cards) == len(now):
                    memory[seat] = cards
                continue
            if len(moves) > 1 or len(cards) - 1 != len(now):
                continue
            (move,) = moves
            faces = move.cards
            if len(faces) != 1 or faces[0] not in up:
                continue
            left_out = up[faces[0]]
            found: list[frozenset[Card]] | None = None
            out: frozenset[Card] | None = None
            for i, excluded in enumerate(cards):
                if len(excluded | left_out) >= full:
                    continue  # the card that left could not have been there
                rest = cards[:i] + cards[i + 1 :]
                if any(len(a | b) >= full for a, b in zip(rest, now, strict=True)):
                    continue
                found = rest if found is None else [a & b for a, b in zip(found, rest, strict=True)]
                out = excluded if out is None else out & excluded
            if found is not None and out is not None:
                memory[seat] = found
                gone[seat] = out
        # The discard pile: the cards played onto it, in order, turned over by a Flip
        # (its order reversed or kept: whichever fits what the view shows).
        if played is not None and DISCARD in old:
            pile = [excluded for _, excluded in old[DISCARD]]
            for seat in played:
                pile.append(gone.get(seat, _FREE))
            now = [_only(up, face) for face in view.discard_pile]
            orders = [pile, pile[::-1]] if turned else [pile]
            fitting: list[frozenset[Card]] | None = None
            for order in orders:
                if len(order) != len(now) or any(len(a | b) >= full for a, b in zip(order, now, strict=True)):
                    continue
                fitting = order if fitting is None else [a & b for a, b in zip(fitting, order, strict=True)]
            if fitting is not None:
                memory[DISCARD] = fitting
        return memory

    def _stall(self, view: SeatView) -> None:
        """Count the turn draws that drew nothing, from the events of ``view``."""
        for event in view.events:
            if event.kind == "deal":
                self.stalled = 0
            elif event.kind == "draw" and event.value("reason") == "turn":
                self.stalled = 0 if event.count else self.stalled + 1
            elif event.kind == "move" and event.value("from") == HAND and event.value("to") == DISCARD:
                self.stalled = 0

    # -- guesses ---------------------------------------------------------------------------------

    def _guess(self, view: SeatView) -> None:
        """The inferences of ``infer`` from the action that led to ``view``."""
        action = view.last_action
        before = self.view
        if action is None or action.seat == self.seat or before.phase.name != "play":
            return
        seat = action.seat
        if before.current_player != seat or seat in before.visible_hands:
            return
        color = before.color
        top = before.top_card.kind
        deck = view.rules.deck
        excluded: frozenset[Card]
        if action.verb == "draw":
            excluded = frozenset(c for c in deck if c.color is None or c.color is color or c.kind == top)
        elif action.verb == "play" and action.card is not None and action.card.kind == "W+4":
            excluded = frozenset(c for c in deck if c.color is color)
        elif action.verb == "play" and action.card is not None and action.card.kind == "W":
            excluded = frozenset(
                c
                for c in deck
                if c.kind == "W+4" or (c.color is not None and (c.color is color or c.kind == top))
            )
        else:
            return
        known = self._known.get(seat)
        if known and any(n > 0 and card in excluded for card, n in known.items()):
            return  # it held such a card: it does not play as assumed
        slots = self._slots.get(seat)
        if slots:
            guessed: Counter[Tag] = Counter()
            for (group, before_), count in slots.items():
                if count:
                    guessed[group, before_ | excluded] += count
            self._slots[seat] = guessed

    def _relax(self, place: Place) -> None:
        """Drop the guesses about the unknown cards of ``place``."""
        slots = self._slots.get(place)
        if slots:
            relaxed: Counter[Tag] = Counter()
            for (group, _), count in slots.items():
                if count:
                    relaxed[group, _FREE] += count
            self._slots[place] = relaxed

    # -- the events of one action ----------------------------------------------------------

    def _read(self, view: SeatView) -> None:
        specs = view.rules.events
        shown: list[Event] = []
        for event in view.events:
            kind = event.kind
            spec = specs.get(kind)
            if spec is not None and spec.reveals and event.cards and event.seat is not None:
                shown.append(event)
            if kind == "move":
                self._move(event)
            elif kind == "draw":
                self._draw(event)
            elif kind == "reshuffle":
                self._reshuffle()
            elif kind == "show":
                if event.cards and event.target is not None:
                    self._reveal(event.target, event.cards)
            elif kind == "deal":
                self._deal(view, event)
        for event in shown:
            assert event.seat is not None
            self._shown_to_all(event.seat, event.cards)

    def _shown_to_all(self, seat: int, cards: tuple[Card, ...]) -> None:
        """A rule showed ``cards`` to the table, and they are in ``seat``'s hand
        after the action (an event whose kind declares
        :attr:`~unorules.EventSpec.reveals`): those of them the record does not
        know there yet become known there. A card the record cannot place
        there (it left again in the same action, say) teaches it nothing."""
        if seat == self.seat:
            return  # its own hand, which it sees
        known = self._known.get(seat, Counter())
        for card, count in (Counter(cards) - known).items():
            for _ in range(count):
                if self._likeliest(seat, card) is None:
                    break
                self._take_unknown(seat, card)
                known[card] += 1
                self._known[seat] = known

    def _deal(self, view: SeatView, event: Event) -> None:
        rules = view.rules
        self._known = {}
        self._slots = {}
        self._groups = {}
        self.stalled = 0
        self._discard = list(event.cards)
        cards = Counter(rules.deck)
        cards.subtract(event.cards)
        group = self._new_group(+cards)
        dealt = 0
        for seat in range(len(view.hand_sizes)):
            if seat not in view.left:
                self._slots[seat] = Counter({(group, _FREE): rules.hand_size})
                dealt += rules.hand_size
        rest = len(rules.deck) - len(event.cards) - dealt
        if rest < 0:
            raise _Broken
        self._slots[DRAW] = Counter({(group, _FREE): rest})

    def _reshuffle(self) -> None:
        # The cards left in the pile go to the drawing seat (the draw event that
        # follows counts them); the discard pile but its top card is the new pile.
        self._known[_BUFFER] = self._known.pop(DRAW, Counter())
        self._slots[_BUFFER] = self._slots.pop(DRAW, Counter())
        rest, self._discard = self._discard[:-1], self._discard[-1:]
        self._known[DRAW] = Counter(rest)

    def _draw(self, event: Event) -> None:
        seat = event.seat
        if seat is None:
            raise _Broken
        count = event.count if event.count is not None else len(event.cards)
        cards = event.cards
        buffered = self._size(_BUFFER)
        if buffered:
            if buffered > count:
                raise _Broken
            first, cards = cards[:buffered], cards[buffered:]
            if first:
                self._move_seen(_BUFFER, seat, first)
            else:
                self._move_unseen(_BUFFER, seat, buffered)
            count -= buffered
            self._known.pop(_BUFFER, None)
            self._slots.pop(_BUFFER, None)
        if cards:
            self._move_seen(DRAW, seat, cards)
        elif count:
            self._move_unseen(DRAW, seat, count)
        if event.value("reason") == "turn":
            self.stalled = 0 if event.count else self.stalled + 1

    def _move(self, event: Event) -> None:
        pairs = event.value("hands")
        if pairs is not None:
            self._hands(pairs)
            return
        source = self._place(event.value("from"), event.seat)
        dest = self._place(event.value("to"), event.seat)
        if event.cards:
            self._move_seen(source, dest, event.cards, under=event.value("to") == UNDER)
        elif event.count:
            self._move_unseen(source, dest, event.count)
        if source == event.seat and dest == DISCARD:
            self.stalled = 0

    def _place(self, name: Any, seat: int | None) -> Place:
        if name == HAND:
            if seat is None:
                raise _Broken
            return seat
        if name in (DISCARD, UNDER):
            return DISCARD
        if name in (DRAW, TAKEN):
            return str(name)
        raise _Broken

    def _hands(self, pairs: Any) -> None:
        known = {b: self._known.pop(a, Counter()) for a, b in pairs}
        slots = {b: self._slots.pop(a, Counter()) for a, b in pairs}
        self._known.update(known)
        self._slots.update(slots)

    # -- moving cards ---------------------------------------------------------------------------

    def _size(self, place: Place) -> int:
        return sum(self._known.get(place, Counter()).values()) + sum(
            self._slots.get(place, Counter()).values()
        )

    def _take_seen(self, place: Place, card: Card) -> None:
        """``card``, seen, leaves ``place``: one of its known cards, else an unknown one."""
        if place == DISCARD:
            pile = self._discard
            for i in range(len(pile) - 1, -1, -1):  # the topmost copy: cards leave the pile from the top
                if pile[i] == card:
                    del pile[i]
                    return
            raise _Broken
        known = self._known.get(place)
        if known and known[card] > 0:
            known[card] -= 1
            return
        self._take_unknown(place, card)

    def _take_unknown(self, place: Place, card: Card) -> None:
        """``card`` was one of the unknown cards of ``place``: a slot of the group
        it most likely came from. If no slot there may hold it, a guess was
        wrong: the record drops its guesses about ``place``, and if that is not
        enough, forgets what it knew of ``place`` and of the groups holding that
        card (one group)."""
        tag = self._likeliest(place, card)
        if tag is None:
            self._relax(place)
            tag = self._likeliest(place, card)
        if tag is None:
            holding = [g for g, cards in self._groups.items() if cards[card] > 0]
            if not holding:
                raise _Broken
            self._forget(place, holding)
            tag = self._likeliest(place, card)
            if tag is None:
                raise _Broken
        self._slots[place][tag] -= 1
        self._groups[tag[0]][card] -= 1

    def _likeliest(self, place: Place, card: Card) -> Tag | None:
        slots = self._slots.get(place)
        best: tuple[float, Tag] | None = None
        if slots:
            for tag, count in slots.items():
                if count and card not in tag[1]:
                    cards = self._groups[tag[0]]
                    copies = cards[card]
                    if copies > 0:
                        weight = count * copies / sum(cards.values())
                        if best is None or weight > best[0]:
                            best = (weight, tag)
        return None if best is None else best[1]

    def _move_seen(self, source: Place, dest: Place, cards: tuple[Card, ...], under: bool = False) -> None:
        for card in cards:
            self._take_seen(source, card)
        if dest == DISCARD:
            if under and self._discard:
                self._discard[-1:-1] = cards
            else:
                self._discard.extend(cards)
        else:
            self._known.setdefault(dest, Counter()).update(cards)

    def _move_unseen(self, source: Place, dest: Place, count: int) -> None:
        """``count`` cards nobody (of this seat) saw go from ``source`` to ``dest``."""
        if source == DISCARD or dest == DISCARD:
            raise _Broken  # cards leaving or reaching the discard pile are always seen
        known = self._known.get(source, Counter())
        slots = self._slots.get(source, Counter())
        held = sum(known.values()) + sum(slots.values())
        if count > held:
            raise _Broken
        if count == held:  # the whole place, guesses and all
            self._known.setdefault(dest, Counter()).update(+known)
            self._slots.setdefault(dest, Counter()).update(+slots)
            self._known.pop(source, None)
            self._slots.pop(source, None)
            return
        tags = [t for t, n in slots.items() if n]
        if +known or len({g for g, _ in tags}) > 1:
            self._forget(source)  # which of them went is not known
        elif len(tags) > 1:
            self._relax(source)
        (tag,) = [t for t, n in self._slots[source].items() if n]
        self._slots[source][tag] -= count
        self._slots.setdefault(dest, Counter())[tag[0], _FREE] += count

    def _forget(self, place: Place, also: list[int] | tuple[int, ...] = ()) -> None:
        """One group of the known cards of ``place``, the groups it holds slots of
        and the groups ``also``, the guesses about ``place`` dropped: the record
        no longer tells them apart."""
        known = +self._known.pop(place, Counter())
        groups = {g for (g, _), n in self._slots.get(place, Counter()).items() if n}
        groups.update(also)
        cards: Counter[Card] = Counter(known)
        for group in groups:
            cards.update(self._groups.pop(group))
        merged = self._new_group(+cards)
        for where, slots in self._slots.items():
            moved: Counter[Tag] = Counter()
            for tag in [t for t in slots if t[0] in groups]:
                count = slots.pop(tag)
                if count:
                    moved[merged, _FREE if where == place else tag[1]] += count
            slots.update(moved)
        if known:
            self._slots.setdefault(place, Counter())[merged, _FREE] += sum(known.values())

    def _reveal(self, place: Place, cards: tuple[Card, ...]) -> None:
        """``place`` is seen to hold exactly ``cards``."""
        shown = Counter(cards)
        known = self._known.get(place, Counter())
        if known - shown:  # a card known to be there is not: an earlier guess was wrong
            self._forget(place)
            known = Counter()
        need = shown - known
        if sum(self._slots.get(place, Counter()).values()) != sum(need.values()):
            raise _Broken  # the place holds another number of cards
        groups = self._groups
        found = _assign(need, groups, self._slots.get(place, Counter()))
        if found is None:
            self._relax(place)
            found = _assign(need, groups, self._slots.get(place, Counter()))
        if found is None:
            # the cards shown are not all where the record has them: forget where it guessed
            self._forget(place, [g for g, cards_ in groups.items() if any(cards_[c] > 0 for c in need)])
            need = shown
            found = _assign(need, groups, self._slots.get(place, Counter()))
            if found is None:
                raise _Broken
        for (card, group), count in found.items():
            groups[group][card] -= count
        self._known[place] = shown
        self._slots.pop(place, None)

    # -- after the action ---------------------------------------------------------------------

    def _settle(self, view: SeatView) -> None:
        """Check the record against ``view`` and learn what it shows."""
        if self._size(_BUFFER) or self._size(TAKEN):
            raise _Broken
        if self._discard != list(view.discard_pile):
            raise _Broken
        self._reveal(self.seat, view.hand)
        for seat, hand in view.visible_hands.items():
            if seat != self.seat:
                self._reveal(seat, hand)
        for seat, size in enumerate(view.hand_sizes):
            if self._size(seat) != size:
                raise _Broken
        if self._size(DRAW) != view.draw_pile_size:
            raise _Broken
        totals: Counter[int] = Counter()
        for slots in self._slots.values():
            for tag in [t for t, n in slots.items() if not n]:
                del slots[tag]
            for (group, _), count in slots.items():
                totals[group] += count
        for group, cards in list(self._groups.items()):
            total = sum(cards.values())
            if any(n < 0 for n in cards.values()) or total != totals[group]:
                raise _Broken
            if not total:
                del self._groups[group]
        self.view = view

    # -- sampling --------------------------------------------------------------------------------

    def sample(self, rng: Rng) -> dict[Place, list[Card]]:
        """The unseen cards dealt at random over their places (each group's
        cards over its slots, uniformly; slots with guesses first, each given
        a card it may hold where one is left), with the known cards: every
        hidden place's cards, the seat's own hand and shown hands included;
        ``rng`` makes every random choice.

        For a deck of two-faced cards every place is dealt, the discard pile
        included, each in the order of its positions (a hand as the view shows
        it, the draw pile from the top)."""
        if self._positions is not None:
            return _deal_positions(self._groups, self._positions, rng)
        dealt: dict[Place, list[Card]] = {
            place: list(cards.elements()) for place, cards in self._known.items()
        }
        placed: dict[int, list[tuple[Place, frozenset[Card], int]]] = {}
        for place, slots in self._slots.items():
            for (group, excluded), count in slots.items():
                if count:
                    placed.setdefault(group, []).append((place, excluded, count))
        for group, cards in self._groups.items():
            pool = list(cards.elements())
            rng.shuffle(pool)
            free = []
            for place, excluded, count in placed.get(group, ()):
                if not excluded:
                    free.append((place, count))
                    continue
                out = dealt.setdefault(place, [])
                for _ in range(count):
                    for i in range(len(pool) - 1, -1, -1):
                        if pool[i] not in excluded:
                            out.append(pool.pop(i))
                            break
                    else:
                        out.append(pool.pop())  # no card it may hold is left: the guess gives way
            start = 0
            for place, count in free:
                dealt.setdefault(place, []).extend(pool[start : start + count])
                start += count
        return dealt


# -- determinisation ------------------------------------------------------------------------


def determinize(
    view: SeatView, knowledge: Knowledge | None = None, rng: random.Random | None = None
) -> GameState:
    """A state whose view for ``view.seat`` equals ``view``: the cards the seat
    cannot see dealt at random given ``knowledge`` (by default, what the view
    alone shows), the draw pile in random order, a fresh random generator for
    what follows, and plugin data the view does not show filled in by the
    ``resample_extras`` hook. ``rng`` (a :class:`random.Random`) makes it
    reproducible.

    ``knowledge`` is brought up to ``view`` first (:meth:`Knowledge.update`).
    A hand the ``hidden_requirements`` hook says holds a certain card is traded
    one (an unknown card of it for one from the draw pile or another unseen
    hand). In a phase other than the ordinary turn, a world that still does
    not validate (a phase tells of hidden cards no hook names) is sampled
    again, up to :data:`RETRIES` times. A deck of two-faced cards is dealt
    position by position, each card showing what the view shows there (see
    the module's docstring).
    """
    if view.seat is None:
        raise SeatError("a spectator's view has no seat to sample a state for")
    if knowledge is None:
        knowledge = Knowledge(view)
    else:
        knowledge.update(view)
    if rng is None:
        rng = random.Random()
    gen = Rng(rng.getrandbits(64))
    state = _world(view, knowledge, gen)
    if view.phase != PLAY:
        # A phase may tell of hidden cards (a Multi-Play group goes on only while its
        # seat holds another card of its number): sample again until the world is valid.
        for _ in range(RETRIES):
            try:
                validate_state(state)
                break
            except StateFormatError:
                state = _world(view, knowledge, gen)
    return state


RETRIES = 32
"""How many more worlds :func:`determinize` samples when a phase's world is invalid."""

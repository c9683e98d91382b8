"""The draft of the next state: what every hook that changes a game writes to.

``state.apply(action)`` makes one :class:`Draft` of the next state, hands it
to the hooks that carry the action out (``apply_action``, ``on_play``,
``on_draw``, ``after_action``, and the round's hooks when it ends), and
freezes it into the next :class:`~unorules.GameState` once, at the end. If a
hook raises, the draft is dropped and the state applied to is untouched.

A draft reads like a state (the same fields and facts: ``draft.hands``,
``draft.top_card``, ``draft.next_seat()``, ``draft.extra(key)``) and is
written through its *mechanics*: moving cards (:meth:`~Draft.play`,
:meth:`~Draft.draw`, :meth:`~Draft.set_hands`, :meth:`~Draft.move_hands`,
...), passing the turn, setting extras, adding events, ending the round. The
mechanics keep the books that every rule set shares: cards are moved, never
made; the UNO calls and catch windows follow the hands (R-UNO-CALL,
R-UNO-CATCH); the generator advances with every shuffle. Five fields are
plain decisions a hook assigns directly (:data:`WRITABLE`): ``color``,
``direction``, ``current_player``, ``phase`` and ``stalled``. Every other
field changes only through a mechanic, and assigning it (or a name that is
no field, a typo) raises ``AttributeError`` at once; the testing toolkit's
invariants check the books after every action.

What an emptied hand means is decided in one place: :meth:`Draft.play` asks
the ``going_out`` hook (:meth:`Draft.went_out`) when a card is a seat's last,
before the card's effect, and ends the round after the effect when the
answer says so. A blocked round is :meth:`Draft.stall`'s.

Every mechanic that moves cards also says so in an event, so that a seat can
follow what it may know of the cards without knowing the rule that moved
them (:mod:`unorules.knowledge` reads them): the ``deal``, ``draw`` and
``reshuffle`` events of dealing and drawing, a ``move`` event for every
other movement (:func:`move_event`: which cards went from which place to
which, and who saw them) and a ``show`` event for a hand shown to a seat
(:meth:`Draft.show_hand`). A plugin that moves cards through the mechanics
needs to do nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableSequence
from typing import TYPE_CHECKING, Any, TypeVar

from unorules._declared import WRITABLE as _WRITABLE
from unorules._declared import Draft as _Guard
from unorules._mypyc import mypyc_attr
from unorules.actions import Action
from unorules.cards import Card
from unorules.moves import (
    _CALLS,
    _LATE_CALLS,
    _PASSES,
    _PLAYED,
    _TABLE_FIELDS,
    _TRADES,
    DISCARD,
    DRAW,
    HAND,
    PLACES,
    TAKEN,
    UNDER,
    _moved,
    _restore_events,
    _set_hands,
    _trade_event,
    _uno_event,
    move_event,
)
from unorules.rng import Rng
from unorules.state import (
    PLAY,
    Event,
    GameState,
    GoingOut,
    Outcome,
    Phase,
    Position,
    RoundResult,
    Value,
    draw_event,
)

if TYPE_CHECKING:
    from unorules.ruleset import Ruleset

__all__ = [
    "DISCARD",
    "DRAW",
    "HAND",
    "PLACES",
    "TAKEN",
    "UNDER",
    "WRITABLE",
    "Draft",
    "blank_draft",
    "carry_out",
    "draft_of",
    "move_event",
]

_T = TypeVar("_T")

WRITABLE = _WRITABLE
"""The fields a hook may assign on a draft; the others change through mechanics."""

_WINS = tuple(GoingOut(ends=True, winner=s) for s in range(16))
"""The core's answer for an emptied hand of each seat: the round ends and it wins (R-OUT)."""


@mypyc_attr(native_class=False)  # frozen in place into a GameState: its __class__ is swapped
class Draft(Position, _Guard):
    """The next state while one action is carried out (see the module's docstring).

    A draft lives for one ``apply``: freezing it turns the object itself into
    the next :class:`~unorules.GameState` (its fields are not copied), so a
    reference kept to it afterwards holds a frozen state, which no mechanic
    can change.
    """

    @property
    def before(self) -> GameState | None:
        """The state the action is applied to (``None`` while a new game is dealt)."""
        before: GameState | None = self.__dict__["_legal"]  # kept in the field a state caches its actions in
        return before

    @property
    def action(self) -> Action | None:
        """The action being carried out (``None`` while a new game is dealt)."""
        action: Action | None = self.__dict__["last_action"]
        return action

    def __repr__(self) -> str:
        fields = self.__dict__
        return (
            f"<Draft of {self.action}: seat {fields['current_player']} to {fields['phase'].name}, "
            f"top {fields['discard_pile'][-1]} {fields['color']}, hands {[len(h) for h in fields['hands']]}>"
        )

    # -- the turn ---------------------------------------------------------------

    def pass_turn(self, steps: int = 1, seat: int | None = None) -> None:
        """Give the turn to the seat ``steps`` after ``seat`` (default: the seat
        to move), skipping seats that have left, in the ordinary ``"play"`` phase."""
        f = self.__dict__
        if seat is None:
            seat = f["current_player"]
        left = f["left"]
        f["current_player"] = (
            self.next_seat(seat, steps) if left else (seat + f["direction"] * steps) % len(f["hands"])
        )
        f["phase"] = PLAY

    # -- cards ---------------------------------------------------------------------

    def play(self, action: Action, previous: GameState | None = None) -> None:
        """Carry out the ``play`` ``action``: its card goes from the seat's hand
        onto the discard pile, the colour to match becomes the colour named
        (a wild's) or the card's own, and the card's effect follows (the
        ``on_play`` hook, asked with ``previous``: by default the state the
        action is applied to). An action naming the face a two-faced card
        shows lays that card (the ``nth`` showing it, :meth:`hand_index`); the
        colour is the face's.

        The books: the seat's UNO call is used by this card (R-UNO-CALL); a
        seat left holding one card without having called is open to a catch,
        and laying a card closes every other seat's catch window
        (R-UNO-CATCH); the count of blocked turns starts again. A ``move``
        event records the card going from the hand to the discard pile.
        """
        f = self.__dict__
        seat = action.seat
        card = action.card
        if card is None:
            raise ValueError(f"play needs an action with a card, not {action}")
        hands: tuple[tuple[Card, ...], ...] = f["hands"]
        rest = list(hands[seat])
        if action.nth is None and card in rest:
            rest.remove(card)  # the first copy, as hand.index finds it
            laid = card
        else:  # a face shown by a two-faced card (the nth showing it)
            laid = rest.pop(self.hand_index(seat, card, action.nth))
        new_hand = tuple(rest)
        seats = list(hands)
        seats[seat] = new_hand
        f["hands"] = tuple(seats)
        f["discard_pile"] = f["discard_pile"] + (laid,)
        f["events"] += (_PLAYED.get((seat, laid)) or move_event(seat, (laid,), HAND, DISCARD),)
        f["color"] = card.color if action.color is None else action.color
        declared: tuple[int, ...] = f["uno_declared"]
        f["uno_exposed"] = () if len(new_hand) != 1 or seat in declared else (seat,)
        if declared:
            f["uno_declared"] = tuple(s for s in declared if s != seat)
        f["stalled"] = 0
        f["current_player"] = seat
        if previous is None:
            previous = f["_legal"]  # the state before (see new_draft)
        if not new_hand:
            self.went_out(seat)
        if f["ruleset"].hooks.on_play(self, action, previous) is None:
            raise RuntimeError(f"no plugin applied the effect of {card}")
        if "_ending" in f:
            self._settle()

    def card_effect(self, action: Action, previous: GameState | None) -> None:
        """The effect of the card of ``action``, which lies on top of the discard
        pile: the ``on_play`` hook (see :meth:`play`), given ``previous``, the
        state the card was played on. For a plugin that lets a card take effect
        later than it was laid (an illegal card let stand). As after :meth:`play`,
        a hand that card emptied is asked about (:meth:`went_out`) before the
        effect, and a round that it ends ends after it."""
        if previous is None:
            raise ValueError("a card's effect needs the state it was played on")
        f = self.__dict__
        if not f["hands"][action.seat]:
            self.went_out(action.seat)
        if self.ruleset.hooks.on_play(self, action, previous) is None:
            raise RuntimeError(f"no plugin applied the effect of {action.card}")
        if "_ending" in f:
            self._settle()

    # -- going out -------------------------------------------------------------------

    def went_out(self, seat: int) -> GoingOut:
        """``seat``'s hand is empty by this action's doing: what that means, decided in
        one place for every rule (the ``going_out`` hook, asked once per seat and
        action; without an answer the round ends and ``seat`` wins it, R-OUT).

        :meth:`play` and :meth:`card_effect` ask it themselves for a last card,
        before the card's effect. A rule that empties the acting seat's hand some
        other way (a card that discards others) calls it after doing so. When the
        answer ends the round, the round ends once the card's effect (or the
        action) is done: no plugin ends a round for an emptied hand itself."""
        f = self.__dict__
        outs: dict[int, GoingOut] | None = f.get("_out")
        if outs is None:
            outs = f["_out"] = {}
        answer = outs.get(seat)
        if answer is None:
            ask = f["ruleset"].hooks.going_out
            found = None if ask is None else ask(self, seat)
            answer = outs[seat] = _WINS[seat] if found is None else found
            if answer.ends:
                f["_ending"] = answer
        return answer

    def going_out(self, seat: int) -> GoingOut | None:
        """What ``seat``'s emptied hand means in this action, as :meth:`went_out`
        decided it (``None``: its hand was not emptied): a card's effect reads it to
        know whether the round is ending (``ends``: do only what a last card does,
        R-OUT-LAST-DRAW) or goes on without the seat."""
        outs: dict[int, GoingOut] | None = self.__dict__.get("_out")
        return None if outs is None else outs.get(seat)

    def _settle(self) -> None:
        """End the round an emptied hand ends (see :meth:`went_out`), unless a rule
        already ended it in this action."""
        ending: GoingOut | None = self.__dict__.pop("_ending", None)
        if ending is not None:
            self.end_round(ending.winner, "out")

    def stall(self, seat: int) -> None:
        """``seat`` ended its turn without a card (it drew nothing, or a rule kept it
        from drawing and it could not play): when every seat still in the game has,
        in turn, the round is blocked, and the ``blocked_round`` hook says who wins
        it (without an answer, the fewest hand points by the faces in play, ties
        going to the lowest seat); otherwise the turn passes. A card played or
        drawn starts the count again (:meth:`play`, or ``draft.stalled = 0``)."""
        f = self.__dict__
        stalled = f["stalled"] + 1
        f["stalled"] = stalled
        active = self.active_seats
        if stalled < len(active):
            self.pass_turn(1, seat)
            return
        ask = f["ruleset"].hooks.blocked_round
        answer = None if ask is None else ask(self)
        if answer is None:  # the fewest points; of equals, the lowest seat (active is in seat order)
            winner: int | None = None
            fewest = 0
            for s in active:
                points = self.hand_value(s)
                if winner is None or points < fewest:
                    winner, fewest = s, points
        else:
            winner = answer.winner
        self.end_round(winner, "blocked")

    def draw(self, seat: int, count: int = 1, reason: str = "turn") -> tuple[Card, ...]:
        """``seat`` draws ``count`` cards from the draw pile; returns them.

        When the pile runs out, the discard pile but its top card is shuffled
        into a new draw pile (R-TURN-RESHUFFLE, a ``reshuffle`` event); with
        both exhausted fewer cards, possibly none, are drawn. A ``draw``
        event records it (private to the seat). A seat that draws is no
        longer open to an UNO catch (R-UNO-CATCH). Then the ``on_draw`` hook
        is asked (``reason`` is ``"turn"`` for a turn's draw, ``"penalty"``
        for a penalty, or a plugin's word).
        """
        f = self.__dict__
        pile: tuple[Card, ...] = f["draw_pile"]
        if count <= len(pile):
            drawn, f["draw_pile"] = pile[:count], pile[count:]
        else:
            drawn = pile
            need = count - len(drawn)
            f["draw_pile"] = ()
            discard: tuple[Card, ...] = f["discard_pile"]
            if len(discard) > 1:
                rest = list(discard[:-1])
                self.shuffle(rest)
                f["discard_pile"] = discard[-1:]
                f["events"] += (
                    Event("reshuffle", None, (), "R-TURN-RESHUFFLE", f"{len(rest)} cards", count=len(rest)),
                )
                drawn += tuple(rest[:need])
                f["draw_pile"] = tuple(rest[need:])
        hands: tuple[tuple[Card, ...], ...] = f["hands"]
        seats = list(hands)
        seats[seat] = hands[seat] + drawn
        f["hands"] = tuple(seats)
        f["events"] += (draw_event(seat, drawn, reason),)
        exposed: tuple[int, ...] = f["uno_exposed"]
        if drawn and exposed and seat in exposed:
            f["uno_exposed"] = tuple(s for s in exposed if s != seat)
        on_draw = self.ruleset.hooks.on_draw
        if on_draw is not None:
            on_draw(self, seat, drawn, reason)
        return drawn

    def set_hands(self, hands: Mapping[int, Iterable[Card]]) -> None:
        """Each seat of ``hands`` now holds the cards given (the other seats keep
        theirs): the mechanic for hands traded, passed on or dealt again, and
        cards taken from or given to a hand by an effect. The cards come from
        somewhere: take them out of a pile or another hand in the same draft.

        UNO calls follow the cards (R-UNO-CALL, R-UNO-CATCH):

        * a seat whose hand changed loses its call (it was about the hand it
          held) and is no longer open to a catch; a seat given the very cards
          it held has not changed;
        * except the seat whose own action is being carried out, when only
          cards *leave* its hand, into no other hand of this call (discarded by
          its own card's effect, say), and it is left holding one card: that
          is playing down to one card, so a call it made (before the action
          or during it) is used up, and without one it is open to a catch, as
          after :meth:`play`.

        ``move`` events record it: a hand given whole to another seat moves as
        a whole (every seat can follow it), and otherwise the cards each
        changed seat gave up and received, seen by that seat only.
        """
        _set_hands(self.__dict__, hands, None)

    def trade_hands(self, seat: int, target: int, rule: str = "R-SEVEN-O") -> None:
        """``seat`` and ``target`` trade hands (a 7 of R-SEVEN-O, a Swap Hands card): a
        ``hands-moved`` event naming both, ``rule`` its rule. UNO calls follow the
        hands (:meth:`set_hands`)."""
        hands = self.__dict__["hands"]
        self.set_hands({seat: hands[target], target: hands[seat]})
        self.__dict__["events"] += (_TRADES.get((seat, target, rule)) or _trade_event(seat, target, rule),)

    def pass_hands_on(self, seat: int, rule: str = "R-SEVEN-O") -> None:
        """Every seat still in the game passes its hand to the next such seat in the
        direction of play (a 0 of R-SEVEN-O), ``seat`` having played the card: a
        ``hands-moved`` event, ``rule`` its rule."""
        f = self.__dict__
        hands = f["hands"]
        key = (seat, f["direction"], len(hands), f["left"], rule)
        found = _PASSES.get(key)
        if found is None:
            moves = tuple(sorted((s, self.next_seat(s)) for s in self.active_seats))
            way = "left (+1)" if f["direction"] == 1 else "right (-1)"
            found = moves, _moved(seat, moves, f"every hand passed to the next seat, to the {way}", rule)
            if len(_PASSES) < 10_000:
                _PASSES[key] = found
        dest, event = found
        self.set_hands({now: hands[s] for s, now in dest})
        f["events"] += (event,)

    def grow_stack(
        self,
        seat: int,
        card: Card,
        count: int,
        victim: int,
        phase: str = "penalty",
        rule: str = "R-STACK",
    ) -> None:
        """``seat`` added ``card`` to a stack of draw cards that now holds ``count``
        cards: ``victim`` must answer it, moving in the phase named ``phase`` (a
        :class:`~unorules.Phase` carrying the count, the card and ``seat``), and a
        ``stack`` event (``rule`` its rule) says so (R-STACK)."""
        f = self.__dict__
        f["events"] += (
            Event(
                "stack",
                seat,
                (card,),
                rule,
                f"seat {victim} must answer a stack of {count}",
                target=victim,
                count=count,
            ),
        )
        f["current_player"] = victim
        f["phase"] = Phase(phase, count, card, seat)

    def move_hands(self, dest: Mapping[int, int]) -> None:
        """The hand of each seat ``s`` of ``dest`` moves to seat ``dest[s]`` (a
        trade is ``{a: b, b: a}``; passing every hand on is a cycle). The seats
        given must be the seats receiving, so no hand is lost; UNO calls follow
        the cards as in :meth:`set_hands`."""
        if sorted(dest) != sorted(dest.values()):
            raise ValueError(
                f"move_hands: {dict(dest)} does not permute its seats: every seat giving a hand "
                "must receive one, and no seat may receive two"
            )
        old: tuple[tuple[Card, ...], ...] = self.__dict__["hands"]
        pairs = tuple((seat, now) for seat, now in dest.items() if seat != now)
        _set_hands(self.__dict__, {now: old[seat] for seat, now in dest.items()}, pairs)

    def discard_under(self, seat: int, cards: Iterable[Card]) -> None:
        """``seat`` discards ``cards`` (one copy each, from its hand) under the top
        card of the discard pile: the top card and the colour to match stay.

        The books are :meth:`set_hands`'s: another seat's UNO call lapses and
        its catch window closes; a seat whose *own* action (the one being
        applied) leaves it holding one card has played down to one card: its
        call is used up, and without one it is open to a catch (R-UNO-CALL,
        R-UNO-CATCH).
        """
        moved = tuple(cards)
        if not moved:
            return
        f = self.__dict__
        hand = list(f["hands"][seat])
        for card in moved:
            hand.remove(card)
        _set_hands(
            self.__dict__, {seat: hand}, (), record=False
        )  # the books: see set_hands (its own action's discards)
        pile: tuple[Card, ...] = f["discard_pile"]
        f["discard_pile"] = pile[:-1] + moved + pile[-1:]
        f["events"] += (move_event(seat, moved, HAND, UNDER),)

    def take_from_discard_pile(self, count: int = 1) -> tuple[Card, ...]:
        """Take the ``count`` top cards off the discard pile (top card last) and
        return them, to put them somewhere else in the same draft (a public
        ``move`` event to :data:`TAKEN`)."""
        f = self.__dict__
        pile: tuple[Card, ...] = f["discard_pile"]
        if not 0 <= count <= len(pile):
            raise ValueError(f"the discard pile holds {len(pile)} cards, not {count}")
        f["discard_pile"] = pile[: len(pile) - count]
        taken = pile[len(pile) - count :]
        if taken:
            f["events"] += (move_event(None, taken, DISCARD, TAKEN),)
        return taken

    def take_from_draw_pile(self, count: int = 1) -> tuple[Card, ...]:
        """Take the ``count`` next cards off the draw pile (no reshuffle) and return
        them, unseen (a ``move`` event to :data:`TAKEN` whose cards nobody sees:
        showing them is putting them somewhere, such as the discard pile)."""
        f = self.__dict__
        pile: tuple[Card, ...] = f["draw_pile"]
        if not 0 <= count <= len(pile):
            raise ValueError(f"the draw pile holds {len(pile)} cards, not {count}")
        f["draw_pile"] = pile[count:]
        taken = pile[:count]
        if taken:
            f["events"] += (move_event(None, taken, DRAW, TAKEN, private=True),)
        return taken

    def put_on_discard_pile(self, cards: Iterable[Card]) -> None:
        """Put ``cards`` (taken earlier in the draft) on top of the discard pile,
        the last one on top, and set the colour to match to that card's (a
        turned-up starter; the colour of the face it shows, for a two-faced
        card)."""
        f = self.__dict__
        moved = tuple(cards)
        if moved:
            f["discard_pile"] = f["discard_pile"] + moved
            f["color"] = self.face(moved[-1]).color
            f["events"] += (move_event(None, moved, TAKEN, DISCARD),)

    def shuffle_into_draw_pile(self, cards: Iterable[Card]) -> None:
        """Add ``cards`` (taken earlier in the draft) to the draw pile and shuffle
        the pile (with the game's generator); nobody sees where they went."""
        f = self.__dict__
        added = tuple(cards)
        if added:
            f["events"] += (move_event(None, added, TAKEN, DRAW, private=True),)
        pile = list(f["draw_pile"]) + list(added)
        self.shuffle(pile)
        f["draw_pile"] = tuple(pile)

    def shuffle(self, items: MutableSequence[_T]) -> None:
        """Shuffle ``items`` in place with the game's generator, which advances
        (so the game still replays from its seed)."""
        f = self.__dict__
        gen = Rng(f["rng"])
        gen.shuffle(items)
        f["rng"] = gen.state

    def turn_over(self, *, reverse_discard: bool = True, reverse_draw: bool = True) -> None:
        """Turn every two-faced card over at once: the :attr:`~unorules.GameState.side`
        in play changes, so every hand and pile shows its other faces. Turning
        a pile over reverses its order (its bottom card comes on top) unless
        ``reverse_discard`` / ``reverse_draw`` say it keeps its order; hands
        keep theirs. The colour to match is left to the rule (the new top
        face may be a wild). ``ValueError`` for a deck printed on one side."""
        f = self.__dict__
        if not f["ruleset"].two_faced:
            raise ValueError("turn_over: this rule set's cards are printed on one side")
        f["side"] = 1 - f["side"]
        if reverse_discard:
            f["discard_pile"] = f["discard_pile"][::-1]
        if reverse_draw:
            f["draw_pile"] = f["draw_pile"][::-1]

    # -- UNO calls ---------------------------------------------------------------

    def call_uno(self, seat: int) -> None:
        """``seat`` calls "UNO": for the card it plays next (R-UNO-CALL), or, holding one
        card while open to a catch, late, which closes its catch window (R-UNO-SELF).
        An ``uno`` event says which."""
        f = self.__dict__
        if seat in f["uno_exposed"]:
            self.end_exposure((seat,))
            f["events"] += (_LATE_CALLS.get(seat) or _uno_event(seat, True),)
        else:
            f["uno_declared"] = f["uno_declared"] + (seat,)
            f["events"] += (_CALLS.get(seat) or _uno_event(seat, False),)

    def catch(self, catcher: int, target: int, penalty: int, rule: str = "R-UNO-CATCH") -> tuple[Card, ...]:
        """``catcher`` catches ``target``, left holding one card without having called
        "UNO" (R-UNO-CATCH): the window closes, a ``caught`` event says so, and
        ``target`` draws ``penalty`` cards as a penalty (returned). ``rule`` names the
        rule in the event (an edition's own)."""
        self.end_exposure((target,))
        self.__dict__["events"] += (
            Event("caught", target, (), rule, f"by seat {catcher}", target=catcher, count=penalty),
        )
        return self.draw(target, penalty, "penalty")

    def withdraw_uno(self, seats: Iterable[int]) -> None:
        """The UNO calls of the given seats lapse: a call made for a play that
        did not happen (an out-of-turn call for a jump-in whose window closed)."""
        f = self.__dict__
        declared: tuple[int, ...] = f["uno_declared"]
        gone = frozenset(seats)
        if declared and any(s in gone for s in declared):
            f["uno_declared"] = tuple(s for s in declared if s not in gone)

    def expose_uno(self, seats: Iterable[int]) -> None:
        """The given seats, each holding one card it did not call "UNO" for,
        may be caught until the window closes (R-UNO-CATCH): for a rule under
        which a seat *handed* one card must call, as one that played down to
        one card must. Seats holding another number of cards, or already
        exposed, are left as they are."""
        f = self.__dict__
        hands: tuple[tuple[Card, ...], ...] = f["hands"]
        exposed: tuple[int, ...] = f["uno_exposed"]
        declared: tuple[int, ...] = f["uno_declared"]
        new = tuple(
            s for s in dict.fromkeys(seats) if len(hands[s]) == 1 and s not in exposed and s not in declared
        )
        if new:
            f["uno_exposed"] = exposed + new

    def end_exposure(self, seats: Iterable[int] | None = None) -> None:
        """The given seats (default: every seat) can no longer be caught for
        not calling "UNO": the catch window closed (R-UNO-CATCH), or the seat
        called late (R-UNO-SELF) or was caught."""
        f = self.__dict__
        exposed: tuple[int, ...] = f["uno_exposed"]
        if not exposed:
            return
        if seats is None:
            f["uno_exposed"] = ()
            return
        ended = frozenset(seats)
        if any(s in ended for s in exposed):
            f["uno_exposed"] = tuple(s for s in exposed if s not in ended)

    # -- what a seat is shown ------------------------------------------------------------

    def show_hand(self, seat: int, to: int | None = None) -> None:
        """The hand of ``seat`` is shown to the seat ``to`` (to every seat when
        ``None``), as a challenged Wild Draw Four's player shows it to the
        challenger (R-CHALLENGE): a ``show`` event, private to ``to``, whose
        ``target`` is ``seat``. Nothing moves; what a seat was shown is what it
        knows."""
        hand: tuple[Card, ...] = self.__dict__["hands"][seat]
        self.__dict__["events"] += (
            Event(
                "show",
                to,
                hand,
                None,
                f"seat {seat}'s hand",
                to is not None,
                target=seat,
                count=len(hand),
            ),
        )

    # -- extras and events -----------------------------------------------------------

    def set_extra(self, key: str, value: Value) -> None:
        """Set the plugin value ``key`` (``None`` removes it); the key must be
        declared by a plugin (``Plugin.extras``)."""
        f = self.__dict__
        extras: tuple[tuple[str, Value], ...] = f["extras"]
        if not extras or (len(extras) == 1 and extras[0][0] == key):  # the usual case: one key at most
            f["extras"] = () if value is None else ((key, value),)
            return
        items = dict(extras)
        if value is None:
            if key not in items:
                return
            del items[key]
        else:
            items[key] = value
        f["extras"] = tuple(sorted(items.items()))

    def add_event(self, *events: Event) -> None:
        """Record ``events`` as having happened during this action, in order."""
        self.__dict__["events"] += events

    # -- seats, rounds, the table ---------------------------------------------------------

    def leave(self, seats: Iterable[int]) -> None:
        """The given seats leave the game (an elimination): they are skipped
        from now on and dealt no cards in later rounds."""
        f = self.__dict__
        f["left"] = tuple(sorted({*f["left"], *seats}))

    def rejoin(self, seats: Iterable[int]) -> None:
        """Seats that left come back into the game (a rule that sets seats out
        for one round only): they are dealt cards again from the next deal
        (call it before the round's end deals the next one, e.g. in
        ``on_round_end``)."""
        f = self.__dict__
        back = frozenset(seats)
        f["left"] = tuple(s for s in f["left"] if s not in back)

    def restore(self, **fields: Any) -> None:
        """Put parts of the table back as they were earlier in the round, for a
        rule that undoes an action (a caught illegal play): any of ``hands``,
        ``draw_pile``, ``discard_pile``, ``color``, ``direction``,
        ``current_player``, ``phase``, ``uno_declared``, ``uno_exposed``,
        ``stalled``, ``rng``, ``extras`` and ``side``, each given the value it had (the
        cards must be the same cards). Scores, rounds, seats that left and
        this action's events stay; ``move`` events record the cards that went
        back (through :data:`TAKEN`: from each place, the cards it gives back,
        then to each place, those it gets back)."""
        f = self.__dict__
        for name in fields:
            if name not in _TABLE_FIELDS:
                raise TypeError(
                    f"restore: {name!r} is not a field of the table; fields: {', '.join(_TABLE_FIELDS)}"
                )
        f["events"] += _restore_events(f, fields)
        for name, value in fields.items():
            f[name] = value

    def end_round(self, winner: int | None, reason: str = "out") -> None:
        """End the round, won by ``winner`` (``None``: nobody) for ``reason``
        (``"out"``, ``"blocked"`` or a plugin's word): score it (``score_round``),
        let plugins react (``on_round_end``), then end the game
        (``game_outcome``) or deal the next round, the seat after this round's
        dealer dealing (``on_starter`` turns its starter up). In an action
        carried out with ``deal=False`` (:func:`carry_out`) the next round is
        not dealt: the state is left as the round ended, for a search that
        stops there."""
        rules = self.ruleset
        hooks = rules.hooks
        f = self.__dict__
        f.pop("_ending", None)  # a round that an emptied hand was ending ends here
        players = len(f["hands"])
        number = len(f["rounds"]) + 1
        provisional = RoundResult(number, winner, reason, (0,) * players, f["hands"])
        points = hooks.score_round(self, provisional)
        points = (0,) * players if points is None else tuple(points)
        result = RoundResult(number, winner, reason, points, f["hands"])
        f["scores"] = tuple(a + b for a, b in zip(f["scores"], points, strict=True))
        f["rounds"] = f["rounds"] + (result,)
        f["events"] += (
            Event(
                "round-end",
                winner,
                (),
                None,
                f"{reason}; points {list(points)}",
                data=(("points", points), ("reason", reason)),
            ),
        )
        hooks.on_round_end(self, result)
        outcome: Outcome | None = hooks.game_outcome(self)
        if outcome is not None:
            f["outcome"] = outcome
            f["uno_exposed"] = ()
            f["uno_declared"] = ()
            return
        if "_no_deal" in f:  # carry_out(..., deal=False): a search stops at the round's end
            return
        order = list(rules.deck)
        self.shuffle(order)
        dealer = (f["dealer"] + 1) % players
        left = f["left"]
        while dealer in left:
            dealer = (dealer + 1) % players
        self.deal(dealer, order)

    def deal(self, dealer: int, order: list[Card]) -> None:
        """Deal a round from the cards of ``order`` (top card first): each seat
        still in the game gets the rule set's hand size, one card at a time
        from the seat after ``dealer``, the next card is turned up as the
        starter (R-SETUP-DEAL), and the ``on_starter`` hook applies its effect.
        Scores, rounds, seats that left and extras stay."""
        f = self.__dict__
        players = len(f["hands"])
        left = f["left"]
        seats = [(dealer + 1 + i) % players for i in range(players)]
        seats = [s for s in seats if s not in left]
        hands: list[list[Card]] = [[] for _ in range(players)]
        it = iter(order)
        for _ in range(self.ruleset.hand_size):
            for s in seats:
                hands[s].append(next(it))
        starter = next(it)
        number = len(f["rounds"]) + 1
        f["hands"] = tuple(tuple(h) for h in hands)
        f["draw_pile"] = tuple(it)
        f["discard_pile"] = (starter,)
        f["color"] = starter.color
        f["direction"] = 1
        f["current_player"] = seats[0]
        f["phase"] = PLAY
        f["dealer"] = dealer
        f["uno_declared"] = ()
        f["uno_exposed"] = ()
        f["stalled"] = 0
        f["outcome"] = None
        f["side"] = 0
        f["events"] += (
            Event("deal", dealer, (starter,), "R-SETUP-DEAL", f"round {number}", data=(("round", number),)),
        )
        self.ruleset.hooks.on_starter(self)

    # -- the engine's ---------------------------------------------------------------------

    def freeze(self) -> GameState:
        """The next state: this very object, turned into a frozen
        :class:`~unorules.GameState` with its fields as they are (the engine
        calls it once, at the end of ``apply``)."""
        f = self.__dict__
        if "_ending" in f:
            self._settle()
        f.pop("_out", None)
        f["_legal"] = None  # no legal actions listed yet
        _set_class(self, GameState)
        return self  # type: ignore[return-value]  # the same object, now a GameState


_new = object.__new__
_set_draft_dict: Any = vars(Draft)["__dict__"].__set__
_set_class: Any = vars(object)["__class__"].__set__


def draft_of(state: GameState, action: Action | None = None) -> Draft:
    """A draft of the state after ``action`` in ``state``, as ``state.apply``
    begins one (``draft.before`` is ``state``, ``draft.action`` is ``action``,
    no events yet), for a test of a mechanic, or of a plugin's helper that
    writes a draft, on an arranged position. No hook is called until a
    mechanic is; ``draft.freeze()`` turns the draft into the next
    :class:`~unorules.GameState`::

        draft = draft_of(state)
        draft.move_hands({0: 1, 1: 0})
        traded = draft.freeze()

    A game goes through its drafts with ``state.apply``: prefer it where an
    action can bring the position about.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"draft_of takes a GameState, not {type(state).__name__}")
    fields = state.__dict__.copy()
    fields["last_action"] = action
    fields["events"] = ()
    fields["_legal"] = state
    draft: Draft = _new(Draft)
    _set_draft_dict(draft, fields)
    return draft


def carry_out(state: GameState, action: Action, deal: bool = True) -> GameState:
    """The state after ``action`` in ``state`` (a legal action): one draft of it,
    carried out by the ``apply_action`` hook, updated by ``after_action``,
    frozen. The engine's one step; ``Ruleset.apply`` calls it. The draft is
    :func:`draft_of`'s (built here inline: this runs on every action): a copy
    of the state's fields with ``last_action`` set and no events yet, the
    state before kept where a state caches its legal actions (the copy has
    exactly a state's fields, so freezing it is turning the object into a
    state).

    With ``deal=False`` a round that ends is scored (and the game may end) but
    the next round is not dealt: the state is the table as the round ended,
    ``rounds`` holding its result, which is where a search's playout stops.
    Such a state is not for playing on."""
    fields = state.__dict__.copy()
    fields["last_action"] = action
    fields["events"] = ()
    fields["_legal"] = state
    if not deal:
        fields["_no_deal"] = True
    draft: Draft = _new(Draft)
    _set_draft_dict(draft, fields)
    hooks = fields["ruleset"].hooks
    if hooks.apply_action(draft, action) is None:
        raise RuntimeError(f"no plugin carried out the legal action {action}")
    if "_out" in fields:  # a hand was emptied: the round it ends ends before after_action
        if "_ending" in fields:
            draft._settle()
        del fields["_out"]
    after = hooks.after_action
    if after is not None:
        after(draft, action, state)
    fields["_legal"] = None
    if not deal:
        del fields["_no_deal"]
    _set_class(draft, GameState)
    return draft  # type: ignore[return-value]  # the same object, now a GameState


_BLANK_FIELDS = (
    "ruleset",
    "hands",
    "draw_pile",
    "discard_pile",
    "color",
    "direction",
    "current_player",
    "phase",
    "dealer",
    "scores",
    "uno_declared",
    "uno_exposed",
    "stalled",
    "left",
    "rounds",
    "outcome",
    "rng",
    "extras",
    "last_action",
    "events",
    "side",
    "_legal",
)
"""Every field of a state (``_legal`` included), in the order of a state's ``__dict__``."""


def blank_draft(ruleset: Ruleset, players: int, rng: int) -> Draft:
    """The draft of a new game of ``players`` seats before its first deal
    (``Ruleset.new_game``): no cards anywhere, no scores, no rounds."""
    # dict(zip(...)), not a dict display: compiled code builds a display as a dict with
    # general keys (24 bytes an entry), every state's dict is a copy of this one, and
    # str keys alone make 16-byte entries (1,168 bytes a state's dict against 832).
    fields = dict(
        zip(
            _BLANK_FIELDS,
            (
                ruleset,
                ((),) * players,
                (),
                (),
                None,
                1,
                0,
                PLAY,
                0,
                (0,) * players,
                (),
                (),
                0,
                (),
                (),
                None,
                rng,
                (),
                None,
                (),
                0,
                None,
            ),
            strict=True,
        )
    )
    draft: Draft = _new(Draft)
    _set_draft_dict(draft, fields)
    return draft

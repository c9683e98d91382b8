"""Table penalties: coaching (R-PEN-COACH) and caught illegal plays (R-PEN-ILLEGAL).

Enable it with ``Ruleset.from_names(["classic", "penalties"], options={"enforcement": "table"})``
(or with an edition); it needs a base rule set that deals the cards and plays
them, and names none.

Rules
-----

**R-PEN-COACH** [LT]
    A player caught giving hints (coaching) draws 2. The engine cannot hear
    the table, so a coaching report is an action: ``"2: catch_coach 0"`` means
    seat 2 reports seat 0 for coaching; seat 0 draws 2 at once. It is an
    out-of-turn action: the turn, the phase and any UNO catch window stay as
    they were.

**R-PEN-ILLEGAL** [LT]
    A player who plays a card that does not match (R-TURN-MATCH), and is
    caught, takes the card back, draws 2 and the turn passes to the next
    player. With ``enforcement="table"`` the seat to play may play *any* card
    of its hand in the ordinary ``play`` phase: the non-matching ones are
    listed among the legal actions (so bots and learning agents can make
    mistakes), and the play takes effect as if it were legal. The state
    records it: ``state.extra("penalties.illegal")`` holds the offender, the
    card and the state before the play (kept until the next card is played),
    and the play's events include an ``illegal-play`` event. In the state the
    illegal play produced, any other seat may catch it: ``"3: catch_play 1"``
    (:func:`pending_illegal_play` says whether a state has a play to catch).
    Then everything the illegal card did is undone (the state goes back to
    just before the play, so the card is back in its player's hand), the
    offender draws 2 and the turn passes to the next seat. Uncaught, the play
    stands.

Phases and verbs
----------------

* ``illegal-out``: a seat played an illegal last card, or an illegal card
  whose effect emptied its hand (``phase.seat``, the card ``phase.card``, the
  play ``phase.data[0]``, then ``"effect-done"`` when the effect is done); the
  seat to move may ``accept`` it (the round ends) and any other seat may
  ``catch_play`` it.

Verbs: ``catch_play <seat>`` and ``catch_coach <seat>`` (registered here), and
classic's ``accept`` in the ``illegal-out`` phase.

Its ``apply_action`` handles only these verbs (``apply_verbs``), and its
``on_play``, which records illegal plays, is asked only with
``enforcement="table"`` (``play_kinds``, by option).

Options
-------

``enforcement`` (``strict`` default, or ``table``)
    ``strict``: illegal actions are refused with :class:`~unorules.IllegalActionError`
    as in every rule set (an illegal play cannot happen, so none is caught).
    ``table``: illegal plays can be made and caught, as above.

Decisions where the rules are silent
------------------------------------

* **What is an illegal play.** A card that does not match the top card by
  colour, number or symbol in the ordinary ``play`` phase (with
  ``challenge=off`` also a Wild Draw Four held with a card of the current
  colour). Wilds always match. Playing another card after drawing
  (R-TURN-CHOOSE-DRAW), acting out of turn and other wrong actions stay
  refused in both modes.
* **The last card.** [LT] makes no exception for the last card, so an
  illegal card may be a seat's last card, and the catch window opens before
  the round ends: the round waits in the phase ``illegal-out`` (the only
  phase in which a seat in the game holds no cards while the round goes on).
  The seat after the offender, in the direction of play before the card, is
  to move: it lets the play stand with ``accept``, which closes the window and
  ends the round as the card would have (R-OUT, and R-OUT-LAST-DRAW for a
  last Draw Two); or any other seat catches it with ``catch_play``, which
  undoes it as above: the card goes back to its player, who draws 2 and loses
  the turn, and the round goes on. Nothing else can happen in the window: no
  coaching report, UNO call or jump-in (a card that empties a hand opens no
  jump-in window).
* **A hand emptied by the illegal card's effect.** A card that discards
  others with it (No Mercy's Discard All) may empty its player's hand though it
  was not the last card laid. The same window opens, once the effect is done:
  ``accept`` then only ends the round (the effect is not carried out twice),
  and ``catch_play`` undoes the play and its effect as above. The phase says
  so with a second item, ``phase.data == (play, "effect-done")``.
* **The catch window** ("before the next seat acts") is exactly one action
  long: a catch must be the first action after the illegal play. Any other
  action (the next seat's move, but also an UNO call or catch, a coaching
  report or a jump-in) closes it and the play stands. This makes the undo
  exact: nothing else has happened since the play, so the card's whole effect
  (a Skip, Reverse, Draw Two, a 0 of 7-0 passing hands, ...) is undone.
* **After a catch** the UNO catch window of the seat before the offender stays
  closed (the offender had begun their turn, R-UNO-CATCH); an UNO call the
  offender made for the illegal card is void; the colour and the direction
  are those before the illegal play; and the penalty cards cannot be played
  at once (the rules reference, "Where the sources are silent").
* **Who may catch.** Any seat still in the game except the offender (the next
  seat included, and in a partners game the offender's partner).
* **Coaching reports** may be made by any seat still in the game, in any
  phase, against any other seat still in the game; but a seat is penalised
  for coaching **at most once per round**. The engine cannot check a report,
  so without a bound a random player would report every turn and rounds would
  never end; once per round keeps the penalty meaningful and every round
  finite. Coaching reports exist in both enforcement modes (they are about the
  table's talk, not about illegal moves). A report against a seat holding one
  card without having called UNO ends its UNO exposure (it now holds three).

Interactions
------------

No conflicts: the undo restores the state before the illegal play, so it works
with any other plugin's card effects.

``no-mercy``
    Coaching and caught illegal plays as with classic (illegal plays only in
    the phase ``play``).
``flip``
    Coaching combines; ``enforcement=table`` is refused (``check_ruleset``,
    any deck of two-faced cards): an illegal play lays a card as printed on
    one side, and FLIP! plays the face in play.
``stacking``
    Illegal plays are offered only on an ordinary turn (phase ``play``);
    answering a stack is stacking's business. A caught illegal Draw Two takes
    back the stack it started: the seat it hit neither draws nor may stack.
``seven-o``
    A caught illegal 0 or 7 gives every hand back as it was before.
``jump-in``
    A seat holding a card identical to an illegal card may jump in on it
    (R-JUMP); the jump-in is an action, so it closes the catch window and the
    illegal play stands. Illegal jump-ins are never offered. A catch closes
    the jump-in window (the offender had begun their turn).
``swap-hands``, ``shuffle-hands``, ``custom-wilds``, ``blank-cards``
    Wild cards always match, so they are never illegal; a blank written as a
    card is judged as that card.
``partners``, ``elimination``
    Every seat still in the game may catch or report another, partners
    included; seats that have left never act and are never reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from unorules import (
    Action,
    Draft,
    Event,
    EventSpec,
    ExtraSpec,
    GameState,
    GoingOut,
    Option,
    Phase,
    PhaseSpec,
    Plugin,
    Position,
    Rng,
    Ruleset,
    RulesetError,
    SeatView,
    hookimpl,
    one_of,
    register_verb,
)
from unorules.errors import StateFormatError
from unorules.validate import check_card, check_seat, check_seats, require, validate_state

__all__ = [
    "COACHED_KEY",
    "ILLEGAL_KEY",
    "PenaltiesPlugin",
    "coached_this_round",
    "pending_illegal_play",
    "plugin",
]

ILLEGAL_KEY = "penalties.illegal"
"""The ``state.extras`` key of the latest illegal play: offender, card and the state before it
(R-PEN-ILLEGAL). Kept until the next card is played; :func:`pending_illegal_play` says
whether it may still be caught."""

COACHED_KEY = "penalties.coached"
"""The ``state.extras`` key of the seats penalised for coaching this round (R-PEN-COACH)."""

register_verb(
    "catch_play",
    target="required",
    doc="catch a seat's illegal play just made (R-PEN-ILLEGAL)",
    text="{seat} caught {target:'s} illegal play",
)
register_verb(
    "catch_coach",
    target="required",
    doc="report a seat caught coaching: it draws 2 (R-PEN-COACH)",
    text="{seat} reported {target} for coaching",
)

PENALTY_CARDS = 2  # R-PEN-COACH, R-PEN-ILLEGAL: both cost 2 cards

ILLEGAL_OUT = "illegal-out"
"""The phase in which an illegal last card waits to be caught or let stand (R-PEN-ILLEGAL)."""


def coached_this_round(state: Position) -> tuple[int, ...]:
    """The seats already penalised for coaching in the current round, in seat order (R-PEN-COACH)."""
    record = state.extra(COACHED_KEY)
    if record is None or record[0] != len(state.rounds):
        return ()
    return tuple(record[1:])


_CACHE_LIMIT = 4096
_COACH_ACTIONS: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[Action, ...]] = {}
_CATCH_ACTIONS: dict[tuple[int, tuple[int, ...], int], tuple[Action, ...]] = {}


def _coach_actions(players: int, left: tuple[int, ...], coached: tuple[int, ...]) -> tuple[Action, ...]:
    key = (players, left, coached)
    actions = _COACH_ACTIONS.get(key)
    if actions is None:
        seats = [s for s in range(players) if s not in left]
        actions = tuple(
            Action.of(reporter, "catch_coach", target=coach)
            for coach in seats
            if coach not in coached
            for reporter in seats
            if reporter != coach
        )
        if len(_COACH_ACTIONS) >= _CACHE_LIMIT:  # states restored from outside may vary without end
            _COACH_ACTIONS.clear()
        _COACH_ACTIONS[key] = actions
    return actions


def _catch_actions(players: int, left: tuple[int, ...], offender: int) -> tuple[Action, ...]:
    key = (players, left, offender)
    actions = _CATCH_ACTIONS.get(key)
    if actions is None:
        actions = tuple(
            Action.of(s, "catch_play", target=offender)
            for s in range(players)
            if s != offender and s not in left
        )
        if len(_CATCH_ACTIONS) >= _CACHE_LIMIT:
            _CATCH_ACTIONS.clear()
        _CATCH_ACTIONS[key] = actions
    return actions


def pending_illegal_play(state: GameState) -> tuple[Any, ...] | None:
    """The record of the illegal play that may be caught in ``state``, or ``None``.

    The record (``state.extra(ILLEGAL_KEY)``) may outlive its window until the
    next card is played; the window is open only in the state the illegal play
    produced, which is the one whose events include its ``illegal-play`` event
    (R-PEN-ILLEGAL)."""
    record = state.extra(ILLEGAL_KEY)
    if record is None:
        return None
    for event in state.events:
        if event.kind == "illegal-play" and event.rule == "R-PEN-ILLEGAL":
            return tuple(record)
    return None


def _is_illegal_play(state: GameState, action: Action) -> bool:
    """Whether ``action`` is a non-matching play by the seat to play (R-PEN-ILLEGAL)."""
    card = action.card
    return (
        card is not None
        and action.verb == "play"
        and action.seat == state.current_player
        and state.phase.name == "play"
        and not state.matches(action.seat, card)
    )


class PenaltiesPlugin(Plugin):
    """Table penalties: coaching costs 2 cards; illegal plays can be made and caught.

    Coaching reports (R-PEN-COACH) and, with ``enforcement="table"``, illegal
    plays that other seats can catch (R-PEN-ILLEGAL).
    """

    name = "penalties"
    api_version = 2
    verbs: ClassVar[Mapping[str, str]] = {
        "play": "turn",
        "catch_play": "any",
        "catch_coach": "any",
        "accept": "turn",
    }
    events = (
        EventSpec(
            "illegal-play",
            "a card that does not match was played; any other seat may catch it now (R-PEN-ILLEGAL)",
            (
                ("seat", "the seat that played it"),
                ("cards", "the card"),
                ("color", "the colour it should have matched"),
                ("data.top", "the card it was played on"),
            ),
            "{seat} played {cards} on {data[top]}, which it does not match: anyone else may catch it",
        ),
        EventSpec(
            "caught-play",
            "an illegal play was caught: the card goes back, its player draws (R-PEN-ILLEGAL)",
            (
                ("seat", "the seat caught"),
                ("target", "the seat that caught it"),
                ("cards", "the card taken back"),
                ("count", "the penalty cards drawn"),
            ),
            "{target} caught {seat:'s} illegal {cards}: it went back",
        ),
        EventSpec(
            "uncaught",
            "nobody caught an illegal last card: it stands and the round ends (R-PEN-ILLEGAL, R-OUT)",
            (
                ("seat", "the seat that played it"),
                ("target", "the seat that let it stand"),
                ("cards", "the card"),
            ),
            "nobody caught {seat:'s} illegal {cards}: it stands",
        ),
        EventSpec(
            "coaching",
            "a seat was reported for coaching and draws the penalty (R-PEN-COACH)",
            (
                ("seat", "the coach"),
                ("target", "the seat that reported it"),
                ("count", "the penalty cards drawn"),
            ),
            "{target} reported {seat} for coaching",
        ),
    )
    extras = (
        ExtraSpec(
            COACHED_KEY,
            "R-PEN-COACH: the index of the round, then the seats penalised for coaching in it",
            public=True,
        ),
        ExtraSpec(
            ILLEGAL_KEY,
            "R-PEN-ILLEGAL: the latest illegal play (offender, card) and the table before it, "
            "which a catch restores",
        ),
    )
    phases = (
        PhaseSpec(
            ILLEGAL_OUT,
            "an illegal last card was played: catch it (catch_play) or let it stand (accept: the round "
            "ends) (R-PEN-ILLEGAL)",
            empty_hand=True,
        ),
    )
    # on_play acts only with enforcement=table (illegal plays); with strict it is never asked.
    rules = ("R-PEN-COACH", "R-PEN-ILLEGAL")
    options = (
        Option(
            "enforcement",
            "strict",
            "strict: illegal moves are refused; table: illegal plays can be made and caught (R-PEN-ILLEGAL)",
            one_of("strict", "table"),
            "strict, table",
        ),
    )

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        if ruleset.two_faced and ruleset.options["enforcement"] == "table":
            raise RulesetError(
                "penalties with enforcement=table lays illegal plays as cards printed on one side; "
                "a deck of two-faced cards (flip) plays the face in play and is not defined with it "
                "(coaching, enforcement=strict, combines)"
            )

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        # R-PEN-COACH: any seat may report another, each seat penalised once a round.
        left = state.left
        players = len(state.hands)
        coached = coached_this_round(state) if state.extras else ()
        coach = _COACH_ACTIONS.get((players, left, coached))
        if coach is None:  # an empty tuple once every seat was reported is a hit too
            coach = _coach_actions(players, left, coached)
        if state.ruleset.options["enforcement"] != "table":
            return coach
        acts: list[Action] = []
        name = state.phase.name
        if name == ILLEGAL_OUT:
            # R-PEN-ILLEGAL on the last card: caught, or let stand by the next seat.
            offender = state.phase.seat
            assert offender is not None
            return (Action.of(state.current_player, "accept"), *_catch_actions(players, left, offender))
        if name == "play":
            # R-PEN-ILLEGAL: the seat to play may play any card, matching or not,
            # its last card too.
            seat = state.current_player
            hand = state.hands[seat]
            for card in dict.fromkeys(hand):
                if not state.matches(seat, card):
                    acts += state.play_actions(seat, card)
        pending = pending_illegal_play(state) if state.extras else None
        if pending is not None:
            # R-PEN-ILLEGAL: any other seat may catch it, right away.
            acts += _catch_actions(players, left, pending[0])
        acts += coach
        return acts

    @hookimpl
    def going_out(self, draft: Draft, seat: int) -> GoingOut | None:
        # R-PEN-ILLEGAL: an illegal last card does not end the round yet: the next
        # seat may catch it or let it stand (phase illegal-out, set by on_play).
        action = draft.action
        before = draft.before
        if (
            action is not None
            and before is not None
            and action.verb == "play"
            and action.seat == seat
            and draft.ruleset.options["enforcement"] == "table"
            and _is_illegal_play(before, action)
        ):
            return _NOT_YET
        return None

    @hookimpl(tryfirst=True)
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        # R-PEN-ILLEGAL has no exception for the last card: an illegal last card
        # opens the catch window before the round ends (R-OUT waits for accept).
        # Only the play being applied, never a card let stand later.
        if (
            action is draft.action
            and not draft.hands[action.seat]
            and draft.ruleset.options["enforcement"] == "table"
            and _is_illegal_play(previous, action)
        ):
            _illegal_out(draft, action, previous)
            return True
        return None

    @hookimpl
    def after_action(self, draft: Draft, action: Action, before: GameState) -> None:
        # The record of an illegal play lasts until the next card is played; an
        # illegal play that took effect is recorded, with its event (R-PEN-ILLEGAL).
        if action.verb != "play" or draft.ruleset.options["enforcement"] != "table":
            return  # strict enforcement never records an illegal play
        if draft.phase.name == ILLEGAL_OUT:
            return
        earlier = before.extra(ILLEGAL_KEY) if before.extras else None
        if earlier is not None and draft.extra(ILLEGAL_KEY) is earlier:
            draft.set_extra(ILLEGAL_KEY, None)  # a card was played since: that window closed
        if (
            _is_illegal_play(before, action)
            and draft.outcome is None
            and len(draft.rounds) == len(before.rounds)
        ):
            seat = action.seat
            if not draft.hands[seat] and seat not in draft.left:
                # The card's effect emptied the hand (a Discard All): going_out
                # said "not yet", so the window opens now, the effect done.
                _illegal_out(draft, action, before, effect_done=True)
                return
            # R-PEN-ILLEGAL: the play takes effect, and stands unless the very next action catches it.
            draft.set_extra(ILLEGAL_KEY, _snapshot(before, action))
            draft.add_event(_illegal_event(before, action))

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        verb = action.verb
        if verb == "accept" and draft.phase.name == ILLEGAL_OUT:
            _let_stand(draft)
        elif verb == "catch_play":
            _catch_play(draft, action)
        elif verb == "catch_coach":
            _catch_coach(draft, action)
        else:
            return None
        return True

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        return _explain(state, action)

    @hookimpl
    def resample_extras(self, state: GameState, view: SeatView, rng: Rng) -> Sequence[tuple[str, Any]]:
        # R-PEN-ILLEGAL: an illegal play that may still be caught keeps the table
        # before it, private; a state sampled for a seat's view rebuilds it.
        return _resampled_record(state, view)

    @hookimpl
    def check_state(self, state: GameState) -> None:
        _check_coached(state)
        _check_record(state)
        _check_illegal_out(state)


def _check_illegal_out(state: GameState) -> None:
    """The ``illegal-out`` phase holds the illegal last play it waits on: one
    ``play`` action of the offender (``phase.seat``), whose card is ``phase.card``
    and the record's, with the offender's hand empty (R-PEN-ILLEGAL, R-OUT)."""
    phase = state.phase
    if phase.name != ILLEGAL_OUT or state.outcome is not None:
        return
    rule = "R-PEN-ILLEGAL: an illegal last card waits for a catch"
    offender = check_seat(state, phase.seat, "phase.seat", in_play=True)
    require(
        len(phase.data) in (1, 2)
        and isinstance(phase.data[0], Action)
        and (len(phase.data) == 1 or phase.data[1] == EFFECT_DONE),
        "phase.data",
        f"{rule} (its play, then {EFFECT_DONE!r} when the card's effect emptied the hand)",
    )
    play = phase.data[0]
    require(
        play.verb == "play" and play.seat == offender and play.card is not None and play.card is phase.card,
        "phase.data[0]",
        f"{rule}: the offender's play of phase.card",
    )
    require(not state.hands[offender], f"hands[{offender}]", f"{rule}: the offender holds no card")
    record = state.extra(ILLEGAL_KEY)
    require(
        record is not None and record[0] == offender and record[1] is play.card,
        f"extras.{ILLEGAL_KEY}",
        f"{rule}: the record of that play",
    )


def _check_coached(state: GameState) -> None:
    coached = state.extra(COACHED_KEY)
    if coached is None:
        return
    field = f"extras.{COACHED_KEY}"
    require(
        isinstance(coached, tuple)
        and bool(coached)
        and isinstance(coached[0], int)
        and not isinstance(coached[0], bool)
        and 0 <= coached[0] <= len(state.rounds),
        field,
        "R-PEN-COACH: (the index of a round played so far, then the seats penalised for coaching in it)",
    )
    seats = check_seats(state, coached[1:], f"{field}[1:]")
    require(list(seats) == sorted(seats), f"{field}[1:]", "R-PEN-COACH: the seats in seat order")


def _check_record(state: GameState) -> None:
    """The record of an illegal play holds the state before it, which a catch
    restores: that state must be valid too (R-PEN-ILLEGAL)."""
    record = state.extra(ILLEGAL_KEY)
    if record is None:
        return
    field = f"extras.{ILLEGAL_KEY}"
    require(
        isinstance(record, tuple) and len(record) == 13,
        field,
        "R-PEN-ILLEGAL: (offender, card, hands, draw pile, discard pile, colour, direction, seat to move, "
        "phase, UNO calls, stalled turns, generator, extras) as they were before the illegal play",
    )
    offender, card, hands, _, _, _, _, _, phase, _, _, _, extras = record
    check_seat(state, offender, f"{field}[0]", in_play=True)
    check_card(state, card, f"{field}[1]")
    require(
        isinstance(hands, tuple) and len(hands) == state.players,
        f"{field}[2]",
        "R-PEN-ILLEGAL: one hand per seat",
    )
    require(
        isinstance(hands[offender], tuple) and card in hands[offender],
        f"{field}[1]",
        f"R-PEN-ILLEGAL: the card taken back was in seat {offender}'s hand before the play",
    )
    require(
        isinstance(phase, tuple)
        and len(phase) == 6
        and isinstance(phase[0], str)
        and isinstance(phase[1], int)
        and isinstance(phase[5], tuple),
        f"{field}[8]",
        "R-PEN-ILLEGAL: the phase as (name, count, card, seat, colour, data)",
    )
    require(
        isinstance(extras, tuple)
        and all(isinstance(item, tuple) and len(item) == 2 and item[0] != ILLEGAL_KEY for item in extras),
        f"{field}[12]",
        "R-PEN-ILLEGAL: the other extras, as (key, value) pairs",
    )
    before = _before(state, record).replace(uno_exposed=(), events=())
    try:
        validate_state(before)
    except StateFormatError as exc:
        raise StateFormatError(
            f"{field}: R-PEN-ILLEGAL: the state before the illegal play, which a catch restores, "
            f"makes no sense: {exc}",
            field,
        ) from None


def _snapshot(state: GameState, action: Action) -> tuple[Any, ...]:
    """Everything an illegal play and its effect may change, as it was before the play."""
    p = state.phase
    extras = tuple(item for item in state.extras if item[0] != ILLEGAL_KEY)
    return (
        action.seat,
        action.card,
        state.hands,
        state.draw_pile,
        state.discard_pile,
        state.color,
        state.direction,
        state.current_player,
        (p.name, p.count, p.card, p.seat, p.color, p.data),
        state.uno_declared,
        state.stalled,
        state.rng,
        extras,
    )


def _resampled_record(state: GameState, view: SeatView) -> tuple[tuple[str, Any], ...]:
    """The record of the illegal play that ``view`` shows may still be caught,
    rebuilt around the cards of ``state`` (sampled for that view): the play
    undone from the view's events (the card back in its player's hand, whole
    hands that it moved given back, the colour and direction before it), or
    nothing when no play may be caught (R-PEN-ILLEGAL)."""
    events = view.events
    illegal = next((e for e in events if e.kind == "illegal-play" and e.rule == "R-PEN-ILLEGAL"), None)
    if illegal is None or not illegal.cards or illegal.seat is None:
        return ()
    offender = illegal.seat
    card = illegal.cards[0]
    hands = list(state.hands)
    for event in reversed(events):
        pairs = event.value("hands") if event.kind == "move" else None
        if pairs:
            moved = list(hands)
            for giver, receiver in pairs:
                moved[giver] = hands[receiver]
            hands = moved
    hands[offender] = (*hands[offender], card)
    last = state.phase.name == ILLEGAL_OUT
    direction = -state.direction if card.kind == "R" and not last else state.direction
    declared = state.uno_declared
    if len(state.hands[offender]) == 1 and offender not in state.uno_exposed and offender not in declared:
        declared = (*declared, offender)  # the call the card used (R-UNO-CALL)
    extras = tuple(item for item in state.extras if item[0] != ILLEGAL_KEY)
    record = (
        offender,
        card,
        tuple(hands),
        state.draw_pile,
        state.discard_pile[:-1] if state.discard_pile[-1:] == (card,) else state.discard_pile,
        illegal.color,
        direction,
        offender,
        ("play", 0, None, None, None, ()),
        declared,
        0,
        state.rng,
        extras,
    )
    return ((ILLEGAL_KEY, record),)


def _illegal_event(previous: GameState, action: Action) -> Event:
    card = action.card
    return Event(
        "illegal-play",
        action.seat,
        (card,) if card is not None else (),
        "R-PEN-ILLEGAL",
        f"on {previous.top_card} (colour {previous.color}); any other seat may catch it now",
        color=previous.color,
        data=(("top", previous.top_card),),
    )


_NOT_YET = GoingOut(ends=False)
"""An illegal last card's answer to ``going_out``: the round waits (R-PEN-ILLEGAL)."""


EFFECT_DONE = "effect-done"
"""The second item of an ``illegal-out`` phase's data when the illegal card's
effect, which emptied the hand, is already done (R-PEN-ILLEGAL)."""


def _illegal_out(draft: Draft, action: Action, previous: GameState, effect_done: bool = False) -> None:
    """An illegal last card, or an illegal card whose effect emptied the hand
    (``effect_done``): the round waits in phase ``illegal-out`` for a catch or for
    the next seat to let it stand (R-PEN-ILLEGAL, R-OUT). The next seat is the
    one after the offender in the direction of play before the card."""
    seat = action.seat
    draft.current_player = (previous if effect_done else draft).next_seat(seat)
    data: tuple[Any, ...] = (action, EFFECT_DONE) if effect_done else (action,)
    draft.phase = Phase(ILLEGAL_OUT, 0, action.card, seat, data=data)
    draft.set_extra(ILLEGAL_KEY, _snapshot(previous, action))
    draft.add_event(_illegal_event(previous, action))


def _table_before(record: tuple[Any, ...]) -> dict[str, Any]:
    """The fields of the table an illegal play may change, as the ``record``
    (a :func:`_snapshot`) has them: the table just before the play."""
    _, _, hands, draw, discard, color, direction, current, phase, declared, stalled, rng, extras = record
    return {
        "hands": hands,
        "draw_pile": draw,
        "discard_pile": discard,
        "color": color,
        "direction": direction,
        "current_player": current,
        "phase": Phase(*phase),
        "uno_declared": declared,
        "stalled": stalled,
        "rng": rng,
        "extras": extras,
    }


def _before(state: GameState, record: tuple[Any, ...]) -> GameState:
    """``state`` with the table as the ``record`` has it: the state just before
    the illegal play (checked by ``check_state``)."""
    return state.replace(**_table_before(record))


def _let_stand(draft: Draft) -> None:
    # R-PEN-ILLEGAL: nobody caught the illegal last card: the window closes and
    # the card acts as its player's last card (R-OUT, R-OUT-LAST-DRAW).
    before = draft.before
    assert before is not None
    record = draft.extra(ILLEGAL_KEY)
    assert record is not None
    phase = draft.phase
    play, *done = phase.data
    offender = phase.seat
    assert offender is not None
    previous = _before(before, record)
    draft.current_player = offender
    draft.phase = previous.phase
    draft.set_extra(ILLEGAL_KEY, None)
    draft.add_event(
        Event(
            "uncaught",
            offender,
            (play.card,),
            "R-PEN-ILLEGAL",
            f"seat {before.current_player} lets it stand",
            target=before.current_player,
        )
    )
    if done:  # the effect emptied the hand and is done: only the going out is left
        draft.went_out(offender)
    else:
        draft.card_effect(play, previous)


def _catch_play(draft: Draft, action: Action) -> None:
    # R-PEN-ILLEGAL: the offender takes the card back, draws 2 and loses the turn.
    # (The catch was legal, so the window was open.)
    pending = draft.extra(ILLEGAL_KEY)
    assert pending is not None
    offender, card = pending[0], pending[1]
    table = _table_before(pending)
    # An UNO call made for the card taken back is void; the offender had
    # begun their turn, which closed the catch window before it (R-UNO-CATCH).
    table["uno_declared"] = tuple(s for s in table["uno_declared"] if s != offender)
    table["uno_exposed"] = ()
    draft.restore(**table)
    draft.add_event(
        Event(
            "caught-play",
            offender,
            (card,),
            "R-PEN-ILLEGAL",
            f"caught by seat {action.seat}: takes the card back, draws {PENALTY_CARDS}, loses the turn",
            target=action.seat,
            count=PENALTY_CARDS,
        )
    )
    draft.draw(offender, PENALTY_CARDS, "penalty")
    draft.pass_turn(1, offender)


def _catch_coach(draft: Draft, action: Action) -> None:
    # R-PEN-COACH: the coach draws 2; the turn and phase stay as they are.
    coach = action.target
    assert coach is not None
    coached = tuple(sorted((*coached_this_round(draft), coach)))
    draft.set_extra(COACHED_KEY, (len(draft.rounds), *coached))
    draft.add_event(
        Event(
            "coaching",
            coach,
            (),
            "R-PEN-COACH",
            f"reported by seat {action.seat}: draws {PENALTY_CARDS}",
            target=action.seat,
            count=PENALTY_CARDS,
        )
    )
    draft.end_exposure((coach,))
    draft.draw(coach, PENALTY_CARDS, "penalty")


def _explain(state: GameState, action: Action) -> tuple[str, str] | None:
    verb = action.verb
    table = state.ruleset.options["enforcement"] == "table"
    if verb in ("catch_play", "catch_coach") and (action.card is not None or action.color is not None):
        rule = "R-PEN-ILLEGAL" if verb == "catch_play" else "R-PEN-COACH"
        return rule, f"'{verb}' names only a seat, e.g. '{action.seat}: {verb} {action.target}'"
    if verb == "catch_play":
        if not table:
            return (
                "R-PEN-ILLEGAL",
                "with enforcement='strict' illegal plays are refused, so there is none to catch; "
                "catching needs enforcement='table'",
            )
        pending = pending_illegal_play(state)
        if pending is None:
            return (
                "R-PEN-ILLEGAL",
                "there is no illegal play to catch: a catch must come right after the illegal play, "
                "before any other action",
            )
        if action.seat == pending[0]:
            return "R-PEN-ILLEGAL", "a seat cannot catch its own illegal play"
        return (
            "R-PEN-ILLEGAL",
            f"the illegal play to catch is seat {pending[0]}'s, not seat {action.target}'s",
        )
    phase = state.phase
    if phase.name == ILLEGAL_OUT:
        current = state.current_player
        return (
            "R-PEN-ILLEGAL",
            f"seat {phase.seat} played an illegal last card ({phase.card}): any other seat may catch it "
            f"('catch_play {phase.seat}'), or seat {current} lets it stand ('{current}: accept'), "
            "which ends the round; nothing else may happen first",
        )
    if verb == "catch_coach":
        coach = action.target
        if coach == action.seat:
            return "R-PEN-COACH", "a seat cannot report itself for coaching"
        if coach is None or not 0 <= coach < state.players or coach in state.left:
            return "R-PEN-COACH", f"seat {coach} is not in the game"
        if coach in coached_this_round(state):
            return (
                "R-PEN-COACH",
                f"seat {coach} was already penalised for coaching this round (at most once a round)",
            )
        return "R-PEN-COACH", "no coaching report can be made now"
    return None


plugin = PenaltiesPlugin()
"""The plugin object the ``unorules`` entry point ``penalties`` names."""

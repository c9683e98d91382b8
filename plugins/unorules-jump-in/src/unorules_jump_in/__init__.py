"""Jump-in: play a card identical to the top card out of turn (R-JUMP).

Enable it with ``Ruleset.from_names(["classic", "jump-in"])``; it requires
``classic`` and changes the game only through hooks: it lists the out-of-turn
plays (``legal_actions``), keeps track of the window in which they are allowed
and undoes the turn flow of the card jumped on before the jumping card takes
effect, both in its ``apply_action`` (``tryfirst``: it hands the rest of the
chain a state in which the jumper is the seat to move, and tracks the window on
what the rest returns). For plays, draws, passes, accepts and challenges it
also offers ``direct_finishers``: the same window tracking done inside
classic's one-step appliers, so those actions are applied in one step, one
copy, with jump-in too; and a ``direct_wrappers`` entry for plays, which sets
a jump-in's turn up before classic's one-step play (one more copy, and one
to put the jump-in event first).

Rules
-----

**R-JUMP** [LT] (rules reference, house rules): a player holding a card identical to the
top card (same colour and same number or symbol; the example is a blue 6 on a
blue 6) may play it at once, out of turn. Play continues from the player who
jumped in.

1. A player with two identical cards may play them one on the other in one
   turn; another player may jump in between and stop the second.
2. If a Skip, Reverse, Draw Two or Wild Draw Four is jumped on by an identical
   card, the jumping card's action replaces the first one's, taken from the
   jumper's seat, and the jumper's seat continues the game.

Jump-ins are ordinary ``play`` actions of the seat that jumps in::

    3: play B6          seat 3 jumps in with a blue 6 while seat 1 is to move

``state.legal_actions(seat)`` lists them for every seat that may jump in.

Options
-------

``jump_in_match`` (``identical`` by default; ``color-or-number``)
    ``identical``: only a card identical to the top card (the default, after
    [LT]'s example). ``color-or-number``: [LT]'s own sentence, "a card
    matching the top card *by colour or number*", read as it stands:
    any coloured card of the current colour or of the top card's number may
    jump in too, and identical cards always may. A card that is not identical
    never replaces the action of the card it lands on (point 2 speaks of
    identical cards), so it may jump in only while the seat to move is on an
    ordinary turn (phase ``play``), never to cut short a pending draw or
    challenge.

Decisions where the rules are silent
------------------------------------

* **Identical wilds.** Wild cards have no colour: a wild is identical to a
  wild of the same kind (a Wild on a Wild, a Wild Draw Four on a Wild Draw
  Four, a Swap Hands on a Swap Hands) whatever colour was named for it, and the
  jumper names a new colour. [LT] lists the Wild Draw Four among the cards
  that may be jumped on (point 2).
* **Who.** Any seat still in the game other than the seat to move. The seat to
  move plays its turn: its plays are turn plays, never jump-ins. So a seat told
  to draw by a Draw Two cannot pass it on with an identical card (with
  ``stacking`` it stacks it instead), and after a Skip between two players the
  Skip's player simply plays again.
* **The window** opens when a card is played (not when the starter is turned:
  nobody played it) and closes when the next seat acts: at any action of the
  seat to move other than an UNO call (``uno``) or a catch (``catch``), which
  are not turns. It also closes when the turn moves on otherwise (another
  seat's challenge under ``challenger=anyone``, a caught illegal play under
  ``penalties``) and at the end of the round. Other seats' actions that leave
  the turn as it was (UNO calls, catches, a ``penalties`` coaching report)
  keep it open. A jump-in is a play: it opens a new window on the jumper's
  card. The window is kept in ``state.extras`` under ``"jump-in"`` (with the
  turn flow to restore, below), so it survives JSON.
* **Replacing the action** (point 2). Before an identical jumping card takes
  effect, the turn flow the card jumped on set up is undone: the direction of
  play, whose turn it is, and any decision it left pending (a draw, a
  challenge, a stack). Then the jumping card acts from the jumper's seat, as
  if played there on the jumper's turn. So:

  - a jumped **Skip** skips the seat after the jumper instead;
  - a jumped **Reverse**: the direction flips once in all, not twice (the
    second Reverse replaces the first), and play goes on from the jumper;
  - a jumped **Draw Two**: its victim draws nothing; the seat after the jumper
    draws 2;
  - a jumped **Wild Draw Four**: its victim neither draws nor challenges; the
    jumper names a new colour, and the seat after the jumper may challenge
    the jumper's card (R-CHALLENGE), judged against the colour current when it
    was played (the one the jumped card named). R-TURN-WD4 applies to a jumping
    Wild Draw Four as to any: with ``challenge=off`` it may jump in only
    without a card of the current colour.

  Point 2 names four cards; the same holds for every identical jump-in (for a
  number card or a Wild there is nothing to undo but the turn). What is *not*
  undone: cards already drawn or moved (a 7 or 0 of ``seven-o``, a Swap Hands,
  a customizable wild's effect), UNO penalties.
* **Two identical cards in one turn** (point 1). The second card is a jump-in
  by the first card's own player, allowed until the next seat acts; by point 2
  its action replaces the first one's: two Skips skip one seat, two Draw Twos
  make the next seat draw 2 (not 4), two Reverses flip the direction once.
  If another seat jumps in between, play continues from that seat and the
  second card stays in its player's hand; being identical to the new top card,
  it may still jump in later, as a new jump-in that replaces the interloper's.
* **UNO.** A seat holding two cards, one of which may jump in, may call
  ``uno`` out of turn before jumping in with its next-to-last card
  (R-UNO-CALL); a jumper that goes down to one card without calling is open
  to a catch as usual. As with any card laid (classic), a jump-in ends other
  seats' catch windows.
* **An out-of-turn UNO call is for the jump-in only.** Like a call on one's
  turn, which counts for the card played next (classic), a call made out of
  turn counts for the jump-in it announces. If the window closes (the seat to
  move acts, or another seat's play opens a new window) before the caller
  jumps in, the call lapses: the caller must call again before playing down
  to one card on a later turn, or be caught. UNO calls, catches and coaching
  reports leave the window, and so the call, as they were. Unused
  out-of-turn calls are kept in ``state.extras`` under ``"jump-in.calls"``.
* **Going out** on a jump-in ends the round as usual (R-OUT, R-OUT-LAST-DRAW:
  the seat after the jumper draws for a last Draw Two or Wild Draw Four).
  A card that empties its player's hand never opens a window: the round ends,
  or a plugin holds it open only to settle that card (``penalties``' catch of
  an illegal last card).
* Refusals cite ``R-JUMP``: an out-of-turn play while the window is closed, a
  card that is not identical (or, with ``color-or-number``, does not match),
  a card the seat does not hold.

Interactions
------------

``stacking``
    A jump-in on a stacked Draw Two (or Wild Draw Four) replaces that card's
    share of the stack with the jumper's: the stack keeps its size and passes
    on from the jumper's seat, and the seat that was to answer it is let off.
    The seat answering a stack stacks; it never jumps in. A stacker's identical
    second card replaces its first, so R-STACK 4 (one card per turn) holds.
    Only the last Wild Draw Four of a stack may be challenged.
``seven-o``
    A jumped 7 or 0: the hands it moved stay moved, and the jumping 7 or 0
    moves hands again from the jumper's seat (a 7 names the seat to trade
    with). Who may jump in is judged on the hands after the first card moved.
``swap-hands``, ``shuffle-hands``, ``custom-wilds``, ``blank-cards``
    Their wilds jump in on a wild of the same kind; the hands or cards the
    jumped card moved stay moved, and the jumping card's effect comes from the
    jumper's seat. A blank card declared as a replacement plays as the card it
    stands for.
``partners``, ``elimination``
    Any seat still in the game may jump in, partners included; seats that have
    left never do.
``penalties``
    An identical card may jump in on an illegal play (the jump-in closes the
    catch window, so the illegal play stands); a caught illegal play closes the
    jump-in window; a coaching report leaves it open. An illegal last card
    opens no jump-in window: it is caught or let stand first.

Conflicts
---------

None: ``jump-in`` builds with every other shipped plugin.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from unorules import (
    PLAY,
    Action,
    Card,
    Event,
    EventSpec,
    GameState,
    Option,
    Phase,
    Plugin,
    Ruleset,
    hookimpl,
    one_of,
)
from unorules.chain import rest_of_chain
from unorules.plugin import Applier, ApplierWrapper, Finisher
from unorules.validate import check_phase, require

__all__ = ["CALLS", "WINDOW", "JumpInPlugin", "plugin", "window"]

WINDOW = "jump-in"
"""The ``state.extras`` key of the open jump-in window."""

CALLS = "jump-in.calls"
"""The ``state.extras`` key of the seats whose out-of-turn UNO call (made to
jump in with their next-to-last card) lapses when the window closes."""

KEEPS_WINDOW = frozenset({"uno", "catch"})
"""Verbs that are not a turn: they leave the window open."""

_NONE: tuple[Action, ...] = ()


def window(state: GameState) -> tuple[Phase, int] | None:
    """The open jump-in window of ``state``: the phase and direction to restore
    when an identical card replaces the top card's action, or ``None`` when
    nobody may jump in."""
    value = state.extra(WINDOW)
    if value is None:
        return None
    (name, count, card, seat, color, data), direction = value
    return Phase(name, count, card, seat, color, data), direction


def _snapshot(phase: Phase, direction: int) -> tuple[Any, ...]:
    return ((phase.name, phase.count, phase.card, phase.seat, phase.color, phase.data), direction)


class JumpInPlugin(Plugin):
    """R-JUMP: identical cards played out of turn, replacing the first card's action."""

    name = "jump-in"
    summary = "Jump-in: a card identical to the top card may be played out of turn"
    requires = ("classic",)
    rules = ("R-JUMP",)
    verbs = ("play", "uno")
    events = (
        EventSpec(
            "jump-in",
            "a seat jumped in out of turn with a card identical to the top card (R-JUMP)",
            (("seat", "the seat that jumped in"), ("cards", "the card")),
        ),
    )
    out_of_turn_verbs = ("play", "uno")
    public_extras = (WINDOW, CALLS)
    options = (
        Option(
            "jump_in_match",
            "identical",
            "R-JUMP: which cards may jump in: identical ones ([LT]'s example) "
            "or any of the colour or number [LT text]",
            one_of("identical", "color-or-number"),
            "identical, color-or-number",
        ),
    )

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        # Every state asks: the fields are read from the state's dict (a state's
        # attribute is a generic look-up).
        fields = state.__dict__
        for key, _ in fields["extras"]:  # state.extra(WINDOW) is not None, inlined
            if key == WINDOW:
                break
        else:
            return _NONE
        top = fields["discard_pile"][-1]
        options = fields["ruleset"].options
        if options["jump_in_match"] == "color-or-number" and fields["phase"].name == "play":
            return _loose_jump_ins(state, top)
        # Only identical cards (R-JUMP). Usually no hand holds one: a first
        # loop that only searches (an identity scan per hand) says so.
        hands = fields["hands"]
        for hand in hands:
            if top in hand:
                break
        else:
            return _NONE
        # R-TURN-WD4 still binds a jumping Wild Draw Four when bluffs are off.
        strict_wd4 = top.kind == "W+4" and not options["challenge"]
        current = fields["current_player"]
        left = fields["left"]
        acts: list[Action] | None = None
        seat = -1
        for hand in hands:
            seat += 1
            if seat == current or top not in hand or (left and seat in left):
                continue
            if strict_wd4:
                color = fields["color"]
                if any(c.color is color for c in hand):
                    continue
            if acts is None:
                acts = []
            acts += state.play_actions(seat, top)  # R-JUMP
            if len(hand) == 2 and seat not in fields["uno_declared"]:
                acts.append(Action.of(seat, "uno"))  # R-UNO-CALL before jumping in with the next-to-last card
        return _NONE if acts is None else acts

    @hookimpl
    def check_state(self, state: GameState) -> None:
        # R-JUMP: the window keeps the phase and direction an identical jump-in restores.
        value = state.extra(WINDOW)
        if value is None:
            return
        field = f"extras.{WINDOW}"
        require(
            isinstance(value, tuple)
            and len(value) == 2
            and isinstance(value[0], tuple)
            and len(value[0]) == 6
            and isinstance(value[0][0], str)
            and isinstance(value[0][1], int)
            and isinstance(value[0][5], tuple),
            field,
            "R-JUMP: the window is ((phase name, count, card, seat, colour, data), direction)",
        )
        (name, count, card, seat, color, data), direction = value
        require(
            direction in (1, -1) and not isinstance(direction, bool), f"{field}[1]", "a direction, 1 or -1"
        )
        check_phase(state, Phase(name, count, card, seat, color, data), f"{field}[0]")

    @hookimpl(tryfirst=True)
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        # First of the plain implementations: a jump-in's turn flow is set up
        # before the rest of the chain plays the card; the window is tracked
        # on what the rest returns (R-JUMP).
        rules = state.ruleset
        rest = rules.cache.get(_REST)
        if rest is None:
            rest = rules.cached(_REST, _rest_of_chain)
        verb = action.verb
        seat = action.seat
        current = state.current_player
        if verb == "play":
            saved: Any = None
            for key, value in state.extras:  # state.extra(WINDOW), inlined (every play)
                if key == WINDOW:
                    saved = value
                    break
            jump = seat != current and saved is not None
            after: GameState | None = rest(_jumping(state, action, saved) if jump else state, action)
            return None if after is None else _window_after_play(state, action, after, jump, saved)
        after = rest(state, action)
        if after is None:
            return None
        if verb in KEEPS_WINDOW:
            if verb == "uno" and seat != current and seat not in state.uno_exposed:
                # An out-of-turn call announcing a jump-in (R-UNO-CALL): it lapses with the window.
                calls: tuple[int, ...] = after.extra(CALLS, ())
                if seat not in calls:
                    after = after.with_extra(CALLS, (*calls, seat))
            return after  # not a turn: the window stays as it was
        return _window_after_turn(state, action, after)

    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, ApplierWrapper]:
        # A jump-in changes the turn before the card is played
        # (Plugin.direct_wrappers): the jumper's turn set up, then the rest's
        # one-step play; the window on its result is the finisher's work.
        return {"play": _jump_in_directly}

    def direct_finishers(self, ruleset: Ruleset) -> Mapping[str, Finisher]:
        # On the fields of the state classic's one-step play, draw, pass,
        # accept and challenge make (Plugin.direct_finishers): the window
        # tracked as apply_action tracks it on the rest's result. A jump-in's
        # turn is set up by the wrapper above, before the rest plays the card.
        return {
            "play": _finish_play,
            "draw": _finish_turn,
            "pass": _finish_turn,
            "accept": _finish_turn,
            "challenge": _finish_turn,
        }

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        card = action.card
        if action.verb != "play" or card is None:
            return None
        seat = action.seat
        current = state.current_player
        if seat == current:
            return None
        if state.extra(WINDOW) is None:
            return (
                "R-JUMP",
                f"it is seat {current}'s turn: out of turn a card may be played only as a jump-in, "
                f"on a card just played and before seat {current} acts",
            )
        hand = state.hands[seat]
        if card not in hand:
            return "R-JUMP", f"seat {seat} holds no {card}"
        top = state.top_card
        options = state.ruleset.options
        if card is not top:
            if options["jump_in_match"] != "color-or-number":
                return "R-JUMP", f"only a card identical to the top card {top} may be played out of turn"
            if state.phase.name != "play":
                return (
                    "R-JUMP",
                    f"while seat {current} must answer the {top.name}, only an identical card may jump in",
                )
            number = top.number
            if card.color is None or not (
                card.color is state.color or (number is not None and card.number == number)
            ):
                return (
                    "R-JUMP",
                    f"out of turn only a card of the colour {state.color}, of the number of {top}, "
                    f"or identical to it may be played (jump_in_match=color-or-number)",
                )
        if card.color is None:
            if action.color is None:
                return "R-TURN-WILD", f"name the colour for {card}, e.g. 'play {card} R'"
            if card.kind == "W+4" and not options["challenge"] and any(c.color is state.color for c in hand):
                return (
                    "R-TURN-WD4",
                    f"a Wild Draw Four may jump in only without a card of the current colour ({state.color})",
                )
        elif action.color is not None:
            return "R-TURN-MATCH", f"{card} is not a wild: it takes no colour"
        target = action.target
        if state.ruleset.needs_target(card):
            if target is None or target == seat or not 0 <= target < state.players or target in state.left:
                others = ", ".join(str(s) for s in state.active_seats if s != seat)
                return "R-JUMP", f"{card} names another seat in the game: one of seats {others}"
        elif target is not None:
            return "R-TURN-MATCH", f"{card} takes no target seat"
        return None


def _loose_jump_ins(state: GameState, top: Card) -> list[Action]:
    """The jump-ins with ``jump_in_match=color-or-number`` on an ordinary turn:
    identical cards, and cards of the colour or of the top card's number (R-JUMP)."""
    current = state.current_player
    color = state.color
    # R-TURN-WD4 still binds a jumping Wild Draw Four when bluffs are off.
    strict_wd4 = top.kind == "W+4" and not state.ruleset.options["challenge"]
    number = top.number
    left = state.left
    declared = state.uno_declared
    acts: list[Action] = []
    for seat, hand in enumerate(state.hands):
        if seat == current or (left and seat in left):
            continue
        found = False
        if top in hand and not (strict_wd4 and any(c.color is color for c in hand)):
            acts += state.play_actions(seat, top)  # R-JUMP
            found = True
        for card in dict.fromkeys(hand):
            c = card.color
            if (
                card is not top
                and c is not None
                and (c is color or (number is not None and card.number == number))
            ):
                acts += state.play_actions(seat, card)  # R-JUMP, jump_in_match=color-or-number
                found = True
        if found and len(hand) == 2 and seat not in declared:
            acts.append(Action.of(seat, "uno"))  # R-UNO-CALL before jumping in with the next-to-last card
    return acts


def _jumping(state: GameState, action: Action, saved: Any) -> GameState:
    """``state`` made the jumper's turn for the jump-in ``action`` while the
    window ``saved`` is open (R-JUMP), with the jump-in event: see
    :func:`_jump_turn`; the rest of the chain then plays the card as a turn
    play."""
    event, turn = _jump_turn(state, action, saved)
    return state.replace(**turn, events=state.events + (event,))


def _jump_turn(state: GameState, action: Action, saved: Any) -> tuple[Event, dict[str, Any]]:
    """The event of the jump-in ``action`` in ``state``, while the window
    ``saved`` is open, and the fields that make it the jumper's turn (R-JUMP):
    the seat to move is the jumper and, for an identical card, the turn flow
    of the card jumped on is undone (R-JUMP 2)."""
    seat = action.seat
    card = action.card
    assert card is not None
    if card is state.discard_pile[-1]:
        (name, count, jumped, by, color, data), direction = saved
        phase = PLAY if saved[0] == _PLAIN[1][0] else Phase(name, count, jumped, by, color, data)
        turn = {"current_player": seat, "phase": phase, "direction": direction}
        return Event("jump-in", seat, (card,), "R-JUMP", _REPLACES), turn
    return Event("jump-in", seat, (card,), "R-JUMP", _MATCHES), {"current_player": seat}


def _jump_in_directly(inner: Applier) -> Applier:
    """Jump-in's direct wrapper of ``play`` (``Plugin.direct_wrappers``):
    ``inner``, the rest's one-step play, called as it is for a turn play, and
    for a jump-in with the jumper's turn set up first, as :func:`_jumping`
    sets it up for the hook path (R-JUMP). The jump-in event goes first in
    the result's events, where the hook path has it: the rest of the chain
    adds its events after those of the state it is handed."""

    def play(state: GameState, action: Action) -> GameState | None:
        seat = action.seat
        fields = state.__dict__
        if seat == fields["current_player"]:
            return inner(state, action)
        saved: Any = None
        for key, value in fields["extras"]:  # the window (a legal jump-in has one)
            if key == WINDOW:
                saved = value
                break
        if saved is None:
            return None
        event, turn = _jump_turn(state, action, saved)
        after = inner(state.replace(**turn), action)
        if after is None:
            return None
        return after.replace(events=(event, *after.__dict__["events"]))

    return play


def _window_after_play(
    state: GameState, action: Action, after: GameState, jump: bool, saved: Any
) -> GameState:
    """``after``, the state the rest of the chain made of the play ``action`` in
    ``state`` (a jump-in with ``jump``, while the window ``saved`` was open),
    with the window open on the card just played, or closed when the round
    ended (R-JUMP): :func:`_finish_play` on a copy of its fields."""
    fields = after.__dict__.copy()
    _finish_play(state, action, fields, jump, saved)
    return _with_window(after, fields)


def _window_after_turn(state: GameState, action: Action, after: GameState) -> GameState:
    """``after``, the state the rest of the chain made of ``action`` in ``state``
    (a verb that is a turn, not in ``KEEPS_WINDOW``), with the window closed:
    the next seat acted (R-JUMP): :func:`_finish_turn` on a copy of its fields."""
    fields = after.__dict__.copy()
    _finish_turn(state, action, fields)
    return _with_window(after, fields)


def _with_window(after: GameState, fields: Mapping[str, Any]) -> GameState:
    """``after`` with the window and the UNO calls a finisher left in
    ``fields`` (a copy of its fields), or ``after`` itself when they did not change."""
    new = after.__dict__
    if fields["extras"] is new["extras"] and fields["uno_declared"] is new["uno_declared"]:
        return after
    return after.replace(extras=fields["extras"], uno_declared=fields["uno_declared"])


def _keeps_turn(old: Mapping[str, Any], action: Action, new: Mapping[str, Any]) -> bool:
    """Whether ``action``, between states of fields ``old`` and ``new``, is
    another seat's action that left the turn as it was (a coaching report):
    it keeps the window open (R-JUMP)."""
    current = old["current_player"]
    return (
        action.seat != current
        and (new["rounds"] is old["rounds"] or len(new["rounds"]) == len(old["rounds"]))
        and new["current_player"] == current
        and new["phase"] == old["phase"]
        and new["discard_pile"][-1] is old["discard_pile"][-1]
    )


def _finish_play(
    state: GameState, action: Action, fields: dict[str, Any], jump: bool = False, saved: Any = None
) -> bool:
    """Jump-in's share of a one-step play (``Plugin.direct_finishers``): the
    window opened on the card just played, in the fields of the state made,
    or closed when the round ended (R-JUMP). The hook path also calls it for
    a jump-in (``jump``, while the window ``saved`` was open)."""
    old = state.__dict__
    if not jump and action.seat != old["current_player"]:
        return False  # a jump-in: apply_action sets its turn up before the card is played
    value = None
    if (
        (fields["rounds"] is old["rounds"] or len(fields["rounds"]) == len(old["rounds"]))
        and fields["outcome"] is None
        and fields["hands"][action.seat]
    ):
        # A card was played: the window opens on it. An identical jump-in keeps
        # the turn flow it replaced, so a jump on a jump replaces them all.
        if jump and action.card is old["discard_pile"][-1]:
            value = saved
        else:
            phase = old["phase"]
            direction = old["direction"]
            if phase is PLAY:
                value = _PLAIN[direction]
                extras = fields["extras"]
                if not extras or (len(extras) == 1 and extras[0][0] == WINDOW):
                    # The usual play: the window alone, opened on an ordinary turn.
                    fields["extras"] = _OPENED[direction]
                    return True
            else:
                value = _snapshot(phase, direction)
    extras = fields["extras"]
    if not extras or (len(extras) == 1 and extras[0][0] == WINDOW):  # no UNO calls to lapse
        fields["extras"] = () if value is None else ((WINDOW, value),)
    else:
        _settle(fields, value)
    return True


def _finish_turn(state: GameState, action: Action, fields: dict[str, Any]) -> bool:
    """Jump-in's share of a one-step draw or pass (``Plugin.direct_finishers``):
    the window closed in the fields of the state made."""
    extras = fields["extras"]
    if extras:
        old = state.__dict__
        if action.seat == old["current_player"] or not _keeps_turn(old, action, fields):
            # The next seat acted: the window closes.
            if len(extras) == 1 and extras[0][0] == WINDOW:  # no UNO calls to lapse
                fields["extras"] = ()
            else:
                _settle(fields, None)
    return True


_REPLACES = "replaces the action of the card jumped on"
_MATCHES = "matches the top card"


_PLAIN = {d: _snapshot(PLAY, d) for d in (1, -1)}
"""The window of a card played on an ordinary turn, built once per direction."""

_OPENED = {d: ((WINDOW, window),) for d, window in _PLAIN.items()}
"""The extras holding that window alone, by direction."""


def _settle(fields: dict[str, Any], value: Any) -> None:
    """Set the window to ``value`` (``None``: closed) in ``fields``, a new
    state's fields whose extras hold more than the window (the finishers deal
    with no extras and with the window alone themselves), and, when a window
    closed or opened, lapse the out-of-turn UNO calls it carried (the caller
    jumped in, which used its call, or did not: R-UNO-CALL); the extras kept
    sorted as ``with_extra`` keeps them."""
    items: list[tuple[str, Any]] = []
    calls: Any = None
    changed = False
    placed = value is None
    for key, old in fields["extras"]:
        if key == CALLS:
            calls = old
            changed = True
            continue
        if key == WINDOW:
            placed = True
            if old is not value:
                changed = True
                if value is not None:
                    items.append((WINDOW, value))
                continue
        elif not placed and key > WINDOW:
            items.append((WINDOW, value))
            placed = changed = True
        items.append((key, old))
    if not placed:
        items.append((WINDOW, value))
        changed = True
    if not changed:
        return
    fields["extras"] = tuple(items)
    declared = fields["uno_declared"]
    if calls is not None and any(s in calls for s in declared):
        fields["uno_declared"] = tuple(s for s in declared if s not in calls)


def _rest_of_chain(ruleset: Ruleset) -> Callable[..., Any]:
    return rest_of_chain(ruleset, "apply_action", plugin)


_REST = ("jump-in", "rest of apply_action")
"""``ruleset.cache`` key of the ``apply_action`` implementations after jump-in's."""


plugin = JumpInPlugin()
"""The plugin object the ``unorules`` entry point ``jump-in`` names."""

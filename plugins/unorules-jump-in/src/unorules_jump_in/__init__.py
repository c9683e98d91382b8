"""Jump-in: play a card identical to the top card out of turn (R-JUMP).

Enable it with ``Ruleset.from_names(["classic", "jump-in"])`` (or with an
edition: ``["flip", "jump-in"]``); it needs a base rule set that deals the
cards and plays them, and names none. It changes the game only through hooks:
``legal_actions`` lists the out-of-turn plays; ``apply_action`` (``tryfirst``)
makes a jump-in the jumper's turn, undoing the turn flow of the card jumped
on, before the base rule set plays the card; ``after_action`` opens the window on every card played and
closes it when the next seat acts.

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
``flip``
    The faces in play are compared (EDITIONS 1.5): a card showing the face on
    top jumps in whatever its other side, named as flip names a face's play
    (the face, and ``nth`` for the k-th card showing it); a jumping wild names
    a colour of the side in play. After a Flip card every card shows its other
    face, so only a card showing the top card's new face may jump in on it.
``no-mercy``
    Identical cards (same colour and kind) jump in as with classic; the turn
    flow the jumped card set up, a pending stack included, is undone before
    the jumping card acts from the jumper's seat (R-JUMP 2).
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

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from unorules import (
    PLAY,
    Action,
    Card,
    Color,
    Draft,
    Event,
    EventSpec,
    ExtraSpec,
    GameState,
    Option,
    Phase,
    Plugin,
    Position,
    hookimpl,
    one_of,
)
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


def window(state: Position) -> tuple[Phase, int] | None:
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
    """Jump-in: a card identical to the top card may be played out of turn.

    R-JUMP: identical cards played out of turn, replacing the first card's action.
    """

    name = "jump-in"
    api_version = 2
    rules = ("R-JUMP",)
    verbs: ClassVar[Mapping[str, str]] = {"play": "any", "uno": "any"}
    events = (
        EventSpec(
            "jump-in",
            "a seat jumped in out of turn with a card identical to the top card (R-JUMP)",
            (("seat", "the seat that jumped in"), ("cards", "the card")),
            "{seat} jumped in out of turn with {cards}",
        ),
    )
    extras = (
        ExtraSpec(
            WINDOW,
            "the open jump-in window: the phase and direction an identical jump-in restores, "
            "as ((name, count, card, seat, colour, data), direction)",
            public=True,
        ),
        ExtraSpec(CALLS, "the seats whose out-of-turn UNO call lapses when the window closes", public=True),
    )
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
        for key, _ in state.extras:  # the window is open (extra(WINDOW), inlined: every state)
            if key == WINDOW:
                break
        else:
            return _NONE
        top = state.discard_pile[-1]
        options = state.ruleset.options
        if state.ruleset.two_faced:  # the faces in play are compared, not the cards (flip)
            return _faced_jump_ins(state, state.face(top))
        if options["jump_in_match"] == "color-or-number" and state.phase.name == "play":
            return _loose_jump_ins(state, top)
        # Only identical cards (R-JUMP). Usually no hand holds one: a first
        # loop that only searches (an identity scan per hand) says so.
        hands = state.hands
        for hand in hands:
            if top in hand:
                break
        else:
            return _NONE
        # R-TURN-WD4 still binds a jumping Wild Draw Four when bluffs are off.
        strict_wd4 = top.kind == "W+4" and not options["challenge"]
        current = state.current_player
        left = state.left
        acts: list[Action] | None = None
        seat = -1
        for hand in hands:
            seat += 1
            if seat == current or top not in hand or (left and seat in left):
                continue
            if strict_wd4:
                color = state.color
                if any(c.color is color for c in hand):
                    continue
            if state.forbidden(seat, top) is not None:
                continue  # a ban on the play (R-HOUSE-LAST-CARD: not out on a banned card), jump-in or not
            if acts is None:
                acts = []
            acts += state.play_actions(seat, top)  # R-JUMP
            if state.may_call_uno(seat):
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
    def apply_action(self, draft: Draft, action: Action) -> None:
        # Before any other plugin carries the action out: a jump-in is made the
        # jumper's turn, undoing the turn flow of the card jumped on (R-JUMP 2);
        # the rest of the chain then plays the card as a turn play.
        if action.verb == "play" and action.seat != draft.current_player:
            saved = draft.extra(WINDOW)
            if saved is not None:
                _jump_turn(draft, action, saved)

    @hookimpl(trylast=True)
    def after_action(self, draft: Draft, action: Action, before: GameState) -> None:
        # The window opens on every card played and closes when the next seat
        # acts (R-JUMP); UNO calls and catches leave it as it was.
        verb = action.verb
        seat = action.seat
        current = before.current_player
        if verb == "play":
            saved = None
            for key, value in before.extras:
                if key == WINDOW:
                    saved = value
                    break
            _window_after_play(draft, before, action, seat != current and saved is not None, saved)
        elif verb in KEEPS_WINDOW:
            if verb == "uno" and seat != current and seat not in before.uno_exposed:
                # An out-of-turn call announcing a jump-in (R-UNO-CALL): it lapses with the window.
                calls: tuple[int, ...] = draft.extra(CALLS, ())
                if seat not in calls:
                    draft.set_extra(CALLS, (*calls, seat))
        elif draft.extras and (seat == current or not _keeps_turn(before, action, draft)):
            _set_window(draft, None)  # the next seat acted: the window closes

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
        if card not in hand and not any(state.face(c) is card for c in hand):
            return "R-JUMP", f"seat {seat} holds no {card}"
        top = state.face(state.top_card)
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
        banned = len(hand) == 1 and state.forbidden(seat, hand[0]) is not None  # R-HOUSE-LAST-CARD, ...
        if top in hand and not banned and not (strict_wd4 and any(c.color is color for c in hand)):
            acts += state.play_actions(seat, top)  # R-JUMP
            found = True
        for card in dict.fromkeys(hand):
            c = card.color
            if (
                card is not top
                and not banned
                and c is not None
                and (c is color or (number is not None and card.number == number))
            ):
                acts += state.play_actions(seat, card)  # R-JUMP, jump_in_match=color-or-number
                found = True
        if found and seat not in declared and state.may_call_uno(seat):
            acts.append(Action.of(seat, "uno"))  # R-UNO-CALL before jumping in with the next-to-last card
    return acts


def _faced_jump_ins(state: GameState, top: Card) -> list[Action]:
    """The jump-ins of a deck of two-faced cards (flip), ``top`` being the face the top
    card shows: a card showing the same face is identical (R-JUMP, EDITIONS 1.5: active
    faces compared); with ``jump_in_match=color-or-number`` on an ordinary turn, a card
    showing a face of the colour or of the top face's number too. Each card is named as
    the base rule set names a face's play: the face and its place among the cards showing
    it (``nth``), with each colour for a wild and each other seat in play for a face that
    names a seat under another plugin (seven-o's 7)."""
    current = state.current_player
    color = state.color
    loose = state.ruleset.options["jump_in_match"] == "color-or-number" and state.phase.name == "play"
    number = top.number
    side = state.side
    left = state.left
    acts: list[Action] = []
    for seat, hand in enumerate(state.hands):
        if seat == current or (left and seat in left):
            continue
        found = False
        seen: dict[Card, int] = {}
        for card in hand:
            faces = card.faces
            face = faces[side] if faces else card
            nth = seen[face] = seen.get(face, 0) + 1
            c = face.color
            if face is not top and not (
                loose and c is not None and (c is color or (number is not None and face.number == number))
            ):
                continue
            if state.forbidden(seat, face) is not None:
                continue  # a ban on the play (R-HOUSE-LAST-CARD, ...)
            # A face that names a seat under another plugin (seven-o's 7) names each other seat in play.
            targets: tuple[int | None, ...] = (None,)
            if state.ruleset.needs_target(face):
                targets = tuple(t for t in state.active_seats if t != seat)
            colors: tuple[Color | None, ...] = (None,) if c is not None else _side_colors(state)
            acts += [Action.of(seat, "play", face, x, t, nth) for x in colors for t in targets]  # R-JUMP
            found = True
        if found and state.may_call_uno(seat):
            acts.append(Action.of(seat, "uno"))  # R-UNO-CALL before jumping in with the next-to-last card
    return acts


def _side_colors(state: Position) -> tuple[Color, ...]:
    """The colours a wild may name on the side in play of a two-faced deck: those of the
    deck's coloured faces of that side, in the order colours were registered."""
    side = state.side

    def colors(rules: Any) -> tuple[Color, ...]:
        found = {f.color for card in rules.deck if card.faces for f in card.faces[side : side + 1]}
        return tuple(c for c in Color if c in found)

    found: tuple[Color, ...] = state.ruleset.cached((WINDOW, "colors", side), colors)
    return found


def _jump_turn(draft: Draft, action: Action, saved: Any) -> None:
    """Make the jump-in ``action`` the jumper's turn while the window ``saved``
    is open (R-JUMP), with the jump-in event: the seat to move is the jumper
    and, for an identical card, the turn flow of the card jumped on is undone
    (R-JUMP 2)."""
    seat = action.seat
    card = action.card
    assert card is not None
    draft.current_player = seat
    # The event shows the card laid: for a two-faced deck, the physical card showing the face.
    laid = draft.hands[seat][draft.hand_index(seat, card, action.nth)] if draft.ruleset.two_faced else card
    if card is draft.face(draft.discard_pile[-1]):
        (name, count, jumped, by, color, data), direction = saved
        draft.phase = PLAY if saved[0] == _PLAIN[1][0] else Phase(name, count, jumped, by, color, data)
        draft.direction = direction
        draft.add_event(Event("jump-in", seat, (laid,), "R-JUMP", _REPLACES))
    else:
        draft.add_event(Event("jump-in", seat, (laid,), "R-JUMP", _MATCHES))


def _window_after_play(draft: Draft, before: GameState, action: Action, jump: bool, saved: Any) -> None:
    """The window after the play ``action`` (a jump-in with ``jump``, while the
    window ``saved`` was open): open on the card just played, or closed when
    the round ended or the card emptied its player's hand (R-JUMP)."""
    value = None
    if len(draft.rounds) == len(before.rounds) and draft.outcome is None and draft.hands[action.seat]:
        # A card was played: the window opens on it. An identical jump-in keeps
        # the turn flow it replaced, so a jump on a jump replaces them all.
        if jump and action.card is before.face(before.discard_pile[-1]):
            value = saved
        else:
            phase = before.phase
            value = _PLAIN[before.direction] if phase is PLAY else _snapshot(phase, before.direction)
    _set_window(draft, value)


def _keeps_turn(before: GameState, action: Action, draft: Draft) -> bool:
    """Whether ``action``, from ``before`` to ``draft``, is another seat's action
    that left the turn as it was (a coaching report): it keeps the window open
    (R-JUMP)."""
    current = before.current_player
    return (
        action.seat != current
        and len(draft.rounds) == len(before.rounds)
        and draft.current_player == current
        and draft.phase == before.phase
        and draft.discard_pile[-1] is before.discard_pile[-1]
    )


_REPLACES = "replaces the action of the card jumped on"
_MATCHES = "matches the top card"


_PLAIN = {d: _snapshot(PLAY, d) for d in (1, -1)}
"""The window of a card played on an ordinary turn, built once per direction."""


def _set_window(draft: Draft, value: Any) -> None:
    """Set the window to ``value`` (``None``: closed); when a window closes or
    opens, the out-of-turn UNO calls it carried lapse (the caller jumped in,
    which used its call, or did not: R-UNO-CALL)."""
    window = calls = None
    for key, found in draft.extras:
        if key == WINDOW:
            window = found
        elif key == CALLS:
            calls = found
    if calls is not None:
        draft.set_extra(CALLS, None)
        draft.withdraw_uno(calls)
    if window is not value:
        draft.set_extra(WINDOW, value)


plugin = JumpInPlugin()
"""The plugin object the ``unorules`` entry point ``jump-in`` names."""

"""Multi-play: several number cards of one number in one turn, and the bomb (R-HOUSE-MULTI, R-HOUSE-BOMB).

Enable it with ``Ruleset.from_names(["classic", "multi-play"])`` (or
``["no-mercy", "multi-play"]``); it needs a base rule set that deals the cards
and plays them, and names none. It changes the game only through hooks: its ``on_play`` hook
(``tryfirst``) keeps the turn of a seat that laid a number card while it
holds another of that number, in the phase ``group``; its ``legal_actions``
lists that seat's choices; its ``apply_action`` ends the group on ``pass``.

Rules
-----

**R-HOUSE-MULTI** (a house rule; [LU] ``multiplePlaySameNumber``)
    On its turn a seat that lays a number card may lay, one after the other,
    every other card of that number it wishes to, of any colour; the last one
    laid is the top card and sets the colour. Option ``multi_play``:

    * ``group`` (default): the cards are one play: the number acts once, as
      the last card laid, when the seat is done (with ``seven-o`` a 7 trades
      once, with the seat the last 7 named; a 0 passes the hands once);
    * ``sequential`` ([LU]): the seat keeps its turn while it holds that
      number; each card acts as it is laid, and a 7's trade or a 0's passing
      of hands ends the turn.

**R-HOUSE-BOMB** (option ``multi_bomb``; [LU] ``bombCard``)
    A seat that lays three or more cards of one number in one turn sets off
    a bomb: every other seat still in the game draws one card.

Notation
--------

The cards are ordinary ``play`` actions of the seat to move, in the phase
``group``; ``pass`` ends the turn::

    1: play R5          seat 1 lays a red 5 and holds two more 5s: phase group
    1: play G5          another 5
    1: pass             done: the turn passes (or lay the last 5 to end it)

Options
-------

``multi_play`` (``group`` by default; ``sequential``)
    See R-HOUSE-MULTI.
``multi_bomb`` (``off`` by default)
    See R-HOUSE-BOMB.

Decisions where the rules are silent
------------------------------------

* **One action per card.** [EDITIONS] writes a group as one action
  (``play R5 G5 B5``); the library's actions carry one card each, so a group
  is laid a card at a time in the phase ``group`` and the number acts once
  at the end: the same game, and any seat may see (and jump in on) each card
  as it is laid.
* **When a group may start**: on an ordinary turn (phase ``play``), never
  after drawing (R-TURN-CHOOSE-DRAW: only the card drawn may be played) nor
  in answer to a pending draw. Only number cards group; the cards need not
  match each other's colour.
* **The end of a group**: ``pass``, or laying the seat's last card of that
  number, ends it; the group's number then acts (the turn passes, a 7 trades,
  a 0 passes hands). A group that empties its player's hand ends the round
  as any last card does (R-OUT), with no hand moved by a last 7 or 0.
* **UNO** (R-UNO-CALL): each card is laid by itself, so a seat calls UNO in
  the group before the card that leaves it one card, as on any turn; a seat
  that does not is open to a catch at once.
* **The bomb** counts the cards the seat laid this turn (a jump-in by
  another seat starts a new count); it goes off when the group ends, before
  the number acts, also when the group empties the hand (its cards then
  count in the score, as a last Draw Two's do, R-OUT-LAST-DRAW).
* Refusals cite ``R-HOUSE-MULTI``: in a group, a card of another number, or a
  draw.

Interactions
------------

``no-mercy``
    Number cards group as with classic; with ``multi_play=sequential`` a 7 or
    0 of no-mercy (R-NM-SEVEN-O) acts as it is laid and ends the turn.
``flip``
    Refused (``check_ruleset``, any deck of two-faced cards): groups are of
    the numbers printed on a card; FLIP! plays the face in play.
``seven-o``
    The 7 or 0 acts once, at the end of the group (a 7 with the seat its last
    card named).
``multi_play=sequential``, ``seven-o``
    Each 7 or 0 acts as it is laid and ends the turn, since the seat's hand is
    no longer the one it held.
``jump-in``
    Another seat holding a card identical to the top card may jump in
    between two cards of a group: the group ends there, its number never
    acts, and play goes on from the jumper, whose card may start a group of
    its own (R-JUMP 1: "another player may jump in between and stop the
    second").
``last-loses``
    A group that empties a hand sends its player out; its number still acts
    on the seats left.
``stacking``, ``deflect``, ``keep-drawing``
    None: number cards never answer a pending draw, and draws are unchanged.
``penalties``
    An illegal number card may start a group (its catch window is the very
    next action, as always); a caught one is undone with its group.
``swap-hands``, ``shuffle-hands``, ``custom-wilds``, ``blank-cards``
    None: wilds never group.
``partners``, ``elimination``
    None: the cards of a group are any seat's to lay.
``multi_bomb``, ``partners``, ``elimination``, ``last-loses``
    The bomb hits every other seat still in the game, partners included,
    never a seat that went out.
``forced_play``
    A seat is never forced to go on with a group: ``pass`` ends it.

Conflicts
---------

``flip`` (any deck of two-faced cards); see Interactions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import ClassVar

from unorules import (
    PLAY,
    Action,
    Card,
    Draft,
    Event,
    EventSpec,
    GameState,
    Option,
    Phase,
    PhaseSpec,
    Plugin,
    Ruleset,
    RulesetError,
    SeatView,
    hookimpl,
    one_of,
    switch,
)
from unorules.validate import require

__all__ = ["BOMB", "GROUP", "MultiPlayPlugin", "plugin"]

GROUP = "group"
"""The phase of a seat that laid a number card and may lay more of that number (R-HOUSE-MULTI)."""

BOMB = 3
"""The cards of one number laid in one turn that set off a bomb (R-HOUSE-BOMB)."""

MOVE_HANDS = frozenset({"seven-o", "no-mercy"})
"""The plugins whose 7 trades hands and 0 passes them on (R-SEVEN-O, R-NM-SEVEN-O)."""

TWO_FACED = (
    "multi-play groups cards by the number printed on them; a deck of two-faced cards (flip) plays "
    "the face in play, and groups of faces are not defined"
)
"""Why multi-play refuses a deck of two-faced cards."""

_NONE: tuple[Action, ...] = ()


class MultiPlayPlugin(Plugin):
    """Multi-play: several cards of one number in one turn; three or more are a bomb.

    R-HOUSE-MULTI: cards of one number laid together; R-HOUSE-BOMB: three or more make the others draw.
    """

    name = "multi-play"
    api_version = 2
    rules = ("R-HOUSE-MULTI", "R-HOUSE-BOMB")
    verbs: ClassVar[Mapping[str, str]] = {"play": "turn", "pass": "turn", "uno": "turn"}
    phases = (
        PhaseSpec(
            GROUP,
            "the seat that laid a number card may lay another of that number, of any colour, or pass "
            "(R-HOUSE-MULTI)",
        ),
    )
    events = (
        EventSpec(
            "bomb",
            "A seat laid three or more cards of one number in one turn, and every other seat drew a "
            "card (R-HOUSE-BOMB).",
            (
                ("seat", "the seat that laid them"),
                ("cards", "the last card laid"),
                ("count", "how many it laid"),
            ),
            "{seat} laid {count} cards of one number in one turn, the last {cards}: a bomb, "
            "every other player draws a card",
        ),
    )
    options = (
        Option(
            "multi_play",
            "group",
            "R-HOUSE-MULTI: cards of one number laid in one turn act once, as the last (group), "
            "or each as it is laid (sequential)",
            one_of("group", "sequential"),
            "group, sequential",
        ),
        Option(
            "multi_bomb",
            False,
            "R-HOUSE-BOMB: three or more cards of one number in one turn make every other seat draw one",
            switch,
            "on, off",
        ),
    )

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        if ruleset.two_faced:
            raise RulesetError(TWO_FACED)

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        phase = state.phase
        if phase.name != GROUP:
            return _NONE
        seat = state.current_player
        hand = state.hands[seat]
        assert phase.card is not None
        number = phase.card.number
        acts: list[Action] = []
        for card in dict.fromkeys(hand):
            if card.number == number:
                acts += state.play_actions(seat, card)  # R-HOUSE-MULTI
        acts.append(Action.of(seat, "pass"))
        if state.may_call_uno(seat):
            acts.append(Action.of(seat, "uno"))  # R-UNO-CALL before the next-to-last card
        return acts

    @hookimpl(tryfirst=True)
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        assert card is not None
        if card.number is None or action is not draft.action:
            return None  # not a number card laid now (an effect applied later is the chain's)
        phase = draft.phase  # the phase the card was laid in
        seat = action.seat
        if phase.name == GROUP and phase.seat == seat:
            count = phase.count + 1  # the group goes on
        elif phase.name == "play" or phase.name == GROUP:
            count = 1  # a turn's first card, or a jump-in that stopped another seat's group
        else:
            return None
        rules = draft.ruleset
        bomb = rules.options["multi_bomb"] and count >= BOMB
        hand = draft.hands[seat]
        if not hand:
            if bomb:
                _bomb(draft, seat, card, count)
            return None  # the last card: R-OUT, by the chain
        moves_hands = card.kind in ("7", "0") and not MOVE_HANDS.isdisjoint(rules.names)
        more = any(c.number == card.number for c in hand)
        if more and not (moves_hands and rules.options["multi_play"] == "sequential"):
            # R-HOUSE-MULTI: the seat keeps its turn; the number acts at the end.
            draft.current_player = seat
            target = action.target
            draft.phase = Phase(GROUP, count, card, seat, data=() if target is None else (target,))
            return True
        # The group ends with this card: the bomb, then the number acts (the chain).
        if bomb:
            _bomb(draft, seat, card, count)
        draft.phase = PLAY
        return None

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        phase = draft.phase
        if action.verb != "pass" or phase.name != GROUP:
            return None
        # The seat is done: the group ends and its number acts, as its last card.
        seat = action.seat
        card = phase.card
        assert card is not None
        if draft.ruleset.options["multi_bomb"] and phase.count >= BOMB:
            _bomb(draft, seat, card, phase.count)
        target = phase.data[0] if phase.data else None
        assert target is None or isinstance(target, int)
        draft.phase = PLAY
        draft.card_effect(Action.of(seat, "play", card, None, target), draft.before)
        return True

    @hookimpl
    def hidden_requirements(self, view: SeatView) -> Iterable[tuple[int, Callable[[Card], bool]]] | None:
        # A group goes on only while its seat holds another card of its number.
        phase = view.phase
        if phase.name != GROUP or phase.card is None or phase.seat is None:
            return None
        number = phase.card.number
        return [(phase.seat, lambda card: card.number == number)]

    @hookimpl
    def check_state(self, state: GameState) -> None:
        phase = state.phase
        if phase.name != GROUP or state.outcome is not None:
            return
        card = phase.card
        require(
            card is not None and card.number is not None and card is state.top_card,
            "phase.card",
            "R-HOUSE-MULTI: a group's card is the number card on top of the discard pile",
        )
        assert card is not None
        require(
            phase.seat == state.current_player,
            "phase.seat",
            "R-HOUSE-MULTI: the seat laying a group is the seat to move",
        )
        require(phase.count >= 1, "phase.count", "R-HOUSE-MULTI: a group holds the cards laid so far")
        require(
            any(c.number == card.number for c in state.hands[state.current_player]),
            "phase",
            "R-HOUSE-MULTI: a group goes on only while its seat holds another card of its number",
        )

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        phase = state.phase
        if phase.name != GROUP or action.seat != state.current_player or action.verb not in ("play", "draw"):
            return None
        assert phase.card is not None
        return (
            "R-HOUSE-MULTI",
            f"lay another {phase.card.number} of any colour, or pass to end the turn",
        )


def _bomb(draft: Draft, seat: int, card: Card, count: int) -> None:
    """R-HOUSE-BOMB: every other seat still in the game draws one, in the order of play."""
    draft.add_event(
        Event("bomb", seat, (card,), "R-HOUSE-BOMB", f"{count} cards of {card.number}", count=count)
    )
    other = draft.next_seat(seat)
    while other != seat:
        draft.draw(other, 1, "penalty")
        other = draft.next_seat(other)


plugin = MultiPlayPlugin()
"""The plugin object the ``unorules`` entry point ``multi-play`` names."""

"""Classic UNO (the rules reference up to R-WIN-LOW, and R-2P) as a unorules plugin.

Phases this plugin owns (``state.phase.name``):

* ``play``: the ordinary turn: play a matching card or draw (R-TURN-MATCH, R-TURN-DRAW);
* ``drawn``: the card just drawn is playable: play it or ``pass`` (R-TURN-DRAW, R-TURN-CHOOSE-DRAW);
* ``penalty``: draw ``phase.count`` cards and lose the turn (R-ACT-D2, R-TURN-WD4);
* ``challenge``: hit by a Wild Draw Four: ``challenge`` or ``accept`` (R-CHALLENGE);
* ``color``: name the colour of a wild starter (R-SETUP-STARTER).

Every hook implementation is ``trylast``: house rules registered after this
plugin see each hook first and override it by returning a result. The one
exception is a ``score_round`` wrapper around every plugin's scoring, for the
house rules that change any round's points (a drawn blocked round, double
score). Classic offers one hook of its own, ``going_out``
(:class:`ClassicSpecs`): what a seat that empties its hand does, which a
house rule such as ``last-loses`` answers.

.. rubric:: Options

* ``target_score`` (500): the score that ends the game (R-WIN).
* ``scoring`` (``winner-takes-all``): the round's winner scores the others'
  hands (R-SCORE); ``low-score``: every seat is charged its own hand and the
  fewest points win (R-WIN-LOW).
* ``uno_penalty`` (2): cards drawn when caught without calling UNO; 4 [CZ]
  (R-UNO-CATCH).
* ``wd4_points`` (50): a Wild Draw Four left in a hand; 70 [CZ] (R-SCORE).
* ``opening_reverse`` (``dealer-starts``): after a Reverse starter the dealer
  plays first, play going right; ``right-of-dealer-starts`` [CZ]
  (R-SETUP-STARTER).
* ``challenge`` (on): Wild Draw Four bluffs and challenges (R-TURN-WD4,
  R-CHALLENGE); off: the restriction is enforced instead.
* ``challenger`` (``victim``): only the player told to draw 4 may challenge
  [E15][CZ][PL]; ``anyone`` [LT].
* ``drawn_card`` (``may-keep``): a playable drawn card may be kept [E15][LT];
  ``must-play`` [CZ] (R-TURN-DRAW).
* ``opening_wild`` (``choose-color``): the first player names a Wild
  starter's colour; ``redraw``: it is returned like a Wild Draw Four [CZ]
  (R-SETUP-STARTER).
* ``dealer_draw`` (``number``): the highest number drawn deals and every
  symbol card counts as zero [E15][LT]; ``points``: the highest *point value*
  deals, symbol cards counting their points as in the score (a Draw Two,
  Reverse or Skip 20, a Wild 50, a Wild Draw Four ``wd4_points``, a plugin's
  cards their ``card_points``), as the older Czech sheet has it [CZ]
  (R-SETUP-DEALER).

.. rubric:: Decisions

Where the rules are silent (or leave the detail open), this plugin does the
following; each point has a scenario test under ``tests/classic/``.

* **Dealer draw** (R-SETUP-DEALER): every seat draws a card of a shuffled
  deck; with ``dealer_draw=number`` symbol and wild cards count as zero, with
  ``dealer_draw=points`` every card counts its points (so a Wild Draw Four
  beats a 9); the tied highest seats draw again from the same pile (a freshly
  shuffled deck when it runs short) until one is highest: under ``points``
  two Skips, or a Skip and a Draw Two (20 each), tie. The next round's
  dealer is the seat after the last dealer (to the left).
* **Opening Wild Draw Four** (R-SETUP-STARTER): it goes back into the draw
  pile, the pile is shuffled and the next card is turned (again, if that is a
  Wild Draw Four too). With ``opening_wild=redraw`` a Wild is handled alike.
  An opening Draw Two is a ``penalty`` the first player takes with ``draw``;
  a Wild starter's colour is named with ``color`` and the same player then
  plays. In a two-player game an opening Reverse lets the dealer start too.
* **Reshuffle** (R-TURN-RESHUFFLE): the top card stays; only the cards under
  it are shuffled into the new draw pile, also in the middle of a penalty.
* **Nothing left to draw**: with both piles exhausted, ``draw``
  is legal only for a seat that cannot play; it draws nothing and the turn
  passes.
* **Blocked round**: when every seat still in the game has, in
  turn, drawn nothing, the round ends (reason ``blocked``). The seat with the
  fewest hand points wins it, ties going to the lowest seat, and scoring is
  as usual.
* **Wild Draw Four bluffs** (R-TURN-WD4): a Wild Draw Four held with a card
  of the current colour is legal only while ``challenge`` is on (the bluff
  can then be caught); with it off such a play is refused. The same holds
  for a drawn Wild Draw Four. Guilt is the colour test: the bluffer held a
  card of the colour current before the Wild Draw Four.
* **Challenges** (R-CHALLENGE): a guilty bluffer draws 4 and the
  challenger plays on normally, the named colour standing; an innocent one
  makes the challenger draw 6 and lose the turn. With ``challenger=anyone`` a
  third seat's failed challenge costs it 6 and the victim still draws 4 and
  loses the turn; its successful challenge spares the victim. The challenged
  hand is shown to the challenger only (a private event).
* **A last-card Wild Draw Four gets no challenge** (R-OUT-LAST-DRAW): the
  round is over, so the next player draws 4 at once; these cards, like a
  last Draw Two's 2, count in the score (in ``low-score`` they are charged
  to the seat that drew them).
* **Penalty draws**: cards drawn for a Draw Two, a Wild Draw
  Four, a challenge or an UNO catch cannot be played at once.
* **UNO** (R-UNO-CALL, R-UNO-CATCH, R-UNO-SELF): a seat calls ``uno`` on its
  turn while holding two cards (also after drawing, before playing the
  drawn card); a call counts for the next card played only. A seat left with
  one card without a call may be caught by any other seat, or call late,
  until the next player takes a turn action (``draw``, ``play``, ``pass``,
  ``challenge``, ``accept``). With two players after a Skip or Reverse that
  next player is the exposed seat itself, so its own next action closes the
  window. A catch is not a turn: the seat to move stays the same.
* **Two players** (R-2P): "plays again" is a full turn: a player with no
  playable card draws as usual.
* **End of the game** (R-WIN, R-WIN-LOW): checked after every round. With
  ``winner-takes-all`` the highest score wins; with ``low-score`` the game
  ends when any seat reaches the target and the fewest points win. Ties go
  to the lowest seat.

.. rubric:: House rules

The house rules people play at home, each an option, each off by default
(so a rule set that does not name them plays the rules reference):

* ``last_card_ban`` (``none``): R-HOUSE-LAST-CARD. ``wild``: no wild may be
  a seat's last card; ``draw``: no Draw Two or Wild Draw Four; ``action``:
  only a number card. A banned last card is not playable: a seat holding
  only it draws.
* ``forced_play`` (off): R-HOUSE-FORCED-PLAY. A seat holding a playable
  card may not draw instead (R-TURN-CHOOSE-DRAW no longer holds).
* ``hand_limit`` (0, none): R-HOUSE-HAND-CAP. A seat holding that many cards
  or more may not draw for its turn; if it cannot play, it passes.
  Penalty draws still apply.
* ``uno_call`` (``two-cards``): when UNO is called. ``two-cards``: holding
  two cards, before the next-to-last card (R-UNO-CALL); ``one-card``: only
  once holding one card, so every seat that plays down to one card is open
  to a catch until it calls ([LU] ``strictUnoCall``); ``playable``: holding
  two cards only when one of them can be played now (R-HOUSE-UNO-CALL);
  ``silent``: nobody calls and nobody is caught (R-HOUSE-SILENT-UNO).
* ``uno_penalty`` (2) also takes 6 (R-HOUSE-UNO-6).
* ``false_uno_penalty`` (0, off): R-HOUSE-FALSE-UNO. A catch of a seat that
  called, or an UNO call its maker does not follow by laying its
  next-to-last card, costs its maker that many cards (with 0 such a catch is
  refused and such a call simply lapses).
* ``misplay_penalty`` (0, off): R-HOUSE-MISPLAY. On an ordinary turn a seat
  may try a card it may not play (one that does not match, or a banned last
  card); it keeps the card, draws that many cards and loses the turn
  ([LU] ``misplayPenalty``: one card). With 0 such a play is refused.
* ``blocked_round`` (``fewest-points``): R-HOUSE-BLOCKED-DRAW. ``draw``: a
  blocked round has no winner and nobody scores.
* ``double_score`` (off): R-HOUSE-DOUBLE-SCORE. Every round's points count
  double, whoever scores them ([LU] ``doubleScore``).
* ``last_draw_card`` (``draws``): after a last Draw Two or Wild Draw Four
  the next seat still draws (R-OUT-LAST-DRAW); ``no-draw``: nothing more
  happens (R-HOUSE-NO-LAST-DRAW, a common reading the rules contradict,
  never the default).

.. rubric:: House-rule decisions

* **A banned last card** (R-HOUSE-LAST-CARD) is judged when the seat holds
  that card alone: playing its next-to-last card down to a banned one is
  allowed, after which it must draw until it holds something else to go out
  on. A drawn card is never a last card.
* **The hand cap** (R-HOUSE-HAND-CAP): a seat at the cap that cannot play
  passes (``pass``); such a pass counts as a draw of nothing towards a
  blocked round, so a table of capped seats that cannot play still ends.
* **False UNO** (R-HOUSE-FALSE-UNO): the false catch is offered right after
  the card a seat played left it holding one card without being open to a
  catch (it had called), for one action, to every other seat; a
  catch of a seat holding more than one card stays refused, since hand
  sizes are public. A call is offered only holding two cards (as
  ``uno_call`` allows); it is false when its seat then draws (for its turn
  or a pending draw), passes or accepts a Wild Draw Four instead of laying
  its next-to-last card, and the penalty comes before that draw. A call
  that lapses for another reason (a 7 or a Swap Hands took the hand away,
  a jump-in window closed) is nobody's fault and costs nothing. The penalty
  cards are a penalty draw: they cannot be played at once.
* **Misplays** (R-HOUSE-MISPLAY) are offered only on an ordinary turn (not
  after drawing, not out of turn, not against a pending draw); the turn
  passes as after a caught illegal play (R-PEN-ILLEGAL). A misplay is a
  turn action: it closes UNO catch windows, and a call made for the card
  lapses.
* **A drawn blocked round** (R-HOUSE-BLOCKED-DRAW) gives every seat 0 points,
  whatever plugin scores the round (a pair, an elimination charge).
* **Double score** (R-HOUSE-DOUBLE-SCORE) doubles the points of every round
  as every plugin scores it: a pair's points, a low-score charge, an
  elimination charge.

.. rubric:: Interactions

``last_card_ban``, ``misplay_penalty``
    Trying to go out on a banned last card is a misplay: the seat keeps the
    card, draws the penalty and loses its turn ([LU]: "trying costs 1 drawn
    card").
``last_card_ban``, ``stacking``, ``jump-in``, ``deflect``
    A banned last card answers no stack, jumps in nowhere and deflects no
    draw: a seat holding only it takes the draw or waits for its turn.
``last_card_ban``, ``multi-play``
    A ban never falls on a number card, so a group can always go out.
``forced_play``, ``hand_limit``
    A seat at the cap that can play must play; one that cannot passes.
``forced_play``, ``stacking``, ``deflect``
    Forcing is about the ordinary turn: a seat told to draw may still draw
    rather than stack on or deflect the draw.
``forced_play``, ``drawn_card``
    Together with ``drawn_card=must-play`` a seat plays whenever it can, the
    card it drew included.
``uno_call``, ``stacking``, ``jump-in``, ``deflect``, ``multi-play``
    Their calls before a next-to-last card (answering a stack, jumping in,
    deflecting, in a group) follow ``uno_call``: offered with ``two-cards``
    and ``playable`` (they come with a card to play), never with ``one-card``
    or ``silent``; with ``silent`` nobody is caught after them either.
``false_uno_penalty``, ``uno_call``
    With ``one-card`` every call is a late one and never false (only
    catches can be); with ``silent`` there are no calls nor catches to get
    wrong, and the two are refused together.
``false_uno_penalty``, ``stacking``, ``deflect``
    A seat that called before answering a pending draw and then draws it
    made a false call.
``false_uno_penalty``, ``jump-in``
    A call made out of turn for a jump-in that does not happen lapses with
    the window and costs nothing.
``misplay_penalty``, ``enforcement``
    Two readings of the same mistake: ``misplay_penalty`` charges a misplay
    at once, ``penalties``' ``enforcement=table`` lets it stand unless it is
    caught (R-PEN-ILLEGAL); refused together.
``misplay_penalty``, ``jump-in``, ``multi-play``, ``stacking``, ``deflect``
    Misplays are offered only on an ordinary turn: never as a jump-in, inside
    a group, or against a pending draw.
``last_draw_card``, ``stacking``, ``deflect``
    ``no-draw`` also drops the stack a seat goes out on, and the draw it
    deflects with its last card.
``blocked_round``, ``partners``, ``elimination``
    A drawn blocked round scores nothing for any pair or seat: no elimination
    charge, so nobody leaves after it.
``blocked_round``, ``last-loses``
    A blocked round ends a last-loses game (the first seat out wins it); one
    that nobody won before anybody went out is dealt again.
``double_score``, ``partners``, ``elimination``, ``last-loses``, ``scoring``
    Every round's points double as its plugin scores them: a pair's points,
    an elimination charge (so seats reach the limit sooner), a low-score
    charge, the points of a last-loses round.
``hand_limit``, ``keep-drawing``
    Drawing until a card can be played stops at the cap.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from unorules import (
    COLORS,
    MAX_PLAYERS,
    PLAY,
    Action,
    Card,
    Draft,
    Event,
    EventSpec,
    GameState,
    Option,
    Outcome,
    Phase,
    PhaseSpec,
    Plugin,
    Position,
    Rng,
    RoundResult,
    Ruleset,
    RulesetError,
    StateFormatError,
    TestHints,
    hookimpl,
    one_of,
    positive_int,
    switch,
)
from unorules.markers import active_when
from unorules.state import GoingOut as _GoingOut
from unorules.validate import require

__all__ = [
    "ClassicPlugin",
    "GoingOut",
    "HouseRules",
    "banned_last_card",
    "calls_before_playing",
    "house_rules",
    "is_playable",
    "plugin",
    "round_out",
]

NUMBERS = tuple(str(n) for n in range(10))
ACTION_KINDS = ("S", "R", "+2")
TURN_VERBS = frozenset({"play", "draw", "pass", "challenge", "accept", "color"})


def _act(seat: int, verb: str, target: int | None = None) -> Action:
    return Action.of(seat, verb, None, None, target)


# The interned actions legal_actions lists on every call, looked up by seat
# (and caught seat) instead of being searched for each time.
_SEATS = range(MAX_PLAYERS)
_DRAW = tuple(_act(s, "draw") for s in _SEATS)
_UNO = tuple(_act(s, "uno") for s in _SEATS)
_PASS = tuple(_act(s, "pass") for s in _SEATS)
_CATCH = tuple(tuple(_act(s, "catch", t) for t in _SEATS) for s in _SEATS)


def is_playable(state: Position, seat: int, card: Card) -> bool:
    """Whether ``card`` may be played by ``seat`` on the top card: ``state.matches``
    (R-TURN-MATCH, R-TURN-WILD, R-TURN-WD4; a Wild Draw Four bluff counts as playable
    while challenges are on)."""
    return state.matches(seat, card)


_BANS: dict[str, Callable[[Card], bool] | None] = {
    "none": None,
    "wild": lambda card: card.color is None,
    "draw": lambda card: card.kind in ("+2", "W+4"),
    "action": lambda card: card.number is None,
}
"""Which cards ``last_card_ban`` keeps from being a seat's last card (R-HOUSE-LAST-CARD)."""


class HouseRules(NamedTuple):
    """Classic's house-rule options of one rule set, read once (:func:`house_rules`)."""

    plain: bool
    """No house-rule option differs from its default: the rules reference as it is."""
    ban: Callable[[Card], bool] | None
    """Whether a card may not be a last card (R-HOUSE-LAST-CARD), or ``None``."""
    forced: bool
    """R-HOUSE-FORCED-PLAY: a seat holding a playable card may not draw."""
    limit: int
    """R-HOUSE-HAND-CAP: the hand size from which a seat may not draw for its turn (0: none)."""
    call: str
    """When UNO is called (R-UNO-CALL, R-HOUSE-UNO-CALL, R-HOUSE-SILENT-UNO)."""
    false_penalty: int
    """R-HOUSE-FALSE-UNO: the cards a false call or catch costs (0: not offered)."""
    misplay: int
    """R-HOUSE-MISPLAY: the cards a misplay costs (0: misplays are refused)."""
    blocked_draw: bool
    """R-HOUSE-BLOCKED-DRAW: a blocked round is a draw."""
    double: bool
    """R-HOUSE-DOUBLE-SCORE: round points count double."""
    last_draw: bool
    """R-OUT-LAST-DRAW: the next seat draws for a last Draw Two or Wild Draw Four
    (false: R-HOUSE-NO-LAST-DRAW)."""


_HOUSE_KEY = ("classic", "house-rules")
_NOBODY = _GoingOut(ends=True, winner=None)


def _read_house_rules(ruleset: Ruleset) -> HouseRules:
    options = ruleset.options
    ban = _BANS[options["last_card_ban"]]
    forced = bool(options["forced_play"])
    limit = int(options["hand_limit"])
    call = str(options["uno_call"])
    false_penalty = int(options["false_uno_penalty"])
    misplay = int(options["misplay_penalty"])
    blocked_draw = options["blocked_round"] == "draw"
    double = bool(options["double_score"])
    last_draw = options["last_draw_card"] == "draws"
    plain = (
        ban is None
        and not forced
        and not limit
        and call == "two-cards"
        and not false_penalty
        and not misplay
        and not blocked_draw
        and not double
        and last_draw
    )
    return HouseRules(
        plain, ban, forced, limit, call, false_penalty, misplay, blocked_draw, double, last_draw
    )


def house_rules(ruleset: Ruleset) -> HouseRules:
    """The house-rule options of classic in ``ruleset``, read once per rule set."""
    return ruleset.cached(_HOUSE_KEY, _read_house_rules)


def banned_last_card(state: Position, seat: int, card: Card) -> bool:
    """Whether a rule keeps ``seat`` from playing ``card`` now (``state.forbidden``):
    a last card that may not be a last card (R-HOUSE-LAST-CARD)."""
    return state.forbidden(seat, card) is not None


def calls_before_playing(state: Position) -> bool:
    """Whether a seat may call UNO before laying its next-to-last card
    (``ruleset.uno_call`` is ``two-cards`` or ``playable``)."""
    return state.ruleset.uno_call in ("two-cards", "playable")


GoingOut = _GoingOut


def round_out(draft: Draft, seat: int) -> int | None:
    """``seat`` emptied its hand with the card being applied: the seat that wins
    the round (``draft.went_out``), or ``None`` when the round goes on without it."""
    answer = draft.going_out(seat) or draft.went_out(seat)
    return answer.winner if answer.ends else None


def _whole(least: int, what: str) -> Callable[[Any], int]:
    """A check accepting 0 (off) or a whole number from ``least``."""

    def check(value: Any) -> int:
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or (value != 0 and value < least):
            raise ValueError(f"{value!r} is not 0 (off) or {what}")
        return value

    return check


def _false_uno_text(event: Event) -> str:
    """How a false catch or a false call reads (R-HOUSE-FALSE-UNO)."""
    if event.target is not None:
        return "{seat} caught {target}, who had called UNO: a false catch"
    return "{seat} called UNO, then did not play a card: a false call"


def _challenge_text(event: Event) -> str:
    """How a challenge reads (R-CHALLENGE): the verdict for everyone, the hand
    for the challenger, the only one who sees it."""
    shown = ", seeing {cards}" if event.cards else ""
    if event.value("guilty"):
        return "{seat} challenged {target:'s} Wild Draw Four" + shown + ": it was a bluff"
    return "{seat} challenged {target:'s} Wild Draw Four" + shown + ": it was played fairly"


class ClassicPlugin(Plugin):
    """Classic UNO: the 108-card deck, action cards, UNO calls, scoring to 500.

    The classic 108-card game: deal, match, action cards, UNO, scoring to 500.
    """

    name = "classic"
    api_version = 2
    rules = (
        "R-DECK-108",
        "R-SETUP-DEALER",
        "R-SETUP-DEAL",
        "R-SETUP-STARTER",
        "R-SETUP-FIRST",
        "R-TURN-MATCH",
        "R-TURN-WILD",
        "R-TURN-WD4",
        "R-TURN-DRAW",
        "R-TURN-CHOOSE-DRAW",
        "R-TURN-RESHUFFLE",
        "R-ACT-D2",
        "R-ACT-REV",
        "R-ACT-SKIP",
        "R-CHALLENGE",
        "R-UNO-CALL",
        "R-UNO-CATCH",
        "R-UNO-SELF",
        "R-OUT",
        "R-OUT-LAST-DRAW",
        "R-SCORE",
        "R-WIN",
        "R-WIN-LOW",
        "R-2P",
        # The house rules its options play (R-HOUSE-*), all off by default.
        "R-HOUSE-LAST-CARD",
        "R-HOUSE-FORCED-PLAY",
        "R-HOUSE-HAND-CAP",
        "R-HOUSE-UNO-CALL",
        "R-HOUSE-SILENT-UNO",
        "R-HOUSE-UNO-6",
        "R-HOUSE-FALSE-UNO",
        "R-HOUSE-MISPLAY",
        "R-HOUSE-BLOCKED-DRAW",
        "R-HOUSE-DOUBLE-SCORE",
        "R-HOUSE-NO-LAST-DRAW",
    )
    verbs: ClassVar[Mapping[str, str]] = {
        "play": "turn",
        "draw": "turn",
        "pass": "turn",
        "uno": "any",
        "catch": "any",
        "challenge": "any",
        "accept": "turn",
        "color": "turn",
    }
    phases = (
        PhaseSpec("play", "the ordinary turn: play a matching card or draw (R-TURN-MATCH, R-TURN-DRAW)"),
        PhaseSpec("drawn", "the card just drawn is playable: play it or pass (R-TURN-DRAW)"),
        PhaseSpec("penalty", "draw phase.count cards and lose the turn (R-ACT-D2, R-TURN-WD4)"),
        PhaseSpec("challenge", "hit by a Wild Draw Four: challenge or accept (R-CHALLENGE)"),
        PhaseSpec("color", "name the colour of a wild starter (R-SETUP-STARTER)"),
    )
    events = (
        EventSpec(
            "starter-returned",
            "a starter that may not start was returned and another card turned up (R-SETUP-STARTER)",
            (("cards", "the card returned, then the new starter"),),
            "{cards[0]} may not start: it went back and {cards[1]} was turned up",
        ),
        EventSpec(
            "challenge",
            "a Wild Draw Four was challenged; its player's hand is shown to the challenger (R-CHALLENGE)",
            (
                ("seat", "the challenger"),
                ("target", "the Wild Draw Four's player"),
                ("cards", "that player's hand (private: only the challenger sees it)"),
                ("count", "the cards the loser of the challenge draws"),
                ("data.guilty", "whether the player held a card of the previous colour"),
            ),
            _challenge_text,
        ),
        EventSpec(
            "false-uno",
            "A seat caught a seat that had called UNO, or called UNO and then did not lay its "
            "next-to-last card, and drew the penalty for it (R-HOUSE-FALSE-UNO).",
            (
                ("seat", "the seat that made the false catch or call"),
                ("target", "the seat it caught (none for a call)"),
                ("count", "the penalty cards it draws"),
            ),
            _false_uno_text,
        ),
        EventSpec(
            "misplay",
            "A seat tried to play a card it may not play: it kept the card, drew the penalty and lost "
            "its turn (R-HOUSE-MISPLAY).",
            (
                ("seat", "the seat that misplayed"),
                ("cards", "the card it tried to play"),
                ("count", "the penalty cards it draws"),
            ),
            "{seat} tried to play {cards}, which may not be played here, took it back and lost the turn",
            reveals=True,  # R-HOUSE-MISPLAY: the card tried is shown to the table
        ),
    )
    options = (
        Option("target_score", 500, "points that end the game (R-WIN)", positive_int, "a positive integer"),
        Option(
            "scoring",
            "winner-takes-all",
            "R-SCORE (winner scores the others' hands) or R-WIN-LOW (each is charged their own)",
            one_of("winner-takes-all", "low-score"),
            "winner-takes-all, low-score",
        ),
        Option(
            "uno_penalty",
            2,
            "cards drawn when caught without UNO (R-UNO-CATCH); 6 is a house rule (R-HOUSE-UNO-6)",
            one_of(2, 4, 6),
            "2, 4, 6",
        ),
        Option("wd4_points", 50, "points of a Wild Draw Four (R-SCORE)", one_of(50, 70), "50, 70"),
        Option(
            "opening_reverse",
            "dealer-starts",
            "who starts after a Reverse starter (R-SETUP-STARTER)",
            one_of("dealer-starts", "right-of-dealer-starts"),
            "dealer-starts, right-of-dealer-starts",
        ),
        Option("challenge", True, "Wild Draw Four bluffs and challenges (R-CHALLENGE)", switch, "on, off"),
        Option(
            "challenger",
            "victim",
            "who may challenge a Wild Draw Four: the player hit by it [E15][CZ][PL] or anyone [LT]",
            one_of("victim", "anyone"),
            "victim, anyone",
        ),
        Option(
            "drawn_card",
            "may-keep",
            "a playable drawn card may be kept [E15][LT] or must be played [CZ] (R-TURN-DRAW)",
            one_of("may-keep", "must-play"),
            "may-keep, must-play",
        ),
        Option(
            "dealer_draw",
            "number",
            "who deals: the highest number, symbols counting 0 [E15][LT], or the highest point value "
            "[CZ] (R-SETUP-DEALER)",
            one_of("number", "points"),
            "number, points",
        ),
        Option(
            "opening_wild",
            "choose-color",
            "a Wild starter: the first player names the colour, or it is returned and another turned [CZ]",
            one_of("choose-color", "redraw"),
            "choose-color, redraw",
        ),
        # The house rules people play (R-HOUSE-*): each off by default.
        Option(
            "last_card_ban",
            "none",
            "R-HOUSE-LAST-CARD: which cards may not be a seat's last card: none, any wild (wild), "
            "a Draw Two or Wild Draw Four (draw), any but a number card (action)",
            one_of("none", "wild", "draw", "action"),
            "none, wild, draw, action",
        ),
        Option(
            "forced_play",
            False,
            "R-HOUSE-FORCED-PLAY: a seat holding a playable card must play one instead of drawing",
            switch,
            "on, off",
        ),
        Option(
            "hand_limit",
            0,
            "R-HOUSE-HAND-CAP: a seat holding this many cards may not draw for its turn and passes "
            "if it cannot play (0: no limit)",
            _whole(1, "a number of cards"),
            "0 (no limit) or a number of cards, e.g. 20",
        ),
        Option(
            "uno_call",
            "two-cards",
            "when UNO is called: holding two cards, before the next-to-last card (R-UNO-CALL); "
            "only once holding one card, or only with a card to play next (R-HOUSE-UNO-CALL); "
            "never, nobody being caught (R-HOUSE-SILENT-UNO)",
            one_of("two-cards", "one-card", "playable", "silent"),
            "two-cards, one-card, playable, silent",
        ),
        Option(
            "false_uno_penalty",
            0,
            "R-HOUSE-FALSE-UNO: cards drawn by a seat that catches a seat that called, or calls UNO "
            "and then does not lay its next-to-last card (0: such a catch is refused, such a call lapses)",
            _whole(1, "a number of cards"),
            "0 (off) or a number of cards, e.g. 2",
        ),
        Option(
            "misplay_penalty",
            0,
            "R-HOUSE-MISPLAY: cards drawn by a seat that tries to play a card it may not play, "
            "keeping the card and losing the turn (0: such a play is refused)",
            _whole(1, "a number of cards"),
            "0 (off) or a number of cards, e.g. 1",
        ),
        Option(
            "blocked_round",
            "fewest-points",
            "R-HOUSE-BLOCKED-DRAW: a blocked round is won by the fewest hand points, or is a draw "
            "nobody scores",
            one_of("fewest-points", "draw"),
            "fewest-points, draw",
        ),
        Option(
            "double_score",
            False,
            "R-HOUSE-DOUBLE-SCORE: every round's points count double",
            switch,
            "on, off",
        ),
        Option(
            "last_draw_card",
            "draws",
            "after a last Draw Two or Wild Draw Four: the next seat still draws (R-OUT-LAST-DRAW), "
            "or nothing more happens, a common reading the rules contradict (R-HOUSE-NO-LAST-DRAW)",
            one_of("draws", "no-draw"),
            "draws, no-draw",
        ),
    )
    testing = TestHints(
        option_values={"hand_limit": (14, 25), "false_uno_penalty": (2,), "misplay_penalty": (1,)}
    )

    # -- building ---------------------------------------------------------------

    @hookimpl(trylast=True)
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        # R-DECK-108: per colour one 0, two of 1-9, two each of Skip, Reverse, Draw Two.
        cards: list[Card] = []
        for color in COLORS:
            cards.append(Card.of(color, "0"))
            for kind in NUMBERS[1:] + ACTION_KINDS:
                cards += [Card.of(color, kind)] * 2
        cards += [Card.of(None, "W")] * 4 + [Card.of(None, "W+4")] * 4
        return cards

    @hookimpl(trylast=True)
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        # R-SCORE
        number = card.number
        if number is not None:
            return number
        if card.kind in ACTION_KINDS:
            return 20
        if card.kind == "W":
            return 50
        if card.kind == "W+4":
            return int(ruleset.options["wd4_points"])
        return None

    @hookimpl(trylast=True)
    def hand_size(self, ruleset: Ruleset) -> int:
        return 7  # R-SETUP-DEAL

    # -- dealing ------------------------------------------------------------------

    @hookimpl(trylast=True)
    def choose_dealer(self, ruleset: Ruleset, players: int, rng: Rng) -> int:
        # R-SETUP-DEALER: each draws a card, the highest number deals, symbols
        # count as zero [E15][LT] (dealer_draw=points: every card its points [CZ]);
        # tied players draw again (a decision of this plugin).
        by_points = ruleset.options["dealer_draw"] == "points"
        pile: list[Card] = []
        contenders = list(range(players))
        while len(contenders) > 1:
            if len(pile) < len(contenders):
                pile = list(ruleset.deck)
                rng.shuffle(pile)
            if by_points:
                values = {seat: ruleset.card_points(pile.pop()) for seat in contenders}
            else:
                values = {seat: pile.pop().number or 0 for seat in contenders}
            best = max(values.values())
            contenders = [seat for seat in contenders if values[seat] == best]
        return contenders[0]

    @hookimpl(trylast=True)
    def on_starter(self, draft: Draft) -> bool:
        # R-SETUP-STARTER
        redraw = ("W+4", "W") if draft.ruleset.options["opening_wild"] == "redraw" else ("W+4",)
        while draft.top_card.kind in redraw:
            # Returned to the deck, the deck reshuffled, a new card turned.
            (starter,) = draft.take_from_discard_pile(1)
            draft.shuffle_into_draw_pile([starter])
            turned = draft.take_from_draw_pile(1)
            draft.put_on_discard_pile(turned)
            draft.add_event(Event("starter-returned", None, (starter, *turned), "R-SETUP-STARTER"))
        top = draft.top_card
        dealer = draft.dealer
        if top.kind == "+2":
            draft.phase = Phase("penalty", 2, top, dealer)
        elif top.kind == "S":
            draft.pass_turn(2, dealer)
        elif top.kind == "R":
            draft.direction = -1
            if draft.ruleset.options["opening_reverse"] == "dealer-starts":
                draft.current_player = dealer
            else:
                draft.pass_turn(1, dealer)
        elif top.color is None:
            # Wild, and any special wild: the first player names the colour;
            # the special action does not happen.
            draft.phase = Phase("color", card=top)
        return True

    # -- house rules that refuse each other ------------------------------------------------

    @hookimpl(trylast=True)
    def check_ruleset(self, ruleset: Ruleset) -> None:
        house = house_rules(ruleset)
        if house.false_penalty and house.call == "silent":
            raise RulesetError(
                "false_uno_penalty makes false UNO calls and catches cost cards (R-HOUSE-FALSE-UNO), "
                "but with uno_call=silent nobody calls or catches (R-HOUSE-SILENT-UNO): keep one"
            )
        if house.misplay and ruleset.options.get("enforcement") == "table":
            raise RulesetError(
                "misplay_penalty charges a misplay at once (R-HOUSE-MISPLAY), but penalties' "
                "enforcement=table lets it stand unless another seat catches it (R-PEN-ILLEGAL): keep one"
            )

    # -- checking states read from outside ----------------------------------------------

    @hookimpl(trylast=True)
    def check_state(self, state: GameState) -> None:
        _check_phase(state)

    # -- the shared questions ----------------------------------------------------------

    @hookimpl(trylast=True)
    def uno_call_rule(self, ruleset: Ruleset) -> str:
        return str(ruleset.options["uno_call"])  # R-UNO-CALL (R-HOUSE-UNO-CALL, R-HOUSE-SILENT-UNO)

    @hookimpl(trylast=True)
    @active_when(lambda ruleset: not ruleset.options["challenge"])
    def card_matches(self, state: Position, seat: int, card: Card) -> bool | None:
        # R-TURN-WD4: with challenges off, a Wild Draw Four only without the colour to match.
        if card.kind == "W+4" and not state.ruleset.options["challenge"]:
            color = state.color
            return not any(c.color is color for c in state.hands[seat])
        return None

    @hookimpl(trylast=True)
    @active_when(lambda ruleset: ruleset.options["last_card_ban"] != "none")
    def play_forbidden(self, state: Position, seat: int, card: Card) -> str | None:
        ban = state.ruleset.cached(_HOUSE_KEY, _read_house_rules).ban
        if ban is not None and ban(card) and state.hands[seat] == (card,):
            return "R-HOUSE-LAST-CARD"
        return None

    @hookimpl(trylast=True)
    @active_when(lambda ruleset: bool(ruleset.options["forced_play"] or ruleset.options["hand_limit"]))
    def refuse_turn_draw(self, state: Position, seat: int, playable: bool) -> str | None:
        house = state.ruleset.cached(_HOUSE_KEY, _read_house_rules)
        if house.forced and playable:
            return "R-HOUSE-FORCED-PLAY"
        if house.limit and len(state.hands[seat]) >= house.limit:
            return "R-HOUSE-HAND-CAP"
        return None

    @hookimpl(trylast=True)
    @active_when(lambda ruleset: ruleset.options["blocked_round"] == "draw")
    def blocked_round(self, draft: Draft) -> GoingOut | None:
        if draft.ruleset.cached(_HOUSE_KEY, _read_house_rules).blocked_draw:
            return _NOBODY  # R-HOUSE-BLOCKED-DRAW
        return None

    # -- legal actions --------------------------------------------------------------

    @hookimpl(trylast=True)
    def legal_actions(self, state: GameState) -> list[Action]:
        seat = state.current_player
        phase = state.phase
        name = phase.name
        hand = state.hands[seat]
        rules = state.ruleset
        house = rules.cached(_HOUSE_KEY, _read_house_rules)
        acts: list[Action] = []
        if name == "play":
            color = state.color
            discard = state.discard_pile
            top_kind = discard[-1].kind
            matching: dict[Card, None] = {}  # each distinct playable card once, in hand order
            if rules.hooks.card_matches is None:  # the core's rule for every card (R-TURN-MATCH)
                for card in hand:
                    c = card.color
                    if c is None or c is color or card.kind == top_kind:
                        matching[card] = None
            else:  # a plugin decides some card (card_matches: R-TURN-WD4 without challenges)
                for card in hand:
                    if state.matches(seat, card):
                        matching[card] = None
            forbid = rules.hooks.play_forbidden
            if forbid is not None and matching:  # every ban on a play (R-HOUSE-LAST-CARD, ...)
                matching = {card: None for card in matching if forbid(state, seat, card) is None}
            if matching:
                if state.left:
                    acts = state.play_actions_for(seat, matching)
                else:  # every seat in the game: the rule set's table of play actions by card
                    table = rules.play_table(seat, len(state.hands))
                    for card in matching:
                        found = table.get(card)
                        acts += rules.play_actions(seat, card, len(state.hands)) if found is None else found
            if house.misplay:
                _misplays(state, seat, hand, matching, acts)
            refuse = rules.hooks.refuse_turn_draw
            if refuse is not None and refuse(state, seat, bool(matching)) is not None:
                if not matching:
                    acts.append(_PASS[seat])  # refused the draw, it cannot play: the turn passes
            elif state.draw_pile or len(discard) > 1 or not matching:
                # Section 13: with nothing left to draw, drawing is only for a seat that cannot play.
                acts.append(_DRAW[seat])
            if len(hand) == 2 and state.may_call_uno(seat, bool(matching)):
                acts.append(_UNO[seat])  # R-UNO-CALL
        elif name == "drawn":
            drawn = phase.card
            assert drawn is not None
            playable = state.matches(seat, drawn)
            if playable:
                acts += state.play_actions(seat, drawn)
            if not playable or rules.options["drawn_card"] == "may-keep":
                acts.append(_PASS[seat])
            if len(hand) == 2 and state.may_call_uno(seat, playable):
                acts.append(_UNO[seat])  # R-UNO-CALL
        elif name == "penalty":
            acts.append(_DRAW[seat])
        elif name == "challenge":
            acts.append(_act(seat, "challenge"))
            acts.append(_act(seat, "accept"))
            if state.ruleset.options["challenger"] == "anyone":
                acts += [_act(s, "challenge") for s in state.active_seats if s not in (seat, phase.seat)]
        elif name == "color":
            acts += [Action.of(seat, "color", None, c) for c in COLORS]
        if state.uno_exposed:
            acts += state.uno_window_actions()  # R-UNO-SELF, R-UNO-CATCH
        if house.false_penalty:
            _false_catches(state, acts)
        return acts

    # -- applying actions ---------------------------------------------------------------

    @hookimpl(trylast=True)
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        verb = action.verb
        seat = action.seat
        if verb == "play":
            house = draft.ruleset.cached(_HOUSE_KEY, _read_house_rules)
            if not house.plain and house.misplay and _misplayed(draft, action, house):
                _misplay(draft, action, house.misplay)
            else:
                # With uno_call=silent too the draft's books record a seat that
                # played down to one card without a call; R-HOUSE-SILENT-UNO is
                # that no catch nor late call is offered (legal_actions), so the
                # window closes unused.
                draft.play(action)
        elif verb == "draw":
            _draw(draft, seat)
        elif verb == "pass":
            if draft.uno_exposed:
                draft.end_exposure()  # R-UNO-CATCH: the turn action closes the window
            if draft.uno_declared:
                _false_call(draft, seat)  # R-HOUSE-FALSE-UNO
            if draft.phase.name == "play":
                draft.stall(seat)  # R-HOUSE-HAND-CAP: a seat at the cap that cannot play passes
            else:
                draft.pass_turn(1, seat)
        elif verb == "uno":
            draft.call_uno(seat)  # R-UNO-CALL, or late (R-UNO-SELF)
        elif verb == "catch":
            _catch(draft, action)
        elif verb == "challenge":
            _challenge(draft, seat)
        elif verb == "accept":
            count = draft.phase.count
            draft.end_exposure()
            if draft.uno_declared:
                _false_call(draft, seat)  # R-HOUSE-FALSE-UNO
            draft.draw(seat, count, "penalty")
            draft.pass_turn(1, seat)
        elif verb == "color":
            draft.color = action.color
            draft.phase = PLAY
        else:
            return None
        return True

    @hookimpl(trylast=True)
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool:
        seat = action.seat
        card = action.card
        assert card is not None
        kind = card.kind
        out = None if draft.hands[seat] else draft.going_out(seat)  # its last card (R-OUT)
        if out is not None and out.ends:
            # R-OUT (the core ends the round); R-OUT-LAST-DRAW: the next player still draws, and it counts.
            if kind in ("+2", "W+4") and draft.ruleset.cached(_HOUSE_KEY, _read_house_rules).last_draw:
                draft.draw(draft.next_seat(seat), 2 if kind == "+2" else 4, "penalty")
            return True  # R-HOUSE-NO-LAST-DRAW: without the draw
        gone = out is not None
        if kind not in _EFFECTS:  # a number card, a wild, another plugin's card: the next seat plays
            draft.pass_turn(1, seat)
        elif kind == "S":  # R-ACT-SKIP (R-2P: its player plays again)
            draft.pass_turn(2, seat)
        elif kind == "R":  # R-ACT-REV (R-2P: acts as a Skip, unless its player has gone)
            draft.direction = -draft.direction
            draft.pass_turn(2 if len(draft.active_seats) == 2 and not gone else 1, seat)
        elif kind == "+2":  # R-ACT-D2
            draft.current_player = draft.next_seat(seat)
            draft.phase = _PENALTIES.get((card, seat)) or _penalty(card, seat)
        elif kind == "W+4":  # R-TURN-WD4, R-CHALLENGE (not of a player gone: nothing to show)
            name = "challenge" if draft.ruleset.options["challenge"] and not gone else "penalty"
            draft.current_player = draft.next_seat(seat)
            draft.phase = Phase(name, 4, card, seat, previous.color)
        else:
            draft.pass_turn(1, seat)
        return True

    # -- explaining refusals ------------------------------------------------------------

    @hookimpl(trylast=True)
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        return _explain(state, action)

    # -- ending rounds and games --------------------------------------------------------

    @hookimpl(wrapper=True)
    def score_round(self, draft: Draft, result: RoundResult) -> Generator[None, Any, Sequence[int] | None]:
        # Around every plugin's scoring: the house rules that change any round's points.
        points: Sequence[int] | None = yield
        house = draft.ruleset.cached(_HOUSE_KEY, _read_house_rules)
        if house.plain or points is None:
            return points
        if house.blocked_draw and result.reason == "blocked":
            return (0,) * len(points)  # R-HOUSE-BLOCKED-DRAW: a draw, nobody scores
        if house.double:
            return tuple(2 * p for p in points)  # R-HOUSE-DOUBLE-SCORE
        return points

    @hookimpl(trylast=True, specname="score_round")
    def score_hands(self, draft: Draft, result: RoundResult) -> Sequence[int]:
        """R-SCORE and R-WIN-LOW: the points of the hands left (the ``score_round`` hook)."""
        state = draft
        points = [0] * state.players
        value = state.ruleset.hand_points
        seats = state.active_seats
        if state.ruleset.options["scoring"] == "low-score":
            for seat in seats:  # R-WIN-LOW: each charged their own hand
                points[seat] = value(state.hands[seat])
        elif result.winner is not None:  # R-SCORE: the winner scores the others' hands
            points[result.winner] = sum(value(state.hands[s]) for s in seats if s != result.winner)
        return points

    @hookimpl(trylast=True)
    def game_outcome(self, draft: Draft) -> Outcome | None:
        state = draft
        target = state.ruleset.options["target_score"]
        seats = state.active_seats
        scores = state.scores
        if max(scores[s] for s in seats) < target:
            return None  # R-WIN: deal another round
        if state.ruleset.options["scoring"] == "low-score":
            # R-WIN-LOW: the fewest points wins; ties go to the lowest seat.
            best = min(scores[s] for s in seats)
            return Outcome((min(s for s in seats if scores[s] == best),), "low-score")
        best = max(scores[s] for s in seats)
        return Outcome((min(s for s in seats if scores[s] == best),), "target-score")


# -- checking states -------------------------------------------------------------------


def _check_phase(state: GameState) -> None:
    """Classic's phases carry what their handlers need (``validate_state``).
    Once the game is over no handler runs: the last phase stays as it was."""
    if state.outcome is not None:
        return
    phase = state.phase
    name = phase.name
    seat = state.current_player
    if name == "play":
        require(
            phase == PLAY, "phase", "the ordinary turn ('play') carries no count, card, seat, colour or data"
        )
    elif name == "drawn":
        require(
            phase.card is not None and phase.card in state.hands[seat],
            "phase.card",
            "R-TURN-DRAW: phase 'drawn' names the card just drawn, which the seat to move holds",
        )
    elif name in ("penalty", "challenge"):
        rule = "R-CHALLENGE" if name == "challenge" else "R-ACT-D2, R-TURN-WD4"
        require(phase.count >= 1, "phase.count", f"{rule}: a seat told to draw draws at least one card")
        require(phase.card is not None, "phase.card", f"{rule}: phase {name!r} names the card that caused it")
        if name == "challenge":
            require(
                phase.seat is not None and phase.seat != seat and phase.seat not in state.left,
                "phase.seat",
                "R-CHALLENGE: the seat that played the Wild Draw Four, another seat still in the game",
            )
            require(
                phase.color is not None,
                "phase.color",
                "R-CHALLENGE: the colour before the Wild Draw Four, against which a bluff is judged",
            )
    if name == "color":
        require(
            state.color is None,
            "color",
            "R-SETUP-STARTER: in phase 'color' the wild starter's colour is still to be named",
        )
    elif state.color is None and state.outcome is None:
        raise StateFormatError(
            "color: R-TURN-MATCH: the colour to match is unnamed only while a wild starter's colour "
            "is to be named (phase 'color', R-SETUP-STARTER)",
            "color",
        )


# -- the action handlers ----------------------------------------------------------------


_EFFECTS = frozenset({"S", "R", "+2", "W+4"})
"""The kinds whose play does more than pass the turn (R-ACT-SKIP, R-ACT-REV, R-ACT-D2, R-TURN-WD4)."""
_DRAWN_PHASES: dict[Card, Phase] = {}
"""The ``drawn`` phase of each card, shared (phases are frozen values, built once)."""
_PENALTIES: dict[tuple[Card, int], Phase] = {}
"""The ``penalty`` phase after each Draw Two card and seat, shared likewise."""


def _penalty(card: Card, seat: int) -> Phase:
    """The shared ``penalty`` phase after ``seat`` played the Draw Two ``card``."""
    phase = _PENALTIES[card, seat] = Phase("penalty", 2, card, seat)
    return phase


def _drawn(card: Card) -> Phase:
    """The shared ``drawn`` phase of ``card``."""
    phase = _DRAWN_PHASES[card] = Phase("drawn", card=card, secret=True)
    return phase


def _draw(draft: Draft, seat: int) -> None:
    phase = draft.phase
    if draft.uno_exposed:
        draft.end_exposure()  # R-UNO-CATCH: the turn action closes the window
    if draft.uno_declared:
        _false_call(draft, seat)  # R-HOUSE-FALSE-UNO
    if phase.name == "penalty":
        # R-ACT-D2 / R-TURN-WD4: draw and lose the turn; penalty cards are not
        # playable at once (a decision: penalty draws are not draws for the turn).
        draft.draw(seat, phase.count, "penalty")
        draft.pass_turn(1, seat)
        return
    if draft.draw(seat, 1, "turn"):
        card = draft.hands[seat][-1]
        if draft.matches(seat, card):
            # R-TURN-DRAW: a playable drawn card may be played at once, or kept.
            draft.phase = _DRAWN_PHASES.get(card) or _drawn(card)
        else:
            draft.pass_turn(1, seat)
        draft.stalled = 0
        return
    draft.stall(seat)  # nothing to draw (Section 13): a blocked round when every seat has


def _false_call(draft: Draft, seat: int) -> None:
    """R-HOUSE-FALSE-UNO: ``seat`` called UNO and now draws, passes or accepts a
    draw instead of laying its next-to-last card: the call was false; it lapses
    and costs the penalty (a penalty draw, before the action's own draw)."""
    if seat not in draft.uno_declared:
        return
    penalty = draft.ruleset.cached(_HOUSE_KEY, _read_house_rules).false_penalty
    if not penalty:
        return
    draft.withdraw_uno((seat,))
    draft.add_event(
        Event(
            "false-uno",
            seat,
            (),
            "R-HOUSE-FALSE-UNO",
            "called UNO, then did not lay its next-to-last card",
            count=penalty,
        )
    )
    draft.draw(seat, penalty, "penalty")


def _catch(draft: Draft, action: Action) -> None:
    target = action.target
    assert target is not None
    if target not in draft.uno_exposed:
        # R-HOUSE-FALSE-UNO: the seat caught had called; its catcher pays.
        penalty = draft.ruleset.cached(_HOUSE_KEY, _read_house_rules).false_penalty
        draft.add_event(
            Event(
                "false-uno",
                action.seat,
                (),
                "R-HOUSE-FALSE-UNO",
                f"seat {target} had called UNO",
                target=target,
                count=penalty,
            )
        )
        draft.draw(action.seat, penalty, "penalty")
        return
    draft.catch(action.seat, target, draft.ruleset.options["uno_penalty"])  # R-UNO-CATCH


def _misplays(
    state: GameState, seat: int, hand: tuple[Card, ...], matching: Mapping[Card, None], acts: list[Action]
) -> None:
    """R-HOUSE-MISPLAY: every card of an ordinary turn that may not be played may be
    tried, at a price."""
    for card in dict.fromkeys(hand):
        if card not in matching:
            acts += state.play_actions(seat, card)


def _false_catches(state: GameState, acts: list[Action]) -> None:
    """R-HOUSE-FALSE-UNO: right after a seat played down to one card having
    called UNO, any other seat may (wrongly) catch it, once: the first action
    after the card."""
    last = state.last_action
    if last is None or last.verb != "play":
        return
    target = last.seat
    hands = state.hands
    if len(hands[target]) != 1 or target in state.uno_exposed or target in state.left:
        return
    row = _CATCH
    acts += [row[other][target] for other in state.active_seats if other != target]


def _misplayed(draft: Draft, action: Action, house: HouseRules) -> bool:
    """Whether the play ``action`` is a misplay (R-HOUSE-MISPLAY): on an
    ordinary turn, a card that does not match or may not be the last card."""
    card = action.card
    assert card is not None
    seat = action.seat
    before = draft.before
    if before is None or before.phase.name != "play" or seat != before.current_player:
        return False
    if not before.matches(seat, card):
        return True
    return house.ban is not None and len(before.hands[seat]) == 1 and house.ban(card)


def _misplay(draft: Draft, action: Action, penalty: int) -> None:
    """R-HOUSE-MISPLAY: the seat keeps the card, draws ``penalty`` cards and loses the turn."""
    seat = action.seat
    card = action.card
    assert card is not None
    if draft.uno_exposed:
        draft.end_exposure()  # R-UNO-CATCH: the turn action closes the window
    draft.withdraw_uno((seat,))  # a call was for a card that was not laid
    draft.add_event(
        Event("misplay", seat, (card,), "R-HOUSE-MISPLAY", f"{card} may not be played", count=penalty)
    )
    draft.draw(seat, penalty, "penalty")
    draft.pass_turn(1, seat)


def _challenge(draft: Draft, seat: int) -> None:
    # R-CHALLENGE: the Wild Draw Four's player shows their hand to the challenger.
    phase = draft.phase
    bluffer = phase.seat
    victim = draft.current_player
    assert bluffer is not None
    draft.end_exposure()  # R-UNO-CATCH: the turn action closes the window
    hand = draft.hands[bluffer]
    guilty = any(c.color is phase.color for c in hand)
    draft.show_hand(bluffer, seat)  # what the challenger now knows of the bluffer's hand
    draft.add_event(_challenge_event(seat, bluffer, hand, guilty, phase.count))
    if guilty:
        # The bluffer draws instead; the challenger takes the turn normally and
        # the named colour stands (a decision of this plugin).
        draft.draw(bluffer, phase.count, "penalty")
        draft.phase = PLAY
        return
    draft.draw(seat, phase.count + 2, "penalty")
    if seat != victim:
        # challenger = anyone [LT]: a third seat's failed challenge costs it 6;
        # the Wild Draw Four stands and its victim draws and loses the turn.
        draft.draw(victim, phase.count, "penalty")
    draft.pass_turn(1, victim)


def _challenge_event(seat: int, bluffer: int, hand: tuple[Card, ...], guilty: bool, count: int) -> Event:
    """The event of ``seat``'s challenge of ``bluffer``'s Wild Draw Four of
    penalty ``count``, ``hand`` shown (R-CHALLENGE)."""
    verdict = "guilty" if guilty else "innocent"
    # Private to the challenger, the only one shown the hand; the others see the verdict.
    return Event(
        "challenge",
        seat,
        hand,
        "R-CHALLENGE",
        f"seat {bluffer}'s hand: {verdict}",
        private=True,
        target=bluffer,
        count=count if guilty else count + 2,
        data=(("guilty", guilty),),
    )


def _explain(state: GameState, action: Action) -> tuple[str, str] | None:
    seat = action.seat
    verb = action.verb
    phase = state.phase
    current = state.current_player
    house = house_rules(state.ruleset)
    if (
        verb == "play"
        and action.card is not None
        and 0 <= seat < state.players
        and state.hands[seat] == (action.card,)
        and banned_last_card(state, seat, action.card)
    ):
        return (
            "R-HOUSE-LAST-CARD",
            f"{action.card} may not be your last card "
            f"(last_card_ban={state.ruleset.options['last_card_ban']}): draw instead",
        )
    if verb in ("catch", "uno") and house.call == "silent":
        return "R-HOUSE-SILENT-UNO", "nobody calls UNO or is caught in this rule set (uno_call=silent)"
    if verb == "catch":
        return (
            "R-UNO-CATCH",
            f"seat {action.target} cannot be caught now: only a seat holding one card without "
            "having called UNO, before the next player begins their turn",
        )
    if verb == "uno" and house.call == "one-card":
        return (
            "R-HOUSE-UNO-CALL",
            "call UNO once you hold one card, before anyone catches you (uno_call=one-card)",
        )
    if verb == "uno" and house.call == "playable":
        return (
            "R-HOUSE-UNO-CALL",
            "call UNO holding two cards, one of which you can play now (uno_call=playable), "
            "or late, before being caught",
        )
    if verb == "uno":
        return (
            "R-UNO-CALL",
            "call UNO when playing your next-to-last card (holding two cards on your turn) "
            "or late, before being caught",
        )
    if verb == "pass" and phase.name == "drawn" and seat == current:
        return "R-TURN-DRAW", "with drawn_card=must-play a playable drawn card must be played [CZ]"
    if verb in ("challenge", "accept") and phase.name == "challenge" and seat != current:
        if seat == phase.seat:
            return "R-CHALLENGE", "a player cannot challenge or accept their own Wild Draw Four"
        return "R-CHALLENGE", f"only seat {current}, told to draw {phase.count}, may {verb} a Wild Draw Four"
    if verb in TURN_VERBS and seat != current:
        return "R-SETUP-FIRST", f"it is seat {current}'s turn, not seat {seat}'s"
    if phase.name == "penalty":
        return (
            "R-ACT-D2" if phase.card is None or phase.card.kind == "+2" else "R-TURN-WD4",
            f"seat {seat} must draw {phase.count} and lose the turn",
        )
    if phase.name == "challenge":
        return "R-CHALLENGE", "hit by a Wild Draw Four: challenge it or accept and draw"
    if phase.name == "color":
        return "R-SETUP-STARTER", "the starter is a wild: name its colour first ('color R')"
    if verb in ("challenge", "accept"):
        return "R-CHALLENGE", "only the player told to draw 4 by a Wild Draw Four may challenge or accept it"
    hand_size = len(state.hands[seat]) if 0 <= seat < state.players else 0
    at_cap = bool(house.limit) and hand_size >= house.limit and phase.name == "play"
    if verb == "pass" and at_cap:
        return "R-HOUSE-HAND-CAP", "at the hand limit a seat passes only when it cannot play: play a card"
    if verb == "pass":
        return "R-TURN-DRAW", "pass only after drawing a playable card, to keep it"
    if verb == "draw" and phase.name == "drawn":
        keep = " or keep it ('pass')" if state.ruleset.options["drawn_card"] == "may-keep" else ""
        return "R-TURN-DRAW", f"one draw per turn: play the card just drawn ({phase.card}){keep}"
    if verb == "draw" and house.forced:
        return "R-HOUSE-FORCED-PLAY", "a seat holding a playable card must play one (forced_play=on)"
    if verb == "draw" and at_cap:
        return (
            "R-HOUSE-HAND-CAP",
            f"a seat holding {house.limit} cards or more may not draw for its turn "
            f"(hand_limit={house.limit}): play a card, or pass if you cannot",
        )
    if verb == "draw":
        return "R-TURN-DRAW", "the piles are empty and you can play: play a card"
    if verb == "color":
        return (
            "R-SETUP-STARTER",
            "naming a colour on its own is only for a wild starter; name a wild's colour when playing it",
        )
    if verb != "play" or action.card is None:
        return None
    card = action.card
    hand = state.hands[seat]
    if card not in hand:
        return "R-TURN-MATCH", f"seat {seat} holds no {card}"
    if phase.name == "drawn" and card != phase.card:
        return "R-TURN-CHOOSE-DRAW", f"after drawing you may play only the card just drawn ({phase.card})"
    if card.color is None:
        if action.color is None:
            return "R-TURN-WILD", f"name the colour for {card}, e.g. 'play {card} R'"
        if card.kind == "W+4" and not state.matches(seat, card):
            return (
                "R-TURN-WD4",
                f"a Wild Draw Four may be played only without a card of the current colour ({state.color})",
            )
    elif action.color is not None:
        return "R-TURN-MATCH", f"{card} is not a wild: it takes no colour"
    if state.ruleset.needs_target(card) and action.target is None:
        return "R-TURN-MATCH", f"{card} needs a target seat, e.g. 'play {card} {state.next_seat(seat)}'"
    if action.target is not None and not state.ruleset.needs_target(card):
        return "R-TURN-MATCH", f"{card} takes no target seat"
    if action.target is not None and (
        action.target == seat or not 0 <= action.target < state.players or action.target in state.left
    ):
        return "R-TURN-MATCH", f"seat {action.target} cannot be the target"
    if card.color is not None and not state.matches(seat, card):
        return (
            "R-TURN-MATCH",
            f"{card} matches neither the colour {state.color} nor the {state.top_card} by number or symbol",
        )
    return None


plugin = ClassicPlugin()
"""The plugin object the ``unorules`` entry point ``classic`` names."""

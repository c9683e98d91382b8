"""Classic UNO (the rules reference up to R-WIN-LOW, and R-2P) as a unorules plugin.

Phases this plugin owns (``state.phase.name``):

* ``play``: the ordinary turn: play a matching card or draw (R-TURN-MATCH, R-TURN-DRAW);
* ``drawn``: the card just drawn is playable: play it or ``pass`` (R-TURN-DRAW, R-TURN-CHOOSE-DRAW);
* ``penalty``: draw ``phase.count`` cards and lose the turn (R-ACT-D2, R-TURN-WD4);
* ``challenge``: hit by a Wild Draw Four: ``challenge`` or ``accept`` (R-CHALLENGE);
* ``color``: name the colour of a wild starter (R-SETUP-STARTER).

Every hook implementation is ``trylast``: house rules registered after this
plugin see each hook first and override it by returning a result. The house
rules classic's options once played are plugins of their own since issue 42
(``last-card``, ``turn-rules``, ``uno-calls``, ``score-rules`` in the
``unorules-house-rules`` distribution); naming one of their options still
builds (``classic last_card_ban=wild`` adds ``last-card``).

.. rubric:: Options

* ``target_score`` (500): the score that ends the game (R-WIN).
* ``scoring`` (``winner-takes-all``): the round's winner scores the others'
  hands (R-SCORE); ``low-score``: every seat is charged its own hand and the
  fewest points win (R-WIN-LOW).
* ``uno_penalty`` (2): cards drawn when caught without calling UNO; 4 [CZ]
  (R-UNO-CATCH); 6, a house rule (R-HOUSE-UNO-6).
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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

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
    hookimpl,
    one_of,
    positive_int,
    switch,
)
from unorules.markers import active_when
from unorules.scoring import draw_for_dealer, round_points, target_outcome
from unorules_classic.phases import check_phase

__all__ = ["ClassicPlugin", "plugin"]

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
        "R-HOUSE-UNO-6",  # a value of uno_penalty
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
        return draw_for_dealer(ruleset, players, rng, ruleset.card_points if by_points else _number)

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

    # -- checking states read from outside ----------------------------------------------

    @hookimpl(trylast=True)
    def check_state(self, state: GameState) -> None:
        check_phase(state)

    # -- the shared questions ----------------------------------------------------------

    @hookimpl(trylast=True)
    @active_when(lambda ruleset: not ruleset.options["challenge"])
    def card_matches(self, state: Position, seat: int, card: Card) -> bool | None:
        # R-TURN-WD4: with challenges off, a Wild Draw Four only without the colour to match.
        if card.kind == "W+4" and not state.ruleset.options["challenge"]:
            color = state.color
            return not any(c.color is color for c in state.hands[seat])
        return None

    # -- legal actions --------------------------------------------------------------

    @hookimpl(trylast=True)
    def legal_actions(self, state: GameState) -> list[Action]:
        seat = state.current_player
        phase = state.phase
        name = phase.name
        hand = state.hands[seat]
        rules = state.ruleset
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
        return acts

    # -- applying actions ---------------------------------------------------------------

    @hookimpl(trylast=True)
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        verb = action.verb
        seat = action.seat
        if verb == "play":
            # With uno_call=silent too the draft's books record a seat that played
            # down to one card without a call; no catch nor late call is offered
            # (Position.uno_window_actions), so the window closes unused.
            draft.play(action)
        elif verb == "draw":
            _draw(draft, seat)
        elif verb == "pass":
            if draft.uno_exposed:
                draft.end_exposure()  # R-UNO-CATCH: the turn action closes the window
            if draft.phase.name == "play":
                draft.stall(seat)  # R-HOUSE-HAND-CAP: a seat at the cap that cannot play passes
            else:
                draft.pass_turn(1, seat)
        elif verb == "uno":
            draft.call_uno(seat)  # R-UNO-CALL, or late (R-UNO-SELF)
        elif verb == "catch":
            assert action.target is not None
            draft.catch(seat, action.target, draft.ruleset.options["uno_penalty"])  # R-UNO-CATCH
        elif verb == "challenge":
            _challenge(draft, seat)
        elif verb == "accept":
            count = draft.phase.count
            draft.end_exposure()
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
            if kind in ("+2", "W+4"):
                draft.draw(draft.next_seat(seat), 2 if kind == "+2" else 4, "penalty")
            return True
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

    @hookimpl(trylast=True, specname="score_round")
    def score_hands(self, draft: Draft, result: RoundResult) -> Sequence[int]:
        """R-SCORE and R-WIN-LOW: the points of the hands left (the ``score_round`` hook)."""
        return round_points(draft, result.winner, draft.ruleset.options["scoring"] == "low-score")

    @hookimpl(trylast=True)
    def game_outcome(self, draft: Draft) -> Outcome | None:
        # R-WIN (R-WIN-LOW: the fewest points win); ties go to the lowest seat.
        options = draft.ruleset.options
        return target_outcome(draft, options["target_score"], options["scoring"] == "low-score")


# -- the action handlers ----------------------------------------------------------------


def _number(card: Card) -> int:
    """A card's value in the dealer draw by number: symbols and wilds count 0 (R-SETUP-DEALER)."""
    return card.number or 0


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
    if verb == "catch":
        return (
            "R-UNO-CATCH",
            f"seat {action.target} cannot be caught now: only a seat holding one card without "
            "having called UNO, before the next player begins their turn",
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
    if verb == "pass":
        return "R-TURN-DRAW", "pass only after drawing a playable card, to keep it"
    if verb == "draw" and phase.name == "drawn":
        keep = " or keep it ('pass')" if state.ruleset.options["drawn_card"] == "may-keep" else ""
        return "R-TURN-DRAW", f"one draw per turn: play the card just drawn ({phase.card}){keep}"
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

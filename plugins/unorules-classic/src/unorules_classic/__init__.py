"""Classic UNO (the rules reference up to R-WIN-LOW, and R-2P) as a unorules plugin.

Phases this plugin owns (``state.phase.name``):

* ``play``: the ordinary turn: play a matching card or draw (R-TURN-MATCH, R-TURN-DRAW);
* ``drawn``: the card just drawn is playable: play it or ``pass`` (R-TURN-DRAW, R-TURN-CHOOSE-DRAW);
* ``penalty``: draw ``phase.count`` cards and lose the turn (R-ACT-D2, R-TURN-WD4);
* ``challenge``: hit by a Wild Draw Four: ``challenge`` or ``accept`` (R-CHALLENGE);
* ``color``: name the colour of a wild starter (R-SETUP-STARTER).

Every hook implementation is ``trylast``: house rules registered after this
plugin see each hook first and override it by returning a result.

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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from unorules import (
    COLORS,
    MAX_PLAYERS,
    Action,
    Card,
    Color,
    Event,
    EventSpec,
    GameState,
    Option,
    Outcome,
    Phase,
    PhaseSpec,
    Plugin,
    Rng,
    RoundResult,
    Ruleset,
    hookimpl,
    one_of,
    positive_int,
    switch,
)
from unorules.errors import StateFormatError
from unorules.plugin import Applier, Finisher
from unorules.state import PLAY, draw_event
from unorules.validate import require

__all__ = ["ClassicPlugin", "is_playable", "plugin"]

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


def is_playable(state: GameState, seat: int, card: Card) -> bool:
    """Whether ``card`` may be played by ``seat`` on the top card (R-TURN-MATCH,
    R-TURN-WILD, R-TURN-WD4; a Wild Draw Four bluff counts as playable while
    challenges are on)."""
    if card.color is None:
        if card.kind == "W+4" and not state.ruleset.options["challenge"]:
            color = state.color
            return not any(c.color is color for c in state.hands[seat])
        return True
    return card.color is state.color or card.kind == state.discard_pile[-1].kind


class ClassicPlugin(Plugin):
    """The classic 108-card game: deal, match, action cards, UNO, scoring to 500."""

    name = "classic"
    summary = "Classic UNO: the 108-card deck, action cards, UNO calls, scoring to 500"
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
    )
    verbs = ("play", "draw", "pass", "uno", "catch", "challenge", "accept", "color")
    out_of_turn_verbs = ("uno", "catch", "challenge")
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
        ),
        EventSpec(
            "uno",
            'a seat called "UNO" (R-UNO-CALL), or called late before being caught (R-UNO-SELF)',
            (("seat", "the seat that called"), ("data.late", "true for a late call")),
        ),
        EventSpec(
            "caught",
            'a seat that did not call "UNO" was caught and draws the penalty (R-UNO-CATCH)',
            (
                ("seat", "the seat caught"),
                ("target", "the seat that caught it"),
                ("count", "the penalty cards it draws"),
            ),
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
        Option("uno_penalty", 2, "cards drawn when caught without UNO (R-UNO-CATCH)", one_of(2, 4), "2, 4"),
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
    def on_starter(self, state: GameState) -> GameState:
        # R-SETUP-STARTER
        redraw = ("W+4", "W") if state.ruleset.options["opening_wild"] == "redraw" else ("W+4",)
        while state.top_card.kind in redraw:
            # Returned to the deck, the deck reshuffled, a new card turned.
            starter = state.top_card
            state = state.replace(discard_pile=()).shuffle_into_draw_pile([starter])
            top, rest = state.draw_pile[0], state.draw_pile[1:]
            state = state.replace(
                discard_pile=(top,),
                draw_pile=rest,
                color=top.color,
                events=state.events + (Event("starter-returned", None, (starter, top), "R-SETUP-STARTER"),),
            )
        top = state.top_card
        dealer = state.dealer
        if top.kind == "+2":
            return state.replace(phase=Phase("penalty", 2, top, dealer))
        if top.kind == "S":
            return state.pass_turn(2, dealer)
        if top.kind == "R":
            reverse = state.replace(direction=-1)
            if state.ruleset.options["opening_reverse"] == "dealer-starts":
                return reverse.replace(current_player=dealer)
            return reverse.pass_turn(1, dealer)
        if top.color is None:
            # Wild, and any special wild: the first player names the colour;
            # the special action does not happen.
            return state.replace(phase=Phase("color", card=top))
        return state

    # -- checking states read from outside ----------------------------------------------

    @hookimpl(trylast=True)
    def check_state(self, state: GameState) -> None:
        _check_phase(state)

    # -- legal actions --------------------------------------------------------------

    @hookimpl(trylast=True)
    def legal_actions(self, state: GameState) -> list[Action]:
        # The fields read from the state's dict (see _NEW_STATE): the hot path.
        fields = state.__dict__
        seat: int = fields["current_player"]
        phase: Phase = fields["phase"]
        name = phase.name
        hand: tuple[Card, ...] = fields["hands"][seat]
        acts: list[Action] = []
        if name == "play":
            color: Color | None = fields["color"]
            discard: tuple[Card, ...] = fields["discard_pile"]
            top_kind = discard[-1].kind
            rules: Ruleset = fields["ruleset"]
            bluffs = rules.options["challenge"]
            matching: dict[Card, None] = {}  # each distinct playable card once, in hand order
            for card in hand:
                c = card.color
                if c is None:
                    if card.kind == "W+4" and not bluffs and any(x.color is color for x in hand):
                        continue
                elif c is not color and card.kind != top_kind:
                    continue
                matching[card] = None
            if matching:
                if fields["left"]:
                    acts = state.play_actions_for(seat, matching)
                else:
                    # state.play_actions_for inlined (every ordinary turn): a table of
                    # this seat's play actions by card, one look-up per card.
                    key = (_PLAY_TABLE, seat, len(fields["hands"]))
                    table = rules.cache.get(key) or _play_table(state, key)
                    for card in matching:
                        found = table.get(card)
                        acts += state.play_actions(seat, card) if found is None else found
            # Section 13: with nothing left to draw, drawing is only for a seat that cannot play.
            if fields["draw_pile"] or len(discard) > 1 or not acts:
                acts.append(_DRAW[seat])
            if len(hand) == 2 and seat not in fields["uno_declared"]:
                acts.append(_UNO[seat])
        elif name == "drawn":
            drawn = phase.card
            assert drawn is not None
            playable = is_playable(state, seat, drawn)
            if playable:
                acts += state.play_actions(seat, drawn)
            if not playable or state.ruleset.options["drawn_card"] == "may-keep":
                acts.append(_PASS[seat])
            if len(hand) == 2 and seat not in state.uno_declared:
                acts.append(_UNO[seat])
        elif name == "penalty":
            acts.append(_DRAW[seat])
        elif name == "challenge":
            acts.append(_act(seat, "challenge"))
            acts.append(_act(seat, "accept"))
            if state.ruleset.options["challenger"] == "anyone":
                acts += [_act(s, "challenge") for s in state.active_seats if s not in (seat, phase.seat)]
        elif name == "color":
            acts += [Action.of(seat, "color", None, c) for c in COLORS]
        for exposed in fields["uno_exposed"]:
            # R-UNO-SELF: a late call; R-UNO-CATCH: anyone else may catch.
            acts.append(_UNO[exposed])
            for other in state.active_seats:
                if other != exposed:
                    acts.append(_CATCH[other][exposed])
        return acts

    # -- applying actions ---------------------------------------------------------------

    @hookimpl(trylast=True)
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        verb = action.verb
        if verb == "play":
            return _play(state, action, True)
        if verb == "draw":
            return _draw(state, action.seat)
        if verb == "pass":
            return _close_window(state, action.seat).pass_turn(1, action.seat)
        if verb == "uno":
            return _call_uno(state, action.seat)
        if verb == "catch":
            return _catch(state, action)
        if verb == "challenge":
            return _challenge(state, action.seat)
        if verb == "accept":
            phase = state.phase
            drawn, _ = _close_window(state, action.seat).draw(action.seat, phase.count, "penalty")
            return drawn.pass_turn(1, action.seat)
        if verb == "color":
            return state.replace(color=action.color, phase=PLAY)
        return None

    def direct_appliers(self, ruleset: Ruleset) -> Mapping[str, Applier]:
        # play, draw, pass, accept and challenge in one copy of the state
        # (Plugin.direct_appliers); the rule set keeps them only where
        # apply_action asks classic alone.
        # Other plugins' finishers (Plugin.direct_finishers) are taken in and
        # run on the fields of the state each applier makes.
        offered: dict[str, Applier] = {
            "play": _play_applier(ruleset.direct_finishers("play")),
            "pass": _pass_applier(ruleset.direct_finishers("pass")),
        }
        if not ruleset.watches_draws:  # on_draw is asked: draws take the general path
            offered["draw"] = _draw_applier(ruleset.direct_finishers("draw"))
            offered["accept"] = _draw_applier(ruleset.direct_finishers("accept"), accept=True)
            offered["challenge"] = _challenge_applier(ruleset.direct_finishers("challenge"))
        return offered

    @hookimpl(trylast=True)
    def on_play(self, state: GameState, action: Action, previous: GameState) -> GameState | None:
        seat = action.seat
        card = action.card
        assert card is not None
        kind = card.kind
        if not state.hands[seat]:
            # R-OUT; R-OUT-LAST-DRAW: the next player still draws, and it counts.
            if kind in ("+2", "W+4"):
                state, _ = state.draw(state.next_seat(seat), 2 if kind == "+2" else 4, "penalty")
            return state.end_round(seat, "out")
        if kind == "S":  # R-ACT-SKIP (R-2P: its player plays again)
            return state.pass_turn(2, seat)
        if kind == "R":  # R-ACT-REV (R-2P: acts as a Skip)
            flipped = state.replace(direction=-state.direction)
            return flipped.pass_turn(2 if len(state.active_seats) == 2 else 1, seat)
        if kind == "+2":  # R-ACT-D2
            penalty = _PENALTIES.get((card, seat)) or _penalty(card, seat)
            return state.replace(current_player=state.next_seat(seat), phase=penalty)
        if kind == "W+4":  # R-TURN-WD4, R-CHALLENGE
            name = "challenge" if state.ruleset.options["challenge"] else "penalty"
            return state.replace(
                current_player=state.next_seat(seat),
                phase=Phase(name, 4, card, seat, previous.color),
            )
        return state.pass_turn(1, seat)

    # -- explaining refusals ------------------------------------------------------------

    @hookimpl(trylast=True)
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        return _explain(state, action)

    # -- ending rounds and games --------------------------------------------------------

    @hookimpl(trylast=True)
    def score_round(self, state: GameState, result: RoundResult) -> Sequence[int]:
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
    def game_outcome(self, state: GameState) -> Outcome | None:
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


_TURN_DRAWS: dict[tuple[int, Card], Event] = {}
"""The event of each seat's one-card turn draw of each card (``draw_event``), by seat and card."""
_DRAWN_PHASES: dict[Card, Phase] = {}
"""The ``drawn`` phase of each card, shared (phases are frozen values, built once)."""
_PENALTIES: dict[tuple[Card, int], Phase] = {}
"""The ``penalty`` phase after each Draw Two card and seat, shared likewise."""


_OWN_KINDS = "classic.own-kinds"
"""``ruleset.cache`` key of :func:`_own_kinds` in every phase."""

_OWN_KINDS_BY_PHASE = "classic.own-kinds-by-phase"
"""``ruleset.cache`` key of :func:`_own_kinds_by_phase`."""


def _own_kinds_by_phase(ruleset: Ruleset) -> dict[str, frozenset[str]]:
    """The table :func:`_own_kinds` fills, by phase name (the phases of a rule
    set are declared, so it stays small)."""
    return {}


def _own_kinds(ruleset: Ruleset, phase: str | None = None) -> frozenset[str]:
    """The card kinds of the deck whose play in ``phase`` (``None``: in any
    phase) asks this plugin's ``on_play`` alone."""
    kinds = dict.fromkeys(card.kind for card in ruleset.deck)
    return frozenset(k for k in kinds if ruleset.play_claimants(k, phase) == (ClassicPlugin.name,))


def _penalty(card: Card, seat: int) -> Phase:
    """The shared ``penalty`` phase after ``seat`` played the Draw Two ``card``."""
    phase = _PENALTIES[card, seat] = Phase("penalty", 2, card, seat)
    return phase


def _drawn(card: Card) -> Phase:
    """The shared ``drawn`` phase of ``card``."""
    phase = _DRAWN_PHASES[card] = Phase("drawn", card=card, secret=True)
    return phase


# _NEW_STATE: the hot paths below read a state's fields from its ``__dict__``
# (an attribute of a state is a generic look-up: its dict is a key-sharing dict,
# which CPython 3.11's attribute specialisation does not handle) and build a
# state as GameState's own mechanics do
# (GameState.replace, pass_turn, draw): a copy of the state's ``__dict__`` (a
# frozen attrs class without slots, its fields its ``__dict__``, ``_legal`` the
# cache of legal actions, cleared), its fields stored one by one, and a new
# object given that dict. state.replace(**changes) would cost a keyword dict
# of the changes first: for the ten fields a play changes, about as much as
# the copy itself. tests/test_direct_appliers.py checks these states against
# the general path's.
_new = object.__new__
_set_dict: Callable[[GameState, dict[str, object]], None] = vars(GameState)["__dict__"].__set__
"""Sets a new state's ``__dict__``: the descriptor's own setter, without the
look-up of ``object.__setattr__(state, "__dict__", fields)``."""


def _next_seat(seat: int, direction: int, n: int, left: tuple[int, ...], steps: int) -> int:
    """The seat ``steps`` places after ``seat`` in ``direction`` among ``n``
    seats, skipping the seats that have ``left`` (``GameState.next_seat``)."""
    for _ in range(steps):
        seat = (seat + direction) % n
        while seat in left:
            seat = (seat + direction) % n
    return seat


_PLAY_TABLE = "classic: play actions by card"


def _play_table(state: GameState, key: tuple[str, int, int]) -> dict[Card, tuple[Action, ...]]:
    """The ``play`` actions of seat ``key[1]`` for each card of the deck, with
    ``key[2]`` seats and none left (``state.play_actions``), kept in the rule
    set's cache under ``key``. A card outside the deck (a plugin's own) is not
    in it."""
    _, seat, players = key
    assert players == len(state.hands)
    assert not state.left
    return state.ruleset.cached(
        key, lambda rules: {card: state.play_actions(seat, card) for card in dict.fromkeys(rules.deck)}
    )


def _close_window(state: GameState, seat: int) -> GameState:
    """A turn action by ``seat`` closes the UNO catch window (R-UNO-CATCH): the
    next player began their turn. After a Skip or Reverse with two players
    (R-2P) that next player is the exposed seat itself, and its window closes too."""
    if state.uno_exposed:
        return state.replace(uno_exposed=())
    return state


def _play_applier(finishers: tuple[Finisher, ...]) -> Callable[..., GameState | None]:
    """The function ``play(state, action, handed=False)`` running
    ``finishers`` (other plugins', in order) on the state it makes.

    It plays ``action``'s card in ``state``, the state handed to ``apply_action``
    (``handed``), or else as the direct applier of ``play`` (see
    :meth:`ClassicPlugin.direct_appliers`): ``state`` is the state *before*
    the action, the result also sets ``last_action`` and starts the events
    afresh, as the handed state has them, ``on_play`` gets as ``previous``
    a copy of the state before the action equal to the handed state, and
    ``finishers`` complete the fields of the result (``False`` from one:
    ``None``, the hook path)."""

    def play(state: GameState, action: Action, handed: bool = False) -> GameState | None:
        before = state
        seat = action.seat
        card = action.card
        assert card is not None
        old = state.__dict__  # the fields read from the state's dict (see _NEW_STATE)
        hands: tuple[tuple[Card, ...], ...] = old["hands"]
        hand = hands[seat]
        rest = list(hand)
        rest.remove(card)  # the first copy, as hand.index finds it
        new_hand = tuple(rest)
        declared: tuple[int, ...] = old["uno_declared"]
        # R-UNO-CALL: a seat left with one card that did not call is exposed to catches.
        exposed: tuple[int, ...] = () if len(new_hand) != 1 or seat in declared else (seat,)
        seats = list(hands)  # a list changed and made a tuple: cheaper than slices joined
        seats[seat] = new_hand
        hands = tuple(seats)
        discard = old["discard_pile"] + (card,)
        color = card.color if action.color is None else action.color
        if declared:
            declared = tuple(s for s in declared if s != seat)
        rules: Ruleset = old["ruleset"]
        kind = card.kind
        merged = False
        if new_hand:
            # Kinds whose play asks this plugin's on_play alone in every phase,
            # else in the phase of this play (Plugin.play_phases).
            own = rules.cache.get(_OWN_KINDS)
            if own is None:
                own = rules.cached(_OWN_KINDS, _own_kinds)
            if kind in own:
                merged = True
            else:
                owned = rules.cache.get(_OWN_KINDS_BY_PHASE)
                if owned is None:
                    owned = rules.cached(_OWN_KINDS_BY_PHASE, _own_kinds_by_phase)
                name = old["phase"].name
                own = owned.get(name)
                if own is None:
                    own = _own_kinds(rules, name)
                    if len(owned) < 1024:  # phases are declared: a bound for the unexpected
                        owned[name] = own
                merged = kind in own
            if merged:
                # Nobody but this plugin's on_play acts on this kind: its effect (the
                # same as on_play's below, for a hand that is not empty) in the same copy.
                n = len(hands)
                direction: int = old["direction"]
                phase = PLAY
                if kind == "S":  # R-ACT-SKIP (R-2P: its player plays again)
                    nxt = (seat + 2 * direction) % n
                elif kind == "R":  # R-ACT-REV (R-2P: acts as a Skip)
                    direction = -direction
                    nxt = (seat + (2 if n == 2 else 1) * direction) % n
                elif kind == "+2":  # R-ACT-D2
                    nxt = (seat + direction) % n
                    phase = _PENALTIES.get((card, seat)) or _penalty(card, seat)
                elif kind == "W+4":  # R-TURN-WD4, R-CHALLENGE
                    nxt = (seat + direction) % n
                    name = "challenge" if rules.options["challenge"] else "penalty"
                    phase = Phase(name, 4, card, seat, old["color"])
                else:
                    nxt = (seat + direction) % n
                left: tuple[int, ...] = old["left"]
                if left:  # seats have left (an elimination mode): on_play's pass_turn skips them
                    if kind == "S":
                        steps = 2
                    elif kind == "R":
                        steps = 2 if n - len(left) == 2 else 1
                    else:
                        steps = 1
                    nxt = _next_seat(seat, direction, n, left, steps)
        # One copy, its fields stored one by one (see _NEW_STATE).
        fields = old.copy()
        if merged:
            fields["direction"] = direction
            fields["current_player"] = nxt
            fields["phase"] = phase
        else:
            fields["current_player"] = seat
        fields["hands"] = hands
        fields["discard_pile"] = discard
        fields["color"] = color
        fields["uno_exposed"] = exposed
        fields["uno_declared"] = declared
        fields["stalled"] = 0
        if not handed:
            fields["last_action"] = action
            fields["events"] = ()
        fields["_legal"] = None
        if merged:
            for finish in finishers:
                if not finish(before, action, fields):
                    return None
        played: GameState = _new(GameState)
        _set_dict(played, fields)
        if merged:
            return played
        if not handed:
            # on_play's ``previous`` is the state handed to apply_action on the hook
            # path: the state before the action, with last_action set and no events.
            previous = old.copy()
            previous["last_action"] = action
            previous["events"] = ()
            previous["_legal"] = None
            state = _new(GameState)
            _set_dict(state, previous)
        # The card's effect: on_play, asking only the plugins that claim its kind (Plugin.play_kinds).
        result = rules.play_effect(played, action, state)
        if result is None:
            raise RuntimeError(f"no plugin applied the effect of {card}")
        if finishers:  # on a copy of what on_play returned
            fields = result.__dict__.copy()
            fields["_legal"] = None
            for finish in finishers:
                if not finish(before, action, fields):
                    return None
            result = _new(GameState)
            _set_dict(result, fields)
        return result

    return play


_play = _play_applier(())
"""Classic's play without finishers, for the hook path (``handed=True``) and classic alone."""


def _draw(state: GameState, seat: int) -> GameState:
    phase = state.phase
    if state.uno_exposed:  # R-UNO-CATCH: the turn action closes the window (_close_window, inlined)
        state = state.replace(uno_exposed=())
    if phase.name == "penalty":
        # R-ACT-D2 / R-TURN-WD4: draw and lose the turn; penalty cards are not
        # playable at once (a decision: penalty draws are not draws for the turn).
        if state.left:
            drawn, _ = state.draw(seat, phase.count, "penalty")
            return drawn.pass_turn(1, seat)
        next_seat = (seat + state.direction) % len(state.hands)
        drawn, _ = state.draw(seat, phase.count, "penalty", current_player=next_seat, phase=PLAY)
        return drawn
    pile = state.draw_pile
    if pile and not state.left and not state.ruleset.watches_draws:
        # The card to draw is known (no on_draw hook can change it): the draw
        # and what follows in one copy. A draw keeps the top card and the
        # colour, so whether the card is playable does not depend on the draw.
        card = pile[0]
        if is_playable(state, seat, card):
            # R-TURN-DRAW: a playable drawn card may be played at once, or kept.
            drawn_phase = _DRAWN_PHASES.get(card) or _drawn(card)
            after, _ = state.draw(seat, 1, "turn", phase=drawn_phase, stalled=0)
        else:
            next_seat = (seat + state.direction) % len(state.hands)
            after, _ = state.draw(seat, 1, "turn", current_player=next_seat, phase=PLAY, stalled=0)
        return after
    after, cards = state.draw(seat, 1, "turn")
    if cards:
        card = after.hands[seat][-1]
        if is_playable(after, seat, card):
            # R-TURN-DRAW: a playable drawn card may be played at once, or kept.
            drawn_phase = _DRAWN_PHASES.get(card) or _drawn(card)
            return after.replace(phase=drawn_phase, stalled=0)
        return after.pass_turn(1, seat, stalled=0)
    stalled = state.stalled + 1
    if stalled >= len(state.active_seats):
        # Section 13: nobody can play or draw: the round is blocked. The seat
        # with the fewest hand points wins it; ties go to the lowest seat.
        value = state.ruleset.hand_points
        winner = min(state.active_seats, key=lambda s: (value(state.hands[s]), s))
        return after.replace(stalled=stalled).end_round(winner, "blocked")
    return after.pass_turn(1, seat, stalled=stalled)


def _draw_applier(finishers: tuple[Finisher, ...], accept: bool = False) -> Applier:
    """The direct applier of ``draw`` running ``finishers`` (offered only where no plugin watches
    draws): :func:`_draw` in one copy of the state before the action (see
    _NEW_STATE), when the draw needs no reshuffle; else ``None``. With
    ``accept``, the applier of ``accept`` (a Wild Draw Four accepted: its
    penalty drawn, the turn lost, as ``apply_action`` does it).
    ``finishers``: as for :func:`_play_applier`."""

    def draw(state: GameState, action: Action) -> GameState | None:
        old = state.__dict__  # the fields read from the state's dict (see _NEW_STATE)
        rules: Ruleset = old["ruleset"]
        seat = action.seat
        left: tuple[int, ...] = old["left"]
        phase: Phase = old["phase"]
        pile: tuple[Card, ...] = old["draw_pile"]
        hands: tuple[tuple[Card, ...], ...] = old["hands"]
        if accept or phase.name == "penalty":
            # R-ACT-D2 / R-TURN-WD4 (R-CHALLENGE: accepted): draw and lose the turn.
            count = phase.count
            if count > len(pile):
                return None
            drawn = pile[:count]
            fields = old.copy()
            fields["draw_pile"] = pile[count:]
            fields["events"] = (draw_event(seat, drawn, "penalty"),)
            fields["current_player"] = (
                _next_seat(seat, old["direction"], len(hands), left, 1)
                if left
                else (seat + old["direction"]) % len(hands)
            )
            fields["phase"] = PLAY
        else:
            if not pile:
                return None
            drawn = pile[:1]
            card = pile[0]
            fields = old.copy()
            fields["draw_pile"] = pile[1:]
            event = _TURN_DRAWS.get((seat, card))
            if event is None:
                event = draw_event(seat, drawn, "turn")
                if len(_TURN_DRAWS) < 10_000:
                    _TURN_DRAWS[seat, card] = event
            fields["events"] = (event,)
            # is_playable, inlined (the draw keeps the top card and the colour).
            color = card.color
            if color is None:
                playable = card.kind != "W+4" or rules.options["challenge"] or is_playable(state, seat, card)
            else:
                playable = color is old["color"] or card.kind == old["discard_pile"][-1].kind
            if playable:
                # R-TURN-DRAW: a playable drawn card may be played at once, or kept.
                fields["phase"] = _DRAWN_PHASES.get(card) or _drawn(card)
            else:
                fields["current_player"] = (
                    _next_seat(seat, old["direction"], len(hands), left, 1)
                    if left
                    else (seat + old["direction"]) % len(hands)
                )
                fields["phase"] = PLAY
            fields["stalled"] = 0
        seats = list(hands)  # a list changed and made a tuple: cheaper than slices joined
        seats[seat] = hands[seat] + drawn
        fields["hands"] = tuple(seats)
        fields["uno_exposed"] = ()  # R-UNO-CATCH: the turn action closes the window
        fields["last_action"] = action
        fields["_legal"] = None
        for finish in finishers:
            if not finish(state, action, fields):
                return None
        after: GameState = _new(GameState)
        _set_dict(after, fields)
        return after

    return draw


def _pass_applier(finishers: tuple[Finisher, ...]) -> Applier:
    """The direct applier of ``pass``: the window closed and the turn passed in
    one copy of the state before the action (see _NEW_STATE). ``finishers``:
    as for :func:`_play_applier`."""

    def pass_(state: GameState, action: Action) -> GameState | None:
        seat = action.seat
        old = state.__dict__  # the fields read from the state's dict (see _NEW_STATE)
        left: tuple[int, ...] = old["left"]
        n = len(old["hands"])
        fields = old.copy()
        fields["current_player"] = (
            _next_seat(seat, old["direction"], n, left, 1) if left else (seat + old["direction"]) % n
        )
        fields["phase"] = PLAY
        fields["uno_exposed"] = ()  # R-UNO-CATCH: the turn action closes the window
        fields["last_action"] = action
        fields["events"] = ()
        fields["_legal"] = None
        for finish in finishers:
            if not finish(state, action, fields):
                return None
        after: GameState = _new(GameState)
        _set_dict(after, fields)
        return after

    return pass_


def _call_uno(state: GameState, seat: int) -> GameState:
    if seat in state.uno_exposed:  # R-UNO-SELF: a late call before being caught
        return state.replace(
            uno_exposed=tuple(s for s in state.uno_exposed if s != seat),
            events=state.events
            + (Event("uno", seat, (), "R-UNO-SELF", "late call", data=(("late", True),)),),
        )
    return state.replace(  # R-UNO-CALL, called before the next-to-last card is played
        uno_declared=state.uno_declared + (seat,),
        events=state.events + (Event("uno", seat, (), "R-UNO-CALL", data=(("late", False),)),),
    )


def _catch(state: GameState, action: Action) -> GameState:
    target = action.target
    assert target is not None
    penalty = state.ruleset.options["uno_penalty"]
    caught = Event(
        "caught", target, (), "R-UNO-CATCH", f"by seat {action.seat}", target=action.seat, count=penalty
    )
    state = state.replace(
        uno_exposed=tuple(s for s in state.uno_exposed if s != target),
        events=state.events + (caught,),
    )
    drawn, _ = state.draw(target, penalty, "penalty")
    return drawn


def _challenge(state: GameState, seat: int) -> GameState:
    # R-CHALLENGE: the Wild Draw Four's player shows their hand to the challenger.
    phase = state.phase
    bluffer = phase.seat
    victim = state.current_player
    assert bluffer is not None
    state = _close_window(state, victim)
    hand = state.hands[bluffer]
    guilty = any(c.color is phase.color for c in hand)
    shown = state.add_events(_challenge_event(seat, bluffer, hand, guilty, phase.count))
    if guilty:
        # The bluffer draws instead; the challenger takes the turn normally and
        # the named colour stands (a decision of this plugin).
        drawn, _ = shown.draw(bluffer, phase.count, "penalty")
        return drawn.replace(phase=PLAY)
    drawn, _ = shown.draw(seat, phase.count + 2, "penalty")
    if seat != victim:
        # challenger = anyone [LT]: a third seat's failed challenge costs it 6;
        # the Wild Draw Four stands and its victim draws and loses the turn.
        drawn, _ = drawn.draw(victim, phase.count, "penalty")
    return drawn.pass_turn(1, victim)


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


def _challenge_applier(finishers: tuple[Finisher, ...]) -> Applier:
    """The direct applier of ``challenge`` (offered only where no plugin
    watches draws): :func:`_challenge` in one copy of the state before the
    action (see _NEW_STATE), when its draws need no reshuffle; else ``None``.
    ``finishers``: as for :func:`_play_applier`."""

    def challenge(state: GameState, action: Action) -> GameState | None:
        old = state.__dict__  # the fields read from the state's dict (see _NEW_STATE)
        seat = action.seat
        phase: Phase = old["phase"]
        count = phase.count
        bluffer = phase.seat
        assert bluffer is not None
        victim: int = old["current_player"]
        pile: tuple[Card, ...] = old["draw_pile"]
        hands: tuple[tuple[Card, ...], ...] = old["hands"]
        hand = hands[bluffer]
        guilty = any(c.color is phase.color for c in hand)
        seats = list(hands)
        fields = old.copy()
        if guilty:
            # The bluffer draws instead; the challenger takes the turn (see _challenge).
            if count > len(pile):
                return None
            drawn = pile[:count]
            seats[bluffer] = hand + drawn
            fields["events"] = (
                _challenge_event(seat, bluffer, hand, guilty, count),
                draw_event(bluffer, drawn, "penalty"),
            )
            fields["draw_pile"] = pile[count:]
        else:
            cost = count + 2
            third = seat != victim  # challenger = anyone: the victim draws too
            if cost + (count if third else 0) > len(pile):
                return None
            drawn = pile[:cost]
            seats[seat] = hands[seat] + drawn
            events: tuple[Event, ...] = (
                _challenge_event(seat, bluffer, hand, guilty, count),
                draw_event(seat, drawn, "penalty"),
            )
            if third:
                more = pile[cost : cost + count]
                seats[victim] = hands[victim] + more
                events += (draw_event(victim, more, "penalty"),)
                cost += count
            fields["events"] = events
            fields["draw_pile"] = pile[cost:]
            left: tuple[int, ...] = old["left"]
            n = len(hands)
            direction: int = old["direction"]
            fields["current_player"] = (
                _next_seat(victim, direction, n, left, 1) if left else (victim + direction) % n
            )
        fields["hands"] = tuple(seats)
        fields["phase"] = PLAY
        fields["uno_exposed"] = ()  # R-UNO-CATCH: the turn action closes the window
        fields["last_action"] = action
        fields["_legal"] = None
        for finish in finishers:
            if not finish(state, action, fields):
                return None
        after: GameState = _new(GameState)
        _set_dict(after, fields)
        return after

    return challenge


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
        if card.kind == "W+4" and not is_playable(state, seat, card):
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
    if card.color is not None and not is_playable(state, seat, card):
        return (
            "R-TURN-MATCH",
            f"{card} matches neither the colour {state.color} nor the {state.top_card} by number or symbol",
        )
    return None


plugin = ClassicPlugin()
"""The plugin object the ``unorules`` entry point ``classic`` names."""

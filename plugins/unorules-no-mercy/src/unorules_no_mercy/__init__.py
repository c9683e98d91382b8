"""UNO Show 'Em No Mercy (Mattel 2023): the 168-card edition, played alone.

Enable it with ``Ruleset.from_names(["no-mercy"])``. It is a whole rule set of
its own, like ``classic``: it deals its own deck (R-NM-DECK), and its turn,
stacking, elimination and ending replace classic's, so it conflicts with
``classic`` (and with every house rule that builds on classic). Where a rule
of the edition is the rule a house-rule plugin plays, its mechanics are the
core's, which that plugin uses too: the 7 and the 0 move hands through
:meth:`Draft.trade_hands <unorules.Draft.trade_hands>` and
:meth:`Draft.pass_hands_on <unorules.Draft.pass_hands_on>` (R-NM-SEVEN-O =
R-SEVEN-O, whose rule id their ``hands-moved`` events carry), and a stack is
handed on through :meth:`Draft.grow_stack <unorules.Draft.grow_stack>` with
its ``stack`` event (R-NM-STACK grows a stack as R-STACK does, with its own
rule for which card may join; the event carries R-STACK).

Phases this plugin owns (``state.phase.name``):

* ``play``: the ordinary turn: play a matching card; without one, draw until
  a playable card comes (R-NM-TURN, R-NM-DRAW);
* ``drawn``: the playable card just drawn must be played now (R-NM-DRAW);
* ``stack``: a pending stack of ``phase.count`` cards, topped by
  ``phase.card`` laid by ``phase.seat``: stack a draw card on it, or draw the
  whole stack and lose the turn (R-NM-STACK);
* ``roulette``: hit by a Wild Colour Roulette: name the colour to turn cards
  up to (R-NM-ROULETTE).

Notation: the new kinds are ``+4`` (a coloured Draw Four, ``G+4``), ``SE``
(Skip Everyone, ``RSE``), ``DA`` (Discard All, ``BDA``) and the wilds ``WR+4``
(Wild Reverse Draw Four), ``W+6``, ``W+10`` and ``WCR`` (Wild Colour
Roulette). ``play W+10 B`` names the colour; ``play R7 2`` names the seat to
trade with; ``play WCR`` names none (its victim answers ``color G``). A stack
is answered with an ordinary ``play``; taking it is ``draw``.

.. rubric:: Options

* ``nm_deck`` (``fw``): the deck's breakdown (R-NM-DECK): ``fw``, the fan
  wiki's 168 (two 0s a colour, 8 Wild Reverse Draw Fours and 8 Roulettes),
  or ``om`` (one 0 a colour, three coloured Draw Fours and Skip Everyones a
  colour, 4 plain Wilds).
* ``nm_voluntary_draw`` (off): on, a seat holding a playable card may draw
  anyway, and is then bound by draw-until-playable (R-NM-TURN).
* ``nm_wrd4_in_stack`` (``reverse``): a Wild Reverse Draw Four laid on a
  stack reverses the direction too; ``no-reverse``: the stack goes on in the
  old direction (R-NM-WRD4).
* ``nm_roulette_namer`` (``victim``): the seat hit by a Wild Colour Roulette
  names the colour; ``player``: the player of the card does (R-NM-ROULETTE).
* ``nm_stack_rule`` (``ge-last``): any draw card of equal or higher value than
  the last one laid joins a stack; ``same-kind``: only the same card
  (R-NM-STACK).
* ``mercy_limit`` (25): the hand size that knocks a seat out; ``off`` (0): no
  Mercy rule (R-NM-MERCY).
* ``nm_uno_when_handed`` (``must-call``): a seat left holding one card by a
  7, a 0 or a Discard All must call UNO or be caught; ``exempt``: only a seat
  that plays down to one card must (R-NM-UNO).
* ``nm_end`` (``first-out``): the first seat to go out wins the hand;
  ``last-standing``: seats that go out leave it and play goes on until one
  seat still holds cards (R-NM-WIN).
* ``nm_scoring`` (``off``): one hand is the game; ``points``: the hand's
  winner scores the others' cards and 250 per seat knocked out, first to
  1000 wins (R-NM-SCORE).
* ``nm_2p_wrd4`` (``self``): with two seats in, a Wild Reverse Draw Four
  skips the other seat and makes its own player face the four, as the sheet
  says; ``other``: the other seat faces it, as after any draw card (a
  reading some players and simulators take) (R-NM-2P).

.. rubric:: Decisions

Where the sheet is silent this plugin does the following; each point has a
scenario test under ``tests/`` (named after its rule id).

* **Dealer** (R-NM-SETUP): as classic, each seat draws a card and the
  highest number deals, symbols counting 0, ties drawing again; the next
  hand's dealer is the seat after.
* **A draw card and a plain number**: a coloured Draw Four matches its colour
  or another coloured Draw Four, never a Wild Reverse Draw Four
  (R-NM-ACT); a Draw Two likewise.
* **Draw until playable** (R-NM-DRAW): one ``draw`` takes cards one at a time
  until one can be played, which the seat then must play (phase ``drawn``);
  if both piles run out first, the turn passes. A seat with nothing to draw
  and nothing to play passes; when every seat still in has done so in turn,
  the hand is blocked and the fewest hand points win it (as classic).
* **A stack** (R-NM-STACK): one card per turn; the stacked card's colour (or
  the colour named) stands after the stack is drawn. A Skip, Reverse, Skip
  Everyone, Discard All, number or Roulette never answers a stack.
* **Wild Reverse Draw Four** (R-NM-WRD4, R-NM-2P): the direction reverses
  first, then the next seat in the new direction faces the four; with two
  seats in, that is its own player, who may stack back.
* **Roulette** (R-NM-ROULETTE): the cards turned up are public (a
  ``roulette`` event); a knockout stops the turning; the named colour stands.
* **The Mercy rule** (R-NM-MERCY): checked after every card that enters a
  hand (a draw, a stack, a roulette, an UNO penalty); a hand moved by a 7 or
  a 0 never reaches it (each hand held fewer cards before). The seat leaves
  the hand; its cards go to the bottom of the discard pile (the sheet sets
  them aside until the next reshuffle, which is where the bottom of the
  discard pile goes); whatever it was drawing stops and play passes to the
  next seat still in after it. The last seat standing wins the hand.
* **Discard All** (R-NM-DA): the other cards of its colour go under it (the
  Discard All stays on top, the colour is its own); wilds stay in the hand.
  Emptying the hand this way wins.
* **Going out** (R-NM-WIN): the last card's effect does not happen. With
  ``nm_end=last-standing`` the seat leaves the hand instead, the card's
  effect still reaches the seats left (but a last 7 trades nothing), and the
  hand's winner is the first seat that went out (or, if every other seat was
  knocked out, the seat left); combining it with ``nm_scoring=points`` is
  refused, as the sheet scores the hands left when the first seat goes out.
* **UNO** (R-NM-UNO): as classic's R-UNO-CALL, R-UNO-CATCH and R-UNO-SELF
  with a penalty of 2; a seat may call on its turn holding two cards, or
  holding a Discard All that would leave it one card. Under ``must-call`` a
  seat handed one card by a 7 or a 0 is open to a catch until the next turn
  action, like one that played down to one card without calling.
* **The opening card** (R-NM-STARTER): every action card (wilds included)
  turned up is buried by the next card, until a number comes; a buried or
  opening 7 or 0 moves no hands.
* **Points** (R-NM-SCORE): only the hand's winner scores; the next hand is
  dealt to every seat again (the knocked-out ones rejoin).

.. rubric:: Interactions

``classic`` and every house rule that requires it
    Refused: this edition replaces classic's deck, turn and ending.
``stacking``, ``seven-o``
    Refused: the edition carries its own stacking and 7-0 (played with their
    mechanics, see above).
``partners``, ``elimination``
    Refused: not defined with the Mercy rule's knockouts.
``flip``
    Refused: another edition, with another deck.

Matching, UNO calls and catch windows, going out (its ``going_out`` hook plays
``nm_end``), blocked hands and scoring are the core's shared questions
(:mod:`unorules.scoring`), so a house rule that answers them is obeyed by No
Mercy too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from unorules import (
    COLORS,
    MAX_PLAYERS,
    PLAY,
    Action,
    Card,
    CardLook,
    Color,
    Display,
    Draft,
    Event,
    EventSpec,
    ExtraSpec,
    GameState,
    GoingOut,
    Option,
    Outcome,
    Phase,
    PhaseSpec,
    Plugin,
    Rng,
    RoundResult,
    Ruleset,
    RulesetError,
    StateFormatError,
    TestHints,
    hookimpl,
    one_of,
    switch,
)
from unorules.markers import active_when
from unorules.scoring import draw_for_dealer, target_outcome, winner_takes_all
from unorules.validate import require
from unorules_no_mercy.cards import DRAW_VALUES, deck, may_stack
from unorules_no_mercy.explain import explain

__all__ = [
    "DRAW_VALUES",
    "NoMercyPlugin",
    "deck",
    "may_stack",
    "plugin",
]

TARGET_SCORE = 1000
"""The score that wins a game played for points (R-NM-SCORE)."""

KNOCKOUT_POINTS = 250
"""What each seat knocked out during a hand is worth to the hand's winner (R-NM-SCORE)."""

UNO_PENALTY = 2
"""Cards drawn by a seat caught without calling UNO (R-NM-UNO)."""


_GOES_ON = GoingOut(ends=False)
"""The answer to ``going_out`` under ``nm_end=last-standing``: the seat left, the hand goes on."""
_EXTRA_OUT = "no-mercy.out"
_EXTRA_KNOCKED = "no-mercy.knocked"


def _number(card: Card) -> int:
    """A card's number for the dealer draw: symbols count 0 (R-NM-SETUP)."""
    return card.number or 0


def _mercy_limit(value: Any) -> int:
    """The check of ``mercy_limit``: 0 (``off``) or a hand size from 8 to 168."""
    if isinstance(value, str) and value.strip().lower() == "off":
        return 0
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not (value == 0 or 8 <= value <= 168):
        raise ValueError(f"{value!r} is not 0 (off) or a hand size from 8 to 168")
    return value


def _act(seat: int, verb: str, target: int | None = None) -> Action:
    return Action.of(seat, verb, None, None, target)


_SEATS = range(MAX_PLAYERS)
_DRAW = tuple(_act(s, "draw") for s in _SEATS)
_UNO = tuple(_act(s, "uno") for s in _SEATS)


_PLACES = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def _out_text(event: Event) -> str:
    """How going out reads with ``nm_end=last-standing`` (R-NM-WIN): the place."""
    place = event.value("place")
    if isinstance(place, int) and place in _PLACES:
        return "{seat} went out " + _PLACES[place]
    return "{seat} went out, in place {data[place]}"


class NoMercyPlugin(Plugin):
    """UNO Show 'Em No Mercy: 168 cards, draw until playable, stacking by value, the Mercy rule."""

    name = "no-mercy"
    api_version = 2
    conflicts: ClassVar[Mapping[str, str]] = {
        "classic": "no-mercy is a whole edition: its deck, turn, stacking and ending replace classic's",
        "flip": "two editions with their own decks cannot be played as one",
        "stacking": "no-mercy carries its own stacking (R-NM-STACK), by value across colours",
        "seven-o": "no-mercy carries its own mandatory 7-0 (R-NM-SEVEN-O)",
        "partners": "partners are not defined with the Mercy rule's knockouts (R-NM-MERCY)",
        "elimination": "elimination by points is not defined with the Mercy rule's knockouts (R-NM-MERCY)",
    }
    rules = (
        "R-NM-DECK",
        "R-NM-SETUP",
        "R-NM-STARTER",
        "R-NM-TURN",
        "R-NM-DRAW",
        "R-NM-WILD",
        "R-NM-ACT",
        "R-NM-SE",
        "R-NM-DA",
        "R-NM-WD",
        "R-NM-WRD4",
        "R-NM-ROULETTE",
        "R-NM-STACK",
        "R-NM-SEVEN-O",
        "R-NM-MERCY",
        "R-NM-UNO",
        "R-NM-WIN",
        "R-NM-SCORE",
        "R-NM-2P",
        "R-NM-RESHUFFLE",
    )
    verbs: ClassVar[Mapping[str, str]] = {
        "play": "turn",
        "draw": "turn",
        "uno": "any",
        "catch": "any",
        "color": "turn",
    }
    phases = (
        PhaseSpec(
            "play", "the ordinary turn: play a matching card, or draw until one is playable (R-NM-TURN)"
        ),
        PhaseSpec("drawn", "the playable card just drawn must be played now (R-NM-DRAW)"),
        PhaseSpec(
            "stack",
            "answer the stack: stack a draw card of equal or higher value, or draw it all and lose the "
            "turn (R-NM-STACK)",
        ),
        PhaseSpec(
            "roulette", "hit by a Wild Colour Roulette: name the colour to turn cards up to (R-NM-ROULETTE)"
        ),
    )
    events = (
        EventSpec(
            "starter-buried",
            "action cards turned up to start were buried by the next card until a number came (R-NM-STARTER)",
            (("cards", "the cards buried, then the number card that starts"),),
            "the cards turned up to start were buried until a number came: {cards}",
        ),
        EventSpec(
            "discard-all",
            "a Discard All took every other card of its colour from its player's hand, under it (R-NM-DA)",
            (("seat", "the player"), ("cards", "the cards discarded under it"), ("count", "how many")),
            "{seat:'s} Discard All took {cards} with it",
        ),
        EventSpec(
            "roulette",
            "cards turned up from the draw pile until one of the colour named, and taken (R-NM-ROULETTE)",
            (
                ("seat", "the seat hit, which takes the cards"),
                ("cards", "the cards turned up (public)"),
                ("count", "how many"),
                ("color", "the colour named"),
            ),
            "{seat} turned {cards} face up, looking for {color}, and took them",
            reveals=True,  # R-NM-ROULETTE: the cards are turned face up for the table
        ),
        EventSpec(
            "mercy",
            "a seat holding the Mercy limit of cards or more is out of the hand; its cards go to the bottom "
            "of "
            "the discard pile (R-NM-MERCY)",
            (("seat", "the seat knocked out"), ("count", "the cards it held"), ("data.limit", "the limit")),
            "{seat} held {count:card}, {data[limit]} or more, and {seat:was} knocked out of the hand",
        ),
        EventSpec(
            "out",
            "with nm_end=last-standing, a seat played its last card and left the hand (R-NM-WIN)",
            (("seat", "the seat that went out"), ("data.place", "its place, from 1")),
            _out_text,
        ),
    )
    extras = (
        ExtraSpec(
            _EXTRA_KNOCKED, "the seats knocked out during this hand, in order (R-NM-MERCY)", public=True
        ),
        ExtraSpec(
            _EXTRA_OUT, "nm_end=last-standing: the seats that went out, in order (R-NM-WIN)", public=True
        ),
    )
    options = (
        Option(
            "nm_deck",
            "fw",
            "the deck's breakdown: the fan wiki's [NM-FW] or open-mercy's [NM-OM] (R-NM-DECK)",
            one_of("fw", "om"),
            "fw, om",
        ),
        Option(
            "nm_voluntary_draw",
            False,
            "a seat with a playable card may draw anyway, bound by draw-until-playable (R-NM-TURN)",
            switch,
            "on, off",
        ),
        Option(
            "nm_wrd4_in_stack",
            "reverse",
            "a Wild Reverse Draw Four laid on a stack reverses the direction too, or not (R-NM-WRD4)",
            one_of("reverse", "no-reverse"),
            "reverse, no-reverse",
        ),
        Option(
            "nm_roulette_namer",
            "victim",
            "who names a Wild Colour Roulette's colour: the seat hit or the card's player (R-NM-ROULETTE)",
            one_of("victim", "player"),
            "victim, player",
        ),
        Option(
            "nm_stack_rule",
            "ge-last",
            "which draw card joins a stack: equal or higher value than the last, or the same (R-NM-STACK)",
            one_of("ge-last", "same-kind"),
            "ge-last, same-kind",
        ),
        Option(
            "mercy_limit",
            25,
            "the hand size that knocks a seat out of the hand; 0 or off: no Mercy rule (R-NM-MERCY)",
            _mercy_limit,
            "off (0) or 8 to 168",
        ),
        Option(
            "nm_uno_when_handed",
            "must-call",
            "a seat left one card by a 7, a 0 or a Discard All must call UNO, or is exempt (R-NM-UNO)",
            one_of("must-call", "exempt"),
            "must-call, exempt",
        ),
        Option(
            "nm_end",
            "first-out",
            "the first seat out wins, or play goes on until one seat holds cards (R-NM-WIN)",
            one_of("first-out", "last-standing"),
            "first-out, last-standing",
        ),
        Option(
            "nm_scoring",
            "off",
            "one hand is the game, or hands are scored until a seat has 1000 points (R-NM-SCORE)",
            one_of("off", "points"),
            "off, points",
        ),
        Option(
            "nm_2p_wrd4",
            "self",
            "heads-up, a Wild Reverse Draw Four makes its own player face it, or the other (R-NM-2P)",
            one_of("self", "other"),
            "self, other",
        ),
    )
    testing = TestHints(
        round_length_factor=2.0,
        option_values={"mercy_limit": (25, 12, 40)},
        uno_exempt_when=(("nm_uno_when_handed", "exempt"),),  # R-NM-UNO: a Discard All's discards
        uno_handed_when=(("nm_uno_when_handed", "must-call"),),  # R-NM-UNO: one card handed by a 7 or 0
    )

    # -- building ---------------------------------------------------------------

    @hookimpl
    def display(self, ruleset: Ruleset) -> Display:
        # how the edition's own kinds of card look at a table
        return Display(
            cards=(
                CardLook("+4", symbol="+4", label="Draw 4"),
                CardLook("SE", symbol="⊘⊘", label="Skip all"),
                CardLook("DA", symbol="≡", label="Discard all"),
                CardLook("WR+4", symbol="⇄4", label="Wild"),
                CardLook("W+6", symbol="+6", label="Wild"),
                CardLook("W+10", symbol="+10", label="Wild"),
                CardLook("WCR", symbol="◎", label="Roulette"),
            )
        )

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return deck(ruleset.options["nm_deck"])  # R-NM-DECK

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        # R-NM-SCORE: numbers their value, coloured actions 20, wilds 50.
        number = card.number
        if number is not None:
            return number
        return 50 if card.color is None else 20

    @hookimpl
    def card_needs_target(self, ruleset: Ruleset, card: Card) -> bool | None:
        return True if card.kind == "7" else None  # R-NM-SEVEN-O: a 7 names the seat to trade with

    @hookimpl
    def card_names_color(self, ruleset: Ruleset, card: Card) -> bool | None:
        # R-NM-ROULETTE: the seat hit by a Wild Colour Roulette names its colour ("play WCR").
        if card.kind == "WCR" and ruleset.options["nm_roulette_namer"] == "victim":
            return False
        return None

    @hookimpl
    def hand_size(self, ruleset: Ruleset) -> int:
        return 7  # R-NM-SETUP

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        options = ruleset.options
        if options["nm_end"] == "last-standing" and options["nm_scoring"] == "points":
            raise RulesetError(
                "nm_end=last-standing cannot be scored with nm_scoring=points: R-NM-SCORE counts the hands "
                "left when the first seat goes out, and play going on until one seat is left leaves nothing "
                "to count but that seat's hand; choose one of them"
            )

    @hookimpl
    def check_game(self, ruleset: Ruleset, players: int) -> None:
        if players > 6:
            raise RulesetError(f"no-mercy is played by 2 to 6 players (R-NM-SETUP), not {players}")

    # -- dealing ----------------------------------------------------------------

    @hookimpl
    def choose_dealer(self, ruleset: Ruleset, players: int, rng: Rng) -> int:
        # R-NM-SETUP (resolution: as R-SETUP-DEALER): the highest number deals,
        # symbols count as zero; tied seats draw again.
        return draw_for_dealer(ruleset, players, rng, _number)

    @hookimpl
    def on_starter(self, draft: Draft) -> bool:
        # R-NM-STARTER: action cards (wilds included) are buried by the next card
        # until a number card comes; nothing buried or turned has an effect.
        buried: list[Card] = []
        while draft.top_card.number is None and draft.draw_pile:
            buried.append(draft.top_card)
            draft.put_on_discard_pile(draft.take_from_draw_pile(1))
        if buried:
            draft.add_event(Event("starter-buried", None, (*buried, draft.top_card), "R-NM-STARTER"))
        draft.set_extra(_EXTRA_KNOCKED, None)
        draft.set_extra(_EXTRA_OUT, None)
        return True

    @hookimpl
    @active_when(lambda ruleset: bool(ruleset.options["mercy_limit"]) and len(ruleset.names) > 1)
    def after_action(self, draft: Draft, action: Action, before: GameState) -> None:
        # R-NM-MERCY for the cards another plugin's rule makes a seat draw (penalties'
        # coaching penalty): this plugin's own draws check every card (_take).
        limit = draft.ruleset.options["mercy_limit"]
        for seat in draft.active_seats:
            if draft.outcome is not None:
                return
            if len(draft.hands[seat]) < limit:
                continue
            if not _knock_out(draft, seat) and draft.current_player == seat:
                draft.pass_turn(1, seat)

    # -- checking states read from outside ----------------------------------------

    @hookimpl
    def check_state(self, state: GameState) -> None:
        _check_state(state)

    # -- legal actions ----------------------------------------------------------------

    @hookimpl
    def legal_actions(self, state: GameState) -> list[Action]:
        seat = state.current_player
        phase = state.phase
        name = phase.name
        hand = state.hands[seat]
        acts: list[Action] = []
        options = state.ruleset.options
        if name == "play":
            # R-NM-WILD, R-NM-ACT: the core's matching (a wild always; the colour or the kind).
            playable = [c for c in dict.fromkeys(hand) if state.matches(seat, c)]
            for card in playable:
                acts += _plays(state, seat, card)
            if not playable or options["nm_voluntary_draw"]:
                acts.append(_DRAW[seat])  # R-NM-TURN, R-NM-DRAW
            if _may_call(state, seat, playable):
                acts.append(_UNO[seat])
        elif name == "drawn":
            drawn = phase.card
            assert drawn is not None
            acts += _plays(state, seat, drawn)  # R-NM-DRAW: play it at once
            if state.may_call_uno(seat):
                acts.append(_UNO[seat])
        elif name == "stack":
            on = phase.card
            assert on is not None
            stackable = [c for c in dict.fromkeys(hand) if may_stack(state, c, on)]
            for card in stackable:
                acts += state.play_actions(seat, card)
            acts.append(_DRAW[seat])
            if stackable and state.may_call_uno(seat):
                acts.append(_UNO[seat])
        elif name == "roulette":
            acts += [Action.of(seat, "color", None, c) for c in COLORS]
        if state.uno_exposed:
            acts += state.uno_window_actions()  # R-UNO-SELF, R-UNO-CATCH (R-NM-UNO)
        return acts

    # -- applying actions ---------------------------------------------------------------

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        verb = action.verb
        seat = action.seat
        if verb == "play":
            draft.play(action)
        elif verb == "draw":
            draft.end_exposure()  # R-UNO-CATCH: a turn action closes the window
            if draft.phase.name == "stack":
                _take_stack(draft, seat)
            else:
                _draw_until_playable(draft, seat)
        elif verb == "color":
            draft.end_exposure()
            _roulette(draft, seat, action.color)
        elif verb == "uno":
            draft.call_uno(seat)  # R-UNO-CALL, or late (R-UNO-SELF)
        elif verb == "catch":
            _catch(draft, action)
        else:
            return None
        return True

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool:
        _effect(draft, action, previous)
        return True

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        return explain(state, action)  # unorules_no_mercy.explain

    # -- ending hands and games -----------------------------------------------------------

    @hookimpl
    def going_out(self, draft: Draft, seat: int) -> GoingOut | None:
        # R-NM-WIN: the first seat out wins the hand (the core's answer), or with
        # nm_end=last-standing it leaves the hand and play goes on.
        if draft.ruleset.options["nm_end"] == "last-standing":
            return _go_out(draft, seat)
        return None

    @hookimpl
    def score_round(self, draft: Draft, result: RoundResult) -> Sequence[int]:
        winner = result.winner
        if draft.ruleset.options["nm_scoring"] != "points" or winner is None:
            return [0] * draft.players
        # R-NM-SCORE: the winner scores the cards left in the other hands, and
        # 250 for each seat knocked out during the hand (its cards not counted).
        points = winner_takes_all(draft, winner)
        points[winner] += KNOCKOUT_POINTS * len(draft.extra(_EXTRA_KNOCKED) or ())
        return points

    @hookimpl
    def on_round_end(self, draft: Draft, result: RoundResult) -> None:
        if draft.ruleset.options["nm_scoring"] == "points" and max(draft.scores) < TARGET_SCORE:
            # R-NM-SCORE: every seat is dealt the next hand again.
            draft.rejoin(draft.left)

    @hookimpl
    def game_outcome(self, draft: Draft) -> Outcome | None:
        last = draft.rounds[-1]
        if draft.ruleset.options["nm_scoring"] != "points":
            # One hand is the game (R-NM-WIN); a blocked hand's winner has the fewest points.
            winner = last.winner if last.winner is not None else 0
            return Outcome((winner,), last.reason)
        # R-NM-SCORE: the first to 1000 (only a hand's winner scores: the seat that reached it).
        return target_outcome(draft, TARGET_SCORE)


# -- the effects of cards -------------------------------------------------------------------


def _plays(state: GameState, seat: int, card: Card) -> list[Action]:
    """The ``play`` actions of ``seat`` for ``card``: one per colour for a wild
    (none for a Roulette whose victim names the colour, ``card_names_color``),
    one per seat for a 7."""
    return list(state.play_actions(seat, card))


def _may_call(state: GameState, seat: int, playable: list[Card]) -> bool:
    """Whether ``seat`` may call UNO on its turn: as the core says
    (:meth:`~unorules.Position.may_call_uno`: holding two cards), or (R-NM-UNO,
    ``must-call``) holding a playable Discard All that would leave it one card."""
    if state.may_call_uno(seat, bool(playable)):
        return True
    hand = state.hands[seat]
    if (
        len(hand) == 2
        or seat in state.uno_declared
        or state.ruleset.uno_call not in ("two-cards", "playable")
        or state.ruleset.options["nm_uno_when_handed"] != "must-call"
    ):
        return False
    return any(
        card.kind == "DA" and len(hand) - sum(1 for c in hand if c.color is card.color) == 1
        for card in playable
    )


def _effect(draft: Draft, action: Action, previous: GameState) -> None:
    seat = action.seat
    card = action.card
    assert card is not None
    kind = card.kind
    options = draft.ruleset.options
    in_stack = previous.phase.name == "stack"
    out = draft.going_out(seat)  # its last card (asked by the core: going_out, R-NM-WIN)
    if out is not None:
        if out.ends:
            return  # R-NM-WIN: the last card wins at once; its effect does not happen
        if _one_left(draft):  # nm_end=last-standing: the seat left the hand
            return
        if kind in ("7", "SE", "DA"):  # a last 7 trades nothing; the player is out
            draft.pass_turn(1, seat)
            return
    if kind in DRAW_VALUES:
        _stack(draft, action, previous, in_stack)
    elif kind == "7":
        target = action.target
        assert target is not None
        if seat in draft.left:
            draft.pass_turn(1, seat)
            return
        # R-NM-SEVEN-O: the core's trade (its event carries R-SEVEN-O). Hands move
        # whole, so none reaches the Mercy limit by moving (each held fewer cards before).
        draft.trade_hands(seat, target)
        _handed(draft, (seat, target))
        draft.pass_turn(1, seat)
    elif kind == "0":
        draft.pass_hands_on(seat)  # R-NM-SEVEN-O (R-SEVEN-O's event)
        _handed(draft, draft.active_seats)
        draft.pass_turn(1, seat)
    elif kind == "S":
        draft.pass_turn(2, seat)  # R-ACT-SKIP (R-NM-2P: its player plays again)
    elif kind == "R":
        draft.direction = -draft.direction  # R-ACT-REV (R-NM-2P: acts as a Skip)
        draft.pass_turn(2 if len(draft.active_seats) == 2 else 1, seat)
    elif kind == "SE":
        draft.current_player = seat  # R-NM-SE: its player takes another full turn
        draft.phase = PLAY
    elif kind == "DA":
        _discard_all(draft, seat, card, previous)
    elif kind == "WCR":
        victim = draft.next_seat(seat)
        draft.current_player = victim
        if options["nm_roulette_namer"] == "victim":
            draft.phase = Phase("roulette", card=card, seat=seat)  # R-NM-ROULETTE
        else:
            _reveal(draft, victim, action.color)
    else:  # a number, a plain Wild (nm_deck=om)
        draft.pass_turn(1, seat)


def _stack(draft: Draft, action: Action, previous: GameState, in_stack: bool) -> None:
    """A draw card: a stack starts or grows (R-NM-ACT, R-NM-WD, R-NM-WRD4, R-NM-STACK)."""
    seat = action.seat
    card = action.card
    assert card is not None
    count = DRAW_VALUES[card.kind] + (previous.phase.count if in_stack else 0)
    if card.kind == "WR+4" and not (in_stack and draft.ruleset.options["nm_wrd4_in_stack"] == "no-reverse"):
        draft.direction = -draft.direction  # R-NM-WRD4: the direction reverses first
        # R-NM-2P: with two seats in, it skips the other seat: its own player faces the stack
        # (nm_2p_wrd4=other: the other seat faces it, as after any draw card).
        heads_up = len(draft.active_seats) == 2 and draft.ruleset.options["nm_2p_wrd4"] == "self"
        victim = draft.next_seat(seat, 2 if heads_up else 1)
    else:
        victim = draft.next_seat(seat)
    if in_stack:
        draft.grow_stack(seat, card, count, victim, "stack")  # R-NM-STACK: the core's stack (R-STACK)
    else:
        draft.current_player = victim
        draft.phase = Phase("stack", count, card, seat)


def _discard_all(draft: Draft, seat: int, card: Card, previous: GameState) -> None:
    """R-NM-DA: every other card of the Discard All's colour goes under it."""
    same = [c for c in draft.hands[seat] if c.color is card.color]
    if same:
        draft.discard_under(seat, same)
        draft.add_event(Event("discard-all", seat, tuple(same), "R-NM-DA", count=len(same)))
        called = seat in previous.uno_declared
        if called or draft.ruleset.options["nm_uno_when_handed"] == "exempt":
            draft.end_exposure((seat,))  # called before it, or exempt (R-NM-UNO)
    # R-NM-DA: emptying the hand this way goes out (R-NM-WIN), as a last card does.
    if not draft.hands[seat] and (draft.went_out(seat).ends or _one_left(draft)):
        return
    draft.pass_turn(1, seat)


def _handed(draft: Draft, seats: Iterable[int]) -> None:
    """R-NM-UNO, ``must-call``: a seat handed one card must call UNO, or may be caught."""
    if draft.ruleset.options["nm_uno_when_handed"] == "must-call":
        draft.expose_uno(s for s in seats if s not in draft.left)


_IN, _OUT, _ENDED = "in", "out", "ended"
"""What became of a seat drawing cards: still in the hand, knocked out of it
(R-NM-MERCY), or knocked out and the hand over (one seat left)."""


def _take(draft: Draft, seat: int, count: int, reason: str) -> str:
    """``seat`` draws ``count`` cards one at a time, each checked by the Mercy
    rule (R-NM-MERCY): a knockout stops the draw. Returns :data:`_IN`,
    :data:`_OUT` or :data:`_ENDED`."""
    limit = draft.ruleset.options["mercy_limit"]
    for _ in range(count):
        if not draft.draw(seat, 1, reason):
            break  # both piles are empty (R-NM-RESHUFFLE)
        if limit and len(draft.hands[seat]) >= limit:
            return _ENDED if _knock_out(draft, seat) else _OUT
    return _IN


def _knock_out(draft: Draft, seat: int) -> bool:
    """R-NM-MERCY: ``seat`` is out of the hand; its cards go to the bottom of
    the discard pile. True when one seat is left, which wins the hand."""
    hand = draft.hands[seat]
    color = draft.color
    draft.set_hands({seat: ()})
    pile = draft.take_from_discard_pile(len(draft.discard_pile))
    draft.put_on_discard_pile(hand + pile)
    draft.color = color  # the top card and its colour stay
    draft.leave([seat])
    knocked = draft.extra(_EXTRA_KNOCKED) or ()
    draft.set_extra(_EXTRA_KNOCKED, (*knocked, seat))
    limit = draft.ruleset.options["mercy_limit"]
    draft.add_event(Event("mercy", seat, (), "R-NM-MERCY", count=len(hand), data=(("limit", limit),)))
    return _one_left(draft)


def _go_out(draft: Draft, seat: int) -> GoingOut:
    """``nm_end=last-standing``: ``seat``, holding no cards, leaves the hand and
    play goes on (R-NM-WIN); the card's effect then ends the hand if one seat is
    left (:func:`_one_left`)."""
    draft.leave([seat])
    out = draft.extra(_EXTRA_OUT) or ()
    draft.set_extra(_EXTRA_OUT, (*out, seat))
    draft.add_event(Event("out", seat, (), "R-NM-WIN", data=(("place", len(out) + 1),)))
    return _GOES_ON


def _one_left(draft: Draft) -> bool:
    """End the hand if at most one seat is still in it: the first seat that
    went out wins it (``last-standing``), else the last seat standing
    (R-NM-WIN, R-NM-MERCY). True when the hand ended."""
    active = draft.active_seats
    if len(active) > 1:
        return False
    out = draft.extra(_EXTRA_OUT) or ()
    winner = out[0] if out else active[0]
    draft.end_round(winner, "last-standing")
    return True


def _draw_until_playable(draft: Draft, seat: int) -> None:
    """R-NM-DRAW: draw one card at a time until a playable one, which must be
    played at once (phase ``drawn``); the Mercy rule checks every card."""
    limit = draft.ruleset.options["mercy_limit"]
    drew = False
    while True:
        got = draft.draw(seat, 1, "turn")
        if not got:
            break  # both piles are empty
        drew = True
        card = got[0]
        if limit and len(draft.hands[seat]) >= limit:
            if not _knock_out(draft, seat):
                draft.pass_turn(1, seat)  # R-NM-MERCY: play passes to the next seat still in
            return
        if draft.matches(seat, card):
            draft.stalled = 0
            draft.phase = Phase("drawn", card=card, secret=True)
            return
    if drew:
        draft.stalled = 0
        draft.pass_turn(1, seat)
        return
    draft.stall(seat)  # R-NM-RESHUFFLE: nothing to draw; all in turn: blocked (blocked_round)


def _take_stack(draft: Draft, seat: int) -> None:
    """R-NM-STACK: the seat that cannot or will not stack draws the whole stack
    and loses the turn (a knockout cancels the rest, R-NM-MERCY)."""
    if _take(draft, seat, draft.phase.count, "penalty") != _ENDED:
        draft.pass_turn(1, seat)  # also past a seat knocked out: the next seat still in


def _roulette(draft: Draft, seat: int, color: Color | None) -> None:
    assert color is not None
    _reveal(draft, seat, color)


def _reveal(draft: Draft, victim: int, color: Color | None) -> None:
    """R-NM-ROULETTE: ``victim`` turns cards up until one of ``color`` (wilds
    never count) and takes them all; the colour named stands; the turn is lost.
    A knockout stops the turning (R-NM-MERCY)."""
    assert color is not None
    draft.color = color
    turned: list[Card] = []
    limit = draft.ruleset.options["mercy_limit"]
    knocked = False
    while True:
        got = draft.draw(victim, 1, "roulette")
        if not got:
            break
        turned += got
        if limit and len(draft.hands[victim]) >= limit:
            knocked = True
            break
        if got[0].color is color:
            break
    draft.add_event(Event("roulette", victim, tuple(turned), "R-NM-ROULETTE", count=len(turned), color=color))
    if knocked and _knock_out(draft, victim):
        return
    draft.pass_turn(1, victim)


# -- UNO ----------------------------------------------------------------------------------


def _catch(draft: Draft, action: Action) -> None:
    target = action.target
    assert target is not None
    draft.end_exposure((target,))
    draft.add_event(
        Event(
            "caught",
            target,
            (),
            "R-NM-UNO",
            f"by seat {action.seat}",
            target=action.seat,
            count=UNO_PENALTY,
        )
    )
    if _take(draft, target, UNO_PENALTY, "penalty") == _OUT and draft.current_player == target:
        draft.pass_turn(1, target)  # R-NM-MERCY: the seat to move was knocked out


# -- checking and explaining -----------------------------------------------------------------


def _check_state(state: GameState) -> None:
    """The phases and extras of this plugin carry what their handlers need."""
    for key in (_EXTRA_KNOCKED, _EXTRA_OUT):
        value = state.extra(key)
        if value is not None:
            require(
                isinstance(value, tuple)
                and all(isinstance(s, int) and not isinstance(s, bool) and s in state.left for s in value)
                and len(set(value)) == len(value),
                f"extras.{key}",
                "R-NM-MERCY, R-NM-WIN: the seats knocked out or gone out, each a seat that has left the hand",
            )
    if state.outcome is not None:
        return
    limit = state.ruleset.options["mercy_limit"]
    for held in state.active_seats if limit else ():
        require(
            len(state.hands[held]) < limit,
            f"hands[{held}]",
            f"R-NM-MERCY: seat {held} holds {len(state.hands[held])} cards, the limit {limit} or more, "
            "yet is still in the hand: it was knocked out",
        )
    phase = state.phase
    name = phase.name
    seat = state.current_player
    if name == "play":
        require(
            phase == PLAY, "phase", "the ordinary turn ('play') carries no count, card, seat, colour or data"
        )
    elif name == "drawn":
        require(
            phase.card is not None and phase.card in state.hands[seat] and state.matches(seat, phase.card),
            "phase.card",
            "R-NM-DRAW: phase 'drawn' names the playable card just drawn, which the seat to move holds",
        )
    elif name == "stack":
        card = phase.card
        require(
            card is not None and card.kind in DRAW_VALUES,
            "phase.card",
            "R-NM-STACK: a stack is topped by a draw card (+2, +4, WR+4, W+6, W+10)",
        )
        assert card is not None
        require(
            phase.count >= DRAW_VALUES[card.kind],
            "phase.count",
            f"R-NM-STACK: a stack topped by {card} holds at least {DRAW_VALUES[card.kind]} cards",
        )
    elif name == "roulette":
        require(
            phase.card is not None and phase.card.kind == "WCR",
            "phase.card",
            "R-NM-ROULETTE: phase 'roulette' names the Wild Colour Roulette played",
        )
    if name != "roulette" and state.color is None:
        raise StateFormatError(
            "color: R-TURN-MATCH: the colour to match is unnamed only while a Roulette's victim names it "
            "(phase 'roulette', R-NM-ROULETTE)",
            "color",
        )


plugin = NoMercyPlugin()
"""The plugin object the ``unorules`` entry point ``no-mercy`` names."""

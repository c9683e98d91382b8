"""UNO FLIP! (Mattel 2019): 112 two-faced cards, a light side and a dark side, played alone.

Enable it with ``Ruleset.from_names(["flip"])``. It is a whole rule set of its
own, like ``classic``: every card is printed on both sides
(:meth:`Card.two_faced <unorules.Card.two_faced>`, written light face first:
``R1/P3``), the game is played on the faces of the side in play
(:attr:`GameState.side <unorules.GameState.side>`: 0 light, 1 dark), and a
Flip card turns every hand and both piles over. Classic reads a card's own
colour and kind, which for a two-faced card is only its light face, so this
edition replaces classic instead of building on it, and conflicts with it
(and with every house rule that requires it).

Phases this plugin owns (``state.phase.name``):

* ``play``: the ordinary turn: play a matching card or draw (R-FLIP-MATCH);
* ``drawn``: the card just drawn is playable: play it or ``pass`` (R-FLIP-MATCH);
* ``penalty``: draw ``phase.count`` cards (a Draw One, a Draw Five, a Wild
  Draw Two), or draw to ``phase.color`` (a Wild Draw Colour, count 0), and
  lose the turn (R-FLIP-D1, R-FLIP-D5, R-FLIP-WD2, R-FLIP-WDC);
* ``challenge``: hit by a Wild Draw Two or a Wild Draw Colour: ``challenge``
  or ``accept`` (R-FLIP-CHALLENGE);
* ``color``: name the colour of a wild starter, then play (R-FLIP-STARTER);
* ``flip-color``: a Flip exposed a wild: its player names the colour, then
  the next seat plays (R-FLIP-FLIP).

What each seat sees (R-FLIP-VIEW): its own hand's faces of the side in play
(and, with ``flip_own_backs=shown``, their backs); the backs of every other
hand, in hand order (``SeatView.backs``); the back on top of the draw pile
(``SeatView.draw_pile_back``); the discard pile's faces. An action names the
face a card shows, never its back: ``play GF``, ``play W+C T``; ``#k`` picks
the k-th of several cards showing one face (``play R1#2``).

Notation: light colours ``R Y G B``; dark colours ``P`` pink, ``T`` teal,
``O`` orange, ``V`` purple (registered by this plugin). Kinds: ``1``-``9``;
``+1`` Draw One; ``+5`` Draw Five; ``S`` Skip; ``SE`` Skip Everyone; ``R``
Reverse; ``F`` Flip; wilds ``W``, ``W+2`` (Wild Draw Two), ``W+C`` (Wild Draw
Colour).

.. rubric:: Options

* ``flip_pairing`` (``fixed``): which dark face is printed behind which light
  face: the published table, or ``seeded``: a pairing drawn from
  ``flip_pairing_seed`` (R-FLIP-PAIR).
* ``flip_pairing_seed`` (0): the seed of the ``seeded`` pairing.
* ``flip_own_backs`` (``hidden``): a seat does not see its own backs;
  ``shown``: it does (R-FLIP-VIEW).
* ``flip_draw_color_cap`` (``none``): a Wild Draw Colour's victim draws until
  the colour; a number N: at most N cards (R-FLIP-WDC).
* ``flip_exposed_wild`` (``flipper-names``): a wild exposed by a Flip is named
  by the Flip's player; ``keep-mapped``: the colour maps to the other side's
  (R↔P, Y↔O, G↔T, B↔V) (R-FLIP-FLIP).
* ``flip_discard`` (``invert``): a Flip turns the discard pile over, so its
  bottom card comes on top; ``top-only``: the pile keeps its order and the
  Flip just played shows its other face (R-FLIP-FLIP).
* ``flip_opening`` (``redraw``): a Flip turned up to start is returned like a
  Wild Draw Two; ``flip``: it flips at once; ``plain``: it stays, without
  effect (R-FLIP-STARTER).
* ``flip_last_card`` (``no-flip``): a Flip that is its player's last card ends
  the round at once; ``flips``: the flip is carried out first and the hands
  are scored on the new side (R-FLIP-OUT).
* As classic's, for the rules FLIP! keeps from it: ``target_score`` (500),
  ``scoring`` (``winner-takes-all``, ``low-score``), ``uno_penalty`` (2, 4),
  ``opening_reverse``, ``challenge`` (on), ``challenger`` (``victim``,
  ``anyone``), ``drawn_card`` (``may-keep``, ``must-play``), ``dealer_draw``
  (``number``, ``points``).

.. rubric:: Decisions

Where the sheet is silent this plugin does the following; each point has a
scenario test under ``tests/`` (named after its rule id).

* **A Flip** (R-FLIP-FLIP): the discard pile turns over (order reversed), then
  the draw pile (order reversed), then every hand; the new top card was not
  played, so its action never happens: it only sets the colour and the
  symbol to match; the turn passes as after a number card. An exposed wild
  is named by the Flip's player (phase ``flip-color``).
* **A reshuffle** (R-FLIP-RESHUFFLE): the discard pile but its top card
  becomes the draw pile, cards showing the side in play face down; it
  changes which card the next Flip exposes.
* **A Wild Draw Colour** (R-FLIP-WDC): the one colour named is the colour in
  play and the colour drawn to; a drawn wild does not stop the draw; with
  both piles exhausted the draw stops there and the turn is still lost.
* **Challenges** (R-FLIP-CHALLENGE): guilty means the player held a card
  whose face in play has the colour current when the wild was laid; the
  challenged hand's faces are shown to the challenger only. As classic: a
  guilty bluffer draws instead and the challenger plays on; a third seat's
  failed challenge (``challenger=anyone``) costs it what an innocent verdict
  costs, and the victim still draws.
* **The last card** (R-FLIP-OUT): after a last Draw One, Draw Five, Wild Draw
  Two or Wild Draw Colour the next seat still draws, and those cards score.
* **Two players** (R-FLIP-2P): a Reverse acts as a Skip, a Skip Everyone as a
  Skip; after a draw card its player plays again.
* **What a seat sees** (R-FLIP-VIEW): a spectator sees no back unless every
  seat sees its own (``flip_own_backs=shown``): what every player knows.
* **The pairing** (R-FLIP-PAIR): the deck is a fact of the rule set (every
  state of it holds the same 112 physical cards), so ``seeded`` draws its
  pairing from the option ``flip_pairing_seed``, not from each game's seed.
* **Dealer, UNO, blocked round, end of the game**: as classic (R-SETUP-DEALER
  on light faces, R-UNO-CALL, R-UNO-CATCH, R-UNO-SELF, R-WIN, R-WIN-LOW).

.. rubric:: Interactions

``classic`` and every house rule that requires it
    Refused: they read a card's own colour and kind, the light face only.
``stacking``
    Refused: stacking is not defined for FLIP!'s draw cards.
``no-mercy``
    Refused: another edition, with another deck.
``jump-in``
    A jump-in compares the faces in play (EDITIONS 1.5); flip conflicts with
    neither plugin, and the pair builds once jump-in no longer requires classic.
``seven-o``
    Its 7 trades hands (the ``play`` of a 7 face names the seat, ``card_needs_target``);
    its 0 never occurs, FLIP! having no 0 (EDITIONS 1.5). Builds once seven-o no
    longer requires classic.
``custom-wilds``, ``shuffle-hands``, ``swap-hands``
    Refused: their cards are printed on one side, and a deck is of one kind.

Matching, UNO calls and catches, going out, blocked rounds and scoring are the
core's shared questions (``card_matches``, ``uno_call_rule``, ``going_out``,
``blocked_round``; :mod:`unorules.scoring`), so a house rule that answers them
is obeyed by FLIP! too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from unorules import (
    MAX_PLAYERS,
    PLAY,
    Action,
    CardLook,
    Color,
    Display,
    Event,
    EventSpec,
    Option,
    Phase,
    PhaseSpec,
    Plugin,
    TestHints,
    hookimpl,
    one_of,
    positive_int,
    switch,
)
from unorules.scoring import draw_for_dealer, round_points, target_outcome
from unorules.validate import require
from unorules_flip.cards import (
    DARK,
    DRAWS,
    FIXED_PAIRING,
    LIGHT,
    MAPPED,
    POINTS,
    SIDE_COLORS,
    SIDE_NAMES,
    deck,
)

if TYPE_CHECKING:
    from unorules import Card, Draft, GameState, Outcome, Position, Rng, RoundResult, Ruleset

__all__ = [
    "DARK",
    "FIXED_PAIRING",
    "LIGHT",
    "FlipPlugin",
    "deck",
    "plugin",
]


_NO_TARGET: tuple[None] = (None,)
_NO_COLOR: tuple[None] = (None,)
_BLUFFS = frozenset({"W+2", "W+C"})
"""The wilds that may be a bluff (R-FLIP-WD2, R-FLIP-WDC, R-FLIP-CHALLENGE)."""


def _light_number(card: Card) -> int:
    """The number of a card's light face, symbols counting 0 (R-FLIP-SETUP)."""
    return card.faces[0].number or 0


def _cap(value: Any) -> int:
    """The check of ``flip_draw_color_cap``: ``none`` (0) or a positive number."""
    if isinstance(value, str) and value.strip().lower() == "none":
        return 0
    if value == 0 and not isinstance(value, bool):
        return 0
    return positive_int(value)


def _seed(value: Any) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise ValueError(f"{value!r} is not a whole number from 0")
    return value


_VERBS = ("play", "draw", "pass", "uno", "catch", "challenge", "accept", "color")
"""The verbs of FLIP!, in the order the rule set declares them."""
_TURN_VERBS = frozenset({"play", "draw", "pass", "accept", "color"})
"""The verbs only the seat to move uses; the others (UNO calls, catches, a challenge by anyone) any seat."""
_DRAW, _UNO, _PASS, _CHALLENGE, _ACCEPT = (
    tuple(Action.of(seat, verb) for seat in range(MAX_PLAYERS))
    for verb in ("draw", "uno", "pass", "challenge", "accept")
)  # each verb's action of every seat, interned once


def _flip_text(event: Event) -> str:
    """How a Flip reads (R-FLIP-FLIP), or a Flip turned up to start (R-FLIP-STARTER)."""
    if event.seat is None:
        return "the first card was a Flip: everything turned over to the {data[side]} side, {cards} on top"
    return "{seat} flipped everything over to the {data[side]} side, {cards} on top"


def _draw_color_text(event: Event) -> str:
    """How a Wild Draw Colour's draw reads (R-FLIP-WDC), after the draw's own sentence."""
    if not event.count:
        return "{seat} found nothing to draw, looking for {color}"
    return "{seat} drew them one card at a time, looking for {color}"


def _challenge_text(event: Event) -> str:
    """How a challenge reads (R-FLIP-CHALLENGE): the verdict for everyone, the
    hand for the challenger, the only one who sees it."""
    shown = ", seeing {cards}" if event.cards else ""
    verdict = "it was a bluff" if event.value("guilty") else "it was played fairly"
    return "{seat} challenged {target:'s} wild draw card" + shown + ": " + verdict


class FlipPlugin(Plugin):
    """UNO FLIP!: two-faced cards, a light and a dark side, the Flip card turning everything over."""

    name = "flip"
    api_version = 2
    rules = (
        "R-FLIP-DECK",
        "R-FLIP-PAIR",
        "R-FLIP-SETUP",
        "R-FLIP-VIEW",
        "R-FLIP-MATCH",
        "R-FLIP-D1",
        "R-FLIP-D5",
        "R-FLIP-SE",
        "R-FLIP-REV-SKIP",
        "R-FLIP-WILD",
        "R-FLIP-WD2",
        "R-FLIP-WDC",
        "R-FLIP-CHALLENGE",
        "R-FLIP-FLIP",
        "R-FLIP-RESHUFFLE",
        "R-FLIP-STARTER",
        "R-FLIP-OUT",
        "R-FLIP-SCORE",
        "R-FLIP-2P",
    )
    conflicts: ClassVar[Mapping[str, str]] = {
        "classic": "flip is a whole edition of two-faced cards; classic reads a card's light face only",
        "no-mercy": "two editions with their own decks cannot be played as one",
        "stacking": "stacking is not defined for FLIP!'s draw cards (Draw One, Draw Five, Wild Draw Colour)",
    }
    verbs: ClassVar[Mapping[str, str]] = {verb: "turn" if verb in _TURN_VERBS else "any" for verb in _VERBS}
    phases = (
        PhaseSpec("play", "the ordinary turn: play a matching card or draw (R-FLIP-MATCH)"),
        PhaseSpec("drawn", "the card just drawn is playable: play it or pass (R-FLIP-MATCH)"),
        PhaseSpec(
            "penalty",
            "draw the cards a draw card laid on you says (after a Wild Draw Colour, up to its colour) "
            "and lose the turn (R-FLIP-D1, R-FLIP-D5, R-FLIP-WD2, R-FLIP-WDC)",
        ),
        PhaseSpec(
            "challenge", "hit by a Wild Draw Two or Wild Draw Colour: challenge or accept (R-FLIP-CHALLENGE)"
        ),
        PhaseSpec("color", "name the colour of a wild starter, then play (R-FLIP-STARTER)"),
        PhaseSpec("flip-color", "a Flip exposed a wild: its player names the colour (R-FLIP-FLIP)"),
    )
    events = (
        EventSpec(
            "flip",
            "a Flip turned every hand and both piles over (R-FLIP-FLIP, R-FLIP-STARTER)",
            (
                ("seat", "the Flip's player (none for a starter)"),
                ("cards", "the card now on top of the discard pile"),
                ("data.side", "the side now in play: 'light' or 'dark'"),
            ),
            _flip_text,
        ),
        EventSpec(
            "starter-returned",
            "a starter that may not start was returned and another card turned up (R-FLIP-STARTER)",
            (("cards", "the card returned, then the new starter"),),
            "{cards[0]} may not start: it went back and {cards[1]} was turned up",
        ),
        EventSpec(
            "draw-color",
            "a seat drew one card at a time until one of the colour named (R-FLIP-WDC)",
            (("seat", "the seat that drew"), ("count", "how many cards it drew"), ("color", "the colour")),
            _draw_color_text,
        ),
        EventSpec(
            "challenge",
            "a Wild Draw Two or Wild Draw Colour was challenged; its player's hand is shown to the "
            "challenger (R-FLIP-CHALLENGE)",
            (
                ("seat", "the challenger"),
                ("target", "the wild's player"),
                ("cards", "that player's hand (private: only the challenger sees it)"),
                ("data.guilty", "whether the player held a card of the previous colour"),
            ),
            _challenge_text,
        ),
        EventSpec(
            "accept",
            "a Wild Draw Two or Wild Draw Colour was accepted, not challenged: its draw follows "
            "(R-FLIP-CHALLENGE)",
            (("seat", "the seat that accepted"), ("target", "the wild's player"), ("cards", "the wild")),
            "{seat} accepted {target:'s} {cards[0]}",
        ),
    )
    options = (
        Option(
            "flip_pairing",
            "fixed",
            "which dark face is behind which light face: the published table, or drawn from "
            "the pairing seed (R-FLIP-PAIR)",
            one_of("fixed", "seeded"),
            "fixed, seeded",
        ),
        Option(
            "flip_pairing_seed", 0, "the seed of the seeded pairing (R-FLIP-PAIR)", _seed, "a whole number"
        ),
        Option(
            "flip_own_backs",
            "hidden",
            "whether a seat sees the backs of its own hand (R-FLIP-VIEW)",
            one_of("hidden", "shown"),
            "hidden, shown",
        ),
        Option(
            "flip_draw_color_cap",
            0,
            "most cards a Wild Draw Colour makes its victim draw; none (0): up to the colour (R-FLIP-WDC)",
            _cap,
            "none (0) or a positive number",
        ),
        Option(
            "flip_exposed_wild",
            "flipper-names",
            "a wild exposed by a Flip: its player names the colour, or the colour maps across (R-FLIP-FLIP)",
            one_of("flipper-names", "keep-mapped"),
            "flipper-names, keep-mapped",
        ),
        Option(
            "flip_discard",
            "invert",
            "a Flip turns the discard pile over (its bottom card on top), or only its top card (R-FLIP-FLIP)",
            one_of("invert", "top-only"),
            "invert, top-only",
        ),
        Option(
            "flip_opening",
            "redraw",
            "a Flip turned up to start: returned, flipped at once, or kept without effect (R-FLIP-STARTER)",
            one_of("redraw", "flip", "plain"),
            "redraw, flip, plain",
        ),
        Option(
            "flip_last_card",
            "no-flip",
            "a Flip as a player's last card ends the round at once, or flips before scoring (R-FLIP-OUT)",
            one_of("no-flip", "flips"),
            "no-flip, flips",
        ),
        Option("target_score", 500, "points that end the game (R-WIN)", positive_int, "a positive integer"),
        Option(
            "scoring",
            "winner-takes-all",
            "the winner scores the others' hands by the faces in play, or each is charged their own "
            "(R-FLIP-SCORE, R-WIN-LOW)",
            one_of("winner-takes-all", "low-score"),
            "winner-takes-all, low-score",
        ),
        Option("uno_penalty", 2, "cards drawn when caught without UNO (R-UNO-CATCH)", one_of(2, 4), "2, 4"),
        Option(
            "opening_reverse",
            "dealer-starts",
            "who starts after a Reverse starter (R-FLIP-STARTER)",
            one_of("dealer-starts", "right-of-dealer-starts"),
            "dealer-starts, right-of-dealer-starts",
        ),
        Option(
            "challenge",
            True,
            "Wild Draw Two and Wild Draw Colour bluffs and challenges (R-FLIP-CHALLENGE)",
            switch,
            "on, off",
        ),
        Option(
            "challenger",
            "victim",
            "who may challenge a Wild Draw Two or Draw Colour: the seat hit or anyone (R-FLIP-CHALLENGE)",
            one_of("victim", "anyone"),
            "victim, anyone",
        ),
        Option(
            "drawn_card",
            "may-keep",
            "a playable drawn card may be kept, or must be played (R-FLIP-MATCH)",
            one_of("may-keep", "must-play"),
            "may-keep, must-play",
        ),
        Option(
            "dealer_draw",
            "number",
            "who deals: the highest light number, symbols 0, or the highest light point value (R-FLIP-SETUP)",
            one_of("number", "points"),
            "number, points",
        ),
    )
    testing = TestHints(option_values={"flip_draw_color_cap": (0, 3), "flip_pairing_seed": (0, 7)})

    # -- building ---------------------------------------------------------------

    @hookimpl
    def display(self, ruleset: Ruleset) -> Display:
        # How people call FLIP!'s things: its sides light and dark (side 0 and 1 of
        # GameState.side), its own phases, the faces of the kinds it adds.
        return _DISPLAY

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        options = ruleset.options
        return deck(options["flip_pairing"], options["flip_pairing_seed"])  # R-FLIP-DECK, R-FLIP-PAIR

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        # R-FLIP-SCORE: each face its points; a physical card is worth its light
        # face (the round is scored by the faces in play, see score_round).
        face = card.faces[0] if card.faces else card
        number = face.number
        return number if number is not None else POINTS.get(face.kind)

    @hookimpl
    def hand_size(self, ruleset: Ruleset) -> int:
        return 7  # R-FLIP-SETUP

    # -- dealing ----------------------------------------------------------------

    @hookimpl
    def choose_dealer(self, ruleset: Ruleset, players: int, rng: Rng) -> int:
        # R-FLIP-SETUP: each seat draws a card and shows its light face; the highest
        # number deals, symbols counting 0 (dealer_draw=points: its points); ties draw again.
        if ruleset.options["dealer_draw"] == "points":
            return draw_for_dealer(ruleset, players, rng, lambda card: ruleset.card_points(card.faces[0]))
        return draw_for_dealer(ruleset, players, rng, _light_number)

    @hookimpl
    def on_starter(self, draft: Draft) -> bool:
        _starter(draft)
        return True

    # -- what each seat sees ----------------------------------------------------------

    @hookimpl
    def visible_backs(self, state: GameState, seat: int | None) -> Iterable[int]:
        # R-FLIP-VIEW: a hand shows its backs to the other seats; its holder sees
        # them only with flip_own_backs=shown, and a spectator then sees all.
        shown = state.ruleset.options["flip_own_backs"] == "shown"
        if seat is None:
            return state.active_seats if shown else ()
        return [s for s in state.active_seats if s != seat or shown]

    # -- checking states read from outside ----------------------------------------------

    @hookimpl
    def check_state(self, state: GameState) -> None:
        _check_state(state)

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        return _explain(state, action)

    # -- the shared questions ----------------------------------------------------------

    @hookimpl
    def card_matches(self, state: Position, seat: int, card: Card) -> bool | None:
        # R-FLIP-WD2, R-FLIP-WDC: with challenges off, a Wild Draw Two or Wild Draw Colour
        # only without a card whose face in play has the colour to match. Every other
        # face matches by the core's rule on the faces in play (R-FLIP-MATCH, R-FLIP-WILD).
        if card.kind in _BLUFFS and not state.ruleset.options["challenge"]:
            color = state.color
            side = state.side
            return not any(c.faces[side].color is color for c in state.hands[seat])
        return None

    # -- legal actions --------------------------------------------------------------

    @hookimpl
    def legal_actions(self, state: GameState) -> list[Action]:
        return _legal(state)

    # -- applying actions ---------------------------------------------------------------

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool:
        _effect(draft, action, previous)  # a card's effect (R-FLIP-*), or a last card's (R-FLIP-OUT)
        return True

    @hookimpl
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        verb = action.verb
        if verb == "play":
            draft.play(action)  # the card's effect: on_play
        elif verb == "uno":
            draft.call_uno(action.seat)  # R-UNO-CALL, or late (R-UNO-SELF)
        elif verb == "catch":
            assert action.target is not None
            draft.catch(action.seat, action.target, draft.ruleset.options["uno_penalty"])  # R-UNO-CATCH
        elif verb in _HANDLERS:
            draft.end_exposure()  # R-UNO-CATCH: any other action of a turn closes the window
            _HANDLERS[verb](draft, action)
        else:
            return None
        return True

    # -- ending rounds and games --------------------------------------------------------

    @hookimpl
    def score_round(self, draft: Draft, result: RoundResult) -> Sequence[int]:
        # R-FLIP-SCORE: by the face of each card in play when the round ends, to the
        # winner (R-SCORE) or charged to each seat (R-WIN-LOW).
        return round_points(draft, result.winner, draft.ruleset.options["scoring"] == "low-score")

    @hookimpl
    def game_outcome(self, draft: Draft) -> Outcome | None:
        options = draft.ruleset.options
        return target_outcome(draft, options["target_score"], options["scoring"] == "low-score")  # R-WIN


# -- the turn --------------------------------------------------------------------------------


_DISPLAY = Display(
    cards=(
        CardLook("+1", symbol="+1", label="Draw 1"),
        CardLook("+5", symbol="+5", label="Draw 5"),
        CardLook("F", symbol="⇅", label="Flip"),
        CardLook("SE", symbol="⊘⊘", label="Skip all"),
        CardLook("W+2", symbol="+2", label="Wild"),
        CardLook("W+C", symbol="+C", label="Wild"),
    ),
    sides=SIDE_NAMES,
    phases={"flip-color": "naming the colour of the wild a Flip turned up"},
)
"""How FLIP! is shown to people (the ``display`` hook)."""


def _side_colors(state: Position) -> tuple[Color, ...]:
    return SIDE_COLORS[state.side]


def _drawn_index(hand: tuple[Card, ...], card: Card | None) -> int:
    """Where the card just drawn (phase ``drawn``'s card) is in ``hand``: the last
    copy of it, the last card unless another plugin's rule made the seat draw
    since (penalties' coaching penalty)."""
    for index in range(len(hand) - 1, -1, -1):
        if hand[index] is card:
            return index
    return len(hand) - 1


def _face_plays(state: GameState, seat: int, index: int) -> list[Action]:
    """The ``play`` actions of the card at ``index`` in ``seat``'s hand, named by
    the face it shows and its place among the cards showing that face; one per
    colour for a wild (R-FLIP-WILD), one per other seat for a face that names a seat
    under another plugin (``card_needs_target``: seven-o's 7, R-SEVEN-O)."""
    hand = state.hands[seat]
    side = state.side
    face = hand[index].faces[side]
    nth = 1 + sum(1 for c in hand[:index] if c.faces[side] is face)
    targets: Sequence[int | None] = _NO_TARGET
    if state.ruleset.needs_target(face):
        targets = [t for t in state.active_seats if t != seat]
    colors: Sequence[Color | None] = _side_colors(state) if face.color is None else _NO_COLOR
    return [Action.of(seat, "play", face, c, t, nth) for c in colors for t in targets]


def _legal(state: GameState) -> list[Action]:
    seat = state.current_player
    phase = state.phase
    name = phase.name
    hand = state.hands[seat]
    side = state.side
    acts: list[Action] = []
    playable: bool | None = None  # on a turn to play: whether the seat can
    if name == "play":
        for i, card in enumerate(hand):
            if state.matches(seat, card.faces[side]):
                acts += _face_plays(state, seat, i)
        # With nothing left to draw, drawing is only for a seat that cannot play.
        playable = bool(acts)
        if state.draw_pile or len(state.discard_pile) > 1 or not acts:
            acts.append(_DRAW[seat])
    elif name == "drawn":
        index = _drawn_index(hand, phase.card)
        playable = state.matches(seat, hand[index].faces[side])
        if playable:
            acts += _face_plays(state, seat, index)
        if not playable or state.ruleset.options["drawn_card"] == "may-keep":
            acts.append(_PASS[seat])
    elif name == "penalty":
        acts.append(_DRAW[seat])
    elif name == "challenge":
        acts += (_CHALLENGE[seat], _ACCEPT[seat])  # R-FLIP-CHALLENGE: by the seat hit, or anyone
        if state.ruleset.options["challenger"] == "anyone":
            acts += [_CHALLENGE[s] for s in state.active_seats if s not in (seat, phase.seat)]
    elif name in ("color", "flip-color"):
        acts += [Action.of(seat, "color", None, c) for c in _side_colors(state)]
    if playable is not None and state.may_call_uno(seat, playable):
        acts.append(_UNO[seat])  # R-UNO-CALL: on a turn to play, before the next-to-last card
    if state.uno_exposed:
        acts += state.uno_window_actions()  # R-UNO-SELF, R-UNO-CATCH
    return acts


def _draw(draft: Draft, action: Action) -> None:
    seat = action.seat
    phase = draft.phase
    if phase.name == "penalty":
        _penalty(draft, seat, phase)
        draft.pass_turn(1, seat)
        return
    if draft.draw(seat, 1, "turn"):
        card = draft.hands[seat][-1]
        draft.stalled = 0
        if draft.matches(seat, draft.face(card)):
            draft.phase = Phase("drawn", card=card, secret=True)  # R-FLIP-MATCH: play it or keep it
        else:
            draft.pass_turn(1, seat)
        return
    # Nothing to draw: when every seat has in turn, the round is blocked (the core's
    # blocked_round: the fewest points by the faces in play win it, ties to the lowest seat).
    draft.stall(seat)


def _penalty(draft: Draft, seat: int, phase: Phase, extra: int = 0) -> None:
    """``seat`` takes the draw of the card of ``phase``: ``phase.count`` cards,
    or to ``phase.color`` after a Wild Draw Colour (R-FLIP-WDC); then ``extra``
    more (a failed challenge)."""
    card = phase.card
    if card is not None and card.faces[draft.side].kind == "W+C":
        color = phase.data[0] if phase.data else draft.color
        assert isinstance(color, Color)
        _draw_to_color(draft, seat, color)
    elif phase.count:
        draft.draw(seat, phase.count, "penalty")
    if extra:
        draft.draw(seat, extra, "penalty")


def _draw_to_color(draft: Draft, seat: int, color: Color) -> None:
    """R-FLIP-WDC: ``seat`` draws one card at a time until a card whose face in
    play has ``color`` (a wild does not stop it), at most ``flip_draw_color_cap``
    cards; with both piles exhausted the draw stops there."""
    cap = draft.ruleset.options["flip_draw_color_cap"]
    count = 0
    while not cap or count < cap:
        got = draft.draw(seat, 1, "penalty")
        if not got:
            break
        count += 1
        if draft.face(got[0]).color is color:
            break
    draft.add_event(Event("draw-color", seat, (), "R-FLIP-WDC", count=count, color=color))


def _effect(draft: Draft, action: Action, previous: GameState) -> None:
    seat = action.seat
    face = action.card
    assert face is not None
    kind = face.kind
    out = draft.going_out(seat)  # its last card (the core asks going_out; R-FLIP-OUT)
    if out is not None and out.ends:
        # R-FLIP-OUT (the core ends the round): the next player still takes a last
        # draw card, and it scores; a last Flip flips first with flip_last_card=flips.
        if kind in DRAWS or kind == "W+C":
            victim = draft.next_seat(seat)
            _penalty(draft, victim, _hit(draft, action, previous))
        elif kind == "F" and draft.ruleset.options["flip_last_card"] == "flips":
            _turn_over(draft, seat)
        return
    if kind == "F":
        _flip(draft, seat, previous)
    elif kind == "S":
        draft.pass_turn(2, seat)  # R-FLIP-REV-SKIP (R-FLIP-2P: its player plays again)
    elif kind == "R":
        draft.direction = -draft.direction  # R-FLIP-REV-SKIP (R-FLIP-2P: acts as a Skip,
        # unless its player has left the round, going out under a rule that says so)
        draft.pass_turn(2 if len(draft.active_seats) == 2 and out is None else 1, seat)
    elif kind == "SE" and out is None:
        draft.current_player = seat  # R-FLIP-SE: its player takes another full turn
        draft.phase = PLAY
    elif kind == "SE":  # its player left the round on it: the turn comes back to the next seat in
        draft.pass_turn(1, seat)
    elif kind in DRAWS or kind == "W+C":
        draft.current_player = draft.next_seat(seat)
        draft.phase = _hit(draft, action, previous)
    else:
        draft.pass_turn(1, seat)


def _hit(draft: Draft, action: Action, previous: GameState) -> Phase:
    """The phase of the seat hit by the draw card of ``action``: ``penalty``
    (R-FLIP-D1, R-FLIP-D5), or ``challenge`` for a Wild Draw Two or Wild Draw
    Colour while challenges are on (R-FLIP-CHALLENGE). It carries the physical
    card laid, the seat, the colour before it (against which a bluff is
    judged) and, for a Wild Draw Colour, the colour named, drawn to."""
    face = action.card
    assert face is not None
    card = draft.top_card
    seat = action.seat
    if face.color is not None:
        return Phase("penalty", DRAWS[face.kind], card, seat)
    # A seat that left the round (going out) has no hand to show: no challenge then.
    name = "challenge" if draft.ruleset.options["challenge"] and draft.going_out(seat) is None else "penalty"
    if face.kind == "W+C":
        return Phase(name, 0, card, seat, previous.color, (draft.color,))
    return Phase(name, DRAWS[face.kind], card, seat, previous.color)


def _flip(draft: Draft, seat: int, previous: GameState) -> None:
    """R-FLIP-FLIP: everything turns over; the card exposed only sets the colour
    and symbol to match (a wild's colour named by the Flip's player); the turn
    passes as after a number card."""
    _turn_over(draft, seat)
    top = draft.face(draft.top_card)
    if top.color is not None:
        draft.color = top.color
    elif draft.ruleset.options["flip_exposed_wild"] == "keep-mapped":
        color = previous.color if draft.color is None else draft.color
        assert color is not None
        draft.color = MAPPED[color]
    else:
        draft.color = None
        draft.current_player = seat
        draft.phase = Phase("flip-color", card=draft.top_card, seat=seat)
        return
    draft.pass_turn(1, seat)


def _turn_over(draft: Draft, seat: int | None) -> None:
    """Turn everything over (R-FLIP-FLIP): the discard pile (order reversed, or
    kept with ``flip_discard=top-only``), the draw pile (order reversed), every
    hand; the side in play toggles."""
    invert = draft.ruleset.options["flip_discard"] == "invert"
    draft.turn_over(reverse_discard=invert, reverse_draw=True)
    draft.add_event(
        Event("flip", seat, (draft.top_card,), "R-FLIP-FLIP", data=(("side", SIDE_NAMES[draft.side]),))
    )


def _starter(draft: Draft) -> None:
    """R-FLIP-STARTER: the starter's light face takes its opening effect."""
    opening = draft.ruleset.options["flip_opening"]
    redraw = ("W+2", "F") if opening == "redraw" else ("W+2",)
    while draft.face(draft.top_card).kind in redraw:
        (starter,) = draft.take_from_discard_pile(1)
        draft.shuffle_into_draw_pile([starter])
        turned = draft.take_from_draw_pile(1)
        draft.put_on_discard_pile(turned)
        draft.add_event(Event("starter-returned", None, (starter, *turned), "R-FLIP-STARTER"))
    face = draft.face(draft.top_card)
    dealer = draft.dealer
    kind = face.kind
    if kind == "F" and opening == "flip":
        _turn_over(draft, None)  # the round starts on the dark side; the exposed face has no effect
        face = draft.face(draft.top_card)
        draft.color = face.color
        if face.color is None:
            draft.phase = Phase("color", card=draft.top_card)
        return
    if kind == "+1":
        draft.phase = Phase("penalty", 1, draft.top_card, dealer)
    elif kind == "S":
        draft.pass_turn(2, dealer)
    elif kind == "R":
        draft.direction = -1
        if draft.ruleset.options["opening_reverse"] == "dealer-starts":
            draft.current_player = dealer
        else:
            draft.pass_turn(1, dealer)
    elif face.color is None:
        draft.phase = Phase("color", card=draft.top_card)  # a Wild: the first player names the colour


# -- UNO and challenges -----------------------------------------------------------------------


def _pass(draft: Draft, action: Action) -> None:
    draft.pass_turn(1, action.seat)  # R-FLIP-MATCH: the card just drawn is kept


def _accept(draft: Draft, action: Action) -> None:
    """R-FLIP-CHALLENGE: the seat hit accepts the wild and takes its draw."""
    seat = action.seat
    wild = draft.top_card
    draft.add_event(Event("accept", seat, (wild,), "R-FLIP-CHALLENGE", target=draft.phase.seat))
    _penalty(draft, seat, draft.phase)
    draft.pass_turn(1, seat)


def _color(draft: Draft, action: Action) -> None:
    """The colour of a wild starter (R-FLIP-STARTER: then its namer plays) or of a
    wild a Flip exposed (R-FLIP-FLIP: then play goes on)."""
    draft.color = action.color
    if draft.phase.name == "flip-color":
        draft.pass_turn(1, action.seat)
    else:
        draft.phase = PLAY


def _challenge(draft: Draft, action: Action) -> None:
    # R-FLIP-CHALLENGE: the wild's player shows their hand to the challenger.
    seat = action.seat
    phase = draft.phase
    bluffer = phase.seat
    victim = draft.current_player
    assert bluffer is not None
    hand = draft.hands[bluffer]
    side = draft.side
    guilty = any(c.faces[side].color is phase.color for c in hand)
    verdict = "guilty" if guilty else "innocent"
    draft.show_hand(bluffer, seat)  # what the challenger now knows of that hand (unorules.knowledge)
    draft.add_event(
        Event(
            "challenge",
            seat,
            hand,
            "R-FLIP-CHALLENGE",
            f"seat {bluffer}'s hand: {verdict}",
            private=True,
            target=bluffer,
            data=(("guilty", guilty),),
        )
    )
    if guilty:
        # The bluffer draws instead; the challenger plays on, the named colour standing.
        _penalty(draft, bluffer, phase)
        draft.phase = PLAY
        return
    _penalty(draft, seat, phase, extra=2)  # innocent: 2 + 2, or to the colour and 2 more
    if seat != victim:  # challenger=anyone: the victim still draws and loses the turn
        _penalty(draft, victim, phase)
    draft.pass_turn(1, victim)


_HANDLERS: Mapping[str, Callable[[Draft, Action], None]] = {
    "draw": _draw,
    "pass": _pass,
    "challenge": _challenge,
    "accept": _accept,
    "color": _color,
}
"""What carries out each verb but ``play``, ``uno`` and ``catch``, after the catch window closed."""


# -- checking and explaining -----------------------------------------------------------------


def _check_state(state: GameState) -> None:
    """Flip's phases carry what their handlers need (``validate_state``)."""
    if state.outcome is not None:
        return
    side = state.side
    seat = state.current_player
    phase = state.phase
    name = phase.name
    require(
        name != "play" or phase == PLAY,
        "phase",
        "the ordinary turn ('play') carries no count, card, seat, colour or data",
    )
    if name == "drawn":
        hand = state.hands[seat]
        require(
            phase.card is not None and any(card is phase.card for card in hand),
            "phase.card",
            "R-FLIP-MATCH: phase 'drawn' names the card just drawn, which the seat to move holds",
        )
    elif name in ("penalty", "challenge"):
        card = phase.card
        require(card is not None, "phase.card", f"phase {name!r} names the draw card laid")
        assert card is not None
        face = card.faces[side]
        require(
            face.kind in DRAWS or face.kind == "W+C",
            "phase.card",
            "R-FLIP-D1, R-FLIP-D5, R-FLIP-WD2, R-FLIP-WDC: a draw card of the side in play",
        )
        if face.kind == "W+C":
            require(
                len(phase.data) == 1
                and isinstance(phase.data[0], Color)
                and phase.data[0] in SIDE_COLORS[side],
                "phase.data",
                "R-FLIP-WDC: the colour named, a colour of the side in play, to draw to",
            )
        else:
            require(phase.count >= 1, "phase.count", "a seat told to draw draws at least one card")
        if name == "challenge":
            require(
                phase.seat is not None and phase.seat != seat and phase.seat not in state.left,
                "phase.seat",
                "R-FLIP-CHALLENGE: the seat that played the wild, another seat still in the game",
            )
            # A wild jumped in while a Flip's colour was still to be named (jump-in) has no
            # colour before it: nothing to bluff against.
            require(
                phase.color is not None or "jump-in" in state.ruleset.names,
                "phase.color",
                "R-FLIP-CHALLENGE: the colour before the wild, against which a bluff is judged",
            )
    if state.color is None:
        require(
            name in ("color", "flip-color"),
            "color",
            "R-FLIP-WILD: the colour to match is unnamed only while a wild's colour is to be named",
        )
    else:
        require(
            state.color in SIDE_COLORS[side],
            "color",
            f"R-FLIP-WILD: the colour to match is a colour of the {SIDE_NAMES[side]} side",
        )


def _explain(state: GameState, action: Action) -> tuple[str, str] | None:
    seat = action.seat
    verb = action.verb
    phase = state.phase
    current = state.current_player
    side = state.side
    if verb == "catch":
        return (
            "R-UNO-CATCH",
            f"seat {action.target} cannot be caught now: only a seat holding one card without "
            "having called UNO, before the next player begins their turn",
        )
    if verb == "uno":
        return "R-UNO-CALL", "call UNO holding two cards on your turn, or late, before being caught"
    if verb in ("challenge", "accept") and phase.name == "challenge" and seat != current:
        return "R-FLIP-CHALLENGE", f"only seat {current}, hit by the wild, may {verb} it"
    if verb in _TURN_VERBS and seat != current:
        return "R-FLIP-MATCH", f"it is seat {current}'s turn, not seat {seat}'s"
    if phase.name == "penalty":
        return "R-FLIP-D1", f"seat {seat} must draw and lose the turn"
    if phase.name == "challenge":
        return (
            "R-FLIP-CHALLENGE",
            "hit by a Wild Draw Two or Wild Draw Colour: challenge it or accept and draw",
        )
    if phase.name in ("color", "flip-color"):
        colors = " ".join(c.value for c in _side_colors(state))
        return (
            "R-FLIP-WILD",
            f"name the colour of the wild on top first, one of {colors} ('color {colors[0]}')",
        )
    if verb in ("challenge", "accept"):
        return "R-FLIP-CHALLENGE", "only the seat hit by a Wild Draw Two or Wild Draw Colour may challenge"
    if verb == "pass":
        return "R-FLIP-MATCH", "pass only after drawing a playable card, to keep it"
    if verb == "draw" and phase.name == "drawn":
        return "R-FLIP-MATCH", "one draw per turn: play the card just drawn or keep it ('pass')"
    if verb == "draw":
        return "R-FLIP-MATCH", "the piles are empty and you can play: play a card"
    if verb == "color":
        return "R-FLIP-WILD", "name a wild's colour when playing it ('play W R')"
    card = action.card
    if verb != "play" or card is None:
        return None
    if card.faces:
        return (
            "R-FLIP-VIEW",
            f"name a card by the face it shows ('play {card.faces[side]}'), never by its back",
        )
    try:
        index = state.hand_index(seat, card, action.nth)
    except ValueError:
        which = "" if action.nth is None else f" {action.nth}"
        return "R-FLIP-MATCH", f"seat {seat} holds no{which} card showing {card}"
    if phase.name == "drawn" and index != _drawn_index(state.hands[seat], phase.card):
        return "R-FLIP-MATCH", "after drawing you may play only the card just drawn"
    if card.color is None:
        if action.color is None:
            return "R-FLIP-WILD", f"name the colour for {card}, e.g. 'play {card} {_side_colors(state)[0]}'"
        if action.color not in _side_colors(state):
            return "R-FLIP-WILD", f"name a colour of the {SIDE_NAMES[side]} side, not {action.color}"
        if not state.matches(seat, card):
            rule = "R-FLIP-WD2" if card.kind == "W+2" else "R-FLIP-WDC"
            return rule, f"{card} may be played only without a card of the current colour ({state.color})"
    elif action.color is not None:
        return "R-FLIP-MATCH", f"{card} is not a wild: it takes no colour"
    if action.target is not None and not state.ruleset.needs_target(card):
        return "R-FLIP-MATCH", f"{card} takes no target seat"
    if card.color is not None and not state.matches(seat, card):
        top = state.face(state.top_card)
        return (
            "R-FLIP-MATCH",
            f"{card} matches neither the colour {state.color} nor the {top} by number or symbol",
        )
    return None


plugin = FlipPlugin()
"""The plugin object the ``unorules`` entry point ``flip`` names."""

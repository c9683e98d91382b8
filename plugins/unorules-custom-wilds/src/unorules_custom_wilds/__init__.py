"""Customizable ("write your own") wilds and the library's card effects (R-CUSTOM).

The 2015 edition has three blank wilds on which the table writes any rule
[E15][PL]. This plugin deals them, binds each to an **effect**, ships the
ten example rules of the sources as ready effects, and is the library's extension
point for card effects: a program or another plugin supplies more.

Enable it next to ``classic``::

    unorules.Ruleset.from_names(
        ["classic", "custom-wilds"],
        options={"custom_wild_1": "extra-turn", "custom_wild_2": "C6"},
    )

The 112-card deck
-----------------

The whole deck of the 2015 edition (R-DECK-112: the classic 108 cards, Swap
Hands and the three customizable wilds) is this line::

    unorules.Ruleset.from_names(["classic", "swap-hands", "custom-wilds"])

Put ``shuffle-hands`` in the place of ``swap-hands`` for the Polish deck [PL].
Without ``swap-hands`` and with ``customizable_wilds=0`` the game is the
classic one [E15].

Rules
-----

R-CUSTOM
    A customizable wild is a wild: playable on any card, even when another card
    could be played, and its player names the colour (R-TURN-WILD). Then its
    effect happens. A card without an effect is a plain wild.
R-DECK-112
    Before the game the table decides how many of the three cards are used
    (option ``customizable_wilds``). [E15] says "one or all three"; 0 is this
    library's extension.
R-SETUP-STARTER
    Turned as the starter, the first player names the colour and the effect
    does not happen (classic does this for every colourless starter other than
    a Wild Draw Four).
R-SCORE
    Each is worth 40 points [E15].

Notation
--------

The cards are the wild kinds ``CW1``, ``CW2`` and ``CW3``: distinct kinds, so a
game can bind each to a different effect. With ``customizable_wilds=n`` the
deck holds ``CW1`` to ``CWn``. They are played with a colour::

    1: play CW2 G         seat 1 plays customizable wild 2 and names green

Options
-------

``customizable_wilds`` (default ``3``)
    How many of the three cards are in the deck: 0, 1, 2 or 3.
``custom_wild_1``, ``custom_wild_2``, ``custom_wild_3`` (default ``none``)
    The name of the effect bound to ``CW1``, ``CW2``, ``CW3`` (case does not
    matter; ``none`` or ``""`` for a plain 40-point wild). Names are checked
    when the rule set is built: an unknown name fails with the list of known
    effects, and binding a card that is not used (``custom_wild_3`` with
    ``customizable_wilds=2``) fails too.

Ready effects
-------------

=======================  =====  ====================================================================
effect name              alias  what happens when the card is played
=======================  =====  ====================================================================
``draw-until-color``     C1     The next player draws one card at a time until they draw a card of
                                the colour named with the wild (wilds have no colour), then loses
                                the turn. Phase ``draw-color``: their only action is ``draw``.
``discard-wilds``        C2     Every other player discards all their colourless cards (Wild, Wild
                                Draw Four and every special wild) under the top card ([E15] HU, CZ, SK).
``discard-specials``            C2 as the Polish text has it: every other player discards all
                                their wild **and** action cards (Skip, Reverse, Draw Two).
``cannot-play-draw-3``   C3     If the next player holds no card they could play, they draw three
                                cards and lose the turn (classic's ``penalty`` phase, count 3).
``extra-turn``           C4     Its player takes another turn at once.
``next-to-7``            C5     The next player draws, or discards cards of their choice, until
                                they hold exactly 7; then they take their turn.
``all-to-3``             C6     Every player draws or discards (their choice) until they hold
                                exactly 3, in the order of play from the next player, ending with
                                the card's player; then the next player takes their turn.
``open-hands``           C7     Every hand is open to everyone until the card's player's next turn:
                                ``state.view(seat)`` shows every hand until then.
``joke``                 C8     Its player tells a joke; the table answers: nobody laughed (its
                                player draws 4) or somebody did (its player keeps one card of their
                                choice, discards the rest and must call "UNO").
``stiff-elbows``         C9     The next player may not bend their elbows until someone calls UNO:
                                a ``table-rule`` event is recorded; no card moves.
``crow-or-draw-4``       C10    The next player crows like a rooster or draws 4 and loses the turn
                                ([E15] PL and [PL]).
``crow-and-draw-4``             C10 as the Hungarian, Czech and Slovak texts have it: the next
                                player crows **and** draws 4 (classic's ``penalty`` phase).
=======================  =====  ====================================================================

Phases and verbs
----------------

Phases (``state.phase.name``) this plugin owns; ``phase.card`` is the
customizable wild and ``phase.seat`` its player:

* ``draw-color`` (C1): the seat to move must ``draw``; ``phase.color`` is the colour to draw to.
* ``discard`` (C5, C6): the seat to move must ``discard`` ``phase.count`` more cards, one
  action per card (``"2: discard R7"``). ``phase.data`` is the seat to play afterwards
  followed by ``(seat, size)`` pairs still to be brought to size.
* ``joke`` (C8): the seat after the joke's teller answers for the table: ``laughed`` or ``nolaugh``.
* ``keep`` (C8): the teller keeps one card (``"1: keep G4"``) and discards the rest.
* ``rooster`` (C10): the seat to move chooses ``crow`` or ``draw``.

Verbs this plugin registers: ``discard <card>``, ``keep <card>``, ``laughed``,
``nolaugh``, ``crow``. UNO calls and catches stay legal in every phase
(classic's R-UNO-SELF and R-UNO-CATCH).

Writing an effect
-----------------

An effect is an :class:`Effect`: a name, a summary and a ``play`` function
``play(draft, action, previous) -> None``. ``draft`` is the game just after
the card was played (the card on the discard pile, the named colour in
``draft.color``, the player's hand without it and not empty, the player still
``current_player``), ``action`` the play and ``previous`` the state before it.
``play`` carries the effect out through the draft's mechanics (``draw``,
``set_hands``, ``add_event``, ``pass_turn`` ...) and :func:`discard_under`,
and must pass the turn, usually with ``draft.pass_turn(1, action.seat)``. An
optional ``last_card`` function says what still happens when the card was
its player's last one (the round then ends; the core ends it, and the
function must not); without it the round simply ends (R-OUT). An effect
that empties a hand some other way calls ``draft.went_out(seat)`` for it and
leaves the round's end to the core.

Supply effects in either of two ways:

* the hook ``custom_wild_effects(ruleset)`` (this plugin's extension point,
  declared by :class:`CustomWildSpecs`): any plugin in the rule set may
  implement it and return effects. Such a plugin names ``custom-wilds`` in its
  ``requires``, since the hook exists only where this plugin is. An effect
  that needs its own phases or verbs lives in such a plugin, which implements
  ``legal_actions``, ``apply_action`` and ``explain_illegal`` for them;
* :func:`register_effect`, at import time, for every rule set of the process
  (convenient for programs; keeps ``GameState.from_json`` able to rebuild the
  rule set from its names alone).

For example::

    def everyone_draws_one(draft, action, previous):
        for seat in draft.active_seats:
            if seat != action.seat:
                draft.draw(seat, 1, "effect")
        draft.pass_turn(1, action.seat)

    class MyEffects:
        name = "my-effects"
        api_version = 2
        requires = ("custom-wilds",)

        @unorules.hookimpl
        def custom_wild_effects(self, ruleset):
            return [Effect("everyone-draws-one", "every other player draws a card", everyone_draws_one)]

    rules = unorules.Ruleset.from_names(
        ["classic", "custom-wilds"], options={"custom_wild_1": "everyone-draws-one"}, plugins=[MyEffects()]
    )

Two different effects with the same name or alias are refused when the rule
set is built.

Decisions where the rules are silent
------------------------------------

* **Losing the turn.** Effects that make the next player draw cards as a
  punishment (C1, C3, C10) cost them the turn, as the deck's own Draw Two and
  Wild Draw Four do (R-ACT-D2, R-TURN-WD4). Effects that set hand sizes (C5,
  C6) and a crow (C10) do not. A crow, like a laugh, is the table's word,
  given as an action.
* **C1's colour** is the colour named with the wild: one choice names both.
  With no card of that colour left to draw, the player draws every card left
  in the draw and discard piles (reshuffling as usual) and stops.
* **Discards** (C2, C5, C6, C8) go under the top card of the discard pile: the
  top card and the colour to match do not change.
* **C2 empties a hand.** A player whose hand held only wild cards has got rid
  of every card: they go out (the core's going-out question,
  ``draft.went_out``), so they win the round (R-OUT), the first such seat in
  the order of play if there are several; under ``last-loses`` each leaves the
  round instead, and play goes on.
* **C2's "wild cards".** The Hungarian, Czech and Slovak texts discard wild
  cards; the Polish "special cards" are every symbol card (two readings
  of the text): two effects, ``discard-wilds`` (C2) and ``discard-specials``.
* **C8's table.** The player after the teller answers for the table. After
  keeping one card the teller holds one card without having called "UNO": they
  may call it late, or be caught, as classic's R-UNO-SELF and R-UNO-CATCH say.
  A teller holding one card when it was laughed at keeps it.
* **C10** is "crow *or* draw 4" in the Polish text and "crow *and* draw 4" in
  the others: two effects, ``crow-or-draw-4``
  (C10) and ``crow-and-draw-4``.
* **C7's end.** Hands close when the card's player is next the seat to move
  (their next turn, whatever they are asked to do then), and at the end of the
  round. Two open-hands cards in a row keep hands open until both players'
  next turns.
* **UNO after an effect.** UNO calls follow the cards (the core's rule for
  every change of hands: ``Draft.set_hands``, ``Draft.discard_under``): a
  seat whose hand an effect changes without a play, by discards (C2, C5, C6)
  or draws, is no longer open to a catch, and a seat that discards loses any
  UNO call it made for the hand it held. So a seat that called UNO holding two
  cards, then drew instead of playing (three cards), and discards a wild to C2
  must call again before playing down to one card, or be caught. C8's teller
  is the only seat an effect exposes (the card's text says to call "UNO").
* **Round length.** Effects that make players draw (C1, C3, C5, C6, C8, C10)
  lengthen rounds: the plugin declares ``TestHints(round_length_factor=1.5)``
  for the testing toolkit's bound on the actions of a round.
* **The last card.** A customizable wild played as its player's last card ends
  the round (R-OUT) and its effect does not happen, except C1: as with a Draw
  Two or Wild Draw Four played last (R-OUT-LAST-DRAW), the next player still
  draws until the colour, and those cards count in the score. What a last card
  means is the core's going-out question (``draft.going_out``): when its
  player only leaves the round (``last-loses``), the wild is played as a plain
  Wild (as a last ``W`` is: the next seat plays), without its effect, which
  needs its player; it never wins the round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from unorules import (
    PLAY,
    Action,
    Card,
    Draft,
    Event,
    EventSpec,
    ExtraSpec,
    GameState,
    Option,
    Phase,
    PhaseSpec,
    Plugin,
    Ruleset,
    RulesetError,
    TestHints,
    hookimpl,
    one_of,
)
from unorules.validate import check_seat, check_seats, require

__all__ = [
    "CUSTOM_WILDS",
    "READY_EFFECTS",
    "CustomWildSpecs",
    "CustomWildsPlugin",
    "Effect",
    "bound_effect",
    "discard_under",
    "known_effects",
    "plugin",
    "register_effect",
]

from unorules_custom_wilds.effects import (
    _CUSTOM,
    _NAME,
    _OWN_VERBS,
    _PHASE_VERBS,
    _REGISTERED,
    _TABLE_KEY,
    CUSTOM_WILDS,
    DISCARD,
    DRAW_COLOR,
    JOKE,
    KEEP,
    OPEN_HANDS,
    POINTS,
    READY_EFFECTS,
    ROOSTER,
    UNBOUND,
    CustomWildSpecs,
    Effect,
    _adjust,
    _close_window,
    _draw_until,
    _refresh_uno,
    _Table,
    _table,
    bound_effect,
    discard_under,
    known_effects,
    register_effect,
)

# -- options ---------------------------------------------------------------------------------------


def check_effect_name(value: Any) -> str:
    """Validate an effect binding's spelling; whether it exists is checked with the rule set."""
    if value is None:
        return UNBOUND
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not an effect name")
    name = value.strip().lower()
    if name in ("", UNBOUND):
        return UNBOUND
    if not _NAME.match(name):
        raise ValueError(f"{value!r} is not an effect name (a-z, 0-9 and '-')")
    return name


def _binding_option(i: int) -> Option:
    return Option(
        f"custom_wild_{i}",
        UNBOUND,
        f"the effect bound to CW{i} (none: a plain 40-point wild) (R-CUSTOM)",
        check_effect_name,
        "an effect name such as extra-turn or C4, or none",
    )


# -- the plugin --------------------------------------------------------------------------------------


def _joke_text(event: Event) -> str:
    """How the table's verdict on a joke reads (R-CUSTOM C8)."""
    if event.value("laughed"):
        return "{seat} told a joke and somebody laughed"
    return "{seat} told a joke and nobody laughed"


class CustomWildsPlugin(Plugin):
    """The 2015 edition's write-your-own wilds, bound to ready or supplied effects (R-CUSTOM).

    Deals the customizable wilds and carries out the effects bound to them.
    """

    name = "custom-wilds"
    api_version = 2
    requires = ("classic",)
    rules = ("R-CUSTOM", "R-DECK-112", "R-SETUP-STARTER", "R-SCORE")
    verbs: ClassVar[Mapping[str, str]] = {
        "discard": "turn",
        "keep": "turn",
        "laughed": "turn",
        "nolaugh": "turn",
        "crow": "turn",
        "draw": "turn",
    }
    events = (
        EventSpec(
            "custom-wild",
            "a customizable wild was played; its effect follows (R-CUSTOM)",
            (
                ("seat", "the seat that played it"),
                ("cards", "the card"),
                ("data.effect", "the effect's name"),
            ),
            "{seat} played {cards}: {data[effect]}",
        ),
        EventSpec(
            "discard",
            "a seat discarded cards under the top card (R-CUSTOM C5, C6)",
            (("seat", "the seat"), ("cards", "the cards discarded"), ("count", "how many")),
            "{seat} put {cards} under the top card",
        ),
        EventSpec(
            "table-rule",
            "a social rule now binds a seat (R-CUSTOM C9)",
            (("seat", "the seat bound by it"),),
            "{seat} may not bend {seat:their} elbows until somebody calls UNO",
        ),
        EventSpec(
            "crow",
            "a seat crowed like a rooster (R-CUSTOM C10)",
            (("seat", "the seat that crowed"),),
            "{seat} crowed like a rooster",
        ),
        EventSpec(
            "joke",
            "the table judged a joke (R-CUSTOM C8)",
            (
                ("seat", "the teller"),
                ("data.laughed", "whether somebody laughed"),
                ("count", "the cards the teller draws (when nobody laughed)"),
            ),
            _joke_text,
        ),
    )
    phases = (
        PhaseSpec(DRAW_COLOR, "draw until a card of the named colour comes (an effect)"),
        PhaseSpec(DISCARD, "discard phase.count cards under the top card (an effect)"),
        PhaseSpec(JOKE, "the table answers whether anybody laughed at the joke (C8)"),
        PhaseSpec(KEEP, "keep one card and discard the rest (C8)"),
        PhaseSpec(ROOSTER, "crow like a rooster or draw 4 (C10)"),
    )
    extras = (ExtraSpec(OPEN_HANDS, "R-CUSTOM C7: the seats whose open-hands card is in force", public=True),)
    options = (
        Option(
            "customizable_wilds",
            3,
            "how many of the 3 customizable wilds are in the deck (R-DECK-112)",
            one_of(0, 1, 2, 3),
            "0, 1, 2, 3",
        ),
        _binding_option(1),
        _binding_option(2),
        _binding_option(3),
    )
    hookspecs = CustomWildSpecs
    # For unorules.testing: effects that make players draw lengthen rounds (random
    # play at ten seats took 1.1-1.2 times as many actions per round as classic),
    # and the three cards are bound to every ready effect in turn, so property
    # tests and the conformance runner exercise them all.
    testing = TestHints(
        round_length_factor=1.5,
        option_values={
            f"custom_wild_{i}": tuple(e.name for e in READY_EFFECTS[i - 1 :: 3]) for i in (1, 2, 3)
        },
        open_hands_while=(OPEN_HANDS,),  # C7: every hand is open while the extra is set
    )

    # -- building ----------------------------------------------------------------------------------

    @hookimpl
    def deck_cards(self, ruleset: Ruleset) -> Iterable[Card]:
        return CUSTOM_WILDS[: ruleset.options["customizable_wilds"]]  # R-DECK-112

    @hookimpl
    def card_points(self, ruleset: Ruleset, card: Card) -> int | None:
        return POINTS if card in _CUSTOM else None  # R-SCORE: 40 [E15]

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        known: dict[str, Effect] = {}

        def add(effect: Any, source: str) -> None:
            if not isinstance(effect, Effect):
                raise RulesetError(
                    f"{source} offered {effect!r}, which is not an unorules_custom_wilds.Effect"
                )
            for key in (effect.name, *effect.aliases):
                other = known.get(key)
                if other is not None and other != effect:
                    raise RulesetError(
                        f"two different effects are named {key!r} ({other.summary!r} and "
                        f"{effect.summary!r}, from {source}): rename one"
                    )
                known[key] = effect

        for effect in READY_EFFECTS:
            add(effect, "the ready effects")
        for effect in _REGISTERED.values():
            add(effect, "register_effect")
        for offered in ruleset.hook.custom_wild_effects(ruleset=ruleset):
            for effect in offered:
                add(effect, "a plugin's custom_wild_effects hook")
        count = ruleset.options["customizable_wilds"]
        bound: dict[Card, Effect] = {}
        for i, card in enumerate(CUSTOM_WILDS, 1):
            name = ruleset.options[f"custom_wild_{i}"]
            if name == UNBOUND:
                continue
            if i > count:
                raise RulesetError(
                    f"option custom_wild_{i} binds {name!r} to CW{i}, but only {count} customizable "
                    f"wild(s) are used (option customizable_wilds)"
                )
            chosen = known.get(name)
            if chosen is None:
                listed = ", ".join(
                    e.name + (f" ({'/'.join(a.upper() for a in e.aliases)})" if e.aliases else "")
                    for e in dict.fromkeys(known.values())
                )
                raise RulesetError(
                    f"option custom_wild_{i}: no effect named {name!r}; known effects: {listed}"
                )
            bound[card] = chosen
        ruleset.cache[_TABLE_KEY] = _Table(known, bound)

    # -- playing -----------------------------------------------------------------------------------

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        if card is None or card not in _CUSTOM:
            return None
        effect = _table(draft.ruleset).bound.get(card)
        if effect is None:
            return None  # R-CUSTOM: without an effect, a plain wild
        seat = action.seat
        out = draft.going_out(seat)
        if out is not None:
            # Its player's last card: what that means is the core's going-out question.
            if not out.ends or effect.last_card is None:
                # R-OUT: the round ends (the core ends it) and the effect does not happen;
                # or its player left the round (R-HOUSE-LAST-LOSES) and it is played as
                # a plain wild: the effect needs its player.
                return None
            draft.add_event(_played(effect, seat, card))
            effect.last_card(draft, action, previous)  # R-OUT-LAST-DRAW by analogy
            return True
        draft.add_event(_played(effect, seat, card))
        effect.play(draft, action, previous)
        return True

    @hookimpl
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        name = state.phase.name
        if name not in _PHASE_VERBS:
            return ()
        seat = state.current_player
        if name == DISCARD:
            return [Action.of(seat, "discard", c) for c in dict.fromkeys(state.hands[seat])]
        if name == KEEP:
            return [Action.of(seat, "keep", c) for c in dict.fromkeys(state.hands[seat])]
        if name == JOKE:
            return (Action.of(seat, "laughed"), Action.of(seat, "nolaugh"))
        if name == ROOSTER:
            return (Action.of(seat, "crow"), Action.of(seat, "draw"))
        return (Action.of(seat, "draw"),)  # DRAW_COLOR

    @hookimpl(tryfirst=True)
    def apply_action(self, draft: Draft, action: Action) -> bool | None:
        # An answer to an effect's phase (R-CUSTOM); every other action is the rest's.
        if draft.phase.name in _PHASE_VERBS and _answer(draft, action):
            return True
        return None

    @hookimpl
    def after_action(self, draft: Draft, before: GameState) -> None:
        # C7: hands close when the open-hands card's player is next to move, and
        # at the end of a round.
        owners = draft.extra(OPEN_HANDS) if draft.extras else None
        if owners is not None:
            rest = _open_after(before, draft, owners)
            if rest is not owners:
                draft.set_extra(OPEN_HANDS, rest)

    @hookimpl
    def check_state(self, state: GameState) -> None:
        _check_state(state)

    @hookimpl
    def visible_hands(self, state: GameState, seat: int) -> Iterable[int]:
        # C7: while an open-hands card is in force, every hand is open.
        if state.extras and state.extra(OPEN_HANDS):
            return range(len(state.hands))
        return ()

    @hookimpl
    def explain_illegal(self, state: GameState, action: Action) -> tuple[str, str] | None:
        verb = action.verb
        if verb in ("uno", "catch"):
            return None
        phase = state.phase
        name = phase.name
        current = state.current_player
        mine = name in _PHASE_VERBS or (name == "penalty" and phase.card in _CUSTOM)
        if not mine:
            if verb in _OWN_VERBS:
                return "R-CUSTOM", f"'{verb}' answers a customizable wild's effect, and none is asking now"
            return None
        if action.seat != current:
            return "R-CUSTOM", f"seat {current} must answer the customizable wild's effect first"
        if name == "penalty":
            return (
                "R-CUSTOM",
                f"the customizable wild's effect: seat {current} must draw {phase.count} ('draw')",
            )
        if name == DRAW_COLOR:
            return "R-CUSTOM", f"draw until a {phase.color} card comes ('draw')"
        if name == DISCARD:
            if verb == "discard" and action.card is not None:
                return "R-CUSTOM", f"seat {current} holds no {action.card} to discard"
            return (
                "R-CUSTOM",
                f"discard {phase.count} more card(s) of your choice, "
                f"e.g. 'discard {state.hands[current][0]}'",
            )
        if name == KEEP:
            if verb == "keep" and action.card is not None:
                return "R-CUSTOM", f"seat {current} holds no {action.card} to keep"
            return "R-CUSTOM", f"keep one card of your hand, e.g. 'keep {state.hands[current][0]}'"
        if name == JOKE:
            return "R-CUSTOM", "answer for the table: 'laughed' (somebody laughed) or 'nolaugh' (nobody did)"
        return "R-CUSTOM", "crow like a rooster ('crow') or draw 4 ('draw')"


def _answer(draft: Draft, action: Action) -> bool:
    """Carry out ``action`` if it answers an effect's phase (R-CUSTOM); ``False``
    for any other action (UNO calls and catches)."""
    phase = draft.phase
    verbs = _PHASE_VERBS.get(phase.name)
    seat = action.seat
    if verbs is None or action.verb not in verbs or seat != draft.current_player:
        return False
    name = phase.name
    if name != JOKE:
        # The seat to move begins its turn (R-UNO-CATCH); a joke's answer is
        # the table's word, not the judge's turn.
        _close_window(draft, seat)
    if name == DISCARD:
        card = action.card
        assert card is not None
        discard_under(draft, seat, (card,))
        if phase.count > 1:
            _refresh_uno(draft)
            draft.phase = Phase(DISCARD, phase.count - 1, phase.card, phase.seat, data=phase.data)
        else:
            then, *queue = phase.data
            _adjust(draft, phase.card, phase.seat, tuple(queue), then)
    elif name == DRAW_COLOR:
        # C1: draw until the colour named, then lose the turn.
        _draw_until(draft, seat, phase.color)
        draft.pass_turn(1, seat)
    elif name == JOKE:
        teller = phase.seat
        assert teller is not None
        if action.verb == "nolaugh":
            # C8: nobody laughed: the teller draws 4; the judge then plays.
            draft.add_event(
                Event("joke", teller, (), "R-CUSTOM", "nobody laughed", count=4, data=(("laughed", False),))
            )
            draft.draw(teller, 4, "penalty")
            _refresh_uno(draft)
            draft.phase = PLAY
        else:
            draft.add_event(
                Event("joke", teller, (), "R-CUSTOM", "somebody laughed", data=(("laughed", True),))
            )
            if len(draft.hands[teller]) <= 1:
                draft.phase = PLAY
            else:
                draft.current_player = teller
                draft.phase = Phase(KEEP, 0, phase.card, teller, data=(seat,))
    elif name == KEEP:
        # C8: keep one card, discard the rest under the top card, and call UNO: the
        # teller now holds one card it did not call for (the draft exposes it).
        kept = action.card
        assert kept is not None
        rest = list(draft.hands[seat])
        rest.remove(kept)
        discard_under(draft, seat, rest)
        draft.current_player = phase.data[0]
        draft.phase = PLAY
    elif action.verb == "crow":  # ROOSTER (C10): crow and play on,
        draft.add_event(Event("crow", seat, (), "R-CUSTOM", "crows like a rooster"))
        draft.phase = PLAY
    else:  # or draw 4 and lose the turn.
        draft.draw(seat, phase.count, "penalty")
        draft.pass_turn(1, seat)
    return True


def _open_after(before: GameState, draft: Draft, owners: tuple[int, ...]) -> tuple[int, ...] | None:
    """C7: the seats whose open-hands card stays in force after an action in
    ``before``, where it was in force for ``owners``: ``owners`` itself when
    none closes, ``None`` when all do."""
    if not owners:
        return owners
    if len(draft.rounds) != len(before.rounds):
        return None
    current = draft.current_player
    if current in owners:
        return tuple(s for s in owners if s != current) or None
    return owners


def _check_state(state: GameState) -> None:
    """The effects' phases carry what their handlers need; the open hands are seats (R-CUSTOM)."""
    owners = state.extra(OPEN_HANDS)
    if owners is not None:
        check_seats(state, owners, f"extras.{OPEN_HANDS}")
        require(
            bool(owners), f"extras.{OPEN_HANDS}", "R-CUSTOM C7: the seats whose open-hands card is in force"
        )
    phase = state.phase
    name = phase.name
    if name not in _PHASE_VERBS or state.outcome is not None:
        return  # not an effect's phase, or the game is over and the last phase stays as it was
    seat = state.current_player
    hand = state.hands[seat]
    require(phase.card is not None, "phase.card", f"R-CUSTOM: phase {name!r} names the customizable wild")
    if name == DRAW_COLOR:
        require(phase.color is not None, "phase.color", "R-CUSTOM C1: the colour to draw until")
    elif name == DISCARD:
        require(
            1 <= phase.count <= len(hand),
            "phase.count",
            f"R-CUSTOM C5/C6: the seat to move discards 1 to {len(hand)} card(s) (its hand)",
        )
        data = phase.data
        require(
            len(data) % 2 == 1,
            "phase.data",
            "R-CUSTOM C5/C6: the seat that plays next, then (seat, hand size) pairs still to adjust",
        )
        check_seat(state, data[0], "phase.data[0]", in_play=True)
        for i in range(1, len(data), 2):
            check_seat(state, data[i], f"phase.data[{i}]", in_play=True)
            size = data[i + 1]
            require(
                isinstance(size, int) and not isinstance(size, bool) and 0 <= size <= len(state.ruleset.deck),
                f"phase.data[{i + 1}]",
                "R-CUSTOM C5/C6: a hand size, from 0 to the deck's size",
            )
    elif name == JOKE:
        require(phase.seat is not None, "phase.seat", "R-CUSTOM C8: the seat that told the joke")
    elif name == KEEP:
        require(bool(hand), f"hands[{seat}]", "R-CUSTOM C8: the seat to move keeps one card of its hand")
        require(len(phase.data) == 1, "phase.data", "R-CUSTOM C8: the seat that plays next")
        check_seat(state, phase.data[0], "phase.data[0]", in_play=True)


def _played(effect: Effect, seat: int, card: Card) -> Event:
    return Event(
        "custom-wild",
        seat,
        (card,),
        effect.rule,
        f"{effect.name}: {effect.summary}",
        data=(("effect", effect.name),),
    )


plugin = CustomWildsPlugin()
"""The plugin object the ``unorules`` entry point ``custom-wilds`` names."""

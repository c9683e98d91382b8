"""The customizable wilds' cards, verbs and phases, the registry of effects, and the
ready effects (C1-C10) with the mechanics they share; the plugin binds them to its
cards (:mod:`unorules_custom_wilds`, which re-exports the public names)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from unorules import (
    PLAY,
    Action,
    Card,
    Color,
    Draft,
    Event,
    GameState,
    Phase,
    Ruleset,
    hookspec,
    register_kind,
    register_verb,
)

CUSTOM_WILDS: tuple[Card, ...] = tuple(
    Card.parse(register_kind(f"CW{i}", f"Customizable Wild {i}", wild=True).kind) for i in (1, 2, 3)
)
"""The three customizable wilds, ``CW1``, ``CW2`` and ``CW3``."""
_CUSTOM = frozenset(CUSTOM_WILDS)
POINTS = 40  # R-SCORE [E15]

register_verb(
    "discard",
    card="required",
    doc="discard a card of your hand under the top card (an effect)",
    text="{seat} put {card} under the top card",
)
register_verb(
    "keep",
    card="required",
    doc="keep this card and discard the rest under the top card (C8)",
    text="{seat} kept {card} and put the rest under the top card",
)
register_verb(
    "laughed",
    doc="answer for the table: somebody laughed at the joke (C8)",
    text="{seat} answered for the table: somebody laughed at the joke",
)
register_verb(
    "nolaugh",
    doc="answer for the table: nobody laughed at the joke (C8)",
    text="{seat} answered for the table: nobody laughed at the joke",
)
register_verb(
    "crow", doc="crow like a rooster instead of drawing 4 (C10)", text="{seat} crowed like a rooster"
)

# Phases owned by the ready effects, and the verbs each accepts from the seat to move.
DRAW_COLOR, DISCARD, JOKE, KEEP, ROOSTER = "draw-color", "discard", "joke", "keep", "rooster"
_PHASE_VERBS: Mapping[str, frozenset[str]] = {
    DRAW_COLOR: frozenset({"draw"}),
    DISCARD: frozenset({"discard"}),
    JOKE: frozenset({"laughed", "nolaugh"}),
    KEEP: frozenset({"keep"}),
    ROOSTER: frozenset({"crow", "draw"}),
}
_OWN_VERBS = frozenset({"discard", "keep", "laughed", "nolaugh", "crow"})
OPEN_HANDS = "custom-wilds.open-hands"
"""``state.extras`` key: the seats whose open-hands card (C7) is in force."""

EffectFunction = Callable[[Draft, Action, GameState], None]
"""An effect's ``play`` (or ``last_card``): ``(draft, action, previous) -> None``."""
UNBOUND = "none"
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


def _check_name(instance: Any, attribute: Any, value: str) -> None:
    if not _NAME.match(value) or value == UNBOUND:
        raise ValueError(f"bad effect {attribute.name} {value!r}: use 1-40 of a-z, 0-9 and '-', not 'none'")


def _check_aliases(instance: Any, attribute: Any, value: tuple[str, ...]) -> None:
    for alias in value:
        _check_name(instance, attribute, alias)


@attrs.frozen
class Effect:
    """A rule written on a customizable wild (R-CUSTOM).

    ``play(draft, action, previous)`` carries it out and passes the turn (see
    the module documentation); ``last_card``, if given, is what still happens
    when the card was its player's last (the round then ends). ``name`` and
    ``aliases`` are what options bind cards with (lower case, digits, ``-``);
    ``rule`` is the rule id its events cite.
    """

    name: str = attrs.field(validator=_check_name)
    summary: str
    play: EffectFunction
    last_card: EffectFunction | None = None
    aliases: tuple[str, ...] = attrs.field(default=(), validator=_check_aliases)
    rule: str = "R-CUSTOM"


class CustomWildSpecs:
    """The extension point this plugin offers (its ``hookspecs``)."""

    @hookspec
    def custom_wild_effects(self, ruleset: Ruleset) -> Iterable[Effect]:
        """Offer effects that customizable wilds may be bound to in ``ruleset``.

        Called once when a rule set with ``custom-wilds`` is built, before the
        options ``custom_wild_1`` to ``custom_wild_3`` are resolved. Return the
        :class:`Effect` objects (may be empty); results of every plugin are
        merged with the ready effects and those of :func:`register_effect`.
        """
        return ()


_REGISTERED: dict[str, Effect] = {}


def register_effect(effect: Effect) -> Effect:
    """Make ``effect`` known to every rule set built from now on.

    Registering the same effect again is harmless; another effect under a name
    or alias already taken is a ``ValueError``.
    """
    for key in (effect.name, *effect.aliases):
        known = _REGISTERED.get(key) or _READY_BY_NAME.get(key)
        if known is not None and known != effect:
            raise ValueError(f"an effect named {key!r} is already registered: {known.summary!r}")
    for key in (effect.name, *effect.aliases):
        _REGISTERED[key] = effect
    return effect


@attrs.frozen
class _Table:
    """What one rule set knows: every effect by name and alias, and the bindings."""

    known: Mapping[str, Effect]
    bound: Mapping[Card, Effect]


_TABLE_KEY = ("custom-wilds", "effects")  # the rule set's _Table, in ruleset.cache


def known_effects(ruleset: Ruleset) -> Mapping[str, Effect]:
    """Every effect ``ruleset`` knows, by name and alias."""
    return _table(ruleset).known


def bound_effect(ruleset: Ruleset, card: Card) -> Effect | None:
    """The effect bound to customizable wild ``card`` in ``ruleset`` (``None``: a plain wild)."""
    return _table(ruleset).bound.get(card)


def _table(ruleset: Ruleset) -> _Table:
    table: _Table | None = ruleset.cache.get(_TABLE_KEY)
    if table is None:
        raise ValueError(f"{ruleset!r} has no custom-wilds plugin")
    return table


# -- mechanics shared by the ready effects -------------------------------------------------------


def discard_under(draft: Draft, seat: int, cards: Sequence[Card]) -> None:
    """``seat`` discards ``cards`` (one copy each) under the top card of the
    discard pile (the draft's :meth:`~unorules.Draft.discard_under`: the top
    card and the colour to match stay, the UNO calls follow the cards), with
    a ``discard`` event."""
    if not cards:
        return
    draft.discard_under(seat, cards)
    draft.add_event(Event("discard", seat, tuple(cards), "R-CUSTOM", "under the top card", count=len(cards)))


def _refresh_uno(draft: Draft) -> None:
    """Only a seat holding exactly one card stays open to a catch (R-UNO-CATCH)."""
    exposed = draft.uno_exposed
    if exposed:
        hands = draft.hands
        draft.end_exposure([s for s in exposed if len(hands[s]) != 1])


def _close_window(draft: Draft, seat: int) -> None:
    """A decision by the seat to move closes the other seats' UNO catch windows (R-UNO-CATCH)."""
    draft.end_exposure([s for s in draft.uno_exposed if s != seat])


def _draw_until(draft: Draft, seat: int, color: Color | None) -> None:
    """``seat`` draws one card at a time until one of ``color``, or nothing is left (C1)."""
    while True:
        drawn = draft.draw(seat, 1, "effect")
        if not drawn or drawn[0].color is color:
            return


def _adjust(draft: Draft, card: Card | None, owner: int | None, queue: tuple[int, ...], then: int) -> None:
    """Bring each ``(seat, size)`` pair of ``queue`` to size: draws happen at once,
    discards ask the seat to choose (phase ``discard``); then ``then`` plays (C5, C6)."""
    for i in range(0, len(queue), 2):
        seat, size = queue[i], queue[i + 1]
        held = len(draft.hands[seat])
        if held < size:
            draft.draw(seat, size - held, "effect")
        elif held > size:
            _refresh_uno(draft)
            draft.current_player = seat
            draft.phase = Phase(DISCARD, held - size, card, owner, data=(then, *queue[i + 2 :]))
            return
    _refresh_uno(draft)
    draft.current_player = then
    draft.phase = PLAY


def _emptied(draft: Draft, seat: int) -> list[int]:
    """The seats after ``seat`` left without cards, in the order of play."""
    hands = draft.hands
    found = []
    other = draft.next_seat(seat)
    while other != seat:
        if not hands[other]:
            found.append(other)
        other = draft.next_seat(other)
    return found


# -- the ready effects ----------------------------------------------------------------------------


def _c1_draw_until_color(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C1: the next player draws until the colour named (phase draw-color).
    draft.current_player = draft.next_seat(action.seat)
    draft.phase = Phase(DRAW_COLOR, 0, action.card, action.seat, draft.color)


def _c1_last_card(draft: Draft, action: Action, previous: GameState) -> None:
    # R-OUT-LAST-DRAW by analogy: the next player still draws, and it counts.
    _draw_until(draft, draft.next_seat(action.seat), draft.color)


def _discard_all(keep_out: Callable[[Card], bool]) -> EffectFunction:
    # R-CUSTOM C2: every other player discards the cards ``keep_out`` picks.
    def effect(draft: Draft, action: Action, previous: GameState) -> None:
        seat = action.seat
        other = draft.next_seat(seat)
        while other != seat:
            discard_under(draft, other, [c for c in draft.hands[other] if keep_out(c)])
            other = draft.next_seat(other)
        _refresh_uno(draft)
        # Decision (docstring): a seat left without cards has gone out, as the core's
        # going-out question says (R-OUT: the first in the order of play wins; under
        # last-loses each leaves the round). The core ends a round that ends.
        for out in _emptied(draft, seat):
            if draft.went_out(out).ends:
                return
        draft.pass_turn(1, seat)

    return effect


def _is_wild(card: Card) -> bool:
    return card.color is None


def _is_special(card: Card) -> bool:
    return card.color is None or card.number is None


def _c3_cannot_play_draw_3(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C3: a next player who cannot play draws three and loses the turn.
    victim = draft.next_seat(action.seat)
    if any(draft.matches(victim, c) for c in draft.hands[victim]):
        draft.pass_turn(1, action.seat)
        return
    # Classic's penalty phase: draw phase.count and lose the turn.
    draft.current_player = victim
    draft.phase = Phase("penalty", 3, action.card, action.seat)


def _c4_extra_turn(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C4: take another turn.
    draft.current_player = action.seat
    draft.phase = PLAY


def _c5_next_to_7(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C5: the next player draws or discards (their choice) to exactly 7.
    victim = draft.next_seat(action.seat)
    _adjust(draft, action.card, action.seat, (victim, 7), victim)


def _c6_all_to_3(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C6: every player, from the next one round to the card's player, to exactly 3.
    seat = action.seat
    order: list[int] = []
    other = draft.next_seat(seat)
    while other != seat:
        order += (other, 3)
        other = draft.next_seat(other)
    order += (seat, 3)
    _adjust(draft, action.card, seat, tuple(order), draft.next_seat(seat))


def _c7_open_hands(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C7: hands open until this player's next turn (visible_hands, after_action).
    owners: tuple[int, ...] = draft.extra(OPEN_HANDS, ())
    if action.seat not in owners:
        draft.set_extra(OPEN_HANDS, (*owners, action.seat))
    draft.pass_turn(1, action.seat)


def _c8_joke(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C8: the next player answers for the table (phase joke).
    draft.current_player = draft.next_seat(action.seat)
    draft.phase = Phase(JOKE, 0, action.card, action.seat)


def _c9_stiff_elbows(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C9: a social rule: only an event, no card moves.
    victim = draft.next_seat(action.seat)
    draft.add_event(
        Event(
            "table-rule",
            victim,
            (),
            "R-CUSTOM",
            f"seat {victim} may not bend their elbows until someone calls UNO",
        )
    )
    draft.pass_turn(1, action.seat)


def _c10_crow_or_draw_4(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C10 [PL]: crow or draw 4 (phase rooster).
    draft.current_player = draft.next_seat(action.seat)
    draft.phase = Phase(ROOSTER, 4, action.card, action.seat)


def _c10_crow_and_draw_4(draft: Draft, action: Action, previous: GameState) -> None:
    # R-CUSTOM C10 as [E15] HU/CZ/SK: crow and draw 4 (classic's penalty phase).
    victim = draft.next_seat(action.seat)
    draft.add_event(Event("crow", victim, (), "R-CUSTOM", "crows like a rooster"))
    draft.current_player = victim
    draft.phase = Phase("penalty", 4, action.card, action.seat)


READY_EFFECTS: tuple[Effect, ...] = (
    Effect(
        "draw-until-color",
        "the next player draws until they draw a card of the colour named, and loses the turn",
        _c1_draw_until_color,
        _c1_last_card,
        ("c1",),
    ),
    Effect(
        "discard-wilds",
        "every other player discards all their wild cards",
        _discard_all(_is_wild),
        aliases=("c2",),
    ),
    Effect(
        "discard-specials",
        "every other player discards all their wild and action cards",
        _discard_all(_is_special),
    ),
    Effect(
        "cannot-play-draw-3",
        "if the next player cannot play, they draw three cards",
        _c3_cannot_play_draw_3,
        aliases=("c3",),
    ),
    Effect("extra-turn", "take another turn", _c4_extra_turn, aliases=("c4",)),
    Effect(
        "next-to-7",
        "the next player draws or discards until they hold exactly 7 cards",
        _c5_next_to_7,
        aliases=("c5",),
    ),
    Effect(
        "all-to-3",
        "every player draws or discards until they hold exactly 3 cards",
        _c6_all_to_3,
        aliases=("c6",),
    ),
    Effect(
        "open-hands",
        "everyone plays with their hand open until your next turn",
        _c7_open_hands,
        aliases=("c7",),
    ),
    Effect(
        "joke",
        "tell a joke: if nobody laughs draw 4, otherwise discard all but 1 card (and call UNO)",
        _c8_joke,
        aliases=("c8",),
    ),
    Effect(
        "stiff-elbows",
        "the next player may not bend their elbows until someone calls UNO",
        _c9_stiff_elbows,
        aliases=("c9",),
    ),
    Effect(
        "crow-or-draw-4",
        "the next player must crow like a rooster or draw 4",
        _c10_crow_or_draw_4,
        aliases=("c10",),
    ),
    Effect(
        "crow-and-draw-4",
        "the next player must crow like a rooster and draw 4",
        _c10_crow_and_draw_4,
    ),
)
"""The sources' ten example rules (C1-C10) and the other readings of C2 and C10."""

_READY_BY_NAME: dict[str, Effect] = {key: e for e in READY_EFFECTS for key in (e.name, *e.aliases)}

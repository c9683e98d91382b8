"""The invariants that also look at a step: ``uno``, ``scores``, ``left`` and
``hidden`` as functions of a state, ``effect``, and :func:`check_step`, which checks the
state before an action against the state after it (see the table of
:mod:`unorules.testing.invariants`).

Part of :mod:`unorules.testing.invariants`, which re-exports every public name
of this module; import them from there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from unorules import CardEffect, TestHints
from unorules.actions import Action
from unorules.cards import Card
from unorules.ruleset import Ruleset
from unorules.state import Event, GameState
from unorules.testing.violations import (
    _after,
    _cached,
    _card_change,
    _cards_text,
    _deck_count,
    _fail,
    _unchanged,
    describe_difference,
)

__all__ = [
    "check_effect",
    "check_hidden_cards",
    "check_left",
    "check_scores",
    "check_shown_hands",
    "check_step",
    "check_uno",
]


# -- UNO calls, scores, seats that left, hidden cards --------------------------------------------


def _seats_text(seats: Iterable[int]) -> str:
    return ", ".join(map(str, seats)) or "none"


def check_uno(state: GameState) -> None:
    """UNO calls and catch windows agree with the hands (R-UNO-CALL, R-UNO-CATCH):
    every seat open to a catch (``uno_exposed``) is in the game and holds
    exactly one card; every seat that called (``uno_declared``) is in the
    game and holds cards; no seat is listed twice, nor both called and open to
    a catch. (The draft's mechanics keep these books; a hook that writes them
    by hand, or moves hands some other way, breaks them.)"""
    if state.is_over:
        return
    exposed = state.uno_exposed
    declared = state.uno_declared
    if not exposed and not declared:
        return
    hands = state.hands
    left = state.left
    for name, seats in (("uno_exposed", exposed), ("uno_declared", declared)):
        if len(set(seats)) != len(seats):
            raise _fail("uno", f"{_after(state)}, {name} lists a seat twice: {seats}")
        for seat in seats:
            if not 0 <= seat < len(hands) or seat in left:
                raise _fail("uno", f"{_after(state)}, {name} names seat {seat}, which is not in the game")
    for seat in exposed:
        held = len(hands[seat])
        if held != 1:
            raise _fail(
                "uno",
                f"{_after(state)}, seat {seat} is open to an UNO catch (uno_exposed) but holds {held} "
                "cards: only a seat holding one card without having called may be caught (R-UNO-CATCH); "
                "a hand changed by a mechanic (draw, set_hands, move_hands, discard_under) ends it",
            )
        if seat in declared:
            raise _fail(
                "uno",
                f"{_after(state)}, seat {seat} is both open to an UNO catch and listed as having called "
                "(R-UNO-CALL, R-UNO-SELF: a late call ends the exposure)",
            )
    for seat in declared:
        if not hands[seat]:
            raise _fail(
                "uno", f"{_after(state)}, seat {seat} holds no cards yet its UNO call stands (R-UNO-CALL)"
            )


def check_scores(state: GameState) -> None:
    """The scores are the sum of the points of the rounds played (only
    ``draft.end_round`` scores), the rounds are numbered 1, 2, ... and each
    round gives every seat a number of points."""
    players = state.players
    totals = [0] * players
    for i, result in enumerate(state.rounds):
        if result.number != i + 1:
            raise _fail(
                "scores", f"{_after(state)}, round {i + 1} of state.rounds is numbered {result.number}"
            )
        if len(result.points) != players:
            raise _fail(
                "scores",
                f"{_after(state)}, round {result.number} gives {len(result.points)} seats points, "
                f"not {players}",
            )
        for seat, points in enumerate(result.points):
            totals[seat] += points
    if tuple(totals) != state.scores:
        wrong = [
            f"seat {s} has {state.scores[s]}, its rounds gave {t}"
            for s, t in enumerate(totals)
            if state.scores[s] != t
        ]
        raise _fail(
            "scores",
            f"{_after(state)}, the scores are not the sum of the rounds' points ({'; '.join(wrong)}): "
            "points are scored once, by end_round, from score_round",
        )


def check_left(state: GameState) -> None:
    """A seat that has left the game holds no cards while the game goes on
    (it is dealt none, draws none and is given none)."""
    if state.is_over or not state.left:
        return
    for seat in state.left:
        hand = state.hands[seat]
        if hand:
            raise _fail(
                "left",
                f"{_after(state)}, seat {seat} has left the game but holds {len(hand)} card(s) "
                f"({_cards_text(Counter(hand))}): seats that left are dealt, given and drawn nothing",
            )


def _cards_in(value: Any) -> Iterator[Card]:
    """The cards inside a plugin value (nested tuples, phases, actions)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _cards_in(item)
    elif isinstance(value, Action) and value.card is not None:
        yield value.card


_VALUE_CARDS: dict[Any, tuple[Card, ...]] = {}


def _value_cards(value: Any) -> tuple[Card, ...]:
    """The cards inside ``value`` (see :func:`_cards_in`), remembered for values
    that come back state after state (an extra kept unchanged)."""
    if value is None or value == ():
        return ()
    try:
        found = _VALUE_CARDS.get(value)
    except TypeError:  # not hashable: not a valid plugin value, but not this check's business
        return tuple(_cards_in(value))
    if found is None:
        if len(_VALUE_CARDS) > 4096:
            _VALUE_CARDS.clear()
        found = _VALUE_CARDS[value] = tuple(_cards_in(value))
    return found


def _hidden_from(
    state: GameState, seat: int | None, visible: Callable[[int], frozenset[int]]
) -> Counter[Card]:
    """The cards in hands ``seat`` cannot see (``None``: hands some seat cannot see)."""
    hidden: Counter[Card] = Counter()
    seats = range(state.players)
    for other, hand in enumerate(state.hands):
        if not hand or other == seat:
            continue
        if seat is None:
            watchers = [v for v in seats if v != other and v not in state.left]
            if all(other in visible(v) for v in watchers):
                continue
        elif other in visible(seat):
            continue
        hidden.update(hand)
    return hidden


def _unexplained(
    shown: Counter[Card], deck: Counter[Card], hidden: Counter[Card], public_before: Counter[Card]
) -> list[Card]:
    """Cards of ``shown`` more copies of which are shown than are outside the
    ``hidden`` hands (or were face up before the action)."""
    return [
        card
        for card, n in shown.items()
        if n > deck[card] - hidden[card] + min(hidden[card], public_before[card])
    ]


def _shown_fields(state: GameState) -> list[tuple[str, list[Card]]]:
    """What every seat's view shows besides hands and piles, field by field (the
    phase's data, its card unless the phase is secret, the public extras): one
    card may be named by several fields (the phase and an extra keeping a copy
    of it), so each field is accounted for on its own."""
    phase = state.phase
    fields: list[tuple[str, list[Card]]] = []
    data = list(_value_cards(phase.data))
    if data:
        fields.append(("the phase's data", data))
    if phase.card is not None and not phase.secret:
        fields.append(("the phase", [phase.card]))
    if state.extras:
        public = state.ruleset.public_extras
        for key, value in state.extras:
            if key in public:
                cards = list(_value_cards(value))
                if cards:
                    fields.append((f"the public extra {key!r}", cards))
    return fields


def check_hidden_cards(state: GameState, before: GameState | None = None, *, events: bool = True) -> None:
    """No seat is shown a card it may not know: the cards a view holds outside
    the hands it may see (the phase's card unless the phase is ``secret``, the
    phase's data, the public extras) and the cards of public events must be
    accounted for by copies outside the hands hidden from that seat (on the
    discard pile, in the draw pile, set aside), or by what every seat saw
    before the action (face up, or named by the phase or a public extra: a
    plugin's extra keeping the phase a card was played in tells nothing new
    when a reshuffle has since put that card in a hand).

    With ``before`` (the state the last action was applied to) and
    ``events``, the public events of the last action are checked too (the
    step check's part: :func:`check_state` leaves them to it), unless the action ended a
    round (every hand is shown at the end of a round, in its result, and the
    next deal's starter is public). An event whose declared kind
    :attr:`~unorules.EventSpec.reveals` its cards (the rule shows them to
    every seat) is not checked. Copies of a card cannot be told apart, so a card is reported only
    when more copies are shown than can be outside hidden hands."""
    rules = state.ruleset
    phase = state.phase
    always = _shown_fields(state)
    secret: list[Card] = []
    if phase.card is not None and phase.secret:
        secret.append(phase.card)
    shown_events: list[Event] = []
    if (
        events
        and before is not None
        and state.last_action is not None
        and len(state.rounds) == len(before.rounds)
    ):
        specs = rules.events
        for event in state.events:
            if event.private or not (event.cards or event.data):
                continue
            spec = specs.get(event.kind)
            if spec is not None and spec.reveals:
                continue  # the rule shows these cards to every seat (EventSpec.reveals)
            shown_events.append(event)
    if not always and not secret and not shown_events:
        return
    deck = _deck_count(rules)
    held: list[Counter[Card]] = []

    def in_hands() -> Counter[Card]:
        if not held:
            cards: Counter[Card] = Counter()
            for hand in state.hands:
                cards.update(hand)
            held.append(cards)
        return held[0]

    cache: dict[int, frozenset[int]] = {}

    def visible(seat: int) -> frozenset[int]:
        found = cache.get(seat)
        if found is None:
            found = cache[seat] = rules.visible_hands(state, seat)
        return found

    def suspicious(cards: Iterable[Card]) -> Counter[Card]:
        # Only a card with more copies shown than lie outside every hand needs a
        # closer look; copies on the piles are counted first (the usual case:
        # the card just played).
        shown: dict[Card, int] = {}
        for card in cards:
            shown[card] = shown.get(card, 0) + 1
        discard, draw = state.discard_pile, state.draw_pile
        return Counter(
            {
                c: n
                for c, n in shown.items()
                if n > discard.count(c) + draw.count(c) and n > deck[c] - in_hands()[c]
            }
        )

    def public_before() -> Counter[Card]:
        if before is None:
            return Counter()
        # Face up, or named by what every seat saw: showing it again tells nothing new.
        shown = Counter(before.discard_pile)
        for _, cards in _shown_fields(before):
            shown |= Counter(cards)
        return shown

    fields = [(where, suspicious(cards)) for where, cards in always]
    fields = [(where, shown) for where, shown in fields if shown]
    if secret:
        fields.append(("the secret phase", suspicious(secret)))
    for where, shown in fields:
        if not shown:
            continue
        for seat in range(state.players):
            if where == "the secret phase" and seat != state.current_player:
                continue
            leaked = _unexplained(shown, deck, _hidden_from(state, seat, visible), public_before())
            if leaked:
                raise _fail(
                    "hidden",
                    f"{_after(state)}, seat {seat}'s view shows {_cards_text(Counter(leaked))} in {where}, "
                    "card(s) held in hands it may not see: keep hidden cards in private extras "
                    "(ExtraSpec(public=False)) or a secret phase (Phase(..., secret=True))",
                )
    for event in shown_events:
        shown = suspicious([*event.cards, *(c for _, v in event.data for c in _value_cards(v))])
        if not shown:
            continue
        leaked = _unexplained(shown, deck, _hidden_from(state, None, visible), public_before())
        if leaked:
            raise _fail(
                "hidden",
                f"{_after(state)}, the public {event.kind!r} event shows {_cards_text(Counter(leaked))}, "
                "held in a hand other seats may not see: an event showing hidden cards is private to "
                f"the seat allowed to see them (Event(..., private=True)); event: {event}",
            )


def _open_hands(state: GameState) -> bool:
    """Whether a plugin's declared open-hands rule is in force in ``state``
    (:attr:`~unorules.TestHints.open_hands_while`: one of its extras keys is set)."""
    if not state.extras:
        return False
    keys: frozenset[str] = _cached(
        state.ruleset,
        "open_hands_while",
        lambda rules: frozenset(
            key for p in rules.plugins for key in getattr(p, "testing", TestHints()).open_hands_while
        ),
    )
    return bool(keys) and any(key in keys for key, _ in state.extras)


def check_shown_hands(
    before: GameState, action: Action, after: GameState, shown: set[tuple[int, int]] | None = None
) -> None:
    """``hidden``, of the hands a seat is shown (``visible_hands``): the
    plugins' answer is not trusted alone. A seat may see another seat's hand
    after ``action`` only while a declared open-hands rule is in force
    (:attr:`~unorules.TestHints.open_hands_while`), when it could see that
    hand before the action (the plugin ends the showing), or when an event
    of the action showed that hand to that seat: a ``show`` event
    (``draft.show_hand(seat, to)``) whose ``target`` is the hand's seat and
    whose ``seat`` is the seat shown it (or every seat). Anything else is a
    leak, reported with the event that should have said it.

    ``shown``, kept by a caller checking a whole game, holds the ``(seat,
    other)`` pairs show events have shown so far this round (a rule that takes
    an action back restores the showing with the position): they stay known.
    An action that restores an earlier position (``draft.restore``, whose
    ``move`` events name cards ``taken``) is not checked: the showing it
    brings back was checked when it began."""
    rules = after.ruleset
    if shown is not None:
        if len(after.rounds) != len(before.rounds):
            shown.clear()
        for event in after.events:
            if event.kind == "show" and event.target is not None:
                seats = range(after.players) if event.seat is None else (event.seat,)
                shown.update((seat, event.target) for seat in seats)
    if rules.hooks.visible_hands is None or after.is_over or _open_hands(after):
        return
    if any(e.kind == "move" and "taken" in (e.value("from"), e.value("to")) for e in after.events):
        return  # the action took an earlier one back (draft.restore): what was shown then is shown again
    shows: list[Event] | None = None
    for seat in range(after.players):
        seen = rules.visible_hands(after, seat)
        if not seen:
            continue
        new = seen - rules.visible_hands(before, seat) if not _open_hands(before) else frozenset()
        if not new:
            continue
        if shows is None:
            shows = [e for e in after.events if e.kind == "show"]
        for other in sorted(new):
            if not after.hands[other]:
                continue  # an empty hand shows nothing
            if any(e.target == other and (e.seat is None or e.seat == seat) for e in shows):
                continue
            if shown is not None and (seat, other) in shown:
                continue  # shown earlier this round: a position restored brings the showing back
            said = "; ".join(str(e) for e in shows) or "none"
            raise _fail(
                "hidden",
                f"after {action}, seat {seat} is shown seat {other}'s hand (visible_hands) though no event "
                f"showed it that hand: the show event that should have said it is "
                f"draft.show_hand({other}, to={seat}) (show events of the action: {said}); a rule that "
                "opens every hand declares the extras key it keeps while they are open "
                "(TestHints(open_hands_while=...))",
            )


def _effects(ruleset: Ruleset) -> dict[str, tuple[CardEffect, ...]]:
    """The declared card effects of the rule set's plugins, by card kind."""

    def compute(rules: Ruleset) -> dict[str, tuple[CardEffect, ...]]:
        found: dict[str, tuple[CardEffect, ...]] = {}
        for plugin in rules.plugins:
            for effect in getattr(getattr(plugin, "testing", TestHints()), "effects", ()):
                found[effect.kind] = (*found.get(effect.kind, ()), effect)
        return found

    return _cached(ruleset, "effects", compute)


def _selected(cards: Counter[Card], played: Card, color: Any, which: str) -> Counter[Card]:
    if which == "all":
        return Counter(cards)
    if which == "kind":
        return Counter({c: n for c, n in cards.items() if c.kind == played.kind})
    return Counter({c: n for c, n in cards.items() if c.color is not None and c.color is color})


def check_effect(before: GameState, action: Action, after: GameState) -> None:
    """``effect``: a play of a card whose kind a plugin declares a
    :class:`~unorules.CardEffect` for (:attr:`TestHints.effects
    <unorules.TestHints.effects>`) did what the declaration says: its
    player keeps exactly the cards the effect does not discard (cards it
    drew in the action aside), the turn passed by the declared seats, the
    next seat drew the declared cards. A last card is not checked (going
    out is the core's), nor a play after which its player still holds the
    card (a misplay taken back), nor a play in a phase the declaration leaves out;
    the turn and the draws only while the phase stays the same (another
    plugin's phase, a stack, takes the effect over)."""
    card = action.card
    seat = action.seat
    if card is None or seat is None:
        return
    face = before.face(card)
    declared = _effects(after.ruleset).get(face.kind)
    if not declared:
        return
    hand = before.hands[seat]
    if len(hand) <= 1 or card not in hand:
        return
    ended = len(after.rounds) != len(before.rounds) or after.is_over
    held_after = after.rounds[-1].hands[seat] if ended else after.hands[seat]
    if held_after.count(card) >= hand.count(card):
        return  # not carried out as a play: refused as a misplay and kept (R-HOUSE-MISPLAY), say
    phase = before.phase.name
    for effect in declared:
        if effect.phases and phase not in effect.phases:
            continue
        what = f"after {action} (a {face.kind} played in the {phase!r} phase)"
        if effect.discards is not None:
            rest = Counter(before.face(c) for c in hand)
            rest[face] -= 1
            rest = +rest
            color = face.color if face.color is not None else action.color
            expected = rest - _selected(rest, face, color, effect.discards)
            held = held_after
            drew = Counter(
                after.face(c) for e in after.events if e.kind == "draw" and e.seat == seat for c in e.cards
            )
            found = Counter(after.face(c) for c in held) - drew
            if found != expected:
                parts = []
                if found - expected:
                    parts.append(f"it still holds {_cards_text(found - expected)}, which the effect discards")
                if expected - found:
                    parts.append(
                        f"it no longer holds {_cards_text(expected - found)}, which the effect keeps"
                    )
                raise _fail(
                    "effect",
                    f"{what}, seat {seat}'s hand is not what the declared effect leaves "
                    f"(CardEffect({face.kind!r}, discards={effect.discards!r})): {'; '.join(parts)}",
                )
        if ended or after.phase.name != phase:
            continue
        if effect.passes is not None:
            wanted = before.next_seat(seat, effect.passes) if effect.passes else seat
            if after.current_player != wanted:
                raise _fail(
                    "effect",
                    f"{what}, seat {after.current_player} is to move, not seat {wanted}: the declared "
                    f"effect passes the turn by {effect.passes} "
                    f"(CardEffect({face.kind!r}, passes={effect.passes}))",
                )
        if effect.next_draws is not None:
            target = before.next_seat(seat)
            drawn = sum(
                e.count if e.count is not None else len(e.cards)
                for e in after.events
                if e.kind == "draw" and e.seat == target
            )
            if drawn != effect.next_draws:
                raise _fail(
                    "effect",
                    f"{what}, seat {target} drew {drawn} card(s), not {effect.next_draws}: the declared "
                    f"effect makes the next seat draw {effect.next_draws} "
                    f"(CardEffect({face.kind!r}, next_draws={effect.next_draws}))",
                )


def _check_left_step(before: GameState, action: Action, after: GameState) -> None:
    """``left``, of a step: a seat that had left and holds cards after the
    action is reported with where its cards came from (the hand of which
    seat, by the action) and which seat in the game was handed its empty
    hand, so the report names the rule that moved hands among every seat
    rather than the seats still in the game."""
    for seat in before.left:
        if before.hands[seat] or not after.hands[seat] or seat not in after.left:
            continue
        got = after.hands[seat]
        origin = [
            o for o, hand in enumerate(before.hands) if o != seat and hand and Counter(hand) == Counter(got)
        ]
        emptied = [
            o for o, hand in enumerate(after.hands) if not hand and o not in after.left and before.hands[o]
        ]
        source = f"seat {origin[0]}'s hand" if origin else f"{len(got)} card(s)"
        raise _fail(
            "left",
            f"after {action}, seat {seat}, which has left the game, was handed {source} "
            f"({_cards_text(Counter(got))})"
            + (
                f", and seat {_seats_text(emptied)}, still in the game, was handed its empty hand"
                if emptied
                else ""
            )
            + ": a rule that passes or trades hands moves them among the seats still in the game "
            "(draft.active_seats, draft.next_seat), never to or from a seat that left",
        )


def _check_round_won(action: Action, after: GameState) -> None:
    """``hands``, of a round just ended: a round won by going out (reason
    ``"out"``) is won by a seat whose hand is empty (a last card's effect
    that hands cards to the winner, or hands the winner's empty hand on, is
    a rule run on the last card that should not be, R-OUT-LAST-DRAW)."""
    result = after.rounds[-1]
    winner = result.winner
    if result.reason != "out" or winner is None or not 0 <= winner < len(result.hands):
        return
    hand = result.hands[winner]
    if hand:
        empty = [s for s, h in enumerate(result.hands) if not h and s != winner]
        raise _fail(
            "hands",
            f"after {action}, round {result.number} ended won by seat {winner} going out, yet seat "
            f"{winner} holds {len(hand)} card(s) ({_cards_text(Counter(hand))})"
            + (f" while seat {_seats_text(empty)} holds none" if empty else "")
            + ": a last card's effect ran after its player went out (a card's effect reads "
            "draft.going_out(seat) and does only what a last card does, R-OUT-LAST-DRAW)",
        )


# -- one step: the state before an action and the state after it ---------------------------------


def _grew_only(before: Counter[Card], after: Counter[Card]) -> bool:
    return not (before - after)


def check_step(
    before: GameState,
    action: Action,
    after: GameState,
    *,
    snapshot: tuple[Any, ...] | None = None,
    again: bool = False,
    shown: set[tuple[int, int]] | None = None,
) -> None:
    """The invariants of one step, ``after = before.apply(action)`` (``shown``:
    see :func:`check_shown_hands`):

    * ``pure``: ``before`` is as it was (give ``snapshot``, taken with
      ``_snapshot(before)`` before applying, to check it);
    * ``scores``: the action ended at most one round;
    * ``left``: no seat that had left was made to draw;
    * ``uno``: a seat whose own action brought it down to one card, without
      having called, is open to a catch; a call made for that card is used;
      a hand that changed otherwise (traded, given, taken from) keeps no call
      and no exposure (R-UNO-CALL, R-UNO-CATCH). The books are the same under
      every rule set: whether anyone may catch an open seat is the rule set's
      ``legal_actions`` (one without catches offers none);
    * ``hidden``: see :func:`check_hidden_cards` and :func:`check_shown_hands`;
    * ``hands``: a round the action ended by going out was won by a seat
      holding no cards;
    * ``effect``: see :func:`check_effect`;
    * ``replay`` (with ``again``): applying the action to ``before`` once more
      gives an equal state.
    """
    if snapshot is not None and not _unchanged(before, snapshot):
        raise _fail(
            "pure",
            f"applying {action} changed the state it was applied to: {describe_difference(snapshot, before)}",
        )
    grew = len(after.rounds) - len(before.rounds)
    if not 0 <= grew <= 1:
        raise _fail(
            "scores",
            f"after {action}, {grew} rounds ended at once (rounds {len(before.rounds)} -> "
            f"{len(after.rounds)}): one action ends at most one round; end_round is called once, by the "
            "plugin whose rule ends the round",
        )
    if before.left and not grew:
        _check_left_step(before, action, after)
    if before.left:
        for event in after.events:
            if event.kind == "round-end":
                break
            if event.kind == "draw" and event.seat in before.left:
                raise _fail(
                    "left",
                    f"after {action}, seat {event.seat}, which has left the game, was made to draw "
                    f"{event.count} card(s): a rule that names a seat names one still in the game "
                    "(draft.next_seat and active_seats skip the seats that left)",
                )
    if grew:
        _check_round_won(action, after)
    if action.verb == "play" and _effects(after.ruleset):
        check_effect(before, action, after)
    if not grew and not after.is_over:
        _check_uno_step(before, action, after)
    check_shown_hands(before, action, after, shown)
    check_hidden_cards(after, before)
    if again:
        try:
            second = before.apply(action)
        except Exception as exc:
            raise _fail(
                "replay",
                f"{action} applied to the same state a second time raised {type(exc).__name__}: {exc}",
            ) from exc
        if second != after:
            raise _fail(
                "replay",
                f"{action} applied twice to the same state gave different states: "
                f"{describe_difference(after, second)} (randomness outside the game's generator, "
                "such as Python's random module, or state kept in a plugin object)",
            )


def _uno_hint(state: GameState, hint: str) -> bool:
    """Whether a plugin of the rule set declares the UNO hint ``hint`` of
    :class:`~unorules.TestHints` (``uno_exempt_when``, ``uno_handed_when``)
    for the options set."""

    def compute(rules: Ruleset) -> bool:
        options = rules.options
        return any(
            option in options and options[option] == value
            for plugin in rules.plugins
            for option, value in getattr(getattr(plugin, "testing", TestHints()), hint)
        )

    return _cached(state.ruleset, hint, compute)


def _uno_exempt(state: GameState) -> bool:
    return _uno_hint(state, "uno_exempt_when")


def _check_uno_step(before: GameState, action: Action, after: GameState) -> None:
    actor = action.seat
    declared_before = before.uno_declared
    exposed_before = before.uno_exposed
    exposed = after.uno_exposed
    declared = after.uno_declared
    left = after.left
    # Cards that came into some hand during the action: a hand that lost cards
    # to another hand was traded or given from, not emptied by its owner.
    found: list[Counter[Card]] = []

    def gained() -> Counter[Card]:
        # Cards drawn from the piles (the draw events name them) were nobody's gift: a
        # seat that drew a copy of the card another seat laid did not receive that card.
        if not found:
            cards: Counter[Card] = Counter()
            for old, new in zip(before.hands, after.hands, strict=True):
                if old is not new and old != new:
                    cards.update(Counter(new) - Counter(old))
            cards.subtract(c for e in after.events if e.kind == "draw" for c in e.cards)
            found.append(+cards)
        return found[0]

    for seat, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
        if old is new or old == new:
            if seat in exposed and seat not in exposed_before and seat != actor:
                raise _fail(
                    "uno",
                    f"after {action}, seat {seat} became open to an UNO catch, though its hand did not "
                    "change and the action was not its own (R-UNO-CATCH)",
                )
            continue
        mine = seat == actor
        exposed_now = seat in exposed
        stale_call = seat in declared and seat in declared_before and not mine
        down_to_one = mine and len(new) == 1 and len(old) > 1 and seat not in left
        if not (exposed_now or stale_call or down_to_one):
            continue  # nothing these books could get wrong for this hand (the usual case)
        was, now = Counter(old), Counter(new)
        reduced = _grew_only(now, was)  # nothing came into the hand
        own_reduction = mine and reduced and not ((was - now) & gained())
        handed = len(new) == 1 and _uno_hint(after, "uno_handed_when")  # the rule wants a call
        if seat in exposed and not own_reduction and not handed:
            raise _fail(
                "uno",
                f"after {action}, seat {seat}'s hand changed ({_card_change(old, new)}), yet it is "
                "still open to an UNO catch: a stale exposure; a catch is for the seat that brought "
                "itself down to one card (R-UNO-CATCH)",
            )
        if stale_call and not _grew_only(was, now):
            raise _fail(
                "uno",
                f"after {action}, seat {seat}'s hand changed ({_card_change(old, new)}), yet its UNO "
                "call stands: the call was about the hand it held (R-UNO-CALL)",
            )
        if own_reduction and down_to_one:
            if seat in declared_before:
                if seat in exposed or seat in declared:
                    raise _fail(
                        "uno",
                        f"after {action}, seat {seat} called UNO and brought itself down to one card, "
                        "yet its call is not used up (it is still "
                        + ("open to a catch" if seat in exposed else "listed as having called")
                        + ") (R-UNO-CALL)",
                    )
            elif seat not in exposed and not (sum((was - now).values()) > 1 and _uno_exempt(after)):
                raise _fail(
                    "uno",
                    f"after {action}, seat {seat}'s own action left it one card ({_card_change(old, new)}) "
                    "without an UNO call, yet it is not open to a catch (R-UNO-CALL, R-UNO-CATCH): move "
                    "cards out of a hand with the draft's mechanics (play, discard_under, set_hands), "
                    "which keep these books; a rule set without catches keeps them too and offers no "
                    "catch in legal_actions, rather than closing the window with end_exposure",
                )

"""The deals behind :mod:`unorules.knowledge`: cards matched to the slots that may
hold them, and the worlds :func:`unorules.knowledge.determinize` builds from a view.

Two parts, both private to :mod:`unorules.knowledge` (which re-exports
nothing from here):

* the matching: which group each seen card came from (:func:`_assign`), a
  random deal of cards over slots that may refuse some of them
  (:func:`_match`, :func:`_deal_positions`), both completed by augmenting
  paths (:func:`_augment`), and the faces a deck of two-faced cards shows
  (:func:`_showing`, :func:`_hand_faces`);
* the worlds: a whole state that shows a seat exactly its view
  (:func:`_world`, :func:`_faced_world` for two-faced decks), with what the
  ``hidden_requirements`` and ``resample_extras`` hooks ask of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from unorules.cards import Card
from unorules.draft import DISCARD, DRAW
from unorules.errors import StateFormatError
from unorules.rng import Rng
from unorules.state import Event, GameState, Phase, RoundResult, SeatView, from_fields
from unorules.validate import validate_state

if TYPE_CHECKING:
    from unorules.knowledge import Knowledge, Place, Tag

_FREE: frozenset[Card] = frozenset()
"""The cards a slot that may hold any card cannot hold: none."""


# -- matching cards to slots -------------------------------------------------------------------


def _assign(
    need: Counter[Card], groups: Mapping[int, Counter[Card]], slots: Mapping[Tag, int]
) -> dict[tuple[Card, int], int] | None:
    """Which group each card of ``need`` came from, filling exactly the ``slots``
    (tag: count) of a place, each slot given only a card its group holds and
    its guesses allow, no group giving more copies of a card than it holds;
    ``None`` if no such assignment exists. A maximum flow (augmenting paths,
    :func:`_augment`) from the cards through the slots, preferring for each
    card the slots whose group holds most of it."""
    room: Counter[Tag] = Counter(slots)
    held: dict[Tag, Counter[Card]] = {tag: Counter() for tag in slots}
    options = {
        card: sorted(
            (t for t, n in slots.items() if n and groups[t[0]][card] > 0 and card not in t[1]),
            key=lambda t: -groups[t[0]][card],
        )
        for card in need
    }

    def may(card: Card, tag: Tag) -> bool:
        group = tag[0]
        given = sum(cards[card] for t, cards in held.items() if t[0] == group)
        return given < groups[group][card]

    for card, count in need.items():
        for _ in range(count):
            if not _augment(card, options, room, held, set(), may):
                return None
    found: Counter[tuple[Card, int]] = Counter()
    for tag, cards in held.items():
        for card, n in cards.items():
            if n:
                found[card, tag[0]] += n
    if any(n > groups[g][c] for (c, g), n in found.items()):
        return None
    return dict(found)


def _augment(
    card: Card,
    options: Mapping[Card, list[Any]],
    room: Counter[Any],
    held: Mapping[Any, Counter[Card]],
    seen: set[Any],
    may: Callable[[Card, Any], bool] | None = None,
) -> bool:
    """Put one more ``card`` in one of its ``options`` of slot (a key of
    ``room``, the free places of each, and ``held``, the cards in each): a
    slot with room, else a full slot whose card moves on to another slot it
    may hold (an augmenting path; ``seen`` the slots the path went through).
    ``may(card, slot)`` refuses a slot besides (a group out of that card).
    False if there is no such path."""
    for tag in options[card]:
        if tag in seen or (may is not None and not may(card, tag)):
            continue
        seen.add(tag)
        if room[tag] > 0:
            held[tag][card] += 1
            room[tag] -= 1
            return True
        for other, n in list(held[tag].items()):
            if n > 0 and other != card and _augment(other, options, room, held, seen, may):
                held[tag][other] -= 1
                held[tag][card] += 1
                return True
    return False


def _showing(rules: Any, side: int) -> dict[Card, frozenset[Card]]:
    """For each face shown on ``side`` by a card of the deck of ``rules``, the
    cards of the deck that do not show it (kept in ``rules.cache``)."""
    key = ("unorules.knowledge", "showing", side)
    found: dict[Card, frozenset[Card]] | None = rules.cache.get(key)
    if found is None:
        deck = frozenset(rules.deck)
        faces = {card.face(side) for card in deck}
        found = {face: frozenset(c for c in deck if c.face(side) is not face) for face in faces}
        rules.cache[key] = found
    return found


def _only(cards: Mapping[Card, frozenset[Card]], face: Card) -> frozenset[Card]:
    """``cards[face]``: the cards that do not show ``face`` (see :func:`_showing`)."""
    found = cards.get(face)
    if found is None:
        raise StateFormatError(f"the view shows {face}, a face no card of the deck shows there")
    return found


def _hand_faces(view: SeatView, seat: int) -> dict[int, list[frozenset[Card]]]:
    """For each hand of ``view`` (a deck of two-faced cards, the view of ``seat``),
    the cards each of its positions cannot hold: those that do not show the
    face the view shows there (the seat's own hand, a hand shown) and those
    that do not turn away the back it shows (``SeatView.backs``)."""
    up = _showing(view.rules, view.side)
    down = _showing(view.rules, 1 - view.side)
    hands: dict[int, list[frozenset[Card]]] = {}
    for other, size in enumerate(view.hand_sizes):
        faces = view.hand if other == seat else view.visible_hands.get(other)
        backs = view.backs.get(other)
        if (faces is not None and len(faces) != size) or (backs is not None and len(backs) != size):
            raise StateFormatError(f"the view shows seat {other} another number of cards than it holds")
        cards = []
        for i in range(size):
            excluded = _FREE
            if faces is not None:
                excluded = excluded | _only(up, faces[i])
            if backs is not None:
                excluded = excluded | _only(down, backs[i])
            cards.append(excluded)
        hands[other] = cards
    return hands


def _deal_positions(
    groups: Mapping[int, Counter[Card]], positions: Mapping[Place, list[Tag]], rng: Rng
) -> dict[Place, list[Card]]:
    """Each group's cards dealt over the positions of its slots, each slot given
    a card its tag allows (see :func:`_match`), in each place's order."""
    dealt: dict[Place, list[Card]] = {place: [] for place in positions}
    for group, cards in groups.items():
        wanted: Counter[frozenset[Card]] = Counter()
        for tags in positions.values():
            for g, excluded in tags:
                if g == group:
                    wanted[excluded] += 1
        held = _match(cards, wanted, rng)
        if held is None:
            raise StateFormatError("no deal of the deck's cards shows the faces the view shows")
        for place, tags in positions.items():
            out = dealt[place]
            for g, excluded in tags:
                if g == group:
                    out.append(held[excluded].pop())
    return dealt


def _match(
    cards: Counter[Card], slots: Mapping[frozenset[Card], int], rng: Rng
) -> dict[frozenset[Card], list[Card]] | None:
    """``cards`` dealt over ``slots`` (the cards a slot cannot hold: how many
    such slots), every slot filled with a card it may hold; ``None`` if there
    is no such deal. Each card in random order goes to a slot chosen uniformly
    among the free ones that may hold it; a card left without one takes a slot
    by an augmenting path (:func:`_augment`: the cards in its way move to
    other slots). The deal is random but not exactly uniform over the deals
    allowed."""
    pool = list(cards.elements())
    if len(pool) != sum(slots.values()):
        return None
    rng.shuffle(pool)
    room = Counter(slots)
    held: dict[frozenset[Card], Counter[Card]] = {tag: Counter() for tag in slots}
    options = {card: [tag for tag in slots if card not in tag] for card in cards}
    left = []
    for card in pool:
        free = [(tag, room[tag]) for tag in options[card] if room[tag] > 0]
        if not free:
            left.append(card)
            continue
        pick = rng.randbelow(sum(n for _, n in free))
        chosen = free[-1][0]
        for tag, n in free:
            if pick < n:
                chosen = tag
                break
            pick -= n
        held[chosen][card] += 1
        room[chosen] -= 1

    for card in left:
        if not _augment(card, options, room, held, set()):
            return None
    dealt: dict[frozenset[Card], list[Card]] = {}
    for tag, counts in held.items():
        order = list(counts.elements())
        rng.shuffle(order)
        dealt[tag] = order
    return dealt


# -- worlds -------------------------------------------------------------------------------------


def _world_fields(
    view: SeatView, knowledge: Knowledge, gen: Rng, phase: Phase, **cards: Any
) -> dict[str, Any]:
    """The fields of a world of ``view``: what the view shows as it shows it,
    ``phase``, the seat's count of stalled draws, a fresh generator drawn from
    ``gen``, and ``cards`` (the hands and piles dealt, and for a deck of
    two-faced cards the events and rounds naming them) over those."""
    fields: dict[str, Any] = {
        "ruleset": view.rules,
        "hands": (),
        "draw_pile": (),
        "discard_pile": view.discard_pile,
        "color": view.color,
        "side": view.side,
        "direction": view.direction,
        "current_player": view.current_player,
        "phase": phase,
        "dealer": view.dealer,
        "scores": view.scores,
        "uno_declared": view.uno_declared,
        "uno_exposed": view.uno_exposed,
        "stalled": knowledge.stalled,
        "left": view.left,
        "rounds": view.rounds,
        "outcome": view.outcome,
        "rng": gen.next64(),
        "extras": view.extras,
        "last_action": view.last_action,
        "events": view.events,
        "_legal": None,
    }
    fields.update(cards)
    return fields


def _world(view: SeatView, knowledge: Knowledge, gen: Rng) -> GameState:
    """One world of ``view`` (see :func:`determinize`)."""
    seat = view.seat
    assert seat is not None
    rules = view.rules
    if rules.two_faced:
        return _faced_world(view, knowledge, gen)
    dealt = knowledge.sample(gen)
    hands: list[tuple[Card, ...]] = []
    for other, size in enumerate(view.hand_sizes):
        if other == seat:
            hands.append(view.hand)
        elif other in view.visible_hands:
            hands.append(view.visible_hands[other])
        else:
            hand = tuple(dealt.get(other, ()))
            if len(hand) != size:
                raise RuntimeError(
                    f"knowledge of seat {seat} gives seat {other} {len(hand)} cards, not {size}"
                )
            hands.append(hand)
    pile = dealt.get(DRAW, [])
    gen.shuffle(pile)
    phase = view.phase
    secret = phase.secret and phase.card is None and view.current_player != seat
    fields = _world_fields(view, knowledge, gen, phase, hands=tuple(hands), draw_pile=tuple(pile))
    state = from_fields(fields)
    if _implements(rules, "hidden_requirements"):
        state = _meet_requirements(state, view, knowledge, gen)
    if secret:
        shown = view.visible_hands.get(view.current_player)
        if shown:  # a hand the seat sees (open hands): the card drawn last is last in it
            state = state.replace(phase=attrs.evolve(phase, card=shown[-1]))
        else:
            state = _secret_card(state, knowledge.known(state.current_player), gen)
    if _implements(rules, "resample_extras"):
        state = _resample_extras(state, view, gen)
    return state


def _faced_world(view: SeatView, knowledge: Knowledge, gen: Rng) -> GameState:
    """One world of ``view``, a view of a deck of two-faced cards (see :func:`determinize`)."""
    seat = view.seat
    assert seat is not None
    rules = view.rules
    side = view.side
    dealt = knowledge.sample(gen)
    hands = [list(dealt.get(other, ())) for other in range(len(view.hand_sizes))]
    pile = dealt.get(DRAW, [])
    discard = dealt.get(DISCARD, [])
    phase = view.phase
    drawer = view.current_player
    shown = view.phase.card
    if shown is not None:
        # The phase names a physical card showing the face the view shows: the card
        # drawn last (phase "drawn") or else the top card, as likely as not.
        mine = hands[drawer][-1:]
        places = [*mine, *discard[::-1]] if phase.name == "drawn" else [*discard[::-1], *mine]
        places += [card for hand in hands for card in hand]
        card = next((c for c in places if c.face(side) is shown), None)
        if card is None:
            raise StateFormatError(f"no card of the world shows {shown}, the card of the phase")
        phase = attrs.evolve(phase, card=card)
    secret = phase.secret and phase.card is None and drawer != seat and bool(hands[drawer])
    events, rounds = _physical_records(view, hands, discard)
    fields = _world_fields(
        view, knowledge, gen, phase, discard_pile=tuple(discard), rounds=rounds, events=events
    )

    def world() -> GameState:
        fields["hands"] = tuple(map(tuple, hands))
        fields["draw_pile"] = tuple(pile)
        return from_fields(dict(fields))

    state = world()
    if secret:
        # The seat to move drew the last card of its hand and may play it: the
        # card there is traded, where it does not play, for one from the draw
        # pile under its top card or a hidden hand, each card fitting the slot
        # it goes to (what the seat saw there).
        hand = hands[drawer]
        positions = knowledge._positions or {}
        last = positions[drawer][-1][1]
        seen = {seat, drawer, *view.visible_hands}
        sources: list[tuple[list[Card], int]] = []
        spots: list[tuple[Place, list[Card]]] = [(DRAW, pile)]
        spots += [(s, h) for s, h in enumerate(hands) if s not in seen]
        for place, cards in spots:
            for j, (_, excluded) in enumerate(positions.get(place, ())):
                if (place != DRAW or j) and hand[-1] not in excluded and cards[j] not in last:
                    sources.append((cards, j))
        gen.shuffle(sources)
        for cards, j in [(hand, len(hand) - 1), *sources[:24]]:
            hand[-1], cards[j] = cards[j], hand[-1]
            fields["phase"] = attrs.evolve(phase, card=hand[-1])
            tried = world()
            if j == len(hand) - 1 and cards is hand:
                state = tried  # the card dealt there, if none plays
            if _may_play(tried, drawer, hand[-1].face(side)):
                state = tried
                break
            hand[-1], cards[j] = cards[j], hand[-1]
    if _implements(rules, "resample_extras"):
        state = _resample_extras(state, view, gen)
    return state


def _physical_records(
    view: SeatView, hands: list[list[Card]], discard: list[Card]
) -> tuple[tuple[Event, ...], tuple[RoundResult, ...]]:
    """The events and round results of ``view`` (a deck of two-faced cards: they
    show faces) with each face a physical card that shows it: the card a draw
    event names from the hand drawn into, another from the discard pile or a
    hand where one shows that face, else any card of the deck that does."""
    side = view.side
    showing = _shown_by(view.rules, side)
    everywhere = [card for hand in hands for card in hand]

    def physical(face: Card, prefer: list[Card]) -> Card:
        for card in prefer:
            if card.face(side) is face:
                return card
        found = showing.get(face)
        return found if found is not None else face

    def value(item: Any, prefer: list[Card]) -> Any:
        if isinstance(item, Card):
            return physical(item, prefer)
        if isinstance(item, tuple):
            return tuple(value(v, prefer) for v in item)
        return item

    events = []
    for event in view.events:
        prefer = discard[::-1] + everywhere
        if event.kind == "draw" and event.seat is not None and event.seat < len(hands):
            prefer = hands[event.seat][::-1] + prefer
        events.append(
            attrs.evolve(
                event,
                cards=tuple(physical(c, prefer) for c in event.cards),
                data=tuple((k, value(v, prefer)) for k, v in event.data),
            )
        )
    rounds = tuple(
        attrs.evolve(r, hands=tuple(tuple(physical(c, []) for c in hand) for hand in r.hands))
        for r in view.rounds
    )
    return tuple(events), rounds


def _shown_by(rules: Any, side: int) -> dict[Card, Card]:
    """For each face shown on ``side`` by a card of the deck of ``rules``, the
    first card of the deck that shows it (kept in ``rules.cache``)."""
    key = ("unorules.knowledge", "shown by", side)
    found: dict[Card, Card] | None = rules.cache.get(key)
    if found is None:
        found = {}
        for card in rules.deck:
            found.setdefault(card.face(side), card)
        rules.cache[key] = found
    return found


def _implements(rules: Any, hook: str) -> bool:
    """Whether a plugin of ``rules`` implements ``hook`` (kept in ``rules.cache``)."""
    key = ("unorules.knowledge", hook)
    found = rules.cache.get(key)
    if found is None:
        found = rules.cache[key] = bool(getattr(rules.hook, hook).get_hookimpls())
    return bool(found)


def _meet_requirements(state: GameState, view: SeatView, knowledge: Knowledge, gen: Rng) -> GameState:
    """``state`` with each hand the ``hidden_requirements`` hook names holding
    a card that passes its test: when the dealt hand holds none, one of its
    cards not known to be there is traded for a card that passes, from the
    draw pile or else from another hand the seat cannot see (not one known to
    be there, preferably one that may be in the hand)."""
    found = state.ruleset.hook.hidden_requirements(view=view)
    requirements = [pair for result in found if result for pair in result]
    if not requirements:
        return state
    hands = [list(hand) for hand in state.hands]
    pile = list(state.draw_pile)
    shown = {view.seat, *view.visible_hands}
    changed = False
    for seat, test in requirements:
        hand = hands[seat]
        if seat in shown or any(test(card) for card in hand):
            continue
        mine = _unknown_slots(hand, knowledge.known(seat), gen)
        if not mine:
            continue
        may_hold = knowledge.candidates(seat)
        sources = [(pile, _unknown_slots(pile, knowledge.known(DRAW), gen))]
        for other, cards in enumerate(hands):
            if other != seat and other not in shown:
                sources.append((cards, _unknown_slots(cards, knowledge.known(other), gen)))
        picks = [
            (may_hold[cards[j]] == 0, k, cards, j)
            for k, (cards, slots) in enumerate(sources)
            for j in slots
            if test(cards[j])
        ]
        if not picks:
            continue
        _, _, cards, j = min(picks, key=lambda pick: pick[:2])
        i = mine[0]
        hand[i], cards[j] = cards[j], hand[i]
        changed = True
    if not changed:
        return state
    return state.replace(hands=tuple(map(tuple, hands)), draw_pile=tuple(pile))


def _unknown_slots(cards: list[Card], known: Counter[Card], gen: Rng) -> list[int]:
    """The positions in ``cards`` of the cards beyond those ``known`` to be there, in random order."""
    skip = Counter(known)
    slots = []
    for i, card in enumerate(cards):
        if skip[card] > 0:
            skip[card] -= 1
        else:
            slots.append(i)
    gen.shuffle(slots)
    return slots


def _secret_card(state: GameState, known: Counter[Card], gen: Rng) -> GameState:
    """``state`` with the card of its secret phase named: a card the seat to move
    drew (not one known to have been in its hand before), preferably one it may
    play (as the phase of a drawn card says)."""
    drawer = state.current_player
    hand = list(state.hands[drawer])
    if not hand:
        return state
    order = list(range(len(hand)))
    gen.shuffle(order)
    skip = Counter(known)
    fresh = []
    for i in order:
        if skip[hand[i]] > 0:
            skip[hand[i]] -= 1
        else:
            fresh.append(i)
    first: GameState | None = None
    for i in (fresh or order)[:12]:
        card = hand[i]
        hand_now = [*hand[:i], *hand[i + 1 :], card]  # the card drawn last is last in the hand
        hands = list(state.hands)
        hands[drawer] = tuple(hand_now)
        tried = state.replace(hands=tuple(hands), phase=attrs.evolve(state.phase, card=card))
        if first is None:
            first = tried
        if _may_play(tried, drawer, card):
            return tried
    assert first is not None
    # No card the hand may hold is playable, but the phase may say the card drawn
    # is (No Mercy draws until one is): trade one for a card of the draw pile.
    pile = list(state.draw_pile)
    slot = (fresh or order)[0]
    picks = list(range(len(pile)))
    gen.shuffle(picks)
    for j in picks[:24]:
        card = pile[j]
        hand_now = [*hand[:slot], *hand[slot + 1 :], card]
        hands = list(state.hands)
        hands[drawer] = tuple(hand_now)
        rest = [*pile[:j], hand[slot], *pile[j + 1 :]]
        tried = state.replace(
            hands=tuple(hands), draw_pile=tuple(rest), phase=attrs.evolve(state.phase, card=card)
        )
        if _may_play(tried, drawer, card):
            return tried
    return first


def _may_play(state: GameState, drawer: int, card: Card) -> bool:
    """Whether ``drawer`` may play ``card``, the card drawn its phase names, and
    the state is valid (No Mercy's phase names only a playable card)."""
    if not any(a.card == card and a.seat == drawer for a in state.legal_actions(drawer)):
        return False
    try:
        validate_state(state)
    except StateFormatError:
        return False
    return True


def _resample_extras(state: GameState, view: SeatView, gen: Rng) -> GameState:
    found = state.ruleset.hook.resample_extras(state=state, view=view, rng=gen)
    items = dict(state.extras)
    for values in found:
        for key, value in values or ():
            items[key] = value
    if len(items) == len(state.extras) and all(items[k] == v for k, v in state.extras):
        return state
    return state.replace(extras=tuple(sorted(items.items())))

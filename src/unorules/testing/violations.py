"""What the invariants share: the violation they raise, the texts that say what
differs, and what the plugins of a rule set declare, worked out once per rule set.

Part of :mod:`unorules.testing.invariants`, which re-exports every public name
of this module; import them from there.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import attrs

from unorules.actions import Action
from unorules.cards import Card
from unorules.ruleset import Ruleset
from unorules.state import GameState

__all__ = [
    "CORE_VERBS",
    "TURN_VERBS",
    "InvariantViolation",
    "describe_difference",
    "set_aside_cards",
    "turn_only_verbs",
]


TURN_VERBS = frozenset({"play", "draw", "pass", "accept", "color"})
"""Verbs that only the seat to move may use, unless a plugin declares one for
``"any"`` seat in its ``verbs`` (a jump-in ``play``). ``uno``, ``catch`` and
``challenge`` may come from other seats, and so may any verb a plugin
registers, unless a plugin declares it for ``"turn"`` and none for ``"any"``
(``ruleset.turn_verbs``)."""


CORE_VERBS = frozenset({"play", "draw", "pass", "uno", "catch", "challenge", "accept", "color"})
"""The verbs of the core's action notation."""


class InvariantViolation(AssertionError):
    """An invariant does not hold: ``invariant`` names it, ``detail`` says how.

    ``tried`` is the action whose outcome broke it when a check applied an
    action the game did not take (the deep checks apply every legal action):
    appended to the game's replay, it shows the failure as the game's own
    step."""

    def __init__(self, invariant: str, detail: str, tried: Action | None = None) -> None:
        super().__init__(f"[{invariant}] {detail}")
        self.invariant = invariant
        self.detail = detail
        self.tried = tried

    def __reduce__(self) -> tuple[Any, tuple[str, str, Action | None]]:
        return (type(self), (self.invariant, self.detail, self.tried))

    def within(self, context: str) -> InvariantViolation:
        """The same violation with ``context`` (where it happened) in front of the detail."""
        return InvariantViolation(self.invariant, f"{context}: {self.detail}", self.tried)


def _fail(invariant: str, detail: str) -> InvariantViolation:
    return InvariantViolation(invariant, detail)


_T = TypeVar("_T")


# -- what plugins declare, worked out once per rule set ------------------------------------------


def _cached(ruleset: Ruleset, key: str, compute: Callable[[Ruleset], _T]) -> _T:
    return ruleset.cached(("unorules.testing.invariants", key), compute)


def turn_only_verbs(ruleset: Ruleset) -> frozenset[str]:
    """The verbs only the seat to move may use in ``ruleset``."""

    def compute(rules: Ruleset) -> frozenset[str]:
        return (TURN_VERBS | rules.turn_verbs) - rules.out_of_turn_verbs

    return _cached(ruleset, "turn_verbs", compute)


def _deck_count(ruleset: Ruleset) -> Counter[Card]:
    return _cached(ruleset, "deck", lambda rules: Counter(rules.deck))


def _deck_ids(ruleset: Ruleset) -> list[int]:
    return _cached(ruleset, "deck_ids", lambda rules: sorted(map(id, rules.deck)))


def _deck_weights(ruleset: Ruleset) -> tuple[dict[Card, int], int]:
    def compute(rules: Ruleset) -> tuple[dict[Card, int], int]:
        weights = {
            card: random.Random(f"unorules card weight {card}").getrandbits(60) for card in set(rules.deck)
        }
        return weights, sum(weights[card] for card in rules.deck)

    return _cached(ruleset, "deck_weights", compute)


def set_aside_cards(state: GameState) -> list[Card]:
    """The cards ``state``'s plugins say they keep out of the hands and piles."""
    return list(state.ruleset.set_aside_cards(state))


# -- what a violation says -----------------------------------------------------------------------


def _after(state: GameState) -> str:
    return "at the deal" if state.last_action is None else f'after "{state.last_action}"'


def _cards_text(counts: Counter[Card]) -> str:
    return " ".join(f"{card}x{n}" if n > 1 else str(card) for card, n in sorted(counts.items(), key=str))


_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.eq)


def _snapshot(state: GameState) -> tuple[Any, ...]:
    return tuple(getattr(state, name) for name in _FIELDS)


def _unchanged(state: GameState, snapshot: tuple[Any, ...]) -> bool:
    # States hold only immutable values, so a change means a field was replaced.
    return all(a is b for a, b in zip(_snapshot(state), snapshot, strict=True))


def _json_of(state: GameState) -> str:
    try:
        return state.to_json()
    except Exception as exc:
        raise _fail("json", f"{_after(state)}, to_json() raised {type(exc).__name__}: {exc}") from exc


def _diff(a: GameState, b: GameState) -> str:
    return describe_difference(a, b)


def _card_change(expected: Iterable[Card], found: Iterable[Card]) -> str:
    """What ``found`` lacks and has more than ``expected``, as text."""
    want, got = Counter(expected), Counter(found)
    parts = []
    if want - got:
        parts.append(f"lacks {_cards_text(want - got)}")
    if got - want:
        parts.append(f"has {_cards_text(got - want)} more")
    return ", ".join(parts) or "the same cards in another order"


def _short(value: Any, limit: int = 80) -> str:
    text = str(value) if isinstance(value, str | int | Card) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_difference(
    expected: GameState | tuple[Any, ...], found: GameState | tuple[Any, ...], *, limit: int = 6
) -> str:
    """What differs between two states (or snapshots of their fields), field by
    field and briefly: cards a hand or pile lacks or has more, a field's two
    values, an extra's two values; at most ``limit`` fields. For messages
    that show the difference, never whole piles."""
    a = expected if isinstance(expected, tuple) else _snapshot(expected)
    b = found if isinstance(found, tuple) else _snapshot(found)
    parts: list[str] = []
    for name, x, y in zip(_FIELDS, a, b, strict=True):
        if x is y or x == y:
            continue
        if name == "hands":
            for seat, (h, g) in enumerate(zip(x, y, strict=False)):
                if h != g:
                    parts.append(f"hands[{seat}] {_card_change(h, g)}")
            if len(x) != len(y):
                parts.append(f"hands: {len(x)} seats, then {len(y)}")
        elif name in ("draw_pile", "discard_pile"):
            change = _card_change(x, y)
            parts.append(f"{name} ({len(x)} cards, then {len(y)}) {change}")
        elif name == "extras":
            mine, theirs = dict(x), dict(y)
            for key in sorted(set(mine) | set(theirs)):
                if mine.get(key) != theirs.get(key):
                    parts.append(f"extras[{key!r}]: {_short(mine.get(key))} -> {_short(theirs.get(key))}")
        elif name == "events":
            parts.append(
                f"events: [{', '.join(e.kind for e in x)}] -> [{', '.join(e.kind for e in y)}]"
                if [e.kind for e in x] != [e.kind for e in y]
                else "events: the same kinds, other fields"
            )
        elif name == "rounds":
            parts.append(f"rounds: {len(x)}, then {len(y)}" if len(x) != len(y) else "rounds: other results")
        else:
            parts.append(f"{name}: {_short(x)} -> {_short(y)}")
    if not parts:
        return "no field differs (equality itself is broken)"
    more = len(parts) - limit
    return "; ".join(parts[:limit]) + (f"; and {more} more" if more > 0 else "")

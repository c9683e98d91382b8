"""Shims (issue 42): what other plugins imported from classic before the core's hooks.

Kept only while a shipped plugin still imports them (deflect, jump-in,
keep-drawing, last-loses, multi-play, penalties, seven-o, stacking,
custom-wilds and the draw-until-playable example did at the branch point);
new code asks the core instead: ``state.matches``, ``state.forbidden``,
``state.ruleset.uno_call``, ``draft.going_out``/``draft.went_out``,
``unorules.GoingOut`` and ``ruleset.options``.
"""

from __future__ import annotations

from typing import NamedTuple

from unorules import Card, Draft, Position, Ruleset
from unorules.state import GoingOut as _GoingOut

__all__ = [
    "GoingOut",
    "HouseRules",
    "banned_last_card",
    "calls_before_playing",
    "house_rules",
    "is_playable",
    "round_out",
]


def is_playable(state: Position, seat: int, card: Card) -> bool:
    """Whether ``card`` may be played by ``seat`` on the top card: ``state.matches``
    (R-TURN-MATCH, R-TURN-WILD, R-TURN-WD4; a Wild Draw Four bluff counts as playable
    while challenges are on)."""
    return state.matches(seat, card)


class HouseRules(NamedTuple):
    """A shim (issue 42): the two former house-rule values other plugins still read,
    from ``ruleset.options`` (the options are now declared by ``turn-rules`` and
    ``last-card``; their defaults when those plugins are absent)."""

    limit: int
    """R-HOUSE-HAND-CAP: the hand size from which a seat may not draw for its turn (0: none)."""
    last_draw: bool
    """R-OUT-LAST-DRAW: the next seat draws for a last draw card (false: R-HOUSE-NO-LAST-DRAW)."""


def _read_house_rules(ruleset: Ruleset) -> HouseRules:
    options = ruleset.options
    return HouseRules(int(options.get("hand_limit", 0)), options.get("last_draw_card", "draws") == "draws")


def house_rules(ruleset: Ruleset) -> HouseRules:
    """A shim (issue 42): see :class:`HouseRules`; read once per rule set."""
    return ruleset.cached(("classic", "house-rules"), _read_house_rules)


def banned_last_card(state: Position, seat: int, card: Card) -> bool:
    """A shim (issue 42): ``state.forbidden(seat, card) is not None``."""
    return state.forbidden(seat, card) is not None


def calls_before_playing(state: Position) -> bool:
    """A shim (issue 42): ``state.ruleset.uno_call`` is ``two-cards`` or ``playable``."""
    return state.ruleset.uno_call in ("two-cards", "playable")


GoingOut = _GoingOut


def round_out(draft: Draft, seat: int) -> int | None:
    """A shim (issue 42): the seat that wins the round ``seat`` emptied its hand
    in (``draft.went_out``), or ``None`` when the round goes on without it."""
    answer = draft.going_out(seat) or draft.went_out(seat)
    return answer.winner if answer.ends else None

"""Scoring by card points: what every rule set that counts the cards left in hands shares.

Classic and the editions (FLIP!, No Mercy) score a round, end a game and
choose the first dealer by the same rules, written once here over a
:class:`~unorules.Position` (a state or a draft), so that each plugin only
says which of them it plays (its options) and what it adds (No Mercy's
points for knockouts):

* :func:`winner_takes_all` (R-SCORE): the round's winner scores every other
  hand still in the game;
* :func:`charged` (R-WIN-LOW): each seat is charged its own hand;
* :func:`round_points`: one of the two, for a plugin's ``score_round`` hook;
* :func:`target_outcome` (R-WIN, R-WIN-LOW): the game ends once a seat
  reaches the target score, for a plugin's ``game_outcome`` hook;
* :func:`draw_for_dealer` (R-SETUP-DEALER): each seat draws a card, the
  highest deals, for a plugin's ``choose_dealer`` hook.

A hand's points are :meth:`Position.hand_value <unorules.Position.hand_value>`:
the ``card_points`` hook's value of each card, by the face in play for a
two-faced deck. Nothing here reads an option: the plugin passes what its
options say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from unorules.state import Outcome, Position

if TYPE_CHECKING:
    from unorules.cards import Card
    from unorules.rng import Rng
    from unorules.ruleset import Ruleset

__all__ = ["charged", "draw_for_dealer", "round_points", "target_outcome", "winner_takes_all"]


def winner_takes_all(state: Position, winner: int | None) -> list[int]:
    """Each seat's points for a round won by ``winner`` (R-SCORE): the winner scores
    the points of every other hand still in the game, nobody else scores; ``None``
    (a round nobody won): nobody scores."""
    points = [0] * len(state.hands)
    if winner is not None:
        points[winner] = sum(state.hand_value(s) for s in state.active_seats if s != winner)
    return points


def charged(state: Position) -> list[int]:
    """Each seat's points for a round scored low (R-WIN-LOW): every seat still in the
    game is charged the points of its own hand."""
    points = [0] * len(state.hands)
    for seat in state.active_seats:
        points[seat] = state.hand_value(seat)
    return points


def round_points(state: Position, winner: int | None, low_score: bool = False) -> list[int]:
    """The points of the round just ended in ``state``: :func:`charged` when
    ``low_score``, else :func:`winner_takes_all` for ``winner``."""
    return charged(state) if low_score else winner_takes_all(state, winner)


def target_outcome(state: Position, target: int, low_score: bool = False) -> Outcome | None:
    """The game's outcome once a seat still in the game has ``target`` points or more
    (R-WIN), else ``None`` (deal another round): the most points win (reason
    ``"target-score"``), or with ``low_score`` the fewest (``"low-score"``,
    R-WIN-LOW); ties go to the lowest seat."""
    seats = state.active_seats
    scores = state.scores
    if max(scores[s] for s in seats) < target:
        return None
    best = min(scores[s] for s in seats) if low_score else max(scores[s] for s in seats)
    winner = min(s for s in seats if scores[s] == best)
    return Outcome((winner,), "low-score" if low_score else "target-score")


def draw_for_dealer(ruleset: Ruleset, players: int, rng: Rng, value: Callable[[Card], int]) -> int:
    """The first dealer of a game of ``players`` seats (R-SETUP-DEALER): each seat
    still contending draws a card from the deck shuffled with ``rng`` and the
    highest ``value(card)`` deals; tied seats draw again, from a deck shuffled anew
    when too few cards are left for them."""
    pile: list[Card] = []
    contenders = list(range(players))
    while len(contenders) > 1:
        if len(pile) < len(contenders):
            pile = list(ruleset.deck)
            rng.shuffle(pile)
        values = {seat: value(pile.pop()) for seat in contenders}
        best = max(values.values())
        contenders = [seat for seat in contenders if values[seat] == best]
    return contenders[0]

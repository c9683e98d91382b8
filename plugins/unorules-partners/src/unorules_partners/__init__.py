"""Partners: two pairs sitting opposite (R-TEAM), and rotating-partner tournaments (R-TEAM-ROTATE).

Enable it with ``Ruleset.from_names(["classic", "partners"])``; it requires
``classic`` and plays with exactly four seats.

Rules
-----

**R-TEAM** [LT][CZ]
    Four players; partners sit opposite, so seats 0 and 2 are one pair and
    seats 1 and 3 the other (turns alternate between the pairs). When either
    partner goes out the round ends, and the pair scores the cards left in
    *both opponents'* hands (R-SCORE values). Both partners' entries in
    ``state.scores`` hold the pair's score, and a round's
    ``RoundResult.points`` gives the pair's points to both partners. The
    first pair to reach ``target_score`` (classic's option, 500 by default)
    wins: ``state.outcome.winners`` is the pair, e.g. ``(0, 2)``.

**R-TEAM-ROTATE** [LT]
    Library functions, not a rule set: :func:`rotation_schedule` seats the
    players of a rotating-partner tournament round by round,
    :func:`rotation_totals` adds up, for each player, the points their pair
    won in every round, :func:`rotation_winners` names the highest total and
    :func:`play_rotation` runs a whole tournament, calling back to play each
    table's round (for instance one round of a ``partners`` game).

Options
-------

None of its own. Classic's ``target_score`` is the pair's target and
classic's ``scoring`` is honoured: with ``scoring="low-score"`` (R-WIN-LOW)
each pair is charged the points of both partners' hands, and when a pair
reaches the target the pair with *fewer* points wins.

Decisions where the rules are silent
------------------------------------

* **Player count.** A game with other than four players is refused when it is
  created (``Ruleset.new_game`` raises :class:`~unorules.RulesetError`, through
  the core's ``check_game`` hook).
* **Nothing else is shared.** The seeds only join the pair's *score*: each
  partner keeps a private hand (no seeing or passing cards), plays their own
  turns, calls their own UNO and takes their own penalties. A player may even
  catch their own partner's missing UNO call (legal, if unwise).
* **Blocked rounds** (classic's decision) keep classic's winner, the seat with
  the fewest hand points; that seat's pair scores the opponents' hands.
* **Ties.** In low-score scoring both pairs can reach the target in the same
  round; equal totals go to the pair of seat 0.
* **Four-player rotation: 4 rounds, or 3.** Four players have only three
  different pairings ({0,1}+{2,3}, {0,2}+{1,3}, {0,3}+{1,2}), so "4 rounds in
  which every player partners every other" [LT] is impossible without a
  repeat. The schedule follows [LT]'s count by default: rounds 1 to 3 use
  the three pairings (after them every player has partnered every other
  exactly once) and round 4 repeats the first pairing. ``rounds=3`` gives the
  balanced schedule; any other count cycles through the pairings the same way.
* **Eight players, two tables.** [LT] says "28 partijos" (28 games); with
  two tables of two pairs each, a round produces four partnerships, so the
  28 partnerships of 8 players take 7 rounds (14 table games). The schedule is
  the classic round-robin "circle" construction: each player partners every
  other exactly once.
* **Rotation scoring** expects the default winner-takes-all scoring (points
  won); every player's total is the sum, over the rounds, of the points their
  pair won at their table. The highest total wins; tied players share the win.

Interactions
------------

``elimination`` conflicts (refused when the rule set is built): an elimination
tournament charges and removes single seats, which a pair game cannot do.

House rules and special wilds combine unchanged: hands moved by ``seven-o``,
``swap-hands`` or ``shuffle-hands`` pass between partners and opponents alike,
and a pair scores whatever its opponents' seats hold when the round ends.
``penalties`` applies to every seat, partners included (a partner may catch
its partner's illegal play or report its coaching).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

import attrs

from unorules import Draft, GameState, Outcome, Plugin, RoundResult, Ruleset, RulesetError, hookimpl
from unorules.validate import require

__all__ = [
    "PAIRS",
    "PartnersPlugin",
    "RotationResult",
    "Seating",
    "pair_of",
    "partner_of",
    "play_rotation",
    "plugin",
    "rotation_schedule",
    "rotation_totals",
    "rotation_winners",
    "schedule_partnerships",
]

PAIRS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
"""The two pairs of a partners game, by seat: partners sit opposite (R-TEAM)."""


def partner_of(seat: int) -> int:
    """The seat opposite ``seat`` in a four-seat game: its partner (R-TEAM)."""
    return (seat + 2) % 4


def pair_of(seat: int) -> tuple[int, int]:
    """The pair ``seat`` belongs to, lowest seat first."""
    return PAIRS[seat % 2]


class PartnersPlugin(Plugin):
    """Partners: four players in two pairs sitting opposite, pair scores to the target.

    Two pairs sitting opposite; a pair scores both opponents' hands (R-TEAM).
    """

    name = "partners"
    api_version = 2
    requires = ("classic",)
    conflicts: ClassVar[Mapping[str, str]] = {
        "elimination": "an elimination tournament removes single seats, but partners play as fixed pairs"
    }
    rules = ("R-TEAM", "R-TEAM-ROTATE")

    @hookimpl
    def teams(self, ruleset: Ruleset, players: int) -> Sequence[Sequence[int]] | None:
        # R-TEAM: seats 0 and 2 against seats 1 and 3 (four seats only).
        return PAIRS if players == 4 else None

    @hookimpl
    def check_game(self, ruleset: Ruleset, players: int) -> None:
        # R-TEAM: four players, two pairs sitting opposite.
        if players != 4:
            raise RulesetError(
                f"partners (R-TEAM) is played by exactly 4 players in two pairs sitting opposite, "
                f"not {players}; for 4 or 8 players changing partners see unorules_partners.play_rotation"
            )

    @hookimpl
    def check_state(self, state: GameState) -> None:
        # R-TEAM: four seats in two pairs sitting opposite, each pair one score.
        require(state.players == 4, "hands", f"R-TEAM: partners is played by 4 seats, not {state.players}")
        scores = state.scores
        for a, b in PAIRS:
            require(
                scores[a] == scores[b],
                f"scores[{b}]",
                f"R-TEAM: partners share their pair's score (seats {a} and {b})",
            )
        if state.outcome is not None:
            require(
                state.outcome.winners in PAIRS,
                "outcome.winners",
                f"R-TEAM: a pair wins, {PAIRS[0]} or {PAIRS[1]}",
            )

    @hookimpl
    def score_round(self, draft: Draft, result: RoundResult) -> Sequence[int]:
        state = draft
        value = state.ruleset.hand_points
        hands = state.hands
        points = [0, 0, 0, 0]
        if state.ruleset.options["scoring"] == "low-score":
            # R-WIN-LOW with pairs: each pair is charged both partners' hands.
            for a, b in PAIRS:
                points[a] = points[b] = value(hands[a]) + value(hands[b])
        elif result.winner is not None:
            # R-TEAM: the pair of the seat that went out scores both opponents' hands.
            a, b = pair_of(result.winner)
            c, d = pair_of(result.winner + 1)
            points[a] = points[b] = value(hands[c]) + value(hands[d])
        return points

    @hookimpl
    def game_outcome(self, draft: Draft) -> Outcome | None:
        state = draft
        # R-TEAM: pair scores to the target (both partners hold the pair's score).
        target = state.ruleset.options["target_score"]
        first, second = (state.scores[a] for a, _ in PAIRS)
        if first < target and second < target:
            return None
        if state.ruleset.options["scoring"] == "low-score":
            return Outcome(PAIRS[1] if second < first else PAIRS[0], "team-low-score")
        return Outcome(PAIRS[1] if second > first else PAIRS[0], "team-target")


plugin = PartnersPlugin()
"""The plugin object the ``unorules`` entry point ``partners`` names."""


# -- R-TEAM-ROTATE: rotating partners ------------------------------------------------------------

Seating = tuple[int, int, int, int]
"""The players sitting at seats 0 to 3 of one table: seats 0 and 2 are partners, so are 1 and 3."""

# The three ways to split four players into two pairs, as seatings.
_FOUR_PLAYER_PAIRINGS: tuple[Seating, ...] = ((0, 2, 1, 3), (0, 1, 2, 3), (0, 1, 3, 2))


def rotation_schedule(players: int, rounds: int | None = None) -> tuple[tuple[Seating, ...], ...]:
    """The seatings of a rotating-partner tournament, round by round and table by table (R-TEAM-ROTATE).

    * 4 players, one table: round ``r`` uses pairing ``r mod 3`` of the three
      possible pairings; ``rounds`` defaults to [LT]'s 4 (the fourth round
      repeats the first pairing; ``rounds=3`` is the balanced schedule).
    * 8 players, two tables: 7 rounds by default, in which every player
      partners every other player exactly once (28 partnerships); more rounds
      cycle through the 7 again.

    Each seating names the players at seats 0 to 3; seats 0 and 2, and 1 and 3,
    are partners. Raises ``ValueError`` for other player counts.
    """
    if players == 4:
        full: tuple[tuple[Seating, ...], ...] = tuple((s,) for s in _FOUR_PLAYER_PAIRINGS)
        default = 4
    elif players == 8:
        full = tuple(_eight_player_round(r) for r in range(7))
        default = 7
    else:
        raise ValueError(
            f"rotating partners (R-TEAM-ROTATE) is for 4 players at one table or 8 at two, not {players}"
        )
    count = default if rounds is None else rounds
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"rounds must be a positive integer, not {rounds!r}")
    return tuple(full[r % len(full)] for r in range(count))


def _eight_player_round(r: int) -> tuple[Seating, Seating]:
    # The circle method: player 7 stays put, players 0-6 turn one place a
    # round; round r pairs 7 with r and (r+i) with (r-i) for i = 1, 2, 3.
    # Over 7 rounds that is each of the 28 pairs exactly once.
    pairs = [(r, 7)] + [((r + i) % 7, (r - i) % 7) for i in (1, 2, 3)]
    (a, b), (c, d), (e, f), (g, h) = pairs
    return (a, c, b, d), (e, g, f, h)


def schedule_partnerships(schedule: Sequence[Sequence[Seating]]) -> list[frozenset[int]]:
    """Every partnership of ``schedule``, in order: two per table per round."""
    found: list[frozenset[int]] = []
    for tables in schedule:
        for seating in tables:
            found += [frozenset((seating[0], seating[2])), frozenset((seating[1], seating[3]))]
    return found


def rotation_totals(
    players: int,
    schedule: Sequence[Sequence[Seating]],
    points: Sequence[Sequence[Sequence[int]]],
) -> tuple[int, ...]:
    """Each player's total of the points their pair won (R-TEAM-ROTATE).

    ``points[r][t]`` are the points of the round played at table ``t`` in
    round ``r``, by seat (a partners round gives the pair's points to both
    partners, as ``RoundResult.points`` does).
    """
    if len(points) != len(schedule):
        raise ValueError(f"points for {len(points)} rounds, but the schedule has {len(schedule)}")
    totals = [0] * players
    for r, (tables, round_points) in enumerate(zip(schedule, points, strict=True)):
        if len(round_points) != len(tables):
            raise ValueError(f"round {r}: points for {len(round_points)} tables, expected {len(tables)}")
        for seating, seat_points in zip(tables, round_points, strict=True):
            if len(seat_points) != 4:
                raise ValueError(f"round {r}: expected points for 4 seats, got {list(seat_points)}")
            for seat, player in enumerate(seating):
                totals[player] += seat_points[seat]
    return tuple(totals)


def rotation_winners(totals: Sequence[int]) -> tuple[int, ...]:
    """The players with the highest total (R-TEAM-ROTATE); tied players share the win."""
    best = max(totals)
    return tuple(p for p, total in enumerate(totals) if total == best)


@attrs.frozen
class RotationResult:
    """A finished rotating-partner tournament: who sat where, what each table's
    round scored (by seat), each player's total and the winners."""

    schedule: tuple[tuple[Seating, ...], ...]
    points: tuple[tuple[tuple[int, ...], ...], ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def play_rotation(
    players: int,
    play_table: Callable[[int, int, Seating], Sequence[int]],
    rounds: int | None = None,
) -> RotationResult:
    """Run a rotating-partner tournament (R-TEAM-ROTATE).

    ``play_table(round, table, seating)`` plays one round at one table with
    ``seating[seat]`` sitting at ``seat`` and returns that round's points by
    seat, e.g. ``state.rounds[0].points`` of a ``partners`` game played until
    its first round ended.
    """
    schedule = rotation_schedule(players, rounds)
    points = tuple(
        tuple(tuple(play_table(r, t, seating)) for t, seating in enumerate(tables))
        for r, tables in enumerate(schedule)
    )
    totals = rotation_totals(players, schedule, points)
    return RotationResult(schedule, points, totals, rotation_winners(totals))

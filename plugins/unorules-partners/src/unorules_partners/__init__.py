"""Partners: pairs sitting opposite (R-TEAM), teams of 6 to 10 (R-HOUSE-TEAMS), rotations (R-TEAM-ROTATE).

Enable it with ``Ruleset.from_names(["classic", "partners"])`` (or
``["flip", "partners"]``); it needs a base rule set that deals the cards and
plays them, and names none. It plays with exactly four seats, or any even number from four
to ten with ``team_seats=even``.

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

**R-HOUSE-TEAMS** (a house rule; [LU] ``teamMode``)
    Partners at any even number of seats, 4, 6, 8 or 10 (option
    ``team_seats=even``), in one of two layouts (option ``team_layout``):
    ``pairs``, seat ``i`` with seat ``i + n/2``, so ``n/2`` teams of two sit
    opposite (R-TEAM's layout); or ``two-teams``, the even seats against the
    odd ones, so turns alternate between two teams. The team of the seat that
    goes out scores every opponent's hand, and each member is credited the
    team's points. With four seats both layouts are R-TEAM's.

**R-TEAM-ROTATE** [LT]
    Library functions, not a rule set: :func:`rotation_schedule` seats the
    players of a rotating-partner tournament round by round,
    :func:`rotation_totals` adds up, for each player, the points their pair
    won in every round, :func:`rotation_winners` names the highest total and
    :func:`play_rotation` runs a whole tournament, calling back to play each
    table's round (for instance one round of a ``partners`` game).

Options
-------

``team_seats`` (``four`` by default; ``even``)
    ``four``: exactly four players (R-TEAM). ``even``: 4, 6, 8 or 10 players
    (R-HOUSE-TEAMS).
``team_layout`` (``pairs`` by default; ``two-teams``)
    Who plays together (R-HOUSE-TEAMS): each seat with the seat opposite, in
    teams of two, or every other seat, in two teams.

The base rule set's ``target_score`` is the team's target (500 when it has no such
option) and its ``scoring`` is honoured (classic's and flip's): with
``scoring="low-score"`` (R-WIN-LOW) each team is charged the points of all its members'
hands, and when a team reaches the target the team with *fewer* points wins.

Decisions where the rules are silent
------------------------------------

* **Player count.** A game with other than four players (with
  ``team_seats=even``: other than 4, 6, 8 or 10) is refused when it is
  created (``Ruleset.new_game`` raises :class:`~unorules.RulesetError`, through
  the core's ``check_game`` hook). Four stays the default so that a rule set
  named ``classic,partners`` means the game the sources describe.
* **Teams of more than two** (``two-teams`` at 6 to 10 seats) score like
  pairs: the team of the seat that went out scores the hands of every seat
  of the other team, and each member holds the team's score.
* **Nothing else is shared.** The seeds only join the pair's *score*: each
  partner keeps a private hand (no seeing or passing cards), plays their own
  turns, calls their own UNO and takes their own penalties. A player may even
  catch their own partner's missing UNO call (legal, if unwise).
* **Blocked rounds** (classic's decision) keep classic's winner, the seat with
  the fewest hand points; that seat's pair scores the opponents' hands.
* **Ties.** In low-score scoring several teams can reach the target in the
  same round; equal totals go to the team of the lowest seat (seat 0's).
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
``last-loses`` conflicts too: a partners round ends when either partner goes
out (R-TEAM).

``flip``
    Pairs score the hands by the faces in play (``Position.hand_value``),
    to flip's ``target_score``.
``no-mercy``
    Conflicts (no-mercy declares it): partners are not defined with the Mercy
    rule's knockouts (R-NM-MERCY).

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

from unorules import (
    Draft,
    GameState,
    Option,
    Outcome,
    Plugin,
    RoundResult,
    Ruleset,
    RulesetError,
    hookimpl,
    one_of,
)
from unorules.validate import require

__all__ = [
    "PAIRS",
    "TEAM_COUNTS",
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
    "team_layout",
    "team_of",
]

PAIRS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
"""The two pairs of a partners game, by seat: partners sit opposite (R-TEAM)."""


def partner_of(seat: int) -> int:
    """The seat opposite ``seat`` in a four-seat game: its partner (R-TEAM)."""
    return (seat + 2) % 4


def pair_of(seat: int) -> tuple[int, int]:
    """The pair ``seat`` belongs to, lowest seat first."""
    return PAIRS[seat % 2]


TEAM_COUNTS = (4, 6, 8, 10)
"""The player counts ``team_seats=even`` allows (R-HOUSE-TEAMS)."""


def team_layout(players: int, layout: str = "pairs") -> tuple[tuple[int, ...], ...]:
    """The teams of a game of ``players`` seats (an even number), lowest seat first:
    ``pairs``: seat ``i`` with seat ``i + players/2`` (R-TEAM, R-HOUSE-TEAMS);
    ``two-teams``: the even seats against the odd ones (R-HOUSE-TEAMS). Both
    give :data:`PAIRS` for four seats."""
    if players % 2 or players < 4:
        raise ValueError(f"teams need an even number of seats from 4, not {players}")
    if layout == "two-teams":
        return (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
    half = players // 2
    return tuple((seat, seat + half) for seat in range(half))


def team_of(teams: Sequence[Sequence[int]], seat: int) -> tuple[int, ...]:
    """The team of ``teams`` that ``seat`` plays in."""
    for team in teams:
        if seat in team:
            return tuple(team)
    raise ValueError(f"seat {seat} is in no team of {teams}")


def _teams(ruleset: Ruleset, players: int) -> tuple[tuple[int, ...], ...]:
    return team_layout(players, ruleset.options["team_layout"])


DEFAULT_TARGET = 500
"""The team's target when the base rule set has no ``target_score`` option (classic's
and flip's default)."""


class PartnersPlugin(Plugin):
    """Partners: players in teams sitting apart, team scores to the target.

    Two pairs sitting opposite; a pair scores both opponents' hands (R-TEAM);
    with team_seats=even, 6, 8 or 10 players in pairs or two teams (R-HOUSE-TEAMS).
    """

    name = "partners"
    api_version = 2
    conflicts: ClassVar[Mapping[str, str]] = {
        "elimination": "an elimination tournament removes single seats, but partners play as fixed pairs"
    }
    rules = ("R-TEAM", "R-TEAM-ROTATE", "R-HOUSE-TEAMS")
    options = (
        Option(
            "team_seats",
            "four",
            "how many play: exactly four, as the sources say (R-TEAM), or any even number from 4 "
            "to 10 (R-HOUSE-TEAMS)",
            one_of("four", "even"),
            "four, even",
        ),
        Option(
            "team_layout",
            "pairs",
            "R-HOUSE-TEAMS: who plays together: each seat with the seat opposite, in teams of two "
            "(pairs), or every other seat, in two teams (two-teams); the same with four players",
            one_of("pairs", "two-teams"),
            "pairs, two-teams",
        ),
    )

    @hookimpl
    def teams(self, ruleset: Ruleset, players: int) -> Sequence[Sequence[int]] | None:
        # R-TEAM: seats 0 and 2 against seats 1 and 3; R-HOUSE-TEAMS: 6, 8 or 10 seats.
        allowed = TEAM_COUNTS if ruleset.options["team_seats"] == "even" else (4,)
        return _teams(ruleset, players) if players in allowed else None

    @hookimpl
    def check_game(self, ruleset: Ruleset, players: int) -> None:
        # R-TEAM: four players, two pairs sitting opposite (R-HOUSE-TEAMS: any even number).
        if ruleset.options["team_seats"] == "even":
            if players not in TEAM_COUNTS:
                raise RulesetError(
                    f"partners with team_seats=even (R-HOUSE-TEAMS) is played by 4, 6, 8 or 10 players, "
                    f"not {players}"
                )
            return
        if players != 4:
            raise RulesetError(
                f"partners (R-TEAM) is played by exactly 4 players in two pairs sitting opposite, "
                f"not {players}; team_seats=even allows 6, 8 or 10 (R-HOUSE-TEAMS); for 4 or 8 players "
                "changing partners see unorules_partners.play_rotation"
            )

    @hookimpl
    def check_state(self, state: GameState) -> None:
        # R-TEAM (R-HOUSE-TEAMS): an even number of seats in teams, each team one score.
        counts = TEAM_COUNTS if state.ruleset.options["team_seats"] == "even" else (4,)
        require(
            state.players in counts,
            "hands",
            f"R-TEAM: partners is played by {' or '.join(map(str, counts))} seats, not {state.players}",
        )
        teams = _teams(state.ruleset, state.players)
        scores = state.scores
        for team in teams:
            for seat in team[1:]:
                require(
                    scores[seat] == scores[team[0]],
                    f"scores[{seat}]",
                    f"R-TEAM: partners share their team's score (seats {', '.join(map(str, team))})",
                )
        if state.outcome is not None:
            require(
                state.outcome.winners in teams,
                "outcome.winners",
                f"R-TEAM: a team wins, one of {', '.join(map(str, teams))}",
            )

    @hookimpl
    def score_round(self, draft: Draft, result: RoundResult) -> Sequence[int]:
        state = draft
        value = state.hand_value  # by the faces in play (two-faced decks)
        teams = _teams(state.ruleset, state.players)
        points = [0] * state.players
        if state.ruleset.options.get("scoring") == "low-score":
            # R-WIN-LOW with teams: each team is charged all its members' hands.
            for team in teams:
                charged = sum(value(s) for s in team)
                for seat in team:
                    points[seat] = charged
        elif result.winner is not None:
            # R-TEAM: the team of the seat that went out scores every opponent's hand.
            winners = team_of(teams, result.winner)
            won = sum(value(s) for s in range(state.players) if s not in winners)
            for seat in winners:
                points[seat] = won
        return points

    @hookimpl
    def game_outcome(self, draft: Draft) -> Outcome | None:
        state = draft
        # R-TEAM: team scores to the target (every member holds the team's score);
        # ties go to the team of the lowest seat.
        target = state.ruleset.options.get("target_score", DEFAULT_TARGET)
        teams = _teams(state.ruleset, state.players)
        totals = [state.scores[team[0]] for team in teams]
        if max(totals) < target:
            return None
        if state.ruleset.options.get("scoring") == "low-score":
            return Outcome(teams[totals.index(min(totals))], "team-low-score")
        return Outcome(teams[totals.index(max(totals))], "team-target")


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

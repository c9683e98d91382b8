"""UNO Show 'Em No Mercy measured against a published study's figures.

    .venv/bin/python benchmarks/no_mercy.py                  # about 400 CPU seconds (one process)
    .venv/bin/python benchmarks/no_mercy.py --games 300      # quicker, wider intervals
    .venv/bin/python benchmarks/no_mercy.py --json nm.json   # the figures as JSON too

The study ("UNO Show 'Em No Mercy: is it solved, and is the average game
infinitely long?", a C simulator checked against an independent Python one
over 54 million games and several contested readings) reports, for its default
reading and deck breakdown:

* random play: a game lasts 31.9 turns on average with 2 players, 135.5 with 6;
* a greedy bot beats a random one 67-33 (heads-up);
* without the Mercy rule some random games never end, from 4 players up.

This script measures the same with unorules' ``no-mercy`` plugin (its default
options: the ``fw`` deck, the study's breakdown) through ``unorules.sim`` (the
engine of ``unorules simulate``): every game is ``sim.play_game`` with the
library's bots, seeded (game ``i`` of a run from ``(seed, i)``), so a run is
repeatable. What it prints:

1. **game length under random play**, 2 to 6 players (``RandomBot`` at every
   seat): turns per game (mean with a 95% interval, median), actions per game,
   and how games end (the last card, the last seat standing, a blocked hand);
   then (1b) the same with random bots that never act out of turn, so nobody
   is ever caught without calling UNO (a simulator without UNO calls plays so);
2. **the same under other readings** of the disputed rules (one option changed
   at a time), at 2 and 6 players: how far each reading moves the length;
3. **greedy against random**, heads-up, seats alternating: the share of games
   each wins (with a 95% interval), for this script's ``GreedyBot`` and for the
   library's ``heuristic`` bot;
4. **without the Mercy rule** (``mercy_limit=off``), 2 to 6 players: the share
   of random games still going after ``--cap`` actions (never ending, for
   practical purposes), and the length of those that ended.

A *turn* is an action of the seat to move in the ``play``, ``stack`` or
``roulette`` phase (a *move*, also reported, is any action of the seat to
move but an UNO call or a catch): drawing until playable and playing the card drawn is one
turn, taking a stack is a turn, a Roulette's victim naming the colour is its
(lost) turn, a Skip Everyone's extra turn is a turn. UNO calls and catches are
not turns. The study counts a turn per player move; its exact definition is
not published, which is one possible source of differences (see
``docs/editions/no-mercy.rst``, where this run's figures are reported).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from unorules import Action, Card, Ruleset, SeatView, sim
from unorules.bots import Bot, HeuristicBot, RandomBot

TURN_PHASES = frozenset({"play", "stack", "roulette"})
"""The phases whose action by the seat to move starts a turn (see the module docstring)."""

STUDY = {"turns_2": 31.9, "turns_6": 135.5, "greedy_share": 0.67}
"""The study's figures (random play, its default reading)."""

READINGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("defaults (fw deck)", {}),
    ("om deck", {"nm_deck": "om"}),
    ("stack same-kind", {"nm_stack_rule": "same-kind"}),
    ("WR+4 no-reverse in a stack", {"nm_wrd4_in_stack": "no-reverse"}),
    ("roulette named by its player", {"nm_roulette_namer": "player"}),
    ("voluntary draw", {"nm_voluntary_draw": "on"}),
    ("handed one card: exempt", {"nm_uno_when_handed": "exempt"}),
    ("play until one is left", {"nm_end": "last-standing"}),
    ("heads-up WR+4 hits the other seat", {"nm_2p_wrd4": "other"}),
)
"""The disputed readings measured against the defaults, one option at a time."""


class Counting:
    """A bot that counts, around another bot, the turns it takes (see the module
    docstring) and its moves: every action of its seat as the seat to move but
    UNO calls and catches (so drawing until playable and then playing the card
    drawn are two moves)."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.turns = 0
        self.moves = 0

    def choose(self, view: SeatView) -> Action | None:
        chosen = self.inner.choose(view)
        if chosen is not None and view.current_player == view.seat and chosen.verb not in ("uno", "catch"):
            self.moves += 1
            if view.phase.name in TURN_PHASES:
                self.turns += 1
        return chosen


class GreedyBot:
    """Plays for the most it can gain at once, from its own view.

    * calls UNO whenever it may and catches whoever it may;
    * on its turn plays the card worth most: a draw card by what it makes the
      next seat draw (so it always adds to a stack it can add to), then a
      Discard All by the cards it sheds, then the card's points; draws only
      when it must;
    * names the colour it holds most of (also as a Roulette's victim); a 7
      trades with the seat holding the fewest cards.
    """

    name = "greedy"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action | None:
        actions = view.legal_actions
        if not actions or view.seat is None:
            return None
        for verb in ("uno", "catch"):
            for action in actions:
                if action.verb == verb:
                    return action
        if view.current_player != view.seat:
            return None
        plays = [a for a in actions if a.verb == "play" and a.card is not None]
        if plays:
            best = max(self._value(a.card, view) for a in plays if a.card is not None)
            return self._pick(
                [a for a in plays if a.card is not None and self._value(a.card, view) == best], view
            )
        colors = [a for a in actions if a.verb == "color"]
        if colors:
            return self._pick(colors, view)
        return actions[0]  # draw

    def _value(self, card: Card, view: SeatView) -> tuple[int, int, int]:
        draws = {"+2": 2, "+4": 4, "WR+4": 4, "W+6": 6, "W+10": 10}.get(card.kind, 0)
        shed = sum(1 for c in view.hand if c.color is card.color) if card.kind == "DA" else 0
        return (draws, shed, view.rules.card_points(card))

    def _pick(self, options: Sequence[Action], view: SeatView) -> Action:
        held = Counter(c.color for c in view.hand if c.color is not None)
        sizes = view.hand_sizes

        def key(action: Action) -> tuple[int, int]:
            colour = held[action.color] if action.color is not None else 0
            target = -sizes[action.target] if action.target is not None else 0
            return (colour, target)

        top = max(key(a) for a in options)
        return self.rng.choice([a for a in options if key(a) == top])


def interval(successes: int, n: int) -> tuple[float, float]:
    """A 95% Wilson interval for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and a 95% normal interval for it."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


@dataclass
class Lengths:
    """What a set of random games measured."""

    players: int
    reading: str
    turns: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)
    unfinished: int = 0

    def row(self) -> dict[str, Any]:
        done = len(self.turns)
        mean, low, high = mean_interval(self.turns) if done else (math.nan, math.nan, math.nan)
        return {
            "players": self.players,
            "reading": self.reading,
            "games": done + self.unfinished,
            "turns_mean": round(mean, 2),
            "turns_ci95": [round(low, 2), round(high, 2)],
            "turns_median": statistics.median(self.turns) if done else None,
            "moves_mean": round(statistics.fmean(self.moves), 2) if done else None,
            "actions_mean": round(statistics.fmean(self.actions), 1) if done else None,
            "endings": dict(self.endings),
            "unfinished": self.unfinished,
            "unfinished_share": round(self.unfinished / (done + self.unfinished), 4),
        }


def random_lengths(
    players: int,
    games: int,
    seed: str,
    options: Mapping[str, Any],
    reading: str,
    cap: int,
    eagerness: float = 0.5,
) -> Lengths:
    """``games`` random games of No Mercy with ``options`` at ``players`` seats
    (``eagerness``: how often a random bot takes an out-of-turn action, a catch
    or a late UNO call, when it may)."""
    rules = Ruleset.from_names(["no-mercy"], options=dict(options))
    found = Lengths(players, reading)
    for index in range(games):
        bots = [Counting(RandomBot(seed=f"{seed}/{index}/{s}", eagerness=eagerness)) for s in range(players)]
        result = sim.play_game(rules, bots, seed=seed, index=index, max_actions=cap)
        if result.status != "over":
            found.unfinished += 1
            continue
        found.turns.append(sum(b.turns for b in bots))
        found.moves.append(sum(b.moves for b in bots))
        found.actions.append(result.actions)
        found.endings[result.reason] += 1
    return found


def head_to_head(make: Any, games: int, seed: str) -> tuple[int, int]:
    """``games`` heads-up games of a bot made by ``make(seed)`` against RandomBot,
    seats alternating; returns (the bot's wins, games decided)."""
    rules = Ruleset.from_names(["no-mercy"])
    wins = decided = 0
    for index in range(games):
        mine = index % 2
        bots: list[Bot] = [RandomBot(seed=f"{seed}/{index}/r"), RandomBot(seed=f"{seed}/{index}/r2")]
        bots[mine] = make(f"{seed}/{index}/b")
        result = sim.play_game(rules, bots, seed=seed, index=index)
        if result.status != "over" or not result.winners:
            continue
        decided += 1
        wins += result.winners[0] == mine
    return wins, decided


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="No Mercy against a published study's figures")
    parser.add_argument(
        "--games", type=int, default=2000, help="random games per player count (default 2000)"
    )
    parser.add_argument("--quiet-games", type=int, default=1000, help="games per count, no catches (1000)")
    parser.add_argument(
        "--reading-games", type=int, default=600, help="games per reading and count (default 600)"
    )
    parser.add_argument("--duels", type=int, default=2000, help="heads-up games per bot (default 2000)")
    parser.add_argument("--no-mercy-games", type=int, default=100, help="games per count, Mercy off (100)")
    parser.add_argument(
        "--cap", type=int, default=10000, help="actions after which a game is unfinished (default 10000)"
    )
    parser.add_argument("--seed", default="nm", help="seed of the whole run")
    parser.add_argument("--json", metavar="FILE", help="write the figures to FILE as JSON")
    args = parser.parse_args(argv)
    start = time.process_time()
    out: dict[str, Any] = {"study": STUDY, "seed": args.seed}

    print("1. random play, default options (fw deck): turns per game")
    print(
        f"{'players':>7} {'games':>6} {'turns':>8} {'95% interval':>16} {'median':>7} {'moves':>7} "
        f"{'actions':>8}  endings"
    )
    rows = []
    for players in range(2, 7):
        found = random_lengths(players, args.games, f"{args.seed}/random{players}", {}, "defaults", args.cap)
        row = found.row()
        rows.append(row)
        low, high = row["turns_ci95"]
        study = {2: STUDY["turns_2"], 6: STUDY["turns_6"]}.get(players)
        note = f"   (study: {study})" if study else ""
        print(
            f"{players:>7} {row['games']:>6} {row['turns_mean']:>8.1f} {f'{low:.1f}-{high:.1f}':>16} "
            f"{row['turns_median']:>7} {row['moves_mean']:>7} {row['actions_mean']:>8}  "
            f"{row['endings']}{note}"
        )
    out["random"] = rows

    print("\n1b. random play, the bots never acting out of turn (no catches, no late UNO calls)")
    quiet = []
    for players in range(2, 7):
        found = random_lengths(
            players,
            args.quiet_games,
            f"{args.seed}/quiet{players}",
            {},
            "no catches",
            args.cap,
            eagerness=0.0,
        )
        row = found.row()
        quiet.append(row)
        low, high = row["turns_ci95"]
        print(
            f"{players:>7} {row['games']:>6} {row['turns_mean']:>8.1f} {f'{low:.1f}-{high:.1f}':>16}  "
            f"{row['endings']}"
        )
    out["random_no_catches"] = quiet

    print("\n2. other readings, one option at a time: mean turns per game")
    readings = []
    for label, options in READINGS:
        cells = []
        for players in (2, 6):
            found = random_lengths(
                players, args.reading_games, f"{args.seed}/reading{players}", options, label, args.cap
            )
            cells.append(found.row())
        readings.append({"reading": label, "options": options, "rows": cells})
        print(
            f"  {label:<32} 2 players {cells[0]['turns_mean']:>6.1f}   "
            f"6 players {cells[1]['turns_mean']:>6.1f}"
        )
    out["readings"] = readings

    print("\n3. heads-up against RandomBot, seats alternating: share of games won")
    duels = {}
    for name, make in (("greedy", GreedyBot), ("heuristic", HeuristicBot)):
        wins, decided = head_to_head(make, args.duels, f"{args.seed}/duel-{name}")
        low, high = interval(wins, decided)
        duels[name] = {"wins": wins, "games": decided, "share": round(wins / decided, 4), "ci95": [low, high]}
        print(
            f"  {name:<10} {wins}/{decided} = {wins / decided:.3f} (95% {low:.3f}-{high:.3f})"
            "   (study, greedy: 0.67)"
        )
    out["head_to_head"] = duels

    print(f"\n4. without the Mercy rule (mercy_limit=off): random games still going after {args.cap} actions")
    unended = []
    for players in range(2, 7):
        found = random_lengths(
            players,
            args.no_mercy_games,
            f"{args.seed}/nomercy{players}",
            {"mercy_limit": "off"},
            "no mercy",
            args.cap,
        )
        row = found.row()
        unended.append(row)
        low, high = interval(found.unfinished, row["games"])
        print(
            f"  {players} players: {found.unfinished}/{row['games']} unfinished "
            f"({row['unfinished_share']:.3f}, 95% {low:.3f}-{high:.3f}); "
            f"the others: {row['turns_mean']:.1f} turns, {row['endings']}"
        )
    out["no_mercy"] = unended
    out["cpu_seconds"] = round(time.process_time() - start, 1)
    print(f"\n{out['cpu_seconds']} CPU s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

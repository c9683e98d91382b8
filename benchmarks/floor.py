"""The floor: classic UNO as a plain Python loop, to say how far unorules is from what Python allows.

    .venv/bin/python benchmarks/floor.py                  # the floor and unorules' classic, side by side
    .venv/bin/python benchmarks/floor.py --reps 3 --min-time 0.5 --players 4

:func:`play_floor` plays one game of classic UNO the way ``run.py``'s classic
workload does: the 108-card deck (R-DECK-108), games to 500 points, and at
every step a uniform ``random.Random(seed).choice`` among every legal action,
the UNO calls and catches out of turn included. It is written as tightly as
plain Python allows and no more: one function, local variables, cards as
small ints, hands as lists changed in place, a list of legal actions built at
each step; no hooks, no events, no frozen states, no validation, no rule set.

Its actions are the library's: a play (one per colour for a wild), a draw, a
pass keeping a playable drawn card (``drawn_card=may-keep``), a call ("uno",
on two cards or late), a catch (every other seat, while a seat holding one card
has not called, R-UNO-CATCH, 2 cards), a challenge or an acceptance of a Wild
Draw Four (R-CHALLENGE, by its victim), a colour for a wild starter; the
penalty draws of a Draw Two and a Wild Draw Four are actions of their own, as
in classic. Its games differ from the library's (its own shuffles, seat 0 the first
dealer rather than a dealer draw), so ``actions/game`` is printed beside
each figure: the two loops play games of the same length.

``run.py`` reports classic as a share of the floor in the same run.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time

Card = int
"""A card: an index into :data:`CARDS` (the 54 distinct cards; copies are equal)."""

WILD = 4
"""The colour of a wild card."""

TARGET = 500
"""The score that ends a game (R-WIN)."""

CARDS: tuple[tuple[int, str, int], ...] = (
    *(
        (color, kind, points)
        for color in range(4)
        for kind, points in (
            *((str(number), number) for number in range(10)),
            ("S", 20),
            ("R", 20),
            ("+2", 20),
        )
    ),
    (WILD, "W", 50),
    (WILD, "W+4", 50),
)
"""Each distinct card's colour (0-3, :data:`WILD` for a wild), kind and points."""
COLOR_OF = tuple(c[0] for c in CARDS)
KIND_OF = tuple(c[1] for c in CARDS)
POINTS = tuple(c[2] for c in CARDS)


def deck() -> list[Card]:
    """The 108 cards (R-DECK-108): per colour one 0, two of 1-9 and two each of
    Skip, Reverse and Draw Two; four Wilds and four Wild Draw Fours."""
    cards: list[Card] = []
    for card, (_, kind, _) in enumerate(CARDS):
        cards += [card] * (1 if kind == "0" else 4 if kind in ("W", "W+4") else 2)
    return cards


DECK = tuple(deck())

# The phases (what the seat to move is asked), as small ints.
PLAY, DRAWN, PENALTY, CHALLENGE, COLOR = range(5)

Move = tuple[int, str, int, int]
"""An action: its seat, its verb, its card (-1: none) and a colour named or a
seat caught (-1: none); built once per table size, as the library interns its
actions."""


def _moves(n: int) -> tuple[list[list[list[Move]]], list[dict[str, Move]], list[list[Move]]]:
    """For ``n`` seats: each seat's plays of each card (one per colour for a
    wild), each seat's other actions by verb, and each seat's catches by
    target."""
    plays = [
        [
            [(s, "play", c, named) for named in range(4)] if COLOR_OF[c] == WILD else [(s, "play", c, -1)]
            for c in range(len(CARDS))
        ]
        for s in range(n)
    ]
    other = [
        {verb: (s, verb, -1, -1) for verb in ("draw", "pass", "uno", "challenge", "accept")} for s in range(n)
    ]
    colors = [[(s, "color", -1, named) for named in range(4)] for s in range(n)]
    for s in range(n):
        for named in range(4):
            other[s][f"color{named}"] = colors[s][named]
    catches = [[(s, "catch", -1, t) for s in range(n) if s != t] for t in range(n)]
    return plays, other, catches


def play_floor(players: int, seed: int) -> tuple[int, int]:
    """One seeded game, uniform random legal actions: (actions, rounds)."""
    actions, rounds, _ = floor_game(players, seed)
    return actions, rounds


def floor_game(players: int, seed: int, check: bool = False) -> tuple[int, int, list[int]]:
    """One seeded game: (actions, rounds, final scores). With ``check`` every
    action is followed by a count of the cards: the 108 are all somewhere."""
    choice = random.Random(seed).choice
    shuffle = random.Random(f"floor/{seed}").shuffle
    n = players
    plays, other, catches = _moves(n)
    colors = [[other[s][f"color{named}"] for named in range(4)] for s in range(n)]
    color_of, kind_of, points = COLOR_OF, KIND_OF, POINTS
    scores = [0] * n
    dealer = 0
    actions = rounds = 0
    while max(scores) < TARGET:
        rounds += 1
        # -- the deal (R-SETUP-DEAL, R-SETUP-STARTER)
        pile = list(DECK)
        shuffle(pile)
        hands = [pile[7 * s : 7 * s + 7] for s in range(n)]
        del pile[: 7 * n]
        top = pile.pop()
        while kind_of[top] == "W+4":  # returned, the deck reshuffled, another turned
            pile.append(top)
            shuffle(pile)
            top = pile.pop()
        discard = [top]
        color = color_of[top]
        top_kind = kind_of[top]
        direction = 1
        current = (dealer + 1) % n
        phase = PLAY
        drawn = top
        count = bluffer = 0
        previous = 0  # the colour a Wild Draw Four was played on
        declared = [False] * n
        exposed = -1  # the seat open to a catch, or -1
        stalled = 0
        if top_kind == "+2":
            phase, count = PENALTY, 2
        elif top_kind == "S":
            current = (dealer + 2) % n
        elif top_kind == "R":
            direction, current = -1, dealer
        elif color == WILD:
            phase = COLOR
        winner = -1
        while winner < 0:
            hand = hands[current]
            mine = other[current]
            legal: list[Move] = []
            if phase == PLAY:
                seen: set[Card] = set()
                table = plays[current]
                for card in hand:
                    if card in seen:
                        continue
                    c = color_of[card]
                    if c in (WILD, color) or kind_of[card] == top_kind:
                        seen.add(card)
                        legal += table[card]
                if pile or len(discard) > 1 or not seen:
                    legal.append(mine["draw"])
                if len(hand) == 2 and not declared[current]:
                    legal.append(mine["uno"])
            elif phase == DRAWN:
                legal += plays[current][drawn]
                legal.append(mine["pass"])
                if len(hand) == 2 and not declared[current]:
                    legal.append(mine["uno"])
            elif phase == PENALTY:
                legal.append(mine["draw"])
            elif phase == CHALLENGE:
                legal.append(mine["challenge"])
                legal.append(mine["accept"])
            else:
                legal += colors[current]
            if exposed >= 0:  # R-UNO-SELF, R-UNO-CATCH
                legal.append(other[exposed]["uno"])
                legal += catches[exposed]
            seat, verb, card, arg = choice(legal)
            actions += 1
            draw = 0  # cards ``seat`` draws
            turn = False  # whether that is a turn's draw (R-TURN-DRAW)
            if verb == "play":
                hand.remove(card)
                discard.append(card)
                before = color
                color = color_of[card] if arg < 0 else arg
                top_kind = kind = kind_of[card]
                exposed = seat if len(hand) == 1 and not declared[seat] else -1
                declared[seat] = False
                stalled = 0
                nxt = (seat + direction) % n
                if not hand:  # R-OUT; R-OUT-LAST-DRAW
                    winner = seat
                    if kind == "+2" or kind == "W+4":
                        seat, draw = nxt, 2 if kind == "+2" else 4
                elif kind == "S":
                    current, phase = (seat + 2 * direction) % n, PLAY
                elif kind == "R":
                    direction = -direction
                    current, phase = (seat + (2 if n == 2 else 1) * direction) % n, PLAY
                elif kind == "+2":
                    current, phase, count = nxt, PENALTY, 2
                elif kind == "W+4":
                    current, phase, count, bluffer, previous = nxt, CHALLENGE, 4, seat, before
                else:
                    current, phase = nxt, PLAY
            elif verb == "draw":
                exposed = -1  # the turn action closes the window
                if phase == PENALTY:
                    draw = count
                    current, phase = (seat + direction) % n, PLAY
                elif pile or len(discard) > 1:
                    draw, turn = 1, True
                    stalled = 0
                else:  # nothing to draw (Section 13)
                    stalled += 1
                    if stalled >= n:
                        winner = min(range(n), key=lambda s: (sum(points[c] for c in hands[s]), s))
                    current = (seat + direction) % n
            elif verb == "pass":
                exposed = -1
                current, phase = (seat + direction) % n, PLAY
            elif verb == "uno":
                if exposed == seat:
                    exposed = -1
                else:
                    declared[seat] = True
            elif verb == "catch":
                seat, draw = arg, 2
                exposed = -1
            elif verb == "challenge":
                exposed = -1
                if any(color_of[c] == previous for c in hands[bluffer]):  # guilty: the bluffer draws
                    seat, draw = bluffer, count
                    phase = PLAY
                else:
                    draw = count + 2
                    current, phase = (seat + direction) % n, PLAY
            elif verb == "accept":
                exposed = -1
                draw = count
                current, phase = (seat + direction) % n, PLAY
            else:  # a colour for a wild starter
                color, phase = arg, PLAY
            if draw:
                taker = hands[seat]
                for _ in range(draw):
                    if not pile:  # R-TURN-RESHUFFLE
                        if len(discard) < 2:
                            break
                        pile = discard[:-1]
                        shuffle(pile)
                        del discard[:-1]
                    taker.append(pile.pop())
                if turn:  # a playable drawn card may be played at once, or kept
                    drawn = taker[-1]
                    c = color_of[drawn]
                    if c in (WILD, color) or kind_of[drawn] == top_kind:
                        phase = DRAWN
                    else:
                        current = (seat + direction) % n
            if check and sum(map(len, hands)) + len(pile) + len(discard) != len(DECK):
                raise AssertionError(f"the floor lost cards at action {actions}")
        # -- the score (R-SCORE)
        scores[winner] += sum(points[c] for s in range(n) if s != winner for c in hands[s])
        dealer = (dealer + 1) % n
    return actions, rounds, scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions (the median is reported)")
    parser.add_argument("--min-time", type=float, default=1.0, help="CPU seconds of play per repetition")
    parser.add_argument("--players", default="2,4", help="player counts")
    args = parser.parse_args(argv)
    from run import Bench, play_unorules  # the benchmark beside this one

    import unorules

    classic = unorules.Ruleset.from_names(["classic"])
    benches: list[tuple[Bench, Bench]] = []
    for n in (int(p) for p in args.players.split(",")):
        floor = Bench("floor", n, functools.partial(play_floor, n))
        benches.append((floor, Bench("classic", n, functools.partial(play_unorules, classic, n))))
    print(
        f"{args.reps} repetitions of >= {args.min_time:g} CPU s each, interleaved; medians below", flush=True
    )
    for rep in range(args.reps):
        for pair in benches:
            for bench in pair if rep % 2 == 0 else pair[::-1]:
                bench.run(args.min_time)
    print(f"{'loop':<12}{'players':>8}{'actions/s':>12}{'games/s':>10}{'actions/game':>14}")
    for pair in benches:
        for bench in pair:
            apg = statistics.median(bench.actions_per_game)
            print(
                f"{bench.label:<12}{bench.players:>8}{bench.median(0):>12,.0f}{bench.median(1):>10,.1f}{apg:>14,.0f}"
            )
    for floor, lib in benches:
        print(f"classic / floor, {floor.players} players: {lib.median(0) / floor.median(0):.3f}x (actions/s)")
    return 0


if __name__ == "__main__":
    started = time.process_time()
    code = main()
    print(f"({time.process_time() - started:.0f} CPU s)")
    sys.exit(code)

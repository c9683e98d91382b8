"""Generators of hostile inputs for the fuzz tests (issue 48, points 6 and 7).

* :func:`impossible_states`: mutations of the JSON of real states (mid-game and
  finished, classic, FLIP!, No Mercy, elimination) that break an invariant the
  engine keeps, each named by its class: a game marked over mid-round, a score
  past the target while play goes on, a seat in play with an emptied hand, an
  UNO window on a hand of many cards, a seat over No Mercy's mercy limit, a seat
  knocked out still holding cards... Every one must be refused.
* :func:`hostile_rulebooks`: rulebook files of the classes the issue found,
  written into a folder: FIFOs, devices, long chains, deep nesting, huge
  numbers, lines that make a regular expression backtrack, and mutations of
  the presets. Every one must be read or refused with a ``RulesetError``.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from unorules import GameState, Ruleset
from unorules.rulebook import MAX_BYTES, preset_names

Data = dict[str, Any]

RULE_SETS: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("classic", {}, 4),
    ("classic", {"target_score": 100}, 2),
    ("flip", {}, 3),
    ("flip", {"target_score": 100}, 2),
    ("no-mercy", {}, 4),
    ("no-mercy", {"nm_scoring": "points", "mercy_limit": 12}, 3),
    ("no-mercy", {"mercy_limit": 12}, 2),
    ("classic,elimination", {"elimination_limit": 60}, 4),
)
"""The rule sets whose states are mutated: names, options, players."""


@functools.cache
def real_states(per_game: int = 4, seeds: int = 3) -> tuple[GameState, ...]:
    """States of seeded random games of :data:`RULE_SETS`: ``per_game`` taken along
    each game, and its last (finished when it ended within 3,000 actions)."""
    found: list[GameState] = []
    for i, (names, options, players) in enumerate(RULE_SETS):
        rules = Ruleset.from_names(names.split(","), options)
        for seed in range(seeds):
            state = rules.new_game(players=players, seed=seed + 10 * i)
            rng = random.Random(seed)
            taken: list[GameState] = []
            for step in range(3000):
                if state.is_over:
                    break
                if step % 37 == 11:
                    taken.append(state)
                state = state.apply(rng.choice(state.legal_actions()))
            picked = taken[:: max(1, len(taken) // per_game)][:per_game]
            found += [*picked, state]
    return tuple(found)


def _target(state: GameState) -> int | None:
    options = state.ruleset.options
    if "no-mercy" in state.ruleset.names:
        return 1000 if options["nm_scoring"] == "points" else None
    if "elimination" in state.ruleset.names:
        return None
    target = options.get("target_score")
    return target if isinstance(target, int) else None


def _active(data: Data) -> list[int]:
    return [s for s in range(len(data["hands"])) if s not in data["left"]]


def _holding(data: Data) -> list[int]:
    return [s for s in _active(data) if data["hands"][s]]


Mutation = Callable[[GameState, Data], Iterator[Data]]


def _over_mid_round(state: GameState, data: Data) -> Iterator[Data]:
    # The reproduction: outcome set on a game in progress, all scores as they are.
    if state.is_over:
        return
    for winner in (0, state.current_player):
        for reason in ("target-score", "low-score", "last-standing", "last-loses", "out"):
            out = copy.deepcopy(data)
            out["outcome"] = {"winners": [winner], "reason": reason}
            yield out


def _over_with_changed_hands(state: GameState, data: Data) -> Iterator[Data]:
    # A finished game whose hands are not those its last round ended with (played on).
    if not state.is_over or not data["draw_pile"]:
        return
    for seat in range(len(data["hands"])):
        out = copy.deepcopy(data)
        out["hands"][seat].append(out["draw_pile"].pop())
        yield out


def _over_with_other_winners(state: GameState, data: Data) -> Iterator[Data]:
    if not state.is_over:
        return
    outcome = data["outcome"]
    for seat in range(len(data["hands"])):
        if [seat] != outcome["winners"]:
            out = copy.deepcopy(data)
            out["outcome"] = {"winners": [seat], "reason": outcome["reason"]}
            yield out
    for reason in ("target-score", "low-score", "last-standing", "resigned"):
        if reason != outcome["reason"]:
            out = copy.deepcopy(data)
            out["outcome"] = {"winners": outcome["winners"], "reason": reason}
            yield out
    out = copy.deepcopy(data)
    out["outcome"] = None  # the rule set ended it: it cannot go on
    yield out


def _score_past_target(state: GameState, data: Data) -> Iterator[Data]:
    # A score at or past the target while play goes on; the scores alone, and the
    # scores with a round's points that agree with them.
    target = _target(state)
    if state.is_over:
        return
    for seat in _active(data):
        for points in (target or 500, (target or 500) + 37, 10**6):
            out = copy.deepcopy(data)
            out["scores"][seat] = points
            yield out
            if out["rounds"] and target is not None:
                agreed = copy.deepcopy(out)
                last = agreed["rounds"][-1]["points"]
                last[seat] += points - data["scores"][seat]
                yield agreed


def _emptied_hand(state: GameState, data: Data) -> Iterator[Data]:
    # A seat in play with no cards while the round runs: its cards moved under the draw pile.
    if state.is_over:
        return
    for seat in _holding(data):
        out = copy.deepcopy(data)
        out["draw_pile"] = out["hands"][seat] + out["draw_pile"]
        out["hands"][seat] = []
        out["uno_declared"] = [s for s in out["uno_declared"] if s != seat]
        out["uno_exposed"] = [s for s in out["uno_exposed"] if s != seat]
        yield out


def _uno_books(state: GameState, data: Data) -> Iterator[Data]:
    # An UNO catch window on a hand of many cards (or the seat also called); a call by a seat
    # holding nothing. (A call standing on ten cards is possible: a call stands through draws.)
    if state.is_over:
        for key in ("uno_declared", "uno_exposed"):
            out = copy.deepcopy(data)
            out[key] = [_active(data)[0]]
            yield out
        return
    for seat in _holding(data):
        if len(data["hands"][seat]) != 1 and seat not in data["uno_exposed"]:
            out = copy.deepcopy(data)
            out["uno_exposed"] = [*out["uno_exposed"], seat]
            yield out
        if (
            len(data["hands"][seat]) == 1
            and seat not in data["uno_exposed"]
            and seat not in data["uno_declared"]
        ):
            out = copy.deepcopy(data)
            out["uno_exposed"] = [*out["uno_exposed"], seat]
            out["uno_declared"] = [*out["uno_declared"], seat]
            yield out


def _left_with_cards(state: GameState, data: Data) -> Iterator[Data]:
    # A seat that left the game (knocked out, eliminated, gone out) still holding cards.
    if state.is_over or len(_holding(data)) < 3:
        return
    key = "no-mercy.knocked" if "no-mercy" in state.ruleset.names else None
    for seat in _holding(data):
        out = copy.deepcopy(data)
        out["left"] = sorted([*out["left"], seat])
        out["uno_declared"] = [s for s in out["uno_declared"] if s != seat]
        out["uno_exposed"] = [s for s in out["uno_exposed"] if s != seat]
        if key is not None:
            knocked = out["extras"].get(key, {"tuple": []})["tuple"]
            out["extras"][key] = {"tuple": [*knocked, seat]}
        if out["current_player"] == seat:
            out["current_player"] = next(s for s in _holding(data) if s != seat)
        yield out
    for seat in data["left"]:
        if data["draw_pile"]:
            out = copy.deepcopy(data)
            out["hands"][seat].append(out["draw_pile"].pop())
            yield out


def _over_mercy_limit(state: GameState, data: Data) -> Iterator[Data]:
    # No Mercy: a seat holding the mercy limit or more, still in the hand.
    if "no-mercy" not in state.ruleset.names or state.is_over:
        return
    limit = state.ruleset.options["mercy_limit"]
    if not limit:
        return
    for seat in _holding(data):
        need = limit - len(data["hands"][seat])
        if 0 < need <= len(data["draw_pile"]):
            out = copy.deepcopy(data)
            out["hands"][seat] += out["draw_pile"][:need]
            out["draw_pile"] = out["draw_pile"][need:]
            out["uno_exposed"] = [s for s in out["uno_exposed"] if s != seat]
            yield out


def _at_elimination_limit(state: GameState, data: Data) -> Iterator[Data]:
    if "elimination" not in state.ruleset.names or state.is_over or not data["rounds"]:
        return
    limit = state.ruleset.options["elimination_limit"]
    for seat in _active(data):
        out = copy.deepcopy(data)
        out["rounds"][-1]["points"][seat] += limit - out["scores"][seat]
        out["scores"][seat] = limit
        yield out


MUTATIONS: dict[str, Mutation] = {
    "over mid-round": _over_mid_round,
    "over, hands changed": _over_with_changed_hands,
    "over, other winners": _over_with_other_winners,
    "score past the target": _score_past_target,
    "emptied hand": _emptied_hand,
    "uno books": _uno_books,
    "left with cards": _left_with_cards,
    "over the mercy limit": _over_mercy_limit,
    "at the elimination limit": _at_elimination_limit,
}
"""Each class of impossible state, by name."""


def impossible_states(states: tuple[GameState, ...] | None = None) -> Iterator[tuple[str, GameState, str]]:
    """Every mutation of every state of :func:`real_states` (or ``states``): the
    class's name, the state mutated and the mutated JSON text."""
    for state in real_states() if states is None else states:
        data = json.loads(state.to_json())
        for name, mutation in MUTATIONS.items():
            for mutated in mutation(state, data):
                yield name, state, json.dumps(mutated)


# -- rulebooks ---------------------------------------------------------------------------------


def hostile_rulebooks(folder: Path, rng: random.Random, mutations: int = 200) -> list[Path]:
    """Write hostile rulebooks into ``folder``; returns the paths to read."""
    paths: list[Path] = []

    def write(name: str, text: str | bytes) -> Path:
        path = folder / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        paths.append(path)
        return path

    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "fifo.toml")
        paths.append(folder / "fifo.toml")
        write("extends-fifo.toml", 'extends = "fifo.toml"\n')
    for device in ("/dev/zero", "/dev/urandom", "/dev/null", "/dev/stdin", "/proc/self/mem", "/"):
        write(f"extends-{device.strip('/').replace('/', '-') or 'root'}.toml", f'extends = "{device}"\n')
    write("extends-missing.toml", 'extends = "no/such/book.toml"\n')
    write("extends-self.toml", 'extends = "extends-self.toml"\n')
    (folder / "a-folder.toml").mkdir()
    write("extends-folder.toml", 'extends = "a-folder.toml"\n')
    for i in range(1, 400):
        write(f"chain{i}.toml", f'extends = "chain{i + 1}.toml"\n')
    write("chain400.toml", 'plugins = ["classic"]\n')
    write("big.toml", b'plugins = ["classic"]\n' + b"# " * (MAX_BYTES // 2 + 1))
    for opening, closing in (("[", "]"), ("{a = ", "}")):
        write(f"deep{len(paths)}.toml", f'plugins = ["classic"]\nx = {opening * 5000}1{closing * 5000}\n')
    for spaces in (10_000, 40_000, 200_000):
        write(f"spaces-header-{spaces}.toml", "[" + " " * spaces + "\n")
        write(f"spaces-key-{spaces}.toml", " " * spaces + "=\n")
        write(f"spaces-valid-{spaces}.toml", f'plugins = ["classic"]\n[{" " * spaces}options]\n')
    for number in ("9223372036854775808", "-9223372036854775809", "1" + "0" * 400, "9" * 5000, "inf", "nan"):
        write(f"number-{len(paths)}.toml", f'plugins = ["classic"]\n[options]\ntarget_score = {number}\n')
        write(
            f"number-text-{len(paths)}.toml", f'plugins = ["classic"]\n[options]\ntarget_score = "{number}"\n'
        )
    write("binary.toml", bytes(range(256)))
    write("dotted.toml", "a" + ".a" * 50_000 + " = 1\n")
    write("many-keys.toml", "".join(f"k{i} = {i}\n" for i in range(20_000)))
    write("datetime.toml", 'plugins = ["classic"]\n[options]\ntarget_score = 1979-05-27T07:32:00Z\n')
    write("table-option.toml", 'plugins = ["classic"]\n[options.target_score]\nx = 1\n')
    write("arrays-of-tables.toml", '[[plugins]]\nname = "classic"\n')
    # Mutations of the presets' texts: bytes dropped, doubled, replaced.
    presets = [
        (Path(__file__).parents[2] / "src" / "unorules" / "presets" / f"{n}.toml") for n in preset_names()
    ]
    texts = [p.read_bytes() for p in presets if p.exists()]
    alphabet = b"[]{}\"'=#.,\n \\0123456789abcdefxyz_-\xff\x00"
    for i in range(mutations):
        text = bytearray(rng.choice(texts))
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(text) + 1)
            how = rng.randrange(3)
            if how == 0 and text:
                del text[at : at + rng.randint(1, 8)]
            elif how == 1:
                text[at:at] = text[at : at + rng.randint(1, 40)] * rng.randint(2, 200)
            else:
                text[at:at] = bytes(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        write(f"mutated-{i}.toml", bytes(text))
    return paths

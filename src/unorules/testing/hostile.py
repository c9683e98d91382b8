"""Soak a rule set with hostile input: ``python -m unorules.testing.hostile``.

(``python -m unorules.testing.soak`` is the embedding soak: pickling and views.)

Plays seeded random games and, along the way, feeds the library what a
hostile client would: every state's JSON mutated (a field replaced by a value
of a wrong type or out of range, deleted, a list item duplicated or dropped),
garbage action text and garbage card text. It proves, for as long as it runs:

* reading a state only ever succeeds or raises :class:`~unorules.StateFormatError`;
* a mutated state that is accepted plays on: its legal actions are listed and
  applying them only ever succeeds (never a crash, never an endless loop);
* parsing and applying garbage only ever raises an :class:`~unorules.UnorulesError`,
  and changes nothing (the state writes the same JSON afterwards).

Anything else is a failure: the command prints it (the rule set, the seed,
the exception and where it came from) and exits with status 1.

Usage::

    python -m unorules.testing.hostile --seconds 600
    python -m unorules.testing.hostile --rules classic,my-plugin --seconds 60 --seed 3

It prints the figures at the end: actions played, states mutated (refused
and restored), action and card texts parsed. The test suite runs the same
functions briefly (``tests/test_fuzz.py``); this is for longer runs.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from unorules.actions import Action
from unorules.cards import Card
from unorules.errors import StateFormatError, UnorulesError
from unorules.ruleset import Ruleset
from unorules.state import GameState

__all__ = [
    "DEFAULT_RULESETS",
    "WRONG_VALUES",
    "SoakFailure",
    "Tally",
    "garbage_texts",
    "json_paths",
    "main",
    "mutate",
    "soak",
    "soak_state",
]

DEFAULT_RULESETS: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("classic", {}, 4),
    ("classic,stacking,jump-in", {"stack_mix": True}, 3),
    ("classic,penalties", {"enforcement": "table"}, 3),
    ("classic,partners,shuffle-hands", {}, 4),
    ("classic,elimination,seven-o,swap-hands", {"elimination_limit": 100}, 5),
    ("classic,custom-wilds,blank-cards", {"customizable_wilds": 3, "custom_wild_1": "discard-specials"}, 3),
)
"""The rule sets soaked by default: ``(plugin names, options, players)``."""

WRONG_VALUES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    1,
    2,
    -1,
    3,
    9,
    10,
    99,
    -(10**6),
    10**30,
    1.5,
    "",
    "x",
    "R7",
    "W+4",
    "play",
    "penalty",
    "0: draw",
    "ffffffffffffffffff",
    [],
    [None],
    [0, 0],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    ["R7"],
    ["W+4"] * 30,
    [[]],
    {},
    {"card": "R7"},
    {"card": "SW"},
    {"tuple": []},
    {"tuple": [0, {"card": "W+4"}]},
    {"color": "R"},
    {"action": "0: draw"},
    {"name": "play"},
    {"name": "penalty", "count": 4, "card": "W+4", "seat": 0},
)
"""Replacement values for mutated fields: wrong types, out-of-range numbers,
cards the deck may lack, plausible-looking objects."""


@attrs.define
class Tally:
    """What a soak did."""

    actions: int = 0
    states_mutated: int = 0
    states_refused: int = 0
    states_restored: int = 0
    restored_actions: int = 0
    action_texts: int = 0
    card_texts: int = 0
    games: int = 0

    def __str__(self) -> str:
        return (
            f"{self.games} games, {self.actions} actions; {self.states_mutated} states mutated "
            f"({self.states_refused} refused, {self.states_restored} restored and played on for "
            f"{self.restored_actions} actions); {self.action_texts} action texts and "
            f"{self.card_texts} card texts parsed"
        )


class SoakFailure(AssertionError):
    """Something other than a :class:`~unorules.UnorulesError` came out, or
    garbage changed a state."""


def json_paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into ``data`` (dict keys and list indexes), outermost first."""
    if prefix:
        yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from json_paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from json_paths(value, (*prefix, i))


def mutate(data: Any, path: tuple[Any, ...], how: int, value: Any) -> Any:
    """A copy of ``data`` changed at ``path``: ``how`` 0 replaces the value with
    ``value``, 1 deletes it, 2 duplicates it (in a list), 3 adds ``value`` next
    to it (in a list), 4 nudges a number by ``value`` if that is an int."""
    data = copy.deepcopy(data)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if how == 1:
        del parent[key]
    elif how == 2 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif how == 3 and isinstance(parent, list):
        parent.insert(key, value)
    elif how == 4 and isinstance(parent[key], int) and isinstance(value, int):
        parent[key] = parent[key] + value
    else:
        parent[key] = value
    return data


def garbage_texts(rng: random.Random, count: int) -> list[str]:
    """Action-like and card-like texts, mostly wrong: odd seats, verbs, cards,
    colours, digits, spacing and case."""
    pieces = [
        "0",
        "1",
        "3",
        "9",
        "12",
        "99",
        "-1",
        "²",
        "٣",
        "1" * 7,
        "play",
        "PLAY",
        "draw",
        "pass",
        "uno",
        "catch",
        "challenge",
        "accept",
        "color",
        "discard",
        "catch_play",
        "fly",
        "R7",
        "r7",
        "W+4",
        "w+4",
        "B+2",
        "SW",
        "CW1",
        "Q7",
        "R10",
        "R",
        "red",
        "Blue",
        ":",
        "::",
        " ",
        "\t",
        "",
        "\x00",
        "é",
    ]
    texts = []
    for _ in range(count):
        words = [rng.choice(pieces) for _ in range(rng.randint(0, 5))]
        text = " ".join(words)
        if rng.random() < 0.6:
            text = f"{rng.choice(pieces)}:{text}"
        texts.append(text)
    return texts


def _fail(what: str, context: str, exc: BaseException | None = None) -> SoakFailure:
    detail = "" if exc is None else "\n" + "".join(traceback.format_exception(exc)[-6:])
    return SoakFailure(f"{what} ({context}){detail}")


def soak_state(
    state: GameState,
    rng: random.Random,
    tally: Tally,
    *,
    mutations: int = 4,
    texts: int = 8,
    context: str = "",
) -> None:
    """Feed ``state`` mutated JSON and garbage text (see the module's documentation)."""
    text = state.to_json()
    data = json.loads(text)
    paths = list(json_paths(data))
    for _ in range(mutations):
        path = rng.choice(paths)
        how = rng.randrange(5)
        value = rng.choice(WRONG_VALUES)
        mutated = json.dumps(mutate(data, path, how, value))
        where = f"{context}, mutation {how} of {'.'.join(map(str, path))} with {value!r}"
        # The rule set is rebuilt from the text only when the mutation is in it.
        check_restore(mutated, rng, tally, where, ruleset=None if path[0] == "ruleset" else state.ruleset)
    for garbage in garbage_texts(rng, texts):
        tally.action_texts += 1
        try:
            state.apply(garbage)
        except UnorulesError:
            pass
        except Exception as exc:
            raise _fail(f"apply({garbage!r}) raised {type(exc).__name__}", context, exc) from exc
        try:
            Action.parse(garbage)
        except UnorulesError:
            pass
        except Exception as exc:
            raise _fail(f"Action.parse({garbage!r}) raised {type(exc).__name__}", context, exc) from exc
        for word in garbage.split() or [garbage]:
            tally.card_texts += 1
            try:
                Card.parse(word)
            except UnorulesError:
                pass
            except Exception as exc:
                raise _fail(f"Card.parse({word!r}) raised {type(exc).__name__}", context, exc) from exc
    if state.to_json() != text:
        raise _fail("garbage changed the state", context)


def check_restore(
    text: str,
    rng: random.Random,
    tally: Tally,
    context: str,
    *,
    play: int = 3,
    ruleset: Ruleset | None = None,
) -> None:
    """Read ``text`` (under ``ruleset``, else the rule set it names): it must be
    refused with :class:`StateFormatError` or give a state that plays on for
    ``play`` random actions without anything but :class:`~unorules.UnorulesError`
    (``IllegalActionError`` of a legal action is a failure too)."""
    tally.states_mutated += 1
    try:
        restored = GameState.from_json(text, ruleset)
    except StateFormatError:
        tally.states_refused += 1
        return
    except Exception as exc:
        raise _fail(f"from_json raised {type(exc).__name__}", context, exc) from exc
    tally.states_restored += 1
    try:
        for _ in range(play):
            if restored.is_over:
                break
            legal = restored.legal_actions()
            if not legal:
                raise _fail("a restored state has no legal action", context)
            restored = restored.apply(rng.choice(legal))
            tally.restored_actions += 1
        GameState.from_json(restored.to_json(), restored.ruleset)
    except SoakFailure:
        raise
    except Exception as exc:
        raise _fail(f"a restored state failed in play with {type(exc).__name__}", context, exc) from exc


def soak(
    rulesets: Sequence[tuple[str, dict[str, Any], int]] = DEFAULT_RULESETS,
    *,
    seconds: float = 10.0,
    seed: int = 0,
    every: int = 5,
    max_games: int | None = None,
    max_steps: int = 400,
) -> Tally:
    """Soak each rule set in turn, one game at a time (its first ``max_steps``
    actions), for ``seconds`` in all (or ``max_games`` games), hostile input at
    every ``every``-th state.
    Raises :class:`SoakFailure` at the first failure."""
    tally = Tally()
    built = [(Ruleset.from_names(names, options), names, players) for names, options, players in rulesets]
    deadline = time.monotonic() + seconds
    game = 0
    while time.monotonic() < deadline and (max_games is None or game < max_games):
        rules, names, players = built[game % len(built)]
        game_seed = seed * 1_000_003 + game
        rng = random.Random(game_seed)
        state = rules.new_game(players=players, seed=game_seed)
        step = 0
        while not state.is_over and step < max_steps and time.monotonic() < deadline:
            if step % every == 0:
                soak_state(state, rng, tally, context=f"rules {names}, game seed {game_seed}, step {step}")
            state = state.apply(rng.choice(state.legal_actions()))
            tally.actions += 1
            step += 1
        tally.games += 1
        game += 1
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: soak, print the figures, exit 1 on a failure."""
    parser = argparse.ArgumentParser(
        prog="python -m unorules.testing.hostile", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to run (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument(
        "--rules",
        action="append",
        metavar="NAMES",
        help="a rule set to soak, e.g. classic,stacking (repeatable; default: a mix of the shipped plugins)",
    )
    parser.add_argument("--players", type=int, default=4, help="players for --rules rule sets (default 4)")
    args = parser.parse_args(argv)
    chosen = DEFAULT_RULESETS if not args.rules else tuple((names, {}, args.players) for names in args.rules)
    started = time.monotonic()
    try:
        tally = soak(chosen, seconds=args.seconds, seed=args.seed)
    except SoakFailure as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    except UnorulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"soaked for {time.monotonic() - started:.0f} s: {tally}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where the time of "all plugins" goes, plugin by plugin (wall clock).

    .venv/bin/python benchmarks/shares.py                # leave-one-out, 4 players (about 3 minutes)
    .venv/bin/python benchmarks/shares.py --jump-in      # jump-in's parts, stubbed out in turn
    .venv/bin/python benchmarks/shares.py --by-kind      # classic and all plugins, by kind of action
    .venv/bin/python benchmarks/shares.py --actions 20000 --reps 3   # quicker, noisier

Plays uniform random legal actions through the public API, the loop
``run.py`` uses, and prints the CPU time per action of each rule set (the
median of ``--reps`` interleaved repetitions of ``--actions`` actions) and
its ratio to classic:

* by default: classic, run.py's "all plugins", that rule set without each of
  its plugins in turn, and classic with each plugin alone. Leaving a plugin
  out changes the games too (its cards leave the deck).
* ``--jump-in``: classic, classic + jump-in, and classic + jump-in with parts
  of jump-in replaced by stubs before its rule set is built: without its
  ``legal_actions`` (no jump-ins are listed; the window is still tracked),
  with its ``after_action`` doing nothing (no window, so no jump-ins), and
  both. Each variant is a rule set of its own (``Ruleset(plugins, {})``:
  ``Ruleset.from_names`` would hand back the rule set it already built for
  the same names).
* ``--by-kind``: classic and all plugins, each action timed on its own
  (``time.perf_counter`` around ``legal_actions()`` and around ``apply()``):
  per kind of action (the phase it was taken in, its verb, for a play the
  card's kind, with number cards other than 0 and 7 together, and whether
  it was a jump-in), its share of the actions, its time per action of that
  kind and what it adds to the time per action of the whole game; the
  medians of ``--reps`` repetitions. The clock's own cost is in every
  figure, so only the differences between the two rule sets mean much.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import unorules_jump_in
from run import MODES, all_plugins_ruleset, options_for, shipped_plugins

from unorules import Action, Draft, GameState, Ruleset, RulesetError, hookimpl, load_plugin


def per_action(rules: Ruleset, actions: int) -> float:
    """CPU seconds per action of random play (seeds 0, 1, ...) under ``rules``."""
    done = 0
    seed = 0
    start = time.process_time()
    while done < actions:
        choice = random.Random(seed).choice
        state = rules.new_game(4, seed=seed)
        seed += 1
        while done < actions:
            legal = state.legal_actions()
            if not legal:
                break
            state = state.apply(choice(legal))
            done += 1
    return (time.process_time() - start) / done


def leave_one_out() -> dict[str, Ruleset]:
    """Classic, all plugins, all plugins without each one, classic with each one."""
    everything, names, _ = all_plugins_ruleset(shipped_plugins())
    sets = {"classic": Ruleset.from_names(["classic"]), "all plugins": everything}
    for name in names[1:]:
        rest = [n for n in names if n != name]
        try:
            sets[f"all plugins but {name}"] = Ruleset.from_names(rest, options_for(rest))
        except RulesetError as exc:  # a plugin another one needs
            print(f"(all plugins but {name}: {exc})")
    for name in names[1:]:
        if name not in MODES:
            sets[f"classic + {name}"] = Ruleset.from_names(["classic", name], options_for(["classic", name]))
    return sets


@contextmanager
def patched(cls: type, **attributes: Any) -> Iterator[None]:
    """``cls`` with ``attributes`` replaced while a rule set is built."""
    saved = {name: vars(cls)[name] for name in attributes}
    for name, value in attributes.items():
        setattr(cls, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(cls, name, value)


@hookimpl
def _lists_nothing(self: object, state: GameState) -> tuple[Action, ...]:
    return ()  # no jump-in is listed


@hookimpl(trylast=True)
def _watches_nothing(self: object, draft: Draft, action: Action, before: GameState) -> None:
    return None  # no window is opened or closed


def jump_in_parts() -> dict[str, Ruleset]:
    """Classic, classic + jump-in, and classic + jump-in with parts stubbed out."""
    plugin = unorules_jump_in.JumpInPlugin

    def build() -> Ruleset:
        return Ruleset([load_plugin("classic"), load_plugin("jump-in")], {})

    sets = {"classic": Ruleset([load_plugin("classic")], {}), "classic + jump-in": build()}
    with patched(plugin, legal_actions=_lists_nothing):
        sets["... without its legal_actions"] = build()
    with patched(plugin, after_action=_watches_nothing):
        sets["... its after_action doing nothing"] = build()
    with patched(plugin, legal_actions=_lists_nothing, after_action=_watches_nothing):
        sets["... both"] = build()
    return sets


Kind = tuple[str, str]
"""A kind of action for ``--by-kind``: the phase, and what the action does."""


def kind_of(state: GameState, action: Action) -> Kind:
    """The kind of ``action`` in ``state`` for ``--by-kind``: the phase it is
    taken in and what it does (``play 7``, ``play num``, ``play num (jump)``,
    ``draw``, ...)."""
    what = action.verb
    card = action.card
    if what == "play" and card is not None:
        kind = card.kind
        what = f"play {'num' if kind.isdigit() and kind not in ('0', '7') else kind}"
        if action.seat != state.current_player:
            what += " (jump)"
    return state.phase.name, what


def by_kind(rules: Ruleset, actions: int) -> tuple[float, Mapping[Kind, float], Counter[Kind]]:
    """Random play (seeds 0, 1, ...) under ``rules``, each action timed: the
    seconds per action spent listing legal actions, and by kind of action
    (:func:`kind_of`) the seconds spent applying and the count."""
    clock = time.perf_counter
    listing = 0.0
    spent: defaultdict[Kind, float] = defaultdict(float)
    count: Counter[Kind] = Counter()
    done = 0
    seed = 0
    while done < actions:
        choice = random.Random(seed).choice
        state = rules.new_game(4, seed=seed)
        seed += 1
        while done < actions:
            start = clock()
            legal = state.legal_actions()
            listing += clock() - start
            if not legal:
                break
            action = choice(legal)
            key = kind_of(state, action)
            start = clock()
            state = state.apply(action)
            spent[key] += clock() - start
            count[key] += 1
            done += 1
    return listing / done, spent, count


def print_by_kind(actions: int, reps: int, rows: int = 20) -> None:
    """The ``--by-kind`` tables: classic's, then all plugins'."""
    everything, _, _ = all_plugins_ruleset(shipped_plugins())
    sets = {"classic": Ruleset.from_names(["classic"]), "all plugins": everything}
    runs: dict[str, list[tuple[float, Mapping[Kind, float], Counter[Kind]]]] = {name: [] for name in sets}
    for rep in range(reps):
        for name, rules in sets.items():
            runs[name].append(by_kind(rules, actions))
        print(f"  repetition {rep + 1}/{reps} done", file=sys.stderr, flush=True)
    for name, results in runs.items():
        listing = statistics.median(r[0] for r in results)
        count = results[0][2]  # the same seeded games in every repetition
        each = {key: statistics.median(r[1].get(key, 0.0) for r in results) / n for key, n in count.items()}
        total = sum(count.values())
        per_action = listing + sum(each[key] * n for key, n in count.items()) / total
        print(
            f"{name}: {per_action * 1e6:.2f} us per action, listing the legal actions {listing * 1e6:.2f} us"
        )
        print(f"  {'phase':>12}  {'action':<18} {'share':>6}  {'us each':>8}  {'us/action':>9}")
        ranked = sorted(count, key=lambda key: -each[key] * count[key])
        for key in ranked[:rows]:
            n = count[key]
            print(
                f"  {key[0]:>12}  {key[1]:<18} {n / total:6.1%}  {each[key] * 1e6:8.1f}"
                f"  {each[key] * n / total * 1e6:9.2f}"
            )
        if len(ranked) > rows:
            rest = sum(each[key] * count[key] for key in ranked[rows:]) / total
            print(
                f"  {'':>12}  {f'{len(ranked) - rows} other kinds':<18} {'':>6}  {'':>8}  {rest * 1e6:9.2f}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--jump-in", action="store_true", help="jump-in's parts instead of leave-one-out")
    what.add_argument(
        "--by-kind",
        action="store_true",
        help="classic and all plugins by kind of action instead of leave-one-out",
    )
    parser.add_argument("--actions", type=int, default=40_000, help="actions per repetition")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (the median is reported)")
    args = parser.parse_args(argv)
    if args.by_kind:
        print_by_kind(args.actions, args.reps)
        return 0
    sets = jump_in_parts() if args.jump_in else leave_one_out()
    times: dict[str, list[float]] = {name: [] for name in sets}
    for rep in range(args.reps):
        for name, rules in sets.items():
            times[name].append(per_action(rules, args.actions))
        print(f"  repetition {rep + 1}/{args.reps} done", file=sys.stderr, flush=True)
    classic = statistics.median(times["classic"])
    width = max(map(len, sets))
    print(f"{'rule set':{width}}  us/action  / classic")
    for name in sets:
        median = statistics.median(times[name])
        print(f"{name:{width}}  {median * 1e6:9.2f}  {classic / median:8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

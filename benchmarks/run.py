"""How fast unorules plays, against RLCard's UNO engine, and how much a kept state costs.

    .venv/bin/pip install rlcard          # optional: the comparison with RLCard
    .venv/bin/python benchmarks/run.py    # about a minute on 2 cores
    .venv/bin/python benchmarks/run.py --reps 3 --min-time 0.5   # quicker, noisier
    .venv/bin/python benchmarks/run.py --against pre-engine      # that commit and this tree, side by side
    .venv/bin/python benchmarks/run.py --pythons 3.11,3.12,3.13  # this tree on each CPython, side by side
    .venv/bin/python benchmarks/run.py --compiled                # pure and compiled core, side by side

One run measures, interleaving the repetitions so that a busy machine slows
every contender alike:

* unorules random play through the public API (``state.legal_actions()``
  then ``state.apply(...)``, a uniform choice with ``random.Random``), with
  the classic rules and with every shipped house rule and special card
  enabled, for 2 and 4 players: actions per second, games per second (a
  game is played to its end, 500 points with the defaults) and rounds per
  second;
* the same for each shipped game *mode* (partners, elimination, penalties)
  on its own with classic, reported apart: modes change who plays and how
  the game ends, so they are not house rules to stack together;
* RLCard's raw ``rlcard.games.uno.game.UnoGame`` driven directly
  (``init_game`` / ``get_legal_actions`` / ``step`` / ``is_over``) with
  uniform random legal actions, when ``rlcard`` is installed; its game is a
  single round, so compare its games per second with unorules' rounds per
  second;
* the floor (``floor.py``): classic UNO as a plain Python loop playing the
  same workload, no hooks, events or validation, for what Python itself
  allows; classic is reported as a share of it;
* memory: the bytes each state costs when every state of a long game is
  kept (``tracemalloc``), against an unshared deep copy of a state.

Each figure is the median of ``--reps`` repetitions; each repetition plays
whole games, seeded in turn, for at least ``--min-time`` seconds. Times are
the process's CPU time (``time.process_time``), so that other work on a shared
machine does not count against whoever happens to run beside it.

``--against REF`` measures the commit ``REF`` (a tag, branch or hash) and the
working tree side by side: REF's tree is exported (``git archive``) and
installed into a virtual environment of its own under ``.bench/`` (once per
commit, then reused), and every repetition runs this script's measurement in
a fresh process of each environment in turn, alternating which goes first.
The same games are played on both sides through the public API; the table
gives each side's medians and their ratio.

``--compiled`` adds this CPython with the compiled core (``python3 dev.py
build-compiled``; ``PYTHONPATH=build/compiled``) as one more side, alone or
beside ``--pythons``.

``--pythons 3.11,3.12,3.13`` measures this tree on each of those CPythons
the same way (an environment per version under ``.bench/``, made once from
the interpreter on ``PATH`` or pyenv's build), each repetition rotating which
goes first, and gives each one's figures and ratios side by side: the ratios
against RLCard and classic are measured within each interpreter.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib.metadata
import importlib.util
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import tracemalloc
import venv
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import attrs
from floor import play_floor  # the floor beside this one

import unorules
from unorules import Action, Card, Color, GameState, Ruleset, RulesetError

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ROOT / "build" / "compiled"
"""Where ``python3 dev.py build-compiled`` puts the compiled core."""

MODES = ("partners", "elimination", "penalties")
"""Shipped plugins that are game modes, not house rules: measured one at a
time with classic and left out of the "all plugins" rule set."""

ALL_PLUGINS = ("blank-cards", "custom-wilds", "jump-in", "seven-o", "shuffle-hands", "stacking", "swap-hands")
"""The plugins the "all plugins" rule set adds to classic: every shipped
non-mode plugin of version 0.1, on which the speed targets were set. Plugins
shipped later (the house rules of issue 35, which change how a turn goes, and
the editions, which replace classic) would make the figures incomparable
with earlier runs and with a reference commit: they are left out, saying so."""

ALL_PLUGINS_OPTIONS: dict[str, Any] = {
    "with_swap_hands": True,  # shuffle-hands: let swap-hands in too, both cards in the deck
    "stack_mix": True,  # stacking: Draw Twos and Wild Draw Fours stack on each other
    "custom_wild_1": "extra-turn",  # custom-wilds: give the three customizable wilds effects
    "custom_wild_2": "draw-until-color",
    "custom_wild_3": "open-hands",
    "blank_cards": "house-rule house-rule W Y7",  # blank-cards: two house-rule blanks, two extra cards
}
"""Options that switch on what the "all plugins" rule set's plugins can do
(each used only when its plugin is in the set): by default some special cards
are left out of the deck or have no effect."""

# The targets of issue 43 ("Performance III", classic against RLCard with the compiled core);
# issue 18's was 2.0x RLCard, issue 7's 1.0x RLCard and 0.5x.
TARGET_RLCARD = 2.5
"""classic / RLCard ``UnoGame``, actions/s, at 2 and 4 players."""
TARGET_ALL_PLUGINS = 0.8
"""every non-mode plugin together / classic, actions/s."""
TARGET_MODE = 0.9
"""each game mode (with classic, 4 players) / classic, actions/s."""
TARGET_FLOOR = 0.3
"""classic / the floor (``floor.py``), actions/s, 2 and 4 players (issue 43: with the compiled core)."""
TARGET_BYTES = {"classic": 1024, "all plugins": 2048}
"""bytes per retained state of one long game (at most)."""


# -- what to measure -------------------------------------------------------------


def shipped_plugins() -> list[str]:
    """Installed plugins whose code lives under this repository's ``plugins/``."""
    shipped = []
    for name, plugin in unorules.installed_plugins().items():
        module = sys.modules.get(type(plugin).__module__) or sys.modules.get(getattr(plugin, "__name__", ""))
        path = Path(getattr(module, "__file__", "") or "").resolve()
        if (ROOT / "plugins") in path.parents:
            shipped.append(name)
    return sorted(shipped)


def options_for(names: list[str]) -> dict[str, Any]:
    """The :data:`ALL_PLUGINS_OPTIONS` that belong to the plugins ``names``."""
    installed = unorules.installed_plugins()
    declared = {o.name for n in names for o in getattr(installed[n], "options", ())}
    return {k: v for k, v in ALL_PLUGINS_OPTIONS.items() if k in declared}


def all_plugins_ruleset(shipped: list[str]) -> tuple[Ruleset, list[str], dict[str, str]]:
    """Classic plus every shipped non-mode plugin that combines with the ones
    before it (in name order, with :data:`ALL_PLUGINS_OPTIONS`); returns the
    rule set, its names and what was left out and why."""
    names = ["classic"]
    skipped: dict[str, str] = {}
    for name in shipped:
        if name == "classic":
            continue
        if name in MODES:
            skipped[name] = "game mode, measured apart"
            continue
        if name not in ALL_PLUGINS:
            skipped[name] = "shipped after the all-plugins target was set"
            continue
        try:
            Ruleset.from_names([*names, name], options_for([*names, name]))
        except RulesetError as exc:
            skipped[name] = str(exc)
            continue
        names.append(name)
    return Ruleset.from_names(names, options_for(names)), names, skipped


# -- players ------------------------------------------------------------------------


def play_unorules(rules: Ruleset, players: int, seed: int) -> tuple[int, int]:
    """One seeded game with uniform random legal actions: (actions, rounds)."""
    state = rules.new_game(players=players, seed=seed)
    choice = random.Random(seed).choice
    actions = 0
    while not state.is_over:
        state = state.apply(choice(state.legal_actions()))
        actions += 1
    return actions, len(state.rounds)


def rlcard_player() -> Callable[[int, int], tuple[int, int]] | None:
    """A function playing one seeded RLCard UNO game, or None without rlcard."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    games: dict[int, Any] = {}

    def play(players: int, seed: int) -> tuple[int, int]:
        game = games.get(players)
        if game is None:
            game = games[players] = UnoGame(num_players=players)
        # init_game builds the dealer, players and round from game.np_random.
        game.np_random = np.random.RandomState(seed)
        game.init_game()
        choice = random.Random(seed).choice
        actions = 0
        try:
            while not game.is_over():
                game.step(choice(game.get_legal_actions()))
                actions += 1
        except IndexError:
            # RLCard's engine fails to draw when every card is in a hand; that
            # game stops there (rare), its actions still count.
            stats.rlcard_failures += 1
        return actions, 1

    return play


@dataclass
class Stats:
    rlcard_failures: int = 0


stats = Stats()


@dataclass
class Bench:
    label: str
    players: int
    play: Callable[[int], tuple[int, int]]
    rates: list[tuple[float, float, float]] = field(default_factory=list)
    actions_per_game: list[float] = field(default_factory=list)
    seed: int = 0

    def run(self, min_time: float) -> None:
        gc.collect()
        actions = games = rounds = 0
        start = time.process_time()
        elapsed = 0.0
        while elapsed < min_time:
            a, r = self.play(self.seed)
            self.seed += 1
            actions += a
            rounds += r
            games += 1
            elapsed = time.process_time() - start
        self.rates.append((actions / elapsed, games / elapsed, rounds / elapsed))
        self.actions_per_game.append(actions / games)

    def median(self, i: int) -> float:
        return statistics.median(r[i] for r in self.rates)


# -- memory --------------------------------------------------------------------------


def unshared_copy(value: Any) -> Any:
    """A deep copy that shares nothing but the rule set and the interned
    cards, colours and actions (``copy.deepcopy`` would return the very same
    tuples, since interned cards copy to themselves)."""
    if isinstance(value, tuple):
        return tuple([unshared_copy(v) for v in value])
    if isinstance(value, GameState):
        new = object.__new__(GameState)
        fields = {k: v if k == "ruleset" else unshared_copy(v) for k, v in value.__dict__.items()}
        object.__setattr__(new, "__dict__", fields)
        return new
    if isinstance(value, Card | Action | Color) or not attrs.has(type(value)):
        return value
    return type(value)(**{f.name: unshared_copy(getattr(value, f.name)) for f in attrs.fields(type(value))})


def measure_memory(rules: Ruleset, players: int, seed: int) -> dict[str, float]:
    """Bytes per kept state over one whole game, and bytes of one unshared copy."""
    play_unorules(rules, players, seed)  # warm the interned actions and caches
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    state = rules.new_game(players=players, seed=seed)
    choice = random.Random(seed).choice
    states = [state]
    while not state.is_over:
        state = state.apply(choice(state.legal_actions()))
        states.append(state)
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - before
    copies = []
    for s in states[len(states) // 4 :: max(1, len(states) // 8)]:
        s.legal_actions()
        start = tracemalloc.get_traced_memory()[0]
        copy = unshared_copy(s)
        copies.append(tracemalloc.get_traced_memory()[0] - start)
        del copy
    tracemalloc.stop()
    return {
        "states": len(states),
        "rounds": len(states[-1].rounds),
        "bytes_per_state": kept / len(states),
        "bytes_per_copy": statistics.mean(copies),
    }


# -- the run ---------------------------------------------------------------------------


# -- side by side with an earlier commit --------------------------------------------------


BENCH_DIR = ROOT / ".bench"
"""Where ``--against`` keeps each reference commit's tree and environment."""


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def reference_python(ref: str) -> tuple[str, Path]:
    """The commit ``ref`` names and the Python of an environment with that
    commit's core and plugins installed (made once, then reused)."""
    sha = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    home = BENCH_DIR / sha[:12]
    python = home / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    stamp = home / "installed"
    if stamp.exists():
        return sha, python
    shutil.rmtree(home, ignore_errors=True)
    tree = home / "tree"
    tree.mkdir(parents=True)
    with tempfile.TemporaryFile() as archive:
        subprocess.run(["git", "archive", sha], cwd=ROOT, check=True, stdout=archive)
        archive.seek(0)
        with tarfile.open(fileobj=archive) as tar:
            tar.extractall(tree, filter="data")
    print(f"installing {ref} ({sha[:12]}) into {home.relative_to(ROOT)}/venv (once) ...", flush=True)
    venv.EnvBuilder(with_pip=True).create(home / "venv")
    pins = [line.strip() for line in (tree / "requirements-dev.txt").read_text().splitlines()]
    build = [p for p in pins if p.split("==")[0].lower() in ("hatchling", "editables")]
    packages = [
        tree,
        *sorted(p for d in ("plugins", "examples") for p in (tree / d).glob("*/pyproject.toml")),
    ]
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, *build], check=True)
    editable = [arg for p in packages for arg in ("-e", str(p if p.is_dir() else p.parent))]
    subprocess.run([*pip, "--no-build-isolation", *editable], check=True)
    stamp.write_text(sha)
    return sha, python


def measure_once(
    names: list[str],
    options: dict[str, Any],
    modes: list[str],
    players: list[int],
    min_time: float,
    rlcard: bool,
    seed: int,
) -> dict[str, float]:
    """One repetition of every contender in this process: actions per CPU
    second by ``"label/players"`` (the worker of ``--against``)."""
    classic = Ruleset.from_names(["classic"])
    everything = Ruleset.from_names(names, options)
    rl = rlcard_player() if rlcard else None
    benches = []
    for n in players:
        benches.append(Bench("classic", n, functools.partial(play_unorules, classic, n), seed=seed))
        benches.append(Bench("all plugins", n, functools.partial(play_unorules, everything, n), seed=seed))
        if rl is not None:
            benches.append(Bench("RLCard UnoGame", n, functools.partial(rl, n), seed=seed))
    for mode in modes:
        rules = Ruleset.from_names(["classic", mode])
        benches.append(Bench(f"classic+{mode}", 4, functools.partial(play_unorules, rules, 4), seed=seed))
    for bench in benches:
        play_unorules(classic, 4, 0) if bench.label != "RLCard UnoGame" else None  # warm both alike
        bench.run(min_time)
    return {f"{b.label}/{b.players}": b.median(0) for b in benches}


def alternate(
    sides: dict[str, str],
    job: dict[str, Any],
    reps: int,
    rlcard: set[str],
    envs: dict[str, dict[str, str]] | None = None,
) -> dict[str, dict[str, list[float]]]:
    """``reps`` repetitions of ``job`` (:func:`measure_once`'s arguments) in a
    fresh process of each side's Python (``sides``: label to interpreter, with
    the environment ``envs`` gives that label, if any), the order rotating each
    repetition; RLCard is measured on the ``rlcard`` sides. Actions per CPU
    second by side and ``"label/players"``, one per repetition."""
    rates: dict[str, dict[str, list[float]]] = {side: {} for side in sides}
    labels = list(sides)
    for rep in range(reps):
        shift = rep % len(labels)
        for side in labels[shift:] + labels[:shift]:
            work = dict(job, seed=1000 * rep, rlcard=side in rlcard)
            done = subprocess.run(
                [sides[side], str(Path(__file__).resolve()), "--worker", json.dumps(work)],
                check=False,
                capture_output=True,
                text=True,
                cwd=ROOT,
                env=(envs or {}).get(side),
            )
            if done.returncode != 0:
                raise SystemExit(
                    f"the worker of {side} failed (exit {done.returncode}):\n{done.stderr[-4000:]}"
                )
            for key, value in json.loads(done.stdout.strip().splitlines()[-1]).items():
                rates[side].setdefault(key, []).append(value)
        print(f"  repetition {rep + 1}/{reps} done", flush=True)
    return rates


def _noxfile() -> Any:
    """The checkout's ``noxfile.py`` as a module: it finds the other CPythons."""
    spec = importlib.util.spec_from_file_location("unorules_noxfile", ROOT / "noxfile.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def version_python(version: str) -> Path:
    """The Python of an environment of CPython ``version`` (``"3.12"``) with this
    tree's core and plugins installed editable, and RLCard when this
    environment has it (made once under ``.bench/``, then reused)."""
    home = BENCH_DIR / f"python-{version}"
    python = home / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    stamp = home / "installed"
    if stamp.exists():
        return python
    base = _noxfile().find_python(version)
    if base is None:
        raise SystemExit(f"no CPython {version} found (on PATH or under pyenv's versions)")
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    print(
        f"installing this tree for CPython {version} into {home.relative_to(ROOT)}/venv (once) ...",
        flush=True,
    )
    subprocess.run([base, "-m", "venv", str(home / "venv")], check=True)
    packages = [
        ROOT,
        *sorted(p.parent for d in ("plugins", "examples") for p in (ROOT / d).glob("*/pyproject.toml")),
    ]
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    try:
        extra = [f"rlcard=={importlib.metadata.version('rlcard')}"]
    except importlib.metadata.PackageNotFoundError:
        extra = []
    subprocess.run([*pip, *extra, *(arg for p in packages for arg in ("-e", str(p)))], check=True)
    stamp.write_text(version)
    return python


def pythons(args: argparse.Namespace, player_counts: list[int]) -> int:
    """The ``--pythons`` run: this tree on each CPython named, alternating, with
    each one's ratios (classic / RLCard, all plugins / classic, each mode /
    classic) measured within that interpreter."""
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    versions = [v.strip() for v in (args.pythons or here).split(",") if v.strip()]
    sides = {v: sys.executable if v == here else str(version_python(v)) for v in versions}
    envs: dict[str, dict[str, str]] = {}
    if args.compiled:  # this CPython again, with the compiled core first on the path
        # Built (or found up to date) first: a build of older sources would measure older code.
        built = subprocess.run(
            [sys.executable, str(ROOT / "dev.py"), "build-compiled"], cwd=ROOT, check=False
        )
        if built.returncode != 0 or not (COMPILED / "unorules-compiled.json").exists():
            raise SystemExit(f"no compiled core in {COMPILED}: python3 dev.py build-compiled")
        label = f"{here} compiled"
        versions.append(label)
        sides[label] = sys.executable
        path = os.pathsep.join(p for p in (str(COMPILED), os.environ.get("PYTHONPATH", "")) if p)
        envs[label] = dict(os.environ, PYTHONPATH=path, UNORULES_BENCH_COMPILED="1")
    shipped = shipped_plugins()
    everything, names, _ = all_plugins_ruleset(shipped)
    modes = [m for m in MODES if m in shipped and not args.no_modes]
    job = {
        "names": names,
        "options": everything.spec()["options"],
        "modes": modes,
        "players": player_counts,
        "min_time": args.min_time,
    }
    rl = set() if args.no_rlcard or rlcard_player() is None else set(sides)
    for v, python in sides.items():
        print(f"CPython {v}: {python}")
    print(
        f"{args.reps} repetitions of >= {args.min_time:g} s per contender, each CPython in a fresh process,"
        " the first one rotating",
        flush=True,
    )
    rates = alternate(sides, job, args.reps, rl, envs)
    med = {v: {k: statistics.median(r) for k, r in found.items()} for v, found in rates.items()}
    width = max(15, *(len(v) + 10 for v in versions))
    print()
    print(
        f"{'contender':<42}" + "".join(f"{'CPython ' + v:>{width}}" for v in versions) + "   (actions/CPU s)"
    )
    for key in med[versions[0]]:
        print(f"{key:<42}" + "".join(f"{med[v].get(key, float('nan')):>{width},.0f}" for v in versions))
    print()
    print(f"{'ratio':<42}" + "".join(f"{'CPython ' + v:>{width}}" for v in versions) + "   (target)")
    rows: list[tuple[str, str, str, float]] = []
    for n in player_counts:
        rows.append((f"classic / RLCard, {n} players", f"classic/{n}", f"RLCard UnoGame/{n}", TARGET_RLCARD))
        rows.append(
            (f"all plugins / classic, {n} players", f"all plugins/{n}", f"classic/{n}", TARGET_ALL_PLUGINS)
        )
    rows += [(f"classic+{m} / classic, 4 players", f"classic+{m}/4", "classic/4", TARGET_MODE) for m in modes]
    for label, top, bottom, goal in rows:
        cells = [med[v][top] / med[v][bottom] if bottom in med[v] else float("nan") for v in versions]
        print(f"{label:<42}" + "".join(f"{c:>{width - 1}.2f}x" for c in cells) + f"   (>= {goal:g}x)")
    for v in versions[1:]:
        ratio = med[v]["classic/4"] / med[versions[0]]["classic/4"]
        print(f"classic, CPython {v} / {versions[0]}, 4 players: {ratio:.2f}x")
    if args.json:
        args.json.write_text(json.dumps({"rates": rates, "medians": med}, indent=2))
    return 0


def against(args: argparse.Namespace, player_counts: list[int]) -> int:
    """The ``--against`` run: the reference commit and this tree, alternating."""
    sha, ref_python = reference_python(args.against)
    shipped = shipped_plugins()
    everything, names, skipped = all_plugins_ruleset(shipped)
    options = everything.spec()["options"]
    modes = [m for m in MODES if m in shipped and not args.no_modes]
    rl = not args.no_rlcard and rlcard_player() is not None
    job = {
        "names": names,
        "options": options,
        "modes": modes,
        "players": player_counts,
        "min_time": args.min_time,
    }
    sides = {"reference": str(ref_python), "this tree": sys.executable}
    print(f"reference: {args.against} = {sha[:12]} ({ref_python}); this tree: {sys.executable}")
    print(f"all plugins = {'+'.join(names)} with {options}")
    for name, why in skipped.items():
        print(f"  left out {name}: {why}")
    print(
        f"{args.reps} repetitions of >= {args.min_time:g} s per contender, each side in a fresh process,"
        " the first side alternating",
        flush=True,
    )
    rates = alternate(sides, job, args.reps, {"this tree"} if rl else set())
    med = {side: {k: statistics.median(v) for k, v in found.items()} for side, found in rates.items()}
    ref, new = med["reference"], med["this tree"]
    print()
    print(
        f"{'contender':<32}{'reference':>12}{'this tree':>12}{'ratio':>8}   (actions per CPU second, medians)"
    )
    for key in new:
        if key in ref:
            print(f"{key:<32}{ref[key]:>12,.0f}{new[key]:>12,.0f}{new[key] / ref[key]:>7.2f}x")
        else:
            print(f"{key:<32}{'':>12}{new[key]:>12,.0f}")
    missed = []
    print()
    print("Targets (this tree)")

    def target(label: str, ratio: float, goal: float) -> None:
        verdict = "ok" if ratio >= goal else "BELOW TARGET"
        if ratio < goal:
            missed.append(label)
        print(f"  {label:<44}{ratio:>6.2f}x   (target >= {goal:g}x: {verdict})")

    for n in player_counts:
        target(f"classic, this tree / reference, {n} players", new[f"classic/{n}"] / ref[f"classic/{n}"], 1.0)
        if f"RLCard UnoGame/{n}" in new:
            ratio = new[f"classic/{n}"] / new[f"RLCard UnoGame/{n}"]
            target(f"classic / RLCard, {n} players", ratio, TARGET_RLCARD)
        target(
            f"all plugins / classic, {n} players",
            new[f"all plugins/{n}"] / new[f"classic/{n}"],
            TARGET_ALL_PLUGINS,
        )
        print(
            f"  {'(reference: all plugins / classic, ' + str(n) + ' players)':<44}"
            f"{ref[f'all plugins/{n}'] / ref[f'classic/{n}']:>6.2f}x"
        )
    for mode in modes:
        target(
            f"classic+{mode} / classic, 4 players", new[f"classic+{mode}/4"] / new["classic/4"], TARGET_MODE
        )
    print()
    print(f"targets not met: {'; '.join(missed)}" if missed else "every target met")
    if args.json:
        args.json.write_text(
            json.dumps({"reference": sha, "rates": rates, "medians": med, "missed": missed}, indent=2)
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions (the median is reported)")
    parser.add_argument("--min-time", type=float, default=1.0, help="CPU seconds of play per repetition")
    parser.add_argument("--players", default="2,4", help="player counts")
    parser.add_argument("--no-rlcard", action="store_true", help="skip RLCard even if installed")
    parser.add_argument("--no-modes", action="store_true", help="skip the game modes")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--against", metavar="REF", help="measure the commit REF and this tree side by side")
    parser.add_argument(
        "--pythons", metavar="VERSIONS", help="this tree on each CPython named (3.11,3.12,3.13), side by side"
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="also this CPython with the compiled core (dev.py build-compiled), side by side",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # one repetition, for --against and --pythons
    args = parser.parse_args(argv)
    if args.worker:
        if os.environ.get("UNORULES_BENCH_COMPILED") == "1" and not unorules.state.__file__.endswith(".so"):
            raise SystemExit(f"the compiled side imported {unorules.state.__file__}, not the compiled core")
        job = json.loads(args.worker)
        print(json.dumps(measure_once(**job)))
        return 0
    player_counts = [int(p) for p in args.players.split(",")]
    if args.against:
        return against(args, player_counts)
    if args.pythons or args.compiled:
        return pythons(args, player_counts)

    classic = Ruleset.from_names(["classic"])
    shipped = shipped_plugins()
    everything, all_names, skipped = all_plugins_ruleset(shipped)
    modes = [m for m in MODES if m in shipped and not args.no_modes]
    rl = None if args.no_rlcard else rlcard_player()

    benches: list[Bench] = []
    for n in player_counts:
        benches.append(Bench("classic", n, functools.partial(play_unorules, classic, n)))
        benches.append(Bench("all plugins", n, functools.partial(play_unorules, everything, n)))
        if rl is not None:
            benches.append(Bench("RLCard UnoGame", n, functools.partial(rl, n)))
        benches.append(Bench("floor", n, functools.partial(play_floor, n)))
    mode_errors: dict[str, str] = {}
    for mode in modes:
        try:
            rules = Ruleset.from_names(["classic", mode])
            rules.new_game(players=4, seed=0)
        except RulesetError as exc:
            mode_errors[mode] = str(exc)
            continue
        benches.append(Bench(f"classic+{mode}", 4, functools.partial(play_unorules, rules, 4)))

    print(f"unorules {unorules.__version__}, Python {platform.python_version()} on {platform.machine()}")
    print(f"shipped plugins: {', '.join(shipped)}")
    print(f"all plugins = {'+'.join(all_names)}")
    print(f"  with options {everything.spec()['options']}")
    for name, why in skipped.items():
        print(f"  left out {name}: {why}")
    for name, why in mode_errors.items():
        print(f"  mode {name} not measured: {why}")
    if rl is None and not args.no_rlcard:
        print("rlcard is not installed: .venv/bin/pip install rlcard to compare with RLCard")
    print(f"{args.reps} repetitions of >= {args.min_time:g} s each, interleaved; medians below", flush=True)
    for rep in range(args.reps):
        for bench in benches:
            bench.run(args.min_time)
        print(f"  repetition {rep + 1}/{args.reps} done", flush=True)

    print()
    print("Random play (unorules: public API, legal_actions() then apply())")
    header = ("engine / rule set", "players", "actions/s", "games/s", "rounds/s", "actions/game")
    print("{:<28}{:>8}{:>12}{:>10}{:>10}{:>14}".format(*header))
    results: dict[str, Any] = {"benches": [], "ratios": {}}
    by_key = {}
    for bench in benches:
        a, g, r = bench.median(0), bench.median(1), bench.median(2)
        by_key[(bench.label, bench.players)] = a
        apg = statistics.median(bench.actions_per_game)
        print(f"{bench.label:<28}{bench.players:>8}{a:>12,.0f}{g:>10,.1f}{r:>10,.1f}{apg:>14,.0f}")
        results["benches"].append(
            {
                "label": bench.label,
                "players": bench.players,
                "actions_per_s": a,
                "games_per_s": g,
                "rounds_per_s": r,
                "actions_per_game": apg,
                "all_reps": bench.rates,
            }
        )
    print("(a unorules game is played to 500 points; an RLCard game is one round;")
    print(" floor: benchmarks/floor.py, classic as a plain Python loop)")
    if stats.rlcard_failures:
        print(f"(RLCard's engine failed to draw in {stats.rlcard_failures} games; their actions count)")

    missed: list[str] = []
    print()
    print("Ratios (same run)")
    for n in player_counts:
        c = by_key[("classic", n)]
        rows: list[tuple[str, float, float | None]] = []
        if rl is not None:
            rl_rate = by_key[("RLCard UnoGame", n)]
            rows.append((f"classic / RLCard, {n} players", c / rl_rate, TARGET_RLCARD))
        rows.append((f"classic / floor, {n} players", c / by_key[("floor", n)], TARGET_FLOOR))
        all_rate = by_key[("all plugins", n)]
        rows.append((f"all plugins / classic, {n} players", all_rate / c, TARGET_ALL_PLUGINS))
        if n == 4:
            for mode in modes:
                key = (f"classic+{mode}", 4)
                if key in by_key:
                    rows.append((f"classic+{mode} / classic, 4 players", by_key[key] / c, TARGET_MODE))
        for label, ratio, target in rows:
            results["ratios"][label] = ratio
            if target is None:
                print(f"  {label:<40}{ratio:>6.2f}x")
                continue
            verdict = "ok" if ratio >= target else "BELOW TARGET"
            print(f"  {label:<40}{ratio:>6.2f}x   (target >= {target:g}x: {verdict})")
            if ratio < target:
                missed.append(label)

    print()
    print("Memory: every state of one long game kept (tracemalloc), 4 players, seed 1")
    print(f"{'rule set':<28}{'states':>8}{'rounds':>8}{'bytes/state':>13}{'deep copy':>11}{'shared':>9}")
    results["memory"] = {}
    for label, rules in (("classic", classic), ("all plugins", everything)):
        m = measure_memory(rules, 4, 1)
        limit = TARGET_BYTES[label]
        verdict = "ok" if m["bytes_per_state"] <= limit else "ABOVE TARGET"
        if m["bytes_per_state"] > limit:
            missed.append(f"memory, {label}")
        print(
            f"{label:<28}{m['states']:>8,.0f}{m['rounds']:>8.0f}{m['bytes_per_state']:>13,.0f}"
            f"{m['bytes_per_copy']:>11,.0f}{m['bytes_per_copy'] / m['bytes_per_state']:>8.1f}x"
            f"   (target <= {limit} bytes/state: {verdict})"
        )
        results["memory"][label] = m
    print("(deep copy: one state rebuilt sharing only the rule set and interned cards/actions;")
    print(" shared: how many times less a kept state costs than such a copy)")
    print()
    if rl is None:
        missed.append("RLCard not measured (pip install rlcard)")
    if missed:
        print(f"targets not met: {'; '.join(missed)}")
    else:
        print("every target met")
    results["missed"] = missed
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

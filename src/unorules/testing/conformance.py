"""The conformance runner: every invariant, over a plugin and its combinations.

:func:`run_conformance` takes a plugin (an installed name or a plugin object)
and checks the invariants of :mod:`unorules.testing.invariants` over

* the plugin with ``classic`` (and whatever it ``requires``),
* the plugin with ``classic`` and each other installed plugin, one at a time,
* the plugin with ``classic`` and every other installed plugin that still
  builds with them (added in name order),

skipping (and reporting) combinations refused with ``RulesetError`` when the
rule set is built. Each combination is played, for each supported player
count, by seeded random games (one with default options, the others with
option values drawn from :func:`~unorules.testing.strategies.option_values`),
checking the cheap invariants after every action and all of them every few
actions; and, where the budget says so, by the hypothesis state machine
(:mod:`unorules.testing.machine`).

A violation found by random play is shrunk: its actions are replayed as
choices among the legal actions, and plugins and options are dropped from the
rule set, chunks of choices dropped and choices lowered while the same
invariant still fails, so the report shows a short replay of a small rule
set. Every violation is printed with its replay as Python to paste into a
test. :class:`Budget` sets how much to play; :data:`CI_BUDGET` is the bounded
one CI uses.
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from unorules.errors import RulesetError, UnorulesError
from unorules.ruleset import Ruleset, installed_plugins
from unorules.state import GameState
from unorules.testing.invariants import (
    STATE_INVARIANTS,
    InvariantViolation,
    RoundMonitor,
    check_cards,
    check_events,
    check_hands,
    check_legal_actions,
    check_replay,
    check_state,
    check_turn,
)
from unorules.testing.replay import Replay, choose_action, ruleset_line

__all__ = [
    "BUDGETS",
    "CI_BUDGET",
    "DEFAULT_BUDGET",
    "QUICK_BUDGET",
    "Budget",
    "Combination",
    "ConformanceReport",
    "UnknownBudgetError",
    "Violation",
    "check_conformance",
    "conformance_combinations",
    "option_variant",
    "play_checked_game",
    "resolve_budget",
    "resolve_plugin",
    "run_combination",
    "run_conformance",
]


@attrs.frozen
class Budget:
    """How much the runner plays for each combination of plugins.

    ``players``: the player counts to try (those a rule set cannot deal for
    are left out); ``games`` seeded random games per player count, each of at
    most ``max_actions`` actions, every second one preferring to play cards
    (``eager``) so that rounds end; the deep invariants every ``deep_every``
    actions; ``machine_examples`` hypothesis state-machine runs of
    ``machine_steps`` steps per combination (0: none; ``None``: the current
    hypothesis profile), for the plugin with classic only unless
    ``machine_on_pairs``; ``shrink_steps``, the most actions the shrinker
    replays (over all its candidate replays) to shrink each violation: a count,
    not a time, so a shrunk replay is the same on any machine;
    ``pairs`` and ``together`` for the combinations with other plugins.
    """

    players: tuple[int, ...] = (2, 3, 4, 6)
    games: int = 3
    max_actions: int = 600
    eager: float = 0.8
    deep_every: int = 10
    machine_examples: int | None = None
    machine_steps: int | None = None
    machine_on_pairs: bool = False
    shrink_steps: int = 200_000
    pairs: bool = True
    together: bool = True
    seed: int = 0


DEFAULT_BUDGET = Budget()
"""The budget of ``pytest --unorules-conformance NAME`` and of :func:`run_conformance`."""

CI_BUDGET = Budget(
    players=(2, 3, 6),
    games=2,
    max_actions=250,
    deep_every=25,
    machine_examples=4,
    machine_steps=15,
    shrink_steps=100_000,
)
"""The bounded budget CI runs over every shipped plugin (a few seconds each)."""

QUICK_BUDGET = Budget(
    players=(2, 3),
    games=2,
    max_actions=300,
    machine_examples=5,
    machine_steps=15,
    shrink_steps=50_000,
    pairs=False,
    together=False,
)
"""The plugin with classic only, briefly: for a quick check while writing a plugin."""

BUDGETS: dict[str, Budget] = {"default": DEFAULT_BUDGET, "ci": CI_BUDGET, "quick": QUICK_BUDGET}
"""The budgets by the names ``pytest --unorules-budget`` and the functions
below accept: ``"default"``, ``"ci"``, ``"quick"``."""


def resolve_budget(budget: Budget | str) -> Budget:
    """``budget`` itself, or the budget of :data:`BUDGETS` it names (case does
    not matter). An unknown name raises :class:`~unorules.UnorulesError`
    listing the known ones."""
    if isinstance(budget, Budget):
        return budget
    if isinstance(budget, str) and budget.strip().lower() in BUDGETS:
        return BUDGETS[budget.strip().lower()]
    known = ", ".join(repr(name) for name in BUDGETS)
    raise UnknownBudgetError(f"unknown conformance budget {budget!r}: give a Budget or one of {known}")


class UnknownBudgetError(UnorulesError, ValueError):
    """A budget name that is not one of :data:`BUDGETS`."""


def require_hypothesis() -> None:
    """Raise ``ModuleNotFoundError`` saying how to install hypothesis, which
    the strategies, the state machine and this runner need, when it is missing."""
    try:
        import hypothesis  # noqa: F401
    except ImportError as exc:
        raise ModuleNotFoundError(
            "the unorules conformance runner needs hypothesis, which is not installed: "
            "install unorules[testing] (pip install 'unorules[testing]')",
            name="hypothesis",
        ) from exc


@attrs.frozen
class Combination:
    """Plugins to build a rule set from: installed ``names`` plus plugin ``objects``."""

    names: tuple[str, ...]
    objects: tuple[Any, ...] = ()

    @property
    def label(self) -> str:
        """The plugin names joined with ``+``."""
        return "+".join(self.names + tuple(str(p.name) for p in self.objects))

    def build(self, options: dict[str, Any] | None = None) -> Ruleset:
        """The rule set (``RulesetError`` if it cannot be built)."""
        return Ruleset.from_names(list(self.names), options=options, plugins=self.objects)


@attrs.frozen
class Violation:
    """An invariant that failed: where, how, and the replay that shows it."""

    ruleset: Ruleset
    players: int | None
    invariant: str
    detail: str
    found_by: str
    replay: Replay | None = None
    transcript: str = ""

    def format(self) -> str:
        """The violation with its replay (or the state machine's output)."""
        seats = "" if self.players is None else f", {self.players} players"
        head = f"VIOLATION [{self.invariant}] {ruleset_line(self.ruleset)}{seats} ({self.found_by})"
        lines = [head, f"  {self.detail}"]
        if self.replay is not None:
            lines.append(
                f"  replay ({len(self.replay.actions)} actions; paste into a test, replay.check() fails):"
            )
            lines += [
                "    " + line for line in self.replay.format(f"[{self.invariant}] {self.detail}").splitlines()
            ]
        if self.transcript:
            lines.append("  hypothesis output:")
            lines += ["    " + line for line in self.transcript.rstrip().splitlines()]
        return "\n".join(lines)


@attrs.define
class ConformanceReport:
    """What the runner checked, skipped and found for one plugin."""

    plugin: str
    checked: list[str] = attrs.Factory(list)
    skipped: list[tuple[str, str]] = attrs.Factory(list)
    violations: list[Violation] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        """True when no invariant failed."""
        return not self.violations

    def format(self) -> str:
        """A readable report: checked and skipped combinations, then each violation."""
        lines = [f"unorules conformance of plugin {self.plugin!r}: " + ("OK" if self.ok else "FAILED")]
        lines += [f"  checked {line}" for line in self.checked]
        lines += [f"  skipped {label}: {reason}" for label, reason in self.skipped]
        for violation in self.violations:
            lines.append("")
            lines.append(violation.format())
        return "\n".join(lines)


# -- plugins and their combinations -------------------------------------------------------


def resolve_plugin(plugin: str | Any) -> tuple[str, Any]:
    """``(name, plugin object)`` for an installed plugin's name or a plugin object."""
    if isinstance(plugin, str):
        installed = installed_plugins()
        key = plugin.strip().lower()
        if key not in installed:
            known = ", ".join(sorted(installed)) or "none"
            raise RulesetError(f"no plugin named {plugin!r} is installed; installed plugins: {known}")
        return key, installed[key]
    name = getattr(plugin, "name", None)
    if not isinstance(name, str) or not name:
        raise RulesetError(f"{plugin!r} is not a plugin: it has no name")
    return name, plugin


def _requirements(plugin: Any, installed: Any) -> list[str]:
    """Installed plugins ``plugin`` requires, transitively, in dependency order."""
    found: list[str] = []

    def visit(p: Any) -> None:
        for required in getattr(p, "requires", ()):
            if required not in found and required in installed:
                visit(installed[required])
                found.append(required)

    visit(plugin)
    return found


def conformance_combinations(
    plugin: str | Any, *, pairs: bool = True, together: bool = True
) -> tuple[list[Combination], list[tuple[str, str]]]:
    """The combinations the runner checks for ``plugin`` (see the module
    docstring), and the ones refused when built, each with the reason."""
    name, obj = resolve_plugin(plugin)
    installed = installed_plugins()
    is_installed = installed.get(name) is obj
    base = ["classic"] if "classic" in installed else []
    base += [r for r in _requirements(obj, installed) if r not in base]

    def combo(extra: Sequence[str]) -> Combination:
        names = list(dict.fromkeys([*base, *([name] if is_installed else []), *extra]))
        return Combination(tuple(names), () if is_installed else (obj,))

    wanted = [combo([])]
    others = sorted(n for n in installed if n != name and n not in base)
    if pairs:
        wanted += [combo([other]) for other in others]
    if together and len(others) > 1:
        chosen: list[str] = []
        for other in others:
            try:
                combo([*chosen, other]).build()
            except RulesetError:
                continue
            chosen.append(other)
        if len(chosen) > 1:
            wanted.append(combo(chosen))
    built: list[Combination] = []
    skipped: list[tuple[str, str]] = []
    for candidate in dict.fromkeys(wanted):
        try:
            candidate.build()
        except RulesetError as exc:
            skipped.append((candidate.label, str(exc)))
            continue
        built.append(candidate)
    return built, skipped


# -- playing and shrinking -------------------------------------------------------------------

Check = Callable[[GameState], None]


def _cheap(state: GameState) -> None:
    check_cards(state)
    check_turn(state)
    check_hands(state)
    check_legal_actions(state)
    check_events(state)


def _kind_of(exc: BaseException) -> str:
    if isinstance(exc, InvariantViolation):
        return exc.invariant
    return f"crash:{type(exc).__name__}"


def _describe(exc: BaseException) -> str:
    if isinstance(exc, InvariantViolation):
        return exc.detail
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    if not frames:
        return f"{type(exc).__name__}: {exc}"
    core = str(Path(__file__).resolve().parent.parent)
    inner = frames[-1]
    place = f"at {inner.filename}:{inner.lineno} in {inner.name}"
    # The innermost frame outside the core is usually the plugin's code that went wrong.
    outside = [f for f in frames if not str(Path(f.filename).resolve()).startswith(core)]
    if outside and outside[-1] is not inner:
        place += f", called from {outside[-1].filename}:{outside[-1].lineno} in {outside[-1].name}"
    return f"{type(exc).__name__}: {exc} ({place})"


def _play(
    ruleset: Ruleset,
    players: int,
    seed: int,
    choose: Callable[[GameState, int], int],
    steps: int,
    check: Callable[[GameState, int], None],
) -> tuple[Replay, BaseException | None]:
    """Play ``steps`` actions, ``choose(state, step)`` giving the index of each
    among the legal actions, checking every state; stop at the first failure."""
    actions = []
    try:
        state = ruleset.new_game(players, seed=seed)
        monitor = RoundMonitor(ruleset)
        monitor.observe(state)
        check(state, 0)
        for step in range(1, steps + 1):
            if state.is_over:
                break
            legal = state.legal_actions()
            action = legal[choose(state, step) % len(legal)]
            actions.append(action)
            try:
                state = state.apply(action)
            except Exception as exc:
                raise InvariantViolation(
                    "accepted", f"{action} is legal but apply raised {type(exc).__name__}: {exc}"
                ) from exc
            monitor.observe(state)
            check(state, step)
        replay = Replay(ruleset, players, seed, actions=actions)
        check_replay(replay, state)
    except Exception as exc:
        return Replay(ruleset, players, seed, actions=actions), exc
    return replay, None


def _checker(kind: str | None, deep_every: int) -> Callable[[GameState, int], None]:
    """Checks for a run: everything on its schedule, or one kind after every action."""
    if kind is None:

        def check_all(state: GameState, step: int) -> None:
            check_state(state, deep=step % deep_every == 0)

        return check_all
    single: Check = STATE_INVARIANTS.get(kind, _cheap)
    if kind == "pure":
        single = STATE_INVARIANTS["accepted"]

    def check_one(state: GameState, step: int) -> None:
        if single is not _cheap:
            _cheap(state)
        single(state)

    return check_one


def _simpler_rulesets(ruleset: Ruleset) -> list[Ruleset]:
    """Rule sets like ``ruleset`` with one plugin fewer (not classic, nor one that
    is not installed: the plugin under test) or one option back at its default."""
    installed = installed_plugins()
    given = dict(ruleset.spec()["options"])
    found: list[Ruleset] = []
    for plugin in ruleset.plugins:
        if plugin.name == "classic" or installed.get(plugin.name) is not plugin:
            continue
        rest = [p for p in ruleset.plugins if p is not plugin]
        own = {o.name for o in getattr(plugin, "options", ())}
        try:
            found.append(Ruleset(rest, {k: v for k, v in given.items() if k not in own}))
        except RulesetError:
            continue  # another plugin requires it
    for name in given:
        try:
            found.append(Ruleset(ruleset.plugins, {k: v for k, v in given.items() if k != name}))
        except RulesetError:
            continue
    return found


def _shrink(
    ruleset: Ruleset, players: int, seed: int, replay: Replay, exc: BaseException, steps: int
) -> tuple[Replay, BaseException]:
    """A simpler replay failing the same way (the same invariant, or the same
    exception type): fewer plugins and options in the rule set, fewer actions,
    earlier choices among the legal actions. The actions are replayed as
    choices (the index of each among the legal actions, wrapped around), so
    every candidate is a game of legal actions.

    ``steps`` bounds the work: the shrinker stops trying candidates once it has
    replayed that many actions in all. It counts actions, never seconds, so
    the same failure shrinks to the same replay on any machine."""
    kind = _kind_of(exc)
    check = _checker(kind, 1)
    if not replay.actions:
        return replay, exc  # it failed at the deal: nothing to shrink
    state = replay.start()
    choices: list[int] = []
    for action in replay.actions[:-1]:
        choices.append(state.legal_actions().index(action))
        state = state.apply(action)
    # The last action may be the one whose apply failed.
    choices.append(state.legal_actions().index(replay.actions[-1]))
    # The best so far: rule set, choices, replay, failure.
    best: tuple[Ruleset, list[int], Replay, BaseException] = (ruleset, choices, replay, exc)
    spent = 0

    def left() -> bool:
        return spent < steps

    def size(rules: Ruleset, candidate: list[int]) -> tuple[int, int, int, list[int]]:
        return (len(rules.plugins), len(rules.spec()["options"]), len(candidate), candidate)

    def attempt(candidate: list[int], rules: Ruleset | None = None) -> bool:
        nonlocal best, spent
        if not left():
            return False
        spent += len(candidate)
        rules = best[0] if rules is None else rules
        got, failure = _play(rules, players, seed, lambda s, i: candidate[i - 1], len(candidate), check)
        if failure is None or _kind_of(failure) != kind:
            return False
        kept = candidate[: len(got.actions)]
        if size(rules, kept) >= size(best[0], best[1]):
            return False
        best = (rules, kept, got, failure)
        return True

    # Replaying the failure alone with the narrower check may already stop earlier.
    attempt(list(choices))
    improved = True
    while improved and left():
        improved = False
        for simpler in _simpler_rulesets(best[0]):
            improved |= attempt(list(best[1]), simpler)
        width = max(1, len(best[1]) // 2)
        while width >= 1 and left():
            i = 0
            while i < len(best[1]) and left():
                current = best[1]
                if attempt(current[:i] + current[i + width :]):
                    improved = True
                else:
                    i += width
            width //= 2
        for i in range(len(best[1])):
            if not left():
                break
            current = best[1]
            if i >= len(current) or current[i] == 0:
                continue
            for lower in (0, current[i] // 2, current[i] - 1):
                candidate = list(current)
                candidate[i] = lower
                if lower < current[i] and attempt(candidate):
                    improved = True
                    break
    return best[2], best[3]


def _random_chooser(rng: random.Random, eager: float) -> Callable[[GameState, int], int]:
    def choose(state: GameState, step: int) -> int:
        return state.legal_actions().index(choose_action(state, rng, eager))

    return choose


def _option_variant(combo: Combination | Ruleset, rng: random.Random) -> dict[str, Any]:
    from unorules.testing.strategies import option_values

    ruleset = combo if isinstance(combo, Ruleset) else combo.build()
    options: dict[str, Any] = {}
    for plugin in ruleset.plugins:
        for option in getattr(plugin, "options", ()):
            values = option_values(plugin, option)
            value = rng.choice(values)
            if not (value == option.default and type(value) is type(option.default)):
                options[option.name] = value
    return options


def play_checked_game(
    ruleset: Ruleset,
    players: int,
    seed: int,
    *,
    max_actions: int = 600,
    eager: float = 0.0,
    deep_every: int = 10,
    shrink_steps: int = 100_000,
) -> tuple[Violation | None, int]:
    """Play one seeded random game (at most ``max_actions`` actions), checking
    the cheap invariants after every action, all of them every ``deep_every``
    actions, the rounds throughout and the replay at the end.

    Returns the violation found, shrunk to a short replay (or ``None``), and
    the number of actions played.
    """
    replay, failure = _play(
        ruleset,
        players,
        seed,
        _random_chooser(random.Random(seed), eager),
        max_actions,
        _checker(None, deep_every),
    )
    length = len(replay.actions)
    if failure is None:
        return None, length
    replay, failure = _shrink(ruleset, players, seed, replay, failure, shrink_steps)
    found = Violation(
        replay.ruleset, players, _kind_of(failure), _describe(failure), f"random play, seed {seed}", replay
    )
    return found, length


def option_variant(combo: Combination | Ruleset, seed: int | str) -> dict[str, Any]:
    """Options for ``combo``'s plugins drawn with ``seed`` from
    :func:`~unorules.testing.strategies.option_values` (defaults left out)."""
    return _option_variant(combo, random.Random(seed))


def run_combination(
    combo: Combination,
    budget: Budget = DEFAULT_BUDGET,
    *,
    machine: bool = True,
    out: Callable[[str], None] | None = None,
) -> tuple[str, list[Violation]]:
    """Check one combination: random games for each supported player count,
    then (if ``machine`` and the budget allows) the hypothesis state machine.
    Returns a one-line summary and the violations found (at most one from
    random play, the first, shrunk; and one from the state machine)."""
    from unorules.testing.strategies import supported_players

    ruleset = combo.build()
    violations: list[Violation] = []
    counts = supported_players(ruleset, budget.players)
    if not counts:
        # A rule set for a set number of players (partners: four) is still checked.
        counts = supported_players(ruleset)[:1]
    played = 0
    games = 0
    for players in counts:
        for game in range(budget.games):
            rules = ruleset
            if game > 0:
                variant_rng = random.Random(f"{combo.label}:{players}:{game}:{budget.seed}")
                try:
                    rules = combo.build(_option_variant(combo, variant_rng))
                except RulesetError:
                    rules = ruleset
            seed = budget.seed * 1000 + game
            violation, length = play_checked_game(
                rules,
                players,
                seed,
                max_actions=budget.max_actions,
                eager=budget.eager if game % 2 == 0 else 0.0,
                deep_every=budget.deep_every,
                shrink_steps=budget.shrink_steps,
            )
            games += 1
            played += length
            if violation is not None:
                violations.append(violation)
                if out is not None:
                    out(violation.format())
                break
        if violations:
            break  # one shrunk replay per combination is enough to show it is broken
    machine_runs = 0
    examples = budget.machine_examples
    if machine and examples != 0 and not violations:
        found = _run_machine(ruleset, counts, budget)
        machine_runs = 1
        if found is not None:
            violations.append(found)
            if out is not None:
                out(found.format())
    summary = (
        f"{combo.label}: players {', '.join(map(str, counts)) or 'none'}; "
        f"{games} game{'s' * (games != 1)}, {played} actions" + (", state machine" if machine_runs else "")
    )
    if out is not None:
        out(("ok   " if not violations else "FAIL ") + summary)
    return summary, violations


def _run_machine(ruleset: Ruleset, counts: Sequence[int], budget: Budget) -> Violation | None:
    from hypothesis import HealthCheck, settings
    from hypothesis.reporting import with_reporter
    from hypothesis.stateful import run_state_machine_as_test

    from unorules.testing.machine import machine_for

    if not counts:
        return None
    machine = machine_for(ruleset, players=tuple(counts))
    current = settings()
    chosen = settings(
        current,
        max_examples=budget.machine_examples or current.max_examples,
        stateful_step_count=budget.machine_steps or current.stateful_step_count,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    output: list[str] = []
    try:
        with with_reporter(lambda text: output.append(str(text))):
            run_state_machine_as_test(machine, settings=chosen)
    except Exception as exc:
        failure: BaseException = exc
        if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
            failure = exc.exceptions[0]
        # Hypothesis attaches the shrunk steps and the notes (the replay) to the
        # exception (PEP 678) rather than printing them.
        output += getattr(failure, "__notes__", [])
        return Violation(
            ruleset,
            None,
            _kind_of(failure),
            _describe(failure),
            "hypothesis state machine",
            None,
            "\n".join(output),
        )
    return None


def run_conformance(
    plugin: str | Any,
    budget: Budget | str = DEFAULT_BUDGET,
    *,
    out: Callable[[str], None] | None = None,
) -> ConformanceReport:
    """Check every invariant over ``plugin`` (an installed name or a plugin
    object) alone with classic and combined with the other installed plugins;
    see the module docstring. ``budget`` is a :class:`Budget` or its name
    (``"default"``, ``"ci"``, ``"quick"``: :data:`BUDGETS`). ``out`` receives
    progress lines and each violation (with its replay) as soon as it is
    found."""
    budget = resolve_budget(budget)
    require_hypothesis()
    name, _ = resolve_plugin(plugin)
    report = ConformanceReport(name)
    combos, skipped = conformance_combinations(plugin, pairs=budget.pairs, together=budget.together)
    report.skipped.extend(skipped)
    if out is not None:
        for label, reason in skipped:
            out(f"skip {label}: {reason}")
    for i, combo in enumerate(combos):
        machine = i == 0 or budget.machine_on_pairs
        summary, found = run_combination(combo, budget, machine=machine, out=out)
        report.checked.append(summary)
        report.violations.extend(found)
    return report


def check_conformance(plugin: str | Any, budget: Budget | str = DEFAULT_BUDGET) -> ConformanceReport:
    """:func:`run_conformance`, raising ``AssertionError`` with the whole report
    (replays included) when an invariant fails; returns the report otherwise.
    ``budget`` is a :class:`Budget` or its name, e.g. ``check_conformance(name,
    budget="quick")``."""
    report = run_conformance(plugin, budget)
    if not report.ok:
        raise AssertionError(report.format())
    return report

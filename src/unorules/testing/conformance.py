"""The conformance runner: every invariant, over a plugin and its combinations.

:func:`run_conformance` takes a plugin (an installed name or a plugin object)
and checks the invariants of :mod:`unorules.testing.invariants` over

* the plugin with ``classic`` (and whatever it ``requires``),
* the plugin with ``classic`` and each other installed plugin, one at a time,
* the plugin with ``classic`` and every other installed plugin that still
  builds with them (added in name order),

skipping (and reporting) combinations refused with ``RulesetError`` when the
rule set is built. (``others`` names the plugins to combine with instead of
every installed one.)

**Games steered by coverage.** Each combination plays seeded games until
every declaration of the plugin under test (its cards, verbs, phases, event
kinds, extras and option values; :mod:`unorules.testing.coverage`) has been
covered the :class:`Budget`'s number of times, each player count has had its
games, or the combination's time is up. Beside a game mode
(:func:`is_game_mode`) it also plays on until the mode's event kinds have
happened, and each card of the plugin is to be played in each situation the
games reach (a seat has left: ``while`` declarations, see
:mod:`unorules.testing.coverage`). The games go through the player
counts (two seats to ten), deal styles and play policies of
:mod:`unorules.testing.explore` (the plugin's cards in hands, as the starter,
with duplicates, next to the other plugins' cards; steered, eager, hoarding
and random play), and each game's options cover the plugin's option values
in turn. The cheap invariants and the step invariants run after every
action, the deep ones (JSON, pickle, every legal action applied, refusals,
views) every few actions and whenever a phase, an extra or an event kind
turns up that has not been deep-checked yet. Where the budget says so, the
hypothesis state machine (:mod:`unorules.testing.machine`) runs too.

**Shrinking.** A violation found by random play is shrunk: its actions are
replayed as choices among the legal actions, and plugins and options are
dropped from the rule set, chunks of choices dropped and choices lowered
while the same invariant still fails, so the report shows a short replay of
a small rule set, the action after which it failed and what differs. The
shrinker is bounded by a count of replayed actions (the same replay on any
machine) and by a time cap. A game that does not replay the same way (a
plugin using Python's ``random``) is reported as it was found.

Every violation is printed with its replay as Python to paste into a test,
and the report ends with the coverage (:meth:`ConformanceReport.format`).
:data:`BUDGETS` names the budgets; :data:`CI_BUDGET` is the one CI uses.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from unorules.actions import Action
from unorules.cards import kind_info
from unorules.errors import RulesetError, UnorulesError, nearest
from unorules.markers import PROJECT
from unorules.ruleset import Ruleset, installed_plugins
from unorules.state import GameState
from unorules.testing.checking import Check as Check
from unorules.testing.checking import (
    Chooser,
    _cheap,
    _describe,
    _GameCheck,
    _kind_of,
    _monitor_factory,
    _play,
    _shrink,
)
from unorules.testing.combinations import option_values, supported_players
from unorules.testing.coverage import Coverage, card_kinds, situations
from unorules.testing.explore import (
    Explorer,
    arranged_deal,
    drawn_card_positions,
    game_plan,
    last_card_positions,
    situation_positions,
)
from unorules.testing.invariants import (
    check_cards,
    check_hands,
    check_left,
    check_step,
    check_uno,
)
from unorules.testing.replay import Replay, choose_action, ruleset_line
from unorules.testing.scenario import run_scenarios

__all__ = [
    "BUDGETS",
    "CI_BUDGET",
    "DEFAULT_BUDGET",
    "QUICK_BUDGET",
    "Budget",
    "Combination",
    "CombinationResult",
    "ConformanceReport",
    "UnknownBudgetError",
    "Violation",
    "check_conformance",
    "conformance_combinations",
    "game_modes",
    "is_game_mode",
    "option_variant",
    "play_checked_game",
    "resolve_budget",
    "resolve_plugin",
    "run_combination",
    "run_conformance",
    "scenario_violations",
    "scenarios_elsewhere",
    "seconds_budget",
]


@attrs.frozen
class Budget:
    """How much the runner plays for each combination of plugins.

    **Games.** ``players``: the player counts to try (those a rule set cannot
    deal for are left out); at least ``games`` seeded games per player count,
    each of at most ``max_actions`` actions (eager games prefer playing cards
    with probability ``eager``, so rounds end); the deep invariants every
    ``deep_every`` actions and whenever something new turns up; a round that
    lasts more than ``round_actions`` actions per seat is probed (eager play
    must be able to end it, see :class:`~unorules.testing.invariants.RoundMonitor`).

    **Coverage.** After its first games a combination plays on until every
    declaration of the plugin under test is covered ``coverage`` times (with
    classic alone; ``pair_coverage`` times in the combinations with other
    plugins; 0: no target, the games only), for at most ``seconds`` (with
    classic alone) or ``pair_seconds`` (with others) and ``max_games`` games.
    Without ``until_covered`` a combination plays for its whole time (or
    ``max_games``) however soon it is covered. With ``strict``, a declaration
    left uncovered is a failure, not a warning. With ``to_the_end``, each
    card of the plugin must also have been played as someone's last card
    (its play ended a round or emptied the hand) with classic alone: a card
    never legal, never played or never the last card is a violation
    (``to-the-end``), with the reason.

    **The state machine.** ``machine_examples`` hypothesis state-machine runs
    of ``machine_steps`` steps (0: none; ``None``: the current hypothesis
    profile), for the plugin with classic only unless ``machine_on_pairs``.

    **Shrinking.** ``shrink_steps``, the most actions the shrinker replays
    (over all its candidate replays) for each violation: a count, not a
    time, so a shrunk replay is the same on any machine; ``shrink_seconds``
    caps it in time as well (a slow plugin then gets a less shrunk replay).

    ``pairs`` and ``together`` for the combinations with other plugins;
    without ``pairs``, ``modes`` still combines the plugin with each game
    mode (:func:`game_modes`) and each plugin its
    :attr:`TestHints.interacts_with <unorules.TestHints.interacts_with>`
    names; ``seed`` for the games.
    """

    players: tuple[int, ...] = (2, 3, 4, 6, 10)
    games: int = 2
    max_actions: int = 600
    eager: float = 0.8
    deep_every: int = 10
    round_actions: int = 150
    coverage: int = 3
    pair_coverage: int = 1
    seconds: float | None = 60.0
    pair_seconds: float | None = 15.0
    max_games: int = 400
    until_covered: bool = True
    strict: bool = False
    to_the_end: bool = True
    machine_examples: int | None = None
    machine_steps: int | None = None
    machine_on_pairs: bool = False
    shrink_steps: int = 200_000
    shrink_seconds: float | None = 30.0
    pairs: bool = True
    together: bool = True
    modes: bool = False
    seed: int = 0


DEFAULT_BUDGET = Budget()
"""The budget of ``unorules check``, ``pytest --unorules-conformance NAME`` and
:func:`run_conformance`: every declaration three times with classic alone
(at most a minute) and once in every combination (at most 15 s each)."""


CI_BUDGET = Budget(
    players=(2, 3, 6, 10),
    games=1,
    max_actions=300,
    deep_every=25,
    coverage=3,
    pair_coverage=1,
    seconds=20.0,
    pair_seconds=3.0,
    max_games=150,
    machine_examples=3,
    machine_steps=12,
    shrink_steps=100_000,
    shrink_seconds=10.0,
)
"""The bounded budget CI runs over every shipped plugin: every declaration
three times with classic alone (at most 20 s) and once with each other
plugin (at most 3 s each)."""


QUICK_BUDGET = Budget(
    players=(2, 3, 6, 10),
    games=1,
    max_actions=300,
    deep_every=20,
    coverage=1,
    seconds=6.0,
    pair_seconds=1.0,
    max_games=60,
    machine_examples=3,
    machine_steps=12,
    shrink_steps=50_000,
    shrink_seconds=5.0,
    pairs=False,
    together=False,
    modes=True,
    to_the_end=False,
)
"""The plugin with classic, every declaration once (at most 6 s), then beside
each game mode and each plugin it declares interactions with (about a
second each; some 12 s in all with the five shipped modes): for a quick
check while writing a plugin. Its scenarios run beside every plugin."""


BUDGETS: dict[str, Budget] = {"default": DEFAULT_BUDGET, "ci": CI_BUDGET, "quick": QUICK_BUDGET}
"""The budgets by the names ``unorules check --budget``, ``pytest
--unorules-budget`` and the functions below accept: ``"default"``, ``"ci"``,
``"quick"``."""


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


def seconds_budget(seconds: float, combinations: int, *, strict: bool = False) -> Budget:
    """A budget that spends about ``seconds`` on ``combinations`` combinations:
    the plugin with classic alone gets a third of the time (at least its
    share), the others share the rest; each combination plays for its whole
    share, whatever it has covered (``coverage`` only decides the warnings)."""
    if seconds <= 0:
        raise UnknownBudgetError(f"a time budget must be a positive number of seconds, not {seconds!r}")
    rest = max(combinations - 1, 0)
    first = seconds if not rest else max(seconds / 3, seconds / combinations)
    others = (seconds - first) / rest if rest else 0.0
    return attrs.evolve(
        DEFAULT_BUDGET,
        seconds=first,
        pair_seconds=others,
        max_games=1_000_000,
        until_covered=False,
        strict=strict,
        shrink_seconds=min(30.0, max(5.0, seconds / 4)),
    )


class UnknownBudgetError(UnorulesError, ValueError):
    """A budget name that is not one of :data:`BUDGETS`, or a bad time budget."""


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
    """An invariant that failed: where, how, and the replay that shows it.

    ``detail`` says what differs; ``replay`` is the (shrunk) game whose last
    action is the one after which it failed; ``note`` says how it was shrunk
    when that matters (a game that does not replay the same way is not)."""

    ruleset: Ruleset
    players: int | None
    invariant: str
    detail: str
    found_by: str
    replay: Replay | None = None
    transcript: str = ""
    note: str = ""
    position: str = ""
    """For a violation found from an arranged position (a probe):
    the position as a :class:`~unorules.testing.scenario.Scenario`, to paste
    into a test."""

    @property
    def action(self) -> Action | None:
        """The action after which the invariant failed (``None``: at the deal, or unknown)."""
        if self.replay is None or not self.replay.actions:
            return None
        return self.replay.actions[-1]

    def format(self) -> str:
        """The violation: the rule set, the action, what differs, and the replay
        to paste into a test (or the state machine's output)."""
        seats = "" if self.players is None else f", {self.players} players"
        head = f"VIOLATION [{self.invariant}] {ruleset_line(self.ruleset)}{seats} ({self.found_by})"
        lines = [head]
        if self.replay is not None:
            action = self.action
            where = (
                "at the deal, before any action"
                if action is None
                else f'after action {len(self.replay.actions)}, "{action}"'
            )
            lines.append(f"  when:  {where}")
        lines.append(f"  what:  {self.detail}")
        if self.note:
            lines.append(f"  note:  {self.note}")
        if self.replay is not None:
            lines.append(
                f"  replay ({len(self.replay.actions)} actions; paste into a test, replay.check() fails):"
            )
            lines += [
                "    " + line for line in self.replay.format(f"[{self.invariant}] {self.detail}").splitlines()
            ]
        if self.position:
            lines.append("  position (a probe; paste into a test, it fails the same way):")
            lines += ["    " + line for line in self.position.splitlines()]
        if self.transcript:
            lines.append("  hypothesis output:")
            lines += ["    " + line for line in self.transcript.rstrip().splitlines()]
        return "\n".join(lines)


@attrs.frozen
class CombinationResult:
    """What :func:`run_combination` did for one combination: a one-line
    ``summary``, the ``violations`` found (at most one from random play, the
    first, shrunk; and one from the state machine), the ``coverage`` of the
    plugin under test, the coverage ``target`` it was run to, and the
    ``seconds`` it took."""

    label: str
    summary: str
    violations: tuple[Violation, ...]
    coverage: Coverage
    target: int
    seconds: float

    @property
    def uncovered(self) -> list[str]:
        """The declarations left under the target, as text."""
        return [str(d) for d in self.coverage.missing(self.target)]


@attrs.define
class ConformanceReport:
    """What the runner checked, skipped and found for one plugin: the summary
    line of each combination checked, the combinations skipped with the
    reason, the violations, and each combination's result with its coverage."""

    plugin: str
    checked: list[str] = attrs.Factory(list)
    skipped: list[tuple[str, str]] = attrs.Factory(list)
    violations: list[Violation] = attrs.Factory(list)
    results: list[CombinationResult] = attrs.Factory(list)
    strict: bool = False

    @property
    def uncovered(self) -> list[tuple[str, list[str]]]:
        """Each combination that left declarations under its target, with them."""
        return [(r.label, r.uncovered) for r in self.results if r.uncovered]

    @property
    def ok(self) -> bool:
        """True when no invariant failed (and, under ``strict``, every declaration was covered)."""
        return not self.violations and not (self.strict and self.uncovered)

    def coverage_report(self) -> str:
        """The coverage of the plugin's declarations: the first combination's
        in full, one line for each other combination."""
        if not self.results:
            return "coverage: nothing was played"
        first = self.results[0]
        lines = [f"coverage with {first.label} (target {first.target}):"]
        lines += ["  " + line for line in first.coverage.lines(first.target)]
        for result in self.results[1:]:
            lines.append(f"coverage with {result.label}: {result.coverage.summary(result.target)}")
        return "\n".join(lines)

    def closing_line(self) -> str:
        """One line: what was covered in how many combinations, and the verdict."""
        total = sum(1 for r in self.results)
        full = sum(1 for r in self.results if not r.uncovered)
        games = sum(r.coverage.games for r in self.results)
        actions = sum(r.coverage.actions for r in self.results)
        seconds = sum(r.seconds for r in self.results)
        declared = len(self.results[0].coverage.tallies) if self.results else 0
        target = self.results[0].target if self.results else 0
        verdict = "OK" if self.ok else "FAILED"
        found = len(self.violations)
        text = (
            f"{verdict}: {self.plugin}: {declared} declarations, covered to target in {full} of {total} "
            f"combination{'s' * (total != 1)} (target {target} with classic"
        )
        if total > 1:
            text += f", {self.results[1].target} with others" if len(self.results) > 1 else ""
        text += f"); {games} games, {actions} actions, {seconds:.1f} s; "
        text += f"{found} violation{'s' * (found != 1)}"
        if self.uncovered:
            text += f"; {'FAILED' if self.strict else 'warning'}: declarations not covered in "
            text += f"{len(self.uncovered)} combination{'s' * (len(self.uncovered) != 1)}"
        return text

    def format(self) -> str:
        """A readable report: checked and skipped combinations, each violation
        with its replay, the coverage, the declarations left uncovered, and the
        closing line."""
        lines = [f"unorules conformance of plugin {self.plugin!r}: " + ("OK" if self.ok else "FAILED")]
        lines += [f"  checked {line}" for line in self.checked]
        lines += [f"  skipped {label}: {reason}" for label, reason in self.skipped]
        for violation in self.violations:
            lines.append("")
            lines.append(violation.format())
        if self.results:
            lines.append("")
            lines.append(self.coverage_report())
            for label, missing in self.uncovered:
                word = "FAILURE" if self.strict else "WARNING"
                lines.append(f"{word}: with {label}, not covered to target: {', '.join(missing)}")
            lines.append(self.closing_line())
        return "\n".join(lines)


def resolve_plugin(plugin: str | Any) -> tuple[str, Any]:
    """``(name, plugin object)`` for an installed plugin's name or a plugin object."""
    if isinstance(plugin, str):
        installed = installed_plugins()
        key = plugin.strip().lower()
        if key not in installed:
            known = nearest(key, sorted(installed), "installed plugins")
            raise RulesetError(f"no plugin named {plugin!r} is installed; {known}")
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


_MODE_HOOKS = ("teams", "game_outcome", "going_out")


def is_game_mode(plugin: Any) -> bool:
    """Whether ``plugin`` is a game mode: a rule that brings no cards (no
    ``deck_cards``) and decides who plays on, wins or goes out (it implements
    ``teams``, ``game_outcome`` or ``going_out``)."""
    if getattr(getattr(plugin, "deck_cards", None), f"{PROJECT}_impl", None) is not None:
        return False  # a rule set of its own (classic, flip) or a card plugin
    for hook in _MODE_HOOKS:
        method = getattr(plugin, hook, None)
        if method is not None and getattr(method, f"{PROJECT}_impl", None) is not None:
            return True
    return False


def game_modes() -> list[str]:
    """The installed plugins that are game modes (:func:`is_game_mode`):
    partners, elimination, last-loses, penalties among the shipped ones."""
    return [name for name, plugin in sorted(installed_plugins().items()) if is_game_mode(plugin)]


def conformance_combinations(
    plugin: str | Any,
    *,
    pairs: bool = True,
    together: bool = True,
    others: Sequence[str] | None = None,
    modes: bool = False,
) -> tuple[list[Combination], list[tuple[str, str]]]:
    """The combinations the runner checks for ``plugin`` (see the module
    docstring), and the ones refused when built, each with the reason.
    Without ``pairs``, ``modes`` adds the combinations with each game mode
    (:func:`game_modes`) and with each installed plugin the plugin's
    :attr:`TestHints.interacts_with <unorules.TestHints.interacts_with>`
    names.

    ``others`` are the installed plugins to combine it with (default: every
    installed one). A plugin object named like an installed plugin (a copy
    of it being worked on) takes that plugin's place."""
    name, obj = resolve_plugin(plugin)
    installed = installed_plugins()
    if others is not None:
        unknown = [o for o in others if o.strip().lower() not in installed]
        if unknown:
            known = nearest(unknown[0].strip().lower(), sorted(installed), "installed plugins")
            raise RulesetError(f"no plugin named {unknown[0]!r} is installed; {known}")
        others = [o.strip().lower() for o in others]
    is_installed = installed.get(name) is obj
    # A whole edition that replaces classic (flip, no-mercy) is checked on its own.
    replaces = "classic" in getattr(obj, "conflicts", {})
    base = ["classic"] if "classic" in installed and name != "classic" and not replaces else []
    if name == "classic" and is_installed:
        base = ["classic"]
    base += [r for r in _requirements(obj, installed) if r not in base and r != name]

    def combo(extra: Sequence[str]) -> Combination:
        names = list(dict.fromkeys([*base, *([name] if is_installed else []), *extra]))
        return Combination(tuple(names), () if is_installed else (obj,))

    wanted = [combo([])]
    pool = installed if others is None else others
    candidates = sorted(n for n in pool if n != name and n not in base)
    if pairs:
        wanted += [combo([other]) for other in candidates]
    elif modes:
        declared = getattr(getattr(obj, "testing", None), "interacts_with", ())
        listed = [*game_modes(), *(n.strip().lower() for n in declared)]
        wanted += [combo([other]) for other in dict.fromkeys(listed) if other in candidates]
    if together and len(candidates) > 1:
        chosen: list[str] = []
        for other in candidates:
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


# -- games ---------------------------------------------------------------------------------------


def _random_chooser(rng: random.Random, eager: float) -> Chooser:
    def choose(state: GameState, step: int) -> Action:
        return choose_action(state, rng, eager)

    return choose


def _option_variant(combo: Combination | Ruleset, rng: random.Random) -> dict[str, Any]:
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
    shrink_seconds: float | None = None,
    round_actions: int | None = None,
) -> tuple[Violation | None, int]:
    """Play one seeded random game (at most ``max_actions`` actions), checking
    the cheap and step invariants after every action, all of them every
    ``deep_every`` actions and when something new turns up, the rounds
    throughout (a round longer than ``round_actions`` per seat is probed;
    default: the rule set's bound) and the replay at the end.

    Returns the violation found, shrunk to a short replay (or ``None``), and
    the number of actions played.
    """
    start = Replay(ruleset, players, seed)
    monitor = _monitor_factory(round_actions)
    replay, failure = _play(
        start, _random_chooser(random.Random(seed), eager), max_actions, _GameCheck(deep_every), monitor
    )
    length = len(replay.actions)
    if failure is None:
        return None, length
    replay, failure, note = _shrink(replay, failure, shrink_steps, seconds=shrink_seconds, monitor=monitor)
    found = Violation(
        replay.ruleset,
        players,
        _kind_of(failure),
        _describe(failure),
        f"random play, seed {seed}",
        replay,
        note=note,
    )
    return found, length


def option_variant(combo: Combination | Ruleset, seed: int | str) -> dict[str, Any]:
    """Options for ``combo``'s plugins drawn with ``seed`` from
    :func:`~unorules.testing.strategies.option_values` (defaults left out)."""
    return _option_variant(combo, random.Random(seed))


def _steered_options(
    combo: Combination, coverage: Coverage, rng: random.Random, vary_others: bool
) -> dict[str, Any]:
    """Options for a game: the other plugins' drawn at random (if ``vary_others``,
    or while the game modes beside the plugin have not shown what they do), the
    plugin under test's the values played in the fewest games so far, and,
    while the modes have not shown it, theirs too (a limit low enough to
    eliminate a seat, eliminating by the most cards...)."""
    unsettled = not coverage.settled()
    options = _option_variant(combo, rng) if vary_others or unsettled else {}
    steered = coverage.option_choices() + (coverage.mode_option_choices() if unsettled else [])
    for option, values, owner in steered:
        counts = [coverage.option_count(option, v, owner) for v in values]
        fewest = min(counts)
        value = rng.choice([v for v, n in zip(values, counts, strict=True) if n == fewest])
        if value == option.default and type(value) is type(option.default):
            options.pop(option.name, None)
        else:
            options[option.name] = value
    return options


def _look(before: GameState, action: Action, after: GameState) -> None:
    """The checks of a state the explorer looks at (every effect, not only
    those played): the cards, the hands and the books."""
    check_cards(after)
    check_hands(after)
    check_uno(after)
    check_left(after)
    check_step(before, action, after)


def _chooser(explorer: Explorer) -> Chooser:
    def choose(state: GameState, step: int) -> Action:
        return explorer.choose(state)

    return choose


class _LastCardProbe:
    """Plays the plugin's cards as last cards from the states a game passes
    through (:func:`~unorules.testing.explore.last_card_positions`), at most
    ``limit`` times per card kind, phase and size of the hand left (the card
    alone, or with a card of its colour), and as a card drawn and played at
    once (:func:`~unorules.testing.explore.drawn_card_positions`), over a
    combination (``probed`` is shared by its games); and, in a situation a
    game mode made (a seat has left: :data:`~unorules.testing.coverage.SITUATIONS`)
    while a card of the plugin has not been played in it, played there
    (:func:`~unorules.testing.explore.situation_positions`). Counts each probe in the coverage and keeps
    the first that fails a check."""

    def __init__(self, coverage: Coverage, probed: Counter[tuple[str, str, int]], limit: int = 2) -> None:
        self.coverage = coverage
        self.probed = probed
        self.limit = limit
        self.found: tuple[GameState, Action, BaseException] | None = None
        self.how = ""
        """How the probe that failed arranged its position, in words."""

    def __call__(self, state: GameState) -> None:
        if self.found is not None or state.is_over:
            return
        focus = self.coverage.focus_kinds
        phase = state.phase.name
        probed = self.probed
        limit = self.limit
        kinds = {
            c.kind
            for c in state.hands[state.current_player]
            if c.kind in focus and (probed[c.kind, phase, 1] < limit or probed[c.kind, phase, 2] < limit)
        }
        situated = [k for k in self.coverage.unsituated(state, 1) if probed[k, "situation", -1] < limit]
        if not kinds and not situated:
            return
        positions: list[tuple[GameState, Action, tuple[str, str, int]]] = []
        if kinds:
            for position, action in last_card_positions(state, kinds):
                assert action.card is not None
                size = len(position.hands[state.current_player])
                positions.append((position, action, (action.card.kind, phase, size)))
            drawn = [k for k in kinds if probed[k, "drawn", 0] < limit]
            for position, action in drawn_card_positions(state, drawn):
                assert action.card is not None
                positions.append((position, action, (action.card.kind, "drawn", 0)))
        for position, action in situation_positions(state, situated):
            assert action.card is not None
            positions.append((position, action, (action.card.kind, "situation", -1)))
        for position, action, key in positions:
            if probed[key] >= limit:
                continue
            probed[key] += 1
            try:
                after = position.apply(action)
                check_step(position, action, after)
                _cheap(after)
            except Exception as exc:
                self.found = (position, action, exc)
                seat, card = action.seat, action.card
                if key[1] == "situation":
                    where = " and ".join(situations(position))
                    self.how = f'a situation probe ({where}): seat {seat} holding {card}, then "{action}"'
                elif key[1] == "drawn":
                    self.how = f'a drawn-card probe: seat {seat} drew {card}, played at once: "{action}"'
                else:
                    kept = " and ".join(map(str, position.hands[seat]))
                    self.how = f'a last-card probe: seat {seat} left holding only {kept}, then "{action}"'
                return
            self.coverage.observe(position, action, after)


def _position_text(state: GameState, action: Action) -> str:
    """``state`` (a probe's position) and ``action`` as a scenario."""
    rules = state.ruleset
    hands = ", ".join(f'{seat}: "{" ".join(map(str, hand))}"' for seat, hand in enumerate(state.hands))
    fields = [
        ruleset_line(rules),
        f"players={state.players}",
        f"hands={{{hands}}}",
        f'top="{state.top_card}"',
    ]
    if state.color is not None:
        fields.append(f'color="{state.color}"')
    if state.draw_pile:
        fields.append(f'draw="{" ".join(map(str, state.draw_pile[:3]))}"')
    fields.append(f"to_move={state.current_player}")
    if state.phase.name != "play":
        fields.append(f'phase="{state.phase.name}"')
    if state.direction != 1:
        fields.append(f"direction={state.direction}")
    if rules.two_faced:
        fields.append(f"side={state.side}")
    body = ",\n    ".join(fields)
    text = f'from unorules.testing.scenario import Scenario\n\nScenario(\n    {body},\n).then("{action}")'
    held = [
        what
        for what, there in (
            ("extras", state.extras),
            ("phase data", state.phase.data),
            (f"seats that left ({', '.join(map(str, state.left))})", state.left),
        )
        if there
    ]
    if held:
        text += f"  # the position also held {' and '.join(held)}, which the scenario does not set"
    return text


def _observer(
    coverage: Coverage, options: dict[str, Any], probe: _LastCardProbe | None = None
) -> Callable[[GameState, Action | None, GameState], None]:
    def observe(before: GameState, action: Action | None, after: GameState) -> None:
        if action is None:
            coverage.start_game(after.ruleset, options, after)
        else:
            coverage.observe(before, action, after)
        if probe is not None:
            probe(after)

    return observe


def _only_cards_left(coverage: Coverage, target: int) -> bool:
    """Whether what ``coverage`` still misses is cards only (their last-card endings)."""
    missing = coverage.missing(target)
    return bool(missing) and all(d.category == "card" for d in missing)


def _plainness(kind: str) -> int:
    """How ordinary a starter of ``kind`` is: wilds first (0), then other symbols (1), then numbers (2)."""
    info = kind_info(kind)
    return 0 if info.wild else (2 if info.number is not None else 1)


def _build(combo: Combination, options: dict[str, Any], rng: random.Random) -> tuple[Ruleset, dict[str, Any]]:
    """``combo`` built with ``options``, or, if they refuse each other, with as
    many of them as still build (added one at a time, in a random order);
    returns the rule set and the options it was built with."""
    try:
        return combo.build(options), options
    except RulesetError:
        pass
    kept: dict[str, Any] = {}
    names = sorted(options)
    rng.shuffle(names)
    for name in names:
        trial = {**kept, name: options[name]}
        try:
            combo.build(trial)
        except RulesetError:
            continue
        kept = trial
    return combo.build(kept), kept


def run_combination(
    combo: Combination,
    budget: Budget = DEFAULT_BUDGET,
    *,
    machine: bool = True,
    out: Callable[[str], None] | None = None,
    plugin: Any | None = None,
    first: bool = True,
    scenarios: bool = True,
) -> CombinationResult:
    """Check one combination: games steered by the coverage of ``plugin``'s
    declarations (default: the combination's last plugin object, else its
    last name) for each supported player count, until the coverage target,
    the time cap or ``max_games`` (see :class:`Budget`; ``first`` says this is
    the plugin with classic alone, whose target and cap are ``coverage`` and
    ``seconds``), then (if ``machine`` and the budget allows) the hypothesis
    state machine. With ``scenarios``, the plugin's scenarios run under the
    combination too. Returns the :class:`CombinationResult`."""
    started = time.monotonic()
    ruleset = combo.build()
    if plugin is None:
        plugin = combo.objects[-1] if combo.objects else installed_plugins()[combo.names[-1]]
    focus = next((p for p in ruleset.plugins if p is plugin or p.name == plugin.name), plugin)
    others = [p for p in ruleset.plugins if p is not focus and p.name != "classic"]
    to_the_end = first and budget.to_the_end and budget.coverage > 0
    modes = [p for p in others if is_game_mode(p)]
    coverage = Coverage([focus], cards_of=others, options=first, to_the_end=to_the_end, watch=modes)
    coverage.add_ruleset(ruleset)
    target = budget.coverage if first else budget.pair_coverage
    cap = budget.seconds if first else budget.pair_seconds
    violations: list[Violation] = []
    counts = supported_players(ruleset, budget.players)
    if not counts:
        # A rule set for a set number of players (partners: four) is still checked.
        counts = supported_players(ruleset)[:1]
    minimum = len(counts) * budget.games
    monitor = _monitor_factory(budget.round_actions)
    seen: Counter[tuple[str, Any]] = Counter()
    played = 0
    games = 0
    index = 0
    kept_for_last: Counter[str] = Counter()
    probed: Counter[tuple[str, str, int]] = Counter()
    while counts:
        elapsed = time.monotonic() - started
        if games >= len(counts) and cap is not None and elapsed >= cap:
            break  # every count played once, and the time is up
        if games >= minimum:
            # Covered, and each game mode beside the plugin has shown what it does (its
            # events: a seat eliminated...), so its situations had their chance to come.
            if budget.until_covered and (not target or (coverage.covered(target) and coverage.settled())):
                break
            if games >= budget.max_games:
                break
        players, style, policy = game_plan(index, counts)
        # Every third game (every game once nothing else is left to cover), while a card
        # of the plugin has not been anybody's last card, the one tried least is dealt and
        # kept for last at the smallest table (a wild spent at once never ends a round).
        unfinished: frozenset[str] = frozenset()
        if index >= len(counts) and (index % 3 == 2 or (target and _only_cards_left(coverage, target))):
            kinds = sorted(d.name for d, _ in coverage.card_failures())
            if kinds:
                kind = min(kinds, key=lambda k: (kept_for_last[k], k))
                kept_for_last[kind] += 1
                unfinished = frozenset({kind})
                players = counts[0]
                style, policy = "in-hands", "last"
        seed = budget.seed * 100_000 + index
        rng = random.Random(f"{combo.label}:{budget.seed}:{index}")
        options = {} if index == 0 else _steered_options(combo, coverage, rng, vary_others=index % 2 == 1)
        rules, options = _build(combo, options, rng) if options else (ruleset, options)
        # A card kept for last, or still to be played where a game mode changed the table.
        needed = unfinished or coverage.unsituated_kinds(target)
        for _ in range(8 if needed else 0):
            if any(card.kind in needed for card in rules.deck):
                break  # the deck deals one (a card an option puts in the deck needs that option)
            rules, options = _build(combo, _option_variant(combo, rng), rng)
        coverage.add_ruleset(rules)
        others_kinds = frozenset(k for p in rules.plugins if p in others for k in card_kinds(p, rules))
        dealt = unfinished or coverage.focus_kinds
        starters = sorted(dealt, key=lambda k: (coverage.starters[k], _plainness(k), rng.random()))
        deck, dealer = arranged_deal(rules, players, rng, style, dealt, others_kinds, starters)
        if deck is not None and style == "starter":
            coverage.starters[deck[players * rules.hand_size].kind] += 1
        start = Replay(rules, players, seed, deck=deck, dealer=dealer)
        check = _GameCheck(budget.deep_every, seen=seen, coverage=coverage)

        explorer = Explorer(coverage, rng, policy, eager=budget.eager, check=_look, keep=unfinished or None)
        length = budget.max_actions * (2 if unfinished else 1)  # a round to its end, on the card kept
        probe = _LastCardProbe(coverage, probed)
        replay, failure = _play(
            start, _chooser(explorer), length, check, monitor, _observer(coverage, options, probe)
        )
        games += 1
        index += 1
        played += len(replay.actions)
        if failure is None and probe.found is not None:
            position, tried, exc = probe.found
            violation = Violation(
                rules,
                players,
                _kind_of(exc),
                _describe(exc),
                f"{probe.how}; in game {index} ({style} deal, {policy} play), seed {seed}",
                position=_position_text(position, tried),
            )
            violations.append(violation)
            if out is not None:
                out(violation.format())
            break
        if failure is not None:
            found_by = f"game {index} ({style} deal, {policy} play), seed {seed}"
            replay, failure, note = _shrink(
                replay, failure, budget.shrink_steps, seconds=budget.shrink_seconds, monitor=monitor
            )
            violation = Violation(
                replay.ruleset, players, _kind_of(failure), _describe(failure), found_by, replay, note=note
            )
            violations.append(violation)
            if out is not None:
                out(violation.format())
            break  # one shrunk replay per combination is enough to show it is broken
    if scenarios and not violations:
        violations += scenario_violations(focus, ruleset)
        for violation in violations:
            if out is not None:
                out(violation.format())
    if to_the_end and not violations:
        for declaration, reason in coverage.card_failures():
            violation = Violation(
                ruleset,
                None,
                "to-the-end",
                f"card {declaration.name} of {declaration.owner}: {reason}; a card the plugin deals must "
                "be playable, and playable as a last card (the explorer keeps it for last)",
                f"coverage of {coverage.games} games, {coverage.actions} actions",
            )
            violations.append(violation)
            if out is not None:
                out(violation.format())
            break
    machine_runs = 0
    examples = budget.machine_examples
    if machine and examples != 0 and not violations:
        found = _run_machine(ruleset, counts, budget, focus)
        machine_runs = 1
        if found is not None:
            violations.append(found)
            if out is not None:
                out(found.format())
    seconds = time.monotonic() - started
    summary = (
        f"{combo.label}: players {', '.join(map(str, counts)) or 'none'}; "
        f"{games} game{'s' * (games != 1)}, {played} actions"
        + (", state machine" if machine_runs else "")
        + f"; {coverage.summary(target)}"
        + ("; never seen: " + ", ".join(coverage.unshown()) if coverage.unshown() else "")
    )
    if out is not None:
        out(("ok   " if not violations else "FAIL ") + summary + f" ({seconds:.1f} s)")
    return CombinationResult(combo.label, summary, tuple(violations), coverage, target, seconds)


def scenario_violations(plugin: Any, ruleset: Ruleset) -> list[Violation]:
    """The scenarios ``plugin`` declares (:attr:`TestHints.scenarios
    <unorules.TestHints.scenarios>`) run under ``ruleset``
    (:func:`~unorules.testing.scenario.run_scenarios`): a violation
    (``scenario``) for each that fails or crashes; those whose position
    cannot be arranged there are left out."""
    found: list[Violation] = []
    for name, outcome, detail in run_scenarios(plugin, ruleset):
        if outcome in ("failed", "crashed"):
            found.append(
                Violation(
                    ruleset,
                    None,
                    "scenario",
                    f"the plugin's scenario {name} {outcome}: {detail}",
                    f"scenario {name}",
                )
            )
    return found


def scenarios_elsewhere(
    plugin: str | Any, checked: Sequence[Combination], others: Sequence[str] | None = None
) -> tuple[list[str], list[Violation]]:
    """The plugin's scenarios next to each other installed plugin it combines
    with (or ``others``), in the combinations not among ``checked`` (a budget
    that plays no pairs still runs the scenarios beside every plugin): the
    labels of the combinations run, and one violation for each scenario that
    passes with the plugin alone (the first of ``checked``) but not beside
    some other plugin, naming them all."""
    _, obj = resolve_plugin(plugin)
    if not getattr(getattr(obj, "testing", None), "scenarios", ()):
        return [], []
    alone = checked[0].build() if checked else None
    failing_alone = (
        set() if alone is None else {n for n, o, _ in run_scenarios(obj, alone) if o in ("failed", "crashed")}
    )
    combos, _ = conformance_combinations(plugin, pairs=True, together=False, others=others)
    done = {c.label for c in checked}
    labels: list[str] = []
    failures: dict[str, list[tuple[Ruleset, str, str]]] = {}
    for combo in combos:
        if combo.label in done:
            continue
        labels.append(combo.label)
        rules = combo.build()
        for name, outcome, detail in run_scenarios(obj, rules):
            if outcome in ("failed", "crashed") and name not in failing_alone:
                failures.setdefault(name, []).append((rules, outcome, detail))
    found: list[Violation] = []
    for name, where in failures.items():
        rules, outcome, detail = where[0]
        beside = ", ".join(ruleset_line(r) for r, _, _ in where)
        found.append(
            Violation(
                rules,
                None,
                "scenario",
                f"the plugin's scenario {name} passes with the plugin alone but {outcome} beside another "
                f"plugin ({len(where)} rule set{'s' * (len(where) != 1)}: {beside}): {detail}",
                f"scenario {name}",
            )
        )
    return labels, found


def _run_machine(
    ruleset: Ruleset, counts: Sequence[int], budget: Budget, focus: Any = None
) -> Violation | None:
    from hypothesis import HealthCheck, settings
    from hypothesis.reporting import with_reporter
    from hypothesis.stateful import run_state_machine_as_test

    from unorules.testing.machine import machine_for

    if not counts:
        return None
    machine = machine_for(ruleset, players=tuple(counts), focus=focus)
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
    others: Sequence[str] | None = None,
    fail_fast: bool = False,
    seconds: float | None = None,
) -> ConformanceReport:
    """Check every invariant over ``plugin`` (an installed name or a plugin
    object) alone with classic and combined with the other installed plugins
    (or with ``others`` only); see the module docstring. ``budget`` is a
    :class:`Budget` or its name (``"default"``, ``"ci"``, ``"quick"``:
    :data:`BUDGETS`); ``seconds`` instead spends about that many seconds in
    all (:func:`seconds_budget`). ``out`` receives progress lines and each
    violation (with its replay) as soon as it is found. With ``fail_fast``
    the run stops at the first violation."""
    budget = resolve_budget(budget)
    require_hypothesis()
    name, obj = resolve_plugin(plugin)
    combos, skipped = conformance_combinations(
        plugin, pairs=budget.pairs, together=budget.together, others=others, modes=budget.modes
    )
    if seconds is not None:
        budget = attrs.evolve(seconds_budget(seconds, len(combos), strict=budget.strict), seed=budget.seed)
    report = ConformanceReport(name, strict=budget.strict)
    report.skipped.extend(skipped)
    if out is not None:
        for label, reason in skipped:
            out(f"skip {label}: {reason}")
    # The plugin's scenarios first, everywhere (they take milliseconds): with the
    # plugin alone, then beside each other plugin it combines with.
    if combos and bool(getattr(getattr(obj, "testing", None), "scenarios", ())):
        found = scenario_violations(obj, combos[0].build())
        labels, elsewhere = scenarios_elsewhere(obj, combos[:1], others)
        found += elsewhere
        report.checked.append(f"the plugin's scenarios alone and beside {len(labels)} other plugins")
        report.violations.extend(found)
        if out is not None:
            for violation in found:
                out(violation.format())
        if fail_fast and found:
            return report
    for i, combo in enumerate(combos):
        machine = i == 0 or budget.machine_on_pairs
        result = run_combination(
            combo, budget, machine=machine, out=out, plugin=obj, first=i == 0, scenarios=False
        )
        report.checked.append(result.summary)
        report.results.append(result)
        report.violations.extend(result.violations)
        if fail_fast and result.violations:
            break
    return report


def check_conformance(
    plugin: str | Any, budget: Budget | str = DEFAULT_BUDGET, *, others: Sequence[str] | None = None
) -> ConformanceReport:
    """:func:`run_conformance`, raising ``AssertionError`` with the whole report
    (replays included) when an invariant fails (or, under a strict budget, a
    declaration is left uncovered); returns the report otherwise. ``budget``
    is a :class:`Budget` or its name, e.g. ``check_conformance(name,
    budget="quick")``."""
    report = run_conformance(plugin, budget, others=others)
    if not report.ok:
        raise AssertionError(report.format())
    return report

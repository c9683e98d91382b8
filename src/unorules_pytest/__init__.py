"""pytest plugin for unorules (registered under ``pytest11`` as ``unorules``).

It is loaded by every pytest run in an environment where unorules is
installed, so it is a top-level module of its own that imports nothing but
pytest: the unorules core, its testing toolkit and hypothesis are imported
only when a fixture or the option below is used.

Fixtures
    ``unorules_ruleset``: the rule set named by the closest
    ``@pytest.mark.unorules_rules(names, options=None, plugins=())`` marker
    (default: ``classic``), or by ``request.param`` when parametrized
    indirectly.

    ``arranged_game``: a function dealing a game of that rule set from an
    arranged deck: ``arranged_game(["R1 R2 ...", "G1 G2 ..."], "B5",
    draw="Y9", dealer=0)`` gives the state with those hands (seat 0 first),
    that starter and those cards next to draw.

Command line
    ``pytest --unorules-conformance NAME`` (repeatable) runs the conformance
    suite (:mod:`unorules.testing.conformance`) against the installed plugin
    ``NAME`` *instead of* the collected tests: one test item per combination
    of plugins, skipped items for combinations refused when built, and a
    failure with the shrunk replay for each violation, so pytest exits non-zero
    when an invariant fails. The session ends with the coverage report of each
    plugin's declarations; a declaration not covered is a warning
    (``UncoveredWarning``), or a failure with ``--unorules-strict``.

    ``--unorules-budget ci`` uses the bounded budget CI uses;
    ``--unorules-budget quick`` checks the plugin with classic and beside each
    game mode (its scenarios beside every plugin);
    ``--unorules-seconds N`` spends about N seconds on each plugin instead;
    ``--unorules-with OTHER`` (repeatable) combines the plugin with these
    installed plugins only; ``--unorules-seed N`` plays other games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from unorules.ruleset import Ruleset
    from unorules.state import GameState
    from unorules.testing.conformance import Budget, Combination, CombinationResult

_OPTION = "--unorules-conformance"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--unorules-conformance NAME`` and the options of the conformance run."""
    group = parser.getgroup("unorules", "unorules plugin conformance")
    group.addoption(
        _OPTION,
        action="append",
        default=[],
        metavar="NAME",
        dest="unorules_conformance",
        help="run the unorules conformance suite against the installed plugin NAME "
        "(instead of the collected tests); may be given more than once",
    )
    group.addoption(
        "--unorules-budget",
        choices=("default", "ci", "quick"),
        default="default",
        dest="unorules_budget",
        help="how much the conformance suite plays: 'default'; 'ci' (bounded, seconds a combination); "
        "'quick' (the plugin with classic, then beside each game mode)",
    )
    group.addoption(
        "--unorules-seconds",
        type=float,
        default=None,
        metavar="N",
        dest="unorules_seconds",
        help="spend about N seconds on each plugin instead of a named budget",
    )
    group.addoption(
        "--unorules-with",
        action="append",
        default=None,
        metavar="OTHER",
        dest="unorules_with",
        help="combine the plugin with these installed plugins only (may be given more than once)",
    )
    group.addoption(
        "--unorules-strict",
        action="store_true",
        default=False,
        dest="unorules_strict",
        help="fail a combination that leaves a declaration of the plugin under its coverage target",
    )
    group.addoption(
        "--unorules-seed",
        type=int,
        default=0,
        metavar="N",
        dest="unorules_seed",
        help="the seed of the conformance games (default 0)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker; with ``--unorules-conformance``, set up the run."""
    config.addinivalue_line(
        "markers",
        "unorules_rules(names, options=None, plugins=()): the rule set the unorules_ruleset "
        "and arranged_game fixtures build",
    )
    names: list[str] = config.getoption("unorules_conformance", default=[]) or []
    if names:
        config.pluginmanager.register(
            _ConformanceRun(
                names,
                config.getoption("unorules_budget"),
                seconds=config.getoption("unorules_seconds"),
                others=config.getoption("unorules_with"),
                strict=config.getoption("unorules_strict"),
                seed=config.getoption("unorules_seed"),
            ),
            "unorules-run",
        )


class UncoveredWarning(UserWarning):
    """A declaration of the plugin under test was not covered to its target in
    a combination (a failure with ``--unorules-strict``)."""


class _ConformanceRun:
    """Replaces the session's tests with the conformance items of the named
    plugins, and reports their coverage at the end of the session."""

    def __init__(
        self,
        names: Iterable[str],
        budget: str,
        *,
        seconds: float | None = None,
        others: list[str] | None = None,
        strict: bool = False,
        seed: int = 0,
    ) -> None:
        import attrs

        from unorules.errors import RulesetError
        from unorules.testing.conformance import require_hypothesis, resolve_budget, resolve_plugin

        try:
            require_hypothesis()
        except ModuleNotFoundError as exc:
            raise pytest.UsageError(f"{_OPTION}: {exc}") from None
        if seconds is not None and seconds <= 0:
            raise pytest.UsageError(f"--unorules-seconds: a positive number of seconds, not {seconds:g}")
        self.plugins: list[tuple[str, Any]] = []
        for name in names:
            try:
                self.plugins.append(resolve_plugin(name))
            except RulesetError as exc:
                raise pytest.UsageError(f"{_OPTION} {name}: {exc}") from None
        self.budget = attrs.evolve(resolve_budget(budget), strict=strict, seed=seed)
        self.seconds = seconds
        self.others = others
        self.items: list[ConformanceItem] = []

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session: pytest.Session) -> bool:
        """Collect the conformance items instead of the test files, reporting
        them as collected (so pytest's header counts them)."""
        hook = session.config.hook
        items = self._items(session)
        result: list[pytest.Item | pytest.Collector] = list(items)
        hook.pytest_collectreport(report=pytest.CollectReport(session.nodeid, "passed", None, result))
        session.items = items
        hook.pytest_collection_modifyitems(session=session, config=session.config, items=items)
        session.testscollected = len(items)
        hook.pytest_collection_finish(session=session)
        return True

    def _items(self, session: pytest.Session) -> list[pytest.Item]:
        import attrs

        from unorules.errors import RulesetError
        from unorules.testing.conformance import conformance_combinations, seconds_budget

        made: list[pytest.Item] = []
        for name, plugin in self.plugins:
            try:
                combos, skipped = conformance_combinations(
                    plugin,
                    pairs=self.budget.pairs,
                    together=self.budget.together,
                    others=self.others,
                    modes=self.budget.modes,
                )
            except RulesetError as exc:
                raise pytest.UsageError(f"--unorules-with: {exc}") from None
            budget = self.budget
            if self.seconds is not None:
                timed = seconds_budget(self.seconds, len(combos), strict=budget.strict)
                budget = attrs.evolve(timed, seed=budget.seed)
            for i, combo in enumerate(combos):
                item = ConformanceItem.from_parent(
                    session,
                    name=f"conformance[{name}][{combo.label}]",
                    combo=combo,
                    budget=budget,
                    machine=i == 0 or budget.machine_on_pairs,
                    plugin=plugin,
                    first=i == 0,
                )
                self.items.append(item)
                made.append(item)
            if not budget.pairs and bool(getattr(getattr(plugin, "testing", None), "scenarios", ())):
                made.append(
                    ScenariosItem.from_parent(
                        session,
                        name=f"conformance[{name}][scenarios beside the other plugins]",
                        plugin=plugin,
                        combos=combos,
                        others=self.others,
                    )
                )
            for label, reason in skipped:
                made.append(
                    SkippedCombination.from_parent(
                        session, name=f"conformance[{name}][{label}]", reason=reason
                    )
                )
        return made

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The coverage of each plugin's declarations: the first combination's
        in full, a line for each other one, and what was left uncovered."""
        ran = [item for item in self.items if item.result is not None]
        if not ran:
            return
        terminalreporter.section("unorules coverage")
        for item in ran:
            result = item.result
            assert result is not None
            if item.first:
                terminalreporter.write_line(
                    f"{item.plugin_name}: coverage with {result.label} (target {result.target}):"
                )
                for line in result.coverage.lines(result.target):
                    terminalreporter.write_line("  " + line)
            else:
                terminalreporter.write_line(
                    f"{item.plugin_name}: with {result.label}: {result.coverage.summary(result.target)}"
                )
        uncovered = [item for item in ran if item.result is not None and item.result.uncovered]
        covered = len(ran) - len(uncovered)
        word = "FAILED" if self.budget.strict and uncovered else "covered"
        terminalreporter.write_line(
            f"unorules coverage {word}: every declaration covered to target in {covered} of {len(ran)} "
            f"combination{'s' * (len(ran) != 1)}"
            + (f"; not in {', '.join(i.result.label for i in uncovered if i.result)}" if uncovered else "")
        )


class ConformanceFailure(AssertionError):
    """The violations one combination of plugins showed, with their replays."""


class ConformanceItem(pytest.Item):
    """One combination of plugins checked by the conformance runner."""

    def __init__(
        self,
        *,
        combo: Combination,
        budget: Budget,
        machine: bool,
        plugin: Any = None,
        first: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.combo = combo
        self.budget = budget
        self.machine = machine
        self.plugin = plugin
        self.first = first
        self.result: CombinationResult | None = None

    @property
    def plugin_name(self) -> str:
        """The name of the plugin under test."""
        return str(getattr(self.plugin, "name", self.combo.label))

    def runtest(self) -> None:
        import warnings

        from unorules.testing.conformance import run_combination

        result = run_combination(
            self.combo, self.budget, machine=self.machine, plugin=self.plugin, first=self.first
        )
        self.result = result
        if result.violations:
            raise ConformanceFailure("\n\n".join(v.format() for v in result.violations))
        if result.uncovered:
            text = (
                f"{self.plugin_name}: with {result.label}, not covered {result.target} time(s): "
                + ", ".join(result.uncovered)
            )
            if self.budget.strict:
                raise ConformanceFailure(text + "\n\n" + result.coverage.format(result.target))
            warnings.warn(UncoveredWarning(text), stacklevel=1)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ConformanceFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.name


class ScenariosItem(pytest.Item):
    """The plugin's scenarios beside each other plugin, for a budget that plays no pairs."""

    def __init__(
        self, *, plugin: Any, combos: list[Combination], others: list[str] | None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.plugin = plugin
        self.combos = combos
        self.others = others

    def runtest(self) -> None:
        from unorules.testing.conformance import scenarios_elsewhere

        _, violations = scenarios_elsewhere(self.plugin, self.combos, self.others)
        if violations:
            raise ConformanceFailure("\n\n".join(v.format() for v in violations))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ConformanceFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.name


class SkippedCombination(pytest.Item):
    """A combination refused when its rule set is built: reported as skipped, with the reason."""

    def __init__(self, *, reason: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reason = reason

    def runtest(self) -> None:
        pytest.skip(f"does not build: {self.reason}")

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.name


@pytest.fixture
def unorules_ruleset(request: pytest.FixtureRequest) -> Ruleset:
    """The rule set of the closest ``unorules_rules`` marker (default ``classic``)."""
    from unorules.ruleset import Ruleset

    param = getattr(request, "param", None)
    if isinstance(param, Ruleset):
        return param
    marker = request.node.get_closest_marker("unorules_rules")
    names: Any = ["classic"]
    options = None
    plugins: Iterable[Any] = ()
    if param is not None:
        names = param
    elif marker is not None:
        if marker.args:
            names = marker.args[0]
        options = marker.kwargs.get("options")
        plugins = marker.kwargs.get("plugins", ())
    return Ruleset.from_names(names, options=options, plugins=plugins)


@pytest.fixture
def arranged_game(unorules_ruleset: Ruleset) -> Callable[..., GameState]:
    """A function dealing a game of ``unorules_ruleset`` from an arranged deck.

    ``arranged_game(hands, starter, draw=(), dealer=0, seed=0)``: ``hands`` are
    the seats' hands in seat order (one card notation string or list each),
    ``starter`` the first card of the discard pile, ``draw`` the cards to be
    drawn first; the rest of the deck follows in ``seed``'s order.
    """
    from unorules.testing import arrange_deck

    def deal(hands: Any, starter: Any, draw: Any = (), *, dealer: int = 0, seed: int | str = 0) -> GameState:
        hands = list(hands)
        deck = arrange_deck(hands, starter, draw, dealer=dealer, hand_size=unorules_ruleset.hand_size)
        return unorules_ruleset.new_game(players=len(hands), seed=seed, deck=deck, dealer=dealer)

    return deal

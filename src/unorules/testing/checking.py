"""Checking a game as it is played, and shrinking a game that fails: the
machinery of the conformance runner (:mod:`unorules.testing.conformance`).

:class:`_GameCheck` runs the cheap invariants after every action, the step
invariants on every step and the deep ones every few actions and on what is
new; :func:`_play` plays a game with it. :func:`_shrink` replays a violation
as choices among the legal actions and makes its rule set, its options and
its choices smaller while the same invariant still fails. Nothing here is
public: the runner's names are those of :mod:`unorules.testing.conformance`.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from unorules.actions import Action
from unorules.errors import RulesetError
from unorules.ruleset import Ruleset, installed_plugins
from unorules.state import GameState
from unorules.testing.coverage import Coverage
from unorules.testing.invariants import (
    STATE_INVARIANTS,
    InvariantViolation,
    RoundMonitor,
    check_cards,
    check_events,
    check_hands,
    check_left,
    check_legal_actions,
    check_replay,
    check_scores,
    check_state,
    check_step,
    check_turn,
    check_uno,
)
from unorules.testing.replay import Replay
from unorules.testing.violations import _snapshot

# -- checking a game -----------------------------------------------------------------------------


Check = Callable[[GameState], None]


def _cheap(state: GameState) -> None:
    check_cards(state)
    check_turn(state)
    check_hands(state)
    check_legal_actions(state)
    check_events(state)
    check_uno(state)
    check_scores(state)
    check_left(state)


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


_DEEP_KINDS = frozenset({"accepted", "pure", "refused", "json", "pickle", "view"})


_STEP_KINDS = frozenset({"uno", "scores", "left", "hidden", "pure", "replay", "effect", "hands"})


class _GameCheck:
    """The checks of one game: the cheap and step invariants after every
    action; the deep ones every ``deep_every`` actions and when the state
    shows a phase, extra, event kind, count of seats left, or the seat to
    move able to go out on a card of the plugin, that has been
    deep-checked fewer than twice (``seen`` is shared by a combination's
    games). With ``kind`` (shrinking), only the checks that can find that
    kind of violation, after every action."""

    def __init__(
        self,
        deep_every: int,
        *,
        kind: str | None = None,
        seen: Counter[tuple[str, Any]] | None = None,
        coverage: Coverage | None = None,
    ) -> None:
        self.deep_every = max(1, deep_every)
        self.kind = kind
        self.seen: Counter[tuple[str, Any]] = Counter() if seen is None else seen
        self.coverage = coverage
        self.deep = 0
        self.shown: set[tuple[int, int]] = set()
        """The hands show events showed this round, ``(seat, other)`` (see ``check_shown_hands``)."""

    def _keys(self, state: GameState) -> list[tuple[str, Any]]:
        keys: list[tuple[str, Any]] = [("phase", state.phase.name), ("left", len(state.left))]
        keys += [("extra", key) for key, _ in state.extras]
        keys += [("event", event.kind) for event in state.events]
        coverage = self.coverage
        if coverage is not None and not state.is_over:
            # About to go out on the plugin's card: a state met once in many games.
            hand = state.hands[state.current_player]
            last = hand[0] if len(hand) == 1 else None
            playable = last is not None and any(a.card == last for a in state.legal_actions())
            if last is not None and playable and last.kind in coverage.focus_kinds:
                keys.append(("going out on", last.kind))
        return keys

    def _deep(self, state: GameState, before: GameState | None = None) -> None:
        self.deep += 1
        self.seen.update(self._keys(state))
        check_state(state, deep=True, before=before)
        if self.coverage is not None:
            self.coverage.deep_checked(state)

    def deal(self, state: GameState) -> None:
        if self.kind is None:
            self._deep(state)
        else:
            self.single(state)

    def single(self, state: GameState) -> None:
        """The state check for ``kind`` alone."""
        kind = self.kind
        if kind == "pure":
            STATE_INVARIANTS["accepted"](state)
        elif kind in STATE_INVARIANTS:
            STATE_INVARIANTS[kind](state)

    def step(
        self, before: GameState, action: Action, after: GameState, snapshot: tuple[Any, ...], index: int
    ) -> None:
        kind = self.kind
        if kind is not None:
            if kind in _STEP_KINDS:
                check_step(before, action, after, snapshot=snapshot, again=kind == "replay", shown=self.shown)
            self.single(after)
            return
        check_step(before, action, after, snapshot=snapshot, again=True, shown=self.shown)
        if index % self.deep_every == 0 or any(self.seen[key] < 2 for key in self._keys(after)):
            self._deep(after, before)
        else:
            check_state(after, deep=False, before=before)

    @property
    def whole_game(self) -> bool:
        """Whether the game's replay is checked at its end (the ``replay`` invariant)."""
        return self.kind in (None, "replay")


Chooser = Callable[[GameState, int], Action]


def _play(
    start: Replay,
    choose: Chooser,
    steps: int,
    check: _GameCheck,
    monitor: Callable[[Ruleset, int], RoundMonitor],
    observe: Callable[[GameState, Action | None, GameState], None] | None = None,
) -> tuple[Replay, BaseException | None]:
    """Play ``steps`` actions from ``start``'s deal, ``choose(state, step)``
    giving each, checking every state; stop at the first failure. Returns the
    replay of the actions played and the failure (``None``: none)."""
    actions: list[Action] = []
    try:
        state = start.start()
        rounds = monitor(start.ruleset, start.players)
        rounds.observe(state)
        if observe is not None:
            observe(state, None, state)
        check.deal(state)
        for step in range(1, steps + 1):
            if state.is_over:
                break
            if not state.legal_actions():
                raise InvariantViolation(
                    "legal",
                    f'after "{state.last_action}", no action is legal but the game is not over '
                    f"(seat {state.current_player} in the {state.phase.name!r} phase)",
                )
            action = choose(state, step)
            actions.append(action)
            snapshot = _snapshot(state)
            try:
                after = state.apply(action)
            except Exception as exc:
                raise InvariantViolation(
                    "accepted", f"{action} is legal but apply raised {type(exc).__name__}: {exc}"
                ) from exc
            rounds.observe(after)
            check.step(state, action, after, snapshot, step)
            if observe is not None:
                observe(state, action, after)
            state = after
        replay = attrs.evolve(start, actions=tuple(actions))
        if check.whole_game:
            check_replay(replay, state)
    except Exception as exc:
        return attrs.evolve(start, actions=tuple(actions)), exc
    return replay, None


def _monitor_factory(round_actions: int | None) -> Callable[[Ruleset, int], RoundMonitor]:
    """Round monitors whose bound is ``round_actions`` per seat (``None``: the
    rule set's :func:`~unorules.testing.invariants.round_bound`)."""

    def make(ruleset: Ruleset, players: int) -> RoundMonitor:
        if round_actions is None:
            return RoundMonitor(ruleset)
        return RoundMonitor(ruleset, bound=round_actions * players, probe_actions=2_000 + 400 * players)

    return make


# -- shrinking -----------------------------------------------------------------------------------


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


def _choices(replay: Replay) -> list[int] | None:
    """The replay's actions as indices among the legal actions, or ``None``
    when the game does not replay the same way (an action is not legal where
    it was taken: the plugin is not deterministic)."""
    choices: list[int] = []
    try:
        state = replay.start()
        for i, action in enumerate(replay.actions):
            legal = state.legal_actions()
            if action not in legal:
                return None
            choices.append(legal.index(action))
            if i < len(replay.actions) - 1:
                state = state.apply(action)
    except Exception:
        return None
    return choices


def _shrink(
    replay: Replay,
    exc: BaseException,
    steps: int,
    *,
    seconds: float | None = None,
    monitor: Callable[[Ruleset, int], RoundMonitor] | None = None,
) -> tuple[Replay, BaseException, str]:
    """A simpler replay failing the same way (the same invariant, or the same
    exception type): fewer plugins and options in the rule set, fewer actions,
    earlier choices among the legal actions. The actions are replayed as
    choices (the index of each among the legal actions, wrapped around), so
    every candidate is a game of legal actions; the deck and dealer stay.

    ``steps`` bounds the work: the shrinker stops trying candidates once it has
    replayed that many actions in all. It counts actions, so the same failure
    shrinks to the same replay on any machine; ``seconds`` caps it in time
    too. Returns the replay, its failure and a note (empty, or why the replay
    was not shrunk)."""
    kind = _kind_of(exc)
    tried = getattr(exc, "tried", None)
    if isinstance(tried, Action):
        # A deep check found it applying an action the game did not take: that
        # action becomes the game's last, so the replay shows it as a step.
        replay = replay.then(tried)
    if not replay.actions:
        return replay, exc, ""  # it failed at the deal: nothing to shrink
    choices = _choices(replay)
    if choices is None:
        return (
            replay,
            exc,
            "not shrunk: replaying the game's actions from its seed does not reach the same states "
            "(nondeterminism: randomness outside the game's generator, or state kept in a plugin object)",
        )
    make_monitor = monitor or _monitor_factory(None)
    deadline = None if seconds is None else time.monotonic() + seconds
    # The best so far: rule set, choices, replay, failure.
    best: tuple[Ruleset, list[int], Replay, BaseException] = (replay.ruleset, choices, replay, exc)
    spent = 0
    timed_out = False

    def left() -> bool:
        nonlocal timed_out
        if deadline is not None and time.monotonic() > deadline:
            timed_out = True
        return spent < steps and not timed_out

    def size(rules: Ruleset, candidate: list[int]) -> tuple[int, int, int, list[int]]:
        return (len(rules.plugins), len(rules.spec()["options"]), len(candidate), candidate)

    def attempt(candidate: list[int], rules: Ruleset | None = None) -> bool:
        nonlocal best, spent
        if not left():
            return False
        spent += len(candidate)
        rules = best[0] if rules is None else rules

        def choose(state: GameState, i: int) -> Action:
            legal = state.legal_actions()
            return legal[candidate[i - 1] % len(legal)]

        start = attrs.evolve(replay, ruleset=rules, actions=())
        got, failure = _play(start, choose, len(candidate), _GameCheck(1, kind=kind), make_monitor)
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
    if timed_out:
        note = f"shrinking stopped at its time cap of {seconds:g} s"
    elif spent >= steps:
        note = f"shrinking stopped at its cap of {steps:,} replayed actions"
    else:
        note = ""
    return best[2], best[3], note

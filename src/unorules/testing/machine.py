"""A hypothesis state machine that plays any rule set and checks the invariants.

Subclass :class:`RulesetStateMachine`, name the rule set, and let pytest
collect its ``TestCase``::

    from unorules.testing.machine import RulesetStateMachine

    class StackingGame(RulesetStateMachine):
        ruleset = ["classic", "stacking"]
        players = (2, 3, 6)

    TestStackingGame = StackingGame.TestCase

or build the class with :func:`machine_for`. The machine deals a game (a seed,
maybe an arranged deck), then takes steps: a legal action, an arbitrary action
(refused unless legal), a look at a seat's view, or a whole round played out by
seeded random play. After every step it checks every invariant of
:mod:`unorules.testing.invariants`. Subclasses add their own ``@rule`` and
``@invariant`` methods, reading the game from ``self.game`` and acting through
:meth:`RulesetStateMachine.do` (which records the action in the replay).

When a run fails, hypothesis shrinks it and prints its steps followed by the
replay: the rule set line, the seed, the arranged deck and the actions in
action notation, as Python to paste into a test.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from hypothesis import note, target
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from unorules.actions import Action
from unorules.errors import IllegalActionError, RulesetError
from unorules.ruleset import Ruleset
from unorules.state import GameState
from unorules.testing.coverage import Coverage
from unorules.testing.explore import STYLES, arranged_deal
from unorules.testing.invariants import (
    InvariantViolation,
    RoundMonitor,
    check_cards,
    check_hands,
    check_json_round_trip,
    check_legal_actions,
    check_state,
    check_step,
    check_turn,
)
from unorules.testing.replay import Replay, choose_action
from unorules.testing.strategies import (
    _focus_plugins,
    _focused_order,
    actions,
    arranged_decks,
    build_ruleset,
    rulesets,
    supported_players,
)
from unorules.testing.violations import _snapshot

__all__ = ["RulesetStateMachine", "machine_for"]

_SEEDS = st.integers(0, 2**16)


def _has_game(machine: RulesetStateMachine) -> bool:
    return machine.game is not None


class RulesetStateMachine(RuleBasedStateMachine):
    """Plays one rule set by legal (and illegal) actions, checking every invariant.

    Class attributes to set in a subclass:

    * ``ruleset``: a :class:`~unorules.Ruleset`, plugin names (``["classic",
      "stacking"]`` or ``"classic,stacking"``), a hypothesis strategy of rule
      sets (such as :func:`~unorules.testing.strategies.rulesets`), or ``None``
      to draw any rule set of installed plugins;
    * ``options``: options for a rule set given by names;
    * ``players``: the player counts to draw from (default: every count from
      2 to 10 the rule set supports; a rule set that deals for none of them
      plays the smallest count it supports);
    * ``arranged``: sometimes deal from an arranged deck (default true);
    * ``deep``: check the costly invariants (``accepted``, ``refused``,
      ``json``, ``view``) after every step (default true);
    * ``eager``: how strongly :meth:`play_out_round` prefers playing a card to
      drawing (0 to 1; default 0.9, so rounds end in tens of actions);
    * ``require_rule``: refusals must cite a rule id (default false);
    * ``repeat_limit``: how often one state may come up in a round before the
      round counts as stuck in a loop (default
      :data:`~unorules.testing.invariants.DEFAULT_REPEAT_LIMIT`);
    * ``play_out_limit``: the most actions :meth:`play_out_round` plays
      (default 2,000): a round still going on then is left to the next steps
      (the round monitor reports a round that can never end);
    * ``focus``: plugins (objects or installed names) to steer toward, as the
      strategies' ``focus`` does: deals in the explorer's styles, their
      plays and verbs drawn first, and ``hypothesis.target`` on how many of
      their declarations a run reached.
    """

    ruleset: ClassVar[Ruleset | Sequence[str] | str | st.SearchStrategy[Ruleset] | None] = None
    options: ClassVar[Mapping[str, Any] | None] = None
    players: ClassVar[Sequence[int] | None] = None
    arranged: ClassVar[bool] = True
    deep: ClassVar[bool] = True
    eager: ClassVar[float] = 0.9
    require_rule: ClassVar[bool] = False
    refusal_sample: ClassVar[int] = 4
    repeat_limit: ClassVar[int | None] = None
    play_out_limit: ClassVar[int] = 2_000
    focus: ClassVar[Any] = None

    def __init__(self) -> None:
        super().__init__()
        self.game: GameState | None = None
        """The game being played (``None`` until dealt)."""
        self._before: GameState | None = None  # the game before its last action
        self.monitor: RoundMonitor | None = None
        self._start: Replay | None = None
        self._actions: list[Action] = []
        self._shadow: GameState | None = None
        self.coverage: Coverage | None = None
        """The coverage of the ``focus`` plugins' declarations in this run (``None`` without ``focus``)."""

    # -- the rule set -------------------------------------------------------------------

    @classmethod
    def fixed_ruleset(cls) -> Ruleset | None:
        """The rule set named by the ``ruleset`` attribute (``None``: drawn per run)."""
        spec = cls.ruleset
        if spec is None or isinstance(spec, st.SearchStrategy):
            return None
        if isinstance(spec, Ruleset):
            return spec
        names = [n for n in re.split(r"[,\s]+", spec) if n] if isinstance(spec, str) else list(spec)
        built = build_ruleset(names, cls.options)
        if isinstance(built, str):
            raise RulesetError(f"{cls.__name__}.ruleset does not build: {built}")
        return built

    @property
    def replay(self) -> Replay | None:
        """The game so far: rule set, seed, arranged deck and actions."""
        if self._start is None:
            return None
        return Replay(
            self._start.ruleset,
            self._start.players,
            self._start.seed,
            actions=tuple(self._actions),
            deck=self._start.deck,
            dealer=self._start.dealer,
        )

    # -- acting ----------------------------------------------------------------------------

    def do(self, action: Action | str) -> GameState:
        """Apply a legal ``action`` to the game and record it in the replay.

        Also checks that the same action replayed from its notation on a
        second copy of the game gives an equal state (``replay``), and feeds
        the round monitor (``rounds``).
        """
        game = self.game
        assert game is not None
        assert self.monitor is not None
        assert self._shadow is not None
        if isinstance(action, str):
            action = Action.parse(action, default_seat=game.current_player)
        self._actions.append(action)
        snapshot = _snapshot(game)
        try:
            after = game.apply(action)
        except IllegalActionError:
            self._actions.pop()
            raise
        except Exception as exc:
            raise InvariantViolation(
                "accepted", f"{action} is legal but apply raised {type(exc).__name__}: {exc}"
            ) from exc
        self.game, self._before = after, game
        self.monitor.observe(after)
        check_step(game, action, after, snapshot=snapshot)
        if self.coverage is not None:
            self.coverage.observe(game, action, after)
        try:
            self._shadow = self._shadow.apply(str(action))
        except IllegalActionError as exc:
            raise InvariantViolation(
                "replay", f"{action} replayed from its notation on a copy of the game was refused: {exc}"
            ) from exc
        if self._shadow != after:
            raise InvariantViolation(
                "replay", f"after {action}, replaying the same seed and actions gave another state"
            )
        return after

    # -- rules -----------------------------------------------------------------------------------

    @initialize(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        """Deal a game: a rule set, a player count, a seed, maybe an arranged deck."""
        rules = self.fixed_ruleset()
        if rules is None:
            drawn = self.ruleset if isinstance(self.ruleset, st.SearchStrategy) else rulesets()
            rules = data.draw(drawn, label="ruleset")
        # A rule set for a set number of players (partners: four) plays that number.
        counts = supported_players(rules, self.players) or supported_players(rules)[:1]
        if not counts:
            raise RulesetError(f"{rules!r} can deal a game for no number of players")
        players = data.draw(st.sampled_from(counts), label="players")
        seed = data.draw(_SEEDS, label="seed")
        deck = None
        dealer = None
        if self.focus is not None:
            self.coverage = Coverage(_focus_plugins(self.focus, rules))
            self.coverage.add_ruleset(rules)
            style = data.draw(st.sampled_from(STYLES), label="deal style")
            deck, dealer = arranged_deal(
                rules, players, random.Random(seed), style, self.coverage.focus_kinds
            )
        elif self.arranged and data.draw(st.booleans(), label="arranged deck"):
            deck = data.draw(arranged_decks(rules, players), label="deck")
            dealer = data.draw(st.integers(0, players - 1), label="dealer")
        self._start = Replay(rules, players, seed, deck=deck, dealer=dealer)
        self._actions = []
        self.game, self._before = self._start.start(), None
        self._shadow = self._start.start()
        self.monitor = RoundMonitor(rules, repeat_limit=self.repeat_limit)
        self.monitor.observe(self.game)
        if self.coverage is not None:
            self.coverage.start_game(rules, {}, self.game)
        check_json_round_trip(self.game, rebuild_ruleset=True)

    # ``act`` and ``play_out_round`` do nothing once the game is over rather than
    # having a precondition: with every rule but one disabled, hypothesis would
    # spend its time retrying rule draws.

    @precondition(_has_game)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """Take one of the legal actions (of any seat)."""
        assert self.game is not None
        if not self.game.is_over:
            legal: Sequence[Action] = self.game.legal_actions()
            if self.coverage is not None:
                legal = _focused_order(legal, self.coverage)
            self.do(data.draw(st.sampled_from(legal), label="action"))

    @precondition(_has_game)
    @rule(data=st.data())
    def try_any_action(self, data: st.DataObject) -> None:
        """Try an arbitrary well-formed action: taken if legal, else it must be
        refused with ``IllegalActionError`` and leave the game unchanged."""
        game = self.game
        assert game is not None
        action = data.draw(actions(game), label="any action")
        if game.is_legal(action):
            self.do(action)
            return
        before = game.to_json()
        try:
            game.apply(action)
        except IllegalActionError:
            pass
        except Exception as exc:
            raise InvariantViolation(
                "refused", f"{action} is not legal but apply raised {type(exc).__name__}: {exc}"
            ) from exc
        else:
            raise InvariantViolation("refused", f"{action} is not in legal_actions() but apply accepted it")
        if game.to_json() != before:
            raise InvariantViolation("pure", f"refusing {action} changed the state")

    @precondition(_has_game)
    @rule(seed=_SEEDS)
    def play_out_round(self, seed: int) -> None:
        """Play the current round to its end by seeded random legal play (at
        most ``play_out_limit`` actions), checking the cheap invariants after
        every action."""
        game = self.game
        assert game is not None
        rng = random.Random(seed)
        rounds = len(game.rounds)
        for _ in range(self.play_out_limit):
            if game.is_over or len(game.rounds) != rounds:
                break
            game = self.do(choose_action(game, rng, self.eager))
            check_cards(game)
            check_turn(game)
            check_hands(game)
            check_legal_actions(game)

    @invariant()
    def invariants_hold(self) -> None:
        """Every single-state invariant holds for the game as it is now."""
        if self.game is not None:
            check_state(
                self.game,
                deep=self.deep,
                refusal_sample=self.refusal_sample,
                require_rule=self.require_rule,
                before=self._before,
            )

    def teardown(self) -> None:
        """Attach the replay to the run (printed only when the run fails); with
        ``focus``, tell hypothesis how many of the plugins' declarations it reached."""
        if self.coverage is not None:
            reached = sum(1 for d, t in self.coverage.tallies.items() if d.category != "option" and t.reached)
            target(float(reached), label="unorules: declarations of the focus plugins reached")
        replay = self.replay
        if replay is not None:
            check = (
                "replay.check()"
                if self.repeat_limit is None
                else f"replay.check(repeat_limit={self.repeat_limit})"
            )
            note(f"unorules replay of this run (paste into a test; {check} re-checks it):")
            note(replay.format())


def machine_for(
    ruleset: Ruleset | Sequence[str] | str | st.SearchStrategy[Ruleset] | None,
    *,
    name: str | None = None,
    **attributes: Any,
) -> type[RulesetStateMachine]:
    """A :class:`RulesetStateMachine` subclass for ``ruleset`` with the given
    class ``attributes`` (``players=(2, 3)``, ``options={...}``, ...)."""
    if name is None:
        if isinstance(ruleset, Ruleset):
            names: Sequence[str] = ruleset.names
        elif isinstance(ruleset, str):
            names = [n for n in re.split(r"[,\s]+", ruleset) if n]
        elif ruleset is None or isinstance(ruleset, st.SearchStrategy):
            names = ["any"]
        else:
            names = list(ruleset)
        name = "".join(part.capitalize() for n in names for part in re.split(r"[^A-Za-z0-9]+", n)) + "Machine"
    return type(name, (RulesetStateMachine,), {"ruleset": ruleset, **attributes})

"""The invariants every rule set must keep, as functions that check any state.

Each ``check_*`` function raises :class:`InvariantViolation` (an
``AssertionError``) with a message saying what is wrong, so it works in a plain
``pytest`` test, in a hypothesis property and in the conformance runner
alike. The invariants (DEVELOPING.md, "Invariants every rule set must keep"):

=================  ==============================================================
name               what it checks
=================  ==============================================================
``cards``          hands + draw pile + discard pile (+ cards set aside) = the deck
``turn``           one seat to move: the current player is in the game and has an
                   action; other seats only have out-of-turn actions
``hands``          no seat still in the game holds an empty hand while the round
                   goes on, unless the phase's :class:`~unorules.PhaseSpec`
                   declares ``empty_hand=True`` (a seat that played its last card
                   has gone out: the round ends, R-OUT)
``legal``          legal actions are non-empty until the game is over (and empty
                   after), name seats in the game, are listed once, and their
                   notation parses back to the same action
``events``         every event is of a declared kind and fills only declared fields
``uno``            UNO calls and catch windows agree with the hands: a seat open
                   to a catch holds one card; a seat whose own action left it one
                   card without a call is open to a catch; a hand that changed
                   otherwise keeps no stale call or exposure (R-UNO-CALL,
                   R-UNO-CATCH)
``scores``         the scores are the sum of the rounds' points, rounds are
                   numbered from 1, and one action ends at most one round
``left``           a seat that has left holds no cards and draws none
``hidden``         no view and no public event shows a card the seats seeing it
                   may not know (another seat's hidden hand, the draw pile),
                   except an event whose kind declares ``reveals``; a seat is
                   shown another seat's hand (``visible_hands``) only after a
                   ``show`` event showed it that hand, or while a declared
                   open-hands rule is in force
``accepted``       every legal action is accepted by ``apply`` (and keeps
                   ``cards`` and ``uno``); ``is_legal`` agrees with the list
``refused``        a sample of other actions is refused with ``IllegalActionError``
                   and leaves the state unchanged
``pure``           ``apply`` never changes the state it is given
``json``           ``GameState.from_json(s.to_json()) == s``, and both play on alike
``pickle``         a pickled copy of the state (its extras included) is equal and
                   lists the same legal actions
``view``           each seat's view shows its own hand, every hand's size, its own
                   legal actions, and no other seat's private cards
``replay``         the same seed and actions give an equal state, and applying one
                   action twice to one state gives equal states (no randomness
                   outside the game's generator, no state kept in plugin objects)
``rounds``         every round ends: past its bound eager play can still end it, and
                   it does not go round a loop
``effect``         a play of a card with a declared :class:`~unorules.CardEffect`
                   did what the declaration says (the cards discarded with it,
                   the seats the turn passes by, the cards the next seat draws)
=================  ==============================================================

The single-state invariants are functions of a state (:func:`check_state`
runs them); ``uno``, ``scores``, ``left``, ``hidden``, ``hands`` (a round
won by going out is won by a seat holding no cards), ``effect``, ``pure`` and
``replay`` also look at each step, the state before an action and the state
after it (:func:`check_step`). A message names the action and says what
differs (the cards missing or added, the field that changed), never whole
piles: see :func:`describe_difference`.

The toolkit reads what the plugins declare, as the rule set gathers it:

* ``Plugin.testing`` (:class:`~unorules.TestHints`): ``max_round_actions``,
  the most actions a round of random play may take before the toolkit
  suspects it never ends (the largest bound declared applies if it is larger
  than the default, see :func:`round_bound`), and ``round_length_factor``,
  how many times longer than under classic alone its rounds may last (the
  factors multiply into :func:`round_bound`), and ``uno_exempt_when``, the
  options with which its rules exempt a seat left one card by its own card's
  effect from calling UNO, and ``uno_handed_when``, those with which a seat
  handed one card must call (both read by ``uno``);
* the ``set_aside_cards`` hook: cards a plugin keeps out of the hands and
  piles (counted by ``cards``);
* ``Plugin.verbs``: a verb some plugin declares for ``"any"`` seat may be
  used out of turn (``ruleset.out_of_turn_verbs``, a jump-in ``play``); the
  others only by the seat to move (``ruleset.turn_verbs``, added to
  :data:`TURN_VERBS`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from unorules import Action, TestHints
from unorules.errors import IllegalActionError
from unorules.ruleset import Ruleset
from unorules.state import GameState
from unorules.testing.play import choose_action
from unorules.testing.state_invariants import (
    check_apply_pure,
    check_cards,
    check_events,
    check_hands,
    check_illegal_actions_refused,
    check_json_round_trip,
    check_legal_actions,
    check_legal_actions_accepted,
    check_pickled_copy,
    check_turn,
    check_views,
)
from unorules.testing.step_invariants import (
    check_effect,
    check_hidden_cards,
    check_left,
    check_scores,
    check_shown_hands,
    check_step,
    check_uno,
)
from unorules.testing.violations import (
    CORE_VERBS,
    TURN_VERBS,
    InvariantViolation,
    _after,
    _cached,
    _diff,
    _fail,
    _json_of,
    _snapshot,
    describe_difference,
    set_aside_cards,
    turn_only_verbs,
)

__all__ = [
    "CORE_VERBS",
    "DEFAULT_MAX_ROUND_ACTIONS",
    "DEFAULT_REPEAT_LIMIT",
    "PROBE_ACTIONS",
    "ROUND_ACTIONS_PER_SEAT",
    "STATE_INVARIANTS",
    "TURN_VERBS",
    "InvariantViolation",
    "RoundMonitor",
    "check_apply_pure",
    "check_cards",
    "check_effect",
    "check_events",
    "check_hands",
    "check_hidden_cards",
    "check_illegal_actions_refused",
    "check_json_round_trip",
    "check_left",
    "check_legal_actions",
    "check_legal_actions_accepted",
    "check_pickled_copy",
    "check_replay",
    "check_replay_game",
    "check_round_ends",
    "check_scores",
    "check_shown_hands",
    "check_state",
    "check_step",
    "check_turn",
    "check_uno",
    "check_views",
    "describe_difference",
    "round_bound",
    "set_aside_cards",
    "turn_only_verbs",
]


ROUND_ACTIONS_PER_SEAT = 12_500
"""The default bound on the actions of one round, per seat: random classic
play, whose players call UNO, catch each other and draw instead of playing at
random, takes about a thousand actions per round at four seats and very rarely
more than 12,000; rounds grow with the number of seats (more hands to empty,
more out-of-turn actions to choose from at random)."""


DEFAULT_MAX_ROUND_ACTIONS = 4 * ROUND_ACTIONS_PER_SEAT
"""The bound on the actions of one round of classic alone at four seats."""


PROBE_ACTIONS = 20_000
"""How many actions :class:`RoundMonitor` lets eager play (a card played
whenever one may be) try to end a round that has passed its bound before it
calls the round endless."""


# -- how long a round may last -------------------------------------------------------------------


def round_bound(ruleset: Ruleset, players: int = 4) -> int:
    """The number of actions after which :class:`RoundMonitor` suspects that a
    round of ``ruleset`` with ``players`` seats never ends.

    :data:`ROUND_ACTIONS_PER_SEAT` for each seat, times the
    ``round_length_factor`` of each plugin (rule sets whose effects make
    players draw have longer rounds), or the largest ``max_round_actions`` a
    plugin declares if that is larger. Passing the bound is not yet a
    failure: see :class:`RoundMonitor`."""

    def compute(rules: Ruleset) -> tuple[float, int]:
        factor = 1.0
        hints = [getattr(p, "testing", TestHints()) for p in rules.plugins]
        for hint in hints:
            if hint.round_length_factor > 0:
                factor *= hint.round_length_factor
        bounds = [hint.max_round_actions for hint in hints]
        return factor, max((b for b in bounds if isinstance(b, int) and b > 0), default=0)

    factor, declared = _cached(ruleset, "round_bound", compute)
    return max(declared, int(ROUND_ACTIONS_PER_SEAT * max(players, 1) * factor))


# -- every single-state invariant ----------------------------------------------------------------


def check_state(
    state: GameState,
    *,
    deep: bool = True,
    refusal_sample: int = 8,
    require_rule: bool = False,
    rebuild_ruleset: bool = False,
    before: GameState | None = None,
) -> None:
    """Every single-state invariant: ``cards``, ``turn``, ``hands``, ``legal``,
    ``events``, ``uno``, ``scores``, ``left`` and ``hidden``; and with ``deep``
    also ``accepted``, ``pure``, ``refused``, ``json``, ``pickle`` and ``view``
    (these apply actions, so they cost about as much as a hundred moves).

    ``before``, the state the last action was applied to, lets ``hidden``
    accept a card the state still names after it left the discard pile (a
    plugin's public extra keeping the phase a card was played in, when a
    reshuffle then put that card in a hand): see :func:`check_hidden_cards`."""
    check_cards(state)
    check_turn(state)
    check_hands(state)
    check_legal_actions(state)
    check_events(state)
    check_uno(state)
    check_scores(state)
    check_left(state)
    check_hidden_cards(state, before, events=False)  # the events: check_step's part
    if deep:
        # One JSON text before and after all the deep checks is the ``pure``
        # check for all of them; each also checks that no field was replaced.
        text = _json_of(state)
        check_legal_actions_accepted(state, compare_json=False)
        check_illegal_actions_refused(state, refusal_sample, require_rule=require_rule)
        check_json_round_trip(state, rebuild_ruleset=rebuild_ruleset, text=text)
        check_pickled_copy(state)
        check_views(state)
        if state.to_json() != text:
            raise _fail("pure", f"{_after(state)}, applying or refusing actions changed the state's JSON")


STATE_INVARIANTS: dict[str, Callable[[GameState], None]] = {
    "cards": check_cards,
    "turn": check_turn,
    "hands": check_hands,
    "legal": check_legal_actions,
    "events": check_events,
    "uno": check_uno,
    "scores": check_scores,
    "left": check_left,
    "hidden": check_hidden_cards,
    "accepted": check_legal_actions_accepted,
    "pure": check_apply_pure,
    "refused": check_illegal_actions_refused,
    "json": check_json_round_trip,
    "pickle": check_pickled_copy,
    "view": check_views,
}
"""The single-state invariants by name, for running one kind alone."""


# -- invariants over a game ----------------------------------------------------------------------


def _key(state: GameState) -> tuple[Any, ...]:
    """Everything that decides how a state plays on (not its last action or events)."""
    return (
        state.hands,
        state.draw_pile,
        state.discard_pile,
        state.color,
        state.direction,
        state.current_player,
        state.phase,
        state.dealer,
        state.scores,
        state.uno_declared,
        state.uno_exposed,
        state.stalled,
        state.left,
        state.rng,
        state.extras,
    )


DEFAULT_REPEAT_LIMIT = 50
"""How often one state may come up within a round before :class:`RoundMonitor`
calls the round stuck in a loop."""


class RoundMonitor:
    """Watches a game state by state and fails when a round does not end.

    A round fails when one state comes up ``repeat_limit`` times within it:
    play keeps going round a loop. (A state coming back once is not a
    failure: the rules allow some loops that players leave by choice, such as
    two seats drawing back and playing the last loose card in turn; random
    play leaves those long before ``repeat_limit``, while a round that cannot
    end comes back again and again.)

    A round that lasts more than ``bound`` actions (default
    :func:`round_bound` for the rule set and the game's seats) is *probed*:
    from its current state, eager play (a card that may be played, played
    whenever there is one, before any play a house rule lets a seat try and
    take back; a generator seeded from the state) tries to end it within
    :data:`PROBE_ACTIONS` actions (or ``probe_actions``), on copies: the
    game watched is not touched. If the probe ends the round, the round is
    merely long (random play can take a very long way round) and the bound
    doubles; only a round that even eager play cannot end fails. So a legal long round is never
    reported, whatever its length, while a round that can never end is
    reported soon after the bound. Call :meth:`observe` with every state of a
    game, in order.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        bound: int | None = None,
        repeat_limit: int | None = None,
        probe_actions: int | None = None,
    ) -> None:
        self._ruleset = ruleset
        self.probe_actions = PROBE_ACTIONS if probe_actions is None else probe_actions
        self._fixed = bound
        self.bound = round_bound(ruleset) if bound is None else bound
        self.repeat_limit = DEFAULT_REPEAT_LIMIT if repeat_limit is None else repeat_limit
        self.probes = 0
        """How many times a round passed its bound and eager play showed it could still end."""
        self._round: tuple[int, bool] | None = None
        self._count = 0
        self._seen: dict[tuple[Any, ...], tuple[int, int, int]] = {}

    @property
    def actions_this_round(self) -> int:
        """Actions taken since the current round was dealt."""
        return self._count

    def observe(self, state: GameState) -> None:
        """Take the next state of the game; raise :class:`InvariantViolation` if
        its round keeps coming back to one state, or has passed its bound and
        cannot be ended even by eager play."""
        which = (len(state.rounds), state.is_over)
        if which != self._round:
            self._round = which
            self._count = 0
            self._seen = {} if state.is_over else {_key(state): (1, 0, 0)}
            self.bound = round_bound(self._ruleset, state.players) if self._fixed is None else self._fixed
            return
        if state.is_over:
            return
        self._count += 1
        count = self._count
        if count > self.bound:
            self._probe(state, count)
        key = _key(state)
        visits, first, last = self._seen.get(key, (0, count, count))
        visits += 1
        if visits >= self.repeat_limit:
            raise _fail(
                "rounds",
                f"{_after(state)} (action {count} of round {state.round_number}) the state has come up "
                f"{visits} times in the round, first after action {first}: play keeps going round a "
                f"loop of {count - last} actions, so the round may never end",
            )
        self._seen[key] = (visits, first, count)

    def _probe(self, state: GameState, count: int) -> None:
        """Fail unless eager play from ``state`` ends its round; else double the bound."""
        rng = random.Random(f"probe:{count}:{state.rng}")
        rounds = len(state.rounds)
        probe = state
        for _ in range(self.probe_actions):
            if probe.is_over or len(probe.rounds) != rounds:
                self.probes += 1
                self.bound = 2 * count
                return
            probe = probe.apply(_eager_action(probe, rng))
        if probe.is_over or len(probe.rounds) != rounds:
            self.probes += 1
            self.bound = 2 * count
            return
        raise _fail(
            "rounds",
            f"round {state.round_number} has lasted {count} actions, more than the bound of "
            f"{self.bound}, and playing a card whenever one may be did not end it in "
            f"{self.probe_actions} more actions either, so the round may never end (a plugin whose rounds "
            "are meant to last longer declares TestHints(round_length_factor=...) or max_round_actions)",
        )


def check_round_ends(
    state: GameState,
    seed: int | str = 0,
    *,
    eager: float = 0.0,
    bound: int | None = None,
    each: Callable[[GameState], None] | None = None,
) -> GameState:
    """Play on from ``state`` with seeded random legal actions until its round
    ends (or the game does); fail if it takes more than the bound or keeps
    coming back to one state (see :class:`RoundMonitor`). Returns the state
    where the round ended. ``each`` is called with every state on the way (to
    check other invariants)."""
    monitor = RoundMonitor(state.ruleset, bound)
    monitor.observe(state)
    rng = random.Random(seed)
    rounds = len(state.rounds)
    while not state.is_over and len(state.rounds) == rounds:
        state = state.apply(choose_action(state, rng, eager))
        monitor.observe(state)
        if each is not None:
            each(state)
    return state


def check_replay(replay: Any, state: GameState) -> None:
    """The same seed and actions give an equal state: ``replay`` (a
    :class:`~unorules.testing.Replay`) played again equals ``state``.

    Python's global ``random`` generator is seeded afresh for the replay (and
    put back afterwards), so a plugin that draws from it instead of the game's
    generator gives another game."""
    saved = random.getstate()
    random.seed(f"unorules replay check {len(replay.actions)}")
    try:
        again = replay.play()
    except IllegalActionError as exc:
        raise _fail("replay", f"replaying the game refused an action: {exc}") from None
    finally:
        random.setstate(saved)
    if again != state:
        raise _fail(
            "replay", f"replaying the same seed and actions gave another state: {_diff(state, again)}"
        )
    if again.to_json() != state.to_json():
        raise _fail("replay", "replaying the same seed and actions gave a state with other JSON")


def check_replay_game(replay: Any, *, deep: bool = True, repeat_limit: int | None = None) -> GameState:
    """Replay a game checking every invariant on every state; return the last.

    Runs :func:`check_state` on each state, a :class:`RoundMonitor` over the
    game, treats a legal action that ``apply`` refuses or crashes on as an
    ``accepted`` violation, and finally checks the ``replay`` invariant.
    Violations say after which action of the replay they happened.
    """
    state: GameState = replay.start()
    monitor = RoundMonitor(state.ruleset, repeat_limit=repeat_limit)
    monitor.observe(state)
    step = 0
    try:
        check_state(state, deep=deep, rebuild_ruleset=deep)
        for action in replay.actions:
            step += 1
            if not state.is_legal(action):
                listed = ", ".join(map(str, state.legal_actions()[:12]))
                raise _fail("replay", f"the replay's action {action} is not legal; legal: {listed}, ...")
            before, snapshot = state, _snapshot(state)
            try:
                state = state.apply(action)
            except Exception as exc:
                raise _fail("accepted", f"apply({action}) raised {type(exc).__name__}: {exc}") from exc
            monitor.observe(state)
            check_step(before, action, state, snapshot=snapshot, again=deep)
            check_state(state, deep=deep, before=before)
    except InvariantViolation as violation:
        raise violation.within(f"replay step {step}") from violation
    check_replay(replay, state)
    return state


def _eager_action(state: GameState, rng: random.Random) -> Action:
    """The probe's action: a play of a card that may be played (``Position.may_play``:
    it matches and no rule forbids it), at random, whenever there is one; otherwise
    :func:`choose_action`'s eager choice. A play a house rule lets a seat try and
    take back (turn-rules' misplay) keeps the card in hand, so it is left for last."""
    laying = [
        a
        for a in state.legal_actions()
        if a.verb == "play" and a.card is not None and state.may_play(a.seat, a.card)
    ]
    return rng.choice(laying) if laying else choose_action(state, rng, 1.0)

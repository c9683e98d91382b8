"""Every hook a unorules plugin can implement.

Hooks are called through each :class:`~unorules.Ruleset`'s own pluggy
``PluginManager``. Plugins are registered in canonical order (a plugin after
the plugins it ``requires``, independent plugins by name), and pluggy calls
the *last registered first*: a
house rule that requires ``classic`` therefore sees every hook before
``classic`` does and can override it by returning a result from a
``firstresult`` hook, or step aside by returning ``None``. ``tryfirst`` and
``trylast`` pin an implementation to either end; the classic plugin marks its
defaults ``trylast``.

Hooks fall into four groups: *building a rule set* (called once, when a
:class:`~unorules.Ruleset` is built), *dealing*, *taking actions* (called on
every action: keep them cheap) and *ending rounds and games*. A rule set
calls the hooks of play through callers it compiles once (not through
pluggy's dispatch) with pluggy's order, results and exception semantics; a
hook that no plugin implements costs nothing, and one with a single
implementation is that function. See "The compiled hook layer" on the hooks
page.

A hook that returns a new :class:`~unorules.GameState` must build it from the
state it was given (``state.replace(...)`` and the mechanics methods such as
``state.draw(...)``); states are immutable and are never changed in place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from unorules.plugin import hookspec

if TYPE_CHECKING:
    from unorules.actions import Action
    from unorules.cards import Card
    from unorules.rng import Rng
    from unorules.ruleset import Ruleset
    from unorules.state import GameState, Outcome, RoundResult

# ---------------------------------------------------------------------------
# Building a rule set: called once per Ruleset, results cached.
# ---------------------------------------------------------------------------


@hookspec
def deck_cards(ruleset: Ruleset) -> Iterable[Card]:
    """Contribute cards to the rule set's deck.

    Called once when the rule set is built. Every plugin's cards are
    concatenated in registration order to form the deck that is shuffled for
    each round. ``ruleset.options`` holds the validated options.

    :return: the cards this plugin adds (may be empty).
    """


@hookspec(firstresult=True)
def card_points(ruleset: Ruleset, card: Card) -> int | None:
    """Say how many points ``card`` is worth in a hand at the end of a round.

    Called once per distinct card of the deck when the rule set is built.
    Stops at the first non-``None`` result; a card nobody scores is an error
    when the rule set is built.
    """


@hookspec(firstresult=True)
def card_needs_target(ruleset: Ruleset, card: Card) -> bool | None:
    """Say whether playing ``card`` names another seat (``play R7 2``).

    Called once per distinct card of the deck when the rule set is built.
    Stops at the first non-``None`` result; ``None`` everywhere means no.
    """


@hookspec(firstresult=True)
def hand_size(ruleset: Ruleset) -> int | None:
    """The number of cards dealt to each seat. Stops at the first non-``None`` result."""


@hookspec
def check_ruleset(ruleset: Ruleset) -> None:
    """Refuse a combination of plugins or options that cannot work together.

    Called once, after options are validated and the deck is built. Raise
    :class:`~unorules.RulesetError` with a message saying what conflicts and
    why. Results are ignored.
    """


@hookspec
def check_game(ruleset: Ruleset, players: int) -> None:
    """Refuse to start a game of ``players`` seats under this rule set.

    Called by :meth:`~unorules.Ruleset.new_game` once, after the core checked
    that ``players`` is 2 to 10 and before anything is dealt (a rule set
    cannot know the player count when it is built). Raise
    :class:`~unorules.RulesetError` saying what player counts are allowed,
    e.g. a partners mode needs exactly 4. Results are ignored.
    """


@hookspec
def check_state(state: GameState) -> None:
    """Refuse a state whose data owned by this plugin makes no sense.

    Called by :func:`~unorules.validate_state`, hence by
    :meth:`GameState.from_json <unorules.GameState.from_json>` for every state
    read from outside, after the core checked what it owns: the seats, the
    turn, the cards (each a card of the deck), the scores, the rounds and the
    general shape of ``state.phase`` (a declared name, a seat of the game or
    ``None``, a ``count`` from 0 to twice the deck's size), of the extras (keys
    declared, values of the allowed types) and of the events. Card
    conservation and the check that a seat has a legal action come after this
    hook, so they can rely on it.

    Check only what this plugin owns: ``state.phase`` when its name is one of
    the plugin's :attr:`~unorules.Plugin.phases` (its ``count``, ``card``,
    ``seat``, ``color`` and ``data``), the ``state.extras`` keys it declares,
    and facts of the state that its rules fix (partners: four seats). Keep it
    cheap: it runs for every state restored. The helpers of
    :mod:`unorules.validate` (``require``, ``check_seat``, ...) build the
    errors.

    :param state: the state to check (never one the game produced itself
        unless a server asks for it).
    :return: nothing; results are ignored.
    :raises StateFormatError: naming the field (``"phase.data[0]"``,
        ``"extras.jump-in"``) and the rule or fact that it breaks.
    """


# ---------------------------------------------------------------------------
# Dealing
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def choose_dealer(ruleset: Ruleset, players: int, rng: Rng) -> int | None:
    """Choose the first round's dealer when ``new_game`` is given no dealer.

    Draw from ``rng`` (a mutable generator whose final state the game keeps).
    Stops at the first non-``None`` result; without one, seat 0 deals.
    """


@hookspec(firstresult=True)
def on_starter(state: GameState) -> GameState | None:
    """Apply the opening effect of the starter card.

    Called after every deal, when the hands are dealt, the starter lies on
    the discard pile, ``state.color`` is its colour (``None`` for wilds) and
    the seat after the dealer is to play. Return the state the round starts
    from, or ``None`` to leave it as it is. Stops at the first non-``None``
    result.
    """


# ---------------------------------------------------------------------------
# Taking actions: called on every action, keep them cheap.
# ---------------------------------------------------------------------------


@hookspec
def legal_actions(state: GameState) -> Sequence[Action]:
    """List the actions that plugin makes legal in ``state``, for every seat.

    Called once per state (the result is cached on the state) while the game
    is not over. All plugins' lists are concatenated: a plugin adds the
    actions its rules allow, including out-of-turn ones. A plugin that must
    *remove* another plugin's actions uses a ``wrapper=True`` implementation.
    Actions should come from ``Action.of`` or ``state.play_actions`` (interned).
    """


@hookspec(firstresult=True)
def apply_action(state: GameState, action: Action) -> GameState | None:
    """Carry out a legal action and return the next state.

    Called by ``GameState.apply`` after it checked that ``action`` is among
    ``state.legal_actions()``; ``state.last_action`` is already ``action`` and
    ``state.events`` is empty, ready for this action's events. Return the
    next state, or ``None`` to leave the action to the next plugin. Stops at
    the first non-``None`` result.
    """


@hookspec(firstresult=True)
def explain_illegal(state: GameState, action: Action) -> tuple[str, str] | None:
    """Say why ``action`` is not legal in ``state``: ``(rule_id, message)``.

    Called only when an action is refused, to build the
    :class:`~unorules.IllegalActionError`. Stops at the first non-``None``
    result; without one the error lists what that seat may do.
    """


@hookspec(firstresult=True)
def on_play(state: GameState, action: Action, previous: GameState) -> GameState | None:
    """Apply the effect of the card just played and pass the turn.

    Called after ``action.card`` left the player's hand and lies on top of
    the discard pile with ``state.color`` set; ``state.phase`` is still the
    phase the card was played in and ``previous`` is the state before the
    play. When the player's hand is now empty the round is ending: return
    ``None`` unless your card does something special then. Stops at the first
    non-``None`` result.
    """


@hookspec(firstresult=True)
def on_draw(state: GameState, seat: int, cards: tuple[Card, ...], reason: str) -> GameState | None:
    """React to ``seat`` having drawn ``cards`` (already in their hand).

    Called by ``GameState.draw`` every time cards are drawn; ``reason`` is
    ``"turn"`` for a draw for the turn and ``"penalty"`` (or a plugin's own
    word) otherwise. Return a replacement state (for example after drawing
    more) or ``None``. Stops at the first non-``None`` result.
    """


@hookspec
def visible_hands(state: GameState, seat: int) -> Iterable[int]:
    """Name other seats whose hands ``seat`` may see now (all results are merged).

    Called by ``GameState.view``. Every seat always sees its own hand.
    """


# ---------------------------------------------------------------------------
# Ending rounds and games
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def score_round(state: GameState, result: RoundResult) -> Sequence[int] | None:
    """Return the points to add to each seat's score for the round just ended.

    Called by ``GameState.end_round`` with the state at the end of the round
    (hands as they were left) and the round's result. Stops at the first
    non-``None`` result; without one nobody scores.
    """


@hookspec(firstresult=True)
def on_round_end(state: GameState, result: RoundResult) -> GameState | None:
    """Adjust the state after a round was scored, before the game-over check.

    ``state.scores`` already include the round and ``state.rounds`` ends with
    ``result``. Return a replacement state (for example with seats removed
    from play) or ``None``. Stops at the first non-``None`` result.
    """


@hookspec(firstresult=True)
def game_outcome(state: GameState) -> Outcome | None:
    """Decide whether the game is over after a round; return its outcome.

    Called after ``on_round_end``. Stops at the first non-``None`` result;
    ``None`` everywhere deals the next round.
    """

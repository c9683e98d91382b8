"""Every hook a unorules plugin can implement.

Hooks are called through each :class:`~unorules.Ruleset`'s own pluggy
``PluginManager``. Plugins are registered in canonical order (a plugin after
the plugins it ``requires``, independent plugins by name), and pluggy calls
the *last registered first*: a house rule that requires ``classic`` sees
every hook before ``classic`` does, and overrides a ``firstresult`` hook by
returning a result or steps aside by returning ``None``. ``tryfirst`` and
``trylast`` pin an implementation to either end; the classic plugin marks
its defaults ``trylast``. A ``wrapper=True`` implementation sees the other
implementations' result and may change it, as in pluggy.

Hooks fall into six groups: *building a rule set* (called once, when a
:class:`~unorules.Ruleset` is built), *showing it to people* (called once per
rule set, by the user interfaces), *dealing*, *the questions every rule
shares* (asked by every plugin through :class:`~unorules.Position` and the
draft's mechanics, so that a house rule answering one is obeyed by every card
of every plugin), *taking actions* (called on every action: keep them cheap)
and *ending rounds and games*.

**How a game changes.** ``state.apply(action)`` makes one
:class:`~unorules.Draft` of the next state and hands it to the hooks that
change the game: ``apply_action`` carries the action out (classic's ``play``
calls ``draft.play``, which asks ``on_play`` for the card's effect; a draw
asks ``on_draw``), then ``after_action`` lets every plugin that watches all
actions update its own data; when a round ends inside the action,
``score_round``, ``on_round_end``, ``game_outcome`` and the next deal's
``on_starter`` get the same draft. The draft is frozen into the next state
once, at the end. A hook writes the game only through the draft's mechanics
and fields (see :mod:`unorules.draft`); ``draft.before`` is the state the
action is applied to. Hooks that only read (``legal_actions``,
``explain_illegal``, ``visible_hands``, ``check_state``) get a frozen
:class:`~unorules.GameState`.

So an effect happens in one of three ways: a hook implementation (returning
``True`` from a ``firstresult`` hook to say "done"), a ``wrapper=True``
implementation around the others, or ``after_action``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from unorules.markers import hookspec

if TYPE_CHECKING:
    from unorules.actions import Action
    from unorules.cards import Card
    from unorules.display import Display
    from unorules.draft import Draft
    from unorules.rng import Rng
    from unorules.ruleset import Ruleset
    from unorules.state import GameState, GoingOut, Outcome, Position, RoundResult, SeatView, Value

# ---------------------------------------------------------------------------
# Building a rule set: called once per Ruleset, results kept.
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
    """Say how many points ``card`` is worth in a hand at the end of a round under ``ruleset``.

    Called once per distinct card of the deck when the rule set is built.
    Stops at the first non-``None`` result; a card nobody scores is an error
    when the rule set is built.
    """


@hookspec(firstresult=True)
def card_needs_target(ruleset: Ruleset, card: Card) -> bool | None:
    """Say whether playing ``card`` names another seat (``play R7 2``) under ``ruleset``.

    Called once per distinct card of the deck when the rule set is built.
    Stops at the first non-``None`` result; ``None`` everywhere means no.
    """


@hookspec(firstresult=True)
def card_names_color(ruleset: Ruleset, card: Card) -> bool | None:
    """Say whether playing the wild ``card`` names a colour (``play W R``)
    under ``ruleset``.

    Called once per distinct wild card of the deck (and wild face of a
    two-faced deck) when the rule set is built. Stops at the first
    non-``None`` result; ``None`` everywhere means yes: a wild names the
    colour to match when it is played. Answer ``False`` for a wild whose
    colour someone else names later (its ``play`` action then takes none).
    """


@hookspec(firstresult=True)
def hand_size(ruleset: Ruleset) -> int | None:
    """The number of cards dealt to each seat under ``ruleset``.

    Called once when the rule set is built. Stops at the first non-``None``
    result; without one, 7.
    """


@hookspec(firstresult=True)
def uno_call_rule(ruleset: Ruleset) -> str | None:
    """Say when a seat calls UNO under ``ruleset``: ``"two-cards"`` (holding two cards,
    before laying the next-to-last one, R-UNO-CALL), ``"one-card"`` (only once holding
    one card, so every seat that plays down to one is open to a catch until it calls),
    ``"playable"`` (holding two cards, only with a card to lay now) or ``"silent"``
    (nobody calls and nobody is caught).

    Called once when the rule set is built; the answer is
    :attr:`Ruleset.uno_call <unorules.Ruleset.uno_call>`, which
    :meth:`Position.may_call_uno <unorules.Position.may_call_uno>` and
    :meth:`Position.uno_window_actions <unorules.Position.uno_window_actions>` read
    for every plugin that offers a call or a catch. Stops at the first
    non-``None`` result; without one, ``"two-cards"``.
    """


@hookspec
def check_ruleset(ruleset: Ruleset) -> None:
    """Refuse a combination of plugins or options that cannot work together in ``ruleset``.

    Called once, after options are validated and the deck is built. Raise
    :class:`~unorules.RulesetError` with a message saying what conflicts and
    why. Results are ignored.
    """


@hookspec
def check_game(ruleset: Ruleset, players: int) -> None:
    """Refuse to start a game of ``players`` seats under ``ruleset``.

    Called by :meth:`~unorules.Ruleset.new_game` once, after the core checked
    that ``players`` is 2 to 10 and before anything is dealt (a rule set
    cannot know the player count when it is built). Raise
    :class:`~unorules.RulesetError` saying what player counts are allowed,
    e.g. a partners mode needs exactly 4. Results are ignored.
    """


@hookspec(firstresult=True)
def teams(ruleset: Ruleset, players: int) -> Sequence[Sequence[int]] | None:
    """Name the seats that play as teams in a game of ``players`` seats under ``ruleset``.

    Called by :meth:`~unorules.Ruleset.teams` (outer layers such as the RL
    environments reward a round winner's whole team). Return the teams, each
    a sequence of seats, together every seat once, or ``None`` when this
    plugin does not group seats. Stops at the first non-``None`` result;
    without one every seat plays alone.
    """


@hookspec
def check_state(state: GameState) -> None:
    """Refuse a state whose data owned by this plugin makes no sense.

    Called by :func:`~unorules.validate_state`, hence by
    :meth:`GameState.from_json <unorules.GameState.from_json>` for every state
    read from outside, after the core checked what it owns: the seats, the
    turn, the cards (each a card of the deck), the scores, the rounds and the
    general shape of ``state.phase`` (a declared name, a seat of the game or
    ``None``, a ``count`` from 0 to :data:`~unorules.validate.MAX_COUNT`), of the extras (keys
    declared, values of the allowed types) and of the events. Card
    conservation and the check that a seat has a legal action come after this
    hook, so they can rely on it.

    Check only what this plugin owns: ``state.phase`` when its name is one of
    the plugin's :attr:`~unorules.Plugin.phases`, the ``state.extras`` keys it
    declares, and facts of the state that its rules fix (partners: four
    seats). Keep it cheap: it runs for every state restored. The helpers of
    :mod:`unorules.validate` (``require``, ``check_seat``, ...) build the
    errors.

    :return: nothing; results are ignored.
    :raises StateFormatError: naming the field (``"phase.data[0]"``,
        ``"extras.jump-in"``) and the rule or fact that it breaks.
    """


@hookspec
def resample_extras(state: GameState, view: SeatView, rng: Rng) -> Iterable[tuple[str, Value]] | None:
    """Give this plugin's private data (``extras`` keys it does not declare
    public) in a state sampled for a seat's view.

    Called by :func:`unorules.knowledge.determinize`, which deals the cards
    ``view.seat`` cannot see at random and needs the rest of a state that
    shows that seat exactly ``view``: ``state`` holds the sampled cards, the
    view's public extras and none of the private ones. Return ``(key,
    value)`` pairs for the private keys the sampled state should hold,
    consistent with its cards (draw on ``rng``, a mutable generator, for any
    choice); ``None`` or nothing when it should hold none. Only a plugin with
    private extras needs it. All results are merged.
    """


@hookspec
def hidden_requirements(view: SeatView) -> Iterable[tuple[int, Callable[[Card], bool]]] | None:
    """Say what ``view`` tells of a hand its seat cannot see.

    Called by :func:`unorules.knowledge.determinize` on the view it samples a
    state for, when a phase of this plugin is in play. A phase may hold only
    while a seat holds a certain card (a Multi-Play group goes on only while
    its seat holds another card of its number); a state dealt at random would
    often break it. Return ``(seat, test)`` pairs: the seat's hand holds at
    least one card for which ``test(card)`` is true. The sampled state meets
    each pair by trading an unknown card of that hand for a card that passes
    from the draw pile (or another hand ``view.seat`` cannot see); the pairs
    naming ``view.seat`` itself or a hand it sees are already met. ``None`` or
    nothing when the view tells of no hidden card. All results are
    concatenated.
    """


@hookspec
def set_aside_cards(state: GameState) -> Iterable[Card]:
    """Name the cards this plugin keeps out of the hands and piles in ``state``.

    Called by the testing toolkit and :func:`~unorules.validate_state` when
    they count the cards of a state (every card of the deck is in a hand, in
    a pile, or set aside by a plugin). All results are concatenated.
    """


# ---------------------------------------------------------------------------
# Showing the game to people: called once per rule set by the user interfaces
# (the terminal, the browser table, the narrator), results kept. Nothing of
# play reads them: a look never changes a game.
# ---------------------------------------------------------------------------


@hookspec
def display(ruleset: Ruleset) -> Display | None:
    """Say how this plugin's part of ``ruleset`` is shown to people: a
    :class:`~unorules.display.Display` with a :class:`~unorules.display.CardLook`
    for each card kind it registers (name, short symbol, face word, icon, paint
    and ink), the names of the sides of two-faced cards, and words for its phases.

    Every implementation is called, once per rule set
    (:func:`unorules.display.display_of`); the answers are merged in
    registration order, so a plugin that requires another overrides its looks.
    Return ``None`` for nothing to say.
    """


# ---------------------------------------------------------------------------
# Dealing
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def choose_dealer(ruleset: Ruleset, players: int, rng: Rng) -> int | None:
    """Choose the first round's dealer of a game of ``players`` seats under ``ruleset``
    when ``new_game`` is given no dealer.

    Draw from ``rng`` (a mutable generator whose final state the game keeps).
    Stops at the first non-``None`` result; without one, seat 0 deals.
    """


@hookspec(firstresult=True)
def on_starter(draft: Draft) -> bool | None:
    """Apply the opening effect of the starter card.

    Called after every deal (``draft.deal``), when the hands are dealt, the
    starter lies on the discard pile, ``draft.color`` is its colour (``None``
    for wilds) and the seat after the dealer is to play. Change the draft as
    the starter requires and return ``True``, or return ``None`` to leave it
    to the next plugin. Stops at the first non-``None`` result.
    """


# ---------------------------------------------------------------------------
# The questions every rule shares: asked by every plugin, through Position
# and the draft's mechanics, whatever made the question come up.
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def card_matches(state: Position, seat: int, card: Card) -> bool | None:
    """Say whether ``card`` may be laid by ``seat`` on the discard pile of ``state`` on
    an ordinary turn, by the rule of the card's own kind.

    Asked by :meth:`Position.matches <unorules.Position.matches>` (a state or a
    draft; ``card`` is the face a two-faced card shows), which every plugin uses
    to test a card: the turn's plays, a card drawn, a card drawn until one can be
    played. Answer for the kinds your plugin owns (a wild that may be played only
    on certain colours, a Wild Draw Four that may not be a bluff); ``None`` leaves
    the card to the core's rule: a wild always matches, a coloured card matches
    the colour to match or the top card's kind (R-TURN-MATCH). Bans that hold
    whatever the card (a last card) are :func:`play_forbidden`'s. Stops at the
    first non-``None`` result.
    """


@hookspec(firstresult=True)
def play_forbidden(state: Position, seat: int, card: Card) -> str | None:
    """Say whether a rule keeps ``seat`` from playing ``card`` now in ``state``, though
    the card would otherwise be playable: return the rule id (``"R-HOUSE-LAST-CARD"``),
    or ``None``.

    Asked by :meth:`Position.forbidden <unorules.Position.forbidden>` for every
    play any plugin offers: a matching card on an ordinary turn, an answer to a
    stack, a jump-in, a deflection, a card of a group. A rule that forbids a play
    answers this hook and needs to know no other plugin; ``explain_illegal``
    then says why to a seat that tries it. Not asked at all when no plugin
    implements it. Stops at the first non-``None`` result.
    """


@hookspec(firstresult=True)
def refuse_turn_draw(state: Position, seat: int, playable: bool) -> str | None:
    """Say whether a rule keeps ``seat``, the seat to move on an ordinary turn, from
    drawing for its turn in ``state``: return the rule id, or ``None``.

    ``playable`` says whether the seat may play a card now. Asked by
    :meth:`Position.turn_draw_refused <unorules.Position.turn_draw_refused>` by
    the plugin that lists the turn's draw (forced play: no draw while a card can
    be played; a hand cap: no draw at the cap) and by rules that draw for a turn
    in other ways (drawing until a card can be played stops when refused). A
    seat refused the draw that cannot play passes. Not asked when no plugin
    implements it. Stops at the first non-``None`` result.
    """


@hookspec(firstresult=True)
def going_out(draft: Draft, seat: int) -> GoingOut | None:
    """Decide what ``seat``, whose hand the action being carried out just emptied, does.

    Asked once per seat and action by the core, and only by the core: by
    :meth:`Draft.play <unorules.Draft.play>` and :meth:`Draft.card_effect
    <unorules.Draft.card_effect>` when the card laid was the seat's last, before the
    card's effect (``on_play``), and by :meth:`Draft.went_out
    <unorules.Draft.went_out>`, which a rule that empties a hand some other way
    calls. Return ``GoingOut(ends=True, winner=...)`` to end the round with that
    winner; ``GoingOut(ends=False)`` after making the seat leave the round
    (``draft.leave``, R-HOUSE-LAST-LOSES) or when a phase of yours settles the
    empty hand later: the card's effect then acts on the seats left. ``None``
    leaves it to the core: the round ends and ``seat`` wins it (R-OUT). The answer
    is :attr:`Draft.going_out <unorules.Draft.going_out>` during the effect; when
    it ends the round, the core ends it once the effect is done, so no plugin
    ends a round for an emptied hand itself. Stops at the first non-``None``
    result.
    """


@hookspec(firstresult=True)
def blocked_round(draft: Draft) -> GoingOut | None:
    """Decide who wins a blocked round of ``draft``: every seat still in the game has,
    in turn, neither played nor drawn (:meth:`Draft.stall <unorules.Draft.stall>`).

    Return ``GoingOut(ends=True, winner=seat)``, or ``GoingOut(ends=True,
    winner=None)`` for a round nobody wins (R-HOUSE-BLOCKED-DRAW). ``None``
    leaves it to the core: the seat with the fewest hand points by the faces in
    play wins, ties going to the lowest seat. Stops at the first non-``None``
    result.
    """


# ---------------------------------------------------------------------------
# Taking actions: called on every action, keep them cheap.
# ---------------------------------------------------------------------------


@hookspec
def legal_actions(state: GameState) -> Sequence[Action]:
    """List the actions this plugin makes legal in ``state``, for every seat.

    Called once per state (the state keeps the list) while the game is not
    over. All plugins' lists are concatenated, in calling order: a plugin
    adds the actions its rules allow, out-of-turn ones included. A plugin
    that must *remove* another plugin's actions uses a ``wrapper=True``
    implementation. Actions should come from ``Action.of`` or
    ``state.play_actions`` (interned).
    """


@hookspec(firstresult=True)
def apply_action(draft: Draft, action: Action) -> bool | None:
    """Carry out the legal ``action`` on ``draft``.

    Called by ``GameState.apply`` after it checked that ``action`` is among
    ``state.legal_actions()``; ``draft`` is a copy of that state with
    ``last_action`` set and no events yet (``draft.before`` is the state).
    Carry the action out through the draft and return ``True``, or return
    ``None`` to leave it to the next plugin; a plugin may also prepare the
    draft and return ``None`` (a jump-in makes the jumper the seat to move
    before classic plays the card). Stops at the first non-``None`` result.
    """


@hookspec(firstresult=True)
def on_play(draft: Draft, action: Action, previous: GameState) -> bool | None:
    """Apply the effect of the card just played and pass the turn.

    Called by ``draft.play`` after ``action.card`` left the player's hand and
    lies on top of the discard pile with ``draft.color`` set; ``draft.phase``
    is still the phase the card was played in and ``previous`` is the state
    the card was played on (``draft.before``, unless a plugin plays a card
    later than it was laid). When the player's hand is now empty the round
    is ending: return ``None`` unless your card does something special then.
    Apply the effect and return ``True``, or ``None`` for cards that are not
    yours. Stops at the first non-``None`` result.
    """


@hookspec
def on_draw(draft: Draft, seat: int, cards: tuple[Card, ...], reason: str) -> None:
    """React to ``seat`` having drawn ``cards`` (already in its hand).

    Called by ``draft.draw`` every time cards are drawn; ``reason`` is
    ``"turn"`` for a draw for the turn, ``"penalty"`` or a plugin's own word
    otherwise. Change the draft (draw more, say) or do nothing. Every
    implementation is called; results are ignored.
    """


@hookspec
def after_action(draft: Draft, action: Action, before: GameState) -> None:
    """Keep data that depends on every action up to date.

    Called once per action, after ``apply_action`` carried it out (and after
    a round that ended with it was scored and the next one dealt), for rules
    that watch all actions: a window that opens when a card is played and
    closes when the next seat acts, hands shown until a seat's next turn.
    Compare ``draft`` with ``before``, the state the action was applied to.
    Every implementation is called; results are ignored.
    """


@hookspec(firstresult=True)
def explain_illegal(state: GameState, action: Action) -> tuple[str, str] | None:
    """Say why ``action`` is not legal in ``state``: ``(rule_id, message)``.

    Called only when an action is refused, to build the
    :class:`~unorules.IllegalActionError`. Stops at the first non-``None``
    result; without one the error lists what that seat may do.
    """


@hookspec
def visible_hands(state: GameState, seat: int) -> Iterable[int]:
    """Name other seats whose hands ``seat`` may see now in ``state`` (all results are merged).

    Called by ``GameState.view``. Every seat always sees its own hand.
    """


@hookspec
def visible_backs(state: GameState, seat: int | None) -> Iterable[int]:
    """Name the seats whose hands' backs ``seat`` may see now in ``state``
    (all results are merged).

    Only for a deck of two-faced cards (:meth:`Card.two_faced
    <unorules.Card.two_faced>`): a seat holding such cards shows their other
    faces to the table. Called by ``GameState.view``, also for a spectator
    (``seat`` is ``None``); the view lists each named hand's backs in hand
    order (``SeatView.backs``). Name the seat itself only when a rule lets a
    player see their own backs. Without an implementation nobody sees a back.
    """


# ---------------------------------------------------------------------------
# Ending rounds and games
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def score_round(draft: Draft, result: RoundResult) -> Sequence[int] | None:
    """Return the points to add to each seat's score for the round just ended.

    Called by ``draft.end_round`` with the hands as they were left and the
    round's result (its points still zero). Stops at the first non-``None``
    result; without one nobody scores.
    """


@hookspec
def on_round_end(draft: Draft, result: RoundResult) -> None:
    """Adjust the game after a round was scored, before the game-over check.

    ``draft.scores`` already include the round and ``draft.rounds`` ends with
    ``result``: a seat may leave the game here (``draft.leave``). Every
    implementation is called; results are ignored.
    """


@hookspec(firstresult=True)
def game_outcome(draft: Draft) -> Outcome | None:
    """Decide whether the game is over after a round; return its outcome.

    ``draft`` is the game as the round's end leaves it (scores updated). Called
    after ``on_round_end``. Stops at the first non-``None`` result;
    ``None`` everywhere deals the next round.

    :func:`~unorules.validate_state` asks it too, of a draft of a state read
    from outside that has ended a round (the draft is then thrown away): a
    finished game's ``outcome`` must be this answer, and a game that goes on
    must get ``None``. So the answer depends only on what a round's end
    leaves (scores, rounds, seats in the game, extras), not on the play since.
    """

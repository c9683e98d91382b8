"""Any rule set as an OpenSpiel game (the ``openspiel`` extra: ``pip install 'unorules[openspiel]'``).

Importing this module registers the Python game ``python_unorules`` with
OpenSpiel (``pyspiel``), so its algorithms and bots play any rule set::

    import pyspiel
    import unorules.openspiel

    game = pyspiel.load_game("python_unorules(rules=classic;stacking,players=2,episode=round)")

Parameters (OpenSpiel game strings cannot hold commas):

* ``rules``: the rule set's spec text (``Ruleset.spec_text``) with ``;`` for
  each comma, e.g. ``classic;stacking stack_mix=on target_score=200``
  (default ``classic``);
* ``players``: 2 to 10 (default 2);
* ``episode``: ``game`` (to the rule set's end, default) or ``round`` (the
  first round).

**Moves.** The game is sequential. Its actions are the indices of the rule
set's :class:`~unorules.rl.ActionSpace`, and it follows the out-of-turn
window protocol of :mod:`unorules.rl.pettingzoo_env`: after every action the
seats that may act out of turn (UNO calls, catches, jump-ins) are asked one
after another, each acting or passing with the no-op (index 0), then the
seat to move.

**Chance is explicit.** The first chance node picks one of
:data:`SHUFFLES` equally likely generators for what nobody sees (the order in
which a reshuffled discard pile comes back, a returned starter's
replacement); then every card dealt and every card drawn from the draw pile
is a chance node of its own, its outcome the card (an index of
:meth:`UnoGame.cards`) with the probability of drawing it: its copies in the
pile over the pile's size. Only the cards drawn in the very action that
reshuffles the discard pile, after the reshuffle, come from the generator
of the first chance node.

**Observations.** ``observation_string``/``observation_tensor`` are the seat's
current view (:class:`~unorules.SeatView`, the tensor
:class:`~unorules.rl.ObservationEncoder`'s); ``information_state_string`` is
the seat's views since the deal (perfect recall) and
``information_state_tensor`` its current view with what it knows of the
other hands and the draw pile (:class:`~unorules.knowledge.Knowledge`: the
cards known to be in each). ``resample_from_infostate`` samples a state the
seat cannot tell apart from the real one (:func:`~unorules.knowledge.determinize`),
which is what OpenSpiel's ISMCTS bot asks for.

**Cost.** A state shares with its clones everything that does not change: the
states since the deal and each seat's lines of what it saw are a persistent
:class:`History` (a chain that a new step extends without copying), and what a
seat knows is copied only when it is next brought up to date. A clone (which
OpenSpiel makes at every node of a search, and of every step in
``random_sim_test``) costs the same after two thousand steps as after twenty;
the information-state string is joined from the shared lines when asked.

:class:`UnorulesBot` lets any unorules bot play in OpenSpiel
(``evaluate_bots``), and :func:`play` plays one game between OpenSpiel's
bots and unorules' ones.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

import numpy as np
import pyspiel

from unorules.bots import Bot, show_views
from unorules.cards import Card
from unorules.draft import DRAW, carry_out
from unorules.knowledge import Knowledge, determinize
from unorules.rl.encoder import ObservationEncoder
from unorules.rl.spaces import NOOP, ActionSpace
from unorules.ruleset import MAX_PLAYERS, Ruleset
from unorules.state import GameState, SeatView

__all__ = ["GAME_NAME", "SHUFFLES", "History", "UnoGame", "UnoState", "UnorulesBot", "load", "play"]

GAME_NAME = "python_unorules"
"""The name the game is registered under."""

SHUFFLES = 256
"""How many generators the first chance node chooses from."""

_MAX_LENGTH = 200_000

_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="unorules: any UNO rule set",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "classic", "players": 2, "episode": "game"},
)


def load(rules: Ruleset | str = "classic", players: int = 2, episode: str = "game") -> UnoGame:
    """The OpenSpiel game of ``rules`` (a rule set or its spec text) for ``players``
    seats; ``episode`` is ``"game"`` (played to its end) or ``"round"`` (one round)."""
    spec = rules.spec_text if isinstance(rules, Ruleset) else rules
    game = pyspiel.load_game(
        GAME_NAME, {"rules": spec.replace(",", ";"), "players": players, "episode": episode}
    )
    assert isinstance(game, UnoGame)
    return game


class UnoGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """A rule set as an OpenSpiel game (see the module's docstring). ``params`` are
    OpenSpiel's game parameters: ``rules`` (a spec text with ``;`` for commas,
    default ``classic``), ``players`` (default 2) and ``episode`` (``game`` or
    ``round``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = str(params.get("rules", "classic")).replace(";", ",")
        players = int(params.get("players", 2))
        episode = str(params.get("episode", "game"))
        if episode not in ("game", "round"):
            raise ValueError(f"episode must be 'game' or 'round', not {episode!r}")
        ruleset = Ruleset.from_spec_text(spec)
        ruleset.new_game(players=players, seed=0)  # refuses a bad player count now
        space = ActionSpace(ruleset, players)
        card_list: tuple[Card, ...] = tuple(sorted(set(ruleset.deck), key=str))
        most = max(len(t) for t in ruleset.teams(players))
        info = pyspiel.GameInfo(
            num_distinct_actions=space.n,
            max_chance_outcomes=max(SHUFFLES, len(card_list)),
            num_players=players,
            min_utility=-float(most),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_MAX_LENGTH,
        )
        super().__init__(
            _TYPE, info, {"rules": spec.replace(",", ";"), "players": players, "episode": episode}
        )
        self.ruleset = ruleset
        """The rule set."""
        self.players = players
        self.episode = episode
        self.space = space
        """The actions (see :class:`~unorules.rl.ActionSpace`)."""
        self.encoder = ObservationEncoder(ruleset, players)
        """The observation tensor's encoder."""
        self.card_list = card_list
        self.card_index = {card: i for i, card in enumerate(card_list)}

    def cards(self) -> tuple[Card, ...]:
        """The distinct cards of the deck: a card chance outcome is an index of this."""
        return self.card_list

    def new_initial_state(self) -> UnoState:
        """The state before anything is dealt (a chance node)."""
        return UnoState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of views (and, when ``iig_obs_type`` asks for perfect recall,
        of what a seat knows); ``params`` are not used."""
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self, recall)


class UnoState(pyspiel.State):  # type: ignore[misc]
    """A moment of an OpenSpiel game of UNO (see the module's docstring)."""

    def __init__(self, game: UnoGame) -> None:
        super().__init__(game)
        self.engine: GameState | None = None
        """The unorules state (``None`` until the deal)."""
        self.history_states: History[GameState] = History()
        """Every unorules state of the game so far, the deal first (shared with clones)."""
        self._seed: int | None = None
        self._dealt: list[Card] = []
        self._pending: int | None = None  # the player action waiting for its drawn cards
        self._pending_player = 0
        self._chosen: list[Card] = []
        self._queue: list[int] = []
        self._over = False
        self._returns = [0.0] * game.players
        self._knowledge = _Cache()
        self._texts = _Texts()
        self._seen: History[tuple[str, ...]] = History()
        """What each seat saw of every state so far: for each state, one line a seat (the
        seats' information states; shared with clones)."""

    @property
    def _game(self) -> UnoGame:
        game: UnoGame = self.get_game()
        return game

    def _copy(self) -> UnoState:
        other = UnoState(self._game)
        other.engine = self.engine
        other.history_states = self.history_states
        other._seed = self._seed
        other._dealt = list(self._dealt)
        other._pending = self._pending
        other._pending_player = self._pending_player
        other._chosen = list(self._chosen)
        other._queue = list(self._queue)
        other._over = self._over
        other._returns = list(self._returns)
        other._seen = self._seen
        other._knowledge = _Cache(self._knowledge)
        return other

    # -- whose move ------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat asked, ``CHANCE`` or ``TERMINAL``."""
        if self._over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._seed is None or self.engine is None or self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self._queue[0]

    def _legal_actions(self, player: int) -> list[int]:
        engine = self.engine
        assert engine is not None
        space = self._game.space
        found = sorted(space._index[player][a] for a in engine.legal_actions(player))
        if player != engine.current_player and self._queue[-1] == engine.current_player:
            found.insert(0, NOOP)
        return found

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcomes: a generator, a card dealt, or a card drawn."""
        if self._seed is None:
            return [(i, 1.0 / SHUFFLES) for i in range(SHUFFLES)]
        left = self._unseen()
        total = sum(left.values())
        index = self._game.card_index
        return sorted((index[card], n / total) for card, n in left.items() if n)

    def _unseen(self) -> Counter[Card]:
        """The cards a chance node may draw: the deck not yet dealt, or the draw pile not yet chosen."""
        if self.engine is None:
            left = Counter(self._game.ruleset.deck)
            left.subtract(self._dealt)
        else:
            left = Counter(self.engine.draw_pile)
            left.subtract(self._chosen)
        return +left

    # -- applying ----------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        game = self._game
        if self._seed is None:
            self._seed = int(action)
            return
        if self.engine is None:
            self._dealt.append(game.card_list[action])
            rules = game.ruleset
            if len(self._dealt) == rules.hand_size * game.players + 1:
                engine = rules.new_game(game.players, seed=self._seed, deck=self._dealt, dealer=0)
                self._commit(engine)
            return
        if self._pending is not None:
            self._chosen.append(game.card_list[action])
            self._carry(self._pending)
            return
        player = self._queue[0]
        if action == NOOP:
            self._queue.pop(0)
            return
        self._chosen = []
        self._carry(action, player)

    def _carry(self, action: int, player: int | None = None) -> None:
        """Carry out the player action ``action`` once the cards it draws from the
        pile are chosen (else ask a chance node for the next one)."""
        engine = self.engine
        assert engine is not None
        if player is None:
            player = self._pending_player
        chosen = self._game.space._actions[player][action]
        assert chosen is not None
        pile = list(self._chosen)
        rest = Counter(engine.draw_pile)
        rest.subtract(self._chosen)
        pile += sorted(rest.elements(), key=str)
        arranged = engine.replace(draw_pile=tuple(pile))
        after = carry_out(arranged, chosen)
        drawn = _drawn_from_pile(after, len(engine.draw_pile))
        if drawn > len(self._chosen):
            self._pending = action
            self._pending_player = player
            return
        self._pending = None
        self._chosen = []
        self._commit(after)

    def _commit(self, engine: GameState) -> None:
        before = self.engine
        self.engine = engine
        self.history_states = self.history_states.plus(engine)
        game = self._game
        self._seen = self._seen.plus(
            tuple(_step_text(engine.view(player), player) for player in range(game.players))
        )
        if engine.is_over or (
            game.episode == "round" and before is not None and len(engine.rounds) > len(before.rounds)
        ):
            self._finish(engine)
            return
        current = engine.current_player
        seats = engine.seats_to_act()
        queue = [s for s in seats if s != current]
        if current in seats:
            queue.append(current)
        self._queue = queue

    def _finish(self, engine: GameState) -> None:
        game = self._game
        self._over = True
        if engine.outcome is not None and (game.episode == "game" or not engine.rounds):
            winners = set(engine.outcome.winners)
        else:
            winner = engine.rounds[-1].winner
            winners = set()
            if winner is not None:
                winners = next(set(t) for t in game.ruleset.teams(game.players) if winner in t)
        losers = [s for s in range(game.players) if s not in winners]
        share = len(winners) / len(losers) if losers else 0.0
        self._returns = [1.0 if s in winners else -share for s in range(game.players)]

    # -- OpenSpiel's questions -------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._game
        if player == pyspiel.PlayerId.CHANCE:
            if self._seed is None:
                return f"generator {action}"
            return f"card {game.card_list[action]}"
        return game.space.describe(action) if action != NOOP else "pass the window"

    def is_terminal(self) -> bool:
        """Whether the episode is over."""
        return self._over

    def returns(self) -> list[float]:
        """+1 to each winning seat; the losers share the winners' total, negated."""
        return list(self._returns)

    def __str__(self) -> str:
        engine = self.engine
        if engine is None:
            return f"dealing: {len(self._dealt)} cards dealt"
        hands = " | ".join(" ".join(map(str, h)) for h in engine.hands)
        return (
            f"round {engine.round_number}, top {engine.top_card} {engine.color}, "
            f"seat {engine.current_player} "
            f"to {engine.phase.name}; asked {self._queue[:1]}; hands {hands}; pile {len(engine.draw_pile)}; "
            f"scores {list(engine.scores)}"
        )

    def view(self, player: int) -> SeatView:
        """``player``'s view of the game now (the deal's first, before it)."""
        engine = self.engine
        if engine is None:
            raise ValueError("nothing is dealt yet")
        return engine.view(player)

    def knowledge(self, player: int) -> Knowledge:
        """What ``player`` knows now, read from its views since the deal (kept)."""
        states = self.history_states
        if not states:
            raise ValueError("nothing is dealt yet")
        found = self._knowledge.get(player)
        if found is None or found[0] > len(states) or found[2] is not states[found[0] - 1]:
            found = (1, Knowledge(states.first().view(player)), states.first())
        seen, knowledge, _ = found
        if seen < len(states):
            knowledge = knowledge.copy()  # the one kept may be shared with clones: never changed
            for state in states[seen:]:
                knowledge.update(state.view(player))
            self._knowledge[player] = (len(states), knowledge, states[-1])
        return knowledge

    def information(self, player: int) -> str:
        """``player``'s information state as text: a line for each state it saw.

        Built on from the text last asked for, with the lines of the states since; a clone
        starts without it (a search keeps many clones, few are asked)."""
        count, text = self._texts.get(player, (0, ""))
        seen = self._seen
        if count != len(seen):
            if count > len(seen):
                count, text = 0, ""
            new = "\n".join(lines[player] for lines in seen[count:])
            text = f"{text}\n{new}" if count else new
            self._texts[player] = (len(seen), text)
        return text

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> UnoState:
        """A state ``player_id`` cannot tell apart from this one: the cards it cannot
        see sampled from what it knows (:func:`~unorules.knowledge.determinize`);
        ``probability_sampler``, OpenSpiel's sampler, seeds the sample when given."""
        other = self._copy()
        if self.engine is None or self._pending is not None:
            return other
        if probability_sampler is not None:
            seed = int(probability_sampler() * 2**32)
        else:
            seed = random.getrandbits(32)
        view = self.engine.view(player_id)
        world = determinize(view, self.knowledge(player_id), random.Random(seed))
        other.engine = world
        other.history_states = self.history_states.before().plus(world)
        return other


T = TypeVar("T")


class History(Sequence[T], Generic[T]):
    """A persistent sequence of values that never change (states, lines of text): a chain of
    links, each holding one value and the history before it, so :meth:`plus` makes a longer
    history in constant time and memory, sharing this one, and a copy (OpenSpiel clones a
    state with ``copy.deepcopy``) is the history itself.

    Its length, first and last values cost nothing; a value ``k`` places from the end costs
    ``k`` steps, so the recent values (what a reader has not seen yet) are the cheap ones."""

    __slots__ = ("_first", "_length", "_link")

    def __init__(self) -> None:
        self._link: tuple[T, Any] | None = None  # (the last value, the link before it)
        self._length = 0
        self._first: T | None = None

    def plus(self, value: T) -> History[T]:
        """This history with ``value`` after it (this one is not changed)."""
        longer: History[T] = History()
        longer._link = (value, self._link)
        longer._length = self._length + 1
        longer._first = value if self._length == 0 else self._first
        return longer

    def before(self) -> History[T]:
        """This history without its last value."""
        if self._link is None:
            raise IndexError("an empty history has nothing before its end")
        shorter: History[T] = History()
        shorter._link = self._link[1]
        shorter._length = self._length - 1
        shorter._first = self._first if shorter._length else None
        return shorter

    def first(self) -> T:
        """The first value."""
        if self._length == 0:
            raise IndexError("an empty history has no first value")
        return self._first  # type: ignore[return-value]

    def __len__(self) -> int:
        return self._length

    def _last(self, count: int) -> list[T]:
        """The last ``count`` values, in order."""
        found: list[T] = []
        link = self._link
        while link is not None and len(found) < count:
            found.append(link[0])
            link = link[1]
        found.reverse()
        return found

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            if step != 1 or stop <= start:
                return list(self)[index]
            return self._last(self._length - start)[: stop - start]
        position = index + self._length if index < 0 else index
        if not 0 <= position < self._length:
            raise IndexError(f"history index {index} out of range for {self._length} values")
        if position == 0:
            return self.first()
        return self._last(self._length - position)[0]

    def __iter__(self) -> Iterator[T]:
        return iter(self._last(self._length))

    def __reversed__(self) -> Iterator[T]:
        link = self._link
        while link is not None:
            yield link[0]
            link = link[1]

    def __repr__(self) -> str:
        return f"<History of {self._length} values>"

    def __copy__(self) -> History[T]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> History[T]:
        return self


class _Texts(dict[int, tuple[int, str]]):
    """Each seat's information-state text, by the number of states it covers; not copied."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Texts:
        return _Texts()


class _Cache(dict[int, tuple[int, Knowledge, GameState]]):
    """What each seat knows, kept by a state and brought up to date when asked. A clone
    shares the entries: :meth:`UnoState.knowledge` copies a seat's knowledge before it
    updates it, never changing one a clone may hold."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache(self)


def _drawn_from_pile(after: GameState, pile: int) -> int:
    """How many cards the action that led to ``after`` drew from the ``pile``
    cards the draw pile held before it (up to a reshuffle)."""
    drawn = 0
    for event in after.events:
        if event.kind == "reshuffle":
            return pile
        if event.kind == "draw":
            drawn += event.count if event.count is not None else len(event.cards)
        elif event.kind == "move" and event.value("from") == DRAW:
            drawn += event.count or 0
    return min(drawn, pile)


class _Observer:
    """OpenSpiel's observer of a seat: its view (and, with ``recall``, its views
    since the deal and what it knows)."""

    def __init__(self, game: UnoGame, recall: bool) -> None:
        self.game = game
        self.recall = recall
        encoder = game.encoder
        size = len(encoder.low)
        self._cards = len(game.card_list)
        extra = self._cards * (game.players + 1) if recall else 0
        self.tensor = np.zeros(size + 1 + extra, np.float32)
        self.dict: dict[str, Any] = {
            "view": self.tensor[:size],
            "asked": self.tensor[size : size + 1],
        }
        if recall:
            self.dict["known"] = self.tensor[size + 1 :].reshape(game.players + 1, self._cards)

    def set_from(self, state: UnoState, player: int) -> None:
        """The tensor of ``player``'s observation of ``state``."""
        self.tensor.fill(0)
        if state.engine is None:
            return
        view = state.engine.view(player)
        self.dict["view"][:] = self.game.encoder.encode(view)
        self.dict["asked"][0] = 1.0 if state.current_player() == player else 0.0
        if self.recall:
            knowledge = state.knowledge(player)
            index = self.game.card_index
            known = self.dict["known"]
            players = self.game.players
            for k in range(1, players):
                for card, n in knowledge.known((player + k) % players).items():
                    known[k - 1, index[card]] = n
            for card, n in knowledge.known(DRAW).items():
                known[players - 1, index[card]] = n
            for card in view.discard_pile:
                known[players, index[card]] += 1

    def string_from(self, state: UnoState, player: int) -> str:
        """``player``'s observation of ``state`` as text (with ``recall``: a line
        for each view since the deal)."""
        if state.engine is None:
            return f"p{player} dealing"
        if not self.recall:
            return _view_text(state.engine.view(player), state, player)
        return state.information(player) + f"\nasked {state.current_player() == player}"


def _step_text(view: SeatView, player: int) -> str:
    """What ``player`` saw of one action: the action, the events (its own private
    cards included, the others' hidden) and its hand."""
    events = "; ".join(
        f"{e.kind} {e.seat} {' '.join(map(str, e.cards))} {e.count}"
        for e in view.events
        if e.kind != "move" or e.cards
    )
    shown = "; ".join(
        f"{s}: {' '.join(map(str, h))}" for s, h in sorted(view.visible_hands.items()) if s != player
    )
    return f"{view.last_action} | {events} | {' '.join(map(str, view.hand))}" + (
        f" | shown {shown}" if shown else ""
    )


def _view_text(view: SeatView, state: UnoState | None, player: int) -> str:
    hand = " ".join(map(str, view.hand))
    shown = "; ".join(
        f"{s}: {' '.join(map(str, h))}" for s, h in sorted(view.visible_hands.items()) if s != player
    )
    events = "; ".join(
        f"{e.kind} {e.seat} {' '.join(map(str, e.cards))} {e.count}"
        for e in view.events
        if e.kind != "move" or e.cards
    )
    asked = "" if state is None else f" asked {state.current_player() == player}"
    return (
        f"p{player} | {view.last_action} | {events} | hand {hand} | shown {shown} | top {view.top_card} "
        f"{view.color} | sizes {list(view.hand_sizes)} | pile {view.draw_pile_size} | {view.phase.name} "
        f"{view.phase.card} | move {view.current_player} | uno {list(view.uno_declared)} "
        f"{list(view.uno_exposed)} | scores {list(view.scores)}{asked}"
    )


# -- unorules bots in OpenSpiel -----------------------------------------------------------------


class UnorulesBot(pyspiel.Bot):  # type: ignore[misc]
    """A unorules bot playing ``seat`` in an OpenSpiel game of UNO: it is shown its
    seat's views (every one since it last acted) and chooses from the latest."""

    def __init__(self, bot: Bot, seat: int) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.seat = seat
        self._seen = 0

    def restart_at(self, state: UnoState) -> None:
        """A new game from ``state``: the views since its deal are shown at the next step."""
        self._seen = 0

    def inform_action(self, state: UnoState, player_id: int, action: int) -> None:
        """Nothing (``player_id`` took ``action`` in ``state``): the views since the
        bot last acted are shown when it is asked."""

    def step(self, state: UnoState) -> int:
        """The action index the bot takes in ``state`` (the no-op when it lets a window pass)."""
        for engine in state.history_states[self._seen :]:
            show_views(engine, {self.seat: self.bot})
        self._seen = len(state.history_states)
        chosen = self.bot.choose(state.view(self.seat))
        if chosen is None:
            return NOOP
        game: UnoGame = state.get_game()
        return int(game.space._index[self.seat][chosen])


def play(game: UnoGame, bots: Sequence[Any], seed: int = 0) -> list[float]:
    """Play one game of ``game`` between ``bots`` (one per seat: OpenSpiel bots,
    or unorules bots, which are wrapped in :class:`UnorulesBot`), chance drawn from
    ``seed``; returns each seat's return. Each bot is asked only for its moves
    (``step``)."""
    wrapped = [b if isinstance(b, pyspiel.Bot) else UnorulesBot(b, seat) for seat, b in enumerate(bots)]
    if len(wrapped) != game.players:
        raise ValueError(f"{len(wrapped)} bots for a {game.players}-seat game: give one bot per seat")
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(wrapped[state.current_player()].step(state)))
    return list(state.returns())


pyspiel.register_game(_TYPE, UnoGame)

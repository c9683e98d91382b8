"""The batched classic engine: :class:`UnoBatch`.

A batch of ``num_games`` games of ``players`` seats is a handful of arrays,
one row per game (see :class:`UnoBatch` for each): hands as card counts per
seat, one 108-slot array per game holding both piles (the discard pile from
slot 0 up, the draw pile from a pointer to the end), the top card, colour,
direction, phase, seat to move, UNO calls and exposures, scores and each
game's SplitMix64 generator state. Every rule is applied to all the games
it concerns at once with NumPy; the rare events that take a game's
generator (a reshuffle of the discard pile, a Wild Draw Four starter sent
back) are carried out game by game with :class:`unorules.Rng`, the
reference engine's own generator.

Identity with the reference engine: game ``g`` of the batch is
``ruleset.new_game(players, seed=int(batch.seeds[g]))`` played with the same
actions through the out-of-turn window protocol of
:class:`unorules.rl.UnoAECEnv`: the same deal (dealer drawn as the classic
plugin draws), the same draws and reshuffles, the same generator state, the
same scores. The card order within a hand is not kept (a hand is counts):
nothing in the classic rules depends on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from unorules.cards import Card
from unorules.errors import IllegalActionError
from unorules.rng import Rng, Seed, seed_state
from unorules.ruleset import Ruleset

__all__ = ["SUPPORTED_OPTIONS", "StepResult", "UnoBatch", "VectorError"]

from unorules.vector.layout import (
    _COLOURED_COLOR,
    _COLOURED_KIND,
    _GAMMA,
    _GAMMA_INT,
    _MASK64,
    _OBS_BASE,
    _VECTOR_SHUFFLE,
    CARD_COLOR,
    CARD_KIND,
    CARDS,
    CATCH,
    CHALLENGE,
    COLOR,
    DECK_SIZE,
    DRAW,
    DRAW2,
    DRAWN,
    F32,
    I8,
    I16,
    I32,
    NOOP,
    PASS,
    PENALTY,
    PHASE_NAMES,
    PLAY,
    PLAY_WILD,
    PLAY_WILD4,
    REVERSE,
    SKIP,
    SUPPORTED_OPTIONS,
    U8,
    U64,
    UNO,
    WILD,
    WILD4,
    Bools,
    Index,
    StepResult,
    VectorError,
    _card_list,
    _check_ruleset,
    _decode_play,
    _limits,
    _mix,
    _seed_int,
)


class UnoBatch:
    """``num_games`` games of classic UNO with ``players`` seats, stepped together.

    >>> from unorules.vector import UnoBatch
    >>> batch = UnoBatch(4, players=2, seed=1)
    >>> mask = batch.mask()
    >>> mask.shape, batch.observe().shape
    ((4, 71), (4, 192))
    >>> actions = mask.argmax(axis=1)  # a policy goes here: any legal index per game
    >>> result = batch.step(actions)
    >>> result.rewards.shape, result.done.shape
    ((4, 2), (4,))

    ``rules`` is a :class:`~unorules.Ruleset` or plugin names (only
    ``["classic"]``), ``options`` classic's options (see
    :data:`SUPPORTED_OPTIONS`). ``episode="game"`` (default) plays each game
    to its outcome (``target_score``); ``"round"`` ends it after its first
    round, like ``unorules.rl.raw_env(..., episode="round")``. ``reward="win"``
    gives +1 to the winner and -1 to every other seat when an episode ends;
    ``"points"`` the game's scores (the round's points for ``episode="round"``)
    divided by 100. ``final_observations=True`` keeps every seat's observation
    of each episode's last state (:attr:`final_observations`), as
    :mod:`unorules.vector.aec` shows it to terminated agents.

    Each step one seat of each game acts: :attr:`to_act`, chosen by the
    out-of-turn window protocol of :class:`unorules.rl.UnoAECEnv` (after an
    action that left a seat open to an UNO catch, every other seat is offered
    the window in turn order from the seat to move, and takes its catch or
    call, or the no-op 0; then the seat to move acts). :meth:`mask` and
    :meth:`observe` are that seat's.

    Seeds: ``seed`` seeds a stream (SplitMix64 over ``seed_state(seed)``)
    from which every game the batch deals takes its own integer seed, in
    slot order at the start and then in slot order as games end; the seed of
    each slot's current game is :attr:`seeds`. ``reset(seeds=...)`` gives the
    first games' seeds explicitly.
    """

    def __init__(
        self,
        num_games: int,
        players: int = 2,
        rules: Ruleset | Sequence[str] = ("classic",),
        options: Mapping[str, Any] | None = None,
        episode: str = "game",
        reward: str = "win",
        seed: Seed = None,
        final_observations: bool = False,
    ) -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
            raise VectorError(f"num_games must be a positive integer, not {num_games!r}")
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
            raise VectorError(f"players must be 2 to 10, not {players!r}")
        if episode not in ("game", "round"):
            raise VectorError(f"episode must be 'game' or 'round', not {episode!r}")
        if reward not in ("win", "points"):
            raise VectorError(f"reward must be 'win' or 'points', not {reward!r}")
        self.ruleset = _check_ruleset(rules, options)
        """The :class:`~unorules.Ruleset` played (classic alone)."""
        self.num_games = num_games
        """The number of games in the batch."""
        self.players = players
        """Seats per game."""
        self.episode = episode
        self.reward = reward
        opts = self.ruleset.options
        self._target = int(opts["target_score"])
        self._uno_penalty = int(opts["uno_penalty"])
        self._challenge = bool(opts["challenge"])
        self._may_keep = opts["drawn_card"] == "may-keep"
        self._dealer_starts = opts["opening_reverse"] == "dealer-starts"
        self._returned = (WILD4, WILD) if opts["opening_wild"] == "redraw" else (WILD4,)
        cards = _card_list()
        index = {c: i for i, c in enumerate(cards)}
        self.cards: tuple[Card, ...] = tuple(cards)
        """The 54 distinct cards, in the order of card indices (that of :mod:`unorules.rl`)."""
        self._deck: list[int] = [index[c] for c in self.ruleset.deck]
        self._deck_row: U8 = np.array(self._deck, dtype=np.uint8)
        self._points: I32 = np.array([self.ruleset.card_points(c) for c in cards], dtype=np.int32)
        if opts["dealer_draw"] == "points":
            self._dealer_value = [int(p) for p in self._points]
        else:
            self._dealer_value = [int(k) if k < 10 else 0 for k in CARD_KIND]
        self.num_actions = 69 + players
        """The number of action indices (``unorules.rl.ActionSpace(...).n``)."""
        self._challenge_index = 63 + players
        self._accept_index = 64 + players
        self._color_index = 65 + players
        self.observation_size = _OBS_BASE + 2 + 7 * players
        """The length of an observation (``unorules.rl.ObservationEncoder(...).size``)."""
        self._limits = _limits(DECK_SIZE)
        self.final_observations: F32 | None = (
            np.zeros((num_games, players, self.observation_size), dtype=np.float32)
            if final_observations
            else None
        )
        """With ``final_observations=True``, ``(games, seats, observation_size)``: for each game
        whose episode ended in the last :meth:`step` (``done``), every seat's observation of the
        episode's last state, as :class:`unorules.rl.UnoAECEnv` shows it to a terminated agent
        (the next round's deal when an ``episode="round"`` game goes on); rows of the other
        games hold older values. ``None`` otherwise (the default: it costs memory and time)."""

        b, n = num_games, players
        self.hands: U8 = np.zeros((b, n, CARDS), dtype=np.uint8)
        """``(games, seats, 54)``: copies of each card in each hand."""
        self.hand_sizes: U8 = np.zeros((b, n), dtype=np.uint8)
        """``(games, seats)``: cards in each hand."""
        self.pile: U8 = np.zeros((b, DECK_SIZE), dtype=np.uint8)
        """``(games, 108)``: both piles of each game. Slots ``0 .. discard_size - 1`` hold the
        discard pile, bottom first (its top card last); slots ``draw_at .. 107`` the draw pile,
        the next card first. (``draw_at - discard_size`` is the number of cards in hands.)"""
        self.discard_size: I16 = np.zeros(b, dtype=np.int16)
        """Cards in the discard pile."""
        self.draw_at: I16 = np.zeros(b, dtype=np.int16)
        """Where the draw pile starts in :attr:`pile` (108: empty)."""
        self.color: I8 = np.zeros(b, dtype=np.int8)
        """The colour to match: 0 red, 1 yellow, 2 green, 3 blue, -1 none (a wild starter)."""
        self.direction: I8 = np.ones(b, dtype=np.int8)
        """1 in seat order, -1 against it."""
        self.current: I8 = np.zeros(b, dtype=np.int8)
        """The seat to move."""
        self.window: I8 = np.zeros(b, dtype=np.int8)
        """The out-of-turn window: 0 when the seat to move is asked, else ``k``: the seat ``k``
        places after it in the direction of play is being offered the window."""
        self.phase: I8 = np.zeros(b, dtype=np.int8)
        """The phase: 0 challenge, 1 color, 2 drawn, 3 penalty, 4 play (:data:`PHASE_NAMES`)."""
        self.phase_count: I8 = np.zeros(b, dtype=np.int8)
        """``phase.count``: cards to draw."""
        self.phase_card: I8 = np.full(b, -1, dtype=np.int8)
        """``phase.card`` (a card index, -1 none)."""
        self.phase_seat: I8 = np.full(b, -1, dtype=np.int8)
        """``phase.seat`` (-1 none)."""
        self.phase_color: I8 = np.full(b, -1, dtype=np.int8)
        """``phase.color`` (-1 none)."""
        self.dealer: I8 = np.zeros(b, dtype=np.int8)
        """The dealer of the round."""
        self.exposed: I8 = np.full(b, -1, dtype=np.int8)
        """The seat open to an UNO catch (-1 none; classic's rules never expose two at once)."""
        self.declared: Bools = np.zeros((b, n), dtype=np.bool_)
        """``(games, seats)``: the seats whose UNO call stands (``uno_declared``)."""
        self.stalled: I8 = np.zeros(b, dtype=np.int8)
        """Turns in a row that ended without a card drawn (a blocked round at ``players``)."""
        self.scores: I32 = np.zeros((b, n), dtype=np.int32)
        """``(games, seats)``: the game's scores."""
        self.rounds: I16 = np.zeros(b, dtype=np.int16)
        """Rounds finished in the game."""
        self.rng: U64 = np.zeros(b, dtype=np.uint64)
        """Each game's generator state (``GameState.rng``)."""
        self.seeds: U64 = np.zeros(b, dtype=np.uint64)
        """The seed each slot's current game was dealt from (``new_game(seed=int(seeds[g]))``)."""
        self._stream = Rng(0)
        self._mask: I8 = np.zeros((b, self.num_actions), dtype=np.int8)
        self._mask_valid = False
        self._all = np.arange(b, dtype=np.intp)
        self.reset(seed=seed)

    def __repr__(self) -> str:
        return f"<UnoBatch {self.num_games} games of classic, {self.players} players, episode={self.episode}>"

    # -- public API ------------------------------------------------------------------------

    @property
    def to_act(self) -> I8:
        """``(games,)``: the seat asked to act in each game (whose :meth:`mask` it is)."""
        n = self.players
        moved = (self.current.astype(np.int16) + self.direction * self.window.astype(np.int16)) % n
        return np.where(self.window == 0, self.current, moved).astype(np.int8)

    @property
    def nbytes(self) -> int:
        """Bytes held by the batch's state arrays (its cached mask included)."""
        arrays = [v for v in vars(self).values() if isinstance(v, np.ndarray)]
        return int(sum(a.nbytes for a in arrays))

    def reset(self, seed: Seed = None, seeds: Sequence[int] | npt.NDArray[Any] | None = None) -> None:
        """Deal a new game in every slot. ``seed`` restarts the stream of game seeds
        (``None``: a fresh random one); ``seeds`` (one non-negative integer per game)
        gives the new games' seeds instead, the stream still seeding later games."""
        try:
            self._stream = Rng(seed_state(seed))
        except TypeError as exc:
            raise VectorError(str(exc)) from None
        given: list[int] | None = None
        if seeds is not None:
            given = [_seed_int(s) for s in np.asarray(seeds).reshape(-1).tolist()]
            if len(given) != self.num_games:
                raise VectorError(f"seeds: give {self.num_games} seeds (one per game), not {len(given)}")
        self.scores[:] = 0
        self._new_games(self._all, given)
        self._mask_valid = False

    def reset_games(self, games: npt.ArrayLike, seeds: Sequence[int] | None = None) -> None:
        """Deal a new game in each slot of ``games`` (slot numbers), from the next seeds
        of the stream, or from ``seeds`` (one per slot given); the other games go on."""
        g = np.asarray(games, dtype=np.intp).reshape(-1)
        if g.size and (g.min() < 0 or g.max() >= self.num_games or np.unique(g).size != g.size):
            raise VectorError(f"games: distinct slot numbers from 0 to {self.num_games - 1}")
        given = None
        if seeds is not None:
            given = [_seed_int(s) for s in np.asarray(seeds).reshape(-1).tolist()]
            if len(given) != g.size:
                raise VectorError(f"seeds: give one seed per game reset ({g.size}), not {len(given)}")
        if g.size:
            self._new_games(g, given)
            self._mask_valid = False

    def mask(self, out: I8 | None = None) -> I8:
        """``(games, actions)`` ``int8``: 1 for each legal index of the seat :attr:`to_act`
        (the no-op 0 when it is being offered a window), as ``unorules.rl``'s mask."""
        if not self._mask_valid:
            self._compute_mask()
        if out is None:
            return self._mask.copy()
        out[...] = self._mask
        return out

    def observe(self, seats: npt.ArrayLike | None = None, out: F32 | None = None) -> F32:
        """``(games, observation_size)`` ``float32``: each game's observation for ``seats``
        (one seat per game; default :attr:`to_act`), laid out and valued exactly as
        :class:`unorules.rl.ObservationEncoder` encodes that seat's view."""
        b, n = self.num_games, self.players
        seat = self.to_act.astype(np.intp) if seats is None else np.asarray(seats).astype(np.intp)
        if seat.shape != (b,) or ((seat < 0) | (seat >= n)).any():
            raise VectorError(f"seats: give one seat from 0 to {n - 1} per game ({b} games)")
        if out is None:
            out = np.zeros((b, self.observation_size), dtype=np.float32)
        else:
            if out.shape != (b, self.observation_size) or out.dtype != np.float32:
                raise VectorError(f"out must be a float32 array of shape {(b, self.observation_size)}")
            out.fill(0.0)
        self._encode(self._all, seat, out)
        return out

    def _encode(self, g: Index, seat: Index, out: F32) -> None:
        """Write games ``g``'s observations for ``seat`` (one per game) into the zeroed
        rows of ``out`` (one row per game of ``g``)."""
        n = self.players
        r = np.arange(g.size)
        cur = self.current[g].astype(np.intp)
        out[:, :CARDS] = self.hands[g, seat]
        top = self.pile[g, self.discard_size[g] - 1].astype(np.intp)
        out[r, CARDS + top] = 1.0
        colour = self.color[g].astype(np.intp)
        has_colour = colour >= 0
        out[r[has_colour], 108 + colour[has_colour]] = 1.0
        phase = self.phase[g]
        out[r, 112 + phase.astype(np.intp)] = 1.0
        out[:, 117] = self.phase_count[g]
        card = self.phase_card[g].astype(np.intp)
        shown = (card >= 0) & ((phase != DRAWN) | (cur == seat))
        out[r[shown], 118 + card[shown]] = 1.0
        at_seat = 172
        ps = self.phase_seat[g].astype(np.intp)
        some = ps >= 0
        out[r[some], at_seat + (ps[some] - seat[some]) % n] = 1.0
        at_colour = at_seat + n
        pc = self.phase_color[g].astype(np.intp)
        some = pc >= 0
        out[r[some], at_colour + pc[some]] = 1.0
        at_move = at_colour + 4
        out[r, at_move + (cur - seat) % n] = 1.0
        rel = (seat[:, None] + np.arange(n)[None, :]) % n  # entry k: the seat k places after
        at_sizes = at_move + n
        out[:, at_sizes : at_sizes + n] = self.hand_sizes[g[:, None], rel]
        at_declared = at_sizes + n
        out[:, at_declared : at_declared + n] = self.declared[g[:, None], rel]
        at_exposed = at_declared + n
        ex = self.exposed[g].astype(np.intp)
        some = ex >= 0
        out[r[some], at_exposed + (ex[some] - seat[some]) % n] = 1.0
        at_direction = at_exposed + 2 * n  # after ``left`` (no seat leaves a classic game)
        out[:, at_direction] = self.direction[g]
        out[:, at_direction + 1] = DECK_SIZE - self.draw_at[g]
        at_scores = at_direction + 2
        out[:, at_scores : at_scores + n] = self.scores[g[:, None], rel] / np.float32(100.0)

    def step(self, actions: npt.ArrayLike, active: npt.ArrayLike | None = None) -> StepResult:
        """Each game's seat :attr:`to_act` takes its index of ``actions`` (one per game).

        With ``active`` (one bool per game) only those games take their action; the
        others are left as they are (their entries of ``actions`` are not read). An
        index that is not legal (see :meth:`mask`) raises
        :class:`~unorules.IllegalActionError` naming the first such game, and no game
        changes. A game whose episode ends is scored (:class:`StepResult`) and its
        slot dealt a new game at once.
        """
        b, n = self.num_games, self.players
        raw = np.asarray(actions)
        if raw.shape != (b,) or not (np.issubdtype(raw.dtype, np.integer) or raw.dtype == np.bool_):
            raise VectorError(f"actions: give one integer index per game, shape ({b},), not {raw.shape}")
        act = raw.astype(np.intp)
        if active is None:
            on: Bools = np.ones(b, dtype=np.bool_)
        else:
            on = np.asarray(active)
            if on.shape != (b,) or on.dtype != np.bool_:
                raise VectorError(f"active: give one bool per game, shape ({b},)")
        mask = self._mask if self._mask_valid else self._compute_mask()
        inside = (act >= 0) & (act < self.num_actions)
        legal = np.zeros(b, dtype=np.bool_)
        legal[inside] = mask[self._all[inside], act[inside]] == 1
        bad = np.nonzero(on & ~legal)[0]
        if bad.size:
            self._refuse(int(bad[0]), int(act[bad[0]]))
        g_all = np.nonzero(on)[0]
        act_on = act[g_all]
        seat_on = self.to_act[g_all].astype(np.intp)
        rewards = np.zeros((b, n), dtype=np.float32)
        done = np.zeros(b, dtype=np.bool_)
        final_scores = np.zeros((b, n), dtype=np.int32)
        final_winner = np.full(b, -1, dtype=np.int8)

        noop = act_on == NOOP
        if noop.any():
            g = g_all[noop]
            w = self.window[g] + 1
            self.window[g] = np.where(w >= n, 0, w)
        acted = g_all[~noop]
        if acted.size == 0:
            self._mask_valid = False
            return StepResult(rewards, done, final_scores, final_winner)
        act_on = act_on[~noop]
        seat_on = seat_on[~noop]
        winner = np.full(b, -1, dtype=np.int8)  # the round's winner, for games whose round ended

        plays = act_on <= 60
        if plays.any():
            self._play(acted[plays], seat_on[plays], act_on[plays], winner)
        sel = act_on == DRAW
        if sel.any():
            self._draw_action(acted[sel], seat_on[sel], winner)
        sel = act_on == PASS
        if sel.any():
            g = acted[sel]
            self.exposed[g] = -1
            self._pass_turn(g, seat_on[sel], 1)
        sel = act_on == UNO
        if sel.any():
            g = acted[sel]
            s = seat_on[sel]
            late = self.exposed[g] == s
            self.exposed[g[late]] = -1
            self.declared[g[~late], s[~late]] = True
        sel = (act_on >= CATCH) & (act_on < self._challenge_index)
        if sel.any():
            g = acted[sel]
            target = (seat_on[sel] + act_on[sel] - (CATCH - 1)) % n
            self.exposed[g] = -1
            self._draw(g, target, np.full(g.size, self._uno_penalty, dtype=np.intp))
        sel = act_on == self._challenge_index
        if sel.any():
            self._challenge_action(acted[sel], seat_on[sel])
        sel = act_on == self._accept_index
        if sel.any():
            g = acted[sel]
            s = seat_on[sel]
            self.exposed[g] = -1
            self._draw(g, s, self.phase_count[g].astype(np.intp))
            self._pass_turn(g, s, 1)
        sel = act_on >= self._color_index
        if sel.any():
            g = acted[sel]
            self.color[g] = act_on[sel] - self._color_index
            self._set_play(g)

        self.window[acted] = np.where(self.exposed[acted] >= 0, 1, 0)
        ended = acted[winner[acted] >= 0]
        if ended.size:
            self._end_rounds(ended, winner[ended], rewards, done, final_scores, final_winner)
        self._mask_valid = False
        return StepResult(rewards, done, final_scores, final_winner)

    def describe(self, index: int) -> str:
        """The text of an action index, as ``unorules.rl.ActionSpace.describe`` gives it."""
        n = self.players
        if not 0 <= index < self.num_actions:
            raise VectorError(f"action index {index!r} is outside 0..{self.num_actions - 1}")
        if index == NOOP:
            return "noop"
        if index <= 52:
            return f"play {self.cards[index - 1]}"
        colours = "RYGB"
        if index < PLAY_WILD4:
            return f"play W {colours[index - PLAY_WILD]}"
        if index < DRAW:
            return f"play W+4 {colours[index - PLAY_WILD4]}"
        if index == DRAW:
            return "draw"
        if index == PASS:
            return "pass"
        if index == UNO:
            return "uno"
        if index < 63 + n:
            return f"catch +{index - UNO}"
        if index == self._challenge_index:
            return "challenge"
        if index == self._accept_index:
            return "accept"
        return f"color {colours[index - self._color_index]}"

    def game_state(self, game: int) -> dict[str, Any]:
        """Game ``game`` as plain values, for comparison and debugging: hands (card
        texts, canonical order), piles (the discard pile bottom first, the draw pile
        next card first), colour, direction, seat to move, phase, dealer, scores, UNO
        calls and exposures, blocked-turn count, rounds and generator state."""
        if isinstance(game, bool) or not isinstance(game, int | np.integer) or not 0 <= game < self.num_games:
            raise VectorError(f"no game {game!r} in a batch of {self.num_games}")
        g = int(game)
        cards = self.cards
        colours = ("R", "Y", "G", "B")

        def colour(c: int) -> str | None:
            return None if c < 0 else colours[c]

        hands = []
        for s in range(self.players):
            row = self.hands[g, s]
            hands.append(tuple(str(cards[c]) for c in range(CARDS) for _ in range(int(row[c]))))
        d, p = int(self.discard_size[g]), int(self.draw_at[g])
        card = int(self.phase_card[g])
        seat = int(self.phase_seat[g])
        return {
            "hands": tuple(hands),
            "discard_pile": tuple(str(cards[c]) for c in self.pile[g, :d]),
            "draw_pile": tuple(str(cards[c]) for c in self.pile[g, p:]),
            "color": colour(int(self.color[g])),
            "direction": int(self.direction[g]),
            "current_player": int(self.current[g]),
            "phase": (
                PHASE_NAMES[int(self.phase[g])],
                int(self.phase_count[g]),
                None if card < 0 else str(cards[card]),
                None if seat < 0 else seat,
                colour(int(self.phase_color[g])),
            ),
            "dealer": int(self.dealer[g]),
            "scores": tuple(int(x) for x in self.scores[g]),
            "uno_declared": tuple(s for s in range(self.players) if self.declared[g, s]),
            "uno_exposed": () if self.exposed[g] < 0 else (int(self.exposed[g]),),
            "stalled": int(self.stalled[g]),
            "rounds": int(self.rounds[g]),
            "rng": int(self.rng[g]),
        }

    # -- legal actions ---------------------------------------------------------------------

    def _compute_mask(self) -> I8:
        mask = self._mask
        mask.fill(0)
        n = self.players
        g = self._all
        cur = self.current.astype(np.intp)
        asked_now = self.window == 0
        phase = self.phase
        hand = self.hands[g, cur]  # the seat to move's hand
        size = self.hand_sizes[g, cur]
        may_call = (size == 2) & ~self.declared[g, cur]

        rows = np.nonzero(asked_now & (phase == PLAY))[0]
        if rows.size:
            h = hand[rows]
            col = self.color[rows]
            top_kind = CARD_KIND[self.pile[rows, self.discard_size[rows] - 1]]
            same_colour = _COLOURED_COLOR[None, :] == col[:, None]
            matching = (h[:, :52] > 0) & (same_colour | (_COLOURED_KIND[None, :] == top_kind[:, None]))
            wild = h[:, WILD] > 0
            wild4 = h[:, WILD4] > 0
            if not self._challenge:
                wild4 &= ~((h[:, :52] > 0) & same_colour).any(axis=1)
            mask[rows, 1:53] = matching
            mask[rows, PLAY_WILD:PLAY_WILD4] = wild[:, None]
            mask[rows, PLAY_WILD4:DRAW] = wild4[:, None]
            can_play = matching.any(axis=1) | wild | wild4
            mask[rows, DRAW] = (self.draw_at[rows] < DECK_SIZE) | (self.discard_size[rows] > 1) | ~can_play
            mask[rows, UNO] = may_call[rows]
        rows = np.nonzero(asked_now & (phase == DRAWN))[0]
        if rows.size:
            card = self.phase_card[rows].astype(np.intp)
            playable = self._playable(rows, cur[rows], card)
            coloured = playable & (card < 52)
            mask[rows[coloured], 1 + card[coloured]] = 1
            for kind, start in ((WILD, PLAY_WILD), (WILD4, PLAY_WILD4)):
                some = rows[playable & (card == kind)]
                mask[some, start : start + 4] = 1
            if self._may_keep:
                mask[rows, PASS] = 1
            else:
                mask[rows[~playable], PASS] = 1
            mask[rows, UNO] = may_call[rows]
        rows = np.nonzero(asked_now & (phase == PENALTY))[0]
        mask[rows, DRAW] = 1
        rows = np.nonzero(asked_now & (phase == CHALLENGE))[0]
        mask[rows, self._challenge_index] = 1
        mask[rows, self._accept_index] = 1
        rows = np.nonzero(asked_now & (phase == COLOR))[0]
        mask[rows, self._color_index : self._color_index + 4] = 1
        rows = np.nonzero(self.exposed >= 0)[0]
        if rows.size:
            asked = self.to_act[rows].astype(np.intp)
            exposed = self.exposed[rows].astype(np.intp)
            itself = asked == exposed
            mask[rows[itself], UNO] = 1
            other = ~itself
            mask[rows[other], UNO + (exposed[other] - asked[other]) % n] = 1
        mask[~asked_now, NOOP] = 1
        self._mask_valid = True
        return mask

    def _playable(self, g: Index, seat: Index, card: Index) -> Bools:
        """Classic's ``is_playable``: ``card`` on each game's top card, for ``seat``."""
        colour = CARD_COLOR[card]
        kind = CARD_KIND[card]
        col = self.color[g]
        top_kind = CARD_KIND[self.pile[g, self.discard_size[g] - 1]]
        ok: Bools = (colour < 0) | (colour == col) | (kind == top_kind)
        if not self._challenge:
            w4 = np.nonzero(card == WILD4)[0]
            if w4.size:
                h = self.hands[g[w4], seat[w4], :52] > 0
                holds = (h & (_COLOURED_COLOR[None, :] == col[w4, None])).any(axis=1)
                ok[w4] = ~holds
        return ok

    def _refuse(self, game: int, index: int) -> None:
        seat = int(self.to_act[game])
        legal = np.nonzero(self._mask[game])[0]
        what = self.describe(index) if 0 <= index < self.num_actions else "outside the action space"
        names = ", ".join(f"{i} ({self.describe(int(i))})" for i in legal)
        raise IllegalActionError(
            f"game {game}: action {index} ({what}) is not legal for seat {seat} now; "
            f"legal indices: {names}; no game was changed"
        )

    # -- the rules ---------------------------------------------------------------------------

    def _set_play(self, g: Index) -> None:
        self.phase[g] = PLAY
        self.phase_count[g] = 0
        self.phase_card[g] = -1
        self.phase_seat[g] = -1
        self.phase_color[g] = -1

    def _pass_turn(self, g: Index, seat: Index, steps: int | Index) -> None:
        """``pass_turn(steps, seat)``: the seat ``steps`` after ``seat`` moves, phase ``play``."""
        self.current[g] = (seat + self.direction[g] * steps) % self.players
        self._set_play(g)

    def _play(self, g: Index, seat: Index, index: Index, winner: I8) -> None:
        n = self.players
        card, colour = _decode_play(index)
        before = self.color[g].copy()
        self.hands[g, seat, card] -= 1
        size = self.hand_sizes[g, seat] - 1
        self.hand_sizes[g, seat] = size
        at = self.discard_size[g]
        self.pile[g, at] = card
        self.discard_size[g] = at + 1
        self.color[g] = colour
        self.exposed[g] = np.where((size == 1) & ~self.declared[g, seat], seat, -1)
        self.declared[g, seat] = False
        self.stalled[g] = 0
        self.current[g] = seat
        kind = CARD_KIND[card]
        direction = self.direction[g]
        out = size == 0
        if out.any():  # R-OUT; R-OUT-LAST-DRAW: the next seat still draws for a last Draw card
            go, so, ko = g[out], seat[out], kind[out]
            hit = (ko == DRAW2) | (ko == 14)
            if hit.any():
                gh = go[hit]
                nxt = (so[hit] + self.direction[gh]) % n
                self._draw(gh, nxt, np.where(ko[hit] == DRAW2, 2, 4).astype(np.intp))
            winner[go] = so
        on = ~out
        g, seat, kind, card = g[on], seat[on], kind[on], card[on]
        before, direction = before[on], direction[on]
        plain = (kind < 10) | (kind == 13)
        self._pass_turn(g[plain], seat[plain], 1)
        sel = kind == SKIP
        self._pass_turn(g[sel], seat[sel], 2)
        sel = kind == REVERSE
        if sel.any():
            gr = g[sel]
            self.direction[gr] = -direction[sel]
            self._pass_turn(gr, seat[sel], 2 if n == 2 else 1)
        for which in (DRAW2, 14):
            sel = kind == which
            if not sel.any():
                continue
            gd = g[sel]
            self.current[gd] = (seat[sel] + direction[sel]) % n
            if which == DRAW2:
                self.phase[gd] = PENALTY
                self.phase_count[gd] = 2
                self.phase_color[gd] = -1
            else:
                self.phase[gd] = CHALLENGE if self._challenge else PENALTY
                self.phase_count[gd] = 4
                self.phase_color[gd] = before[sel]
            self.phase_card[gd] = card[sel]
            self.phase_seat[gd] = seat[sel]

    def _draw_action(self, g: Index, seat: Index, winner: I8) -> None:
        self.exposed[g] = -1  # R-UNO-CATCH: a turn action closes the window
        pen = self.phase[g] == PENALTY
        if pen.any():
            gp, sp = g[pen], seat[pen]
            self._draw(gp, sp, self.phase_count[gp].astype(np.intp))
            self._pass_turn(gp, sp, 1)
        g, seat = g[~pen], seat[~pen]
        if g.size == 0:
            return
        drawn = self._draw(g, seat, np.ones(g.size, dtype=np.intp))
        got = drawn >= 0
        gg, sg, cg = g[got], seat[got], drawn[got]
        self.stalled[gg] = 0
        playable = self._playable(gg, sg, cg)
        gk = gg[playable]
        self.phase[gk] = DRAWN
        self.phase_count[gk] = 0
        self.phase_card[gk] = cg[playable]
        self.phase_seat[gk] = -1
        self.phase_color[gk] = -1
        self._pass_turn(gg[~playable], sg[~playable], 1)
        gn, sn = g[~got], seat[~got]
        if gn.size:  # nothing to draw: a stalled turn; every seat in turn: a blocked round
            stalled = self.stalled[gn] + 1
            self.stalled[gn] = stalled
            blocked = stalled >= self.players
            self._pass_turn(gn[~blocked], sn[~blocked], 1)
            gb = gn[blocked]
            if gb.size:
                value = (self.hands[gb].astype(np.int32) * self._points).sum(axis=2)
                winner[gb] = np.argmin(value, axis=1)  # the fewest hand points; ties: the lowest seat

    def _challenge_action(self, g: Index, seat: Index) -> None:
        self.exposed[g] = -1
        bluffer = self.phase_seat[g].astype(np.intp)
        before = self.phase_color[g]
        held = self.hands[g, bluffer, :52] > 0
        guilty = (held & (_COLOURED_COLOR[None, :] == before[:, None])).any(axis=1)
        count = self.phase_count[g].astype(np.intp)
        gg = g[guilty]
        self._draw(gg, bluffer[guilty], count[guilty])
        self._set_play(gg)  # the challenger plays on; the named colour stands
        gi = g[~guilty]
        self._draw(gi, seat[~guilty], count[~guilty] + 2)
        self._pass_turn(gi, seat[~guilty], 1)

    def _draw(self, g: Index, seat: Index, count: Index) -> Index:
        """Each ``seat`` of games ``g`` draws ``count`` cards (the draft's ``draw``: with the
        discard pile but its top card shuffled into a new draw pile when the pile runs
        out); returns the last card each drew (-1: none)."""
        last = np.full(g.size, -1, dtype=np.intp)
        if g.size == 0:
            return last
        got = np.zeros(g.size, dtype=np.intp)
        for k in range(int(count.max())):
            want = np.nonzero(count > k)[0]
            empty = want[self.draw_at[g[want]] >= DECK_SIZE]
            if empty.size:
                for i in empty.tolist():
                    self._reshuffle(int(g[i]))
                want = want[self.draw_at[g[want]] < DECK_SIZE]
                if want.size == 0:
                    break
            gw = g[want]
            at = self.draw_at[gw]
            card = self.pile[gw, at].astype(np.intp)
            self.hands[gw, seat[want], card] += 1
            self.draw_at[gw] = at + 1
            last[want] = card
            got[want] += 1
        self.hand_sizes[g, seat] += got.astype(np.uint8)
        drew = got > 0
        closed = drew & (self.exposed[g] == seat)
        self.exposed[g[closed]] = -1
        return last

    def _reshuffle(self, game: int) -> None:
        """R-TURN-RESHUFFLE in one game: the discard pile but its top card, shuffled, is
        the new draw pile (nothing happens with a one-card discard pile)."""
        d = int(self.discard_size[game])
        if d <= 1:
            return
        rest = self.pile[game, : d - 1].tolist()
        rng = Rng(int(self.rng[game]))
        rng.shuffle(rest)
        self.rng[game] = rng.state
        top = self.pile[game, d - 1]
        k = d - 1
        self.pile[game, DECK_SIZE - k :] = rest
        self.pile[game, 0] = top
        self.discard_size[game] = 1
        self.draw_at[game] = DECK_SIZE - k

    # -- rounds, deals, games ------------------------------------------------------------

    def _end_rounds(
        self, g: Index, winner: I8, rewards: F32, done: Bools, final_scores: I32, final_winner: I8
    ) -> None:
        n = self.players
        value = (self.hands[g].astype(np.int32) * self._points).sum(axis=2)  # hand points per seat
        w = winner.astype(np.intp)
        points = np.zeros((g.size, n), dtype=np.int32)
        points[np.arange(g.size), w] = value.sum(axis=1) - value[np.arange(g.size), w]
        self.scores[g] += points
        self.rounds[g] += 1
        scores = self.scores[g]
        over = scores.max(axis=1) >= self._target
        if self.episode == "round":
            ends = np.ones(g.size, dtype=np.bool_)
            best = w  # the round's winner
        else:
            ends = over
            best = np.argmax(scores, axis=1)  # the highest score; ties: the lowest seat
        ge = g[ends]
        if ge.size:
            won = best[ends]
            done[ge] = True
            final_scores[ge] = self.scores[ge]
            final_winner[ge] = won
            if self.reward == "win":
                r = np.full((ge.size, n), -1.0, dtype=np.float32)
                r[np.arange(ge.size), won] = 1.0
                rewards[ge] = r
            elif self.episode == "round":
                rewards[ge] = points[ends] / np.float32(100.0)
            else:
                rewards[ge] = self.scores[ge] / np.float32(100.0)
            if self.final_observations is not None:
                self._final_views(ge, over[ends])
            self.scores[ge] = 0
            self._new_games(ge, None)
        gn = g[~ends]
        if gn.size:
            orders, states = self._shuffled_decks(self.rng[gn])
            self.rng[gn] = states
            dealer = (self.dealer[gn].astype(np.intp) + 1) % n
            self._deal(gn, dealer, orders)

    def _final_views(self, g: Index, over: Bools) -> None:
        """Every seat's observation of the last state of games ``g`` (their episode ended)
        into :attr:`final_observations`: the state the round ended in for a game that is
        over, else (an ``episode="round"`` game going on) its next round, dealt as the
        reference engine deals it at once (the slot's new game replaces it after)."""
        assert self.final_observations is not None
        n = self.players
        going = g[~over]
        if going.size:
            orders, states = self._shuffled_decks(self.rng[going])
            self.rng[going] = states
            self._deal(going, (self.dealer[going].astype(np.intp) + 1) % n, orders)
        ended = g[over]
        self.declared[ended] = False  # the game's outcome clears UNO calls and exposures
        self.exposed[ended] = -1
        rows = np.zeros((g.size, self.observation_size), dtype=np.float32)
        for seat in range(n):
            rows.fill(0.0)
            self._encode(g, np.full(g.size, seat, dtype=np.intp), rows)
            self.final_observations[g, seat] = rows

    def _new_games(self, g: Index, given: list[int] | None) -> None:
        """Deal a new game (``Ruleset.new_game``) in each slot of ``g``."""
        stream = self._stream
        seeds = given if given is not None else [stream.next64() >> 1 for _ in range(g.size)]
        self.seeds[g] = np.array(seeds, dtype=np.uint64)
        states = np.array([seed_state(s) for s in seeds], dtype=np.uint64)
        self.scores[g] = 0
        self.rounds[g] = 0
        # R-SETUP-DEALER (classic's choose_dealer): a shuffled deck, each seat draws from
        # its end, the tied highest draw again (a fresh deck when the pile runs short).
        piles, states = self._shuffled_decks(states)
        n = self.players
        value = self._dealer_value
        dealers = np.zeros(g.size, dtype=np.intp)
        for i, row in enumerate(piles.tolist()):
            pile = row
            contenders = list(range(n))
            state = int(states[i])
            while len(contenders) > 1:
                if len(pile) < len(contenders):
                    pile = list(self._deck)
                    rng = Rng(state)
                    rng.shuffle(pile)
                    state = rng.state
                drawn = {s: value[pile.pop()] for s in contenders}
                best = max(drawn.values())
                contenders = [s for s in contenders if drawn[s] == best]
            dealers[i] = contenders[0]
            states[i] = state
        orders, states = self._shuffled_decks(states)
        self.rng[g] = states
        self._deal(g, dealers, orders)

    def _shuffled_decks(self, states: U64) -> tuple[U8, U64]:
        """The canonical deck shuffled by each generator state (``Rng.shuffle``), and the
        states after: with NumPy for many games, else game by game."""
        count = states.size
        if count < _VECTOR_SHUFFLE:
            rows = np.empty((count, DECK_SIZE), dtype=np.uint8)
            after = np.empty(count, dtype=np.uint64)
            for i, state in enumerate(states.tolist()):
                deck = list(self._deck)
                rng = Rng(int(state))
                rng.shuffle(deck)
                rows[i] = deck
                after[i] = rng.state
            return rows, after
        swaps = DECK_SIZE - 1
        steps = np.arange(1, swaps + 1, dtype=np.uint64) * _GAMMA
        values = _mix(states[:, None] + steps[None, :])  # draw k + 1 in column k
        bounds = np.arange(DECK_SIZE, 1, -1, dtype=np.uint64)  # randbelow(i + 1) for i = 107 .. 1
        rejected = (values >= self._limits[None, :]).any(axis=1)
        picks = (values % bounds[None, :]).astype(np.intp)
        items = np.repeat(self._deck_row[:, None], count, axis=1)  # one column per game
        cols = np.arange(count)
        for k in range(swaps):
            i = swaps - k
            j = picks[:, k]
            held = items[i].copy()
            items[i] = items[j, cols]
            items[j, cols] = held
        rows = np.ascontiguousarray(items.T)
        after = states + np.uint64((swaps * _GAMMA_INT) & _MASK64)
        for i in np.nonzero(rejected)[0].tolist():  # a value randbelow rejects: one chance in 2**50
            deck = list(self._deck)
            rng = Rng(int(states[i]))
            rng.shuffle(deck)
            rows[i] = deck
            after[i] = rng.state
        return rows, after

    def _deal(self, g: Index, dealer: Index, orders: U8) -> None:
        """``Draft.deal`` and classic's ``on_starter`` in each game of ``g``."""
        n = self.players
        hand = self.ruleset.hand_size
        self.hands[g] = 0
        seats = (dealer[:, None] + 1 + np.arange(n)[None, :]) % n  # the deal's order of seats
        dealt = orders[:, : hand * n].reshape(g.size, hand, n).astype(np.intp)
        flat = self.hands.reshape(-1)
        slot = (g[:, None, None] * n + seats[:, None, :]) * CARDS + dealt
        np.add.at(flat, slot.reshape(-1), 1)
        self.hand_sizes[g] = hand
        self.pile[g] = orders
        self.pile[g, 0] = orders[:, hand * n]
        self.discard_size[g] = 1
        self.draw_at[g] = hand * n + 1
        self.direction[g] = 1
        self.current[g] = seats[:, 0]
        self.window[g] = 0
        self._set_play(g)
        self.dealer[g] = dealer
        self.declared[g] = False
        self.exposed[g] = -1
        self.stalled[g] = 0
        returned = np.isin(self.pile[g, 0], self._returned)
        for i in np.nonzero(returned)[0].tolist():
            self._return_starter(int(g[i]))
        starter = self.pile[g, 0].astype(np.intp)
        self.color[g] = CARD_COLOR[starter]
        kind = CARD_KIND[starter]
        sel = kind == DRAW2
        gd = g[sel]
        self.phase[gd] = PENALTY
        self.phase_count[gd] = 2
        self.phase_card[gd] = starter[sel]
        self.phase_seat[gd] = dealer[sel]
        sel = kind == SKIP
        self.current[g[sel]] = (dealer[sel] + 2) % n
        sel = kind == REVERSE
        gr = g[sel]
        self.direction[gr] = -1
        self.current[gr] = dealer[sel] if self._dealer_starts else (dealer[sel] - 1) % n
        sel = kind >= 13  # a Wild: the first player names its colour
        gw = g[sel]
        self.phase[gw] = COLOR
        self.phase_card[gw] = starter[sel]

    def _return_starter(self, game: int) -> None:
        """R-SETUP-STARTER: a starter that may not start goes back into the draw pile, the
        pile is shuffled and the next card turned up (again while it may not start)."""
        while int(self.pile[game, 0]) in self._returned:
            at = int(self.draw_at[game])
            pile = [*self.pile[game, at:].tolist(), int(self.pile[game, 0])]
            rng = Rng(int(self.rng[game]))
            rng.shuffle(pile)
            self.rng[game] = rng.state
            self.pile[game, at - 1 :] = pile
            self.pile[game, 0] = pile[0]
            self.draw_at[game] = at

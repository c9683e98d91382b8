"""Play many seeded games between bots, on this machine's cores or elsewhere, and summarise them.

The pieces, from one game to a whole run:

* :func:`play_game` plays one seeded game with given bots and returns a
  :class:`GameResult`: the winners, final scores, every round's length,
  points, winner and starting seat, and why the game ended (or failed).
* :class:`Simulation` describes the games of one rule set in a run (plugins,
  options, players, bots, the run's seed); it pickles, so any executor can
  ship it. ``simulation.play(i)`` plays game ``i``.
* :func:`run` plays ``games`` games of each simulation with an *engine*
  (:class:`InProcess`, :class:`LocalPool` over this machine's cores, any
  :class:`concurrent.futures.Executor` through :class:`ExecutorEngine`, or a
  Ray cluster with :class:`RayEngine`) and yields the results
  as they finish. It streams: work is handed out a few chunks at a time, so
  any number of games runs in constant memory.
* :class:`Tally` adds results up into the summary ``unorules simulate``
  prints (:meth:`Tally.to_data`); :func:`summarize` does it for a stream of
  results, for example read back from a JSON Lines file with
  :meth:`GameResult.from_json`.

Seeding: game ``i`` of a run seeded ``S`` is dealt by ``new_game(seed="S/i")``
and the bot of seat ``s`` is seeded ``"S/i/s"``. Nothing else is random, so a
game's result depends only on the rule set, the bots, the seed and ``i``:
not on the engine, the number of workers, the chunk size or the order in
which games finish.

>>> import unorules
>>> from unorules import sim
>>> rules = unorules.Ruleset.from_names(["classic"], options={"target_score": 100})
>>> result = sim.play_game(rules, ["heuristic", "random"], seed=1, index=0)
>>> result.status, result.winners, len(result.round_actions) == result.rounds
('over', (0,), True)
>>> simulation = sim.Simulation.of(rules, players=2, bots=["heuristic", "random"], seed=1)
>>> tally = sim.summarize(sim.run([simulation], games=4))["classic"]
>>> tally.games, sum(tally.to_data()["seat_wins"])
(4, 4)
"""

from __future__ import annotations

import concurrent.futures
import importlib
import json
import logging
import os
import signal
import socket
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from typing import Any, Literal, Protocol, Self, TypeVar

import attrs

from unorules.bots import Bot, check_bot_name, make_bot, next_action, show_views
from unorules.errors import RulesetError, UnorulesError
from unorules.ratings import ELO, Rating, bradley_terry, pair_wins
from unorules.ruleset import Ruleset
from unorules.tally import MAX_EXAMPLES as MAX_EXAMPLES
from unorules.tally import Tally, summarize

__all__ = [
    "DEFAULT_MAX_ACTIONS",
    "ELO",
    "Chunk",
    "Engine",
    "EngineError",
    "EngineUnavailable",
    "ExecutorEngine",
    "GameResult",
    "InProcess",
    "LocalPool",
    "Rating",
    "RayEngine",
    "Simulation",
    "Status",
    "Tally",
    "bradley_terry",
    "chunks",
    "pair_wins",
    "play_chunk",
    "play_game",
    "round_robin",
    "run",
    "summarize",
]

_log = logging.getLogger(__name__)

DEFAULT_MAX_ACTIONS = 1_000_000
"""A game that has not ended after this many actions fails (a plugin that never ends a round)."""

Status = Literal["over", "failed", "lost"]
"""``"over"``: the game ended by the rules. ``"failed"``: it raised an error or
did not end within the action limit (reproducible: replay its seed). ``"lost"``:
the worker playing it died, so there is no result (not a property of the game)."""

Seed = int | str
OptionValue = bool | int | str | None


class EngineError(UnorulesError):
    """The engine could not finish the run (a worker died, a cluster became
    unreachable). The games it could not play were yielded as ``"lost"``
    results before this is raised."""


# -- one game ---------------------------------------------------------------------------


@attrs.frozen
class GameResult:
    """What became of one game of a run (picklable, and one JSON line with :meth:`to_json`).

    The round tuples have one entry per finished round, in order:
    ``round_actions`` the actions it took, ``round_points`` the points scored
    in it, ``round_winners`` who won it (``None``: nobody), ``round_starters``
    the seat to move when it was dealt.
    """

    rules: str
    """The label of the rule set (``"classic,stacking"`` or ``"classic:uno_penalty=4"``)."""
    plugins: tuple[str, ...]
    """The rule set's plugin names, in registration order."""
    options: tuple[tuple[str, OptionValue], ...]
    """The options given to the rule set, sorted by name."""
    seed: Seed
    """The run's seed; the game was dealt from ``f"{seed}/{index}"``."""
    index: int
    """The game's number in its run (from 0)."""
    bots: tuple[str, ...]
    """The bot of every seat, by name (the number of players is its length)."""
    status: Status
    """``"over"`` for a game played to its end, ``"failed"`` for one that raised or did not end."""
    reason: str
    """The outcome's reason (``"target-score"``) when the game is over, else what went wrong."""
    winners: tuple[int, ...] = ()
    """The winning seats (one, or a team)."""
    scores: tuple[int, ...] = ()
    """Each seat's final score."""
    round_actions: tuple[int, ...] = ()
    """The actions each finished round took."""
    round_points: tuple[int, ...] = ()
    """The points scored in each finished round."""
    round_winners: tuple[int | None, ...] = ()
    """Who won each finished round (``None``: nobody)."""
    round_starters: tuple[int, ...] = ()
    """The seat to move when each round was dealt."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.bots)

    @property
    def rounds(self) -> int:
        """The number of finished rounds."""
        return len(self.round_actions)

    @property
    def actions(self) -> int:
        """The number of actions of the finished rounds."""
        return sum(self.round_actions)

    def to_data(self) -> dict[str, Any]:
        """The result as JSON-able data: one flat record, handy for data-frame libraries."""
        return {
            "rules": self.rules,
            "plugins": list(self.plugins),
            "options": dict(self.options),
            "seed": self.seed,
            "index": self.index,
            "players": self.players,
            "bots": list(self.bots),
            "status": self.status,
            "reason": self.reason,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "rounds": self.rounds,
            "actions": self.actions,
            "round_actions": list(self.round_actions),
            "round_points": list(self.round_points),
            "round_winners": list(self.round_winners),
            "round_starters": list(self.round_starters),
        }

    def to_json(self) -> str:
        """One line of JSON (no newline inside)."""
        return json.dumps(self.to_data(), separators=(",", ":"))

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Self:
        """The result :meth:`to_data` gave; ``ValueError`` naming the field if ``data`` is not one."""
        try:
            options = data["options"]
            if not isinstance(options, Mapping):
                raise TypeError("options is not an object")
            result = cls(
                rules=_typed(data, "rules", str),
                plugins=tuple(_typed_items(data, "plugins", str)),
                options=tuple(sorted((str(k), v) for k, v in options.items())),
                seed=data["seed"] if isinstance(data["seed"], int | str) else _bad("seed"),
                index=_typed(data, "index", int),
                bots=tuple(_typed_items(data, "bots", str)),
                status=data["status"] if data["status"] in ("over", "failed", "lost") else _bad("status"),
                reason=_typed(data, "reason", str),
                winners=tuple(_typed_items(data, "winners", int)),
                scores=tuple(_typed_items(data, "scores", int)),
                round_actions=tuple(_typed_items(data, "round_actions", int)),
                round_points=tuple(_typed_items(data, "round_points", int)),
                round_winners=tuple(_typed_items(data, "round_winners", int, none=True)),
                round_starters=tuple(_typed_items(data, "round_starters", int)),
            )
        except KeyError as exc:
            raise ValueError(f"a game result needs the field {exc.args[0]!r}") from None
        except TypeError as exc:
            raise ValueError(f"not a game result: {exc}") from None
        if not (
            len(result.round_actions)
            == len(result.round_points)
            == len(result.round_winners)
            == len(result.round_starters)
        ):
            raise ValueError("round_actions, round_points, round_winners and round_starters differ in length")
        return result

    @classmethod
    def from_json(cls, line: str) -> Self:
        """The result of one line :meth:`to_json` wrote (``ValueError`` if it is not one)."""
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not JSON: {str(exc)[:80]}") from None
        if not isinstance(data, dict):
            raise ValueError("a game result is a JSON object")
        return cls.from_data(data)


def _bad(field: str) -> Any:
    raise TypeError(f"bad value for {field!r}")


def _typed(data: Mapping[str, Any], field: str, kind: type) -> Any:
    value = data[field]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"{field!r} must be {kind.__name__}")
    return value


def _typed_items(data: Mapping[str, Any], field: str, kind: type, none: bool = False) -> list[Any]:
    values = data[field]
    if not isinstance(values, list):
        raise TypeError(f"{field!r} must be a list")
    for value in values:
        if value is None and none:
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise TypeError(f"{field!r} must hold {kind.__name__} values")
    return values


def _options_key(options: Mapping[str, OptionValue]) -> tuple[tuple[str, OptionValue], ...]:
    return tuple(sorted(options.items()))


def play_game(
    ruleset: Ruleset,
    bots: Sequence[str | Bot],
    *,
    seed: Seed,
    index: int = 0,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    label: str | None = None,
    options: Mapping[str, OptionValue] | None = None,
) -> GameResult:
    """Play game ``index`` of a run seeded ``seed`` under ``ruleset`` with ``bots``, one per
    seat; return its result.

    The game is dealt from ``f"{seed}/{index}"``. A bot given by name (see
    :func:`unorules.bots.make_bot`) is made and seeded
    ``f"{seed}/{index}/{seat}"``, and closed after the game if it has a
    ``close`` method (a bot program is stopped); a bot object is used as it
    is. An error raised while playing, or a game still going after
    ``max_actions`` actions, gives a ``"failed"`` result whose ``reason`` says
    what happened; a bad rule set for this many players
    raises :class:`~unorules.RulesetError` before anything is played.
    ``label`` names the rule set in the result (default: its plugin names),
    ``options`` the options to record (default: those the rule set was built with).
    """
    players = len(bots)
    state = ruleset.new_game(players=players, seed=f"{seed}/{index}")
    seat_bots: list[Bot] = [
        make_bot(b, seed=f"{seed}/{index}/{seat}") if isinstance(b, str) else b for seat, b in enumerate(bots)
    ]
    round_actions: list[int] = []
    round_starters = [state.current_player]
    count = 0
    finished = 0
    base = GameResult(
        rules=label if label is not None else ",".join(ruleset.names),
        plugins=tuple(ruleset.names),
        options=_options_key(options if options is not None else ruleset.options),
        seed=seed,
        index=index,
        bots=tuple(b if isinstance(b, str) else b.name for b in bots),
        status="failed",
        reason="",
    )
    try:
        for _ in range(max_actions):
            if state.is_over:
                show_views(state, seat_bots)  # the end of the game, for bots that follow it
                break
            state = state.apply(next_action(state, seat_bots))
            count += 1
            if len(state.rounds) != finished:
                finished = len(state.rounds)
                round_actions.append(count)
                count = 0
                if not state.is_over:
                    round_starters.append(state.current_player)
    except Exception as exc:
        return attrs.evolve(base, reason=f"{type(exc).__name__}: {exc}"[:500])
    finally:
        for seat, bot in enumerate(seat_bots):
            close = getattr(bot, "close", None)
            if close is not None and isinstance(bots[seat], str):
                close()  # a bot made here (an external program) is stopped here
    if not state.is_over:
        return attrs.evolve(base, reason=f"did not end within {max_actions} actions")
    assert state.outcome is not None
    return attrs.evolve(
        base,
        status="over",
        reason=state.outcome.reason,
        winners=tuple(state.outcome.winners),
        scores=tuple(state.scores),
        round_actions=tuple(round_actions),
        round_points=tuple(sum(r.points) for r in state.rounds),
        round_winners=tuple(r.winner for r in state.rounds),
        round_starters=tuple(round_starters[: len(round_actions)]),
    )


# -- a run's description ------------------------------------------------------------------


_RULESETS: dict[tuple[tuple[str, ...], tuple[tuple[str, OptionValue], ...]], Ruleset] = {}


@attrs.frozen
class Simulation:
    """The games of one rule set in a run: everything a worker needs to play game ``i``.

    It holds names, not objects, so it pickles small and any process rebuilds
    the same rule set (once per process) and the same bots.
    """

    label: str
    """How the rule set is named in results and summaries."""
    plugins: tuple[str, ...]
    """The rule set's plugin names, in registration order."""
    options: tuple[tuple[str, OptionValue], ...]
    """The options to rebuild the rule set with, sorted by name."""
    players: int
    """The number of seats of every game."""
    bots: tuple[str, ...]
    """Bot names, cycled over the seats."""
    seed: Seed
    """The run's seed: game ``i`` is dealt from ``f"{seed}/{i}"``."""
    max_actions: int = DEFAULT_MAX_ACTIONS
    """The actions after which a game that has not ended counts as failed."""

    @classmethod
    def of(
        cls,
        ruleset: Ruleset,
        *,
        players: int,
        bots: Sequence[str],
        seed: Seed,
        label: str | None = None,
        options: Mapping[str, OptionValue] | None = None,
        max_actions: int = DEFAULT_MAX_ACTIONS,
    ) -> Self:
        """The simulation of ``ruleset`` (checked for ``players`` seats: :class:`~unorules.RulesetError`).

        ``bots`` are bot names, cycled over the seats; ``seed`` seeds the run;
        ``label`` names the rule set in results (default: its plugin names);
        ``options`` are the options to rebuild the rule set with in other
        processes (default: the options it was built with, defaults included;
        options that rebuild another rule set are a
        :class:`~unorules.RulesetError`);
        ``max_actions`` bounds each game.
        """
        if not bots:
            raise ValueError("name at least one bot")
        for name in bots:
            check_bot_name(name)
        ruleset.new_game(players=players, seed=f"{seed}/check")
        chosen = dict(options) if options is not None else dict(ruleset.options)
        if options is not None and Ruleset.from_names(list(ruleset.names), chosen) != ruleset:
            # Another process would play other games (and this one too: the rule sets of a
            # run are kept by plugins and options).
            given = ", ".join(f"{k}={v!r}" for k, v in sorted(ruleset.spec()["options"].items()))
            raise RulesetError(
                f"the options {dict(sorted(chosen.items()))!r} do not rebuild the rule set "
                f"{','.join(ruleset.names)} (built with {given or 'no options'}): pass every option "
                "it was built with"
            )
        simulation = cls(
            label=label if label is not None else ",".join(ruleset.names),
            plugins=tuple(ruleset.names),
            options=_options_key(chosen),
            players=players,
            bots=tuple(bots),
            seed=seed,
            max_actions=max_actions,
        )
        _RULESETS.setdefault((simulation.plugins, simulation.options), ruleset)
        return simulation

    @property
    def seat_bots(self) -> tuple[str, ...]:
        """The bot of every seat (``bots`` cycled)."""
        return tuple(self.bots[s % len(self.bots)] for s in range(self.players))

    def ruleset(self) -> Ruleset:
        """The rule set, built once per process."""
        key = (self.plugins, self.options)
        rules = _RULESETS.get(key)
        if rules is None:
            rules = _RULESETS[key] = Ruleset.from_names(list(self.plugins), dict(self.options))
        return rules

    def play(self, index: int) -> GameResult:
        """Play game ``index`` (see :func:`play_game`)."""
        return play_game(
            self.ruleset(),
            self.seat_bots,
            seed=self.seed,
            index=index,
            max_actions=self.max_actions,
            label=self.label,
            options=dict(self.options),
        )

    def tally(self) -> Tally:
        """An empty :class:`Tally` for this simulation's results."""
        return Tally(self.label, self.plugins, self.options, self.seat_bots)


@attrs.frozen
class Chunk:
    """Games ``start`` to ``stop - 1`` of one simulation: the unit of work an engine hands out."""

    simulation: Simulation
    """The simulation whose games these are."""
    start: int
    """The first game's index."""
    stop: int
    """One past the last game's index."""

    def __len__(self) -> int:
        return self.stop - self.start

    def lost(self, why: str) -> list[GameResult]:
        """A ``"lost"`` result for each game of the chunk, ``why`` as its reason."""
        sim = self.simulation
        return [
            GameResult(
                rules=sim.label,
                plugins=sim.plugins,
                options=sim.options,
                seed=sim.seed,
                index=i,
                bots=sim.seat_bots,
                status="lost",
                reason=why,
            )
            for i in range(self.start, self.stop)
        ]


def play_chunk(chunk: Chunk) -> list[GameResult]:
    """Play every game of ``chunk`` in this process."""
    return [chunk.simulation.play(i) for i in range(chunk.start, chunk.stop)]


def chunks(simulations: Sequence[Simulation], games: int, size: int, probe: bool = False) -> Iterator[Chunk]:
    """The chunks of ``size`` games of a run of ``games`` games of each of ``simulations``,
    made lazily: every game of the first simulation, then the next one's. With ``probe``,
    game 0 of every simulation comes first, each a chunk of its own, so that every
    simulation's speed is known early in the run (the time left of a round robin whose
    pairs play at different speeds); the games are the same either way."""
    if size < 1:
        raise ValueError(f"chunk size must be positive, not {size}")
    first = 1 if probe and games > 1 else 0
    if first:
        for simulation in simulations:
            yield Chunk(simulation, 0, 1)
    for simulation in simulations:
        for start in range(first, games, size):
            yield Chunk(simulation, start, min(games, start + size))


def default_chunk_size(games: int, workers: int) -> int:
    """Chunks of at most 25 games, at least 4 per worker when there are enough games."""
    return max(1, min(25, games // max(1, workers * 4)))


# -- engines ------------------------------------------------------------------------------


class Engine(Protocol):
    """Something that plays chunks and gives their results back as they finish.

    ``results`` must consume ``chunks`` lazily (a few ahead of what is
    finished), give back each chunk's results, and when the run is closed
    early (the generator is closed, e.g. on Ctrl-C) cancel what is
    outstanding. A chunk it could not play (a worker died) it gives back as
    :meth:`Chunk.lost` results, then raises :class:`EngineError`.
    """

    workers: int
    """How many chunks it plays at once (to size chunks)."""

    def results(self, chunks: Iterator[Chunk]) -> Iterator[list[GameResult]]:
        """Play ``chunks``, yielding each chunk's results when it is finished."""
        ...

    def close(self) -> None:
        """Release what the engine holds (processes, connections)."""
        ...


class InProcess:
    """Plays every chunk in this process, one after the other."""

    workers = 1

    def results(self, chunks: Iterator[Chunk]) -> Iterator[list[GameResult]]:
        for chunk in chunks:
            yield play_chunk(chunk)

    def close(self) -> None:
        pass


class ExecutorEngine:
    """Plays chunks on a :class:`concurrent.futures.Executor` (a process pool, a Dask client's executor...).

    At most ``window`` chunks (default: four per worker) are submitted ahead
    of those finished, so the run streams in constant memory. When the run is
    closed early the submitted chunks are cancelled. ``workers`` is how many
    chunks ``executor`` plays at once (it sizes the chunks).
    """

    def __init__(
        self, executor: concurrent.futures.Executor, workers: int, window: int | None = None
    ) -> None:
        self.executor = executor
        self.workers = workers
        self.window = window if window is not None else 4 * workers

    def results(self, chunks: Iterator[Chunk]) -> Iterator[list[GameResult]]:
        # Submission order is kept by the dict: finished chunks are yielded in it.
        pending: dict[concurrent.futures.Future[list[GameResult]], Chunk] = {}
        source = iter(chunks)
        more = True
        try:
            while True:
                if more:
                    more = _submit_window(pending, source, self.window, self._submit)
                if not pending:
                    return
                done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                broken: BaseException | None = None
                for future in [f for f in pending if f in done]:
                    chunk = pending.pop(future)
                    try:
                        yield future.result()
                    except concurrent.futures.CancelledError:
                        continue
                    except Exception as exc:
                        if not _is_lost_worker(exc):
                            raise
                        broken = exc
                        yield chunk.lost(_lost_reason(exc))
                if broken is not None:
                    for future in list(pending):
                        future.cancel()
                        yield pending.pop(future).lost(_lost_reason(broken))
                    raise EngineError(f"a worker died: {_lost_reason(broken)}")
        finally:
            for future in pending:
                future.cancel()

    def _submit(self, chunk: Chunk) -> concurrent.futures.Future[list[GameResult]]:
        return self.executor.submit(play_chunk, chunk)

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


_Ticket = TypeVar("_Ticket")  # what an engine's submit returns: a Future, a Ray ObjectRef


def _submit_window(
    pending: dict[_Ticket, Chunk], source: Iterator[Chunk], window: int, submit: Callable[[Chunk], _Ticket]
) -> bool:
    """Submit chunks from ``source`` until ``window`` are pending; False once ``source`` is exhausted."""
    while len(pending) < window:
        chunk = next(source, None)
        if chunk is None:
            return False
        pending[submit(chunk)] = chunk
    return True


def _is_lost_worker(exc: BaseException) -> bool:
    return isinstance(exc, concurrent.futures.process.BrokenProcessPool)


def _lost_reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which cancels the run (no tracebacks from workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalPool(ExecutorEngine):
    """Plays chunks in ``workers`` processes of this machine (default: one per core).

    Workers ignore Ctrl-C: the parent cancels what is outstanding and stops
    the workers. A worker that dies ends the run with :class:`EngineError`
    after the chunks in flight are given back as lost.
    """

    def __init__(self, workers: int | None = None) -> None:
        count = workers or os.cpu_count() or 1
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=count, initializer=_ignore_interrupts)
        super().__init__(pool, count)
        self._pool = pool

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        terminate = getattr(self._pool, "terminate_workers", None)  # Python 3.14
        if terminate is not None:
            terminate()
        else:  # older Pythons: stop the workers still playing a chunk of the closed run
            for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                if process.is_alive():
                    process.terminate()
        self._pool.shutdown(wait=True)


class EngineUnavailable(UnorulesError):
    """An engine's library is not installed; the message names the extra to install."""


def _parse_address(address: str) -> tuple[str, int] | None:
    """The host and port of a Ray address to check before connecting (``None``: nothing to check)."""
    text = address.strip()
    if text in ("auto", "local", ""):
        return None
    rest = text.split("://", 1)[1] if "://" in text else text
    host, sep, port = rest.rstrip("/").rpartition(":")
    if not sep or not host or not port.isascii() or not port.isdigit() or not 0 < int(port) < 65536:
        raise EngineError(f"bad Ray address {address[:80]!r}: write HOST:PORT (or ray://HOST:PORT, or auto)")
    return host.strip("[]"), int(port)


def _check_reachable(address: str, timeout: float) -> None:
    target = _parse_address(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=timeout):
            pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise EngineError(f"cannot reach a Ray cluster at {address}: {why}") from None


class RayEngine:
    """Plays chunks as Ray tasks, on a local Ray instance or an existing cluster (extra ``unorules[ray]``).

    ``address=None`` starts a local instance with ``num_cpus`` CPUs (default:
    every core) and stops it on :meth:`close`; an address (``HOST:PORT`` of a
    head started with ``ray start --head``, ``ray://HOST:PORT``, or ``auto``)
    joins that cluster and leaves it running. If Ray is already initialised
    in this process it is used as it is. Every node needs unorules and the
    plugins of the rule set installed.

    At most ``window`` tasks (default: four per CPU of the cluster) are
    outstanding, so a run streams in constant memory; results come back as
    tasks finish. Closing the run cancels the outstanding tasks. Ray retries
    a task whose worker died up to ``max_retries`` times (a game's result
    does not depend on where it is played); a chunk still lost after that is
    given back as lost and ends the run with :class:`EngineError`. Joining a
    cluster gives up after ``connect_timeout`` seconds.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        num_cpus: int | None = None,
        window: int | None = None,
        max_retries: int = 3,
        connect_timeout: float = 5.0,
    ) -> None:
        try:
            ray = importlib.import_module("ray")
        except ImportError:
            raise EngineUnavailable(
                "the Ray engine needs Ray, which is not installed: pip install 'unorules[ray]'"
            ) from None
        self._ray: Any = ray
        self._owned = False
        if address is not None:
            _check_reachable(address, connect_timeout)
        if not ray.is_initialized():
            try:
                ray.init(
                    address=address,
                    num_cpus=num_cpus if address is None else None,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
            except ConnectionError as exc:
                raise EngineError(
                    f"cannot connect to a Ray cluster at {address}: {_lost_reason(exc)}"
                ) from None
            self._owned = True
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.window = window if window is not None else 4 * self.workers
        self._play = ray.remote(max_retries=max_retries)(play_chunk)

    def results(self, chunks: Iterator[Chunk]) -> Iterator[list[GameResult]]:
        ray = self._ray
        pending: dict[Any, Chunk] = {}
        source = iter(chunks)
        more = True
        try:
            while True:
                if more:
                    more = _submit_window(pending, source, self.window, self._play.remote)
                if not pending:
                    return
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    chunk = pending.pop(ref)
                    try:
                        results: list[GameResult] = ray.get(ref)
                    except ray.exceptions.RayError as exc:  # a worker or node died, a task could not run
                        if isinstance(exc, ray.exceptions.RayTaskError):
                            cause = exc.cause if exc.cause is not None else exc
                            why = f"a Ray task failed: {type(cause).__name__}: {_lost_reason(cause)}"
                        else:
                            why = f"a Ray worker died: {_lost_reason(exc)}"
                        yield chunk.lost(why)
                        for other in list(pending):
                            _cancel(ray, other)
                            yield pending.pop(other).lost("cancelled: another task was lost")
                        raise EngineError(why) from None
                    yield results
        finally:
            for ref in pending:
                _cancel(ray, ref)

    def close(self) -> None:
        """Stop the local Ray instance this engine started (a cluster it joined is left running)."""
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()
        self._owned = False


def _cancel(ray: Any, ref: Any) -> None:
    """Cancel a Ray task, best effort: it may have ended, or its owner gone
    (Ray raises ``TypeError: No owner found for object`` when this generator
    is closed after Ray was shut down); nothing is left to stop then."""
    try:
        ray.cancel(ref, force=True)
    except Exception as exc:  # any failure to cancel leaves nothing to do
        _log.debug("could not cancel a Ray task: %s", _lost_reason(exc))


def run(
    simulations: Sequence[Simulation],
    games: int,
    *,
    engine: Engine | None = None,
    chunk_size: int | None = None,
    probe: bool = False,
) -> Generator[GameResult, None, None]:
    """Play games ``0`` to ``games - 1`` of every simulation of ``simulations`` with ``engine``,
    in chunks of ``chunk_size`` games (default: :func:`default_chunk_size`); yield each result.
    ``probe`` plays game 0 of every simulation first (see :func:`chunks`).

    Results come as chunks finish, so their order depends on the engine;
    each result is the same whatever the engine (see the module's seeding).
    The default engine plays in this process. Closing the returned generator
    (or an exception in the consumer) cancels the work outstanding; the
    engine itself is left open for the caller to close.
    """
    if games < 0:
        raise ValueError(f"games must not be negative, not {games}")
    engine = engine if engine is not None else InProcess()
    size = chunk_size if chunk_size is not None else default_chunk_size(games, engine.workers)
    stream = engine.results(chunks(simulations, games, size, probe=probe))
    try:
        for results in stream:
            yield from results
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()


# -- round robins -------------------------------------------------------------------------


def round_robin(
    ruleset: Ruleset,
    bots: Sequence[str],
    *,
    seed: Seed,
    label: str | None = None,
    options: Mapping[str, OptionValue] | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> list[Simulation]:
    """The heads-up simulations of a round robin between ``bots`` (names, see
    :func:`unorules.bots.make_bot`): for every pair, one simulation with each
    bot in the first seat, so that a run of ``games`` games of each plays
    ``2 * games`` games per pair, half of them begun by either bot, under
    ``ruleset`` (with ``options``), from the run's ``seed``, each game stopped
    after ``max_actions``. Each is labelled ``"<label> <first> v <second>"``
    (``label`` defaults to the rule set's names); :func:`pair_wins` reads the
    results back."""
    names = list(dict.fromkeys(bots))
    if len(names) < 2:
        raise ValueError("a round robin needs two different bots at least")
    base = label if label is not None else ",".join(ruleset.names)
    simulations = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            for a, b in ((first, second), (second, first)):
                simulations.append(
                    Simulation.of(
                        ruleset,
                        players=2,
                        bots=[a, b],
                        seed=seed,
                        label=f"{base} {a} v {b}",
                        options=options,
                        max_actions=max_actions,
                    )
                )
    return simulations

"""A restart costs what the games still being played cost (issue 48, point 8): a finished game is
noted at start-up and replayed only when somebody asks for its table; it expires as before."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from unorules.bots import make_bot, next_action
from unorules.record import GameRecord
from unorules.serve.store import SeatRecord, Store, TableRecord, now
from unorules.serve.tables import Tables


def _finished_file(path: Path, count: int) -> Store:
    from unorules.ruleset import Ruleset

    ruleset = Ruleset.from_names(["classic"], options={"target_score": 30})
    state = ruleset.new_game(players=2, seed=4)
    bots = [make_bot("heuristic", seed=s) for s in range(2)]
    actions = []
    while not state.is_over:
        action = next_action(state, bots)
        state = state.apply(action)
        actions.append(str(action))
    store = Store(path)
    seats = (SeatRecord("human", "Ann", "", "0" * 64), SeatRecord("bot", "Bot 1", "heuristic"))
    for n in range(count):
        store.add_table(TableRecord(f"done{n:04d}", ruleset.spec_text, 2, 4, seats, True, now()))
        for i, text in enumerate(actions):
            store.append_action(f"done{n:04d}", i, text)
    return store


def test_a_restart_replays_no_finished_game_until_it_is_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.sqlite"
    _finished_file(db, 30).close()
    replays = []
    replay = GameRecord.replay

    def counted(self: GameRecord, *args: object, **kwargs: object) -> object:
        replays.append(1)
        return replay(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(GameRecord, "replay", counted)

    async def serve_once() -> tuple[int, int, bool]:
        tables = Tables(Store(db))
        loaded = tables.load()
        before = len(replays)
        table = tables.get("done0007")
        await tables.close()
        tables.store.close()
        return loaded, before, table.state.is_over

    assert asyncio.run(serve_once()) == (30, 30, True)  # a file of before: replayed once, noted
    replays.clear()
    assert asyncio.run(serve_once()) == (30, 0, True)  # then: nothing replayed until asked for
    assert len(replays) == 1


def test_a_finished_table_not_replayed_still_expires(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    store = _finished_file(db, 3)
    for n in range(3):
        store.set_over(f"done{n:04d}")

    async def sweep() -> tuple[int, list[str], int]:
        tables = Tables(store, keep_finished=60)
        tables.load()
        size = len(tables)
        removed = tables.sweep(now() + 120)
        await tables.close()
        return size, removed, store.count()

    size, removed, left = asyncio.run(sweep())
    assert (size, sorted(removed), left) == (3, ["done0000", "done0001", "done0002"], 0)


def test_log_lines_carry_their_time_level_and_logger() -> None:
    import logging
    import logging.config
    import re

    from unorules.serve.guard import log_config

    config = log_config("warning")
    assert config["loggers"]["unorules"]["level"] == "INFO"
    fmt = config["formatters"]["default"]
    formatter = logging.Formatter(fmt["fmt"])
    record = logging.LogRecord("unorules.serve", logging.ERROR, __file__, 1, "table %s", ("x",), None)
    line = formatter.format(record)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ERROR unorules\.serve: table x", line), line
    logging.config.dictConfig(config)  # uvicorn applies it as is

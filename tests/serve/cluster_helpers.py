"""Helpers for the cluster tests and benchmarks: server processes on one PostgreSQL database,
websocket players that fail over to another process, and the check of every table's record
against what the players were shown.

Everything is on 127.0.0.1, every wait and loop bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Any

from websockets.asyncio.client import connect

from unorules.ruleset import Ruleset
from unorules.serve.store import open_store

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class Process:
    """``unorules serve`` in a process of its own on ``port``, tables in ``db`` (no per-address
    limits: every client is on 127.0.0.1)."""

    def __init__(self, db: str, port: int | None = None, bot_delay: float = 0.05, **settings: Any) -> None:
        self.db = db
        self.port = port or free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.ws_url = f"ws://{HOST}:{self.port}"
        self.settings = {
            "bot_delay": bot_delay,
            "rate": 1e9,
            "burst": 1e9,
            "max_tables": 100000,
            "creates_per_address": 10**9,
            "creates_total": 10**9,
            "max_connections_per_address": 10**6,
            **settings,
        }
        self.popen: subprocess.Popen[bytes] | None = None
        self.log: Any = subprocess.DEVNULL
        """Where the process's log goes (an open file, or nowhere)."""

    def start(self) -> Process:
        arguments = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        code = (
            "from unorules.serve import run; "
            f"run(host={HOST!r}, port={self.port}, db={self.db!r}, {arguments})"
        )
        self.popen = subprocess.Popen([sys.executable, "-c", code], stderr=self.log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise RuntimeError(f"the server process exited with {self.popen.returncode}")
            with socket.socket() as probe:
                if probe.connect_ex((HOST, self.port)) == 0:
                    return self
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("the server process did not start")

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    def kill(self) -> None:
        """kill -9."""
        if self.popen is not None and self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait(10)

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGINT)
            try:
                self.popen.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST")
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=30) as answer:
            data: dict[str, Any] = json.loads(answer.read())
            return data

    def get(self, path: str) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


class Seat:
    """A player's page at ``table``: connects to ``urls[first]``, and when its connection breaks
    to the next of ``urls`` (as a page behind a load balancer does), says hello with its token
    and plays its seat (its first legal play, else its first legal action) until the game is
    over or ``deadline``. ``shown``: every state it was sent, version -> its hand."""

    def __init__(self, urls: list[str], first: int, table: str, token: str, think: float = 0.0) -> None:
        self.urls = urls
        self.index = first
        self.table = table
        self.token = token
        self.think = think
        self.shown: dict[int, list[str]] = {}
        self.seat: int | None = None
        self.over = False
        self.reconnects = 0
        self.errors: list[str] = []
        self.acted = 0

    async def play(self, deadline: float, stop: asyncio.Event | None = None) -> None:
        while time.monotonic() < deadline and not self.over and not (stop and stop.is_set()):
            with contextlib.suppress(Exception):  # the process went away: try the next one
                await self._session(deadline, stop)
            if self.over:
                return
            self.reconnects += 1
            self.index = (self.index + 1) % len(self.urls)
            await asyncio.sleep(0.1)

    async def _session(self, deadline: float, stop: asyncio.Event | None) -> None:
        async with connect(f"{self.urls[self.index]}/ws/{self.table}", open_timeout=5, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            sent_for = -1
            while time.monotonic() < deadline and not (stop and stop.is_set()):
                try:
                    raw = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                message = json.loads(raw)
                if message["type"] == "error":
                    self.errors.append(message["code"])
                    sent_for = -1
                    continue
                if message["type"] != "state":
                    continue
                view, version = message["view"], message["table"]["version"]
                self.seat = message["you"]
                self.shown[version] = list(view["hand"])
                if view["is_over"]:
                    self.over = True
                    return
                mine = [a for a in view["legal_actions"] if a["seat"] == self.seat]
                if mine and view["current_player"] == self.seat and sent_for != version:
                    if self.think:
                        await asyncio.sleep(self.think)
                    plays = [a for a in mine if a["verb"] == "play"]
                    sent_for = version
                    self.acted += 1
                    await ws.send(
                        json.dumps({"type": "act", "action": (plays or mine)[0]["text"], "version": version})
                    )


def check_records(db: str, seats: list[Seat]) -> dict[str, int]:
    """Replay every table of ``seats`` from the store and check that every state a player was
    shown is the one the record gives at that version (so no action it saw was lost, changed or
    taken twice); returns counts. Raises AssertionError naming the first difference."""
    store = open_store(db)
    checked = actions = 0
    try:
        by_table: dict[str, list[Seat]] = {}
        for seat in seats:
            by_table.setdefault(seat.table, []).append(seat)
        for table_id, players in by_table.items():
            record = store.table(table_id)
            assert record is not None, f"table {table_id} is gone"
            state = Ruleset.from_spec_text(record.spec).new_game(players=record.players, seed=record.seed)
            hands = {0: {s: [str(c) for c in state.hands[s]] for s in range(record.players)}}
            from unorules.actions import Action

            for number, text in enumerate(record.actions, start=1):
                state = state.apply(Action.parse(text))  # every action checked by the rules
                hands[number] = {s: [str(c) for c in state.hands[s]] for s in range(record.players)}
            actions += len(record.actions)
            for player in players:
                for version, hand in player.shown.items():
                    assert version in hands, (
                        f"table {table_id}: seat {player.seat} saw version {version}, "
                        f"the record has {len(record.actions)} actions"
                    )
                    assert player.seat is not None
                    assert hands[version][player.seat] == hand, (
                        f"table {table_id}: seat {player.seat} at version {version} was shown {hand}, "
                        f"the record gives {hands[version][player.seat]}"
                    )
                    checked += 1
    finally:
        store.close()
    return {"tables": len(by_table), "actions": actions, "states_checked": checked}


def lease_holders(db: str) -> dict[str, str]:
    """Each table's lease holder (``host:pid:tag``)."""
    store = open_store(db)
    try:
        return {table: holder for table, (holder, _) in store.lease_holders().items()}
    finally:
        store.close()


def seat_tables(processes: list[Process], tables: int, seed: int = 100, think: float = 0.02) -> list[Seat]:
    """``tables`` started tables of two people and two heuristic bots (classic to 30 points,
    seeded), made and joined on different processes; the two people's pages, each first on
    another process and failing over to the others."""
    urls = [p.ws_url for p in processes]
    count = len(processes)
    seats: list[Seat] = []
    for n in range(tables):
        created = processes[n % count].post(
            "/api/tables",
            {
                "rules": ["classic"],
                "seats": ["open", "bot:heuristic", "bot:heuristic"],
                "name": "Ann",
                "seed": seed + n,
                "options": {"target_score": "30"},
            },
        )
        joined = processes[(n + 1) % count].post(
            f"/api/tables/{created['table']}/join", {"name": "Bob", "invite": created["invite"]}
        )
        seats.append(Seat(urls, n % count, created["table"], created["token"], think=think))
        seats.append(Seat(urls, (n + 1) % count, created["table"], joined["token"], think=think))
    return seats


async def start_tables(seats: list[Seat]) -> None:
    """Start every table of ``seats`` (its host says start)."""
    started: set[str] = set()
    for seat in seats:
        if seat.table in started:
            continue
        started.add(seat.table)
        async with connect(f"{seat.urls[seat.index]}/ws/{seat.table}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": seat.token}))
            await ws.send(json.dumps({"type": "start"}))
            await ws.recv()


async def kill_and_restart(
    db: str, processes: list[Process], kills: int, rng: Any, every: float = 2.0, first_holder: bool = True
) -> list[float]:
    """kill -9 ``kills`` processes, ``every`` seconds apart (the first the one holding the most
    leases, with ``first_holder``; the others chosen by ``rng``), each started again on its port
    after its running tables' leases were taken over; returns how long each takeover took."""
    takeovers: list[float] = []
    for kill in range(kills):
        await asyncio.sleep(every)
        holders = lease_holders(db)

        def held_by(process: Process, holders: dict[str, str] = holders) -> list[str]:
            return [t for t, h in holders.items() if h.split(":")[1] == str(process.pid)]

        if kill == 0 and first_holder:
            victim = max(processes, key=lambda p: len(held_by(p)))
        else:
            victim = rng.choice(processes)
        other = next(p for p in processes if p is not victim)
        running = [t for t in held_by(victim) if not other.get(f"/api/tables/{t}")[1]["winners"]]
        victim.kill()
        killed_at = time.monotonic()
        if running:  # its running tables are taken over by another process within a lease and a tick
            for _ in range(200):
                now = lease_holders(db)
                if all(now.get(t, "").split(":")[1:2] != [str(victim.pid)] for t in running):
                    takeovers.append(time.monotonic() - killed_at)
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"{running} were not taken over: {lease_holders(db)}")
        await asyncio.sleep(0.5)
        await asyncio.to_thread(victim.start)  # started again, on the same port
    return takeovers

"""The cluster deployment of docs/serve.rst (``docs/deploy/serve-cluster.sh``) works as shown:
PostgreSQL, three ``unorules serve`` processes and nginx in front; two pages play a table
through the proxy while two of the three processes are killed (-9) mid-game; the pages
reconnect through the proxy to the one left and finish; the record replays and gives every
state they were shown."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from cluster_helpers import Seat, check_records, free_port
from postgres_server import MISSING, find_binaries

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "deploy" / "serve-cluster.sh"


def _ports(count: int) -> int:
    """The first of ``count`` consecutive free ports."""
    for _ in range(200):
        first = free_port()
        if first + count < 65535 and all(_free(first + n) for n in range(count)):
            return first
    raise RuntimeError("no consecutive free ports")


def _free(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


@pytest.mark.slow
def test_the_documented_cluster_serves_through_its_proxy_and_survives_a_kill() -> None:
    missing = MISSING if find_binaries() is None else None
    if shutil.which("nginx") is None:
        missing = "nginx is not installed: apt-get install nginx (Debian)"
    if missing is not None:
        if os.environ.get("UNORULES_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"UNORULES_REQUIRE_POSTGRES=1 but {missing}")
        pytest.skip(missing)
    first = _ports(3)
    folder = Path(tempfile.mkdtemp(prefix="unorules-cluster-"))  # PostgreSQL's user must reach it
    env = {
        **os.environ,
        "DIR": str(folder),
        "PORT": str(free_port()),
        "FIRST": str(first),
        "PG_PORT": str(free_port()),
        "UNORULES": str(Path(sys.executable).parent / "unorules"),
        "SERVE_ARGS": "--bot-delay 0.05",
    }
    proxy = f"ws://127.0.0.1:{env['PORT']}"
    db = f"postgresql://unorules@127.0.0.1:{env['PG_PORT']}/postgres"
    started = subprocess.run(
        ["sh", str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=120
    )
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        assert f"open http://127.0.0.1:{env['PORT']}/" in started.stdout
        import urllib.request

        def post(path: str, body: dict[str, object]) -> dict[str, str]:
            request = urllib.request.Request(
                f"http://127.0.0.1:{env['PORT']}{path}", data=json.dumps(body).encode(), method="POST"
            )
            request.add_header("Content-Type", "application/json")
            with urllib.request.urlopen(request, timeout=30) as answer:
                data: dict[str, str] = json.loads(answer.read())
                return data

        created = post(
            "/api/tables",
            {
                "rules": ["classic"],
                "seats": ["open", "bot:heuristic"],
                "name": "Ann",
                "seed": 7,
                "options": {"target_score": "30"},
            },
        )
        joined = post(f"/api/tables/{created['table']}/join", {"name": "Bob", "invite": created["invite"]})
        ann = Seat([proxy], 0, created["table"], created["token"], think=0.05)
        bob = Seat([proxy], 0, created["table"], joined["token"], think=0.05)

        async def play() -> None:
            from websockets.asyncio.client import connect

            async with connect(f"{proxy}/ws/{created['table']}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
                await ws.send(json.dumps({"type": "start"}))
                await ws.recv()
            deadline = time.monotonic() + 90
            players = [asyncio.ensure_future(s.play(deadline)) for s in (ann, bob)]
            await asyncio.sleep(2.0)
            for n in range(2):  # kill -9 two of the three processes, one after the other
                pid = int((folder / f"serve-{first + n}.pid").read_text())
                os.kill(pid, signal.SIGKILL)
                await asyncio.sleep(1.5)
            await asyncio.gather(*players)

        asyncio.run(play())
        assert ann.over, ann.errors
        assert bob.over, bob.errors
        assert ann.reconnects + bob.reconnects > 0
        counts = check_records(db, [ann, bob])
        assert counts["states_checked"] > 10
    finally:
        subprocess.run(["sh", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=120, check=False)
        shutil.rmtree(folder, ignore_errors=True)

"""Two people in two browsers (Chromium through Playwright) and two bots play a whole game of
classic + stacking + jump-in by clicking cards and buttons; the server is restarted mid-game and
both pages reconnect by themselves and finish the game.

Needs Chromium at /usr/bin/chromium (``apt-get install chromium``; ``.ci/run`` installs it) and
the ``playwright`` package (in requirements-dev.txt). Set ``UNORULES_SERVE_SCREENSHOTS=docs/_static``
to refresh the screenshots shown in the docs.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import free_port

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists() and not os.environ.get("UNORULES_REQUIRE_BROWSER"):  # .ci/run requires it
    pytest.skip(
        "needs Chromium at /usr/bin/chromium: apt-get install chromium (.ci/run installs it)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="needs playwright: pip install -r requirements-dev.txt"
)

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STEPS = 3000
"""The most turns of the clicking loop (a game under these rules takes a few hundred actions)."""


class ServerProcess:
    """``python -m unorules.serve`` as a separate process, as a person would start it."""

    def __init__(self, port: int, db: Path) -> None:
        self.port, self.db = port, db
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "unorules.serve", "--port", str(self.port), "--db", str(self.db)]
        self.process = subprocess.Popen([*command, "--bot-delay", "0.15"], text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("the server did not start listening")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    running = ServerProcess(free_port(), tmp_path / "tables.sqlite")
    running.start()
    try:
        yield running
    finally:
        running.stop()


def body(page: Any, key: str) -> str:
    return str(page.evaluate(f"document.body.dataset.{key} || ''"))


def version(page: Any) -> int:
    text = body(page, "version")
    return int(text) if text else -1


def take_a_step(page: Any) -> bool:
    """Click what a person would: close a results panel, pick a colour or seat, call UNO, play a
    highlighted card (out of turn too: a jump-in), or press the first action button. True if clicked."""
    if page.is_visible("#results") and body(page, "over") != "true":
        page.click("#results-close")
        return True
    if page.is_visible("#picker"):
        page.click("#picker-choices button >> nth=0")
        return True
    for selector in ('#actions button[data-verb="uno"]', "#hand .card.playable", "#actions button"):
        if page.locator(selector).count():
            page.click(f"{selector} >> nth=0", timeout=2000)
            return True
    return False


def shoot(page: Any, name: str, tmp_path: Path) -> None:
    folder = os.environ.get("UNORULES_SERVE_SCREENSHOTS")
    target = Path(folder) if folder else tmp_path
    target.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(target / name))


def test_two_people_and_two_bots_play_a_whole_game_through_a_restart(
    server: ServerProcess, tmp_path: Path
) -> None:
    base = f"http://127.0.0.1:{server.port}"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            ann = browser.new_context(viewport={"width": 1100, "height": 820}, bypass_csp=True).new_page()
            bob = browser.new_context(
                viewport={"width": 390, "height": 844}, is_mobile=True, bypass_csp=True
            ).new_page()
            # (bypass_csp: Playwright evaluates its waiting conditions as strings, which the page forbids)
            problems: list[str] = []
            for page in (ann, bob):
                page.on("pageerror", lambda error: problems.append(str(error)))
            page_timeout = 20000
            ann.set_default_timeout(page_timeout)
            bob.set_default_timeout(page_timeout)

            # Ann creates the table: classic + stacking + jump-in, a short game, one open seat
            ann.goto(base + "/")
            ann.wait_for_selector("#plugin-jump-in")
            ann.check("#plugin-stacking .plugin-check")
            ann.check("#plugin-jump-in .plugin-check")
            ann.fill('#plugin-classic [data-option="target_score"]', "40")
            ann.fill("#name", "Ann")
            ann.select_option("#seat-list li:nth-child(1) select", "open")
            ann.select_option("#seat-list li:nth-child(2) select", "bot:heuristic")
            ann.select_option("#seat-list li:nth-child(3) select", "bot:random")
            shoot(ann, "serve-new-table.png", tmp_path)
            ann.click("#create-table")
            ann.wait_for_selector("#start:not([hidden])")
            invite = ann.input_value("#invite")

            # Bob follows the invitation link and takes the open seat; Ann starts
            bob.goto(invite)
            bob.fill("#join-name", "Bob")
            bob.click("#join")
            bob.wait_for_function("document.body.dataset.you === '1'")
            ann.wait_for_function("!document.querySelector('.seat[data-seat=\"1\"] .badge.off')")
            ann.click("#start")
            ann.wait_for_function("document.body.dataset.started === 'true'")
            assert "classic,jump-in,stacking target_score=40" in ann.inner_text("#rules")

            restarted = False
            shot = False
            for _ in range(STEPS):
                if body(ann, "over") == "true" and body(bob, "over") == "true":
                    break
                if (
                    not shot
                    and version(ann) >= 8  # a table in play, Ann to move: the screenshots for the docs
                    and body(ann, "current") == "0"
                    and ann.locator("#hand .card.playable").count()
                    and not ann.is_visible("#results")
                ):
                    shoot(ann, "serve-table-desktop.png", tmp_path)
                    shoot(bob, "serve-table-phone.png", tmp_path)
                    shot = True
                moved = False
                for page in (ann, bob):
                    if body(page, "connection") != "online":
                        continue
                    before = version(page)
                    try:
                        clicked = take_a_step(page)
                    except sync_api.Error:
                        clicked = False  # the page re-rendered under the click: look again
                    if clicked:
                        moved = True
                        # the server answers (a new state, or a refusal when somebody was faster)
                        page.wait_for_timeout(60)
                        if version(page) == before:
                            page.wait_for_timeout(120)
                if not restarted and version(ann) >= 12 and body(ann, "over") != "true":
                    at = version(ann)
                    server.stop()
                    for page in (ann, bob):
                        page.wait_for_function("document.body.dataset.connection === 'offline'")
                    server.start()
                    for page in (ann, bob):
                        page.wait_for_function("document.body.dataset.connection === 'online'", timeout=30000)
                        page.wait_for_function(f"Number(document.body.dataset.version) >= {at}")
                    restarted = True
                if not moved:
                    ann.wait_for_timeout(100)
            assert restarted, "the game ended before the restart: raise the target score"
            for page in (ann, bob):
                page.wait_for_function("document.body.dataset.over === 'true'")
                assert "Game over" in page.inner_text("#status")
                assert page.is_visible("#results")
            shoot(bob, "serve-game-over-phone.png", tmp_path)
            for page in (ann, bob):
                # the structured events at work: the seat that made the last move is marked, the
                # feed names the moves, the panel shows the hands the game ended with, every round
                # and the link to the game's record
                assert page.locator(".seat.acted").count() >= 1
                assert page.locator("#feed li.move").count() >= 1
                assert "cards left" in page.inner_text("#results-table")
                assert page.locator("#results-table .left-hand .card").count() >= 1
                assert page.locator("#rounds-table tr").count() >= 2
                assert page.is_visible("#record-link")
            href = ann.get_attribute("#record-link", "href")
            record = ann.request.get(base + str(href))
            assert record.ok
            assert record.text().startswith("# unorules game record")
            assert '[Seat1 "Bob"]' in record.text()
            ann.click("#results-close")
            ann.click("#show-results")  # the panel comes back after it was closed
            assert ann.is_visible("#results")
            assert problems == []
        finally:
            browser.close()

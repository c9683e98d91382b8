"""The pages in Chromium (through Playwright), against ``python -m unorules.serve`` on loopback.

* Two people in two browsers (a desktop 1280x900 and a phone 390x844) and two bots play a whole game
  of classic + stacking + jump-in by clicking cards and buttons; the server is restarted mid-game
  and both pages reconnect by themselves and finish the game. Along the way: the hand is sorted,
  a card that cannot be played keeps its colour, the feed reads in sentences, the rule set shows by
  name with its rules in a popover.
* A game with a turn timer: a spectator follows by the watching link, in colour-blind mode; one
  player's page closes and the autopilot plays the seat until the page is back; the other player
  lets the time run out, the autopilot takes over and "I'm back" takes the seat back.

Needs Chromium at /usr/bin/chromium (``apt-get install chromium``; ``.ci/run`` installs it) and
the ``playwright`` package (in requirements-dev.txt). Set ``UNORULES_SERVE_SCREENSHOTS=docs/_static``
to refresh the screenshots shown in the docs.
"""

from __future__ import annotations

import os
import re
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


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
RULE_CODE = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")

# the hand's order on the page: colours red, yellow, green, blue, then wilds; numbers, then symbols
HAND_ORDER = """
() => [...document.querySelectorAll('#hand .card')].map((node) => {
  const colours = {R: 0, Y: 1, G: 2, B: 3};
  const c = [...node.classList].find((k) => k in colours);
  const kind = node.querySelector('.face').textContent;
  return [c === undefined ? 4 : colours[c], /^\\d$/.test(kind) ? Number(kind) : 10];
})
"""

# the computed look of the hand's first card of a colour that cannot be played now
DIMMED = """
() => {
  const node = [...document.querySelectorAll('#hand .card:disabled')]
    .find((n) => ['R', 'Y', 'G', 'B'].some((c) => n.classList.contains(c)));
  if (!node) return null;
  const style = getComputedStyle(node);
  const colour = [...node.classList].find((k) => 'RYGB'.includes(k) && k.length === 1);
  const names = {R: '--red', Y: '--yellow', G: '--green', B: '--blue'};
  const probe = document.createElement('div');
  probe.style.backgroundColor = getComputedStyle(document.documentElement).getPropertyValue(names[colour]);
  document.body.append(probe);
  const expected = getComputedStyle(probe).backgroundColor;
  probe.remove();
  return {background: style.backgroundColor, expected, opacity: style.opacity, filter: style.filter};
}
"""


def check_the_table_reads_well(page: Any) -> None:
    """The hand sorted, a card that cannot be played in its own colour, the feed in sentences."""
    order = page.evaluate(HAND_ORDER)
    assert order == sorted(order), order
    dimmed = page.evaluate(DIMMED)
    if dimmed is not None:
        assert dimmed["background"] == dimmed["expected"], dimmed
        assert dimmed["opacity"] == "1"
        assert dimmed["filter"] == "none"
    lines = page.locator("#feed li").all_inner_texts()
    assert lines
    for line in lines:
        assert not RULE_CODE.search(line), line
        assert "seat " not in line, line
        assert line.split(" ")[-1] not in ("draw", "pass"), line
    chip = page.inner_text("#color-chip")
    assert any(word in chip for word in ("red", "yellow", "green", "blue", "no colour")), chip


def test_two_people_and_two_bots_play_a_whole_game_through_a_restart(
    server: ServerProcess, tmp_path: Path
) -> None:
    base = f"http://127.0.0.1:{server.port}"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            ann = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
            bob = browser.new_context(viewport=PHONE, is_mobile=True, bypass_csp=True).new_page()
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
            # each option a control that fits it, labelled in words (rule codes on hover only)
            assert ann.get_attribute("#option-challenge", "type") == "checkbox"
            assert ann.evaluate("document.getElementById('option-scoring').tagName") == "SELECT"
            assert ann.get_attribute("#option-target_score", "type") == "number"
            labels = ann.locator(".option-label").all_inner_texts()
            assert labels
            assert not any(RULE_CODE.search(t) or "`" in t or "_" in t for t in labels), labels
            ann.check("#plugin-stacking .plugin-check")
            ann.check("#plugin-jump-in .plugin-check")
            ann.check("#option-stack_mix")
            ann.fill("#option-target_score", "40")
            ann.fill("#name", "Ann")
            ann.select_option("#seat-list li:nth-child(1) select", "open")
            ann.select_option("#seat-list li:nth-child(2) select", "bot:heuristic")
            ann.select_option("#seat-list li:nth-child(3) select", "bot:random")
            shoot(ann, "serve-new-table.png", tmp_path)
            ann.click("#create-table")
            ann.wait_for_selector("#start:not([hidden])")
            invite = ann.input_value("#invite")
            assert "#join=" in invite

            # Bob follows the invitation link and takes the open seat; Ann starts
            bob.goto(invite)
            bob.fill("#join-name", "Bob")
            bob.click("#join")
            bob.wait_for_function("document.body.dataset.you === '1'")
            ann.wait_for_function("!document.querySelector('.seat[data-seat=\"1\"] .badge.off')")
            ann.click("#start")
            ann.wait_for_function("document.body.dataset.started === 'true'")
            # the rule set by name; its rules in words in a popover
            assert ann.inner_text("#rules") == "Classic UNO + Jump-in + Stacking"
            ann.click("#rules")
            assert ann.is_visible("#rules-pop")
            popover = ann.inner_text("#rules-pop")
            assert "Points that end the game: 40" in popover
            assert "classic,jump-in,stacking stack_mix=on target_score=40" in popover
            ann.click("#rules-close")
            assert not ann.is_visible("#rules-pop")

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
                    and not bob.is_visible("#results")
                ):
                    check_the_table_reads_well(ann)
                    check_the_table_reads_well(bob)
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
            assert shot, "no moment to take the screenshots"
            for page in (ann, bob):
                page.wait_for_function("document.body.dataset.over === 'true'")
                assert "Game over" in page.inner_text("#status")
                assert page.is_visible("#results")
            shoot(bob, "serve-game-over-phone.png", tmp_path)
            for page in (ann, bob):
                # the structured events at work: the seat that made the last move is marked, the
                # feed says what happened, the panel shows the hands the game ended with, every
                # round, the link to the game's record and the rematch
                assert page.locator(".seat.acted").count() >= 1
                assert page.locator("#feed li").count() >= 1
                assert "cards left" in page.inner_text("#results-table")
                assert page.locator("#results-table .left-hand .card").count() >= 1
                assert page.locator("#rounds-table tr").count() >= 2
                assert page.is_visible("#record-link")
                assert page.is_visible("#rematch")
            href = ann.get_attribute("#record-link", "href")
            record = ann.request.get(base + str(href))
            assert record.ok
            assert record.text().startswith("# unorules game record")
            assert '[Seat1 "Bob"]' in record.text()
            ann.click("#results-close")
            ann.click("#show-results")  # the panel comes back after it was closed
            assert ann.is_visible("#results")
            # a rematch: Ann's page goes there, Bob's offers the way; both keep their seats
            old = ann.url
            ann.click("#rematch")
            ann.wait_for_url(lambda url: url != old)
            ann.wait_for_function(
                "document.body.dataset.you === '0' && document.body.dataset.started === 'true'"
            )
            bob.wait_for_selector("#go-rematch:not([hidden])")
            bob.click("#go-rematch")
            bob.wait_for_function("document.body.dataset.you === '1' && document.body.dataset.version !== ''")
            assert bob.url == ann.url
            assert problems == []
        finally:
            browser.close()


def play_if_my_turn(page: Any) -> bool:
    """Play for a page whose seat is to move (and not on autopilot): True if it clicked."""
    if body(page, "connection") != "online" or body(page, "over") == "true":
        return False
    if body(page, "you") != body(page, "current") or body(page, "autopilot") == "true":
        return False
    try:
        return take_a_step(page)
    except sync_api.Error:
        return False


def test_timers_the_autopilot_a_spectator_and_colour_blind_patterns(
    server: ServerProcess, tmp_path: Path
) -> None:
    base = f"http://127.0.0.1:{server.port}"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            ann = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
            bob_context = browser.new_context(viewport=PHONE, is_mobile=True, bypass_csp=True)
            bob = bob_context.new_page()
            carol = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
            problems: list[str] = []
            for page in (ann, bob, carol):
                page.on("pageerror", lambda error: problems.append(str(error)))
                page.set_default_timeout(20000)

            # Ann creates a classic table with a 10-second turn timer, Bob joins, Carol watches
            ann.goto(base + "/")
            ann.wait_for_selector("#plugin-classic")
            ann.fill("#name", "Ann")
            ann.select_option("#turn-seconds", "10")
            ann.select_option("#seat-list li:nth-child(1) select", "open")
            ann.select_option("#seat-list li:nth-child(2) select", "bot:heuristic")
            ann.click("#remove-seat")
            ann.click("#create-table")
            ann.wait_for_selector("#start:not([hidden])")
            invite, watch = ann.input_value("#invite"), ann.input_value("#watch")
            assert watch == invite.split("#")[0]
            carol.goto(watch)
            carol.wait_for_function(
                "document.body.dataset.version !== undefined && document.body.dataset.you === ''"
            )
            assert not carol.is_visible("#join-box")  # the watching link takes no seat
            assert not carol.is_visible("#invite-row")
            bob.goto(invite)
            bob.fill("#join-name", "Bob")
            bob.click("#join")
            bob.wait_for_function("document.body.dataset.you === '1'")
            ann.click("#start")
            for page in (ann, bob, carol):
                page.wait_for_function("document.body.dataset.started === 'true'")
            carol.wait_for_function("document.body.dataset.timer === 'on'")
            assert "Watching" in carol.inner_text("#status")
            assert not carol.is_visible("#hand")
            assert carol.locator(".seat").count() == 3

            # colour-blind mode: a pattern on every coloured card and on the colour to match
            carol.check("#colour-blind")
            assert carol.evaluate("document.body.classList.contains('colour-blind')")
            patterns = carol.evaluate(
                "[...document.querySelectorAll('#discard .card:not(.wild), #color-chip:not(.none)')]"
                ".map((n) => getComputedStyle(n).backgroundImage)"
            )
            assert patterns
            assert all("gradient" in p for p in patterns), patterns
            carol.reload()  # the choice is kept
            carol.wait_for_function("document.body.classList.contains('colour-blind')")

            # Bob's page closes: after the grace the autopilot plays his seat, Ann and Carol see it
            bob.close()
            deadline = time.monotonic() + 60
            while not ann.locator('.seat[data-seat="1"] .badge.autopilot').count():
                assert time.monotonic() < deadline, "the autopilot never took Bob's seat"
                if not play_if_my_turn(ann):
                    ann.wait_for_timeout(200)
            assert carol.locator('.seat[data-seat="1"] .badge.autopilot').count() == 1
            taken_at = version(ann)
            deadline = time.monotonic() + 60
            while version(ann) < taken_at + 6 and body(ann, "over") != "true":
                assert time.monotonic() < deadline, "the game did not move on without Bob"
                if not play_if_my_turn(ann):
                    ann.wait_for_timeout(200)
            shoot(carol, "serve-colour-blind.png", tmp_path)
            # Bob comes back: the seat is his again
            bob = bob_context.new_page()
            bob.on("pageerror", lambda error: problems.append(str(error)))
            bob.goto(invite.split("#")[0])
            bob.wait_for_function(
                "document.body.dataset.you === '1' && document.body.dataset.autopilot === 'false'"
            )
            ann.wait_for_function("!document.querySelector('.seat[data-seat=\"1\"] .badge.autopilot')")

            # Ann lets her time run out: the autopilot takes her seat until she says she is back
            deadline = time.monotonic() + 90
            while not ann.is_visible("#autopilot-note"):
                assert time.monotonic() < deadline, "Ann's time never ran out"
                if not play_if_my_turn(bob):
                    bob.wait_for_timeout(200)
            assert ann.locator('.seat[data-seat="0"] .badge.autopilot').count() == 1
            assert ann.locator("#hand .card.playable").count() == 0
            ann.click("#back")
            ann.wait_for_function("document.body.dataset.autopilot === 'false'")
            assert not ann.is_visible("#autopilot-note")
            assert problems == []
        finally:
            browser.close()

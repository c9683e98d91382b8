"""The new-table page starts from a preset: ``GET /api/rules`` lists the shipped presets and
the rulebooks ``unorules serve --rules`` was given, each as the plugins and option texts that
fill the form; in Chromium, choosing one fills the form and the table is created under the
rule set it names (``python -m unorules.serve --rules our-family.toml`` on loopback)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_helpers import free_port, serving

from unorules import Ruleset
from unorules.rulebook import Rulebook, preset_names
from unorules.serve.describe import preset_data, rules_data

FAMILY = """\
name = "The Smiths"
description = "Stacking and 7-0; no wild to go out."
plugins = ["classic", "stacking", "seven-o"]
players = [3, 4]

[options]
stack_mix = true
last_card_ban = "wild"
"""


def test_rules_data_lists_every_preset_as_plugins_and_option_texts() -> None:
    data = rules_data()
    assert [p["name"] for p in data["presets"]] == list(preset_names())
    nm = next(p for p in data["presets"] if p["name"] == "no-mercy-style")
    assert nm["title"] == "No Mercy style"
    # forced_play, an option of no plugin named, adds turn-rules, which declares it (issue 42).
    assert nm["rules"] == ["classic", "stacking", "seven-o", "keep-drawing", "turn-rules"]
    assert nm["options"] == {"stack_mix": "on", "forced_play": "on", "drawn_card": "must-play"}
    assert nm["doc"]
    assert not any(c in nm["doc"] for c in "`[")


def test_a_servers_own_rulebooks_come_first() -> None:
    book = Rulebook.from_toml(FAMILY, "our-family.toml")
    data = rules_data([book])
    first = data["presets"][0]
    assert first == preset_data("file:1", book)
    assert (first["name"], first["title"], first["players"]) == ("file:1", "The Smiths", [3, 4])
    assert first["options"] == {"stack_mix": "on", "last_card_ban": "wild"}


def test_api_rules_offers_the_rulebooks_given(tmp_path: Path) -> None:
    book = Rulebook.from_toml(FAMILY, "our-family.toml")
    with serving(tmp_path / "t.sqlite", rulebooks=[book]) as server:
        status, data = server.request("GET", "/api/rules")
    assert status == 200
    assert data["presets"][0]["title"] == "The Smiths"


def test_serve_refuses_a_bad_rulebook_on_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('plugins = ["classic"]\n[options]\nstack_mixed = true\n', encoding="utf-8")
    for given in (str(bad), "classic,stacking"):
        done = subprocess.run(
            [sys.executable, "-m", "unorules", "serve", "--rules", given, "--port", str(free_port())],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert lines[0].startswith("unorules: error: ")
    assert (
        "line 3 (options.stack_mixed)"
        in subprocess.run(
            [sys.executable, "-m", "unorules", "serve", "--rules", str(bad)],
            capture_output=True,
            text=True,
            check=False,
        ).stderr
    )


# -- in a browser -----------------------------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


@pytest.fixture
def family_server(tmp_path: Path) -> Iterator[int]:
    if not CHROMIUM.exists() and not os.environ.get("UNORULES_REQUIRE_BROWSER"):
        pytest.skip("needs Chromium at /usr/bin/chromium: apt-get install chromium (.ci/run installs it)")
    pytest.importorskip("playwright.sync_api", reason="needs playwright: pip install -r requirements-dev.txt")
    (tmp_path / "our-family.toml").write_text(FAMILY, encoding="utf-8")
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "unorules.serve",
        "--port",
        str(port),
        "--db",
        str(tmp_path / "t.sqlite"),
    ]
    process = subprocess.Popen(
        [*command, "--rules", "our-family.toml", "--bot-delay", "0.1"], cwd=tmp_path, text=True
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield port
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def test_choosing_a_preset_fills_the_form_and_names_the_tables_rules(family_server: int) -> None:
    from playwright.sync_api import sync_playwright

    base = f"http://127.0.0.1:{family_server}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True).new_page()
            problems: list[str] = []
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.set_default_timeout(20000)
            page.goto(base + "/")
            page.wait_for_selector("#plugin-seven-o")
            # The family's rules are chosen when the page opens, with their player count.
            assert page.input_value("#preset") == "file:1"
            assert "no wild to go out" in page.inner_text("#preset-doc").lower()
            assert page.is_checked("#plugin-stacking .plugin-check")
            assert page.is_checked("#plugin-seven-o .plugin-check")
            assert not page.is_checked("#plugin-jump-in .plugin-check")
            assert page.is_checked("#option-stack_mix")
            assert page.input_value("#option-last_card_ban") == "wild"
            assert page.locator("#seat-list li").count() == 2  # three players: you and two
            # Another preset fills the form anew.
            page.select_option("#preset", "team-play")
            assert page.is_checked("#plugin-partners .plugin-check")
            assert not page.is_checked("#plugin-stacking .plugin-check")
            assert page.input_value("#option-team_layout") == "two-teams"
            assert page.locator("#seat-list li").count() == 3  # four players
            # A change by hand makes the choice one's own.
            page.check("#plugin-jump-in .plugin-check")
            assert page.input_value("#preset") == ""
            # Back to the family's rules, and a table under them.
            page.select_option("#preset", "file:1")
            page.fill("#name", "Ann")
            page.click("#create-table")
            page.wait_for_url("**/t/*")
            table = page.url.rsplit("/", 1)[1]
            meta = page.evaluate(f"fetch('/api/tables/{table}').then((r) => r.json())")
            assert problems == []
        finally:
            browser.close()
    expected = Ruleset.from_toml(FAMILY).spec_text
    assert meta["rules"] == expected
    assert meta["players"] == 3

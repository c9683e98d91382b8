"""The two editions in Chromium (through Playwright), against a real server on loopback.

* **A FLIP! table renders what each seat may see** (R-FLIP-VIEW): Ann creates a ``flip`` table on
  the new-table page (choosing the edition turns classic off), a spectator follows by the watching
  link, and Ann plays by clicking (a Flip whenever she can) until the cards have been turned over
  and back. At moments along the way the page is compared with the library's own view of the same
  moment (the game's record, replayed): Ann's hand shows the faces of the side in play and never a
  back, every other hand shows its backs in hand order, the draw pile shows the face on its top,
  the discard pile its top face; the spectator sees no hand and no back. With
  ``flip_own_backs=shown`` Ann's own backs appear under her cards, and the spectator sees every back.
* **A No Mercy game is played to the end** by clicking, with the edition's cards on the page.

Needs Chromium at /usr/bin/chromium and the ``playwright`` package, as ``test_serve_browser.py``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import CHROMIUM, CHROMIUM_ARGS, DESKTOP, Server, browser_api, serving

from unorules import GameState, SeatView
from unorules.record import GameRecord

sync_api = browser_api()
STEPS = 1500

# What the page shows, read from the DOM: every card node carries its notation in data-card.
PAGE = """
() => {
  const cards = (selector) => [...document.querySelectorAll(selector)].map((n) => n.dataset.card);
  const backs = {};
  for (const row of document.querySelectorAll('.seat .backs')) {
    backs[row.dataset.backs] = [...row.querySelectorAll('.card')].map((n) => n.dataset.card);
  }
  const discard = cards('#discard .card');
  return {
    version: Number(document.body.dataset.version),
    hand: cards('#hand > .card, #hand .with-back > button.card'),
    own_backs: [...document.querySelectorAll('#hand [data-back]')].map((n) => n.dataset.back),
    backs,
    draw: document.getElementById('draw-pile').dataset.card || null,
    top: discard.length ? discard[discard.length - 1] : null,
    every: cards('[data-card]'),
  };
}
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # running records: the test reads the record of a game in play to compare the page with the
    # library's view of the same moment
    with serving(
        tmp_path / "t.sqlite", bot_delay=0.05, rate=1000, burst=1000, running_records=True
    ) as running:
        yield running


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def body(page: Any, key: str) -> str:
    return str(page.evaluate(f"document.body.dataset.{key} || ''"))


def new_page(browser: Any, problems: list[str]) -> Any:
    page = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.set_default_timeout(20000)
    return page


def create_table(page: Any, base: str, edition: str, options: dict[str, str], bots: list[str]) -> str:
    """Create a table of ``edition`` on the new-table page (Ann in seat 0, ``bots`` in the
    others), start it; returns the table's id."""
    page.goto(base + "/")
    page.wait_for_selector(f"#plugin-{edition}")
    assert page.is_checked("#plugin-classic .plugin-check")
    page.check(f"#plugin-{edition} .plugin-check")
    # an edition replaces classic: choosing it turns classic off
    assert not page.is_checked("#plugin-classic .plugin-check")
    for name, value in options.items():
        page.select_option(f"#option-{name}", value)
    page.fill("#name", "Ann")
    rows = page.locator("#seat-list li").count()
    for _ in range(rows - len(bots)):
        page.click("#remove-seat")
    for i, bot in enumerate(bots, 1):
        page.select_option(f"#seat-list li:nth-child({i}) select", f"bot:{bot}")
    page.click("#create-table")
    page.wait_for_selector("#start:not([hidden])")
    page.click("#start")
    page.wait_for_function("document.body.dataset.started === 'true'")
    return str(page.url.split("/t/")[1].split("#")[0])


def library_view(page: Any, base: str, table: str, version: int, seat: int | None) -> SeatView:
    """The library's view for ``seat`` (``None``: a spectator) of the table at ``version``: its
    record, replayed."""
    answer = page.request.get(f"{base}/api/tables/{table}/record")
    assert answer.ok, answer.text()
    states: list[GameState] = list(GameRecord.parse(answer.text()).states())
    state = states[version]
    return state.public_view() if seat is None else state.view(seat)


def shown(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(PAGE)
    return found


def steady(page: Any) -> dict[str, Any]:
    """What the page shows once it stopped changing (no bot moved between two readings)."""
    for _ in range(50):
        first = shown(page)
        page.wait_for_timeout(150)
        second = shown(page)
        if first == second:
            return second
    raise AssertionError("the page never settled")


def check_seat_page(page: Any, base: str, table: str, seat: int | None) -> SeatView:
    """The page of ``seat`` (``None``: a spectator's) shows exactly the library's view of its moment."""
    seen = steady(page)
    view = library_view(page, base, table, seen["version"], seat)
    assert not any("/" in card for card in seen["every"]), "a two-faced card's notation reached the page"
    assert sorted(seen["hand"]) == sorted(map(str, view.hand))
    # the backs a seat sees, in hand order, and nobody's else (its own only when shown to it)
    expected = {str(s): list(map(str, cards)) for s, cards in view.backs.items() if s != seat}
    assert seen["backs"] == expected
    own = [] if seat is None else list(map(str, view.backs.get(seat, ())))
    assert seen["own_backs"] == own
    assert seen["draw"] == (None if view.draw_pile_back is None else str(view.draw_pile_back))
    assert seen["top"] == str(view.top_card)
    return view


def click_for_ann(page: Any, prefer: str = "F") -> bool:
    """Click what a person would, preferring a playable card of kind ``prefer``. True if clicked."""
    if page.is_visible("#results") and body(page, "over") != "true":
        page.click("#results-close")
        return True
    if page.is_visible("#picker"):
        page.click("#picker-choices button >> nth=0")
        return True
    for selector in (
        '#actions button[data-verb="uno"]',
        f'#hand .card.playable[data-card$="{prefer}"]',
        "#hand .card.playable",
        "#actions button",
    ):
        if page.locator(selector).count():
            page.click(f"{selector} >> nth=0", timeout=2000)
            return True
    return False


def test_a_flip_table_shows_each_seat_the_faces_and_backs_it_may_see(server: Server, browser: Any) -> None:
    problems: list[str] = []
    ann = new_page(browser, problems)
    table = create_table(ann, server.url, "flip", {}, ["heuristic", "random"])
    watcher = new_page(browser, problems)
    watcher.goto(f"{server.url}/t/{table}")
    watcher.wait_for_function("document.body.dataset.started === 'true'")
    sides: set[int] = set()
    checks = 0
    for _ in range(STEPS):
        if body(ann, "over") == "true" or (sides == {0, 1} and checks >= 6):
            break
        if body(ann, "current") == "0" and ann.locator("#hand .card.playable").count():
            view = check_seat_page(ann, server.url, table, 0)
            check_seat_page(watcher, server.url, table, None)
            sides.add(view.side)
            checks += 1
        before = body(ann, "version")
        try:
            clicked = click_for_ann(ann)
        except sync_api.Error:
            clicked = False  # re-rendered under the click: look again
        ann.wait_for_timeout(80 if clicked and body(ann, "version") != before else 150)
    assert sides == {0, 1}, f"the cards were never seen on both sides ({sides})"
    assert checks >= 6
    # the spectator sees no hand and no back (flip_own_backs=hidden: nobody sees their own)
    assert watcher.locator("#hand .card").count() == 0
    assert watcher.locator(".backs").count() == 0
    assert problems == []


def test_with_own_backs_shown_a_seat_sees_its_backs_and_a_spectator_every_back(
    server: Server, browser: Any
) -> None:
    problems: list[str] = []
    ann = new_page(browser, problems)
    table = create_table(ann, server.url, "flip", {"flip_own_backs": "shown"}, ["heuristic"])
    watcher = new_page(browser, problems)
    watcher.goto(f"{server.url}/t/{table}")
    watcher.wait_for_function("document.body.dataset.started === 'true'")
    for _ in range(3):
        ann.wait_for_function("document.body.dataset.current === '0'")
        view = check_seat_page(ann, server.url, table, 0)
        assert len(view.backs[0]) == len(view.hand) > 0  # under her own cards, in hand order
        spectator = check_seat_page(watcher, server.url, table, None)
        assert set(spectator.backs) == {0, 1}
        if not click_for_ann(ann, prefer="-"):
            break
        ann.wait_for_timeout(300)
    assert problems == []


def test_a_no_mercy_game_is_played_to_the_end_on_the_page(server: Server, browser: Any) -> None:
    problems: list[str] = []
    ann = new_page(browser, problems)
    create_table(ann, server.url, "no-mercy", {}, ["heuristic", "random"])
    kinds: set[str] = set()
    for _ in range(STEPS):
        if body(ann, "over") == "true":
            break
        kinds |= set(ann.evaluate("[...document.querySelectorAll('[data-card]')].map((n) => n.dataset.card)"))
        with contextlib.suppress(sync_api.Error):  # re-rendered under the click: look again
            click_for_ann(ann, prefer="+4")
        ann.wait_for_timeout(120)
    ann.wait_for_function("document.body.dataset.over === 'true'", timeout=60000)
    assert "Game over" in ann.inner_text("#status")
    assert any(k in kinds for k in ("WR+4", "W+6", "W+10", "WCR")), kinds
    assert problems == []

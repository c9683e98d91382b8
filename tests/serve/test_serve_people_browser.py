"""The browser table as people meet it (issue 46), in Chromium (through Playwright), against a
real server on loopback.

* **A third-party card at the table**: a plugin installed from outside ("Wild Hot Potato",
  ``hot_potato_plugin.py``, with an entry point of the test's own) says how its card looks (the
  ``display`` hook); Ann's hand shows it with its name, its word, its icon and its paint, she plays
  it, and the discard pile and the feed show it by its name. Its screenshot is the one in the
  docs (``UNORULES_SERVE_SCREENSHOTS=docs/_static``, as ``test_serve_browser.py``).
* **FLIP!'s sides by their names**: the table says "light side" and, turned over, "dark side".
* **The status line says what the seat may do**: under ``classic,turn-rules`` with forced play on,
  a seat holding a playable card is not told it may draw (and has no Draw button).
* **Take-backs against bots**: Ann undoes her play together with the bots' replies; after a draw
  (a card was shown to her) she is told why not.
* **The lobby and the title**: the host is not told to wait for the host; no hand, starter or
  discard before the start; a spectator who comes late sees what happened so far; classic's blurb
  says the target the table plays to; a rulebook's name in the table's title.

Needs Chromium at /usr/bin/chromium and the ``playwright`` package, as ``test_serve_browser.py``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import CHROMIUM, CHROMIUM_ARGS, DESKTOP, Server, browser_api, serving

import unorules
from unorules import discovery
from unorules.spec import CACHE

sync_api = browser_api()


@pytest.fixture
def hot_potato(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The ``hot-potato`` plugin installed, as a package's entry point would install it."""
    original = discovery.entry_points

    def entry_points(group: str) -> list[EntryPoint]:
        found = list(original(group=group))
        if group == discovery.ENTRY_POINT_GROUP:
            found.append(EntryPoint("hot-potato", "hot_potato_plugin:plugin", group))
        return found

    monkeypatch.setattr(discovery, "entry_points", entry_points)
    discovery.reset()
    CACHE.clear()
    yield
    monkeypatch.undo()
    discovery.reset()
    CACHE.clear()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with serving(tmp_path / "t.sqlite", bot_delay=0.05, rate=1000, burst=1000) as running:
        yield running


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def new_page(browser: Any, problems: list[str]) -> Any:
    page = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.set_default_timeout(20000)
    return page


def open_seat(page: Any, server: Server, table: dict[str, Any]) -> None:
    """Open ``table``'s page as the seat whose token the server gave (the creator's)."""
    page.goto(server.url + "/")
    page.evaluate(f"localStorage.setItem('unorules:{table['table']}', '{table['token']}')")
    page.goto(f"{server.url}/t/{table['table']}")
    page.wait_for_selector("#status:not(:empty)")


def body(page: Any, key: str) -> str:
    return str(page.evaluate(f"document.body.dataset.{key} || ''"))


def seed_where(rules: unorules.Ruleset, players: int, wanted: Any) -> int:
    """The first seed whose deal makes ``wanted(state)`` true (an arranged deal through the server's
    own ``seed``)."""
    for seed in range(2000):
        if wanted(rules.new_game(players=players, seed=seed)):
            return seed
    raise AssertionError("no such deal in 2000 seeds")


# -- a plugin's card at the table ----------------------------------------------------------------


def test_a_third_party_card_shows_its_name_and_look_at_the_table(
    hot_potato: None, server: Server, browser: Any, tmp_path: Path
) -> None:
    import hot_potato_plugin

    rules = unorules.Ruleset.from_names(["classic", "hot-potato"])
    card = hot_potato_plugin.HOT_POTATO
    seed = seed_where(
        rules, 3, lambda s: s.current_player == 0 and any(a.card is card for a in s.legal_actions(0))
    )
    table = server.create(["classic", "hot-potato"], ["bot:heuristic", "bot:heuristic"], seed=seed)
    problems: list[str] = []
    ann = new_page(browser, problems)
    open_seat(ann, server, table)
    ann.click("#start")
    ann.wait_for_function("document.body.dataset.current === '0' && document.body.dataset.started === 'true'")
    node = ann.locator('#hand .card[data-card="HP"] >> nth=0')
    assert node.get_attribute("title") == "Hot Potato"
    assert node.locator(".word").inner_text() == "Hot Potato"
    assert node.locator(".face").inner_text() == "♨"
    assert node.locator(".corner .kind").inner_text() == "HP"
    assert node.evaluate("n => getComputedStyle(n).backgroundColor") == "rgb(200, 80, 30)"
    assert node.evaluate("n => getComputedStyle(n).color") == "rgb(255, 244, 214)"
    folder = Path(os.environ.get("UNORULES_SERVE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(folder / "serve-third-party-card.png"))  # the card in Ann's hand
    node.click()
    if ann.is_visible("#picker"):
        ann.click("#picker-choices button >> nth=0")
    ann.wait_for_selector('#discard .card[data-card="HP"]')
    feed = ann.locator("#feed").inner_text()
    assert "You played Hot Potato" in feed, feed
    assert "Every hand moved on one seat" in feed, feed
    assert problems == []


def test_flip_sides_are_called_light_and_dark_at_the_table(server: Server, browser: Any) -> None:
    rules = unorules.Ruleset.from_names(["flip"])

    def flips_first(state: unorules.GameState) -> bool:
        return state.current_player == 0 and any(
            a.verb == "play" and a.card is not None and a.card.kind == "F" for a in state.legal_actions(0)
        )

    table = server.create(["flip"], ["bot:heuristic"], seed=seed_where(rules, 2, flips_first))
    problems: list[str] = []
    ann = new_page(browser, problems)
    open_seat(ann, server, table)
    ann.click("#start")
    ann.wait_for_function("document.body.dataset.current === '0' && document.body.dataset.started === 'true'")
    assert ann.inner_text("#side") == "light side"
    ann.click('#hand .card.playable[data-card$="F"] >> nth=0')
    if ann.is_visible("#picker"):
        ann.click("#picker-choices button >> nth=0")
    ann.wait_for_function("document.getElementById('side').textContent === 'dark side'")
    assert "side 1" not in ann.inner_text("body")
    assert problems == []


# -- prompts from the rule set -------------------------------------------------------------------


def test_the_status_line_offers_only_what_the_rules_allow(server: Server, browser: Any) -> None:
    forced = unorules.Ruleset.from_names(["classic", "turn-rules"], options={"forced_play": True})

    def can_play(state: unorules.GameState) -> bool:
        return state.current_player == 0 and any(a.verb == "play" for a in state.legal_actions(0))

    seed = seed_where(forced, 2, can_play)
    assert not any(a.verb == "draw" for a in forced.new_game(players=2, seed=seed).legal_actions(0))
    problems: list[str] = []
    for rules, options, expected in (
        (["classic", "turn-rules"], {"forced_play": "on"}, "Your turn: play a raised card"),
        (["classic"], {}, "Your turn: play a raised card or draw"),
    ):
        table = server.create(rules, ["bot:heuristic"], seed=seed, options=options)
        ann = new_page(browser, problems)
        open_seat(ann, server, table)
        ann.click("#start")
        ann.wait_for_function(
            "document.body.dataset.current === '0' && document.body.dataset.started === 'true'"
        )
        assert ann.inner_text("#status") == expected
        drawing = ann.locator('#actions button[data-verb="draw"]').count()
        assert drawing == (0 if options else 1)
    assert problems == []


# -- take-backs against bots ---------------------------------------------------------------------


def test_a_play_is_taken_back_with_the_bots_replies_and_a_draw_is_not(server: Server, browser: Any) -> None:
    rules = unorules.Ruleset.from_names(["classic"])

    def plain_play(state: unorules.GameState) -> bool:
        # Ann to move with a number card to play (no colour to name), the bots answering
        return state.current_player == 0 and any(
            a.verb == "play" and a.card is not None and a.card.number is not None
            for a in state.legal_actions(0)
        )

    table = server.create(
        ["classic"], ["bot:heuristic", "bot:heuristic"], seed=seed_where(rules, 3, plain_play)
    )
    problems: list[str] = []
    ann = new_page(browser, problems)
    open_seat(ann, server, table)
    assert ann.locator("#undo").count() == 0  # nothing to take back before the start
    ann.click("#start")
    ann.wait_for_function("document.body.dataset.current === '0' && document.body.dataset.started === 'true'")
    hand = sorted(ann.eval_on_selector_all("#hand .card", "ns => ns.map((n) => n.dataset.card)"))
    ann.click("#hand .card.playable:not(.wild) >> nth=0")
    # the bots answer at once: Ann's turn again, two bot actions later
    ann.wait_for_function(
        "Number(document.body.dataset.version) >= 3 && document.body.dataset.current === '0'"
    )
    ann.click("#undo")
    ann.wait_for_function("document.body.dataset.version === '0'")
    assert sorted(ann.eval_on_selector_all("#hand .card", "ns => ns.map((n) => n.dataset.card)")) == hand
    assert "Taken back: the last 3 actions" in ann.inner_text("#feed")
    # a draw shows her a card: it stands, and she is told why
    ann.click('#actions button[data-verb="draw"]')
    ann.wait_for_function("Number(document.body.dataset.version) >= 1")
    ann.wait_for_timeout(300)
    version = body(ann, "version")
    ann.click("#undo")
    ann.wait_for_selector("#error:not([hidden])")
    assert "it showed you cards you had not seen (new cards in your hand)" in ann.inner_text("#error")
    assert body(ann, "version") == version
    assert problems == []


def test_take_backs_are_not_offered_at_a_table_of_several_people(server: Server, browser: Any) -> None:
    table = server.create(["classic"], ["open", "bot:heuristic"])
    server.join(table["table"], "Bob")
    problems: list[str] = []
    ann = new_page(browser, problems)
    open_seat(ann, server, table)
    ann.click("#start")
    ann.wait_for_function("document.body.dataset.started === 'true'")
    assert ann.locator("#undo").count() == 0
    assert problems == []


# -- the lobby, a late spectator, the blurb and the title ----------------------------------------


def test_the_lobby_shows_no_cards_and_tells_the_host_to_start(server: Server, browser: Any) -> None:
    table = server.create(["classic"], ["open", "bot:heuristic"])
    problems: list[str] = []
    ann = new_page(browser, problems)
    open_seat(ann, server, table)
    assert ann.inner_text("#status") == "Start the game when everyone is here"
    assert ann.locator("#hand .card").count() == 0
    assert not ann.is_visible("#discard")
    assert not ann.is_visible("#draw-pile")
    watcher = new_page(browser, problems)
    watcher.goto(f"{server.url}/t/{table['table']}")
    watcher.wait_for_selector("#status:not(:empty)")
    assert watcher.inner_text("#status") == "Waiting for the host to start the game"
    ann.click("#start")
    ann.wait_for_function("document.body.dataset.started === 'true'")
    assert ann.is_visible("#discard")
    assert ann.locator("#hand .card").count() == 7
    assert problems == []


def test_a_late_spectator_sees_what_happened_so_far(server: Server, browser: Any) -> None:
    table = server.create(["classic"], ["bot:heuristic", "bot:heuristic"])
    problems: list[str] = []
    ann = new_page(browser, problems)
    open_seat(ann, server, table)
    ann.click("#start")
    for _ in range(6):  # Ann plays a few turns, the bots answer
        ann.wait_for_function(
            "document.body.dataset.current === '0' || document.body.dataset.over === 'true'"
        )
        if body(ann, "over") == "true":
            break
        selector = (
            "#hand .card.playable" if ann.locator("#hand .card.playable").count() else "#actions button"
        )
        ann.click(f"{selector} >> nth=0")
        if ann.is_visible("#picker"):
            ann.click("#picker-choices button >> nth=0")
        ann.wait_for_timeout(200)
    ann.wait_for_timeout(500)
    seen = ann.eval_on_selector_all("#feed li", "ns => ns.length")
    watcher = new_page(browser, problems)
    watcher.goto(f"{server.url}/t/{table['table']}")
    watcher.wait_for_selector("#feed li")
    lines = watcher.eval_on_selector_all("#feed li", "ns => ns.map((n) => n.textContent)")
    assert len(lines) >= min(seen, 6), lines
    assert lines[-1].endswith(" dealt round 1; the first card is " + lines[-1].split("the first card is ")[1])
    assert "Ann" in " ".join(lines)  # the players by name, not "you"
    assert problems == []


def test_the_blurb_says_the_target_the_table_plays_to(server: Server, browser: Any) -> None:
    table = server.create(["classic"], ["bot:heuristic"], options={"target_score": "300"})
    problems: list[str] = []
    ann = new_page(browser, problems)
    open_seat(ann, server, table)
    ann.click("#rules")
    blurb = ann.inner_text('#rules-list .rule[data-plugin="classic"] p')
    assert "to 300" in blurb, blurb
    assert "500" not in blurb, blurb
    assert problems == []


def test_a_rulebooks_name_is_in_the_table_title(tmp_path: Path, browser: Any) -> None:
    book = unorules.rulebook.Rulebook.from_toml(
        'name = "Family night"\nplugins = ["classic", "stacking"]\n[options]\ntarget_score = 250\n'
    )
    with serving(tmp_path / "t.sqlite", bot_delay=0.05, rate=1000, burst=1000, rulebooks=[book]) as server:
        table = server.create(["classic", "stacking"], ["bot:heuristic"], options={"target_score": "250"})
        problems: list[str] = []
        ann = new_page(browser, problems)
        open_seat(ann, server, table)
        assert ann.inner_text("#rules").startswith("Family night (")
        assert "Family night" in ann.title()
        assert problems == []

"""The web table in a real browser: Debian's chromium driven by Playwright.

A uvicorn server runs the app in a thread on the loopback; two pages take the two seats of a
gin table and play a deal to its end, and a page closed mid-turn is played for by the engine
until it comes back. Skipped, with the reason, where Playwright or chromium is missing
(``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (the web-test extra)"
)
pytest.importorskip("httpx2", reason="httpx2 is not installed (the web-test extra)")

import httpx2
import uvicorn
from playwright import sync_api

from rummylib._notation import format_action
from rummylib.bots import GreedyBot
from rummylib.cards import Rank, sort_by_rank, sort_by_suit
from rummylib.records import loads
from rummylib.tiles import format_tile
from rummylib.web import create_app
from rummylib.web._tables import action_cards

CHROMIUM = os.environ.get("RUMMYLIB_CHROMIUM") or next(
    filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH (apt-get install chromium; or RUMMYLIB_CHROMIUM)"
)
WAIT = 15_000  # ms: a step of the page, on a busy two-core machine


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class LiveServer:
    """The app under uvicorn in a thread, on a free loopback port."""

    def __init__(self, records: Path) -> None:
        self.app = create_app(records, seed=11, reconnect_grace=0)
        self.port = _free_port()
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", ws="websockets-sansio"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                return self
            time.sleep(0.05)
        msg = "the server did not start"
        raise RuntimeError(msg)

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def open_table(self, **body: Any) -> list[str]:
        answer = httpx2.post(f"{self.url}/api/tables", json=body)
        assert answer.status_code == 201, answer.text
        return [self.url + link["link"] for link in answer.json()["links"]]

    def state(self, links: list[str]) -> Any:
        table_id = links[0].split("/table/")[1].split("#")[0]
        return self.app.state.server.lobby.get(table_id).state


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        yield browser
        browser.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(tmp_path) as server:
        yield server


def _seq(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-seq") or -1)


def _wait_seq(page: Any, beyond: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) > {beyond}", timeout=WAIT)


def _open(browser: Any, link: str) -> Any:
    page = browser.new_page()
    page.goto(link)
    page.wait_for_function("document.body.dataset.seq !== undefined", timeout=WAIT)
    return page


def _play_first_move(page: Any) -> None:
    before = _seq(page)
    page.locator("#moves button").first.click()
    _wait_seq(page, before)


def _acting(page: Any) -> bool:
    return bool(page.locator("body").get_attribute("data-acting") == "true")


def test_two_pages_play_a_gin_deal_to_its_end(browser: Any, live: LiveServer) -> None:
    links = live.open_table(
        variant="gin",
        settings={"target_score": 1},  # the first deal ends the match
        seats=[{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
    )
    pages = [_open(browser, link) for link in links]
    assert "you are p1" in pages[0].locator("#status").inner_text()
    labels = pages[1].locator("#players .player strong").all_inner_texts()
    assert labels == ["p1 Ann", "p2 Bo (you)"]  # a seat's name beside its number
    assert pages[1].locator("#hand button").count() == 10
    # the phase's words and gin's own facts, under the deal's line
    assert pages[0].locator("#facts").inner_text() == "the first upcard · knock card: 10"
    upcard = live.state(links).discard_pile[-1]
    assert f"your move: take the {upcard} or pass" in pages[0].locator("#info").inner_text()
    assert "waiting for Ann" in pages[1].locator("#info").inner_text()
    for _ in range(400):
        if live.state(links).is_over:
            break
        acting = [page for page in pages if _acting(page)]
        if not acting:
            pages[0].wait_for_timeout(50)
            continue
        page = acting[0]
        seat = pages.index(page)
        # the move a greedy player makes, clicked in the page: its cards first, then its button
        choice = GreedyBot().choose(live.state(links).observation(seat))
        text = format_action(choice).removeprefix(f"p{seat + 1} ")
        for card in action_cards(choice)[:1]:
            page.locator(f"#hand button[data-card='{card}']").first.click()
        button = page.locator(f"#moves button[data-move='{text}']")
        before = _seq(page)
        if button.count():
            button.first.click()
        else:  # a move the list does not hold as such (melds in another order): typed in
            page.locator("#move-text").fill(text)
            page.locator("#typed button").click()
        _wait_seq(page, before)
    state = live.state(links)
    assert state.is_over
    for page in pages:
        page.wait_for_selector("#download", timeout=WAIT)
        assert "Match over" in page.locator("#result").inner_text()
    with pages[1].expect_download() as download:
        pages[1].locator("#download").click()
    path = download.value.path()
    assert loads(Path(path).read_text()).final_state == state
    for page in pages:
        page.close()


@pytest.mark.parametrize("variant", ["gin", "rummikub"])
def test_the_hand_is_shown_in_plays_orders_by_rank_first(
    browser: Any, live: LiveServer, variant: str
) -> None:
    # As `rummylib play` shows it ("777"), then "789" by suit; a tile's colour sorts as the
    # suit that carries it (orange, blue, red, black).
    links = live.open_table(variant=variant, seats=[{"kind": "person"}, {"kind": "bot"}])
    hand = live.state(links).hands[0]
    name = format_tile if variant == "rummikub" else str
    page = _open(browser, links[0])
    try:
        shown = "nodes => nodes.map(n => n.dataset.card)"
        cards = page.locator("#hand button").evaluate_all(shown)
        assert cards == [name(card) for card in sort_by_rank(hand)]
        assert page.locator("#sort-rank").get_attribute("aria-pressed") == "true"
        assert page.locator("#sort-suit").get_attribute("aria-pressed") == "false"
        page.locator("#sort-suit").click()
        cards = page.locator("#hand button").evaluate_all(shown)
        assert cards == [name(card) for card in sort_by_suit(hand)]
        assert page.locator("#sort-suit").get_attribute("aria-pressed") == "true"
    finally:
        page.close()


def test_an_indian_page_marks_the_wild_cards_of_the_hand(browser: Any, live: LiveServer) -> None:
    # Rule 6.3: every card of the set-aside card's rank is wild; the page says so on the card.
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]
    for _ in range(20):  # the server is seeded: the same tables every run
        links = live.open_table(variant="indian_points", seats=seats)
        state = live.state(links)
        (turned,) = state.aside
        rank = Rank.ACE if turned.is_joker else turned.rank
        wild = sorted({str(card) for card in state.hands[0] if card.rank == rank})
        if wild:
            break
    assert wild, "no table of 20 dealt p1 a wild card"
    page = _open(browser, links[0])
    try:
        marked = page.locator("#hand button.wild")
        assert sorted(set(marked.evaluate_all("nodes => nodes.map(n => n.dataset.card)"))) == wild
        count = sum(1 for card in state.hands[0] if str(card) in wild)
        assert marked.count() == count
        first = marked.first
        assert first.get_attribute("aria-label") == f"{first.get_attribute('data-card')}, wild"
        mark = first.locator(".wild-mark")
        assert mark.inner_text() == "wild"
        outer, inner = first.bounding_box(), mark.bounding_box()
        assert outer is not None
        assert inner is not None
        # the mark lies on its card, not beside it
        assert outer["x"] <= inner["x"]
        assert inner["x"] + inner["width"] <= outer["x"] + outer["width"]
        assert outer["y"] <= inner["y"]
        assert inner["y"] + inner["height"] <= outer["y"] + outer["height"]
        others = page.locator("#hand button:not(.wild)").count()
        assert others == len(state.hands[0]) - count  # the others carry no mark
        assert page.locator("#hand button:not(.wild) .wild-mark").count() == 0
    finally:
        page.close()


def test_a_rummikub_page_speaks_of_tiles_a_rack_and_the_pool(
    browser: Any, live: LiveServer
) -> None:
    links = live.open_table(
        variant="rummikub", seats=[{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]
    )
    page = _open(browser, links[0])
    try:
        assert page.locator("#hand button").count() == 14
        assert page.locator("#piles").inner_text().split() == ["pool", "78"]  # no discards
        assert "14 tiles" in page.locator("#players").inner_text()
        assert page.locator("#hand-title").inner_text().strip() == "Your rack"
        assert page.locator("#sort-suit").inner_text() == "by colour"
        assert page.locator("#sort-rank").inner_text() == "by number"
        placeholder = page.locator("#move-text").get_attribute("placeholder")
        assert placeholder == "or type a move, e.g. draw stock"  # the shortest listed move
        # the hint fits its box: the text's width in the box's font, against the room inside
        room, needed = page.evaluate(
            """() => {
                const box = document.getElementById("move-text");
                const style = getComputedStyle(box);
                const inside = box.clientWidth - parseFloat(style.paddingLeft)
                    - parseFloat(style.paddingRight);
                const canvas = document.createElement("canvas").getContext("2d");
                canvas.font = style.font;
                return [inside, canvas.measureText(box.placeholder).width];
            }"""
        )
        assert needed <= room, f"the hint needs {needed:.0f} px, the box has {room:.0f}"
        # seats without a name are named once ("p2", not "p2 p2")
        labels = page.locator("#players .player strong").all_inner_texts()
        assert labels == ["p1 (you)", "p2"]
    finally:
        page.close()
    gin = live.open_table(variant="gin", seats=[{"kind": "person"}, {"kind": "bot"}])
    page = _open(browser, gin[0])
    try:
        assert "discards 1" in page.locator("#piles").inner_text()  # the upcard
        assert "10 cards" in page.locator("#players").inner_text()
        assert page.locator("#sort-suit").inner_text() == "by suit"
    finally:
        page.close()


def test_the_lobby_says_what_each_setting_may_be_and_takes_a_bare_word(
    browser: Any, live: LiveServer
) -> None:
    page = browser.new_page()
    try:
        page.goto(live.url + "/")
        page.wait_for_selector("#variant option[value='rummikub']", state="attached", timeout=WAIT)
        page.select_option("#variant", "rummikub")
        page.locator("details summary").click()
        hints = [
            " ".join(text.split()) for text in page.locator("#settings label").all_inner_texts()
        ]
        assert hints == [
            "initial_meld other values: 0 to 1000000",
            "joker_rule other values: free",
            "target_score other values: 1 to 1000000, null",
            "timeout_draws other values: 0 to 14",
        ]
        page.locator("input[data-setting='joker_rule']").fill("free")  # a choice, unquoted
        page.locator("input[data-setting='target_score']").fill("200")
        page.locator("#open").click()
        page.wait_for_selector("#links a", timeout=WAIT)
        assert page.locator("#lobby-error").inner_text() == ""
        link = page.locator("#links a").first.get_attribute("href")
        assert link is not None
        table = live.state([link]).variant
        assert (table.joker_rule.value, table.target_score) == ("free", 200)
        page.locator("input[data-setting='joker_rule']").fill("free tiles")  # neither
        page.locator("#open").click()
        page.wait_for_function(
            "document.getElementById('lobby-error').textContent !== ''", timeout=WAIT
        )
        # Not JSON and no choice: sent as text, and the server's refusal names the setting.
        assert page.locator("#lobby-error").inner_text() == (
            "bad setting 'free tiles': expected one of 'replace', 'free' for joker_rule"
        )
    finally:
        page.close()


def test_the_lobby_keeps_the_player_count_beside_its_label(browser: Any, live: LiveServer) -> None:
    # The table page's seat list is also #players; its flex layout once applied to the
    # lobby's number box too, which then dropped below its label "Players".
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(live.url + "/")
        page.wait_for_selector("#variant option[value='gin']", state="attached", timeout=WAIT)
        label = page.locator("label", has=page.locator("#players")).bounding_box()
        box = page.locator("#players").bounding_box()
        variant = page.locator("#variant").bounding_box()
        assert label is not None
        assert box is not None
        assert variant is not None
        assert label["height"] < 1.5 * box["height"]  # one line, not the word above the box
        assert box["x"] > label["x"] + 30  # "Players" before the box, as "Variant" before its
        assert variant["x"] > page.locator("label").first.bounding_box()["x"] + 30
        middle = box["y"] + box["height"] / 2
        assert variant["y"] <= middle <= variant["y"] + variant["height"]  # the variant's row
        assert page.locator("#players").evaluate("e => getComputedStyle(e).display") != "flex"
    finally:
        page.close()


def test_a_page_closed_mid_turn_is_auto_played_and_resumes(browser: Any, live: LiveServer) -> None:
    links = live.open_table(variant="gin", seats=[{"kind": "person"}, {"kind": "person"}])
    first, second = (_open(browser, link) for link in links)
    assert _acting(first)
    moved = _seq(second)
    first.close()  # mid-turn: p1 must decide on the upcard
    _wait_seq(second, moved)
    second.wait_for_selector(".player .away", timeout=WAIT)
    state = live.state(links)
    assert any(action.player == 0 for action in state.history)
    assert 1 in state.to_act
    assert _acting(second)
    first = _open(browser, links[0])  # the same link: the seat comes back
    assert "you are p1" in first.locator("#status").inner_text()
    second.wait_for_function("!document.querySelector('.player .away')", timeout=WAIT)
    for _ in range(20):  # p2 plays until it is p1's turn again, now in person
        if _acting(first):
            break
        if _acting(second):
            _play_first_move(second)
        else:
            first.wait_for_timeout(50)
    assert _acting(first)
    before = len(live.state(links).history)
    _play_first_move(first)
    after = live.state(links).history
    assert len(after) > before
    assert after[before].player == 0
    first.close()
    second.close()

"""Take the docs' screenshot of a web table (docs/_static/web-table.png) with headless chromium.

python benchmarks/screenshot_web.py [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from pathlib import Path

import httpx2
import uvicorn
from playwright.sync_api import sync_playwright

from rummylib.web import create_app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=Path("docs/_static/web-table.png"))
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(tempfile.mkdtemp(), seed=3, reconnect_grace=0)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    body = {
        "variant": "rummy101",
        "seats": [
            {"kind": "person", "name": "Ann"},
            {"kind": "bot", "bot": "greedy", "name": "Greedy"},
            {"kind": "bot", "bot": "greedy", "name": "Random"},
        ],
    }
    link = url + httpx2.post(f"{url}/api/tables", json=body).json()["links"][0]["link"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 860})
        page.goto(link)
        page.wait_for_function("document.body.dataset.acting === 'true'")
        for _ in range(12):  # a few turns, so the table and the log have something in them
            before = page.locator("body").get_attribute("data-seq")
            page.locator("#moves button").first.click()
            page.wait_for_function(f"document.body.dataset.seq !== '{before}'")
            page.wait_for_function("document.body.dataset.acting === 'true'")
        draw = page.locator("#moves button[data-move='draw stock']")
        if draw.count():  # the rest of a turn shows more: the moves that use a chosen card
            before = page.locator("body").get_attribute("data-seq")
            draw.click()
            page.wait_for_function(f"document.body.dataset.seq !== '{before}'")
            page.wait_for_function("document.body.dataset.acting === 'true'")
        # choose a card of the first listed meld (else of the first discard): the list then
        # holds the moves that use it
        hand = set(page.locator("#hand button").evaluate_all("ns => ns.map(n => n.dataset.card)"))
        moves = page.locator("#moves button").evaluate_all("ns => ns.map(n => n.dataset.move)")
        moves.sort(key=lambda move: move.startswith("discard "))
        cards = [token for move in moves for token in move.split()[1:] if token in hand]
        if cards:
            page.locator(f"#hand button[data-card='{cards[0]}']").first.click()
        page.wait_for_timeout(300)
        page.screenshot(path=str(args.out), full_page=False)
        browser.close()
    server.should_exit = True


if __name__ == "__main__":
    main()

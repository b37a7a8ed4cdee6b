"""The table page across a dropped connection, in chromium: the connection is cut under the page
(Playwright stands between the page and the server's websocket), the page says so, reconnects by
itself, keeps the cards chosen to pass, refuses a move tried while it is down with words, and the
hand goes on to its end."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.browser.test_play_browser import _new_page, _no_script_errors, _play_until_hand_over
from tests.browser.test_review_browser import _quick

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class Cutter:
    """Every websocket the page opens, passed through to the server while the network is up;
    :meth:`cut` drops the open one from both ends and refuses new ones until :meth:`restore`."""

    def __init__(self, page: Any) -> None:
        self.sockets: list[tuple[Any, Any]] = []
        self.down = False
        page.route_web_socket(re.compile(r"/ws/"), self._open)

    def _open(self, ws: Any) -> None:
        if self.down:
            ws.close()
        else:
            self.sockets.append((ws, ws.connect_to_server()))

    def cut(self) -> None:
        self.down = True
        page_side, server_side = self.sockets[-1]
        server_side.close()
        page_side.close()

    def restore(self, page: Any) -> None:
        """Let the page's next try through, and wait until it has drawn the view the server sent."""
        opened = len(self.sockets)
        self.down = False
        for _ in range(400):
            if len(self.sockets) > opened:
                break
            page.wait_for_timeout(50)
        assert len(self.sockets) > opened, "the page did not connect again within 20 s"
        page.wait_for_function(
            "!/reconnecting|Not connected/.test(document.querySelector('#message').textContent)"
        )


def _selected(page: Any) -> list[str]:
    return sorted(page.locator("#hand .card.selected").evaluate_all("els => els.map((e) => e.dataset.card)"))


def _says(page: Any, words: str) -> None:
    page.wait_for_function(f"document.querySelector('#message').textContent.includes({words!r})")


def test_a_dropped_connection_keeps_the_pass_choice_and_the_hand_goes_on(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    page = _new_page(browser)
    cutter = Cutter(page)
    page.goto(_quick(server_url)["play_url"])
    page.wait_for_selector("#confirm-pass")
    cards = page.locator("#hand .card")
    cards.nth(0).click()
    cards.nth(5).click()
    chosen = _selected(page)
    assert len(chosen) == 2

    # Cut while choosing: the page says so, and back again the two cards are still chosen.
    cutter.cut()
    _says(page, "Connection lost")
    cutter.restore(page)
    assert _selected(page) == chosen
    assert "Choose 3 cards to pass" in page.locator("#message").inner_text()
    page.locator("#hand .card:not(.selected)").first.click()
    assert len(_selected(page)) == 3
    page.click("#confirm-pass")
    page.wait_for_selector("#confirm-pass", state="detached")

    # Cut while it is this seat's turn: a card clicked meanwhile is refused in words and nothing is
    # lost; back again, the hand is played to its end.
    page.wait_for_selector("#me-plate.to-move")
    before = page.locator("#hand .card").count()
    cutter.cut()
    _says(page, "Connection lost")
    page.locator("#hand .card:not(.illegal)").first.click()
    _says(page, "Not connected")
    assert page.locator("#hand .card").count() == before
    cutter.restore(page)
    page.screenshot(path=str(artifacts / "table-reconnected.png"))
    assert page.locator("#hand .card").count() == before
    assert page.locator("#me-plate.to-move").count() == 1
    assert _play_until_hand_over(page, {}) == "Hand 1 is over"
    _no_script_errors(page)
    page.context.close()

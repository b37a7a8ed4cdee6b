"""Play this deal again in chromium: finish a hand, press "Play this deal again" in the end-of-hand
dialog and on the replay page, and be dealt the same cards at a practice table."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from tests.browser.test_play_browser import _new_page, _no_script_errors, _play_until_hand_over

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _get(url: str) -> Any:
    return json.loads(urllib.request.urlopen(url, timeout=10).read())


def _quick(server_url: str) -> dict[str, Any]:
    body = json.dumps({"name": "Ada", "level": "random"}).encode()
    req = urllib.request.Request(server_url + "/api/quick", body, {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def _hand_codes(page: Any) -> list[str]:
    page.wait_for_function("document.querySelectorAll('#hand .card').length === 13")
    return sorted(page.locator("#hand .card").evaluate_all("els => els.map((e) => e.dataset.card)"))


def test_play_this_deal_again_deals_the_same_cards(browser: Any, server_url: str, artifacts: Path) -> None:
    table = _quick(server_url)
    page = _new_page(browser)
    page.goto(table["play_url"])
    assert _play_until_hand_over(page, {}) == "Hand 1 is over"
    dealt = _get(f"{server_url}/api/tables/{table['id']}/hands/1")["seats"][0]["dealt"]
    # From the end-of-hand dialog: the new table opens beside the game still being played.
    with page.context.expect_page() as opened:
        page.click("#play-again")
    again = opened.value
    again.wait_for_url("**/play/*")
    assert _hand_codes(again) == sorted(dealt)
    again.wait_for_selector("#chips .practice")
    assert "hand 1 again" in again.locator("#chips .practice").inner_text()
    again.screenshot(path=str(artifacts / "again-table.png"))
    # From the replay page, as another seat: that seat's cards.
    replay = _new_page(browser)
    replay.goto(f"{server_url}/replay/{table['id']}/1")
    replay.wait_for_selector("#again-seat option >> nth=3", state="attached")
    replay.select_option("#again-seat", "2")
    replay.click("#again")
    replay.wait_for_url("**/play/*")
    north = _get(f"{server_url}/api/tables/{table['id']}/hands/1")["seats"][2]["dealt"]
    assert _hand_codes(replay) == sorted(north)
    _no_script_errors(page, replay)
    page.context.close()
    replay.context.close()

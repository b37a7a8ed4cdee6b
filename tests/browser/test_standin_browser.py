"""A registered bot that crashes at a served table: the page shows its seat played by a stand-in."""

from __future__ import annotations

import json
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import serving

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[str]:
    """``hearts serve`` with the bot "mybot", a program that exits at once."""
    crash = f"{sys.executable} -c 'import sys; sys.exit(3)'"
    with serving(tmp_path, "--bot", f"mybot={crash}") as url:
        yield url


def test_a_crashed_bots_seat_shows_its_stand_in(browser: Any, bot_server: str, artifacts: Path) -> None:
    seats = [{"kind": "bot", "level": "mybot"}] + [{"kind": "computer", "level": "random"}] * 3
    body = json.dumps({"seats": seats, "options": {"pause": 1}}).encode()
    request = urllib.request.Request(f"{bot_server}/api/tables", data=body, headers={"Content-Type": "application/json"})
    table = json.loads(urllib.request.urlopen(request, timeout=30).read())
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(table["watch_url"])
    seat = page.locator("#seat-0 .sub")
    seat.filter(has_text="stand-in for mybot").wait_for()
    text = seat.inner_text()
    assert "medium stand-in for mybot (crashed: " in text and "exit status 3" in text, text
    page.screenshot(path=str(artifacts / "standin-desktop.png"))
    assert errors == []

"""A registered bot that crashes at a served table: the page shows its seat played by a stand-in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[str]:
    """``hearts serve`` with the bot "mybot", a program that exits at once."""
    port = free_port()
    crash = f"{sys.executable} -c 'import sys; sys.exit(3)'"
    log = open(tmp_path / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "hearts", "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'h.db'}",
         "--log-level", "warning", "--bot", f"mybot={crash}"],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/options", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"hearts serve did not start: {(tmp_path / 'server.log').read_text()}") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


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

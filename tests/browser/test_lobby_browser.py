"""Two people meet in chromium: each picks a name, one makes a public table, the other sees it appear
in the lobby without reloading and sits; they chat (markup stays text), computers hold the other
seats, they play a short game in which one lets the turn clock run out once and sees the move made
for them, both see their new ratings, and they rematch. At desktop and phone sizes."""

from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import serving
from tests.browser.test_play_browser import _no_script_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
#: Where a card is clicked: its corner, visible even where a phone's hand lies in two overlapping rows.
CORNER = {"x": 12, "y": 16}


@pytest.fixture(scope="module")
def lobby_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own, so its lobby holds only this module's tables."""
    # One rated game puts a player on this server's leaderboard (5 by default), so the test can see it.
    with serving(tmp_path_factory.mktemp("lobby-db"), "--pause", "0", "--leaderboard-min-games", "1") as url:
        yield url


def _person(browser: Any, size: str) -> Any:
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone, device_scale_factor=2 if phone else 1)
    context.add_init_script("localStorage.setItem('hearts.speed', '0')")
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.script_errors = []
    page.on("pageerror", lambda exc: page.script_errors.append(str(exc)))
    return page


def _name(page: Any, url: str, name: str) -> None:
    page.goto(url + "/")
    page.wait_for_function("document.querySelector('#my-name').value.length > 0")  # a name is suggested
    page.fill("#my-name", name)
    page.click("#save-name")
    page.wait_for_function("document.querySelector('#my-rating').textContent.includes('saved')")


def _act(page: Any) -> str:
    """Do what a person would do now, clicking cards by their corner: 'over:<the dialog's title>',
    'pass', 'play', or '' (waiting, or a dialog opened over what was to be clicked)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    title = page.locator("#overlay:not([hidden]) #dialog-title")
    if title.count():
        text = title.inner_text()
        if text.startswith("Game over"):
            return "over:" + text
        page.locator("#overlay:not([hidden]) #next-hand").click()
        return "next"
    try:
        if page.locator("#confirm-pass").count():
            for i in range(3):
                page.locator("#hand .card").nth(i).click(position=CORNER, timeout=3000)
            page.click("#confirm-pass", timeout=3000)
            page.wait_for_selector("#confirm-pass", state="detached")
            return "pass"
        if page.locator("#me-plate.to-move").count() and page.locator("#hand .card:not(.illegal)").count():
            before = page.locator("#hand .card").count()
            page.locator("#hand .card:not(.illegal)").first.click(position=CORNER, timeout=3000)
            page.wait_for_function(f"document.querySelectorAll('#hand .card').length < {before} || !document.querySelector('#overlay').hidden")
            return "play"
    except PlaywrightTimeoutError:
        if page.locator("#overlay").is_hidden():
            raise
    return ""


def _get(url: str) -> Any:
    return json.loads(urllib.request.urlopen(url, timeout=10).read())


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_two_people_meet_chat_play_rate_and_rematch(browser: Any, lobby_url: str, artifacts: Path, size: str) -> None:
    ann, bob = _person(browser, "desktop"), _person(browser, size)
    ann_name, bob_name = f"Ann {size}", f"Bob {size}"
    _name(ann, lobby_url, ann_name)
    _name(bob, lobby_url, bob_name)
    # Ann makes a public table: two people, two computers, a game to 1 point, a short clock.
    ann.check("#public")
    ann.fill("#target", "1")
    ann.fill("#clock-play", "6")
    ann.fill("#wait", "600")
    ann.click("#create")
    ann.wait_for_url("**/play/*")
    ann.wait_for_selector("#hand .card")
    # Bob, on the lobby page all along, sees it appear (pushed, no reload) and sits.
    row = bob.locator(".lobby-table", has_text=ann_name)
    row.wait_for()
    assert "free seat" in row.inner_text()
    _no_sideways_scroll(bob)
    bob.screenshot(path=str(artifacts / f"lobby-open-tables-{size}.png"), full_page=True)
    row.get_by_role("button", name="Sit").click()
    bob.wait_for_url("**/play/*")
    bob.wait_for_selector("#hand .card")
    # They chat: markup is printed as the text it is, never run or drawn.
    ann.click("#chat-btn")
    markup = "<script>window.pwned=1</script><b>hi</b> Bob"
    ann.fill("#chat-text", markup)
    ann.click("#chat-send")
    bob.click("#chat-btn")
    bob.locator("#chat-log .chat-line .text", has_text="hi</b> Bob").wait_for()
    assert bob.locator("#chat-log .chat-line .text").first.inner_text() == markup
    assert bob.locator("#chat-log b, #chat-log script").count() == 0 and bob.evaluate("window.pwned") is None
    bob.fill("#chat-text", "good luck")
    bob.click("#chat-send")
    ann.locator("#chat-log .text", has_text="good luck").wait_for()
    # Ann mutes Bob for herself: his lines are hidden on her page (and stay shown on his).
    ann.locator("#chat-log .chat-line", has_text="good luck").locator(".mute").click()
    assert ann.locator("#chat-log .chat-line", has_text="good luck").is_hidden()
    assert bob.locator("#chat-log .chat-line", has_text="good luck").is_visible()
    _no_sideways_scroll(bob)
    bob.screenshot(path=str(artifacts / f"lobby-chat-{size}.png"))
    ann.click("#chat-close")
    bob.click("#chat-close")
    # They play; Bob once lets the clock run out on a card and sees it played for him.
    clocked = False
    over: dict[str, str] = {}
    deadline = time.monotonic() + 240
    while len(over) < 2 and time.monotonic() < deadline:
        did_a = "" if "ann" in over else _act(ann)
        if did_a.startswith("over:"):
            over["ann"] = did_a[5:]
        if "bob" not in over and not clocked and bob.locator("#me-plate.to-move").count() and not bob.locator("#confirm-pass").count():
            before = bob.locator("#hand .card").count()
            if before:
                bob.wait_for_function("document.querySelector('#clock').textContent.includes('Your move')")
                bob.wait_for_function(f"document.querySelectorAll('#hand .card').length < {before}", timeout=30_000)
                clocked = True
                continue
        did_b = "" if "bob" in over else _act(bob)
        if did_b.startswith("over:"):
            over["bob"] = did_b[5:]
        if not did_a and not did_b:
            ann.wait_for_timeout(40)
    assert clocked, "Bob's clock never ran out"
    assert over.get("ann", "").startswith("Game over") and over.get("bob", "").startswith("Game over"), over
    # Both are rated: their pages show their new ratings.
    for page, name in ((ann, ann_name), (bob, bob_name)):
        deadline = time.monotonic() + 15
        while _get(f"{lobby_url}/api/players/{urllib.parse.quote(name)}")["games"] < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        profile = page.context.new_page()
        profile.goto(f"{lobby_url}/players/{urllib.parse.quote(name)}")
        profile.wait_for_selector("#player-rating")
        assert "1 rated game" in profile.locator("#board").inner_text()
        float(profile.locator("#player-rating").inner_text())  # a number: the new rating
        rating = profile.locator("#player-rating").inner_text()
        profile.goto(f"{lobby_url}/leaderboard")
        row = profile.locator("#leaderboard tr", has_text=name)
        row.wait_for()
        assert row.locator(".rating").inner_text() == rating  # the same new rating, on the leaderboard
        profile.close()
    # Play again: it starts once both accept, the same two people at a new table.
    old = ann.url
    ann.click("#rematch")
    ann.wait_for_function("document.querySelector('#message').textContent.includes('waiting for')")
    bob.click("#rematch")
    ann.wait_for_url(lambda url: "/play/" in url and url != old)
    bob.wait_for_url(lambda url: "/play/" in url and url not in (old,))
    ann.wait_for_selector("#hand .card")
    bob.wait_for_selector("#hand .card")
    assert bob_name in ann.locator("#seats").inner_text()
    _no_script_errors(ann, bob)
    ann.context.close()
    bob.context.close()

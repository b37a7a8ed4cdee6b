"""Two people meet in chromium: each picks a name, one makes a public table, the other sees it appear
in the lobby without reloading and sits; they chat (markup stays text), computers hold the other
seats, they play a short game in which one lets the turn clock run out once and sees the move made
for them, both open their names on the leaderboard and see their new ratings on their pages, the
replay of the game shows their chat, a visitor's review link reviews the player's seat, and they
rematch. At desktop and phone sizes, both people at the same size.

And a public table whose free seats wait for people: computers take them once the wait is over, and
a watcher's chat reaches its player only between hands when its creator asked for that."""

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
    return _page(context)


def _page(context: Any) -> Any:
    """A new page of ``context`` that keeps its script errors (``_no_script_errors`` reads them)."""
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
    ann, bob = _person(browser, size), _person(browser, size)
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
    # Both are rated: each opens their name on the leaderboard and sees the same new rating on their
    # page, over a small chart that starts where every new player starts.
    profiles = {}
    for page, name in ((ann, ann_name), (bob, bob_name)):
        deadline = time.monotonic() + 15
        while _get(f"{lobby_url}/api/players/{urllib.parse.quote(name)}")["games"] < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        profile = profiles[name] = _page(page.context)
        profile.goto(f"{lobby_url}/leaderboard")
        row = profile.locator("#leaderboard tr", has_text=name)
        row.wait_for()
        rating = row.locator(".rating").inner_text()
        float(rating)  # a number: the new rating
        row.get_by_role("link", name=name, exact=True).click()
        profile.wait_for_url(f"**/players/{urllib.parse.quote(name)}")
        profile.wait_for_selector("#player-rating")
        assert profile.locator("#player-rating").inner_text() == rating
        assert "1 rated game" in profile.locator("#board").inner_text()
        assert profile.locator("svg.rating-chart").is_visible()
        _no_sideways_scroll(profile)
    profiles[bob_name].screenshot(path=str(artifacts / f"lobby-player-page-{size}.png"), full_page=True)
    # Bob follows his game's replay link: the replay shows what was said at the table, as text.
    replay = profiles[bob_name]
    replay.get_by_role("link", name="replay", exact=True).click()
    replay.wait_for_url("**/replay/**")
    replay.locator("#replay-chat-log .text", has_text="good luck").wait_for()
    assert replay.locator("#replay-chat-log .text").all_inner_texts() == [markup, "good luck"]
    assert replay.locator("#replay-chat-log b, #replay-chat-log script").count() == 0 and replay.evaluate("window.pwned") is None
    # Ann, on Bob's page, follows its review link: it reviews Bob's seat (not hers, though her browser
    # holds her seat's link to that table), and the server takes it up.
    review = profiles[ann_name]
    review.goto(f"{lobby_url}/leaderboard")
    review.locator("#leaderboard tr", has_text=bob_name).get_by_role("link", name=bob_name, exact=True).click()
    review.get_by_role("link", name="review", exact=True).click()
    review.wait_for_url("**/review/**")
    review.wait_for_selector("#seat-box:not([hidden])")
    assert review.evaluate("document.querySelector('#seat').selectedOptions[0].text") == bob_name
    # The first answer: the review's progress (or the review), or a refusal that hides both.
    review.wait_for_function(
        "!document.querySelector('#review').hidden || document.querySelector('#progress-box').hidden"
        " || /reviewed|Waiting/.test(document.querySelector('#progress-text').textContent)"
    )
    assert review.locator("#review").is_visible() or review.locator("#progress-box").is_visible(), review.locator("#summary").inner_text()
    _no_script_errors(*profiles.values())
    for profile in profiles.values():
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


#: How long the free seats of the table below wait for people. The form allows 0, but then computers
#: sit at the lobby's next look (within a second) and the table is never seen waiting; a few seconds
#: show the wait and what ends it.
WAIT = 5


def test_public_table_waits_for_people_then_computers_sit(browser: Any, lobby_url: str) -> None:
    """At desktop size only: the test above covers these pages at a phone's size."""
    cyd, dee = _person(browser, "desktop"), _person(browser, "desktop")
    _name(cyd, lobby_url, "Cyd Waits")
    _name(dee, lobby_url, "Dee Watches")
    # Cyd makes a public table to 1 point whose three other seats wait a few seconds for people, and
    # keeps what watchers write from the players until the hand is over.
    cyd.check("#public")
    for seat in (1, 2, 3):
        cyd.select_option(f"#seat-kind-{seat}", "human")
    cyd.fill("#target", "1")
    cyd.fill("#wait", str(WAIT))
    cyd.check("#spectator-chat-held")
    made = time.monotonic()
    cyd.click("#create")
    cyd.wait_for_url("**/play/*")
    cyd.wait_for_selector("#hand .card")
    for seat in (1, 2, 3):
        assert "waiting to join" in cyd.locator(f"#seat-{seat} .sub").inner_text()
    # Dee, on the lobby, sees it waiting with free seats; once the wait is over computers take them,
    # on Cyd's page and in the lobby, and the game is played.
    row = dee.locator(".lobby-table", has_text="Cyd Waits")
    row.wait_for()
    assert "waiting" in row.inner_text() and "free seat" in row.inner_text()
    for seat in (1, 2, 3):
        cyd.wait_for_function(f"document.querySelector('#seat-{seat} .sub').textContent.includes('computer')", timeout=(WAIT + 20) * 1000)
    assert time.monotonic() - made >= WAIT
    row.filter(has_text="playing").wait_for()
    assert "free seat" not in row.inner_text() and row.inner_text().count("medium") >= 3
    # Dee watches and writes; Cyd, playing the hand, does not see it until the hand is over.
    row.get_by_role("link", name="Watch", exact=True).click()
    dee.wait_for_url("**/watch/*")
    dee.wait_for_selector("#seat-0")
    dee.click("#chat-btn")
    dee.fill("#chat-text", "hello from the rail")
    dee.click("#chat-send")
    dee.locator("#chat-log .text", has_text="hello from the rail").wait_for()
    cyd.click("#chat-btn")
    cyd.fill("#chat-text", "thanks")
    cyd.click("#chat-send")
    cyd.locator("#chat-log .text", has_text="thanks").wait_for()
    # Dee's line was said first: had it been for Cyd during the hand, it would have reached him first.
    assert cyd.locator("#chat-log .text", has_text="hello from the rail").count() == 0
    cyd.click("#chat-close")
    did = ""
    deadline = time.monotonic() + 120
    while not did.startswith("over:") and time.monotonic() < deadline:
        did = _act(cyd)
        if not did:
            cyd.wait_for_timeout(40)
    assert did.startswith("over:Game over"), did
    cyd.locator("#chat-log .chat-line", has_text="hello from the rail").wait_for(state="attached")
    assert "(watching)" in cyd.locator("#chat-log .chat-line", has_text="hello from the rail").inner_text()
    _no_script_errors(cyd, dee)
    cyd.context.close()
    dee.context.close()

"""A person plays in chromium: from the lobby through passing and a whole hand to the end-of-hand
screen; and two people at one table by invite links with two computer players."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _new_page(browser: Any, speed: str = "0") -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    # Animation speed is a page setting kept in localStorage: "0" turns animations off for speed.
    context.add_init_script(f"localStorage.setItem('hearts.speed', '{speed}')")
    # These tests play every card themselves: no card is played for them (test_second_hour_browser.py).
    context.add_init_script("localStorage.setItem('hearts.autoPlay', '0')")
    page = context.new_page()
    page.set_default_timeout(20_000)
    # Any script error on the page fails the test (checked by _no_script_errors at the end).
    page.script_errors = []
    page.on("pageerror", lambda exc: page.script_errors.append(str(exc)))
    return page


def _no_script_errors(*pages: Any) -> None:
    for page in pages:
        assert page.script_errors == [], page.script_errors


def _click_unless_covered(page: Any, target: Any) -> bool:
    """Click ``target``; False when a dialog covers it instead. The end-of-hand dialog opens after
    its score fetch, so it can appear after the next hand is shown and after the caller looked
    for it: the caller then goes round and finds the dialog."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        target.click(timeout=3000)
    except PlaywrightTimeoutError:
        if page.locator("#overlay").is_hidden():
            raise
        return False
    return True


def _step(page: Any, state: dict[str, Any]) -> str:
    """Do the one thing a person would do now; return what was done ('' if waiting)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    dialog = page.locator("#overlay:not([hidden]) #dialog-title")
    if dialog.count():
        return "over:" + dialog.inner_text()
    confirm = page.locator("#confirm-pass")
    if confirm.count():
        # Click unselected cards until three are chosen: a reconnect's fresh view clears a choice.
        for _ in range(6):
            if page.locator("#hand .card.selected").count() >= 3:
                break
            if not _click_unless_covered(page, page.locator("#hand .card:not(.selected)").first):
                return ""
        assert page.locator("#hand .card.selected").count() == 3
        assert confirm.is_enabled()
        if not _click_unless_covered(page, confirm):
            return ""
        page.wait_for_selector("#confirm-pass", state="detached")
        return "pass"
    if page.locator("#me-plate.to-move").count() and page.locator("#hand .card").count():
        illegal = page.locator("#hand .card.illegal")
        if illegal.count() and not state.get("refused"):
            # A greyed card is refused with the engine's reason, and nothing changes.
            before = page.locator("#hand .card").count()
            if not _click_unless_covered(page, illegal.first):
                return ""
            page.wait_for_selector("#message.error")
            state["refused"] = page.locator("#message").inner_text()
            assert page.locator("#hand .card").count() == before
        if page.locator("#trick .card").count() >= 2 and "mid_trick" in state:
            page.screenshot(path=str(state.pop("mid_trick")))
        before = page.locator("#hand .card").count()
        if not _click_unless_covered(page, page.locator("#hand .card:not(.illegal)").first):
            return ""
        try:
            page.wait_for_function(
                f"document.querySelectorAll('#hand .card').length < {before} || !document.querySelector('#overlay').hidden",
                timeout=10_000,
            )
        except PlaywrightTimeoutError:
            return ""  # the click fell between two updates of the page: go round and look again
        return "play"
    return ""


def _play_until_hand_over(page: Any, state: dict[str, Any], limit: float = 120.0) -> str:
    deadline = time.monotonic() + limit
    done: list[str] = []
    while time.monotonic() < deadline:
        did = _step(page, state)
        if did.startswith("over:"):
            state["actions"] = done
            return did[5:]
        if did:
            done.append(did)
        else:
            page.wait_for_timeout(40)
    raise AssertionError(f"the hand did not end in {limit}s; did {done}")


def test_lobby_quick_game_whole_hand(browser: Any, server_url: str, artifacts: Path) -> None:
    page = _new_page(browser)
    page.goto(server_url + "/")
    page.wait_for_selector("#quick-level-2")
    page.fill("#quick-name", "Ada")
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    page.click("#quick-play")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 13
    # Every card and control carries a label for screen readers.
    assert page.locator("#hand .card[aria-label]").count() == 13
    assert "Choose 3 cards to pass" in page.locator("#message").inner_text()
    # The hint button: the strongest computer level's pass, with its reason, picked for us.
    page.click("#hint")
    page.wait_for_function("document.querySelector('#message').textContent.startsWith('Hint')", timeout=30_000)
    assert page.locator("#hand .card.selected").count() == 3
    assert page.locator("#confirm-pass").is_enabled()
    page.click("#confirm-pass")
    page.wait_for_selector("#confirm-pass", state="detached")
    state: dict[str, Any] = {"mid_trick": artifacts / "table-mid-trick.png"}
    title = _play_until_hand_over(page, state)
    assert title == "Hand 1 is over"
    assert "pass" not in state["actions"] and state["actions"].count("play") == 13
    assert "refused" in state, "no greyed card was ever offered to click"
    assert state["refused"].startswith("You can't play "), state["refused"]  # said to the player, cards with symbols
    # The whole deal: four seats, 13 cards each, and the score sheet's first row.
    assert page.locator(".deal .card-row").count() == 4
    assert page.locator(".deal .card").count() == 52
    assert page.locator("table.sheet tbody tr").count() == 2
    page.screenshot(path=str(artifacts / "end-of-hand.png"))
    # The seat's "Download record": the finished hand only and no seed while the game goes on (the
    # page sends the seat's token in a header).
    with page.expect_download() as download:
        page.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["seed"] is None and len(record["hands"]) == 1 and record["hands"][0]["points"]
    page.click("#next-hand")
    page.wait_for_selector("#overlay", state="hidden")
    page.wait_for_selector("#hand .card")
    _no_script_errors(page)
    page.context.close()


def test_two_people_by_invite_links(browser: Any, server_url: str, artifacts: Path) -> None:
    body = {
        "preset": "no-passing",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "random"}, {"kind": "human", "name": "Bob"}, {"kind": "computer", "level": "random"}],
    }
    request = urllib.request.Request(server_url + "/api/tables", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    links = json.loads(urllib.request.urlopen(request, timeout=10).read())
    # Bob plays with the "fast" animations on, so the animated path (card to trick, trick to winner) runs too.
    ann, bob = _new_page(browser), _new_page(browser, speed="0.5")
    ann.goto(links["seats"][0]["join_url"])
    bob.goto(links["seats"][2]["join_url"])
    for page in (ann, bob):
        page.wait_for_selector("#hand .card")
    # Each sees the other by name across the table, with card backs only.
    assert "Bob" in ann.locator("#seat-2").inner_text()
    assert "Ann" in bob.locator("#seat-0").inner_text()
    assert ann.locator("#seat-2 .card.face").count() == 0
    states: list[dict[str, Any]] = [{}, {}]
    over = [None, None]
    deadline = time.monotonic() + 120
    while None in over and time.monotonic() < deadline:
        idle = True
        for i, page in enumerate((ann, bob)):
            if over[i] is None:
                did = _step(page, states[i])
                if did.startswith("over:"):
                    over[i] = did[5:]
                elif did:
                    idle = False
        if idle:
            ann.wait_for_timeout(40)
    assert over == ["Hand 1 is over", "Hand 1 is over"]
    bob.screenshot(path=str(artifacts / "two-people-end-of-hand.png"))
    _no_script_errors(ann, bob)
    for page in (ann, bob):
        page.context.close()


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_moon_choice_in_the_browser(browser: Any, server_url: str, artifacts: Path) -> None:
    """The person in seat 1 shoots the moon (the scenario of test_server's moon test) and chooses by button."""
    from websockets.sync.client import connect

    body = {"preset": "britannica", "rules": {"pass_cycle": ["hold"]}, "seed": 11, "seats": [{"kind": "human"}] * 4}
    request = urllib.request.Request(server_url + "/api/tables", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    links = json.loads(urllib.request.urlopen(request, timeout=10).read())
    ws_base = server_url.replace("http://", "ws://")
    others = {s: connect(f"{ws_base}/ws/{links['seats'][s]['token']}") for s in (0, 2, 3)}
    views: dict[int, dict[str, Any]] = {}
    sent: dict[int, int] = {}
    page = _new_page(browser)
    page.goto(links["seats"][1]["join_url"])
    page.wait_for_selector("#hand .card")
    deadline = time.monotonic() + 120
    try:
        while not page.locator("#actions button[data-option]").count():
            assert time.monotonic() < deadline, "no moon choice was offered"
            for seat, ws in others.items():  # seat 0 plays its highest card, 2 and 3 their lowest
                try:
                    while True:
                        m = json.loads(ws.recv(timeout=0.005))
                        if "view" in m:
                            views[seat] = dict(m["view"], seq=m["seq"])
                except TimeoutError:
                    pass
                v = views.get(seat)
                if v and v["phase"] == "play" and seat in v["to_move"] and sent.get(seat) != v["seq"]:
                    ranked = sorted(v["legal"], key=lambda c: RANKS.index(c[:-1]))
                    ws.send(json.dumps({"type": "play", "card": ranked[-1] if seat == 0 else ranked[0], "seq": v["seq"]}))
                    sent[seat] = v["seq"]
            if page.locator("#overlay:not([hidden]) #next-hand").count():  # an earlier hand's end: go on
                page.click("#next-hand")
            elif page.locator("#trick.finished").count():  # a finished trick waits for the next card: click it away
                page.mouse.click(200, 600)
            if (
                page.locator("#me-plate.to-move").count()
                and not page.locator("#actions button:not(#claim)").count()
                and page.locator("#overlay").is_hidden()
            ):
                playable = page.locator("#hand .card:not(.illegal)").all()
                if playable:
                    lowest = min(playable, key=lambda el: RANKS.index(el.get_attribute("data-card")[:-1]))
                    before = page.locator("#hand .card").count()
                    if not _click_unless_covered(page, lowest):
                        continue  # the last hand's dialog: its "Next hand" is pressed next time round
                    page.wait_for_function(
                        f"document.querySelectorAll('#hand .card').length < {before} || document.querySelector('#actions button:not(#claim)')"
                        " || !document.querySelector('#overlay').hidden"
                    )
            page.wait_for_timeout(20)
        assert "shot the moon" in page.locator("#message").inner_text()
        page.screenshot(path=str(artifacts / "moon-choice.png"))
        page.click("#actions button[data-option='subtract-from-self']")
        page.wait_for_selector("#overlay:not([hidden]) #dialog-title")
        assert "shot the moon" in page.locator("#dialog").inner_text()
        _no_script_errors(page)
    finally:
        for ws in others.values():
            ws.close()
        page.context.close()


def test_phone_touch_keyboard_and_labels(browser: Any, server_url: str, artifacts: Path) -> None:
    body = {"name": "Pat", "level": "random"}
    request = urllib.request.Request(server_url + "/api/quick", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    play_url = json.loads(urllib.request.urlopen(request, timeout=10).read())["play_url"]
    context = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(play_url)
    page.wait_for_selector("#hand .card")
    # The whole hand fits a narrow screen, and every card can be reached.
    boxes = [page.locator("#hand .card").nth(i).bounding_box() for i in range(13)]
    assert all(b is not None and b["x"] >= 0 and b["x"] + b["width"] <= 390 and b["y"] + b["height"] <= 800 for b in boxes)
    # Every control has a name a screen reader can read.
    unnamed = page.evaluate(
        "[...document.querySelectorAll('button, select, input, a')]"
        ".filter(e => !(e.getAttribute('aria-label') || e.textContent.trim() || e.closest('label')))"
        ".map(e => e.outerHTML)"
    )
    assert unnamed == []
    # Keyboard: arrows move between cards, Enter (or Space) picks one.
    page.locator("#hand .card").first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement === document.querySelectorAll('#hand .card')[1]")
    page.keyboard.press("Enter")
    assert page.locator("#hand .card.selected").count() == 1
    page.keyboard.press("Enter")  # and again un-picks it
    assert page.locator("#hand .card.selected").count() == 0
    # Touch: tap three cards and the pass button.
    for i in (0, 4, 8):  # on the visible left strip of each overlapped card, as a finger would
        page.locator("#hand .card").nth(i).tap(position={"x": 8, "y": 30})
    assert page.locator("#hand .card.selected").count() == 3
    page.locator("#confirm-pass").tap()
    page.wait_for_selector("#confirm-pass", state="detached")
    page.screenshot(path=str(artifacts / "phone.png"))
    context.close()


def test_practice_tables_are_badged_and_records_wait_for_the_end(browser: Any, server_url: str, artifacts: Path) -> None:
    """A table made with a fixed seed shows "practice · fixed seed" in the history and on its replay page;
    a finished game's hands can be downloaded from the replay page, a running game's cannot."""

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(server_url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        return json.loads(urllib.request.urlopen(req, timeout=10).read())

    computers = [{"kind": "computer", "level": "random"}] * 4
    practice = post("/api/tables", {"preset": "short", "seats": computers, "seed": 12})
    deadline = time.monotonic() + 60
    while json.loads(urllib.request.urlopen(f"{server_url}/api/tables/{practice['id']}", timeout=10).read())["phase"] != "game-over":
        assert time.monotonic() < deadline, "the computers' practice game did not end"
        time.sleep(0.2)
    page = _new_page(browser)
    page.goto(server_url + "/history")
    row = page.locator("#games tr", has=page.locator(".badge"))
    row.first.wait_for()
    assert "practice · fixed seed" in row.first.inner_text()
    assert "not counted" in page.locator("#stats").inner_text()
    page.screenshot(path=str(artifacts / "history-practice.png"), full_page=True)
    page.goto(practice["watch_url"])  # the table page's header says so too
    assert page.locator(".chip.practice").inner_text() == "practice · fixed seed"
    page.goto(f"{server_url}/replay/{practice['id']}/1")
    page.wait_for_function("document.querySelector('#summary').textContent.includes('practice')")
    assert page.locator("#download").is_visible()
    # A game still being played: its finished hand replays, but its record is not offered.
    running = post("/api/tables", {"preset": "no-passing", "seats": computers[:3] + [{"kind": "computer", "level": "random"}], "options": {"pause": 0.05}})
    while not json.loads(urllib.request.urlopen(f"{server_url}/api/tables/{running['id']}/hands", timeout=10).read()):
        assert time.monotonic() < deadline + 60, "no hand finished"
        time.sleep(0.1)
    page.goto(f"{server_url}/replay/{running['id']}/1")
    page.wait_for_function("document.querySelector('#summary').textContent.includes('once the game is over')")
    assert not page.locator("#download").is_visible()
    _no_script_errors(page)
    page.context.close()

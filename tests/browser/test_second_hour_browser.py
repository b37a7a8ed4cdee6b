"""The second hour on a phone (390x844) in chromium (issue 44): a card marked for the pass leaves the
cards around it in sight and under the finger; the end-of-hand buttons are in sight without scrolling;
the only legal card is played for you and said; a seat's link is kept in the browser only while its
game is played (and a day after)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from tests.browser.test_first_hour_browser import CORNER, PHONE, _act, _page, _post, _seed_where

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _covered_corners(page: Any) -> list[int]:
    """The hand's cards whose top-left corner (where a card is read and tapped) another card covers."""
    return page.evaluate(
        """([x, y]) => [...document.querySelectorAll('#hand .card')].flatMap((card, i) => {
             const r = card.getBoundingClientRect();
             const top = document.elementFromPoint(r.left + x, r.top + y);
             return top && top.closest('.card') === card ? [] : [i];
           })""",
        [CORNER["x"], CORNER["y"]],
    )


def test_a_card_marked_for_the_pass_leaves_its_neighbours_in_sight(browser: Any, server_url: str) -> None:
    table = _post(server_url, "/api/tables", {
        "preset": "standard", "seed": 3,
        "seats": [{"kind": "human", "name": "Ada"}] + [{"kind": "computer", "level": "random"}] * 3,
    })  # fmt: skip
    page = _page(browser, PHONE)
    page.goto(table["seats"][0]["join_url"])
    page.wait_for_selector("#confirm-pass")
    rows = page.locator("#hand .hand-row").count()
    assert rows >= 2  # a phone breaks the hand into overlapping rows: where a risen card would cover others
    assert _covered_corners(page) == []
    count = page.locator("#hand .card").count()
    # Mark cards of the lower rows (they sit over the row above) and check every corner after each.
    for index in (count - 1, count - 3, count - 5):
        page.locator("#hand .card").nth(index).click(position=CORNER)
        page.wait_for_function(f"document.querySelectorAll('#hand .card')[{index}].classList.contains('selected')")
        page.wait_for_timeout(250)  # past any transition
        assert _covered_corners(page) == [], f"after marking card {index + 1}"
    assert page.locator("#hand .card.selected").count() == 3
    page.close()


def test_the_end_of_hand_buttons_are_in_sight_on_a_phone(browser: Any, server_url: str) -> None:
    table = _post(server_url, "/api/tables", {
        "preset": "no-passing", "seed": _seed_where("no-passing", 1),
        "seats": [{"kind": "human", "name": "Ada"}] + [{"kind": "computer", "level": "random"}] * 3,
    })  # fmt: skip
    page = _page(browser, PHONE)
    page.goto(table["seats"][0]["join_url"])
    page.wait_for_selector("#hand .card")
    deadline = time.monotonic() + 240
    while _act(page) != "over":
        assert time.monotonic() < deadline, "the hand did not end"
        page.wait_for_timeout(100)
    page.wait_for_selector("#next-hand")
    page.wait_for_timeout(300)
    seen = page.evaluate(
        """(() => {
             const d = document.querySelector('.dialog');
             return [...document.querySelectorAll('.dialog-actions .btn')].map(b => {
               const r = b.getBoundingClientRect();
               const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
               return {text: b.textContent, inView: r.top >= 0 && r.bottom <= innerHeight, onTop: !!top && b.contains(top),
                       scrolled: d.scrollTop, needsScroll: d.scrollHeight > d.clientHeight};
             });
           })()"""
    )
    assert seen and seen[0]["needsScroll"], "the dialog fits without scrolling: nothing to check"
    for button in seen:
        assert button["inView"] and button["onTop"] and button["scrolled"] == 0, button
    page.click("#next-hand")  # tapped where it is, with no scrolling
    page.wait_for_selector("#overlay", state="hidden")
    page.close()


def test_the_only_legal_card_is_played_for_you_and_said(browser: Any, server_url: str) -> None:
    table = _post(server_url, "/api/tables", {
        "preset": "no-passing", "seed": _seed_where("no-passing", 1),
        "seats": [{"kind": "human", "name": "Ada"}] + [{"kind": "computer", "level": "random"}] * 3,
    })  # fmt: skip
    page = _page(browser, PHONE)
    page.context.add_init_script("localStorage.removeItem('hearts.autoPlay')")  # the default: on
    page.goto(table["seats"][0]["join_url"])
    page.wait_for_selector("#hand .card")
    assert page.locator("#auto-play").is_checked()  # on by default
    page.evaluate("window.__said = []; new MutationObserver(() => window.__said.push(document.querySelector('#message').textContent)).observe(document.querySelector('#message'), {childList: true, characterData: true, subtree: true})")
    deadline = time.monotonic() + 240
    while not page.locator("#overlay:not([hidden]) #dialog-title").count():
        assert time.monotonic() < deadline, "the hand did not end"
        # Play a card only when there is a choice: a lone legal card is the page's to play.
        choice = page.evaluate("document.querySelector('#me-plate.to-move') ? document.querySelectorAll('#hand .card:not(.illegal)').length : 0")
        if choice > 1:
            before = page.locator("#hand .card").count()
            page.locator("#hand .card:not(.illegal)").first.click(position=CORNER)
            page.wait_for_function(f"document.querySelectorAll('#hand .card').length < {before} || !document.querySelector('#overlay').hidden")
        else:
            page.wait_for_timeout(100)
    said = page.evaluate("window.__said")
    # The last trick's card is always the only one: it was played for Ada, and said.
    assert any(s.startswith("Only ") and s.endswith("can be played: played for you") for s in said), said[-10:]
    page.close()


def test_a_seat_link_is_kept_only_while_its_game_is_played(browser: Any, server_url: str) -> None:
    table = _post(server_url, "/api/tables", {
        "preset": "no-passing", "seats": [{"kind": "human", "name": "Ada"}] + [{"kind": "computer", "level": "random"}] * 3,
    })  # fmt: skip
    page = _page(browser, PHONE)
    page.goto(table["seats"][0]["join_url"])
    page.wait_for_selector("#hand .card")
    table_id = table["id"]
    kept = page.evaluate(f"[localStorage.getItem('hearts.seat.{table_id}'), parseFloat(localStorage.getItem('hearts.seat-until.{table_id}')) - Date.now()]")
    assert kept[0] and 6 * 86400e3 < kept[1] <= 7 * 86400e3  # kept while the game is played
    # A link past its time, and an old one with no time yet, as the page finds them when it loads.
    page.evaluate("localStorage.setItem('hearts.seat.old', 'x'); localStorage.setItem('hearts.seat-until.old', String(Date.now() - 1));"
                  "localStorage.setItem('hearts.seat.legacy', 'y'); localStorage.removeItem('hearts.seat-until.legacy')")
    page.goto(server_url + "/")
    page.wait_for_load_state("domcontentloaded")
    left = page.evaluate("[localStorage.getItem('hearts.seat.old'), localStorage.getItem('hearts.seat-until.old'), localStorage.getItem('hearts.seat.legacy'), parseFloat(localStorage.getItem('hearts.seat-until.legacy')) - Date.now()]")
    assert left[0] is None and left[1] is None  # past its time: forgotten
    assert left[2] == "y" and 6 * 86400e3 < left[3] <= 7 * 86400e3  # no time yet: a week from now
    page.close()


def test_a_claim_is_offered_on_your_turn_and_a_refusal_says_why(browser: Any, server_url: str) -> None:
    """On a phone, at the first trick, "Claim the rest" is offered to the leader; the engine refuses it
    (the other seats hold cards that beat its) and the page says why; the hand goes on."""
    table = _post(server_url, "/api/tables", {
        "preset": "no-passing", "seed": _seed_where("no-passing", 0),
        "seats": [{"kind": "human", "name": "Ada"}] + [{"kind": "computer", "level": "random"}] * 3,
    })  # fmt: skip
    page = _page(browser, PHONE)
    page.goto(table["seats"][0]["join_url"])
    page.wait_for_selector("#claim")
    assert page.locator("#claim").is_visible()
    page.click("#claim")
    page.wait_for_function("document.querySelector('#message').textContent.startsWith('You cannot claim the rest')")
    assert "still out" in page.text_content("#message") or "beats your" in page.text_content("#message")
    assert page.locator("#hand .card").count() == 13  # nothing was played
    page.locator("#hand .card:not(.illegal)").first.click(position=CORNER)  # the hand goes on
    page.wait_for_function("document.querySelectorAll('#hand .card').length === 12")
    assert page.script_errors == []
    page.close()

"""The hand review and "play this deal again" in chromium: finish a hand, open its review from the
end-of-hand dialog, step through it and see a mark on every decision (desktop and phone sizes);
press "Play this deal again" in the dialog and on the replay page and be dealt the same cards."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import serving
from tests.browser.test_play_browser import _new_page, _no_script_errors, _play_until_hand_over

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def review_url(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server whose reviews sample few worlds: the review machinery whole, at a test's speed."""
    with serving(tmp_path_factory.mktemp("review-db"), "--pause", "0", "--review-worlds", "8") as url:
        yield url


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


def _decisions_with_a_choice(detail: dict[str, Any], seat: int) -> int:
    """The seat's decisions in a finished hand (``/api/tables/{id}/hands/{n}``) that a review shows: the
    pass and each play with more than one legal card, the hand replayed through the engine."""
    from hearts.core import CardSet, HandState, Rules, mask_of

    hand = HandState(Rules(), tuple(mask_of(s["dealt"]) for s in detail["seats"]), detail["number"] - 1)
    count = 1 if detail["direction"] != "hold" else 0
    if count:
        for s in detail["seats"]:
            hand.pass_cards(s["seat"], CardSet(mask_of(s["passed"])))
    for trick in detail["tricks"]:
        for play in trick["plays"]:
            count += play["seat"] == seat and len(hand.legal_plays()) > 1
            hand.play(play["card"])
    return count


def _open_review(page: Any) -> Any:
    with page.context.expect_page() as opened:
        page.click("#review-hand")
    review = opened.value
    review.set_default_timeout(120_000)
    review.wait_for_selector("#review:not([hidden])")
    return review


def test_review_this_hand_steps_through_marked_decisions(browser: Any, review_url: str, artifacts: Path) -> None:
    table = _quick(review_url)
    page = _new_page(browser)
    page.goto(table["play_url"])
    assert _play_until_hand_over(page, {}) == "Hand 1 is over"
    review = _open_review(page)
    segments = review.locator("#lossbar .seg")
    count = segments.count()
    # One segment for the pass and for each play with a choice (the deal is the server's own, so count them).
    assert count == _decisions_with_a_choice(_get(f"{review_url}/api/tables/{table['id']}/hands/1"), 0)
    marks = ("best", "good", "inaccuracy", "mistake", "blunder")
    classes = segments.evaluate_all("els => els.map((e) => e.className)")
    assert all(any(f"mark-{m}" in c for m in marks) for c in classes), classes
    seen = []
    for i in range(count):
        assert review.locator("#where").inner_text() == f"Decision {i + 1} of {count}"
        mark = review.locator("#decision .mark").inner_text()
        assert mark in marks
        assert (
            review.locator("#decision .mine .card").count() >= 1
            and review.locator("#decision .theirs .card").count() >= 1
        )
        assert review.locator("#decision .reason").inner_text().strip()
        seen.append(mark)
        if i == 1:
            review.screenshot(path=str(artifacts / "review-desktop.png"))  # docs/images/ has a copy
        if i < count - 1:
            review.click("#next")
    assert review.locator("#next").is_disabled()
    assert "points were lost in expectation" in review.locator("#summary").inner_text()
    # Asked again (the page reloaded), the stored review is answered at once.
    review.reload()
    review.wait_for_selector("#review:not([hidden])", timeout=5000)
    # A phone: nothing scrolls sideways, the cards side by side still fit.
    review.set_viewport_size({"width": 390, "height": 844})
    review.click("#worst")
    assert review.evaluate("document.documentElement.scrollWidth <= 390")
    review.screenshot(path=str(artifacts / "review-phone.png"))
    _no_script_errors(page)
    page.context.close()


def _finished_table(server_url: str) -> tuple[str, Any]:
    """A table of four random computer players (pause 0) whose game is over, and its record."""
    import time

    from hearts.core import GameRecord

    body = json.dumps({"seats": [{"kind": "computer", "level": "random"}] * 4, "seed": 11, "options": {"pause": 0}})
    req = urllib.request.Request(server_url + "/api/tables", body.encode(), {"Content-Type": "application/json"})
    tid = json.loads(urllib.request.urlopen(req, timeout=10).read())["id"]
    for _ in range(600):
        if _get(f"{server_url}/api/tables/{tid}")["status"] != "playing":
            break
        time.sleep(0.1)
    text = urllib.request.urlopen(f"{server_url}/api/tables/{tid}/record", timeout=10).read().decode()
    return tid, GameRecord.loads(text)


def _planted_review(record: Any) -> Any:
    """South's review of hand 1 at a few worlds, with the marks a reader must be told about planted:
    two mistakes, a decision that cost 0.1 (good: never among the costliest), and a moon's cost of
    27.8 of which 16.2 are South's own points."""
    from dataclasses import replace

    from hearts.review import review_hand

    review = review_hand(record, 0, 0, worlds=8, cache=None)
    d = list(review.decisions)
    d[0] = replace(d[0], cost=0.1, se=0.05, own=0.1, mark="good")
    d[1] = replace(d[1], cost=27.8, se=0.6, own=16.2, mark="mistake")
    d[2] = replace(d[2], cost=2.5, se=0.4, own=2.5, mark="mistake")
    d[3:] = [replace(x, cost=0.0, se=0.0, own=0.0, mark="best") for x in d[3:]]
    return replace(review, decisions=tuple(d))


def test_the_review_page_says_how_far_it_is_and_explains_costs_on_a_phone(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """Issue 44 item 3 and 4, at 390x844: "review" (not "reviewed") while the decisions are worked out,
    each verdict shown as it comes under a progress line; then "2 mistakes", no search jargon, only
    costs above the noise among the costliest, and a moon's cost in parts that add up."""
    tid, record = _finished_table(server_url)
    review = _planted_review(record).to_dict()
    count = len(review["decisions"])
    answers = [
        # as the server answers: the plays' verdicts first, the pass (decision 1) last
        {"status": "working", "done": k, "total": count, "decisions": review["decisions"][1 : 1 + k]}
        for k in (0, 1, 2)
    ]
    answers.append({"status": "done", "review": review})
    asked: list[int] = []

    hold = [True]  # the server's answers stay at two decisions until the test lets them go on

    def answer(route: Any) -> None:
        asked.append(1)
        body = answers[min(len(asked) - 1, 2)] if hold[0] else answers[-1]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route(f"**/api/tables/{tid}/hands/1/review", answer)
    page.goto(f"{server_url}/review/{tid}/1?seat=0")
    # Two verdicts in: shown, the rest waiting on the bar, the progress said, the title not "reviewed".
    page.wait_for_function("document.querySelectorAll('#lossbar .seg:not(.pending)').length === 2")
    assert page.locator("#title").inner_text() == "Hand 1 review"
    assert page.locator("#progress-text").inner_text() == f"2 of {count} decisions reviewed…"
    assert page.locator("#lossbar .seg.pending").count() == count - 2
    assert page.locator("#where").inner_text() == f"Decision 2 of {count}"  # the first one made
    assert page.locator("#decision .mark").inner_text() == "mistake" and page.locator("#prev").is_disabled()
    page.click("#next")
    assert page.locator("#where").inner_text() == f"Decision 3 of {count}" and page.locator("#next").is_disabled()
    page.click("#prev")
    page.screenshot(path=str(artifacts / "review-phone-working.png"))
    hold[0] = False
    page.wait_for_function("document.querySelector('#title').textContent === 'Hand 1 reviewed'")
    summary = page.locator("#summary").inner_text()
    assert "2 mistakes" in summary and "1 good" in summary and f"{count - 3} best" in summary, summary
    # The total is the decisions' costs as shown, added up, and its parts add up to it.
    assert "30.4 points were lost in expectation (18.8 of your own points, 11.6 from the others' points" in summary
    text = page.locator("body").inner_text()
    assert "world" not in text and "weighted" not in text and "pts" not in text, text
    costliest = page.locator("#story li").all_inner_texts()
    assert len(costliest) == 2 and costliest[0].endswith("(27.8)") and costliest[1].endswith("(2.5)"), costliest
    assert page.locator("#where").inner_text() == f"Decision 2 of {count}"  # where the reader was
    cost = page.locator("#decision .cost").inner_text()
    assert "Cost 27.8 points expected" in cost and "= 16.2 of your own points + 11.6 from the others' points" in cost
    assert page.evaluate("document.documentElement.scrollWidth <= 390")
    page.screenshot(path=str(artifacts / "review-phone-moon-cost.png"))
    assert errors == []
    context.close()

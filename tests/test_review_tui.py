"""The hand review in the terminal (Textual's pilot): each decision's row shown as soon as it is made
under a progress line, the review scrolled to its last decision at 80x24, and Esc on the
end-of-hand screen keeping the offer to review (issue 44 item 5)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from tests.test_tui_play import screen_text, until

from hearts.core import Game, GameRecord
from hearts.players import make_player, play_game
from hearts.review import review_hand
from hearts.tui.replay import ReplayApp
from hearts.tui.review import ReviewScreen
from hearts.tui.screens import HandOverScreen

SMALL = (80, 24)


@pytest.fixture(scope="module")
def record() -> GameRecord:
    game = Game(seed=5, names=["Ada", "Bo", "Cy", "Di"])
    play_game(game, [make_player("easy", seed=s) for s in range(4)], hands=1)
    return GameRecord.of(game)


def _rows(text: str) -> list[int]:
    """The decision numbers whose table row starts on the screen."""
    out = []
    for line in text.splitlines():
        first = line.strip().strip("█│┃▊▌▐ ").split(" ")[0]
        if first.isdigit():
            out.append(int(first))
    return out


async def test_the_review_scrolls_to_its_last_decision_at_80x24(record: GameRecord) -> None:
    app = ReplayApp(record, title="game.json")
    async with app.run_test(size=SMALL) as pilot:
        app.push_screen(ReviewScreen(record, 0, 0, worlds=8))
        await until(
            pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None, "the review", 120
        )
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.review is not None
        last = len(screen.review.decisions)
        body = screen.query_one("#review-body")
        assert body.max_scroll_y > 0  # the review is taller than the screen
        assert last not in _rows(screen_text(app))
        # The box stays on the screen, its keys line too: the body between them scrolls.
        assert screen.query_one("#review-box").region.bottom <= SMALL[1]
        assert "Esc: close" in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        assert last in _rows(screen_text(app)), screen_text(app)
        await pilot.press("home")
        await pilot.pause()
        assert body.scroll_y == 0 and "Expected points lost" in screen_text(app)
        for _ in range(200):  # line by line, down to the end as well
            await pilot.press("down")
            if body.scroll_y == body.max_scroll_y:
                break
        assert body.scroll_y == body.max_scroll_y
        # hearts replay's own arrows (the next hand, the next trick) wait while the review is open.
        assert app.hand_index == 0 and isinstance(app.screen, ReviewScreen)


async def test_each_decision_is_shown_as_soon_as_it_is_made(record: GameRecord, monkeypatch: Any) -> None:
    """The review made in its worker: after the first verdict the first row shows, the others wait
    as "being reviewed" under the progress line, until the last."""
    full = review_hand(record, 0, 0, worlds=8, cache=None)
    go_on = threading.Event()

    def slow_review(*args: Any, progress: Any = None, verdict: Any = None, **kwargs: Any) -> Any:
        total = len(full.decisions)
        progress(0, total)
        verdict(full.decisions[1])  # as review_hand tells them: the plays first, the pass last
        progress(1, total)
        assert go_on.wait(30)
        for i, d in enumerate([*full.decisions[2:], full.decisions[0]], start=2):
            verdict(d)
            progress(i, total)
        return full

    monkeypatch.setattr("hearts.tui.review.review_hand", slow_review)
    app = ReplayApp(record, title="game.json")
    async with app.run_test(size=(140, 50)) as pilot:
        app.push_screen(ReviewScreen(record, 0, 0, worlds=8))
        await until(pilot, lambda: "Reviewing: 1 of" in screen_text(app), "the first verdict")
        text = screen_text(app)
        assert f"Reviewing: 1 of {len(full.decisions)} decisions" in text
        rows = {n: line for line in text.splitlines() for n in _rows(line)}
        assert full.decisions[1].mark in rows[2] and "being reviewed" in rows[1]  # the pass is still to come
        assert "Reviewing hand 1 for Ada" in text  # the title does not say "reviewed" yet
        go_on.set()
        await until(pilot, lambda: "Hand 1 reviewed for Ada" in screen_text(app), "the whole review")
        assert "being reviewed" not in screen_text(app)


async def test_esc_on_the_end_of_hand_screen_keeps_the_offer_to_review(record: GameRecord) -> None:
    app = ReplayApp(record, title="game.json")
    game = Game(seed=5, names=["Ada", "Bo", "Cy", "Di"])
    play_game(game, [make_player("easy", seed=s) for s in range(4)], hands=1)
    async with app.run_test(size=SMALL) as pilot:
        closed: list[object] = []
        app.push_screen(HandOverScreen(record.names, game.summary(0), False, record=record, seat=0), closed.append)
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the end of the hand")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen) and closed == []  # not dealt on past the offer
        said = " ".join(screen_text(app).replace("█", " ").split())
        assert "Esc does not close this: r reviews your decisions in this hand · Enter deals the next hand" in said
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
        app.screen.dismiss(None)
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "back at the end of the hand")
        await pilot.press("enter")
        await until(pilot, lambda: closed == [None], "the next hand")


def test_the_summary_counts_in_words_and_tells_a_moons_parts(record: GameRecord) -> None:
    from dataclasses import replace

    from hearts.tui.review import review_summary

    review = review_hand(record, 0, 0, worlds=8, cache=None)
    d = review.decisions
    planted = replace(
        review,
        decisions=(
            replace(d[0], cost=27.8, own=16.2, mark="blunder"),
            replace(d[1], cost=2.0, own=2.0, mark="mistake"),
            replace(d[2], cost=2.5, own=2.4, mark="mistake"),
            *(replace(x, cost=0.0, own=0.0, mark="best") for x in d[3:]),
        ),
    )
    first = review_summary(planted)[0]
    assert "32.3[/] (20.6 of your own points, 11.7 from the others' points (moons)" in first
    assert f"({len(d) - 3} best, 2 mistakes, 1 blunder)" in first
    # A rest under half a point (the rollouts' rare moons) is not told: the parts would only puzzle.
    plain = replace(planted, decisions=planted.decisions[1:])
    assert "of your own points" not in review_summary(plain)[0] and "2 mistakes" in review_summary(plain)[0]

"""The review of a finished hand in the terminal: every decision of one seat with the expert's
choice, the cost in expected points and the mark, coloured (:mod:`hearts.review`).

The review is worked out in a worker thread, with its progress on the screen; a hand reviewed once
in this process is answered from the review's own cache. Opened by ``r`` on the end-of-hand screen
of ``hearts play`` and in ``hearts replay`` (docs/terminal.md).
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hearts.core import GameRecord
from hearts.review import HandReview, review_hand

#: Each mark's colour, best to worst (the web page's review uses the same order of colours).
MARK_STYLES = {"best": "green", "good": "cyan", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def decision_place(kind: str, trick: int | None, position: int | None) -> str:
    """Where a decision was made, in words: "pass", "trick 3, lead", "trick 5".

    >>> decision_place("pass", None, None), decision_place("play", 2, 0), decision_place("play", 4, 2)
    ('pass', 'trick 3, lead', 'trick 5')
    """
    if kind == "pass":
        return "pass"
    return f"trick {(trick or 0) + 1}" + (", lead" if position == 0 else "")


def review_table(review: HandReview) -> Table:
    """The review's decisions as a rich table: where, played, the expert's choice, cost, mark, reason."""
    table = Table(title=f"Hand {review.hand + 1}, reviewed for {review.name} ({review.points} points taken)")
    for column, justify in (("#", "right"), ("decision", "left"), ("played", "left"), ("best", "left"),
                            ("cost", "right"), ("mark", "left"), ("reason", "left")):  # fmt: skip
        table.add_column(column, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for d in review.decisions:
        table.add_row(
            str(d.number + 1),
            decision_place(d.kind, d.trick, d.position),
            " ".join(c.symbol() for c in d.played),
            " ".join(c.symbol() for c in d.best),
            f"{d.cost:.1f} ±{d.se:.1f}",
            Text(d.mark, style=MARK_STYLES[d.mark]),
            d.reason,
        )
    return table


def review_summary(review: HandReview) -> list[str]:
    """The review's summary lines (rich markup): points lost, the costliest decisions, the moon, the settings."""
    counts = ", ".join(f"{n} {m}" for m, n in review.counts().items() if n)
    lines = [
        f"Expected points lost: [bold]{review.total_cost:.1f}[/] over {len(review.decisions)} decisions ({counts})"
    ]
    for d in review.costliest:
        where = "the pass" if d.kind == "pass" else f"trick {(d.trick or 0) + 1}"
        lines.append(f"  {where}: {d.cost:.1f} points, {d.mark}: {d.reason}")
    if review.moon is not None:
        lines.append(f"Moon: {review.moon.text}")
    limit = "no time limit" if review.budget is None else f"at most {review.budget:g} s a decision"
    lines.append(f"[dim]expert seed {review.seed}, {review.worlds} worlds a decision, {limit}[/]")
    return lines


class ReviewScreen(ModalScreen[None]):
    """One seat's decisions in a finished hand, reviewed; ``s`` reviews the next seat's."""

    BINDINGS = [
        Binding("escape,q,enter", "close", "Close"),
        Binding("s", "next_seat", "Next seat"),
        Binding("down,j", "scroll('down')", "Scroll", show=False),
        Binding("up,k", "scroll('up')", "Scroll up", show=False),
    ]

    def __init__(self, record: GameRecord, seat: int, hand: int, worlds: int | None = None) -> None:
        super().__init__(classes="dialog")
        self.record, self.seat, self.hand, self.worlds = record, seat, hand, worlds
        self.review: HandReview | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="box", id="review-box"):
            yield Static("", classes="title", id="review-title")
            yield Static("", id="review-summary")
            with VerticalScroll(id="review-body"):
                yield Static("", id="review")
            yield Static("s: the next seat's decisions   Esc/Enter: close", classes="keys")

    def on_mount(self) -> None:
        self._start()

    def _start(self) -> None:
        self.review = None
        name = self.record.names[self.seat]
        self.query_one("#review-summary", Static).update("")
        self.query_one("#review-title", Static).update(f"Reviewing hand {self.hand + 1} for {name}")
        self.query_one("#review", Static).update(Text("The expert is looking at the decisions…", style="italic"))
        self.run_worker(self._work, thread=True, exclusive=True, group="review")

    def _work(self) -> None:
        seat = self.seat

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, seat, done, total)

        try:
            review = review_hand(self.record, seat, self.hand, worlds=self.worlds, progress=progress)
        except ValueError as exc:
            self.app.call_from_thread(self._failed, seat, str(exc))
            return
        self.app.call_from_thread(self._show, review)

    def _progress(self, seat: int, done: int, total: int) -> None:
        if seat == self.seat and self.review is None:
            self.query_one("#review", Static).update(Text(f"Reviewing: {done} of {total} decisions…", style="italic"))

    def _failed(self, seat: int, message: str) -> None:
        if seat == self.seat:
            self.query_one("#review", Static).update(Text(f"No review: {message}", style="red"))

    def _show(self, review: HandReview) -> None:
        if review.seat != self.seat:
            return  # the reader moved on to another seat meanwhile
        self.review = review
        self.query_one("#review-title", Static).update(f"Hand {review.hand + 1} reviewed for {review.name}")
        summary: list[RenderableType] = [Text.from_markup(line) for line in review_summary(review)]
        self.query_one("#review-summary", Static).update(Group(*summary))
        self.query_one("#review", Static).update(review_table(review))

    def action_next_seat(self) -> None:
        self.seat = (self.seat + 1) % self.record.rules.players
        self._start()

    def action_scroll(self, where: str) -> None:
        body = self.query_one("#review-body", VerticalScroll)
        body.scroll_down() if where == "down" else body.scroll_up()

    def action_close(self) -> None:
        self.dismiss(None)

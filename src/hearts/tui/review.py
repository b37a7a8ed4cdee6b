"""The review of a finished hand in the terminal: every decision of one seat with the expert's
choice, the cost in expected points and the mark, coloured (:mod:`hearts.review`).

The review is worked out in a worker thread, each decision's row shown as soon as it is made under
a progress line; the summary and the table scroll together (arrows, PgUp/PgDn, Home/End); a hand reviewed once
in this process is answered from the review's own cache. Opened by ``r`` on the end-of-hand screen
of ``hearts play`` and in ``hearts replay`` (docs/terminal.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hearts.core import GameRecord
from hearts.review import DecisionReview, HandReview, review_hand
from hearts.review.model import PARTS_SHOWN

#: A mark counted in words ("2 mistakes"); "best" and "good" stay as they are.
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}

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


def review_table(review: HandReview | None, decisions: Sequence[DecisionReview] = (), total: int = 0) -> Table:
    """The decisions as a rich table: where, played, the expert's choice, cost, mark, reason; of a
    finished ``review``, or (``review`` None) the ``decisions`` reviewed so far (in any order) of
    ``total``, a row "being reviewed" in the place of each still to come."""
    if review is not None:
        decisions, total = review.decisions, len(review.decisions)
        title = f"Hand {review.hand + 1}, reviewed for {review.name} ({review.points} points taken)"
    else:
        title = f"Reviewing: {len(decisions)} of {total} decisions…"
    table = Table(title=title)
    for column, justify in (("#", "right"), ("decision", "left"), ("played", "left"), ("best", "left"),
                            ("cost", "right"), ("mark", "left"), ("reason", "left")):  # fmt: skip
        table.add_column(column, justify=justify, overflow="fold")  # type: ignore[arg-type]
    made = {d.number: d for d in decisions}
    for number in range(max(total, len(made))):
        d = made.get(number)
        if d is None:
            table.add_row(str(number + 1), "", "", "", "", Text("…", style="dim"), Text("being reviewed", style="dim"))
            continue
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


def counted(marks: dict[str, int]) -> str:
    """The marks' counts in words: "6 best, 1 good, 2 mistakes".

    >>> counted({"best": 3, "good": 0, "inaccuracy": 1, "mistake": 2, "blunder": 0})
    '3 best, 1 inaccuracy, 2 mistakes'
    """
    return ", ".join(f"{n} {m if n == 1 else PLURALS.get(m, m)}" for m, n in marks.items() if n)


def review_summary(review: HandReview) -> list[str]:
    """The review's summary lines (rich markup): points lost and their parts, the costliest
    decisions, the moon, the settings."""
    rest = round(review.total_cost - review.own_cost, 1)
    parts = (
        f" ({review.own_cost:.1f} of your own points, {'less ' if rest < 0 else ''}{abs(rest):.1f} from the"
        " others' points (moons) and the game's end)"
        if abs(rest) >= PARTS_SHOWN
        else ""
    )
    lines = [
        f"Expected points lost: [bold]{review.total_cost:.1f}[/]{parts} over {len(review.decisions)} decisions"
        f" ({counted(review.counts())})",
        "[dim]Each cost is the points a choice gave up against the expert's at that moment, over deals"
        " sampled from what you could see; they add up to the total.[/]",
    ]
    for d in review.costliest:
        where = "the pass" if d.kind == "pass" else f"trick {(d.trick or 0) + 1}"
        lines.append(f"  {where}: {d.cost:.1f} points, {d.mark}: {d.reason}")
    if review.moon is not None:
        lines.append(f"Moon: {review.moon.text}")
    limit = "no time limit" if review.budget is None else f"at most {review.budget:g} s a decision"
    lines.append(f"[dim]expert seed {review.seed}, up to {review.worlds} sampled deals a decision, {limit}[/]")
    return lines


class ReviewScreen(ModalScreen[None]):
    """One seat's decisions in a finished hand, reviewed (each shown as soon as it is made); ``s``
    reviews the next seat's. The summary and the table scroll together under the title."""

    BINDINGS = [
        Binding("escape,q,enter", "close", "Close"),
        Binding("s", "next_seat", "Next seat"),
        # Before the scrolled body's own arrow keys (which scroll it only with an animation).
        Binding("down,j", "scroll('down')", "Scroll", show=False, priority=True),
        Binding("up,k", "scroll('up')", "Scroll up", show=False, priority=True),
        Binding("pagedown,space", "scroll('page_down')", "Page down", show=False),
        Binding("pageup", "scroll('page_up')", "Page up", show=False),
        Binding("end,G", "scroll('end')", "Last decision", show=False),
        Binding("home,g", "scroll('home')", "First", show=False),
    ]

    def __init__(self, record: GameRecord, seat: int, hand: int, worlds: int | None = None) -> None:
        super().__init__(classes="dialog")
        self.record, self.seat, self.hand, self.worlds = record, seat, hand, worlds
        self.review: HandReview | None = None
        self.made: list[DecisionReview] = []  #: the decisions reviewed so far (of the seat shown)
        self.total = 0

    def compose(self) -> ComposeResult:
        with Vertical(classes="box", id="review-box"):
            yield Static("", classes="title", id="review-title")
            with VerticalScroll(id="review-body"):
                yield Static("", id="review-summary")
                yield Static("", id="review")
            yield Static("↑ ↓ PgUp PgDn Home End: scroll · s: the next seat · Esc: close", classes="keys")

    def on_mount(self) -> None:
        self._start()

    def _start(self) -> None:
        self.review = None
        self.made, self.total = [], 0
        name = self.record.names[self.seat]
        self.query_one("#review-summary", Static).update("")
        self.query_one("#review-title", Static).update(f"Reviewing hand {self.hand + 1} for {name}")
        self.query_one("#review", Static).update(Text("The expert is looking at the decisions…", style="italic"))
        self.run_worker(self._work, thread=True, exclusive=True, group="review")

    def _work(self) -> None:
        seat = self.seat

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, seat, done, total)

        def verdict(decision: DecisionReview) -> None:
            self.app.call_from_thread(self._verdict, seat, decision)

        try:
            review = review_hand(self.record, seat, self.hand, worlds=self.worlds, progress=progress, verdict=verdict)
        except ValueError as exc:
            self.app.call_from_thread(self._failed, seat, str(exc))
            return
        self.app.call_from_thread(self._show, review)

    def _verdict(self, seat: int, decision: DecisionReview) -> None:
        if seat == self.seat and self.review is None:
            self.made.append(decision)

    def _progress(self, seat: int, done: int, total: int) -> None:
        if seat == self.seat and self.review is None:
            self.total = total
            self.query_one("#review-summary", Static).update(
                Text(f"Reviewing: {done} of {total} decisions… (each shown as soon as it is made)", style="italic")
            )
            self.query_one("#review", Static).update(review_table(None, self.made, total))

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
        moves = {
            "down": body.scroll_down,
            "up": body.scroll_up,
            "page_down": body.scroll_page_down,
            "page_up": body.scroll_page_up,
            "end": body.scroll_end,
            "home": body.scroll_home,
        }
        moves[where](animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

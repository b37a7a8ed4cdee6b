"""The pop-ups over the table: help with the rules in force, the moon choice, end of hand, end of game."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from hearts.core import GameRecord, MoonOption, Rules
from hearts.tui.story import HandStory
from hearts.tui.widgets import DealViewer, score_table, suit_legend

KEYS = (
    ("← →", "move along your hand"),
    ("Enter", "play the card under the cursor; while passing, mark it and move on, then pass"),
    ("Space", "mark or unmark a card to pass"),
    ("qs, 10h, th", "type a card to play it (or mark it while passing)"),
    ("click", "a card plays it (marks it while passing)"),
    ("h", "hint: what the expert would do, and why"),
    ("c", "claim the rest of the tricks, when your cards are sure to take them all"),
    ("?", "this help"),
    ("r", "at the end of a hand: review your decisions in it, each marked by what it cost"),
    ("Esc", "clear what you typed"),
    ("Ctrl+Q", "quit; the game is saved: 'hearts play --resume' goes on"),
)


class HelpScreen(ModalScreen[None]):
    """The keys, and every rule option in force (``Rules.describe()``); it scrolls by keyboard too."""

    BINDINGS = [
        Binding("escape,question_mark,q,enter", "close", "Close"),
        Binding("down,j", "scroll('down')", "Scroll", show=False),
        Binding("up,k", "scroll('up')", "Scroll up", show=False),
        Binding("pagedown,space,tab", "scroll('page_down')", "Page down", show=False),
        Binding("pageup,shift+tab", "scroll('page_up')", "Page up", show=False),
        Binding("home", "scroll('home')", "Top", show=False),
        Binding("end", "scroll('end')", "Bottom", show=False),
    ]

    def __init__(self, rules: Rules, four_colour: bool) -> None:
        super().__init__(classes="dialog")
        self.rules = rules
        self.four_colour = four_colour

    def compose(self) -> ComposeResult:
        keys = Table(box=None, padding=(0, 2), show_header=False)
        keys.add_column(style="bold yellow", no_wrap=True)
        keys.add_column()
        for key, what in KEYS:
            keys.add_row(key, what)
        rules = Table(box=None, padding=(0, 2), title="Rules in force", title_style="bold", title_justify="left")
        rules.add_column("option", style="cyan", no_wrap=True)
        rules.add_column("value")
        for name, value in self.rules.describe():
            rules.add_row(name.replace("_", " "), value)
        with VerticalScroll(classes="box", id="help-box"):
            yield Static("Hearts: keys and rules", classes="title")
            yield Static(keys)
            yield Static(suit_legend(self.four_colour))
            yield Static(rules)
            yield Static("↑ ↓ PgUp PgDn Space Home End scroll · Esc closes", classes="keys")

    def action_scroll(self, how: str) -> None:
        box = self.query_one("#help-box", VerticalScroll)
        moves = {
            "down": box.scroll_down,
            "up": box.scroll_up,
            "page_down": box.scroll_page_down,
            "page_up": box.scroll_page_up,
            "home": box.scroll_home,
            "end": box.scroll_end,
        }
        moves[how](animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class MoonScreen(ModalScreen[MoonOption]):
    """The human shot the moon under rules where the shooter chooses how it scores."""

    BINDINGS = [
        Binding("a,1", "choose('add-to-others')", "Add to the others"),
        Binding("s,2", "choose('subtract-from-self')", "Subtract from me"),
    ]

    def __init__(self, value: int, totals: Sequence[int], names: Sequence[str], seat: int) -> None:
        super().__init__(classes="dialog")
        self.value = value
        self.totals = tuple(totals)
        self.names = tuple(names)
        self.seat = seat

    def compose(self) -> ComposeResult:
        add = [t + (0 if s == self.seat else self.value) for s, t in enumerate(self.totals)]
        sub = [t - (self.value if s == self.seat else 0) for s, t in enumerate(self.totals)]
        table = Table(box=None, padding=(0, 2))
        table.add_column("seat")
        table.add_column("now", justify="right")
        table.add_column(Text("a: add"), justify="right")
        table.add_column(Text("s: subtract"), justify="right")
        for s, name in enumerate(self.names):
            table.add_row(name, str(self.totals[s]), str(add[s]), str(sub[s]))
        with Vertical(classes="box"):
            yield Static("🌕 You shot the moon!", classes="title")
            yield Static(
                Text(
                    f"Choose how it scores: (a) add {self.value} to every other seat, or "
                    f"(s) subtract {self.value} from your own total."
                )
            )
            yield Static(table)
            yield Static("a: add to the others   s: subtract from me", classes="keys")

    def action_choose(self, option: str) -> None:
        self.dismiss(MoonOption(option))


class HandOverScreen(ModalScreen[None]):
    """End of a hand: every seat's points, the moon, the totals; the whole deal and each trick, step by step."""

    BINDINGS = [
        Binding("right,l", "step(1)", "Next trick"),
        Binding("left", "step(-1)", "Previous"),
        Binding("home", "go(0)", "The deal", show=False),
        Binding("end", "go(99)", "Last trick", show=False),
        Binding("enter,space", "close", "Continue"),
        Binding("r", "review", "Review this hand"),
        # Esc does not deal on past the offer to review the hand: it says which key does what.
        Binding("escape", "keys", "Keys", show=False),
    ]

    def __init__(
        self,
        names: Sequence[str],
        story: HandStory,
        four_colour: bool,
        game_over: bool = False,
        record: GameRecord | None = None,
        seat: int = 0,
    ) -> None:
        super().__init__(classes="dialog")
        self.record, self.seat = record, seat  #: what ``r`` reviews: this seat's decisions in the record
        self.names = tuple(names)
        self.story = story
        self.four_colour = four_colour
        self.game_over = game_over

    def compose(self) -> ComposeResult:
        story = self.story
        assert story.scores is not None and story.totals is not None
        table = score_table(self.names, story.scores, story.totals, expand=False)
        with Vertical(classes="box"):
            yield Static(f"Hand {story.number + 1} is over", classes="title", id="hand-over-title")
            moon = story.moon_words(self.names)
            if moon:
                yield Static(Text("🌕 " + moon, style="bold yellow"), id="moon")
            yield Static(table, id="hand-scores")
            yield DealViewer(self.names, story, self.four_colour, id="viewer")
            yield Static(
                "← → step through the deal and the tricks · "
                + ("r reviews your decisions · " if self.record is not None else "")
                + "Enter "
                + ("shows the final table" if self.game_over else "deals the next hand"),
                classes="keys",
            )

    def action_step(self, delta: int) -> None:
        viewer = self.query_one(DealViewer)
        viewer.go(viewer.step + delta)

    def action_go(self, step: int) -> None:
        self.query_one(DealViewer).go(step)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_keys(self) -> None:
        review = "r reviews your decisions in this hand · " if self.record is not None else ""
        goes_on = "shows the final table" if self.game_over else "deals the next hand"
        keys = self.query_one(".keys", Static)
        keys.update(Text(f"Esc does not close this: {review}Enter {goes_on}", style="bold"))

    def action_review(self) -> None:
        if self.record is not None:
            from hearts.tui.review import ReviewScreen

            worlds = getattr(self.app, "review_worlds", None)
            self.app.push_screen(ReviewScreen(self.record, self.seat, self.story.number, worlds=worlds))


class GameOverScreen(ModalScreen[bool]):
    """End of the game: the winner(s), every hand's scores and the final totals; play again or quit."""

    BINDINGS = [
        Binding("n,enter", "again", "Play again"),
        Binding("q,escape", "leave", "Quit"),
    ]

    def __init__(
        self, names: Sequence[str], stories: Sequence[HandStory], totals: Sequence[int], winners: Sequence[int]
    ) -> None:
        super().__init__(classes="dialog")
        self.names = tuple(names)
        self.stories = list(stories)
        self.totals = tuple(totals)
        self.winners = tuple(winners)

    def compose(self) -> ComposeResult:
        who = " and ".join(self.names[s] for s in self.winners)
        verb = "win" if len(self.winners) > 1 or self.names[self.winners[0]] == "You" else "wins"
        table = Table(box=None, padding=(0, 1), title="Final table", title_style="bold")
        table.add_column("hand")
        for name in self.names:
            table.add_column(name, justify="right")
        for story in self.stories:
            if story.scores is not None:
                moon = " 🌕" if story.shooter is not None else ""
                table.add_row(f"{story.number + 1}{moon}", *(str(p) for p in story.scores))
        table.add_row(
            Text("total", style="bold"),
            *(Text(str(t), style="bold green" if s in self.winners else "bold") for s, t in enumerate(self.totals)),
        )
        with Vertical(classes="box"):
            yield Static(Text(f"🏆 {who} {verb}!"), classes="title", id="winners")
            yield Static(table, id="final-table")
            yield Static("n / Enter: play again   q: quit", classes="keys")

    def action_again(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)

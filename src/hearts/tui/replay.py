"""The record viewer of ``hearts replay`` in a terminal: the whole game, hand by hand and trick by trick.

A record holds every seat's cards, so the viewer shows the whole deal; it is
for looking back at a game, never for a seat during play.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from hearts.core import GameRecord
from hearts.tui.cardtext import rules_title
from hearts.tui.story import HandStory, game_stories
from hearts.tui.widgets import DealViewer, score_table


class ReplayApp(App[None]):
    """Step through a recorded game: → and ← move a trick, ↓ and ↑ a hand."""

    CSS_PATH = "hearts.tcss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        # priority: the arrows step through the game rather than scroll the body
        Binding("right", "step(1)", "Next trick", priority=True),
        Binding("left", "step(-1)", "Previous trick", priority=True),
        Binding("down", "hand(1)", "Next hand", priority=True),
        Binding("up", "hand(-1)", "Previous hand", priority=True),
        Binding("pagedown,n", "hand(1)", "Next hand", show=False),
        Binding("pageup,p", "hand(-1)", "Previous hand", show=False),
        Binding("home", "first", "The deal", show=False),
        Binding("end", "last", "Last trick", show=False),
        Binding("f", "toggle_colours", "Four colours"),
        Binding("r", "review", "Review"),
        Binding("q,escape", "quit", "Quit"),
    ]

    def __init__(self, record: GameRecord, title: str = "record", four_colour: bool = False) -> None:
        super().__init__()
        game = record.replay()
        self.record = record
        self.names = game.names
        self.stories: list[HandStory] = game_stories(game)
        self.winners = game.winners
        self.hand_index = 0
        self.review_worlds: int | None = None  #: the review's worlds a decision (None: its default)
        self.four_colour = four_colour
        self.title = f"Hearts replay · {title}"
        self.sub_title = f"{rules_title(record.rules)} · {record.rules.players} players · to {record.rules.target}"

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="replay-head")
        with VerticalScroll(id="replay-body"):
            yield DealViewer(self.names, self.stories[0], self.four_colour, id="viewer")
        yield Footer()

    def on_mount(self) -> None:
        self._show_head()

    @property
    def viewer(self) -> DealViewer:
        return self.query_one(DealViewer)

    def _show_head(self) -> None:
        story = self.stories[self.hand_index]
        n = len(self.names)
        head = Text.assemble((f"Hand {story.number + 1} of {len(self.stories)}", "bold"))
        if not story.finished:
            head.append("  (in progress)", style="yellow")
        moon = story.moon_words(self.names)
        if moon:
            head.append(f"   🌕 {moon}", style="bold yellow")
        if story.scores is not None and story.totals is not None:
            table = score_table(self.names, story.scores, story.totals, expand=False)
        else:
            before = self.stories[self.hand_index - 1].totals if self.hand_index else None
            table = score_table(self.names, (0,) * n, before or (0,) * n, expand=False)
        parts: list[RenderableType] = [head, table]
        last = self.hand_index == len(self.stories) - 1
        if last and self.winners:
            who = " and ".join(self.names[s] for s in self.winners)
            parts.append(Text(f"🏆 Game over: {who} {'win' if len(self.winners) > 1 else 'wins'}", style="bold green"))
        self.query_one("#replay-head", Static).update(Group(*parts))

    def action_step(self, delta: int) -> None:
        viewer = self.viewer
        target = viewer.step + delta
        if target >= viewer.steps and self.hand_index < len(self.stories) - 1:
            self.action_hand(1)
        elif target < 0 and self.hand_index > 0:
            self.action_hand(-1)
            self.viewer.go(self.viewer.steps - 1)
        else:
            viewer.go(target)

    def action_hand(self, delta: int) -> None:
        index = max(0, min(self.hand_index + delta, len(self.stories) - 1))
        self.hand_index = index
        self.viewer.set_story(self.stories[index], 0)
        self._show_head()

    def action_first(self) -> None:
        self.viewer.go(0)

    def action_last(self) -> None:
        self.viewer.go(self.viewer.steps - 1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Under a pop-up (the hand review) the arrows, pages, Home and End are the pop-up's: they
        # scroll it rather than step the game behind it.
        if action in ("step", "hand", "first", "last") and len(self.screen_stack) > 1:
            return False
        return True

    def action_review(self) -> None:
        """Review the shown hand, from the first seat (``s`` on the review goes to the next)."""
        from hearts.tui.review import ReviewScreen

        story = self.stories[self.hand_index]
        if not story.finished:
            self.notify("This hand is not over: a hand is reviewed once it is over.", severity="warning")
            return
        self.push_screen(ReviewScreen(self.record, 0, story.number, worlds=self.review_worlds))

    def action_toggle_colours(self) -> None:
        self.four_colour = not self.four_colour
        self.viewer.four_colour = self.four_colour
        self.viewer.go(self.viewer.step)

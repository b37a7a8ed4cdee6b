"""``hearts play``: a whole game of Hearts at the terminal against computer players.

:class:`HeartsApp` opens the setup screen (``--setup``) or goes straight to the
table (:mod:`hearts.tui.table`), and closes the computer players when it ends;
:func:`save_hint` is the line printed after the screen has closed.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from hearts.core import Rules
from hearts.tui.session import LAST_GAME_NAME, Session, Settings, default_save_path, keep_unfinished
from hearts.tui.setup import SetupChoice, SetupScreen
from hearts.tui.table import TableScreen, seat_places

__all__ = ["HeartsApp", "SetupRequest", "TableScreen", "save_hint", "seat_places"]


@dataclass(frozen=True)
class SetupRequest:
    """Start on the setup screen, filled in with these, instead of going straight to the table."""

    rules: Rules
    settings: Settings
    preset: str = "standard"
    seed: int | None = None
    save_path: Path | None = None


class HeartsApp(App[None]):
    """The terminal game: the table screen and its pop-ups (after the setup screen, if asked for)."""

    CSS_PATH = "hearts.tcss"
    TITLE = "Hearts"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Save & quit", priority=True)]

    def __init__(self, session: Session | None = None, setup: SetupRequest | None = None) -> None:
        if session is None and setup is None:
            raise ValueError("HeartsApp needs a session or a setup request")
        super().__init__()
        self.session = session
        self.setup = setup
        self.review_worlds: int | None = None  #: a hand review's worlds a decision (None: the review's default)

    def on_mount(self) -> None:
        if self.session is not None:
            self.push_screen(TableScreen(self.session))
            return
        assert self.setup is not None
        self.push_screen(SetupScreen(self.setup.rules, self.setup.settings, self.setup.preset), self._start)

    def _start(self, choice: SetupChoice | None) -> None:
        assert self.setup is not None and choice is not None
        kept = None if self.setup.save_path is None else keep_unfinished(self.setup.save_path)
        self.session = Session.new(choice.rules, choice.settings, seed=self.setup.seed, save_path=self.setup.save_path)
        if kept is not None:
            self.session.notes.append(f"Your unfinished game is kept in {kept}")
        self.push_screen(TableScreen(self.session))

    def on_unmount(self) -> None:
        if self.session is not None:
            self.session.close()

    @property
    def table(self) -> TableScreen:
        """The table screen (under any pop-up)."""
        return next(s for s in self.screen_stack if isinstance(s, TableScreen))


def save_hint(session: Session | None) -> str:
    """What to tell the person once the screen has closed: where the game is and how to go on."""
    if session is None or session.save_path is None:
        return ""
    path = session.save_path
    if session.game.is_over:
        last = path.with_name(LAST_GAME_NAME)
        return f"The game's record is in {last}; see it again with: hearts replay {last}" if last.exists() else ""
    if not path.exists():
        return ""
    where = "" if path == default_save_path() else f" --save-file {shlex.quote(str(path))}"
    return f"Game saved to {path}. Continue it with: hearts play --resume{where}"

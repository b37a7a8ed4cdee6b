"""The setup screen of ``hearts play --setup``: every rule option of the engine, and the table's settings.

Choosing a preset (or a player count) fills in that preset's options; any of
them can then be changed. The engine checks the combination when you start: a
refused one shows the engine's message and the game does not start.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static, Switch

from hearts.core import PRESETS, HeartsError, MoonScoring, OpeningLead, Rules, TieRule, pass_cycle_named
from hearts.core.rules import PASS_CYCLE_NAMES
from hearts.tui.session import SPEEDS, Settings, resolve_level

SWITCHES = ("points_on_first_trick", "hearts_must_be_broken", "queen_breaks_hearts", "heart_lead_with_only_queen")
NUMBERS = ("target", "pass_count", "heart_points", "queen_points", "bonus_points")


@dataclass(frozen=True)
class SetupChoice:
    """What the setup screen produced: the rules and the table's settings."""

    rules: Rules
    settings: Settings


def cycle_name(rules: Rules) -> str:
    """The name of ``rules``' pass cycle, or its directions joined by commas when it has none."""
    for name in PASS_CYCLE_NAMES:
        if pass_cycle_named(name, rules.players) == rules.pass_cycle:
            return name
    return ",".join(d.value for d in rules.pass_cycle or ())


class SetupScreen(Screen[SetupChoice]):
    """A form of every option; Start (or Ctrl+S) checks it with the engine and starts the game."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start"),
        Binding("escape", "app.quit", "Quit"),
    ]

    def __init__(self, rules: Rules, settings: Settings, preset: str = "standard") -> None:
        super().__init__()
        self.initial = rules
        self.settings = settings
        self.preset = preset if preset in PRESETS else "standard"
        self._filling = False

    def compose(self) -> ComposeResult:
        s = self.settings
        yield Header()
        with VerticalScroll(id="setup"):
            yield Static("New game: set the table and the rules, then Start (Ctrl+S).", classes="title")
            yield Static(Text(f"{self.preset}: {PRESETS[self.preset][0]}"), id="preset-text")
            with Grid(id="setup-grid"):
                yield Label("your name")
                yield Input(s.name, id="name")
                yield Label("opponents")
                yield Input(",".join(s.opponents), id="opponents", placeholder="medium or easy,hard,expert")
                yield Label("speed")
                yield Select([(k, k) for k in SPEEDS], value=s.speed, allow_blank=False, id="speed")
                yield Label("four-colour deck")
                yield Switch(s.four_colour, id="four_colour")
                yield Label("preset")
                yield Select([(k, k) for k in PRESETS], value=self.preset, allow_blank=False, id="preset")
                yield Label("players")
                yield Select(
                    [(str(n), n) for n in (3, 4, 5, 6)], value=self.initial.players, allow_blank=False, id="players"
                )
                yield Label("target")
                yield Input(id="target", type="integer")
                yield Label("pass cycle")
                yield Input(id="pass_cycle", placeholder="standard, left, no-hold, none or left,right,hold")
                yield Label("cards passed")
                yield Input(id="pass_count", type="integer")
                yield Label("removed cards")
                yield Input(id="removed", placeholder="default for the count")
                yield Label("opening lead")
                yield Select([(o.value, o.value) for o in OpeningLead], allow_blank=False, id="opening")
                yield Label("points on the first trick")
                yield Switch(id="points_on_first_trick")
                yield Label("hearts must be broken")
                yield Switch(id="hearts_must_be_broken")
                yield Label("Q♠ breaks hearts")
                yield Switch(id="queen_breaks_hearts")
                yield Label("heart lead with only Q♠ left")
                yield Switch(id="heart_lead_with_only_queen")
                yield Label("points per heart")
                yield Input(id="heart_points", type="integer")
                yield Label("points for Q♠")
                yield Input(id="queen_points", type="integer")
                yield Label("bonus card")
                yield Select([("none", "none"), ("J♦", "JD"), ("10♦", "10D")], allow_blank=False, id="bonus_card")
                yield Label("bonus points")
                yield Input(id="bonus_points", type="integer")
                yield Label("moon")
                yield Select([(m.value, m.value) for m in MoonScoring], allow_blank=False, id="moon")
                yield Label("ties")
                yield Select([(t.value, t.value) for t in TieRule], allow_blank=False, id="ties")
            yield Static("", id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start", variant="success", id="start")
        yield Footer()

    def on_mount(self) -> None:
        self.fill(self.initial)

    def fill(self, rules: Rules) -> None:
        """Show ``rules`` in the form."""
        self._filling = True
        try:
            for name in NUMBERS:
                self.query_one(f"#{name}", Input).value = str(getattr(rules, name))
            self.query_one("#pass_cycle", Input).value = cycle_name(rules)
            default_removed = Rules(players=rules.players).removed
            self.query_one("#removed", Input).value = (
                "" if rules.removed == default_removed else " ".join(map(str, rules.removed or ()))
            )
            for name in SWITCHES:
                self.query_one(f"#{name}", Switch).value = bool(getattr(rules, name))
            self.query_one("#opening", Select).value = rules.opening.value
            self.query_one("#bonus_card", Select).value = "none" if rules.bonus_card is None else str(rules.bonus_card)
            self.query_one("#moon", Select).value = rules.moon.value
            self.query_one("#ties", Select).value = rules.ties.value
            if self.query_one("#players", Select).value != rules.players:
                self.query_one("#players", Select).value = rules.players
        finally:
            self.call_after_refresh(self._done_filling)

    def _done_filling(self) -> None:
        self._filling = False

    def on_select_changed(self, event: Select.Changed) -> None:
        # A new preset or player count starts the rules over from that preset.
        if self._filling or event.select.id not in ("preset", "players"):
            return
        preset = str(self.query_one("#preset", Select).value)
        self.query_one("#preset-text", Static).update(Text(f"{preset}: {PRESETS[preset][0]}"))
        try:
            rules = Rules.preset(
                str(self.query_one("#preset", Select).value), players=self.query_one("#players", Select).value
            )
        except HeartsError as exc:
            self.show_error(str(exc))
            return
        self.fill(rules)

    def show_error(self, message: str) -> None:
        """Say why the game cannot start where it is seen: a notification over the form (the form may be
        scrolled anywhere), and the message itself at the bottom of the form, scrolled into view."""
        error = self.query_one("#setup-error", Static)
        error.update(Text(message, style="bold red"))
        self.app.notify(message, title="Cannot start the game", severity="error", timeout=10)
        self.call_after_refresh(error.scroll_visible, animate=False)

    def choice(self) -> SetupChoice:
        """The rules and settings in the form; raises ``ValueError`` (a HeartsError from the engine) if refused."""
        # The form's values as typed, read by Rules.from_text like the command line's flags; an empty
        # pass cycle is the standard one, and no removed cards the count's default.
        options: dict[str, object] = {"players": self.query_one("#players", Select).value}
        for name in NUMBERS:
            options[name] = self.query_one(f"#{name}", Input).value
        options["pass_cycle"] = self.query_one("#pass_cycle", Input).value.strip() or "standard"
        options["removed"] = self.query_one("#removed", Input).value.strip() or None
        for name in SWITCHES:
            options[name] = self.query_one(f"#{name}", Switch).value
        for name in ("opening", "bonus_card", "moon", "ties"):
            options[name] = self.query_one(f"#{name}", Select).value
        rules = Rules.from_text(str(self.query_one("#preset", Select).value), **options)
        levels = tuple(x.strip() for x in self.query_one("#opponents", Input).value.split(",") if x.strip()) or (
            "medium",
        )
        if len(levels) > rules.players - 1:
            raise ValueError(f"{len(levels)} opponent levels for {rules.players - 1} computer seats")
        for level in levels:
            resolve_level(level)
        settings = Settings(
            name=self.query_one("#name", Input).value.strip() or "You",
            opponents=levels,
            speed=str(self.query_one("#speed", Select).value),
            four_colour=self.query_one("#four_colour", Switch).value,
            hint_level=self.settings.hint_level,
            think=self.settings.think,
        )
        return SetupChoice(rules, settings)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def action_start(self) -> None:
        try:
            choice = self.choice()
        except (ValueError, TypeError) as exc:  # the engine's RulesError is a ValueError
            self.show_error(str(exc))
            return
        self.dismiss(choice)

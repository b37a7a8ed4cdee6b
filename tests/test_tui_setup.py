"""``hearts play --setup``: the form shows a preset's options, any can change, the engine checks them."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Select, Switch

from hearts.core import MoonScoring, Rules
from hearts.tui.app import HeartsApp, SetupRequest, TableScreen
from hearts.tui.session import Settings
from hearts.tui.setup import SetupScreen


def _request(tmp_path: Path) -> SetupRequest:
    return SetupRequest(Rules(), Settings(opponents=("random",), speed="instant"), "standard", 5, tmp_path / "g.json")


async def test_setup_starts_the_game_with_the_chosen_rules(tmp_path: Path) -> None:
    app = HeartsApp(setup=_request(tmp_path))
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#target", Input).value == "100"
        screen.query_one("#preset", Select).value = "omnibus"  # fills in the preset's options
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#bonus_card", Select).value == "JD"
        screen.query_one("#target", Input).value = "60"
        screen.query_one("#moon", Select).value = "shooter-chooses"
        screen.query_one("#queen_breaks_hearts", Switch).value = True
        screen.query_one("#name", Input).value = "Ann"
        await pilot.press("ctrl+s")
        for _ in range(200):
            if isinstance(app.screen, TableScreen):
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, TableScreen)
        session = app.session
        assert session is not None
        assert session.game.rules == Rules.preset(
            "omnibus", target=60, moon=MoonScoring.SHOOTER_CHOOSES, queen_breaks_hearts=True
        )
        assert session.game.names[0] == "Ann" and session.game.seed == 5
        assert (tmp_path / "g.json").exists()


async def test_setup_shows_the_engines_refusal_and_stays(tmp_path: Path) -> None:
    app = HeartsApp(setup=_request(tmp_path))
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#players", Select).value = 5
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#pass_cycle", Input).value == "standard"
        assert screen.query_one("#removed", Input).value == ""  # the default for five: 2♦ and 2♣ out
        screen.query_one("#pass_cycle", Input).value = "left,across"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        error = str(screen.query_one("#setup-error").render())
        assert "there is no 'across' with 5 players" in error
        assert app.session is None and not (tmp_path / "g.json").exists()

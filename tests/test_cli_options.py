"""Options shared by the ``hearts`` commands: --version, --seats (and the old --players N), cards in words."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts.cli import app
from hearts.core import Rules
from hearts.tui.app import HeartsApp
from hearts.tui.session import Session

runner = CliRunner()
NOTE = "--players 5 is now --seats 5"


def test_version_comes_from_the_package_metadata() -> None:
    for flag in ("--version", "-V"):
        result = runner.invoke(app, [flag])
        assert result.exit_code == 0 and result.stdout == f"hearts {version('hearts')}\n"


def test_rules_takes_seats_and_names_cards_with_symbols() -> None:
    result = runner.invoke(app, ["rules", "omnibus", "--seats", "5"])
    assert result.exit_code == 0, result.output
    assert "5 (10 cards each)" in result.stdout and NOTE not in result.output
    assert "2♣ 2♦" in result.stdout and "holder of 3♣" in result.stdout and "J♦ scores -10" in result.stdout
    assert not {"2C", "2D", "3C", "JD"} & set(result.stdout.replace("│", " ").split())


def test_rules_still_takes_the_old_players_n_with_a_note_on_stderr() -> None:
    result = runner.invoke(app, ["rules", "omnibus", "--players", "5"])
    assert result.exit_code == 0, result.output
    assert "5 (10 cards each)" in result.stdout and NOTE in result.stderr and NOTE not in result.stdout
    assert "--players" not in runner.invoke(app, ["rules", "--help"]).stdout  # hidden


def test_play_still_takes_the_old_players_n_with_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sessions: list[Session] = []
    monkeypatch.setattr(HeartsApp, "run", lambda self, *a, **k: sessions.append(self.session))
    result = runner.invoke(app, ["play", "--players", "5", "--save-file", str(tmp_path / "g.json")])
    assert result.exit_code == 0, result.output
    assert NOTE in result.stderr and sessions[0].game.rules == Rules(players=5)
    clash = runner.invoke(app, ["play", "--players", "5", "--seats", "4", "--save-file", str(tmp_path / "h.json")])
    assert clash.exit_code == 2 and "--seats 4 and --players 5 disagree" in " ".join(clash.output.split())
    assert "--players" not in runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).stdout


def test_simulate_and_tournament_players_name_the_players() -> None:
    for command in ("simulate", "tournament"):
        help_text = " ".join(runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout.split())
        assert "--players" in help_text and "--seats" in help_text

"""``hearts play`` options: every rule flag reaches the engine; bad input exits 2 with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts.cli import app
from hearts.core import Card, MoonScoring, OpeningLead, PassDirection, Rules, TieRule
from hearts.tui.app import HeartsApp, SetupRequest
from hearts.tui.session import Session

runner = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Session]:
    """Capture the session ``hearts play`` would open instead of opening the screen."""
    sessions: list[Session] = []
    monkeypatch.setattr(HeartsApp, "run", lambda self, *a, **k: sessions.append(self.session or self.setup))
    return sessions


def test_setup_opens_the_form_filled_in_from_the_flags(tmp_path: Path, started: list[object]) -> None:
    result = runner.invoke(app, ["play", "--setup", "--preset", "short", "--moon", "disabled", "--seed", "3",
                                 "--save-file", str(tmp_path / "g.json")])  # fmt: skip
    assert result.exit_code == 0, result.output
    request = started[0]
    assert isinstance(request, SetupRequest)
    assert request.rules == Rules.preset("short", moon="disabled") and request.preset == "short"
    assert request.seed == 3 and not (tmp_path / "g.json").exists()  # nothing saved until Start


def test_rule_flags_reach_the_engine(tmp_path: Path, started: list[Session]) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(app, [
        "play", "--preset", "omnibus", "--seats", "5", "--target", "60", "--seed", "9", "--name", "Ann",
        "--opponents", "easy,random", "--speed", "fast", "--four-colour", "--save-file", str(save),
        "--pass-cycle", "left,hold", "--pass-count", "2", "--opening", "any-club", "--points-on-first-trick",
        "--hearts-any-time", "--queen-breaks-hearts", "--heart-lead-with-only-queen", "--heart-points", "2",
        "--queen-points", "10", "--bonus-points", "-5", "--moon", "shooter-chooses", "--ties", "play-on",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    session = started[0]
    rules = session.game.rules
    assert rules == Rules(
        players=5, target=60, pass_cycle=(PassDirection.LEFT, PassDirection.HOLD), pass_count=2,
        opening=OpeningLead.ANY_CLUB, points_on_first_trick=True, hearts_must_be_broken=False,
        queen_breaks_hearts=True, heart_lead_with_only_queen=True, heart_points=2, queen_points=10,
        bonus_card=Card.parse("JD"), bonus_points=-5, moon=MoonScoring.SHOOTER_CHOOSES, ties=TieRule.PLAY_ON,
    )  # fmt: skip
    assert session.game.seed == 9 and session.game.names[0] == "Ann"
    assert session.levels == {1: "easy", 2: "random", 3: "random", 4: "random"}
    assert session.settings.speed == "fast" and session.settings.four_colour
    assert save.exists()  # saved before the first move


def test_resume_continues_the_saved_game(tmp_path: Path, started: list[Session]) -> None:
    save = tmp_path / "g.json"
    assert runner.invoke(app, ["play", "--seed", "4", "--opponents", "random", "--save-file", str(save)]).exit_code == 0
    result = runner.invoke(app, ["play", "--resume", "--speed", "slow", "--save-file", str(save)])
    assert result.exit_code == 0, result.output
    first, resumed = started
    assert resumed.game.seed == 4 and resumed.levels == first.levels
    assert resumed.settings.speed == "slow"


def test_a_new_game_keeps_the_unfinished_one(tmp_path: Path, started: list[Session]) -> None:
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "--seed", "4", "--save-file", str(save)])
    old = save.read_text(encoding="utf-8")
    runner.invoke(app, ["play", "--seed", "5", "--save-file", str(save)])
    assert (tmp_path / "previous-game.json").read_text(encoding="utf-8") == old


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponents", "grandmaster"], "unknown player level 'grandmaster'"),
        (["--preset", "nope"], "unknown preset 'nope'"),
        (["--seats", "5", "--pass-cycle", "left,across"], "there is no 'across' with 5 players"),
        (["--seats", "3", "--opponents", "easy,easy,easy"], "3 opponent levels for 2 computer seats"),
        (["--speed", "warp"], "unknown speed 'warp'"),
        (["--bonus-card", "QS"], "bonus card"),
        (["--resume"], "no saved game at"),
    ],
)
def test_bad_options_exit_2_with_the_reason(
    tmp_path: Path, started: list[Session], args: list[str], message: str
) -> None:
    result = runner.invoke(app, ["play", "--save-file", str(tmp_path / "g.json"), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert not started

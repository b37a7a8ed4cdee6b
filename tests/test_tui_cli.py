"""``hearts play`` options: every rule flag reaches the engine; bad input exits 2 with the reason."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts.cli import app
from hearts.cli import play as play_cli
from hearts.core import (
    Card,
    CardSet,
    MoonScoring,
    OpeningLead,
    PassCards,
    PassDirection,
    Phase,
    PlayCard,
    Rules,
    TieRule,
)
from hearts.tui.app import HeartsApp, SetupRequest
from hearts.tui.session import Session, settings_path

runner = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Session]:
    """Capture the session ``hearts play`` would open instead of opening the screen."""
    sessions: list[Session] = []
    monkeypatch.setattr(HeartsApp, "run", lambda self, *a, **k: sessions.append(self.session or self.setup))
    return sessions


def play_on(session: Session, cards: int = 1) -> None:
    """Random legal moves for every seat, saved as the table saves them, until ``cards`` cards are played
    (``0``: only the passes)."""
    rng = random.Random(0)
    game = session.game
    while True:
        played = sum(len(t.cards) for t in game.hand.tricks) + len(game.hand.trick)
        if played >= cards and (cards or game.phase is not Phase.PASS):
            return
        seat = game.to_move[0]
        view = game.view(seat)
        if view.phase is Phase.PASS:
            session.apply(PassCards(seat, CardSet(rng.sample(list(view.hand), game.rules.pass_count))))
        else:
            session.apply(PlayCard(seat, rng.choice(view.legal)))


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


def test_every_unfinished_game_is_kept_and_can_be_resumed(tmp_path: Path, started: list[Session]) -> None:
    """No one at the terminal to ask: each unfinished game is set aside in saves/, never overwritten."""
    save = tmp_path / "g.json"
    games = []
    for seed in (4, 5, 6):
        result = runner.invoke(app, ["play", "--seed", str(seed), "--save-file", str(save)])
        assert result.exit_code == 0, result.output
        play_on(started[-1])
        games.append(save.read_text(encoding="utf-8"))
    kept = sorted((tmp_path / "saves").glob("g-*.json"), key=lambda p: p.stat().st_mtime_ns)
    kept = [p for p in kept if not p.name.endswith(".settings.json")]
    assert len(kept) == 2  # the games of seeds 4 and 5, each in its own file
    assert {p.read_text(encoding="utf-8") for p in kept} == set(games[:2])
    assert all(settings_path(p).exists() for p in kept)  # the table settings go with each
    assert f"Your unfinished game is kept in {kept[-1]}; continue it later with:" in result.output
    assert f"hearts play --resume --save-file {tmp_path / 'saves'}" in result.output
    for path in kept:
        result = runner.invoke(app, ["play", "--resume", "--save-file", str(path)])
        assert result.exit_code == 0, result.output
    assert {started[-2].game.seed, started[-1].game.seed} == {4, 5}
    save.unlink()  # with no game in the save file, --resume points to the ones set aside
    result = runner.invoke(app, ["play", "--resume", "--save-file", str(save)])
    assert result.exit_code == 2
    assert f"games set aside for new ones are in {tmp_path / 'saves'}" in result.output.replace("\n", "")


@pytest.mark.parametrize(("answer", "seed"), [("\n", 4), ("y\n", 4), ("n\n", 5)])
def test_a_person_is_asked_whether_to_resume(
    tmp_path: Path, started: list[Session], monkeypatch: pytest.MonkeyPatch, answer: str, seed: int
) -> None:
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "--seed", "4", "--save-file", str(save)])
    play_on(started[-1])
    monkeypatch.setattr(play_cli, "interactive", lambda: True)
    result = runner.invoke(app, ["play", "--seed", "5", "--save-file", str(save)], input=answer)
    assert result.exit_code == 0, result.output
    assert f"You have an unfinished game in {save} (hand 1, totals You 0, West 0, North 0, East 0)" in result.output
    assert "Resume it? [Y/n]" in result.output
    assert started[-1].game.seed == seed
    kept = list((tmp_path / "saves").glob("g-*[0-9].json"))
    assert len(kept) == (1 if seed == 5 else 0)  # declined: the old game is kept, not lost


@pytest.mark.parametrize("args", [["--seats", "7"], ["--opponents", "grandmaster"], ["--hand", "2"],
                                  ["--again", "no-such-record.json"], ["--pass-cycle", "left,righ"]])  # fmt: skip
def test_bad_flags_stop_before_the_unfinished_game_is_asked_about(
    tmp_path: Path, started: list[Session], monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "--seed", "4", "--save-file", str(save)])
    play_on(started[-1])
    before = save.read_text(encoding="utf-8")
    monkeypatch.setattr(play_cli, "interactive", lambda: True)
    result = runner.invoke(app, ["play", "--save-file", str(save), *args], input="y\n")
    assert result.exit_code == 2 and "error:" in result.output
    assert "Resume it?" not in result.output and "kept in" not in result.output
    assert save.read_text(encoding="utf-8") == before and not (tmp_path / "saves").exists()
    assert len(started) == 1


def test_a_game_with_no_card_played_is_not_offered(
    tmp_path: Path, started: list[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "g.json"
    monkeypatch.setattr(play_cli, "interactive", lambda: True)
    # Not a move made: replaced without a word.
    runner.invoke(app, ["play", "--seed", "4", "--save-file", str(save)])
    result = runner.invoke(app, ["play", "--seed", "5", "--save-file", str(save)], input="")
    assert result.exit_code == 0, result.output
    assert "Resume it?" not in result.output and "kept in" not in result.output
    assert started[-1].game.seed == 5 and not (tmp_path / "saves").exists()
    # The passes made but no card played: set aside without the question, and said so.
    play_on(started[-1], cards=0)
    result = runner.invoke(app, ["play", "--seed", "6", "--save-file", str(save)], input="")
    assert result.exit_code == 0, result.output
    assert "Resume it?" not in result.output and "Your unfinished game is kept in" in result.output
    assert started[-1].game.seed == 6 and len(list((tmp_path / "saves").glob("g-*[0-9].json"))) == 1


@pytest.mark.parametrize("think", ["0", "-1", "inf", "nan"])
def test_think_must_be_a_positive_number_of_seconds(tmp_path: Path, started: list[Session], think: str) -> None:
    result = runner.invoke(app, ["play", "--think", think, "--save-file", str(tmp_path / "g.json")])
    assert result.exit_code == 2, result.output
    assert "--think is the seconds each computer player may think per move: more than 0" in result.output
    assert isinstance(result.exception, SystemExit)  # a clean exit 2, not an exception
    assert not started


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("opponents", ["grandmaster"], "unknown player level 'grandmaster'"),
        ("opponents", "medium", "opponents is 'medium', not a list of levels"),
        ("hint_level", "oracle", "unknown player level 'oracle'"),
        ("speed", "warp", "unknown speed 'warp'"),
        ("think", -1, "the thinking time is seconds per move and must be more than 0, not -1"),
        ("think", "fast", "the thinking time is seconds per move and must be more than 0, not 'fast'"),
        ("four_colour", "yes", "four_colour is 'yes', not true or false"),
        ("name", 7, "the name is 7, not text"),
    ],
)
def test_resume_with_bad_saved_settings_is_a_clear_error(
    tmp_path: Path, started: list[Session], field: str, value: object, message: str
) -> None:
    save = tmp_path / "g.json"
    assert runner.invoke(app, ["play", "--seed", "4", "--save-file", str(save)]).exit_code == 0
    side = settings_path(save)
    data = json.loads(side.read_text(encoding="utf-8"))
    data[field] = value
    side.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["play", "--resume", "--save-file", str(save)])
    assert result.exit_code == 2, result.output
    assert f"error: the table settings at {side} cannot be used: {message}" in result.output
    assert "fix that file, or delete it" in result.output
    assert isinstance(result.exception, SystemExit)  # a clean exit 2, not an exception
    assert len(started) == 1  # only the first game opened


def test_help_is_readable_at_80_columns() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in result.output
    for flag in (
        "--points-on-first-trick / --no-points-on-first-trick",
        "--hearts-must-be-broken / --hearts-any-time",
        "--queen-breaks-hearts / --queen-does-not-break-hearts",
        "--heart-lead-with-only-queen / --queen-lead-with-only-queen",
        "--four-colour / --two-colour",
        "--save-file",
        "--bonus-points",
    ):
        assert flag in result.output, flag
    assert "Rules (override the preset):" in result.output  # the panels stay


def test_help_keeps_its_panels_in_a_wide_terminal() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "160"})
    assert result.exit_code == 0
    assert "╭─ Rules (override the preset)" in result.output
    assert "--points-on-first-trick" in result.output and "--no-points-on-first-trick" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponents", "grandmaster"], "unknown player level 'grandmaster'"),
        (["--preset", "nope"], "unknown preset 'nope'"),
        (["--seats", "5", "--pass-cycle", "left,across"], "there is no 'across' with 5 players"),
        (["--pass-cycle", "left,righ"], "unknown pass direction 'righ' (choose left, right, across, hold)"),
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

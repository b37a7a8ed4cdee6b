"""``hearts play --again RECORD``: a finished hand dealt again in the terminal, as any seat, the
computers passing as they did; bad input exits 2 with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.test_tui_play import SIZE, fast_settings, screen_text, until
from typer.testing import CliRunner

from hearts.cli import app
from hearts.core import Game, GameRecord, PassCards, Phase
from hearts.players import make_player
from hearts.players.base import play_game
from hearts.players.drive import next_turn
from hearts.tui.app import HeartsApp
from hearts.tui.session import HUMAN, Session

runner = CliRunner()


@pytest.fixture
def record_file(tmp_path: Path) -> tuple[Path, Game]:
    game = Game(seed=11, names=["Ada", "Bo", "Cy", "Di"])
    play_game(game, [make_player("easy", seed=s) for s in range(4)], hands=2)
    path = tmp_path / "game.json"
    path.write_text(GameRecord.of(game).dumps(), encoding="utf-8")
    return path, game


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Session]:
    sessions: list[Session] = []
    monkeypatch.setattr(HeartsApp, "run", lambda self, *a, **k: sessions.append(self.session))
    return sessions


def test_again_deals_the_hand_for_the_chosen_seat(
    record_file: tuple[Path, Game], started: list[Session], tmp_path: Path
) -> None:
    path, original = record_file
    result = runner.invoke(app, ["play", "--again", str(path), "--hand", "2", "--seat", "Cy", "--opponents", "easy",
                                 "--save-file", str(tmp_path / "save.json")])  # fmt: skip
    assert result.exit_code == 0, result.output
    (session,) = started
    game, hand = session.game, original.summary(1)
    assert game.hand.dealt[HUMAN] == hand.dealt[2].mask  # Cy's cards are yours, the others turned with them
    assert game.hand.dealt[1] == hand.dealt[3].mask and game.hand.direction is hand.direction
    assert session.settings.practice == "hand 2 of game.json again, as Cy"
    assert "practice: hand 2 of game.json again, as Cy" in session.notes
    # The computers pass as they did: Di (now seat 1) passes what Di passed.
    view = game.view(1)
    assert session.players[1].decide(view).move.cards == hand.passes[3]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--hand", "3"], "no finished hand 3 to play again"),
        (["--seat", "Zed"], "no seat 'Zed'"),
        (["--seat", "7"], "no seat 7"),
    ],
)
def test_again_refuses_bad_input_in_words(
    record_file: tuple[Path, Game], started: list[Session], args: list[str], words: str
) -> None:
    path, _ = record_file
    result = runner.invoke(app, ["play", "--again", str(path), *args])
    assert result.exit_code == 2 and words in result.output and not started, result.output


def test_again_needs_a_record(tmp_path: Path, started: list[Session]) -> None:
    result = runner.invoke(app, ["play", "--again", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "no such file" in result.output
    result = runner.invoke(app, ["play", "--hand", "2"])
    assert result.exit_code == 2 and "--again FILE" in result.output and not started


async def test_the_deal_played_again_is_on_the_screen(record_file: tuple[Path, Game], tmp_path: Path) -> None:
    from hearts.players.again import DealAgain

    path, original = record_file
    deal = DealAgain.of(GameRecord.loads(path.read_text()), 0)
    settings = fast_settings(practice="hand 1 of game.json again, as Ada")
    session = Session.deal_again(deal, settings, save_path=tmp_path / "save.json")
    hint = HeartsApp(session)
    async with hint.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: session.game.phase is Phase.PASS and "Pass 3" in screen_text(hint), "the pass")
        assert "Hearts · practice" in screen_text(hint)
        log = " ".join(str(line.text).strip() for line in hint.screen.query_one("RichLog").lines)
        assert "practice: hand 1 of game.json again" in log
        shown = {str(c) for c in session.game.view(HUMAN).hand}
        assert shown == {str(c) for c in original.summary(0).dealt[0]}


@pytest.mark.parametrize("hand", [0, 1])
async def test_a_standard_deal_played_again_is_titled_standard(
    record_file: tuple[Path, Game], tmp_path: Path, hand: int
) -> None:
    """The deal's pass cycle starts at its hand's direction (right for hand 2): still the standard game."""
    from hearts.players.again import DealAgain
    from hearts.tui.story import game_account

    path, _ = record_file
    deal = DealAgain.of(GameRecord.loads(path.read_text()), hand)
    session = Session.deal_again(deal, fast_settings(practice="again"), save_path=tmp_path / "save.json")
    app = HeartsApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "Pass 3" in screen_text(app), "the pass")
        assert app.sub_title.startswith("standard · 4 players")
    account = game_account(GameRecord.of(session.game))
    assert "the standard rules" in account
    assert "You (seat 1), West (seat 2)" in account  # seats a person reads count from 1


def review_text(app: object) -> str:
    from hearts.tui.review import ReviewScreen

    screen = app.screen  # type: ignore[attr-defined]
    return str(screen.query_one("#review").content) if isinstance(screen, ReviewScreen) else ""


async def test_the_review_screen_shows_a_mark_on_every_decision(record_file: tuple[Path, Game]) -> None:
    from hearts.review import MARKS
    from hearts.tui.replay import ReplayApp
    from hearts.tui.review import ReviewScreen
    from hearts.tui.screens import HandOverScreen

    path, original = record_file
    record = GameRecord.loads(path.read_text())
    app = ReplayApp(record, title="game.json")
    app.review_worlds = 8
    async with app.run_test(size=(140, 50)) as pilot:
        # hearts replay: r reviews the shown hand for the first seat.
        await pilot.press("r")
        await until(
            pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None, "the review", 120
        )
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.review is not None
        text = screen_text(app)
        assert "Hand 1 reviewed for Ada" in text and "Expected points lost" in text
        # Every decision's row carries its mark (the table scrolls: read what it shows, row by row).
        shown = str(screen.query_one("#review").render())
        numbered = [line for line in text.splitlines() if line.strip().strip("█│ ").split(" ")[0].isdigit()]
        assert numbered and all(any(f" {m} " in line for m in MARKS) for line in numbered), text
        assert len(screen.review.decisions) >= 10 and shown
        # s: the next seat's decisions.
        await pilot.press("s")
        await until(pilot, lambda: screen.review is not None and screen.review.seat == 1, "Bo's review", 120)
        assert "Hand 1 reviewed for Bo" in screen_text(app)
        await pilot.press("escape")
        # The end-of-hand screen of hearts play: r reviews the person's decisions.
        app.push_screen(HandOverScreen(record.names, original.summary(1), False, record=record, seat=0))
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the end of the hand")
        assert "r reviews your decisions" in screen_text(app)
        await pilot.press("r")
        await until(
            pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None, "the review", 120
        )
        assert "Hand 2 reviewed for Ada" in screen_text(app)


def test_a_resumed_deal_played_again_keeps_the_computers_passes(tmp_path: Path) -> None:
    """Saved before every computer passed (a quit, a crash) and resumed: each computer still passes
    what its seat passed in the original hand, so the same pass by the person holds the same hand."""
    from hearts.players.again import DealAgain

    # Random players made the original passes: a level replaying them by its own judgement would not.
    game = Game(seed=5, names=["Ada", "Bo", "Cy", "Di"])
    play_game(game, [make_player("random", seed=s) for s in range(4)], hands=2)
    deal = DealAgain.of(GameRecord.of(game), 1).turned(2)  # hand 2 (passes right), as Cy
    save = tmp_path / "save.json"
    first = Session.deal_again(deal, fast_settings(practice="hand 2 again, as Cy"), seed=4, save_path=save)
    move, _ = first.checked(1, first.decide(first.players[1], first.game.view(1)))
    first.apply(move)  # one computer passed before the game was left; the others had not
    first.close()

    resumed = Session.resume(save)
    assert resumed.settings.practice == "hand 2 again, as Cy"
    while resumed.game.phase is Phase.PASS:
        seat = next_turn(resumed.game, later=(HUMAN,))  # the terminal's order: the computers first
        if seat == HUMAN:
            resumed.apply(PassCards(HUMAN, deal.passes[HUMAN]))  # the person passes as Cy did
            continue
        move, problem = resumed.checked(seat, resumed.decide(resumed.players[seat], resumed.game.view(seat)))
        assert problem is None
        resumed.apply(move)
    summary = resumed.game.summary(0)
    assert summary.passes == deal.passes
    assert summary.held == tuple(game.summary(1).held[(s + 2) % 4] for s in range(4))  # the same hands as then


def test_a_deal_played_again_that_is_not_the_saved_games_is_refused_in_words(
    record_file: tuple[Path, Game], tmp_path: Path
) -> None:
    import json

    from hearts.players.again import DealAgain
    from hearts.tui.session import SaveError, settings_path

    path, _ = record_file
    record = GameRecord.loads(path.read_text())
    save = tmp_path / "save.json"
    Session.deal_again(DealAgain.of(record, 0), fast_settings(), save_path=save).close()
    side = json.loads(settings_path(save).read_text())
    for again, words in [
        (DealAgain.of(record, 1).to_dict(), "is not the saved game's first hand"),
        ({"hand": 0, "dealt": "2C"}, "'dealt': a list of 4 lists of cards"),
        ({**side["again"], "passes": [["1Z"]] * 4}, "not a card: '1Z'"),
    ]:
        settings_path(save).write_text(json.dumps({**side, "again": again}))
        with pytest.raises(SaveError, match="cannot be used") as refused:
            Session.resume(save)
        assert words in str(refused.value) and str(settings_path(save)) in str(refused.value)

"""The terminal session without the screen: level fallbacks, failing players, saving; and a live screen
while a computer player thinks."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from hearts.core import Card, CardSet, Game, GameRecord, Rules, SeatView, dumps
from hearts.players import registry
from hearts.players.base import Player
from hearts.tui.app import HeartsApp
from hearts.tui.screens import HelpScreen
from hearts.tui.session import HUMAN, LAST_GAME_NAME, Session, Settings, resolve_level


def test_missing_levels_fall_back_to_the_strongest_present(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "LEVELS", {"random": registry.LEVELS["random"], "easy": registry.LEVELS["easy"]})
    monkeypatch.setattr("hearts.tui.session.LEVELS", registry.LEVELS)
    assert resolve_level("easy") == ("easy", None)
    level, note = resolve_level("expert")
    assert level == "easy" and note == "the expert level is not available here; easy plays instead"
    with pytest.raises(ValueError, match="unknown player level 'wizard'"):
        resolve_level("wizard")
    session = Session(Game(Rules(), seed=1), Settings(opponents=("hard",)), None)
    assert session.levels == {1: "easy", 2: "easy", 3: "easy"} and session.hint_level == "easy"
    assert any("hard" in note for note in session.notes)


class BrokenPlayer(Player):
    """A player with a bug: it answers with a card it does not hold."""

    name = "broken"

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        raise RuntimeError("no idea how to pass")

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        return next(c for c in (Card.parse("QS"), Card.parse("2C")) if c not in view.hand), "oops"


def test_a_failing_player_is_replaced_by_a_legal_move() -> None:
    session = Session(Game(Rules(), seed=3), Settings(opponents=("random",)), None)
    game = session.game
    view = game.view(1)
    decision: BaseException | object
    try:
        decision = BrokenPlayer().decide(view)
    except RuntimeError as exc:
        decision = exc
    move, problem = session.checked(1, decision)  # type: ignore[arg-type]
    assert game.is_legal(move) and move.seat == 1
    assert problem is not None and "West's random player failed (RuntimeError: no idea how to pass)" in problem


def test_saving_is_atomic_and_a_finished_game_moves_aside(tmp_path: Path) -> None:
    path = tmp_path / "tui-game.json"
    session = Session.new(Rules(target=1), Settings(opponents=("random",)), seed=6, save_path=path)
    assert path.read_text(encoding="utf-8") == dumps(GameRecord.of(session.game))
    game = session.game
    while not game.is_over:  # to 1 point: the first hand ends the game (its 26 points land somewhere)
        seat = game.to_move[0]
        move, _ = session.checked(seat, RuntimeError("random move, please"))
        session.apply(move)
    assert len(game.finished) == 1
    assert not path.exists()
    assert (tmp_path / LAST_GAME_NAME).read_text(encoding="utf-8") == dumps(GameRecord.of(game))
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


class SlowPlayer(Player):
    """Thinks until the test lets it go, then plays its lowest legal card."""

    name = "slow"
    release = threading.Event()

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        return CardSet(list(view.hand)[:3]), "low cards"

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        self.release.wait(timeout=30)
        return view.legal[0], "lowest"


async def test_the_screen_stays_live_while_a_computer_thinks(tmp_path: Path) -> None:
    game = Game(Rules.preset("no-passing"), seed=1, names=["You", "West", "North", "East"])
    while game.hand.turn == HUMAN:  # let a computer seat be the one to move
        game.play(game.legal_plays()[0])
    session = Session(game, Settings(opponents=("random",), speed="instant"), tmp_path / "g.json")
    for seat in session.players:
        session.players[seat] = SlowPlayer()
    app = HeartsApp(session)
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause(0.1)
        before = dumps(GameRecord.of(game))
        try:
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)  # the keys work while the computer thinks
            assert dumps(GameRecord.of(game)) == before
            assert "thinking…" in "\n".join(s.text for s in app.table._compositor.render_strips())
        finally:
            SlowPlayer.release.set()
        await pilot.press("escape")
        for _ in range(500):
            if dumps(GameRecord.of(game)) != before:
                break
            await pilot.pause(0.01)
        assert dumps(GameRecord.of(game)) != before  # released, it played


def test_the_goodbye_line_says_where_the_game_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hearts.tui.app
    from hearts.tui.app import save_hint

    path = tmp_path / "tui-game.json"
    session = Session.new(Rules(target=1), Settings(opponents=("random",)), seed=6, save_path=path)
    # A save file of one's own must be named again to resume it.
    assert save_hint(session) == f"Game saved to {path}. Continue it with: hearts play --resume --save-file {path}"
    spaced = tmp_path / "my games" / "g.json"
    Session.new(Rules(), Settings(opponents=("random",)), seed=6, save_path=spaced)
    assert save_hint(Session.resume(spaced)).endswith(f"hearts play --resume --save-file '{spaced}'")
    monkeypatch.setattr(hearts.tui.app, "default_save_path", lambda: path)
    assert save_hint(session) == f"Game saved to {path}. Continue it with: hearts play --resume"
    while not session.game.is_over:
        move, _ = session.checked(session.game.to_move[0], RuntimeError("any legal move"))
        session.apply(move)
    last = tmp_path / LAST_GAME_NAME
    assert save_hint(session) == f"The game's record is in {last}; see it again with: hearts replay {last}"
    assert save_hint(None) == ""


async def test_an_outside_bot_can_sit_at_the_table(tmp_path: Path) -> None:
    import sys

    bot = Path(__file__).resolve().parents[1] / "examples" / "bots" / "python_bot.py"
    if not bot.exists():  # pragma: no cover - the example ships with the repository
        pytest.skip("examples/bots/python_bot.py is missing")
    level = f"cmd:{sys.executable} {bot}"
    assert resolve_level(level) == (level, None)
    settings = Settings(opponents=(level, "random"), speed="instant", hint_level="random")
    session = Session(Game(Rules.preset("no-passing"), seed=2), settings, tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=(110, 34)) as pilot:
        game = session.game
        for _ in range(2000):  # play a whole hand, the human always taking its lowest legal card
            if game.finished:
                break
            if game.to_move == (HUMAN,) and app.table.shown_trick is None:
                view = game.view(HUMAN)
                app.table.play(view.legal[0])
            await pilot.pause(0.01)
        assert game.finished, "the hand with the outside bot did not finish"
        assert session.levels[1] == level
    assert not any(getattr(p, "faulted", False) for p in session.players.values())

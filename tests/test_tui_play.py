"""``hearts play`` driven through Textual's pilot: passing, a refused card, a whole hand, resume, moon, hints."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from hearts.core import Card, CardSet, Game, GameRecord, HeartsError, MoonOption, Phase, PlayCard, Rules, dumps
from hearts.tui.app import HeartsApp, TableScreen
from hearts.tui.cardtext import refusal_words
from hearts.tui.screens import GameOverScreen, HandOverScreen, HelpScreen, MoonScreen
from hearts.tui.session import HUMAN, Session, Settings, settings_path
from hearts.tui.widgets import CardWidget, DealViewer

SIZE = (110, 34)


def fast_settings(**changes: object) -> Settings:
    """Random opponents and no pauses: a hand takes a fraction of a second. The test plays every card
    itself (no card is played for it when it is the only legal one) unless it says so."""
    settings = Settings(opponents=("random",), speed="instant", hint_level="random", auto_play=False)
    for key, value in changes.items():
        setattr(settings, key, value)
    return settings


def screen_text(app: HeartsApp) -> str:
    """The text on the screen, line by line, as a person would read it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def until(pilot: Pilot, condition: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            await pilot.pause()  # let the screen lay itself out and draw before it is read
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def type_card(pilot: Pilot, card: Card) -> None:
    for char in str(card).lower():
        await pilot.press(char)


def human_to_act(app: HeartsApp) -> bool:
    game = app.session.game
    return isinstance(app.screen, TableScreen) and HUMAN in game.to_move and app.table.shown_trick is None


async def test_a_whole_hand_by_keyboard(tmp_path: Path) -> None:
    session = Session.new(Rules(), fast_settings(), seed=21, save_path=tmp_path / "game.json")
    app = HeartsApp(session)
    async with app.run_test(size=SIZE) as pilot:
        game = session.game
        await until(pilot, lambda: human_to_act(app), "the pass")
        assert game.phase is Phase.PASS
        assert "Pass 3 cards to West" in screen_text(app)

        # Mark three cards: Space on the first, then two typed; a fourth is refused.
        hand = list(game.view(HUMAN).hand)
        await pilot.press("space")
        await type_card(pilot, hand[5])
        await type_card(pilot, hand[12])
        assert app.table.marked == CardSet([hand[0], hand[5], hand[12]])
        await type_card(pilot, hand[7])
        assert "You pass 3 cards" in screen_text(app)
        assert app.table.marked == CardSet([hand[0], hand[5], hand[12]])
        await pilot.press("enter")
        await until(pilot, lambda: game.phase is Phase.PLAY, "the exchange")

        # What came across is named and highlighted.
        received = game.view(HUMAN).received
        assert received is not None and len(received) == 3
        await until(pilot, lambda: "You received from East" in screen_text(app), "the received cards line")
        highlighted = {w.card for w in app.screen.query(CardWidget) if w.has_class("-received")}
        assert highlighted == set(received)

        refused = False
        while game.hand.number == 0:
            await until(
                pilot,
                lambda: human_to_act(app) or game.hand.number > 0 or not isinstance(app.screen, TableScreen),
                "your turn",
            )
            if not isinstance(app.screen, TableScreen) or game.hand.number > 0:
                break
            view = game.view(HUMAN)
            illegal = [c for c in view.hand if c not in view.legal]
            if illegal and not refused:
                before = dumps(GameRecord.of(game))
                with pytest.raises(HeartsError) as refusal:
                    game.check(PlayCard(HUMAN, illegal[0]))
                await type_card(pilot, illegal[0])
                # The engine's reason, said to you: "You can't play 5♦: you must follow clubs."
                said = refusal_words(refusal.value)
                assert said.startswith("You ") and said in screen_text(app)
                assert "illegal play" not in screen_text(app)
                assert dumps(GameRecord.of(game)) == before  # refused: nothing changed
                # Illegal cards are drawn as such.
                greyed = {w.card for w in app.screen.query(CardWidget) if w.has_class("-illegal")}
                assert greyed == set(illegal)
                refused = True
            await type_card(pilot, view.legal[-1])
            await until(pilot, lambda view=view: game.view(HUMAN) != view, "the card to be played")
        assert refused, "every play was forced: pick another seed"

        # The end-of-hand screen: points, totals, the deal, step through the tricks.
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the end of the hand")
        finished = game.finished[0]
        text = screen_text(app)
        assert "Hand 1 is over" in text and "The deal" in text
        # Underneath, the table still shows the finished hand, not the next deal.
        assert app.table.table_view().hand_number == 0 and game.hand.number == 1
        for name, points in zip(game.names, finished.scores, strict=True):
            assert any(name in line and line.split()[-2] == str(points) for line in text.splitlines() if name in line)
        await pilot.press("right")
        viewer = app.screen.query_one(DealViewer)
        assert viewer.step == 1 and "Trick 1 of 13" in screen_text(app)
        await pilot.press("end")
        assert "Trick 13 of 13" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the next hand")
        assert game.hand.number == 1 and "pass right" in screen_text(app)


async def test_quit_mid_hand_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = Session.new(Rules.preset("no-passing"), fast_settings(name="Ann"), seed=5, save_path=path)
    app = HeartsApp(session)
    async with app.run_test(size=SIZE) as pilot:
        game = session.game
        for _ in range(3):
            await until(pilot, lambda: human_to_act(app), "your turn")
            view = game.view(HUMAN)
            await type_card(pilot, view.legal[0])
            await until(pilot, lambda view=view: game.view(HUMAN) != view, "the card to be played")
        await until(pilot, lambda: human_to_act(app), "your turn")
        saved = dumps(GameRecord.of(game))
        await pilot.press("ctrl+q")
    assert path.read_text(encoding="utf-8") == saved
    assert settings_path(path).exists()

    resumed = Session.resume(path)
    assert dumps(GameRecord.of(resumed.game)) == saved
    assert resumed.settings.name == "Ann" and resumed.settings.opponents == ("random",)
    app = HeartsApp(resumed)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: human_to_act(app), "your turn after resuming")
        assert "Resumed hand 1" in screen_text(app)
        view = resumed.game.view(HUMAN)
        assert len(view.tricks) == 3
        await type_card(pilot, view.legal[0])
        await until(pilot, lambda: len(resumed.game.view(HUMAN).hand) == len(view.hand) - 1, "a card after resuming")
    assert path.read_text(encoding="utf-8") != saved  # the new move was saved too


def test_resume_without_a_save_says_so(tmp_path: Path) -> None:
    from hearts.tui.session import SaveError

    with pytest.raises(SaveError, match="no saved game at"):
        Session.resume(tmp_path / "missing.json")


async def test_table_layout_shows_seats_scores_and_hand(tmp_path: Path) -> None:
    session = Session.new(
        Rules.preset("omnibus"), fast_settings(four_colour=True), seed=8, save_path=tmp_path / "g.json"
    )
    app = HeartsApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: human_to_act(app), "the pass")
        text = screen_text(app)
        lines = text.splitlines()
        # The seats sit around the table: North above, West left and East right on one line, you below.
        north = next(i for i, line in enumerate(lines) if "North · random" in line)
        middle = next(i for i, line in enumerate(lines) if "West · random" in line)
        you = next(i for i, line in enumerate(lines) if "You (South)" in line)
        assert north < middle < you
        assert "East · random" in lines[middle]
        assert lines[middle].index("West") < lines[middle].index("East")
        assert "Hand 1" in text and "pass left → West" in text and "♥ not broken" in text
        assert "omnibus" in text  # the rules in the header
        # The hand, sorted by suit, each card once.
        hand_line = next(line for line in lines if "│" in line and line.count("│") >= 20)
        shown = [c.symbol() for c in session.game.view(HUMAN).hand]
        positions = [hand_line.index(s + " ") if len(s) == 2 else hand_line.index(s) for s in shown]
        assert positions == sorted(positions)
        # The score table names every seat.
        for name in session.game.names:
            assert name in text


async def test_hint_gives_a_move_and_its_reason(tmp_path: Path) -> None:
    session = Session.new(
        Rules.preset("no-passing"), fast_settings(hint_level="easy"), seed=3, save_path=tmp_path / "g.json"
    )
    app = HeartsApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: human_to_act(app), "your turn")
        await pilot.press("h")
        await until(pilot, lambda: "Hint (" in screen_text(app), "the hint")
        decision = session.hint_player.decide(session.game.view(HUMAN))
        assert decision.reason in screen_text(app)
        assert decision.move.card in app.table.hinted


async def test_help_shows_the_rules_in_force(tmp_path: Path) -> None:
    rules = Rules.preset("britannica", target=75)
    session = Session.new(rules, fast_settings(), seed=3, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=(120, 50)) as pilot:
        await until(pilot, lambda: human_to_act(app), "the pass")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        text = screen_text(app)
        assert "shooter chooses" in text and "game ends when a total reaches 75" in text
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


def _moon_for_south() -> Game:
    """A britannica game stopped where South (seat 0) has shot the moon and must choose."""
    rules = Rules.preset("britannica", pass_cycle="none")
    for seed in range(2000):
        game = Game(rules, seed=seed, names=["You", "West", "North", "East"])
        while game.phase is Phase.PLAY:
            legal = game.legal_plays()
            # South plays its highest card, everyone else its lowest: South takes nearly every trick.
            game.play(legal[-1] if game.hand.turn == HUMAN else legal[0])
        if game.phase is Phase.MOON_CHOICE and game.to_move == (HUMAN,):
            return game
    raise AssertionError("no deal found where South shoots the moon")  # pragma: no cover


async def test_the_shooter_is_asked_and_the_moon_is_announced(tmp_path: Path) -> None:
    game = _moon_for_south()
    session = Session(game, fast_settings(), tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MoonScreen), "the moon choice")
        assert "You shot the moon!" in screen_text(app)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the end of the hand")
        assert game.finished[-1].moon_option is MoonOption.SUBTRACT_FROM_SELF
        assert "You shot the moon: -26 to You" in screen_text(app)
        assert game.finished[-1].scores == (-26, 0, 0, 0)


async def test_game_over_offers_another_game(tmp_path: Path) -> None:
    session = Session.new(Rules(target=1), fast_settings(), seed=2, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=SIZE) as pilot:
        game = session.game
        while not isinstance(app.screen, HandOverScreen):
            await until(pilot, lambda: human_to_act(app) or isinstance(app.screen, HandOverScreen), "a decision")
            if isinstance(app.screen, HandOverScreen):
                break
            view = game.view(HUMAN)
            if view.phase is Phase.PASS:
                for card in list(view.hand)[:3]:
                    await type_card(pilot, card)
                await pilot.press("enter")
            else:
                await type_card(pilot, view.legal[0])
            await until(pilot, lambda view=view: game.view(HUMAN) != view, "the move")
        assert game.is_over
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the final table")
        winners = " and ".join(game.names[s] for s in game.winners)
        assert winners in screen_text(app) and "Final table" in screen_text(app)
        assert (tmp_path / "last-game.json").exists() and not (tmp_path / "g.json").exists()
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and session.game is not game, "a new game")
        assert session.game.hand.number == 0 and session.game.totals == [0, 0, 0, 0]


async def test_clicking_cards_marks_them_and_plays_them(tmp_path: Path) -> None:
    session = Session.new(Rules(), fast_settings(), seed=21, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=SIZE) as pilot:
        game = session.game
        await until(pilot, lambda: human_to_act(app), "the pass")
        hand = list(game.view(HUMAN).hand)
        for index in (1, 4, 9):
            await pilot.click(f"#card-{index}")
        assert app.table.marked == CardSet([hand[1], hand[4], hand[9]])
        await pilot.press("enter")
        await until(pilot, lambda: game.phase is Phase.PLAY and human_to_act(app), "your turn")
        view = game.view(HUMAN)
        index = list(view.hand).index(view.legal[0])
        await pilot.click(f"#card-{index}")
        await until(pilot, lambda: len(game.view(HUMAN).hand) == len(view.hand) - 1, "the clicked card to be played")
        assert view.legal[0] not in game.view(HUMAN).hand


async def test_enter_alone_chooses_and_sends_a_pass(tmp_path: Path) -> None:
    session = Session.new(Rules(), fast_settings(), seed=21, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=SIZE) as pilot:
        game = session.game
        await until(pilot, lambda: human_to_act(app), "the pass")
        hand = list(game.view(HUMAN).hand)
        await pilot.press("enter", "enter", "enter")
        assert app.table.marked == CardSet(hand[:3])  # each Enter marks the card and moves on
        await pilot.press("enter")
        await until(pilot, lambda: game.phase is Phase.PLAY, "the exchange")
        assert game.view(HUMAN).passed == CardSet(hand[:3])

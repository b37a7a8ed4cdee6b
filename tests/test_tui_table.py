"""The table at the sizes people use (80x24, 120x40): what it shows and how the keys behave.

Omnibus scores, the help at 80x24, the prompt that stays in sight, Enter while passing, the finished
trick's number, received cards that may not be played, plurals, refusals in the player's words,
the log of a resumed hand, and the setup screen's refusals.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tests.test_tui_play import fast_settings, human_to_act, screen_text, type_card, until
from textual.color import Color
from textual.widgets import Input, RichLog, Select

from hearts.core import Card, Game, GameRecord, Phase, Rules, Suit
from hearts.tui import session as session_module
from hearts.tui.app import HeartsApp, SetupRequest, TableScreen
from hearts.tui.screens import HelpScreen
from hearts.tui.session import HUMAN, Session, Settings
from hearts.tui.setup import SetupScreen
from hearts.tui.story import points_this_hand
from hearts.tui.widgets import CardWidget, SeatBox

SMALL = (80, 24)
LARGE = (120, 40)
JD = Card.parse("JD")


def omnibus_after_the_jack() -> Game:
    """An Omnibus game (no passing) stopped at the human's turn, after a trick that held J♦ and a heart."""
    rules = Rules.preset("omnibus", pass_cycle="none")
    for seed in range(500):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        jack_taken = False
        while game.hand.number == 0:
            hand = game.hand
            if jack_taken and hand.turn == HUMAN and hand.trick == [] and hand.tricks:
                return game
            game.play(rng.choice(game.legal_plays()))
            done = hand.tricks[-1] if hand.tricks else None
            if done is not None and not jack_taken and len(hand.tricks) < 12:
                cards = set(done.cards)
                jack_taken = JD in cards and any(c.suit is Suit.HEARTS for c in cards)
    raise AssertionError("no seed takes J♦ with a heart")


async def test_the_bonus_card_counts_in_every_score_on_the_table(tmp_path: Path) -> None:
    game = omnibus_after_the_jack()
    session = Session(game, fast_settings(), tmp_path / "g.json")
    view = game.view(HUMAN)
    jack = next(t for t in view.tricks if JD in t.cards)
    assert jack.winner is not None
    shown = points_this_hand(view)
    # The engine's hand scores, short of the moon: penalty points plus the bonus card.
    assert shown[jack.winner] == view.points[jack.winner] - 10
    app = HeartsApp(session)
    async with app.run_test(size=(110, 34)) as pilot:
        await until(pilot, lambda: human_to_act(app), "your turn")
        box = app.screen.query_one(f"#seat-{jack.winner}", SeatBox)
        assert f"hand {shown[jack.winner]}" in str(box.render())
        region = app.screen.query_one("#scores").region
        scores = [line[region.x : region.right] for line in screen_text(app).splitlines()[region.y : region.bottom]]
        winner_row = next(line for line in scores if game.names[jack.winner] in line)
        assert winner_row.split()[-2] == str(shown[jack.winner])  # the side panel's "hand" column
        # The log of the resumed hand gives the trick its points with the bonus: "(-9)", not "(+1)".
        log = "\n".join(strip.text for strip in app.screen.query_one(RichLog).lines)
        trick_points = game.rules.points_taken(sum(1 << c for c in jack.cards))
        assert trick_points == game.rules.penalty_points(sum(1 << c for c in jack.cards)) - 10 != 0
        assert f"trick {view.tricks.index(jack) + 1} ({trick_points:+d})" in log


async def test_help_scrolls_by_keyboard_at_80x24(tmp_path: Path) -> None:
    session = Session.new(Rules(), fast_settings(), seed=21, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: human_to_act(app), "the pass")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        box = app.screen.query_one("#help-box")
        assert box.max_scroll_y > 0  # the help is longer than the screen
        last_rule = "tied lowest seats share the win"
        assert last_rule not in screen_text(app)
        for key in ("down", "pagedown", "space", "tab"):
            before = box.scroll_y
            await pilot.press(key)
            await pilot.pause()
            assert box.scroll_y > before or box.scroll_y == box.max_scroll_y, key
        await pilot.press("home")
        await pilot.pause()
        assert box.scroll_y == 0 and "Hearts: keys and rules" in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert box.scroll_y == box.max_scroll_y and last_rule in screen_text(app)
        await pilot.press("up", "pageup")
        await pilot.pause()
        assert box.scroll_y < box.max_scroll_y
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table again")


async def test_the_pass_prompt_stays_in_sight_under_a_long_message(tmp_path: Path) -> None:
    session = Session.new(Rules(), fast_settings(), seed=21, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: human_to_act(app), "the pass")
        assert "Pass 3 cards to West" in screen_text(app)
        # A hint of two lines at 80 columns: shown whole, and the instruction is still there.
        hint = "Hint (expert): pass Q♠ A♠ K♠  — the queen and the high spades are the cards most likely to cost you"
        app.table.say(hint)
        await pilot.pause()
        text = screen_text(app)
        assert "Pass 3 cards to West" in text and "(0/3)" in text
        assert " ".join(text.split()).count(" ".join(hint.split())) == 1
        assert not app._notifications
        # One longer than two lines: cut there, and shown whole in a notification.
        longer = hint + " points" + " when spades are led, and they are led early in most hands" * 2
        app.table.say(longer)
        await pilot.pause()
        text = screen_text(app)
        assert "Pass 3 cards to West" in text and "(0/3)" in text
        assert "Hint (expert): pass Q♠ A♠ K♠" in text
        assert [n.message for n in app._notifications] == [longer]


async def test_pass_of_one_card_says_card(tmp_path: Path) -> None:
    session = Session.new(Rules(pass_count=1), fast_settings(), seed=21, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: human_to_act(app), "the pass")
        assert "Pass 1 card to West" in screen_text(app) and "1 cards" not in screen_text(app)


async def test_enter_after_typing_a_card_keeps_it_marked(tmp_path: Path) -> None:
    session = Session.new(Rules(), fast_settings(), seed=21, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=LARGE) as pilot:
        game = session.game
        await until(pilot, lambda: human_to_act(app), "the pass")
        hand = list(game.view(HUMAN).hand)
        typed = hand[4]
        await type_card(pilot, typed)
        assert typed in app.table.marked
        await pilot.press("enter")  # marks and moves on, as the help says: never takes the typed card back
        assert typed in app.table.marked and len(app.table.marked) == 1
        await pilot.press("enter")
        assert set(app.table.marked) == {typed, hand[5]}
        await pilot.press("left", "space")  # Space still unmarks the card under the cursor
        assert set(app.table.marked) == {typed}


async def test_the_finished_trick_keeps_its_number_while_it_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(session_module.SPEEDS, "pause", (0.0, 30.0))  # the won trick stays up
    session = Session.new(Rules.preset("no-passing"), fast_settings(speed="pause"), seed=5, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=LARGE) as pilot:
        game = session.game
        while app.table.shown_trick is None:
            await until(pilot, lambda: human_to_act(app) or app.table.shown_trick is not None, "a turn or a won trick")
            if app.table.shown_trick is None:
                view = game.view(HUMAN)
                await type_card(pilot, view.legal[0])
                await until(pilot, lambda view=view: game.view(HUMAN) != view, "the card")
        await pilot.pause()
        center = str(app.screen.query_one("#center").render())
        assert len(game.hand.tricks) == 1
        assert "trick 1/13" in center and "trick 2/13" not in center
        assert "takes the trick" in center or "take the trick" in center


async def test_received_cards_that_may_not_be_played_are_greyed(tmp_path: Path) -> None:
    for seed in range(40):
        session = Session.new(Rules(), fast_settings(), seed=seed, save_path=tmp_path / f"g{seed}.json")
        app = HeartsApp(session)
        async with app.run_test(size=LARGE) as pilot:
            game = session.game
            await until(pilot, lambda app=app: human_to_act(app), "the pass")
            await pilot.press("enter", "enter", "enter", "enter")
            await until(pilot, lambda g=game, a=app: g.phase is Phase.PLAY and (human_to_act(a) or g.hand.tricks), "play")
            view = game.view(HUMAN)
            if not (human_to_act(app) and not game.hand.tricks and view.received):
                continue
            both = [
                w
                for w in app.screen.query(CardWidget)
                if w.display and w.has_class("-received") and w.has_class("-illegal")
            ]
            if not both:
                continue
            grey = Color.parse("#8a8a84")
            for widget in both:
                assert widget.styles.background == grey, widget.card  # not the received highlight
            playable = [w for w in app.screen.query(CardWidget) if w.display and w.has_class("-received") and not w.has_class("-illegal")]
            for widget in playable:
                assert widget.styles.background != grey
            return
    raise AssertionError("no seed gave a received card that may not be played on the first trick")


async def test_refusals_are_said_to_you(tmp_path: Path) -> None:
    session = Session.new(Rules.preset("no-passing"), fast_settings(), seed=5, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=SMALL) as pilot:
        game = session.game
        await until(pilot, lambda: human_to_act(app), "your turn")
        view = game.view(HUMAN)
        missing = next(Card.parse(f"{r}{s}") for s in "CDSH" for r in "23456789JQKA" if Card.parse(f"{r}{s}") not in view.hand)
        await type_card(pilot, missing)
        await pilot.pause()
        text = screen_text(app)
        assert f"You don't hold {missing.symbol()}." in text
        assert "illegal play" not in text and "South" not in text.split("You don't hold")[1].splitlines()[0]


async def test_the_last_cards_are_counted_in_words(tmp_path: Path) -> None:
    game = Game(Rules.preset("no-passing"), seed=5)
    rng = random.Random(5)
    while not (len(game.hand.tricks) == 12 and game.hand.turn == HUMAN):  # the human's last card is due
        game.play(rng.choice(game.legal_plays()))
    app = HeartsApp(Session(game, fast_settings(), tmp_path / "g.json"))
    async with app.run_test(size=LARGE) as pilot:
        await until(pilot, lambda: human_to_act(app), "your last card")
        boxes = "\n".join(str(box.render()) for box in app.screen.query(SeatBox))
        assert "1 card" in boxes and "1 cards" not in boxes


async def test_a_resumed_hand_keeps_its_log(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    session = Session.new(Rules(), fast_settings(), seed=21, save_path=path)
    app = HeartsApp(session)
    async with app.run_test(size=LARGE) as pilot:
        game = session.game
        await until(pilot, lambda: human_to_act(app), "the pass")
        await pilot.press("enter", "enter", "enter", "enter")
        for _ in range(2):
            await until(pilot, lambda: human_to_act(app) and game.phase is Phase.PLAY, "your turn")
            view = game.view(HUMAN)
            await type_card(pilot, view.legal[0])
            await until(pilot, lambda view=view: game.view(HUMAN) != view, "the card")
        await until(pilot, lambda: human_to_act(app), "your turn")
        before = [strip.text.rstrip() for strip in app.screen.query_one(RichLog).lines]
        await pilot.press("ctrl+q")

    resumed = HeartsApp(Session.resume(path))
    async with resumed.run_test(size=LARGE) as pilot:
        await until(pilot, lambda: human_to_act(resumed), "your turn after resuming")
        after = [strip.text.rstrip() for strip in resumed.screen.query_one(RichLog).lines]
    played = [line for line in before if line.startswith(("You:", "West:", "North:", "East:"))]
    assert len(played) >= 5
    for line in [*played, *(line for line in before if "passed" in line or "received" in line)]:
        assert line in after, line
    assert "Resumed hand 1." in after


@pytest.mark.parametrize(
    ("cycle", "message"),
    [
        ("left,across", "there is no 'across' with 5 players"),
        ("left,righ", "unknown pass direction 'righ' (choose left, right, across, hold)"),
    ],
)
async def test_setup_refusals_are_seen_at_120x40(tmp_path: Path, cycle: str, message: str) -> None:
    request = SetupRequest(Rules(), Settings(opponents=("random",), speed="instant"), "standard", 5, tmp_path / "g.json")
    app = HeartsApp(setup=request)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#players", Select).value = 5
        await pilot.pause()
        await pilot.pause()
        screen.query_one("#pass_cycle", Input).value = cycle
        await pilot.press("ctrl+s")
        await until(pilot, lambda: message in screen_text(app), "the refusal on the screen", seconds=5)
        assert isinstance(app.screen, SetupScreen) and app.session is None
        assert "PassDirection" not in screen_text(app)
        error = screen.query_one("#setup-error")
        assert message in str(error.render())
        # The message under the form has been scrolled into view, not left below the fold.
        assert 0 < error.region.bottom <= LARGE[1] - 1  # above the footer


async def test_the_last_trick_stays_readable_at_instant_speed_at_80x24(tmp_path: Path) -> None:
    """At the instant speed a taken trick leaves the table at once and 80 columns hide the log: the
    centre keeps the last trick (who took it, its cards in playing order, its points) until the next."""
    session = Session.new(Rules.preset("no-passing"), fast_settings(), seed=5, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    game = session.game
    async with app.run_test(size=SMALL) as pilot:
        seen = 0
        while seen < 2:
            await until(pilot, lambda: human_to_act(app), "your turn")
            view = game.view(HUMAN)
            if view.tricks:
                last = view.tricks[-1]
                assert last.winner is not None
                center = str(app.screen.query_one("#center").render())
                winner = game.names[last.winner]
                assert f"last: {winner} took {' '.join(c.symbol() for c in last.cards)}" in center
                points = game.rules.points_taken(sum(1 << c for c in last.cards))
                assert (f" {points:+d}" in center) == (points != 0)
                assert f"{winner} took" in screen_text(app)  # on the screen, not cut off at 80x24
                seen += 1
            await type_card(pilot, view.legal[0])
            await until(pilot, lambda view=view: game.view(HUMAN) != view, "the card")


async def test_the_help_lists_every_key_the_table_answers(tmp_path: Path) -> None:
    session = Session.new(Rules(), fast_settings(), seed=21, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=LARGE) as pilot:
        await until(pilot, lambda: human_to_act(app), "the pass")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        lines = screen_text(app).splitlines()
        assert any("review your decisions" in line for line in lines)


def at_a_claim(holds: bool) -> Game:
    """A no-passing game stopped at South's turn in its first hand, after the first trick, where a claim
    by South holds (or does not)."""
    from tests.test_claim import strong_deal

    from hearts.core import claim_holds

    rules = Rules(pass_cycle="none")
    for seed in range(500):
        rng = random.Random(seed)
        game = Game(rules, deals={0: tuple(strong_deal(rules, rng))})
        while game.hand.number == 0 and game.phase is Phase.PLAY:
            hand = game.hand
            if hand.turn == HUMAN and hand.tricks and len(game.legal_plays()) > 1 and claim_holds(hand, HUMAN) == holds:
                return game
            game.play(rng.choice(game.legal_plays()))
    raise AssertionError("no such position in 500 deals")


async def test_a_claim_is_refused_with_the_reason_or_plays_the_hand_out(tmp_path: Path) -> None:
    from hearts.tui.screens import HandOverScreen

    game = at_a_claim(holds=False)
    session = Session(game, fast_settings(), tmp_path / "g.json")
    app = HeartsApp(session)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: human_to_act(app), "your turn")
        before = game.view(HUMAN)
        await pilot.press("c")
        await pilot.pause()
        message = app.table.message.plain if app.table.message else ""
        assert message.startswith("You can't claim the rest: ") and "is still out" in message
        assert game.view(HUMAN) == before  # nothing played

    game = at_a_claim(holds=True)
    session = Session(game, fast_settings(), tmp_path / "h.json")
    app = HeartsApp(session)
    async with app.run_test(size=LARGE) as pilot:  # wide enough for the log
        await until(pilot, lambda: human_to_act(app), "your turn")
        tricks_before = len(game.hand.tricks)
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "the end of the hand")
        done = game.finished[0]
        assert done.claim is not None and done.claim[0] == HUMAN
        assert all(t.winner == HUMAN for t in done.tricks[tricks_before:])
        log = " ".join(strip.text for strip in app.table.query_one(RichLog).lines)
        assert "You claim the rest" in log
        assert app.table.message is not None and app.table.message.plain.startswith("You claimed the rest")
    saved = GameRecord.loads((tmp_path / "h.json").read_text(encoding="utf-8"))
    assert saved.hands[0].claim == done.claim  # the record marks the claim


async def test_the_only_legal_card_is_played_for_you_and_said(tmp_path: Path) -> None:
    from hearts.tui.screens import HandOverScreen

    session = Session.new(Rules.preset("no-passing"), fast_settings(auto_play=True), seed=5, save_path=tmp_path / "g.json")
    app = HeartsApp(session)
    game = session.game
    async with app.run_test(size=SMALL) as pilot:
        while not isinstance(app.screen, HandOverScreen):
            await until(pilot, lambda: human_to_act(app) or isinstance(app.screen, HandOverScreen), "a turn")
            if isinstance(app.screen, HandOverScreen):
                break
            view = game.view(HUMAN)
            assert len(view.legal) > 1  # a single legal card is never waited for
            await type_card(pilot, view.legal[0])
            await until(pilot, lambda view=view: game.view(HUMAN) != view, "the card")
        # The last trick's card (the only one left) was played for South, and said.
        last = game.finished[0].tricks[-1]
        assert HUMAN in {seat for seat, _ in last.plays(4)}
        message = app.table.message.plain if app.table.message else ""
        assert message.startswith("Played ") and "for you: your only legal card" in message

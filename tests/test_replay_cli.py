"""``hearts replay``: the plain account of a record, and clear errors for bad files."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from hearts.cli import app
from hearts.core import Card, CardSet, Game, GameRecord, MoonScoring, Phase, Rules, dumps

runner = CliRunner()


def _finished_game(rules: Rules, seed: int) -> Game:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        if game.phase is Phase.PASS:
            for seat in game.to_move:
                game.pass_cards(seat, rng.sample(list(game.view(seat).hand), rules.pass_count))
        elif game.phase is Phase.PLAY:
            game.play(rng.choice(game.legal_plays()))
        else:
            game.choose_moon(game.to_move[0], "subtract-from-self")
    return game


def _write(tmp_path: Path, game: Game) -> Path:
    path = tmp_path / "game.json"
    path.write_text(dumps(GameRecord.of(game)), encoding="utf-8")
    return path


def test_plain_account_tells_every_hand_and_trick(tmp_path: Path) -> None:
    game = _finished_game(Rules.preset("short"), seed=11)
    result = runner.invoke(app, ["replay", str(_write(tmp_path, game)), "--text"])
    assert result.exit_code == 0, result.output
    out = result.output
    first = game.finished[0]
    # Who passed what: South's pass of the first hand, with suit symbols.
    south_pass = " ".join(c.symbol() for c in CardSet(first.passed[0]))
    assert f"South → West   {south_pass}" in out
    # Every trick of every hand, its leader, every card and its winner.
    assert out.count("Trick ") == sum(len(h.tricks) for h in game.finished)
    t = first.tricks[0]
    plays = ", ".join(f"{game.names[s]} {c.symbol()}" for s, c in t.plays(4))
    assert f"Trick  1: {game.names[t.leader]} leads. {plays}. {game.names[t.winner]} wins" in out
    # Points and totals of each hand, and the winner.
    assert out.count("  Points: ") == len(game.finished)
    totals = ", ".join(f"{name} {total}" for name, total in zip(game.names, game.totals, strict=True))
    assert f"Final totals: {totals}" in out
    assert "Winner" in out and game.names[game.winners[0]] in out.splitlines()[-1]


def test_plain_account_announces_a_moon(tmp_path: Path) -> None:
    # Random play to 26 points shoots a moon now and then: take the first seed that does.
    rules = Rules.preset("britannica")
    for seed in range(400):
        game = _finished_game(rules.replace(target=26), seed)
        if any(h.shooter is not None for h in game.finished):
            break
    else:  # pragma: no cover - the search space holds moons for random play on short games
        raise AssertionError("no moon found")
    shooter = next(h.shooter for h in game.finished if h.shooter is not None)
    assert game.rules.moon is MoonScoring.SHOOTER_CHOOSES
    result = runner.invoke(app, ["replay", str(_write(tmp_path, game))])  # not a terminal: the plain account
    assert result.exit_code == 0
    assert f"Moon! {game.names[shooter]} shot the moon: -26 to {game.names[shooter]}." in result.output


def test_game_in_progress_is_told_up_to_the_current_trick(tmp_path: Path) -> None:
    game = Game(Rules.preset("no-passing"), seed=4)
    for _ in range(6):
        game.play(game.legal_plays()[0])
    result = runner.invoke(app, ["replay", str(_write(tmp_path, game)), "--text"])
    assert result.exit_code == 0
    assert "Hand 1: no passing (in progress)" in result.output
    assert "Trick  2:" in result.output and "(in progress)" in result.output.split("Trick  2:")[1]
    assert "Game in progress. Totals so far: South 0, West 0, North 0, East 0" in result.output


def test_malformed_record_is_a_clear_error_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2
    assert "not a JSON record" in result.output and "Traceback" not in result.output


def test_record_with_an_illegal_card_names_hand_trick_and_rule(tmp_path: Path) -> None:
    game = Game(Rules.preset("no-passing"), seed=2)
    data = json.loads(dumps(GameRecord.of(game)))
    hand = data["hands"][0]
    leader = next(s for s, cards in enumerate(hand["dealt"]) if "2C" in cards)
    wrong = next(c for c in hand["dealt"][leader] if c != "2C")
    hand["tricks"] = [{"leader": leader, "cards": [wrong]}]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--text"])
    assert result.exit_code == 2
    wrong_card = Card.parse(wrong).symbol()
    assert f"hand 1, trick 1: illegal play {wrong_card} by " in result.output
    assert "the first trick must be opened with 2♣" in result.output


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nowhere.json")])
    assert result.exit_code == 2
    assert "no such file" in result.output


async def test_the_viewer_steps_through_tricks_and_hands() -> None:
    from hearts.core import loads
    from hearts.tui.replay import ReplayApp

    game = _finished_game(Rules.preset("short"), seed=11)
    app = ReplayApp(loads(dumps(GameRecord.of(game))), title="game.json")
    async with app.run_test(size=(110, 40)) as pilot:

        def text() -> str:
            return "\n".join(strip.text for strip in app.screen._compositor.render_strips())

        await pilot.pause()
        assert "Hand 1 of" in text() and "The deal" in text()
        dealt = " ".join(c.symbol() for c in CardSet(game.finished[0].dealt[0]))
        assert dealt in text()  # the whole deal as dealt
        await pilot.press("right")
        await pilot.pause()
        first = game.finished[0].tricks[0]
        assert "Trick 1 of 13" in text() and f"{game.names[first.winner]} wins it" in text()
        await pilot.press("end", "right")  # past the last trick: on to the next hand's deal
        await pilot.pause()
        assert "Hand 2 of" in text() and "The deal" in text()
        await pilot.press("left")
        await pilot.pause()
        assert "Hand 1 of" in text() and "Trick 13 of 13" in text()


def test_the_viewer_counts_points_taken_trick_by_trick() -> None:
    from rich.console import Console

    from hearts.tui.story import hand_story
    from hearts.tui.widgets import DealViewer

    game = _finished_game(Rules.preset("short"), seed=11)
    hand = game.finished[0]
    viewer = DealViewer(game.names, hand_story(hand, tuple(hand.scores)))
    viewer.step = len(hand.tricks)  # the last trick: every point of the hand has been taken
    console = Console(width=140, record=True)
    console.print(viewer.render_step())
    rows = {}
    for line in console.export_text().splitlines():
        words = line.split()
        if words and words[0] in game.names and words[-1].isdigit():  # a seat's row, points last
            rows[words[0]] = int(words[-1])
    assert [rows[name] for name in game.names] == hand.points


def _omnibus_jack_with_hearts() -> tuple[Game, int, int]:
    """A finished Omnibus game, and a hand and trick (0-based) where J♦ fell with a heart, no moon."""
    rules = Rules.preset("omnibus", target=40)
    jack = Card.parse("JD")
    for seed in range(300):
        game = _finished_game(rules, seed)
        for h, hand in enumerate(game.finished):
            for t, trick in enumerate(hand.tricks):
                if hand.shooter is None and jack in trick.cards and any(c.suit.name == "HEARTS" for c in trick.cards):
                    return game, h, t
    raise AssertionError("no seed takes J♦ with a heart")


def test_the_bonus_card_counts_in_the_account_of_each_trick(tmp_path: Path) -> None:
    game, h, t = _omnibus_jack_with_hearts()
    trick = game.finished[h].tricks[t]
    mask = sum(1 << c for c in trick.cards)
    points = game.rules.points_taken(mask)
    assert points == game.rules.penalty_points(mask) - 10
    result = runner.invoke(app, ["replay", str(_write(tmp_path, game)), "--text"])
    assert result.exit_code == 0, result.output
    hand_text = result.output.split(f"Hand {h + 1}:")[1].split("\nHand ")[0]
    line = next(x for x in hand_text.splitlines() if x.startswith(f"  Trick {t + 1:>2}:"))
    winner = game.names[trick.winner]
    assert line.endswith(f"{winner} wins ({points} point{'s' if points != 1 else ''}).")


def test_the_viewer_counts_the_bonus_card_in_the_points_taken() -> None:
    from rich.console import Console

    from hearts.tui.story import hand_story
    from hearts.tui.widgets import DealViewer

    game, h, t = _omnibus_jack_with_hearts()
    hand = game.finished[h]
    viewer = DealViewer(game.names, hand_story(hand, tuple(hand.scores)))
    console = Console(width=160, record=True)
    viewer.step = t + 1  # the trick that took J♦: its outcome line gives its points with the bonus
    console.print(viewer.render_step())
    trick = hand.tricks[t]
    points = game.rules.points_taken(sum(1 << c for c in trick.cards))
    assert f"{game.names[trick.winner]} wins it: {points} points" in console.export_text()
    viewer.step = len(hand.tricks)  # the last trick: each seat's points are the hand's scores (no moon)
    console.print(viewer.render_step())
    rows = {}
    for line in console.export_text().splitlines():
        words = line.split()
        if words and words[0] in game.names and words[-1].lstrip("-").isdigit():
            rows[words[0]] = int(words[-1])
    assert [rows[name] for name in game.names] == list(hand.scores)

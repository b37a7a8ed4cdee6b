"""``hearts simulate`` through Typer's CliRunner, and the simulation underneath it."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hearts.cli import app
from hearts.core import Card, CardSet, Game, GameRecord, Rules, SeatView, cards_of, loads
from hearts.players.base import Player
from hearts.sim.simulate import FastRandom, HandOutcome, SimulationConfig, SimulationError, play_hands, simulate

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, ["simulate", *args])


def flat(text: str) -> str:
    """Output without rich's box drawing and line wrapping, for matching messages."""
    for ch in "│╭╮╰╯─":
        text = text.replace(ch, " ")
    return " ".join(text.split())


def replayed(directory: Path) -> list[Game]:
    """Every record in ``directory``, in game order, loaded and replayed through the engine."""
    files = sorted(directory.glob("game-*.json"))
    assert files, f"no records in {directory}"
    return [loads(f.read_text(encoding="utf-8")).replay() for f in files]


def recorded_plays(record: GameRecord) -> Iterator[tuple[int, list[Card], Card]]:
    """Replay ``record`` through the engine: for each play, the seat, its legal cards then, and the card played."""
    deals = {h.number: tuple(c.mask for c in h.dealt) for h in record.hands}
    game = Game(record.rules, seed=record.seed, deals=deals)
    for h in record.hands:
        for seat, cards in enumerate(h.passes):
            if cards is not None:
                game.pass_cards(seat, cards)
        for t in h.tricks:
            for card in t.cards:
                yield game.hand.turn, game.legal_plays(), card
                game.play(card)


def test_figures_json_and_records_agree_with_the_replayed_games(tmp_path: Path) -> None:
    out, records = tmp_path / "figures.json", tmp_path / "records"
    result = run("--hands", "45", "--seed", "7", "--json", str(out), "--records", str(records), "-q")
    assert result.exit_code == 0, result.output
    assert "45 hands" in result.output and "hands/s" in result.output
    for name in ("South", "West", "North", "East"):
        assert name in result.output
    figures = json.loads(out.read_text())
    assert figures["hands"] == 45 and figures["seats"] == 4 and figures["preset"] == "standard"
    assert figures["hands_per_second"] == pytest.approx(45 / figures["seconds"])
    assert [p["name"] for p in figures["points"]] == ["South", "West", "North", "East"]

    # Every hand simulated is in the records, and the records replay to the same figures.
    games = replayed(records)
    assert len(games) == figures["games"]
    hands = [h for g in games for h in g.finished]
    assert len(hands) == 45
    for seat, p in enumerate(figures["points"]):
        points = [h.scores[seat] for h in hands]
        assert p["total"] == sum(points)
        assert p["mean"] == pytest.approx(sum(points) / 45)
        assert p["ci_low"] <= p["mean"] <= p["ci_high"]
        assert p["moons"] == sum(1 for h in hands if h.shooter == seat)
    assert figures["moons"] == sum(1 for h in hands if h.shooter is not None)
    assert figures["games_finished"] == sum(1 for g in games if g.is_over)
    # All games but the last are played to the end; the last stops when the hands are done.
    assert all(g.is_over for g in games[:-1])
    wins = [sum(1 / len(g.winners) for g in games if s in g.winners) for s in range(4)]
    assert [p["wins"] for p in figures["points"]] == pytest.approx(wins)


def test_a_seed_gives_the_same_hands_and_records(tmp_path: Path) -> None:
    outputs = []
    for i, seed in enumerate(("11", "11", "12")):
        out, records = tmp_path / f"f{i}.json", tmp_path / f"r{i}"
        result = run("--hands", "30", "--seed", seed, "--json", str(out), "--records", str(records), "-q")
        assert result.exit_code == 0, result.output
        figures = json.loads(out.read_text())
        for key in ("seconds", "hands_per_second", "record_seconds", "cpu_seconds", "hands_per_cpu_second"):
            figures.pop(key)
        texts = [f.read_text() for f in sorted(records.iterdir())]
        outputs.append((figures, texts))
    assert outputs[0] == outputs[1]
    assert outputs[0][1] != outputs[2][1]  # another seed deals other hands


def test_other_presets_and_seat_counts_replay(tmp_path: Path) -> None:
    # Britannica leaves the moon to the shooter: the moon choice goes through the player.
    for preset, seats in (("britannica", "3"), ("omnibus", "5"), ("no-passing", "6")):
        records = tmp_path / f"{preset}-{seats}"
        result = run("--hands", "25", "--preset", preset, "--seats", seats, "--records", str(records), "-q")
        assert result.exit_code == 0, result.output
        games = replayed(records)
        assert all(g.rules == Rules.preset(preset, players=int(seats)) for g in games)
        assert sum(len(g.finished) for g in games) == 25


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--preset", "nope"], "unknown preset 'nope'"),
        (["--seats", "7"], "--seats"),
        (["--seats", "2"], "--seats"),
        (["--hands", "0"], "--hands"),
        (["--players", "grandmaster"], "unknown player level 'grandmaster'"),
        (["--players", "random,random"], "2 levels for 4 seats"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_error(args: list[str], expected: str) -> None:
    result = run(*args, "-q")
    assert result.exit_code == 2
    assert expected in flat(result.output)


def test_records_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.write_text("x")
    result = run("--hands", "5", "--records", str(target), "-q")
    assert result.exit_code == 2
    assert "not a directory" in result.output


def test_json_in_a_missing_directory_is_refused_before_playing(tmp_path: Path) -> None:
    result = run("--hands", "5", "--json", str(tmp_path / "nowhere" / "f.json"), "-q")
    assert result.exit_code == 2
    assert "no directory" in flat(result.output)


def test_config_errors_name_the_option() -> None:
    with pytest.raises(SimulationError) as info:
        SimulationConfig(preset="britannica", seats=9)
    assert info.value.option == "--seats"
    with pytest.raises(SimulationError) as info:
        SimulationConfig(players=("random", "nobody", "random", "random"))
    assert info.value.option == "--players" and "nobody" in str(info.value)


class LowestCard(Player):
    """Passes its lowest cards and plays its lowest legal card; keeps every view it is shown."""

    name = "lowest"

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.views: list[SeatView] = []

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        self.views.append(view)
        return CardSet(list(view.hand)[: view.rules.pass_count]), "lowest"

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        self.views.append(view)
        return view.legal[0], "lowest"


def test_other_players_decide_from_their_own_seat_view() -> None:
    game = Game(Rules.preset("standard"), seed=4)
    lowest = LowestCard()
    players = [lowest, FastRandom(1), FastRandom(2), FastRandom(3)]
    outcomes: list[HandOutcome] = []
    assert play_hands(game, players, 6, outcomes.append) == len(outcomes) >= 1
    assert lowest.views and all(v.seat == 0 and 0 in v.to_move for v in lowest.views)
    # Seat 0 passed its lowest cards and played its lowest legal card at every turn, and was asked each time.
    record = GameRecord.of(game)
    passes = [h.passes[0] for h in record.hands if h.passes[0] is not None]
    assert passes == [CardSet(cards_of(h.dealt[0].mask)[:3]) for h in record.hands if h.passes[0] is not None]
    turns = [(legal, card) for seat, legal, card in recorded_plays(record) if seat == 0]
    assert all(card == legal[0] for legal, card in turns)
    assert len(passes) + len(turns) == len(lowest.views)


def test_fast_random_plays_uniformly_among_the_legal_cards() -> None:
    kept: list[GameRecord] = []
    simulate(SimulationConfig(hands=60, seed=8), records=lambda number, record: kept.append(record))
    # For every play: was it the first legal card? A uniform choice among k cards is 1/k.
    expected = variance = 0.0
    observed = 0
    for record in kept:
        for _, legal, card in recorded_plays(record):
            expected += 1 / len(legal)
            variance += (1 / len(legal)) * (1 - 1 / len(legal))
            observed += card == legal[0]
    assert expected > 500
    assert abs(observed - expected) < 4 * math.sqrt(variance)


def test_simulate_counts_every_hand_once() -> None:
    result = simulate(SimulationConfig(hands=37, seats=3, seed=5))
    assert result.hands == 37
    assert all(s.points.n == 37 for s in result.seats)
    assert result.points_taken == pytest.approx(sum(s.points.mean * 37 for s in result.seats))
    # Every hand hands out its points: 26 without a moon; with three seats a moon (26 to each other seat) gives 2 x 26.
    assert result.points_taken == 26 * 37 + 26 * result.moons
    assert result.to_dict()["points"][0]["player"] == "random"

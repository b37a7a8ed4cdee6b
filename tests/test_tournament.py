"""Duplicate tournaments: seatings, what each player was really dealt, zero-sum payoffs, the
confidence-interval math, determinism across worker counts, JSON and plot outputs, bad arguments."""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import combinations

import pytest
from typer.testing import CliRunner

from hearts.cli import app
from hearts.core import Card, SeatView
from hearts.players.random_player import RandomPlayer
from hearts.players.registry import LEVELS
from hearts.sim.stats import mean_ci, percentile, running_mean_ci, t_quantile
from hearts.sim.tournament import (
    TournamentConfig,
    TournamentError,
    deal_for,
    run_local,
    run_tournament,
    seatings,
    tables_for,
)

runner = CliRunner()

#: What spy players saw at their first decision of each hand: (class, seat, hand in view).
SEEN: list[tuple[str, int, int]] = []


class SpyA(RandomPlayer):
    """A random player that records the cards its view shows at its first decision.

    A tournament makes a new player for every seat of every table, so the first decision is before
    the seat has passed or played: its view's hand is exactly what it was dealt.
    """

    name = "spy-a"
    first = True

    def decide(self, view: SeatView):  # type: ignore[no-untyped-def]
        if self.first:
            self.first = False
            assert not view.passed and len(view.hand) == view.rules.hand_size
            SEEN.append((type(self).__name__, view.seat, view.hand.mask))
        return super().decide(view)


class SpyB(SpyA):
    name = "spy-b"


class Cheat(RandomPlayer):
    """Plays a card it does not hold."""

    name = "cheat"

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        return next(c for c in map(Card, range(52)) if c not in view.hand and c not in view.played), "cheating"


class Broken(RandomPlayer):
    """Fails at its first play, as a crashed external bot would."""

    name = "broken"

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        raise RuntimeError("bot process exited")


@pytest.fixture
def spies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "spy-a", f"{__name__}:SpyA")
    monkeypatch.setitem(LEVELS, "spy-b", f"{__name__}:SpyB")
    monkeypatch.setitem(LEVELS, "cheat", f"{__name__}:Cheat")
    monkeypatch.setitem(LEVELS, "broken", f"{__name__}:Broken")
    SEEN.clear()


def _outcome(tables):  # type: ignore[no-untyped-def]
    """Everything a table's result holds except the wall-clock times."""
    return [(t.kind, t.index, t.table, t.seating, t.dealt, t.scores, t.moons, t.winners, t.hands) for t in tables]


# -- seatings --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_player_holds_every_seats_cards_equally_often(n: int) -> None:
    for k in range(2, n + 1):
        tables = seatings(k, n)
        assert len(set(tables)) == len(tables)
        counts = Counter((p, s) for seating in tables for s, p in enumerate(seating))
        assert set(counts) == {(p, s) for p in range(k) for s in range(n)}
        assert len(set(counts.values())) == 1, (k, n, counts)


def test_two_players_play_two_against_two() -> None:
    assert seatings(2, 4) == [(0, 1, 0, 1), (1, 0, 1, 0)]


def test_more_players_than_seats_rotate_through_lineups() -> None:
    k, n = 6, 4
    lineups = len(list(combinations(range(k), n)))
    counts: Counter[tuple[int, int]] = Counter()
    for d in range(lineups):
        tables = tables_for(k, n, d)
        assert len(tables) == n and len({frozenset(t) for t in tables}) == 1
        counts.update((p, s) for t in tables for s, p in enumerate(t))
    assert set(counts) == {(p, s) for p in range(k) for s in range(n)}
    assert len(set(counts.values())) == 1


def test_five_players_at_four_seats_each_sit_out_one_deal_in_five() -> None:
    config = TournamentConfig(("random", "easy", "random", "easy", "medium"), hands=5, games=0, seed=1)
    assert config.labels == ("random", "easy", "random#2", "easy#2", "medium")
    result = run_tournament(config, jobs=1)
    assert len(result.tables) == 5 * 4
    figures = result.figures()
    assert [f.payoff.n for f in figures] == [4] * 5
    for d in range(5):
        tables = [t for t in result.tables if t.index == d]
        assert len({frozenset(t.seating) for t in tables}) == 1 and len(set(tables[0].seating)) == 4


def test_players_are_really_dealt_each_seats_cards(spies: None) -> None:
    config = TournamentConfig(("spy-a", "spy-b"), hands=4, games=0, seed=11)
    tables = run_local(config, jobs=1)
    assert len(tables) == 8
    for d in range(4):
        dealt = deal_for(config, "deal", d)
        assert [t.dealt for t in tables if t.index == d] == [dealt, dealt]
        # What each player's views showed it, not what the tournament says it dealt:
        for cls in ("SpyA", "SpyB"):
            seen = Counter(mask for who, seat, mask in SEEN if who == cls and mask in dealt)
            assert sorted(seen) == sorted(dealt) and set(seen.values()) == {1}, (d, cls)
    # Each spy's seat matches the dealt hand it saw: seat s sees seat s's cards, at some table.
    for _who, seat, mask in SEEN:
        assert any(mask == deal_for(config, "deal", d)[seat] for d in range(4))
    assert len(SEEN) == 4 * 2 * 4
    # Deals differ from one another and from seed to seed.
    assert len({deal_for(config, "deal", d) for d in range(4)}) == 4
    other = TournamentConfig(("spy-a", "spy-b"), hands=4, seed=12)
    assert deal_for(other, "deal", 0) != deal_for(config, "deal", 0)


def test_payoff_is_zero_sum_and_mirrors_for_two_players() -> None:
    result = run_tournament(TournamentConfig(("random", "easy"), hands=6, games=1, seed=2), jobs=1)
    for t in result.tables:
        assert math.isclose(sum(t.payoffs), 0.0, abs_tol=1e-9)
        n = len(t.scores)
        for s in range(n):
            others = [t.scores[o] for o in range(n) if o != s]
            assert t.payoffs[s] == pytest.approx(sum(others) / (n - 1) - t.scores[s])
    a, b = result.figures()
    assert a.payoff.n == b.payoff.n == 6
    for x, y in zip(a.payoff_by_deal, b.payoff_by_deal, strict=True):
        assert x == pytest.approx(-y)
    assert a.payoff.mean == pytest.approx(-b.payoff.mean)
    # Every deal's hand gives out the whole 26 points (no moon in standard rules changes that total
    # except a moon, which gives 3 x 26).
    for t in result.tables:
        if t.kind == "deal":
            assert sum(t.scores) in (26, 78)
    games = [t for t in result.tables if t.kind == "game"]
    assert len(games) == 2
    for g in games:
        assert max(g.scores) >= 100 and g.winners
        assert all(g.scores[w] == min(g.scores) for w in g.winners)
    # Win credits of one game table add up to one.
    wins = [f.win_rate.mean for f in result.figures()]
    assert sum(wins) * 2 == pytest.approx(1.0)


def test_three_players_at_three_seats_and_a_cheat(spies: None) -> None:
    result = run_tournament(TournamentConfig(("random", "easy", "spy-a"), hands=2, games=0, seats=3, seed=4), jobs=1)
    assert len(result.tables) == 2 * 3
    assert {t.seating for t in result.tables} == {(0, 1, 2), (1, 2, 0), (2, 0, 1)}
    with pytest.raises(
        TournamentError, match=r"cheat faulted in deal 1 \(table 1, seat \d \w+, hand 1\): illegal: illegal play"
    ):
        run_tournament(TournamentConfig(("random", "cheat"), hands=1, games=0, preset="no-passing"), jobs=1)
    with pytest.raises(
        TournamentError, match=r"broken faulted in deal 1 .*: crash: RuntimeError: bot process exited"
    ):
        run_tournament(TournamentConfig(("random", "broken"), hands=1, games=0, preset="no-passing"), jobs=1)


# -- statistics ------------------------------------------------------------------------------------


def test_confidence_interval_on_known_data() -> None:
    # Student's t table: t(0.975, 9) = 2.262, t(0.975, 1) = 12.706, t(0.995, 4) = 4.604; large df -> 1.960.
    assert t_quantile(0.975, 9) == pytest.approx(2.262157, abs=1e-6)
    assert t_quantile(0.975, 1) == pytest.approx(12.706205, abs=1e-6)
    assert t_quantile(0.995, 4) == pytest.approx(4.604095, abs=1e-6)
    assert t_quantile(0.975, 10**6) == pytest.approx(1.959966, abs=1e-5)
    assert t_quantile(0.025, 9) == pytest.approx(-2.262157, abs=1e-6)
    data = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]  # mean 5, sample sd sqrt(32/7)
    est = mean_ci(data)
    half = 2.364624 * math.sqrt(32 / 7) / math.sqrt(8)
    assert est.mean == 5.0 and est.n == 8
    assert est.sd == pytest.approx(math.sqrt(32 / 7))
    assert (est.low, est.high) == (pytest.approx(5 - half, abs=1e-5), pytest.approx(5 + half, abs=1e-5))
    assert mean_ci([3.0]).low == mean_ci([3.0]).high == 3.0
    assert mean_ci([]).n == 0 and math.isnan(mean_ci([]).mean)
    means, lows, highs = running_mean_ci(data)
    assert (
        means[-1] == pytest.approx(5.0) and lows[-1] == pytest.approx(est.low) and highs[-1] == pytest.approx(est.high)
    )
    assert percentile([1.0, 2.0, 3.0, 4.0], 95) == pytest.approx(3.85)
    with pytest.raises(ValueError, match="0 < p < 1"):
        t_quantile(1.0, 3)


# -- determinism and backends -----------------------------------------------------------------------


def test_same_results_with_one_or_two_jobs() -> None:
    config = TournamentConfig(("random", "easy"), hands=4, games=1, seed=9)
    one = run_local(config, jobs=1)
    two = run_local(config, jobs=2)
    assert _outcome(one) == _outcome(two)
    assert _outcome(one) != _outcome(run_local(TournamentConfig(("random", "easy"), hands=4, games=1, seed=10), jobs=1))


def test_ray_backend_gives_identical_results() -> None:
    # A real local Ray instance (2 CPUs): the ray extra, which CI installs; skipped without it.
    pytest.importorskip("ray")
    from hearts.sim.ray_backend import run_ray

    config = TournamentConfig(("random", "easy"), hands=4, games=1, seed=9)
    assert _outcome(run_ray(config, jobs=2)) == _outcome(run_local(config, jobs=1))


# -- the command ----------------------------------------------------------------------------------------


def test_command_writes_json_and_plot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out, png = tmp_path / "t.json", tmp_path / "t.png"
    result = runner.invoke(
        app,
        ["tournament", "--players", "random,easy", "--hands", "6", "--games", "1", "--seed", "3", "--jobs", "1",
         "--json", str(out), "--plot", str(png), "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "payoff/seat-deal" in result.output and "OpenSkill" in result.output
    data = json.loads(out.read_text())
    assert data["config"]["players"] == ["random", "easy"] and data["tables_per_deal"] == 2
    for label in ("random", "easy"):
        figures = data["players"][label]
        for key in ("points_per_hand", "payoff_per_seat_deal", "moons_made_per_hand", "moons_allowed_per_hand",
                    "win_rate", "seconds_per_decision"):  # fmt: skip
            fig = figures[key]
            assert fig["ci_low"] <= fig["mean"] <= fig["ci_high"], key
        assert figures["payoff_per_seat_deal"]["n"] == 6 and len(figures["payoff_by_deal"]) == 6
        assert figures["seconds_per_decision"]["p95"] > 0
    assert len(data["tables"]) == 6 * 2 + 1 * 2
    assert {row["player"] for row in data["ratings"]["table"]} == {"random", "easy"}
    assert data["ratings"]["rated"] == "2 games"
    raw = png.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image

    assert matplotlib.image.imread(str(png)).shape[2] in (3, 4)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "random,grandmaster"], "unknown player level 'grandmaster'"),
        (["--players", "random"], "at least two players"),
        (["--players", "random,easy", "--seats", "7"], "less than or equal to 6"),
        (["--players", "random,easy", "--preset", "nonsense"], "unknown preset 'nonsense'"),
        (["--players", "random,easy", "--backend", "mpi"], "unknown backend 'mpi'"),
        (["--players", "random,easy", "--hands", "0", "--games", "0"], "nothing to play"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", *args, "--jobs", "1", "--quiet"])
    assert result.exit_code == 2, result.output
    words = " ".join(w for w in result.output.split() if w != "│")  # the error box wraps the message
    assert message in words, result.output

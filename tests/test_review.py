"""Hand reviews (hearts.review, ``hearts review``): the expert's valuation of a seat's decisions.

Fixed world counts everywhere (no time budgets): the reviews are deterministic and the tests do not
depend on the machine's speed.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hearts.cli import app
from hearts.core import Game, GameRecord, Rules
from hearts.players import make_player, play_game
from hearts.review import (
    MARKS,
    DecisionReview,
    HandNotReviewableError,
    HandReview,
    ReviewCache,
    UnknownSeatError,
    UnreplayableRecordError,
    review_hand,
)

WORLDS = 200


@pytest.fixture(scope="module")
def expert_record() -> GameRecord:
    """Two hands in which South is the expert at WORLDS worlds a decision (seed 0), the others medium."""
    game = Game(Rules(), seed=3)
    expert = make_player("expert", seed=0, time_budget=1e6, worlds=WORLDS)
    play_game(game, [expert] + [make_player("medium", seed=s) for s in (1, 2, 3)], hands=2)
    return GameRecord.of(game)


@pytest.fixture(scope="module")
def easy_record() -> GameRecord:
    """Two hands between easy players: South makes mistakes the expert would not."""
    game = Game(Rules(), seed=5)
    play_game(game, [make_player("easy", seed=s) for s in range(4)], hands=2)
    return GameRecord.of(game)


def test_the_experts_own_hand_costs_nothing(expert_record: GameRecord) -> None:
    for hand in (0, 1):
        review = review_hand(expert_record, 0, hand, worlds=WORLDS, seed=0, cache=None)
        assert review.decisions[0].kind == "pass"
        assert len(review.decisions) >= 6
        for d in review.decisions:
            assert d.played == d.best or d.cost == 0.0, d
            assert d.cost == 0.0 and d.mark == "best", d
        assert review.total_cost == 0.0
        assert review.costliest == ()


def test_progress_is_reported_from_the_start(expert_record: GameRecord) -> None:
    calls: list[tuple[int, int]] = []
    review = review_hand(expert_record, "South", 0, worlds=50, progress=lambda d, t: calls.append((d, t)), cache=None)
    total = len(review.decisions)
    assert calls == [(i, total) for i in range(total + 1)]


def test_a_weaker_hand_shows_costs_marks_and_reasons(easy_record: GameRecord) -> None:
    review = review_hand(easy_record, 0, 1, worlds=WORLDS, cache=None)
    assert review.total_cost > 0
    assert {d.mark for d in review.decisions} <= set(MARKS)
    worst = review.costliest[0]
    assert worst.cost == max(d.cost for d in review.decisions) and worst.mark != "best"
    assert worst.played != worst.best and worst.reason
    # Every option is valued, the expert's first at no cost; the played one's cost is the decision's.
    for d in review.decisions:
        assert d.options[0].cards[0] in d.best or d.kind == "pass" and set(d.options[0].cards) == set(d.best)
        assert d.options[0].cost == 0.0
        played = next(o for o in d.options if set(d.played) <= set(o.cards) or set(o.cards) == set(d.played))
        assert played.cost == pytest.approx(d.cost)


def test_json_round_trip(easy_record: GameRecord) -> None:
    review = review_hand(easy_record, 0, 1, worlds=50, cache=None)
    data = json.loads(json.dumps(review.to_dict()))
    assert HandReview.from_dict(data) == review
    assert DecisionReview.from_dict(data["decisions"][0]) == review.decisions[0]
    assert data["hand"] == 2 and data["costliest"] == [d.number for d in review.costliest]


def test_a_second_review_is_not_searched_again(easy_record: GameRecord, tmp_path, monkeypatch) -> None:
    from hearts.players.search import SearchPlayer

    searched = 0
    value = SearchPlayer.value_options

    def counting(self, view, passes=()):  # type: ignore[no-untyped-def]
        nonlocal searched
        searched += 1
        return value(self, view, passes)

    monkeypatch.setattr(SearchPlayer, "value_options", counting)
    first = review_hand(easy_record, 0, 0, worlds=30, cache=ReviewCache(tmp_path))
    assert searched == len(first.decisions)
    # A new cache on the same folder (another run), the record read back from its JSON: no search.
    again = review_hand(GameRecord.loads(easy_record.dumps()), "1", 0, worlds=30, cache=ReviewCache(tmp_path))
    assert again == first and searched == len(first.decisions)
    # Other settings are another review.
    review_hand(easy_record, 0, 0, worlds=31, cache=ReviewCache(tmp_path))
    assert searched == 2 * len(first.decisions)


def test_bad_input_is_refused_in_players_words(easy_record: GameRecord) -> None:
    with pytest.raises(UnknownSeatError, match="no seat 'Bob'"):
        review_hand(easy_record, "Bob", 0, worlds=10)
    with pytest.raises(UnknownSeatError, match="no seat 5"):
        review_hand(easy_record, 4, 0, worlds=10)
    with pytest.raises(HandNotReviewableError, match="no hand 7"):
        review_hand(easy_record, 0, 6, worlds=10)
    with pytest.raises(HandNotReviewableError, match="hand 3 is not finished"):
        review_hand(easy_record, 0, 2, worlds=10)
    data = easy_record.to_dict()
    data["hands"][0]["tricks"][0]["cards"][1], data["hands"][0]["tricks"][0]["cards"][2] = (
        data["hands"][0]["tricks"][0]["cards"][2],
        data["hands"][0]["tricks"][0]["cards"][1],
    )
    data["hands"][0]["tricks"][0]["cards"][0] = data["hands"][0]["tricks"][1]["cards"][0]
    with pytest.raises(UnreplayableRecordError, match="does not replay: hand 1"):
        review_hand(GameRecord.from_dict(data), 0, 0, worlds=10)
    assert all(issubclass(e, ValueError) for e in (UnknownSeatError, HandNotReviewableError, UnreplayableRecordError))


def test_cli_prints_the_review_and_refuses_bad_input(easy_record: GameRecord, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("hearts.cli.review.cache_folder", lambda: tmp_path / "cache")
    path = tmp_path / "game.json"
    path.write_text(easy_record.dumps(), encoding="utf-8")
    runner = CliRunner()
    out = tmp_path / "review.json"
    result = runner.invoke(
        app, ["review", str(path), "--seat", "south", "--hand", "2", "--worlds", "40", "-q", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "Expected points lost" in result.output and "Hand 2, reviewed for South" in result.output
    review = HandReview.from_dict(json.loads(out.read_text(encoding="utf-8")))
    assert review.hand == 1 and review.worlds == 40
    for args, words in (
        (["--seat", "Bob"], "no seat 'Bob'"),
        (["--hand", "3"], "hand 3 is not finished"),
        (["--hand", "9"], "no hand 9"),
        (["--seat", "0"], "no seat 0"),
    ):
        result = runner.invoke(app, ["review", str(path), "-q", "--worlds", "10", *args])
        assert result.exit_code == 2 and words in result.output, (args, result.output)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["review", str(bad), "-q"])
    assert result.exit_code == 2 and "not a JSON record" in result.output
    result = runner.invoke(app, ["review", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "no such file" in result.output

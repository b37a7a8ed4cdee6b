"""Hand reviews (hearts.review, ``hearts review``): the expert's valuation of a seat's decisions.

Fixed world counts everywhere (no time budgets): the reviews are deterministic and the tests do not
depend on the machine's speed.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hearts.cli import app
from hearts.core import Card, Game, GameRecord, Rules
from hearts.players import make_player, play_game
from hearts.players.medium import MediumPlayer
from hearts.review import (
    FULL,
    MARKS,
    QUICK,
    DecisionReview,
    Effort,
    EffortError,
    HandNotReviewableError,
    HandReview,
    ReviewCache,
    UnknownSeatError,
    UnreplayableRecordError,
    mark_of,
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
    """At full effort the review's search is the expert's own: its own hand is all "best"."""
    for hand in (0, 1):
        review = review_hand(expert_record, 0, hand, worlds=WORLDS, seed=0, cache=None, effort=FULL)
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
    # Only costs above the search's noise are among the costliest: never a "good" one.
    assert all(d.mark not in ("best", "good") for d in review.costliest)
    # Every option is valued, the expert's first at no cost; the played one's cost is the decision's.
    for d in review.decisions:
        assert d.options[0].cards[0] in d.best or d.kind == "pass" and set(d.options[0].cards) == set(d.best)
        assert d.options[0].cost == 0.0
        played = next(o for o in d.options if set(d.played) <= set(o.cards) or set(o.cards) == set(d.played))
        assert played.cost == pytest.approx(d.cost)


def test_json_round_trip(easy_record: GameRecord) -> None:
    review = review_hand(easy_record, 0, 1, worlds=50, cache=None)
    data = json.loads(json.dumps(review.to_dict(), allow_nan=False))
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
    once = searched
    assert once >= len(first.decisions)  # a batch of worlds at least a decision
    # A new cache on the same folder (another run), the record read back from its JSON: no search.
    again = review_hand(GameRecord.loads(easy_record.dumps()), "1", 0, worlds=30, cache=ReviewCache(tmp_path))
    assert again == first and searched == once
    # Other settings are another review.
    review_hand(easy_record, 0, 0, worlds=31, cache=ReviewCache(tmp_path))
    assert searched > once
    searched = once = 0
    review_hand(easy_record, 0, 0, worlds=30, cache=ReviewCache(tmp_path), effort=FULL)
    assert searched == len(first.decisions)  # the full search: one search a decision


def test_verdicts_come_one_by_one_as_they_are_made(easy_record: GameRecord, monkeypatch) -> None:
    from hearts.players.search import SearchPlayer

    events: list[object] = []
    value = SearchPlayer.value_options

    def asked(self, view, passes=()):  # type: ignore[no-untyped-def]
        events.append("search")
        return value(self, view, passes)

    monkeypatch.setattr(SearchPlayer, "value_options", asked)
    made: list[DecisionReview] = []
    review = review_hand(
        easy_record, 0, 1, worlds=40, cache=None, verdict=lambda d: (made.append(d), events.append(d.number))
    )
    assert sorted(made, key=lambda d: d.number) == list(review.decisions)
    numbers = [e for e in events if e != "search"]
    assert review.decisions[0].kind == "pass" and numbers == [*range(1, len(made)), 0]  # the pass last
    # Each verdict is told before the next decision is searched, not all at the end.
    assert events[-1] == 0 and "search" in events[events.index(1) + 1 :]
    # A review from the cache tells its verdicts too.
    cache = ReviewCache()
    first = review_hand(easy_record, 0, 1, worlds=40, cache=cache)
    again: list[DecisionReview] = []
    review_hand(easy_record, 0, 1, worlds=40, cache=cache, verdict=again.append)
    assert again == list(first.decisions)


def test_a_review_stops_searching_once_its_verdicts_are_settled(easy_record: GameRecord) -> None:
    quick = review_hand(easy_record, 0, 1, worlds=400, cache=None)
    full = review_hand(easy_record, 0, 1, worlds=400, cache=None, effort=FULL)
    sums = {0}
    total = 0
    for size in QUICK.batches(400):
        total += size
        sums.add(total)
    assert all(d.worlds in sums for d in quick.decisions)
    assert any(0 < d.worlds < 400 for d in quick.decisions)  # some settled early
    assert sum(d.worlds for d in quick.decisions) < sum(d.worlds for d in full.decisions)
    assert all(d.worlds in (0, 400) for d in full.decisions)
    # The same decisions, valued over the same options.
    assert [(d.kind, d.trick, d.played) for d in quick.decisions] == [
        (d.kind, d.trick, d.played) for d in full.decisions
    ]


def test_an_effort_is_checked_and_spends_every_world() -> None:
    assert sum(Effort().batches(1000)) == 1000 and Effort().batches(1000)[0] == 100
    assert sum(Effort().batches(7)) == 7 and FULL.batches(1000) == (1000,)
    for bad in ({"first": 0.0}, {"most": 1.5}, {"z": -1.0}):
        with pytest.raises(EffortError, match="share of the worlds|confidence"):
            Effort(**bad)  # type: ignore[arg-type]
    assert issubclass(EffortError, ValueError)


def test_a_moons_cost_is_told_in_parts_that_add_up(easy_record: GameRecord) -> None:
    """A cost of 27.8 beside an own-points difference of 16.2: the review says 16.2 of it are the
    seat's own points and the rest (11.6) what the others' points made of it (a moon)."""
    from dataclasses import replace

    from hearts.players.valuation import Valuation
    from hearts.review.reviewer import _moments, _review_decision
    from hearts.review.settle import Settled

    moments, _ = _moments(easy_record, 0, 0)
    moment = next(m for m in moments if m.trick is not None and len(m.view.legal) >= 2)
    played = int(next(iter(moment.played)))
    other = next(int(c) for c in moment.view.legal if c != played)
    worlds = 50
    val = Valuation(
        kind="play", options=(other, played), choice=other, reason="lead low (3.0 pts expected over 50 worlds)",
        values=((10.0,) * worlds, (10.0 - 27.8 / 0.75,) * worlds), points=(2.0, 18.2), weights=None,
        worlds=worlds, plans=(0, 0), threat=-1,
    )  # fmt: skip
    d = _review_decision(moment, 0, Settled(val, "", 1))
    assert d.cost == pytest.approx(27.8) and d.own == pytest.approx(16.2) and d.rest == pytest.approx(11.6)
    review = review_hand(easy_record, 0, 0, worlds=20, cache=None)
    planted = replace(review, decisions=(d, replace(d, number=1, cost=0.04, own=0.04, mark="good")))
    assert planted.total_cost == 27.8 and planted.own_cost == 16.2  # as shown: each to a tenth, added up
    assert [x.number for x in planted.costliest] == [0]


def test_bad_input_is_refused_in_players_words(easy_record: GameRecord) -> None:
    with pytest.raises(UnknownSeatError, match="no seat 'Bob'"):
        review_hand(easy_record, "Bob", 0, worlds=10)
    with pytest.raises(UnknownSeatError, match=r"no seat 4 at this table of 4: seats \(an index\) are 0 to 3"):
        review_hand(easy_record, 4, 0, worlds=10)  # the Python API's seat is an index, and the error names it
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
    data = easy_record.to_dict()
    data["hands"][0]["points"] = [0, 0, 0, 26]
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["review", str(bad), "-q"])
    assert result.exit_code == 2 and "the record does not replay: hand 1: recorded points" in result.output


class _QueenBlunder(MediumPlayer):
    """Medium, except that the first time it is last to a spade trick below Q♠ while holding Q♠ and a
    spade under the trick's top, it plays Q♠ and takes her (a safe spade was there)."""

    planted: tuple[int, Card] | None = None

    def choose_play(self, view):  # type: ignore[no-untyped-def]
        card, why = super().choose_play(view)
        t = view.trick
        queen = Card.parse("QS")
        if self.planted is None and queen in view.legal and len(t.cards) == view.rules.players - 1:
            spades = [c for c in t.cards if c // 13 == queen // 13]
            if (
                t.cards[0] // 13 == queen // 13
                and max(spades) < queen
                and any(c < max(spades) for c in view.legal if c // 13 == queen // 13)
            ):
                self.planted = (len(view.tricks), card)
                return queen, "planted"
        return card, why


def _medium_hand(seed: int, south: MediumPlayer) -> Game:
    game = Game(Rules(), seed=seed)
    play_game(game, [south] + [make_player("medium", seed=s) for s in (1, 2, 3)], hands=1)
    return game


def test_a_planted_blunder_is_marked_with_its_cost() -> None:
    # Deal 20: South, last to a spade trick under J♠, takes Q♠ when 9♠ ducked.
    south = _QueenBlunder(seed=0)
    game = _medium_hand(20, south)
    assert south.planted is not None
    trick, safe = south.planted
    review = review_hand(GameRecord.of(game), 0, 0, worlds=WORLDS, cache=None)
    d = next(d for d in review.decisions if d.trick == trick)
    assert d.played == (Card.parse("QS"),) and d.best == (safe,)
    assert d.mark == "blunder" and review.costliest[0] == d
    # Its real value in this deal: the same players, the same deal, 9♠ instead of Q♠ there.
    real = game.summary(0).scores[0] - _medium_hand(20, MediumPlayer(seed=0)).summary(0).scores[0]
    assert real == 13
    assert abs(d.cost - real) < 2 and d.se < 1
    assert d.reason.startswith("Q♠ won the trick") and "you were last to play" in d.reason


def test_the_review_sees_only_the_seats_view() -> None:
    """Two deals that differ only in two cards West and North swap (unplayed until after South's
    decision at trick 5) give the same review up to that decision, whatever happened after."""
    rules = Rules.preset("no-passing")
    first = Game(rules, seed=7)
    play_game(first, [make_player("medium", seed=s) for s in range(4)], hands=1)
    summary = first.summary(0)
    plays = [play for t in summary.tricks for play in t.plays]
    at = next(i for i, (seat, _) in enumerate(plays) if seat == 0 and i >= 4 * 4)  # South's play in trick 5
    later = {card for _, card in plays[at:]}
    west, north = summary.dealt[1], summary.dealt[2]
    x, y = next((x, y) for x in west for y in north if x // 13 == y // 13 and x in later and y in later and x != y)
    dealt = [cs.mask for cs in summary.dealt]
    dealt[1] ^= 1 << x | 1 << y
    dealt[2] ^= 1 << x | 1 << y
    second = Game(rules, seed=7, deals={0: dealt})
    for _, card in plays[:at]:
        second.play(card)
    play_game(second, [make_player("medium", seed=s) for s in range(4)], hands=1)
    one, two = GameRecord.of(first), GameRecord.of(second)
    assert one.hands[0].dealt != two.hands[0].dealt
    a = review_hand(one, 0, 0, worlds=100, cache=None)
    b = review_hand(two, 0, 0, worlds=100, cache=None)
    upto = [d for d in a.decisions if d.trick is not None and d.trick <= 4]
    assert upto and upto == [d for d in b.decisions if d.trick is not None and d.trick <= 4]
    assert a.decisions != b.decisions  # later, the swapped cards show and the reviews part


def test_the_moon_is_told_for_and_against() -> None:
    game = Game(Rules(), seed=67)  # South shoots the moon
    play_game(game, [make_player("medium", seed=s) for s in range(4)], hands=1)
    record = GameRecord.of(game)
    mine = review_hand(record, 0, 0, worlds=50, cache=None).moon
    assert mine is not None and (mine.side, mine.shooter, mine.outcome) == ("for", 0, "shot")
    assert mine.text.startswith("you shot the moon")
    theirs = review_hand(record, "North", 0, worlds=50, cache=None).moon
    assert theirs is not None and (theirs.side, theirs.shooter, theirs.outcome) == ("against", 0, "shot")
    assert theirs.text.startswith("South shot the moon against you")


def test_a_stopped_moon_says_where(easy_record: GameRecord) -> None:
    review = review_hand(easy_record, 0, 1, worlds=50, cache=None)
    moon = review.moon
    assert moon is not None and (moon.side, moon.shooter, moon.outcome) == ("against", 1, "stopped")
    assert moon.settled is not None and moon.settled > moon.since
    assert f"stopped at trick {moon.settled + 1}" in moon.text
    assert any(d.moon == "against" for d in review.decisions)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), seat=st.integers(0, 3), players=st.sampled_from([3, 4, 5]))
def test_every_review_is_well_formed(seed: int, seat: int, players: int) -> None:
    """Any hand, any seat: one decision per pass and per play with a choice, every legal card in one
    option, costs never below 0, marks as their costs say, and the JSON round trip."""
    rules = Rules.from_text("standard", players=str(players))
    game = Game(rules, seed=seed)
    play_game(game, [make_player("easy", seed=s) for s in range(players)], hands=1)
    record = GameRecord.of(game)
    seat %= players
    review = review_hand(record, seat, 0, worlds=20, cache=None)
    summary = game.summary(0)
    again = Game(rules, seed=seed)  # the hand again, to see where the seat had a choice
    for s, cards in enumerate(summary.passes):
        if cards is not None:
            again.pass_cards(s, cards)
    choices = []
    for t in summary.tricks:
        for position, (s, card) in enumerate(t.plays):
            if s == seat and len(again.legal_plays()) > 1:
                choices.append((t.number, position))
            again.play(card)
    plays = [(d.trick, d.position) for d in review.decisions if d.kind == "play"]
    assert plays == choices
    passes = [d for d in review.decisions if d.kind == "pass"]
    assert [d.played for d in passes] == ([tuple(summary.passes[seat])] if summary.passes[seat] is not None else [])
    assert all(d.number == i for i, d in enumerate(review.decisions))
    for d in review.decisions:
        chosen = set(d.played) == set(d.best) if d.kind == "pass" else d.card in d.options[0].cards
        assert d.cost >= 0 and d.se >= 0 and (d.mark == "best") == chosen  # "best" is the expert's choice
        if d.worlds in (0, review.worlds):  # searched to the end: marked as its cost says
            assert d.mark == mark_of(d.cost, d.se, chosen=chosen)
        assert sum(o.cost == 0 for o in d.options) >= 1
        if d.kind == "play":
            cards = [c for o in d.options for c in o.cards]
            assert len(cards) == len(set(cards)) and d.card in cards and d.best[0] in cards
    assert review.points == summary.scores[seat]
    assert HandReview.from_dict(json.loads(json.dumps(review.to_dict(), allow_nan=False))) == review

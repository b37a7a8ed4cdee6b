"""Games: hands in sequence, the pass cycle across hands, running totals, the end and the winners."""

from __future__ import annotations

import random

import pytest
from tests.conftest import play_out, snapshot
from tests.test_play_rules import DEAL_SUITS

from hearts.core import (
    CardSet,
    Game,
    GameOver,
    HandScored,
    HandStarted,
    OutOfTurnError,
    PassDirection,
    Phase,
    Rules,
    SetupError,
    seat_name,
    seeded_deal,
)


def moon_deal(shooter: int) -> list[int]:
    """A deal in which ``shooter`` holds every club (and so takes every trick and shoots the moon)."""
    masks = [CardSet.parse(h).mask for h in DEAL_SUITS]
    return [masks[(seat - shooter) % 4] for seat in range(4)]


def play_hand(game: Game) -> list[object]:
    """Play the current hand to its end with the lowest legal card; return the events."""
    number = game.hand.number
    events: list[object] = []
    while not game.is_over and game.hand.number == number:
        if game.phase is Phase.PASS:
            for seat in game.to_move:
                events.extend(game.apply(game.legal_moves(seat)[0]))
        else:
            events.extend(game.apply(game.legal_moves()[0]))
    return events


def test_game_ends_when_a_total_reaches_the_target_and_lowest_wins() -> None:
    """Game end: after a hand, if any total reached the target, the seat with the lowest total wins."""
    game = Game(Rules(pass_cycle="none", target=26), deals={0: moon_deal(0)})
    events = play_hand(game)
    assert game.totals == [0, 26, 26, 26]
    assert game.is_over and game.winners == (0,) and game.phase is Phase.GAME_OVER
    assert events[-2:] == [HandScored(0, (0, 26, 26, 26), (0, 26, 26, 26), 0), GameOver((0, 26, 26, 26), (0,))]
    assert game.to_move == () and game.legal_moves() == [] and game.legal_plays() == []


def test_game_continues_below_the_target() -> None:
    """Game end: while every total is under the target, a new hand is dealt with the next pass direction."""
    game = Game(Rules(target=27), deals={0: moon_deal(0)})
    events = play_hand(game)
    assert not game.is_over and game.totals == [0, 26, 26, 26]
    assert events[-1] == HandStarted(1, PassDirection.RIGHT)
    assert game.hand.number == 1 and game.phase is Phase.PASS and len(game.finished) == 1


def test_game_to_fifty() -> None:
    """Game end (short preset): the game can be played to 50 (or any target)."""
    game = Game(Rules.preset("short", pass_cycle="none"), deals={0: moon_deal(0), 1: moon_deal(1)})
    play_hand(game)
    assert not game.is_over
    play_hand(game)
    assert game.totals == [26, 26, 52, 52] and game.is_over and game.winners == (0, 1)
    for seed in range(4):
        done = play_out(Game(Rules.preset("short"), seed=seed), random.Random(seed))
        assert max(done.totals) >= 50
        assert all(max(t) < 50 for t in _running(done)[:-1])


def _running(game: Game) -> list[list[int]]:
    out, running = [], [0] * game.rules.players
    for hand in game.finished:
        assert hand.scores is not None
        running = [a + b for a, b in zip(running, hand.scores, strict=True)]
        out.append(running)
    return out


def test_tie_for_lowest_shares_the_win_by_default() -> None:
    """Ties: seats tied for the lowest total when the game ends share the win (default)."""
    game = Game(Rules(pass_cycle="none", target=50), deals={0: moon_deal(0), 1: moon_deal(1)})
    play_hand(game)
    events = play_hand(game)
    assert game.winners == (0, 1)
    assert GameOver((26, 26, 52, 52), (0, 1)) in events


def test_tie_play_on_option_plays_until_one_seat_is_lowest() -> None:
    """Ties (option play-on): more hands are played until one seat is lowest alone."""
    rules = Rules(pass_cycle="none", target=50, ties="play-on")
    game = Game(rules, deals={0: moon_deal(0), 1: moon_deal(1), 2: moon_deal(0)})
    play_hand(game)
    play_hand(game)
    assert game.totals == [26, 26, 52, 52] and not game.is_over and game.hand.number == 2
    play_hand(game)
    assert game.totals == [26, 52, 78, 78] and game.winners == (0,)


def test_totals_are_the_sum_of_hand_scores() -> None:
    """Totals: each seat's running total is the sum of its hand scores (negative scores included)."""
    rules = Rules(pass_cycle="none", moon="subtract-from-shooter", bonus_card="JD")
    game = Game(rules, deals={0: moon_deal(2), 1: moon_deal(2)})
    play_hand(game)
    play_hand(game)
    assert game.totals == [0, 0, -72, 0]
    for seed in range(3):
        done = play_out(Game(Rules(), seed=seed), random.Random(seed))
        assert done.totals == _running(done)[-1]


@pytest.mark.parametrize(
    ("rules", "cycle"),
    [
        (Rules(), "left right across hold"),
        (Rules(players=3), "left right hold"),
        (Rules.preset("no-hold", players=6), "left right across"),
        (Rules.preset("pass-left", players=5), "left"),
    ],
)
def test_pass_cycle_repeats_across_the_hands_of_a_game(rules: Rules, cycle: str) -> None:
    """Passing: the pass direction of hand N is the cycle's entry N mod its length, all game long."""
    game = play_out(Game(rules.replace(target=120), seed=4), random.Random(4))
    words = cycle.split()
    directions = [h.direction.value for h in game.finished]
    assert len(directions) >= len(words) + 1
    assert directions == [words[i % len(words)] for i in range(len(directions))]


def test_each_hand_is_dealt_from_the_seed() -> None:
    """Deal: every hand of a seeded game is dealt from the seed and the hand number alone."""
    game = play_out(Game(Rules(), seed=99), random.Random(0))
    for hand in game.finished:
        assert hand.dealt == seeded_deal(game.rules, 99, hand.number)
    again = play_out(Game(Rules(), seed=99), random.Random(0))
    assert again.totals == game.totals and again.winners == game.winners


def test_deals_by_function() -> None:
    """Deal: deals can come from a function of the hand number (duplicate play)."""
    game = Game(Rules(pass_cycle="none", target=30), deals=lambda n: moon_deal(n % 4))
    play_hand(game)
    play_hand(game)
    assert game.totals == [26, 26, 52, 52] and game.winners == (0, 1)


def test_no_move_after_the_game_is_over() -> None:
    """Game end: once the game is over every move is refused and nothing changes."""
    game = Game(Rules(pass_cycle="none", target=26), deals={0: moon_deal(0)})
    play_hand(game)
    before = snapshot(game)
    with pytest.raises(OutOfTurnError, match="the game is over"):
        game.play("2C")
    with pytest.raises(OutOfTurnError, match="the game is over"):
        game.pass_cards(0, ["2C", "3C", "4C"])
    with pytest.raises(OutOfTurnError, match="the game is over"):
        game.choose_moon(0, "add-to-others")
    assert snapshot(game) == before


def test_seat_names_and_playing_order() -> None:
    """Seats: four players sit South, West, North, East (playing order, clockwise); other counts Seat 1..n."""
    assert Game(Rules()).names == ("South", "West", "North", "East")
    assert Game(Rules(players=5)).names == tuple(f"Seat {i}" for i in range(1, 6))
    assert seat_name(3) == "East" and seat_name(0, 6) == "Seat 1"
    assert Game(Rules(players=3), names=["Ann", "Bo", "Cy"]).names == ("Ann", "Bo", "Cy")
    with pytest.raises(SetupError, match="2 names for 4 seats"):
        Game(Rules(), names=["Ann", "Bo"])


def test_copy_is_independent() -> None:
    """State: a copied game plays on without touching the original."""
    game = Game(Rules(), seed=12)
    for seat in range(4):
        game.apply(game.legal_moves(seat)[0])
    before = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == before
    play_out(twin, random.Random(1))
    assert twin.is_over and snapshot(game) == before


def test_given_deals_are_checked_when_the_game_is_made() -> None:
    """Deal: explicit deals are checked up front, each error naming its hand, and nothing is half-made."""
    good = moon_deal(0)
    with pytest.raises(SetupError, match="hand 3: South is dealt 12 cards; the rules deal 13"):
        Game(Rules(), deals={0: good, 2: [good[0] & ~1, *good[1:]]})
    with pytest.raises(SetupError, match="hand 1: West is dealt 'AH': a deal is one 52-bit card mask per seat"):
        Game(Rules(), deals={0: [good[0], "AH", good[2], good[3]]})  # type: ignore[list-item]


def test_legal_moves_of_a_seat_that_is_not_at_the_table() -> None:
    """State: a seat that is not at the table has no legal moves, whatever the phase."""
    game = Game(Rules(), seed=1)
    assert game.legal_moves(7) == [] and game.hand.legal_passes(-1) == []


def test_seed_and_names_must_be_recordable() -> None:
    """State: a game's seed is a whole number and its seat names strings, as a record holds them."""
    with pytest.raises(SetupError, match="seed is a whole number, not 'abc'"):
        Game(Rules(), seed="abc")  # type: ignore[arg-type]
    with pytest.raises(SetupError, match="seat names must be strings"):
        Game(Rules(), names=["Ann", "Bo", "Cy", 4])  # type: ignore[list-item]


def test_summaries_tell_every_hand_with_the_engines_points_and_the_games_totals() -> None:
    """Summary: each hand's deal, passes, tricks (winners, points with J♦), scores and totals, from the engine."""
    from hearts.core import JACK_OF_DIAMONDS

    rules = Rules.preset("omnibus")
    game = Game(rules, seed=5)
    play_out(game, random.Random(5))
    summaries = game.summaries()
    assert [s.number for s in summaries] == list(range(len(game.finished)))
    assert summaries[-1].totals == tuple(game.totals) == game.totals_before(len(game.finished))
    assert game.totals_before(0) == (0, 0, 0, 0)
    jack_seen = False
    for summary, hand in zip(summaries, game.finished, strict=True):
        assert summary.finished and summary.scores == hand.scores
        assert summary.totals == game.totals_before(summary.number + 1)
        assert [(t.leader, t.cards, t.winner) for t in summary.tricks] == [tuple(t) for t in hand.tricks]
        taken = [0, 0, 0, 0]
        for trick in summary.tricks:
            assert trick.winner is not None
            assert trick.points == rules.points_taken(CardSet(trick.cards).mask)
            jack_seen |= JACK_OF_DIAMONDS in trick.cards and trick.points < rules.penalty_points(CardSet(trick.cards).mask)
            taken[trick.winner] += trick.points
        assert summary.taken == tuple(taken)
        if summary.shooter is None:
            assert summary.scores == summary.taken  # without a moon a hand scores what was taken
        assert summary.held is not None and summary.tricks[0].before == summary.held
        for seat in range(4):
            if summary.direction is PassDirection.HOLD:
                assert summary.passes[seat] is None and summary.received[seat] == CardSet()
                assert summary.held[seat] == summary.dealt[seat]
            else:
                given, got = summary.passes[seat], summary.received[summary.pass_to[seat]]
                assert given is not None and got == given
                mine = summary.received[seat]
                assert mine is not None
                assert summary.held[seat].mask == (summary.dealt[seat].mask & ~given.mask) | mine.mask
    assert jack_seen  # J♦ was taken in some trick, and counted there
    assert game.summary(0) is game.summary(0)  # a finished hand's summary is made once


def test_summary_of_a_hand_in_progress() -> None:
    """Summary: a hand being played has no scores or totals; its last trick has no winner yet."""
    game = Game(Rules(), seed=2)
    with pytest.raises(IndexError, match="there is no hand 2 yet"):
        game.summary(1)
    passing = game.summary()
    assert passing.held is None and passing.tricks == () and not passing.finished
    for seat in range(3):
        game.apply(game.legal_moves(seat)[0])
    assert game.summary().passes[3] is None and game.summary().received[0] is None  # East passes to South
    game.apply(game.legal_moves(3)[0])
    for _ in range(6):
        game.apply(game.legal_moves()[0])
    summary = game.summary()
    assert summary.scores is None and summary.totals is None
    assert [t.winner is None for t in summary.tricks] == [False, True] and len(summary.tricks[1].plays) == 2
    twin = game.copy()
    play_out(twin, random.Random(3))
    assert len(twin.summaries()) > 1 and game.summaries() == [game.summary()]


def test_a_deal_function_that_deals_wrong_cards_is_a_setup_error() -> None:
    """Deal: a deal function's bad deal is the set-up's fault, named by hand, whenever its hand comes up."""
    good = moon_deal(0)

    def deals(number: int) -> list[int]:
        return good if number == 0 else [good[0] & ~1, *good[1:]]

    with pytest.raises(SetupError, match="hand 1: South is dealt 12 cards; the rules deal 13"):
        Game(Rules(), deals=lambda number: [good[0] & ~1, *good[1:]])
    game = Game(Rules.preset("no-passing"), deals=deals)
    before = None
    with pytest.raises(SetupError, match="hand 2: South is dealt 12 cards"):
        while True:
            before = game.hand.number
            game.apply(game.legal_moves()[0])
    assert before == 0

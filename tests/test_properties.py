"""Properties over random deals, random legal play and every combination of rule options (hypothesis).

Each example draws a full set of options and a seed, plays a whole game with random legal moves and
checks, as it goes: every card dealt once; some legal move whenever a decision is owed; tricks won by
the highest card of the suit led; every hand's points adding up; views hiding other seats' cards;
illegal moves refused without a trace; the game ending; its record round-tripping and replaying.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.conftest import snapshot
from tests.test_views import cards_in, hidden_from

from hearts.core import (
    CARDS,
    CardSet,
    ChooseMoon,
    Game,
    GameRecord,
    HandState,
    MoonOption,
    MoonScoring,
    Move,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    dumps,
    loads,
)
from hearts.core.cards import HEARTS, QS_BIT, SUIT_MASKS

PROPERTY_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

REMOVED_FOR_FOUR = [None, ("2H", "3H", "4H", "5H"), ("2C", "3C", "2D", "3D"), ("2C", "2D", "2S", "2H")]


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Every option, drawn independently (within what the options allow together)."""
    players = draw(st.sampled_from([3, 4, 5, 6]))
    directions = ["left", "right", "hold"] + (["across"] if players % 2 == 0 else [])
    cycle: Any = draw(
        st.one_of(
            st.sampled_from(["standard", "left", "no-hold", "none"]),
            st.lists(st.sampled_from(directions), min_size=1, max_size=5),
        )
    )
    heart_points = draw(st.integers(0, 3))
    queen_points = draw(st.sampled_from([13, 10]))
    # The fewest points a hand can hand out is the deck's penalty points plus the bonus: keep that at
    # least half the penalty points, so that games stay short enough to play many of them.
    moon_points = 13 * heart_points + queen_points
    return Rules(
        players=players,
        removed=draw(st.sampled_from(REMOVED_FOR_FOUR)) if players == 4 else None,
        opening=draw(st.sampled_from(["lowest-club", "any-club"])),
        pass_cycle=cycle,
        pass_count=draw(st.integers(1, 4)),
        points_on_first_trick=draw(st.booleans()),
        hearts_must_be_broken=draw(st.booleans()),
        queen_breaks_hearts=draw(st.booleans()),
        heart_lead_with_only_queen=draw(st.booleans()),
        heart_points=heart_points,
        queen_points=queen_points,
        bonus_card=draw(st.sampled_from([None, "JD", "10D"])),
        bonus_points=draw(st.integers(-(moon_points // 2), 5)),
        moon=draw(st.sampled_from(list(MoonScoring))),
        target=draw(st.integers(15, 70)),
        ties=draw(st.sampled_from(["share", "play-on"])),
    )


def random_move(game: Game, rng: random.Random) -> Move:
    """Any move at all, legal or not: a random seat playing a random card, passing random cards or choosing."""
    n = game.rules.players
    seat = rng.randrange(n)
    kind = rng.randrange(3)
    if kind == 0:
        return PlayCard(seat, CARDS[rng.randrange(52)])
    if kind == 1:
        return PassCards(seat, CardSet(rng.sample(range(52), rng.choice([game.rules.pass_count, 1, 4]))))
    return ChooseMoon(seat, rng.choice(list(MoonOption)))


def check_deal(hand: HandState) -> None:
    union = 0
    for mask in hand.dealt:
        assert mask.bit_count() == hand.rules.hand_size
        assert not union & mask
        union |= mask
    assert union == hand.rules.in_play


def check_tricks(hand: HandState) -> None:
    n = hand.players
    for trick in hand.tricks:
        assert len(trick.cards) == n
        led = trick.cards[0] // 13
        best = max(c for c in trick.cards if c // 13 == led)
        assert trick.winner == trick.seat_of(trick.cards.index(best), n)


def expected_total(hand: HandState) -> int:
    """What a finished hand's scores must add up to."""
    rules = hand.rules
    base = (rules.in_play & HEARTS).bit_count() * rules.heart_points + rules.queen_points
    assert base == rules.moon_points
    bonus = rules.bonus_points if rules.bonus_card is not None else 0
    if hand.shooter is None:
        return base + bonus
    moon_added = rules.moon is MoonScoring.ADD_TO_OTHERS or hand.moon_option is MoonOption.ADD_TO_OTHERS
    return (hand.players - 1) * base + bonus if moon_added else -base + bonus


def check_finished(hand: HandState) -> None:
    rules = hand.rules
    assert hand.phase is Phase.HAND_OVER and hand.scores is not None
    assert len(hand.tricks) == rules.hand_size and not any(hand.hands)
    check_tricks(hand)
    taken = 0
    for mask in hand.taken:
        taken |= mask
    assert taken == rules.in_play
    assert sum(hand.points) == rules.moon_points
    assert sum(hand.scores) == expected_total(hand)
    penalty = rules.penalty_mask
    full = [s for s in range(hand.players) if hand.taken[s] & penalty == penalty]
    if rules.moon is MoonScoring.DISABLED:
        assert hand.shooter is None
    else:
        assert full == ([] if hand.shooter is None else [hand.shooter])


def is_legal_by_the_rules(game: Game, move: Move) -> bool:
    """Whether ``move`` is legal, worked out without the engine's check (listing every pass is too slow)."""
    hand = game.hand
    if isinstance(move, PassCards):
        return (
            hand.phase is Phase.PASS
            and hand.passed[move.seat] is None
            and len(move.cards) == game.rules.pass_count
            and move.cards.mask & ~hand.hands[move.seat] == 0
        )
    if isinstance(move, ChooseMoon):
        return hand.phase is Phase.MOON_CHOICE and move.seat == hand.shooter
    return move in game.legal_moves(move.seat)


def check_illegal_moves_change_nothing(game: Game, rng: random.Random) -> None:
    for _ in range(3):
        move = random_move(game, rng)
        legal = is_legal_by_the_rules(game, move)
        assert game.is_legal(move) == legal
        if legal:
            continue
        before = snapshot(game)
        try:
            game.apply(move)
        except ValueError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"illegal move {move} was applied")
        assert snapshot(game) == before


def check_views(game: Game, rng: random.Random) -> None:
    seat = rng.randrange(game.rules.players)
    data = game.view(seat).to_dict()
    del data["rules"]
    seen = 0
    for card in cards_in(data):
        seen |= 1 << card
    assert not seen & hidden_from(game, seat)


def play_checked(game: Game, rng: random.Random) -> Game:
    """Play random legal moves to the end, checking the properties as the game goes."""
    hands_seen = 0
    for step in range(200_000):
        if game.is_over:
            return game
        hand = game.hand
        if hand.number == hands_seen:
            check_deal(hand)
            hands_seen += 1
        # A decision is always owed, and the seat owing it always has a legal move.
        assert game.to_move
        if hand.phase is Phase.PASS:
            assert all(hand.hands[s].bit_count() > game.rules.pass_count for s in game.to_move)
        else:
            assert all(game.legal_moves(s) for s in game.to_move)
        if hand.phase is Phase.PLAY:
            assert hand.legal_mask() and hand.legal_mask() & ~hand.hands[hand.turn] == 0
        if step % 7 == 0:
            check_illegal_moves_change_nothing(game, rng)
            check_views(game, rng)
        seat = rng.choice(game.to_move)
        if hand.phase is Phase.PASS:
            # Passing every legal combination is too many to list for 17 cards: sample the pass.
            move: Move = PassCards(seat, CardSet(rng.sample(list(CardSet(hand.hands[seat])), game.rules.pass_count)))
        else:
            move = rng.choice(game.legal_moves(seat))
        finished = len(game.finished)
        game.apply(move)
        if len(game.finished) > finished:
            check_finished(game.finished[-1])
        assert game.hand.number < 200, "the game is not ending"
    raise AssertionError("the game did not end")


@PROPERTY_SETTINGS
@given(rules=any_rules(), seed=st.integers(0, 2**32 - 1))
def test_random_games_under_any_options(rules: Rules, seed: int) -> None:
    """Properties: every deal is the deck once, a legal move is always there, points add up, the game ends,
    views hide other seats' cards and illegal moves change nothing."""
    rng = random.Random(seed)
    game = play_checked(Game(rules, seed=seed), rng)
    assert game.winners
    low = min(game.totals)
    assert max(game.totals) >= rules.target
    assert set(game.winners) == {s for s, t in enumerate(game.totals) if t == low} or rules.ties.value == "play-on"
    if rules.ties.value == "play-on":
        assert len(game.winners) == 1
    assert game.totals == [sum(h.scores[s] for h in game.finished if h.scores) for s in range(rules.players)]


@PROPERTY_SETTINGS
@given(rules=any_rules(), seed=st.integers(0, 2**32 - 1), stop=st.floats(0, 1))
def test_records_round_trip_and_replay_at_any_point(rules: Rules, seed: int, stop: float) -> None:
    """Properties: a record of a game stopped anywhere round-trips through JSON and replays to the same state."""
    rng = random.Random(seed)
    full = Game(rules, seed=seed)
    moves: list[Move] = []
    while not full.is_over:
        seat = rng.choice(full.to_move)
        if full.phase is Phase.PASS:
            move: Move = PassCards(seat, CardSet(rng.sample(list(CardSet(full.hand.hands[seat])), rules.pass_count)))
        else:
            move = rng.choice(full.legal_moves(seat))
        full.apply(move)
        moves.append(move)
    game = Game(rules, seed=seed)
    for move in moves[: int(stop * len(moves))]:
        game.apply(move)
    record = GameRecord.of(game)
    assert loads(dumps(record)) == record
    replayed = loads(dumps(record)).replay()
    assert snapshot(replayed) == snapshot(game)
    assert GameRecord.of(replayed) == record


@PROPERTY_SETTINGS
@given(rules=any_rules(), seed=st.integers(0, 2**32 - 1))
def test_legal_plays_follow_the_rules(rules: Rules, seed: int) -> None:
    """Properties: in every position the legal plays are the ones the rules describe, stated independently."""
    rng = random.Random(seed)
    hand = HandState.deal(rules.replace(pass_cycle=("hold",)), rng)
    while hand.phase is Phase.PLAY:
        own = hand.hands[hand.turn]
        legal = hand.legal_mask()
        assert legal and legal & ~own == 0
        first = not hand.tricks
        if hand.trick:
            follow = own & SUIT_MASKS[hand.trick[0] // 13]
            if follow:
                assert legal == follow
            elif first and not rules.points_on_first_trick and own & ~rules.penalty_mask:
                assert legal == own & ~rules.penalty_mask
            else:
                assert legal == own
        elif first:
            clubs = own & SUIT_MASKS[0]
            assert own >> rules.opening_card & 1
            assert legal == (1 << rules.opening_card if rules.opening.value == "lowest-club" else clubs)
        elif not hand.hearts_broken and own & ~HEARTS:
            only_queen = own & ~HEARTS == QS_BIT
            assert legal == (own if only_queen and rules.heart_lead_with_only_queen else own & ~HEARTS)
        else:
            assert legal == own
        hand.play(rng.choice(hand.legal_plays()))
        if hand.phase is Phase.MOON_CHOICE:
            hand.choose_moon(hand.to_move[0], rng.choice(list(MoonOption)))
    check_finished(hand)

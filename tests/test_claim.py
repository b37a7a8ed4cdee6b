"""Claiming the rest of the tricks (``hearts.core.claim``): the check against every lie of the unseen
cards and every legal play of the others, found by brute force; the hand played out; records.

The brute force deals the unseen cards among the other seats every possible way (as many as each
holds) and, in each deal, tries every legal play of theirs against the claimer's own play
(``claim_card``): the claim holds exactly when no deal and no play takes a trick from the claimer.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts.core import (
    CARDS,
    ClaimRefused,
    Game,
    GameRecord,
    HandState,
    Phase,
    RecordError,
    Rules,
    SeatView,
    check_claim,
    claim_card,
    claim_holds,
    play_claim,
)

RULES = [
    Rules(pass_cycle="none"),
    Rules(players=3, pass_cycle="none"),
    Rules.preset("omnibus", pass_cycle="none"),
    Rules(pass_cycle="none", hearts_must_be_broken=False, points_on_first_trick=True),
    Rules(players=5, pass_cycle="none"),
]


def strong_deal(rules: Rules, rng: random.Random) -> list[int]:
    """A deal in which seat 0 holds many high cards (so that claims often hold), the rest at random."""
    deck = [c for c in range(52) if rules.in_play >> c & 1]
    rng.shuffle(deck)
    k = rules.hand_size
    pool = deck[: k + rng.randrange(k + 1)]
    mine = sorted(pool, key=lambda c: (c % 13, rng.random()), reverse=True)[:k]
    rest = [c for c in deck if c not in mine]
    hands = [sum(1 << c for c in mine)]
    hands += [sum(1 << c for c in rest[i * k : (i + 1) * k]) for i in range(rules.players - 1)]
    return hands


def position(rules: Rules, seed: int, left: int) -> HandState | None:
    """Seat 0 to play with at most ``left`` cards, after random legal play; None if the hand never gets there."""
    rng = random.Random(seed)
    hand = HandState(rules, strong_deal(rules, rng))
    while hand.phase is Phase.PLAY:
        if hand.turn == 0 and hand.hands[0].bit_count() <= left:
            return hand
        hand.play(rng.choice(hand.legal_plays()))
    return None


def takes_every_trick(world: HandState, seat: int) -> bool:
    """Whether the claimer, playing ``claim_card``, takes every remaining trick of ``world`` whatever the
    others legally play."""
    if world.phase is not Phase.PLAY:
        return True
    if world.turn == seat:
        options = [claim_card(world, seat)]
    else:
        options = world.legal_plays()
    for card in options:
        after = world.copy()
        tricks = len(after.tricks)
        after.play(card)
        if len(after.tricks) > tricks and after.tricks[-1].winner != seat:
            return False
        if not takes_every_trick(after, seat):
            return False
    return True


def brute_force(hand: HandState, seat: int) -> bool:
    """The claim, checked in every deal of the unseen cards among the others and every play of theirs."""
    view = SeatView.of_hand(hand, seat)
    others = [s for s in range(hand.players) if s != seat]
    unseen = [c for c in range(52) if sum(hand.hands[s] for s in others) >> c & 1]
    sizes = [hand.hands[s].bit_count() for s in others]

    def deals(cards: list[int], seats: list[int]) -> itertools.chain[tuple[int, ...]]:
        if not seats:
            return itertools.chain([()])
        return itertools.chain.from_iterable(
            ((sum(1 << c for c in chosen), *rest) for rest in deals([c for c in cards if c not in chosen], seats[1:]))
            for chosen in itertools.combinations(cards, seats[0])
        )

    for lie in deals(unseen, sizes):
        hands = list(hand.hands)
        for s, mask in zip(others, lie, strict=True):
            hands[s] = mask
        if not takes_every_trick(view.world(hands), seat):
            return False
    return True


#: The most cards left in the claimer's hand that the brute force checks, by table size (its deals of the
#: unseen cards grow fast: 4 players with 3 cards each already make 1,680).
MOST_LEFT = {3: 4, 4: 3, 5: 2}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=st.sampled_from(RULES), seed=st.integers(0, 10**9), left=st.integers(1, 4))
def test_a_claim_holds_exactly_when_no_lie_and_no_play_beats_it(rules: Rules, seed: int, left: int) -> None:
    hand = position(rules, seed, min(left, MOST_LEFT[rules.players]))
    if hand is None:
        return
    accepted = claim_holds(hand, 0)
    assert accepted == brute_force(hand, 0)
    if not accepted:
        with pytest.raises(ClaimRefused, match="cannot claim the rest: .+"):
            check_claim(hand, 0)
        return
    # Played out: every trick to the claimer, each card legal (the engine plays them), the claim marked.
    before = len(hand.tricks)
    played = sum(len(t.cards) for t in hand.tricks) + len(hand.trick)
    play_claim(hand, 0)
    assert hand.phase in (Phase.HAND_OVER, Phase.MOON_CHOICE)
    assert all(t.winner == 0 for t in hand.tricks[before:]) and len(hand.tricks) == hand.rules.hand_size
    assert hand.claim == (0, played)


def test_a_refusal_changes_nothing_and_says_why() -> None:
    for seed in range(200):
        hand = position(Rules(pass_cycle="none"), seed, 4)
        if hand is not None and not claim_holds(hand, 0):
            break
    else:  # pragma: no cover
        raise AssertionError("no refused claim in 200 deals")
    before = hand.copy()
    with pytest.raises(ClaimRefused) as refused:
        play_claim(hand, 0)
    assert str(refused.value).startswith("South cannot claim the rest: ")
    assert isinstance(refused.value, ValueError)
    assert hand.hands == before.hands and hand.tricks == before.tricks and hand.claim is None
    # Not one's turn: refused too.
    other = (hand.turn + 1) % hand.players
    with pytest.raises(ClaimRefused, match="on one's own turn"):
        check_claim(hand, other)


def claimed_game() -> Game:
    """A game whose first hand seat 0 claimed, found by playing seeds until a claim holds."""
    for seed in range(500):
        rules = Rules(pass_cycle="none")
        rng = random.Random(seed)
        game = Game(rules, deals={0: tuple(strong_deal(rules, rng))})
        while game.hand.number == 0 and game.phase is Phase.PLAY:
            if game.hand.turn == 0 and game.hand.tricks and claim_holds(game.hand, 0):
                play_claim(game, 0)
                return game
            game.play(rng.choice(game.legal_plays()))
    raise AssertionError("no claim held in 500 deals")  # pragma: no cover


def test_records_show_the_hand_played_out_with_the_claim_marked() -> None:
    game = claimed_game()
    done = game.finished[0]
    assert done.claim is not None and done.claim[0] == 0
    record = GameRecord.of(game)
    text = record.dumps()
    assert '"claim"' in text
    again = GameRecord.loads(text)
    assert again == record and again.hands[0].claim == done.claim
    replayed = again.replay()
    assert replayed.finished[0].claim == done.claim
    summary = replayed.summary(0)
    assert summary.claim == done.claim and len(summary.tricks) == game.rules.hand_size
    # From the trick the claim was made in (its first card after the claim's place) every trick is the claimer's.
    first_claimed = next(i for i in range(len(summary.tricks)) if 4 * (i + 1) > done.claim[1])
    assert all(t.winner == 0 for t in summary.tricks[first_claimed:])
    assert first_claimed > 0  # claimed after the first trick, as the game was played
    # Records without a claim read and write as before: no claim field at all.
    assert '"claim"' not in GameRecord.of(Game(seed=3)).dumps()


def test_a_record_whose_claim_does_not_hold_is_refused() -> None:
    import json

    game = claimed_game()
    data = json.loads(GameRecord.of(game).dumps())
    data["hands"][0]["claim"]["after"] = 0  # claimed at the first card: the lead of 2♣ is not sure
    with pytest.raises(RecordError, match="hand 1, trick 1: the recorded claim does not hold: South cannot claim"):
        GameRecord.from_dict(data).replay()
    data["hands"][0]["claim"] = {"seat": 7, "after": 3}
    with pytest.raises(RecordError, match="not a place in the hand"):
        GameRecord.from_dict(data)
    data["hands"][0]["claim"] = [0, 3]
    with pytest.raises(RecordError, match="'claim' must be an object"):
        GameRecord.from_dict(data)


def test_the_claim_card_is_a_legal_card() -> None:
    rng = random.Random(4)
    for _ in range(50):
        hand = HandState(Rules(pass_cycle="none"), strong_deal(Rules(pass_cycle="none"), rng))
        while hand.phase is Phase.PLAY:
            card = claim_card(hand, hand.turn)
            assert card in hand.legal_plays(), (card, CARDS[card])
            hand.play(rng.choice(hand.legal_plays()))

"""Knowledge and the sampler: every sampled world agrees with what the seat knows, and the
real deal always does too (so no inference is wrong)."""

from __future__ import annotations

import random

import pytest

from hearts.core import CARDS, CardSet, Game, HandState, Phase, Rules, SeatView
from hearts.core.cards import HEARTS, SUIT_MASKS
from hearts.players.knowledge import Knowledge, best_moon_option, moon_hand_strength
from hearts.players.sampling import InconsistentViewError, is_consistent, sample_hands
from hearts.players.search import candidate_cards

RULES = [
    Rules(),
    Rules(players=3),
    Rules(players=5, pass_count=2),
    Rules(players=6),
    Rules.preset("omnibus"),
    Rules(points_on_first_trick=True),
    Rules(queen_breaks_hearts=True, heart_lead_with_only_queen=True),
    Rules.preset("pass-left"),
]


def random_views(rules: Rules, seed: int, count: int) -> list[tuple[SeatView, HandState]]:
    """Views of the seat to play at random points of random hands, with the real hand state."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game(rules, seed=rng.randrange(10**6))
        stop = rng.randrange(rules.hand_size * rules.players)
        while game.phase is Phase.PASS:
            for seat in game.to_move:
                game.pass_cards(seat, rng.sample(list(game.view(seat).hand), rules.pass_count))
        for _ in range(stop):
            game.play(rng.choice(game.legal_plays()))
        if game.phase is Phase.PLAY:
            out.append((game.view(game.hand.turn), game.hand.copy()))
    return out


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.name or 'custom'}")
def test_worlds_agree_with_the_view(rules: Rules) -> None:
    rng = random.Random(1)
    for view, real in random_views(rules, rules.players * 7 + rules.pass_count, 25):
        k = Knowledge.of(view)
        # The true deal satisfies everything the seat inferred.
        assert is_consistent(k, list(real.hands)) is None
        for _ in range(6):
            hands = sample_hands(k, rng)
            assert is_consistent(k, hands) is None
            me = view.seat
            for seat, mask in enumerate(hands):
                assert mask.bit_count() == view.hand_sizes[seat]
                if seat != me:
                    assert not mask & view.played.mask  # no seen card
                    for suit in range(4):
                        if k.void_suits[seat] >> suit & 1:
                            assert not mask & SUIT_MASKS[suit]  # shown voids hold
                    assert k.known[seat] & ~mask == 0  # passed cards sit with the receiver
            world = view.world(hands)
            assert world.legal_mask() == sum(1 << c for c in view.legal)


def test_passed_cards_stay_with_the_receiver_until_played() -> None:
    game = Game(Rules(), seed=3)  # hand 0 passes left
    passes = {}
    for seat in range(4):
        cards = sorted(game.view(seat).hand)[-3:]
        passes[seat] = cards
        game.pass_cards(seat, cards)
    view = game.view(0)
    k = Knowledge.of(view)
    assert k.known[1] == sum(1 << c for c in passes[0])
    assert k.need[1] == 10 and not k.unseen & k.known[1]
    rng = random.Random(0)
    for _ in range(20):
        assert sample_hands(k, rng)[1] & k.known[1] == k.known[1]


def test_a_heart_led_unbroken_means_only_hearts_left() -> None:
    rules = Rules.preset("no-passing")
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC 2D KH",
        "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD AH",
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        "AC KC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
    ]
    state = HandState(rules, [CardSet.parse(h).mask for h in hands])
    for card in "2C 3D 2S AC KC 3C 4D 3S 2H".split():  # East wins two clubs, then leads 2♥ unbroken
        state.play(card)
    view = SeatView.of_hand(state, 0)
    k = Knowledge.of(view)
    assert k.excluded[3] & ~HEARTS == rules.in_play & ~HEARTS
    assert is_consistent(k, list(state.hands)) is None
    rng = random.Random(2)
    for _ in range(10):
        assert not sample_hands(k, rng)[3] & ~HEARTS


def test_sampler_reports_an_impossible_view() -> None:
    view = Game(Rules.preset("no-passing"), seed=5).view(0)
    k = Knowledge.of(view)
    everything_excluded = tuple(view.rules.in_play if s != 0 else x for s, x in enumerate(k.excluded))
    import dataclasses

    broken = dataclasses.replace(k, excluded=everything_excluded)
    with pytest.raises(InconsistentViewError, match="no deal"):
        sample_hands(broken, random.Random(0))


def tight_knowledge(only_left_and_across: int) -> Knowledge:
    """Seat 0's knowledge at the start of play, with the first ``only_left_and_across`` of its
    unseen cards barred from seat 3 (so seats 1 and 2, 26 cards of room, must hold them all)."""
    import dataclasses

    view = Game(Rules.preset("no-passing"), seed=5).view(0)
    k = Knowledge.of(view)
    barred = sum(1 << c for c in sorted(CardSet(k.unseen))[:only_left_and_across])
    excluded = tuple(x | barred if s == 3 else x for s, x in enumerate(k.excluded))
    return dataclasses.replace(k, excluded=excluded)


def test_the_fallback_deals_a_forced_deal_and_refuses_an_impossible_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the greedy tries skipped, the fallback alone: 26 cards barred from seat 3 fill seats 1
    and 2 exactly, and every deal it makes says so; 27 such cards cannot be dealt (Hall's condition
    fails for seats 1 and 2 together), which it reports at once where a search over placements
    would try 2**26 of them."""
    import hearts.players.sampling as sampling

    monkeypatch.setattr(sampling, "GREEDY_TRIES", 0)
    k = tight_knowledge(26)
    rng = random.Random(3)
    for _ in range(5):
        hands = sample_hands(k, rng)
        assert is_consistent(k, hands) is None
        assert hands[3] & k.unseen & ~k.excluded[3] == hands[3] & k.unseen
    with pytest.raises(InconsistentViewError, match="no deal"):
        sample_hands(tight_knowledge(27), rng)


@pytest.mark.parametrize("rules", RULES[:4], ids=lambda r: f"{r.players}p")
def test_the_fallback_alone_deals_worlds_that_agree_with_the_view(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hearts.players.sampling as sampling

    monkeypatch.setattr(sampling, "GREEDY_TRIES", 0)
    rng = random.Random(2)
    for view, _real in random_views(rules, rules.players * 5, 10):
        k = Knowledge.of(view)
        for _ in range(3):
            assert is_consistent(k, sample_hands(k, rng)) is None


def test_candidates_merge_only_equivalent_cards() -> None:
    merged = 0
    for view, _ in random_views(Rules(), 3, 30):
        k = Knowledge.of(view)
        legal = sum(1 << c for c in view.legal)
        cands = candidate_cards(k, legal)
        assert cands and set(cands) <= set(view.legal)
        merged += len(view.legal) - len(cands)
        for c in view.legal:
            # Each legal card is represented by the next candidate up its suit, with nothing still
            # out between them, and Q♠ is never merged with another card.
            rep = min(r for r in cands if r // 13 == c // 13 and r >= c)
            between = ((1 << rep) - 1) & ~((2 << c) - 1)
            assert not k.out & between
            assert c == rep or "QS" not in (str(view.legal[view.legal.index(c)]), str(CARDS[rep]))
    assert merged > 0  # the merging does happen


def test_moon_helpers() -> None:
    rules = Rules()
    strong = sum(1 << c for c in range(39, 52)) & HEARTS  # all thirteen hearts
    assert moon_hand_strength(rules, strong) > 0.8
    weak = sum(1 << c for c in (0, 1, 2, 3, 13, 14, 15, 26, 27, 28, 39, 40, 41))
    assert moon_hand_strength(rules, weak) < 0.3
    assert best_moon_option(rules, (0, 0, 0, 0), 2).value == "add-to-others"


def doubtful_queen_knowledge() -> Knowledge:
    """South's knowledge after West, void in diamonds, threw 4♥ and kept Q♠ (South to play)."""
    hands = [
        "2C 3C 2D 3D 4D 5D 6D 7D 8D 2S 3S 2H 3H",
        "4C 5C 6C 7C 8C 9C QS 4H 5H 6H 7H 8H 9H",
        "10C JC QC KC 9D 10D JD QD 4S 5S 6S 7S 10H",
        "AC KD AD 8S 9S 10S JS KS AS JH QH KH AH",
    ]
    state = HandState(Rules.preset("no-passing"), [CardSet.parse(h).mask for h in hands])
    for card in "2C 9C KC AC KD 8D 4H".split():
        state.play(card)
    return Knowledge.of(SeatView.of_hand(state, 2))


def test_a_seat_that_passed_up_dumping_the_queen_rarely_gets_her() -> None:
    from hearts.players.sampling import likely_hands

    k = doubtful_queen_knowledge()
    assert k.doubtful_queen == 1 << 1
    rng = random.Random(4)
    uniform = sum(bool(sample_hands(k, rng)[1] >> 36 & 1) for _ in range(300))
    leaning = sum(bool(likely_hands(k, rng)[1] >> 36 & 1) for _ in range(300))
    assert leaning < uniform * 0.6, (leaning, uniform)
    for _ in range(20):
        assert is_consistent(k, likely_hands(k, rng)) is None

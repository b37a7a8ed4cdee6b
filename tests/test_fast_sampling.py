"""The compiled sampler: every deal it gives agrees with what the seat knows, it deals as the
Python sampler does (the same distribution, checked card by card), and it is seeded."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from tests.test_players_sampling import RULES, doubtful_queen_knowledge, random_views

from hearts.core import Rules
from hearts.core.cards import SUIT_MASKS
from hearts.players.knowledge import Knowledge
from hearts.players.sampling import LikelyHandsSampler, is_consistent, likely_hands


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.name or 'custom'}")
def test_compiled_deals_agree_with_the_view(rules: Rules) -> None:
    rng = random.Random(2)
    for view, _ in random_views(rules, rules.players * 11 + rules.pass_count, 20):
        k = Knowledge.of(view)
        hands = LikelyHandsSampler(k)(rng, 8)
        assert hands.shape == (8, rules.players) and hands.dtype == np.int64
        for row in hands:
            assert is_consistent(k, [int(h) for h in row]) is None
        world = view.world([int(h) for h in hands[0]])
        assert world.legal_mask() == sum(1 << c for c in view.legal)


def test_the_same_rng_state_gives_the_same_deals() -> None:
    view, _ = random_views(Rules(), 5, 1)[0]
    k = Knowledge.of(view)
    first = LikelyHandsSampler(k)(random.Random(9), 16)
    assert np.array_equal(first, LikelyHandsSampler(k)(random.Random(9), 16))
    assert not np.array_equal(first, LikelyHandsSampler(k)(random.Random(10), 16))
    assert len({tuple(row) for row in first}) > 1  # each row is its own deal


def _doubtful_queen_view() -> Knowledge:
    """West (seat 1) showed a void in diamonds and threw 4♥ while keeping Q♠; South (seat 2) to play."""
    k = doubtful_queen_knowledge()
    assert k.doubtful_queen == 1 << 1 and k.void_suits[1] == 1 << 1
    return k


def _frequencies(deals: list[list[int]], players: int) -> np.ndarray:
    """How often each seat holds each card, over ``deals``."""
    counts = np.zeros((players, 52))
    for hands in deals:
        for s, mask in enumerate(hands):
            for c in range(52):
                counts[s, c] += mask >> c & 1
    return counts / len(deals)


def test_compiled_and_python_samplers_deal_alike() -> None:
    k = _doubtful_queen_view()
    # Say North (seat 3) had shown a void in hearts too: then diamonds may go to two seats and
    # hearts to two others, so a seat must be chosen by the room left in its hand (a sampler
    # choosing uniformly among the seats that may hold a card deals visibly otherwise).
    excluded = list(k.excluded)
    excluded[3] |= SUIT_MASKS[3]
    k = dataclasses.replace(k, excluded=tuple(excluded))
    n = 4000
    rng = random.Random(3)
    python = _frequencies([likely_hands(k, rng) for _ in range(n)], 4)
    compiled = _frequencies([[int(h) for h in row] for row in LikelyHandsSampler(k)(rng, n)], 4)
    # Each frequency is a mean of n coin flips: its standard error is at most 0.5 / sqrt(n) (0.008),
    # so the difference of two is within 0.045 (about four standard errors) unless the samplers differ.
    assert np.abs(python - compiled).max() < 0.045
    queen = 36
    assert compiled[1, queen] < 0.2 < compiled[3, queen]  # the doubtful seat seldom gets Q♠


def test_a_deal_the_compiled_method_gives_up_on_comes_from_python(monkeypatch: pytest.MonkeyPatch) -> None:
    import hearts.fast.sampling as fast_sampling

    k = _doubtful_queen_view()
    real = fast_sampling.sample_deals

    def gives_up_on_row_one(*args: object) -> tuple[np.ndarray, np.ndarray]:
        hands, ok = real(*args)
        hands[1] = 0
        ok[1] = 0
        return hands, ok

    monkeypatch.setattr(fast_sampling, "sample_deals", gives_up_on_row_one)
    hands = LikelyHandsSampler(k)(random.Random(1), 3)
    for row in hands:
        assert is_consistent(k, [int(h) for h in row]) is None

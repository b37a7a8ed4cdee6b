"""The search's candidate cards: cards merge only when they are truly equivalent (issue 41).

Two legal cards of a suit are one candidate when they score the same and no card between them is
still out or lies in the trick in progress. The property: in random positions, two merged cards
played in the same sampled world with the same rollout random numbers give every seat the same
hand score in random play-outs: the two cards win and lose the same tricks, and score the same.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.core import Game, Phase, Rules, mask_of
from hearts.players import compiled as fast
from hearts.players.knowledge import Knowledge
from hearts.players.sampling import sample_hands
from hearts.players.search import candidate_cards
from hearts.players.valuation import representative


def names(cards: list[int]) -> list[str]:
    from hearts.core import CARDS

    return [str(CARDS[c]) for c in cards]


def test_a_card_of_the_trick_in_progress_keeps_two_cards_apart() -> None:
    """Trick so far 3♥ Q♥ 7♠; 6♥ to 9♥ played earlier; 4♥ and A♥ still out. 5♥, 10♥ and J♥ duck
    under the queen where K♥ wins it, and 2♥ ducks under 3♥ as well: three candidates, not two."""
    base = Knowledge.of(Game(Rules(), seed=1).view(0))
    hand = mask_of("2H 5H 10H JH KH 2C 3C 4C 5C 6C 7C 8C 9C".split())
    trick = mask_of("3H QH 7S".split())
    played = mask_of("6H 7H 8H 9H".split()) | trick
    unseen = Rules().in_play & ~hand & ~played
    k = dataclasses.replace(
        base, hand=hand, played=played, unseen=unseen, known=(0, 0, 0, 0), trick=tuple(int(c) for c in (
            mask_of(["3H"]).bit_length() - 1, mask_of(["QH"]).bit_length() - 1, mask_of(["7S"]).bit_length() - 1,
        )), hearts_broken=True, trick_number=4,
    )  # fmt: skip
    legal = hand & mask_of("2H 5H 10H JH KH".split())
    assert names(candidate_cards(k, legal)) == ["2H", "JH", "KH"]
    # Without the trick's cards between them, the run would merge (the cards still out decide).
    empty = dataclasses.replace(k, trick=(), played=played & ~trick, unseen=unseen | trick)
    assert names(candidate_cards(empty, legal)) == ["2H", "JH", "KH"]  # 3H and QH are out now
    # With 3♥ and Q♥ played in earlier tricks, only 4♥ still parts 2♥ from the rest: what the
    # search saw in the position above before the trick's cards counted.
    gone = dataclasses.replace(k, trick=(), played=played, unseen=unseen)
    assert names(candidate_cards(gone, legal)) == ["2H", "KH"]


def random_position(seed: int, cards: int) -> tuple[object, Knowledge, int] | None:
    """A position after ``cards`` random plays of a no-passing hand: the view to move, its
    knowledge and its legal cards as a mask (None when the hand is over)."""
    rules = Rules.preset("no-passing") if seed % 2 else Rules.preset("omnibus", pass_cycle=("hold",))
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(cards):
        if game.phase is not Phase.PLAY:
            return None
        game.play(rng.choice(game.legal_plays()))
    if game.phase is not Phase.PLAY:
        return None
    view = game.view(game.to_move[0])
    return view, Knowledge.of(view), sum(1 << c for c in view.legal)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10_000), cards=st.integers(0, 44), world=st.integers(0, 2**31 - 1))
def test_merged_cards_play_alike_in_every_world(seed: int, cards: int, world: int) -> None:
    found = random_position(seed, cards)
    if found is None:
        return
    view, k, legal = found
    cands = candidate_cards(k, legal)
    rng = random.Random(world)
    hands = sample_hands(k, rng)
    S = fast.state_array(view.world(hands))  # type: ignore[attr-defined]
    R = fast.rules_array(k.rules)
    n = k.players
    # Every seat plays a random legal card: a play-out then depends only on which cards win which
    # tricks and what they score, which is what the merge claims equal. (The heuristic policies also
    # read ranks as numbers, a moon hand's low cards say, so to them K♦ and A♦ may differ where
    # nothing parts them: a merged search gives up that distinction on purpose.)
    for policy in ("random",):
        plans = np.array([[fast.policy_code(policy)] * n], dtype=np.int64)
        for c in (c for c in range(52) if legal >> c & 1):
            rep = cands[representative(cands, c)]
            if rep == c:
                continue
            seeds = np.array([[rng.getrandbits(31) for _ in range(4)]], dtype=np.int64)
            scores = fast.search_worlds(
                S[None, :],
                R,
                np.array([c, rep], dtype=np.int64),
                plans,
                0.1,
                seeds,
                np.zeros(n, dtype=np.int64),
            )
            assert (scores[0, :, 0, 0, :] == scores[0, :, 0, 1, :]).all(), (names([c, rep]), policy)

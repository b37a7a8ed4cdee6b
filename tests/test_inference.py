"""Inference: sampled worlds weighted by how well the rollout policy explains the plays seen."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from hearts.core import Game, Phase, Rules
from hearts.fast import kernels as k
from hearts.fast import rules_array
from hearts.players.knowledge import Knowledge
from hearts.players.sampling import sample_hands
from hearts.players.search import SearchPlayer
from hearts.players.search_config import HARD
from hearts.players.valuation import clearly_better

MISS, LEAD_MISS = math.log(0.15), math.log(0.4)


def greedy_hand(rules: Rules, seed: int, policy: int = k.POLICY_GREEDY) -> tuple[np.ndarray, np.ndarray]:
    """One hand played by a compiled policy (greedy unless told) with no random cards: each seat's
    hand at the start of play and every card played, in order."""
    n = rules.players
    trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
    pol = np.full(n, policy, dtype=np.int64)
    k.play_hand_traced(rules_array(rules), 1, pol, 0.0, seed, 0, trace)
    dealt = trace[:n].copy()
    passed = trace[k.TRACE_PASSED : k.TRACE_PASSED + n]
    offset = k.pass_offset(rules_array(rules), 1)
    starts = dealt & ~passed
    for s in range(n):
        starts[(s + offset) % n] |= passed[s]
    plays = trace[k.TRACE_PLAYS + 1 : k.TRACE_PLAYS + 2 * rules.hand_size * n : 2].copy()
    return starts, plays


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("omnibus"), Rules.preset("britannica", players=3)])
def test_the_deal_the_greedy_players_held_explains_every_play(rules: Rules) -> None:
    R = rules_array(rules)
    for seed in range(20):
        starts, plays = greedy_hand(rules, seed)
        for me in range(rules.players):
            logw = k.play_log_likelihoods(starts[None, :], R, plays, me, MISS, LEAD_MISS)
            assert logw[0] == 0.0


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("omnibus"), Rules.preset("britannica", players=3)])
def test_the_medium_model_explains_the_medium_policys_plays(rules: Rules) -> None:
    """With the medium rollout policy the search models the other seats by it: the deal the
    medium-policy seats held explains every play, and the greedy model misses some of them."""
    R = rules_array(rules)
    greedy_misses = 0
    for seed in range(20):
        starts, plays = greedy_hand(rules, seed, k.POLICY_MEDIUM)
        for me in range(rules.players):
            logw = k.play_log_likelihoods(starts[None, :], R, plays, me, MISS, LEAD_MISS, k.POLICY_MEDIUM)
            assert logw[0] == 0.0
            greedy_misses += k.play_log_likelihoods(starts[None, :], R, plays, me, MISS, LEAD_MISS)[0] < 0.0
    assert greedy_misses >= 10


def test_other_deals_of_the_same_plays_are_less_likely() -> None:
    """Swap unplayed-yet cards between two opponents' starting hands (same suits, so every play is
    still legal): the greedy policy would have played otherwise at least somewhere, in most deals."""
    rules = Rules()
    R = rules_array(rules)
    worse = 0
    trials = 0
    for seed in range(30):
        starts, plays = greedy_hand(rules, seed)
        order = list(plays[: 8 * 4])  # the first eight tricks have been seen
        later = set(int(c) for c in plays[8 * 4 :])
        a, b = starts[1], starts[2]
        # A card each of the same suit, both still unplayed after trick eight.
        pairs = [
            (x, y)
            for x in range(52)
            for y in range(52)
            if a >> x & 1 and b >> y & 1 and x // 13 == y // 13 and x in later and y in later
        ]
        if not pairs:
            continue
        x, y = pairs[0]
        world = starts.copy()
        world[1] = (a & ~(1 << x)) | (1 << y)
        world[2] = (b & ~(1 << y)) | (1 << x)
        both = np.stack([starts, world])
        logw = k.play_log_likelihoods(both, R, np.array(order, dtype=np.int64), 0, MISS, LEAD_MISS)
        assert logw[0] == 0.0 and logw[1] <= 0.0
        trials += 1
        worse += logw[1] < 0
    assert trials >= 10 and worse >= trials // 3


def test_inference_sharpens_the_belief_about_where_q_spades_is() -> None:
    """Against greedy players, the weighted worlds put Q♠ with her true holder more often than
    the unweighted ones (the plays so far carry information the hard constraints do not)."""
    rules = Rules.preset("no-passing")
    R = rules_array(rules)
    plain = weighted = 0.0
    cases = 0
    for seed in range(40):
        starts, plays = greedy_hand(rules, seed)
        game = Game(rules, seed=0)
        game.hand.hands = [int(h) for h in starts]
        game.hand.dealt = tuple(game.hand.hands)
        # Replay the first five tricks through the engine (which checks every card).
        game.hand._start_play()
        for c in plays[:20]:
            game.play(int(c))
        view = game.view(0)
        holder = next((s for s in range(4) if game.hand.hands[s] >> 36 & 1), 0)
        if holder == 0 or view.phase is not Phase.PLAY:
            continue
        kn = Knowledge.of(view)
        rng = random.Random(seed)
        worlds = [sample_hands(kn, rng) for _ in range(200)]
        played = np.zeros(4, dtype=np.int64)
        for c in plays[:20]:
            played[[s for s in range(4) if starts[s] >> int(c) & 1][0]] |= 1 << int(c)
        starts_w = np.array(worlds, dtype=np.int64) | played
        logw = k.play_log_likelihoods(starts_w, R, plays[:20].copy(), 0, MISS, LEAD_MISS)
        w = np.exp(logw - logw.max())
        has = np.array([wd[holder] >> 36 & 1 for wd in worlds], dtype=float)
        plain += has.mean()
        weighted += float((w * has).sum() / w.sum())
        cases += 1
    assert cases >= 10
    assert weighted / cases > plain / cases + 0.05


def test_the_weighted_standard_error_matches_the_plain_one_for_equal_weights() -> None:
    rng = random.Random(1)
    a = [rng.gauss(1.0, 3.0) for _ in range(200)]
    b = [rng.gauss(0.0, 3.0) for _ in range(200)]
    for margin in (0.0, 0.5, 1.0, 2.0):
        assert clearly_better(a, b, margin) == clearly_better(a, b, margin, [2.5] * 200)
    # A single heavy world is not evidence enough for a margin.
    assert not clearly_better([5.0, 0.0], [0.0, 9.0], 1.0, [1.0, 1e-9])


def test_a_search_player_with_inference_weighs_its_worlds_and_stays_seeded() -> None:
    game = Game(Rules(), seed=5)
    rng = random.Random(5)
    while game.phase is Phase.PASS:
        for s in game.to_move:
            game.pass_cards(s, rng.sample(list(game.view(s).hand), 3))
    for _ in range(4 * 4 + 1):
        game.play(rng.choice(game.legal_plays()))
    view = game.view(game.to_move[0])
    a = SearchPlayer(HARD.replace(worlds=120), seed=3, time_budget=30)
    b = SearchPlayer(HARD.replace(worlds=120), seed=3, time_budget=30)
    da, db = a.decide(view), b.decide(view)
    assert da == db and da.move.card in view.legal
    assert a.last is not None and 1.0 <= a.last.effective_worlds <= 120 and a.last.worlds == 120
    assert "by the plays seen" in da.reason

"""The learned evaluation inside the search players: the compiled learned rollout policy plays the
model's card from what its seat knows, and a search can keep the model's card as its prior."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hearts.core import Game, Phase, Rules
from hearts.fast import kernels as k
from hearts.fast.bridge import rules_array, state_array
from hearts.fast.selfplay import world_values
from hearts.players.knowledge import Knowledge
from hearts.players.learned import LearnedPlayer, _voids
from hearts.players.medium import MediumPlayer
from hearts.players.search import SearchPlayer
from hearts.players.search_config import EXPERT, HARD
from hearts.players.weights import load_model


def _mid_hand(seed: int, plays: int, rules: Rules | None = None) -> Game:
    """A game ``plays`` cards into its first hand, passed and played at random."""
    game = Game(rules or Rules.preset("no-passing"), seed=seed)
    rng = random.Random(seed)
    for seat in game.to_move if game.phase is Phase.PASS else ():
        game.pass_cards(seat, rng.sample(list(game.view(seat).hand), game.rules.pass_count))
    for _ in range(plays):
        game.play(rng.choice(game.legal_plays()))
    return game


@pytest.mark.parametrize("rules", [Rules.preset("no-passing"), Rules(players=3), Rules.preset("omnibus", players=5)])
@pytest.mark.parametrize("mixed", [False, True])
def test_the_learned_rollout_policy_plays_the_models_card(rules: Rules, mixed: bool) -> None:
    """Card for card, a learned seat of a compiled play-out plays what ``world_values`` gives from the
    voids it started with and those shown since (never read off the hands), and only legal cards."""
    model = load_model()
    R = rules_array(rules)
    n = rules.players
    checked = 0
    for seed in range(6):
        game = _mid_hand(seed, 3 * seed, rules)
        S0 = state_array(game.hand)
        start_voids = _voids(Knowledge.of(game.view(game.hand.turn)))
        policies = np.full(n, k.POLICY_LEARNED, dtype=np.int64)
        if mixed:
            policies[1::2] = k.POLICY_MEDIUM
        trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
        S = S0.copy()
        np.random.seed(seed)
        k.play_out_with(S, R, policies, 0.0, trace, model.weights, model.margin, start_voids)
        S = S0.copy()
        voids = start_voids
        values = np.zeros(52)
        for i in range(3 * seed, rules.hand_size * n):
            legal, card = int(trace[k.TRACE_PLAYS + 2 * i]), int(trace[k.TRACE_PLAYS + 2 * i + 1])
            assert legal == k.legal_mask(S, R) and legal >> card & 1
            turn = int(S[k.S_TURN])
            if policies[turn] == k.POLICY_LEARNED and legal & (legal - 1):
                assert card == world_values(S, R, voids, model.weights, model.margin, values)
                checked += 1
            if S[k.S_TRICK_LEN] and card // 13 != S[k.S_TRICK] // 13:
                voids |= 1 << (4 * turn + int(S[k.S_TRICK]) // 13)
            k.advance(S, R, card)
    assert checked > 30


def test_a_learned_seat_without_weights_is_refused() -> None:
    rules = Rules()
    S = state_array(_mid_hand(1, 0).hand)
    with pytest.raises(ValueError, match="needs the model's weights"):
        k.play_out(
            S, rules_array(rules), np.full(4, k.POLICY_LEARNED, dtype=np.int64), 0.0, np.zeros(0, dtype=np.int64)
        )


@pytest.mark.parametrize("seed", range(8))
def test_the_learned_prior_is_the_models_card_and_says_so(seed: int) -> None:
    """With a margin nothing clears, the search keeps its prior: the model's card under
    ``prior="learned"`` with the learned player's reason, medium's card under ``prior="medium"``."""
    game = _mid_hand(seed, 2 + 5 * seed)
    view = game.view(game.hand.turn)
    legal = sum(1 << c for c in view.legal)
    if len(view.legal) < 2:
        return
    k_ = Knowledge.of(view)
    card, why = LearnedPlayer().play_from(k_, legal)
    medium, medium_why = MediumPlayer().play_from(k_, legal)
    decision = SearchPlayer(HARD.replace(worlds=8, prior="learned", prior_margin=1e9), seed=1).decide(view)
    plain = SearchPlayer(HARD.replace(worlds=8, prior="medium", prior_margin=1e9), seed=1).decide(view)
    if not decision.reason.startswith("stop "):  # a card that stops a moon is named so
        assert int(decision.move.card) == card and int(plain.move.card) == medium
        assert decision.reason.startswith(why + " (")
        assert plain.reason.startswith(medium_why + " (")
        if card != medium:
            assert "the model expects" in decision.reason and "the model expects" not in plain.reason


def test_an_unknown_prior_is_refused() -> None:
    with pytest.raises(ValueError, match="prior must be one of medium, learned, not 'clever'"):
        HARD.replace(prior="clever")
    assert HARD.prior == "learned" and EXPERT.prior == "medium"


def test_the_learned_rollouts_change_what_the_search_sees() -> None:
    from tests.test_fast_search import searched_values

    medium = searched_values({"rollout": "medium"})
    assert searched_values({"rollout": "learned"}) != medium

"""Moon defence against an early threat (issue 20): telling a run from medium's play by the cards a
seat chose, the shooter's model in the rollouts, the searching seat's own rollouts defending, and the
search keeping medium's defence as its rule-based card once a run is likely."""

from __future__ import annotations

import math
import random

import numpy as np

from hearts.core import CardSet, HandState, Rules, SeatView
from hearts.fast import kernels
from hearts.fast.bridge import rules_array, state_array
from hearts.players.search import SearchPlayer
from hearts.players.search_config import EXPERT

LOG_MISS, LOG_LEAD_MISS = math.log(0.15), math.log(0.4)
NO_PASSING = Rules.preset("no-passing")


def played_hand(seed: int, policies: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """A no-passing deal played out by the kernels with ``policies`` and no random cards: the
    dealt hands and the 52 cards in the order played."""
    k = kernels
    hand = HandState.deal(NO_PASSING, random.Random(seed))
    S = state_array(hand)
    trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
    pols = np.array(policies, dtype=np.int64)
    k.play_out(S, rules_array(NO_PASSING), pols, 0.0, trace)
    plays = trace[k.TRACE_PLAYS + 1 : k.TRACE_PLAYS + 2 * 52 : 2].copy()
    return np.array([hand.dealt], dtype=np.int64), plays


def test_moon_evidence_favours_the_model_that_played_the_cards() -> None:
    """A seat that played medium's cards is explained worse by a moon run (ratio at most 0), one
    that ran for the moon better (at least 0); over a few deals both are strictly so somewhere."""
    k = kernels
    R = rules_array(NO_PASSING)
    medium, run = [], []
    for seed in range(8):
        starts, plays = played_hand(seed, [k.POLICY_MEDIUM] * 4)
        medium.append(k.moon_log_ratios(starts, R, plays, 1, LOG_MISS, LOG_LEAD_MISS)[0])
        starts, plays = played_hand(seed, [k.POLICY_MEDIUM, k.POLICY_MOON, k.POLICY_MEDIUM, k.POLICY_MEDIUM])
        run.append(k.moon_log_ratios(starts, R, plays, 1, LOG_MISS, LOG_LEAD_MISS)[0])
    assert max(medium) <= 0 < max(run) and min(run) >= 0 > min(medium)
    # The other seats' plays say nothing about seat 1 running: seat 0's ratio is not seat 1's.
    starts, plays = played_hand(0, [k.POLICY_MEDIUM, k.POLICY_MOON, k.POLICY_MEDIUM, k.POLICY_MEDIUM])
    assert k.moon_log_ratios(starts, R, plays, 0, LOG_MISS, LOG_LEAD_MISS)[0] <= 0


def queen_taker_view(thrown: str = "") -> SeatView:
    """East (seat 3) won the first trick, then led A♠ and K♠ and took Q♠ on the second: every
    point so far is East's, Q♠ alone (or with ``thrown``). East leads A♦ now; North (seat 2),
    void in diamonds, holds K♥ and clean clubs and spades."""
    hands = [
        "2C 3C 4C 2D 3D 4D 5D 6D 7D 2S 3S 4S 5S",
        "5C 6C 7C 8D 9D 10D JD 2H 3H 4H 5H 6S QS",
        "8C 9C 10C JC QC 7S 8S 9S 10S 6H 7H 8H KH",
        "KC AC QD KD AD AS KS JS 9H 10H JH QH AH",
    ]
    state = HandState(NO_PASSING, [CardSet.parse(h).mask for h in hands])
    for card in "2C 5C 8C AC AS 2S 6S 7S KS 3S QS 8S".split():
        state.play(card)
    state.play("AD")
    state.play("2D")
    state.play("8D")
    return SeatView.of_hand(state, 2)


def test_queen_alone_is_an_early_moon_threat_and_the_search_keeps_its_stopper() -> None:
    """East holds Q♠ and nothing else has been taken: with the early defence from one penalty card East runs
    in the worlds where a run explains its plays (it cashed A♠ and K♠, where medium leads low), and
    North keeps K♥, its stopper, with medium's defence as its reason."""
    view = queen_taker_view()
    player = SearchPlayer(EXPERT.replace(worlds=300), seed=1, time_budget=10.0)
    decision = player.decide(view)
    assert player.last is not None
    assert "East shoots in" in decision.reason and player.last.early_share >= EXPERT.early_defence_share
    assert decision.move.card.symbol() != "K♥", decision.reason
    assert decision.reason.startswith("give no points to East, who may shoot"), decision.reason
    # The defence from two penalty cards: Q♠ alone (one penalty card) is no threat.
    off = SearchPlayer(EXPERT.replace(worlds=300, early_threat_points=2), seed=1, time_budget=10.0)
    decision = off.decide(view)
    assert "shoots" not in decision.reason

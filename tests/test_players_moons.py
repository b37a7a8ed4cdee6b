"""The search players' moon play: a pass that keeps the top hearts, pass rollouts that charge for
the moons a pass feeds, a moon defence that starts in time, and reasons that say what decided."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hearts.core import CardSet, HandState, PassCards, Rules, SeatView
from hearts.fast import kernels
from hearts.players.passing import MOON_STOPPERS
from hearts.players.search import SearchPlayer
from hearts.players.search_config import EXPERT, HARD, SearchConfig

#: Medium passes A♥ from this hand (it voids clubs and sheds its highest card).
HAND = "3C 4C 5D 8D 9D AD 6S 2H 3H 4H 6H 7H AH"
ACE_OF_HEARTS = 51


def pass_view(hand: str = HAND, seed: int = 5) -> SeatView:
    """Seat 0 to pass left holding ``hand``, the other cards dealt at random."""
    mine = CardSet.parse(hand).mask
    rest = [c for c in range(52) if not mine >> c & 1]
    random.Random(seed).shuffle(rest)
    deal = [mine] + [sum(1 << c for c in rest[i::3]) for i in range(3)]
    return SeatView.of_hand(HandState(Rules(), deal, 0), 0)


def test_medium_passes_the_ace_of_hearts_from_the_test_hand() -> None:
    """The premise of the tests below: the rule-based pass gives A♥ away."""
    from hearts.players.medium import MediumPlayer

    cards, _ = MediumPlayer(seed=1).choose_pass(pass_view())
    assert cards.mask >> ACE_OF_HEARTS & 1


def test_reference_pass_keeps_the_top_hearts_and_says_so() -> None:
    player = SearchPlayer(EXPERT.replace(worlds=4), seed=1)
    cards, why = player.passing.reference_pass(pass_view())
    # Medium voids clubs and sheds A♥; the reason names A♦, shed in its place, and A♥ as kept.
    assert cards == CardSet.parse("3C 4C AD")
    assert why == "void clubs; shed high cards A♦; keep A♥ to stop a moon"
    plain = SearchPlayer(HARD.replace(worlds=4, moon_safe_passes=False), seed=1)  # medium's own pass
    assert plain.passing.reference_pass(pass_view())[0].mask >> ACE_OF_HEARTS & 1


@pytest.mark.parametrize("level", [HARD, EXPERT])
@pytest.mark.parametrize("seed", [1, 2])
def test_searched_pass_keeps_the_ace_of_hearts(level: SearchConfig, seed: int) -> None:
    player = SearchPlayer(level.replace(worlds=60, moon_safe_passes=True), seed=seed, time_budget=5.0)
    decision = player.decide(pass_view())
    assert isinstance(decision.move, PassCards)
    passed = decision.move.cards
    assert not CardSet(passed).mask >> ACE_OF_HEARTS & 1, decision.reason
    # The reason is the moon-safe pass's, or names the searched pass it chose instead.
    assert "keep A♥ to stop a moon" in decision.reason or all(c.symbol() in decision.reason for c in passed)


def test_the_old_pass_search_gave_the_ace_of_hearts_away() -> None:
    """With the moon-safe passes off and medium opponents in the pass rollouts (the players
    before the change) the same search passes A♥ from the same hand: the test above can fail."""
    player = SearchPlayer(HARD.replace(worlds=60, moon_safe_passes=False, pass_opponents="medium"), seed=1, time_budget=5.0)
    decision = player.decide(pass_view())
    assert isinstance(decision.move, PassCards)
    assert CardSet(decision.move.cards).mask >> ACE_OF_HEARTS & 1, decision.reason


def test_pass_candidates_include_passes_that_keep_the_top_hearts() -> None:
    view = pass_view("2C 8C 10D 2S 5S 7S JS QS KS 4H 7H KH AH")
    player = SearchPlayer(EXPERT.replace(worlds=4), seed=1).passing
    base, _ = player.reference_pass(view)
    cands = player.candidates(view, base)
    assert cands[0] == base.mask and len(set(cands)) == len(cands) <= EXPERT.pass_candidates
    assert any(c & MOON_STOPPERS for c in cands)  # the dangerous passes are still tried
    safe = sum(1 for c in cands if not c & MOON_STOPPERS)
    old = SearchPlayer(EXPERT.replace(worlds=4, moon_safe_passes=False), seed=1).passing
    old_cands = old.candidates(view, old.reference_pass(view)[0])
    assert old_cands[0] & MOON_STOPPERS  # medium's pass, K♥ A♥ in it
    assert safe >= 5 > sum(1 for c in old_cands if not c & MOON_STOPPERS)


def test_pass_rollouts_charge_for_the_moon_a_pass_feeds() -> None:
    """In the pass search's world, handing A♥ to a seat whose hand it makes a moon hand lets that
    seat shoot; passing three low cards does not, and the searching seat scores far better."""
    k = kernels
    from hearts.fast.bridge import rules_array

    rules = Rules()
    me = CardSet.parse("AH 2H 3H 4C 5C 6C 7C 3D 4D 5D 6D 3S 4S").mask
    left = CardSet.parse("KH QH JH 10H 9H 8H AS KS QS AC 2C 2D 2S").mask
    rest = [c for c in range(52) if not (me | left) >> c & 1]
    across, right = sum(1 << c for c in rest[0::2]), sum(1 << c for c in rest[1::2])
    dealt = np.array([me, left, across, right], dtype=np.int64)
    passes = np.array([0, CardSet.parse("2C 2D 2S").mask, 0, 0], dtype=np.int64)
    for s in (2, 3):  # their three highest cards
        cards = [c for c in range(52) if int(dealt[s]) >> c & 1][-3:]
        passes[s] = sum(1 << c for c in cards)
    cands = np.array([CardSet.parse("AH 4C 5C").mask, CardSet.parse("6C 7C 3D").mask], dtype=np.int64)
    R = rules_array(rules)
    W = k.pass_positions(R, dealt, passes, 0, cands, 1)
    pols = np.array([[k.POLICY_MEDIUM] + [k.POLICY_MEDIUM_MOON] * 3], dtype=np.int64)
    seeds = np.arange(20, dtype=np.int64).reshape(1, 20).repeat(2, axis=0)
    scores = k.search_worlds(W, R, np.array([-1]), pols, 0.1, seeds, k.CHOICE_BEST, np.zeros(4, dtype=np.int64))
    moons = (scores[:, :, 0, 0, 1] == 0) & (scores[:, :, 0, 0, :].sum(axis=-1) == 78)
    assert moons[0].mean() > moons[1].mean() + 0.1
    assert scores[0, :, 0, 0, 0].mean() > scores[1, :, 0, 0, 0].mean() + 3


def early_threat_view() -> SeatView:
    """East has won the first three tricks (A♣ K♣ Q♣) and both hearts thrown on them, and leads A♠:
    every point so far is East's, two of them, short of the full moon threat."""
    hands = [
        "3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 2S 3S 4S",
        "2C 2H 3H 4H 5H 6H 7H 8H 7D 8D 9D 10D 5S",
        "8C 9C 10C JC JD QD 6S 7S 8S 9S 10S JS QS",
        "AH KH QH JH 10H 9H AC KC QC AS KS AD KD",
    ]
    state = HandState(Rules.preset("no-passing"), [CardSet.parse(h).mask for h in hands])
    for card in "2C 8C AC 3C KC 4C 8H 9C QC 5C 7H 10C AS 2S 5S".split():
        state.play(card)
    return SeatView.of_hand(state, 2)


@pytest.mark.parametrize("level", [HARD, EXPERT])
def test_an_early_moon_threat_shoots_in_the_worlds_that_deal_it_a_moon_hand(level: SearchConfig) -> None:
    view = early_threat_view()

    def player(early_threat_points: int) -> SearchPlayer:
        config = level.replace(worlds=200, early_threat_points=early_threat_points)
        return SearchPlayer(config, seed=1, time_budget=5.0)

    on = player(2)  # from two penalty cards (both levels ship from one)
    decision = on.decide(view)
    assert on.last is not None and 0 < on.last.early_share < 1
    assert f"East shoots in {on.last.early_share:.0%} of the worlds" in decision.reason
    off = player(0)  # no early defence
    decision = off.decide(view)
    assert off.last is not None and off.last.early_share == 0 and "shoots" not in decision.reason
    # Three penalty cards: East has two, no early threat yet.
    assert "shoots" not in player(3).decide(view).reason

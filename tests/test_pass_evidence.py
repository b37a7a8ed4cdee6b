"""Reading a pass received (issue 20): the cards an early moon threat passed to this seat say
whether it was building a moon (:func:`hearts.fast.kernels.pass_log_ratios`), and the expert reads
them into its share of worlds in which that seat runs."""

from __future__ import annotations

import math
import random

import numpy as np

from hearts.core import HandState, Rules, SeatView, mask_of
from hearts.fast import kernels
from hearts.fast.bridge import rules_array
from hearts.players.hunter import HUNTER_PASS_STRENGTH, moon_pass
from hearts.players.knowledge import moon_hand_strength
from hearts.players.medium import MediumPlayer

LOG_MISS = math.log(0.3)
RULES = Rules()


def ratio(hand: int, passed: int) -> float:
    k = kernels
    return float(k.pass_log_ratios(np.array([hand], dtype=np.int64), rules_array(RULES), passed, LOG_MISS)[0])


def test_a_pass_reads_as_the_model_that_made_it() -> None:
    """Over 60 deals, medium's passes (but for its own moon hands') never read as a moon being
    built and mostly read as medium's; the moon hunter's building passes mostly read as a moon and
    on the whole far more so."""
    medium = MediumPlayer(seed=0)
    of_medium: list[float] = []
    of_builder: list[float] = []
    for seed in range(60):
        hand = HandState.deal(RULES, random.Random(seed))
        for seat in range(4):
            view = SeatView.of_hand(hand, seat, (0,) * 4, tuple("NESW"), None)
            cards, why = medium.choose_pass(view)
            if not why.startswith("moon hand"):
                of_medium.append(ratio(hand.dealt[seat], cards.mask))
            if moon_hand_strength(RULES, hand.dealt[seat]) >= HUNTER_PASS_STRENGTH:
                built = sum(1 << c for c in moon_pass(view))
                of_builder.append(ratio(hand.dealt[seat], built))
    assert max(of_medium) <= 0 and sum(r < 0 for r in of_medium) > len(of_medium) / 2
    assert sum(r > 0 for r in of_builder) > len(of_builder) / 2
    assert np.mean(of_builder) > 0 > np.mean(of_medium)


def test_low_side_cards_from_a_strong_heart_hand_read_as_a_moon() -> None:
    """Three low side cards that kept A♥ K♥ and A♠: a moon is being built (each card a miss for
    medium). Passing A♥ K♥ A♠ from the same hand is medium's pass, every card a miss for the builder."""
    hand = mask_of("5C 6C 9C JC 5D 9D QD 4S 8S AS JH KH AH".split())
    assert ratio(hand, mask_of("5C 6C 4S".split())) > 0
    assert ratio(hand, mask_of("AH KH AS".split())) == 3 * LOG_MISS
    # Passing clubs whole is medium's void as much as the builder's: it says nothing.
    assert ratio(mask_of("5C 6C 5D 9D 10D QD 4S 8S AS 10H JH KH AH".split()), mask_of("5C 6C".split())) == 0


def builder_view() -> SeatView:
    """Passing left, West (seat 1) kept A♥ K♥ Q♥ J♥ and A♠ K♠ and passed North (seat 2) 3♣ 4♣ 5♣.
    West won the first trick with A♣ and the second with A♦, and leads K♦: North, void in
    diamonds, to play, nobody holding a point yet, West the early threat as the seat with the most
    tricks. North may throw a heart on West, or not."""
    rules = Rules.preset("pass-left")
    hands = [
        "2C 6C 7C 2D 3D 4D 5D 2S 3S 4S 2H 3H 4H",
        "3C 4C 5C AC AD KD QD AS KS AH KH QH JH",
        "8C 9C 10C 5S 6S 7S 8S 5H 6H 7H 8H 9H 10H",
        "JC QC KC 6D 7D 8D 9D 10D JD 9S 10S JS QS",
    ]
    state = HandState(rules, [mask_of(h.split()) for h in hands])
    for seat, cards in enumerate(["2S 3S 4S", "3C 4C 5C", "6S 7S 8S", "QS KC QC"]):
        state.pass_cards(seat, cards.split())
    for card in "2C AC 8C JC AD 5C 6D 2D KD".split():
        state.play(card)
    return SeatView.of_hand(state, 2)


def test_the_expert_reads_the_pass_of_the_early_threat() -> None:
    """West's low pass makes its strong hands the likely ones: North, reading it, lets West run in
    nearly all of its worlds (far more than the same search not reading the pass) and throws no
    heart on West. (Whether the search not reading it throws a heart depends on its luck: at 75-85%
    of worlds it mostly defends too.)"""
    from hearts.players.search import SearchPlayer
    from hearts.players.search_config import EXPERT

    view = builder_view()
    assert view.pass_from == 1 and view.received is not None and view.received.mask == mask_of("3C 4C 5C".split())
    # A pass miss weight of 1 reads nothing in the pass: a card medium would not pass costs nothing.
    reader = SearchPlayer(EXPERT.replace(worlds=200), seed=1, time_budget=10.0)
    blind = SearchPlayer(EXPERT.replace(worlds=200, pass_miss_weight=1.0), seed=1, time_budget=10.0)
    read, not_read = reader.decide(view), blind.decide(view)
    assert reader.last is not None and blind.last is not None
    assert reader.last.early_share > blind.last.early_share + 0.2
    assert reader.last.early_share >= EXPERT.early_defence_share
    assert not read.move.card.symbol().endswith("♥") and "West shoots in" in read.reason, read.reason
    assert "West shoots in" in not_read.reason, not_read.reason

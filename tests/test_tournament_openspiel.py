"""The OpenSpiel benchmark's bridge: card and direction mapping, views from a seat's own information,
and a whole duplicate deal against a small ISMCTS with the rules cross-checked (skipped without OpenSpiel)."""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from hearts.core import CARDS, PassDirection, Phase, Rules, deal_cards

pyspiel = pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_vs_openspiel.py"
    spec = importlib.util.spec_from_file_location("bench_vs_openspiel", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_vs_openspiel"] = module  # so that dataclasses and pickling find it
    spec.loader.exec_module(module)
    return module


def test_cards_and_directions_map_to_openspiels(bench: ModuleType) -> None:
    game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})
    state = game.new_initial_state()
    state.apply_action(1)
    for card in CARDS:
        assert state.action_to_string(bench.to_action(card)) == str(card).replace("10", "T")
        assert bench.to_card(bench.to_action(card)) == card
    fresh = game.new_initial_state()
    for direction, action in bench.OS_DIRECTION.items():
        assert fresh.action_to_string(action).lower().replace("no pass", "hold") == direction.value
        assert Rules().pass_direction(bench.hand_number_for(Rules(), direction)) is direction


def test_view_holds_only_the_seats_own_information(bench: ModuleType) -> None:
    rules = Rules()
    game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})
    dealt = deal_cards(rules, random.Random(5))
    deal = bench.OpenSpielDeal(game, dealt, PassDirection.RIGHT)
    rng = random.Random(0)
    # Seat 0 passes first: its view is its dealt hand in the pass phase.
    view = bench.seat_view(deal, 0, rules, rng)
    assert view.phase is Phase.PASS and view.hand.mask == dealt[0] and view.direction is PassDirection.RIGHT
    while deal.in_pass_phase():
        deal.apply(sorted(deal.state.legal_actions())[0])
    # Play a trick and a half at random, checking each seat's rebuilt view against OpenSpiel's state.
    for _ in range(6):
        seat = deal.state.current_player()
        view = bench.seat_view(deal, seat, rules, rng)
        legal = sorted(bench.to_card(a) for a in deal.state.legal_actions())
        assert sorted(view.legal) == legal
        passed = deal.passes()[seat]
        source = (seat + 1) % 4  # passing right: each seat receives from the seat on its left
        assert view.passed is not None and sorted(view.passed) == sorted(passed)
        assert view.received is not None and sorted(view.received) == sorted(deal.passes()[source])
        expected = (dealt[seat] & ~bench.mask(passed)) | bench.mask(deal.passes()[source])
        for s, card in deal.plays():
            if s == seat:
                expected &= ~(1 << card)
        assert view.hand.mask == expected
        assert [c for t in view.tricks for c in t.cards] + list(view.trick.cards) == [c for _, c in deal.plays()]
        deal.apply(rng.choice(deal.state.legal_actions()))


def test_a_duplicate_deal_against_a_small_ismcts(bench: ModuleType) -> None:
    args = argparse.Namespace(player="easy", budget=None, simulations=20, uct_c=2.0, seed=3)
    for index in (0, 1):  # a pass to the left (the passing defect's case) and one to the right
        result = bench.play_deal((index, args))
        assert result["direction"] == ("left", "right")[index]
        assert len(result["points"]) == 2
        for points in result["points"]:
            assert sum(points) in (26, 78)
        assert len(result["our_pass"]) == 4 and len(result["os_pass"]) == 4 * 3
        assert len(result["our_play"]) == len(result["os_play"]) == 2 * 26

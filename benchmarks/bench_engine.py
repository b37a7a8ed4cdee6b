"""Rules-engine speed: full random hands per second, beside OpenSpiel's ``hearts``.

Every figure is one core, uniform random legal decisions, the same rules on both sides
(standard Hearts: no points on the first trick, hearts must be broken, Q♠ does not break
hearts, the 2♣ opens, no J♦ bonus). A "hand" is everything from the deal to the score:
the deal, the pass (three hands in four: our cycle is left, right, across, hold, and
OpenSpiel draws its direction among the same four), 52 plays and the scoring.

Rows printed:

* ``HandState (public)``: ``HandState.deal`` + ``pass_cards`` + ``legal_plays`` + ``play``,
  the checked API that every client, player and record goes through (events included).
* ``Game (public)``: the same through :class:`~hearts.core.game.Game` (totals, next deal).
* ``HandState (lean)``: ``legal_mask`` + ``advance``, the unchecked path search uses.
* ``OpenSpiel (python)``: ``pyspiel.load_game("hearts", ...)`` driven through its Python API
  (uniform legal actions at every node: the pass direction and the deal, which are chance
  nodes, then the pass, one card per action, and the play).

Then microseconds per decision, the memory of one mid-hand state and the cost of ``copy()``.
Times are CPU seconds of this process (``time.process_time``), the best of ``--repeat`` runs.

Run: ``python3 benchmarks/bench_engine.py [--hands N] [--repeat R] [--json FILE] [--no-openspiel]``
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from hearts.core import CardSet, Game, HandState, Phase, Rules, cards_of
from hearts.core.rules import MoonOption, MoonScoring

#: The rules both engines play by: OpenSpiel's defaults, except that Q♠ does not break hearts
#: (the printed rule, and ours).
OPENSPIEL_PARAMS = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "can_lead_hearts_instead_of_qs": False,
    "must_break_hearts": True,
    "qs_breaks_hearts": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
}
RULES = Rules.preset("standard")

#: The clock every figure is taken with: this process's CPU time, so that other work on a
#: shared machine (which only delays us) does not count, as a wall clock would.
clock = time.process_time


def run_handstate_public(hands: int, seed: int) -> int:
    """Play ``hands`` random hands through HandState's checked API; return the decisions made."""
    rules = RULES
    rng = random.Random(seed)
    choice, sample = rng.choice, rng.sample
    count = rules.pass_count
    decisions = 0
    PLAY = Phase.PLAY  # a local, as in every driver here: Phase.PLAY costs ~0.1 us a read
    for number in range(hands):
        hand = HandState.deal(rules, rng, number)  # the standard cycle: left, right, across, hold
        if hand.phase is Phase.PASS:
            for seat in range(rules.players):
                hand.pass_cards(seat, sample(cards_of(hand.hands[seat]), count))
            decisions += rules.players
        while hand.phase is PLAY:
            hand.play(choice(hand.legal_plays()))
            decisions += 1
        if hand.phase is Phase.MOON_CHOICE:  # not with the standard moon; kept for other rules
            hand.choose_moon(hand.to_move[0], MoonOption.ADD_TO_OTHERS)
    return decisions


def run_game_public(hands: int, seed: int) -> int:
    """The same through :class:`Game`: games to 100 points, new games until ``hands`` hands are done."""
    rules = RULES
    assert rules.moon is not MoonScoring.SHOOTER_CHOOSES
    rng = random.Random(seed)
    choice, sample = rng.choice, rng.sample
    count = rules.pass_count
    decisions = done = 0
    game_seed = 0
    PLAY, PASS = Phase.PLAY, Phase.PASS
    while done < hands:
        game = Game(rules, seed=game_seed)
        game_seed += 1
        while not game.winners and done < hands:
            hand = game.hand  # the game deals the next hand once this one is scored
            if hand.phase is PASS:
                for seat in range(rules.players):
                    game.pass_cards(seat, sample(cards_of(hand.hands[seat]), count))
                decisions += rules.players
            while hand.phase is PLAY:
                game.play(choice(game.legal_plays()))
                decisions += 1
            done += 1
    return decisions


def run_handstate_lean(hands: int, seed: int) -> int:
    """``legal_mask`` + ``advance`` (the pass still through ``pass_cards``, with a CardSet)."""
    rules = RULES
    rng = random.Random(seed)
    choice, sample = rng.choice, rng.sample
    count = rules.pass_count
    decisions = 0
    PLAY = Phase.PLAY
    for number in range(hands):
        hand = HandState.deal(rules, rng, number)
        if hand.phase is Phase.PASS:
            for seat in range(rules.players):
                picked = 0
                for c in sample(cards_of(hand.hands[seat]), count):
                    picked |= 1 << c
                hand.pass_cards(seat, CardSet(picked))
            decisions += rules.players
        advance, legal_mask = hand.advance, hand.legal_mask
        while hand.phase is PLAY:
            advance(choice(cards_of(legal_mask())))
            decisions += 1
    return decisions


def run_openspiel(hands: int, seed: int) -> int:
    """OpenSpiel's hearts through its Python API, uniform random actions at every node.

    Every chance node of OpenSpiel's hearts (the pass direction, then each card dealt) is uniform
    over its legal actions, so drawing from ``legal_actions()`` there samples it exactly, and is
    the fastest way through its API: drawing from ``chance_outcomes()`` instead (a list of
    (action, probability) pairs) roughly halves OpenSpiel's figure.
    """
    import pyspiel

    game = pyspiel.load_game("hearts", OPENSPIEL_PARAMS)
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        state.returns()
        decisions += len(state.history()) - CHANCE_ACTIONS
    return decisions


#: OpenSpiel's chance actions per hand: the pass direction, then the 52 cards dealt one by one.
CHANCE_ACTIONS = 1 + 52


def measure(
    runners: list[tuple[str, Callable[[int, int], int]]], hands: int, repeat: int, seed: int
) -> dict[str, dict[str, float]]:
    """Best of ``repeat`` runs per path (the least disturbed by other work on the machine).

    The paths take turns, round after round, so that a busy spell on a shared machine falls on
    all of them alike rather than on whichever ran during it: the ratios stay fair.
    """
    best = {name: float("inf") for name, _ in runners}
    decisions = {name: 0 for name, _ in runners}
    for r in range(repeat):
        for name, fn in runners:
            gc.collect()
            start = clock()
            decisions[name] = fn(hands, seed + r)
            best[name] = min(best[name], clock() - start)
    return {
        name: {
            "hands": hands,
            "seconds": best[name],
            "hands_per_second": hands / best[name],
            "decisions_per_hand": decisions[name] / hands,
            "us_per_decision": best[name] / decisions[name] * 1e6,
        }
        for name, _ in runners
    }


def mid_hand_state(seed: int = 5) -> HandState:
    """A state after the pass and five tricks plus two cards: a typical search root."""
    rng = random.Random(seed)
    hand = HandState.deal(RULES, rng, 0)
    for seat in range(4):
        hand.pass_cards(seat, rng.sample(cards_of(hand.hands[seat]), 3))
    for _ in range(22):
        hand.play(rng.choice(hand.legal_plays()))
    return hand


def deep_size(obj: object, seen: set[int] | None = None) -> int:
    """``sys.getsizeof`` summed over the objects a state owns; shared singletons (rules, enums,
    the 52 Card instances, small ints, None/True/False) are counted nowhere."""
    from enum import Enum

    from hearts.core.cards import CARDS

    if seen is None:
        seen = {id(c) for c in CARDS}
    if id(obj) in seen or obj is None or isinstance(obj, (bool, Enum, Rules)):
        return 0
    if isinstance(obj, int) and -5 <= obj <= 256:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, (list, tuple)):
        size += sum(deep_size(x, seen) for x in obj)
    elif hasattr(obj, "__slots__"):
        for cls in type(obj).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(obj, name):
                    size += deep_size(getattr(obj, name), seen)
    return size


def per_call_us(fn: Callable[[], object], calls: int, repeat: int = 3) -> float:
    """Microseconds per call of ``fn``, best of ``repeat`` runs of ``calls`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        for _ in range(calls):
            fn()
        best = min(best, clock() - start)
    return best / calls * 1e6


def memory_and_copy(repeat_copies: int = 20000) -> dict[str, float]:
    """Bytes of one mid-hand state (getsizeof sum and tracemalloc per copy) and copy() microseconds."""
    state = mid_hand_state()
    out: dict[str, float] = {"state_bytes_getsizeof": deep_size(state)}
    copies = []
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(1000):
        copies.append(state.copy())
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del copies
    out["copy_bytes_tracemalloc"] = (after - before) / 1000
    card = cards_of(state.legal_mask())[0]
    out["copy_us"] = per_call_us(state.copy, repeat_copies)
    out["legal_mask_us"] = per_call_us(state.legal_mask, repeat_copies)
    out["copy_and_advance_us"] = per_call_us(lambda: state.copy().advance(card), repeat_copies)
    out["copy_and_play_us"] = per_call_us(lambda: state.copy().play(card), repeat_copies)
    return out


def openspiel_copy() -> dict[str, float]:
    """OpenSpiel's ``clone()`` of a comparable mid-hand state (its memory lives in C++: not measured)."""
    import pyspiel

    game = pyspiel.load_game("hearts", OPENSPIEL_PARAMS)
    rng = random.Random(5)
    state = game.new_initial_state()
    state.apply_action(1)  # the first chance node picks the pass direction: 1 is left
    actions = 0
    while actions < 12 + 22:  # the four passes of three cards, then 22 plays (as mid_hand_state)
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return {"clone_us": per_call_us(state.clone, 20000)}


def cpu_model() -> str:
    """The processor's name as Linux reports it (or the platform's word for it elsewhere)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per run (default 1000)")
    parser.add_argument(
        "--repeat", type=int, default=7, help="runs per row, taking turns; the best is kept (default 7)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel rows")
    args = parser.parse_args(argv)

    runners: list[tuple[str, Callable[[int, int], int]]] = [
        ("HandState (public)", run_handstate_public),
        ("Game (public)", run_game_public),
        ("HandState (lean)", run_handstate_lean),
    ]
    if not args.no_openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("pyspiel is not installed (pip install -e '.[bench]'): OpenSpiel rows skipped", file=sys.stderr)
        else:
            runners.append(("OpenSpiel (python)", run_openspiel))
    rows = measure(runners, args.hands, args.repeat, args.seed)

    base = rows.get("OpenSpiel (python)")
    print(f"Engine benchmark: {args.hands} random hands per run, best of {args.repeat}, one core of {cpu_model()}")
    print(f"{'path':<22}{'hands/s':>10}{'us/decision':>13}{'decisions/hand':>16}{'vs OpenSpiel':>14}")
    for name, r in rows.items():
        ratio = f"{r['hands_per_second'] / base['hands_per_second']:.2f}x" if base else "-"
        r["vs_openspiel"] = r["hands_per_second"] / base["hands_per_second"] if base else float("nan")
        print(
            f"{name:<22}{r['hands_per_second']:>10,.0f}{r['us_per_decision']:>13.2f}"
            f"{r['decisions_per_hand']:>16.1f}{ratio:>14}"
        )

    state = memory_and_copy()
    print()
    print("One mid-hand HandState (after the pass, 5 tricks and 2 cards):")
    print(f"  size (sys.getsizeof sum, shared objects excluded) {state['state_bytes_getsizeof']:>8,.0f} bytes")
    print(f"  size (tracemalloc, per copy)                      {state['copy_bytes_tracemalloc']:>8,.0f} bytes")
    print(f"  copy()                                            {state['copy_us']:>8.2f} us")
    print(f"  legal_mask()                                      {state['legal_mask_us']:>8.2f} us")
    print(f"  copy() + advance(card)                            {state['copy_and_advance_us']:>8.2f} us")
    print(f"  copy() + play(card)                               {state['copy_and_play_us']:>8.2f} us")
    if base:
        state.update(openspiel_copy())
        print(f"  OpenSpiel clone() of a comparable state           {state['clone_us']:>8.2f} us")

    figures: dict[str, Any] = {
        "machine": {
            "cpu": cpu_model(),
            "cores": os.cpu_count(),
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
            "processor": platform.processor() or platform.machine(),
            "platform": platform.platform(),
        },
        "hands_per_run": args.hands,
        "repeat": args.repeat,
        "paths": rows,
        "state": state,
    }
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(figures, fh, indent=2)
        print(f"\nfigures written to {args.json}")
    return figures


if __name__ == "__main__":
    main()

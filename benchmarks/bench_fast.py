"""The compiled core's speed: random hands, rollouts, both cores and start-up, beside OpenSpiel.

Rows printed:

* hands per second on one core (deal, pass, 52 plays, score), uniform random legal cards:
  ``hearts.fast.simulate`` (random, greedy and medium policies), OpenSpiel's C++ loop
  (``pyspiel.evaluate_bots`` with ``pyspiel.make_uniform_random_bot`` in every seat) and
  OpenSpiel through its Python API, with each one's ratio to OpenSpiel's C++ loop;
* rollouts per second from a mid-hand determinized position (``SeatView.world``), the unit of
  the search players: pure Python (``HandState.copy`` then random ``legal_mask``/``advance`` to
  the end) against ``hearts.fast.rollout`` (random and greedy) and ``rollout_worlds``;
* the search players' inner loop (``search_worlds``) at expert's settings: worlds per second;
* the same hands and rollouts on every core (numba ``parallel=True`` with ``prange``; wall clock);
* start-up: a fresh interpreter that imports ``hearts.fast`` and calls each kernel once, with an
  empty numba cache (the first run on a machine compiles) and with a warm one.

Single-core figures are CPU seconds of this process (``time.process_time``), the best of
``--repeat`` rounds in which every path takes its turn: on a shared machine other work only
delays us, and it falls on all paths alike, so the ratios stay fair. Both engines play the
same rules: OpenSpiel's ``hearts`` defaults with ``qs_breaks_hearts=False``, which is our
standard game (see benchmarks/bench_engine.py); the pass direction cycles left, right,
across, hold on our side and is drawn uniformly from the same four by OpenSpiel.

Run: ``python3 benchmarks/bench_fast.py [--hands N] [--rollouts N] [--repeat R] [--json FILE]
[--no-openspiel] [--no-startup]``
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

# OpenSpiel's hearts with our standard rules, the rules and the CPU clock: the engine benchmark's,
# so both benchmarks measure the same game the same way (this folder is on sys.path when run).
from bench_engine import OPENSPIEL_PARAMS, RULES, clock  # noqa: E402

from hearts.core import Game, HandState, Phase, cards_of

# -- hands ------------------------------------------------------------------------------------


def fast_hands(policy: str) -> Callable[[int, int], float]:
    def run(hands: int, seed: int) -> float:
        from hearts.fast import simulate

        start = clock()
        simulate(RULES, hands, policy, seed=seed)
        return clock() - start

    return run


def openspiel_cpp(hands: int, seed: int) -> float:
    """OpenSpiel's own C++ loop: ``evaluate_bots`` with a uniform random bot in every seat."""
    import pyspiel

    game = pyspiel.load_game("hearts", OPENSPIEL_PARAMS)
    bots = [pyspiel.make_uniform_random_bot(p, seed * 4 + p) for p in range(4)]
    start = clock()
    for i in range(hands):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)
    return clock() - start


def openspiel_python(hands: int, seed: int) -> float:
    """OpenSpiel through its Python API, drawing uniformly from ``legal_actions()`` at every node.

    Its chance nodes (the pass direction, each card dealt) are uniform, so this samples them
    exactly; it is OpenSpiel's fastest way through Python (as benchmarks/bench_engine.py drives it).
    """
    import pyspiel

    game = pyspiel.load_game("hearts", OPENSPIEL_PARAMS)
    choice = random.Random(seed).choice
    start = clock()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        state.returns()
    return clock() - start


# -- rollouts ----------------------------------------------------------------------------------


def search_root(seed: int = 5, cards: int = 5 * 4 + 2) -> HandState:
    """A determinized world after the pass and ``cards`` plays (five tricks and two cards), as a
    search player builds it."""
    game = Game(RULES, seed=seed)
    rng = random.Random(seed)
    for seat in range(4):
        game.pass_cards(seat, rng.sample(cards_of(game.hand.hands[seat]), 3))
    for _ in range(cards):
        game.play(rng.choice(game.legal_plays()))
    view = game.view(game.hand.turn)
    return view.world(game.hand.hands)


def python_rollouts(world: HandState) -> Callable[[int, int], float]:
    """The pure-Python baseline: copy the world, play random legal cards to the end, read the scores."""

    def run(n: int, seed: int) -> float:
        choice = random.Random(seed).choice
        start = clock()
        for _ in range(n):
            hand = world.copy()
            legal_mask, advance = hand.legal_mask, hand.advance
            while hand.phase is Phase.PLAY:
                advance(choice(cards_of(legal_mask())))
            hand.scores  # noqa: B018  (the rollout's result)
        return clock() - start

    return run


def fast_rollouts(world: HandState, policy: str) -> Callable[[int, int], float]:
    def run(n: int, seed: int) -> float:
        from hearts.fast import rollout

        start = clock()
        rollout(world, world.turn, policy, n, seed=seed)
        return clock() - start

    return run


def fast_candidates(world: HandState) -> Callable[[int, int], float]:
    """``rollout_candidates``: a search player's inner loop for one world (every legal card, the
    plain plan and the moon plan) in one call; ``n`` counts rollouts."""

    def run(n: int, seed: int) -> float:
        from hearts.fast import rollout_candidates

        cards = [int(c) for c in world.legal_plays()]
        plans = [0, 1 << world.turn]
        calls = max(1, n // (len(cards) * len(plans)))
        start = clock()
        for i in range(calls):
            rollout_candidates(world, cards, plans, seed=seed + i)
        return (clock() - start) * n / (calls * len(cards) * len(plans))

    return run


def fast_rollout_worlds(world: HandState, worlds: int = 50) -> Callable[[int, int], float]:
    """``rollout_worlds`` with ``worlds`` copies of the root, ``n / worlds`` rollouts each (one call)."""

    def run(n: int, seed: int) -> float:
        from hearts.fast import rollout_worlds

        many = [world] * worlds
        start = clock()
        rollout_worlds(many, "greedy", max(1, n // worlds), seed=seed)
        return clock() - start

    return run


def expert_search(world: HandState, batch: int = 16) -> Callable[[int, int], float]:
    """The search players' inner loop as expert runs it, one batch a call: ``batch`` worlds (expert's
    ``world_batch``), every legal card, this seat rolling out with medium's play and moon plan
    (``medium-moon``) and the others with medium, 10% noise, expert's 24 rollouts a world shared
    out over the cards (at most 8 each), common random numbers. ``n`` is worlds; the figure is worlds a second."""
    import numpy as np

    from hearts.fast import kernels as k
    from hearts.fast import rules_array, state_array

    R = rules_array(RULES)
    S = state_array(world)
    cards = np.array(sorted(int(c) for c in world.legal_plays()), dtype=np.int64)
    me = world.turn
    plans = np.array([[k.POLICY_MEDIUM_MOON if s == me else k.POLICY_MEDIUM for s in range(4)]], dtype=np.int64)
    reps = max(1, min(8, 24 // len(cards)))
    worlds = np.stack([S] * batch)
    totals = np.zeros(4, dtype=np.int64)

    def run(n: int, seed: int) -> float:
        rng = np.random.default_rng(seed)
        calls = max(1, n // batch)
        seeds = [rng.integers(0, 2**31, size=(batch, reps)) for _ in range(calls)]
        start = clock()
        for s in seeds:
            k.search_worlds(worlds, R, cards, plans, 0.1, s, k.CHOICE_BEST, totals)
        return clock() - start

    return run


# -- measuring -----------------------------------------------------------------------------------


def measure(
    runners: list[tuple[str, Callable[[int, int], float], int]], repeat: int, seed: int
) -> dict[str, dict[str, float]]:
    """Best of ``repeat`` rounds per path; every path takes its turn in every round."""
    best: dict[str, float] = {name: float("inf") for name, _, _ in runners}
    for r in range(repeat):
        for name, fn, count in runners:
            gc.collect()
            best[name] = min(best[name], fn(count, seed + r))
    return {
        name: {"count": count, "seconds": best[name], "per_second": count / best[name]} for name, _, count in runners
    }


def parallel_figures(hands: int, rollouts: int, world: HandState) -> dict[str, Any]:
    """Hands and rollouts on every core with numba's ``prange`` (wall clock, best of 3)."""
    import numba
    import numpy as np

    from hearts.fast import kernels as k
    from hearts.fast import rules_array, simulate, state_array

    threads = numba.get_num_threads()
    simulate(RULES, 64, "random", seed=1, parallel=True)  # compile or load from the cache
    best = float("inf")
    cores_used = 0.0
    for r in range(3):
        start, cpu = time.perf_counter(), time.process_time()
        simulate(RULES, hands, "random", seed=r, parallel=True, chunks=32 * threads)
        wall = time.perf_counter() - start
        if wall < best:
            best, cores_used = wall, (time.process_time() - cpu) / wall
    R = rules_array(RULES)
    worlds = np.stack([state_array(world)] * (8 * threads))
    pol = np.full(4, k.POLICY_GREEDY, dtype=np.int64)
    k.rollout_worlds_parallel(worlds, R, pol, 0.1, 1, 1, 0)
    best_roll = float("inf")
    per_world = max(1, rollouts // len(worlds))
    for r in range(3):
        start = time.perf_counter()
        k.rollout_worlds_parallel(worlds, R, pol, 0.1, per_world, r, 0)
        best_roll = min(best_roll, time.perf_counter() - start)
    return {
        "threads": threads,
        "cores_used": cores_used,
        "load_average": os.getloadavg()[0],
        "hands_per_second": hands / best,
        "greedy_rollouts_per_second": per_world * len(worlds) / best_roll,
    }


_STARTUP = "import time; t = time.perf_counter(); import hearts.fast as f; f.warm_up(); print(time.perf_counter() - t)"


def startup_figures() -> dict[str, float]:
    """Seconds for a fresh interpreter to import hearts.fast and call each kernel once, cold then warm
    (wall clock, and the child's CPU time, which a busy machine does not inflate)."""
    import resource

    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold_cache", "warm_cache"):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", _STARTUP], env=env, capture_output=True, text=True, check=True)
            out[f"{label}_s"] = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            out[f"{label}_cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            out[f"{label}_in_python_s"] = float(done.stdout.strip())
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per compiled run (default 200000)")
    parser.add_argument("--openspiel-hands", type=int, default=5_000, help="hands per OpenSpiel C++ run")
    parser.add_argument("--python-hands", type=int, default=500, help="hands per OpenSpiel Python-API run")
    parser.add_argument("--rollouts", type=int, default=100_000, help="compiled rollouts per run")
    parser.add_argument("--python-rollouts", type=int, default=2_000, help="pure-Python rollouts per run")
    parser.add_argument("--worlds", type=int, default=2_000, help="worlds of expert's search per run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--no-startup", action="store_true")
    args = parser.parse_args(argv)

    import hearts.fast as fast

    if not fast.JIT_ENABLED:
        print("warning: numba is absent or disabled: the 'fast' rows run as plain Python", file=sys.stderr)
    fast.warm_up()
    openspiel = not args.no_openspiel
    if openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("pyspiel is not installed (pip install -e '.[bench]'): OpenSpiel rows skipped", file=sys.stderr)
            openspiel = False

    runners: list[tuple[str, Callable[[int, int], float], int]] = [
        ("fast random", fast_hands("random"), args.hands),
        ("fast greedy", fast_hands("greedy"), args.hands),
        ("fast medium", fast_hands("medium"), max(1, args.hands // 4)),
    ]
    if openspiel:
        runners += [
            ("OpenSpiel C++ evaluate_bots", openspiel_cpp, args.openspiel_hands),
            ("OpenSpiel Python API", openspiel_python, args.python_hands),
        ]
    hands = measure(runners, args.repeat, args.seed)
    world = search_root()
    leading = search_root(cards=5 * 4)  # the seat leads trick 6: a search with many candidates
    rolls = measure(
        [
            ("python random (copy + advance)", python_rollouts(world), args.python_rollouts),
            ("fast random", fast_rollouts(world, "random"), args.rollouts),
            ("fast greedy", fast_rollouts(world, "greedy"), args.rollouts),
            ("fast greedy, 50 worlds a call", fast_rollout_worlds(world), args.rollouts),
            (
                f"rollout_candidates, {len(leading.legal_plays())} cards x 2 plans",
                fast_candidates(leading),
                args.rollouts // 4,
            ),
        ],
        args.repeat,
        args.seed,
    )
    search = measure([("expert's search, worlds", expert_search(leading), args.worlds)], args.repeat, args.seed)
    parallel = parallel_figures(args.hands * 2, args.rollouts * 2, world) if fast.JIT_ENABLED else {}
    startup = {} if args.no_startup else startup_figures()

    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, JIT {fast.JIT_ENABLED}")
    print("\nRandom full hands (deal, pass, play, score), one core, CPU time:")
    base = hands.get("OpenSpiel C++ evaluate_bots", {}).get("per_second")
    for name, row in hands.items():
        ratio = f"  {row['per_second'] / base:6.2f}x OpenSpiel C++" if base else ""
        print(f"  {name:32} {row['per_second']:>12,.0f} hands/s{ratio}")
    print(
        f"\nRollouts from a mid-hand world ({len(world.tricks)} tricks and {len(world.trick)} cards played), one core:"
    )
    py = rolls["python random (copy + advance)"]["per_second"]
    for name, row in rolls.items():
        print(f"  {name:36} {row['per_second']:>12,.0f} rollouts/s  {row['per_second'] / py:8.1f}x pure Python")
    for row in search.values():
        print(f"\nThe search's inner loop at expert's settings (16 worlds a call, one core): {row['per_second']:,.0f} worlds/s")
    if parallel:
        print(
            f"\nAll cores ({parallel['threads']} numba threads, prange), wall clock; the threads got "
            f"{parallel['cores_used']:.2f} cores' CPU time (load average {parallel['load_average']:.1f}):"
        )
        print(f"  {'fast random hands':32} {parallel['hands_per_second']:>12,.0f} hands/s", end="")
        print(f"  {parallel['hands_per_second'] / base:6.2f}x OpenSpiel C++ (one core)" if base else "")
        print(f"  {'fast greedy rollouts':32} {parallel['greedy_rollouts_per_second']:>12,.0f} rollouts/s")
    if startup:
        print("\nStart-up (fresh interpreter: import hearts.fast, call each kernel once):")
        for label, key in (("empty numba cache (compiles)", "cold_cache"), ("warm numba cache", "warm_cache")):
            print(f"  {label:32} {startup[key + '_s']:8.2f} s wall, {startup[key + '_cpu_s']:6.2f} s CPU")
    figures = {"hands": hands, "rollouts": rolls, "search": search, "parallel": parallel, "startup": startup, "jit": fast.JIT_ENABLED}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=2)
    return figures


if __name__ == "__main__":
    main()

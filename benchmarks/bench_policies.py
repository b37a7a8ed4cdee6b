"""Duplicate duels of the compiled rollout policies (hearts.fast.kernels): which models play better.

    python benchmarks/bench_policies.py                         # medium and greedy duels
    python benchmarks/bench_policies.py --pairs medium-moon:medium --hands 200000 --eps 0.1

Every deal is played twice with the two policies in alternate seats, then swapped (seats 0 and 2
against 1 and 3), every hand of the standard game (the pass cycle included) from the same
random numbers; the figure is the first policy's payoff per seat-deal (the mean of the other
seats' points minus its own) with a 95% interval over deals. ``--eps`` is the policies' chance
of a random card, as in the search's rollouts (0.1). Compiled without numba's disk cache, so an
edit to the kernels is always measured (a cached caller can keep a stale copy of its callees).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from hearts.core import Rules
from hearts.fast import kernels as k
from hearts.fast.bridge import POLICIES, rules_array


@njit
def duel(R: np.ndarray, first: int, second: int, hands: int, eps: float, seed: int) -> np.ndarray:
    n = R[k.R_PLAYERS]
    S = np.zeros(k.STATE_SIZE, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    passed = np.zeros(k.MAX_PLAYERS, dtype=np.int64)
    row = np.zeros(k.MAX_PLAYERS, dtype=np.int64)
    no_trace = np.zeros(0, dtype=np.int64)
    out = np.zeros(hands)
    pol = np.zeros(n, dtype=np.int64)
    for h in range(hands):
        payoff = 0.0
        seats = 0
        for swap in range(2):
            for s in range(n):
                pol[s] = first if (s + swap) % 2 == 0 else second
            k.seed_state(S, seed + h)  # both seatings meet the same deal and luck
            k.play_hand(S, R, h, pol, eps, k.CHOICE_ADD_TO_OTHERS, row, deck, passed, no_trace)
            total = 0
            for s in range(n):
                total += row[s]
            for s in range(n):
                if pol[s] == first:
                    payoff += (total - row[s]) / (n - 1) - row[s]
                    seats += 1
        out[h] = payoff / seats
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pairs", default="medium:greedy,medium-moon:medium,greedy:random", help="comma-separated first:second"
    )
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--eps", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    R = rules_array(Rules())
    for pair in args.pairs.split(","):
        a, _, b = pair.partition(":")
        start = time.perf_counter()
        x = duel(R, POLICIES[a], POLICIES[b], args.hands, args.eps, args.seed)
        half = 1.96 * x.std() / len(x) ** 0.5
        print(
            f"{a} vs {b}: {x.mean():+.3f} ± {half:.3f} per seat-deal over {args.hands} deals "
            f"(eps {args.eps}, {time.perf_counter() - start:.1f} s)"
        )


if __name__ == "__main__":
    main()

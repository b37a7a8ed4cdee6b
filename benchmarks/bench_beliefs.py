"""How well the search players' sampled worlds know where the hidden cards are, with and without inference.

    python benchmarks/bench_beliefs.py                          # medium opponents, 20 hands (about 30 s)
    python benchmarks/bench_beliefs.py --opponents hard --games 8

Seeded games of four ``--opponents`` players; at seat 0's plays from the fourth to the
eleventh trick of each first hand, ``--worlds`` deals of the unseen cards are sampled
(``likely_hands``) and weighted by :func:`hearts.fast.kernels.play_log_likelihoods` under the
medium policy (the search's model of the other seats) with each pair of per-miss factors (follow
or discard / lead, the config's ``miss_weight`` / ``lead_miss_weight``; 1 / 1 is no inference).
Printed per pair: "placed", the weighted share of unseen cards the worlds put with their real
holder; "Q♠", the weight on worlds that give Q♠ to her real holder (positions where she is unseen);
"ESS", the effective number of worlds the weights leave. The figures that chose the factors:
benchmarks/results/history/2026-12-01-inference.md.
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np

from hearts.core import Game, Phase, Rules
from hearts.fast import kernels as k
from hearts.fast.bridge import rules_array
from hearts.players import make_player
from hearts.players.knowledge import QS, Knowledge
from hearts.players.sampling import likely_hands

#: Per-miss factors (follow or discard, lead) tried; (0.15, 0.4) is hard's and expert's.
FACTORS = [(1.0, 1.0), (0.5, 0.7), (0.3, 0.5), (0.15, 0.4), (0.05, 0.3)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponents", default="medium", help="the level in every seat")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=300)
    args = parser.parse_args()
    rules = Rules()
    R = rules_array(rules)
    n = rules.players
    placed: dict[tuple[float, float], list[float]] = {f: [] for f in FACTORS}
    queen: dict[tuple[float, float], list[float]] = {f: [] for f in FACTORS}
    ess: dict[tuple[float, float], list[float]] = {f: [] for f in FACTORS}
    for g in range(args.games):
        game = Game(rules, seed=1000 + g)
        players = [make_player(args.opponents, seed=s) for s in range(n)]
        rng = random.Random(g)
        while game.hand.number == 0 and not game.is_over:
            seat = game.to_move[0]
            view = game.view(seat)
            if view.phase is Phase.PLAY and seat == 0 and 3 <= len(view.tricks) <= 10:
                kn = Knowledge.of(view)
                played_by = [0] * n
                plays = []
                for t in (*view.tricks, view.trick):
                    for s, c in t.plays(n):
                        played_by[s] |= 1 << c
                        plays.append(int(c))
                worlds = [likely_hands(kn, rng) for _ in range(args.worlds)]
                starts = np.array([[w[s] | played_by[s] for s in range(n)] for w in worlds], dtype=np.int64)
                true = game.hand.hands
                unseen = kn.unseen
                right = np.array(
                    [sum((w[s] & true[s] & unseen).bit_count() for s in range(n) if s) for w in worlds], dtype=float
                ) / max(1, unseen.bit_count())
                holder = next((s for s in range(n) if true[s] >> QS & 1), -1)
                for f in FACTORS:
                    logw = k.play_log_likelihoods(
                        starts, R, np.array(plays, dtype=np.int64), 0, math.log(f[0]), math.log(f[1]), k.POLICY_MEDIUM
                    )
                    w = np.exp(logw - logw.max())
                    w /= w.sum()
                    placed[f].append(float((w * right).sum()))
                    ess[f].append(float(1 / (w**2).sum()))
                    if unseen >> QS & 1 and holder > 0:
                        queen[f].append(
                            float(sum(wi for wi, wd in zip(w, worlds, strict=True) if wd[holder] >> QS & 1))
                        )
            game.apply(players[seat].decide(view).move)
    print(
        f"{args.opponents} opponents, {args.games} hands, {len(placed[FACTORS[0]])} positions, {args.worlds} worlds each"
    )
    print(f"{'factors (follow / lead)':<26} {'placed':>7} {'Q♠':>7} {'ESS':>6}")
    for f in FACTORS:
        label = "none" if f == (1.0, 1.0) else f"{f[0]:g} / {f[1]:g}"
        q = f"{np.mean(queen[f]):.3f}" if queen[f] else "-"  # Q♠ may have been seen in every position
        print(f"{label:<26} {np.mean(placed[f]):>7.3f} {q:>7} {np.mean(ess[f]):>6.0f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Train a small Hearts policy with the environment, then measure it in a duplicate match.

The policy is linear and softmax: one weight per (observation feature, action), the
illegal actions masked out. It learns by REINFORCE with a running-mean baseline
from whole hands played in :class:`hearts.env.HeartsGymEnv` against computer
players (random by default), its seat drawn anew each hand; the return is the
hand's score (points are bad) divided by 26. NumPy only.

The evaluation is duplicate: each deal is played once with the trained policy in
each seat in turn and once with a random player in that seat instead, against the
same opponents with the same seeds, so the luck of the cards cancels; the
figures are points per hand with 95% intervals over deals.

    python3 examples/train_policy.py                 # the documented run (docs/env.md)
    python3 examples/train_policy.py --smoke         # a few seconds, for CI
    python3 examples/train_policy.py --hands 50000 --opponents easy --save policy.npz
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence

import numpy as np

from hearts.env import HeartsGymEnv, PolicyPlayer
from hearts.env.table import Table
from hearts.players import Player, make_player
from hearts.players.registry import LEVELS


class LinearPolicy:
    """Softmax over ``observation @ weights + bias`` restricted to the legal actions."""

    def __init__(self, features: int, actions: int) -> None:
        self.weights = np.zeros((features, actions))
        self.bias = np.zeros(actions)

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = observation @ self.weights + self.bias
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def sample(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        p = self.probabilities(observation, mask)
        return int(rng.choice(len(p), p=p))

    def greedy(self, observation: np.ndarray, mask: np.ndarray) -> int:
        logits = observation @ self.weights + self.bias
        return int(np.argmax(np.where(mask > 0, logits, -np.inf)))

    def save(self, path: str) -> None:
        np.savez(path, weights=self.weights, bias=self.bias)


class Adam:
    """The Adam optimiser for a list of arrays, updated in place (ascent: the gradients are to be maximised)."""

    def __init__(self, params: Sequence[np.ndarray], lr: float) -> None:
        self.params = list(params)
        self.lr = lr
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def step(self, grads: Sequence[np.ndarray], beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            m_hat = m / (1 - beta1**self.t)
            v_hat = v / (1 - beta2**self.t)
            p += self.lr * m_hat / (np.sqrt(v_hat) + eps)


def train(
    hands: int, opponents: str, seed: int, batch: int = 32, lr: float = 0.01, report_every: int = 0
) -> LinearPolicy:
    env = HeartsGymEnv(opponents=opponents, seat="random", episode="hand", reward="points")
    policy = LinearPolicy(env.observation_space.shape[0], env.action_space.n)
    optimiser = Adam([policy.weights, policy.bias], lr)
    rng = np.random.default_rng(seed)
    baseline = -6.5 / 26  # a random seat's expected share of the 26 points
    grad_w = np.zeros_like(policy.weights)
    grad_b = np.zeros_like(policy.bias)
    recent: list[float] = []
    start = time.perf_counter()
    for hand in range(1, hands + 1):
        observation, info = env.reset(seed=int(rng.integers(2**31)))
        steps: list[tuple[np.ndarray, np.ndarray]] = []  # (observation, onehot - p)
        total = 0.0
        done = False
        while not done:
            mask = info["action_mask"]
            p = policy.probabilities(observation, mask)
            action = int(rng.choice(len(p), p=p))
            g = -p
            g[action] += 1.0
            steps.append((observation, g))
            observation, reward, done, _, info = env.step(action)
            total += reward
        ret = total / 26.0
        advantage = ret - baseline
        baseline += 0.01 * (ret - baseline)
        for obs, g in steps:
            grad_w += np.outer(obs, g * advantage)
            grad_b += g * advantage
        recent.append(total)
        if hand % batch == 0:
            optimiser.step([grad_w / batch, grad_b / batch])
            grad_w[:] = 0.0
            grad_b[:] = 0.0
        if report_every and hand % report_every == 0:
            rate = hand / (time.perf_counter() - start)
            print(
                f"  hand {hand:6d}: mean points over the last {len(recent)} hands {-np.mean(recent):5.2f} ({rate:.0f} hands/s)"
            )
            recent = []
    return policy


# -- duplicate evaluation ---------------------------------------------------------------------


def play_hand(deal_seed: int, players: dict[int, Player], rules: str) -> tuple[int, ...]:
    """One hand through the engine with ``players`` in the seats; the hand's scores."""
    table = Table(rules, episode="hand")
    table.reset(np.random.default_rng(deal_seed))
    while not table.over:
        seat = table.next_seat
        assert seat is not None
        table.apply(players[seat].decide(table.view(seat)).move)
    scores = table.last_scores()
    assert scores is not None
    return scores


def seated(me: Player, seat: int, level: str, seeds: dict[int, int]) -> dict[int, Player]:
    """``me`` in ``seat`` and fresh players of ``level`` with the given seeds in the others."""
    table: dict[int, Player] = {s: make_player(level, seed=seed) for s, seed in seeds.items()}
    table[seat] = me
    return table


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation; deals are many)."""
    xs = np.asarray(values, dtype=float)
    if len(xs) < 2:
        return float(xs.mean()), float("nan")
    return float(xs.mean()), float(1.96 * xs.std(ddof=1) / math.sqrt(len(xs)))


def evaluate(policy: LinearPolicy, opponents: str, deals: int, seed: int, rules: str = "standard") -> dict[str, float]:
    """Duplicate: per deal and seat, the policy's score minus a random player's with everything else equal."""
    learner = PolicyPlayer(policy.greedy, name="linear-policy")
    n = Table(rules).players
    mine: list[float] = []
    theirs: list[float] = []
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        per_deal_mine = per_deal_theirs = 0.0
        for seat in range(n):
            # The same opponents, with the same seeds, face the policy and then a random player in this seat.
            opponent_seeds = {s: deal_seed * 10 + s for s in range(n) if s != seat}
            per_deal_mine += play_hand(deal_seed, seated(learner, seat, opponents, opponent_seeds), rules)[seat]
            stand_in = make_player("random", seed=deal_seed)
            per_deal_theirs += play_hand(deal_seed, seated(stand_in, seat, opponents, opponent_seeds), rules)[seat]
        mine.append(per_deal_mine / n)
        theirs.append(per_deal_theirs / n)
    m, m_ci = mean_ci(mine)
    r, r_ci = mean_ci(theirs)
    diff, diff_ci = mean_ci([a - b for a, b in zip(mine, theirs, strict=True)])
    return {
        "policy": m,
        "policy_ci": m_ci,
        "random": r,
        "random_ci": r_ci,
        "difference": diff,
        "difference_ci": diff_ci,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands to train on (default 20000)")
    parser.add_argument("--opponents", default="random", help="the level the policy trains against (default random)")
    parser.add_argument("--eval-deals", type=int, default=500, help="deals in each duplicate evaluation (default 500)")
    parser.add_argument(
        "--eval-against", default=None, help="levels to evaluate against, comma-separated (default random,easy)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="write the trained weights to this .npz file")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON as well")
    parser.add_argument("--smoke", action="store_true", help="a short run for CI: 200 hands, 8 deals")
    args = parser.parse_args(argv)
    if args.smoke:
        args.hands, args.eval_deals = 200, 8
    against = args.eval_against.split(",") if args.eval_against else [lv for lv in ("random", "easy") if lv in LEVELS]

    print(
        f"training a linear softmax policy by REINFORCE: {args.hands} hands against {args.opponents}, seed {args.seed}"
    )
    start = time.perf_counter()
    policy = train(
        args.hands, args.opponents, args.seed, report_every=max(args.hands // 10, 1) if not args.smoke else 0
    )
    print(f"trained in {time.perf_counter() - start:.1f} s")
    if args.save:
        policy.save(args.save)
        print(f"weights written to {args.save}")
    results = {}
    for level in against:
        start = time.perf_counter()
        r = evaluate(policy, level, args.eval_deals, args.seed + 1)
        results[level] = r
        print(
            f"duplicate vs {level} ({args.eval_deals} deals x {4} seats, {time.perf_counter() - start:.1f} s): "
            f"policy {r['policy']:.2f} ± {r['policy_ci']:.2f} points/hand, "
            f"random in its seat {r['random']:.2f} ± {r['random_ci']:.2f}, "
            f"difference {r['difference']:+.2f} ± {r['difference_ci']:.2f}"
        )
    if args.json:
        print(json.dumps({"hands": args.hands, "opponents": args.opponents, "seed": args.seed, "evaluation": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

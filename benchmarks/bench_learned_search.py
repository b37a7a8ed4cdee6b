"""The learned evaluation inside the search players (issue 20): a variant against the same level with
today's settings, 2-against-2 duplicate, worlds fixed (``--worlds``; on a loaded machine time budgets
say nothing), and the cost of a learned rollout against medium's.

Variants (``--variant``): ``prior`` (the model's card is the rule-based card the search keeps);
with medium's card as the prior, ``own`` (the searching seat plays the model in the rollouts),
``all`` (every seat does) and ``opp`` (the other seats do); ``prior+own``; ``none``: the level's
defaults. ``--base`` gives the old side's options the same way (default ``medium-prior``: the level
as it was before the learned prior); ``--base-worlds`` its worlds (to compare at equal time, scale
the worlds by the rollout cost that ``--cost`` prints).

    python benchmarks/bench_learned_search.py --level hard --variant prior --hands 200 --worlds 200
    python benchmarks/bench_learned_search.py --cost
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from hearts.players.expert import ExpertPlayer
from hearts.players.hard import HardPlayer
from hearts.players.search import SearchPlayer

LEVELS = {"hard": HardPlayer, "expert": ExpertPlayer}
VARIANTS: dict[str, dict[str, str]] = {
    "none": {},
    "prior": {"prior": "learned"},
    "medium-prior": {"prior": "medium"},
    "own": {"prior": "medium", "rollout_policy": "learned"},
    "all": {"prior": "medium", "rollout_policy": "learned", "opponent_policy": "learned"},
    "opp": {"prior": "medium", "opponent_policy": "learned"},
    "prior+own": {"prior": "learned", "rollout_policy": "learned"},
}


def _make(side: str, seed: int | None) -> SearchPlayer:
    level = LEVELS[os.environ["BENCH_LS_LEVEL"]]
    options = VARIANTS[os.environ[f"BENCH_LS_{side}"]]
    return level(seed=seed, worlds=int(os.environ[f"BENCH_LS_{side}_WORLDS"]), **options)  # type: ignore[arg-type]


def new(seed: int | None = None) -> SearchPlayer:
    """The variant (a ``py:`` factory)."""
    return _make("NEW", seed)


def old(seed: int | None = None) -> SearchPlayer:
    """The level with the base options (a ``py:`` factory)."""
    return _make("OLD", seed)


def rollout_cost() -> dict[str, float]:
    """CPU microseconds per whole-hand rollout from a fresh deal, per policy of every seat (the best
    of five rounds: CPU time, as the machine is shared)."""
    import numpy as np

    from hearts.core import Rules
    from hearts.fast import kernels as k
    from hearts.fast.bridge import rules_array
    from hearts.players.weights import load_model

    model = load_model()
    R = rules_array(Rules())
    S0 = np.zeros(k.STATE_SIZE, dtype=np.int64)
    np.random.seed(1)
    k.deal(S0, R, np.zeros(52, dtype=np.int64))
    k.start_play(S0, R)
    worlds = np.repeat(S0[None, :], 200, axis=0)
    seeds = np.arange(800, dtype=np.int64).reshape(200, 4)
    cards = np.array([-1], dtype=np.int64)
    totals = np.zeros(4, dtype=np.int64)
    out = {}
    for name, mine, theirs in (
        ("medium", k.POLICY_MEDIUM, k.POLICY_MEDIUM),
        ("learned own seat", k.POLICY_LEARNED, k.POLICY_MEDIUM),
        ("learned every seat", k.POLICY_LEARNED, k.POLICY_LEARNED),
    ):
        plans = np.array([[mine, theirs, theirs, theirs]], dtype=np.int64)
        args = (R, cards, plans, 0.1)
        k.search_worlds_with(worlds[:1], *args, seeds[:1], k.CHOICE_BEST, totals, model.weights, model.margin, 0)
        rounds = []
        for _ in range(5):
            began = time.process_time()
            for _ in range(3):
                k.search_worlds_with(worlds, *args, seeds, k.CHOICE_BEST, totals, model.weights, model.margin, 0)
            rounds.append((time.process_time() - began) / 3 / seeds.size * 1e6)
        out[name] = min(rounds)
    return out


def main(argv: list[str] | None = None) -> int:
    from hearts.sim.tournament import TournamentConfig, run_tournament

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", choices=sorted(LEVELS), default="hard")
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="prior")
    ap.add_argument("--base", choices=sorted(VARIANTS), default="medium-prior")
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--base-worlds", type=int, default=0, help="the old side's worlds (default: --worlds)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--cost", action="store_true", help="print the rollout cost per policy instead")
    args = ap.parse_args(argv)
    if args.cost:
        for name, us in rollout_cost().items():
            print(f"{name}: {us:.1f} us a whole-hand rollout")
        return 0
    os.environ.update(
        BENCH_LS_LEVEL=args.level,
        BENCH_LS_NEW=args.variant,
        BENCH_LS_OLD=args.base,
        BENCH_LS_NEW_WORLDS=str(args.worlds),
        BENCH_LS_OLD_WORLDS=str(args.base_worlds or args.worlds),
    )
    here = Path(__file__).resolve()
    players = (f"new=py:{here}:new", f"old=py:{here}:old")
    result = run_tournament(TournamentConfig(players=players, hands=args.hands, seed=args.seed), jobs=args.jobs)
    for f in result.figures():
        p = f.payoff
        print(
            f"{f.label}: payoff {p.mean:+.2f} [{p.low:+.2f}, {p.high:+.2f}] a seat-deal over {p.n} deals;"
            f" {1000 * f.decision_mean.mean:.0f} ms a decision"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Speed of the computer players: seconds per decision for every level, rollouts per second.

    python benchmarks/bench_players.py                     # every level, defaults (about 1-2 minutes)
    python benchmarks/bench_players.py --hands 1 --levels medium,hard --budget 0.1
    python benchmarks/bench_players.py --json players.json

Decisions are taken along real games: every seat of a table is the measured level, and each
decision it makes (passes and plays, "only legal card" plays included; they are timed apart)
is timed with a wall clock, since the players' budgets are wall-clock. Rollouts per second are
measured three ways: the greedy rollout policy playing whole hands from the deal (CPU time)
compiled, the medium policy compiled (the search's inner loop), and inside the search players' decisions (rollouts they report
over the time they took, sampling worlds included).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from typing import Any

from hearts.core import Game, HandState, Phase, Rules
from hearts.players import make_player
from hearts.players.search import SearchPlayer


def bench_compiled_rollouts(hands: int, epsilon: float, policy: str = "greedy") -> float:
    """Full hands per CPU second of a compiled rollout policy (``greedy``, or ``medium``: the
    search's default), from the deal."""
    from hearts.players.search import compiled_kernels

    kern = compiled_kernels()
    import numpy as np

    from hearts.fast.bridge import POLICIES, rules_array, state_array

    rules = Rules.preset("no-passing")
    rng = random.Random(1)
    worlds = np.stack([state_array(HandState.deal(rules, rng)) for _ in range(hands)])
    R = rules_array(rules)
    policies = np.full((1, rules.players), POLICIES[policy], dtype=np.int64)
    seeds = np.arange(hands, dtype=np.int64)[:, None]
    args = (R, np.array([-1], dtype=np.int64), policies, epsilon)
    kern.search_worlds(worlds[:1], *args, seeds[:1], kern.CHOICE_BEST, np.zeros(rules.players, dtype=np.int64))
    start = time.process_time()
    kern.search_worlds(worlds, *args, seeds, kern.CHOICE_BEST, np.zeros(rules.players, dtype=np.int64))
    return hands / (time.process_time() - start)


def bench_level(level: str, hands: int, budget: float | None, seed: int) -> dict[str, Any]:
    """Time every decision of ``level`` over ``hands`` hands with the level in every seat."""
    rules = Rules()
    plays: list[float] = []
    passes: list[float] = []
    forced: list[float] = []
    rollouts = 0
    search_time = 0.0
    for h in range(hands):
        game = Game(rules, seed=seed + h)
        players = [make_player(level, seed=seed * 10 + s, time_budget=budget) for s in range(rules.players)]
        while not game.finished:
            for seat in game.to_move:
                view = game.view(seat)
                start = time.perf_counter()
                decision = players[seat].decide(view)
                took = time.perf_counter() - start
                player = players[seat]
                if isinstance(player, SearchPlayer) and player.last_rollouts:
                    rollouts += player.last_rollouts
                    search_time += took
                if game.phase is Phase.PASS:
                    passes.append(took)
                elif len(view.legal) == 1:
                    forced.append(took)
                else:
                    plays.append(took)
                game.apply(decision.move)
                if game.phase is not Phase.PASS:
                    break
    return {
        "level": level,
        "budget": budget,
        "play_mean_s": statistics.fmean(plays) if plays else 0.0,
        "play_max_s": max(plays, default=0.0),
        "pass_mean_s": statistics.fmean(passes) if passes else 0.0,
        "pass_max_s": max(passes, default=0.0),
        "forced_mean_s": statistics.fmean(forced) if forced else 0.0,
        "decisions": len(plays) + len(passes) + len(forced),
        "search_rollouts_per_s": rollouts / search_time if search_time else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="random,easy,medium,hard,expert")
    parser.add_argument("--hands", type=int, default=1, help="hands per level, every seat that level (default 1)")
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds per decision for hard/expert (default: theirs)"
    )
    parser.add_argument("--rollout-hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()

    figures: dict[str, Any] = {
        "machine": f"{platform.machine()} {platform.processor()} Python {platform.python_version()}"
    }
    fast = bench_compiled_rollouts(args.rollout_hands * 10, 0.1)
    figures["compiled_rollout_hands_per_cpu_s"] = fast
    print(f"the greedy rollout policy compiled, whole hands from the deal: {fast:,.0f}/s, CPU time")
    medium = bench_compiled_rollouts(args.rollout_hands * 10, 0.1, "medium")
    figures["compiled_medium_rollout_hands_per_cpu_s"] = medium
    print(f"the medium policy compiled (the search's default): {medium:,.0f}/s, CPU time")
    print()
    print(
        f"{'level':<8} {'budget':>7} {'play mean':>10} {'play max':>9} {'pass mean':>10} {'pass max':>9} {'rollouts/s':>11} {'decisions':>9}"
    )
    rows = []
    for level in args.levels.split(","):
        row = bench_level(level, args.hands, args.budget, args.seed)
        rows.append(row)
        player = make_player(level)
        budget = getattr(player, "budget", None) if args.budget is None else args.budget
        rps = row["search_rollouts_per_s"]
        print(
            f"{level:<8} {('-' if budget is None else f'{budget:g} s'):>7} {row['play_mean_s'] * 1000:>8.2f}ms "
            f"{row['play_max_s'] * 1000:>7.1f}ms {row['pass_mean_s'] * 1000:>8.2f}ms {row['pass_max_s'] * 1000:>7.1f}ms "
            f"{('-' if rps is None else f'{rps:,.0f}'):>11} {row['decisions']:>9}"
        )
    figures["levels"] = rows
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(figures, fh, indent=2)


if __name__ == "__main__":
    main()

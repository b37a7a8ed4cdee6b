"""Speed of the computer players: seconds per decision for every level, rollouts per second.

    python benchmarks/bench_players.py                     # every level, defaults (about 1-2 minutes)
    python benchmarks/bench_players.py --hands 1 --levels medium,hard --budget 0.1
    python benchmarks/bench_players.py --levels expert 'x=expert:rollout=medium'   # a variant beside the level
    python benchmarks/bench_players.py --json players.json

Decisions are taken along real games: every seat of a table is the measured level, and each
decision it makes (passes and plays, "only legal card" plays included; they are timed apart)
is timed with a wall clock, since the players' budgets are wall-clock. Rollouts per second are
measured two ways: hard's and expert's compiled rollout policies playing whole hands from the deal
(CPU time: the search's inner loop alone), and inside the search players' decisions (rollouts they
report over the time they took, sampling and weighing worlds included).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from typing import Any

from bench_ladder import player_specs  # benchmarks/ is the script's folder, so on its path

from hearts.core import Game, HandState, Phase, Rules
from hearts.players import make_player
from hearts.players.registry import parse_player
from hearts.players.search import SearchPlayer
from hearts.players.search_config import EXPERT, HARD, LEVEL_CONFIGS, SearchConfig


def bench_compiled_rollouts(hands: int, config: SearchConfig) -> float:
    """Whole hands from the deal per CPU second, played by the compiled rollout policies of
    ``config``'s search: its own ``rollout`` policy in seat 0, medium in the other seats (the
    search's model of them), with the config's noise."""
    import numpy as np

    from hearts.fast import kernels as k
    from hearts.fast.bridge import POLICIES, rules_array, state_array

    rules = Rules.preset("no-passing")
    rng = random.Random(1)
    worlds = np.stack([state_array(HandState.deal(rules, rng)) for _ in range(hands)])
    R = rules_array(rules)
    plans = np.full((1, rules.players), POLICIES["medium"], dtype=np.int64)
    plans[0, 0] = POLICIES[config.rollout]
    seeds = np.arange(hands, dtype=np.int64)[:, None]
    totals = np.zeros(rules.players, dtype=np.int64)

    def run(n: int) -> None:
        cards = np.array([-1], dtype=np.int64)
        k.search_worlds(worlds[:n], R, cards, plans, config.noise, seeds[:n], k.CHOICE_BEST, totals)

    run(1)  # compiled (or read from the cache) before the clock starts
    start = time.process_time()
    run(hands)
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
                if isinstance(player, SearchPlayer) and player.last is not None and player.last.rollouts:
                    rollouts += player.last.rollouts
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
    parser.add_argument(
        "--levels",
        nargs="+",
        default=["random,easy,medium,hard,expert"],
        help="player specs (levels, or NAME=level:knob=value,... for a search variant)",
    )
    parser.add_argument("--hands", type=int, default=1, help="hands per level, every seat that level (default 1)")
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds per decision for hard/expert (default: theirs)"
    )
    parser.add_argument(
        "--rollout-hands", type=int, default=20000, help="hands per timing of the compiled rollouts (default 20000)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()

    figures: dict[str, Any] = {
        "machine": f"{platform.machine()} {platform.processor()} Python {platform.python_version()}"
    }
    for config in (HARD, EXPERT):
        rate = bench_compiled_rollouts(args.rollout_hands, config)
        figures[f"compiled_rollout_hands_per_cpu_s_{config.name}"] = rate
        print(
            f"{config.name}'s rollouts compiled ({config.rollout} in its seat, medium in the others), "
            f"whole hands from the deal: {rate:,.0f}/s, CPU time"
        )
    print()
    print(
        f"{'level':<8} {'budget':>7} {'play mean':>10} {'play max':>9} {'pass mean':>10} {'pass max':>9} {'rollouts/s':>11} {'decisions':>9}"
    )
    rows = []
    for level in player_specs(args.levels):
        row = bench_level(level, args.hands, args.budget, args.seed)
        rows.append(row)
        spec = parse_player(level)
        searched = LEVEL_CONFIGS.get(spec.target) if spec.kind == "level" else None
        budget = (None if searched is None else searched.budget) if args.budget is None else args.budget
        rps = row["search_rollouts_per_s"]
        print(
            f"{spec.label:<8} {('-' if budget is None else f'{budget:g} s'):>7} {row['play_mean_s'] * 1000:>8.2f}ms "
            f"{row['play_max_s'] * 1000:>7.1f}ms {row['pass_mean_s'] * 1000:>8.2f}ms {row['pass_max_s'] * 1000:>7.1f}ms "
            f"{('-' if rps is None else f'{rps:,.0f}'):>11} {row['decisions']:>9}"
        )
    figures["levels"] = rows
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(figures, fh, indent=2)


if __name__ == "__main__":
    main()

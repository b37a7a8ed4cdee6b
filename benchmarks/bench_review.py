"""How long a hand review takes at the default settings, and how sure its costs are.

    python benchmarks/bench_review.py                 # 8 hands, seat 0, the default 1,000 worlds
    python benchmarks/bench_review.py --hands 20 --worlds 4000 --json out.json

The hands are the first hands of seeded games between ``--players`` (default easy: plenty of
mistakes to value); each is reviewed for seat 0 with no cache (after one untimed review that
loads the compiled kernels). Printed: seconds per hand (median, max), seconds to the first
progress report, seconds per decision, decisions per hand, and the spread of the costs'
standard errors (median and 90th percentile over decisions that were searched), which the marks'
thresholds are set above (docs/review.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from hearts.core import Game, GameRecord, Rules
from hearts.players import make_player, play_game
from hearts.review import MARKS, review_hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--players", default="easy", help="the level in every seat of the reviewed hands")
    parser.add_argument("--worlds", type=int, default=None, help="worlds per decision (default: the review's)")
    parser.add_argument("--budget", type=float, default=None, help="seconds per decision at most")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args()

    records = []
    for seed in range(args.hands):
        game = Game(Rules(), seed=1000 + seed)
        play_game(game, [make_player(args.players, seed=s) for s in range(4)], hands=1)
        records.append(GameRecord.of(game))
    review_hand(records[0], 0, 0, worlds=10, cache=None)  # load (or compile) the kernels, untimed

    per_hand, first, decisions, ses, marks = [], [], [], [], []
    for record in records:
        start = time.perf_counter()
        started: list[float] = []

        def progress(done: int, total: int, started: list[float] = started, start: float = start) -> None:
            if not started:
                started.append(time.perf_counter() - start)

        review = review_hand(record, 0, 0, worlds=args.worlds, budget=args.budget, progress=progress, cache=None)
        per_hand.append(time.perf_counter() - start)
        first.append(started[0])
        decisions.append(len(review.decisions))
        ses += [d.se for d in review.decisions if d.worlds and d.played != d.best]
        marks += [d.mark for d in review.decisions]
    figures = {
        "hands": args.hands,
        "worlds": review.worlds,
        "budget": args.budget,
        "seconds_per_hand_median": statistics.median(per_hand),
        "seconds_per_hand_max": max(per_hand),
        "seconds_to_first_progress_max": max(first),
        "seconds_per_decision": sum(per_hand) / sum(decisions),
        "decisions_per_hand": sum(decisions) / len(decisions),
        "se_median": statistics.median(ses) if ses else 0.0,
        "se_p90": statistics.quantiles(ses, n=10)[-1] if len(ses) >= 2 else 0.0,
        "marks": {m: marks.count(m) for m in MARKS},
    }
    for key, value in figures.items():
        print(f"{key:32} {value:.3f}" if isinstance(value, float) else f"{key:32} {value}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=1)


if __name__ == "__main__":
    main()

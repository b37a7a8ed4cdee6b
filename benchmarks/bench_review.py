"""Hand reviews: how fast, and whether the quick review's verdicts are the full search's.

    python3 benchmarks/bench_review.py                     # 50 hands: quick review against the full one
    python3 benchmarks/bench_review.py --hands 10          # a reduced size, on a busy machine
    python3 benchmarks/bench_review.py browser --hands 5   # a hand's review in chromium, desktop size

**verdicts** (the default): the first hands of ``--hands`` seeded games between ``--players``
(default easy: plenty of mistakes to value), each reviewed for seat 0 with no cache three ways in
the same run: today's review at full effort (every world in one search, ``effort=FULL``, seed 0:
the expert's search as in play), the quick review (``QUICK``: batches of worlds, stopped once the
verdict is settled, seed 0), and the full review again on other worlds (seed 1): the full review's
own noise, the peer the quick review's disagreements are measured against. Printed: the share of
decisions whose mark agrees with today's (and with the full review on other worlds), the mean
absolute and signed change of each decision's cost, seconds a hand (mean, median, max) and their
ratio, seconds to the first verdict, and worlds searched a decision.

**browser**: ``hearts serve`` on a loopback port, a game of four easy computer players (seed 7)
played out, then the review page of each of its first ``--hands`` hands opened in Debian's
chromium at 1280x800 (seat 1): seconds from opening the page to the first decision's verdict on
the bar and to the whole review. Run it against another tree (``PYTHONPATH=that/src``) for a
"before" figure: it needs only the page's ``#lossbar .seg`` and ``#summary``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from hearts.core import Game, GameRecord, Rules
from hearts.players import make_player, play_game


def _records(hands: int, players: str) -> list[GameRecord]:
    records = []
    for seed in range(hands):
        game = Game(Rules(), seed=1000 + seed)
        play_game(game, [make_player(players, seed=s) for s in range(4)], hands=1)
        records.append(GameRecord.of(game))
    return records


def verdicts(args: argparse.Namespace) -> dict[str, Any]:
    from hearts.review import FULL, QUICK, review_hand

    records = _records(args.hands, args.players)
    review_hand(records[0], 0, 0, worlds=10, cache=None)  # load the compiled kernels, untimed
    runs = {"full": (FULL, 0), "quick": (QUICK, 0), "full_other_worlds": (FULL, 1)}
    seconds: dict[str, list[float]] = {k: [] for k in runs}
    first: list[float] = []
    reviews: dict[str, list[Any]] = {k: [] for k in runs}
    for i, record in enumerate(records):
        for name, (effort, seed) in runs.items():
            start = time.perf_counter()
            told: list[float] = []

            def verdict(_: Any, told: list[float] = told, start: float = start) -> None:
                if not told:
                    told.append(time.perf_counter() - start)

            review = review_hand(
                record, 0, 0, worlds=args.worlds, seed=seed, effort=effort, cache=None, verdict=verdict
            )
            seconds[name].append(time.perf_counter() - start)
            reviews[name].append(review)
            if name == "quick" and told:
                first.append(told[0])
        print(f"hand {i + 1}: " + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in seconds.items()), file=sys.stderr)

    def compare(name: str) -> dict[str, float]:
        pairs = [
            (a, b)
            for ra, rb in zip(reviews[name], reviews["full"], strict=True)
            for a, b in zip(ra.decisions, rb.decisions, strict=True)
        ]
        return {
            "decisions": len(pairs),
            "mark_agreement": sum(a.mark == b.mark for a, b in pairs) / len(pairs),
            "mean_abs_cost_change": sum(abs(a.cost - b.cost) for a, b in pairs) / len(pairs),
            "mean_cost_change": sum(a.cost - b.cost for a, b in pairs) / len(pairs),
            "hands_with_the_same_marks": sum(
                [d.mark for d in ra.decisions] == [d.mark for d in rb.decisions]
                for ra, rb in zip(reviews[name], reviews["full"], strict=True)
            )
            / len(records),
        }

    def worlds(name: str) -> float:
        searched = [d.worlds for r in reviews[name] for d in r.decisions if d.worlds]
        return sum(searched) / len(searched)

    return {
        "hands": len(records),
        "worlds": reviews["full"][0].worlds,
        "quick_vs_full": compare("quick"),
        "full_other_worlds_vs_full": compare("full_other_worlds"),
        "seconds_per_hand": {
            k: {"mean": statistics.mean(v), "median": statistics.median(v), "max": max(v)} for k, v in seconds.items()
        },
        "full_over_quick_time": sum(seconds["full"]) / sum(seconds["quick"]),
        "quick_seconds_to_first_verdict": {"mean": statistics.mean(first), "max": max(first)} if first else None,
        "worlds_per_searched_decision": {k: worlds(k) for k in runs},
    }


def browser(args: argparse.Namespace) -> dict[str, Any]:
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    from playwright.sync_api import sync_playwright
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, serving

    def call(url: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data, {"Content-Type": "application/json"})
        return json.loads(urllib.request.urlopen(req, timeout=30).read())

    with serving(Path(tempfile.mkdtemp(prefix="bench-review-")), "--pause", "0") as url:
        table = call(f"{url}/api/tables", {"seats": [{"kind": "computer", "level": "easy"}] * 4, "seed": 7})
        tid = table["id"]
        while call(f"{url}/api/tables/{tid}")["status"] == "playing":
            time.sleep(0.5)
        time.sleep(args.settle)  # the server's warm-up done: a steady server, as a player meets it
        firsts, wholes, counts = [], [], []
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for hand in range(1, args.hands + 1):
                page = chromium.new_page(viewport={"width": 1280, "height": 800})
                page.set_default_timeout(300_000)
                start = time.perf_counter()
                page.goto(f"{url}/review/{tid}/{hand}?seat=0")
                page.wait_for_selector("#lossbar .seg:not(.pending)")
                firsts.append(time.perf_counter() - start)
                page.wait_for_function("document.querySelector('#summary').textContent.includes('lost')")
                wholes.append(time.perf_counter() - start)
                counts.append(page.locator("#lossbar .seg").count())
                print(
                    f"hand {hand}: first verdict {firsts[-1]:.2f} s, whole review {wholes[-1]:.2f} s, {counts[-1]} decisions",
                    file=sys.stderr,
                )
                page.close()
            chromium.close()
    return {
        "hands": args.hands,
        "seconds_to_first_verdict": {"mean": statistics.mean(firsts), "max": max(firsts)},
        "seconds_to_whole_review": {"mean": statistics.mean(wholes), "max": max(wholes)},
        "per_hand": [{"first": f, "whole": w, "decisions": c} for f, w, c in zip(firsts, wholes, counts, strict=True)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", default="verdicts", choices=("verdicts", "browser"))
    parser.add_argument("--hands", type=int, default=None, help="hands reviewed (default: 50 verdicts, 5 browser)")
    parser.add_argument("--players", default="easy", help="the level in every seat of the reviewed hands")
    parser.add_argument("--worlds", type=int, default=None, help="worlds a decision at most (default: the review's)")
    parser.add_argument("--settle", type=float, default=5.0, help="browser: seconds to wait after the game is over")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()
    if args.hands is None:
        args.hands = 50 if args.what == "verdicts" else 5
    figures = verdicts(args) if args.what == "verdicts" else browser(args)
    print(json.dumps(figures, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

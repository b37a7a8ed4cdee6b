"""Our player's decisions while a plain moon threat stood, read from kept ``bench_vs_openspiel.py``
runs (their moves replayed through our engine): how often the search's card replaced the rule-based
one, how often medium's defence was played, and at how many of those tables the threat then shot.

    python3 benchmarks/results/panel/screen-threat-reads-plays/threat_decisions.py RUN.json.gz...
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # benchmarks/, for its ISMCTS script
from bench_vs_openspiel import kept_table  # noqa: E402

from hearts.core import Rules  # noqa: E402
from hearts.players import compiled  # noqa: E402
from hearts.players.search_config import EXPERT  # noqa: E402


def count(paths: list[str]) -> dict[str, int]:
    R = compiled.rules_array(Rules())
    out = dict.fromkeys(("decisions", "searched", "searched_then_moon", "defence", "defence_then_moon", "tables", "tables_then_moon"), 0)
    for path in paths:
        with (gzip.open(path) if path.endswith(".gz") else open(path, "rb")) as fh:
            run = json.load(fh)
        for deal in run["deals"]:
            for table, (ours, points) in enumerate(zip(((0, 2), (1, 3)), deal["points"], strict=True)):
                hand, plays = kept_table(run["args"]["seed"], deal, table)
                shooter = points.index(0) if sorted(points) == [0, 26, 26, 26] else -1
                stood = False
                for seat, card, reason in plays:
                    # the search's plain threat, by the one rule medium and the search read
                    taken = np.array(hand.taken, dtype=np.int64)
                    t = compiled.moon_threat(R, taken, seat, EXPERT.threat_points) if seat in ours else -1
                    if t >= 0 and "only legal" not in reason and "all alike" not in reason:
                        stood = True
                        out["decisions"] += 1
                        if "does best in the deals" in reason:
                            out["searched"] += 1
                            out["searched_then_moon"] += shooter == t
                        elif "who may shoot" in reason or "moon" in reason:
                            out["defence"] += 1
                            out["defence_then_moon"] += shooter == t
                    hand.play(card, seat)
                out["tables"] += stood
                out["tables_then_moon"] += stood and shooter >= 0 and shooter not in ours
    return out


if __name__ == "__main__":
    print(json.dumps(count(sys.argv[1:])))

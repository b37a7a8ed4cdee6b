"""Our player's decisions while a plain moon threat stood, read from kept ``bench_vs_openspiel.py``
runs (their moves replayed through our engine): how often the search's card replaced the rule-based
one, how often medium's defence was played, and at how many of those tables the threat then shot.

    python3 benchmarks/results/panel/screen-threat-reads-plays/threat_decisions.py RUN.json.gz...
"""

from __future__ import annotations

import gzip
import json
import sys

from hearts.core import HandState, PassDirection, Rules, mask_of

HEARTS = sum(1 << c for c in range(39, 52))
QUEEN_OF_SPADES = 1 << 36


def threat(taken: list[int], seat: int) -> int:
    """The search's plain threat (``threat_points`` 4): the one other seat holding every penalty
    card taken, at least 4 of them or Q♠ and two more; -1 when there is none."""
    holders = [s for s in range(4) if taken[s] & (HEARTS | QUEEN_OF_SPADES)]
    if len(holders) != 1 or holders[0] == seat:
        return -1
    cards = taken[holders[0]] & (HEARTS | QUEEN_OF_SPADES)
    count = cards.bit_count()
    return holders[0] if count >= 4 or (cards & QUEEN_OF_SPADES and count >= 3) else -1


def count(paths: list[str]) -> dict[str, int]:
    rules = Rules()
    cycle = rules.pass_cycle
    assert cycle is not None  # the standard rules pass left, right, across, then hold
    out = dict.fromkeys(("decisions", "searched", "searched_then_moon", "defence", "defence_then_moon", "tables", "tables_then_moon"), 0)
    for path in paths:
        with (gzip.open(path) if path.endswith(".gz") else open(path, "rb")) as fh:
            run = json.load(fh)
        for deal in run["deals"]:
            direction = PassDirection(deal["direction"])
            offset = direction.offset(4)
            for ours, moves, points in zip(((0, 2), (1, 3)), deal["moves"], deal["points"], strict=True):
                passes, plays = moves[:-52], moves[-52:]
                dealt, passed = [0] * 4, [0] * 4
                for seat, card, _ in plays:
                    dealt[seat] |= mask_of([card])
                for seat, card, _ in passes:
                    passed[seat] |= mask_of([card])
                for seat in range(4):  # before the pass each seat held what it passed, not what it received
                    dealt[seat] |= passed[seat]
                    dealt[(seat + offset) % 4] &= ~passed[seat]
                hand = HandState(rules, tuple(dealt), cycle.index(direction))
                for seat in range(4) if passes else ():
                    hand.pass_cards(seat, [card for s, card, _ in passes if s == seat])
                shooter = points.index(0) if sorted(points) == [0, 26, 26, 26] else -1
                stood = False
                for seat, card, reason in plays:
                    t = threat(list(hand.taken), seat) if seat in ours else -1
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

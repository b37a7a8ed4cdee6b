"""Replay the hands where a tournament's moon hunter shot, with expert changed, and count the moons again.

A tournament's ``--json`` keeps each table's dealt cards and moons, not its plays. This deals each
table where the named shooter (``--shooter``, default ``hunter``) shot the moon to a ``HandState``
of that deal's number (its pass direction), seats the same players (in every other seat the
``--player`` spec, an expert variant by default plain ``expert``, at fixed ``--worlds`` so that a
replay is exact; the hunter is deterministic) and plays the hand again: how many of those moons
does a changed expert still allow? (benchmarks/results/history/2026-12-03-moons.md, "Where the
hunter's moons are made".)

    python benchmarks/bench_moon_replay.py benchmarks/results/expert-hunter/pass-read/seed1.json.gz
    python benchmarks/bench_moon_replay.py PART.json.gz --player 'expert:pass_candidates=30' --show 3

A diagnosis, not a strength measure: it replays only the hands that went wrong.
"""

from __future__ import annotations

import argparse
from typing import Any

from bench_ladder import read_json  # benchmarks/ is the script's folder, so on its path

from hearts.core import HandState, Rules, SeatView, mask_of
from hearts.players import make_player

#: Seconds a decision may take in a replay: far more than ``--worlds`` need, so that the worlds, not
#: the clock, end each search and a replay is exact on a loaded machine too.
REPLAY_BUDGET = 600.0


def replay(table: dict[str, Any], player: str, worlds: int, shooter: str) -> tuple[list[int], list[str]]:
    """Play one table's hand again, the ``player`` spec in every seat but the shooter's (whatever
    expert the part seated there: ``old-expert`` too) at ``worlds`` worlds a decision; return each
    seat's points and the plays with their reasons."""
    seating = [label if label == shooter else "expert" for label in table["seating"]]
    hand = HandState(Rules(), tuple(mask_of(cards) for cards in table["dealt"]), table["index"])
    players = [
        make_player(player, seed=1000 + seat, worlds=worlds, time_budget=REPLAY_BUDGET)
        if label == "expert"
        else make_player(label)
        for seat, label in enumerate(seating)
    ]
    names = tuple(f"{label}{seat}" for seat, label in enumerate(seating))
    log = []
    while not hand.is_over:
        seat = hand.to_move[0]
        decision = players[seat].decide(SeatView.of_hand(hand, seat, (0,) * len(seating), names))
        hand.apply(decision.move)
        move = decision.move
        card = getattr(move, "card", None)  # 2♣ is card 0: test for None, not for truth
        shown = card.symbol() if card is not None else " ".join(c.symbol() for c in getattr(move, "cards", ()))
        log.append(f"{names[seat]:>8} {shown:<10} {decision.reason}")
    return list(hand.points), log


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", help="a tournament's --json file (gzipped or not) with expert against the shooter")
    ap.add_argument("--shooter", default="hunter", help="the player whose moons are replayed")
    ap.add_argument("--player", default="expert", help="the expert replayed: a spec, e.g. 'expert:pass_candidates=30'")
    ap.add_argument("--worlds", type=int, default=300, help="worlds a decision (fixed, so a replay is exact)")
    ap.add_argument("--hands", type=int, default=0, help="replay only the first N of those hands (0: all)")
    ap.add_argument("--show", type=int, default=0, help="print the plays of the first N hands replayed")
    args = ap.parse_args(argv)
    make_player(args.player)  # a bad spec is refused now, by name, not after the part is read
    part = read_json(args.part)
    tables = [t for t in part["tables"] if 1 in t["moons"] and t["seating"][t["moons"].index(1)] == args.shooter]
    if args.hands:
        tables = tables[: args.hands]
    again = 0
    for i, table in enumerate(tables):
        points, log = replay(table, args.player, args.worlds, args.shooter)
        shooter = next((s for s, p in enumerate(points) if p == 26), -1)
        again += shooter >= 0 and table["seating"][shooter] == args.shooter
        print(f"deal {table['index'] + 1} table {table['table'] + 1}: points {points}", flush=True)
        if i < args.show:
            print("\n".join(log))
    print(f"{args.shooter} shot again in {again} of the {len(tables)} hands where it shot")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

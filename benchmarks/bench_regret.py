"""Decision quality of the players, low-noise: regret against the true world's values.

    python benchmarks/bench_regret.py                                  # medium, hard, expert (about 10 minutes)
    python benchmarks/bench_regret.py --players medium,hard 'x=hard:miss_weight=0.3' --games 10
    python benchmarks/bench_regret.py --players a=hard:worlds=300 'b=hard:worlds=300,noise=0.05' --json regret.json

A tournament between two close players needs thousands of deals to tell them apart (a
2-against-2 duplicate deal's payoff has a standard deviation of about 3 points). This
benchmark asks a sharper, narrower question on the same positions for every player: **how
much does its card lose against the best card, valued in the real deal?**

1. Positions: ``--games`` first hands of the standard game played by four ``medium`` players
   (seeded), and every play decision of theirs from the second trick to the eleventh where
   more than one card is legal.
2. The true value of each legal card: in the real deal (every hand known), the card is played
   and the hand played out ``--rollouts`` times by the compiled greedy policy at every seat (the
   search's rollout policy when the method was set, kept so that figures stay comparable), every
   card on the same random numbers; its value is the seat's payoff (the others' mean
   points minus its own).
3. Each player decides from the seat's view only; its regret is the best card's true value
   minus its card's. The table prints the mean regret with a 95% interval over positions, the
   share of positions where it lost under 0.3 points, and the seconds it took. Players see the
   same positions, so the differences between them are paired and far less noisy than the
   intervals (``--json`` keeps every regret for paired tests).

What it measures, and what not: an oracle that knows the deal and plays the rollout policy
afterwards. It rewards a search for knowing where the cards are (the point of sampling and
inference) and for searching enough; it cannot judge a different rollout policy, a pass, or
play that is good for reasons that policy does not see. Tournaments (``bench_ladder.py``) stay
the verdict; this benchmark is for telling search settings apart quickly.

Players are player specs (``hearts.players.registry``), one an argument: a search level may carry
settings of its config (``'x=hard:worlds=300,noise=0.05'``); an argument without settings may
list several levels separated by commas (``medium,hard,expert``).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

import numpy as np
from bench_ladder import player_specs  # benchmarks/ is the script's folder, so on its path

from hearts.core import Game, Phase, PlayCard, Rules, SeatView
from hearts.fast import kernels as k
from hearts.fast.bridge import rules_array, state_array
from hearts.players import make_player
from hearts.players.base import Player


def positions(games: int, rollouts: int) -> list[tuple[SeatView, dict[int, float]]]:
    """The test positions and every legal card's value in the real deal."""
    rules = Rules()
    R = rules_array(rules)
    n = rules.players
    greedy = np.full((1, n), k.POLICY_GREEDY, dtype=np.int64)
    totals = np.zeros(n, dtype=np.int64)
    out: list[tuple[SeatView, dict[int, float]]] = []
    for g in range(games):
        game = Game(rules, seed=5000 + g)
        players = [make_player("medium", seed=s + 10 * g) for s in range(n)]
        while game.hand.number == 0:
            seat = game.to_move[0]
            view = game.view(seat)
            if view.phase is Phase.PLAY and len(view.legal) > 1 and 1 <= len(view.tricks) <= 10:
                S = state_array(view.world(game.hand.hands))
                cards = np.array(sorted(int(c) for c in view.legal), dtype=np.int64)
                rng = random.Random(len(out))
                seeds = np.array([[rng.getrandbits(31) for _ in range(rollouts)]], dtype=np.int64)
                scores = k.search_worlds(S[None, :], R, cards, greedy, 0.1, seeds, k.CHOICE_BEST, totals)
                mine = scores[0, :, 0, :, seat].astype(float)  # [rollout, card]
                payoff = ((scores[0, :, 0, :, :].sum(axis=-1) - mine) / (n - 1) - mine).mean(axis=0)
                out.append((view, {int(c): float(v) for c, v in zip(cards, payoff, strict=True)}))
            game.apply(players[seat].decide(view).move)
    return out


def regrets(player: Player, cases: list[tuple[SeatView, dict[int, float]]]) -> list[float]:
    out = []
    for view, values in cases:
        move = player.decide(view).move
        assert isinstance(move, PlayCard), f"{player.name} answered a play with {move!r}"
        card = int(move.card)
        out.append(max(values.values()) - values[card])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--players", nargs="+", default=["medium,hard,expert"], help="player specs (NAME=level:knob=value,...)"
    )
    parser.add_argument("--games", type=int, default=30, help="first hands of medium games to take positions from")
    parser.add_argument("--rollouts", type=int, default=300, help="rollouts per card in the real deal")
    parser.add_argument("--seed", type=int, default=1, help="the players' seed")
    parser.add_argument("--json", default=None, help="write the figures and every regret to this file")
    args = parser.parse_args()

    start = time.perf_counter()
    cases = positions(args.games, args.rollouts)
    print(f"{len(cases)} positions from {args.games} hands ({time.perf_counter() - start:.0f} s)", flush=True)
    print(f"{'player':<32} {'mean regret':>12} {'95% CI':>9} {'< 0.3 pt':>9} {'seconds':>8}")
    rows = []
    for spec in player_specs(args.players):
        player = make_player(spec, seed=args.seed)
        t = time.perf_counter()
        rs = regrets(player, cases)
        seconds = time.perf_counter() - t
        mean = statistics.fmean(rs)
        half = 1.96 * statistics.stdev(rs) / len(rs) ** 0.5
        small = sum(r < 0.3 for r in rs) / len(rs)
        print(f"{spec:<32} {mean:>12.3f} {half:>9.3f} {small:>9.3f} {seconds:>8.0f}", flush=True)
        rows.append({"player": spec, "mean": mean, "ci95": half, "small": small, "seconds": seconds, "regrets": rs})
    if len(rows) > 1:
        base = rows[0]
        for row in rows[1:]:
            diffs = [a - b for a, b in zip(row["regrets"], base["regrets"], strict=True)]
            half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
            print(f"paired: {row['player']} - {base['player']}: {statistics.fmean(diffs):+.3f} ± {half:.3f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"machine": platform.platform(), "args": vars(args), "rows": rows}, fh)


if __name__ == "__main__":
    main()

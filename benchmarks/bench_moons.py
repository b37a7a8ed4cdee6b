"""Moons made and allowed by the search players, and how often their pass gives a moon away (issue 20).

Plays a 2-against-2 duplicate tournament between the search player as it is (``new``) and an
opponent: ``old``, the same level with the moon settings it had before 2026-12-02 (medium's pass,
medium opponents in the pass search, no early moon threat), or ``hunter``, a medium player that
passes its low cards and runs for the moon from a moon strength of 0.6 (a stand-in until a real
moon-hunting level exists). Worlds are fixed (``--worlds``): on a loaded machine time budgets say
nothing. Prints each player's payoff and the moons each side shot. ``--passes N`` instead counts,
over N deals' passes (every seat of the first hand), the share of passes that give away a top
heart (A♥ K♥ Q♥) or a high spade (A♠ K♠ Q♠), new against old.

    python benchmarks/bench_moons.py --level expert --against old --hands 120 --seed 8
    python benchmarks/bench_moons.py --level expert --against hunter --hands 250 --seed 7
    python benchmarks/bench_moons.py --level hard --passes 50
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from hearts.core import CARDS, CardSet, Game, Rules, SeatView
from hearts.core.cards import HEARTS, QS_BIT
from hearts.players.expert import ExpertPlayer
from hearts.players.hard import HardPlayer
from hearts.players.knowledge import HIGH_SPADES, Knowledge, load_fast, moon_hand_strength
from hearts.players.medium import MediumPlayer, _mask, _rules_row
from hearts.players.search import MOON_STOPPERS, SearchPlayer

#: The moon settings of the search players before 2026-12-02, as options and class settings.
OLD_OPTIONS = {"pass_opponent_policy": "medium", "moon_safe_passes": False}
OLD_SETTINGS = {"early_threat_points": 0}
HIGH_SPADE_CARDS = QS_BIT | HIGH_SPADES
LEVELS = {"hard": HardPlayer, "expert": ExpertPlayer}
HUNT_STRENGTH = 0.6


def _worlds() -> int:
    return int(os.environ.get("BENCH_MOONS_WORLDS", "200"))


def _level() -> type[SearchPlayer]:
    return LEVELS[os.environ.get("BENCH_MOONS_LEVEL", "expert")]


def new(seed: int | None = None) -> SearchPlayer:
    """The level as it is, at fixed worlds (a ``py:`` factory)."""
    return _level()(seed=seed, worlds=_worlds())


def old(seed: int | None = None) -> SearchPlayer:
    """The level with its moon settings before 2026-12-02 (a ``py:`` factory)."""
    player = _level()(seed=seed, worlds=_worlds(), **OLD_OPTIONS)  # type: ignore[arg-type]
    for name, value in OLD_SETTINGS.items():
        setattr(player, name, value)
    return player


class Hunter(MediumPlayer):
    """Medium, but from a moon strength of :data:`HUNT_STRENGTH` it passes its low cards (keeping
    hearts and the high spades) and runs for the moon with medium's moon play while it is open."""

    name = "hunter"

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        super().__init__(seed=seed, time_budget=time_budget)
        self._running: tuple[int, tuple[int, ...]] | None = None

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        hand = view.hand.mask
        if moon_hand_strength(view.rules, hand) < HUNT_STRENGTH:
            return super().choose_pass(view)
        keep = hand & (HEARTS | HIGH_SPADE_CARDS)
        by_rank = sorted((c for c in range(52) if hand >> c & 1), key=lambda c: (bool(keep >> c & 1), c % 13, c))
        return CardSet(by_rank[: view.rules.pass_count]), "hunt: pass my low cards"

    def choose_play(self, view: SeatView) -> tuple[object, str]:  # type: ignore[override]
        legal = _mask(view.legal)
        if not legal & (legal - 1):
            return CARDS[legal.bit_length() - 1], "the only legal card"
        k = Knowledge.of(view)
        hand_id = (view.hand_number, view.totals)
        if k.trick_number <= 1 and k.moon_still_open_for_me() and moon_hand_strength(k.rules, k.hand) >= HUNT_STRENGTH:
            self._running = hand_id
        if self._running == hand_id and k.moon_still_open_for_me():
            w = k.winning_card if k.trick else 0
            card, _, _ = load_fast().medium._shoot(_rules_row(k.rules), legal, k.out, len(k.trick), w)
            return CARDS[int(card)], "hunt: run for the moon"
        return super().choose_play(view)


def hunter(seed: int | None = None) -> Hunter:
    """A :class:`Hunter` (a ``py:`` factory)."""
    return Hunter(seed=seed)


def pass_shares(make: object, deals: int) -> dict[str, float]:
    """The share of passes giving a top heart or a high spade, and ms a pass, over ``deals`` deals."""
    player = make(1)  # type: ignore[operator]
    hearts = spades = n = 0
    spent = 0.0
    for d in range(deals):
        game = Game(Rules(), seed=d)
        for seat in range(4):
            began = time.perf_counter()
            cards = CardSet(player.decide(game.view(seat)).move.cards).mask
            spent += time.perf_counter() - began
            hearts += bool(cards & MOON_STOPPERS)
            spades += bool(cards & HIGH_SPADE_CARDS)
            n += 1
    return {"passes": n, "top_hearts": hearts / n, "high_spades": spades / n, "ms_per_pass": 1000 * spent / n}


def main(argv: list[str] | None = None) -> int:
    from hearts.sim.tournament import TournamentConfig, run_tournament

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", choices=sorted(LEVELS), default="expert")
    ap.add_argument("--against", choices=("old", "hunter"), default="old")
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--passes", type=int, default=0, help="count the passes of this many deals instead")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    os.environ["BENCH_MOONS_LEVEL"] = args.level
    os.environ["BENCH_MOONS_WORLDS"] = str(args.worlds)
    if args.passes:
        for label, make in (("new", new), ("old", old)):
            print(label, pass_shares(make, args.passes))
        return 0
    here = Path(__file__).resolve()
    players = (f"new=py:{here}:new", f"{args.against}=py:{here}:{args.against}")
    result = run_tournament(TournamentConfig(players=players, hands=args.hands, seed=args.seed), jobs=args.jobs)
    shot = {label: 0 for label in result.config.labels}
    for table in result.tables:
        for seat, moons in enumerate(table.moons):
            shot[result.config.labels[table.seating[seat]]] += moons
    for f in result.figures():
        p = f.payoff
        print(
            f"{f.label}: payoff {p.mean:+.2f} [{p.low:+.2f}, {p.high:+.2f}] a seat-deal over {p.n} deals;"
            f" moons shot {shot[f.label]} in {len(result.tables)} table-hands;"
            f" {1000 * f.decision_mean.mean:.0f} ms a decision"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

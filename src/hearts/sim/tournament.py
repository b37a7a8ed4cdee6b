"""Fair duplicate tournaments between computer players.

Duplicate play cancels the luck of the deal: every deal is replayed at several
*tables* with the seats rotated, so that each player holds each seat's cards
equally often. A table is a *seating*: the player index sitting in each seat.

Seatings, for ``k`` players at ``n`` seats:

* ``k <= n``: the base pattern puts player ``s % k`` in seat ``s``; the tables
  are every distinct rotation of the seats and relabelling of the players
  applied to it. For two players at four seats that is A B A B and B A B A
  (2-against-2: A in seats 0 and 2, then swapped); for four players at four
  seats the four cyclic rotations; for three players at four seats twelve
  tables. Across a deal's tables every player holds every seat's cards the
  same number of times and sits the same number of seats in all.
* ``k > n``: deal ``d`` is played by the ``d``-th lineup of ``n`` players (the
  combinations in order, cycling), in its ``n`` cyclic rotations. Each player
  sits out some deals; over a multiple of the number of lineups all is even.

Figures are computed per deal for each player (the mean over every seat it
held at every table of that deal: the duplicate unit) and their 95% intervals
are over deals, never over individual seats, because the seats of one deal are
strongly correlated.

Whole games to the target are played the same way (``games``): game ``g`` has
its own fixed sequence of deals and is played at the same tables.

A player that faults (a bot that crashes, hangs past its time limit or plays
illegally; see :mod:`hearts.sim.seats`) stops the tournament with the fault
named (``on_fault="stop"``), or has that seat's hands scored as forfeits while a
stand-in finishes them (``on_fault="forfeit"``); every fault is kept with its table.

Everything here is deterministic for a seed: deals, seatings and each player's
seed derive from the tournament seed and the deal, table and seat, never from
which worker ran what, so ``jobs`` changes the speed and nothing else (for
players whose moves depend only on their seed: a player that stops searching
on a wall-clock budget depends on the machine's speed too).

>>> seatings(2, 4)
[(0, 1, 0, 1), (1, 0, 1, 0)]
>>> len(seatings(3, 4)), len(seatings(4, 4)), len(seatings(2, 3))
(12, 4, 6)
"""

from __future__ import annotations

import itertools
import math
import os
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hearts.core import (
    Game,
    HandState,
    Rules,
    SeatView,
    deal_cards,
    seat_name,
)
from hearts.core.cards import CardSet
from hearts.players.registry import parse_player
from hearts.sim import live
from hearts.sim.live import ProgressFn, Unit
from hearts.sim.seats import (
    ON_FAULT,
    SeatFault,
    SeatFaultError,
    TableSeat,
    check_players,
    close_kept,
    close_seats,
    drive_table,
    forfeit_points,
    table_scores,
    table_seats,
)
from hearts.sim.stats import Estimate, mean_ci, percentile, rate_ci

__all__ = [
    "TournamentConfig",
    "TournamentError",
    "TableResult",
    "PlayerFigures",
    "TournamentResult",
    "seatings",
    "tables_for",
    "deal_for",
    "play_table",
    "play_unit",
    "run_tournament",
    "run_local",
    "table_work",
    "units_of",
    "default_jobs",
    "check_players",
]


#: Games that have not ended after this many hands are stopped with an error (a rules setting that cannot end).
MAX_HANDS_PER_GAME = 500


class TournamentError(ValueError):
    """A tournament that cannot be run as asked, or a player that broke the rules during one."""


# -- configuration --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: the players (any spec :func:`~hearts.players.registry.make_player` takes), how many
    single-hand deals and whole games, under which rules, seed and per-decision time budget."""

    players: tuple[str, ...]
    hands: int = 100
    games: int = 0
    preset: str = "standard"
    seats: int = 4
    seed: int = 0
    budget: float | None = None
    on_fault: str = "stop"  #: "stop" at a player's fault, or "forfeit" its seat's hands and play on

    def __post_init__(self) -> None:
        players = tuple(p.strip() for p in self.players)
        object.__setattr__(self, "players", players)
        if len(players) < 2:
            raise TournamentError(
                f"a tournament needs at least two players, not {len(players)}: {', '.join(players) or 'none'}"
            )
        if any(not p for p in players):
            raise TournamentError(f"an empty player name in {', '.join(players)!r}")
        if self.hands < 0 or self.games < 0:
            raise TournamentError(f"hands and games cannot be negative (hands={self.hands}, games={self.games})")
        if self.hands == 0 and self.games == 0:
            raise TournamentError("nothing to play: ask for at least one hand or one game")
        for spec in players:
            try:
                parse_player(spec)
            except ValueError as exc:
                raise TournamentError(str(exc)) from None
        if self.on_fault not in ON_FAULT:
            raise TournamentError(f"on_fault must be one of {', '.join(ON_FAULT)}, not {self.on_fault!r}")
        if self.budget is not None and not self.budget > 0:
            raise TournamentError(f"the time budget must be a positive number of seconds, not {self.budget}")
        self.rules  # noqa: B018  (validates the preset and seat count now, with the rules' own message)

    @property
    def rules(self) -> Rules:
        try:
            return Rules.preset(self.preset, players=self.seats)
        except ValueError as exc:
            raise TournamentError(str(exc)) from None

    @property
    def labels(self) -> tuple[str, ...]:
        """A distinct label per player: its name (``NAME=SPEC``) or spec, with ``#2``, ``#3`` added to repeats."""
        seen: dict[str, int] = {}
        out = []
        for spec in self.players:
            label = parse_player(spec).label
            seen[label] = seen.get(label, 0) + 1
            out.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "labels": list(self.labels),
            "hands": self.hands,
            "games": self.games,
            "preset": self.preset,
            "seats": self.seats,
            "seed": self.seed,
            "budget": self.budget,
            "on_fault": self.on_fault,
            "rules": self.rules.to_dict(),
        }


# -- seatings and deals ------------------------------------------------------------------------------


def seatings(k: int, n: int) -> list[tuple[int, ...]]:
    """The duplicate tables for ``k <= n`` players at ``n`` seats (see the module text), in a fixed order."""
    if not 2 <= k <= n:
        raise TournamentError(f"seatings() covers 2 to {n} players at {n} seats, not {k}")
    out: dict[tuple[int, ...], None] = {}
    for relabel in range(k):
        for rotation in range(n):
            out[tuple(((s + rotation) % n + relabel) % k for s in range(n))] = None
    return list(out)


def tables_for(k: int, n: int, index: int) -> list[tuple[int, ...]]:
    """The tables (seatings: player index per seat) at which deal or game ``index`` is played."""
    if k <= n:
        return seatings(k, n)
    lineups = list(itertools.combinations(range(k), n))
    lineup = lineups[index % len(lineups)]
    return [tuple(lineup[(s + r) % n] for s in range(n)) for r in range(n)]


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(["hearts-tournament", str(seed), *map(str, parts)]))


def deal_for(config: TournamentConfig, kind: str, index: int, hand: int = 0) -> tuple[int, ...]:
    """The dealt cards (one mask per seat) of hand ``hand`` of deal or game ``index``: the same everywhere."""
    return deal_cards(config.rules, _rng(config.seed, kind, index, "hand", hand))


def _player_seed(config: TournamentConfig, kind: str, index: int, table: int, seat: int) -> int:
    return _rng(config.seed, kind, index, "table", table, "seat", seat).getrandbits(63)


# -- playing ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of one deal or game: who sat where, what they were dealt and how it came out."""

    kind: str  #: "deal" (one hand) or "game" (to the target)
    index: int  #: the deal's or game's number
    table: int  #: the table's number within it
    seating: tuple[int, ...]  #: player index in each seat
    dealt: tuple[int, ...]  #: each seat's dealt cards (of the first hand, for games)
    scores: tuple[int, ...]  #: each seat's hand score (deals) or final total (games)
    moons: tuple[int, ...]  #: moons each seat shot
    winners: tuple[int, ...]  #: the winning seats (games; empty for deals)
    hands: int  #: hands played
    times: tuple[tuple[float, ...], ...]  #: each seat's seconds per decision (its player's own, never a stand-in's)
    faults: tuple[SeatFault, ...] = ()  #: the seats whose player faulted (``on_fault="forfeit"``)

    def forfeited_hands(self, fault: SeatFault) -> int:
        """The hands ``fault`` forfeited at this table: from the one it happened in to the last."""
        return self.hands - fault.hand + 1

    @property
    def payoffs(self) -> tuple[float, ...]:
        """Each seat's payoff: the mean of the other seats' scores minus its own (zero-sum over the table)."""
        n = len(self.scores)
        total = sum(self.scores)
        return tuple((total - s) / (n - 1) - s for s in self.scores)

    def to_dict(self, labels: Sequence[str]) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "index": self.index,
            "table": self.table,
            "seating": [labels[p] for p in self.seating],
            "dealt": [CardSet(m).names() for m in self.dealt],
            "scores": list(self.scores),
            "payoffs": list(self.payoffs),
            "moons": list(self.moons),
            "winners": list(self.winners),
            "hands": self.hands,
            "decisions": [len(t) for t in self.times],
            "faults": [f.to_dict(labels) for f in self.faults],
        }


def _seats(
    config: TournamentConfig, kind: str, index: int, table: int, seating: tuple[int, ...]
) -> tuple[tuple[str, ...], list[TableSeat]]:
    """The names shown at a table ("label (seat)") and its seats, their players made or kept."""
    names = tuple(f"{config.labels[p]} ({seat_name(s, len(seating))})" for s, p in enumerate(seating))
    seeds = [_player_seed(config, kind, index, table, s) for s in range(len(seating))]
    first = index if kind == "deal" else 0  # a lone deal's hand is numbered by the deal (for its pass direction)
    return names, table_seats(config.players, seating, seeds, config.budget, config.on_fault, first)


def _fault_stop(config: TournamentConfig, kind: str, index: int, table: int, fault: SeatFault) -> TournamentError:
    n = config.rules.players
    return TournamentError(
        f"{config.labels[fault.player]} faulted in {kind} {index + 1} (table {table + 1}, seat {fault.seat + 1} "
        f"{seat_name(fault.seat, n)}, hand {fault.hand}): {fault.words()}\n"
        "The tournament stops here (--on-fault forfeit scores a faulted seat's hands as forfeits and plays on)."
    )


def _play_deal_table(
    config: TournamentConfig, index: int, table: int, seating: tuple[int, ...], dealt: tuple[int, ...]
) -> TableResult:
    rules, n = config.rules, config.rules.players
    names, seats = _seats(config, "deal", index, table, seating)
    hand = HandState(rules, dealt, index)
    zeros = (0,) * n
    try:
        drive_table(hand, seats, view=lambda seat: SeatView.of_hand(hand, seat, zeros, names))
    finally:
        close_seats(seats)
    scores, moons = table_scores(seats, [hand], rules)
    faults = tuple(s.fault for s in seats if s.fault is not None)
    times = tuple(tuple(s.times) for s in seats)
    return TableResult("deal", index, table, seating, dealt, scores, moons, (), 1, times, faults)


def _play_game_table(config: TournamentConfig, index: int, table: int, seating: tuple[int, ...]) -> TableResult:
    rules, n = config.rules, config.rules.players
    names, seats = _seats(config, "game", index, table, seating)
    game = Game(rules, seed=0, deals=lambda number: deal_for(config, "game", index, number), names=names)
    try:
        drive_table(game, seats, hands=MAX_HANDS_PER_GAME)
        if not game.is_over:
            raise TournamentError(f"game {index} has not ended after {MAX_HANDS_PER_GAME} hands (totals {game.totals})")
    finally:
        close_seats(seats)
    finished = game.finished
    forfeited, moons = table_scores(seats, finished, rules)
    faults = tuple(s.fault for s in seats if s.fault is not None)
    totals, winners = tuple(game.totals), game.winners
    if faults:  # the faulted seats' hands from the fault on score as forfeits, and the winners follow the totals
        totals, winners = forfeited, tuple(s for s in range(n) if forfeited[s] == min(forfeited))
    times = tuple(tuple(s.times) for s in seats)
    return TableResult(
        "game", index, table, seating, tuple(finished[0].dealt), totals, moons, winners, len(finished), times, faults
    )


def play_table(config: TournamentConfig, unit: Unit, table: int) -> TableResult:
    """Play one table of a deal (a single hand) or of a whole game: the work a worker process is given."""
    kind, index = unit
    if kind not in ("deal", "game"):
        raise TournamentError(f"unknown unit kind {kind!r}: 'deal' or 'game'")
    seating = tables_for(len(config.players), config.rules.players, index)[table]
    try:
        with live.playing(unit, table):
            if kind == "deal":
                return _play_deal_table(config, index, table, seating, deal_for(config, "deal", index))
            return _play_game_table(config, index, table, seating)
    except SeatFaultError as exc:  # on_fault="stop": the whole fault, named, as the tournament's error
        raise _fault_stop(config, kind, index, table, exc.fault) from None


def play_unit(config: TournamentConfig, unit: Unit) -> list[TableResult]:
    """Play one deal (a single hand) or one whole game at every one of its tables."""
    tables = tables_for(len(config.players), config.rules.players, unit[1])
    return [play_table(config, unit, t) for t in range(len(tables))]


def units_of(config: TournamentConfig) -> list[Unit]:
    """Every unit of work, the long ones (games) first so that workers finish together."""
    return [("game", g) for g in range(config.games)] + [("deal", d) for d in range(config.hands)]


def _play_table_star(args: tuple[TournamentConfig, Unit, int]) -> TableResult:
    return play_table(*args)


def table_work(config: TournamentConfig, progress: ProgressFn | None) -> tuple[live.UnitShares, list[tuple[Unit, int]]]:
    """Every table of every unit, a piece of work each (games' tables first, so that workers finish together),
    and the account of the units played that tells ``progress``."""
    k, n = len(config.players), config.rules.players
    units = live.UnitShares({unit: len(tables_for(k, n, unit[1])) for unit in units_of(config)}, progress)
    return units, [(unit, t) for unit, count in units.tables.items() for t in range(count)]


def run_local(
    config: TournamentConfig, jobs: int | None = None, progress: ProgressFn | None = None
) -> list[TableResult]:
    """Play every table on this machine with ``jobs`` processes (default: every core); results in unit order.

    Each table of each deal or game is a piece of work of its own, so that a game's tables are played
    side by side and the workers finish together; ``progress`` hears each unit's share as it is played
    (:mod:`hearts.sim.live`). Each process keeps its ``cmd:`` bots for all its tables and stops them at the end.
    """
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise TournamentError(f"--jobs must be at least 1, not {jobs}")
    units, work = table_work(config, progress)
    results: list[TableResult] = []

    def done(result: TableResult) -> None:
        results.append(result)
        units.played((result.kind, result.index), result.table)

    if jobs == 1 or len(work) == 1:
        try:
            with live.reporting_to(units.share):
                for unit, table in work:
                    done(play_table(config, unit, table))
        finally:
            close_kept()  # the bots kept for every table of this tournament
    else:
        live.play_in_workers(_play_table_star, ((config, u, t) for u, t in work), min(jobs, len(work)), units, done)
    return in_order(results)


def in_order(results: Iterable[TableResult]) -> list[TableResult]:
    """Every table's result in the tournament's order: deals, then games, each in index and table order, whichever process played them when."""
    return sorted(results, key=lambda t: (t.kind != "deal", t.index, t.table))


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_tournament(
    config: TournamentConfig,
    jobs: int | None = None,
    backend: str = "local",
    progress: ProgressFn | None = None,
    ray_address: str | None = None,
    check: bool = True,
) -> TournamentResult:
    """Run the whole tournament on the ``local`` processes or a ``ray`` cluster; the result is the same.

    Every player is checked first (:func:`check_players`; ``check=False`` for a caller that has done it)."""
    if check:
        check_players(config.players, config.budget, config.rules)
    start = time.perf_counter()
    if backend == "local":
        tables = run_local(config, jobs, progress)
    elif backend == "ray":
        from hearts.sim.ray_backend import run_ray

        tables = run_ray(config, jobs, progress, address=ray_address)
    else:
        raise TournamentError(f"unknown backend {backend!r}: choose local or ray")
    return TournamentResult(config, tables, time.perf_counter() - start, backend)


# -- figures -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerFigures:
    """One player's figures; every :class:`Estimate` is over deals (or games), the duplicate unit."""

    label: str
    points: Estimate  #: points per hand
    payoff: Estimate  #: mean of the other seats' points minus its own, per seat per deal
    moons_made: Estimate  #: moons shot per seat-hand
    moons_allowed: Estimate  #: moons shot by another player's seat per seat-hand
    win_rate: Estimate  #: share of games to the target won per seat (a tie shares the win)
    game_total: Estimate  #: final total per seat per game
    decision_mean: Estimate  #: seconds per decision (the interval over deals' means)
    decision_p95: float  #: 95th percentile of seconds per decision, over every decision
    decisions: int
    payoff_by_deal: list[float] = field(repr=False)
    faults: int = 0  #: tables at which this player faulted (their hands scored as forfeits)
    forfeited_hands: int = 0  #: hands scored as forfeits at those tables

    def to_dict(self) -> dict[str, Any]:
        return {
            "points_per_hand": self.points.to_dict(),
            "payoff_per_seat_deal": self.payoff.to_dict(),
            "moons_made_per_hand": self.moons_made.to_dict(),
            "moons_allowed_per_hand": self.moons_allowed.to_dict(),
            "win_rate": self.win_rate.to_dict(),
            "final_total_per_game": self.game_total.to_dict(),
            "seconds_per_decision": {
                **self.decision_mean.to_dict(),
                "p95": self.decision_p95,
                "decisions": self.decisions,
            },
            "payoff_by_deal": self.payoff_by_deal,
            "faults": self.faults,
            "forfeited_hands": self.forfeited_hands,
        }


def _mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs)


class TournamentResult:
    """Every table played, and the figures, ratings and JSON computed from them."""

    def __init__(
        self, config: TournamentConfig, tables: list[TableResult], seconds: float = 0.0, backend: str = "local"
    ) -> None:
        self.config = config
        self.tables = tables
        self.seconds = seconds
        self.backend = backend

    def figures(self) -> list[PlayerFigures]:
        """Each player's figures, in the order the players were given."""
        labels = self.config.labels
        n = self.config.rules.players
        by_unit: dict[tuple[str, int], list[TableResult]] = {}
        for t in self.tables:
            by_unit.setdefault((t.kind, t.index), []).append(t)
        out = []
        for p, label in enumerate(labels):
            points, payoff, made, allowed, wins, totals, time_means = [], [], [], [], [], [], []
            all_times: list[float] = []
            for (kind, _), tables in by_unit.items():
                seats = [(t, s) for t in tables for s in range(n) if t.seating[s] == p]
                if not seats:
                    continue  # sat this one out (more players than seats)
                unit_times = [x for t, s in seats for x in t.times[s]]
                all_times.extend(unit_times)
                if unit_times:
                    time_means.append(_mean(unit_times))
                if kind == "deal":
                    points.append(_mean([t.scores[s] for t, s in seats]))
                    payoff.append(_mean([t.payoffs[s] for t, s in seats]))
                    made.append(_mean([t.moons[s] for t, s in seats]))
                    allowed.append(_mean([sum(t.moons[o] for o in range(n) if t.seating[o] != p) for t, s in seats]))
                else:
                    wins.append(_mean([1 / len(t.winners) if s in t.winners else 0.0 for t, s in seats]))
                    totals.append(_mean([t.scores[s] for t, s in seats]))
            faulted = [(t, f) for t in self.tables for f in t.faults if f.player == p]
            out.append(
                PlayerFigures(
                    label, mean_ci(points), mean_ci(payoff), rate_ci(made), rate_ci(allowed), rate_ci(wins),
                    mean_ci(totals), mean_ci(time_means), percentile(all_times, 95), len(all_times), payoff,
                    len(faulted), sum(t.forfeited_hands(f) for t, f in faulted),
                )
            )  # fmt: skip
        return out

    def faults(self) -> list[dict[str, Any]]:
        """Every fault, with where it happened (``index`` and ``table`` from 0, as in ``tables``) and the hands
        it forfeited, in table order."""
        labels = self.config.labels
        n = self.config.rules.players
        return [
            {
                "unit": t.kind,
                "index": t.index,
                "table": t.table,
                "seat_name": seat_name(f.seat, n),
                **f.to_dict(labels),
                "forfeited_hands": t.forfeited_hands(f),
            }  # fmt: skip
            for t in self.tables
            for f in t.faults
        ]

    def ratings(self) -> tuple[str, list[dict[str, Any]]]:
        """OpenSkill (Plackett-Luce) ratings over the tournament's games, in table order.

        Each table is a match whose teams are the distinct players at it, ranked by the mean final
        total of their seats (lower is better; equal means tie). With no whole games the deals' hands
        are rated the same way by hand score. Returns what was rated and each player's rating, best first.
        """
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        labels = self.config.labels
        ratings = {label: model.rating(name=label) for label in labels}
        kind = "game" if any(t.kind == "game" for t in self.tables) else "deal"
        matches = 0
        for t in self.tables:
            if t.kind != kind:
                continue
            present = list(dict.fromkeys(t.seating))
            ranks = [_mean([t.scores[s] for s in range(len(t.seating)) if t.seating[s] == p]) for p in present]
            teams = [[ratings[labels[p]]] for p in present]
            for (new,), p in zip(model.rate(teams, ranks=ranks), present, strict=True):
                ratings[labels[p]] = new
            matches += 1
        rated = sorted(ratings.items(), key=lambda item: -item[1].ordinal())
        rows = [{"player": label, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for label, r in rated]
        return f"{matches} {kind}s", rows

    def to_dict(self, include_tables: bool = True) -> dict[str, Any]:
        """Every figure as JSON-ready data (and every table played, unless ``include_tables`` is false)."""
        rated, ratings = self.ratings()
        labels = self.config.labels
        n = self.config.rules.players
        k = len(labels)
        data: dict[str, Any] = {
            "config": self.config.to_dict(),
            "seating": "rotations" if k <= n else "lineups",
            "tables_per_deal": len(tables_for(k, n, 0)),
            "confidence": 0.95,
            "interval_unit": "deal (games: game), over which every figure's interval is taken",
            "win_rule": "a game is won by the lowest total; tied lowest seats share the win (1/k each)",
            "seconds": self.seconds,
            "backend": self.backend,
            "players": {f.label: f.to_dict() for f in self.figures()},
            "ratings": {"model": "openskill PlackettLuce", "rated": rated, "table": ratings},
            "forfeit_points": forfeit_points(self.config.rules),
            "faults": self.faults(),
        }
        if include_tables:
            data["tables"] = [t.to_dict(labels) for t in self.tables]
        return data

"""Many hands between computer players through the rules engine: points per seat, moons, speed.

The hands are the hands of successive games: each game is played to its target
(the pass direction cycling as the rules say), then a new game starts, until
``hands`` hands are done; the last game usually stops part-way. Every game has
its own seed, drawn from the run's seed, and so does every seat's player, so a
seed gives the same hands, the same points and the same records on every machine.

The ``random`` level is :class:`FastRandom`: uniformly random legal moves, as
:class:`~hearts.players.random_player.RandomPlayer` makes, drawn straight from the
engine's ``legal_plays()`` and the seat's own cards with one generator per seat,
without building a :class:`~hearts.core.view.SeatView` and a generator per decision
(RandomPlayer seeds a generator from each view, so that a view always gets the same
move; a simulation does not need that, and it would cost more than the play).
Any other level is asked through :meth:`Player.decide` with the seat's view.

>>> result = simulate(SimulationConfig(hands=8, seed=3))
>>> result.hands, len(result.seats), sum(s.total for s in result.seats) == result.points_taken
(8, 4, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hearts.core import GameRecord, Phase, Rules, cards_of, dumps, seat_name
from hearts.core.game import Game
from hearts.players.base import Player
from hearts.players.drive import turns
from hearts.players.random_player import RandomPlayer
from hearts.players.registry import LEVELS, make_player
from hearts.sim.stats import Estimate, t_quantile

#: Progress callback: ``(hands done, hands in all)``.
Progress = Callable[[int, int], None]
#: Called with each game's record as soon as the game stops (finished, or cut at the last hand).
RecordSink = Callable[[int, GameRecord], None]

__all__ = [
    "FastRandom", "HandOutcome", "SeatFigures", "SeatPlayer", "SimulationConfig", "SimulationError", "SimulationResult", "play_hands",
    "records_writer", "simulate",
]  # fmt: skip


class SimulationError(ValueError):
    """A simulation that cannot run as asked (unknown preset, player level, seat count...).

    ``option`` names the command-line option at fault, for the CLI's message.
    """

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


@dataclass(frozen=True)
class SimulationConfig:
    """What to simulate. ``players`` is one level for every seat or one level per seat."""

    hands: int = 1000
    seats: int = 4
    preset: str = "standard"
    seed: int = 0
    players: tuple[str, ...] = ("random",)
    #: "python" (the rules engine), "fast" (hearts.fast's compiled games; random level only) or
    #: "auto" (fast when numba is installed and every seat is random); resolved on construction.
    engine: str = "python"
    rules: Rules = field(init=False, compare=False)

    def __post_init__(self) -> None:
        from hearts.core import HeartsError

        if not isinstance(self.hands, int) or isinstance(self.hands, bool) or self.hands < 1:
            raise SimulationError(f"hands must be a whole number of at least 1, not {self.hands!r}", "--hands")
        if not isinstance(self.seats, int) or isinstance(self.seats, bool) or not 3 <= self.seats <= 6:
            raise SimulationError(f"seats must be 3, 4, 5 or 6, not {self.seats!r}", "--seats")
        try:
            rules = Rules.preset(self.preset, players=self.seats)
        except HeartsError as exc:
            raise SimulationError(str(exc), "--preset") from None
        object.__setattr__(self, "rules", rules)
        levels = tuple(p.strip().lower() for p in self.players)
        if len(levels) == 1:
            levels = levels * self.seats
        if len(levels) != self.seats:
            raise SimulationError(
                f"give one player level for every seat or one per seat: {len(levels)} levels for {self.seats} seats",
                "--players",
            )
        for level in levels:
            if level not in LEVELS:
                raise SimulationError(f"unknown player level {level!r}: choose one of {', '.join(LEVELS)}", "--players")
        object.__setattr__(self, "players", levels)
        engine = self.engine.strip().lower() if isinstance(self.engine, str) else self.engine
        if engine not in ENGINES:
            raise SimulationError(f"unknown engine {self.engine!r}: choose one of {', '.join(ENGINES)}", "--engine")
        all_random = set(levels) == {"random"}
        if engine == "auto":
            engine = "fast" if all_random and fast_engine_available() else "python"
        elif engine == "fast" and not all_random:
            raise SimulationError("the fast engine plays the random level only: use --engine python for other levels", "--engine")
        object.__setattr__(self, "engine", engine)


#: The engines ``hearts simulate`` can play through.
ENGINES = ("python", "fast", "auto")


def fast_engine_available() -> bool:
    """Whether the compiled engine would really be compiled: numba is installed and not disabled.

    Checked without importing numba (half a second), so that choosing an engine costs nothing.
    """
    import importlib.util
    import os

    return importlib.util.find_spec("numba") is not None and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One finished hand: its scores per seat and who shot the moon (None if nobody did)."""

    scores: tuple[int, ...]
    shooter: int | None


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """One seat's figures over the run."""

    seat: int
    name: str
    player: str
    total: int  #: points over every hand (a moon's scores and a bonus card included)
    points: Estimate  #: points per hand, with its 95% interval
    moons: int  #: hands in which this seat shot the moon
    wins: float  #: games won (a win shared by k seats counts 1/k)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "player": self.player,
            "total": self.total,
            "mean": self.points.mean,
            "ci_low": self.points.low,
            "ci_high": self.points.high,
            "sd": self.points.sd,
            "moons": self.moons,
            "wins": self.wins,
        }


@dataclass(frozen=True, slots=True)
class SimulationResult:
    config: SimulationConfig
    hands: int
    seconds: float  #: wall-clock time of the play (writing records not included: see record_seconds)
    games: int  #: games started (the last one may be unfinished)
    games_finished: int
    seats: tuple[SeatFigures, ...]
    moons: int  #: hands with a moon
    record_seconds: float = 0.0  #: time spent building and writing records
    #: CPU time of the play: on a busy machine, the wall clock also counts other programs' turns.
    cpu_seconds: float = 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("inf")

    @property
    def hands_per_cpu_second(self) -> float:
        return self.hands / self.cpu_seconds if self.cpu_seconds > 0 else float("inf")

    @property
    def points_taken(self) -> int:
        return sum(s.total for s in self.seats)

    def to_dict(self) -> dict[str, Any]:
        """Every figure as JSON-ready data."""
        return {
            "hands": self.hands,
            "seconds": self.seconds,
            "hands_per_second": self.hands_per_second,
            "preset": self.config.preset,
            "seats": self.config.seats,
            "seed": self.config.seed,
            "players": list(self.config.players),
            "engine": self.config.engine,
            "rules": self.config.rules.to_dict(),
            "games": self.games,
            "games_finished": self.games_finished,
            "moons": self.moons,
            "record_seconds": self.record_seconds,
            "cpu_seconds": self.cpu_seconds,
            "hands_per_cpu_second": self.hands_per_cpu_second,
            "points": [s.to_dict() for s in self.seats],
        }


class _Tally:
    """Running sums per seat: exact (integer) means and variances without keeping every hand."""

    def __init__(self, seats: int) -> None:
        self.hands = 0
        self.total = [0] * seats
        self.squares = [0] * seats
        self.moons = [0] * seats
        self.wins = [0.0] * seats
        self.games_finished = 0

    def add(self, outcome: HandOutcome) -> None:
        self.hands += 1
        for s, p in enumerate(outcome.scores):
            self.total[s] += p
            self.squares[s] += p * p
        if outcome.shooter is not None:
            self.moons[outcome.shooter] += 1

    def game_over(self, winners: Sequence[int]) -> None:
        self.games_finished += 1
        for s in winners:
            self.wins[s] += 1 / len(winners)

    def estimate(self, seat: int) -> Estimate:
        n = self.hands
        mean = self.total[seat] / n
        if n < 2:
            return Estimate(mean, mean, mean, n, 0.0)
        # n * sum(x^2) - sum(x)^2 is exact in integers; the variance is that over n(n-1).
        var = (n * self.squares[seat] - self.total[seat] ** 2) / (n * (n - 1))
        sd = math.sqrt(max(var, 0.0))
        half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
        return Estimate(mean, mean - half, mean + half, n, sd)


class FastRandom:
    """The ``random`` level in a simulation: uniform over the legal plays and over the passes.

    It reads only what the seat may see (its own cards, and the legal plays, which follow
    from its cards and the cards on the table). The rare moon choice goes to a
    :class:`RandomPlayer` through the seat's view, which decides it as every player does.
    """

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.moon_player = RandomPlayer(seed=seed)


#: A seat's player in a simulation: the fast random policy, or any :class:`Player`.
SeatPlayer = FastRandom | Player


def _seat_players(config: SimulationConfig, seeds: Sequence[int]) -> list[SeatPlayer]:
    return [
        FastRandom(seed) if level == "random" else make_player(level, seed=seed)
        for level, seed in zip(config.players, seeds, strict=True)
    ]


def play_hands(
    game: Game,
    players: Sequence[SeatPlayer],
    hands: int,
    on_hand: Callable[[HandOutcome], None],
) -> int:
    """Play ``game`` until it is over or ``hands`` hands have finished; return the hands finished.

    The turns come from the one game loop (:func:`hearts.players.drive.turns`); a :class:`FastRandom`
    seat's move is drawn from the engine's legal plays and applied here, any other seat's player decides
    on its view. A compiled batch path can stand beside it.
    """
    pass_count = game.rules.pass_count
    PLAY, PASS = Phase.PLAY, Phase.PASS  # locals: an enum member read through its class is slow
    finished = game.finished
    before = len(finished)
    for seat in turns(game, hands):
        player = players[seat]
        if isinstance(player, FastRandom):
            hand = game.hand
            phase = hand.phase
            if phase is PLAY:
                game.play(player.rng.choice(hand.legal_plays()))
            elif phase is PASS:
                game.pass_cards(seat, player.rng.sample(cards_of(hand.hands[seat]), pass_count))
            else:
                game.apply(player.moon_player.decide(game.view(seat)).move)
        else:
            game.apply(player.decide(game.view(seat)).move)
    for hand in finished[before:]:
        assert hand.scores is not None  # finished hands are scored
        on_hand(HandOutcome(hand.scores, hand.shooter))
    return len(finished) - before


def simulate(
    config: SimulationConfig,
    *,
    progress: Progress | None = None,
    records: RecordSink | None = None,
) -> SimulationResult:
    """Play ``config.hands`` hands through the engine and gather the figures.

    ``progress`` is called after every game and at least every 256 hands; ``records``
    receives each game's :class:`GameRecord` (numbered from 1) when the game stops.
    """
    if config.engine == "fast":
        if records is not None:
            raise SimulationError("the fast engine keeps no records: use --engine python with --records", "--records")
        return _simulate_fast(config, progress)
    rules = config.rules
    n = rules.players
    master = random.Random(f"hearts-simulate:{config.seed}")
    players = _seat_players(config, [master.getrandbits(32) for _ in range(n)])
    tally = _Tally(n)
    games = 0
    step = 256
    recording = cpu_recording = 0.0
    start, cpu_start = time.perf_counter(), time.process_time()
    while tally.hands < config.hands:
        game = Game(rules, seed=master.getrandbits(32))
        games += 1
        while not game.winners and tally.hands < config.hands:
            play_hands(game, players, min(step, config.hands - tally.hands), tally.add)
            if progress is not None:
                progress(tally.hands, config.hands)
        if game.winners:
            tally.game_over(game.winners)
        if records is not None:
            began, cpu_began = time.perf_counter(), time.process_time()
            records(games, GameRecord.of(game))
            recording += time.perf_counter() - began
            cpu_recording += time.process_time() - cpu_began
    seconds = time.perf_counter() - start - recording
    cpu_seconds = time.process_time() - cpu_start - cpu_recording
    seats = _seat_figures(config, tally)
    return SimulationResult(
        config, tally.hands, seconds, games, tally.games_finished, seats, sum(tally.moons), recording, cpu_seconds
    )


def _seat_figures(config: SimulationConfig, tally: _Tally) -> tuple[SeatFigures, ...]:
    """Each seat's figures from the tally, the same for the engine path and the compiled one."""
    n = config.rules.players
    return tuple(
        SeatFigures(
            seat=s,
            name=seat_name(s, n),
            player=config.players[s],
            total=tally.total[s],
            points=tally.estimate(s),
            moons=tally.moons[s],
            wins=tally.wins[s],
        )
        for s in range(n)
    )


def _simulate_fast(config: SimulationConfig, progress: Progress | None) -> SimulationResult:
    """The compiled path: every seat plays the random level in :func:`hearts.fast.simulate_games`.

    The same game as the engine path (uniform legal plays and passes, games to the target,
    a moon left to the shooter answered by ``best_moon_option`` as the random level answers
    it) with another generator, so a seed deals other hands than ``engine="python"``.
    tests/test_fast_kernels.py replays the compiled games through the engine card for card.
    """
    import numpy as np

    from hearts.fast import simulate_games

    rules = config.rules
    n = rules.players
    seed = random.Random(f"hearts-simulate-fast:{config.seed}").getrandbits(31)
    simulate_games(rules, 1, "random", seed)  # compile, or load the compiled code, outside the timing
    start, cpu_start = time.perf_counter(), time.process_time()
    result = simulate_games(rules, config.hands, "random", seed, moon="best", progress=progress)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    tally = _Tally(n)
    tally.hands = result.hands
    tally.total = [int(x) for x in result.scores.sum(axis=0)]
    tally.squares = [int(x) for x in (result.scores * result.scores).sum(axis=0)]
    tally.moons = [int(x) for x in np.bincount(result.shooters[result.shooters >= 0], minlength=n)]
    tally.wins = result.wins()
    tally.games_finished = result.games_finished
    seats = _seat_figures(config, tally)
    return SimulationResult(
        config, tally.hands, seconds, result.games, tally.games_finished, seats, sum(tally.moons), 0.0, cpu_seconds
    )


def records_writer(directory: Path) -> RecordSink:
    """A record sink writing game ``k`` to ``directory/game-00000k.json`` (the engine's record format).

    The directory is created if need be; an existing file of the same name is replaced.
    """
    directory.mkdir(parents=True, exist_ok=True)

    def write(number: int, record: GameRecord) -> None:
        (directory / f"game-{number:06d}.json").write_text(dumps(record, indent=None), encoding="utf-8")

    return write

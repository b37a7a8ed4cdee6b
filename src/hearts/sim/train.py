"""Training the learned evaluation: compiled self-play, a ridge regression, a duplicate measure per round.

Policy iteration in rounds. Round 0's hands are played by the medium player's compiled card play;
round ``k``'s by round ``k - 1``'s model; in both every seat plays a random legal card with
probability ``eps`` so that the other cards are tried too. Every decision with a choice adds its
features (:mod:`hearts.fast.features`) and its outcome (the seat's points from there to the end of
the hand, less the others' mean) to the sums of a ridge regression, solved in closed form: the new
weights. After each round the model is measured by duplicate play on fixed deals
(:func:`hearts.fast.selfplay.duplicate_payoff`: the model in one chair, the same deal with the fixed
player in it) against the medium player and against random play: the learning curve.

Everything derives from the seed: hand ``i`` of round ``k`` is dealt from ``hand_seed(seed, k *
hands + i)``, the hands are gathered in fixed chunks of :data:`CHUNK` whichever process plays them,
and the chunks' sums are added in chunk order, so the local backend (any ``jobs``) and Ray give the
same weights, bit for bit, on one machine.
"""

from __future__ import annotations

import logging
import math
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hearts.core import Rules
from hearts.players.weights import WEIGHTS_SHAPE, LearnedModel

#: Hands per piece of self-play work (fixed, so that the sums do not depend on the number of workers).
CHUNK = 2_000
#: The seed of the measuring deals (apart from the training seed: every model is measured on the same deals).
EVAL_SEED = 20_061_003
#: The fixed players the learning curve measures the model against.
OPPONENTS = ("medium", "random")

#: ``progress(done, total, note)``: hands played (and deals measured) so far.
TrainProgress = Callable[[int, int, str], None]


class TrainError(ValueError):
    """A training run asked for something it cannot do (its message names the option)."""


@dataclass(frozen=True)
class TrainConfig:
    """What a training run does; the same config and seed give the same weights."""

    hands: int = 200_000  #: self-play hands per round
    rounds: int = 4
    seed: int = 1
    eps: float = 0.3  #: chance that a seat plays a random legal card in self-play
    ridge: float = 1.0  #: the ridge penalty on the weights
    eval_deals: int = 1_000  #: deals of the duplicate measure after each round
    preset: str = "standard"
    keep: float = 1.0  #: the weight of earlier rounds' sums in each fit (0: the last round's hands only)
    margin: float = 3.0  #: points by which a card must beat the medium player's card to be played instead
    #: What a card is worth: ``outcome`` (the hand's outcome after the card chosen) or ``rollout``
    #: (every legal card played out by medium on the same deal).
    targets: str = "outcome"

    def check(self) -> None:
        if self.hands < 1:
            raise TrainError(f"--hands must be at least 1, not {self.hands}")
        if self.rounds < 1:
            raise TrainError(f"--rounds must be at least 1, not {self.rounds}")
        if self.seed < 0:
            raise TrainError(f"--seed must be 0 or more, not {self.seed}")
        if not 0.0 <= self.eps <= 1.0:
            raise TrainError(f"--eps must be between 0 and 1, not {self.eps}")
        if self.ridge <= 0.0:
            raise TrainError(f"--ridge must be above 0, not {self.ridge}")
        if self.targets not in ("rollout", "outcome"):
            raise TrainError(f"--targets must be rollout or outcome, not {self.targets!r}")
        if self.margin < 0.0:
            raise TrainError(f"--margin must be 0 or more, not {self.margin}")
        if not 0.0 <= self.keep <= 1.0:
            raise TrainError(f"--keep must be between 0 and 1, not {self.keep}")
        if self.eval_deals < 0:
            raise TrainError(f"--eval-deals must be 0 or more, not {self.eval_deals}")
        Rules.preset(self.preset)  # a RulesError naming the preset

    def command(self, out: str = "weights.npz") -> str:
        """The ``hearts train`` command that runs this config."""
        return (
            f"hearts train --hands {self.hands} --rounds {self.rounds} --seed {self.seed} --eps {self.eps:g} "
            f"--ridge {self.ridge:g} --keep {self.keep:g} --margin {self.margin:g} --targets {self.targets} --eval-deals {self.eval_deals} --preset {self.preset} --out {shlex.quote(out)}"
        )


@dataclass(frozen=True)
class Piece:
    """One chunk of self-play: hands ``first .. first + count - 1`` played by ``modes`` with ``weights``."""

    preset: str
    seed: int
    first: int
    count: int
    modes: tuple[int, ...]
    weights: np.ndarray
    margin: float
    eps: float
    rollouts: bool


def gather_piece(piece: Piece) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The regression's sums over one chunk (:func:`hearts.fast.selfplay.gather`): what a worker runs."""
    from hearts.fast import selfplay
    from hearts.fast.bridge import shared_rules_array

    R = shared_rules_array(Rules.preset(piece.preset))
    modes = np.array(piece.modes, dtype=np.int64)
    size = int(np.prod(WEIGHTS_SHAPE))
    return selfplay.gather(
        R, piece.seed, piece.first, piece.count, modes, piece.weights, piece.margin, piece.eps, piece.rollouts, size
    )


def pieces(config: TrainConfig, round_number: int, weights: np.ndarray) -> list[Piece]:
    """Round ``round_number``'s self-play cut into chunks of :data:`CHUNK` hands: round 0 all medium,
    later rounds the model in every other chair and medium in the rest (the model learns against the
    player it must beat, and its own play keeps the medium seats' outcomes honest)."""
    from hearts.fast.selfplay import SEAT_LEARNED, SEAT_MEDIUM

    players = Rules.preset(config.preset).players
    if round_number == 0:
        modes = (SEAT_MEDIUM,) * players
    else:
        modes = tuple(SEAT_LEARNED if s % 2 == 0 else SEAT_MEDIUM for s in range(players))
    start = round_number * config.hands
    return [
        Piece(
            config.preset,
            config.seed,
            start + i,
            min(CHUNK, config.hands - i),
            modes,
            weights,
            config.margin,
            config.eps,
            config.targets == "rollout",
        )
        for i in range(0, config.hands, CHUNK)
    ]


Sums = tuple[np.ndarray, np.ndarray, np.ndarray]
#: Runs every piece and yields their sums in the pieces' order.
Backend = Callable[[list[Piece]], Iterator[Sums]]


def local_backend(jobs: int = 1) -> Backend:
    """Chunks played in this process (``jobs`` 1) or in ``jobs`` worker processes, yielded in order."""
    if jobs < 1:
        raise TrainError(f"--jobs must be at least 1, not {jobs}")

    def run(work: list[Piece]) -> Iterator[Sums]:
        if jobs == 1 or len(work) == 1:
            for piece in work:
                yield gather_piece(piece)
            return
        from concurrent.futures import ProcessPoolExecutor

        from hearts import children

        # hearts.children: the workers exit when this process dies, however it dies (kill -9 included).
        with ProcessPoolExecutor(max_workers=min(jobs, len(work)), mp_context=children.context("spawn")) as pool:
            yield from pool.map(gather_piece, work)

    return run


def ray_backend(jobs: int | None = None, address: str | None = None) -> Backend:
    """Chunks played as Ray tasks (a local Ray of ``jobs`` CPUs, or the cluster at ``address``), yielded
    in the chunks' order whichever finishes first, so the weights are the local backend's."""

    def run(work: list[Piece]) -> Iterator[Sums]:
        try:
            import ray
        except ImportError:
            raise TrainError("the ray backend needs Ray: pip install 'hearts[ray]' (or pip install ray)") from None
        started_here = False
        if not ray.is_initialized():
            if address:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            else:
                if jobs is not None and jobs < 1:
                    raise TrainError(f"--jobs must be at least 1, not {jobs}")
                ray.init(num_cpus=jobs, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
            started_here = True
        try:
            task = ray.remote(num_cpus=1)(gather_piece)
            refs = [task.remote(piece) for piece in work]
            for ref in refs:
                yield ray.get(ref)
        finally:
            if started_here:
                ray.shutdown()

    return run


def fit(XtX: np.ndarray, Xty: np.ndarray, ridge: float) -> np.ndarray:
    """The ridge regression's weights, shaped :data:`~hearts.players.weights.WEIGHTS_SHAPE`."""
    size = XtX.shape[0]
    return np.linalg.solve(XtX + ridge * np.eye(size), Xty).reshape(WEIGHTS_SHAPE)


def measure(preset: str, weights: np.ndarray, margin: float, deals: int, opponent: str) -> np.ndarray:
    """The model's duplicate payoff per seat-deal against ``opponent`` (``medium`` or ``random``) on
    the fixed measuring deals: float64[deals, players] (positive: the model takes fewer points)."""
    from hearts.fast import selfplay
    from hearts.fast.bridge import shared_rules_array

    code = {"medium": selfplay.SEAT_MEDIUM, "random": selfplay.SEAT_RANDOM}[opponent]
    R = shared_rules_array(Rules.preset(preset))
    return selfplay.duplicate_payoff(R, EVAL_SEED, 0, deals, code, np.ascontiguousarray(weights), margin)


def interval(payoffs: np.ndarray) -> tuple[float, float]:
    """Mean and 95% half-width of the payoff per deal (each deal's seats averaged: they share a deal)."""
    per_deal = payoffs.mean(axis=1)
    n = per_deal.size
    if n < 2:
        return float(per_deal.mean()) if n else 0.0, 0.0
    return float(per_deal.mean()), float(1.96 * per_deal.std(ddof=1) / math.sqrt(n))


def train(
    config: TrainConfig,
    backend: Backend | None = None,
    progress: TrainProgress | None = None,
    command: str | None = None,
    version: str = "learned-v1",
) -> LearnedModel:
    """Run ``config``'s rounds and return the last round's model, with its learning curve."""
    config.check()
    backend = backend or local_backend(1)
    weights = np.zeros(WEIGHTS_SHAPE)
    total = config.rounds * (config.hands + config.eval_deals)
    done = 0
    size = int(np.prod(WEIGHTS_SHAPE))
    XtX = np.zeros((size, size))
    Xty = np.zeros(size)
    curve: dict[str, list[float]] = {"round": []}
    for name in OPPONENTS:
        curve[name] = []
        curve[name + "_half"] = []
    for r in range(config.rounds):
        work = pieces(config, r, weights)
        XtX *= config.keep
        Xty *= config.keep
        for piece, (a, b, _totals) in zip(work, backend(work), strict=True):
            XtX += a
            Xty += b
            done += piece.count
            if progress:
                progress(done, total, f"round {r + 1}/{config.rounds}: self-play")
        weights = fit(XtX, Xty, config.ridge)
        curve["round"].append(float(r + 1))
        for name in OPPONENTS:
            if config.eval_deals:
                mean, half = interval(measure(config.preset, weights, config.margin, config.eval_deals, name))
            else:
                mean, half = math.nan, math.nan
            curve[name].append(mean)
            curve[name + "_half"].append(half)
        done += config.eval_deals
        if progress:
            progress(done, total, f"round {r + 1}/{config.rounds}: vs medium {curve['medium'][-1]:+.2f}")
    return LearnedModel(
        weights=weights,
        version=version,
        seed=config.seed,
        margin=config.margin,
        command=command or config.command(),
        preset=config.preset,
        curve=curve,
    )


def plot_curve(model: LearnedModel, path: str | Path) -> Path:
    """Write the learning curve (payoff per seat-deal against each fixed player, per round, with 95%
    intervals) as a PNG to ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    path = Path(path)
    fig = Figure(figsize=(7, 4.5))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    rounds = model.curve.get("round", [])
    for i, name in enumerate(OPPONENTS):
        means = model.curve.get(name, [])
        halves = model.curve.get(name + "_half", [])
        if means:
            ax.errorbar(rounds, means, yerr=halves, marker="o", capsize=4, color=f"C{i}", label=f"against {name}")
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("training round (duplicate: the model in one chair, the fixed player in the others)")
    ax.set_ylabel("payoff per seat-deal (points; 95% interval)")
    ax.set_title(f"{model.version}: learning curve (seed {model.seed}, preset {model.preset})")
    ax.legend(loc="best")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=100)
    return path

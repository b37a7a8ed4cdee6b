"""The search players' early moon threat: which seat it is, and in which sampled worlds it runs.

Before an opponent holds enough points to be the plain moon threat (``threat_points`` of the
:class:`~hearts.players.search_config.SearchConfig`), a seat may already be running for the moon. The
search lets it run in some of its sampled worlds and play as the others do in the rest:
:func:`early_threat_seat` says who, :class:`EarlyThreat` and :func:`running_worlds` where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hearts.core import SeatView
from hearts.players import compiled as fast
from hearts.players.knowledge import Knowledge
from hearts.players.search_config import SearchConfig

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from hearts.players.compiled import Floats, Ints

    Bools = npt.NDArray[np.bool_]


def early_threat_seat(view: SeatView, k: Knowledge, min_points: int, min_tricks: int) -> int:
    """The other seat holding every penalty card taken so far, at least ``min_points`` of them
    (or Q♠ and two more); before anyone has a point, the one seat that has won the most tricks, at
    least ``min_tricks`` of them (0: not this way); -1 when there is none."""
    seat = k.moon_threat(min_points=min_points)
    if seat >= 0 or not min_tricks or not k.moon_possible or k.point_holders():
        return seat
    won = [0] * view.rules.players
    for trick in view.tricks:
        if trick.winner is not None:
            won[trick.winner] += 1
    top = max(range(len(won)), key=lambda s: won[s])
    if top != view.seat and won[top] >= min_tricks and won.count(won[top]) == 1:
        return top
    return -1


def running_worlds(strength: Floats, at: float, slope: float, evidence: Floats) -> tuple[Bools, Floats]:
    """For each sampled world, whether the early threat runs there, and the log of how well the
    mixture of running and not explains its plays relative to medium's play alone.

    ``strength`` is the moon strength of the hand the world dealt it; its prior chance of running
    is ``1 / (1 + exp(-slope * (strength - at)))``, times ``exp(evidence)`` (how much better a run
    explains its plays and pass: :func:`hearts.players.compiled.moon_log_ratios`), and it runs where
    that makes a run likelier than not.

    >>> import numpy as np
    >>> runs, logw = running_worlds(np.array([0.2, 0.5]), 0.45, 25.0, np.array([0.0, 0.0]))
    >>> runs.tolist(), round(float(logw[0]), 6)
    ([False, True], 0.0)
    """
    import numpy as np

    prior = 1.0 / (1.0 + np.exp(-slope * (strength - at)))
    with np.errstate(divide="ignore"):
        log_run = np.log(prior) + evidence
        log_not = np.log1p(-prior)
    return log_run >= log_not, np.logaddexp(log_not, log_run)


class EarlyThreat:
    """One decision's early threat ``seat``, read with ``config``'s settings: in which of a batch of
    sampled worlds it runs (:meth:`runs`)."""

    def __init__(self, config: SearchConfig, rules_row: Ints, view: SeatView, seat: int) -> None:
        import math

        self.R, self.seat = rules_row, seat
        self.at, self.slope = config.early_threat_strength, config.early_threat_slope
        self.log_miss, self.log_lead_miss = math.log(config.miss_weight), math.log(config.lead_miss_weight)
        self.log_pass_miss = math.log(config.pass_miss_weight)
        self.played = view.played_by()[seat]
        # The pass it made to this seat says whether it was building a moon.
        received = view.received if seat == view.pass_from else None
        self.received = received.mask if received is not None else 0

    def runs(self, sampled: Ints, starts: Ints | None = None, plays: Ints | None = None) -> tuple[Bools, Floats]:
        """For each world of ``sampled`` (the hands of the unseen cards), whether the threat runs
        there and the log weight its plays give it (:func:`running_worlds`): a prior from the hand
        it was dealt there, times how much better a run explains its plays than medium's play
        (given the worlds' ``starts`` of play and the ``plays`` so far, once a trick is done) and
        its pass to this seat."""
        import numpy as np

        R, seat = self.R, self.seat
        strength = np.array([fast.moon_strength(R, int(h) | self.played) for h in sampled[:, seat]])
        if starts is not None and plays is not None:
            evidence = fast.moon_log_ratios(starts, R, plays, seat, self.log_miss, self.log_lead_miss)
        else:
            evidence = np.zeros(len(sampled))
        if self.received:
            hands = sampled[:, seat] | self.played | self.received
            evidence = evidence + fast.pass_log_ratios(hands, R, self.received, self.log_pass_miss)
        return running_worlds(strength, self.at, self.slope, evidence)

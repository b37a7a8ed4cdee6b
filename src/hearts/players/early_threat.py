"""The search players' early moon threat: which seat it is, and in which sampled worlds it runs.

Before an opponent holds enough points to be the plain moon threat (``SearchPlayer.threat_points``),
a seat may already be running for the moon. The search lets it run in some of its sampled worlds and
play as the others do in the rest; :func:`early_threat_seat` says who, :class:`EarlyThreat` (read as a
:class:`ThreatReading` says) and :func:`running_worlds` where. See docs/players.md, "Early moon threat".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hearts.core import SeatView
from hearts.players.knowledge import Knowledge


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


def running_worlds(strength: Any, at: float, slope: float | None, evidence: Any) -> tuple[Any, Any]:
    """For each sampled world, whether the early threat runs there, and the log of how well the
    mixture of running and not explains its plays relative to medium's play alone.

    ``strength`` is the moon strength of the hand the world dealt it. With no ``slope`` it runs
    where that reaches ``at`` (and the plays say nothing); with one, its prior chance of running is
    ``1 / (1 + exp(-slope * (strength - at)))``, times ``exp(evidence)``
    (:func:`hearts.fast.kernels.moon_log_ratios`), and it runs where that makes a run likelier than not.

    >>> import numpy as np
    >>> runs, logw = running_worlds(np.array([0.2, 0.5]), 0.45, 25.0, np.array([0.0, 0.0]))
    >>> runs.tolist(), bool(logw[0] == 0.0)
    ([False, True], True)
    """
    import numpy as np

    if slope is None:
        prior = np.where(strength >= at, 1.0, 0.0)
    else:
        prior = 1.0 / (1.0 + np.exp(-slope * (strength - at)))
    with np.errstate(divide="ignore"):
        log_run = np.log(prior) + evidence
        log_not = np.log1p(-prior)
    return log_run >= log_not, np.logaddexp(log_not, log_run)


@dataclass(frozen=True)
class ThreatReading:
    """How a search player reads an early threat (its settings, see ``SearchPlayer``): the moon
    strength ``at`` which its dealt hand runs and the prior's ``slope`` (:func:`running_worlds`);
    whether its plays are read (``moon_evidence``) and the log weights of a card a model would not
    have played or led (``log_miss``, ``log_lead_miss``: :func:`hearts.fast.kernels.moon_log_ratios`);
    the log weight of a card it would not have passed (``log_pass_miss``, 0: its pass is not read).
    """

    at: float
    slope: float | None
    moon_evidence: bool
    log_miss: float
    log_lead_miss: float
    log_pass_miss: float


class EarlyThreat:
    """One decision's early threat ``seat``, read as ``reading`` says with the compiled ``kernels``:
    in which of a batch of sampled worlds it runs (:meth:`runs`)."""

    def __init__(self, kernels: Any, reading: ThreatReading, rules_row: Any, view: SeatView, seat: int) -> None:
        self.kernels, self.reading, self.R, self.seat = kernels, reading, rules_row, seat
        self.played = view.played_by()[seat]
        # The pass it made to this seat says whether it was building a moon.
        received = view.received if seat == view.pass_from else None
        self.received = received.mask if received is not None and reading.log_pass_miss else 0

    def runs(self, sampled: Any, starts: Any = None, plays: Any = None) -> tuple[Any, Any]:
        """For each world of ``sampled`` (the hands of the unseen cards), whether the threat runs
        there and the log weight its plays give it (:func:`running_worlds`): a prior from the hand
        it was dealt there, times how much better a run explains its plays than medium's play
        (with ``moon_evidence``, given the worlds' ``starts`` of play and the ``plays`` so far:
        :func:`hearts.fast.kernels.moon_log_ratios`) and its pass to this seat
        (:func:`hearts.fast.kernels.pass_log_ratios`)."""
        import numpy as np

        r, kern, R, seat = self.reading, self.kernels, self.R, self.seat
        strength = np.array([kern.moon_strength(R, int(h) | self.played) for h in sampled[:, seat]])
        evidence = (
            kern.moon_log_ratios(starts, R, plays, seat, r.log_miss, r.log_lead_miss)
            if starts is not None and r.moon_evidence
            else np.zeros(len(sampled))
        )
        if self.received:
            hands = sampled[:, seat] | self.played | self.received
            evidence = evidence + kern.pass_log_ratios(hands, R, self.received, r.log_pass_miss)
        return running_worlds(strength, r.at, r.slope, evidence)

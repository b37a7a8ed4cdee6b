"""A decision's valuation searched in batches of worlds, stopped once its verdict is settled.

A review's question is narrower than a player's: not "which card is best" but "what mark does the
card played get". Most decisions answer it after a tenth of the worlds (the card played is the
expert's and nothing else comes near, or it is a blunder by many points); a few need every world.
So :func:`settle` asks the expert (:meth:`~hearts.players.search.SearchPlayer.value_options`) for
its valuation a batch of worlds at a time, each batch with its own seed (so its own worlds), pools
the batches (:func:`pool`) and stops as soon as every mark the full search could still give is the
same one (:func:`verdicts`): the worlds not searched could move the costs by at most ``z``
standard errors, and at the full count the standard error would have shrunk as one over the root
of the worlds. A verdict that is not settled by then is the one of all the worlds.

The expert's choice on the pooled worlds is made by the expert's own rule: its rule-based card
(the prior) unless the search's best is better by the prior's margin plus one standard error. The
prior is the choice most batches made (a batch moves off it only where its own worlds clearly beat
it, so most keep it unless the pooled worlds would move off it too).

>>> Effort().batches(1000)
(100, 100, 200, 200, 400)
>>> Effort(first=1.0).batches(500)
(500,)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from hearts.core import CardSet, Phase, SeatView
from hearts.players.valuation import Valuation
from hearts.review.errors import ReviewError
from hearts.review.model import MARKS, mark_of


class EffortError(ReviewError):
    """A review effort that cannot be searched (a share or a confidence out of range)."""


@dataclass(frozen=True, slots=True)
class Effort:
    """How a review spends its worlds: the first batch's share of them, the later batches' shares
    (doubling every second batch, up to ``most``), and the confidence ``z`` (standard errors) at which
    a verdict counts as settled. ``first=1.0`` searches every world at once (the full search)."""

    first: float = 0.1  #: the first batch's share of the worlds
    most: float = 0.4  #: the largest share a later batch takes
    z: float = 1.0  #: standard errors the unsearched worlds could move a cost by

    def __post_init__(self) -> None:
        if not 0.0 < self.first <= 1.0 or not 0.0 < self.most <= 1.0:
            raise EffortError(f"a batch's share of the worlds is above 0 and at most 1, not {self.first}, {self.most}")
        if not 0.0 <= self.z <= 10.0:
            raise EffortError(f"the confidence is 0 to 10 standard errors, not {self.z}")

    def batches(self, worlds: int) -> tuple[int, ...]:
        """The worlds of each batch, summing to ``worlds``: the first share twice, then each share
        doubled and taken twice, up to ``most``."""
        sizes: list[int] = []
        share = self.first
        left = worlds
        while left > 0:
            size = min(left, max(1, round(worlds * share)))
            sizes.append(size)
            left -= size
            if len(sizes) % 2 == 0:
                share = min(self.most, share * 2)
        return tuple(sizes)

    def key(self) -> dict[str, float]:
        """What a review made with this effort is a function of (part of its cache key)."""
        return {"first": self.first, "most": self.most, "z": self.z}


#: The review's default: batches of a tenth, a tenth, a fifth, a fifth and two fifths of the worlds,
#: stopped once every mark the full search could give is one, at one standard error (its marks
#: agree with the full search's as often as the full search's agree with themselves on other
#: worlds: docs/review.md, Speed).
QUICK = Effort()

#: The full search: every world in one batch, the expert's own valuation as it makes it in play.
FULL = Effort(first=1.0, most=1.0, z=0.0)

#: The fewest effective worlds (once weighted by the plays seen) a verdict is settled on: fewer say
#: too little about their own spread (the expert itself does not move off its prior on under two).
SETTLE_WORLDS = 20

#: Asks the expert for one batch: (seed, worlds, time budget in seconds or None) -> its valuation.
Ask = Callable[[int, int, float | None], Valuation]


def pool(batches: list[Valuation], margin: float) -> Valuation:
    """The batches' valuations as one over all their worlds: each batch's worlds weighted so that
    the batch counts by its number of worlds (a batch's inference weights only say how its own
    worlds compare), and the expert's choice made again on the pooled worlds by its rule (the
    prior kept unless the best is better by ``margin`` plus one standard error)."""
    if len(batches) == 1:
        return batches[0]
    first = batches[0]
    if any(b.options != first.options for b in batches):
        raise ReviewError("the batches of one decision valued different options")
    weighted = any(b.weights is not None for b in batches)
    weights: list[float] = []
    values: list[list[float]] = [[] for _ in first.options]
    for b in batches:
        for i, row in enumerate(b.values):
            values[i].extend(row)
        if weighted:
            w = b.weights if b.weights is not None else (1.0,) * b.worlds
            total = sum(w)
            weights.extend(x * b.worlds / total for x in w)
    worlds = sum(b.worlds for b in batches)
    points = tuple(sum(b.points[i] * b.worlds for b in batches) / worlds for i in range(len(first.options)))
    prior = Counter(b.choice for b in batches).most_common(1)[0][0]
    plans = tuple(Counter(b.plans[i] for b in batches).most_common(1)[0][0] for i in range(len(first.options)))
    threat = Counter(b.threat for b in batches).most_common(1)[0][0]
    pooled = Valuation(
        kind=first.kind,
        options=first.options,
        choice=prior,
        reason=next(b.reason for b in batches if b.choice == prior),
        values=tuple(tuple(v) for v in values),
        points=points,
        weights=tuple(weights) if weighted else None,
        worlds=worlds,
        plans=plans,
        threat=threat,
    )
    h = pooled.index(prior)
    means = [pooled.mean(i) for i in range(len(first.options))]
    best = max(range(len(means)), key=means.__getitem__)
    if best != h and pooled.effective_worlds >= 2 and means[best] - means[h] > margin + pooled.diff_se(best, h):
        choice = first.options[best]
        reason = next((b.reason for b in batches if b.choice == choice), "")
        return _with_choice(pooled, choice, reason or _searched_reason(pooled, best))
    return pooled


def _with_choice(val: Valuation, choice: int, reason: str) -> Valuation:
    return Valuation(
        kind=val.kind, options=val.options, choice=choice, reason=reason, values=val.values, points=val.points,
        weights=val.weights, worlds=val.worlds, plans=val.plans, threat=val.threat,
    )  # fmt: skip


def _searched_reason(val: Valuation, i: int) -> str:
    """The expert's reason for an option only the pooled worlds chose, in the search's words."""
    option = val.options[i]
    what = CardSet(option).symbols() if val.kind == "pass" else CardSet([option]).symbols()
    verb = "pass " if val.kind == "pass" else ""
    return f"{verb}{what} does best in the deals played out"


def verdicts(val: Valuation, played: int, full: int, margin: float, scale: float, z: float) -> tuple[str, str]:
    """The best and the worst mark the full search of ``full`` worlds could still give option
    index ``played``, from ``val`` (pooled so far): every option that could then be the expert's
    choice (the prior, or a best that could clear it by the margin), each at its cost now give or
    take ``z`` standard errors, marked with the standard error it would have then."""
    k = len(val.options)
    if full <= val.worlds or val.worlds == 0 or k == 1 or val.effective_worlds < SETTLE_WORLDS:
        return ("", "")  # nothing left to search, or too few worlds to tell: search on
    shrink = math.sqrt(val.worlds / full)
    means = [val.mean(i) for i in range(k)]
    h = val.index(val.choice)
    top = max(range(k), key=means.__getitem__)
    se: dict[tuple[int, int], float] = {}

    def s(i: int, j: int) -> float:
        key = (min(i, j), max(i, j))
        if key not in se:
            se[key] = val.diff_se(i, j)
        return se[key]

    maybe_top = [j for j in range(k) if means[j] - means[top] + z * s(j, top) >= 0]
    choices = {j for j in maybe_top if j == h or means[j] - means[h] + z * s(j, h) > margin + s(j, h) * shrink}
    if h in maybe_top or any(means[j] - means[h] - z * s(j, h) <= margin + s(j, h) * shrink for j in maybe_top):
        choices.add(h)
    marks: list[int] = []
    for c in choices:
        if c == played:
            marks.append(0)
            continue
        d, e = (means[c] - means[played]) * scale, s(c, played) * scale
        marks += [MARKS.index(mark_of(max(0.0, d + sign * z * e), e * shrink, chosen=False)) for sign in (-1, 1)]
    return MARKS[min(marks)], MARKS[max(marks)]


@dataclass(frozen=True, slots=True)
class Settled:
    """A decision's pooled valuation, and its mark when settled before the last batch ("" when not)."""

    valuation: Valuation
    mark: str
    batches: int


def settle(
    view: SeatView,
    played: CardSet,
    ask: Ask,
    seed: int,
    worlds: int,
    budget: float | None,
    effort: Effort,
    margin: float,
) -> Settled:
    """The expert's valuation of the decision at ``view`` where ``played`` was chosen, searched
    batch by batch (:meth:`Effort.batches`, batch ``b`` with seed ``seed + b``: the first batch's
    worlds are the full search's first) until the verdict is settled or every world is searched."""
    scale = (view.rules.players - 1) / view.rules.players
    is_pass = view.phase is Phase.PASS
    option = played.mask if is_pass else int(next(iter(played)))
    done: list[Valuation] = []
    sizes = effort.batches(worlds)
    for b, size in enumerate(sizes):
        share = None if budget is None else budget * size / worlds
        done.append(ask(seed + b, size, share))
        if done[-1].worlds == 0:  # nothing to search: the legal cards all play alike
            return Settled(done[-1], "", 1)
        val = pool(done, margin)
        if b == len(sizes) - 1:
            break
        best, worst = verdicts(val, val.index(option), worlds, margin, scale, effort.z)
        if best and best == worst:
            return Settled(val, best, b + 1)
    return Settled(pool(done, margin), "", len(done))

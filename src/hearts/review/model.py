"""What a hand review holds: one :class:`DecisionReview` per decision, a :class:`HandReview` per hand.

Both are frozen dataclasses that turn into JSON-safe dicts and back (``to_dict``/``from_dict``;
cards as record text such as ``"QS"``), so a review can be cached, sent to a browser and read
again. The marks and their thresholds are here (:data:`MARKS`, :data:`MARK_LIMITS`,
:func:`mark_of`); docs/review.md says why they are where they are.

>>> mark_of(0.0), mark_of(0.3), mark_of(1.0), mark_of(3.0), mark_of(9.0)
('best', 'good', 'inaccuracy', 'mistake', 'blunder')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hearts.core import Card
from hearts.review.errors import ReviewFormatError

#: The marks, best first.
MARKS = ("best", "good", "inaccuracy", "mistake", "blunder")

#: The most a decision may cost (expected points, less one standard error) and keep each mark;
#: above the last, a blunder. "best" is the expert's own choice (or a card that plays alike) at no
#: cost; another option the search values at least as high is "good". The others are set on the point scale
#: (a heart is 1 point, Q♠ 13): "good" is within the search's noise, "inaccuracy" about a heart,
#: "mistake" a few, "blunder" a third of Q♠ or more. See docs/review.md, Marks.
MARK_LIMITS = {"best": 0.05, "good": 0.5, "inaccuracy": 1.5, "mistake": 4.0}


def mark_of(cost: float, se: float = 0.0, *, chosen: bool = True) -> str:
    """The mark of a decision that cost ``cost`` expected points with standard error ``se``: by the
    cost less one standard error, so that a mark worse than "good" is given only where the loss is
    likely (about five times in six) and not the search's noise. This is the expert's own test
    before it leaves its rule-based card: the search must beat it by a margin plus one standard
    error. "best" is the expert's own choice (or a card that plays alike): another option
    (``chosen`` False) is at best "good", however near the search values it.

    >>> mark_of(0.8), mark_of(0.8, se=0.5), mark_of(0.0, chosen=False)
    ('inaccuracy', 'good', 'good')
    """
    if cost <= MARK_LIMITS["best"]:
        return "best" if chosen else "good"
    sure = max(0.0, cost - se)
    for mark, limit in MARK_LIMITS.items():
        if mark != "best" and sure <= limit:
            return mark
    return "blunder"


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _read_cards(raw: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise ReviewFormatError(f"{where} must be a list of cards, not {raw!r}"[:200])
    try:
        return tuple(Card.parse(c) for c in raw)
    except ValueError as exc:
        raise ReviewFormatError(f"{where}: {exc}") from None


def _get(data: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(data, Mapping):
        raise ReviewFormatError(f"{where} must be an object")
    if key not in data:
        raise ReviewFormatError(f"{where}: missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (
        isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,))
    ):
        raise ReviewFormatError(f"{where}: {key!r} has the wrong type: {value!r}"[:200])
    return value


@dataclass(frozen=True, slots=True)
class OptionReview:
    """One option of a decision as the expert valued it."""

    cards: tuple[Card, ...]  #: a play: the legal cards that play alike (highest first); a pass: its cards
    points: float  #: the seat's expected points in the hand after this option
    cost: float  #: expected points lost against the expert's choice (0 for it and anything as good)
    se: float  #: the standard error of that cost

    def to_dict(self) -> dict[str, Any]:
        return {"cards": _cards(self.cards), "points": self.points, "cost": self.cost, "se": self.se}

    @classmethod
    def from_dict(cls, data: Any) -> OptionReview:
        w = "review option"
        return cls(
            _read_cards(_get(data, "cards", list, w), w),
            float(_get(data, "points", (int, float), w)),
            float(_get(data, "cost", (int, float), w)),
            float(_get(data, "se", (int, float), w)),
        )


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision of the reviewed seat: what it did, what the expert would have done, what it cost."""

    number: int  #: this decision's place among the seat's decisions in the hand, from 0
    kind: str  #: "pass" or "play"
    trick: int | None  #: a play's trick, from 0 (None for the pass)
    position: int | None  #: a play's place in its trick: 0 leads (None for the pass)
    played: tuple[Card, ...]  #: the card played (or the cards passed)
    best: tuple[Card, ...]  #: the expert's choice from the same information
    options: tuple[OptionReview, ...]  #: every option valued, the expert's first, then by cost
    cost: float  #: expected points the choice lost against the expert's (>= 0)
    se: float  #: the standard error of :attr:`cost`
    worlds: int  #: sampled worlds behind the valuation (0: nothing to search, the cards all alike)
    effective_worlds: float  #: those worlds' effective number once weighted by the plays seen
    mark: str  #: one of :data:`MARKS`
    reason: str  #: one line, in hint words: what made the choice cost (or why it was right)
    expert_reason: str  #: the expert's own reason for its choice, as a hint gives it
    moon: str  #: "for" (a moon line for this seat was the expert's best), "against" (it defended), or ""
    #: The part of :attr:`cost` in the seat's own expected points (its points after its choice less
    #: after the expert's); the rest, ``cost - own``, is what the others' points (a moon) and the
    #: game's end made of it.
    own: float = 0.0

    @property
    def rest(self) -> float:
        """The part of :attr:`cost` that is not the seat's own points: a moon's points for or
        against the others, and the game's end."""
        return self.cost - self.own

    @property
    def card(self) -> Card:
        """The card played (a play's only card)."""
        return self.played[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "trick": self.trick,
            "position": self.position,
            "played": _cards(self.played),
            "best": _cards(self.best),
            "options": [o.to_dict() for o in self.options],
            "cost": self.cost,
            "se": self.se,
            "worlds": self.worlds,
            "effective_worlds": self.effective_worlds,
            "mark": self.mark,
            "reason": self.reason,
            "expert_reason": self.expert_reason,
            "moon": self.moon,
            "own": self.own,
        }

    @classmethod
    def from_dict(cls, data: Any) -> DecisionReview:
        w = "review decision"
        kind = _get(data, "kind", str, w)
        mark = _get(data, "mark", str, w)
        moon = _get(data, "moon", str, w)
        if kind not in ("pass", "play") or mark not in MARKS or moon not in ("", "for", "against"):
            raise ReviewFormatError(f"{w}: unknown kind, mark or moon: {kind!r}, {mark!r}, {moon!r}"[:200])
        trick = data.get("trick")
        position = data.get("position")
        return cls(
            _get(data, "number", int, w),
            kind,
            None if trick is None else _get(data, "trick", int, w),
            None if position is None else _get(data, "position", int, w),
            _read_cards(_get(data, "played", list, w), f"{w} played"),
            _read_cards(_get(data, "best", list, w), f"{w} best"),
            tuple(OptionReview.from_dict(o) for o in _get(data, "options", list, w)),
            float(_get(data, "cost", (int, float), w)),
            float(_get(data, "se", (int, float), w)),
            _get(data, "worlds", int, w),
            float(_get(data, "effective_worlds", (int, float), w)),
            mark,
            _get(data, "reason", str, w),
            _get(data, "expert_reason", str, w),
            moon,
            float(_get(data, "own", (int, float), w)),
        )


@dataclass(frozen=True, slots=True)
class MoonReview:
    """A moon that was on in the hand, for the reviewed seat or against it, and where it was settled."""

    side: str  #: "for" (the reviewed seat's moon) or "against" (another seat's)
    shooter: int  #: the seat going for it
    since: int  #: the trick (from 0) from which it was on: the expert's best line, or the seat held every point
    outcome: str  #: "shot" (made) or "stopped"
    settled: int | None  #: the trick (from 0) where it was stopped, None when it was shot
    text: str  #: the story in one line, in players' words

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "shooter": self.shooter,
            "since": self.since,
            "outcome": self.outcome,
            "settled": self.settled,
            "text": self.text,
        }

    @classmethod
    def from_dict(cls, data: Any) -> MoonReview:
        w = "review moon"
        settled = data.get("settled") if isinstance(data, Mapping) else None
        return cls(
            _get(data, "side", str, w),
            _get(data, "shooter", int, w),
            _get(data, "since", int, w),
            _get(data, "outcome", str, w),
            None if settled is None else _get(data, "settled", int, w),
            _get(data, "text", str, w),
        )


#: The points of a cost (or a hand's total) not in the seat's own points from which a review tells
#: the parts ("27.8 = 16.2 of your own points + 11.6 from the others' points"): a moon or the game's
#: end; below it the rest is the rollouts' rare moons, and the parts would only puzzle.
PARTS_SHOWN = 0.5

#: The version of the review's JSON: a review file of another version is refused in words. 2: a
#: decision's ``own`` part of its cost.
REVIEW_VERSION = 2
#: The version of the expert's valuation behind a review (its search: rollouts, worlds, priors):
#: part of the cache key, so a review cached from another version is searched again. 2: expert
#: rolls its own seat out with the learned model's card; 3: searched in batches until the verdict
#: is settled, and "best" only for the expert's own choice; 4: expert rolls its own seat out with
#: medium's play and moon plan.
VALUATION_VERSION = 4


@dataclass(frozen=True, slots=True)
class HandReview:
    """The review of one finished hand from one seat's information (see docs/review.md)."""

    seat: int  #: the reviewed seat
    name: str  #: its name in the record
    hand: int  #: the hand, from 0 (a record shows it as ``hand + 1``)
    seed: int  #: the expert's seed
    worlds: int  #: the expert's worlds per decision at most
    budget: float | None  #: the expert's seconds per decision at most (None: no time limit)
    points: int  #: the points the seat scored in the hand
    decisions: tuple[DecisionReview, ...]  #: the pass (if any) and every play with a choice, in order
    moon: MoonReview | None  #: a moon that was on for or against the seat, if any

    @property
    def total_cost(self) -> float:
        """Expected points lost over the hand against the expert's choices: the decisions' costs as
        shown (each to a tenth of a point) added up, so that the parts add up to the total."""
        return round(sum(round(d.cost, 1) for d in self.decisions), 1)

    @property
    def own_cost(self) -> float:
        """Of :attr:`total_cost`, the seat's own points (each decision's :attr:`DecisionReview.own`
        to a tenth, added up); the rest is what moons and the game's end made of the choices."""
        return round(sum(round(d.own, 1) for d in self.decisions), 1)

    @property
    def costliest(self) -> tuple[DecisionReview, ...]:
        """The three costliest decisions that cost more than the search's noise (an inaccuracy or
        worse), costliest first."""
        ranked = sorted(
            (d for d in self.decisions if d.mark not in ("best", "good")), key=lambda d: (-d.cost, d.number)
        )
        return tuple(ranked[:3])

    def counts(self) -> dict[str, int]:
        """How many decisions got each mark."""
        return {m: sum(1 for d in self.decisions if d.mark == m) for m in MARKS}

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "hearts-review",
            "version": REVIEW_VERSION,
            "seat": self.seat,
            "name": self.name,
            "hand": self.hand + 1,
            "seed": self.seed,
            "worlds": self.worlds,
            "budget": self.budget,
            "points": self.points,
            "decisions": [d.to_dict() for d in self.decisions],
            "moon": None if self.moon is None else self.moon.to_dict(),
            # Derived, for readers of the JSON alone; from_dict recomputes them.
            "total_cost": self.total_cost,
            "own_cost": self.own_cost,
            "costliest": [d.number for d in self.costliest],
            "marks": self.counts(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> HandReview:
        w = "review"
        if not isinstance(data, Mapping) or data.get("format") != "hearts-review":
            raise ReviewFormatError("not a hand review: 'format' should be 'hearts-review'")
        if data.get("version") != REVIEW_VERSION:
            raise ReviewFormatError(f"review version {data.get('version')!r} is not {REVIEW_VERSION}")
        budget = data.get("budget")
        moon = data.get("moon")
        return cls(
            _get(data, "seat", int, w),
            _get(data, "name", str, w),
            _get(data, "hand", int, w) - 1,
            _get(data, "seed", int, w),
            _get(data, "worlds", int, w),
            None if budget is None else float(_get(data, "budget", (int, float), w)),
            _get(data, "points", int, w),
            tuple(DecisionReview.from_dict(d) for d in _get(data, "decisions", list, w)),
            None if moon is None else MoonReview.from_dict(moon),
        )

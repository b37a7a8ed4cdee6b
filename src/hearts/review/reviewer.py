"""The review of a finished hand from one seat's information: :func:`review_hand`.

The hand is replayed through the engine from the record; at each decision of the seat (its pass,
and each play with more than one legal card) the expert is asked for its move with the seat's
:class:`~hearts.core.SeatView` of that moment, nothing more, and its search's valuation of every
option is kept (:meth:`hearts.players.search.SearchPlayer.value_options`): the expert's card is
the move it would have made, and the cost of the seat's choice is the difference of expected
points between the two on the same sampled worlds. See docs/review.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hearts.core import CARDS, Card, CardSet, GameRecord, HandState, HeartsError, Phase, SeatView
from hearts.core.hand import SEAT_NAMES_4
from hearts.review.cache import MEMORY, ReviewCache, review_key
from hearts.review.errors import HandNotReviewableError, UnknownSeatError, UnreplayableRecordError
from hearts.review.model import DecisionReview, HandReview, MoonReview, OptionReview, mark_of
from hearts.review.reasons import pass_reason, play_reason
from hearts.review.settle import QUICK, Effort, Settled, settle

#: Worlds per decision when none are given: deterministic (no time limit cuts the search), and
#: enough that a cost's standard error is mostly under 0.2 points (docs/review.md).
DEFAULT_WORLDS = 1000

#: The seconds per decision that stand for "no time limit" (the expert's search needs a number).
NO_LIMIT = 1e6

#: (done, total) decisions, called as a review starts and after each decision.
Progress = Callable[[int, int], None]

#: Called with each decision's review as soon as it is made, before the hand's is done: the plays in
#: order, then the pass (:attr:`DecisionReview.number` says where each goes).
Verdict = Callable[[DecisionReview], None]


def seat_of(record: GameRecord, seat: int | str) -> int:
    """The seat ``seat`` names in ``record``: an index from 0 (an int), or text: a seat number from
    1, a name at the table, or (four players) a compass seat, case-insensitive.

    >>> from hearts.core import Game
    >>> record = GameRecord.of(Game(seed=1))
    >>> seat_of(record, 2), seat_of(record, "west"), seat_of(record, "1")
    (2, 1, 0)
    """
    n = record.rules.players
    if isinstance(seat, bool) or not isinstance(seat, (int, str)):
        raise UnknownSeatError(f"a seat is a number or a name, not {seat!r}")
    if isinstance(seat, int):
        if not 0 <= seat < n:
            raise UnknownSeatError(f"there is no seat {seat} at this table of {n}: seats (an index) are 0 to {n - 1}")
        return seat
    text = seat.strip()
    if text.isdigit():
        number = int(text)
        if not 1 <= number <= n:
            raise UnknownSeatError(f"there is no seat {number} at this table of {n}: seats are 1 to {n}")
        return number - 1
    lowered = [name.lower() for name in record.names]
    if text.lower() in lowered:
        return lowered.index(text.lower())
    compass = [name.lower() for name in SEAT_NAMES_4]
    if n == 4 and text.lower() in compass:
        return compass.index(text.lower())
    choices = ", ".join(record.names)
    raise UnknownSeatError(f"no seat {seat!r} at this table: give a seat number 1 to {n} or a name ({choices})")


def finished_hands(record: GameRecord) -> list[int]:
    """The hands (from 0) of ``record`` that are over, so may be reviewed."""
    return [i for i, h in enumerate(record.hands) if h.points is not None]


def hand_of(record: GameRecord, hand: int | None) -> int:
    """The hand to review: ``hand`` (from 0) checked, or by default the last finished one."""
    done = finished_hands(record)
    if hand is None:
        if not done:
            raise HandNotReviewableError("no hand of this record is finished yet: a hand is reviewed once it is over")
        return done[-1]
    if isinstance(hand, bool) or not isinstance(hand, int):
        raise HandNotReviewableError(f"a hand is a number, not {hand!r}")
    if not 0 <= hand < len(record.hands):
        count = len(record.hands)
        raise HandNotReviewableError(f"there is no hand {hand + 1}: this record has {count} hand{'s' * (count != 1)}")
    if hand not in done:
        raise HandNotReviewableError(f"hand {hand + 1} is not finished yet: a hand is reviewed once it is over")
    return hand


@dataclass(frozen=True, slots=True)
class _Moment:
    """A decision of the seat as the record has it: the view then and what was done."""

    view: SeatView
    trick: int | None
    position: int | None
    played: CardSet  #: the pass, or the one card played


def _moments(record: GameRecord, seat: int, index: int) -> tuple[list[_Moment], HandState]:
    """The seat's decisions in hand ``index``, the hand replayed through the engine, and the hand
    at its end. Passes are made in seat order (as the game loop asks for them)."""
    h = record.hands[index]
    rules = record.rules
    n = rules.players
    totals = record.hands[index - 1].totals if index else (0,) * n
    assert totals is not None  # every hand before a finished one is finished
    hand = HandState(rules, tuple(cs.mask for cs in h.dealt), h.number)
    moments: list[_Moment] = []
    if hand.phase is Phase.PASS:
        for s, cards in enumerate(h.passes):
            assert cards is not None  # a finished hand's passes are all made
            if s == seat:
                moments.append(_Moment(SeatView.of_hand(hand, seat, totals, record.names), None, None, cards))
            hand.pass_cards(s, cards)
    for t_index, trick in enumerate(h.tricks):
        for position, card in enumerate(trick.cards):
            if (trick.leader + position) % n == seat:
                view = SeatView.of_hand(hand, seat, totals, record.names)
                if len(view.legal) > 1:
                    moments.append(_Moment(view, t_index, position, CardSet([card])))
            hand.play(card)
    return moments, hand


def review_hand(
    record: GameRecord,
    seat: int | str,
    hand_index: int | None,
    *,
    budget: float | None = None,
    worlds: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    cache: ReviewCache | None = MEMORY,
    effort: Effort = QUICK,
    verdict: Verdict | None = None,
) -> HandReview:
    """The review of hand ``hand_index`` (from 0; None: the last finished hand) of ``record`` from
    ``seat``'s information (see :func:`seat_of` for how a seat is named).

    The expert searches ``worlds`` worlds per decision (default :data:`DEFAULT_WORLDS`) with no
    time limit unless ``budget`` (seconds per decision) is given; for a seed and world count the
    review is deterministic (a budget that cuts the search makes it depend on the machine's
    speed). ``progress(done, total)`` is called as the review starts and after each decision,
    ``verdict(decision)`` with each decision's review as it is made (the plays, then the pass). ``effort`` says how the worlds
    are spent (:class:`hearts.review.settle.Effort`: by default in batches, stopped once the
    verdict is settled; :data:`~hearts.review.settle.FULL`: all at once, the expert's search as in
    play). The review is kept in ``cache`` (default: this process's memory; None keeps nothing) and
    a review found there is returned without a search.

    Raises :class:`UnreplayableRecordError`, :class:`UnknownSeatError` or
    :class:`HandNotReviewableError` (all ``ValueError``) for input that names no reviewable hand.
    """
    try:
        record.replay()
    except HeartsError as exc:
        raise UnreplayableRecordError(f"the record does not replay: {exc}") from None
    except (TypeError, AttributeError, KeyError, IndexError) as exc:  # a record built with wrong types
        raise UnreplayableRecordError(f"the record does not replay: {exc}") from None
    me = seat_of(record, seat)
    index = hand_of(record, hand_index)
    if worlds is not None and (isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1):
        raise ValueError(f"worlds must be a whole number of at least 1, not {worlds!r}")
    if budget is not None and not budget > 0:
        raise ValueError(f"the budget must be a positive number of seconds, not {budget!r}")
    count = DEFAULT_WORLDS if worlds is None else worlds
    key = review_key(record, me, index, seed, count, budget, effort)
    if cache is not None:
        kept = cache.get(key)
        if kept is not None:
            if verdict is not None:
                for decision in kept.decisions:
                    verdict(decision)
            if progress is not None:
                progress(len(kept.decisions), len(kept.decisions))
            return kept
    moments, end = _moments(record, me, index)
    total = len(moments)
    if progress is not None:
        progress(0, total)
    from hearts.players.search import SearchPlayer
    from hearts.players.search_config import EXPERT

    players: dict[tuple[int, int, float | None], SearchPlayer] = {}

    def ask(batch_seed: int, batch_worlds: int, batch_budget: float | None) -> Any:
        """The expert's valuation of the decision being reviewed, over one batch of worlds."""
        at = (batch_seed, batch_worlds, batch_budget)
        if at not in players:
            config = EXPERT.replace(worlds=batch_worlds)
            players[at] = SearchPlayer(config, seed=batch_seed, time_budget=batch_budget or NO_LIMIT)
        return players[at].value_options(view, passes)

    made: dict[int, tuple[DecisionReview, int]] = {}
    # The plays first and the pass last: the pass is the dearest decision to search, and the
    # first verdicts should come at once (a reader sees them while the pass is valued).
    for number in sorted(range(total), key=lambda i: (moments[i].trick is None, i)):
        moment = moments[number]
        view = moment.view
        passes = (moment.played,) if view.phase is Phase.PASS else ()
        done = settle(view, moment.played, ask, seed, count, budget, effort, EXPERT.prior_margin)
        decision = _review_decision(moment, number, done)
        made[number] = (decision, done.valuation.threat)
        if verdict is not None:
            verdict(decision)
        if progress is not None:
            progress(len(made), total)
    decisions = [made[i][0] for i in range(total)]
    threats = [made[i][1] for i in range(total)]
    assert end.scores is not None
    review = HandReview(
        seat=me,
        name=record.names[me],
        hand=index,
        seed=seed,
        worlds=count,
        budget=budget,
        points=end.scores[me],
        decisions=tuple(decisions),
        moon=_moon(record, me, end, decisions, threats),
    )
    if cache is not None:
        cache.put(key, review)
    return review


def _review_decision(moment: _Moment, number: int, done: Settled) -> DecisionReview:
    """One decision reviewed from the expert's valuation of it (settled early or not)."""
    val = done.valuation
    view = moment.view
    is_pass = view.phase is Phase.PASS
    n = view.rules.players
    # The search's utility is the seat's score against the others' mean; times (n-1)/n it is the
    # seat's own points whenever the hand's points are all shared out (no moon, no game end).
    scale = (n - 1) / n
    played_option = moment.played.mask if is_pass else int(next(iter(moment.played)))
    ci = val.index(val.choice)
    pi = val.index(played_option)
    best_mean = val.mean(ci)

    def cost(i: int) -> float:
        return max(0.0, (best_mean - val.mean(i)) * scale)

    def cards(i: int) -> tuple[Card, ...]:
        if is_pass:
            return tuple(CardSet(val.options[i]))
        alike = [c for c in view.legal if val.index(int(c)) == i]
        return tuple(sorted(alike, reverse=True))

    order = sorted(range(len(val.options)), key=lambda i: (i != ci, cost(i), val.points[i]))
    options = tuple(OptionReview(cards(i), val.points[i], cost(i), val.diff_se(ci, i) * scale) for i in order)
    spent = cost(pi)
    se = val.diff_se(ci, pi) * scale
    mark = done.mark or mark_of(spent, se, chosen=pi == ci)
    costly = mark not in ("best", "good")
    if is_pass:
        best: tuple[Card, ...] = tuple(CardSet(val.choice))
        reason = pass_reason(view, moment.played, CardSet(val.choice), val.reason, costly=costly)
    else:
        card = next(iter(moment.played))
        best = (CARDS[val.choice],)
        reason = play_reason(view, card, best[0], val.reason, costly=costly)
    me = 1 << view.seat
    moon = "for" if val.plans[ci] & me else "against" if val.threat >= 0 else ""
    # The part of the cost in the seat's own points; the rest is what the others' points (a moon)
    # and the game's end make of it (docs/review.md, Points).
    own = val.points[pi] - val.points[ci] if spent > 0 else 0.0
    return DecisionReview(
        number=number,
        kind="pass" if is_pass else "play",
        trick=moment.trick,
        position=moment.position,
        played=tuple(moment.played),
        best=best,
        options=options,
        cost=spent,
        se=se,
        worlds=val.worlds,
        effective_worlds=val.effective_worlds,
        mark=mark,
        reason=reason,
        expert_reason=val.reason,
        moon=moon,
        own=own,
    )


def _moon(
    record: GameRecord, seat: int, end: HandState, decisions: list[DecisionReview], threats: list[int]
) -> MoonReview | None:
    """The moon of the hand for or against ``seat``: on from the first decision where the expert's best
    line was a moon for the seat (or it defended against another's), or from the shot's first point;
    settled where another seat first took a point after that (stopped) or by the shot."""
    names = record.names
    rules = record.rules
    shooter = end.shooter
    tricks = end.tricks
    pen = rules.penalty_mask

    def first_points(s: int) -> int:
        return next((i for i, t in enumerate(tricks) if t.winner == s and _mask(t.cards) & pen), 0)

    def stopped_at(s: int, since: int) -> int | None:
        """The first trick from ``since`` on that put a penalty card with another seat than ``s``,
        after ``s`` had started taking points."""
        for i, t in enumerate(tricks):
            if i >= since and t.winner != s and _mask(t.cards) & pen:
                return i
        return None

    ours = [d for d in decisions if d.moon == "for"]
    theirs = [(d, s) for d, s in zip(decisions, threats, strict=True) if s >= 0]
    if ours or shooter == seat:
        since = (ours[0].trick or 0) if ours else first_points(seat)
        if shooter == seat:
            return MoonReview("for", seat, since, "shot", None, f"you shot the moon (on from trick {since + 1})")
        at = stopped_at(seat, since)
        where = (
            "" if at is None else f"; it was lost at trick {at + 1}, when {names[tricks[at].winner or 0]} took a point"
        )
        return MoonReview("for", seat, since, "stopped", at, f"a moon was on for you from trick {since + 1}{where}")
    if theirs or shooter is not None:
        s = theirs[0][1] if theirs else shooter
        assert s is not None
        since = (theirs[0][0].trick or 0) if theirs else first_points(s)
        if shooter == s:
            return MoonReview(
                "against", s, since, "shot", None, f"{names[s]} shot the moon against you (on from trick {since + 1})"
            )
        at = stopped_at(s, since)
        by = (
            ""
            if at is None
            else f"; stopped at trick {at + 1}, when {'you' if tricks[at].winner == seat else names[tricks[at].winner or 0]} took a point"
        )
        return MoonReview(
            "against", s, since, "stopped", at, f"{names[s]}'s moon was on against you from trick {since + 1}{by}"
        )
    return None


def _mask(cards: tuple[Card, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m

"""Hand reviews: every decision of a finished hand valued by the expert from the seat's own
information, marked by what it cost in expected points (docs/review.md).

Layer 3: it uses the engine (:mod:`hearts.core`) and the search players (:mod:`hearts.players`).

>>> from hearts.core import Game, GameRecord
>>> from hearts.players import make_player, play_game
>>> game = play_game(Game(seed=5), [make_player("easy", seed=s) for s in range(4)], hands=1)
>>> review = review_hand(GameRecord.of(game), "South", 0, worlds=20)
>>> review.decisions[0].kind, review.decisions[0].mark in MARKS, review.total_cost >= 0
('pass', True, True)
"""

from __future__ import annotations

from hearts.review.cache import MEMORY, ReviewCache, review_key
from hearts.review.errors import (
    HandNotReviewableError,
    ReviewError,
    ReviewFormatError,
    UnknownSeatError,
    UnreplayableRecordError,
)
from hearts.review.model import (
    MARK_LIMITS,
    MARKS,
    REVIEW_VERSION,
    DecisionReview,
    HandReview,
    MoonReview,
    OptionReview,
    mark_of,
)
from hearts.review.reviewer import DEFAULT_WORLDS, Progress, Verdict, finished_hands, hand_of, review_hand, seat_of
from hearts.review.settle import FULL, QUICK, Effort, EffortError

__all__ = [
    "DEFAULT_WORLDS",
    "MARKS",
    "MARK_LIMITS",
    "MEMORY",
    "REVIEW_VERSION",
    "DecisionReview",
    "Effort",
    "EffortError",
    "FULL",
    "HandNotReviewableError",
    "HandReview",
    "MoonReview",
    "OptionReview",
    "Progress",
    "QUICK",
    "ReviewCache",
    "ReviewError",
    "ReviewFormatError",
    "UnknownSeatError",
    "UnreplayableRecordError",
    "Verdict",
    "finished_hands",
    "hand_of",
    "mark_of",
    "review_hand",
    "review_key",
    "seat_of",
]

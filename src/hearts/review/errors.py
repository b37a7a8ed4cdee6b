"""Why a review cannot be made, by cause: each a ``ValueError`` (a :class:`~hearts.core.HeartsError`)
whose message says what was wrong in players' words."""

from __future__ import annotations

from hearts.core import HeartsError


class ReviewError(HeartsError):
    """A review that cannot be made as asked."""


class UnreplayableRecordError(ReviewError):
    """The record does not replay through the rules (malformed, or a step they do not allow)."""


class UnknownSeatError(ReviewError):
    """No such seat in the record: neither a seat number nor a name at its table."""


class HandNotReviewableError(ReviewError):
    """No such hand in the record, or it is not finished yet."""


class ReviewFormatError(ReviewError):
    """Review JSON that is not a review (a cache file or an upload that is damaged)."""

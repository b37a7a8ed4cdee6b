"""Reviews kept so that a finished hand reviewed once is not searched again.

A review is a function of the hand (rules, names, totals before it, deal, passes, tricks), the
seat and the expert's settings (seed, worlds, budget, the review's effort) and search (its version,
:data:`~hearts.review.model.VALUATION_VERSION`), so it is cached under a hash of exactly those
(:func:`review_key`): the key of a hand does not change when later hands are played, and a
record loaded again from its JSON finds its reviews. A :class:`ReviewCache` holds reviews in
memory (a bounded number, the oldest dropped first) and, given a folder, also as one JSON file a
review there (``hearts review`` uses the user's cache folder), read back on a later run.

>>> cache = ReviewCache()
>>> cache.get("x") is None
True
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections import OrderedDict
from pathlib import Path

from hearts.core import GameRecord
from hearts.review.errors import ReviewFormatError
from hearts.review.model import REVIEW_VERSION, VALUATION_VERSION, HandReview
from hearts.review.settle import QUICK, Effort


def review_key(
    record: GameRecord, seat: int, hand: int, seed: int, worlds: int, budget: float | None, effort: Effort = QUICK
) -> str:
    """The cache key of a review: a hash of what it is a function of (see the module docstring)."""
    data = record.to_dict()
    totals = record.hands[hand - 1].totals if hand else None
    what = {
        "version": REVIEW_VERSION,
        "valuation": VALUATION_VERSION,
        "rules": data["rules"],
        "names": data["names"],
        "before": list(totals) if totals is not None else None,
        "hand": data["hands"][hand],
        "seat": seat,
        "seed": seed,
        "worlds": worlds,
        "budget": budget,
        "effort": effort.key(),
    }
    text = json.dumps(what, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class ReviewCache:
    """Reviews by :func:`review_key`: in memory, and in ``folder`` (JSON files) when one is given."""

    def __init__(self, folder: Path | str | None = None, size: int = 256) -> None:
        self.folder = None if folder is None else Path(folder)
        self.size = size
        self._memory: OrderedDict[str, HandReview] = OrderedDict()
        self._lock = threading.Lock()

    def _path(self, key: str) -> Path | None:
        return None if self.folder is None else self.folder / f"{key}.json"

    def get(self, key: str) -> HandReview | None:
        """The review kept under ``key``, or None (a damaged file counts as none)."""
        with self._lock:
            if key in self._memory:
                self._memory.move_to_end(key)
                return self._memory[key]
        path = self._path(key)
        if path is None or not path.is_file():
            return None
        try:
            review = HandReview.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, ReviewFormatError):
            return None
        self._remember(key, review)
        return review

    def put(self, key: str, review: HandReview) -> None:
        """Keep ``review`` under ``key`` (written atomically to the folder, if any)."""
        self._remember(key, review)
        path = self._path(key)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.part")
        part.write_text(json.dumps(review.to_dict(), ensure_ascii=False), encoding="utf-8")
        os.replace(part, path)

    def _remember(self, key: str, review: HandReview) -> None:
        with self._lock:
            self._memory[key] = review
            self._memory.move_to_end(key)
            while len(self._memory) > self.size:
                self._memory.popitem(last=False)


#: The process's own cache: what :func:`hearts.review.review_hand` uses unless given another.
MEMORY = ReviewCache()

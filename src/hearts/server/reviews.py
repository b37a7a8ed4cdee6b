"""Hand reviews at the server: a finished hand's decisions of one seat valued by the expert
(:func:`hearts.review.review_hand`), worked out in the background in the thinking pool's review
process (below the tables' priority, never on the event loop, never in a table's own threads, never
in the way of a hint; started and loaded with the server), with progress and each decision's verdict
as soon as it is made, and kept in the database so that a hand reviewed once is not searched again.

Who may ask is the caller's business (``history_routes.py``: a seat, by its token, while the game is played;
anyone once it is over). Here: one review per (table, hand, seat) is worked out at a time, every
ask meanwhile is answered with its progress, and the finished review is stored and answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hearts.core import GameRecord
from hearts.review import DEFAULT_WORLDS, review_key

if TYPE_CHECKING:
    from hearts.server.manager import TableManager

log = logging.getLogger("hearts.server")


def review_job(record_text: str, seat: int, hand: int, worlds: int, progress_path: str) -> str:
    """The review as JSON (run in the review process): ``progress_path`` gets the decisions reviewed
    so far as JSON (``{"done", "total", "decisions"}``, replaced whole after each), which the
    server reads when asked how far it is, so that each verdict is shown as soon as it is made."""
    from hearts.review import DecisionReview, review_hand

    path = Path(progress_path)
    made: list[dict[str, Any]] = []

    def write(done: int, total: int) -> None:
        part = path.with_suffix(".part")
        with contextlib.suppress(OSError):
            part.write_text(json.dumps({"done": done, "total": total, "decisions": made}, ensure_ascii=False))
            os.replace(part, path)

    def verdict(decision: DecisionReview) -> None:
        made.append(decision.to_dict())

    record = GameRecord.loads(record_text)
    review = review_hand(record, seat, hand, worlds=worlds, progress=write, verdict=verdict, cache=None)
    return json.dumps(review.to_dict(), ensure_ascii=False)


def warm_review() -> None:
    """Load what a review needs (the expert, its compiled search) in the review process, by
    reviewing a short hand at a few worlds, so that the first review asked for does not pay for it."""
    from hearts.core import Game, Rules
    from hearts.players import make_player, play_game
    from hearts.review import review_hand

    game = play_game(Game(Rules(), seed=0), [make_player("random", seed=s) for s in range(4)], hands=1)
    review_hand(GameRecord.of(game), 0, 0, worlds=4, cache=None)


@dataclass
class _Working:
    progress: Path
    task: asyncio.Task[None]
    error: str | None = None

    def status(self) -> dict[str, Any]:
        try:
            made = json.loads(self.progress.read_text())
            done, total, decisions = int(made["done"]), int(made["total"]), list(made["decisions"])
        except (OSError, ValueError, KeyError, TypeError):
            done, total, decisions = 0, 0, []  # not started yet: waiting for the review process
        return {"status": "working", "done": done, "total": total, "decisions": decisions}


class Reviews:
    """The server's hand reviews: stored ones answered at once, others worked out in the background."""

    def __init__(self, manager: TableManager, worlds: int | None = None) -> None:
        self.manager = manager
        self.worlds = DEFAULT_WORLDS if worlds is None else worlds  #: the expert's worlds per decision
        self.working: dict[tuple[str, int, int], _Working] = {}
        self.folder = Path(tempfile.mkdtemp(prefix="hearts-reviews-"))
        self._warming: asyncio.Task[None] | None = None

    async def ask(self, table_id: str, record: GameRecord, hand: int, seat: int) -> dict[str, Any]:
        """The review of finished hand ``hand`` (0-based) of ``record`` from ``seat``: ``{"status":
        "done", "review": ...}`` if it is made, else its progress (starting it if need be), or
        ``{"status": "failed", "error": ...}``."""
        key = review_key(record, seat, hand, 0, self.worlds, None)
        stored = await asyncio.to_thread(self.manager.storage.stored_review, table_id, hand, seat, key)
        if stored is not None:
            return {"status": "done", "review": json.loads(stored)}
        at = (table_id, hand, seat)
        working = self.working.get(at)
        if working is not None and working.error is not None:
            del self.working[at]  # said once; asking again tries again
            return {"status": "failed", "error": working.error}
        if working is None:
            progress = self.folder / f"{table_id}-{hand}-{seat}.txt"
            progress.unlink(missing_ok=True)
            task = asyncio.get_running_loop().create_task(self._work(table_id, record, hand, seat, key, progress))
            working = self.working[at] = _Working(progress, task)
        return working.status()

    async def _work(self, table_id: str, record: GameRecord, hand: int, seat: int, key: str, progress: Path) -> None:
        at = (table_id, hand, seat)
        try:
            text = await self.manager.pool.run(
                table_id,
                f"review:{hand}:{seat}",
                review_job,
                record.dumps(),
                seat,
                hand,
                self.worlds,
                str(progress),
                process=True,
                slow=True,
            )
            await self.manager.writer.run(self.manager.storage.store_review, table_id, hand, seat, key, text)
            self.working.pop(at, None)
        except Exception as exc:  # noqa: BLE001 - told to the asker, never a traceback to the client
            log.warning("review of table %s hand %d seat %d failed: %s", table_id, hand + 1, seat, exc)
            self.working[at].error = f"the review could not be made: {exc}"
        finally:
            progress.unlink(missing_ok=True)

    def warm(self) -> None:
        """Start the review process now and load the expert in it (in the background, below the
        tables' priority), so that the first review's first verdict comes within seconds."""

        async def run() -> None:
            with contextlib.suppress(Exception):  # a warm-up only: the first review loads it itself
                await self.manager.pool.run("", "review-warm-up", warm_review, process=True, slow=True)

        self._warming = asyncio.get_running_loop().create_task(run(), name="hearts-review-warm-up")

    def close(self) -> None:
        for working in self.working.values():
            working.task.cancel()
        if self._warming is not None:
            self._warming.cancel()
        with contextlib.suppress(OSError):
            for path in self.folder.iterdir():
                path.unlink()
            self.folder.rmdir()

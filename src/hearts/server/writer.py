"""The server's one writer: every table's moves committed in batches, each acknowledged once stored.

Group commit: whatever moves queued while the last transaction committed go in the next one, so
many tables cost few commits and no move waits for a timer; a caller's :meth:`GroupWriter.submit`
returns only once its move is committed (or raises), so nothing unstored is ever acknowledged.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from hearts.server.storage import ActionWrite, Storage

log = logging.getLogger("hearts.server")


class GroupWriter:
    """Commits actions in batches: whatever queued while the last commit ran goes in the next one.

    Each :meth:`submit` returns once its action is durably stored (or raises if storing failed), so
    the caller acknowledges nothing that could be lost.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearts-db")
        self.queue: asyncio.Queue[tuple[ActionWrite, asyncio.Future[None]]] | None = None
        self.task: asyncio.Task[None] | None = None
        self.batches = 0
        self.writes = 0
        #: seconds each of the latest transactions took to commit (reported when the writer stops)
        self.commit_times: collections.deque[float] = collections.deque(maxlen=100_000)

    def start(self) -> None:
        self.queue = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._run(), name="hearts-writer")

    def report(self) -> str:
        """The writer's figures in words: actions, transactions, commit times."""
        times = sorted(self.commit_times)
        if not times:
            return "stored no actions"
        ms = [1000 * times[min(len(times) - 1, int(q * len(times)))] for q in (0.5, 0.99)]
        return (
            f"stored {self.writes} actions in {self.batches} transactions; commit time median {ms[0]:.1f} ms, "
            f"p99 {ms[1]:.1f} ms, max {1000 * times[-1]:.1f} ms"
        )

    async def stop(self) -> None:
        if self.batches:
            log.info("writer: %s", self.report())
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass
        self.executor.shutdown(wait=True)

    async def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run another storage call on the writer's thread (so writes never overlap)."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, functools.partial(fn, *args, **kwargs))

    async def submit(self, write: ActionWrite) -> None:
        assert self.queue is not None, "the writer is not started"
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self.queue.put((write, future))
        await future

    async def _run(self) -> None:
        assert self.queue is not None
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < 1000:
                batch.append(self.queue.get_nowait())
            try:
                started = time.perf_counter()
                await loop.run_in_executor(self.executor, self.storage.write_actions, [w for w, _ in batch])
                self.commit_times.append(time.perf_counter() - started)
                self.batches += 1
                self.writes += len(batch)
                for _, f in batch:
                    if not f.done():
                        f.set_result(None)
            except Exception:
                # One bad write must not sink the others: retry them one by one.
                for w, f in batch:
                    try:
                        await loop.run_in_executor(self.executor, self.storage.write_actions, [w])
                        if not f.done():
                            f.set_result(None)
                    except Exception as exc:  # noqa: BLE001 - reported to the one caller
                        log.exception("storing action %s #%s failed", w.table_id, w.seq)
                        if not f.done():
                            f.set_exception(exc)

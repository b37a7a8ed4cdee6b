"""Each table's fair share of the server: connection limits, and one thinking pool taken in turns.

Two things one client could otherwise take from every other table:

* **Connections.** :class:`ConnectionLimits` counts websockets per seat, per table and per client
  address, and :meth:`ConnectionLimits.refusal` says why a new one is refused (closed with
  :data:`CLOSE_TOO_MANY` and that reason).
* **Computer work.** Computer players' moves, stand-ins, hints and closing external bots all run in
  one :class:`ThinkPool`: a fixed number of threads, each table's waiting jobs in a queue of its own,
  and the tables served in turn (round-robin), with at most :attr:`ThinkPool.per_table` jobs of one
  table running at once and one job of each kind (a table's next move, one seat's hint) waiting or
  running per table. However much one table asks for, every other table's next job starts after at
  most one job of that table.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

#: The websocket close code for a connection over a limit (4000 + HTTP's 429 Too Many Requests).
CLOSE_TOO_MANY = 4429


@dataclass(frozen=True)
class Limits:
    """How many websockets the server takes (0: no limit). Documented in docs/server.md."""

    per_seat: int = 4  #: one person's phone, computer and a spare tab or two
    per_table: int = 64  #: every seat's connections and the spectators together
    per_address: int = 64  #: from one client address (a household or a classroom behind one router)


@dataclass
class ConnectionLimits:
    """Counts the open websockets and refuses those over :class:`Limits`."""

    limits: Limits = field(default_factory=Limits)
    by_address: Counter[str] = field(default_factory=Counter)
    by_table: Counter[str] = field(default_factory=Counter)
    by_seat: Counter[tuple[str, int]] = field(default_factory=Counter)

    def refusal(self, table_id: str, seat: int | None, address: str) -> str | None:
        """Why one more connection to ``seat`` (None: watching) of the table from ``address`` is refused, or None."""
        lim = self.limits
        if seat is not None and lim.per_seat and self.by_seat[(table_id, seat)] >= lim.per_seat:
            return f"too many connections to this seat: it has {lim.per_seat} open, the limit; close one first"
        if lim.per_table and self.by_table[table_id] >= lim.per_table:
            return f"too many connections to this table: it has {lim.per_table} open, the limit"
        if lim.per_address and self.by_address[address] >= lim.per_address:
            return f"too many connections from your address: {lim.per_address} are open, the limit"
        return None

    def open(self, table_id: str, seat: int | None, address: str) -> None:
        self.by_address[address] += 1
        self.by_table[table_id] += 1
        if seat is not None:
            self.by_seat[(table_id, seat)] += 1

    def close(self, table_id: str, seat: int | None, address: str) -> None:
        _drop(self.by_address, address)
        _drop(self.by_table, table_id)
        if seat is not None:
            _drop(self.by_seat, (table_id, seat))


def _drop(counter: Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


class Busy(RuntimeError):
    """A table asked for a job of a kind it already has waiting or running."""


@dataclass
class _Job:
    table: str
    kind: str
    call: Callable[[], Any]
    future: asyncio.Future[Any]


class ThinkPool:
    """The computer players' threads, shared fairly between tables.

    ``workers`` threads run jobs; a table has at most ``per_table`` of them running at once (default:
    half the workers, at least one). Jobs wait in one queue per table, and free threads take the next
    job of each table in turn. :meth:`run` refuses (:class:`Busy`) a job whose table already has one
    of that ``kind`` waiting or running, so a table's queue never holds more than one job per kind.
    """

    def __init__(self, workers: int = 4, per_table: int | None = None) -> None:
        self.workers = workers
        self.per_table = per_table if per_table is not None else max(1, workers // 2)
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hearts-think")
        self.waiting: OrderedDict[str, deque[_Job]] = OrderedDict()  #: table -> its jobs, tables in turn order
        self.running: Counter[str] = Counter()  #: table -> its jobs running now
        self.kinds: set[tuple[str, str]] = set()  #: (table, kind) of every job waiting or running
        self.started = 0  #: jobs handed to a thread so far
        self.order: deque[tuple[str, str]] = deque(maxlen=1000)  #: (table, kind) of the latest jobs started
        self._loop: asyncio.AbstractEventLoop | None = None

    def busy(self, table: str, kind: str) -> bool:
        return (table, kind) in self.kinds

    async def run(self, table: str, kind: str, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on a thread when the table's turn comes; return its result (or raise its error)."""
        if (table, kind) in self.kinds:
            raise Busy(f"table {table} already has a {kind} job waiting or running")
        self._loop = asyncio.get_running_loop()
        # The caller's context goes with the call (as asyncio.to_thread does): log records keep their table.
        call = functools.partial(contextvars.copy_context().run, fn, *args)
        job = _Job(table, kind, call, self._loop.create_future())
        self.kinds.add((table, kind))
        self.waiting.setdefault(table, deque()).append(job)
        self._dispatch()
        try:
            return await job.future
        finally:
            if not job.future.done():  # the caller gave up: a waiting job is dropped, a running one finishes
                job.future.cancel()
            self.kinds.discard((table, kind))

    def _dispatch(self) -> None:
        """Start waiting jobs while threads are free: the first table in turn that may run one goes next."""
        while sum(self.running.values()) < self.workers:
            job = self._next_job()
            if job is None:
                return
            self.running[job.table] += 1
            self.started += 1
            self.order.append((job.table, job.kind))
            done = self.executor.submit(job.call)
            done.add_done_callback(functools.partial(self._finished_thread, job))

    def _next_job(self) -> _Job | None:
        for table in list(self.waiting):
            if self.running[table] >= self.per_table:
                continue
            jobs = self.waiting[table]
            while jobs and jobs[0].future.cancelled():  # its caller stopped waiting before it started
                jobs.popleft()
            if not jobs:
                del self.waiting[table]
                continue
            job = jobs.popleft()
            if jobs:
                self.waiting.move_to_end(table)  # its next job waits until every other table had a turn
            else:
                del self.waiting[table]
            return job
        return None

    def _finished_thread(self, job: _Job, done: Future[Any]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._finished, job, done)

    def _finished(self, job: _Job, done: Future[Any]) -> None:
        self.running[job.table] -= 1
        if self.running[job.table] <= 0:
            del self.running[job.table]
        if not job.future.done():
            exc = done.exception()
            if exc is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(done.result())
        self._dispatch()

    def shutdown(self) -> None:
        for jobs in self.waiting.values():
            for job in jobs:
                job.future.cancel()
        self.waiting.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)

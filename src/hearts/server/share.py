"""Each table's fair share of the server: connection limits, and one thinking pool taken in turns.

Two things one client could otherwise take from every other table:

* **Connections.** :class:`ConnectionLimits` counts websockets per seat, per table and per client
  address, and :meth:`ConnectionLimits.refusal` says why a new one is refused (closed with
  :data:`CLOSE_TOO_MANY` and that reason). A table's and an address's message rate is shared
  among their connections (:meth:`ConnectionLimits.rate`), so opening more connections buys no
  more messages: past its share, a connection's next message is read only when its turn comes
  (:class:`Pacer`), and what it sends meanwhile waits in its own socket, costing the server nothing.
* **Computer work.** Computer players' moves, stand-ins, hints and closing external bots all go
  through one :class:`ThinkPool`: a fixed number of threads (and worker processes for the hints),
  each table's waiting jobs in a queue of its own, and the tables served in turn (round-robin),
  with at most half the workers busy with one table and one job of each kind (a table's next move,
  one seat's hint) waiting or running per table. However much one table asks for, every other
  table's next job starts after at most one more job of that table.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import os
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hearts import children

T = TypeVar("T")

#: The websocket close code for a connection over a limit (4000 + HTTP's 429 Too Many Requests).
CLOSE_TOO_MANY = 4429


@dataclass(frozen=True)
class Limits:
    """How many websockets the server takes (0: no limit). Documented in docs/server.md."""

    per_seat: int = 4  #: one person's phone, computer and a spare tab or two
    per_table: int = 64  #: every seat's connections and the spectators together
    per_address: int = 64  #: from one client address (a household or a classroom behind one router)
    table_rate: float = 200.0  #: messages a second from all of one table's connections, shared between them
    address_rate: float = 400.0  #: messages a second from all of one address's connections, shared between them


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

    def rate(self, table_id: str, address: str) -> float:
        """The message rate one connection to the table from ``address`` may use now: its share of the
        table's and of the address's rate (0 in a limit: no limit). Over 100 a second the connection's
        own limit (:class:`~hearts.server.protocol.RateLimiter`) refuses messages first.

        >>> counts = ConnectionLimits()
        >>> for _ in range(8):
        ...     counts.open("t", None, "a")
        >>> counts.rate("t", "a"), counts.rate("u", "b")
        (25.0, 200.0)
        """
        lim = self.limits
        rate = float("inf")
        if lim.table_rate:
            rate = min(rate, lim.table_rate / max(1, self.by_table[table_id]))
        if lim.per_address and lim.address_rate:
            rate = min(rate, lim.address_rate / max(1, self.by_address[address]))
        return rate

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


class Pacer:
    """One connection's turn at its share of a shared rate: a token bucket that may go into debt.

    :meth:`delay` takes one message's token and says how long to wait before handling it: nothing
    within a burst of ``burst_seconds`` at the rate, then one message per ``1 / rate`` seconds.

    >>> p = Pacer(burst_seconds=1.0)
    >>> [p.delay(2.0, now=0.0) for _ in range(4)]
    [0.0, 0.0, 0.5, 1.0]
    """

    __slots__ = ("burst_seconds", "tokens", "stamp")

    def __init__(self, burst_seconds: float = 2.0) -> None:
        self.burst_seconds = burst_seconds
        self.tokens: float | None = None
        self.stamp = 0.0

    def delay(self, rate: float, now: float) -> float:
        if rate == float("inf"):
            return 0.0
        burst = max(1.0, rate * self.burst_seconds)
        tokens = burst if self.tokens is None else min(burst, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        self.tokens = tokens - 1.0
        return 0.0 if self.tokens >= 0 else -self.tokens / rate


class Busy(RuntimeError):
    """A table asked for a job of a kind it already has waiting or running."""


@dataclass
class _Job:
    table: str
    kind: str
    call: Callable[[], Any]
    future: asyncio.Future[Any]


class _Lane:
    """One executor and its waiting jobs, one queue per table, the tables in turn order."""

    def __init__(self, executor: Executor, workers: int, per_table: int) -> None:
        self.executor = executor
        self.workers = workers
        self.per_table = per_table
        self.waiting: OrderedDict[str, deque[_Job]] = OrderedDict()  #: table -> its jobs, tables in turn order
        self.running: Counter[str] = Counter()  #: table -> its jobs running now

    def next_job(self) -> _Job | None:
        """The next job to start, or None: the first table in turn that waits and may run one more."""
        if sum(self.running.values()) >= self.workers:
            return None
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


def _process_executor(workers: int) -> ProcessPoolExecutor:
    # hearts.children: the workers exit when the server dies, however it dies (kill -9 included).
    return ProcessPoolExecutor(max_workers=workers, mp_context=children.context("spawn"), initializer=_lower_priority)


def _lower_priority() -> None:
    """A hint process's start: below the server's priority, so hints take only CPU that moves leave."""
    with contextlib.suppress(OSError):
        os.nice(10)


class ThinkPool:
    """The computer players' threads (and the hints' processes), shared fairly between tables.

    ``workers`` threads run the table's own computer players (which keep state from move to move); a
    table has at most ``per_table`` of them running at once (default: half the workers, at least
    one). Stateless jobs given with ``process=True`` (hints) run in ``processes`` worker processes
    at a lower priority instead (none: in the threads too): a search holds Python's interpreter lock
    while it thinks, which in a thread would hold up every table's messages. Each lane keeps one
    queue per table and starts the tables' jobs in turn. :meth:`run` refuses (:class:`Busy`) a job
    whose table already has one of that ``kind`` waiting or running, so a table's queue never holds
    more than one job per kind.
    """

    def __init__(
        self, workers: int = 4, per_table: int | None = None, processes: int = 0, slow_processes: int = 0
    ) -> None:
        cap = per_table if per_table is not None else max(1, workers // 2)
        self.threads = _Lane(ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hearts-think"), workers, cap)
        self.processes: _Lane | None = None
        if processes > 0:
            self.processes = _Lane(_process_executor(processes), processes, max(1, processes // 2))
        #: long stateless jobs (hand reviews) in processes of their own, so a hint never waits behind one
        self.slow: _Lane | None = None
        if slow_processes > 0:
            self.slow = _Lane(_process_executor(slow_processes), slow_processes, 1)
        self.kinds: set[tuple[str, str]] = set()  #: (table, kind) of every job waiting or running
        self.started = 0  #: jobs handed to a worker so far
        self.order: deque[tuple[str, str]] = deque(maxlen=1000)  #: (table, kind) of the latest jobs started
        self._loop: asyncio.AbstractEventLoop | None = None

    def warm(self, fn: Callable[[], Any]) -> None:
        """Start the worker processes now and run ``fn`` in one (loading what hints need), so that the
        first hint does not pay for it; threads need nothing."""
        if self.processes is not None:
            self.processes.executor.submit(fn)

    def busy(self, table: str, kind: str) -> bool:
        return (table, kind) in self.kinds

    async def run(
        self, table: str, kind: str, fn: Callable[..., T], *args: Any, process: bool = False, slow: bool = False
    ) -> T:
        """Run ``fn(*args)`` on a worker when the table's turn comes; return its result (or raise its error).

        ``process``: the job may run in a worker process (``fn`` and its arguments are then pickled);
        ``slow``: a long one (a hand review), run in the slow processes when there are any, one a
        table at a time, so that hints never wait behind it."""
        if (table, kind) in self.kinds:
            raise Busy(f"table {table} already has a {kind} job waiting or running")
        self._loop = asyncio.get_running_loop()
        lane = self.processes if process and self.processes is not None else self.threads
        if slow and self.slow is not None:
            lane = self.slow
        if lane is self.threads:
            # The caller's context goes with the call (as asyncio.to_thread does): log records keep their table.
            call = functools.partial(contextvars.copy_context().run, fn, *args)
        else:
            call = functools.partial(fn, *args)
        job = _Job(table, kind, call, self._loop.create_future())
        self.kinds.add((table, kind))
        lane.waiting.setdefault(table, deque()).append(job)
        self._dispatch(lane)
        try:
            return await job.future
        finally:
            if not job.future.done():  # the caller gave up: a waiting job is dropped, a running one finishes
                job.future.cancel()
            self.kinds.discard((table, kind))

    def _dispatch(self, lane: _Lane) -> None:
        """Start waiting jobs while the lane has free workers."""
        while (job := lane.next_job()) is not None:
            lane.running[job.table] += 1
            self.started += 1
            self.order.append((job.table, job.kind))
            try:
                done = lane.executor.submit(job.call)
            except BrokenProcessPool:  # a worker process died (killed, out of memory): start new ones
                lane.executor = _process_executor(lane.workers)
                done = lane.executor.submit(job.call)
            done.add_done_callback(functools.partial(self._finished_elsewhere, lane, job))

    def _finished_elsewhere(self, lane: _Lane, job: _Job, done: Future[Any]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._finished, lane, job, done)

    def _finished(self, lane: _Lane, job: _Job, done: Future[Any]) -> None:
        lane.running[job.table] -= 1
        if lane.running[job.table] <= 0:
            del lane.running[job.table]
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif (exc := done.exception()) is not None:
                job.future.set_exception(exc)
            else:
                job.future.set_result(done.result())
        self._dispatch(lane)

    def shutdown(self) -> None:
        for lane in (self.threads, self.processes, self.slow):
            if lane is None:
                continue
            for jobs in lane.waiting.values():
                for job in jobs:
                    job.future.cancel()
            lane.waiting.clear()
            # Threads may be deep in a bot's turn: they finish on their own. A hint process may be
            # loading its player's kernels, which can take many seconds: it is stopped, not waited for.
            if isinstance(lane.executor, ProcessPoolExecutor):
                workers = getattr(lane.executor, "_processes", None) or {}  # pid -> Process (no public way)
                for process in list(workers.values()):
                    with contextlib.suppress(Exception):
                        process.terminate()
            lane.executor.shutdown(wait=False, cancel_futures=True)

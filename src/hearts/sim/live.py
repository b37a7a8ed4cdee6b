"""Live progress of a tournament: each table's share played, reported from wherever it is played.

A deal or a game is played at several tables (:mod:`hearts.sim.tournament`), each a piece of
work for one worker process. After every decision the worker reports how much of its table is
played (:func:`report`, at most every :data:`SHARE_EVERY` seconds): the passes made and cards
played out of all of them for a deal, the leading total's share of the target for a game. The
parent gathers the reports in :class:`UnitShares`, which tells the caller's progress callback
each deal's or game's share, and exactly ``1.0`` once all its tables are played.

Nothing here changes what is played: the reports only read the views the players are shown.

>>> shares = []
>>> units = UnitShares({("deal", 0): 2}, lambda unit, share: shares.append(share))
>>> units.share(("deal", 0), 1, 0.5); units.played(("deal", 0), 0); units.played(("deal", 0), 1)
>>> shares, units.done
([0.25, 0.75, 1.0], True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from hearts.core import PassDirection, SeatView

#: A unit of work: ("deal", index) or ("game", index), played at all its tables.
Unit = tuple[str, int]
#: Progress: ``(unit, share)``, the share (0 to 1) of a deal's or game's tables played so far; exactly 1.0
#: once, when the unit is done (all its tables played), and below 1 before.
ProgressFn = Callable[[Unit, float], None]
#: Seconds between two reports of a table's share: often enough for a live ETA, rare enough to cost nothing.
SHARE_EVERY = 0.2

Work = TypeVar("Work")
Result = TypeVar("Result")

#: Where this process's reports go: (unit, table, share); None when nobody listens.
_sink: Callable[[Unit, int, float], None] | None = None
#: The table this process is playing: (unit, table).
_playing: tuple[Unit, int] | None = None
_last = 0.0


@contextmanager
def playing(unit: Unit, table: int) -> Iterator[None]:
    """While a table is played here: the reports made meanwhile are about it."""
    global _playing
    _playing = (unit, table)
    try:
        yield
    finally:
        _playing = None


@contextmanager
def reporting_to(sink: Callable[[Unit, int, float], None] | None) -> Iterator[None]:
    """Send this process's reports to ``sink`` for a while (the parent, when it plays the tables itself)."""
    global _sink
    _sink = sink
    try:
        yield
    finally:
        _sink = None


def start_worker(queue: Any) -> None:
    """A worker process's start: its reports go to the parent through ``queue``."""
    global _sink
    # A report the parent has not read never holds a worker at its exit (the parent joins the pool first).
    queue.cancel_join_thread()
    _sink = lambda unit, table, share: queue.put((unit, table, share))  # noqa: E731


def play_in_workers(
    play: Callable[[Work], Result], work: Iterable[Work], jobs: int, units: UnitShares, done: Callable[[Result], None]
) -> None:
    """Play each piece of ``work`` in one of ``jobs`` worker processes, telling ``done`` of each result as it
    comes and ``units`` of the workers' reports meanwhile, until ``units`` is done. An error raised in a worker
    (a player's fault) is raised here as it was raised there. The pool is then closed and joined, so that each
    worker ends through its exit path, which stops what it kept for all its tables (its ``cmd:`` bots).
    """
    import multiprocessing

    from hearts import children

    # "spawn": workers start clean, with no copy of a parent's threads (the progress display runs one);
    # hearts.children: they exit when this process dies, however it dies (kill -9 included).
    ctx = children.context("spawn")
    shares = ctx.Queue()
    with ctx.Pool(jobs, initializer=start_worker, initargs=(shares,)) as pool:
        pending = pool.imap_unordered(play, work)
        while not units.done:
            try:
                done(pending.next(timeout=SHARE_EVERY))
            except multiprocessing.TimeoutError:
                pass
            units.drain(shares)
        pool.close()
        pool.join()


def report(view: SeatView) -> None:
    """After a decision shown ``view``: report the share of the table played, if anyone listens."""
    global _last
    if _sink is None or _playing is None:
        return
    now = time.monotonic()
    if now - _last < SHARE_EVERY:
        return
    _last = now
    rules = view.rules
    if _playing[0][0] == "deal":
        # The passes count as steps too, so that the share moves while the seats choose them.
        passes = 0 if view.direction is PassDirection.HOLD else rules.players
        steps = rules.hand_size * rules.players + passes
        part = (steps - sum(view.hand_sizes) - passes + (sum(view.has_passed) if passes else 0)) / steps
    else:
        part = max(view.totals) / rules.target
    _sink(*_playing, min(part, 0.99))


class UnitShares:
    """The parent's account: which tables of each unit are played, the share of those in play, and the
    progress callback told of every change."""

    def __init__(self, tables: dict[Unit, int], progress: ProgressFn | None) -> None:
        self.tables = tables
        self.played_tables: dict[Unit, set[int]] = {unit: set() for unit in tables}
        self.shares: dict[Unit, dict[int, float]] = {unit: {} for unit in tables}
        self.progress = progress

    def share(self, unit: Unit, table: int, share: float) -> None:
        """A report: ``share`` of the unit's ``table`` is played."""
        if table in self.played_tables[unit]:
            return  # a report that arrived after the table's result
        self.shares[unit][table] = share
        self._tell(unit)

    def played(self, unit: Unit, table: int) -> None:
        """The unit's ``table`` is played."""
        self.played_tables[unit].add(table)
        self.shares[unit].pop(table, None)
        self._tell(unit)

    @property
    def done(self) -> bool:
        return all(len(self.played_tables[u]) == count for u, count in self.tables.items())

    def drain(self, queue: Any) -> None:
        """Take every report waiting in a worker queue."""
        import queue as queues

        while True:
            try:
                self.share(*queue.get_nowait())
            except queues.Empty:
                return

    def _tell(self, unit: Unit) -> None:
        if self.progress is None:
            return
        played, count = len(self.played_tables[unit]), self.tables[unit]
        if played == count:
            self.progress(unit, 1.0)
        else:
            self.progress(unit, min(0.99, (played + sum(self.shares[unit].values())) / count))

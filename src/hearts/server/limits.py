"""Limits on what one person or address may ask of the server, each refusal saying which limit and
when it lifts (``docs/server.md``, "Limits"): tables made, chat messages. Name changes are counted
in the database (:meth:`hearts.server.community.Community.set_name`)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

#: An address (a household, a classroom) may make this many times what one browser may.
ADDRESS_FACTOR = 3


class SlidingWindow:
    """At most ``count`` events per key within any ``window`` seconds.

    >>> w = SlidingWindow(2, 10.0)
    >>> w.wait("a", 0.0), w.wait("a", 1.0), w.wait("a", 2.0), w.wait("b", 2.0), w.wait("a", 10.5)
    (0.0, 0.0, 8.0, 0.0, 0.0)
    """

    def __init__(self, count: int, window: float, keys: int = 100_000) -> None:
        self.count = count
        self.window = window
        self.keys = keys
        self._seen: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may act again (0: it may now, and this event is counted)."""
        left = self.peek(key, now)
        if left == 0:
            self.note(key, now)
        return left

    def peek(self, key: str, now: float) -> float:
        """Seconds until ``key`` may act again (0: it may now), counting nothing: for an event that
        another limit may still refuse (see :meth:`note`).

        >>> w = SlidingWindow(1, 10.0)
        >>> w.peek("a", 0.0), w.peek("a", 0.0), w.wait("a", 1.0), w.peek("a", 2.0)
        (0.0, 0.0, 0.0, 9.0)
        """
        seen = self._seen.get(key)
        if seen is None:
            return 0.0
        while seen and seen[0] <= now - self.window:
            seen.popleft()
        if self.count and len(seen) >= self.count:
            return seen[0] + self.window - now
        return 0.0

    def note(self, key: str, now: float) -> None:
        """Count an event of ``key`` at ``now`` (after :meth:`peek` let it through)."""
        seen = self._seen.get(key)
        if seen is None:
            if len(self._seen) >= self.keys:  # forget the keys that have not acted within the window
                self._seen = {k: q for k, q in self._seen.items() if q and q[-1] > now - self.window}
            seen = self._seen[key] = deque()
        seen.append(now)

    def unnote(self, key: str) -> None:
        """Take back ``key``'s latest event: what it was counted for did not happen (a table that
        could not be made), so it must not use one of the key's slots.

        >>> w = SlidingWindow(1, 10.0)
        >>> w.wait("a", 0.0), w.unnote("a"), w.wait("a", 1.0)
        (0.0, None, 0.0)
        """
        seen = self._seen.get(key)
        if seen:
            seen.pop()


@dataclass(frozen=True)
class TableLimits:
    """How many tables one browser identity, and one client address, may make (0: no limit)."""

    per_minute: int = 10  #: tables made in any 60 seconds
    open_at_once: int = 20  #: tables made and still being played


def table_refusal(made_recently: float, open_now: int, limits: TableLimits, who: str) -> str | None:
    """Why one more table from ``who`` ("your browser", "your address") is refused, or None.
    ``made_recently``: seconds until the per-minute limit lets one more through (0: it does).

    >>> table_refusal(0.0, 20, TableLimits(), "your browser")
    'tables: at most 20 open at once from your browser; finish or leave one first (a game with nobody at it closes as abandoned)'
    """
    if limits.open_at_once and open_now >= limits.open_at_once:
        return (
            f"tables: at most {limits.open_at_once} open at once from {who}; finish or leave one first "
            "(a game with nobody at it closes as abandoned)"
        )
    if made_recently > 0:
        return f"tables: at most {limits.per_minute} a minute from {who}; the next one in {int(made_recently) + 1} s"
    return None


class TableMaking:
    """The limits on making tables, for one browser identity and for one client address.

    Only a table let through by every limit is counted against the per-minute limits, so that a
    request refused by one limit uses no slot of another; a table that then cannot be made (bad
    input) gives its slots back (:meth:`failed`).

    >>> making = TableMaking(TableLimits(per_minute=1, open_at_once=5))
    >>> making.refusal("ann", 0, None, 0, 0.0), making.refusal("ann", 1, None, 0, 1.0)
    (None, 'tables: at most 1 a minute from your browser; the next one in 60 s')
    >>> making.failed("ann", None); making.refusal("ann", 0, None, 0, 2.0) is None
    True
    """

    def __init__(self, limits: TableLimits) -> None:
        self.browser = limits
        self.address = TableLimits(limits.per_minute * ADDRESS_FACTOR, limits.open_at_once * ADDRESS_FACTOR)
        self._by_browser = SlidingWindow(limits.per_minute, 60.0)
        self._by_address = SlidingWindow(self.address.per_minute, 60.0)

    def refusal(
        self, player: str | None, player_open: int, address: str | None, address_open: int, now: float
    ) -> str | None:
        """Why one more table from the browser ``player`` (``player_open`` of its tables still being
        played) or from ``address`` (None: addresses are not limited) is refused at ``now``, or None,
        and then it is counted."""
        if player is not None:
            refused = table_refusal(self._by_browser.peek(player, now), player_open, self.browser, "your browser")
            if refused:
                return refused
        if address is not None:
            refused = table_refusal(self._by_address.peek(address, now), address_open, self.address, "your address")
            if refused:
                return refused
        if player is not None:
            self._by_browser.note(player, now)
        if address is not None:
            self._by_address.note(address, now)
        return None

    def failed(self, player: str | None, address: str | None) -> None:
        """A table :meth:`refusal` let through was not made: give back the slots it took."""
        if player is not None:
            self._by_browser.unnote(player)
        if address is not None:
            self._by_address.unnote(address)

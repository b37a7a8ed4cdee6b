"""The public lobby: what it lists of each public table, and the hub that pushes every change to the
browsers watching it over their websocket (``/ws/lobby``, ``docs/protocol.md``).

The lobby lives in the database (:mod:`hearts.server.community`, ``hearts_lobby``): each process
writes the rows of the tables it holds, and every process's hub pushes what changed, its own
changes at once and other processes' at its next look (every second). A watcher first gets the
whole lobby (``lobby``), then one message per table listed or changed (``listed``) and per table
gone (``unlisted``), each encoded once for all watchers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any, Protocol

from hearts.core import Rules
from hearts.server.protocol import encode

if TYPE_CHECKING:
    from hearts.server.manager import TableManager
    from hearts.server.table import LiveTable

log = logging.getLogger("hearts.server")

#: Seconds between looks at the database for other processes' changes (and waits run out).
LOOK_EVERY = 1.0
#: The level of the computers that take a public table's free seats once its wait is over.
FILL_LEVEL = "medium"


class Watcher(Protocol):
    def send(self, text: str) -> None: ...


def rules_words(rules: Rules) -> str:
    """A table's rules in a few words: ``standard, 4 players, to 100``."""
    return ", ".join([rules.name or "own rules", f"{rules.players} players", f"to {rules.target}"])


def is_standard(rules: Rules) -> bool:
    """Standard rules, as Play now seats people at."""
    return rules.to_dict() == Rules().to_dict()


def entry(table: LiveTable, ratings: dict[str, float]) -> dict[str, Any]:
    """What the lobby shows of a public table (nothing that is not public: no token but the watch link's)."""
    free = [s.seat for s in table.seats if s.kind == "human" and not s.joined]
    seats = []
    for s in table.seats:
        taken = s.joined or s.kind != "human"
        rating = ratings.get(s.key) if taken else None
        seats.append(
            {
                "seat": s.seat, "name": table.names[s.seat] if taken else None, "kind": s.kind, "level": s.level,
                "taken": taken, "rating": None if rating is None else round(rating, 1),
                "claimed": s.kind == "computer" and s.player is not None,  # a person takes it at the next hand
            }
        )  # fmt: skip
    return {
        "id": table.id,
        "rules": rules_words(table.rules),
        "standard": is_standard(table.rules),
        "players": table.rules.players,
        "seats": seats,
        "free": len(free),
        "people": sum(1 for s in table.seats if s.kind == "human" and s.joined),
        "created_at": table.created_at,
        "fill_at": table.created_at + float(table.options.get("wait") or 0) if free else None,
        "status": "waiting" if free else "playing",
        "hands_done": len(table.game.finished),
        "watch": f"/watch/{table.watch_token}",
        "clock": table.options.get("clock"),
    }


class LobbyHub:
    """The lobby's watchers in this process, and what they were last sent."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.watchers: set[Watcher] = set()
        self.entries: dict[str, dict[str, Any]] = {}
        self.stamp: tuple[float, int] | None = None
        self._task: asyncio.Task[None] | None = None
        self._refreshing = asyncio.Lock()
        self.fanout_seconds: list[float] = []  #: how long each change took to queue for every watcher (benchmarks)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="hearts-lobby")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def snapshot(self) -> str:
        tables = sorted(self.entries.values(), key=lambda e: (e["status"] != "waiting", -e["people"], e["created_at"]))
        return encode({"type": "lobby", "now": time.time(), "tables": tables})

    async def attach(self, watcher: Watcher) -> None:
        if self.stamp is None:
            await self.refresh()
        self.watchers.add(watcher)
        watcher.send(self.snapshot())

    def detach(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    async def publish(self, table: LiveTable) -> None:
        """List a public table as it is now (or take it off once its game is over or abandoned)."""
        if not table.public:
            return
        community = self.manager.community
        if table.game.is_over or table.abandoned or table.closed:
            await self.manager.writer.run(community.put_lobby, table.id, None)
        else:
            ratings = await asyncio.to_thread(community.ratings_of, [s.key for s in table.seats])
            await self.manager.writer.run(community.put_lobby, table.id, entry(table, ratings))
        await self.refresh()

    async def refresh(self) -> None:
        """Read the lobby from the database and push what changed to every watcher."""
        async with self._refreshing:
            community = self.manager.community
            stamp = await asyncio.to_thread(community.lobby_stamp)
            rows = await asyncio.to_thread(community.lobby)
            started = time.perf_counter()
            messages = []
            for table_id in [t for t in self.entries if t not in rows]:
                del self.entries[table_id]
                messages.append(encode({"type": "unlisted", "id": table_id}))
            for table_id, row in rows.items():
                if self.entries.get(table_id) != row:
                    self.entries[table_id] = row
                    messages.append(encode({"type": "listed", "now": time.time(), "table": row}))
            self.stamp = stamp
            for text in messages:
                for watcher in list(self.watchers):
                    watcher.send(text)
            if messages and self.watchers:
                self.fanout_seconds.append(time.perf_counter() - started)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(LOOK_EVERY)
            try:
                await self._fill_waited()
                stamp = await asyncio.to_thread(self.manager.community.lobby_stamp)
                if stamp != self.stamp:
                    await self.refresh()
            except Exception:  # noqa: BLE001 - looked at again in a second
                log.exception("updating the lobby failed")

    async def _fill_waited(self) -> None:
        """Computers take the free seats of this process's public tables whose wait is over."""
        now = time.time()
        for table in list(self.manager.tables.values()):
            if not table.public or table.game.is_over or table.abandoned or table.closed:
                continue
            if not any(s.kind == "human" and not s.joined for s in table.seats):
                continue
            if now < table.created_at + float(table.options.get("wait") or 0):
                continue
            with contextlib.suppress(ValueError):
                await self.manager.fill(table, FILL_LEVEL, {table.creator} if table.creator else set())

"""Seats and games left alone: who may fill a seat someone was invited to, and when a game nobody
plays any more is closed as abandoned (``docs/server.md``, "Filling seats" and "Abandoned games")."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hearts.server.manager import TableManager

log = logging.getLogger("hearts.server")

#: Seconds an invited person's seat must stay unjoined before anyone at the table (not only its
#: creator) may fill it with a computer player.
FILL_AFTER = 120.0
#: Hours without a move and with no person connected after which a game is abandoned (the default
#: of ``hearts serve --abandon-after``).
ABANDON_AFTER_HOURS = 24.0


def fill_refusal(creator: str | None, created_at: float, who: set[str], now: float) -> str | None:
    """Why a client with player keys ``who`` may not yet fill a table's unjoined seats, or None.

    The table's creator may at once; anyone else at the table once the seats have stayed empty for
    :data:`FILL_AFTER` seconds since the table was made.

    >>> fill_refusal("person:ab", 1000.0, {"person:ab"}, 1001.0) is None
    True
    >>> fill_refusal("person:ab", 1000.0, {"person:cd"}, 1001.0)[-8:], fill_refusal("person:ab", 1000.0, set(), 1120.0)
    ('in 120 s', None)
    """
    if creator in who:
        return None
    wait = created_at + FILL_AFTER - now
    if wait <= 0:
        return None
    return (
        "those seats are kept for the people invited to them: only the table's creator can fill them now, "
        f"anyone at the table in {int(wait) + 1} s"
    )


async def abandon_idle(manager: TableManager, now: float | None = None) -> list[str]:
    """Close every game with no move for ``manager.abandon_after`` seconds and no seat connected: it
    is stored as ``abandoned`` (shown so in the history, never counted in the statistics). Returns
    the ids of the tables closed."""
    now = time.time() if now is None else now
    closed = []
    for table in list(manager.tables.values()):
        if table.abandoned or table.game.is_over or now - table.last_move_at < manager.abandon_after:
            continue
        if any(s.clients for s in table.seats):
            continue
        await manager.writer.run(manager.storage.set_status, table.id, "abandoned")
        table.abandoned = True
        await table.close()
        manager.tables.pop(table.id, None)
        if table.public:
            await manager.lobby.publish(table)  # an abandoned table leaves the lobby
        closed.append(table.id)
        log.info("table %s abandoned: no move for %.1f hours and nobody at it", table.id, (now - table.last_move_at) / 3600)
    return closed


async def sweep(manager: TableManager) -> None:
    """Look for abandoned games every minute (more often when the limit is shorter), for ever."""
    every = min(60.0, max(0.05, manager.abandon_after / 10))
    while True:
        await asyncio.sleep(every)
        try:
            await abandon_idle(manager)
        except Exception:  # noqa: BLE001 - tried again at the next sweep
            log.exception("closing abandoned games failed")

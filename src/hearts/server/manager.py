"""Every live table of the server: loading them from storage (and resuming the unfinished ones at
start-up), the link tokens, creating tables and filling seats, the one writer, the connection
counts, the computer players' pool, and the games the history and records are built from.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from hearts.core import Game, Rules, seat_name
from hearts.players import LEVELS
from hearts.players.again import AgainError, DealAgain
from hearts.players.registry import bot_spec
from hearts.server.driver import think_pool, warm_hints
from hearts.server.persist import FinishedGames, record_through, replay
from hearts.server.privacy import seat_key
from hearts.server.reviews import Reviews
from hearts.server.share import ConnectionLimits, Limits
from hearts.server.storage import SeatRow, Storage, TableRow
from hearts.server.table import DEFAULT_OPTIONS, LiveTable
from hearts.server.upkeep import ABANDON_AFTER_HOURS, fill_refusal, sweep
from hearts.server.writer import GroupWriter

log = logging.getLogger("hearts.server")


def new_token() -> str:
    """An unguessable link token (128 random bits)."""
    return secrets.token_urlsafe(16)


class TableManager:
    """Every live table, the link tokens, the writer, the connection counts and the computer players' pool."""

    def __init__(
        self,
        storage: Storage,
        bots: dict[str, str] | None = None,
        pause: float | None = None,
        abandon_after: float = ABANDON_AFTER_HOURS * 3600,
        limits: Limits | None = None,
        review_worlds: int | None = None,
    ) -> None:
        self.storage = storage
        self.writer = GroupWriter(storage)
        self.pool = think_pool()
        self.connections = ConnectionLimits(limits or Limits())
        self.tables: dict[str, LiveTable] = {}
        self.tokens: dict[str, tuple[str, int | None]] = {}
        #: name -> player spec (``cmd:...`` or ``py:...``) of the bots ``hearts serve --bot`` registered.
        self.bots = {name: bot_spec(cmd) for name, cmd in (bots or {}).items()}
        self.default_pause = DEFAULT_OPTIONS["pause"] if pause is None else pause
        self._loading = asyncio.Lock()
        self._checkpointer: asyncio.Task[None] | None = None
        self.abandon_after = abandon_after  #: seconds (see :func:`hearts.server.upkeep.abandon_idle`)
        self._sweeper: asyncio.Task[None] | None = None
        self.finished_games = FinishedGames()
        self.reviews = Reviews(self, worlds=review_worlds)

    async def start(self, warm: bool = False) -> None:
        """Start the writer and the checkpointer, and resume every unfinished table. ``warm``: start
        the hint and review processes now, with their players loaded, rather than at the first ask."""
        self.writer.start()
        if warm:
            self.pool.warm(warm_hints)
            self.reviews.warm()
        if self.storage.is_sqlite:
            self._checkpointer = asyncio.get_running_loop().create_task(self._checkpoints(), name="hearts-checkpoint")
        ids = await self.writer.run(self.storage.table_ids, "playing")
        for table_id in ids:
            table = await self.get(table_id)
            if table is not None:
                table.kick()
        if ids:
            log.info("resumed %d tables", len(ids))
        self._sweeper = asyncio.get_running_loop().create_task(sweep(self), name="hearts-abandon")

    async def _checkpoints(self, every: float = 2.0) -> None:
        """Checkpoint SQLite's log every few seconds on a thread of its own (see Storage.checkpoint)."""
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearts-checkpoint")
        loop = asyncio.get_running_loop()
        try:
            while True:
                await asyncio.sleep(every)
                try:
                    await loop.run_in_executor(executor, self.storage.checkpoint)
                except Exception:  # noqa: BLE001 - a failed checkpoint is retried; the log just grows meanwhile
                    log.exception("checkpoint failed")
        finally:
            executor.shutdown(wait=False)

    async def stop(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in list(self.tables.values()):
            await table.close()
        self.reviews.close()
        await self.writer.stop()
        self.pool.shutdown()

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table, loaded (and replayed) from storage on first use."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            row = await self.writer.run(self.storage.load_table, table_id)
            if row is None:
                return None
            table = LiveTable(self, row)
            self.tables[table_id] = table
            for s in table.seats:
                if s.token:
                    self.tokens[s.token] = (table_id, s.seat)
            self.tokens[table.watch_token] = (table_id, None)
            return table

    async def resolve(self, token: str) -> tuple[LiveTable, int | None] | None:
        """The table and seat (None: watching) a link token opens, or None for an unknown token."""
        found = self.tokens.get(token)
        if found is None:
            found = await self.writer.run(self.storage.find_token, token)
        if found is None:
            return None
        table = await self.get(found[0])
        if table is None:
            return None
        return table, found[1]

    async def game_of(self, table_id: str) -> Game | None:
        """The table's game as its stored moves make it, or None for no such table: a live table's own
        game, else the moves replayed (off the event loop) and, once the game can no longer change
        (finished or abandoned), kept for the next ask. Records and finished hands are built from it."""
        status = await asyncio.to_thread(self.storage.table_status, table_id)
        if status is None:
            return None
        table = self.tables.get(table_id) if status[0] != "playing" else await self.get(table_id)
        if table is not None:
            return table.game
        game = self.finished_games.get(table_id)
        if game is None:
            row = await asyncio.to_thread(self.storage.load_table, table_id)
            if row is None:
                return None
            game = await asyncio.to_thread(replay, row)
            self.finished_games.put(table_id, game)
        return game

    def check_seat(self, kind: str, level: str | None) -> str | None:
        """The seat's level after checking it exists; raise ValueError naming the choices."""
        if kind == "human":
            return None
        if kind == "computer":
            key = (level or "random").strip().lower()
            if key not in LEVELS:
                raise ValueError(f"unknown computer level {level!r}: choose one of {', '.join(LEVELS)}")
            return key
        if kind == "bot":
            if level not in self.bots:
                known = ", ".join(self.bots) or "none (start the server with --bot NAME=COMMAND)"
                raise ValueError(f"unknown bot {level!r}: the registered bots are {known}")
            return level
        raise ValueError(f"unknown seat kind {kind!r}: choose human, computer or bot")

    async def create(
        self,
        rules: Rules,
        seats: list[tuple[str, str | None, str | None]],
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        creator: str | None = None,
        deal: dict[str, Any] | None = None,
    ) -> LiveTable:
        """A new table. ``seats`` holds (kind, level or bot name, name) per seat; raise ValueError on bad input.

        The deals come from a fresh 256-bit secret (:func:`hearts.core.game.keyed_deal`) unless a
        ``seed`` is given: then the table is a practice table, marked so and never counted in the
        statistics. ``deal``: a replayed deal's first hand (:meth:`again`), dealt before the seed's.
        ``creator`` is the creating browser's player key; without one, whoever holds the
        first person's seat link counts as the creator (see :func:`hearts.server.upkeep.fill_refusal`).
        """
        if len(seats) != rules.players:
            raise ValueError(f"the rules seat {rules.players} players, but {len(seats)} seats were given")
        opts = {**DEFAULT_OPTIONS, "pause": self.default_pause}
        for key, value in (options or {}).items():
            if key not in DEFAULT_OPTIONS:
                raise ValueError(f"unknown table option {key!r}: known are {', '.join(DEFAULT_OPTIONS)}")
            opts[key] = value
        _check_options(opts)
        rows: list[SeatRow] = []
        names = []
        for i, (kind, level, name) in enumerate(seats):
            level = self.check_seat(kind, level)
            rows.append(SeatRow(i, kind, level, new_token() if kind == "human" else None))
            if creator is None and rows[-1].token:
                creator = seat_key(rows[-1].token)
            default = seat_name(i, rules.players)
            if kind != "human":
                default = f"{default} ({level})"
            names.append((name or "").strip()[:24] or default)
        row = TableRow(
            id=secrets.token_hex(6),
            rules=rules.to_dict(),
            seed=secrets.randbits(32) if seed is None else seed,  # at a keyed table: the computer players' only
            names=names,
            options=opts,
            watch_token=new_token(),
            seats=rows,
            totals=[0] * rules.players,
            secret=secrets.token_bytes(32).hex() if seed is None else None,
            practice=seed is not None,
            creator=creator,
            deal=deal,
        )
        await self.writer.run(self.storage.create_table, row)
        table = await self.get(row.id)
        assert table is not None
        table.kick()
        return table

    async def again(self, table_id: str, hand: int, seat: int, level: str, creator: str | None = None) -> LiveTable:
        """A practice table that deals finished hand ``hand`` (0-based) of table ``table_id`` again:
        a person at ``seat``, each seat a computer played there at its level, every other seat (a
        person's or a bot's) a computer of ``level``; the computers pass as they did (see
        :mod:`hearts.players.again`). The dealt cards of a finished hand are already public
        (``/hands/{n}``), so this reveals nothing; the new table's own seed, which deals its later
        hands and seeds its computers, is made from the table and hand, so the same deal played
        again the same way is answered the same way. Raise ValueError on bad input."""
        game = await self.game_of(table_id)
        if game is None:
            raise LookupError(f"no table {table_id!r}")
        record = record_through(game, hand)
        if record is None:
            raise AgainError(f"table {table_id!r} has no finished hand {hand + 1} to play again")
        players = game.rules.players
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at this table: its seats are 0 to {players - 1}")
        again = DealAgain.of(record, hand)
        row = await self.writer.run(self.storage.load_table, table_id)
        assert row is not None
        seats: list[tuple[str, str | None, str | None]] = []
        for s in row.seats:
            if s.seat == seat:
                seats.append(("human", None, game.names[seat]))
            else:
                seats.append(("computer", s.level if s.kind == "computer" else level, None))
        seed = int.from_bytes(hashlib.sha256(f"hearts-again:{table_id}:{hand}".encode()).digest()[:4], "big")
        return await self.create(
            again.rules, seats, seed=seed, creator=creator, deal=again.to_dict() | {"from": [table_id, hand + 1]}
        )

    async def fill(self, table: LiveTable, level: str, who: set[str]) -> list[int]:
        """Seat computer players of ``level`` in every seat no person has joined yet; return those seats.

        ``who`` are the asking client's player keys: see :func:`hearts.server.upkeep.fill_refusal` for who may.
        """
        level = self.check_seat("computer", level) or "random"
        filled = []
        async with table.lock:
            if any(s.kind == "human" and not s.joined for s in table.seats):
                refused = fill_refusal(table.creator, table.created_at, who, time.time())
                if refused:
                    raise ValueError(refused)
            for s in table.seats:
                if s.kind == "human" and not s.joined:
                    await self.writer.run(self.storage.update_seat, table.id, s.seat, kind="computer", level=level, token=None)
                    if s.token:
                        self.tokens.pop(s.token, None)
                    s.kind, s.level, s.token = "computer", level, None
                    filled.append(s.seat)
            table.broadcast_presence()
        table.kick()
        return filled


def _check_options(opts: dict[str, Any]) -> None:
    for key in ("pause", "think"):
        value = opts[key]
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 30:
            raise ValueError(f"table option {key!r} must be a number of seconds from 0 to 30, not {value!r}")
    after = opts["standin_after"]
    if after is not None and (not isinstance(after, (int, float)) or isinstance(after, bool) or not 0 <= after <= 3600):
        raise ValueError(f"table option 'standin_after' must be seconds from 0 to 3600 or null, not {after!r}")
    level = opts["standin_level"]
    if level is not None and (not isinstance(level, str) or level not in LEVELS):
        raise ValueError(f"table option 'standin_level' must be one of {', '.join(LEVELS)}, not {level!r}")

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
from hearts.server.community import Community, GameResult, LimitReached
from hearts.server.driver import think_pool, warm_hints
from hearts.server.limits import SlidingWindow, TableLimits, TableMaking
from hearts.server.lobby import FILL_LEVEL, LobbyHub, is_standard
from hearts.server.names import NameRefused, clean_name, suggest_name
from hearts.server.persist import FinishedGames, record_through, replay
from hearts.server.privacy import seat_key
from hearts.server.protocol import encode
from hearts.server.reviews import Reviews
from hearts.server.share import ConnectionLimits, Limits
from hearts.server.storage import SeatRow, Storage, TableRow
from hearts.server.table import CHAT_BURST, CHAT_WINDOW, DEFAULT_OPTIONS, PUBLIC_CLOCK, LiveTable
from hearts.server.upkeep import ABANDON_AFTER_HOURS, fill_refusal, sweep
from hearts.server.writer import GroupWriter

log = logging.getLogger("hearts.server")

#: The name of a process that was given none (``hearts serve --instance``): one process alone needs none.
DEFAULT_INSTANCE = "main"
#: Rated games a player needs before the leaderboard lists them.
LEADERBOARD_MIN_GAMES = 5


def new_token(table_id: str | None = None) -> str:
    """An unguessable link token (128 random bits), after its table's id and a dot where given, so
    that a proxy in front of several processes can route a link by its table (the id is public)."""
    token = secrets.token_urlsafe(16)
    return token if table_id is None else f"{table_id}.{token}"


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
        table_limits: TableLimits | None = None,
        instance: str = DEFAULT_INSTANCE,
        leaderboard_min_games: int = LEADERBOARD_MIN_GAMES,
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
        self.community = Community(storage.engine)
        #: this process's name among those sharing the database: it plays the tables it made, and only those
        self.instance = instance
        self.leaderboard_min_games = leaderboard_min_games  #: rated games a player needs to be on the leaderboard
        self.lobby = LobbyHub(self)
        self.chat_limit = SlidingWindow(CHAT_BURST, CHAT_WINDOW)
        self.table_making = TableMaking(table_limits or TableLimits())
        self.address_of: dict[str, str] = {}  #: table id -> the address that made it (this process's tables)
        self._background: set[asyncio.Task[Any]] = set()

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
        holders = await asyncio.to_thread(self.community.holders, ids)
        ids = [i for i in ids if holders.get(i, DEFAULT_INSTANCE) == self.instance]  # another process's tables are its own
        for table_id in ids:
            table = await self.get(table_id)
            if table is not None:
                table.kick()
        if ids:
            log.info("resumed %d tables", len(ids))
        self._sweeper = asyncio.get_running_loop().create_task(sweep(self), name="hearts-abandon")
        self.lobby.start()

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
        self.lobby.stop()
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
            holder = (await asyncio.to_thread(self.community.holders, [table_id])).get(table_id, DEFAULT_INSTANCE)
            if holder != self.instance and row.status == "playing":
                return None  # another process plays it: its links open there (docs/server.md, "Growing past one process")
            table = LiveTable(self, row)
            chat = await asyncio.to_thread(self.community.chat, table_id)
            table.chat_log.extend(chat)
            table.chat_n = chat[-1]["n"] if chat else 0
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
        if opts.get("public") is True and "clock" not in (options or {}):
            opts["clock"] = dict(PUBLIC_CLOCK)  # strangers must not be able to stall a table
        _check_options(opts)
        if opts["public"] and seed is not None:
            raise ValueError("a public table cannot have a chosen seed: its games are rated, so nobody may know the deals")
        # Another instance's table ids start with its name, so a proxy can route a table by its id.
        table_id = secrets.token_hex(6) if self.instance == DEFAULT_INSTANCE else f"{self.instance}-{secrets.token_hex(6)}"
        rows: list[SeatRow] = []
        names = []
        for i, (kind, level, name) in enumerate(seats):
            level = self.check_seat(kind, level)
            rows.append(SeatRow(i, kind, level, new_token(table_id) if kind == "human" else None))
            if creator is None and rows[-1].token:
                creator = seat_key(rows[-1].token)
            default = seat_name(i, rules.players)
            if kind != "human":
                default = f"{default} ({level})"
            names.append((name or "").strip()[:24] or default)
        row = TableRow(
            id=table_id,
            rules=rules.to_dict(),
            seed=secrets.randbits(32) if seed is None else seed,  # at a keyed table: the computer players' only
            names=names,
            options=opts,
            watch_token=new_token(table_id),
            seats=rows,
            totals=[0] * rules.players,
            secret=secrets.token_bytes(32).hex() if seed is None else None,
            practice=seed is not None,
            creator=creator,
            deal=deal,
        )
        await self.writer.run(self.storage.create_table, row)
        await self.writer.run(self.community.hold, row.id, self.instance)
        table = await self.get(row.id)
        assert table is not None
        table.kick()
        if table.public:
            self.spawn(self.lobby.publish(table))
        return table

    # -- people, the lobby, ratings, rematches ---------------------------------------------

    def spawn(self, job: Any) -> None:
        """Run ``job`` (a coroutine) in the background, its failure logged, never lost."""
        task = asyncio.get_running_loop().create_task(job)
        self._background.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._background.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("background work failed: %r", t.exception())

        task.add_done_callback(done)

    def reserved_names(self) -> set[str]:
        """Names no person may take: the computer levels' and the registered bots'."""
        return {*LEVELS, *self.bots}

    async def choose_name(self, player: str, text: str) -> str:
        """Give ``player`` the name ``text``; raise NameRefused or LimitReached saying why not."""
        name = clean_name(text, self.reserved_names())
        person = await self.writer.run(self.community.set_name, player, name)
        return person.name

    async def display_name(self, player: str | None) -> str | None:
        """The name ``player`` chose, if any."""
        if player is None:
            return None
        person = await asyncio.to_thread(self.community.person, player)
        return None if person is None else person.name

    async def name_or_suggestion(self, player: str) -> str:
        """The person's name; one is suggested and kept for them if they have none (Play now never waits)."""
        name = await self.display_name(player)
        if name is not None:
            return name
        for _ in range(5):
            suggestion = suggest_name(self.community.name_taken)
            try:
                return await self.choose_name(player, suggestion)
            except (NameRefused, LimitReached):
                continue
        raise NameRefused("no free name could be found: choose one")

    async def named_seat(self, table: LiveTable, seat: int) -> None:
        """A person took ``seat``: the seat carries the name they chose, at a public table, or where the
        seat still has its default name (an invited seat the creator named keeps that name)."""
        s = table.seats[seat]
        if s.player is None or not s.player.startswith("person:"):
            return
        name = await self.display_name(s.player)
        if name is None or name == table.names[seat]:
            return
        if not table.public and table.names[seat] != seat_name(seat, table.rules.players):
            return
        table.names[seat] = name
        table.game.names = tuple(table.names)
        await self.writer.run(self.storage.set_names, table.id, list(table.names))

    def creation_refusal(self, player: str | None, address: str) -> str | None:
        """Why one more table from this browser (``player``) or ``address`` is refused now, or None
        (then it is counted: a caller that fails to make the table calls :meth:`creation_failed`)."""
        live = [t for t in self.tables.values() if not t.game.is_over and not t.abandoned]
        return self.table_making.refusal(
            player, sum(1 for t in live if t.creator == player),
            self._limited(address), sum(1 for t in live if self.address_of.get(t.id) == address), time.monotonic(),
        )  # fmt: skip

    def creation_failed(self, player: str | None, address: str) -> None:
        """A table :meth:`creation_refusal` let through was not made: give back the slots it took."""
        self.table_making.failed(player, self._limited(address))

    def _limited(self, address: str) -> str | None:
        """``address`` if addresses are limited (``hearts serve --connections-per-address``), else None."""
        return address if self.connections.limits.per_address else None

    async def sit(self, table: LiveTable, player: str, seat: int | None = None) -> int:
        """Give the person ``player`` a free seat of a public table (``seat``, or the first free one):
        it is theirs at once (nobody else can take it), and their link opens it. A person who already
        sits there gets their own seat back. Raise ValueError saying why not."""
        if not table.public:
            raise ValueError("that table is private: its seats are taken by invite links")
        if table.game.is_over or table.abandoned:
            raise ValueError("that game is over: choose another table")
        async with table.lock:
            mine = [s.seat for s in table.seats if s.player == player]
            if mine:
                return mine[0]
            free = [s.seat for s in table.seats if s.kind == "human" and not s.joined]
            computers = [s.seat for s in table.seats if s.kind == "computer" and s.player is None]
            if not free and computers and (seat is None or seat in computers):
                return await self._claim(table, player, computers[0] if seat is None else seat)
            if not free:
                raise ValueError("that table has no free seat now: watch it, or choose another")
            if seat is None:
                seat = free[0]
            elif seat not in free:
                raise ValueError(f"{_seat_words(table, seat)} is not free: the free seats are {', '.join(_seat_words(table, f) for f in free)}")
            s = table.seats[seat]
            s.joined, s.player = True, player
            table.joined_at[seat] = time.time()
            await self.writer.run(self.storage.update_seat, table.id, seat, joined=True, player=player)
            await self.named_seat(table, seat)
            table.broadcast_presence()
        table.kick()
        await self.lobby.publish(table)
        return seat

    async def _claim(self, table: LiveTable, player: str, seat: int) -> int:
        """A person claims a computer's seat of a game in progress: it is theirs from the next hand (their
        link shows the table as a spectator sees it until then). The caller holds the table's lock."""
        s = table.seats[seat]
        s.player = player
        s.token = new_token(table.id)
        self.tokens[s.token] = (table.id, seat)
        await self.writer.run(self.storage.update_seat, table.id, seat, token=s.token, player=player)
        table.broadcast_presence()
        self.spawn(self.lobby.publish(table))
        return seat

    async def play_now(self, player: str, address: str, level: str = FILL_LEVEL) -> tuple[LiveTable, int]:
        """Seat ``player`` and start their game at once: at the fullest waiting public table with
        standard rules, whose other free seats computers (``level``) take now whatever wait its
        creator chose (a person who comes later takes a computer's seat from the next hand), or at a
        new public one with computers in the other seats."""
        await self.name_or_suggestion(player)
        waiting = [
            t for t in self.tables.values()
            if t.public and is_standard(t.rules) and not t.game.is_over and not t.abandoned and not t.closed
            and any(s.kind == "human" and not s.joined for s in t.seats)
        ]  # fmt: skip
        waiting.sort(key=lambda t: (-sum(1 for s in t.seats if s.joined and s.kind == "human"), t.created_at))
        for table in waiting:
            try:
                seat = await self.sit(table, player)
            except ValueError:
                continue
            await self.start_now(table, level)
            return table, seat
        refused = self.creation_refusal(player, address)
        if refused:
            raise LimitReached(refused)
        rules = Rules()
        seats: list[tuple[str, str | None, str | None]] = [("human", None, None)] + [("computer", level, None)] * (rules.players - 1)
        try:
            table = await self.create(rules, seats, {"public": True}, creator=player)
        except ValueError:
            self.creation_failed(player, address)
            raise
        self.address_of[table.id] = address
        return table, await self.sit(table, player, 0)

    def game_over(self, table: LiveTable) -> None:
        """A table's game ended: rate it (a public table's), and take it off the lobby."""
        if table.public and not table.practice:
            results = [
                GameResult(s.key, table.names[s.seat], table.game.totals[s.seat], s.seat in table.game.winners, len(table.game.finished))
                for s in table.seats
            ]
            self.spawn(self._rate(table.id, results))
        if table.public:
            self.spawn(self.lobby.publish(table))

    async def _rate(self, table_id: str, results: list[GameResult]) -> None:
        """Rate a finished game, leaving out each seat whose player was not there from the first hand
        (a person who took a computer's seat later, and that computer): the first hand's row says who was."""
        first = await asyncio.to_thread(self.storage.hand_players, table_id, 0)
        if first is not None:
            results = [r for seat, r in enumerate(results) if seat < len(first) and first[seat] == r.player]
        await self.writer.run(self.community.rate_game, table_id, results)

    async def rematch(self, table: LiveTable, seat: int) -> str | None:
        """``seat`` says "play again" at the end of a game: once every person still at the table has,
        a new table with the same rules and options starts, the same people in the same seats (the
        seats of people who left are free: a public table lists them in the lobby), and each person's
        connections are sent their new seat's link. Returns an error text or None."""
        if not table.game.is_over:
            return "a rematch is offered once the game is over"
        if table.rematch_table is not None:
            return None
        s = table.seats[seat]
        if s.kind != "human":
            return "only a person's seat can ask for a rematch"
        table.rematch.add(seat)
        present = {x.seat for x in table.seats if x.kind == "human" and x.clients}
        if not present <= table.rematch:
            table.broadcast_presence()
            return None
        seats: list[tuple[str, str | None, str | None]] = [
            ("human", None, table.names[x.seat] if x.seat in table.rematch else None) if x.kind == "human" else (x.kind, x.level, table.names[x.seat])
            for x in table.seats
        ]
        options = {k: v for k, v in table.options.items() if k in DEFAULT_OPTIONS}
        new = await self.create(table.rules, seats, options, creator=table.creator)
        table.rematch_table = new.id
        for x in table.seats:
            if x.seat in table.rematch and x.player is not None:
                n = new.seats[x.seat]
                n.joined, n.player = True, x.player
                await self.writer.run(self.storage.update_seat, new.id, x.seat, joined=True, player=x.player)
        for x in table.seats:
            token = new.seats[x.seat].token if x.seat in table.rematch else None
            text = encode({"type": "rematch", "table": new.id, "play": f"/play/{token}" if token else None, "watch": f"/watch/{new.watch_token}"})
            for c in list(x.clients):
                c.send(text)
        for c in list(table.spectators):
            c.send(encode({"type": "rematch", "table": new.id, "play": None, "watch": f"/watch/{new.watch_token}"}))
        table.broadcast_presence()
        if new.public:
            await self.lobby.publish(new)
        new.kick()
        return None

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
        async with table.lock:
            if any(s.kind == "human" and not s.joined for s in table.seats):
                refused = fill_refusal(table.creator, table.created_at, who, time.time())
                if refused:
                    raise ValueError(refused)
            filled = await self._fill_free(table, level)
        table.kick()
        if table.public and filled:
            self.spawn(self.lobby.publish(table))
        return filled

    async def start_now(self, table: LiveTable, level: str = FILL_LEVEL) -> list[int]:
        """Start a public table now (Play now seated someone at it): computers of ``level`` take its
        free seats, whoever made it and however long it meant to wait; return those seats."""
        async with table.lock:
            filled = await self._fill_free(table, level)
        table.kick()
        if filled:
            await self.lobby.publish(table)  # listed as playing before Play now answers
        return filled

    async def _fill_free(self, table: LiveTable, level: str) -> list[int]:
        """Computers of ``level`` take every seat no person has joined. The caller holds the table's lock."""
        filled = []
        for s in table.seats:
            if s.kind == "human" and not s.joined:
                await self.writer.run(self.storage.update_seat, table.id, s.seat, kind="computer", level=level, token=None)
                if s.token:
                    self.tokens.pop(s.token, None)
                s.kind, s.level, s.token = "computer", level, None
                filled.append(s.seat)
        table.broadcast_presence()
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
    for key in ("public", "spectator_chat"):
        if not isinstance(opts[key], bool):
            raise ValueError(f"table option {key!r} must be true or false, not {opts[key]!r}")
    wait = opts["wait"]
    if not isinstance(wait, (int, float)) or isinstance(wait, bool) or not 0 <= wait <= 600:
        raise ValueError(f"table option 'wait' must be seconds from 0 to 600 (how long free seats wait for people), not {wait!r}")
    clock = opts["clock"]
    if clock is not None:
        if not isinstance(clock, dict) or set(clock) != {"play", "pass"}:
            raise ValueError(f"table option 'clock' must be null or {{\"play\": seconds, \"pass\": seconds}}, not {clock!r}"[:200])
        for part, value in clock.items():
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 1 <= value <= 600:
                raise ValueError(f"the turn clock's {part!r} must be seconds from 1 to 600, not {value!r}"[:200])


def _seat_words(table: LiveTable, seat: int) -> str:
    """A seat as the API numbers it (from 0, as the lobby lists seats) with its name at the table:
    "seat 2 (North)"; a number past the table's seats says how many it has."""
    players = table.rules.players
    if not 0 <= seat < players:
        return f"seat {seat} (this table's seats are 0 to {players - 1})"
    return f"seat {seat} ({seat_name(seat, players)})"

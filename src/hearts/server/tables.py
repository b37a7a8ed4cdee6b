"""Live tables: the server owns each game, checks every action with the engine, stores it, then tells
each client what its seat may see.

One :class:`LiveTable` per table in memory, rebuilt after a restart by replaying the stored moves
through :class:`~hearts.core.game.Game`. Computer players (and a person's stand-in while they are
away) think in the shared :class:`~hearts.server.share.ThinkPool`, which takes the tables in turn,
so the event loop never waits on them and no table's work holds up another's. All writes go
through one :class:`GroupWriter`, which commits whatever actions arrived together in one transaction.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from hearts.core import (
    CardSet,
    Game,
    GameOver,
    GameRecord,
    HandScored,
    HandStarted,
    HeartsError,
    Move,
    PassDirection,
    Phase,
    Rules,
    dumps,
    move_from_dict,
    move_to_dict,
    seat_name,
)
from hearts.core.events import Event
from hearts.players import LEVELS, Player, make_player
from hearts.players.registry import bot_spec
from hearts.server.messages import ClientMessage, Fill, Moon, Pass, Play
from hearts.server.privacy import client_keys, player_key, seat_key
from hearts.server.protocol import encode, events_for
from hearts.server.share import Busy, ConnectionLimits, Limits, ThinkPool
from hearts.server.storage import ActionWrite, SeatRow, Storage, TableRow
from hearts.server.upkeep import ABANDON_AFTER_HOURS, fill_refusal, sweep
from hearts.server.words import ahead_of_the_table, refusal, too_late
from hearts.server.writer import GroupWriter

log = logging.getLogger("hearts.server")

#: Best first: the level whose move the hint button shows, the first one installed.
HINT_LEVELS = ("expert", "hard", "medium", "easy", "random")

#: Threads of the computer players' shared pool (see :class:`~hearts.server.share.ThinkPool`).
THINK_WORKERS = 4
#: Worker processes for hints (0: hints think in the threads too). A process of its own keeps a hint's
#: search from holding the interpreter lock that every table's messages need.
HINT_PROCESSES = 1

#: What a faulted bot did, in words for its seat's label ("stand-in for mybot (crashed: ...)").
FAULT_WORDS = {
    "start": "could not start",
    "crash": "crashed",
    "timeout": "timed out",
    "malformed": "answered nonsense",
    "illegal": "played illegally",
}

#: Table options and their defaults (see docs/server.md).
DEFAULT_OPTIONS: dict[str, Any] = {
    "pause": 0.6,  # seconds a computer player waits before playing, so people can follow
    "think": 1.0,  # time budget handed to computer players, in seconds
    "standin_after": None,  # seconds after which an away person's seat is played by a computer (None: wait)
    "standin_level": None,  # the level of that stand-in (None: the best installed level)
}


def hint_level() -> str:
    """The strongest computer level installed right now."""
    for level in HINT_LEVELS:
        if level in LEVELS:
            return level
    return next(iter(LEVELS))


def new_token() -> str:
    """An unguessable link token (128 random bits)."""
    return secrets.token_urlsafe(16)


class Sender(Protocol):
    """What a table needs of a connection (app.Connection): its seat (None: a spectator), a way to
    queue a text frame, and a way to close it."""

    seat: int | None
    hinting: bool

    def send(self, text: str) -> None: ...

    def close(self, code: int = 1000) -> None: ...


@dataclass
class Seat:
    seat: int
    kind: str  # "human", "computer", "bot"
    level: str | None
    token: str | None
    joined: bool = False
    clients: set[Sender] = field(default_factory=set)
    away_since: float = field(default_factory=time.monotonic)
    player: str | None = None  #: the person's player key, once they joined

    @property
    def connected(self) -> bool:
        return bool(self.clients)

    @property
    def key(self) -> str:
        """Whom this seat's results count for (a stable key, never a name or a token)."""
        return player_key(self.kind, self.level, self.player, self.token)


class LiveTable:
    """One table: the game, its seats and connections, and the task that drives computer seats."""

    def __init__(self, manager: TableManager, row: TableRow) -> None:
        self.manager = manager
        self.id = row.id
        self.rules = Rules.from_dict(row.rules)
        self.seed = row.seed
        self.names = list(row.names)
        self.options = {**DEFAULT_OPTIONS, **row.options}
        self.watch_token = row.watch_token
        self.seats = [Seat(s.seat, s.kind, s.level, s.token, s.joined, player=s.player) for s in row.seats]
        self.spectators: set[Sender] = set()
        # A table deals from its secret key; only a practice table (or one made before keys) from its seed.
        key = bytes.fromhex(row.secret) if row.secret else None
        self.practice = row.practice
        self.creator = row.creator
        self.created_at = row.created_at
        self.last_move_at = row.last_move_at or row.created_at  #: wall-clock time of the last move
        self.abandoned = row.status == "abandoned"
        self.game = Game(self.rules, seed=self.seed, names=self.names, key=key)
        self.seq = 0
        self.lock = asyncio.Lock()
        self.players: dict[tuple[int, str], Player] = {}
        self.stand_in: list[bool] = [False] * self.rules.players
        #: per seat: what its registered bot did wrong (None: no fault); a stand-in plays it from then on
        self.faults: list[str | None] = [None] * self.rules.players
        #: per seat: the hint being worked out or given for the seat's situation at that seq
        self.hints: dict[int, tuple[int, asyncio.Future[Any]]] = {}
        self.last_hand: dict[str, Any] | None = None
        self._driver: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self.closed = False
        self.seat_seq = [0] * self.rules.players  #: seq of each seat's latest move (see _stale)
        self.hand_seq = 0  #: seq at which the current hand began
        #: each seat's latest move and who made it (see _stale: a repeated move is told apart)
        self.last_move: list[Move | None] = [None] * self.rules.players
        self.last_actor: list[str | None] = [None] * self.rules.players
        for action in row.actions:  # rebuild by replaying every stored move through the engine
            move = move_from_dict(action["move"])
            events = self.game.apply(move)
            self.seq = action["seq"]
            self.seat_seq[move.seat] = self.seq
            if action.get("actor") == "stand-in" and self.seats[move.seat].kind == "bot":
                self.faults[move.seat] = "faulted before the server restarted"
            self.last_move[move.seat], self.last_actor[move.seat] = move, action.get("actor")
            self._note_finished(events)

    # -- what clients see -------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Public facts about the table: no cards, no tokens."""
        now = time.monotonic()
        return {
            "id": self.id,
            "names": self.names,
            "seats": [
                {
                    "seat": s.seat,
                    "name": self.names[s.seat],
                    "kind": s.kind,
                    "level": s.level,
                    "joined": s.joined or s.kind != "human",
                    "connected": s.connected if s.kind == "human" else True,
                    "stand_in": self.stand_in[s.seat] or self.faults[s.seat] is not None,
                    **self._stand_in_label(s),
                    **self._presence(s, now),
                }
                for s in self.seats
            ],
            "rules": self.rules.to_dict(),
            "preset": self.rules.name,
            "options": self.options,
            "seq": self.seq,
            "phase": self.game.phase.value,
            "totals": list(self.game.totals),
            "winners": list(self.game.winners),
            "hands_done": len(self.game.finished),
            "spectators": len(self.spectators),
            "practice": self.practice,
            "status": "abandoned" if self.abandoned else "over" if self.game.is_over else "playing",
        }

    def _stand_in_label(self, s: Seat) -> dict[str, Any]:
        """For a bot's seat after a fault: whom the stand-in plays for and why, for the page to show."""
        fault = self.faults[s.seat]
        if fault is None:
            return {}
        return {"stand_in_for": s.level, "stand_in_level": _bot_stand_in_level(), "fault": fault}

    def _presence(self, s: Seat, now: float) -> dict[str, float | None]:
        """How long a person who joined and dropped has been away (``away_for``, seconds) and in how
        many seconds a computer stands in for them (``takeover_in``; 0: it does, or will at their
        next turn), from the table's ``standin_after`` policy; None for a seat that is here, a
        computer, or a table that waits for people."""
        if s.kind != "human" or not s.joined or s.clients:
            return {"away_for": None, "takeover_in": None}
        after = self.options.get("standin_after")
        takeover = None if after is None else round(max(0.0, s.away_since + float(after) - now), 1)
        return {"away_for": round(now - s.away_since, 1), "takeover_in": takeover}

    def view_for(self, seat: int | None) -> dict[str, Any]:
        if seat is None:  # built from the core's allow-list of public fields, never from a seat's view
            return self.game.public_view().to_dict()
        return self.game.view(seat).to_dict()

    def welcome(self, seat: int | None) -> str:
        return encode(
            {
                "type": "welcome",
                "role": "spectator" if seat is None else "player",
                "seat": seat,
                "seq": self.seq,
                "table": self.summary(),
                "view": self.view_for(seat),
                "last_hand": self.last_hand,
                "watch_token": self.watch_token if seat is not None else None,
                "hint_level": hint_level(),
            }
        )

    def _broadcast_presence(self) -> None:
        text = encode({"type": "table", "table": self.summary()})
        for client in self._all_clients():
            client.send(text)

    def _all_clients(self) -> list[Sender]:
        out: list[Sender] = list(self.spectators)
        for s in self.seats:
            out.extend(s.clients)
        return out

    # -- connections --------------------------------------------------------------------

    async def attach(self, client: Sender) -> None:
        async with self.lock:
            seat = client.seat
            if seat is None:
                self.spectators.add(client)
            else:
                s = self.seats[seat]
                s.clients.add(client)
                if not s.joined or (s.player is None and s.kind == "human"):
                    # The first person to come by the link takes the seat: their results count for them.
                    s.joined = True
                    s.player = s.player or getattr(client, "player", None) or (seat_key(s.token) if s.token else None)
                    await self.manager.writer.run(self.manager.storage.update_seat, self.id, seat, joined=True, player=s.player)
                self.stand_in[seat] = False
            client.send(self.welcome(seat))
            self._broadcast_presence()
        self.kick()

    async def detach(self, client: Sender) -> None:
        async with self.lock:
            seat = client.seat
            if seat is None:
                self.spectators.discard(client)
            else:
                s = self.seats[seat]
                s.clients.discard(client)
                if not s.clients:
                    s.away_since = time.monotonic()
            if not self.closed:
                self._broadcast_presence()
        self.kick()

    # -- actions ------------------------------------------------------------------------

    async def handle(self, client: Sender, message: ClientMessage) -> str | None:
        """Act on one checked message from ``client`` (see :mod:`hearts.server.messages`); return an
        error text for that client alone, or None."""
        kind = message.type
        seat = client.seat
        if kind == "ping":
            client.send(encode({"type": "pong", "seq": self.seq}))
            return None
        if kind == "sync":
            client.send(self.welcome(seat))
            return None
        if seat is None:
            return f"spectators cannot send {kind!r}: open the table with a seat's link to play"
        if self.abandoned:
            return "this game was abandoned (no move and nobody here for a long time): start a new one from the lobby"
        if kind == "hint":
            # One hint at a time per connection: hints think in the shared pool with the computer seats.
            if client.hinting:
                return "a hint is already being worked out for you: wait for it"
            client.hinting = True
            try:
                return await self._hint(client)
            finally:
                client.hinting = False
        if isinstance(message, Fill):
            level = message.level or "random"
            try:
                await self.manager.fill(self, level, self._who(client))
            except ValueError as exc:
                return str(exc)
            return None
        assert isinstance(message, (Play, Pass, Moon))
        try:
            move = message.move(seat)
        except HeartsError as exc:
            return str(exc)
        async with self.lock:
            stale = self._stale(move, message.seq)
            if stale:
                return stale
            try:
                await self.commit(move, "human")
            except HeartsError as exc:
                return refusal(exc, move, self.game)  # said to the seat: "You can't play 10♥: ..."
        self.kick()
        return None

    def _who(self, client: Sender) -> set[str]:
        """The player keys a seated client answers to: its browser identity's and its seat link's."""
        assert client.seat is not None
        return client_keys(getattr(client, "player", None), self.seats[client.seat].token)

    def _stale(self, move: Move, seq: int | None) -> str | None:
        """Why ``move``, which answered the view at ``seq``, is out of date, or None.

        A move is stale when the seat's own situation changed after that view: it moved since (a
        repeated message), a stand-in moved for it, or a new hand began. Other seats' moves alone do
        not make it stale: passes are simultaneous, and in play nobody else moves between a seat's
        turn coming and its card.
        """
        if seq is None:
            return None
        if seq > self.seq:
            return ahead_of_the_table()
        seat = move.seat
        if seq < max(self.seat_seq[seat], self.hand_seq):
            return too_late(move, seq < self.hand_seq, self.last_move[seat], self.last_actor[seat])
        return None

    async def commit(self, move: Move, actor: str) -> list[Event]:
        """Check, store, apply and announce one move. The caller holds :attr:`lock`.

        The move is applied to a copy of the game; the copy replaces the game only once the move is
        stored, so an illegal move or a failed write leaves the table exactly as it was.
        """
        if self.closed:
            raise HeartsError("the table is closed")
        self.game.check(move)
        after = self.game.copy()
        events = after.apply(move)
        seq = self.seq + 1
        write = ActionWrite(self.id, seq, move_to_dict(move), actor)
        finished = [e for e in events if isinstance(e, HandScored)]
        if finished:
            record = GameRecord.of(after)
            if not after.is_over:  # the new hand in progress is secret: store finished hands only
                record = dataclasses.replace(record, hands=record.hands[:-1])
            text = dumps(record, indent=None)
            for e in finished:
                hand = after.finished[e.hand_number]
                write.hands.append(
                    {
                        "number": e.hand_number,
                        "names": json.dumps(self.names),
                        # A faulted bot's seat is "fault": its stand-in's play is never counted as the bot's.
                        "kinds": json.dumps(["fault" if self.faults[s.seat] else s.kind for s in self.seats]),
                        "players": json.dumps([s.key for s in self.seats]),
                        "points": json.dumps(list(e.points)),
                        "totals": json.dumps(list(e.totals)),
                        "shooter": hand.shooter,
                        "record": text,
                    }
                )
            write.table_update = {"totals": list(after.totals), "hands_done": len(after.finished)}
            if any(isinstance(e, GameOver) for e in events):
                write.table_update.update(status="over", winners=list(after.winners))
        await self.manager.writer.submit(write)
        self.last_move_at = time.time()
        self.game = after
        self.seq = seq
        self.seat_seq[move.seat] = seq
        self.last_move[move.seat], self.last_actor[move.seat] = move, actor
        self._note_finished(events)
        self._announce(events, finished_hand=self.last_hand if finished else None, move=move, actor=actor)
        if self.game.is_over:
            self.release_players()
        return events

    def release_players(self) -> None:
        """Stop the table's computer players (an external bot's program ends with its game)."""
        players, self.players = list(self.players.values()), {}
        closers = [close for p in players if (close := getattr(p, "close", None)) is not None]
        if closers:
            task = asyncio.get_running_loop().create_task(self.manager.pool.run(self.id, "close", _call_all, closers))
            task.add_done_callback(_log_failure)

    def _note_finished(self, events: list[Event]) -> None:
        for e in events:
            if isinstance(e, HandStarted):
                self.hand_seq = self.seq
            if isinstance(e, HandScored):
                self.last_hand = self._hand_dict(e.hand_number)

    def _hand_dict(self, number: int) -> dict[str, Any]:
        """A finished hand, whole deal included (public once the hand is over)."""
        return hand_detail(self.game, number)

    def _announce(self, events: list[Event], finished_hand: dict[str, Any] | None, move: Move, actor: str) -> None:
        base = {"type": "update", "seq": self.seq, "actor": actor, "finished_hand": finished_hand}
        for s in self.seats:
            if s.clients:
                text = encode(dict(base, events=events_for(events, s.seat), view=self.view_for(s.seat)))
                for c in list(s.clients):
                    c.send(text)
        if self.spectators:
            text = encode(dict(base, events=events_for(events, None), view=self.view_for(None)))
            for c in list(self.spectators):
                c.send(text)

    async def _hint(self, client: Sender) -> str | None:
        """Send ``client`` the best installed level's move for its seat.

        One hint is worked out per seat and situation (the seat's view changes only when it moves or a
        hand begins): every connection of the seat that asks meanwhile, or asks again, gets that same
        answer, so re-sending ``hint`` costs the server nothing and a seat has one hint in the pool at most.
        """
        seat = client.seat
        assert seat is not None
        if seat not in self.game.to_move:
            return "no hint now: it is not your turn to decide"
        since = max(self.seat_seq[seat], self.hand_seq)
        asked = self.hints.get(seat)
        if asked is None or asked[0] != since:
            if self.manager.pool.busy(self.id, f"hint:{seat}"):
                return "a hint for your seat is still being worked out: wait for it"
            level, budget = hint_level(), min(1.0, float(self.options["think"]))
            view = self.game.view(seat)
            job = self.manager.pool.run(self.id, f"hint:{seat}", _hint_decision, level, since, budget, view, process=True)
            asked = (since, asyncio.ensure_future(job))
            self.hints[seat] = asked
        try:
            level, decision = await asyncio.shield(asked[1])
        except Busy:
            return "a hint for your seat is still being worked out: wait for it"
        except Exception as exc:  # noqa: BLE001 - a hint failing must not hurt the table
            log.warning("hint failed at table %s: %r", self.id, exc)
            return "no hint: the computer player could not work one out"
        if max(self.seat_seq[seat], self.hand_seq) != since:
            return "no hint: the table moved on while it was worked out; ask again"
        client.send(
            encode(
                {
                    "type": "hint",
                    "seq": self.seq,
                    "level": level,
                    "move": move_to_dict(decision.move),
                    "reason": decision.reason,
                    "summary": decision.summary,  # the reason in words, and the figures behind it
                    "details": decision.details,
                }
            )
        )
        return None

    # -- computer seats -----------------------------------------------------------------

    def kick(self) -> None:
        """Something changed: let the driver look again at who must move."""
        if self.closed or self.abandoned:
            return
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.id}")
        else:
            self._wake.set()

    def _next_automated(self) -> tuple[int, str, float] | None:
        """The next seat a computer must move for: (seat, actor, seconds to wait first), or None."""
        best: tuple[int, str, float] | None = None
        now = time.monotonic()
        after = self.options.get("standin_after")
        for seat in self.game.to_move:
            s = self.seats[seat]
            if s.kind in ("computer", "bot"):
                return seat, s.kind, 0.0
            if s.kind == "human" and s.joined and not s.clients and after is not None:
                wait = max(0.0, s.away_since + float(after) - now)
                if best is None or wait < best[2]:
                    best = (seat, "stand-in", wait)
        return best

    def _player(self, seat: int, actor: str) -> Player:
        s = self.seats[seat]
        if actor == "stand-in":
            level = self.options.get("standin_level") or hint_level()
        elif actor == "bot" and self.faults[seat] is not None:
            actor, level = "stand-in", _bot_stand_in_level()  # the bot faulted before a restart: it stays out
        else:
            level = s.level or "random"
        key = (seat, f"{actor}:{level}")
        if key not in self.players:
            spec = self.manager.bots[level] if actor == "bot" else level
            self.players[key] = make_player(spec, seed=(self.seed * 31 + seat) % 2**32, time_budget=float(self.options["think"]))
        return self.players[key]

    async def _sleep(self, seconds: float) -> None:
        try:
            await asyncio.wait_for(self._wake.wait(), timeout=seconds)
        except TimeoutError:
            pass

    def _decide(self, seat: int, actor: str, view: Any) -> Move:
        """The computer's move for ``seat`` (run in the thinking pool); notes a registered bot's fault."""
        player = self._player(seat, actor)
        move = player.decide(view).move
        faults = getattr(player, "faults", None)
        if actor == "bot" and faults and self.faults[seat] is None:
            fault = faults[0]
            self.faults[seat] = f"{FAULT_WORDS.get(fault.kind, fault.kind)}: {fault.message}"[:160]
        return move

    async def _drive(self) -> None:
        while not self.closed:
            self._wake.clear()
            plan = self._next_automated()
            if plan is None:
                return
            seat, actor, wait = plan
            if wait > 0:
                await self._sleep(wait)
                continue
            seq = self.seq
            if self.game.phase is Phase.PLAY and float(self.options["pause"]) > 0:
                await asyncio.sleep(float(self.options["pause"]))  # a visible pause, so people can follow
            view = self.game.view(seat)
            try:
                # Made in the thinking pool too: a search player's first construction in this
                # process loads (or compiles) its numba kernels, which must not stall the event loop.
                move = await self.manager.pool.run(self.id, "move", self._decide, seat, actor, view)
            except Exception as exc:  # noqa: BLE001 - a broken bot must not stop the table
                log.exception("computer seat %s at table %s failed; playing a random legal move", seat, self.id)
                if actor == "bot" and self.faults[seat] is None:
                    self.faults[seat] = f"failed: {type(exc).__name__}"
                move = make_player("random", seed=seq).decide(view).move
            if actor == "bot" and self.faults[seat] is not None:
                actor = "stand-in"  # the bot faulted: the move is its stand-in's, never credited to the bot
            async with self.lock:
                if self.seq != seq or self.closed:
                    continue  # the table moved on while it thought (a person came back, another seat moved)
                now = self._next_automated()
                if now is None or now[0] != seat or now[2] > 0:
                    continue
                if actor == "stand-in" and not self.stand_in[seat]:
                    self.stand_in[seat] = True
                    self._broadcast_presence()
                try:
                    await self.commit(move, actor)
                except HeartsError:
                    log.exception("computer seat %s at table %s chose an illegal move %r", seat, self.id, move)
                    if self.seats[seat].kind == "bot" and self.faults[seat] is None:
                        self.faults[seat], actor, self.stand_in[seat] = f"played illegally: {move}", "stand-in", True
                        self._broadcast_presence()
                    fallback = make_player("random", seed=seq).decide(self.game.view(seat)).move
                    await self.commit(fallback, actor)

    async def close(self) -> None:
        self.closed = True
        for player in self.players.values():
            close = getattr(player, "close", None)
            if close is not None:
                close()
        self.players = {}
        if self._driver is not None:
            self._driver.cancel()
            try:
                await self._driver
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass


def _hint_decision(level: str, seed: int, budget: float, view: Any) -> tuple[str, Any]:
    """A hint: ``level``'s decision for ``view`` (run in the thinking pool)."""
    return level, make_player(level, seed=seed, time_budget=budget).decide(view)


def _warm_hints() -> None:
    """Load the hint level's player (and its compiled kernels) by asking it once."""
    _hint_decision(hint_level(), 0, 0.05, Game(Rules(), seed=0).view(0))


def _bot_stand_in_level() -> str:
    """The level that plays a faulted bot's seat: ExternalPlayer's own fallback."""
    return "medium" if "medium" in LEVELS else "random"


def _call_all(calls: list[Callable[[], Any]]) -> None:
    for call in calls:
        call()


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("closing computer players failed: %r", task.exception())


def hand_detail(game: Game, number: int) -> dict[str, Any]:
    """Finished hand ``number`` (0-based) of ``game`` laid open for the end-of-hand screen and the
    replay page: every seat's dealt cards, pass, what it received and held after the pass, and each
    trick with who played which card and who won it. All of it is the engine's summary of the hand
    (``game.summary``: points taken count J♦), with the game's running totals."""
    if not 0 <= number < len(game.finished):
        raise IndexError(f"hand {number + 1} is not finished")
    summary = game.summary(number)
    n = game.rules.players
    holding = summary.direction is PassDirection.HOLD
    scores, running, held = summary.scores or (0,) * n, list(summary.totals or (0,) * n), summary.held or ()
    seats = [
        {
            "seat": s,
            "name": game.names[s],
            "dealt": summary.dealt[s].names(),
            "passed": (summary.passes[s] or CardSet()).names(),
            "pass_to": None if holding else summary.pass_to[s],
            "received": (summary.received[s] or CardSet()).names(),
            "held": held[s].names(),
            "points": summary.taken[s],
            "score": scores[s],
            "total": running[s],
        }
        for s in range(n)
    ]
    tricks = [
        {"leader": t.leader, "winner": t.winner, "plays": [{"seat": seat, "card": str(card)} for seat, card in t.plays]}
        for t in summary.tricks
    ]
    return {
        "number": number + 1,
        "direction": summary.direction.value,
        "names": list(game.names),
        "seats": seats,
        "tricks": tricks,
        "shooter": summary.shooter,
        "moon_choice": None if summary.moon_option is None else summary.moon_option.value,
        "scores": list(scores),
        "totals": running,
    }


class TableManager:
    """Every live table, the link tokens, the writer, the connection counts and the computer players' pool."""

    def __init__(
        self,
        storage: Storage,
        bots: dict[str, str] | None = None,
        pause: float | None = None,
        abandon_after: float = ABANDON_AFTER_HOURS * 3600,
        limits: Limits | None = None,
    ) -> None:
        self.storage = storage
        self.writer = GroupWriter(storage)
        self.pool = ThinkPool(THINK_WORKERS, processes=HINT_PROCESSES)
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

    async def start(self, warm: bool = False) -> None:
        """Start the writer and the checkpointer, and resume every unfinished table. ``warm``: start
        the hint process now, with the hint level's player loaded, rather than at the first hint."""
        self.writer.start()
        if warm:
            self.pool.warm(_warm_hints)
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
    ) -> LiveTable:
        """A new table. ``seats`` holds (kind, level or bot name, name) per seat; raise ValueError on bad input.

        The deals come from a fresh 256-bit secret (:func:`hearts.core.game.keyed_deal`) unless a
        ``seed`` is given: then the table is a practice table, marked so and never counted in the
        statistics. ``creator`` is the creating browser's player key; without one, whoever holds the
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
        )
        await self.writer.run(self.storage.create_table, row)
        table = await self.get(row.id)
        assert table is not None
        table.kick()
        return table

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
            table._broadcast_presence()
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

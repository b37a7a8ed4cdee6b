"""A live table: the server owns its game, checks every move with the engine, stores it, then tells
each client what its seat may see.

One :class:`LiveTable` per table in memory, rebuilt after a restart by replaying the stored moves
through :class:`~hearts.core.game.Game`. Its :class:`~hearts.server.driver.SeatDriver` makes the
moves of computer seats and stand-ins; every move, a person's or a computer's, goes through
:meth:`LiveTable.commit`, which stores it (:mod:`hearts.server.persist`) through the server's one
:class:`~hearts.server.writer.GroupWriter` before anyone is told.
"""

from __future__ import annotations

import asyncio
import collections
import time
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from hearts.core import Event, HandScored, HandStarted, HeartsError, Move
from hearts.server.driver import SeatDriver, hint_level
from hearts.server.hands import hand_detail
from hearts.server.messages import Chat, Claim, ClientMessage, Fill, Moon, Pass, Play
from hearts.server.persist import action_write, again_of, new_game, stored_moves
from hearts.server.privacy import client_keys, player_key, seat_key
from hearts.server.protocol import encode, encode_with_view, events_for
from hearts.server.storage import TableRow
from hearts.server.words import ahead_of_the_table, refusal, too_late

if TYPE_CHECKING:
    from hearts.server.manager import TableManager

#: Table options and their defaults (see docs/server.md).
DEFAULT_OPTIONS: dict[str, Any] = {
    "pause": 0.6,  # seconds a computer player waits before playing, so people can follow
    "think": 1.0,  # time budget handed to computer players, in seconds
    "standin_after": None,  # seconds after which an away person's seat is played by a computer (None: wait)
    "standin_level": None,  # the level of that stand-in (None: the best installed level)
    "public": False,  # listed in the lobby: anyone may take a free seat, watch, and the game is rated
    "wait": 60,  # seconds a public table's free seats wait for people before computers take them
    "clock": None,  # the turn clock, {"play": seconds, "pass": seconds} (None: none; public tables: PUBLIC_CLOCK)
    "spectator_chat": True,  # players see spectators' messages during a hand (False: only between hands)
}
#: The turn clock a public table gets unless its creator chose another.
PUBLIC_CLOCK = {"play": 20, "pass": 40}
#: Moves in a row the clock makes for a seat before the seat goes to its stand-in.
CLOCK_STRIKES = 3
#: Characters a chat message may hold.
CHAT_LENGTH = 200
#: Chat messages a sender may send within CHAT_WINDOW seconds.
CHAT_BURST = 5
CHAT_WINDOW = 10.0
#: Chat messages a table keeps in memory for the welcome of a client that (re)connects.
CHAT_KEPT = 100


class Sender(Protocol):
    """What a table needs of a connection (app.Connection): its seat (None: a spectator), a way to
    queue a text frame, and a way to close it."""

    seat: int | None
    hinting: bool
    player: str | None

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
    """One table: the game, its seats and connections, and the driver of its computer seats."""

    def __init__(self, manager: TableManager, row: TableRow) -> None:
        self.manager = manager
        self.id = row.id
        self.game = new_game(row)
        self.rules = self.game.rules
        self.seed = row.seed
        self.names = list(row.names)
        self.options = {**DEFAULT_OPTIONS, **row.options}
        self.watch_token = row.watch_token
        self.seats = [Seat(s.seat, s.kind, s.level, s.token, s.joined, player=s.player) for s in row.seats]
        self.spectators: set[Sender] = set()
        self.practice = row.practice
        #: a replayed deal's first hand, whose computers pass as they did (None: an ordinary table)
        self.again = again_of(row) if row.deal is not None else None
        self.again_from = None if row.deal is None else row.deal.get("from")
        self.creator = row.creator
        self.created_at = row.created_at
        self.last_move_at = row.last_move_at or row.created_at  #: wall-clock time of the last move
        self.abandoned = row.status == "abandoned"
        self.seq = 0
        self.lock = asyncio.Lock()
        self.driver = SeatDriver(self)
        self.last_hand: dict[str, Any] | None = None
        self.closed = False
        self.seat_seq = [0] * self.rules.players  #: seq of each seat's latest move (see _stale)
        self.hand_seq = 0  #: seq at which the current hand began
        #: each seat's latest move and who made it (see _stale: a repeated move is told apart)
        self.last_move: list[Move | None] = [None] * self.rules.players
        self.last_actor: list[str | None] = [None] * self.rules.players
        self.public = bool(self.options.get("public"))
        #: wall-clock times the turn clock counts from: the last move, and the start of the hand
        self.turn_at = self.hand_at = row.created_at
        self.joined_at = [0.0] * self.rules.players  #: when each seat's person sat (the clock waits for them)
        self.clock_strikes = [0] * self.rules.players  #: moves in a row the clock made for each seat
        self.chat_log: collections.deque[dict[str, Any]] = collections.deque(maxlen=CHAT_KEPT)
        self.chat_n = 0  #: chat messages said at the table (loaded with it)
        self.rematch: set[int] = set()  #: seats whose people said "play again"
        self.rematch_table: str | None = None  #: the table the rematch was made at
        for action, move in stored_moves(row):  # rebuild by replaying every stored move through the engine
            events = self.game.apply(move)
            self.turn_at = action.get("at") or self.turn_at
            if any(isinstance(e, HandStarted) for e in events):
                self.hand_at = self.turn_at
            actor = action.get("actor")
            self.clock_strikes[move.seat] = self.clock_strikes[move.seat] + 1 if actor == "clock" else 0 if actor == "human" else self.clock_strikes[move.seat]
            self.seq = action["seq"]
            self.seat_seq[move.seat] = self.seq
            if action.get("actor") == "stand-in" and self.seats[move.seat].kind == "bot":
                self.driver.faults[move.seat] = "faulted before the server restarted"
            self.last_move[move.seat], self.last_actor[move.seat] = move, action.get("actor")
            self._note_finished(events)

    # -- what clients see -------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Public facts about the table: no cards, no tokens."""
        now = time.monotonic()
        driver = self.driver
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
                    "stand_in": driver.stand_in[s.seat] or driver.faults[s.seat] is not None or self.clocked_out(s.seat),
                    "clocked_out": self.clocked_out(s.seat),
                    **driver.stand_in_label(s.seat),
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
            "again_of": None if self.again_from is None else {"table": self.again_from[0], "hand": self.again_from[1]},
            "status": "abandoned" if self.abandoned else "over" if self.game.is_over else "playing",
            "public": self.public,
            "clock": self.clock_left(),
            "rematch": {"accepted": sorted(self.rematch), "table": self.rematch_table} if self.game.is_over else None,
        }

    # -- the turn clock -------------------------------------------------------------------

    def clock_limits(self) -> dict[str, float] | None:
        """The turn clock's seconds to pass and to play, or None: this table has no clock."""
        clock = self.options.get("clock")
        return None if not clock else {k: float(v) for k, v in clock.items()}

    def clocked_out(self, seat: int) -> bool:
        """The clock moved for ``seat`` so often in a row that its stand-in plays it until the person is back."""
        return self.clock_strikes[seat] >= CLOCK_STRIKES

    def deadline(self, seat: int) -> float | None:
        """When (wall-clock time) the clock moves for ``seat``, or None: no clock runs for it now. It
        runs for a person who sat and owes a move, from when their turn came (or they sat)."""
        limits = self.clock_limits()
        s = self.seats[seat]
        if limits is None or s.kind != "human" or not s.joined or seat not in self.game.to_move or self.game.is_over:
            return None
        if self.clocked_out(seat) or self.abandoned:
            return None
        passing = self.game.phase.value == "pass"
        start = max(self.hand_at if passing else self.turn_at, self.joined_at[seat])
        return start + limits["pass" if passing else "play"]

    def clock_left(self) -> dict[str, float] | None:
        """Seconds left on the clock for each seat it runs for now (by seat number as text), or None: no clock."""
        if self.clock_limits() is None:
            return None
        now = time.time()
        out = {}
        for seat in self.game.to_move:
            due = self.deadline(seat)
            if due is not None:
                out[str(seat)] = round(max(0.0, due - now), 1)
        return out

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
                "chat": [c for c in self.chat_log if self.chat_visible(c, spectator=seat is None)],
            }
        )

    def chat_visible(self, said: dict[str, Any], spectator: bool) -> bool:
        """Whether a reader (a ``spectator``, or else a player) is shown the chat message ``said`` now:
        the one rule for a seat's welcome, its live ``chat`` messages and ``GET /api/tables/{id}/chat``
        (which answers anyone, so it shows what a player sees). A spectator sees every message; a
        player sees a spectator's message during the hand it was written in only if the table's
        ``spectator_chat`` option allows, and otherwise once that hand is over (:meth:`_release_chat`)."""
        if spectator or not said["spectator"] or self.options.get("spectator_chat", True):
            return True
        return self.game.is_over or self.abandoned or said["hand"] <= len(self.game.finished)

    def broadcast_presence(self) -> None:
        """Tell every client the table's public facts again (who is here, who stands in)."""
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
                    self.joined_at[seat] = time.time()
                    await self.manager.named_seat(self, seat)
                    if self.public:
                        self.manager.spawn(self.manager.lobby.publish(self))
                self.driver.stand_in[seat] = False
                self.clock_strikes[seat] = 0
            client.send(self.welcome(seat))
            self.broadcast_presence()
        self.kick()

    async def detach(self, client: Sender) -> None:
        # The seat forgets the connection before anything awaits: a handler cancelled here (a server
        # shutting down, a test client closing) must not leave a seat "here" for ever, which would keep
        # its game from being abandoned and its stand-in from coming.
        seat = client.seat
        if seat is None:
            self.spectators.discard(client)
        else:
            s = self.seats[seat]
            s.clients.discard(client)
            if not s.clients:
                s.away_since = time.monotonic()
        async with self.lock:
            if not self.closed:
                self.broadcast_presence()
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
        if isinstance(message, Chat):
            return await self.say(client, message.text)
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
                return await self.driver.hint(client)
            finally:
                client.hinting = False
        if kind == "back":
            if self.clock_strikes[seat]:
                self.clock_strikes[seat] = 0
                self.driver.stand_in[seat] = False
                self.broadcast_presence()
                self.kick()
            return None
        if kind == "rematch":
            return await self.manager.rematch(self, seat)
        if isinstance(message, Fill):
            level = message.level or "random"
            try:
                await self.manager.fill(self, level, self._who(client))
            except ValueError as exc:
                return str(exc)
            return None
        assert isinstance(message, (Play, Pass, Moon, Claim))
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

    def situation(self, seat: int) -> int:
        """The seq since which ``seat``'s own situation is unchanged: its latest move or the hand's start."""
        return max(self.seat_seq[seat], self.hand_seq)

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
        if seq < self.situation(seat):
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
        # A faulted bot's seat is "fault": its stand-in's play is never counted as the bot's.
        kinds = ["fault" if self.driver.faults[s.seat] else s.kind for s in self.seats]
        write = action_write(self.id, seq, move, actor, events, after, self.names, kinds, [s.key for s in self.seats])
        await self.manager.writer.submit(write)
        self.last_move_at = self.turn_at = time.time()
        if any(isinstance(e, HandStarted) for e in events):
            self.hand_at = self.turn_at
        if actor == "clock":
            self.clock_strikes[move.seat] += 1
        elif actor == "human":
            self.clock_strikes[move.seat] = 0
        self.game = after
        self.seq = seq
        self.seat_seq[move.seat] = seq
        self.last_move[move.seat], self.last_actor[move.seat] = move, actor
        self._note_finished(events)
        if any(isinstance(e, HandStarted) for e in events):
            await self._seat_claimants()
        finished = any(isinstance(e, HandScored) for e in events)
        self._announce(events, finished_hand=self.last_hand if finished else None, actor=actor)
        if finished and not self.options.get("spectator_chat", True):
            self._release_chat()
        if actor == "clock" and self.clock_strikes[move.seat] == CLOCK_STRIKES:
            self.broadcast_presence()  # the seat shows its stand-in, and the person's page says how to come back
        if finished and self.public and not self.game.is_over:
            self.manager.spawn(self.manager.lobby.publish(self))  # the lobby shows the hands played
        if self.game.is_over:
            self.driver.release_players()
            self.manager.game_over(self)
        return events

    async def _seat_claimants(self) -> None:
        """A hand began: each person who claimed a computer's seat of this game in progress takes it now
        (their connections, which watched meanwhile, are told to open the seat again)."""
        for s in self.seats:
            if s.kind != "computer" or s.player is None:
                continue
            s.kind, s.level, s.joined = "human", None, True
            self.joined_at[s.seat] = time.time()
            await self.manager.writer.run(self.manager.storage.update_seat, self.id, s.seat, kind="human", level=None, joined=True)
            await self.manager.named_seat(self, s.seat)
            seated = encode({"type": "seated", "seat": s.seat})
            for c in list(self.spectators):
                if getattr(c, "waiting_seat", None) == s.seat:
                    c.send(seated)
            self.broadcast_presence()
            if self.public:
                self.manager.spawn(self.manager.lobby.publish(self))

    def _note_finished(self, events: list[Event]) -> None:
        for e in events:
            if isinstance(e, HandStarted):
                self.hand_seq = self.seq
            if isinstance(e, HandScored):
                self.last_hand = hand_detail(self.game, e.hand_number)  # the whole deal: public once the hand is over

    def _announce(self, events: list[Event], finished_hand: dict[str, Any] | None, actor: str) -> None:
        base = {"type": "update", "seq": self.seq, "actor": actor, "finished_hand": finished_hand, "clock": self.clock_left()}
        public: str | None = None  # every seat's view has the same public part: built and encoded once
        for s in self.seats:
            if s.clients:
                view = self.game.view(s.seat)
                if public is None:
                    public = encode(view.public_dict())
                text = encode_with_view(dict(base, events=events_for(events, s.seat)), public, view.own_dict())
                for c in list(s.clients):
                    c.send(text)
        if self.spectators:
            text = encode(dict(base, events=events_for(events, None), view=self.view_for(None)))
            for c in list(self.spectators):
                c.send(text)

    # -- chat -----------------------------------------------------------------------------------

    async def say(self, client: Sender, text: str) -> str | None:
        """Tell the table what ``client`` wrote; return why it was refused, or None. The text is kept
        as written (pages show it as text, never as markup) once it passes the checks: not empty,
        at most :data:`CHAT_LENGTH` characters, no control characters, and the sender within
        :data:`CHAT_BURST` messages in :data:`CHAT_WINDOW` seconds."""
        text = text.strip()
        if not text:
            return "a chat message needs some text"
        if len(text) > CHAT_LENGTH:
            return f"a chat message has at most {CHAT_LENGTH} characters, not {len(text)}"
        for ch in text:
            if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch != "\u200d":
                return f"a chat message may not hold control or invisible characters (U+{ord(ch):04X})"
        seat = client.seat
        sender = getattr(client, "player", None) or f"connection:{id(client)}"
        wait = self.manager.chat_limit.wait(sender, time.monotonic())
        if wait > 0:
            return f"chat: at most {CHAT_BURST} messages in {CHAT_WINDOW:g} s; you can write again in {int(wait) + 1} s"
        if seat is not None:
            name = self.names[seat]
        else:
            name = await self.manager.display_name(getattr(client, "player", None)) or "spectator"
        self.chat_n += 1
        said = {
            "n": self.chat_n, "at": time.time(), "seat": seat, "name": name, "spectator": seat is None,
            "hand": self.game.hand_number + 1, "text": text,
        }  # fmt: skip
        await self.manager.writer.run(
            self.manager.community.add_chat, self.id, said["n"], seat, name, said["hand"], text, said["at"]
        )
        self.chat_log.append(said)
        message = encode({"type": "chat", **said})
        if self.chat_visible(said, spectator=False):
            for s in self.seats:
                for c in list(s.clients):
                    c.send(message)
        for c in list(self.spectators):
            c.send(message)
        return None

    def _release_chat(self) -> None:
        """A hand ended: its spectators' messages, held back from the players during it, reach them now."""
        held = [c for c in self.chat_log if c["spectator"] and c["hand"] == len(self.game.finished)]
        for said in held:
            message = encode({"type": "chat", **said})
            for s in self.seats:
                for c in list(s.clients):
                    c.send(message)

    def kick(self) -> None:
        """Something changed: let the driver look again at who must move."""
        self.driver.kick()

    async def close(self) -> None:
        self.closed = True
        await self.driver.close()

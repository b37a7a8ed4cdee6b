"""The moves no person at the table makes: computer seats, registered bots, stand-ins for people who
are away or bots that faulted, and the hint a person asks for.

One :class:`SeatDriver` per live table. It thinks in the server's shared
:class:`~hearts.server.share.ThinkPool` (which takes the tables in turn, so the event loop never
waits on a player and no table's work holds up another's) and hands every move it decides to the
table's :meth:`~hearts.server.table.LiveTable.commit`, as a person's move is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hearts.core import Game, Move, Phase, Rules, move_to_dict
from hearts.players import LEVELS, Player, make_player
from hearts.players.drive import check_answer, next_turn
from hearts.server.protocol import encode
from hearts.server.share import Busy, ThinkPool

if TYPE_CHECKING:
    from hearts.server.table import LiveTable, Sender

log = logging.getLogger("hearts.server")

#: Best first: the level whose move the hint button shows, the first one installed.
HINT_LEVELS = ("expert", "hard", "medium", "easy", "random")

#: Threads of the computer players' shared pool (see :class:`~hearts.server.share.ThinkPool`).
THINK_WORKERS = 4
#: Worker processes for hints (0: hints think in the threads too). A process of its own keeps a hint's
#: search from holding the interpreter lock that every table's messages need.
HINT_PROCESSES = 1
#: Worker processes for hand reviews (each a search of a whole hand, many seconds): apart from the
#: hints' process so that a hint never waits for a review, and few, so reviews stay bounded.
REVIEW_PROCESSES = 1

#: What a faulted bot did, in words for its seat's label ("stand-in for mybot (crashed: ...)").
FAULT_WORDS = {
    "start": "could not start",
    "crash": "crashed",
    "timeout": "timed out",
    "malformed": "answered nonsense",
    "illegal": "played illegally",
}


def hint_level() -> str:
    """The strongest computer level installed right now."""
    for level in HINT_LEVELS:
        if level in LEVELS:
            return level
    return next(iter(LEVELS))


def bot_stand_in_level() -> str:
    """The level that plays a faulted bot's seat: ExternalPlayer's own fallback."""
    return "medium" if "medium" in LEVELS else "random"


def think_pool() -> ThinkPool:
    """The server's pool for computer moves, hints and reviews, sized by :data:`THINK_WORKERS`,
    :data:`HINT_PROCESSES` and :data:`REVIEW_PROCESSES`."""
    return ThinkPool(THINK_WORKERS, processes=HINT_PROCESSES, slow_processes=REVIEW_PROCESSES)


def _hint_decision(level: str, seed: int, budget: float, view: Any) -> tuple[str, Any]:
    """A hint: ``level``'s decision for ``view`` (run in the thinking pool)."""
    return level, make_player(level, seed=seed, time_budget=budget).decide(view)


def warm_hints() -> None:
    """Load the hint level's player (and its compiled kernels) by asking it once."""
    _hint_decision(hint_level(), 0, 0.05, Game(Rules(), seed=0).view(0))


def _call_all(calls: list[Callable[[], Any]]) -> None:
    for call in calls:
        call()


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("closing computer players failed: %r", task.exception())


class SeatDriver:
    """Moves for one table's computer seats and stand-ins, and hints for its people."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        n = table.rules.players
        self.players: dict[tuple[int, str], Player] = {}
        self.stand_in: list[bool] = [False] * n  #: per seat: a computer plays for the person now
        #: per seat: what its registered bot did wrong (None: no fault); a stand-in plays it from then on
        self.faults: list[str | None] = [None] * n
        #: per seat: the hint being worked out or given for the seat's situation at that seq
        self.hints: dict[int, tuple[int, asyncio.Future[Any]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def stand_in_label(self, seat: int) -> dict[str, Any]:
        """For a bot's seat after a fault: whom the stand-in plays for and why, for the page to show."""
        fault = self.faults[seat]
        if fault is None:
            return {}
        return {"stand_in_for": self.table.seats[seat].level, "stand_in_level": bot_stand_in_level(), "fault": fault}

    # -- hints --------------------------------------------------------------------------

    async def hint(self, client: Sender) -> str | None:
        """Send ``client`` the best installed level's move for its seat; return an error text or None.

        One hint is worked out per seat and situation (the seat's view changes only when it moves or a
        hand begins): every connection of the seat that asks meanwhile, or asks again, gets that same
        answer, so re-sending ``hint`` costs the server nothing and a seat has one hint in the pool at most.
        """
        table, seat = self.table, client.seat
        assert seat is not None
        if seat not in table.game.to_move:
            return "no hint now: it is not your turn to decide"
        since = table.situation(seat)
        asked = self.hint_for(seat)
        if asked is None:
            return "a hint for your seat is still being worked out: wait for it"
        try:
            level, decision = await asyncio.shield(asked)
        except Busy:
            return "a hint for your seat is still being worked out: wait for it"
        except Exception as exc:  # noqa: BLE001 - a hint failing must not hurt the table
            log.warning("hint failed at table %s: %r", table.id, exc)
            return "no hint: the computer player could not work one out"
        if table.situation(seat) != since:
            return "no hint: the table moved on while it was worked out; ask again"
        client.send(
            encode(
                {
                    "type": "hint",
                    "seq": table.seq,
                    "level": level,
                    "move": move_to_dict(decision.move),
                    "reason": decision.reason,
                    "summary": decision.summary,  # the reason in words, and the figures behind it
                    "details": decision.details,
                }
            )
        )
        return None

    def hint_for(self, seat: int) -> asyncio.Future[tuple[str, Any]] | None:
        """The hint for ``seat``'s situation now, (level, decision): the one already being worked out
        or given, else one started now. None while a hint for an earlier situation still thinks (the
        pool takes one hint a seat at a time). The turn clock's move is this hint's move too."""
        table = self.table
        since = table.situation(seat)
        asked = self.hints.get(seat)
        if asked is not None and asked[0] == since:
            return asked[1]
        pool = table.manager.pool
        if pool.busy(table.id, f"hint:{seat}"):
            return None
        level, budget = hint_level(), min(1.0, float(table.options["think"]))
        view = table.game.view(seat)
        job = asyncio.ensure_future(pool.run(table.id, f"hint:{seat}", _hint_decision, level, since, budget, view, process=True))
        self.hints[seat] = (since, job)
        return job

    async def _clock_move(self, seat: int) -> Move:
        """The move the turn clock makes for ``seat``: the hint's move for its situation (the very
        hint the person was shown, if they asked), worked out in the hints' process as every hint is."""
        while True:
            asked = self.hint_for(seat)
            if asked is not None:
                _level, decision = await asyncio.shield(asked)
                move: Move = decision.move
                return move
            earlier = self.hints.get(seat)  # a hint for an earlier situation still thinks: let it end
            if earlier is not None and not earlier[1].done():
                with contextlib.suppress(Exception):
                    await asyncio.shield(earlier[1])
            else:
                await asyncio.sleep(0.05)

    # -- computer seats -----------------------------------------------------------------

    def kick(self) -> None:
        """Something changed: look again at who must move."""
        table = self.table
        if table.closed or table.abandoned:
            return
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{table.id}")
        else:
            self._wake.set()

    def next_automated(self) -> tuple[int, str, float] | None:
        """The next seat a computer must move for: (seat, actor, seconds to wait first), or None.

        The turn is the game loop's (:func:`~hearts.players.drive.next_turn`, the people's seats
        passing in their own time); a person's turn is a stand-in's only once they have been away for
        the table's ``standin_after``.
        """
        table = self.table
        seat = next_turn(table.game, later=self.people)
        if seat is None:
            return None
        if table.seats[seat].kind in ("computer", "bot"):
            return seat, table.seats[seat].kind, 0.0
        best: tuple[int, str, float] | None = None
        now = time.monotonic()
        after = table.options.get("standin_after")
        for seat in table.game.to_move:  # every seat owing a move is a person's now
            s = table.seats[seat]
            plans = []
            if s.joined and table.clocked_out(seat):
                plans.append((seat, "stand-in", 0.0))  # the clock gave the seat to its stand-in
            if s.joined and not s.clients and after is not None:
                plans.append((seat, "stand-in", max(0.0, s.away_since + float(after) - now)))
            due = table.deadline(seat)
            if due is not None:  # the turn clock: when it runs out, the hint's move is made for the seat
                plans.append((seat, "clock", max(0.0, due - time.time())))
            for plan in plans:
                if best is None or plan[2] < best[2]:
                    best = plan
        return best

    @property
    def people(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.table.seats if s.kind == "human")

    def _player(self, seat: int, actor: str) -> Player:
        table = self.table
        s = table.seats[seat]
        if actor == "stand-in":
            level = table.options.get("standin_level") or hint_level()
        elif actor == "bot" and self.faults[seat] is not None:
            actor, level = "stand-in", bot_stand_in_level()  # the bot faulted before a restart: it stays out
        else:
            level = s.level or "random"
        key = (seat, f"{actor}:{level}")
        if key not in self.players:
            spec = table.manager.bots[level] if actor == "bot" else level
            player = make_player(spec, seed=(table.seed * 31 + seat) % 2**32, time_budget=float(table.options["think"]))
            if table.again is not None and actor == "computer":
                player = table.again.player(seat, player)  # a replayed deal: the computers pass as they did
            self.players[key] = player
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
        table = self.table
        while not table.closed:
            self._wake.clear()
            plan = self.next_automated()
            if plan is None:
                return
            seat, actor, wait = plan
            if wait > 0:
                await self._sleep(wait)
                continue
            seq = table.seq
            if table.game.phase is Phase.PLAY and float(table.options["pause"]) > 0:
                await asyncio.sleep(float(table.options["pause"]))  # a visible pause, so people can follow
            view = table.game.view(seat)
            answer: Move | Exception
            try:
                if actor == "clock":
                    answer = await self._clock_move(seat)
                else:
                    # Made in the thinking pool too: a search player's first construction in this
                    # process loads (or compiles) its numba kernels, which must not stall the event loop.
                    answer = await table.manager.pool.run(table.id, "move", self._decide, seat, actor, view)
            except Exception as exc:  # noqa: BLE001 - a broken player must not stop the table: checked below
                answer = exc
            if actor == "bot" and self.faults[seat] is not None:
                actor = "stand-in"  # the bot faulted: the move is its stand-in's, never credited to the bot
            async with table.lock:
                if table.seq != seq or table.closed:
                    continue  # the table moved on while it thought (a person came back, another seat moved)
                now = self.next_automated()
                if now is None or now[0] != seat or now[2] > 0:
                    continue
                fault = check_answer(table.game, seat, answer)  # the game loop's check of any answer
                if fault is not None:
                    log.warning(
                        "computer seat %s at table %s %s: %s; a random legal move instead",
                        seat, table.id, FAULT_WORDS.get(fault.kind, fault.kind), fault.message,
                        exc_info=fault.kind == "crash" and fault.error,
                    )  # fmt: skip
                    if table.seats[seat].kind == "bot" and self.faults[seat] is None:
                        self.faults[seat] = f"{FAULT_WORDS.get(fault.kind, fault.kind)}: {fault.message}"[:160]
                        actor = "stand-in"
                    answer = make_player("random", seed=seq).decide(table.game.view(seat)).move
                if actor == "stand-in" and not self.stand_in[seat]:
                    self.stand_in[seat] = True
                    table.broadcast_presence()
                assert not isinstance(answer, Exception)
                await table.commit(answer, actor)

    def release_players(self) -> None:
        """Stop the table's computer players (an external bot's program ends with its game)."""
        players, self.players = list(self.players.values()), {}
        closers = [close for p in players if (close := getattr(p, "close", None)) is not None]
        if closers:
            task = asyncio.get_running_loop().create_task(self.table.manager.pool.run(self.table.id, "close", _call_all, closers))
            task.add_done_callback(_log_failure)

    async def close(self) -> None:
        """Close every player now and stop driving (the table is closing)."""
        for player in self.players.values():
            close = getattr(player, "close", None)
            if close is not None:
                close()
        self.players = {}
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass

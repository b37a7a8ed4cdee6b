"""The FastAPI application: the HTTP API (documented by FastAPI's own OpenAPI at ``/docs``), the
websocket every seat and spectator plays through (``/ws/{token}``, see ``docs/protocol.md``), and
the web page's static files.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import threading
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from hearts.core import PRESETS, HeartsError, Rules
from hearts.core.rules import MoonScoring, OpeningLead, PassDirection, TieRule
from hearts.players import LEVELS
from hearts.server import community_routes, history_routes
from hearts.server.bodies import BodyLimit
from hearts.server.driver import hint_level
from hearts.server.limits import TableLimits
from hearts.server.manager import DEFAULT_INSTANCE, LEADERBOARD_MIN_GAMES, TableManager
from hearts.server.params import HandNumber, PlainText, TableId, cookie_player, table_links
from hearts.server.privacy import PLAYER_COOKIE, PLAYER_COOKIE_AGE, client_keys, new_identity, valid_identity
from hearts.server.protocol import ProtocolError, RateLimiter, error, parse_message
from hearts.server.share import CLOSE_TOO_MANY, Limits, Pacer
from hearts.server.storage import Storage
from hearts.server.table import DEFAULT_OPTIONS, LiveTable

log = logging.getLogger("hearts.server")

STATIC = Path(str(resources.files("hearts.server") / "static"))

#: A client whose outgoing queue backs up this far is too slow to follow the table: it is dropped
#: and gets the whole state again when it reconnects.
SEND_QUEUE_LIMIT = 512
#: A connection that keeps sending past its rate limit this many times is closed.
MAX_STRIKES = 50
#: Websocket close codes (docs/protocol.md lists them with their reasons).
CLOSE_NORMAL = 1000
CLOSE_FLOOD = 1008  # policy violation: kept sending past the rate limit
CLOSE_BEHIND = 1013  # try again later: did not read its messages, so it fell too far behind
CLOSE_UNKNOWN_LINK = 4404


class SeatSpec(BaseModel):
    """One seat of a new table."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "computer", "bot"] = Field("human", description="a person (gets a join link), a computer level, or a registered bot")
    level: PlainText | None = Field(None, max_length=64, description="the computer level (random, easy, ... expert) or the registered bot's name")
    name: PlainText | None = Field(None, max_length=24, description="the seat's name at the table")


class TableSpec(BaseModel):
    """A new table: a preset with any rule options overridden, the seats, and table options."""

    model_config = ConfigDict(extra="forbid")
    preset: PlainText = Field("standard", max_length=64, description="a rules preset (see GET /api/options)")
    rules: dict[str, Any] = Field(default_factory=dict, description="rule options that override the preset (Rules.to_dict names)")
    seats: list[SeatSpec] = Field(..., min_length=3, max_length=6)
    options: dict[str, Any] = Field(default_factory=dict, description="pause, think, standin_after, standin_level")
    seed: int | None = Field(
        None,
        ge=0,
        lt=2**32,
        description="a fixed deal seed, for practice and replays: the table is then marked practice and never "
        "counted in the statistics (omitted: the deals come from a secret no one can know)",
    )


class QuickSpec(BaseModel):
    """One person against computer players."""

    model_config = ConfigDict(extra="forbid")
    name: PlainText | None = Field(None, max_length=24)
    level: PlainText = Field("random", max_length=64, description="the level of every computer seat unless 'levels' is given")
    levels: list[Annotated[PlainText, Field(max_length=64)]] | None = Field(None, max_length=5, description="one level per computer seat, in seat order")
    preset: PlainText = Field("standard", max_length=64)
    players: int = Field(4, ge=3, le=6)
    options: dict[str, Any] = Field(default_factory=dict)


class FillSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(..., max_length=64, description="any seat's join token of the table")
    level: PlainText = Field("random", max_length=64)


class Connection:
    """One websocket: an outgoing queue drained by its own task, so a slow client never holds a table up.

    Closing is orderly: the connection stops taking new messages, its pump sends what was already
    queued, then the close frame with its code and reason (see docs/protocol.md).
    """

    def __init__(self, ws: WebSocket, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.player = cookie_player(ws.cookies)  #: the browser identity's player key (None: none sent)
        self.name: str | None = None  #: a spectator's chosen name (shown with what they say in the chat)
        self.waiting_seat: int | None = None  #: the computer's seat this watcher takes at the next hand
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=SEND_QUEUE_LIMIT)
        self.closing = False
        self.close_code = CLOSE_NORMAL
        self.close_reason = ""
        self.hinting = False  #: a hint is being worked out for this connection
        self.task = asyncio.get_running_loop().create_task(self._pump())

    def send(self, text: str) -> None:
        if self.closing:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("dropping a client of seat %s: it does not read its messages", self.seat)
            self.close(CLOSE_BEHIND, "too far behind: reconnect to get the whole table again")

    def close(self, code: int = CLOSE_NORMAL, reason: str = "") -> None:
        """Take no more messages; send what is queued, then close with ``code`` and ``reason``."""
        if self.closing:
            return
        self.closing = True
        self.close_code, self.close_reason = code, reason
        if not self.queue.full():
            self.queue.put_nowait(None)  # the pump sends what is queued, then the close frame
        else:  # it is not reading: what is queued would never get through, so close at once
            self.task.cancel()
            self.task = asyncio.get_running_loop().create_task(self._close())

    async def _pump(self) -> None:
        with contextlib.suppress(Exception):  # the client is gone: nothing more can reach it
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        await self._close()

    async def _close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(self.close_code, self.close_reason)

    async def finish(self, disconnected: bool) -> None:
        """Let queued messages and the close frame go out (unless the client already left), then stop."""
        if not disconnected:
            self.close(self.close_code, self.close_reason)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self.task), 2)
        self.closing = True
        self.task.cancel()


def warm_up_players() -> None:
    """Load (or, on a machine's first run, compile) the search players' numba kernels, so the first
    hard or expert seat, stand-in or hint does not wait for them. Run on a thread of its own: it
    takes about a second, mostly holding the GIL, and the server answers meanwhile."""
    started = time.perf_counter()
    try:
        from hearts.players.compiled import warm_up

        warm_up()
    except Exception:  # noqa: BLE001 - a warm-up only: the first search player loads the kernels itself
        log.warning("could not load the search players' compiled kernels now; the first search player will load them", exc_info=True)
    else:
        # What the warm-up loaded (numba, llvmlite and the kernels: many objects, all long-lived) goes to
        # the collector's permanent generation: a full collection would otherwise walk it all and hold
        # every table up for a moment, again and again.
        gc.freeze()
        log.info("%s %.1f s", WARMED_UP, time.perf_counter() - started)


#: The log line's start that says the warm-up is over (benchmarks wait for it: a steady server).
WARMED_UP = "computer players warmed up: their compiled search loaded in"


def create_app(
    db_url: str | None = None,
    bots: dict[str, str] | None = None,
    pause: float | None = None,
    abandon_after: float | None = None,
    limits: Limits | None = None,
    warm_up: bool = False,
    review_worlds: int | None = None,
    table_limits: TableLimits | None = None,
    instance: str = DEFAULT_INSTANCE,
    leaderboard_min_games: int = LEADERBOARD_MIN_GAMES,
) -> FastAPI:
    """The server app. ``db_url``: a SQLAlchemy URL (default: SQLite in the user data directory);
    ``bots``: external bots by name (``NAME -> command``); ``pause``: the default computer pause;
    ``abandon_after``: seconds without a move and without a person connected after which a game is
    abandoned (default :data:`~hearts.server.upkeep.ABANDON_AFTER_HOURS`); ``limits``: how many
    websockets a seat, a table and a client address may hold open; ``warm_up``: at start-up, load the
    computer players' compiled kernels in the background and start the hint process with its player
    loaded (``hearts serve`` does; tests that never seat a search player leave it off);
    ``review_worlds``: the worlds the expert samples per decision of a hand review (default: the
    review's own, :data:`hearts.review.DEFAULT_WORLDS`); ``table_limits``: how many tables a browser
    may make (an address: three times as many; see docs/server.md, Limits); ``instance``: this
    process's name where several share one database (each plays the tables it made);
    ``leaderboard_min_games``: rated games a player needs to be listed on the leaderboard."""

    storage = Storage(db_url)
    manager = TableManager(storage, bots=bots, pause=pause, limits=limits, review_worlds=review_worlds, table_limits=table_limits, instance=instance, leaderboard_min_games=leaderboard_min_games, **({} if abandon_after is None else {"abandon_after": abandon_after}))

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if warm_up:  # started first, so it overlaps resuming the stored tables
            threading.Thread(target=warm_up_players, name="hearts-warm-up", daemon=True).start()
        await manager.start(warm=warm_up)
        try:
            yield
        finally:
            await manager.stop()
            storage.close()

    app = FastAPI(
        title="hearts",
        summary="Play Hearts in the browser: tables, seats by secret link, spectators, history and records.",
        description="The websocket protocol at /ws/{token} is documented in docs/protocol.md.",
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.storage = storage
    app.add_middleware(BodyLimit)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> Response:
        """FastAPI's 422 shape (``detail``: ``loc``, ``msg``, ``type``) without echoing the input
        back: it may be huge, or hold text no response can carry (an unpaired surrogate escape)."""
        detail = [{"loc": [str(part) for part in e["loc"]], "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        return Response(json.dumps({"detail": detail}, ensure_ascii=True), status_code=422, media_type="application/json")

    @app.middleware("http")
    async def identify(request: Request, call_next: Any) -> Response:
        """Give a browser its identity (a cookie only this server reads) the first time it comes."""
        response: Response = await call_next(request)
        if not valid_identity(request.cookies.get(PLAYER_COOKIE)):
            response.set_cookie(PLAYER_COOKIE, new_identity(), max_age=PLAYER_COOKIE_AGE, httponly=True, samesite="lax")
        return response

    # -- pages ------------------------------------------------------------------------------

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/play/{token}", include_in_schema=False)
    def play_page(token: str) -> FileResponse:
        return page("table.html")

    @app.get("/watch/{token}", include_in_schema=False)
    def watch_page(token: str) -> FileResponse:
        return page("table.html")

    @app.get("/history", include_in_schema=False)
    def history_page() -> FileResponse:
        return page("history.html")

    @app.get("/replay/{table_id}/{hand}", include_in_schema=False)
    def replay_page(table_id: TableId, hand: HandNumber) -> FileResponse:
        return page("replay.html")

    @app.get("/review/{table_id}/{hand}", include_in_schema=False)
    def review_page(table_id: TableId, hand: HandNumber) -> FileResponse:
        return page("review.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> RedirectResponse:
        return RedirectResponse("/static/favicon.svg")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- API --------------------------------------------------------------------------------

    @app.get("/api/options", tags=["tables"])
    def options() -> dict[str, Any]:
        """What a new table may be made of: presets, rule options with their choices, levels, bots."""
        return {
            "presets": {name: text for name, (text, _) in PRESETS.items()},
            "rules": Rules().to_dict(),
            "choices": {
                "opening": [o.value for o in OpeningLead],
                "moon": [o.value for o in MoonScoring],
                "ties": [o.value for o in TieRule],
                "pass_cycle": [d.value for d in PassDirection],
            },
            "levels": list(LEVELS),
            "hint_level": hint_level(),
            "bots": list(manager.bots),
            "table_options": DEFAULT_OPTIONS | {"pause": manager.default_pause},
        }

    async def _create(spec: TableSpec, request: Request) -> LiveTable:
        creator = cookie_player(request.cookies)
        address = request.client.host if request.client is not None else "unknown"
        refused = manager.creation_refusal(creator, address)
        if refused:
            raise HTTPException(429, refused)
        try:
            rules = Rules.from_dict(spec.rules, preset=spec.preset)  # the options read as every face reads them
            seats: list[tuple[str, str | None, str | None]] = [(s.kind, s.level, s.name) for s in spec.seats]
            table = await manager.create(rules, seats, spec.options, spec.seed, creator=creator)
        except (HeartsError, ValueError, TypeError) as exc:
            manager.creation_failed(creator, address)  # a table asked for wrongly is not one made
            raise HTTPException(422, str(exc)) from None
        manager.address_of[table.id] = address
        people = [s.seat for s in table.seats if s.kind == "human"]
        if table.public and creator is not None and people:
            await manager.sit(table, creator, people[0])  # the creator's seat is theirs; the others are the lobby's
        return table

    @app.post("/api/tables", tags=["tables"])
    async def create_table(spec: TableSpec, request: Request) -> dict[str, Any]:
        """Create a table; the answer holds each person's secret join link and the watch link."""
        return table_links(request, await _create(spec, request))

    @app.post("/api/quick", tags=["tables"])
    async def quick_game(spec: QuickSpec, request: Request) -> dict[str, Any]:
        """One person (seat 0) against computer players: the answer's ``play_url`` opens the game."""
        levels = spec.levels or [spec.level] * (spec.players - 1)
        if len(levels) != spec.players - 1:
            raise HTTPException(422, f"'levels' needs {spec.players - 1} levels, one per computer seat, not {len(levels)}")
        seats = [SeatSpec(kind="human", level=None, name=spec.name)]
        seats += [SeatSpec(kind="computer", level=lv, name=None) for lv in levels]
        table = await _create(TableSpec(preset=spec.preset, rules={"players": spec.players}, seats=seats, options=spec.options, seed=None), request)
        out = table_links(request, table)
        out["play_url"] = out["seats"][0]["join_url"]
        return out

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def table_info(table_id: TableId) -> dict[str, Any]:
        """Public facts about a table: seats, names, who is connected, totals. No cards, no links."""
        table = await manager.get(table_id)
        if table is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return table.summary()

    @app.post("/api/tables/{table_id}/fill", tags=["tables"])
    async def fill(table_id: TableId, spec: FillSpec, request: Request) -> dict[str, Any]:
        """Seat computer players in every seat no person has joined; needs one of the table's join tokens,
        and the table's creator or seats left empty for a while (see docs/server.md)."""
        found = await manager.resolve(spec.token)
        if found is None or found[0].id != table_id or found[1] is None:
            raise HTTPException(403, "that token is not a seat's join token at this table")
        try:
            seats = await manager.fill(found[0], spec.level, client_keys(cookie_player(request.cookies), spec.token))
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from None
        return {"filled": seats}

    history_routes.register(app, manager, storage)
    community_routes.register(app, manager, Connection, page)

    # -- websocket ------------------------------------------------------------------------------

    @app.websocket("/ws/{token}")
    async def play(ws: WebSocket, token: str) -> None:
        await ws.accept()
        found = await manager.resolve(token) if len(token) <= 64 else None
        if found is None:
            await ws.send_text(error("unknown link: no seat or table has that token", "connect"))
            await ws.close(CLOSE_UNKNOWN_LINK, "unknown link")
            return
        table, seat = found
        waiting = None  # a computer's seat a person claimed: they watch until it is theirs, at the next hand
        if seat is not None and table.seats[seat].kind != "human":
            waiting, seat = seat, None
        address = ws.client.host if ws.client is not None else "unknown"
        refused = manager.connections.refusal(table.id, seat, address)
        if refused is not None:
            log.info("refused a connection to table %s seat %s: %s", table.id, seat, refused)
            await ws.send_text(error(refused, "connect"))
            await ws.close(CLOSE_TOO_MANY, refused[:120])
            return
        manager.connections.open(table.id, seat, address)
        conn = Connection(ws, seat)
        conn.waiting_seat = waiting
        if seat is None and conn.player is not None:
            conn.name = await manager.display_name(conn.player)
        limiter = RateLimiter()
        disconnected = False
        pacer = Pacer()
        try:
            await table.attach(conn)
            while not conn.closing:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    disconnected = True
                    break
                if not limiter.allow():
                    conn.send(error(f"too many messages: slow down (the limit is {limiter.rate:g} a second)", None))
                    if limiter.strikes > MAX_STRIKES:
                        conn.close(CLOSE_FLOOD, "too many messages: the connection kept sending past the limit")
                    continue
                text = frame.get("text")
                if text is None:
                    conn.send(error("binary frames are not part of the protocol: send JSON text", None))
                    continue
                # Past its share of the table's and the address's rate, the connection's next message waits.
                wait = pacer.delay(manager.connections.rate(table.id, address), time.monotonic())
                if wait > 0:
                    await asyncio.sleep(wait)
                try:
                    message = parse_message(text)
                except ProtocolError as exc:
                    conn.send(error(str(exc), exc.about))
                    continue
                try:
                    problem = await table.handle(conn, message)
                except Exception:  # noqa: BLE001 - the server never dies of client input
                    log.exception("error handling a %s message at table %s", message.type, table.id)
                    problem = "the server could not do that: the table is unchanged"
                if problem:
                    conn.send(error(problem, message.type))
        except WebSocketDisconnect:
            disconnected = True
        finally:
            manager.connections.close(table.id, seat, address)
            await table.detach(conn)
            await conn.finish(disconnected)

    return app

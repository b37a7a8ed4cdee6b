"""The FastAPI application: the HTTP API (documented by FastAPI's own OpenAPI at ``/docs``), the
websocket every seat and spectator plays through (``/ws/{token}``, see ``docs/protocol.md``), and
the web page's static files.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from hearts.core import PRESETS, HeartsError, Rules, dumps, loads
from hearts.core.rules import MoonScoring, OpeningLead, PassDirection, TieRule
from hearts.players import LEVELS
from hearts.server.protocol import ProtocolError, RateLimiter, error, parse_message
from hearts.server.storage import Storage
from hearts.server.tables import DEFAULT_OPTIONS, LiveTable, TableManager, hand_detail, hint_level

log = logging.getLogger("hearts.server")

STATIC = Path(str(resources.files("hearts.server") / "static"))

#: A client whose outgoing queue backs up this far is too slow to follow the table: it is dropped
#: and gets the whole state again when it reconnects.
SEND_QUEUE_LIMIT = 512
#: A connection that keeps sending past its rate limit this many times is closed.
MAX_STRIKES = 50


class SeatSpec(BaseModel):
    """One seat of a new table."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "computer", "bot"] = Field("human", description="a person (gets a join link), a computer level, or a registered bot")
    level: str | None = Field(None, description="the computer level (random, easy, ... expert) or the registered bot's name")
    name: str | None = Field(None, max_length=24, description="the seat's name at the table")


class TableSpec(BaseModel):
    """A new table: a preset with any rule options overridden, the seats, and table options."""

    model_config = ConfigDict(extra="forbid")
    preset: str = Field("standard", description="a rules preset (see GET /api/options)")
    rules: dict[str, Any] = Field(default_factory=dict, description="rule options that override the preset (Rules.to_dict names)")
    seats: list[SeatSpec] = Field(..., min_length=3, max_length=6)
    options: dict[str, Any] = Field(default_factory=dict, description="pause, think, standin_after, standin_level")
    seed: int | None = Field(None, ge=0, lt=2**32, description="deal seed (random when omitted)")


class QuickSpec(BaseModel):
    """One person against computer players."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=24)
    level: str = Field("random", description="the level of every computer seat unless 'levels' is given")
    levels: list[str] | None = Field(None, description="one level per computer seat, in seat order")
    preset: str = "standard"
    players: int = Field(4, ge=3, le=6)
    options: dict[str, Any] = Field(default_factory=dict)


class FillSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(..., max_length=64, description="any seat's join token of the table")
    level: str = "random"


def _links(request: Request, table: LiveTable) -> dict[str, Any]:
    base = str(request.base_url).rstrip("/")
    return {
        "id": table.id,
        "seats": [
            {
                "seat": s.seat,
                "name": table.names[s.seat],
                "kind": s.kind,
                "level": s.level,
                "token": s.token,
                "join_url": f"{base}/play/{s.token}" if s.token else None,
            }
            for s in table.seats
        ],
        "watch_url": f"{base}/watch/{table.watch_token}",
        "watch_token": table.watch_token,
    }


class Connection:
    """One websocket: an outgoing queue drained by its own task, so a slow client never holds a table up."""

    def __init__(self, ws: WebSocket, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=SEND_QUEUE_LIMIT)
        self.task = asyncio.get_running_loop().create_task(self._pump())
        self.closing = False
        self.hinting = False  #: a hint is being worked out for this connection

    def send(self, text: str) -> None:
        if self.closing:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("dropping a client of seat %s: it does not read its messages", self.seat)
            self.close(1013)

    def close(self, code: int = 1000) -> None:
        if not self.closing:
            self.closing = True
            self.task.cancel()
            asyncio.get_running_loop().create_task(self._close(code))

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    async def _pump(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                text = await self.queue.get()
                if text is None:
                    return
                await self.ws.send_text(text)

    async def finish(self) -> None:
        """Let queued messages go out, then stop."""
        if not self.closing:
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self.task, 2)
        self.task.cancel()


def warm_up_players() -> None:
    """Load (or, on a machine's first run, compile) the search players' numba kernels, so the first
    hard or expert seat, stand-in or hint does not wait for them. Run on a thread of its own: it
    takes about a second, mostly holding the GIL, and the server answers meanwhile."""
    try:
        from hearts.players.search import compiled_kernels

        compiled_kernels()
    except Exception:  # noqa: BLE001 - without the kernels the players search in Python; nothing is lost
        log.warning("could not load the search players' compiled kernels; they will search in Python", exc_info=True)


def create_app(
    db_url: str | None = None, bots: dict[str, str] | None = None, pause: float | None = None, warm_up: bool = False
) -> FastAPI:
    """The server app. ``db_url``: a SQLAlchemy URL (default: SQLite in the user data directory);
    ``bots``: external bots by name (``NAME -> command``); ``pause``: the default computer pause;
    ``warm_up``: load the computer players' compiled kernels in the background at start-up
    (``hearts serve`` does; tests that never seat a search player leave it off)."""

    storage = Storage(db_url)
    manager = TableManager(storage, bots=bots, pause=pause)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if warm_up:  # started first, so it overlaps resuming the stored tables
            threading.Thread(target=warm_up_players, name="hearts-warm-up", daemon=True).start()
        await manager.start()
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
    def replay_page(table_id: str, hand: int) -> FileResponse:
        return page("replay.html")

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

    async def _create(spec: TableSpec) -> LiveTable:
        try:
            rules = Rules.preset(spec.preset, **_rule_options(spec.rules, spec.preset))
            return await manager.create(rules, [(s.kind, s.level, s.name) for s in spec.seats], spec.options, spec.seed)
        except (HeartsError, ValueError, TypeError) as exc:
            raise HTTPException(422, str(exc)) from None

    @app.post("/api/tables", tags=["tables"])
    async def create_table(spec: TableSpec, request: Request) -> dict[str, Any]:
        """Create a table; the answer holds each person's secret join link and the watch link."""
        return _links(request, await _create(spec))

    @app.post("/api/quick", tags=["tables"])
    async def quick_game(spec: QuickSpec, request: Request) -> dict[str, Any]:
        """One person (seat 0) against computer players: the answer's ``play_url`` opens the game."""
        levels = spec.levels or [spec.level] * (spec.players - 1)
        if len(levels) != spec.players - 1:
            raise HTTPException(422, f"'levels' needs {spec.players - 1} levels, one per computer seat, not {len(levels)}")
        seats = [SeatSpec(kind="human", level=None, name=spec.name)]
        seats += [SeatSpec(kind="computer", level=lv, name=None) for lv in levels]
        table = await _create(TableSpec(preset=spec.preset, rules={"players": spec.players}, seats=seats, options=spec.options, seed=None))
        out = _links(request, table)
        out["play_url"] = out["seats"][0]["join_url"]
        return out

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def table_info(table_id: str) -> dict[str, Any]:
        """Public facts about a table: seats, names, who is connected, totals. No cards, no links."""
        table = await manager.get(table_id)
        if table is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return table.summary()

    @app.post("/api/tables/{table_id}/fill", tags=["tables"])
    async def fill(table_id: str, spec: FillSpec) -> dict[str, Any]:
        """Seat computer players in every seat no person has joined; needs one of the table's join tokens."""
        found = await manager.resolve(spec.token)
        if found is None or found[0].id != table_id or found[1] is None:
            raise HTTPException(403, "that token is not a seat's join token at this table")
        try:
            seats = await manager.fill(found[0], spec.level)
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from None
        return {"filled": seats}

    @app.get("/api/history", tags=["history"])
    def history() -> list[dict[str, Any]]:
        """Every game, newest first."""
        return storage.history()

    @app.get("/api/stats", tags=["history"])
    def stats() -> list[dict[str, Any]]:
        """Per player name: games, wins, hands, average points per hand, moons."""
        return storage.stats()

    @app.get("/api/tables/{table_id}/hands", tags=["history"])
    def hands(table_id: str) -> list[dict[str, Any]]:
        """The table's finished hands: points, totals, shooter."""
        return storage.hands(table_id)

    @app.get("/api/tables/{table_id}/hands/{number}", tags=["history"])
    def hand(table_id: str, number: int) -> dict[str, Any]:
        """One finished hand (1-based) laid open: every seat's deal, pass and held cards, each trick with
        who played what and who won it, the scores. Rebuilt from the stored record through the engine."""
        text = storage.hand_record(table_id, number - 1)
        if text is None:
            raise HTTPException(404, f"table {table_id!r} has no finished hand {number}")
        game = loads(text).replay()
        out = hand_detail(game, number - 1)
        out["rules"] = game.rules.to_dict()
        out["hands_done"] = len(game.finished)
        out["table"] = table_id
        return out

    @app.get("/api/tables/{table_id}/record", tags=["history"], response_class=PlainTextResponse)
    def record(table_id: str, hand: int | None = None) -> Response:
        """The game's record (the engine's format) through its last finished hand, or through ``hand``
        (1-based). A hand still being played is never included: its cards are secret."""
        text = storage.hand_record(table_id, None if hand is None else hand - 1)
        if text is None:
            raise HTTPException(404, f"table {table_id!r} has no finished hand yet")
        pretty = dumps(loads(text))
        name = f"hearts-{table_id}" + (f"-hand{hand}" if hand else "") + ".json"
        return Response(pretty, media_type="application/json", headers={"Content-Disposition": f'attachment; filename="{name}"'})

    # -- websocket ------------------------------------------------------------------------------

    @app.websocket("/ws/{token}")
    async def play(ws: WebSocket, token: str) -> None:
        await ws.accept()
        found = await manager.resolve(token) if len(token) <= 64 else None
        if found is None:
            await ws.send_text(error("unknown link: no seat or table has that token", "connect"))
            await ws.close(4404)
            return
        table, seat = found
        conn = Connection(ws, seat)
        limiter = RateLimiter()
        await table.attach(conn)
        try:
            while not conn.closing:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    conn.send(error("binary frames are not part of the protocol: send JSON text", None))
                    continue
                if not limiter.allow():
                    conn.send(error("too many messages: slow down (the limit is 100 a second)", None))
                    if limiter.strikes > MAX_STRIKES:
                        conn.close(1008)
                        break
                    continue
                try:
                    data = parse_message(text)
                except ProtocolError as exc:
                    conn.send(error(str(exc), None))
                    continue
                try:
                    problem = await table.handle(conn, data)
                except Exception as exc:  # noqa: BLE001 - the server never dies of client input
                    log.exception("error handling %r at table %s", data.get("type"), table.id)
                    problem = f"the server could not do that: {exc}"
                if problem:
                    conn.send(error(problem, data.get("type")))
        except WebSocketDisconnect:
            pass
        finally:
            await table.detach(conn)
            await conn.finish()

    return app


def _rule_options(options: dict[str, Any], preset: str) -> dict[str, Any]:
    """Rule overrides from JSON (names and values as :meth:`Rules.to_dict` writes them), parsed into
    the values :meth:`Rules.preset` takes; a bad name or value raises naming it."""
    if not options:
        return {}
    parsed = Rules.from_dict(options)  # parses cards, enums and pass-cycle names; rejects unknown names
    return {k: getattr(parsed, k) for k in options}

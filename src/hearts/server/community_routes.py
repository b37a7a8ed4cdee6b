"""The HTTP routes and the websocket of meeting people: your name (``/api/me``), the public lobby
(``/api/lobby``, ``/ws/lobby``, Play now, taking a free seat), a table's chat, the leaderboard and a
player's page. ``register(app, manager, connection)`` adds them (``app.create_app`` calls it).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from hearts.server.community import LimitReached, key_kind
from hearts.server.manager import TableManager
from hearts.server.names import MAX_NAME, NameRefused, name_key, suggest_name
from hearts.server.params import PlainText, TableId, cookie_player

#: A name in a path: anything longer than a name is no one's.
NameParam = Annotated[str, PathParam(min_length=1, max_length=4 * MAX_NAME, description="a player's name")]

#: Frames a lobby watcher may send (they are ignored) before it is closed: the lobby only tells.
LOBBY_FRAMES = 20
NO_IDENTITY = "your browser sent no identity cookie: open the lobby page first, and allow cookies for this site"


class NameSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: PlainText = Field(..., max_length=200, description="2 to 20 letters, digits, spaces and -_.'")


class SitSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int | None = Field(None, ge=0, le=5, description="the seat to take, from 0 as the lobby lists them (default: the first free one)")


class PlayNowSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")


def register(app: FastAPI, manager: TableManager, connection: Any, page: Any) -> None:
    """Add the routes to ``app``; ``connection`` makes a websocket's outgoing queue (``app.Connection``),
    ``page`` answers a static page."""
    community = manager.community

    def who(request: Request) -> str:
        player = cookie_player(request.cookies)
        if player is None:
            raise HTTPException(400, NO_IDENTITY)
        return player

    def address(request: Request) -> str:
        return request.client.host if request.client is not None else "unknown"

    # -- pages --------------------------------------------------------------------------------

    @app.get("/leaderboard", include_in_schema=False)
    def leaderboard_page() -> FileResponse:
        return page("leaderboard.html")

    @app.get("/players/{name}", include_in_schema=False)
    def player_page(name: NameParam) -> FileResponse:
        return page("player.html")

    # -- names --------------------------------------------------------------------------------

    @app.get("/api/me", tags=["people"])
    async def me(request: Request) -> dict[str, Any]:
        """Your name (null until you choose one), a free name to suggest, and the name changes you have left today."""
        player = cookie_player(request.cookies)
        name = await manager.display_name(player) if player else None
        left, back = await asyncio.to_thread(community.changes_left, player) if player else (0, None)
        ratings = await asyncio.to_thread(community.ratings_of, [player]) if player else {}
        return {
            "name": name,
            "suggestion": await asyncio.to_thread(suggest_name, community.name_taken),
            "changes_left": left if name else None,
            "changes_back_at": back,
            "rating": None if player not in ratings else round(ratings[player], 2),
        }

    @app.put("/api/me", tags=["people"])
    async def set_name(spec: NameSpec, request: Request) -> dict[str, Any]:
        """Choose your name (kept with your browser's identity). Refused with the reason: 422 for a name
        that is not allowed or taken, 429 past the day's name changes."""
        player = who(request)
        try:
            name = await manager.choose_name(player, spec.name)
        except NameRefused as exc:
            raise HTTPException(422, str(exc)) from None
        except LimitReached as exc:
            raise HTTPException(429, str(exc)) from None
        return {"name": name}

    # -- the lobby ----------------------------------------------------------------------------

    @app.get("/api/lobby", tags=["lobby"])
    async def lobby() -> dict[str, Any]:
        """Every open public table (waiting for people, or being played: watch it), from every
        server process on this database."""
        rows = await asyncio.to_thread(community.lobby)
        return {"tables": sorted(rows.values(), key=lambda e: (e["status"] != "waiting", -e["people"], e["created_at"]))}

    @app.post("/api/play-now", tags=["lobby"])
    async def play_now(request: Request, spec: PlayNowSpec | None = None) -> dict[str, Any]:
        """Seat me and start my game at once: at the fullest public table waiting for people (standard
        rules), computers taking its other free seats now, or at a new public table with computers in
        the other seats. You get a name if you have none."""
        player = who(request)
        try:
            table, seat = await manager.play_now(player, address(request))
        except LimitReached as exc:
            raise HTTPException(429, str(exc)) from None
        except NameRefused as exc:
            raise HTTPException(422, str(exc)) from None
        token = table.seats[seat].token
        return {"table": table.id, "seat": seat, "play_url": f"/play/{token}"}

    @app.post("/api/tables/{table_id}/sit", tags=["lobby"])
    async def sit(table_id: TableId, request: Request, spec: SitSpec | None = None) -> dict[str, Any]:
        """Take a free seat at a public table (the first free one, or ``seat``); answers its link."""
        player = who(request)
        table = await manager.get(table_id)
        if table is None:
            raise HTTPException(404, f"no table {table_id!r}")
        if await manager.display_name(player) is None:
            raise HTTPException(422, "choose a name first: the others at the table see it")
        try:
            seat = await manager.sit(table, player, None if spec is None else spec.seat)
        except ValueError as exc:
            raise HTTPException(409, str(exc)) from None
        return {"table": table.id, "seat": seat, "play_url": f"/play/{table.seats[seat].token}"}

    # -- chat, ratings --------------------------------------------------------------------------

    @app.get("/api/tables/{table_id}/chat", tags=["tables"])
    async def chat(table_id: TableId) -> dict[str, Any]:
        """A table's chat, oldest first: a public table's at any time, a private table's once its game
        is over. It is what a player at the table sees: with the option ``spectator_chat: false``, a
        spectator's message is left out until the hand it was written in is over."""
        status = await asyncio.to_thread(manager.storage.table_status, table_id)
        if status is None:
            raise HTTPException(404, f"no table {table_id!r}")
        table = manager.tables.get(table_id)
        public = table is not None and table.public
        if status[0] == "playing" and not public:
            raise HTTPException(403, "a private table's chat is open once its game is over")
        said = await asyncio.to_thread(community.chat, table_id)
        if table is not None:  # a table still in play: the rule the players' websockets follow
            said = [c for c in said if table.chat_visible(c, spectator=False)]
        return {"chat": said}

    @app.get("/api/leaderboard", tags=["people"])
    async def leaderboard() -> dict[str, Any]:
        """Players with at least 5 rated games (``hearts serve --leaderboard-min-games``), best first: the rating shown (mu - 3 sigma), games,
        win share, average points a hand."""
        least = manager.leaderboard_min_games
        return {"min_games": least, "players": await asyncio.to_thread(community.leaderboard, least)}

    @app.get("/api/players/{name}", tags=["people"])
    async def player(name: NameParam) -> dict[str, Any]:
        """A player's rating and rated games (newest first, with the rating after each). ``name``: a
        person's chosen name, or a computer level (``hard``) or registered bot's name."""
        key = await asyncio.to_thread(community.player_named, name)
        shown = name
        if key is None:
            lowered = name_key(name)
            if lowered in {name_key(level) for level in manager.reserved_names()}:
                level = next(level for level in manager.reserved_names() if name_key(level) == lowered)
                key = f"bot:{level}" if level in manager.bots else f"computer:{level}"
                shown = level
        if key is None:
            raise HTTPException(404, "no player by that name")
        page = await asyncio.to_thread(community.player_page, key)
        person = await asyncio.to_thread(community.person, key) if key.startswith("person:") else None
        return {"name": person.name if person else shown, "kind": key_kind(key), **page}

    # -- the lobby's websocket ------------------------------------------------------------------

    @app.websocket("/ws/lobby")
    async def lobby_socket(ws: WebSocket) -> None:
        await ws.accept()
        conn = connection(ws, None)
        hub = manager.lobby
        disconnected = False
        frames = 0
        try:
            await hub.attach(conn)
            while not conn.closing:  # the lobby reads nothing: it only tells; a frame sent is ignored
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    disconnected = True
                    break
                frames += 1
                if frames > LOBBY_FRAMES:
                    conn.close(1008, "the lobby's websocket takes no messages: it only tells what changed")
        except WebSocketDisconnect:
            disconnected = True
        finally:
            hub.detach(conn)
            with contextlib.suppress(Exception):
                await conn.finish(disconnected)

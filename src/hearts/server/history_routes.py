"""The HTTP routes about finished hands and games: "play this deal again", a hand's review, the
history and statistics, a table's finished hands, one hand laid open and the game's record.
``register(app, manager, storage)`` adds them to the app (``app.create_app`` calls it).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from hearts.core import GameRecord, HeartsError
from hearts.server.hands import hand_detail
from hearts.server.manager import TableManager
from hearts.server.params import MAX_HAND, HandNumber, PlainText, TableId, cookie_player, table_links
from hearts.server.persist import record_through
from hearts.server.storage import Storage


def _seat_field(description: str) -> Any:
    """An optional seat number of a request body (0 to 5: the most seats a table has)."""
    return Field(None, ge=0, le=5, description=description)


class ReviewSpec(BaseModel):
    """Ask for a finished hand's review (and, asked again, for its progress)."""

    model_config = ConfigDict(extra="forbid")
    seat: int | None = _seat_field(
        "the seat reviewed once the game is over (default: the seat of the X-Hearts-Token header, else the first); while it is played, only the token's seat"
    )


class AgainSpec(BaseModel):
    """Play a finished hand's deal again against computer players."""

    model_config = ConfigDict(extra="forbid")
    seat: int | None = _seat_field("the seat to play (default: the seat of the X-Hearts-Token header, else the first)")
    level: PlainText = Field(
        "medium", max_length=64, description="the level of the computers that take the seats people or bots had"
    )


async def token_seat(manager: TableManager, table_id: str, token: str | None) -> int | None:
    """The seat at table ``table_id`` whose join token ``token`` is (from the ``X-Hearts-Token``
    header), or None: no token, one too long to be a token, or another table's or a watcher's."""
    if not token or len(token) > 64:
        return None
    found = await manager.resolve(token)
    return found[1] if found is not None and found[0].id == table_id else None


def register(app: FastAPI, manager: TableManager, storage: Storage) -> None:
    """Add the routes about finished hands and games to ``app``, served by ``manager`` and ``storage``."""

    @app.post("/api/tables/{table_id}/hands/{number}/again", tags=["tables"])
    async def again(
        table_id: TableId,
        number: HandNumber,
        spec: AgainSpec,
        request: Request,
        x_hearts_token: str | None = Header(None),
    ) -> dict[str, Any]:
        """A practice table that deals finished hand ``number`` again: you at your seat (the seat of
        your token, or ``seat``), computers at the others, passing as they did; never counted in the
        statistics. A finished hand's cards are public already (see docs/server.md)."""
        seat = spec.seat
        if seat is None:
            seat = await token_seat(manager, table_id, x_hearts_token)
        try:
            level = manager.check_seat("computer", spec.level) or "medium"
            table = await manager.again(table_id, number - 1, seat or 0, level, creator=cookie_player(request.cookies))
        except LookupError as exc:
            raise HTTPException(404, str(exc.args[0])) from None
        except (HeartsError, ValueError) as exc:
            raise HTTPException(422, str(exc)) from None
        out = table_links(request, table)
        out["play_url"] = next(s["join_url"] for s in out["seats"] if s["join_url"])
        return out

    @app.post("/api/tables/{table_id}/hands/{number}/review", tags=["history"])
    async def review(
        table_id: TableId, number: HandNumber, spec: ReviewSpec, x_hearts_token: str | None = Header(None)
    ) -> dict[str, Any]:
        """The expert's review of one seat's decisions in finished hand ``number``: ``status`` "done"
        with the ``review``, or "working" with ``done`` and ``total`` decisions (ask again to follow
        it), or "failed" with the ``error``. Worked out in the background and kept: a hand reviewed
        once is answered at once. While the game is played, only a seat may ask (its token in the
        ``X-Hearts-Token`` header), for its own decisions; once it is over, anyone, for any seat."""
        status = await asyncio.to_thread(storage.table_status, table_id)
        if status is None:
            raise HTTPException(404, f"no table {table_id!r}")
        seat = await token_seat(manager, table_id, x_hearts_token)
        if status[0] == "playing":
            if seat is None:
                raise HTTPException(
                    403, "this game is still being played: only a seat can have its own hands reviewed until it is over"
                )
            if spec.seat is not None and spec.seat != seat:
                raise HTTPException(403, "while the game is played you can review only your own seat's decisions")
        else:
            seat = spec.seat if spec.seat is not None else seat or 0
        game = await manager.game_of(table_id)
        record = None if game is None else record_through(game, number - 1)
        if game is None or record is None:
            raise HTTPException(
                404, f"hand {number} of table {table_id!r} is not over yet: a hand is reviewed once it is over"
            )
        if not 0 <= seat < game.rules.players:
            raise HTTPException(422, f"seat {seat} is not at this table: its seats are 0 to {game.rules.players - 1}")
        return await manager.reviews.ask(table_id, record, number - 1, seat)

    @app.get("/api/history", tags=["history"])
    def history() -> list[dict[str, Any]]:
        """Every game, newest first."""
        return storage.history()

    @app.get("/api/stats", tags=["history"])
    def stats() -> list[dict[str, Any]]:
        """Per player name: games, wins, hands, average points per hand, moons."""
        return storage.stats()

    @app.get("/api/tables/{table_id}/hands", tags=["history"])
    def hands(table_id: TableId) -> list[dict[str, Any]]:
        """The table's finished hands: points, totals, shooter."""
        return storage.hands(table_id)

    @app.get("/api/tables/{table_id}/hands/{number}", tags=["history"])
    async def hand(table_id: TableId, number: HandNumber) -> dict[str, Any]:
        """One finished hand (1-based) laid open: every seat's deal, pass and held cards, each trick with
        who played what and who won it, the scores. Built from the stored moves through the engine."""
        game = await manager.game_of(table_id)
        if game is None or number > len(game.finished):
            raise HTTPException(404, f"table {table_id!r} has no finished hand {number}")
        out = hand_detail(game, number - 1)
        out["rules"] = game.rules.to_dict()
        out["hands_done"] = len(game.finished)
        out["table"] = table_id
        return out

    @app.get("/api/tables/{table_id}/record", tags=["history"], response_class=PlainTextResponse)
    async def record(
        table_id: TableId,
        hand: Annotated[int | None, Query(ge=1, le=MAX_HAND, description="through this hand (1-based)")] = None,
        x_hearts_token: str | None = Header(None),
    ) -> Response:
        """The game's record (the engine's format) through its last finished hand, or through ``hand``
        (1-based). Once the game is over (or abandoned), to anyone. While it is played, only to a seat
        of the table (its join token in the ``X-Hearts-Token`` header), with the finished hands only
        and no seed. See docs/server.md, "Records and secrets"."""
        status = await asyncio.to_thread(storage.table_status, table_id)
        if status is None:
            raise HTTPException(404, f"no table {table_id!r}")
        playing = status[0] == "playing"
        if playing:
            if await token_seat(manager, table_id, x_hearts_token) is None:
                raise HTTPException(
                    403,
                    "this game is still being played: its record can be downloaded when it is over "
                    "(until then a seat can download the finished hands from its table page)",
                )
        number = None if hand is None else hand - 1
        stored = await asyncio.to_thread(storage.stored_record, table_id, number)  # a hand an older version stored
        if stored is not None:
            game_record: GameRecord | None = GameRecord.loads(stored)
        else:
            game = await manager.game_of(table_id)
            game_record = None if game is None else record_through(game, number)
        if game_record is None:
            raise HTTPException(404, f"table {table_id!r} has no finished hand yet")
        pretty = await asyncio.to_thread((game_record.without_seed() if playing else game_record).dumps)
        name = f"hearts-{table_id}" + (f"-hand{hand}" if hand else "") + ".json"
        return Response(
            pretty, media_type="application/json", headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

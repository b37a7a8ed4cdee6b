"""A bound on HTTP request bodies, applied before the app reads them.

uvicorn reads a request body of any size into memory; every body this API takes (a new table: six
seats, their names, rule options) is a few hundred bytes. A body over :data:`MAX_BODY_BYTES` is
refused with 413, by its declared length before any of it is read, or as soon as a chunked body
passes the bound. (JSON nesting in bodies needs no bound of its own: FastAPI answers a body too deep
to parse with 400.)
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Largest HTTP request body accepted, in bytes.
MAX_BODY_BYTES = 64 * 1024


class BodyLimit:
    """ASGI middleware: HTTP request bodies over ``limit`` bytes are refused with 413."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await _refuse(send, self._message())
            return
        taken = 0

        async def bounded() -> Message:
            nonlocal taken
            message = await receive()
            if message["type"] == "http.request":
                taken += len(message.get("body", b""))
                if taken > self.limit:
                    # FastAPI passes an HTTPException raised while it reads the body on as the response.
                    raise HTTPException(413, self._message())
            return message

        await self.app(scope, bounded, send)

    def _message(self) -> str:
        return f"request body too large: the limit is {self.limit} bytes"


async def _refuse(send: Send, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers: list[Any] = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})

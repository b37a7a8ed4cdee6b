"""What the HTTP routes share (``app`` and ``history_routes``): the types their path parameters and
bodies are read with, the answer that hands out a new table's links, and the browser's player key.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path as PathParam
from fastapi import Request
from pydantic import AfterValidator

from hearts.server.privacy import PLAYER_COOKIE, person_key, valid_identity
from hearts.server.table import LiveTable

#: Largest hand number a request may name: far beyond any game (a hand number past the table's
#: last finished hand is simply "not found"); the bound keeps every number a database can hold.
MAX_HAND = 100_000


def _plain_text(value: str | None) -> str | None:
    """Refuse text that cannot be stored or sent (an unpaired surrogate from a JSON escape).

    >>> _plain_text("Ann")
    'Ann'
    >>> _plain_text("\\ud800")
    Traceback (most recent call last):
    ...
    ValueError: must be plain text (it holds an unpaired surrogate escape)
    """
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("must be plain text (it holds an unpaired surrogate escape)") from None
    return value


PlainText = Annotated[str, AfterValidator(_plain_text)]
#: A table id as it appears in links (twelve hex digits today); anything longer is no table's.
TableId = Annotated[str, PathParam(min_length=1, max_length=64, description="the table's id")]
HandNumber = Annotated[int, PathParam(ge=1, le=MAX_HAND, description="a finished hand's number, from 1")]


def table_links(request: Request, table: LiveTable) -> dict[str, Any]:
    """A new table's answer: each seat with its secret join link (people's seats), the watch link."""
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
        "practice": table.practice,
    }


def cookie_player(cookies: Any) -> str | None:
    """The player key of the browser identity in a request's cookies, if it sent a valid one."""
    identity = cookies.get(PLAYER_COOKIE)
    return person_key(identity) if valid_identity(identity) else None

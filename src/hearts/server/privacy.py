"""What the server keeps to itself: players known by stable keys (never by display name, never by a
secret), link tokens kept out of every log line, database URLs shown with their password masked.

>>> person_key("a-browser-identity") == person_key("a-browser-identity"), person_key("x")[:7]
(True, 'person:')
>>> redact('127.0.0.1:5000 - "GET /play/SeCrEt123?x=1 HTTP/1.1" 200')
'127.0.0.1:5000 - "GET /play/… HTTP/1.1" 200'
>>> mask_url("postgresql://hearts:hunter2@db.example/hearts")
'postgresql://hearts:***@db.example/hearts'
"""

from __future__ import annotations

import copy
import hashlib
import logging
import re
import secrets
from typing import Any

#: The cookie that holds a browser's identity (``docs/server.md``, "Players and statistics").
PLAYER_COOKIE = "hearts_player"
#: A year: the identity outlives any one game, so a person's statistics follow them.
PLAYER_COOKIE_AGE = 365 * 24 * 3600

_IDENTITY = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_identity() -> str:
    """A fresh browser identity: 128 random bits."""
    return secrets.token_urlsafe(16)


def valid_identity(text: str | None) -> bool:
    return text is not None and _IDENTITY.fullmatch(text) is not None


def _hashed(kind: str, secret: str) -> str:
    return "person:" + hashlib.sha256(f"hearts-{kind}:{secret}".encode()).hexdigest()[:32]


def person_key(identity: str) -> str:
    """The stored, shown key of a browser identity: a hash, from which the identity cannot be had back."""
    return _hashed("player", identity)


def seat_key(token: str) -> str:
    """The key of a person known only by their seat's link (a client that sent no identity)."""
    return _hashed("seat", token)


def client_keys(player: str | None, token: str | None) -> set[str]:
    """The player keys a client at a seat answers to: its browser identity's (``player``, already a
    key) and its seat link's. Who created a table is one of these (see ``upkeep.fill_refusal``)."""
    return {k for k in (player, seat_key(token) if token else None) if k}


def player_key(kind: str, level: str | None, player: str | None, token: str | None) -> str:
    """Who a seat's results belong to: the person who took it, or the computer level or bot it is.

    >>> player_key("computer", "medium", None, None), player_key("bot", "mybot", None, None)
    ('computer:medium', 'bot:mybot')
    """
    if kind == "human":
        if player is not None:
            return player
        return seat_key(token) if token else "person:unknown"
    return f"{kind}:{level}"


# -- log lines --------------------------------------------------------------------------------

#: A link token in a page or websocket path (and anything after it), or a token in a query string.
_TOKEN_PATH = re.compile(r"(/(?:play|watch|ws)/)[^\s\"']+")
_TOKEN_QUERY = re.compile(r"(\btoken=)[^&\s\"']+")


def redact(text: str) -> str:
    """``text`` with every link token replaced by an ellipsis."""
    return _TOKEN_QUERY.sub(r"\1…", _TOKEN_PATH.sub(r"\1…", text))


class RedactTokens(logging.Filter):
    """Takes link tokens out of a log record's message and arguments (uvicorn's access and websocket
    lines carry the request path, and every seat's path holds its token)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


def log_config(level: str = "info") -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RedactTokens` on every handler, and the server's
    own ``hearts`` log lines, from ``level`` up, going through the same handler (and filter) as uvicorn's."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": RedactTokens}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_tokens")
    config["loggers"]["hearts"] = {"handlers": ["default"], "level": level.upper(), "propagate": False}
    return config


def mask_url(url: str) -> str:
    """A database URL fit to print: its password, if any, replaced by ``***``."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - not a URL SQLAlchemy reads: mask anything like user:password@
        return re.sub(r"(//[^/:@]*:)[^@/]*@", r"\1***@", url)

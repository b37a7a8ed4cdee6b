"""The websocket protocol: parsing what clients send, shaping what each client may see.

Documented message by message in ``docs/protocol.md``. The rule throughout: a client gets its own
seat's :class:`~hearts.core.view.SeatView` and the events :func:`~hearts.core.events.visible_to` it;
a spectator gets the view with every private field emptied (no cards of any hand) until a hand is
over, when the whole deal is public.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from hearts.core import Event, event_to_dict, visible_to

#: Largest client message accepted, in bytes of text. The biggest legal message (a pass of a few
#: cards) is well under 200 bytes; anything near this is malformed or hostile.
MAX_MESSAGE_BYTES = 4096

#: Message types a client may send.
MOVE_TYPES = ("play", "pass", "moon")
CLIENT_TYPES = (*MOVE_TYPES, "hint", "sync", "ping", "fill")

#: Fields of a seat view that belong to that seat alone: emptied for spectators.
PRIVATE_VIEW_FIELDS: dict[str, Any] = {
    "hand": [],
    "passed": None,
    "pass_to": None,
    "received": None,
    "pass_from": None,
    "legal": [],
    "moon_options": [],
}


class ProtocolError(ValueError):
    """A client message that is not well-formed: the text says what was wrong."""


def parse_message(text: str) -> dict[str, Any]:
    """A client's message as a dict with a known ``type``; raise :class:`ProtocolError` otherwise."""
    if len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large: {len(text)} characters (the limit is {MAX_MESSAGE_BYTES} bytes)")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a message is a JSON object with a 'type', not {type(data).__name__}")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(f"unknown message type {kind!r}: expected one of {', '.join(CLIENT_TYPES)}"[:300])
    seq = data.get("seq")
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        raise ProtocolError(f"'seq' must be a whole number (the seq of the view you answer), not {seq!r}"[:300])
    return data


def spectator_view(view: dict[str, Any]) -> dict[str, Any]:
    """A seat view's JSON with everything private to that seat removed: what a spectator sees."""
    out = dict(view, **PRIVATE_VIEW_FIELDS)
    out["seat"] = None
    return out


def events_for(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """The JSON events ``seat`` (None: a spectator) may see."""
    out = []
    for e in events:
        seen = visible_to(e, seat)
        if seen is not None:
            out.append(event_to_dict(seen))
    return out


class RateLimiter:
    """A token bucket per connection: ``rate`` messages a second, bursts up to ``burst``.

    ``strikes`` counts refused messages; the server closes a connection that keeps flooding.
    """

    __slots__ = ("rate", "burst", "tokens", "stamp", "strikes")

    def __init__(self, rate: float = 100.0, burst: float = 200.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.strikes = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.strikes += 1
        return False


def encode(message: dict[str, Any]) -> str:
    """A server message as its websocket text: compact JSON (no spaces), cards' suit symbols as is."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error(message: str, about: str | None = None) -> str:
    """An error message as sent to one client."""
    return encode({"type": "error", "message": message, "about": about})

"""The websocket protocol: what each client may see, and the limits on what it may send.

Documented message by message in ``docs/protocol.md``. The rule throughout: a client gets its own
seat's :class:`~hearts.core.view.SeatView` and the events :func:`~hearts.core.events.visible_to` it;
a spectator gets the :class:`~hearts.core.view.PublicView` (built from the core's allow-list of
public fields: no cards of any hand) until a hand is over, when the whole deal is public. What a
client sends is checked by :mod:`hearts.server.messages`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from hearts.core import Event, event_to_dict, visible_to
from hearts.server.messages import CLIENT_TYPES, MAX_MESSAGE_BYTES, MOVE_TYPES, ProtocolError, parse_message

__all__ = [
    "CLIENT_TYPES", "MAX_MESSAGE_BYTES", "MOVE_TYPES", "ProtocolError", "parse_message",
    "events_for", "RateLimiter", "encode", "error",
]  # fmt: skip


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


#: One encoder for every message (``json.dumps`` with options builds a new one per call).
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def encode(message: dict[str, Any]) -> str:
    """A server message as its websocket text: compact JSON (no spaces), cards' suit symbols as is."""
    return _ENCODER.encode(message)


def encode_with_view(message: dict[str, Any], public: str, own: dict[str, Any]) -> str:
    """``encode({**message, "view": {**public_fields, **own}})``, the very same text, where ``public``
    is the view's public part already encoded (:meth:`~hearts.core.SeatView.public_dict`): a move's
    update carries the same public part to every seat, encoded once."""
    head = _ENCODER.encode(message)
    return f'{head[:-1]},"view":{public[:-1]},{_ENCODER.encode(own)[1:]}}}'


def error(message: str, about: str | None = None) -> str:
    """An error message as sent to one client."""
    return encode({"type": "error", "message": message, "about": about})

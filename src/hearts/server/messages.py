"""What a client may send over the websocket, checked field by field before the server uses any of it.

Each message type is a pydantic model (strict: a number is never text, ``true`` is never 1, and a
field the type does not have is refused, so a misspelt field is named rather than silently
ignored). :func:`parse_message` bounds the size and the nesting of the text before it is parsed
at all, and turns every failure into a :class:`ProtocolError` whose text names the field and what
it should hold, in players' and developers' words. The rules are listed in ``docs/protocol.md``.

>>> parse_message('{"type": "play", "card": "QS", "seq": 4}')
Play(seq=4, seat=None, type='play', card='QS')
>>> parse_message('{"type": "fill", "level": 5}')
Traceback (most recent call last):
...
hearts.server.messages.ProtocolError: 'level' of a fill message must be a computer level such as 'medium', not 5
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hearts.core import Move, move_from_dict

#: Largest client message accepted, in bytes of text. The biggest legal message (a pass of a few
#: cards) is well under 200 bytes; anything near this is malformed or hostile.
MAX_MESSAGE_BYTES = 4096
#: Deepest nesting of JSON arrays and objects accepted. The deepest legal message (a pass: an
#: object holding a list) has depth 2; the bound keeps the parser far from Python's recursion limit.
MAX_DEPTH = 8
#: Largest ``seq`` a move may carry: the largest whole number JSON keeps exactly everywhere.
MAX_SEQ = 2**53
#: Largest seat number of any table (six players).
MAX_SEAT = 5


class ProtocolError(ValueError):
    """A client message that is not well-formed: the text says what was wrong; ``about`` is the
    message's type when it was one of the protocol's (None when it could not be read that far)."""

    def __init__(self, message: str, about: str | None = None) -> None:
        super().__init__(message)
        self.about = about


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class _MoveMessage(_Message):
    seq: int | None = Field(None, ge=0, le=MAX_SEQ, description="a whole number, 0 or more: the seq of the view you answer")
    seat: int | None = Field(None, ge=0, le=MAX_SEAT, description="your own seat number (it may be left out)")

    def move(self, seat: int) -> Move:
        """The engine's move, for a sender who holds ``seat``; raise the engine's error naming what is wrong."""
        return move_from_dict(self.model_dump(exclude_none=True, exclude={"seq"}), seat=seat)


class Play(_MoveMessage):
    """Play a card."""

    type: Literal["play"]
    card: str = Field(max_length=8, description="a card such as 'QS', '10H' or 'q♠'")


class Pass(_MoveMessage):
    """Choose the cards to pass."""

    type: Literal["pass"]
    cards: list[Annotated[str, Field(max_length=8)]] = Field(
        max_length=52, description="a list of cards such as [\"QS\", \"AH\", \"KH\"]"
    )


class Moon(_MoveMessage):
    """Choose how a moon scores."""

    type: Literal["moon"]
    option: str = Field(max_length=32, description="how your moon scores: 'add-to-others' or 'subtract-from-self'")


class Claim(_MoveMessage):
    """Claim every remaining trick (on your turn to play): refused with the reason unless your cards
    take every trick however the unseen cards lie, else the hand is played out for everyone."""

    type: Literal["claim"]


class Hint(_Message):
    """Ask the strongest computer level for its move."""

    type: Literal["hint"]


class Sync(_Message):
    """Ask for the whole state again."""

    type: Literal["sync"]


class Ping(_Message):
    """Ask for a pong."""

    type: Literal["ping"]


class Fill(_Message):
    """Seat computer players in every seat no person has joined."""

    type: Literal["fill"]
    level: str | None = Field(None, max_length=24, description="a computer level such as 'medium'")


class Chat(_Message):
    """Say something to the table (players and spectators)."""

    type: Literal["chat"]
    text: str = Field(max_length=2000, description="text of at most 200 characters")


class Back(_Message):
    """Take the seat back from the stand-in the turn clock gave it."""

    type: Literal["back"]


class Rematch(_Message):
    """At the end of a game: play again, the same seats and rules."""

    type: Literal["rematch"]


ClientMessage = Play | Pass | Moon | Claim | Hint | Sync | Ping | Fill | Chat | Back | Rematch
MoveMessage = Play | Pass | Moon | Claim

#: Every message type a client may send, by its ``type``.
MESSAGES: dict[str, type[ClientMessage]] = {
    "play": Play,
    "pass": Pass,
    "moon": Moon,
    "claim": Claim,
    "hint": Hint,
    "sync": Sync,
    "ping": Ping,
    "fill": Fill,
    "chat": Chat,
    "back": Back,
    "rematch": Rematch,
}
CLIENT_TYPES = tuple(MESSAGES)
MOVE_TYPES = ("play", "pass", "moon", "claim")

# A JSON string (escapes included) or a bracket: what the nesting check needs to see.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON ``text`` nests arrays and objects more than ``limit`` deep (brackets inside
    strings do not count). Checked before parsing, so no text can drive the parser into recursion.

    >>> too_deep('{"cards": ["[[[[[[[[[["]}', 2), too_deep("[" * 3 + "]" * 3, 2)
    (False, True)
    """
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token == "[" or token == "{":
            depth += 1
            if depth > limit:
                return True
        elif token == "]" or token == "}":
            depth -= 1
    return False


def parse_message(text: str) -> ClientMessage:
    """A client's message, every field checked; raise :class:`ProtocolError` naming what is wrong."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large: {size} bytes (the limit is {MAX_MESSAGE_BYTES})")
    if too_deep(text):
        raise ProtocolError(f"message nested too deep: lists and objects may nest {MAX_DEPTH} deep at most")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ProtocolError(f"not JSON: {exc}"[:200]) from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a message is a JSON object with a 'type', not {_kind_of(data)}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        raise ProtocolError(f"unknown message type {_shown(kind)}: expected one of {', '.join(CLIENT_TYPES)}")
    model = MESSAGES[kind]
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ProtocolError(_explain(kind, model, exc), kind) from None


def _explain(kind: str, model: type[_Message], exc: ValidationError) -> str:
    """The first problem pydantic found, in words: the field, what it should hold, what it held."""
    problem = exc.errors(include_url=False)[0]
    loc = problem["loc"]
    name = str(loc[0]) if loc else "type"
    info = model.model_fields.get(name)
    wanted = info.description if info is not None and info.description else "something else"
    if problem["type"] == "missing":
        return f"a {kind} message needs '{name}': {wanted}"
    if problem["type"] == "extra_forbidden":
        known = ", ".join(sorted(model.model_fields, key=lambda f: (f != "type", f in ("seq", "seat"))))
        return f"a {kind} message has no field {_shown(name)} (its fields are {known})"
    given = problem.get("input")
    where = f" (item {int(loc[1]) + 1})" if len(loc) > 1 and isinstance(loc[1], int) else ""
    return f"'{name}' of a {kind} message must be {wanted}, not {_shown(given)}{where}"


def _kind_of(value: Any) -> str:
    """A JSON value's kind in JSON's words."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    return "an object"


def _shown(value: Any, limit: int = 40) -> str:
    """A client's value as it may be quoted back: short, and escaped (no raw control characters)."""
    if isinstance(value, (list, dict)) and len(value) > 3:
        return f"{_kind_of(value)} of {len(value)}"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**15:
        return "a number that large"
    text = json.dumps(value, ensure_ascii=True) if value is not None else "null"
    return text if len(text) <= limit else text[: limit - 1] + "…"

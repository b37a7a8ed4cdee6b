"""The bot protocol, version 1: JSON lines between the engine and a bot program (see ``docs/bot-protocol.md``).

The engine writes one JSON object per line to the bot's stdin; the bot answers each
``decide`` message with one JSON line on its stdout: a move in the form of
:func:`hearts.core.move_from_dict` (``{"type": "play", "card": "QS"}``), optionally
with a ``"reason"``. This module builds the engine's messages and reads and checks
the bot's answers; :class:`hearts.players.external.ExternalPlayer` runs the bot.

>>> from hearts.core import Game, Rules
>>> game = Game(Rules.preset("no-passing"), seed=2)
>>> view = game.view(game.to_move[0])
>>> message = decide_message(1, view, time_limit=2.0)
>>> message["type"], message["decision"], message["view"]["legal"]
('decide', 'play', ['2C'])
>>> parse_answer('{"type": "play", "card": "2c", "reason": "the opening lead"}', view)
(PlayCard(seat=0, card=Card('2C')), 'the opening lead')
>>> parse_answer('{"type": "play", "card": "3C"}', view)
Traceback (most recent call last):
...
hearts.bots.protocol.BotAnswerError: illegal: illegal play 3♣ by South: the first trick must be opened with 2♣
"""

from __future__ import annotations

import json
from typing import Any

from hearts.core import (
    ChooseMoon,
    ClaimRest,
    HandState,
    HeartsError,
    Move,
    PassCards,
    Phase,
    PlayCard,
    SeatView,
    cards_of,
    move_from_dict,
)

PROTOCOL = "hearts-bot"
VERSION = 1
#: The longest answer line read from a bot; a longer one is malformed.
MAX_LINE = 64 * 1024
#: The longest ``reason`` kept from an answer.
MAX_REASON = 200

_DECISIONS = {Phase.PASS: "pass", Phase.PLAY: "play", Phase.MOON_CHOICE: "moon"}


class BotAnswerError(ValueError):
    """A bot's answer that cannot be used. ``kind`` is ``"malformed"`` (not a move) or ``"illegal"``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


def decision_of(view: SeatView) -> str:
    """The decision ``view`` asks of its seat: ``"pass"``, ``"play"`` or ``"moon"``."""
    if view.seat not in view.to_move or view.phase not in _DECISIONS:
        raise ValueError(f"{view.names[view.seat]} has no decision to make in the {view.phase.value} phase")
    return _DECISIONS[view.phase]


def hello_message(view: SeatView, time_limit: float, startup_time: float) -> dict[str, Any]:
    """The first message: the protocol version, the bot's seat, the table and the time limits."""
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "version": VERSION,
        "seat": view.seat,
        "players": view.players,
        "names": list(view.names),
        "rules": view.rules.to_dict(),
        "time_limit": time_limit,
        "startup_time": startup_time,
    }


def game_message(number: int, view: SeatView) -> dict[str, Any]:
    """Sent before the first ``decide`` of every game (the first one too): the bot's ``number``-th game in
    this process, its seat and the seats' names. A bot that keeps memory between decisions resets it here."""
    return {"type": "game", "game": number, "seat": view.seat, "names": list(view.names)}


def decide_message(number: int, view: SeatView, time_limit: float) -> dict[str, Any]:
    """A request for one decision: its number, its kind, the seat's view and the seconds allowed."""
    return {
        "type": "decide",
        "id": number,
        "decision": decision_of(view),
        "time_limit": time_limit,
        "view": view.to_dict(),
    }


def error_message(number: int | None, kind: str, message: str) -> dict[str, Any]:
    """Sent (best effort) to a bot whose answer was refused, just before it is stopped."""
    return {"type": "error", "id": number, "kind": kind, "message": message}


def bye_message(reason: str) -> dict[str, Any]:
    """The last message: the bot should exit. ``reason`` is ``"done"`` or ``"fault"``."""
    return {"type": "bye", "reason": reason}


def encode(message: dict[str, Any]) -> str:
    """One message as one line (compact JSON, UTF-8 safe, newline-terminated)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


def _hidden_hands(view: SeatView) -> list[int]:
    """Some hands for the other seats consistent with ``view`` (for asking the engine why a move is
    illegal: a seat's own legality never depends on where the others' cards are)."""
    rest = cards_of(view.rules.in_play & ~view.hand.mask & ~view.played.mask)
    hands = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(view.hand.mask)
            continue
        mask = 0
        for c in rest[:size]:
            mask |= 1 << c
        rest = rest[size:]
        hands.append(mask)
    return hands


def check_move(view: SeatView, move: Move) -> None:
    """Raise :class:`BotAnswerError` ("illegal") unless ``move`` is legal for ``view``'s seat now.

    The engine decides and words the reason: a play is checked on a state rebuilt from the view
    (:meth:`SeatView.world`), a pass on the hand as dealt.
    """
    decision = decision_of(view)
    if isinstance(move, ClaimRest):
        raise BotAnswerError("illegal", "a bot answers with a card, a pass or a moon choice, not a claim")
    kinds = {PlayCard: "play", PassCards: "pass", ChooseMoon: "moon"}
    given = kinds[type(move)]
    if given != decision:
        raise BotAnswerError("illegal", f"the decision asked is a {decision}, not a {given}")
    try:
        if isinstance(move, PlayCard):
            view.world(_hidden_hands(view)).check_play(move.card, view.seat)
        elif isinstance(move, PassCards):
            # Before the exchange the seat's hand is its deal, so the engine can check the pass on it.
            HandState(view.rules, _hidden_hands(view), view.hand_number).check_pass(view.seat, move.cards)
        elif move.option not in view.moon_options:
            raise BotAnswerError("illegal", f"{move.option.value} is not one of the moon options offered")
    except HeartsError as exc:
        raise BotAnswerError("illegal", str(exc)) from None


def parse_answer(line: str, view: SeatView) -> tuple[Move, str]:
    """The move (and reason) in a bot's answer line, checked against ``view``; raise :class:`BotAnswerError`."""
    text = line.strip()
    shown = text if len(text) <= 120 else text[:117] + "..."
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BotAnswerError("malformed", f"not JSON ({exc.msg}): {shown!r}") from None
    if not isinstance(data, dict):
        raise BotAnswerError("malformed", f"an answer is a JSON object, not {type(data).__name__}: {shown!r}")
    try:
        move = move_from_dict(data, seat=view.seat)
    except HeartsError as exc:
        raise BotAnswerError("malformed", f"{exc}: {shown!r}") from None
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise BotAnswerError("malformed", f"'reason' must be a string, not {reason!r}"[:200])
    check_move(view, move)
    return move, reason[:MAX_REASON]

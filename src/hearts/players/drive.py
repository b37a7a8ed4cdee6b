"""The one game loop: whose turn it is, ask that seat's player, apply its move, until the game is done.

Two layers, so that every face drives a game the same way:

- :func:`next_turn` says whose move it is and :func:`turns` is the loop itself: a generator yielding each seat that owes a move now, one at a
  time, until the game (or a lone hand) is over or a number of hands have finished. Its caller gets
  the move however it likes (a player in a worker thread, a human's click after an animation, a
  compiled random policy) and applies it before taking the next turn. A seat whose move was not
  applied is simply asked again. A face that must ``await`` between moves keeps the generator and
  takes one turn at a time.
- :func:`drive` is the synchronous loop on top: it asks each seat's :class:`Player` with the seat's
  view, applies the answer, and calls the hooks: ``on_fault`` when a player raises, answers with
  something that is not its own legal move, or takes longer than ``time_limit`` (the hook stops the
  game by raising, or names a stand-in to play the seat from then on); ``on_move`` after every
  applied move (with its events, for a UI or a record, and the decision's seconds); ``on_hand``
  after every finished hand (progress, tallies).

>>> from hearts.core import Game, Rules
>>> from hearts.players.registry import make_player
>>> game = Game(Rules.preset("no-passing"), seed=1)
>>> hands = []
>>> _ = drive(game, [make_player("random", seed=s) for s in range(4)], hands=2, on_hand=hands.append)
>>> len(game.finished), [h.number for h in hands]
(2, [0, 1])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from hearts.core import ChooseMoon, Game, HandState, Move, PassCards, Phase, PlayCard, SeatView
from hearts.core.errors import IllegalMoveError, OutOfTurnError
from hearts.core.events import Event

if TYPE_CHECKING:  # base.py's play_game drives through this module
    from hearts.players.base import Player

Table = TypeVar("Table", bound=Game | HandState)

_PLAY = Phase.PLAY  # a module constant: read faster than the enum's attribute on the hot path


def next_turn(table: Game | HandState, later: Collection[int] = ()) -> int | None:
    """The seat that moves next, or None when nobody owes a move (the game or the lone hand is over).

    The seats choose their passes at once; they are taken in seat order, except that the seats in
    ``later`` (a face's human seats, who pass in their own time) come after every other seat.

    >>> from hearts.core import Game, Rules
    >>> game = Game(Rules.preset("pass-left"), seed=2)
    >>> next_turn(game), next_turn(game, later=(0,))
    (0, 1)
    """
    seats = table.to_move
    if not seats:
        return None
    if later and len(seats) > 1:
        return next((s for s in seats if s not in later), seats[0])
    return seats[0]


def turns(table: Game | HandState, hands: int | None = None, later: Collection[int] = ()) -> Iterator[int]:
    """Each seat that owes a move now, one at a time (:func:`next_turn` with ``later``), until ``table`` is
    over or, for a game, ``hands`` more hands have finished. The caller applies the seat's move before
    taking the next turn; a seat whose move was not applied is yielded again.

    >>> from hearts.core import Game, Rules
    >>> game = Game(Rules.preset("pass-left"), seed=2)
    >>> seats = turns(game)
    >>> next(seats), game.phase.value
    (0, 'pass')
    """
    if isinstance(table, HandState):
        while (seat := next_turn(table, later)) is not None:
            yield seat
        return
    game, finished = table, table.finished
    stop = None if hands is None else len(finished) + hands
    while not game.winners and (stop is None or len(finished) < stop):
        hand = game.hand  # a game's hand is never over: someone owes a move
        yield hand.turn if hand.phase is _PLAY else next_turn(hand, later)  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Fault:
    """A player's fault at ``seat``: it raised (``"crash"``), answered with something that is not a move
    (``"malformed"``), a move for another seat or one the rules refuse (``"illegal"``), or took longer
    than the time limit (``"timeout"``). ``error`` is what was raised (or would be, for the game)."""

    seat: int
    kind: str
    message: str
    error: BaseException


#: What a fault hook gives back: a stand-in to play the faulted seat from then on. It stops the game by raising.
FaultHook = Callable[[Fault, SeatView], "Player"]


@dataclass(frozen=True, slots=True)
class Turn:
    """One applied move: whose, on what view, with what events; ``seconds`` is the decision's time (the
    player's own; ``stand_in`` says a stand-in made it)."""

    seat: int
    view: SeatView
    move: Move
    events: list[Event]
    seconds: float
    stand_in: bool = False


def _fault(seat: int, move: object, seconds: float, time_limit: float | None) -> Fault | None:
    """The fault in ``seat``'s answer ``move`` before the rules are asked (None when there is none)."""
    if not isinstance(move, (PlayCard, PassCards, ChooseMoon)):
        return Fault(seat, "malformed", f"answered {move!r}, not a move", IllegalMoveError(f"not a move: {move!r}"))
    if move.seat != seat:
        message = f"answered for seat {move.seat}, not its own seat {seat}"
        return Fault(seat, "illegal", message, OutOfTurnError(message, seat=seat, rule="turn"))
    if time_limit is not None and seconds > time_limit:
        message = f"took {seconds:.2f} s, over the limit of {time_limit:g} s"
        return Fault(seat, "timeout", message, TimeoutError(message))
    return None


def _crash(seat: int, error: BaseException) -> Fault:
    return Fault(seat, "crash", f"{type(error).__name__}: {error}", error)


def check_answer(game: Game, seat: int, answer: object) -> Fault | None:
    """The fault in ``seat``'s answer (its move, or what its player raised), checked against the rules
    without applying it; None when the move may be applied. For a face that has its players decide off
    the loop (the terminal's worker thread, the server's) and applies the move later, its own way.

    >>> from hearts.core import Game, Rules
    >>> game = Game(Rules.preset("no-passing"), seed=1)
    >>> check_answer(game, game.hand.turn, RuntimeError("no idea")).message
    'RuntimeError: no idea'
    >>> check_answer(game, game.hand.turn, game.legal_moves()[0]) is None
    True
    """
    if isinstance(answer, BaseException):
        return _crash(seat, answer)
    fault = _fault(seat, answer, 0.0, None)
    if fault is None:
        try:
            game.check(answer)  # type: ignore[arg-type]  # _fault found it to be a move
        except ValueError as exc:
            return Fault(seat, "illegal", str(exc), exc)
    return fault


def _raise(fault: Fault, view: SeatView) -> Player:
    raise fault.error


def drive(
    table: Table,
    players: Sequence[Player],
    *,
    hands: int | None = None,
    moves: int | None = None,
    view: Callable[[int], SeatView] | None = None,
    on_fault: FaultHook | None = None,
    time_limit: float | None = None,
    on_move: Callable[[Turn], object] | None = None,
    on_hand: Callable[[HandState], object] | None = None,
) -> Table:
    """Play ``table`` (a :class:`Game`, or a lone :class:`HandState`) on with one player per seat until it is
    over, or for a game ``hands`` more hands have finished, or ``moves`` moves have been made; return it.

    Each player is given only its own seat's view (``view(seat)``; by default the game's, or the lone
    hand's with zero totals). Without ``on_fault`` a fault raises what caused it (the player's own
    exception, or the engine's error for an illegal move) and the game is left as it was before the move.
    """
    if len(players) != table.rules.players:
        raise ValueError(f"{len(players)} players for {table.rules.players} seats")
    if view is None:
        view = table.view if isinstance(table, Game) else (lambda seat: SeatView.of_hand(table, seat))
    faulted = on_fault or _raise
    stand_ins: dict[int, Player] = {}
    clock = time.perf_counter
    done = len(table.finished) if isinstance(table, Game) else 0
    made = 0
    for seat in turns(table, hands):
        seen = view(seat)
        stand_in = stand_ins.get(seat)
        if stand_in is not None:  # our own player: an error of its is a bug, raised as such
            start = clock()
            move = stand_in.decide(seen).move
            seconds = clock() - start
            events = table.apply(move)
            if on_move is not None:
                on_move(Turn(seat, seen, move, events, seconds, True))
        else:
            start = clock()
            try:
                move = players[seat].decide(seen).move
            except Exception as exc:  # noqa: BLE001 - whatever a player raises is its fault
                fault: Fault | None = _crash(seat, exc)
            else:
                seconds = clock() - start
                fault = _fault(seat, move, seconds, time_limit)
                if fault is None:
                    try:
                        events = table.apply(move)
                    except ValueError as exc:
                        fault = Fault(seat, "illegal", str(exc), exc)
                    else:
                        if on_move is not None:
                            on_move(Turn(seat, seen, move, events, seconds))
            if fault is not None:
                stand_ins[seat] = faulted(fault, seen)
                continue  # the seat is asked again, now through its stand-in
        if on_hand is not None:
            if isinstance(table, Game):
                while done < len(table.finished):
                    on_hand(table.finished[done])
                    done += 1
            elif table.phase is Phase.HAND_OVER:
                on_hand(table)
        if moves is not None:
            made += 1
            if made >= moves:
                break
    return table

"""Who plays a tournament seat, and what happens when a player faults there.

A :class:`TableSeat` asks its player for each move and checks it. A player *faults*
when it raises (a crashed or hung ``cmd:`` bot raises
:class:`~hearts.players.external.BotFaultError`; a ``py:`` policy may raise
anything), answers for another seat, or makes a move the rules refuse. The fault
is the player's, never the table's: with ``on_fault="stop"`` it is raised as
:class:`SeatFaultError` for the tournament to stop on; with ``"forfeit"`` a
stand-in (:data:`STAND_IN`) plays the seat's cards for the rest of that hand or
game so that the other seats' play goes on, the faulted seat's hands are scored
as forfeits (:func:`forfeit_points`), and none of the stand-in's moves, times or
moons are counted as the player's.

``cmd:`` bots are kept: one process per (player, seat) in each worker process for
the whole tournament (:func:`seat_player`), told of each new game by the bot
protocol's ``game`` message, and stopped by :func:`close_kept` (called when the
worker ends).
"""

from __future__ import annotations

import atexit
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hearts.core import Game, HandState, Rules, SeatView
from hearts.players.base import Player
from hearts.players.drive import Fault, Turn, drive
from hearts.players.registry import make_player, parse_player
from hearts.sim import live

#: What a tournament does on a fault: stop with the fault named (the default), or score forfeits and play on.
ON_FAULT = ("stop", "forfeit")
#: The level that finishes a faulted seat's hand or game under ``on_fault="forfeit"`` (never credited).
STAND_IN = "medium"


def forfeit_points(rules: Rules) -> int:
    """A forfeited hand's score: every penalty point of the hand (26 in standard; the J♦ bonus, where the
    rules have one, is not given), the worst a hand can score without a moon; a moon never applies.

    >>> forfeit_points(Rules()), forfeit_points(Rules.preset("omnibus")), forfeit_points(Rules(players=5))
    (26, 26, 26)
    """
    return rules.moon_points


@dataclass(frozen=True, slots=True)
class SeatFault:
    """A player's fault at one seat of one table: what it did, in which hand, and (bots) its stderr."""

    player: int  #: the player's index in the tournament
    seat: int
    hand: int  #: the hand of the deal or game, from 1
    kind: str  #: "start", "crash", "timeout", "malformed" or "illegal"
    message: str
    decision: int | None = None  #: the bot's decision number (``cmd:`` bots)
    stderr_tail: tuple[str, ...] = field(default=())

    def words(self) -> str:
        """What happened, in one line (the stderr lines follow, indented)."""
        at = f" at decision {self.decision}" if self.decision is not None else ""
        text = f"{self.kind}{at}: {self.message}"
        if self.stderr_tail:
            text += "\n  bot stderr (last lines):\n" + "\n".join("    " + line for line in self.stderr_tail)
        return text

    def to_dict(self, labels: Sequence[str]) -> dict[str, Any]:
        return {
            "player": labels[self.player],
            "seat": self.seat,
            "hand": self.hand,
            "kind": self.kind,
            "message": self.message,
            "decision": self.decision,
            "stderr_tail": list(self.stderr_tail),
        }


class SeatFaultError(Exception):
    """A fault under ``on_fault="stop"``: the tournament stops and names it."""

    def __init__(self, fault: SeatFault) -> None:
        super().__init__(fault.words())
        self.fault = fault


class TableSeat:
    """One seat of one table: its player, the seconds of each of the player's own decisions, and its fault."""

    def __init__(self, player: Player, index: int, seat: int, seed: int, on_fault: str, first_hand: int = 0) -> None:
        self.player = player
        self.first_hand = first_hand  #: the engine's number of the table's first hand (a lone deal's is its index)
        self.index = index
        self.seat = seat
        self.seed = seed
        self.on_fault = on_fault
        self.times: list[float] = []
        self.fault: SeatFault | None = None
        self.stand_in: Player | None = None

    def faulted(self, fault: Fault, view: SeatView) -> Player:
        """The player faulted on ``view``: note it (a bot's own account of its fault when it gave one), then
        stop the tournament (``on_fault="stop"``) or name the stand-in that plays the seat from now on."""
        from hearts.players.external import BotFaultError

        error = fault.error
        if isinstance(error, BotFaultError):
            f = error.fault
            kind, message, decision, stderr = f.kind, f.message, f.decision, f.stderr_tail
        else:
            kind, message, decision, stderr = fault.kind, fault.message, None, ()
        hand = view.hand_number - self.first_hand + 1
        self.fault = SeatFault(self.index, self.seat, hand, kind, message, decision, stderr)
        if self.on_fault == "stop":
            raise SeatFaultError(self.fault)
        self.stand_in = make_player(STAND_IN, seed=self.seed)
        return self.stand_in

    def forfeits(self, hand: int) -> bool:
        """Whether this seat's hand ``hand`` (0-based) is scored as a forfeit: it faulted in it or before."""
        return self.fault is not None and hand >= self.fault.hand - 1


def drive_table(
    table: Game | HandState,
    seats: Sequence[TableSeat],
    *,
    view: Callable[[int], SeatView] | None = None,
    hands: int | None = None,
    moves: int | None = None,
) -> None:
    """Play ``table`` on with its seats' players through :func:`~hearts.players.drive.drive`: each seat's own
    decision times are kept, a fault goes to the seat (:meth:`TableSeat.faulted`), and the share of the table
    played is reported after every move to whoever follows it live (:func:`hearts.sim.live.report`)."""

    def on_move(turn: Turn) -> None:
        if not turn.stand_in:  # a stand-in's time is never the player's
            seats[turn.seat].times.append(turn.seconds)
        live.report(turn.view)

    drive(
        table,
        [s.player for s in seats],
        hands=hands,
        moves=moves,
        view=view,
        on_fault=lambda fault, seen: seats[fault.seat].faulted(fault, seen),
        on_move=on_move,
    )


def table_seats(
    specs: Sequence[str], seating: Sequence[int], seeds: Sequence[int], budget: float | None, on_fault: str,
    first_hand: int = 0,
) -> list[TableSeat]:
    """The seats of a new table: player ``seating[s]`` (``specs[seating[s]]``) in seat ``s``, seeded ``seeds[s]``."""
    return [
        TableSeat(seat_player(specs[p], p, s, seeds[s], budget), p, s, seeds[s], on_fault, first_hand)
        for s, p in enumerate(seating)
    ]  # fmt: skip


def close_seats(seats: Iterable[TableSeat]) -> None:
    """A table is over: close its players (a kept ``cmd:`` bot stays, for this worker's next table)."""
    for s in seats:
        close_player(s.player)


def table_scores(
    seats: Sequence[TableSeat], hands: Sequence[HandState], rules: Rules
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's points over a table's finished ``hands`` and the moons it shot: a hand it forfeited
    scores :func:`forfeit_points` and no moon (so a stand-in's play is never credited)."""
    forfeit, zeros = forfeit_points(rules), (0,) * rules.players
    points = tuple(
        sum(forfeit if s.forfeits(i) else (h.scores or zeros)[s.seat] for i, h in enumerate(hands)) for s in seats
    )
    moons = tuple(sum(h.shooter == s.seat and not s.forfeits(i) for i, h in enumerate(hands)) for s in seats)
    return points, moons


class PlayerCheckError(ValueError):
    """A player that cannot play at all (an unknown level, a bot that cannot start or answer): found before any work."""


def check_players(specs: Iterable[str], budget: float | None = None, rules: Rules | None = None) -> None:
    """Make each distinct player once, so that an unknown level fails before any work starts; with ``rules``,
    ask each ``cmd:`` and ``py:`` player for one move (the first decision of a game under those rules), so
    that a bot that cannot start or answer fails here too. Raises :class:`PlayerCheckError` naming it."""
    for spec in dict.fromkeys(specs):
        try:
            parsed = parse_player(spec)
            options = {"on_fault": "raise"} if parsed.kind == "cmd" else {}
            player = make_player(parsed, seed=0, time_budget=budget, **options)
        except Exception as exc:  # noqa: BLE001 - a py: factory may raise anything: name it and stop
            raise PlayerCheckError(f"{spec}: {exc}" if spec not in str(exc) else str(exc)) from None
        try:
            if rules is not None and parsed.kind != "level":
                seats = [TableSeat(player, 0, s, 0, "stop") for s in range(rules.players)]
                try:
                    drive_table(Game(rules, seed=0), seats, moves=1)
                except SeatFaultError as exc:
                    raise PlayerCheckError(
                        f"{parsed.label} cannot play: {exc.fault.words()} (asked for its first move before the "
                        "tournament, as a check)"
                    ) from None
        finally:
            close_player(player)


def close_player(player: Player) -> None:
    # External players (``cmd:``) hold a process; close whatever offers it, unless it is kept for later tables.
    close = getattr(player, "close", None)
    if callable(close) and not is_kept(player):
        close()


# -- bot processes kept for the whole tournament ------------------------------------------------------------

_KEPT: dict[tuple[str, float | None, int, int], Player] = {}
_CLEANUP: list[bool] = []


def seat_player(spec: str, index: int, seat: int, seed: int, budget: float | None) -> Player:
    """The player for player ``index``'s ``spec`` in ``seat`` of a new table. A ``cmd:`` bot is kept: the
    same process plays this seat for this player at every table this worker plays, told of each new game."""
    parsed = parse_player(spec)
    if parsed.kind != "cmd":
        return make_player(parsed, seed=seed, time_budget=budget)
    key = (spec, budget, index, seat)
    bot = _KEPT.get(key)
    if bot is None:
        if not _CLEANUP:
            from multiprocessing import util

            # A worker process ends through multiprocessing's exit path (finalizers), this one through atexit.
            util.Finalize(None, close_kept, exitpriority=10)
            atexit.register(close_kept)
            _CLEANUP.append(True)
        bot = _KEPT[key] = make_player(parsed, seed=seed, time_budget=budget, on_fault="raise")
    bot.new_game()  # type: ignore[attr-defined]
    return bot


def is_kept(player: Player) -> bool:
    """True for a player :func:`close_kept` stops (so a table must not close it)."""
    return any(player is kept for kept in _KEPT.values())


def close_kept() -> None:
    """Say bye to every kept bot and stop it."""
    kept = list(_KEPT.values())
    _KEPT.clear()
    for bot in kept:
        bot.close()  # type: ignore[attr-defined]

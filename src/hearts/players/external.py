"""A seat played by an outside program that speaks the bot protocol (``docs/bot-protocol.md``).

:class:`ExternalPlayer` starts the program once (on its first decision) and
reuses it for every decision: it writes JSON lines to the program's stdin and
reads one answer line per decision from its stdout, within a time limit. One
process can play many games in a row (a tournament keeps one per seat): call
:meth:`ExternalPlayer.new_game` between games and the bot is told with a
``game`` message. A bot that cannot start, crashes, hangs past its limit, or
answers with a malformed or illegal move is *faulted*: the fault is logged and
kept on the player (:attr:`ExternalPlayer.faults`,
:attr:`ExternalPlayer.fault_report`) and the program is stopped; then either a
fallback computer player takes the seat for the rest of the game, so the game
goes on (``on_fault="fallback"``, the default), or :class:`BotFaultError` is
raised for the caller to decide (``on_fault="raise"``, what tournaments use).

Security: the command is run as given, with the rights of this process. Take it
only from the person running hearts (a command-line flag, a config file); never
from a network client. :func:`is_command_level` tells a server which level names
would start a program, so that it can refuse them.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hearts.bots.protocol import (
    MAX_LINE,
    BotAnswerError,
    bye_message,
    decide_message,
    encode,
    error_message,
    game_message,
    hello_message,
    parse_answer,
)
from hearts.core import Card, CardSet, MoonOption, SeatView
from hearts.players.base import Decision, Player

log = logging.getLogger("hearts.bots")

#: The prefix of a level name that runs a program: ``make_player("cmd:./mybot --fast")``.
COMMAND_PREFIX = "cmd:"


def is_command_level(level: str) -> bool:
    """True when ``level`` names code to run (``cmd:`` a program, ``py:`` a Python module, either
    with a ``NAME=`` in front) rather than one of our players: never take such a name from a client."""
    from hearts.players.registry import parse_player

    try:
        return parse_player(level).kind != "level"
    except ValueError:
        return level.strip().lower().startswith((COMMAND_PREFIX, "py:"))


@dataclass(frozen=True, slots=True)
class BotFault:
    """What went wrong with a bot, for the log and the tournament's report."""

    kind: str  #: "start", "crash", "timeout", "malformed" or "illegal"
    message: str  #: what the bot did, in words
    decision: int  #: the number of the decision it failed (1 is the first)
    hand_number: int  #: the hand (1-based) in which it failed
    stderr_tail: tuple[str, ...] = field(default=())  #: the last lines the bot wrote to stderr

    def __str__(self) -> str:
        text = f"{self.kind} at decision {self.decision} (hand {self.hand_number}): {self.message}"
        if self.stderr_tail:
            text += "\n  bot stderr (last lines):\n" + "\n".join("    " + line for line in self.stderr_tail)
        return text


class BotFaultError(Exception):
    """Raised by an :class:`ExternalPlayer` made with ``on_fault="raise"`` when its bot faults."""

    def __init__(self, fault: BotFault) -> None:
        super().__init__(str(fault))
        self.fault = fault

    def __reduce__(self) -> tuple[object, ...]:  # crosses process boundaries whole
        return (BotFaultError, (self.fault,))


class ExternalPlayer(Player):
    """Plays a seat by running ``command`` (a string split like a shell would, or an argv list).

    ``time_limit`` is the seconds allowed per decision; the first decision also gets
    ``startup_time`` for the program to start (an interpreter, a JIT). ``fallback`` is
    the level (or :class:`Player`) that takes over after a fault: by default ``medium``
    where that level exists, else ``random``. ``seed`` seeds the fallback. With
    ``on_fault="raise"`` there is no fallback: a fault raises :class:`BotFaultError`.
    """

    name = "external"

    def __init__(
        self,
        command: str | Sequence[str],
        seed: int | None = None,
        time_budget: float | None = None,
        time_limit: float | None = None,
        startup_time: float = 10.0,
        fallback: str | Player | None = None,
        label: str | None = None,
        cwd: str | None = None,
        on_fault: str = "fallback",
    ) -> None:
        super().__init__(seed=seed, time_budget=time_budget)
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError("an external player needs a command to run, got an empty one")
        self.argv = argv
        self.label = label or os.path.basename(argv[0])
        self.name = f"cmd:{self.label}"
        if time_limit is None:
            # A tournament's time budget is what our own players may think; a bot gets at least twice
            # that (and at least 2 s) since it also pays for the pipe and its own start of each turn.
            time_limit = 2.0 if time_budget is None else max(2.0, 2.0 * time_budget)
        limit = time_limit
        if not limit > 0 or not startup_time >= 0:
            raise ValueError(f"time limits must be positive: time_limit={limit!r}, startup_time={startup_time!r}")
        self.time_limit = float(limit)
        self.startup_time = float(startup_time)
        self.cwd = cwd
        if on_fault not in ("fallback", "raise"):
            raise ValueError(f"on_fault must be 'fallback' or 'raise', not {on_fault!r}")
        self.on_fault = on_fault
        self._fallback_spec = fallback
        self._fallback: Player | None = None
        self.faults: list[BotFault] = []  #: every fault, over every game this player sat
        self.decisions = 0  #: decisions asked of the bot, over every process
        self._asked = 0  #: decisions asked of the running process: the next ``id`` less one
        self.starts = 0  #: processes started
        self.games = 0  #: games announced to the running process
        self._down = False  #: faulted in this game
        self._announced = False  #: the bot has been told of this game
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._readers: list[threading.Thread] = []

    # -- state -------------------------------------------------------------------------

    @property
    def faulted(self) -> bool:
        """True once the bot has faulted in this game: the fallback plays from then on."""
        return self._down

    @property
    def fault_report(self) -> str | None:
        """The latest fault in words, for the log (None while the bot has never faulted)."""
        if not self.faults:
            return None
        text = f"bot {self.label!r} ({shlex.join(self.argv)}) faulted: {self.faults[-1]}"
        if self.on_fault == "fallback":
            text += f"; {self.fallback.name} played the seat from then on"
        return text

    def new_game(self) -> None:
        """A new game starts for this seat: the bot (restarted if it faulted) is told so before its next decision."""
        self._down = False
        self._announced = False

    @property
    def fallback(self) -> Player:
        if self._fallback is None:
            spec = self._fallback_spec
            if isinstance(spec, Player):
                self._fallback = spec
            else:
                from hearts.players.registry import LEVELS, make_player

                level = spec if spec is not None else ("medium" if "medium" in LEVELS else "random")
                self._fallback = make_player(level, seed=self.seed)
        return self._fallback

    # -- the process -----------------------------------------------------------------------

    def _start(self, view: SeatView) -> None:
        self.starts += 1
        self.games = 0  # a new process counts its games from 1
        self._stderr.clear()  # a fault's stderr tail is its own process's (a kept bot restarts after a fault)
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=self.cwd,
                start_new_session=True,  # its own process group, so stopping it stops its children too
            )
        except OSError as exc:
            raise _Fault("start", f"cannot start {shlex.join(self.argv)}: {exc.strerror or exc}") from None
        proc = self._proc
        assert proc.stdout is not None and proc.stderr is not None
        self._readers = [
            threading.Thread(target=self._read_stdout, args=(proc.stdout,), daemon=True),
            threading.Thread(target=self._read_stderr, args=(proc.stderr,), daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        self._send(hello_message(view, self.time_limit, self.startup_time))

    def _read_stdout(self, stream: object) -> None:
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)  # type: ignore[attr-defined]
                if not line:
                    break
                if line.strip():
                    self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _read_stderr(self, stream: object) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in stream:  # type: ignore[attr-defined]
                self._stderr.append(line.rstrip("\n")[:300])

    def _send(self, message: dict[str, object]) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(encode(message))
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise _Fault("crash", f"the bot closed its input{self._exit_words()}") from None

    def _exit_words(self) -> str:
        proc = self._proc
        if proc is None:
            return ""
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.2)
        code = proc.poll()
        if code is None:
            return ""
        if code < 0:
            with contextlib.suppress(ValueError):
                return f" (killed by {signal.Signals(-code).name})"
        return f" (exit status {code})"

    def _receive(self, limit: float) -> str:
        deadline = time.monotonic() + limit
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise _Fault("timeout", f"no answer within {limit:g} s") from None
        if line is None:
            raise _Fault("crash", f"the bot exited without answering{self._exit_words()}")
        if len(line) > MAX_LINE:
            raise _Fault("malformed", f"an answer line longer than {MAX_LINE} characters")
        return line

    def _stop(self, reason: str) -> None:
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        self._asked = 0  # a new process counts its decisions (the ids) from 1 again
        with contextlib.suppress(Exception):
            assert proc.stdin is not None
            proc.stdin.write(encode(bye_message(reason)))
            proc.stdin.flush()
            proc.stdin.close()
        try:
            proc.wait(timeout=1.0 if reason == "done" else 0.2)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=2.0)
        for reader in self._readers:  # let them take the last lines (stderr above all) before the pipes close
            reader.join(timeout=0.5)
        for stream in (proc.stdout, proc.stderr):
            with contextlib.suppress(Exception):
                stream.close()  # type: ignore[union-attr]

    def close(self) -> None:
        """Tell the bot the game is over and stop it (it gets a second to exit on its own)."""
        self._stop("done")

    def __enter__(self) -> ExternalPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._stop("done")

    # -- deciding --------------------------------------------------------------------------

    def decide(self, view: SeatView) -> Decision:
        """The bot's move for ``view``, or the fallback's once the bot has faulted."""
        if self.faulted:
            if self.on_fault == "raise":
                raise BotFaultError(self.faults[-1])
            return self.fallback.decide(view)
        self.decisions += 1
        self._asked += 1
        number = self._asked
        try:
            limit = self.time_limit
            if self._proc is None:
                self._start(view)
                limit += self.startup_time
            if not self._announced:
                self.games += 1
                self._send(game_message(self.games, view))
                self._announced = True
            self._send(decide_message(number, view, self.time_limit))
            line = self._receive(limit)
            try:
                move, reason = parse_answer(line, view)
            except BotAnswerError as exc:
                raise _Fault(exc.kind, exc.message) from None
            return Decision(move, reason or f"{self.label}'s move")
        except _Fault as fault:
            return self._take_over(view, number, fault)

    def _take_over(self, view: SeatView, number: int, fault: _Fault) -> Decision:
        if self._proc is not None and fault.kind in ("malformed", "illegal"):
            with contextlib.suppress(_Fault):
                self._send(error_message(number, fault.kind, fault.message))
        self._stop("fault")
        record = BotFault(fault.kind, fault.message, number, view.hand_number + 1, tuple(self._stderr))
        self.faults.append(record)
        self._down = True
        # With on_fault="raise" the caller reports the fault itself (a tournament names its deal and seat).
        log.log(logging.WARNING if self.on_fault == "fallback" else logging.INFO, "%s", self.fault_report)
        if self.on_fault == "raise":
            raise BotFaultError(record)
        decision = self.fallback.decide(view)
        return Decision(decision.move, f"{self.fallback.name} for faulted bot {self.label}: {decision.reason}")

    # The base class asks for these; every decision goes through decide() above.
    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        decision = self.decide(view)
        return decision.move.cards, decision.reason  # type: ignore[union-attr]

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        decision = self.decide(view)
        return decision.move.card, decision.reason  # type: ignore[union-attr]

    def choose_moon(self, view: SeatView) -> tuple[MoonOption, str]:
        decision = self.decide(view)
        return decision.move.option, decision.reason  # type: ignore[union-attr]

    def __repr__(self) -> str:
        return f"ExternalPlayer({shlex.join(self.argv)!r}, time_limit={self.time_limit:g})"


class _Fault(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def command_player(
    level: str, seed: int | None = None, time_budget: float | None = None, **options: Any
) -> ExternalPlayer:
    """The player for a ``cmd:COMMAND`` spec (``NAME=cmd:COMMAND`` names it); ``options`` go to
    :class:`ExternalPlayer` (``time_limit``, ``startup_time``, ``fallback``, ``on_fault``, ...)."""
    from hearts.players.registry import parse_player

    spec = parse_player(level)
    if spec.kind != "cmd":
        raise ValueError(f"not a command level: {level!r} (expected '{COMMAND_PREFIX}COMMAND')")
    options.setdefault("label", spec.name)
    return ExternalPlayer(spec.target, seed=seed, time_budget=time_budget, **options)


__all__ = ["BotFault", "BotFaultError", "COMMAND_PREFIX", "ExternalPlayer", "command_player", "is_command_level"]

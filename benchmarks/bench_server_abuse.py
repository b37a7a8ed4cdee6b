"""A hint storm at one table while other tables play: does the storm slow the others down?

Starts ``hearts serve`` on a loopback port (pause 0) and N *other* tables, each one websocket client
in seat 0 (it thinks about ``--delay`` seconds, a person's pace, then plays a random legal card) and
three computer seats of ``--level``; when a game ends its client starts another.
Then two phases of ``--seconds`` each:

* **quiet**: only the other tables play;
* **storm**: one more table, four person seats, gets ``--storm`` websockets (spread over its seats)
  that each re-send ``hint`` the moment the last answer (a hint or an error) arrives; one connection
  per seat also plays the hinted move, so the seat's situation keeps changing and hints must keep
  being worked out. Connections over the server's limits are refused (counted).

For the other tables it prints the *move latency*: at each table, the time from one move's update
to the next one's reaching its client (a computer seat thinking and moving, or the client's own move
stored and announced: from sending it), median and p99, in each phase, and their ratio. The aim is a storm p99
within 1.5 times the quiet one. Loopback only; the clients share the machine with the server.

    python3 benchmarks/bench_server_abuse.py                          # 10 other tables, 2 x 20 s
    python3 benchmarks/bench_server_abuse.py --tables 50 --seconds 30 # the issue's 50 tables
    python3 benchmarks/bench_server_abuse.py --url http://127.0.0.1:8123  # a server started by hand
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server_load import cpu_seconds, free_port, mover_of, post  # noqa: E402


@dataclass
class Figures:
    gaps: dict[str, list[float]] = field(default_factory=lambda: {"quiet": [], "storm": []})
    moves: dict[str, int] = field(default_factory=lambda: {"quiet": 0, "storm": 0})
    phase: str = "warm-up"
    games_over: int = 0
    errors: int = 0
    hints: int = 0  # hint answers the storm got
    storm_errors: int = 0  # error answers the storm got (a hint still being worked out, not your turn, ...)
    storm_moves: int = 0
    closed: dict[int | None, int] = field(default_factory=dict)  # storm connections the server closed, by close code


async def player(base: str, level: str, delay: float, figures: Figures, rng: random.Random, stop: asyncio.Event) -> None:
    """Seat 0 of an other table, game after game: thinks about ``delay`` seconds, then plays. Notes each
    move's latency: a computer's from the update before it, its own from sending it."""
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": level}] * 3
    while not stop.is_set():
        table = await asyncio.to_thread(post, f"{base}/api/tables", {"seats": seats})
        uri = base.replace("http://", "ws://") + f"/ws/{table['seats'][0]['token']}"
        async with websockets.connect(uri, max_queue=None, compression=None) as ws:
            clock = {"sent": 0.0}
            last = time.perf_counter()
            waiting = False  # our move is on its way (or being thought about): send no other
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                m = json.loads(text)
                if m["type"] == "error":
                    figures.errors += 1
                    waiting = False
                    if figures.errors <= 3:
                        print("error from the server:", m["message"], file=sys.stderr)
                    continue
                if m["type"] not in ("welcome", "update"):
                    continue
                mover = mover_of(m["events"]) if m["type"] == "update" else None
                if m["type"] == "update" and figures.phase in figures.gaps:
                    figures.gaps[figures.phase].append(now - (clock["sent"] if mover == 0 else last))
                    figures.moves[figures.phase] += 1
                if mover == 0:
                    waiting = False
                last = now
                view = m["view"]
                if view["phase"] == "game-over":
                    figures.games_over += 1
                    break
                if 0 in view["to_move"] and not waiting:
                    if view["phase"] == "pass":
                        move = {"type": "pass", "cards": rng.sample(view["hand"], view["rules"]["pass_count"])}
                    elif view["phase"] == "play":
                        move = {"type": "play", "card": rng.choice(view["legal"])}
                    else:
                        move = {"type": "moon", "option": view["moon_options"][0]}
                    waiting = True
                    think = rng.uniform(0.5, 1.5) * delay  # a person's thinking time
                    asyncio.create_task(send_later(ws, {**move, "seq": m["seq"]}, think, clock))


async def send_later(ws: Any, message: dict[str, Any], delay: float, clock: dict[str, float]) -> None:
    """Send ``message`` after ``delay`` seconds (while the client keeps reading), noting when it went."""
    await asyncio.sleep(delay)
    clock["sent"] = time.perf_counter()
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws.send(json.dumps(message))


async def stormer(uri: str, plays: bool, figures: Figures, stop: asyncio.Event) -> None:
    """One storm connection: asks for a hint again the moment any answer comes; ``plays``: also plays
    the hint. Closed for flooding, it connects again; refused (over a limit), it gives up."""
    while not stop.is_set():
        try:
            async with websockets.connect(uri, max_queue=None, compression=None) as ws:
                seq = 0
                await ws.send(json.dumps({"type": "hint"}))
                while not stop.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), 1.0)
                    except TimeoutError:
                        await ws.send(json.dumps({"type": "hint"}))
                        continue
                    m = json.loads(text)
                    if "seq" in m:
                        seq = m["seq"]
                    if m["type"] == "hint":
                        figures.hints += 1
                        if plays:
                            await ws.send(json.dumps({**m["move"], "seq": seq}))
                            figures.storm_moves += 1
                    elif m["type"] == "error":
                        figures.storm_errors += 1
                    else:
                        continue
                    await ws.send(json.dumps({"type": "hint"}))
        except websockets.ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            figures.closed[code] = figures.closed.get(code, 0) + 1
            if code == 4429:
                return
            await asyncio.sleep(0.2)


def summary(gaps: list[float]) -> tuple[float, float]:
    lat = sorted(gaps)
    return statistics.median(lat) * 1000, lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000


async def storm_clients(uris: list[str], plays: bool, seconds: float) -> Figures:
    """The storm: one connection per link in ``uris``, for ``seconds``; the first four play their hints."""
    figures = Figures()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(stormer(uri, plays and i < 4, figures, stop)) for i, uri in enumerate(uris)]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return figures


def storm_process(uris: list[str], plays: bool, seconds: float, out: Any) -> None:
    """The storm in a process of its own, so that its clients do not slow the measuring clients' loop,
    at the lowest priority: on one machine its own CPU would otherwise be taken from the server, which
    a remote attacker's is not."""
    os.nice(19)
    f = asyncio.run(storm_clients(uris, plays, seconds))
    out.put({"hints": f.hints, "storm_errors": f.storm_errors, "storm_moves": f.storm_moves, "closed": f.closed})


async def run(args: argparse.Namespace, base: str) -> Figures:
    figures = Figures()
    storm = post(f"{base}/api/tables", {"seats": [{"kind": "human"}] * 4})
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(player(base, args.level, args.delay, figures, random.Random(i), stop))
        for i in range(args.tables)
    ]
    await asyncio.sleep(args.warmup)
    figures.phase = "quiet"
    await asyncio.sleep(args.seconds)
    figures.phase = "storm"
    links = [base.replace("http://", "ws://") + f"/ws/{storm['seats'][i % 4]['token']}" for i in range(args.storm)]
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    proc = ctx.Process(target=storm_process, args=(links, args.storm_plays, args.seconds, out), daemon=True)
    proc.start()
    await asyncio.sleep(args.seconds)
    figures.phase = "done"
    result = await asyncio.to_thread(out.get, True, 30)
    await asyncio.to_thread(proc.join, 10)
    for key, value in result.items():
        setattr(figures, key, value)
    stop.set()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, Exception):
            figures.errors += 1
            print("a client failed:", repr(outcome), file=sys.stderr)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10, help="other tables playing (the issue asks for 50)")
    parser.add_argument("--level", default="easy", help="level of the other tables' three computer seats")
    parser.add_argument("--delay", type=float, default=1.0, help="mean seconds each other table's client thinks before its move")
    parser.add_argument("--storm", type=int, default=24, help="websockets hammering the storm table with hints")
    parser.add_argument("--storm-plays", action=argparse.BooleanOptionalAction, default=True, help="one storm connection per seat plays each hint (so hints must keep being worked out)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase, quiet then storm")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before the quiet phase (connecting, first passes)")
    parser.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--url", default=None, help="a server already running at this URL (started with --pause 0) instead of starting one")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        proc = None
        if args.url:
            base = args.url.rstrip("/")
        else:
            port = free_port()
            proc = subprocess.Popen(
                [sys.executable, "-m", "hearts", "serve", "--port", str(port), "--db", args.db or f"sqlite:///{tmp}/abuse.db",
                 "--pause", "0", "--log-level", "warning", "--connections-per-address", "0"],
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
            base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(150):
                try:
                    urllib.request.urlopen(f"{base}/api/options", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.2)
            cpu0 = cpu_seconds(proc.pid) if proc else 0.0
            figures = asyncio.run(run(args, base))
            server_cpu = cpu_seconds(proc.pid) - cpu0 if proc else None
        finally:
            if proc:
                proc.terminate()
                proc.wait(10)
    print(
        f"{args.tables} other tables (1 client thinking {args.delay} s + 3 {args.level} computers each, pause 0, game after game); "
        f"storm: {args.storm} websockets on one table; {args.seconds:.0f} s per phase on {os.cpu_count()} cores"
    )
    quiet, storm = figures.gaps["quiet"], figures.gaps["storm"]
    if not quiet or not storm:
        print("no moves measured: lengthen --seconds or lower --tables")
        return
    q_med, q_p99 = summary(quiet)
    s_med, s_p99 = summary(storm)
    print(f"quiet: {figures.moves['quiet']} moves, move latency median {q_med:.1f} ms, p99 {q_p99:.1f} ms")
    print(f"storm: {figures.moves['storm']} moves, move latency median {s_med:.1f} ms, p99 {s_p99:.1f} ms")
    verdict = "met" if s_p99 <= 1.5 * q_p99 else "NOT met"
    print(f"storm / quiet: moves {figures.moves['storm'] / figures.moves['quiet']:.2f}x, median {s_med / q_med:.2f}x, p99 {s_p99 / q_p99:.2f}x (aim: p99 within 1.5x: {verdict})")
    print(
        f"the storm got {figures.hints} hints and {figures.storm_errors} errors, played {figures.storm_moves} moves; "
        f"connections closed by the server, by close code: {figures.closed} (4429: over a limit, 1008: flooding)"
    )
    cpu = f"server CPU {server_cpu:.1f} s" if server_cpu is not None else "server CPU not measured (--url)"
    print(f"{cpu}; other tables' games finished: {figures.games_over}; errors they got: {figures.errors}")


if __name__ == "__main__":
    main()

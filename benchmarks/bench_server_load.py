"""Load on one ``hearts serve`` process: M tables of 4 websocket clients each playing whole games at once.

Prints actions per second, the latency from a move being sent to every client of the table having the
update (median and p99), and the server's memory. Loopback only; the clients run in this process, so
on a small machine they share the CPU with the server (the figures are then a lower bound).

    python3 benchmarks/bench_server_load.py --tables 250 --games 1
    python3 benchmarks/bench_server_load.py --tables 50 --preset short   # a quicker run
    python3 benchmarks/bench_server_load.py --tables 250 --delay 1 --seconds 60 --warmup 10   # people's pace
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

from hearts.server.app import WARMED_UP


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> tuple[int, int]:
    """(current, peak) resident memory of ``pid`` in KiB, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def thread_cpu_seconds(pid: int) -> tuple[float, float]:
    """User + system CPU time of ``pid``'s main thread (the event loop) and of its other threads
    together (the writer, the checkpoints, the thinking threads), from /proc."""
    main = other = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
            seconds = (int(fields[11]) + int(fields[12])) / tick
            if int(tid) == pid:
                main += seconds
            else:
                other += seconds
    return main, other


def cpu_seconds(pid: int) -> float:
    """User + system CPU time ``pid`` has used, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=30).read())


def mover_of(events: list[dict[str, Any]]) -> int | None:
    """The seat whose move produced an update: the seat of its first event."""
    for e in events:
        if e["type"] in ("card_played", "cards_passed", "moon_chosen"):
            return e["seat"]
    return None


class Bench:
    def __init__(self) -> None:
        self.latencies: list[float] = []  # seconds, one per (action, client), after the warm-up
        self.all_latencies: list[float] = []  # the same over the whole run, the start burst included
        self.actions = 0
        self.errors = 0
        self.started = 0.0
        self.measure_from = 0.0  #: latencies before this perf_counter time (the warm-up) are not kept
        self.server_pid: int | None = None  #: the server this benchmark started (its CPU is read from /proc)
        self.steady: tuple[float, int] | None = None  #: (server CPU seconds, actions) when the warm-up ended


async def seat_client(
    uri: str, seat: int, sent: dict[int, float], bench: Bench, games_done: asyncio.Event, rng: random.Random, delay: float
) -> None:
    async with websockets.connect(uri, max_queue=None, compression=None) as ws:
        view: dict[str, Any] = {}
        seq = 0
        waiting = False  # a move of ours is on its way: do not send another until it is answered
        async for text in ws:
            now = time.perf_counter()
            m = json.loads(text)
            if m["type"] == "error":
                bench.errors += 1
                waiting = False
                if bench.errors <= 3:
                    print("error from the server:", m["message"], file=sys.stderr)
                continue
            if m["type"] not in ("welcome", "update"):
                continue
            view, seq = m["view"], m["seq"]
            if m["type"] == "update":
                mover = mover_of(m["events"])
                if mover is not None and mover in sent:
                    bench.all_latencies.append(now - sent[mover])
                    if now >= bench.measure_from:
                        bench.latencies.append(now - sent[mover])
                if mover == seat:
                    bench.actions += 1
                    waiting = False
            if view["phase"] == "game-over":
                games_done.set()
                return
            if seat in view["to_move"] and not waiting:
                if view["phase"] == "pass":
                    move = {"type": "pass", "cards": rng.sample(view["hand"], view["rules"]["pass_count"])}
                elif view["phase"] == "play":
                    move = {"type": "play", "card": rng.choice(view["legal"])}
                else:
                    move = {"type": "moon", "option": view["moon_options"][0]}
                waiting = True
                if delay:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * delay)  # a person's thinking time
                sent[seat] = time.perf_counter()
                await ws.send(json.dumps({**move, "seq": seq}))


async def run(args: argparse.Namespace, base: str, server_pid: int | None) -> Bench:
    bench = Bench()
    bench.server_pid = server_pid
    tables = [
        post(f"{base}/api/tables", {"preset": args.preset, "seats": [{"kind": "human"}] * 4, "seed": i})
        for i in range(args.tables)
    ]
    ws_base = base.replace("http://", "ws://")
    tasks = []
    for i, t in enumerate(tables):
        sent: dict[int, float] = {}
        done = asyncio.Event()
        for seat, s in enumerate(t["seats"]):
            tasks.append(seat_client(f"{ws_base}/ws/{s['token']}", seat, sent, bench, done, random.Random(i * 10 + seat), args.delay))
    bench.started = time.perf_counter()
    bench.measure_from = bench.started + args.warmup

    async def mark_steady() -> None:
        # The server's CPU and the actions so far when the warm-up ends: the start burst (tables created,
        # every client connecting and passing at once) apart from the steady play after it.
        await asyncio.sleep(args.warmup)
        if bench.server_pid is not None:
            bench.steady = (cpu_seconds(bench.server_pid), bench.actions)

    if args.warmup:
        tasks.append(mark_steady())
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), args.seconds)
    except TimeoutError:
        pass  # --seconds ran out: the figures cover what was played until then
    return bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=250, help="tables playing at once (4 clients each)")
    parser.add_argument("--preset", default="standard", help="rules preset of every table (short: games to 50)")
    parser.add_argument("--delay", type=float, default=0.0, help="mean seconds each client thinks before a move (0: at once)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this many seconds instead of at the games' end")
    parser.add_argument("--warmup", type=float, default=0.0, help="seconds at the start whose latencies are not kept (connecting, the first pass at every table at once)")
    parser.add_argument("--db", default=None, help="database URL for the server it starts (default: SQLite in a temporary folder)")
    parser.add_argument("--url", default=None, help="benchmark a server already running at this URL instead of starting one")
    parser.add_argument("--serve-option", action="append", default=[], help="one more option for the hearts serve it starts (repeatable), e.g. --serve-option=--no-warm-up")
    args = parser.parse_args()

    proc = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            base = args.url.rstrip("/")
        else:
            port = free_port()
            server_log = open(f"{tmp}/server.log", "w")  # noqa: SIM115 - open while the server runs
            proc = subprocess.Popen(
                [sys.executable, "-m", "hearts", "serve", "--port", str(port), "--db", args.db or f"sqlite:///{tmp}/bench.db", "--pause", "0", "--log-level", "info", "--connections-per-address", "0", *args.serve_option],
                env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=server_log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            base = f"http://127.0.0.1:{port}"
            for _ in range(150):
                try:
                    urllib.request.urlopen(f"{base}/api/options", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.2)
            # Measure a steady server: its start-up warm-up (loading the search kernels, holding the
            # interpreter lock for seconds) is over before the first client connects.
            for _ in range(0 if "--no-warm-up" in args.serve_option else 600):
                if WARMED_UP in Path(f"{tmp}/server.log").read_text():
                    break
                time.sleep(0.1)
        try:
            idle = rss_kib(proc.pid) if proc else None
            cpu0 = cpu_seconds(proc.pid) if proc else 0.0
            threads0 = thread_cpu_seconds(proc.pid) if proc else None
            own0 = time.process_time()
            start = time.perf_counter()
            bench = asyncio.run(run(args, base, proc.pid if proc else None))
            wall = time.perf_counter() - bench.started  # table creation excluded
            setup = bench.started - start
            mem = rss_kib(proc.pid) if proc else None
            server_cpu = cpu_seconds(proc.pid) - cpu0 if proc else None
            end_cpu = cpu_seconds(proc.pid) if proc else None
            threads = thread_cpu_seconds(proc.pid) if proc else None
            threads = (threads[0] - threads0[0], threads[1] - threads0[1]) if threads and threads0 else None
            client_cpu = time.process_time() - own0
        finally:
            if proc:
                proc.terminate()
                proc.wait(10)
                server_log.close()
        # The server's own figure for its writes (logged as it stops): how long commits took, apart
        # from the CPU the server and its clients share.
        writer = [line for line in Path(f"{tmp}/server.log").read_text().splitlines() if "writer: " in line] if proc else []
    lat = sorted(bench.latencies)
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    pace = f"clients think {args.delay} s a move on average" if args.delay else "clients move at once"
    span = f"for {args.seconds:.0f} s" if args.seconds else "one whole game each"
    print(f"tables: {args.tables} x 4 clients ({args.tables * 4} websockets), preset {args.preset}, {span}, {pace}; set-up {setup:.1f} s")
    print(f"actions: {bench.actions} in {wall:.1f} s = {bench.actions / wall:.0f} actions/s (each stored before it is acknowledged)")
    kept = f" after a {args.warmup:.0f} s warm-up" if args.warmup else ""
    if not lat:
        lat = [float("nan")]  # no move was answered (clients still thinking): only the CPU figures below count
    print(f"latency move -> every client's update{kept}: median {statistics.median(lat) * 1000:.1f} ms, p99 {p(0.99):.1f} ms, max {lat[-1] * 1000:.1f} ms ({len(lat)} deliveries)")
    if args.warmup and bench.all_latencies:
        whole = sorted(bench.all_latencies)
        print(f"latency over the whole run, the start burst included: p99 {whole[min(len(whole) - 1, int(0.99 * len(whole)))] * 1000:.1f} ms, max {whole[-1] * 1000:.1f} ms ({len(whole)} deliveries)")
    print(f"errors: {bench.errors}")
    if server_cpu is not None:
        print(
            f"CPU: server {server_cpu:.1f} s ({server_cpu / max(bench.actions, 1) * 1e6:.0f} us an action), "
            f"clients {client_cpu:.1f} s, over {wall:.1f} s of wall time on {os.cpu_count()} cores"
        )
    if bench.steady and end_cpu is not None and bench.actions > bench.steady[1]:
        cpu, done = end_cpu - bench.steady[0], bench.actions - bench.steady[1]
        print(f"server CPU after the {args.warmup:.0f} s warm-up: {cpu:.1f} s for {done} actions ({cpu / done * 1e6:.0f} us an action)")
    if threads:
        print(f"server CPU by thread: event loop {threads[0] / max(bench.actions, 1) * 1e6:.0f} us an action, other threads {threads[1] / max(bench.actions, 1) * 1e6:.0f} us")
    if writer:
        print("server's " + writer[-1][writer[-1].index("writer: ") :])
    if idle and mem:
        print(f"server memory: {idle[0] / 1024:.0f} MiB idle, {mem[0] / 1024:.0f} MiB after, peak {mem[1] / 1024:.0f} MiB")


if __name__ == "__main__":
    main()

"""The lobby's fan-out: how long a change takes to reach every watcher, and the server's CPU per change.

Starts a fresh ``hearts serve`` (its own database, per-address limits lifted, no warm-up), opens
``--tables`` public tables waiting for people (each made by a browser identity of its own, two
person seats and two computers, a long wait), then connects ``--watchers`` lobby websockets. Each
change is a person taking a free seat (``POST /api/tables/{id}/sit``); its fan-out time is from the
request until every watcher has the table's new entry. The server's CPU per change is its process's
user and system time over the changes, divided by their number. The peer in the same run is the
same server with one watcher, so the ratio says what the watchers cost.

    python3 benchmarks/bench_server_lobby.py                        # 200 tables, 100 watchers, 100 changes
    python3 benchmarks/bench_server_lobby.py --tables 20 --watchers 10 --changes 10

With ``--flood``, instead: the computer players' pace at ``--tables`` tables of four computers (the
server's default pause, 0.6 s a card) over ``--seconds``, quiet, then while one address asks for
``--rate`` new tables a second (no identity cookie: the address's limit applies), and their ratio.

    python3 benchmarks/bench_server_lobby.py --flood --tables 20 --rate 5 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any

import websockets

from hearts.server.privacy import PLAYER_COOKIE, new_identity


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(url: str, identity: str, body: dict[str, Any] | None = None, method: str = "POST") -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Cookie": f"{PLAYER_COOKIE}={identity}"}
    with urllib.request.urlopen(urllib.request.Request(url, data=data, method=method, headers=headers), timeout=30) as r:
        return json.loads(r.read())


def cpu_seconds(pid: int) -> float:
    """User and system time of process ``pid`` so far (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def watch(uri: str, seen: dict[str, list[float]], ready: asyncio.Event, count: list[int], total: int) -> None:
    async with websockets.connect(uri, max_size=2**24) as ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "lobby"
        count[0] += 1
        if count[0] == total:
            ready.set()
        async for text in ws:
            m = json.loads(text)
            if m["type"] == "listed" and m["table"]["people"] == 2:
                seen.setdefault(m["table"]["id"], []).append(time.perf_counter())


async def measure(base: str, ws_base: str, pid: int, tables: list[str], watchers: int) -> tuple[list[float], float]:
    seen: dict[str, list[float]] = {}
    ready = asyncio.Event()
    count = [0]
    tasks = [asyncio.create_task(watch(f"{ws_base}/ws/lobby", seen, ready, count, watchers)) for _ in range(watchers)]
    await asyncio.wait_for(ready.wait(), 60)
    times = []
    cpu_before = cpu_seconds(pid)
    for table_id in tables:
        sitter = new_identity()
        await asyncio.to_thread(call, f"{base}/api/me", sitter, {"name": f"Sitter {table_id[:6]}"}, "PUT")
        started = time.perf_counter()
        await asyncio.to_thread(call, f"{base}/api/tables/{table_id}/sit", sitter, {})
        deadline = time.monotonic() + 30
        while len(seen.get(table_id, [])) < watchers:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {len(seen.get(table_id, []))} of {watchers} watchers saw table {table_id}")
            await asyncio.sleep(0.001)
        times.append(max(seen[table_id]) - started)
    cpu = (cpu_seconds(pid) - cpu_before) / len(tables)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return times, cpu


def run(tables: int, watchers: int, changes: int) -> dict[str, Any]:
    proc, base, ws_base, tmp = start("--pause", "0", "--connections-per-address", "0")
    try:
        seats = [{"kind": "human"}] * 2 + [{"kind": "computer", "level": "random"}] * 2
        made = [
            call(f"{base}/api/tables", new_identity(), {"seats": seats, "options": {"public": True, "wait": 600}})["id"]
            for _ in range(tables)
        ]
        time.sleep(2.0)  # the computers' passes and the lobby rows settle
        out = {}
        half = changes // 2
        for label, count, chosen in (("peer: 1 watcher", 1, made[:half]), (f"{watchers} watchers", watchers, made[half:changes])):
            times, cpu = asyncio.run(measure(base, ws_base, proc.pid, chosen, count))
            times.sort()
            out[label] = {
                "changes": len(times),
                "fanout_p50_ms": 1000 * statistics.median(times),
                "fanout_p99_ms": 1000 * times[min(len(times) - 1, int(0.99 * len(times)))],
                "cpu_ms_per_change": 1000 * cpu,
            }
        return out
    finally:
        proc.terminate()
        proc.wait(10)
        tmp.cleanup()


def start(*options: str) -> tuple[subprocess.Popen[bytes], str, str, tempfile.TemporaryDirectory[str]]:
    port = free_port()
    tmp = tempfile.TemporaryDirectory()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hearts", "serve", "--port", str(port), "--db", f"sqlite:///{tmp.name}/h.db",
         "--log-level", "warning", "--no-warm-up", *options],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/options", timeout=1).read()
            return proc, base, f"ws://127.0.0.1:{port}", tmp
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("hearts serve did not start") from None
            time.sleep(0.2)


def flood(tables: int, rate: float, seconds: float) -> dict[str, Any]:
    """Moves made at ``tables`` computer tables in ``seconds``, quiet and under a table-creation flood."""
    proc, base, _, tmp = start()
    seats = [{"kind": "computer", "level": "random"}] * 4
    try:
        watched = [call(f"{base}/api/tables", new_identity(), {"seats": seats, "rules": {"target": 10_000}})["id"] for _ in range(tables)]

        def moves() -> int:
            return sum(json.loads(urllib.request.urlopen(f"{base}/api/tables/{t}", timeout=30).read())["seq"] for t in watched)

        time.sleep(3.0)
        start_moves = moves()
        time.sleep(seconds)
        quiet = moves() - start_moves
        made = refused = 0
        start_moves = moves()
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            tick = time.monotonic()
            for _ in range(int(rate)):
                req = urllib.request.Request(f"{base}/api/tables", data=json.dumps({"seats": seats}).encode(), headers={"Content-Type": "application/json"})
                try:
                    urllib.request.urlopen(req, timeout=30).read()
                    made += 1
                except urllib.error.HTTPError as exc:
                    refused += exc.code == 429
            time.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
        flooded = moves() - start_moves
        return {"quiet": quiet, "flood": flooded, "made": made, "refused": refused}
    finally:
        proc.terminate()
        proc.wait(10)
        tmp.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="open public tables in the lobby")
    parser.add_argument("--watchers", type=int, default=100, help="lobby websockets")
    parser.add_argument("--changes", type=int, default=100, help="seats taken (half with one watcher, half with all)")
    parser.add_argument("--flood", action="store_true", help="measure the computers' pace under a table-creation flood instead")
    parser.add_argument("--rate", type=float, default=5.0, help="with --flood: tables asked for a second from one address")
    parser.add_argument("--seconds", type=float, default=20.0, help="with --flood: length of each phase")
    args = parser.parse_args()
    if args.flood:
        r = flood(args.tables, args.rate, args.seconds)
        print(f"computer moves at {args.tables} tables in {args.seconds:g} s: quiet {r['quiet']}, while one address asked for "
              f"{args.rate:g} tables a second {r['flood']} (x{r['flood'] / max(1, r['quiet']):.2f}); tables made {r['made']}, refused {r['refused']}")
        return
    if args.changes > args.tables:
        parser.error("--changes may not exceed --tables: each change takes a table's free seat")
    results = run(args.tables, args.watchers, args.changes)
    print(f"lobby fan-out, {args.tables} open public tables (each change: a seat taken, pushed to every watcher)")
    print(f"{'':18} {'changes':>8} {'p50 ms':>8} {'p99 ms':>8} {'server CPU ms/change':>21}")
    for label, r in results.items():
        print(f"{label:18} {r['changes']:>8} {r['fanout_p50_ms']:>8.1f} {r['fanout_p99_ms']:>8.1f} {r['cpu_ms_per_change']:>21.1f}")
    peer, full = results["peer: 1 watcher"], results[f"{args.watchers} watchers"]
    print(f"ratio to the peer: fan-out p99 x{full['fanout_p99_ms'] / peer['fanout_p99_ms']:.1f}, CPU per change x{full['cpu_ms_per_change'] / max(peer['cpu_ms_per_change'], 1e-9):.1f}")


if __name__ == "__main__":
    main()

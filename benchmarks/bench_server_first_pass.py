"""How long a new player waits for the computers' first pass after ``hearts serve`` starts.

Starts a fresh ``hearts serve`` (its own database, computer pause 0), waits until it answers, waits
``--delay`` seconds more, then twice: makes a quick game (one person against three computers of
``--level``) and times from the request to every computer seat having passed. The first table shows
what start-up costs (the compiled kernels still loading), the second the steady state (thinking).
Each setting is repeated ``--runs`` times; the medians are printed.

    python3 benchmarks/bench_server_first_pass.py                       # expert, warm-up on and off, delays 0 and 3 s
    python3 benchmarks/bench_server_first_pass.py --level hard --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def time_first_passes(level: str, delay: float, warm_up: bool) -> tuple[float, float]:
    """Seconds from creating a table to its computers having passed: the first table, the second."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "hearts", "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/h.db",
                   "--pause", "0", "--log-level", "warning", "--warm-up" if warm_up else "--no-warm-up"]  # fmt: skip
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            while True:
                try:
                    urllib.request.urlopen(url + "/api/options", timeout=1).read()
                    break
                except OSError:
                    if proc.poll() is not None:
                        raise RuntimeError("hearts serve did not start") from None
                    time.sleep(0.05)
            time.sleep(delay)
            times = []
            for _ in range(2):
                begun = time.monotonic()
                body = json.dumps({"level": level}).encode()
                request = urllib.request.Request(url + "/api/quick", data=body, headers={"Content-Type": "application/json"})
                token = json.loads(urllib.request.urlopen(request).read())["seats"][0]["token"]
                with connect(f"ws://127.0.0.1:{port}/ws/{token}") as ws:
                    while True:
                        view = json.loads(ws.recv(timeout=120)).get("view")
                        if view and all(view["has_passed"][1:]):
                            break
                times.append(time.monotonic() - begun)
            return times[0], times[1]
        finally:
            proc.terminate()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--delays", default="0,3", help="seconds after the server answers before the first table")
    args = parser.parse_args()
    print(f"{'delay':>6} {'warm-up':>8} {'first table':>12} {'second':>8}   ({args.level} computers, median of {args.runs})")
    for delay in (float(d) for d in args.delays.split(",")):
        for warm_up in (True, False):
            runs = [time_first_passes(args.level, delay, warm_up) for _ in range(args.runs)]
            first = statistics.median(r[0] for r in runs)
            second = statistics.median(r[1] for r in runs)
            print(f"{delay:>5.0f}s {'on' if warm_up else 'off':>8} {first:>11.2f}s {second:>7.2f}s", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()

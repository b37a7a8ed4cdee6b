"""What the server stores per game, and how fast it answers for a finished game's record and hands.

Plays one practice game (a fixed seed, so every run plays the same game) with four computer seats
to its end, then reports the bytes its rows hold (every column's length as SQLite's ``length()``
gives it, summed per table of the database) and the database file's size, and times ``GET /api/tables/{id}/record`` and
``GET /api/tables/{id}/hands/{n}``: the first request after a restart (cold) and the median of
repeated ones (warm), wall-clock and process CPU.

    python3 benchmarks/bench_server_storage.py                  # a standard game (about 10 s)
    python3 benchmarks/bench_server_storage.py --seed 5 --repeat 50
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, inspect, select, text

from hearts.server.app import create_app
from hearts.server.storage import metadata


def _timed(client: TestClient, path: str) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    r = client.get(path)
    assert r.status_code == 200, (path, r.status_code, r.text[:200])
    return 1000 * (time.perf_counter() - wall), 1000 * (time.process_time() - cpu)


def _row_bytes(url: str) -> dict[str, int]:
    """Bytes held by each table's rows: every column's length(), summed."""
    engine = create_engine(url)
    out = {}
    with engine.connect() as conn:
        found = inspect(engine)
        for name in metadata.tables:
            total = 0
            for c in (column["name"] for column in found.get_columns(name)):
                total += conn.execute(select(func.coalesce(func.sum(func.length(text(f'"{c}"'))), 0)).select_from(text(name))).scalar() or 0
            out[name] = int(total)
    engine.dispose()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        url = f"sqlite:///{db}"
        seats = [{"kind": "computer", "level": "random"}] * 4
        with TestClient(create_app(url, pause=0)) as c:
            table = c.post("/api/tables", json={"preset": "standard", "seats": seats, "seed": args.seed}).json()
            tid = table["id"]
            while (info := c.get(f"/api/tables/{tid}").json())["status"] != "over":
                time.sleep(0.1)
        hands = info["hands_done"]
        sizes = _row_bytes(url)
        print(f"one game of {hands} hands (seed {args.seed}): database file {db.stat().st_size:,} bytes")
        for name, size in sizes.items():
            print(f"  {name:16} {size:>9,} bytes")
        print(f"  {'all rows':16} {sum(sizes.values()):>9,} bytes, {sum(sizes.values()) / hands:,.0f} a hand")
        paths: dict[str, Any] = {"record": f"/api/tables/{tid}/record", "hands/n": f"/api/tables/{tid}/hands/{hands // 2}", "hands": f"/api/tables/{tid}/hands"}
        for label, path in paths.items():
            with TestClient(create_app(url, pause=0)) as c:  # a restart: nothing cached
                cold = _timed(c, path)
                warm = [_timed(c, path) for _ in range(args.repeat)]
            print(
                f"GET {label:8} cold {cold[0]:6.1f} ms (cpu {cold[1]:6.1f})   warm median "
                f"{statistics.median(w for w, _ in warm):6.2f} ms (cpu {statistics.median(c_ for _, c_ in warm):6.2f})"
            )


if __name__ == "__main__":
    main()

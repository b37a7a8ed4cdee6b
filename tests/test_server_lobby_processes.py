"""Two ``hearts serve`` processes on one database show one lobby, one set of names and one
leaderboard: a public table made at one is listed (and pushed to the lobby's websocket) by the other,
and each table is played by the process that made it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from tests.test_server_process import free_port, start_server

from hearts.server.privacy import PLAYER_COOKIE, new_identity

websockets = pytest.importorskip("websockets")

pytestmark = pytest.mark.slow


def _start(db: Path, port: int, instance: str) -> subprocess.Popen[bytes]:
    return start_server(db, port, "--no-warm-up", "--instance", instance)


def _call(url: str, identity: str, body: dict[str, Any] | None = None, method: str = "GET") -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", "Cookie": f"{PLAYER_COOKIE}={identity}"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


async def _lobby_until(uri: str, make: Any, table_id: list[str], limit: float = 10.0) -> dict[str, Any]:
    """Watch the lobby at ``uri``; once its first snapshot came, call ``make`` (which makes a table
    elsewhere and puts its id in ``table_id``); return the pushed entry of that table."""
    async with websockets.connect(uri) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), limit))
        assert first["type"] == "lobby"
        await asyncio.to_thread(make)
        deadline = time.monotonic() + limit
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
            if m["type"] == "listed" and table_id and m["table"]["id"] == table_id[0]:
                return dict(m["table"])


def test_two_processes_share_one_lobby_names_and_ratings(tmp_path: Path) -> None:
    db = tmp_path / "hearts.db"
    ports = free_port(), free_port()
    a = _start(db, ports[0], "a")
    b = _start(db, ports[1], "b")
    try:
        url_a, url_b = (f"http://127.0.0.1:{p}" for p in ports)
        ann, bob = new_identity(), new_identity()
        assert _call(f"{url_a}/api/me", ann, {"name": "Ann"}, "PUT")[0] == 200
        status, body = _call(f"{url_b}/api/me", bob, {"name": "ann"}, "PUT")  # the other process knows the name
        assert status == 422 and "taken" in body["detail"]
        made: list[str] = []

        def make() -> None:
            seats = [{"kind": "human"}] * 2 + [{"kind": "computer", "level": "random"}] * 2
            status, table = _call(f"{url_a}/api/tables", ann, {"seats": seats, "options": {"public": True}}, "POST")
            assert status == 200, table
            made.append(table["id"])

        entry = asyncio.run(_lobby_until(f"ws://127.0.0.1:{ports[1]}/ws/lobby", make, made))
        assert entry["seats"][0]["name"] == "Ann" and entry["free"] == 1
        assert [t["id"] for t in _call(f"{url_b}/api/lobby", bob)[1]["tables"]] == made
        # The table is played where it was made: its facts and seats answer there, not at the other.
        assert _call(f"{url_a}/api/tables/{made[0]}", bob)[0] == 200
        assert _call(f"{url_b}/api/tables/{made[0]}", bob)[0] == 404
        assert _call(f"{url_b}/api/leaderboard", bob)[1] == _call(f"{url_a}/api/leaderboard", bob)[1]
    finally:
        for proc in (a, b):
            proc.terminate()
            proc.wait(10)

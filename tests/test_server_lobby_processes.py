"""Two ``hearts serve`` processes on one database show one lobby, one set of names and one
leaderboard: a public table made at one is listed (and pushed to the lobby's websocket) by the other,
each table is played by the process that made it, and a game rated at one puts its player on the
other's leaderboard. On SQLite always, and on PostgreSQL when ``HEARTS_TEST_PG_URL`` names a database
it may fill (as ``tests/test_server_postgres.py``)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from tests.test_server_process import free_port, start_server

from hearts.server.privacy import PLAYER_COOKIE, new_identity

websockets = pytest.importorskip("websockets")

pytestmark = pytest.mark.slow

PG_URL = os.environ.get("HEARTS_TEST_PG_URL")


def _start(db: Path, url: str, port: int, instance: str) -> subprocess.Popen[bytes]:
    # start_server names the SQLite file ``db``; a later --db (the last one given counts) puts both
    # processes on the database under test instead.
    return start_server(db, port, "--no-warm-up", "--instance", instance, "--leaderboard-min-games", "1", "--db", url)


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


def _board_row(url: str, identity: str, name: str) -> dict[str, Any] | None:
    rows = _call(f"{url}/api/leaderboard", identity)[1]["players"]
    return next((row for row in rows if row["name"] == name), None)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a database the two processes share."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'hearts.db'}"
    if not PG_URL:
        pytest.skip("HEARTS_TEST_PG_URL is not set (no PostgreSQL server to test against)")
    pytest.importorskip("psycopg")
    return PG_URL


def test_two_processes_share_one_lobby_names_and_ratings(tmp_path: Path, database: str) -> None:
    ports = free_port(), free_port()
    a = _start(tmp_path / "hearts.db", database, ports[0], "a")
    b = _start(tmp_path / "hearts.db", database, ports[1], "b")
    try:
        url_a, url_b = (f"http://127.0.0.1:{p}" for p in ports)
        ann, bob = new_identity(), new_identity()
        name = f"Ann {secrets.randbelow(10**6)}"  # a shared PostgreSQL may hold the names of earlier runs
        assert _call(f"{url_a}/api/me", ann, {"name": name}, "PUT")[0] == 200
        status, body = _call(f"{url_b}/api/me", bob, {"name": name.upper()}, "PUT")  # the other process knows the name
        assert status == 422 and "taken" in body["detail"]
        made: list[str] = []

        def make() -> None:
            seats = [{"kind": "human"}] * 2 + [{"kind": "computer", "level": "random"}] * 2
            status, table = _call(f"{url_a}/api/tables", ann, {"seats": seats, "options": {"public": True}}, "POST")
            assert status == 200, table
            made.append(table["id"])

        entry = asyncio.run(_lobby_until(f"ws://127.0.0.1:{ports[1]}/ws/lobby", make, made))
        assert entry["seats"][0]["name"] == name and entry["free"] == 1
        assert made[0] in [t["id"] for t in _call(f"{url_b}/api/lobby", bob)[1]["tables"]]
        # The table is played where it was made: its facts and seats answer there, not at the other.
        assert _call(f"{url_a}/api/tables/{made[0]}", bob)[0] == 200
        assert _call(f"{url_b}/api/tables/{made[0]}", bob)[0] == 404
        # A game rated at A: Ann's public game to 10, which her stand-in plays for her (she never
        # connects), against random computers. B's leaderboard lists her with A's figures.
        game = {
            "preset": "short", "rules": {"target": 10}, "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3,
            "options": {"public": True, "clock": None, "standin_after": 0, "standin_level": "random"},
        }  # fmt: skip
        status, table = _call(f"{url_a}/api/tables", ann, game, "POST")
        assert status == 200, table
        deadline = time.monotonic() + 30
        while (row := _board_row(url_b, bob, name)) is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert row is not None and row["games"] == 1 and row["kind"] == "person", row
        assert _board_row(url_a, ann, name) == row
        page = _call(f"{url_b}/api/players/{urllib.parse.quote(name)}", bob)[1]
        assert page["games"] == 1 and page["recent"][0]["table"] == table["id"]
    finally:
        for proc in (a, b):
            proc.terminate()
            proc.wait(10)

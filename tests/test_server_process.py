"""A real ``hearts serve`` process killed with SIGKILL in the middle of a hand, then started again on
the same database: the table resumes exactly where it was, no acknowledged action lost."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

import pytest

websockets = pytest.importorskip("websockets")

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    db: Path, port: int, *options: str, log_level: str = "warning", output: IO[bytes] | None = None
) -> subprocess.Popen[bytes]:
    """``hearts serve`` on the SQLite file ``db`` at ``port`` (with ``options``), once it answers; its
    log, at ``log_level``, goes to ``output`` (or nowhere)."""
    sink: IO[bytes] | int = subprocess.DEVNULL if output is None else output
    proc = subprocess.Popen(
        [sys.executable, "-m", "hearts", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{db}", "--pause", "0", "--log-level", log_level, *options],
        stdout=sink, stderr=subprocess.STDOUT if output is not None else subprocess.DEVNULL, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=1).read()
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("hearts serve did not start") from None
            time.sleep(0.2)


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


async def _play(uri: str, moves: int) -> dict[str, Any]:
    """As the person in seat 0, make ``moves`` moves, then wait until it is seat 0's turn again (the
    computers wait for it, so the table stands still); return that view."""
    async with websockets.connect(uri) as ws:
        view: dict[str, Any] = {}
        seq = 0
        made = 0
        acted_on: tuple[Any, ...] | None = None
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 20))
            assert m["type"] != "error", m
            if "view" in m:
                view, seq = m["view"], m["seq"]
            if made >= moves and view.get("phase") == "play" and 0 in view["to_move"]:
                return {"view": view, "seq": seq}
            # Act once per position: an update caused by another seat can arrive before our own move
            # is acknowledged, and moving again on it would be a (correctly refused) repeated move.
            # (An update from another seat's pass can still show our pass as not made, so a pass is
            # made once per hand; a card once per holding.)
            position = (view.get("hand_number"), view.get("phase"), None if view.get("phase") == "pass" else view.get("hand"))
            if m["type"] in ("welcome", "update") and 0 in view["to_move"] and made < moves and position != acted_on:
                acted_on = position
                if view["phase"] == "pass":
                    await ws.send(json.dumps({"type": "pass", "cards": view["hand"][:3], "seq": seq}))
                else:
                    await ws.send(json.dumps({"type": "play", "card": view["legal"][-1], "seq": seq}))
                made += 1


async def _welcome(uri: str) -> dict[str, Any]:
    async with websockets.connect(uri) as ws:
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if m["type"] == "welcome":
                return m


def test_kill_9_and_restart_resumes_the_hand(tmp_path: Path) -> None:
    db = tmp_path / "hearts.db"
    port = free_port()
    proc = start_server(db, port)
    try:
        table = _post(f"http://127.0.0.1:{port}/api/tables", {"seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3, "seed": 77})
        uri = f"ws://127.0.0.1:{port}/ws/{table['seats'][0]['token']}"
        before = asyncio.run(_play(uri, 5))  # the pass and four cards: mid-hand
        assert before["view"]["phase"] == "play" and len(before["view"]["hand"]) == 9
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    proc = start_server(db, port)
    try:
        after = asyncio.run(_welcome(uri))
        # Exactly where it was: the same seq, the same hand, tricks and view, seat 0 to move again.
        assert after["seq"] == before["seq"]
        assert after["view"] == before["view"]
        more = asyncio.run(_play(uri, 2))  # and the game goes on
        assert more["seq"] > before["seq"] and len(more["view"]["hand"]) == 7
    finally:
        proc.terminate()
        proc.wait(10)

"""Each table's fair share of the server: connection limits refused with their close code, the thinking
pool taken in turns so a hint storm at one table does not starve another, and a faulted bot's seat
shown and counted as its stand-in's. Asserted by counts and order, never by timings."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.test_server import new_table

import hearts.server.driver as tables_module
from hearts.server.app import create_app
from hearts.server.share import CLOSE_TOO_MANY, Busy, ConnectionLimits, Limits, ThinkPool


def receive_until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        m = ws.receive_json()
        if m["type"] == kind:
            return m


def refused_with(ws: Any) -> tuple[dict[str, Any], int]:
    """The error message and the close code of a connection the server refuses."""
    m = ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return m, closed.value.code


# -- connection limits -------------------------------------------------------------------------------


def test_limits_count_seats_tables_and_addresses() -> None:
    counts = ConnectionLimits(Limits(per_seat=2, per_table=3, per_address=4))
    for _ in range(2):
        assert counts.refusal("t", 0, "a") is None
        counts.open("t", 0, "a")
    assert "this seat" in (counts.refusal("t", 0, "a") or "")
    assert counts.refusal("t", 1, "a") is None and counts.refusal("t", None, "b") is None
    counts.open("t", None, "b")
    assert "this table" in (counts.refusal("t", 1, "c") or "")
    counts.open("u", None, "a")
    counts.open("u", None, "a")
    assert "your address" in (counts.refusal("v", None, "a") or "")
    counts.close("t", 0, "a")
    assert counts.refusal("v", None, "a") is None and counts.refusal("t", 0, "c") is None
    for args in (("t", 0, "a"), ("t", None, "b"), ("u", None, "a"), ("u", None, "a")):
        counts.close(*args)
    assert not counts.by_address and not counts.by_table and not counts.by_seat


def test_a_seat_over_its_limit_is_refused_with_the_documented_close_code(client: TestClient) -> None:
    table = new_table(client, ["human", "random", "random", "random"])
    token = table["seats"][0]["token"]
    limit = Limits().per_seat
    with contextlib.ExitStack() as stack:
        for _ in range(limit):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{token}"))
            assert receive_until(ws, "welcome")["seat"] == 0
        with client.websocket_connect(f"/ws/{token}") as extra:
            m, code = refused_with(extra)
        assert code == CLOSE_TOO_MANY and m["type"] == "error" and "too many connections to this seat" in m["message"]
        # Other seats' links and the watch link still open: the limit is the seat's.
        with client.websocket_connect(f"/ws/{table['watch_token']}") as watcher:
            assert receive_until(watcher, "welcome")["role"] == "spectator"
    # Once they close, the seat takes connections again.
    with client.websocket_connect(f"/ws/{token}") as ws:
        assert receive_until(ws, "welcome")["seat"] == 0


def test_table_and_address_limits(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'h.db'}", pause=0, limits=Limits(per_seat=2, per_table=3, per_address=4))
    with TestClient(app) as c:
        a = new_table(c, ["human", "human", "random", "random"])
        b = new_table(c, ["human", "random", "random", "random"])
        with contextlib.ExitStack() as stack:
            for token in (a["seats"][0]["token"], a["seats"][1]["token"], a["watch_token"]):
                receive_until(stack.enter_context(c.websocket_connect(f"/ws/{token}")), "welcome")
            with c.websocket_connect(f"/ws/{a['watch_token']}") as extra:
                m, code = refused_with(extra)
            assert code == CLOSE_TOO_MANY and "this table" in m["message"]
            receive_until(stack.enter_context(c.websocket_connect(f"/ws/{b['watch_token']}")), "welcome")
            # Four open from the test client's one address: a fifth, at any table, is refused.
            with c.websocket_connect(f"/ws/{b['seats'][0]['token']}") as extra:
                m, code = refused_with(extra)
            assert code == CLOSE_TOO_MANY and "your address" in m["message"]
        assert not app.state.manager.connections.by_address  # every count went back down


# -- the thinking pool -------------------------------------------------------------------------------


def test_the_pool_takes_tables_in_turn() -> None:
    """Table A floods the pool with jobs; table B's jobs each start after at most one more of A's."""

    async def scenario() -> tuple[list[str], int]:
        pool = ThinkPool(workers=1)
        started: list[str] = []
        gate = threading.Event()

        def job(table: str) -> str:
            started.append(table)
            gate.wait(5)
            return table

        flood = [asyncio.ensure_future(pool.run("A", f"hint:{i}", job, "A")) for i in range(8)]
        await asyncio.sleep(0)  # A's first job is running; the rest wait
        b_jobs = [asyncio.ensure_future(pool.run("B", f"move:{i}", job, "B")) for i in range(3)]
        await asyncio.sleep(0)  # B's jobs wait behind A's
        gate.set()
        results = await asyncio.gather(*flood, *b_jobs)
        pool.shutdown()
        return started, sum(r == "A" for r in results)

    started, a_done = asyncio.run(scenario())
    assert a_done == 8 and started.count("B") == 3
    # A's first job was running and its second queued before B's: then the tables alternate, although
    # A has five more waiting. (Without turns, B would wait for all eight.)
    assert started[:7] == ["A", "A", "B", "A", "B", "A", "B"]


def test_the_pool_runs_one_job_per_kind_and_caps_a_table() -> None:
    async def scenario() -> tuple[int, bool]:
        pool = ThinkPool(workers=4, per_table=2)
        gate = threading.Event()
        running = 0
        most = 0
        lock = threading.Lock()

        def job() -> None:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            gate.wait(5)
            with lock:
                running -= 1

        first = asyncio.ensure_future(pool.run("A", "hint:0", job))
        await asyncio.sleep(0)
        refused = False
        try:
            await pool.run("A", "hint:0", job)
        except Busy:
            refused = True
        others = [asyncio.ensure_future(pool.run("A", f"hint:{i}", job)) for i in range(1, 5)]
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(first, *others)
        pool.shutdown()
        return most, refused

    most, refused = asyncio.run(scenario())
    assert refused and most == 2


def test_hints_think_in_a_process_that_is_replaced_if_it_dies() -> None:
    async def scenario() -> tuple[int, int]:
        pool = ThinkPool(workers=1, processes=1)
        try:
            first = await pool.run("A", "hint:0", os.getpid, process=True)
            with pytest.raises(BrokenProcessPool):
                await pool.run("A", "hint:0", os._exit, 1, process=True)  # the worker dies mid-job
            return first, await pool.run("A", "hint:0", os.getpid, process=True)
        finally:
            pool.shutdown()

    first, again = asyncio.run(scenario())
    assert os.getpid() not in (first, again) and first != again


def test_a_hint_storm_at_one_table_does_not_starve_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many connections of one table's seat re-send ``hint`` while another table's computers play: the
    hint is worked out once for the seat's situation, and the other table plays its game to the end."""
    monkeypatch.setattr(tables_module, "HINT_PROCESSES", 0)  # hints in threads, where the counting hint below runs
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", pause=0)) as client:
        storm_and_play(client, monkeypatch)


def storm_and_play(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    worked_out: list[int] = []
    real = tables_module._hint_decision

    def slow_hint(level: str, seed: int, budget: float, view: Any) -> Any:
        worked_out.append(seed)
        time.sleep(0.2)  # a strong level's thinking
        return real("random", seed, budget, view)

    monkeypatch.setattr(tables_module, "_hint_decision", slow_hint)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    storm = new_table(client, ["human", "random", "random", "random"])
    quiet = new_table(client, ["random"] * 4, preset="short")
    token = storm["seats"][0]["token"]
    answers: list[str] = []
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/{token}")) for _ in range(Limits().per_seat)]
        for ws in sockets:
            receive_until(ws, "welcome")
        for _ in range(10):
            for ws in sockets:
                ws.send_text(json.dumps({"type": "hint"}))
            for ws in sockets:
                while (m := ws.receive_json())["type"] not in ("hint", "error"):
                    pass
                answers.append(m["type"] if m["type"] == "hint" else m["message"])
    assert answers == ["hint"] * 40, answers
    assert len(worked_out) == 1, "one situation of one seat: the hint is worked out once"
    # The other table played meanwhile and plays on to its end.
    with client.websocket_connect(f"/ws/{quiet['watch_token']}") as wv:
        view = receive_until(wv, "welcome")["view"]
        while view["phase"] != "game-over":
            view = receive_until(wv, "update")["view"]
    order = list(manager.pool.order)
    assert order.count((storm["id"], "hint:0")) == 1 and order.count((quiet["id"], "move")) > 100


# -- a faulted bot's stand-in ------------------------------------------------------------------------


def test_a_crashed_bot_is_shown_as_its_stand_in_and_never_credited(tmp_path: Path) -> None:
    crash = f"{sys.executable} -c 'import sys; sys.exit(3)'"
    app = create_app(f"sqlite:///{tmp_path / 'bots.db'}", bots={"mybot": crash}, pause=0)
    with TestClient(app) as c:
        seats = [{"kind": "bot", "level": "mybot", "name": "Mybot"}] + [{"kind": "computer", "level": "random"}] * 3
        table = c.post("/api/tables", json={"preset": "short", "seats": seats}).json()
        messages = []
        with c.websocket_connect(f"/ws/{table['watch_token']}") as wv:
            while True:
                m = wv.receive_json()
                messages.append(m)
                if m.get("view", {}).get("phase") == "game-over":
                    break
        shown = [m["table"]["seats"][0] for m in messages if m["type"] in ("table", "welcome")]
        seat = shown[-1]
        assert seat["kind"] == "bot" and seat["stand_in"] is True
        assert seat["stand_in_for"] == "mybot" and seat["stand_in_level"] == "medium"
        assert seat["fault"].startswith("crashed: ") and "exit status 3" in seat["fault"]
        movers = {
            (m["actor"], e["seat"])
            for m in messages
            if m["type"] == "update"
            for e in m["events"][:1]
            if e["type"] in ("card_played", "cards_passed")
        }
        assert ("stand-in", 0) in movers and ("bot", 0) not in movers
        info = c.get(f"/api/tables/{table['id']}").json()["seats"][0]
        assert info["fault"] == seat["fault"]
        stats = {e["name"]: e for e in c.get("/api/stats").json()}
        bot = stats["mybot"]  # a bot counts under its registered name (its player key), not the seat name
        hands = len(c.get(f"/api/tables/{table['id']}/hands").json())
        assert bot["faults"] == hands > 0 and bot["hands"] == 0 and bot["wins"] == 0 and bot["points"] == 0
        assert table["seats"][0]["token"] is None


BROKEN_BOTS = '''
from hearts.core import PlayCard


def _broken(how):
    asked = 0

    def play(view):  # a py: player may be a callable from a seat's view to its move
        nonlocal asked
        asked += 1
        if asked < 5:
            return PlayCard(view.seat, view.legal[0])
        if how == "raise":
            raise RuntimeError("lost my weights")
        return PlayCard(view.seat, next(c for c in range(52) if not view.hand.mask >> c & 1))

    return play


def raising(seed=None):
    return _broken("raise")


def cheating(seed=None):
    return _broken("cheat")
'''


@pytest.mark.parametrize(("factory", "words"), [("raising", "crashed: RuntimeError: lost my weights"), ("cheating", "played illegally: ")])
def test_a_py_bot_raising_or_cheating_at_a_table_is_its_fault_and_the_table_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, factory: str, words: str
) -> None:
    (tmp_path / "broken_bots.py").write_text(BROKEN_BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    app = create_app(f"sqlite:///{tmp_path / 'bots.db'}", bots={"mybot": f"py:broken_bots:{factory}"}, pause=0)
    with TestClient(app) as c:
        seats = [{"kind": "bot", "level": "mybot"}] + [{"kind": "computer", "level": "random"}] * 3
        table = c.post("/api/tables", json={"preset": "no-passing", "seats": seats, "rules": {"target": 30}}).json()
        with c.websocket_connect(f"/ws/{table['watch_token']}") as wv:
            while wv.receive_json().get("view", {}).get("phase") != "game-over":
                pass
        seat = c.get(f"/api/tables/{table['id']}").json()["seats"][0]
        assert seat["stand_in"] is True and seat["fault"].startswith(words), seat
        assert c.get(f"/api/tables/{table['id']}/record").status_code == 200  # a finished game whose record replays


async def test_a_slow_job_never_holds_up_a_hint() -> None:
    """A hand review runs in the slow lane, a process of its own: a hint asked meanwhile, even of the
    same table with the only thread, is answered while the review still runs."""
    pool = ThinkPool(workers=1, processes=0, slow_processes=1)
    try:
        review = asyncio.ensure_future(pool.run("t", "review:0:0", time.sleep, 3, process=True, slow=True))
        await asyncio.sleep(0.1)
        assert await asyncio.wait_for(pool.run("t", "hint:0", lambda: "hint"), 2) == "hint"
        assert not review.done()
        assert await review is None
    finally:
        pool.shutdown()

"""The server against hostile clients: hypothesis drives the websocket protocol and the HTTP API with
wrong types, deep nesting, huge numbers, unknown fields, other seats' tokens, stale ``seq`` and floods.

Every input must be answered (an error naming what was wrong, a 4xx, or a close frame with its
code and reason), never thrown: the test fails on any server-side error logged, and on any server
exception (FastAPI's TestClient raises them). Then the fuzzed table must play on to its end, with a
record that replays through the engine to the same totals.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from tests.test_server import Seat, choose

from hearts.core import PUBLIC_FIELDS, SeatView, loads
from hearts.core.view import NO_SEAT
from hearts.server.app import create_app
from hearts.server.bodies import MAX_BODY_BYTES
from hearts.server.messages import (
    CLIENT_TYPES,
    MAX_DEPTH,
    MAX_MESSAGE_BYTES,
    MESSAGES,
    ProtocolError,
    parse_message,
    too_deep,
)

#: Loggers whose errors mean the server threw on client input.
SERVER_LOGGERS = ("hearts", "uvicorn", "uvicorn.error", "starlette", "fastapi")


class Collect(logging.Handler):
    """Keeps every record at ERROR and above, and any record carrying a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.bad: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.bad.append(record)


@pytest.fixture
def server_errors() -> Iterator[Collect]:
    handler = Collect()
    loggers = [logging.getLogger(name) for name in SERVER_LOGGERS] + [logging.getLogger()]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def assert_no_server_errors(errors: Collect) -> None:
    shown = [f"{r.name}: {r.getMessage()}" for r in errors.bad]
    assert not shown, "the server logged errors on client input:\n" + "\n".join(shown)


# -- what hostile clients send ------------------------------------------------------------------

HUGE = st.sampled_from([2**53 + 1, 2**63, -(2**63) - 1, 10**30, -(10**30), 10**300, 1e308, -0.0])
SCALARS = st.none() | st.booleans() | st.integers() | HUGE | st.floats(allow_nan=True) | st.text(max_size=12)
JSON_VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12
)
CARDISH = st.sampled_from(["2C", "QS", "10H", "q♠", "AH", "1S", "ZZ", "", "2C ", "♠"])
#: Values of the wrong kind for any field: numbers of every size, text, true/false, null, lists, objects.
BAD = st.one_of(
    st.integers(), HUGE, st.floats(allow_nan=True), st.booleans(), st.none(), st.text(max_size=12),
    st.lists(SCALARS, max_size=3), st.dictionaries(st.text(max_size=6), SCALARS, max_size=3), JSON_VALUES,
)  # fmt: skip
#: Each message type's fields, with values of the right kind (which may still be wrong for the game).
GOOD: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "play": {"card": CARDISH, "seq": st.integers(0, 400), "seat": st.integers(0, 3)},
    "pass": {"cards": st.lists(CARDISH, max_size=4), "seq": st.integers(0, 400), "seat": st.integers(0, 3)},
    "moon": {"option": st.sampled_from(["add-to-others", "subtract-from-self", "sideways"]), "seq": st.integers(0, 400)},
    "claim": {"seq": st.integers(0, 400), "seat": st.integers(0, 3)},
    "fill": {"level": st.sampled_from(["random", "medium", "grandmaster", "cmd:ls"])},
    "hint": {},
    "sync": {},
    "ping": {},
    "chat": {"text": st.text(max_size=220) | st.sampled_from(["<script>alert(1)</script>", "hi\u0007", "\u202e", ""])},
    "back": {},
    "rematch": {},
}


@st.composite
def hostile_fields(draw: st.DrawFn) -> dict[str, Any]:
    """A message of a known type whose fields are each left out, right, or of the wrong kind."""
    kind = draw(st.sampled_from(CLIENT_TYPES))
    message: dict[str, Any] = {"type": kind}
    for name, good in GOOD[kind].items():
        how = draw(st.sampled_from(["absent", "good", "bad", "bad"]))
        if how != "absent":
            message[name] = draw(good if how == "good" else BAD)
    if draw(st.integers(0, 4)) == 0:
        message[draw(st.sampled_from(["crad", "seats", "Type", "", "__class__"]) | st.text(max_size=8))] = draw(BAD)
    if draw(st.integers(0, 7)) == 0:
        message["type"] = draw(BAD)
    if message == {"type": "hint"}:  # a well-formed hint: a real search, the slow path the fuzz need not time
        message["junk"] = True
    return message


@st.composite
def hostile_text(draw: st.DrawFn) -> str:
    """One websocket text frame a hostile or broken client might send."""
    kind = draw(st.sampled_from(["fields"] * 5 + ["nested", "nested", "raw", "value", "large"]))
    if kind == "nested":
        opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}"), ('{"type":"pass","cards":[', "]}")]))
        deepest = MAX_MESSAGE_BYTES // (len(opener) + len(closer))  # as deep as fits under the size limit
        depth = draw(st.sampled_from([deepest, MAX_DEPTH + 1, MAX_DEPTH]))
        return opener * depth + closer * depth
    if kind == "raw":
        return draw(st.text(max_size=40) | st.sampled_from(['{"type":', "nul", "{}", '{"type":"play","card":"2C"', "\ud800"]))
    if kind == "value":
        return json.dumps(draw(JSON_VALUES))
    if kind == "large":
        return json.dumps({"type": "play", "card": "2C", "pad": "x" * MAX_MESSAGE_BYTES})
    message = draw(hostile_fields())
    return json.dumps(message, ensure_ascii=draw(st.booleans()))


HTTP_SEGMENT = st.sampled_from(["x", "0", "-1", "99999999999999999999", "-99999999999999999999", "1e9", "%00", "..", "a" * 300]) | st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=0x2FFF, exclude_characters="/?#%\x7f", exclude_categories=("Cc", "Cs")), min_size=1, max_size=12
)
HTTP_NUMBER = st.sampled_from(
    ["99999999999999999999", "-99999999999999999999", "9223372036854775808", "1", "0", "-1", "2", "1.5", "nan", "", "0x10", "1e3"]
)


@st.composite
def table_body(draw: st.DrawFn) -> Any:
    """A POST /api/tables body: a valid table of people with hostile parts (people: no table then plays itself)."""
    body: dict[str, Any] = {"seats": [{"kind": "human"}] * 4}
    for name in draw(st.lists(st.sampled_from(["preset", "rules", "seats", "options", "seed", "junk"]), max_size=3, unique=True)):
        if name == "rules":
            key = draw(st.sampled_from(["players", "target", "pass_cycle", "pass_count", "bonus_card", "moon", "opening", "x"]))
            body["rules"] = {key: draw(JSON_VALUES | HUGE | st.lists(st.sampled_from(["left", "hold", "up", "QS", ""]), max_size=3) | st.sampled_from(["standard", "up", "10D", "1Z"]))}
        elif name == "options":
            key = draw(st.sampled_from(["pause", "think", "standin_after", "standin_level", "x"]))
            body["options"] = {key: draw(JSON_VALUES | HUGE)}
        elif name == "seats":
            seat = {"kind": draw(st.sampled_from(["human", "bot", "robot"]) | JSON_VALUES), "name": draw(JSON_VALUES | st.just("\ud800"))}
            body["seats"] = [seat] * draw(st.integers(0, 8))
        else:
            body[name] = draw(JSON_VALUES | HUGE)
    return draw(st.just(body) | JSON_VALUES)


class Fuzzed:
    """The table under fuzz and what the fuzz may use: every link and a second table's links."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.table = _new_table(client, preset="short", rules={"target": 40}, seed=17)
        self.other = _new_table(client, seed=18)
        self.tokens = [s["token"] for s in self.table["seats"]]
        self.id = self.table["id"]
        for token in self.tokens:  # every seat joined: a fill from the fuzz then seats no computer
            with self.connect(token) as ws:
                assert ws.receive_json()["type"] == "welcome"

    def seq(self) -> int:
        return int(self.client.get(f"/api/tables/{self.id}").json()["seq"])

    def connect(self, token: str) -> Any:
        return self.client.websocket_connect(f"/ws/{token}")

    def exchange(self, token: str, text: str) -> list[dict[str, Any]]:
        """Send ``text`` on a fresh connection, then a ping; return the answers that came before the pong.

        The server answers one connection's messages in order, so everything the text caused is in.
        """
        before = self.seq()
        with self.connect(token) as ws:
            first = ws.receive_json()
            assert first["type"] == "welcome"
            ws.send_text(text)
            ws.send_text('{"type":"ping"}')
            got: list[dict[str, Any]] = []
            while (m := ws.receive_json())["type"] != "pong":
                if m["type"] != "table":  # presence notices (this connection's own arrival) are not answers
                    got.append(m)
        updates = [m for m in got if m["type"] == "update"]
        errors = [m for m in got if m["type"] == "error"]
        # State unchanged unless the message was a move the table took (a legal card, by chance).
        assert self.seq() == before + len(updates), (text[:80], got)
        for e in errors:
            assert e["message"] and "Traceback" not in e["message"] and "object has no attribute" not in e["message"]
        return got


def _new_table(client: TestClient, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4, **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _whose_move(fuzzed: Fuzzed) -> tuple[int, dict[str, Any], int]:
    """The seat to move, its view and the table's seq, read through its own link."""
    info = fuzzed.client.get(f"/api/tables/{fuzzed.id}").json()
    with fuzzed.connect(fuzzed.tokens[0]) as ws:
        view = ws.receive_json()["view"]
    seat = view["to_move"][0]
    with fuzzed.connect(fuzzed.tokens[seat]) as ws:
        welcome = ws.receive_json()
    return seat, welcome["view"], int(info["seq"])


def _fuzz_websocket(fuzzed: Fuzzed, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["hostile"] * 6 + ["spectator", "other-seat", "stale", "advance", "bad-link"]))
    links = [*fuzzed.tokens, fuzzed.table["watch_token"]]
    if kind == "hostile":
        fuzzed.exchange(data.draw(st.sampled_from(links)), data.draw(hostile_text()))
    elif kind == "spectator":  # a watcher may not move, whatever it sends
        move = data.draw(st.sampled_from([{"type": "play", "card": "2C"}, {"type": "fill"}, {"type": "pass", "cards": ["2C"]}]))
        got = fuzzed.exchange(fuzzed.table["watch_token"], json.dumps(move))
        assert [m["type"] for m in got] == ["error"] and "spectator" in got[0]["message"]
    elif kind == "other-seat":  # a move in another seat's name
        seat, view, _ = _whose_move(fuzzed)
        liar = data.draw(st.sampled_from([s for s in range(4) if s != seat]))
        move = {**choose(view, random.Random(0)), "seat": seat}
        got = fuzzed.exchange(fuzzed.tokens[liar], json.dumps(move))
        assert [m["type"] for m in got] == ["error"] and "not yours" in got[0]["message"]
    elif kind in ("stale", "advance"):  # a legal move, with a seq from the past or the future, or the right one
        seat, view, seq = _whose_move(fuzzed)
        if view["phase"] == "game-over":
            return
        offset = data.draw(st.sampled_from([-(10**6), -5, -1, 1, 2**40])) if kind == "stale" else 0
        move = {**choose(view, random.Random(seq)), "seq": max(0, seq + offset)}
        got = fuzzed.exchange(fuzzed.tokens[seat], json.dumps(move))
        if offset > 0:  # a view from the future: only a confused or hostile client answers one
            assert [m["type"] for m in got] == ["error"] and "out of step" in got[0]["message"]
        if kind == "advance":
            assert any(m["type"] == "update" for m in got), got
    else:  # a link no table has, or one far too long
        token = data.draw(st.sampled_from(["nope", "a" * 65, fuzzed.other["watch_token"][:-1]]) | HTTP_SEGMENT.filter(lambda t: t.strip(".")))
        with fuzzed.connect(token) as ws:
            m = ws.receive_json()
            if m["type"] == "welcome":  # a generated text that is a real link: astronomically unlikely
                return
            assert m["type"] == "error" and m["about"] == "connect"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404


def _fuzz_http(fuzzed: Fuzzed, data: st.DataObject) -> None:
    c, tid = fuzzed.client, fuzzed.id
    kind = data.draw(st.sampled_from(["get", "get", "table", "quick", "fill"]))
    if kind == "get":
        template = data.draw(
            st.sampled_from(
                ["/api/tables/{t}", "/api/tables/{t}/hands", "/api/tables/{t}/hands/{n}", "/api/tables/{t}/record?hand={n}",
                 "/api/tables/{id}/hands/{n}", "/api/tables/{id}/record?hand={n}", "/replay/{t}/{n}", "/replay/{id}/{n}"]  # fmt: skip
            )
        )
        path = template.format(t=data.draw(HTTP_SEGMENT), n=data.draw(HTTP_NUMBER), id=tid)
        r = c.get(path)
    elif kind == "table":
        r = c.post("/api/tables", content=json.dumps(data.draw(table_body())), headers={"content-type": "application/json"})
    elif kind == "quick":
        body = data.draw(st.fixed_dictionaries({}, optional={"name": JSON_VALUES, "level": JSON_VALUES, "levels": JSON_VALUES, "players": JSON_VALUES | HUGE}))
        r = c.post("/api/quick", content=json.dumps(body), headers={"content-type": "application/json"})
    else:  # fill with another table's token, a spectator's, or junk
        token = data.draw(st.sampled_from([fuzzed.other["seats"][0]["token"], fuzzed.table["watch_token"]]) | JSON_VALUES)
        r = c.post(f"/api/tables/{tid}/fill", json={"token": token, "level": data.draw(JSON_VALUES | st.just("random"))})
        assert r.status_code in (403, 422), r.text
    assert r.status_code < 500, (kind, r.status_code, r.text[:200])
    if r.status_code >= 400:  # the error names the input in plain words: no internal names, no traceback
        for words in ("Traceback", "object has no attribute", "unhashable", "PassDirection", "MoonScoring", "OpeningLead", "TieRule", "NoneType"):
            assert words not in r.text, (kind, r.text[:300])


def _flood(fuzzed: Fuzzed, token: str, message: dict[str, Any], count: int) -> None:
    """``count`` messages without reading: answered in order, then closed with 1008 and its reason."""
    with fuzzed.connect(token) as ws:
        seat = Seat(ws, None)
        seat.until("welcome")
        for _ in range(count):
            seat.send(**message)
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                seat.recv()
    assert closed.value.code == 1008 and "too many messages" in closed.value.reason
    kinds = [m["type"] for m in seat.messages[1:]]
    assert "too many messages" in [m for m in seat.messages if m["type"] == "error"][-1]["message"]
    if message["type"] == "ping":  # every ping taken before the limit was answered before the close
        assert kinds.count("pong") >= 200


def test_hostile_clients_never_reach_a_traceback_and_the_table_plays_on(client: TestClient, server_errors: Collect) -> None:
    fuzzed = Fuzzed(client)

    @settings(max_examples=400, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one_input(data: st.DataObject) -> None:
        if data.draw(st.integers(0, 2)) == 0:
            _fuzz_http(fuzzed, data)
        else:
            _fuzz_websocket(fuzzed, data)

    one_input()
    # Floods: a ping flood and a move flood, from a seat and from a spectator.
    _flood(fuzzed, fuzzed.tokens[1], {"type": "ping"}, 300)
    _flood(fuzzed, fuzzed.table["watch_token"], {"type": "play", "card": "2C"}, 300)
    assert_no_server_errors(server_errors)

    # The fuzzed table plays on to its end, and its record replays through the engine.
    rng = random.Random(5)
    with (
        fuzzed.connect(fuzzed.tokens[0]) as w0,
        fuzzed.connect(fuzzed.tokens[1]) as w1,
        fuzzed.connect(fuzzed.tokens[2]) as w2,
        fuzzed.connect(fuzzed.tokens[3]) as w3,
    ):
        seats = [Seat(w, i) for i, w in enumerate((w0, w1, w2, w3))]
        for s in seats:
            s.until("welcome")
        while seats[0].view["phase"] != "game-over":
            mover = seats[seats[0].view["to_move"][0]]
            mover.send(**choose(mover.view, rng), seq=mover.seq)
            seq = mover.until("update")["seq"]
            for s in seats:
                while s.seq < seq:
                    s.until("update")
    info = client.get(f"/api/tables/{fuzzed.id}").json()
    assert info["phase"] == "game-over" and info["winners"]
    record = loads(client.get(f"/api/tables/{fuzzed.id}/record").text)
    assert list(record.replay().totals) == info["totals"]
    assert_no_server_errors(server_errors)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"type":"fill","level":5}', "'level' of a fill message must be a computer level such as 'medium', not 5"),
        ('{"type":"fill","level":[1]}', "'level' of a fill message must be"),
        ('{"type":"fill","level":1.5}', "not 1.5"),
        ('{"type":"fill","level":true}', "not true"),
        ('{"type":"fill","level":{"a":1}}', "'level' of a fill message"),
        ('{"type":"play"}', "a play message needs 'card'"),
        ('{"type":"play","card":"2C","crad":"2C"}', "a play message has no field \"crad\" (its fields are type, card, seq, seat)"),
        ('{"type":"play","card":"2C","seq":-1}', "'seq' of a play message must be a whole number, 0 or more"),
        ('{"type":"play","card":"2C","seq":99999999999999999999999}', "'seq' of a play message must be a whole number, 0 or more: the seq of the view you answer, not a number that large"),
        ('{"type":"play","card":"2C","seq":1.0}', "'seq'"),
        ('{"type":"pass","cards":["2C",3,"4C"]}', "'cards' of a pass message must be a list of cards such as [\"QS\", \"AH\", \"KH\"], not 3 (item 2)"),
        ('{"type":"moon","option":null}', "'option' of a moon message must be"),
        ('{"type":7}', "unknown message type 7"),
        ('{"type":"ping","extra":1}', "a ping message has no field \"extra\""),
        ("[" * 2000 + "]" * 2000, "nested too deep"),
        ('{"a":' * 50 + "1" + "}" * 50, "nested too deep"),
        ("true", "not true or false"),
    ],
)
def test_malformed_messages_are_named_in_plain_words(client: TestClient, server_errors: Collect, text: str, words: str) -> None:
    table = _new_table(client, preset="no-passing", seed=2)
    with client.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
        s = Seat(ws, 0)
        s.until("welcome")
        ws.send_text(text)
        m = s.until("error")
        assert words in m["message"]
        known = json.loads(text).get("type") if text.startswith("{") and not too_deep(text) else None
        assert m["about"] == (known if known in CLIENT_TYPES else None)
        s.send(type="ping")  # the connection goes on
        assert s.until("pong")["seq"] == 0
    assert_no_server_errors(server_errors)


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/x/hands/99999999999999999999",
        "/api/tables/x/hands/-1",
        "/api/tables/x/hands/0",
        "/api/tables/x/hands/two",
        "/api/tables/x/record?hand=99999999999999999999",
        "/api/tables/x/record?hand=-99999999999999999999",
        "/api/tables/x/record?hand=1.5",
        "/replay/x/99999999999999999999",
        "/api/tables/" + "x" * 65,
    ],
)
def test_out_of_range_numbers_in_paths_are_refused_not_thrown(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 422, (r.status_code, r.text)
    assert r.json()["detail"][0]["loc"][0] in ("path", "query")


def test_a_name_no_response_could_carry_is_refused(client: TestClient) -> None:
    body = '{"seats": [{"kind": "human", "name": "\\ud800"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}'
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "surrogate" in r.text


def test_spectators_get_the_public_view_whatever_a_seat_view_holds(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A field added to SeatView reaches its seat, never a spectator: the server sends spectators the
    core's allow-listed PublicView, not a seat's view with fields removed."""
    leaky = SeatView.to_dict
    monkeypatch.setattr(SeatView, "to_dict", lambda self: {**leaky(self), "secret": "every hand"})
    table = _new_table(client, preset="no-passing", seed=6)
    with client.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
        assert ws.receive_json()["view"]["secret"] == "every hand"
    with client.websocket_connect(f"/ws/{table['watch_token']}") as ws:
        view = ws.receive_json()["view"]
    assert "secret" not in view and set(view) == set(PUBLIC_FIELDS) | set(NO_SEAT)
    assert view["hand"] == [] and view["seat"] is None and sum(view["hand_sizes"]) == 52


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"rules": {"pass_cycle": ["left", "up"]}}, "unknown pass direction 'up' (choose left, right, across, hold)"),
        ({"options": {"standin_level": [1]}}, "table option 'standin_level' must be one of"),
        ({"seed": 2**64}, "seed"),
        ({"preset": "x" * 100}, "preset"),
    ],
)
def test_bad_table_options_are_named_not_thrown(client: TestClient, extra: dict[str, Any], words: str) -> None:
    r = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4, **extra})
    assert r.status_code == 422 and words in r.text, r.text
    assert "PassDirection" not in r.text and "unhashable" not in r.text


def test_a_request_body_past_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    big = b'{"seats": [' + b" " * MAX_BODY_BYTES + b"]}"
    r = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "request body too large" in r.json()["detail"]
    chunked = client.post("/api/tables", content=iter([b" " * 1024] * 65), headers={"content-type": "application/json"})
    assert chunked.status_code == 413 and "request body too large" in chunked.json()["detail"]
    assert client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).status_code == 200


def test_a_flood_at_a_real_server_gets_its_answers_then_a_close_frame(tmp_path: Path, server_errors: Collect) -> None:
    """Through uvicorn and a real websocket client (not the TestClient): a connection flooding pings,
    or messages nested too deep, gets the answers to what it sent before the limit, then close 1008
    with its reason, never a dropped socket."""
    import asyncio
    import socket
    import threading
    import time

    import httpx
    import uvicorn
    import websockets

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(f"sqlite:///{tmp_path / 'flood.db'}", pause=0), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        table = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()

        async def flood(text: str) -> tuple[dict[str, int], Any]:
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table['seats'][0]['token']}") as ws:
                for _ in range(1000):
                    await ws.send(text)
                kinds: dict[str, int] = {}
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        kind = json.loads(await ws.recv())["type"]
                        kinds[kind] = kinds.get(kind, 0) + 1
                return kinds, closed.value.rcvd

        for text, answer in (('{"type":"ping"}', "pong"), ("[" * 2000 + "]" * 2000, "error")):
            kinds, frame = asyncio.run(flood(text))
            assert frame is not None and frame.code == 1008 and "too many messages" in frame.reason, frame
            assert kinds[answer] >= 200 and kinds["error"] > 50, kinds
    finally:
        server.should_exit = True
        thread.join(10)
    assert_no_server_errors(server_errors)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(st.one_of(hostile_text(), st.text(max_size=60), JSON_VALUES.map(json.dumps), hostile_fields().map(json.dumps)))
def test_parsing_any_text_gives_a_checked_message_or_a_protocol_error(text: str) -> None:
    """Whatever the text, parse_message answers with a checked message or a ProtocolError whose text
    is one short line of plain words: never another exception."""
    try:
        message = parse_message(text)
    except ProtocolError as exc:
        words = str(exc)
        assert words and "\n" not in words and len(words) < 400 and "Traceback" not in words
        words.encode("utf-8")  # sendable as a frame: no unpaired surrogate quoted back
        assert "pydantic" not in words and "validation error" not in words.lower()
        return
    assert message.type in CLIENT_TYPES
    assert type(message) is MESSAGES[message.type]

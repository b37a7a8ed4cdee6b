"""The table server through FastAPI's TestClient: whole games over four websockets, the hidden-information
line checked on every message, bad input of every kind, reconnects, spectators, history and records."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hearts.core import CardSet, loads
from hearts.server.app import create_app
from hearts.server.protocol import MAX_MESSAGE_BYTES


def new_table(client: TestClient, kinds: list[str], **extra: Any) -> dict[str, Any]:
    seats = [{"kind": "human"} if k == "human" else {"kind": "computer", "level": k} for k in kinds]
    r = client.post("/api/tables", json={"seats": seats, **extra})
    assert r.status_code == 200, r.text
    return r.json()


class Seat:
    """One websocket client that keeps every message it received and the latest view."""

    def __init__(self, ws: Any, seat: int | None) -> None:
        self.ws, self.seat = ws, seat
        self.messages: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.seq = 0

    def recv(self) -> dict[str, Any]:
        m = self.ws.receive_json()
        self.messages.append(m)
        if "view" in m:
            self.view, self.seq = m["view"], m["seq"]
        return m

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            m = self.recv()
            if m["type"] == kind:
                return m

    def send(self, **msg: Any) -> None:
        self.ws.send_text(json.dumps(msg))



@contextlib.contextmanager
def seated(client: TestClient, table: dict[str, Any], watch: bool = True) -> Iterator[tuple[list[Seat], Seat | None]]:
    """A websocket for every seat of ``table`` (and one watching, with ``watch``), each past its welcome."""
    with contextlib.ExitStack() as stack:
        seats = [Seat(stack.enter_context(client.websocket_connect(f"/ws/{s['token']}")), i) for i, s in enumerate(table["seats"])]
        watcher = Seat(stack.enter_context(client.websocket_connect(f"/ws/{table['watch_token']}")), None) if watch else None
        for s in (*seats, *([watcher] if watcher else [])):
            assert s.until("welcome")["role"] == ("spectator" if s.seat is None else "player")
        yield seats, watcher

def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if view["phase"] == "pass":
        return {"type": "pass", "cards": rng.sample(view["hand"], view["rules"]["pass_count"])}
    if view["phase"] == "play":
        return {"type": "play", "card": rng.choice(view["legal"])}
    return {"type": "moon", "option": rng.choice(view["moon_options"])}


def play_game(seats: list[Seat], rng: random.Random, watchers: list[Seat] = ()) -> int:  # type: ignore[assignment]
    """Each seat moves when its view asks it to; every client reads every update. Returns moves made."""
    moves = 0
    while seats[0].view["phase"] != "game-over":
        mover = seats[seats[0].view["to_move"][0]]
        mover.send(**choose(mover.view, rng), seq=mover.seq)
        moves += 1
        for s in [*seats, *watchers]:
            m = s.until("update")
            assert m["seq"] == moves
    return moves


def assert_private(seat: Seat, record: Any) -> None:
    """Every message to ``seat`` shows only its own cards: checked against the true deal in the record."""
    n = record.rules.players
    checked = 0
    for m in seat.messages:
        if m["type"] not in ("welcome", "update"):
            continue
        view = m["view"]
        assert view["seat"] == seat.seat
        for e in m.get("events", []):
            if e["type"] in ("cards_passed", "cards_received"):
                assert e["seat"] == seat.seat or e["cards"] == [], f"{e} reached seat {seat.seat}"
        if view["phase"] == "game-over":
            continue
        hand = record.hands[view["hand_number"] - 1]
        if seat.seat is None:
            assert view["hand"] == [] and view["received"] is None and view["passed"] is None and view["legal"] == []
            continue
        own = hand.dealt[seat.seat].mask
        holding = hand.direction.value == "hold"
        if not holding:
            own |= hand.passes[(seat.seat - hand.direction.offset(n)) % n].mask  # what it receives
        held = CardSet(view["hand"]).mask
        assert held & ~own == 0, f"seat {seat.seat} was shown cards it never held"
        assert CardSet(view["legal"]).mask & ~held == 0
        if view["passed"] is not None:
            assert CardSet(view["passed"]) == hand.passes[seat.seat]
        checked += 1
    assert seat.seat is None or checked > 10


def test_whole_game_four_websockets_never_leak(client: TestClient) -> None:
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        table = new_table(client, ["human"] * 4, preset="short", seed=seed)
        with seated(client, table) as (seats, watcher):
            assert watcher is not None
            moves = play_game(seats, rng, [watcher])
            assert moves > 50
            record = loads(client.get(f"/api/tables/{table['id']}/record").text)
            for s in (*seats, watcher):
                assert_private(s, record)
            # The spectator saw each finished hand's whole deal, and nothing of a hand before its end.
            finished = [m["finished_hand"] for m in watcher.messages if m.get("finished_hand")]
            assert finished and all(len(h["seats"]) == 4 for h in finished)
            assert all(sum(len(s["dealt"]) for s in h["seats"]) == 52 for h in finished)
        info = client.get(f"/api/tables/{table['id']}").json()
        assert info["phase"] == "game-over" and info["winners"]
        # The stored record replays through the engine to the same totals.
        record = loads(client.get(f"/api/tables/{table['id']}/record").text)
        assert list(record.replay().totals) == info["totals"]


def test_bad_messages_get_errors_and_change_nothing(client: TestClient) -> None:
    table = new_table(client, ["human"] * 4, preset="no-passing", seed=7)
    tokens = [s["token"] for s in table["seats"]]
    with client.websocket_connect(f"/ws/{tokens[0]}") as w0, client.websocket_connect(f"/ws/{tokens[1]}") as w1:
        s0, s1 = Seat(w0, 0), Seat(w1, 1)
        s0.until("welcome")
        s1.until("welcome")
        leader = s0.view["to_move"][0]
        other = s1 if leader == 0 else s0
        bad: list[tuple[str, str]] = [
            ("not json", "not JSON"),
            ("[1, 2]", "JSON object"),
            (json.dumps({"type": "dance"}), "unknown message type"),
            (json.dumps({"type": "play"}), "'card'"),
            (json.dumps({"type": "play", "card": "ZZ"}), "ZZ"),
            (json.dumps({"type": "play", "card": "2C", "seat": 3}), "not yours"),
            (json.dumps({"type": "pass", "cards": ["2C", "3C", "4C"]}), "pass"),
            (json.dumps({"type": "play", "card": "2C", "seq": "x"}), "seq"),
            ("x" * (MAX_MESSAGE_BYTES + 1), "too large"),
        ]
        for text, words in bad:
            other.ws.send_text(text)
            m = other.until("error")
            assert words.lower() in m["message"].lower(), (text[:40], m)
        # Out of turn: a seat that is not to move plays a card it holds.
        other.send(type="play", card=other.view["hand"][0])
        assert "turn" in other.until("error")["message"].lower()
        # A binary frame is refused too.
        other.ws.send_bytes(b"\x00\x01")
        assert "binary" in other.until("error")["message"]
        # Nothing changed: the table is at seq 0 and the leader can still lead.
        assert client.get(f"/api/tables/{table['id']}").json()["seq"] == 0
        mover = s0 if leader == 0 else s1
        if leader in (0, 1):
            card = mover.view["legal"][0]
            mover.send(type="play", card=card, seq=0)
            assert mover.until("update")["seq"] == 1
            # Repeated (same seq) and late messages are refused with the reason.
            mover.send(type="play", card=card, seq=0)
            assert "too late" in mover.until("error")["message"]


def test_flood_is_rate_limited(client: TestClient) -> None:
    table = new_table(client, ["human"] * 4, preset="no-passing", seed=3)
    with client.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
        s = Seat(ws, 0)
        s.until("welcome")
        for _ in range(300):
            s.send(type="ping")
        # 200 fit the burst; the rest are refused one by one, and a connection that keeps flooding is closed.
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                s.recv()
        assert closed.value.code == 1008
        kinds = [m["type"] for m in s.messages[1:]]
        assert kinds.count("pong") >= 200 and "error" in kinds
        limited = [m for m in s.messages if m["type"] == "error"]
        assert "too many messages" in limited[0]["message"]


def test_unknown_link_and_bad_table_requests(client: TestClient) -> None:
    with client.websocket_connect("/ws/nope") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and "unknown link" in m["message"]
    assert client.post("/api/tables", json={"seats": [{"kind": "human"}] * 3}).status_code == 422  # 3 seats, 4 players
    r = client.post("/api/tables", json={"seats": [{"kind": "computer", "level": "grandmaster"}] * 4})
    assert r.status_code == 422 and "grandmaster" in r.text
    r = client.post("/api/tables", json={"seats": [{"kind": "bot", "level": "rm -rf"}] * 4})
    assert r.status_code == 422 and "unknown bot" in r.text
    r = client.post("/api/tables", json={"preset": "standard", "rules": {"target": -5}, "seats": [{"kind": "human"}] * 4})
    assert r.status_code == 422 and "target" in r.text
    r = client.post("/api/tables", json={"rules": {"colour": "blue"}, "seats": [{"kind": "human"}] * 4})
    assert r.status_code == 422 and "colour" in r.text
    assert client.get("/api/tables/nothere").status_code == 404
    assert client.get("/api/tables/nothere/record").status_code == 404


def test_reconnect_gets_full_view_and_keeps_seat(client: TestClient) -> None:
    table = new_table(client, ["human", "random", "random", "random"], seed=11)
    token = table["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{token}") as ws:
        s = Seat(ws, 0)
        s.until("welcome")
        assert s.view["phase"] == "pass"
        cards = s.view["hand"][:3]
        s.send(type="pass", cards=cards, seq=s.seq)
        while s.view["phase"] == "pass":  # until every seat has passed
            s.until("update")
        before = s.view
    # Dropped: the seat waits for its person; coming back by the same link gives the whole view.
    with client.websocket_connect(f"/ws/{token}") as ws:
        s = Seat(ws, 0)
        w = s.until("welcome")
        assert w["seat"] == 0 and w["view"]["passed"] == cards
        assert w["view"]["phase"] == "play" and len(w["view"]["hand"]) == 13  # it has not played yet
        assert w["view"]["received"] == before["received"]
        assert w["table"]["seats"][0]["connected"] is True


def test_stand_in_plays_for_an_away_person(client: TestClient) -> None:
    table = new_table(client, ["human", "random", "random", "random"], preset="no-passing", seed=5, options={"standin_after": 0, "standin_level": "random"})
    token = table["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{token}") as ws:
        Seat(ws, 0).until("welcome")
    # The person left; the stand-in plays every card for the seat until it comes back.
    with client.websocket_connect(f"/ws/{table['watch_token']}") as wv:
        v = Seat(wv, None)
        v.until("welcome")
        while v.view["hand_number"] == 1:
            v.recv()
    actors = {m.get("actor") for m in v.messages if m["type"] == "update"}
    assert "stand-in" in actors
    # The person takes the seat back by the same link, and plays for it again.
    with client.websocket_connect(f"/ws/{token}") as ws:
        s = Seat(ws, 0)
        w = s.until("welcome")
        assert w["table"]["seats"][0]["stand_in"] is False and w["table"]["seats"][0]["connected"] is True
        while 0 not in s.view["to_move"]:
            s.until("update")
        s.send(type="play", card=s.view["legal"][0], seq=s.seq)
        m = s.until("update")
        assert m["actor"] == "human" and m["events"][0]["seat"] == 0


def test_fill_hint_history_stats_and_replay(client: TestClient) -> None:
    table = new_table(client, ["human", "human", "random", "random"], preset="short")
    token = table["seats"][0]["token"]
    assert client.post(f"/api/tables/{table['id']}/fill", json={"token": "bad", "level": "random"}).status_code == 403
    rng = random.Random(4)
    with client.websocket_connect(f"/ws/{token}") as ws:
        s = Seat(ws, 0)
        s.until("welcome")
        s.send(type="fill", level="random")
        kinds: list[str] = []
        while kinds != ["human", "computer", "computer", "computer"]:  # the first may be the join notice
            kinds = [x["kind"] for x in s.until("table")["table"]["seats"]]
        s.send(type="hint")
        hint = s.until("hint")
        assert hint["move"]["type"] == "pass" and set(hint["move"]["cards"]) <= set(s.view["hand"]) and hint["reason"]
        while s.view["phase"] != "game-over":
            if 0 in s.view["to_move"]:
                s.send(**choose(s.view, rng), seq=s.seq)
            s.until("update")
    games = client.get("/api/history").json()
    assert games[0]["id"] == table["id"] and games[0]["status"] == "over"
    # Statistics are by player, not by name: the person by their identity, the computers by level.
    stats = {e["player"]: e for e in client.get("/api/stats").json()}
    (person,) = [e for e in stats.values() if e["kind"] == "human"]
    assert person["player"].startswith("person:") and person["name"] == "South"
    assert person["games"] == 1 and person["hands"] == games[0]["hands"] and person["average_points"] is not None
    assert set(stats) == {person["player"], "computer:random"} and stats["computer:random"]["hands"] == 3 * games[0]["hands"]
    hand = client.get(f"/api/tables/{table['id']}/hands/1").json()
    assert len(hand["tricks"]) == 13 and all(len(t["plays"]) == 4 for t in hand["tricks"])
    assert sorted(c for s_ in hand["seats"] for c in s_["held"]) == sorted(c for s_ in hand["seats"] for c in s_["dealt"])
    assert client.get(f"/api/tables/{table['id']}/hands/99").status_code == 404
    r = client.get(f"/api/tables/{table['id']}/record?hand=1")
    assert "attachment" in r.headers["content-disposition"] and len(loads(r.text).hands) == 1


def test_records_never_hold_the_hand_in_progress(client: TestClient) -> None:
    table = new_table(client, ["random"] * 3 + ["human"], preset="no-passing", seed=9)
    with client.websocket_connect(f"/ws/{table['seats'][3]['token']}") as ws:
        s = Seat(ws, 3)
        s.until("welcome")
        rng = random.Random(1)
        while s.view["hand_number"] < 2:
            if 3 in s.view["to_move"]:
                s.send(**choose(s.view, rng), seq=s.seq)
            s.until("update")
    # While the game is played only a seat may download it (its token in a header, never in the URL),
    # and gets the finished hands with no seed; anyone else is refused.
    url = f"/api/tables/{table['id']}/record"
    refused = client.get(url)
    assert refused.status_code == 403 and "still being played" in refused.text
    assert client.get(url, headers={"X-Hearts-Token": table["watch_token"]}).status_code == 403
    record = loads(client.get(url, headers={"X-Hearts-Token": table["seats"][3]["token"]}).text)
    assert len(record.hands) == 1 and record.hands[0].points is not None and record.seed is None


def test_pages_and_openapi(client: TestClient) -> None:
    for path in ("/", "/history", "/play/x", "/watch/x", "/replay/x/1", "/static/table.js", "/static/style.css"):
        assert client.get(path).status_code == 200, path
    spec = client.get("/openapi.json").json()
    assert "/api/tables" in spec["paths"] and "/api/quick" in spec["paths"]
    r = client.post("/api/quick", json={"name": "Ada", "level": "random"})
    assert r.status_code == 200 and "/play/" in r.json()["play_url"]


def test_registered_bot_plays_and_web_clients_cannot_name_commands(tmp_path: Path) -> None:
    import sys

    bot = Path(__file__).resolve().parents[1] / "examples" / "bots" / "python_bot.py"
    app = create_app(f"sqlite:///{tmp_path / 'bots.db'}", bots={"pybot": f"{sys.executable} {bot}"}, pause=0)
    with TestClient(app) as c:
        assert c.get("/api/options").json()["bots"] == ["pybot"]
        for level in ("cmd:rm -rf /", "CMD:echo hi"):
            r = c.post("/api/tables", json={"seats": [{"kind": "computer", "level": level}] * 4})
            assert r.status_code == 422 and "unknown computer level" in r.text
        r = c.post("/api/tables", json={"seats": [{"kind": "human"}] * 4, "options": {"standin_level": "cmd:ls"}})
        assert r.status_code == 422
        seats = [{"kind": "bot", "level": "pybot"}] + [{"kind": "computer", "level": "random"}] * 3
        table = c.post("/api/tables", json={"preset": "no-passing", "seats": seats, "seed": 3}).json()
        with c.websocket_connect(f"/ws/{table['watch_token']}") as wv:
            v = Seat(wv, None)
            v.until("welcome")
            while v.view["hand_number"] == 1 and v.view["phase"] != "game-over":
                v.recv()
        assert "bot" in {m.get("actor") for m in v.messages}
        assert table["seats"][0]["token"] is None


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_moon_choice_through_the_server(client: TestClient) -> None:
    # Britannica's moon with no passing, seed 11: seat 0 always plays its highest card, the others
    # their lowest, until a hand ends with a moon (seat 1's, found by playing it out in the engine).
    table = new_table(client, ["human"] * 4, preset="britannica", rules={"pass_cycle": ["hold"]}, seed=11)
    with seated(client, table, watch=False) as (seats, _):
        while seats[0].view["phase"] == "play":
            mover = seats[seats[0].view["to_move"][0]]
            ranked = sorted(mover.view["legal"], key=lambda c: RANKS.index(c[:-1]))
            mover.send(type="play", card=ranked[-1] if mover.seat == 0 else ranked[0], seq=mover.seq)
            for s in seats:
                s.until("update")
        assert seats[0].view["phase"] == "moon-choice" and seats[0].view["to_move"] == [1]
        assert seats[1].view["moon_options"] == ["add-to-others", "subtract-from-self"]
        assert seats[0].view["moon_options"] == []
        seats[0].send(type="moon", option="subtract-from-self")
        assert "moon" in seats[0].until("error")["message"].lower()
        seats[1].send(type="moon", option="sideways")
        assert "option" in seats[1].until("error")["message"]
        seats[1].send(type="moon", option="subtract-from-self", seq=seats[1].seq)
        m = seats[1].until("update")
        assert m["finished_hand"]["shooter"] == 1 and m["finished_hand"]["moon_choice"] == "subtract-from-self"
        assert m["finished_hand"]["scores"] == [0, -26, 0, 0]


def test_hand_detail_is_the_engines_hand_summary() -> None:
    """The end-of-hand page shows the engine's summary: points taken count J♦, totals are the game's."""
    import random as _random

    from hearts.core import CardSet, Game, Rules
    from hearts.server.hands import hand_detail

    rules = Rules.preset("omnibus")
    game = Game(rules, seed=4)
    rng = _random.Random(4)
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))
    for number, summary in enumerate(game.summaries()):
        detail = hand_detail(game, number)
        assert [s["points"] for s in detail["seats"]] == list(summary.taken)
        assert detail["totals"] == list(game.totals_before(number + 1)) == [s["total"] for s in detail["seats"]]
        assert [[p["card"] for p in t["plays"]] for t in detail["tricks"]] == [
            [str(c) for c in t.cards] for t in summary.tricks
        ]
        for seat in detail["seats"]:
            won = [CardSet(t.cards).mask for t in summary.tricks if t.winner == seat["seat"]]
            # The penalty cards and J♦ (-10) the seat took: what the terminal shows too.
            assert seat["points"] == sum(rules.points_taken(mask) for mask in won)
    assert any(rules.bonus_card in t.cards for s in game.summaries() for t in s.tricks)
    with pytest.raises(IndexError):
        hand_detail(game, len(game.finished))

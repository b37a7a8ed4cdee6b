"""Meeting people at the server: names that stay, public tables and the live lobby, Play now, table
chat, ratings and the leaderboard, the turn clock, rematches and the limits on each, through
FastAPI's test client (two browsers are two clients with their own identity cookies)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hearts.server.app import create_app
from hearts.server.community import Community, GameResult
from hearts.server.limits import TableLimits
from hearts.server.names import NameRefused, clean_name
from hearts.server.privacy import PLAYER_COOKIE, new_identity
from test_server import Seat, choose  # pytest puts tests/ on the path (it has no __init__.py)


class Browser:
    """One person's browser: the test client with this browser's identity cookie on every request
    (one client, so that every request runs on the served app's one event loop)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.identity = new_identity()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.client, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            self.client.cookies.clear()
            self.client.cookies.set(PLAYER_COOKIE, self.identity)
            return method(*args, **kwargs)

        return call


@contextlib.contextmanager
def people(tmp_path: Path, count: int = 2, **options: Any) -> Iterator[list[Any]]:
    """``count`` browsers (each its own identity cookie) on one server."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hearts.db'}", pause=0, **options)) as client:
        yield [Browser(client) for _ in range(count)]


def from_address_header(app: Any) -> Any:
    """``app`` with each request's client address taken from its ``X-Test-Address`` header: requests
    from several machines, through one test client (and so on the app's one event loop)."""

    async def asgi(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            for key, value in scope["headers"]:
                if key == b"x-test-address":
                    scope = {**scope, "client": (value.decode(), 50000)}
        await app(scope, receive, send)

    return asgi


def named(c: TestClient, name: str) -> None:
    r = c.put("/api/me", json={"name": name})
    assert r.status_code == 200, r.text


def public_table(c: TestClient, humans: int = 2, **options: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}] * humans + [{"kind": "computer", "level": "random"}] * (4 - humans)
    r = c.post("/api/tables", json={"seats": seats, "options": {"public": True, **options}})
    assert r.status_code == 200, r.text
    return r.json()


def listed(lobby: Any, wanted: Any) -> dict[str, Any]:
    """The first table the lobby's websocket pushes that ``wanted`` accepts."""
    while True:
        m = lobby.receive_json()
        if m["type"] == "listed" and wanted(m["table"]):
            return m["table"]


# -- names ---------------------------------------------------------------------------------------


def test_a_name_is_kept_with_the_browser_and_unique(tmp_path: Path) -> None:
    with people(tmp_path) as (ann, bob):
        me = ann.get("/api/me").json()
        assert me["name"] is None and 2 <= len(me["suggestion"]) <= 20
        named(ann, "  Ann   Lee ")
        assert ann.get("/api/me").json()["name"] == "Ann Lee"
        r = bob.put("/api/me", json={"name": "ANN LEE"})
        assert r.status_code == 422 and "taken" in r.json()["detail"]
        assert bob.get("/api/me").json()["name"] is None


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("a", "at least 2"),
        ("x" * 21, "at most 20"),
        ("<script>", "letters, digits"),
        ("Ann\u202eLee", "U+202E"),
        ("Ann\nLee", "U+000A"),
        ("hard", "computer player or a bot"),
        ("HARD", "computer player or a bot"),
        ("Ｈａｒｄ", "computer player or a bot"),  # full-width letters are the same name once normalised
        ("mybot", "computer player or a bot"),
        ("spectator", "seats that are not people"),
        ("\u04bbard", 'looks like "hard"'),  # a Cyrillic shha for the h
        ("\u0397\u0391RD", 'looks like "hard"'),  # Greek capital eta and alpha
        ("\u0435\u0430\u0455\u0443", 'looks like "easy"'),  # every letter Cyrillic
        ("m\u0443bot", 'looks like "mybot"'),
        ("H\u00e1rd", 'looks like "hard"'),
        ("\u0455pectator", "seats that are not people"),
    ],
)
def test_odd_names_are_refused_with_the_reason(tmp_path: Path, name: str, words: str) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", pause=0, bots={"mybot": "python3 -c pass"})) as c:
        c.get("/")
        r = c.put("/api/me", json={"name": name})
        assert r.status_code == 422 and words in r.json()["detail"], r.text
        assert c.get("/api/me").json()["name"] is None  # nothing stored


def test_hostile_name_bodies_are_refused_without_a_traceback(client: TestClient) -> None:
    client.get("/")
    for body in ({"name": 5}, {"name": None}, {}, {"name": "Ann", "admin": True}, {"name": "x" * 10_000}, [1]):
        r = client.put("/api/me", json=body)
        assert r.status_code == 422 and "Traceback" not in r.text
    r = client.put("/api/me", content=b'{"name": "\\ud800x"}', headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    client.cookies.clear()  # no identity cookie: told why
    r = client.put("/api/me", json={"name": "Ann"})
    assert r.status_code == 400 and "identity" in r.json()["detail"]


def test_name_changes_are_limited_a_day(client: TestClient) -> None:
    client.get("/")
    named(client, "First")  # choosing is not a change
    for n in range(3):
        named(client, f"Change {n}")
    r = client.put("/api/me", json={"name": "One Too Many"})
    assert r.status_code == 429 and "at most 3 a day" in r.json()["detail"] and " h " in r.json()["detail"]
    assert client.get("/api/me").json()["name"] == "Change 2"


def test_clean_name_normalises() -> None:
    assert clean_name("Ａｎｎ") == "Ann"
    # Names in other scripts are names like any other: only a reserved name's look-alike is refused.
    assert clean_name("\u0410\u043d\u043d\u0430", {"hard"}) == "\u0410\u043d\u043d\u0430"  # Anna in Cyrillic
    assert clean_name("\u03a3\u03bf\u03c6\u03af\u03b1", {"hard"}) == "\u03a3\u03bf\u03c6\u03af\u03b1"  # Sofia in Greek
    with pytest.raises(NameRefused):
        clean_name("a\u0301\u0301\u0301\u0301b")  # marks piled on a letter


# -- the lobby, sitting, Play now ---------------------------------------------------------------------


def test_a_public_table_appears_in_the_lobby_pushed_and_a_stranger_sits(tmp_path: Path) -> None:
    with people(tmp_path) as (ann, bob):
        named(ann, "Ann")
        named(bob, "Bob")
        with bob.websocket_connect("/ws/lobby") as lobby:
            first = lobby.receive_json()
            assert first["type"] == "lobby" and first["tables"] == []
            table = public_table(ann)
            # Ann made it: her seat is hers at once, with her name; the other free seat is the lobby's.
            entry = listed(lobby, lambda e: e["id"] == table["id"] and e["free"] == 1 and e["seats"][0]["name"] == "Ann")
            assert entry["status"] == "waiting" and "standard" in entry["rules"] and entry["seats"][0]["name"] == "Ann"
            assert [s["taken"] for s in entry["seats"]] == [True, False, True, True] and entry["watch"].startswith("/watch/")
            assert table["seats"][0]["token"] not in json.dumps(entry) and table["seats"][1]["token"] not in json.dumps(entry)
            with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
                welcome = Seat(ws, 0).until("welcome")
                assert welcome["table"]["names"][0] == "Ann" and welcome["table"]["public"] is True
                assert welcome["table"]["options"]["clock"] == {"play": 20, "pass": 40}
            r = bob.post(f"/api/tables/{table['id']}/sit", json={})
            assert r.status_code == 200, r.text
            assert r.json()["seat"] == 1 and r.json()["play_url"] == f"/play/{table['seats'][1]['token']}"
            full = listed(lobby, lambda e: e["free"] == 0)
            assert full["status"] == "playing" and [s["name"] for s in full["seats"]][:2] == ["Ann", "Bob"]
            # The seat is Bob's: a third person finds no free seat, and nobody can take a private table's.
            r = ann.post(f"/api/tables/{table['id']}/sit", json={})
            assert r.status_code == 200 and r.json()["seat"] == 0  # Ann gets her own seat back
        assert ann.get("/api/lobby").json()["tables"][0]["id"] == table["id"]


def test_sitting_is_refused_with_reasons(tmp_path: Path) -> None:
    with people(tmp_path, 3) as (ann, bob, cat):
        named(ann, "Ann")
        private = ann.post("/api/tables", json={"seats": [{"kind": "human"}] * 2 + [{"kind": "computer"}] * 2}).json()
        named(bob, "Bob")
        assert bob.post(f"/api/tables/{private['id']}/sit").status_code == 409
        table = public_table(ann, humans=2)
        assert bob.post(f"/api/tables/{table['id']}/sit", json={"seat": 9}).status_code == 422
        assert bob.post(f"/api/tables/{table['id']}/sit", json={"seat": 2}).json()["detail"] == "seat 2 (North) is not free: the free seats are seat 1 (West)"
        r = bob.post(f"/api/tables/{table['id']}/sit", json={"seat": 5})  # seats count from 0, as listed
        assert r.status_code == 409 and r.json()["detail"].startswith("seat 5 (this table's seats are 0 to 3) is not free")
        r = cat.post(f"/api/tables/{table['id']}/sit")
        assert r.status_code == 422 and "choose a name" in r.json()["detail"]
        named(cat, "Cat")
        assert bob.post(f"/api/tables/{table['id']}/sit").status_code == 200
        assert bob.post(f"/api/tables/{table['id']}/sit").status_code == 200  # the same seat again
        assert cat.post(f"/api/tables/{table['id']}/sit", json={"seat": 0}).status_code == 409
        assert cat.post("/api/tables/nosuchtable/sit").status_code == 404
        assert cat.post("/api/tables/" + "x" * 100 + "/sit").status_code == 422


def test_play_now_never_waits(tmp_path: Path) -> None:
    with people(tmp_path, 3) as (ann, bob, cat):
        named(ann, "Ann")
        waiting = public_table(ann, humans=3, wait=600)  # Ann would wait ten minutes for two more people
        r = bob.post("/api/play-now")  # Bob has no name yet: he gets one, and the waiting table's seat
        assert r.status_code == 200, r.text
        assert r.json()["table"] == waiting["id"] and r.json()["seat"] == 1
        assert bob.get("/api/me").json()["name"]
        # Bob waits for nobody: the table starts now, a computer in its last free seat.
        info = bob.get(f"/api/tables/{waiting['id']}").json()
        assert [s["kind"] for s in info["seats"]] == ["human", "human", "computer", "computer"]
        assert info["seats"][2]["level"] == "medium" and all(s["joined"] for s in info["seats"])
        entry = bob.get("/api/lobby").json()["tables"][0]
        assert entry["id"] == waiting["id"] and entry["status"] == "playing" and entry["free"] == 0
        with bob.websocket_connect(f"/ws/{r.json()['play_url'].split('/')[-1]}") as ws:
            welcome = Seat(ws, 1).until("welcome")
            assert welcome["view"]["phase"] == "pass" and 1 in welcome["view"]["to_move"]
            assert welcome["table"]["clock"]["1"] > 0  # his turn clock runs: the game is on
        # No table waits now: the next person gets a new table, computers in the other seats, started.
        r = cat.post("/api/play-now")
        assert r.status_code == 200 and r.json()["table"] != waiting["id"]
        info = cat.get(f"/api/tables/{r.json()['table']}").json()
        assert [s["kind"] for s in info["seats"]] == ["human", "computer", "computer", "computer"] and info["public"]
        with cat.websocket_connect(f"/ws/{r.json()['play_url'].split('/')[-1]}") as ws:
            assert Seat(ws, 0).until("welcome")["view"]["phase"] == "pass"


def test_a_public_tables_free_seats_fill_with_computers_after_its_wait(tmp_path: Path) -> None:
    with people(tmp_path, 1) as (ann,):
        named(ann, "Ann")
        table = public_table(ann, humans=2, wait=1)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            seats = ann.get(f"/api/tables/{table['id']}").json()["seats"]
            if seats[1]["kind"] == "computer":
                break
            time.sleep(0.2)
        assert seats[1]["kind"] == "computer" and seats[0]["kind"] == "human"


def test_bad_public_options_are_named(client: TestClient) -> None:
    for options, words in (
        ({"public": "yes"}, "true or false"),
        ({"wait": -1}, "'wait'"),
        ({"clock": {"play": 0, "pass": 40}}, "from 1 to 600"),
        ({"clock": {"play": 20}}, "'clock'"),
        ({"clock": "fast"}, "'clock'"),
        ({"public": True, "spectator_chat": 1}, "true or false"),
    ):
        r = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4, "options": options})
        assert r.status_code == 422 and words in r.json()["detail"], (options, r.text)
    r = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4, "options": {"public": True}, "seed": 4})
    assert r.status_code == 422 and "rated" in r.json()["detail"]


# -- chat ------------------------------------------------------------------------------------------


def test_chat_is_text_limited_and_kept(tmp_path: Path) -> None:
    with people(tmp_path) as (ann, bob):
        named(ann, "Ann")
        table = public_table(ann, humans=1)
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws, bob.websocket_connect(f"/ws/{table['watch_token']}") as watch:
            me, spectator = Seat(ws, 0), Seat(watch, None)
            me.until("welcome"), spectator.until("welcome")
            markup = "<script>alert(1)</script> <b>hi</b>"
            me.send(type="chat", text=markup)
            said = me.until("chat")
            assert said["text"] == markup and said["name"] == "Ann" and said["seat"] == 0 and not said["spectator"]
            assert spectator.until("chat")["text"] == markup  # stored and sent as the text it is
            for bad, words in (("", "needs some text"), ("x" * 201, "at most 200"), ("hi\u0007", "U+0007"), ("a\u202eb", "U+202E")):
                me.send(type="chat", text=bad)
                assert words in me.until("error")["message"]
            for n in range(4):
                me.send(type="chat", text=f"message {n}")
                assert me.until("chat")["text"] == f"message {n}"
            me.send(type="chat", text="one too many")
            error = me.until("error")
            assert error["about"] == "chat" and "at most 5 messages in 10 s" in error["message"]
            spectator.send(type="chat", text="from the rail")
            assert me.until("chat")["spectator"] is True
        chat = ann.get(f"/api/tables/{table['id']}/chat").json()["chat"]
        assert [c["text"] for c in chat] == [markup, "message 0", "message 1", "message 2", "message 3", "from the rail"]
        assert chat[-1]["name"] == "spectator" and chat[-1]["seat"] is None
        # A reconnect gets the chat so far in its welcome.
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            assert len(Seat(ws, 0).until("welcome")["chat"]) == 6


def test_spectators_chat_can_be_held_back_during_a_hand(tmp_path: Path) -> None:
    with people(tmp_path) as (ann, bob):
        named(ann, "Ann")
        table = public_table(ann, humans=1, spectator_chat=False)
        chat_url = f"/api/tables/{table['id']}/chat"
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws, bob.websocket_connect(f"/ws/{table['watch_token']}") as watch:
            me, spectator = Seat(ws, 0), Seat(watch, None)
            me.until("welcome"), spectator.until("welcome")
            spectator.send(type="chat", text="she holds the queen")
            assert spectator.until("chat")["text"] == "she holds the queen"
            me.send(type="ping")
            me.until("pong")
            assert not [m for m in me.messages if m["type"] == "chat"]
            # The chat route answers anyone: it holds the message back as the players' pages do.
            assert ann.get(chat_url).json()["chat"] == [] and bob.get(chat_url).json()["chat"] == []
            with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as again:
                assert Seat(again, 0).until("welcome")["chat"] == []  # still the same hand
            # Once the hand it was written in is over, the players get it, and so does the route.
            play_out(me, random.Random(7), done=lambda view: view["hand_number"] >= 2)
            released = me.until("chat")
            assert released["text"] == "she holds the queen" and released["spectator"] is True
            assert [c["text"] for c in bob.get(chat_url).json()["chat"]] == ["she holds the queen"]
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            assert [c["text"] for c in Seat(ws, 0).until("welcome")["chat"]] == ["she holds the queen"]


def test_a_private_tables_chat_is_not_open_while_it_is_played(client: TestClient) -> None:
    table = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
    assert client.get(f"/api/tables/{table['id']}/chat").status_code == 403
    assert client.get("/api/tables/nosuch/chat").status_code == 404


# -- ratings, the leaderboard ----------------------------------------------------------------------------


def play_out(seat: Seat, rng: random.Random, done: Callable[[dict[str, Any]], bool] | None = None) -> None:
    """Play seat 0 (the only person) until ``done(view)``, by default to the end of the game."""
    finished = done or (lambda view: view.get("phase") == "game-over")
    position = None
    while not finished(seat.view):
        view = seat.view
        key = (view["hand_number"], view["phase"], tuple(view["hand"]))
        if 0 in view["to_move"] and key != position:
            position = key
            seat.send(**choose(view, rng), seq=seat.seq)
        seat.until("update")


def test_a_public_game_is_rated_and_the_leaderboard_shows_players_with_five(tmp_path: Path) -> None:
    with people(tmp_path, 1) as (ann,):
        named(ann, "Ann")
        for game in range(5):
            table = ann.post(
                "/api/tables",
                json={"preset": "short", "rules": {"target": 20}, "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3, "options": {"public": True, "clock": None}},
            ).json()  # fmt: skip
            with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
                seat = Seat(ws, 0)
                seat.until("welcome")
                play_out(seat, random.Random(game))
            time.sleep(0.3)
            if game == 0:
                page = ann.get("/api/players/Ann").json()
                assert page["games"] == 1 and page["recent"][0]["table"] == table["id"]
                assert ann.get("/api/leaderboard").json()["players"] == []  # fewer than 5 games
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and ann.get("/api/players/Ann").json()["games"] < 5:
            time.sleep(0.2)
        board = ann.get("/api/leaderboard").json()["players"]
        names = {row["name"]: row for row in board}
        assert set(names) == {"Ann", "random"}
        assert names["Ann"]["games"] == 5 and 0 <= names["Ann"]["win_share"] <= 1 and names["Ann"]["average_points"] is not None
        assert names["Ann"]["rating"] == pytest.approx(names["Ann"]["mu"] - 3 * names["Ann"]["sigma"], abs=0.01)
        assert ann.get("/api/players/random").json()["kind"] == "computer"
        assert ann.get("/api/players/nobody-here").status_code == 404
        assert ann.get("/api/players/" + "x" * 200).status_code == 422
        assert ann.get("/leaderboard").status_code == 200 and ann.get("/players/Ann").status_code == 200


def test_ratings_rank_by_totals_with_ties(tmp_path: Path) -> None:
    from sqlalchemy import create_engine

    community = Community(create_engine(f"sqlite:///{tmp_path / 'r.db'}"))
    results = [GameResult("person:a", "A", 40, True, 5), GameResult("person:b", "B", 40, True, 5), GameResult("computer:hard", "hard", 101, False, 5)]
    community.rate_game("t1", results)
    community.rate_game("t1", results)  # rated once
    shown = community.ratings_of(["person:a", "person:b", "computer:hard"])
    assert shown["person:a"] == pytest.approx(shown["person:b"]) and shown["person:a"] > shown["computer:hard"]
    assert community.player_page("person:a")["games"] == 1


def test_private_and_practice_games_are_not_rated(tmp_path: Path) -> None:
    with people(tmp_path, 1) as (ann,):
        named(ann, "Ann")
        table = ann.post(
            "/api/tables",
            json={"preset": "short", "rules": {"target": 10}, "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3},
        ).json()  # fmt: skip
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            seat = Seat(ws, 0)
            seat.until("welcome")
            play_out(seat, random.Random(1))
        time.sleep(0.3)
        assert ann.get("/api/players/Ann").json()["games"] == 0


def short_public_game(c: Any, target: int = 20, **options: Any) -> dict[str, Any]:
    """A public game to ``target`` of one person (seat 0, the creator's) and three random computers, no clock."""
    body = {
        "preset": "short", "rules": {"target": target}, "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3,
        "options": {"public": True, "clock": None, **options},
    }  # fmt: skip
    r = c.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def rated_games(c: Any, name: str, at_least: int = 1, limit: float = 5.0) -> int:
    """``name``'s rated games, once there are ``at_least`` (rating a finished game runs in the background) or ``limit`` s passed."""
    deadline = time.monotonic() + limit
    while True:
        games = int(c.get(f"/api/players/{name}").json()["games"])
        if games >= at_least or time.monotonic() > deadline:
            return games
        time.sleep(0.1)


def test_a_game_left_to_the_stand_in_is_rated_for_its_person_and_unlisted_when_over(tmp_path: Path) -> None:
    with people(tmp_path) as (ann, bob):
        named(ann, "Ann")
        with bob.websocket_connect("/ws/lobby") as lobby:
            assert lobby.receive_json()["type"] == "lobby"
            table = short_public_game(ann, standin_after=1, standin_level="random")  # away 1 s: her stand-in plays
            with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
                seat = Seat(ws, 0)
                seat.until("welcome")
                while 0 not in seat.view["to_move"]:
                    seat.until("update")
                seat.send(**choose(seat.view, random.Random(2)), seq=seat.seq)  # Ann makes one move, then leaves
                while seat.until("update")["actor"] != "human":
                    pass
            # Her stand-in plays the game out; the lobby's watchers are told it is gone once it is over.
            while True:
                m = lobby.receive_json()
                if m["type"] == "unlisted" and m["id"] == table["id"]:
                    break
        assert ann.get(f"/api/tables/{table['id']}").json()["status"] == "over"
        assert rated_games(ann, "Ann") == 1  # a game a person left to a stand-in counts for them
        assert ann.get("/api/players/Ann").json()["recent"][0]["table"] == table["id"]


def test_an_abandoned_game_is_not_rated(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", pause=0, abandon_after=1.0)) as c:
        c.get("/")
        named(c, "Ann")
        table = short_public_game(c, target=100)  # no game ends in its first hand
        with c.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            seat = Seat(ws, 0)
            seat.until("welcome")
            play_out(seat, random.Random(4), done=lambda view: view["hand_number"] >= 2)  # one hand scored, then she leaves
        deadline = time.monotonic() + 15
        while c.get(f"/api/tables/{table['id']}").json()["status"] != "abandoned" and time.monotonic() < deadline:
            time.sleep(0.2)
        assert c.get(f"/api/tables/{table['id']}").json()["status"] == "abandoned"
        time.sleep(0.3)
        assert c.get("/api/players/Ann").json()["games"] == 0
        assert c.get("/api/players/random").status_code == 404 or c.get("/api/players/random").json()["games"] == 0


def test_a_public_tables_free_seats_wait_60_s_unless_its_creator_chose(tmp_path: Path) -> None:
    with people(tmp_path, 1) as (ann,):
        named(ann, "Ann")
        assert ann.get("/api/options").json()["table_options"]["wait"] == 60
        table = public_table(ann)  # no wait given
        assert ann.get(f"/api/tables/{table['id']}").json()["options"]["wait"] == 60
        entry = ann.get("/api/lobby").json()["tables"][0]
        assert entry["fill_at"] - entry["created_at"] == pytest.approx(60)  # when the lobby fills it with computers
        chosen = public_table(ann, wait=5)
        entry = next(e for e in ann.get("/api/lobby").json()["tables"] if e["id"] == chosen["id"])
        assert entry["fill_at"] - entry["created_at"] == pytest.approx(5)


# -- the turn clock -------------------------------------------------------------------------------------


def test_the_clock_moves_for_a_seat_then_its_stand_in_plays_until_the_person_is_back(tmp_path: Path) -> None:
    with people(tmp_path, 1) as (ann,):
        named(ann, "Ann")
        table = public_table(ann, humans=1, clock={"play": 1, "pass": 1})
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            seat = Seat(ws, 0)
            welcome = seat.until("welcome")
            assert 0 < welcome["table"]["clock"]["0"] <= 1
            actors = []
            while len([a for a in actors if a == "clock"]) < 3:
                m = seat.until("update")
                if m["events"] and m["events"][0].get("seat") == 0 and m["events"][0]["type"] in ("cards_passed", "card_played"):
                    actors.append(m["actor"])
            assert actors[:3] == ["clock"] * 3
            table_msg = seat.until("table")
            assert table_msg["table"]["seats"][0]["clocked_out"] is True
            while True:  # its stand-in plays on, at once
                m = seat.until("update")
                if m["events"] and m["events"][0].get("seat") == 0 and m["events"][0]["type"] == "card_played":
                    assert m["actor"] == "stand-in"
                    break
            seat.send(type="back")
            back = seat.until("table")
            assert back["table"]["seats"][0]["clocked_out"] is False


def test_the_clocks_move_is_the_hints_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hearts.server.driver as driver

    monkeypatch.setattr(driver, "HINT_PROCESSES", 0)  # hints think in the server's threads, as the level below needs
    # A level whose choice hangs on its seed: only the hint's own decision passes the hint's cards.
    monkeypatch.setattr(driver, "hint_level", lambda: "random")
    with people(tmp_path, 1) as (ann,):
        named(ann, "Ann")
        table = public_table(ann, humans=1, clock={"play": 3, "pass": 3})
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            seat = Seat(ws, 0)
            assert seat.until("welcome")["view"]["phase"] == "pass"
            seat.send(type="hint")
            hint = seat.until("hint")
            assert hint["level"] == "random" and len(hint["move"]["cards"]) == 3
            while True:  # Ann never passes: the clock does, with the hint's cards
                update = seat.until("update")
                mine = [e for e in update["events"] if e["type"] == "cards_passed" and e["seat"] == 0]
                if mine:
                    break
            assert update["actor"] == "clock" and sorted(mine[0]["cards"]) == sorted(hint["move"]["cards"])


def test_the_clock_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hearts.db'}"
    with TestClient(create_app(url, pause=0)) as c:
        c.get("/")
        named(c, "Ann")
        table = public_table(c, humans=1, clock={"play": 20, "pass": 30})
        with c.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            left = Seat(ws, 0).until("welcome")["table"]["clock"]["0"]
        assert 28 < left <= 30
        time.sleep(1.2)
    with TestClient(create_app(url, pause=0)) as c:
        info = c.get(f"/api/tables/{table['id']}").json()
        assert info["clock"]["0"] < left - 1  # counted from the stored times, not from the restart


def test_a_private_table_has_no_clock(client: TestClient) -> None:
    table = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
    assert client.get(f"/api/tables/{table['id']}").json()["clock"] is None


# -- rematch -------------------------------------------------------------------------------------------


def test_rematch_seats_the_same_people_again(tmp_path: Path) -> None:
    with people(tmp_path, 1) as (ann,):
        named(ann, "Ann")
        table = ann.post(
            "/api/tables",
            json={"preset": "short", "rules": {"target": 10}, "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3, "options": {"public": True, "clock": None}},
        ).json()  # fmt: skip
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            seat = Seat(ws, 0)
            seat.until("welcome")
            seat.send(type="rematch")
            assert "once the game is over" in seat.until("error")["message"]
            play_out(seat, random.Random(3))
            seat.send(type="rematch")
            again = seat.until("rematch")
        assert again["play"].startswith("/play/") and again["table"] != table["id"]
        token = again["play"].split("/")[-1]
        with ann.websocket_connect(f"/ws/{token}") as ws:
            welcome = Seat(ws, 0).until("welcome")
        assert welcome["table"]["names"][0] == "Ann" and welcome["table"]["rules"]["target"] == 10 and welcome["table"]["public"]


# -- limits ----------------------------------------------------------------------------------------------


def test_table_creation_is_limited_with_the_reason(tmp_path: Path) -> None:
    with people(tmp_path, 1, table_limits=TableLimits(per_minute=3, open_at_once=5)) as (ann,):
        seats = [{"kind": "human"}] + [{"kind": "computer"}] * 3
        for _ in range(3):
            assert ann.post("/api/tables", json={"seats": seats}).status_code == 200
        r = ann.post("/api/tables", json={"seats": seats})
        assert r.status_code == 429 and "at most 3 a minute from your browser; the next one in" in r.json()["detail"]
        assert ann.post("/api/quick", json={}).status_code == 429
        assert ann.post("/api/play-now").status_code == 429


def test_twenty_open_tables_from_one_browser_then_one_more_is_refused_until_one_closes(tmp_path: Path) -> None:
    from hearts.server.upkeep import abandon_idle

    limits = TableLimits(per_minute=0, open_at_once=20)  # no limit a minute here: the tables open are the limit
    with people(tmp_path, 2, table_limits=limits) as (ann, bob):
        seats = [{"kind": "human"}] * 4
        for _ in range(20):
            assert ann.post("/api/tables", json={"seats": seats}).status_code == 200
        words = "tables: at most 20 open at once from your browser; finish or leave one first (a game with nobody at it closes as abandoned)"
        for path, body in (("/api/tables", {"seats": seats}), ("/api/quick", {}), ("/api/play-now", None)):
            r = ann.post(path, json=body)
            assert r.status_code == 429 and r.json()["detail"] == words, (path, r.text)
        assert bob.post("/api/tables", json={"seats": seats}).status_code == 200  # another browser at the address: 60 open
        # Nobody is at Ann's tables: once they close as abandoned, she may open more.
        manager = ann.client.app.state.manager
        assert len(ann.client.portal.call(abandon_idle, manager, time.time() + manager.abandon_after + 1)) == 21
        assert ann.post("/api/tables", json={"seats": seats}).status_code == 200


def test_the_address_limit_refuses_with_the_reason_and_uses_none_of_the_browsers_count(tmp_path: Path) -> None:
    limits = TableLimits(per_minute=2, open_at_once=20)  # an address: three times a browser's, 6 a minute
    app = from_address_header(create_app(f"sqlite:///{tmp_path / 'hearts.db'}", pause=0, table_limits=limits))
    seats = [{"kind": "human"}] * 4
    with TestClient(app) as client:
        house = [Browser(client) for _ in range(4)]

        def make(browser: Browser, address: str, body: dict[str, Any] | None = None) -> Any:
            return browser.post("/api/tables", json=body or {"seats": seats}, headers={"X-Test-Address": address})

        for browser in house[:3]:
            for _ in range(2):
                assert make(browser, "10.0.0.1").status_code == 200
        late = house[3]
        for _ in range(3):  # refused for the address: none of these uses one of the late browser's 2 a minute
            r = make(late, "10.0.0.1")
            assert r.status_code == 429 and r.json()["detail"].startswith("tables: at most 6 a minute from your address; the next one in "), r.text
            assert 1 <= int(r.json()["detail"].split(" in ")[-1].removesuffix(" s")) <= 60
        # A table asked for wrongly (422) uses no slot either.
        bad = make(late, "10.0.0.2", {"seats": [{"kind": "computer", "level": "grandmaster"}] * 4})
        assert bad.status_code == 422 and "unknown computer level" in bad.json()["detail"]
        for _ in range(2):
            assert make(late, "10.0.0.2").status_code == 200
        r = make(late, "10.0.0.3")
        assert r.status_code == 429 and r.json()["detail"].startswith("tables: at most 2 a minute from your browser; the next one in ")


# -- hostile input to the new routes and messages ----------------------------------------------------------


def test_hostile_requests_to_the_new_routes_are_answered_with_reasons(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("WARNING", logger="hearts")
    with people(tmp_path, 1) as (ann,):
        named(ann, "Ann")
        table = public_table(ann)
        for path in ("/api/players/..%2F..", "/api/players/%00", "/api/players/" + "\u202e" * 20, "/api/players/%F0%9F%82%A1"):
            assert ann.get(path).status_code in (404, 422)
        for body in ({"seat": "1"}, {"seat": -1}, {"seat": 1.5}, {"seat": 2**70}, {"seats": 1}, [1]):
            r = ann.post(f"/api/tables/{table['id']}/sit", json=body)
            assert r.status_code == 422 and "Traceback" not in r.text, (body, r.text)
        assert ann.post("/api/play-now", json={"table": "x"}).status_code == 422
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            seat = Seat(ws, 0)
            seat.until("welcome")
            for message in ({"type": "chat"}, {"type": "chat", "text": 5}, {"type": "chat", "text": ["a"]}, {"type": "chat", "text": "x" * 3000},
                            {"type": "back", "seat": 1}, {"type": "rematch", "yes": True}):  # fmt: skip
                seat.send(**message)
                error = seat.until("error")
                assert error["about"] == "chat" or error["about"] in ("back", "rematch"), error
        # The lobby's websocket takes no messages: a few are ignored, a flood closes it with the reason.
        with ann.websocket_connect("/ws/lobby") as lobby:
            assert lobby.receive_json()["type"] == "lobby"
            for _ in range(25):
                lobby.send_text("<script>" * 100)
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    lobby.receive_json()
            assert closed.value.code == 1008 and "takes no messages" in closed.value.reason
    chat = [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"]
    assert chat == [], [r.getMessage() for r in chat]


def test_a_flood_of_play_now_is_refused_once_past_the_limit(tmp_path: Path) -> None:
    with people(tmp_path, 1) as (ann,):
        made = []
        for _ in range(12):
            r = ann.post("/api/play-now")
            if r.status_code != 200:
                break
            made.append(r.json()["table"])
        assert len(made) == 10 and r.status_code == 429 and "at most 10 a minute from your browser" in r.json()["detail"]
        assert len(ann.get("/api/history").json()) == 10  # nothing stored for the refused ones


def test_a_person_takes_a_computers_seat_from_the_next_hand_and_is_not_rated_for_that_game(tmp_path: Path) -> None:
    with people(tmp_path) as (ann, bob):
        named(ann, "Ann")
        named(bob, "Bob")
        table = ann.post(
            "/api/tables",
            json={"preset": "short", "rules": {"target": 30}, "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3, "options": {"public": True, "clock": None, "standin_after": 0}},
        ).json()  # fmt: skip
        r = bob.post(f"/api/tables/{table['id']}/sit")
        assert r.status_code == 200 and r.json()["seat"] == 1, r.text  # the first computer's seat, from the next hand
        token = r.json()["play_url"].split("/")[-1]
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws, bob.websocket_connect(f"/ws/{token}") as claimed:
            me, waiting = Seat(ws, 0), Seat(claimed, None)
            me.until("welcome")
            welcome = waiting.until("welcome")
            assert welcome["role"] == "spectator" and welcome["view"]["hand"] == []  # no computer's cards before it is his
            # Ann plays hand 1 out; the computers play seat 2's part.
            play_out(me, random.Random(5), done=lambda view: view["hand_number"] >= 2)
            assert waiting.until("seated")["seat"] == 1
        with bob.websocket_connect(f"/ws/{token}") as ws:
            now = Seat(ws, 1).until("welcome")
        assert now["role"] == "player" and now["seat"] == 1 and now["table"]["names"][1] == "Bob"
        assert now["table"]["seats"][1]["kind"] == "human" and len(now["view"]["hand"]) == 13
        assert bob.post(f"/api/tables/{table['id']}/sit").json()["seat"] == 1  # his seat, again
        # Bob leaves; his stand-in plays on (standin_after 0) while Ann finishes the game.
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            me = Seat(ws, 0)
            me.until("welcome")
            play_out(me, random.Random(6))
        deadline = time.monotonic() + 5
        while ann.get("/api/players/Ann").json()["games"] < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert ann.get("/api/players/Ann").json()["games"] == 1
        assert ann.get("/api/players/Bob").json()["games"] == 0  # he sat after the first hand


def test_an_abandoned_public_table_leaves_the_lobby(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", pause=0, abandon_after=1.0)) as c:
        c.get("/")
        named(c, "Ann")
        table = public_table(c, humans=2, wait=600)
        assert [t["id"] for t in c.get("/api/lobby").json()["tables"]] == [table["id"]]
        deadline = time.monotonic() + 15
        while c.get("/api/lobby").json()["tables"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert c.get("/api/lobby").json()["tables"] == []
        assert c.get("/api/history").json()[0]["status"] == "abandoned"


@pytest.mark.skipif(not os.environ.get("HEARTS_TEST_PG_URL"), reason="HEARTS_TEST_PG_URL is not set (no PostgreSQL server to test against)")
def test_names_lobby_chat_and_ratings_on_postgresql() -> None:
    pytest.importorskip("psycopg")
    from sqlalchemy import text

    url = os.environ["HEARTS_TEST_PG_URL"]
    with TestClient(create_app(url, pause=0)) as client:
        with client.app.state.storage.engine.begin() as conn:  # a clean start: this test's rows only
            for name in ("hearts_people", "hearts_chat", "hearts_ratings", "hearts_rated_games", "hearts_lobby"):
                conn.execute(text(f"DELETE FROM {name}"))
        ann, bob = Browser(client), Browser(client)
        named(ann, "Ann")
        assert bob.put("/api/me", json={"name": "ANN"}).status_code == 422
        table = public_table(ann)
        assert [t["id"] for t in ann.get("/api/lobby").json()["tables"]] == [table["id"]]
        with ann.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            me = Seat(ws, 0)
            me.until("welcome")
            me.send(type="chat", text="<b>hi</b>")
            assert me.until("chat")["text"] == "<b>hi</b>"
        assert [c["text"] for c in ann.get(f"/api/tables/{table['id']}/chat").json()["chat"]] == ["<b>hi</b>"]
        community = client.app.state.manager.community
        for n in range(5):
            community.rate_game(f"pg-{n}", [GameResult("person:pg-a", "A", 10, True, 3), GameResult("computer:hard", "hard", 40, False, 3)])
        board = {row["name"]: row for row in ann.get("/api/leaderboard").json()["players"]}
        assert board["hard"]["games"] == 5 and board["hard"]["win_share"] == 0.0

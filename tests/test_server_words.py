"""What people at a table read from the server (issue 23): refusals said to the seat that moved, late and
repeated moves explained without sequence numbers, an away person's presence and the table's plan for
their seat, hints with their words apart from their figures; and the start-up warm-up of the players."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hearts.core import Game, Rules
from hearts.server import app as app_module
from hearts.server.app import create_app

CARD_CODE = re.compile(r"\b(10|[2-9JQKA])[CDSH]\b")


def seed_where(preset: str, leader: int) -> int:
    return next(s for s in range(1000) if Game(Rules.preset(preset), seed=s).to_move == (leader,))


def new_table(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"seats": seats, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        m = ws.receive_json()
        if m["type"] == kind:
            return m


def error_for(ws: Any, message: dict[str, Any]) -> str:
    ws.send_text(json.dumps(message))
    return until(ws, "error")["message"]


def test_refusals_are_said_to_the_seat_in_players_words(client: TestClient) -> None:
    table = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}] + [{"kind": "human"}] * 2,
                      preset="no-passing", seed=seed_where("no-passing", 0))  # fmt: skip
    with client.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ann, client.websocket_connect(f"/ws/{table['seats'][1]['token']}") as bob:
        view = until(ann, "welcome")["view"]
        until(bob, "welcome")
        hand = view["hand"]
        other = next(c for c in hand if c != "2C")
        missing = next(f"{r}{s}" for s in "CDSH" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") if f"{r}{s}" not in hand)
        said = {
            "lead": error_for(ann, {"type": "play", "card": other, "seq": 0}),
            "not held": error_for(ann, {"type": "play", "card": missing, "seq": 0}),
            "no passing": error_for(ann, {"type": "pass", "cards": hand[:3], "seq": 0}),
            "out of turn": error_for(bob, {"type": "play", "card": "AS", "seq": 0}),
        }
        assert said["lead"].startswith("You can't play ") and said["lead"].endswith("the first trick must be opened with 2♣")
        assert said["not held"] == f"You don't hold {missing[:-1]}{'♣♦♠♥'['CDSH'.index(missing[-1])]}"
        assert said["no passing"] == "No passing now: it is your turn to play"
        assert said["out of turn"] == "Not your turn: Ann plays now"
        for text in said.values():
            assert not CARD_CODE.search(text) and "South" not in text and "seq" not in text, text
        # Nothing changed: Ann still leads.
        ann.send_text(json.dumps({"type": "play", "card": "2C", "seq": 0}))
        assert until(ann, "update")["seq"] == 1


def test_late_and_repeated_moves_are_explained_without_seq(client: TestClient) -> None:
    table = new_table(client, [{"kind": "human"}] * 4, preset="no-passing", seed=seed_where("no-passing", 0))
    with client.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
        until(ws, "welcome")
        ws.send_text(json.dumps({"type": "play", "card": "2C", "seq": 0}))
        assert until(ws, "update")["seq"] == 1
        # A double click: the same card again for the same view.
        assert error_for(ws, {"type": "play", "card": "2C", "seq": 0}) == (
            "too late: you already played 2♣ and the table has moved on; nothing was changed"
        )
        assert error_for(ws, {"type": "play", "card": "3C", "seq": 0}) == (
            "too late: you have moved since and the table has moved on; nothing was changed"
        )
        assert error_for(ws, {"type": "play", "card": "3C", "seq": 99}).startswith("out of step:")
    assert client.get(f"/api/tables/{table['id']}").json()["seq"] == 1


@pytest.mark.parametrize("standin_after", [None, 30])
def test_an_away_person_and_the_tables_plan_for_their_seat(client: TestClient, standin_after: int | None) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "computer", "level": "random"}, {"kind": "human"}]
    table = new_table(client, seats, preset="no-passing", seed=seed_where("no-passing", 1), options={"standin_after": standin_after})
    with client.websocket_connect(f"/ws/{table['seats'][1]['token']}") as bob:
        until(bob, "welcome")
    with client.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ann:
        seats_now = until(ann, "welcome")["table"]["seats"]
    ann_, bob_, computer, never = seats_now
    assert ann_["connected"] and ann_["away_for"] is None and ann_["takeover_in"] is None
    assert computer["away_for"] is None and computer["takeover_in"] is None
    assert not never["joined"] and never["away_for"] is None  # not yet joined: not "away"
    assert not bob_["connected"] and 0 <= bob_["away_for"] < 10
    if standin_after is None:
        assert bob_["takeover_in"] is None  # the table waits for him
    else:
        assert 20 < bob_["takeover_in"] <= 30
    info = client.get(f"/api/tables/{table['id']}").json()["seats"][1]
    assert set(info) >= {"away_for", "takeover_in"} and "token" not in info


def test_a_hint_sends_its_words_and_its_figures_apart(client: TestClient) -> None:
    table = new_table(client, [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3, preset="standard", seed=3)
    with client.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
        until(ws, "welcome")
        ws.send_text(json.dumps({"type": "hint"}))
        hint = until(ws, "hint")
    assert hint["summary"] and not re.search(r"\d+ (worlds|deals)", hint["summary"])
    if hint["details"]:
        assert hint["reason"] == f"{hint['summary']} ({hint['details']})"
    else:
        assert hint["reason"] == hint["summary"]


def test_the_players_warm_up_in_the_background_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started, served, finished = threading.Event(), threading.Event(), threading.Event()

    def held_warm_up() -> None:
        started.set()
        served.wait(30)  # held until the test has been answered: a start-up that waited for it would stall here
        finished.set()

    monkeypatch.setattr(app_module, "warm_up_players", held_warm_up)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}")) as c:
        assert c.get("/api/options").status_code == 200
    assert not started.is_set()  # off unless asked (tests, embedded apps)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", warm_up=True)) as c:
        assert c.get("/api/options").status_code == 200
        assert not finished.is_set()  # served while it warms: start-up does not wait for it
        served.set()
        assert started.wait(5) and finished.wait(5)

"""Play this deal again and hand reviews at the server: a finished hand dealt again at a practice
table, the computers passing as they did, never counted in the statistics; a finished hand's review
worked out in the background with progress, for a seat (by its token) while the game is played and
for anyone once it is over, and kept."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient
from tests.test_server import Seat, choose, new_table, seated


def play_hand(seat: Seat, rng: random.Random, passing: list[str] | None = None) -> None:
    """The person at ``seat`` (the table's only one) moves until a hand is over; ``passing``: its pass."""
    acted = -1
    while True:
        view = seat.view
        if seat.seat in view["to_move"] and acted != seat.seq:
            move = choose(view, rng)
            if view["phase"] == "pass" and passing is not None:
                move["cards"] = passing
            seat.send(**move, seq=seat.seq)
            acted = seat.seq
        if seat.recv().get("finished_hand"):
            return


def test_a_finished_hand_is_dealt_again_at_a_practice_table(client: TestClient) -> None:
    table = new_table(client, ["human", "random", "easy", "random"])
    tid, token = table["id"], table["seats"][0]["token"]
    # Before any hand is over there is nothing to play again: said in words, nothing made.
    r = client.post(f"/api/tables/{tid}/hands/1/again", json={}, headers={"X-Hearts-Token": token})
    assert r.status_code == 422 and "no finished hand 1" in r.json()["detail"]
    with seated(client, {"seats": table["seats"][:1], "watch_token": table["watch_token"]}, watch=False) as (seats, _):
        play_hand(seats[0], random.Random(5))
    first = client.get(f"/api/tables/{tid}/hands/1").json()
    before = client.get("/api/stats").json()

    # The person's seat comes from their token: seat 0 here, dealt the same cards.
    r = client.post(f"/api/tables/{tid}/hands/1/again", json={}, headers={"X-Hearts-Token": token})
    assert r.status_code == 200, r.text
    again = r.json()
    assert again["practice"] is True and again["play_url"].endswith(again["seats"][0]["token"])
    assert [s["kind"] for s in again["seats"]] == ["human", "computer", "computer", "computer"]
    assert [s["level"] for s in again["seats"][1:]] == ["random", "easy", "random"]
    info = client.get(f"/api/tables/{again['id']}").json()
    assert info["practice"] and info["again_of"] == {"table": tid, "hand": 1}

    passed = first["seats"][0]["passed"]
    with seated(client, {"seats": again["seats"][:1], "watch_token": again["watch_token"]}, watch=False) as (seats, _):
        assert sorted(seats[0].view["hand"]) == sorted(first["seats"][0]["dealt"])
        assert seats[0].view["direction"] == first["direction"]
        play_hand(seats[0], random.Random(6), passing=passed)
    replayed = client.get(f"/api/tables/{again['id']}/hands/1").json()
    for old, new in zip(first["seats"], replayed["seats"], strict=True):
        assert new["dealt"] == old["dealt"]
        assert new["passed"] == old["passed"] and new["received"] == old["received"]  # the computers passed as before
    # The practice table counts for no one.
    assert client.get("/api/stats").json() == before
    history = {g["id"]: g for g in client.get("/api/history").json()}
    assert history[again["id"]]["practice"] is True


def test_a_deal_played_again_keeps_the_computers_passes_across_a_restart(tmp_path: Any, monkeypatch: Any) -> None:
    """The server stops before the new table's computers pass; the next server resumes the table and
    they pass what their seats passed in the original hand."""
    from hearts.server.app import create_app
    from hearts.server.driver import SeatDriver

    url = f"sqlite:///{tmp_path / 'hearts.db'}"
    with TestClient(create_app(url, pause=0)) as client:
        table = new_table(client, ["human", "random", "random", "random"])
        tid, token = table["id"], table["seats"][0]["token"]
        with seated(client, {"seats": table["seats"][:1], "watch_token": table["watch_token"]}, watch=False) as (
            seats,
            _,
        ):
            play_hand(seats[0], random.Random(5))
        first = client.get(f"/api/tables/{tid}/hands/1").json()
        with monkeypatch.context() as held:  # the new table's computers are not asked before the stop
            held.setattr(SeatDriver, "kick", lambda self: None)
            r = client.post(f"/api/tables/{tid}/hands/1/again", json={}, headers={"X-Hearts-Token": token})
        assert r.status_code == 200, r.text
        again = r.json()
        storage = client.app.state.storage  # type: ignore[attr-defined]
        stored = storage.load_table(again["id"])
        assert stored is not None and stored.actions == []  # nobody has passed
    with TestClient(create_app(url, pause=0)) as client:
        with seated(client, {"seats": again["seats"][:1], "watch_token": again["watch_token"]}, watch=False) as (
            seats,
            _,
        ):
            play_hand(seats[0], random.Random(6), passing=first["seats"][0]["passed"])
        replayed = client.get(f"/api/tables/{again['id']}/hands/1").json()
    for old, new in zip(first["seats"], replayed["seats"], strict=True):
        assert new["passed"] == old["passed"] and new["received"] == old["received"]


def test_play_again_refuses_bad_input_in_words(client: TestClient) -> None:
    table = new_table(client, ["human", "random", "random", "random"])
    tid = table["id"]
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        ("/api/tables/nosuch/hands/1/again", {}, 404, "no table"),
        (f"/api/tables/{tid}/hands/3/again", {}, 422, "no finished hand 3"),
        (f"/api/tables/{tid}/hands/1/again", {"level": "grandmaster"}, 422, "unknown computer level"),
        (f"/api/tables/{tid}/hands/1/again", {"seat": 9}, 422, "seat"),
        (f"/api/tables/{tid}/hands/1/again", {"colour": "red"}, 422, "colour"),
    ]
    for path, body, code, words in cases:
        r = client.post(path, json=body)
        assert r.status_code == code, (path, body, r.text)
        assert words in r.text


def test_a_seat_reviews_its_finished_hand_in_the_background(tmp_path: Any) -> None:
    import time

    from hearts.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'hearts.db'}", pause=0, review_worlds=8)) as client:
        table = new_table(client, ["human", "random", "random", "random"])
        tid, token = table["id"], table["seats"][0]["token"]
        path = f"/api/tables/{tid}/hands/1/review"
        # Not over yet: said so; nobody but a seat may ask while the game is played.
        r = client.post(path, json={}, headers={"X-Hearts-Token": token})
        assert r.status_code == 404 and "not over yet" in r.json()["detail"]
        with seated(client, {"seats": table["seats"][:1], "watch_token": table["watch_token"]}, watch=False) as (
            seats,
            _,
        ):
            play_hand(seats[0], random.Random(5))
        assert client.post(path, json={}).status_code == 403
        r = client.post(path, json={"seat": 2}, headers={"X-Hearts-Token": token})
        assert r.status_code == 403 and "only your own seat" in r.json()["detail"]
        answers = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            r = client.post(path, json={}, headers={"X-Hearts-Token": token})
            assert r.status_code == 200, r.text
            answers.append(r.json())
            if answers[-1]["status"] != "working":
                break
            time.sleep(0.2)
        assert answers[0]["status"] == "working", answers[0]  # worked out in the background
        done = answers[-1]
        assert done["status"] == "done", done
        review = done["review"]
        assert review["seat"] == 0 and review["hand"] == 1 and review["worlds"] == 8
        assert review["decisions"] and all(d["mark"] for d in review["decisions"])
        # Kept: asked again, answered at once from the database.
        again = client.post(path, json={}, headers={"X-Hearts-Token": token}).json()
        assert again == done


def test_once_the_game_is_over_anyone_reviews_any_seat(tmp_path: Any) -> None:
    check_a_review_is_kept(f"sqlite:///{tmp_path / 'hearts.db'}")


def check_a_review_is_kept(url: str) -> None:
    """Once a game on the database at ``url`` is over anyone reviews any seat; the review is stored,
    answered at once by the next server on the same database, and replaced (never added to) when it
    is made again with other settings (also run on PostgreSQL by test_server_postgres.py)."""
    import time

    from tests.test_server import play_game

    from hearts.server.app import create_app

    with TestClient(create_app(url, pause=0, review_worlds=4)) as client:
        table = new_table(client, ["human"] * 4, preset="short", seed=3)
        with seated(client, table, watch=False) as (seats, _):
            play_game(seats, random.Random(3))
        path = f"/api/tables/{table['id']}/hands/1/review"
        assert client.post(path, json={"seat": 7}).status_code == 422  # no such seat, said before any work
        deadline = time.monotonic() + 120
        answer = client.post(path, json={"seat": 2}).json()
        while answer["status"] == "working" and time.monotonic() < deadline:
            time.sleep(0.2)
            answer = client.post(path, json={"seat": 2}).json()
        assert answer["status"] == "done" and answer["review"]["seat"] == 2, answer
    with TestClient(create_app(url, pause=0, review_worlds=4)) as client:
        assert client.post(path, json={"seat": 2}).json() == answer  # from the database, at the first ask
        storage = client.app.state.storage  # type: ignore[attr-defined]
        tid = table["id"]
        rows = review_rows(storage, tid)
        assert [(n, s) for n, s, _, _ in rows] == [(0, 2)] and json.loads(rows[0][3]) == answer["review"]
        key = rows[0][2]
        assert storage.stored_review(tid, 0, 2, key) == rows[0][3]
        storage.store_review(tid, 0, 2, "other settings", '{"made": "again"}')
        assert storage.stored_review(tid, 0, 2, key) is None
        assert storage.stored_review(tid, 0, 2, "other settings") == '{"made": "again"}'
        assert [(n, s, k) for n, s, k, _ in review_rows(storage, tid)] == [(0, 2, "other settings")]


def review_rows(storage: Any, table_id: str) -> list[tuple[int, int, str, str]]:
    """The stored reviews of a table: (hand, seat, key, review JSON) in order."""
    from sqlalchemy import select

    from hearts.server.storage import metadata

    reviews = metadata.tables["hearts_reviews"]
    query = select(reviews.c.number, reviews.c.seat, reviews.c.key, reviews.c.review).where(
        reviews.c.table_id == table_id
    )
    with storage.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(query.order_by(reviews.c.number, reviews.c.seat))]

"""Fair play at a served table: deals no one can know in advance, records by policy, practice tables
marked and left out of the statistics, players counted by identity, abandoned games, who may fill a
seat, and secrets kept out of log lines."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, Table, create_engine

from hearts.core import CardSet, Game, GameRecord, HeartsError, Rules, dumps, keyed_deal, loads, seeded_deal
from hearts.server.app import create_app
from hearts.server.privacy import PLAYER_COOKIE, RedactTokens, mask_url, person_key, redact
from hearts.server.storage import metadata
from hearts.server.upkeep import FILL_AFTER, fill_refusal
from test_server import Seat, choose, seated  # pytest puts tests/ on the path (it has no __init__.py)


def humans(client: TestClient, n: int = 4, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"preset": "short", "seats": [{"kind": "human"}] * n, **extra})
    assert r.status_code == 200, r.text
    return r.json()


# -- the keyed deal ---------------------------------------------------------------------------------


def test_keyed_deal_is_a_fair_deterministic_shuffle_of_its_key() -> None:
    rules = Rules()
    key = bytes(range(32))
    deals = [keyed_deal(rules, key, n) for n in range(400)]
    assert deals[7] == keyed_deal(rules, key, 7)  # the same on every call (and machine: no `random` in it)
    assert len(set(deals)) == 400 and keyed_deal(rules, bytes(32), 7) != deals[7]
    for deal in deals:
        assert [len(CardSet(m)) for m in deal] == [13] * 4 and len(CardSet(sum(deal))) == 52
    # Every card goes to every seat about a quarter of the time (400 deals: 100 expected, far from 60 or 140).
    counts = [[0] * 4 for _ in range(52)]
    for deal in deals:
        for seat, mask in enumerate(deal):
            for bit in range(52):
                counts[bit][seat] += mask >> bit & 1
    assert all(60 < c < 140 for row in counts for c in row)
    # Other player counts deal the cards in play only.
    assert sum(len(CardSet(m)) for m in keyed_deal(Rules(players=5), key, 0)) == 50
    with pytest.raises(HeartsError, match="at least 16 bytes"):
        keyed_deal(rules, b"short", 0)
    # Pinned: a stored table must deal the same hands after an upgrade, so the derivation never changes.
    assert keyed_deal(rules, key, 3) == (2816131236627112, 145849581854786, 134209424394260, 1407409384494337)
    assert CardSet(keyed_deal(rules, key, 3)[0]).names()[:4] == ["5C", "7C", "9C", "JC"]


def test_a_keyed_game_records_no_seed_and_replays_from_its_recorded_deals() -> None:
    key = bytes(range(16))
    game = Game(Rules.preset("short"), key=key, seed=5)
    rng = random.Random(2)
    while game.hand_number < 2:
        game.apply(rng.choice(game.legal_moves()))
    assert [h.dealt for h in game.finished] == [keyed_deal(game.rules, key, n) for n in range(2)]
    record = GameRecord.of(game)
    assert record.seed is None and json.loads(dumps(record))["seed"] is None
    assert loads(dumps(record)) == record
    replayed = record.replay()
    assert GameRecord.of(replayed) == record and replayed.totals == game.totals
    # `hearts replay`'s account of it names no seed.
    from hearts.tui.story import game_account

    first = game_account(record).splitlines()[0]
    assert first.endswith("to 50 points") and "seed" not in first
    # A record still needs its "seed" field (null is fine, missing is an error).
    data = json.loads(dumps(record))
    del data["seed"]
    with pytest.raises(HeartsError, match="missing 'seed'"):
        loads(json.dumps(data))


# -- the "done when" test -----------------------------------------------------------------------------


def _reachable(client: TestClient, table: dict[str, Any], seats: list[Seat]) -> list[str]:
    """Everything an outside client can fetch about the table now, as text."""
    tid = table["id"]
    out = []
    paths = [
        "/", "/history", f"/play/{table['seats'][0]['token']}", f"/watch/{table['watch_token']}", "/openapi.json",
        "/api/options", "/api/history", "/api/stats", f"/api/tables/{tid}", f"/api/tables/{tid}/hands",
        f"/api/tables/{tid}/record", f"/api/tables/{tid}/record?hand=1",
    ]  # fmt: skip
    hands = client.get(f"/api/tables/{tid}/hands").json()
    paths += [f"/api/tables/{tid}/hands/{h['number']}" for h in hands]
    paths += [f"/api/tables/{tid}/record?hand={h['number']}" for h in hands]
    for path in paths:
        r = client.get(path)
        out.append(f"{path} {r.status_code} {dict(r.headers)} {r.text}")
    for s in seats:  # each seat's own download, with its token
        r = client.get(f"/api/tables/{tid}/record", headers={"X-Hearts-Token": table["seats"][s.seat]["token"]})
        out.append(r.text)
    return out


def test_nothing_a_player_or_spectator_can_reach_determines_a_later_deal(client: TestClient) -> None:
    table = humans(client, options={"think": 0.1})
    tid = table["id"]
    tokens = [s["token"] for s in table["seats"]]
    storage = client.app.state.storage  # type: ignore[attr-defined]
    row = storage.load_table(tid)
    secret, seed = row.secret, row.seed
    assert row.practice is False and len(bytes.fromhex(secret)) == 32
    rules = Rules.from_dict(row.rules)
    rng = random.Random(5)
    collected: list[str] = [json.dumps(table)]
    with seated(client, table) as (seats, watcher):
        assert watcher is not None
        for s in (seats[0], watcher):
            s.send(type="sync")
            s.until("welcome")
            s.send(type="ping")
            s.until("pong")
        seats[0].send(type="hint")  # a hint thinks about the seat's view only, but is gathered too
        seats[0].until("hint")
        checked = 0
        while seats[0].view["phase"] != "game-over":
            mover = seats[seats[0].view["to_move"][0]]
            mover.send(**choose(mover.view, rng), seq=mover.seq)
            for s in (*seats, watcher):
                s.until("update")
            hand_number = seats[0].view["hand_number"] - 1  # 0-based: the hand now being played
            if seats[0].view["phase"] == "game-over" or hand_number == checked:
                continue
            checked = hand_number
            # A hand just ended: gather all a player or spectator has seen or can fetch, and show that
            # none of it gives the hand now dealt.
            text = "\n".join(
                collected
                + [json.dumps(m) for s in (*seats, watcher) for m in s.messages]
                + _reachable(client, table, seats)
            )
            assert secret not in text and secret.upper() not in text
            assert not re.search(rf"\b{seed}\b", text), "the table's computer seed reached a client"
            assert re.findall(r'"seed":\s*(-?\d+)', text) == [], "a seed reached a client"
            next_deal = keyed_deal(rules, bytes.fromhex(secret), hand_number)
            assert storage.load_table(tid).secret == secret
            # Not from any seed the old way (every number the clients saw, and the first 5,000 seeds),
            # nor keyed by any token-like string they saw.
            numbers = {int(x) for x in re.findall(r"\d{1,12}", text)} | set(range(5_000))
            assert all(seeded_deal(rules, n, hand_number) != next_deal for n in numbers)
            words = set(re.findall(r"[A-Za-z0-9_-]{16,}", text))
            assert all(keyed_deal(rules, w.encode()[:32].ljust(16, b"\0"), hand_number) != next_deal for w in words)
            # During the game: no record for anyone without a seat, and a seat's has no seed.
            assert client.get(f"/api/tables/{tid}/record").status_code == 403
            own = loads(client.get(f"/api/tables/{tid}/record", headers={"X-Hearts-Token": tokens[0]}).text)
            assert own.seed is None and len(own.hands) == hand_number and all(h.totals for h in own.hands)
        assert checked >= 1
    # Over: the record is everyone's, replays through the engine, and still holds no seed or secret.
    text = client.get(f"/api/tables/{tid}/record").text
    record = loads(text)
    assert record.is_complete and record.seed is None and secret not in text
    assert list(record.replay().totals) == client.get(f"/api/tables/{tid}").json()["totals"]
    assert [tuple(c.mask for c in h.dealt) for h in record.hands] == [keyed_deal(rules, bytes.fromhex(secret), n) for n in range(len(record.hands))]


# -- practice tables and statistics -------------------------------------------------------------------


def _watch_to_end(client: TestClient, table: dict[str, Any]) -> None:
    with client.websocket_connect(f"/ws/{table['watch_token']}") as wv:
        v = Seat(wv, None)
        v.until("welcome")
        while v.view["phase"] != "game-over":
            v.recv()


def test_a_fixed_seed_table_is_practice_everywhere_and_never_counted(client: TestClient) -> None:
    seats = [{"kind": "computer", "level": "random"}] * 4
    practice = client.post("/api/tables", json={"preset": "short", "seats": seats, "seed": 77}).json()
    fair = client.post("/api/tables", json={"preset": "short", "seats": [{"kind": "computer", "level": "easy"}] * 4}).json()
    assert practice["practice"] is True and fair["practice"] is False
    assert client.get(f"/api/tables/{practice['id']}").json()["practice"] is True
    for t in (practice, fair):
        _watch_to_end(client, t)
    history = {g["id"]: g for g in client.get("/api/history").json()}
    assert history[practice["id"]]["practice"] is True and history[fair["id"]]["practice"] is False
    stats = client.get("/api/stats").json()
    assert {e["player"] for e in stats} == {"computer:easy"}  # the practice table's computers are not there
    assert stats[0]["games"] == 4 and stats[0]["wins"] >= 1
    # A practice table deals from its seed, and its finished record gives the seed (it was never a secret).
    record = loads(client.get(f"/api/tables/{practice['id']}/record").text)
    assert record.seed == 77 and tuple(c.mask for c in record.hands[0].dealt) == seeded_deal(record.rules, 77, 0)
    # The pages mark it.
    assert "practice · fixed seed" in client.get("/static/table.js").text
    assert "practice · fixed seed" in client.get("/static/history.js").text


def test_unnamed_people_are_counted_apart_and_computers_by_level(client: TestClient) -> None:
    """Two unnamed people, each "South" at their own table, are two players; a computer is one player
    per level whatever its seat's name."""
    for identity, level in (("a" * 22, "random"), ("b" * 22, "easy")):
        client.cookies.set(PLAYER_COOKIE, identity)
        table = client.post(
            "/api/tables",
            json={"preset": "no-passing", "rules": {"target": 1}, "seats": [{"kind": "human"}] + [{"kind": "computer", "level": level, "name": "Bob"}] * 3},
        ).json()
        with client.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            s = Seat(ws, 0)
            s.until("welcome")
            while s.view["phase"] != "game-over":
                if 0 in s.view["to_move"]:
                    s.send(**choose(s.view, random.Random(1)), seq=s.seq)
                s.until("update")
    stats = {e["player"]: e for e in client.get("/api/stats").json()}
    assert set(stats) == {person_key("a" * 22), person_key("b" * 22), "computer:random", "computer:easy"}
    assert all(e["games"] == 1 for k, e in stats.items() if k.startswith("person:"))
    assert stats[person_key("a" * 22)]["name"] == stats[person_key("b" * 22)]["name"] == "South"
    assert stats["computer:easy"]["name"] == "easy" and stats["computer:easy"]["kind"] == "computer"
    assert "a" * 22 not in json.dumps(list(stats.values()))  # the identity itself is never shown


# -- older databases ------------------------------------------------------------------------------------------


def test_a_database_from_before_secret_deals_opens_and_resumes(tmp_path: Path) -> None:
    check_an_old_database(f"sqlite:///{tmp_path / 'old.db'}")


def check_an_old_database(url: str) -> None:
    """Tables made by the version before deal secrets and player keys (also run on PostgreSQL by
    test_server_postgres.py): the columns are added, the old table resumes dealing from its seed."""
    new_columns = {"secret", "practice", "creator", "player", "players"}
    old = MetaData()
    for t in metadata.sorted_tables:
        Table(t.name, old, *[c._copy() for c in t.columns if c.name not in new_columns])
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    metadata.drop_all(engine)
    old.create_all(engine)
    now = time.time()
    with engine.begin() as conn:
        conn.execute(
            old.tables["hearts_tables"].insert().values(
                id="oldtable", created_at=now, updated_at=now, rules=json.dumps(Rules.preset("short").to_dict()), seed=42,
                names=json.dumps(["South", "West", "North", "East"]), options="{}", watch_token="w" * 22, status="playing",
                totals="[0, 0, 0, 0]", winners="[]", hands_done=0,
            )
        )  # fmt: skip
        conn.execute(
            old.tables["hearts_seats"].insert(),
            [{"table_id": "oldtable", "seat": s, "kind": "human", "level": None, "token": f"{'t' * 21}{s}", "joined": False} for s in range(4)],
        )
    engine.dispose()
    with TestClient(create_app(url, pause=0)) as c:
        info = c.get("/api/tables/oldtable").json()
        assert info["practice"] is False and info["status"] == "playing"
        with c.websocket_connect(f"/ws/{'t' * 21}0") as ws:
            view = Seat(ws, 0).until("welcome")["view"]
        assert CardSet(view["hand"]).mask == seeded_deal(Rules.preset("short"), 42, 0)[0]  # its seed still deals
        assert humans(c)["practice"] is False  # and new tables are made with the new columns
        assert c.get("/api/stats").status_code == 200


# -- who may fill a seat ----------------------------------------------------------------------------------------


def test_only_the_creator_fills_invited_seats_at_once(client: TestClient) -> None:
    client.cookies.set(PLAYER_COOKIE, "creator-identity-0001")
    table = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 3 + [{"kind": "computer", "level": "random"}]}).json()
    tid, tokens = table["id"], [s["token"] for s in table["seats"]]
    client.cookies.set(PLAYER_COOKIE, "a-guest-identity-0002")
    with client.websocket_connect(f"/ws/{tokens[1]}") as ws:
        guest = Seat(ws, 1)
        guest.until("welcome")
        guest.send(type="fill", level="random")
        assert "only the table's creator" in guest.until("error")["message"]
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tokens[1], "level": "random"})
    assert r.status_code == 422 and "only the table's creator" in r.text
    assert [s["kind"] for s in client.get(f"/api/tables/{tid}").json()["seats"]] == ["human", "human", "human", "computer"]
    # After FILL_AFTER seconds of the seats standing empty, anyone at the table may.
    live = client.portal.call(client.app.state.manager.get, tid)  # type: ignore[attr-defined]
    assert fill_refusal(live.creator, live.created_at, {person_key("a-guest-identity-0002")}, time.time() + FILL_AFTER) is None
    # The creator may at once.
    client.cookies.set(PLAYER_COOKIE, "creator-identity-0001")
    with client.websocket_connect(f"/ws/{tokens[0]}") as ws:
        creator = Seat(ws, 0)
        creator.until("welcome")
        creator.send(type="fill", level="random")
        kinds: list[str] = []
        while kinds != ["human", "human", "computer", "computer"]:
            kinds = [x["kind"] for x in creator.until("table")["table"]["seats"]]


def test_without_an_identity_the_first_seat_link_is_the_creator(client: TestClient) -> None:
    client.cookies.clear()
    table = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 3 + [{"kind": "computer", "level": "random"}]}).json()
    client.cookies.clear()
    tid, tokens = table["id"], [s["token"] for s in table["seats"]]
    assert client.post(f"/api/tables/{tid}/fill", json={"token": tokens[2], "level": "random"}).status_code == 422
    client.cookies.clear()
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tokens[0], "level": "random"})
    assert r.status_code == 200 and r.json()["filled"] == [0, 1, 2]


# -- abandoned games ------------------------------------------------------------------------------------------


def test_a_game_left_alone_is_abandoned_and_not_counted(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", pause=0, abandon_after=1.0)
    with TestClient(app) as c:
        table = c.post("/api/tables", json={"preset": "no-passing", "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3}).json()
        token = table["seats"][0]["token"]
        with c.websocket_connect(f"/ws/{token}") as ws:
            s = Seat(ws, 0)
            s.until("welcome")
            while s.view["hand_number"] < 2:
                if 0 in s.view["to_move"]:
                    s.send(**choose(s.view, random.Random(3)), seq=s.seq)
                s.until("update")
            assert c.get("/api/stats").json()  # one hand counted while it is played (and a seat is here)
        deadline = time.monotonic() + 15
        while c.get("/api/history").json()[0]["status"] != "abandoned":
            assert time.monotonic() < deadline, "the game was never abandoned"
            time.sleep(0.1)
        assert c.get("/api/stats").json() == []
        assert c.get(f"/api/tables/{table['id']}").json()["status"] == "abandoned"
        assert loads(c.get(f"/api/tables/{table['id']}/record").text).hands  # its record is everyone's now
        with c.websocket_connect(f"/ws/{token}") as ws:
            s = Seat(ws, 0)
            s.until("welcome")
            s.send(type="play", card=s.view["hand"][0], seq=s.seq)
            assert "abandoned" in s.until("error")["message"]


def test_a_connection_cancelled_while_the_table_is_busy_still_leaves_its_seat(tmp_path: Path) -> None:
    # A handler cancelled while it waits for the table (a server shutting down, a test client closing
    # under load) once left its seat "here" for ever: the game was never abandoned.
    import asyncio

    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", pause=0)
    with TestClient(app) as c:
        table = c.post("/api/tables", json={"preset": "no-passing", "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3}).json()
        with c.websocket_connect(f"/ws/{table['seats'][0]['token']}") as ws:
            Seat(ws, 0).until("welcome")
            live = app.state.manager.tables[table["id"]]
            assert live.seats[0].clients

            async def cancel_a_detach() -> None:
                conn = next(iter(live.seats[0].clients))
                async with live.lock:  # the table is busy (a computer's move being written)
                    leaving = asyncio.ensure_future(live.detach(conn))
                    await asyncio.sleep(0)
                    leaving.cancel()
                    await asyncio.gather(leaving, return_exceptions=True)

            c.portal.call(cancel_a_detach)  # type: ignore[union-attr]
            assert not live.seats[0].clients


# -- secrets out of log lines -----------------------------------------------------------------------------------


def test_a_failed_write_shows_no_secret(tmp_path: Path) -> None:
    from hearts.server.storage import SeatRow, Storage, TableRow

    storage = Storage(f"sqlite:///{tmp_path / 's.db'}")
    row = TableRow(
        id="t1", rules=Rules().to_dict(), seed=1, names=["a", "b", "c", "d"], options={}, watch_token="w" * 22,
        seats=[SeatRow(s, "human", None, f"seat-token-{s}-xxxxxxxx") for s in range(4)], secret="ab" * 32,
    )  # fmt: skip
    storage.create_table(row)
    with pytest.raises(Exception) as failed:  # the same table again: the database refuses it
        storage.create_table(row)
    assert "ab" * 32 not in str(failed.value) and "seat-token" not in str(failed.value)
    storage.close()


def test_tokens_are_redacted_from_log_records() -> None:
    import logging

    record = logging.LogRecord("uvicorn.access", 20, "x", 1, '%s - "%s %s HTTP/%s" %d', ("1.2.3.4:5", "GET", "/play/AbC_123-xyz", "1.1", 200), None)
    RedactTokens().filter(record)
    assert "AbC_123-xyz" not in record.getMessage() and "/play/…" in record.getMessage()
    assert redact('"WebSocket /ws/Zq9_token" [accepted]') == '"WebSocket /ws/…" [accepted]'
    assert redact("/api/tables/abc/record?hand=1&token=sEcReT") == "/api/tables/abc/record?hand=1&token=…"
    assert mask_url("postgresql://user:password@host/db") == "postgresql://user:***@host/db"


def test_serve_prints_the_database_url_with_its_password_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    import hearts.server.app
    from hearts.cli import app as cli

    seen: dict[str, Any] = {}
    monkeypatch.setattr(hearts.server.app, "create_app", lambda url, **kw: seen.setdefault("url", url))
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.setdefault("log_config", kw["log_config"]))
    result = CliRunner().invoke(cli, ["serve", "--db", "postgresql://user:password@host/db"])
    assert result.exit_code == 0, result.output
    assert "password" not in result.output and "postgresql://user:***@host/db" in result.output
    assert seen["url"] == "postgresql://user:password@host/db"  # the server itself gets the real URL
    assert all("redact_tokens" in h["filters"] for h in seen["log_config"]["handlers"].values())
    # An unreachable database is reported without the password too.
    monkeypatch.undo()
    result = CliRunner().invoke(cli, ["serve", "--db", "postgresql://user:password@127.0.0.1:1/db"])
    assert result.exit_code == 2 and "password" not in result.output and "***" in result.output


@pytest.mark.slow
def test_a_real_server_log_holds_no_token(tmp_path: Path) -> None:
    """`hearts serve` at log level info: the access lines of the pages, the API and the websockets name
    the paths with every link token cut out."""
    import asyncio
    import urllib.error
    import urllib.request

    websockets = pytest.importorskip("websockets")
    from test_server_process import _post, free_port, start_server

    port = free_port()
    log_file = tmp_path / "serve.log"
    with log_file.open("wb") as out:
        proc = start_server(tmp_path / "h.db", port, log_level="info", output=out)
        try:
            base = f"http://127.0.0.1:{port}"
            table = _post(f"{base}/api/tables", {"seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3})
            token = table["seats"][0]["token"]
            secrets_ = [token, table["watch_token"]]
            urllib.request.urlopen(f"{base}/play/{token}", timeout=5).read()
            urllib.request.urlopen(f"{base}/watch/{table['watch_token']}", timeout=5).read()
            request = urllib.request.Request(f"{base}/api/tables/{table['id']}/record", headers={"X-Hearts-Token": token})
            with pytest.raises(urllib.error.HTTPError):  # no hand finished yet: 404
                urllib.request.urlopen(request, timeout=5)

            async def visit() -> None:
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{token}") as ws:
                    assert json.loads(await ws.recv())["type"] == "welcome"

            asyncio.run(visit())
            time.sleep(0.5)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    text = log_file.read_text()
    assert "/play/…" in text and "/ws/…" in text and "/watch/…" in text, text
    assert not any(s in text for s in secrets_), text

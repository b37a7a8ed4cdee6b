"""What the server stores: each move once, a short row per finished hand, and every record and hand
page built back from the moves; databases from the version that stored a record in every hand's row
still answer (also run on PostgreSQL by test_server_postgres.py)."""

from __future__ import annotations

import dataclasses
import json
import random
import time
from pathlib import Path

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Column, MetaData, Table, Text, create_engine, inspect, select

from hearts.core import PRESETS, Game, GameRecord, HandScored, Rules, move_to_dict
from hearts.server.app import create_app
from hearts.server.persist import record_through, replay
from hearts.server.storage import Storage, metadata


def _record_when_hand_ended(game: Game) -> GameRecord:
    """What the older server stored when a hand ended: the game's record without the hand in progress."""
    record = GameRecord.of(game)
    return record if game.is_over else dataclasses.replace(record, hands=record.hands[:-1])


@settings(max_examples=20, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), players=st.integers(3, 6), seed=st.integers(0, 2**32 - 1))
def test_a_record_through_a_hand_is_the_record_as_that_hand_ended(preset: str, players: int, seed: int) -> None:
    """What the older server stored when each hand ended is what the finished game gives back."""
    rules = Rules.from_dict({"target": 40, "players": players}, preset=preset)
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    then: list[GameRecord] = []
    while not game.is_over:
        events = game.apply(rng.choice(game.legal_moves()))
        if any(isinstance(e, HandScored) for e in events):
            then.append(_record_when_hand_ended(game))
    assert len(then) >= 2
    assert [record_through(game, n) for n in range(len(then))] == then
    assert record_through(game) == then[-1] == GameRecord.of(game) and record_through(game, len(then)) is None


def test_each_move_is_stored_once_and_records_come_from_the_moves(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    with TestClient(create_app(url, pause=0)) as c:
        seats = [{"kind": "computer", "level": "random"}] * 4
        table = c.post("/api/tables", json={"preset": "short", "seats": seats, "seed": 5}).json()
        tid = table["id"]
        deadline = time.monotonic() + 60
        while (info := c.get(f"/api/tables/{tid}").json())["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        storage: Storage = c.app.state.storage  # type: ignore[attr-defined]
        hands_t = metadata.tables["hearts_hands"]
        assert "record" not in {col["name"] for col in inspect(storage.engine).get_columns("hearts_hands")}
        with storage.engine.connect() as conn:
            rows = conn.execute(select(hands_t).where(hands_t.c.table_id == tid).order_by(hands_t.c.number)).mappings().all()
        assert len(rows) == info["hands_done"] >= 2
        sizes = [sum(len(str(v)) for v in r.values()) for r in rows]
        assert max(sizes) < 500 and max(sizes) - min(sizes) < 50  # a hand's row does not grow with the game
        row = storage.load_table(tid)
        assert row is not None and len(row.actions) == len({a["seq"] for a in row.actions})
        game = replay(row)
        assert list(game.totals) == info["totals"]
        # Every record and hand page answers from the moves, as the older server's stored records did.
        whole = GameRecord.loads(c.get(f"/api/tables/{tid}/record").text)
        assert whole == GameRecord.of(game) and whole.seed == 5 and list(whole.replay().totals) == info["totals"]
        for n in range(1, len(rows) + 1):
            assert GameRecord.loads(c.get(f"/api/tables/{tid}/record?hand={n}").text) == record_through(game, n - 1)
            page = c.get(f"/api/tables/{tid}/hands/{n}").json()
            assert page["number"] == n and page["scores"] == json.loads(rows[n - 1]["points"])
        assert c.get(f"/api/tables/{tid}/hands/{len(rows) + 1}").status_code == 404
    # After a restart the game is no table's live game: it is replayed from the moves (and kept).
    with TestClient(create_app(url, pause=0)) as c:
        assert GameRecord.loads(c.get(f"/api/tables/{tid}/record").text) == whole
        assert c.get(f"/api/tables/{tid}/hands/1").json()["totals"] == list(whole.hands[0].totals or ())


# -- a database from the version that stored a record in every hand's row ------------------------


def test_a_database_with_stored_records_still_answers(tmp_path: Path) -> None:
    check_a_database_with_stored_records(f"sqlite:///{tmp_path / 'old.db'}")


def _old_schema() -> MetaData:
    """The tables as the older version made them: the same, with a ``record`` in each hand's row."""
    old = MetaData()
    for t in metadata.sorted_tables:
        extra = [Column("record", Text, nullable=False)] if t.name == "hearts_hands" else []
        Table(t.name, old, *[col._copy() for col in t.columns], *extra)
    return old


def _old_rows(table_id: str, rules: Rules, moves: int | None, **deal: object) -> tuple[dict[str, object], list[dict[str, object]], list[dict[str, object]]]:
    """A table played by random moves (all of its game, or ``moves`` of them), stored as the older
    version did: its row, its actions, and a row for each finished hand holding the record so far."""
    names = ["South", "West", "North", "East"]
    key = deal.get("secret")
    game = Game(rules, seed=int(deal.get("seed", 1)), names=names, key=bytes.fromhex(str(key)) if key else None)  # type: ignore[call-overload]
    rng = random.Random(table_id)
    actions: list[dict[str, object]] = []
    hands: list[dict[str, object]] = []
    now = time.time()
    while not game.is_over and (moves is None or len(actions) < moves):
        move = rng.choice(game.legal_moves())
        events = game.apply(move)
        actions.append({"table_id": table_id, "seq": len(actions) + 1, "move": json.dumps(move_to_dict(move)), "actor": "computer", "at": now})
        for e in events:
            if isinstance(e, HandScored):
                hands.append(
                    {
                        "table_id": table_id, "number": e.hand_number, "names": json.dumps(names), "kinds": json.dumps(["computer"] * 4),
                        "points": json.dumps(list(e.points)), "totals": json.dumps(list(e.totals)),
                        "shooter": game.finished[e.hand_number].shooter, "at": now,
                        "record": _record_when_hand_ended(game).dumps(indent=None),
                        "players": json.dumps(["computer:random"] * 4),
                    }
                )  # fmt: skip
    table = {
        "id": table_id, "created_at": now, "updated_at": now, "rules": json.dumps(rules.to_dict()), "seed": int(deal.get("seed", 1)),  # type: ignore[call-overload]
        "names": json.dumps(names), "options": json.dumps({"pause": 0}), "watch_token": f"watch-{table_id}".ljust(22, "x"),
        "status": "over" if game.is_over else "playing", "totals": json.dumps(list(game.totals)),
        "winners": json.dumps(list(game.winners)), "hands_done": len(game.finished), "secret": key, "practice": False,
    }  # fmt: skip
    return table, actions, hands


def check_a_database_with_stored_records(url: str) -> None:
    old = _old_schema()
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    metadata.drop_all(engine)
    old.create_all(engine)
    rules = Rules.preset("short")
    done = _old_rows("oldover", rules, None, secret="5e" * 32)
    playing = _old_rows("oldplaying", rules, 70, seed=8)  # dealt from its seed: one hand finished and part of the next
    with engine.begin() as conn:
        for table, actions, hands in (done, playing):
            conn.execute(old.tables["hearts_tables"].insert(), [table])
            conn.execute(old.tables["hearts_seats"].insert(), [{"table_id": table["id"], "seat": s, "kind": "computer", "level": "random", "token": None, "joined": False} for s in range(4)])
            conn.execute(old.tables["hearts_actions"].insert(), actions)
            conn.execute(old.tables["hearts_hands"].insert(), hands)
    engine.dispose()
    stored = {(h["table_id"], h["number"]): h["record"] for _, _, hands in (done, playing) for h in hands}
    with TestClient(create_app(url, pause=0)) as c:
        storage: Storage = c.app.state.storage  # type: ignore[attr-defined]
        assert storage.legacy_records
        # The finished game answers from its stored records, which are the records its moves build.
        over = storage.load_table("oldover")
        assert over is not None
        game = replay(over)
        for number in range(len(done[2])):
            text = c.get(f"/api/tables/oldover/record?hand={number + 1}").text
            assert GameRecord.loads(text) == GameRecord.loads(str(stored[("oldover", number)])) == record_through(game, number)
            assert c.get(f"/api/tables/oldover/hands/{number + 1}").json()["totals"] == json.loads(str(done[2][number]["totals"]))
        assert GameRecord.loads(c.get("/api/tables/oldover/record").text).winners == tuple(game.winners)
        # The game in progress resumes and plays to its end; the hands it finishes now store no record.
        deadline = time.monotonic() + 60
        while (info := c.get("/api/tables/oldplaying").json())["status"] != "over":
            assert time.monotonic() < deadline, "the old table never finished"
            time.sleep(0.05)
        whole = GameRecord.loads(c.get("/api/tables/oldplaying/record").text)
        assert whole.seed == 8 and list(whole.replay().totals) == info["totals"] and len(whole.hands) == info["hands_done"] > 1
        first = GameRecord.loads(c.get("/api/tables/oldplaying/record?hand=1").text)
        assert first == GameRecord.loads(str(stored[("oldplaying", 0)])) == record_through(whole.replay(), 0)
        assert storage.stored_record("oldplaying", 1) is None  # stored by this version: an empty text
        hands = c.get("/api/tables/oldplaying/hands").json()
        assert [h["number"] for h in hands] == list(range(1, info["hands_done"] + 1))
        stats = {e["player"]: e for e in c.get("/api/stats").json()}
        assert stats["computer:random"]["hands"] == 4 * (len(done[2]) + info["hands_done"])

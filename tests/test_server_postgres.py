"""The server on PostgreSQL: a game stored there and resumed by a second app on the same database.

Runs when ``HEARTS_TEST_PG_URL`` names a database it may fill (``.ci/run`` starts Debian's PostgreSQL
and sets it) and psycopg is installed; skipped otherwise.
"""

from __future__ import annotations

import os
import random

import pytest
from fastapi.testclient import TestClient

PG_URL = os.environ.get("HEARTS_TEST_PG_URL")
pytestmark = pytest.mark.skipif(not PG_URL, reason="HEARTS_TEST_PG_URL is not set (no PostgreSQL server to test against)")


def test_game_survives_a_restart_on_postgresql() -> None:
    pytest.importorskip("psycopg")
    from hearts.server.app import create_app
    from test_server import Seat, choose  # pytest puts tests/ on the path (it has no __init__.py)

    assert PG_URL is not None
    rng = random.Random(3)
    with TestClient(create_app(PG_URL, pause=0)) as c:
        table = c.post("/api/tables", json={"preset": "no-passing", "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "random"}] * 3}).json()
        token = table["seats"][0]["token"]
        with c.websocket_connect(f"/ws/{token}") as ws:
            s = Seat(ws, 0)
            s.until("welcome")
            played = 0
            while played < 3:
                if 0 in s.view["to_move"]:
                    s.send(**choose(s.view, rng), seq=s.seq)
                    played += 1
                s.until("update")
            while 0 not in s.view["to_move"]:
                s.until("update")
            before = s.view
    # A new server process (here: a new app) on the same database resumes the table exactly.
    with TestClient(create_app(PG_URL, pause=0)) as c:
        with c.websocket_connect(f"/ws/{token}") as ws:
            w = Seat(ws, 0).until("welcome")
            assert w["view"] == before


def test_a_database_from_before_secret_deals_on_postgresql() -> None:
    pytest.importorskip("psycopg")
    from test_server_fairness import check_an_old_database

    assert PG_URL is not None
    check_an_old_database(PG_URL)  # drops the hearts tables and makes them as the older version did


def test_a_database_with_stored_records_on_postgresql() -> None:
    pytest.importorskip("psycopg")
    from test_server_storage import check_a_database_with_stored_records

    assert PG_URL is not None
    check_a_database_with_stored_records(PG_URL)  # drops the hearts tables and makes them as the older version did


def test_a_review_is_kept_on_postgresql() -> None:
    pytest.importorskip("psycopg")
    from test_server_again import check_a_review_is_kept

    assert PG_URL is not None
    check_a_review_is_kept(PG_URL)  # worked out, stored, answered by the next server, replaced when made again

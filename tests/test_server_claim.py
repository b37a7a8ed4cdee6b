"""Claiming the rest of the tricks at a web table: a refused claim says why and changes nothing; one
that holds plays the hand out for everyone, is stored, and is there again after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from tests.test_server import Seat, new_table, seated

from hearts.core import loads
from hearts.server.app import create_app


def lowest(view: dict[str, Any]) -> str:
    order = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    return min(view["legal"], key=lambda c: ("CDSH".index(c[-1]), order.index(c[:-1])))


def play_until_a_claim_holds(seats: list[Seat]) -> tuple[int, dict[str, Any]]:
    """Each seat to move with two cards or more first claims (as the page offers it): refused, it plays
    its lowest card. Returns the claimer and the update its claim brought."""
    refused = 0
    while seats[0].view["phase"] == "play":
        mover = seats[seats[0].view["to_move"][0]]
        if len(mover.view["hand"]) < 2:
            mover.send(type="play", card=lowest(mover.view), seq=mover.seq)
            for s in seats:
                s.until("update")
            continue
        mover.send(type="claim", seq=mover.seq)
        m = mover.recv()
        while m["type"] not in ("update", "error"):
            m = mover.recv()
        if m["type"] == "update":
            for s in seats:
                if s is not mover:
                    s.until("update")
            assert refused > 0
            return mover.seat, m  # type: ignore[return-value]
        assert m["about"] == "claim" and m["message"].startswith("You cannot claim"), m
        refused += 1
        mover.send(type="play", card=lowest(mover.view), seq=mover.seq)
        for s in seats:
            s.until("update")
    raise AssertionError("no claim held in the whole hand")


def test_a_claim_is_refused_with_its_reason_or_plays_the_hand_out(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'hearts.db'}"
    with TestClient(create_app(db, pause=0)) as client:
        table = new_table(client, ["human"] * 4, rules={"pass_cycle": ["hold"]}, seed=5)
        with seated(client, table, watch=False) as (seats, _):
            seq_before = seats[0].seq
            claimer, update = play_until_a_claim_holds(seats)
            played = [e for e in update["events"] if e["type"] == "card_played"]
            assert len(played) >= 2 and played[0]["seat"] == claimer, "a claim plays every remaining card"
            assert {e["seat"] for e in update["events"] if e["type"] == "trick_won"} == {claimer}
            assert update["seq"] > seq_before
            hand = update["finished_hand"]
            assert hand is not None
            number = hand["number"]
    # After a restart the table is rebuilt from its stored moves, the claim among them.
    with TestClient(create_app(db, pause=0)) as client:
        r = client.get(f"/api/tables/{table['id']}/record", headers={"X-Hearts-Token": table["seats"][0]["token"]})
        assert r.status_code == 200, r.text
        record = loads(r.text)
        assert record.hands[number - 1].claim is not None and record.hands[number - 1].claim[0] == claimer

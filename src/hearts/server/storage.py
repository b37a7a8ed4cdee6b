"""Durable storage for tables: SQLAlchemy Core over SQLite (default) or PostgreSQL.

What is stored, and why it is enough to resume any table exactly:

* ``tables``: the rules, the seed, the seat names and the table's options. With the seed the
  engine deals every hand again identically (:func:`hearts.core.game.seeded_deal`).
* ``seats``: who sits where (a person by secret link, a computer level or a registered bot).
* ``actions``: every move, in order, as the engine's JSON form (:func:`hearts.core.moves.move_to_dict`).
  A table is rebuilt by replaying them through :class:`~hearts.core.game.Game`, which re-checks each one.
* ``hands``: each finished hand, with the engine's record (:func:`hearts.core.record.dumps`) of the
  game up to the end of that hand: the downloadable record, the history and the statistics.

An action is committed before the server acknowledges it; SQLite runs in WAL mode, whose commits
survive the server process being killed (``kill -9``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

tables_t = Table(
    "hearts_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("rules", Text, nullable=False),  # Rules.to_dict() as JSON
    Column("seed", BigInteger, nullable=False),
    Column("names", Text, nullable=False),  # JSON list of seat names
    Column("options", Text, nullable=False),  # JSON object: pause, stand-in settings
    Column("watch_token", String(64), nullable=False, unique=True),
    Column("status", String(16), nullable=False),  # "playing" or "over"
    Column("totals", Text, nullable=False),  # JSON list, after the last finished hand
    Column("winners", Text, nullable=False),  # JSON list, empty until the game is over
    Column("hands_done", Integer, nullable=False),
)

seats_t = Table(
    "hearts_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("hearts_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # "human", "computer" or "bot"
    Column("level", String(64), nullable=True),  # computer level or registered bot name
    Column("token", String(64), nullable=True, unique=True),  # secret join token (humans)
    Column("joined", Boolean, nullable=False, default=False),
)

actions_t = Table(
    "hearts_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("hearts_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("move", Text, nullable=False),  # move_to_dict() as JSON
    Column("actor", String(16), nullable=False),  # "human", "computer", "bot" or "stand-in"
    Column("at", Float, nullable=False),
    # One B-tree keyed by (table, seq) instead of a rowid table plus its key's index: each stored
    # action dirties half the pages, so SQLite's log and its checkpoints are half the size.
    sqlite_with_rowid=False,
)

hands_t = Table(
    "hearts_hands",
    metadata,
    Column("table_id", String(32), ForeignKey("hearts_tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),  # 0-based, as in the engine
    Column("names", Text, nullable=False),
    Column("kinds", Text, nullable=False),  # JSON list: the seat kinds when the hand was played
    Column("points", Text, nullable=False),
    Column("totals", Text, nullable=False),
    Column("shooter", Integer, nullable=True),
    Column("record", Text, nullable=False),  # hearts.core.record.dumps of the game through this hand
    Column("at", Float, nullable=False),
)


@dataclass
class SeatRow:
    seat: int
    kind: str
    level: str | None
    token: str | None
    joined: bool = False


@dataclass
class TableRow:
    id: str
    rules: dict[str, Any]
    seed: int
    names: list[str]
    options: dict[str, Any]
    watch_token: str
    seats: list[SeatRow]
    status: str = "playing"
    totals: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    hands_done: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    actions: list[dict[str, Any]] = field(default_factory=list)  #: filled by load_table


@dataclass
class ActionWrite:
    """One action to append, with what it finished (a hand, the game) in the same transaction."""

    table_id: str
    seq: int
    move: dict[str, Any]
    actor: str
    hands: list[dict[str, Any]] = field(default_factory=list)  #: rows for hands_t finished by this action
    table_update: dict[str, Any] | None = None  #: columns of tables_t that change (totals, status, ...)


def default_url() -> str:
    """The embedded SQLite file in the user data directory (created on first use)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("hearts", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'hearts.db'}"


class Storage:
    """Synchronous storage calls. The server runs them off the event loop (see :class:`GroupWriter`)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine: Engine = _make_engine(self.url)
        metadata.create_all(self.engine)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    #: Past this size the write-ahead log is restarted from its beginning (a short pause for writers).
    WAL_LIMIT = 64 * 2**20

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database file (a no-op on other databases).

        A passive checkpoint never blocks writers, but under steady writes the log is never wholly
        copied, so it only grows; once it passes :attr:`WAL_LIMIT` a restart checkpoint (which waits
        for the writer, briefly: most of the log is already copied) lets it start over.
        """
        if not self.is_sqlite:
            return
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            database = self.engine.url.database
            wal = Path(f"{database}-wal") if database and database != ":memory:" else None
            if wal is not None and wal.exists() and wal.stat().st_size > self.WAL_LIMIT:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(RESTART)")

    def close(self) -> None:
        if self.is_sqlite:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        self.engine.dispose()

    # -- writes ---------------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                tables_t.insert().values(
                    id=row.id,
                    created_at=now,
                    updated_at=now,
                    rules=json.dumps(row.rules),
                    seed=row.seed,
                    names=json.dumps(row.names),
                    options=json.dumps(row.options),
                    watch_token=row.watch_token,
                    status=row.status,
                    totals=json.dumps(row.totals),
                    winners=json.dumps(row.winners),
                    hands_done=row.hands_done,
                )
            )
            conn.execute(
                seats_t.insert(),
                [
                    {"table_id": row.id, "seat": s.seat, "kind": s.kind, "level": s.level, "token": s.token, "joined": s.joined}
                    for s in row.seats
                ],
            )

    def write_actions(self, writes: Sequence[ActionWrite]) -> None:
        """Append actions (and what they finished) in one transaction: all are stored or none."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                actions_t.insert(),
                [
                    {"table_id": w.table_id, "seq": w.seq, "move": json.dumps(w.move), "actor": w.actor, "at": now}
                    for w in writes
                ],
            )
            hand_rows = [dict(h, table_id=w.table_id, at=now) for w in writes for h in w.hands]
            if hand_rows:
                conn.execute(hands_t.insert(), hand_rows)
            for w in writes:
                if w.table_update:
                    values = {k: json.dumps(v) if k in ("totals", "winners") else v for k, v in w.table_update.items()}
                    conn.execute(update(tables_t).where(tables_t.c.id == w.table_id).values(updated_at=now, **values))

    def update_seat(self, table_id: str, seat: int, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(seats_t).where((seats_t.c.table_id == table_id) & (seats_t.c.seat == seat)).values(**values))

    # -- reads ------------------------------------------------------------------------

    def table_ids(self, status: str | None = None) -> list[str]:
        query = select(tables_t.c.id).order_by(tables_t.c.created_at)
        if status is not None:
            query = query.where(tables_t.c.status == status)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def load_table(self, table_id: str) -> TableRow | None:
        """The table with its seats and every action in order, or None."""
        with self.engine.connect() as conn:
            t = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if t is None:
                return None
            seats = [
                SeatRow(r.seat, r.kind, r.level, r.token, bool(r.joined))
                for r in conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))
            ]
            actions = [
                {"seq": r.seq, "move": json.loads(r.move), "actor": r.actor}
                for r in conn.execute(
                    select(actions_t.c.seq, actions_t.c.move, actions_t.c.actor)
                    .where(actions_t.c.table_id == table_id)
                    .order_by(actions_t.c.seq)
                )
            ]
        return TableRow(
            id=t["id"],
            rules=json.loads(t["rules"]),
            seed=int(t["seed"]),
            names=json.loads(t["names"]),
            options=json.loads(t["options"]),
            watch_token=t["watch_token"],
            seats=seats,
            status=t["status"],
            totals=json.loads(t["totals"]),
            winners=json.loads(t["winners"]),
            hands_done=t["hands_done"],
            created_at=t["created_at"],
            updated_at=t["updated_at"],
            actions=actions,
        )

    def find_token(self, token: str) -> tuple[str, int | None] | None:
        """(table id, seat) for a join token, (table id, None) for a watch token, else None."""
        with self.engine.connect() as conn:
            seat = conn.execute(select(seats_t.c.table_id, seats_t.c.seat).where(seats_t.c.token == token)).first()
            if seat is not None:
                return seat[0], seat[1]
            watch = conn.execute(select(tables_t.c.id).where(tables_t.c.watch_token == token)).first()
            return (watch[0], None) if watch is not None else None

    def history(self, limit: int = 500) -> list[dict[str, Any]]:
        """Every game, newest first: names, seat kinds, totals, winners, hands played."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t).order_by(tables_t.c.created_at.desc()).limit(limit)).mappings().all()
            kinds: dict[str, list[str]] = {}
            ids = [r["id"] for r in rows]
            if ids:
                for s in conn.execute(select(seats_t).where(seats_t.c.table_id.in_(ids)).order_by(seats_t.c.seat)):
                    kinds.setdefault(s.table_id, []).append(s.level if s.kind != "human" else "human")
        return [
            {
                "id": r["id"],
                "created_at": r["created_at"],
                "updated_at": r["updated_at"],
                "names": json.loads(r["names"]),
                "seats": kinds.get(r["id"], []),
                "status": r["status"],
                "totals": json.loads(r["totals"]),
                "winners": json.loads(r["winners"]),
                "hands": r["hands_done"],
            }
            for r in rows
        ]

    def hands(self, table_id: str) -> list[dict[str, Any]]:
        """The finished hands of a table, without their records."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(hands_t.c.number, hands_t.c.points, hands_t.c.totals, hands_t.c.shooter)
                .where(hands_t.c.table_id == table_id)
                .order_by(hands_t.c.number)
            ).all()
        return [
            {"number": r.number + 1, "points": json.loads(r.points), "totals": json.loads(r.totals), "shooter": r.shooter}
            for r in rows
        ]

    def hand_record(self, table_id: str, number: int | None = None) -> str | None:
        """The stored record through hand ``number`` (0-based), or through the last finished hand."""
        query = select(hands_t.c.record).where(hands_t.c.table_id == table_id)
        if number is None:
            query = query.order_by(hands_t.c.number.desc()).limit(1)
        else:
            query = query.where(hands_t.c.number == number)
        with self.engine.connect() as conn:
            r = conn.execute(query).first()
        return None if r is None else r[0]

    def stats(self) -> list[dict[str, Any]]:
        """Per player name: games finished, wins, hands, average points per hand, moons shot, faults.

        Computer seats count under their seat name too, so a person can compare against them. A hand
        whose seat kind is ``"fault"`` (a registered bot had faulted and a stand-in played for it) is
        counted against the bot as a fault, never as its play: not in its hands, points or moons; and
        a game in which it faulted is never its win.
        """
        per: dict[str, dict[str, Any]] = {}

        def entry(name: str, kind: str) -> dict[str, Any]:
            return per.setdefault(name, {"name": name, "kind": kind, "games": 0, "wins": 0, "hands": 0, "points": 0, "moons": 0, "faults": 0})

        faulted: set[tuple[str, int]] = set()  # (table, seat) of every bot that faulted there
        with self.engine.connect() as conn:
            hand_rows = select(hands_t.c.table_id, hands_t.c.names, hands_t.c.kinds, hands_t.c.points, hands_t.c.shooter)
            for r in conn.execute(hand_rows):
                names, kinds, points = json.loads(r.names), json.loads(r.kinds), json.loads(r.points)
                for seat, name in enumerate(names):
                    if kinds[seat] == "fault":
                        entry(name, "bot")["faults"] += 1
                        faulted.add((r.table_id, seat))
                        continue
                    e = entry(name, kinds[seat])
                    e["hands"] += 1
                    e["points"] += points[seat]
                    if r.shooter == seat:
                        e["moons"] += 1
            over = conn.execute(select(tables_t.c.id, tables_t.c.names, tables_t.c.winners).where(tables_t.c.status == "over")).all()
            kinds_of: dict[str, dict[int, str]] = {}
            for s in conn.execute(select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind)):
                kinds_of.setdefault(s.table_id, {})[s.seat] = s.kind
        for game in over:
            winners = set(json.loads(game.winners))
            for seat, name in enumerate(json.loads(game.names)):
                e = entry(name, kinds_of.get(game.id, {}).get(seat, "human"))
                e["games"] += 1
                e["wins"] += seat in winners and (game.id, seat) not in faulted
        out = []
        for e in per.values():
            e["average_points"] = round(e["points"] / e["hands"], 2) if e["hands"] else None
            out.append(e)
        out.sort(key=lambda e: (-e["games"], -e["hands"], e["name"]))
        return out


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            # WAL: readers never block the writer, and a commit survives the process being killed.
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            # No checkpoints inside commits: a checkpoint syncs the database file to disk, which can take
            # long enough to stall every table's writes. The server checkpoints from its own thread
            # instead (Storage.checkpoint), so the writer never waits for the disk.
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.execute(f"PRAGMA journal_size_limit={Storage.WAL_LIMIT}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    if url.startswith("postgresql://"):
        # SQLAlchemy's default PostgreSQL driver is psycopg2; the project's optional extra installs psycopg 3.
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return create_engine(url, pool_pre_ping=True)

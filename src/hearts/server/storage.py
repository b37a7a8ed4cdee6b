"""Durable storage for tables: SQLAlchemy Core over SQLite (default) or PostgreSQL.

What is stored, and why it is enough to resume any table exactly:

* ``tables``: the rules, the deal secret (or, at a practice table, the seed its creator chose), the
  seat names and the table's options. With them the engine deals every hand again identically
  (:func:`hearts.core.game.keyed_deal`, :func:`hearts.core.game.seeded_deal`). The secret never
  leaves the server: no read here returns it except :meth:`Storage.load_table`.
* ``seats``: who sits where (a person by secret link, a computer level or a registered bot), and the
  hash of the person's stable identity (``docs/server.md``, "Players and statistics").
* ``actions``: every move, in order, as the engine's JSON form (:func:`hearts.core.moves.move_to_dict`).
  A table is rebuilt by replaying them through :class:`~hearts.core.game.Game`, which re-checks each one.
* ``hands``: a short row for each finished hand, with what the history and the statistics list
  (names, seat kinds and player keys as they were, points, totals, the shooter). No record: records
  and finished hands are rebuilt from the moves (:mod:`hearts.server.persist`). A database made
  before that holds each hand's record of the game so far in a ``record`` column: it is still read
  (:meth:`Storage.stored_record`), and a new hand's row stores an empty text there.

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
    false,
    inspect,
    select,
    update,
)
from sqlalchemy import column as column_clause
from sqlalchemy import table as table_clause
from sqlalchemy.engine import Engine
from sqlalchemy.schema import CreateColumn

metadata = MetaData()

tables_t = Table(
    "hearts_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("rules", Text, nullable=False),  # Rules.to_dict() as JSON
    Column("seed", BigInteger, nullable=False),  # the computer players' seed; the deals' only at a practice table
    Column("names", Text, nullable=False),  # JSON list of seat names
    Column("options", Text, nullable=False),  # JSON object: pause, stand-in settings
    Column("watch_token", String(64), nullable=False, unique=True),
    Column("status", String(16), nullable=False),  # "playing" or "over"
    Column("totals", Text, nullable=False),  # JSON list, after the last finished hand
    Column("winners", Text, nullable=False),  # JSON list, empty until the game is over
    Column("hands_done", Integer, nullable=False),
    # Added after the first release (Storage adds them to an older database): NULL there.
    Column("secret", String(64), nullable=True),  # hex of the deal key (None: dealt from the seed)
    Column("practice", Boolean, nullable=False, server_default=false()),  # the creator chose the seed
    Column("creator", String(80), nullable=True),  # player key of whoever created the table
    Column("deal", Text, nullable=True),  # JSON of a replayed deal (DealAgain.to_dict): its first hand's cards
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
    Column("player", String(80), nullable=True),  # player key of the person who took the seat
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
    Column("at", Float, nullable=False),
    Column("players", Text, nullable=True),  # JSON list: each seat's player key (NULL in older rows)
)

reviews_t = Table(
    "hearts_reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("hearts_tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),  # the hand, 0-based
    Column("seat", Integer, primary_key=True),
    Column("key", String(64), nullable=False),  # hearts.review.review_key: the expert's settings included
    Column("review", Text, nullable=False),  # HandReview.to_dict() as JSON
    Column("at", Float, nullable=False),
)


@dataclass
class SeatRow:
    seat: int
    kind: str
    level: str | None
    token: str | None
    joined: bool = False
    player: str | None = None


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
    secret: str | None = None  #: hex of the deal key; None: the deals come from ``seed``
    practice: bool = False  #: the creator fixed the seed: shown as practice, never in the statistics
    creator: str | None = None  #: player key of whoever created the table
    #: a "play this deal again" table's first hand (:meth:`hearts.players.again.DealAgain.to_dict`)
    deal: dict[str, Any] | None = None
    last_move_at: float = 0.0  #: when the last move was stored (the creation time before any), filled by load_table


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
        _add_missing_columns(self.engine)
        #: The hands table has the ``record`` column of older versions (a whole record in each row).
        self.legacy_records = "record" in {c["name"] for c in inspect(self.engine).get_columns(hands_t.name)}

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
                    secret=row.secret,
                    practice=row.practice,
                    creator=row.creator,
                    deal=None if row.deal is None else json.dumps(row.deal),
                )
            )
            conn.execute(
                seats_t.insert(),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "level": s.level,
                        "token": s.token,
                        "joined": s.joined,
                        "player": s.player,
                    }
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
            if hand_rows and self.legacy_records:  # the old column is NOT NULL: an empty text, never a record
                conn.execute(_legacy_hands.insert(), [dict(h, record="") for h in hand_rows])
            elif hand_rows:
                conn.execute(hands_t.insert(), hand_rows)
            for w in writes:
                if w.table_update:
                    values = {k: json.dumps(v) if k in ("totals", "winners") else v for k, v in w.table_update.items()}
                    conn.execute(update(tables_t).where(tables_t.c.id == w.table_id).values(updated_at=now, **values))

    def update_seat(self, table_id: str, seat: int, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(seats_t).where((seats_t.c.table_id == table_id) & (seats_t.c.seat == seat)).values(**values))

    def set_names(self, table_id: str, names: list[str]) -> None:
        """The seats' names (a person who sat brings the name they chose)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(names=json.dumps(names)))

    def set_status(self, table_id: str, status: str) -> None:
        """Mark a table ``playing``, ``over`` or ``abandoned``."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status, updated_at=time.time()))

    # -- reads ------------------------------------------------------------------------

    def table_ids(self, status: str | None = None) -> list[str]:
        query = select(tables_t.c.id).order_by(tables_t.c.created_at)
        if status is not None:
            query = query.where(tables_t.c.status == status)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def table_status(self, table_id: str) -> tuple[str, bool] | None:
        """(status, practice) of a table, or None if there is no such table."""
        with self.engine.connect() as conn:
            r = conn.execute(select(tables_t.c.status, tables_t.c.practice).where(tables_t.c.id == table_id)).first()
        return None if r is None else (r[0], bool(r[1]))

    def load_table(self, table_id: str) -> TableRow | None:
        """The table with its seats and every action in order, or None."""
        with self.engine.connect() as conn:
            t = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if t is None:
                return None
            seats = [
                SeatRow(r.seat, r.kind, r.level, r.token, bool(r.joined), r.player)
                for r in conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))
            ]
            actions = []
            last_move_at = t["created_at"]
            for r in conn.execute(
                select(actions_t.c.seq, actions_t.c.move, actions_t.c.actor, actions_t.c.at)
                .where(actions_t.c.table_id == table_id)
                .order_by(actions_t.c.seq)
            ):
                actions.append({"seq": r.seq, "move": json.loads(r.move), "actor": r.actor, "at": r.at})
                last_move_at = r.at
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
            secret=t["secret"],
            practice=bool(t["practice"]),
            creator=t["creator"],
            deal=None if t["deal"] is None else json.loads(t["deal"]),
            last_move_at=last_move_at,
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
                "practice": bool(r["practice"]),
            }
            for r in rows
        ]

    def hand_players(self, table_id: str, number: int) -> list[str] | None:
        """Each seat's player key in finished hand ``number`` (0-based), or None: no such hand, or an old row."""
        with self.engine.connect() as conn:
            r = conn.execute(select(hands_t.c.players).where((hands_t.c.table_id == table_id) & (hands_t.c.number == number))).first()
        return None if r is None or not r.players else list(json.loads(r.players))

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

    def stored_review(self, table_id: str, number: int, seat: int, key: str) -> str | None:
        """The review (its JSON) of a finished hand from a seat, if one was made with ``key``'s settings."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(reviews_t.c.review).where(
                    (reviews_t.c.table_id == table_id) & (reviews_t.c.number == number)
                    & (reviews_t.c.seat == seat) & (reviews_t.c.key == key)
                )
            ).first()  # fmt: skip
        return None if r is None else str(r[0])

    def store_review(self, table_id: str, number: int, seat: int, key: str, review: str) -> None:
        """Keep a hand's review (the one for these settings: a review made with others is replaced)."""
        where = (reviews_t.c.table_id == table_id) & (reviews_t.c.number == number) & (reviews_t.c.seat == seat)
        with self.engine.begin() as conn:
            conn.execute(reviews_t.delete().where(where))
            values = {"table_id": table_id, "number": number, "seat": seat, "key": key, "review": review}
            conn.execute(reviews_t.insert().values(at=time.time(), **values))

    def stored_record(self, table_id: str, number: int | None = None) -> str | None:
        """The record through hand ``number`` (0-based; None: the last finished hand) as an older
        version stored it in the hand's row, or None: no such hand, a database without the old
        column, or a hand stored since (whose record is built from the moves)."""
        if not self.legacy_records:
            return None
        query = select(_legacy_hands.c.number, _legacy_hands.c.record).where(_legacy_hands.c.table_id == table_id)
        if number is None:
            query = query.order_by(_legacy_hands.c.number.desc()).limit(1)
        else:
            query = query.where(_legacy_hands.c.number == number)
        with self.engine.connect() as conn:
            r = conn.execute(query).first()
        return r.record if r is not None and r.record else None

    def stats(self) -> list[dict[str, Any]]:
        """Per player: games finished, wins, hands, average points per hand, moons shot, faults.

        A player is a stable key (see :func:`hearts.server.privacy.player_key`), never a display name:
        a person by the hash of their identity, a computer by its level, a bot by its registered
        name. Practice tables (a chosen seed) and abandoned games are not counted. Hands stored
        before player keys existed count under their seat's name, as they did then. A hand whose
        seat kind is ``"fault"`` (a registered bot had faulted and a stand-in played for it) is
        counted against the bot as a fault, never as its play: not in its hands, points or moons;
        and a game in which it faulted is never its win.
        """
        per: dict[str, dict[str, Any]] = {}

        def entry(key: str, name: str, kind: str) -> dict[str, Any]:
            if kind == "fault":
                kind = "bot"
            if kind != "human" and ":" in key and not key.startswith("name:"):
                name = key.partition(":")[2]  # a computer is its level, a bot its registered name
            e = per.setdefault(key, {"player": key, "name": name, "kind": kind, "games": 0, "wins": 0, "hands": 0, "points": 0, "moons": 0, "faults": 0})
            e["name"] = name  # a person's latest name
            return e

        faulted: set[tuple[str, int]] = set()  # (table, seat) of every bot that faulted there
        with self.engine.connect() as conn:
            counted = {
                r.id: r
                for r in conn.execute(
                    select(tables_t.c.id, tables_t.c.status, tables_t.c.winners).where(
                        tables_t.c.status.in_(("playing", "over")) & (tables_t.c.practice == false())
                    )
                )
            }
            last: dict[str, tuple[list[str], list[str], list[str]]] = {}
            rows = conn.execute(
                select(hands_t.c.table_id, hands_t.c.names, hands_t.c.kinds, hands_t.c.players, hands_t.c.points, hands_t.c.shooter)
                .order_by(hands_t.c.at, hands_t.c.table_id, hands_t.c.number)
            )
            for r in rows:
                if r.table_id not in counted:
                    continue
                names, kinds, points = json.loads(r.names), json.loads(r.kinds), json.loads(r.points)
                keys = json.loads(r.players) if r.players else [f"name:{name}" for name in names]
                last[r.table_id] = (keys, names, kinds)
                for seat, key in enumerate(keys):
                    if kinds[seat] == "fault":
                        entry(key, names[seat], "fault")["faults"] += 1
                        faulted.add((r.table_id, seat))
                        continue
                    e = entry(key, names[seat], kinds[seat])
                    e["hands"] += 1
                    e["points"] += points[seat]
                    if r.shooter == seat:
                        e["moons"] += 1
        for table_id, game in counted.items():
            if game.status != "over" or table_id not in last:
                continue
            winners = set(json.loads(game.winners))
            keys, names, kinds = last[table_id]
            for seat, key in enumerate(keys):
                e = entry(key, names[seat], kinds[seat])
                e["games"] += 1
                e["wins"] += seat in winners and (game.id, seat) not in faulted
        out = []
        for e in per.values():
            e["average_points"] = round(e["points"] / e["hands"], 2) if e["hands"] else None
            out.append(e)
        out.sort(key=lambda e: (-e["games"], -e["hands"], e["name"]))
        return out


#: The hands table as older versions made it, with a record in each row (new rows: an empty text).
_legacy_hands = table_clause(hands_t.name, *[column_clause(c.name) for c in hands_t.columns], column_clause("record"))


def _add_missing_columns(engine: Engine) -> None:
    """Add the columns a database made by an older version lacks (each nullable or with a default)."""
    found = inspect(engine)
    with engine.begin() as conn:
        for table in metadata.sorted_tables:
            have = {c["name"] for c in found.get_columns(table.name)}
            for column in table.columns:
                if column.name not in have:
                    ddl = CreateColumn(column).compile(dialect=engine.dialect)
                    conn.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {ddl}")


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        # hide_parameters: a failed statement's error (and so any log line or traceback) never shows
        # the values it wrote: join tokens, deal secrets.
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, hide_parameters=True)

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
    return create_engine(url, pool_pre_ping=True, hide_parameters=True)

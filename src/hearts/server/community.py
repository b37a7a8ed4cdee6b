"""What people share across tables and server processes: their names, the public lobby, table chat and
ratings, all in the database (so two ``hearts serve`` processes on one database show one lobby and
one leaderboard; ``docs/server.md``, "Growing past one process").

Its tables sit beside :mod:`hearts.server.storage`'s in the same database, made by their own
:class:`~sqlalchemy.MetaData` on first use. Every call here is synchronous: the server runs writes
on its one writer thread and reads off the event loop.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    cast,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from hearts.server.names import NameRefused, name_key

metadata = MetaData()

people_t = Table(
    "hearts_people",
    metadata,
    Column("player", String(80), primary_key=True),  # the browser identity's player key (a hash)
    Column("name", String(80), nullable=False),
    Column("name_key", String(160), nullable=False, unique=True),  # case-folded: one person per name
    Column("created_at", Float, nullable=False),
    Column("changes", Text, nullable=False),  # JSON list of the times the name was changed (the limit's window)
)

chat_t = Table(
    "hearts_chat",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True),  # 1, 2, ... per table
    Column("at", Float, nullable=False),
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("name", String(80), nullable=False),
    Column("hand", Integer, nullable=False),  # the hand being played when it was said (1-based)
    Column("text", Text, nullable=False),
)

ratings_t = Table(
    "hearts_ratings",
    metadata,
    Column("player", String(80), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
)

rated_t = Table(
    "hearts_rated_games",
    metadata,
    Column("player", String(80), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Column("name", String(80), nullable=False),  # the name played under
    Column("rank", Integer, nullable=False),  # 1: the best total (ties share a rank)
    Column("won", Boolean, nullable=False),
    Column("points", Integer, nullable=False),  # final total
    Column("hands", Integer, nullable=False),
    Column("mu", Float, nullable=False),  # the rating after this game
    Column("sigma", Float, nullable=False),
)

lobby_t = Table(
    "hearts_lobby",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("entry", Text, nullable=False),  # JSON: what the lobby lists (see hearts.server.lobby.entry)
    Column("updated_at", Float, nullable=False),
)

holders_t = Table(
    "hearts_holders",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("instance", String(64), nullable=False),  # the ``hearts serve --instance`` that plays the table
)

#: Name changes a person may make in a day (choosing the first name is not one).
NAME_CHANGES_PER_DAY = 3
DAY = 24 * 3600.0


class LimitReached(ValueError):
    """A request past one of the limits: the text says which, and when it lifts."""


@dataclass(frozen=True)
class Person:
    player: str
    name: str


class Community:
    """Names, chat, ratings and the lobby's rows, in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        metadata.create_all(engine)

    # -- names ----------------------------------------------------------------------------

    def person(self, player: str) -> Person | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(people_t.c.name).where(people_t.c.player == player)).first()
        return None if r is None else Person(player, r.name)

    def names_of(self, players: list[str]) -> dict[str, str]:
        """The chosen name of each of ``players`` that has one."""
        if not players:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(people_t.c.player, people_t.c.name).where(people_t.c.player.in_(players)))
            return {r.player: r.name for r in rows}

    def player_named(self, name: str) -> str | None:
        """The player key of whoever is called ``name`` (compared case-folded), or None."""
        with self.engine.connect() as conn:
            r = conn.execute(select(people_t.c.player).where(people_t.c.name_key == name_key(name))).first()
        return None if r is None else str(r.player)

    def name_taken(self, key: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(people_t.c.player).where(people_t.c.name_key == key)).first() is not None

    def changes_left(self, player: str, now: float | None = None) -> tuple[int, float | None]:
        """How many name changes ``player`` has left today, and when the next one comes back (None: now)."""
        now = time.time() if now is None else now
        with self.engine.connect() as conn:
            r = conn.execute(select(people_t.c.changes).where(people_t.c.player == player)).first()
        recent = sorted(t for t in json.loads(r.changes) if t > now - DAY) if r is not None else []
        left = NAME_CHANGES_PER_DAY - len(recent)
        return max(0, left), (recent[0] + DAY if left <= 0 and recent else None)

    def set_name(self, player: str, name: str, now: float | None = None) -> Person:
        """Give ``player`` the (already cleaned) ``name``; raise :class:`NameRefused` if another person
        has it, :class:`LimitReached` past the day's changes."""
        now = time.time() if now is None else now
        key = name_key(name)
        with self.engine.begin() as conn:
            owner = conn.execute(select(people_t.c.player).where(people_t.c.name_key == key)).first()
            if owner is not None and owner.player != player:
                raise NameRefused(f'"{name}" is taken by another player: choose another')
            row = conn.execute(select(people_t.c.name, people_t.c.changes).where(people_t.c.player == player)).first()
            try:
                if row is None:
                    conn.execute(insert(people_t).values(player=player, name=name, name_key=key, created_at=now, changes="[]"))
                    return Person(player, name)
                if row.name == name:
                    return Person(player, name)
                recent = [t for t in json.loads(row.changes) if t > now - DAY]
                if len(recent) >= NAME_CHANGES_PER_DAY:
                    wait = min(recent) + DAY - now
                    raise LimitReached(
                        f"name changes: at most {NAME_CHANGES_PER_DAY} a day; the next one is possible in {_duration(wait)}"
                    )
                recent.append(now)
                conn.execute(update(people_t).where(people_t.c.player == player).values(name=name, name_key=key, changes=json.dumps(recent)))
            except IntegrityError:  # another process gave the name away between the check and the write
                raise NameRefused(f'"{name}" is taken by another player: choose another') from None
        return Person(player, name)

    # -- chat -----------------------------------------------------------------------------

    def add_chat(self, table_id: str, n: int, seat: int | None, name: str, hand: int, text: str, at: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(chat_t).values(table_id=table_id, n=n, at=at, seat=seat, name=name, hand=hand, text=text))

    def chat(self, table_id: str, limit: int = 1000) -> list[dict[str, Any]]:
        """A table's chat, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(chat_t).where(chat_t.c.table_id == table_id).order_by(chat_t.c.n).limit(limit)).mappings().all()
        return [chat_entry(r) for r in rows]

    def chat_count(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(chat_t).where(chat_t.c.table_id == table_id)).scalar_one())

    # -- ratings --------------------------------------------------------------------------

    def rate_game(self, table_id: str, results: list[GameResult], at: float | None = None) -> None:
        """Rate one finished game: each player's openskill Plackett-Luce rating moves by the final
        ranking (a lower total is better; equal totals tie). A player with two seats is one team,
        ranked by its seats' mean total. Rated once: a game already rated is left alone."""
        from openskill.models import PlackettLuce

        if len({r.player for r in results}) < 2:
            return
        at = time.time() if at is None else at
        model = PlackettLuce()
        by_player: dict[str, list[GameResult]] = {}
        for r in results:
            by_player.setdefault(r.player, []).append(r)
        players = list(by_player)
        with self.engine.begin() as conn:
            if conn.execute(select(rated_t.c.player).where(rated_t.c.table_id == table_id)).first() is not None:
                return
            stored = {
                r.player: (r.mu, r.sigma)
                for r in conn.execute(select(ratings_t).where(ratings_t.c.player.in_(players)))
            }
            teams = [[model.rating(*stored[p]) if p in stored else model.rating()] for p in players]
            means = [sum(r.points for r in by_player[p]) / len(by_player[p]) for p in players]
            order = sorted(set(means))
            ranks = [order.index(m) + 1 for m in means]
            rated = model.rate(teams, ranks=[float(r) for r in ranks])
            for p, (new,), rank in zip(players, rated, ranks, strict=True):
                mu, sigma = float(new.mu), float(new.sigma)
                if p in stored:
                    conn.execute(update(ratings_t).where(ratings_t.c.player == p).values(mu=mu, sigma=sigma))
                else:
                    conn.execute(insert(ratings_t).values(player=p, mu=mu, sigma=sigma))
                first = by_player[p][0]
                conn.execute(
                    insert(rated_t).values(
                        player=p, table_id=table_id, at=at, name=first.name, rank=rank, won=any(r.won for r in by_player[p]),
                        points=round(means[players.index(p)]), hands=first.hands, mu=mu, sigma=sigma,
                    )
                )  # fmt: skip

    def ratings_of(self, players: list[str]) -> dict[str, float]:
        """The shown rating (mu - 3 sigma) of each of ``players`` that has been rated."""
        if not players:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings_t).where(ratings_t.c.player.in_(players)))
            return {r.player: shown_rating(r.mu, r.sigma) for r in rows}

    def leaderboard(self, min_games: int = 5, limit: int = 200) -> list[dict[str, Any]]:
        """Players with at least ``min_games`` rated games, best shown rating first."""
        with self.engine.connect() as conn:
            per = conn.execute(
                select(
                    rated_t.c.player,
                    func.count().label("games"),
                    func.sum(cast(rated_t.c.won, Integer)).label("wins"),
                    func.sum(rated_t.c.points).label("points"),
                    func.sum(rated_t.c.hands).label("hands"),
                )
                .group_by(rated_t.c.player)
                .having(func.count() >= min_games)
            ).all()
            keys = [r.player for r in per]
            ratings = {r.player: r for r in conn.execute(select(ratings_t).where(ratings_t.c.player.in_(keys)))} if keys else {}
            names = self.names_of(keys)
        rows = []
        for r in per:
            rating = ratings[r.player]
            rows.append(
                {
                    "name": names.get(r.player) or display_key(r.player),
                    "kind": key_kind(r.player),
                    "rating": round(shown_rating(rating.mu, rating.sigma), 2),
                    "mu": round(rating.mu, 3),
                    "sigma": round(rating.sigma, 3),
                    "games": int(r.games),
                    "win_share": round(int(r.wins or 0) / int(r.games), 3),
                    "average_points": round(int(r.points or 0) / int(r.hands), 2) if r.hands else None,
                }
            )
        rows.sort(key=lambda e: (-e["rating"], e["name"]))
        return rows[:limit]

    def player_page(self, player: str, limit: int = 50) -> dict[str, Any]:
        """One player's rating and rated games, newest first (with the rating after each)."""
        with self.engine.connect() as conn:
            rating = conn.execute(select(ratings_t).where(ratings_t.c.player == player)).first()
            games = conn.execute(select(rated_t).where(rated_t.c.player == player).order_by(rated_t.c.at.desc()).limit(limit)).mappings().all()
            count = conn.execute(select(func.count()).select_from(rated_t).where(rated_t.c.player == player)).scalar_one()
        return {
            "rating": None if rating is None else round(shown_rating(rating.mu, rating.sigma), 2),
            "mu": None if rating is None else round(rating.mu, 3),
            "sigma": None if rating is None else round(rating.sigma, 3),
            "games": int(count),
            "recent": [
                {
                    "table": g["table_id"], "at": g["at"], "name": g["name"], "rank": g["rank"], "won": bool(g["won"]),
                    "points": g["points"], "hands": g["hands"], "rating": round(shown_rating(g["mu"], g["sigma"]), 2),
                }
                for g in games
            ],
        }  # fmt: skip

    # -- which process holds a table --------------------------------------------------------

    def hold(self, table_id: str, instance: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(holders_t).values(table_id=table_id, instance=instance))

    def holders(self, table_ids: list[str]) -> dict[str, str]:
        """The instance holding each of ``table_ids`` (a table made before instances has none)."""
        if not table_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(holders_t).where(holders_t.c.table_id.in_(table_ids)))
            return {r.table_id: r.instance for r in rows}

    # -- the lobby's rows -------------------------------------------------------------------

    def put_lobby(self, table_id: str, entry: dict[str, Any] | None, at: float | None = None) -> None:
        """List ``table_id`` in the lobby as ``entry`` (None: take it off)."""
        at = time.time() if at is None else at
        with self.engine.begin() as conn:
            conn.execute(delete(lobby_t).where(lobby_t.c.table_id == table_id))
            if entry is not None:
                conn.execute(insert(lobby_t).values(table_id=table_id, entry=json.dumps(entry), updated_at=at))

    def lobby_stamp(self) -> tuple[float, int]:
        """What changes whenever the lobby does: the latest update and the number of tables listed."""
        with self.engine.connect() as conn:
            r = conn.execute(select(func.max(lobby_t.c.updated_at), func.count()).select_from(lobby_t)).one()
        return float(r[0] or 0.0), int(r[1])

    def lobby(self) -> dict[str, dict[str, Any]]:
        """Every listed table's entry, by table id."""
        with self.engine.connect() as conn:
            return {r.table_id: json.loads(r.entry) for r in conn.execute(select(lobby_t.c.table_id, lobby_t.c.entry))}


@dataclass(frozen=True)
class GameResult:
    """One seat's part in a finished game, as rated."""

    player: str
    name: str
    points: int
    won: bool
    hands: int


def shown_rating(mu: float, sigma: float) -> float:
    """The rating shown: conservative, ``mu - 3 sigma`` (a new player starts at 0)."""
    return mu - 3 * sigma


def key_kind(player: str) -> str:
    """``person``, ``computer`` or ``bot`` from a player key."""
    kind = player.partition(":")[0]
    return kind if kind in ("computer", "bot") else "person"


def display_key(player: str) -> str:
    """How a player without a chosen name is shown: a computer by its level, a bot by its name."""
    kind, _, rest = player.partition(":")
    return rest if kind in ("computer", "bot") else "someone"


def chat_entry(r: Any) -> dict[str, Any]:
    return {"n": r["n"], "at": r["at"], "seat": r["seat"], "name": r["name"], "spectator": r["seat"] is None, "hand": r["hand"], "text": r["text"]}


def _duration(seconds: float) -> str:
    seconds = max(1, int(seconds) + 1)
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"

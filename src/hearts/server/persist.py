"""A table's moves as database rows, and its game and records built back from them.

The stored moves (``hearts_actions``, one row a move) are the one source of a table's play. A
finished hand adds a short row of what the history and the statistics list (names, seat kinds,
player keys, points, totals, the shooter), never the game's record: a record, a finished hand's
page and a restarted table are all rebuilt by replaying the moves through the engine, dealing
from the table's own deal source (its secret key, or a practice table's seed). See
``docs/server.md``, "Storage".
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from hearts.core import Event, Game, GameOver, GameRecord, HandScored, Move, Rules, move_from_dict, move_to_dict
from hearts.players.again import DealAgain
from hearts.server.storage import ActionWrite, TableRow


def action_write(
    table_id: str,
    seq: int,
    move: Move,
    actor: str,
    events: Sequence[Event],
    after: Game,
    names: Sequence[str],
    kinds: Sequence[str],
    players: Sequence[str],
) -> ActionWrite:
    """The rows one move adds: the move itself, a row for each hand it finished (with the seats'
    ``names``, ``kinds`` and player keys ``players`` as they were then), and the table's new totals
    (and its winners, when the move ended the game). ``after`` is the game once the move is applied."""
    write = ActionWrite(table_id, seq, move_to_dict(move), actor)
    finished = [e for e in events if isinstance(e, HandScored)]
    for e in finished:
        write.hands.append(
            {
                "number": e.hand_number,
                "names": json.dumps(list(names)),
                "kinds": json.dumps(list(kinds)),
                "players": json.dumps(list(players)),
                "points": json.dumps(list(e.points)),
                "totals": json.dumps(list(e.totals)),
                "shooter": after.finished[e.hand_number].shooter,
            }
        )
    if finished:
        write.table_update = {"totals": list(after.totals), "hands_done": len(after.finished)}
        if any(isinstance(e, GameOver) for e in events):
            write.table_update.update(status="over", winners=list(after.winners))
    return write


def new_game(row: TableRow) -> Game:
    """The table's game before its first move. It deals from the table's secret key; only a practice
    table (or one made before keys) deals from its seed, a replayed deal's first hand from its cards."""
    if row.deal is not None:
        return again_of(row).game(seed=row.seed, names=row.names)
    key = bytes.fromhex(row.secret) if row.secret else None
    return Game(Rules.from_dict(row.rules), seed=row.seed, names=row.names, key=key)


def again_of(row: TableRow) -> DealAgain:
    """The replayed deal a "play this deal again" table was made with (its ``deal`` must be set)."""
    assert row.deal is not None
    return DealAgain.from_dict(Rules.from_dict(row.rules), row.deal)


def stored_moves(row: TableRow) -> list[tuple[dict[str, Any], Move]]:
    """Each stored action of ``row`` (seq, actor) with its move, in order."""
    return [(action, move_from_dict(action["move"])) for action in row.actions]


def replay(row: TableRow) -> Game:
    """The table's game now: every stored move replayed through the engine (which checks each)."""
    game = new_game(row)
    for _, move in stored_moves(row):
        game.apply(move)
    game.summaries()  # made now, on the caller's thread: a finished hand's summary is then only read
    return game


def record_through(game: Game, number: int | None = None) -> GameRecord | None:
    """The record of ``game`` through its finished hand ``number`` (0-based; None: the last finished
    one), as it stood when that hand ended: the hands up to it, the totals after it, and the winners
    if it ended the game. Never the hand in progress. None if that hand is not finished.

    >>> import random
    >>> game = Game(seed=2)
    >>> while len(game.finished) < 2:
    ...     _ = game.apply(random.Random(len(game.finished)).choice(game.legal_moves()))
    >>> first = record_through(game, 0)
    >>> len(first.hands), first.totals == first.hands[0].totals, first.winners, record_through(game, 2)
    (1, True, (), None)
    """
    done = len(game.finished)
    number = done - 1 if number is None else number
    if not 0 <= number < done:
        return None
    whole = GameRecord.of(game)
    hands = whole.hands[: number + 1]
    totals = hands[-1].totals
    assert totals is not None  # a finished hand has its totals
    winners = whole.winners if number == done - 1 else ()
    return GameRecord(whole.rules, whole.names, whole.seed, hands, totals, winners)


class FinishedGames:
    """Games replayed for tables whose play is over (finished or abandoned), kept for the next ask:
    such a game never changes, and the replay page asks for one hand after another."""

    def __init__(self, keep: int = 32) -> None:
        self.keep = keep
        self._games: OrderedDict[str, Game] = OrderedDict()

    def get(self, table_id: str) -> Game | None:
        game = self._games.get(table_id)
        if game is not None:
            self._games.move_to_end(table_id)
        return game

    def put(self, table_id: str, game: Game) -> None:
        self._games[table_id] = game
        self._games.move_to_end(table_id)
        while len(self._games) > self.keep:
            self._games.popitem(last=False)

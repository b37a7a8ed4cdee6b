"""A game at the terminal, without the screen: the engine's game, who sits where, and the save file.

The human always holds seat 0 (South at a table of four); the other seats are
computer players made by :func:`hearts.players.make_player`. The game in
progress is written after every move, atomically, as the engine's own record
(``GameRecord.of(game).dumps()``), with the table's settings beside it, so
that ``hearts play --resume`` picks it up after a quit or a crash, and
``hearts replay`` can read the same file.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hearts.core import (
    Game,
    GameRecord,
    HeartsError,
    Move,
    Rules,
    SeatView,
    play_claim,
    seat_name,
)
from hearts.core.events import Event
from hearts.players import LEVELS, Decision, Player, make_player
from hearts.players.again import DealAgain
from hearts.players.drive import check_answer
from hearts.players.registry import parse_player

#: The seat the person at the keyboard holds.
HUMAN = 0

#: Speed name -> (seconds before each computer card, seconds a finished trick stays on the table).
SPEEDS: dict[str, tuple[float, float]] = {
    "instant": (0.0, 0.0),
    "fast": (0.15, 0.7),
    "normal": (0.45, 1.3),
    "slow": (0.9, 2.2),
}

#: Levels from strongest to weakest: the fallback order when a requested level is not installed.
LEVEL_ORDER = ("expert", "hard", "learned", "medium", "easy", "random")
#: Levels the project defines; asking for one that is not (yet) in LEVELS falls back instead of failing.
KNOWN_LEVELS = ("random", "easy", "medium", "learned", "hard", "expert")

SAVE_NAME = "tui-game.json"
LAST_GAME_NAME = "last-game.json"
#: The folder, beside the save file, where every unfinished game set aside for a new one is kept.
SAVES_DIR = "saves"


class SaveError(Exception):
    """No saved game, or one that cannot be read back: the message says which and where."""


def data_dir() -> Path:
    """Where the terminal game keeps its save (the user data dir, via platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("hearts", appauthor=False))


def default_save_path() -> Path:
    return data_dir() / SAVE_NAME


def best_available(preferred: str) -> str:
    """``preferred`` if it is a level that exists now, else the strongest level that does."""
    if preferred in LEVELS:
        return preferred
    for level in LEVEL_ORDER:
        if level in LEVELS:
            return level
    return next(iter(LEVELS))


def resolve_level(requested: str) -> tuple[str, str | None]:
    """The level to use for ``requested``, and a note when it had to fall back.

    An unknown name (neither installed nor one of the project's levels) raises ``ValueError``.
    """
    key = requested.strip().lower()
    if key.startswith(("cmd:", "py:")) or "=" in key:  # a bot (docs/bot-protocol.md), perhaps named
        parse_player(requested)  # a malformed one fails here, before the game starts
        return requested.strip(), None
    if key in LEVELS:
        return key, None
    if key not in KNOWN_LEVELS:
        choices = ", ".join(dict.fromkeys([*LEVELS, *KNOWN_LEVELS]))
        raise ValueError(f"unknown player level {requested!r}: choose one of {choices}")
    level = best_available(key)
    return level, f"the {key} level is not available here; {level} plays instead"


@dataclass
class Settings:
    """How the table is set up, beside the rules: saved with the game so that resume restores it."""

    name: str = "You"
    opponents: tuple[str, ...] = ("medium",)  #: one level per computer seat (the last repeats)
    speed: str = "normal"
    four_colour: bool = False
    hint_level: str = "expert"
    think: float | None = None  #: the computer players' time budget in seconds (None: their own default)
    #: a practice game that deals a finished hand again: where the hand came from, in words
    practice: str | None = None
    #: play the person's card for them when it is the only legal one (said on the screen as it is played)
    auto_play: bool = True

    def level_of(self, seat: int) -> str:
        """The requested level of computer ``seat`` (1-based among the computer seats)."""
        return self.opponents[min(seat - 1, len(self.opponents) - 1)]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["opponents"] = list(self.opponents)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Settings:
        """Settings as saved by :meth:`to_dict`; a field that is not what it should be raises SaveError naming it."""
        if not isinstance(data, dict):
            raise SaveError("the saved table settings are not a JSON object")
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        settings = cls(**known)
        if not isinstance(settings.name, str):
            raise SaveError(f"the name is {settings.name!r}, not text")
        opponents = settings.opponents
        if isinstance(opponents, str) or not isinstance(opponents, (list, tuple)):
            raise SaveError(f"opponents is {opponents!r}, not a list of levels")
        settings.opponents = tuple(opponents) or ("medium",)
        for what, level in [*(("opponent level", x) for x in settings.opponents), ("hint level", settings.hint_level)]:
            if not isinstance(level, str):
                raise SaveError(f"the {what} {level!r} is not a level name")
            try:
                resolve_level(level)
            except ValueError as exc:
                raise SaveError(str(exc)) from None
        if settings.speed not in SPEEDS:
            raise SaveError(f"unknown speed {settings.speed!r}: choose one of {', '.join(SPEEDS)}")
        if not isinstance(settings.four_colour, bool):
            raise SaveError(f"four_colour is {settings.four_colour!r}, not true or false")
        if not isinstance(settings.auto_play, bool):
            raise SaveError(f"auto_play is {settings.auto_play!r}, not true or false")
        settings.think = check_think(settings.think, SaveError)
        if settings.practice is not None and not isinstance(settings.practice, str):
            raise SaveError(f"practice is {settings.practice!r}, not text")
        return settings


def check_think(value: object, error: type[Exception] = ValueError) -> float | None:
    """A thinking time in seconds: None (each level's own) or a finite number above 0; else ``error``.

    >>> check_think(0.5), check_think(None)
    (0.5, None)
    >>> check_think(0)
    Traceback (most recent call last):
    ...
    ValueError: the thinking time is seconds per move and must be more than 0, not 0
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        raise error(f"the thinking time is seconds per move and must be more than 0, not {value!r}")
    return float(value)


@dataclass
class Session:
    """The game, the computer players around the human, and where it is saved."""

    game: Game
    settings: Settings
    save_path: Path | None
    levels: dict[int, str] = field(default_factory=dict)  #: computer seat -> level actually playing
    notes: list[str] = field(default_factory=list)  #: level fallbacks etc., for the table's log
    players: dict[int, Player] = field(default_factory=dict)
    #: a deal played again: its computers pass as they did (:mod:`hearts.players.again`)
    again: DealAgain | None = None

    def __post_init__(self) -> None:
        self._make_players()

    # -- set-up ---------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules, settings: Settings, seed: int | None = None, save_path: Path | None = None) -> Session:
        """A new game: the human at seat 0 under ``settings.name``, computer seats by their compass names."""
        names = [settings.name] + [seat_name(s, rules.players) for s in range(1, rules.players)]
        session = cls(Game(rules, seed=seed, names=names), settings, save_path)
        session.save()
        return session

    @classmethod
    def deal_again(cls, again: DealAgain, settings: Settings, seed: int = 0, save_path: Path | None = None) -> Session:
        """A practice game whose first hand is ``again`` (already turned so the person's seat is seat
        0); ``settings.practice`` says where the hand came from. The computers are seeded by ``seed``."""
        rules = again.rules
        names = [settings.name] + [seat_name(s, rules.players) for s in range(1, rules.players)]
        session = cls(again.game(seed=seed, names=names), settings, save_path, again=again)
        session.save()
        return session

    @classmethod
    def resume(cls, save_path: Path, settings_override: dict[str, Any] | None = None) -> Session:
        """The game saved at ``save_path`` (replayed through the engine), with its table settings."""
        try:
            text = save_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            kept = sorted((save_path.parent / SAVES_DIR).glob("*[0-9].json"))
            others = (
                f"; games set aside for new ones are in {kept[0].parent} (the latest: "
                f"hearts play --resume --save-file {kept[-1]})"
                if kept
                else ""
            )
            raise SaveError(f"no saved game at {save_path}: start one with 'hearts play'{others}") from None
        except OSError as exc:
            raise SaveError(f"cannot read the saved game at {save_path}: {exc}") from None
        try:
            game = GameRecord.loads(text).replay()
        except HeartsError as exc:
            raise SaveError(f"the saved game at {save_path} cannot be replayed: {exc}") from None
        settings = Settings(name=game.names[HUMAN])
        again = None
        side = settings_path(save_path)
        if side.exists():
            try:
                saved = json.loads(side.read_text(encoding="utf-8"))
                settings = Settings.from_dict(saved)
                again = _saved_again(saved, game)
            except (OSError, ValueError, TypeError, SaveError) as exc:
                raise SaveError(
                    f"the table settings at {side} cannot be used: {exc} (fix that file, or delete it to "
                    "resume with the default settings)"
                ) from None
        for key, value in (settings_override or {}).items():
            setattr(settings, key, value)
        try:
            return cls(game, settings, save_path, again=again)
        except ValueError as exc:  # a player that cannot be made from the saved settings
            raise SaveError(f"the saved game at {save_path} cannot be set up again: {exc}") from None

    def _make_players(self) -> None:
        self.close()  # a new game starts new players; outside bots of the old one are stopped
        n = self.game.rules.players
        self.levels.clear()
        self.players.clear()
        self.notes.clear()
        if self.settings.practice:
            self.notes.append(f"practice: {self.settings.practice}")
        for seat in range(1, n):
            level, note = resolve_level(self.settings.level_of(seat))
            if note and note not in self.notes:
                self.notes.append(note)
            self.levels[seat] = level
            self.players[seat] = make_player(level, seed=self.game.seed * 8 + seat, time_budget=self.settings.think)
            if self.again is not None:
                self.players[seat] = self.again.player(seat, self.players[seat])
        hint_level, note = resolve_level(self.settings.hint_level)
        self.hint_level = hint_level
        if note:
            self.notes.append(f"hints: {note}")
        self.hint_player = make_player(hint_level, seed=self.game.seed * 8 + 7, time_budget=self.settings.think)

    def close(self) -> None:
        """Stop the players that hold resources (outside bots run as processes)."""
        for player in [*self.players.values(), getattr(self, "hint_player", None)]:
            closer = getattr(player, "close", None)
            if callable(closer):
                closer()

    def play_again(self) -> None:
        """A new game at the same table (same rules, players and settings), on a new seed."""
        game = self.game
        self.game = Game(game.rules, seed=random.randrange(2**32), names=game.names)
        self.again, self.settings.practice = None, None
        self._make_players()
        self.save()

    # -- what the table shows ---------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.names

    @property
    def timing(self) -> tuple[float, float]:
        return SPEEDS.get(self.settings.speed, SPEEDS["normal"])

    def view(self) -> SeatView:
        """The human seat's view: the only thing the table draws during play."""
        return self.game.view(HUMAN)

    def label(self, seat: int) -> str:
        """A seat's name with its level, or its compass name for the human."""
        n = self.game.rules.players
        if seat == HUMAN:
            compass = seat_name(HUMAN, n)
            return self.names[HUMAN] if self.names[HUMAN] == compass else f"{self.names[HUMAN]} ({compass})"
        return f"{self.names[seat]} · {self.levels.get(seat, '?')}"

    # -- moves ------------------------------------------------------------------------

    def apply(self, move: Move) -> list[Event]:
        """Apply a move through the engine (an illegal one raises and changes nothing), then save."""
        events = self.game.apply(move)
        self.save()
        return events

    def claim(self, seat: int) -> list[Event]:
        """``seat`` claims the rest of the hand: checked by the engine (a claim that does not hold raises
        ``ClaimRefused`` with the reason and changes nothing), played out, then saved."""
        events = play_claim(self.game, seat)
        self.save()
        return events

    @staticmethod
    def decide(player: Player, view: SeatView) -> Decision:
        """A computer player's decision on ``view``. Runs in a worker thread: touches only the view."""
        return player.decide(view)

    def checked(self, seat: int, decision: Decision | BaseException) -> tuple[Move, str | None]:
        """The move to apply for computer ``seat``: its decision if legal, else a random legal move and why
        (the fault named as the one game loop names it: :func:`hearts.players.drive.check_answer`)."""
        fault = check_answer(self.game, seat, decision.move if isinstance(decision, Decision) else decision)
        if fault is None:
            assert isinstance(decision, Decision)
            return decision.move, None
        problem = fault.message
        moves = self.game.legal_moves(seat)
        rng = random.Random(self.game.seed ^ len(self.game.finished) ^ seat)
        return rng.choice(
            moves
        ), f"{self.names[seat]}'s {self.levels.get(seat)} player failed ({problem}); a random legal move was made"

    # -- saving -----------------------------------------------------------------------

    def save(self) -> None:
        """Write the record (and the table settings) atomically; a finished game moves to last-game.json."""
        path = self.save_path
        if path is None:
            return
        text = GameRecord.of(self.game).dumps()
        if self.game.is_over:
            _write_atomic(path.with_name(LAST_GAME_NAME), text)
            for stale in (path, settings_path(path)):
                stale.unlink(missing_ok=True)
            return
        side = self.settings.to_dict()
        if self.again is not None:  # the passes the computers make again, for a resume before they pass
            side["again"] = self.again.to_dict()
        _write_atomic(settings_path(path), json.dumps(side, indent=1))
        _write_atomic(path, text)


def _saved_again(saved: dict[str, Any], game: Game) -> DealAgain | None:
    """The deal played again that the table settings ``saved`` keep for ``game`` (None: none kept);
    one that is not the game's first hand raises SaveError."""
    data = saved.get("again")
    if data is None:
        return None
    again = DealAgain.from_dict(game.rules, data)
    if again.dealt != game.summary(0).dealt:
        raise SaveError("the deal played again ('again') is not the saved game's first hand")
    return again


def keep_unfinished(save_path: Path) -> Path | None:
    """Before a new game takes the save file, move an unfinished game there into the saves folder.

    Every game set aside gets a file of its own (named by the time it was set aside), with its
    table settings beside it, so that no number of new games ever overwrites one. Returns where it
    went (None when there was no unfinished game).
    """
    if not save_path.exists():
        return None
    folder = save_path.parent / SAVES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d-%H%M%S")
    kept = folder / f"{save_path.stem}-{stamp}.json"
    count = 1
    while kept.exists() or settings_path(kept).exists():
        count += 1
        kept = folder / f"{save_path.stem}-{stamp}-{count}.json"
    side = settings_path(save_path)
    if side.exists():
        side.replace(settings_path(kept))
    save_path.replace(kept)
    return kept


def saved_summary(save_path: Path) -> str:
    """One line about the game saved at ``save_path``: its hand and totals (or why it cannot be read).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = Session.new(Rules(), Settings(opponents=("random",)), seed=1, save_path=folder / "g.json")
    >>> saved_summary(folder / "g.json")
    'hand 1, totals You 0, West 0, North 0, East 0'
    """
    try:
        game = GameRecord.loads(save_path.read_text(encoding="utf-8")).replay()
    except (OSError, ValueError) as exc:
        return f"it cannot be read: {exc}"
    totals = ", ".join(f"{name} {total}" for name, total in zip(game.names, game.totals, strict=True))
    return f"hand {game.hand_number + 1}, totals {totals}"


def saved_progress(save_path: Path) -> tuple[int, int] | None:
    """How far the game saved at ``save_path`` went: the passes made and the cards played, over all its
    hands (None when it cannot be read).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> session = Session.new(Rules(), Settings(opponents=("random",)), seed=1, save_path=folder / "g.json")
    >>> saved_progress(folder / "g.json")
    (0, 0)
    >>> from hearts.core import CardSet, PassCards
    >>> hand = session.game.view(HUMAN).hand
    >>> _ = session.apply(PassCards(HUMAN, CardSet(list(hand)[:3])))
    >>> saved_progress(folder / "g.json")
    (1, 0)
    """
    try:
        game = GameRecord.loads(save_path.read_text(encoding="utf-8")).replay()
    except (OSError, ValueError):
        return None
    hands = (*game.finished, game.hand)
    passes = sum(p is not None for h in hands for p in h.passed)
    cards = sum(len(t.cards) for h in hands for t in h.tricks) + len(game.hand.trick)
    return passes, cards


def settings_path(save_path: Path) -> Path:
    """The table settings saved beside a game record: ``tui-game.json`` -> ``tui-game.settings.json``."""
    return save_path.with_name(save_path.stem + ".settings.json")


def _write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder and rename it over the target: never half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = [
    "HUMAN", "SPEEDS", "LEVEL_ORDER", "KNOWN_LEVELS", "SaveError", "Settings", "Session", "best_available",
    "resolve_level", "default_save_path", "data_dir", "settings_path", "keep_unfinished", "saved_summary",
    "check_think", "SAVES_DIR",
]  # fmt: skip

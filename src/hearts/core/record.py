"""Records: a whole game (or a game in progress) as documented JSON that round-trips like PGN.

``GameRecord.loads(r.dumps()) == r``, and :meth:`GameRecord.replay` rebuilds the game through
the engine, so a record with an illegal or impossible step fails with an error
naming the hand, the trick and the rule. See ``docs/records.md``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hearts.core.cards import Card, CardSet
from hearts.core.claim import ClaimRefused, check_claim
from hearts.core.errors import HeartsError, RecordError
from hearts.core.game import Game
from hearts.core.hand import HandState, Phase
from hearts.core.rules import MoonOption, PassDirection, Rules
from hearts.core.summary import HandSummary

FORMAT = "hearts-record"
FORMAT_VERSION = 1

#: The key a record without a seed deals on with, past its last recorded hand, when replayed: public,
#: so those hands are no one's secret, and never the original game's (which were dealt from a secret).
REPLAY_KEY = hashlib.sha256(b"hearts-record: a game dealt from a secret, replayed").digest()


@dataclass(frozen=True, slots=True)
class TrickRecord:
    leader: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandRecord:
    number: int
    direction: PassDirection
    dealt: tuple[CardSet, ...]
    passes: tuple[CardSet | None, ...]  #: None for a seat that has not passed (or a hold hand)
    tricks: tuple[TrickRecord, ...]  #: the last may be incomplete in a game in progress
    moon_choice: MoonOption | None
    points: tuple[int, ...] | None  #: this hand's scores, once it is over
    totals: tuple[int, ...] | None  #: the running totals after it, once it is over
    #: ``(seat, cards played before it)`` when a seat claimed the rest: the tricks after it are the
    #: hand played out, and a replay checks the claim again at that card
    claim: tuple[int, int] | None = None

    @classmethod
    def of(cls, summary: HandSummary) -> HandRecord:
        """The record of a hand: what its summary holds that a replay needs and checks."""
        return cls(
            number=summary.number,
            direction=summary.direction,
            dealt=summary.dealt,
            passes=summary.passes,
            tricks=tuple(TrickRecord(t.leader, t.cards) for t in summary.tricks),
            moon_choice=summary.moon_option,
            points=summary.scores,
            totals=summary.totals,
            claim=summary.claim,
        )


@dataclass(frozen=True, slots=True)
class GameRecord:
    rules: Rules
    names: tuple[str, ...]
    seed: int | None  #: None for a game dealt from a secret key: its deals are only those recorded
    hands: tuple[HandRecord, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    @classmethod
    def of(cls, game: Game) -> GameRecord:
        hands = [HandRecord.of(summary) for summary in game.summaries()]
        seed = None if game.key is not None else game.seed
        return cls(game.rules, game.names, seed, tuple(hands), tuple(game.totals), game.winners)

    def without_seed(self) -> GameRecord:
        """The same record with no seed: what may be shown while the game is still being played."""
        return GameRecord(self.rules, self.names, None, self.hands, self.totals, self.winners)

    @property
    def is_complete(self) -> bool:
        return bool(self.winners)

    def replay(self) -> Game:
        """Rebuild the game through the engine, checking every step; raise :class:`RecordError` if any fails."""
        deals = {h.number: tuple(cs.mask for cs in h.dealt) for h in self.hands}
        for h in self.hands:
            # Check every deal up front: a bad one found only when the hand before it ends
            # would be blamed on that hand's last trick.
            try:
                HandState(self.rules, deals[h.number], h.number)
            except HeartsError as exc:
                raise RecordError(f"hand {h.number + 1}, deal: {exc}") from None
        try:
            if self.seed is None:
                game = Game(self.rules, deals=deals, names=self.names, key=REPLAY_KEY)
            else:
                game = Game(self.rules, seed=self.seed, deals=deals, names=self.names)
        except HeartsError as exc:
            raise RecordError(f"hand 1: {exc}") from None
        for i, h in enumerate(self.hands):
            where = f"hand {h.number + 1}"
            if game.is_over:
                raise RecordError(f"{where}: the game was already over after hand {h.number}")
            if h.number != game.hand.number or h.number != i:
                raise RecordError(f"{where}: hands must be numbered 1, 2, 3 … in order (found hand {h.number + 1} at position {i + 1})")
            if h.direction is not game.hand.direction:
                raise RecordError(f"{where}: recorded pass direction {h.direction.value}, but the rules' cycle gives {game.hand.direction.value}")
            last = i == len(self.hands) - 1
            _replay_hand(game, h, where, last)
        if tuple(game.totals) != self.totals:
            raise RecordError(f"recorded totals {list(self.totals)} but the hands add up to {game.totals}")
        if tuple(game.winners) != self.winners:
            raise RecordError(f"recorded winners {list(self.winners)} but the rules give {list(game.winners)}")
        return game

    # -- JSON -------------------------------------------------------------------------

    def dumps(self, indent: int | None = 1) -> str:
        """The record as JSON text: one field a line, each list of cards kept on its own line so a
        record reads like a score sheet (``indent=None`` gives one compact line).

        >>> from hearts.core.game import Game
        >>> record = GameRecord.of(Game(seed=1))
        >>> text = record.dumps()
        >>> text.splitlines()[0], GameRecord.loads(text) == record
        ('{', True)
        """
        data = self.to_dict()
        if indent is None:
            return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return _pretty(data, 0, " " * indent)

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        """A record from JSON text; a malformed one raises :class:`RecordError` naming what is wrong."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise RecordError(f"not a JSON record: {exc}") from None
        return cls.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "names": list(self.names),
            "seed": self.seed,
            "hands": [_hand_to_dict(h) for h in self.hands],
            "totals": list(self.totals),
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, Mapping):
            raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a hearts record: 'format' is {data.get('format')!r}, expected {FORMAT!r}")
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise RecordError(f"record version {version!r} is not supported (this engine reads version {FORMAT_VERSION})")
        try:
            rules = Rules.from_dict(_get(data, "rules", dict, "record"))
        except HeartsError as exc:
            raise RecordError(f"record rules: {exc}") from None
        hands_data = _get(data, "hands", list, "record")
        hands = tuple(_hand_from_dict(h, i, rules.players) for i, h in enumerate(hands_data))
        names = tuple(_get(data, "names", list, "record"))
        if len(names) != rules.players or not all(isinstance(x, str) for x in names):
            raise RecordError(f"record names must be {rules.players} strings")
        # null: a game dealt from a secret (its deals are the recorded ones); missing: an error.
        seed = None if data.get("seed", 0) is None else _get(data, "seed", int, "record")
        return cls(
            rules,
            names,
            seed,
            hands,
            _ints(_get(data, "totals", list, "record"), "record totals"),
            _ints(_get(data, "winners", list, "record"), "record winners"),
        )


def _check_claim(hand: HandState, claim: tuple[int, int], at: str) -> None:
    """The recorded claim, checked again where it was made, and marked on the hand."""
    try:
        check_claim(hand, claim[0])
    except ClaimRefused as exc:
        raise RecordError(f"{at}: the recorded claim does not hold: {exc}") from None
    hand.claim = claim


def _claim_from_dict(data: Mapping[str, Any], where: str, players: int) -> tuple[int, int] | None:
    raw = data.get("claim")
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise RecordError(f"{where}: 'claim' must be an object with 'seat' and 'after'")
    seat = _get(raw, "seat", int, f"{where} claim")
    after = _get(raw, "after", int, f"{where} claim")
    if not 0 <= seat < players or after < 0:
        raise RecordError(f"{where}: claim by seat {seat} after {after} cards is not a place in the hand")
    return seat, after


def _replay_hand(game: Game, h: HandRecord, where: str, last: bool) -> None:
    hand = game.hand
    n = game.rules.players
    if tuple(cs.mask for cs in h.dealt) != hand.dealt:
        raise RecordError(f"{where}: the dealt hands do not match")  # pragma: no cover - deals come from the record
    if len(h.passes) != n:
        raise RecordError(f"{where}: 'passes' needs one entry per seat ({n})")
    if hand.phase is Phase.PASS:
        for seat, cards in enumerate(h.passes):
            if cards is not None:
                try:
                    game.pass_cards(seat, cards)
                except HeartsError as exc:
                    raise RecordError(f"{where}, pass: {exc}") from None
        if hand.phase is Phase.PASS and (h.tricks or not last):
            raise RecordError(f"{where}: play starts before every seat has passed")
    elif any(p is not None for p in h.passes):
        raise RecordError(f"{where}: a {h.direction.value} hand has no passes")
    for t_index, t in enumerate(h.tricks):
        at = f"{where}, trick {t_index + 1}"
        if game.hand is not hand:
            raise RecordError(f"{at}: the hand was already over")
        if hand.leader != t.leader:
            raise RecordError(f"{at}: recorded leader is seat {t.leader}, but seat {hand.leader} leads")
        if not t.cards or (len(t.cards) < n and t_index != len(h.tricks) - 1):
            raise RecordError(f"{at}: a trick needs {n} cards ({len(t.cards)} recorded)")
        if len(t.cards) > n:
            raise RecordError(f"{at}: a trick has {n} cards, not {len(t.cards)}")
        for c in t.cards:
            if h.claim is not None and h.claim[1] == sum(len(x.cards) for x in hand.tricks) + len(hand.trick):
                _check_claim(hand, h.claim, at)
            try:
                game.play(c)
            except HeartsError as exc:
                raise RecordError(f"{at}: {exc}") from None
    if h.claim is not None and (hand.claim is None or hand.phase is Phase.PLAY):
        raise RecordError(f"{where}: a claim is recorded after {h.claim[1]} cards, but the hand was not played out from there")
    if h.moon_choice is not None:
        if hand.phase is not Phase.MOON_CHOICE:
            raise RecordError(f"{where}: a moon choice is recorded, but no moon choice was due")
        assert hand.shooter is not None
        game.choose_moon(hand.shooter, h.moon_choice)
    if hand.phase is Phase.HAND_OVER:
        if h.points != hand.scores:
            raise RecordError(f"{where}: recorded points {_list(h.points)} but the rules give {list(hand.scores or ())}")
        if h.totals != tuple(game.totals):
            raise RecordError(f"{where}: recorded totals {_list(h.totals)} but they add up to {game.totals}")
    else:
        if not last:
            raise RecordError(f"{where}: the hand is not finished, but another hand follows")
        if h.points is not None:
            raise RecordError(f"{where}: points are recorded for a hand that is not finished")


def _list(x: tuple[int, ...] | None) -> object:
    return None if x is None else list(x)


def _hand_to_dict(h: HandRecord) -> dict[str, Any]:
    return {
        "number": h.number + 1,
        "direction": h.direction.value,
        "dealt": [cs.names() for cs in h.dealt],
        "passes": [None if p is None else p.names() for p in h.passes],
        "tricks": [{"leader": t.leader, "cards": [str(c) for c in t.cards]} for t in h.tricks],
        "moon_choice": None if h.moon_choice is None else h.moon_choice.value,
        "points": _list(h.points),
        "totals": _list(h.totals),
        # Only a claimed hand has the field, so that every other record reads as before.
        **({} if h.claim is None else {"claim": {"seat": h.claim[0], "after": h.claim[1]}}),
    }


def _get(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where}: missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: {key!r} must be a {kind.__name__}, not {value!r}"[:300])
    return value


def _ints(values: list[Any], where: str) -> tuple[int, ...]:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise RecordError(f"{where} must be whole numbers: {values!r}"[:300])
    return tuple(values)


def _cards(values: Any, where: str) -> CardSet:
    if not isinstance(values, list):
        raise RecordError(f"{where} must be a list of cards, not {values!r}"[:300])
    try:
        return CardSet(values)
    except HeartsError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _hand_from_dict(data: Any, index: int, players: int) -> HandRecord:
    where = f"hand {index + 1}"
    if not isinstance(data, Mapping):
        raise RecordError(f"{where} must be an object")
    number = _get(data, "number", int, where) - 1
    try:
        direction = PassDirection(_get(data, "direction", str, where))
    except ValueError:
        raise RecordError(f"{where}: unknown pass direction {data['direction']!r}") from None
    dealt = tuple(_cards(d, f"{where} dealt") for d in _get(data, "dealt", list, where))
    if len(dealt) != players:
        raise RecordError(f"{where}: 'dealt' needs {players} hands, not {len(dealt)}")
    passes = tuple(None if p is None else _cards(p, f"{where} passes") for p in _get(data, "passes", list, where))
    tricks = []
    for t_index, t in enumerate(_get(data, "tricks", list, where)):
        at = f"{where}, trick {t_index + 1}"
        if not isinstance(t, Mapping):
            raise RecordError(f"{at} must be an object with 'leader' and 'cards'")
        leader = _get(t, "leader", int, at)
        cards_raw = _get(t, "cards", list, at)
        try:
            cards = tuple(Card.parse(c) for c in cards_raw)
        except HeartsError as exc:
            raise RecordError(f"{at}: {exc}") from None
        tricks.append(TrickRecord(leader, cards))
    moon_raw = data.get("moon_choice")
    try:
        moon = None if moon_raw is None else MoonOption(moon_raw)
    except ValueError:
        raise RecordError(f"{where}: unknown moon choice {moon_raw!r}") from None
    points = data.get("points")
    totals = data.get("totals")
    return HandRecord(
        number,
        direction,
        dealt,
        passes,
        tuple(tricks),
        moon,
        None if points is None else _ints(_get(data, "points", list, where), f"{where} points"),
        None if totals is None else _ints(_get(data, "totals", list, where), f"{where} totals"),
        _claim_from_dict(data, where, players),
    )


def dumps(record: GameRecord, indent: int | None = 1) -> str:
    """``record.dumps(indent)``, as a function (kept for callers written before the method)."""
    return record.dumps(indent)


def _pretty(value: Any, depth: int, pad: str) -> str:
    # Objects open one key a line down to the hands and tricks; anything else (a list of cards,
    # a list of numbers, a small object) is written compactly on one line.
    compact = json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict) and (depth < 2 or len(compact) > 100):
        inner = pad * (depth + 1)
        items = [f"{inner}{json.dumps(k)}: {_pretty(v, depth + 1, pad)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad * depth + "}"
    if isinstance(value, list) and value and len(compact) > 100:
        inner = pad * (depth + 1)
        items = [inner + _pretty(v, depth + 1, pad) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad * depth + "]"
    return compact


def loads(text: str | bytes) -> GameRecord:
    """``GameRecord.loads(text)``, as a function (kept for callers written before the method)."""
    return GameRecord.loads(text)

"""What one seat may see: the only thing computer players, clients and observers are given.

A :class:`SeatView` holds the rules, the seat's own cards, its own pass and (once
every seat has passed) what it received, every card played so far in order
with who played it and who won each trick, the points each seat has taken,
the totals and whether hearts are broken. It holds no other seat's cards and
no other seat's pass.

A :class:`PublicView` is what anyone may see, a spectator included: it is built field by field from
:data:`PUBLIC_FIELDS` (an allow-list), never by emptying a seat's view, so a private field added to
:class:`SeatView` can never reach a spectator by accident.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from hearts.core.cards import SUIT_MASKS, Card, CardSet, cards_of
from hearts.core.errors import HeartsError, IllegalMoveError
from hearts.core.hand import HandState, Phase, Trick, seat_name
from hearts.core.rules import MoonOption, PassDirection, Rules

if TYPE_CHECKING:
    from hearts.core.game import Game


#: The fields of the public view: everything here may be shown to anyone at any time. A field is
#: public only by being listed; :class:`PublicView` holds exactly these.
PUBLIC_FIELDS = (
    "rules",
    "names",
    "hand_number",
    "phase",
    "direction",
    "has_passed",
    "tricks",
    "trick",
    "to_move",
    "hearts_broken",
    "points",
    "totals",
    "hand_sizes",
    "scores",
    "shooter",
    "winners",
)

#: What a public view's JSON says for the fields only a seat has: constants (the view belongs to no
#: seat, holds no cards and owes no decision), so every client reads one shape of view.
NO_SEAT: dict[str, object] = {
    "seat": None,
    "hand": [],
    "passed": None,
    "pass_to": None,
    "received": None,
    "pass_from": None,
    "legal": [],
    "moon_options": [],
}


def _trick_dict(t: Trick) -> dict[str, object]:
    return {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}


@dataclass(frozen=True, slots=True)
class PublicView:
    """What anyone may see of a game, a spectator included: the play so far, who has passed (not
    what), card counts, points and totals. No card of any hand, no pass, no seat's options.

    >>> from hearts.core import Game, Rules
    >>> view = Game(Rules.preset("no-passing"), seed=1).public_view()
    >>> view.hand_sizes, view.to_move
    ((13, 13, 13, 13), (1,))
    >>> view.to_dict()["hand"]
    []
    """

    rules: Rules
    names: tuple[str, ...]
    hand_number: int
    phase: Phase
    direction: PassDirection
    has_passed: tuple[bool, ...]  #: which seats have chosen their pass (not what they chose)
    tricks: tuple[Trick, ...]  #: completed tricks of this hand
    trick: Trick  #: the trick in progress (winner None)
    to_move: tuple[int, ...]
    hearts_broken: bool
    points: tuple[int, ...]  #: penalty points each seat has taken this hand
    totals: tuple[int, ...]  #: running totals before this hand's score
    hand_sizes: tuple[int, ...]  #: how many cards each seat holds
    scores: tuple[int, ...] | None  #: this hand's scores once it is over
    shooter: int | None  #: who shot the moon, once the hand's tricks are all played
    winners: tuple[int, ...]  #: the game's winners once it is over

    @classmethod
    def of(cls, game: Game) -> PublicView:
        return cls.of_hand(game.hand, game.totals, game.names, game.winners)

    @classmethod
    def of_hand(
        cls,
        hand: HandState,
        totals: Sequence[int] | None = None,
        names: Sequence[str] | None = None,
        winners: tuple[int, ...] = (),
    ) -> PublicView:
        return cls(**_public_fields(hand, totals, names, winners))

    def to_dict(self) -> dict[str, object]:
        """The view as JSON-ready data, in the shape of :meth:`SeatView.to_dict` with the seat's own
        fields set to :data:`NO_SEAT`: what the server sends spectators."""
        return {**NO_SEAT, **_public_dict(self)}


@dataclass(frozen=True, slots=True)
class SeatView:
    rules: Rules
    seat: int
    names: tuple[str, ...]
    hand_number: int
    phase: Phase
    direction: PassDirection
    hand: CardSet
    passed: CardSet | None  #: the cards this seat passed (None before it chose, or on a hold hand)
    pass_to: int | None
    received: CardSet | None  #: the cards it received (None until every seat has passed)
    pass_from: int | None
    has_passed: tuple[bool, ...]  #: which seats have chosen their pass (public)
    tricks: tuple[Trick, ...]  #: completed tricks of this hand
    trick: Trick  #: the trick in progress (winner None)
    to_move: tuple[int, ...]
    legal: tuple[Card, ...]  #: the cards this seat may play now (empty unless it is its turn to play)
    moon_options: tuple[MoonOption, ...]  #: non-empty only when this seat must choose how its moon scores
    hearts_broken: bool
    points: tuple[int, ...]  #: penalty points each seat has taken this hand
    totals: tuple[int, ...]  #: running totals before this hand's score
    hand_sizes: tuple[int, ...]  #: how many cards each seat holds
    scores: tuple[int, ...] | None  #: this hand's scores once it is over
    shooter: int | None
    winners: tuple[int, ...]  #: the game's winners once it is over

    @classmethod
    def of(cls, game: Game, seat: int) -> SeatView:
        return cls.of_hand(game.hand, seat, game.totals, game.names, game.winners)

    @classmethod
    def of_hand(
        cls,
        hand: HandState,
        seat: int,
        totals: Sequence[int] | None = None,
        names: Sequence[str] | None = None,
        winners: tuple[int, ...] = (),
    ) -> SeatView:
        n = hand.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise IllegalMoveError(f"no seat {seat!r} at a table of {n}")
        holding = hand.direction is PassDirection.HOLD
        own_pass = hand.passed[seat]
        all_passed = all(p is not None for p in hand.passed)
        source = hand.pass_source(seat)
        received = hand.passed[source] if all_passed and not holding else None
        my_turn = hand.phase is Phase.PLAY and hand.turn == seat and not winners
        return cls(
            **_public_fields(hand, totals, names, winners),
            seat=seat,
            hand=CardSet(hand.hands[seat]),
            passed=None if own_pass is None or holding else CardSet(own_pass),
            pass_to=None if holding else hand.pass_target(seat),
            received=None if received is None else CardSet(received),
            pass_from=None if holding else source,
            legal=tuple(hand.legal_plays()) if my_turn else (),
            moon_options=tuple(MoonOption) if hand.phase is Phase.MOON_CHOICE and hand.shooter == seat else (),
        )

    def public(self) -> PublicView:
        """The part of this view anyone may see."""
        return PublicView(**{name: getattr(self, name) for name in PUBLIC_FIELDS})

    # -- what follows from what the seat has seen -----------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def my_turn(self) -> bool:
        return self.seat in self.to_move

    @property
    def played(self) -> CardSet:
        """Every card played so far this hand, the trick in progress included."""
        mask = 0
        for t in self.tricks:
            for c in t.cards:
                mask |= 1 << c
        for c in self.trick.cards:
            mask |= 1 << c
        return CardSet(mask)

    @property
    def unseen(self) -> CardSet:
        """Cards in play that this seat has neither held nor seen played: they are in other hands."""
        return CardSet(self.rules.in_play & ~self.hand.mask & ~self.played.mask & ~self.known_elsewhere().mask)

    def known_elsewhere(self) -> CardSet:
        """Cards this seat passed that the receiver still holds (the receiver has not played them)."""
        if self.passed is None or self.pass_to is None or self.pass_to == self.seat:
            return CardSet()
        return CardSet(self.passed.mask & ~self.played.mask)

    def voids(self) -> tuple[int, ...]:
        """For each seat, the mask of suits (as card masks) it has shown it holds none of, by failing to follow."""
        n = self.players
        out = [0] * n
        tricks = list(self.tricks)
        if self.trick.cards:
            tricks.append(self.trick)
        for t in tricks:
            led = t.cards[0] // 13
            for i, c in enumerate(t.cards[1:], start=1):
                if c // 13 != led:
                    out[(t.leader + i) % n] |= SUIT_MASKS[led]
        return tuple(out)

    def taken(self) -> tuple[CardSet, ...]:
        """The cards each seat has taken in tricks this hand."""
        masks = [0] * self.players
        for t in self.tricks:
            assert t.winner is not None
            for c in t.cards:
                masks[t.winner] |= 1 << c
        return tuple(CardSet(m) for m in masks)

    def played_by(self) -> tuple[int, ...]:
        """The mask of the cards each seat has played in this hand so far (public).

        >>> from hearts.core import Game, Rules
        >>> game = Game(Rules.preset("no-passing"), seed=1)
        >>> game.play("2C")  # West holds the 2♣ and leads it
        [CardPlayed(seat=1, card=Card('2C'), trick_number=0)]
        >>> game.view(0).played_by()
        (0, 1, 0, 0)
        """
        masks = [0] * self.players
        for t in (*self.tricks, self.trick):
            for s, c in t.plays(self.players):
                masks[s] |= 1 << c
        return tuple(masks)

    def world(self, hands: Sequence[int]) -> HandState:
        """A full hand state consistent with this view, with ``hands`` (one mask per seat) as the
        hidden cards: a determinization for search. ``hands[self.seat]`` must be this seat's hand."""
        if self.phase is not Phase.PLAY:
            raise IllegalMoveError("a world can only be built from a view in the play phase")
        n = self.players
        if len(hands) != n or hands[self.seat] != self.hand.mask:
            raise IllegalMoveError("the world must give this seat its own hand")
        state = HandState.__new__(HandState)
        played_by = self.played_by()
        state._set_position(
            self.rules, self.hand_number, self.direction, tuple(hands[s] | played_by[s] for s in range(n)),
            list(hands), Phase.PLAY, self.trick.leader, list(self.trick.cards), list(self.tricks),
            self.hearts_broken, [t.mask for t in self.taken()], list(self.points),
        )  # fmt: skip
        return state

    def to_dict(self) -> dict[str, object]:
        """The view as JSON-ready data: what the server sends a seat and what an external bot reads."""
        return {**_public_dict(self), **self.own_dict()}

    def public_dict(self) -> dict[str, object]:
        """The first part of :meth:`to_dict`: the public fields, the same in every seat's view of a
        moment (a server sending every seat its view builds and encodes them once)."""
        return _public_dict(self)

    def own_dict(self) -> dict[str, object]:
        """The rest of :meth:`to_dict`: the seat's own fields (its cards, its pass, its legal moves)."""

        def cs(x: CardSet | None) -> list[str] | None:
            return None if x is None else x.names()

        return {
            "seat": self.seat,
            "hand": self.hand.names(),
            "passed": cs(self.passed),
            "pass_to": self.pass_to,
            "received": cs(self.received),
            "pass_from": self.pass_from,
            "legal": [str(c) for c in self.legal],
            "moon_options": [o.value for o in self.moon_options],
        }

    @classmethod
    def from_dict(cls, data: object) -> SeatView:
        """The view :meth:`to_dict` wrote: its exact inverse, for a bot that reads the protocol's ``view``.

        Malformed data raises :class:`~hearts.core.errors.HeartsError` naming the field.

        >>> from hearts.core import Game, Rules
        >>> view = Game(Rules.preset("omnibus"), seed=4).view(2)
        >>> SeatView.from_dict(view.to_dict()) == view
        True
        """
        if not isinstance(data, Mapping):
            raise HeartsError(f"a seat view is a JSON object, not {type(data).__name__}")
        missing = [name for name in _VIEW_FIELDS if name not in data]
        if missing:
            raise HeartsError(f"a seat view needs {', '.join(repr(m) for m in missing)}")
        rules = Rules.from_dict(data["rules"])
        n = rules.players
        get = _Reader(data, n)
        hand_number = get.number("hand_number", low=1) - 1
        phase = get.enum("phase", Phase)
        return cls(
            rules=rules,
            seat=get.seat("seat"),
            names=get.seq("names", str, length=n),
            hand_number=hand_number,
            phase=phase,
            direction=get.enum("direction", PassDirection),
            hand=get.cards("hand"),
            passed=get.cards("passed", optional=True),
            pass_to=get.seat("pass_to", optional=True),
            received=get.cards("received", optional=True),
            pass_from=get.seat("pass_from", optional=True),
            has_passed=get.seq("has_passed", bool, length=n),
            tricks=tuple(get.trick(t, "tricks") for t in get.seq("tricks", Mapping)),
            trick=get.trick(data["trick"], "trick"),
            to_move=tuple(get.seat("to_move", value=v) for v in get.seq("to_move", int)),
            legal=tuple(get.card(v, "legal") for v in get.seq("legal", str)),
            moon_options=tuple(get.enum("moon_options", MoonOption, value=v) for v in get.seq("moon_options", str)),
            hearts_broken=get.value("hearts_broken", bool),
            points=get.seq("points", int, length=n),
            totals=get.seq("totals", int, length=n),
            hand_sizes=get.seq("hand_sizes", int, length=n),
            scores=None if data["scores"] is None else get.seq("scores", int, length=n),
            shooter=get.seat("shooter", optional=True),
            winners=tuple(get.seat("winners", value=v) for v in get.seq("winners", int)),
        )

    def describe(self) -> str:
        """A short text of the view, for logs and bots' debugging."""
        lines = [
            f"{self.names[self.seat]} (seat {self.seat}), hand {self.hand_number + 1}, {self.phase.value}",
            f"hand: {self.hand}",
            f"trick: {' '.join(str(c) for c in self.trick.cards) or '-'}",
            f"points: {list(self.points)}  totals: {list(self.totals)}",
        ]
        return "\n".join(lines)


def _public_fields(
    hand: HandState, totals: Sequence[int] | None, names: Sequence[str] | None, winners: tuple[int, ...]
) -> dict[str, Any]:
    """The public fields of a view of ``hand``, by name: one computation for the public view and the
    seat view alike."""
    n = hand.players
    return {
        "rules": hand.rules,
        "names": tuple(names) if names is not None else tuple(seat_name(s, n) for s in range(n)),
        "hand_number": hand.number,
        "phase": Phase.GAME_OVER if winners else hand.phase,
        "direction": hand.direction,
        "has_passed": tuple(p is not None for p in hand.passed),
        "tricks": tuple(hand.tricks),
        "trick": Trick(hand.leader, tuple(hand.trick)),
        "to_move": () if winners else hand.to_move,
        "hearts_broken": hand.hearts_broken,
        "points": tuple(hand.points),
        "totals": tuple(totals) if totals is not None else (0,) * n,
        "hand_sizes": tuple(h.bit_count() for h in hand.hands),
        "scores": hand.scores,
        "shooter": hand.shooter if hand.phase in (Phase.HAND_OVER, Phase.MOON_CHOICE) else None,
        "winners": winners,
    }


def _public_dict(view: PublicView | SeatView) -> dict[str, object]:
    """The allow-listed fields of a view as JSON-ready data (the part of every view that is the same
    for all): one writer for the public view and the seat view alike."""
    return {
        "rules": view.rules.to_dict(),
        "names": list(view.names),
        "hand_number": view.hand_number + 1,
        "phase": view.phase.value,
        "direction": view.direction.value,
        "has_passed": list(view.has_passed),
        "tricks": [_trick_dict(t) for t in view.tricks],
        "trick": _trick_dict(view.trick),
        "to_move": list(view.to_move),
        "hearts_broken": view.hearts_broken,
        "points": list(view.points),
        "totals": list(view.totals),
        "hand_sizes": list(view.hand_sizes),
        "scores": None if view.scores is None else list(view.scores),
        "shooter": view.shooter,
        "winners": list(view.winners),
    }


def cards_text(mask: int) -> str:
    return " ".join(str(c) for c in cards_of(mask))


_VIEW_FIELDS = (
    "rules", "seat", "names", "hand_number", "phase", "direction", "hand", "passed", "pass_to", "received",
    "pass_from", "has_passed", "tricks", "trick", "to_move", "legal", "moon_options", "hearts_broken", "points",
    "totals", "hand_sizes", "scores", "shooter", "winners",
)  # fmt: skip
_E = TypeVar("_E", bound=Enum)


class _Reader:
    """Reads :meth:`SeatView.to_dict`'s fields back, each checked, each error naming its field."""

    def __init__(self, data: Mapping[str, Any], players: int) -> None:
        self.data = data
        self.players = players

    def value(self, name: str, kind: type, value: object = None) -> Any:
        value = self.data[name] if value is None else value
        # bool is an int in Python; a view's counts are never true/false and its flags never numbers.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise HeartsError(f"a seat view's {name!r} must hold {kind.__name__} values, not {value!r}"[:200])
        return value

    def number(self, name: str, low: int = 0, value: object = None) -> int:
        number: int = self.value(name, int, value)
        if number < low:
            raise HeartsError(f"a seat view's {name!r} must be at least {low}, not {number}")
        return number

    def seat(self, name: str, optional: bool = False, value: object = None) -> Any:
        raw = self.data[name] if value is None else value
        if raw is None and optional:
            return None
        seat = self.number(name, value=raw)
        if seat >= self.players:
            raise HeartsError(f"a seat view's {name!r} names seat {seat} at a table of {self.players}")
        return seat

    def seq(self, name: str, kind: type, length: int | None = None) -> tuple[Any, ...]:
        items = self.data[name]
        if not isinstance(items, (list, tuple)):
            raise HeartsError(f"a seat view's {name!r} must be a list, not {type(items).__name__}")
        if length is not None and len(items) != length:
            raise HeartsError(f"a seat view's {name!r} must have {length} entries, not {len(items)}")
        return tuple(self.value(name, kind, item) for item in items)

    def enum(self, name: str, kind: type[_E], value: object = None) -> _E:
        raw = self.data[name] if value is None else value
        try:
            return kind(raw)
        except ValueError:
            choices = ", ".join(str(m.value) for m in kind)
            raise HeartsError(f"a seat view's {name!r} must be one of {choices}, not {raw!r}"[:200]) from None

    def card(self, text: object, name: str) -> Card:
        if not isinstance(text, str):
            raise HeartsError(f"a seat view's {name!r} must hold cards as text, not {text!r}"[:200])
        return Card.parse(text)

    def cards(self, name: str, optional: bool = False) -> Any:
        raw = self.data[name]
        if raw is None and optional:
            return None
        return CardSet(self.card(c, name) for c in self.seq(name, str))

    def trick(self, raw: object, name: str) -> Trick:
        if not isinstance(raw, Mapping) or set(raw) != {"leader", "cards", "winner"}:
            raise HeartsError(f"a seat view's {name!r} holds tricks as {{leader, cards, winner}}, not {raw!r}"[:200])
        winner = raw["winner"]
        return Trick(
            self.seat(name, value=raw["leader"]),
            tuple(self.card(c, name) for c in self.value(name, list, raw["cards"])),
            None if winner is None else self.seat(name, value=winner),
        )

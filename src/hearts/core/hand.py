"""The state machine of one hand: deal, pass, play every trick, score (and the moon choice).

:class:`HandState` is a few ints and lists with an explicit, cheap :meth:`HandState.copy`,
because search copies it constantly. Every action has a check that raises
(``check_play``), a predicate (``is_legal_play``) and the action itself
(``play``), which returns the events it caused. ``advance`` is the hot path
underneath ``play``: the one place a card's effects are applied.

>>> from hearts.core.rules import Rules
>>> import random
>>> hand = HandState.deal(Rules.preset("pass-left"), random.Random(7))
>>> hand.phase, hand.direction.value
(<Phase.PASS: 'pass'>, 'left')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import Enum
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from hearts.core.arith import (
    CHOICE_ADD_TO_OTHERS,
    R_BREAKERS,
    R_PENALTY,
    hand_scores,
    legal_of,
    moon_adds,
    moon_shooter,
    penalty_points,
    rules_row,
    winning_card,
)
from hearts.core.cards import CARDS, HEARTS, QS_BIT, SUIT_MASKS, Card, CardSet, Suit, cards_of
from hearts.core.errors import CardParseError, IllegalMoveError, OutOfTurnError
from hearts.core.events import (
    CardPlayed,
    CardsPassed,
    CardsReceived,
    Event,
    HeartsBroken,
    MoonChosen,
    MoonShot,
    TrickWon,
)
from hearts.core.rules import MoonOption, MoonScoring, OpeningLead, PassDirection, Rules

if TYPE_CHECKING:
    from hearts.core.moves import Move

#: The hand's fields that hold a value shared by copies (ints, tuples, the rules, enums).
_VALUE_FIELDS = (
    "rules", "players", "number", "direction", "dealt", "phase", "leader", "turn", "hearts_broken", "scores",
    "shooter", "moon_option", "claim", "_row",
)  # fmt: skip
#: The hand's fields that hold a list, which each copy gets its own of (their items are immutable).
_LIST_FIELDS = ("hands", "passed", "trick", "tricks", "taken", "points")


class Phase(Enum):
    PASS = "pass"  #: seats are choosing the cards to pass (simultaneously)
    PLAY = "play"  #: one seat at a time plays a card
    MOON_CHOICE = "moon-choice"  #: the shooter chooses how its moon is scored
    HAND_OVER = "hand-over"  #: the hand is scored
    GAME_OVER = "game-over"  #: (games only) a total reached the target and the winners are known


# An enum member read through its class (Phase.PLAY) costs ~0.1 us, as much as the rest of
# legal_mask(); the hot path reads these module constants instead.
_PLAY = Phase.PLAY
_HAND_OVER = Phase.HAND_OVER


class Trick(NamedTuple):
    """A trick: who led, the cards in playing order, and who won it (``None`` while in progress)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None = None

    def seat_of(self, index: int, players: int) -> int:
        """The seat that played ``cards[index]``."""
        return (self.leader + index) % players

    def plays(self, players: int) -> list[tuple[int, Card]]:
        """``(seat, card)`` in playing order."""
        return [((self.leader + i) % players, c) for i, c in enumerate(self.cards)]


SEAT_NAMES_4 = ("South", "West", "North", "East")

_new_tuple = tuple.__new__
_BITS = tuple(1 << c for c in range(52))
#: CardPlayed events by ``trick_number << 9 | card << 3 | seat``, built on first use (see HandState.play).
_CARD_PLAYED: dict[int, CardPlayed] = {}


def seat_name(seat: int, players: int = 4) -> str:
    """A seat's name: the compass for four players (South, then clockwise), else 'Seat N'.

    >>> seat_name(1), seat_name(2, 5)
    ('West', 'Seat 3')
    """
    return SEAT_NAMES_4[seat] if players == 4 else f"Seat {seat + 1}"


def deal_cards(rules: Rules, rng: random.Random) -> tuple[int, ...]:
    """Shuffle the cards in play and deal them one at a time, seat 0 first: one mask per seat."""
    deck = cards_of(rules.in_play)
    rng.shuffle(deck)
    return deal_deck(rules, deck)


def deal_deck(rules: Rules, deck: Sequence[Card]) -> tuple[int, ...]:
    """Deal a shuffled ``deck`` one card at a time, seat 0 first: one mask per seat."""
    n = rules.players
    # Seat s gets every n-th card from the s-th; the sum of distinct bits is their union
    # (twice as fast as or-ing card by card).
    return tuple(sum(map(_BITS.__getitem__, deck[s::n])) for s in range(n))


def _as_card(card: object) -> Card:
    if type(card) is Card:
        return card
    if isinstance(card, str):
        return Card.parse(card)
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
        return CARDS[card]
    raise CardParseError(f"not a card: {card!r}")


class HandState:
    """One hand of Hearts, from the deal to the score."""

    # The one list of the hand's fields: __slots__, _set_position (which __init__ and
    # SeatView.world use) and copy (compiled from it below) all follow it.
    __slots__ = _VALUE_FIELDS + _LIST_FIELDS

    rules: Rules
    players: int
    number: int
    direction: PassDirection
    dealt: tuple[int, ...]
    hands: list[int]
    passed: list[int | None]
    phase: Phase
    leader: int
    turn: int
    trick: list[Card]
    tricks: list[Trick]
    hearts_broken: bool
    taken: list[int]
    points: list[int]
    scores: tuple[int, ...] | None
    shooter: int | None
    moon_option: MoonOption | None
    #: ``(seat, cards played before the claim)`` once a seat has claimed the rest (hearts.core.claim)
    claim: tuple[int, int] | None
    _row: tuple[int, ...]  #: the rules as hearts.core.arith reads them

    def __init__(self, rules: Rules, dealt: Sequence[int], number: int = 0) -> None:
        """Start a hand from explicit dealt masks (one per seat); see :meth:`deal` for a shuffled one."""
        n = rules.players
        if len(dealt) != n:
            raise IllegalMoveError(f"a deal for {n} players needs {n} hands, not {len(dealt)}")
        union = 0
        for seat, mask in enumerate(dealt):
            if not isinstance(mask, int) or isinstance(mask, bool) or not 0 <= mask < 1 << 52:
                raise IllegalMoveError(f"{seat_name(seat, n)} is dealt {mask!r}: a deal is one 52-bit card mask per seat")
            if mask.bit_count() != rules.hand_size:
                raise IllegalMoveError(
                    f"{seat_name(seat, n)} is dealt {mask.bit_count()} cards; the rules deal {rules.hand_size}"
                )
            if union & mask:
                raise IllegalMoveError(f"card(s) {CardSet(union & mask).symbols()} dealt twice")
            union |= mask
        if union != rules.in_play:
            raise IllegalMoveError(
                f"the deal does not hold exactly the cards in play (off: {CardSet(union ^ rules.in_play).symbols()})"
            )
        direction = rules.pass_direction(number)
        self._set_position(
            rules, number, direction, tuple(dealt), list(dealt), Phase.PASS, 0, [], [],
            not rules.hearts_must_be_broken, [0] * n, [0] * n,
        )  # fmt: skip
        if direction is PassDirection.HOLD:
            self._start_play()

    def _set_position(
        self,
        rules: Rules,
        number: int,
        direction: PassDirection,
        dealt: tuple[int, ...],
        hands: list[int],
        phase: Phase,
        leader: int,
        trick: list[Card],
        tricks: list[Trick],
        hearts_broken: bool,
        taken: list[int],
        points: list[int],
    ) -> None:
        """Set every field (unchecked) for a position before any pass is made or the hand is scored:
        the hand just dealt, or a position in its play phase (:meth:`SeatView.world`)."""
        n = rules.players
        self.rules = rules
        self.players = n
        self.number = number
        self.direction = direction
        self.dealt = dealt
        self.hands = hands
        self.passed = [None] * n
        self.phase = phase
        self.leader = leader
        self.turn = (leader + len(trick)) % n
        self.trick = trick
        self.tricks = tricks
        self.hearts_broken = hearts_broken
        self.taken = taken
        self.points = points
        self.scores = None
        self.shooter = None
        self.moon_option = None
        self.claim = None
        self._row = rules_row(rules)

    @classmethod
    def deal(cls, rules: Rules, rng: random.Random, number: int = 0) -> HandState:
        return cls(rules, deal_cards(rules, rng), number)

    def copy(self) -> HandState:  # replaced below by _compile_copy, from the one field list
        """A cheap, independent copy (lists copied; cards and tricks are immutable)."""
        raise NotImplementedError

    # -- whose decision ---------------------------------------------------------

    @property
    def trick_number(self) -> int:
        """0-based number of the trick in progress (or of the next one)."""
        return len(self.tricks)

    @property
    def to_move(self) -> tuple[int, ...]:
        """The seats that owe a decision now: every seat yet to pass, the seat to play, or the shooter."""
        phase = self.phase
        if phase is Phase.PLAY:
            return (self.turn,)
        if phase is Phase.PASS:
            return tuple(s for s in range(self.players) if self.passed[s] is None)
        if phase is Phase.MOON_CHOICE:
            assert self.shooter is not None
            return (self.shooter,)
        return ()

    def pass_target(self, seat: int) -> int:
        """The seat that receives ``seat``'s pass (``seat`` itself on a hold hand)."""
        return (seat + self.direction.offset(self.players)) % self.players

    def pass_source(self, seat: int) -> int:
        """The seat whose pass ``seat`` receives."""
        return (seat - self.direction.offset(self.players)) % self.players

    def _name(self, seat: int) -> str:
        return seat_name(seat, self.players)

    # -- passing ----------------------------------------------------------------

    def check_pass(self, seat: int, cards: Iterable[object] | CardSet) -> int:
        """Raise unless ``seat`` may pass ``cards`` now; return their mask."""
        n = self.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise OutOfTurnError(f"no seat {seat!r} at a table of {n}", rule="turn")
        who = self._name(seat)
        if self.phase is not Phase.PASS:
            raise OutOfTurnError(
                f"{who} cannot pass now: the hand is in the {self.phase.value} phase", seat=seat, rule="phase"
            )
        if self.passed[seat] is not None:
            given = CardSet(self.passed[seat] or 0)
            raise OutOfTurnError(f"{who} has already passed {given.symbols()}", seat=seat, cards=given, rule="turn")
        if isinstance(cards, CardSet):
            mask = cards.mask
        else:
            mask = 0
            for c in cards:
                card = _as_card(c)
                if mask >> card & 1:
                    self._refuse_pass(seat, CardSet(mask | 1 << card), f"{card.symbol()} is given twice", "pass-repeat")
                mask |= 1 << card
        count = self.rules.pass_count
        if mask.bit_count() != count:
            self._refuse_pass(seat, CardSet(mask), f"pass exactly {count} cards, not {mask.bit_count()}", "pass-count")
        missing = mask & ~self.hands[seat]
        if missing:
            self._refuse_pass(seat, CardSet(missing), f"{who} does not hold {CardSet(missing).symbols()}", "not-held")
        return mask

    def _refuse_pass(self, seat: int, cards: CardSet, reason: str, rule: str) -> NoReturn:
        raise IllegalMoveError(
            f"illegal pass by {self._name(seat)}: {reason}", cards=cards, seat=seat, rule=rule, reason=reason
        )

    def is_legal_pass(self, seat: int, cards: Iterable[object] | CardSet) -> bool:
        try:
            self.check_pass(seat, cards)
        except ValueError:
            return False
        return True

    def legal_passes(self, seat: int) -> list[CardSet]:
        """Every legal pass for ``seat`` (all combinations of ``pass_count`` cards), or [] if none is due."""
        if self.phase is not Phase.PASS or seat not in range(self.players) or self.passed[seat] is not None:
            return []
        return [CardSet(sum(1 << c for c in combo)) for combo in combinations(cards_of(self.hands[seat]), self.rules.pass_count)]

    def pass_cards(self, seat: int, cards: Iterable[object] | CardSet) -> list[Event]:
        """Record ``seat``'s pass; when the last seat passes, exchange and start play."""
        mask = self.check_pass(seat, cards)
        self.passed[seat] = mask
        events: list[Event] = [CardsPassed(seat, self.pass_target(seat), CardSet(mask))]
        if all(p is not None for p in self.passed):
            self._exchange()
            for s in range(self.players):
                src = self.pass_source(s)
                events.append(CardsReceived(s, src, CardSet(self.passed[src] or 0)))
        return events

    def _exchange(self) -> None:
        n = self.players
        passed = self.passed
        hands = self.hands
        for s in range(n):
            hands[s] &= ~(passed[s] or 0)
        for s in range(n):
            hands[self.pass_target(s)] |= passed[s] or 0
        self._start_play()

    def _start_play(self) -> None:
        opening = self.rules.opening_card
        for s in range(self.players):
            if self.hands[s] >> opening & 1:
                self.leader = self.turn = s
        self.phase = Phase.PLAY

    # -- playing ----------------------------------------------------------------

    def legal_mask(self) -> int:
        """The mask of the cards the seat to play may play (0 outside the play phase): the rule is
        :func:`hearts.core.arith.legal_of`, which the compiled kernels run too."""
        if self.phase is not _PLAY:
            return 0
        hand = self.hands[self.turn]
        trick = self.trick
        if trick:
            # legal_of's first case, answered here without the call: most plays follow suit, and
            # the call costs half of legal_mask (fast.verify.verify_legal_fuzz holds the two equal).
            follow = hand & SUIT_MASKS[trick[0] // 13]
            if follow:
                return follow
            return legal_of(hand, 1, trick[0] // 13, len(self.tricks), 0, self._row)
        return legal_of(hand, 0, 0, len(self.tricks), self.hearts_broken, self._row)

    def legal_plays(self) -> list[Card]:
        """The cards the seat to play may play, sorted ([] outside the play phase)."""
        return cards_of(self.legal_mask())

    def why_illegal(self, card: object, seat: int | None = None) -> str | None:
        """Why ``card`` may not be played now by ``seat`` (default: the seat to play), or None if it may."""
        try:
            self.check_play(card, seat)
        except ValueError as exc:
            return str(exc)
        return None

    def check_play(self, card: object, seat: int | None = None) -> Card:
        """Raise unless ``card`` may be played now (by ``seat``, if given); return it as a :class:`Card`."""
        c = _as_card(card)
        if self.phase is not Phase.PLAY:
            who = "" if seat is None else f" by {self._name(seat)}"
            raise OutOfTurnError(
                f"cannot play {c.symbol()}{who}: the hand is in the {self.phase.value} phase",
                card=c,
                seat=seat,
                rule="phase",
            )
        turn = self.turn
        if seat is not None and seat != turn:
            if not isinstance(seat, int) or not 0 <= seat < self.players:
                raise OutOfTurnError(f"no seat {seat!r} at a table of {self.players}", card=c, rule="turn")
            raise OutOfTurnError(
                f"cannot play {c.symbol()}: it is {self._name(turn)}'s turn, not {self._name(seat)}'s",
                card=c,
                seat=seat,
                rule="turn",
            )
        if self.legal_mask() >> c & 1:
            return c
        rule, reason = self._rule_broken(c)
        raise IllegalMoveError(
            f"illegal play {c.symbol()} by {self._name(turn)}: {reason}", card=c, seat=turn, rule=rule, reason=reason
        )

    def _rule_broken(self, c: Card) -> tuple[str, str]:
        """The rule ``c`` breaks (a code of :data:`hearts.core.errors.RULES`) and the words for it."""
        hand = self.hands[self.turn]
        who = self._name(self.turn)
        rules = self.rules
        if not hand >> c & 1:
            return "not-held", f"{who} does not hold {c.symbol()}"
        if self.trick:
            led = Suit(self.trick[0] // 13)
            if hand & led.mask:
                return "follow-suit", f"must follow {led}"
            return "first-trick", "no heart or Q♠ on the first trick while holding a card that is neither (first-trick rule)"
        if not self.tricks:
            if rules.opening is OpeningLead.LOWEST_CLUB:
                return "opening-lead", f"the first trick must be opened with {rules.opening_card.symbol()}"
            return "opening-lead", "the first trick must be opened with a club"
        if (hand & ~HEARTS) == QS_BIT:
            return "hearts-not-broken", "cannot lead a heart while holding Q♠: hearts are not broken"
        return "hearts-not-broken", "cannot lead a heart: hearts are not broken"

    def is_legal_play(self, card: object, seat: int | None = None) -> bool:
        try:
            self.check_play(card, seat)
        except ValueError:
            return False
        return True

    def play(self, card: object, seat: int | None = None) -> list[Event]:
        """Play ``card`` for the seat to play (checked against ``seat`` if given); return the events."""
        turn = self.turn
        # Fast path for the usual call (a Card from legal_plays(), by the seat to play): one
        # legal_mask() test is all check_play would conclude (legal_mask() is 0 outside the play
        # phase). Anything else goes through check_play, which converts the card or raises.
        if type(card) is Card and (seat is None or seat == turn) and self.legal_mask() >> card & 1:
            c = card
        else:
            c = self.check_play(card, seat)
        number = len(self.tricks)
        was_broken = self.hearts_broken
        # A frozen dataclass costs ~0.8 us to build, a third of a play; CardPlayed events are
        # immutable values and only seats x cards x tricks of them exist, so each is built once
        # and shared.
        key = (number << 9) | (c << 3) | turn
        played = _CARD_PLAYED.get(key)
        if played is None:
            played = _CARD_PLAYED[key] = CardPlayed(turn, c, number)
        events: list[Event] = [played]
        winner = self.advance(c)
        if self.hearts_broken and not was_broken:
            events.append(HeartsBroken(turn, c))
        if winner >= 0:
            done = self.tricks[-1]
            mask = 0
            for x in done.cards:
                mask |= 1 << x
            events.append(TrickWon(winner, number, done.leader, done.cards, self.rules.points_taken(mask)))
            if self.shooter is not None:
                events.append(MoonShot(self.shooter, self.phase is Phase.MOON_CHOICE))
        return events

    def advance(self, card: Card) -> int:
        """Apply a card known to be legal (no checks, no events): the hot path for search.

        Returns the seat that won the trick this card completed, or -1.
        """
        seat = self.turn
        bit = 1 << card
        self.hands[seat] ^= bit
        row = self._row
        if bit & row[R_BREAKERS]:
            self.hearts_broken = True
        trick = self.trick
        trick.append(card)
        n = self.players
        if len(trick) < n:
            self.turn = seat + 1 if seat + 1 < n else 0
            return -1
        mask = 0
        for x in trick:
            mask |= 1 << x
        winner = self.leader + trick.index(CARDS[winning_card(mask, trick[0] // 13)])
        if winner >= n:
            winner -= n
        self.taken[winner] |= mask
        if mask & row[R_PENALTY]:
            self.points[winner] += penalty_points(mask, row)
        # tuple.__new__ skips the Python-level __new__ a NamedTuple adds (same value, a third the cost).
        self.tricks.append(_new_tuple(Trick, (self.leader, tuple(trick), winner)))
        self.trick = []
        self.leader = self.turn = winner
        if len(self.tricks) == self.rules.hand_size:
            self._score()
        return winner

    # -- scoring ----------------------------------------------------------------

    def _score(self) -> None:
        shooter = moon_shooter(self.taken, 0, self.players, self._row)
        if shooter < 0:
            self._finish(-1, True)
            return
        self.shooter = shooter
        if self.rules.moon is MoonScoring.SHOOTER_CHOOSES:
            self.phase = Phase.MOON_CHOICE
        else:
            self._finish(shooter, moon_adds(self._row, CHOICE_ADD_TO_OTHERS))

    def _finish(self, shooter: int, add: bool) -> None:
        scores = [0] * self.players
        hand_scores(self.points, 0, self.taken, 0, self.players, self._row, shooter, add, scores)
        self.scores = tuple(scores)
        self.phase = Phase.HAND_OVER

    def check_moon_choice(self, seat: int, option: object) -> MoonOption:
        """Raise unless ``seat`` may make the moon choice ``option`` now; return it."""
        if self.phase is not Phase.MOON_CHOICE:
            raise OutOfTurnError(
                f"no moon choice is due: the hand is in the {self.phase.value} phase", seat=seat, rule="phase"
            )
        if seat != self.shooter:
            assert self.shooter is not None
            raise OutOfTurnError(
                f"only the shooter, {self._name(self.shooter)}, chooses how the moon scores", seat=seat, rule="turn"
            )
        try:
            return option if isinstance(option, MoonOption) else MoonOption(option)
        except ValueError:
            choices = ", ".join(m.value for m in MoonOption)
            raise IllegalMoveError(f"not a moon choice: {option!r} (choose {choices})") from None

    def choose_moon(self, seat: int, option: object) -> list[Event]:
        choice = self.check_moon_choice(seat, option)
        self.moon_option = choice
        assert self.shooter is not None
        self._finish(self.shooter, choice is MoonOption.ADD_TO_OTHERS)
        return [MoonChosen(seat, choice)]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.HAND_OVER

    def __repr__(self) -> str:
        return (
            f"<HandState #{self.number} {self.phase.value} turn={self.turn} "
            f"tricks={len(self.tricks)} trick={[str(c) for c in self.trick]}>"
        )

    def apply(self, move: Move) -> list[Event]:
        """Apply any move to this lone hand, as :meth:`Game.apply <hearts.core.game.Game.apply>` does to a
        game, and return its events; an illegal move raises and changes nothing.

        >>> from hearts.core.moves import PlayCard
        >>> from hearts.core.rules import Rules
        >>> hand = HandState.deal(Rules.preset("no-passing"), random.Random(7))
        >>> [type(e).__name__ for e in hand.apply(PlayCard(hand.turn, Card.parse("2C")))]
        ['CardPlayed']
        >>> hand.apply(PlayCard(hand.turn, Card.parse("2C")))
        Traceback (most recent call last):
        ...
        hearts.core.errors.IllegalMoveError: illegal play 2♣ by ...
        """
        from hearts.core.moves import ChooseMoon, ClaimRest, PassCards, PlayCard

        if isinstance(move, PlayCard):
            return self.play(move.card, move.seat)
        if isinstance(move, PassCards):
            return self.pass_cards(move.seat, move.cards)
        if isinstance(move, ChooseMoon):
            return self.choose_moon(move.seat, move.option)
        if isinstance(move, ClaimRest):
            from hearts.core.claim import play_claim

            return play_claim(self, move.seat)
        raise IllegalMoveError(f"not a move: {move!r}")

def _compile_copy() -> None:
    """Give :class:`HandState` its ``copy``, written out from the one field list (as dataclasses
    write their methods): one assignment a field, as fast as a hand-written copy and never
    missing a field added to the list."""
    lines = ["def copy(self):", "    new = _new(HandState)"]
    lines += [f"    new.{f} = self.{f}" for f in _VALUE_FIELDS]
    lines += [f"    new.{f} = self.{f}[:]" for f in _LIST_FIELDS]
    lines.append("    return new")
    space: dict[str, Any] = {"_new": HandState.__new__, "HandState": HandState}
    exec("\n".join(lines), space)  # noqa: S102 - the source is built from the constant field lists above
    copy = space["copy"]
    copy.__doc__ = HandState.copy.__doc__
    copy.__qualname__ = "HandState.copy"
    HandState.copy = copy  # type: ignore[method-assign]


_compile_copy()

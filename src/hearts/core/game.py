"""A game: hands in sequence with the pass cycle, running totals, the end and the winners.

>>> from hearts.core.rules import Rules
>>> game = Game(Rules.preset("no-passing"), seed=3)
>>> game.phase.value, game.to_move == (game.hand.turn,)
('play', True)
>>> events = game.play(game.legal_plays()[0])
>>> type(events[0]).__name__
'CardPlayed'
"""

from __future__ import annotations

import hmac
import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from hearts.core.arith import game_winners, rules_row
from hearts.core.cards import Card, CardSet, cards_of
from hearts.core.errors import HeartsError, IllegalMoveError, OutOfTurnError, SetupError
from hearts.core.events import Event, GameOver, HandScored, HandStarted
from hearts.core.hand import _HAND_OVER, HandState, Phase, deal_cards, deal_deck, seat_name
from hearts.core.moves import ChooseMoon, ClaimRest, Move, PassCards, PlayCard
from hearts.core.rules import MoonOption, Rules
from hearts.core.summary import HandSummary
from hearts.core.view import PublicView, SeatView

DealSource = Callable[[int], Sequence[int]]


def seeded_deal(rules: Rules, seed: int, hand_number: int) -> tuple[int, ...]:
    """The deal of hand ``hand_number`` in a game seeded with ``seed``: the same on every machine."""
    return deal_cards(rules, random.Random(f"hearts:{seed}:{hand_number}"))


#: The least length of a deal key: 128 bits, beyond any search.
KEY_BYTES = 16


def keyed_deal(rules: Rules, key: bytes, hand_number: int) -> tuple[int, ...]:
    """The deal of hand ``hand_number`` at a table whose deals come from the secret ``key``.

    A Fisher-Yates shuffle driven by HMAC-SHA256(key, hand number, block): without the key no
    deal can be computed, and one hand's cards tell nothing of another's (each hand is its own
    HMAC input). Unlike :func:`seeded_deal` it does not rest on :mod:`random`, so a stored table
    deals the same on any Python version. Draws are unbiased (rejection sampling).

    >>> from hearts.core.rules import Rules
    >>> deal = keyed_deal(Rules(), bytes(16), 0)
    >>> deal == keyed_deal(Rules(), bytes(16), 0), deal != keyed_deal(Rules(), bytes(16), 1)
    (True, True)
    >>> sorted(bin(m).count("1") for m in deal)
    [13, 13, 13, 13]
    """
    if not isinstance(key, bytes) or len(key) < KEY_BYTES:
        raise SetupError(f"a deal key is at least {KEY_BYTES} bytes")
    deck = cards_of(rules.in_play)
    draw = _KeyedDraws(key, hand_number)
    for i in range(len(deck) - 1, 0, -1):
        j = draw.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deal_deck(rules, deck)


class _KeyedDraws:
    """Uniform whole numbers from HMAC-SHA256(key, "hearts-deal:HAND:BLOCK"), a 32-bit word at a time."""

    __slots__ = ("key", "hand", "block", "words")

    def __init__(self, key: bytes, hand_number: int) -> None:
        self.key, self.hand, self.block = key, hand_number, 0
        self.words: list[int] = []

    def _word(self) -> int:
        if not self.words:
            digest = hmac.digest(self.key, f"hearts-deal:{self.hand}:{self.block}".encode(), "sha256")
            self.block += 1
            self.words = [int.from_bytes(digest[i : i + 4], "big") for i in range(28, -4, -4)]
        return self.words.pop()

    def below(self, n: int) -> int:
        # Reject the top sliver of words that would make small results likelier than large ones.
        limit = 2**32 - 2**32 % n
        while True:
            word = self._word()
            if word < limit:
                return word % n


class Game:
    """A whole game of Hearts to the target score.

    Deals come from ``deals`` (a mapping or function from hand number to one mask per
    seat: duplicate play and replays use it) and otherwise from ``key`` (a secret: see
    :func:`keyed_deal`; the served tables deal this way) or, without a key, from ``seed``.
    A keyed game's :attr:`seed` deals nothing, and its record holds no seed.
    """

    __slots__ = ("rules", "seed", "key", "names", "_deals", "hand", "finished", "totals", "winners", "_summaries")

    rules: Rules
    seed: int
    key: bytes | None
    names: tuple[str, ...]
    hand: HandState
    finished: list[HandState]
    totals: list[int]
    winners: tuple[int, ...]
    _summaries: list[HandSummary]  #: the summaries of finished hands made so far, in order

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        deals: Mapping[int, Sequence[int]] | DealSource | None = None,
        names: Sequence[str] | None = None,
        key: bytes | None = None,
    ) -> None:
        self.rules = rules = rules or Rules()
        if key is not None and (not isinstance(key, bytes) or len(key) < KEY_BYTES):
            raise SetupError(f"a deal key is at least {KEY_BYTES} bytes")
        self.key = key
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            # The seed goes into records, which hold a whole number: refuse anything else here.
            raise SetupError(f"a game's seed is a whole number, not {seed!r}")
        self.seed = random.randrange(2**32) if seed is None else seed
        n = rules.players
        self.names = tuple(names) if names is not None else tuple(seat_name(s, n) for s in range(n))
        if len(self.names) != n:
            raise SetupError(f"{len(self.names)} names for {n} seats")
        if not all(isinstance(name, str) for name in self.names):
            raise SetupError(f"seat names must be strings, not {list(self.names)!r}")
        if deals is not None and not callable(deals):
            # Check every given deal now: a bad one found only when its hand comes up would
            # surface in the middle of the play of the hand before it.
            for number, deal in deals.items():
                try:
                    HandState(rules, deal, number)
                except HeartsError as exc:
                    raise SetupError(f"hand {number + 1}: {exc}") from None
        self._deals = deals
        self.finished = []
        self.totals = [0] * n
        self.winners = ()
        self._summaries = []
        self.hand = self._new_hand(0)

    def _new_hand(self, number: int) -> HandState:
        deal = self._deal(number)
        try:
            return HandState(self.rules, deal, number)
        except HeartsError as exc:
            # A deal function that deals wrong cards is the game's set-up at fault, not a move.
            raise SetupError(f"hand {number + 1}: {exc}") from None

    def _deal(self, number: int) -> Sequence[int]:
        deals = self._deals
        if callable(deals):
            return deals(number)
        if deals is not None and number in deals:
            return deals[number]
        if self.key is not None:
            return keyed_deal(self.rules, self.key, number)
        return seeded_deal(self.rules, self.seed, number)

    def copy(self) -> Game:
        new = Game.__new__(Game)
        new.rules = self.rules
        new.seed = self.seed
        new.key = self.key
        new.names = self.names
        new._deals = self._deals
        new.hand = self.hand.copy()
        new.finished = self.finished[:]
        new.totals = self.totals[:]
        new.winners = self.winners
        new._summaries = self._summaries[:]
        return new

    # -- state --------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return Phase.GAME_OVER if self.winners else self.hand.phase

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def hand_number(self) -> int:
        return self.hand.number

    @property
    def to_move(self) -> tuple[int, ...]:
        return () if self.winners else self.hand.to_move

    def totals_before(self, number: int) -> tuple[int, ...]:
        """Each seat's running total when hand ``number`` (0-based) began, that is after the hands
        before it (``totals_before(len(game.finished))`` is the totals now): the one place a running
        total is added up, for the record, the summaries and every face."""
        if not 0 <= number <= len(self.finished):
            raise IndexError(f"hand {number + 1} has not begun ({len(self.finished)} hands are finished)")
        totals = [0] * self.rules.players
        for hand in self.finished[:number]:
            assert hand.scores is not None  # finished hands are scored
            totals = [a + b for a, b in zip(totals, hand.scores, strict=True)]
        return tuple(totals)

    def summary(self, number: int | None = None) -> HandSummary:
        """Hand ``number`` (0-based; default the hand being played, or the last one once the game is
        over) told again: deal, passes, tricks with winners and points, scores, totals after it."""
        current = self.hand.number  # once the game is over, the last finished hand
        number = current if number is None else number
        if not 0 <= number <= current:
            raise IndexError(f"there is no hand {number + 1} yet ({current + 1} dealt)")
        if number >= len(self.finished):
            return HandSummary.of(self.hand)
        # A finished hand never changes: its summary is made once, in order, and kept.
        while len(self._summaries) <= number:
            done = len(self._summaries)
            self._summaries.append(HandSummary.of(self.finished[done], self.totals_before(done + 1)))
        return self._summaries[number]

    def summaries(self) -> list[HandSummary]:
        """Every hand's summary: the finished ones, then the one in progress (if the game is not over)."""
        return [self.summary(i) for i in range(self.hand.number + 1)]

    def legal_plays(self) -> list[Card]:
        return [] if self.winners else self.hand.legal_plays()

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """Every legal move of ``seat`` (default: the first seat to move): plays, passes or moon choices."""
        if self.winners:
            return []
        hand = self.hand
        if seat is None:
            if not hand.to_move:
                return []
            seat = hand.to_move[0]
        if hand.phase is Phase.PLAY:
            return [PlayCard(seat, c) for c in hand.legal_plays()] if seat == hand.turn else []
        if hand.phase is Phase.PASS:
            return [PassCards(seat, cs) for cs in hand.legal_passes(seat)]
        if hand.phase is Phase.MOON_CHOICE and seat == hand.shooter:
            return [ChooseMoon(seat, o) for o in MoonOption]
        return []

    # -- actions ----------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.winners:
            raise OutOfTurnError("the game is over", rule="phase")

    def check(self, move: Move) -> None:
        """Raise unless ``move`` is legal now."""
        self._check_open()
        if isinstance(move, PlayCard):
            self.hand.check_play(move.card, move.seat)
        elif isinstance(move, PassCards):
            self.hand.check_pass(move.seat, move.cards)
        elif isinstance(move, ChooseMoon):
            self.hand.check_moon_choice(move.seat, move.option)
        elif isinstance(move, ClaimRest):
            from hearts.core.claim import check_claim

            check_claim(self.hand, move.seat)
        else:
            raise IllegalMoveError(f"not a move: {move!r}")

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except ValueError:
            return False
        return True

    def apply(self, move: Move) -> list[Event]:
        """Apply any move; an illegal one raises and changes nothing."""
        if isinstance(move, PlayCard):
            return self.play(move.card, move.seat)
        if isinstance(move, PassCards):
            return self.pass_cards(move.seat, move.cards)
        if isinstance(move, ChooseMoon):
            return self.choose_moon(move.seat, move.option)
        if isinstance(move, ClaimRest):
            from hearts.core.claim import play_claim

            self._check_open()
            return play_claim(self, move.seat)
        raise IllegalMoveError(f"not a move: {move!r}")

    def play(self, card: object, seat: int | None = None) -> list[Event]:
        if self.winners:
            self._check_open()  # raises: the game is over
        hand = self.hand
        events = hand.play(card, seat)
        if hand.phase is _HAND_OVER:  # a module constant: read faster than the enum's attribute on this hot path
            events.extend(self._end_hand())
        return events

    def pass_cards(self, seat: int, cards: Iterable[object] | CardSet) -> list[Event]:
        self._check_open()
        return self.hand.pass_cards(seat, cards)

    def choose_moon(self, seat: int, option: MoonOption | str) -> list[Event]:
        self._check_open()
        events = self.hand.choose_moon(seat, option)
        events.extend(self._end_hand())
        return events

    def _end_hand(self) -> list[Event]:
        hand = self.hand
        assert hand.scores is not None
        for s, p in enumerate(hand.scores):
            self.totals[s] += p
        self.finished.append(hand)
        events: list[Event] = [HandScored(hand.number, hand.scores, tuple(self.totals), hand.shooter)]
        winners = game_winners(rules_row(self.rules), self.totals)  # the rule of the game's end, written once
        if winners:
            self.winners = tuple(s for s in range(self.rules.players) if winners >> s & 1)
            events.append(GameOver(tuple(self.totals), self.winners))
            return events
        self.hand = self._new_hand(hand.number + 1)
        events.append(HandStarted(self.hand.number, self.hand.direction))
        return events

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see of the game, and nothing else."""
        return SeatView.of(self, seat)

    def public_view(self) -> PublicView:
        """What anyone may see of the game, a spectator included (no card of any hand)."""
        return PublicView.of(self)

    def __repr__(self) -> str:
        return f"<Game hand={self.hand.number} {self.phase.value} totals={self.totals}>"


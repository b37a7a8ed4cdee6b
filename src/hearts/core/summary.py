"""The summary of a hand: every deal, pass, trick, winner and score, told again through the engine.

One summary of a hand serves every face: the record (:class:`~hearts.core.record.HandRecord`
is built from it), the terminal's end-of-hand screen, record viewer and ``hearts replay``
account, and the server's end-of-hand page. :meth:`HandSummary.of` plays the hand's passes and
cards again on a fresh hand dealt the same cards, so the points of each trick (J♦ included:
``Rules.points_taken``), the moment hearts broke and the moon come from the engine's own events
rather than from a second copy of the rules. :class:`~hearts.core.game.Game` keeps the totals
(:meth:`~hearts.core.game.Game.totals_before`) and the summaries of its finished hands.

>>> from hearts.core.game import Game
>>> from hearts.core.rules import Rules
>>> game = Game(Rules.preset("omnibus"), seed=7)
>>> while not game.finished:
...     _ = game.apply(game.legal_moves()[0])
>>> summary = game.summary(0)
>>> summary.finished, len(summary.tricks), summary.tricks[0].plays[0]
(True, 13, (3, Card('2C')))
>>> sum(summary.scores) == sum(summary.taken), summary.totals == tuple(game.totals)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.core.cards import Card, CardSet
from hearts.core.events import HeartsBroken, TrickWon
from hearts.core.hand import HandState, Phase
from hearts.core.rules import MoonOption, MoonScoring, PassDirection, Rules


@dataclass(frozen=True, slots=True)
class TrickSummary:
    """One trick: who led, each seat's card in playing order, who won it and what it scored."""

    number: int  #: 0-based
    leader: int
    plays: tuple[tuple[int, Card], ...]  #: (seat, card) in playing order
    winner: int | None  #: None while the trick is still being played
    points: int  #: what its winner took (``Rules.points_taken``: J♦ included); 0 while in progress
    hearts_broken_by: tuple[int, Card] | None  #: the seat and card that broke hearts in this trick
    before: tuple[CardSet, ...]  #: each seat's cards just before the trick was led

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A whole hand, or the part of it played so far."""

    rules: Rules
    number: int  #: 0-based
    direction: PassDirection
    dealt: tuple[CardSet, ...]
    passes: tuple[CardSet | None, ...]  #: None for a seat that has not passed (or a hold hand)
    pass_to: tuple[int, ...]  #: the seat each seat passes to (itself in a hold hand)
    received: tuple[CardSet | None, ...]  #: what each seat was passed (None until its passer has passed)
    held: tuple[CardSet, ...] | None  #: each seat's cards after the pass (None while passing)
    tricks: tuple[TrickSummary, ...]  #: the last may be in progress
    taken: tuple[int, ...]  #: each seat's points from the tricks it won (J♦ included), before any moon
    shooter: int | None
    moon_option: MoonOption | None
    scores: tuple[int, ...] | None  #: the hand's scores, once it is over
    totals: tuple[int, ...] | None  #: the running totals after the hand, once it is over
    #: ``(seat, cards played before it)`` when a seat claimed the rest of the hand (hearts.core.claim)
    claim: tuple[int, int] | None = None

    @property
    def finished(self) -> bool:
        return self.scores is not None

    @classmethod
    def of(cls, hand: HandState, totals: tuple[int, ...] | None = None) -> HandSummary:
        """Tell ``hand`` again, step by step, on a fresh hand dealt the same cards; ``totals`` are the
        running totals after it (kept only once the hand is over)."""
        rules = hand.rules
        n = hand.players
        fresh = HandState(rules, hand.dealt, hand.number)
        if fresh.phase is Phase.PASS:
            for seat, mask in enumerate(hand.passed):
                if mask is not None:
                    fresh.pass_cards(seat, CardSet(mask))
        held = None if fresh.phase is Phase.PASS else tuple(CardSet(m) for m in fresh.hands)
        tricks: list[TrickSummary] = []
        taken = [0] * n
        played = [*hand.tricks, *([None] if hand.trick else [])]
        for index, done in enumerate(played):
            before = tuple(CardSet(m) for m in fresh.hands)
            leader = fresh.leader
            winner: int | None = None
            points = 0
            broke: tuple[int, Card] | None = None
            plays: list[tuple[int, Card]] = []
            for card in hand.trick if done is None else done.cards:
                plays.append((fresh.turn, card if isinstance(card, Card) else Card(card)))
                for event in fresh.play(card):
                    if isinstance(event, TrickWon):
                        winner, points = event.seat, event.points
                        taken[winner] += points
                    elif isinstance(event, HeartsBroken):
                        broke = (event.seat, event.card)
            tricks.append(TrickSummary(index, leader, tuple(plays), winner, points, broke, before))
        over = hand.phase is Phase.HAND_OVER
        return cls(
            rules=rules,
            number=hand.number,
            direction=hand.direction,
            dealt=tuple(CardSet(m) for m in hand.dealt),
            passes=tuple(None if p is None else CardSet(p) for p in hand.passed),
            pass_to=tuple(hand.pass_target(s) for s in range(n)),
            received=tuple(_received(hand, s) for s in range(n)),
            held=held,
            tricks=tuple(tricks),
            taken=tuple(taken),
            shooter=hand.shooter,
            moon_option=hand.moon_option,
            scores=hand.scores if over else None,
            totals=totals if over else None,
            claim=hand.claim,
        )

    def moon_words(self, names: tuple[str, ...] | list[str]) -> str | None:
        """How the moon went, in words, or None if nobody shot it."""
        if self.shooter is None:
            return None
        who = names[self.shooter]
        value = self.rules.moon_points
        option = self.moon_option
        if option is None:
            option = {
                MoonScoring.ADD_TO_OTHERS: MoonOption.ADD_TO_OTHERS,
                MoonScoring.SUBTRACT_FROM_SHOOTER: MoonOption.SUBTRACT_FROM_SELF,
            }.get(self.rules.moon)
        if option is MoonOption.ADD_TO_OTHERS:
            return f"{who} shot the moon: +{value} to every other seat"
        if option is MoonOption.SUBTRACT_FROM_SELF:
            return f"{who} shot the moon: -{value} to {who}"
        return f"{who} shot the moon, and has yet to choose how it scores"


def _received(hand: HandState, seat: int) -> CardSet | None:
    if hand.direction is PassDirection.HOLD:
        return CardSet()
    mask = hand.passed[hand.pass_source(seat)]
    return None if mask is None else CardSet(mask)

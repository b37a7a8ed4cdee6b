"""Play a finished deal again: the same cards, the computers passing as they did.

A hand taken from a game's record is set up as the first hand of a new game: its dealt cards, its
pass direction (the rules' pass cycle is turned so the new game's first hand passes the same way)
and the passes the other seats made. A computer seat wrapped by :meth:`DealAgain.player` makes the
pass it made then, so a person who passes the same cards again holds the same hand after the pass,
and from there the computers play as their level and seed decide (the same seed, the same answers).
The later hands of the new game are dealt from its seed. The server's "Play this deal again" and
``hearts play --again`` both set their game up here (``docs/review.md``).

>>> from hearts.core import Game, GameRecord
>>> from hearts.players import make_player
>>> game = Game(seed=3)
>>> _ = play_game(game, [make_player("random", seed=s) for s in range(4)], hands=2)
>>> again = DealAgain.of(GameRecord.of(game), 1)
>>> fresh = again.game(seed=9)
>>> fresh.hand.direction is game.summary(1).direction, fresh.hand.dealt == tuple(cs.mask for cs in game.summary(1).dealt)
(True, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hearts.core import Card, CardSet, Game, GameRecord, MoonOption, PassCards, Phase, Rules, SeatView
from hearts.players.base import Decision, Player, play_game

__all__ = ["AgainError", "DealAgain", "play_game"]


class AgainError(ValueError):
    """A deal that cannot be played again (no such finished hand in the record)."""


@dataclass(frozen=True, slots=True)
class DealAgain:
    """A finished hand set up to be played again as the first hand of a new game."""

    rules: Rules  #: the original rules with the pass cycle turned to start at the hand's direction
    dealt: tuple[CardSet, ...]  #: each seat's dealt cards
    passes: tuple[CardSet | None, ...]  #: each seat's pass in the original (None: a hold hand)
    hand: int  #: the hand's number in the original game, 0-based

    @classmethod
    def of(cls, record: GameRecord, hand: int) -> DealAgain:
        """Hand ``hand`` (0-based) of ``record``, which must be finished."""
        done = [h for h in record.hands if h.points is not None]
        if not 0 <= hand < len(done):
            have = f"hands 1 to {len(done)}" if done else "no finished hand"
            raise AgainError(f"there is no finished hand {hand + 1} to play again: the game has {have}")
        h = done[hand]
        cycle = record.rules.pass_cycle or ()
        turn = hand % len(cycle) if cycle else 0
        rules = dataclasses.replace(record.rules, pass_cycle=tuple(cycle[turn:]) + tuple(cycle[:turn]))
        return cls(rules, tuple(h.dealt), tuple(h.passes), hand)

    def turned(self, seat: int) -> DealAgain:
        """The same deal with ``seat`` moved to seat 0 and every seat with it, clockwise order kept
        (passes go to the same neighbours): for a face whose person always holds seat 0.

        >>> from hearts.core import Game, GameRecord
        >>> from hearts.players import make_player
        >>> game = Game(seed=3)
        >>> _ = play_game(game, [make_player("random", seed=s) for s in range(4)], hands=1)
        >>> again = DealAgain.of(GameRecord.of(game), 0)
        >>> again.turned(2).dealt[0] == again.dealt[2], again.turned(2).passes[3] == again.passes[1]
        (True, True)
        """
        n = len(self.dealt)
        if not 0 <= seat < n:
            raise AgainError(f"there is no seat {seat} in this deal: its seats are 0 to {n - 1}")
        order = [(s + seat) % n for s in range(n)]
        return DealAgain(
            self.rules, tuple(self.dealt[s] for s in order), tuple(self.passes[s] for s in order), self.hand
        )

    def game(self, seed: int = 0, names: Sequence[str] | None = None) -> Game:
        """A new game whose first hand is this deal; the later hands are dealt from ``seed``."""
        return Game(self.rules, seed=seed, names=names, deals={0: tuple(cs.mask for cs in self.dealt)})

    def player(self, seat: int, inner: Player) -> Player:
        """``inner`` playing ``seat``, passing as the seat passed in the original hand."""
        return PassAsBefore(inner, self.passes[seat])

    def to_dict(self) -> dict[str, Any]:
        """The deal as JSON (the rules are kept apart, as a table's own)."""
        return {
            "hand": self.hand,
            "dealt": [cs.names() for cs in self.dealt],
            "passes": [None if p is None else p.names() for p in self.passes],
        }

    @classmethod
    def from_dict(cls, rules: Rules, data: Any) -> DealAgain:
        """The deal :meth:`to_dict` wrote, for ``rules``; a malformed one raises AgainError (or, for
        text that names no card, CardParseError) saying what is wrong.

        >>> DealAgain.from_dict(Rules(), {"hand": 0, "dealt": [["2C"]] * 3, "passes": [None] * 4})
        Traceback (most recent call last):
        ...
        hearts.players.again.AgainError: a deal played again needs 'dealt': a list of 4 lists of cards
        """
        n = rules.players
        if not isinstance(data, dict):
            raise AgainError("a deal played again must be a JSON object with 'hand', 'dealt' and 'passes'")
        hand, dealt, passes = data.get("hand"), data.get("dealt"), data.get("passes")
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0:
            raise AgainError(f"a deal played again needs 'hand': the hand's number from 0, not {hand!r}")
        if not isinstance(dealt, list) or len(dealt) != n or not all(_names(d) for d in dealt):
            raise AgainError(f"a deal played again needs 'dealt': a list of {n} lists of cards")
        if not isinstance(passes, list) or len(passes) != n or not all(p is None or _names(p) for p in passes):
            raise AgainError(f"a deal played again needs 'passes': a list of {n} entries, each a list of cards or null")
        return cls(
            rules,
            tuple(CardSet.parse(" ".join(d)) for d in dealt),
            tuple(None if p is None else CardSet.parse(" ".join(p)) for p in passes),
            hand,
        )


def _names(value: Any) -> bool:
    """Whether ``value`` is a list of texts (card names, read by CardSet.parse)."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


class PassAsBefore(Player):
    """A player that makes a recorded pass in the first hand and otherwise is ``inner``."""

    def __init__(self, inner: Player, cards: CardSet | None) -> None:
        super().__init__(inner.seed, inner.time_budget)
        self.inner, self.cards = inner, cards
        self.name = inner.name

    def decide(self, view: SeatView) -> Decision:
        if view.phase is Phase.PASS and view.hand_number == 0 and self.cards is not None and not self.cards - view.hand:
            return Decision(PassCards(view.seat, self.cards), "the same pass as in the original hand")
        return self.inner.decide(view)

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        return self.inner.choose_pass(view)

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        return self.inner.choose_play(view)

    def choose_moon(self, view: SeatView) -> tuple[MoonOption, str]:
        return self.inner.choose_moon(view)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()

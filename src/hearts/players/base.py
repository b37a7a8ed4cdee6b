"""The one interface every computer player implements.

A player is given a seat's :class:`~hearts.core.view.SeatView` (never the full
state) and answers the decision the view asks for: the cards to pass, the card
to play, or how its moon scores. Players are seeded: the same view and seed
give the same answer.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hearts.core import Card, CardSet, ChooseMoon, Game, MoonOption, Move, PassCards, Phase, PlayCard, SeatView
from hearts.players.drive import drive


@dataclass(frozen=True, slots=True)
class Decision:
    """A move with the player's one-line reason for it (for hint buttons).

    A reason is words, then any figures behind them in brackets at the end (a search player's
    expected points and sample sizes). A face shows :attr:`summary` and offers :attr:`details`:

    >>> d = Decision(PlayCard(0, Card.parse("6S")), "duck under 9♠ with 6♠ (3.6 pts expected over 900 worlds, 10♠ 3.4)")
    >>> d.summary
    'duck under 9♠ with 6♠'
    >>> d.details
    '3.6 pts expected over 900 worlds, 10♠ 3.4'
    """

    move: Move
    reason: str

    @property
    def summary(self) -> str:
        """The reason in words, without its figures."""
        return split_reason(self.reason)[0]

    @property
    def details(self) -> str:
        """The figures behind the reason ('' when it has none)."""
        return split_reason(self.reason)[1]


def split_reason(reason: str) -> tuple[str, str]:
    """A reason's words and its figures: the last bracketed part when the reason ends with one that
    holds a number; brackets of words stay in the words.

    >>> split_reason("void clubs (3.5 pts expected over 764 deals)")
    ('void clubs', '3.5 pts expected over 764 deals')
    >>> split_reason("lead low (safe)")
    ('lead low (safe)', '')
    """
    if reason.endswith(")"):
        depth = 0
        for i in range(len(reason) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(reason[i], 0)
            if depth == 0:
                inner = reason[i + 1 : -1]
                if any(ch.isdigit() for ch in inner) and reason[:i].strip():
                    return reason[:i].rstrip(), inner
                break
    return reason, ""


class Player(ABC):
    """Base class: subclasses implement the three choices; :meth:`decide` dispatches on the view's phase."""

    #: The level name used by the CLI, tournaments and table seats.
    name: str = "player"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A subclass that writes its own decide() gets its answer checked, so that returning a bare card
        # (a common first try) says what to return instead of failing later on a missing ``.move``.
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("decide")
        if own is not None:
            cls.decide = _checked_decide(own)  # type: ignore[method-assign,assignment]

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.time_budget = time_budget

    def view_rng(self, view: SeatView) -> random.Random:
        """A random source for one decision, fixed by the seed and the view alone, so that the same
        view and seed give the same move whatever this player decided before (unseeded: fresh)."""
        if self.seed is None:
            return random.Random(self.rng.getrandbits(64))
        played = ",".join(str(int(c)) for t in (*view.tricks, view.trick) for c in t.cards)
        return random.Random(f"{self.seed}:{view.seat}:{view.hand_number}:{view.hand.mask}:{played}:{view.phase.value}")

    @abstractmethod
    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        """The cards to pass, and why."""

    @abstractmethod
    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        """The card to play (one of ``view.legal``), and why."""

    def choose_moon(self, view: SeatView) -> tuple[MoonOption, str]:
        """How to score a moon: add to the others unless subtracting wins, or avoids losing, the game."""
        from hearts.players.knowledge import best_moon_option

        value = view.rules.moon_points
        if best_moon_option(view.rules, view.totals, view.seat) is MoonOption.SUBTRACT_FROM_SELF:
            return MoonOption.SUBTRACT_FROM_SELF, f"subtract {value} from my own total: adding would cost me the game"
        return MoonOption.ADD_TO_OTHERS, f"add {value} to every other seat"

    def decide(self, view: SeatView) -> Decision:
        """The move this seat makes now, with its reason; the view must ask this seat for one."""
        if view.seat not in view.to_move:
            raise ValueError(f"{view.names[view.seat]} has no decision to make now")
        if view.phase is Phase.PASS:
            cards, why = self.choose_pass(view)
            return Decision(PassCards(view.seat, cards), why)
        if view.phase is Phase.PLAY:
            card, why = self.choose_play(view)
            return Decision(PlayCard(view.seat, card), why)
        if view.phase is Phase.MOON_CHOICE:
            option, why = self.choose_moon(view)
            return Decision(ChooseMoon(view.seat, option), why)
        raise ValueError(f"no decision in the {view.phase.value} phase")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def _checked_decide(decide: Callable[[Player, SeatView], Any]) -> Callable[[Player, SeatView], Decision]:
    """``decide`` with its answer checked to be a :class:`Decision`; anything else raises ``TypeError``
    saying what a decide() must return, with an example."""

    @functools.wraps(decide)
    def checked(self: Player, view: SeatView) -> Decision:
        answer = decide(self, view)
        if isinstance(answer, Decision):
            return answer
        shown = answer.symbol() if isinstance(answer, Card) else repr(answer)
        raise TypeError(
            f"{type(self).__name__}.decide returned {shown} (a {type(answer).__name__}), not a Decision: return the "
            'move with a reason, e.g. `return Decision(PlayCard(view.seat, card), "lowest safe card")` '
            "(PassCards(view.seat, cards) for a pass, ChooseMoon(view.seat, option) for the moon), "
            "or leave decide() to Player and write choose_play(view) returning (card, reason)"
        )

    return checked


def play_game(game: Game, players: Sequence[Player], *, hands: int | None = None) -> Game:
    """Play ``game`` on with one player per seat until it ends (or ``hands`` more hands are over).

    Each player is given only its own seat's view; every decision is applied with
    :meth:`Game.apply`, so an illegal move raises. Returns the same game. It is
    :func:`hearts.players.drive.drive` without hooks.
    """
    return drive(game, players, hands=hands)

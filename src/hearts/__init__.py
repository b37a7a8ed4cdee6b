"""hearts: the card game Hearts — rules engine, computer players, web and terminal play, simulation.

The engine reads like python-chess: everything a program needs to play, check and record a game
is a name at the top of the package.

>>> import hearts
>>> game = hearts.Game(hearts.Rules.preset("omnibus"), seed=7)
>>> game.phase.value, game.hand.direction.value
('pass', 'left')
>>> card = hearts.Card.parse("Q♠")
>>> card, card.symbol(), hearts.QUEEN_OF_SPADES == card
(Card('QS'), 'Q♠', True)
>>> view = game.view(0)  # what South may see: its own cards, never another seat's
>>> isinstance(view, hearts.SeatView), len(view.hand)
(True, 13)
>>> events = game.apply(game.legal_moves(0)[0])
>>> [type(e).__name__ for e in events]
['CardsPassed']
>>> record = hearts.GameRecord.of(game)
>>> hearts.GameRecord.loads(record.dumps()) == record
True
>>> try:
...     game.play("2C", 0)
... except hearts.OutOfTurnError as exc:
...     print(exc)
cannot play 2♣ by South: the hand is in the pass phase

The names are those of :mod:`hearts.core` (which keeps working), loaded on first use: ``import
hearts`` alone stays as light as the ``hearts`` command needs (the command never touches the
engine before a sub-command runs). The computer players are in :mod:`hearts.players`, the
environments in :mod:`hearts.env`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:  # the names below are loaded on first use by __getattr__
    from hearts.core import (
        CARDS,
        JACK_OF_DIAMONDS,
        PRESETS,
        QUEEN_OF_SPADES,
        TEN_OF_DIAMONDS,
        TWO_OF_CLUBS,
        Card,
        CardParseError,
        CardPlayed,
        CardSet,
        CardsPassed,
        CardsReceived,
        ChooseMoon,
        Event,
        Game,
        GameOver,
        GameRecord,
        HandRecord,
        HandScored,
        HandStarted,
        HandState,
        HandSummary,
        HeartsBroken,
        HeartsError,
        IllegalMoveError,
        MoonChosen,
        MoonOption,
        MoonScoring,
        MoonShot,
        Move,
        OpeningLead,
        OutOfTurnError,
        PassCards,
        PassDirection,
        Phase,
        PlayCard,
        PublicView,
        RecordError,
        Rules,
        RulesError,
        SeatView,
        SetupError,
        Suit,
        TieRule,
        Trick,
        TrickRecord,
        TrickSummary,
        TrickWon,
        event_to_dict,
        keyed_deal,
        move_from_dict,
        move_to_dict,
        seat_name,
        seeded_deal,
        visible_to,
    )

__all__ = [
    # cards
    "Card", "CardSet", "Suit", "CARDS", "TWO_OF_CLUBS", "QUEEN_OF_SPADES", "JACK_OF_DIAMONDS", "TEN_OF_DIAMONDS",
    # rules
    "Rules", "PRESETS", "PassDirection", "OpeningLead", "MoonScoring", "MoonOption", "TieRule",
    # the game and its hands
    "Game", "HandState", "Phase", "Trick", "seat_name", "seeded_deal", "keyed_deal",
    # moves
    "Move", "PlayCard", "PassCards", "ChooseMoon", "move_from_dict", "move_to_dict",
    # events
    "Event", "HandStarted", "CardsPassed", "CardsReceived", "CardPlayed", "HeartsBroken", "TrickWon",
    "MoonShot", "MoonChosen", "HandScored", "GameOver", "event_to_dict", "visible_to",
    # views
    "SeatView", "PublicView",
    # records and summaries
    "GameRecord", "HandRecord", "TrickRecord", "HandSummary", "TrickSummary",
    # errors
    "HeartsError", "CardParseError", "SetupError", "RulesError", "OutOfTurnError", "IllegalMoveError",
    "RecordError",
]  # fmt: skip

_PUBLIC = frozenset(__all__)


def __getattr__(name: str) -> Any:
    # Load the engine on first use of one of its names, then keep the name here.
    if name in _PUBLIC:
        import hearts.core

        value = getattr(hearts.core, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'hearts' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

"""The rules engine: pure, deterministic, standard library only, no I/O.

Everything else in :mod:`hearts` is built on this package; nothing re-implements a rule.
"""

from hearts.core.cards import (
    CARDS,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    Card,
    CardSet,
    Suit,
    cards_of,
    mask_of,
)
from hearts.core.claim import ClaimRefused, check_claim, claim_card, claim_holds, play_claim
from hearts.core.errors import (
    CardParseError,
    HeartsError,
    IllegalMoveError,
    OutOfTurnError,
    RecordError,
    RulesError,
    SetupError,
)
from hearts.core.events import (
    CardPlayed,
    CardsPassed,
    CardsReceived,
    Event,
    GameOver,
    HandScored,
    HandStarted,
    HeartsBroken,
    MoonChosen,
    MoonShot,
    TrickWon,
    event_to_dict,
    visible_to,
)
from hearts.core.game import Game, keyed_deal, seeded_deal
from hearts.core.hand import HandState, Phase, Trick, deal_cards, seat_name
from hearts.core.moves import ChooseMoon, ClaimRest, Move, PassCards, PlayCard, move_from_dict, move_to_dict
from hearts.core.record import GameRecord, HandRecord, TrickRecord, dumps, loads
from hearts.core.rules import (
    PRESETS,
    MoonOption,
    MoonScoring,
    OpeningLead,
    PassDirection,
    Rules,
    TieRule,
    pass_cycle_named,
    read_option,
    read_text_option,
)
from hearts.core.summary import HandSummary, TrickSummary
from hearts.core.view import PUBLIC_FIELDS, PublicView, SeatView

__all__ = [
    "CARDS", "JACK_OF_DIAMONDS", "QUEEN_OF_SPADES", "TEN_OF_DIAMONDS", "TWO_OF_CLUBS", "Card", "CardSet",
    "Suit", "cards_of", "mask_of", "CardParseError", "HeartsError", "IllegalMoveError", "OutOfTurnError",
    "RecordError", "RulesError", "SetupError", "CardPlayed", "CardsPassed", "CardsReceived", "Event", "GameOver",
    "HandScored", "HandStarted", "HeartsBroken", "MoonChosen", "MoonShot", "TrickWon", "event_to_dict",
    "visible_to", "Game", "keyed_deal", "seeded_deal", "HandState", "Phase", "Trick", "deal_cards", "seat_name",
    "ChooseMoon", "ClaimRest", "Move", "move_from_dict", "move_to_dict", "PassCards", "PlayCard", "GameRecord", "HandRecord", "TrickRecord", "dumps",
    "loads", "PRESETS", "MoonOption", "MoonScoring", "OpeningLead", "PassDirection", "Rules", "TieRule",
    "pass_cycle_named", "SeatView", "PublicView", "PUBLIC_FIELDS", "HandSummary", "TrickSummary", "read_option",
    "read_text_option", "ClaimRefused", "check_claim", "claim_card", "claim_holds", "play_claim",
]  # fmt: skip

"""Scoring: hearts and Q♠, the bonus card, every way of scoring a moon, and the points adding up."""

from __future__ import annotations

import random

import pytest
from tests.conftest import hand_from, play_cards, play_out, snapshot
from tests.test_play_rules import DEAL_SUITS

from hearts.core import (
    CardSet,
    ChooseMoon,
    Game,
    HandScored,
    HandState,
    IllegalMoveError,
    MoonChosen,
    MoonOption,
    MoonShot,
    OutOfTurnError,
    Phase,
    Rules,
)
from hearts.core.cards import HEARTS, QS_BIT

#: South takes all thirteen hearts; North takes Q♠ (see test_seed_questions for the trick-by-trick story).
DEAL_HEARTS_NOT_QUEEN = [
    "AC AD 2S 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2C 5C 6C 7C 3D 3S 4S 5S 6S 7S 2H 3H 4H",
    "AS 2D 3C 8C 9C 10C 4D 5D 6D 7D 8S 9S 10S",
    "QS 4C JC QC KC 8D 9D 10D JD QD KD JS KS",
]
HEARTS_NOT_QUEEN_OPENING = "2C 3C 4C AC  2S 3S AS QS  2D 8D AD 3D  AH 2H"


def finish(hand: HandState) -> list[object]:
    """Play the lowest legal card until the hand stops for scoring; return the events."""
    events: list[object] = []
    while hand.phase is Phase.PLAY:
        events.extend(hand.play(hand.legal_plays()[0]))
    return events


def moon_hand(rules: Rules) -> tuple[HandState, list[object]]:
    """South holds every club and so wins every trick: it takes all 26 points."""
    hand = hand_from(rules.replace(pass_cycle=("hold",)), DEAL_SUITS)
    return hand, finish(hand)


def test_heart_one_point_queen_thirteen() -> None:
    """Scoring: each heart taken is 1 point and Q♠ is 13; 26 in every hand."""
    hand = hand_from(Rules(pass_cycle="none"), DEAL_HEARTS_NOT_QUEEN)
    play_cards(hand, HEARTS_NOT_QUEEN_OPENING)
    finish(hand)
    assert hand.phase is Phase.HAND_OVER
    assert hand.scores == (13, 0, 13, 0) and sum(hand.scores) == 26
    assert hand.shooter is None
    assert hand.taken[0] & HEARTS == HEARTS and hand.taken[2] & QS_BIT


def test_points_are_counted_per_trick_as_they_are_taken() -> None:
    """Scoring: the points of a trick go to its winner as soon as the trick is complete."""
    hand = hand_from(Rules(pass_cycle="none"), DEAL_HEARTS_NOT_QUEEN)
    play_cards(hand, "2C 3C 4C AC  2S 3S AS")
    assert hand.points == [0, 0, 0, 0]
    play_cards(hand, "QS")
    assert hand.points == [0, 0, 13, 0]


@pytest.mark.parametrize(
    ("preset", "bonus"),
    [("omnibus", "JD"), ("omnibus-10d", "10D")],
)
def test_omnibus_bonus_card_scores_minus_ten(preset: str, bonus: str) -> None:
    """Scoring (Omnibus): whoever takes J♦ (or 10♦ in the variant) scores −10."""
    rules = Rules.preset(preset, pass_cycle="none")
    assert str(rules.bonus_card) == bonus
    hand = hand_from(rules, DEAL_HEARTS_NOT_QUEEN)
    play_cards(hand, HEARTS_NOT_QUEEN_OPENING)
    finish(hand)
    # East discarded the bonus card onto one of South's heart tricks.
    assert hand.scores == (13 - 10, 0, 13, 0)


def test_bonus_value_is_an_option() -> None:
    """Scoring (option bonus_points): the bonus card's value is an option."""
    hand = hand_from(Rules(pass_cycle="none", bonus_card="JD", bonus_points=-5), DEAL_HEARTS_NOT_QUEEN)
    play_cards(hand, HEARTS_NOT_QUEEN_OPENING)
    finish(hand)
    assert hand.scores == (13 - 5, 0, 13, 0)


def test_heart_and_queen_values_are_options() -> None:
    """Scoring (options heart_points, queen_points): a heart and the queen can be given other values."""
    hand = hand_from(Rules(pass_cycle="none", heart_points=2, queen_points=10), DEAL_HEARTS_NOT_QUEEN)
    play_cards(hand, HEARTS_NOT_QUEEN_OPENING)
    finish(hand)
    assert hand.scores == (26, 0, 10, 0)


def test_moon_add_to_others_is_the_default() -> None:
    """Moon (add_to_others, Bicycle): the shooter scores 0 and every other seat adds 26."""
    hand, events = moon_hand(Rules())
    assert hand.shooter == 0 and hand.points == [26, 0, 0, 0]
    assert hand.scores == (0, 26, 26, 26)
    assert MoonShot(0, False) in events


def test_moon_shooter_chooses_is_a_decision_of_the_shooter() -> None:
    """Moon (shooter_chooses, Britannica): the hand waits for the shooter's choice: −26 itself or +26 the others."""
    for option, expected in [
        (MoonOption.ADD_TO_OTHERS, (0, 26, 26, 26)),
        (MoonOption.SUBTRACT_FROM_SELF, (-26, 0, 0, 0)),
    ]:
        hand, events = moon_hand(Rules.preset("britannica"))
        assert MoonShot(0, True) in events
        assert hand.phase is Phase.MOON_CHOICE and hand.to_move == (0,) and hand.scores is None
        before = snapshot(hand)
        with pytest.raises(OutOfTurnError, match="only the shooter, South, chooses"):
            hand.choose_moon(1, option)
        with pytest.raises(IllegalMoveError, match="not a moon choice: 'both'"):
            hand.choose_moon(0, "both")
        assert snapshot(hand) == before
        assert hand.choose_moon(0, option.value) == [MoonChosen(0, option)]
        assert hand.scores == expected and hand.moon_option is option and hand.phase is Phase.HAND_OVER


def test_moon_choice_through_the_game() -> None:
    """Moon (shooter_chooses): the game offers the shooter exactly the two choices, then scores the hand."""
    game = Game(Rules.preset("britannica", pass_cycle="none"), deals={0: [CardSet.parse(h).mask for h in DEAL_SUITS]})
    while game.phase is Phase.PLAY:
        game.play(game.legal_plays()[0])
    assert game.phase is Phase.MOON_CHOICE and game.to_move == (0,)
    assert game.legal_moves(0) == [ChooseMoon(0, o) for o in MoonOption]
    assert game.legal_moves(1) == [] and game.legal_plays() == []
    events = game.apply(ChooseMoon(0, MoonOption.SUBTRACT_FROM_SELF))
    scored = [e for e in events if isinstance(e, HandScored)]
    assert scored == [HandScored(0, (-26, 0, 0, 0), (-26, 0, 0, 0), 0)]
    assert game.totals == [-26, 0, 0, 0] and game.hand.number == 1


def test_moon_subtract_from_shooter() -> None:
    """Moon (subtract_from_shooter): the shooter scores −26 and the others nothing."""
    hand, _ = moon_hand(Rules(moon="subtract-from-shooter"))
    assert hand.scores == (-26, 0, 0, 0)


def test_moon_disabled() -> None:
    """Moon (disabled): no moon; the seat that took everything scores its 26."""
    hand, events = moon_hand(Rules(moon="disabled"))
    assert hand.scores == (26, 0, 0, 0) and hand.shooter is None
    assert not any(isinstance(e, MoonShot) for e in events)


def test_bonus_card_counts_on_its_own_in_a_moon_hand() -> None:
    """Scoring (Omnibus): the bonus card counts on its own in a moon hand too."""
    hand, _ = moon_hand(Rules.preset("omnibus"))
    assert hand.scores == (-10, 26, 26, 26)
    hand, _ = moon_hand(Rules.preset("omnibus", moon="subtract-from-shooter"))
    assert hand.scores == (-36, 0, 0, 0)


def test_moon_needs_the_queen_too() -> None:
    """Moon: taking every heart but not Q♠ is not a moon; both seats score what they took."""
    hand = hand_from(Rules(pass_cycle="none"), DEAL_HEARTS_NOT_QUEEN)
    play_cards(hand, HEARTS_NOT_QUEEN_OPENING)
    events = finish(hand)
    assert not any(isinstance(e, MoonShot) for e in events)
    assert hand.scores == (13, 0, 13, 0)


def test_moon_in_a_trimmed_deck_is_worth_the_hearts_in_play_plus_thirteen() -> None:
    """Moon (trimmed deck): with hearts removed the moon is every heart in play and Q♠, worth hearts + 13."""
    rules = Rules(removed=("2H", "3H", "4H", "5H"), pass_cycle="none")
    assert rules.moon_points == 22 and rules.hand_size == 12
    hand = hand_from(rules, [
        "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        "2C 6H 7H 8H 9H 10H JH QH KH AH KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        "AS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD",
    ])  # fmt: skip
    play_cards(hand, "2C 2S 2D AC")
    finish(hand)
    assert hand.shooter == 0 and hand.scores == (0, 22, 22, 22)


def test_moon_with_three_players() -> None:
    """Moon (three players): 2♦ is out but every heart is in, so the moon is still 26 to each other seat."""
    rules = Rules(players=3, pass_cycle="none")
    hand = hand_from(rules, [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 3D 4D 5D 6D",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 7D 8D 9D 10D",
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS JD QD KD AD",
    ])  # fmt: skip
    # South holds every club and the four lowest diamonds left, and the others run out of diamonds
    # discarding on the club tricks: South wins every trick.
    finish(hand)
    assert hand.shooter == 0 and hand.scores == (0, 26, 26)


def _expected_scores(hand: HandState) -> tuple[int, ...]:
    """An independent count of a finished hand's scores from the cards each seat took."""
    rules = hand.rules
    penalty = rules.penalty_mask
    raw = [
        (t & HEARTS).bit_count() * rules.heart_points + (rules.queen_points if t & QS_BIT else 0) for t in hand.taken
    ]
    shooters = [s for s, t in enumerate(hand.taken) if t & penalty == penalty]
    scores = raw
    if shooters and rules.moon.value != "disabled":
        (shooter,) = shooters
        option = {
            "add-to-others": "add-to-others",
            "subtract-from-shooter": "subtract-from-self",
            "shooter-chooses": hand.moon_option.value if hand.moon_option else None,
        }[rules.moon.value]
        if option == "add-to-others":
            scores = [0 if s == shooter else rules.moon_points for s in range(hand.players)]
        else:
            scores = [-rules.moon_points if s == shooter else 0 for s in range(hand.players)]
    if rules.bonus_card is not None:
        for s, t in enumerate(hand.taken):
            if t >> rules.bonus_card & 1:
                scores[s] += rules.bonus_points
    return tuple(scores)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules.preset("omnibus"),
        Rules.preset("britannica", players=3),
        Rules(players=5, moon="subtract-from-shooter", bonus_card="10D"),
        Rules(players=6, moon="disabled", heart_points=2),
    ],
    ids=["standard", "omnibus", "britannica-3", "five-subtract-10d", "six-disabled"],
)
def test_every_hand_scores_what_its_tricks_hold(rules: Rules) -> None:
    """Scoring: over many random games every hand's score is what the seats' tricks hold, and totals add up."""
    for seed in range(6):
        game = play_out(Game(rules.replace(target=60), seed=seed), random.Random(seed))
        running = [0] * rules.players
        for hand in game.finished:
            assert hand.scores == _expected_scores(hand)
            running = [a + b for a, b in zip(running, hand.scores, strict=True)]
        assert game.totals == running

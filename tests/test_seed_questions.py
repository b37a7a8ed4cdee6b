"""Every question-and-answer and every labelled variant in the three rules pages in /work/shared/seeds/.

The pages are cited by their file names:

* ``000`` "Hearts Rules in Plain Words" (Bicycle and Britannica rewritten; its "Official rule or
  house rule?" box and its "Common questions"),
* ``001`` the short guide ("Goal", "Dealing and passing", ..., "Questions"),
* ``003`` the spec sheet ("Direct Answer", "Specs", "Card Passing Rotation", ...).

Each test's docstring quotes the question (or names the variant) and says what the page answers.
"""

from __future__ import annotations

import random

import pytest
from tests.conftest import hand_from, play_cards, play_out
from tests.test_game import moon_deal, play_hand
from tests.test_play_rules import (
    DEAL_BREAK,
    DEAL_HEARTS_AND_QUEEN,
    DEAL_ONLY_HEARTS,
    DEAL_PENALTY_ONLY,
    DEAL_SUITS,
)
from tests.test_scoring import DEAL_HEARTS_NOT_QUEEN, HEARTS_NOT_QUEEN_OPENING, finish, moon_hand

from hearts.core import (
    PRESETS,
    CardSet,
    Game,
    HandState,
    IllegalMoveError,
    MoonOption,
    OpeningLead,
    PassDirection,
    Phase,
    Rules,
)
from hearts.core.cards import Card

NO_PASSING = Rules(pass_cycle="none")

#: DEAL_BREAK played to the point where East leads with hearts unbroken (Q♠ not yet played).
BREAK_TO_EAST_LEAD = "2C AC 3C 8C  6S 10S AS 2S"


def legal(hand: HandState) -> CardSet:
    return CardSet(hand.legal_mask())


# -- 000: common questions ----------------------------------------------------------------


def test_000_can_i_lead_the_queen_of_spades() -> None:
    """000 "Can I lead the Queen of Spades?" — Yes: spades, the queen included, may be led at any time."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, BREAK_TO_EAST_LEAD)
    assert not hand.hearts_broken and hand.turn == 3
    assert "QS" in legal(hand)
    play_cards(hand, "QS 3S 7S JS")
    assert hand.points[3] == 13  # led it and took it back: legal, if unwise


def test_000_i_won_a_trick_with_hearts_by_accident() -> None:
    """000 "I won a trick with hearts in it by accident. Do I have to take the points?" — Yes."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, BREAK_TO_EAST_LEAD + "  KS 3S 7S JS  9C 2H 8D 4C")
    # East led a club to get rid of the lead and South dropped a heart on it: East's trick, East's point.
    assert hand.tricks[-1].winner == 3 and hand.points == [0, 0, 0, 1]
    finish(hand)
    assert hand.scores is not None and hand.scores[3] >= 1
    assert sum(hand.scores) == 26


def test_000_all_the_hearts_but_someone_else_took_the_queen() -> None:
    """000 "What if I take all the hearts but someone else took the Queen?" — Not a moon: 13 and 13."""
    hand = hand_from(NO_PASSING, DEAL_HEARTS_NOT_QUEEN)
    play_cards(hand, HEARTS_NOT_QUEEN_OPENING)
    finish(hand)
    assert hand.shooter is None
    assert hand.scores == (13, 0, 13, 0)


def test_000_only_hearts_and_the_queen_on_the_first_trick() -> None:
    """000 "Can hearts be played on the first trick if I have only hearts and the Queen?" — Yes, the exception."""
    hand = hand_from(NO_PASSING, DEAL_PENALTY_ONLY)
    play_cards(hand, "2C")
    assert legal(hand) == CardSet.parse(DEAL_PENALTY_ONLY[1])  # the queen and every heart
    play_cards(hand, "QS 2S 2D")
    assert hand.points[0] == 13


# -- 000: the "Official rule or house rule?" box --------------------------------------------


def test_000_moon_bicycle_shooter_zero_each_opponent_26() -> None:
    """000 box, Bicycle's moon: the shooter scores zero and each opponent adds 26 (the default)."""
    assert Rules().moon.value == "add-to-others"
    hand, _ = moon_hand(Rules())
    assert hand.scores == (0, 26, 26, 26)


@pytest.mark.parametrize(
    ("option", "scores"),
    [(MoonOption.SUBTRACT_FROM_SELF, (-26, 0, 0, 0)), (MoonOption.ADD_TO_OTHERS, (0, 26, 26, 26))],
)
def test_000_moon_britannica_shooter_chooses(option: MoonOption, scores: tuple[int, ...]) -> None:
    """000 box, Britannica's moon: the shooter chooses to subtract 26 from itself or add 26 to everyone else."""
    hand, _ = moon_hand(Rules.preset("britannica"))
    assert hand.phase is Phase.MOON_CHOICE and hand.to_move == (0,)
    hand.choose_moon(0, option)
    assert hand.scores == scores


def test_000_omnibus_jack_of_diamonds_minus_ten() -> None:
    """000 box, Omnibus Hearts: the player who takes J♦ scores minus 10; everything else plays the same."""
    rules = Rules.preset("omnibus")
    assert rules.replace(bonus_card=None) == Rules()
    hand = hand_from(rules.replace(pass_cycle="none"), DEAL_HEARTS_NOT_QUEEN)
    play_cards(hand, HEARTS_NOT_QUEEN_OPENING)
    finish(hand)
    assert hand.scores == (3, 0, 13, 0)


def test_000_omnibus_ten_of_diamonds_instead() -> None:
    """000 box, Omnibus (Britannica's note): some tables use 10♦ instead of J♦."""
    rules = Rules.preset("omnibus-10d", pass_cycle="none")
    game = Game(rules, deals={0: moon_deal(2)})
    play_hand(game)
    # North held every club and took every card, the 10♦ with them: 0 for the moon, −10 for the bonus.
    assert game.totals == [26, 26, -10, 26]


def test_000_passing_pattern_standard_cycle() -> None:
    """000 box, passing patterns: left, right, across, hold is the standard, printed cycle."""
    assert [d.value for d in Rules().pass_cycle or ()] == ["left", "right", "across", "hold"]


def test_000_pass_left_every_hand() -> None:
    """000 box, passing patterns: some computer versions and house games pass left every hand."""
    rules = Rules.preset("pass-left")
    assert {rules.pass_direction(n) for n in range(12)} == {PassDirection.LEFT}
    game = play_out(Game(rules.replace(target=60), seed=1), random.Random(1))
    assert {h.direction for h in game.finished} == {PassDirection.LEFT}


def test_000_drop_the_hold_hand() -> None:
    """000 box, passing patterns: some games drop the hold hand (left, right, across, repeat)."""
    rules = Rules.preset("no-hold")
    assert [rules.pass_direction(n).value for n in range(6)] == ["left", "right", "across"] * 2
    assert PassDirection.HOLD not in (rules.pass_cycle or ())


def test_000_queen_breaks_hearts_is_a_house_rule() -> None:
    """000 box: "Does the Queen of Spades break hearts?" Not in the standard game; a few house games say yes."""
    standard = hand_from(NO_PASSING, DEAL_BREAK)
    house = hand_from(Rules.preset("house-queen", pass_cycle="none"), DEAL_BREAK)
    for hand in (standard, house):
        play_cards(hand, BREAK_TO_EAST_LEAD + "  QS 3S 7S JS")
    assert not standard.hearts_broken and "KH" not in legal(standard)
    assert house.hearts_broken and "KH" in legal(house)


def test_000_two_of_clubs_must_open_standard_not_optional() -> None:
    """000 box: "The 2 of Clubs must open" — the standard rule; every preset keeps it for four players."""
    for name in PRESETS:
        rules = Rules.preset(name, pass_cycle="none")
        assert rules.opening is OpeningLead.LOWEST_CLUB
        hand = Game(rules, seed=7).hand
        assert hand.legal_plays() == [Card.parse("2C")]
        assert hand.hands[hand.turn] & 1  # the seat to lead holds 2♣


# -- 000: the body of the page ----------------------------------------------------------------


def test_000_players_three_to_six_with_cards_removed() -> None:
    """000 "Players": 4 is classic; Bicycle lists 3 to 6, with cards removed so the deal comes out even."""
    for players in (3, 4, 5, 6):
        game = Game(Rules(players=players), seed=0)
        sizes = {h.bit_count() for h in game.hand.dealt}
        assert sizes == {game.rules.hand_size} and game.rules.hand_size * players == game.rules.in_play.bit_count()


def test_000_ace_high_no_trump() -> None:
    """000 "What you need": cards rank ace high down to 2 low; there is no trump suit."""
    hand = hand_from(NO_PASSING, DEAL_SUITS)
    play_cards(hand, "2C AH AS AD")  # three aces of other suits lose to the 2♣ led
    assert hand.tricks[0].winner == 0
    hand2 = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand2, "2C AC 3C 8C")
    assert hand2.tricks[0].winner == 1  # the ace is the highest club


def test_000_pass_before_you_look() -> None:
    """000 "You must hand over your three cards before you look at the cards passed to you."""
    game = Game(Rules(), deals={0: [CardSet.parse(h).mask for h in DEAL_BREAK]})
    game.pass_cards(3, ["QS", "KS", "AS"])
    south = game.view(0)
    assert south.received is None and "QS" not in south.hand
    game.pass_cards(0, ["2H", "3H", "4H"])
    assert game.view(0).received is None and game.view(0).passed == CardSet.parse("2H 3H 4H")
    game.pass_cards(1, ["AC", "8D", "9D"])
    game.pass_cards(2, ["3C", "4C", "5C"])
    south = game.view(0)
    assert south.received == CardSet.parse("QS KS AS") and south.pass_from == 3
    assert CardSet.parse("QS KS AS").mask & south.hand.mask == CardSet.parse("QS KS AS").mask


def test_000_first_trick_safety() -> None:
    """000 "First trick safety": no heart and not Q♠ on the first trick unless a hand is all penalty cards."""
    hand = hand_from(NO_PASSING, DEAL_ONLY_HEARTS)
    play_cards(hand, "2C AC 9C")
    assert "QS" not in legal(hand)
    with pytest.raises(IllegalMoveError, match="first-trick rule"):
        hand.play("QS")


def test_000_hearts_broken_only_by_a_discard_and_only_hearts_may_lead() -> None:
    """000: hearts cannot be led until a heart is thrown on another suit; a player holding only hearts may lead one."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, "2C AC 3C 8C")
    assert not legal(hand) & CardSet.suit(3)
    only = hand_from(NO_PASSING, DEAL_ONLY_HEARTS)
    play_cards(only, "2C AC 9C 2S")
    assert legal(only) == CardSet(only.hands[1])


def test_000_twenty_six_points_every_hand() -> None:
    """000 "Scoring and winning": each heart 1, the queen 13; there are 26 points in every hand."""
    for seed in range(5):
        game = play_out(Game(Rules(moon="disabled", target=40), seed=seed), random.Random(seed))
        assert all(sum(h.scores or ()) == 26 for h in game.finished)


def test_000_game_to_100_some_play_to_50() -> None:
    """000: the game ends when a player reaches 100 (some play to 50); the lowest score wins."""
    assert Rules().target == 100 and Rules.preset("short").target == 50
    game = play_out(Game(Rules.preset("short"), seed=2), random.Random(2))
    assert max(game.totals) >= 50
    assert all(game.totals[w] == min(game.totals) for w in game.winners)


# -- 001: the short guide ----------------------------------------------------------------------


def test_001_can_i_lead_a_heart_at_any_time() -> None:
    """001 "Can I lead a heart at any time?" — No, not until hearts are broken; the queen may be led whenever."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, BREAK_TO_EAST_LEAD)
    assert not legal(hand) & CardSet.suit(3) and "QS" in legal(hand)
    with pytest.raises(IllegalMoveError, match="hearts are not broken"):
        hand.play("AH")


def test_001_what_is_shooting_the_moon() -> None:
    """001 "What is shooting the moon?" — all thirteen hearts and the queen: you score nothing, the others 26."""
    hand, _ = moon_hand(Rules())
    assert hand.shooter == 0 and hand.points == [26, 0, 0, 0] and hand.scores == (0, 26, 26, 26)


def test_001_which_way_do_i_pass() -> None:
    """001 "Which way do I pass?" — left, right, across, no passing on the fourth; then it repeats."""
    rules = Rules()
    assert [rules.pass_direction(n).value for n in range(8)] == ["left", "right", "across", "hold"] * 2
    hold = HandState(rules, Game(rules, seed=1).hand.dealt, 3)
    assert hold.phase is Phase.PLAY  # no passing at all on the fourth hand


def test_001_can_hearts_be_played_with_three_or_five_people() -> None:
    """001 "Can Hearts be played with three or five people?" — Yes: remove 2♦ (three) or 2♦ and 2♣ (five);
    the lowest club left leads."""
    three, five = Rules(players=3), Rules(players=5)
    assert CardSet(three.removed or ()) == CardSet.parse("2D")
    assert CardSet(five.removed or ()) == CardSet.parse("2C 2D")
    assert str(three.opening_card) == "2C" and str(five.opening_card) == "3C"
    hand = Game(five.replace(pass_cycle="none"), seed=4).hand
    assert hand.legal_plays() == [Card.parse("3C")] and hand.hands[hand.turn] >> Card.parse("3C") & 1


def test_001_everyone_passes_at_the_same_time() -> None:
    """001 "everyone chooses three cards and passes them face down, all at the same time": any order works."""
    deal = [CardSet.parse(h).mask for h in DEAL_BREAK]
    results = []
    for order in ((0, 1, 2, 3), (3, 1, 0, 2)):
        hand = HandState(Rules(), deal, 0)
        for seat in order:
            hand.pass_cards(seat, list(CardSet(hand.dealt[seat]))[:3])
        results.append(tuple(hand.hands))
    assert results[0] == results[1]


def test_001_no_heart_or_queen_on_the_first_trick_even_with_nothing_else() -> None:
    """001 "You may not play a heart or the queen of spades on the very first trick, even if you have nothing
    else [of the suit led], unless your hand is nothing but penalty cards.\""""
    hand = hand_from(NO_PASSING, DEAL_PENALTY_ONLY)
    play_cards(hand, "2C QS")
    # North is void in clubs but holds spades besides the A♥: the heart is barred.
    assert "AH" not in legal(hand) and legal(hand) == CardSet.parse("2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS")


def test_001_some_houses_let_the_shooter_subtract_26() -> None:
    """001 "Some houses let the shooter choose to subtract 26 from their own score instead"."""
    hand, _ = moon_hand(Rules(moon="subtract-from-shooter"))
    assert hand.scores == (-26, 0, 0, 0)
    chooser, _ = moon_hand(Rules(moon="shooter-chooses"))
    chooser.choose_moon(0, "subtract-from-self")
    assert chooser.scores == (-26, 0, 0, 0)


def test_001_twenty_six_points_all_go_to_somebody() -> None:
    """001 "Twenty-six points are given out every hand, and they all go to somebody." """
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    finish(hand)
    assert sum(hand.points) == 26


# -- 003: the spec sheet ---------------------------------------------------------------------


def test_003_specs() -> None:
    """003 "Specs": 4 players, 52 cards (13 each), heart 1, Q♠ 13, 26 a hand, game to 100, 2♣ opens."""
    rules = Rules()
    assert (rules.players, rules.in_play.bit_count(), rules.hand_size) == (4, 52, 13)
    assert (rules.heart_points, rules.queen_points, rules.moon_points, rules.target) == (1, 13, 26, 100)
    assert str(rules.opening_card) == "2C" and rules.opening is OpeningLead.LOWEST_CLUB


def test_003_card_passing_rotation() -> None:
    """003 "Card Passing Rotation": deal 1 left, deal 2 right, deal 3 across, deal 4 no passing; repeats every 4."""
    game = play_out(Game(Rules(target=130), seed=6), random.Random(6))
    expected = ["left", "right", "across", "hold"]
    assert [h.direction.value for h in game.finished] == [expected[i % 4] for i in range(len(game.finished))]
    for h in game.finished:
        if h.direction is PassDirection.HOLD:
            assert all(p is None for p in h.passed)
        else:
            assert all(p is not None and p.bit_count() == 3 for p in h.passed)


def test_003_no_blood_on_the_first_trick() -> None:
    """003: "On the first trick, no Hearts or the Queen of Spades may be played ('no blood on the first trick')"."""
    hand = hand_from(NO_PASSING, DEAL_ONLY_HEARTS)
    play_cards(hand, "2C AC 9C 2S")
    assert hand.tricks[0].winner == 1 and hand.points == [0, 0, 0, 0]


def test_003_hearts_may_be_led_when_the_leader_holds_no_other_suits() -> None:
    """003: hearts cannot be led until broken "or unless the player leading holds no other suits"."""
    only = hand_from(NO_PASSING, DEAL_ONLY_HEARTS)
    play_cards(only, "2C AC 9C 2S")
    assert legal(only) == CardSet(only.hands[1])
    # Holding Q♠ besides the hearts is holding another suit: the queen must be led.
    queen = hand_from(NO_PASSING, DEAL_HEARTS_AND_QUEEN)
    play_cards(queen, "2C AC 9C 8D")
    assert legal(queen) == CardSet.parse("QS")


def test_003_moon_shooter_zero_or_minus_26() -> None:
    """003 "Shooting the Moon": the shooter scores 0 and every opponent +26; alternatively the shooter deducts 26."""
    assert moon_hand(Rules())[0].scores == (0, 26, 26, 26)
    assert moon_hand(Rules(moon="subtract-from-shooter"))[0].scores == (-26, 0, 0, 0)

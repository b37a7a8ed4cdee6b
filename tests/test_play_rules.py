"""One test per rule of play, each named after the rule it pins.

Seats for four players are 0 South, 1 West, 2 North, 3 East; play goes 0 → 1 → 2 → 3 → 0.
The deals below are written out card by card so that each position the rules talk about
(a seat void in the suit led, a leader holding only hearts, ...) arises on purpose.
"""

from __future__ import annotations

import random
from math import comb

import pytest
from tests.conftest import hand_from, play_cards, snapshot

from hearts.core import (
    CardParseError,
    CardSet,
    CardsPassed,
    CardsReceived,
    Game,
    HandState,
    HeartsBroken,
    IllegalMoveError,
    OutOfTurnError,
    PassCards,
    PassDirection,
    Phase,
    PlayCard,
    Rules,
    TrickWon,
)
from hearts.core.cards import Card

NO_PASSING = Rules(pass_cycle="none")

#: Breaking hearts: West wins trick 1 with AC and leads holding hearts and other suits;
#: South runs out of clubs after trick 1 and can discard a heart on a club lead.
DEAL_BREAK = [
    "2C 3D 4D 5D 6D 7D 2S 3S 4S 5S 2H 3H 4H",
    "AC 8D 9D 10D 6S 7S 8S 9S 5H 6H 7H 8H 9H",
    "3C 4C 5C 6C 7C JD QD KD 10S JS 10H JH QH",
    "8C 9C 10C JC QC KC 2D AD QS KS AS KH AH",
]
#: West wins trick 1 with AC and then holds nothing but hearts; East holds every spade.
DEAL_ONLY_HEARTS = [
    "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
    "AC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "9C 10C JC QC KC 8D 9D 10D JD QD KD AD AH",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
]
#: West wins trick 1 with AC and then holds only hearts and Q♠.
DEAL_HEARTS_AND_QUEEN = [
    "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
    "AC QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
    "9C 10C JC QC KC 9D 10D JD QD KD AD KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS 8D",
]
#: One suit per seat: South (all clubs) wins every trick.
DEAL_SUITS = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
]
#: West holds nothing but penalty cards (Q♠ and twelve hearts) and is void in clubs.
DEAL_PENALTY_ONLY = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
]


def cards(text: str) -> list[Card]:
    return list(CardSet.parse(text))


def legal(hand: HandState) -> str:
    return str(CardSet(hand.legal_mask()))


def state_turn(state: HandState | Game) -> int:
    return state.turn if isinstance(state, HandState) else state.hand.turn


def assert_illegal(state: HandState | Game, card: str, *phrases: str) -> None:
    """Playing ``card`` raises IllegalMoveError naming the card and the rule, and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as err:
        state.play(card)
    message = str(err.value)
    parsed = Card.parse(card)
    assert f"illegal play {parsed.symbol()} by " in message  # the card as people read it
    assert err.value.card == parsed and err.value.seat == state_turn(state) and err.value.reason
    for phrase in phrases:
        assert phrase in message
    assert snapshot(state) == before
    assert not state.is_legal_play(card) if isinstance(state, HandState) else True


# -- the deal ---------------------------------------------------------------------------


def test_deal_four_players_thirteen_cards_each_whole_deck() -> None:
    """Deal: four players get 13 cards each and every card is dealt exactly once."""
    game = Game(seed=11)
    hands = game.hand.dealt
    assert [h.bit_count() for h in hands] == [13] * 4
    union = 0
    for h in hands:
        assert not union & h
        union |= h
    assert union == CardSet.deck().mask


@pytest.mark.parametrize(
    ("players", "removed", "size"),
    [(3, "2D", 17), (5, "2C 2D", 10), (6, "3C 4C 2D 3D", 8)],
)
def test_deal_other_player_counts_remove_cards(players: int, removed: str, size: int) -> None:
    """Deal: 3 players remove 2♦ (17 each); 5 remove 2♦ 2♣ (10 each); 6 remove 2♦ 3♦ 3♣ 4♣ (8 each)."""
    rules = Rules(players=players)
    game = Game(rules, seed=3)
    hands = game.hand.dealt
    assert [h.bit_count() for h in hands] == [size] * players
    union = 0
    for h in hands:
        union |= h
    assert CardSet(CardSet.deck().mask & ~union) == CardSet.parse(removed)


def test_deal_is_seeded_and_reproducible() -> None:
    """Deal: the same seed deals the same cards; another seed (or hand) deals others."""
    assert Game(seed=5).hand.dealt == Game(seed=5).hand.dealt
    assert Game(seed=5).hand.dealt != Game(seed=6).hand.dealt
    from hearts.core import seeded_deal

    assert seeded_deal(Rules(), 5, 0) != seeded_deal(Rules(), 5, 1)


def test_deal_can_be_given_explicitly_and_is_checked() -> None:
    """Deal: an explicit deal is used as given, and a deal that is not the cards in play is refused."""
    hand = hand_from(NO_PASSING, DEAL_SUITS)
    assert CardSet(hand.hands[1]) == CardSet.parse(DEAL_SUITS[1])
    masks = [CardSet.parse(h).mask for h in DEAL_SUITS]
    with pytest.raises(IllegalMoveError, match="dealt 12 cards; the rules deal 13"):
        HandState(NO_PASSING, [masks[0] & ~1, *masks[1:]])
    with pytest.raises(IllegalMoveError, match="needs 4 hands, not 3"):
        HandState(NO_PASSING, masks[:3])
    with pytest.raises(IllegalMoveError, match=r"dealt twice"):
        HandState(NO_PASSING, [masks[0], masks[0], masks[2], masks[3]])
    three = Rules(players=3)
    deck = list(CardSet(three.in_play))
    deck[-1] = Card.parse("2D")  # the removed card dealt in place of AH
    thirds = [CardSet(deck[i * 17 : (i + 1) * 17]).mask for i in range(3)]
    with pytest.raises(IllegalMoveError, match=r"exactly the cards in play \(off: 2♦ A♥\)"):
        HandState(three, thirds)


# -- the opening lead -------------------------------------------------------------------


def test_opening_holder_of_two_of_clubs_must_lead_it() -> None:
    """Opening: the holder of 2♣ leads the first trick, and 2♣ is the only card it may lead."""
    hand = hand_from(NO_PASSING, DEAL_ONLY_HEARTS)
    assert hand.phase is Phase.PLAY and hand.to_move == (0,) and hand.leader == 0
    assert legal(hand) == "2C"
    assert_illegal(hand, "3C", "the first trick must be opened with 2♣")


def test_opening_lowest_club_in_play_when_two_of_clubs_is_removed() -> None:
    """Opening: with 2♣ out of the deck (five players) the holder of the lowest club left, 3♣, leads it."""
    rules = Rules(players=5, pass_cycle="none")
    for seed in range(5):
        hand = Game(rules, seed=seed).hand
        assert hand.hands[hand.turn] >> Card.parse("3C") & 1
        assert legal(hand) == "3C"


def test_opening_any_club_option() -> None:
    """Opening (option any-club): the holder of the lowest club leads, but may lead any of its clubs."""
    hand = hand_from(Rules(pass_cycle="none", opening="any-club"), DEAL_ONLY_HEARTS)
    assert hand.turn == 0
    assert legal(hand) == "2C 3C 4C 5C 6C 7C 8C"
    assert_illegal(hand, "2D", "the first trick must be opened with a club")
    play_cards(hand, "8C")
    assert hand.trick == [Card.parse("8C")]


# -- passing ------------------------------------------------------------------------------


def test_pass_every_seat_chooses_three_before_seeing_what_it_receives() -> None:
    """Passing: every seat chooses three cards; nothing arrives until all have chosen."""
    hand = HandState(Rules(), [CardSet.parse(h).mask for h in DEAL_BREAK], 0)
    assert hand.phase is Phase.PASS and hand.to_move == (0, 1, 2, 3)
    assert len(hand.legal_passes(0)) == comb(13, 3)
    hand.pass_cards(2, cards("3C 4C 5C"))
    hand.pass_cards(0, cards("2H 3H 4H"))
    assert hand.to_move == (1, 3)
    # Nothing has moved yet: every seat still holds exactly what it was dealt.
    assert tuple(hand.hands) == hand.dealt
    assert hand.legal_passes(0) == []
    hand.pass_cards(3, cards("QS KS AS"))
    events = hand.pass_cards(1, cards("AC 8D 9D"))
    assert hand.phase is Phase.PLAY
    received = {e.seat: (e.from_seat, e.cards) for e in events if isinstance(e, CardsReceived)}
    assert received == {
        1: (0, CardSet.parse("2H 3H 4H")),
        2: (1, CardSet.parse("AC 8D 9D")),
        3: (2, CardSet.parse("3C 4C 5C")),
        0: (3, CardSet.parse("QS KS AS")),
    }


@pytest.mark.parametrize(
    ("number", "direction", "offset"),
    [(0, PassDirection.LEFT, 1), (1, PassDirection.RIGHT, 3), (2, PassDirection.ACROSS, 2), (4, PassDirection.LEFT, 1)],
)
def test_pass_left_is_the_next_seat_in_playing_order(number: int, direction: PassDirection, offset: int) -> None:
    """Passing: left is the next seat in playing order, right the one before, across two on (four players)."""
    hand = HandState(Rules(), [CardSet.parse(h).mask for h in DEAL_BREAK], number)
    assert hand.direction is direction
    for seat in range(4):
        assert hand.pass_target(seat) == (seat + offset) % 4
        assert hand.pass_source(hand.pass_target(seat)) == seat
    passes = {s: CardSet(list(CardSet(hand.hands[s]))[:3]) for s in range(4)}
    for s in range(4):
        hand.pass_cards(s, passes[s])
    for s in range(4):
        got = passes[(s - offset) % 4].mask
        assert hand.hands[s] & got == got
        assert not hand.hands[s] & passes[s].mask


def test_pass_hold_hand_skips_the_pass() -> None:
    """Passing: the fourth hand of the standard cycle is a hold hand: play starts at once."""
    hand = HandState(Rules(), [CardSet.parse(h).mask for h in DEAL_BREAK], 3)
    assert hand.direction is PassDirection.HOLD
    assert hand.phase is Phase.PLAY and hand.to_move == (0,)
    assert hand.legal_passes(1) == []
    with pytest.raises(OutOfTurnError, match="cannot pass now: the hand is in the play phase"):
        hand.pass_cards(1, cards("AC 8D 9D"))


@pytest.mark.parametrize(
    ("rules", "cycle"),
    [
        (Rules(), "left right across hold"),
        (Rules(players=6), "left right across hold"),
        (Rules(players=3), "left right hold"),
        (Rules(players=5), "left right hold"),
        (Rules.preset("pass-left"), "left"),
        (Rules.preset("no-hold"), "left right across"),
        (Rules.preset("no-hold", players=5), "left right"),
        (Rules.preset("no-passing"), "hold"),
        (Rules(pass_cycle=("across", "right")), "across right"),
    ],
)
def test_pass_cycle_by_player_count_and_option(rules: Rules, cycle: str) -> None:
    """Passing: 4 and 6 players cycle L,R,A,hold; 3 and 5 L,R,hold; options always-left, no-hold, none, custom."""
    words = cycle.split()
    game = Game(rules, seed=2)
    seen = []
    for number in range(2 * len(words)):
        seen.append(HandState(rules, game.hand.dealt, number).direction.value)
    assert seen == words * 2


def test_pass_across_with_six_players_is_three_seats_on() -> None:
    """Passing: across at a table of six goes to the seat three places on."""
    hand = Game(Rules(players=6), seed=1).hand
    hand2 = HandState(hand.rules, hand.dealt, 2)
    assert hand2.direction is PassDirection.ACROSS
    assert [hand2.pass_target(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]


def test_pass_count_option() -> None:
    """Passing (option pass_count): the number of cards passed is an option."""
    hand = HandState(Rules(pass_count=1), [CardSet.parse(h).mask for h in DEAL_BREAK], 0)
    assert len(hand.legal_passes(0)) == 13
    with pytest.raises(IllegalMoveError, match="pass exactly 1 cards, not 3"):
        hand.pass_cards(0, cards("2H 3H 4H"))


@pytest.mark.parametrize(
    ("seat", "given", "error", "phrase"),
    [
        (0, "2H 3H", IllegalMoveError, "illegal pass by South: pass exactly 3 cards, not 2"),
        (0, "2H 3H 4H 5S", IllegalMoveError, "pass exactly 3 cards, not 4"),
        (0, "2H 3H AH", IllegalMoveError, "illegal pass by South: South does not hold A♥"),
        (1, ["5H", "5H", "6H"], IllegalMoveError, "illegal pass by West: 5♥ is given twice"),
        (1, ["5H", "XX", "6H"], CardParseError, "'XX'"),
        (7, "2H 3H 4H", OutOfTurnError, "no seat 7 at a table of 4"),
    ],
)
def test_pass_illegal_passes_are_refused_and_change_nothing(
    seat: int, given: str | list[str], error: type[Exception], phrase: str
) -> None:
    """Passing: a pass of the wrong size, of cards not held or repeated, or by no seat, is refused."""
    game = Game(Rules(), deals={0: [CardSet.parse(h).mask for h in DEAL_BREAK]})
    before = snapshot(game)
    chosen = given.split() if isinstance(given, str) else given
    with pytest.raises(error) as err:
        game.pass_cards(seat, chosen)
    assert phrase in str(err.value)
    assert snapshot(game) == before
    assert not game.is_legal(PassCards(seat, CardSet([c for c in chosen if c != "XX" and c != "5H"] or 0)))


def test_pass_only_once_per_hand() -> None:
    """Passing: a seat passes once; a second pass is out of turn and changes nothing."""
    game = Game(Rules(), deals={0: [CardSet.parse(h).mask for h in DEAL_BREAK]})
    game.pass_cards(0, cards("2H 3H 4H"))
    before = snapshot(game)
    with pytest.raises(OutOfTurnError, match="South has already passed 2♥ 3♥ 4♥"):
        game.pass_cards(0, cards("2S 3S 4S"))
    assert snapshot(game) == before


def test_pass_events_keep_the_cards_private() -> None:
    """Passing: the event of a seat's pass is private to it; others learn only that it has chosen."""
    from hearts.core import visible_to

    hand = HandState(Rules(), [CardSet.parse(h).mask for h in DEAL_BREAK], 0)
    (event,) = hand.pass_cards(0, cards("2H 3H 4H"))
    assert isinstance(event, CardsPassed) and event.private_to == 0
    assert visible_to(event, 0) == event
    redacted = visible_to(event, 1)
    assert isinstance(redacted, CardsPassed) and not redacted.cards and redacted.seat == 0
    for s in (1, 2, 3):
        hand.pass_cards(s, CardSet(list(CardSet(hand.hands[s]))[:3]))
    # Received cards are private to the receiver: nobody else gets the event at all.
    hand2 = HandState(Rules(), [CardSet.parse(h).mask for h in DEAL_BREAK], 0)
    events = [e for s in range(4) for e in hand2.pass_cards(s, CardSet(list(CardSet(hand2.hands[s]))[:3]))]
    for e in events:
        if isinstance(e, CardsReceived):
            assert visible_to(e, e.seat) == e
            assert all(visible_to(e, other) is None for other in (None, *range(4)) if other != e.seat)


# -- the first trick ------------------------------------------------------------------------


def test_first_trick_no_heart_and_no_queen_of_spades() -> None:
    """First trick: a seat void in the suit led may not play a heart or Q♠ while it holds anything else."""
    hand = hand_from(NO_PASSING, DEAL_ONLY_HEARTS)
    play_cards(hand, "2C AC 9C")
    assert hand.turn == 3  # East holds only spades: void in clubs
    assert legal(hand) == "2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS"
    assert_illegal(hand, "QS", "no heart or Q♠ on the first trick")
    hand2 = hand_from(NO_PASSING, DEAL_PENALTY_ONLY)
    play_cards(hand2, "2C QS")
    assert legal(hand2) == "2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS"  # North may not play AH
    assert_illegal(hand2, "AH", "first-trick rule")


def test_first_trick_exception_hand_of_only_penalty_cards() -> None:
    """First trick: a seat whose whole hand is penalty cards may play any of them (hearts or Q♠)."""
    hand = hand_from(NO_PASSING, DEAL_PENALTY_ONLY)
    play_cards(hand, "2C")
    assert CardSet(hand.legal_mask()) == CardSet.parse(DEAL_PENALTY_ONLY[1])
    events = play_cards(hand, "KH")
    assert any(isinstance(e, HeartsBroken) for e in events)


def test_first_trick_points_allowed_option() -> None:
    """First trick (option points_on_first_trick): hearts and Q♠ may be discarded on the first trick."""
    hand = hand_from(Rules(pass_cycle="none", points_on_first_trick=True), DEAL_ONLY_HEARTS)
    play_cards(hand, "2C AC 9C")
    assert legal(hand) == "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    play_cards(hand, "QS")
    assert hand.points[1] == 13  # West's AC took the queen


# -- following suit and taking tricks ---------------------------------------------------------


def test_follow_suit_when_able() -> None:
    """Follow suit: a seat holding the suit led must play it."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, "2C")
    assert legal(hand) == "AC"
    assert_illegal(hand, "8D", "must follow clubs")
    play_cards(hand, "AC 3C 8C 6S")
    assert legal(hand) == "10S JS"
    assert_illegal(hand, "QH", "must follow spades")


def test_void_seat_may_play_any_card_after_the_first_trick() -> None:
    """Follow suit: a seat with none of the suit led may play any card (after the first trick, hearts too)."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, "2C AC 3C 8C  6S 10S AS 2S  KS 3S 7S JS  9C")
    assert hand.turn == 0 and not hand.hands[0] & CardSet.suit(0).mask
    assert CardSet(hand.legal_mask()) == CardSet(hand.hands[0])


def test_highest_card_of_the_suit_led_wins() -> None:
    """Taking tricks: the highest card of the suit led wins; higher cards of other suits do not."""
    hand = hand_from(NO_PASSING, DEAL_SUITS)
    events = play_cards(hand, "2C AH AS AD")
    won = [e for e in events if isinstance(e, TrickWon)]
    assert len(won) == 1 and won[0].seat == 0 and won[0].points == 1
    hand2 = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand2, "2C AC 3C 8C  6S 10S AS 2S")
    assert [t.winner for t in hand2.tricks] == [1, 3]


def test_trick_winner_leads_the_next_trick() -> None:
    """Taking tricks: the winner of a trick leads the next one."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, "2C AC 3C 8C")
    assert hand.tricks[0].winner == 1 and hand.leader == 1 and hand.turn == 1 and hand.to_move == (1,)
    play_cards(hand, "6S 10S AS 2S")
    assert hand.leader == 3 and hand.to_move == (3,)


def test_play_goes_round_in_seat_order() -> None:
    """Turn order: after each card the next seat in playing order (wrapping round) plays."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    turns = []
    for card in "2C AC 3C 8C 6S 10S AS 2S".split():
        turns.append(hand.turn)
        hand.play(card)
    assert turns == [0, 1, 2, 3, 1, 2, 3, 0]


# -- breaking hearts ----------------------------------------------------------------------------


def test_hearts_may_not_be_led_before_they_are_broken() -> None:
    """Breaking hearts: no heart may be led until a heart has been played to an earlier trick."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, "2C AC 3C 8C")
    assert not hand.hearts_broken
    assert legal(hand) == "8D 9D 10D 6S 7S 8S 9S"
    assert_illegal(hand, "5H", "cannot lead a heart: hearts are not broken")


def test_hearts_are_broken_by_a_heart_discarded_on_another_suit() -> None:
    """Breaking hearts: a heart discarded on a trick of another suit breaks hearts; then hearts may be led."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, "2C AC 3C 8C  6S 10S AS 2S  KS 3S 7S JS")
    assert not hand.hearts_broken
    assert "KH" not in legal(hand)
    play_cards(hand, "9C")
    events = play_cards(hand, "2H")
    assert events[1:] == [HeartsBroken(0, Card.parse("2H"))] and hand.hearts_broken
    play_cards(hand, "8D 4C")
    assert hand.leader == 3 and hand.points[3] == 1
    assert "KH AH" in legal(hand)


def test_leader_holding_only_hearts_may_lead_one() -> None:
    """Breaking hearts: a leader holding nothing but hearts may lead one before hearts are broken."""
    hand = hand_from(NO_PASSING, DEAL_ONLY_HEARTS)
    play_cards(hand, "2C AC 9C 2S")
    assert hand.turn == 1 and not hand.hearts_broken
    assert CardSet(hand.legal_mask()) == CardSet(hand.hands[1])
    events = play_cards(hand, "2H")
    assert HeartsBroken(1, Card.parse("2H")) in events


def test_queen_of_spades_does_not_break_hearts() -> None:
    """Breaking hearts: Q♠ does not break hearts in the standard game."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, "2C AC 3C 8C  6S 10S AS 2S  QS 3S 7S JS")
    assert hand.points[3] == 13 and not hand.hearts_broken
    assert legal(hand) == "9C 10C JC QC KC 2D AD KS"


def test_queen_breaks_hearts_house_rule() -> None:
    """Breaking hearts (house rule queen_breaks_hearts): playing Q♠ breaks hearts too."""
    hand = hand_from(Rules.preset("house-queen", pass_cycle="none"), DEAL_BREAK)
    play_cards(hand, "2C AC 3C 8C  6S 10S AS 2S")
    events = play_cards(hand, "QS")
    assert HeartsBroken(3, Card.parse("QS")) in events
    play_cards(hand, "3S 7S JS")
    assert legal(hand) == "9C 10C JC QC KC 2D AD KS KH AH"


def test_hearts_may_be_led_any_time_option() -> None:
    """Breaking hearts (option hearts_must_be_broken=False): hearts may be led at any time."""
    hand = hand_from(Rules(pass_cycle="none", hearts_must_be_broken=False), DEAL_BREAK)
    play_cards(hand, "2C AC 3C 8C")
    assert legal(hand) == str(CardSet(hand.hands[1]))
    play_cards(hand, "9H")
    assert hand.trick == [Card.parse("9H")]


def test_leader_with_only_hearts_and_queen_must_lead_the_queen() -> None:
    """Breaking hearts: a leader holding only hearts and Q♠ before hearts are broken must lead Q♠."""
    hand = hand_from(NO_PASSING, DEAL_HEARTS_AND_QUEEN)
    play_cards(hand, "2C AC 9C 8D")
    assert hand.turn == 1
    assert legal(hand) == "QS"
    assert_illegal(hand, "2H", "cannot lead a heart while holding Q♠: hearts are not broken")


def test_leader_with_only_hearts_and_queen_may_lead_a_heart_option() -> None:
    """Breaking hearts (option heart_lead_with_only_queen): that leader may lead a heart instead."""
    hand = hand_from(Rules(pass_cycle="none", heart_lead_with_only_queen=True), DEAL_HEARTS_AND_QUEEN)
    play_cards(hand, "2C AC 9C 8D")
    assert CardSet(hand.legal_mask()) == CardSet(hand.hands[1])
    play_cards(hand, "2H")


def test_queen_of_spades_may_be_led_any_time() -> None:
    """Leading: spades, the queen included, may be led at any time (the ban is only on hearts)."""
    hand = hand_from(NO_PASSING, DEAL_BREAK)
    play_cards(hand, "2C AC 3C 8C  6S 10S AS 2S")
    assert "QS" in legal(hand) and not hand.hearts_broken
    play_cards(hand, "QS")


# -- the state machine ------------------------------------------------------------------------


def test_state_machine_deal_pass_play_score() -> None:
    """State machine: deal → pass → tricks → score, with who decides and the legal moves at every step."""
    game = Game(Rules(), seed=8)
    assert game.phase is Phase.PASS and game.to_move == (0, 1, 2, 3)
    assert all(len(game.legal_moves(s)) == comb(13, 3) for s in range(4))
    for seat in range(4):
        game.apply(game.legal_moves(seat)[0])
    assert game.phase is Phase.PLAY
    rng = random.Random(0)
    plays = 0
    while game.hand.number == 0:
        (seat,) = game.to_move
        moves = game.legal_moves(seat)
        assert moves and all(isinstance(m, PlayCard) and m.seat == seat for m in moves)
        assert game.legal_moves((seat + 1) % 4) == []
        game.apply(rng.choice(moves))
        plays += 1
    assert plays == 52
    assert len(game.finished) == 1 and game.finished[0].phase is Phase.HAND_OVER
    assert game.hand.number == 1 and game.phase is Phase.PASS and game.hand.direction is PassDirection.RIGHT


def test_illegal_play_names_the_move_and_rule_and_changes_nothing() -> None:
    """State machine: an illegal card raises an error naming the card, the seat and the rule; state unchanged."""
    game = Game(NO_PASSING, deals={0: [CardSet.parse(h).mask for h in DEAL_BREAK]})
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as err:
        game.play("3D")
    assert str(err.value) == "illegal play 3♦ by South: the first trick must be opened with 2♣"
    assert (err.value.card, err.value.seat, err.value.rule) == (Card.parse("3D"), 0, "opening-lead")
    assert err.value.reason == "the first trick must be opened with 2♣"
    with pytest.raises(IllegalMoveError, match="illegal play A♥ by South: South does not hold A♥") as held:
        game.play("AH")
    assert (held.value.card, held.value.seat, held.value.rule) == (Card.parse("AH"), 0, "not-held")
    with pytest.raises(IllegalMoveError):
        game.apply(PlayCard(0, Card.parse("3D")))
    with pytest.raises(CardParseError, match="'ZZ'"):
        game.play("ZZ")
    assert snapshot(game) == before
    assert not game.is_legal(PlayCard(0, Card.parse("3D")))
    assert game.is_legal(PlayCard(0, Card.parse("2C")))


def test_out_of_turn_moves_are_refused_and_change_nothing() -> None:
    """State machine: a play by a seat whose turn it is not, or in the wrong phase, is out of turn."""
    game = Game(NO_PASSING, deals={0: [CardSet.parse(h).mask for h in DEAL_BREAK]})
    before = snapshot(game)
    with pytest.raises(OutOfTurnError, match="cannot play A♣: it is South's turn, not West's"):
        game.play("AC", seat=1)
    with pytest.raises(OutOfTurnError, match="no seat 9 at a table of 4"):
        game.play("2C", seat=9)
    with pytest.raises(OutOfTurnError, match="cannot pass now"):
        game.pass_cards(0, cards("2C 3D 4D"))
    with pytest.raises(OutOfTurnError, match="no moon choice is due"):
        game.choose_moon(0, "add-to-others")
    with pytest.raises(IllegalMoveError, match="not a move"):
        game.apply("2C")  # type: ignore[arg-type]
    assert snapshot(game) == before
    passing = Game(Rules(), seed=1)
    with pytest.raises(OutOfTurnError, match="cannot play 2♣ by South: the hand is in the pass phase"):
        passing.play("2C", seat=0)


def test_a_refused_move_carries_its_card_seat_and_rule() -> None:
    """Errors: a face can phrase a refusal itself from the error's fields, which survive pickling."""
    import pickle

    game = Game(NO_PASSING, deals={0: [CardSet.parse(h).mask for h in DEAL_BREAK]})
    with pytest.raises(IllegalMoveError) as err:
        game.play("AH")
    copy = pickle.loads(pickle.dumps(err.value))
    assert type(copy) is IllegalMoveError and str(copy) == str(err.value)
    assert (copy.card, copy.seat, copy.rule, copy.reason) == (Card.parse("AH"), 0, "not-held", "South does not hold A♥")
    passing = Game(Rules(), seed=1)
    held = CardSet(passing.hand.hands[0])
    given = list(held)[:2] + [next(c for c in CardSet.deck() if c not in held)]
    with pytest.raises(IllegalMoveError) as refused:
        passing.pass_cards(0, given)
    assert refused.value.rule == "not-held" and refused.value.cards == CardSet([given[2]])
    assert str(refused.value) == f"illegal pass by South: South does not hold {given[2].symbol()}"
    with pytest.raises(OutOfTurnError) as early:
        passing.play("2C", 0)
    assert (early.value.rule, early.value.card, early.value.seat) == ("phase", Card.parse("2C"), 0)

"""The medium player's habits in constructed positions, each played out through the engine."""

from __future__ import annotations

import random

from hearts.core import Card, CardSet, Game, HandState, PassCards, PlayCard, Rules, SeatView
from hearts.core.cards import mask_of
from hearts.players import make_player
from hearts.players.easy import EasyPlayer
from hearts.players.medium import MediumPlayer

QS = "QS"


def position(rules: Rules, hands: list[str], plays: str) -> SeatView:
    """Deal ``hands`` (seat 0 first), play ``plays`` in order through the engine, and return the
    view of the seat to play next."""
    state = HandState(rules, [CardSet.parse(h).mask for h in hands])
    for card in plays.split():
        state.play(card)
    return SeatView.of_hand(state, state.turn)


def decide_card(view: SeatView) -> tuple[str, str]:
    decision = MediumPlayer(seed=0).decide(view)
    assert isinstance(decision.move, PlayCard)
    return str(decision.move.card), decision.reason


NO_PASS = Rules.preset("no-passing")


def test_ducks_under_the_trick_while_q_spades_is_out() -> None:
    view = position(
        NO_PASS,
        [
            "2C KS 9S 3S 2D 3D 4D 5D 6D 7D 2H 3H 4H",
            "3C QS 8D 9D 10D JD QD KD AD 5H 6H 7H 8H",
            "4C 5C 6C 7C 8C 9C 10C JC QC KC 9H 10H JH",
            "AC 10S 2S 4S 5S 6S 7S 8S JS AS QH KH AH",
        ],
        "2C 3C 4C AC 10S",
    )
    assert view.seat == 0
    card, why = decide_card(view)
    assert card == "9S"  # the highest spade under 10♠, keeping K♠ off a trick Q♠ may fall on
    assert "Q♠" in why and "duck" in why


def test_dumps_q_spades_when_void() -> None:
    view = position(
        NO_PASS,
        [
            "2C 3C 2D 3D 4D 5D 6D 7D 8D 2S 3S 2H 3H",
            "4C 5C 6C 7C 8C 9C QS 4H 5H 6H 7H 8H 9H",
            "10C JC QC KC 9D 10D JD QD 4S 5S 6S 7S 10H",
            "AC KD AD 8S 9S 10S JS KS AS JH QH KH AH",
        ],
        "2C 9C KC AC KD 8D",
    )
    assert view.seat == 1
    card, why = decide_card(view)
    assert card == QS and "Q♠" in why


def _pass_view(hand: str, rules: Rules | None = None) -> SeatView:
    rules = rules or Rules()
    mine = CardSet.parse(hand).mask
    rest = [c for c in range(52) if not mine >> c & 1]
    random.Random(0).shuffle(rest)
    others = [mask_of(rest[i::3]) for i in range(3)]
    game = Game(rules, deals={0: [mine, *others]})
    return game.view(0)


def test_passes_the_high_spades_when_short_in_spades() -> None:
    view = _pass_view("AS KS QS 2C 5C 9C JD 3D 7D 4H 8H 10H 6H")
    move = MediumPlayer(seed=0).decide(view).move
    assert isinstance(move, PassCards) and move.cards == CardSet.parse("AS KS QS")
    # Q♠ with only two small spades to guard her goes too.
    view = _pass_view("QS 2S 5S 2C 5C 9C JC 3D 7D 9D 4H 8H 6H")
    decision = MediumPlayer(seed=0).decide(view)
    assert "QS" in decision.move.cards.names() and "spades" in decision.reason  # type: ignore[union-attr]


def test_keeps_q_spades_with_long_spades_and_voids_a_short_suit() -> None:
    view = _pass_view("QS 2S 4S 6S 8S 3C 9C 2D 5D 9D 10D JD 2H")
    move = MediumPlayer(seed=0).decide(view).move
    assert isinstance(move, PassCards)
    assert "QS" not in move.cards.names()
    assert {"3C", "9C"} <= set(move.cards.names())  # clubs voided


def test_takes_a_heart_to_stop_a_moon() -> None:
    rules = Rules.preset("no-passing", points_on_first_trick=True)
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC 5H JH",
        "QS 3H 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD",
        "2H 4H KD AD 2S 3S 4S 5S 6S 7S 8S 9S 10S",
        "AC KC 10H JS KS AS 6H 7H 8H 9H QH KH AH",
    ]
    # East takes Q♠ and three hearts in two tricks, then leads 10♥.
    view = position(rules, hands, "2C QS 2H AC KC 3C 3H 4H 10H")
    assert view.seat == 0
    # The words name what decided the move (the policy's reason code) and the seat it named.
    assert decide_card(view) == ("JH", "take a heart with J♥ to stop East's moon")
    # Without the threat (nobody has points) the same cards duck with 5♥.
    calm = position(
        Rules.preset("no-passing", hearts_must_be_broken=False),
        [
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC 5H JH",
            "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
            "KC 2S 3S 4S 5S 6S 7S 8S 9S 10S JS 2H 3H",
            "AC QS KS AS 4H 6H 7H 8H 9H 10H QH KH AH",
        ],
        "2C 2D KC AC 10H",
    )
    assert decide_card(calm)[0] == "5H"


def test_takes_the_jack_of_diamonds_when_safe_in_omnibus() -> None:
    rules = Rules.preset("omnibus", pass_cycle=("hold",))
    hands = [
        "2C 2D AD 3C 4C 5C 6C 7C 8C 9C 10C 2H 3H",
        "JC 3D 4D 6D 7D 8D 9D 10D QD KD 4H 5H 6H",
        "AC 5D 2S 3S 4S 5S 6S 7S 8S 9S 10S JS 7H",
        "QC KC JD QS KS AS 8H 9H 10H JH QH KH AH",
    ]
    view = position(rules, hands, "2C JC AC QC 5D JD")
    assert view.seat == 0
    card, why = decide_card(view)
    assert card == "AD" and "J♦" in why
    # In the standard game the same seat ducks with 2♦.
    plain = position(Rules.preset("no-passing"), hands, "2C JC AC QC 5D JD")
    assert decide_card(plain)[0] == "2D"


def test_keeps_the_bonus_card_when_passing_in_omnibus() -> None:
    view = _pass_view("JD QD 2D AS 4S 9S KC 10C 4C AH KH 3H 2H", Rules.preset("omnibus"))
    move = MediumPlayer(seed=0).decide(view).move
    assert isinstance(move, PassCards) and "JD" not in move.cards.names() and "QD" not in move.cards.names()


def test_easy_follows_low_and_dumps_high() -> None:
    view = position(
        NO_PASS,
        [
            "2C 3C 2D 3D 4D 5D 6D 7D 8D 2S 3S 2H 3H",
            "4C 5C 6C 7C 8C 9C QS 4H 5H 6H 7H 8H 9H",
            "10C JC QC KC 9D 10D JD QD 4S 5S 6S 7S 10H",
            "AC KD AD 8S 9S 10S JS KS AS JH QH KH AH",
        ],
        "2C 9C KC AC KD",
    )
    move = EasyPlayer(seed=0).decide(view).move
    assert move == PlayCard(0, Card.parse("2D"))


def _duplicate(level_a: str, level_b: str, deals: int, rules: Rules) -> tuple[float, float]:
    """Mean points per seat-hand of two levels over the same deals, each deal played twice with the
    seats swapped (a small duplicate match)."""
    from hearts.players.base import play_game

    n = rules.players
    total = {level_a: 0, level_b: 0}
    for d in range(deals):
        for flip in (0, 1):
            levels = [level_a if (s + flip) % 2 == 0 else level_b for s in range(n)]
            game = Game(rules, seed=500 + d)
            play_game(game, [make_player(lv, seed=d * 10 + s) for s, lv in enumerate(levels)], hands=1)
            for s, lv in enumerate(levels):
                total[lv] += game.totals[s]
    count = deals * n  # seat-hands per level (half the seats, twice)
    return total[level_a] / count, total[level_b] / count


def test_medium_beats_random_clearly() -> None:
    medium, rnd = _duplicate("medium", "random", 30, Rules())
    assert medium + 3.0 < rnd, (medium, rnd)


def test_medium_beats_easy() -> None:
    medium, easy = _duplicate("medium", "easy", 30, Rules())
    assert medium < easy, (medium, easy)

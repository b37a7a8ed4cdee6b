"""The moon hunter: a measurement opponent that shoots the moon whenever it plausibly can.

It is not meant to play well (it runs for moons that a good defence stops, at a cost) and is not
offered at tables or in the terminal (docs/players.md, "The moon hunter"): it is there to test the
other levels' moon defence, as an opponent in tournaments and in the ladder
(``benchmarks/bench_ladder.py``, the ``…:hunter`` rungs). It shoots far more often than medium
does, so the moons a level allows it per seat-deal say how well that level stops a shooter.

* **Passing** builds a moon: with a hand of some moon promise (:func:`moon_hand_strength` at
  least :data:`HUNTER_PASS_STRENGTH`, which about half of all dealt hands reach), it keeps its
  hearts and A♠ K♠ Q♠ and passes the side cards whose loss helps a moon most (by the same
  measure), on a tie from its shortest suit (a void), then the lowest. A hand without that promise
  passes as medium does.
* **Playing**: while no other seat has taken a point it plays the medium player's moon plan
  (:func:`hearts.fast.medium.shoot_card`: cash the masters, win what it follows, throw clean cards
  when void) whenever the hand reaches :data:`HUNTER_MOON_STRENGTH` (:func:`hearts.fast.medium.hunts_moon`,
  medium's plan with a lower bar, at any trick), and once it holds a point it keeps running until
  another seat takes one. When the moon is dead it plays as medium (:class:`MediumPlayer`).

Every choice has its reason: medium's words for medium's moves and for the moon plan's ("moon: …"),
and "moon hunt: …" for a pass that builds a moon.
"""

from __future__ import annotations

from hearts.core import CardSet, Rules, SeatView
from hearts.players import compiled
from hearts.players.knowledge import Knowledge, moon_hand_strength, sym
from hearts.players.medium import MediumPlayer, _rules_row, _taken, _words

#: Moon strength (0..1, :func:`moon_hand_strength`) from which the hunter passes to build a moon.
HUNTER_PASS_STRENGTH = 0.25
#: Moon strength from which the hunter plays for the moon while no other seat has a point.
HUNTER_MOON_STRENGTH = 0.4


def moon_pass(view: SeatView) -> list[int]:
    """The cards to pass to build a moon: one at a time, the card a moon builder passes first from
    what is left (:func:`hearts.fast.medium.moon_pass_key`: the side cards before the hearts and
    A♠ K♠ Q♠; first the card whose loss leaves the strongest moon hand, then the shortest suit,
    then the lowest).

    >>> from hearts.core import CARDS, Rules, mask_of
    >>> hand = mask_of("AH KH QH JH 9H 5H QS AS 2C 3C 4D AD KD".split())
    >>> [str(CARDS[c]) for c in _build(Rules(), hand, 3)]
    ['2C', '3C', '4D']
    """
    return _build(view.rules, view.hand.mask, view.rules.pass_count)


def _build(rules: Rules, hand: int, count: int) -> list[int]:
    R = _rules_row(rules)
    left = hand
    chosen: list[int] = []
    while len(chosen) < count:
        card = min((c for c in range(52) if left >> c & 1), key=lambda c: compiled.moon_pass_key(R, left, c))
        chosen.append(card)
        left &= ~(1 << card)
    return chosen


class HunterPlayer(MediumPlayer):
    """Medium's play, but it builds and runs for a moon whenever the hand plausibly allows one."""

    name = "hunter"

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        rules = view.rules
        strength = moon_hand_strength(rules, view.hand.mask)
        if rules.moon.value == "disabled" or strength < HUNTER_PASS_STRENGTH:
            return super().choose_pass(view)
        cards = moon_pass(view)
        return CardSet(cards), "moon hunt: keep my hearts and high spades, pass " + " ".join(sym(c) for c in cards)

    def play_from(self, k: Knowledge, legal: int, running: int = -1) -> tuple[int, str]:
        """The moon plan's card while :meth:`shooting` says so, else the medium player's (against
        ``running``, as medium's is)."""
        if running >= 0 or not self.shooting(k):
            return super().play_from(k, legal, running)
        w = k.winning_card if k.trick else 0
        card, why, who = compiled.shoot_card(_rules_row(k.rules), legal, k.out, len(k.trick), w)
        return card, _words(k, why, card, w, who)

    def shooting(self, k: Knowledge) -> bool:
        """Whether to play for the moon (:func:`hearts.fast.medium.hunts_moon`): no other seat has a
        point, and the hand reaches :data:`HUNTER_MOON_STRENGTH` or this seat already holds a point."""
        return compiled.hunts_moon(
            _rules_row(k.rules), _taken(k), k.seat, k.hand, k.out, k.trick_number, k.points[k.seat],
            HUNTER_MOON_STRENGTH,
        )  # fmt: skip

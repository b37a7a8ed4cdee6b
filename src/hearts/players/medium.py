"""The medium player: a strong rule-based player that plays as a good human does.

It counts cards (:class:`~hearts.players.knowledge.Knowledge`: what is still out and
who has shown a void) and follows the habits of a good player:

* **Passing** gets rid of danger and makes voids: Q♠ and A♠/K♠ when short in spades,
  a whole short club or diamond suit, then high hearts and high cards of short suits.
  In Omnibus it keeps the bonus card and the diamonds that can catch it. With a hand
  that can shoot the moon it passes its low losers instead.
* **Leading**: flush Q♠ with a low spade when it does not hold her or the cards above
  her; otherwise lead low in the suit where the most higher cards are still out.
* **Following**: duck under the winning card with the highest card that still loses;
  drop Q♠ under A♠/K♠; play last to a clean trick with the highest card (shedding it
  for free); take the bonus card (J♦ or 10♦) when the trick is safe.
* **Discarding** (void): dump Q♠, then A♠/K♠ while Q♠ is out, then the highest heart
  or the highest card of a short suit.
* **The moon**: when one opponent has every point so far and could run, take a heart
  (beat the would-be shooter, and never feed it points); with a hand that can take
  everything, and no one else holding a point, play to shoot.

Every choice comes with a one-line reason. The card play and the moon plan are written once, in
:mod:`hearts.fast.medium` (compiled, and run by the kernels as the ``medium`` rollout policy too):
this player tells it what its seat knows and puts the reason code it gets back into words. The
pass is this module's own (the kernels pass as the greedy policy does).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from hearts.core import CARDS, Card, CardSet, Rules, SeatView
from hearts.core.cards import HEARTS, QS_BIT, SUIT_MASKS
from hearts.players import compiled
from hearts.players.base import Player
from hearts.players.knowledge import (
    AS,
    HIGH_SPADES,
    KS,
    QS,
    Knowledge,
    bottom,
    lowest_rank,
    moon_hand_strength,
    sym,
)

if TYPE_CHECKING:
    from hearts.players.compiled import Ints

#: Moon strength (0..1, :func:`moon_hand_strength`) at which the player keeps a moon hand when passing.
MOON_PASS_STRENGTH = 0.78
SUIT_NAMES = ("clubs", "diamonds", "spades", "hearts")


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def pass_danger(rules: Rules, hand: int, card: int) -> float:
    """How much a good player wants rid of ``card`` from ``hand`` when passing (higher passes first).
    Written once, compiled: :func:`hearts.fast.medium.pass_danger`, which the search's reading of a
    pass received reads too.

    >>> from hearts.core import mask_of
    >>> hand = mask_of("QS 3S AH 2C".split())
    >>> [pass_danger(Rules(), hand, c) for c in (36, 3 * 13 + 12, 0)]
    [100.0, 56.0, 8.0]
    """
    return compiled.pass_danger(_rules_row(rules), hand, card)


class MediumPlayer(Player):
    """A rule-based player with card counting, ducking, Q♠ tactics, Omnibus and moon play."""

    name = "medium"

    # -- passing -------------------------------------------------------------------

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        rules = view.rules
        hand = view.hand.mask
        count = rules.pass_count
        if rules.moon.value != "disabled" and moon_hand_strength(rules, hand) >= MOON_PASS_STRENGTH:
            keep = hand & HEARTS | hand & QS_BIT | hand & HIGH_SPADES
            spare = hand & ~keep
            losers: list[int] = []
            while len(losers) < count:
                c = lowest_rank(spare) if spare else lowest_rank(hand & ~_mask(losers))
                losers.append(c)
                spare &= ~(1 << c)
            return CardSet(losers), "moon hand: pass my low losers " + " ".join(sym(c) for c in losers)
        chosen: list[int] = []
        why: list[str] = []
        danger = {c: pass_danger(rules, hand, c) for c in range(52) if hand >> c & 1}
        # 1. Spade danger first.
        for c in (QS, AS, KS):
            if hand >> c & 1 and danger[c] >= 60 and len(chosen) < count:
                chosen.append(c)
        if chosen:
            why.append("short in spades: pass " + " ".join(sym(c) for c in chosen))
        # 2. A void in a short side suit (clubs or diamonds), if it fits in what is left.
        room = count - len(chosen)
        best_suit = -1
        for s in (0, 1):
            cards = hand & SUIT_MASKS[s]
            if not cards or cards.bit_count() > room:
                continue
            if rules.bonus_card is not None and s == rules.bonus_card // 13 and cards >> rules.bonus_card:
                continue  # the bonus card or its catchers are in it: keep them
            if best_suit < 0 or cards.bit_count() < (hand & SUIT_MASKS[best_suit]).bit_count():
                best_suit = s
        if best_suit >= 0 and room:
            voided = [c for c in range(52) if (hand & SUIT_MASKS[best_suit]) >> c & 1]
            chosen.extend(voided)
            why.append(f"void {SUIT_NAMES[best_suit]}")
        # 3. Fill with the most dangerous of the rest.
        rest = sorted((c for c in danger if c not in chosen), key=lambda c: (-danger[c], c))
        extra = rest[: count - len(chosen)]
        chosen.extend(extra)
        if extra:
            why.append("shed high cards " + " ".join(sym(c) for c in extra))
        return CardSet(chosen), "; ".join(why)

    # -- playing ---------------------------------------------------------------------

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        legal = _mask(view.legal)
        if legal & (legal - 1) == 0:
            return CARDS[bottom(legal)], "the only legal card"
        k = Knowledge.of(view)
        card, why = self.play_from(k, legal)
        return CARDS[card], why

    def play_from(self, k: Knowledge, legal: int, running: int = -1) -> tuple[int, str]:
        """The card to play from ``legal`` given knowledge ``k``, and why in words (public so other
        players can reuse it): :func:`hearts.fast.medium.medium_choice`'s card, its moon plan included.
        ``running`` names a seat taken to be running for the moon (-1: none but medium's own reading
        of the points taken): the card then defends against it."""
        trick = k.trick
        voids = 0 if trick else k.void_bits()  # only the lead weighs the voids
        w = k.winning_card if trick else 0
        card, why, who = compiled.medium_choice(
            _rules_row(k.rules), _taken(k), k.seat, k.hand, k.out, voids, k.trick_number, k.points[k.seat],
            legal, len(trick), w, k.winning_seat, k.trick_mask, running,
        )  # fmt: skip
        return card, _words(k, why, card, w, who)

    def shooting(self, k: Knowledge) -> bool:
        """Whether to play for the moon (:func:`hearts.fast.medium.plays_for_moon`): nobody else
        holds a point and the hand is strong enough, or this seat already has most of the points
        and holds the top heart still out."""
        return compiled.plays_for_moon(
            _rules_row(k.rules), _taken(k), k.seat, k.hand, k.out, k.trick_number, k.points[k.seat]
        )


def _rules_row(rules: Rules) -> Ints:
    return compiled.rules_array(rules)


def _taken(k: Knowledge) -> Ints:
    import numpy as np

    return np.array(k.taken, dtype=np.int64)


#: The words of each reason code of :func:`hearts.fast.medium.medium_choice` (by the code's name):
#: ``{c}`` the card, ``{w}`` the card winning the trick, ``{who}`` the seat the reason names,
#: ``{b}`` the bonus card and ``{pts}`` its points.
REASONS = {
    "ONLY": "the only legal card",
    "RUNNING": "moon: play {c} to take every point",
    "MOON_MASTER": "moon: lead the master {c}",
    "MOON_LEAD_HIGH": "moon: lead high with {c}",
    "MOON_WIN": "moon: win with {c}",
    "MOON_THROW": "moon: throw away {c}",
    "LEAD_STOP_MOON": "lead {c} to take a heart: {who} may shoot",
    "FLUSH_QUEEN": "flush Q♠: lead {c} under her",
    "LEAD_LOW": "lead low with {c}: higher cards are still out",
    "LEAD_WINNER": "lead {c}: every card left is a winner",
    "FIRST_TRICK": "first trick carries no points: shed {c}",
    "TAKE_HEART_STOP_MOON": "take a heart with {c} to stop {who}'s moon",
    "WIN_BONUS": "win the trick with {c}: it scores {pts}",
    "TAKE_BONUS": "take {b} with {c}: it scores {pts}",
    "LAST_CLEAN": "last to a clean trick: win it with {c} to shed it",
    "DUCK": "duck under {w} with {c}",
    "CANNOT_DUCK": "cannot duck {w}: take it with my highest, {c}",
    "DROP_QUEEN": "drop Q♠ under {w}",
    "DUCK_KEEP_QUEEN": "duck under {w} with {c}, keeping Q♠ covered",
    "WIN_NOT_QUEEN": "cannot duck: win with {c}, not Q♠",
    "ONLY_QUEEN": "only Q♠ left to follow",
    "LAST_CLEAN_SPADE": "last to a clean spade trick: shed {c}",
    "DUCK_QUEEN_OUT": "duck under {w} with {c}: Q♠ is still out",
    "WIN_LOW_QUEEN_OUT": "cannot duck: win low with {c}, Q♠ is still out",
    "CANNOT_DUCK_SPADE": "cannot duck {w}: play {c}",
    "NO_POINTS_TO_SHOOTER": "give no points to {who}, who may shoot: throw {c}",
    "DUMP_QUEEN": "void: dump Q♠ on {who}",
    "DUMP_HIGH_SPADE": "void: dump {c} while Q♠ is still out",
    "DUMP_HEART": "void: dump the heart {c} on {who}",
    "THROW_HIGH": "void: throw my high {c}",
}
_BY_CODE: dict[int, str] = {}


def _words(k: Knowledge, why: int, card: int, w: int, who: int) -> str:
    """The reason code ``why`` of ``card`` in words."""
    if not _BY_CODE:
        codes = compiled.reason_codes()
        _BY_CODE.update({codes[name]: text for name, text in REASONS.items()})
    from hearts.core import seat_name

    rules = k.rules
    b = rules.bonus_card
    return _BY_CODE[why].format(
        c=sym(card),
        w=sym(w),
        who=seat_name(who, k.players) if who >= 0 else "",
        b=sym(b) if b is not None else "",
        pts=rules.bonus_points,
    )

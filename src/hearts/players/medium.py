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

Every choice comes with a one-line reason.
"""

from __future__ import annotations

from collections.abc import Iterable

from hearts.core import CARDS, Card, CardSet, Rules, SeatView
from hearts.core.cards import HEARTS, QS_BIT, SUIT_MASKS
from hearts.players.base import Player
from hearts.players.knowledge import (
    AS,
    HIGH_SPADES,
    KS,
    QS,
    SPADES,
    Knowledge,
    bottom,
    highest_rank,
    lowest_rank,
    moon_hand_strength,
    sym,
    top,
)

#: Moon strength (0..1, :func:`moon_hand_strength`) at which the player keeps a moon hand when passing.
MOON_PASS_STRENGTH = 0.78
#: Strength at which it plays for the moon while no other seat has a point.
MOON_PLAY_STRENGTH = 0.72
SUIT_NAMES = ("clubs", "diamonds", "spades", "hearts")


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def pass_danger(rules: Rules, hand: int, card: int) -> float:
    """How much a good player wants rid of ``card`` from ``hand`` when passing (higher passes first)."""
    bit = 1 << card
    suit = card // 13
    rank = card % 13  # 0 for a two .. 12 for an ace
    length = (hand & SUIT_MASKS[suit]).bit_count()
    bonus = rules.bonus_card
    if bonus is not None:
        if card == bonus:
            return -100.0  # worth points to whoever takes it: keep it
        if suit == bonus // 13 and card > bonus:
            return -20.0 + rank  # the cards that can catch the bonus card
    if suit == 2:
        low_spades = (hand & SPADES & ((1 << QS) - 1)).bit_count()
        if card == QS:
            return 100.0 if low_spades < 3 else -30.0
        if bit & HIGH_SPADES:
            if hand & QS_BIT:
                return 60.0 if low_spades < 3 else -10.0
            return 90.0 + rank if low_spades < 3 else 20.0 + rank
        return -10.0 + rank * 0.5  # low spades guard against the queen
    if suit == 3:
        return 8.0 + rank * 4.0
    return rank * 3.0 + max(0, 5 - length) * 2.0


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

    def play_from(self, k: Knowledge, legal: int) -> tuple[int, str]:
        """The card to play from ``legal`` given knowledge ``k`` (public so other players can reuse it)."""
        if self.shooting(k):
            return self._shoot(k, legal)
        if not k.trick:
            return self._lead(k, legal)
        if legal & SUIT_MASKS[k.led_suit]:
            return self._follow(k, legal)
        return self._discard(k, legal)

    # -- the moon plan -------------------------------------------------------------

    def shooting(self, k: Knowledge) -> bool:
        """Whether to play for the moon: nobody else holds a point and the hand is strong enough,
        or this seat already has most of the points and holds the top heart still out."""
        if not k.moon_still_open_for_me():
            return False
        mine = k.points[k.seat]
        if k.trick_number <= 1 and moon_hand_strength(k.rules, k.hand) >= MOON_PLAY_STRENGTH:
            return True
        hearts_out = k.out & HEARTS
        if mine >= k.rules.moon_points - 8 and (
            not hearts_out or (k.hand & HEARTS).bit_length() > hearts_out.bit_length()
        ):
            return True
        return False

    def _shoot(self, k: Knowledge, legal: int) -> tuple[int, str]:
        if not k.trick:
            # Lead a sure winner (the top card still out in its suit), hearts last once safe.
            for s in (2, 0, 1, 3):
                mine = legal & SUIT_MASKS[s]
                if mine and not k.higher_out(top(mine)):
                    return top(mine), f"moon: lead the master {sym(top(mine))}"
            c = highest_rank(legal)
            return c, f"moon: lead high with {sym(c)}"
        led = k.led_suit
        follow = legal & SUIT_MASKS[led]
        if follow:
            c = top(follow)
            return c, f"moon: win with {sym(c)}"
        spare = legal & ~k.rules.penalty_mask
        c = lowest_rank(spare) if spare else lowest_rank(legal)
        return c, f"moon: throw away {sym(c)}"

    # -- leading -----------------------------------------------------------------------

    def _lead(self, k: Knowledge, legal: int) -> tuple[int, str]:
        threat = k.moon_threat()
        if threat >= 0:
            hearts = legal & HEARTS
            if hearts and not k.higher_out(top(hearts)) and k.out & HEARTS:
                return top(hearts), f"lead {sym(top(hearts))} to take a heart: {self._who(k, threat)} may shoot"
        spades = legal & SPADES
        if spades and k.is_out(QS) and not k.hand & HIGH_SPADES and bottom(spades) < QS:
            c = top(spades & ((1 << QS) - 1))
            return c, f"flush Q♠: lead {sym(c)} under her"
        best, best_score = -1, -1e9
        for s in range(4):
            mine = legal & SUIT_MASKS[s]
            if not mine:
                continue
            c = bottom(mine)
            higher = k.higher_out(c).bit_count()
            lower = k.lower_out(c).bit_count()
            score = (10.0 if higher else -10.0) + min(higher, 6) - 0.5 * lower - 0.3 * mine.bit_count()
            voids = sum(1 for o in range(k.players) if o != k.seat and not k.can_have_suit(o, s))
            score -= 2.0 * voids  # a void seat discards points on whoever wins
            if s == 2:
                if k.hand & QS_BIT:
                    # Leading her is only good when A♠/K♠ are out to catch her.
                    score += (5.0 if k.out & HIGH_SPADES else -30.0) if c == QS else -15.0
                elif k.hand & HIGH_SPADES and k.is_out(QS) and c > QS:
                    score -= 12.0
            if s == 3:
                score -= 1.5
            b = k.bonus_card()
            if b >= 0 and s == b // 13 and k.hand >> b & 1:
                score -= 3.0  # keep the suit that protects the bonus card
            if score > best_score:
                best, best_score = c, score
        if k.higher_out(best):
            return best, f"lead low with {sym(best)}: higher cards are still out"
        return best, f"lead {sym(best)}: every card left is a winner"

    # -- following suit ----------------------------------------------------------------------

    def _follow(self, k: Knowledge, legal: int) -> tuple[int, str]:
        rules = k.rules
        w = k.winning_card
        led = k.led_suit
        last = not k.still_to_play
        pts = k.trick_points()
        below = legal & ((1 << w) - 1)
        above = legal & ~((1 << w) - 1)
        if (
            k.first_trick()
            and not rules.points_on_first_trick
            and not (k.bonus_card() >= 0 and led == k.bonus_card() // 13)
        ):
            c = top(legal)
            return c, f"first trick carries no points: shed {sym(c)}"
        threat = k.moon_threat()
        if threat >= 0 and k.winning_seat == threat and above and (k.trick_mask & HEARTS or led == 3):
            c = bottom(above & ~QS_BIT) if above & ~QS_BIT else bottom(above)
            return c, f"take a heart with {sym(c)} to stop {self._who(k, threat)}'s moon"
        b = k.bonus_card()
        if b >= 0 and led == b // 13 and pts <= 0:
            bonus_here = bool(k.trick_mask >> b & 1) or bool(k.hand >> b & 1)
            if bonus_here:
                if legal >> b & 1 and b > w and (last or not k.higher_out(b)):
                    return b, f"win the trick with {sym(b)}: it scores {rules.bonus_points}"
                winners = [
                    c for c in range(led * 13, led * 13 + 13) if above >> c & 1 and (last or not k.higher_out(c))
                ]
                if winners and k.trick_mask >> b & 1:
                    return winners[0], f"take {sym(b)} with {sym(winners[0])}: it scores {rules.bonus_points}"
        if led == 2:
            return self._follow_spades(k, legal, w, last, pts, below, above)
        if last and pts <= 0 and led != 3:
            c = top(legal)
            return c, f"last to a clean trick: win it with {sym(c)} to shed it"
        if below:
            c = top(below)
            return c, f"duck under {sym(w)} with {sym(c)}"
        c = top(legal)
        return c, f"cannot duck {sym(w)}: take it with my highest, {sym(c)}"

    def _follow_spades(
        self, k: Knowledge, legal: int, w: int, last: bool, pts: int, below: int, above: int
    ) -> tuple[int, str]:
        if legal & QS_BIT:
            if w > QS:
                return QS, f"drop Q♠ under {sym(w)}"
            safe_below = below
            if safe_below:
                c = top(safe_below)
                return c, f"duck under {sym(w)} with {sym(c)}, keeping Q♠ covered"
            others = legal & ~QS_BIT
            if others:
                c = top(others)
                return c, f"cannot duck: win with {sym(c)}, not Q♠"
            return QS, "only Q♠ left to follow"
        queen_out = k.is_out(QS) and not k.trick_mask & QS_BIT
        if last and not k.trick_mask & QS_BIT and pts <= 0:
            c = top(legal)
            return c, f"last to a clean spade trick: shed {sym(c)}"
        if below:
            c = top(below)
            reason = f"duck under {sym(w)} with {sym(c)}"
            if queen_out and c < QS:
                reason += ": Q♠ is still out"
            return c, reason
        if queen_out:
            under_q = above & ((1 << QS) - 1)
            if under_q:
                c = top(under_q)
                return c, f"cannot duck: win low with {sym(c)}, Q♠ is still out"
        c = bottom(above) if queen_out else top(legal)
        return c, f"cannot duck {sym(w)}: play {sym(c)}"

    # -- discarding ------------------------------------------------------------------------

    def _discard(self, k: Knowledge, legal: int) -> tuple[int, str]:
        rules = k.rules
        b = k.bonus_card()
        keep_bonus = legal & ~(1 << b) if b >= 0 else legal
        if keep_bonus:
            legal = keep_bonus
        threat = k.moon_threat()
        winner = k.winning_seat
        if threat >= 0 and winner == threat:
            clean = legal & ~rules.penalty_mask
            if clean:
                c = highest_rank(clean)
                return c, f"give no points to {self._who(k, threat)}, who may shoot: throw {sym(c)}"
        if legal & QS_BIT:
            return QS, f"void: dump Q♠ on {self._who(k, winner)}"
        high_spades = legal & HIGH_SPADES
        if high_spades and k.is_out(QS):
            c = top(high_spades)
            return c, f"void: dump {sym(c)} while Q♠ is still out"
        best, best_score = -1, -1e9
        for s in range(4):
            mine = legal & SUIT_MASKS[s]
            if not mine:
                continue
            c = top(mine)
            score = c % 13 + (3.0 if s == 3 else 0.0) + max(0, 3 - mine.bit_count()) * 1.0
            if not k.lower_out(c) and s != 3:
                score -= 4.0  # nothing lower is out: this card can never win a trick, so keep it
            if score > best_score:
                best, best_score = c, score
        if best // 13 == 3:
            return best, f"void: dump the heart {sym(best)} on {self._who(k, winner)}"
        return best, f"void: throw my high {sym(best)}"

    @staticmethod
    def _who(k: Knowledge, seat: int) -> str:
        from hearts.core import seat_name

        return seat_name(seat, k.players)

"""The searched pass of the hard and expert players (:class:`PassSearch`, a base of
:class:`hearts.players.search.SearchPlayer`).

The pass is chosen from a reference pass (medium's; with :attr:`PassSearch.moon_safe_passes`,
medium's with A♥, K♥ and Q♥ kept) and a few alternatives (:meth:`PassSearch.pass_candidates`): the
combinations of the most dangerous cards, and of the most dangerous cards other than the top
hearts. Each is played out in the same sampled deals, the other seats passing their own most
dangerous cards (:func:`quick_pass`) and playing the pass search's model of them
(``pass_opponent_policy``: ``"medium-moon"``, so a pass that makes the receiver a moon hand pays
for the moons it feeds). The reference pass is kept unless another clearly beats it.

>>> from hearts.core import Rules
>>> hand = CardSet.parse("AH KH QS 2C 3C 4D 5D 6D 7S 8S 9H 10H JC")
>>> CardSet(quick_pass(Rules(), hand.mask))  # another seat's pass in the played-out deals
CardSet('QS KH AH')
"""

from __future__ import annotations

import time
from itertools import combinations
from typing import Any

from hearts.core import CardSet, Rules, SeatView
from hearts.core.cards import cards_of
from hearts.players.knowledge import sym
from hearts.players.medium import MediumPlayer, pass_danger
from hearts.players.valuation import clearly_better

__all__ = ["MOON_STOPPERS", "PassSearch", "quick_pass"]

#: A♥, K♥ and Q♥: the hearts a moon needs and a defender stops one with.
MOON_STOPPERS = sum(1 << c for c in (49, 50, 51))
#: How the medium player's pass reason names the high cards it sheds.
_SHED = "shed high cards "


class PassSearch(MediumPlayer):
    """The pass searched in sampled deals (see the module docstring). The search's settings and
    its compiled rollouts (:meth:`_rollouts`, :meth:`_utilities`) are the subclass's:
    :class:`hearts.players.search.SearchPlayer`."""

    #: The compiled policy of the other seats in the pass search's rollouts; None: the
    #: :attr:`opponent_policy`. ``"medium-moon"``: a seat whose hand after the pass can shoot runs
    #: for the moon, so a pass that makes the receiver a moon hand (top hearts, the spades that
    #: hold Q♠) pays for the moons it feeds. Under plain ``"medium"`` no seat plays for the moon
    #: there (it takes every point only by accident), and the search saw little beyond what such
    #: a pass saves this seat. Hard sets ``None``.
    default_pass_opponent_policy: str | None = "medium-moon"
    #: Whether the pass search also tries passes that keep the top hearts (:data:`MOON_STOPPERS`),
    #: beside the combinations of the most dangerous cards, which mostly give them away.
    default_moon_safe_passes = True
    #: The cards a moon-safe pass keeps (:data:`MOON_STOPPERS`: A♥, K♥ and Q♥).
    moon_safe_keeps = MOON_STOPPERS

    # What the search player sets (see SearchPlayer.__init__).
    search_pass: bool
    moon_safe_passes: bool
    budget: float
    budget_share: float
    max_worlds: int
    prior_margin: float
    rollouts_per_world: int
    max_repeats: int
    kernels: Any
    _policy: int
    _pass_opp_policy: int
    last_worlds: int
    last_rollouts: int
    _last_figures: tuple[Any, ...] | None

    def _rollouts(self, W: Any, R: Any, cards: Any, rows: Any, seeds: Any, totals: Any, voids: int) -> Any:
        raise NotImplementedError

    @staticmethod
    def _utilities(view: SeatView, scores: Any, endgame: bool) -> Any:
        raise NotImplementedError

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        base, why = self.reference_pass(view)
        self.last_worlds = self.last_rollouts = 0
        self._last_figures = None
        if not self.search_pass:
            return base, why
        return self._search_pass(view, base, why)

    def reference_pass(self, view: SeatView) -> tuple[CardSet, str]:
        """The rule-based pass the search must clearly beat, and why: medium's, except that with
        :attr:`moon_safe_passes` (when moons count) the top hearts in it (:data:`MOON_STOPPERS`) are
        kept and the next most dangerous cards passed instead. A top heart is what a receiver most
        needs to shoot and what this seat stops a moon with; passing one feeds moons that the
        search, whose other seats shoot only with a moon hand, sees too seldom to charge for."""
        base, why = super().choose_pass(view)
        top = base.mask & self.moon_safe_keeps
        if not (top and self.moon_safe_passes and view.rules.moon.value != "disabled"):
            return base, why
        rules = view.rules
        hand = view.hand.mask
        spare = sorted(
            (c for c in cards_of(hand & ~base.mask & ~self.moon_safe_keeps)),
            key=lambda c: (-pass_danger(rules, hand, c), c),
        )
        swap = spare[: top.bit_count()]
        if len(swap) < top.bit_count():
            return base, why  # nothing else to pass
        mask = base.mask & ~top
        for c in swap:
            mask |= 1 << c
        # Medium names the top hearts among the high cards it sheds: name the cards shed instead.
        gone = {sym(c) for c in cards_of(top)}
        parts = [part for part in why.split("; ") if not part.startswith(_SHED)]
        shed = [name for part in why.split("; ") if part.startswith(_SHED) for name in part[len(_SHED) :].split()]
        shed = [name for name in shed if name not in gone] + [sym(c) for c in swap]
        parts += [_SHED + " ".join(shed), "keep " + " ".join(sym(c) for c in cards_of(top)) + " to stop a moon"]
        return CardSet(mask), "; ".join(parts)

    #: Passes searched at most (the reference pass counts as one).
    max_pass_candidates = 12

    def pass_candidates(self, view: SeatView, base: CardSet) -> list[int]:
        """The passes worth searching: medium's, the combinations of the most dangerous cards, and
        (with :attr:`moon_safe_passes`, when moons count) the combinations of the most dangerous
        cards other than the top hearts, which a receiver needs to shoot and a defender to stop one."""
        rules = view.rules
        hand = view.hand.mask
        count = rules.pass_count
        ranked = sorted(cards_of(hand), key=lambda c: (-pass_danger(rules, hand, c), c))
        pools = [ranked[: count + 2]]
        if self.moon_safe_passes and rules.moon.value != "disabled":
            kept = [c for c in ranked if not self.moon_safe_keeps >> c & 1]
            if len(kept) >= count and kept[:count] != pools[0][:count]:
                pools.append(kept[: count + 2])
        out = [base.mask]
        plain = MediumPlayer.choose_pass(self, view)[0].mask
        if plain not in out:
            out.append(plain)
        for pool in pools:
            for combo in combinations(pool, count):
                m = 0
                for c in combo:
                    m |= 1 << c
                if m not in out:
                    out.append(m)
        return out[: self.max_pass_candidates]

    def _search_pass(
        self, view: SeatView, base: CardSet, base_why: str, also: tuple[int, ...] = ()
    ) -> tuple[CardSet, str]:
        """The searched pass: every candidate (:meth:`pass_candidates`, and the passes ``also``, as
        masks) played out in the same sampled deals; the reference pass ``base`` is kept unless
        another clearly beats it."""
        start = time.perf_counter()
        rules = view.rules
        n = rules.players
        me = view.seat
        hand = view.hand.mask
        cands = self.pass_candidates(view, base)
        cands += [m for m in also if m not in cands]
        rng = self.view_rng(view)
        deadline = start + self.budget * self.budget_share
        endgame = max(view.totals) + rules.moon_points >= rules.target
        vals: list[list[float]] = [[] for _ in cands]
        own = [0.0] * len(cands)
        unseen = cards_of(rules.in_play & ~hand)
        kern = self.kernels
        import numpy as np

        from hearts.fast.bridge import _rules_array_shared

        R = _rules_array_shared(rules)
        offset = int(kern.pass_offset(R, view.hand_number))
        cand_masks = np.array(cands, dtype=np.int64)
        no_card = np.array([-1], dtype=np.int64)
        policies = np.array([[self._policy if s == me else self._pass_opp_policy for s in range(n)]], dtype=np.int64)
        totals = np.array(view.totals, dtype=np.int64)
        reps = max(1, min(self.max_repeats, self.rollouts_per_world // len(cands)))
        worlds = 0
        while True:
            rng.shuffle(unseen)
            dealt = [0] * n
            others = [s for s in range(n) if s != me]
            for j, c in enumerate(unseen):
                dealt[others[j % (n - 1)]] |= 1 << c
            dealt[me] = hand
            passes = [quick_pass(rules, dealt[s]) for s in range(n)]
            # Each candidate pass's position is one row; every row meets the same random numbers.
            row_seeds = [rng.getrandbits(31) for _ in range(reps)]
            W = kern.pass_positions(
                R, np.array(dealt, dtype=np.int64), np.array(passes, dtype=np.int64), me, cand_masks, offset
            )
            seeds = np.array([row_seeds] * len(cands), dtype=np.int64)
            scores = self._rollouts(W, R, no_card, policies, seeds, totals, 0)
            util = self._utilities(view, scores[:, :, 0, 0, :], endgame).mean(axis=1)
            mine_pts = scores[:, :, 0, 0, me].mean(axis=1)
            for i in range(len(cands)):
                vals[i].append(float(util[i]))
                own[i] += float(mine_pts[i])
            worlds += 1
            if worlds >= self.max_worlds:
                break
            if time.perf_counter() >= deadline:
                break
        self.last_worlds = worlds
        self.last_rollouts = worlds * len(cands) * reps
        self._last_figures = (cands, vals, own, worlds)
        best = max(range(len(cands)), key=lambda i: sum(vals[i]))
        if best and not clearly_better(vals[best], vals[0], self.prior_margin):
            best = 0  # medium's pass (candidate 0) unless the search clearly beats it
        chosen = CardSet(cands[best])
        plain = " ".join(c.symbol() for c in base)
        tail = f"{own[best] / worlds:.1f} pts expected over {worlds} deals"
        if cands[best] == base.mask:
            return chosen, f"{base_why} ({tail})"
        return (
            chosen,
            f"pass {' '.join(c.symbol() for c in chosen)}: better than {plain} in the deals played out"
            f" ({tail}; {own[0] / worlds:.1f} for {plain})",
        )


def quick_pass(rules: Rules, hand: int) -> int:
    """The other seats' pass in a pass search: the most dangerous cards by medium's measure."""
    ranked = sorted(cards_of(hand), key=lambda c: -pass_danger(rules, hand, c))
    m = 0
    for c in ranked[: rules.pass_count]:
        m |= 1 << c
    return m

"""The searched pass of the search players (:class:`PassSearch`, which a
:class:`~hearts.players.search.SearchPlayer` holds).

The pass is chosen from a reference pass (medium's; with ``moon_safe_passes``, medium's with A♥, K♥
and Q♥ kept) and a few alternatives (:meth:`PassSearch.candidates`): the combinations of the most
dangerous cards, and of the most dangerous cards other than the top hearts. Each is played out in
the same sampled deals, the other seats passing their own most dangerous cards (:func:`quick_pass`)
and playing the config's ``pass_opponents`` policy (``"medium-moon"``: a pass that makes the receiver
a moon hand pays for the moons it feeds). The reference pass is kept unless another clearly beats it.

>>> from hearts.core import Rules
>>> hand = CardSet.parse("AH KH QS 2C 3C 4D 5D 6D 7S 8S 9H 10H JC")
>>> CardSet(quick_pass(Rules(), hand.mask))  # another seat's pass in the played-out deals
CardSet('QS KH AH')
"""

from __future__ import annotations

import random
from itertools import combinations

from hearts.core import CardSet, Rules, SeatView
from hearts.core.cards import cards_of
from hearts.players import compiled as fast
from hearts.players.knowledge import sym
from hearts.players.medium import MediumPlayer, pass_danger
from hearts.players.rollouts import Measure, Rollouts, endgame_near, utilities
from hearts.players.search_config import SearchConfig
from hearts.players.valuation import clearly_better

__all__ = ["MOON_STOPPERS", "PassSearch", "quick_pass"]

#: A♥, K♥ and Q♥: the hearts a moon needs and a defender stops one with.
MOON_STOPPERS = sum(1 << c for c in (49, 50, 51))
#: How the medium player's pass reason names the high cards it sheds.
_SHED = "shed high cards "


class PassSearch:
    """The pass searched in sampled deals (see the module docstring), with ``config``'s settings,
    ``medium``'s pass as the reference and ``rollouts`` playing the deals out."""

    def __init__(self, config: SearchConfig, medium: MediumPlayer, rollouts: Rollouts) -> None:
        self.config, self.medium, self.rollouts = config, medium, rollouts

    def reference_pass(self, view: SeatView) -> tuple[CardSet, str]:
        """The rule-based pass the search must clearly beat, and why: medium's, except that with
        ``moon_safe_passes`` (when moons count) the top hearts in it (:data:`MOON_STOPPERS`) are kept
        and the next most dangerous cards passed instead: a top heart is what a receiver most needs
        to shoot and what this seat stops a moon with."""
        base, why = self.medium.choose_pass(view)
        top = base.mask & MOON_STOPPERS
        if not (top and self.config.moon_safe_passes and view.rules.moon.value != "disabled"):
            return base, why
        rules = view.rules
        hand = view.hand.mask
        spare = sorted(
            (c for c in cards_of(hand & ~base.mask & ~MOON_STOPPERS)),
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

    def candidates(self, view: SeatView, base: CardSet) -> list[int]:
        """The passes worth searching: the reference pass, medium's, the combinations of the most
        dangerous cards, and (with ``moon_safe_passes``, when moons count) the combinations of the
        most dangerous cards other than the top hearts."""
        rules = view.rules
        hand = view.hand.mask
        count = rules.pass_count
        ranked = sorted(cards_of(hand), key=lambda c: (-pass_danger(rules, hand, c), c))
        pools = [ranked[: count + 2]]
        if self.config.moon_safe_passes and rules.moon.value != "disabled":
            kept = [c for c in ranked if not MOON_STOPPERS >> c & 1]
            if len(kept) >= count and kept[:count] != pools[0][:count]:
                pools.append(kept[: count + 2])
        out = [base.mask]
        plain = self.medium.choose_pass(view)[0].mask
        if plain not in out:
            out.append(plain)
        for pool in pools:
            for combo in combinations(pool, count):
                m = 0
                for c in combo:
                    m |= 1 << c
                if m not in out:
                    out.append(m)
        return out[: self.config.pass_candidates]

    def search(
        self, view: SeatView, rng: random.Random, deadline: float, also: tuple[int, ...] = ()
    ) -> tuple[CardSet, str, Measure]:
        """The searched pass, its reason and what the search measured: every candidate
        (:meth:`candidates`, and the passes ``also``, as masks) played out in the same sampled deals
        until ``deadline`` (``time.perf_counter``) or the world cap; the reference pass is kept
        unless another clearly beats it."""
        import time

        import numpy as np

        base, base_why = self.reference_pass(view)
        config = self.config
        rules = view.rules
        n = rules.players
        me = view.seat
        hand = view.hand.mask
        cands = self.candidates(view, base)
        cands += [m for m in also if m not in cands]
        endgame = endgame_near(view)
        vals: list[list[float]] = [[] for _ in cands]
        own = [0.0] * len(cands)
        unseen = cards_of(rules.in_play & ~hand)
        R = fast.rules_array(rules)
        offset = fast.pass_offset(R, view.hand_number)
        cand_masks = np.array(cands, dtype=np.int64)
        no_card = np.array([-1], dtype=np.int64)
        codes = fast.policy_codes(config.rollout, config.pass_opponents, n, me)
        policies = np.array([codes], dtype=np.int64)
        totals = np.array(view.totals, dtype=np.int64)
        reps = max(1, min(config.max_repeats, config.rollouts_per_world // len(cands)))
        others = [s for s in range(n) if s != me]
        worlds = 0
        while True:
            rng.shuffle(unseen)
            dealt = [0] * n
            for j, c in enumerate(unseen):
                dealt[others[j % (n - 1)]] |= 1 << c
            dealt[me] = hand
            passes = [fast.danger_pass(R, dealt[s], rules.pass_count) for s in range(n)]
            # Each candidate pass's position is one row; every row meets the same random numbers.
            row_seeds = [rng.getrandbits(31) for _ in range(reps)]
            W = fast.pass_positions(
                R, np.array(dealt, dtype=np.int64), np.array(passes, dtype=np.int64), me, cand_masks, offset
            )
            seeds = np.array([row_seeds] * len(cands), dtype=np.int64)
            scores = self.rollouts(W, R, no_card, policies, seeds, totals)
            util = utilities(view, scores[:, :, 0, 0, :], endgame).mean(axis=1)
            mine_pts = scores[:, :, 0, 0, me].mean(axis=1)
            for i in range(len(cands)):
                vals[i].append(float(util[i]))
                own[i] += float(mine_pts[i])
            worlds += 1
            if worlds >= config.worlds or time.perf_counter() >= deadline:
                break
        measure = Measure("pass", tuple(cands), (0,), [vals], [own], worlds, worlds * len(cands) * reps, None)
        best = max(range(len(cands)), key=lambda i: sum(vals[i]))
        if best and not clearly_better(vals[best], vals[0], config.prior_margin):
            best = 0  # the reference pass (candidate 0) unless the search clearly beats it
        chosen = CardSet(cands[best])
        plain = " ".join(c.symbol() for c in base)
        tail = f"{own[best] / worlds:.1f} pts expected over {worlds} deals"
        if cands[best] == base.mask:
            return chosen, f"{base_why} ({tail})", measure
        better = f"pass {' '.join(c.symbol() for c in chosen)}: better than {plain} in the deals played out"
        return chosen, f"{better} ({tail}; {own[0] / worlds:.1f} for {plain})", measure


def quick_pass(rules: Rules, hand: int) -> int:
    """The other seats' pass in a pass search: the most dangerous cards by medium's measure."""
    return fast.danger_pass(fast.rules_array(rules), hand, rules.pass_count)

"""The hard and expert players: Monte Carlo search over the hidden cards, configured by a
:class:`~hearts.players.search_config.SearchConfig` (``hard`` and ``expert`` are two constants of it).

For each decision the player

1. works out what its seat knows (:class:`~hearts.players.knowledge.Knowledge`);
2. samples deals of the unseen cards consistent with it ("worlds",
   :class:`~hearts.players.sampling.LikelyHandsSampler`);
3. plays every candidate card (:func:`candidate_cards`: the legal cards, those that play alike
   merged) out in every world with the compiled rollout policies, on the SAME worlds and rollout
   random numbers for every candidate (common random numbers: a fair comparison, little noise);
4. keeps the rule-based card (the config's ``prior``: medium's or the learned model's) unless
   another is clearly better: by ``prior_margin`` points plus one standard error of the paired
   difference (:func:`hearts.players.valuation.clearly_better`).

Utility is the seat's hand score against the others' mean (:func:`~hearts.players.rollouts.utilities`).

**Inference.** Each sampled world is weighted by how well medium's play explains the other seats'
plays so far in it (:func:`hearts.players.compiled.play_log_likelihoods`): a card medium would not
have played from that world's hand multiplies its weight by ``miss_weight`` (``lead_miss_weight``
for a lead). Means and the margin test are taken over the weights.

**Moon plan.** When no other seat holds a point and the hand is strong enough (or this seat already
has half the points), every candidate is also played out with this seat running for the moon.

**Moon defence.** An opponent holding every point taken so far, from ``threat_points`` of them, runs
for the moon in the rollouts, so the search values stopping it. With ``early_threat_points`` an
earlier holder (or the seat that has won the most tricks) is an early threat
(:mod:`hearts.players.early_threat`): it runs only in the worlds where its dealt hand, its plays and
its pass make a run likelier than not; where it runs in most worlds, the prior is medium's defence.

**Passing** is searched too (:class:`hearts.players.passing.PassSearch`).

The budget is checked after every batch of worlds (a batch cut to the time left), so a decision
overruns it by about one world's rollouts.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from hearts.core import CARDS, Card, CardSet, SeatView
from hearts.core.arith import beats
from hearts.core.cards import HEARTS, cards_of
from hearts.players import compiled as fast
from hearts.players.base import Player
from hearts.players.early_threat import EarlyThreat, early_threat_seat
from hearts.players.knowledge import Knowledge, moon_hand_strength, sym
from hearts.players.learned import LearnedPlayer
from hearts.players.medium import MediumPlayer
from hearts.players.passing import PassSearch
from hearts.players.rollouts import Measure, Rollouts, endgame_near, utilities
from hearts.players.sampling import LikelyHandsSampler
from hearts.players.search_config import HARD, SearchConfig
from hearts.players.valuation import Valuation, clearly_better, representative, weighted_sum

if TYPE_CHECKING:
    from hearts.players.compiled import Floats, Ints

__all__ = ["SearchPlayer", "candidate_cards"]


def candidate_cards(k: Knowledge, legal: int) -> list[int]:
    """The legal cards with equivalent ones merged, the highest of each run kept: two cards of a
    suit play alike when they score the same (penalty and bonus cards stay apart from plain ones)
    and no card between them is still out or lies in the trick in progress (one that does is a
    card one of them beats and the other does not). Hints and reviews read the same candidates."""
    special = k.rules.penalty_mask & ~HEARTS  # Q♠
    bonus = k.bonus_card()
    if bonus >= 0:
        special |= 1 << bonus
    out = k.out | k.trick_mask
    reps: list[int] = []
    prev = -1
    for c in cards_of(legal):
        bit = 1 << c
        if (
            prev >= 0
            and c // 13 == prev // 13
            and not (bit | 1 << prev) & special
            and not out & ((1 << c) - (2 << prev))
            and ((bit & HEARTS) == 0) == ((1 << prev & HEARTS) == 0)
        ):
            reps[-1] = c
        else:
            reps.append(c)
        prev = c
    return reps


class SearchPlayer(Player):
    """Monte Carlo search over sampled worlds (see the module docstring), as ``config`` says;
    ``time_budget`` (seconds a decision) replaces the config's ``budget``."""

    def __init__(self, config: SearchConfig = HARD, seed: int | None = None, time_budget: float | None = None) -> None:
        super().__init__(seed=seed, time_budget=time_budget)
        if time_budget is not None:
            config = config.replace(budget=time_budget)
        self.config = config
        self.name = config.name
        #: The rule-based player the search calls: its pass is the reference pass, its card the
        #: defence against an early threat (and the prior, unless the prior is the learned model's).
        self.medium = MediumPlayer(seed=seed)
        self.prior_player: MediumPlayer = LearnedPlayer(seed=seed) if config.prior == "learned" else self.medium
        self.rollouts = Rollouts(config)
        self.passing = PassSearch(config, self.medium, self.rollouts)
        #: What the last decision's search measured (None: nothing was searched).
        self.last: Measure | None = None
        fast.warm_up()

    def __repr__(self) -> str:
        return f"SearchPlayer({self.config.name}, seed={self.seed!r})"

    def _deadline(self) -> float:
        return time.perf_counter() + self.config.budget * self.config.budget_share

    # -- passing -----------------------------------------------------------------------

    def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
        deadline = self._deadline()
        chosen, why, self.last = self.passing.search(view, self.view_rng(view), deadline)
        return chosen, why

    # -- playing -----------------------------------------------------------------------

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        deadline = self._deadline()
        config = self.config
        legal = 0
        for legal_card in view.legal:
            legal |= 1 << legal_card
        self.last = None
        if not legal & (legal - 1):
            return CARDS[legal.bit_length() - 1], "the only legal card"
        k = Knowledge.of(view)
        hint, hint_why = self.prior_player.play_from(k, legal)
        cands = candidate_cards(k, legal)
        if len(cands) == 1:  # every legal card plays alike: no search, the rule-based card
            return CARDS[hint], f"{hint_why} (my legal cards are all alike)"
        me = view.seat
        plans = [0]
        if k.moon_still_open_for_me() and (
            moon_hand_strength(k.rules, k.hand) >= config.moon_plan_strength or k.points[me] >= k.rules.moon_points // 2
        ):
            plans.append(1 << me)
        threat = k.moon_threat(min_points=config.threat_points)
        early = -1
        if threat < 0 and config.early_threat_points:
            early = early_threat_seat(view, k, config.early_threat_points, config.early_threat_tricks)
        m = self.last = self._search(view, k, self.view_rng(view), cands, plans, threat, deadline, early)
        norm = m.total_weight
        weights = m.weights
        vals = m.values
        sums = [[weighted_sum(v, weights) for v in row] for row in vals]
        best_p, best_i = max(
            ((p, i) for p in range(len(plans)) for i in range(len(cands))), key=lambda pi: sums[pi[0]][pi[1]]
        )
        share = m.early_share
        if early >= 0 and share >= config.early_defence_share:
            # The early threat runs in most worlds: the rule-based card is medium's defence against it.
            hint, hint_why = self.medium.play_from(k, legal, running=early)
        hint_i = representative(cands, hint)
        if (best_p, best_i) != (0, hint_i) and not clearly_better(
            vals[best_p][best_i], vals[0][hint_i], config.prior_margin, weights
        ):
            best_p, best_i = 0, hint_i
        card = cands[best_i]
        ranked = sorted(range(len(cands)), key=lambda i: -sums[best_p][i])
        exp = m.own[best_p][best_i] / norm
        runner = next((i for i in ranked if i != best_i), None)
        tail = f"{exp:.1f} pts expected over {m.worlds} worlds"
        if weights is not None:
            tail += f" weighted to {m.effective_worlds:.0f} by the plays seen"
        if runner is not None:
            tail += f", {sym(cands[runner])} {m.own[best_p][runner] / norm:.1f}"
        if early >= 0:
            tail += f"; {view.names[early]} shoots in {share:.0%} of the worlds"
        if plans[best_p]:
            return CARDS[card], f"moon plan: {sym(card)} ({tail})"
        # A card taking a trick with points off the threat stops its moon; for an early threat only
        # where the worlds in which it shoots decided the card (without them it would not have won).
        stopper = threat if threat >= 0 else early
        if stopper >= 0 and view.trick.cards and (k.trick_points() > 0 or k.trick_mask & HEARTS):
            if beats(card, k.winning_card) and (
                threat >= 0 or (best_i != hint_i and not _wins_without_moon(m, best_i, hint_i, config.prior_margin))
            ):
                return CARDS[card], f"stop {view.names[stopper]}'s moon: take the trick with {sym(card)} ({tail})"
        if best_i == hint_i:
            return CARDS[hint], f"{hint_why} ({tail})"
        return CARDS[card], f"{sym(card)} does best in the deals played out from here ({tail})"

    def _search(
        self,
        view: SeatView,
        k: Knowledge,
        rng: random.Random,
        cands: list[int],
        plans: list[int],
        threat: int,
        deadline: float,
        early: int,
    ) -> Measure:
        """Every candidate under every plan in sampled worlds, played out in compiled code: a batch
        of worlds per call, several rollouts per world (their mean utility is the world's value),
        every candidate and plan on the same random numbers. With a trick done, each world is weighted
        by how well medium's play explains the other seats' plays in it. ``threat`` (-1: none) runs for
        the moon in every world; an ``early`` threat (-1: none) where :class:`EarlyThreat` says."""
        import numpy as np

        config = self.config
        n = view.rules.players
        me = view.seat
        R = fast.rules_array(view.rules)
        moon = fast.policy_code("moon")
        seats = fast.policy_codes(config.rollout, "medium", n, me)
        defence = 1 << threat if threat >= 0 else 0
        pol = np.array([[moon if (plan | defence) >> s & 1 else seats[s] for s in range(n)] for plan in plans])
        pol = pol.astype(np.int64)
        runner = None
        if early >= 0:
            pol_run = pol.copy()
            pol_run[:, early] = moon
            runner = EarlyThreat(config, R, view, early)
        early_runs: list[bool] = []
        cards = np.array(cands, dtype=np.int64)
        totals = np.array(view.totals, dtype=np.int64)
        reps = max(1, min(config.max_repeats, config.rollouts_per_world // (len(cands) * len(plans))))
        endgame = endgame_near(view)
        hands_at = fast.hands_slot()
        chunks_u: list[Floats] = []
        chunks_own: list[Ints] = []
        chunks_logw: list[Floats] = []
        infer = bool(view.tricks)  # nothing to explain before the first trick is done
        plays = np.array([c for t in (*view.tricks, view.trick) for c in t.cards], dtype=np.int64)
        played = np.array(view.played_by(), dtype=np.int64)
        log_miss, log_lead_miss = np.log(config.miss_weight), np.log(config.lead_miss_weight)
        medium = fast.policy_code("medium")
        sample = LikelyHandsSampler(k)
        base: Ints | None = None
        worlds = 0
        began = time.perf_counter()
        batch = 2  # a first small batch measures the time a world takes here
        while worlds < config.worlds:
            batch = min(batch, config.worlds - worlds)
            sampled = sample(rng, batch)
            if base is None:
                base = fast.state_array(view.world([int(h) for h in sampled[0]]))
            W = np.repeat(base[None, :], batch, axis=0)
            W[:, hands_at : hands_at + n] = sampled
            seeds = np.array([[rng.getrandbits(31) for _ in range(reps)] for _ in range(batch)], dtype=np.int64)
            starts = sampled | played
            if runner is not None:
                # early_logw: the early seat's plays are explained by the mixture of the two models.
                runs, early_logw = runner.runs(sampled, *((starts, plays) if infer else ()))
                early_runs.extend(runs.tolist())
                scores = np.empty((batch, reps, len(plans), len(cands), n), dtype=np.int64)
                for pick, rows in ((~runs, pol), (runs, pol_run)):
                    if pick.any():
                        scores[pick] = self.rollouts(W[pick], R, cards, rows, seeds[pick], totals)
            else:
                scores = self.rollouts(W, R, cards, pol, seeds, totals)
            chunks_u.append(utilities(view, scores, endgame).mean(axis=1))  # [world, plan, card]
            chunks_own.append(scores[..., me].mean(axis=1))
            if infer:
                logw = fast.play_log_likelihoods(starts, R, plays, me, log_miss, log_lead_miss, medium)
                chunks_logw.append(logw + early_logw if runner is not None else logw)
            worlds += batch
            now = time.perf_counter()
            if now >= deadline:
                break
            # The next batch: what fits in the time left at the pace so far (so the budget is
            # overrun by at most about one world), up to world_batch.
            per_world = (now - began) / worlds
            batch = max(1, min(config.world_batch, int((deadline - now) / per_world)))
        u = np.concatenate(chunks_u)  # [world, plan, card]
        mine = np.concatenate(chunks_own)
        weights = None
        if infer:
            logw = np.concatenate(chunks_logw)
            w = np.exp(logw - logw.max())
            weights = w.tolist()
            own = (mine * w[:, None, None]).sum(axis=0)
        else:
            own = mine.sum(axis=0)
        return Measure(
            "play",
            tuple(cands),
            tuple(plans),
            [[u[:, p, i].tolist() for i in range(len(cands))] for p in range(len(plans))],
            own.tolist(),
            worlds,
            worlds * reps * len(cands) * len(plans),
            weights,
            threat,
            tuple(early_runs),
        )

    # -- every option valued, for a review (hearts.review) ------------------------------

    def value_options(self, view: SeatView, passes: tuple[CardSet, ...] = ()) -> Valuation:
        """This seat's decision now, made exactly as :meth:`decide` makes it (the same worlds, random
        numbers and choice), with the search's measure of every option kept. In the pass phase
        ``passes`` are valued beside the search's own candidates (a review values the pass that was
        made)."""
        from hearts.core import Phase
        from hearts.players.valuation import valuation_of

        if view.phase is Phase.PASS:
            deadline = self._deadline()
            chosen, reason, self.last = self.passing.search(
                view, self.view_rng(view), deadline, tuple(p.mask for p in passes)
            )
            return valuation_of(self.last, chosen.mask, reason)
        card, reason = self.choose_play(view)
        return valuation_of(self.last, int(card), reason)


def _wins_without_moon(m: Measure, best_i: int, hint_i: int, margin: float) -> bool:
    """Whether candidate ``best_i`` still clearly beats the prior's in the worlds of the search
    ``m`` where the early moon threat did not shoot."""
    keep = [i for i, ran in enumerate(m.early_runs) if not ran]
    if len(keep) < 2:
        return False
    a = [m.values[0][best_i][i] for i in keep]
    b = [m.values[0][hint_i][i] for i in keep]
    w = None if m.weights is None else [m.weights[i] for i in keep]
    return clearly_better(a, b, margin, w)
